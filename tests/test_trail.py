"""The longest-trail solver (ttr_nb.board.trail) behind USA-SCORE-3 and EU-SCORE-2.

A trail uses each route at most once, may pass a city several times and may close a loop; its length counts
trains. Hand-made cases are named for the rule; property tests compare with an exhaustive search.
"""
from __future__ import annotations

import functools
import random
from collections import Counter
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_nb.board.trail as trail_mod
from ttr_nb.errors import TTRError
from ttr_nb.board.maps import load_map
from ttr_nb.board.scoring import _pieces
from ttr_nb.board.trail import Trail, longest_trail, longest_trails_by_owner, trail_length

# ------------------------------------------------------------------------------------------------ helpers


def assert_valid_trail(trail: Trail, edges) -> None:
    """``trail`` walks routes of ``edges``, each once, city to adjacent city, and its length adds up."""
    by_id = {rid: (a, b, w) for a, b, w, rid in edges}
    if not trail.routes:
        assert trail == Trail(0, (), ())
        return
    assert len(trail.cities) == len(trail.routes) + 1
    assert len(set(trail.routes)) == len(trail.routes), "a route is used twice"
    total = 0
    for i, rid in enumerate(trail.routes):
        a, b, w = by_id[rid]
        assert sorted((trail.cities[i], trail.cities[i + 1])) == sorted((a, b)), (i, rid, trail)
        total += w
    assert total == trail.length


def brute_force(edges, start=None) -> int:
    """Length of the longest trail by exhaustive search over every walk that never reuses a route
    (from ``start`` only, if given), memoised on (city, routes used so far)."""
    adj: dict[str, list[tuple[str, int, int]]] = {}
    for i, (a, b, w, rid) in enumerate(edges):
        adj.setdefault(a, []).append((b, w, i))
        if a != b:
            adj.setdefault(b, []).append((a, w, i))

    @functools.cache
    def longest_from(city: str, used: int) -> int:
        return max((w + longest_from(other, used | 1 << i) for other, w, i in adj[city] if not used >> i & 1),
                   default=0)

    cities = [start] if start is not None else sorted(adj)
    return max((longest_from(c, 0) for c in cities if c in adj), default=0)


def board_edges(name: str):
    return [(r.a, r.b, r.length, r.id) for r in load_map(name).routes]


def routes_of(name: str, *ids: str):
    by_id = {e[3]: e for e in board_edges(name)}
    return [by_id[i] for i in ids]


def t_join_bound(edges) -> int:
    """An upper bound on any trail, computed independently with networkx: total length minus a minimum
    T-join of the odd cities that leaves two of them free (the trail's ends). See ttr_nb.board.trail, step 4."""
    nx = pytest.importorskip("networkx")
    g = nx.MultiGraph()
    for a, b, w, rid in edges:
        g.add_edge(a, b, weight=w)
    odd = sorted(v for v in g if g.degree(v) % 2)
    dist = dict(nx.all_pairs_dijkstra_path_length(g))
    m = nx.Graph()
    for i, a in enumerate(odd):
        for b in odd[i + 1:]:
            m.add_edge(a, b, weight=dist[a][b])
        m.add_edge(a, "*end1", weight=0)
        m.add_edge(a, "*end2", weight=0)
    m.add_edge("*end1", "*end2", weight=0)
    matching = nx.min_weight_matching(m)
    assert 2 * len(matching) == m.number_of_nodes()
    return sum(e[2] for e in edges) - sum(m[a][b]["weight"] for a, b in matching)


# ------------------------------------------------------------------------------------------------ rule cases


def test_USA_SCORE_3_trail_revisits_city():
    # Two triangles through Denver (a bow tie) and a tail Omaha-Chicago: the trail runs Chicago -> Omaha,
    # round both triangles, passing Denver twice, and stops at Omaha. A simple path gets far less.
    edges = routes_of("usa", "R039", "R082", "R034",   # Denver-Santa Fe 2, Oklahoma City-Santa Fe 3, Denver-OKC 4
                      "R032", "R058", "R035",          # Denver-Kansas City 4, Kansas City-Omaha 1, Denver-Omaha 4
                      "R019")                          # Chicago-Omaha 4
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 22 and len(t.routes) == 7
    assert t.cities.count("Denver") == 2 and {t.cities[0], t.cities[-1]} == {"Chicago", "Omaha"}


