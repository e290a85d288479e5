"""Reproducible randomness.

Every shuffle is a Fisher–Yates over ``random.Random(f"{seed}/{purpose}/{n}").random()``: Python only
guarantees ``random()`` (and string seeding) to give the same numbers on every machine and version, so
``shuffle``/``randrange`` are never used. The counter ``n`` lives in the game state, so replaying a
game record reproduces every reshuffle.
"""
from __future__ import annotations

import random
from typing import Sequence, TypeVar

T = TypeVar("T")


def stream(seed: int | str, purpose: str, n: int = 0) -> random.Random:
    """An independent random stream for one purpose ("deck", "tickets", a bot ...)."""
    return random.Random(f"{seed}/{purpose}/{n}")


def shuffled(items: Sequence[T], seed: int | str, purpose: str, n: int = 0) -> list[T]:
    """A new list with ``items`` in a reproducible random order."""
    out = list(items)
    r = stream(seed, purpose, n).random
    for i in range(len(out) - 1, 0, -1):
        j = int(r() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def choice_index(r: random.Random, n: int) -> int:
    """A reproducible index in ``range(n)`` (``randrange`` is not guaranteed across versions)."""
    if n <= 0:
        raise ValueError("choice from an empty sequence")
    return min(int(r.random() * n), n - 1)
