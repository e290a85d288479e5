"""Classroom exercises with automatic checks, each built on a real, seeded position.

    >>> from ttr_nb.exercises import IsItLegal
    >>> ex = IsItLegal(seed=3, scenario="second_faceup_loco")
    >>> ok, why = ex.check(False)
    >>> ok, "USA-DRAW-4" in why
    (True, True)
    >>> bool(ex.check(True))
    False

Every exercise has

* ``prompt()`` — the question (a ``str``; in Jupyter it shows as HTML),
* ``check(answer)`` — a :class:`Feedback`: ``ok, explanation = ex.check(answer)``; it is truthy only when the
  answer is right, so ``assert ex.check(answer)`` works; the explanation cites the rule ids,
* ``solution()`` — a right answer (``ex.check(ex.solution())`` passes) and ``worked()`` — the solution in words,
* ``state`` — the position (a ``GameState``: play on from it with ``Game(start=ex.state)``), ``seat`` — who it is
  about, and ``board()`` — the board as a plotly figure (imports plotly only when called).

The same ``seed`` (and options) always gives the same exercise, on every machine: positions come from
``ttr_nb.board.positions.position`` and from bot games, randomness from ``ttr_nb.rng`` streams. Answers may be given
as Python values or as text: payments ``"red3+loco1"``, actions ``"claim Denver–Omaha purple4"``, routes
``"Denver–Santa Fe, Santa Fe–El Paso"``, tickets ``"Denver–El Paso, Boston–Miami"`` (ids such as ``"R039 R050"``
or ``"T04 T11"`` work too), ``"yes"``/``"no"``, ``"42"``.

The package: ``base`` (answers, prompts, feedback, the ``Exercise`` class), ``board`` (the USA and Europe
exercises), ``maerklin`` (passengers and goods), ``south_korea`` (the province board), ``cardgame`` (rail yards, completing tickets), ``coach`` (guess a move's
chance to win, the coach checks it); each further game keeps its exercises in its own module here,
registered in ``EXERCISES``.

Rules layer: no plotly, ipywidgets or IPython at import time.
"""
from __future__ import annotations

from ..errors import TTRError
from .base import Exercise, Feedback, Prompt
from .board import FindLongest, IsItLegal, LegalPayments, ScoreThis, TicketDone, TunnelExtra
from .maerklin import BestPassengerMove, PassengerFare
from .south_korea import ProvinceBonus, ProvinceSpace
from .cardgame import BestCompletion, CanPlayYard
from .coach import WinChance

__all__ = ["Feedback", "Prompt", "Exercise", "LegalPayments", "IsItLegal", "ScoreThis", "FindLongest", "TicketDone",
           "TunnelExtra", "BestPassengerMove", "PassengerFare", "ProvinceSpace", "ProvinceBonus", "CanPlayYard",
           "BestCompletion", "WinChance", "EXERCISES", "make_exercise"]


# --------------------------------------------------------------------------------------------- registry

EXERCISES: dict[str, type[Exercise]] = {cls.kind: cls for cls in
                                        (LegalPayments, IsItLegal, ScoreThis, FindLongest, TicketDone, TunnelExtra,
                                         BestPassengerMove, PassengerFare, ProvinceSpace, ProvinceBonus,
                                         CanPlayYard, BestCompletion, WinChance)}


def make_exercise(kind: str, seed: int = 0, **options) -> Exercise:
    """An exercise by its kind ("legal_payments", "is_it_legal", "score_this", "find_longest", "ticket_done",
    "tunnel_extra", "best_passenger_move", "passenger_fare", "province_space", "province_bonus", "can_play_yard",
    "best_completion", "win_chance")."""
    try:
        cls = EXERCISES[kind]
    except KeyError:
        raise TTRError(f"unknown exercise {kind!r}; kinds: {', '.join(EXERCISES)}") from None
    return cls(seed, **options)
