"""Compact per-variant tables for the board engine's hot loop, computed once per variant.

The public values stay as they are (``GameState`` tuples, ``Route`` objects, action texts); inside, the engine and
the bots ask these tables instead of rescanning the map:

* ``RouteTable``: per route index its length, colour (``-1`` gray), twins, minimum locomotives, points and
  canonical text; the route of a canonical text; bit masks of the routes of each colour up to each length.
* ``ClaimsInfo``: what one ``claims`` tuple implies (free routes, who owns what, which twins are closed to whom),
  cached by the tuple's identity — consecutive states share the tuple until a route is claimed.
* ``claimable_mask``: the routes a seat may claim now as a bit set over route indices (bit ``i`` = route ``i``), so
  listing them in route order is reading the set bits from the lowest.
* ``route_payments``: every legal payment for a route from a hand, in the engine's order.
* ``payment``: one shared tuple per payment the engine lists (``((colour, n), (LOCO, m))``), so a payment the engine
  made is recognised by identity and needs no second well-formedness check.

Everything here is derived from the map and the settings; nothing is ever stored in a state.
"""
from __future__ import annotations

from typing import Sequence

from .cards import COLOURS, LOCO

# "Variant" and "GameState" in the annotations are ttr_nb.variants' and ttr_nb.board.state's, named and not imported: a
# variant builds its table here (``Variant.route_table``), so importing them would close a circle.

FREE = -1          # as ttr_nb.board.state.FREE (not imported: the state module is not needed here)
GRAY_BUCKET = LOCO     # bucket index of gray routes in the per-colour masks (colours are 0..7)
WIDE = 256             # entries of the padded mask rows: more than the cards of any deck
CLAIMS_KEPT = 32       # claims tuples whose info is cached (a game in play needs its latest one or two)

_PAYMENTS: dict[tuple, tuple] = {}      # payment -> the shared tuple equal to it
_BY_COUNTS: dict[tuple[int, int, int], tuple] = {}


def payment(colour: int, n: int, locos: int) -> tuple:
    """The shared payment tuple for ``n`` cards of ``colour`` plus ``locos`` locomotives (either count may be 0)."""
    found = _BY_COUNTS.get((colour, n, locos))
    if found is None:
        pay = ((colour, n), (LOCO, locos)) if n and locos else ((colour, n),) if n else ((LOCO, locos),)
        found = _BY_COUNTS[(colour, n, locos)] = intern(pay)
    return found


def intern(pay: tuple) -> tuple:
    """The shared tuple equal to ``pay`` (a well-formed payment the engine made)."""
    return _PAYMENTS.setdefault(pay, pay)


_NOT_OURS = object()


def interned(pay) -> bool:
    """Whether ``pay`` is a payment tuple the engine made itself (well formed by construction)."""
    try:
        return _PAYMENTS.get(pay, _NOT_OURS) is pay      # (None is no payment: a sentinel, not .get's None)
    except TypeError:                  # unhashable: certainly not one of ours
        return False


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def nth_bit(mask: int, k: int) -> int:
    """The index of the ``k``-th set bit of ``mask`` (0 = the lowest; ``k`` below ``mask.bit_count()``): whole
    64-bit words skipped by their ``bit_count``, then halves (32, 16 bits) kept or skipped the same way, and the
    last byte's bit read from a table. (A few big-integer operations: cheaper than walking the mask byte by byte,
    which took six turns of a Python loop for a USA claim; accumulate + bisect over the bytes' counts was dearer
    still.)"""
    base = 0
    low = mask & 0xFFFFFFFFFFFFFFFF
    n = low.bit_count()
    while k >= n:
        k -= n
        mask >>= 64
        if not mask:
            raise ValueError("nth_bit: k is not below the count of set bits of the mask")
        base += 64
        low = mask & 0xFFFFFFFFFFFFFFFF
        n = low.bit_count()
    half = low & 0xFFFFFFFF
    n = half.bit_count()
    if k >= n:
        k -= n
        base += 32
        half = low >> 32
    low = half & 0xFFFF
    n = low.bit_count()
    if k >= n:
        k -= n
        base += 16
        low = half >> 16
    byte = low & 0xFF
    n = _BYTE_COUNT[byte]
    if k >= n:
        k -= n
        base += 8
        byte = low >> 8
    return base + _BYTE_BITS[byte][k]


