"""Exercises on the board games (USA, Europe): payments, legality, scoring, longest trail, tickets, tunnels."""
from __future__ import annotations

import re
from typing import Any, Sequence

from ..board.actions import Action, Claim, Payment, parse_action, parse_payment, payment_str, payment_words
from ..board.cards import CARD_NAMES, COLOURS, LOCO
from ..board.engine import apply, describe, explain, legal_actions, seat_name
from ..errors import BadAction, TTRError
from ..board.names import find_route, find_ticket, route_text, ticket_text
from ..board.positions import position
from ..rng import choice_index
from ..board.scoring import owned_edges, score
from ..board.state import FREE
from ..variants import Variant

from .base import (Feedback, Prompt, _prompt, _hand_words, _route_words, _ticket_words, _pick, _int_between, _as_list, _bool_answer, _int_answer, _payment_hand, _bot_game, Exercise, _NONE_WORDS)
# --------------------------------------------------------------------------------------------- 1. payments

def _is_payment(x: Any) -> bool:
    return isinstance(x, tuple) and bool(x) and all(
        isinstance(t, tuple) and len(t) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in t)
        for t in x)


def _route_id(v: Variant, ref: str) -> str | None:
    """The id of the route an action names (by id or by its cities), None if it names none."""
    try:
        return v.map.route(ref).id
    except TTRError:
        return None


def _parse_payments(v: Variant, answer: Any, route_id: str) -> list[Payment]:
    out: list[Payment] = []
    if _is_payment(answer):
        answer = [answer]
    for item in _as_list(answer):
        if isinstance(item, Claim):
            if _route_id(v, item.route) != route_id:
                raise BadAction(f"{item} claims {item.route}, not {route_text(v.map, route_id)}")
            out.append(item.payment)
            continue
        if _is_payment(item):
            out.append(tuple(sorted(item)))
            continue
        if not isinstance(item, str):
            raise BadAction(f"cannot read {item!r} as a payment; write e.g. 'red3+loco1'")
        for part in re.split(r"[,;\n]+", item):
            part = part.strip().strip("'\"[]()")
            if part.lower() in _NONE_WORDS:
                continue
            if part.lower().startswith("claim") or ":" in part:
                act = parse_action(part)
                if not isinstance(act, Claim) or _route_id(v, act.route) != route_id:
                    raise BadAction(f"{part!r} is not a claim of {route_text(v.map, route_id)}")
                out.append(act.payment)
                continue
            for word in part.split():
                out.append(parse_payment(word.strip("'\""), repr(word)))
    return out


