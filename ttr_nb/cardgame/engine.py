"""The Card Game's rules engine, on the board engine's protocol (``ttr_nb.board.engine``):

    new_game(variant, players, seed)   -> CardState
    legal_actions(state, seat=None)    -> every legal action, complete, in a defined order
    apply(state, action) / step(...)   -> pure; refusals raise IllegalAction citing a CG-* rule and change nothing
    to_move, check, explain, is_legal, observe, validate, require_valid, turn_status, describe, score

A turn (CG-TURN-1/2): ``track`` (step 1, owed whenever the rail yard holds cards), then one of: two card draws
(``draw deck`` / ``draw faceup N``), a rail-yard play (``yard green3+loco1``, ``yard blue1+red1+yellow1``), or
``tickets`` followed by ``keep ...``. When the deck runs out every player has one more turn (CG-END-1); then all
players at once complete tickets (``complete Chicago–Miami``, one at a time, as many as the pile can pay for: the
step closes when it can pay for no more; CG-END-2); with 4 players a second round
follows (CG-END-4). Rule ids: docs/rules/cardgame.md.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations, islice
from math import comb
from typing import Sequence

from ..board.actions import (Action, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, field_problem, parse_action,
                       payment_words)
from ..board.cards import CARD_NAMES, COLOURS, LOCO, a_card
from ..board.engine import Event, explain, is_legal, require_valid, seat_name   # these three call check/validate
from ..errors import BadAction, IllegalAction, MapError, TTRError
from ..board.names import ticket_words
from ..rng import shuffled
from ..board.state import Pending
from ..variants import get_game
from .actions import CompleteTicket, MoveToTrack, PlayYard
from .completion import best_set, cards_used, shortfall
from .data import CardData, load_cards
from .determinize import determinize
from .state import (N_COLOURS, N_KINDS, CardPlayer, CardState, _revealed, new_card_player, new_card_state,
                    track_visible)

ZERO = (0,) * N_KINDS
ZERO_YARD = (0,) * N_COLOURS
_TO_TRACK = (("rule", "CG-TURN-1"),)
_SECOND_CARD = (("rule", "CG-DRAW-1"),)


def _cards(n: int, kind: int) -> str:
    name = "locomotive" if kind == LOCO else f"{CARD_NAMES[kind]} card"
    return f"{n} {name}{'s' if n != 1 else ''}"


def _ticket_words(data: CardData, ids: Sequence[str]) -> str:
    """Tickets by their cities, with points: 'Chicago–Miami (10), Dallas–Miami (9)' (``ttr_nb.board.names``)."""
    return ticket_words(data, ids) or "none"


def _ticket_id(data: CardData, ref: str) -> str | None:
    """The id of the ticket ``ref`` names (its cities, or its id), None when it names none."""
    t = data.ticket_named(ref) if isinstance(ref, str) else None       # the engine's own words: no search
    if t is not None:
        return t.id
    try:
        return data.find_ticket(ref).id
    except MapError:
        return None


# ---------------------------------------------------------------------------------------------
# the transaction

class Tx:
    """A working copy of a state; ``freeze`` makes the new state. Refusals happen before one is made.

    The piles stay the state's tuples until a step changes them (each change makes a new tuple: the deck loses its
    top card, a face-up slot is refilled), so a ply copies only what it changes."""

    __slots__ = ("s", "events", "deck", "market", "discard", "tickets", "players", "pending", "phase", "round",
                 "current", "final", "ender", "turn", "shuffles")

    def __init__(self, s: CardState, events: list | None):
        self.s = s
        self.events = events
        self.deck = s.deck
        self.market = s.market
        self.discard = s.discard
        self.tickets = s.ticket_deck
        self.players = list(s.players)
        self.pending = s.pending
        self.phase = s.phase
        self.round = s.round
        self.current = s.current
        self.final = s.final_turns_left
        self.ender = s.round_ender
        self.turn = s.turn
        self.shuffles = s.shuffles

    @property
    def g(self):
        return get_game(self.s.variant)

    def event(self, kind: str, rule: str, text: str, seat: int | None = None, private: str | None = None,
              own: str | None = None) -> None:
        """``text`` is public; ``private``/``own`` the wording for ``seat`` (and the teacher) where it is secret."""
        if self.events is not None:
            self.events.append(Event(kind, rule, text, seat, private, own))

    def set(self, seat: int, **changes) -> None:
        self.players[seat] = replace(self.players[seat], **changes)

    def draw(self) -> int | None:
        deck = self.deck
        if not deck:
            return None
        self.deck = deck[1:]
        return deck[0]

    def give(self, seat: int, card: int) -> None:
        p = self.players[seat]
        hand = p.hand
        self.players[seat] = new_card_player(hand[:card] + (hand[card] + 1,) + hand[card + 1:], p.yard, p.yard_locos,
                                             p.track, p.tickets, p.completed, p.spent, p.completed_round1)

    def add_pending(self, pending: Pending) -> None:
        self.pending += (pending,)

    def drop_pending(self, seat: int) -> None:
        pending = self.pending
        if len(pending) == 1:
            if pending[0].seat == seat:
                self.pending = ()
        elif pending:
            self.pending = tuple(p for p in pending if p.seat != seat)

    # -- turns -------------------------------------------------------------------------------
    def begin_turn(self) -> None:
        """CG-TURN-1: step 1 is owed when the player's rail yard holds cards (never on a first turn: it is empty)."""
        p = self.players[self.current]
        if any(p.yard) or any(p.yard_locos):
            self.add_pending(Pending("to_track", self.current, _TO_TRACK))

    def end_turn(self) -> None:
        seat = self.current
        n = self.s.n_players
        self.drop_pending(seat)
        if self.phase == "last_round":
            self.final -= 1
            if self.final <= 0:
                self.start_completion()
                return
        elif self.phase == "play" and not self.deck:
            self.phase = "last_round"
            self.final = n
            self.ender = seat
            self.event("last_round", "CG-END-1", f"{seat_name(seat)} drew the last card of the deck: every player, "
                                                 f"{seat_name(seat)} included, has one more turn")
        self.current = (seat + 1) % n
        self.turn += 1
        self.begin_turn()

    def start_completion(self) -> None:
        self.phase = "complete"
        self.final = -1
        self.turn += 1
        self.pending = tuple(Pending("complete_tickets", i, (("rule", "CG-END-2"),))
                             for i, p in enumerate(self.players) if completable(p, first=True))
        self.event("round_over", "CG-END-2", f"Round {self.round} is over: each player completes tickets from their "
                                             "on-the-track pile (the piles are now shown)")
        if not self.pending:
            self.finish_round()

    def finish_round(self) -> None:
        st = self.g.settings
        n = self.s.n_players
        if self.round == 1 and n >= st.two_round_players:
            self.start_round_two()
            return
        self.phase = "over"
        self.pending = ()
        self.event("game_over", "CG-END-3" if self.round == 1 else "CG-ROUND-2", "The game is over: final scoring")

    def start_round_two(self) -> None:
        """CG-END-4: tickets and hand cards stay; every other train card is shuffled into a new deck."""
        st = self.g.settings
        n = self.s.n_players
        pool = list(self.discard)
        for c in self.market:
            if c is not None:
                pool[c] += 1
        for c in self.deck:
            pool[c] += 1
        for i, p in enumerate(self.players):
            for k in range(N_KINDS):
                pool[k] += p.track[k] + p.spent[k]
            for c in range(N_COLOURS):
                pool[c] += p.yard[c]
                pool[LOCO] += p.yard_locos[c]
            self.set(i, track=ZERO, spent=ZERO, yard=ZERO_YARD, yard_locos=ZERO_YARD,
                     completed_round1=len(p.completed))
        cards = [k for k, c in enumerate(pool) for _ in range(c)]
        self.shuffles += 1
        self.deck = tuple(shuffled(cards, self.s.seed, "deck", self.shuffles))
        self.discard = ZERO
        starter = (self.ender + 1) % n
        for _ in range(st.round2_hand):
            for j in range(n):
                card = self.draw()
                if card is not None:
                    self.give((starter + j) % n, card)
        self.market = tuple(self.draw() for _ in range(st.market_size))
        self.round = 2
        self.phase = "play"
        self.pending = ()
        self.current = starter
        self.ender = -1
        self.final = -1
        self.event("round_two", "CG-END-4", f"Round 2: {len(cards)} cards were shuffled into a new deck, 4 dealt to "
                                            f"each player; {seat_name(starter)} starts")
        if not self.deck:
            self.phase = "last_round"
            self.final = n
            self.ender = (starter - 1) % n
            self.event("last_round", "CG-END-1", "The new deck is already empty: every player has one more turn")

    def freeze(self) -> CardState:
        s = self.s
        return new_card_state(s.variant, s.n_players, s.seed, self.deck, self.market, self.discard, self.tickets,
                              tuple(self.players), self.phase, self.round, self.current, self.pending, self.final,
                              self.ender, self.turn, s.ply + 1, self.shuffles, s.first_player, s.see_own_track)


