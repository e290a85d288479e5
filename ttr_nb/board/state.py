"""The game state: one immutable, JSON-serialisable value that holds everything.

Nothing in a state refers to a ``Map``, a ``Random`` or a callable: the variant and map are named by key,
randomness is a seed plus counters, so ``GameState.from_dict(s.to_dict()) == s`` always holds and a state can
be saved, shared as text, edited and validated.

Card piles are count vectors indexed by card kind (``ttr_nb.board.cards``), except the deck, whose order matters
(index 0 is the top card). Route ownership is one entry per route of the map (``-1`` = free). Whether a twin
route is closed (USA-CLAIM-8) is derived from the claims, never stored, so it can never disagree with them.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import itemgetter
from typing import Any, Iterable, Sequence

from .cards import CARD_NAMES
from ..errors import StateError

FREE = -1

PHASES = ("setup", "play", "last_round", "over")

Pairs = tuple  # a frozen mapping written as a sorted tuple of (key, value) pairs; values JSON-like and immutable


def freeze(value: Any) -> Any:
    """Lists become tuples and dicts become sorted pair tuples, recursively (for feature data read from JSON)."""
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), freeze(v)) for k, v in value.items()))
    return value


def pairs_get(pairs: Pairs, key: str, default: Any = None) -> Any:
    for k, v in pairs:
        if k == key:
            return v
    return default


def offer_terms(data: Pairs) -> tuple[Any, Any, Any]:
    """A ticket offer's (min_keep, offered, returns): read with one unpacking where its data has the shape the
    engine gives every offer (these three keys first; Märklin's rule after them), by key otherwise (an edited
    state). ``engine._quick_keep`` and the random bot's keep read offers through it."""
    try:
        (k0, min_keep), (k1, offered), (k2, returns) = data[:3]
        if k0 == "min_keep" and k1 == "offered" and k2 == "returns":
            return min_keep, offered, returns
    except (TypeError, ValueError):
        pass
    return pairs_get(data, "min_keep"), pairs_get(data, "offered"), pairs_get(data, "returns")


_key = itemgetter(0)                # a pair's key: sorts in C, no Python call per pair


def pairs_set(pairs: Pairs, key: str, value: Any) -> Pairs:
    """A new pair tuple with ``key`` set (``None`` removes it)."""
    if len(pairs) <= 1 and value is not None and (not pairs or pairs[0][0] == key):
        return ((key, value),)                  # (the features' quick paths' usual case: a one-key table or player)
    out = [(k, v) for k, v in pairs if k != key]
    if value is not None:
        out.append((key, value))
    out.sort(key=_key)
    return tuple(out)


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def _pairs_to_json(pairs: Pairs) -> dict:
    return {k: _thaw(v) for k, v in pairs}


@dataclass(frozen=True, slots=True)
class Pending:
    """A sub-step owed by a seat before play can go on.

    kinds: ``choose_tickets`` (data: offered, min_keep, returns), ``second_card`` (USA-DRAW-1), and the ones
    features add (``tunnel`` in Europe, ...).
    """

    kind: str
    seat: int
    data: Pairs = ()

    def get(self, key: str, default: Any = None) -> Any:
        return pairs_get(self.data, key, default)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "seat": self.seat, "data": _pairs_to_json(self.data)}


@dataclass(frozen=True, slots=True)
class PlayerState:
    hand: tuple[int, ...]          # count per card kind
    trains: int                    # trains left in the supply
    tickets: tuple[str, ...]       # kept destination tickets, in the order they were kept
    route_points: int = 0          # points scored during play (USA-CLAIM-9)
    ext: Pairs = ()                # feature data (stations, ...)

    def get(self, key: str, default: Any = None) -> Any:
        return pairs_get(self.ext, key, default)

    @property
    def hand_size(self) -> int:
        return sum(self.hand)

    def to_dict(self) -> dict:
        return {
            "hand": {CARD_NAMES[i]: n for i, n in enumerate(self.hand) if n},
            "trains": self.trains,
            "tickets": list(self.tickets),
            "route_points": self.route_points,
            "ext": _pairs_to_json(self.ext),
        }


