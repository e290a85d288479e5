"""Bots: a seeded random bot, a greedy bot that plans for its tickets, and a strength dial between them.

Every bot answers ``choose(state, seat) -> (action, reason)``, the reason being one line a learner can read
("claims Denver–Omaha: on the cheapest path for Denver–El Paso"). Bots are stateless: the same state, seat and
bot seed always give the same choice, so undo, branch and replay stay reproducible.

A reason may name the bot's secret tickets or hand cards. It is a :class:`Reason`: a ``str`` (the full text,
for the teacher and for the bot's own seat) with ``public``, the same without secrets ("claims Denver–Omaha",
"keeps 2 tickets"), and ``text_for(viewer, seat)`` to pick one. ``secret`` tells whether they differ.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Protocol, Sequence

from .board.actions import (Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, draw_tickets_action, new_claim,
                      new_keep)
from .board.cards import CARD_NAMES, COLOURS, GRAY, LOCO
from .board.engine import (_DRAW_CHOICES, _LOCO_KEY2, _LOCO_KEY3, _VARIANTS, _full, _is_full, claimable_routes,
                           draw_choices, legal_actions, route_payments)
from .errors import TTRError
from .board.names import route_text, ticket_text
from .rng import Counter, fold
from .board.state import FREE, GameState, offer_terms
from .board.tables import claimable_mask, nth_bit, payment_tuple
from .variants import Feature, Variant, bots_of, get_variant


class Reason(str):
    """A bot's reason: the full text (``str(reason)``) plus ``public``, free of tickets and hand cards."""

    public: str

    def __new__(cls, text: str, public: str | None = None) -> "Reason":
        obj = super().__new__(cls, text)
        obj.public = str(text) if public is None else public
        return obj

    @property
    def secret(self) -> bool:
        return self.public != str(self)

    def text_for(self, viewer: int | None, seat: int) -> str:
        """What ``viewer`` may read of ``seat``'s reason (viewer None = teacher: everything)."""
        return str(self) if viewer is None or viewer == seat else self.public

    def prefixed(self, prefix: str) -> "Reason":
        return Reason(prefix + str(self), prefix + self.public)


def public_reason(reason: str) -> str:
    """The public wording of a bot's reason (a plain ``str`` from a bot outside ttr_nb is taken as public)."""
    return getattr(reason, "public", reason)


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, seat: int) -> tuple[Action, str]: ...


_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def _colour_index(colour: str) -> int:
    return _COLOUR_INDEX[colour]


