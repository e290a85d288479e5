"""Fuzz tests (hypothesis) for the action parser and the save loader: bounded, derandomized, no deadline, so
they take a fixed, short time in CI. The long run is benchmarks/fuzz_long.py."""
from __future__ import annotations

import tempfile
from pathlib import Path

from fuzz_helpers import cases, check_action_text, check_save_text, feature_save_texts, positions, save_texts
from hypothesis import HealthCheck, given, settings

CI = settings(max_examples=150, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@CI
@given(case=cases())
def test_fuzz_action_text_is_refused_or_legal_and_round_trips(case):
    i, text = case
    check_action_text(positions()[i], text)


@settings(CI, max_examples=60)
@given(text=save_texts())
def test_fuzz_damaged_save_is_refused_or_loads_a_valid_game(text):
    with tempfile.TemporaryDirectory() as d:
        check_save_text(Path(d) / "fuzz.json", text)


@settings(CI, max_examples=60)
@given(text=feature_save_texts())
def test_fuzz_damaged_feature_data_is_refused_or_loads_a_valid_game(text):
    """Issue 17: malformed feature data (``ext.goods = 5``, another game's keys) is a SaveFileError, never a raw
    error, never accepted silently."""
    with tempfile.TemporaryDirectory() as d:
        check_save_text(Path(d) / "fuzz.json", text)
