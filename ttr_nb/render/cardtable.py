"""Ticket to Ride: The Card Game's table as a plotly figure, built from ``observe(state, viewer)`` only, so a
player's view never holds another player's secrets (hands, on-the-track piles, tickets).

One row per player: the **rail yard** as card stacks (one tile per colour, its count, "+n loco" on top), a stack
just robbed crossed out, then the **on-the-track pile** face down with its size (its cards only to its owner, and
to everyone once the round is over), then the number of cards in hand. On top: the five **face-up** cards, the deck,
the ticket deck and the round; under the rows: the **Big Cities** and who leads each.

``card_table_figure(state, viewer=None, robbed=())`` builds it, ``update_card_table(fig, ...)`` redraws in place.
Traces (``meta``): ``market``, ``piles``, ``yards``, ``robbed``, ``track``, ``hands``, ``cities``.
"""
from __future__ import annotations

import html
from typing import Collection

import plotly.graph_objects as go

from ..board.cards import CARD_NAMES, COLOURS, LOCO, PLAYER_COLOURS
from .board import BACKGROUND, INK, _player_hex
from .public import PUBLIC
from .public import public_view as _public_view
from .panels import CARD_FILL, CARD_MARK, CARD_WORD, _figure, _ink_on, _update

__all__ = ["card_table_figure", "update_card_table", "public_view", "PUBLIC"]

_BACK = "#28407a"
_TRACK_X = len(COLOURS) + 1.6
_HAND_X = len(COLOURS) + 3.2


def public_view(state) -> dict:
    """The Card Game table as every player may see it, nobody's secrets (``render.public``)."""
    from ..cardgame.engine import observe, turn_status
    return {**_public_view(observe, state), "status": turn_status(state, None)}


