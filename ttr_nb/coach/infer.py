"""What the other seats' claims say about their tickets (a board is public, so this reads the seat's view only).

A player builds toward its tickets. For another seat ``o`` and a ticket ``t`` the seat cannot see, the *progress*
is how many trains ``o``'s routes have already saved on joining ``t``'s cities: the trains a cheapest path needs on
the empty board minus what it needs now, ``o``'s own routes counting as free. A ticket ``o`` is working on shows a
large progress; a ticket far from its network none. The weight ``exp(beta * progress)`` (progress capped at
``cap``) makes the sampler (``determinize(..., ticket_weights=...)``) deal such tickets to ``o`` more often; a ticket
``o`` can no longer join keeps a small weight (players do fail tickets). With no claims yet every weight is 1 and
the deal is uniform.

The Card Game has no board: its tickets are dealt uniformly.
"""
from __future__ import annotations

import math

from ..board.state import FREE, GameState
from ..variants import get_variant
from .policy import path_cost, tables

BETA = 0.25
CAP = 16
BLOCKED = 0.3


def _empty_costs(t) -> dict:
    cache = getattr(t, "_empty_ticket_costs", None)
    if cache is None:
        claims = (FREE,) * t.n_routes
        cache = {}
        for tid, (a, b, _) in t.ticket.items():
            found = path_cost(t, claims, -2, False, (), a, b)
            cache[tid] = found[0] if found else None
        t._empty_ticket_costs = cache
    return cache


def progress(state: GameState, other: int, ticket_ids) -> dict[str, int | None]:
    """Trains ``other``'s routes have saved on each ticket (None: it can no longer be joined)."""
    v = get_variant(state.variant)
    t = tables(v)
    empty = _empty_costs(t)
    small = state.n_players < t.small_twin
    out = {}
    for tid in ticket_ids:
        a, b, _ = t.ticket[tid]
        found = path_cost(t, state.claims, other, small, (), a, b)
        base = empty.get(tid)
        out[tid] = None if found is None or base is None else base - found[0]
    return out


def ticket_weights(state, seat: int, *, beta: float = BETA) -> dict[int, dict[str, float]]:
    """{other seat: {ticket id: weight}} for the tickets ``seat`` cannot see (see the module); {} for the Card Game
    or before anyone has claimed a route."""
    if state.__class__ is not GameState:
        return {}
    claimed = {o for o in state.claims if o != FREE}
    if not claimed - {seat}:
        return {}
    v = get_variant(state.variant)
    visible = set(state.players[seat].tickets)
    for p in state.pending:
        if p.seat == seat:
            visible.update(p.get("offered", ()) or ())
    hidden = [t.id for t in v.map.tickets if t.id not in visible]
    out = {}
    for o in sorted(claimed - {seat}):
        if not state.players[o].tickets:
            continue
        prog = progress(state, o, hidden)
        out[o] = {tid: (BLOCKED if g is None else math.exp(beta * min(CAP, max(0, g)))) for tid, g in prog.items()}
    return out


__all__ = ["ticket_weights", "progress", "BETA"]
