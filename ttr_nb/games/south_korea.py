"""Ticket to Ride South Korea (docs/rules/south_korea.md, from the Danish rule book): settings + three features.

The board is a PROVISIONAL stand-in (the published map is not public; ``maps/sources/south_korea/PROVISIONAL.md``):
every user-facing surface shows ``Map.provisional_note``. Two facts the rule book proves are kept and tested:
Namwon–Jinju is white with 4 spaces, and the white line has a space 6, the red line spaces 5 and 6.

* :class:`TicketDraft` (SK-SETUP-3/4): 6 tickets each; pick rounds are simultaneous pending steps
  (``draft pick Gwangju–Yeosu``); the rest of each hand is passed to the left (the next seat) once everyone has picked;
  after 6 picks everyone keeps exactly 4 (``draft keep A–B, C–D, E–F, G–H``); the returns are shuffled into the deck.
* :class:`ExpressCards` (SK-TURN-2, SK-EXPRESS-1/2): ``draw deck +2``, ``draw faceup 3 +1``, ``tickets +3``.
* :class:`ProvinceBoard` (SK-PROV-*, SK-EXPRESS-3, SK-SCORE-2/3): a claim with a province placement,
  ``claim Namwon–Jinju white4+loco1 +1 province white``; the line bonuses at the end.

Plain claims (``claim R067 white4``), draws and ticket draws are the base game's actions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import accumulate, combinations
from operator import itemgetter
from pathlib import Path
from typing import ClassVar, Sequence

from ..board.actions import Action, DrawDeck, DrawFaceUp, KeepTickets, Payment, parse_payment, payment_str, payment_words, register_action
from ..board.actions import _PARSERS as _BASE_PARSERS
from ..board.actions import _parse_keep, _ref
from ..board.names import find_route, find_ticket, route_text, ticket_text, ticket_with_points, ticket_words
from ..board.names import seat_name as _seat_name
from ..board.cards import CARD_NAMES, COLOURS, GRAY, LOCO
from ..errors import BadAction, IllegalAction, MapError, TTRError
from ..rng import Counter, shuffled
from ..board.scoring import _with
from ..board.state import (FREE, GameState, Pending, PlayerState, _OpenPending, _OpenPlayer, _OpenState, new_pending,
                           new_player, new_state, open_subclass, pairs_get, pairs_set)
from ..board.tables import allowed_routes, claimable_mask, interned, nth_bit, payment
from ..variants import Feature, Settings, Variant, get_variant, register
from ..board.engine import _PLAYING, _full, _is_full, _quick_draw, _turn_over, draw_deck_action, draw_faceup_action
from .usa import USA_INTERPRETATIONS

KEY = "south_korea"
EXPRESS_VALUES = (1, 2, 3)                                  # SK-COMP-3 / SK-SETUP-2
DRAFT_HAND = 6                                              # SK-SETUP-3
DRAFT_KEEP = 4                                              # SK-SETUP-4
PROVINCE_BONUS = {2: (10,), 3: (10, 6), 4: (10, 6, 4), 5: (10, 6, 4, 2)}     # SK-SCORE-2 (the scoring card)
SOURCES = Path(__file__).resolve().parents[2] / "maps" / "sources" / KEY
MAP_NAME = "Ticket to Ride South Korea (provisional stand-in board)"
BASE_DECK = {**{c: 12 for c in COLOURS}, "locomotive": 14}  # SK-COMP-2: the base game's 110 cards


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------------------------
# the map: built from maps/sources/south_korea (the reference CSVs, unchanged)

def read_province_board(folder: Path | str = SOURCES) -> dict[str, list[int]]:
    """``province_board.csv`` → {line colour: [space values, low to high]} (MapError names the line at fault)."""
    from ..board.maps import _read_csv
    path = Path(folder) / "province_board.csv"
    lines: dict[str, list[int]] = {}
    for n, row in enumerate(_read_csv(path, ("colour", "spaces")), start=2):
        colour = row["colour"].strip()
        if colour not in COLOURS or colour in lines:
            raise MapError(f"{path}: line {n}: {colour!r} is not a new card colour")
        try:
            spaces = [int(x) for x in row["spaces"].split(";")]
        except ValueError:
            raise MapError(f"{path}: line {n}: spaces must be whole numbers joined by ';'") from None
        if spaces != sorted(set(spaces)) or spaces[0] < 1:
            raise MapError(f"{path}: line {n}: spaces must rise from 1 or more without repeats")
        lines[colour] = spaces
    return lines


def read_province_known(folder: Path | str = SOURCES) -> dict[str, list[int]]:
    """``province_board_known.csv``: the spaces the rule book proves (white 6; red 5 and 6)."""
    from ..board.maps import _read_csv
    path = Path(folder) / "province_board_known.csv"
    return {row["colour"].strip(): [int(x) for x in row["space_values"].split(";")]
            for row in _read_csv(path, ("colour", "space_values"))}


def build_map_document(folder: Path | str = SOURCES) -> dict:
    """The content of ``maps/south_korea.json``, rebuilt from the reference CSVs by a fixed rule: the shared
    ``map_from_reference`` (cities, routes, tickets, SOURCES.md, PROVISIONAL.md → ``provisional: true`` and its
    first line as the note), the base deck (SK-COMP-2), and the province board as the map's ``extra``."""
    from ..board.maps import map_from_reference
    folder = Path(folder)
    return map_from_reference(folder, key=KEY, name=MAP_NAME, deck=BASE_DECK, reference="maps/sources/south_korea",
                              extra={"province_board": read_province_board(folder),
                                     "province_board_known": read_province_known(folder)})


def rebuild_map(check_only: bool = False) -> bool:
    """Write ``maps/south_korea.json`` from ``maps/sources/south_korea`` (or only compare). True: up to date."""
    from ..board.maps import map_to_json
    text = map_to_json(build_map_document())
    target = SOURCES.parents[1] / f"{KEY}.json"
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return True
    if not check_only:
        target.write_text(text, encoding="utf-8")
    return False


def province_lines(v: Variant) -> dict[str, tuple[int, ...]]:
    cache = v.__dict__.get("_province_lines")
    if cache is None:
        cache = {c: tuple(s) for c, s in v.map.extra["province_board"].items()}
        v.__dict__["_province_lines"] = cache
    return cache


# ---------------------------------------------------------------------------------------------
# state helpers (all public information except the draft)

def express_left(state: GameState, seat: int) -> tuple[int, ...]:
    """The seat's unused express cards (SK-SETUP-2; used ones leave the game, SK-TURN-2)."""
    return tuple(state.players[seat].get("express", ()))


def province_trains(state: GameState) -> tuple[tuple[str, int, int], ...]:
    """Every train on the province board as (line colour, space, seat), in the order placed (SK-PROV-5)."""
    return tuple(map(tuple, state.get("province", ())))      # (a tuple stays itself: a board as play makes it)


def province_occupied(state: GameState, line: str) -> dict[int, int]:
    return {space: seat for colour, space, seat in province_trains(state) if colour == line}


def province_space(v: Variant, state: GameState, line: str, value: int) -> tuple[int | None, str]:
    """Where a train worth ``value`` goes on ``line`` (SK-PROV-3/4): (space, how) or (None, why not).

    Interpretations: a value above the line's highest space is refused (the line has no such space); if the
    space is taken (or missing) the train goes on the first free space of lower value, that space only; with no
    free lower space it cannot go on that line."""
    spaces = province_lines(v)[line]
    if value > spaces[-1]:
        return None, (f"the {line} line ends at space {spaces[-1]}: there is no space {value} (pay fewer cards or use "
                      f"a smaller express card)")
    space = _space_for(spaces, province_occupied(state, line), value)
    if space == value:
        return value, f"space {value}"
    if space is None:
        return None, (f"space {value} of the {line} line is taken and no space below it is free, so the train cannot "
                      f"go on that line")
    return space, f"space {space} (space {value} is taken: the first free space below it)"


def _space_for(spaces: Sequence[int], taken, value: int) -> int | None:
    """The space a train worth ``value`` takes on a line with these ``spaces`` (``taken``: the occupied ones), as
    ``province_space`` says: the space itself if free, else the first free one below; None when there is none."""
    if value > spaces[-1]:
        return None
    if value in spaces and value not in taken:
        return value
    for space in reversed(spaces):
        if space < value and space not in taken:
            return space
    return None


def province_ranking(v: Variant, state: GameState, line: str) -> list[dict]:
    """The players on one line, best first: sum of their spaces, ties by the higher space (SK-SCORE-2/3), with
    the bonus each would get by the scoring card for this player count."""
    mine: dict[int, list[int]] = {}
    for colour, space, seat in province_trains(state):
        if colour == line:
            mine.setdefault(seat, []).append(space)
    return _ranking(mine, state.n_players)


def _ranking(mine: dict[int, list[int]], players: int) -> list[dict]:
    """``province_ranking`` of one line from each seat's spaces on it."""
    order = sorted(mine, key=lambda s: (-sum(mine[s]), -max(mine[s]), s))
    bonus = PROVINCE_BONUS.get(players, ())
    return [{"seat": s, "total": sum(mine[s]), "best": max(mine[s]), "spaces": sorted(mine[s]),
             "bonus": bonus[i] if i < len(bonus) else 0} for i, s in enumerate(order)]


# ---------------------------------------------------------------------------------------------
# actions

@dataclass(frozen=True, slots=True)
class DraftPick(Action):
    """Pick one ticket of the hand in front of you (SK-SETUP-3). Text: ``draft pick Gwangju–Yeosu`` (or its
    id, ``draft pick T01``); ``ticket`` is the card's city text (canonical) or, as typed, its id."""

    ticket: str = ""
    seat: int | None = None
    verb: ClassVar[str] = "draft"

    def body(self) -> str:
        return f"draft pick {self.ticket}"

    def describe(self, v: Variant, state: GameState) -> str:
        return "picks a ticket"

    def describe_own(self, v: Variant, state: GameState) -> str:
        """The words for the picking seat and the teacher: which card (the others read ``describe``)."""
        try:
            return f"picks {ticket_words(v.map, (find_ticket(v.map, self.ticket).id,))}"
        except TTRError:
            return f"picks {self.ticket}"

    def button_words(self, v: Variant, state: GameState) -> str:
        """The button of the picking seat only (the card is its secret): 'pick Seoul–Busan (6 points)'."""
        try:
            return f"pick {ticket_with_points(v.map, find_ticket(v.map, self.ticket))}"
        except TTRError:
            return f"pick {self.ticket}"


@dataclass(frozen=True, slots=True)
class DraftKeep(Action):
    """Keep exactly 4 of the 6 picked tickets (SK-SETUP-4). Text: ``draft keep A–B, C–D, E–F, G–H`` (or ids,
    ``draft keep T01 T02 T03 T04``)."""

    tickets: tuple[str, ...] = ()
    seat: int | None = None
    verb: ClassVar[str] = "draft"

    def body(self) -> str:
        return "draft " + KeepTickets(tickets=self.tickets).body()

    def describe(self, v: Variant, state: GameState) -> str:
        return f"keeps {_plural(len(self.tickets), 'ticket')} of the draft"

    def describe_own(self, v: Variant, state: GameState) -> str:
        """The words for the keeping seat and the teacher: which tickets (the others read ``describe``)."""
        names = []
        for t in self.tickets:
            try:
                names.append(ticket_words(v.map, (find_ticket(v.map, t).id,)))
            except TTRError:
                names.append(t)
        return "keeps " + (", ".join(names) if names else "no tickets") + " of the draft"


@dataclass(frozen=True, slots=True)
class ExpressDraw(Action):
    """Draw ``express`` blind cards with an express card, then the normal first draw (SK-EXPRESS-1).
    ``slot`` 0 = the deck, 1–5 = a face-up card. Text: ``draw deck +2``, ``draw faceup 3 +1``."""

    slot: int = 0
    express: int = 1
    seat: int | None = None
    verb: ClassVar[str] = "draw"

    def base(self) -> Action:
        return DrawDeck(seat=self.seat) if self.slot == 0 else DrawFaceUp(slot=self.slot, seat=self.seat)

    def body(self) -> str:
        return f"{self.base().body()} +{self.express}"

    def describe(self, v: Variant, state: GameState) -> str:
        first = "the top card of the deck" if self.slot == 0 else f"face-up card {self.slot}"
        return f"uses the +{self.express} express card: {_plural(self.express, 'card')} from the deck, then takes {first}"


@dataclass(frozen=True, slots=True)
class ExpressTickets(Action):
    """Draw 3 + ``express`` tickets, keep at least 1 (SK-EXPRESS-2). Text: ``tickets +2``."""

    express: int = 1
    seat: int | None = None
    verb: ClassVar[str] = "tickets"

    def base(self) -> Action:
        from ..board.actions import DrawTickets
        return DrawTickets(seat=self.seat)

    def body(self) -> str:
        return f"tickets +{self.express}"

    def describe(self, v: Variant, state: GameState) -> str:
        return f"uses the +{self.express} express card and draws {v.settings.ticket_draw + self.express} tickets"


