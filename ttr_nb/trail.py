"""Exact longest trail ("longest continuous path", USA-SCORE-3 / EU-SCORE-2).

A player's routes form a multigraph. The longest continuous path is the heaviest *trail*: a walk that uses
each route at most once but may revisit cities and close loops. Its length counts trains, not routes.
:func:`longest_trail` returns it exactly; :func:`longest_trails_by_owner` does so for every player.

Algorithm
---------
A set of edges F can be walked as one trail iff it is connected and has 0 or 2 odd-degree vertices (Euler).
So the answer is ``max w(F)`` over such F, and everything below is an exact search for that F.

1. **Contract degree-2 chains.** If a city v has exactly two route-ends, from two different routes e1, e2,
   every optimal trail uses both or neither: a trail using e1 but not e2 meets v only once, so v is one of
   its ends, and appending e2 there makes it strictly longer (lengths are positive). So (a)-e1-(v)-e2-(b)
   is replaced by one edge of weight w1 + w2 (a loop when a == b) remembering the routes it stands for.
   Other cities keep their degrees, so one pass is enough.
2. **Components.** A trail lies in one connected component; components are handled heaviest first and a
   component whose total weight cannot beat the best trail found so far is skipped. A component with at
   most two odd vertices *is* a trail; a tree's best trail is its weighted diameter (two sweeps).
3. **T-join upper bound.** For a connected edge set K with odd vertices T, any trail F inside K leaves
   D = K \\ F, whose odd vertices are T minus the (at most two) ends of F. Such a D decomposes into paths
   pairing all but at most two vertices of T (plus cycles), so
   ``w(F) <= UB(K) = w(K) - min cost of a matching of all but <= 2 vertices of T`` with shortest-path
   distances as costs (Edmonds-Johnson: a minimum T-join is a minimum-weight perfect matching on T in
   the shortest-path metric). The matching is solved exactly by a weighted blossom algorithm (`_matching`,
   Edmonds/Galil primal-dual, O(n^3)) with two zero-cost "dummy" partners standing for the trail ends.
   The symmetric difference D* of the matched shortest paths attains the bound; if K \\ D* is connected it
   is a trail of length UB(K) and therefore optimal inside K. On the full USA and Europe boards this root
   bound is already attained.
4. **Branch and bound** for the rest. A node is (K, I): K a connected edge set, I ⊆ K edges that must
   be kept. The bound is UB above with I excluded from the deletable edges (infinite distances through I;
   no perfect matching means no trail). If K \\ D* is disconnected, some edge e of D* is branched on:
   "e is kept" (I + e) or "e is deleted" (K - e, keeping only the component that holds I, or every
   component when I is empty). The two children partition the trails of the parent, every trail of a
   node satisfies its bound, and each branch fixes one more edge, so the search is finite and exact.
   Nodes are expanded best-bound first; the search stops when the best open bound is no better than the
   best trail found, which is then optimal.
5. The chosen edge set is walked with Hierholzer's algorithm and contracted edges are expanded back into
   routes and cities.

Determinism: the input is canonicalised first (each edge's cities sorted, edges sorted by route id, cities
numbered in name order) and every later step - Dijkstra, the matching, branching, the heap (ties broken by
an insertion counter) and the Euler walk (smallest edge first, starting from the alphabetically first
odd city, or the alphabetically first city of a closed trail) - depends only on that canonical form. Hence
the same set of routes, given in any order, yields the identical :class:`Trail`. Among several optimal
trails the one returned is the first one this deterministic search proves optimal; no set iteration or
``hash()`` is involved.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Mapping, Sequence

from .errors import TTRError

__all__ = ["Trail", "longest_trail", "longest_trails_by_owner"]

Edge = tuple  # (city_a, city_b, length, route_id)


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
    canon = _canonical(edges)
    if not canon:
        return EMPTY_TRAIL
    names = sorted({c for e in canon for c in (e[0], e[1])})
    index = {name: i for i, name in enumerate(names)}
    graph = _contract(len(names), [(index[a], index[b], w, rid) for a, b, w, rid in canon])
    ea, eb, ew, chains = graph
    solver = _Solver(len(names), ea, eb, ew)
    value, fmask = solver.solve()
    vertex_seq, edge_seq = _euler(fmask, ea, eb, len(names))
    routes: list[str] = []
    cities: list[str] = [names[vertex_seq[0]]]
    for step, e in enumerate(edge_seq):
        chain_routes, chain_cities = chains[e]
        if vertex_seq[step] == ea[e]:  # walked from ea to eb (loops: always forward)
            routes.extend(chain_routes)
            cities.extend(names[c] for c in chain_cities[1:])
        else:
            routes.extend(reversed(chain_routes))
            cities.extend(names[c] for c in reversed(chain_cities[:-1]))
    return Trail(value, tuple(routes), tuple(cities))


def longest_trails_by_owner(edges_by_owner: Mapping[int, Sequence[tuple[str, str, int, str]]]) -> dict[int, Trail]:
    """:func:`longest_trail` of every owner's routes, keyed (and ordered) by owner."""
    return {owner: longest_trail(edges_by_owner[owner]) for owner in sorted(edges_by_owner)}


