"""Exact longest trail ("longest continuous path", USA-SCORE-3 / EU-SCORE-2).

A player's routes form a multigraph. The longest continuous path is the heaviest *trail*: a walk that uses
each route at most once but may revisit cities and close loops. Its length counts trains, not routes.
:func:`longest_trail` returns it exactly; :func:`longest_trails_by_owner` does so for every player.

Algorithm
---------
A set of edges F can be walked as one trail iff it is connected and has 0 or 2 odd-degree vertices (Euler),
so the answer is ``max w(F)`` over such F. The problem is NP-hard in general (it contains Hamiltonian path
on cubic graphs), so the method is an exact search whose bound is usually already tight on Ticket to Ride
networks: the whole USA and Europe boards are proved optimal without branching.

1. **Components** (union-find over the routes), heaviest first; a component not heavier than the best trail so
   far is skipped. A component without cycles - most of a real game's network - is solved on its routes
   directly (``_tree_trail``: steps 2 and 3 where every blob is a lone city, no search); the others go through
   steps 2-5, each component on its own.
2. **Contract degree-2 cities.** If a city v has exactly two route-ends, from two different routes e1, e2,
   every optimal trail uses both or neither: a trail using e1 but not e2 meets v once, so v is one of its
   ends, and appending e2 there makes it strictly longer (lengths are positive). So a-e1-v-e2-b becomes
   one edge of weight w1 + w2 (a loop when a == b) that remembers its routes and cities. Other cities keep
   their degrees, so a single pass over the cities is enough.
3. **Bridge tree.** Removing a component's bridges leaves blobs (2-edge-connected pieces, possibly lone
   cities). A trail crosses a bridge at most once, so the blobs it meets form a path in the tree of blobs
   and bridges, and inside each blob it is one contiguous piece. Root the tree at the heaviest blob and
   fold it bottom-up: a blob B with parent bridge (v, u), u in B, becomes a *pendant edge* from v to a new
   leaf, of weight w(v, u) + P(B), where P(B) is the longest trail of B plus its own pendant edges that has
   u as an end (possibly empty). Every trail has a highest blob B, and the part of it below B is made of
   descents that end the trail - each worth at most one pendant edge - so the best trail is
   ``max over blobs B`` of the longest trail of B plus its pendant edges; and every such trail expands back
   to a real one of the same length. Lone cities are solved directly (heaviest one or two pendant edges),
   so trees need no search; other blobs go to the search below, "pinned" at u for P(B) or "free".
4. **T-join upper bound.** Let K be a connected edge set with odd vertices T and F a trail inside K with
   odd vertices O (|O| <= 2). D = K minus F is odd exactly on T xor O and splits into edge-disjoint paths
   pairing those vertices (plus cycles). Dropping the at most two paths that end in O leaves paths, of
   total weight <= w(D), that pair all but at most two vertices of T. Hence ``w(F) <= w(K) - (minimum cost
   of pairing all but two vertices of T)``, shortest-path distances as costs. A trail *pinned* at u has
   O = {u, x} (x = u when it is closed), and the same argument with T xor {u} in place of T and only x's
   path dropped pairs all but one vertex of T xor {u}. Such a minimum is a minimum T-join
   (Edmonds-Johnson), computed exactly as a minimum-weight perfect matching on the metric closure with one
   or two zero-cost dummy vertices standing for the free ends, by a weighted blossom algorithm
   (`_matching`: Edmonds' primal-dual method in Galil's O(n^3) form, after J. van Rantwijk's mwmatching and
   its networkx port). The symmetric difference D* of the matched shortest paths attains the bound, so
   if K minus D* is connected (and holds the pin) it is an optimal trail of K.
5. **Branch and bound** otherwise. A node is (K, I): K connected, I a set of edges of K that must be kept.
   Its bound is that of step 4 with the edges of I made undeletable (distances avoid I; no perfect matching
   means no admissible trail). If K minus D* is disconnected, branch on an edge e of D* (which is never in
   I): "keep e" (I + e), or "delete e" (K - e, reduced to the component that holds I and the pin, or split
   into its components when there is neither). The children partition the parent's admissible trails,
   every admissible trail of a node obeys its bound, and each branch fixes one more edge, so the search
   is finite and exact. Nodes are expanded best bound first and the search stops once no open bound beats
   the best trail found, which is then optimal.
6. The chosen edge set is walked with Hierholzer's algorithm and the contracted and folded edges are
   expanded back into routes and cities.

The length alone (``trail_length``, what the final score needs to hand out the bonus) is worked out on route
numbers without steps 3-6: a piece with at most two odd cities is walked whole (Euler); otherwise the piece's
degree-2 cities are contracted (step 2), a piece without cycles takes its best city's two heaviest ways down, and a
piece with cycles is searched depth first from its odd cities (an optimal open trail ends at two of them), bounded
by the piece less its lightest chains, one for each two odd cities past two (step 4's idea, without the matching).
A step budget hands a piece too dense for that search to :func:`longest_trail`.

Determinism: the input is canonicalised first (each edge's two cities in name order, edges sorted by route
id, cities numbered in name order), and every later step (contraction, bridge tree, Dijkstra, matching,
branching, the heap with an insertion counter as tie-break, and the Euler walk, which takes the smallest
edge first) depends only on that canonical form; no set iteration order or ``hash()`` is involved. So
the same routes, in any order, give the identical :class:`Trail`. Among several optimal trails the one
returned is the first this deterministic search proves optimal, read in the direction whose first city is
alphabetically smaller (for a closed trail: the direction whose route sequence is smaller).
"""
from __future__ import annotations

import heapq
from operator import itemgetter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..errors import TTRError
from .tables import bits as _bits

__all__ = ["Trail", "longest_trail", "longest_trails_by_owner"]


@dataclass(frozen=True)
class Trail:
    """A trail: ``routes`` in travel order, ``cities`` visited (one more than routes), ``length`` in trains."""

    length: int
    routes: tuple[str, ...]
    cities: tuple[str, ...]


EMPTY_TRAIL = Trail(0, (), ())


# --------------------------------------------------------------------------------------------------
# public API


def longest_trail(edges: Sequence[tuple[str, str, int, str]]) -> Trail:
    """The longest trail (USA-SCORE-3, EU-SCORE-2) in the multigraph of ``edges``.

    ``edges`` are ``(city_a, city_b, length, route_id)``; route ids must be unique and lengths positive
    integers. Parallel routes are distinct edges. The result is exact and independent of input order.
    """
    return _longest(_canonical(edges))