@dataclass(frozen=True, slots=True)
class ProvinceClaim(Action):
    """Claim a route and put a train on the province board (SK-PROV-1..6), optionally with an express card.

    ``payment`` may hold more matching cards than the route's length (SK-PROV-3). ``route``: the route's city text
    (canonical) or, as typed, an id or city text. Text: ``claim Jinju–Namwon white4+loco1 +1 province white``
    (``+1`` only when an express card is used)."""

    route: str = ""
    payment: Payment = ()
    express: int = 0
    line: str = ""
    seat: int | None = None
    verb: ClassVar[str] = "claim"

    def body(self) -> str:
        boost = f" +{self.express}" if self.express else ""
        where = f" province {self.line}" if self.line else ""
        return f"claim {self.route} {payment_str(self.payment)}{boost}{where}"

    def describe(self, v: Variant, state: GameState) -> str:
        try:
            r = find_route(v.map, self.route)
        except TTRError:
            return f"claims unknown route {self.route}"
        boost = f" and the +{self.express} express card" if self.express else ""
        return (f"claims {r.a}–{r.b} ({r.length}, {r.colour}) with {payment_words(self.payment)}{boost} and puts a "
                f"train on the {self.line} province line")

    def extra_words(self, v: Variant, state: GameState) -> str:
        """What this claim adds to a plain one, for a chooser: "province white (+1 express)"."""
        return f"province {self.line}" + (f" +{self.express} express" if self.express else "")

    def button_words(self, v: Variant, state: GameState) -> str:
        seat = state.current if self.seat is None else self.seat
        value = sum(n for _, n in self.payment) + self.express
        space, how = province_space(v, state, self.line, value)
        where = f"space {space}" if space is not None else "no space"
        return f"{payment_words(self.payment)} → {where}" + (" (a lower free space)" if space != value else "")


# The random bot's province claims (_nth_claim) and draft keeps (random_pending) are made as actions.new_claim makes
# a Claim: an open subclass filled by plain attribute stores, then turned into the frozen class (state.open_subclass).
_OpenProvinceClaim = open_subclass(ProvinceClaim)
_OpenDraftKeep = open_subclass(DraftKeep)


def _express_word(word: str, where: str) -> int:
    if word not in ("+1", "+2", "+3"):
        raise BadAction(f"{where}: {word!r} is not an express card; write +1, +2 or +3")
    return int(word[1])


_base_draw, _base_claim, _base_tickets = _BASE_PARSERS["draw"], _BASE_PARSERS["claim"], _BASE_PARSERS["tickets"]


def _parse_draw(words: list[str], text: str) -> Action:
    if words and words[-1].startswith("+"):
        express = _express_word(words[-1], repr(text))
        base = _base_draw(words[:-1], text)
        return ExpressDraw(slot=getattr(base, "slot", 0), express=express)
    return _base_draw(words, text)


def _parse_tickets(words: list[str], text: str) -> Action:
    if len(words) == 1 and words[0].startswith("+"):
        return ExpressTickets(express=_express_word(words[0], repr(text)))
    return _base_tickets(words, text)


_PAY_TERM = re.compile(r"[a-z]+[0-9]{1,3}(\+[a-z]+[0-9]{1,3})*", re.ASCII)


def _parse_claim(words: list[str], text: str) -> Action:
    """The base ``claim ROUTE PAYMENT``, extended: ``[+N] [province LINE]`` after the payment, and payment terms
    also written apart (``white4 loco1``)."""
    where = repr(text)
    low = [w.lower() for w in words]
    line = ""
    if len(low) >= 2 and low[-2] == "province":
        line = low[-1]
        if line not in COLOURS:
            raise BadAction(f"{where}: {line!r} is not a province line (lines: {', '.join(COLOURS)})")
        words, low = words[:-2], low[:-2]
    express = 0
    if low and low[-1].startswith("+"):
        express = _express_word(low[-1], where)
        words, low = words[:-1], low[:-1]
    end = len(low)
    while end > 1 and _PAY_TERM.fullmatch(low[end - 1]):
        end -= 1
    if end == len(low) or end < 1:
        return _base_claim(words, text)                # the base parser says what is missing
    payment_text = "+".join(low[end:])
    if not express and not line:
        return _base_claim(words[:end] + [payment_text], text)
    route = _ref(words[:end], text, "route", "Jinju–Namwon")
    return ProvinceClaim(route=route, payment=parse_payment(payment_text, where), express=express, line=line)


def _parse_draft(words: list[str], text: str) -> Action:
    words = [w.lower() if i == 0 else w for i, w in enumerate(words)]      # names keep their case
    if words[:1] == ["pick"] and len(words) > 1:
        refs = _parse_keep(words[1:], text).tickets
        if len(refs) == 1:
            return DraftPick(ticket=refs[0])
    elif words[:1] == ["keep"]:
        return DraftKeep(tickets=_parse_keep(words[1:], text).tickets)
    raise BadAction(f"{text!r}: write 'draft pick TICKET' (one ticket, e.g. 'draft pick Gwangju–Yeosu') or "
                    "'draft keep A–B, C–D, E–F, G–H'")


register_action("draw", _parse_draw)
register_action("tickets", _parse_tickets)
register_action("claim", _parse_claim)
register_action("draft", _parse_draft)


# ---------------------------------------------------------------------------------------------
# the ticket draft

def drafted(state: GameState, seat: int) -> tuple[str, ...]:
    """The tickets ``seat`` has picked so far (secret)."""
    return tuple(state.players[seat].get("drafted", ()))


def _draft_pick_pending(seat: int, packet: Sequence[str], rnd: int, tail: tuple = ()) -> Pending:
    # (new_pending inline, an open Pending filled by plain stores: the frozen class's __init__ sets each field
    # through object.__setattr__, slowly, and the draft makes one of these per seat and round)
    p = _OpenPending()
    p.kind = "draft_pick"
    p.seat = seat
    p.data = ((("packet", packet if packet.__class__ is tuple else tuple(packet)),)
              + (tail or _draft_pick_tail(len(packet), rnd)))          # (tail: the caller's, for this size and round)
    p.__class__ = Pending
    return p


@lru_cache(maxsize=None)
def _draft_pick_tail(cards: int, rnd: int) -> tuple:
    """A pick step's data after its packet (round, rule, text), made once per packet size and round: the draft
    makes a step per seat and round, and only its packet differs."""
    return (("round", rnd), ("rule", "SK-SETUP-3"),
            ("text", f"draft round {rnd} of {DRAFT_HAND}: pick 1 of the {_plural(cards, 'ticket')} in your hand; "
                     f"the rest go to the player on your left"))


def _pass_hands(players: list, rnd: int, seat: int = -1, picked: tuple = ()) -> list[Pending]:
    """SK-SETUP-3, everyone has picked in round ``rnd``: the rest of each hand goes to the player on the left (the
    next seat) as the next round's hand; ``players`` (a list) loses the hands set aside. The new pending picks.
    ``picked``: ``seat``'s data with the round's last pick, when ``players`` still holds that seat as it was before
    the pick (the quick pick: the picking player is then built once, here)."""
    n = len(players)
    passing = []
    for s, p in enumerate(players):
        ext = p.ext if s != seat else picked           # pairs_set(ext, "passing", None), the hand read on the way
        if len(ext) == 3 and ext[2][0] == "passing" and ext[0][0] == "drafted" and ext[1][0] == "express":
            hand = ext[2][1]                           # (the draft's usual player, without a loop and a sort)
            ext = ext[:2]
        else:
            kept = []
            hand = None
            for kv in ext:
                if kv[0] != "passing":
                    kept.append(kv)
                elif hand is None:
                    hand = kv[1]
            kept.sort(key=_key)
            ext = tuple(kept)
        passing.append(hand if hand is not None else ())      # (_draft_pick_pending makes a tuple of a list)
        players[s] = new_player(p.hand, p.trains, p.tickets, p.route_points, ext)
    out = []                                           # (plain loops here: a comprehension is a call of its own)
    cards = len(passing[0])                            # (the usual draft passes hands of one size: their steps' tail
    tail = _draft_pick_tail(cards, rnd + 1)            # found once, not by each step: a cached call costs ~900
    for s in range(n):                                 # instructions)
        packet = passing[(s - 1) % n]
        out.append(_draft_pick_pending(s, packet, rnd + 1, tail if len(packet) == cards else ()))
    return out


_key = itemgetter(0)


def _end_draft(players: list, seat: int = -1, picked: tuple = ()) -> list[Pending]:
    """SK-SETUP-4, the draft's last pick made: each seat keeps 4 of its picks; ``players`` (a list) loses the
    picks and the emptied hands set aside. The new pending keeps. (``seat`` and ``picked``: see _pass_hands.)"""
    out = []
    for s, p in enumerate(players):
        ext = p.ext if s != seat else picked
        if len(ext) == 3 and ext[0][0] == "drafted" and ext[1][0] == "express" and ext[2][0] == "passing":
            out.append(_draft_keep_pending(s, ext[0][1]))
            ext = (ext[1],)                            # (the draft's usual player, without a loop and a sort)
        else:
            out.append(_draft_keep_pending(s, pairs_get(ext, "drafted", ())))
            kept = []                                  # (a plain loop: a comprehension is a call of its own)
            for kv in ext:
                if kv[0] != "passing" and kv[0] != "drafted":
                    kept.append(kv)
            kept.sort(key=_key)
            ext = tuple(kept)
        players[s] = new_player(p.hand, p.trains, p.tickets, p.route_points, ext)
    return out


@lru_cache(maxsize=None)
def _draft_pick(text: str, seat: int) -> "DraftPick":
    """The one shared (immutable) DraftPick of a ticket text and seat, as the lists of legal actions hand it out."""
    return DraftPick(ticket=text, seat=seat)


@lru_cache(maxsize=None)
def _keep_positions(n: int) -> tuple[tuple[int, ...], ...]:
    """The positions of the tickets each draft keep of ``n`` picked tickets keeps, in ``pending_actions``' order
    (``combinations``' order), each with the positions it returns: the random bot's keep is the one at its random
    index, read from the few made once per size instead of counted out for each keep (``bots._nth_combination``),
    and the quick keep sorts the tickets out by those positions."""
    return tuple((kept, tuple(j for j in range(n) if j not in kept)) for kept in combinations(range(n), DRAFT_KEEP))


def _draft_keep_pending(seat: int, offered: Sequence[str]) -> Pending:
    return new_pending("draft_keep", seat, (("min_keep", DRAFT_KEEP), ("offered", tuple(offered)))
                       + _draft_keep_tail(len(offered)))


@lru_cache(maxsize=None)
def _draft_keep_tail(n: int) -> tuple:
    """A keep step's data after its offer (rule, text), made once per number of picked tickets."""
    return ("rule", "SK-SETUP-4"), ("text", f"keep exactly {DRAFT_KEEP} of your {_plural(n, 'picked ticket')}")


def _route(v: Variant, ref):
    """``find_route(v.map, ref)``, a canonical route text answered from the variant's table without parsing."""
    found = v.route_table.by_label.get(ref) if ref.__class__ is str else None
    return found if found is not None else find_route(v.map, ref)


def _ticket(v: Variant, ref):
    """``find_ticket(v.map, ref)``, a canonical ticket text answered from the variant's table without parsing."""
    tid = v.route_table.ticket_by_text.get(ref) if ref.__class__ is str else None
    return v.map.ticket(tid) if tid is not None else find_ticket(v.map, ref)


def _ticket_ids(v: Variant, action, refs) -> tuple[str, ...]:
    """The ids of tickets named by id or by cities (BadAction naming the one that is unknown)."""
    out = []
    by_text = v.route_table.ticket_by_text            # the canonical texts, without parsing
    for ref in refs:
        tid = by_text.get(ref) if ref.__class__ is str else None
        if tid is None:
            try:
                tid = find_ticket(v.map, ref).id
            except MapError as e:
                raise BadAction(f"{action}: {e}") from None
        out.append(tid)
    return tuple(out)


