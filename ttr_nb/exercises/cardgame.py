"""Exercises on Ticket to Ride: The Card Game: may this play go into the rail yard (and does it rob), and which
tickets to complete from an on-the-track pile.

Positions come from seeded games of greedy bots; answers are checked by the Card Game's engine
(``yard_problem``, ``completion_problem``, the exact ``best_completion``), with the CG-* rule ids.
"""
from __future__ import annotations

import re
from typing import Any

from ..board.cards import CARD_NAMES, COLOURS, LOCO
from ..cardgame import engine as rules
from ..cardgame.data import load_cards
from ..board.engine import seat_name
from ..errors import TTRError
from ..game import Game
from .base import Exercise, Feedback, Prompt, _bool_answer, _int_between, _pick, _prompt

__all__ = ["CanPlayYard", "BestCompletion"]


def _bot_line(seed: int, players: int) -> Game:
    from ..bots import make_bot
    g = Game("cardgame", players=players, seed=seed)
    g.play_bots({s: make_bot("greedy", seed=seed * 10 + s) for s in range(players)})
    return g


def _cards(counts) -> str:
    return ", ".join(f"{n} {CARD_NAMES[k]}{'s' if k == LOCO and n != 1 else ''}" for k, n in enumerate(counts) if n) or "nothing"


