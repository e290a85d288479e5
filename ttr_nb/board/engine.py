"""The rules engine: one protocol for every board variant.

    new_game(variant, players, seed)   -> GameState
    legal_actions(state, seat=None)    -> list[Action], complete (payment included), in a defined order
    apply(state, action)               -> GameState (pure; IllegalAction/BadAction leave ``state`` untouched)
    step(state, action)                -> (GameState, events)  — the same, with what happened on the way
    to_move(state)                     -> seats that may act now (several during the initial ticket choice)
    explain(state, action)             -> None if legal, else the IllegalAction/BadAction it would raise
    observe(state, seat)               -> what one seat may see (None: the whole table, for teachers)
    validate(state)                    -> every broken invariant, as text
    turn_status(state)                 -> where we are in the turn, in words, with the rule id

Rule ids from ``docs/rules/<game>.md`` are cited in every refusal, e.g. "a face-up locomotive may not be your
second card (USA-DRAW-4)".
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Callable, Iterable, Sequence

from .actions import (Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, Payment,
                      field_problem, parse_action, payment_words)
from .cards import CARD_NAMES, GRAY, LOCO, a_card, card_words
from ..errors import BadAction, IllegalAction, MapError, StateError, TTRError
from .names import find_route, find_ticket, route_labels, route_text, seat_name, ticket_text, ticket_words
from ..rng import shuffled
from .state import (FREE, GameState, Pending, PlayerState, _OpenPlayer, _OpenState, new_pending, new_player, new_state,
                    offer_terms, replace_fields)
from .tables import bits, claimable_mask, interned, route_payments
from ..variants import Variant, get_game, get_variant, rules_of


@dataclass(frozen=True, slots=True)
class Event:
    """Something rule-relevant that happened while an action was applied.

    ``text`` is the public wording, safe for every seat. Where the event involves a secret, ``seat`` is the seat
    it belongs to, ``private`` the full wording (for that seat and the teacher) and ``own`` the same addressed to
    that seat ("You drew a red card from the deck"). ``text_for(viewer)`` picks the right one; ``str(event)`` is
    the public wording with its rule id."""

    kind: str      # reshuffle, market_reset, market_reset_stopped, final_round, game_over, one_card, tickets_returned, claim, deck_card, ...
    rule: str
    text: str
    seat: int | None = None
    private: str | None = None
    own: str | None = None

    def text_for(self, viewer: int | None) -> str:
        """The wording ``viewer`` may read (None = the whole table, for teachers), without the rule id."""
        if viewer is None:
            return self.private or self.text
        if self.seat is not None and viewer == self.seat:
            return self.own or self.private or self.text
        return self.text

    def str_for(self, viewer: int | None) -> str:
        """``text_for(viewer)`` with the rule id, like ``str(event)``."""
        text = self.text_for(viewer)
        return f"{text} ({self.rule})" if self.rule else text

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})" if self.rule else self.text


# ---------------------------------------------------------------------------------------------
# the transaction: a mutable working copy, frozen into a new state at the end

class Tx:
    """The engine's mutable working copy of a state while an action is applied; ``freeze`` makes the new state.

    Features change the state only through it (``tx.players[seat] = ...``, ``tx.pending.append(...)``,
    ``tx.draw_card()`` ...), so a refused action changes nothing. The deck is read from the state's tuple and only
    copied into a list (``tx.deck``) when something needs the list; drawing from the top just counts."""

    __slots__ = ("v", "s", "events", "_deck", "_top", "market", "discard", "ticket_decks", "tickets_out", "claims",
                 "players", "pending", "phase", "current", "final_turns_left", "turn", "passes", "shuffles", "ext")

    def __init__(self, v: Variant, s: GameState, events: list | None):
        self.v = v
        self.s = s
        self.events = events
        self._deck = s.deck               # the state's tuple, of which ``_top`` cards are drawn; or a list
        self._top = 0
        self.market = list(s.market)
        self.discard = list(s.discard)
        self.ticket_decks = None          # copied on first use (see decks()): most actions never touch tickets
        self.tickets_out = s.tickets_out
        self.claims = s.claims          # a tuple; replaced (not mutated) when a route is claimed
        self.players = list(s.players)
        self.pending = list(s.pending)
        self.phase = s.phase
        self.current = s.current
        self.final_turns_left = s.final_turns_left
        self.turn = s.turn
        self.passes = s.passes
        self.shuffles = s.shuffles
        self.ext = s.ext

    @property
    def deck(self) -> list[int]:
        """The deck as a mutable list, top first (copied from the state on first use)."""
        d = self._deck
        if d.__class__ is not list:
            d = self._deck = list(d[self._top:])
            self._top = 0
        return d

    @deck.setter
    def deck(self, cards: list[int]) -> None:
        self._deck = list(cards)
        self._top = 0

    def deck_size(self) -> int:
        return len(self._deck) - self._top

    def event(self, kind: str, rule: str, text: str, seat: int | None = None, private: str | None = None,
              own: str | None = None) -> None:
        if self.events is not None:
            self.events.append(Event(kind, self.v.rule(rule) if rule else "", text, seat, private, own))

    # -- cards ---------------------------------------------------------------------------------
    def reshuffle(self) -> None:
        """USA-DRAW-7: the discard pile becomes the new deck."""
        n = sum(self.discard)
        if not n:
            return
        cards = []
        for k, c in enumerate(self.discard):         # a list per kind, not a comprehension's step per card
            cards += [k] * c
        self.shuffles += 1
        self.deck = shuffled(cards, self.s.seed, "deck", self.shuffles)
        self.discard = [0] * len(self.discard)
        self.event("reshuffle", "USA-DRAW-7", f"The deck ran out: the {n} discarded cards were shuffled into a new deck")

    def draw_card(self) -> int | None:
        d = self._deck
        top = self._top
        if top < len(d):
            if d.__class__ is list:
                return d.pop(0)
            self._top = top + 1
            return d[top]
        self.reshuffle()
        d = self.deck
        return d.pop(0) if d else None

    def discard_cards(self, payment: Payment) -> None:
        for k, n in payment:
            self.discard[k] += n

    def refill_market(self) -> None:
        for i, c in enumerate(self.market):
            if c is None:
                self.market[i] = self.draw_card()
        self.check_market()

    def check_market(self) -> None:
        """USA-DRAW-6: 3 face-up locomotives → all 5 discarded and 5 new turned up, while it happens again.

        Stops when it cannot be avoided: fewer non-locomotive cards exist outside the hands than a legal market
        needs, or (interpretation) after ``max_market_resets`` resets in a row.
        """
        st = self.v.settings
        limit = st.market_loco_limit
        kinds = st.market_reset_kinds
        if len(kinds) == 1 and self.market.count(kinds[0]) < limit:
            return                             # the usual case, quickly
        resets = 0
        while True:
            kind = next((k for k in st.market_reset_kinds if self.market.count(k) >= limit), None)
            if kind is None:
                return
            what = "locomotives" if kind == LOCO else f"{CARD_NAMES[kind]} cards"
            pool = [c for c in self.market if c is not None] + self.deck
            pool_total = len(pool) + sum(self.discard)
            non_loco = sum(1 for c in pool if c != kind) + sum(self.discard) - self.discard[kind]
            shown = min(st.market_size, pool_total)
            if non_loco < shown - (limit - 1) or resets >= st.max_market_resets:
                self.event("market_reset_stopped", "USA-DRAW-6",
                           f"Three face-up {what} again, but the remaining cards cannot avoid it: the market stays "
                           "(interpretation)")
                return
            resets += 1
            for c in self.market:
                if c is not None:
                    self.discard[c] += 1
            self.market = [None] * st.market_size
            for i in range(st.market_size):
                self.market[i] = self.draw_card()
            self.event("market_reset", "USA-DRAW-6", f"Three face-up {what}: all five were discarded and five new cards turned up")

    # -- players -------------------------------------------------------------------------------
    def change_hand(self, seat: int, payment: Payment | Iterable[tuple[int, int]], sign: int) -> None:
        p = self.players[seat]
        hand = list(p.hand)
        for k, n in payment:
            hand[k] += sign * n
        self.players[seat] = new_player(tuple(hand), p.trains, p.tickets, p.route_points, p.ext)

    def give_card(self, seat: int, card: int) -> None:
        p = self.players[seat]
        hand = p.hand
        self.players[seat] = new_player(hand[:card] + (hand[card] + 1,) + hand[card + 1:], p.trains, p.tickets,
                                     p.route_points, p.ext)

    def set_player(self, seat: int, **changes) -> None:
        self.players[seat] = replace_fields(self.players[seat], **changes)

    def claim_route(self, seat: int, route, payment: Payment) -> None:
        """USA-CLAIM-4: cards to the discard pile, trains on the spaces, points at once (USA-CLAIM-9)."""
        p = self.players[seat]
        hand = list(p.hand)
        discard = self.discard
        for k, n in payment:
            hand[k] -= n
            discard[k] += n
        i = route.index
        points = self.v.route_table.points[i]
        self.players[seat] = new_player(tuple(hand), p.trains - route.length, p.tickets, p.route_points + points, p.ext)
        old = self.claims
        self.claims = old[:i] + (seat,) + old[i + 1:]
        self.v.route_table.claimed(old, self.claims, i, seat)
        if self.events is not None:
            self.event("claim", "USA-CLAIM-9", f"{seat_name(seat)} claimed {route_text(self.v.map, route)} ({route.length}) "
                                               f"for {points} point{'' if points == 1 else 's'}")

    # -- tickets -------------------------------------------------------------------------------
    def decks(self) -> dict[str, list[str]]:
        """The ticket decks, as mutable lists (copied from the state on first use)."""
        if self.ticket_decks is None:
            self.ticket_decks = {name: list(ids) for name, ids in self.s.ticket_decks}
        return self.ticket_decks

    def offer_tickets(self, seat: int, deck: str, n: int, min_keep: int, returns: str) -> None:
        decks = self.decks()
        pile = decks.setdefault(deck, [])
        offered, decks[deck] = pile[:n], pile[n:]
        self.pending.append(Pending("choose_tickets", seat, (("min_keep", min_keep), ("offered", tuple(offered)), ("returns", returns))))

    def ticket_deck_of(self, ticket_id: str) -> str:
        return self.v.map.ticket(ticket_id).deck

    # -- turn ----------------------------------------------------------------------------------
    def end_turn(self) -> None:
        """Turn over: USA-END-1 trigger / countdown, then the next seat."""
        seat = self.current
        n = self.s.n_players
        if self.passes >= n:
            self.event("stalemate", "USA-DRAW-8", "No player could act for a whole round: the game ends (interpretation)")
            self.game_over()
            return
        if self.phase == "last_round":
            self.final_turns_left -= 1
            if self.final_turns_left <= 0:
                self.game_over()
                return
        elif self.phase == "play" and self.players[seat].trains <= self.v.settings.end_trains:
            self.phase = "last_round"
            self.final_turns_left = n
            self.event("final_round", "USA-END-1",
                       f"{seat_name(seat)} has {self.players[seat].trains} trains left: every player, "
                       f"{seat_name(seat)} included, gets one final turn")
        self.current = (seat + 1) % n
        self.turn += 1
        if self.current == self.s.first_player and self.v.features:     # a round of turns is over (MK-PASS-6)
            for f in self.v.features:
                f.on_round_end(self.v, self)

    def game_over(self) -> None:
        self.phase = "over"
        self.pending = []
        self.turn += 1
        for f in self.v.features:                  # the game's end ends the round under way too
            f.on_round_end(self.v, self)
        self.event("game_over", "USA-END-1", "The game is over: final scoring")

    def freeze(self) -> GameState:
        s = self.s
        market = self.market
        if None in market and (len(self._deck) > self._top or any(self.discard)):
            self.refill_market()       # USA-DRAW-2: an empty face-up slot is filled as soon as cards exist again
            market = self.market
        d = self._deck
        deck = tuple(d) if d.__class__ is list else d[self._top:] if self._top else d
        pending = self.pending
        return new_state(
            s.variant, s.n_players, s.seed, deck, tuple(market), tuple(self.discard),
            s.ticket_decks if self.ticket_decks is None else tuple(sorted((k, tuple(v)) for k, v in self.ticket_decks.items())),
            tuple(self.tickets_out), self.claims, tuple(self.players), self.phase, self.current,
            tuple(pending) if pending else (), self.final_turns_left, self.turn, s.ply + 1, self.passes, self.shuffles,
            s.first_player, self.ext)


# ---------------------------------------------------------------------------------------------
# setup

def new_game(variant: str | Variant = "usa", players: int = 4, seed: int = 0, *, first_player: int = 0) -> GameState:
    """Shuffle, deal 4 cards each, turn up 5, deal tickets (USA-SETUP-1..4). Seat ``first_player`` starts."""
    v = get_variant(variant)
    st = v.settings
    if isinstance(players, bool) or not isinstance(players, int) or not st.min_players <= players <= st.max_players:
        raise TTRError(f"{v.name} is for {st.min_players}–{st.max_players} players, got {players!r} ({v.rule('USA-COMP-5')})")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise TTRError(f"seed must be a whole number from 0 to 2**63-1, got {seed!r}")
    if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < players:
        raise TTRError(f"first_player must be a seat from 0 to {players - 1}, got {first_player!r}")
    t = v.route_table
    deck = tuple(shuffled(t.setup_cards, seed, "deck", 0))
    kinds = v.card_kinds
    hand_size = st.start_hand
    dealt = []
    for seat in range(players):                       # USA-SETUP-2: the top cards, start_hand to each seat in turn
        hand = [0] * kinds
        for c in deck[seat * hand_size:(seat + 1) * hand_size]:
            hand[c] += 1
        dealt.append(new_player(tuple(hand), st.trains, (), 0, ()))
    s0 = new_state(v.key, players, seed, deck, (None,) * st.market_size, (0,) * kinds,
                   tuple(sorted((name, tuple(shuffled(ids, seed, f"tickets/{name}", 0))) for name, ids in t.setup_tickets)),
                   (), (FREE,) * len(v.map.routes), tuple(dealt), "setup", first_player, (), -1, 0, -1, 0, 0,
                   first_player, ())                 # ply -1: the setup below makes it ply 0
    tx = Tx(v, s0, None)
    tx._top = players * hand_size                     # (those cards are in the hands)
    tx.refill_market()                                # USA-SETUP-2 + USA-DRAW-6
    if st.setup_deals:                                # USA-SETUP-3 (a feature may deal instead: Märklin)
        decks = tx.decks()
        for seat in range(players):
            offered: list[str] = []
            for deck_name, n in st.setup_deals:
                pile = decks.get(deck_name, [])
                offered += pile[:n]
                decks[deck_name] = pile[n:]
            tx.pending.append(new_pending("choose_tickets", seat, (("min_keep", st.setup_min_keep),
                                                                   ("offered", tuple(offered)),
                                                                   ("returns", st.setup_returns))))
    for deck_name in st.decks_out_after_setup:        # EU-SETUP-2
        tx.tickets_out = tuple(tx.tickets_out) + tuple(tx.decks().pop(deck_name, []))
    for f in v.features:
        f.setup(v, tx)
    return tx.freeze()


# ---------------------------------------------------------------------------------------------
# who acts

def to_move(state: GameState) -> tuple[int, ...]:
    if state.phase == "over":
        return ()
    pending = state.pending
    if pending:
        if len(pending) == 1:
            return _SEATS[pending[0].seat]
        seats = 0                                       # several seats choose at once (setup tickets, a draft)
        for p in pending:
            seats |= 1 << p.seat
        return _SEAT_SETS[seats]
    return _SEATS[state.current]


_SEATS = tuple((seat,) for seat in range(8))
#: the seats of a bit set, ascending (``to_move`` of several pending steps: a table read, no set sorted)
_SEAT_SETS = tuple(tuple(seat for seat in range(8) if seats >> seat & 1) for seats in range(256))


def _resolve(v: Variant, state: GameState, action: Action) -> tuple[int, Pending | None]:
    """Whose action this is and which pending step (if any) it answers; raises if it is not that seat's turn."""
    seat = getattr(action, "seat", None)
    if state.phase == "over":
        raise IllegalAction("the game is over: no more actions", v.rule("USA-END-1"), action, seat)
    if state.pending:
        seats = (state.pending[0].seat,) if len(state.pending) == 1 else to_move(state)
        if seat is None:
            if len(seats) > 1:
                names = ", ".join(seat_name(s).lower() for s in seats)
                raise IllegalAction(f"several players choose tickets at the same time ({names}); start the action with the "
                                    f"seat, e.g. '{seat_name(seats[0]).lower()}: {action.body()}'",
                                    v.rule("USA-SETUP-3"), action, None)
            seat = seats[0]
        if seat not in seats:
            raise IllegalAction(f"it is not {seat_name(seat)}'s turn: waiting for {', '.join(seat_name(s) for s in seats)}",
                                v.rule("USA-SETUP-3" if state.phase == "setup" else "USA-TURN-1"), action, seat)
        return seat, state.pending_for(seat)
    if seat is None:
        seat = state.current
    if not isinstance(seat, int) or not 0 <= seat < state.n_players:
        raise BadAction(f"{action}: there is no seat {seat!r} in a {state.n_players}-player game")
    if seat != state.current:
        raise IllegalAction(f"it is not {seat_name(seat)}'s turn: {seat_name(state.current)} is to play",
                            v.rule("USA-TURN-1"), action, seat)
    return seat, None