# ---------------------------------------------------------------------------------------------
# setup

#: the settings ``new_game`` (and ``ttr_nb.Game``) take besides players, seed and first player
GAME_OPTIONS = {"see_own_track": "players see their own on-the-track pile (the book's option for young or new "
                                 "players; default False: secret from everyone until the round ends, CG-AREA-1)"}


def new_game(variant: str = "cardgame", players: int = 4, seed: int = 0, *, first_player: int = 0,
             see_own_track: bool = False) -> CardState:
    """CG-SETUP-1..5: one locomotive and 7 cards each, 5 face up, 6 tickets each to choose from (at once).

    ``see_own_track``: the book's option for young or new players, who may look at their own on-the-track pile
    (CG-AREA-1); by default (the book's rule) it is secret from everyone, its owner included, until the round ends."""
    g = get_game(variant)
    st = g.settings
    if isinstance(players, bool) or not isinstance(players, int) or not st.min_players <= players <= st.max_players:
        raise TTRError(f"{g.name} is for {st.min_players}–{st.max_players} players, got {players!r} (CG-COMP-4)")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise TTRError(f"seed must be a whole number from 0 to 2**63-1, got {seed!r}")
    if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < players:
        raise TTRError(f"first_player must be a seat from 0 to {players - 1}, got {first_player!r}")
    if not isinstance(see_own_track, bool):
        raise TTRError(f"see_own_track must be True or False, got {see_own_track!r:.40} (CG-AREA-1)")
    data = load_cards()
    counts = list(data.deck)
    counts[LOCO] -= st.start_locos * players                       # CG-SETUP-1
    deck = shuffled([k for k, c in enumerate(counts) for _ in range(c)], seed, "deck", 0)   # CG-SETUP-2
    hands = []
    for _ in range(players):
        hand = [0] * N_KINDS
        hand[LOCO] = st.start_locos
        for _ in range(st.start_hand):
            hand[deck.pop(0)] += 1
        hands.append(tuple(hand))
    market = tuple(deck[:st.market_size])                          # CG-SETUP-3
    deck = deck[st.market_size:]
    tickets = shuffled([t.id for t in data.tickets], seed, "tickets", 0)
    pending = []
    for seat in range(players):                                    # CG-SETUP-4
        offered, tickets = tuple(tickets[:st.setup_tickets]), tickets[st.setup_tickets:]
        pending.append(Pending("choose_tickets", seat, (("min_keep", st.setup_min_keep), ("offered", offered),
                                                        ("returns", "shuffle"), ("rule", "CG-SETUP-4"))))
    return CardState(
        variant=g.key, n_players=players, seed=seed, deck=tuple(deck), market=market, discard=ZERO,
        ticket_deck=tuple(tickets),
        players=tuple(CardPlayer(hand=h, yard=ZERO_YARD, yard_locos=ZERO_YARD, track=ZERO, tickets=()) for h in hands),
        phase="setup", current=first_player, pending=tuple(pending), first_player=first_player,
        see_own_track=see_own_track)


# ---------------------------------------------------------------------------------------------
# who acts

def to_move(state: CardState) -> tuple[int, ...]:
    if state.phase == "over":
        return ()
    pending = state.pending
    if pending:
        return (pending[0].seat,) if len(pending) == 1 else tuple(sorted({p.seat for p in pending}))
    return (state.current,)


def _resolve(state: CardState, action: Action) -> tuple[int, Pending | None]:
    seat = getattr(action, "seat", None)
    if state.phase == "over":
        raise IllegalAction("the game is over: no more actions", "CG-END-3", action, seat)
    simultaneous = "CG-END-2" if state.phase == "complete" else "CG-SETUP-4"
    if state.pending:
        seats = to_move(state)
        if seat is None:
            if len(seats) > 1:
                names = ", ".join(seat_name(s).lower() for s in seats)
                raise IllegalAction(f"several players choose at the same time ({names}); start the action with the "
                                    f"seat, e.g. '{seat_name(seats[0]).lower()}: {action.body()}'", simultaneous, action)
            seat = seats[0]
        if not isinstance(seat, int) or not 0 <= seat < state.n_players:
            raise BadAction(f"{action}: there is no seat {seat!r} in a {state.n_players}-player game")
        if seat not in seats:
            rule = simultaneous if state.phase in ("setup", "complete") else "CG-TURN-2"
            raise IllegalAction(f"it is not {seat_name(seat)}'s turn: waiting for "
                                f"{', '.join(seat_name(s) for s in seats)}", rule, action, seat)
        return seat, state.pending_for(seat)
    if seat is None:
        seat = state.current
    if not isinstance(seat, int) or not 0 <= seat < state.n_players:
        raise BadAction(f"{action}: there is no seat {seat!r} in a {state.n_players}-player game")
    if seat != state.current:
        raise IllegalAction(f"it is not {seat_name(seat)}'s turn: {seat_name(state.current)} is to play",
                            "CG-TURN-2", action, seat)
    return seat, None


# ---------------------------------------------------------------------------------------------
# legality

def _check_fields(action: Action) -> None:
    seat = getattr(action, "seat", None)
    if seat is not None and type(seat) is not int:
        raise BadAction(f"{action!r}: seat must be a whole number or None, got {seat!r}")
    if isinstance(action, DrawFaceUp) and type(action.slot) is not int:
        raise BadAction(f"{action!r}: the face-up slot must be a whole number 1–5, got {action.slot!r}")
    if isinstance(action, PlayYard):
        pay = action.payment
        if not isinstance(pay, tuple):
            raise BadAction(f"{action!r}: the cards must be a tuple of (card kind, count) pairs")
        seen = set()
        for item in pay:
            if (not isinstance(item, tuple) or len(item) != 2 or type(item[0]) is not int or type(item[1]) is not int
                    or not 0 <= item[0] < N_KINDS or item[1] <= 0 or item[0] in seen):
                raise BadAction(f"{action!r}: the cards must be (card kind 0–8, count ≥ 1) pairs, each kind once")
            seen.add(item[0])
    if isinstance(action, CompleteTicket) and action.ticket is not None and not isinstance(action.ticket, str):
        raise BadAction(f"{action!r}: the ticket must be a ticket id or None (done)")
    if isinstance(action, KeepTickets):
        if not isinstance(action.tickets, tuple) or not all(isinstance(t, str) for t in action.tickets):
            raise BadAction(f"{action!r}: the tickets must be a tuple of ticket ids")
        if len(set(action.tickets)) != len(action.tickets):
            raise BadAction(f"{action}: a ticket is named twice")


#: the actions whose every field ``_check_fields`` checks (others go through ``field_problem``)
_CHECKED = frozenset((DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, MoveToTrack, PlayYard, CompleteTicket))


def opponents_stack(state: CardState, seat: int, colour: int) -> int:
    """The largest stack of ``colour`` in another player's rail yard (0: nobody has it)."""
    return max((p.stack(colour) for i, p in enumerate(state.players) if i != seat), default=0)


