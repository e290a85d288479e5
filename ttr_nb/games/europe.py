"""Ticket to Ride Europe (docs/rules/europe.md): settings + three features on the shared engine.

Nothing here forks the engine. Europe is the USA game with other numbers (``Settings``: the route table with
lengths 6 and 8, one long + three regular tickets at setup whose returns leave the game, the tie-break chain)
and three mechanics plugged in through ``Feature`` hooks:

* :class:`Ferries` (EU-FERRY-1/2): one locomotive per locomotive symbol, in legal payments and in refusals.
* :class:`Tunnels` (EU-TUNNEL-1..7): the played cards are committed, three cards are turned up, and a pending
  ``tunnel`` step asks for the extra cards (``tunnel pay red1``) or a withdrawal (``tunnel withdraw``).
* :class:`Stations` (EU-STATION-1..6): ``station Wien red2`` builds one; at the end each station borrows at most
  one route of another player into its city, the same for every ticket, chosen to maximise its owner's score.

Also here: :func:`tunnel_odds`, the chances of 0–3 extra tunnel cards as one seat can see them.

Interpretations (the rule book is silent; marked where a user sees them):

* A tunnel paid with colour + locomotives matches the colour of its coloured cards; a gray tunnel takes the colour
  of the payment (F-EU-7 a/b). While the three cards are turned up, the played and already-revealed cards are off
  the table, so a reshuffle in the middle of the reveal does not include them (F-EU-7 c).
* The borrowed routes are chosen to maximise the station owner's score (EU-STATION-5); among equal choices, fewer
  borrowed routes, then the lowest route ids.
* EU-SCORE-3 "fewest stations used" counts stations *built* (the book's "nota" = put on the board; F-EU-9).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import ClassVar, Sequence

from ..board.actions import Action, Claim, Payment, parse_payment, payment_str, payment_words, register_action
from ..board.cards import CARD_NAMES, LOCO
from ..errors import BadAction, IllegalAction, MapError, TTRError
from ..board.names import route_text, ticket_text
from ..board.names import seat_name as _seat_name
from ..board.scoring import _LAST_PIECES, _indices_by_seat, _pieces, _with, owned_edges, ticket_results
from ..board.state import (FREE, GameState, Pending, new_pending, new_player, new_state, open_subclass, pairs_get,
                           pairs_set)
from .usa import USA_INTERPRETATIONS
from ..variants import Feature, Settings, Variant, get_variant, register
from ..board.engine import _PLAYING, _full, _is_full, _plainly_legal, _turn_over

MAX_STATIONS = 3            # EU-COMP-2 / EU-STATION-2
STATION_BONUS = 4           # EU-STATION-6: points per station not built
TUNNEL_REVEAL = 3           # EU-TUNNEL-2


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _cards(n: int, kind: int | None) -> str:
    if kind is None:
        return f"{n} card{'s' if n != 1 else ''}"
    name = "locomotive" if kind == LOCO else f"{CARD_NAMES[kind]} card"
    return f"{n} {name}{'s' if n != 1 else ''}"


# ---------------------------------------------------------------------------------------------
# actions: ``station CITY PAYMENT``, ``tunnel pay PAYMENT``, ``tunnel withdraw``

@dataclass(frozen=True, slots=True)
class BuildStation(Action):
    """Build a train station in ``city`` paying ``payment`` (EU-STATION-1..3). Text: ``station Wien red2``."""

    city: str = ""
    payment: Payment = ()
    seat: int | None = None
    verb: ClassVar[str] = "station"

    def body(self) -> str:
        return f"station {self.city} {payment_str(self.payment)}"

    def describe(self, v: Variant, state: GameState) -> str:
        return f"builds a station in {self.city} with {payment_words(self.payment)}"


@dataclass(frozen=True, slots=True)
class TunnelPay(Action):
    """Pay the extra cards a tunnel's turned-up cards call for (EU-TUNNEL-2/3). Text: ``tunnel pay red1``."""

    payment: Payment = ()
    seat: int | None = None
    verb: ClassVar[str] = "tunnel"

    def body(self) -> str:
        return f"tunnel pay {payment_str(self.payment)}"

    def describe(self, v: Variant, state: GameState) -> str:
        return f"pays {payment_words(self.payment)} more and completes the tunnel{_tunnel_words(v, state, self.seat)}"


@dataclass(frozen=True, slots=True)
class TunnelWithdraw(Action):
    """Do not pay: take the played cards back, the route stays free, the turn ends (EU-TUNNEL-4)."""

    seat: int | None = None
    verb: ClassVar[str] = "tunnel"

    def body(self) -> str:
        return "tunnel withdraw"

    def describe(self, v: Variant, state: GameState) -> str:
        return f"withdraws from the tunnel{_tunnel_words(v, state, self.seat)} and takes the played cards back"


_OpenBuildStation = open_subclass(BuildStation)
_OpenTunnelPay = open_subclass(TunnelPay)


def _new_station(city: str, payment: Payment, seat: int) -> BuildStation:
    """``BuildStation(city=city, payment=payment, seat=seat)``, quickly (as ``actions.new_claim``): the random bot
    makes one on most of its turns."""
    a = _OpenBuildStation()
    a.city = city
    a.payment = payment
    a.seat = seat
    a.__class__ = BuildStation
    return a


def _new_tunnel_pay(payment: Payment, seat: int) -> TunnelPay:
    """``TunnelPay(payment=payment, seat=seat)``, quickly (as ``_new_station``)."""
    a = _OpenTunnelPay()
    a.payment = payment
    a.seat = seat
    a.__class__ = TunnelPay
    return a


def _tunnel_words(v: Variant, state: GameState, seat: int | None) -> str:
    """' Wien–Zagrab' — the tunnel a seat's pending step is about ('' if there is none)."""
    pending = _tunnel_pending(state, state.current if seat is None else seat)
    try:
        return f" {route_text(v.map, pending.get('route'))}" if pending is not None else ""
    except TTRError:
        return ""


def _parse_station(words: list[str], text: str) -> Action:
    if len(words) < 2:
        raise BadAction(f"{text!r}: write 'station CITY PAYMENT', e.g. 'station Wien red2' (the payment is the last word)")
    city = " ".join(words[:-1])
    if len(city) > 60 or not all(ch.isalpha() or ch in " .'-" for ch in city):
        raise BadAction(f"{text!r}: {city!r} is not a city name")
    return BuildStation(city=city, payment=parse_payment(words[-1], repr(text)))


def _parse_tunnel(words: list[str], text: str) -> Action:
    if words == ["withdraw"]:
        return TunnelWithdraw()
    if len(words) == 2 and words[0] == "pay":
        return TunnelPay(payment=parse_payment(words[1], repr(text)))
    raise BadAction(f"{text!r}: write 'tunnel pay PAYMENT' (e.g. 'tunnel pay red1') or 'tunnel withdraw'")


register_action("station", _parse_station)
register_action("tunnel", _parse_tunnel)


def _shape_problem(action, v: Variant) -> None:
    """Action objects built in code must be as strict as parsed text: (kind, count) pairs, whole positive counts,
    each kind once, kinds of this variant; a station's city is text."""
    pay = getattr(action, "payment", ())
    ok = isinstance(pay, tuple) and all(
        isinstance(t, tuple) and len(t) == 2 and all(type(x) is int for x in t) and t[1] > 0
        and 0 <= t[0] < v.card_kinds for t in pay) and len({t[0] for t in pay}) == len(pay)
    if not ok:
        raise BadAction(f"{action!r}: a payment is a tuple of (card kind, count) pairs with whole positive counts, "
                        "each kind once (e.g. ((7, 2), (8, 1)) = red2+loco1)")
    if isinstance(action, BuildStation) and not isinstance(action.city, str):
        raise BadAction(f"{action!r}: the city must be a name (text)")


def _payment_of(payment) -> Payment:
    if isinstance(payment, str):
        return parse_payment(payment.strip(), repr(payment))
    return tuple(sorted((int(k), int(n)) for k, n in payment if n))


def _merge(*payments: Payment) -> Payment:
    counts: dict[int, int] = {}
    for pay in payments:
        for k, n in pay:
            counts[k] = counts.get(k, 0) + n
    return tuple(sorted((k, n) for k, n in counts.items() if n))


