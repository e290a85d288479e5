"""The variants' score sheets, worked out with no more than they need.

Games with no longest-path bonus (Märklin MK-SCORE-3, South Korea SK-SCORE-4) work out a seat's longest trail
only when something reads ``PlayerScore.longest``; the sheet is the same as one with every trail worked out at
once (equality, ``repr``, hashing, copies, pickles, ``to_dict``, the tables). Games with the bonus (USA-SCORE-3,
EU-SCORE-2) work out in ``score`` the trails of the seats that can reach it (a seat's heaviest connected piece at
least the best trail found), the others when read. A game without features (USA) works out its totals and winners
(USA-SCORE-4) first and makes the breakdown when ``players`` is read: the same sheet as the listed one. Märklin's tickets are checked once, avoiding countries
(MK-SCORE-2), by the base scoring: the same results as a search of each ticket on its own."""
from __future__ import annotations

import copy
import dataclasses
import pickle
from functools import lru_cache

import pytest

import ttr_nb.board.scoring as scoring
from ttr_nb.bots import RandomBot
from ttr_nb.board.engine import apply, new_game, to_move
from ttr_nb.board.scoring import score
from ttr_nb.board.trail import longest_trail, trail_length
from ttr_nb.variants import get_variant


@lru_cache(maxsize=None)
def finished(variant: str, players: int = 4, seed: int = 3):
    """A finished seeded random game."""
    state = new_game(variant, players, seed)
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    while state.phase != "over":
        seat = to_move(state)[0]
        state = apply(state, bots[seat].choose(state, seat)[0])
    return state


def on_the_way(variant: str, players: int, seed: int, every: int = 50) -> list:
    """Every ``every``-th state of ``finished``'s game (a sheet then says "if it ended now"), and the last."""
    state = new_game(variant, players, seed)
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    out = []
    while state.phase != "over":
        if state.phase != "setup" and state.ply % every == 0:
            out.append(state)
        seat = to_move(state)[0]
        state = apply(state, bots[seat].choose(state, seat)[0])
    return out + [state]


@pytest.fixture
def solver_calls(monkeypatch):
    """Counts the calls of the trail solver that ``score`` uses (both of its entry points)."""
    calls = []

    def counted(fn):
        def solve(edges):
            calls.append(len(edges))
            return fn(edges)
        return solve
    monkeypatch.setattr(scoring, "longest_trail", counted(scoring.longest_trail))
    monkeypatch.setattr(scoring, "longest_trail_canonical", counted(scoring.longest_trail_canonical))
    return calls


def eager(state) -> list:
    """Every seat's longest trail, worked out directly from the routes it owns."""
    v = get_variant(state.variant)
    return [longest_trail(scoring.owned_edges(v, state, seat)) for seat in range(len(state.players))]


def eager_sheet(state):
    """The score sheet with every seat's trail put in at once (what ``score`` gave before the trail was lazy)."""
    sheet = score(state)
    players = tuple(dataclasses.replace(ps, longest=trail) for ps, trail in zip(sheet.players, eager(state)))
    return dataclasses.replace(sheet, players=players)


NO_BONUS = [pytest.param("maerklin", id="MK-SCORE-3"), pytest.param("south_korea", id="SK-SCORE-4")]


@pytest.mark.parametrize("variant", NO_BONUS)
def test_MK_SCORE_3_SK_SCORE_4_no_bonus_the_trail_is_worked_out_when_read(variant, solver_calls):
    state = finished(variant)
    sheet = score(state)
    assert solver_calls == []                                   # score() itself asked for no trail
    table = sheet.table()
    assert [ps.total for ps in sheet.players] and sheet.winners
    assert solver_calls == []                                   # nor do the totals, winners and table
    assert "longest" not in table.splitlines()[0]               # (it has no longest column)
    trails = eager(state)
    assert any(t.length for t in trails)
    assert sheet.players[1].longest == trails[1]
    assert len(solver_calls) == 1                               # one seat read: one trail worked out
    assert [ps.longest for ps in sheet.players] == trails
    assert len(solver_calls) == len(state.players)
    assert sheet.players[1].longest is sheet.players[1].longest  # kept, not worked out again
    sheet.to_dict(), sheet.details(), sheet.figures()
    assert len(solver_calls) == len(state.players)