def yard_problem(state: CardState, seat: int, payment) -> tuple[str, str] | None:
    """Why ``payment`` may not go into ``seat``'s rail yard now (CG-YARD-1..4), or None."""
    st = get_game(state.variant).settings
    p = state.players[seat]
    counts = dict(payment)
    for k, n in payment:
        if p.hand[k] < n:
            return f"the play needs {_cards(n, k)} but {seat_name(seat)}'s hand holds {p.hand[k]}", "CG-YARD-1"
    colours = [k for k in counts if k != LOCO]
    locos = counts.get(LOCO, 0)
    if not colours:
        return "locomotives may never be played on their own: they join a stack of a colour", "CG-YARD-2"
    if len(colours) == 1:
        c = colours[0]
        size = counts[c] + locos
        if size < st.min_stack:
            return (f"a one-colour play needs {st.min_stack} or more cards (locomotives counting); "
                    f"{size} is not enough", "CG-YARD-1")
        plays = [(c, size)]
    else:
        if locos:
            return "a play of different colours may not include locomotives", "CG-YARD-2"
        if len(colours) != st.mixed_play or any(counts[c] != 1 for c in colours):
            return (f"cards of different colours go in as exactly {st.mixed_play} cards of {st.mixed_play} different "
                    f"colours (or play two or more of one colour)", "CG-YARD-1")
        plays = [(c, 1) for c in colours]
    for c, size in plays:
        if p.yard[c]:
            return (f"{seat_name(seat)} already has {COLOURS[c]} in the rail yard: that colour cannot be played again "
                    f"until it has left the yard", "CG-YARD-3")
        for i, q in enumerate(state.players):
            if i != seat and q.stack(c) and size <= q.stack(c):
                return (f"{seat_name(i)} has {q.stack(c)} {COLOURS[c]} in the rail yard: to play {COLOURS[c]} you must "
                        f"play more than that (and rob them), not {size}", "CG-YARD-4")
    return None


def completion_problem(state: CardState, seat: int, tickets: Sequence[str]) -> tuple[str, str] | None:
    data = load_cards()
    p = state.players[seat]
    stray = [t for t in tickets if t not in p.tickets]
    if stray:
        return f"{seat_name(seat)} does not hold {_ticket_words(data, stray)} as an open ticket", "CG-END-2"
    need = [0] * LOCO
    for t in tickets:
        for c, n in enumerate(data.ticket(t).needs[:LOCO]):
            need[c] += n
    missing = shortfall(need, p.track)
    if missing > p.track[LOCO]:
        short = ", ".join(f"{n - p.track[c]} {COLOURS[c]}" for c, n in enumerate(need) if n > p.track[c])
        return (f"the on-the-track pile cannot pay for {_ticket_words(data, tickets)}: it is short of {short}, "
                f"{missing} in all, and holds {p.track[LOCO]} locomotive{'s' if p.track[LOCO] != 1 else ''} "
                "to stand in", "CG-END-2")
    return None


_STEP2 = (DrawDeck, DrawFaceUp, PlayYard, DrawTickets, Pass)


def _keep_ids(data: CardData, action: KeepTickets) -> list[str | None]:
    """The ids a KeepTickets names (None: no such ticket); the same ticket named twice is refused."""
    ids: list[str | None] = []
    for ref in action.tickets:
        tid = _ticket_id(data, ref)
        if tid is not None and tid in ids:
            raise BadAction(f"{action}: the ticket {data.ticket_text(tid)} is named twice")
        ids.append(tid)
    return ids


# ---------------------------------------------------------------------------------------------
# the quick check: most actions a program plays are ones ``legal_actions`` lists (their seat filled in, their words
# canonical). For those ``check`` only has to confirm that they are legal, which these functions do from the counts
# alone; each returns True only where ``check`` would return the very same action unchanged, and False for
# everything else, which then takes ``check``'s full path (and its words for what is wrong). The test
# tests/test_cardgame_fastpaths.py holds them to that: every listed action and many refused ones, both paths.

def _own_pending(state: CardState, seat: int) -> str | None:
    """The kind of ``seat``'s pending step; "" when nothing is pending and it is ``seat``'s turn; None otherwise."""
    pending = state.pending
    if not pending:
        return "" if seat == state.current else None
    for p in pending:
        if p.seat == seat:
            return p.kind
    return None


def _quick_track(state: CardState, action: MoveToTrack, seat: int) -> bool:
    return _own_pending(state, seat) == "to_track"


def _quick_deck(state: CardState, action: DrawDeck, seat: int) -> bool:
    return bool(state.deck) and _own_pending(state, seat) in ("", "second_card")


def _quick_faceup(state: CardState, action: DrawFaceUp, seat: int) -> bool:
    slot = action.slot
    kind = _own_pending(state, seat)
    if type(slot) is not int or kind not in ("", "second_card") or not 1 <= slot <= len(state.market):
        return False
    card = state.market[slot - 1]
    return card is not None and not (card == LOCO and kind)


def _quick_yard(state: CardState, action: PlayYard, seat: int) -> bool:
    """A canonical payment (pairs in kind order, each kind once) that CG-YARD-1..4 allow (``yard_problem``)."""
    pay = action.payment
    if state.pending or seat != state.current or type(pay) is not tuple or not pay:
        return False
    p = state.players[seat]
    hand, yard = p.hand, p.yard
    last = -1
    n_locos = n_colours = size = 0
    for item in pay:
        if type(item) is not tuple or len(item) != 2:
            return False
        k, n = item
        if type(k) is not int or type(n) is not int or not last < k < N_KINDS or n < 1 or hand[k] < n:
            return False
        last = k
        if k == LOCO:
            n_locos = n
        else:
            if yard[k]:
                return False
            n_colours += 1
            size += n
    st = get_game(state.variant).settings
    if n_colours == 1:
        size += n_locos
        if size < st.min_stack:
            return False
    elif n_locos or n_colours != st.mixed_play or size != n_colours:
        return False
    else:
        size = 1
    for i, q in enumerate(state.players):
        if i != seat:
            qy, ql = q.yard, q.yard_locos
            for k, _ in pay:
                if k != LOCO and size <= qy[k] + ql[k]:       # robbing needs a bigger stack (CG-YARD-4)
                    return False
    return True


def _quick_tickets(state: CardState, action: DrawTickets, seat: int) -> bool:
    return not state.pending and seat == state.current and bool(state.ticket_deck)


def _quick_keep(state: CardState, action: KeepTickets, seat: int) -> bool:
    pending = state.pending_for(seat) if state.pending else None
    chosen = action.tickets
    if pending is None or pending.kind != "choose_tickets" or type(chosen) is not tuple:
        return False
    offered = pending.get("offered")
    if len(chosen) < min(pending.get("min_keep"), len(offered)):
        return False
    text = load_cards().ticket_text
    names = [text(t) for t in offered]
    return chosen == tuple(t for t in names if t in chosen) and len(set(chosen)) == len(chosen)


def _quick_complete(state: CardState, action: CompleteTicket, seat: int) -> bool:
    pending = state.pending_for(seat) if state.pending else None
    if pending is None or pending.kind != "complete_tickets":
        return False
    p = state.players[seat]
    if action.ticket is None:
        return not completable(p, first=True)
    if type(action.ticket) is not str:
        return False
    t = load_cards().ticket_named(action.ticket)
    return t is not None and t.id in p.tickets and shortfall(t.needs, p.track) <= p.track[LOCO]


_QUICK_CHECK = {MoveToTrack: _quick_track, DrawDeck: _quick_deck, DrawFaceUp: _quick_faceup, PlayYard: _quick_yard,
                DrawTickets: _quick_tickets, KeepTickets: _quick_keep, CompleteTicket: _quick_complete}