@dataclass(frozen=True, slots=True)
class GameState:
    variant: str
    n_players: int
    seed: int
    deck: tuple[int, ...]                       # card kinds, index 0 = top of the deck
    market: tuple[int | None, ...]              # face-up cards; None = empty slot (deck and discards ran out)
    discard: tuple[int, ...]                    # count per card kind
    ticket_decks: tuple[tuple[str, tuple[str, ...]], ...]   # (deck name, ticket ids top first)
    tickets_out: tuple[str, ...]                # tickets out of the game (Europe setup returns, ...)
    claims: tuple[int, ...]                     # per route index: owner seat or FREE
    players: tuple[PlayerState, ...]
    phase: str = "setup"
    current: int = 0                            # whose turn it is (phase play / last_round)
    pending: tuple[Pending, ...] = ()
    final_turns_left: int = -1                  # -1 until the end is triggered (USA-END-1)
    turn: int = 0                               # completed turns
    ply: int = 0                                # applied actions
    passes: int = 0                             # consecutive turns passed (no action was possible)
    shuffles: int = 0                           # how many times the train deck was shuffled
    first_player: int = 0
    ext: Pairs = ()                             # feature data for the whole table

    # -- small conveniences -------------------------------------------------------------------
    def get(self, key: str, default: Any = None) -> Any:
        return pairs_get(self.ext, key, default)

    def ticket_deck(self, name: str) -> tuple[str, ...]:
        for deck_name, ids in self.ticket_decks:
            if deck_name == name:
                return ids
        return ()

    def pending_for(self, seat: int) -> Pending | None:
        for p in self.pending:
            if p.seat == seat:
                return p
        return None

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    # -- JSON ---------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "variant": self.variant,
            "n_players": self.n_players,
            "seed": self.seed,
            "deck": [CARD_NAMES[c] for c in self.deck],
            "market": [None if c is None else CARD_NAMES[c] for c in self.market],
            "discard": {CARD_NAMES[i]: n for i, n in enumerate(self.discard) if n},
            "ticket_decks": {name: list(ids) for name, ids in self.ticket_decks},
            "tickets_out": list(self.tickets_out),
            "claims": list(self.claims),
            "players": [p.to_dict() for p in self.players],
            "phase": self.phase,
            "current": self.current,
            "pending": [p.to_dict() for p in self.pending],
            "final_turns_left": self.final_turns_left,
            "turn": self.turn,
            "ply": self.ply,
            "passes": self.passes,
            "shuffles": self.shuffles,
            "first_player": self.first_player,
            "ext": _pairs_to_json(self.ext),
        }

    @classmethod
    def from_dict(cls, d: Any, *, n_kinds: int | None = None) -> "GameState":
        """Decode strictly: every field present with the right type, no extra keys. Raises StateError.

        Invariants across fields (card conservation, trains, ...) are checked by ``validate``, not here. A state
        of a game with its own rules module (the Card Game) is decoded by that module.
        """
        rules = _other_rules(d)
        if rules is not None:
            return rules.state_from_dict(d)
        if n_kinds is None:                      # the variant's card kinds (Märklin adds +4 and passenger cards)
            n_kinds = _variant_kinds(d.get("variant") if isinstance(d, dict) else None)
        return _decode_state(d, n_kinds)


def _variant_kinds(name: Any) -> int:
    from .cards import BASE_KINDS
    from ..errors import TTRError
    from ..variants import get_variant
    if not isinstance(name, str) or len(name) > 100:
        return BASE_KINDS
    try:
        return get_variant(name).card_kinds
    except TTRError:
        return BASE_KINDS


# ---------------------------------------------------------------------------------------------
# strict decoding (hostile input: wrong types, huge numbers, extra keys)

_MAX_INT = 10**9


