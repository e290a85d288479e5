"""The coach's playout policy (ttr_nb.coach.policy): what it keeps between plies and shares between playouts must
not change a single move."""
from __future__ import annotations

import random

import pytest

from ttr_nb import Game, determinize
from ttr_nb.board.engine import apply, legal_actions, to_move
from ttr_nb.bots import GreedyBot
from ttr_nb.coach.policy import policy_for

BOARDS = ["usa", "europe", "maerklin", "south_korea"]


def _start(game: str, players: int):
    g = Game(game, players=players, seed=4)
    g.play_bots({s: GreedyBot(s) for s in range(players)}, max_plies=30)
    return determinize(g.state, 0, random.Random(5))


def _play(state, policy) -> list[str]:
    moves = []
    while state.phase != "over":
        action = policy.choose(state, to_move(state)[0])
        moves.append(str(action))
        state = apply(state, action)
    return moves


@pytest.mark.parametrize("game", BOARDS)
def test_playouts_sharing_plans_play_the_same_games(game):
    """The search's playouts of one position share their plans (a dict keyed by claims, seat, tickets and borrowed
    routes): each playout must play exactly what it plays planning alone, and the sharing must find plans."""
    start = _start(game, 3)
    seat = to_move(start)[0]
    shared: dict = {}
    firsts = legal_actions(start, seat)[:4]
    for first in firsts:
        after = apply(start, first)
        alone = _play(after, policy_for(after, 0, prudent=seat))
        assert _play(after, policy_for(after, 0, prudent=seat, shared=shared)) == alone, (game, str(first))
    made = len(shared)
    for first in firsts:                 # the same playouts again: every plan is found, none is made
        after = apply(start, first)
        _play(after, policy_for(after, 0, prudent=seat, shared=shared))
    assert made and len(shared) == made


def test_a_search_shares_plans_within_one_sample_only(monkeypatch):
    """The plans a search shares are dropped when it moves to the next sample (another deal of the other seats'
    tickets): kept for the whole search they grew to about 23 MB in 1,500 playouts of a 4-player USA position,
    against under 2 MB this way, and the search finds the same answer either way."""
    import sys

    search_module = sys.modules["ttr_nb.coach.search"]
    start = _start("usa", 3)
    seat = to_move(start)[0]
    seen: dict[int, list[int]] = {}          # sample index -> the shared dict's size at each of its playouts
    dicts = set()
    real = search_module.policy_for

    def watching(state, i=0, *, prudent=None, shared=None):
        if shared is not None:                # (the policy's own first idea for the move shares nothing)
            seen.setdefault(i, []).append(len(shared))
            dicts.add(id(shared))
        return real(state, i, prudent=prudent, shared=shared)

    monkeypatch.setattr(search_module, "policy_for", watching)
    first = search_module.search(start, seat, playouts=60, seed=3)
    assert len(seen) > 3 and len(dicts) == 1
    assert all(sizes[0] == 0 for sizes in seen.values())             # each sample starts with no plan kept
    assert any(max(sizes) > 0 for sizes in seen.values())            # and its candidates share what they plan
    monkeypatch.setattr(search_module, "policy_for", real)
    again = search_module.search(start, seat, playouts=60, seed=3)
    assert [st.action for st in again.stats] == [st.action for st in first.stats] and again.chosen == first.chosen
    assert [st.results for st in again.stats] == [st.results for st in first.stats]


@pytest.mark.parametrize("game", BOARDS)
def test_a_kept_plan_carries_the_order_and_needs_of_its_routes(game):
    """A plan kept over other seats' claims takes its predecessor's claim order, card needs and view for the
    variant's hooks (the seat's own claims filtered out of the order): at every ply they must be what its routes
    give afresh."""
    from ttr_nb.coach.policy import Plan
    state = _start(game, 3)
    policy = policy_for(state, 0, prudent=0)
    t = policy.t
    kept = 0
    while state.phase != "over":
        seat = to_move(state)[0]
        before = policy.plans.get(seat)
        action = policy.choose(state, seat)
        p = policy.plans.get(seat)
        if p is not None and before is not None and p is not before and p.routes and p._order is not None:
            kept += p.reasons is before.reasons
            fresh = Plan(p.tickets, p.claims, list(p.routes), p.reasons, p.cost, p.done, p.impossible, p.borrow)
            assert p.claim_order(t) == fresh.claim_order(t) and p.need(t) == fresh.need(t), (game, state.ply)
            assert policy.greedy_plan(p) == policy.greedy_plan(fresh), (game, state.ply)
            assert p.cost == sum(t.length[i] for i in p.routes)
        state = apply(state, action)
    assert kept