class TicketDraft(Feature):
    """SK-SETUP-3/4: simultaneous pick rounds (pass left = to the next seat), then keep exactly 4."""

    name = "ticket_draft"
    pending_kinds = ("draft_pick", "draft_keep")
    setup_words = (f"a draft: {DRAFT_HAND} dealt to each, pick 1 and pass the rest left until each has picked "
                   f"{DRAFT_HAND}, then keep exactly {DRAFT_KEEP}")
    setup_returns_words = "shuffled into the deck with the undealt ones"
    step_words = {"draft_pick": "pick a ticket (the draft)", "draft_keep": "keep exactly 4 drafted tickets"}
    #: pending kind -> the action that keeps ticket ids: the views show it as a ticket choice (tick, then keep)
    ticket_choices = {"draft_keep": DraftKeep}
    player_data = ("drafted", "passing")

    def data_problems(self, v, state) -> list[str]:
        from ..board.featuredata import is_texts, is_whole
        out = [f"{_seat_name(seat)}'s draft cards ({key}) must be a list of ticket ids"
               for seat, p in enumerate(state.players) for key in self.player_data if not is_texts(p.get(key, ()))]
        for q in state.pending:
            if q.kind == "draft_pick" and not (is_texts(q.get("packet")) and is_whole(q.get("round"), 1, DRAFT_HAND)):
                out.append(f"{_seat_name(q.seat)}'s draft pick must hold a packet of ticket ids and a round "
                           f"1–{DRAFT_HAND} ({v.rule('SK-SETUP-3')})")
            if q.kind == "draft_keep" and not is_texts(q.get("offered")):
                out.append(f"{_seat_name(q.seat)}'s draft keep must offer ticket ids ({v.rule('SK-SETUP-4')})")
        return out

    def private_words(self, v, state, seat) -> str:
        """``seat``'s own draft so far (secret: show it to that seat or a teacher)."""
        mine = drafted(state, seat)
        p = state.pending_for(seat) if state.pending else None
        if p is None or p.kind != "draft_pick":
            return ""
        got = f"your picks so far: {ticket_words(v.map, mine)}" if mine else "no picks yet"
        return (f"Draft round {p.get('round')} of {DRAFT_HAND}: {got}; the other "
                f"{_plural(len(p.get('packet')) - 1, 'card')} of this hand go to the player on your left")

    def setup(self, v, tx) -> None:
        tx.pending = [_draft_pick_pending(p.seat, p.get("offered"), 1) for p in tx.pending if p.kind == "choose_tickets"]

    def handles(self, action) -> bool:
        return isinstance(action, DraftPick | DraftKeep)

    def pending_actions(self, v, state, pending) -> list:
        made = v.route_table.ticket_text                # id -> ticket_text(v.map, id), made once

        def text(t: str) -> str:
            return made.get(t) or ticket_text(v.map, t)
        if pending.kind == "draft_pick":
            return [_draft_pick(text(t), pending.seat) for t in pending.get("packet")]
        return [DraftKeep(tickets=tuple(text(t) for t in combo), seat=pending.seat)
                for combo in combinations(pending.get("offered"), DRAFT_KEEP)]

    def random_pending(self, v, state, pending, r):
        """The random bot's pick: ``pending_actions(v, state, pending)[r.index(len(...))]`` without listing them
        (the draft pick's ticket, or the keep's combination of 4, found by its index)."""
        table = _TERMS_LAST[1] if _TERMS_LAST[0] is v else _terms(v)[1]     # (v.route_table: see _TERMS_LAST)
        made = table.ticket_text
        if pending.kind == "draft_pick":
            for key, packet in pending.data:            # (pending.get("packet"), without the call)
                if key == "packet":
                    break
            else:
                packet = None
            if len(packet) > 1:
                j = r.index(len(packet))
            else:                                       # (the last round's one ticket: only the counter moves)
                r.skip(1)
                j = 0
            t = packet[j]
            pick = _draft_pick(made.get(t) or ticket_text(v.map, t), pending.seat)
            table.made = (pick, state, pending, packet, j)          # (read by the quick pick: see TicketDraft.quick)
            return pick
        offered = pairs_get(pending.data, "offered")   # (pending.get("offered"))
        choices = _keep_positions(len(offered))
        positions = choices[r.index(len(choices))]      # (kept, returned)
        names = []                                      # (a plain loop: a comprehension is a call of its own)
        for j in positions[0]:
            names.append(made.get(offered[j]) or ticket_text(v.map, offered[j]))
        keep = _OpenDraftKeep()                         # (not the frozen __init__: see _OpenProvinceClaim)
        keep.tickets = tuple(names)
        keep.seat = pending.seat
        keep.__class__ = DraftKeep
        table.made = (keep, state, pending, offered, positions)     # (read by the quick keep: see _quick_keep)
        return keep

    @staticmethod
    def canonical(v, action):
        """Tickets are recorded by their cities in the map's spelling (check() already found them)."""
        if isinstance(action, DraftPick):
            return replace(action, ticket=ticket_text(v.map, _ticket(v, action.ticket)))
        return replace(action, tickets=tuple(ticket_text(v.map, _ticket(v, t)) for t in action.tickets))

    def check(self, v, state, action, seat) -> None:
        p = state.pending_for(seat) if state.pending else None
        want = "draft_pick" if isinstance(action, DraftPick) else "draft_keep"
        rule = "SK-SETUP-3" if want == "draft_pick" else "SK-SETUP-4"
        if p is None or p.kind != want:
            if state.phase != "setup":
                raise IllegalAction("the ticket draft is over: it happens once, before the first turn",
                                    v.rule(rule), action, seat)
            now = "picking" if want == "draft_keep" else ("keeping 4 cards" if p is not None else "waiting for the others")
            raise IllegalAction(f"{_seat_name(seat)} cannot do that now (the draft is at: {now})", v.rule(rule),
                                action, seat)
        if isinstance(action, DraftPick):
            (tid,) = _ticket_ids(v, action, (action.ticket,))
            packet = p.get("packet")
            if tid not in packet:
                raise IllegalAction(f"{ticket_words(v.map, (tid,))} is not in the hand in front of {_seat_name(seat)} "
                                    f"(it holds {ticket_words(v.map, packet)})", v.rule(rule), action, seat)
            return
        if not isinstance(action.tickets, tuple):
            raise BadAction(f"{action!r}: the tickets must be a tuple of texts (each ticket's cities, or its id)")
        ids = _ticket_ids(v, action, action.tickets)
        if len(set(ids)) != len(ids):
            raise BadAction(f"{action}: a ticket is named twice")
        offered = p.get("offered")
        stray = [t for t in ids if t not in offered]
        if stray:
            raise IllegalAction(f"{ticket_words(v.map, stray)} {'is' if len(stray) == 1 else 'are'} not among "
                                f"{_seat_name(seat)}'s picked cards ({ticket_words(v.map, offered)})", v.rule(rule),
                                action, seat)
        if len(action.tickets) != DRAFT_KEEP:
            raise IllegalAction(f"each player keeps exactly {DRAFT_KEEP} of the {len(offered)} picked tickets — no "
                                f"more, no fewer; the action keeps {len(action.tickets)}", v.rule(rule), action, seat)

    def apply(self, v, tx, action, seat) -> None:
        if isinstance(action, DraftPick):
            self._pick(v, tx, action, seat)
        else:
            self._keep(v, tx, action, seat)

    def quick(self, v, state, action, trusted):
        """A draft pick named as ``pending_actions`` names it (SK-SETUP-3): the ticket to the seat's picks, the rest
        of its hand set aside to pass, and after the round's last pick the hands passed on (after the draft's last
        pick: the keeps, SK-SETUP-4) — the state ``apply`` makes, without a transaction."""
        if action.__class__ is DraftKeep:
            return self._quick_keep(v, state, action)
        if action.__class__ is not DraftPick:
            return None
        seat = action.seat
        pending = state.pending
        if (not pending or seat.__class__ is not int or action.ticket.__class__ is not str
                or state.market is not _full[0] and not _is_full(state.market)):
            return None
        t = _TERMS_LAST[1] if _TERMS_LAST[0] is v else _terms(v)[1]     # (v.route_table: see _TERMS_LAST)
        made = t.made
        if made[1] is state and made[0] is action and made[2] is pending[0]:
            # the random bot's pick for this very state, the first step's (random_pending): its step, packet and the
            # place of the ticket in it left in RouteTable.made, as engine._quick_claim reads a claim's
            _, _, p, packet, j = made
            tid = packet[j]
        else:
            for p in pending:                          # (state.pending_for(seat), without the method call)
                if p.seat == seat:
                    break
            else:
                return None
            if p.kind != "draft_pick":
                return None
            tid = t.ticket_by_text.get(action.ticket)
            for key, packet in p.data:                 # (p.get("packet"), without the call)
                if key == "packet":
                    break
            else:
                packet = None
            if tid not in packet:
                return None
            j = packet.index(tid)
        passing = packet[:j] + packet[j + 1:]           # (the rest of the packet, without a comprehension)
        if tid in passing or passing.__class__ is not tuple:      # (a card twice, or an edited packet: general)
            return None
        players = list(state.players)
        ps = players[seat]
        # pairs_set(pairs_set(ext, "drafted", drafted + (tid,)), "passing", the rest of the packet), in one go; the
        # draft's usual player (its picks so far and its express cards, or the cards alone) without a loop and a sort
        ext = ps.ext
        if len(ext) == 2 and ext[0][0] == "drafted" and ext[1][0] == "express" and ext[0][1].__class__ is tuple:
            ext = (("drafted", ext[0][1] + (tid,)), ext[1], ("passing", passing))
        elif len(ext) == 1 and ext[0][0] == "express":
            ext = (("drafted", (tid,)), ext[0], ("passing", passing))
        else:
            ext = []
            drafted = None
            for kv in ps.ext:
                k = kv[0]
                if k == "drafted":
                    if drafted is None:
                        drafted = kv[1]
                elif k != "passing":
                    ext.append(kv)
            ext.append(("drafted", (tuple(drafted) if drafted else ()) + (tid,)))
            ext.append(("passing", passing))
            ext.sort(key=_key)
            ext = tuple(ext)
        rest = []                                      # (the others' picks, in a plain loop: a comprehension is a
        for q in pending:                              # call of its own)
            if q.seat != seat:
                rest.append(q)
        if rest:
            players[seat] = new_player(ps.hand, ps.trains, ps.tickets, ps.route_points, ext)
        else:                                          # the round's last pick: the hands go round, and the picking
            for key, rnd in p.data:                    # player is built once, there (the round: p.get("round"),
                if key == "round":                     # without the two calls)
                    break
            else:
                rnd = None
            if rnd.__class__ is not int or rnd > DRAFT_HAND or len(players) != state.n_players:
                return None
            rest = _pass_hands(players, rnd, seat, ext) if rnd < DRAFT_HAND else _end_draft(players, seat, ext)
        s = _OpenState()                               # new_state inline (see engine._turn_over): a ply in ten
        s.variant = state.variant
        s.n_players = state.n_players
        s.seed = state.seed
        s.deck = state.deck
        s.market = state.market
        s.discard = state.discard
        s.ticket_decks = state.ticket_decks
        s.tickets_out = state.tickets_out
        s.claims = state.claims
        s.players = tuple(players)
        s.phase = state.phase
        s.current = state.current
        s.pending = tuple(rest)
        s.final_turns_left = state.final_turns_left
        s.turn = state.turn
        s.ply = state.ply + 1
        s.passes = state.passes
        s.shuffles = state.shuffles
        s.first_player = state.first_player
        s.ext = state.ext
        s.__class__ = GameState
        return s

    @staticmethod
    def _quick_keep(v, state, action):
        """Four drafted tickets kept (SK-SETUP-4): the rest returned to the deck; after the last keep the deck is
        shuffled and play begins."""
        seat = action.seat
        pending = state.pending
        names = action.tickets
        decks = state.ticket_decks
        name = v.settings.ticket_deck
        if (not pending or seat.__class__ is not int or names.__class__ is not tuple or len(names) != DRAFT_KEEP
                or state.market is not _full[0] and not _is_full(state.market)
                or len(decks) != 1 or decks[0][0] != name):        # (the one ticket deck: the pair set without a
            return None                                             # dict and a sort; other decks: the general path)
        table = _TERMS_LAST[1] if _TERMS_LAST[0] is v else _terms(v)[1]     # (v.route_table: see _TERMS_LAST)
        made = table.made
        kept, returned = [], []                        # (plain loops here: a generator or a comprehension costs more)
        if made[1] is state and made[0] is action and made[2] is pending[0]:
            # the random bot's keep for this very state, the first step's (random_pending): the tickets offered and
            # the positions kept and returned left in RouteTable.made, as for its draft pick (TicketDraft.quick)
            _, _, p, offered, (keep_at, back_at) = made
            if len(set(offered)) != len(offered):      # (a ticket twice: an edited offer, the general path's)
                return None
            for j in keep_at:
                kept.append(offered[j])
            for j in back_at:
                returned.append(offered[j])
        else:
            ids = []
            p = state.pending_for(seat)
            if p is None or p.kind != "draft_keep":
                return None
            by_text = table.ticket_by_text
            offered = p.get("offered")
            for t in names:
                t = by_text.get(t) if t.__class__ is str else None
                if t not in offered:
                    return None
                ids.append(t)
            if len(set(ids)) != DRAFT_KEEP:            # (a ticket twice: an edited offer, the general path's)
                return None
            for t in offered:
                (kept if t in ids else returned).append(t)
        players = list(state.players)
        q = players[seat]
        players[seat] = new_player(q.hand, q.trains, q.tickets + tuple(kept), q.route_points, q.ext)
        deck = decks[0][1] + tuple(returned)
        rest = []
        for x in pending:
            if x.seat != seat:
                rest.append(x)
        rest = tuple(rest)
        phase, current = state.phase, state.current
        if not rest:                                   # the last keep: the returns shuffled in, play begins
            deck = tuple(shuffled(deck, state.seed, "tickets/draft", 0))
            phase, current = "play", state.first_player
        return new_state(state.variant, state.n_players, state.seed, state.deck, state.market, state.discard,
                         ((name, deck),), state.tickets_out, state.claims, tuple(players), phase,
                         current, rest, state.final_turns_left, state.turn, state.ply + 1, state.passes,
                         state.shuffles, state.first_player, state.ext)

    @staticmethod
    def _pick(v, tx, action, seat) -> None:
        p = next(q for q in tx.pending if q.seat == seat)
        rnd = p.get("round")
        (tid,) = _ticket_ids(v, action, (action.ticket,))
        rest = tuple(t for t in p.get("packet") if t != tid)
        ps = tx.players[seat]
        ext = pairs_set(ps.ext, "drafted", tuple(ps.get("drafted", ())) + (tid,))
        tx.set_player(seat, ext=pairs_set(ext, "passing", rest))
        tx.pending = [q for q in tx.pending if q.seat != seat]
        if tx.events is not None:                      # (the words only when someone reads them: step, Game)
            tx.event("draft_pick", v.rule("SK-SETUP-3"),
                     f"draft round {rnd} of {DRAFT_HAND}: " + (f"the other {_plural(len(rest), 'card')} of the hand go "
                                                               f"to the left once everyone has picked" if rest else
                                                               "that was the hand's last card"))
        if tx.pending:
            return
        if rnd < DRAFT_HAND:
            tx.pending = _pass_hands(tx.players, rnd)
            tx.event("draft_pass", v.rule("SK-SETUP-3"),
                     f"Everyone picked: each player passes {_plural(DRAFT_HAND - rnd, 'card')} to the player on the left")
            return
        n = tx.s.n_players
        for s in range(n):
            tx.set_player(s, ext=pairs_set(tx.players[s].ext, "passing", None))
        for s in range(n):
            tx.pending.append(_draft_keep_pending(s, drafted_from(tx, s)))
            tx.set_player(s, ext=pairs_set(tx.players[s].ext, "drafted", None))
        tx.event("draft_done", v.rule("SK-SETUP-4"),
                 f"Everyone has picked {DRAFT_HAND} tickets: now each keeps exactly {DRAFT_KEEP}")

    @staticmethod
    def _keep(v, tx, action, seat) -> None:
        p = next(q for q in tx.pending if q.seat == seat)
        ids = _ticket_ids(v, action, action.tickets)
        kept = tuple(t for t in p.get("offered") if t in ids)
        returned = [t for t in p.get("offered") if t not in ids]
        tx.set_player(seat, tickets=tx.players[seat].tickets + kept)
        deck = v.settings.ticket_deck
        tx.decks().setdefault(deck, []).extend(returned)
        tx.pending = [q for q in tx.pending if q.seat != seat]
        tx.event("draft_keep", v.rule("SK-SETUP-4"),
                 f"{_seat_name(seat)} keeps {DRAFT_KEEP} tickets and returns {len(returned)}")
        if tx.pending:
            return
        tx.decks()[deck] = shuffled(tx.decks()[deck], tx.s.seed, "tickets/draft", 0)
        tx.phase = "play"
        tx.current = tx.s.first_player
        tx.event("setup_done", v.rule("SK-SETUP-4"),
                 f"The returned tickets are shuffled into the deck: {_seat_name(tx.current)} starts")

    def held_tickets(self, state) -> list[tuple[str, str]]:
        out = []
        for seat, p in enumerate(state.players):
            for key, words in (("drafted", "picked in the draft"), ("passing", "being passed in the draft")):
                out += [(t, f"{words} by {_seat_name(seat)}") for t in p.get(key, ())]
        for q in state.pending:
            for key in ("packet", "offered") if q.kind in self.pending_kinds else ():
                out += [(t, f"in {_seat_name(q.seat)}'s draft hand") for t in q.get(key, ())]
        return out

    def validate(self, v, state, problems) -> None:
        picks = [p for p in state.pending if p.kind == "draft_pick"]
        keeps = [p for p in state.pending if p.kind == "draft_keep"]
        if (picks or keeps) and state.phase != "setup":
            problems.append(f"a draft step is pending outside setup ({v.rule('SK-SETUP-3')})")
        if picks and keeps:
            problems.append(f"draft picks and the final keep are pending at once ({v.rule('SK-SETUP-3')})")
        rounds = {p.get("round") for p in picks}
        if len(rounds) > 1:
            problems.append(f"draft seats are in different rounds {sorted(rounds)} ({v.rule('SK-SETUP-3')})")
        for seat, pl in enumerate(state.players):
            got, passing = drafted(state, seat), pl.get("passing", ())
            mine = state.pending_for(seat)
            if rounds and state.phase == "setup":
                rnd = next(iter(rounds))
                done = rnd if mine is None else rnd - 1
                if len(got) != done:
                    problems.append(f"{_seat_name(seat)} has picked {len(got)} tickets in draft round {rnd}, "
                                    f"expected {done} ({v.rule('SK-SETUP-3')})")
                size = (DRAFT_HAND - rnd) if mine is None else None
                if mine is not None and (len(mine.get("packet", ())) != DRAFT_HAND + 1 - rnd or passing):
                    problems.append(f"{_seat_name(seat)}'s draft hand has the wrong size for round {rnd}")
                if size is not None and len(passing) != size:
                    problems.append(f"{_seat_name(seat)} passes {len(passing)} cards in round {rnd}, expected {size}")
            elif got or passing:
                problems.append(f"{_seat_name(seat)} holds draft cards outside the pick rounds ({v.rule('SK-SETUP-3')})")
        for p in keeps:
            if len(p.get("offered", ())) != DRAFT_HAND:
                problems.append(f"{_seat_name(p.seat)} keeps from {len(p.get('offered', ()))} cards, expected "
                                f"{DRAFT_HAND} ({v.rule('SK-SETUP-4')})")

    def observe(self, v, state, seat, view) -> None:
        for entry in view["players"]:
            s = entry["seat"]
            entry["draft_picked_count"] = len(drafted(state, s))
            if seat is None or seat == s:
                entry["draft_picked"] = list(drafted(state, s))
                entry["draft_passing"] = list(state.players[s].get("passing", ()))
        for entry, q in zip(view["pending"], state.pending):
            if q.kind == "draft_pick":
                entry["packet_count"] = len(q.get("packet"))
                entry["round"] = q.get("round")
            elif q.kind == "draft_keep":
                entry["offered_count"] = len(q.get("offered"))

    # -- determinization (ttr_nb.determinize): the other players' draft cards are out of sight --------------
    def visible_tickets(self, v, state, seat) -> tuple[str, ...]:
        """The draft cards ``seat`` holds in sight: its picks and the cards it is passing on."""
        return drafted(state, seat) + tuple(state.players[seat].get("passing", ()))

    def _hidden_places(self, state, seat) -> list[tuple[str, int, str]]:
        places = [(key, s, "") for s in range(state.n_players) if s != seat for key in ("drafted", "passing")]
        places += [("pending", i, key) for i, q in enumerate(state.pending) if q.seat != seat
                   for key in (("packet",) if q.kind == "draft_pick" else ("offered",) if q.kind == "draft_keep" else ())]
        return places

    def hidden_tickets(self, v, state, seat) -> list[int]:
        """How many cards each out-of-sight draft place holds (others' picks, passes, hands in front of them)."""
        out = []
        for where, i, key in self._hidden_places(state, seat):
            out.append(len(state.players[i].get(where, ())) if where != "pending" else len(state.pending[i].get(key)))
        return out

    def redeal_tickets(self, v, state, seat, groups) -> GameState:
        """``state`` with the hidden draft places holding ``groups`` (in the order of ``hidden_tickets``)."""
        players, pending = list(state.players), list(state.pending)
        for (where, i, key), ids in zip(self._hidden_places(state, seat), groups):
            if where == "pending":
                q = pending[i]
                pending[i] = Pending(q.kind, q.seat, pairs_set(q.data, key, tuple(ids)))
            elif ids:
                players[i] = replace(players[i], ext=pairs_set(players[i].ext, where, tuple(ids)))
        return replace(state, players=tuple(players), pending=tuple(pending))

    # -- the greedy bot ------------------------------------------------------------------------
    def bot_pending(self, v, state, pending):
        from ..bots import Reason, plan_for
        seat = pending.seat
        trains = state.players[seat].trains
        if pending.kind == "draft_pick":
            have = list(drafted(state, seat))
            best = None
            for t in pending.get("packet"):
                plan = plan_for(v, state, seat, have + [t])
                fits = not plan.impossible and plan.cost <= trains - 5
                key = (fits, v.map.ticket(t).points - 1.2 * plan.cost, t)
                if best is None or key > best[0]:
                    best = (key, t)
            name = ticket_words(v.map, (best[1],))
            return (DraftPick(ticket=ticket_text(v.map, best[1]), seat=seat),
                    Reason(f"picks {name}: it fits best with the cards already picked", "picks a ticket"))
        best = None
        for combo in combinations(pending.get("offered"), DRAFT_KEEP):
            plan = plan_for(v, state, seat, list(combo))
            points = sum(v.map.ticket(t).points for t in combo)
            value = points - 1.0 * plan.cost - 4 * max(0, plan.cost - (trains - 12)) - 100 * len(plan.impossible)
            key = (value, combo)
            if best is None or key > best[0]:
                best = (key, combo)
        combo = best[1]
        return (DraftKeep(tickets=tuple(ticket_text(v.map, t) for t in combo), seat=seat),
                Reason(f"keeps {ticket_words(v.map, combo)}: they share routes, most points for the trains",
                       f"keeps {DRAFT_KEEP} tickets"))


