"""Exercises on Märklin's passengers and goods: the best passenger move, and what a journey costs and scores.

Both are built on a seeded position: a passenger of Blue's in a German city, a few claimed routes around it (some
Blue's, some Red's) and 0–2 passenger cards in Blue's hand. Answers are checked by playing them through the
engine, step by step, so a wrong step gets the engine's own refusal and rule id.
"""
from __future__ import annotations

import re
from typing import Any

from ..board.cards import PASSENGER
from ..board.engine import apply, explain
from ..errors import TTRError
from ..games.maerklin import Ride, Stop, best_passenger_move, goods_of, goods_stacks, is_country
from ..board.positions import position
from ..board.state import FREE
from .base import Exercise, Feedback, Prompt, _int_between, _pick, _prompt

__all__ = ["BestPassengerMove", "PassengerFare"]


def _cities(answer: Any) -> list[str]:
    """A journey as city names: "Magdeburg–Berlin–Leipzig", "Magdeburg, Berlin, Leipzig" or a list."""
    if isinstance(answer, (list, tuple)):
        return [str(x).strip() for x in answer if str(x).strip()]
    if not isinstance(answer, str):
        return []
    return [w.strip() for w in re.split(r"\s*(?:–|—|->|→|,|;|\s-\s)\s*", answer.strip()) if w.strip()]


class _JourneyExercise(Exercise):
    """A seeded position around one passenger of Blue's (seat 0)."""

    variants = ("maerklin",)

    def __init__(self, seed: int = 0, variant: str = "maerklin"):
        super().__init__(seed, variant)
        if self.v.feature("passengers") is None:
            raise TTRError(f"{self.v.name} has no passengers (Märklin has)")
        m, r = self.v.map, self.rng
        # a start city with goods, and at least one more step worth something
        for _attempt in range(200):
            start = _pick(r, [c.name for c in m.cities if c.extra.get("goods") and not is_country(self.v, c.name)])
            claims, frontier, seen = {}, [start], {start}
            want = _int_between(r, 5, 8)
            while frontier and len(claims) < want:
                city = frontier.pop(_int_between(r, 0, len(frontier) - 1))
                for route in sorted(m.routes_at(city), key=lambda x: x.id):
                    other = route.other(city)
                    if route.id in claims or any(t.id in claims for t in m.twins(route.id)) or is_country(self.v, other):
                        continue
                    if r.random() < 0.7:
                        claims[route.id] = 0 if r.random() < 0.6 else 1
                        if other not in seen:
                            seen.add(other)
                            frontier.append(other)
            cards = _int_between(r, 0, 2)
            state = position(self.variant, players=2, seed=seed, claims=claims, passengers={0: [start]},
                             hands={0: {"passenger": cards, "red": 2}})
            best = best_passenger_move(state, 0)
            if len(best.routes) >= 2 and any(claims[x] == 1 for x in claims):
                break
        else:                                  # pragma: no cover - every seed finds one within a few attempts
            raise TTRError(f"no passenger position found for seed {seed}")
        self.state, self.seat, self.start_city, self.best = state, 0, start, best
        self.cards = cards

    def _facts(self) -> list[str]:
        m, s = self.v.map, self.state
        mine = sorted(f"{r.a}–{r.b}" for r in m.routes if s.claims[r.index] == 0)
        theirs = sorted(f"{r.a}–{r.b}" for r in m.routes if s.claims[r.index] == 1)
        stacks = goods_stacks(s)
        near = sorted({c for r in m.routes if s.claims[r.index] != FREE for c in (r.a, r.b)} & set(stacks))
        return [f"Blue's passenger stands in {self.start_city}; Blue holds {self.cards} passenger card"
                f"{'s' if self.cards != 1 else ''}",
                f"Blue's routes: {', '.join(mine) or 'none'}",
                f"Red's routes: {', '.join(theirs) or 'none'}",
                "goods on top: " + ", ".join(f"{c} {stacks[c][0] if stacks[c] else 'none'}" for c in near)]

    def _play(self, cities: list[str]):
        """Play a journey through the engine: (state after it or None, error or None, per-step notes)."""
        m, s = self.v.map, self.state
        try:
            names = [m.city(c).name for c in cities]
        except TTRError as e:
            return None, e, []
        if not names or names[0] != self.start_city:
            return None, f"a journey starts where the passenger stands: {self.start_city}", []
        notes = []
        for a, b in zip(names, names[1:]):
            action = Ride(a=a, b=b, seat=0)
            err = explain(s, action)
            if err is not None:
                return None, err, notes
            before, cards = goods_of(s, 0), s.players[0].hand[PASSENGER]
            s = apply(s, action)
            got = goods_of(s, 0)[len(before):]
            paid = cards - s.players[0].hand[PASSENGER]
            notes.append(f"{a}–{b} " + ("on Red's route, 1 passenger card" if paid else "on Blue's route, free")
                         + (f", takes {got[0]}" if got else ", no token"))
        if len(names) > 1:
            s = apply(s, Stop(seat=0))
        return s, None, notes

    def trail(self) -> list[str]:
        return list(self.best.routes)