def _station_payment(hand: Sequence[int], built: Sequence[str], pay) -> bool:
    """``pay`` is one of the payments ``Stations._payments`` lists for the next station after ``built`` (the
    ``_one_colour_payments`` of its size; none after the third), found without making the list. Counts and kinds
    must be plain ints (the listed ones are)."""
    size = len(built) + 1
    if size > MAX_STATIONS or pay.__class__ is not tuple or not 1 <= len(pay) <= 2:
        return False
    first = pay[0]
    if first.__class__ is not tuple or len(first) != 2:
        return False
    c, k = first
    if c.__class__ is not int or k.__class__ is not int:
        return False
    if len(pay) == 1:                                  # one colour only, or locomotives only
        return k == size and 0 <= c <= LOCO and hand[c] >= size
    rest = size - k                                    # a colour and the locomotives standing in
    return 0 <= c < LOCO and 1 <= k <= hand[c] and rest > 0 and pay[1] == (LOCO, rest) and hand[LOCO] >= rest


def _one_colour_payments(hand: Sequence[int], size: int) -> list[Payment]:
    """Every set of ``size`` cards of one colour (locomotives standing in) from ``hand``: by colour, fewest
    locomotives first; all-locomotive last (the order of ``engine.route_payments``)."""
    locos = hand[LOCO]
    low = max(1, size - locos)
    out: list[Payment] = []
    for c in range(LOCO):
        for k in range(min(hand[c], size), low - 1, -1):
            out.append(((c, k), (LOCO, size - k)) if k < size else ((c, k),))
    if locos >= size:
        out.append(((LOCO, size),))
    return out


# ---------------------------------------------------------------------------------------------
# ferries

class Ferries(Feature):
    """EU-FERRY-1/2: a ferry needs one locomotive per locomotive symbol; the other spaces take any one colour."""

    name = "ferries"

    def min_locos(self, route) -> int:
        return route.ferry_locos

    def claim_payment_problem(self, variant, route, payment):
        need = route.ferry_locos
        if not need:
            return None
        have = dict(payment).get(LOCO, 0)
        if have >= need:
            return None
        rest = route.length - need
        return (f"{route.a}–{route.b} is a ferry with {need} locomotive symbol{'s' if need != 1 else ''}: it takes "
                f"{_cards(need, LOCO)} plus {rest} card{'s' if rest != 1 else ''} of any one colour (or more "
                f"locomotives); the payment has {_cards(have, LOCO)}", "EU-FERRY-2")


# ---------------------------------------------------------------------------------------------
# tunnels

def tunnel_colour(payment: Payment) -> int | None:
    """The colour the turned-up cards must match: the payment's coloured cards, or None for all locomotives
    (EU-TUNNEL-3). A gray tunnel takes the colour of the payment (interpretation, F-EU-7 b)."""
    for k, _ in payment:                            # (a plain loop: a comprehension is a call of its own)
        if k != LOCO:
            return k
    return None


def tunnel_extra(payment: Payment, revealed: Sequence[int]) -> int:
    """Extra cards needed: turned-up cards of the played colour, and locomotives (EU-TUNNEL-2); with an
    all-locomotive payment only locomotives count (EU-TUNNEL-3)."""
    colour = tunnel_colour(payment)
    return sum(1 for c in revealed if c == LOCO or c == colour)


def tunnel_extra_payments(hand: Sequence[int], played: Payment, extra: int) -> list[Payment]:
    """Every exact payment of the ``extra`` cards from ``hand``: played colour + locomotives (most colour first),
    or locomotives only after an all-locomotive payment (EU-TUNNEL-3)."""
    colour = tunnel_colour(played)
    locos = hand[LOCO]
    if colour is None:
        return [((LOCO, extra),)] if locos >= extra else []
    out: list[Payment] = []
    have = hand[colour]                             # (conditionals, not the builtins min and max: the random bot's
    most = have if have < extra else extra          # pick at every pending tunnel asks, and their calls cost more)
    least = extra - locos if extra > locos else 0
    for k in range(most, least - 1, -1):
        if k == extra:
            out.append(((colour, k),))
        elif k == 0:
            out.append(((LOCO, extra),))
        else:
            out.append(((colour, k), (LOCO, extra - k)))
    return out


#: per tunnel colour (LOCO: an all-locomotive payment), per card kind: 1 if a turned-up card of that kind calls for an
#: extra card (EU-TUNNEL-2/3: the colour or a locomotive; only a locomotive after locomotives), else 0
_MATCHING = tuple(tuple(int(c == LOCO or c == colour) for c in range(LOCO + 1)) for colour in range(LOCO + 1))

_last_tunnel: list = [(None, None)]   # (the last pending tunnel read by _tunnel_data, what it read), one tuple


def _tunnel_data(pending: Pending) -> tuple[str, Payment, tuple[int, ...], int]:
    """(route id, played payment, revealed card kinds, extra) of a pending tunnel; raises TTRError if garbled.
    The random bot's pick and the quick path read the same Pending one after the other: the last one read is
    remembered (a Pending and its data are immutable, and the list holds it alive, so the identity answers exactly;
    the pair is stored as one tuple, so a reader never sees one tunnel with another's data)."""
    last = _last_tunnel[0]
    if pending is last[0]:
        return last[1]
    d = pending.data
    if len(d) == 6 and d[0][0] == "extra" and d[1][0] == "played" and d[2][0] == "revealed" and d[3][0] == "route":
        extra, played, revealed, rid = d[0][1], d[1][1], d[2][1], d[3][1]   # (_tunnel_step's pairs, read in place)
    else:
        rid, played = pending.get("route"), pending.get("played")
        revealed, extra = pending.get("revealed"), pending.get("extra")
    if not isinstance(rid, str) or not isinstance(played, str) or not isinstance(revealed, tuple) \
            or isinstance(extra, bool) or not isinstance(extra, int):
        raise TTRError("the pending tunnel step lacks route, played, revealed or extra")
    data = rid, _played_payment(played), _revealed_kinds(revealed), extra
    _last_tunnel[0] = pending, data
    return data


@lru_cache(maxsize=1024)
def _revealed_kinds(revealed: tuple) -> tuple[int, ...]:
    """A pending tunnel's turned-up card names as card kinds, read once per tuple of names; raises TTRError if one is
    not a card."""
    kinds = []
    for name in revealed:
        if name not in CARD_NAMES:
            raise TTRError(f"the pending tunnel step names an unknown card {name!r}")
        kinds.append(CARD_NAMES.index(name))
    return tuple(kinds)


@lru_cache(maxsize=1024)
def _played_payment(text: str) -> Payment:
    """A pending tunnel's played cards, read from their text once (a payment is an immutable tuple)."""
    return parse_payment(text, "pending tunnel")


def _wanted(colour: int | None, extra: int) -> str:
    """The extra cards a tunnel calls for, in words ("2 red cards or locomotives" without the number)."""
    if colour is None:
        return "locomotive" if extra == 1 else "locomotives"
    return f"{CARD_NAMES[colour]} card or a locomotive" if extra == 1 else f"{CARD_NAMES[colour]} cards or locomotives"


def _tunnel_step(route, seat: int, payment: Payment, revealed: Sequence[int], extra: int) -> Pending:
    """The pending tunnel after the turned-up ``revealed`` cards call for ``extra`` more (EU-TUNNEL-2/3/6)."""
    colour, played, words = _played_words(payment)
    names = tuple([CARD_NAMES[c] for c in revealed])
    text = (f"the tunnel {route.a}–{route.b} turned up {', '.join(names)}: pay {extra} more {_wanted(colour, extra)} "
            f"('tunnel pay …') or withdraw and take back {words} ('tunnel withdraw')")
    data = (("extra", extra), ("played", played), ("revealed", names), ("route", route.id),
            ("rule", "EU-TUNNEL-3" if colour is None else "EU-TUNNEL-2"), ("text", text))
    pending = new_pending("tunnel", seat, data)
    # what _tunnel_data reads of it, remembered at once: the random bot's pick reads this very step next (the names
    # read back to card kinds are the kinds they were made from, the text read back once per payment; a text that
    # does not read back, never a legal payment's, is left to _tunnel_data to refuse)
    try:
        _last_tunnel[0] = pending, (route.id, _played_payment(played), tuple(revealed), extra)
    except TTRError:
        pass
    return pending


