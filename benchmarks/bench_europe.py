"""Speed figures for the Europe variant (printed, never asserted). Run: python benchmarks/bench_europe.py [--games N] [--quick]

Targets (issue "The Europe variant"):
  - random 4-player Europe games per second within 1.5x of USA games per second (same random bot)
  - end-of-game station optimisation, 5 players with 3 stations each            < 50 ms
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_engine import random_games  # noqa: E402  (the same random-bot measurement as for USA)


def station_endgame(seed: int = 0):
    """A finished 5-player game, then every seat given 3 stations where they have the most choices (distinct
    component pairs among other players' routes into the city) and up to 8 tickets — a hard case for the search.
    The position stays valid (cards and tickets are only moved)."""
    from ttr_nb.bots import RandomBot
    from ttr_nb.board.engine import apply, new_game, to_move, validate
    from ttr_nb.europe import station_candidates
    from ttr_nb.board.state import pairs_set, replace_fields
    from ttr_nb.variants import get_variant
    v = get_variant("europe")
    m = v.map
    state = new_game("europe", 5, seed)
    bots = [RandomBot(seed * 10 + i) for i in range(5)]
    while state.phase != "over":
        seat = to_move(state)[0]
        state = apply(state, bots[seat].choose(state, seat)[0])
    # tickets: hand out the rest of the regular deck, up to 8 per seat
    deck = list(state.ticket_deck("regular"))
    players = list(state.players)
    for seat, p in enumerate(players):
        extra = deck[: max(0, 8 - len(p.tickets))]
        deck = deck[len(extra):]
        players[seat] = replace_fields(p, tickets=p.tickets + tuple(extra))
    state = replace_fields(state, players=tuple(players),
                           ticket_decks=tuple((n, tuple(deck) if n == "regular" else ids) for n, ids in state.ticket_decks))
    taken: set[str] = set()
    players = list(state.players)
    for seat in range(5):
        ranked = sorted((c.name for c in m.cities if c.name not in taken),
                        key=lambda c: (-len(station_candidates(v, state, seat, c)), c))
        chosen = tuple(ranked[:3])
        taken.update(chosen)
        players[seat] = replace_fields(players[seat], ext=pairs_set(players[seat].ext, "stations", chosen))
    state = replace_fields(state, players=tuple(players))
    problems = validate(state)
    assert not problems, problems
    return state


def station_timing(seeds: int = 5, repeat: int = 15):
    from ttr_nb.europe import best_borrowing, station_candidates
    from ttr_nb.board.scoring import score
    from ttr_nb.variants import get_variant
    v = get_variant("europe")
    rows = []
    for seed in range(seeds):
        state = station_endgame(seed)
        opt, full = [], []
        score(state)                                   # warm-up
        for _ in range(repeat):                        # CPU time: a busy machine does not count
            t = time.process_time()
            choices = [best_borrowing(v, state, seat) for seat in range(5)]
            opt.append(time.process_time() - t)
            t = time.process_time()
            score(state)
            full.append(time.process_time() - t)
        combos = max(c.combinations for c in choices)
        cands = max(len(station_candidates(v, state, s, c)) for s in range(5) for c in state.players[s].get("stations"))
        borrowed = sum(1 for c in choices for r in c.routes if r is not None)
        rows.append((seed, statistics.median(opt) * 1000, max(opt) * 1000, statistics.median(full) * 1000, combos,
                     cands, borrowed))
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60, help="random games per variant (default 60)")
    ap.add_argument("--quick", action="store_true", help="a few seconds: 8 games, 2 seeds x 3 runs of stations")
    args = ap.parse_args(argv)
    seeds, repeat = (2, 3) if args.quick else (5, 15)
    if args.quick:
        args.games = 8
    random_games("usa", 3)
    random_games("europe", 3)                      # warm up: map loading, caches
    usa_rate, usa_plies = random_games("usa", args.games, seed0=100)
    eu_rate, eu_plies = random_games("europe", args.games, seed0=100)
    print(f"random 4-player games, {args.games} each (same RandomBot):")
    print(f"  USA     {usa_rate:7.1f} games/s   {usa_plies:6.1f} plies/game   {usa_rate * usa_plies:8.0f} plies/s")
    print(f"  Europe  {eu_rate:7.1f} games/s   {eu_plies:6.1f} plies/game   {eu_rate * eu_plies:8.0f} plies/s")
    print(f"  USA/Europe games/s ratio: {usa_rate / eu_rate:.2f}x (target <= 1.5x); "
          f"per ply: {(usa_rate * usa_plies) / (eu_rate * eu_plies):.2f}x")
    print(f"station optimisation, 5 players x 3 stations, up to 8 tickets each ({repeat} runs, CPU time):")
    print("  seed  optimise median/worst (ms)  whole score() median (ms)  max combos  max routes at a station  borrowed")
    for seed, opt, worst, full, combos, cands, borrowed in station_timing(seeds, repeat):
        print(f"  {seed:4d}  {opt:13.2f} / {worst:8.2f}  {full:26.2f}  {combos:10d}  {cands:23d}  {borrowed:8d}")
    print("  target: optimisation < 50 ms")


if __name__ == "__main__":
    main()