class BestPassengerMove(_JourneyExercise):
    """"Which journey collects the most goods?" (Märklin, MK-PASS-1 … 5) — answer the cities of the journey,
    e.g. "Magdeburg–Berlin–Leipzig"; any journey with the best score is right (checked against the exact solver)."""

    kind = "best_passenger_move"
    title = "The best passenger move"

    def prompt(self) -> Prompt:
        return _prompt(f"{self.title} (Märklin, seed {self.seed})", self._facts(),
                       "Which journey of Blue's passenger collects the most goods points?",
                       "Answer its cities in order, e.g. \"Magdeburg–Berlin–Leipzig\". Own routes are free, each "
                       "route of Red's costs a passenger card, no route twice (MK-PASS-1 … 5).")

    def solution(self) -> str:
        return "–".join(self.best.cities)

    def check(self, answer: Any) -> Feedback:
        rules = [self.rule(x) for x in ("MK-PASS-2", "MK-PASS-3", "MK-PASS-4")]
        cities = _cities(answer)
        if len(cities) < 2:
            return Feedback(False, f"A journey names at least two cities, the start ({self.start_city}) and where it "
                                   f"goes; got {answer!r}", rules)
        after, err, notes = self._play(cities)
        if err is not None:
            rule = getattr(err, "rule", "")
            return Feedback(False, f"That journey cannot be played: {err}", [rule] + rules)
        got = sum(goods_of(after, 0))
        best = self.best
        steps = "; ".join(notes)
        if got == best.points:
            return Feedback(True, f"{' – '.join(cities)} collects {got} point{'s' if got != 1 else ''} ({steps}), "
                                  f"the most possible with {self.cards} passenger card{'s' if self.cards != 1 else ''} "
                                  f"(MK-PASS-2 … 5).",
                            rules)
        paid = self.cards - after.players[0].hand[PASSENGER]
        tips = []                                   # what the best journey does that this one does not
        if len(best.cities) > len(cities):
            tips.append("Look for tokens further on.")
        if best.cards > paid:
            tips.append(f"{'A Red route is' if best.cards - paid == 1 else 'Red routes are'} worth "
                        f"{'a passenger card' if best.cards - paid == 1 else 'passenger cards'} here.")
        elif best.cards < paid:
            tips.append("It spends fewer passenger cards." if best.cards else "It needs no passenger card.")
        if not tips:
            tips.append("Another way round collects more.")
        return Feedback(False, f"{' – '.join(cities)} collects {got} point{'s' if got != 1 else ''} ({steps}); the best "
                               f"journey collects {best.points}: {' – '.join(best.cities)}, {best.cards} passenger card"
                               f"{'s' if best.cards != 1 else ''}. {' '.join(tips)}", rules)


class PassengerFare(_JourneyExercise):
    """"What does this journey cost and score?" (Märklin, MK-PASS-2, MK-PASS-4/5) — a given journey; answer the
    passenger cards it costs and the goods points it collects, e.g. "1, 14"."""

    kind = "passenger_fare"
    title = "What does this journey cost and score?"

    def __init__(self, seed: int = 0, variant: str = "maerklin"):
        super().__init__(seed, variant)
        self.journey = list(self.best.cities)
        after, _err, self.notes = self._play(self.journey)
        self.points = sum(goods_of(after, 0))
        self.fare = self.cards - after.players[0].hand[PASSENGER]

    def prompt(self) -> Prompt:
        return _prompt(f"{self.title} (Märklin, seed {self.seed})", self._facts(),
                       f"Blue's passenger travels {' – '.join(self.journey)}. How many passenger cards does it cost, "
                       "and how many goods points does it collect?",
                       "Answer two numbers: cards, points (e.g. \"1, 14\").")

    def solution(self) -> tuple[int, int]:
        return (self.fare, self.points)

    def check(self, answer: Any) -> Feedback:
        rules = [self.rule(x) for x in ("MK-PASS-2", "MK-PASS-4", "MK-PASS-5")]
        if isinstance(answer, str):
            nums = [int(x) for x in re.findall(r"\d+", answer)]
        elif isinstance(answer, (list, tuple)):
            nums = [x for x in answer if isinstance(x, int) and not isinstance(x, bool)]
        else:
            nums = []
        if len(nums) != 2:
            return Feedback(False, f"Answer two numbers, cards then points, not {answer!r}", rules)
        why = (f"{'; '.join(self.notes)}. So {self.fare} passenger card{'s' if self.fare != 1 else ''} and "
               f"{self.points} point{'s' if self.points != 1 else ''} (MK-PASS-2, MK-PASS-4/5).")
        ok = tuple(nums) == (self.fare, self.points)
        if not ok and tuple(nums) == (self.points, self.fare):
            return Feedback(False, "The numbers are right but swapped: cards first, then points. " + why, rules)
        return Feedback(ok, why, rules)
