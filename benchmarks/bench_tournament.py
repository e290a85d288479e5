"""Tournament throughput: games per second in this process, with 1 and 2 local worker processes, and on a Dask
LocalCluster of 2 worker processes — the same tournament each time (and the same table, which is checked).

    .venv/bin/python benchmarks/bench_tournament.py [--games 2] [--rounds 1]

The tournament: two students' bot files (a five-line "longest claim" bot and the lesson's planner), the house bots
greedy and random, 2 players: every pair in both seats over --games deals (12 games a deal). Throughput is wall
clock (what a teacher waits for) next to the machine's load average; the CPU seconds per game add this process
and all its finished child processes (referees, zygotes, bots; not Dask's workers). Printed, never asserted.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import textwrap
import time
from pathlib import Path

LONGEST = """
def choose(view):
    claims = view.moves_of("claim")
    if claims:
        return max(claims, key=lambda move: move.length)
    return view.legal[0]
"""

PLANNER = """
def keep_cost(view, move):
    paths = [view.cheapest_path(t.a, t.b) for t in move.tickets]
    trains = sum(p.trains for p in paths if p) + 100 * sum(p is None for p in paths)
    return trains - sum(t.points for t in move.tickets)


def choose(view):
    keeps = view.moves_of("keep")
    if keeps:
        return min(keeps, key=lambda move: keep_cost(view, move))
    wanted = {}
    for ticket, path in view.ticket_plan():
        if path:
            for route in path.routes:
                wanted[route.id] = route
    claims = view.moves_of("claim")
    useful = [m for m in claims if m.route.id in wanted]
    if useful:
        return max(useful, key=lambda m: (m.length, -m.locomotives))
    if claims and not wanted:
        return max(claims, key=lambda m: m.length)
    colours = {route.colour for route in wanted.values()}
    for m in view.moves_of("draw"):
        if m.card in colours:
            return m
    return view.legal[0]
"""


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2, help="deals (12 games each)")
    ap.add_argument("--rounds", type=int, default=1, help="repeat the four runs, interleaved")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from ttr_nb.tournament import run_tournament
    folder = Path(tempfile.mkdtemp(prefix="ttr-bench-"))
    bots = []
    for name, text in (("longest", LONGEST), ("planner", PLANNER)):
        (folder / f"{name}.py").write_text(textwrap.dedent(text), encoding="utf-8")
        bots.append(str(folder / f"{name}.py"))
    bots += ["greedy", "random"]
    run_tournament(bots, "usa", games=1, workers=0, seed=99)       # warm-up: imports, maps
    tables = {}
    print(f"{len(bots)} bots, 2 players, {args.games} deals = {12 * args.games} games a run; {os.cpu_count()} cores")
    for _ in range(args.rounds):
        for label, kw in (("this process", dict(workers=0)), ("1 local worker", dict(workers=1)),
                          ("2 local workers", dict(workers=2)), ("Dask LocalCluster, 2 workers", None)):
            cluster = None
            if kw is None:
                from dask.distributed import LocalCluster
                cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
                kw = dict(scheduler=cluster.scheduler_address)
            load = os.getloadavg()[0]
            cpu, wall = _cpu(), time.perf_counter()
            r = run_tournament(bots, "usa", games=args.games, players=2, seed=1, **kw)
            wall = time.perf_counter() - wall
            if cluster is not None:
                cluster.close()
            cpu = _cpu() - cpu
            n = len(r.records)
            tables.setdefault(r.table(), []).append(label)
            # CPU: this process and every finished descendant (referees, zygotes, bots); Dask's workers are
            # stopped by their nanny, not waited for, so their CPU is missing: wall clock only there
            cpu_text = f"{cpu / n:5.2f} CPU s a game, " if cluster is None else ""
            print(f"  {label:30} {n / wall:6.2f} games/s  ({wall:6.1f} s wall, {cpu_text}load average {load:.1f})",
                  flush=True)
    print("same table in every run:", len(tables) == 1)
    print(next(iter(tables)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
