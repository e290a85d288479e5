"""The map explorer's computations (ttr_nb.analysis), checked against independent networkx recounts."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import networkx as nx
import pytest

from ttr_nb import analysis as A
from ttr_nb.bots import GreedyBot
from ttr_nb.errors import MapError
from ttr_nb.game import Game
from ttr_nb.board.maps import load_map
from ttr_nb.board.scoring import score

MAPS = ("usa", "europe", "maerklin", "south_korea")


@pytest.fixture(scope="module")
def midgame():
    g = Game("usa", 4, seed=3)
    g.play_bots(GreedyBot(1), max_plies=120)
    return g.state


def countries(m) -> set[str]:
    return {c.name for c in m.cities if c.extra.get("country")}


def reference_graph(m, ends: tuple[str, ...] = ()) -> nx.Graph:
    """A simple graph built here, independently of ttr_nb.analysis: cheapest track per city pair. A country
    (Märklin) is a place no path passes through: it is left out unless it is one of ``ends``."""
    g = nx.Graph()
    skip = countries(m) - set(ends)
    for r in m.routes:
        if r.a in skip or r.b in skip:
            continue
        if not g.has_edge(r.a, r.b) or r.length < g.edges[r.a, r.b]["length"]:
            g.add_edge(r.a, r.b, length=r.length)
    return g


# --------------------------------------------------------------------------------------------- cheapest_paths

def test_denver_el_paso_is_4_trains_via_santa_fe(usa):
    best = A.cheapest_paths(usa, "Denver", "El Paso")[0]
    assert best.trains == 4
    assert best.routes == ("R039", "R050")
    assert best.cities == ("Denver", "Santa Fe", "El Paso")
    assert [usa.route(r).length for r in best.routes] == [2, 2]
    assert str(best) == "4 trains, 2 routes: Denver – Santa Fe – El Paso"           # city names, no ids
    assert best.routes == ("R039", "R050")


def test_cheapest_paths_k_ordered_and_simple(usa):
    paths = A.cheapest_paths(usa, "Denver", "El Paso", k=5)
    assert len(paths) == 5
    keys = [(p.trains, p.n_routes, p.routes) for p in paths]
    assert keys == sorted(keys) and len(set(keys)) == 5
    for p in paths:
        assert p.cities[0] == "Denver" and p.cities[-1] == "El Paso"
        assert len(set(p.cities)) == len(p.cities) == p.n_routes + 1          # simple paths
        assert p.trains == sum(usa.route(r).length for r in p.routes)
        for rid, (x, y) in zip(p.routes, zip(p.cities, p.cities[1:])):
            assert {x, y} == set(usa.route(rid).cities)
    assert paths[1].trains == 8            # Denver–Phoenix–El Paso, 5 + 3


def test_parallel_routes_are_named(usa):
    p = A.cheapest_paths(usa, "Kansas City", "Oklahoma City", k=1)[0]
    assert p.routes == ("R056",) and p.parallel == (("R056", "R057"),)
    assert p.trains == 2


def test_cheapest_paths_accepts_names_loosely_and_rejects_bad_input(usa):
    assert A.cheapest_paths("usa", "denver", "EL PASO", k=1) == A.cheapest_paths(usa, "Denver", "El Paso", k=1)
    with pytest.raises(MapError, match="Denvr"):
        A.cheapest_paths(usa, "Denvr", "El Paso")
    with pytest.raises(ValueError):
        A.cheapest_paths(usa, "Denver", "El Paso", k=0)
    same = A.cheapest_paths(usa, "Denver", "Denver")
    assert len(same) == 1 and same[0].trains == 0 and same[0].routes == ()


@pytest.mark.parametrize("key", MAPS)
def test_cheapest_trains_match_dijkstra_on_the_multigraph(key):
    m = load_map(key)
    for t in m.tickets:
        g = m.graph()
        g.remove_nodes_from(countries(m) - {t.a, t.b})
        want = nx.dijkstra_path_length(g, t.a, t.b, weight="length")
        assert A.cheapest_paths(m, t.a, t.b, k=1)[0].trains == want, t


# --------------------------------------------------------------------------------------------- ticket_difficulty

@pytest.mark.parametrize("key, n", [("usa", 30), ("europe", 46)])
def test_ticket_difficulty_rows(key, n):
    m = load_map(key)
    rows = A.ticket_difficulty(m)
    assert len(rows) == n
    assert [r["id"] for r in rows] == sorted(t.id for t in m.tickets)
    for r in rows:
        t = m.ticket(r["id"])
        assert (r["a"], r["b"], r["points"]) == (t.a, t.b, t.points)
        best = A.cheapest_paths(m, t.a, t.b, k=1)[0]
        assert r["trains"] >= 1 and r["trains"] == best.trains
        assert r["routes"] == best.n_routes
        assert r["path"] == " – ".join(best.cities)
        assert 1 <= r["cheapest"] <= r["alternatives"]
        assert r["points_per_train"] == round(t.points / r["trains"], 2)
    json.dumps(rows)


@pytest.mark.parametrize("key", MAPS)
def test_alternatives_match_a_networkx_recount(key):
    """Paths within +2 trains, counted with networkx's Yen enumeration on an independently built graph."""
    m = load_map(key)
    rows = {r["id"]: r for r in A.ticket_difficulty(m)}
    for t in m.tickets:
        g = reference_graph(m, (t.a, t.b))
        costs = []
        for p in nx.shortest_simple_paths(g, t.a, t.b, weight="length"):
            w = nx.path_weight(g, p, "length")
            if costs and w > costs[0] + 2:
                break
            costs.append(w)
        assert rows[t.id]["alternatives"] == len(costs), t
        assert rows[t.id]["cheapest"] == costs.count(costs[0]), t


