"""Shared pieces of the widget views: the board widget, message areas, panels and small HTML helpers.

Everything here is kernel-side and testable without a browser: a view's handlers are plain methods, and the
figures are shown by ``plotfig.FigureView`` and updated in place (``update_board`` / ``update_*``: one patch message
carrying only the properties that changed), never rebuilt.
"""
from __future__ import annotations

import re

import html
from typing import Any, Callable, Sequence

import ipywidgets as widgets

from ..board.cards import CARD_NAMES, PLAYER_COLOURS, card_word
from ..board.engine import board_marks, seat_name, turn_status
from ..board.engine import closed_routes as _engine_closed_routes
from ..errors import TTRError
from ..board.names import ticket_with_points
from ..board.state import GameState
from ..variants import get_variant, step_words

ERROR_COLOUR = "#b00020"

OK_COLOUR = "#17692e"


def esc(text: Any) -> str:
    return html.escape(str(text))


def map_of(state: GameState):
    return get_variant(state.variant).map


def card_label(kind: int | None) -> str:
    return "(empty)" if kind is None else CARD_NAMES[kind]



def closed_routes(state: GameState) -> list[str]:
    """Closed twins (USA-CLAIM-8), from the engine."""
    return _engine_closed_routes(state)


def owners_of(state: GameState) -> dict[str, int]:
    return board_marks(state)["owners"]


def stations_of(state: GameState) -> dict[str, int]:
    """city -> seat of the train stations on the board (from the variant's features; empty without stations)."""
    return board_marks(state)["stations"]


#: The projector setting (``ttr_nb.widgets.projector(True)``): boards made afterwards draw city names and markers
#: larger, and the views' text is larger.
PROJECTOR: dict[str, float] = {"scale": 1.0}


def ticket_cities(state: GameState, seat: int | None) -> dict[str, str]:
    """city -> "your ticket A–B (points)" for ``seat``'s kept tickets (empty for None)."""
    if seat is None or not 0 <= seat < state.n_players:
        return {}
    m = map_of(state)
    out: dict[str, list[str]] = {}
    for tid in state.players[seat].tickets:
        t = m.ticket(tid)
        for city in (t.a, t.b):
            if city in {c.name for c in m.cities}:
                out.setdefault(city, []).append(f"{t.a}–{t.b} ({t.points})")
    return {c: f"{c}: your ticket " + ", ".join(v) for c, v in out.items()}


def notice_html(head: str, summary: str, note: str) -> str:
    """A warning banner of one line (``head``: ``summary``) that opens to ``note`` (a <details> element: a play view
    keeps its screen for the board and the decision)."""
    return (f"<details class='ttr-notice' style='background:#fff0d6;border:1px solid #d9480f;padding:2px 6px;"
            f"color:#8a1c00'><summary style='cursor:pointer'><b>{esc(head)}</b> {esc(summary)} "
            f"<span style='text-decoration:underline'>(why)</span></summary>{esc(note)}</details>")


def provisional_banner(m) -> str:
    """The one place a view says PROVISIONAL (its board does not repeat it)."""
    if not getattr(m, "provisional", False):
        return ""
    note = getattr(m, "provisional_note", "") or "facts on this board are not yet confirmed"
    note = re.sub(r"^\s*PROVISIONAL\s*[:—-]\s*", "", note)          # the banner says it already
    return notice_html("PROVISIONAL map:", "some of its facts are stand-ins, not the printed game's.", note)


# --------------------------------------------------------------------------------------------------------------
# the board

