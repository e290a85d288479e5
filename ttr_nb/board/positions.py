"""Build a legal position by hand — for teaching, exercises and tests.

``position()`` starts from a real shuffled game and moves cards, tickets and trains where you ask, so the
result always passes ``validate`` (every card, ticket and train accounted for). Asking for something
impossible (more red cards than the game has, a route twice, a twin the rules forbid) raises ``TTRError``
naming the problem.

    >>> from ttr_nb.board.positions import position
    >>> s = position("usa", players=2, hands={0: {"red": 3, "locomotive": 1}}, claims={"R001": 1})
    >>> s.players[0].hand[7], s.claims[0], s.phase
    (3, 1, 'play')
"""
from __future__ import annotations

from typing import Mapping, Sequence

from .cards import CARD_ALIASES, CARD_NAMES, LOCO
from .engine import new_game, require_valid
from ..errors import TTRError
from ..rng import shuffled
from .state import FREE, GameState, PlayerState, replace_fields
from ..variants import get_variant


def _kind(name: str) -> int:
    try:
        return CARD_ALIASES[str(name).lower()]
    except KeyError:
        raise TTRError(f"unknown card {name!r} (cards: {', '.join(CARD_NAMES)})") from None


def position(variant: str = "usa", players: int = 4, seed: int = 0, *,
             hands: Mapping[int, Mapping[str, int]] | None = None,
             market: Sequence[str | None] | None = None,
             deck_top: Sequence[str] = (),
             discard: Mapping[str, int] | None = None,
             claims: Mapping[str, int] | None = None,
             trains: Mapping[int, int] | None = None,
             tickets: Mapping[int, Sequence[str]] | None = None,
             current: int = 0,
             deck_size: int | None = None,
             passengers: Mapping[int, Sequence[str]] | None = None,
             province: Sequence[tuple[str, int, int]] = ()) -> GameState:
    """A position in the play phase (setup done), with exactly what you ask for.

    hands: seat → {card: count} (seats not named get 4 cards from the deck, as dealt); market: 5 card names
    (None = empty slot); deck_top: the next cards of the deck, top first; discard: {card: count};
    claims: route id → seat; trains: seat → trains left (routes are claimed for that seat, in map order, to
    use up the difference — so a "3 trains left" position is real); tickets: seat → ticket ids it holds;
    current: whose turn; deck_size: keep only this many cards in the deck (the rest go to the discard pile);
    passengers (Märklin): seat → the cities its passengers stand in (at most 3; the rest stay in reserve);
    province (South Korea): trains on the province board as (line colour, space, seat), taken from the seats' 45.
    """
    v = get_variant(variant)
    base = new_game(v.key, players, seed)
    m = v.map
    n_kinds = v.card_kinds
    pool = list(v.deck_counts)

    def take(kind: int, n: int, what: str) -> None:
        if n < 0:
            raise TTRError(f"{what}: a negative number of {CARD_NAMES[kind]} cards")
        if pool[kind] < n:
            raise TTRError(f"{what}: not enough {CARD_NAMES[kind]} cards left (the game has {v.deck_counts[kind]})")
        pool[kind] -= n

    hands = dict(hands or {})
    for seat in hands:
        if not 0 <= seat < players:
            raise TTRError(f"hands: there is no seat {seat} in a {players}-player game")
    hand_vectors: list[list[int]] = []
    for seat in range(players):
        vec = [0] * n_kinds
        if seat in hands:
            for name, n in hands[seat].items():
                k = _kind(name)
                take(k, n, f"hand of seat {seat}")
                vec[k] += n
        hand_vectors.append(vec)
    market_kinds: list[int | None] = []
    resets, limit = v.settings.market_reset_kinds, v.settings.market_loco_limit
    if market is not None:
        if isinstance(market, str) or len(market) != v.settings.market_size:
            got = repr(market) if isinstance(market, str) else len(market)
            raise TTRError(f"market: give {v.settings.market_size} cards (None for an empty slot), got {got}")
        for name in market:
            if name is None:
                market_kinds.append(None)
            else:
                k = _kind(name)
                take(k, 1, "market")
                market_kinds.append(k)
        for k in resets:                            # USA-DRAW-6 / MK-DRAW-4: such a row is never left face up
            if market_kinds.count(k) >= limit:
                what = "locomotives" if k == LOCO else f"{CARD_NAMES[k]} cards"
                raise TTRError(f"market: {market_kinds.count(k)} face-up {what} are never left on the table — all five "
                               f"are discarded and five new cards turned up ({v.rule('USA-DRAW-6')}); give at most "
                               f"{limit - 1}")
    top = []
    for name in deck_top:
        k = _kind(name)
        take(k, 1, "deck_top")
        top.append(k)
    discard_vec = [0] * n_kinds
    for name, n in (discard or {}).items():
        k = _kind(name)
        take(k, n, "discard")
        discard_vec[k] += n
    rest = shuffled([k for k, c in enumerate(pool) for _ in range(c)], seed, "position", 0)
    for seat in range(players):                     # unnamed seats: 4 cards, as dealt
        if seat not in hands:
            for _ in range(v.settings.start_hand):
                hand_vectors[seat][rest.pop(0)] += 1
    if market is None:
        market_kinds = []
        for _ in range(v.settings.market_size):      # as dealt, but never 3 of a kind that resets the row
            full = [k for k in resets if market_kinds.count(k) >= limit - 1]
            idx = next((i for i, k in enumerate(rest) if k not in full), 0) if full else 0
            market_kinds.append(rest.pop(idx) if rest else None)
    deck = top + rest
    if deck_size is not None:
        if not 0 <= deck_size <= len(deck):
            raise TTRError(f"deck_size must be from 0 to {len(deck)}, got {deck_size}")
        for k in deck[deck_size:]:
            discard_vec[k] += 1
        deck = deck[:deck_size]

    owners = [FREE] * len(m.routes)
    for rid, seat in (claims or {}).items():
        route = m.route(rid)
        if not 0 <= seat < players:
            raise TTRError(f"claims: route {rid} is given to seat {seat}, which does not exist")
        if owners[route.index] != FREE:
            raise TTRError(f"claims: route {route.id} is named twice")
        owners[route.index] = seat
    used = [0] * players
    for r in m.routes:
        if owners[r.index] != FREE:
            used[owners[r.index]] += r.length
    for seat, left in (trains or {}).items():
        need = v.settings.trains - left - used[seat]
        if need < 0:
            raise TTRError(f"trains: seat {seat} already has {used[seat]} trains on its claimed routes, so it cannot "
                           f"have {left} left")
        for r in sorted(m.routes, key=lambda r: (-r.length, r.id)):
            if need == 0:
                break
            if owners[r.index] != FREE or r.length > need:
                continue
            twins = m.twins(r.id)
            if any(owners[t.index] != FREE for t in twins):
                continue
            owners[r.index] = seat
            used[seat] += r.length
            need -= r.length
        if need:
            raise TTRError(f"trains: no free routes add up to leave seat {seat} exactly {left} trains")

    deck_tickets = {name: list(ids) for name, ids in base.ticket_decks}
    all_ids = [t.id for t in m.tickets]
    held: list[tuple[str, ...]] = []
    given = dict(tickets or {})
    taken: set[str] = set()
    for seat in range(players):
        ids = tuple(t.upper() for t in given.get(seat, ()))
        for t in ids:
            m.ticket(t)
            if t in taken:
                raise TTRError(f"tickets: {t} is given to two seats")
            taken.add(t)
        held.append(ids)
    decks: dict[str, list[str]] = {}
    for t in m.tickets:
        if t.id not in taken:
            decks.setdefault(t.deck, []).append(t.id)
    for name in decks:                               # keep the deck order of the real shuffle
        order = {t: i for i, t in enumerate(deck_tickets.get(name, []))}
        decks[name].sort(key=lambda t: (order.get(t, len(order) + all_ids.index(t))))
    tickets_out: tuple[str, ...] = ()
    for name in v.settings.decks_out_after_setup:
        tickets_out += tuple(decks.pop(name, []))

    ext = [base.players[s].ext for s in range(players)]        # what features deal at setup (express cards ...)
    if passengers:
        feature = v.feature("passengers")
        if feature is None:
            raise TTRError(f"passengers: {v.name} has no passengers (Märklin has)")
        for seat, cities in passengers.items():
            if not 0 <= seat < players:
                raise TTRError(f"passengers: there is no seat {seat} in a {players}-player game")
            ext[seat] = feature.stand(v, ext[seat], [m.city(c).name for c in cities])
    state_ext = base.ext
    if province:
        feature = v.feature("province")
        if feature is None:
            raise TTRError(f"province: {v.name} has no province board (South Korea has)")
        state_ext = feature.with_trains(v, state_ext, province, players)
        for _line, _space, seat in province:
            used[seat] += 1
    pstates = tuple(PlayerState(hand=tuple(hand_vectors[s]), trains=v.settings.trains - used[s], tickets=held[s],
                                route_points=sum(v.route_points(r.length) for r in m.routes if owners[r.index] == s),
                                ext=ext[s])
                    for s in range(players))
    phase = "play"
    state = replace_fields(base, deck=tuple(deck), market=tuple(market_kinds), discard=tuple(discard_vec),
                           ticket_decks=tuple(sorted((k, tuple(ids)) for k, ids in decks.items())),
                           tickets_out=tickets_out, claims=tuple(owners), players=pstates, phase=phase, ext=state_ext,
                           current=current, pending=(), turn=0, ply=0)
    if any(p.trains <= v.settings.end_trains for p in pstates):
        raise TTRError(f"a seat with {v.settings.end_trains} or fewer trains means the final round has begun; "
                       "play the triggering claim instead (leave it 3 or more trains)")
    return require_valid(state)


__all__ = ["position"]