_BYTE_COUNT = tuple(i.bit_count() for i in range(256))
_BYTE_BITS = tuple(tuple(j for j in range(8) if i >> j & 1) for i in range(256))


class RouteTable:
    """Per-variant arrays over the map's routes (by route index) and bit masks for legal claims."""

    def __init__(self, v: "Variant"):
        from .names import route_labels, ticket_text
        m = v.map
        routes = m.routes
        n = len(routes)
        self.routes = routes
        self.length = tuple(r.length for r in routes)
        self.colour = tuple(-1 if r.colour == "gray" else COLOURS.index(r.colour) for r in routes)
        self.twins = tuple(tuple(t.index for t in m.twins(r.id)) for r in routes)
        self.min_locos = tuple(max((f.min_locos(r) for f in v.features), default=0) for r in routes)
        self.by_length = tuple(sorted(range(n), key=lambda i: (routes[i].length, i)))
        self.labels = route_labels(m)
        self.ticket_text = {t.id: ticket_text(m, t) for t in m.tickets}       # id -> canonical city text
        self.ticket_by_text = {text: tid for tid, text in self.ticket_text.items()}
        self.ticket_deck = {t.id: t.deck for t in m.tickets}                  # id -> its deck's name (returns)
        self.by_label = {label: routes[i] for i, label in enumerate(self.labels)}
        self.points = tuple(v.route_points(r.length) for r in routes)
        # the final score's network edges: (a, b, length, id) as given, and in trail.longest_trail's canonical form
        # (cities in name order); ``ids_sorted``: route index order is route id order (then a seat's edges listed
        # by index are sorted as longest_trail_canonical needs)
        self.edges = tuple((r.a, r.b, r.length, r.id) for r in routes)
        self.canon_edges = tuple((b, a, w, rid) if b < a else (a, b, w, rid) for a, b, w, rid in self.edges)
        # the final score's totals over city numbers (the map's cities and ticket ends in name order): each route's
        # two ends, each ticket's (end, end, points), for a union-find per seat
        places = sorted({c for r in routes for c in (r.a, r.b)} | {c for t in m.tickets for c in (t.a, t.b)})
        number = {c: k for k, c in enumerate(places)}
        self.places = len(places)
        self.ends = tuple((number[r.a], number[r.b]) for r in routes)
        self.ticket_ends = {t.id: (number[t.a], number[t.b], t.points) for t in m.tickets}
        # what new_game shuffles: the train cards in kind order, (ticket deck name, its ticket ids in map order) ...
        self.setup_cards = tuple(k for k, c in enumerate(v.deck_counts) for _ in range(c))
        decks: dict[str, list[str]] = {}
        for ticket in m.tickets:
            decks.setdefault(ticket.deck, []).append(ticket.id)
        self.setup_tickets = tuple((name, tuple(ids)) for name, ids in decks.items())
        self.ids_sorted = all(routes[i].id < routes[i + 1].id for i in range(n - 1))
        self.twin_bits = tuple(sum(1 << j for j in tw) for tw in self.twins)
        self.twinned = sum(1 << i for i in range(n) if self.twins[i])
        self.all = (1 << n) - 1
        self.all_but = tuple(self.all ^ 1 << i for i in range(n))     # every route but i (``claimed``: one and)
        self.top = top = max(self.length, default=0)
        # le[b][k]: routes of colour bucket b (8 = gray) and length <= k, without minimum locomotives (ferries);
        # those are "special" and checked one by one.
        self.special = tuple(i for i in range(n) if self.min_locos[i])
        self.special_rows = tuple((i, self.length[i], self.min_locos[i], self.colour[i]) for i in self.special)
        # special_pay[b][locos][have]: the special routes of colour bucket b (8 = gray) payable with ``locos``
        # locomotives and ``have`` cards of the colour (gray: of the best one), both counted up to the longest route
        self.special_pay = tuple(tuple(tuple(
            sum(1 << i for i, length, need, c0 in self.special_rows if (c0 if c0 >= 0 else GRAY_BUCKET) == b and (
                locos >= length or locos >= need < length and have >= max(1, length - locos)))
            for have in range(top + 1)) for locos in range(top + 1)) for b in range(GRAY_BUCKET + 1))
        # the colour buckets (0..7) with special routes: claimable_mask reads only their rows (Europe's ferries are
        # all gray: none)
        self.special_colours = tuple(b for b in range(GRAY_BUCKET) if any(row[3] == b for row in self.special_rows))
        le = [[0] * (top + 1) for _ in range(GRAY_BUCKET + 1)]
        every = [0] * (top + 1)
        for i in range(n):
            b = self.colour[i] if self.colour[i] >= 0 else GRAY_BUCKET
            for k in range(self.length[i], top + 1):
                every[k] |= 1 << i
                if not self.min_locos[i]:
                    le[b][k] |= 1 << i
        self.le = tuple(tuple(row) for row in le)
        self.le_colours = self.le[:GRAY_BUCKET]
        # wide_colours[b][k]: le[b][k] | le[8][k] for any k < WIDE: a gray route is payable as soon as one colour's
        # cards (with the locomotives) cover it, so each colour's row carries the gray routes and claimable_mask
        # needs no best colour
        wide = tuple(row + (row[-1],) * (WIDE - len(row)) for row in self.le)
        self.wide_colours = tuple(tuple(a | b for a, b in zip(row, wide[GRAY_BUCKET])) for row in wide[:GRAY_BUCKET])
        # pair_colours[p][a][b]: wide_colours[2p][a] | wide_colours[2p + 1][b], for a and b up to a colour's cards
        # and the locomotives of the deck: claimable_mask reads the eight colours as four pairs (half the lookups and
        # big-integer ors)
        reach = min(max(v.deck_counts[:LOCO], default=0) + v.deck_counts[LOCO] + 1, WIDE)
        self.pair_colours = tuple(tuple(tuple(self.wide_colours[2 * p][a] | self.wide_colours[2 * p + 1][b]
                                              for b in range(reach)) for a in range(reach)) for p in range(LOCO // 2))
        self.every = tuple(every)
        # the variant's other wild cards (Märklin's +4): (card kind, routes at least as long as it may pay for)
        self.extra_wilds = tuple((w, sum(1 << i for i in range(n) if self.length[i] >= shortest))
                                 for w, shortest, _ in v.settings.wilds if w != LOCO)
        # pay_rows[i]: route i's payments in colour cards and locomotives (payment_tuple), by the locomotives held,
        # then by the cards of its colour held (gray: by those of two colours, four pairs); one entry per (colour,
        # length, minimum locomotives), every index up to the largest deck count
        size = max(v.deck_counts) + 1
        shapes = {key: None for key in zip(self.colour, self.length, self.min_locos)}
        shapes = {key: _pay_rows(*key, size) for key in shapes}
        self.pay_rows = tuple(shapes[key] for key in zip(self.colour, self.length, self.min_locos))
        self.twin_min_players = v.settings.twin_min_players
        # the features that may take a claim over (a tunnel, a passenger to place): the others never need asking
        self.claim_hooks = tuple(f for f in v.features if f.overrides("on_claim"))
        # the features that act when a round of turns ends (Märklin's travelled passengers leave, MK-PASS-6)
        self.round_end_hooks = tuple(f for f in v.features if f.overrides("on_round_end"))
        self.shapes: dict = {}               # (route index, payment) -> payment_problem without the hand check
        # per route, the ids of the engine's own (interned, so never freed) payments whose shape fits it: a claim's
        # check by one set lookup (``engine._fits``); an id found there is that very payment, which lives on
        self.fits: tuple[set[int], ...] = tuple(set() for _ in routes)
        self._claims: dict[int, ClaimsInfo] = {}
        # (the claim or ticket keep the random bot made last, the state it made it for, ...): legal there by
        # construction (a claim: a route of claimable_mask, a payment of payment_tuple; a keep: one of legal_actions'
        # choices, followed by the tickets kept, offered and the offer's returns), so engine._quick_claim and
        # _quick_keep need not check it again (one tuple, written at once: an action is never paired with another
        # bot's state)
        self.made: tuple = (None, None)
        # the info of the claims tuple asked or made last: a game in play asks about its latest claims tuple over
        # and over, and one identity test there spares the id() call and the dict lookup (``()``'s info to begin)
        self.latest = ClaimsInfo(self, ())

    def claims_info(self, claims: tuple[int, ...]) -> "ClaimsInfo":
        """What ``claims`` implies, cached by the tuple's identity (the entry keeps the tuple alive)."""
        info = self._claims.get(id(claims))
        if info is None or info.claims is not claims:
            if len(self._claims) >= CLAIMS_KEPT:
                self._claims.clear()
            info = self._claims[id(claims)] = ClaimsInfo(self, claims)
        self.latest = info
        return info

    def claimed(self, old: tuple[int, ...], new: tuple[int, ...], i: int, seat: int) -> None:
        """``new`` is ``old`` with route ``i`` claimed by ``seat``: derive its info from ``old``'s cached one (one bit
        moves) instead of reading all of ``new`` again on its first use. It becomes ``latest`` only, not an entry of
        the dict: a game moves on from it at the next claim and seldom comes back (an undo reads it again there,
        ``claims_info``), and keeping every claim's entry cost about 0.7% of a random game's instructions."""
        info = self.latest
        if info.claims is not old:
            info = self._claims.get(id(old))
            if info is None or info.claims is not old:
                return
        self.latest = after = _new_object(ClaimsInfo)           # (object.__new__ called at once: no lookup)
        after.claims = new
        after.free = info.free & self.all_but[i]
        twins = self.twin_bits[i]
        if twins:
            after.blocked = blocked = info.blocked.copy()
            blocked[seat] = blocked.get(seat, 0) | twins
            after.blocked_all = info.blocked_all | twins
        else:
            after.blocked, after.blocked_all = info.blocked, info.blocked_all

    def forget(self) -> None:
        """Drop the cached claims (tests check that cold and warm caches agree)."""
        self._claims.clear()
        self.latest = ClaimsInfo(self, ())


_new_object = object.__new__


class ClaimsInfo:
    """Free routes of one ``claims`` tuple, and which twins are closed to whom (USA-CLAIM-7/8)."""

    __slots__ = ("claims", "free", "blocked", "blocked_all")

    def __init__(self, t: RouteTable, claims: tuple[int, ...]):
        self.claims = claims
        if claims.count(FREE) == len(claims) == len(t.routes):      # a new game's: all free, read without the loop
            self.free, self.blocked, self.blocked_all = t.all, {}, 0
            return
        free = blocked_all = 0
        blocked: dict[int, int] = {}        # seat -> routes whose twin the seat owns
        twin_bits = t.twin_bits
        for i, owner in enumerate(claims):
            if owner == FREE:
                free |= 1 << i
            elif twin_bits[i]:
                blocked[owner] = blocked.get(owner, 0) | twin_bits[i]
                blocked_all |= twin_bits[i]
        self.free, self.blocked, self.blocked_all = free, blocked, blocked_all

    def allowed(self, seat: int, small: bool) -> int:
        """Free routes ``seat`` may claim as far as twins go: never both of a double (USA-CLAIM-7), and with fewer
        than ``twin_min_players`` players never the twin of a claimed route (USA-CLAIM-8)."""
        return self.free & ~(self.blocked_all if small else self.blocked.get(seat, 0))


def allowed_routes(t: RouteTable, state: "GameState", seat: int) -> int:
    """The free routes ``seat`` may claim as far as twins go (USA-CLAIM-7/8), as a bit set: ``ClaimsInfo.allowed``
    of the state's claims, its cached case inline (every claim decision and every claim applied asks)."""
    claims = state.claims
    info = t.latest
    if info.claims is not claims:
        info = t.claims_info(claims)
    return info.free & ~(info.blocked_all if state.n_players < t.twin_min_players else info.blocked.get(seat, 0))


def claimable_mask(v: "Variant", state: "GameState", seat: int, affordable_only: bool) -> int:
    """The routes ``seat`` may claim now, as a bit set (see ``engine.claimable_routes``): free, twin rules kept,
    enough trains; with ``affordable_only`` also payable from the hand."""
    t: RouteTable = v.route_table
    player = state.players[seat]
    trains = player.trains
    if trains <= 0:
        return 0
    claims = state.claims                        # allowed_routes(t, state, seat), inline: every claim decision asks
    info = t.latest
    if info.claims is not claims:
        info = t.claims_info(claims)
    allowed = info.free & ~(info.blocked_all if state.n_players < t.twin_min_players else info.blocked.get(seat, 0))
    top = t.top
    if not affordable_only:
        return allowed & t.every[trains if trains < top else top]
    hand = player.hand
    if len(hand) == LOCO + 1:                    # the 8 colours (0..7; LOCO is 8), written out: every claim asks
        c0, c1, c2, c3, c4, c5, c6, c7, locos = hand         # (no slice made for the base game's nine kinds)
    elif len(hand) == LOCO + 3:                  # Märklin's eleven kinds (+4s, passengers), written out too: no slice
        c0, c1, c2, c3, c4, c5, c6, c7, locos, _, _ = hand
    else:                                        # (an edited hand of another length)
        c0, c1, c2, c3, c4, c5, c6, c7 = hand[:LOCO]
        locos = hand[LOCO]
    try:                                         # the pairs' rows run to a colour's and the locomotives' cards
        p = t.pair_colours
        mask = (p[0][c0 + locos][c1 + locos] | p[1][c2 + locos][c3 + locos] | p[2][c4 + locos][c5 + locos]
                | p[3][c6 + locos][c7 + locos])             # (gray routes included)
    except IndexError:                           # an edited state with more cards than any deck holds
        mask = _colour_mask(t, hand, locos)
    if trains < top:                             # (every route is short enough until the last few trains)
        mask &= t.every[trains]
    for wild, long_enough in t.extra_wilds:      # one extra wild kind per payment (see route_payments)
        more = hand[wild]
        if more:
            k = locos + more
            cap = trains if trains < top else top       # (the longest route the trains cover: read only here)
            try:                                 # (Märklin's +4 card: the colours read as four pairs, as above;
                p = t.pair_colours               # the pairs' rows are shorter than the wide ones: past them,
                wide = (p[0][c0 + k][c1 + k] | p[1][c2 + k][c3 + k] | p[2][c4 + k][c5 + k]     # colour by colour)
                        | p[3][c6 + k][c7 + k]) & t.every[cap]
            except IndexError:
                best = max(hand[:LOCO])
                if best + k < WIDE:
                    w = t.wide_colours
                    wide = (w[0][c0 + k] | w[1][c1 + k] | w[2][c2 + k] | w[3][c3 + k] | w[4][c4 + k]
                            | w[5][c5 + k] | w[6][c6 + k] | w[7][c7 + k]) & t.every[cap]
                else:
                    wide = 0
                    for have, row in zip(hand, t.le_colours):
                        k = have + locos + more
                        wide |= row[k if k < cap else cap]
                    k = best + locos + more
                    wide |= t.le[GRAY_BUCKET][k if k < cap else cap]
            mask |= wide & long_enough
    mask &= allowed
    if t.special:
        if t.extra_wilds:
            length = t.length
            for i in t.special:
                if allowed >> i & 1 and length[i] <= trains and _payable_special(v, t, i, hand):
                    mask |= 1 << i
        elif locos:                              # (no locomotive pays for no ferry: every one needs one or more)
            # a route needing ``need`` locomotives (a ferry) is payable iff all its cards can be locomotives, or
            # locos >= need < length and its colour (gray: the best one) covers max(1, length - locos)
            lk = locos if locos < top else top
            cap = trains if trains < top else top
            b0 = c0 if c0 > c1 else c1           # best = max(hand[:LOCO]), pair by pair: the builtin's call costs
            b1 = c2 if c2 > c3 else c3           # more than these compares of small ints
            b2 = c4 if c4 > c5 else c5
            b3 = c6 if c6 > c7 else c7
            b0 = b0 if b0 > b1 else b1
            b2 = b2 if b2 > b3 else b3
            best = b0 if b0 > b2 else b2
            pay = t.special_pay
            found = pay[GRAY_BUCKET][lk][best if best < top else top]
            for b in t.special_colours:
                have = hand[b]
                found |= pay[b][lk][have if have < top else top]
            mask |= found & allowed & t.every[cap]
    return mask


def _colour_mask(t: RouteTable, hand: Sequence[int], locos: int) -> int:
    """``claimable_mask``'s routes payable in one colour (gray ones included) for a hand beyond the pairs' rows: the
    padded rows colour by colour, and past them the map's rows clipped to the longest route."""
    try:
        w = t.wide_colours
        c0, c1, c2, c3, c4, c5, c6, c7 = hand[:LOCO]
        return (w[0][c0 + locos] | w[1][c1 + locos] | w[2][c2 + locos] | w[3][c3 + locos] | w[4][c4 + locos]
                | w[5][c5 + locos] | w[6][c6 + locos] | w[7][c7 + locos])
    except IndexError:
        top = t.top
        mask = 0
        for have, row in zip(hand, t.le_colours):
            mask |= row[min(have + locos, top)]
        return mask | t.le[GRAY_BUCKET][min(max(hand[:LOCO]) + locos, top)]


def _payable_special(v: "Variant", t: RouteTable, i: int, hand: Sequence[int]) -> bool:
    """Whether a route with a minimum of locomotives (a ferry) has a legal payment from ``hand``."""
    if t.extra_wilds:
        return bool(route_payments(v, t.routes[i], hand))
    length, need = t.length[i], t.min_locos[i]
    locos = hand[LOCO]
    if locos >= length:
        return True
    c0 = t.colour[i]
    for c in (range(LOCO) if c0 < 0 else (c0,)):
        k = min(hand[c], length - need)
        if k >= 1 and k >= length - locos:
            return True
    return False


def route_payments(v: "Variant", route, hand: Sequence[int]) -> list[tuple]:
    """Every legal set of cards for ``route`` from ``hand``: by colour, fewest locomotives first; all-locomotive last."""
    if min(hand) >= 0:
        return list(payment_tuple(v, route.index, hand))
    # an edited hand with a negative count (validate refuses it): listed colour by colour, since the table's rows
    # would be read from their ends; a negative count pays for nothing
    t = v.route_table
    i = route.index
    pays = list(listed_payments(t, i, hand))
    if t.extra_wilds:
        pays += _extra_wild_payments(v, route, hand, t.colour[i], t.min_locos[i])
    return pays


def payment_tuple(v: "Variant", i: int, hand: Sequence[int]) -> tuple:
    """``route_payments(v, routes[i], hand)`` as one tuple (the random bot's claim draws its index in it): the
    payments in colour cards and locomotives read from ``RouteTable.pay_rows`` (a coloured route's in one lookup, a
    gray route's as its eight colours' runs and the all-locomotive payment, written out: every claim asks), then
    those with the variant's other wild cards (Märklin's +4) when one of them could pay."""
    t = v.route_table
    try:
        rows = t.pay_rows[i][hand[LOCO]]
        c0 = t.colour[i]
        if c0 >= 0:
            pays = rows[hand[c0]]
        else:                                    # the colours' runs two by two (four tuples joined, not eight)
            r01, r23, r45, r67, tail = rows
            c0, c1, c2, c3, c4, c5, c6, c7 = hand[:LOCO]
            pays = r01[c0][c1] + r23[c2][c3] + r45[c4][c5] + r67[c6][c7] + tail
    except IndexError:                           # an edited state with more cards than any deck holds
        pays = listed_payments(t, i, hand)
    for w, long_enough in t.extra_wilds:
        if hand[w] and long_enough >> i & 1:
            return pays + tuple(_extra_wild_payments(v, t.routes[i], hand, t.colour[i], t.min_locos[i]))
    return pays


def random_payment(v: "Variant", i: int, hand: Sequence[int], r) -> tuple:
    """``pays[r.index(len(pays))]`` for ``pays = route_payments(v, routes[i], hand)`` (route ``i`` payable from
    ``hand``): what the random bot's claim pays, the counter ``r`` drawing its index."""
    pays = payment_tuple(v, i, hand)
    return pays[r.index(len(pays))]


def listed_payments(t: RouteTable, i: int, hand: Sequence[int]) -> tuple:
    """The payments of route ``i`` from ``hand`` in colour cards and locomotives, listed colour by colour (what
    ``RouteTable.pay_rows`` holds, for any hand)."""
    length, c0, locos = t.length[i], t.colour[i], hand[LOCO]
    return sum((_run(c, length, t.min_locos[i], locos, hand[c]) for c in (range(LOCO) if c0 < 0 else (c0,))),
               ()) + _all_locos(length, locos)


def _run(c: int, length: int, min_locos: int, locos: int, have: int) -> tuple:
    """The payments in colour ``c`` of a route of ``length`` needing ``min_locos`` locomotives, from ``locos``
    locomotives and ``have`` cards of ``c``: most of the colour first, at least one card of it (USA-CLAIM-2/3)."""
    if locos < min_locos:
        return ()
    low = length - locos if length - locos > 1 else 1
    return tuple(payment(c, k, length - k) for k in range(min(have, length - min_locos), low - 1, -1))


def _all_locos(length: int, locos: int) -> tuple:
    """The all-locomotive payment of a route of ``length``, when ``locos`` cover it."""
    return (payment(0, 0, length),) if locos >= length else ()


def _pay_rows(c0: int, length: int, min_locos: int, size: int) -> tuple:
    """``RouteTable.pay_rows``' entry for a route of colour ``c0`` (-1 gray), ``length`` and ``min_locos``, indexed by
    the locomotives held (``size`` entries): a coloured route's payments by the cards of its colour held; a gray
    route's runs of colours 0 and 1, 2 and 3, 4 and 5, 6 and 7 joined, by the two colours' cards held (four tuples
    for payment_tuple to join, not eight), then its all-locomotive payment. Past ``length`` locomotives or cards
    nothing changes: those entries repeat the last one."""
    def by_have(c, locos):
        found = tuple(_run(c, length, min_locos, locos, have) + (_all_locos(length, locos) if c0 >= 0 else ())
                      for have in range(length + 1))
        return found + found[-1:] * (size - len(found))

    def pairs(locos):                            # gray: (colour 2p's run, 2p + 1's) joined, for p in 0..3
        joined: dict[tuple, tuple] = {}          # (one shared tuple per distinct join)
        out = []
        for c in range(0, LOCO, 2):
            a, b = by_have(c, locos), by_have(c + 1, locos)
            out.append(tuple(tuple(joined.setdefault((x, y), x + y) for y in b) for x in a))
        return tuple(out)

    rows = tuple(by_have(c0, locos) if c0 >= 0 else pairs(locos) + (_all_locos(length, locos),)
                 for locos in range(length + 1))
    return rows + rows[-1:] * (size - len(rows))


def _extra_wild_payments(v: "Variant", route, hand: Sequence[int], c0: int, min_locos: int) -> list[tuple]:
    """The payments that use the variant's other wild cards (Märklin's +4 locomotives, MK-CLAIM-2), after the
    plain ones: fewest wild cards first, then fewest extra wilds. Read from ``_extra_wild_groups``, made once per
    route length, minimum locomotives and wild cards held (each counted up to the length: more never pay more);
    only the colours' counts are looked at per call."""
    length = route.length
    i = route.index
    extra = ()
    for w, long_enough in v.route_table.extra_wilds:
        have = hand[w]
        if have and long_enough >> i & 1:
            extra += ((w, have if have < length else length),)
    if not extra:
        return []
    locos = hand[LOCO]
    key = (length, min_locos, locos if locos < length else length, extra)
    groups = _EXTRA_GROUPS.get(key)
    if groups is None:
        groups = _EXTRA_GROUPS[key] = _extra_wild_groups(*key)
    out: list[tuple] = []
    if c0 >= 0:                                    # a coloured route: its colour's payments of each group
        have = hand[c0]
        for rest, pays in groups:
            if not rest:
                out += pays
            elif rest <= have:
                out += pays[c0]
        return out
    best = max(hand[:LOCO])                        # a gray route: each colour's, groups no colour covers skipped
    for rest, pays in groups:
        if not rest:
            out += pays
        elif rest <= best:
            for c in range(LOCO):
                if hand[c] >= rest:
                    out += pays[c]
    return out


_EXTRA_GROUPS: dict[tuple, tuple] = {}     # (length, min locos, locos, extra wilds held) -> _extra_wild_groups


def _extra_wild_groups(length: int, min_locos: int, locos: int, extra: tuple) -> tuple:
    """The payments with extra wild cards of a route of ``length`` needing ``min_locos`` locomotives, from ``locos``
    locomotives and ``extra`` = ((wild kind, cards held), ...), by the number of wild cards in them (fewest first):
    (the colour cards they leave, the payments) — with no colour card left the payments themselves, else per colour
    0..7 its payments with that many cards of the colour (interned). Every payment of one group leaves the same
    number of colour cards, so listing the groups in order, each colour in order within a group, gives the
    payments sorted by (wild cards, payment): fewest wild cards, then the colour, then fewest extra wilds."""
    parts: list[tuple[int, tuple]] = []            # (wild cards in it, its wild cards' pairs)
    for w, have_w in extra:                        # one extra wild kind per payment is enough for Märklin's single +4 kind
        for n_w in range(1, min(have_w, length) + 1):
            for n_l in range(0, min(locos, length - n_w) + 1):
                if n_l >= min_locos:               # (the kinds from LOCO on: a colour sorts before them)
                    parts.append((n_w + n_l, tuple(sorted(((w, n_w),) + (((LOCO, n_l),) if n_l else ())))))
    parts.sort()
    groups: list[tuple[int, list[tuple]]] = []
    for wilds, part in parts:
        if not groups or groups[-1][0] != wilds:
            groups.append((wilds, []))
        groups[-1][1].append(part)
    return tuple((length - wilds, tuple(intern(part) for part in found) if wilds == length else
                  tuple(tuple(intern(((c, length - wilds),) + part) for part in found) for c in range(LOCO)))
                 for wilds, found in groups)


__all__ = ["allowed_routes", "route_payments", "random_payment", "payment_tuple", "listed_payments", "RouteTable", "ClaimsInfo", "claimable_mask", "payment", "intern", "interned", "bits", "nth_bit"]