# ---------------------------------------------------------------------------------------------
# legality

def _deny(v: Variant, msg: str, rule: str, action, seat) -> IllegalAction:
    return IllegalAction(msg, v.rule(rule), action, seat)


def twin_problem(v: Variant, state: GameState, seat: int, route) -> tuple[str, str] | None:
    """USA-CLAIM-7/8: a player never owns two routes of a double; with 2–3 players only one is used."""
    for twin in v.map.twins(route.id):
        owner = state.claims[twin.index]
        if owner == seat:
            return (f"{seat_name(seat)} already owns the parallel route {route_text(v.map, twin)} between {route.a} and "
                    f"{route.b}; one player may never claim both routes of a double route", "USA-CLAIM-7")
        if owner != FREE and state.n_players < v.settings.twin_min_players:
            return (f"the parallel route {route_text(v.map, twin)} is claimed by {seat_name(owner)}, and with "
                    f"{state.n_players} players only one route of a double route is used: {route_text(v.map, route)} "
                    "is closed", "USA-CLAIM-8")
    return None


def malformed_payment(v: Variant, payment) -> str | None:
    """A payment must be ((card kind, count > 0), ...) with each kind once (hand-built Action objects may not be)."""
    seen = set()
    try:
        for k, n in payment:
            if type(k) is not int or type(n) is not int:
                return f"a payment must be pairs of whole numbers (card kind, count), got {payment!r:.80}"
            if not 0 <= k < v.card_kinds:
                return "that payment names a card this variant does not use"
            if n <= 0:
                return f"every count in a payment must be at least 1, got {payment!r:.80}"
            if k in seen:
                return "a payment names the same card twice"
            seen.add(k)
    except (TypeError, ValueError):
        return f"a payment must be pairs of (card kind, count), got {payment!r:.80}"
    return None


def payment_problem(v: Variant, route, payment: Payment, hand: Sequence[int]) -> tuple[str, str] | None:
    """USA-CLAIM-1..3 (and feature rules such as ferries): is this a valid set of cards for the route?"""
    problem = _payment_shape(v, route, payment)
    if problem:
        return problem
    for k, n in payment:
        if hand[k] < n:
            return (f"the payment needs {n} {CARD_NAMES[k]} card{'s' if n != 1 else ''} but the hand holds {hand[k]}",
                    "USA-CLAIM-1")
    return None


def _payment_shape(v: Variant, route, payment: Payment) -> tuple[str, str] | None:
    """``payment_problem`` without the hand: the same answer for the same route and payment (cached per variant)."""
    shapes = v.route_table.shapes
    key = (route.index, payment)
    try:
        return shapes[key]
    except KeyError:
        pass
    except TypeError:                                  # an unhashable payment (hand-built): no cache
        return _shape_problem(v, route, payment)
    # A route's first sight of a payment costs a _shape_problem (a few µs: its generator expressions), and over 300
    # random games there were about 4 a Märklin game (its extra cards make many shapes), 3 a USA game. When no
    # feature judges payments by more than their shape, a payment that fits one route fits every route of the same
    # colour and length, so fits are also kept under (colour, length, payment), a key of three (a route's has two):
    # 1.4 misses a Märklin game, 0.8 a USA game. Refusals are worked out per route: their words name it.
    like = (route.colour, route.length, payment)
    if like in shapes:
        found = shapes[key] = None
    else:
        found = shapes[key] = _shape_problem(v, route, payment)
        if found is None and _shapes_alike(v):
            shapes[like] = None
    return found


def _shapes_alike(v: Variant) -> bool:
    """Whether ``_shape_problem`` judges a payment by the route's colour and length alone: no feature of ``v`` has a
    ``claim_payment_problem`` of its own (Europe's ferries have). Kept per variant."""
    found = v.__dict__.get("_shapes_alike")
    if found is None:
        found = v.__dict__["_shapes_alike"] = not any(f.overrides("claim_payment_problem") for f in v.features)
    return found


def _fits(v: Variant, route, payment) -> bool:
    """Whether ``payment`` is one the engine made (interned) and fits ``route`` by its shape (``_payment_shape``);
    if so its id joins the route's ``RouteTable.fits``, where the quick path finds it next time."""
    if interned(payment) and _payment_shape(v, route, payment) is None:
        v.route_table.fits[route.index].add(id(payment))
        return True
    return False


def _shape_problem(v: Variant, route, payment: Payment) -> tuple[str, str] | None:
    if any(not 0 <= k < v.card_kinds for k, _ in payment):     # well-formed: check() ran malformed_payment
        return "that payment names a card this variant does not use", "USA-CLAIM-1"
    size = sum(n for _, n in payment)
    if size != route.length:
        for f in v.features:                    # e.g. South Korea: more cards only with a province placement
            problem = f.claim_size_problem(v, route, size)
            if problem:
                return problem
        return (f"{route.a}–{route.b} has {route.length} spaces, so it takes exactly {route.length} cards; "
                f"the payment has {size}", "USA-CLAIM-1")
    wilds = v.settings.wilds
    colours = [k for k, _ in payment if all(k != w for w, _, _ in wilds)]
    for k in colours:
        if k >= LOCO:
            return (f"{card_words(k)} cannot pay for a route", "USA-CLAIM-1")
    for w, shortest, rule in wilds:
        if route.length < shortest and any(k == w for k, _ in payment):
            return (f"{card_words(w)} are wild only on routes of {shortest} or more spaces; "
                    f"{route.a}–{route.b} has {route.length}", rule)
    if len(colours) > 1:
        return ("all cards played for a route must be of one colour (locomotives may stand in): "
                f"the payment mixes {' and '.join(CARD_NAMES[k] for k in colours)}", "USA-CLAIM-1")
    if colours and route.colour != GRAY and CARD_NAMES[colours[0]] != route.colour:
        return (f"{route.a}–{route.b} is a {route.colour} route: it takes {route.colour} cards (or locomotives), "
                f"not {CARD_NAMES[colours[0]]}", "USA-CLAIM-2")
    for f in v.features:
        problem = f.claim_payment_problem(v, route, payment)
        if problem:
            return problem
    return None