def test_USA_SCORE_3_trail_closes_loop():
    # A closed loop: every route once, back where it started.
    loop = routes_of("usa", "R039", "R082", "R034")    # Denver-Santa Fe-Oklahoma City-Denver, 2+3+4
    t = longest_trail(loop)
    assert_valid_trail(t, loop)
    assert t.length == 9 and t.cities[0] == t.cities[-1]
    # A lollipop: Helena-Denver, then round the loop; the trail ends at Denver, which it visited before.
    lollipop = loop + routes_of("usa", "R031")         # Denver-Helena 4
    t = longest_trail(lollipop)
    assert_valid_trail(t, lollipop)
    assert t.length == 13 and t.cities.count("Denver") == 2 and "Helena" in (t.cities[0], t.cities[-1])


def test_USA_SCORE_3_length_counts_trains_not_routes():
    # Two long routes (6 + 5 = 11 trains) beat five routes (6 + 1 + 1 + 1 + 1 = 10 trains).
    edges = [("X", "A", 6, "r1"), ("X", "B", 5, "r2"), ("X", "C", 1, "r3"), ("C", "D", 1, "r4"),
             ("D", "E", 1, "r5"), ("E", "F", 1, "r6")]
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 11 and set(t.routes) == {"r1", "r2"}


def test_USA_SCORE_3_parallel_routes_both_usable():
    # The double route Portland-San Francisco (5 + 5): both tracks are used, plus Portland-Seattle.
    edges = routes_of("usa", "R089", "R090", "R091")
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 11 and sorted(t.routes) == ["R089", "R090", "R091"]
    assert t.cities.count("Portland") == 2


def test_USA_SCORE_3_figure_eight():
    # Two squares sharing X: one closed trail through X twice, all eight routes.
    edges = [("X", "A", 1, "a1"), ("A", "B", 2, "a2"), ("B", "C", 3, "a3"), ("C", "X", 4, "a4"),
             ("X", "D", 1, "b1"), ("D", "E", 2, "b2"), ("E", "F", 3, "b3"), ("F", "X", 4, "b4")]
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 20 and len(t.routes) == 8 and t.cities[0] == t.cities[-1]
    assert Counter(t.cities[:-1])["X"] == 2


def test_USA_SCORE_3_star_uses_only_two_branches():
    # Four arms (two routes each) out of X: a trail can use only two of them, the longest: 5 + 4.
    edges = [("X", "A1", 2, "a1"), ("A1", "A2", 3, "a2"), ("X", "B1", 1, "b1"), ("B1", "B2", 3, "b2"),
             ("X", "C1", 2, "c1"), ("C1", "C2", 1, "c2"), ("X", "D1", 1, "d1"), ("D1", "D2", 1, "d2")]
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 9 and set(t.routes) == {"a1", "a2", "b1", "b2"}


def test_USA_SCORE_3_two_components_take_the_longer():
    path = [("A", "B", 3, "p1"), ("B", "C", 3, "p2"), ("C", "D", 3, "p3")]        # 9 trains
    triangle = [("E", "F", 4, "t1"), ("F", "G", 4, "t2"), ("G", "E", 4, "t3")]     # 12 trains, closed
    t = longest_trail(path + triangle)
    assert_valid_trail(t, path + triangle)
    assert t.length == 12 and set(t.routes) == {"t1", "t2", "t3"}


def test_USA_SCORE_3_a_lone_chain_is_its_own_trail_read_from_the_smaller_end():
    """A piece of the network that is one chain of routes (every city between its ends has two) is the trail
    itself, without the search; read from its alphabetically smaller end, like every open trail; between chains
    of the same length, the one holding the smallest route id (as the search picks)."""
    chain = [("Q", "M", 2, "c2"), ("M", "Z", 4, "c1"), ("Z", "B", 1, "c3")]           # Q–M–Z–B, 7 trains
    other = [("K", "L", 3, "d1"), ("L", "K2", 4, "d2")]                                 # 7 trains too
    star = [("S", "T", 2, "e1"), ("S", "U", 2, "e2"), ("S", "V", 2, "e3")]             # a tree, 4 at most
    for edges in (chain, chain + star, chain + other + star, other + star + chain[::-1]):
        t = longest_trail(edges)
        assert_valid_trail(t, edges)
        assert t == Trail(7, ("c3", "c1", "c2"), ("B", "Z", "M", "Q")), edges
    assert longest_trail(other + star) == Trail(7, ("d1", "d2"), ("K", "L", "K2"))
    assert longest_trail([("A", "B", 2, "x"), ("B", "A", 3, "y")]).length == 5       # two routes, one loop: searched