class LegalPayments(Exercise):
    """"Which payments are legal here?" — a hand, a free route: list every legal set of cards (USA-CLAIM-1..3,
    Europe's ferries EU-FERRY-2)."""

    kind = "legal_payments"
    title = "Which payments are legal?"

    def __init__(self, seed: int = 0, variant: str = "usa", *, route: str | None = None,
                 hand: dict[str, int] | None = None):
        super().__init__(seed, variant)
        r = self.rng
        m = self.v.map
        if route is None:
            ferries = [x for x in m.routes if x.ferry_locos and 2 <= x.length <= 4]
            pool = [x for x in m.routes if 2 <= x.length <= 4 and not x.ferry_locos]
            if ferries and r.random() < 0.35:
                pool = ferries
            self.route = _pick(r, pool)
        else:
            self.route = m.route(route)
        if hand is None:
            hand = self._make_hand()
        self.hand_spec = dict(hand)
        self.state = position(self.variant, players=2, seed=seed, hands={0: hand})
        self.seat = 0
        self.legal = [a.payment for a in legal_actions(self.state, 0)
                      if isinstance(a, Claim) and _route_id(self.v, a.route) == self.route.id]

    def _make_hand(self) -> dict[str, int]:
        r, route = self.rng, self.route
        L = route.length
        if route.colour == "gray":
            c1 = _pick(r, COLOURS)
            c2 = _pick(r, [c for c in COLOURS if c != c1])
            hand = {c1: _int_between(r, max(1, L - 2), L + 1), c2: _int_between(r, 0, L)}
        else:
            other = _pick(r, [c for c in COLOURS if c != route.colour])
            hand = {route.colour: _int_between(r, max(0, L - 2), L + 1), other: _int_between(r, L - 1, L + 1)}
        low = route.ferry_locos
        hand["locomotive"] = _int_between(r, max(0, low - 1), max(2, low + 1))
        hand = {k: n for k, n in hand.items() if n}
        # at least one legal payment, unless this is a ferry lesson (no locomotives → nothing legal)
        colour_max = max([n for k, n in hand.items() if k != "locomotive" and (route.colour in ("gray", k))] or [0])
        locos = hand.get("locomotive", 0)
        if locos < low and not route.ferry_locos:
            hand["locomotive"] = low
        elif colour_max + locos < L:
            hand["locomotive"] = L - colour_max
        return hand

    def prompt(self) -> Prompt:
        hand = self.state.players[0].hand
        return _prompt(
            f"{self.title} ({self.v.name}, seed {self.seed})",
            [f"{seat_name(0)}'s hand: {_hand_words(hand)}",
             f"the route: {_route_words(self.v, self.route.id)} — free"],
            f"Which sets of cards may {seat_name(0)} pay to claim {self.route.a}–{self.route.b}? List all of them.",
            "Answer: a list of payments such as ['red3+loco1', 'loco4'] (or 'none').")

    def solution(self) -> list[str]:
        return [payment_str(p) for p in self.legal]

    def _basis(self) -> tuple[str, list[str]]:
        route = self.route
        rules = [self.rule("USA-CLAIM-1"), self.rule("USA-CLAIM-2"), self.rule("USA-CLAIM-3")]
        what = (f"{route.a}–{route.b} takes exactly {route.length} "
                + (f"{route.colour} cards" if route.colour != "gray" else "cards of any one colour")
                + "; locomotives may stand in for any of them")
        if route.ferry_locos:
            what += f", and as a ferry it needs at least {route.ferry_locos} locomotive{'s' if route.ferry_locos != 1 else ''}"
            rules.append(self.rule(f"{self.v.rule_prefix}-FERRY-2"))
        return what, rules

    def check(self, answer: Any) -> Feedback:
        try:
            given = _parse_payments(self.v, answer, self.route.id)
        except TTRError as e:
            return Feedback(False, f"I could not read the answer: {e}")
        what, rules = self._basis()
        legal = set(self.legal)
        seen = []
        for p in given:
            if p not in seen:
                seen.append(p)
        wrong = [p for p in seen if p not in legal]
        missing = [p for p in self.legal if p not in seen]
        listing = ", ".join(payment_str(p) for p in self.legal) or "none"
        if not wrong and not missing:
            count = {0: "No legal payment", 1: "The only legal payment"}.get(len(self.legal),
                                                                          f"All {len(self.legal)} legal payments")
            return Feedback(True, f"{count}: {listing}. {what} ({', '.join(rules)}).", rules)
        lines = []
        for p in wrong:
            err = explain(self.state, Claim(route=self.route.id, payment=p, seat=0))
            if err is not None:
                lines.append(f"{payment_str(p)} is not legal: {err}")
                rules.append(getattr(err, "rule", None) or "")
        for p in missing:
            locos = dict(p).get(LOCO, 0)
            why = ("locomotives may stand in for any card of the set" if locos else "a set of one colour")
            lines.append(f"missing: {payment_str(p)} is legal too — {why} ({self.rule('USA-CLAIM-3' if locos else 'USA-CLAIM-1')})")
        lines.append(f"The legal payments are: {listing}. {what}.")
        return Feedback(False, "\n".join(lines), rules)

    def highlight(self):
        return [(f"{self.route.a}–{self.route.b}", [self.route.id])]


# --------------------------------------------------------------------------------------------- 2. is it legal?

