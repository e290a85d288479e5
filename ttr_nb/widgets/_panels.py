"""The player panels of the views (hand, market, score, players), as widgets updated in place.

The figures come from ``ttr_nb.render.panels`` (hand_figure/update_hand, market_figure/update_market,
score_figure/update_score on a ``ScoreSheet``, players_panel_html, tickets_table_html). Each panel is built once as a ``go.FigureWidget`` and redrawn
in place; a panel skips the redraw when what it shows did not change. If ``ttr_nb.render.panels`` cannot be
imported, a plain-text HTML stand-in is shown instead (and ``panels_available()`` is False).
"""
from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from ..engine import seat_name
from ..state import GameState
from ._common import esc, hand_text, map_of, ticket_words


def _panels():
    try:
        from ..render import panels
    except ImportError:
        return None
    return panels


def panels_available() -> bool:
    return _panels() is not None


def _as_widget(fig) -> go.FigureWidget:
    # unlike go.FigureWidget(fig), keeps what the update functions know about the figure (a fast first update)
    from ..render.board import as_figure_widget
    return as_figure_widget(fig)


class HandPanel:
    """The train cards of one seat."""

    def __init__(self, height: int | None = None):
        self._fig: go.FigureWidget | None = None
        self._key: Any = None
        self.html = widgets.HTML()
        self.widget = widgets.VBox([self.html])
        self.updates = 0

    @property
    def fig(self):
        return self._fig

    def show(self, state: GameState, seat: int | None) -> None:
        if seat is None:
            self.widget.layout.display = "none"
            return
        self.widget.layout.display = None
        key = (state.variant, seat, state.players[seat].hand)
        if key == self._key:
            return
        self._key = key
        p = _panels()
        if p is not None:
            if self._fig is None:
                self._fig = _as_widget(p.hand_figure(state, seat))
                self.widget.children = [self._fig]
            else:                   # only the changed properties, in one update message
                p.update_hand(self._fig, state, seat)
        else:
            self.html.value = f"<div><b>{esc(seat_name(seat))}'s hand:</b> {esc(hand_text(state.players[seat].hand))}</div>"
        self.updates += 1


class MarketPanel:
    """The face-up cards, the deck and the discard pile."""

    def __init__(self):
        self._fig: go.FigureWidget | None = None
        self._key: Any = None
        self.html = widgets.HTML()
        self.widget = widgets.VBox([self.html])
        self.updates = 0

    @property
    def fig(self):
        return self._fig

    def show(self, state: GameState) -> None:
        key = (state.variant, state.market, len(state.deck), state.discard)
        if key == self._key:
            return
        self._key = key
        p = _panels()
        if p is not None:
            if self._fig is None:
                self._fig = _as_widget(p.market_figure(state))
                self.widget.children = [self._fig]
            else:                   # only the changed properties, in one update message
                p.update_market(self._fig, state)
        else:
            from ..cards import CARD_NAMES
            market = ", ".join("—" if c is None else CARD_NAMES[c] for c in state.market)
            self.html.value = f"<div><b>Face-up:</b> {esc(market)} · deck {len(state.deck)} · discards {sum(state.discard)}</div>"
        self.updates += 1


class ScorePanel:
    """Final scores: the score figure and the plain-text breakdown. Hidden while the game is not over
    (``always=True`` shows the "if it ended now" sheet at any time)."""

    def __init__(self, always: bool = False):
        self.always = always
        self._fig: go.FigureWidget | None = None
        self._key: Any = None
        self.title = widgets.HTML()
        self.table = widgets.HTML()
        self.widget = widgets.VBox([self.title, self.table])
        self.widget.layout.display = "none"
        self.sheet = None

    @property
    def fig(self):
        return self._fig

    def show(self, state: GameState) -> None:
        if not (state.phase == "over" or self.always):
            self.widget.layout.display = "none"
            return
        self.widget.layout.display = None
        key = (state.variant, state.claims, tuple(p.tickets for p in state.players), state.phase, state.ext,
               tuple(p.ext for p in state.players))
        if key == self._key:
            return
        self._key = key
        from ..scoring import score
        sheet = score(state)
        self.sheet = sheet
        head = "Final score" if sheet.final else "Score if the game ended now"
        self.title.value = f"<h4 style='margin:4px 0'>{esc(head)}</h4>"
        self.table.value = f"<pre style='font-size:0.9em'>{esc(sheet.table())}</pre>"
        p = _panels()
        if p is not None:
            if self._fig is None:
                self._fig = _as_widget(p.score_figure(sheet))
                self.widget.children = [self.title, self._fig, self.table]
            else:                   # only the changed properties, in one update message
                p.update_score(self._fig, sheet)


def players_html(state: GameState, seat: int | None) -> str:
    """The players' public numbers, plus ``seat``'s own hand and tickets (``render.panels.players_panel_html``)."""
    p = _panels()
    if p is not None:
        return p.players_panel_html(state, seat)
    from ._common import table_view_html
    return table_view_html(state, seat)


def tickets_html(state: GameState, seat: int | None) -> str:
    """``seat``'s kept tickets with ✓ for the completed ones (what the seat may know about itself)."""
    if seat is None:
        return ""
    p = _panels()
    if p is not None and hasattr(p, "tickets_table_html"):
        return p.tickets_table_html(state, seat)
    from ..scoring import owned_edges, ticket_results
    from ..variants import get_variant
    v = get_variant(state.variant)
    tickets = state.players[seat].tickets
    if not tickets:
        return f"<div><b>{esc(seat_name(seat))}'s tickets:</b> none yet</div>"
    results = ticket_results(v, tickets, owned_edges(v, state, seat))
    items = "".join(f"<li>{'✓' if r.completed else '○'} {esc(ticket_words(map_of(state), r.id))}</li>" for r in results)
    done = sum(r.completed for r in results)
    return (f"<div><b>{esc(seat_name(seat))}'s tickets</b> ({done}/{len(results)} completed)"
            f"<ul style='margin:2px 0'>{items}</ul></div>")


__all__ = ["HandPanel", "MarketPanel", "ScorePanel", "players_html", "tickets_html", "panels_available"]
