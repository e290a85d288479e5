"""Bots: reproducible, legal, explain themselves; the greedy bot plans for its tickets; the strength dial."""
from __future__ import annotations

import pytest

from ttr_nb.bots import GreedyBot, MixedBot, RandomBot, cheapest_path, make_bot, plan_for
from ttr_nb.board.engine import apply, legal_actions, new_game, to_move
from ttr_nb.errors import TTRError
from ttr_nb.board.positions import position
from ttr_nb.board.scoring import score
from ttr_nb.variants import get_variant


def play(bots, variant="usa", players=4, seed=0):
    s = new_game(variant, players, seed)
    reasons = []
    while s.phase != "over":
        seat = to_move(s)[0]
        action, why = bots[seat].choose(s, seat)
        assert action in legal_actions(s, seat), action
        reasons.append(why)
        s = apply(s, action)
    return s, reasons


@pytest.mark.parametrize("bot_cls", [RandomBot, GreedyBot])
def test_bots_only_choose_legal_actions_and_say_why(bot_cls):
    s = new_game("usa", 3, 11)
    bot = bot_cls(5)
    for _ in range(150):
        if s.phase == "over":
            break
        seat = to_move(s)[0]
        action, why = bot.choose(s, seat)
        assert action in legal_actions(s, seat)
        assert isinstance(why, str) and why and "\n" not in why
        s = apply(s, action)


def test_bots_are_stateless_and_reproducible():
    s = new_game("usa", 4, 3)
    for _ in range(40):
        seat = to_move(s)[0]
        s = apply(s, RandomBot(1).choose(s, seat)[0])
    seat = to_move(s)[0]
    for cls in (RandomBot, GreedyBot):
        assert cls(7).choose(s, seat) == cls(7).choose(s, seat)
    assert len({RandomBot(k).choose(s, seat)[0] for k in range(12)}) > 1


def test_greedy_beats_random_and_completes_its_tickets():
    greedy_totals, random_totals, done = [], [], []
    for seed in range(4):
        s, _ = play([GreedyBot(seed), RandomBot(seed), GreedyBot(seed + 1), RandomBot(seed + 1)], seed=seed)
        sheet = score(s)
        greedy_totals += [sheet.players[0].total, sheet.players[2].total]
        random_totals += [sheet.players[1].total, sheet.players[3].total]
        done += [p.completed / len(p.tickets) for p in (sheet.players[0], sheet.players[2])]
    assert min(greedy_totals) > max(random_totals)
    assert sum(done) / len(done) > 0.6


def test_greedy_claims_a_route_on_its_ticket_path_when_it_can_pay():
    v = get_variant("usa")
    # Denver–El Paso (T01, 4 points): cheapest via Santa Fe (R039 Denver–Santa Fe 2 gray, R050 Santa Fe–El Paso 2 gray)
    s = position("usa", 2, 0, hands={0: {"red": 2}}, tickets={0: ["T01"]})
    action, why = GreedyBot(0).choose(s, 0)
    route = v.map.route(action.route)
    assert {route.a, route.b} & {"Santa Fe"} and "Denver–El Paso" in why


def test_cheapest_path_treats_own_routes_as_free_and_others_as_blocked():
    v = get_variant("usa")
    s = position("usa", 2, 0, claims={"R039": 0})
    cost, path = cheapest_path(v, s, 0, "Denver", "El Paso")
    assert cost == 2 and "R039" in path
    s = position("usa", 2, 0, claims={"R039": 1})
    cost, path = cheapest_path(v, s, 0, "Denver", "El Paso")
    assert cost > 2 and "R039" not in path


def test_plan_for_reports_impossible_tickets():
    v = get_variant("usa")
    # seat 1 takes one route of every city pair at Vancouver; with 2 players the twins close (USA-CLAIM-8)
    pairs = {}
    for r in v.map.routes_at("Vancouver"):
        pairs.setdefault(frozenset(r.cities), r.id)
    s = position("usa", 2, 0, claims={rid: 1 for rid in pairs.values()})
    tickets = [t.id for t in v.map.tickets if "Vancouver" in (t.a, t.b)]
    assert tickets
    plan = plan_for(v, s, 0, tickets)
    assert set(plan.impossible) == set(tickets)
    assert plan.routes == ()


def test_strength_dial_mixes_the_two_bots():
    s = new_game("usa", 2, 8)
    s = apply(apply(s, legal_actions(s, 0)[0]), legal_actions(apply(s, legal_actions(s, 0)[0]), 1)[0])
    seat = to_move(s)[0]
    assert MixedBot(1.0, 3).choose(s, seat)[1].startswith("[greedy]")
    assert MixedBot(0.0, 3).choose(s, seat)[1].startswith("[random]")
    kinds = {MixedBot(0.5, k).choose(s, seat)[1].split("]")[0] for k in range(30)}
    assert kinds == {"[greedy", "[random"}


@pytest.mark.parametrize("spec, name", [("random", "random"), ("greedy", "greedy"), ("mixed:0.25", "mixed:0.25"),
                                        ("0.75", "mixed:0.75")])
def test_make_bot_understands_names_and_the_dial(spec, name):
    assert make_bot(spec).name == name


@pytest.mark.parametrize("spec", ["smart", "mixed:2", "-0.1", "mixed:x"])
def test_make_bot_rejects_unknown_specs(spec):
    with pytest.raises(TTRError):
        make_bot(spec)


def test_bots_play_europe_to_the_end():
    s, reasons = play([GreedyBot(1), RandomBot(2), GreedyBot(3)], variant="europe", players=3, seed=4)
    assert s.phase == "over"
    assert any("tunnel" in r or "station" in r or "claims" in r for r in reasons)


@pytest.mark.parametrize("size", [3, 4])
def test_random_bot_kind_orders_are_the_list_pops(size):
    """The random bot's tree of kind orders gives, for every sequence of drawn indices, the kinds that popping those
    indices from a list of the kinds gave (the bot's random stream and choices depend on it)."""
    from itertools import product
    from ttr_nb.bots import _kind_orders
    for indices in product(*(range(n) for n in range(size, 0, -1))):
        node, kinds, walked, popped = _kind_orders(tuple(range(size))), list(range(size)), [], []
        for k in indices:
            kind, node = node[k]
            walked.append(kind)
            popped.append(kinds.pop(k))
        assert walked == popped and node == ()