def _table(state, viewer: int | None, robbed: Collection[tuple[int, str]], title: str | None):
    from ..cardgame.engine import observe
    view = public_view(state) if viewer == PUBLIC else observe(state, viewer)
    n = view["n_players"]
    top = n + 1.5                  # the face-up row; the players' column headers between it and the first player
    ys = {p["seat"]: n - p["seat"] for p in view["players"]}
    # the face-up row, the deck and the ticket deck
    market = view["market"]
    mx = list(range(1, len(market) + 1))
    kinds = [None if c is None else CARD_NAMES.index(c) for c in market]
    mtraces = dict(type="scatter", meta="market", name="face-up cards", x=mx, y=[top] * len(mx), mode="markers+text",
                   text=["" if k is None else CARD_WORD[k] for k in kinds], textposition="top center",
                   hovertext=[f"face-up card {i}: " + ("empty" if k is None else CARD_WORD[k]) for i, k in zip(mx, kinds)],
                   hoverinfo="text", showlegend=False, textfont=dict(size=11, color=INK), cliponaxis=False,
                   marker=dict(symbol=["square" if k is None else CARD_MARK[k] for k in kinds], size=26,
                               color=[BACKGROUND if k is None else CARD_FILL[k] for k in kinds],
                               line=dict(color=INK, width=1.5)))
    piles = dict(type="scatter", meta="piles", name="piles", x=[_TRACK_X, _HAND_X], y=[top, top], mode="markers+text",
                 text=[f"deck {view['deck_size']}", f"tickets {view['ticket_deck_size']}"], textposition="top center",
                 hovertext=[f"train-card deck: {view['deck_size']} cards", f"ticket deck: {view['ticket_deck_size']}"],
                 hoverinfo="text", showlegend=False, textfont=dict(size=11, color=INK), cliponaxis=False,
                 marker=dict(symbol="square", size=26, color=_BACK, line=dict(color=INK, width=1.5)))
    # rail yards: one tile per colour stack
    yx, yy, ytext, yfill, yink, ysym, yhover, ycd = [], [], [], [], [], [], [], []
    rx, ry, rhover = [], [], []
    for p in view["players"]:
        seat = p["seat"]
        for colour, stack in sorted(p["yard"].items(), key=lambda kv: CARD_NAMES.index(kv[0])):
            k = CARD_NAMES.index(colour)
            x = k + 1
            cards, locos = stack["cards"], stack["locomotives"]
            yx.append(x), yy.append(ys[seat]), ycd.append(f"{seat}:{colour}")
            ytext.append(f"{cards} {CARD_WORD[k]}" + (f" +{locos} loco" if locos else ""))
            yfill.append(CARD_FILL[k]), yink.append(_ink_on(CARD_FILL[k])), ysym.append(CARD_MARK[k])
            yhover.append(f"{p['name']}'s rail yard: {cards} {colour}" + (f" + {locos} locomotive{'s' if locos != 1 else ''}"
                                                                         if locos else ""))
        for rseat, colour in robbed:
            if rseat == seat and colour in CARD_NAMES:
                rx.append(CARD_NAMES.index(colour) + 1), ry.append(ys[seat])
                rhover.append(f"{p['name']}'s {colour} stack was robbed (CG-YARD-4)")
    yards = dict(type="scatter", meta="yards", name="rail yards", x=yx, y=yy, customdata=ycd, mode="markers+text",
                 text=ytext, textposition="bottom center", hovertext=yhover, hoverinfo="text", showlegend=False,
                 textfont=dict(size=11, color=INK), cliponaxis=False,
                 marker=dict(symbol=ysym, size=28, color=yfill, line=dict(color=INK, width=1.5)))
    robbed_t = dict(type="scatter", meta="robbed", name="robbed this move", x=rx, y=ry, mode="markers+text",
                    text=["robbed"] * len(rx), textposition="top center", hovertext=rhover, hoverinfo="text",
                    showlegend=False, textfont=dict(size=10, color="#b00020"), cliponaxis=False,
                    marker=dict(symbol="x-thin-open", size=34, color="#b00020", line=dict(width=3, color="#b00020")))
    # on-the-track piles (face down) and hands (counts; contents are in the view's hand panel)
    tx, ty, ttext, thover = [], [], [], []
    hx, hy, htext, hhover = [], [], [], []
    for p in view["players"]:
        seat = p["seat"]
        tx.append(_TRACK_X), ty.append(ys[seat]), ttext.append(str(p["track_size"]))
        contents = p.get("track")
        shown = (": " + ", ".join(f"{n} {c}" for c, n in contents.items())) if contents else " (face down)"
        thover.append(f"{p['name']}'s on-the-track pile: {p['track_size']} cards{shown}")
        hx.append(_HAND_X), hy.append(ys[seat]), htext.append(f"{p['hand_size']} in hand")
        hhover.append(f"{p['name']} holds {p['hand_size']} train cards and {p['ticket_count']} tickets")
    track = dict(type="scatter", meta="track", name="on-the-track piles", x=tx, y=ty, mode="markers+text", text=ttext,
                 textposition="middle center", hovertext=thover, hoverinfo="text", showlegend=False,
                 textfont=dict(size=12, color="#ffffff", family="Arial Black, Arial, sans-serif"),
                 marker=dict(symbol="square", size=30, color=_BACK, line=dict(color=INK, width=1.5)))
    hands = dict(type="scatter", meta="hands", name="hands", x=hx, y=hy, mode="text", text=htext, hovertext=hhover,
                 hoverinfo="text", showlegend=False, textposition="middle right", textfont=dict(size=12, color=INK))
    # Big Cities: the leader of each (most completed tickets to it so far)
    words = []
    for c in view["big_cities"]:
        best = max(c["completed"]) if c["completed"] else 0
        lead = [view["players"][i]["name"] for i, k in enumerate(c["completed"]) if best and k == best]
        words.append(f"{c['city']} {c['points']}: " + (" & ".join(lead) + f" ({best})" if lead else "nobody yet"))
    lines = [" · ".join(words[i:i + 2]) for i in range(0, len(words), 2)]   # two a line: fits a 1024-px window
    big_cities = "<b>Big Cities</b> — " + "<br>".join(html.escape(x) for x in lines)
    # the Big Cities stand under the rows, in the bottom margin (an annotation): never over a row, however small
    # the table is drawn; this trace keeps the table's traces as they were (its words are the annotation's)
    cities = dict(type="scatter", meta="cities", name="Big Cities", x=[], y=[], mode="text", text=[],
                  hoverinfo="skip", showlegend=False, textfont=dict(size=12, color=INK))
    status = f"round {view['round']}" + (" — the round is over" if view["phase"] in ("complete", "over") else "")
    head = title if title is not None else f"The Card Game table — {status}"
    height = 96 + 54 * (n + 2)
    layout = dict(
        title=dict(text=html.escape(head), x=0.01, xanchor="left", font=dict(size=15, color=INK)),
        height=height, margin=dict(l=80, r=10, t=36, b=60), paper_bgcolor=BACKGROUND,
        plot_bgcolor=BACKGROUND, font=dict(family="Arial, Helvetica, sans-serif"), hovermode="closest",
        xaxis=dict(visible=False, range=[0.2, _HAND_X + 2.2], fixedrange=True),
        yaxis=dict(range=[0.4, top + 0.95], fixedrange=True, tickmode="array",
                   tickvals=[top] + [ys[p["seat"]] for p in view["players"]],
                   ticktext=["face up"] + [p["name"] + (" (you)" if viewer == p["seat"] else "") for p in view["players"]],
                   showgrid=False, zeroline=False, tickfont=dict(size=13)),
        # drawn shorter (a play layout leaves it less room at 1024 px), its cards shrink with it so neighbouring
        # rows never touch, and its words to no less than 10 px (widgets/plotfig.py: fitScale)
        meta=dict(ttr_panel="cardtable", ttr_scale=dict(height=height, min=0.55, font_min=10)),
        # the players' column headers stand over the players' rows, under the face-up row (whose cards, deck and
        # ticket pile are named above themselves)
        annotations=[dict(x=x, y=top - 0.62, xref="x", yref="y", text=t, showarrow=False,
                          font=dict(size=11, color="#555"))
                     for x, t in ((4.5, "rail yards (a stack per colour)"), (_TRACK_X, "on the track"),
                                  (_HAND_X + 0.6, "in hand"))]
                    + [dict(x=0.0, y=0.0, xref="paper", yref="paper", xanchor="left", yanchor="top", yshift=-4,
                            align="left", showarrow=False, text=big_cities, font=dict(size=12, color=INK))],
        shapes=[dict(type="rect", xref="x", yref="y", x0=0.3, x1=0.5, y0=ys[p["seat"]] - 0.3, y1=ys[p["seat"]] + 0.3,
                     fillcolor=_player_hex(PLAYER_COLOURS[p["seat"]]), line=dict(width=0)) for p in view["players"]],
    )
    return [mtraces, piles, yards, robbed_t, track, hands, cities], layout


def card_table_figure(state, viewer: int | None = None, *, robbed: Collection[tuple[int, str]] = (),
                      title: str | None = None) -> go.Figure:
    """The Card Game table as ``viewer`` may see it (None: the whole table; ``PUBLIC``: nobody's secrets);
    ``robbed``: (seat, colour) stacks just robbed, crossed out."""
    return _figure(*_table(state, viewer, robbed, title))


def update_card_table(fig, state, viewer: int | None = None, *, robbed: Collection[tuple[int, str]] = (),
                      title: str | None = None) -> None:
    """Redraw a ``card_table_figure`` in place (only what changed)."""
    _update(fig, *_table(state, viewer, robbed, title), "cardtable", "update_card_table")