def claim_problem(v: Variant, state: GameState, seat: int, route, payment: Payment | None) -> tuple[str, str] | None:
    owner = state.claims[route.index]
    if owner != FREE:
        return f"{route_text(v.map, route)} is already claimed by {seat_name(owner)}", "USA-CLAIM-5"
    if route.double_group is not None:
        problem = twin_problem(v, state, seat, route)
        if problem:
            return problem
    trains = state.players[seat].trains
    if trains < route.length:
        return (f"{route.a}–{route.b} needs {route.length} trains but {seat_name(seat)} has only {trains} left",
                "USA-CLAIM-4")
    if payment is not None:
        return payment_problem(v, route, payment, state.players[seat].hand)
    return None


def _can_draw(deck: Sequence[int], discard: Sequence[int]) -> bool:
    """USA-DRAW-8 (Swedish rule book, literally): with deck and discard pile both empty, no train card may be
    drawn at all — face-up cards included (Märklin keeps its face-up cards then: ``faceup_without_deck``)."""
    return bool(deck) or any(discard)


def check(state: GameState, action: Action | str) -> tuple[Action, int]:
    """Raise the IllegalAction/BadAction ``action`` would raise; else return it with its seat filled in."""
    v = _VARIANTS.get(state.variant) or _variant(state)
    seat = _plainly_legal(v, state, action)
    if seat is not None:
        return action, seat
    if isinstance(action, str):
        action = parse_action(action)
    elif not isinstance(action, Action):
        raise BadAction(f"an action must be text or an Action, got {type(action).__name__}")
    cls = action.__class__
    seat = getattr(action, "seat", None)
    if cls not in _BASE_ACTIONS or not (seat is None or (seat.__class__ is int and 0 <= seat < state.n_players)):
        problem = field_problem(action, state.n_players)    # a hand-built action: fields of their types, its seat
        if problem:
            raise BadAction(f"{action!r:.120}: {problem}")
        if cls not in _BASE_ACTIONS:                       # a feature's action, or a subclass of a base action
            cls = _base_class(cls)
    _check_fields(v, action, cls)                          # (the base actions' fields are checked here)
    seat, pending = _resolve(v, state, action)
    if getattr(action, "seat", None) is None:
        action = action.with_seat(seat)
    kind = pending.kind if pending else None
    feature = v.feature_for(action) if v.features else None
    if kind is not None and kind not in ("choose_tickets", "second_card"):
        if feature is None or kind not in feature.pending_kinds:
            raise _deny(v, f"{seat_name(seat)} must first finish the pending step ({kind.replace('_', ' ')})",
                        _pending_rule(v, pending), action, seat)
        feature.check(v, state, action, seat)
        canonical = getattr(feature, "canonical", None)       # e.g. South Korea: a draft pick named by its cities
        return (action if canonical is None else canonical(v, action)), seat
    if kind == "choose_tickets" and cls is not KeepTickets:
        raise _deny(v, f"{seat_name(seat)} must first choose which of the offered tickets to keep "
                       f"({ticket_words(v.map, pending.get('offered'))})", _pending_rule(v, pending), action, seat)
    if kind == "second_card" and cls is not DrawDeck and cls is not DrawFaceUp:
        raise _deny(v, f"{seat_name(seat)} has taken one card and must take a second one: a turn is exactly one action",
                    "USA-DRAW-1", action, seat)
    if feature is not None:
        feature.check(v, state, action, seat)
        canonical = getattr(feature, "canonical", None)       # e.g. Europe: the map's spelling of a station's city
        return (action if canonical is None else canonical(v, action)), seat
    if cls is DrawDeck:
        if not state.deck and not any(state.discard):
            raise _deny(v, "the deck and the discard pile are both empty: no train card can be drawn blind",
                        "USA-DRAW-8", action, seat)
    elif cls is DrawFaceUp:
        size = len(state.market)
        if not 1 <= action.slot <= size:
            raise BadAction(f"{action}: face-up cards are numbered 1–{size}")
        if not state.deck and not any(state.discard) and not v.settings.faceup_without_deck:
            raise _deny(v, "the deck and the discard pile are both empty: no train cards may be drawn, face-up ones "
                           "included (claim a route or draw tickets instead)", "USA-DRAW-8", action, seat)
        card = state.market[action.slot - 1]
        if card is None:
            raise _deny(v, f"face-up slot {action.slot} is empty (the deck and the discard pile ran out)",
                        "USA-DRAW-8", action, seat)
        if card == LOCO and kind == "second_card":
            raise _deny(v, "a face-up locomotive may not be taken as the second card", "USA-DRAW-4", action, seat)
    elif cls is Claim:
        t = v.route_table
        route = t.by_label.get(action.route) or _route(v, action)
        problem = claim_problem(v, state, seat, route, action.payment)
        if problem:
            raise _deny(v, problem[0], problem[1], action, seat)
        label = t.labels[route.index]
        pay = action.payment
        if label != action.route or not (interned(pay) or list(pay) == sorted(pay)):
            action = replace_fields(action, route=label, payment=tuple(sorted(pay)))
    elif cls is DrawTickets:
        st = v.settings
        if not st.ticket_deck:
            raise _deny(v, "in this game tickets are drawn by announcing how many to take from each ticket deck "
                           "(see the legal actions)", "USA-TICKET-1", action, seat)
        if not state.ticket_deck(st.ticket_deck):
            raise _deny(v, "the ticket deck is empty: no tickets can be drawn", "USA-TICKET-1", action, seat)
    elif cls is KeepTickets:
        if kind != "choose_tickets":
            raise _deny(v, "there are no offered tickets to choose from; draw tickets first", "USA-TICKET-2", action, seat)
        offered = pending.get("offered")
        ids = _ticket_ids(v, action)
        stray = [ref for ref, t in zip(action.tickets, ids) if t not in offered]
        if stray:
            named = [ticket_text(v.map, t) if t else ref for ref, t in zip(action.tickets, ids) if t not in offered]
            raise _deny(v, f"{', '.join(named)} {'was' if len(stray) == 1 else 'were'} not offered to {seat_name(seat)} "
                           f"(offered: {ticket_words(v.map, offered)})", _pending_rule(v, pending), action, seat)
        need = min(pending.get("min_keep"), len(offered))
        if len(action.tickets) < need:
            raise _deny(v, f"{seat_name(seat)} must keep at least {need} of the {len(offered)} offered tickets "
                           f"({ticket_words(v.map, offered)})", _pending_rule(v, pending), action, seat)
        canonical = tuple(ticket_text(v.map, t) for t in offered if t in ids)     # the order legal_actions lists
        if canonical != action.tickets:
            action = replace_fields(action, tickets=canonical)
    elif cls is Pass:
        others = [a for a in legal_actions(state, seat) if not isinstance(a, Pass)]
        if others:
            raise _deny(v, f"passing is only allowed when no action is possible; {seat_name(seat)} can still act "
                           f"(e.g. {others[0].body()})", "USA-TURN-1", action, seat)
    else:
        raise BadAction(f"{action}: this action is not part of {v.name}")
    return action, seat


#: the base game's actions, whose every field ``_check_fields`` checks (others go through ``field_problem``)
_BASE_ACTIONS = (DrawDeck, DrawFaceUp, Claim, DrawTickets, KeepTickets, Pass)
_PLAYING = frozenset(("play", "last_round"))
_BASE_OF: dict[type, type] = {}


def _base_class(cls: type) -> type:
    """The base action a feature's or a subclassed action is (``cls`` itself when it is none of them), per class."""
    found = _BASE_OF.get(cls)
    if found is None:
        found = _BASE_OF[cls] = next((c for c in _BASE_ACTIONS if issubclass(cls, c)), cls)
    return found


def _plainly_legal(v: Variant, state: GameState, action) -> int | None:
    """The seat of a draw or claim that is legal as it stands and already canonical (what bots and
    ``legal_actions`` hand in, mostly): the common case of ``check``, decided with a few lookups. None: anything
    else, which the full ``check`` then judges (and words, if it is refused)."""
    cls = action.__class__
    if cls is not DrawDeck and cls is not DrawFaceUp and cls is not Claim or state.phase not in _PLAYING:
        return None
    seat = action.seat
    current = state.current
    if seat != current or seat.__class__ is not int:
        return None
    pending = state.pending
    if pending and (len(pending) != 1 or pending[0].kind != "second_card" or pending[0].seat != seat):
        return None
    if v.features and v.feature_for(action) is not None:
        return None
    if cls is Claim:
        t = v.route_table
        route = t.by_label.get(action.route)
        pay = action.payment
        if pending or route is None:
            return None
        i = route.index
        player = state.players[seat]
        if (state.claims[i] != FREE or player.trains < route.length
                or id(pay) not in t.fits[i] and not _fits(v, route, pay)
                or t.twins[i] and twin_problem(v, state, seat, route) is not None):
            return None
        hand = player.hand
        for k, n in pay:
            if hand[k] < n:
                return None
        return seat
    if not state.deck and not any(state.discard):
        return None
    if cls is DrawFaceUp:
        slot = action.slot
        if slot.__class__ is not int or not 1 <= slot <= len(state.market):
            return None
        card = state.market[slot - 1]
        if card is None or card == LOCO and pending:
            return None
    return seat


_VARIANTS: dict[str, Variant] = {}       # board variants by key, filled by get_variant's first answer (see _variant)
# their quick_paths tables by key, for apply: a cached property is a non-data descriptor, which CPython 3.11 does not
# specialise the attribute load for, so v.quick_paths on every ply cost a full generic lookup
_QUICK_PATHS: dict[str, dict] = {}
# the same for what ends a turn (_turn_over): (the round end, end_trains) of v.route_table and v.settings by key,
# and for a face-up draw (_quick_draw): (market_reset_kinds, market_loco_limit) of v.settings. A Variant's __dict__
# is materialised (its cached properties write it): CPython 3.11 then specialises a load of a cached property such as
# v.route_table not at all and a field such as v.settings only through a dict hint (dis(..., adaptive=True) after a
# game shows LOAD_ATTR_ADAPTIVE and LOAD_ATTR_WITH_HINT), at every turn's end and face-up draw
_TURN_TERMS: dict[str, tuple] = {}
_RESET_TERMS: dict[str, tuple] = {}


def _variant(state: GameState) -> Variant:
    v = _VARIANTS.get(state.variant)
    if v is None:
        v = get_variant(state.variant)
        if v.key == state.variant:
            _VARIANTS[v.key] = v
            _QUICK_PATHS[v.key] = v.quick_paths
            _TURN_TERMS[v.key] = _turn_terms(v)
            _RESET_TERMS[v.key] = _reset_terms(v)
    return v