def test_denver_el_paso_has_exactly_one_path_within_two_trains(usa):
    row = A.ticket_difficulty(usa)[0]
    assert row["id"] == "T01" and row["trains"] == 4 and row["alternatives"] == 1


# --------------------------------------------------------------------------------------------- centrality

@pytest.mark.parametrize("key", MAPS)
def test_city_centrality(key):
    m = load_map(key)
    rows = A.city_centrality(m)
    assert sorted(r["city"] for r in rows) == [c.name for c in m.cities]
    assert [(-r["betweenness"], r["city"]) for r in rows] == sorted((-r["betweenness"], r["city"]) for r in rows)
    assert sum(r["degree"] for r in rows) == 2 * len(m.routes)
    assert sum(r["weighted_degree"] for r in rows) == 2 * sum(r.length for r in m.routes)
    ref = nx.betweenness_centrality(reference_graph(m), weight="length")
    for r in rows:
        assert r["betweenness"] == pytest.approx(ref.get(r["city"], 0.0), abs=1e-4)
        assert r["tickets"] == sum(r["city"] in (t.a, t.b) for t in m.tickets)


def test_centrality_order_is_deterministic_across_processes():
    code = ("import json; from ttr_nb.analysis import city_centrality, route_ticket_load; "
            "print(json.dumps([[r['city'] for r in city_centrality(k)] + [r['route'] for r in route_ticket_load(k)] "
            "for k in ('usa', 'europe')]))")
    outs = set()
    for seed in ("0", "1", "12345"):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                              env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, done.stderr
        outs.add(done.stdout)
    assert len(outs) == 1
    assert json.loads(outs.pop())[0][0] == A.city_centrality("usa")[0]["city"]


def test_usa_centrality_top(usa):
    top = [r["city"] for r in A.city_centrality(usa)[:3]]
    assert top == ["Saint Louis", "Kansas City", "Omaha"]


# --------------------------------------------------------------------------------------------- route load

@pytest.mark.parametrize("key", MAPS)
def test_route_ticket_load_matches_a_recount(key):
    m = load_map(key)
    want: dict[str, set[str]] = {r.id: set() for r in m.routes}
    share: Counter = Counter()
    for t in m.tickets:
        g = reference_graph(m, (t.a, t.b))
        paths = list(nx.all_shortest_paths(g, t.a, t.b, weight="length"))
        pairs = Counter(frozenset(e) for p in paths for e in zip(p, p[1:]))
        for r in m.routes:
            pair = frozenset((r.a, r.b))
            if pair in pairs and r.length == g.edges[r.a, r.b]["length"]:
                want[r.id].add(t.id)
                share[r.id] += pairs[pair] / len(paths)
    rows = A.route_ticket_load(m)
    assert len(rows) == len(m.routes)
    got = {r["route"]: set(r["ticket_ids"]) for r in rows}
    assert got == want
    for r in rows:
        assert r["tickets"] == len(r["ticket_ids"])
        assert r["share"] == pytest.approx(share[r["route"]], abs=1e-3)
        assert r["ticket_points"] == sum(m.ticket(t).points for t in r["ticket_ids"])
    assert sum(r["tickets"] for r in rows) == sum(len(v) for v in want.values())
    keys = [(-r["tickets"], -r["share"], r["route"]) for r in rows]
    assert keys == sorted(keys)


