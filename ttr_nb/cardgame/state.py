"""The Card Game's state: one immutable, JSON-serialisable value, like the board game's ``GameState``.

Card piles are count vectors over the card kinds of ``ttr_nb.board.cards`` (eight colours, index 8 = locomotive), except
the deck, whose order matters (index 0 is the top). A rail yard is stored per colour: ``yard[c]`` colour cards in
the stack of colour ``c`` and ``yard_locos[c]`` locomotives lying on top of it (CG-YARD-2). A three-colour play
(CG-YARD-1 b) makes three one-card stacks, which is the same thing in this form.

Phases: ``setup`` (initial ticket choice, simultaneous) → ``play`` → ``last_round`` (the deck is empty: one more turn
each, CG-END-1) → ``complete`` (every player chooses which tickets to complete, simultaneous, CG-END-2) → ``play`` of
round 2 (4 players, CG-END-4) or ``over``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..board.cards import BASE_KINDS, CARD_NAMES, COLOURS
from ..errors import StateError
from ..board.state import Pending, _expect_keys, _int, _json_value, _list, _str, _fail, _card, _counts, _pairs_to_json, pairs_get

PHASES = ("setup", "play", "last_round", "complete", "over")
N_KINDS = BASE_KINDS                   # the 8 colours and the locomotive (no Märklin cards)
N_COLOURS = len(COLOURS)


@dataclass(frozen=True, slots=True)
class CardPlayer:
    hand: tuple[int, ...]              # count per card kind (secret)
    yard: tuple[int, ...]              # colour cards per colour stack in the rail yard (public)
    yard_locos: tuple[int, ...]        # locomotives on top of each colour stack (public)
    track: tuple[int, ...]             # the on-the-track pile, count per card kind (face down: secret)
    tickets: tuple[str, ...]           # held, not (yet) completed tickets, in the order kept (secret)
    completed: tuple[str, ...] = ()    # completed tickets, laid face up (public), in the order completed
    spent: tuple[int, ...] = (0,) * N_KINDS   # the cards laid face up with the completed tickets (public)
    completed_round1: int = 0          # how many of ``completed`` were completed at the end of round 1

    @property
    def hand_size(self) -> int:
        return sum(self.hand)

    @property
    def yard_size(self) -> int:
        return sum(self.yard) + sum(self.yard_locos)

    def stack(self, colour: int) -> int:
        """Cards in the stack of ``colour`` (locomotives on it included)."""
        return self.yard[colour] + self.yard_locos[colour]

    def yard_colours(self) -> list[int]:
        return [c for c in range(N_COLOURS) if self.yard[c]]

    def to_dict(self) -> dict:
        return {
            "hand": _named(self.hand),
            "yard": {COLOURS[c]: {"cards": self.yard[c], "locomotives": self.yard_locos[c]}
                     for c in range(N_COLOURS) if self.yard[c] or self.yard_locos[c]},
            "track": _named(self.track),
            "tickets": list(self.tickets),
            "completed": list(self.completed),
            "spent": _named(self.spent),
            "completed_round1": self.completed_round1,
        }


def _named(counts: tuple[int, ...]) -> dict:
    return {CARD_NAMES[k]: n for k, n in enumerate(counts) if n}


@dataclass(frozen=True, slots=True)
class CardState:
    variant: str
    n_players: int
    seed: int
    deck: tuple[int, ...]                      # card kinds, index 0 = top
    market: tuple[int | None, ...]             # the five face-up cards; None = empty (the deck ran out)
    discard: tuple[int, ...]                   # count per card kind (robbed stacks, CG-YARD-4)
    ticket_deck: tuple[str, ...]               # top first
    players: tuple[CardPlayer, ...]
    phase: str = "setup"
    round: int = 1                             # 1, or 2 with 4 players (CG-ROUND-2)
    current: int = 0
    pending: tuple[Pending, ...] = ()
    final_turns_left: int = -1                 # -1 until the deck runs out (CG-END-1)
    round_ender: int = -1                      # who drew the last card of the deck this round (CG-END-4)
    turn: int = 0
    ply: int = 0
    shuffles: int = 0
    first_player: int = 0
    # CG-AREA-1: the book keeps every on-the-track pile secret, its owner's too, until the round ends; with young or
    # new players it lets owners look at their own pile. True = that option (a setting of the game, saved with it).
    see_own_track: bool = False

    def get(self, key: str, default: Any = None) -> Any:   # the board state's interface, for shared helpers
        return default

    def pending_for(self, seat: int) -> Pending | None:
        for p in self.pending:
            if p.seat == seat:
                return p
        return None

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def to_dict(self) -> dict:
        return {
            "variant": self.variant, "n_players": self.n_players, "seed": self.seed,
            "deck": [CARD_NAMES[c] for c in self.deck],
            "market": [None if c is None else CARD_NAMES[c] for c in self.market],
            "discard": _named(self.discard), "ticket_deck": list(self.ticket_deck),
            "players": [p.to_dict() for p in self.players], "phase": self.phase, "round": self.round,
            "current": self.current, "pending": [p.to_dict() for p in self.pending],
            "final_turns_left": self.final_turns_left, "round_ender": self.round_ender, "turn": self.turn,
            "ply": self.ply, "shuffles": self.shuffles, "first_player": self.first_player,
            "see_own_track": self.see_own_track,
        }

    @classmethod
    def from_dict(cls, d: Any) -> "CardState":
        """Decode strictly (every field, right types, no extra keys); StateError names the field. Invariants across
        fields are ``validate``'s job."""
        return _decode(d)


