"""This checkout against a git ref, side by side: the same workloads, interleaved, each in its own process.

    python benchmarks/compare.py REF [--quick] [--rounds N] [--only NAME,NAME] [--cpu N|first|any]

REF (a commit, tag or branch, e.g. 7728263) is checked out beside the working tree as a detached git worktree in a
temporary folder, removed again at the end. Every workload of ``benchmarks/workloads.py`` then runs ``--rounds``
times against each tree, each tree in a fresh process importing that tree's ``ttr_nb`` (the workload code itself is
this checkout's, and uses only the public protocol both trees have). Figures are CPU time (``time.process_time``)
after a warm-up; "better" means faster (or smaller, for memory).

A round of a CPU workload is run in lockstep: the two processes, both warmed up, take turns playing the same seeds a
few games at a time (about 15 turns each, in the order ref-new, new-ref, ref-new, ...), and each adds up its own CPU
time. So the two trees meet the same load at the same moments, and the round's ratio is the ratio of two totals over
the same games. Both processes run on one CPU (``--cpu``, by default the first this process may use; they inherit
its affinity): on this project's shared 2-core machines the two cores do not run at the same speed, and with the
two processes free to run anywhere a round's ratio moved by up to ±20% with where each one ran (2.65-4.02x in one
run of seven rounds; pinned, 3.93-4.10x). The table shows each tree's median figure, the median of the rounds'
ratios, and their lowest and highest: use 5 or more rounds (the default) and read the spread beside the ratio. The
memory workload is measured once per round in a fresh process per tree. The machine and its load are printed before
and after.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from workloads import SMALLER_IS_BETTER, WORKLOADS, machine, pin  # noqa: E402


#: the turns each tree takes in a lockstep round (fewer when the workload has fewer games)
TURNS = 15


def command(tree: Path, name: str, *options: str) -> list[str]:
    return [sys.executable, str(HERE / "workloads.py"), "--tree", str(tree), name, *options]


def run(tree: Path, name: str, quick: bool) -> float:
    """The workload's figure, measured once in a fresh process importing ``tree``'s ttr_nb."""
    done = subprocess.run(command(tree, name, *(["--quick"] if quick else [])), capture_output=True, text=True,
                          cwd=tree)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed in {tree}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])["value"]


class Server:
    """A fresh process importing ``tree``'s ttr_nb that plays the workload's seeds on request
    (``workloads.py --serve``) and answers with its own CPU time."""

    def __init__(self, tree: Path, name: str):
        self.where = f"{name} in {tree}"
        self.errors = tempfile.TemporaryFile(mode="w+", encoding="utf-8")     # never a pipe nobody reads
        self.proc = subprocess.Popen(command(tree, name, "--serve"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.errors, text=True, cwd=tree)

    def _line(self) -> str:
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.errors.seek(0)
            raise SystemExit(f"{self.where} failed:\n{self.errors.read()[-2000:]}")
        return line

    def ready(self) -> None:
        if self._line().strip() != "ready":
            raise SystemExit(f"{self.where}: no 'ready' after the warm-up")

    def play(self, first: int, count: int) -> tuple[float, int]:
        self.proc.stdin.write(f"{first} {count}\n")
        self.proc.stdin.flush()
        cpu, plies = json.loads(self._line())
        return cpu, plies

    def close(self) -> None:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        self.proc.wait()
        self.errors.close()


def lockstep(trees: list[tuple[str, Path]], name: str, quick: bool) -> dict[str, float]:
    """One round of a CPU workload: each tree's figure over the same seeds, played in turns (see the docstring)."""
    w = WORKLOADS[name]
    games = w.quick if quick else w.games
    size = max(1, games // TURNS)
    servers = {which: Server(tree, name) for which, tree in trees}      # both warm up at once
    try:
        for server in servers.values():
            server.ready()
        cpu = dict.fromkeys(servers, 0.0)
        plies = dict.fromkeys(servers, 0)
        for turn, first in enumerate(range(0, games, size)):
            for which, _ in (trees if turn % 2 == 0 else trees[::-1]):
                c, p = servers[which].play(first, min(size, games - first))
                cpu[which] += c
                plies[which] += p
    finally:
        for server in servers.values():
            server.close()
    return {which: w.figure(cpu[which], games, plies[which]) for which in servers}


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
    """One line per workload: each tree's median, the median of the rounds' ratios (a round's two figures share
    its load), and the lowest and highest of them."""
    out = [f"{'workload':<50} {'unit':>8} {ref[:10]:>10} {'this tree':>10} {'ratio':>7} {'rounds':>15}"]
    for label, unit, old, new in rows:
        pairs = sorted(better(unit, o, n) for o, n in zip(old, new))
        ratio = statistics.median(pairs)
        spread = f"{pairs[0]:.2f}-{pairs[-1]:.2f}x" if len(pairs) > 1 else ""
        out.append(f"{label:<50} {unit:>8} {statistics.median(old):10.1f} {statistics.median(new):10.1f} "
                   f"{ratio:6.2f}x {spread:>15}")
    out.append("ratio: how many times better this tree is (faster; for bytes and µs: smaller), the median of the "
               "rounds' ratios; rounds: the lowest and highest ratio of one round")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ref", help="the git ref to compare with, e.g. 7728263")
    ap.add_argument("--quick", action="store_true", help="small workloads, one round (a check that it all runs)")
    ap.add_argument("--rounds", type=int, help="runs per workload and tree (default 5; 1 with --quick)")
    ap.add_argument("--only", help="comma-separated workload names (default all: " + ", ".join(WORKLOADS) + ")")
    ap.add_argument("--cpu", default="first", help="the CPU both trees' processes run on: a number, first (the "
                    "default: the lowest this process may use) or any (not pinned)")
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.only.split(",")] if args.only else list(WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        raise SystemExit(f"compare.py: unknown workload(s) {', '.join(unknown)}; known: {', '.join(WORKLOADS)}")
    rounds = args.rounds or (1 if args.quick else 5)
    if rounds < 1:
        raise SystemExit(f"compare.py: --rounds must be at least 1, not {rounds}")
    where = pin(args.cpu)
    print(f"before: {machine()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="ttr_nb-compare-") as tmp:
        ref_tree = Path(tmp) / "ref"
        commit = checkout(args.ref, ref_tree)
        try:
            print(f"{args.ref} = {commit[:12]} checked out in {ref_tree}; {rounds} round(s), the two trees in "
                  f"lockstep, {where}", flush=True)
            rows = []
            for name in names:
                figures: dict[str, list[float]] = {"ref": [], "new": []}
                w = WORKLOADS[name]
                label, unit = w.label, w.unit
                for r in range(rounds):
                    order = [("ref", ref_tree), ("new", ROOT)]
                    order = order if r % 2 == 0 else order[::-1]
                    if w.play is not None:
                        got = lockstep(order, name, args.quick)
                    else:
                        got = {which: run(tree, name, args.quick) for which, tree in order}
                    for which in figures:
                        figures[which].append(got[which])
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
