"""The Card Game's tickets on a map of the USA: its cities at their real positions (over the USA board's routes,
drawn faint, for orientation), each ticket a straight line split into one segment per card colour it needs, the
completed ones drawn thick with a halo, and the Big Cities as stars.

``ticket_map_figure()`` shows every ticket of the game (the deck, public knowledge); with a ``state`` and a
``viewer`` it shows the tickets that viewer may see (``observe``: its own, or everyone's for the teacher, ``None``).
The figure carries a screen reader's text of the same (``render.describe.ticket_map_text``).
"""
from __future__ import annotations

import html
import math
from typing import Sequence

import plotly.graph_objects as go

from ..board.cards import CARD_NAMES
from .board import BACKGROUND, CARD_HEX, INK
from .describe import ticket_map_text
from .figure import Figure, describe_figure

__all__ = ["ticket_map_figure"]


def _xy(lat: float, lon: float) -> tuple[float, float]:
    return (round(lon * math.cos(math.radians(38.0)), 4), round(lat, 4))


def ticket_map_figure(state=None, viewer: int | None = None, *, tickets: Sequence[str] | None = None,
                      title: str | None = None, height: int = 560) -> go.Figure:
    from ..cardgame.data import load_cards
    from ..board.maps import load_map
    data = load_cards()
    text = ticket_map_text(state, viewer, tickets=tickets)
    completed: set[str] = set()
    if tickets is None:
        if state is None:
            tickets = [t.id for t in data.tickets]
        else:
            from ..cardgame.engine import observe
            view = observe(state, viewer)
            tickets = [t for p in view["players"] for t in p.get("tickets", ())]
            completed = {t for p in view["players"] for t in p.get("completed", ())}
    usa = load_map("usa")
    bx, by = [], []
    for r in usa.routes:                                # the USA board, faint: where the cities are
        a, b = usa.city(r.a), usa.city(r.b)
        (x0, y0), (x1, y1) = _xy(a.lat, a.lon), _xy(b.lat, b.lon)
        bx += [x0, x1, None]
        by += [y0, y1, None]
    traces = [dict(type="scatter", meta="usa", name="the USA board (for orientation)", x=bx, y=by, mode="lines",
                   hoverinfo="skip", showlegend=False, line=dict(color="#d9d2bf", width=1.5))]
    halo_x, halo_y = [], []
    by_colour: dict[str, tuple[list, list, list]] = {}
    mids_x, mids_y, mids_text = [], [], []
    for tid in tickets:
        t = data.ticket(tid)
        a, b = data.city(t.a), data.city(t.b)
        (x0, y0), (x1, y1) = _xy(a.lat, a.lon), _xy(b.lat, b.lon)
        if tid in completed:
            halo_x += [x0, x1, None]
            halo_y += [y0, y1, None]
        parts = [k for k, n in enumerate(t.needs) for _ in range(n)]
        for i, k in enumerate(parts):
            f0, f1 = i / len(parts), (i + 1) / len(parts)
            xs, ys, hv = by_colour.setdefault(CARD_NAMES[k], ([], [], []))
            xs += [x0 + (x1 - x0) * f0, x0 + (x1 - x0) * f1, None]
            ys += [y0 + (y1 - y0) * f0, y0 + (y1 - y0) * f1, None]
        mids_x.append((x0 + x1) / 2), mids_y.append((y0 + y1) / 2)
        mids_text.append(f"{t.a}–{t.b} ({t.points}): needs {t.needs_words()}" + (" — completed" if tid in completed else ""))
    traces.append(dict(type="scatter", meta="completed", name="completed", x=halo_x, y=halo_y, mode="lines",
                       hoverinfo="skip", showlegend=bool(halo_x), line=dict(color="#1b7f3b", width=12), opacity=0.45))
    ox = [v for tid in tickets for v in (_xy(data.city(data.ticket(tid).a).lat, data.city(data.ticket(tid).a).lon)[0],
                                          _xy(data.city(data.ticket(tid).b).lat, data.city(data.ticket(tid).b).lon)[0], None)]
    oy = [v for tid in tickets for v in (_xy(data.city(data.ticket(tid).a).lat, data.city(data.ticket(tid).a).lon)[1],
                                          _xy(data.city(data.ticket(tid).b).lat, data.city(data.ticket(tid).b).lon)[1], None)]
    traces.append(dict(type="scatter", meta="outlines", name="ticket outlines", x=ox, y=oy, mode="lines",
                       hoverinfo="skip", showlegend=False, line=dict(color="#555555", width=6)))
    for colour in [c for c in CARD_NAMES if c in by_colour]:
        xs, ys, _hv = by_colour[colour]
        traces.append(dict(type="scatter", meta=f"needs:{colour}", name=f"needs {colour}", x=xs, y=ys, mode="lines",
                           hoverinfo="skip", showlegend=True,
                           line=dict(color=CARD_HEX.get(colour, colour), width=4)))
    traces.append(dict(type="scatter", meta="tickets", name="tickets", x=mids_x, y=mids_y, mode="markers",
                       hovertext=[html.escape(x) for x in mids_text], hoverinfo="text", showlegend=False,
                       marker=dict(size=9, color="#ffffff", line=dict(color=INK, width=1.2))))
    names = sorted({c for tid in tickets for c in (data.ticket(tid).a, data.ticket(tid).b)})
    big = {b.city: b for b in data.big_cities}
    cx, cy, ct, cs, csz, ch = [], [], [], [], [], []
    for name in names:
        c = data.city(name)
        x, y = _xy(c.lat, c.lon)
        cx.append(x), cy.append(y), ct.append(name)
        cs.append("star" if name in big else "circle")
        csz.append(18 if name in big else 9)
        ch.append(f"{name}" + (f" · Big City card, {big[name].points} points" if name in big else ""))
    traces.append(dict(type="scatter", meta="cities", name="cities (stars: Big Cities)", x=cx, y=cy, text=ct,
                       mode="markers+text", textposition="top center", hovertext=ch, hoverinfo="text",
                       showlegend=False, textfont=dict(size=11, color=INK), cliponaxis=False,
                       marker=dict(symbol=cs, size=csz, color=["#f4b400" if s == "star" else "#fffdf5" for s in cs],
                                   line=dict(color=INK, width=1.5))))
    fig = Figure(data=traces, _validate=False)
    fig.update_layout(
        title=dict(text=title or "The Card Game's tickets on the map (ticket data: medium-low confidence)",
                   x=0.01, xanchor="left", font=dict(size=15, color=INK)),
        height=height, margin=dict(l=10, r=10, t=44, b=10), paper_bgcolor=BACKGROUND, plot_bgcolor=BACKGROUND,
        xaxis=dict(visible=False), yaxis=dict(visible=False, scaleanchor="x", scaleratio=1),
        legend=dict(orientation="h", x=0, y=0, yanchor="top", font=dict(size=11)),
        hovermode="closest", font=dict(family="Arial, Helvetica, sans-serif"), meta=dict(ttr_panel="ticketmap"))
    return describe_figure(fig, *text)
