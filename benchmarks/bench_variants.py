"""Every board variant's time per ply against USA's, interleaved game by game in one process (printed, never
asserted). Run: python benchmarks/bench_variants.py [--games N] [--quick] [--variants europe,maerklin,...]
[--cpu N|first|any] (one CPU by default: the machine's cores do not run at the same speed)

Target (issue 18, item 2): each board variant at most 1.3x USA per ply (warm), random 4-player games.

The same seeded random-bot games as ``workloads.play_random`` (scored), played in turn: USA game g, then each
variant's game g, then USA game g+1, ... so that a change in the machine's load touches every variant alike (timing
the variants one after another in separate processes moves their ratios with the load). CPU time
(``time.process_time``) of each game, after a warm-up of two untimed games per variant.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from workloads import machine, pin, play_random  # noqa: E402  (benchmarks/ is on sys.path when run as a script)

VARIANTS = ("europe", "maerklin", "south_korea")
NAMES = {"usa": "USA", "europe": "Europe", "maerklin": "Märklin", "south_korea": "South Korea"}


def interleaved(variants=VARIANTS, games: int = 60, players: int = 4, seed0: int = 0,
                warmup: int = 2) -> dict[str, tuple[float, float]]:
    """{variant: (CPU seconds, plies)} of ``games`` random games each (seeds seed0..), USA included, one game of
    each in turn."""
    keys = ("usa",) + tuple(v for v in variants if v != "usa")
    for g in range(warmup):
        for key in keys:
            play_random(key, players, 10_000 + g)
    totals = {key: [0.0, 0] for key in keys}
    clock = time.process_time
    for g in range(seed0, seed0 + games):
        for key in keys:
            start = clock()
            plies = play_random(key, players, g)
            totals[key][0] += clock() - start
            totals[key][1] += plies
    return {key: (t, n) for key, (t, n) in totals.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60, help="games of each variant (default 60)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated board variants besides USA")
    ap.add_argument("--quick", action="store_true", help="a few seconds: 4 games each")
    ap.add_argument("--cpu", default="first", help="the CPU to run on: a number, first (the default: the lowest this "
                    "process may use) or any (not pinned)")
    args = ap.parse_args(argv)
    if args.quick:
        args.games = 4
    variants = tuple(v.strip() for v in args.variants.split(",") if v.strip())
    where = pin(args.cpu)
    print("before:", machine(), flush=True)
    print(f"the games run {where}", flush=True)
    result = interleaved(variants, args.games, args.players)
    usa_us = 1e6 * result["usa"][0] / result["usa"][1]
    print(f"random {args.players}-player games, {args.games} of each, interleaved game by game, CPU time per ply:")
    for key, (seconds, plies) in result.items():
        us = 1e6 * seconds / plies
        ratio = "" if key == "usa" else f"  {us / usa_us:5.2f}x USA (target <= 1.3x)"
        print(f"  {NAMES.get(key, key):12s} {us:7.1f} µs  ({plies / args.games:5.0f} plies/game){ratio}")
    print("after: ", machine())
    return 0


if __name__ == "__main__":
    sys.exit(main())
