"""Card Game scoring as a breakdown (CG-SCORE-1..4): completed tickets of both rounds, Big Cities bonus cards,
minus the tickets still open, and the winner with the tie-break that decided it. Works at any moment: before the
end it answers "what if the game ended now" (``final`` is False).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..board.engine import seat_name
from .data import load_cards
from .state import CardState


@dataclass(frozen=True)
class CardTicketResult:
    id: str
    a: str
    b: str
    points: int
    completed: bool
    round: int = 0                  # the round it was completed in (0: open)

    @property
    def value(self) -> int:
        return self.points if self.completed else -self.points


@dataclass(frozen=True)
class CardPlayerScore:
    seat: int
    name: str
    tickets: tuple[CardTicketResult, ...]
    big_cities: tuple[tuple[str, int], ...]        # (city, points) of the bonus cards won

    @property
    def ticket_points(self) -> int:
        return sum(t.value for t in self.tickets)

    @property
    def completed(self) -> int:
        return sum(1 for t in self.tickets if t.completed)

    @property
    def bonus(self) -> int:
        return sum(p for _, p in self.big_cities)

    @property
    def total(self) -> int:
        return self.ticket_points + self.bonus

    def to_dict(self) -> dict:
        return {"seat": self.seat, "name": self.name,
                "tickets": [{"id": t.id, "a": t.a, "b": t.b, "points": t.points, "completed": t.completed,
                             "round": t.round, "value": t.value} for t in self.tickets],
                "ticket_points": self.ticket_points, "completed": self.completed,
                "big_cities": [list(b) for b in self.big_cities], "bonus": self.bonus, "total": self.total}


@dataclass(frozen=True)
class CardScoreSheet:
    players: tuple[CardPlayerScore, ...]
    winners: tuple[int, ...]
    decided_by: str
    final: bool
    standings: tuple[dict, ...]              # per Big City: points, completed tickets per seat, holders

    def table(self) -> str:
        rows = [f"{'player':8} {'tickets':>8} {'done':>5} {'big cities':>10} {'total':>6}"]
        for p in self.players:
            mark = " *" if p.seat in self.winners else ""
            rows.append(f"{p.name:8} {p.ticket_points:>8} {p.completed:>5} {p.bonus:>10} {p.total:>6}{mark}")
        rows.append(f"* winner — {self.decided_by}")
        return "\n".join(rows)

    def details(self) -> list[str]:
        lines = []
        for p in self.players:
            done = ", ".join(f"{t.a}–{t.b} {t.value:+d}" for t in p.tickets) or "no tickets"
            won = ", ".join(f"{c} {pts}" for c, pts in p.big_cities) or "none"
            lines.append(f"  {p.name}: {done}; Big Cities: {won}")
        return lines

    def figures(self) -> dict[str, list[int]]:
        """Per-player figures for statistics (``ttr-nb simulate``)."""
        return {"Big Cities cards": [len(p.big_cities) for p in self.players]}

    def to_dict(self) -> dict:
        return {"players": [p.to_dict() for p in self.players], "winners": list(self.winners),
                "decided_by": self.decided_by, "final": self.final, "big_cities": list(self.standings)}


def big_city_standings(state: CardState) -> list[dict]:
    """CG-SCORE-2: per Big City, completed tickets to it per seat (a ticket to two Big Cities counts for both) and
    who holds the bonus card now (every seat tied on the most; nobody without a completed ticket to it)."""
    data = load_cards()
    where = {b.city: k for k, b in enumerate(data.big_cities)}
    tally = [[0] * len(state.players) for _ in data.big_cities]
    for i, p in enumerate(state.players):
        for t in p.completed:
            tk = data.ticket(t)
            for city in (tk.a, tk.b) if tk.a != tk.b else (tk.a,):
                k = where.get(city)
                if k is not None:
                    tally[k][i] += 1
    out = []
    for b, counts in zip(data.big_cities, tally):
        top = max(counts)
        out.append({"city": b.city, "points": b.points, "completed": counts,
                    "holders": [i for i, c in enumerate(counts) if top and c == top]})
    return out


def score(state: CardState) -> CardScoreSheet:
    data = load_cards()
    standings = big_city_standings(state)
    players = []
    for i, p in enumerate(state.players):
        results = []
        for j, t in enumerate(p.completed):
            tk = data.ticket(t)
            results.append(CardTicketResult(tk.id, tk.a, tk.b, tk.points, True, 1 if j < p.completed_round1 or
                                            (state.round == 1) else 2))
        for t in p.tickets:
            tk = data.ticket(t)
            results.append(CardTicketResult(tk.id, tk.a, tk.b, tk.points, False))
        won = tuple((s["city"], s["points"]) for s in standings if i in s["holders"])
        players.append(CardPlayerScore(i, seat_name(i), tuple(results), won))
    winners, decided = _winners(players)
    return CardScoreSheet(tuple(players), winners, decided, state.phase == "over", tuple(standings))


def _winners(players: list[CardPlayerScore]) -> tuple[tuple[int, ...], str]:
    """CG-SCORE-4: most points; tie: most completed tickets; then most Big Cities cards; then shared."""
    field = list(players)
    steps = (("most points", lambda p: p.total), ("tied on points; most completed tickets", lambda p: p.completed),
             ("tied on points and completed tickets; most Big Cities cards", lambda p: len(p.big_cities)))
    for i, (label, key) in enumerate(steps):
        best = max(key(p) for p in field)
        field = [p for p in field if key(p) == best]
        if len(field) == 1:
            return (field[0].seat,), f"{label} (CG-SCORE-4)"
    return tuple(p.seat for p in field), "still tied after every tie-break: the victory is shared (CG-SCORE-4)"


__all__ = ["CardScoreSheet", "CardPlayerScore", "CardTicketResult", "score", "big_city_standings"]
