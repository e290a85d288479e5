"""Scoring as a breakdown: routes, each ticket ±, the longest trail (the trail itself), extras, totals, and the
winner with the tie-break that decided it (USA-SCORE-1..4). ``score`` works at any moment of a game: before
the end it answers "what if the game ended now".
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from .names import seat_name
from .state import GameState
from .trail import Trail, longest_trail, longest_trail_canonical
from ..variants import Variant, get_variant


@dataclass(frozen=True)
class TicketResult:
    id: str
    a: str
    b: str
    points: int
    completed: bool
    path: tuple[str, ...] = ()          # route ids joining a and b (for completed tickets)
    via: tuple[str, ...] = ()           # borrowed routes used (Europe stations)

    @property
    def value(self) -> int:
        return self.points if self.completed else -self.points


@dataclass(frozen=True)
class PlayerScore:
    seat: int
    name: str
    route_points: int
    routes: tuple[str, ...]
    tickets: tuple[TicketResult, ...]
    longest: Trail
    longest_bonus: int
    extras: tuple[tuple[str, int], ...] = ()     # (label, points): e.g. ("stations not built", 8)
    notes: tuple[str, ...] = ()                  # e.g. which route each station borrowed
    stats: tuple[tuple[str, int], ...] = ()      # tie-break figures a feature adds (e.g. ("stations_used", 1))

    @property
    def ticket_points(self) -> int:
        return sum(t.value for t in self.tickets)

    @property
    def completed(self) -> int:
        return sum(1 for t in self.tickets if t.completed)

    @property
    def total(self) -> int:
        return self.route_points + self.ticket_points + self.longest_bonus + sum(p for _, p in self.extras)

    def stat(self, key: str, default: int = 0) -> int:
        return dict(self.stats).get(key, default)

    def __getstate__(self) -> dict:
        # a copy (copy, deepcopy, a transfer to another process) holds the trail itself, worked out now if unread
        self.longest
        return self.__dict__

    def to_dict(self) -> dict:
        return {
            "seat": self.seat, "name": self.name, "route_points": self.route_points, "routes": list(self.routes),
            "tickets": [{"id": t.id, "a": t.a, "b": t.b, "points": t.points, "completed": t.completed,
                         "value": t.value, "path": list(t.path), "via": list(t.via)} for t in self.tickets],
            "ticket_points": self.ticket_points, "completed": self.completed,
            "longest": {"length": self.longest.length, "routes": list(self.longest.routes), "cities": list(self.longest.cities)},
            "longest_bonus": self.longest_bonus, "extras": [list(e) for e in self.extras], "notes": list(self.notes),
            "total": self.total,
        }


class _Later:
    """A trail not worked out yet: ``fn(edges)`` on first read (games with no longest-path bonus, MK-SCORE-3 and
    SK-SCORE-4, only show it when something asks)."""
    __slots__ = ("fn", "edges")

    def __init__(self, fn: Callable[[Sequence[tuple[str, str, int, str]]], Trail], edges: list) -> None:
        self.fn, self.edges = fn, edges


class _LongestField:
    """``PlayerScore.longest``: holds a ``Trail`` or a ``_Later`` that becomes the ``Trail`` on first read and is
    kept. Everything that reads the field (equality, ``repr``, hashing, ``dataclasses.replace``, ``to_dict``)
    sees the trail itself; ``_with`` passes a trail nobody read on as it is."""

    def __get__(self, ps, owner=None):
        if ps is None:
            return self
        trail = ps.__dict__["longest"]
        if trail.__class__ is _Later:
            trail = ps.__dict__["longest"] = trail.fn(trail.edges)
        return trail

    def __set__(self, ps, trail) -> None:    # only the dataclass's __init__ gets here: the class is frozen
        ps.__dict__["longest"] = trail


PlayerScore.longest = _LongestField()   # after @dataclass: the field keeps no default


@dataclass(frozen=True)
class ScoreSheet:
    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]
    decided_by: str          # how the winner was found, with the rule id
    final: bool              # False: the game is not over, this is "if it ended now"
    longest_scores: bool = True   # False: the game has no longest-path bonus (Märklin): the table leaves it out

    def to_dict(self) -> dict:
        return {"players": [p.to_dict() for p in self.players], "winners": list(self.winners),
                "decided_by": self.decided_by, "final": self.final}

    def table(self) -> str:
        """A plain-text breakdown (the CLI prints it; notebooks show it when there is no kernel)."""
        extra_labels: list[str] = []
        for p in self.players:
            for label, _ in p.extras:
                if label not in extra_labels:
                    extra_labels.append(label)
        head = ["", "routes", "tickets", *(["longest"] if self.longest_scores else []), *extra_labels, "total"]
        rows = []
        for p in self.players:
            ex = dict(p.extras)
            longest = [f"{p.longest.length}{' +' + str(p.longest_bonus) if p.longest_bonus else ''}"] \
                if self.longest_scores else []
            rows.append([p.name, str(p.route_points), f"{p.ticket_points:+d} ({p.completed}/{len(p.tickets)})",
                         *longest,
                         *[str(ex.get(label, 0)) for label in extra_labels], str(p.total)])
        widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
        lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in [head] + rows]
        lines.append(("Winner: " if len(self.winners) == 1 else "Winners: ")
                     + ", ".join(self.players[w].name for w in self.winners) + f" — {self.decided_by}")
        return "\n".join(lines)

    def details(self) -> list[str]:
        """Per player: each ticket ±, the longest trail, and the features' notes (the CLI prints these lines)."""
        lines = []
        for p in self.players:
            done = ", ".join(f"{t.a}–{t.b} {t.value:+d}" for t in p.tickets)
            lines.append(f"  {p.name}: tickets {done}; longest trail {p.longest.length} trains"
                         + (f" ({' → '.join(p.longest.cities)})" if p.longest.routes else ""))
            lines += [f"    {note}" for note in p.notes]
        return lines

    def figures(self) -> dict[str, list[int]]:
        """Per-player figures for statistics (``ttr-nb simulate``)."""
        return {"longest trail": [p.longest.length for p in self.players]}