@pytest.mark.parametrize("variant", NO_BONUS)
def test_MK_SCORE_3_SK_SCORE_4_the_lazy_sheet_equals_the_eager_one(variant):
    state = finished(variant)
    want = eager_sheet(state)
    assert score(state).to_dict() == want.to_dict()
    assert score(state) == want and want == score(state)
    assert repr(score(state)) == repr(want)
    assert hash(score(state).players[0]) == hash(want.players[0])
    assert score(state).details() == want.details() and score(state).figures() == want.figures()
    assert score(state).table() == want.table()
    lazy = score(state)
    assert dataclasses.replace(lazy.players[2], route_points=0).longest == want.players[2].longest
    assert dataclasses.asdict(score(state)) == dataclasses.asdict(want)
    assert [p.longest_bonus for p in lazy.players] == [0] * len(state.players)


@pytest.mark.parametrize("variant", NO_BONUS)
def test_MK_SCORE_3_SK_SCORE_4_pickles_and_copies_hold_the_trail(variant, solver_calls):
    state = finished(variant)
    want = eager(state)
    for made in (lambda s: pickle.loads(pickle.dumps(s)), copy.copy, copy.deepcopy):
        sheet = score(state)
        solver_calls.clear()
        again = made(sheet)
        assert again == sheet and [ps.longest for ps in again.players] == want
    data = pickle.dumps(score(state))
    assert b"_Later" not in data                                # the pickle holds the trails themselves
    assert pickle.loads(data).to_dict() == eager_sheet(state).to_dict()


@pytest.mark.parametrize("variant", NO_BONUS)
def test_MK_SCORE_3_SK_SCORE_4_the_features_pass_an_unread_trail_on(variant, solver_calls):
    state = finished(variant, players=2, seed=5)
    sheet = score(state)
    changed = scoring._with(sheet.players[0], route_points=1)
    assert solver_calls == []
    assert changed.longest == eager(state)[0] and changed.route_points == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.longest = eager(state)[1]                       # the sheet stays a frozen value


def listed_sheet(state):
    """The score sheet as its rules list it, every part worked out at once from the routes each seat owns: route
    points (USA-SCORE-1), each ticket over the seat's network (USA-SCORE-2), every seat's longest trail and the
    bonus to all who tie on the best (USA-SCORE-3), the winners (USA-SCORE-4). For games without features."""
    v = get_variant(state.variant)
    trails = eager(state)
    best = max(t.length for t in trails)
    bonus = v.settings.longest_bonus
    players = []
    for seat, p in enumerate(state.players):
        edges = scoring.owned_edges(v, state, seat)
        players.append(scoring.PlayerScore(
            seat=seat, name=scoring.seat_name(seat), route_points=sum(v.route_points(e[2]) for e in edges),
            routes=tuple(e[3] for e in edges), tickets=scoring.ticket_results(v, p.tickets, edges),
            longest=trails[seat], longest_bonus=bonus if best and trails[seat].length == best else 0))
    winners, decided_by = scoring._winners(v, players)
    return scoring.ScoreSheet(tuple(players), winners, decided_by, state.phase == "over", bool(bonus))


def heaviest_piece(state, seat: int) -> int:
    """The trains of the seat's heaviest connected piece of routes (no trail is longer)."""
    import networkx as nx
    g = nx.MultiGraph()
    g.add_edges_from((a, b, {"w": w}) for a, b, w, _ in scoring.owned_edges(get_variant(state.variant), state, seat))
    return max((g.subgraph(c).size(weight="w") for c in nx.connected_components(g)), default=0)


@pytest.fixture
def measured(monkeypatch):
    """Counts the seats whose trail length ``score`` asks ``trail.trail_length`` for."""
    calls = []
    real = scoring.trail_length

    def counted(ends, length, owned, *rest):
        calls.append(len(owned))
        return real(ends, length, owned, *rest)
    monkeypatch.setattr(scoring, "trail_length", counted)
    return calls