@lru_cache(maxsize=1024)
def _played_words(payment: Payment) -> tuple[int | None, str, str]:
    """(``tunnel_colour``, ``payment_str``, ``payment_words``) of a tunnel's played cards, made once per payment."""
    return tunnel_colour(payment), payment_str(payment), payment_words(payment)


def _tunnel_done(v: Variant, state: GameState, seat: int, route, payment: Payment, hand: list[int],
                 revealed: Sequence[int], deck) -> GameState | None:
    """The state after a tunnel is claimed with ``payment`` (``route`` None: given up), ``hand`` already what is left,
    the turned-up cards to the discard pile (EU-TUNNEL-5) and the turn over; None when the turn ends the game's
    round or the game (the general path words it)."""
    players = list(state.players)
    p = players[seat]
    discard = list(state.discard)
    for c in revealed:
        discard[c] += 1
    claims = state.claims
    if route is None:
        players[seat] = new_player(tuple(hand), p.trains, p.tickets, p.route_points, p.ext)
        return _turn_over(v, state, seat, deck, state.market, tuple(discard), claims, tuple(players))
    for k, n in payment:
        discard[k] += n
    t = v.route_table
    i = route.index
    players[seat] = new_player(tuple(hand), p.trains - route.length, p.tickets, p.route_points + t.points[i], p.ext)
    new_claims = claims[:i] + (seat,) + claims[i + 1:]
    new = _turn_over(v, state, seat, deck, state.market, tuple(discard), new_claims, tuple(players))
    if new is not None:
        t.claimed(claims, new_claims, i, seat)
    return new


@lru_cache(maxsize=None)
def _withdraw(seat: int) -> TunnelWithdraw:
    """The one shared (immutable) TunnelWithdraw of a seat, as the random bot hands it out."""
    return TunnelWithdraw(seat=seat)


def _tunnel_pending(state: GameState, seat: int) -> Pending | None:
    p = state.pending_for(seat) if state.pending else None
    return p if p is not None and p.kind == "tunnel" else None