@pytest.mark.parametrize("game", BOARDS)
def test_the_payment_is_the_best_of_every_payment_listed(game):
    """Without listing the payments (one wild card kind), the policy's payment must be the one the listing gives:
    fewest locomotives, then the colour the plan needs least, then the lower colour; none when none is legal."""
    from ttr_nb.board.cards import LOCO
    from ttr_nb.board.engine import route_payments
    state = _start(game, 2)
    policy = policy_for(state, 0)
    plan = policy.plan(state, 0)
    need = policy.needed(plan)
    assert need
    r = random.Random(game)
    routes = policy.v.map.routes
    for _ in range(150):
        hand = tuple(r.choice((0, 0, 1, 2, 3, 4, 6)) for _ in state.players[0].hand)
        for i, route in enumerate(routes):
            pays = route_payments(policy.v, route, hand)
            want = min(pays, key=lambda pay: (dict(pay).get(LOCO, 0), sum(need.get(k, 0) for k, _ in pay if k != LOCO),
                                              pay)) if pays else None
            assert policy.payment(state, i, hand, plan) == want, (game, route.id, hand)


@pytest.mark.parametrize("game", BOARDS)
def test_the_draw_takes_the_face_up_card_the_plan_is_shortest_of(game):
    """At every card draw of a playout: the face-up colour (never a locomotive) the plan is shortest of, the first
    such slot on a tie; else, with a gray route planned, the first face-up card of a colour held most; else the
    deck."""
    from ttr_nb.board.cards import LOCO
    state = _start(game, 3)
    policy = policy_for(state, 0, prudent=0)
    faceup = 0
    while state.phase != "over":
        seat = to_move(state)[0]
        action = policy.choose(state, seat)
        pending = state.pending_for(seat) if state.pending else None
        if (pending is None or pending.kind == "second_card") and (state.deck or any(state.discard)):
            hand = state.players[seat].hand
            need, gray = policy.plan(state, seat).need(policy.t)
            top = max(hand[:LOCO])
            keys = [((-(need.get(c, 0) - hand[c]), i) if need.get(c, 0) > hand[c] else (0, i))
                    for i, c in enumerate(state.market) if c is not None and c < LOCO
                    and (need.get(c, 0) > hand[c] or (gray and hand[c] == top))]
            drawn = policy.draw(state, seat, policy.plan(state, seat), pending is not None)
            want = f"slot {min(keys)[1] + 1}" if keys else "deck"
            got = f"slot {drawn.slot}" if hasattr(drawn, "slot") else "deck"
            assert got == want, (game, state.ply, state.market, hand, need, gray)
            faceup += got != "deck"
        state = apply(state, action)
    assert faceup


def _reference_path(t, claims, seat, small, own, a, b):
    """A textbook Dijkstra on (distance, city) pairs with the planner's costs: the order path_cost must keep."""
    import heapq
    from ttr_nb.board.state import FREE

    def cost(i):
        if claims[i] == seat or i in own:
            return 0
        if claims[i] != FREE or any(claims[j] == seat or (small and claims[j] != FREE) for j in t.twins[i]):
            return None
        return t.length[i]

    best, prev, heap = {a: 0}, {}, [(0, a)]
    while heap:
        d, city = heapq.heappop(heap)
        if city == b:
            path = []
            while city != a:
                city, i = prev[city]
                if cost(i):
                    path.append(i)
            return d, path
        if d > best[city] or (t.dead_end[city] and city != a):
            continue
        for i, other in t.adj[city]:
            c = cost(i)
            if c is not None and d + c < best.get(other, 1 << 30):
                best[other], prev[other] = d + c, (city, i)
                heapq.heappush(heap, (d + c, other))
    return None


@pytest.mark.parametrize("game", BOARDS)
def test_path_cost_finds_the_path_a_pair_heap_finds(game):
    """path_cost's heap of packed ints must pop cities in (distance, city) order: the same cheapest path, ties
    included, on boards with claims of every seat, twins closed or open, borrowed routes and dead ends."""
    from ttr_nb.board.state import FREE
    from ttr_nb.coach.policy import path_cost, tables
    from ttr_nb.variants import get_variant
    t = tables(get_variant(game))
    r = random.Random(game)
    cities = len(t.cities)
    for trial in range(60):
        claims = tuple(r.choice((FREE, FREE, FREE, 0, 1, 2)) for _ in range(t.n_routes))
        own = frozenset(r.sample(range(t.n_routes), r.choice((0, 0, 3))))
        for _ in range(10):
            a, b = r.randrange(cities), r.randrange(cities)
            for small in (False, True):
                want = _reference_path(t, claims, 0, small, own, a, b)
                assert path_cost(t, claims, 0, small, own, a, b) == want, (game, trial, a, b)