def _fail(where: str, msg: str) -> StateError:
    return StateError(f"state: {where}: {msg}")


def _expect_keys(d: Any, where: str, required: Iterable[str], optional: Iterable[str] = ()) -> dict:
    if not isinstance(d, dict):
        raise _fail(where, f"must be an object, got {type(d).__name__}")
    required = list(required)
    allowed = set(required) | set(optional)
    missing = [k for k in required if k not in d]
    if missing:
        raise _fail(where, f"missing field(s) {', '.join(missing)}")
    extra = sorted(str(k) for k in d if k not in allowed)
    if extra:
        raise _fail(where, f"unknown field(s) {', '.join(extra)}")
    return d


def _int(v: Any, where: str, lo: int = 0, hi: int = _MAX_INT) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _fail(where, f"must be a whole number, got {v!r:.60}")
    if not lo <= v <= hi:
        raise _fail(where, f"must be between {lo} and {hi}, got {v}")
    return v


def _str(v: Any, where: str, max_len: int = 200) -> str:
    if not isinstance(v, str):
        raise _fail(where, f"must be text, got {type(v).__name__}")
    if len(v) > max_len:
        raise _fail(where, f"is too long ({len(v)} characters)")
    return v


def _list(v: Any, where: str, max_len: int = 10_000) -> list:
    if not isinstance(v, list):
        raise _fail(where, f"must be a list, got {type(v).__name__}")
    if len(v) > max_len:
        raise _fail(where, f"is too long ({len(v)} items)")
    return v


def _card(v: Any, where: str, n_kinds: int) -> int:
    name = _str(v, where)
    try:
        kind = CARD_NAMES.index(name)
    except ValueError:
        raise _fail(where, f"unknown card {name!r} (cards: {', '.join(CARD_NAMES)})") from None
    if kind >= n_kinds:
        raise _fail(where, f"card {name!r} is not used in this variant")
    return kind


def _counts(v: Any, where: str, n_kinds: int) -> tuple[int, ...]:
    if not isinstance(v, dict):
        raise _fail(where, f"must be an object of card counts, got {type(v).__name__}")
    out = [0] * n_kinds
    for name, n in v.items():
        kind = _card(name, f"{where}.{name}", n_kinds)
        out[kind] = _int(n, f"{where}.{name}", 0, 10_000)
    return tuple(out)


def _json_value(v: Any, where: str, depth: int = 0) -> Any:
    if depth > 8:
        raise _fail(where, "is nested too deeply")
    if v is None or isinstance(v, bool | str):
        return v
    if isinstance(v, int):
        return _int(v, where, -_MAX_INT, _MAX_INT)
    if isinstance(v, list):
        return tuple(_json_value(x, where, depth + 1) for x in _list(v, where))
    if isinstance(v, dict):
        return tuple(sorted((_str(k, where), _json_value(x, f"{where}.{k}", depth + 1)) for k, x in v.items()))
    raise _fail(where, f"has a value of unsupported type {type(v).__name__}")


def _pairs(v: Any, where: str) -> Pairs:
    if not isinstance(v, dict):
        raise _fail(where, f"must be an object, got {type(v).__name__}")
    return _json_value(v, where)


_STATE_FIELDS = [f.name for f in fields(GameState)]
_PLAYER_FIELDS = [f.name for f in fields(PlayerState)]