class Tunnels(Feature):
    """EU-TUNNEL-1..7 as a pending step: claim → cards committed, 3 turned up → pay the extra or withdraw."""

    name = "tunnels"
    pending_kinds = ("tunnel",)
    step_words = {"tunnel": "pay a tunnel's extra cards or give it up (after the 3 cards turned up)"}

    def handles(self, action) -> bool:
        return isinstance(action, TunnelPay | TunnelWithdraw)

    # -- the claim -----------------------------------------------------------------------------
    def takes_claim(self, v, state, seat, route) -> bool:
        return route.tunnel

    def on_claim(self, v, tx, seat, route, payment) -> bool:
        if not route.tunnel:
            return False
        who = _seat_name(seat)
        where = f"{route.a}–{route.b}"
        revealed: list[int] = []
        for _ in range(TUNNEL_REVEAL):                  # EU-TUNNEL-2, with reshuffle and short deck (EU-TUNNEL-6)
            card = tx.draw_card()
            if card is None:
                break
            revealed.append(card)
        if not revealed:
            if tx.events is not None:                  # (the words only when someone reads them: step, Game)
                tx.event("tunnel", "EU-TUNNEL-6", f"{who} plays {payment_words(payment)} for the tunnel {where}: there "
                                                  "are no cards to turn up, so there is no risk of extra cards")
            tx.claim_route(seat, route, payment)
            if any(c is None for c in tx.market):
                tx.refill_market()
            tx.end_turn()
            return True
        extra = tunnel_extra(payment, revealed)
        colour = tunnel_colour(payment)
        names = ", ".join(CARD_NAMES[c] for c in revealed)
        rule = "EU-TUNNEL-3" if colour is None else "EU-TUNNEL-2"
        short = "" if len(revealed) == TUNNEL_REVEAL else f" (only {len(revealed)} card{'s' if len(revealed) != 1 else ''} left to turn up, EU-TUNNEL-6)"
        if extra == 0:
            if tx.events is not None:
                tx.event("tunnel", rule, f"{who} plays {payment_words(payment)} for the tunnel {where} and turns up "
                                         f"{names}{short}: nothing matches, no extra cards")
            tx.claim_route(seat, route, payment)
            self._discard_revealed(tx, revealed)
            tx.end_turn()
            return True
        if tx.events is not None:
            tx.event("tunnel", rule, f"{who} plays {payment_words(payment)} for the tunnel {where} and turns up "
                                     f"{names}{short}: {extra} more {_wanted(colour, extra)} needed")
        tx.change_hand(seat, payment, -1)              # committed: on the table until the tunnel is resolved
        tx.pending.append(_tunnel_step(route, seat, payment, tuple(revealed), extra))
        return True

    def quick(self, v, state, action, trusted):
        """A tunnel claim (a ``Claim`` the engine's quick path hands over) with three cards to turn up, and the
        answers to a tunnel's extra cards: the state ``apply`` makes, without a transaction (EU-TUNNEL-1..5).
        None for anything out of the ordinary (a short deck, a refusal): the general path."""
        cls = action.__class__
        seat = action.seat
        if cls is Claim:
            if not trusted and _plainly_legal(v, state, action) is None:
                return None
            deck = state.deck
            if len(deck) < TUNNEL_REVEAL:
                return None                            # EU-TUNNEL-6, a reshuffle to turn them up: the general path
            route = v.route_table.by_label[action.route]
            pay = action.payment
            revealed = deck[:TUNNEL_REVEAL]
            colour = LOCO                              # tunnel_extra inline (its list and generator cost more):
            for k, _ in pay:                           # tunnel_colour, LOCO for an all-locomotive payment
                if k != LOCO:
                    colour = k
                    break
            match = _MATCHING[colour]                  # the three turned-up cards counted by the colour's row
            extra = match[revealed[0]] + match[revealed[1]] + match[revealed[2]]
            players = list(state.players)
            p = players[seat]
            hand = list(p.hand)
            for k, n in pay:
                hand[k] -= n                           # paid, or committed until the tunnel is resolved
            if extra:
                players[seat] = new_player(tuple(hand), p.trains, p.tickets, p.route_points, p.ext)
                return new_state(state.variant, state.n_players, state.seed, deck[TUNNEL_REVEAL:], state.market,
                                 state.discard, state.ticket_decks, state.tickets_out, state.claims, tuple(players),
                                 state.phase, seat, (_tunnel_step(route, seat, pay, revealed, extra),),
                                 state.final_turns_left, state.turn, state.ply + 1, 0, state.shuffles,
                                 state.first_player, state.ext)
            return _tunnel_done(v, state, seat, route, pay, hand, revealed, deck[TUNNEL_REVEAL:])
        pending = state.pending
        if (len(pending) != 1 or seat.__class__ is not int or pending[0].seat != seat or pending[0].kind != "tunnel"
                or state.phase not in _PLAYING or state.market is not _full[0] and not _is_full(state.market)
                or state.passes):
            return None
        try:
            rid, played, revealed, extra = _tunnel_data(pending[0])
        except TTRError:
            return None
        hand = list(state.players[seat].hand)
        if cls is TunnelWithdraw:                      # EU-TUNNEL-4: always allowed
            for k, n in played:
                hand[k] += n                           # back from the table
            return _tunnel_done(v, state, seat, None, (), hand, revealed, state.deck)
        pay = action.payment
        if not trusted and pay not in tunnel_extra_payments(hand, played, extra):
            return None
        for k, n in pay:
            hand[k] -= n                               # (the played cards stay paid)
        return _tunnel_done(v, state, seat, v.map.route(rid), _merge(played, pay), hand, revealed, state.deck)

    @staticmethod
    def _discard_revealed(tx, revealed: Sequence[int]) -> None:
        for c in revealed:                             # EU-TUNNEL-5
            tx.discard[c] += 1
        if tx.events is not None:
            tx.event("tunnel_discard", "EU-TUNNEL-5",
                     f"The {len(revealed)} turned-up card{'s' if len(revealed) != 1 else ''} go to the discard pile")
        if any(c is None for c in tx.market):
            tx.refill_market()                         # USA-DRAW-2: an empty face-up slot is filled once cards exist

    # -- the pending step ----------------------------------------------------------------------
    def random_pending(self, v, state, pending, r):
        """The random bot's pick: ``pending_actions(v, state, pending)[r.index(len(...))]`` without the list of
        actions: the extra payments counted (EU-TUNNEL-2/3), only the answer picked made; the last one withdraws
        (EU-TUNNEL-4)."""
        rid, played, revealed, extra = _tunnel_data(pending)
        pays = tunnel_extra_payments(state.players[pending.seat].hand, played, extra)
        k = r.index(len(pays) + 1)
        return _new_tunnel_pay(pays[k], pending.seat) if k < len(pays) else _withdraw(pending.seat)

    def pending_actions(self, v, state, pending) -> list:
        rid, played, revealed, extra = _tunnel_data(pending)
        hand = state.players[pending.seat].hand
        return [TunnelPay(payment=pay, seat=pending.seat) for pay in tunnel_extra_payments(hand, played, extra)] \
            + [TunnelWithdraw(seat=pending.seat)]

    def check(self, v, state, action, seat) -> None:
        p = _tunnel_pending(state, seat)
        if p is None:
            raise IllegalAction(f"{_seat_name(seat)} has no tunnel waiting: '{action.body()}' answers a tunnel claim "
                                "whose turned-up cards call for extra cards", v.rule("EU-TUNNEL-2"), action, seat)
        if isinstance(action, TunnelWithdraw):
            return                                     # EU-TUNNEL-4: always allowed ("or will not pay")
        _shape_problem(action, v)
        rid, played, revealed, extra = _tunnel_data(p)
        pay = action.payment
        size = sum(n for _, n in pay)
        if size != extra:
            raise IllegalAction(f"the turned-up cards call for exactly {_cards(extra, None)} more; the payment has {size}",
                                v.rule("EU-TUNNEL-2"), action, seat)
        colour = tunnel_colour(played)
        wrong = [k for k, _ in pay if k != LOCO and k != colour]
        if wrong and colour is None:
            raise IllegalAction("the tunnel was played with locomotives only, so the extra cards must be locomotives "
                                f"too, not {CARD_NAMES[wrong[0]]}", v.rule("EU-TUNNEL-3"), action, seat)
        if wrong:
            raise IllegalAction(f"the tunnel was played with {CARD_NAMES[colour]}: the extra cards must be "
                                f"{CARD_NAMES[colour]} or locomotives, not {CARD_NAMES[wrong[0]]}",
                                v.rule("EU-TUNNEL-2"), action, seat)
        hand = state.players[seat].hand
        for k, n in pay:
            if hand[k] < n:
                raise IllegalAction(f"the payment needs {_cards(n, k)} but the hand holds {hand[k]}; a player who cannot "
                                    "pay withdraws ('tunnel withdraw') and takes the played cards back",
                                    v.rule("EU-TUNNEL-4"), action, seat)

    def apply(self, v, tx, action, seat) -> None:
        p = next(q for q in tx.pending if q.seat == seat and q.kind == "tunnel")
        rid, played, revealed, extra = _tunnel_data(p)
        route = v.map.route(rid)
        who = _seat_name(seat)
        tx.pending = [q for q in tx.pending if q is not p]
        tx.change_hand(seat, played, +1)               # back from the table
        if isinstance(action, TunnelPay):
            if tx.events is not None:
                tx.event("tunnel_paid", p.get("rule") or "EU-TUNNEL-2",
                         f"{who} pays {payment_words(action.payment)} more for the tunnel {route.a}–{route.b}")
            tx.claim_route(seat, route, _merge(played, action.payment))
        elif tx.events is not None:
            tx.event("tunnel_withdrawn", "EU-TUNNEL-4",
                     f"{who} withdraws from the tunnel {route.a}–{route.b}: the played cards go back to the hand, "
                     "the route stays free and the turn is over")
        self._discard_revealed(tx, revealed)
        tx.end_turn()

    # -- bookkeeping ---------------------------------------------------------------------------
    def held_cards(self, state) -> list[int]:
        out: list[int] = []
        for p in state.pending:
            if p.kind == "tunnel":
                try:
                    rid, played, revealed, extra = _tunnel_data(p)
                except TTRError:
                    continue                           # reported by validate
                out += [k for k, n in played for _ in range(n)] + list(revealed)
        return out

    def validate(self, v, state, problems) -> None:
        for p in state.pending:
            if p.kind != "tunnel":
                continue
            who = _seat_name(p.seat) if 0 <= p.seat < state.n_players else f"seat {p.seat}"
            try:
                rid, played, revealed, extra = _tunnel_data(p)
                route = v.map.route(rid)
            except TTRError as e:
                problems.append(f"{who}'s pending tunnel is unreadable: {e}")
                continue
            if state.phase not in ("play", "last_round"):
                problems.append(f"{who} has a pending tunnel outside play")
            if not route.tunnel:
                problems.append(f"{who}'s pending tunnel names {route_text(v.map, route)}, which is not a tunnel")
            rid = route_text(v.map, route)
            if state.claims[route.index] != FREE:
                problems.append(f"{who}'s pending tunnel {rid} is already claimed")
            from ..board.engine import payment_problem
            problem = payment_problem(v, route, played, [dict(played).get(k, 0) for k in range(v.card_kinds)])
            if problem:
                problems.append(f"{who}'s pending tunnel {rid}: the played cards are not a legal payment: {problem[0]}")
            if not 1 <= len(revealed) <= TUNNEL_REVEAL:
                problems.append(f"{who}'s pending tunnel {rid} has {len(revealed)} turned-up cards (1–3 expected; "
                                f"with none it is claimed at once, {v.rule('EU-TUNNEL-6')})")
            if extra != tunnel_extra(played, revealed) or extra <= 0:
                problems.append(f"{who}'s pending tunnel {rid} asks for {extra} extra cards but the turned-up cards "
                                f"call for {tunnel_extra(played, revealed)} ({v.rule('EU-TUNNEL-2')})")
            if 0 <= p.seat < state.n_players and state.players[p.seat].trains < route.length:
                problems.append(f"{who} has too few trains for the pending tunnel {rid}")

    def board_marks(self, v, state, marks) -> None:
        marks["stations"].update(station_owners(state))

    def observe(self, v, state, seat, view) -> None:
        view["tunnel"] = None
        for p in state.pending:
            if p.kind == "tunnel":
                try:
                    rid, played, revealed, extra = _tunnel_data(p)
                except TTRError:
                    continue
                # public: the played cards lie on the table and the three cards are turned face up (N-EU-2)
                view["tunnel"] = {"seat": p.seat, "route": rid, "played": payment_str(played),
                                  "revealed": [CARD_NAMES[c] for c in revealed], "extra": extra}

    # -- the greedy bot ------------------------------------------------------------------------
    bot_min_can_pay = 0.75

    def bot_claim_ok(self, v, state, seat, route, payment) -> bool:
        """Try a tunnel only when the extra cards will most likely be in hand (in the final round: always)."""
        if not route.tunnel or state.phase == "last_round":
            return True
        return tunnel_odds(state, seat, route.id, payment).can_pay >= self.bot_min_can_pay

    def bot_pending(self, v, state, pending):
        rid, played, revealed, extra = _tunnel_data(pending)
        route = v.map.route(rid)
        acts = self.pending_actions(v, state, pending)
        pays = [a for a in acts if isinstance(a, TunnelPay)]
        if pays:
            best = min(pays, key=lambda a: (dict(a.payment).get(LOCO, 0), a.payment))
            from ..bots import Reason
            return best, Reason(f"pays {payment_words(best.payment)} more to finish the tunnel {route.a}–{route.b} "
                                f"({v.rule('EU-TUNNEL-2')})")
        from ..bots import Reason
        return acts[-1], Reason(f"cannot pay the {extra} extra card{'s' if extra != 1 else ''} for {route.a}–{route.b}: "
                                f"withdraws and takes the cards back ({v.rule('EU-TUNNEL-4')})",
                                f"withdraws from the tunnel {route.a}–{route.b} and takes the cards back "
                                f"({v.rule('EU-TUNNEL-4')})")


# ---------------------------------------------------------------------------------------------
# stations

def stations_of(state: GameState, seat: int) -> tuple[str, ...]:
    """The cities where ``seat`` built stations, in the order built."""
    return tuple(state.players[seat].get("stations", ()))