def longest_trail_canonical(canon: Sequence[tuple[str, str, int, str]]) -> Trail:
    """``longest_trail`` of edges that are canonical already: well formed, each edge's cities in name order, sorted
    by route id, ids unique (the board engine's own routes, ``RouteTable.canon_edges``): the same answer without
    checking and sorting them again."""
    return _longest(canon)


def _longest(canon: Sequence[tuple[str, str, int, str]]) -> Trail:
    if not canon:
        return EMPTY_TRAIL
    cities = {e[0] for e in canon}
    cities.update([e[1] for e in canon])
    names = sorted(cities)
    index = dict(zip(names, range(len(names))))
    nv, m = len(names), len(canon)
    ea = [index[e[0]] for e in canon]
    eb = [index[e[1]] for e in canon]
    ew = [e[2] for e in canon]
    inc: list[list[int]] = [[] for _ in names]
    parent = list(range(nv))
    cyclic = bytearray(nv)                              # by component root: the piece holds a cycle
    for e in range(m):                                  # the routes' ends, and their components (union-find)
        a = ea[e]
        b = eb[e]
        inc[a].append(e)
        inc[b].append(e)                                # a loop: listed twice, as `_contract` lists it
        ra = parent[a]
        while parent[ra] != ra:
            ra = parent[ra]
        rb = parent[b]
        while parent[rb] != rb:
            rb = parent[rb]
        if ra == rb:
            cyclic[ra] = 1
        else:
            parent[a] = parent[b] = parent[ra] = rb     # (the ends straight to the root: short finds)
            if cyclic[ra]:
                cyclic[rb] = 1
    comps: dict[int, list[int]] = {}                    # root -> its edges, ascending; ordered by the smallest
    weights: dict[int, int] = {}
    for e in range(m):
        r = parent[ea[e]]
        while parent[r] != r:
            r = parent[r]
        if r in comps:
            comps[r].append(e)
            weights[r] += ew[e]
        else:
            comps[r] = [e]
            weights[r] = ew[e]
    pieces = sorted(comps, key=weights.__getitem__, reverse=True)   # stable (reverse too): ties by smallest route id
    best_value, best = 0, None
    for r in pieces:
        if weights[r] <= best_value:
            break
        edges = comps[r]
        if not cyclic[r]:                                        # a piece without cycles (most networks of a real game)
            found = _tree_trail(edges, ea, eb, ew, inc, best_value)
            if found is not None:
                best_value, best = found[0], (None, found[1])
            continue
        g = _contract(nv, [(ea[e], eb[e], ew[e], canon[e][3]) for e in edges])
        found = _solve_component(g, (1 << len(g.ea)) - 1, best_value)
        if found is not None:
            best_value, best = found[0], (g, found[1])
    g, mask = best
    if g is None:                                       # a path of routes: read from its alphabetically first end
        return _path_trail(best_value, mask, canon, ea, eb, inc, names)
    routes, cities = _expand(g, *_euler(g, mask))
    if cities[-1] < cities[0] or (cities[-1] == cities[0] and routes[::-1] < routes):
        routes.reverse()
        cities.reverse()
    return Trail(best_value, tuple(routes), tuple(names[c] for c in cities))


def _neg_weight(way: tuple[int, int]) -> int:
    return -way[0]


_NEG_WEIGHT = _neg_weight


def _tree_trail(edges: list[int], ea: list[int], eb: list[int], ew: list[int], inc: list[list[int]], floor: int):
    """(value, route mask) of the longest trail of the tree ``edges`` if it beats ``floor``, else None.

    The same answer, ties included, as the general path (contracting the degree-2 cities with ``_contract`` and
    folding the bridge tree with ``_solve_bridge_tree``, every blob a lone city), worked out on the routes: the
    chains between the cities of degree 1 or at least 3 stand for the contracted edges, ordered by their
    smallest route; a path is one chain, the whole piece. Otherwise the tree is walked breadth first from its
    first such city (chains in that order); a city's ways down are kept in the order the folding creates its
    pendant edges (its children latest in the walk first); the heaviest way down of a city is the first of the
    heaviest, and a city's trail its two heaviest ways down, the first of them among ties; cities are tried
    root first, then by their ways down's total, heaviest first (ties in walk order), and a trail replaces the
    best so far only when it is longer."""
    cities = set(map(ea.__getitem__, edges))
    cities.update(map(eb.__getitem__, edges))
    ends = sorted([v for v in cities if len(inc[v]) != 2])   # the contracted tree's cities: degree 1 or >= 3
    if len(ends) <= 2:                                  # a path (a tree with a city of degree 3 has 3 leaves or more)
        mask = 0
        total = 0
        for e in edges:
            mask |= 1 << e
            total += ew[e]
        return (total, mask) if total > floor else None
    # the chains between those cities: (smallest route, trains, far end, route mask), listed at both ends
    cadj: dict[int, list[tuple[int, int, int, int]]] = {}
    seen = 0
    for u in ends:
        for e0 in inc[u]:
            if (seen >> e0) & 1:
                continue
            key, w, mask = e0, 0, 0
            prev, e = u, e0
            while True:
                mask |= 1 << e
                w += ew[e]
                if e < key:
                    key = e
                x = eb[e] if ea[e] == prev else ea[e]
                around = inc[x]
                if len(around) != 2:
                    break
                e = around[1] if around[0] == e else around[0]
                prev = x
            seen |= mask
            cadj.setdefault(u, []).append((key, w, x, mask))
            cadj.setdefault(x, []).append((key, w, u, mask))
    for lst in cadj.values():
        lst.sort()
    root = min(cadj)
    order = [root]
    up = {root: None}                                   # city -> (chain trains, chain mask, parent)
    for b in order:                                     # grows while iterating: breadth first
        for _, w, c, mask in cadj[b]:
            if c not in up:
                up[c] = (w, mask, b)
                order.append(c)
    ways: dict[int, list[tuple[int, int]]] = {b: [] for b in order}   # city -> [(trains, route mask)] down
    for c in reversed(order[1:]):
        value = mask = 0
        for w, m in ways[c]:
            if w > value:
                value, mask = w, m
        w, m, p = up[c]
        ways[p].append((w + value, mask | m))
    totals = {b: sum([w for w, _ in ways[b]]) for b in order}
    best = None
    for b in [root] + sorted(order[1:], key=lambda b: -totals[b]):   # root first, then heaviest (stable)
        if totals[b] <= floor:
            continue
        top = sorted(ways[b], key=_NEG_WEIGHT)[:2]
        value = sum([w for w, _ in top])
        if value > floor:
            floor = value
            best = (value, top[0][1] | top[1][1] if len(top) > 1 else top[0][1])
    return best