class IsItLegal(Exercise):
    """"Is this action legal?" — answer True/False; the feedback is the engine's own reason (``explain``) with its
    rule id. Scenarios are the rules people get wrong: a face-up locomotive as the second card, double routes
    with 2–3 players, wrong colours, mixed colours, too few trains, two actions in one turn; in Europe also
    ferries and stations. ``scenario`` picks one (see ``IsItLegal.SCENARIOS``); by default the seed does."""

    kind = "is_it_legal"
    title = "Is it legal?"
    BASE_SCENARIOS = ("second_faceup_loco", "first_faceup_loco", "blind_loco", "double_route", "own_double_route",
                      "route_colour", "mixed_colours", "too_few_trains", "two_actions", "already_claimed")
    EUROPE_SCENARIOS = ("ferry_locomotives", "station_city_taken", "station_cost")

    def __init__(self, seed: int = 0, variant: str = "usa", *, scenario: str | None = None):
        super().__init__(seed, variant)
        names = list(self.SCENARIOS_FOR(self.v))
        if scenario is None:
            scenario = names[choice_index(self.rng, len(names))]
        if scenario not in names:
            raise TTRError(f"unknown scenario {scenario!r} for {self.v.name}; choose one of {', '.join(names)}")
        self.scenario = scenario
        self.state, self.action, self.setting, self.lesson = getattr(self, f"_{scenario}")()
        self.action = self.action if isinstance(self.action, Action) else parse_action(self.action)
        self.seat = self.state.current if self.action.seat is None else self.action.seat
        self.error = explain(self.state, self.action)

    @classmethod
    def SCENARIOS_FOR(cls, v: Variant) -> tuple[str, ...]:
        extra = cls.EUROPE_SCENARIOS if (v.feature("ferries") and v.feature("stations")) else ()
        return cls.BASE_SCENARIOS + extra

    # -- scenarios: (state, action, what the learner is told, the rule the legal case teaches) --------------
    def _coin(self) -> bool:
        return self.rng.random() < 0.5

    def _market_with_loco(self) -> tuple[list[str], int]:
        r = self.rng
        slot = _int_between(r, 1, 5)
        market = [_pick(r, COLOURS) for _ in range(5)]
        market[slot - 1] = "locomotive"
        return market, slot

    def _second_faceup_loco(self):
        market, slot = self._market_with_loco()
        s = position(self.variant, players=2, seed=self.seed, market=market, deck_top=[_pick(self.rng, COLOURS)])
        s = apply(s, "draw deck")
        if self._coin():
            return s, f"draw faceup {slot}", "Blue has drawn one card blind from the deck and now takes face-up card " \
                                              f"{slot} (a locomotive) as the second card.", ""
        other = next(i for i in range(1, 6) if i != slot)
        return s, f"draw faceup {other}", (f"Blue has drawn one card blind and now takes face-up card {other} "
                                           f"({market[other - 1]}) as the second card."), \
            "any face-up card except a locomotive may be the second card (USA-DRAW-4); it is replaced at once (USA-DRAW-2)"

    def _first_faceup_loco(self):
        market, slot = self._market_with_loco()
        s = position(self.variant, players=2, seed=self.seed, market=market)
        return s, f"draw faceup {slot}", (f"At the start of the turn Blue takes face-up card {slot} (a locomotive) as "
                                          "the first card."), \
            "a face-up locomotive may be the first card — but then it is the only card this turn (USA-DRAW-3)"

    def _blind_loco(self):
        market = [_pick(self.rng, COLOURS) for _ in range(5)]
        s = position(self.variant, players=2, seed=self.seed, market=market, deck_top=["locomotive"])
        s = apply(s, "draw deck")
        return s, "draw deck", ("Blue drew the top card of the deck blind — it was a locomotive — and now draws the "
                                "deck again for a second card."), \
            "a locomotive drawn blind from the deck counts as an ordinary card: the player still takes a second card " \
            "(USA-DRAW-4)"

    def _double_groups(self) -> list:
        m = self.v.map
        seen, out = set(), []
        for rt in m.routes:
            if rt.double_group and rt.double_group not in seen and rt.length <= 4:
                seen.add(rt.double_group)
                out.append([rt, *m.twins(rt.id)])
        return out

    def _pay_for(self, route) -> tuple[dict[str, int], str]:
        """A hand holding exactly a legal payment for ``route`` (a colour + the ferry's locomotives), and its text."""
        colour = route.colour if route.colour != "gray" else _pick(self.rng, COLOURS)
        return _payment_hand(colour, route.length - route.ferry_locos, route.ferry_locos)

    def _double_route(self):
        group = _pick(self.rng, self._double_groups())
        mine, theirs = group[0], group[1]
        players = _pick(self.rng, (2, 3, 4))
        hand, pay = self._pay_for(mine)
        s = position(self.variant, players=players, seed=self.seed, hands={0: hand}, claims={theirs.id: 1})
        return s, f"claim {route_text(self.v.map, mine)} {pay}", (f"{players} players. Red owns {_route_words(self.v, theirs.id)}. Blue "
                                             f"claims the parallel track {_route_words(self.v, mine.id)} with {pay}."), \
            f"with {self.v.settings.twin_min_players} or more players both tracks of a double route are used, by " \
            "different players (USA-CLAIM-8)"

    def _own_double_route(self):
        group = _pick(self.rng, self._double_groups())
        mine, other = group[0], group[1]
        hand, pay = self._pay_for(other)
        s = position(self.variant, players=4, seed=self.seed, hands={0: hand}, claims={mine.id: 0})
        return s, f"claim {route_text(self.v.map, other)} {pay}", (f"4 players. Blue already owns {_route_words(self.v, mine.id)} and now "
                                              f"claims the parallel track {_route_words(self.v, other.id)} with {pay}."), ""

    def _route_colour(self):
        r = self.rng
        m = self.v.map
        if self._coin():
            route = _pick(r, [x for x in m.routes if x.colour != "gray" and 2 <= x.length <= 4 and not x.tunnel])
            wrong = _pick(r, [c for c in COLOURS if c != route.colour])
            hand = {wrong: route.length}
            pay = f"{wrong}{route.length}"
            lesson = ""
        else:
            route = _pick(r, [x for x in m.routes if x.colour == "gray" and 2 <= x.length <= 4 and not x.ferry_locos
                              and not x.tunnel])
            colour = _pick(r, COLOURS)
            hand = {colour: route.length - 1, "locomotive": 1}
            pay = f"{colour}{route.length - 1}+loco1"
            lesson = "a gray route takes a set of any one colour, and a locomotive may stand in (USA-CLAIM-2/3)"
        s = position(self.variant, players=2, seed=self.seed, hands={0: hand})
        return s, f"claim {route_text(self.v.map, route)} {pay}", f"Blue claims {_route_words(self.v, route.id)} with {pay}.", lesson

    def _mixed_colours(self):
        r = self.rng
        route = _pick(r, [x for x in self.v.map.routes if x.colour == "gray" and 3 <= x.length <= 4
                          and not x.ferry_locos and not x.tunnel])
        c1 = _pick(r, COLOURS)
        c2 = _pick(r, [c for c in COLOURS if c != c1])
        a = route.length - 1
        hand = {c1: a, c2: 1}
        p = sorted([(CARD_NAMES.index(c1), a), (CARD_NAMES.index(c2), 1)])
        pay = payment_str(tuple(p))
        s = position(self.variant, players=2, seed=self.seed, hands={0: hand})
        return s, f"claim {route_text(self.v.map, route)} {pay}", (
            f"Blue claims the gray route {_route_words(self.v, route.id)} with {pay}: cards of two colours."), ""

    def _too_few_trains(self):
        r = self.rng
        spend_all = self._coin()
        for left in range(_int_between(r, 3, 5), 2, -1):   # the filler claims take the long routes: go lower
            s = position(self.variant, players=2, seed=self.seed, trains={0: left})
            free = [x for x in self.v.map.routes if s.claims[x.index] == FREE and not x.tunnel
                    and not self.v.map.twins(x.id)]
            routes = [x for x in free if (x.length == left if spend_all else x.length > left)] \
                or [x for x in free if x.length > left]
            if routes:
                break
        route = _pick(r, routes)
        hand, pay = self._pay_for(route)
        s = position(self.variant, players=2, seed=self.seed, trains={0: left}, hands={0: hand})
        lesson = "a player may spend their last trains: enough trains for the route is all it takes (USA-CLAIM-4)" \
            if route.length <= left else ""
        return s, f"claim {route_text(self.v.map, route)} {pay}", (
            f"Blue has {left} trains left and claims {_route_words(self.v, route.id)} with {pay}."), lesson

    def _two_actions(self):
        r = self.rng
        route = _pick(r, [x for x in self.v.map.routes if x.colour != "gray" and x.length == 2 and not x.tunnel])
        s = position(self.variant, players=2, seed=self.seed, hands={0: {route.colour: 2}})
        s = apply(s, "draw deck")
        return s, f"claim {route_text(self.v.map, route)} {route.colour}2", (f"Blue has drawn one card blind and now, in the same turn, "
                                                        f"claims {_route_words(self.v, route.id)} with {route.colour}2."), ""

    def _already_claimed(self):
        r = self.rng
        route = _pick(r, [x for x in self.v.map.routes if x.colour != "gray" and 2 <= x.length <= 4
                          and not x.double_group and not x.tunnel])
        s = position(self.variant, players=3, seed=self.seed, hands={0: {route.colour: route.length}},
                     claims={route.id: 2})
        return s, f"claim {route_text(self.v.map, route)} {route.colour}{route.length}", (
            f"Green owns {_route_words(self.v, route.id)}. Blue claims it too, with {route.colour}{route.length}."), ""

    def _ferry_locomotives(self):
        r = self.rng
        route = _pick(r, [x for x in self.v.map.routes if 0 < x.ferry_locos < x.length])
        colour = _pick(r, COLOURS)
        right = self._coin()
        locos = route.ferry_locos if right else route.ferry_locos - 1
        hand, pay = _payment_hand(colour, route.length - locos, locos)
        s = position(self.variant, players=2, seed=self.seed, hands={0: hand})
        lesson = "a ferry takes one locomotive per locomotive symbol, the other spaces any one colour (EU-FERRY-2)"
        return s, f"claim {route_text(self.v.map, route)} {pay}", f"Blue claims {_route_words(self.v, route.id)} with {pay}.", \
            lesson if right else ""

    def _station_city_taken(self):
        r = self.rng
        city = _pick(r, [c.name for c in self.v.map.cities])
        colour = _pick(r, COLOURS)
        s = position(self.variant, players=2, seed=self.seed, current=1, hands={1: {colour: 2}, 0: {colour: 2}})
        s = apply(s, f"station {city} {colour}1")
        return s, f"station {city} {colour}1", (f"Red has built a station in {city}. Now Blue builds a station in "
                                                f"{city} too, with 1 {colour} card."), ""

    def _station_cost(self):
        r = self.rng
        cities = [c.name for c in self.v.map.cities]
        first = _pick(r, cities)
        second = _pick(r, [c for c in cities if c != first])
        colour = _pick(r, COLOURS)
        s = position(self.variant, players=2, seed=self.seed, hands={0: {colour: 4}})
        s = apply(s, f"station {first} {colour}1")
        s = apply(s, "draw deck")
        s = apply(s, "draw deck")
        n = _pick(r, (1, 2))
        return s, f"station {second} {colour}{n}", (f"Blue built a station in {first} (paid 1 card). Now Blue builds a "
                                                    f"second station in {second} with {n} {colour} card{'s' if n != 1 else ''}."), \
            "the 2nd station costs 2 cards of one colour, the 3rd 3 (EU-STATION-3)" if n == 2 else ""

    # -- protocol ------------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        s = self.state
        hand = s.players[self.seat].hand
        return _prompt(f"{self.title} ({self.v.name}, seed {self.seed})",
                       [self.setting, f"{seat_name(self.seat)}'s hand: {_hand_words(hand)}",
                        f"the action: {self.action.body()}"],
                       "Is this action legal?", "Answer True (legal) or False (illegal).")

    def solution(self) -> bool:
        return self.error is None

    def check(self, answer: Any) -> Feedback:
        said = _bool_answer(answer)
        if said is None:
            return Feedback(False, f"Answer True (legal) or False (illegal), not {answer!r}")
        legal = self.error is None
        if legal:
            lesson = re.sub(r"USA-[A-Z]+-\d+", lambda m: self.rule(m.group(0)), self.lesson)
            why = f"legal: {describe(self.state, self.action)}" + (f" — {lesson}" if lesson else "")
            rules = re.findall(r"[A-Z]{2,3}-[A-Z]+-\d+(?:/[A-Z]{2,3}-[A-Z]+-\d+)?", lesson)
        else:
            why = f"illegal: {self.error}"
            rules = [getattr(self.error, "rule", "") or ""]
        if said == legal:
            return Feedback(True, why[0].upper() + why[1:], rules)
        return Feedback(False, f"It is {why}", rules)

    def highlight(self):
        rid = getattr(self.action, "route", None)
        rid = _route_id(self.v, rid) if rid else None
        return [("the route", [rid])] if rid else []