def _turn_terms(v: Variant) -> tuple:
    """(round end, end_trains): what ``_turn_over`` reads of ``v`` (see ``_TURN_TERMS``). The round end is the
    features' round-end hooks, () without any; a single hook with a ``quick_round_end`` (Märklin's passengers) is
    that bound method itself, which ``_turn_over`` calls without ``_round_end``'s frame and loop (a round's end is
    a quarter of a 4-player game's turns)."""
    hooks = v.route_table.round_end_hooks
    if len(hooks) == 1 and hooks[0].quick_round_end is not None:
        return hooks[0].quick_round_end, v.settings.end_trains
    return hooks, v.settings.end_trains


def _reset_terms(v: Variant) -> tuple:
    """(market_reset_kinds, market_loco_limit, [the last market a face-up draw made that shows no reset kind
    market_loco_limit times]): what ``_quick_draw`` reads of ``v`` (see ``_TURN_TERMS``) and remembers of it."""
    return v.settings.market_reset_kinds, v.settings.market_loco_limit, [None]


def _reset_kind(market, kinds: tuple, limit: int) -> int | None:
    """The first of ``kinds`` that ``market`` shows ``limit`` times or more (USA-DRAW-6: the market resets), or None."""
    for kind in kinds:
        if market.count(kind) >= limit:
            return kind
    return None


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


_DRAWS = (DrawDeck, DrawFaceUp)


def _check_fields(v: Variant, action: Action, kind: type | None = None) -> None:
    """Hand-built action objects get the checks the parser gives text (types, duplicates): BadAction."""
    seat = getattr(action, "seat", None)
    if seat is not None and seat.__class__ is not int:
        raise BadAction(f"{action!r}: seat must be a whole number or None, got {seat!r}")
    kind = kind or type(action)
    if kind is DrawDeck:
        return
    if kind is DrawFaceUp:
        if type(action.slot) is not int:
            raise BadAction(f"{action!r}: the face-up slot must be a whole number 1–5, got {action.slot!r}")
    elif kind is Claim:
        if not isinstance(action.route, str):
            raise BadAction(f"{action!r}: the route must be text: its cities, such as 'Denver–Omaha', or its id")
        if interned(action.payment):                  # a payment the engine listed: well formed
            return
        if not isinstance(action.payment, tuple):
            raise BadAction(f"{action!r}: the payment must be a tuple of (card kind, count) pairs")
        problem = malformed_payment(v, action.payment)
        if problem:
            raise BadAction(f"{action!r}: {problem}")
    elif kind is KeepTickets:
        if not isinstance(action.tickets, tuple) or not all(isinstance(t, str) for t in action.tickets):
            raise BadAction(f"{action!r}: the tickets must be a tuple of texts (each ticket's cities, or its id)")
        if len(set(action.tickets)) != len(action.tickets):
            raise BadAction(f"{action}: a ticket is named twice")


def _pending_rule(v: Variant, pending: Pending) -> str:
    if pending.kind == "choose_tickets":
        return pending.get("rule") or ("USA-SETUP-3" if pending.get("min_keep", 1) > 1 else "USA-TICKET-2")
    if pending.kind == "second_card":
        return "USA-DRAW-1"
    return pending.get("rule") or "USA-TURN-1"


def _route(v: Variant, action: Claim):
    try:
        return find_route(v.map, action.route)
    except MapError as e:
        raise BadAction(f"{action}: {e}") from None


def _ticket_ids(v: Variant, action: KeepTickets) -> list[str | None]:
    """The ticket ids a KeepTickets names (None for a name that is no ticket of the map); a ticket named twice
    (say by id and by cities) is refused."""
    ids: list[str | None] = []
    by_text = v.route_table.ticket_by_text
    for ref in action.tickets:
        tid = by_text.get(ref)
        if tid is None:
            try:
                tid = find_ticket(v.map, ref).id
            except MapError:
                tid = None
        if tid is not None and tid in ids:
            raise BadAction(f"{action}: the ticket {ticket_text(v.map, tid)} is named twice")
        ids.append(tid)
    return ids


def explain(state: GameState, action: Action | str) -> TTRError | None:
    """None when ``action`` is legal now, else the error that ``apply`` would raise (for teaching)."""
    try:
        check(state, action)
    except TTRError as e:
        return e
    return None


def is_legal(state: GameState, action: Action | str) -> bool:
    return explain(state, action) is None


# ---------------------------------------------------------------------------------------------
# apply

def apply(state: GameState, action: Action | str, *, trusted: bool = False) -> GameState:
    """The state after ``action``; IllegalAction/BadAction (nothing changes) if it is not legal now.

    ``trusted=True`` (internal, for playouts: ``Game.play_bots``, ``ttr-nb simulate``, the coach's searches) skips
    ``check``: only for an action this engine listed for this very state (``legal_actions``, or a ttr_nb bot's
    choice), which is then already canonical and has its seat. Anything else gives undefined results; the tests
    replay trusted games through the checked path and ``validate`` to keep the two the same."""
    return _apply(state, action, None, trusted)


def step(state: GameState, action: Action | str, *, trusted: bool = False) -> tuple[GameState, list[Event]]:
    """``apply`` with the events that happened on the way (``trusted`` as there)."""
    events: list[Event] = []
    return _apply(state, action, events, trusted), events


def _apply(state: GameState, action: Action | str, events: list | None, trusted: bool = False) -> GameState:
    v = _VARIANTS.get(state.variant) or _variant(state)
    if events is None:
        new = _quick(v, state, action, trusted)
        if new is not None:
            return new
    return _checked_general(v, state, action, events, trusted)


def _checked_general(v: Variant, state: GameState, action: Action | str, events: list | None,
                     trusted: bool) -> GameState:
    """``_general`` after ``check`` (unless ``trusted``): ``_apply`` once the quick path declined or was skipped."""
    if trusted:
        seat = action.seat
    else:
        action, seat = _check(state, action)
    return _general(v, state, action, seat, events)


def _general(v: Variant, state: GameState, action: Action, seat: int, events: list | None) -> GameState:
    """Any checked action, through a transaction (features hook in here)."""
    tx = Tx(v, state, events)
    pending = state.pending_for(seat) if state.pending else None
    if pending is not None and pending.kind not in ("choose_tickets", "second_card"):
        v.feature_for(action).apply(v, tx, action, seat)
        return tx.freeze()
    feature = v.feature_for(action) if v.features else None
    if feature is not None:
        tx.passes = 0
        feature.apply(v, tx, action, seat)
        return tx.freeze()
    cls = action.__class__
    if cls not in _BASE_ACTIONS:
        cls = _base_class(cls)
    if cls is DrawDeck or cls is DrawFaceUp:
        _apply_draw(tx, action, seat, second=pending is not None)
    elif cls is Claim:
        tx.passes = 0
        t = v.route_table
        route = t.by_label.get(action.route) or find_route(v.map, action.route)
        if not any(f.on_claim(v, tx, seat, route, action.payment) for f in t.claim_hooks):
            tx.claim_route(seat, route, action.payment)
            tx.end_turn()
    elif cls is DrawTickets:
        tx.passes = 0
        st = v.settings
        tx.offer_tickets(seat, st.ticket_deck, st.ticket_draw, st.ticket_min_keep, "bottom")
    elif cls is KeepTickets:
        _apply_keep(tx, action, seat, pending)
    elif cls is Pass:
        tx.passes += 1
        if tx.events is not None:
            tx.event("pass", "USA-DRAW-8", f"{seat_name(seat)} cannot do anything and passes (interpretation)")
        tx.end_turn()
    return tx.freeze()


def _quick(v: Variant, state: GameState, action, trusted: bool) -> GameState | None:
    """A card draw or a claim in mid-game, straight to the new state without a transaction: most plies of every
    game. Unless ``trusted``, only when the action is plainly legal and canonical (what bots and
    ``legal_actions`` hand in); None when anything is out of the ordinary (a refusal to word, a feature's action
    or pending step, a reshuffle, an empty face-up slot, a market reset, a feature that may take the claim over,
    the final round starting or the game ending): ``check`` and ``_general`` then take it, with the same result.
    A feature's own action goes to the feature's ``quick`` (``Feature.quick``) under the same contract."""
    try:
        quick = v.quick_paths[action.__class__]
    except KeyError:
        quick = _quick_path(v, action)
    return None if quick is None else quick(v, state, action, trusted)


def _quick_path(v: Variant, action) -> Callable | None:
    """The quick path ``_quick`` takes for actions of this class in ``v``, kept in ``v.quick_paths``: a base
    action's (``_QUICK``) unless a feature takes the class over, a feature's own action's ``Feature.quick``, else
    None (the general path only). The base quick paths leave the feature test to this table, made once per class
    instead of asked on every ply."""
    quick = _QUICK.get(action.__class__)
    feature = v.feature_for(action) if v.features else None
    if feature is not None:
        quick = None if quick is not None else feature.quick
    v.quick_paths[action.__class__] = quick
    return quick


_full = [()]                    # the last market tuple known to have no empty slot (see _is_full)


def _is_full(market: tuple) -> bool:
    """No empty slot (None) in ``market``, remembered for that tuple: ``None in market`` compares every card with
    None the slow way (about 750 instructions for five cards), and the quick paths see one market tuple for many
    plies (only a face-up draw or a reset makes a new one, full: it records it). They test ``market is _full[0]``
    first and call this only for another tuple; a tuple is immutable, so the identity answers exactly."""
    if None in market:
        return False
    _full[0] = market
    return True


def _plain_turn(v: Variant, state: GameState, action, seat) -> bool:
    """A claim or a ticket draw the quick paths may take: the seat to play (a plain int), no pending step, in play,
    a full market. (No feature takes the action over: ``_quick`` chose this path.)"""
    return not (seat != state.current or seat.__class__ is not int or state.pending or state.phase not in _PLAYING
                or state.market is not _full[0] and not _is_full(state.market))


def _quick_claim(v: Variant, state: GameState, action: Claim, trusted: bool) -> GameState | None:
    seat = action.seat
    if (seat != state.current or seat.__class__ is not int or state.pending or state.phase not in _PLAYING
            or state.market is not _full[0] and not _is_full(state.market)):     # _plain_turn, inline
        return None
    t = v.route_table
    route = t.by_label.get(action.route)
    if route is None:
        return None
    i = route.index
    pay = action.payment
    claims = state.claims
    players = list(state.players)
    p = players[seat]
    # (a claim the random bot just made for this very state, from claimable_mask and payment_tuple, is legal: the
    # bot leaves both in RouteTable.made, and the checks below are skipped for it)
    made = t.made
    if not trusted and (made[0] is not action or made[1] is not state):
        if claims[i] != FREE or p.trains < route.length or id(pay) not in t.fits[i] and not _fits(v, route, pay):
            return None
        twins = t.twins[i]
        if twins:                                   # twin_problem (USA-CLAIM-7/8), read from the claims
            small = state.n_players < t.twin_min_players
            for j in twins:
                owner = claims[j]
                if owner == seat or small and owner != FREE:
                    return None
    for f in t.claim_hooks:                  # a tunnel, a passenger to place: the feature's quick path, or the general one
        if f.takes_claim(v, state, seat, route):
            if f.quick is None:
                return None
            if not trusted:                  # checked above as _plainly_legal would, the hand too: the feature trusts it
                hand = p.hand
                for k, n in pay:
                    if hand[k] < n:
                        return None
            return f.quick(v, state, action, True)
    hand = list(p.hand)
    discard = list(state.discard)
    for k, n in pay:
        left = hand[k] - n
        if left < 0:
            return None
        hand[k] = left
        discard[k] += n
    new_claims = list(claims)
    new_claims[i] = seat
    new_claims = tuple(new_claims)
    q = _OpenPlayer()                        # new_player inline (see _turn_over)
    q.hand = tuple(hand)
    q.trains = p.trains - route.length
    q.tickets = p.tickets
    q.route_points = p.route_points + t.points[i]
    q.ext = p.ext
    q.__class__ = PlayerState
    players[seat] = q
    new = _turn_over(v, state, seat, state.deck, state.market, tuple(discard), new_claims, tuple(players))
    if new is not None:
        t.claimed(claims, new_claims, i, seat)
    return new