class BoardWidget:
    """The board in a ``FigureView`` (``self.view``), built once, redrawn in place from a state.

    ``on_click(route_id)`` is called when a route marker (trace ``"routes"``, ``customdata`` = route id) is
    clicked. ``show(state, highlight=...)`` skips the update when nothing it draws changed.
    """

    def __init__(self, m, *, n_players: int | None = None, on_click: Callable[[str], None] | None = None,
                 on_city: Callable[[str], None] | None = None, height: int | None = None, title: str | None = None,
                 scale: float | None = None, max_height_vh: float = 0.0, provisional_note: bool = False):
        from ..render import board_figure, trace_index
        from .plotfig import figure_view, plotly_runtime
        plotly_runtime()      # first: the page starts loading plotly.js while the kernel lays out the board
        self.map = m
        self.n_players = n_players
        if n_players is None:
            self._names = None
            self._colours = PLAYER_COLOURS
        else:
            self._names = [seat_name(i) for i in range(n_players)]
            self._colours = PLAYER_COLOURS[:n_players]
        #: what a layout shows (an ipywidget); ``fig`` is the figure it draws, changed in place by ``draw``
        self.scale = PROJECTOR["scale"] if scale is None else float(scale)
        self._last_draw: dict | None = None
        # a view says PROVISIONAL in its banner (``provisional_banner``): the board does not repeat it
        fig = board_figure(m, player_names=self._names, player_colours=self._colours, height=height, title=title,
                           scale=self.scale, provisional_note=provisional_note)
        margin = fig.layout.margin
        (x0, x1), (y0, y1) = fig.layout.xaxis.range, fig.layout.yaxis.range
        # never taller than the window; a board taller than wide (Märklin's Germany) may take more of it, else it
        # shrinks to a strip beside the side column
        max_height_vh = max_height_vh or 85.0
        #: a map taller than wide: capped by the window's height, it needs less width than a wide map
        self.tall = (y1 - y0) > 1.1 * (x1 - x0)
        if self.tall:
            max_height_vh = max(max_height_vh, 76.0)
        # as wide as its container, and exactly as tall as the map needs at that width (plus title and legend)
        self._view = figure_view(fig, aspect=(y1 - y0) / (x1 - x0),
                                 extra_height=margin.t + margin.b, extra_width=margin.l + margin.r,
                                 max_height_vh=max_height_vh,
                                 css_classes=["ttr-board"], loading_text="Drawing the board ...")
        self.fig = self._view.figure
        self.routes_trace = self.fig.data[trace_index(self.fig, "routes")]
        self._on_click = on_click
        self._last_key: Any = None
        self.updates = 0                     # how many times the figure was redrawn (tests, benchmarks)
        self.selected: str | None = None
        self._index = {str(rid): i for i, rid in enumerate(self.routes_trace.customdata or ())}
        self._on_city = on_city
        if on_city is not None:
            self.fig.data[trace_index(self.fig, "cities")].on_click(self._city_clicked)
        if on_click is not None:
            # the selected route's marker grows, the others fade: board_figure gives the "routes" trace plotly's
            # selection styles, so a selection (``select``) costs one small property change, not a redraw
            self.routes_trace.on_click(self._clicked)

    @property
    def view(self):
        """The ``FigureView`` to put in a layout (the current one, should the browser have asked for a fresh one)."""
        return self._view.current()

    def _clicked(self, trace, points, selector) -> None:
        ids = list(trace.customdata or ())
        for i in getattr(points, "point_inds", ()) or ():
            if 0 <= i < len(ids) and self._on_click is not None:
                self._on_click(str(ids[i]))

    def _city_clicked(self, trace, points, selector) -> None:
        names = list(trace.customdata or ())
        for i in getattr(points, "point_inds", ()) or ():
            if 0 <= i < len(names) and self._on_city is not None:
                self._on_city(str(names[i]))

    def select(self, route_id: str | None) -> None:
        """Mark ``route_id`` as selected (None: no selection), in place: a dark halo around the route, its marker
        larger and the other markers faded (one small patch)."""
        if route_id == self.selected:
            return
        self.selected = route_id
        with self.fig.batch_update():
            self.routes_trace.selectedpoints = None if route_id is None else [self._index[route_id]]
            if self._last_draw is not None:
                self.draw(**self._last_draw)

    def draw(self, *, owners: dict[str, int] | None = None, closed: Sequence[str] = (),
             stations: dict[str, int] | None = None,
             highlight: Sequence[tuple[str, Sequence[str]]] = (), trail: Sequence[str] = (),
             title: str | None = None, marked: dict[str, str] | None = None, force: bool = False,
             trail_label: str | None = None, goods: dict[str, Sequence[int]] | None = None,
             passengers: dict[str, int] | None = None) -> bool:
        """Redraw in place; returns False (and does nothing) when the picture would not change."""
        from ..render import update_board
        owners = dict(owners or {})
        stations = dict(stations or {})
        marked = dict(marked or {})
        goods = {c: tuple(v) for c, v in (goods or {}).items()}
        passengers = dict(passengers or {})
        self._last_draw = dict(owners=owners, closed=closed, stations=stations, highlight=highlight, trail=trail,
                               title=title, marked=marked, trail_label=trail_label, goods=goods,
                               passengers=passengers)
        key = (tuple(sorted(owners.items())), tuple(closed), tuple(sorted(stations.items())),
               tuple((str(l), tuple(ids)) for l, ids in highlight), tuple(trail), title,
               tuple(sorted(marked.items())), self.selected, trail_label, tuple(sorted(goods.items())),
               tuple(sorted(passengers.items())))
        if key == self._last_key and not force:
            return False
        update_board(self.fig, self.map, owners=owners, closed=closed, stations=stations, player_names=self._names,
                     player_colours=self._colours, highlight=highlight, trail=trail, title=title,
                     selected=self.selected, marked=marked, scale=self.scale, goods=goods, passengers=passengers,
                     **({"trail_label": trail_label} if trail_label else {}))
        self._last_key = key
        self.updates += 1
        return True

    def show(self, state: GameState, *, highlight: Sequence[tuple[str, Sequence[str]]] = (),
             trail: Sequence[str] = (), title: str | None = None, viewer: int | None = None,
             force: bool = False, trail_label: str | None = None, last_move: str | None = None) -> bool:
        """Draw ``state``; with a ``viewer`` seat, that seat's ticket cities are ringed (its own secret: only
        pass the seat whose view this is). The figure's screen-reader text (``render.describe``) follows: what
        ``viewer`` may see, and ``last_move`` as the view words it for that viewer."""
        from ..render.describe import board_text
        self.view.describe(*board_text(state, viewer, last_move=last_move, title=title, highlight=highlight))
        marks = board_marks(state)
        if not trail and marks.get("trail"):           # a move under way (a Märklin passenger's path so far)
            trail, trail_label = marks["trail"], marks.get("trail_label", "path")
        return self.draw(owners=marks["owners"], closed=marks["closed"], stations=marks["stations"],
                         highlight=highlight, trail=trail, trail_label=trail_label, title=title,
                         marked=ticket_cities(state, viewer), goods=marks.get("goods"),
                         passengers=marks.get("passengers"), force=force)

    def route_marker(self, route_id: str) -> dict:
        """The click marker of ``route_id`` as the figure has it now (colour, symbol, size, hover) — for tests."""
        t = self.routes_trace
        i = list(t.customdata).index(route_id)
        mk = t.marker

        def pick(v):
            return v[i] if isinstance(v, (list, tuple)) else v
        return {"color": pick(mk.color), "symbol": pick(mk.symbol), "size": pick(mk.size),
                "hover": pick(t.hovertext)}


