"""ipywidgets views over a ``Game`` — the third layer (see DESIGN.md): events become actions, actions go through
the engine, figures are ``go.FigureWidget`` objects updated in place.

    PlayView(game, human_seats=(0,), bots=None, seat_view=None)   walk through a turn against bots
    HistoryView(game)                                             step through the plies, branch, variations
    EditorView(game_or_state)                                     edit a position, validate, play from it
    TableView(game)                                               teacher view vs each player's view
    MapExplorer(map)                                              cheapest paths, ticket difficulty, centrality
    play(variant="usa", players=4, seed=0, bots="greedy")         a PlayView: you are seat 0, bots elsewhere

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


__all__ = ["PlayView", "HistoryView", "EditorView", "TableView", "MapExplorer", "play"]
