"""ttr_nb — learn, explore and teach Ticket to Ride in Jupyter.

The rules core (this package without ``ttr_nb.render`` and ``ttr_nb.widgets``) is pure Python and imports no
plotting or widget library. The layout: ``board/`` the board engine (state, actions, rules, scoring, maps) and the
protocol the Card Game shares; ``games/`` the five games' settings and features; ``cardgame/`` the Card Game's own
engine; ``coach/``, ``tournament/`` above the protocol; ``render/``, ``widgets/``, ``exercises/``, ``teaching`` the
teaching layer. A short tour::

    >>> import ttr_nb
    >>> game = ttr_nb.Game("usa", players=3, seed=7)
    >>> game.status()[:40]
    'Setup: each player keeps at least 2 of t'

See README.md for more.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

__version__ = "0.1.0"

#: The board engine's modules, which sat directly in ``ttr_nb/`` until they moved into ``ttr_nb/board/``. Their old
#: names still import, as the very same module objects: ``import ttr_nb.engine`` is ``ttr_nb.board.engine``.
#: (``python -m ttr_nb.maps`` says to run ``python -m ttr_nb.board.maps``: a module run as a script needs its own name.)
MOVED_TO_BOARD = frozenset(("actions", "cards", "determinization", "engine", "featuredata", "maps", "names",
                            "positions", "scoring", "state", "tables", "trail"))


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers ``ttr_nb.<old name>`` with the module under ``ttr_nb.board`` (see ``MOVED_TO_BOARD``)."""

    @staticmethod
    def _new(name: str) -> str | None:
        package, _, module = name.rpartition(".")
        return f"{__name__}.board.{module}" if package == __name__ and module in MOVED_TO_BOARD else None

    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if self._new(name) else None

    def __init__(self):
        self._specs = {}                          # old name -> the moved module's own spec, while it is imported

    def create_module(self, spec):
        module = importlib.import_module(self._new(spec.name))
        self._specs[spec.name] = module.__spec__  # the import system sets __spec__ on what this returns: put it back
        return module

    def exec_module(self, module):
        module.__spec__ = self._specs.pop(module.__spec__.name)    # keyed by name: two threads may import two names

    def get_code(self, name):                     # ``python -m ttr_nb.<old name>`` runs nothing: it says where
        raise ImportError(f"{name} has moved to {self._new(name)}: run python -m {self._new(name)}")


# First in line: an installed wheel has data folders ttr_nb/maps/ and ttr_nb/notebooks/, which the path finder would
# otherwise answer ``import ttr_nb.maps`` with (an empty namespace package).
if not any(isinstance(finder, _OldNames) for finder in sys.meta_path):
    sys.meta_path.insert(0, _OldNames())

from .board.actions import Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, parse_action
from .board.engine import (Event, apply, describe, determinize, explain, is_legal, legal_actions, new_game, observe, step,
                     to_move, turn_status, validate)
from .errors import BadAction, IllegalAction, MapError, SaveFileError, StateError, TTRError
from .game import Game
from .board.state import GameState
from .variants import available_games, available_variants, get_game, get_variant


def __getattr__(name):
    # The map module is loaded when first needed, not by ``import ttr_nb``: so ``python -m ttr_nb.board.maps`` runs it
    # once, without runpy's warning about a module found in sys.modules before it was executed.
    if name in ("Map", "available_maps", "load_map"):
        from .board import maps
        return getattr(maps, name)
    if name == "simulate":                  # likewise ttr_nb.parallel, which its worker processes run with -m
        from .simulation import simulate
        return simulate
    raise AttributeError(f"module 'ttr_nb' has no attribute {name!r}")


def score(state):
    """The score breakdown of ``state`` (see ``ttr_nb.board.scoring.score``)."""
    from .board.scoring import score as _score
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