# --------------------------------------------------------------------------------------------------------------
# message areas

class MessageArea:
    """One HTML line: refusals in red (the IllegalAction's text, which names the rule id), notes in grey."""

    def __init__(self):
        self.widget = widgets.HTML(value="")
        self.text = ""
        self.error: TTRError | None = None
        self.is_error = False
        self._listeners: list[Callable[[str, bool], None]] = []

    def listen(self, callback: Callable[[str, bool], None]) -> None:
        """Call ``callback(text, is_error)`` whenever a non-empty message is shown (the views' live region)."""
        self._listeners.append(callback)

    def _tell(self) -> None:
        if self.text:
            for cb in list(self._listeners):
                cb(self.text, self.is_error)

    def refuse(self, err: Exception | str) -> None:
        self.error = err if isinstance(err, TTRError) else None
        self.text = str(err)
        self.is_error = True
        self.widget.value = (f"<div class='ttr-refusal' style='color:{ERROR_COLOUR};border-left:4px solid {ERROR_COLOUR};"
                             f"padding-left:6px'><b>Not allowed:</b> {esc(self.text)}</div>")
        self._tell()

    def note(self, text: str) -> None:
        self.error = None
        self.text = text
        self.is_error = False
        self.widget.value = f"<div style='color:#444'>{esc(text)}</div>" if text else ""
        self._tell()

    def ok(self, text: str) -> None:
        self.error = None
        self.text = text
        self.is_error = False
        self.widget.value = f"<div style='color:{OK_COLOUR}'><b>Done:</b> {esc(text)}</div>"
        self._tell()

    def clear(self) -> None:
        self.note("")


