"""Actions are values with a text form: ``str(action)`` and ``parse_action(text)`` round-trip.

Notation (one action per line of a game record; an optional ``blue:`` prefix names the seat by its player
colour or number, needed only where several seats act at once — the initial ticket choice):

    draw deck                             take the top card of the deck, blind (USA-DRAW-1)
    draw faceup 3                         take face-up card number 3 (1–5, left to right)
    claim Denver–Omaha purple3+loco1      claim that route paying 3 purple cards and 1 locomotive (USA-CLAIM-1..3)
    claim Kansas City–Omaha (gray #2) gray1   a pair of cities joined by several tracks: say which (see below)
    tickets                               draw destination tickets (USA-TICKET-1)
    keep Helena–Los Angeles, Duluth–Houston   keep these of the offered tickets (USA-TICKET-2, USA-SETUP-3)
    pass                                  no action is possible (only then legal)

Routes and tickets are named by their two cities joined by a dash ("–", or a plain "-"), in either order,
ignoring case and accents (``claim denver-omaha purple4`` is read as ``claim Denver–Omaha purple4``). Where two
cities are joined by several tracks (double routes) the route text ends in its colour in brackets,
``(blue)``, and where those tracks share a colour also their number in the map's order, ``(gray #1)`` /
``(gray #2)``. Tickets in ``keep`` are separated by commas. Route and ticket ids (``claim R099 gray1``,
``keep T24 T03``) are accepted too, for ever (old save files replay). The text is read without the map:
``parse_action`` keeps the names as typed, and the engine's ``check`` (so ``apply`` and ``Game.push``) turns an
action into its canonical form — map spelling and order, ids replaced by city names — which ``str`` prints
and save files store. See ``ttr_nb.board.names`` for the lookups.

Variants add their own (``station Wien red2``, ``tunnel pay red1``, ``tunnel withdraw``, ...) by registering an
action class with ``register_action``. A payment is a card-count vector; in text ``colour+count`` terms joined
by ``+`` in card order, ``loco`` for locomotives. Numbers are ASCII digits only.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Callable, ClassVar

from .cards import CARD_ALIASES, CARD_NAMES, LOCO, LOCO4, PLAYER_COLOURS
from ..errors import BadAction
from .state import open_subclass

Payment = tuple[tuple[int, int], ...]   # ((card kind, count), ...) sorted by kind, counts > 0


def payment_from_counts(counts) -> Payment:
    items = counts.items() if isinstance(counts, dict) else enumerate(counts)
    return tuple(sorted((int(k), int(n)) for k, n in items if n))


def payment_str(payment: Payment) -> str:
    return "+".join(f"{'loco' if k == LOCO else CARD_NAMES[k]}{n}" for k, n in payment) or "nothing"


def payment_words(payment: Payment) -> str:
    parts = []
    for k, n in payment:
        name = "locomotive" if k == LOCO else "+4 locomotive" if k == LOCO4 else CARD_NAMES[k]
        parts.append(f"{n} {name}{'s' if k in (LOCO, LOCO4) and n != 1 else ''}")
    return " + ".join(parts) or "no cards"


def payment_size(payment: Payment) -> int:
    return sum(n for _, n in payment)


_TERM = re.compile(r"^([a-z]+)([0-9]{1,3})$", re.ASCII)


def parse_payment(text: str, where: str) -> Payment:
    counts: dict[int, int] = {}
    for term in text.split("+"):
        m = _TERM.match(term.strip().lower())
        if not m:
            raise BadAction(f"{where}: cannot read payment term {term!r}; write e.g. red3+loco1 (cards: {', '.join(CARD_NAMES)}, or loco)")
        name, n = m.group(1), int(m.group(2))
        if name not in CARD_ALIASES:
            raise BadAction(f"{where}: unknown card {name!r} in payment (cards: {', '.join(CARD_NAMES)}, or loco)")
        if n == 0:
            raise BadAction(f"{where}: payment term {term!r} has a count of 0")
        kind = CARD_ALIASES[name]
        if kind in counts:
            raise BadAction(f"{where}: card {name!r} appears twice in payment {text!r}")
        counts[kind] = n
    return payment_from_counts(counts)


@dataclass(frozen=True, slots=True)
class Action:
    """Base class. ``seat`` is None when the text did not name one (the engine fills in whose turn it is)."""

    verb: ClassVar[str] = ""
    #: the field naming the city a board click on a city offers this action for ("" = none)
    city_field: ClassVar[str] = "city"

    def body(self) -> str:  # the text after the seat prefix
        raise NotImplementedError

    def __str__(self) -> str:
        seat = getattr(self, "seat", None)
        named = type(seat) is int and 0 <= seat < len(PLAYER_COLOURS)
        prefix = f"{PLAYER_COLOURS[seat] if named else seat}: " if seat is not None else ""
        return prefix + self.body()

    def with_seat(self, seat: int):
        from .state import replace_fields
        return replace_fields(self, seat=seat)


@dataclass(frozen=True, slots=True)
class DrawDeck(Action):
    seat: int | None = None
    verb: ClassVar[str] = "draw"

    def body(self) -> str:
        return "draw deck"


@dataclass(frozen=True, slots=True)
class DrawFaceUp(Action):
    slot: int = 1          # 1..5, left to right
    seat: int | None = None
    verb: ClassVar[str] = "draw"

    def body(self) -> str:
        return f"draw faceup {self.slot}"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    route: str = ""
    payment: Payment = ()
    seat: int | None = None
    verb: ClassVar[str] = "claim"

    def body(self) -> str:    # ``route``: the route's city text (canonical) or, as typed, an id or city text
        return f"claim {self.route} {payment_str(self.payment)}"


@dataclass(frozen=True, slots=True)
class DrawTickets(Action):
    seat: int | None = None
    verb: ClassVar[str] = "tickets"

    def body(self) -> str:
        return "tickets"


@dataclass(frozen=True, slots=True)
class KeepTickets(Action):
    tickets: tuple[str, ...] = ()
    seat: int | None = None
    verb: ClassVar[str] = "keep"

    def body(self) -> str:    # ``tickets``: city texts (canonical) or, as typed, ids
        if all(_ID.match(t) for t in self.tickets):
            return " ".join(("keep", *self.tickets))
        return "keep " + ", ".join(self.tickets)


@dataclass(frozen=True, slots=True)
class Pass(Action):
    seat: int | None = None
    verb: ClassVar[str] = "pass"

    def body(self) -> str:
        return "pass"


# The random bot makes a Claim on a quarter of all plies, and the frozen __init__ (an object.__setattr__ per field)
# costs more than half of its whole choice of a route. As ``state.new_state`` does for a GameState, the action is
# filled as an open subclass (no slots of its own; object's plain __init__/__setattr__/__delattr__), by ordinary
# attribute stores, then becomes the frozen class by __class__ assignment: cheaper than setting the slots through
# their descriptors (tests/test_engine_fastpaths.py compares the result with the dataclass's own construction).
_OpenClaim = open_subclass(Claim)
_OpenKeep = open_subclass(KeepTickets)


def new_claim(route: str, payment: Payment, seat: int | None) -> Claim:
    """``Claim(route=route, payment=payment, seat=seat)``, quickly."""
    c = _OpenClaim()
    c.route = route
    c.payment = payment
    c.seat = seat
    c.__class__ = Claim
    return c


def new_keep(tickets: tuple[str, ...], seat: int | None) -> KeepTickets:
    """``KeepTickets(tickets=tickets, seat=seat)``, quickly (as ``new_claim``)."""
    c = _OpenKeep()
    c.tickets = tickets
    c.seat = seat
    c.__class__ = KeepTickets
    return c


_DRAW_TICKETS: dict[int, DrawTickets] = {}


def draw_tickets_action(seat: int) -> DrawTickets:
    """``DrawTickets(seat=seat)``, one shared value per seat (actions are immutable)."""
    found = _DRAW_TICKETS.get(seat)
    if found is None:
        found = _DRAW_TICKETS[seat] = DrawTickets(seat=seat)
    return found


# ---------------------------------------------------------------------------------------------
# hand-built actions: every field of the type it declares

def _is_payment(x) -> bool:
    return isinstance(x, tuple) and all(isinstance(t, tuple) and len(t) == 2 and type(t[0]) is int
                                        and type(t[1]) is int for t in x)


#: declared field type -> (check, words); a type not listed here is left to the action's own checks
_FIELD_TYPES: dict[str, tuple[Callable[[object], bool], str]] = {
    "int": (lambda x: type(x) is int, "a whole number"),
    "int | None": (lambda x: x is None or type(x) is int, "a whole number or None"),
    "str": (lambda x: isinstance(x, str), "text"),
    "str | None": (lambda x: x is None or isinstance(x, str), "text or None"),
    "tuple[str, ...]": (lambda x: isinstance(x, tuple) and all(isinstance(t, str) for t in x), "a tuple of texts"),
    "Payment": (_is_payment, "a tuple of (card kind, count) pairs of whole numbers"),
}


def _field_checks(cls) -> tuple:
    """(field name, check, words) for each field of ``cls`` whose declared type ``_FIELD_TYPES`` knows (cached)."""
    got = _CHECKS_BY_CLASS.get(cls)
    if got is None:
        got = _CHECKS_BY_CLASS[cls] = tuple(
            (f.name, *_FIELD_TYPES[t]) for f in fields(cls)
            if (t := f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")) in _FIELD_TYPES)
    return got


_CHECKS_BY_CLASS: dict[type, tuple] = {}


def field_problem(action: "Action", n_players: int | None = None) -> str | None:
    """What is wrong with a hand-built action's fields (``DrawDeck(seat=-1)``, ``ExpressTickets(express=None)``),
    judged by the types its dataclass declares, in words; None when every field is of its type. With
    ``n_players``, also a seat that is not one of the game's. The engines' ``check`` and ``describe`` refuse such
    an action with a BadAction saying this, before anything reads it."""
    for name, check, words in _field_checks(type(action)):
        value = getattr(action, name)
        if not check(value):
            return f"{type(action).__name__}.{name} must be {words}, got {value!r:.40}"
    seat = getattr(action, "seat", None)
    if n_players is not None and seat is not None and not 0 <= seat < n_players:
        return f"there is no seat {seat} in a {n_players}-player game (seats 0–{n_players - 1})"
    return None


# ---------------------------------------------------------------------------------------------
# parsing

Parser = Callable[[list[str], str], Action]
_PARSERS: dict[str, Parser] = {}


def register_action(verb: str, parser: Parser) -> None:
    """Variants add verbs (``station``, ``tunnel`` ...). ``parser(words, text)`` returns an Action without seat."""
    _PARSERS[verb] = parser


_ID = re.compile(r"^[A-Za-z]{1,3}[0-9]{1,5}$", re.ASCII)        # R099, T24: an id, never a city name
_NAME = re.compile(r"^[^\W\d_][\w .'()#–—-]*$")                      # a city text as typed: letters first
MAX_NAME = 120


def is_digits(text: str) -> bool:
    """ASCII digits only ("²".isdigit() is True; int() rejects it)."""
    return text.isascii() and text.isdigit()


def _ref(words: list[str], text: str, what: str, example: str) -> str:
    """A route/ticket/city named as typed: an id (upper-cased) or a city text (spaces normalised)."""
    ref = " ".join(words)
    if _ID.match(ref):
        return ref.upper()
    if any(_ID.match(w) for w in words):
        odd = next((w for w in words if not _ID.match(w)), words[-1])
        raise BadAction(f"{text!r}: {ref[:MAX_NAME]!r} mixes an id with other words; write 'claim ROUTE PAYMENT' "
                        f"with one route (its id or cities, e.g. {example!r}) and the payment last"
                        if what == "route" else
                        f"{text!r}: {odd[:40]!r} is not a ticket id; name tickets by id (T04) or by cities, "
                        f"separated by commas, e.g. 'keep {example}, Duluth–Houston'")
    if len(ref) > MAX_NAME or not _NAME.match(ref):
        raise BadAction(f"{text!r}: {ref[:MAX_NAME]!r} is not a {what} id or a {what}'s cities; name it by its "
                        f"cities, e.g. {example!r}")
    return ref


def _parse_draw(words: list[str], text: str) -> Action:
    if words == ["deck"]:
        return DrawDeck()
    if len(words) == 2 and words[0] == "faceup":
        if not is_digits(words[1]) or not 1 <= int(words[1]) <= 9:
            raise BadAction(f"{text!r}: face-up card number must be 1–5, got {words[1]!r}")
        return DrawFaceUp(slot=int(words[1]))
    raise BadAction(f"{text!r}: write 'draw deck' or 'draw faceup N' (N = 1–5)")


def _parse_claim(words: list[str], text: str) -> Action:
    if len(words) < 2:
        raise BadAction(f"{text!r}: write 'claim ROUTE PAYMENT', e.g. 'claim Denver–Omaha purple4' (the payment is "
                        "the last word)")
    route = _ref(words[:-1], text, "route", "Denver–Omaha")
    return Claim(route=route, payment=parse_payment(words[-1], repr(text)))


def _parse_tickets(words: list[str], text: str) -> Action:
    if words:
        raise BadAction(f"{text!r}: 'tickets' takes nothing after it")
    return DrawTickets()


def _parse_keep(words: list[str], text: str) -> Action:
    refs: list[str] = []      # 'keep' alone is well-formed: the rules then say how many must be kept
    if words:
        for chunk in " ".join(words).split(","):
            part = chunk.split()
            if not part:
                raise BadAction(f"{text!r}: an empty ticket between commas; write e.g. 'keep Helena–Los Angeles, "
                                "Duluth–Houston'")
            named = [w.upper() for w in part] if all(_ID.match(w) for w in part) else \
                [_ref(part, text, "ticket", "Helena–Los Angeles")]
            for r in named:
                if r in refs:
                    raise BadAction(f"{text!r}: ticket {r} is named twice")
                refs.append(r)
    return KeepTickets(tickets=tuple(refs))


def _parse_pass(words: list[str], text: str) -> Action:
    if words:
        raise BadAction(f"{text!r}: 'pass' takes nothing after it")
    return Pass()


for _verb, _parser in (("draw", _parse_draw), ("claim", _parse_claim), ("tickets", _parse_tickets),
                       ("keep", _parse_keep), ("pass", _parse_pass)):
    register_action(_verb, _parser)


def parse_action(text: str) -> Action:
    """Parse one action. Raises ``BadAction`` naming what is wrong with the text."""
    if isinstance(text, Action):
        return text
    if not isinstance(text, str):
        raise BadAction(f"an action must be text or an Action, got {type(text).__name__}")
    if len(text) > 500:
        raise BadAction(f"action text is too long ({len(text)} characters)")
    raw = text.strip()
    seat = None
    if ":" in raw:
        head, _, raw = raw.partition(":")
        head = head.strip().lower()
        if is_digits(head):
            seat = int(head)
        elif head in PLAYER_COLOURS:
            seat = PLAYER_COLOURS.index(head)
        else:
            raise BadAction(f"{text!r}: {head!r} is not a seat; start with a player colour ({', '.join(PLAYER_COLOURS)}) or number")
    words = raw.split()
    if not words:
        raise BadAction(f"{text!r}: empty action; try 'draw deck', 'draw faceup 1', 'claim Denver–Omaha purple4', 'tickets', "
                        "'keep Helena–Los Angeles, Duluth–Houston'")
    verb = words[0].lower()
    from ..variants import _load_builtin
    _load_builtin()                     # the variants' verbs ("station", "draft") and extended forms ("draw deck +2")
    parser = _PARSERS.get(verb)
    if parser is None:
        raise BadAction(f"{text!r}: unknown action {verb!r}; known: {', '.join(sorted(_PARSERS))}")
    action = parser([w if verb in ("keep", "claim", "station", "draft") else w.lower() for w in words[1:]], text)
    return action if seat is None else action.with_seat(seat)


__all__ = ["Action", "field_problem", "DrawDeck", "DrawFaceUp", "Claim", "DrawTickets", "KeepTickets", "Pass", "Payment",
           "parse_action", "register_action", "payment_str", "payment_words", "payment_size", "parse_payment",
           "payment_from_counts", "is_digits", "new_claim", "new_keep", "draw_tickets_action"]