_STATE_FIELDS = [f.name for f in fields(CardState)]
_PLAYER_FIELDS = [f.name for f in fields(CardPlayer) if f.name != "yard_locos"]   # in JSON, "yard" holds both


def _ids(v: Any, where: str) -> tuple[str, ...]:
    return tuple(_str(t, f"{where}[{j}]", 20) for j, t in enumerate(_list(v, where, 100)))


def _yard(v: Any, where: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if not isinstance(v, dict):
        raise _fail(where, "must be an object: colour -> {cards, locomotives}")
    cards, locos = [0] * N_COLOURS, [0] * N_COLOURS
    for name, stack in v.items():
        if name not in COLOURS:
            raise _fail(f"{where}.{name}", f"is not a colour ({', '.join(COLOURS)})")
        stack = _expect_keys(stack, f"{where}.{name}", ["cards", "locomotives"])
        c = COLOURS.index(name)
        cards[c] = _int(stack["cards"], f"{where}.{name}.cards", 0, 200)
        locos[c] = _int(stack["locomotives"], f"{where}.{name}.locomotives", 0, 200)
    return tuple(cards), tuple(locos)


_OPTIONAL_FIELDS = ("see_own_track",)     # absent in files saved before the setting existed: the book's rule


def _decode(d: Any) -> CardState:
    d = _expect_keys(d, "top level", [f for f in _STATE_FIELDS if f not in _OPTIONAL_FIELDS], _OPTIONAL_FIELDS)
    see_own = d.get("see_own_track", False)
    if not isinstance(see_own, bool):
        raise _fail("see_own_track", f"must be true or false, got {see_own!r:.40}")
    n = _int(d["n_players"], "n_players", 1, 8)
    players = []
    for i, p in enumerate(_list(d["players"], "players", 8)):
        w = f"players[{i}]"
        p = _expect_keys(p, w, _PLAYER_FIELDS)
        yard, locos = _yard(p["yard"], f"{w}.yard")
        players.append(CardPlayer(
            hand=_counts(p["hand"], f"{w}.hand", N_KINDS), yard=yard, yard_locos=locos,
            track=_counts(p["track"], f"{w}.track", N_KINDS), tickets=_ids(p["tickets"], f"{w}.tickets"),
            completed=_ids(p["completed"], f"{w}.completed"), spent=_counts(p["spent"], f"{w}.spent", N_KINDS),
            completed_round1=_int(p["completed_round1"], f"{w}.completed_round1", 0, 100)))
    if len(players) != n:
        raise _fail("players", f"has {len(players)} entries but n_players is {n}")
    pending = []
    for i, p in enumerate(_list(d["pending"], "pending", 16)):
        w = f"pending[{i}]"
        p = _expect_keys(p, w, ["kind", "seat", "data"])
        if not isinstance(p["data"], dict):
            raise _fail(f"{w}.data", "must be an object")
        pending.append(Pending(_str(p["kind"], f"{w}.kind", 40), _int(p["seat"], f"{w}.seat", 0, n - 1),
                               _json_value(p["data"], f"{w}.data")))
    phase = _str(d["phase"], "phase", 20)
    if phase not in PHASES:
        raise _fail("phase", f"must be one of {', '.join(PHASES)}, got {phase!r}")
    return CardState(
        variant=_str(d["variant"], "variant", 40), n_players=n, seed=_int(d["seed"], "seed", 0, 2**63 - 1),
        deck=tuple(_card(c, f"deck[{i}]", N_KINDS) for i, c in enumerate(_list(d["deck"], "deck", 200))),
        market=tuple(None if c is None else _card(c, f"market[{i}]", N_KINDS)
                     for i, c in enumerate(_list(d["market"], "market", 10))),
        discard=_counts(d["discard"], "discard", N_KINDS), ticket_deck=_ids(d["ticket_deck"], "ticket_deck"),
        players=tuple(players), phase=phase, round=_int(d["round"], "round", 1, 2),
        current=_int(d["current"], "current", 0, n - 1), pending=tuple(pending),
        final_turns_left=_int(d["final_turns_left"], "final_turns_left", -1, 9),
        round_ender=_int(d["round_ender"], "round_ender", -1, n - 1), turn=_int(d["turn"], "turn"),
        ply=_int(d["ply"], "ply"), shuffles=_int(d["shuffles"], "shuffles"),
        first_player=_int(d["first_player"], "first_player", 0, n - 1), see_own_track=see_own)


# The engine makes a CardState (and a CardPlayer or two) on every ply; the frozen ``__init__`` sets each of the
# 19 fields through ``object.__setattr__``. As in ``ttr_nb.board.state.new_state``, a plain slotted class with the very
# same slots is filled by ordinary attribute stores and then becomes the frozen class by ``__class__`` assignment
# (CPython allows it between classes of one memory layout). tests/test_cardgame_fastpaths.py checks the result
# equals the dataclass's own construction.
class _OpenCardState:
    __slots__ = CardState.__slots__


class _OpenCardPlayer:
    __slots__ = CardPlayer.__slots__


def new_card_state(variant, n_players, seed, deck, market, discard, ticket_deck, players, phase, round, current,
                   pending, final_turns_left, round_ender, turn, ply, shuffles, first_player,
                   see_own_track) -> CardState:
    """``CardState(...)`` with every field given in declaration order, without the frozen ``__init__``'s cost."""
    s = _OpenCardState()
    s.variant = variant
    s.n_players = n_players
    s.seed = seed
    s.deck = deck
    s.market = market
    s.discard = discard
    s.ticket_deck = ticket_deck
    s.players = players
    s.phase = phase
    s.round = round
    s.current = current
    s.pending = pending
    s.final_turns_left = final_turns_left
    s.round_ender = round_ender
    s.turn = turn
    s.ply = ply
    s.shuffles = shuffles
    s.first_player = first_player
    s.see_own_track = see_own_track
    s.__class__ = CardState
    return s


def new_card_player(hand, yard, yard_locos, track, tickets, completed, spent, completed_round1) -> CardPlayer:
    """``CardPlayer(...)`` with every field given in declaration order, quickly (see ``new_card_state``)."""
    p = _OpenCardPlayer()
    p.hand = hand
    p.yard = yard
    p.yard_locos = yard_locos
    p.track = track
    p.tickets = tickets
    p.completed = completed
    p.spent = spent
    p.completed_round1 = completed_round1
    p.__class__ = CardPlayer
    return p


def pending_data(p: Pending) -> dict:
    return _pairs_to_json(p.data)


def _revealed(state: CardState) -> bool:
    """From the end-of-round completion on, the on-the-track piles are shown (CG-AREA-1)."""
    return state.phase in ("complete", "over")


def track_visible(state: CardState, seat: int | None, owner: int) -> bool:
    """Whether ``seat`` (None: the teacher) may see the cards of ``owner``'s on-the-track pile (CG-AREA-1): the
    teacher always; everyone once the round is over; its owner during the round only with ``see_own_track``."""
    return seat is None or _revealed(state) or (seat == owner and state.see_own_track)



__all__ = ["CardState", "CardPlayer", "PHASES", "new_card_state", "new_card_player", "StateError", "pairs_get", "pending_data", "track_visible"]