def _quick_draw(v: Variant, state: GameState, action, trusted: bool) -> GameState | None:
    seat = action.seat
    deck = state.deck
    market = state.market
    if (seat != state.current or seat.__class__ is not int or not deck or state.phase not in _PLAYING
            or market is not _full[0] and not _is_full(market)):
        return None
    pending = state.pending
    if pending and pending is not _SECOND_CARD[seat] and (len(pending) != 1 or pending[0].kind != "second_card"):
        return None
    discard = state.discard
    if action.__class__ is DrawDeck:
        card = deck[0]
        deck = deck[1:]
        took_loco = False
    else:
        slot = action.slot
        if slot.__class__ is not int or slot < 1:
            return None
        try:                                                         # (a slot past the market's end raises: no
            card = market[slot - 1]                                  # len() and second compare on every draw)
        except IndexError:
            return None
        # (took_loco set here, where the compare specialises with its jump; a bare == is CPython 3.11's generic one)
        if card == LOCO:
            if pending:
                return None
            took_loco = True
        else:
            took_loco = False
        shown = market
        market = list(market)
        new = market[slot - 1] = deck[0]                             # USA-DRAW-2: replaced at once
        try:                                                         # (v.settings', read by key: see _TURN_TERMS)
            kinds, limit, calm = _RESET_TERMS[state.variant]
        except KeyError:
            kinds, limit, calm = _reset_terms(v)
        # USA-DRAW-6: a market that shows no reset kind `limit` times (calm[0]: the last one a face-up draw made, a
        # tuple) can reset only when the new card is of a reset kind; the counts (a loop and list.count, about 1100
        # instructions) are taken only then, or from another market (a kept one: the reset is tried again)
        if (new in kinds or shown is not calm[0]) and _reset_kind(market, kinds, limit) is not None:
            reset = _quick_resets(v.settings, market, deck, state.discard)
            if reset is None:
                return None
            market, deck, discard = reset
            _full[0] = market = tuple(market)                       # full: a reset fills every slot
        else:
            deck = deck[1:]
            _full[0] = calm[0] = market = tuple(market)             # full (deck[0] took the slot), and calm
    players = list(state.players)
    p = players[seat]
    hand = list(p.hand)
    hand[card] += 1
    q = _OpenPlayer()                                               # new_player inline (see _turn_over)
    q.hand = tuple(hand)
    q.trains = p.trains
    q.tickets = p.tickets
    q.route_points = p.route_points
    q.ext = p.ext
    q.__class__ = PlayerState
    players[seat] = q
    if pending or took_loco:                                        # the second card, or USA-DRAW-3
        return _turn_over(v, state, seat, deck, market, discard, state.claims, tuple(players))
    if not deck and not any(discard):                               # USA-DRAW-8: no second card exists
        return None
    s = _OpenState()                                                # a first card: new_state inline (see _turn_over)
    s.variant = state.variant
    s.n_players = state.n_players
    s.seed = state.seed
    s.deck = deck
    s.market = market
    s.discard = discard
    s.ticket_decks = state.ticket_decks
    s.tickets_out = state.tickets_out
    s.claims = state.claims
    s.players = tuple(players)
    s.phase = state.phase
    s.current = seat
    s.pending = _SECOND_CARD[seat]
    s.final_turns_left = state.final_turns_left
    s.turn = state.turn
    s.ply = state.ply + 1
    s.passes = 0
    s.shuffles = state.shuffles
    s.first_player = state.first_player
    s.ext = state.ext
    s.__class__ = GameState
    return s


def _quick_resets(st, market: list, deck: tuple, discard: tuple) -> tuple[list, tuple, tuple] | None:
    """USA-DRAW-6 as ``Tx.check_market`` does it, for a full ``market`` whose replacement card was ``deck[0]``: all
    five discarded and five new turned up while it happens again, or the market kept when the remaining cards
    cannot avoid it. (market, deck left, discard); None when a reset would need a reshuffle (USA-DRAW-7): the
    general path. A variant that resets on several kinds (Märklin's two locomotives) resets on the first of them
    shown ``limit`` times, as ``Tx.check_market`` does."""
    kinds = st.market_reset_kinds
    limit = st.market_loco_limit
    size = st.market_size
    top = 1                                             # deck[0] is in the market already
    discard = list(discard)
    resets = 0
    while True:
        kind = _reset_kind(market, kinds, limit)
        if kind is None:
            break
        rest = len(deck) - top
        in_discard = sum(discard)
        non_loco = len(market) - market.count(kind) + rest - deck[top:].count(kind) + in_discard - discard[kind]
        if non_loco < min(size, len(market) + rest + in_discard) - (limit - 1) or resets >= st.max_market_resets:
            break                                       # it cannot be avoided: the market stays (interpretation)
        if rest < size:
            return None                                 # the reset would reshuffle the discards
        resets += 1
        for c in market:
            discard[c] += 1
        market = list(deck[top:top + size])
        top += size
    return market, deck[top:], tuple(discard)


def _quick_tickets(v: Variant, state: GameState, action: DrawTickets, trusted: bool) -> GameState | None:
    """Tickets drawn in mid-game (USA-TICKET-1): the top ones offered as a pending choice."""
    seat = action.seat
    if not _plain_turn(v, state, action, seat):
        return None
    st = v.settings
    name = st.ticket_deck
    n = st.ticket_draw
    pile = None
    decks = []
    for k, ids in state.ticket_decks:                # (a loop: a generator expression is a call, costlier)
        if k == name:
            if pile is None:
                pile = ids                           # the first deck of that name, as GameState.ticket_deck reads it
            ids = pile[n:]
        decks.append((k, ids))
    if not pile or not name:
        return None                                  # no tickets to draw here: check words the refusal
    decks.sort()
    decks = tuple(decks)
    pending = (new_pending("choose_tickets", seat, (("min_keep", st.ticket_min_keep), ("offered", pile[:n]),
                                                    ("returns", "bottom"))),)
    return new_state(state.variant, state.n_players, state.seed, state.deck, state.market, state.discard, decks,
                     state.tickets_out, state.claims, state.players, state.phase, seat, pending,
                     state.final_turns_left, state.turn, state.ply + 1, 0, state.shuffles, state.first_player, state.ext)


def _quick_keep(v: Variant, state: GameState, action: KeepTickets, trusted: bool) -> GameState | None:
    """Tickets kept, named as ``legal_actions`` names them: in mid-game (USA-TICKET-2) the others to the bottom of
    their deck and the turn over; at the setup (USA-SETUP-3) the same, and once every seat has chosen, play begins
    (USA-SETUP-4) after the features' ``quick_after_setup`` (a feature acting then without one: the general path).
    The others go to the bottom of their deck, or out of the game where the offer says so (EU-SETUP-4)."""
    seat = action.seat
    pending = state.pending
    phase = state.phase
    if seat.__class__ is not int or state.market is not _full[0] and not _is_full(state.market):
        return None
    starting = ()                                    # the features' after_setup, when this choice starts play
    if phase == "setup":
        p = state.pending_for(seat)
        if p is None:
            return None
        if len(pending) == 1:
            starting = tuple(f for f in v.features if f.overrides("after_setup"))
            if any(f.quick_after_setup is None for f in starting):
                return None
    elif seat == state.current and len(pending) == 1 and phase in _PLAYING:
        p = pending[0]
    else:
        return None
    t = v.route_table
    made = t.made
    if made[1] is state and made[0] is action:
        # the random bot's keep for this very state (bots._keep_made): one of legal_actions' choices of this
        # offer, its tickets read by position there, so the names need not be matched to the offer again
        _, _, kept, offered, returns = made
        if returns != "bottom" and returns != "out":
            return None
    else:
        min_keep, offered, returns = offer_terms(p.data)
        if p.kind != "choose_tickets" or p.seat != seat or returns != "bottom" and returns != "out":
            return None
        text = t.ticket_text
        names = action.tickets
        if names.__class__ is not tuple:
            return None                              # a hand-built action: check words what is wrong
        kept = []                                    # (a loop: a comprehension is a function call, costlier)
        shown = []
        for ticket in offered:
            name = text.get(ticket)
            if name in names:
                kept.append(ticket)
                shown.append(name)
        if len(kept) != len(names) or len(kept) < min(min_keep, len(offered)) or tuple(shown) != names:
            return None                              # not canonical, or refused: check and the general path
        kept = tuple(kept)
    decks = dict(state.ticket_decks)
    tickets_out = state.tickets_out
    if returns == "out":                             # EU-SETUP-4: the others leave the game
        tickets_out = tuple(tickets_out) + tuple(ticket for ticket in offered if ticket not in kept)
    else:
        deck_of = t.ticket_deck
        for ticket in offered:
            if ticket not in kept:
                deck = deck_of[ticket]
                decks[deck] = decks.get(deck, ()) + (ticket,)
    players = list(state.players)
    q = players[seat]
    players[seat] = new_player(q.hand, q.trains, q.tickets + kept, q.route_points, q.ext)
    if phase == "setup":
        rest = tuple(q for q in pending if q.seat != seat)
        for f in starting:                           # (rest is empty: play begins)
            f.quick_after_setup(v, state.seed, decks)
        return new_state(state.variant, state.n_players, state.seed, state.deck, state.market, state.discard,
                         tuple(sorted(decks.items())), tickets_out, state.claims, tuple(players),
                         "setup" if rest else "play", state.current if rest else state.first_player, rest,
                         state.final_turns_left, state.turn, state.ply + 1, state.passes, state.shuffles,
                         state.first_player, state.ext)
    return _turn_over(v, state, seat, state.deck, state.market, state.discard, state.claims, tuple(players),
                      tuple(sorted(decks.items())))


_QUICK = {DrawDeck: _quick_draw, DrawFaceUp: _quick_draw, Claim: _quick_claim, DrawTickets: _quick_tickets,
          KeepTickets: _quick_keep}


