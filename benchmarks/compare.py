"""This checkout against a git ref, side by side: the same workloads, interleaved, each in its own process.

    python benchmarks/compare.py REF [--quick] [--rounds N] [--only NAME,NAME]

REF (a commit, tag or branch, e.g. 7728263) is checked out beside the working tree as a detached git worktree in a
temporary folder, removed again at the end. Every workload of ``benchmarks/workloads.py`` then runs ``--rounds``
times against each tree, alternating which goes first, each run a fresh process importing that tree's ``ttr_nb``
(the workload code itself is this checkout's, and uses only the public protocol both trees have). Figures are CPU
time (``time.process_time``) after a warm-up; "better" means faster (or smaller, for memory).

The table shows each tree's median, the ratio of the medians, and the spread of the rounds' own ratios (each round
runs the two trees one right after the other, so a round's ratio shares its load). On this project's shared 2-core
machine the same code measures up to ±20% apart between two fresh processes, whatever the load, so one pair of runs
settles nothing: use 5 or more rounds (the default) and read the spread before the ratio. The machine and its load
are printed before and after.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from workloads import SMALLER_IS_BETTER, WORKLOADS, machine  # noqa: E402


def run(tree: Path, name: str, quick: bool) -> dict:
    cmd = [sys.executable, str(HERE / "workloads.py"), "--tree", str(tree), name] + (["--quick"] if quick else [])
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tree)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed in {tree}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def checkout(ref: str, folder: Path) -> str:
    """A detached worktree of ``ref`` at ``folder``; returns the commit it resolved to."""
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=ROOT, capture_output=True,
                            text=True)
    if commit.returncode != 0:
        raise SystemExit(f"compare.py: {ref!r} is not a commit of this repository")
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(folder), commit.stdout.strip()], cwd=ROOT,
                   check=True)
    return commit.stdout.strip()


def remove(folder: Path) -> None:
    subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, capture_output=True)
    subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)


def better(unit: str, old: float, new: float) -> float:
    """How many times better ``new`` is than ``old``: faster, or for times and sizes smaller."""
    return old / new if unit in SMALLER_IS_BETTER else new / old


def table(rows: list[tuple[str, str, list[float], list[float]]], ref: str) -> str:
    """One line per workload: each tree's median, the ratio of the medians, and the lowest and highest ratio of a
    single round (the two trees' figures of one round)."""
    out = [f"{'workload':<50} {'unit':>8} {ref[:10]:>10} {'this tree':>10} {'ratio':>7} {'rounds':>15}"]
    for label, unit, old, new in rows:
        pairs = sorted(better(unit, o, n) for o, n in zip(old, new))
        ratio = better(unit, statistics.median(old), statistics.median(new))
        spread = f"{pairs[0]:.2f}-{pairs[-1]:.2f}x" if len(pairs) > 1 else ""
        out.append(f"{label:<50} {unit:>8} {statistics.median(old):10.1f} {statistics.median(new):10.1f} "
                   f"{ratio:6.2f}x {spread:>15}")
    out.append("ratio: how many times better this tree is (faster; for bytes and µs: smaller), from the two medians; "
               "rounds: the lowest and highest ratio of one round")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ref", help="the git ref to compare with, e.g. 7728263")
    ap.add_argument("--quick", action="store_true", help="small workloads, one round (a check that it all runs)")
    ap.add_argument("--rounds", type=int, help="runs per workload and tree (default 5; 1 with --quick)")
    ap.add_argument("--only", help="comma-separated workload names (default all: " + ", ".join(WORKLOADS) + ")")
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.only.split(",")] if args.only else list(WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        raise SystemExit(f"compare.py: unknown workload(s) {', '.join(unknown)}; known: {', '.join(WORKLOADS)}")
    rounds = args.rounds or (1 if args.quick else 5)
    if rounds < 1:
        raise SystemExit(f"compare.py: --rounds must be at least 1, not {rounds}")
    print(f"before: {machine()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="ttr_nb-compare-") as tmp:
        ref_tree = Path(tmp) / "ref"
        commit = checkout(args.ref, ref_tree)
        try:
            print(f"{args.ref} = {commit[:12]} checked out in {ref_tree}; {rounds} round(s), interleaved", flush=True)
            rows = []
            for name in names:
                figures: dict[str, list[float]] = {"ref": [], "new": []}
                label, unit, _ = WORKLOADS[name]
                for r in range(rounds):
                    order = [("ref", ref_tree), ("new", ROOT)]
                    for which, tree in (order if r % 2 == 0 else order[::-1]):
                        figures[which].append(run(tree, name, args.quick)["value"])
                    old, new = figures["ref"][-1], figures["new"][-1]
                    print(f"  {name} round {r + 1}: {args.ref} {old:.1f}, this tree {new:.1f} {unit} "
                          f"({better(unit, old, new):.2f}x)", flush=True)
                rows.append((label, unit, figures["ref"], figures["new"]))
        finally:
            remove(ref_tree)
    print(table(rows, args.ref))
    print(f"after: {machine()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