@pytest.mark.parametrize("variant", ["usa", "europe"])
def test_USA_SCORE_3_only_seats_that_can_reach_the_bonus_are_measured(variant, solver_calls, measured):
    """The bonus needs the trails' lengths only: ``score`` measures the seats that can reach it and works out no
    trail itself; each seat's trail is worked out once, when read, and is the one the rules ask for."""
    solved = skipped = 0
    for seed in range(3, 9):
        state = finished(variant, seed=seed)
        trails = eager(state)
        best = max(t.length for t in trails)
        solver_calls.clear()
        measured.clear()
        sheet = score(state)
        assert solver_calls == []                                   # no trail made before it is read
        measured_now = len(measured)
        assert [ps.longest_bonus > 0 for ps in sheet.players] == [t.length == best for t in trails]
        assert sum(t.length == best for t in trails) <= measured_now \
            <= sum(heaviest_piece(state, seat) >= best for seat in range(len(state.players)))
        assert [ps.longest for ps in sheet.players] == trails     # worked out when read
        assert len(solver_calls) == len(state.players)          # each seat once
        solved += measured_now
        skipped += len(state.players) - measured_now
    assert solved and skipped          # (some seats' pieces are too short to reach it)


@pytest.mark.parametrize("variant", ["usa", "europe"])
def test_USA_SCORE_3_a_network_too_dense_to_measure_is_solved(variant, monkeypatch, solver_calls):
    """Where ``trail_length`` gives up (None: a piece too dense for its search), ``score`` works that seat's trail
    out at once and reads its length: the same sheet, bonus seats included."""
    states = [finished(variant, seed=seed) for seed in (3, 4)]
    expected = [eager_sheet(state) for state in states]
    monkeypatch.setattr(scoring, "trail_length", lambda *args: None)
    for state, sheet in zip(states, expected):
        solver_calls.clear()
        got = score(state)
        assert solver_calls                                     # solved while scoring, not when read
        assert got == sheet


def test_USA_SCORE_3_a_seat_that_cannot_beat_the_best_is_rarely_searched():
    """``trail.trail_length`` with the floor at a seat's own trail: nothing above it, and most seats are answered
    without a search step (budget 0: one step would give None), by the pieces' trains or their bound (each piece
    less its lightest chains, one for each two odd cities past two)."""
    v = get_variant("usa")
    t = v.route_table
    spared = searched = 0
    for players, seed in [(p, s) for p in (2, 3, 4, 5) for s in range(10, 16)]:
        state = finished("usa", players=players, seed=seed)
        for seat, trail in enumerate(eager(state)):
            owned = [i for i, owner in enumerate(state.claims) if owner == seat]
            up = scoring._pieces(t, owned)
            assert trail_length(t.ends, t.length, owned, up, trail.length) <= trail.length
            assert trail_length(t.ends, t.length, owned, up) == trail.length
            if trail_length(t.ends, t.length, owned, up, trail.length, budget=0) is None:
                searched += 1
            else:
                spared += 1
    assert spared > 2 * searched > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_USA_SCORE_4_the_winners_first_the_breakdown_when_read(players, monkeypatch):
    """A game without features works out its totals and winners first; each ticket's path and the seats'
    breakdown are made when read, and the sheet is the same value as the listed one."""
    calls = []
    listed = scoring.ticket_results

    def counted(*args, **kwargs):
        calls.append(1)
        return listed(*args, **kwargs)
    for seed in range(3, 7):
        state = finished("usa", players=players, seed=seed)
        want = listed_sheet(state)
        monkeypatch.setattr(scoring, "ticket_results", counted)
        calls.clear()
        sheet = score(state)
        assert (sheet.winners, sheet.decided_by, sheet.final) == (want.winners, want.decided_by, want.final)
        assert calls == []                                      # no ticket's path searched for the winners
        assert sheet.players == want.players and len(calls) == players
        monkeypatch.undo()
        assert score(state) == want and want == score(state) and hash(score(state)) == hash(want)
        assert repr(score(state)) == repr(want) and score(state).to_dict() == want.to_dict()
        assert score(state).table() == want.table() and score(state).details() == want.details()
        assert dataclasses.asdict(score(state)) == dataclasses.asdict(want)
        assert dataclasses.replace(score(state), final=False).players == want.players
        for made in (lambda s: pickle.loads(pickle.dumps(s)), copy.copy, copy.deepcopy):
            again = made(score(state))
            assert again == want and again.to_dict() == want.to_dict()
        data = pickle.dumps(score(state))
        assert b"_Later" not in data                            # the pickle holds the breakdown itself


