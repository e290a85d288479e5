"""The map explorer's computations: cheapest paths, ticket difficulty, city centrality, route load, a player's network.

Rules layer: pure Python, no plotting. networkx is imported inside the functions that need it, so importing
``ttr_nb.analysis`` costs nothing. Every result is deterministic: rows are sorted, and ties are broken by city
names and route/ticket ids, never by set or dict iteration order of the graph.

    >>> from ttr_nb.analysis import cheapest_paths
    >>> str(cheapest_paths("usa", "Denver", "El Paso", k=1)[0])
    '4 trains, 2 routes: Denver – Santa Fe – El Paso'

Costs are trains (route lengths). A *simple* weighted graph stands for the board: between two neighbouring cities
the cheapest track is the edge, represented by its lowest route id; ``MapPath.parallel`` lists every track of that
length, so the other track of a double route is never forgotten. Tables are lists of plain dicts; ``as_markdown``
and ``as_html`` show them without pandas.
"""
from __future__ import annotations

import heapq
import html
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from .board.maps import Map, load_map
from .board.state import FREE, GameState

__all__ = ["MapPath", "Component", "TicketPath", "PlayerNetwork", "cheapest_paths", "ticket_difficulty",
           "city_centrality", "route_ticket_load", "player_network", "as_markdown", "as_html", "HTMLTable",
           "simple_graph"]


# --------------------------------------------------------------------------------------------- values

@dataclass(frozen=True)
class MapPath:
    """A simple path over the board: ``trains`` to claim it, one route id per step (the representative: the
    cheapest track, lowest id first), the ``cities`` walked (one more than routes), and per step every track of
    that cheapest length between the two cities (``parallel``; one id for a single route, two for a double)."""

    trains: int
    routes: tuple[str, ...]
    cities: tuple[str, ...]
    parallel: tuple[tuple[str, ...], ...] = ()

    @property
    def n_routes(self) -> int:
        return len(self.routes)

    def __str__(self) -> str:
        if not self.routes:
            return f"0 trains: {self.cities[0] if self.cities else ''}"
        walk = " – ".join(self.cities)         # city names for people; the route ids are in ``routes``
        return f"{self.trains} train{'s' if self.trains != 1 else ''}, {self.n_routes} route" \
               f"{'s' if self.n_routes != 1 else ''}: {walk}"

    def to_dict(self) -> dict:
        return {"trains": self.trains, "routes": list(self.routes), "cities": list(self.cities),
                "parallel": [list(p) for p in self.parallel]}


@dataclass(frozen=True)
class Component:
    """One connected piece of a player's network."""

    cities: tuple[str, ...]          # sorted by name
    routes: tuple[str, ...]          # sorted by id
    trains: int                      # trains spent on it


@dataclass(frozen=True)
class TicketPath:
    """A ticket seen from a player's network: the path that completes it, or what it still needs."""

    id: str
    a: str
    b: str
    points: int
    completed: bool
    path: tuple[str, ...]            # completed: the player's route ids joining a and b (scoring.connect_path)
    cities: tuple[str, ...]          # the cities along ``path`` (or along ``plan`` when not completed)
    needed: int | None               # trains still needed (0 when completed; None: it can no longer be completed)
    plan: tuple[str, ...] = ()       # not completed: a cheapest way to finish (own routes cost 0, others' blocked)


@dataclass(frozen=True)
class PlayerNetwork:
    seat: int
    name: str
    routes: tuple[str, ...]          # claimed route ids, sorted
    trains: int                      # trains placed on the board
    components: tuple[Component, ...]    # biggest (trains) first, then by first city name
    tickets: tuple[TicketPath, ...]      # in the order the player kept them
    longest: Any                     # ttr_nb.board.trail.Trail: the longest continuous trail of these routes

    def to_dict(self) -> dict:
        d = asdict(self)
        d["longest"] = {"length": self.longest.length, "routes": list(self.longest.routes),
                        "cities": list(self.longest.cities)}
        return d


# --------------------------------------------------------------------------------------------- the graph

def _as_map(m: Map | str) -> Map:
    return load_map(m) if isinstance(m, str) else m