def _general_path(edges) -> Trail:
    """The solver's general path on every component, cycles or not (contraction, bridge-tree folding, search):
    what ``longest_trail`` answers with its shortcut for pieces without cycles (``_tree_trail``) set aside."""
    canon = trail_mod._canonical(edges)
    if not canon:
        return Trail(0, (), ())
    names = sorted({c for e in canon for c in e[:2]})
    index = {name: i for i, name in enumerate(names)}
    g = trail_mod._contract(len(names), [(index[a], index[b], w, rid) for a, b, w, rid in canon])
    comps = trail_mod._components(g, (1 << len(g.ea)) - 1)
    best_value, best = 0, None
    for comp in sorted(comps, key=lambda c: -g.weight(c)):
        if g.weight(comp) <= best_value:
            break
        bridges = trail_mod._bridges(g, comp)
        found = (trail_mod._search(g, comp, -1, best_value) if not bridges
                 else trail_mod._solve_bridge_tree(g, comp, bridges, best_value))
        if found is not None:
            best_value, best = found
    routes, cities = trail_mod._expand(g, *trail_mod._euler(g, best))
    if cities[-1] < cities[0] or (cities[-1] == cities[0] and routes[::-1] < routes):
        routes.reverse()
        cities.reverse()
    return Trail(best_value, tuple(routes), tuple(names[c] for c in cities))


def _game_shaped(rng: random.Random, pieces_new: float = 0.15, cycles: int = 3, lengths=(1, 1, 2, 3)):
    """A seeded network shaped like a player's in a real game: trees grown route by route (a new piece now and
    then), plus up to ``cycles`` routes between cities already there (cycles and parallel routes), shuffled."""
    cities, edges = ["C00"], []
    for j in range(rng.randint(1, 16)):
        if rng.random() < pieces_new:
            cities.append(f"C{len(cities):02d}")           # a new piece begins
            continue
        b = f"C{len(cities):02d}"
        edges.append((rng.choice(cities), b, rng.choice(lengths), f"R{j:02d}"))
        cities.append(b)
    for j in range(rng.randint(0, cycles)):
        a, b = rng.sample(cities, 2)
        edges.append((a, b, rng.choice(lengths), f"X{j}"))
    rng.shuffle(edges)
    return edges


def test_USA_SCORE_3_a_tree_gives_the_bridge_tree_folding_s_trail():
    """A piece without cycles is solved on its routes (``trail._tree_trail``); the general path it stands in for
    (contraction, bridge-tree folding) gives the very same Trail (routes, cities and direction, ties included) on
    random forests with few lengths (many ties), alone and beside pieces with cycles."""
    rng = random.Random(18)
    forests = [_game_shaped(rng, cycles=0) for _ in range(1200)]
    mixed = [_game_shaped(rng, cycles=3) for _ in range(300)]
    for edges in forests + mixed:
        assert longest_trail(edges) == _general_path(edges), edges
    assert sum(longest_trail(edges).length > 0 for edges in forests) > 1000


def test_USA_SCORE_3_game_shaped_networks_match_exhaustive_search():
    """Seeded networks shaped like a game's (trees with a few cycles and parallel routes, lengths 1-6): the
    longest trail is a real trail, as long as an exhaustive search finds, and the same in any input order."""
    rng = random.Random(1805)
    for _ in range(300):
        edges = _game_shaped(rng, pieces_new=0.1, cycles=rng.choice((0, 1, 2, 4)), lengths=(1, 2, 3, 4, 5, 6))
        t = longest_trail(edges)
        assert_valid_trail(t, edges)
        assert t.length == brute_force(edges), edges
        shuffled = list(edges)
        rng.shuffle(shuffled)
        assert longest_trail(shuffled) == t


def test_USA_SCORE_3_not_the_whole_network():
    # Two triangles joined by a bridge, two spurs at J1: J1, J2 and both spur ends are odd, so one spur
    # (the shorter, 4) must go: 28 - 4 = 24. The trail crosses the bridge once.
    edges = [("J1", "A", 3, "a1"), ("A", "B", 3, "a2"), ("B", "J1", 3, "a3"), ("J1", "J2", 1, "br"),
             ("J2", "C", 3, "b1"), ("C", "D", 3, "b2"), ("D", "J2", 3, "b3"),
             ("J1", "P", 5, "p1"), ("J1", "Q", 4, "q1")]
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 24 == brute_force(edges) and "q1" not in t.routes


