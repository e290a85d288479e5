"""Every CPU benchmark runs in CI, in its quick mode, so none can rot unnoticed (issue 18 item 6).

Each script under benchmarks/ that measures CPU work is run with ``--quick`` (a few seconds) in a fresh process: it
must exit 0 and print its figures (numbers with their units). The figures themselves are never asserted: they
depend on the machine and its load. Not here: bench_browser.py and bench_lite.py (they drive Chromium or build
JupyterLite: the browser suite covers those paths), bench_tournament.py (local worker processes and Dask: the
tournament tests cover it), compare.py (it checks out a second tree; its workloads run here through workloads.py).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"

# script (and arguments) -> the figures it must print
CASES = {
    "bench_engine.py": [r"random 4-player USA games: +[\d.]+ games/s", r"longest trail, all 100 USA routes: +[\d.]+ ms CPU",
                        r"import ttr_nb \(bytecode cached\): +[\d.]+ ms CPU",
                        r"Game.play_bots, the same games: +[\d.]+ games/s .* [\d.]+x; target >= 0.8x"],
    "bench_europe.py": [r"Europe +[\d.]+ games/s", r"per ply: [\d.]+x", r"^ +0 +[\d.]+ / +[\d.]+"],
    "bench_maerklin.py": [r"Märklin/USA time per ply: [\d.]+x", r"best passenger move.*median [\d.]+ ms"],
    "bench_south_korea.py": [r"USA / South Korea per ply: +[\d.]+x"],
    "bench_variants.py": [r"^ +USA +[\d.]+ µs", r"^ +Europe +[\d.]+ µs .* [\d.]+x USA", r"^ +Märklin +[\d.]+ µs .* [\d.]+x USA",
                          r"^ +South Korea +[\d.]+ µs .* [\d.]+x USA", r"^the games run on (CPU \d+|any CPU)"],
    "bench_trail.py": [r"usa +whole board.*median [\d.]+ ms \([\d.]+ ms CPU\)", r"random 15-route subsets: median",
                       r"networks of 10 random 4-player games' final scores: 40 calls, .* [\d.]+ µs CPU a call"],
    "bench_cardgame.py": [r"Card Game games: [\d.]+ games/s", r"31-ticket position of issue 18, best by points: [\d.]+ ms",
                          r"hands of 28-46 tickets.*median [\d.]+ ms, 99th percentile [\d.]+ ms, max",
                          r"32 slowest hands.*max [\d.]+ ms CPU .*positions judged: median \d+, max \d+$"],
    "bench_widgets.py": [r"whole step, CPU time of this process: +median +[\d.]+ ms", r"update_board +median +[\d.]+ ms"],
    "bench_coach.py": [r"^greedy-0\.2 +usa 2p +coach:0\.01 +greedy +2 .* +[\d.]+ +[\d.]+$",
                       r"^cardgame-1 +cardgame 2p +coach:0\.01 +greedy +2 "],
    "bench_simulate.py": [r"^1 worker\(s\): median [\d.]+ s wall clock", r"^2 worker\(s\): .*speed-up over 1: [\d.]+x",
                          r"^the same statistics in every run: yes$"],
    "workloads.py usa-history": [r'"unit": "bytes", "value": [\d.]+'],
    "workloads.py usa-play_bots": [r'"unit": "games/s", "value": [\d.]+'],
}


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(CASES))
def test_benchmark_runs_in_quick_mode(script):
    name, *args = script.split()
    done = subprocess.run([sys.executable, str(BENCH / name), *args, "--quick"], capture_output=True, text=True,
                          timeout=600, cwd=BENCH.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    for figure in CASES[script]:
        assert re.search(figure, done.stdout, re.M), f"{script}: no {figure!r} in\n{done.stdout}"


def test_every_cpu_benchmark_is_covered():
    covered = {s.split()[0] for s in CASES} | {"bench_browser.py", "bench_lite.py", "bench_tournament.py", "compare.py",
                                              "workloads.py", "fuzz_long.py"}
    scripts = {p.name for p in BENCH.glob("*.py")}
    assert scripts <= covered, sorted(scripts - covered)
    for name in {s.split()[0] for s in CASES}:
        assert "--quick" in (BENCH / name).read_text(encoding="utf-8"), name


@pytest.mark.slow
def test_compare_runs_both_trees_in_lockstep():
    """``compare.py`` against this very commit: a CPU workload is played in turns by two served processes, the
    memory workload once per tree, and the table has each (the figures themselves are not asserted)."""
    if not (BENCH.parent / ".git").exists():
        pytest.skip("not a git checkout: compare.py checks out a second tree with git")
    done = subprocess.run([sys.executable, str(BENCH / "compare.py"), "HEAD", "--quick", "--only",
                           "usa-4p-random,usa-history"], capture_output=True, text=True, timeout=600, cwd=BENCH.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "1 round(s), the two trees in lockstep, " in out
    assert re.search(r"lockstep, (on CPU \d+|on any CPU \(this system cannot pin a process\))$", out, re.M), out
    assert re.search(r"usa-4p-random round 1: HEAD [\d.]+, this tree [\d.]+ games/s \([\d.]+x\)", out), out
    assert re.search(r"^random 4-player USA games, scored +games/s +[\d.]+ +[\d.]+ +[\d.]+x", out, re.M), out
    assert re.search(r"^memory a Game keeps per ply of history +bytes +[\d.]+ +[\d.]+ +[\d.]+x", out, re.M), out


def test_compare_refuses_an_unknown_ref_or_workload():
    for args, words in ((["no-such-ref-xyz"], "is not a commit of this repository"),
                        (["HEAD", "--only", "usa-4p-randm"], "unknown workload(s) usa-4p-randm"),
                        (["HEAD", "--cpu", "second"], "--cpu takes a CPU number, first or any, not 'second'"),
                        ) + (((["HEAD", "--cpu", "4096"], "CPU 4096 is not one this process may use"),)
                             if hasattr(os, "sched_setaffinity") else ()):
        done = subprocess.run([sys.executable, str(BENCH / "compare.py"), *args], capture_output=True, text=True,
                              timeout=120, cwd=BENCH.parent)
        assert done.returncode != 0 and words in done.stderr, done.stderr