class _CardExercise(Exercise):
    variants = ("cardgame",)

    def __init__(self, seed: int = 0, variant: str = "cardgame"):
        if variant != "cardgame":
            raise TTRError(f"this exercise is about the Card Game, not {variant!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise TTRError(f"an exercise seed is a whole number ≥ 0, got {seed!r}")
        from ..rng import stream
        self.seed, self.variant, self.v = seed, "cardgame", None
        self.rng = stream(seed, f"exercise/{self.kind}/cardgame")

    def rule(self, rule_id: str) -> str:
        return rule_id

    def board(self, **_kw):
        from ..render.cardtable import card_table_figure
        return card_table_figure(self.state, None, title=f"{self.title} — seed {self.seed}")


class CanPlayYard(_CardExercise):
    """"May Blue play these cards into the rail yard?" (CG-YARD-1 … 4) — answer yes or no; the feedback says whose
    stack a legal play robs."""

    kind = "can_play_yard"
    title = "May this play go into the rail yard?"

    def __init__(self, seed: int = 0, variant: str = "cardgame"):
        super().__init__(seed, variant)
        r = self.rng
        players = _int_between(r, 2, 4)
        g = _bot_line(seed, players)
        # a move where the player to act could rob: an opponent has a stack of a colour in its hand
        found = []
        for ply in range(len(g.line)):
            s = g.state_at(ply)
            if s.phase != "play" or s.pending:
                continue
            seat = s.current
            p = s.players[seat]
            for c in range(len(COLOURS)):
                if p.hand[c] + p.hand[LOCO] >= 2 and p.hand[c] and rules.opponents_stack(s, seat, c):
                    found.append((ply, seat, c))
        if not found:                                    # pragma: no cover - every seed's game has some
            raise TTRError(f"no rail-yard position found for seed {seed}")
        ply, self.seat, c = _pick(r, found)
        self.state = g.state_at(ply)
        p = self.state.players[self.seat]
        locos = _int_between(r, 0, min(p.hand[LOCO], 1))
        n = _int_between(r, max(1, 2 - locos), p.hand[c]) if p.hand[c] >= max(1, 2 - locos) else p.hand[c]
        self.payment = tuple(x for x in ((c, n), (LOCO, locos)) if x[1])
        self.problem = rules.yard_problem(self.state, self.seat, self.payment)

    def _yards(self) -> list[str]:
        view = rules.observe(self.state, self.seat)
        out = []
        for q in view["players"]:
            stacks = ", ".join(f"{v['cards']} {c}" + (f" + {v['locomotives']} loco" if v["locomotives"] else "")
                               for c, v in q["yard"].items()) or "empty"
            out.append(f"{q['name']}'s rail yard: {stacks}")
        return out

    def prompt(self) -> Prompt:
        hand = _cards(self.state.players[self.seat].hand)
        play = " + ".join(f"{n} {CARD_NAMES[k]}" for k, n in self.payment)
        return _prompt(f"{self.title} (the Card Game, seed {self.seed})",
                       self._yards() + [f"{seat_name(self.seat)}'s hand: {hand}"],
                       f"May {seat_name(self.seat)} play {play} into the rail yard now?",
                       "Answer yes or no (CG-YARD-1 … 4).")

    def solution(self) -> bool:
        return self.problem is None

    def check(self, answer: Any) -> Feedback:
        said = _bool_answer(answer)
        if said is None:
            return Feedback(False, f"Answer yes or no, not {answer!r}", ["CG-YARD-1"])
        if self.problem is not None:
            why, rule = self.problem
            return Feedback(said is False, f"No: {why} ({rule}).", [rule])
        c = next(k for k, _ in self.payment if k != LOCO)
        size = sum(n for _, n in self.payment)
        robbed = [(i, q.stack(c)) for i, q in enumerate(self.state.players) if i != self.seat and q.stack(c)]
        rob = "; ".join(f"{seat_name(i)}'s stack of {k} {COLOURS[c]} is beaten by {size} and discarded"
                        for i, k in robbed)
        return Feedback(said is True, f"Yes: {size} cards of {COLOURS[c]} (locomotives count toward the stack), more "
                                      f"than any other player's {COLOURS[c]} stack — train robbing: {rob} (CG-YARD-4).",
                        ["CG-YARD-1", "CG-YARD-4"])


class BestCompletion(_CardExercise):
    """"Which tickets would you complete?" (CG-END-2) — at the end of a round: answer the tickets to complete
    from the on-the-track pile; right when the set can be paid and scores the most points (exact)."""

    kind = "best_completion"
    title = "Which tickets to score at the end of the round?"

    def __init__(self, seed: int = 0, variant: str = "cardgame"):
        super().__init__(seed, variant)
        r = self.rng
        players = _int_between(r, 2, 3)
        g = _bot_line(seed, players)
        found = []
        for ply in range(len(g.line)):
            s = g.state_at(ply)
            for p in s.pending:
                if p.kind == "complete_tickets" and len(rules.completable(s.players[p.seat])) >= 2 \
                        and s.players[p.seat].completed == ():
                    # a real choice first: the pile cannot pay for every open ticket
                    full = len(rules.best_completion(s, p.seat, "points")) == len(s.players[p.seat].tickets)
                    found.append((full, ply, p.seat))
        if not found:
            raise TTRError(f"no end-of-round position with a choice found for seed {seed}")
        _full, ply, self.seat = min(found)
        self.state = g.state_at(ply)
        self.best = rules.best_completion(self.state, self.seat, "points")
        data = load_cards()
        self.best_points = sum(data.ticket(t).points for t in self.best)

    def prompt(self) -> Prompt:
        data = load_cards()
        p = self.state.players[self.seat]
        tickets = [f"{data.ticket(t).a}–{data.ticket(t).b} ({data.ticket(t).points}): needs {data.ticket(t).needs_words()}"
                   for t in p.tickets]
        twins = [self._name(t) for t in p.tickets if "(" in self._name(t)]
        return _prompt(f"{self.title} (the Card Game, seed {self.seed})",
                       [f"{seat_name(self.seat)}'s on-the-track pile: {_cards(p.track)}",
                        "open tickets:"] + tickets,
                       "Which tickets should it complete for the most points? Each card serves one ticket; a locomotive "
                       "stands in for any colour.",
                       "Answer the tickets by their cities, e.g. \"Chicago–Miami, Dallas–Seattle\""
                       + ("; where two tickets join the same cities, add the colours they need, e.g. "
                          f"\"{twins[0]}\"" if twins else "") + " (CG-END-2).")

    def _name(self, t: str) -> str:
        """A held ticket by its cities; with the colours it needs when another held ticket joins the same two cities
        (the deck has Chicago–New York for 1 yellow and New York–Chicago for 1 blue)."""
        data = load_cards()
        ticket = data.ticket(t)
        twins = [u for u in self.state.players[self.seat].tickets
                 if u != t and {data.ticket(u).a, data.ticket(u).b} == {ticket.a, ticket.b}]
        return f"{ticket.a}–{ticket.b}" + (f" ({ticket.needs_words()})" if twins else "")

    def solution(self) -> str:
        return ", ".join(self._name(t) for t in self.best)

    def check(self, answer: Any) -> Feedback:
        data = load_cards()
        refs = answer if isinstance(answer, (list, tuple)) else [x for x in re.split(r"\s*[,;]\s*", str(answer)) if x]
        ids = []
        open_ = list(self.state.players[self.seat].tickets)
        for ref in refs:
            ref = str(ref).strip()
            cities, _, needs = ref.partition("(")                # "Chicago–New York (1 yellow)": which of two
            cities, needs = cities.strip(), needs.rstrip(") ").strip()
            fits = [t for t in open_ if t not in ids and (not needs or data.ticket(t).needs_words() == needs)]
            # a held ticket by its id or its cities (the exact order first: two tickets may join the same cities)
            match = [t for t in fits if t == ref.upper() or f"{data.ticket(t).a}–{data.ticket(t).b}" == cities]
            match += [t for t in fits if t not in match
                      and {data.ticket(t).a, data.ticket(t).b} == set(re.split(r"\s*[–-]\s*", cities))]
            if not match:
                return Feedback(False, f"{ref!r} is not one of the open tickets", ["CG-END-2"])
            ids.append(match[0])
        problem = rules.completion_problem(self.state, self.seat, ids)
        if problem is not None:
            return Feedback(False, f"That set cannot be completed: {problem[0]} ({problem[1]}).", [problem[1]])
        got = sum(data.ticket(t).points for t in ids)
        best = f"the best set is {self.solution()} for {self.best_points} points (found exactly, CG-END-2)"
        if got == self.best_points:
            return Feedback(True, f"{got} points, the most this pile can pay for; {best}.", ["CG-END-2"])
        return Feedback(False, f"That set can be paid but scores {got} points; {best}.", ["CG-END-2"])
