"""``ttr-nb tournament``: students' bot files against each other (and house bots), a table at the end.

    ttr-nb tournament usa alice.py bob.py greedy --games 10 --players 2 --out class.jsonl
    ttr-nb tournament usa bots/*.py --scheduler tcp://10.0.0.5:8786 --out class.jsonl

Added to ``ttr_nb.cli`` by ``add_parser``; ``run`` does the work.
"""
from __future__ import annotations

import argparse
import time
from typing import TextIO

from .sandbox import MEMORY_MB

__all__ = ["add_parser", "run"]

DESCRIPTION = """\
Every bot plays every other in every seat, over seeded deals: with B bots and P players, each deal is played by
every set of P bots, P times with the seats rotated (B!/(B-P)!/(P-1)! games a deal). A bot is a file NAME.py that
defines choose(view) (see notebooks/07_write_a_bot.ipynb), or a house bot: random, greedy, mixed:0.5 ...

A student's bot runs in a process of its own, started for each game, without your environment variables, with a
CPU time limit per move (and a clock limit, for bots that wait) and, on Linux, a memory limit. An exception, an
illegal answer, a timeout or a crash forfeits that game (the bot is ranked last; the house random bot plays its
seat to the end); the tournament goes on. This is not a security sandbox: a bot can still read and write your
files. See docs/tournament.md in the ttr_nb repository.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    t = sub.add_parser("tournament", help="students' bot files against each other: ratings, win rates, forfeits",
                       description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    t.add_argument("variant", help="the game: usa, europe, maerklin, south_korea, cardgame (ttr-nb variants)")
    t.add_argument("bots", nargs="+", metavar="BOT", help="bot files (NAME.py with choose(view)) or house bots "
                                                        "(random, greedy, mixed:0.5 ...)")
    t.add_argument("--games", type=int, default=4, help="deals: each is played at every table in every seat "
                                                       "(default 4)")
    t.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    t.add_argument("--workers", type=int, default=None,
                   help="local referee processes (default: one per core); 0 plays in this process, without "
                        "isolation or time limits (for testing your own bot)")
    t.add_argument("--move-seconds", type=float, default=1.0, help="CPU seconds a bot may use for one move "
                                                                  "(default 1); on the clock it gets 3 times as "
                                                                  "long, at least 2 s more")
    t.add_argument("--memory-mb", type=int, default=MEMORY_MB, help=f"memory limit of a bot's process where the "
                                                                   f"OS allows (Linux; default {MEMORY_MB})")
    t.add_argument("--seed", type=int, default=0, help="deal d is the game seeded SEED+d (default 0)")
    t.add_argument("--tables", type=int, default=None, help="with many bots: play this many tables per deal, "
                                                           "chosen by the seed, instead of all")
    t.add_argument("--scheduler", help="a Dask scheduler address (tcp://HOST:8786): play the games on that "
                                       "cluster (pip install 'ttr-nb[cluster]')")
    t.add_argument("--out", help="JSON-lines file the games stream into; run the same command again to resume")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    return t


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .runner import TextProgress, run_tournament
    started = time.perf_counter()
    progress = None if args.quiet else TextProgress(err)
    try:
        results = run_tournament(args.bots, args.variant, games=args.games, players=args.players, seed=args.seed,
                                 workers=args.workers, move_seconds=args.move_seconds, memory_mb=args.memory_mb,
                                 scheduler=args.scheduler, out=args.out, tables=args.tables, progress=progress)
    except KeyboardInterrupt:
        if args.out:
            from .results import load_results
            kept = len(load_results(args.out).records)
            print(f"\ninterrupted: {kept} finished games are in {args.out}; run the same command again to play "
                  "the rest", file=err)
        else:
            print("\ninterrupted (without --out nothing was kept)", file=err)
        return 130
    elapsed = time.perf_counter() - started
    if results.note:
        print(f"note: {args.out}: {results.note}", file=err)
    print(results.table(), file=out)
    print(results.forfeits_text(), file=out)
    played = sum(1 for _ in results.records) - results.resumed
    where = (f"on the Dask cluster at {args.scheduler}" if args.scheduler else
             f"on {results.workers} local worker process{'es' if results.workers != 1 else ''}" if results.workers
             else "in this process")
    print(f"{played} games played in {elapsed:.1f} s {where}"
          + (f" ({played / elapsed:.2f} games/s)" if played else "")
          + (f"; {results.resumed} finished games kept from {args.out}" if results.resumed else "")
          + (f"; results in {args.out}" if args.out else ""), file=err)
    return 0