def check(state: CardState, action: Action | str) -> tuple[Action, int]:
    """Raise the IllegalAction/BadAction ``action`` would raise; else return it (seat filled in, canonical form)."""
    quick = _QUICK_CHECK.get(action.__class__)
    if quick is not None:
        seat = action.seat
        if (type(seat) is int and 0 <= seat < state.n_players and state.phase != "over"
                and quick(state, action, seat)):
            return action, seat
    if isinstance(action, str):
        action = parse_action(action)
    elif not isinstance(action, Action):
        raise BadAction(f"an action must be text or an Action, got {type(action).__name__}")
    seat = getattr(action, "seat", None)
    if action.__class__ not in _CHECKED or not (seat is None or (type(seat) is int and 0 <= seat < state.n_players)):
        problem = field_problem(action, state.n_players)    # a hand-built action: fields of their types, its seat
        if problem:
            raise BadAction(f"{action!r:.120}: {problem}")
    _check_fields(action)                                   # (these actions' fields are checked here)
    seat, pending = _resolve(state, action)
    if getattr(action, "seat", None) is None:
        action = action.with_seat(seat)
    kind = pending.kind if pending else None
    if isinstance(action, MoveToTrack):
        if kind != "to_track":
            raise IllegalAction("step 1 (moving cards on the track) happens only at the start of a turn, and only with "
                                "cards in the rail yard", "CG-TURN-1", action, seat)
        return action, seat
    if kind == "to_track":
        raise IllegalAction(f"step 1 first: {seat_name(seat)} must move one card of each colour from the rail yard "
                            "onto the on-the-track pile ('track')", "CG-TURN-1", action, seat)
    if kind == "complete_tickets" or isinstance(action, CompleteTicket):
        if kind != "complete_tickets" or not isinstance(action, CompleteTicket):
            raise IllegalAction("tickets are completed only at the end of a round, all players at once; "
                                + ("choose with 'complete CITY–CITY'" if kind else "the round is not over"),
                                "CG-END-2", action, seat)
        data = load_cards()
        if action.ticket is None:
            left = completable(state.players[seat])
            if left:                     # "fullborda så många av sina biljettkort som möjligt"
                raise IllegalAction(f"the book asks you to complete as many tickets as possible, and the on-the-track "
                                    f"pile can still pay for {_ticket_words(data, left)}: complete "
                                    f"{'it' if len(left) == 1 else 'one of them'} (which ones is your choice)",
                                    "CG-END-2", action, seat)
            return action, seat
        try:
            tid = data.find_ticket(action.ticket).id
        except MapError as e:
            raise BadAction(f"{action}: {e}") from None
        problem = completion_problem(state, seat, [tid])
        if problem:
            raise IllegalAction(problem[0], problem[1], action, seat)
        name = data.ticket_text(tid)
        return (replace(action, ticket=name) if name != action.ticket else action), seat
    if kind == "choose_tickets" or isinstance(action, KeepTickets):
        rule = pending.get("rule") if kind == "choose_tickets" else "CG-TICKET-1"
        if kind != "choose_tickets" or not isinstance(action, KeepTickets):
            raise IllegalAction(f"{seat_name(seat)} must first choose which of the offered tickets to keep"
                                if kind else "there are no offered tickets to choose from; draw tickets first",
                                rule, action, seat)
        data = load_cards()
        offered = pending.get("offered")
        ids = _keep_ids(data, action)
        stray = [ref for ref, t in zip(action.tickets, ids) if t not in offered]
        if stray:
            raise IllegalAction(f"{', '.join(stray)} {'was' if len(stray) == 1 else 'were'} not offered to "
                                f"{seat_name(seat)} (offered: {_ticket_words(data, offered)})", rule, action, seat)
        need = min(pending.get("min_keep"), len(offered))
        if len(action.tickets) < need:
            raise IllegalAction(f"{seat_name(seat)} must keep at least {need} of the {len(offered)} offered tickets",
                                rule, action, seat)
        canonical = tuple(data.ticket_text(t) for t in offered if t in ids)     # the order legal_actions lists
        return (replace(action, tickets=canonical) if canonical != action.tickets else action), seat
    if kind == "second_card" and not isinstance(action, DrawDeck | DrawFaceUp):
        raise IllegalAction(f"{seat_name(seat)} has taken one card and must take a second one", "CG-DRAW-1", action, seat)
    if not isinstance(action, _STEP2):
        raise BadAction(f"{action}: this action is not part of the Card Game (actions: draw deck, draw faceup N, "
                        "yard CARDS, tickets, keep ..., track, complete ..., pass)")
    if isinstance(action, DrawDeck):
        if not state.deck:
            raise IllegalAction("the deck is empty: only face-up cards are left to take", "CG-END-1", action, seat)
    elif isinstance(action, DrawFaceUp):
        size = len(state.market)
        if not 1 <= action.slot <= size:
            raise BadAction(f"{action}: face-up cards are numbered 1–{size}")
        card = state.market[action.slot - 1]
        if card is None:
            raise IllegalAction(f"face-up slot {action.slot} is empty: the deck has run out and face-up cards are not "
                                "replaced", "CG-END-1", action, seat)
        if card == LOCO and kind == "second_card":
            raise IllegalAction("a face-up locomotive may not be taken as the second card", "CG-DRAW-2", action, seat)
    elif isinstance(action, PlayYard):
        problem = yard_problem(state, seat, action.payment)
        if problem:
            raise IllegalAction(problem[0], problem[1], action, seat)
        if list(action.payment) != sorted(action.payment):
            action = replace(action, payment=tuple(sorted(action.payment)))
    elif isinstance(action, DrawTickets):
        if not state.ticket_deck:
            raise IllegalAction("the ticket deck is empty: no tickets can be drawn", "CG-TICKET-1", action, seat)
    elif isinstance(action, Pass):
        others = [a for a in legal_actions(state, seat) if not isinstance(a, Pass)]
        if others:
            raise IllegalAction(f"passing is only allowed when nothing else is possible; {seat_name(seat)} can still "
                                f"act (e.g. {others[0].body()})", "CG-TURN-2", action, seat)
    return action, seat


# ---------------------------------------------------------------------------------------------
# apply

def apply(state: CardState, action: Action | str, *, trusted: bool = False) -> CardState:
    """The state after ``action`` (IllegalAction/BadAction, nothing changed, if it is refused). ``trusted=True``
    skips ``check`` for an action this engine listed for this very state (see ``ttr_nb.board.engine.apply``)."""
    return _apply(state, action, None, trusted)


def apply_checked(state: CardState, action: Action | str) -> tuple[CardState, Action, int]:
    """``check`` then ``apply``: (the new state, the canonical action, its seat) — see ``ttr_nb.board.engine``."""
    action, seat = check(state, action)
    return _apply(state, action, None, True), action, seat


def step(state: CardState, action: Action | str, *, trusted: bool = False) -> tuple[CardState, list[Event]]:
    events: list[Event] = []
    return _apply(state, action, events, trusted), events


def _apply(state: CardState, action: Action | str, events: list | None, trusted: bool = False) -> CardState:
    if trusted:
        seat = action.seat
    else:
        action, seat = check(state, action)
    tx = Tx(state, events)
    cls = action.__class__
    if cls is DrawDeck or cls is DrawFaceUp:
        _apply_draw(tx, action, seat, second=bool(state.pending))
    elif cls is MoveToTrack:
        _apply_track(tx, seat)
    elif cls is PlayYard:
        _apply_yard(tx, action, seat)
    elif cls is DrawTickets:
        st = tx.g.settings
        n = min(st.ticket_draw, len(tx.tickets))
        offered, tx.tickets = tuple(tx.tickets[:n]), tx.tickets[n:]
        tx.add_pending(Pending("choose_tickets", seat, (("min_keep", st.ticket_min_keep), ("offered", offered),
                                                        ("returns", "bottom"), ("rule", "CG-TICKET-1"))))
    elif cls is KeepTickets:
        _apply_keep(tx, action, seat, state.pending_for(seat))
    elif cls is CompleteTicket:
        _apply_complete(tx, action, seat)
    elif cls is Pass:
        tx.event("pass", "CG-TURN-2", f"{seat_name(seat)} can do nothing and passes (interpretation)")
        tx.end_turn()
    return tx.freeze()


def _apply_track(tx: Tx, seat: int) -> None:
    p = tx.players[seat]
    yard, locos, track = list(p.yard), list(p.yard_locos), list(p.track)
    moved = []
    for c in range(N_COLOURS):
        if not yard[c]:
            continue
        if locos[c]:                 # locomotives lie on top of their stack: they go first (CG-TURN-1)
            locos[c] -= 1
            track[LOCO] += 1
            moved.append(-1 - c)
        else:
            yard[c] -= 1
            track[c] += 1
            moved.append(c)
    tx.players[seat] = new_card_player(p.hand, tuple(yard), tuple(locos), tuple(track), p.tickets, p.completed,
                                       p.spent, p.completed_round1)
    tx.drop_pending(seat)
    if tx.events is not None:
        words = [f"a locomotive from the {COLOURS[-1 - c]} stack" if c < 0 else a_card(c) for c in moved]
        tx.event("track", "CG-TURN-1", f"{seat_name(seat)} moved {len(moved)} card{'s' if len(moved) != 1 else ''} "
                                       f"onto the on-the-track pile: {', '.join(words)}")


