"""South Korea's province board as a plotly figure: one row per province line, in the route colours (with each
colour's own marker shape, so colour is never the only cue), its spaces numbered, the trains on it in their
owners' colours and symbols, and at the right the line's ranking now with the bonus each player would get.

``province_figure(state)`` builds it; ``update_provinces(fig, state)`` redraws it in place (same traces, only what
changed), as the other panels. Everything on the province board is public. No ipywidgets here.

Traces (``meta``): ``lines`` (a thin rule per line), ``spaces`` (every space, numbered), ``trains`` (the occupied
spaces: owner colour, owner symbol, hover "white line, space 6: Blue"), ``ranking`` (the text at the right).
"""
from __future__ import annotations

import html

import plotly.graph_objects as go

from ..board.cards import COLOURS, PLAYER_COLOURS
from ..board.engine import seat_name
from ..board.state import GameState
from ..variants import get_variant
from .board import CARD_HEX, CARD_SYMBOLS, INK, OWNER_SYMBOLS, BACKGROUND, _player_hex
from .palette import ink_on
from .panels import _check_state, _figure, _update

__all__ = ["province_figure", "update_provinces"]


def _lines(state: GameState):
    from ..games.south_korea import PROVINCE_BONUS, province_lines, province_ranking, province_trains
    v = get_variant(state.variant)
    lines = province_lines(v)
    order = [c for c in COLOURS if c in lines]
    return v, lines, order, province_trains(state), province_ranking, PROVINCE_BONUS.get(state.n_players, ())


def _provinces(state: GameState, title: str | None, height: int | None,
               note: bool = True) -> tuple[list[dict], dict]:
    state = _check_state(state)
    v, lines, order, trains, ranking, bonus = _lines(state)
    n = len(order)
    ys = {colour: n - i for i, colour in enumerate(order)}           # first line on top
    last = max(max(s) for s in lines.values())
    rx, ry = [], []
    for colour in order:
        rx += [lines[colour][0], lines[colour][-1], None]
        ry += [ys[colour], ys[colour], None]
    sx, sy, stext, ssym, sfill, sink, shover = [], [], [], [], [], [], []
    for colour in order:
        for space in lines[colour]:
            sx.append(space), sy.append(ys[colour]), stext.append(str(space))
            ssym.append(CARD_SYMBOLS.get(colour, "circle"))
            sfill.append(CARD_HEX.get(colour, colour))
            sink.append(ink_on(CARD_HEX.get(colour, colour)))          # 4.5:1 or better on every line colour
            shover.append(f"{colour} line, space {space}: free")
    tx, ty, tcol, tsym, thover, tcd = [], [], [], [], [], []
    for colour, space, seat in trains:
        tx.append(space), ty.append(ys[colour])
        tcol.append(_player_hex(PLAYER_COLOURS[seat]))
        tsym.append(OWNER_SYMBOLS[seat % len(OWNER_SYMBOLS)])
        thover.append(f"{colour} line, space {space}: a train of {seat_name(seat)}")
        tcd.append(f"{colour}:{space}")
    kx, ky, ktext = [], [], []
    for colour in order:
        rows = ranking(v, state, colour)
        words = " · ".join(f"{seat_name(r['seat'])} {r['total']}" + (f" → +{r['bonus']}" if r["bonus"] else " → 0")
                           for r in rows) or "nobody yet"
        kx.append(last + 0.9), ky.append(ys[colour]), ktext.append(html.escape(words))
    traces = [
        dict(type="scatter", meta="lines", name="province lines", x=rx, y=ry, mode="lines", hoverinfo="skip",
             showlegend=False, line=dict(color="#8a8474", width=2)),
        dict(type="scatter", meta="spaces", name="spaces", x=sx, y=sy, mode="markers+text", text=stext,
             textposition="middle center", hovertext=shover, hoverinfo="text", showlegend=False,
             textfont=dict(size=11, color=sink, family="Arial Black, Arial, sans-serif"),
             marker=dict(symbol=ssym, size=24, color=sfill, line=dict(color="#333333", width=1.2))),
        dict(type="scatter", meta="trains", name="trains on the province board", x=tx, y=ty, customdata=tcd,
             mode="markers", hovertext=thover, hoverinfo="text", showlegend=False,
             marker=dict(symbol=tsym, size=20, color=tcol, line=dict(color="#ffffff", width=2))),
        dict(type="scatter", meta="ranking", name="ranking now", x=kx, y=ky, mode="text", text=ktext,
             textposition="middle right", hoverinfo="skip", showlegend=False,
             textfont=dict(size=12, color=INK, family="Arial, Helvetica, sans-serif")),
    ]
    bonus_words = ", ".join(f"+{b}" for b in bonus) or "none"
    head = title if title is not None else f"Province board — bonuses for {state.n_players} players: {bonus_words}"
    if note and v.map.provisional and "PROVISIONAL" not in head:
        head += " (PROVISIONAL board)"
    layout = dict(
        title=dict(text=head, x=0.01, xanchor="left", font=dict(size=15, color=INK)),
        height=height if height is not None else 60 + 34 * n, margin=dict(l=70, r=10, t=40, b=10),
        paper_bgcolor=BACKGROUND, plot_bgcolor=BACKGROUND, font=dict(family="Arial, Helvetica, sans-serif"),
        xaxis=dict(visible=False, range=[0.2, last + 7.5], fixedrange=True),
        yaxis=dict(range=[0.4, n + 0.6], fixedrange=True, tickmode="array", tickvals=[ys[c] for c in order],
                   ticktext=list(order), showgrid=False, zeroline=False),
        hovermode="closest", meta=dict(ttr_panel="provinces"),
    )
    return traces, layout


def province_figure(state: GameState, *, title: str | None = None, height: int | None = None,
                    provisional_note: bool = True) -> go.Figure:
    """The province board of a South Korea position (SK-PROV-*, SK-SCORE-2/3), as a ``go.Figure``.
    ``provisional_note`` False: the title does not say PROVISIONAL (a view's banner says it once)."""
    return _figure(*_provinces(state, title, height, provisional_note))


def update_provinces(fig, state: GameState, *, title: str | None = None, provisional_note: bool = True) -> None:
    """Redraw a ``province_figure`` in place (only what changed)."""
    _update(fig, *_provinces(state, title, None, provisional_note), "provinces", "update_provinces")
