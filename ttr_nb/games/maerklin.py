"""Ticket to Ride Märklin (docs/rules/maerklin.md): settings + three features.

* Settings: the route table 1→1 … 7→18, +4 locomotives as wild cards for routes of 4 or more, 3 face-up
  passenger cards reset the market like 3 locomotives, no longest-path bonus, the tie-break chain.
* :class:`TicketMix` (MK-SETUP-3, MK-TICKET-1): ``announce 2 short 2 long`` takes tickets from the two decks.
* :class:`Passengers` (MK-CLAIM-5, MK-PASS-1..6): after a claim ``place Berlin`` (or ``place none``); a move is
  ``ride Berlin–Leipzig`` (the first step, a whole turn's action), further ``ride`` steps, then ``stop``. A moved
  passenger stands in its last city until the end of the round, then leaves the game (MK-PASS-6).
* :class:`MaerklinScoring` (MK-SCORE-1..4): goods, Most Completed Tickets, tickets to countries.

Also here: :func:`best_passenger_move` (the exact best move for a seat's passengers) and :func:`build_map_document`
(the rule that turns ``maps/sources/maerklin/`` into ``maps/maerklin.json``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import product
from typing import ClassVar, Sequence

from ..board.actions import Action, Claim, is_digits, register_action
from ..board.cards import LOCO, LOCO4, PASSENGER
from ..errors import BadAction, IllegalAction, MapError
from ..board.names import seat_name as _seat_name
from ..board.scoring import _with, connect_path
from ..board.state import FREE, GameState, Pending, new_pending, new_player, new_state, pairs_get, pairs_set
from ..variants import Feature, Settings, Variant, register
from ..board.engine import _PLAYING, _full, _is_full, _plainly_legal, _turn_over
from .usa import USA_INTERPRETATIONS

PASSENGERS = 3            # MK-COMP-2
TICKET_DRAW = 4           # MK-SETUP-3 / MK-TICKET-1
MOST_TICKETS_BONUS = 10   # MK-SCORE-2
DECKS = ("short", "long")
RESERVE, DONE = "reserve", "done"     # passenger states besides standing in a city
MOVED = "moved"       # a player's ext: the slots of passengers that travelled this round (they leave at its end)
SETUP_KIND = "setup_announce"


def _deny(v: Variant, msg: str, rule: str, action, seat) -> IllegalAction:
    return IllegalAction(msg, v.rule(rule), action, seat)


def _maerklin_map():
    from ..board.maps import load_map
    return load_map("maerklin")


def _city(name: str, text: str) -> str:
    try:
        return _maerklin_map()._city_name(name)
    except MapError:
        raise BadAction(f"{text!r}: {name!r} is not a city of the Märklin board") from None


def _countries(v: Variant) -> tuple[frozenset[str], frozenset[str]]:
    """(the map's countries, all its cities) by name, read once per variant."""
    countries = v.__dict__.get("_countries")
    if countries is None:
        countries = v.__dict__["_countries"] = (frozenset(c.name for c in v.map.cities if c.extra.get("country")),
                                                frozenset(c.name for c in v.map.cities))
    return countries


def is_country(v: Variant, city: str) -> bool:
    countries = _countries(v)
    if city in countries[0]:
        return True
    if city in countries[1]:
        return False
    return bool(v.map.city(city).extra.get("country"))     # another spelling ("zurich"), or MapError


# ---------------------------------------------------------------------------------------------
# actions

@dataclass(frozen=True, slots=True)
class Announce(Action):
    """Take tickets in an announced mix (MK-SETUP-3, MK-TICKET-1). Text: ``announce 2 short 2 long``."""
    short: int = 0
    long: int = 0
    seat: int | None = None
    verb: ClassVar[str] = "announce"

    def body(self) -> str:
        return f"announce {self.short} short {self.long} long"

    def describe(self, v: Variant, state: GameState) -> str:
        return f"announces {self.short} short + {self.long} long tickets"


@dataclass(frozen=True, slots=True)
class PlacePassenger(Action):
    """After a claim: put a passenger on one city of that route (MK-CLAIM-5). ``city`` "" = none."""
    city: str = ""
    seat: int | None = None
    verb: ClassVar[str] = "place"

    def body(self) -> str:
        return f"place {self.city or 'none'}"

    def describe(self, v: Variant, state: GameState) -> str:
        return f"places a passenger in {self.city}" if self.city else "places no passenger"


@dataclass(frozen=True, slots=True)
class Ride(Action):
    """One step of a passenger's move along a claimed route (MK-PASS-1..4). Text: ``ride Berlin–Leipzig``."""
    a: str = ""
    b: str = ""
    seat: int | None = None
    verb: ClassVar[str] = "ride"
    city_field: ClassVar[str] = "a"          # a click on the passenger's city offers its rides

    def body(self) -> str:
        return f"ride {self.a}–{self.b}"

    def describe(self, v: Variant, state: GameState) -> str:
        return f"moves a passenger from {self.a} to {self.b}{ride_terms(v, state, self)}"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """End a passenger's move; it stays in its last city until the end of the round, then leaves (MK-PASS-6)."""
    seat: int | None = None
    verb: ClassVar[str] = "stop"

    def body(self) -> str:
        return "stop"

    def describe(self, v: Variant, state: GameState) -> str:
        return "ends the passenger's journey"


def _parse_announce(words: list[str], text: str) -> Action:
    counts = {"short": 0, "long": 0}
    if len(words) not in (2, 4):
        raise BadAction(f"{text!r}: write 'announce N short M long', e.g. 'announce 2 short 2 long'")
    for n, deck in zip(words[::2], words[1::2]):
        if deck not in counts or not is_digits(n) or len(n) > 2:
            digits = " with the digits 0–9" if n.isdigit() and not is_digits(n) else ""     # "²", "١": not ASCII
            raise BadAction(f"{text!r}: write 'announce N short M long'{digits}, e.g. 'announce 2 short 2 long'")
        counts[deck] += int(n)
    return Announce(short=counts["short"], long=counts["long"])


def _parse_place(words: list[str], text: str) -> Action:
    if len(words) != 1:
        raise BadAction(f"{text!r}: write 'place CITY' or 'place none'")
    return PlacePassenger(city="" if words[0] == "none" else _city(words[0], text))


def _parse_ride(words: list[str], text: str) -> Action:
    joined = " ".join(words).replace("–", "-").replace("—", "-")
    parts = [p.strip() for p in joined.split("-")]
    if len(parts) != 2 or not all(parts):
        raise BadAction(f"{text!r}: write 'ride FROM–TO', e.g. 'ride Berlin–Leipzig'")
    return Ride(a=_city(parts[0], text), b=_city(parts[1], text))


def _parse_stop(words: list[str], text: str) -> Action:
    if words:
        raise BadAction(f"{text!r}: 'stop' takes nothing after it")
    return Stop()


for _verb, _parser in (("announce", _parse_announce), ("place", _parse_place), ("ride", _parse_ride),
                       ("stop", _parse_stop)):
    register_action(_verb, _parser)


def _check_shape(action) -> None:
    if type(action) is Announce and not all(type(n) is int and 0 <= n <= TICKET_DRAW for n in (action.short, action.long)):
        raise BadAction(f"{action!r}: ticket counts must be whole numbers 0–{TICKET_DRAW}")
    if type(action) in (PlacePassenger, Ride):
        for name in ((action.city,) if type(action) is PlacePassenger else (action.a, action.b)):
            if not isinstance(name, str):
                raise BadAction(f"{action!r}: a city must be a name (text)")
            if name:
                _city(name, repr(action))            # an unknown name is named as such, not as a map fault


# ---------------------------------------------------------------------------------------------
# tickets: two decks, announced mixes

def mixes(state: GameState, total: int | None = None) -> list[tuple[int, int]]:
    """Every legal (short, long) mix: 4 tickets, or all that remain (MK-TICKET-1)."""
    s, lg = len(state.ticket_deck("short")), len(state.ticket_deck("long"))
    want = min(TICKET_DRAW, s + lg) if total is None else total
    return [(k, want - k) for k in range(want, -1, -1) if k <= s and want - k <= lg]


@lru_cache(maxsize=None)
def _announce(short: int, long: int, seat: int) -> Announce:
    """The one shared (immutable) Announce of a mix and seat, as the lists of legal actions hand it out."""
    return Announce(short=short, long=long, seat=seat)


@lru_cache(maxsize=None)
def _announcements(short: int, long: int, seat: int) -> tuple[Announce, ...]:
    """``TicketMix.turn_actions`` when the decks hold ``short`` and ``long`` tickets (MK-TICKET-1)."""
    want = min(TICKET_DRAW, short + long)
    found = [(k, want - k) for k in range(want, -1, -1) if k <= short and want - k <= long]
    return () if found == [(0, 0)] else tuple(_announce(s, lg, seat) for s, lg in found)


@lru_cache(maxsize=4096)
def _ride(a: str, b: str, seat: int) -> Ride:
    """The one shared (immutable) Ride of a step and seat, as the random bot hands it out (a map's steps: bounded)."""
    return Ride(a=a, b=b, seat=seat)


@lru_cache(maxsize=4096)
def _placement(city: str, seat: int) -> PlacePassenger:
    """The one shared (immutable) PlacePassenger of a city ("" none) and seat, as the random bot hands it out."""
    return PlacePassenger(city=city, seat=seat)


@lru_cache(maxsize=None)
def _stop(seat: int) -> Stop:
    """The one shared (immutable) Stop of a seat."""
    return Stop(seat=seat)


def _take_mix(state: GameState, mix: tuple[int, int], total: int | None,
              trusted: bool) -> tuple[tuple, tuple[str, ...]] | None:
    """(the ticket decks as the state's sorted pairs, the tickets offered) after taking ``mix`` = (short, long) from
    the decks' tops; None unless ``trusted`` or the mix is one of ``mixes(state, total)`` but (0, 0): whole numbers,
    each within its deck, ``total`` (default: 4, or all that remain) in all (MK-TICKET-1) — checked on the decks
    read once, the mixes not listed."""
    decks = state.ticket_decks
    usual = len(decks) == 2 and decks[0][0] == "long" and decks[1][0] == "short"
    if usual:                                   # the two decks of every game, in their sorted order: read in place
        long, short = decks[0][1], decks[1][1]
    else:
        decks = dict(decks)
        short, long = decks.get("short", ()), decks.get("long", ())
    k, rest = mix
    if not trusted:
        if k.__class__ is not int or rest.__class__ is not int or k < 0 or rest < 0 or not (k or rest):
            return None
        s, lg = len(short), len(long)
        if not (k <= s and rest <= lg and k + rest == (min(TICKET_DRAW, s + lg) if total is None else total)):
            return None
    if usual:                                   # (the pairs made in their order: no dict made and sorted)
        return (("long", long[rest:]), ("short", short[k:])), short[:k] + long[:rest]
    decks["short"], decks["long"] = short[k:], long[rest:]
    return tuple(sorted(decks.items())), short[:k] + long[:rest]


_SETUP_DATA = (("rule", "MK-SETUP-3"),       # a seat's announcement at the setup: the same words for every seat
               ("text", f"announce how many of your {TICKET_DRAW} tickets come from the short and the long deck"))


class TicketMix(Feature):
    """Two ticket decks, short (5–11 points) and long (12–22): you announce how many to take from each"""
    name = "ticket_mix"
    pending_kinds = (SETUP_KIND,)
    turn_words = ()
    step_words = {SETUP_KIND: "announce a ticket mix (at setup)"}
    setup_words = "announce a mix of 4 from the short and the long deck, keep at least 2"
    setup_returns_words = "to the bottom of their own deck; then both decks are shuffled"
    ticket_draw_words = ("announce a mix of 4 from the short and the long deck (fewer if fewer remain), keep at "
                         "least 1; returns go to the bottom of their own deck")

    def setup(self, v, tx) -> None:                   # MK-SETUP-3: everyone announces first
        for seat in range(tx.s.n_players):
            tx.pending.append(new_pending(SETUP_KIND, seat, _SETUP_DATA))

    def handles(self, action) -> bool:
        return isinstance(action, Announce)

    def turn_actions(self, v, state, seat) -> list:
        found = mixes(state)
        return [] if found == [(0, 0)] else [_announce(s, lg, seat) for s, lg in found]

    def bot_random(self, v, state, seat, r) -> tuple:
        """``turn_actions`` for the random bot: the same announcements, kept per deck sizes and seat."""
        short = long = None
        for name, pile in state.ticket_decks:           # ticket_deck("short") and ("long") in one pass (the first
            if name == "short":                         # of each name, as ticket_deck reads it)
                if short is None:
                    short = len(pile)
            elif name == "long" and long is None:
                long = len(pile)
        if not (short or long):                         # both decks empty (or absent): no announcement, and late
            return ()                                   # in a game most turns ask this
        short, long = short or 0, long or 0             # (the mixes only see up to TICKET_DRAW of each deck: kept
        return _announcements(short if short < TICKET_DRAW else TICKET_DRAW,       # once per seat and clipped sizes)
                              long if long < TICKET_DRAW else TICKET_DRAW, seat)

    def pending_actions(self, v, state, pending) -> list:
        return [_announce(s, lg, pending.seat) for s, lg in mixes(state, TICKET_DRAW)]

    def random_pending(self, v, state, pending, r):
        """The random bot's announcement at setup (MK-SETUP-3): what it picked from ``legal_actions`` (the same list,
        the same draw), from ``pending_actions`` alone instead of the general listing of every seat's steps. With 4
        tickets or more in the decks those are the shared announcements of ``bot_random`` (the mixes of 4 only see up
        to 4 of each deck), no list made."""
        short = long = None
        for name, pile in state.ticket_decks:           # as in bot_random: the first deck of each name
            if name == "short":
                if short is None:
                    short = len(pile)
            elif name == "long" and long is None:
                long = len(pile)
        short, long = short or 0, long or 0
        if short + long >= TICKET_DRAW:
            acts = _announcements(short if short < TICKET_DRAW else TICKET_DRAW,
                                  long if long < TICKET_DRAW else TICKET_DRAW, pending.seat)
        else:
            acts = self.pending_actions(v, state, pending)
        return acts[r.index(len(acts))]

    def check(self, v, state, action, seat) -> None:
        _check_shape(action)
        setup = state.phase == "setup"
        rule = "MK-SETUP-3" if setup else "MK-TICKET-1"
        p = state.pending_for(seat) if state.pending else None
        if setup and (p is None or p.kind != SETUP_KIND):
            raise _deny(v, f"{_seat_name(seat)} has already announced a ticket mix", rule, action, seat)
        s, lg = len(state.ticket_deck("short")), len(state.ticket_deck("long"))
        if s + lg == 0:
            raise _deny(v, "both ticket decks are empty: no tickets can be drawn", rule, action, seat)
        want = min(TICKET_DRAW, s + lg)
        if action.short + action.long != want:
            raise _deny(v, f"announce {want} tickets in all (short + long), not {action.short + action.long}",
                        rule, action, seat)
        if action.short > s or action.long > lg:
            raise _deny(v, f"the short deck holds {s} and the long deck {lg} tickets: "
                           f"{action.short} short and {action.long} long cannot be drawn", rule, action, seat)

    def apply(self, v, tx, action, seat) -> None:
        decks = tx.decks()
        offered, got = [], {}
        for name, n in (("short", action.short), ("long", action.long)):
            pile = decks.setdefault(name, [])
            offered += pile[:n]
            got[name] = len(pile[:n])
            decks[name] = pile[n:]
        setup = tx.phase == "setup"
        tx.pending = [p for p in tx.pending if p.seat != seat]
        tx.pending.append(Pending("choose_tickets", seat, (
            ("min_keep", 2 if setup else 1), ("offered", tuple(offered)), ("returns", "bottom"),
            ("rule", "MK-SETUP-3" if setup else "MK-TICKET-1"))))
        if tx.events is not None:                      # (the words only when someone reads them: step, Game)
            tx.event("tickets_announced", "MK-SETUP-3" if setup else "MK-TICKET-1",
                     f"{_seat_name(seat)} drew {len(offered)} ticket{'s' if len(offered) != 1 else ''} "
                     f"({got['short']} short, {got['long']} long)")

    def quick(self, v, state, action, trusted):
        """Tickets announced on a turn (MK-TICKET-1), one of the listed mixes: the top ones of each deck offered as
        a pending choice — the state ``apply`` makes, without a transaction. At setup (MK-SETUP-3): ``_quick_setup``."""
        seat = action.seat
        if state.phase == "setup":
            return self._quick_setup(state, action, trusted)
        if (seat != state.current or seat.__class__ is not int or state.pending or state.phase not in _PLAYING
                or state.market is not _full[0] and not _is_full(state.market)):     # (no None in it: _is_full)
            return None
        taken = _take_mix(state, (action.short, action.long), None, trusted)
        if taken is None:
            return None
        decks, offered = taken
        pending = (new_pending("choose_tickets", seat, (("min_keep", 1), ("offered", offered), ("returns", "bottom"),
                                                        ("rule", "MK-TICKET-1"))),)
        return new_state(state.variant, state.n_players, state.seed, state.deck, state.market, state.discard,
                         decks, state.tickets_out, state.claims, state.players, state.phase,
                         seat, pending, state.final_turns_left, state.turn, state.ply + 1, 0, state.shuffles,
                         state.first_player, state.ext)

    def _quick_setup(self, state, action, trusted):     # (a method: CPython 3.11 specialises no staticmethod load)
        """A seat's ticket mix announced at setup (MK-SETUP-3), one of the listed mixes: its tickets offered as the
        seat's pending choice (keep at least 2), after the other seats' steps — the state ``apply`` makes."""
        seat = action.seat
        if seat.__class__ is not int or state.market is not _full[0] and not _is_full(state.market):
            return None
        p = state.pending_for(seat)
        if p is None or p.kind != SETUP_KIND:
            return None
        taken = _take_mix(state, (action.short, action.long), TICKET_DRAW, trusted)
        if taken is None:
            return None
        decks, offered = taken
        pending = tuple(q for q in state.pending if q.seat != seat) + (
            new_pending("choose_tickets", seat, (("min_keep", 2), ("offered", offered), ("returns", "bottom"),
                                                 ("rule", "MK-SETUP-3"))),)
        return new_state(state.variant, state.n_players, state.seed, state.deck, state.market, state.discard,
                         decks, state.tickets_out, state.claims, state.players, state.phase,
                         state.current, pending, state.final_turns_left, state.turn, state.ply + 1, state.passes,
                         state.shuffles, state.first_player, state.ext)

    def after_setup(self, v, tx) -> None:             # MK-SETUP-3: "Then both decks are shuffled."
        self.quick_after_setup(v, tx.s.seed, tx.decks())
        tx.event("tickets_shuffled", "MK-SETUP-3", "Both ticket decks were shuffled after the initial choices")

    @staticmethod
    def quick_after_setup(v, seed, decks: dict) -> None:
        """Both ticket decks of ``decks`` (name -> ids) shuffled, as tuples (MK-SETUP-3): ``after_setup`` on the
        engine's quick path, and the general one (its lists become tuples when the state is made)."""
        from ..rng import shuffled
        for name in DECKS:
            decks[name] = tuple(shuffled(decks.get(name, ()), seed, f"tickets/{name}", 1))

    def bot_pending(self, v, state, pending):
        return Announce(short=2, long=2, seat=pending.seat), "announces 2 short and 2 long tickets"


# ---------------------------------------------------------------------------------------------
# passengers and goods

def passengers_of(state: GameState, seat: int) -> tuple[str, ...]:
    return pairs_get(state.players[seat].ext, "passengers", (RESERVE,) * PASSENGERS)


def moved_of(state: GameState, seat: int) -> tuple[int, ...]:
    """The slots of ``seat``'s passengers that travelled this round: they stand in their last city, may not move
    again, and leave the game when the round ends (MK-PASS-6)."""
    return pairs_get(state.players[seat].ext, MOVED, ())


def movable(state: GameState, seat: int) -> list[tuple[int, str]]:
    """(slot, city) of ``seat``'s passengers that may still move: standing in a city, not moved yet (MK-PASS-1/6)."""
    moved = moved_of(state, seat)
    return [(i, w) for i, w in enumerate(passengers_of(state, seat)) if w not in (RESERVE, DONE) and i not in moved]


def _passengers_in(ext) -> tuple[str, ...]:
    """``pairs_get(ext, "passengers", ())`` of a player's pairs, read from the last pair first: "passengers" is the
    greatest of Märklin's player keys, so it sorts last (the engine asks on every claim, for every player)."""
    if ext:
        key, value = ext[-1]                    # (one ext[-1]: CPython 3.11 does not specialise a negative index)
        if key == "passengers":
            return value
    return pairs_get(ext, "passengers", ())


_FRESH_PLAYER = (("goods", ()), ("passengers", (RESERVE,) * PASSENGERS))     # a player's pairs at the setup


def _usual_set(ext, key: str, value):
    """``pairs_set(ext, key, value)`` for ``key`` "goods" or "passengers": a player's usual pairs, those two alone
    (no passenger travelled this round), are rebuilt with the one pair replaced where it stands, no list made and
    sorted (a placement, a goods token taken); any other pairs by ``pairs_set``."""
    if len(ext) == 2 and ext[0][0] == "goods" and ext[1][0] == "passengers":
        return ((key, value), ext[1]) if key == "goods" else (ext[0], (key, value))
    return pairs_set(ext, key, value)


_STACK_AT: dict[str, int] = {}     # city -> where its goods stack stood when last looked for (checked on use)


def _take_goods(stacks: tuple, city: str) -> tuple[tuple, int] | None:
    """(the goods stacks with the top token of ``city``'s stack taken, that token), or None when none is left there
    (MK-PASS-4). The stacks are pairs in city order (a frozen dict's order, an emptied stack kept as ``()``), so the
    one stack is replaced where it stands: the same pairs as rebuilding and sorting them all. Every game's stacks
    hold the same cities in the same order, so the place found once is tried first (a walk of 35 pairs saved;
    ``validate`` refuses stacks that name a city twice or leave that order, MK-SETUP-1)."""
    i = _STACK_AT.get(city)
    if i is None or i >= len(stacks) or stacks[i][0] != city:
        for i, (c, _) in enumerate(stacks):
            if c == city:
                _STACK_AT[city] = i
                break
        else:
            return None
    stack = stacks[i][1]
    if not stack:
        return None
    return stacks[:i] + ((city, stack[1:]),) + stacks[i + 1:], stack[0]


def _movable_slot(state: GameState, seat: int, city: str) -> int | None:
    """The slot of ``seat``'s first passenger in ``movable`` that stands in ``city``, or None (the first step of a
    move, MK-TURN-1): read from the player's pairs in one pass, no list of the movable ones made."""
    if city == RESERVE or city == DONE:
        return None
    ext = state.players[seat].ext
    if len(ext) == 2 and ext[1][0] == "passengers" and ext[0][0] != MOVED:
        mine, moved = ext[1][1], ()                    # a player's usual pairs (goods, passengers): none travelled
    else:
        mine, moved = pairs_get(ext, "passengers", (RESERVE,) * PASSENGERS), pairs_get(ext, MOVED, ())
    for i, w in enumerate(mine):
        if w == city and i not in moved:
            return i
    return None


def leaving(state: GameState) -> dict[str, int]:
    """City → seat of the passengers that travelled this round and leave the game at its end (MK-PASS-6)."""
    out = {}
    for seat in range(state.n_players):
        mine = passengers_of(state, seat)
        for i in moved_of(state, seat):
            out[mine[i]] = seat
    return out


def goods_of(state: GameState, seat: int) -> tuple[int, ...]:
    return pairs_get(state.players[seat].ext, "goods", ())


def goods_stacks(state: GameState) -> dict[str, tuple[int, ...]]:
    return dict(state.get("goods", ()))


def initial_goods(v: Variant) -> dict[str, tuple[int, ...]]:
    """MK-SETUP-1: each city's stack from the map, highest value on top."""
    return {c.name: tuple(c.extra["goods"]) for c in v.map.cities if c.extra.get("goods")}


def occupied(state: GameState) -> dict[str, int]:
    """City → seat of the passenger standing there (MK-CLAIM-5), those that travelled this round included: they
    stand in their last city until the round ends (MK-PASS-6). Where a travelled passenger shares a city with one
    that has not moved, the one that has not moved is named."""
    out = leaving(state)
    for seat in range(state.n_players):
        for _, where in movable(state, seat):
            out[where] = seat
    return out


def _placeable_ends(v: Variant) -> tuple[tuple[str, ...], ...]:
    """Per route index, its ends that are cities, not countries: where a claim may place a passenger (MK-CLAIM-5).
    Made once per variant."""
    found = v.__dict__.get("_placeable_ends")
    if found is None:
        found = v.__dict__["_placeable_ends"] = tuple(tuple(c for c in (r.a, r.b) if not is_country(v, c))
                                                      for r in v.map.routes)
    return found


def _ride_row(v: Variant, at: str) -> tuple[tuple[str, tuple], ...]:
    """(neighbouring city, the routes between them) from ``at``, in the order of the routes at ``at``, countries
    left out (passengers travel between German cities only, MK-PASS-1)."""
    out, seen = [], set()
    m = v.map
    for r in m.routes_at(at):
        b = r.other(at)
        if b in seen or is_country(v, b):
            continue
        seen.add(b)
        out.append((b, m.routes_between(at, b)))
    return tuple(out)


def _step(claims, seat: int, routes, used) -> tuple | None:
    """``step_route`` among ``routes`` (those between two cities) when it finds one: (route, cost), the seat's own
    claimed route first (free), else the first claimed one of another player (one passenger card)."""
    other = None
    for r in routes:
        owner = claims[r.index]
        if owner == FREE or r.id in used:
            continue
        if owner == seat:
            return r, 0
        if other is None:
            other = r
    return None if other is None else (other, 1)


def _ride_table(v: Variant) -> dict[str, tuple[tuple[str, tuple], ...]]:
    """``_ride_row`` of every city, made once per variant."""
    table = v.__dict__.get("_ride_table")
    if table is None:
        table = v.__dict__["_ride_table"] = {c.name: _ride_row(v, c.name) for c in v.map.cities}
    return table


def _ride_index(v: Variant) -> dict[str, tuple[tuple[str, tuple[int, ...], int, tuple[Ride, ...]], ...]]:
    """``_ride_table`` with each neighbour's routes as their indexes in ``state.claims`` and as a bit set, and the
    shared ``_ride`` there of each seat, made once per variant (``Passengers.bot_random``)."""
    table = v.__dict__.get("_ride_index")
    if table is None:
        table = v.__dict__["_ride_index"] = {a: _row_index(v, a, row) for a, row in _ride_table(v).items()}
    return table


def _ride_pairs(v: Variant) -> dict[tuple[str, str], tuple]:
    """(city, neighbouring city) -> the routes between them, from ``_ride_table``: a step's routes by one lookup
    instead of a walk along the city's row. Made once per variant."""
    table = v.__dict__.get("_ride_pairs")
    if table is None:
        table = v.__dict__["_ride_pairs"] = {(a, b): routes for a, row in _ride_table(v).items() for b, routes in row}
    return table


# variant key -> (_ride_index, _ride_pairs, _ride_table, _placeable_ends, route_table) of a Märklin variant, for the
# quick paths and the random bot by state.variant: loading v.__dict__ or a cached property such as v.route_table is a
# generic lookup in CPython 3.11 (see engine._TURN_TERMS); a state named by an alias takes _tables' way each time
_TABLES: dict[str, tuple] = {}


def _tables(v: Variant, name: str) -> tuple:
    """``_TABLES[name]``, made (and kept for the variant's own key)."""
    found = _ride_index(v), _ride_pairs(v), _ride_table(v), _placeable_ends(v), v.route_table
    if v.key == name:
        _TABLES[name] = found
    return found


def _row_index(v: Variant, a: str, row) -> tuple[tuple[str, tuple[int, ...], int, tuple[Ride, ...]], ...]:
    """``_ride_row(v, a)`` with each neighbour's routes as their indexes and as a bit set, and the ride there of
    each seat (``_ride(a, b, seat)``)."""
    seats = range(v.settings.max_players)
    return tuple((b, tuple(r.index for r in routes), sum(1 << r.index for r in routes),
                  tuple(_ride(a, b, seat) for seat in seats)) for b, routes in row)


@lru_cache(maxsize=4096)
def _place_step(seat: int, cities: tuple[str, ...]) -> Pending:
    """The pending placement after a claim (MK-CLAIM-5): one of ``cities``, or none."""
    return Pending("place_passenger", seat, (("cities", cities), ("rule", "MK-CLAIM-5"),
                                             ("text", f"place a passenger in {' or '.join(cities)}, or none")))


def _journey_step(seat: int, at: str, slot: int, start: str, used: tuple[str, ...], visited: tuple[str, ...]) -> Pending:
    """A passenger's move under way, now in ``at`` (MK-PASS-1..4). (new_pending: the frozen ``__init__``'s cost
    spared on every step.)"""
    return new_pending("journey", seat, (("at", at), ("rule", "MK-PASS-1"), ("slot", slot), ("start", start),
                                         ("text", f"the passenger is in {at}: ride on or stop"), ("used", used),
                                         ("visited", visited)))


def _stopped(ext, journey: Pending):
    """A player's ``ext`` after the ``journey`` stops: the passenger stands in its last city, travelled (MK-PASS-6).
    (Both keys set in one dict, sorted once: the pairs ``pairs_set`` makes, keys being unique.)"""
    data = journey.data
    if len(ext) == 2 and ext[0][0] == "goods" and ext[1][0] == "passengers":
        # a player's usual pairs, none of its passengers travelled this round: the travelled slot sorts between
        # them, no dicts made (the engine's quick stop, every passenger move)
        if len(data) == 7 and data[0][0] == "at" and data[2][0] == "slot":
            at, slot = data[0][1], data[2][1]          # the pairs _journey_step makes, read in place
        else:
            at, slot = pairs_get(data, "at"), pairs_get(data, "slot")
        mine = list(ext[1][1])
        mine[slot] = at
        return ext[0], (MOVED, (slot,)), ("passengers", tuple(mine))
    data = dict(data)
    out = dict(ext)
    mine = list(out["passengers"])
    slot = data.get("slot")
    mine[slot] = data.get("at")
    out["passengers"] = tuple(mine)
    out[MOVED] = tuple(sorted(set(out.get(MOVED, ())) | {slot}))
    return tuple(sorted(out.items()))


def _left_game(ext):
    """A player's ``ext`` after the round: its passengers that travelled leave the game (MK-PASS-6); None when none
    did."""
    usual = len(ext) == 3 and ext[0][0] == "goods" and ext[1][0] == MOVED and ext[2][0] == "passengers"
    moved = ext[1][1] if usual else pairs_get(ext, MOVED, ())
    if not moved:
        return None
    mine = list(ext[2][1] if usual else pairs_get(ext, "passengers"))
    for i in moved:
        mine[i] = DONE
    if usual:                                   # a player's usual pairs with the travelled slots: the two left,
        return ext[0], ("passengers", tuple(mine))      # made in order (no lists made and sorted)
    return pairs_set(pairs_set(ext, "passengers", tuple(mine)), MOVED, None)


def _journey(state: GameState, seat: int) -> Pending | None:
    p = state.pending_for(seat) if state.pending else None
    return p if p is not None and p.kind == "journey" else None


def step_route(v: Variant, state: GameState, seat: int, a: str, b: str, used: Sequence[str]):
    """The route a passenger of ``seat`` takes from a to b: an unused claimed route, its own first (free), else
    the lowest-id route of another player (one passenger card). (route, cost) or (None, reason, rule)."""
    routes = v.map.routes_between(a, b)
    if not routes:
        return None, f"{a} and {b} are not joined by a route", "MK-PASS-1"
    claimed = [r for r in routes if state.claims[r.index] != FREE]
    if not claimed:
        return None, f"no route between {a} and {b} is claimed: passengers travel on claimed routes only", "MK-PASS-2"
    fresh = [r for r in claimed if r.id not in used]
    if not fresh:
        return None, f"this passenger already used the claimed route between {a} and {b} in this move", "MK-PASS-3"
    own = [r for r in fresh if state.claims[r.index] == seat]
    if own:
        return own[0], 0
    return fresh[0], 1


def ride_terms(v: Variant, state: GameState, ride: "Ride") -> str:
    """What one step costs and takes, for a learner choosing it: " (takes 7 goods points; Red's route: 1
    passenger card)" — "" when the step is not possible."""
    seat = state.current if ride.seat is None else ride.seat
    if not 0 <= seat < state.n_players:
        return ""
    journey = _journey(state, seat)
    used = journey.get("used") if journey is not None else ()
    visited = journey.get("visited") if journey is not None else ()
    start = journey.get("start") if journey is not None else ride.a
    got = step_route(v, state, seat, ride.a, ride.b, used)
    if got[0] is None:
        return ""
    parts = []
    stack = goods_stacks(state).get(ride.b, ())
    if ride.b != start and ride.b not in visited and stack:
        parts.append(f"takes {stack[0]} goods point{'s' if stack[0] != 1 else ''}")
    elif ride.b == start or ride.b in visited:
        parts.append("no token: already visited")
    else:
        parts.append("no goods left there")
    parts.append(f"{_seat_name(state.claims[got[0].index])}'s route: 1 passenger card" if got[1] else "own route: free")
    return f" ({'; '.join(parts)})"


class Passengers(Feature):
    """Passengers and goods: after a claim place a passenger; later move it along claimed routes to collect goods"""
    name = "passengers"
    pending_kinds = ("place_passenger", "journey")
    turn_words = ("move a passenger",)
    step_words = {"place_passenger": "place a passenger (after a claim)",
                  "journey": "ride on or stop (a passenger's move)"}
    table_data = ("goods",)
    player_data = ("passengers", "goods", MOVED)

    def data_problems(self, v, state) -> list[str]:
        from ..board.featuredata import is_texts, is_whole, is_wholes
        out = []
        stacks = state.get("goods", ())
        if not (isinstance(stacks, tuple) and all(isinstance(e, tuple) and len(e) == 2 and isinstance(e[0], str)
                                                  and is_wholes(e[1], 0) for e in stacks)):
            out.append(f"the goods stacks must be pairs [city, [tokens]], e.g. [\"Berlin\", [7, 6, 5, 4]] "
                       f"({v.rule('MK-SETUP-1')})")
        for seat, p in enumerate(state.players):
            if not is_texts(p.get("passengers", ())):
                out.append(f"{_seat_name(seat)}'s passengers must be a list of {PASSENGERS} places: a city, "
                           f"{RESERVE!r} or {DONE!r} ({v.rule('MK-COMP-2')})")
            if not is_wholes(p.get("goods", ()), 0):
                out.append(f"{_seat_name(seat)}'s goods tokens must be a list of their values ({v.rule('MK-PASS-5')})")
            if not is_wholes(p.get(MOVED, ())):
                out.append(f"{_seat_name(seat)}'s travelled passengers must be a list of passenger numbers "
                           f"({v.rule('MK-PASS-6')})")
        for q in state.pending:
            if q.kind == "journey" and not (isinstance(q.get("at"), str) and isinstance(q.get("start"), str)
                                            and is_texts(q.get("used")) and is_texts(q.get("visited"))
                                            and is_whole(q.get("slot"), 0, PASSENGERS - 1)):
                out.append(f"{_seat_name(q.seat)}'s passenger move under way is malformed (at, start: cities; used: "
                           f"route ids; visited: cities; slot: 0–{PASSENGERS - 1}) ({v.rule('MK-PASS-1')})")
            if q.kind == "place_passenger" and not is_texts(q.get("cities")):
                out.append(f"{_seat_name(q.seat)}'s passenger placement must list its cities ({v.rule('MK-CLAIM-5')})")
        return out

    def setup(self, v, tx) -> None:
        stacks = v.__dict__.get("_initial_stacks")     # (the map's stacks as sorted pairs: made once per variant,
        if stacks is None:                              # not from every city's data each game)
            stacks = v.__dict__["_initial_stacks"] = tuple(sorted(initial_goods(v).items()))
        tx.ext = pairs_set(tx.ext, "goods", stacks)
        for seat in range(tx.s.n_players):
            ext = tx.players[seat].ext                  # (a new player's empty pairs: the usual two, made once)
            tx.set_player(seat, ext=_FRESH_PLAYER if not ext else
                          pairs_set(pairs_set(ext, "passengers", (RESERVE,) * PASSENGERS), "goods", ()))

    def handles(self, action) -> bool:
        return isinstance(action, (PlacePassenger, Ride, Stop))

    def stand(self, v, ext, cities: Sequence[str]):
        """A player's ``ext`` with passengers standing in ``cities`` (none of them moved yet; the rest in reserve):
        for set-up positions (``ttr_nb.position(..., passengers=...)``); ``validate`` then checks one per city, no
        country."""
        if len(cities) > PASSENGERS:
            raise BadAction(f"passengers: a player has {PASSENGERS} passengers, not {len(cities)} (MK-COMP-2)")
        ext = pairs_set(ext, MOVED, None)
        return pairs_set(ext, "passengers", tuple(cities) + (RESERVE,) * (PASSENGERS - len(cities)))

    # -- after a claim (MK-CLAIM-5) ------------------------------------------------------------------
    def takes_claim(self, v, state, seat, route) -> bool:
        """Only a player with a passenger in reserve is offered to place one (MK-CLAIM-5)."""
        return RESERVE in _passengers_in(state.players[seat].ext)

    def on_claim(self, v, tx, seat, route, payment) -> bool:
        tx.claim_route(seat, route, payment)
        mine = pairs_get(tx.players[seat].ext, "passengers", ())
        if RESERVE in mine:
            taken = {w for s in range(tx.s.n_players) for w in pairs_get(tx.players[s].ext, "passengers", ())}
            cities = [c for c in _placeable_ends(v)[route.index] if c not in taken]
            if cities:
                tx.pending.append(_place_step(seat, tuple(cities)))
                return True
        tx.end_turn()
        return True

    def quick(self, v, state, action, trusted):
        """The state ``apply`` makes, without a transaction, for a claim while a passenger is in reserve (the
        engine's quick claim hands it over: MK-CLAIM-5's placement becomes the pending step), a placement, a ride
        and a stop (MK-PASS-1..6); None for anything out of the ordinary (a refusal, a round's end with a
        travelled passenger): the general path."""
        cls = action.__class__
        seat = action.seat
        if cls is Claim:
            return self._quick_claim(v, state, action, trusted)
        if (seat.__class__ is not int or state.phase not in _PLAYING
                or state.market is not _full[0] and not _is_full(state.market)):     # (no None in it: _is_full)
            return None
        pending = state.pending
        p = pending[0] if len(pending) == 1 and pending[0].seat == seat else None
        if cls is Ride:
            return self._quick_ride(v, state, action, p, trusted)
        if p is None or state.passes:
            return None
        players = list(state.players)
        q = players[seat]
        if cls is PlacePassenger:
            city = action.city
            if p.kind != "place_passenger" or city.__class__ is not str:
                return None
            if city:
                data = p.data                          # ("cities" sorts first of a placement's pairs: read in place)
                if city not in (data[0][1] if data and data[0][0] == "cities" else pairs_get(data, "cities")):
                    return None
                ext = q.ext
                mine = list(_passengers_in(ext))
                if RESERVE not in mine:
                    return None
                mine[mine.index(RESERVE)] = city
                players[seat] = new_player(q.hand, q.trains, q.tickets, q.route_points,
                                           _usual_set(ext, "passengers", tuple(mine)))
        elif cls is Stop:
            if p.kind != "journey":
                return None
            players[seat] = new_player(q.hand, q.trains, q.tickets, q.route_points, _stopped(q.ext, p))
        else:
            return None
        return _turn_over(v, state, seat, state.deck, state.market, state.discard, state.claims, tuple(players))

    def _quick_claim(self, v, state, action, trusted):     # (a method: a staticmethod's load is never specialised)
        if not trusted and _plainly_legal(v, state, action) is None:
            return None
        seat = action.seat
        _, _, _, placeable, t = _TABLES.get(state.variant) or _tables(v, state.variant)
        route = t.by_label[action.route]
        i = route.index
        players = list(state.players)
        q = players[seat]
        hand = list(q.hand)
        discard = list(state.discard)
        for k, n in action.payment:
            hand[k] -= n
            discard[k] += n
        players[seat] = new_player(tuple(hand), q.trains - route.length, q.tickets, q.route_points + t.points[i],
                                   q.ext)
        cities = placeable[i]
        if cities:                                     # (those where no passenger stands: on_claim's ``taken``)
            first, last = cities[0], cities[-1]        # (read once: a negative index is a generic subscript)
            for other in players:
                mine = _passengers_in(other.ext)
                if first in mine or last in mine:
                    free = []                          # (a plain loop: a generator is a call of its own)
                    for c in cities:
                        if c not in mine:
                            free.append(c)
                    cities = tuple(free)
                    if not cities:
                        break
                    first, last = cities[0], cities[-1]
        claims = state.claims
        new_claims = list(claims)                      # (a list set and made a tuple: cheaper than two slices)
        new_claims[i] = seat
        new_claims = tuple(new_claims)
        if cities:                                     # MK-CLAIM-5: the placement is the turn's pending step
            new = new_state(state.variant, state.n_players, state.seed, state.deck, state.market, tuple(discard),
                            state.ticket_decks, state.tickets_out, new_claims, tuple(players), state.phase, seat,
                            (_place_step(seat, cities),), state.final_turns_left, state.turn, state.ply + 1, 0,
                            state.shuffles, state.first_player, state.ext)
        else:
            new = _turn_over(v, state, seat, state.deck, state.market, tuple(discard), new_claims, tuple(players))
        if new is not None:
            t.claimed(claims, new_claims, i, seat)
        return new

    def _quick_ride(self, v, state, action, p, trusted):     # (a method, as _quick_claim)
        seat = action.seat
        a, b = action.a, action.b
        if a.__class__ is not str or b.__class__ is not str:
            return None
        if p is None:                                  # the first step starts the move (MK-TURN-1)
            if state.pending or seat != state.current:
                return None
            start, used, visited = a, (), ()
            slot = _movable_slot(state, seat, a)
            if slot is None:
                return None
            passes = 0
        else:
            if p.kind != "journey":
                return None
            data = p.data
            if (len(data) == 7 and data[0][0] == "at" and data[2][0] == "slot" and data[3][0] == "start"
                    and data[5][0] == "used" and data[6][0] == "visited"):
                at, slot, start, used, visited = data[0][1], data[2][1], data[3][1], data[5][1], data[6][1]
            else:                                      # (the pairs _journey_step makes are read in place; others
                data = dict(data)                      # through one dict, not five walks of the pairs)
                at, start, used, visited, slot = (data.get("at"), data.get("start"), data.get("used"),
                                                  data.get("visited"), data.get("slot"))
            if at != a:
                return None
            passes = state.passes
        routes = (_TABLES.get(state.variant) or _tables(v, state.variant))[1].get((a, b))     # (no country there)
        got = None if routes is None else _step(state.claims, seat, routes, used)
        players = list(state.players)
        q = players[seat]
        if got is None or got[1] > q.hand[PASSENGER]:
            return None                                # (or a city named otherwise: the general path)
        route, cost = got
        hand, discard, ext, goods = q.hand, state.discard, q.ext, state.ext
        if cost:
            hand = hand[:PASSENGER] + (hand[PASSENGER] - 1,) + hand[PASSENGER + 1:]
            discard = discard[:PASSENGER] + (discard[PASSENGER] + 1,) + discard[PASSENGER + 1:]
        if b != start and b not in visited:             # MK-PASS-4
            visited = visited + (b,)
            # ("goods" is the table's one key, and sorts first of a player's pairs: both read in place)
            taken = _take_goods(goods[0][1] if goods and goods[0][0] == "goods" else pairs_get(goods, "goods", ()), b)
            if taken is not None:
                stacks, token = taken
                goods = pairs_set(goods, "goods", stacks)
                mine = ext[0][1] if ext and ext[0][0] == "goods" else pairs_get(ext, "goods", ())
                ext = _usual_set(ext, "goods", mine + (token,))
        players[seat] = new_player(hand, q.trains, q.tickets, q.route_points, ext)
        return new_state(state.variant, state.n_players, state.seed, state.deck, state.market, discard,
                         state.ticket_decks, state.tickets_out, state.claims, tuple(players), state.phase, state.current,
                         (_journey_step(seat, b, slot, start, used + (route.id,), visited),), state.final_turns_left,
                         state.turn, state.ply + 1, passes, state.shuffles, state.first_player, goods)

    # -- legal actions ------------------------------------------------------------------------------
    def turn_actions(self, v, state, seat) -> list:
        hand = state.players[seat].hand
        out = []
        for _, where in movable(state, seat):
            out += self._rides(v, state, seat, where, (), hand[PASSENGER])
        return out

    def bot_random(self, v, state, seat, r) -> list | tuple:
        """``turn_actions`` for the random bot: the same rides in the same order, the shared ``Ride`` of each (a
        list of the few found costs less than a lazy sequence object with its Python ``__len__`` and
        ``__getitem__``; no passenger standing in a city: an empty tuple)."""
        player = state.players[seat]
        cards = player.hand[PASSENGER]
        passengers = moved = ()
        for key, value in player.ext:                   # passengers_of and moved_of in one pass
            if key == "passengers":
                passengers = value
            elif key == MOVED:
                moved = value
        if not passengers:                              # (a player's ext without its passengers: movable's default)
            passengers = passengers_of(state, seat)
        if passengers in _NONE_STANDING:                # none stands in a city (most turns of a game's second half;
            return ()                                   # another number of them: the loop below finds none)
        claims = state.claims
        table, _, _, _, t = _TABLES.get(state.variant) or _tables(v, state.variant)
        taken = None                                    # (the claimed routes, as a bit set: read once, if asked)
        rides = []
        for i, at in enumerate(passengers):             # movable(state, seat), inline
            if at == RESERVE or at == DONE or i in moved:
                continue
            row = table.get(at)
            if row is None:
                row = _row_index(v, at, _ride_row(v, at))
            # _step(claims, seat, routes, ()) found a route it may pay: one of its own (free), or another's with a
            # card for it. With a card that is any claimed route (a seat is never FREE): one bit test a neighbour,
            # against the routes the claims' info (RouteTable.latest, as tables.allowed_routes reads it) has not
            # free; without one its own only: one comparison a route instead of three. (The ride of the seat read
            # from the row: no _ride call.)
            if cards:
                if taken is None:
                    info = t.latest
                    if info.claims is not claims:
                        info = t.claims_info(claims)
                    taken = ~info.free
                for _, _, mask, ride in row:
                    if mask & taken:
                        rides.append(ride[seat])
            else:
                for _, routes, _, ride in row:
                    for j in routes:
                        if claims[j] == seat:
                            rides.append(ride[seat])
                            break
        return rides

    def _rides(self, v, state, seat, at, used, cards) -> list:
        """The rides from ``at``: to each neighbouring city (not a country) in the order of the routes there, when
        ``step_route`` finds a claimed route not used yet that ``cards`` passenger cards pay for."""
        table = _ride_table(v)
        row = table.get(at)
        if row is None:
            row = _ride_row(v, at)                     # a city named otherwise (or no city: MapError, as before)
        out = []
        claims = state.claims
        for b, routes in row:
            got = _step(claims, seat, routes, used)
            if got is not None and got[1] <= cards:
                out.append(Ride(a=at, b=b, seat=seat))
        return out

    def random_pending(self, v, state, pending, r):
        """The random bot's pick: ``pending_actions(v, state, pending)[r.index(len(...))]`` without listing them
        (a placement: a city of the claimed route or none, MK-CLAIM-5; a journey's step: a ride counted from the
        ride table, or the stop, MK-PASS-1..3), only the action picked made."""
        seat = pending.seat
        data = pending.data                            # (read with pairs_get: Pending.get's call spared)
        if pending.kind == "place_passenger":
            cities = data[0][1] if data and data[0][0] == "cities" else pairs_get(data, "cities")   # (sorts first)
            k = r.index(len(cities) + 1)
            return _placement(cities[k] if k < len(cities) else "", seat)
        if len(data) == 7 and data[0][0] == "at" and data[5][0] == "used":
            at, used = data[0][1], data[5][1]          # the pairs _journey_step makes, read in place (no walks)
        else:
            at, used = pairs_get(data, "at"), pairs_get(data, "used")
        row = (_TABLES.get(state.variant) or _tables(v, state.variant))[2].get(at)
        if row is None:
            row = _ride_row(v, at)                     # (as _rides: a city named otherwise)
        claims = state.claims
        cards = state.players[seat].hand[PASSENGER]
        ends = []
        # _step(claims, seat, routes, used) found a route it may pay: an unused claimed one, its own (free) or with
        # a card for it. With a card that is any claimed one (a seat is never FREE), without one its own only.
        if cards:
            for b, routes in row:
                for route in routes:
                    if claims[route.index] != FREE and route.id not in used:
                        ends.append(b)
                        break
        else:
            for b, routes in row:
                for route in routes:
                    if claims[route.index] == seat and route.id not in used:
                        ends.append(b)
                        break
        k = r.index(len(ends) + 1)
        return _ride(at, ends[k], seat) if k < len(ends) else _stop(seat)

    def pending_actions(self, v, state, pending) -> list:
        seat = pending.seat
        if pending.kind == "place_passenger":
            return [PlacePassenger(city=c, seat=seat) for c in pending.get("cities")] + [PlacePassenger(city="", seat=seat)]
        return (self._rides(v, state, seat, pending.get("at"), pending.get("used"), state.players[seat].hand[PASSENGER])
                + [Stop(seat=seat)])

    # -- legality -----------------------------------------------------------------------------------
    def check(self, v, state, action, seat) -> None:
        _check_shape(action)
        p = state.pending_for(seat) if state.pending else None
        if isinstance(action, PlacePassenger):
            if p is None or p.kind != "place_passenger":
                raise _deny(v, "a passenger can only be placed right after claiming a route", "MK-CLAIM-5", action, seat)
            if action.city and action.city not in p.get("cities"):
                where = occupied(state).get(action.city)
                gone = " (it has travelled and leaves the game at the end of the round, MK-PASS-6)" \
                    if leaving(state).get(action.city) == where and where is not None else ""
                why = (f"a passenger of {_seat_name(where)} already stands in {action.city}{gone}: one passenger per "
                       "city" if where is not None else
                       f"{action.city} is a country, not a city" if is_country(v, action.city) else
                       f"{action.city} is not a city of the route just claimed (choose {' or '.join(p.get('cities'))})")
                raise _deny(v, why, "MK-CLAIM-5", action, seat)
            return
        if isinstance(action, Stop):
            if p is None or p.kind != "journey":
                raise _deny(v, "there is no passenger move to stop", "MK-PASS-1", action, seat)
            return
        # Ride
        if p is not None and p.kind != "journey":
            raise _deny(v, f"{_seat_name(seat)} must first finish the pending step ({p.kind.replace('_', ' ')})",
                        p.get("rule") or "MK-TURN-1", action, seat)
        if p is not None:
            at, used = p.get("at"), p.get("used")
            if action.a != at:
                raise _deny(v, f"the moving passenger is in {at}, not {action.a}", "MK-PASS-1", action, seat)
        else:
            at, used = action.a, ()
            if at not in [w for _, w in movable(state, seat)]:
                if leaving(state).get(at) == seat:
                    raise _deny(v, f"{_seat_name(seat)}'s passenger in {at} has already travelled: each passenger moves "
                                   "once and leaves the game at the end of the round", "MK-PASS-6", action, seat)
                raise _deny(v, f"{_seat_name(seat)} has no passenger standing in {at}", "MK-PASS-1", action, seat)
        if is_country(v, action.b):
            raise _deny(v, f"{action.b} is a country: passengers travel between German cities only", "MK-PASS-1",
                        action, seat)
        got = step_route(v, state, seat, at, action.b, used)
        if got[0] is None:
            raise _deny(v, got[1], got[2], action, seat)
        if got[1] > state.players[seat].hand[PASSENGER]:
            owner = _seat_name(state.claims[got[0].index])
            raise _deny(v, f"{at}–{action.b} belongs to {owner}: travelling on it costs a passenger card, and "
                           f"{_seat_name(seat)} has none left", "MK-PASS-2", action, seat)

    # -- effects ------------------------------------------------------------------------------------
    def apply(self, v, tx, action, seat) -> None:
        p = next((q for q in tx.pending if q.seat == seat), None)
        if isinstance(action, PlacePassenger):
            tx.pending = [q for q in tx.pending if q.seat != seat]
            if action.city:
                mine = list(pairs_get(tx.players[seat].ext, "passengers"))
                mine[mine.index(RESERVE)] = action.city
                tx.set_player(seat, ext=pairs_set(tx.players[seat].ext, "passengers", tuple(mine)))
                if tx.events is not None:
                    tx.event("passenger_placed", "MK-CLAIM-5", f"{_seat_name(seat)} placed a passenger in {action.city}")
            tx.end_turn()
            return
        if isinstance(action, Stop):
            self._finish(v, tx, seat, p)
            return
        state = tx.s
        if p is None:                                  # the first step starts the move (MK-TURN-1)
            start, used, visited = action.a, (), ()
            slot = _movable_slot(state, seat, action.a)
        else:
            start, used, visited, slot = p.get("start"), p.get("used"), p.get("visited"), p.get("slot")
        route, cost = step_route(v, state, seat, action.a, action.b, used)
        if cost:
            tx.change_hand(seat, ((PASSENGER, 1),), -1)
            tx.discard[PASSENGER] += 1
        words = f"{_seat_name(seat)}'s passenger travelled {action.a}–{action.b}"
        if cost:
            words += f" on {_seat_name(tx.claims[route.index])}'s route, paying a passenger card"
        if action.b != start and action.b not in visited:         # MK-PASS-4
            visited = visited + (action.b,)
            taken = _take_goods(pairs_get(tx.ext, "goods", ()), action.b)
            if taken is not None:
                stacks, token = taken
                tx.ext = pairs_set(tx.ext, "goods", stacks)
                ext = tx.players[seat].ext
                tx.set_player(seat, ext=pairs_set(ext, "goods", pairs_get(ext, "goods", ()) + (token,)))
                words += f" and took the {token} goods token in {action.b} ({token} point{'s' if token != 1 else ''}, MK-PASS-5)"
        tx.event("passenger_ride", "MK-PASS-4", words)
        tx.pending = [q for q in tx.pending if q.seat != seat]     # the passenger's slot keeps its start city
        #                                                           until it stops; "at" says where it is
        tx.pending.append(_journey_step(seat, action.b, slot, start, used + (route.id,), visited))

    def _finish(self, v, tx, seat, p) -> None:
        """MK-PASS-6: the passenger stands in its last city until the end of the round ("Op het einde van de ronde
        waarin de passagier verplaatst werd, wordt hij uit het spel verwijderd"), then leaves (``on_round_end``)."""
        tx.set_player(seat, ext=_stopped(tx.players[seat].ext, p))
        tx.pending = [q for q in tx.pending if q.seat != seat]
        if tx.events is not None:
            tx.event("passenger_done", "MK-PASS-6",
                     f"{_seat_name(seat)}'s passenger ended its journey in {p.get('at')}: it stays there until the end "
                     "of the round, then leaves the game")
        tx.end_turn()

    def acts_at_round_end(self, v, state) -> bool:
        return any(pairs_get(p.ext, MOVED, ()) for p in state.players)

    def quick_round_end(self, v, players):
        """``on_round_end`` on a tuple of players, for the engine's quick paths (MK-PASS-6)."""
        try:                                         # most rounds nobody travelled: one pass, no seats counted.
            for p in players:                        # The pairs sort by key, MOVED between "goods" and
                ext = p.ext                          # "passengers": with "passengers" second and MOVED not first,
                if ext[1][0] != "passengers" or ext[0][0] == MOVED:     # none travelled. (A travelled player's
                    break                            # third pair breaks here, no ValueError raised and caught as
            else:                                    # an unpacking of two pairs did: ten a game.)
                return players
        except IndexError:                           # (fewer than two pairs: the long way)
            pass
        out = None
        seat = -1                                    # (counted by hand: no enumerate pairs made)
        for p in players:
            seat += 1
            ext = p.ext
            if len(ext) == 2 and ext[1][0] == "passengers" and ext[0][0] != MOVED:
                continue                             # a player's usual pairs, goods and passengers: nobody travelled
            for key, moved in ext:                   # pairs_get(ext, MOVED) inline
                if key == MOVED:
                    break
            else:
                continue
            ext = _left_game(ext) if moved else None
            if ext is not None:
                if out is None:
                    out = list(players)
                out[seat] = new_player(p.hand, p.trains, p.tickets, p.route_points, ext)
        return players if out is None else tuple(out)

    def on_round_end(self, v, tx) -> None:
        """MK-PASS-6: every passenger that travelled this round leaves the game; its city is free again."""
        for seat in range(tx.s.n_players):
            ext = tx.players[seat].ext
            moved = pairs_get(ext, MOVED, ())
            if not moved:
                continue
            cities = [pairs_get(ext, "passengers")[i] for i in moved]
            tx.set_player(seat, ext=_left_game(ext))
            tx.event("passenger_left", "MK-PASS-6",
                     f"End of the round: {_seat_name(seat)}'s passenger{'s' if len(cities) != 1 else ''} in "
                     f"{' and '.join(cities)} leave{'s' if len(cities) == 1 else ''} the game")

    # -- views and invariants -----------------------------------------------------------------------
    def observe(self, v, state, seat, view) -> None:
        view["goods"] = {c: list(s) for c, s in state.get("goods", ())}
        for entry in view["players"]:
            entry["passengers"] = list(passengers_of(state, entry["seat"]))
            entry["passengers_moved"] = list(moved_of(state, entry["seat"]))    # slots: they leave at the round's end
            entry["goods_tokens"] = list(goods_of(state, entry["seat"]))

    def board_marks(self, v, state, marks) -> None:
        marks["passengers"] = where = occupied(state)
        marks["leaving"] = leaving(state)               # travelled this round: they leave at its end (MK-PASS-6)
        marks["goods"] = {c: tuple(s) for c, s in state.get("goods", ())}     # top first; () once emptied
        for p in state.pending:                         # a passenger on its way: drawn where it is, its path so far
            if p.kind == "journey":
                if p.get("at") not in where and where.get(p.get("start")) == p.seat:
                    del where[p.get("start")]
                    where[p.get("at")] = p.seat
                marks["trail"] = tuple(p.get("used"))
                marks["trail_label"] = f"{_seat_name(p.seat)}'s passenger"

    def validate(self, v, state, problems) -> None:
        start = initial_goods(v)
        stacks = goods_stacks(state)
        taken: list[int] = []
        for seat in range(state.n_players):
            taken += goods_of(state, seat)
            mine = passengers_of(state, seat)
            if len(mine) != PASSENGERS:
                problems.append(f"{_seat_name(seat)} has {len(mine)} passengers, not {PASSENGERS} ({v.rule('MK-COMP-2')})")
            for w in mine:
                if w not in (RESERVE, DONE) and (w not in v.map._city_by_name or is_country(v, w)):
                    problems.append(f"{_seat_name(seat)}'s passenger stands in {w!r}, which is not a city "
                                    f"({v.rule('MK-CLAIM-5')})")
        seen: dict[str, int] = {}
        journeys = {p.seat: p.get("slot") for p in state.pending if p.kind == "journey"}
        for seat in range(state.n_players):
            mine, moved = passengers_of(state, seat), moved_of(state, seat)
            if (not isinstance(moved, tuple) or len(set(moved)) != len(moved)
                    or not all(type(i) is int and 0 <= i < len(mine) for i in moved)):
                problems.append(f"{_seat_name(seat)}'s travelled passengers must be distinct passenger numbers "
                                f"0–{PASSENGERS - 1} ({v.rule('MK-PASS-6')})")
                continue
            for i in moved:
                if mine[i] in (RESERVE, DONE):
                    problems.append(f"{_seat_name(seat)}'s passenger {i} is marked as travelled this round but stands "
                                    f"in no city ({v.rule('MK-PASS-6')})")
                if journeys.get(seat) == i:
                    problems.append(f"{_seat_name(seat)}'s passenger on its way has already travelled this round "
                                    f"({v.rule('MK-PASS-6')})")
            if moved and state.phase == "setup":
                problems.append(f"a passenger has travelled before the game began ({v.rule('MK-PASS-6')})")
            for _, w in movable(state, seat):          # a travelled passenger may end where another stands
                if w in seen:
                    problems.append(f"two passengers stand in {w}: one passenger per city ({v.rule('MK-CLAIM-5')})")
                seen[w] = seat
        if set(stacks) != set(start):
            problems.append(f"the goods stacks are not on the {len(start)} German cities ({v.rule('MK-SETUP-1')})")
        names = [city for city, _ in state.get("goods", ())]
        if names != sorted(set(names)):                 # the order a game saves them in, which a ride relies on
            problems.append(f"the goods stacks must name each city once, sorted by name as a game saves them "
                            f"({v.rule('MK-SETUP-1')})")
        left: list[int] = []
        for city, stack in stacks.items():
            full = start.get(city, ())
            if tuple(stack) != full[len(full) - len(stack):]:
                problems.append(f"the goods stack of {city} is {list(stack)}, not the bottom of {list(full)} "
                                f"({v.rule('MK-PASS-4')})")
            left += stack
        if sorted(left + taken) != sorted(x for s in start.values() for x in s):
            problems.append(f"goods tokens on the board and taken do not add up to the {sum(map(len, start.values()))} "
                            f"tokens of the game ({v.rule('MK-COMP-5')})")

    def player_words(self, v, state, seat) -> str:
        """Public: where the seat's passengers stand and the goods tokens it has taken (MK-CLAIM-5, MK-PASS-5)."""
        mine = passengers_of(state, seat)
        standing = [w for _, w in movable(state, seat)]
        done = [mine[i] for i in moved_of(state, seat)]
        parts = [f"passengers: {', '.join(standing) or ('none left to move' if done else 'none on the board')}"]
        if mine.count(RESERVE):
            parts[0] += f" ({mine.count(RESERVE)} in reserve)"
        if done:
            parts.append(f"travelled to {', '.join(done)} (leave{'s' if len(done) == 1 else ''} the game at the end "
                         "of the round)")
        goods = goods_of(state, seat)
        if goods:
            parts.append(f"goods {' + '.join(map(str, goods))} = {sum(goods)}")
        return " · ".join(parts)

    # -- a hint for a learner (PlayView's "hint" button) ---------------------------------------------
    hint_label = "hint: best passenger move"

    def hint(self, v, state, seat) -> tuple[str, tuple[str, ...]]:
        """The exact best passenger move for ``seat`` now (within its passenger cards), in words, and its route
        ids in order (drawn as a path). A move under way continues from where the passenger stands."""
        journey = _journey(state, seat)
        if journey is not None:
            move = best_passenger_move(state, seat, start=journey.get("at"), used=journey.get("used"),
                                       visited=journey.get("visited"), origin=journey.get("start"))
        else:
            move = best_passenger_move(state, seat)
        cards = state.players[seat].hand[PASSENGER]
        if not move.routes:
            standing = movable(state, seat)
            why = ("no move of your passengers collects goods now" if standing else
                   "your passenger on the board has already travelled: it leaves at the end of the round (MK-PASS-6)"
                   if moved_of(state, seat) else
                   "no passenger of yours stands on the board: place one after a claim (MK-CLAIM-5)")
            return ("Best passenger move: stop here (MK-PASS-6)" if journey is not None else
                    f"Best passenger move: none — {why}"), ()
        return (f"Best passenger move (exact, with your {cards} passenger card{'s' if cards != 1 else ''}): "
                f"{' – '.join(move.cities)}, {move.points} point{'s' if move.points != 1 else ''}, {move.cards} passenger card"
                f"{'s' if move.cards != 1 else ''} (MK-PASS-1..5)"), tuple(move.routes)

    # -- bots ---------------------------------------------------------------------------------------
    def bot_pending(self, v, state, pending):
        seat = pending.seat
        if pending.kind == "place_passenger":
            stacks = goods_stacks(state)
            best = max(pending.get("cities"), key=lambda c: (sum(stacks[n][0] for n in _neighbours(v, c) if stacks.get(n)), c))
            return PlacePassenger(city=best, seat=seat), f"places a passenger in {best}, next to valuable goods"
        at = pending.get("at")
        move = best_passenger_move(state, seat, start=at, used=pending.get("used"), visited=pending.get("visited"),
                                   origin=pending.get("start"))
        if move.cities[1:]:
            return Ride(a=at, b=move.cities[1], seat=seat), f"rides on towards {move.cities[-1]} for {move.points} more points"
        return Stop(seat=seat), "no more goods within reach: ends the journey"

    def bot_turn(self, v, state, seat, plan):
        move = best_passenger_move(state, seat)
        p = state.players[seat]
        spare = RESERVE in passengers_of(state, seat)
        if move.points >= 8 or (move.points > 0 and (state.phase == "last_round" or p.trains <= 6 or not spare and move.points >= 5)):
            return Ride(a=move.cities[0], b=move.cities[1], seat=seat), \
                f"moves a passenger {'–'.join(move.cities)} for {move.points} point{'s' if move.points != 1 else ''}"
        if not plan.routes and p.trains >= 12 and state.phase == "play" and mixes(state) != [(0, 0)]:
            s, lg = mixes(state)[len(mixes(state)) // 2]
            return Announce(short=s, long=lg, seat=seat), "all its tickets are done: announces a mix of new tickets"
        return None


def _neighbours(v: Variant, city: str) -> list[str]:
    return sorted({r.other(city) for r in v.map.routes_at(city)})


# ---------------------------------------------------------------------------------------------
# the best passenger move (exact)

@dataclass(frozen=True)
class PassengerMove:
    points: int
    cities: tuple[str, ...]          # start first; () when the seat has no passenger on the board
    routes: tuple[str, ...]
    cards: int                       # passenger cards it spends

    def __str__(self) -> str:
        if not self.routes:
            return "no passenger move scores"
        return f"{'–'.join(self.cities)}: {self.points} points, {self.cards} passenger card{'s' if self.cards != 1 else ''}"


def _inland_routes(v: Variant) -> tuple[tuple[int, str, str, str], ...]:
    """(index, a, b, id) of the routes with no country at either end, in map order: the only routes a passenger
    travels on (ttr_nb's reading: passengers never enter a country), listed once per variant."""
    found = v.__dict__.get("_inland_routes")
    if found is None:
        found = v.__dict__["_inland_routes"] = tuple((r.index, r.a, r.b, r.id) for r in v.map.routes
                                                     if not is_country(v, r.a) and not is_country(v, r.b))
    return found


_NETWORKS: dict[tuple[str, int], tuple] = {}       # (variant, seat) -> (claims, adjacency, components): the last one


def _passenger_network(v: Variant, claims: tuple[int, ...], seat: int, used: Sequence[str]):
    """(adjacency, components) of the claimed routes a passenger of ``seat`` may travel, ``used`` left out.

    Adjacency: city -> (other city, route bit, passenger cards, route id), over the claimed routes with no country
    at either end (a route into a country is not a way through it), cheapest first. Components: city -> number of
    its component of the seat's own routes (numbered as found, cities in name order): a move's own routes are
    free, so between two passenger cards it stays inside one component. Kept per seat while the claims stay the
    same object (card draws do not change them), when nothing is ``used`` yet.
    """
    key = (v.key, seat)
    if not used:
        kept = _NETWORKS.get(key)
        if kept is not None and kept[0] is claims:
            return kept[1], kept[2]
    adj: dict[str, list[tuple[str, int, int, str]]] = {}
    bit = 1
    for i, a, b, rid in _inland_routes(v):
        owner = claims[i]
        if owner == FREE or rid in used:
            continue
        cost = 0 if owner == seat else 1
        adj.setdefault(a, []).append((b, bit, cost, rid))
        adj.setdefault(b, []).append((a, bit, cost, rid))
        bit <<= 1
    for lst in adj.values():
        lst.sort(key=lambda e: (e[2], e[0], e[3]))
    comp: dict[str, int] = {}
    found = 0
    for c0 in sorted(adj):
        if c0 in comp:
            continue
        comp[c0] = found
        todo = [c0]
        while todo:
            c = todo.pop()
            for b, _, cost, _ in adj[c]:
                if cost == 0 and b not in comp:
                    comp[b] = found
                    todo.append(b)
        found += 1
    if not used:
        _NETWORKS[key] = (claims, adj, comp)
    return adj, comp


def best_passenger_move(state: GameState, seat: int, *, start: str | None = None, used: Sequence[str] = (),
                        visited: Sequence[str] = (), origin: str | None = None, budget: int | None = None) -> PassengerMove:
    """The move collecting the most goods points within the passenger cards in hand (MK-PASS-1..4), exact.

    A trail (no route twice, cities may repeat) from one of ``seat``'s passengers over claimed routes, own routes
    free and each route of another player one card, worth the top token of every city reached except the start
    (once per city). Ties: fewer cards, then fewer routes, then the alphabetically first city list.
    ``start``/``used``/``visited``/``origin`` continue a move already under way (its start city is ``origin``).
    Branch and bound: a branch is cut when its points plus every token it could still reach cannot beat the best.
    """
    from ..variants import get_variant
    v = get_variant(state.variant)
    starts = [start] if start is not None else sorted(w for _, w in movable(state, seat))
    if not starts:                                  # no passenger of the seat can move
        return PassengerMove(0, (), (), 0)
    cards = state.players[seat].hand[PASSENGER] if budget is None else budget
    tops = {c: s[0] for c, s in state.get("goods", ()) if s}
    adj, comp = _passenger_network(v, state.claims, seat, used)
    best_routes: list[tuple[str, ...]] = [()]
    remaining = [0] * (max(comp.values(), default=-1) + 1)

    # Upper bound: a move's own routes are free, so between two passenger cards it stays inside one component of
    # the seat's own network (``comp``). With r cards left it can still collect at most the untaken tokens of its
    # current component plus those of the r richest other components (each card crosses at most one other
    # player's route into one more component); ``remaining`` holds each component's untaken tokens. A branch whose
    # points plus this bound fall short of the best cannot beat it, so cutting it keeps the answer exact.
    def bound(city, left) -> int:
        here = comp[city]
        others = sorted((w for i, w in enumerate(remaining) if i != here), reverse=True)[:left]
        return remaining[here] + sum(others)

    best_key = [None]               # (points, -cards, -routes, cities): larger is better, then the first cities

    seen: set[tuple[str, int]] = set()

    def dfs(city, mask, left, got, points, path, rpath, spent):
        # the routes used fix everything else (cities reached = their ends, cards spent = others' routes among
        # them), so a (city, routes used) pair reached in another order is the same position: search it once
        if (city, mask) in seen:
            return
        seen.add((city, mask))
        k = (points, -spent, -(len(path) - 1))
        if best_key[0] is None or k > best_key[0][:3] or (k == best_key[0][:3] and tuple(path) < best_key[0][3]):
            best_key[0] = (*k, tuple(path))
            best_routes[0] = tuple(rpath)
        if points + bound(city, left) < best_key[0][0]:
            return
        for b, bit, cost, rid in sorted(adj.get(city, ()), key=lambda e: (e[0] in got, -tops.get(e[0], 0), e[2])):
            if mask & bit or cost > left:
                continue
            gain = tops.get(b, 0) if b not in got else 0
            path.append(b)
            rpath.append(rid)
            remaining[comp[b]] -= gain
            dfs(b, mask | bit, left - cost, got | {b}, points + gain, path, rpath, spent + cost)
            remaining[comp[b]] += gain
            path.pop()
            rpath.pop()

    for s in starts:
        if s not in adj:
            continue
        got = frozenset(visited) | {origin or s}
        for i in range(len(remaining)):
            remaining[i] = 0
        for c in adj:
            if c not in got:
                remaining[comp[c]] += tops.get(c, 0)
        seen.clear()
        dfs(s, 0, cards, got, 0, [s], [], 0)
    if best_key[0] is None:
        return PassengerMove(0, (), (), 0)
    pts, neg_spent, _, cities = best_key[0]
    return PassengerMove(pts, cities, best_routes[0], -neg_spent)


# ---------------------------------------------------------------------------------------------
# scoring

def connected_avoiding_countries(v: Variant, edges, a: str, b: str) -> tuple[str, ...] | None:
    """Route ids of a shortest path a→b over ``edges`` that passes through no country (a country may only be an
    end: reaching it by any of its border routes completes a ticket to it). None if there is none."""
    return connect_path(edges, a, b, dead_end=lambda city: is_country(v, city))


class MaerklinScoring(Feature):
    """Goods points, +10 for the most completed tickets, no longest-path bonus"""
    name = "maerklin_scoring"
    score_words = (f"goods tokens collected (their points, scored during play); +{MOST_TICKETS_BONUS} for the most "
                   "completed tickets (ties: each, ttr_nb's reading)")

    def ticket_dead_ends(self, v) -> frozenset[str]:
        """MK-SCORE-2: a ticket to a country is joined at any of its border points, never through the country (the
        base scoring checks every ticket so)."""
        return _countries(v)[0]

    def score(self, v, state, sheet) -> None:
        players = []
        for ps in sheet["players"]:                        # the tickets: scored by the base, avoiding countries
            goods = goods_of(state, ps.seat)
            players.append(_with(ps, extras=ps.extras + (("goods", sum(goods)),),  # MK-PASS-5
                                 stats=ps.stats + (("goods_tokens", len(goods)),)))
        best = max(ps.completed for ps in players)
        if best > 0:                                   # MK-SCORE-2: every tied player gets it (interpretation)
            players = [_with(ps, extras=ps.extras + (("most completed tickets", MOST_TICKETS_BONUS),))
                       if ps.completed == best else ps for ps in players]
        sheet["players"] = players

    def score_points(self, v, state, completed) -> list[int]:
        """Per seat, what ``score`` adds: its goods tokens (MK-PASS-5) and the bonus for the most completed tickets
        (MK-SCORE-2)."""
        counts = [sum(done) for done in completed]
        best = max(counts)
        return [sum(goods_of(state, seat)) + (MOST_TICKETS_BONUS if best > 0 and counts[seat] == best else 0)
                for seat in range(state.n_players)]


# ---------------------------------------------------------------------------------------------
# the map file: built from maps/sources/maerklin by a stated rule

PROVISIONAL_NOTE = ("The goods colours of 34 cities and the 46 tickets are rule-based stand-ins "
                    "(Germany 2017 tickets), not the printed Märklin board and cards.")
DECK = {"purple": 11, "blue": 11, "orange": 11, "white": 11, "green": 11, "yellow": 11, "black": 11, "red": 11,
        "locomotive": 14, "locoplus": 6, "passenger": 10}                                       # MK-COMP-3
STANDIN_RULE = ("Stand-in deck (PROVISIONAL; the 46 Märklin tickets are not public): from tickets_germany2017.csv, "
                "the short tickets worth 5–11 and the long tickets worth 12–22, each list sorted by (points, id), "
                "and from each list the 23 tickets at positions floor(i·n/23), i = 0..22 (n = the list's length). "
                "The full Germany 2017 deck is kept in extra.tickets_germany2017; "
                "build_map_document(folder, deck='germany2017') plays with it instead.")
COUNTRY_RULE = ("Countries (Dänemark, Niederlande, Frankreich, Schweiz, Österreich) are one location each with "
                "extra.country = true; their routes are the border points. A ticket to a country is completed by "
                "reaching it along any of its routes, and no ticket path, trail or passenger passes through a country "
                "(ttr_nb.games.maerklin.connected_avoiding_countries; passengers never enter one).")


def standin_tickets(rows: list[dict]) -> list[dict]:
    """MK-COMP-4 stand-in: 23 short (5–11) + 23 long (12–22) by the rule in STANDIN_RULE."""
    out = []
    for deck, lo, hi in (("short", 5, 11), ("long", 12, 22)):
        pool = sorted((t for t in rows if t["deck"] == deck and lo <= t["points"] <= hi), key=lambda t: (t["points"], t["id"]))
        n = len(pool)
        out += [pool[i * n // 23] for i in range(23)]
    return sorted(out, key=lambda t: t["id"])


def build_map_document(folder, *, deck: str = "standin") -> dict:
    """``maps/maerklin.json`` from ``folder`` (maps/sources/maerklin): the board as in the CSVs, goods
    colours and stacks from goods_provisional.csv, countries marked, the ticket deck chosen by ``deck``."""
    import csv
    from pathlib import Path
    from ..board.maps import _check_document, _error, _totals, map_from_reference
    folder = Path(folder)
    doc = map_from_reference(folder, key="maerklin", name="Ticket to Ride Märklin", tickets_file="tickets_germany2017.csv",
                             deck=DECK, provisional=True, provisional_note=PROVISIONAL_NOTE,
                             reference="maps/sources/maerklin")
    goods = {}
    with open(folder / "goods_provisional.csv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            goods[row["city"]] = (row["goods_colour"], [int(x) for x in row["tokens"].split(";")])
    for c in doc["cities"]:
        extra = dict(c.get("extra", {}))
        if extra.get("goods_colour") == "none":
            extra = {"country": True}
        else:
            colour, tokens = goods[c["name"]]
            extra = {"goods_colour": colour, "goods": tokens,
                     "goods_verified": c["name"] == "Berlin"}
        c["extra"] = extra
    full = doc["tickets"]
    if deck == "standin":
        doc["tickets"] = standin_tickets(full)
    elif deck != "germany2017":
        raise MapError(f"deck must be 'standin' or 'germany2017', got {deck!r}")
    doc["extra"] = {"tickets_germany2017": full, "ticket_deck": deck, "ticket_rule": STANDIN_RULE,
                    "countries": COUNTRY_RULE, "goods_rule": "maps/sources/maerklin/PROVISIONAL.md (goods_provisional.csv)"}
    prov = doc["provenance"]
    prov["notes"] = list(prov.get("notes", ())) + [STANDIN_RULE, COUNTRY_RULE]
    prov["totals"] = _totals(len(doc["cities"]), doc["routes"], doc["tickets"], list(doc["deck"].items()))
    problems = _check_document(doc, "maps/sources/maerklin (building maerklin.json)")
    if problems:
        raise _error(problems)
    return doc


# ---------------------------------------------------------------------------------------------
# the variant

def _bot_idle(v: Variant, state: GameState, seat: int) -> bool:
    """``Variant.bot_idle``: every ticket deck empty (no announcement, MK-TICKET-1) and no passenger of ``seat``
    standing in a city (no ride, MK-PASS-1), so neither ``TicketMix.bot_random`` nor ``Passengers.bot_random`` has
    anything. Most turns of a game's second half: one test instead of both pickers."""
    for _, pile in state.ticket_decks:
        if pile:
            return False
    # none standing in a city: one set lookup of the seat's passengers (a False for passengers of another number,
    # an edited state's, only costs the pickers' look: they find nothing and draw nothing)
    return _passengers_in(state.players[seat].ext) in _NONE_STANDING


#: every passengers tuple of a player with none standing in a city (each in reserve or done), for ``_bot_idle``
_NONE_STANDING = frozenset(product((RESERVE, DONE), repeat=PASSENGERS))


MAERKLIN_SETTINGS = Settings(
    trains=45,                                                           # MK-COMP-2
    route_points={1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18},          # MK-CLAIM-4
    setup_deals=(),                                                      # MK-SETUP-3: TicketMix deals
    setup_min_keep=2,
    ticket_deck="",                                                      # MK-TICKET-1: TicketMix draws
    ticket_draw=TICKET_DRAW,
    market_reset_kinds=(LOCO, PASSENGER),                                # MK-DRAW-4
    faceup_without_deck=True,                                            # MK-DRAW-1
    wilds=((LOCO, 1, "MK-CLAIM-2"), (LOCO4, 4, "MK-CLAIM-2")),           # MK-CLAIM-2
    longest_bonus=0,                                                     # MK-SCORE-3
    twin_min_players=4,                                                  # MK-CLAIM-3
    tie_breaks=("tickets", "goods"),                                     # MK-SCORE-4
)

# USA interpretations that do not hold here: (base rule id, why).
MAERKLIN_SETTLED: tuple[tuple[str, str], ...] = (
    ("USA-SCORE-3", "There is no longest-path bonus in Märklin (MK-SCORE-3)."),
    ("USA-SCORE-4", "Märklin's own tie-breaks decide instead: most completed tickets, then the goods tokens "
                    "(MK-SCORE-4)."),
)

MAERKLIN_INTERPRETATIONS: tuple[tuple[str, str], ...] = (
    # the Dutch book's own reading of the base rule USA-DRAW-8 (cited MK-DRAW-1/USA-DRAW-8): it replaces the USA one
    ("USA-DRAW-8", "With the deck and the discard pile both empty the face-up cards may still be taken (the book: 'Hij "
                  "mag eender welke open kaart van de tafel nemen'; only when no train card is left outside the hands "
                  "can nobody draw). A face-up card taken then is not replaced; when no second card can be taken (none "
                  "left, or only a face-up locomotive) the turn ends with one card."),
    ("MK-DRAW-2", "A face-up +4 locomotive may be taken as the second card too (the book only speaks of the first)."),
    ("MK-DRAW-4", "+4 locomotives do not count as locomotives for the 3-face-up reset; 3 passenger cards reset it."),
    ("MK-CLAIM-1", "Passenger cards cannot pay for routes."),
    ("MK-CLAIM-5", "A passenger is placed in a German city only, never in a country."),
    ("MK-PASS-1", "A move is played step by step: 'ride A–B' starts it (the turn's action), more 'ride' steps follow, "
                  "'stop' ends it. Passengers never enter a country."),
    ("MK-PASS-2", "The book speaks of the player's own routes and, with passenger cards, of other players' routes: a "
                  "passenger never travels along a free route. Between two cities with several claimed routes the "
                  "passenger takes its owner's own unused route first (free), else the lowest-numbered unused route "
                  "of another player (one passenger card)."),
    ("MK-PASS-4", "The city where the passenger stops counts as passed through; one token per city per move; the "
                  "start city gives nothing, even when the passenger comes back to it."),
    ("MK-PASS-6", "A round is one turn of every player, starting with the first player (the book does not define "
                  "it). A passenger that has travelled stands in its last city until the end of that round (the "
                  "book: 'Op het einde van de ronde waarin de passagier verplaatst werd, wordt hij uit het spel "
                  "verwijderd'), then leaves the game; until then nobody may place a passenger there and it cannot "
                  "move again. It may end its journey in a city where another passenger stands. The end of the game "
                  "ends the round under way."),
    ("MK-SETUP-3", "All 4 tickets may come from one deck; the mix is announced as the action 'announce N short M "
                   "long'. The book gives no order: all players announce, then choose, at the same time, each seeing "
                   "only their own tickets."),
    ("MK-COMP-1", "The book does not mention the neighbouring countries on the board: a ticket may end in a country "
                  "(reached by any of its routes), but no ticket path and no passenger passes through one."),
    ("MK-SCORE-2", "Tied players for most completed tickets each get the 10 points."),
    ("MK-SCORE-4", "Tie-break 'who has the goods tokens' = most goods tokens by count; still tied: shared victory."),
    ("MK-COMP-4", "PROVISIONAL stand-in tickets: 23 short + 23 long Germany 2017 tickets chosen by a stated rule."),
    ("MK-COMP-5", "PROVISIONAL goods colours: only Berlin (black) is known; the rest follow goods_provisional.csv."),
    *[(k, t) for k, t in USA_INTERPRETATIONS if k in ("USA-DRAW-6", "USA-TURN-1")],
)

MAERKLIN = register(Variant(
    key="maerklin",
    name="Ticket to Ride Märklin",
    map_key="maerklin",
    rule_prefix="MK",
    settings=MAERKLIN_SETTINGS,
    features=(TicketMix(), Passengers(), MaerklinScoring()),
    aliases=("märklin", "marklin", "ticket to ride märklin"),
    rule_map={
        "USA-COMP-2": "MK-COMP-2", "USA-COMP-3": "MK-COMP-3", "USA-COMP-4": "MK-COMP-4", "USA-COMP-5": "MK-COMP-2",
        "USA-SETUP-2": "MK-SETUP-2", "USA-SETUP-3": "MK-SETUP-3", "USA-SETUP-4": "MK-SETUP-4",
        "USA-TURN": "MK-TURN-1", "USA-DRAW": "MK-DRAW-1", "USA-DRAW-6": "MK-DRAW-4", "USA-CLAIM": "MK-CLAIM-1",
        "USA-CLAIM-3": "MK-CLAIM-2", "USA-CLAIM-7": "MK-CLAIM-3", "USA-CLAIM-8": "MK-CLAIM-3", "USA-CLAIM-9": "MK-CLAIM-4",
        "USA-TICKET": "MK-TICKET-1", "USA-END": "MK-END-1", "USA-SCORE-1": "MK-SCORE-1", "USA-SCORE-2": "MK-SCORE-1",
        "USA-SCORE-4": "MK-SCORE-4",
    },
    description="Märklin (Germany): passengers collect goods, +4 locomotives, passenger cards, short and long tickets.",
    card_kinds=PASSENGER + 1,
    interpretations=MAERKLIN_INTERPRETATIONS,
    settled=MAERKLIN_SETTLED,
    bot_idle=_bot_idle,
))


__all__ = ["MAERKLIN", "MAERKLIN_SETTINGS", "TicketMix", "Passengers", "MaerklinScoring", "Announce", "PlacePassenger",
           "Ride", "Stop", "PassengerMove", "best_passenger_move", "build_map_document", "standin_tickets",
           "connected_avoiding_countries", "mixes", "passengers_of", "goods_of", "goods_stacks", "occupied"]