def _path_trail(value: int, mask: int, canon, ea: list[int], eb: list[int], inc: list[list[int]],
                names: list[str]) -> Trail:
    """The Trail of the routes ``mask`` that form one path, read from its alphabetically first end."""
    odd = 0
    e = mask
    while e:
        low = e & -e
        i = low.bit_length() - 1
        odd ^= (1 << ea[i]) ^ (1 << eb[i])
        e ^= low
    v = (odd & -odd).bit_length() - 1                    # the end with the smaller index (= name)
    routes = []
    cities = [names[v]]
    prev = -1
    while mask:
        for e in inc[v]:
            if (mask >> e) & 1 and e != prev:
                break
        mask ^= 1 << e
        routes.append(canon[e][3])
        v = eb[e] if ea[e] == v else ea[e]
        cities.append(names[v])
        prev = e
    return Trail(value, tuple(routes), tuple(cities))


def trail_length(ends: Sequence[tuple[int, int]], length: Sequence[int], owned: Sequence[int], up: list[int],
                 floor: int = 0, budget: int = 4000) -> int | None:
    """The length of the longest trail of the routes ``owned`` (indices into ``ends``, each route's two city
    numbers, and ``length``, its trains) when it is longer than ``floor``, otherwise some number not above
    ``floor``; None when a piece of the network is too dense to search in ``budget`` steps (``longest_trail``
    answers then). ``up`` is the routes' union-find over the city numbers (a city's parent; a root is its own).
    The final score asks only this of most seats (USA-SCORE-3: which seats have the longest trail) and works the
    trail itself out when something reads it.

    The same value as ``longest_trail(...).length``, worked out on numbers alone. A piece with at most two odd
    cities is walked whole (Euler). Otherwise the best trail runs between two odd cities (an end with an unused
    route could go on), and the piece's cities of degree 2 are contracted into chains (step 2 of the module
    docstring): a piece without cycles takes the two heaviest ways down at its best city; a piece with cycles is
    searched depth first from each odd city, cut off where even all its unused trains cannot beat the best."""
    inc: dict[int, list[int]] = {}                      # city -> its routes
    for i in owned:
        a, b = ends[i]
        if a in inc:
            inc[a].append(i)
        else:
            inc[a] = [i]
        if b in inc:
            inc[b].append(i)
        else:
            inc[b] = [i]
    root: dict[int, int] = {}                           # city -> its piece's root
    odd: dict[int, int] = {}                            # piece root -> its odd cities
    for c, around in inc.items():
        r = c
        while up[r] != r:
            r = up[r]
        root[c] = r
        if len(around) & 1:
            odd[r] = odd.get(r, 0) + 1
    pieces: dict[int, list[int]] = {}                   # piece root -> its routes' trains
    for i in owned:
        r = root[ends[i][0]]
        if r in pieces:
            pieces[r].append(length[i])
        else:
            pieces[r] = [length[i]]
    total = {r: sum(trains) for r, trains in pieces.items()}
    best = floor
    for r in sorted(total, key=total.__getitem__, reverse=True):
        w = total[r]
        if w <= best:
            break
        k = odd.get(r, 0)
        if k <= 2:
            best = w
            continue
        # no trail of the piece is longer than it less its shortest routes, one for each two odd cities past two
        # (what a trail leaves out is odd at every odd city but its ends; a route is odd at two cities at most)
        trains = pieces[r]
        trains.sort()
        if w - sum(trains[:(k - 2) // 2]) > best:
            best = _piece_length(ends, length, inc, root, r, best, budget)
            if best is None:
                return None
    return best


_WEIGHT = itemgetter(1)


def _piece_length(ends, length, inc: dict[int, list[int]], root: dict[int, int], r: int, floor: int,
                  budget: int) -> int | None:
    """``trail_length`` of the piece whose root is ``r``, which has four odd cities or more (``root``: each
    city's piece)."""
    # the chains between the piece's cities of degree other than 2: adj[city] = [(chain bit, trains, far city)],
    # each chain listed at both ends (twice at one city for a loop)
    adj: dict[int, list[tuple[int, int, int]]] = {c: [] for c, around in inc.items()
                                                  if len(around) != 2 and root[c] == r}
    seen = set()
    bit = 1
    for u, out in adj.items():
        for e in inc[u]:
            if e in seen:
                continue
            w = 0
            x = u
            while True:
                seen.add(e)
                w += length[e]
                a, b = ends[e]
                x = b if a == x else a
                around = inc[x]
                if len(around) != 2:
                    break
                e = around[1] if around[0] == e else around[0]
            out.append((bit, w, x))
            adj[x].append((bit, w, u))
            bit <<= 1
    best = floor
    if bit.bit_length() == len(adj):                    # chains = cities - 1: a tree, rooted at its first city
        order = list(adj)[:1]
        parent = {order[0]: None}
        for u in order:
            for _, w, x in adj[u]:
                if x not in parent:
                    parent[x] = (u, w)
                    order.append(x)
        down = dict.fromkeys(order, 0)                  # a city's heaviest way down (its children's done first)
        for x in reversed(order[1:]):
            u, w = parent[x]
            way = down[x] + w
            if down[u] + way > best:                    # with the heaviest way down from u found so far
                best = down[u] + way
            if way > down[u]:
                down[u] = way
        return best
    # a chain from a city back to itself is walked at once on arrival (whatever came next can come after it);
    # the others are tried in turn, each state (city, chains used) once: the trains so far follow from the chains
    loops = {}
    for u, out in adj.items():
        mine = [(b, w) for b, w, x in out if x == u][::2]
        if mine:
            loops[u] = mine
            adj[u] = [c for c in out if c[2] != u]
    # the same bound with chains in place of routes (tighter): the search stops when it finds a trail that long,
    # and is not made when the best so far is
    chains = sorted({(w, b) for out in adj.values() for b, w, _ in out})
    odd = sum([len(out) & 1 for out in adj.values()])    # (a loop adds two to a degree)
    rest = sum([w for w, _ in chains]) + sum([w for mine in loops.values() for _, w in mine])
    most = rest - sum([w for w, _ in chains[:(odd - 2) // 2]])
    if most <= best:
        return best
    seen = set()
    stack = []
    for out in adj.values():
        out.sort(key=_WEIGHT)                           # the heaviest chain tried first (the stack's last)
    # The search starts at each odd city but the last: a longest trail runs between two odd cities (an end with a
    # chain unused could go on), and one from the last odd city ends at another, whose search found it backwards.
    # (No bound on the trains unused: run plus them is ``rest`` in every state, and ``rest`` is above ``best``
    # until ``best`` reaches ``most``, where the search stops.)
    for start in [u for u, out in adj.items() if len(out) & 1][:-1]:
        stack.append((start, 0, 0))
        while stack:                                    # (city, chains used, trains so far)
            u, used, run = stack.pop()
            if u in loops:
                for b, w in loops[u]:
                    if not used & b:
                        used |= b
                        run += w
            key = (u, used)
            if key in seen:
                continue
            seen.add(key)
            budget -= 1
            if budget < 0:
                return None
            if run > best:
                best = run
                if best == most:
                    return best
            for b, w, x in adj[u]:
                if not used & b:
                    stack.append((x, used | b, run + w))
    return best


def longest_trails_by_owner(edges_by_owner: Mapping[int, Sequence[tuple[str, str, int, str]]]) -> dict[int, Trail]:
    """:func:`longest_trail` of every owner's routes, keyed (and ordered) by owner."""
    return {owner: longest_trail(edges_by_owner[owner]) for owner in sorted(edges_by_owner)}


# --------------------------------------------------------------------------------------------------
# the reduced multigraph


class _Graph:
    """Edges ``e`` run from ``ea[e]`` to ``eb[e]``; ``chains[e]`` = (route ids, city indices) along it.

    Edge sets are int bitmasks over edge indices. Folding a blob appends a pendant edge to a new leaf vertex.
    """

    def __init__(self, nv: int):
        self.nv = nv
        self.ea: list[int] = []
        self.eb: list[int] = []
        self.ew: list[int] = []
        self.chains: list[tuple[list[str], list[int]]] = []

    def add_edge(self, a: int, b: int, w: int, chain) -> int:
        self.ea.append(a)
        self.eb.append(b)
        self.ew.append(w)
        self.chains.append(chain)
        return len(self.ea) - 1

    def new_vertex(self) -> int:
        self.nv += 1
        return self.nv - 1

    def weight(self, mask: int) -> int:
        ew = self.ew
        return sum([ew[e] for e in _bits(mask)])


def _canonical(edges: Sequence[tuple[str, str, int, str]]) -> list[tuple[str, str, int, str]]:
    out = []
    seen: set[str] = set()
    for item in edges:
        try:
            a, b, w, rid = item
        except (TypeError, ValueError):
            raise TTRError(f"longest_trail: edge {item!r} is not (city_a, city_b, length, route_id)") from None
        if w.__class__ is not int or w <= 0:
            if not isinstance(w, int) or isinstance(w, bool) or w <= 0:
                raise TTRError(f"longest_trail: route {rid!r} has length {w!r}; lengths must be positive integers")
        if a.__class__ is not str or b.__class__ is not str or rid.__class__ is not str:
            if not isinstance(a, str) or not isinstance(b, str) or not isinstance(rid, str):
                raise TTRError(f"longest_trail: edge {item!r} must have string cities and route id")
        if rid in seen:
            raise TTRError(f"longest_trail: route id {rid!r} appears twice")
        seen.add(rid)
        out.append((b, a, w, rid) if b < a else (a, b, w, rid))
    out.sort(key=_ROUTE_ID)
    return out


def _route_id(edge: tuple[str, str, int, str]) -> str:
    return edge[3]


_ROUTE_ID = _route_id


def _contract(nv: int, edges) -> _Graph:
    """The graph of ``edges`` with degree-2 cities contracted (step 1 of the module docstring)."""
    ea = [a for a, _, _, _ in edges]
    eb = [b for _, b, _, _ in edges]
    ew = [w for _, _, w, _ in edges]
    chains = [([rid], [a, b]) for a, b, _, rid in edges]
    alive = [True] * len(edges)
    inc: list[list[int]] = [[] for _ in range(nv)]
    for e in range(len(edges)):
        inc[ea[e]].append(e)
        inc[eb[e]].append(e)
    for v in range(nv):
        ends = inc[v]
        if len(ends) != 2 or ends[0] == ends[1]:
            continue
        e1, e2 = ends
        r1, c1 = chains[e1]  # orient e1 as x -> v
        if eb[e1] == v:
            x = ea[e1]
        else:
            x = eb[e1]
            r1, c1 = r1[::-1], c1[::-1]
        r2, c2 = chains[e2]  # orient e2 as v -> y
        if ea[e2] == v:
            y = eb[e2]
        else:
            y = ea[e2]
            r2, c2 = r2[::-1], c2[::-1]
        new = len(ea)
        ea.append(x)
        eb.append(y)
        ew.append(ew[e1] + ew[e2])
        chains.append((r1 + r2, c1 + c2[1:]))
        alive.append(True)
        alive[e1] = alive[e2] = False
        inc[v] = []
        ends = inc[x]                     # e1 (no loop: v has two distinct route-ends) becomes the new edge
        ends[ends.index(e1)] = new
        ends = inc[y]
        ends[ends.index(e2)] = new
    keep = [e for e in range(len(ea)) if alive[e]]
    keep.sort(key=lambda e: min(chains[e][0]))  # canonical numbering: by smallest route id carried
    g = _Graph(nv)
    g.ea = [ea[e] for e in keep]
    g.eb = [eb[e] for e in keep]
    g.ew = [ew[e] for e in keep]
    g.chains = [chains[e] for e in keep]
    return g


def _euler(g: _Graph, fmask: int, start: int = -1) -> tuple[list[int], list[int]]:
    """Hierholzer's walk of the connected edge set ``fmask`` (<= 2 odd vertices): (vertices, edges).

    It starts at ``start`` if given (which must be odd or the set closed), else at the smallest odd vertex
    (or smallest vertex of a closed set); ties between edges go to the smallest edge index.
    """
    ea, eb = g.ea, g.eb
    edges = _bits(fmask)
    adj: dict[int, list[int]] = {}
    deg: dict[int, int] = {}
    for e in edges:  # ascending edge order
        for v in (ea[e], eb[e]):
            adj.setdefault(v, []).append(e)
            deg[v] = deg.get(v, 0) + 1
    if start < 0:
        odd = [v for v in deg if deg[v] & 1]
        start = min(odd) if odd else min(deg)
    for lst in adj.values():
        lst.reverse()  # pop() takes the smallest edge first
    used: set[int] = set()
    stack_v = [start]
    stack_e: list[int] = []
    out_v: list[int] = []
    out_e: list[int] = []
    while stack_v:
        v = stack_v[-1]
        lst = adj.get(v, [])
        while lst and lst[-1] in used:
            lst.pop()
        if lst:
            e = lst.pop()
            used.add(e)
            stack_v.append(eb[e] if ea[e] == v else ea[e])
            stack_e.append(e)
        else:
            out_v.append(stack_v.pop())
            if stack_e:
                out_e.append(stack_e.pop())
    out_v.reverse()
    out_e.reverse()
    return out_v, out_e


def _expand(g: _Graph, vseq: list[int], eseq: list[int]) -> tuple[list[str], list[int]]:
    """Route ids and city indices of a walk over (possibly contracted or folded) edges."""
    routes: list[str] = []
    cities: list[int] = []
    for step, e in enumerate(eseq):
        r, c = g.chains[e]
        if vseq[step] != g.ea[e]:  # walked from eb to ea (loops are always walked forward)
            r, c = r[::-1], c[::-1]
        routes.extend(r)
        cities.extend(c if not cities else c[1:])
    return routes, cities


# --------------------------------------------------------------------------------------------------
# graph helpers


def _finder(parent: list[int]):
    """``find`` of a union-find over ``parent`` (``parent[x] == x`` for a root), with path compression."""
    def find(x):
        root = x
        while parent[root] != root:
            root = parent[root]
        while x != root:
            parent[x], x = root, parent[x]
        return root
    return find


def _components(g: _Graph, mask: int) -> list[int]:
    """Edge-connected components of the edge set ``mask``, ordered by their smallest edge."""
    ea, eb = g.ea, g.eb
    parent = list(range(g.nv))
    edges = _bits(mask)
    for e in edges:
        ra = ea[e]
        while parent[ra] != ra:
            ra = parent[ra]
        rb = eb[e]
        while parent[rb] != rb:
            rb = parent[rb]
        if ra != rb:
            parent[ra] = rb
    groups: dict[int, int] = {}
    order: list[int] = []
    for e in edges:
        r = ea[e]
        while parent[r] != r:
            r = parent[r]
        if r in groups:
            groups[r] |= 1 << e
        else:
            groups[r] = 1 << e
            order.append(r)
    return [groups[r] for r in order]


def _component_at(g: _Graph, mask: int, v0: int) -> int:
    """The edges of ``mask`` reachable from vertex ``v0``."""
    ea, eb = g.ea, g.eb
    adj: dict[int, list[int]] = {}
    for e in _bits(mask):
        adj.setdefault(ea[e], []).append(e)
        adj.setdefault(eb[e], []).append(e)
    comp = 0
    seen = {v0}
    stack = [v0]
    while stack:
        v = stack.pop()
        for e in adj.get(v, ()):
            if not (comp >> e) & 1:
                comp |= 1 << e
                for u in (ea[e], eb[e]):
                    if u not in seen:
                        seen.add(u)
                        stack.append(u)
    return comp


def _touches(g: _Graph, mask: int, v: int) -> bool:
    ea, eb = g.ea, g.eb
    return any(ea[e] == v or eb[e] == v for e in _bits(mask))


def _bridges(g: _Graph, mask: int) -> int:
    """The bridges of the edge set ``mask`` (Tarjan; parallel edges and loops are never bridges)."""
    ea, eb = g.ea, g.eb
    adj: dict[int, list[tuple[int, int]]] = {}
    for e in _bits(mask):
        a, b = ea[e], eb[e]
        if a != b:
            adj.setdefault(a, []).append((b, e))
            adj.setdefault(b, []).append((a, e))
    disc: dict[int, int] = {}
    low: dict[int, int] = {}
    bridges = 0
    for root in sorted(adj):
        if root in disc:
            continue
        disc[root] = low[root] = len(disc)
        stack = [(root, -1, iter(adj[root]))]
        while stack:
            v, pe, it = stack[-1]
            for u, e in it:
                if e == pe:
                    continue
                if u in disc:
                    low[v] = min(low[v], disc[u])
                else:
                    disc[u] = low[u] = len(disc)
                    stack.append((u, e, iter(adj[u])))
                    break
            else:
                stack.pop()
                if stack:
                    p = stack[-1][0]
                    low[p] = min(low[p], low[v])
                    if low[v] > disc[p]:
                        bridges |= 1 << pe
    return bridges


# --------------------------------------------------------------------------------------------------
# bridge-tree decomposition (step 3 of the module docstring)


def _solve_component(g: _Graph, comp: int, floor: int):
    """(value, edge mask) of the best trail of connected ``comp`` if it beats ``floor``, else None.

    Blobs (2-edge-connected pieces) hanging below the root blob are folded bottom-up into pendant edges
    whose weight is bridge + best trail of the blob-and-below pinned at the bridge's end. (``_longest`` solves
    a piece without cycles on its routes, ``_tree_trail``: the same folding where every blob is a lone city.)
    """
    bridges = _bridges(g, comp)
    if not bridges:
        return _search(g, comp, -1, floor)
    return _solve_bridge_tree(g, comp, bridges, floor)


def _solve_bridge_tree(g: _Graph, comp: int, bridges: int, floor: int):
    """``_solve_component`` of a piece with ``bridges`` (step 3 of the module docstring)."""
    ea, eb = g.ea, g.eb
    # blobs: union-find over the non-bridge edges; every vertex of comp is in exactly one blob
    parent = list(range(g.nv))
    find = _finder(parent)
    inner = comp & ~bridges
    for e in _bits(inner):
        ra, rb = find(ea[e]), find(eb[e])
        if ra != rb:
            if rb < ra:
                ra, rb = rb, ra
            parent[rb] = ra
    for e in _bits(bridges):
        find(ea[e])
        find(eb[e])
    blob_edges: dict[int, int] = {}
    for e in _bits(inner):
        r = find(ea[e])
        blob_edges[r] = blob_edges.get(r, 0) | (1 << e)
    tree: dict[int, list[int]] = {}
    for e in _bits(bridges):
        tree.setdefault(find(ea[e]), []).append(e)
        tree.setdefault(find(eb[e]), []).append(e)
    blobs = sorted(tree)  # every blob touches a bridge, since comp is connected and has one
    root = max(blobs, key=lambda b: (g.weight(blob_edges.get(b, 0)), -b))
    # breadth-first order of the bridge tree; up[b] = (bridge to parent, port in b, port in parent, parent)
    up: dict[int, tuple[int, int, int, int]] = {}
    order = [root]
    seen = {root}
    for b in order:  # grows while iterating; children come after their parents
        for e in tree[b]:
            x, y = (ea[e], eb[e]) if find(ea[e]) == b else (eb[e], ea[e])
            c = find(y)
            if c not in seen:
                seen.add(c)
                up[c] = (e, y, x, b)
                order.append(c)
    pendants: dict[int, int] = {b: 0 for b in blobs}
    for b in reversed(order[1:]):
        e, u, v, p = up[b]
        graph = blob_edges.get(b, 0) | pendants[b]
        if blob_edges.get(b, 0):
            value, fmask = _search(g, graph, u, 0)
        else:  # a lone city: the heaviest pendant edge, if any
            value, fmask = 0, 0
            for f in _bits(graph):
                if g.ew[f] > value:
                    value, fmask = g.ew[f], 1 << f
        r, c = g.chains[e]
        if ea[e] != v:
            r, c = r[::-1], c[::-1]
        routes, cities = list(r), list(c)
        if fmask:
            r2, c2 = _expand(g, *_euler(g, fmask, u))
            routes += r2
            cities += c2[1:]
        leaf = g.new_vertex()
        pendants[p] |= 1 << g.add_edge(v, leaf, g.ew[e] + value, (routes, cities))
    # the best trail that stays below some blob b and goes through it: blob b + its pendant edges
    graphs = {b: blob_edges.get(b, 0) | pendants[b] for b in blobs}
    totals = {b: g.weight(graphs[b]) for b in blobs}
    best = None
    for b in [root] + sorted(order[1:], key=lambda b: -totals[b]):
        if totals[b] <= floor:
            continue
        if blob_edges.get(b, 0):
            found = _search(g, graphs[b], -1, floor)
        else:  # a lone city: its two heaviest pendant edges
            top = sorted(_bits(graphs[b]), key=lambda f: -g.ew[f])[:2]
            value = sum(g.ew[f] for f in top)
            found = (value, sum(1 << f for f in top)) if value > floor else None
        if found is not None:
            floor, best = found[0], found
    return best


# --------------------------------------------------------------------------------------------------
# bound and branch and bound (steps 4-5 of the module docstring)


def _bound(g: _Graph, K: int, I: int, pin: int):
    """(UB, D*) for node (K, I), or None when no admissible trail exists.

    Free search (``pin`` < 0): the trail's two ends are free, so two odd vertices may stay unmatched.
    Pinned search: the trail must end at ``pin``: the vertices to pair are T xor {pin}, one stays unmatched.
    """
    ea, eb, ew, nv = g.ea, g.eb, g.ew, g.nv
    edges = _bits(K)
    par = [0] * nv
    total = 0
    for e in edges:
        par[ea[e]] ^= 1
        par[eb[e]] ^= 1
        total += ew[e]
    free = 2
    if pin >= 0:
        par[pin] ^= 1
        free = 1
    T = [v for v in range(nv) if par[v]]
    k = len(T)
    if k <= free:
        return total, 0
    adj: list[list[tuple[int, int, int]]] = [[] for _ in range(nv)]
    for e in edges:
        a, b = ea[e], eb[e]
        if a != b and not (I >> e) & 1:
            adj[a].append((b, ew[e], e))
            adj[b].append((a, ew[e], e))
    pos = [-1] * nv
    for i, v in enumerate(T):
        pos[v] = i
    INF = float("inf")
    dist_rows: list[list] = []
    preds: list[list[int]] = []
    heappush, heappop = heapq.heappush, heapq.heappop
    for i in range(k - 1):
        s = T[i]
        dist = [INF] * nv
        pred = [-1] * nv
        done = bytearray(nv)
        dist[s] = 0
        heap = [(0, s)]
        need = k - 1 - i  # the targets are T[i+1:]
        while heap and need:
            d, v = heappop(heap)
            if done[v]:
                continue
            done[v] = 1
            if pos[v] > i:
                need -= 1
            for u, w, e in adj[v]:
                nd = d + w
                if nd < dist[u]:
                    dist[u] = nd
                    pred[u] = e
                    heappush(heap, (nd, u))
        dist_rows.append([dist[T[j]] if done[T[j]] else INF for j in range(k)])
        preds.append(pred)
    if k - free == 2:  # a single pair to match: the closest one
        best = None
        for i in range(k - 1):
            row = dist_rows[i]
            for j in range(i + 1, k):
                if row[j] != INF and (best is None or row[j] < best[0]):
                    best = (row[j], i, j)
        if best is None:
            return None
        pairs = [(best[1], best[2])]
    else:  # minimum-cost perfect matching of T plus `free` zero-cost dummies
        n = k + free
        big = total + 1
        W: list[list] = [[None] * n for _ in range(n)]
        for i in range(k - 1):
            row = dist_rows[i]
            Wi = W[i]
            for j in range(i + 1, k):
                if row[j] != INF:
                    Wi[j] = W[j][i] = big - row[j]
        for d in range(k, n):
            for i in range(k):
                W[i][d] = W[d][i] = big
        if free == 2:
            W[k][k + 1] = W[k + 1][k] = big
        mate = _matching(n, W)
        if -1 in mate:
            return None
        pairs = [(i, mate[i]) for i in range(k) if i < mate[i] < k]
    cost = 0
    D = 0
    for i, j in pairs:
        cost += dist_rows[i][j]
        pred = preds[i]
        v = T[j]
        s = T[i]
        while v != s:
            e = pred[v]
            D ^= 1 << e
            v = eb[e] if ea[e] == v else ea[e]
    return total - cost, D


def _search(g: _Graph, K0: int, pin: int, floor: int):
    """Best-bound-first branch and bound over the connected edge set ``K0``.

    Free (``pin`` < 0): (value, mask) of the best trail if its length beats ``floor``, else None.
    Pinned: (value, mask) of the best trail having ``pin`` as an end (the empty trail (0, 0) included).
    """
    ea = g.ea
    best = [floor, 0]
    heap: list = []
    counter = [0]

    def push(K: int, I: int) -> None:
        res = _bound(g, K, I, pin)
        if res is None:
            return
        ub, D = res
        if ub <= best[0]:
            return
        F = K & ~D
        comps = _components(g, F) if D else [F]
        if len(comps) == 1 and (pin < 0 or not D or _touches(g, F, pin)):
            best[0], best[1] = ub, F
            return
        heapq.heappush(heap, (-ub, counter[0], K, I, D, comps))
        counter[0] += 1

    push(K0, 0)
    while heap:
        neg_ub, _, K, I, D, comps = heapq.heappop(heap)
        if -neg_ub <= best[0]:
            break
        e = _branch_edge(g, D, comps, pin)
        bit = 1 << e
        push(K, I | bit)  # e is kept
        rest = K & ~bit  # e is deleted: keep what can still hold the trail
        if I or pin >= 0:
            anchor = pin if pin >= 0 else ea[(I & -I).bit_length() - 1]
            comp = _component_at(g, rest, anchor)
            if comp and I & ~comp == 0:
                push(comp, I)
        else:
            for comp in _components(g, rest):
                push(comp, 0)
    if pin < 0 and not best[1]:
        return None
    return best[0], best[1]


def _branch_edge(g: _Graph, D: int, comps: list[int], pin: int) -> int:
    """The edge of D* to branch on (any choice keeps the search exact; this one keeps it small).

    A pinned search whose F misses the pin takes the heaviest D* edge at the pin. Otherwise: a D* edge
    joining two pieces of K minus D*, the lighter of the two as heavy as possible; else the heaviest edge.
    Remaining ties go to the heavier edge, then the smaller index.
    """
    ea, eb, ew = g.ea, g.eb, g.ew
    best_e, best_key = -1, None
    if pin >= 0 and not (len(comps) == 1 and _touches(g, comps[0], pin)):
        for e in _bits(D):
            key = ((ea[e] == pin) + (eb[e] == pin), ew[e], -e)
            if best_key is None or key > best_key:
                best_e, best_key = e, key
        return best_e
    piece: dict[int, int] = {}
    weights = []
    for i, c in enumerate(comps):
        weights.append(g.weight(c))
        for e in _bits(c):
            piece[ea[e]] = piece[eb[e]] = i
    for e in _bits(D):
        pa, pb = piece.get(ea[e]), piece.get(eb[e])
        joins = pa is not None and pb is not None and pa != pb
        key = (joins, min(weights[pa], weights[pb]) if joins else 0, ew[e], -e)
        if best_key is None or key > best_key:
            best_e, best_key = e, key
    return best_e


# --------------------------------------------------------------------------------------------------
# maximum-weight maximum-cardinality matching (dense), after Galil (1986) / J. van Rantwijk's
# mwmatching (public domain) as ported in networkx. Vertices 0..n-1, blossoms n..2n-1; W[v][w] is an int or None.
#
# This part is adapted from networkx (networkx/algorithms/matching.py), which carries this licence:
#   Copyright (C) 2004-2024, NetworkX Developers
#   Aric Hagberg <hagberg@lanl.gov>, Dan Schult <dschult@colgate.edu>, Pieter Swart <swart@lanl.gov>
#   All rights reserved.
#   Redistribution and use in source and binary forms, with or without modification, are permitted provided
#   that the following conditions are met:
#   * Redistributions of source code must retain the above copyright notice, this list of conditions and the
#     following disclaimer.
#   * Redistributions in binary form must reproduce the above copyright notice, this list of conditions and the
#     following disclaimer in the documentation and/or other materials provided with the distribution.
#   * Neither the name of the NetworkX Developers nor the names of its contributors may be used to endorse or
#     promote products derived from this software without specific prior written permission.
#   THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED
#   WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A
#   PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR CONTRIBUTORS BE LIABLE FOR ANY
#   DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
#   PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION)
#   HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING
#   NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
#   POSSIBILITY OF SUCH DAMAGE.


def _matching(n: int, W: list[list]) -> list[int]:
    """``mate`` of a maximum-cardinality matching of maximum weight (-1 = unmatched)."""
    if n == 0:
        return []
    nb = 2 * n
    nbrs = [[w for w in range(n) if w != v and W[v][w] is not None] for v in range(n)]
    maxw = 0
    for v in range(n):
        for w in nbrs[v]:
            maxw = max(maxw, W[v][w])
    mate = [-1] * n
    label = [0] * nb  # 0 free, 1 S, 2 T; +4 breadcrumb while scanning
    labeledge: list = [None] * nb
    inblossom = list(range(n))
    bparent = [-1] * nb
    bchilds: list = [None] * nb
    bedges: list = [None] * nb
    bbase = list(range(n)) + [-1] * n
    bestedge: list = [None] * nb
    bbest: list = [None] * nb
    unused = list(range(nb - 1, n - 1, -1))
    dual = [maxw] * n + [0] * n  # 2*u(v) for vertices, z(b) for blossoms
    allowed = bytearray(n * n)
    queue: list[int] = []

    def slack(v, w):
        return dual[v] + dual[w] - 2 * W[v][w]

    def leaves(b):
        if b < n:
            return [b]
        out = []
        stack = [b]
        while stack:
            t = stack.pop()
            if t < n:
                out.append(t)
            else:
                stack.extend(bchilds[t])
        return out

    def assign_label(w, t, v):
        b = inblossom[w]
        label[w] = label[b] = t
        e = None if v < 0 else (v, w)
        labeledge[w] = labeledge[b] = e
        bestedge[w] = bestedge[b] = None
        if t == 1:
            queue.extend(leaves(b))
        else:
            base = bbase[b]
            assign_label(mate[base], 1, base)

    def scan_blossom(v, w):
        path = []
        base = -1
        while v != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = bbase[b]
                break
            path.append(b)
            label[b] = 5
            if labeledge[b] is None:
                v = -1
            else:
                v = labeledge[b][0]
                b = inblossom[v]
                v = labeledge[b][0]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base, v, w):
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = unused.pop()
        bbase[b] = base
        bparent[b] = -1
        bparent[bb] = b
        path = []
        edgs = [(v, w)]
        while bv != bb:
            bparent[bv] = b
            path.append(bv)
            edgs.append(labeledge[bv])
            v = labeledge[bv][0]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        edgs.reverse()
        while bw != bb:
            bparent[bw] = b
            path.append(bw)
            le = labeledge[bw]
            edgs.append((le[1], le[0]))
            w = le[0]
            bw = inblossom[w]
        bchilds[b] = path
        bedges[b] = edgs
        label[b] = 1
        labeledge[b] = labeledge[bb]
        dual[b] = 0
        for x in leaves(b):
            if label[inblossom[x]] == 2:
                queue.append(x)
            inblossom[x] = b
        bestedgeto: dict = {}
        for sb in path:
            if sb >= n and bbest[sb] is not None:
                nblist = bbest[sb]
                bbest[sb] = None
            else:
                nblist = [(x, y) for x in leaves(sb) for y in nbrs[x]]
            for k in nblist:
                i, j = k
                if inblossom[j] == b:
                    i, j = j, i
                bj = inblossom[j]
                if bj != b and label[bj] == 1:
                    cur = bestedgeto.get(bj)
                    if cur is None or slack(i, j) < slack(cur[0], cur[1]):
                        bestedgeto[bj] = k
            bestedge[sb] = None
        lst = list(bestedgeto.values())
        bbest[b] = lst
        best = None
        bslack = 0
        for k in lst:
            ks = slack(k[0], k[1])
            if best is None or ks < bslack:
                best = k
                bslack = ks
        bestedge[b] = best

    def allow(v, w):
        allowed[v * n + w] = 1
        allowed[w * n + v] = 1

    def expand_blossom(b, endstage):
        for s in bchilds[b]:
            bparent[s] = -1
            if s < n:
                inblossom[s] = s
            elif endstage and dual[s] == 0:
                expand_blossom(s, endstage)
            else:
                for x in leaves(s):
                    inblossom[x] = s
        if not endstage and label[b] == 2:
            childs = bchilds[b]
            edgs = bedges[b]
            entrychild = inblossom[labeledge[b][1]]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep = 1
            else:
                jstep = -1
            v, w = labeledge[b]
            while j != 0:
                if jstep == 1:
                    p, q = edgs[j]
                else:
                    q, p = edgs[j - 1]
                label[w] = 0
                label[q] = 0
                assign_label(w, 2, v)
                allow(p, q)
                j += jstep
                if jstep == 1:
                    v, w = edgs[j]
                else:
                    w, v = edgs[j - 1]
                allow(v, w)
                j += jstep
            bw = childs[j]
            label[w] = label[bw] = 2
            labeledge[w] = labeledge[bw] = (v, w)
            bestedge[bw] = None
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if label[bv] == 1:
                    j += jstep
                    continue
                x = bv
                if bv >= n:
                    for x in leaves(bv):
                        if label[x]:
                            break
                if label[x]:
                    label[x] = 0
                    label[mate[bbase[bv]]] = 0
                    assign_label(x, 2, labeledge[x][0])
                j += jstep
        label[b] = 0
        labeledge[b] = None
        bestedge[b] = None
        bparent[b] = -1
        bbase[b] = -1
        bchilds[b] = None
        bedges[b] = None
        bbest[b] = None
        dual[b] = 0
        unused.append(b)

    def augment_blossom(b, v):
        t = v
        while bparent[t] != b:
            t = bparent[t]
        if t >= n:
            augment_blossom(t, v)
        childs = bchilds[b]
        edgs = bedges[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep = 1
        else:
            jstep = -1
        while j != 0:
            j += jstep
            t = childs[j]
            if jstep == 1:
                w, x = edgs[j]
            else:
                x, w = edgs[j - 1]
            if t >= n:
                augment_blossom(t, w)
            j += jstep
            t = childs[j]
            if t >= n:
                augment_blossom(t, x)
            mate[w] = x
            mate[x] = w
        bchilds[b] = childs[i:] + childs[:i]
        bedges[b] = edgs[i:] + edgs[:i]
        bbase[b] = bbase[bchilds[b][0]]

    def augment_matching(v, w):
        for s, j in ((v, w), (w, v)):
            while True:
                bs = inblossom[s]
                if bs >= n:
                    augment_blossom(bs, s)
                mate[s] = j
                if labeledge[bs] is None:
                    break
                t = labeledge[bs][0]
                bt = inblossom[t]
                s, j = labeledge[bt]
                if bt >= n:
                    augment_blossom(bt, j)
                mate[j] = s

    while True:  # one stage per augmentation
        for i in range(nb):
            label[i] = 0
            labeledge[i] = None
            bestedge[i] = None
        for i in range(n, nb):
            bbest[i] = None
        allowed[:] = bytes(n * n)
        queue.clear()
        for v in range(n):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
        augmented = False
        while True:  # substages
            while queue and not augmented:
                v = queue.pop()
                for w in nbrs[v]:
                    bv = inblossom[v]
                    bw = inblossom[w]
                    if bv == bw:
                        continue
                    kslack = 0
                    if not allowed[v * n + w]:
                        kslack = dual[v] + dual[w] - 2 * W[v][w]
                        if kslack <= 0:
                            allowed[v * n + w] = 1
                            allowed[w * n + v] = 1
                    if allowed[v * n + w]:
                        lbw = label[bw]
                        if lbw == 0:
                            assign_label(w, 2, v)
                        elif lbw == 1:
                            base = scan_blossom(v, w)
                            if base != -1:
                                add_blossom(base, v, w)
                            else:
                                augment_matching(v, w)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labeledge[w] = (v, w)
                    elif label[bw] == 1:
                        be = bestedge[bv]
                        if be is None or kslack < slack(be[0], be[1]):
                            bestedge[bv] = (v, w)
                    elif label[w] == 0:
                        be = bestedge[w]
                        if be is None or kslack < slack(be[0], be[1]):
                            bestedge[w] = (v, w)
            if augmented:
                break
            deltatype = -1
            delta = 0
            deltaedge = None
            deltablossom = -1
            for v in range(n):
                if label[inblossom[v]] == 0 and bestedge[v] is not None:
                    be = bestedge[v]
                    d = slack(be[0], be[1])
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 2, be
            for b in range(nb):
                if bparent[b] == -1 and label[b] == 1 and bestedge[b] is not None:
                    be = bestedge[b]
                    d = slack(be[0], be[1]) // 2
                    if deltatype == -1 or d < delta:
                        delta, deltatype, deltaedge = d, 3, be
            for b in range(n, nb):
                if bbase[b] >= 0 and bparent[b] == -1 and label[b] == 2 and (deltatype == -1 or dual[b] < delta):
                    delta, deltatype, deltablossom = dual[b], 4, b
            if deltatype == -1:  # maximum cardinality reached: no augmenting path at all
                deltatype = 1
                delta = max(0, min(dual[:n]))
            for v in range(n):
                lb = label[inblossom[v]]
                if lb == 1:
                    dual[v] -= delta
                elif lb == 2:
                    dual[v] += delta
            for b in range(n, nb):
                if bbase[b] >= 0 and bparent[b] == -1:
                    if label[b] == 1:
                        dual[b] += delta
                    elif label[b] == 2:
                        dual[b] -= delta
            if deltatype == 1:
                break
            if deltatype == 4:
                expand_blossom(deltablossom, False)
            else:
                v, w = deltaedge
                allow(v, w)
                queue.append(v)
        if not augmented:
            break
        for b in range(n, nb):
            if bbase[b] >= 0 and bparent[b] == -1 and label[b] == 1 and dual[b] == 0:
                expand_blossom(b, True)
    return mate