def _turn_over(v: Variant, state: GameState, seat: int, deck, market, discard, claims, players,
               ticket_decks=None, ext=None) -> GameState | None:
    """The state after ``seat``'s turn ended normally (``Tx.end_turn``), the final round starting or the game
    ending included (USA-END-1); None when a feature acts at the round's or the game's end (the general path
    words those). ``ticket_decks`` and ``ext``: the new ones, when the turn changed them (a feature's quick path)."""
    n = state.n_players
    phase = state.phase
    final = state.final_turns_left
    try:                                                        # (v's, read by key: see _TURN_TERMS)
        hooks, end_trains = _TURN_TERMS[state.variant]
    except KeyError:
        hooks, end_trains = _turn_terms(v)
    if phase == "last_round":
        final -= 1
        if final <= 0:                                          # USA-END-1: the game is over (``Tx.game_over``)
            if hooks:                                           # its end ends the round under way too (MK-PASS-6)
                players = _round_end(v, state, hooks, players) if hooks.__class__ is tuple else hooks(v, players)
                if players is None:
                    return None
            return new_state(state.variant, n, state.seed, deck, market, discard,
                             state.ticket_decks if ticket_decks is None else ticket_decks, state.tickets_out, claims,
                             players, "over", seat, (), final, state.turn + 1, state.ply + 1, 0, state.shuffles,
                             state.first_player, state.ext if ext is None else ext)
    elif phase == "play" and players[seat].trains <= end_trains:
        phase, final = "last_round", n                          # USA-END-1: every player gets one final turn
    if hooks and (seat + 1) % n == state.first_player:      # a round ends, and features may act then (MK-PASS-6)
        players = _round_end(v, state, hooks, players) if hooks.__class__ is tuple else hooks(v, players)
        if players is None:
            return None
    # new_state's body, inline: the turn's usual end (a second card, a claim, kept tickets) saves a call frame of
    # 20 arguments on most plies, about 75k instructions a 4-player game (cachegrind). The fields in declaration
    # order as new_state sets them; tests/test_engine_fastpaths.py compares the result with the general path's.
    s = _OpenState()
    s.variant = state.variant
    s.n_players = n
    s.seed = state.seed
    s.deck = deck
    s.market = market
    s.discard = discard
    s.ticket_decks = state.ticket_decks if ticket_decks is None else ticket_decks
    s.tickets_out = state.tickets_out
    s.claims = claims
    s.players = players
    s.phase = phase
    s.current = (seat + 1) % n
    s.pending = ()
    s.final_turns_left = final
    s.turn = state.turn + 1
    s.ply = state.ply + 1
    s.passes = 0
    s.shuffles = state.shuffles
    s.first_player = state.first_player
    s.ext = state.ext if ext is None else ext
    s.__class__ = GameState
    return s


def _round_end(v: Variant, state: GameState, hooks: tuple, players: tuple) -> tuple | None:
    """``players`` after the features' round end (``Tx.end_turn`` / ``Tx.game_over``): each feature's quick round end
    on them; None when a feature acts then without one (the general path words that)."""
    for f in hooks:
        quick = f.quick_round_end                               # (loaded once: a method's load is not specialised)
        if quick is not None:
            players = quick(v, players)                         # the feature's round end on the new players
        elif f.acts_at_round_end(v, state):
            return None
    return players


def _apply_draw(tx: Tx, action: DrawDeck | DrawFaceUp, seat: int, second: bool) -> None:
    tx.passes = 0
    if action.__class__ is DrawDeck or isinstance(action, DrawDeck):
        card = tx.draw_card()
        tx.give_card(seat, card)
        took_faceup_loco = False
        if tx.events is not None:
            name = a_card(card)
            tx.event("deck_card", "", f"{seat_name(seat)} drew a card from the deck", seat,
                     f"{seat_name(seat)} drew {name} from the deck", f"You drew {name} from the deck")
    else:
        i = action.slot - 1
        market = tx.market
        card = market[i]
        tx.give_card(seat, card)
        market[i] = tx.draw_card()             # USA-DRAW-2: replaced at once
        tx.check_market()                      # USA-DRAW-6
        took_faceup_loco = card == LOCO
    if second:
        tx.pending = [p for p in tx.pending if p.seat != seat]
        tx.end_turn()
        return
    if took_faceup_loco:                       # USA-DRAW-3
        if tx.events is not None:
            tx.event("one_card", "USA-DRAW-3", f"{seat_name(seat)} took a face-up locomotive: that is the whole turn")
        tx.end_turn()
        return
    if not tx.deck_size() and not any(tx.discard) and not (        # USA-DRAW-8 edge case: no second card exists
            tx.v.settings.faceup_without_deck and any(c is not None and c != LOCO for c in tx.market)):
        if tx.events is not None:
            tx.event("one_card", "USA-DRAW-8", f"No second card can be taken: {seat_name(seat)}'s turn ends with one card")
        tx.end_turn()
        return
    tx.pending.append(_second_card_pending(seat))


@lru_cache(maxsize=None)
def _second_card_pending(seat: int) -> Pending:
    return Pending("second_card", seat)


_SECOND_CARD = tuple((_second_card_pending(seat),) for seat in range(8))    # the pending tuple after a first card


def _apply_keep(tx: Tx, action: KeepTickets, seat: int, pending: Pending) -> None:
    offered = pending.get("offered")
    ids = _ticket_ids(tx.v, action)
    kept = tuple(t for t in offered if t in ids)
    returned = [t for t in offered if t not in ids]
    p = tx.players[seat]
    tx.set_player(seat, tickets=p.tickets + kept)
    if returned:
        if pending.get("returns") == "out":         # EU-SETUP-4
            tx.tickets_out = tuple(tx.tickets_out) + tuple(returned)
            where = "out of the game"
        else:                                      # USA-SETUP-3 / USA-TICKET-2: bottom of the deck
            for t in returned:
                tx.decks().setdefault(tx.ticket_deck_of(t), []).append(t)
            where = "to the bottom of the ticket deck"
        if tx.events is not None:
            m = tx.v.map
            tx.event("tickets_returned", _pending_rule(tx.v, pending),
                     # the move's own words already say how many were kept ("Blue keeps 2 tickets")
                     f"{seat_name(seat)} returned {len(returned)} ticket{'s' if len(returned) != 1 else ''} {where}",
                     seat, f"{seat_name(seat)} returned {ticket_words(m, returned)} {where}",
                     f"You returned {ticket_words(m, returned)} {where}")
    tx.pending = [q for q in tx.pending if q.seat != seat]
    if tx.phase == "setup":
        if not tx.pending:
            for f in tx.v.features:
                f.after_setup(tx.v, tx)
            tx.phase = "play"
            tx.current = tx.s.first_player
            if tx.events is not None:
                tx.event("setup_done", "USA-SETUP-4", f"Everyone has chosen tickets: {seat_name(tx.current)} starts")
    else:
        tx.passes = 0
        tx.end_turn()


# ---------------------------------------------------------------------------------------------
# legal actions

@lru_cache(maxsize=None)
def draw_deck_action(seat: int) -> DrawDeck:
    """Draw actions are immutable values: one shared object per seat (and slot) saves building them every ply."""
    return DrawDeck(seat=seat)


@lru_cache(maxsize=None)
def draw_faceup_action(slot: int, seat: int) -> DrawFaceUp:
    return DrawFaceUp(slot=slot, seat=seat)


def draw_actions(state: GameState, seat: int, second: bool) -> list[Action]:
    """The legal card draws (USA-DRAW-1..4, USA-DRAW-8): blind, then each face-up slot (no locomotive as second)."""
    return list(draw_choices(state, seat, second))


def draw_choices(state: GameState, seat: int, second: bool) -> tuple[Action, ...]:
    """``draw_actions`` as a shared tuple (for bots: nothing is built when every slot can be taken)."""
    market = state.market
    if not state.deck and not any(state.discard):           # not _can_draw(...) (USA-DRAW-8), inline
        if not _variant(state).settings.faceup_without_deck:
            return ()
        return tuple(draw_faceup_action(i + 1, seat)                   # MK-DRAW-1: the face-up cards remain
                     for i, c in enumerate(market) if c is not None and not (second and c == LOCO))
    # the key: the slots that cannot be taken (empty, or a locomotive as second) as bits above the market's size
    # (a few keys per seat: the cache stays small; an int key is cheap); every slot open, the usual, is the size
    if second:
        # (half of all draws: a five-slot market's locomotives read from two tables by card kind (_LOCO_KEY3/2),
        # where an empty slot raises; that costs less than looking for None and a locomotive and looping, or than
        # ors and shifts; other sizes take the loop)
        try:
            m0, m1, m2, m3, m4 = market
            key = _LOCO_KEY3[m0][m1][m2] + _LOCO_KEY2[m3][m4]
        except (ValueError, IndexError, TypeError):
            key = _shut_key(market, True)
    elif None in market:
        key = _shut_key(market, False)
    else:
        key = len(market)
    found = _DRAW_CHOICES[seat].get(key)
    if found is None:
        shut = key >> 4
        found = _DRAW_CHOICES[seat][key] = (draw_deck_action(seat),) + tuple(
            draw_faceup_action(i + 1, seat) for i in range(len(market)) if not shut >> i & 1)
    return found


_DRAW_CHOICES: defaultdict[int, dict[int, tuple[Action, ...]]] = defaultdict(dict)     # seat -> key -> draws
# per slot of a five-slot market, card kind -> that slot's bit in draw_choices' key when it is a locomotive
_LOCO_KEY = tuple(tuple(int(kind == LOCO) << slot + 4 for kind in range(len(CARD_NAMES))) for slot in range(5))
# the whole key of a five-slot market in two reads: slots 1-3 by their kinds (_LOCO_KEY3[m0][m1][m2]), and slots 4-5
# by theirs with the size, 5 (_LOCO_KEY2[m3][m4]): 13 bytecodes where the five reads of _LOCO_KEY and their sum were
# 32, about 600 fewer instructions a second card (cachegrind); an empty slot (None) or another kind still raises
_LOCO_KEY3 = tuple(tuple(tuple(_LOCO_KEY[0][a] + _LOCO_KEY[1][b] + _LOCO_KEY[2][c] for c in range(len(CARD_NAMES)))
                         for b in range(len(CARD_NAMES))) for a in range(len(CARD_NAMES)))
_LOCO_KEY2 = tuple(tuple(_LOCO_KEY[3][d] + _LOCO_KEY[4][e] + 5 for e in range(len(CARD_NAMES)))
                   for d in range(len(CARD_NAMES)))


def _shut_key(market: tuple, second: bool) -> int:
    """``draw_choices``' key for any market: the slots that cannot be taken as bits above the market's size."""
    shut = 0
    for i, c in enumerate(market):
        if c is None or second and c == LOCO:
            shut |= 1 << i
    return shut << 4 | len(market)


def legal_actions(state: GameState, seat: int | None = None) -> list[Action]:
    """Every legal action, complete and in a defined order, with its seat filled in.

    With pending steps for several seats (the initial ticket choice) and ``seat=None``, the actions of all
    of them, seat by seat.
    """
    if state.phase == "over":
        return []
    v = get_variant(state.variant)
    if state.pending:
        seats = to_move(state) if seat is None else (seat,)
        out: list[Action] = []
        for s in seats:
            p = state.pending_for(s)
            if p is not None:
                out += _pending_actions(v, state, p)
        return out
    if seat is not None and seat != state.current:
        return []
    seat = state.current
    out = turn_actions(v, state, seat)
    if not out:
        out.append(Pass(seat=seat))
    return out


def _pending_actions(v: Variant, state: GameState, p: Pending) -> list[Action]:
    if p.kind == "choose_tickets":
        offered = p.get("offered")
        need = min(p.get("min_keep"), len(offered))
        text = v.route_table.ticket_text
        names = tuple(text[t] if t in text else ticket_text(v.map, t) for t in offered)
        return [KeepTickets(tickets=combo, seat=p.seat)
                for size in range(len(names), need - 1, -1) for combo in combinations(names, size)]
    if p.kind == "second_card":
        return draw_actions(state, p.seat, second=True)
    for f in v.features:
        if p.kind in f.pending_kinds:
            return f.pending_actions(v, state, p)
    return []


def claimable_routes(v: Variant, state: GameState, seat: int, *, affordable_only: bool = False) -> list:
    """Routes ``seat`` may claim now (in route order): free, not a forbidden twin (USA-CLAIM-7/8), enough trains
    (USA-CLAIM-4); with ``affordable_only`` also payable from the hand (some legal payment exists)."""
    routes = v.route_table.routes
    return [routes[i] for i in bits(claimable_mask(v, state, seat, affordable_only))]