class RandomBot:
    """Uniform over the kinds of action available (draw / claim / tickets / variant actions), then uniform within
    the kind. (Uniform over all actions would almost always claim: one route has many legal payments.)

    The kinds are tried in a random order and the first available one is taken — the same distribution as
    listing the available kinds first, without looking for claimable routes on every turn.
    """

    def __init__(self, seed: int = 0):
        self._keys: dict[int, tuple[int, int]] = {}    # seat -> (game seed, Counter.base of this bot, seat, game seed)
        self.seed = seed
        self.name = "random"

    @property
    def seed(self) -> int:
        return self._seed

    @seed.setter
    def seed(self, value: int) -> None:
        self._seed = value
        self._keys.clear()

    def choose(self, state: GameState, seat: int) -> tuple[Action, str]:
        global _NO_TICKETS
        if state.__class__ is not GameState:        # a game with its own rules module plays with its own bots
            return bots_of(state)(self.name, self.seed).choose(state, seat)
        try:
            base = self._keys[seat]                     # (game seed, the fold of seed, seat and game seed)
        except KeyError:
            base = None,
        if base[0] != state.seed:
            base = self._keys[seat] = (state.seed, Counter.base(fold(self._seed, seat), state.seed))
        # x: the state of Counter(self.seed, seat, state.ply, state.seed), as Counter.at makes it
        x = (base[1] + state.ply * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        # w: what the next draw mixes, that state plus twice the SplitMix64 increment (a draw steps the state, then
        # mixes it plus the increment), not reduced mod 2**64 (the steps below reduce what they mix). After a draw
        # that is not the last, w moves on by one increment; the counter's state is (w - 2 increments) mod 2**64
        # when a Counter is handed on.
        w = (x ^ (x >> 31)) + 0x13C6EF372FE94F82A
        pending = state.pending
        if pending:
            p = pending[0]
            if p.kind == "second_card" and p.seat == seat:
                pick = _CARD                            # a turn's second card (USA-DRAW-1), the usual pending step
                # draw_choices(state, seat, True), its usual case inline (half of all plies): cards to draw and five
                # face-up slots, the locomotives' shut (USA-DRAW-2); anything else (or choices not cached yet) asks it
                try:
                    m0, m1, m2, m3, m4 = state.market
                    opts = _DRAW_CHOICES[seat][_LOCO_KEY3[m0][m1][m2] + _LOCO_KEY2[m3][m4]] \
                        if state.deck else draw_choices(state, seat, True)
                except (ValueError, IndexError, TypeError, KeyError):
                    opts = draw_choices(state, seat, True)
            elif p.kind == "choose_tickets" and p.seat == seat:
                # a ticket offer (USA-TICKET-2, USA-SETUP-3): the positions each choice keeps, as _keep_at_random
                # reads them, its index drawn below like the others' (no counter object, no picker call)
                pick = _KEEP
                v = _VARIANTS.get(state.variant) or get_variant(state.variant)
                min_keep, offered, returns = offer_terms(p.data)
                opts = keep_choices(len(offered), min_keep)
            else:
                opts = None
            if not opts:                                # (none: an edited state, where the general words follow)
                try:                                    # (as at a turn's own kind below)
                    v, _, pickers, _ = _FEATURE_PLAN[state.variant]
                except KeyError:
                    v, _, pickers, _ = _feature_plan(state.variant)
                r = _counter_at(x ^ (x >> 31))
                if p.seat == seat:                      # a feature's own step, picked without a list (the usual)
                    pick_step = pickers.get(p.kind)
                    if pick_step is not None:
                        return pick_step(v, state, p, r), _AT_RANDOM
                return self._pending_choice(v, state, seat, pending, r, pickers)
            n = len(opts)
            reason = _AT_RANDOM
        else:                                           # a turn: the kinds in a random order, the first available
            try:                                        # (the variant and what a turn reads of it: see _TURN_PLAN)
                v, kinds, n, ticket_deck = _TURN_PLAN[state.variant]
            except KeyError:
                v, kinds, n, ticket_deck = _turn_plan(state.variant)
            pick = _KIND
        while True:
            # r.index(n) of that counter, without the object: one SplitMix64 step (the same numbers as
            # Counter.index; tests/test_engine_fastpaths.py compares whole games). With one choice the index is 0
            # whatever the number: only the counter moves on.
            if n == 1:
                k = 0
            else:
                z = w & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                k = ((z ^ (z >> 31)) * n) >> 64
            if pick == _KIND:
                kind, kinds = kinds[k]                  # the list's pop(k), read from the tree of orders
                w += 0x9E3779B97F4A7C15                 # (a kind is never the last draw but for tickets)
            elif pick == _CARD:                         # the card: the second, or the draw kind's
                return opts[k], reason
            elif pick == _ROUTE:                        # claim: a claimable route, then one of its payments
                i = nth_bit(routes, k)
                pays = payment_tuple(v, i, state.players[seat].hand)
                pick = _PAYMENT
                n = len(pays)
                w += 0x9E3779B97F4A7C15
                continue
            elif pick == _PAYMENT:                      # route_payments(...)[random index], from the shared tuple
                table = v.route_table
                label = table.labels[i]
                claim = new_claim(label, pays[k], seat)
                table.made = (claim, state)             # legal here: apply need not check it
                return claim, _CLAIM_REASONS.get(label) or _claims_at_random(label)
            else:                                       # the ticket keep: the offer's tickets at those positions
                return _keep_made(v, state, seat, offered, returns, opts[k]), reason
            if kind == 0:                               # draw (empty when USA-DRAW-8 forbids drawing)
                market = state.market                   # (draw_choices' usual case inline, as for the second card;
                try:                                    # a full market read from engine._full, as the quick paths do)
                    opts = _DRAW_CHOICES[seat][len(market)] if state.deck and (market is _full[0] or _is_full(market)) \
                        else draw_choices(state, seat, False)
                except KeyError:
                    opts = draw_choices(state, seat, False)
                if opts:
                    pick = _CARD
                    n = len(opts)
                    reason = _DRAWS_AT_RANDOM
                    continue
            elif kind == 1:
                routes = claimable_mask(v, state, seat, True)     # the claimable_routes, as a bit set
                if routes:
                    pick = _ROUTE
                    n = routes.bit_count()
                    continue
            elif kind == 2:                             # tickets (none without a ticket deck of the base game's kind:
                # Märklin announces its own, a variant action)
                if ticket_deck and state.ticket_decks is not _NO_TICKETS:
                    if state.ticket_deck(ticket_deck):
                        return draw_tickets_action(seat), _TICKETS_AT_RANDOM
                    if not any([ids for _, ids in state.ticket_decks]):     # (once the decks run out, the states
                        _NO_TICKETS = state.ticket_decks                    # share that tuple: one identity test)
            else:                                       # a variant's own actions (boards with features), unless
                try:                                    # (a subscript of the dict, specialised: no get() call)
                    _, idle, _, pickers = _FEATURE_PLAN[state.variant]
                except KeyError:
                    _, idle, _, pickers = _feature_plan(state.variant)
                if idle is None or not idle(v, state, seat):                # its bot_idle says there are none
                    r = _counter_at((w - 0x13C6EF372FE94F82A) & 0xFFFFFFFFFFFFFFFF)
                    action = _own_action(v, state, seat, r, pickers)
                    if action is not None:
                        return action, _VARIANT_AT_RANDOM
                    w = r.state + 0x13C6EF372FE94F82A   # the next kind from where the features' draws left it
            if not kinds:
                break
            n = len(kinds)
        acts = legal_actions(state, seat)
        return acts[0], Reason("nothing else is possible")

    def _pending_choice(self, v: Variant, state: GameState, seat: int, pending, r: Counter,
                        pickers: dict) -> tuple[Action, str]:
        p = pending[0]
        if p.seat != seat:
            p = state.pending_for(seat)
        kind = p.kind if p is not None else None
        if kind == "second_card":
            acts = draw_choices(state, seat, True)
        else:
            pick_step = pickers.get(kind)               # a ticket offer or a feature's own step, picked without a list
            if pick_step is not None:
                return pick_step(v, state, p, r), _AT_RANDOM
            acts = legal_actions(state, seat)
        return acts[r.index(len(acts))], _AT_RANDOM


# Counter.of_state, bound once: CPython 3.11 does not specialise loading a classmethod from its class (a generic
# lookup at each feature turn and pending step), a module global it does
_counter_at = Counter.of_state

# variant key -> (the variant, the tree of kind orders, its size, the ticket deck): what a turn of the random bot reads
# of its variant, by key: a Variant's attribute loads specialise poorly in CPython 3.11 (see engine._TURN_TERMS), and
# v.features and v.settings were read at every turn
_TURN_PLAN: dict[str, tuple] = {}


def _turn_plan(name: str) -> tuple:
    """``_TURN_PLAN[name]``, made (and kept for a variant's own key, as ``engine._VARIANTS`` is)."""
    v = _VARIANTS.get(name) or get_variant(name)
    kinds = _KIND_ORDERS_EXTRA if v.features else _KIND_ORDERS
    plan = v, kinds, len(kinds), v.settings.ticket_deck
    if v.key == name:
        _TURN_PLAN[name] = plan
    return plan


# variant key -> (the variant, its bot_idle, its pending pickers, its own pickers): what the random bot reads of a
# board with features at a turn's own kind and at a feature's pending step, by key as _TURN_PLAN (v.bot_idle, twice,
# and v.__dict__ were generic lookups there); a table of its own, so that a turn of the base game unpacks no more
_FEATURE_PLAN: dict[str, tuple] = {}


def _feature_plan(name: str) -> tuple:
    """``_FEATURE_PLAN[name]``, made (and kept for a variant's own key, as ``_TURN_PLAN``)."""
    v = _VARIANTS.get(name) or get_variant(name)
    plan = v, v.bot_idle, _kept(v, "_pending_pickers", _pending_pickers), _kept(v, "_own_pickers", _own_pickers)
    if v.key == name:
        _FEATURE_PLAN[name] = plan
    return plan


def _kept(v: Variant, name: str, make):
    """``make(v)``, made once per variant and kept in its ``__dict__`` under ``name``."""
    found = v.__dict__.get(name)
    if found is None:
        found = v.__dict__[name] = make(v)
    return found


def _own_action(v: Variant, state: GameState, seat: int, r: Counter, pickers: tuple | None = None) -> Action | None:
    """One of the variant's own turn actions at random (each feature's list, or the sequence its ``bot_random``
    offers, which may make only the action picked); None when there is none. ``pickers``: ``_own_pickers(v)``, as
    the random bot's turn plan holds them (else looked up)."""
    if pickers is None:
        pickers = _kept(v, "_own_pickers", _own_pickers)
    parts = []                                          # (part, its len): each len asked once, some count on demand
    total = 0
    for pick in pickers:
        part = pick(v, state, seat, r)
        n = len(part)
        if n:
            parts.append((part, n))
            total += n
    if total:
        k = r.index(total) if total > 1 else 0     # (one action: that draw would only move the counter, dropped now)
        for part, n in parts:
            if k < n:
                return part[k]
            k -= n
    return None


def _pending_pickers(v: Variant) -> dict:
    """Per variant, once: pending kind -> its feature's ``random_pending`` (what ``v.pending_feature(kind)`` offers
    the random bot), and a ticket offer's ``_keep_at_random``; the second card is picked above."""
    kinds = {kind for f in v.features for kind in f.pending_kinds} - {"choose_tickets", "second_card"}
    pickers = {kind: f.random_pending for kind in kinds
               for f in (v.pending_feature(kind),) if hasattr(f, "random_pending")}
    pickers["choose_tickets"] = _keep_at_random
    return pickers


def _own_pickers(v: Variant) -> tuple:
    """Per variant, once: what lists each feature's turn actions for the random bot (its ``bot_random``, else its
    ``turn_actions``), features without turn actions of their own (``Feature.turn_actions``, always empty) left out."""
    return tuple(f.bot_random if hasattr(f, "bot_random") else f.turn_actions for f in v.features
                 if hasattr(f, "bot_random") or type(f).turn_actions is not Feature.turn_actions)


def _keep_at_random(v: Variant, state: GameState, p, r: Counter) -> KeepTickets:
    """The choice ``legal_actions`` lists for ``state``'s ticket offer ``p`` (every subset of at least ``min_keep``
    tickets, largest first, each size in ``combinations`` order) at the random index, read from the positions listed
    once per offer size (``keep_choices``). The keep, the state, the tickets kept, offered and the offer's returns
    are left in ``RouteTable.made``: ``engine._quick_keep`` takes the tickets from there for that very state instead
    of matching the names again."""
    min_keep, offered, returns = offer_terms(p.data)
    choices = keep_choices(len(offered), min_keep)
    return _keep_made(v, state, p.seat, offered, returns, choices[r.index(len(choices))])


def _keep_made(v: Variant, state: GameState, seat: int, offered: tuple, returns, positions: tuple) -> KeepTickets:
    """``seat``'s keep of the tickets of ``state``'s offer ``offered`` at ``positions``, named as ``legal_actions``
    names them, left in ``RouteTable.made`` (see ``_keep_at_random``)."""
    t = v.route_table
    text = t.ticket_text
    kept = tuple(map(offered.__getitem__, positions))
    keep = new_keep(tuple([text[k] if k in text else ticket_text(v.map, k) for k in kept]), seat)
    t.made = (keep, state, kept, offered, returns)
    return keep


_KEEP_CHOICES: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def keep_choices(n: int, min_keep: int) -> tuple[tuple[int, ...], ...]:
    """The positions of the tickets kept by each choice of an offer of ``n`` tickets keeping at least ``min_keep``
    (USA-TICKET-2, USA-SETUP-3), in ``legal_actions``' order: largest first, each size in ``combinations`` order."""
    key = (n, min_keep)
    found = _KEEP_CHOICES.get(key)
    if found is None:
        found = _KEEP_CHOICES[key] = tuple(combo for size in range(n, min(min_keep, n) - 1, -1)
                                           for combo in combinations(range(n), size))
    return found


def _nth_combination(items: tuple, size: int, k: int) -> tuple:
    """``list(combinations(items, size))[k]`` without listing them (combinations are in lexicographic order; South
    Korea's draft keep picks one of its many this way)."""
    out = []
    start = 0
    n = len(items)
    while size:
        for i in range(start, n):
            below = comb(n - i - 1, size - 1)           # combinations that start with items[i] at this place
            if k < below:
                out.append(items[i])
                start = i + 1
                size -= 1
                break
            k -= below
    return tuple(out)


def _kind_orders(kinds: tuple[int, ...]) -> tuple:
    """The orders ``kinds`` may be tried in, as a tree: entry k is (kinds[k], the tree of the others), what
    ``list(kinds).pop(k)`` leaves, so the random bot walks the same order from the same numbers without copying
    and popping a list every turn."""
    return tuple((kinds[k], _kind_orders(kinds[:k] + kinds[k + 1:])) for k in range(len(kinds)))


_KIND_ORDERS = _kind_orders((0, 1, 2))              # draw, claim, tickets: tried in a random order
_KIND, _CARD, _ROUTE, _PAYMENT, _KEEP = range(5)    # what RandomBot.choose's next random number picks
_KIND_ORDERS_EXTRA = _kind_orders((0, 1, 2, 3))     # ... and a variant's own actions
_AT_RANDOM = Reason("picks at random among the legal choices")
_DRAWS_AT_RANDOM = Reason("draws a train card at random")
_TICKETS_AT_RANDOM = Reason("draws tickets at random")
_VARIANT_AT_RANDOM = Reason("picks a variant action at random")
_CLAIM_REASONS: dict[str, Reason] = {}
#: the ticket decks tuple (of any variant's state) last found without a ticket in any deck (RandomBot.choose)
_NO_TICKETS: tuple | None = None


def _claims_at_random(label: str) -> Reason:
    found = _CLAIM_REASONS.get(label)
    if found is None:
        found = _CLAIM_REASONS[label] = Reason(f"claims {label} at random")
    return found


# ---------------------------------------------------------------------------------------------
# greedy

def distances(v: Variant, state: GameState, seat: int, start: str, *, target: str | None = None,
              borrowable: frozenset[int] = frozenset()) -> tuple[dict[str, int], dict[str, tuple[str, str]]]:
    """Dijkstra from ``start`` in trains still needed: own (and ``borrowable``) routes cost 0, free routes their
    length; routes of others and closed twins (USA-CLAIM-7/8) cannot be used. Stops early at ``target``.
    Returns (trains to each reached city, previous (city, route id) on a cheapest path)."""
    m = v.map
    best = {start: 0}
    prev: dict[str, tuple[str, str]] = {}
    heap = [(0, start)]
    claims = state.claims
    n_small = state.n_players < v.settings.twin_min_players
    while heap:
        d, city = heapq.heappop(heap)
        if city == target:
            break
        if d > best.get(city, 1 << 30):
            continue
        for r in m.routes_at(city):
            owner = claims[r.index]
            if owner == seat or r.index in borrowable:
                cost = 0
            elif owner == FREE:
                if r.double_group is not None and any(
                        claims[t.index] == seat or (n_small and claims[t.index] != FREE) for t in m.twins(r.id)):
                    continue
                cost = r.length
            else:
                continue
            other = r.b if r.a == city else r.a
            nd = d + cost
            if nd < best.get(other, 1 << 30):
                best[other] = nd
                prev[other] = (city, r.id)
                heapq.heappush(heap, (nd, other))
    return best, prev


def cheapest_path(v: Variant, state: GameState, seat: int, a: str, b: str,
                  borrowable: frozenset[int] = frozenset()) -> tuple[int, tuple[str, ...]] | None:
    """Trains still needed to join a and b, and the routes of one cheapest path (see ``distances``).
    None when a and b can no longer be joined."""
    best, prev = distances(v, state, seat, a, target=b, borrowable=borrowable)
    if b not in best:
        return None
    path = []
    city = b
    while city != a:
        city, rid = prev[city]
        path.append(rid)
    return best[b], tuple(reversed(path))


@dataclass(frozen=True)
class Plan:
    routes: tuple[str, ...]             # free routes to claim, most useful first
    reasons: dict                       # route id -> ticket words it serves
    cost: int                           # trains needed
    impossible: tuple[str, ...]         # tickets that can no longer be completed


def plan_for(v: Variant, state: GameState, seat: int, tickets: Sequence[str]) -> Plan:
    """Free routes on cheapest paths for the not-yet-completed tickets (later tickets reuse earlier routes)."""
    m = v.map
    planned: list[str] = []
    reasons: dict[str, str] = {}
    impossible = []
    cost = 0
    claims = list(state.claims)
    for f in v.features:                      # e.g. Europe's stations: routes of others the seat may use as its own
        for i in getattr(f, "bot_borrowable", lambda *_: ())(v, state, seat):
            claims[i] = seat
    for tid in sorted(tickets, key=lambda t: -m.ticket(t).points):
        t = m.ticket(tid)
        probe = _with_claims(state, claims)
        found = cheapest_path(v, probe, seat, t.a, t.b)
        if found is None:
            impossible.append(tid)
            continue
        c, path = found
        cost += c
        for rid in path:
            r = m.route(rid)
            if claims[r.index] == FREE:
                claims[r.index] = seat        # pretend it is ours, so other tickets share it
                planned.append(rid)
                reasons[rid] = f"{t.a}–{t.b} ({t.points})"
    return Plan(tuple(planned), reasons, cost, tuple(impossible))


def _with_claims(state: GameState, claims: list[int]) -> GameState:
    from .board.state import replace_fields
    return replace_fields(state, claims=tuple(claims))


def _completed(v: Variant, state: GameState, seat: int, tid: str) -> bool:
    t = v.map.ticket(tid)
    found = cheapest_path(v, state, seat, t.a, t.b)
    return found is not None and found[0] == 0


class GreedyBot:
    """Plans cheapest paths for its tickets and works through them: claim a planned route when it can pay,
    else draw the colours the plan needs; with nothing left to plan, take long routes for points or more
    tickets while trains remain. Keeps the ticket subsets with the best points for the trains they need."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.name = "greedy"

    def choose(self, state: GameState, seat: int) -> tuple[Action, str]:
        if state.__class__ is not GameState:        # a game with its own rules module plays with its own bots
            return bots_of(state)(self.name, self.seed).choose(state, seat)
        action, why = self._choose(state, seat)
        v = get_variant(state.variant)
        for f in v.features:           # a variant may extend the choice (South Korea: express cards, province trains)
            if hasattr(f, "bot_improve"):
                action, why = f.bot_improve(v, state, seat, action, why)
        return action, why

    def _choose(self, state: GameState, seat: int) -> tuple[Action, str]:
        v = get_variant(state.variant)
        pending = state.pending_for(seat) if state.pending else None
        if pending is not None and pending.kind == "choose_tickets":
            return self._keep(v, state, seat, pending)
        if pending is not None and pending.kind != "second_card":
            for f in v.features:
                if pending.kind in f.pending_kinds and hasattr(f, "bot_pending"):
                    return f.bot_pending(v, state, pending)
            acts = legal_actions(state, seat)
            return acts[0], Reason("takes the first legal choice")
        p = state.players[seat]
        open_tickets = [t for t in p.tickets if not _completed(v, state, seat, t)]
        plan = plan_for(v, state, seat, open_tickets)
        hand = p.hand
        if pending is None:
            # 1. claim a planned route we can pay for (longest first)
            for rid in sorted(plan.routes, key=lambda x: (-v.map.route(x).length, x)):
                route = v.map.route(rid)
                if route.length > p.trains:
                    continue
                pay = self._payment(v, route, hand, plan)
                if pay is not None and not _twin_blocked(v, state, seat, route) and all(
                        f.bot_claim_ok(v, state, seat, route, pay) for f in v.features if hasattr(f, "bot_claim_ok")):
                    name = route_text(v.map, route)
                    return Claim(route=name, payment=pay, seat=seat), \
                        Reason(f"claims {name}: on the cheapest path for {plan.reasons[rid]}", f"claims {name}")
            for f in v.features:
                if hasattr(f, "bot_turn"):
                    choice = f.bot_turn(v, state, seat, plan)
                    if choice is not None:
                        return choice
            endgame = state.phase == "last_round" or p.trains <= 6
            if not plan.routes or endgame:
                # 2. nothing to plan (or the end is near): points from the longest affordable route
                best = None
                for route in claimable_routes(v, state, seat):
                    pay = self._payment(v, route, hand, plan)
                    if pay is not None and (best is None or route.length > best[0].length):
                        best = (route, pay)
                if best is not None and (endgame or best[0].length >= 3 or not state.deck):
                    route, pay = best
                    name = route_text(v.map, route)
                    pts = v.route_points(route.length)
                    points = f"claims {name} for {pts} point{'s' if pts != 1 else ''}"
                    return Claim(route=name, payment=pay, seat=seat), \
                        Reason(f"{points} (no ticket needs a route now)", points)
                if not plan.routes and p.trains >= 12 and state.ticket_deck(v.settings.ticket_deck) and state.phase == "play":
                    return DrawTickets(seat=seat), Reason("all its tickets are done or hopeless: draws new tickets",
                                                          "draws new tickets")
        # 3. draw cards the plan needs
        return self._draw(v, state, seat, plan, second=pending is not None)

    # -- helpers -------------------------------------------------------------------------------
    def _payment(self, v: Variant, route, hand, plan: Plan):
        pays = route_payments(v, route, hand)
        if not pays:
            return None
        needed = self._needed_colours(v, plan)
        # fewest locomotives first; among those, the colour the plan needs least
        return min(pays, key=lambda pay: (dict(pay).get(LOCO, 0), sum(needed.get(k, 0) for k, _ in pay if k != LOCO), pay))

    @staticmethod
    def _needed_colours(v: Variant, plan: Plan) -> dict[int, int]:
        need: dict[int, int] = {}
        for rid in plan.routes:
            r = v.map.route(rid)
            if r.colour != GRAY:
                need[_colour_index(r.colour)] = need.get(_colour_index(r.colour), 0) + r.length
        return need

    def _draw(self, v: Variant, state: GameState, seat: int, plan: Plan, second: bool) -> tuple[Action, str]:
        hand = state.players[seat].hand
        need = self._needed_colours(v, plan)
        gray_need = sum(v.map.route(rid).length for rid in plan.routes if v.map.route(rid).colour == GRAY)
        wanted: list[tuple[int, int, str]] = []
        no_cards = not state.deck and not any(state.discard)     # USA-DRAW-8: then no card may be drawn at all
        for i, c in enumerate(() if no_cards else state.market):
            if c is None or c == LOCO:
                continue
            short = need.get(c, 0) - hand[c]
            if short > 0:
                wanted.append((-short, i, f"the plan still needs {short} {CARD_NAMES[c]}"))
            elif gray_need and hand[c] == max(hand[: len(COLOURS)]):
                wanted.append((0, i, f"more {CARD_NAMES[c]} for a gray route"))
        if wanted:
            wanted.sort()
            _, i, why = wanted[0]
            took = f"takes face-up {CARD_NAMES[state.market[i]]}"
            return DrawFaceUp(slot=i + 1, seat=seat), Reason(f"{took}: {why}", took)
        if state.deck or any(state.discard):
            return DrawDeck(seat=seat), Reason("draws blind: no face-up card helps its plan", "draws blind")
        acts = legal_actions(state, seat)
        for a in acts:
            if isinstance(a, DrawFaceUp | DrawDeck | Claim):
                return a, Reason("the deck is empty: takes what is there")
        return acts[0], Reason("no useful action is left")

    def _keep(self, v: Variant, state: GameState, seat: int, pending) -> tuple[Action, str]:
        offered = pending.get("offered")
        need = min(pending.get("min_keep"), len(offered))
        p = state.players[seat]
        current = [t for t in p.tickets if not _completed(v, state, seat, t)]
        base = plan_for(v, state, seat, current).cost if current else 0
        best = None
        for size in range(need, len(offered) + 1):
            for combo in combinations(offered, size):
                plan = plan_for(v, state, seat, current + list(combo))
                if plan.impossible and any(t in plan.impossible for t in combo):
                    value = -1000 * len(plan.impossible)
                else:
                    extra = plan.cost - base
                    points = sum(v.map.ticket(t).points for t in combo)
                    over = max(0, plan.cost - (p.trains - 5))
                    value = points - 0.55 * extra - 3 * over
                key = (value, -size, combo)
                if best is None or key > best[0]:
                    best = (key, combo)
        combo = best[1]
        names = tuple(ticket_text(v.map, t) for t in combo)
        n = len(combo)
        return KeepTickets(tickets=names, seat=seat), Reason(
            f"keeps {', '.join(names)}: the best points for the trains they need",
            f"keeps {n} ticket{'s' if n != 1 else ''}")


def _twin_blocked(v: Variant, state: GameState, seat: int, route) -> bool:
    from .board.engine import twin_problem
    return route.double_group is not None and twin_problem(v, state, seat, route) is not None


class MixedBot:
    """The strength dial: with probability ``strength`` a greedy move, otherwise a random one (0 = random, 1 = greedy)."""

    def __init__(self, strength: float = 0.5, seed: int = 0):
        if not isinstance(strength, int | float) or not 0.0 <= float(strength) <= 1.0:
            raise TTRError(f"bot strength must be between 0 and 1, got {strength!r}")
        self.strength = float(strength)
        self.seed = seed
        self.name = f"mixed:{self.strength:g}"
        self._random = RandomBot(seed)
        self._greedy = GreedyBot(seed)

    def choose(self, state: GameState, seat: int) -> tuple[Action, str]:
        r = Counter(self.seed, seat, state.ply, state.seed, 1)
        if r.random() < self.strength:
            a, why = self._greedy.choose(state, seat)
            return a, _as_reason(why).prefixed("[greedy] ")
        a, why = self._random.choose(state, seat)
        return a, _as_reason(why).prefixed("[random] ")


def _as_reason(why: str) -> Reason:
    return why if isinstance(why, Reason) else Reason(why)


def make_bot(spec: str, seed: int = 0) -> Bot:
    """'random', 'greedy', or 'mixed:0.7' / a number 0–1 (the strength dial); 'coach' or 'coach:SECONDS' (the
    search of ``ttr_nb.coach``); a playing style: 'route_focus', 'destination_hungry', 'long_route', 'one_step'
    (``ttr_nb.coach.styles``); a student's bot file 'NAME.py' or function ``choose(view)``
    (``ttr_nb.tournament.StudentBot``, in this process)."""
    if callable(spec) or str(spec).strip().lower().endswith(".py"):
        from .tournament.contract import StudentBot
        return StudentBot(spec)
    text = str(spec).strip().lower()
    if text == "random":
        return RandomBot(seed)
    if text == "greedy":
        return GreedyBot(seed)
    if text == "coach" or text.startswith("coach:"):
        from .coach.bot import make_coach
        return make_coach(text, seed)
    from .coach.styles import STYLES
    if text.replace("-", "_").replace(" ", "_") in STYLES:
        return STYLES[text.replace("-", "_").replace(" ", "_")](seed)
    if text.startswith("mixed:"):
        text = text[6:]
    try:
        strength = float(text)
    except ValueError:
        raise TTRError(f"unknown bot {spec!r}: use random, greedy, mixed:STRENGTH (0–1), coach, coach:SECONDS, "
                       "route_focus, destination_hungry, long_route or one_step") from None
    return MixedBot(strength, seed)


__all__ = ["Bot", "Reason", "public_reason", "RandomBot", "GreedyBot", "MixedBot", "make_bot", "cheapest_path", "distances", "plan_for", "Plan"]