def owned_edges(v: Variant, state: GameState, seat: int) -> list[tuple[str, str, int, str]]:
    routes = v.map.routes
    return [(r.a, r.b, r.length, r.id) for r in (routes[i] for i, owner in enumerate(state.claims) if owner == seat)]


def _edges_by_seat(v: Variant, state: GameState) -> list[list[tuple[str, str, int, str]]]:
    """``owned_edges`` of every seat, in one pass over the claims."""
    return _routes_by_seat(v, state)[0]


def _routes_by_seat(v: Variant, state: GameState) -> tuple[list[list[tuple[str, str, int, str]]], list[list[int]]]:
    """(``owned_edges`` of every seat, the route indices of every seat), in one pass over the claims."""
    n = len(state.players)
    out: list[list] = [[] for _ in range(n)]
    idx: list[list[int]] = [[] for _ in range(n)]
    edges = v.route_table.edges
    for i, owner in enumerate(state.claims):
        if 0 <= owner < n:
            out[owner].append(edges[i])
            idx[owner].append(i)
    return out, idx


def connect_path(edges: Sequence[tuple[str, str, int, str]], a: str, b: str,
                 dead_end=None) -> tuple[str, ...] | None:
    """Route ids of a path a→b over ``edges`` (fewest routes; ties by route id), or None (USA-TICKET-4).
    ``dead_end(city)``: True for places a path may end at but not pass through (Märklin's countries)."""
    return _path(_adjacency(edges), a, b, dead_end)


def connect_paths(edges: Sequence[tuple[str, str, int, str]], pairs, dead_end=None) -> list[tuple[str, ...] | None]:
    """``connect_path`` for each (a, b) of ``pairs`` over the same ``edges`` (the network is read once)."""
    adj = _adjacency(edges)
    return [_path(adj, a, b, dead_end) for a, b in pairs]


def _adjacency(edges: Sequence[tuple[str, str, int, str]]) -> dict[str, list[tuple[str, str]]]:
    """city -> [(neighbour, route id)], each list in route id order (the order ``connect_path`` tries them)."""
    adj: dict[str, list[tuple[str, str]]] = {}
    for x, y, _, rid in sorted(edges, key=lambda e: e[3]):
        adj.setdefault(x, []).append((y, rid))
        adj.setdefault(y, []).append((x, rid))
    return adj


def _path(adj: dict[str, list[tuple[str, str]]], a: str, b: str, dead_end=None) -> tuple[str, ...] | None:
    """``connect_path`` over an adjacency made once for many tickets (breadth first, so fewest routes)."""
    if a == b:
        return ()
    prev: dict[str, tuple[str, str]] = {a: ("", "")}
    frontier = [a]
    while frontier:
        nxt = []
        for city in frontier:
            if dead_end is not None and city != a and dead_end(city):
                continue
            for other, rid in adj.get(city, ()):
                if other not in prev:
                    prev[other] = (city, rid)
                    if other == b:
                        path = []
                        while other != a:
                            other, rid2 = prev[other]
                            path.append(rid2)
                        return tuple(reversed(path))
                    nxt.append(other)
        frontier = nxt
    return None


