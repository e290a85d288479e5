"""Exercises on South Korea's province board: where a train lands, and who gets which line bonus.

Positions are seeded: some trains already on a line, a claim with a number of cards and maybe an express card,
or a line with several players' trains. The answers are checked against the engine (``province_space``,
``province_ranking``), and the feedback cites the rule ids (SK-PROV-3/4, SK-EXPRESS-3, SK-SCORE-2/3).
"""
from __future__ import annotations

import re
from typing import Any

from ..board.cards import COLOURS
from ..board.engine import seat_name
from ..errors import TTRError
from ..games.south_korea import PROVINCE_BONUS, province_lines, province_occupied, province_ranking, province_space
from ..board.positions import position
from .base import Exercise, Feedback, Prompt, _int_answer, _int_between, _pick, _prompt

__all__ = ["ProvinceSpace", "ProvinceBonus"]


class _ProvinceExercise(Exercise):
    variants = ("south_korea",)

    def __init__(self, seed: int = 0, variant: str = "south_korea"):
        super().__init__(seed, variant)
        if self.v.feature("province") is None:
            raise TTRError(f"{self.v.name} has no province board (South Korea has)")
        self.lines = province_lines(self.v)

    def _line_words(self, line: str) -> str:
        taken = province_occupied(self.state, line)
        spaces = self.lines[line]
        return (f"the {line} line has spaces {spaces[0]}–{spaces[-1]}; taken: "
                + (", ".join(f"{s} ({seat_name(o)})" for s, o in sorted(taken.items())) or "none"))


class ProvinceSpace(_ProvinceExercise):
    """"Which space does the train land on?" (South Korea, SK-PROV-3/4, SK-EXPRESS-3) — answer a space number,
    or "none" when the train cannot go on the line."""

    kind = "province_space"
    title = "Which province space?"

    def __init__(self, seed: int = 0, variant: str = "south_korea"):
        super().__init__(seed, variant)
        r = self.rng
        self.line = _pick(r, [c for c in COLOURS if c in self.lines])
        spaces = self.lines[self.line]
        self.cards = _int_between(r, 2, 6)
        self.express = _pick(r, [0, 0, 1, 2, 3])
        value = self.cards + self.express
        # some trains of the other players on the line, often on the very space the train aims at
        wanted = [value] if value in spaces and r.random() < 0.7 else []
        others = wanted + [s for s in spaces if s != value and r.random() < 0.3]
        trains = [(self.line, s, 1 + _int_between(r, 0, 1)) for s in sorted(set(others))]
        self.state = position(self.variant, players=3, seed=seed, province=trains)
        self.seat = 0
        self.value = value
        self.space, self.how = province_space(self.v, self.state, self.line, value)

    def prompt(self) -> Prompt:
        boost = f" and the +{self.express} express card" if self.express else " and no express card"
        return _prompt(f"{self.title} (South Korea, seed {self.seed})",
                       [self._line_words(self.line),
                        f"Blue claims a {self.line} route paying {self.cards} cards{boost}, and puts a train on the "
                        f"{self.line} province line"],
                       "On which space does Blue's train land?",
                       "Answer a space number, or \"none\" if it cannot go on this line (SK-PROV-3/4).")

    def solution(self) -> int | str:
        return self.space if self.space is not None else "none"

    def check(self, answer: Any) -> Feedback:
        rules = [self.rule(x) for x in ("SK-PROV-3", "SK-PROV-4")] + ([self.rule("SK-EXPRESS-3")] if self.express else [])
        said = _int_answer(answer)
        none = isinstance(answer, str) and answer.strip().lower() in ("none", "no space", "nowhere", "-", "no")
        if said is None and not none and answer is not None:
            return Feedback(False, f"Answer a space number or \"none\", not {answer!r}", rules)
        sum_words = f"{self.cards} cards" + (f" + the +{self.express} express card" if self.express else "")
        why = f"{sum_words} = {self.value}: {self.how if self.space is not None else 'no space — ' + self.how}."
        right = (self.space is None and (none or answer is None)) or (self.space is not None and said == self.space)
        if not right and self.space is not None and said == self.value:
            why = f"Space {self.value} is taken, so the train goes lower: " + why
        return Feedback(right, why, rules)