def _apply_draw(tx: Tx, action: DrawDeck | DrawFaceUp, seat: int, second: bool) -> None:
    if action.__class__ is DrawDeck:
        card = tx.draw()
        faceup_loco = False
        if tx.events is not None:
            name = a_card(card)
            tx.event("deck_card", "CG-DRAW-1", f"{seat_name(seat)} drew a card from the deck", seat,
                     f"{seat_name(seat)} drew {name} from the deck", f"You drew {name} from the deck")
    else:
        i = action.slot - 1
        market = tx.market
        card = market[i]
        # CG-DRAW-1: replaced at once; None once the deck is empty (CG-END-1)
        tx.market = market[:i] + (tx.draw(),) + market[i + 1:]
        faceup_loco = card == LOCO
    tx.give(seat, card)
    if second:
        tx.end_turn()
        return
    if faceup_loco:                           # CG-DRAW-2
        tx.event("one_card", "CG-DRAW-2", f"{seat_name(seat)} took a face-up locomotive: that is the whole turn")
        tx.end_turn()
        return
    if not tx.deck and all(c is None or c == LOCO for c in tx.market):
        tx.event("one_card", "CG-END-1", f"No second card can be taken: {seat_name(seat)}'s turn ends with one card")
        tx.end_turn()
        return
    tx.add_pending(Pending("second_card", seat, _SECOND_CARD))


def _apply_yard(tx: Tx, action: PlayYard, seat: int) -> None:
    payment = action.payment
    p = tx.players[seat]
    hand, yard, locos = list(p.hand), list(p.yard), list(p.yard_locos)
    colours = []
    n_locos = 0
    for k, n in payment:
        hand[k] -= n
        if k == LOCO:
            n_locos = n
        else:
            colours.append(k)
            yard[k] += n
    if n_locos:
        locos[colours[0]] += n_locos          # on top of the stack (CG-YARD-2)
    tx.players[seat] = new_card_player(tuple(hand), tuple(yard), tuple(locos), p.track, p.tickets, p.completed,
                                       p.spent, p.completed_round1)
    for c in colours:                         # CG-YARD-4: train robbing
        for i, q in enumerate(tx.players):
            if i == seat or not (q.yard[c] or q.yard_locos[c]):
                continue
            lost = q.yard[c] + q.yard_locos[c]
            discard = list(tx.discard)
            discard[c] += q.yard[c]
            discard[LOCO] += q.yard_locos[c]
            tx.discard = tuple(discard)
            ry, rl = list(q.yard), list(q.yard_locos)
            ry[c] = rl[c] = 0
            tx.players[i] = new_card_player(q.hand, tuple(ry), tuple(rl), q.track, q.tickets, q.completed, q.spent,
                                            q.completed_round1)
            if tx.events is not None:
                size = sum(n for _, n in payment) if len(colours) == 1 else 1
                tx.event("robbery", "CG-YARD-4", f"Train robbing: {seat_name(seat)}'s {size} {COLOURS[c]} beat "
                                                 f"{seat_name(i)}'s {lost}; {seat_name(i)} discards that stack")
    tx.end_turn()


def _apply_keep(tx: Tx, action: KeepTickets, seat: int, pending: Pending) -> None:
    data = load_cards()
    offered = pending.get("offered")
    ids = _keep_ids(data, action)
    kept = tuple(t for t in offered if t in ids)
    returned = tuple(t for t in offered if t not in ids)
    p = tx.players[seat]
    tx.players[seat] = new_card_player(p.hand, p.yard, p.yard_locos, p.track, p.tickets + kept, p.completed, p.spent,
                                       p.completed_round1)
    tx.drop_pending(seat)
    # the move's own words already say how many were kept ("Blue keeps 3 tickets"): the event says what went back
    n_back = f"{len(returned)} ticket{'s' if len(returned) != 1 else ''}"
    back_words = (ticket_words(data, returned) or "nothing") if tx.events is not None else ""
    if pending.get("returns") == "shuffle":           # CG-SETUP-4
        tx.tickets += returned
        where = "to be shuffled into the ticket deck"
        tx.event("tickets_returned", "CG-SETUP-4", f"{seat_name(seat)} returned {n_back}, {where}",
                 seat, f"{seat_name(seat)} returned {back_words}, {where}", f"You returned {back_words}, {where}")
        if not tx.pending:
            tx.tickets = tuple(shuffled(sorted(tx.tickets), tx.s.seed, "tickets", 1))
            tx.phase = "play"
            tx.current = tx.s.first_player
            tx.event("setup_done", "CG-SETUP-5", f"Everyone has chosen tickets; the returned ones were shuffled into "
                                                 f"the ticket deck. {seat_name(tx.current)} starts")
            tx.begin_turn()
        return
    tx.tickets += returned                            # CG-TICKET-1: to the bottom
    tx.event("tickets_returned", "CG-TICKET-1", f"{seat_name(seat)} put {n_back} under the ticket deck", seat,
             f"{seat_name(seat)} put {back_words} under the ticket deck",
             f"You put {back_words} under the ticket deck")
    tx.end_turn()


def completable(p: CardPlayer, *, first: bool = False) -> list[str]:
    """The open tickets that the on-the-track pile can still complete, each on its own (``first``: only the first of
    them, for the question whether there is one)."""
    data = load_cards()
    need_pairs = data.need_pairs
    track = p.track
    out = []
    for t in p.tickets:
        pairs = need_pairs.get(t)
        if pairs is None:
            data.ticket(t)              # MapError: no such ticket
        short = track[LOCO]             # the locomotives stand in for what a colour lacks
        for c, n in pairs:
            if n > track[c]:
                short -= n - track[c]
        if short >= 0:
            out.append(t)
            if first:
                break
    return out


def _apply_complete(tx: Tx, action: CompleteTicket, seat: int) -> None:
    """CG-END-2, one ticket at a time: a set can be completed exactly when each ticket in turn can be paid from what
    the earlier ones left (own colour first, locomotives for the rest), so the steps check the whole set."""
    data = load_cards()
    p = tx.players[seat]
    if action.ticket is None:
        tx.drop_pending(seat)
        tx.event("completed", "CG-END-2", f"{seat_name(seat)} completes no more tickets")
    else:
        t = data.ticket_named(action.ticket) or data.find_ticket(action.ticket)
        used = cards_used([t.needs], p.track)
        tx.players[seat] = new_card_player(p.hand, p.yard, p.yard_locos, tuple(a - b for a, b in zip(p.track, used)),
                                           tuple(x for x in p.tickets if x != t.id), p.completed + (t.id,),
                                           tuple(a + b for a, b in zip(p.spent, used)), p.completed_round1)
        if tx.events is not None:
            words = " + ".join(_cards(n, k) for k, n in enumerate(used) if n)
            tx.event("completed", "CG-END-2", f"{seat_name(seat)} completes {_ticket_words(data, [t.id])} with "
                                              f"{words}")
        if not completable(tx.players[seat], first=True):
            tx.drop_pending(seat)
            tx.event("completed", "CG-END-2", f"{seat_name(seat)}'s on-the-track pile can complete no more tickets")
    if not tx.pending:
        tx.finish_round()


# ---------------------------------------------------------------------------------------------
# legal actions

# one shared immutable object per simple action and seat (actions are frozen values)
_SIMPLE: dict[tuple, Action] = {}


def _simple(cls, seat: int, slot: int = 0) -> Action:
    a = _SIMPLE.get((cls, seat, slot))
    if a is None:
        a = _SIMPLE[(cls, seat, slot)] = cls(slot=slot, seat=seat) if slot else cls(seat=seat)
    return a


def draw_actions(state: CardState, seat: int, second: bool) -> list[Action]:
    out: list[Action] = [_simple(DrawDeck, seat)] if state.deck else []
    for i, c in enumerate(state.market):
        if c is not None and not (second and c == LOCO):
            out.append(_simple(DrawFaceUp, seat, i + 1))
    return out


