"""The score panel of the views, a widget updated in place (hands and the market are HTML: see render.panels).

The figures come from ``ttr_nb.render.panels``. Each panel builds its ``go.FigureWidget`` once and afterwards
sends only what changed (``update_*``); it skips the work entirely when what it shows did not change. Next to
each figure a one-line text says the same in words (for screen readers and for the text of ``TableView``).
"""
from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets
import plotly.graph_objects as go

from ..render import panels
from .plotfig import figure_view
from ..board.state import GameState
from ._common import esc


class _FigurePanel:
    """A figure shown in a VBox below a one-line text; built on the first ``_draw``, updated in place after."""

    def __init__(self):
        self._fig: go.FigureWidget | None = None
        self._key: Any = None
        self.html = widgets.HTML()
        self.widget = widgets.VBox([self.html])
        self.updates = 0

    @property
    def fig(self):
        return self._fig

    def _changed(self, key: Any) -> bool:
        if key == self._key:
            return False
        self._key = key
        return True

    def _draw(self, build: Callable[[], go.Figure], update: Callable[[go.FigureWidget], None],
              before: tuple = (), after: tuple = ()) -> None:
        if self._fig is None:
            # figure_view keeps what the update functions know: the first update is a small patch too
            self.view = figure_view(build())
            self._fig = self.view.figure
            self.widget.children = [*before, self.view, *after]
        else:                      # only the changed properties, in one update message
            update(self._fig)
        self.updates += 1


class ScorePanel(_FigurePanel):
    """Final scores: the score figure and the plain-text breakdown. Hidden while the game is not over
    (``always=True`` shows the "if it ended now" sheet at any time)."""

    def __init__(self, always: bool = False):
        super().__init__()
        self.always = always
        self.title = self.html
        self.table = widgets.HTML()
        self.widget.children = [self.title, self.table]
        self.widget.layout.display = "none"
        self.sheet = None

    def show(self, state: GameState) -> None:
        if not (state.phase == "over" or self.always):
            self.widget.layout.display = "none"
            return
        self.widget.layout.display = None
        if not self._changed((state.variant, state.claims, tuple(p.tickets for p in state.players), state.phase,
                              state.ext, tuple(p.ext for p in state.players))):
            return
        from ..board.scoring import score
        sheet = self.sheet = score(state)
        head = "Final score" if sheet.final else "Score if the game ended now"
        self.title.value = f"<h4 style='margin:4px 0'>{esc(head)}</h4>"
        self.table.value = f"<pre style='font-size:0.9em'>{esc(sheet.table())}</pre>"
        self._draw(lambda: panels.score_figure(sheet), lambda fig: panels.update_score(fig, sheet),
                   before=(self.title,), after=(self.table,))
        # the chart's words are the table printed under it
        self.view.describe(f"{head} chart", f"{head}: the table below the chart gives every line in numbers.")


def players_html(state: GameState, seat: int | None) -> str:
    """The players' public numbers, plus ``seat``'s own hand and tickets (built from ``observe``)."""
    return panels.players_panel_html(state, seat)


def tickets_html(state: GameState, seat: int | None) -> str:
    """``seat``'s kept tickets, completed or not (what the seat may know about itself)."""
    return "" if seat is None else panels.tickets_table_html(state, seat)


__all__ = ["ScorePanel", "players_html", "tickets_html"]