def breakdown_sheet(state):
    """The score sheet with every seat's breakdown made at once and the winners read from it (USA-SCORE-4)."""
    v = get_variant(state.variant)
    t = v.route_table
    indices = scoring._indices_by_seat(state)
    trails, bonus_seats = scoring._trails(t, indices, None, None, v.settings.longest_bonus)
    players = scoring._breakdown(v, state, indices, trails, bonus_seats)
    return scoring.ScoreSheet(players, *scoring._winners(v, players), state.phase == "over",
                              bool(v.settings.longest_bonus))


@pytest.mark.parametrize("variant", [pytest.param("europe", id="EU-STATION-5/6"),
                                     pytest.param("south_korea", id="SK-SCORE-2"),
                                     pytest.param("maerklin", id="MK-SCORE-2")])
def test_USA_SCORE_4_features_with_score_points_find_the_winners_first(variant, monkeypatch):
    """Europe's stations (borrowed routes, unbuilt stations), South Korea's province board and Märklin's goods and
    most-tickets bonus give their points per seat (``score_points``; Märklin's tickets completed avoiding the
    countries): the winners come from the totals and the breakdown is made when read, the same
    sheet as the one made at once, over games of 2 to 5 players, finished and on their way (a tie on points makes
    it at once)."""
    made = []
    whole = scoring._breakdown

    def counted(*args):
        made.append(1)
        return whole(*args)
    sole = 0
    for state in [state for p in (2, 3, 4, 5) for s in range(3, 8) for state in on_the_way(variant, p, s)]:
        want = breakdown_sheet(state)
        monkeypatch.setattr(scoring, "_breakdown", counted)
        made.clear()
        sheet = score(state)
        assert (sheet.winners, sheet.decided_by, sheet.final) == (want.winners, want.decided_by, want.final)
        sole += made == []                                      # the winners without the breakdown
        assert sheet.players == want.players and len(made) == 1
        monkeypatch.undo()
        assert score(state) == want and score(state).to_dict() == want.to_dict()
        assert score(state).table() == want.table() and score(state).details() == want.details()
    assert sole >= 60


TIES = [  # the positions of tests/test_rules_usa.py's USA-SCORE-4 ties: (players, claims, tickets)
    (2, {"R039": 0, "R050": 0, "R068": 1, "R049": 1}, {0: ["T01"], 1: ["T13"]}),
    (2, {"R068": 0, "R049": 0, "R052": 1, "R076": 1}, {0: ["T13"]}),
    (3, {"R052": 0, "R076": 0, "R039": 1, "R050": 1, "R056": 2, "R029": 2, "R026": 2}, {1: ["T01"], 2: ["T02", "T19"]}),
    (2, {"R052": 0, "R076": 1}, {}),
]