class ProvinceBonus(_ProvinceExercise):
    """"Who gets which bonus for this line?" (South Korea, SK-SCORE-2/3) — answer each player's bonus, e.g.
    "Green 10, Yellow 6, Blue 4, Red 0" (a player not named gets 0)."""

    kind = "province_bonus"
    title = "Who gets the province bonus?"

    def __init__(self, seed: int = 0, variant: str = "south_korea"):
        super().__init__(seed, variant)
        r = self.rng
        self.players = _int_between(r, 3, 5)
        self.line = _pick(r, [c for c in COLOURS if c in self.lines])
        spaces = list(self.lines[self.line])
        trains = []
        for seat in range(self.players):
            for _ in range(_int_between(r, 0, 2)):
                free = [s for s in spaces if all(s != t[1] for t in trains)]
                if free:
                    trains.append((self.line, _pick(r, free), seat))
        if len({t[2] for t in trains}) < 2:           # at least two players on the line
            free = [s for s in spaces if all(s != t[1] for t in trains)]
            trains += [(self.line, free[0], 0), (self.line, free[-1], 1)]
        self.state = position(self.variant, players=self.players, seed=seed, province=trains)
        self.ranking = province_ranking(self.v, self.state, self.line)
        self.bonus = {seat: 0 for seat in range(self.players)}
        for row in self.ranking:
            self.bonus[row["seat"]] = row["bonus"]

    def prompt(self) -> Prompt:
        table = PROVINCE_BONUS.get(self.players, ())
        return _prompt(f"{self.title} (South Korea, seed {self.seed})",
                       [self._line_words(self.line),
                        f"{self.players} players: the bonuses are {', '.join(f'+{b}' for b in table)} (SK-SCORE-2)"],
                       f"Which bonus does each player get for the {self.line} line at the end?",
                       "Answer like \"Green 10, Red 6, Blue 0\" (a player you do not name gets 0).")

    def solution(self) -> str:
        return ", ".join(f"{seat_name(s)} {b}" for s, b in sorted(self.bonus.items(), key=lambda kv: (-kv[1], kv[0])))

    def _parse(self, answer: Any) -> dict[int, int] | None:
        names = {seat_name(s).lower(): s for s in range(self.players)}
        got = {s: 0 for s in range(self.players)}
        if isinstance(answer, dict):
            items = [(str(k), v) for k, v in answer.items()]
        elif isinstance(answer, str):
            items = re.findall(r"([A-Za-z]+)\s*[:=]?\s*\+?(\d+)", answer)
        else:
            return None
        for name, points in items:
            seat = names.get(str(name).strip().lower())
            if seat is None or _int_answer(points) is None:
                return None
            got[seat] = _int_answer(points)
        return got

    def check(self, answer: Any) -> Feedback:
        rules = [self.rule(x) for x in ("SK-SCORE-2", "SK-SCORE-3")]
        got = self._parse(answer)
        if got is None:
            return Feedback(False, f"Answer each player's bonus by name, e.g. {self.solution()!r}; not {answer!r}", rules)
        lines = []
        for rank, row in enumerate(self.ranking, start=1):
            lines.append(f"{rank}. {seat_name(row['seat'])}: spaces {', '.join(map(str, row['spaces']))} = "
                         f"{row['total']} → +{row['bonus']}")
        ties = [(a, b) for a, b in zip(self.ranking, self.ranking[1:]) if a["total"] == b["total"]]
        why = "Ranked by the sum of each player's spaces" + (
            ", a tie going to the player with the higher space" if ties else "") + ": " + "; ".join(lines) + \
            ". A player with no train on the line gets nothing."
        return Feedback(got == self.bonus, why, rules)
