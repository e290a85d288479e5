"""A classroom exercise with the coach (``ttr_nb.coach``): guess a move's chance to win, the coach checks it.

A seeded game of greedy bots is stopped at a turn with a real choice; the student sees the player's hand, tickets
and the board, and one move (the coach's choice, or another it compared). The question: how likely is the player
to win after that move? The coach answers from its playouts (a fixed number, seeded: every student of a class
gets the same numbers) and explains its estimate; a guess within ``tolerance`` (15 percentage points by default)
counts as right. ``compare()`` shows every move the coach compared, to discuss why one is better.
"""
from __future__ import annotations

import re
from typing import Any

from ..board.engine import legal_actions, seat_name, to_move
from ..errors import TTRError
from .base import Exercise, Feedback, Prompt, _hand_words, _int_between, _prompt, _ticket_words

__all__ = ["WinChance"]


def _percent(answer: Any) -> float | None:
    """A chance from a percentage (62, '62%', '62 percent') or a share written as a decimal (0.62, '0.62'); a whole
    number is always a percentage. None when it is not a chance."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, str):
        m = re.fullmatch(r"\s*([0-9]*[.,]?[0-9]+)\s*(%|percent)?\s*", answer)
        if m is None:
            return None
        number = m.group(1).replace(",", ".")
        x = float(number)
        share = "." in number and not m.group(2) and x <= 1
    elif isinstance(answer, int):
        x, share = float(answer), False
    elif isinstance(answer, float):
        x, share = answer, answer <= 1
    else:
        return None
    if share:
        return x if 0 <= x <= 1 else None
    return x / 100 if 0 <= x <= 100 else None


class WinChance(Exercise):
    """"After this move, how likely is Blue to win?" — answer a percentage; the coach checks it with its playouts
    (``playouts`` in all, seeded) and says why. ``move``: "best" (the coach's choice) or "other" (another move it
    compared)."""

    kind = "win_chance"
    title = "How likely is this move to win?"
    variants = ("usa",)              # any board game works (``variant="europe"`` ...); the USA is the one tested

    def __init__(self, seed: int = 0, variant: str = "usa", *, move: str = "best", playouts: int = 90,
                 tolerance: float = 0.15):
        super().__init__(seed, variant)
        if move not in ("best", "other"):
            raise TTRError(f"move must be 'best' or 'other', got {move!r}")
        if isinstance(tolerance, bool) or not isinstance(tolerance, int | float) or not 0 < tolerance <= 0.5:
            raise TTRError(f"tolerance must be a number above 0 and at most 0.5, got {tolerance!r}")
        from ..coach import Settings, advise
        from .base import _bot_game
        r = self.rng
        g = _bot_game(self.variant, 2, seed)
        # turns in the middle of the game with a real choice, closest scores first: an open game is worth guessing
        turns = []
        for ply in g.history:
            before = g.state_at(ply.number - 1)
            if before.phase == "play" and not before.pending and 10 <= before.turn <= 40 \
                    and len(legal_actions(before, ply.seat)) > 3:
                gap = abs(before.players[0].route_points - before.players[1].route_points)
                turns.append((gap, _int_between(r, 0, 1000), ply.number - 1))
        if not turns:                                    # pragma: no cover - every seed's game has some
            raise TTRError(f"no turn with a real choice found in the game of seed {seed}")
        turns.sort()
        self.tolerance = float(tolerance)
        settings = Settings(max_candidates=3)
        for _, _, ply in turns[:4]:          # the first position where the coach's estimate is not a foregone end
            self.state = g.state_at(ply)
            self.seat = to_move(self.state)[0]
            self.advice = advise(self.state, self.seat, playouts=playouts, seed=f"exercise/{seed}", settings=settings)
            if 0.1 <= self.advice.chosen.win <= 0.9:
                break
        if move == "best" or len(self.advice) < 2:
            self.move = self.advice.chosen
        else:
            others = [a for a in self.advice if not a.chosen]
            self.move = others[_int_between(r, 0, len(others) - 1)]

    def prompt(self) -> Prompt:
        s, seat = self.state, self.seat
        p = s.players[seat]
        other = 1 - seat
        lines = [f"You play {seat_name(seat)}; {seat_name(other)} is a greedy bot. Turn {s.turn + 1}.",
                 f"Your hand: {_hand_words(p.hand)}; {p.trains} trains left; {p.route_points} route points so far "
                 f"({seat_name(other)}: {s.players[other].route_points}, {s.players[other].trains} trains left).",
                 "Your tickets: " + (", ".join(_ticket_words(self.v, t) for t in p.tickets) or "none") + ".",
                 f"The move: {self.move.words}."]
        return _prompt(f"{self.title} ({self.v.name}, seed {self.seed})", lines,
                       f"After this move, what is {seat_name(seat)}'s chance to win?",
                       "Answer with a percentage, e.g. ex.check(40) or ex.check('40%'); the board: ex.board().")

    def solution(self) -> float:
        return round(self.move.win, 2)

    def check(self, answer: Any) -> Feedback:
        guess = _percent(answer)
        if guess is None:
            return Feedback(False, f"Give a chance as a percentage from 0 to 100 (or a share from 0 to 1), not "
                                   f"{answer!r}.")
        est = self.move.win
        diff = guess - est
        ok = abs(diff) <= self.tolerance + 1e-9
        won = round(est * self.move.playouts)
        text = (f"The coach estimates {round(100 * est)}%: {seat_name(self.seat)} won {won} of the "
                f"{self.move.playouts} games it played on from here after this move (everyone playing on like a "
                f"greedy bot). Why: {self.move.why}")
        if not ok:
            text = (f"Your {round(100 * guess)}% is {abs(round(100 * diff))} points too {'high' if diff > 0 else 'low'}. "
                    + text)
        best = self.advice.chosen
        if best is not self.move:
            text += f"\nThe coach's own choice here: {best.words} ({round(100 * best.win)}%)."
        return Feedback(ok, text)

    def compare(self) -> str:
        """Every move the coach compared, best first, with its chance and reason (for a class discussion)."""
        return "\n".join(f"{'* ' if a.chosen else '  '}{a.words}: {round(100 * a.win)}% — {a.why}" for a in self.advice)