# --------------------------------------------------------------------------------------------- 3. scoring

class ScoreThis(Exercise):
    """"Score this end position": the end of a seeded bot game; give one player's total. The feedback is the
    whole breakdown (routes, each ticket ±, the longest path, Europe's unbuilt stations) and, for a wrong
    answer, the likely slip (a forgotten bonus, tickets not subtracted, trains counted instead of points)."""

    kind = "score_this"
    title = "Score this end position"

    def __init__(self, seed: int = 0, variant: str = "usa", *, players: int = 2, seat: int | None = None):
        super().__init__(seed, variant)
        self.game = _bot_game(self.variant, players, seed)
        self.state = self.game.state
        self.sheet = score(self.state)
        self.seat = choice_index(self.rng, players) if seat is None else seat
        self.player = self.sheet.players[self.seat]

    def prompt(self) -> Prompt:
        ps = self.player
        v = self.v
        lines = [f"{ps.name}'s routes: " + "; ".join(
            f"{v.map.route(r).a}–{v.map.route(r).b} ({v.map.route(r).length})" for r in ps.routes),
            f"{ps.name}'s tickets: " + "; ".join(_ticket_words(v, t) for t in self.state.players[self.seat].tickets),
            "longest continuous paths: " + ", ".join(f"{p.name} {p.longest.length} trains" for p in self.sheet.players)]
        if v.feature("stations"):
            from ..europe import stations_of
            built = stations_of(self.state, self.seat)
            lines.append(f"{ps.name}'s stations: {', '.join(built) or 'none'} (of 3)")
        pts = ", ".join(f"{k}→{p}" for k, p in sorted(v.settings.route_points.items()))
        return _prompt(f"{self.title} ({v.name}, seed {self.seed})", lines,
                       f"What is {ps.name}'s final score?",
                       f"Route points: {pts}. Answer a whole number.")

    def solution(self) -> int:
        return self.player.total

    def breakdown(self) -> str:
        ps = self.player
        lines = [f"routes: {ps.route_points} ({self.rule('USA-SCORE-1')})"]
        for t in ps.tickets:
            how = (" via " + ", ".join(route_text(self.v.map, r) for r in t.via) + " (a station's borrowed route)"
                   if t.via else "")
            lines.append(f"ticket {t.a}–{t.b}: {t.value:+d} ({'completed' + how if t.completed else 'not completed'}, "
                         f"{self.rule('USA-TICKET-4')})")
        lines.append(f"longest path: {ps.longest.length} trains → {ps.longest_bonus:+d} ({self.rule('USA-SCORE-3')})")
        for label, points in ps.extras:
            lines.append(f"{label}: {points:+d}")
        lines.extend(ps.notes)
        lines.append(f"total: {ps.total}")
        return "\n".join(lines)

    def _slips(self, said: int) -> list[str]:
        ps = self.player
        total = ps.total
        failed = sum(t.points for t in ps.tickets if not t.completed)
        trains = sum(self.v.map.route(r).length for r in ps.routes)
        extras = sum(p for _, p in ps.extras)
        slips = []
        if ps.longest_bonus and said == total - ps.longest_bonus:
            slips.append(f"you left out the longest-path bonus (+{ps.longest_bonus}, {self.rule('USA-SCORE-3')})")
        best = max(p.longest.length for p in self.sheet.players)
        if not ps.longest_bonus and said == total + self.v.settings.longest_bonus:
            slips.append(f"{ps.name}'s longest path is {ps.longest.length}, not the longest ({best}): no bonus "
                         f"({self.rule('USA-SCORE-3')})")
        if failed and said == total + failed:
            slips.append(f"uncompleted tickets are not just worth 0: their points are subtracted ({self.rule('USA-TICKET-4')})")
        if failed and said == total + 2 * failed:
            slips.append(f"uncompleted tickets count against you: −{failed} ({self.rule('USA-TICKET-4')})")
        if trains != ps.route_points and said == total - ps.route_points + trains:
            slips.append(f"route points are not the number of trains: {', '.join(f'{k}→{p}' for k, p in sorted(self.v.settings.route_points.items()))} "
                         f"({self.rule('USA-CLAIM-9')})")
        if extras and said == total - extras:
            slips.append("you left out " + ", ".join(f"{label} ({p:+d})" for label, p in ps.extras))
        return slips

    def check(self, answer: Any) -> Feedback:
        said = _int_answer(answer)
        rules = [self.rule("USA-SCORE-1"), self.rule("USA-TICKET-4"), self.rule("USA-SCORE-3")]
        if said is None:
            return Feedback(False, f"Answer a whole number of points, not {answer!r}")
        if said == self.player.total:
            return Feedback(True, f"{self.player.name} scores {said}.\n{self.breakdown()}", rules)
        slips = self._slips(said)
        head = f"{self.player.name} scores {self.player.total}, not {said}" + (f": {'; '.join(slips)}" if slips else ".")
        return Feedback(False, f"{head}\n{self.breakdown()}", rules)

    def solution_highlight(self):
        ps = self.player
        done = [r for t in ps.tickets if t.completed for r in t.path]
        return [("completed tickets' paths", list(dict.fromkeys(done)))] if done else []

    def trail(self) -> list[str]:
        return list(self.player.longest.routes)