def draw_count(state: CardState, second: bool) -> int:
    """``len(draw_actions(state, seat, second))`` without listing them."""
    n = 1 if state.deck else 0
    for c in state.market:
        if c is not None and not (second and c == LOCO):
            n += 1
    return n


def draw_at(state: CardState, seat: int, second: bool, i: int) -> Action:
    """``draw_actions(state, seat, second)[i]`` without listing them."""
    if state.deck:
        if i == 0:
            return _simple(DrawDeck, seat)
        i -= 1
    for slot, c in enumerate(state.market, 1):
        if c is not None and not (second and c == LOCO):
            if i == 0:
                return _simple(DrawFaceUp, seat, slot)
            i -= 1
    raise IndexError("draw_at: no such draw")


class YardPlan:
    """What ``seat`` may play into its rail yard, as counts (CG-YARD-1..4): per colour that may start a stack, the
    cards of it in hand and the smallest stack allowed (two, or one more than an opponent's, to rob it); the colours
    free for a three-colour play. ``yard_plays`` lists the plays from it; ``at(i)`` makes only the i-th."""

    __slots__ = ("seat", "locos", "singles", "free", "mixed", "count")

    def __init__(self, state: CardState, seat: int):
        st = get_game(state.variant).settings
        p = state.players[seat]
        hand, yard = p.hand, p.yard
        others = ZERO_YARD                   # the biggest opponent's stack per colour
        for i, q in enumerate(state.players):
            if i != seat and q.yard != ZERO_YARD:
                if others is ZERO_YARD:
                    others = [0] * N_COLOURS
                locos = q.yard_locos
                for c, n in enumerate(q.yard):
                    if n and n + locos[c] > others[c]:
                        others[c] = n + locos[c]
        self.seat = seat
        self.locos = locos = hand[LOCO]
        self.singles = singles = []          # (colour, in hand, smallest stack, plays)
        self.free = free = []
        min_stack = st.min_stack
        count = 0
        for c in range(N_COLOURS):
            h = hand[c]
            if not h or yard[c]:
                continue
            rob = others[c]
            if not rob:
                free.append(c)
            need = rob + 1 if rob >= min_stack else min_stack
            # k colour cards with max(0, need - k) to ``locos`` locomotives: locos + 1 plays for each k ≥ need, and
            # locos + 1 - need + k for need - locos ≤ k < need
            plays = (h - need + 1) * (locos + 1) if h >= need else 0
            a = need - locos if need - locos > 1 else 1
            b = h if h < need - 1 else need - 1
            if b >= a:
                plays += (b - a + 1) * (locos + 1 - need) + (a + b) * (b - a + 1) // 2
            singles.append((c, h, need, plays))
            count += plays
        self.mixed = mixed = st.mixed_play
        self.count = count + (comb(len(free), mixed) if len(free) >= mixed else 0)

    def payments(self):
        locos = self.locos
        for c, in_hand, need, _ in self.singles:
            for k in range(1, in_hand + 1):
                for n_loco in range(max(0, need - k), locos + 1):
                    yield ((c, k), (LOCO, n_loco)) if n_loco else ((c, k),)
        for combo in combinations(self.free, self.mixed):
            yield tuple((c, 1) for c in combo)

    def at(self, i: int) -> PlayYard:
        """The i-th play of ``yard_plays`` (0 ≤ i < ``count``)."""
        locos = self.locos
        for c, in_hand, need, plays in self.singles:
            if i >= plays:
                i -= plays
                continue
            for k in range(1, in_hand + 1):
                low = max(0, need - k)
                n = locos + 1 - low
                if n <= 0:
                    continue
                if i < n:
                    n_loco = low + i
                    return PlayYard(payment=((c, k), (LOCO, n_loco)) if n_loco else ((c, k),), seat=self.seat)
                i -= n
        combo = next(islice(combinations(self.free, self.mixed), i, None))
        return PlayYard(payment=tuple((c, 1) for c in combo), seat=self.seat)


def yard_plays(state: CardState, seat: int) -> list[PlayYard]:
    """Every legal rail-yard play: one-colour stacks by colour, then size (colour cards, then locomotives); then
    the three-colour plays in colour order (CG-YARD-1..4)."""
    return [PlayYard(payment=pay, seat=seat) for pay in YardPlan(state, seat).payments()]


def keep_count(offered: int, need: int) -> int:
    """How many ``keep`` choices ``legal_actions`` lists for ``offered`` tickets of which ``need`` must be kept."""
    return sum(comb(offered, size) for size in range(need, offered + 1))


def keep_at(state: CardState, p: Pending, i: int) -> KeepTickets:
    """The i-th ``keep`` choice of ``legal_actions`` for the pending ticket choice ``p``, made alone."""
    offered = p.get("offered")
    need = min(p.get("min_keep"), len(offered))
    for size in range(len(offered), need - 1, -1):
        n = comb(len(offered), size)
        if i < n:
            text = load_cards().ticket_text
            combo = next(islice(combinations(offered, size), i, None))
            return KeepTickets(tickets=tuple(text(t) for t in combo), seat=p.seat)
        i -= n
    raise IndexError("keep_at: no such choice")


def best_completion(state: CardState, seat: int, by: str = "points") -> tuple[str, ...]:
    """The best set of tickets to complete now, found exactly: by "points" (then most tickets) or "tickets"."""
    data = load_cards()
    p = state.players[seat]
    tickets = [data.ticket(t) for t in p.tickets]
    chosen = best_set([t.needs for t in tickets], [t.points for t in tickets], p.track, by=by)
    return tuple(p.tickets[i] for i in chosen)


def legal_actions(state: CardState, seat: int | None = None) -> list[Action]:
    if state.phase == "over":
        return []
    if state.pending:
        out: list[Action] = []
        for s in (to_move(state) if seat is None else (seat,)):
            p = state.pending_for(s)
            if p is not None:
                out += _pending_actions(state, p)
        return out
    if seat is not None and seat != state.current:
        return []
    seat = state.current
    out = draw_actions(state, seat, second=False) + yard_plays(state, seat)
    if state.ticket_deck:
        out.append(_simple(DrawTickets, seat))
    return out or [Pass(seat=seat)]


def _pending_actions(state: CardState, p: Pending) -> list[Action]:
    if p.kind == "to_track":
        return [_simple(MoveToTrack, p.seat)]
    if p.kind == "second_card":
        return draw_actions(state, p.seat, second=True)
    if p.kind == "choose_tickets":
        offered = p.get("offered")
        need = min(p.get("min_keep"), len(offered))
        data = load_cards()
        names = tuple(data.ticket_text(t) for t in offered)
        return [KeepTickets(tickets=combo, seat=p.seat)
                for size in range(len(names), need - 1, -1) for combo in combinations(names, size)]
    if p.kind == "complete_tickets":
        data = load_cards()
        left = completable(state.players[p.seat])          # as many as possible: no 'done' while one can be paid
        return [CompleteTicket(ticket=data.ticket_text(t), seat=p.seat) for t in left] or [CompleteTicket(seat=p.seat)]
    return []


# ---------------------------------------------------------------------------------------------
# what a learner sees