def ticket_results(v: Variant, seat_tickets: Sequence[str], edges: Sequence[tuple[str, str, int, str]],
                   borrowed: frozenset[str] = frozenset(),
                   dead_ends: frozenset[str] = frozenset()) -> tuple[TicketResult, ...]:
    """Each ticket completed or not over ``edges`` with its path (USA-TICKET-4); ``dead_ends``: places a path may
    end at but not pass through (Märklin's countries, MK-SCORE-2)."""
    out = []
    up: dict[str, str] = {}                  # union-find over the network's cities (a root has no entry)
    for x, y, _, _ in edges:
        if dead_ends and (x in dead_ends or y in dead_ends):
            continue                         # joins nothing through it: a ticket ending there is searched
        while x in up:
            x = up[x]
        while y in up:
            y = up[y]
        if x != y:
            up[x] = y
    adj = None                               # the adjacency for paths: made only when a ticket is joined
    ticket = v.map.ticket
    for tid in seat_tickets:
        t = ticket(tid)
        a, b = t.a, t.b
        while a in up:
            a = up[a]
        while b in up:
            b = up[b]
        if a != b and not (dead_ends and (t.a in dead_ends or t.b in dead_ends)):
            path = None                            # not joined at all: no search needed
        else:
            if adj is None:
                adj = _adjacency(edges)
            path = _path(adj, t.a, t.b, dead_ends.__contains__ if dead_ends else None)
        out.append(TicketResult(t.id, t.a, t.b, t.points, path is not None, path or (),
                                tuple(r for r in path if r in borrowed) if path and borrowed else ()))
    return tuple(out)


def score(state: GameState) -> ScoreSheet:
    if not isinstance(state, GameState):          # a game with its own rules engine (the Card Game) scores itself
        from ..variants import rules_of
        return rules_of(state).score(state)
    v = get_variant(state.variant)
    st = v.settings
    bonus = st.longest_bonus
    players = []
    t = v.route_table
    dead_ends = frozenset()
    for f in v.features:
        dead_ends = f.ticket_dead_ends(v) or dead_ends
    by_seat, indices = _routes_by_seat(v, state)
    points, canon = t.points, t.canon_edges
    for seat, p in enumerate(state.players):
        edges = by_seat[seat]
        owned = indices[seat]
        routes = tuple([e[3] for e in edges])
        route_points = sum([points[i] for i in owned])                 # USA-SCORE-1, recounted from the board
        if t.ids_sorted:                                               # USA-SCORE-3
            trail, arg = longest_trail_canonical, [canon[i] for i in owned]
        else:
            trail, arg = longest_trail, edges
        longest = trail(arg) if bonus else _Later(trail, arg)          # no bonus: worked out when read
        players.append(PlayerScore(seat=seat, name=seat_name(seat), route_points=route_points, routes=routes,
                                   tickets=ticket_results(v, p.tickets, edges,      # USA-SCORE-2 / USA-TICKET-4
                                                          dead_ends=dead_ends),
                                   longest=longest, longest_bonus=0))
    if bonus:                                                         # USA-SCORE-3: ties all get it
        best = max(ps.longest.length for ps in players)
        if best > 0:
            players = [ps if ps.longest.length != best else _with(ps, longest_bonus=st.longest_bonus) for ps in players]
    sheet = {"players": players}
    for f in v.features:
        f.score(v, state, sheet)
    players = sheet["players"]
    winners, decided_by = _winners(v, players)
    return ScoreSheet(tuple(players), winners, decided_by, state.phase == "over", bool(v.settings.longest_bonus))


def _with(ps: PlayerScore, **changes) -> PlayerScore:
    """``dataclasses.replace`` that passes a longest trail nobody read yet on without working it out."""
    if "longest" not in changes:
        changes["longest"] = ps.__dict__["longest"]
    return replace(ps, **changes)


_TIE_BREAKS = {
    # name: (key: larger is better, words)
    "tickets": (lambda ps: ps.completed, "most completed tickets"),
    "longest": (lambda ps: 1 if ps.longest_bonus else 0, "holds the longest-path bonus"),
    "fewest_stations": (lambda ps: -ps.stat("stations_used"), "fewest stations built"),   # EU-SCORE-3 (F-EU-9)
    "goods": (lambda ps: ps.stat("goods_tokens"), "most goods tokens"),
    "big_cities": (lambda ps: ps.stat("big_cities"), "most Big Cities cards"),
}


def _winners(v: Variant, players: Sequence[PlayerScore]) -> tuple[tuple[int, ...], str]:
    """USA-SCORE-4: most points; ties broken by the variant's chain; still tied: shared victory."""
    rule = v.rule("USA-SCORE-4")
    totals = [ps.total for ps in players]
    best = max(totals)
    tied = [ps for ps, total in zip(players, totals) if total == best]
    if len(tied) == 1:
        return (tied[0].seat,), f"most points ({best}) ({rule})"
    steps = [f"tied on {best} points"]
    for name in v.settings.tie_breaks:
        key, words = _TIE_BREAKS[name]
        top = max(key(ps) for ps in tied)
        tied = [ps for ps in tied if key(ps) == top]
        steps.append(words)
        if len(tied) == 1:
            return (tied[0].seat,), f"{', then '.join(steps)} ({rule})"
    return tuple(ps.seat for ps in tied), f"{', then '.join(steps)}: still tied, the victory is shared ({rule}; sharing is an interpretation)"


__all__ = ["TicketResult", "PlayerScore", "ScoreSheet", "score", "connect_path", "connect_paths", "ticket_results", "owned_edges"]
