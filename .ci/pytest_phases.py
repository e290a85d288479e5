"""pytest plugin used by .ci/test.sh: prints how long each phase of the test run took.

It prints inside pytest's own terminal summary, so pytest's "N passed in X s" line stays the last
line of the run (CI reads the closing line). Loaded with ``-p pytest_phases`` (PYTHONPATH=.ci).

Phases: setup.sh (seconds passed in TTR_NB_SETUP_SECONDS), collection, then the time spent in
each kind of test: unit (tests/ minus browser), browser (tests/browser), notebooks (nbval),
README doctest.
"""
from __future__ import annotations

import os
import time

_t0 = time.perf_counter()
_collected_at: float | None = None
_spent: dict[str, float] = {}
_count: dict[str, int] = {}


def _kind(nodeid: str) -> str:
    path = nodeid.split("::", 1)[0]
    if path.endswith(".ipynb"):
        return "notebooks (nbval)"
    if path.endswith(".md"):
        return "README doctest"
    if path.startswith("tests/browser/"):
        return "browser tests"
    return "unit tests"


def pytest_collection_finish(session):
    global _collected_at
    _collected_at = time.perf_counter()


def pytest_runtest_logreport(report):
    kind = _kind(report.nodeid)
    _spent[kind] = _spent.get(kind, 0.0) + report.duration
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        _count[kind] = _count.get(kind, 0) + 1


def pytest_terminal_summary(terminalreporter):
    tr = terminalreporter
    tr.section("phase timings")
    setup = os.environ.get("TTR_NB_SETUP_SECONDS")
    if setup:
        tr.write_line(f"{'setup (.ci/setup.sh)':<26}{float(setup):8.1f} s")
    if _collected_at is not None:
        tr.write_line(f"{'startup + collection':<26}{_collected_at - _t0:8.1f} s")
    for kind in ("unit tests", "notebooks (nbval)", "browser tests", "README doctest"):
        if kind in _spent:
            tr.write_line(f"{kind:<26}{_spent[kind]:8.1f} s  ({_count.get(kind, 0)} items)")
    tr.write_line(f"{'pytest wall clock':<26}{time.perf_counter() - _t0:8.1f} s")