def drafted_from(tx, seat: int) -> tuple[str, ...]:
    return tuple(tx.players[seat].get("drafted", ()))


# ---------------------------------------------------------------------------------------------
# express cards on draws and ticket draws

@lru_cache(maxsize=None)
def _unused(left: tuple[int, ...], used: int) -> tuple[int, ...]:
    """The express cards ``left`` without the one ``used`` (SK-TURN-2), for the quick paths: the few answers made
    once (a cached call runs no Python code; the comprehension was a call of its own)."""
    return tuple([x for x in left if x != used])


def _use_express(tx, seat: int, value: int) -> None:
    p = tx.players[seat]
    left = tuple(x for x in p.get("express", ()) if x != value)
    tx.set_player(seat, ext=pairs_set(p.ext, "express", left))


def _express_problem(v, state, action, seat) -> None:
    e = action.express
    if type(e) is not int or e not in EXPRESS_VALUES:
        raise BadAction(f"{action!r}: an express card is +1, +2 or +3")
    left = express_left(state, seat)
    if e not in left:
        have = ", ".join(f"+{x}" for x in left) or "none"
        raise IllegalAction(f"{_seat_name(seat)} has already used the +{e} express card (each is used once per game; "
                            f"unused: {have})", v.rule("SK-TURN-2"), action, seat)


@lru_cache(maxsize=None)
def _express_choices(draws: tuple[int, ...], slots: tuple[int, ...], tickets: tuple[int, ...],
                     seat: int) -> tuple:
    """``ExpressCards.turn_actions`` in its order (each draw value with every slot, then the ticket draws), for the
    random bot: the one shared (immutable) tuple of a seat's express cards and the market's slots, made once (a
    few hundred in all), instead of the actions listed, or a sequence made, at each turn that asks."""
    return tuple([_express_draw(slot, e, seat) for e in draws for slot in slots]
                 + [ExpressTickets(express=e, seat=seat) for e in tickets])


@lru_cache(maxsize=None)
def _express_draw(slot: int, express: int, seat: int) -> ExpressDraw:
    """The one shared (immutable) ExpressDraw of a slot, express card and seat, as the random bot hands them out
    (a few dozen: slots 0-5, +1..+3, the seats), instead of a frozen dataclass built per pick."""
    return ExpressDraw(slot=slot, express=express, seat=seat)


_FULL_SLOTS = tuple(tuple(range(n + 1)) for n in range(8))     # a full market's slots (0: the deck), by its size

# a seat's express cards left, as a validated state holds them (a sorted tuple of some of EXPRESS_VALUES, or none) ->
# (their largest value, 0 for none; the boosts a province claim may add, (0,) + left): read by subscript (no call)
# where the pickers asked max(left) (a builtin whose argument parsing costs more than the dict's lookup) and
# (0,) + tuple(left); anything else (an edited state's list, an unsorted tuple) misses it and takes the calls
_EXPRESS_TERMS = {left: (max(left, default=0), (0,) + left)
                  for n in range(len(EXPRESS_VALUES) + 1) for left in combinations(EXPRESS_VALUES, n)}


