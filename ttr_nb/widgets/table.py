"""``TableView``: teacher view vs player view. A ToggleButtons ("whole table", "Blue", "Red", …) switches what is
shown; everything but the public board is built from ``observe(state, seat)``, so a player view cannot show
another player's hand, tickets or offered tickets.
"""
from __future__ import annotations

import ipywidgets as widgets

from ..board.engine import seat_name
from ..game import Game
from ..board.state import GameState
from ..variants import get_variant
from ._common import own_view, BoardWidget, MessageArea, provisional_banner, status_html, table_view_html
from ..render import panels
from ._panels import ScorePanel, tickets_html
from .access import Access, accessible

WHOLE_TABLE = "whole table"


class TableView:
    def __new__(cls, game=None, *args, **kwargs):
        own = own_view("TableView", game) if cls is TableView else None
        if own is not None:                 # a game with its own views (the Card Game) is shown by them
            return own(game, *args, **kwargs)
        return super().__new__(cls)

    def __init__(self, game: Game | GameState, *, seat: int | None = None, board_height: int | None = None):
        if isinstance(game, GameState):
            game = Game(start=game)
        if not isinstance(game, Game):
            raise TypeError(f"TableView needs a ttr_nb.Game, got {type(game).__name__}")
        self.game = game
        n = game.state.n_players
        self.variant = get_variant(game.state.variant)
        self.map = self.variant.map
        self.banner = widgets.HTML(provisional_banner(self.map))
        self.message = MessageArea()
        self.toggle = widgets.ToggleButtons(options=[WHOLE_TABLE] + [seat_name(s) for s in range(n)],
                                            value=WHOLE_TABLE if seat is None else seat_name(seat),
                                            tooltips=["teacher view: every hand and ticket"]
                                            + [f"what {seat_name(s)} may see" for s in range(n)])
        self.toggle.observe(lambda _c: self.refresh(), names="value")
        self.status = widgets.HTML()
        self.board = BoardWidget(self.map, n_players=n, height=board_height)
        self.table = widgets.HTML()
        self.hand = widgets.HTML()
        self.tickets = widgets.HTML()
        self.score = ScorePanel()
        from .feature_panels import panels_for
        self.feature_panels = panels_for(self.variant, game.state)          # South Korea: the province board
        self.widget = widgets.VBox([self.banner, self.toggle, self.status, self.message.widget, self.board.view,
                                    *[p.widget for p in self.feature_panels],
                                    self.table, widgets.HBox([self.hand, self.tickets]), self.score.widget])
        self.access = accessible(self.widget, Access()).children[-1]
        self.access.follow(self.message)
        self.refresh()

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget)

    @property
    def seat(self) -> int | None:
        """The seat whose view is shown (None: the whole table)."""
        v = self.toggle.value
        return None if v == WHOLE_TABLE else self.toggle.options.index(v) - 1

    def select(self, who: int | str | None) -> None:
        """Show the view of seat ``who`` (an index or a name such as "Blue"); None or "whole table": teacher view."""
        if who is None:
            label = WHOLE_TABLE
        elif isinstance(who, int) and not isinstance(who, bool):
            if not 0 <= who < self.game.state.n_players:
                self.message.refuse(f"there is no seat {who} in a {self.game.state.n_players}-player game")
                return
            label = seat_name(who)
        else:
            match = [o for o in self.toggle.options if o.lower() == str(who).strip().lower()]
            if not match:
                self.message.refuse(f"no view called {who!r}; choose one of {', '.join(self.toggle.options)}")
                return
            label = match[0]
        self.message.clear()
        if self.toggle.value != label:
            self.toggle.value = label        # the observer refreshes
        else:
            self.refresh()

    def follow(self, view) -> None:
        """Refresh whenever ``view`` (a ``PlayView`` on the same game) changes."""
        view.on_change(lambda _v: self.refresh())

    def refresh(self) -> None:
        """Re-read the game's current state."""
        s = self.game.state
        seat = self.seat
        self.status.value = status_html(s)
        self.board.show(s, viewer=seat)
        self.table.value = table_view_html(s, seat)
        self.hand.value = "" if seat is None else panels.hand_html(s, seat)
        self.tickets.value = tickets_html(s, seat)
        self.score.show(s)
        for panel in self.feature_panels:
            panel.show(s)

    @property
    def html(self) -> str:
        """Everything textual the view shows now (for tests: nothing hidden may be in it)."""
        return "".join([self.status.value, self.table.value, self.tickets.value, self.hand.value,
                        self.score.table.value if self.score.widget.layout.display != "none" else ""])


__all__ = ["TableView", "WHOLE_TABLE"]