@pytest.mark.parametrize("players, claims, tickets", TIES)
def test_USA_SCORE_4_a_tie_on_points_is_broken_as_listed(players, claims, tickets):
    from usa_helpers import position
    state = position(players, claims=claims, tickets=tickets, phase="over")
    want = listed_sheet(state)
    assert len({ps.total for ps in want.players}) < players     # (a tie on points)
    sheet = score(state)
    assert (sheet.winners, sheet.decided_by) == (want.winners, want.decided_by)
    assert sheet == want and sheet.to_dict() == want.to_dict() and repr(sheet) == repr(want)


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_MK_SCORE_2_tickets_scored_once_avoiding_countries_as_each_searched_alone(seed):
    from ttr_nb.games.maerklin import connected_avoiding_countries
    v = get_variant("maerklin")
    state = finished("maerklin", players=4 if seed != 5 else 2, seed=seed)
    sheet = score(state)
    joined = 0
    for ps in sheet.players:
        edges = scoring.owned_edges(v, state, ps.seat)
        assert [t.id for t in ps.tickets] == list(state.players[ps.seat].tickets)
        for t in ps.tickets:
            path = connected_avoiding_countries(v, edges, t.a, t.b)
            assert (t.completed, t.path, t.via) == (path is not None, path or (), ())
            joined += t.completed
    assert joined                                               # (some tickets are joined, some are not)
    assert not all(t.completed for ps in sheet.players for t in ps.tickets)


def test_MK_SCORE_2_ticket_results_never_pass_through_a_dead_end():
    from ttr_nb.games.maerklin import MaerklinScoring
    v = get_variant("maerklin")
    countries = MaerklinScoring().ticket_dead_ends(v)
    assert "Niederlande" in countries and "Emden" not in countries
    plain = next(t for t in v.map.tickets if t.a not in countries and t.b not in countries)
    to_country = next(t for t in v.map.tickets if t.b in countries or t.a in countries)
    country = to_country.b if to_country.b in countries else to_country.a
    home = to_country.a if country == to_country.b else to_country.b
    through = [(plain.a, "Niederlande", 1, "r1"), ("Niederlande", plain.b, 1, "r2"), (home, country, 2, "r3")]
    open_ = scoring.ticket_results(v, (plain.id, to_country.id), through)
    closed = scoring.ticket_results(v, (plain.id, to_country.id), through, dead_ends=countries)
    assert [t.completed for t in open_] == [True, True]
    assert [(t.completed, t.path) for t in closed] == [(False, ()), (True, ("r3",))]   # ends at a country: fine


def test_MK_SCORE_2_the_totals_completion_is_the_breakdowns():
    """The tickets the winners-first totals count completed (a union-find, countries only at a path's ends) are
    those the breakdown finds with their paths (``ticket_results``), seat by seat, finished games and on the way."""
    v = get_variant("maerklin")
    dead = scoring._dead_places(v)
    assert len(dead) == 5                                       # Dänemark, Niederlande, Frankreich, Schweiz, Österreich
    counted = country_tickets = 0
    for state in [state for p in (2, 4, 5) for s in range(3, 7) for state in on_the_way("maerklin", p, s, 30)]:
        indices = scoring._indices_by_seat(state)
        got = scoring._completed_avoiding(v.route_table, state, indices, dead)
        for seat, p in enumerate(state.players):
            want = scoring.ticket_results(v, p.tickets, scoring.owned_edges(v, state, seat),
                                          dead_ends=v.map.ends_only)
            assert got[seat] == [t.completed for t in want], (state.ply, seat)
            counted += sum(got[seat])
            country_tickets += sum(t.completed and bool({t.a, t.b} & v.map.ends_only) for t in want)
    assert counted > 20 and country_tickets > 5                 # (26 and 12 of them)


@pytest.mark.parametrize("owned, joined", [
    (("R019", "R020", "R041"), True),       # Dänemark – Bremerhaven – Emden – Niederlande: two countries at the ends
    (("R019", "R041"), False),              # Bremerhaven and Emden not joined: each country touches its own piece
    (("R019", "R020"), False),              # Niederlande not reached
])
def test_MK_SCORE_2_a_ticket_between_two_countries(owned, joined):
    """Märklin's one ticket with a country at both ends (Dänemark – Niederlande, 10 points) is joined through
    cities only; the totals' union-find, the breakdown's search and the sheet agree."""
    from ttr_nb.board.positions import position
    v = get_variant("maerklin")
    ticket = next(t for t in v.map.tickets if {t.a, t.b} == {"Dänemark", "Niederlande"})
    state = position("maerklin", 2, 1, claims={r: 0 for r in owned}, tickets={0: [ticket.id], 1: []})
    got = scoring._completed_avoiding(v.route_table, state, scoring._indices_by_seat(state), scoring._dead_places(v))
    want = scoring.ticket_results(v, (ticket.id,), scoring.owned_edges(v, state, 0), dead_ends=v.map.ends_only)
    sheet = score(state).players[0]
    assert got[0] == [want[0].completed] == [joined]
    assert [(t.id, t.completed) for t in sheet.tickets] == [(ticket.id, joined)]
    assert sheet.tickets[0].path == (tuple(owned) if joined else ())