def test_USA_SCORE_3_all_cities_odd():
    # K4: all four cities have three routes; dropping the lightest route leaves an Euler trail.
    edges = [("A", "B", 3, "k1"), ("A", "C", 4, "k2"), ("A", "D", 2, "k3"),
             ("B", "C", 5, "k4"), ("B", "D", 1, "k5"), ("C", "D", 6, "k6")]
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 20 and "k5" not in t.routes


def test_petersen_graph():
    # Cubic, every city odd, no Hamiltonian cycle: values checked by exhaustive search (brute_force).
    pairs = ([(f"o{i}", f"o{(i + 1) % 5}") for i in range(5)] + [(f"o{i}", f"i{i}") for i in range(5)]
             + [(f"i{i}", f"i{(i + 2) % 5}") for i in range(5)])
    unit = [(a, b, 1, f"P{k:02d}") for k, (a, b) in enumerate(pairs)]
    weighted = [(a, b, (7 * k) % 5 + 1, f"P{k:02d}") for k, (a, b) in enumerate(pairs)]
    for edges, expected in ((unit, 11), (weighted, 38)):
        t = longest_trail(edges)
        assert_valid_trail(t, edges)
        assert t.length == expected


def test_partial_usa_network():
    # 25 routes of the USA board: pendant trees around a triangle (Denver-Phoenix-Santa Fe) that the
    # longest trail does not use. 34 checked by brute_force.
    edges = routes_of("usa", "R003", "R017", "R020", "R022", "R036", "R039", "R041", "R043", "R046", "R047",
                      "R048", "R051", "R053", "R056", "R059", "R061", "R066", "R069", "R071", "R073", "R082",
                      "R083", "R094", "R096", "R099")
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 34 == brute_force(edges)


def test_empty_and_single_route():
    assert longest_trail([]) == Trail(0, (), ())
    assert longest_trail([("Denver", "Omaha", 4, "R035")]) == Trail(4, ("R035",), ("Denver", "Omaha"))


def test_loop_route_is_walked():
    # Not on any board, but well defined: a route from a city to itself is walked when the city is visited.
    edges = [("A", "A", 3, "loop"), ("A", "B", 2, "ab"), ("B", "C", 1, "bc")]
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 6


@pytest.mark.parametrize("bad", [
    [("A", "B", 2, "r1"), ("B", "C", 3, "r1")],   # duplicate route id
    [("A", "B", 0, "r1")],                          # length must be positive
    [("A", "B", 2.5, "r1")],                        # and whole
    [("A", "B", True, "r1")],
    [("A", "B", 2)],                                # not a 4-tuple
])
def test_bad_input_is_refused(bad):
    with pytest.raises(TTRError):
        longest_trail(bad)


def test_longest_trails_by_owner():
    blue = routes_of("usa", "R089", "R090", "R091")
    red = [("X", "Y", 2, "x")]
    out = longest_trails_by_owner({1: red, 0: blue, 2: []})
    assert list(out) == [0, 1, 2]
    assert out[0] == longest_trail(blue) and out[1].length == 2 and out[2] == Trail(0, (), ())


# ------------------------------------------------------------------------------------------------ whole boards


def test_whole_usa_board():
    # 285 of the board's 309 trains. Established independently of ttr_nb.board.trail: t_join_bound (networkx's
    # blossom matching on the 22 odd cities) proves no trail exceeds 309 - 24 = 285, and the returned
    # trail, checked route by route, reaches it.
    edges = board_edges("usa")
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 285 == t_join_bound(edges)


def test_whole_europe_board():
    # 269 of 300 trains; upper bound from networkx as for the USA (26 odd cities, T-join 31).
    edges = board_edges("europe")
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == 269 == t_join_bound(edges)


def test_order_independence_on_the_board():
    edges = board_edges("usa")
    reference = longest_trail(edges)
    rng = random.Random(2024)
    for _ in range(5):
        shuffled = [(b, a, w, rid) if rng.random() < 0.5 else (a, b, w, rid) for a, b, w, rid in edges]
        rng.shuffle(shuffled)
        assert longest_trail(shuffled) == reference
    for _ in range(20):
        sub = rng.sample(edges, 18)
        expected = longest_trail(sub)
        rng.shuffle(sub)
        assert longest_trail(sub) == expected


# ------------------------------------------------------------------------------------------------ properties

CITIES = "ABCDEF"