class ExpressCards(Feature):
    """SK-SETUP-2, SK-TURN-2, SK-EXPRESS-1/2: +1/+2/+3 once each, boosting a card draw or a ticket draw."""

    name = "express"
    turn_words = ("boost one of them with an unused express card (+1, +2, +3)",)
    player_data = ("express",)

    def data_problems(self, v, state) -> list[str]:
        from ..board.featuredata import is_wholes
        return [f"{_seat_name(seat)}'s express cards must be a list of their values, some of 1, 2, 3 "
                f"({v.rule('SK-COMP-3')})" for seat, p in enumerate(state.players)
                if not is_wholes(p.get("express", ()), 1, 3)]

    def setup(self, v, tx) -> None:
        # (each player made by new_player, not tx.set_player: its keyword replace cost about 1.5 us a seat, a
        # tenth of what South Korea's setup adds to the base game's)
        players = tx.players
        for seat in range(tx.s.n_players):
            p = players[seat]
            players[seat] = new_player(p.hand, p.trains, p.tickets, p.route_points,
                                       pairs_set(p.ext, "express", EXPRESS_VALUES))

    def handles(self, action) -> bool:
        return isinstance(action, ExpressDraw | ExpressTickets)

    # -- for the views: express cards boost the draw buttons (SK-TURN-2) --------------------------------
    boost_label = "express card"

    def boost_options(self, v, state, seat) -> tuple[int, ...]:
        """The express values ``seat`` can still use (for the view's chooser)."""
        return express_left(state, seat)

    def boost(self, action, value: int):
        """A draw action boosted with the +``value`` express card."""
        from ..board.actions import DrawTickets
        if isinstance(action, DrawTickets):
            return ExpressTickets(express=value, seat=action.seat)
        return ExpressDraw(slot=getattr(action, "slot", 0), express=value, seat=action.seat)

    def is_boost(self, action) -> bool:
        return isinstance(action, ExpressDraw | ExpressTickets)

    def player_words(self, v, state, seat) -> str:
        """Public: the seat's express cards, used ones struck through (SK-TURN-2)."""
        left = express_left(state, seat)
        return "express " + " ".join(f"+{e}" if e in left else f"<s title='used'>+{e}</s>" for e in EXPRESS_VALUES) \
            + (f" <span style='color:#666'>({', '.join(f'+{e}' for e in EXPRESS_VALUES if e not in left)} used)</span>"
               if len(left) < len(EXPRESS_VALUES) else "")

    def turn_actions(self, v, state, seat) -> list:
        left = express_left(state, seat)
        if not left:
            return []
        out: list = []
        cards = len(state.deck) + sum(state.discard)
        slots = [0] + [i + 1 for i, c in enumerate(state.market) if c is not None]
        for e in left:
            if cards > e:
                out += [ExpressDraw(slot=s, express=e, seat=seat) for s in slots]
        deck = len(state.ticket_deck(v.settings.ticket_deck))
        out += [ExpressTickets(express=e, seat=seat) for e in left if deck > v.settings.ticket_draw]
        return out

    def bot_random(self, v, state, seat, r) -> tuple:
        """``turn_actions`` as the random bot reads it: the shared tuple of those actions (``_express_choices``)."""
        for key, left in state.players[seat].ext:      # (express_left: pairs_get, without the call)
            if key == "express":
                break
        else:
            left = ()
        if not left:
            return ()                                   # (no actions: a tuple's len() calls no Python method)
        try:
            most = _EXPRESS_TERMS[left][0]              # (the usual sorted tuple: max(left) without the call)
        except (KeyError, TypeError):
            left = tuple(left)
            most = max(left)
        market = state.market
        n = len(market)                                 # (a full market: None not in it, remembered: engine._is_full;
        slots = _FULL_SLOTS[n] if n < 8 and (market is _full[0] or _is_full(market)) else \
            (0,) + tuple(i + 1 for i, c in enumerate(market) if c is not None)        # n < 8: _FULL_SLOTS' sizes)
        cards = len(state.deck)
        if cards <= most:                               # (the discard pile only counts when the deck runs short)
            cards += sum(state.discard)
        st = v.settings
        name = st.ticket_deck
        for deck_name, tickets in state.ticket_decks:   # (state.ticket_deck(name), without the call)
            if deck_name == name:
                break
        else:
            tickets = ()
        return _express_choices(left if cards > most else tuple(e for e in left if cards > e), slots,
                                left if len(tickets) > st.ticket_draw else (), seat)

    def check(self, v, state, action, seat) -> None:
        if state.phase not in ("play", "last_round"):
            raise IllegalAction("express cards are used on turns, after the draft", v.rule("SK-TURN-2"), action, seat)
        _express_problem(v, state, action, seat)
        e = action.express
        if isinstance(action, ExpressTickets):
            deck = len(state.ticket_deck(v.settings.ticket_deck))
            if deck <= v.settings.ticket_draw:
                raise IllegalAction(f"the ticket deck holds only {deck}: an express card would draw nothing extra "
                                    "(interpretation)", v.rule("SK-EXPRESS-2"), action, seat)
            return
        if type(action.slot) is not int or not 0 <= action.slot <= len(state.market):
            raise BadAction(f"{action!r}: face-up cards are numbered 1–{len(state.market)} (0 = the deck)")
        cards = len(state.deck) + sum(state.discard)
        if cards <= e:
            raise IllegalAction(f"the deck and the discard pile hold {_plural(cards, 'card')}: the +{e} express card "
                                f"needs {e} of them and the normal draw after it at least one more (interpretation)",
                                v.rule("SK-EXPRESS-1"), action, seat)
        if action.slot and state.market[action.slot - 1] is None:
            raise IllegalAction(f"face-up slot {action.slot} is empty", v.rule("USA-DRAW-8"), action, seat)

    def apply(self, v, tx, action, seat) -> None:
        from ..board.engine import _apply_draw
        e = action.express
        _use_express(tx, seat, e)
        if isinstance(action, ExpressTickets):
            st = v.settings
            if tx.events is not None:
                tx.event("express", v.rule("SK-EXPRESS-2"), f"{_seat_name(seat)} uses the +{e} express card: "
                                                            f"{st.ticket_draw + e} tickets to choose from")
            tx.offer_tickets(seat, st.ticket_deck, st.ticket_draw + e, st.ticket_min_keep, "bottom")
            return
        for _ in range(e):                       # blind, from the top; a reshuffle as usual (USA-DRAW-7)
            tx.give_card(seat, tx.draw_card())
        if tx.events is not None:
            tx.event("express", v.rule("SK-EXPRESS-1"), f"{_seat_name(seat)} uses the +{e} express card and draws "
                                                        f"{_plural(e, 'card')} from the top of the deck")
        _apply_draw(tx, action.base(), seat, second=False)

    def quick(self, v, state, action, trusted):
        """A card draw boosted with an express card (SK-EXPRESS-1) when no reshuffle is needed: the card for the
        express card's value from the top of the deck, the card used, then the normal first draw by the engine's
        own quick path — the state ``apply`` makes, without a transaction; ticket draws: ``_quick_tickets``.
        Anything out of the ordinary takes the general path."""
        if action.__class__ is ExpressTickets:
            return self._quick_tickets(v, state, action, trusted)
        if action.__class__ is not ExpressDraw:
            return None
        seat = action.seat
        e = action.express
        deck = state.deck
        if (seat != state.current or seat.__class__ is not int or state.pending or state.phase not in _PLAYING
                or e.__class__ is not int or len(deck) <= e
                or state.market is not _full[0] and not _is_full(state.market)):
            return None
        players = list(state.players)
        p = players[seat]
        ext = p.ext
        for key, left in ext:                          # (pairs_get(ext, "express", ()), without the call)
            if key == "express":
                break
        else:
            left = ()
        slot = action.slot
        if not trusted and (e not in left or slot.__class__ is not int or not 0 <= slot <= len(state.market)):
            return None
        hand = list(p.hand)
        for card in deck[:e]:
            hand[card] += 1
        unused = _unused(tuple(left), e)               # (the one-key player data set without pairs_set's call)
        players[seat] = new_player(tuple(hand), p.trains, p.tickets, p.route_points,
                                   (("express", unused),) if len(ext) == 1 and ext[0][0] == "express"
                                   else pairs_set(ext, "express", unused))
        drawn = new_state(state.variant, state.n_players, state.seed, deck[e:], state.market, state.discard,
                          state.ticket_decks, state.tickets_out, state.claims, tuple(players), state.phase,
                          state.current, (), state.final_turns_left, state.turn, state.ply, state.passes,
                          state.shuffles, state.first_player, state.ext)
        # action.base() as the shared draw action draw_choices hands out (immutable), not a new one
        return _quick_draw(v, drawn, draw_deck_action(seat) if slot == 0 else draw_faceup_action(slot, seat), trusted)

    @staticmethod
    def _quick_tickets(v, state, action, trusted):
        """Tickets drawn with an express card (SK-EXPRESS-2): the card used, ticket_draw + its value offered as the
        seat's pending choice (keep at least 1, the others to the bottom) — the state ``apply`` makes."""
        seat = action.seat
        e = action.express
        if (seat != state.current or seat.__class__ is not int or state.pending or state.phase not in _PLAYING
                or e.__class__ is not int or state.market is not _full[0] and not _is_full(state.market)):
            return None
        st = v.settings
        name = st.ticket_deck
        pile = state.ticket_deck(name)
        if len(pile) <= st.ticket_draw:
            return None                                # check words the refusal
        players = list(state.players)
        p = players[seat]
        left = pairs_get(p.ext, "express", ())
        if not trusted and e not in left:
            return None
        players[seat] = new_player(p.hand, p.trains, p.tickets, p.route_points,
                                   pairs_set(p.ext, "express", _unused(tuple(left), e)))
        n = st.ticket_draw + e
        decks = dict(state.ticket_decks)
        decks[name] = pile[n:]
        pending = (new_pending("choose_tickets", seat, (("min_keep", st.ticket_min_keep),
                                                        ("offered", tuple(pile[:n])), ("returns", "bottom"))),)
        return new_state(state.variant, state.n_players, state.seed, state.deck, state.market, state.discard,
                         tuple(sorted(decks.items())), state.tickets_out, state.claims, tuple(players), state.phase,
                         seat, pending, state.final_turns_left, state.turn, state.ply + 1, 0, state.shuffles,
                         state.first_player, state.ext)

    def validate(self, v, state, problems) -> None:
        for seat, p in enumerate(state.players):
            left = p.get("express", ())
            if not isinstance(left, tuple) or list(left) != sorted(set(left)) or not set(left) <= set(EXPRESS_VALUES):
                problems.append(f"{_seat_name(seat)}'s express cards must be some of +1, +2, +3 once each "
                                f"({v.rule('SK-COMP-3')})")
            elif state.phase == "setup" and left != EXPRESS_VALUES:
                problems.append(f"{_seat_name(seat)} used an express card during the draft ({v.rule('SK-SETUP-2')})")

    def observe(self, v, state, seat, view) -> None:
        for entry in view["players"]:              # face up in front of each player (SK-SETUP-2): public
            left = express_left(state, entry["seat"])
            entry["express"] = list(left)
            entry["express_used"] = [x for x in EXPRESS_VALUES if x not in left]

    # -- the greedy bot ------------------------------------------------------------------------
    def bot_improve(self, v, state, seat, action, why, needs=None):
        """Boost a blind draw with the smallest express card when the plan still lacks many cards.

        ``needs`` is not used: a draw's boost does not depend on the plan. It is there because the greedy bot and
        the coach's playouts (``coach/policy.py``, which passes it by position) call every feature's
        ``bot_improve`` alike, and the province trains' ``bot_improve`` reads it."""
        left = express_left(state, seat)
        if not left or state.pending or not isinstance(action, DrawDeck | DrawFaceUp):
            return action, why
        if len(state.deck) + sum(state.discard) <= left[0] or state.players[seat].hand_size > 12:
            return action, why
        from ..bots import Reason
        boosted = ExpressDraw(slot=getattr(action, "slot", 0), express=left[0], seat=seat)
        more = f"; uses the +{left[0]} express card for {_plural(left[0], 'more card')} (few cards in hand)"
        return boosted, Reason(f"{why}{more}", f"{getattr(why, 'public', why)}{more}")


# ---------------------------------------------------------------------------------------------
# the province board

def claim_payments(v: Variant, route, hand: Sequence[int], most: int) -> list[Payment]:
    """Every payment of one colour (+ locomotives) for ``route`` from ``hand`` with length..``most`` cards
    (SK-PROV-3: extra matching cards): by size, then as ``engine.route_payments`` orders them (by colour, fewest
    locomotives first, all-locomotive last)."""
    out: list[Payment] = []
    for size in range(route.length, most + 1):
        pays = _payments_of_size(route, hand, size)
        if not pays:
            break                                   # a larger payment needs still more cards
        out += pays
    return out


def _payments_of_size(route, hand: Sequence[int], size: int) -> list[Payment]:
    """``claim_payments``' payments of exactly ``size`` cards, in its order (the engine's shared payment tuples)."""
    out = [payment(c, n, size - n) for c, most, count in _colour_rows(route, hand, size)
           for n in range(most, most - count, -1)]
    if hand[LOCO] >= size:
        out.append(payment(0, 0, size))
    return out


def _colour_rows(route, hand: Sequence[int], size: int) -> list[tuple[int, int, int]]:
    """(colour, most cards of it, how many payments) for each colour that pays ``size`` cards for ``route`` with
    locomotives standing in: its payments have most, most - 1, ... cards of the colour (``_payments_of_size``)."""
    low = max(1, size - hand[LOCO])
    rows = []
    for c in range(LOCO) if route.colour == GRAY else (COLOURS.index(route.colour),):
        most = min(hand[c], size)
        if most >= low:
            rows.append((c, most, most - low + 1))
    return rows


def _nth_claim(label: str, room: dict[str, tuple[int, int]], c0: int, boosts: tuple[int, ...], hand: Sequence[int],
               size: int, places: int, k: int, seat: int) -> "ProvinceClaim":
    """The ``k``-th province claim of ``size`` cards of a route (``label``; colour index ``c0``, -1: gray) in
    ``_options``' order, without listing them (the random bot's province pick): payment ``k // places`` of
    ``_payments_of_size`` with (express card, line) ``k % places`` of the ``places`` pairs of ``boosts`` x
    ``ProvinceBoard._targets`` that place its train (lowest <= size + express <= highest). Made as
    ``actions.new_claim`` makes a Claim (``_OpenProvinceClaim``), instead of the frozen __init__ (an
    object.__setattr__ a field)."""
    j = k % places
    if c0 >= 0:                                         # (one line: the j-th express card that places the train)
        line = COLOURS[c0]
        lo, hi = room[line]
        for e in boosts:
            if lo <= size + e <= hi:
                if not j:
                    break
                j -= 1
        else:
            raise IndexError(k)
    else:
        for e in boosts:
            value = size + e
            for line, (lo, hi) in room.items():
                if lo <= value <= hi:
                    if not j:
                        break
                    j -= 1
            else:
                continue
            break                                       # (the j-th pair found: out of both loops)
        else:
            raise IndexError(k)
    k //= places
    locos = hand[LOCO]
    low = size - locos if size - locos > 1 else 1
    pay = None
    for c in range(LOCO) if c0 < 0 else (c0,):
        have = hand[c]
        most = have if have < size else size
        if most >= low:
            if k <= most - low:
                pay = payment(c, most - k, size - most + k)
                break
            k -= most - low + 1
    claim = _OpenProvinceClaim()
    claim.route = label
    claim.payment = pay if pay is not None else payment(0, 0, size)
    claim.express = e
    claim.line = line
    claim.seat = seat
    claim.__class__ = ProvinceClaim
    return claim


