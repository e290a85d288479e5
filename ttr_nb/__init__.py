"""ttr_nb — learn, explore and teach Ticket to Ride in Jupyter.

The rules core (this package without ``ttr_nb.render`` and ``ttr_nb.widgets``) is pure Python and imports no
plotting or widget library. A short tour::

    >>> import ttr_nb
    >>> game = ttr_nb.Game("usa", players=3, seed=7)
    >>> game.status()[:40]
    'Setup: each player keeps at least 2 of t'

See README.md for more.
"""
from __future__ import annotations

__version__ = "0.1.0"

from .actions import Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, parse_action
from .engine import (Event, apply, describe, determinize, explain, is_legal, legal_actions, new_game, observe, step,
                     to_move, turn_status, validate)
from .errors import BadAction, IllegalAction, MapError, SaveFileError, StateError, TTRError
from .game import Game
from .state import GameState
from .variants import available_games, available_variants, get_game, get_variant


def __getattr__(name):
    # The map module is loaded when first needed, not by ``import ttr_nb``: so ``python -m ttr_nb.maps`` runs it
    # once, without runpy's warning about a module found in sys.modules before it was executed.
    if name in ("Map", "available_maps", "load_map"):
        from . import maps
        return getattr(maps, name)
    if name == "simulate":                  # likewise ttr_nb.parallel, which its worker processes run with -m
        from .simulation import simulate
        return simulate
    raise AttributeError(f"module 'ttr_nb' has no attribute {name!r}")


def score(state):
    """The score breakdown of ``state`` (see ``ttr_nb.scoring.score``)."""
    from .scoring import score as _score
    return _score(state)


def make_bot(spec: str, seed: int = 0):
    """'random', 'greedy' or 'mixed:0.7' (see ``ttr_nb.bots``)."""
    from .bots import make_bot as _make_bot
    return _make_bot(spec, seed)


__all__ = ["__version__", "Action", "Claim", "DrawDeck", "DrawFaceUp", "DrawTickets", "KeepTickets", "Pass",
           "parse_action", "Event", "apply", "describe", "determinize", "explain", "is_legal", "legal_actions", "new_game", "observe",
           "step", "to_move", "turn_status", "validate", "BadAction", "IllegalAction", "MapError", "SaveFileError",
           "StateError", "TTRError", "Game", "Map", "available_maps", "load_map", "GameState", "available_variants",
           "get_variant", "available_games", "get_game", "score", "make_bot", "simulate"]