@st.composite
def multigraphs(draw, max_edges=9):
    n_cities = draw(st.integers(1, len(CITIES)))
    cities = st.sampled_from(CITIES[:n_cities])
    n = draw(st.integers(0, max_edges))
    return [(draw(cities), draw(cities), draw(st.integers(1, 6)), f"R{i}") for i in range(n)]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multigraphs(), st.randoms(use_true_random=False))
def test_matches_exhaustive_search(edges, rnd):
    t = longest_trail(edges)
    assert_valid_trail(t, edges)
    assert t.length == brute_force(edges)
    shuffled = list(edges)
    rnd.shuffle(shuffled)
    assert longest_trail(shuffled) == t


def _reduced(edges, contract=True):
    canon = trail_mod._canonical(edges)
    names = sorted({c for e in canon for c in e[:2]})
    index = {name: i for i, name in enumerate(names)}
    numbered = [(index[a], index[b], w, rid) for a, b, w, rid in canon]
    if contract:
        return trail_mod._contract(len(names), numbered), index
    g = trail_mod._Graph(len(names))
    for a, b, w, rid in numbered:
        g.add_edge(a, b, w, ([rid], [a, b]))
    return g, index


def _search_alone(edges, start=None) -> int:
    """The branch and bound (steps 4-5) run directly on each component, without bridge folding (and, when
    pinned, without contraction, which could remove the pinned city)."""
    g, index = _reduced(edges, contract=start is None)
    best = 0
    for comp in trail_mod._components(g, (1 << len(g.ea)) - 1):
        if start is None:
            found = trail_mod._search(g, comp, -1, 0)
        elif start in index and trail_mod._touches(g, comp, index[start]):
            found = trail_mod._search(g, comp, index[start], 0)
        else:
            continue
        if found is not None:
            value, mask = found
            if mask:
                vseq, eseq = trail_mod._euler(g, mask, -1 if start is None else index[start])
                routes, _ = trail_mod._expand(g, vseq, eseq)
                assert sum(w for a, b, w, rid in edges if rid in routes) == value
            best = max(best, value)
    return best


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multigraphs())
def test_branch_and_bound_alone_is_exact(edges):
    assert _search_alone(edges) == brute_force(edges)
    if edges:
        start = edges[0][0]   # the pinned search: longest trail with `start` as an end
        assert _search_alone(edges, start) == brute_force(edges, start)


def test_branch_and_bound_when_it_has_to_branch(monkeypatch):
    # Random graphs are mostly solved by the first bound; collect ones where the search must branch.
    branched = []
    real = trail_mod._branch_edge

    def counting(*args):
        branched.append(1)
        return real(*args)

    monkeypatch.setattr(trail_mod, "_branch_edge", counting)
    rng = random.Random(7)
    hits = 0
    for _ in range(4000):
        n_cities = rng.randint(3, 7)
        edges = [(f"C{rng.randrange(n_cities)}", f"C{rng.randrange(n_cities)}", rng.randint(1, 6), f"R{i}")
                 for i in range(rng.randint(6, 11))]
        start = edges[0][0] if rng.random() < 0.5 else None
        branched.clear()
        value = _search_alone(edges, start)
        if branched:
            hits += 1
            assert value == brute_force(edges, start), (edges, start)
        if hits >= 60:
            break
    assert hits >= 60


def _best_matching(n, weights):
    """(cardinality, weight) of a maximum-cardinality maximum-weight matching, by enumeration."""
    best = (0, 0)

    def rec(v, free, card, total):
        nonlocal best
        while v < n and v not in free:
            v += 1
        if v >= n:
            best = max(best, (card, total))
            return
        rest = free - {v}
        rec(v + 1, rest, card, total)
        for u in sorted(rest):
            if weights[v][u] is not None:
                rec(v + 1, rest - {u}, card + 1, total + weights[v][u])

    rec(0, set(range(n)), 0, 0)
    return best


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.one_of(st.none(), st.integers(1, 30)), min_size=n * n, max_size=n * n))))
def test_blossom_matching_is_optimal(case):
    n, flat = case
    w = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            w[i][j] = w[j][i] = flat[i * n + j]
    mate = trail_mod._matching(n, w)
    for v in range(n):
        if mate[v] >= 0:
            assert mate[mate[v]] == v and w[v][mate[v]] is not None
    card = sum(1 for v in range(n) if mate[v] >= 0) // 2
    total = sum(w[v][mate[v]] for v in range(n) if mate[v] > v)
    assert (card, total) == _best_matching(n, w)


