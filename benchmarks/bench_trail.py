"""Speed of the exact longest-trail solver (printed, never asserted). Run: python benchmarks/bench_trail.py [--quick]

Targets (USA-SCORE-3 / EU-SCORE-2):
  - one player owning every USA route (100 routes, 36 cities)   < 100 ms
  - a typical endgame network (10-25 routes)                     well under 1-5 ms
  - the networks of real games' final scores: each seat's routes at the end of seeded random 4-player USA games,
    as the final score hands them to the solver (``longest_trail_canonical``), timed as one batch in CPU time
The boards are read from maps/sources/<map>/routes.csv (relative to the repository root). Each figure is
the median of per-call wall times (time.perf_counter) and, in brackets, of per-call CPU times
(time.process_time), which are less disturbed when the machine is shared.
"""
from __future__ import annotations

import argparse
import csv
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "maps" / "sources"
sys.path.insert(0, str(ROOT))

from ttr_nb.board.trail import longest_trail


def board(name: str) -> list[tuple[str, str, int, str]]:
    with open(REFERENCE / name / "routes.csv", newline="", encoding="utf-8") as f:
        return [(row["city_a"], row["city_b"], int(row["length"]), row["id"]) for row in csv.DictReader(f)]


def timed(edges) -> tuple[float, float, int]:
    """(wall ms, CPU ms, trail length) of one call."""
    w0, c0 = time.perf_counter(), time.process_time()
    trail = longest_trail(edges)
    return (time.perf_counter() - w0) * 1000, (time.process_time() - c0) * 1000, trail.length


def whole_board(name: str, repeat: int) -> None:
    edges = board(name)
    timed(edges)  # warm-up
    runs = [timed(edges) for _ in range(repeat)]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    print(f"{name:6s} whole board, {len(edges)} routes, {sum(e[2] for e in edges)} trains: "
          f"longest trail {runs[0][2]}, median {wall:.2f} ms ({cpu:.2f} ms CPU) over {repeat} runs")


def random_subsets(name: str, size: int, count: int, seed: int = 0) -> None:
    edges = board(name)
    rng = random.Random(seed)
    subsets = [rng.sample(edges, size) for _ in range(count)]
    runs = [timed(s) for s in subsets]
    wall = sorted(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    print(f"{name:6s} {count} random {size}-route subsets: median {statistics.median(wall):.3f} ms "
          f"({cpu:.3f} ms CPU), 99th percentile {wall[int(0.99 * (count - 1))]:.3f} ms, max {wall[-1]:.2f} ms, "
          f"total {sum(wall):.0f} ms")


def game_networks(games: int) -> None:
    """The solver on the networks the final score of ``games`` seeded random 4-player USA games asks about (what
    most calls look like: 10-25 routes, mostly trees with a few cycles): CPU time a call over the batch, after one
    untimed pass."""
    from ttr_nb.bots import RandomBot
    from ttr_nb.board.engine import apply, new_game, to_move
    from ttr_nb.board.trail import longest_trail_canonical
    from ttr_nb.variants import get_variant
    canon = get_variant("usa").route_table.canon_edges
    networks = []
    for seed in range(games):
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        state = new_game("usa", 4, seed)
        while state.phase != "over":
            seat = to_move(state)[0]
            state = apply(state, bots[seat].choose(state, seat)[0])
        for seat in range(4):
            networks.append([canon[i] for i, owner in enumerate(state.claims) if owner == seat])
    for edges in networks:                                 # warm-up
        longest_trail_canonical(edges)
    c0 = time.process_time()
    for edges in networks:
        longest_trail_canonical(edges)
    cpu = (time.process_time() - c0) / len(networks) * 1e6
    routes = statistics.mean(len(edges) for edges in networks)
    print(f"usa    networks of {games} random 4-player games' final scores: {len(networks)} calls, "
          f"{routes:.1f} routes on average, {cpu:.0f} µs CPU a call")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21, help="runs per whole board (default 21)")
    parser.add_argument("--subsets", type=int, default=1000, help="random subsets (default 1000)")
    parser.add_argument("--games", type=int, default=200, help="random games whose final networks are timed (200)")
    parser.add_argument("--quick", action="store_true", help="a few seconds: 3 runs per board, 100 subsets, 10 games")
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.subsets, args.games = 3, 100, 10
    longest_trail(board("usa"))                            # warm-up
    whole_board("usa", args.repeat)
    whole_board("europe", args.repeat)
    random_subsets("usa", 15, args.subsets)
    game_networks(args.games)


if __name__ == "__main__":
    main()
