"""Märklin speed figures (printed, never asserted). Run: python benchmarks/bench_maerklin.py [--games N] [--quick]

Targets (issue 9):
  - random 4-player Märklin games: time per ply within 1.5x of USA's
  - the exact best passenger move on a full late-game board < 50 ms
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_engine import random_games  # noqa: E402  (benchmarks/ is on sys.path when run as a script)


def late_game_positions(count: int, seed0: int = 100):
    """Full late-game boards as the rules allow them: routes in random order go to the 4 seats in turn while the
    seat has the trains (45 each, MK-COMP-2), so every seat ends with 0–6 trains; seat 0 has 3 (or 1) passengers
    on random cities and 0–4 passenger cards; every goods stack is untouched (the most tokens to collect)."""
    from ttr_nb.board.cards import PASSENGER
    from ttr_nb.board.engine import new_game
    from ttr_nb.games.maerklin import RESERVE
    from ttr_nb.board.state import pairs_set, replace_fields
    from ttr_nb.variants import get_variant
    m = get_variant("maerklin").map
    cities = [c.name for c in m.cities if not c.extra.get("country")]
    out = []
    for i in range(count):
        rng = random.Random(seed0 + i)
        s = new_game("maerklin", 4, seed0 + i)
        order = list(range(len(m.routes)))
        rng.shuffle(order)
        trains = [45] * 4
        claims_l = [-1] * len(m.routes)
        seat = 0
        for r in order:
            for k in range(4):
                q = (seat + k) % 4
                if trains[q] >= m.routes[r].length:
                    claims_l[r] = q
                    trains[q] -= m.routes[r].length
                    seat = (q + 1) % 4
                    break
        claims = tuple(claims_l)
        p = s.players[0]
        hand = list(p.hand)
        hand[PASSENGER] = rng.randrange(5)
        places = tuple(rng.sample(cities, 3)) if i % 2 == 0 else tuple(rng.sample(cities, 1)) + (RESERVE,) * 2
        p = replace_fields(p, hand=tuple(hand), ext=pairs_set(p.ext, "passengers", places))
        out.append(replace_fields(s, claims=claims, players=(p,) + s.players[1:]))
    return out


def best_move_times(count: int = 30) -> tuple[float, float, float]:
    from ttr_nb.games.maerklin import best_passenger_move
    times = []
    positions = late_game_positions(count)
    best_passenger_move(positions[0], 0)                   # warm-up
    for s in positions:
        t = time.process_time()                            # CPU time: a busy machine does not count
        best_passenger_move(s, 0)
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times), max(times), statistics.mean(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="a few seconds: 5 games, 6 positions")
    args = parser.parse_args()
    positions = 6 if args.quick else 30
    if args.quick:
        args.games = 5
    random_games("usa", 2, seed0=10_000)                   # warm-up both: the first game loads maps and tables
    random_games("maerklin", 2, seed0=10_000)
    usa_gps, usa_plies = random_games("usa", args.games)
    mk_gps, mk_plies = random_games("maerklin", args.games)
    usa_ms = 1000 / (usa_gps * usa_plies)
    mk_ms = 1000 / (mk_gps * mk_plies)
    print(f"random 4-player USA:      {usa_gps:7.1f} games/s, {usa_plies:6.1f} plies/game, {usa_ms * 1000:6.1f} µs/ply")
    print(f"random 4-player Märklin:  {mk_gps:7.1f} games/s, {mk_plies:6.1f} plies/game, {mk_ms * 1000:6.1f} µs/ply")
    print(f"Märklin/USA time per ply: {mk_ms / usa_ms:.2f}x  (target <= 1.5x)")
    med, worst, mean = best_move_times(positions)
    print(f"best passenger move, full late-game board ({positions} positions, CPU): median {med:.1f} ms, mean {mean:.1f} ms, "
          f"max {worst:.1f} ms  (target < 50 ms)")


if __name__ == "__main__":
    main()