def _placeable(v: Variant, state: GameState) -> dict[str, tuple[int, int]]:
    """line -> (lowest value that finds a free space, highest space): a train worth ``value`` can go on the line
    exactly when lowest <= value <= highest (SK-PROV-3/4). Read-only: the answer is cached per province board
    (it changes only when a train is placed there)."""
    for key, raw in state.ext:                          # (pairs_get(state.ext, "province", ()), without the call)
        if key == "province":
            break
    else:
        raw = ()
    global _PLACEABLE_LAST
    last = _PLACEABLE_LAST                              # the board of the last call: in play, mostly the same tuple
    if last[1] is raw and last[0] is v:
        return last[2]
    cache = v.__dict__.setdefault("_placeable", {})
    try:
        found = cache.get(raw)
    except TypeError:                                   # a hand-edited board of lists: no cache
        return _placeable_now(v, state)
    if found is None:
        if len(cache) >= 256:
            cache.clear()
        found = cache[raw] = _placeable_now(v, state)
    _PLACEABLE_LAST = (v, raw, found)
    return found


# (variant, province board, its room): _placeable's last answer, one tuple replaced whole; a module global rather than
# an entry of the variant's __dict__, whose load CPython 3.11 never specialises (see engine._TURN_TERMS). The board
# and variant are held there: their ids are not reused meanwhile.
_PLACEABLE_LAST: tuple = (None, None, None)


def _placeable_now(v: Variant, state: GameState) -> dict[str, tuple[int, int]]:
    taken: dict[str, set[int]] = {}
    for line, space, _ in province_trains(state):
        taken.setdefault(line, set()).add(space)
    out = {}
    for line, spaces in province_lines(v).items():
        full = taken.get(line)
        out[line] = (_first_free(spaces, full) if full else spaces[0], spaces[-1])
    return out


def _first_free(spaces: Sequence[int], taken) -> int:
    """The lowest of a line's ``spaces`` not ``taken``; one above the highest when all are."""
    for x in spaces:                                    # (a plain loop: a generator is a call of its own)
        if x not in taken:
            return x
    return spaces[-1] + 1


@lru_cache(maxsize=4096)
def _reach_of_spans(spans: tuple[tuple[int, int], ...], top: int) -> tuple[int, ...]:
    """For a route whose province lines' free values run from lowest to highest (``spans``): on how many of them a
    train of each value (the index, 0 to ``top``, the highest space, + the largest express card) finds a free
    space. Each answer built whole before it is kept (``lru_cache``: safe to share between threads)."""
    size = top + max(EXPRESS_VALUES) + 1
    starts = [0] * (size + 1)                           # +1 where a line's free values begin, -1 after they end
    for lo, hi in spans:                                # (conditional expressions: min() costs a builtin call)
        if lo <= hi:
            starts[lo if lo < size else size] += 1
            starts[hi + 1 if hi < size else size] -= 1
    return tuple(accumulate(starts[:size]))


def _province_top(v: Variant) -> int:
    """The highest space of the province board, once per variant: the largest highest value of every ``room``
    (``_placeable`` lists every line of the map with its last space)."""
    top = v.__dict__.get("_province_top")
    if top is None:
        top = v.__dict__["_province_top"] = max(spaces[-1] for spaces in province_lines(v).values())
    return top


# (variant, its route table, its province lines, the board's highest space): what the province code run every turn
# reads of its variant, for the last variant it ran for; one tuple replaced whole, the variant held there. A module
# global because CPython 3.11 never specialises a load of v.route_table (a cached property) or v.__dict__ (see
# engine._TURN_TERMS): read as ``last[1:] if last[0] is v else _terms(v)[1:]``.
_TERMS_LAST: tuple = (None, None, None, None)


def _terms(v: Variant) -> tuple:
    """``_TERMS_LAST`` made for ``v``."""
    global _TERMS_LAST
    _TERMS_LAST = (v, v.route_table, province_lines(v), _province_top(v))
    return _TERMS_LAST


def _province_places(room: dict[str, tuple[int, int]], top: int, c0: int, boosts: tuple[int, ...]) -> tuple[int, ...]:
    """For each train size (0 to ``top``) of a route of colour index ``c0`` (-1: gray): how many (express card,
    line) pairs of ``boosts`` (0: none) and the lines with a free space in the province ``room`` (``_placeable``)
    place its train. Kept by its line's span and the boosts (``_places_of_span``); a gray route's by the reach of
    every line (``_reach_of_spans``) and the boosts, the last gray room's reach kept by identity."""
    global _GRAY_LAST
    if c0 >= 0:
        return _places_of_span(room.get(COLOURS[c0]), boosts, top)
    last = _GRAY_LAST                                   # (room, top, reach): one tuple, replaced whole, never filled
    if last[0] is room and last[1] == top:              # (the room is held there: its id is not reused meanwhile)
        reach = last[2]
    else:
        reach = _reach_of_spans(tuple(room.values()), top)
        _GRAY_LAST = (room, top, reach)
    return _places_of_reach(reach, boosts, top)


@lru_cache(maxsize=4096)
def _places_of_span(span: tuple[int, int] | None, boosts: tuple[int, ...], top: int) -> tuple[int, ...]:
    """``_province_places`` of a route of one colour, whose line's free values run from lowest to highest (``span``;
    None: the board has no line of that colour), in one cached call; each answer built whole before it is kept."""
    return _places_of_reach(_reach_of_spans((span,) if span is not None else (), top), boosts, top)


@lru_cache(maxsize=4096)
def _places_of_reach(reach: tuple[int, ...], boosts: tuple[int, ...], top: int) -> tuple[int, ...]:
    """``_province_places`` from the reach of the route's lines (``_reach_of_spans``), each answer built whole
    before it is kept."""
    if boosts == (0,):                                  # (no express card left: the reach itself)
        return reach[:top + 1]
    return tuple(sum(reach[size + e] for e in boosts) for size in range(top + 1))


def _pick_claim(v: Variant, routes: int, room: dict[str, tuple[int, int]], boosts: tuple[int, ...],
                hand: Sequence[int], seat: int, r) -> list:
    """``ProvinceBoard.bot_random``'s claim among the claimable ``routes`` (a bit set, a train to spare), drawn
    from the counter ``r``: [the claim], or [] when no route has one."""
    last = _TERMS_LAST
    _, t, _, top = last if last[0] is v else _terms(v)
    locos = hand[LOCO]
    while routes:
        n = routes.bit_count()
        if n > 1:
            i = nth_bit(routes, r.index(n))
        else:                                           # (one route: its draw would only move the counter)
            r.skip(1)
            i = routes.bit_length() - 1
        routes ^= 1 << i
        # the route's claims in _options' order, by size: (payments of that size) x (express, line) pairs that
        # place a train of that value -- both counted, and only the claim picked made. Sizes whose trains reach
        # no free space add nothing; once a size has no payment, no larger one has.
        c0 = t.colour[i]
        if c0 < 0:
            haves = hand[:LOCO]
            places_of = _province_places(room, top, c0, boosts)
            end = top
        else:                                           # (_province_places' one-colour case, without its call)
            have = hand[c0]
            haves = (have,)
            places_of = _places_of_span(room.get(COLOURS[c0]), boosts, top)
            end = have + locos                          # (a larger size has no payment: not tried, only to break)
            if end > top:
                end = top
        counts = []
        total = 0
        for size in range(t.length[i], end + 1):
            places = places_of[size]
            if not places:
                continue
            low = size - locos if size - locos > 1 else 1
            pays = locos >= size                        # (colour, then all-locomotive payments: _colour_rows)
            for have in haves:
                if have >= low:
                    pays += (have if have < size else size) - low + 1
            if not pays:
                break
            counts.append((size, pays, places))
            total += pays * places
        if total:
            if total > 1:
                k = r.index(total)
            else:
                r.skip(1)
                k = 0
            for size, pays, places in counts:
                if k < pays * places:
                    return [_nth_claim(t.labels[i], room, c0, boosts, hand, size, places, k, seat)]
                k -= pays * places
    return []


def _express_bounds(v: Variant, room: dict[str, tuple[int, int]]) -> tuple:
    """(``room``, lowest, highest): the express cards ``most`` from lowest to highest are those with which every route
    of the map, of any length, has a claim of exactly its length that places a train in the province ``room``
    (``_placeable``): its line has a space for that value (each line of the board free from at most the shortest
    route's length + ``most`` up to at least the longest one's + ``most``; a one-colour route needs a line of its
    colour). Then an affordable route always has a province claim, and ``_pick_claim`` takes the first route it
    draws. Kept for the last room (``_ROOM_LAST``: ``ProvinceBoard.bot_random`` reads it there)."""
    global _ROOM_LAST
    shortest, longest = _route_lengths(v)
    if room:
        lowest, highest = -(1 << 62), 1 << 62           # (a plain loop: a generator is a call of its own)
        for lo, hi in room.values():
            if lo > lowest:
                lowest = lo
            if hi < highest:
                highest = hi
        _ROOM_LAST = (room, lowest - shortest, highest - longest)
    else:                                               # (no line: no express card places every route)
        _ROOM_LAST = (room, 1, 0)
    return _ROOM_LAST


def _route_lengths(v: Variant) -> tuple[int, int]:
    """(the shortest route's length, the longest's) once per variant; (0, a length no line reaches) when some
    one-colour route has no province line of its colour (then no express card places every route,
    ``_express_bounds``)."""
    found = v.__dict__.get("_route_lengths")
    if found is None:
        t = v.route_table
        lines = province_lines(v)
        if all(c < 0 or COLOURS[c] in lines for c in t.colour):
            found = (min(t.length), max(t.length))
        else:
            found = (0, 1 << 30)
        v.__dict__["_route_lengths"] = found
    return found


_ROUTES_LAST: tuple = (None, None, 0)


def _province_routes(v: Variant, state: GameState, seat: int) -> int:
    """The routes ``seat`` may claim with a province train: ``claimable_routes(affordable_only)`` with a train to
    spare, as a bit set (route order: the set bits, lowest first; a route picked at random leaves the set as it
    would leave a list). Worked out by ``_bot_idle``, which keeps the last answer by its state and seat (the random
    bot asks it first, then ``ProvinceBoard.bot_random`` for the same state)."""
    last = _ROUTES_LAST                                 # (state, seat, routes): one tuple, replaced whole
    if last[0] is not state or last[1] != seat:         # (the state is held there: its id is not reused meanwhile)
        _bot_idle(v, state, seat)
        last = _ROUTES_LAST
    return last[2]


class _LaterClaim(tuple):
    """``ProvinceBoard.bot_random``'s answer when the claim surely exists: one claim, made by ``_pick_claim`` from
    the counter state ``x`` (where the bot's draws stood) only if the bot takes it. A one-item tuple holding what
    ``_pick_claim`` needs, so that its len() (which the random bot asks every time) is the tuple's own, not a Python
    call; its item, read by index or by iteration, is the claim."""

    __slots__ = ()

    def __getitem__(self, k: int) -> "ProvinceClaim":
        if k != 0:
            raise IndexError(k)
        v, state, routes, room, boosts, hand, seat, x = tuple.__getitem__(self, 0)
        claim = _pick_claim(v, routes, room, boosts, hand, seat, Counter.of_state(x))[0]
        v.route_table.made = (claim, state)             # legal there by construction (see ProvinceBoard.quick)
        return claim

    def __iter__(self):
        yield self[0]


_GRAY_LAST: tuple = (None, None, None)
_ROOM_LAST: tuple = (None, None, None)


