"""Reproducible randomness.

Every shuffle is a Fisher–Yates over ``random.Random(f"{seed}/{purpose}/{n}").random()``: Python only
guarantees ``random()`` (and string seeding) to give the same numbers on every machine and version, so
``shuffle``/``randrange`` are never used. The counter ``n`` lives in the game state, so replaying a
game record reproduces every reshuffle.
"""
from __future__ import annotations

import random
from math import floor
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
        j = floor(r() * (i + 1))           # int() of a float ≥ 0, three times cheaper
        out[i], out[j] = out[j], out[i]
    return out


def choice_index(r: random.Random, n: int) -> int:
    """A reproducible index in ``range(n)`` (``randrange`` is not guaranteed across versions)."""
    if n <= 0:
        raise ValueError("choice from an empty sequence")
    return min(int(r.random() * n), n - 1)


_M64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


_START = 0x243F6A8885A308D3


def fold(*key: int, start: int = _START) -> int:
    """The polynomial fold of a key that seeds a ``Counter`` (``start`` continues an earlier fold)."""
    x = start
    for k in key:
        x = (x * 0x100000001B3 + (int(k) & _M64)) & _M64
    return x


# object.__new__, bound once: CPython 3.11 does not specialise loading ``cls.__new__`` (a generic lookup at each
# counter made without __init__, such as the random bot's Counter.of_state), a module global it does
_new = object.__new__


class Counter:
    """A tiny counter-based generator (SplitMix64) for bots: pure integer arithmetic, so it is the same on every
    machine and Python version, and creating one per decision costs about a microsecond."""

    __slots__ = ("_x",)

    def __init__(self, *key: int):
        self._x = _splitmix64(fold(*key))

    @classmethod
    def resume(cls, prefix: int, a: int, b: int) -> "Counter":
        """``Counter(*head, a, b)`` where ``prefix = fold(*head)`` was computed once (a bot's seed and seat)."""
        obj = _new(cls)
        x = (prefix * 0x100000001B3 + (a & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
        # the fold's last step, and _splitmix64 inline
        x = (x * 0x100000001B3 + (b & 0xFFFFFFFFFFFFFFFF) + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        obj._x = x ^ (x >> 31)
        return obj

    @staticmethod
    def base(prefix: int, b: int) -> int:
        """What ``Counter.at`` starts from for ``Counter(*head, a, b)`` with ``prefix = fold(*head)``: the fold is
        linear, ``fold(*head, a, b) = prefix·P² + a·P + b`` (mod 2⁶⁴, P the fold's prime), so everything but ``a``
        is summed once (a bot's seed, seat and the game's seed: ``a`` is the ply)."""
        return (prefix * 0x100000001B3 * 0x100000001B3 + (b & 0xFFFFFFFFFFFFFFFF) + 0x9E3779B97F4A7C15) & _M64

    @classmethod
    def at(cls, base: int, a: int) -> "Counter":
        """``Counter(*head, a, b)`` from ``base = Counter.base(fold(*head), b)``: one small product, then the mix."""
        obj = _new(cls)
        x = (base + (a & 0xFFFFFFFFFFFFFFFF) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        obj._x = x ^ (x >> 31)
        return obj

    @property
    def state(self) -> int:
        """The counter's state now (read-only): ``Counter.of_state(c.state)`` draws what ``c`` would draw next (code
        that draws as integer arithmetic continues from it where a counter handed on left off: ``bots.RandomBot``)."""
        return self._x

    @classmethod
    def of_state(cls, x: int) -> "Counter":
        """The counter whose state is ``x``: where another one stood after its draws (``x`` as its ``_x``), for code
        that writes the first draws out as arithmetic and hands the rest on (``bots.RandomBot``)."""
        obj = _new(cls)
        obj._x = x
        return obj

    def skip(self, n: int) -> None:
        """Move on as ``n`` draws would, without making them (the state steps by a constant per draw): for code
        that knows how many draws a choice takes but needs only where they leave the counter."""
        self._x = (self._x + n * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF

    def _next(self) -> int:
        self._x = (self._x + 0x9E3779B97F4A7C15) & _M64
        return _splitmix64(self._x)

    def random(self) -> float:
        return self._next() / 18446744073709551616.0

    def index(self, n: int) -> int:
        """A uniform-enough index in range(n) (multiply-shift on 64 bits; n is tiny here)."""
        if n <= 0:
            raise ValueError("choice from an empty sequence")
        # _next and _splitmix64 inline, constants spelled out (bots call this every ply)
        self._x = x = (self._x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return ((x ^ (x >> 31)) * n) >> 64