def _decode_state(d: Any, n_kinds: int) -> GameState:
    d = _expect_keys(d, "top level", _STATE_FIELDS)
    n_players = _int(d["n_players"], "n_players", 1, 8)
    players = []
    for i, p in enumerate(_list(d["players"], "players", 8)):
        w = f"players[{i}]"
        p = _expect_keys(p, w, _PLAYER_FIELDS)
        players.append(PlayerState(
            hand=_counts(p["hand"], f"{w}.hand", n_kinds),
            trains=_int(p["trains"], f"{w}.trains", 0, 1000),
            tickets=tuple(_str(t, f"{w}.tickets[{j}]", 20) for j, t in enumerate(_list(p["tickets"], f"{w}.tickets", 500))),
            route_points=_int(p["route_points"], f"{w}.route_points", -_MAX_INT, _MAX_INT),
            ext=_pairs(p["ext"], f"{w}.ext"),
        ))
    if len(players) != n_players:
        raise _fail("players", f"has {len(players)} entries but n_players is {n_players}")
    decks = d["ticket_decks"]
    if not isinstance(decks, dict):
        raise _fail("ticket_decks", "must be an object of deck name -> ticket ids")
    ticket_decks = tuple(
        (_str(name, "ticket_decks", 40), tuple(_str(t, f"ticket_decks.{name}[{j}]", 20) for j, t in enumerate(_list(ids, f"ticket_decks.{name}", 500))))
        for name, ids in sorted(decks.items())
    )
    pending = []
    for i, p in enumerate(_list(d["pending"], "pending", 16)):
        w = f"pending[{i}]"
        p = _expect_keys(p, w, ["kind", "seat", "data"])
        pending.append(Pending(_str(p["kind"], f"{w}.kind", 40), _int(p["seat"], f"{w}.seat", 0, n_players - 1), _pairs(p["data"], f"{w}.data")))
    market = []
    for i, c in enumerate(_list(d["market"], "market", 10)):
        market.append(None if c is None else _card(c, f"market[{i}]", n_kinds))
    phase = _str(d["phase"], "phase", 20)
    if phase not in PHASES:
        raise _fail("phase", f"must be one of {', '.join(PHASES)}, got {phase!r}")
    return GameState(
        variant=_str(d["variant"], "variant", 40),
        n_players=n_players,
        seed=_int(d["seed"], "seed", 0, 2**63 - 1),
        deck=tuple(_card(c, f"deck[{i}]", n_kinds) for i, c in enumerate(_list(d["deck"], "deck", 1000))),
        market=tuple(market),
        discard=_counts(d["discard"], "discard", n_kinds),
        ticket_decks=ticket_decks,
        tickets_out=tuple(_str(t, f"tickets_out[{j}]", 20) for j, t in enumerate(_list(d["tickets_out"], "tickets_out", 500))),
        claims=tuple(_int(c, f"claims[{i}]", FREE, n_players - 1) for i, c in enumerate(_list(d["claims"], "claims", 1000))),
        players=tuple(players),
        phase=phase,
        current=_int(d["current"], "current", 0, n_players - 1),
        pending=tuple(pending),
        final_turns_left=_int(d["final_turns_left"], "final_turns_left", -1, 8),
        turn=_int(d["turn"], "turn"),
        ply=_int(d["ply"], "ply"),
        passes=_int(d["passes"], "passes", 0, 100),
        shuffles=_int(d["shuffles"], "shuffles"),
        first_player=_int(d["first_player"], "first_player", 0, n_players - 1),
        ext=_pairs(d["ext"], "ext"),
    )


def _other_rules(d: Any):
    """The rules module of the game ``d`` names when that is not the board engine, else None."""
    if not isinstance(d, dict) or not isinstance(d.get("variant"), str):
        return None
    from ..errors import TTRError
    from ..variants import get_game, rules_of
    try:
        game = get_game(d["variant"])
    except TTRError:
        return None                   # an unknown name: the board decoder reads it and validate reports it
    return None if game.rules == "ttr_nb.board.engine" else rules_of(game.key)


def _slot_setters(cls) -> tuple:
    return tuple((f.name, getattr(cls, f.name).__set__) for f in fields(cls))


_SETTERS: dict[type, tuple] = {}


