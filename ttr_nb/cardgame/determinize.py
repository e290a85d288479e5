"""Determinization for the Card Game: a state one seat cannot tell from the real one (``ttr_nb.board.determinization``
does the same for the board games).

Kept: everything ``observe(state, seat)`` shows — the seat's own hand and tickets (and its offer), the face-up
cards, the discard pile, every rail yard, every completed ticket and the cards laid with it, the sizes of the
hidden piles, and the on-the-track piles where they are shown (the owner's own, when the rules show it; every
pile once the round's completion has begun). Re-dealt: the other hands, the hidden on-the-track piles, the train
deck's order, the other players' tickets and offers, the ticket deck's order and the seed of the round-2 shuffle.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ..errors import StateError
from ..board.state import Pending
from ..board.determinization import SEED_RANGE, as_rng, check_seat, deal_tickets, shuffle_in_place
from .data import load_cards
from .state import N_COLOURS, N_KINDS, CardState, track_visible
from ..board.cards import LOCO


def determinize(state: CardState, seat: int, rng, *, ticket_weights: Mapping[int, Mapping[str, float]] | None = None
                ) -> CardState:
    """A state ``seat`` cannot tell from ``state`` (see the module); ``ticket_weights`` as for the board games."""
    check_seat(state, seat)
    r = as_rng(rng)
    data = load_cards()
    shows_track = [track_visible(state, seat, i) for i in range(state.n_players)]     # as observe shows them
    unseen = list(data.deck)

    def take(counts) -> None:
        for k, c in enumerate(counts):
            unseen[k] -= c

    take(state.players[seat].hand)
    take(state.discard)
    for c in state.market:
        if c is not None:
            unseen[c] -= 1
    hidden: list[tuple[int, str, int]] = []          # (seat, pile, size), in a fixed order
    for i, p in enumerate(state.players):
        for c in range(N_COLOURS):
            unseen[c] -= p.yard[c]
            unseen[LOCO] -= p.yard_locos[c]
        take(p.spent)
        if shows_track[i]:
            take(p.track)
        else:
            hidden.append((i, "track", sum(p.track)))
        if i != seat:
            hidden.append((i, "hand", p.hand_size))
    if min(unseen) < 0 or sum(unseen) != len(state.deck) + sum(size for _, _, size in hidden):
        raise StateError("the unseen train cards do not add up to the deck and the hidden piles (validate the state "
                         "first)")
    pool = shuffle_in_place([k for k in range(N_KINDS) for _ in range(unseen[k])], r)
    players = list(state.players)
    at = 0
    for i, pile, size in hidden:
        counts = [0] * N_KINDS
        for c in pool[at:at + size]:
            counts[c] += 1
        at += size
        players[i] = replace(players[i], **{pile: tuple(counts)})
    deck = tuple(pool[at:])
    # tickets: completed ones lie face up; the rest is hidden unless they are the seat's own
    visible = set(state.players[seat].tickets)
    for p in state.players:
        visible.update(p.completed)
    for q in state.pending:
        if q.seat == seat and q.kind == "choose_tickets":
            visible.update(q.get("offered"))
    if state.phase == "over":
        return replace(state, players=tuple(players), deck=deck, seed=int(r.random() * SEED_RANGE))
    slots: list[tuple[Any, int]] = [(("hand", i), len(p.tickets)) for i, p in enumerate(state.players) if i != seat]
    slots += [(("offer", j), len(q.get("offered"))) for j, q in enumerate(state.pending)
              if q.kind == "choose_tickets" and q.seat != seat]
    hidden_ids = [t.id for t in data.tickets if t.id not in visible]
    weights = {("hand", s): w for s, w in (ticket_weights or {}).items() if s != seat}
    decks, filled = deal_tickets(hidden_ids, lambda t: "tickets", [("tickets", len(state.ticket_deck))], slots, r,
                                 weights)
    for i in range(state.n_players):
        if i != seat:
            players[i] = replace(players[i], tickets=tuple(filled[("hand", i)]))
    pending = list(state.pending)
    for j, q in enumerate(pending):
        if ("offer", j) in filled:
            pending[j] = Pending(q.kind, q.seat, tuple((k, tuple(filled[("offer", j)]) if k == "offered" else x)
                                                       for k, x in q.data))
    return replace(state, players=tuple(players), deck=deck, pending=tuple(pending),
                   ticket_deck=tuple(decks["tickets"]), seed=int(r.random() * SEED_RANGE))


__all__ = ["determinize"]
