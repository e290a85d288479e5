"""Scoring as a breakdown: routes, each ticket ±, the longest trail (the trail itself), extras, totals, and the
winner with the tie-break that decided it (USA-SCORE-1..4). ``score`` works at any moment of a game: before
the end it answers "what if the game ended now".
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from .names import seat_name
from .state import GameState
from .trail import Trail, longest_trail, longest_trail_canonical, trail_length
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
    """A value not worked out yet: ``fn(*args)`` on first read (a trail in games with no longest-path bonus,
    MK-SCORE-3 and SK-SCORE-4, or of a seat that cannot reach the bonus; a sheet's breakdown), made only when
    something asks."""
    __slots__ = ("fn", "args")

    def __init__(self, fn: Callable, *args) -> None:
        self.fn, self.args = fn, args


class _Deferred:
    """A dataclass field that holds its value or a ``_Later`` that becomes the value on first read and is kept.
    Everything that reads the field (equality, ``repr``, hashing, ``dataclasses.replace``, ``to_dict``) sees the
    value itself; ``_with`` passes a trail nobody read on as it is."""
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name]
        if value.__class__ is _Later:
            value = obj.__dict__[self.name] = value.fn(*value.args)
        return value

    def __set__(self, obj, value) -> None:    # only the dataclass's __init__ gets here: the class is frozen
        obj.__dict__[self.name] = value


PlayerScore.longest = _Deferred("longest")   # after @dataclass: the field keeps no default


@dataclass(frozen=True)
class ScoreSheet:
    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]
    decided_by: str          # how the winner was found, with the rule id
    final: bool              # False: the game is not over, this is "if it ended now"
    longest_scores: bool = True   # False: the game has no longest-path bonus (Märklin): the table leaves it out

    def __getstate__(self) -> dict:
        # a copy (copy, deepcopy, a transfer to another process) holds the breakdown itself, made now if unread
        for ps in self.players:
            ps.__getstate__()
        return self.__dict__

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


ScoreSheet.players = _Deferred("players")   # a game without features scores its winners first (see ``score``)


def owned_edges(v: Variant, state: GameState, seat: int) -> list[tuple[str, str, int, str]]:
    routes = v.map.routes
    return [(r.a, r.b, r.length, r.id) for r in (routes[i] for i, owner in enumerate(state.claims) if owner == seat)]


def _indices_by_seat(state: GameState) -> list[list[int]]:
    """The route indices every seat owns, ascending, in one pass over the claims."""
    n = len(state.players)
    idx: list[list[int]] = [[] for _ in range(n)]
    for i, owner in enumerate(state.claims):
        if 0 <= owner < n:
            idx[owner].append(i)
    return idx


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
    """The score sheet of ``state`` (USA-SCORE-1..4). A game without features (USA) works out its totals and
    winners from integers per seat, and makes the breakdown (each ticket's path, the seats' ``PlayerScore``)
    when something first reads ``players``; a seat that cannot reach the longest-path bonus has its trail worked
    out when read. Either way the sheet is the same value."""
    if not isinstance(state, GameState):          # a game with its own rules engine (the Card Game) scores itself
        from ..variants import rules_of
        return rules_of(state).score(state)
    v = get_variant(state.variant)
    t = v.route_table
    indices = _indices_by_seat(state)
    bonus = v.settings.longest_bonus
    lean = _lean(v)
    heaviest = completed = ups = None
    if lean and _dead_places(v):                  # tickets judged avoiding the dead ends (MK-SCORE-2): the networks
        if bonus:                                 # only for the bonus's pruning, none without a bonus (MK-SCORE-3)
            heaviest, _, ups = _networks(t, state, indices)
        completed = _completed_avoiding(t, state, indices, _dead_places(v))
    elif bonus:
        heaviest, completed, ups = _networks(t, state, indices)
        _LAST_PIECES[0] = (state.claims, len(indices), t, ups)
    elif lean is not None:                        # no bonus (SK-SCORE-4): the tickets alone, no piece weighed
        completed = [_joined(_pieces(t, indices[seat]), t.ticket_ends, p.tickets)
                     for seat, p in enumerate(state.players)]
    trails, bonus_seats = _trails(t, indices, heaviest, ups, bonus)
    final, longest_scores = state.phase == "over", bool(bonus)
    if lean is not None:
        points, tickets = t.points, t.ticket_ends
        totals = []
        for seat, p in enumerate(state.players):
            total = sum([points[i] for i in indices[seat]]) + (bonus if seat in bonus_seats else 0)
            for tid, done in zip(p.tickets, completed[seat]):
                total += tickets[tid][2] if done else -tickets[tid][2]
            totals.append(total)
        for feature_points in lean:
            for seat, extra in enumerate(feature_points(v, state, completed)):
                totals[seat] += extra
        sole = _sole_winner(v, totals)
        if sole is not None:                      # the breakdown is made when read
            return ScoreSheet(_Later(_breakdown, v, state, indices, trails, bonus_seats), *sole, final,
                              longest_scores)
    players = _breakdown(v, state, indices, trails, bonus_seats)
    winners, decided_by = _winners(v, players)
    return ScoreSheet(players, winners, decided_by, final, longest_scores)


#: (claims, number of seats, route table, each seat's ``_pieces``) that ``score`` last worked out by ``_networks``: a
#: feature's ``score_points`` for the same state reads them there (Europe's best_borrowing, for every seat with a
#: station) instead of another pass over the claims and another union-find. One tuple, replaced whole; the claims
#: are held there, so their identity answers (the lists are only read).
_LAST_PIECES: list = [(None, 0, None, None)]


def _lean(v: Variant) -> tuple | None:
    """The features' ``score_points`` when ``score`` may find the winners from totals first (every feature that
    scores has them); () for a game without features; None when the breakdown must be made at once. Kept per
    variant."""
    found = v.__dict__.get("_lean_score", False)
    if found is False:
        scoring = [f for f in v.features if f.overrides("score")]
        found = None if any(f.score_points is None for f in scoring) else tuple(f.score_points for f in scoring)
        v.__dict__["_lean_score"] = found
    return found


def _dead_places(v: Variant) -> frozenset[int]:
    """The route table's city numbers of the places a ticket's path may end at but not pass through (the features'
    ``ticket_dead_ends``: Märklin's countries, MK-SCORE-2). Kept per variant."""
    found = v.__dict__.get("_dead_places")
    if found is None:
        names: frozenset[str] = frozenset()
        for f in v.features:
            names = f.ticket_dead_ends(v) or names
        t = v.route_table
        found = v.__dict__["_dead_places"] = frozenset(
            n for r, pair in zip(t.routes, t.ends) for name, n in zip((r.a, r.b), pair) if name in names)
    return found


def _completed_avoiding(t, state: GameState, indices: list[list[int]], dead: frozenset[int]) -> list[list[bool]]:
    """Each seat's tickets completed or not when the places ``dead`` may end a path but never lie inside one
    (MK-SCORE-2), as ``ticket_results`` finds them: a union-find over the routes between other places; a dead
    end joins the pieces its routes lead to, and a route between two dead ends joins just those two."""
    tickets = t.ticket_ends
    sides = _dead_sides(t, dead)
    out = []
    for seat, p in enumerate(state.players):
        at: dict[int, list[int]] = {}              # a dead end -> the places its routes lead to
        inner = []                                 # the routes between other places
        for i in indices[seat]:
            pairs = sides[i]
            if pairs:
                for a, b in pairs:
                    at.setdefault(a, []).append(b)
            else:
                inner.append(i)
        up = _pieces(t, inner)
        done = []
        for tid in p.tickets:
            a, b, _ = tickets[tid]
            if a in dead or b in dead:
                done.append(b in at.get(a, ()) or not _roots(up, at, dead, a).isdisjoint(_roots(up, at, dead, b)))
            else:                                  # two inner places: one piece or not
                while up[a] != a:
                    a = up[a]
                while up[b] != b:
                    b = up[b]
                done.append(a == b)
        out.append(done)
    return out


_SIDES: dict[int, tuple] = {}     # id(dead) -> (route table, dead, _dead_sides): checked on use


def _dead_sides(t, dead: frozenset[int]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per route index of ``t``: () for a route between two places not in ``dead``, else its (dead end, other end)
    pairs, as ``_completed_avoiding`` files each owned route (most are inner: one test each instead of reading its
    ends and asking ``dead`` twice). Kept per table and dead set."""
    kept = _SIDES.get(id(dead))
    if kept is None or kept[0] is not t or kept[1] is not dead:
        sides = tuple(tuple((x, y) for x, y in ((a, b), (b, a)) if x in dead) for a, b in t.ends)
        kept = _SIDES[id(dead)] = (t, dead, sides)
    return kept[2]


def _roots(up: list[int], at: dict[int, list[int]], dead: frozenset[int], x: int) -> set[int]:
    """``_completed_avoiding``'s pieces a path from ``x`` may run in: a dead end's neighbours' pieces, an inner
    place's own."""
    found = set()
    for y in at.get(x, ()) if x in dead else (x,):
        if y not in dead:
            while up[y] != y:
                y = up[y]
            found.add(y)
    return found


def _breakdown(v: Variant, state: GameState, indices: list[list[int]], trails: list,
               bonus_seats: set[int]) -> tuple[PlayerScore, ...]:
    """The seats' ``PlayerScore`` (``_players``) as the features' ``score`` hooks leave them."""
    sheet = {"players": _players(v, state, indices, trails, bonus_seats)}
    for f in v.features:
        f.score(v, state, sheet)
    return tuple(sheet["players"])


def _pieces(t, owned: list[int]) -> list[int]:
    """A union-find over the map's city numbers joining the routes ``owned``: from a city, ``up`` leads to the
    root of its connected piece."""
    ends = t.ends
    up = list(range(t.places))
    for i in owned:
        a, b = ends[i]
        while up[a] != a:
            a = up[a]
        while up[b] != b:
            b = up[b]
        if a != b:
            up[a] = b
    return up


def _networks(t, state: GameState, indices: list[list[int]]) -> tuple[list[int], list[list[bool]], list[list[int]]]:
    """(each seat's heaviest connected piece in trains, each seat's tickets joined or not, each seat's
    ``_pieces``). Joined is completed where no place is a dead end (USA-TICKET-4)."""
    ends, length, tickets, places = t.ends, t.length, t.ticket_ends, t.places
    heaviest, completed, ups = [], [], []
    for seat, p in enumerate(state.players):
        # ``_pieces`` with each piece's trains summed as it grows: a root holds its piece's total, a city that
        # stopped being a root keeps a part of its root's, so the largest entry is the heaviest piece's
        up = list(range(places))
        weight = [0] * places
        for i in indices[seat]:
            a, b = ends[i]
            while up[a] != a:
                a = up[a]
            while up[b] != b:
                b = up[b]
            if a != b:
                up[a] = b
                weight[b] += weight[a] + length[i]
            else:
                weight[b] += length[i]
        heaviest.append(max(weight, default=0))
        completed.append(_joined(up, tickets, p.tickets))
        ups.append(up)
    return heaviest, completed, ups


def _joined(up: list[int], tickets, tids) -> list[bool]:
    """Per ticket of ``tids``: its two places in one piece of ``up`` (``_pieces``) or not."""
    joined = []
    for tid in tids:
        a, b, _ = tickets[tid]
        while up[a] != a:
            a = up[a]
        while up[b] != b:
            b = up[b]
        joined.append(a == b)
    return joined


def _trails(t, indices: list[list[int]], heaviest: list[int] | None, ups: list[list[int]] | None,
            bonus: int) -> tuple[list, set[int]]:
    """(each seat's longest trail, as a ``_Later`` worked out when read, or the trail itself; the seats that get
    the longest-path bonus) (USA-SCORE-3: ties all get it). The bonus needs only the trails' lengths
    (``trail_length``). Seats are measured heaviest piece first, and a seat whose heaviest piece is shorter than
    the best trail found cannot reach it (a trail stays in one piece). With no bonus (MK-SCORE-3, SK-SCORE-4) no
    seat is measured (``heaviest`` and ``ups`` are None there; with a bonus and no pieces, every seat's trail is
    worked out at once)."""
    trails: list = [_Later(_trail, t, owned) for owned in indices]
    lengths: dict[int, int] = {}
    best = 0
    if bonus:
        ends, length = t.ends, t.length
        for seat in sorted(range(len(indices)), key=heaviest.__getitem__, reverse=True) if heaviest else range(len(indices)):
            if heaviest and heaviest[seat] < best:
                break
            # exact when it can tie the best so far (``best - 1`` the floor); None: a network too dense for it, or
            # no pieces given (every seat's trail is worked out then)
            n = trail_length(ends, length, indices[seat], ups[seat], max(best - 1, 0)) if ups else None
            if n is None:
                trail = trails[seat] = _trail(t, indices[seat])
                n = trail.length
            lengths[seat] = n
            if n > best:
                best = n
    seats = {s for s, n in lengths.items() if best and n == best}
    return trails, seats


def _trail(t, owned: list[int]) -> Trail:
    """The longest trail of the routes ``owned`` (USA-SCORE-3), from the route table's edges."""
    if t.ids_sorted:
        canon = t.canon_edges
        return longest_trail_canonical([canon[i] for i in owned])
    edges = t.edges
    return longest_trail([edges[i] for i in owned])


def _players(v: Variant, state: GameState, indices: list[list[int]], trails: list,
             bonus_seats: set[int]) -> tuple[PlayerScore, ...]:
    """Each seat's breakdown: its routes (USA-SCORE-1, recounted from the board), tickets with their paths
    (USA-SCORE-2 / USA-TICKET-4), trail and bonus (USA-SCORE-3)."""
    t = v.route_table
    bonus = v.settings.longest_bonus
    dead_ends = frozenset()
    for f in v.features:
        dead_ends = f.ticket_dead_ends(v) or dead_ends
    points, edges = t.points, t.edges
    players = []
    for seat, p in enumerate(state.players):
        owned = [edges[i] for i in indices[seat]]
        players.append(PlayerScore(seat=seat, name=seat_name(seat), route_points=sum([points[i] for i in indices[seat]]),
                                   routes=tuple([e[3] for e in owned]),
                                   tickets=ticket_results(v, p.tickets, owned, dead_ends=dead_ends),
                                   longest=trails[seat], longest_bonus=bonus if seat in bonus_seats else 0))
    return tuple(players)


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


def _sole_winner(v: Variant, totals: Sequence[int]) -> tuple[tuple[int, ...], str] | None:
    """USA-SCORE-4 when one total is the highest: ((its index,), how); None on a tie."""
    best = max(totals)
    if totals.count(best) != 1:
        return None
    return (totals.index(best),), f"most points ({best}) ({v.rule('USA-SCORE-4')})"


def _winners(v: Variant, players: Sequence[PlayerScore]) -> tuple[tuple[int, ...], str]:
    """USA-SCORE-4: most points; ties broken by the variant's chain; still tied: shared victory."""
    totals = [ps.total for ps in players]
    sole = _sole_winner(v, totals)
    if sole is not None:
        return (players[sole[0][0]].seat,), sole[1]
    rule = v.rule("USA-SCORE-4")
    best = max(totals)
    tied = [ps for ps, total in zip(players, totals) if total == best]
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