# --------------------------------------------------------------------------------------------------------------
# what the editors share (the board's EditorView and the Card Game's)

def checked_seat(state, seat) -> int:
    """``seat`` if it is a seat of ``state``'s game, else a TTRError naming it."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_players:
        raise TTRError(f"there is no seat {seat!r} in a {state.n_players}-player game")
    return seat


def deck_take(deck: list[int], kind: int, n: int) -> int:
    """Remove up to ``n`` cards of ``kind`` from the bottom of ``deck`` (a list of card kinds, top first); returns
    how many it held."""
    taken = 0
    for i in range(len(deck) - 1, -1, -1):
        if taken == n:
            break
        if deck[i] == kind:
            del deck[i]
            taken += 1
    return taken


def status_html(state: GameState, extra: str = "", *, rule_ids: bool = True) -> str:
    """Whose turn it is and what they are to do, in bold; ``rule_ids`` False: without the rule ids (a learner's
    status line; refusals and the teacher's view keep them)."""
    text = turn_status(state)
    if not rule_ids:
        from .words import without_rule_ids
        text = without_rule_ids(text)
    return f"<div style='font-size:1.05em'><b>{esc(text)}</b>{extra}</div>"


# --------------------------------------------------------------------------------------------------------------
# tables

def table_html(rows: Sequence[Sequence[Any]], head: Sequence[str] | None = None, *, max_rows: int | None = None) -> str:
    cells = "".join("<th style='text-align:left;padding:1px 6px'>" + esc(h) + "</th>" for h in (head or ()))
    out = [f"<table style='border-collapse:collapse;font-size:0.92em'>{'<tr>' + cells + '</tr>' if head else ''}"]
    for r in list(rows)[:max_rows]:
        out.append("<tr>" + "".join(f"<td style='padding:1px 6px'>{esc(c)}</td>" for c in r) + "</tr>")
    out.append("</table>")
    return "".join(out)


def hand_text(hand: dict[str, int] | Sequence[int]) -> str:
    if not isinstance(hand, dict):
        hand = {CARD_NAMES[k]: n for k, n in enumerate(hand) if n}
    return ", ".join(f"{n} {card_word(name)}" for name, n in hand.items() if n) or "no cards"


def ticket_words(m, tid: str) -> str:
    """A ticket as a view shows it: 'Denver–Pittsburgh (11 points)' (what the number is, said)."""
    try:
        return ticket_with_points(m, tid)
    except TTRError:
        return tid


_KNOWN_PLAYER_KEYS = {"seat", "name", "trains", "route_points", "hand_size", "ticket_count", "hand", "tickets"}


def _words_of(m, x) -> str:
    """A value a feature shows of a player: a ticket id in words (South Korea's draft), anything else as is."""
    if isinstance(x, str) and x in m._ticket_by_id:
        return ticket_words(m, x)
    return str(x)


def table_view_html(state: GameState, seat: int | None) -> str:
    """The table as ``observe(state, seat)`` lets ``seat`` see it (None: the whole table).

    Built only from the observation, so nothing hidden can leak into it.
    """
    from ..board.engine import observe
    view = observe(state, seat)
    m = map_of(state)
    variant = get_variant(state.variant)
    who = "the whole table (teacher view)" if seat is None else f"{seat_name(seat)}'s view"
    rows = []
    for p in view["players"]:
        mark = "▶ " if p["seat"] == view["current"] and view["phase"] in ("play", "last_round") else ""
        if "hand" in p:
            hand = hand_text(p["hand"])
        else:
            hand = f"{p['hand_size']} cards (hidden)"
        if "tickets" in p:
            tickets = "; ".join(ticket_words(m, t) for t in p["tickets"]) or "none"
        else:
            tickets = f"{p['ticket_count']} tickets (hidden)"
        extra = "; ".join(f"{k.replace('_', ' ')}: "
                          + ((', '.join(_words_of(m, x) for x in v) or 'none') if isinstance(v, (list, tuple)) else str(v))
                          for k, v in p.items() if k not in _KNOWN_PLAYER_KEYS
                          and not (k.endswith("_count") and k[:-len("_count")] in p))   # the list itself is shown
        rows.append((mark + p["name"], p["trains"], p["route_points"], hand, tickets) + ((extra,) if extra else ("",)))
    if not any(r[-1] for r in rows):
        rows = [r[:-1] for r in rows]
    pend = []
    for p in view["pending"]:
        if "data" in p and p["data"].get("offered"):          # a ticket choice (or South Korea's draft keep)
            offered = ", ".join(ticket_words(m, t) for t in p["data"].get("offered", []))
            pend.append(f"{seat_name(p['seat'])} chooses among {offered}")
        elif "offered_count" in p:
            pend.append(f"{seat_name(p['seat'])} chooses among {p['offered_count']} offered tickets (hidden)")
        else:
            pend.append(f"{seat_name(p['seat'])}: {step_words(variant, p['kind'])}")
    market = ", ".join("—" if c is None else card_word(c) for c in view["market"])
    discard = hand_text(view["discard"]) if view["discard"] else "empty"
    decks = ", ".join(f"{name} {n}" for name, n in view["ticket_deck_sizes"].items())
    return (f"<div><i>Showing {esc(who)}</i><br>"
            + table_html(rows, ["player", "trains", "route points", "hand", "tickets", "more"][:len(rows[0]) if rows else 5])
            + f"<div>Face-up: {esc(market)} · deck {view['deck_size']} cards · discards: {esc(discard)} · "
              f"ticket decks: {esc(decks)}</div>"
            + ("<div>Pending: " + esc("; ".join(pend)) + "</div>" if pend else "") + "</div>")


def log_html(lines: Sequence[str], n: int = 14, *, newest_first: bool = False) -> str:
    """The last ``n`` lines of a log (the first ``n`` when ``newest_first``: the lines are then newest first)."""
    shown = list(lines)[:n] if newest_first else list(lines)[-n:]
    items = "".join(f"<div style='font-size:12px;padding:1px 0;border-bottom:1px solid #eee'>{esc(s)}</div>"
                    for s in shown)
    head = "<b>Log</b> <span style='color:#666'>(newest first)</span>" if newest_first else "<b>Log</b>"
    return (f"<div class='ttr-log' style='font-family:Arial,Helvetica,sans-serif;margin-top:4px'>{head}"
            f"<div tabindex='0' role='region' aria-label='Log' style='max-height:22em;overflow-y:auto'>"   # scrolls by keyboard
            f"{items or '<i>nothing played yet</i>'}</div></div>")


def public_words(ply, viewer: int | None) -> tuple[str, list[str]]:
    """What ``viewer`` may read about ``ply``: its words and events, without another seat's secrets (which
    tickets it kept, which card a blind draw gave it). ``viewer`` None is the whole table (a teacher)."""
    return ply.words_for(viewer), [e.text_for(viewer) for e in ply.events]




__all__ = ["BoardWidget", "MessageArea", "closed_routes", "owners_of", "stations_of", "map_of", "status_html", "table_html",
           "table_view_html", "hand_text", "ticket_words", "log_html", "public_words", "provisional_banner", "card_label", "esc"]


def own_view(kind: str, game):
    """The view class ``kind`` ("PlayView" …) of a game that has its own views (its registry entry names a
    ``views`` module: the Card Game), else None — so the board views name no game."""
    import importlib
    from ..variants import get_game
    try:
        module = getattr(get_game(getattr(getattr(game, "state", game), "variant", None)), "views", None)
    except Exception:            # not a game at all: the board view's own check says what is wrong
        return None
    return getattr(importlib.import_module(module), kind, None) if module else None