@lru_cache(maxsize=16)
def _simple(m: Map):
    """The cached simple graph (internal: never handed out, callers get a copy from ``simple_graph``)."""
    import networkx as nx

    g = nx.Graph(key=m.key, name=m.name, ends_only=m.ends_only)
    for c in m.cities:
        g.add_node(c.name)
    pairs: dict[tuple[str, str], list] = {}
    for r in m.routes:
        pairs.setdefault(tuple(sorted((r.a, r.b))), []).append(r)
    for (a, b) in sorted(pairs):
        tracks = pairs[(a, b)]
        cheapest = min(r.length for r in tracks)
        ids = tuple(sorted(r.id for r in tracks if r.length == cheapest))
        g.add_edge(a, b, length=cheapest, id=ids[0], ids=ids, all_ids=tuple(sorted(r.id for r in tracks)))
    return g


def simple_graph(map: Map | str):
    """A new ``networkx.Graph`` of the board with one edge per pair of neighbouring cities: ``length`` = the
    cheapest track, ``id`` = its route id (lowest id on ties), ``ids`` = all tracks of that length,
    ``all_ids`` = every track between the two cities. (``Map.graph()`` is the full MultiGraph.)"""
    return _simple(_as_map(map)).copy()


def _passable(g, a: str, b: str):
    """``g`` without the places no path passes through (``Map.ends_only``: Märklin's countries), except the
    path's own ends ``a`` and ``b``."""
    blocked = g.graph.get("ends_only", frozenset()) - {a, b}
    return g.subgraph([c for c in g if c not in blocked]) if blocked else g


def _city(m: Map, name: str) -> str:
    return m.city(name).name        # exact, or ignoring case and accents; MapError names the unknown city


def _make_path(g, nodes: Sequence[str]) -> MapPath:
    steps = [g.edges[u, v] for u, v in zip(nodes, nodes[1:])]
    return MapPath(sum(e["length"] for e in steps), tuple(e["id"] for e in steps), tuple(nodes),
                   tuple(e["ids"] for e in steps))


def _path_key(p: MapPath) -> tuple:
    return (p.trains, p.n_routes, p.routes)


def _paths(g, a: str, b: str, *, k: int | None = None, slack: int | None = None) -> list[MapPath]:
    """Simple paths a→b cheapest first (Yen's algorithm via networkx), tie-aware: the k cheapest (every path
    that ties with the k-th is looked at before choosing by fewer routes, then route ids), or every path within
    ``slack`` trains of the cheapest."""
    import networkx as nx

    if a == b:
        return [MapPath(0, (), (a,), ())]
    g = _passable(g, a, b)
    found: list[MapPath] = []
    limit = None
    try:
        for nodes in nx.shortest_simple_paths(g, a, b, weight="length"):
            p = _make_path(g, nodes)
            if slack is not None and limit is None:
                limit = p.trains + slack
            if k is not None and len(found) >= k and p.trains > found[k - 1].trains:
                break
            if limit is not None and p.trains > limit:
                break
            found.append(p)
    except nx.NetworkXNoPath:
        return []
    found.sort(key=_path_key)
    return found[:k] if k is not None else found


def _paths_within(g, a: str, b: str, slack: int) -> list[MapPath]:
    """Every simple path a→b costing at most cheapest + ``slack`` trains, sorted like ``_paths``.

    A depth-first search pruned by the exact distance to ``b`` (Dijkstra from ``b``): a branch is followed only
    while it can still arrive within the limit. Gives the same set as ``_paths(..., slack=...)`` (the tests
    check it), several times faster on long tickets.
    """
    import networkx as nx

    if a == b:
        return [MapPath(0, (), (a,), ())]
    g = _passable(g, a, b)
    to_b = nx.single_source_dijkstra_path_length(g, b, weight="length")
    if a not in to_b:
        return []
    limit = to_b[a] + slack
    adj = {u: sorted((v, e["length"]) for v, e in g.adj[u].items() if v in to_b) for u in to_b}
    found: list[MapPath] = []
    nodes = [a]
    seen = {a}

    def dfs(u: str, cost: int) -> None:
        for v, w in adj[u]:
            if v in seen or cost + w + to_b[v] > limit:
                continue
            nodes.append(v)
            if v == b:
                found.append(_make_path(g, nodes))
            else:
                seen.add(v)
                dfs(v, cost + w)
                seen.discard(v)
            nodes.pop()

    dfs(a, 0)
    found.sort(key=_path_key)
    return found