@pytest.mark.parametrize("variant", ["usa", "europe", "maerklin", "south_korea"])
def test_USA_SCORE_3_the_engines_canonical_edges_give_the_public_answer(variant):
    """The final score reads each seat's routes from the route table in trail's canonical form
    (``RouteTable.canon_edges``, cities in name order, in route id order) and skips the checks and the sort:
    the very same Trail as ``longest_trail`` of the edges as the map gives them, for random networks of
    every board."""
    from ttr_nb.board.trail import longest_trail_canonical
    from ttr_nb.variants import get_variant
    t = get_variant(variant).route_table
    assert t.ids_sorted
    rng = random.Random(f"canon/{variant}")
    flipped = sum(e != c for e, c in zip(t.edges, t.canon_edges))
    assert flipped > 0 or variant != "maerklin"         # Märklin's map lists some routes against name order
    for _ in range(12):
        owned = sorted(rng.sample(range(len(t.edges)), rng.randint(5, 30)))
        assert longest_trail_canonical([t.canon_edges[i] for i in owned]) == longest_trail([t.edges[i] for i in owned])


# ------------------------------------------------------------------------------------------------ the length alone


def _numbered(edges):
    """``edges`` as ``trail_length`` takes them: (city numbers per route, lengths, every route, the union-find)."""
    names = sorted({c for e in edges for c in e[:2]})
    index = {name: i for i, name in enumerate(names)}
    ends = [(index[a], index[b]) for a, b, _, _ in edges]
    up = _pieces(SimpleNamespace(ends=ends, places=len(names)), range(len(edges)))     # as the final score makes it
    return ends, [e[2] for e in edges], list(range(len(edges))), up


def _length_agrees(edges, expected: int) -> None:
    """``trail_length`` gives ``expected`` above its floor and nothing above the floor otherwise (the floors
    around the answer, where the bonus's ties are decided)."""
    ends, length, owned, up = _numbered(edges)
    for floor in sorted({0, max(expected - 1, 0), expected, expected + 1}):
        got = trail_length(ends, length, owned, up, floor)
        if expected > floor:
            assert got == expected, (edges, floor)
        else:
            assert got is not None and got <= floor, (edges, floor, got)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multigraphs())
def test_USA_SCORE_3_the_length_alone_matches_exhaustive_search(edges):
    _length_agrees(edges, brute_force(edges))


def test_USA_SCORE_3_the_length_alone_on_game_shaped_networks():
    """Seeded networks shaped like a game's, forests (the contracted tree's two heaviest ways down) and pieces
    with cycles (the depth-first search): the same length as ``longest_trail``."""
    rng = random.Random(1812)
    for _ in range(600):
        edges = _game_shaped(rng, cycles=rng.choice((0, 0, 1, 3, 6)), lengths=(1, 2, 3, 4, 5, 6))
        _length_agrees(edges, longest_trail(edges).length)


@pytest.mark.parametrize("variant", ["usa", "europe"])
def test_USA_SCORE_3_the_length_alone_on_the_boards(variant):
    """Random sets of a board's routes (up to 45, many pieces with cycles): the length the final score reads is
    ``longest_trail``'s, or None where the search would be too long (then ``score`` asks ``longest_trail``)."""
    from ttr_nb.variants import get_variant
    t = get_variant(variant).route_table
    rng = random.Random(f"length/{variant}")
    searched = 0
    for _ in range(150):
        owned = sorted(rng.sample(range(len(t.edges)), rng.randint(1, 45)))
        ends, length, _, up = _numbered([t.edges[i] for i in owned])
        got = trail_length(ends, length, range(len(owned)), up)
        if got is not None:
            assert got == longest_trail([t.edges[i] for i in owned]).length, owned
            searched += 1
    assert searched > 100


def test_USA_SCORE_3_the_length_alone_gives_up_past_its_budget():
    """A piece that must be searched (every two of four cities joined: each city odd) with too small a budget:
    None, not a guess; with the default budget, the exact length. Every two of six cities joined is past it."""
    edges = [(a, b, 1 + (i % 3), f"k{i}") for i, (a, b) in enumerate(
        [(a, b) for a in "ABCD" for b in "ABCD" if a < b])]
    ends, length, owned, up = _numbered(edges)
    assert trail_length(ends, length, owned, up, budget=3) is None
    assert trail_length(ends, length, owned, up) == longest_trail(edges).length == brute_force(edges)
    dense = [(a, b, 1 + (i % 3), f"k{i}") for i, (a, b) in enumerate(
        [(a, b) for a in "ABCDEF" for b in "ABCDEF" if a < b])]
    assert trail_length(*_numbered(dense)) is None