def turn_status(state: CardState, viewer: int | None = None) -> str:
    data = load_cards()
    if state.phase == "over":
        return "The game is over: final scoring (CG-SCORE-1..4)."
    waiting = ", ".join(seat_name(s) for s in to_move(state))
    if state.phase == "setup":
        return (f"Setup: each player keeps at least 1 of the 6 tickets dealt, all at the same time and in secret — "
                f"waiting for {waiting} (CG-SETUP-4).")
    if state.phase == "complete":
        text = (f"End of round {state.round}: each player completes as many tickets as their on-the-track pile can "
                f"pay for, one at a time and all at once ('complete Chicago–Miami'; which ones is their choice) — "
                f"waiting for {waiting} (CG-END-2).")
        if viewer is not None and state.pending_for(viewer) is not None:      # the best choices, found exactly
            best = best_completion(state, viewer)
            most = best_completion(state, viewer, by="tickets")
            pts = sum(data.ticket(t).points for t in best)
            text += (f" Best for {seat_name(viewer)}: {_ticket_words(data, best)} "
                     f"({pts} point{'s' if pts != 1 else ''})")
            if most != best:
                text += f"; most tickets: {_ticket_words(data, most)}"
            text += "."
        return text
    seat = state.current
    name = seat_name(seat)
    prefix = f"Round {state.round}. " if state.n_players >= get_game(state.variant).settings.two_round_players else ""
    if state.phase == "last_round":
        prefix += (f"The deck is empty: {state.final_turns_left} last turn{'s' if state.final_turns_left != 1 else ''} "
                   "left (CG-END-1). ")
    p = state.pending_for(seat) if state.pending else None
    if p is None:
        return prefix + (f"{name}, step 2: draw two train cards, play cards into your rail yard, or draw tickets "
                         "(CG-TURN-2).")
    if p.kind == "to_track":
        return prefix + (f"{name}, step 1: move one card of each colour from your rail yard onto your on-the-track "
                         "pile — locomotives first (CG-TURN-1).")
    if p.kind == "second_card":
        return prefix + f"{name}: take your second card — not a face-up locomotive (CG-DRAW-2)."
    offered = p.get("offered")
    which = _ticket_words(data, offered) if viewer is None or viewer == seat else f"the {len(offered)} drawn tickets"
    return prefix + f"{name}: keep any of {which}, even none (CG-TICKET-1)."


def describe(state: CardState, action: Action | str, viewer: int | None = None) -> str:
    """An action in plain words. Ticket names are given only to their owner (and the teacher, ``viewer=None``)."""
    data = load_cards()
    if isinstance(action, str):
        action = parse_action(action)
    elif not isinstance(action, Action):
        raise BadAction(f"an action must be text or an Action, got {type(action).__name__}")
    problem = field_problem(action, state.n_players)
    if problem:
        raise BadAction(f"{action!r:.120}: {problem}")
    _check_fields(action)                    # card kinds of a payment, ... (BadAction)
    seat = getattr(action, "seat", None)
    if seat is None:
        acting = to_move(state)
        seat = acting[0] if len(acting) == 1 else state.current
    who = seat_name(seat)
    own = viewer is None or viewer == seat
    if isinstance(action, MoveToTrack):
        return f"{who} moves one card of each colour from the rail yard onto the on-the-track pile (step 1)"
    if isinstance(action, DrawDeck):
        return f"{who} draws the top card of the deck"
    if isinstance(action, DrawFaceUp):
        card = state.market[action.slot - 1] if 0 < action.slot <= len(state.market) else None
        return f"{who} takes face-up card {action.slot}" + (f" ({CARD_NAMES[card]})" if card is not None else "")
    if isinstance(action, PlayYard):
        return f"{who} plays {payment_words(action.payment)} into the rail yard"
    if isinstance(action, DrawTickets):
        return f"{who} draws destination tickets"
    if isinstance(action, KeepTickets):
        if not own:
            return f"{who} keeps {len(action.tickets)} ticket{'s' if len(action.tickets) != 1 else ''}"
        ids = [_ticket_id(data, t) for t in action.tickets]
        return f"{who} keeps " + (_ticket_words(data, [t for t in ids if t]) if action.tickets else "no tickets")
    if isinstance(action, CompleteTicket):
        if action.ticket is None:
            return f"{who} completes no more tickets"
        tid = _ticket_id(data, action.ticket)
        return f"{who} completes " + (_ticket_words(data, [tid]) if tid else action.ticket)
    if isinstance(action, Pass):
        return f"{who} passes: nothing is possible"
    return f"{who}: {action.body()}"


def observe(state: CardState, seat: int | None = None) -> dict:
    """What ``seat`` may see (None: the whole table). Secret: hands, held tickets, offered tickets and (until the
    round ends) the on-the-track piles — every player's, the owner's too unless ``see_own_track`` (CG-AREA-1): then
    only their sizes show; the deck and ticket deck order from everyone."""
    if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n_players):
        raise TTRError(f"there is no seat {seat!r} in a {state.n_players}-player game")
    from .scoring import big_city_standings
    players = []
    for i, p in enumerate(state.players):
        mine = seat is None or seat == i
        entry = {"seat": i, "name": seat_name(i), "hand_size": p.hand_size, "ticket_count": len(p.tickets),
                 "yard": {COLOURS[c]: {"cards": p.yard[c], "locomotives": p.yard_locos[c]}
                          for c in range(N_COLOURS) if p.yard[c]},
                 "track_size": sum(p.track), "completed": list(p.completed),
                 "spent": {CARD_NAMES[k]: n for k, n in enumerate(p.spent) if n}}
        if mine:
            entry["hand"] = {CARD_NAMES[k]: n for k, n in enumerate(p.hand) if n}
        if mine or state.phase == "over":
            entry["tickets"] = list(p.tickets)
        if track_visible(state, seat, i):
            entry["track"] = {CARD_NAMES[k]: n for k, n in enumerate(p.track) if n}
        players.append(entry)
    pending = []
    for p in state.pending:
        entry = {"kind": p.kind, "seat": p.seat}
        if seat is None or seat == p.seat:
            entry["data"] = {k: list(v) if isinstance(v, tuple) else v for k, v in p.data}
        elif p.kind == "choose_tickets":
            entry["offered_count"] = len(p.get("offered"))
        pending.append(entry)
    return {
        "variant": state.variant, "viewer": seat, "n_players": state.n_players, "phase": state.phase,
        "round": state.round, "current": state.current, "turn": state.turn, "ply": state.ply,
        "final_turns_left": state.final_turns_left,
        "market": [None if c is None else CARD_NAMES[c] for c in state.market], "deck_size": len(state.deck),
        "discard": {CARD_NAMES[k]: n for k, n in enumerate(state.discard) if n},
        "ticket_deck_size": len(state.ticket_deck), "players": players, "pending": pending,
        "big_cities": big_city_standings(state), "status": turn_status(state, seat),
        "see_own_track": state.see_own_track,
        "provisional_note": load_cards().provisional_note if load_cards().provisional else "",
    }


# ---------------------------------------------------------------------------------------------
# invariants

