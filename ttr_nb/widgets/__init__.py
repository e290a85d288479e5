"""ipywidgets views over a ``Game`` — the third layer (see DESIGN.md): events become actions, actions go through
the engine, figures are shown by ``plotfig.FigureView`` (they always draw) and updated in place.

    PlayView(game, human_seats=(0,), bots=None, seat_view=None)   walk through a turn against bots
    HistoryView(game)                                             step through the plies, branch, variations
    EditorView(game_or_state)                                     edit a position, validate, play from it
    TableView(game)                                               teacher view vs each player's view
    MapExplorer(map)                                              cheapest paths, ticket difficulty, centrality
    play(variant="usa", players=4, seed=0, bots="greedy")         a PlayView: you are seat 0, bots elsewhere
    projector(True)                                               larger city names, markers and text for a class

Every view has ``.widget`` (the container to display) and displays itself in a notebook; its handlers are
public methods (``click_route``, ``choose_payment``, ``press`` ...) so tests and notebooks can drive it.
"""
from __future__ import annotations

from .editor import EditorView
from .explorer import MapExplorer
from .history import HistoryView
from .playview import PlayView
from .table import TableView


def play(variant: str = "usa", players: int = 4, seed: int = 0, bots: str = "greedy", **kwargs) -> PlayView:
    """A new game in a ``PlayView``: you play seat 0 (Blue), bots of kind ``bots`` ("greedy", "random",
    "mixed:0.5") play the other seats. Extra keywords go to ``PlayView``."""
    from ..bots import make_bot
    from ..game import Game
    game = Game(variant, players=players, seed=seed)
    return PlayView(game, human_seats=(0,), bots={s: make_bot(bots, seed=seed * 10 + s) for s in range(1, players)},
                    **kwargs)


def projector(on: bool = True, scale: float = 1.5) -> None:
    """Make the views built from now on readable on a classroom projector: city names, markers and the views'
    text ``scale`` times larger (``projector(False)`` goes back to normal)."""
    from ._common import PROJECTOR
    if not isinstance(scale, (int, float)) or isinstance(scale, bool) or not 1.0 <= scale <= 3.0:
        raise ValueError(f"projector scale must be a number from 1 to 3, got {scale!r}")
    PROJECTOR["scale"] = float(scale) if on else 1.0


__all__ = ["PlayView", "HistoryView", "EditorView", "TableView", "MapExplorer", "play", "projector"]
