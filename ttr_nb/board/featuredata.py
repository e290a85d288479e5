"""Feature data in a board state — ``GameState.ext`` (the whole table) and each ``PlayerState.ext`` — checked before
any rule reads it.

A save file's start position, or JSON typed into an editor, may hold anything there. ``validate`` calls
:func:`data_problems` first: every key must belong to one of the variant's features (``Feature.table_data``,
``Feature.player_data``), so the data of another game (Europe's ``stations`` in a Märklin save) or of no game
(``junk``) is refused instead of being carried along silently, and each feature checks the shapes of its own data
(``Feature.data_problems``), so a malformed value (``goods = 5``) is a problem in words, never a raw ``TypeError``
from the rule that would have read it. The helpers below are the shapes features use.
"""
from __future__ import annotations

from typing import Any

from .names import seat_name

_READ_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError)


def is_whole(x: Any, lo: int | None = None, hi: int | None = None) -> bool:
    """A whole number (never a bool or a float), within ``lo``..``hi`` when given."""
    return type(x) is int and (lo is None or x >= lo) and (hi is None or x <= hi)


def is_texts(x: Any) -> bool:
    """A list of texts (``()`` included)."""
    return isinstance(x, tuple) and all(isinstance(t, str) for t in x)


def is_wholes(x: Any, lo: int | None = None, hi: int | None = None) -> bool:
    """A list of whole numbers, each within ``lo``..``hi`` when given."""
    return isinstance(x, tuple) and all(is_whole(n, lo, hi) for n in x)


def _keys(pairs: Any) -> list[str]:
    return [k for k, _ in pairs]


def data_problems(v, state) -> list[str]:
    """Feature data of ``state`` that is not ``v``'s, or is malformed, in words (empty: fine)."""
    table = sorted({k for f in v.features for k in f.table_data})
    player = sorted({k for f in v.features for k in f.player_data})

    def foreign(key: str, where: str, known: list[str]) -> str:
        has = f"its feature data there: {', '.join(known)}" if known else "it keeps no feature data there"
        return f"{where} holds {key[:40]!r}, which is no part of {v.name} ({has})"

    problems = [foreign(k, "the table's data (ext)", table) for k in _keys(state.ext) if k not in table]
    for i, p in enumerate(state.players):
        problems += [foreign(k, f"{seat_name(i)}'s data (players[{i}].ext)", player)
                     for k in _keys(p.ext) if k not in player]
    for f in v.features:
        try:
            problems += f.data_problems(v, state)
        except _READ_ERRORS as e:            # a safety net: a feature's own check met a shape it did not expect
            problems.append(f"the {f.name.replace('_', ' ')} data cannot be read ({type(e).__name__}: {str(e)[:80]})")
    return problems


__all__ = ["data_problems", "is_whole", "is_texts", "is_wholes"]