def replace_fields(obj: Any, **changes: Any) -> Any:
    """A fast ``dataclasses.replace`` for the slotted frozen classes above (no __post_init__ to run): the slot
    descriptors are set directly, which is what the frozen ``__init__`` does, minus its per-field overhead."""
    cls = type(obj)
    setters = _SETTERS.get(cls)
    if setters is None:
        setters = _SETTERS[cls] = _slot_setters(cls)
    new = object.__new__(cls)
    get = changes.get
    for name, setter in setters:
        setter(new, get(name, getattr(obj, name)))
    return new


def build(cls, values: Sequence[Any]) -> Any:
    """Construct a slotted frozen dataclass from all its field values in declaration order, quickly."""
    setters = _SETTERS.get(cls)
    if setters is None:
        setters = _SETTERS[cls] = _slot_setters(cls)
    new = object.__new__(cls)
    for (_, setter), value in zip(setters, values):
        setter(new, value)
    return new


# The engine makes a GameState and a PlayerState on nearly every ply, and the frozen __init__ (one
# object.__setattr__ per field) or the slot descriptors called one by one cost several microseconds. An open
# subclass (no slots of its own, object's plain __init__/__setattr__/__delattr__ instead of the frozen ones) is
# filled by ordinary attribute stores (the interpreter's fastest path) and then becomes the frozen class by
# __class__ assignment, which CPython allows between classes of one memory layout. Being a subclass that adds no
# slots makes that assignment's layout check stop at once, where a separate class with the same slots had both
# slot lists compared name by name: about 650 fewer instructions a ply (cachegrind). All three overrides are
# needed for the stores to be plain: with either frozen method left, every store goes through a Python-level
# lookup. tests/test_engine_fastpaths.py checks the result equals the dataclass's own construction. (The engine's
# most frequent endings of a ply, engine._turn_over and a first card in engine._quick_draw, spell new_state out,
# and engine._quick_draw and _quick_claim new_player.)
def open_subclass(cls: type) -> type:
    """``cls``'s open subclass: no slots of its own, object's plain __init__/__setattr__/__delattr__ (see above)."""
    return type(f"_Open{cls.__name__}", (cls,), {"__slots__": (), "__init__": object.__init__,
                                                  "__setattr__": object.__setattr__, "__delattr__": object.__delattr__})


_OpenState = open_subclass(GameState)
_OpenPlayer = open_subclass(PlayerState)
_OpenPending = open_subclass(Pending)


def new_state(variant, n_players, seed, deck, market, discard, ticket_decks, tickets_out, claims, players, phase,
              current, pending, final_turns_left, turn, ply, passes, shuffles, first_player, ext) -> GameState:
    """``GameState(...)`` with every field given in declaration order, without the frozen ``__init__``'s cost."""
    s = _OpenState()
    s.variant = variant
    s.n_players = n_players
    s.seed = seed
    s.deck = deck
    s.market = market
    s.discard = discard
    s.ticket_decks = ticket_decks
    s.tickets_out = tickets_out
    s.claims = claims
    s.players = players
    s.phase = phase
    s.current = current
    s.pending = pending
    s.final_turns_left = final_turns_left
    s.turn = turn
    s.ply = ply
    s.passes = passes
    s.shuffles = shuffles
    s.first_player = first_player
    s.ext = ext
    s.__class__ = GameState
    return s


def new_player(hand, trains, tickets, route_points, ext) -> PlayerState:
    """``PlayerState(...)`` with every field given, quickly (see ``new_state``)."""
    p = _OpenPlayer()
    p.hand = hand
    p.trains = trains
    p.tickets = tickets
    p.route_points = route_points
    p.ext = ext
    p.__class__ = PlayerState
    return p


def new_pending(kind, seat, data) -> Pending:
    """``Pending(kind, seat, data)``, quickly (see ``new_state``): a ticket draw makes one."""
    p = _OpenPending()
    p.kind = kind
    p.seat = seat
    p.data = data
    p.__class__ = Pending
    return p


__all__ = ["FREE", "PHASES", "GameState", "PlayerState", "Pending", "freeze", "pairs_get", "pairs_set", "replace_fields", "build", "new_state", "new_player", "new_pending", "field"]