class ProvinceBoard(Feature):
    """SK-PROV-1..6, SK-EXPRESS-3, SK-SCORE-2/3: a train on the province board with a claim; line bonuses."""

    name = "province"
    score_words = ("province board: each line pays once, at the end, to the players ranked by the sum of their spaces "
                   "on it: "
                   + "; ".join(f"{n} players {'/'.join(map(str, pays))}" for n, pays in sorted(PROVINCE_BONUS.items())))
    table_data = ("province",)

    def data_problems(self, v, state) -> list[str]:
        from ..board.featuredata import is_whole
        raw = state.get("province", ())
        if isinstance(raw, tuple) and all(isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], str)
                                          and is_whole(x[1]) and is_whole(x[2]) for x in raw):
            return []
        return [f"the province board must be a list of [line, space, seat] entries, e.g. [\"white\", 6, 0] "
                f"({v.rule('SK-COMP-5')})"]

    def handles(self, action) -> bool:
        return isinstance(action, ProvinceClaim)

    def turn_actions(self, v, state, seat) -> list:
        return self._claims(v, state, seat)

    def bot_random(self, v, state, seat, r):
        """The random bot's pick among province claims without listing them all: a route at random, then one of
        its claims with a placement at random (so each route is equally likely, as for plain claims). The claims
        of a route are counted by size (payments by arithmetic) and only the one picked is made (``_pick_claim``).
        While the seat has express cards, the express picker's dozen or so actions come before this claim in the
        random bot's one draw among them (``bots._own_action``), so the claim is seldom taken: when every claimable
        route surely has a claim (``_express_bounds``) the pick is known to take two draws, which are only
        counted off here, and the claim is made from the same numbers if the bot takes it (``_LaterClaim``)."""
        last = _ROUTES_LAST                                 # (_province_routes' answer kept for the state and
        if last[0] is state and last[1] == seat:            # seat, as _bot_idle most often leaves it, without the
            routes = last[2]                                # call)
        else:
            routes = _province_routes(v, state, seat)
        if not routes:
            return []
        p = state.players[seat]
        for key, raw in state.ext:                          # (_placeable's answer kept for the board, without the
            if key == "province":                           # call: pairs_get(state.ext, "province", ()))
                break
        else:
            raw = ()
        last = _PLACEABLE_LAST
        room = last[2] if last[1] is raw and last[0] is v else _placeable(v, state)
        for key, left in p.ext:                             # (express_left: pairs_get, without the call)
            if key == "express":
                break
        else:
            left = ()
        try:                                                # (max(left), (0,) + left: the usual cards' by
            most, boosts = _EXPRESS_TERMS[left]             # subscript, without the calls)
        except (KeyError, TypeError):
            most = max(left) if left else 0
            boosts = (0,) + tuple(left)
        if left:
            last = _ROOM_LAST                               # (room, lowest, highest): replaced whole; the room is
            if last[0] is not room:                         # held there, its id is not reused meanwhile
                last = _express_bounds(v, room)
            every = last[1] <= most <= last[2]              # every affordable route has a claim (_express_bounds)
        else:
            every = False
        if every:
            later = _LaterClaim(((v, state, routes, room, boosts, p.hand, seat, r.state),))
            r.skip(2)                                       # the route's draw and the claim's
            return later
        found = _pick_claim(v, routes, room, boosts, p.hand, seat, r)     # (leaves _TERMS_LAST for v)
        if found:                                           # legal for this state by construction: its route from
            _TERMS_LAST[1].made = (found[0], state)         # _province_routes, its payment, express card and line
        return found                                        # from the hand and room (ProvinceBoard.quick trusts it)

    @staticmethod
    def _targets(route, room) -> list[tuple[str, int, int]]:
        """The province lines a train of ``route`` may go on that have a free space: (line, lowest value, highest)."""
        if route.colour != GRAY:
            span = room.get(route.colour)
            return [(route.colour, span[0], span[1])] if span is not None and span[0] <= span[1] else []
        return [(line, lo, hi) for line, (lo, hi) in room.items() if lo <= hi]

    def _claims(self, v, state, seat) -> list:
        return [ProvinceClaim(*o, seat) for o in self._options(v, state, seat)]

    def _options(self, v, state, seat, routes=None, room=None, boosts=None) -> list:
        """The province claims as (route text, payment, express, line), in ``turn_actions``' order."""
        from ..board.engine import claimable_routes
        p = state.players[seat]
        if room is None:
            room = _placeable(v, state)
        top = max(hi for _, hi in room.values())
        if boosts is None:
            boosts = (0,) + express_left(state, seat)
        out = []
        for route in routes if routes is not None else claimable_routes(v, state, seat, affordable_only=True):
            if p.trains < route.length + 1:
                continue
            targets = self._targets(route, room)
            if not targets:
                continue
            name = v.route_table.labels[route.index]           # = route_text(v.map, route)
            for pay in claim_payments(v, route, p.hand, top):
                size = pay[0][1] + (pay[1][1] if len(pay) > 1 else 0)
                for e in boosts:
                    value = size + e
                    for line, lo, hi in targets:
                        if lo <= value <= hi:
                            out.append((name, pay, e, line))
        return out

    def claim_size_problem(self, v, route, size):
        """A plain claim with more cards than spaces: extra cards count only towards a province placement."""
        if size <= route.length:
            return None
        line = "COLOUR" if route.colour == GRAY else route.colour
        return (f"{route.a}–{route.b} has {route.length} spaces: a claim takes exactly {route.length} cards, more "
                f"only to put a train on a higher space of the province board — add 'province {line}' to the claim "
                f"(the payment has {size})", "SK-PROV-3")

    def check(self, v, state, action, seat) -> None:
        from ..board.engine import claim_problem, malformed_payment
        if state.phase not in ("play", "last_round"):
            raise IllegalAction("routes are claimed on turns, after the draft", v.rule("SK-TURN-1"), action, seat)
        if not isinstance(action.route, str) or not isinstance(action.payment, tuple) or not isinstance(action.line, str):
            raise BadAction(f"{action!r}: route, payment and line must be a route (id or cities), card pairs and a colour")
        problem = malformed_payment(v, action.payment)
        if problem:
            raise BadAction(f"{action!r}: {problem}")
        try:
            route = _route(v, action.route)
        except MapError as e:
            raise BadAction(f"{action}: {e}") from None
        if action.express:
            _express_problem(v, state, action, seat)
        if not action.line:
            raise IllegalAction("an express card on a claim raises the province space (as if more cards were played), so "
                                f"it needs a province placement: add 'province "
                                f"{'COLOUR' if route.colour == GRAY else route.colour}'", v.rule("SK-EXPRESS-3"),
                                action, seat)
        problem = claim_problem(v, state, seat, route, None)
        if problem:
            raise IllegalAction(problem[0], v.rule(problem[1]), action, seat)
        p = state.players[seat]
        if p.trains < route.length + 1:
            raise IllegalAction(f"{route.a}–{route.b} takes {route.length} trains and the province board one more; "
                                f"{_seat_name(seat)} has {p.trains}", v.rule("SK-PROV-1"), action, seat)
        pay = action.payment
        size = sum(n for _, n in pay)
        colours = [k for k, _ in pay if k != LOCO]
        if len(colours) > 1:
            raise IllegalAction("all cards played for a route must be of one colour (locomotives may stand in): the "
                                f"payment mixes {' and '.join(CARD_NAMES[k] for k in colours)}", v.rule("USA-CLAIM-1"),
                                action, seat)
        if colours and route.colour != GRAY and CARD_NAMES[colours[0]] != route.colour:
            raise IllegalAction(f"{route.a}–{route.b} is a {route.colour} route: it takes {route.colour} cards (or "
                                f"locomotives), not {CARD_NAMES[colours[0]]}", v.rule("USA-CLAIM-2"), action, seat)
        if size < route.length:
            raise IllegalAction(f"{route.a}–{route.b} has {route.length} spaces: it takes at least {route.length} cards "
                                f"(more only to reach a higher province space); the payment has {size}",
                                v.rule("SK-PROV-3"), action, seat)
        for k, n in pay:
            if p.hand[k] < n:
                raise IllegalAction(f"the payment needs {n} {CARD_NAMES[k]} card{'s' if n != 1 else ''} but the hand "
                                    f"holds {p.hand[k]}", v.rule("USA-CLAIM-1"), action, seat)
        lines = province_lines(v)
        if action.line not in lines:
            raise IllegalAction(f"the province board has no {action.line} line (lines: {', '.join(lines)})",
                                v.rule("SK-PROV-2"), action, seat)
        if route.colour != GRAY and action.line != route.colour:
            raise IllegalAction(f"{route.a}–{route.b} is {route.colour}: its train goes on the {route.colour} line, not "
                                f"the {action.line} one (only a gray route lets you choose)", v.rule("SK-PROV-2"),
                                action, seat)
        space, why = province_space(v, state, action.line, size + action.express)
        if space is None:
            rule = "SK-PROV-3" if "ends at space" in why else "SK-PROV-4"
            raise IllegalAction(why + " (interpretation)", v.rule(rule), action, seat)

    def quick(self, v, state, action, trusted):
        """A province claim as ``turn_actions`` and the bots make it (a canonical route text, a payment the engine
        listed), plainly legal: the route claimed, its cards to the discard pile, one more train onto its province
        space, the express card used, the turn over — the state ``apply`` makes, without a transaction (SK-PROV-1..6,
        SK-EXPRESS-3). None when anything is out of the ordinary (``check`` words a refusal)."""
        global _PLACEABLE_LAST
        seat = action.seat
        if (seat != state.current or seat.__class__ is not int or state.pending or state.phase not in _PLAYING
                or state.market is not _full[0] and not _is_full(state.market)):
            return None
        last = _TERMS_LAST
        _, t, lines, _ = last if last[0] is v else _terms(v)
        route = t.by_label.get(action.route) if action.route.__class__ is str else None
        if route is None:
            return None
        i = route.index
        pay = action.payment
        e = action.express
        line = action.line
        players = list(state.players)
        p = players[seat]
        left = pairs_get(p.ext, "express", ()) if e else ()      # (read only when an express card is used)
        claims = state.claims
        # (a claim the random bot just made for this very state, ProvinceBoard.bot_random's, is legal as far as the
        # checks below go: it leaves both in RouteTable.made, as the base game's claims do for engine._quick_claim)
        made = t.made
        if not trusted and (made[0] is not action or made[1] is not state):
            colour = t.colour[i]
            first = pay[0][0] if interned(pay) and pay[-1][0] <= LOCO else None     # (not another game's wilds)
            if (first is None or claims[i] != FREE or p.trains <= route.length or e.__class__ is not int
                    or e and e not in left or line.__class__ is not str
                    or (COLOURS[colour] != line if colour >= 0 else line not in lines)
                    or first != LOCO and colour >= 0 and first != colour
                    or t.twins[i] and not allowed_routes(t, state, seat) >> i & 1):     # twin_problem, cached
                return None
        size = 0
        hand = list(p.hand)
        discard = list(state.discard)
        for k, n in pay:                                # (extra cards only raise the province space, SK-PROV-3)
            have = hand[k] - n
            if have < 0:                                # (more than the hand holds: check words it)
                return None
            hand[k] = have
            discard[k] += n
            size += n
        if size < route.length:
            return None
        for key, board in state.ext:                    # (pairs_get(state.ext, "province", ()), without the call)
            if key == "province":
                break
        else:
            board = ()
        spaces = lines[line]
        full = set()                                    # (a plain loop: a comprehension is a call of its own)
        for ln, sp, _ in board:
            if ln == line:
                full.add(sp)
        value = size + e                                # (_space_for's usual answer, the value's own space, first)
        space = value if value in spaces and value not in full else _space_for(spaces, full, value)
        if space is None:
            return None
        ext = p.ext if not e else pairs_set(p.ext, "express", _unused(tuple(left), e))
        q = _OpenPlayer()                               # new_player inline (as engine._quick_claim)
        q.hand = tuple(hand)
        q.trains = p.trains - route.length - 1
        q.tickets = p.tickets
        q.route_points = p.route_points + t.points[i]
        q.ext = ext
        q.__class__ = PlayerState
        players[seat] = q
        new_claims = list(claims)                       # (one list copied: cheaper than two slices joined)
        new_claims[i] = seat
        new_claims = tuple(new_claims)
        new_board = tuple(board) + ((line, space, seat),)
        table = state.ext                               # (pairs_set's one-key case, the usual table: without the call)
        table = (("province", new_board),) if len(table) == 1 and table[0][0] == "province" else \
            pairs_set(table, "province", new_board)
        new = _turn_over(v, state, seat, state.deck, state.market, tuple(discard), new_claims, tuple(players), None,
                         table)                 # (ext by position: a keyword argument costs the call a names tuple)
        if new is not None:
            t.claimed(claims, new_claims, i, seat)
            last = _PLACEABLE_LAST
            if last[1] is board and last[0] is v:         # the new board's room from the old one: one line moved
                room = last[2]
                lo, top = room[line]
                if space == lo:                         # (else the room stays that very dict: rooms are read-only)
                    full.add(space)
                    room = {**room, line: (_first_free(spaces, full), top)}
                _PLACEABLE_LAST = (v, new_board, room)
        return new

    @staticmethod
    def canonical(v, action):
        """The route by its cities in the map's spelling, the payment in card order (check() found the route); the
        action itself when it is already so (a payment the engine listed stays that very tuple)."""
        label = route_text(v.map, _route(v, action.route))
        pay = action.payment
        if label == action.route and list(pay) == sorted(pay):
            return action
        return replace(action, route=label, payment=tuple(sorted(pay)))

    def apply(self, v, tx, action, seat) -> None:
        route = _route(v, action.route)
        size = sum(n for _, n in action.payment)
        value = size + action.express
        space, how = province_space(v, tx.s, action.line, value)
        tx.claim_route(seat, route, action.payment)
        if action.express:
            _use_express(tx, seat, action.express)
        p = tx.players[seat]
        tx.set_player(seat, trains=p.trains - 1)
        tx.ext = pairs_set(tx.ext, "province", tuple(pairs_get(tx.ext, "province", ())) + ((action.line, space, seat),))
        if tx.events is not None:
            boost = f" + the +{action.express} express card" if action.express else ""
            tx.event("province", v.rule("SK-PROV-6" if action.express else "SK-PROV-3"),
                     f"{_seat_name(seat)} puts a train on the {action.line} province line: {_plural(size, 'card')}"
                     f"{boost} = {value}, so {how}")
        tx.end_turn()

    def trains_elsewhere(self, state, seat) -> int:
        return sum(1 for _, _, s in province_trains(state) if s == seat)

    def with_trains(self, v, ext, trains, players: int):
        """A state ``ext`` with these (line, space, seat) trains added to the province board (set-up positions:
        ``ttr_nb.position(..., province=...)``); ``validate`` then checks lines, spaces and one train a space."""
        out = []
        for item in trains:
            if not (isinstance(item, (tuple, list)) and len(item) == 3):
                raise BadAction(f"province: each train is (line colour, space, seat), not {item!r}")
            line, space, seat = item
            if line not in province_lines(v):
                raise BadAction(f"province: there is no {line!r} line (lines: {', '.join(province_lines(v))})")
            if type(space) is not int or type(seat) is not int or not 0 <= seat < players:
                raise BadAction(f"province: {item!r} needs a whole-number space and a seat 0..{players - 1}")
            out.append((line, space, seat))
        return pairs_set(ext, "province", tuple(tuple(x) for x in pairs_get(ext, "province", ())) + tuple(out))

    @staticmethod
    def _awards(v, state, notes: dict[int, list[str]] | None) -> dict[int, int]:
        """seat -> its province board points (SK-SCORE-2); each line's ranking in words into ``notes`` (per seat)
        unless None."""
        by_line: dict[str, dict[int, list[int]]] = {line: {} for line in province_lines(v)}
        for colour, space, seat in province_trains(state):     # each line's spaces by seat, in one pass
            if colour in by_line:
                by_line[colour].setdefault(seat, []).append(space)
        awards: dict[int, int] = {}
        for line, mine in by_line.items():                     # (province_ranking of each line)
            for rank, r in enumerate(_ranking(mine, state.n_players), start=1):
                awards[r["seat"]] = awards.get(r["seat"], 0) + r["bonus"]
                if notes is not None:
                    notes.setdefault(r["seat"], []).append(
                        f"{line} line: total {r['total']} (spaces {', '.join(map(str, r['spaces']))}), rank {rank}: "
                        f"{r['bonus']} points ({v.rule('SK-SCORE-2')})")
        return awards

    def score(self, v, state, sheet) -> None:
        notes: dict[int, list[str]] = {}
        awards = self._awards(v, state, notes)
        sheet["players"] = [_with(ps, extras=ps.extras + (("province board", awards.get(ps.seat, 0)),),
                                    notes=ps.notes + tuple(notes.get(ps.seat, ()))) for ps in sheet["players"]]

    def score_points(self, v, state, completed) -> list[int]:
        """Per seat, what ``score`` adds: its province board points (SK-SCORE-2), ranked as ``_awards`` ranks each
        line (the sum of a seat's spaces, then its highest space, then the seat) from those two numbers alone,
        without the rankings' words and records (every game is scored so)."""
        lines = province_lines(v)
        mine: dict[tuple, list] = {}                    # (line, seat) -> [sum of its spaces, highest space]
        for line, space, seat in state.get("province", ()):
            if line in lines:
                found = mine.get((line, seat))
                if found is None:
                    mine[(line, seat)] = [space, space]
                else:
                    found[0] += space
                    if space > found[1]:
                        found[1] = space
        ranks: dict[str, list] = {}
        for (line, seat), (total, best) in mine.items():
            ranks.setdefault(line, []).append((-total, -best, seat))
        bonus = PROVINCE_BONUS.get(state.n_players, ())
        awards: dict[int, int] = {}
        for ranked in ranks.values():
            ranked.sort()
            for (_, _, seat), points in zip(ranked, bonus):     # (the places beyond the paid ones score 0)
                awards[seat] = awards.get(seat, 0) + points
        return [awards.get(seat, 0) for seat in range(state.n_players)]

    def validate(self, v, state, problems) -> None:
        lines = province_lines(v)
        seen: set[tuple[str, int]] = set()
        raw = state.get("province", ())
        if not isinstance(raw, tuple):
            problems.append("the province board must be a list of [line, space, seat]")
            return
        for item in raw:
            if not (isinstance(item, tuple) and len(item) == 3 and isinstance(item[0], str)
                    and all(type(x) is int for x in item[1:])):
                problems.append(f"a province board entry {item!r} is not [line, space, seat]")
                continue
            line, space, seat = item
            if line not in lines or space not in lines[line]:
                problems.append(f"the province board has no space {space} on a {line} line ({v.rule('SK-COMP-5')})")
            if not 0 <= seat < state.n_players:
                problems.append(f"a province train belongs to seat {seat}, which does not exist")
            if (line, space) in seen:
                problems.append(f"space {space} of the {line} line holds two trains ({v.rule('SK-PROV-3')})")
            seen.add((line, space))

    def observe(self, v, state, seat, view) -> None:
        view["province"] = {line: {"spaces": list(spaces),
                                   "trains": [{"space": s, "seat": o} for s, o in sorted(province_occupied(state, line).items())],
                                   "ranking": province_ranking(v, state, line)}
                            for line, spaces in province_lines(v).items()}
        view["province_bonus"] = list(PROVINCE_BONUS.get(state.n_players, ()))
        view["provisional"] = v.map.provisional_note
        for entry in view["players"]:
            entry["province_trains"] = self.trains_elsewhere(state, entry["seat"])

    def board_marks(self, v, state, marks) -> None:
        marks["province"] = [list(t) for t in province_trains(state)]

    # -- the greedy bot ------------------------------------------------------------------------
    def bot_improve(self, v, state, seat, action, why, needs=None):
        """With trains to spare, add a province train to a planned claim where it ranks first (or gains a rank).
        ``needs(route)``: the trains the seat's tickets still need besides ``route`` (default: the greedy bot's
        plan, ``bots.plan_for``; the coach's playouts give their own plan's)."""
        from ..board.actions import Claim
        if type(action) is not Claim or state.pending:
            return action, why
        from ..bots import Reason, plan_for
        route = _route(v, action.route)
        p = state.players[seat]
        if p.trains - route.length - 1 < 4:                 # not even the margin below is left
            return action, why
        size = sum(n for _, n in action.payment)
        lines = province_lines(v)
        best = None
        for line in (tuple(lines) if route.colour == GRAY else (route.colour,)):
            # express cards are worth more on draws (measured): on a claim only once the end is near
            for e in (0,) + (express_left(state, seat) if state.phase == "last_round" or p.trains < 15 else ()):
                space, _ = province_space(v, state, line, size + e)
                if space is None:
                    continue
                rank = province_ranking(v, state, line)
                others = [r for r in rank if r["seat"] != seat]
                mine = sum(next((r["spaces"] for r in rank if r["seat"] == seat), [])) + space
                beats = sum(1 for r in others if r["total"] < mine)
                key = (beats - len(others), -e, space, line)
                if best is None or key > best[0]:
                    best = (key, line, e, space)
        if best is None or best[0][0] < 0:
            return action, why
        # keep the trains the tickets still need, and a margin (a completed ticket's path is all the seat's own
        # routes: it adds no cost and no route, so the plan over all tickets is the plan over the open ones)
        if needs is None:
            plan = plan_for(v, state, seat, p.tickets)
            still = plan.cost - (route.length if route.id in plan.routes else 0)
        else:
            still = needs(route)
        if p.trains - route.length - 1 < still + 4:
            return action, why
        _, line, e, space = best
        boost = f" with the +{e} express card" if e else ""
        more = f"; puts a train on space {space} of the {line} province line{boost}: it leads that line"
        return (ProvinceClaim(route=route_text(v.map, route), payment=action.payment, express=e, line=line, seat=seat),
                Reason(f"{why}{more}", f"{getattr(why, 'public', why)}{more}"))