def test_no_path_passes_through_a_maerklin_country():
    """The Märklin map's country rule (a route into a country is not a way through it) holds in the analyses:
    Bremen–Düsseldorf would cost 8 trains through the Netherlands; the second-cheapest path goes round it."""
    m = load_map("maerklin")
    assert m.ends_only == countries(m) == {"Dänemark", "Niederlande", "Frankreich", "Schweiz", "Österreich"}
    assert load_map("usa").ends_only == frozenset()
    for t in m.tickets:
        for p in A.cheapest_paths(m, t.a, t.b, k=3):
            assert not set(p.cities[1:-1]) & m.ends_only, (t, p)
    paths = A.cheapest_paths(m, "Bremen", "Düsseldorf", k=2)
    assert [p.trains for p in paths] == [5, 9] and "Niederlande" not in paths[1].cities
    assert {r["city"]: r["betweenness"] for r in A.city_centrality(m)}["Niederlande"] == 0
    # a ticket TO a country still has its paths, ending there
    to_nl = A.cheapest_paths(m, "Frankfurt", "Niederlande", k=1)[0]
    assert to_nl.cities[-1] == "Niederlande" and "Niederlande" not in to_nl.cities[:-1]


def test_route_load_counts_both_tracks_of_a_double(usa):
    rows = {r["route"]: r for r in A.route_ticket_load(usa)}
    assert rows["R056"]["ticket_ids"] == rows["R057"]["ticket_ids"] != ()
    assert "T01" in rows["R039"]["ticket_ids"] and "T01" in rows["R050"]["ticket_ids"]


# --------------------------------------------------------------------------------------------- player network

def test_player_network_midgame(midgame):
    sheet = score(midgame)
    m = load_map("usa")
    for seat in range(midgame.n_players):
        net = A.player_network(midgame, seat)
        ps = sheet.players[seat]
        assert net.routes == tuple(sorted(ps.routes))
        assert net.trains == 45 - midgame.players[seat].trains
        assert sorted(r for c in net.components for r in c.routes) == list(net.routes)
        cities = [c for comp in net.components for c in comp.cities]
        assert len(cities) == len(set(cities))                        # components are disjoint
        assert [c.trains for c in net.components] == sorted((c.trains for c in net.components), reverse=True)
        assert net.longest.length == ps.longest.length
        assert [t.id for t in net.tickets] == list(midgame.players[seat].tickets)
        for t, res in zip(net.tickets, ps.tickets):
            assert t.completed == res.completed
            if t.completed:
                assert t.path == res.path and t.needed == 0
                assert t.cities[0] == t.a and t.cities[-1] == t.b
                assert all(midgame.claims[m.route(r).index] == seat for r in t.path)
            elif t.needed is not None:
                assert t.needed == sum(m.route(r).length for r in t.plan) > 0
        json.dumps(net.to_dict())
    assert any(t.completed for s in range(4) for t in A.player_network(midgame, s).tickets)


def test_player_network_bad_seat(midgame):
    with pytest.raises(ValueError):
        A.player_network(midgame, 7)


# --------------------------------------------------------------------------------------------- tables

def test_markdown_and_html_tables(usa):
    rows = A.ticket_difficulty(usa)
    md = A.as_markdown(rows, ["id", "ticket", "points", "trains"])
    lines = md.splitlines()
    assert lines[0] == "| id | ticket | points | trains |"
    assert lines[1] == "|:---|:---|---:|---:|"
    assert len(lines) == 2 + 30 and lines[2] == "| T01 | Denver–El Paso | 4 | 4 |"
    page = A.as_html(rows, caption="Tickets <USA>", max_rows=5)
    assert isinstance(page, str) and page._repr_html_() == page
    assert page.count("<tr>") == 1 + 5 and "25 more rows" in page
    assert "Tickets &lt;USA&gt;" in page and "points per train" in page
    assert A.as_markdown([{"a": "x|y", "b": None}]).splitlines()[2] == "| x\\|y | — |"
    assert "Denver" in A.as_html(A.cheapest_paths(usa, "Denver", "El Paso", k=1))


def test_analysis_is_rules_layer():
    """Importing ttr_nb.analysis loads neither plotly nor networkx (networkx is imported inside functions)."""
    code = ("import sys, ttr_nb.analysis; bad = [m for m in ('plotly', 'networkx', 'ipywidgets') if m in sys.modules]; "
            "print(','.join(bad))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_results_are_repeatable(usa):
    for f in (A.ticket_difficulty, A.city_centrality, A.route_ticket_load):
        first = f(usa)
        A._simple.cache_clear()
        assert f(usa) == first
    first = A.cheapest_paths(usa, "Seattle", "New York", k=4)
    A._simple.cache_clear()
    assert A.cheapest_paths(usa, "Seattle", "New York", k=4) == first
