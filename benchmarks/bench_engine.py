"""Speed figures for the rules core (printed, never asserted). Run: python benchmarks/bench_engine.py [--games N] [--quick]

Targets (issue "The rules engine and the USA game"):
  - random 4-player USA games per second on one core      >= 200
  - exact longest trail, one player owning every USA route < 100 ms
  - `import ttr_nb` (rules only)                           < 150 ms
and issue 18, item 3: the same games through `Game.play_bots` at least 0.8x the raw loop's speed, measured here
in one process, a game of each in turn (compare.py times the two in different processes, whose speed varies more).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def random_games(variant: str, games: int, players: int = 4, seed0: int = 0) -> tuple[float, float]:
    """Games per CPU second on one core and plies per game: every seat a RandomBot. CPU time (process_time) is
    used because the machine may be shared; on an idle machine it equals the wall time of this one-core loop."""
    from ttr_nb.bots import RandomBot
    from ttr_nb.board.engine import apply, new_game, to_move
    plies = 0
    start = time.process_time()
    for g in range(seed0, seed0 + games):
        bots = [RandomBot(g * 10 + i) for i in range(players)]
        state = new_game(variant, players, g)
        while state.phase != "over":
            seat = to_move(state)[0]
            action, _ = bots[seat].choose(state, seat)
            state = apply(state, action)
            plies += 1
    elapsed = time.process_time() - start
    return games / elapsed, plies / games


def play_bots_against_raw(games: int) -> tuple[float, float]:
    """(the raw loop's games per CPU second, ``Game.play_bots``'): the same seeded random 4-player USA games
    (``workloads.play_random``, scored, and ``workloads.play_checked``: every push checked, its words and history
    kept), one of each in turn, so that both meet the same load in the same process."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from workloads import play_checked, play_random
    play_random("usa", 4, 10_000)                          # warm-up: the Game's own code and texts
    play_checked("usa", 4, 10_000)
    raw = checked = 0.0
    clock = time.process_time
    for g in range(games):
        start = clock()
        play_random("usa", 4, g)
        raw += clock() - start
        start = clock()
        play_checked("usa", 4, g)
        checked += clock() - start
    return games / raw, games / checked


def longest_whole_map(map_key: str, repeat: int = 7) -> tuple[float, int]:
    from ttr_nb.board.maps import load_map
    from ttr_nb.board.trail import longest_trail
    m = load_map(map_key)
    edges = [(r.a, r.b, r.length, r.id) for r in m.routes]
    longest_trail(edges)                                   # warm-up
    times = []
    for _ in range(repeat):
        t = time.process_time()                            # CPU time: a busy machine does not count
        trail = longest_trail(edges)
        times.append(time.process_time() - t)
    return statistics.median(times) * 1000, trail.length


def import_time(repeat: int = 7) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    code = "import time; t=time.process_time(); import ttr_nb; print(time.process_time()-t)"     # CPU time
    subprocess.run([sys.executable, "-c", "import ttr_nb"], cwd=ROOT, env=env, check=True)  # write the bytecode once
    times = [float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True,
                                  text=True).stdout) for _ in range(repeat)]
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--quick", action="store_true", help="a few seconds: 20 games, 3 repeats")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    if args.quick:
        args.games = 20
    random_games("usa", 3, seed0=10_000)                   # warm-up: maps, tables, caches
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} cores (one core used), load {os.getloadavg()[0]:.2f}")
    rate, plies = random_games("usa", args.games)
    print(f"random 4-player USA games:            {rate:7.1f} games/s  ({plies:.0f} plies/game; target >= 200)")
    raw, checked = play_bots_against_raw(args.games // 3)
    print(f"Game.play_bots, the same games:       {checked:7.1f} games/s  (the raw loop beside it {raw:.1f}: "
          f"{checked / raw:.2f}x; target >= 0.8x)")
    ms, length = longest_whole_map("usa", repeat)
    print(f"longest trail, all 100 USA routes:    {ms:7.2f} ms CPU   (length {length}; target < 100 ms)")
    ms, length = longest_whole_map("europe", repeat)
    print(f"longest trail, all 101 Europe routes: {ms:7.2f} ms CPU   (length {length})")
    print(f"import ttr_nb (bytecode cached):      {import_time(repeat):7.1f} ms CPU   (target < 150 ms)")


if __name__ == "__main__":
    main()
