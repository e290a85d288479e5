"""The measured workloads, shared by the benchmark scripts and ``compare.py``: CPU time, one core, after a warm-up.

Every workload uses only the public protocol that main already had at 7728263 (``new_game``, ``to_move``,
``apply``, the bots' ``choose``, ``score``, ``Game.play_bots``), so ``compare.py`` can run the same code against an
older checkout. Times are ``time.process_time`` (CPU time of this process): on a shared machine wall time also
counts the other processes. Before each timed section the same work runs once untimed (map loading, caches,
imports).

Run one workload against a checkout and print its figure as JSON (this is what ``compare.py`` does)::

    python benchmarks/workloads.py [--tree PATH] [--quick] NAME
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def machine() -> str:
    """One line: Python, cores, CPU model and the load average now (the figures depend on all four)."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        pass
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (f"python {sys.version.split()[0]}, {os.cpu_count()} cores{' (' + model + ')' if model else ''}, "
            f"load average {load} (1/5/15 min)")


def play_random(variant: str, players: int, seed: int, *, scored: bool = True) -> int:
    """One game with a seeded RandomBot in every seat, through the public protocol; returns its plies."""
    from ttr_nb.bots import RandomBot
    from ttr_nb.engine import apply, new_game, to_move
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    state = new_game(variant, players, seed)
    plies = 0
    while state.phase != "over":
        seat = to_move(state)[0]
        action, _ = bots[seat].choose(state, seat)
        state = apply(state, action)
        plies += 1
    if scored:
        from ttr_nb.scoring import score
        score(state)
    return plies


def random_games(variant: str, games: int, players: int = 4, seed0: int = 0, *, scored: bool = True,
                 warmup: int = 2) -> tuple[float, float]:
    """(games per CPU second, plies per game) of ``games`` random-bot games (seeds seed0..), after ``warmup``
    untimed games of other seeds."""
    for g in range(warmup):
        play_random(variant, players, 10_000 + g, scored=scored)
    plies = 0
    start = time.process_time()
    for g in range(seed0, seed0 + games):
        plies += play_random(variant, players, g, scored=scored)
    elapsed = time.process_time() - start
    return games / elapsed, plies / games


def play_bots_games(variant: str, games: int, players: int = 4, seed0: int = 0, warmup: int = 2) -> float:
    """Games per CPU second of the same random games played by ``Game.play_bots`` (checked pushes, words, history)."""
    from ttr_nb.bots import RandomBot
    from ttr_nb.game import Game

    def one(seed: int) -> None:
        Game(variant, players, seed).play_bots({i: RandomBot(seed * 10 + i) for i in range(players)})
    for g in range(warmup):
        one(10_000 + g)
    start = time.process_time()
    for g in range(seed0, seed0 + games):
        one(g)
    return games / (time.process_time() - start)


def greedy_games(variant: str, games: int, players: int = 4, seed0: int = 0, warmup: int = 1) -> float:
    """Games per CPU second with the greedy bot in every seat (its planning is the costly part)."""
    from ttr_nb.bots import GreedyBot
    from ttr_nb.engine import apply, new_game, to_move

    def one(seed: int) -> None:
        bots = [GreedyBot(seed * 10 + i) for i in range(players)]
        state = new_game(variant, players, seed)
        while state.phase != "over":
            seat = to_move(state)[0]
            state = apply(state, bots[seat].choose(state, seat)[0])
    for g in range(warmup):
        one(10_000 + g)
    start = time.process_time()
    for g in range(seed0, seed0 + games):
        one(g)
    return games / (time.process_time() - start)


def history_bytes_per_ply(variant: str = "usa", players: int = 4, seed: int = 0) -> float:
    """Bytes per ply that a ``Game``'s history keeps alive (tracemalloc: what is still allocated after a whole
    random game, the game object kept, divided by its plies)."""
    import gc
    import tracemalloc
    from ttr_nb.bots import RandomBot
    from ttr_nb.game import Game
    Game(variant, players, seed + 1).play_bots(RandomBot(1))         # warm-up: maps, caches, interned texts
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    game = Game(variant, players, seed)
    game.play_bots({i: RandomBot(seed * 10 + i) for i in range(players)})
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / game.ply


# name -> (what it measures, unit, function(quick) -> value); larger is better unless the unit is a time or size
def _ply_us(variant: str, games: int) -> float:
    rate, plies = random_games(variant, games)
    return 1e6 / (rate * plies)


WORKLOADS = {
    "usa-4p-random": ("random 4-player USA games, scored", "games/s",
                      lambda q: random_games("usa", 15 if q else 150)[0]),
    "usa-2p-random": ("random 2-player USA games, scored", "games/s",
                      lambda q: random_games("usa", 15 if q else 150, players=2)[0]),
    "cardgame-4p-random": ("random 4-player Card Game games, scored", "games/s",
                           lambda q: random_games("cardgame", 10 if q else 100)[0]),
    "cardgame-ply": ("random 4-player Card Game, time per ply", "µs",
                     lambda q: _ply_us("cardgame", 10 if q else 100)),
    "usa-ply": ("random 4-player USA, time per ply", "µs", lambda q: _ply_us("usa", 15 if q else 150)),
    "europe-ply": ("random 4-player Europe, time per ply", "µs", lambda q: _ply_us("europe", 15 if q else 150)),
    "maerklin-ply": ("random 4-player Märklin, time per ply", "µs", lambda q: _ply_us("maerklin", 15 if q else 150)),
    "south_korea-ply": ("random 4-player South Korea, time per ply", "µs",
                        lambda q: _ply_us("south_korea", 15 if q else 150)),
    "usa-play_bots": ("the same random USA games through Game.play_bots", "games/s",
                      lambda q: play_bots_games("usa", 10 if q else 100)),
    "usa-4p-greedy": ("greedy 4-player USA games", "games/s", lambda q: greedy_games("usa", 2 if q else 15)),
    "usa-history": ("memory a Game keeps per ply of history", "bytes", lambda q: history_bytes_per_ply()),
}
SMALLER_IS_BETTER = {"µs", "bytes"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Run one workload and print its figure as JSON.")
    ap.add_argument("name", choices=sorted(WORKLOADS))
    ap.add_argument("--tree", help="the checkout whose ttr_nb to import (default: this one)")
    ap.add_argument("--quick", action="store_true", help="a few seconds instead of about a minute")
    args = ap.parse_args(argv)
    tree = Path(args.tree).resolve() if args.tree else ROOT
    sys.path.insert(0, str(tree))
    import ttr_nb
    where = Path(ttr_nb.__file__).resolve()
    if tree not in where.parents:
        raise SystemExit(f"imported ttr_nb from {where}, not from {tree}")
    label, unit, fn = WORKLOADS[args.name]
    value = fn(args.quick)
    print(json.dumps({"name": args.name, "label": label, "unit": unit, "value": value,
                      "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