# --------------------------------------------------------------------------------------------------
# input, contraction, output


def _canonical(edges: Sequence[tuple[str, str, int, str]]) -> list[tuple[str, str, int, str]]:
    out = []
    seen: set[str] = set()
    for item in edges:
        try:
            a, b, w, rid = item
        except (TypeError, ValueError):
            raise TTRError(f"longest_trail: edge {item!r} is not (city_a, city_b, length, route_id)") from None
        if not isinstance(w, int) or isinstance(w, bool) or w <= 0:
            raise TTRError(f"longest_trail: route {rid!r} has length {w!r}; lengths must be positive integers")
        if not isinstance(a, str) or not isinstance(b, str) or not isinstance(rid, str):
            raise TTRError(f"longest_trail: edge {item!r} must have string cities and route id")
        if rid in seen:
            raise TTRError(f"longest_trail: route id {rid!r} appears twice")
        seen.add(rid)
        if b < a:
            a, b = b, a
        out.append((a, b, w, rid))
    out.sort(key=lambda e: e[3])
    return out


def _contract(nv, edges):
    """Contract degree-2 cities (see the module docstring, step 1).

    Returns parallel lists ``ea, eb, ew, chains`` of the reduced edges; ``chains[e]`` is
    ``(route ids from ea to eb, city indices from ea to eb)``.
    """
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
        # orient e1 as (x -> v) and e2 as (v -> y)
        r1, c1 = chains[e1]
        if eb[e1] == v:
            x = ea[e1]
        else:
            x = eb[e1]
            r1, c1 = r1[::-1], c1[::-1]
        r2, c2 = chains[e2]
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
        inc[x] = [new if f == e1 else f for f in inc[x]]
        inc[y] = [new if f == e2 else f for f in inc[y]]
    keep = [e for e in range(len(ea)) if alive[e]]
    # renumber by the smallest route id each edge carries (input is sorted by route id) - canonical
    keep.sort(key=lambda e: min(chains[e][0]))
    return ([ea[e] for e in keep], [eb[e] for e in keep], [ew[e] for e in keep], [chains[e] for e in keep])


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _euler(fmask: int, ea, eb, nv) -> tuple[list[int], list[int]]:
    """Hierholzer's walk of the (connected, <= 2 odd vertices) edge set ``fmask``: (vertices, edges)."""
    edges = _bits(fmask)
    adj: list[list[int]] = [[] for _ in range(nv)]
    deg = [0] * nv
    for e in edges:  # ascending edge order
        adj[ea[e]].append(e)
        adj[eb[e]].append(e)
        deg[ea[e]] += 1
        deg[eb[e]] += 1
    odd = [v for v in range(nv) if deg[v] & 1]
    start = odd[0] if odd else min(v for v in range(nv) if deg[v])
    for lst in adj:
        lst.reverse()  # pop() takes the smallest edge first
    used = bytearray(max(edges) + 1)
    stack_v = [start]
    stack_e: list[int] = []
    out_v: list[int] = []
    out_e: list[int] = []
    while stack_v:
        v = stack_v[-1]
        lst = adj[v]
        while lst and used[lst[-1]]:
            lst.pop()
        if lst:
            e = lst.pop()
            used[e] = 1
            stack_v.append(eb[e] if ea[e] == v else ea[e])
            stack_e.append(e)
        else:
            out_v.append(stack_v.pop())
            if stack_e:
                out_e.append(stack_e.pop())
    out_v.reverse()
    out_e.reverse()
    return out_v, out_e


