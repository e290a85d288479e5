"""Determinization: a full state that one seat cannot tell apart from the real one (the board games).

``determinize(state, seat, rng)`` keeps everything ``seat`` can see — ``observe(state, seat)`` is the same — and
re-deals everything it cannot: the other players' hands, the order of the train deck, the other players' tickets
and ticket offers, the tickets out of the game, each ticket deck's order, what a variant's feature holds out of
sight (South Korea's draft hands), and the seed of every later shuffle. Every card and ticket stays accounted for
(``validate`` is clean), so the engine can play the result to the end: this is how the coach
(``ttr_nb.coach``) looks ahead without peeking.

The result is a function of the seat's view and ``rng`` alone: two states that differ only in what the seat
cannot see give the same result for the same ``rng`` state. The unseen items are listed in a fixed order first
(card kinds, then tickets in map order) and only then shuffled.

Cards are dealt uniformly. Tickets too, unless ``ticket_weights`` (seat → {ticket id: weight}) says how likely
each unseen ticket is to be in that seat's hand: the coach infers such weights from the routes a seat has claimed
(public). A ticket deck only ever holds tickets of its own kind (a returned ticket goes back under its own deck,
MK-TICKET-1, EU-SETUP-4), so the make-up of the decks by kind is known from their sizes and is kept.
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..errors import StateError, TTRError
from .state import GameState, Pending, replace_fields
from ..variants import get_variant

SEED_RANGE = 2 ** 62


def as_rng(rng: Any):
    """``rng`` as something with ``random()``: a ``random.Random`` (or ``ttr_nb.rng.Counter``) is used as it is,
    a whole number or text seeds a new ``random.Random``."""
    if hasattr(rng, "random"):
        return rng
    if isinstance(rng, bool) or not isinstance(rng, int | str):
        raise TTRError(f"rng must be a random.Random or a whole-number seed, got {type(rng).__name__}")
    return random.Random(f"determinize/{rng}")


def shuffle_in_place(items: list, rng) -> list:
    """Fisher–Yates with ``rng.random()`` only (the one generator call Python keeps the same across versions)."""
    r = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(r() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


def weighted_take(pool: list, weight, rng) -> Any:
    """Remove and return one item of ``pool``, with probability proportional to ``weight(item)`` (all > 0)."""
    weights = [weight(x) for x in pool]
    total = sum(weights)
    x = rng.random() * total
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return pool.pop(i)
    return pool.pop()


def check_seat(state, seat: Any) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_players:
        raise TTRError(f"there is no seat {seat!r} in a {state.n_players}-player game")


def deal_tickets(unseen: Sequence[str], kind_of, deck_sizes: Sequence[tuple[str, int]],
                 slots: Sequence[tuple[Any, int]], rng, weights: Mapping[Any, Mapping[str, float]] | None = None
                 ) -> tuple[dict[str, list[str]], dict[Any, list[str]]]:
    """Re-deal the ``unseen`` tickets (in a fixed order): each deck ``(name, size)`` gets ``size`` tickets of its
    own kind, each slot ``(key, size)`` (another seat's hand, an offer, the tickets out of the game ...) ``size``
    tickets of any kind. Slots are filled first, in order, drawing with ``weights[key]`` when given, but only from
    kinds that still have tickets to spare beyond what the decks need; then each deck gets the rest of its kind
    in a random order. Raises StateError when the counts cannot add up (an invalid state)."""
    by_kind: dict[str, list[str]] = {}
    for t in unseen:
        by_kind.setdefault(kind_of(t), []).append(t)
    need = {name: size for name, size in deck_sizes}
    spare = {kind: len(ids) - need.get(kind, 0) for kind, ids in by_kind.items()}
    missing = [name for name, size in deck_sizes if size > len(by_kind.get(name, ()))]
    if missing or sum(size for _, size in slots) != sum(max(0, n) for n in spare.values()):
        raise StateError("the unseen tickets do not add up to the ticket decks, hands and offers that hide them "
                         "(validate the state first)")
    pool = list(unseen)
    filled: dict[Any, list[str]] = {}
    for key, size in slots:
        got: list[str] = []
        w = (weights or {}).get(key)
        for _ in range(size):
            choices = [t for t in pool if spare[kind_of(t)] > 0]
            if w:
                t = weighted_take(choices, lambda x: w.get(x, 1.0), rng)
            else:
                t = choices[int(rng.random() * len(choices))]
            pool.remove(t)
            spare[kind_of(t)] -= 1
            got.append(t)
        filled[key] = got
    decks = {}
    for name, _ in deck_sizes:
        decks[name] = shuffle_in_place([t for t in pool if kind_of(t) == name], rng)
    return decks, filled


def determinize(state: GameState, seat: int, rng, *, ticket_weights: Mapping[int, Mapping[str, float]] | None = None
                ) -> GameState:
    """A state ``seat`` cannot tell from ``state``, with everything it cannot see re-dealt (see the module).

    ``rng``: a ``random.Random`` (or a seed). ``ticket_weights``: optional {seat: {ticket id: weight}} for the
    other seats' hands (the default is uniform)."""
    check_seat(state, seat)
    v = get_variant(state.variant)
    r = as_rng(rng)
    kinds = v.card_kinds
    n = state.n_players
    others = [s for s in range(n) if s != seat]
    # -- train cards: the deck and the other hands hold what is not in sight --------------------------
    unseen = list(v.deck_counts)
    for k, c in enumerate(state.players[seat].hand):
        unseen[k] -= c
    for c in state.market:
        if c is not None:
            unseen[c] -= 1
    for k, c in enumerate(state.discard):
        unseen[k] -= c
    for f in v.features:
        for c in f.held_cards(state):           # public: e.g. a tunnel's played and turned-up cards
            unseen[c] -= 1
    sizes = [state.players[s].hand_size for s in others]
    if min(unseen, default=0) < 0 or sum(unseen) != len(state.deck) + sum(sizes):
        raise StateError("the unseen train cards do not add up to the deck and the other hands (validate the state "
                         "first)")
    pool = shuffle_in_place([k for k in range(kinds) for _ in range(unseen[k])], r)
    hands = {}
    at = 0
    for s, size in zip(others, sizes):
        hand = [0] * kinds
        for c in pool[at:at + size]:
            hand[c] += 1
        hands[s] = tuple(hand)
        at += size
    deck = tuple(pool[at:])
    # -- tickets ---------------------------------------------------------------------------------
    m = v.map
    mine = state.players[seat]
    visible = set(mine.tickets)
    for p in state.pending:
        if p.seat == seat:
            for key in ("offered", "packet"):
                visible.update(p.get(key, ()) or ())
    for f in v.features:
        visible.update(f.visible_tickets(v, state, seat) if hasattr(f, "visible_tickets") else ())
    hidden_ids = [t.id for t in m.tickets if t.id not in visible]
    slots: list[tuple[Any, int]] = [(("hand", s), len(state.players[s].tickets)) for s in others]
    slots += [(("offer", i), len(p.get("offered"))) for i, p in enumerate(state.pending)
              if p.kind == "choose_tickets" and p.seat != seat]
    slots.append((("out",), len(state.tickets_out)))
    feature_slots = [(f, f.hidden_tickets(v, state, seat)) for f in v.features if hasattr(f, "hidden_tickets")]
    for i, (f, groups) in enumerate(feature_slots):
        slots += [(("feature", i, j), size) for j, size in enumerate(groups)]
    weights = {("hand", s): w for s, w in (ticket_weights or {}).items() if s != seat}
    decks, filled = deal_tickets(hidden_ids, lambda t: m.ticket(t).deck,
                                 [(name, len(ids)) for name, ids in state.ticket_decks], slots, r, weights)
    # -- the new state ---------------------------------------------------------------------------
    players = list(state.players)
    for s in others:
        players[s] = replace_fields(players[s], hand=hands[s], tickets=tuple(filled[("hand", s)]))
    pending = list(state.pending)
    for i, p in enumerate(pending):
        if ("offer", i) in filled:
            data = tuple((k, tuple(filled[("offer", i)]) if k == "offered" else x) for k, x in p.data)
            pending[i] = Pending(p.kind, p.seat, data)
    new = replace_fields(state, deck=deck, players=tuple(players), pending=tuple(pending),
                         tickets_out=tuple(filled[("out",)]),
                         ticket_decks=tuple((name, tuple(decks[name])) for name, _ in state.ticket_decks),
                         seed=int(r.random() * SEED_RANGE))
    for i, (f, groups) in enumerate(feature_slots):
        new = f.redeal_tickets(v, new, seat, [tuple(filled[("feature", i, j)]) for j in range(len(groups))])
    return new


__all__ = ["determinize", "as_rng", "shuffle_in_place", "deal_tickets", "weighted_take", "check_seat"]
