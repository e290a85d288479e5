"""Speed figures for the South Korea variant (printed, never asserted).
Run: python benchmarks/bench_south_korea.py [--games N] [--quick]

Target (issue 10): random 4-player South Korea games per second within 1.5x of USA, compared per ply (a South Korea
game has a different number of plies: the 6-round draft, province placements), with the same random bot.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_engine import random_games  # noqa: E402  (the same random-bot measurement as for USA)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="a few seconds: 8 games")
    args = parser.parse_args()
    if args.quick:
        args.games = 8
    random_games("usa", 2, seed0=10_000)                   # warm-up both: the first game loads maps and tables
    random_games("south_korea", 2, seed0=10_000)
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} cores (one core used), load {os.getloadavg()[0]:.2f}")
    usa_rate, usa_plies = random_games("usa", args.games)
    sk_rate, sk_plies = random_games("south_korea", args.games)
    usa_ply, sk_ply = usa_rate * usa_plies, sk_rate * sk_plies
    print(f"random 4-player USA games:          {usa_rate:7.1f} games/s  ({usa_plies:.0f} plies/game, {usa_ply:8.0f} plies/s)")
    print(f"random 4-player South Korea games:  {sk_rate:7.1f} games/s  ({sk_plies:.0f} plies/game, {sk_ply:8.0f} plies/s)")
    print(f"USA / South Korea per ply:          {usa_ply / sk_ply:7.2f}x    (target <= 1.5x)")
    print(f"USA / South Korea per game:         {usa_rate / sk_rate:7.2f}x")


if __name__ == "__main__":
    main()