def turn_actions(v: Variant, state: GameState, seat: int) -> list[Action]:
    out = draw_actions(state, seat, second=False)
    hand = state.players[seat].hand
    labels = route_labels(v.map)
    for route in claimable_routes(v, state, seat, affordable_only=True):
        label = labels[route.index]
        out += [Claim(route=label, payment=pay, seat=seat) for pay in route_payments(v, route, hand)]
    if v.settings.ticket_deck and state.ticket_deck(v.settings.ticket_deck):
        out.append(DrawTickets(seat=seat))
    for f in v.features:
        out += f.turn_actions(v, state, seat)
    return out


# ---------------------------------------------------------------------------------------------
# what a learner sees

def turn_status(state: GameState, viewer: int | None = None) -> str:
    """Where we are in the turn, in words, with the rule that governs the step.

    ``viewer``: the seat reading it (offered tickets of other seats are not named); None = the whole table."""
    v = get_variant(state.variant)
    if state.phase == "over":
        return f"The game is over ({v.rule('USA-END-1')})."
    if state.phase == "setup":
        waiting = ", ".join(seat_name(s) for s in to_move(state))
        if state.pending and state.pending[0].kind != "choose_tickets":    # a feature's setup step (a draft)
            p = state.pending[0]
            return f"Setup: {p.get('text') or p.kind} — waiting for {waiting} ({v.rule(_pending_rule(v, p))})."
        return (f"Setup: each player keeps at least {v.settings.setup_min_keep} of the offered tickets, all at the same "
                f"time and in secret — waiting for {waiting} ({v.rule('USA-SETUP-3')}).")
    seat = state.current
    prefix = ""
    if state.phase == "last_round":
        prefix = f"Final round ({state.final_turns_left} turn{'s' if state.final_turns_left != 1 else ''} left, {v.rule('USA-END-1')}). "
    p = state.pending_for(seat) if state.pending else None
    name = seat_name(seat)
    if p is None:
        more = [w for f in v.features for w in getattr(f, "turn_words", ())]     # e.g. Europe: build a train station
        choices = ["draw train cards", "claim a route", "draw destination tickets", *more]
        return (prefix + f"{name} to play: {', '.join(choices[:-1])} or {choices[-1]} "
                f"({v.rule('USA-TURN-1')}).")
    if p.kind == "second_card":
        return prefix + f"{name}: take your second card — not a face-up locomotive ({v.rule('USA-DRAW-4')})."
    if p.kind == "choose_tickets":
        offered = p.get("offered")
        which = ticket_words(v.map, offered) if viewer is None or viewer == seat else f"the {len(offered)} offered tickets"
        return (prefix + f"{name}: keep at least {min(p.get('min_keep'), len(offered))} of "
                f"{which} ({v.rule(_pending_rule(v, p))}).")
    return prefix + f"{name}: {p.get('text') or p.kind.replace('_', ' ')} ({v.rule(_pending_rule(v, p))})."


PUBLIC = -1      # a viewer who is no seat: what every seat may read (describe(state, action, PUBLIC))


def describe(state: GameState, action: Action | str, viewer: int | None = None) -> str:
    """An action in plain words, e.g. 'Blue claims Denver–Omaha (4, purple) with 3 purple + 1 locomotive'.

    ``viewer``: the seat reading it; the tickets another seat keeps are then only counted ("Red keeps 2
    tickets"). None = the whole table (teacher view); ``PUBLIC`` = what every seat may read."""
    v = get_variant(state.variant)
    if isinstance(action, str):
        action = parse_action(action)
    elif not isinstance(action, Action):
        raise BadAction(f"an action must be text or an Action, got {type(action).__name__}")
    problem = field_problem(action, state.n_players)
    if problem is None and getattr(action, "payment", None) is not None:
        problem = malformed_payment(v, action.payment)
    if problem:
        raise BadAction(f"{action!r:.120}: {problem}")
    seat = getattr(action, "seat", None)
    if seat is None:
        acting = to_move(state)
        seat = acting[0] if len(acting) == 1 else state.current
    who = seat_name(seat)
    if isinstance(action, DrawDeck):
        return f"{who} draws the top card of the deck"
    if isinstance(action, DrawFaceUp):
        card = state.market[action.slot - 1] if 0 < action.slot <= len(state.market) else None
        return f"{who} takes face-up card {action.slot}" + (f" ({CARD_NAMES[card]})" if card is not None else "")
    if isinstance(action, Claim):
        try:
            r = find_route(v.map, action.route)
        except MapError:
            return f"{who} claims unknown route {action.route}"
        if r.tunnel:     # the claim is only settled after the three cards are turned up (EU-TUNNEL-2)
            return (f"{who} tries the tunnel {r.a}–{r.b} ({r.length}, {r.colour}) with "
                    f"{payment_words(action.payment)}")
        return f"{who} claims {r.a}–{r.b} ({r.length}, {r.colour}) with {payment_words(action.payment)}"
    if isinstance(action, DrawTickets):
        return f"{who} draws destination tickets"
    if isinstance(action, KeepTickets):
        n = len(action.tickets)
        if viewer is not None and viewer != seat:
            return f"{who} keeps {n} ticket{'s' if n != 1 else ''}"
        names = []
        for t in action.tickets:
            try:
                names.append(ticket_words(v.map, [find_ticket(v.map, t).id]))
            except MapError:
                names.append(t)
        return f"{who} keeps " + (", ".join(names) if names else "no tickets")
    if isinstance(action, Pass):
        return f"{who} passes: no action is possible"
    if hasattr(action, "describe"):                  # a variant's own action (e.g. Europe's station and tunnel steps)
        own = getattr(action, "describe_own", None)   # its words with what only its seat may know (the teacher too)
        if own is not None and (viewer is None or viewer == seat):
            return f"{who} {own(v, state)}"
        return f"{who} {action.describe(v, state)}"
    return f"{who}: {action.body()}"


def closed_routes(state: GameState) -> list[str]:
    """Free routes nobody may claim any more: the twin of a claimed double route with fewer than
    ``twin_min_players`` players (USA-CLAIM-8). Derived from the claims, never stored."""
    v = get_variant(state.variant)
    if state.n_players >= v.settings.twin_min_players:
        return []
    claims = state.claims
    t = v.route_table
    return [r.id for r in t.routes
            if claims[r.index] == FREE and any(claims[j] != FREE for j in t.twins[r.index])]


def board_marks(state: GameState) -> dict:
    """What a board plot shows of a state: route owners, closed twins, and the marks features add
    (Europe: ``stations`` city → seat). Public information only."""
    v = get_variant(state.variant)
    marks = {"owners": {r.id: state.claims[r.index] for r in v.map.routes if state.claims[r.index] != FREE},
             "closed": closed_routes(state), "stations": {}}
    for f in v.features:
        f.board_marks(v, state, marks)
    return marks


def observe(state: GameState, seat: int | None = None) -> dict:
    """What ``seat`` may see; ``None`` = the whole table (teacher view). Deck order is hidden from everyone.

    Public: the market, the discard pile (cards are discarded face up), claims, trains, points scored during
    play, hand sizes and ticket counts. Private to their owner: hand contents, tickets, offered tickets.
    """
    v = get_variant(state.variant)
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.n_players):
        raise TTRError(f"there is no seat {seat!r} in a {state.n_players}-player game")
    players = []
    for i, p in enumerate(state.players):
        visible = seat is None or seat == i
        entry = {"seat": i, "name": seat_name(i), "trains": p.trains, "route_points": p.route_points,
                 "hand_size": p.hand_size, "ticket_count": len(p.tickets)}
        if visible:
            entry["hand"] = {CARD_NAMES[k]: n for k, n in enumerate(p.hand) if n}
            entry["tickets"] = list(p.tickets)
        players.append(entry)
    pending = []
    for p in state.pending:
        entry = {"kind": p.kind, "seat": p.seat}
        if seat is None or seat == p.seat:
            entry["data"] = p.to_dict()["data"]
        elif p.kind == "choose_tickets":
            entry["offered_count"] = len(p.get("offered"))
        pending.append(entry)
    view = {
        "variant": state.variant, "viewer": seat, "n_players": state.n_players, "phase": state.phase,
        "current": state.current, "turn": state.turn, "ply": state.ply, "final_turns_left": state.final_turns_left,
        "market": [None if c is None else CARD_NAMES[c] for c in state.market],
        "deck_size": len(state.deck), "discard": {CARD_NAMES[k]: n for k, n in enumerate(state.discard) if n},
        "ticket_deck_sizes": {name: len(ids) for name, ids in state.ticket_decks},
        "tickets_out_count": len(state.tickets_out), "claims": list(state.claims), "players": players,
        "pending": pending, "status": turn_status(state, seat),
    }
    for f in v.features:
        f.observe(v, state, seat, view)
    return view


# ---------------------------------------------------------------------------------------------
# invariants