# --------------------------------------------------------------------------------------------- 4. longest

def _walk(v: Variant, routes: Sequence[str]) -> tuple[list[str] | None, str]:
    """The cities of the trail ``routes`` (in order), or (None, why not)."""
    if not routes:
        return [], ""
    first = v.map.route(routes[0])
    for start in (first.a, first.b):
        cities = [start]
        ok = True
        for rid in routes:
            r = v.map.route(rid)
            if cities[-1] == r.a:
                cities.append(r.b)
            elif cities[-1] == r.b:
                cities.append(r.a)
            else:
                ok = False
                break
        if ok:
            return cities, ""
    # explain the first break (from the better orientation)
    best = None
    for start in (first.a, first.b):
        cities = [start]
        for i, rid in enumerate(routes):
            r = v.map.route(rid)
            if cities[-1] not in (r.a, r.b):
                if best is None or i > best[0]:
                    best = (i, cities[-1], r)
                break
            cities.append(r.b if cities[-1] == r.a else r.a)
    i, at, r = best
    return None, f"{route_text(v.map, r)} does not continue from {at}: a path goes on from where the last route ended"


def _parse_refs(v: Variant, answer: Any, find) -> list[str]:
    """The ids of the routes or tickets an answer names: by their cities, separated by commas or semicolons
    ("Denver–Santa Fe, Santa Fe–El Paso"), or by ids ("R039 R050"); ``find`` is ``names.find_route`` or
    ``names.find_ticket``. An unknown name raises a ``MapError`` that says what was not found."""
    out = []
    for item in _as_list(answer):
        if not isinstance(item, str):
            item = getattr(item, "id", str(item))
        for part in re.split(r"[,;\n]+", item):
            part = part.strip().strip("'\"[]").strip()
            if not part or part.lower() in _NONE_WORDS:
                continue
            words = part.split()
            if all(re.fullmatch(r"[A-Za-z]\d+", w) for w in words):
                out += [find(v.map, w).id for w in words]
            else:
                out.append(find(v.map, part).id)
    return out