# --------------------------------------------------------------------------------------------------
# the search


class _Solver:
    def __init__(self, nv, ea, eb, ew):
        self.nv = nv
        self.ea = ea
        self.eb = eb
        self.ew = ew
        self.m = len(ea)

    # -- helpers ----------------------------------------------------------------------------------

    def components(self, mask: int) -> list[int]:
        """Edge-connected components of the edge set ``mask``, ordered by their smallest edge."""
        ea, eb = self.ea, self.eb
        parent = list(range(self.nv))

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        edges = _bits(mask)
        for e in edges:
            ra, rb = find(ea[e]), find(eb[e])
            if ra != rb:
                parent[ra] = rb
        groups: dict[int, int] = {}
        order: list[int] = []
        for e in edges:
            r = find(ea[e])
            if r in groups:
                groups[r] |= 1 << e
            else:
                groups[r] = 1 << e
                order.append(r)
        return [groups[r] for r in order]

    def component_of(self, mask: int, seed_edge: int) -> int:
        """The connected component of edge set ``mask`` that contains ``seed_edge``."""
        ea, eb = self.ea, self.eb
        adj: dict[int, list[int]] = {}
        for e in _bits(mask):
            adj.setdefault(ea[e], []).append(e)
            adj.setdefault(eb[e], []).append(e)
        comp = 0
        seen = {ea[seed_edge]}
        stack = [ea[seed_edge]]
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

    def weight(self, mask: int) -> int:
        ew = self.ew
        return sum(ew[e] for e in _bits(mask))

    # -- bound ------------------------------------------------------------------------------------

    def bound(self, K: int, I: int):
        """(UB, D*) for node (K, I) as in step 3/4 of the module docstring; None when no trail exists."""
        ea, eb, ew, nv = self.ea, self.eb, self.ew, self.nv
        edges = _bits(K)
        par = [0] * nv
        total = 0
        for e in edges:
            par[ea[e]] ^= 1
            par[eb[e]] ^= 1
            total += ew[e]
        T = [v for v in range(nv) if par[v]]
        k = len(T)
        if k <= 2:
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
            need = k - 1 - i  # targets T[i+1:]
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
        # exempt two vertices (the trail's ends), match the rest at minimum cost
        if k == 4:
            best = None
            for i in range(3):
                for j in range(i + 1, 4):
                    d = dist_rows[i][j]
                    if d != INF and (best is None or d < best[0]):
                        best = (d, i, j)
            if best is None:
                return None
            pairs = [(best[1], best[2])]
        else:
            n = k + 2
            big = total + 1
            W: list[list] = [[None] * n for _ in range(n)]
            for i in range(k - 1):
                row = dist_rows[i]
                for j in range(i + 1, k):
                    if row[j] != INF:
                        W[i][j] = W[j][i] = big - row[j]
            for i in range(k):
                W[i][k] = W[k][i] = W[i][k + 1] = W[k + 1][i] = big
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

    # -- exact special cases ----------------------------------------------------------------------

    def tree_diameter(self, K: int) -> int:
        """The heaviest path of a tree component, as an edge mask."""
        ea, eb, ew = self.ea, self.eb, self.ew
        adj: dict[int, list[int]] = {}
        for e in _bits(K):
            adj.setdefault(ea[e], []).append(e)
            adj.setdefault(eb[e], []).append(e)

        def sweep(root):
            dist = {root: 0}
            via = {root: -1}
            stack = [root]
            far = root
            while stack:
                v = stack.pop()
                if dist[v] > dist[far] or (dist[v] == dist[far] and v < far):
                    far = v
                for e in adj[v]:
                    u = eb[e] if ea[e] == v else ea[e]
                    if u not in dist:
                        dist[u] = dist[v] + ew[e]
                        via[u] = e
                        stack.append(u)
            return far, via

        a, _ = sweep(min(adj))
        b, via = sweep(a)
        path = 0
        v = b
        while v != a:
            e = via[v]
            path |= 1 << e
            v = eb[e] if ea[e] == v else ea[e]
        return path

    # -- main loop --------------------------------------------------------------------------------

    def solve(self) -> tuple[int, int]:
        """(length, edge mask) of an optimal trail."""
        ea, eb = self.ea, self.eb
        comps = self.components((1 << self.m) - 1)
        weights = [self.weight(c) for c in comps]
        order = sorted(range(len(comps)), key=lambda i: -weights[i])  # stable: ties by smallest edge
        self.best = (0, 0)
        self.heap = []
        self.counter = 0
        for ci in order:
            K, total = comps[ci], weights[ci]
            if total <= self.best[0]:
                break
            edges = _bits(K)
            par: dict[int, int] = {}
            for e in edges:
                par[ea[e]] = par.get(ea[e], 0) ^ 1
                par[eb[e]] = par.get(eb[e], 0) ^ 1
            if sum(par.values()) <= 2:  # the whole component is a trail
                self.best = (total, K)
                continue
            if len(edges) == len(par) - 1:  # a tree: its heaviest path
                path = self.tree_diameter(K)
                value = self.weight(path)
                if value > self.best[0]:
                    self.best = (value, path)
                continue
            self._push(K, 0)
        heap = self.heap
        while heap:
            neg_ub, _, K, I, D, comps_F = heapq.heappop(heap)
            if -neg_ub <= self.best[0]:
                break
            e = self._branch_edge(D, comps_F)
            bit = 1 << e
            self._push(K, I | bit)  # e is kept
            rest = K & ~bit  # e is deleted
            if I:
                comp = self.component_of(rest, (I & -I).bit_length() - 1)
                if I & ~comp == 0:
                    self._push(comp, I)
            else:
                for comp in self.components(rest):
                    self._push(comp, 0)
        return self.best

    def _push(self, K: int, I: int) -> None:
        """Bound node (K, I); record it if its bound is attained, queue it if it may beat the best."""
        res = self.bound(K, I)
        if res is None:
            return
        ub, D = res
        if ub <= self.best[0]:
            return
        F = K & ~D
        comps_F = self.components(F) if D else [F]
        if len(comps_F) == 1:
            self.best = (ub, F)
            return
        heapq.heappush(self.heap, (-ub, self.counter, K, I, D, comps_F))
        self.counter += 1

    def _branch_edge(self, D: int, comps_F: list[int]) -> int:
        """An edge of D* to branch on: the heaviest one touching the heaviest piece of K \\ D*."""
        ea, eb, ew = self.ea, self.eb, self.ew
        heaviest = max(comps_F, key=self.weight)  # first of equals
        core = set()
        for e in _bits(heaviest):
            core.add(ea[e])
            core.add(eb[e])
        best_e, best_key = -1, None
        for e in _bits(D):
            touches = (ea[e] in core) + (eb[e] in core)
            key = (touches == 1, touches > 0, ew[e])
            if best_key is None or key > best_key:
                best_e, best_key = e, key
        return best_e


# --------------------------------------------------------------------------------------------------
# maximum-weight maximum-cardinality matching (dense), after Galil (1986) / J. van Rantwijk's
# mwmatching as ported in networkx (BSD). Vertices 0..n-1, blossoms n..2n-1; W[v][w] is an int or None.


def _matching(n: int, W: list[list]) -> list[int]:
    """``mate`` of a maximum-cardinality matching of maximum weight (-1 = unmatched)."""
    if n == 0:
        return []
    nb = 2 * n
    nbrs = [[w for w in range(n) if w != v and W[v][w] is not None] for v in range(n)]
    maxw = 0
    for v in range(n):
        for w in nbrs[v]:
            if W[v][w] > maxw:
                maxw = W[v][w]
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