def _city_names(v: Variant) -> frozenset[str]:
    """The map's city names as the map spells them (made once per variant)."""
    names = v.__dict__.get("_city_names")
    if names is None:
        names = v.__dict__["_city_names"] = frozenset(c.name for c in v.map.cities)
    return names


def _city_order(v: Variant) -> dict[str, int]:
    """The map's city names -> their places in the map's order (made once per variant)."""
    order = v.__dict__.get("_city_order")
    if order is None:
        order = v.__dict__["_city_order"] = {c.name: i for i, c in enumerate(v.map.cities)}
    return order


def _station_routes(v: Variant, city: str) -> tuple[int, tuple[tuple[int, str, int], ...]]:
    """(``city``'s number in the route table, (route index, route id, the other end's number) of every route into or
    out of ``city``, in route id order: the order ``best_borrowing`` tries a station's candidates), kept per variant
    and city."""
    ends = v.route_table.ends
    here = None
    routes = []
    for r in sorted(v.map.routes_at(city), key=lambda r: r.id):
        a, b = ends[r.index]
        if r.a != city:
            a, b = b, a
        here = a
        routes.append((r.index, r.id, b))
    found = _routes_at_by_id(v)[city] = here, tuple(routes)
    return found


def _routes_at_by_id(v: Variant) -> dict[str, tuple]:
    """The ``_station_routes`` found so far (made once per variant)."""
    at = v.__dict__.get("_station_routes")
    if at is None:
        at = v.__dict__["_station_routes"] = {}
    return at


def station_owners(state: GameState) -> dict[str, int]:
    """city -> seat of the station there."""
    return {city: seat for seat in range(state.n_players) for city in stations_of(state, seat)}


@dataclass(frozen=True)
class Borrowing:
    """The routes a player's stations borrow at scoring (EU-STATION-4/5): one entry per station, in build order."""

    seat: int
    stations: tuple[str, ...]
    routes: tuple[str | None, ...]         # route id borrowed by each station, or None
    gain: int                              # ticket points gained over borrowing nothing
    combinations: int                      # choices examined (after pruning)


def station_candidates(v: Variant, state: GameState, seat: int, city: str) -> list:
    """Routes of other players into or out of ``city`` (EU-STATION-4), in route order."""
    return [r for r in v.map.routes_at(city) if state.claims[r.index] not in (FREE, seat)]


_OWNED_LAST: tuple = (None, 0, None)


def _owned(state: GameState) -> list[list[int]]:
    """The route indices each seat owns (``scoring._indices_by_seat``), the last answer kept by the claims tuple and
    the number of players: scoring asks ``best_borrowing`` for every seat of one final state, and one pass over the
    claims serves them all. (One tuple, replaced whole; the claims are held there, their id is not reused.)"""
    global _OWNED_LAST
    last = _OWNED_LAST
    if last[0] is not state.claims or last[1] != len(state.players):
        last = _OWNED_LAST = (state.claims, len(state.players), _indices_by_seat(state))
    return last[2]


def _own_pieces(t, state: GameState, seat: int) -> list[int]:
    """``_pieces(t, _owned(state)[seat])``: the pieces ``scoring.score`` has just worked out for the same claims and
    seats (``scoring._LAST_PIECES``: it scores a finished game's seats before their stations borrow), else made."""
    claims, n, table, ups = _LAST_PIECES[0]
    if claims is state.claims and n == len(state.players) and table is t:
        return ups[seat]
    return _pieces(t, _owned(state)[seat])


def _borrow_nothing(seat: int, stations: tuple[str, ...], count: int) -> Borrowing:
    """``best_borrowing``'s answer when no route is borrowed (made only when it is the answer: a frozen dataclass
    is slow to make)."""
    return Borrowing(seat, stations, (None,) * len(stations), 0, count)


def best_borrowing(v: Variant, state: GameState, seat: int) -> Borrowing:
    """Choose one borrowed route (or none) per station, maximising the owner's ticket points (EU-STATION-5).

    Ticket completion is connectivity, so the own network is reduced to its connected components: a borrowed
    route matters only by the two components it joins. Candidates joining the same pair are merged, candidates
    inside one component dropped; the remaining combinations (at most 11³) are tried with a tiny union-find, none
    when no choice can complete a ticket, and no branch that cannot beat the best one found.
    Ties: fewer borrowed routes, then the lowest route ids (interpretation).
    """
    stations = stations_of(state, seat)
    if not stations:
        return _borrow_nothing(seat, stations, 0)
    # the own network's pieces, a union-find over the route table's city numbers (each root is a piece)
    t = v.route_table
    claims = state.claims
    up = _own_pieces(t, state, seat)
    open_tickets = []
    ticket_ends = t.ticket_ends
    for tid in state.players[seat].tickets:
        a, b, points = ticket_ends[tid] if tid in ticket_ends else ticket_ends[v.map.ticket(tid).id]
        while up[a] != a:
            a = up[a]
        while up[b] != b:
            b = up[b]
        if a != b:
            open_tickets.append((a, b, points))
    if not open_tickets:
        return _borrow_nothing(seat, stations, 0)
    at = _routes_at_by_id(v)
    options: list[list[tuple[str, int, int] | None]] = []
    touched: set[int] = set()                           # the pieces some choice may join
    # no choice completes more than the open tickets whose ends all the choices together would join: ``link``, a
    # union-find over the pieces joined by every station's every choice at once, made as they are found
    link: dict[int, int] = {}
    count = 1
    for city in stations:
        # every candidate joins the city's own piece (here) to its other end's: the other ends' pieces tell them
        # apart, the city's piece found once
        here, routes = at[city] if city in at else _station_routes(v, city)     # station_candidates, by route id
        while up[here] != here:
            here = up[here]
        seen: set[int] = set()
        opts: list[tuple[str, int, int] | None] = [None]
        for i, rid, b in routes:
            owner = claims[i]
            if owner == FREE or owner == seat:
                continue
            while up[b] != b:
                b = up[b]
            if b == here or b in seen:
                continue
            seen.add(b)
            opts.append((rid, here, b))
            a = here
            while a in link:
                a = link[a]
            while b in link:
                b = link[b]
            if a != b:
                link[a] = b
        if seen:
            touched.add(here)
            touched |= seen
        options.append(opts)
        count *= len(opts)                              # (the choices' product, counted as they are made)
    most = 0
    for a, b, p in open_tickets:
        if a in touched and b in touched:
            while a in link:
                a = link[a]
            while b in link:
                b = link[b]
            if a == b:
                most += p
    if not most:                                        # borrowing nothing is the best choice (the first of equals)
        return _borrow_nothing(seat, stations, count)
    # every combination in product() order (so the first of equals has the lowest ids), depth first: the pieces
    # of the network a choice's first stations join are worked out once for all the choices after them. A piece is
    # a bit set of components; an open ticket is completed when one piece holds both its ends, so a choice's gain
    # is the sum of its pieces' (each piece's worked out once).
    bit: dict[int, int] = {}                            # a piece (its root) -> its bit
    for a, b, _ in open_tickets:
        bit.setdefault(a, 1 << len(bit))
        bit.setdefault(b, 1 << len(bit))
    for opts in options:
        for opt in opts[1:]:
            bit.setdefault(opt[1], 1 << len(bit))
            bit.setdefault(opt[2], 1 << len(bit))
    tickets = [(bit[a] | bit[b], p) for a, b, p in open_tickets]
    joins = [[None if opt is None else bit[opt[1]] | bit[opt[2]] for opt in opts] for opts in options]
    last = len(options) - 1
    within: dict[int, int] = {}                         # piece -> points of the open tickets inside it
    best_key = None
    best_choice: list = []
    choice: list = [None] * len(options)

    def search(depth: int, pieces: tuple[int, ...], gain: int, borrowed: int) -> None:
        nonlocal best_key, best_choice
        if best_key is not None and best_key >= (most, -borrowed):
            return                                      # nothing below gains more with fewer borrowed routes
        for k, join in enumerate(joins[depth]):
            choice[depth] = k
            if join is None:
                now, got, used = pieces, gain, borrowed
            else:
                merged = join
                rest = []
                got = gain
                for piece in pieces:
                    if piece & join:
                        merged |= piece
                        got -= within[piece]
                    else:
                        rest.append(piece)
                points = within.get(merged)
                if points is None:
                    points = 0                          # (a loop: a generator is a call of its own, per ticket)
                    for ends, p in tickets:
                        if merged & ends == ends:
                            points += p
                    within[merged] = points
                got += points
                rest.append(merged)
                now, used = tuple(rest), borrowed + 1
            if depth < last:
                search(depth + 1, now, got, used)
                continue
            key = (got, -used)
            if best_key is None or key > best_key:
                best_key, best_choice = key, choice[:]
    search(0, (), 0, 0)
    best_choice = tuple(opts[k] for opts, k in zip(options, best_choice))
    # 2 × points: an open ticket turns from −p into +p
    return Borrowing(seat, stations, tuple(None if o is None else o[0] for o in best_choice), 2 * best_key[0], count)