class FindLongest(Exercise):
    """"Find the longest continuous path": a player's routes from a seeded bot game; answer the routes of a
    longest trail in order. Checked: every route is the player's, none used twice, each continues from the last
    (cities may repeat, loops allowed), and the length (trains) equals the exact longest (USA-SCORE-3)."""

    kind = "find_longest"
    title = "Find the longest continuous path"

    def __init__(self, seed: int = 0, variant: str = "usa", *, routes: int = 8, players: int = 2):
        super().__init__(seed, variant)
        game = _bot_game(self.variant, players, seed)
        self.seat = choice_index(self.rng, players)
        chosen = game.state
        for ply in range(len(game.line) + 1):
            s = game.state_at(ply)
            if sum(1 for c in s.claims if c == self.seat) >= routes:
                chosen = s
                break
        self.state = chosen
        from ..board.trail import longest_trail
        self.edges = owned_edges(self.v, self.state, self.seat)
        self.best = longest_trail(self.edges)

    def prompt(self) -> Prompt:
        v = self.v
        name = seat_name(self.seat)
        return _prompt(f"{self.title} ({v.name}, seed {self.seed})",
                       [f"{name}'s routes: " + "; ".join(f"{route_text(v.map, rid)} ({n})" for a, b, n, rid in
                                                         sorted(self.edges, key=lambda e: e[3]))],
                       f"Which routes make {name}'s longest continuous path? Give them in travel order.",
                       "A path may pass a city again and close a loop, but uses each route once; its length counts "
                       "trains. Answer the routes by their cities, in travel order, e.g. "
                       "'Denver–Santa Fe, Santa Fe–El Paso'.")

    def solution(self) -> list[str]:
        return [route_text(self.v.map, r) for r in self.best.routes]

    def check(self, answer: Any) -> Feedback:
        rule = self.rule("USA-SCORE-3")
        try:
            ids = _parse_refs(self.v, answer, find_route)
        except TTRError as e:
            return Feedback(False, f"I could not read the answer: {e}", [rule])
        name = seat_name(self.seat)
        mine = {e[3] for e in self.edges}
        if not ids:
            return Feedback(False, f"Give at least one route; {name}'s longest path is {self.best.length} trains", [rule])
        stray = [route_text(self.v.map, r) for r in ids if r not in mine]
        if stray:
            return Feedback(False, f"{', '.join(stray)} {'is' if len(stray) == 1 else 'are'} not {name}'s: the path "
                                   f"uses only {name}'s own routes ({rule})", [rule])
        twice = [route_text(self.v.map, r) for r in dict.fromkeys(ids) if ids.count(r) > 1]
        if twice:
            return Feedback(False, f"{', '.join(twice)} is used twice: a path uses each route at most once, though it "
                                   f"may pass a city again ({rule})", [rule])
        cities, why = _walk(self.v, ids)
        if cities is None:
            return Feedback(False, f"{why} ({rule})", [rule])
        length = sum(self.v.map.route(r).length for r in ids)
        walk = " – ".join(cities)
        if length == self.best.length:
            return Feedback(True, f"{length} trains: {walk}. That is the longest ({rule}).", [rule])
        return Feedback(False, f"A valid path of {length} trains ({walk}), but {name}'s longest is "
                               f"{self.best.length} trains ({rule})", [rule])

    def highlight(self):
        return []

    def trail(self) -> list[str]:
        return list(self.best.routes)