# ---------------------------------------------------------------------------------------------
# the variant

def _bot_idle(v: Variant, state: GameState, seat: int) -> bool:
    """``Variant.bot_idle``: ``seat`` has used its express cards and has no route to claim with a province train, so
    neither ``ExpressCards.bot_random`` nor ``ProvinceBoard.bot_random`` has an action (and neither draws a number):
    most turns of a game's second half that try them. One test instead of both pickers. It works out the seat's
    province routes (``_province_routes``) and keeps them in ``_ROUTES_LAST`` even when express cards are left: then
    the random bot asks ``ProvinceBoard.bot_random`` next, which reads them there (one call a turn fewer than asking
    a function of their own from each)."""
    global _ROUTES_LAST
    p = state.players[seat]
    trains = p.trains
    if trains < 2:
        routes = 0
    else:
        last = _TERMS_LAST
        t = last[1] if last[0] is v else _terms(v)[1]
        routes = claimable_mask(v, state, seat, True) & t.every[trains - 1 if trains <= t.top else t.top]
    _ROUTES_LAST = (state, seat, routes)
    if routes:
        return False
    for key, left in p.ext:                             # (express_left: pairs_get, without the call)
        if key == "express":
            return not left
    return True


SOUTH_KOREA_SETTINGS = Settings(
    trains=45,                                   # SK-COMP-1
    min_players=2, max_players=5,                # SK-COMP-1
    start_hand=4,                                # SK-SETUP-1
    setup_deals=(("regular", DRAFT_HAND),),      # SK-SETUP-3 (the deal; TicketDraft turns it into the draft)
    setup_min_keep=DRAFT_KEEP,                   # SK-SETUP-4
    ticket_draw=3, ticket_min_keep=1,            # base USA-TICKET-1/2; SK-EXPRESS-2 adds 1–3
    longest_bonus=0,                             # SK-SCORE-4: no longest-path bonus (and no globetrotter)
    twin_min_players=4,                          # SK-DOUBLE-1/2
    tie_breaks=("tickets",),                     # SK-SCORE-5: most tickets completed, then shared
)

# USA interpretations that do not hold here: (base rule id, why).
SOUTH_KOREA_SETTLED: tuple[tuple[str, str], ...] = (
    ("USA-SCORE-3", "There is no longest-path bonus in South Korea (SK-SCORE-4)."),
    ("USA-SCORE-4", "The Danish book says it: still tied after the most tickets completed, the players share the "
                    "victory ('deler de pågældende spillere sejren', SK-SCORE-5)."),
)

SOUTH_KOREA_INTERPRETATIONS: tuple[tuple[str, str], ...] = (
    ("SK-COMP-4", "The board (cities, routes, 44 tickets, province lines 1–9) is a PROVISIONAL stand-in made from "
                  "real geography. From the rule book come only: a route Namwon–Jinju that 4 white cards and a "
                  "locomotive can claim, so white or gray and at most 5 spaces (the stand-in makes it white, 4); a "
                  "space 6 on the white line; spaces 5 and 6 on the red line."),
    ("SK-SETUP-3", "'To the player on the left' is the next seat in turn order. A pick round ends when every player "
                   "has picked; only then are the hands passed, all at once."),
    ("SK-EXPRESS-1", "The express cards are drawn blind from the deck (the discard pile is reshuffled when it runs out, "
                     "as USA-DRAW-7) and are not the first card of the draw: a face-up locomotive may still be taken "
                     "afterwards as the whole normal draw (USA-DRAW-3), and a locomotive among the blind cards is just a "
                     "card. The boost is refused unless the deck and discard pile hold more cards than its value, so "
                     "the normal draw after it stays possible (USA-DRAW-8)."),
    ("SK-EXPRESS-2", "A ticket boost is refused when the ticket deck holds 3 or fewer cards (it would add nothing); "
                     "otherwise as many as the deck holds, up to 3 + the boost, are drawn; the returns go under the "
                     "deck as in the base game."),
    ("SK-EXPRESS-3", "An express card on a claim only raises the province space, so it needs a province placement; a "
                     "claim with extra cards also needs one."),
    ("SK-PROV-4", "Placing stays optional (the book's 'må'). If the space is taken the train goes on the first free "
                  "space below it, counting down (the highest free lower space), that space only; if no lower space "
                  "is free it cannot go on that line."),
    ("SK-PROV-3", "A value above the line's highest space (e.g. 10 on a 1–9 line) is refused: the space does not "
                  "exist, and the train does not slide down from a space beyond the line."),
    ("SK-PROV-5", "Province trains count against the 45: a claim with a placement needs the route's trains plus one, "
                  "and the end trigger counts the trains left in the supply."),
    ("SK-SCORE-3", "Two players can never tie on both the line total and their highest space (one train per space), "
                   "so the ranking is always strict; players beyond the paid places score 0."),
    *[(k, t) for k, t in USA_INTERPRETATIONS if k not in dict(SOUTH_KOREA_SETTLED)],
)

SOUTH_KOREA = register(Variant(
    key=KEY,
    name="Ticket to Ride South Korea",
    map_key=KEY,
    rule_prefix="SK",
    settings=SOUTH_KOREA_SETTINGS,
    features=(TicketDraft(), ExpressCards(), ProvinceBoard()),
    aliases=("south korea", "korea", "sk", "sydkorea"),
    rule_map={
        "USA-COMP-2": "SK-COMP-1", "USA-COMP-5": "SK-COMP-1", "USA-COMP-3": "SK-COMP-2", "USA-COMP-4": "SK-COMP-4",
        "USA-SETUP-2": "SK-SETUP-1", "USA-SETUP-3": "SK-SETUP-3", "USA-TURN-1": "SK-TURN-1",
        "USA-CLAIM-7": "SK-DOUBLE-1", "USA-CLAIM-8": "SK-DOUBLE-2", "USA-CLAIM-9": "SK-SCORE-1",
        "USA-END-1": "SK-END-1", "USA-SCORE-1": "SK-SCORE-1", "USA-SCORE-2": "SK-SCORE-1",
        "USA-SCORE-3": "SK-SCORE-4", "USA-SCORE-4": "SK-SCORE-5",
    },
    description="South Korea (provisional stand-in board): a ticket draft, express cards and the province board.",
    interpretations=SOUTH_KOREA_INTERPRETATIONS,
    settled=SOUTH_KOREA_SETTLED,
    bot_idle=_bot_idle,
))


if __name__ == "__main__":                       # python -m ttr_nb.games.south_korea [--check]
    import sys
    ok = rebuild_map(check_only="--check" in sys.argv[1:])
    print("maps/south_korea.json: " + ("up to date" if ok else ("differs (rebuild it)" if "--check" in sys.argv[1:]
                                                                 else "written")))
    raise SystemExit(0 if ok or "--check" not in sys.argv[1:] else 1)


__all__ = ["SOUTH_KOREA", "SOUTH_KOREA_SETTINGS", "SOUTH_KOREA_INTERPRETATIONS", "TicketDraft", "ExpressCards",
           "ProvinceBoard", "DraftPick", "DraftKeep", "ExpressDraw", "ExpressTickets", "ProvinceClaim",
           "build_map_document", "rebuild_map", "read_province_board", "province_lines", "province_space",
           "province_ranking", "province_trains", "express_left", "drafted", "claim_payments",
           "PROVINCE_BONUS"]
