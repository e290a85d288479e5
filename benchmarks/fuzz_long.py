"""The long fuzz run: the properties of tests/test_fuzz.py with many more (random, not derandomized) examples.

    python benchmarks/fuzz_long.py [ACTION_EXAMPLES] [SAVE_EXAMPLES]

Prints how many texts were tried, how the parser/engine answered (refused by the parser, refused by the rules,
accepted), how many damaged saves were refused or loaded, and the time. A failure is a hypothesis error with the
smallest input it found: something other than a project error was raised, or something invalid was accepted.
"""
from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz_helpers import cases, check_action_text, check_save_text, positions, save_texts  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402


def main(argv: list[str]) -> int:
    n_actions = int(argv[0]) if argv else 5000
    n_saves = int(argv[1]) if len(argv) > 1 else 1000
    common = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))
    outcomes: Counter = Counter()
    states = positions()

    @settings(max_examples=n_actions, **common)
    @given(case=cases())
    def actions(case):
        i, text = case
        outcomes[check_action_text(states[i], text)] += 1

    saves: Counter = Counter()

    @settings(max_examples=n_saves, **common)
    @given(text=save_texts())
    def loads(text):
        with tempfile.TemporaryDirectory() as d:
            saves[check_save_text(Path(d) / "fuzz.json", text)] += 1

    t0 = time.perf_counter()
    actions()
    t1 = time.perf_counter()
    loads()
    t2 = time.perf_counter()
    total = sum(outcomes.values())
    print(f"action texts: {total} tried in {t1 - t0:.1f} s ({total / (t1 - t0):.0f}/s): "
          + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    total = sum(saves.values())
    print(f"damaged saves: {total} tried in {t2 - t1:.1f} s ({total / (t2 - t1):.0f}/s): "
          + ", ".join(f"{k} {v}" for k, v in sorted(saves.items())))
    print("no property failed: nothing but project errors raised, nothing invalid accepted")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
