"""Side panels of a game: pure functions ``state -> go.Figure`` (or HTML text). No ipywidgets here.

Everything shown to a seat comes from ``engine.observe(state, seat)``, so a panel cannot leak what that seat
may not see. Colours are never the only cue: every card colour also has a shape (the same shapes as the board's
route markers, ``board.CARD_SYMBOLS``) and a text label; score segments have fill patterns and text.

Trace structure — fixed per function, so a ``FigureWidget`` is updated in place by the ``update_*`` functions
(data only, inside ``batch_update()``); every trace has a stable ``meta`` key (find one with
``board.trace_index(fig, key)``), and ``layout.meta["ttr_panel"]`` names the panel:

==============  ===========================================================================================
figure          traces (meta, in order)
==============  ===========================================================================================
hand_figure     ``hand`` (Bar: one bar per card kind, 8 colours + locomotive, text = count),
                ``symbols`` (Scatter: the colour's shape under each bar)
market_figure   ``market`` (Bar: 5 face-up tiles, x = slot 1..5; empty slot = blank tile "empty"),
                ``symbols`` (Scatter: shape on each tile), ``piles`` (Bar: train deck, discard pile, tickets)
trains_figure   ``trains`` (Bar, horizontal: trains left per seat), ``end`` (Scatter: dashed line at
                ``settings.end_trains``, the final-round trigger)
score_figure    ``routes``, ``tickets+``, ``tickets-``, ``longest``, ``extras`` (Bar, horizontal, relative
                stacking: failed tickets go left of zero), ``total`` (Scatter: a ▲ under each bar at the net total),
                ``labels`` (Scatter: "= 24 ★ winner" right of each bar)
==============  ===========================================================================================

HTML: ``players_panel_html(state, seat=None)``, ``tickets_table_html(state, seat)``.
"""
from __future__ import annotations

import html
from typing import Any

import plotly.graph_objects as go

from ..board.cards import CARD_NAMES, COLOURS, LOCO, PLAYER_COLOURS
from ..board.engine import observe, seat_name
from ..errors import TTRError
from ..board.state import GameState
from ..variants import get_variant
from .board import BACKGROUND, CARD_HEX, CARD_SYMBOLS, INK, PLAYER_HEX, _apply, _remember
from .figure import Figure

__all__ = ["CARD_FILL", "CARD_MARK", "hand_figure", "update_hand", "market_figure", "update_market",
           "trains_figure", "update_trains", "score_figure", "update_score", "tickets_table_html",
           "players_panel_html", "panel_png"]

LOCO_HEX = "#3a3a3a"
LOCO4_HEX = "#4a2d73"          # Märklin's +4 locomotive: wild on routes of 4 or more
PASSENGER_HEX = "#0b6e7a"      # Märklin's passenger card
#: Fill colour per card kind (index = card kind: 8 colours, the locomotive, then Märklin's +4 and passenger).
CARD_FILL: tuple[str, ...] = tuple(CARD_HEX[c] for c in COLOURS) + (LOCO_HEX, LOCO4_HEX, PASSENGER_HEX)
#: Marker shape per card kind: the board's route-marker shapes, a star-diamond for the locomotive, a
#: star-square for the +4 and a circle-cross for the passenger card.
CARD_MARK: tuple[str, ...] = tuple(CARD_SYMBOLS[c] for c in COLOURS) + ("star-diamond", "star-square",
                                                                         "circle-cross")
#: Short word per card kind on chips and buttons.
CARD_WORD: tuple[str, ...] = COLOURS + ("loco", "+4 loco", "passenger")
#: Locomotives are wild: a gold cross-hatch on a dark card ("any colour").
CARD_BACK = "#28407a"
FONT = dict(family="Arial, Helvetica, sans-serif", color=INK)

# score segments: (meta, legend name, fill, pattern)
SEGMENTS: tuple[tuple[str, str, str, str], ...] = (
    ("routes", "routes claimed", "#6a8fc7", ""),
    ("tickets+", "tickets completed", "#2f9e62", "/"),
    ("tickets-", "tickets failed", "#d4534b", "x"),
    ("longest", "longest path bonus", "#e8a33b", "."),
    ("extras", "other points", "#9b7bc4", "-"),
)


# --------------------------------------------------------------------------------------------- helpers

def _ink_on(hex_colour: str) -> str:
    """Black or white text, whichever contrasts more with ``hex_colour`` (at least 4.58:1, WCAG AA)."""
    from .palette import ink_on
    return ink_on(hex_colour)


def _player_hex(seat: int) -> str:
    name = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
    return PLAYER_HEX.get(name, name)