def _stations_in(ext) -> tuple[str, ...]:
    """``pairs_get(ext, "stations", ())`` of a player's pairs, read from the first pair first: a Europe player's
    ext is usually just its stations (the random bot and the quick path ask for every player)."""
    if not ext:
        return ()                                   # (no station yet: the usual ext of a game's first half)
    return ext[0][1] if ext[0][0] == "stations" else pairs_get(ext, "stations", ())


class Stations(Feature):
    """EU-STATION-1..6: build (1/2/3 cards of one colour), borrow one route each at the end, +4 per unbuilt."""

    name = "stations"
    turn_words = ("build a train station",)
    score_words = f"+{STATION_BONUS} at the end per station not built (the book: 'not used'; ttr_nb's reading)"
    player_data = ("stations",)

    def data_problems(self, v, state) -> list[str]:
        from ..board.featuredata import is_texts
        return [f"{_seat_name(seat)}'s stations must be a list of city names"
                for seat, p in enumerate(state.players) if not is_texts(p.get("stations", ()))]

    def handles(self, action) -> bool:
        return isinstance(action, BuildStation)

    @staticmethod
    def _payments(state, seat) -> list:
        """The payments of ``seat``'s next station (EU-STATION-2, EU-STATION-3): none once all three are built."""
        built = stations_of(state, seat)
        if len(built) >= MAX_STATIONS:
            return []
        return _one_colour_payments(state.players[seat].hand, len(built) + 1)

    def turn_actions(self, v, state, seat) -> list:
        pays = self._payments(state, seat)
        if not pays:
            return []
        taken = station_owners(state)
        return [BuildStation(city=c.name, payment=pay, seat=seat) for c in v.map.cities if c.name not in taken
                for pay in pays]

    def bot_random(self, v, state, seat, r) -> list:
        """The random bot's pick among ``turn_actions`` without building them all: the action at a random index of
        that list (cities in map order, each with its payments), found by arithmetic: the free cities and the
        payments counted, only the city and the payment picked made."""
        p = state.players[seat]
        built = _stations_in(p.ext)
        if len(built) >= MAX_STATIONS:
            return []
        size = len(built) + 1
        hand = p.hand
        locos = hand[LOCO]
        low = size - locos if size - locos > 1 else 1
        runs = []                                   # (colour, most of it): its payments are most, most - 1, ..., low
        pays = 1 if locos >= size else 0            # the all-locomotive payment, last
        for c in range(LOCO):
            have = hand[c]
            if have >= low:
                most = have if have < size else size
                runs.append((c, most))
                pays += most - low + 1
        if not pays:
            return []
        cities = _city_order(v)
        gone = set()                                # map indexes of the cities with a station
        for q in state.players:
            for x in _stations_in(q.ext):
                if x in cities:
                    gone.add(cities[x])
        gone = sorted(gone)
        free = len(cities) - len(gone)
        if not free:
            return []
        k = r.index(free * pays)
        j, k = divmod(k, pays)
        for i in gone:                              # the j-th free city: j plus the taken ones before it
            if i > j:
                break
            j += 1
        for c, most in runs:
            if k <= most - low:
                n = most - k
                pay = ((c, n), (LOCO, size - n)) if n < size else ((c, n),)
                break
            k -= most - low + 1
        else:
            pay = ((LOCO, size),)
        station = _new_station(v.map.cities[j].name, pay, seat)
        v.route_table.made = (station, state)       # legal for this state by construction: Stations.quick trusts it
        return [station]

    def check(self, v, state, action, seat) -> None:
        _shape_problem(action, v)
        try:
            city = v.map.city(action.city).name
        except MapError:
            from ..board.maps import _suggest
            raise BadAction(f"{action}: the {v.map.name} map has no city {action.city!r}"
                            f"{_suggest(action.city, [c.name for c in v.map.cities])}") from None
        built = stations_of(state, seat)
        who = _seat_name(seat)
        if len(built) >= MAX_STATIONS:
            raise IllegalAction(f"{who} has built all {MAX_STATIONS} stations ({', '.join(built)}): at most three per game",
                                v.rule("EU-STATION-2"), action, seat)
        owner = station_owners(state).get(city)
        if owner is not None:
            raise IllegalAction(f"{city} already has {'your' if owner == seat else _seat_name(owner) + chr(39) + 's'} "
                                "station: a city holds at most one station, and two players may never have stations "
                                "in the same city", v.rule("EU-STATION-1"), action, seat)
        pay = action.payment
        cost = len(built) + 1
        size = sum(n for _, n in pay)
        what = "1 card of any colour" if cost == 1 else f"{cost} cards of one colour"
        if size != cost:
            raise IllegalAction(f"{who}'s {_ordinal(cost)} station costs {what} (locomotives may stand in); the "
                                f"payment has {size}", v.rule("EU-STATION-3"), action, seat)
        colours = [k for k, _ in pay if k != LOCO]
        if len(colours) > 1:
            raise IllegalAction(f"a station is paid with cards of one colour (locomotives may stand in): the payment "
                                f"mixes {' and '.join(CARD_NAMES[k] for k in colours)}", v.rule("EU-STATION-3"), action, seat)
        hand = state.players[seat].hand
        for k, n in pay:
            if hand[k] < n:
                raise IllegalAction(f"the payment needs {_cards(n, k)} but the hand holds {hand[k]}",
                                    v.rule("EU-STATION-3"), action, seat)

    def quick(self, v, state, action, trusted):
        """A station built as ``turn_actions`` lists it (a city of the map by its name, one of the listed payments):
        the cards to the discard pile, the station to the seat, the turn over — the state ``apply`` makes, without
        a transaction (EU-STATION-1..3). None for anything else (``check`` words a refusal)."""
        seat = action.seat
        if (seat != state.current or seat.__class__ is not int or state.pending or state.phase not in _PLAYING
                or state.market is not _full[0] and not _is_full(state.market)):
            return None
        players = list(state.players)
        p = players[seat]
        built = _stations_in(p.ext)
        city = action.city
        pay = action.payment
        # (a station the random bot just made for this very state, Stations.bot_random's, is legal: a free city, a
        # payment of the next station's size; it leaves both in RouteTable.made, as for claims, and the checks below
        # are skipped for it)
        made = v.route_table.made
        if not trusted and (made[0] is not action or made[1] is not state):
            if city.__class__ is not str or city not in _city_names(v) or not _station_payment(p.hand, built, pay):
                return None
            for q in players:                          # station_owners: the city must have no station
                if city in _stations_in(q.ext):
                    return None
        hand = list(p.hand)
        discard = list(state.discard)
        for k, n in pay:
            hand[k] -= n
            discard[k] += n
        players[seat] = new_player(tuple(hand), p.trains, p.tickets, p.route_points,
                                   pairs_set(p.ext, "stations", tuple(built) + (city,)))
        return _turn_over(v, state, seat, state.deck, state.market, tuple(discard), state.claims, tuple(players))

    @staticmethod
    def canonical(v, action):
        """``station AMSTERDAM`` is recorded as ``station Amsterdam`` (check() already found the city)."""
        city = v.map.city(action.city).name
        return action if city == action.city else replace(action, city=city)

    def apply(self, v, tx, action, seat) -> None:
        city = v.map.city(action.city).name
        p = tx.players[seat]
        built = tuple(p.get("stations", ())) + (city,)
        tx.change_hand(seat, action.payment, -1)
        tx.discard_cards(action.payment)               # EU-STATION-3
        tx.set_player(seat, ext=pairs_set(p.ext, "stations", built))
        if tx.events is not None:
            tx.event("station", "EU-STATION-3",
                     f"{_seat_name(seat)} builds {'a' if len(built) == 1 else 'their ' + _ordinal(len(built))} station "
                     f"in {city} for {payment_words(action.payment)}: at the end it may borrow one route of another "
                     f"player into {city}")
        if any(c is None for c in tx.market):
            tx.refill_market()
        tx.end_turn()

    # -- scoring -------------------------------------------------------------------------------
    def score(self, v, state, sheet) -> None:
        players = []
        owners = [_seat_name(s) for s in range(state.n_players)]
        for ps in sheet["players"]:
            seat = ps.seat
            stations = stations_of(state, seat)
            built = len(stations)
            extras = ps.extras + (("stations not built", STATION_BONUS * (MAX_STATIONS - built)),)   # EU-STATION-6
            notes = list(ps.notes)
            tickets = ps.tickets
            if stations:
                choice = best_borrowing(v, state, seat)
                borrowed = [v.map.route(rid) for rid in choice.routes if rid is not None]
                if borrowed:
                    edges = owned_edges(v, state, seat) + [(r.a, r.b, r.length, r.id) for r in borrowed]
                    tickets = ticket_results(v, state.players[seat].tickets, edges, frozenset(r.id for r in borrowed))
                for city, rid in zip(stations, choice.routes):
                    if rid is None:
                        notes.append(f"station in {city}: no route borrowed (no route of another player into {city} "
                                     f"completes a ticket) ({v.rule('EU-STATION-4')})")
                    else:
                        r = v.map.route(rid)
                        users = [ticket_text(v.map, t.id) for t in tickets if rid in t.via]
                        notes.append(f"station in {city} borrowed {route_text(v.map, r)} ({r.colour}, "
                                     f"{owners[state.claims[r.index]]}) for {', '.join(users) or 'no ticket'} "
                                     f"({v.rule('EU-STATION-5')})")
            players.append(_with(ps, tickets=tickets, extras=extras, notes=tuple(notes),
                                   stats=ps.stats + (("stations_used", built),)))    # EU-SCORE-3: stations built
        sheet["players"] = players

    def score_points(self, v, state, completed) -> list[int]:
        """Per seat, what ``score`` adds: the tickets its borrowed routes complete (EU-STATION-5) and the unbuilt
        stations (EU-STATION-6)."""
        out = []
        for seat in range(state.n_players):
            built = len(stations_of(state, seat))
            out.append(STATION_BONUS * (MAX_STATIONS - built) + (best_borrowing(v, state, seat).gain if built else 0))
        return out

    # -- bookkeeping ---------------------------------------------------------------------------
    def validate(self, v, state, problems) -> None:
        where: dict[str, list[int]] = {}
        for seat, p in enumerate(state.players):
            stations = p.get("stations", ())
            if not isinstance(stations, tuple) or not all(isinstance(c, str) for c in stations):
                problems.append(f"{_seat_name(seat)}'s stations must be a list of city names")
                continue
            if len(stations) > MAX_STATIONS:
                problems.append(f"{_seat_name(seat)} has {len(stations)} stations; a player has only {MAX_STATIONS} "
                                f"({v.rule('EU-STATION-2')})")
            for city in stations:
                try:
                    name = v.map.city(city).name
                except MapError:
                    problems.append(f"{_seat_name(seat)} has a station in {city!r}, which is not a city of the map")
                    continue
                if name != city:
                    problems.append(f"{_seat_name(seat)}'s station city {city!r} should be written {name!r}")
                where.setdefault(name, []).append(seat)
        for city, seats in sorted(where.items()):
            if len(seats) > 1:
                problems.append(f"{city} has {len(seats)} stations ({', '.join(_seat_name(s) for s in seats)}); a city "
                                f"holds at most one ({v.rule('EU-STATION-1')})")

    def observe(self, v, state, seat, view) -> None:
        for entry in view["players"]:                  # stations stand on the board: public
            built = stations_of(state, entry["seat"])
            entry["stations"] = list(built)
            entry["stations_left"] = MAX_STATIONS - len(built)

    # -- the greedy bot ------------------------------------------------------------------------
    def bot_borrowable(self, v, state, seat) -> frozenset[int]:
        """Routes of others at the seat's stations: the greedy planner treats them as its own (optimistic: a
        station really borrows only one of them)."""
        return frozenset(r.index for city in stations_of(state, seat) for r in station_candidates(v, state, seat, city))

    def bot_turn(self, v, state, seat, plan):
        """Build a station when a ticket became impossible and one borrowed route would make it possible again —
        only with cards to spare (a colour the plan does not need)."""
        built = stations_of(state, seat)
        if len(built) >= MAX_STATIONS or not plan.impossible:
            return None
        p = state.players[seat]
        cost = len(built) + 1
        need: dict[int, int] = {}
        for rid in plan.routes:
            r = v.map.route(rid)
            if r.colour != "gray":
                k = CARD_NAMES.index(r.colour)
                need[k] = need.get(k, 0) + r.length
        spare = sorted(((p.hand[c] - need.get(c, 0), c) for c in range(LOCO)), reverse=True)
        if not spare or spare[0][0] < cost:
            return None
        colour = spare[0][1]
        taken = station_owners(state)
        borrowable = self.bot_borrowable(v, state, seat)
        best = None
        for tid in plan.impossible:
            t = v.map.ticket(tid)
            da = _distances(v, state, seat, t.a, borrowable)
            db = _distances(v, state, seat, t.b, borrowable)
            for r in v.map.routes:
                owner = state.claims[r.index]
                if owner in (FREE, seat):
                    continue
                for x, y in ((r.a, r.b), (r.b, r.a)):
                    if x in da and y in db:
                        cost_trains = da[x] + db[y]
                        if cost_trains > p.trains:
                            continue
                        for city in (x, y):
                            if city in taken:
                                continue
                            key = (-(2 * t.points - cost_trains), city, r.id)
                            if best is None or key < best[0]:
                                best = (key, city, r, t, owner)
        if best is None:
            return None
        _, city, r, t, owner = best
        from ..bots import Reason
        return (BuildStation(city=city, payment=((colour, cost),), seat=seat),
                Reason(f"builds a station in {city}: {ticket_text(v.map, t)} is blocked, but the station can borrow "
                       f"{_seat_name(owner)}'s {route_text(v.map, r)} ({v.rule('EU-STATION-4')})",
                       f"builds a station in {city} ({v.rule('EU-STATION-4')})"))