def validate(state: CardState) -> list[str]:
    """Every broken invariant, in words (empty: a position the rules can reach)."""
    problems: list[str] = []
    try:
        g = get_game(state.variant)
    except TTRError as e:
        return [str(e)]
    if not isinstance(state, CardState):
        return [f"a {type(state).__name__} is not a Card Game state"]
    st = g.settings
    data = load_cards()
    n = state.n_players
    if not st.min_players <= n <= st.max_players:
        problems.append(f"{n} players: the Card Game is for {st.min_players}–{st.max_players} (CG-COMP-4)")
    if len(state.players) != n:
        return problems + [f"{len(state.players)} player entries for {n} players"]
    totals = [0] * N_KINDS
    for c in state.deck:
        totals[c] += 1
    for c in state.market:
        if c is not None:
            totals[c] += 1
    piles = [("the discard pile", state.discard)]
    for i, p in enumerate(state.players):
        piles += [(f"{seat_name(i)}'s hand", p.hand), (f"{seat_name(i)}'s on-the-track pile", p.track),
                  (f"{seat_name(i)}'s completed-ticket cards", p.spent)]
        for c in range(N_COLOURS):
            totals[c] += p.yard[c]
            totals[LOCO] += p.yard_locos[c]
            if p.yard[c] < 0 or p.yard_locos[c] < 0:
                problems.append(f"{seat_name(i)}'s {COLOURS[c]} stack has a negative count")
            if p.yard_locos[c] and not p.yard[c]:
                problems.append(f"{seat_name(i)}'s rail yard has locomotives without a {COLOURS[c]} card under them "
                                "(CG-YARD-2)")
    for name, counts in piles:
        if len(counts) != N_KINDS:
            problems.append(f"{name} has {len(counts)} card kinds, expected {N_KINDS}")
            continue
        for k, c in enumerate(counts):
            if c < 0:
                problems.append(f"{name} has {c} {CARD_NAMES[k]} cards (negative)")
            totals[k] += c
    for k in range(N_KINDS):
        if totals[k] != data.deck[k]:
            problems.append(f"{CARD_NAMES[k]} cards: {totals[k]} in play but the game has {data.deck[k]} (CG-COMP-1)")
    if len(state.market) != st.market_size:
        problems.append(f"{len(state.market)} face-up slots, expected {st.market_size}")
    if None in state.market and state.deck:
        problems.append("a face-up slot is empty although the deck still has cards (CG-DRAW-1)")
    for c in range(N_COLOURS):
        holders = [seat_name(i) for i, p in enumerate(state.players) if p.yard[c]]
        if len(holders) > 1:
            problems.append(f"{' and '.join(holders)} both have {COLOURS[c]} in their rail yards: the later play "
                            "should have robbed the earlier (CG-YARD-4)")
    # tickets: each exactly once
    where: dict[str, list[str]] = {}
    for t in state.ticket_deck:
        where.setdefault(t, []).append("the ticket deck")
    for i, p in enumerate(state.players):
        for t in p.tickets:
            where.setdefault(t, []).append(f"{seat_name(i)}'s tickets")
        for t in p.completed:
            where.setdefault(t, []).append(f"{seat_name(i)}'s completed tickets")
        if not 0 <= p.completed_round1 <= len(p.completed):
            problems.append(f"{seat_name(i)} has {p.completed_round1} tickets completed in round 1 out of "
                            f"{len(p.completed)}")
        spent_need = sum(data.ticket(t).size for t in p.completed[p.completed_round1:] if data.has_ticket(t))
        if sum(p.spent) != spent_need:
            problems.append(f"{seat_name(i)} has {sum(p.spent)} cards laid with completed tickets but those tickets "
                            f"need {spent_need} (CG-END-2)")
    for pend in state.pending:
        if pend.kind == "choose_tickets":
            for t in pend.get("offered", ()):
                where.setdefault(t, []).append(f"offered to {seat_name(pend.seat)}")
    known = {t.id for t in data.tickets}
    for t in sorted(where):
        if t not in known:
            problems.append(f"ticket {t} does not exist in the Card Game")
        elif len(where[t]) > 1:
            problems.append(f"ticket {t} is in several places: {', '.join(where[t])}")
    for t in sorted(known - set(where)):
        problems.append(f"ticket {t} is missing (not in the deck, a hand, an offer or completed)")
    # turn structure
    kinds = [p.kind for p in state.pending]
    if state.round == 2 and n < st.two_round_players:
        problems.append(f"a second round with {n} players: only {st.two_round_players} players play two (CG-ROUND-1)")
    if state.phase == "setup":
        if not state.pending or set(kinds) != {"choose_tickets"}:
            problems.append("in setup every pending step must be an initial ticket choice (CG-SETUP-4)")
    elif state.phase in ("play", "last_round"):
        if len(state.pending) > 1:
            problems.append("during play at most one step can be pending")
        for p in state.pending:
            if p.seat != state.current:
                problems.append(f"{seat_name(p.seat)} has a pending step but it is {seat_name(state.current)}'s turn")
            if p.kind == "to_track" and not state.players[p.seat].yard_size:
                problems.append(f"{seat_name(p.seat)} owes step 1 with an empty rail yard (CG-TURN-1)")
            if p.kind not in ("to_track", "second_card", "choose_tickets"):
                problems.append(f"a {p.kind} step cannot be pending during play")
        if state.phase == "play" and not state.deck and kinds != ["second_card"]:
            problems.append("the deck is empty but the last round has not started (CG-END-1)")
        if state.phase == "last_round" and state.deck:
            problems.append("the last round has started but the deck still has cards (CG-END-1)")
    elif state.phase == "complete":
        if any(k != "complete_tickets" for k in kinds) or not kinds:
            problems.append("at the end of a round only ticket completions can be pending (CG-END-2)")
    elif state.phase == "over" and state.pending:
        problems.append("the game is over but steps are still pending")
    if (state.phase == "last_round") != (state.final_turns_left > 0):
        problems.append(f"phase {state.phase!r} does not fit final_turns_left = {state.final_turns_left} (CG-END-1)")
    if state.final_turns_left > n:
        problems.append(f"{state.final_turns_left} last turns left but only {n} players")
    if not problems and state.phase != "over":
        try:
            stuck = not legal_actions(state)
        except (TTRError, ValueError, TypeError, KeyError, IndexError) as e:
            problems.append(f"the legal actions of this position cannot be listed: {e}")
        else:
            if stuck:
                problems.append("no player has a legal action, yet the game is not over: nobody could play on")
    return problems


def game_html(game) -> str:
    """The HTML summary of a ``ttr_nb.Game`` of the Card Game (``Game._repr_html_``)."""
    import html
    s = game.state
    g = get_game(s.variant)
    rows = []
    for i, p in enumerate(s.players):
        mark = "▶ " if i in to_move(s) else ""
        yard = ", ".join(f"{COLOURS[c]} {p.yard[c]}" + (f"+{p.yard_locos[c]} loco" if p.yard_locos[c] else "")
                         for c in range(N_COLOURS) if p.yard[c]) or "—"
        rows.append(f"<tr><td>{mark}{html.escape(seat_name(i))}</td><td>{p.hand_size}</td><td>{html.escape(yard)}</td>"
                    f"<td>{sum(p.track)}</td><td>{len(p.tickets)}</td><td>{len(p.completed)}</td></tr>")
    market = ", ".join("—" if c is None else CARD_NAMES[c] for c in s.market)
    last = "".join(f"<li>{html.escape(p.words)}</li>" for p in game.history[-5:])
    warn = (f"<p style='color:#a40'><b>PROVISIONAL data:</b> {html.escape(g.provisional_note)}</p>"
            if g.provisional else "")
    return (f"<div><b>{html.escape(g.name)}</b> — {s.n_players} players, seed {s.seed}, round {s.round}, "
            f"ply {game.ply}{warn}<p>{html.escape(turn_status(s))}</p>"
            "<table><tr><th>player</th><th>cards</th><th>rail yard</th><th>on the track</th><th>open tickets</th>"
            f"<th>completed</th></tr>{''.join(rows)}</table><p>Face-up: {market} · deck {len(s.deck)} · "
            f"tickets {len(s.ticket_deck)}</p>{'<ol>' + last + '</ol>' if last else ''}</div>")


def seat_view_text(state: CardState, seat: int) -> str:
    """What ``observe(state, seat)`` lets one seat see, in lines: its own hand, tickets and on-the-track pile;
    only counts for the others (their rail yards are public)."""
    data = load_cards()
    view = observe(state, seat)
    lines = [f"What {seat_name(seat)} sees — observe(state, {seat}):"]
    for p in view["players"]:
        yard = ", ".join(f"{v['cards']} {c}" + (f" + {v['locomotives']} loco" if v["locomotives"] else "")
                         for c, v in p["yard"].items()) or "empty"
        if "hand" in p:
            hand = ", ".join(f"{n} {c}" for c, n in p["hand"].items()) or "no cards"
            tickets = _ticket_words(data, p["tickets"]) or "none yet"
        else:
            hand, tickets = f"{p['hand_size']} cards (hidden)", f"{p['ticket_count']} (hidden)"
        track = (", ".join(f"{n} {c}" for c, n in p["track"].items()) or "empty") if "track" in p else \
            f"{p['track_size']} cards face down" + (" (yours too, until the round ends)" if p["seat"] == seat else "")
        lines.append(f"  {p['name']:<6} hand: {hand} · tickets: {tickets} · rail yard: {yard} · on the track: {track}")
    pend = [q for q in view["pending"] if q["seat"] == seat and q.get("data", {}).get("offered")]
    for q in pend:
        lines.append(f"  offered to {seat_name(seat)}: {_ticket_words(data, q['data']['offered'])}")
    lines.append(f"  face-up: {', '.join(c or '(empty)' for c in view['market'])} · deck: {view['deck_size']} cards")
    return "\n".join(lines)


def state_from_dict(d) -> CardState:
    return CardState.from_dict(d)


def score(state: CardState):
    from .scoring import score as _score
    return _score(state)


__all__ = ["new_game", "determinize", "to_move", "legal_actions", "apply", "step", "check", "explain", "is_legal", "observe",
           "validate", "require_valid", "turn_status", "describe", "score", "state_from_dict", "yard_plays",
           "track_visible", "GAME_OPTIONS",
           "yard_problem", "completable", "best_completion", "game_html", "draw_actions", "opponents_stack",
           "seat_view_text"]