def _coloured(text: str, colour: str) -> str:
    return text if colour == INK else f'<span style="color:{colour}">{text}</span>'


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _card_words(kind: int, n: int) -> str:
    if kind == LOCO:
        return f"{_plural(n, 'locomotive')} (wild: any colour)"
    return f"{n} {CARD_NAMES[kind]} card{'s' if n != 1 else ''}"


def _check_state(state: Any) -> GameState:
    if not isinstance(state, GameState):
        raise TTRError(f"expected a GameState, got {type(state).__name__}")
    return state


def _check_seat(state: GameState, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_players:
        raise TTRError(f"there is no seat {seat!r} in a {state.n_players}-player game")
    return seat


# Every panel is built in two steps: ``_<panel>_parts`` computes its traces and layout as plain dicts (cheap: no
# ``go`` objects, no validation), then ``<panel>_figure`` validates them once into a ``go.Figure`` and
# ``update_<panel>`` hands them to ``board._apply``, which sends only the properties that changed since its last
# call (one ``plotly_update``; one message for a ``FigureWidget``).

def _layout(kind: str, *, title: str, height: int | None, **more) -> dict:
    return dict(
        title=dict(text=title, x=0.01, xanchor="left", font=dict(size=16, color=INK)),
        height=height, paper_bgcolor=BACKGROUND, plot_bgcolor=BACKGROUND, font=dict(FONT),
        hoverlabel=dict(bgcolor="#ffffff", font=dict(size=12), align="left"),
        meta={"ttr_panel": kind}, **more)


def _managed(layout: dict) -> dict:
    """The layout properties ``update_*`` keep up to date (height and width stay as they are)."""
    return {k: v for k, v in layout.items() if k not in ("height", "width", "template")}


def _figure(traces: list[dict], layout: dict) -> go.Figure:
    fig = Figure(data=traces, layout=layout, _validate=False)    # trusted input; validated in the tests
    _remember(fig, traces, _managed(layout))
    return fig


def _update(fig, traces: list[dict], layout: dict, kind: str, who: str) -> None:
    """Make ``fig`` (made by ``<kind>_figure``) show ``traces``/``layout``: trace count, order and meta stay."""
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    if meta.get("ttr_panel") != kind or [t.meta for t in fig.data] != [t["meta"] for t in traces]:
        raise TTRError(f"{who}: this figure was not made by {kind}_figure (its traces differ); make a new one")
    _apply(fig, traces, _managed(layout))


# --------------------------------------------------------------------------------------------- hand

def _hand_counts(state: GameState, seat: int) -> tuple[list[int], dict]:
    view = observe(state, seat)                     # the seat's own view: its hand is visible to it
    me = view["players"][seat]
    counts = [me["hand"].get(name, 0) for name in CARD_NAMES]
    return counts, me


def _hand_parts(state: GameState, seat: int, title: str | None):
    state = _check_state(state)
    seat = _check_seat(state, seat)
    counts, me = _hand_counts(state, seat)
    n_kinds = get_variant(state.variant).card_kinds
    kinds = list(range(min(n_kinds, len(CARD_NAMES))))
    counts = counts[:len(kinds)]
    labels = [CARD_NAMES[k] for k in kinds]
    top = max(6, max(counts, default=0)) * 1.22
    under = -0.16 * top
    hover = [_card_words(k, n) for k, n in zip(kinds, counts)]
    bar = dict(
        type="bar", x=labels, y=counts, meta="hand", name="cards", showlegend=False,
        # no fill pattern: plotly.js (3.x, 4.x) warns "Invalid color specifier" for a pattern over per-bar colours;
        # the locomotive is told apart by its name and by its symbol under the bar
        marker=dict(color=[CARD_FILL[k] for k in kinds], line=dict(color=INK, width=1.5)),
        # one text colour per bar goes into the text itself: plotly.js warns about colour arrays in textfont
        text=[_coloured(str(n), INK if n else "#9a9a9a") for n in counts], textposition="outside", cliponaxis=False,
        textfont=dict(size=16, color=INK),
        hovertext=hover, hoverinfo="text", width=0.72)
    marks = dict(
        type="scatter", x=labels, y=[under * 0.5] * len(kinds), meta="symbols", name="card shapes",
        showlegend=False,
        mode="markers", hovertext=hover, hoverinfo="text",
        marker=dict(symbol=[CARD_MARK[k] for k in kinds], size=15, color=[CARD_FILL[k] for k in kinds],
                    line=dict(color=INK, width=1.5)))
    total = sum(counts)
    name = me["name"]
    head = title if title is not None else (
        f"{name}'s hand — {_plural(total, 'card')} · {_plural(me['trains'], 'train')} left")
    return [bar, marks], head, (under, top)


def hand_figure(state: GameState, seat: int, *, title: str | None = None, height: int = 320) -> go.Figure:
    """``seat``'s train cards as bars, one per card kind (always all kinds, so the layout never jumps).

    Colour-blind safe: the count is written on each bar, the colour's name is the axis label, and the colour's
    shape (as on the board's route markers) sits under the bar; locomotives are dark with a gold cross-hatch.
    """
    return _figure(*_hand(state, seat, title, height))


def _hand(state: GameState, seat: int, title: str | None, height: int | None) -> tuple[list[dict], dict]:
    traces, head, (lo, hi) = _hand_parts(state, seat, title)
    layout = _layout("hand", title=head, height=height, bargap=0.25,
                     margin=dict(l=40, r=20, t=50, b=40),
                     xaxis=dict(type="category", tickfont=dict(size=13), showgrid=False, fixedrange=True),
                     yaxis=dict(range=[lo, hi], title=dict(text="cards"), dtick=2, gridcolor="#e2dccb",
                                zeroline=True, zerolinecolor=INK, fixedrange=True))
    return traces, layout


def update_hand(fig, state: GameState, seat: int, *, title: str | None = None) -> None:
    """Redraw a ``hand_figure`` (Figure or FigureWidget) for ``state``/``seat`` in place (only what changed)."""
    _update(fig, *_hand(state, seat, title, None), "hand", "update_hand")


# --------------------------------------------------------------------------------------------- market

_PILE_X = (6.55, 7.55, 8.55)


def market_figure(state: GameState, *, title: str | None = None, height: int = 300) -> go.Figure:
    """The face-up cards as tiles numbered 1–5 (the number in ``draw faceup N``), with the train deck, the
    discard pile and the ticket deck beside them. An empty slot (deck and discards ran out) is a blank tile."""
    return _figure(*_market(state, title, height))


def _market(state: GameState, title: str | None, height: int | None) -> tuple[list[dict], dict]:
    state = _check_state(state)
    view = observe(state, 0)    # only public parts are used (market, pile sizes, discards): any seat's view has them
    market = view["market"]
    slots = list(range(1, len(market) + 1))
    kinds = [None if c is None else CARD_NAMES.index(c) for c in market]
    fill = [BACKGROUND if k is None else CARD_FILL[k] for k in kinds]
    words = ["empty" if k is None else CARD_WORD[k] for k in kinds]
    hover = [f"face-up card {i}: " + ("empty — the deck and the discard pile ran out" if k is None else
                                       ("a locomotive (wild; taking it face up ends your turn)" if k == LOCO
                                        else f"a {CARD_NAMES[k]} card")) for i, k in zip(slots, kinds)]
    tiles = dict(
        type="bar", x=slots, y=[1.4] * len(slots), meta="market", name="face-up cards", showlegend=False, width=0.8,
        # one edge colour for all tiles: plotly.js warns about colour arrays on bar edges (an empty slot shows
        # the background colour and the word "empty")
        marker=dict(color=fill, line=dict(color=INK, width=2)),   # no pattern: see hand_figure
        text=[_coloured(f"<b>{w}</b>", "#595959" if k is None else _ink_on(CARD_FILL[k])) for w, k in zip(words, kinds)],
        textposition="inside", insidetextanchor="start", textangle=0, textfont=dict(size=14, color=INK),
        hovertext=hover, hoverinfo="text")
    present = [k is not None for k in kinds]
    marks = dict(
        type="scatter", x=slots, y=[0.45] * len(slots), meta="symbols", name="card shapes", showlegend=False,
        mode="markers", hovertext=hover, hoverinfo="text",
        marker=dict(symbol=[CARD_MARK[k] if k is not None else "circle-open" for k in kinds], size=22,
                    color=[CARD_FILL[k] if k is not None else BACKGROUND for k in kinds],
                    opacity=[1 if p else 0 for p in present],
                    line=dict(color=[_ink_on(CARD_FILL[k]) if k is not None else BACKGROUND for k in kinds], width=2)))
    deck, discard = view["deck_size"], sum(view["discard"].values())
    v = get_variant(state.variant)
    ticket_deck = view["ticket_deck_sizes"].get(v.settings.ticket_deck, 0)
    discard_words = ", ".join(f"{n} {name}" for name, n in view["discard"].items()) or "nothing"
    piles = dict(
        type="bar", x=list(_PILE_X), y=[1.4] * 3, meta="piles", name="piles", showlegend=False, width=0.8,
        marker=dict(color=[CARD_BACK if deck else BACKGROUND, "#b9b3a3" if discard else BACKGROUND,
                           "#efe6cf" if ticket_deck else BACKGROUND],
                    line=dict(color=INK, width=2)),
        text=[_coloured(f"<b>{deck}</b><br>cards", "#ffffff" if deck else INK), f"<b>{discard}</b><br>cards",
              f"<b>{ticket_deck}</b><br>tickets"],
        textposition="inside", insidetextanchor="middle", textangle=0, textfont=dict(size=15, color=INK),
        hovertext=[f"train deck: {_plural(deck, 'card')} face down",
                   f"discard pile: {_plural(discard, 'card')} ({discard_words}); shuffled into a new deck when "
                   f"the deck runs out",
                   f"destination tickets left to draw: {ticket_deck}"],
        hoverinfo="text")
    head = title if title is not None else "Face-up cards — take one with <i>draw faceup N</i>"
    layout = _layout("market", title=head, height=height, bargap=0.1, margin=dict(l=20, r=20, t=50, b=45),
                     xaxis=dict(tickvals=slots + list(_PILE_X),
                                ticktext=[f"<b>{i}</b>" for i in slots] + ["deck", "discard", "tickets"],
                                tickfont=dict(size=15), range=[0.45, 9.05], showgrid=False, zeroline=False,
                                fixedrange=True),
                     yaxis=dict(visible=False, range=[0, 1.5], fixedrange=True))
    return [tiles, marks, piles], layout


def update_market(fig, state: GameState, *, title: str | None = None) -> None:
    """Redraw a ``market_figure`` in place (only what changed)."""
    _update(fig, *_market(state, title, None), "market", "update_market")


# --------------------------------------------------------------------------------------------- trains

def trains_figure(state: GameState, *, title: str | None = None, height: int | None = None) -> go.Figure:
    """Trains left per player (public), with a dashed line at the final-round trigger (``settings.end_trains``)."""
    return _figure(*_trains(state, title, height))


def _trains(state: GameState, title: str | None, height: int | None) -> tuple[list[dict], dict]:
    state = _check_state(state)
    v = get_variant(state.variant)
    st = v.settings
    view = observe(state, None)
    names, left, hover = [], [], []
    for p in view["players"]:
        turn = " ▶" if p["seat"] == state.current and state.phase in ("play", "last_round") else ""
        names.append(f"{p['name']}{turn}")
        left.append(p["trains"])
        hover.append(f"{p['name']}: {_plural(p['trains'], 'train')} left of {st.trains}"
                     f" ({st.trains - p['trains']} on the board)")
    colours = [_player_hex(i) for i in range(state.n_players)]
    rows = list(range(len(names)))
    bars = dict(
        type="bar", y=rows, x=left, orientation="h", meta="trains", name="trains left", showlegend=False,
        marker=dict(color=colours, line=dict(color=INK, width=1.2)),   # no pattern: see hand_figure
        text=[str(n) for n in left], textposition="outside", cliponaxis=False, textfont=dict(size=14),
        hovertext=hover, hoverinfo="text", width=0.7)
    rule = v.rule("USA-END-1")
    end = dict(
        type="scatter", x=[st.end_trains, st.end_trains], y=[-0.5, len(names) - 0.5], meta="end", mode="lines",
        name=f"final round when a player has ≤ {st.end_trains} trains ({rule})",
        line=dict(color="#b3261e", width=2.5, dash="dash"), hoverinfo="text",
        hovertext=f"When a player ends a turn with {st.end_trains} or fewer trains, every player gets one final "
                  f"turn ({rule})", showlegend=True)
    head = title if title is not None else "Trains left"
    if state.phase == "last_round":
        head += f" — final round, {_plural(state.final_turns_left, 'turn')} left"
    elif state.phase == "over":
        head += " — the game is over"
    layout = _layout("trains", title=head, height=height or 90 + 42 * state.n_players,
                     margin=dict(l=20, r=30, t=50, b=30), bargap=0.3,
                     xaxis=dict(range=[0, st.trains + 2], dtick=5, gridcolor="#e2dccb", zeroline=True,
                                zerolinecolor=INK, fixedrange=True),
                     yaxis=dict(range=[len(names) - 0.45, -0.55], tickvals=rows, ticktext=names,
                                ticklabelstandoff=6, tickfont=dict(size=13), showgrid=False, zeroline=False,
                                fixedrange=True),
                     legend=dict(orientation="h", x=1, xanchor="right", y=1.02, yanchor="bottom",
                                 font=dict(size=11), bgcolor="rgba(0,0,0,0)"))
    return [bars, end], layout


def update_trains(fig, state: GameState, *, title: str | None = None) -> None:
    """Redraw a ``trains_figure`` in place (same number of players; only what changed)."""
    _update(fig, *_trains(state, title, None), "trains", "update_trains")


# --------------------------------------------------------------------------------------------- score

def _minus(n: int) -> str:
    return str(n).replace("-", "−")


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def _winner_words(sheet) -> str:
    names = [p.name for p in sheet.players if p.seat in sheet.winners]
    lead = ("Winner: " if len(names) == 1 else "Winners: ") if getattr(sheet, "final", True) else (
        "Leading: " if len(names) == 1 else "Level: ")
    return f"{lead}{' and '.join(names)} — {sheet.decided_by}"


def _ticket_list(results) -> str:
    return "<br>".join(f"  {t.a}–{t.b} ({t.points})" for t in results)


def _score_parts(sheet):
    players = list(sheet.players)
    names = [f"<b>{p.name} ★</b>" if p.seat in sheet.winners else p.name for p in players]
    values: dict[str, list[int]] = {k: [] for k, *_ in SEGMENTS}
    hovers: dict[str, list[str]] = {k: [] for k, *_ in SEGMENTS}
    for p in players:
        done = [t for t in p.tickets if t.completed]
        failed = [t for t in p.tickets if not t.completed]
        plus, minus = sum(t.points for t in done), -sum(t.points for t in failed)
        extras = sum(n for _, n in p.extras)
        values["routes"].append(p.route_points)
        hovers["routes"].append(f"{p.name}: {p.route_points} points for {_plural(len(p.routes), 'route')} claimed")
        values["tickets+"].append(plus)
        hovers["tickets+"].append(f"{p.name}: +{plus} for {_plural(len(done), 'ticket')} completed"
                                  + (f"<br>{_ticket_list(done)}" if done else ""))
        values["tickets-"].append(minus)
        hovers["tickets-"].append(f"{p.name}: {minus} for {_plural(len(failed), 'ticket')} not completed"
                                  + (f"<br>{_ticket_list(failed)}" if failed else ""))
        values["longest"].append(p.longest_bonus)
        hovers["longest"].append(f"{p.name}: longest continuous path {_plural(p.longest.length, 'train')}"
                                 + (f" — +{p.longest_bonus} bonus" if p.longest_bonus else " — no bonus"))
        values["extras"].append(extras)
        hovers["extras"].append(f"{p.name}: " + ("; ".join(f"{label} {n:+d}" for label, n in p.extras)
                                                 if p.extras else "no other points"))
    return players, names, values, hovers


def score_figure(sheet, *, title: str | None = None, height: int | None = None) -> go.Figure:
    """The score breakdown as one stacked horizontal bar per player: routes, completed tickets, longest-path
    bonus and other points to the right of zero, failed tickets to the left. A triangle under each bar points at
    the net total, which is written after the bar; the winner has a star. Works on a final sheet and on
    "if it ended now" sheets (``sheet.final`` False)."""
    return _figure(*_score(sheet, title, height))


def _score(sheet, title: str | None, height: int | None) -> tuple[list[dict], dict]:
    players, names, values, hovers = _score_parts(sheet)
    rows = list(range(len(players)))
    traces = []
    for key, label, colour, pattern in SEGMENTS:
        vals = values[key]
        traces.append(dict(
            type="bar", y=rows, x=vals, orientation="h", meta=key, name=label, legendgroup=key,
            showlegend=key != "extras" or any(vals),
            marker=dict(color=colour, line=dict(color="#ffffff", width=1),
                        pattern=dict(shape=pattern, fgcolor="rgba(255,255,255,0.55)", size=7, solidity=0.3)),
            text=[_signed(v) if key != "routes" and v else (str(v) if v else "") for v in vals],
            textposition="inside", insidetextanchor="middle", textangle=0,
            textfont=dict(size=13, color="#ffffff" if key != "longest" else INK),
            constraintext="none", hovertext=hovers[key], hoverinfo="text", width=0.62))
    totals = [p.total for p in players]
    right = [max(0, values["routes"][i] + values["tickets+"][i] + values["longest"][i]
                 + max(0, values["extras"][i])) for i in range(len(players))]
    span = max([r for r in right] + [abs(min(0, values["tickets-"][i] + min(0, values["extras"][i])))
                                     for i in range(len(players))] + [10])
    pad = span * 0.03
    colours = [_player_hex(p.seat) for p in players]
    traces.append(dict(
        type="scatter", y=[r + 0.43 for r in rows], x=totals, meta="total", name="net total", mode="markers",
        marker=dict(symbol="triangle-up", size=15, color=colours, line=dict(color=INK, width=1.5)),
        hovertext=[f"{p.name}: total {p.total}" for p in players], hoverinfo="text"))
    traces.append(dict(
        type="scatter", y=rows, x=[r + pad for r in right], meta="labels", name="totals", mode="text", showlegend=False,
        text=[f"<b>= {_minus(p.total)}</b>" + ("  ★ winner" if p.seat in sheet.winners else "") for p in players],
        textposition="middle right", textfont=dict(size=15, color=INK), hoverinfo="skip"))
    final = getattr(sheet, "final", True)
    head = title if title is not None else ("Final score" if final else "Score if the game ended now")
    lows = [values["tickets-"][i] + min(0, values["extras"][i]) for i in range(len(players))]
    lo = min(lows + [0]) - pad * 2
    label = 0.2      # the total's label takes about a fifth of an 800-pixel-wide plot: keep room for it
    hi = (max(right) + pad - label * lo) / (1 - label)
    layout = _layout("score", title=head, height=height or 150 + 52 * len(players), barmode="relative",
                     margin=dict(l=20, r=20, t=80, b=70),
                     xaxis=dict(range=[lo, hi], title=dict(text="points"), gridcolor="#e2dccb", zeroline=True,
                                zerolinecolor=INK, zerolinewidth=2, fixedrange=True),
                     yaxis=dict(range=[len(rows) - 0.4, -0.6], tickvals=rows, ticktext=names,
                                tickfont=dict(size=14), ticklabelstandoff=6, showgrid=False, zeroline=False,
                                fixedrange=True),
                     legend=dict(orientation="h", x=0, xanchor="left", y=-0.2, yanchor="top",
                                 font=dict(size=12), traceorder="normal", bgcolor="rgba(0,0,0,0)"),
                     annotations=[dict(text=html.escape(_winner_words(sheet)), xref="paper", yref="paper", x=0,
                                       y=1.0, xanchor="left", yanchor="bottom", showarrow=False,
                                       font=dict(size=12, color="#555555"))])
    return traces, layout


def update_score(fig, sheet, *, title: str | None = None) -> None:
    """Redraw a ``score_figure`` in place (same number of players; only what changed)."""
    _update(fig, *_score(sheet, title, None), "score", "update_score")


# --------------------------------------------------------------------------------------------- HTML

_TABLE = 'style="border-collapse:collapse;font-family:Arial,Helvetica,sans-serif;font-size:13px;color:#222"'
_TD = "padding:4px 8px;border-bottom:1px solid #d8d2c2;vertical-align:top;"
_GOOD = "color:#17692e;font-weight:bold;white-space:nowrap"
_BAD = "color:#b3261e;font-weight:bold;white-space:nowrap"


def _chip(kind: int, n: int, owner: str) -> str:
    fill = CARD_FILL[kind]
    # a locomotive: gold hatching on a strip at the left only, so its number and word stay on a plain fill
    pattern = ("background-image:repeating-linear-gradient(45deg,#ffcf40 0 2px,transparent 2px 6px);"
               "background-size:9px 100%;background-repeat:no-repeat;padding-left:14px;") if kind == LOCO else ""
    label = CARD_WORD[kind]
    return (f'<span class="ttr-card" title="{html.escape(owner)} holds {html.escape(_card_words(kind, n))}" '
            f'style="display:inline-block;margin:1px 2px;padding:1px 6px;border:1px solid #222;border-radius:4px;'
            f'background-color:{fill};{pattern}color:{_ink_on(fill)};white-space:nowrap">'
            f"<b>{n}</b> {label}</span>")


def _swatch(seat: int) -> str:
    return (f'<span style="display:inline-block;width:12px;height:12px;border:1px solid #222;border-radius:2px;'
            f'background:{_player_hex(seat)};vertical-align:-1px;margin-right:5px"></span>')


def players_panel_html(state: GameState, seat: int | None = None) -> str:
    """One row per player: trains, points scored so far, train cards, tickets.

    ``seat=None`` is the teacher view (every hand and ticket). With a seat, everything comes from
    ``observe(state, seat)``: the other players show only how many cards and tickets they hold.
    """
    state = _check_state(state)
    if seat is not None:
        seat = _check_seat(state, seat)
    view = observe(state, seat)
    m = get_variant(state.variant).map
    waiting = {p["seat"] for p in view["pending"]}
    head = ("Teacher view — every hand is shown" if seat is None
            else f"{seat_name(seat)}'s view — other hands are hidden")
    rows = []
    for p in view["players"]:
        i = p["seat"]
        who = _swatch(i) + f"<b>{html.escape(p['name'])}</b>"
        if seat == i:
            who += " (you)"
        to_play = i == view["current"] and view["phase"] in ("play", "last_round")
        if to_play or (view["phase"] == "setup" and i in waiting):
            who += ' <span title="to play">▶</span>'
        if "hand" in p:
            chips = [_chip(CARD_NAMES.index(name), n, p["name"]) for name, n in p["hand"].items()]
            cards = "".join(chips) if chips else "<i>no cards</i>"
            cards = f"{p['hand_size']}: " + cards
        else:
            cards = f'{_plural(p["hand_size"], "card")} <span style="color:#595959">(hidden)</span>'
        if "tickets" in p:
            items = []
            for tid in p["tickets"]:
                t = m.ticket(tid)
                items.append(f'<span title="{html.escape(tid)}">{html.escape(t.a)}–{html.escape(t.b)} '
                             f"({t.points})</span>")
            tickets = "<br>".join(items) if items else "<i>none</i>"
        else:
            tickets = f'{_plural(p["ticket_count"], "ticket")} <span style="color:#595959">(hidden)</span>'
        for pend in view["pending"]:
            if pend["seat"] == i and pend["kind"] == "choose_tickets":
                if "data" in pend:
                    offered = ", ".join(f"{m.ticket(t).a}–{m.ticket(t).b} ({m.ticket(t).points})"
                                        for t in pend["data"].get("offered", []))
                    tickets += f'<br><span style="color:#7a4b00">choosing from: {html.escape(offered)}</span>'
                else:
                    tickets += (f'<br><span style="color:#7a4b00">choosing from '
                                f'{pend.get("offered_count", "some")} offered tickets</span>')
        rows.append(f"<tr><td style='{_TD}white-space:nowrap'>{who}</td>"
                    f"<td style='{_TD}text-align:right'>{p['trains']}</td>"
                    f"<td style='{_TD}text-align:right'>{p['route_points']}</td><td style='{_TD}'>{cards}</td>"
                    f"<td style='{_TD}'>{tickets}</td></tr>")
    th = "padding:4px 8px;border-bottom:2px solid #888;text-align:left;"
    return (f'<div class="ttr-players" style="background:{BACKGROUND};padding:6px 8px;border-radius:6px">'
            f'<div style="font:bold 14px Arial,Helvetica,sans-serif;margin-bottom:2px">{html.escape(head)}</div>'
            f'<div style="font:12px Arial,Helvetica,sans-serif;color:#444;margin-bottom:4px">'
            f'{html.escape(view["status"])}</div>'
            f"<table {_TABLE}><thead><tr><th style='{th}'>player</th><th style='{th}text-align:right'>trains</th>"
            f"<th style='{th}text-align:right'>route points</th><th style='{th}'>train cards</th>"
            f"<th style='{th}'>tickets</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>")


def cards_html(kinds) -> str:
    """Single cards (e.g. the three a tunnel turned up) as card chips, in order."""
    return "".join(_chip(k, 1, "the table").replace("<b>1</b> ", "") for k in kinds)


def hand_html(state: GameState, seat: int) -> str:
    """``seat``'s train cards as a row of coloured card chips (colour, a letter-free pattern for locomotives, the
    count and the name: readable without colour vision too)."""
    state = _check_state(state)
    seat = _check_seat(state, seat)
    hand = state.players[seat].hand
    chips = "".join(_chip(k, n, seat_name(seat)) for k, n in enumerate(hand) if n) or "<i>no cards</i>"
    return (f'<div class="ttr-hand" style="font:13px Arial,Helvetica,sans-serif;max-width:460px">'
            f"<b>Your hand</b> ({sum(hand)} cards, {state.players[seat].trains} trains left):<br>{chips}</div>")


def _player_words(state: GameState, seat: int) -> str:
    """What a variant's features show of a player to everyone (HTML; South Korea: the express cards)."""
    v = get_variant(state.variant)
    return " · ".join(w for f in v.features if hasattr(f, "player_words") for w in [f.player_words(v, state, seat)] if w)


def players_compact_html(state: GameState, seat: int | None = None) -> str:
    """A narrow table of the players' public numbers (for a side column), from ``observe(state, seat)``."""
    state = _check_state(state)
    view = observe(state, seat)
    th = "padding:2px 4px;border-bottom:1px solid #888;text-align:right;font-weight:normal;color:#444"
    rows = []
    for p in view["players"]:
        i = p["seat"]
        to_play = i == view["current"] and view["phase"] in ("play", "last_round")
        name = html.escape(p["name"]) + (" (you)" if seat == i else "")
        mark = ' <b title="to play" style="color:#8a4600">&lt; to play</b>' if to_play else ""
        extra = _player_words(state, i)
        # the feature line wraps (the name above it does not): a long one must not push the numbers out of a narrow column
        extra = f"<div style='font-size:11px;color:#333;white-space:normal'>{extra}</div>" if extra else ""
        rows.append(f"<tr><td style='padding:2px 4px;white-space:nowrap'>{_swatch(i)}<b>{name}</b>{mark}{extra}</td>"
                    f"<td style='padding:2px 4px;text-align:right'>{p['route_points']}</td>"
                    f"<td style='padding:2px 4px;text-align:right'>{p['trains']}</td>"
                    f"<td style='padding:2px 4px;text-align:right'>{p['hand_size']}</td>"
                    f"<td style='padding:2px 4px;text-align:right'>{p['ticket_count']}</td></tr>")
    return (f'<div class="ttr-players" style="background:{BACKGROUND};padding:4px 6px;border-radius:6px">'
            f"<table {_TABLE}><thead><tr><th style='{th};text-align:left'>player</th>"
            f"<th style='{th}' title='points from routes'>pts</th><th style='{th}'>trains</th>"
            f"<th style='{th}' title='train cards in hand'>cards</th><th style='{th}'>tickets</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def tickets_compact_html(state: GameState, seat: int) -> str:
    """``seat``'s tickets in a narrow list: done / open / blocked (in words, not only colour), points, cities.
    Tickets are private: show this to that seat or to a teacher."""
    from ..analysis import player_network

    state = _check_state(state)
    seat = _check_seat(state, seat)
    net = player_network(state, seat)
    items = []
    for t in net.tickets:
        if t.completed:
            mark, style = "done", _GOOD
        elif t.needed is None:
            mark, style = "blocked", _BAD
        else:
            # "needs 21 more trains": what the number counts (issue 17: "needs 21 Los Angeles–New York (21)")
            mark, style = f"needs {_plural(t.needed, 'more train')}", "color:#7a4b00;white-space:nowrap"
        items.append(f"<div><span style='{style}'>{mark}</span> {html.escape(t.a)}–{html.escape(t.b)} "
                     f"<span style='color:#555'>({_plural(t.points, 'point')})</span></div>")
    body = "".join(items) or "<div><i>no tickets yet</i></div>"
    return (f'<div class="ttr-tickets" style="font:13px Arial,Helvetica,sans-serif;background:{BACKGROUND};'
            f'padding:4px 6px;border-radius:6px;margin-top:4px"><div><b>Your tickets</b></div>{body}</div>')


def tickets_table_html(state: GameState, seat: int) -> str:
    """``seat``'s destination tickets: ✓ completed (green) / ✗ not yet (red) — symbol and colour — with points,
    the path that completes each ticket, or the trains a cheapest way to finish it still needs.

    Tickets are private: show this to that seat or to a teacher.
    """
    from ..analysis import player_network

    state = _check_state(state)
    seat = _check_seat(state, seat)
    net = player_network(state, seat)
    rows = []
    for t in net.tickets:
        if t.completed:
            mark = f'<span style="{_GOOD}" title="completed">✓ done</span>'
            pts = f'<span style="color:#17692e">+{t.points}</span>'
            how = " → ".join(html.escape(c) for c in t.cities)
        elif t.needed is None:
            mark = f'<span style="{_BAD}" title="not completed">✗ blocked</span>'
            pts = f'<span style="color:#b3261e">−{t.points}</span>'
            how = "<i>cannot be completed any more: other players hold the routes</i>"
        else:
            mark = f'<span style="{_BAD}" title="not completed">✗ open</span>'
            pts = f'<span style="color:#b3261e">−{t.points}</span>'
            how = (f"needs {_plural(t.needed, 'more train')} — cheapest way: "
                   + " → ".join(html.escape(c) for c in t.cities))
        rows.append(f"<tr><td style='{_TD}'>{mark}</td>"
                    f"<td style='{_TD}white-space:nowrap'><b>{html.escape(t.a)}–{html.escape(t.b)}</b>"
                    f" <span style='color:#595959'>{t.id}</span></td><td style='{_TD}text-align:right'>{pts}</td>"
                    f"<td style='{_TD}'>{how}</td></tr>")
    if not rows:
        rows.append(f"<tr><td colspan='4' style='{_TD}'><i>no tickets yet</i></td></tr>")
    done = sum(1 for t in net.tickets if t.completed)
    value = sum(t.points if t.completed else -t.points for t in net.tickets)
    th = "padding:4px 8px;border-bottom:2px solid #888;text-align:left;"
    return (f'<div class="ttr-tickets" style="background:{BACKGROUND};padding:6px 8px;border-radius:6px">'
            f'<div style="font:bold 14px Arial,Helvetica,sans-serif;margin-bottom:4px">{_swatch(seat)}'
            f"{html.escape(net.name)}'s tickets — {done} of {len(net.tickets)} completed, "
            f"{_signed(value)} points if the "
            f"game ended now</div><table {_TABLE}><thead><tr><th style='{th}'>done</th><th style='{th}'>ticket</th>"
            f"<th style='{th}text-align:right'>points</th><th style='{th}'>path</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


# --------------------------------------------------------------------------------------------- export

def panel_png(fig, path, width: int = 800, height: int | None = None, scale: float = 1.0) -> str:
    """Write a panel as a PNG with kaleido (offline; needs Chromium)."""
    import plotly.io as pio

    static = go.Figure(fig)
    pio.write_image(static, str(path), format="png", width=width, height=height or static.layout.height or 400,
                    scale=scale)
    return str(path)