def _distances(v: Variant, state: GameState, seat: int, start: str, borrowable: frozenset[int]) -> dict[str, int]:
    """Trains needed from ``start`` to every reachable city, borrowable routes free (``bots.distances``)."""
    from ..bots import distances
    return distances(v, state, seat, start, borrowable=borrowable)[0]


# ---------------------------------------------------------------------------------------------
# tunnel odds

@dataclass(frozen=True)
class TunnelOdds:
    """The chances of needing 0, 1, 2, 3 extra cards for a tunnel, as one seat can see them."""

    route: str
    payment: Payment
    exact: tuple[Fraction, Fraction, Fraction, Fraction]
    revealed: int                 # how many cards will be turned up (3, fewer on a short deck: EU-TUNNEL-6)
    unseen: int                   # cards the seat cannot see (deck + other hands)
    unseen_matching: int          # of those, how many would call for an extra card
    can_pay: Fraction             # chance that the extra cards are in the hand after the payment

    @property
    def probabilities(self) -> tuple[float, float, float, float]:
        return tuple(float(p) for p in self.exact)

    @property
    def expected(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.exact)), Fraction(0))

    def to_dict(self) -> dict:
        return {"route": self.route, "payment": payment_str(self.payment),
                "exact": [str(p) for p in self.exact], "probabilities": list(self.probabilities),
                "expected": float(self.expected), "revealed": self.revealed, "unseen": self.unseen,
                "unseen_matching": self.unseen_matching, "can_pay": float(self.can_pay)}

    def __str__(self) -> str:
        parts = ", ".join(f"{k} extra: {p:.1%}" for k, p in enumerate(self.probabilities))
        return f"{self.route} with {payment_str(self.payment)}: {parts} (can pay: {float(self.can_pay):.1%})"


