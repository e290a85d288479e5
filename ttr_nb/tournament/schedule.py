"""Which games a tournament plays: every table of bots, each bot in every seat, over seeded deals.

For ``deals`` deals (``--games N``) and ``players`` seats, every set of ``players`` bots (a *table*) plays each
deal ``players`` times, its seats rotated, so every bot meets the same cards from every seat. Deal ``d`` is the
game seeded ``seed + d`` (as ``ttr-nb simulate`` numbers its games: ``ttr-nb play VARIANT --seed`` deals the same
cards). With many bots, ``tables`` plays a seeded choice of that many tables per deal instead of all of them.
"""
from __future__ import annotations

from itertools import combinations
from math import comb

from ..errors import TTRError
from ..rng import shuffled

__all__ = ["schedule", "count_games", "game_seed"]


def game_seed(seed: int, deal: int) -> int:
    return seed + deal


def _tables(n_bots: int, players: int, deal: int, seed: int, tables: int | None) -> list[tuple[int, ...]]:
    every = list(combinations(range(n_bots), players))
    if tables is None or tables >= len(every):
        return every
    picked = shuffled(range(len(every)), seed, "tournament tables", deal)[:tables]
    return [every[i] for i in sorted(picked)]


def count_games(n_bots: int, players: int, deals: int, tables: int | None = None) -> int:
    per_deal = comb(n_bots, players) if tables is None else min(tables, comb(n_bots, players))
    return deals * per_deal * players


def schedule(n_bots: int, players: int, deals: int, seed: int, tables: int | None = None) -> list[dict]:
    """The games in order, each ``{"index", "deal", "seed", "seats"}`` (``seats``: the bot index at each seat)."""
    if players < 1:
        raise TTRError(f"--players {players}: a game needs players")
    if n_bots < players:
        raise TTRError(f"{n_bots} bot{'s' if n_bots != 1 else ''} for {players}-player games: give at least {players} "
                       "(the same bot may be named twice)")
    if deals < 1:
        raise TTRError(f"--games {deals}: play at least 1")
    if tables is not None and tables < 1:
        raise TTRError(f"--tables {tables}: play at least 1 table per deal")
    out = []
    for deal in range(deals):
        for table in _tables(n_bots, players, deal, seed, tables):
            for r in range(players):
                out.append({"index": len(out), "deal": deal, "seed": game_seed(seed, deal),
                            "seats": list(table[r:] + table[:r])})
    return out