# --------------------------------------------------------------------------------------------- 5. tickets

class TicketDone(Exercise):
    """"Which tickets are completed?" — the end of a seeded bot game; list the ids of one player's completed
    tickets (USA-TICKET-4; in Europe a station may borrow one route of another player, EU-STATION-4/5)."""

    kind = "ticket_done"
    title = "Which tickets are completed?"

    def __init__(self, seed: int = 0, variant: str = "usa", *, players: int = 2, seat: int | None = None):
        super().__init__(seed, variant)
        self.game = _bot_game(self.variant, players, seed)
        self.state = self.game.state
        self.sheet = score(self.state)
        if seat is None:
            mixed = [p.seat for p in self.sheet.players if 0 < p.completed < len(p.tickets)]
            seats = mixed or list(range(players))
            seat = seats[choice_index(self.rng, len(seats))]
        self.seat = seat
        self.results = self.sheet.players[seat].tickets

    def prompt(self) -> Prompt:
        v = self.v
        name = seat_name(self.seat)
        lines = [f"{name}'s tickets: " + "; ".join(_ticket_words(v, t.id) for t in self.results),
                 f"{name}'s routes: " + "; ".join(f"{a}–{b}" for a, b, _, _ in
                                                 sorted(owned_edges(v, self.state, self.seat), key=lambda e: e[3]))]
        if v.feature("stations"):
            from ..europe import stations_of
            built = stations_of(self.state, self.seat)
            if built:
                lines.append(f"{name}'s stations: {', '.join(built)} — each may borrow one route of another player "
                             f"into its city ({self.rule('EU-STATION-4')})")
        return _prompt(f"{self.title} ({v.name}, seed {self.seed})", lines,
                       f"Which of {name}'s tickets are completed?",
                       "Answer the tickets by their cities, e.g. 'Denver–El Paso, Boston–Miami' (or 'none').")

    def solution(self) -> list[str]:
        return [ticket_text(self.v.map, t.id) for t in self.results if t.completed]

    def _why(self, t) -> str:
        m = self.v.map
        if t.completed:
            cities = [t.a]
            for rid in t.path:
                cities.append(m.route(rid).other(cities[-1]))
            via = f"; borrowing {', '.join(route_text(m, r) for r in t.via)} through a station ({self.rule('EU-STATION-4')})" if t.via else ""
            return f"{t.a}–{t.b} is completed: {' – '.join(cities)}{via}"
        return (f"{t.a}–{t.b} is not completed: no continuous path of {seat_name(self.seat)}'s routes joins "
                f"{t.a} and {t.b}, so it costs {t.points} ({self.rule('USA-TICKET-4')})")

    def check(self, answer: Any) -> Feedback:
        rule = self.rule("USA-TICKET-4")
        try:
            given = _parse_refs(self.v, answer, find_ticket)
        except TTRError as e:
            return Feedback(False, f"I could not read the answer: {e}", [rule])
        ids = {t.id for t in self.results}
        stray = [ticket_text(self.v.map, x) for x in given if x not in ids]
        if stray:
            return Feedback(False, f"{', '.join(stray)} {'is' if len(stray) == 1 else 'are'} not among "
                                   f"{seat_name(self.seat)}'s tickets "
                                   f"({', '.join(ticket_text(self.v.map, t.id) for t in self.results)})", [rule])
        right = self.solution()
        wrong = [t for t in self.results if (t.id in given) != t.completed]
        rules = [rule] + ([self.rule("EU-STATION-4")] if any(t.via for t in self.results) else [])
        if not wrong:
            return Feedback(True, "\n".join(self._why(t) for t in self.results), rules)
        lines = [self._why(t) for t in wrong]
        lines.append(f"Completed: {', '.join(right) or 'none'}.")
        return Feedback(False, "\n".join(lines), rules)

    def solution_highlight(self):
        done = [r for t in self.results if t.completed for r in t.path]
        return [("completed tickets' paths", list(dict.fromkeys(done)))] if done else []