def validate(state: GameState) -> list[str]:
    """Every broken invariant, in words (empty list = a position the rules can reach)."""
    problems: list[str] = []
    try:
        v = get_variant(state.variant)
    except TTRError as e:
        return [str(e)]
    m = v.map
    st = v.settings
    n = state.n_players
    if not st.min_players <= n <= st.max_players:
        problems.append(f"{n} players: {v.name} is for {st.min_players}–{st.max_players} ({v.rule('USA-COMP-5')})")
    if len(state.players) != n:
        problems.append(f"{len(state.players)} player entries for {n} players")
        return problems
    from .featuredata import data_problems
    problems += data_problems(v, state)            # feature data: this variant's, well formed, before it is read
    if problems:
        return problems
    kinds = v.card_kinds
    # cards (USA-COMP-3)
    totals = [0] * kinds
    bad_card = False
    for c in state.deck:
        if not 0 <= c < kinds:
            bad_card = True
        else:
            totals[c] += 1
    for c in state.market:
        if c is not None:
            if 0 <= c < kinds:
                totals[c] += 1
            else:
                bad_card = True
    for pile_name, counts in [("discard pile", state.discard)] + [(f"{seat_name(i)}'s hand", p.hand) for i, p in enumerate(state.players)]:
        if len(counts) != kinds:
            problems.append(f"{pile_name} has {len(counts)} card kinds, expected {kinds}")
            continue
        for k, c in enumerate(counts):
            if c < 0:
                problems.append(f"{pile_name} has {c} {CARD_NAMES[k]} cards (negative)")
            totals[k] += c
    for f in v.features:
        for c in f.held_cards(state):
            totals[c] += 1
    if bad_card:
        problems.append("a pile holds an unknown card kind")
    for k in range(kinds):
        if totals[k] != v.deck_counts[k]:
            problems.append(f"{CARD_NAMES[k]} cards: {totals[k]} in play but the game has {v.deck_counts[k]} "
                            f"({v.rule('USA-COMP-3')})")
    if len(state.market) != st.market_size:
        problems.append(f"the market has {len(state.market)} slots, expected {st.market_size}")
    if any(c is None for c in state.market) and (state.deck or any(state.discard)):
        problems.append(f"a face-up slot is empty although cards remain to fill it ({v.rule('USA-DRAW-2')})")
    # routes and trains (USA-CLAIM-4/7/8, USA-COMP-2)
    if len(state.claims) != len(m.routes):
        problems.append(f"claims list has {len(state.claims)} entries but the map has {len(m.routes)} routes")
        return problems
    used = [0] * n
    points = [0] * n
    for r in m.routes:
        owner = state.claims[r.index]
        if owner == FREE:
            continue
        if not 0 <= owner < n:
            problems.append(f"route {r.id} is owned by seat {owner}, which does not exist")
            continue
        used[owner] += r.length
        points[owner] += v.route_points(r.length)
    seen_groups: set[str] = set()
    for r in m.routes:
        if r.double_group is None or r.double_group in seen_groups:
            continue
        seen_groups.add(r.double_group)
        members = [r] + list(m.twins(r.id))
        owners = [state.claims[x.index] for x in members if state.claims[x.index] != FREE]
        if len(owners) != len(set(owners)):
            problems.append(f"one player owns two routes of the double route {r.a}–{r.b} ({v.rule('USA-CLAIM-7')})")
        if n < st.twin_min_players and len(owners) > 1:
            problems.append(f"both routes of {r.a}–{r.b} are claimed in a {n}-player game ({v.rule('USA-CLAIM-8')})")
    for i, p in enumerate(state.players):
        if p.trains < 0:
            problems.append(f"{seat_name(i)} has {p.trains} trains (negative)")
        placed = used[i] + sum(f.trains_elsewhere(state, i) for f in v.features)
        if p.trains + placed != st.trains:
            problems.append(f"{seat_name(i)} has {p.trains} trains left and {placed} on the board: that is not "
                            f"{st.trains} ({v.rule('USA-COMP-2')})")
        if p.route_points != points[i]:
            problems.append(f"{seat_name(i)}'s route points are {p.route_points} but the claimed routes are worth "
                            f"{points[i]} ({v.rule('USA-CLAIM-9')})")
    # tickets: each exactly once
    where: dict[str, list[str]] = {}
    for name, ids in state.ticket_decks:
        for t in ids:
            where.setdefault(t, []).append(f"the {name} ticket deck")
    for t in state.tickets_out:
        where.setdefault(t, []).append("out of the game")
    for i, p in enumerate(state.players):
        for t in p.tickets:
            where.setdefault(t, []).append(f"{seat_name(i)}'s tickets")
    for pend in state.pending:
        for t in pend.get("offered", ()) if pend.kind == "choose_tickets" else ():
            where.setdefault(t, []).append(f"offered to {seat_name(pend.seat)}")
    for f in v.features:
        for t, place in f.held_tickets(state):
            where.setdefault(t, []).append(place)
    known = {t.id for t in m.tickets}
    for t in sorted(where):
        if t not in known:
            problems.append(f"ticket {t} does not exist on the {m.name} map")
        elif len(where[t]) > 1:
            problems.append(f"ticket {t} is in several places: {', '.join(where[t])}")
    for t in sorted(known - set(where)):
        problems.append(f"ticket {t} is missing (not in a deck, a hand, an offer or out of the game)")
    # turn structure
    if state.phase == "setup":
        owned = {k for f in v.features for k in f.pending_kinds}
        if not state.pending or any(p.kind != "choose_tickets" and p.kind not in owned for p in state.pending):
            problems.append("in setup every pending step must be an initial ticket choice")
    elif state.phase in ("play", "last_round"):
        if len(state.pending) > 1:
            problems.append("during play at most one step can be pending")
        for p in state.pending:
            if p.seat != state.current:
                problems.append(f"{seat_name(p.seat)} has a pending step but it is {seat_name(state.current)}'s turn")
    elif state.phase == "over" and state.pending:
        problems.append("the game is over but steps are still pending")
    if (state.phase == "last_round") != (state.final_turns_left > 0):
        problems.append(f"phase {state.phase!r} does not fit final_turns_left = {state.final_turns_left} ({v.rule('USA-END-1')})")
    if state.phase == "last_round" and state.final_turns_left > n:
        problems.append(f"{state.final_turns_left} final turns left but only {n} players")
    if state.phase == "play" and any(p.trains <= st.end_trains for p in state.players):
        low = [seat_name(i) for i, p in enumerate(state.players) if p.trains <= st.end_trains]
        problems.append(f"{', '.join(low)} ha{'s' if len(low) == 1 else 've'} {st.end_trains} or fewer trains but the final "
                        f"round has not started ({v.rule('USA-END-1')})")
    for p in state.pending:
        if not 0 <= p.seat < n:
            problems.append(f"a pending step belongs to seat {p.seat}, which does not exist")
        if p.kind == "choose_tickets":
            offered = p.get("offered")
            if not isinstance(offered, tuple) or not offered:
                problems.append(f"{seat_name(p.seat)}'s ticket choice offers no tickets")
            if not isinstance(p.get("min_keep"), int):
                problems.append(f"{seat_name(p.seat)}'s ticket choice has no min_keep")
    known = {"choose_tickets", "second_card"} | {k for f in v.features for k in f.pending_kinds}
    for p in state.pending:
        if p.kind not in known:
            problems.append(f"a pending step of unknown kind {p.kind[:40]!r} (known: {', '.join(sorted(known))})")
    for f in v.features:
        f.validate(v, state, problems)
    # Without a pending step the player to move always has an action (at worst Pass: see legal_actions), so only
    # pending steps need listing; listing every claim of a whole turn here would make validate slow.
    if not problems and state.phase != "over" and state.pending:
        try:
            stuck = not legal_actions(state)
        except (TTRError, ValueError, TypeError, KeyError, IndexError) as e:
            problems.append(f"the legal actions of this position cannot be listed: {e}")
        else:
            if stuck:
                problems.append("no player has a legal action, yet the game is not over: nobody could play on")
    return problems


def require_valid(state: GameState) -> GameState:
    problems = validate(state)
    if problems:
        raise StateError("invalid state: " + "; ".join(problems))
    return state


def state_from_dict(d) -> GameState:
    """A board game's state from its JSON dict (the protocol's name; ``GameState.from_dict``)."""
    return GameState.from_dict(d)


def score(state: GameState):
    """The score sheet (the protocol's name; ``ttr_nb.board.scoring.score``)."""
    from .scoring import score as _score
    return _score(state)


__all__ = ["PUBLIC", "Event", "Tx", "new_game", "state_from_dict", "score", "to_move", "legal_actions", "apply", "step", "check", "explain", "is_legal",
           "observe", "validate", "require_valid", "turn_status", "closed_routes", "board_marks", "describe", "route_payments", "claim_problem",
           "payment_problem", "twin_problem", "claimable_routes", "turn_actions", "seat_name", "determinize"]


# ---------------------------------------------------------------------------------------------
# other rules engines (the Card Game): the registry names each game's rules module (``variants.rules_of``). These
# entry points hand a state that is not a board ``GameState`` to its module, and ``new_game`` goes by the game's
# registry entry; board states take the functions above unchanged (explain, is_legal and require_valid need no
# wrapper: they call check and validate).

_board = {name: globals()[name] for name in ("to_move", "legal_actions", "apply", "step", "check", "observe",
                                             "validate", "turn_status", "describe", "new_game")}


_check = _board["check"]
_to_move = _board["to_move"]
_legal_actions = _board["legal_actions"]


def to_move(state):   # noqa: F811  (the entry point; the board case inline: it runs every ply)
    if state.__class__ is not GameState:
        return rules_of(state).to_move(state)
    if state.phase == "over":
        return ()
    pending = state.pending
    if pending:
        if len(pending) == 1:
            return _SEATS[pending[0].seat]
        seats = 0
        for p in pending:
            seats |= 1 << p.seat
        return _SEAT_SETS[seats]
    return _SEATS[state.current]


def legal_actions(state, seat=None):   # noqa: F811  (the entry point)
    if state.__class__ is GameState:
        return _legal_actions(state, seat)
    return rules_of(state).legal_actions(state, seat)


def apply(state, action, *, trusted=False):   # noqa: F811  (the entry point)
    if state.__class__ is GameState:
        name = state.variant
        try:                                            # most plies: _quick's path, inline
            v = _VARIANTS[name]
            # (type(action): CPython 3.11 specialises action.__class__ for one class, and this site sees them all)
            quick = _QUICK_PATHS[name][type(action)]
        except KeyError:                                # (a class not seen yet, or a variant named by an alias)
            v = _variant(state)
            quick = _quick_path(v, action)
        if quick is not None:
            new = quick(v, state, action, trusted)
            if new is not None:
                return new
        return _checked_general(v, state, action, None, trusted)     # (_apply's quick path would decline again)
    return rules_of(state).apply(state, action, trusted=trusted) if trusted else rules_of(state).apply(state, action)


def apply_checked(state, action):
    """``check`` and ``apply`` in one pass: (the new state, the canonical action, its seat). Raises as ``apply``.
    (``Game.push`` uses it: a plainly legal draw or claim is checked and applied by the same quick path.)"""
    if state.__class__ is GameState:
        if action.__class__ in _QUICK:                  # a base action (a feature's own goes through check)
            new = _quick(_VARIANTS.get(state.variant) or _variant(state), state, action, False)
            if new is not None:
                return new, action, action.seat
        action, seat = _check(state, action)
        return _apply(state, action, None, True), action, seat
    rules = rules_of(state)
    action, seat = rules.check(state, action)
    return rules.apply(state, action, trusted=True), action, seat


def step(state, action, *, trusted=False):   # noqa: F811  (the entry point)
    if state.__class__ is GameState:
        events: list[Event] = []
        return _apply(state, action, events, trusted), events
    return rules_of(state).step(state, action, trusted=trusted) if trusted else rules_of(state).step(state, action)


def check(state, action):   # noqa: F811  (the entry point)
    return _check(state, action) if state.__class__ is GameState else rules_of(state).check(state, action)


def observe(state, seat=None):   # noqa: F811  (the entry point)
    return _board["observe"](state, seat) if state.__class__ is GameState else rules_of(state).observe(state, seat)


def validate(state):   # noqa: F811  (the entry point)
    return _board["validate"](state) if state.__class__ is GameState else rules_of(state).validate(state)


def turn_status(state, *args, **kwargs):   # noqa: F811  (the entry point)
    fn = _board["turn_status"] if state.__class__ is GameState else rules_of(state).turn_status
    return fn(state, *args, **kwargs)


def describe(state, *args, **kwargs):   # noqa: F811  (the entry point)
    fn = _board["describe"] if state.__class__ is GameState else rules_of(state).describe
    return fn(state, *args, **kwargs)


def determinize(state, seat, rng, **kwargs):
    """A state ``seat`` cannot tell from ``state`` (``observe(state, seat)`` is the same, ``validate`` is clean),
    with everything that seat cannot see re-dealt from ``rng`` (a ``random.Random`` or a seed): the other hands,
    the deck order, the other players' tickets and offers, the ticket decks' order, the seed of later shuffles.
    A function of the seat's view and ``rng`` alone (``ttr_nb.board.determinization``; the Card Game's in
    ``ttr_nb.cardgame.determinize``). ``ticket_weights={seat: {ticket id: weight}}`` biases the other hands."""
    if state.__class__ is GameState:
        from .determinization import determinize as board
        return board(state, seat, rng, **kwargs)
    return rules_of(state).determinize(state, seat, rng, **kwargs)


def new_game(variant="usa", *args, **kwargs):   # noqa: F811  (the entry point)
    game = get_game(variant)
    fn = _board["new_game"] if game.rules == __name__ else rules_of(game.key).new_game
    return fn(game if game.rules == __name__ else game.key, *args, **kwargs)


for _name, _fn in _board.items():
    globals()[_name].__doc__ = _fn.__doc__