# --------------------------------------------------------------------------------------------- public API

def cheapest_paths(map: Map | str, a: str, b: str, k: int = 3) -> list[MapPath]:
    """The ``k`` cheapest simple paths between cities ``a`` and ``b`` by trains, cheapest first; paths of equal
    cost by fewer routes, then route ids. ``[]`` when the cities are not connected.

    Each path's ``routes`` uses one representative track per step; ``parallel`` names both tracks of a double.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"cheapest_paths: k must be a whole number ≥ 1, got {k!r}")
    m = _as_map(map)
    return _paths(_simple(m), _city(m, a), _city(m, b), k=k)


def ticket_difficulty(map: Map | str, slack: int = 2) -> list[dict]:
    """One row per ticket, sorted by ticket id.

    ``trains``: cheapest trains to join the two cities on an empty board; ``routes``: routes on that cheapest
    path (the one ``cheapest_paths`` lists first); ``cheapest``: how many different paths cost exactly that;
    ``alternatives``: paths costing at most ``trains + slack`` (the cheapest included) — more means the ticket
    is harder to block; ``points_per_train``: ticket points / trains; ``path``: the cities of the cheapest path.
    """
    m = _as_map(map)
    g = _simple(m)
    rows = []
    for t in sorted(m.tickets, key=lambda t: t.id):
        paths = _paths_within(g, t.a, t.b, slack)
        best = paths[0] if paths else None
        trains = best.trains if best else None
        rows.append({
            "id": t.id, "deck": t.deck, "a": t.a, "b": t.b, "ticket": f"{t.a}–{t.b}", "points": t.points,
            "trains": trains, "routes": best.n_routes if best else None,
            "cheapest": sum(1 for p in paths if p.trains == trains),
            "alternatives": len(paths),
            "points_per_train": round(t.points / trains, 2) if trains else None,
            "path": " – ".join(best.cities) if best else "",
        })
    return rows


def city_centrality(map: Map | str) -> list[dict]:
    """Per city: ``degree`` (tracks touching it, each track of a double counted), ``neighbours`` (adjacent
    cities), ``weighted_degree`` (trains over those tracks), ``betweenness`` (networkx, normalised, shortest
    paths weighted by trains), ``tickets`` (tickets that start or end there). Sorted by betweenness, highest
    first, then by name. Places no path passes through (``Map.ends_only``, Märklin's countries) are left out of
    the betweenness (0 there): it is measured on the paths between the other cities."""
    import networkx as nx

    m = _as_map(map)
    g = _simple(m)
    between = dict.fromkeys(g, 0.0)
    between.update(nx.betweenness_centrality(g.subgraph([c for c in g if c not in m.ends_only]),
                                             weight="length", normalized=True))
    ends: dict[str, int] = {}
    for t in m.tickets:
        for c in (t.a, t.b):
            ends[c] = ends.get(c, 0) + 1
    rows = []
    for c in m.cities:
        tracks = m.routes_at(c.name)
        rows.append({"city": c.name, "degree": len(tracks), "neighbours": g.degree(c.name),
                     "weighted_degree": sum(r.length for r in tracks),
                     "betweenness": round(between[c.name], 4), "tickets": ends.get(c.name, 0)})
    # round before sorting: float noise in the last bits must never decide the order
    rows.sort(key=lambda r: (-r["betweenness"], r["city"]))
    return rows


def _dijkstra_counts(g, source: str) -> tuple[dict[str, int], dict[str, int]]:
    """Distances (trains) from ``source`` and the number of cheapest paths to every city (exact integers).
    A place no path passes through (``Map.ends_only``) is reached but never left, unless it is ``source``."""
    ends = g.graph.get("ends_only", frozenset())
    dist = {source: 0}
    sigma = {source: 1}
    done: set[str] = set()
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        if u in ends and u != source:
            continue
        for v in sorted(g.adj[u]):
            nd = d + g.adj[u][v]["length"]
            if v not in dist or nd < dist[v]:
                dist[v] = nd
                sigma[v] = sigma[u]
                heapq.heappush(heap, (nd, v))
            elif nd == dist[v] and v not in done:
                sigma[v] += sigma[u]
    return dist, sigma


def route_ticket_load(map: Map | str) -> list[dict]:
    """For each route: on how many tickets' cheapest paths it lies — "which routes sit on the most ticket paths".

    Tie-aware: when a ticket has several cheapest paths, every route on any of them counts for that ticket.
    Both tracks of a double count (either may be used). ``share`` adds, over tickets, the fraction of the
    ticket's cheapest paths (as city sequences) that pass between the route's two cities; ``ticket_points``
    sums the points of those tickets. Sorted by tickets, then share (both highest first), then route id.
    """
    m = _as_map(map)
    g = _simple(m)
    ends = m.ends_only
    per_pair: dict[tuple[str, str], list] = {}
    cache: dict[str, tuple] = {}

    def from_city(c: str):
        if c not in cache:
            cache[c] = _dijkstra_counts(g, c)
        return cache[c]

    for t in sorted(m.tickets, key=lambda t: t.id):
        da, sa = from_city(t.a)
        db, sb = from_city(t.b)
        if t.b not in da:
            continue
        total_d, total_n = da[t.b], sa[t.b]
        inner = ends - {t.a, t.b}          # no cheapest path passes through these

        def leg(x: str, y: str, w: int) -> int:     # cheapest paths a → … x – y … → b
            if x in inner or y in inner or x not in da or y not in db or da[x] + w + db[y] != total_d:
                return 0
            return sa[x] * sb[y]

        for u, v, e in g.edges(data=True):
            w = e["length"]
            through = leg(u, v, w) or leg(v, u, w)
            if through:
                per_pair.setdefault(tuple(sorted((u, v))), []).append((t, through / total_n))
    rows = []
    for r in m.routes:
        pair = tuple(sorted((r.a, r.b)))
        hits = per_pair.get(pair, []) if r.id in g.edges[pair]["ids"] else []
        rows.append({"route": r.id, "a": r.a, "b": r.b, "length": r.length, "colour": r.colour,
                     "double_group": r.double_group, "tickets": len(hits),
                     "share": round(sum(f for _, f in hits), 3),
                     "ticket_points": sum(t.points for t, _ in hits),
                     "ticket_ids": tuple(sorted(t.id for t, _ in hits))})
    rows.sort(key=lambda r: (-r["tickets"], -r["share"], r["route"]))
    return rows


def player_network(state: GameState, seat: int) -> PlayerNetwork:
    """A player's claimed routes, their connected pieces, and per kept ticket the path that completes it
    (``scoring.connect_path``: fewest routes, ties by route id) or a cheapest way to finish it.

    It reads the seat's tickets: show it to that player or to a teacher, not to the others.
    """
    from .bots import cheapest_path
    from .board.engine import seat_name
    from .board.scoring import connect_path, owned_edges
    from .board.trail import longest_trail
    from .variants import get_variant

    v = get_variant(state.variant)
    m = v.map
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_players:
        raise ValueError(f"player_network: there is no seat {seat!r} in a {state.n_players}-player game")
    edges = owned_edges(v, state, seat)

    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, _, _ in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list] = {}
    for e in edges:
        groups.setdefault(find(e[0]), []).append(e)
    components = []
    for es in groups.values():
        cities = tuple(sorted({c for e in es for c in e[:2]}))
        components.append(Component(cities, tuple(sorted(e[3] for e in es)), sum(e[2] for e in es)))
    components.sort(key=lambda c: (-c.trains, c.cities))

    def walk(a: str, rids: Sequence[str]) -> tuple[str, ...]:
        out = [a]
        for rid in rids:
            out.append(m.route(rid).other(out[-1]))
        return tuple(out)

    tickets = []
    for tid in state.players[seat].tickets:
        t = m.ticket(tid)
        path = connect_path(edges, t.a, t.b)
        if path is not None:
            tickets.append(TicketPath(t.id, t.a, t.b, t.points, True, path, walk(t.a, path), 0))
            continue
        found = cheapest_path(v, state, seat, t.a, t.b)
        if found is None:
            tickets.append(TicketPath(t.id, t.a, t.b, t.points, False, (), (), None))
        else:
            need, plan = found
            tickets.append(TicketPath(t.id, t.a, t.b, t.points, False, (), walk(t.a, plan), need,
                                      tuple(r for r in plan if state.claims[m.route(r).index] == FREE)))
    return PlayerNetwork(seat, seat_name(seat), tuple(sorted(e[3] for e in edges)), sum(e[2] for e in edges),
                         tuple(components), tuple(tickets), longest_trail(edges))


# --------------------------------------------------------------------------------------------- tables

def _columns(rows: Sequence[Mapping], columns: Sequence[str] | None) -> list[str]:
    if columns is not None:
        return list(columns)
    out: list[str] = []
    for r in rows:
        for key in r:
            if key not in out:
                out.append(key)
    return out


def _rows(rows: Iterable) -> list[Mapping]:
    out = []
    for r in rows:
        if hasattr(r, "to_dict"):
            r = r.to_dict()
        elif not isinstance(r, Mapping):
            r = asdict(r)
        out.append(r)
    return out


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        return ", ".join(_cell(v) for v in value)
    return str(value)


def _numeric(rows: Sequence[Mapping], col: str) -> bool:
    vals = [r.get(col) for r in rows if r.get(col) is not None]
    return bool(vals) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in vals)


def as_markdown(rows: Iterable, columns: Sequence[str] | None = None) -> str:
    """A Markdown (pipe) table of a list of dicts (or dataclasses); numbers right-aligned."""
    rows = _rows(rows)
    cols = _columns(rows, columns)
    if not cols:
        return ""
    esc = lambda s: s.replace("|", "\\|")   # noqa: E731
    lines = ["| " + " | ".join(esc(c) for c in cols) + " |",
             "|" + "|".join("---:" if _numeric(rows, c) else ":---" for c in cols) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(esc(_cell(r.get(c))) for c in cols) + " |")
    return "\n".join(lines)


class HTMLTable(str):
    """HTML text that Jupyter displays as a table (``_repr_html_``); still an ordinary ``str``."""

    def _repr_html_(self) -> str:
        return str(self)


def as_html(rows: Iterable, columns: Sequence[str] | None = None, caption: str | None = None,
            max_rows: int | None = None) -> HTMLTable:
    """An HTML table of a list of dicts (or dataclasses), no pandas needed. Numbers right-aligned;
    ``max_rows`` keeps the first rows and says how many were left out."""
    rows = _rows(rows)
    cols = _columns(rows, columns)
    num = {c: _numeric(rows, c) for c in cols}
    shown = rows if max_rows is None else rows[:max_rows]
    td = "padding:2px 8px;border-bottom:1px solid #ddd;"
    out = ['<table class="ttr-table" style="border-collapse:collapse;font-size:13px">']
    if caption:
        out.append(f'<caption style="text-align:left;font-weight:bold;padding:4px 0">{html.escape(caption)}</caption>')
    out.append("<thead><tr>" + "".join(
        f'<th style="{td}text-align:{"right" if num[c] else "left"};border-bottom:2px solid #888">'
        f"{html.escape(c.replace('_', ' '))}</th>" for c in cols) + "</tr></thead><tbody>")
    for r in shown:
        out.append("<tr>" + "".join(
            f'<td style="{td}text-align:{"right" if num[c] else "left"}">{html.escape(_cell(r.get(c)))}</td>'
            for c in cols) + "</tr>")
    out.append("</tbody></table>")
    if len(shown) < len(rows):
        out.append(f'<div style="font-size:12px;color:#555">… {len(rows) - len(shown)} more rows</div>')
    return HTMLTable("".join(out))