# --------------------------------------------------------------------------------------------- 6. tunnels

class TunnelExtra(Exercise):
    """"How many extra cards does this tunnel cost?" (Europe) — a tunnel claim played through the engine with
    three chosen cards on top of the deck; answer a number (EU-TUNNEL-2/3)."""

    kind = "tunnel_extra"
    title = "How many extra cards for the tunnel?"
    variants = ("europe",)

    def __init__(self, seed: int = 0, variant: str = "europe", *, locomotives_only: bool | None = None):
        super().__init__(seed, variant)
        if not self.v.feature("tunnels"):
            raise TTRError(f"{self.v.name} has no tunnels")
        r = self.rng
        tunnels = [x for x in self.v.map.routes if x.tunnel and x.length <= 3]
        self.route = _pick(r, tunnels)
        if locomotives_only is None:
            locomotives_only = r.random() < 0.2
        colour = self.route.colour if self.route.colour != "gray" else _pick(r, COLOURS)
        L = self.route.length
        if locomotives_only:
            hand = {"locomotive": L + 2}
            pay = ((LOCO, L),)
        else:
            locos = _int_between(r, 0, 1)
            hand = {colour: L + 1, "locomotive": locos + 1}
            pay = tuple(sorted(((CARD_NAMES.index(colour), L - locos),) + (((LOCO, locos),) if locos else ())))
        others = [c for c in COLOURS if c != colour]
        reveal = [_pick(r, [colour, "locomotive", _pick(r, others), _pick(r, others)]) for _ in range(3)]
        self.revealed = reveal
        self.payment = pay
        start = position(self.variant, players=2, seed=seed, hands={0: hand}, deck_top=reveal)
        self.start = start
        self.action = Claim(route=self.route.id, payment=pay, seat=0)
        self.state = start
        after = apply(start, self.action)
        p = after.pending_for(0) if after.pending else None
        self.extra = p.get("extra") if p is not None and p.kind == "tunnel" else 0
        self.after = after

    def prompt(self) -> Prompt:
        return _prompt(f"{self.title} ({self.v.name}, seed {self.seed})",
                       [f"the tunnel: {_route_words(self.v, self.route.id)}",
                        f"Blue plays {payment_words(self.payment)}",
                        f"the three cards turned up from the deck: {', '.join(self.revealed)}"],
                       "How many extra cards must Blue add to claim the tunnel?",
                       "Answer a number (0–3).")

    def solution(self) -> int:
        return self.extra

    def check(self, answer: Any) -> Feedback:
        said = _int_answer(answer)
        only_locos = all(k == LOCO for k, _ in self.payment)
        rule = self.rule("EU-TUNNEL-3" if only_locos else "EU-TUNNEL-2")
        if said is None:
            return Feedback(False, f"Answer a number of cards, not {answer!r}", [rule])
        colour = next((CARD_NAMES[k] for k, _ in self.payment if k != LOCO), None)
        counted = [c for c in self.revealed if c == "locomotive" or (colour is not None and c == colour)]
        if only_locos:
            basis = "Blue played only locomotives, so only locomotives among the three call for extra cards — and " \
                    "the extra cards must be locomotives"
        else:
            basis = f"every turned-up {colour} card and every locomotive calls for one more {colour} card (or a locomotive)"
        tail = (f"{len(counted)} of {', '.join(self.revealed)} match{'es' if len(counted) == 1 else ''}: "
                f"{self.extra} extra card{'s' if self.extra != 1 else ''}. {basis[0].upper()}{basis[1:]} ({rule}). "
                f"If Blue cannot or will "
                f"not pay, the played cards go back to the hand and the turn ends ({self.rule('EU-TUNNEL-4')}).")
        return Feedback(said == self.extra, tail, [rule, self.rule("EU-TUNNEL-4")])

    def highlight(self):
        return [("the tunnel", [self.route.id])]
