"""The measured workloads, shared by the benchmark scripts and ``compare.py``: CPU time, one core, after a warm-up.

Every workload uses only the public protocol that main already had at 7728263 (``new_game``, ``to_move``,
``apply``, the bots' ``choose``, ``score``, ``Game.play_bots``), so ``compare.py`` can run the same code against an
older checkout. Times are ``time.process_time`` (CPU time of this process): on a shared machine wall time also
counts the other processes. Before each timed section the same work runs once untimed (map loading, caches,
imports).

Run one workload against a checkout and print its figure as JSON::

    python benchmarks/workloads.py [--tree PATH] [--quick] NAME

or serve it game by game to ``compare.py`` (``--serve``: lines "FIRST COUNT" in, [CPU seconds, plies] out).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable

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


def pin(cpu: str) -> str:
    """Put this process, and so every process it starts, on one CPU: ``cpu`` is its number, ``first`` (the lowest
    this process may use) or ``any`` (left as it is). On this project's shared machines the cores do not run at the
    same speed, so figures to be compared are measured on one (``compare.py``, ``bench_variants.py``). Returns where
    the work runs, for the header."""
    if cpu == "any":
        return "on any CPU"
    if cpu != "first" and not cpu.isdigit():
        raise SystemExit(f"--cpu takes a CPU number, first or any, not {cpu!r}")
    if not hasattr(os, "sched_setaffinity"):
        return "on any CPU (this system cannot pin a process)"
    allowed = sorted(os.sched_getaffinity(0))
    n = allowed[0] if cpu == "first" else int(cpu)
    if n not in allowed:
        raise SystemExit(f"CPU {n} is not one this process may use ({', '.join(map(str, allowed))})")
    os.sched_setaffinity(0, {n})
    return f"on CPU {n}"


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


def play_checked(variant: str, players: int, seed: int) -> int:
    """The same random game played by ``Game.play_bots`` (checked pushes, words, history); returns its plies."""
    from ttr_nb.bots import RandomBot
    from ttr_nb.game import Game
    game = Game(variant, players, seed)
    game.play_bots({i: RandomBot(seed * 10 + i) for i in range(players)})
    return game.ply


def play_greedy(variant: str, players: int, seed: int) -> int:
    """One game with the greedy bot in every seat (its planning is the costly part); returns its plies."""
    from ttr_nb.bots import GreedyBot
    from ttr_nb.engine import apply, new_game, to_move
    bots = [GreedyBot(seed * 10 + i) for i in range(players)]
    state = new_game(variant, players, seed)
    plies = 0
    while state.phase != "over":
        seat = to_move(state)[0]
        state = apply(state, bots[seat].choose(state, seat)[0])
        plies += 1
    return plies


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


@dataclass(frozen=True)
class Workload:
    """A measured workload. A CPU workload plays ``games`` seeded games (``quick`` in quick mode) with ``play``
    (seed -> plies), the seeds 0, 1, ..., after two untimed games of other seeds; its figure is games per CPU second,
    or for the unit "µs" CPU microseconds per ply. A size workload is measured once by ``size``."""
    label: str
    unit: str
    play: Callable[[int], int] | None = None
    games: int = 0
    quick: int = 0
    size: Callable[[], float] | None = None

    def figure(self, cpu: float, games: int, plies: int) -> float:
        return cpu * 1e6 / plies if self.unit == "µs" else games / cpu


def warm_up(w: Workload) -> None:
    """The same work, untimed, on two seeds no timed run plays: maps, tables, caches and imports are loaded."""
    for seed in (10_000, 10_001):
        w.play(seed)


def timed(w: Workload, first: int, count: int) -> tuple[float, int]:
    """(CPU seconds, plies) of the games of seeds first .. first + count - 1."""
    start = time.process_time()
    plies = sum(w.play(seed) for seed in range(first, first + count))
    return time.process_time() - start, plies


def measure(w: Workload, quick: bool) -> float:
    """The workload's figure from one run in this process."""
    if w.size is not None:
        return w.size()
    warm_up(w)
    games = w.quick if quick else w.games
    cpu, plies = timed(w, 0, games)
    return w.figure(cpu, games, plies)


def serve(w: Workload) -> None:
    """``compare.py``'s side of a lockstep run: warm up, print "ready", then for each line "FIRST COUNT" read from
    stdin play those seeds and print [CPU seconds, plies] as JSON, until stdin closes."""
    warm_up(w)
    print("ready", flush=True)
    for line in sys.stdin:
        first, count = map(int, line.split())
        print(json.dumps(timed(w, first, count)), flush=True)


WORKLOADS = {
    "usa-4p-random": Workload("random 4-player USA games, scored", "games/s", partial(play_random, "usa", 4), 150, 15),
    "usa-2p-random": Workload("random 2-player USA games, scored", "games/s", partial(play_random, "usa", 2), 150, 15),
    "cardgame-4p-random": Workload("random 4-player Card Game games, scored", "games/s",
                                   partial(play_random, "cardgame", 4), 100, 10),
    "cardgame-ply": Workload("random 4-player Card Game, time per ply", "µs", partial(play_random, "cardgame", 4),
                             100, 10),
    "usa-ply": Workload("random 4-player USA, time per ply", "µs", partial(play_random, "usa", 4), 150, 15),
    "europe-ply": Workload("random 4-player Europe, time per ply", "µs", partial(play_random, "europe", 4), 150, 15),
    "maerklin-ply": Workload("random 4-player Märklin, time per ply", "µs", partial(play_random, "maerklin", 4),
                             150, 15),
    "south_korea-ply": Workload("random 4-player South Korea, time per ply", "µs",
                                partial(play_random, "south_korea", 4), 150, 15),
    "usa-play_bots": Workload("the same random USA games through Game.play_bots", "games/s",
                              partial(play_checked, "usa", 4), 100, 10),
    "usa-4p-greedy": Workload("greedy 4-player USA games", "games/s", partial(play_greedy, "usa", 4), 15, 2),
    "usa-history": Workload("memory a Game keeps per ply of history", "bytes", size=history_bytes_per_ply),
}
SMALLER_IS_BETTER = {"µs", "bytes"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Run one workload and print its figure as JSON.")
    ap.add_argument("name", choices=sorted(WORKLOADS))
    ap.add_argument("--tree", help="the checkout whose ttr_nb to import (default: this one)")
    ap.add_argument("--quick", action="store_true", help="a few seconds instead of about a minute")
    ap.add_argument("--serve", action="store_true", help="compare.py's lockstep side: seeds to play from stdin")
    args = ap.parse_args(argv)
    tree = Path(args.tree).resolve() if args.tree else ROOT
    sys.path.insert(0, str(tree))
    import ttr_nb
    where = Path(ttr_nb.__file__).resolve()
    if tree not in where.parents:
        raise SystemExit(f"imported ttr_nb from {where}, not from {tree}")
    w = WORKLOADS[args.name]
    if args.serve:
        if w.play is None:
            raise SystemExit(f"{args.name} is measured once, not served game by game")
        serve(w)
        return 0
    print(json.dumps({"name": args.name, "label": w.label, "unit": w.unit, "value": measure(w, args.quick),
                      "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