BOARDS = ["usa", "europe", "maerklin", "south_korea"]


def scored_positions(variant):
    """(state, each seat's route indices) at every 20th ply of random games of ``variant`` with 2-5 seats."""
    for players, seed in [(p, s) for p in (2, 3, 4, 5) for s in (3, 4)]:
        for state in on_the_way(variant, players, seed, every=20):
            yield state, scoring._indices_by_seat(state)


@pytest.mark.parametrize("variant", BOARDS)
def test_USA_SCORE_3_networks_pieces_weighed_as_they_grow_are_the_pieces_sums(variant):
    """``scoring._networks`` sums each piece's trains while it joins the routes: the heaviest piece, the pieces and
    the tickets joined are those of ``_pieces`` summed afterwards, at every point of random games with 2-5 seats."""
    t = get_variant(variant).route_table
    checked = 0
    for state, indices in scored_positions(variant):
        heaviest, completed, ups = scoring._networks(t, state, indices)
        for seat, p in enumerate(state.players):
            up = scoring._pieces(t, indices[seat])

            def root(c):
                while up[c] != c:
                    c = up[c]
                return c
            weight: dict[int, int] = {}
            for i in indices[seat]:
                weight[root(t.ends[i][0])] = weight.get(root(t.ends[i][0]), 0) + t.length[i]
            assert heaviest[seat] == max(weight.values(), default=0)
            assert ups[seat] == up
            assert completed[seat] == [root(t.ticket_ends[tid][0]) == root(t.ticket_ends[tid][1])
                                       for tid in p.tickets]
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("variant", ["usa", "europe", "south_korea"])
def test_SK_SCORE_4_tickets_joined_without_weighing_are_the_path_searchs(variant):
    """Without a longest-path bonus (SK-SCORE-4) ``score`` judges the tickets by ``_joined`` over ``_pieces`` alone,
    not ``_networks``: the same answers as ``_networks`` and as ``ticket_results``' path search (own routes only),
    at every point of random games with 2-5 seats; a seat without routes or tickets gives []."""
    v = get_variant(variant)
    t = v.route_table
    checked = 0
    for state, indices in scored_positions(variant):
        _, completed, _ = scoring._networks(t, state, indices)
        for seat, p in enumerate(state.players):
            joined = scoring._joined(scoring._pieces(t, indices[seat]), t.ticket_ends, p.tickets)
            assert joined == completed[seat]
            found = scoring.ticket_results(v, p.tickets, scoring.owned_edges(v, state, seat))
            assert joined == [r.completed for r in found]
            checked += 1
    assert scoring._joined(scoring._pieces(t, []), t.ticket_ends, ()) == []
    assert checked > 200


def test_SK_SCORE_4_score_winners_agree_with_the_breakdown():
    """South Korea's ``score`` finds its winners from totals with the tickets judged without weighing pieces; the
    breakdown made when read (each ticket's path searched) has its sole winner there, at points of random games."""
    checked = 0
    for players, seed in [(p, s) for p in (2, 3, 4, 5) for s in (1, 2)]:
        for state in on_the_way("south_korea", players, seed, every=40):
            sheet = score(state)
            totals = [ps.total for ps in sheet.players]
            best = [seat for seat, n in enumerate(totals) if n == max(totals)]
            if len(best) == 1:
                assert sheet.winners == tuple(best)
                checked += 1
            assert not any(ps.longest_bonus for ps in sheet.players)
    assert checked > 20