@lru_cache(maxsize=4096)
def _hypergeometric(pool: int, good: int, draws: int) -> tuple[Fraction, ...]:
    """P(k good cards) for k = 0..draws, drawn without replacement from ``pool`` cards of which ``good`` are good
    (kept: the greedy bots and the coach's playouts ask about the same few pools again and again)."""
    total = comb(pool, draws)
    return tuple(Fraction(comb(good, k) * comb(pool - good, draws - k), total) for k in range(draws + 1))


def tunnel_odds(state: GameState, seat: int, route_id: str, payment) -> TunnelOdds:
    """P(0, 1, 2, 3 extra cards) for ``seat`` claiming tunnel ``route_id`` with ``payment`` (text or Payment).

    What the seat sees: its hand, the face-up cards, the discard pile (and a pending tunnel's cards). Every other
    card — the deck and the other hands — is unseen and equally likely to be anywhere, so the cards turned up from
    the deck are a draw without replacement from the unseen pool (hypergeometric). On a short deck the rest come
    from the reshuffled discard pile, whose make-up is known (EU-TUNNEL-6).
    """
    v = get_variant(state.variant)
    route = v.map.route(route_id)
    if not route.tunnel:
        raise TTRError(f"{route_text(v.map, route)} is not a tunnel")
    pay = _payment_of(payment)
    colour = tunnel_colour(pay)

    def matching(counts: Sequence[int]) -> int:
        return counts[LOCO] + (0 if colour is None else counts[colour])

    seen = list(state.players[seat].hand)
    for c in state.market:
        if c is not None:
            seen[c] += 1
    for k, n in enumerate(state.discard):
        seen[k] += n
    for f in v.features:
        for c in f.held_cards(state):
            seen[c] += 1
    unseen = [total - s for total, s in zip(v.deck_counts, seen)]
    pool = sum(unseen)
    good = matching(unseen)
    from_deck = min(TUNNEL_REVEAL, len(state.deck))
    discard_total = sum(state.discard)
    from_discard = min(TUNNEL_REVEAL - from_deck, discard_total)
    dist = list(_hypergeometric(pool, good, from_deck)) if from_deck else [Fraction(1)]
    if from_discard:
        second = _hypergeometric(discard_total, matching(state.discard), from_discard)
        conv = [Fraction(0)] * (len(dist) + len(second) - 1)
        for i, p in enumerate(dist):
            for j, q in enumerate(second):
                conv[i + j] += p * q
        dist = conv
    exact = tuple((dist + [Fraction(0)] * 4)[:4])
    hand = state.players[seat].hand
    played = dict(pay)
    spare = hand[LOCO] - played.get(LOCO, 0) + (0 if colour is None else hand[colour] - played.get(colour, 0))
    can_pay = sum((p for k, p in enumerate(exact) if k <= spare), Fraction(0))
    return TunnelOdds(route.id, pay, exact, from_deck + from_discard, pool, good, can_pay)


# ---------------------------------------------------------------------------------------------
# the variant

EUROPE_SETTINGS = Settings(
    trains=45,                                                      # EU-COMP-2
    route_points={1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21},           # EU-CLAIM-2
    setup_deals=(("long", 1), ("regular", 3)),                      # EU-SETUP-2/3
    setup_min_keep=2,                                               # EU-SETUP-4
    setup_returns="out",                                            # EU-SETUP-4: back in the box, unseen
    decks_out_after_setup=("long",),                                # EU-SETUP-2: the other long tickets too
    ticket_deck="regular",                                          # EU-TICKET-1
    end_trains=2,                                                   # EU-END-1
    longest_bonus=10,                                               # EU-SCORE-2
    tie_breaks=("tickets", "fewest_stations", "longest"),           # EU-SCORE-3
)

# What the Swedish base-game book leaves open and the Icelandic Europe book says (USA interpretations that do not
# hold here): (base rule id, the Icelandic book's answer).
EUROPE_SETTLED: tuple[tuple[str, str], ...] = (
    ("USA-DRAW-4", "The Icelandic book says it: a locomotive drawn blind from the deck counts as just one card, "
                   "and the player may draw another ('telst það bara sem eitt spil og spilarinn má draga annað "
                   "spil')."),
    ("USA-SCORE-3", "The Icelandic book says it: the continuous path may run in loops and through the same city "
                    "several times, each train counted once ('getur legið í hringi og farið í gegnum sömu "
                    "borgina nokkrum sinnum')."),
)

def _bot_idle(v: Variant, state: GameState, seat: int) -> bool:
    """``Variant.bot_idle``: ``seat`` has built all its stations (EU-STATION-2), or its hand pays for no next station
    (EU-STATION-3: no colour with the locomotives covers its size, nor the locomotives alone), so
    ``Stations.bot_random``, the only feature with turn actions of its own, has none and draws nothing. Most of the
    turns on which the random bot tries the stations: one test instead of the counter and the picker."""
    p = state.players[seat]
    size = len(_stations_in(p.ext)) + 1
    if size > MAX_STATIONS:
        return True
    hand = p.hand
    locos = hand[LOCO]
    if locos >= size:
        return False                                # (the locomotives alone pay)
    need = size - locos                             # a colour with this many cards pays, locomotives standing in
    for c in hand[:LOCO]:                           # (a loop: the builtin max costs more)
        if c >= need:
            return False
    return True


EUROPE = register(Variant(
    key="europe",
    name="Ticket to Ride Europe",
    map_key="europe",
    rule_prefix="EU",
    settings=EUROPE_SETTINGS,
    features=(Ferries(), Tunnels(), Stations()),
    aliases=("eu", "ticket to ride europe", "evropa", "europa"),
    rule_map={
        "USA-COMP-1": "EU-COMP-1", "USA-COMP-2": "EU-COMP-2", "USA-COMP-3": "EU-COMP-3", "USA-COMP-4": "EU-COMP-4",
        "USA-SETUP-2": "EU-SETUP-1", "USA-SETUP-3": "EU-SETUP-4", "USA-SETUP-4": "EU-SETUP-5",
        "USA-TURN": "EU-TURN-1", "USA-DRAW": "EU-DRAW-1", "USA-CLAIM": "EU-CLAIM-1", "USA-CLAIM-9": "EU-CLAIM-2",
        "USA-TICKET": "EU-TICKET-1", "USA-TICKET-4": "EU-SCORE-1", "USA-END": "EU-END-1",
        "USA-SCORE-1": "EU-SCORE-1", "USA-SCORE-2": "EU-SCORE-1", "USA-SCORE-3": "EU-SCORE-2", "USA-SCORE-4": "EU-SCORE-3",
    },
    description="Europe 1901: ferries, tunnels, train stations and long tickets.",
    bot_idle=_bot_idle,
    interpretations=(
        ("EU-TUNNEL-2", "A tunnel paid with a colour plus locomotives matches that colour (and locomotives); a gray "
                        "tunnel takes the colour of the payment. The three cards turned up are off the table while "
                        "they are shown, so a reshuffle in the middle of the reveal does not include them."),
        ("EU-STATION-5", "Each station's borrowed route is chosen to maximise its owner's score; among equal "
                         "choices, fewer borrowed routes, then the lowest route ids."),
        ("EU-SCORE-3", "'Fewest stations used' counts the stations built (the Icelandic book's 'nota')."),
        ("EU-STATION-3", "A single locomotive may pay for the first station: one card of any colour, and "
                         "locomotives stand in as usual."),
        ("EU-STATION-6", "The book gives 4 points for each station a player has not used ('ónotaða'): ttr_nb reads "
                         "that as a station not built, so a built station scores nothing, whether or not it borrows "
                         "a route."),
        *[(k, t) for k, t in USA_INTERPRETATIONS if k not in dict(EUROPE_SETTLED)],
    ),
    settled=EUROPE_SETTLED,
))


__all__ = ["EUROPE", "EUROPE_SETTINGS", "Ferries", "Tunnels", "Stations", "BuildStation", "TunnelPay", "TunnelWithdraw",
           "tunnel_colour", "tunnel_extra", "tunnel_extra_payments", "tunnel_odds", "TunnelOdds", "best_borrowing",
           "Borrowing", "station_candidates", "stations_of", "station_owners"]
