"""Ticket to Ride Märklin: a scenario test (at least) per rule id of ../shared/rules/maerklin.md (MK-*), the best
passenger move against a brute force on random positions, and the map file against a rebuild.

Positions come from a real game with cards moved from the deck (never invented), so every position validates.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from ttr_nb.board.actions import Claim, DrawFaceUp, DrawTickets, KeepTickets, parse_action
from ttr_nb.bots import GreedyBot
from ttr_nb.board.cards import CARD_NAMES, LOCO, LOCO4, PASSENGER
from ttr_nb.board.engine import apply, explain, legal_actions, new_game, observe, step, validate
from ttr_nb.errors import IllegalAction, TTRError
from ttr_nb.game import Game
from ttr_nb.board.positions import position
from ttr_nb.games.maerklin import (DONE, RESERVE, Announce, PlacePassenger, Ride, best_passenger_move, leaving,
                                   moved_of, occupied,
                                   build_map_document, goods_of, goods_stacks, initial_goods, passengers_of)
from ttr_nb.board.maps import map_to_json
from ttr_nb.board.names import route_labels
from ttr_nb.board.scoring import score
from ttr_nb.board.state import FREE, GameState, pairs_set, replace_fields
from ttr_nb.variants import get_variant

MK = get_variant("maerklin")
M = MK.map
ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT.parent / "shared" / "rules" / "maerklin.md"
COLOUR = {name: i for i, name in enumerate(CARD_NAMES)}


# ---------------------------------------------------------------------------------------------
# helpers

def started(n: int = 4, seed: int = 1):
    s = new_game("maerklin", n, seed)
    for seat in range(n):
        s = apply(s, f"{seat}: announce 2 short 2 long")
    for seat in range(n):
        s = apply(s, legal_actions(s, seat)[0])          # keep all four
    assert s.phase == "play" and validate(s) == []
    return s


def give(s, seat, **counts):
    """Move cards of the named kinds from the deck (or the discard pile) into ``seat``'s hand."""
    deck = list(s.deck)
    hand = list(s.players[seat].hand)
    for name, n in counts.items():
        kind = COLOUR[name]
        for _ in range(n):
            deck.remove(kind)
            hand[kind] += 1
    players = list(s.players)
    players[seat] = replace_fields(players[seat], hand=tuple(hand))
    return replace_fields(s, deck=tuple(deck), players=tuple(players))


def empty_hand(s, seat):
    """Every card of ``seat`` goes to the discard pile."""
    hand = s.players[seat].hand
    discard = tuple(a + b for a, b in zip(s.discard, hand))
    players = list(s.players)
    players[seat] = replace_fields(players[seat], hand=(0,) * len(hand))
    return replace_fields(s, discard=discard, players=tuple(players))


def own(s, seat, *route_ids):
    claims = list(s.claims)
    players = list(s.players)
    for rid in route_ids:
        r = M.route(rid)
        claims[r.index] = seat
        p = players[seat]
        players[seat] = replace_fields(p, trains=p.trains - r.length, route_points=p.route_points + MK.route_points(r.length))
    return replace_fields(s, claims=tuple(claims), players=tuple(players))


def put(s, seat, *cities):
    places = list(cities) + [RESERVE] * (3 - len(cities))
    players = list(s.players)
    players[seat] = replace_fields(players[seat], ext=pairs_set(players[seat].ext, "passengers", tuple(places)))
    return replace_fields(s, players=tuple(players))


def route_id(a, b, colour=None):
    """The route's label (its text in actions, e.g. 'Berlin–Leipzig'): the canonical form legal_actions uses."""
    return next(route_labels(M)[r.index] for r in M.routes_between(a, b) if colour is None or r.colour == colour)


def refused(s, action, rule):
    err = explain(s, action)
    assert isinstance(err, IllegalAction), err
    assert rule in err.rule, (err.rule, str(err))
    with pytest.raises(IllegalAction):
        apply(s, action)
    return err


# ---------------------------------------------------------------------------------------------
# components and setup

def test_MK_COMP_1_board_of_germany_with_lengths_1_to_7_and_triples():
    assert len(M.cities) == 40 and len(M.routes) == 110
    assert {r.length for r in M.routes} == set(range(1, 8))
    sizes = {}
    for r in M.routes:
        if r.double_group:
            sizes[r.double_group] = sizes.get(r.double_group, 0) + 1
    assert sorted(set(sizes.values())) == [2, 3] and list(sizes.values()).count(3) == 2
    countries = sorted(c.name for c in M.cities if c.extra.get("country"))
    assert countries == ["Dänemark", "Frankreich", "Niederlande", "Schweiz", "Österreich"]


def test_MK_COMP_2_each_player_45_trains_and_3_passengers():
    s = new_game("maerklin", 5, 3)
    assert all(p.trains == 45 for p in s.players)
    assert all(passengers_of(s, i) == (RESERVE,) * 3 for i in range(5))


def test_MK_COMP_3_118_train_cards():
    counts = dict(M.deck)
    assert sum(counts.values()) == 118
    assert [counts[c] for c in ("locomotive", "locoplus", "passenger")] == [14, 6, 10]
    assert all(counts[c] == 11 for c in CARD_NAMES[:8])


def test_MK_COMP_4_two_decks_of_23_within_their_point_ranges():
    short = [t for t in M.tickets if t.deck == "short"]
    long_ = [t for t in M.tickets if t.deck == "long"]
    assert len(short) == len(long_) == 23
    assert all(5 <= t.points <= 11 for t in short) and all(12 <= t.points <= 22 for t in long_)
    assert len(M.extra["tickets_germany2017"]) == 89           # the full deck stays for teachers (PROVISIONAL)
    assert M.provisional and "stand-ins" in M.provisional_note


def test_MK_COMP_5_74_goods_tokens_on_35_cities():
    goods = initial_goods(MK)
    assert len(goods) == 35 and sum(len(g) for g in goods.values()) == 74
    assert goods["Berlin"] == (7, 6, 5, 4)
    shapes = sorted(tuple(g) for g in goods.values())
    assert shapes.count((2,)) == 16 and shapes.count((3, 2, 1)) == 12 and shapes.count((4, 3, 2)) == 6


def test_MK_COMP_6_most_completed_tickets_bonus_is_10():
    from ttr_nb.games.maerklin import MOST_TICKETS_BONUS
    assert MOST_TICKETS_BONUS == 10


def test_MK_SETUP_1_goods_stacks_highest_on_top():
    s = new_game("maerklin", 3, 0)
    for city, stack in goods_stacks(s).items():
        assert list(stack) == sorted(stack, reverse=True), city


def test_MK_SETUP_1_goods_stacks_name_each_city_once_in_saved_order():
    """A ride takes a token from its city's stack where that stack stands: an edited state whose stacks repeat a
    city or leave the saved order is refused by name (and after a JSON round trip, the same)."""
    s = started()
    stacks = s.get("goods")
    assert [c for c, _ in stacks] == sorted(goods_stacks(s)) and validate(s) == []
    swapped = stacks[1:2] + stacks[:1] + stacks[2:]
    twice = stacks + stacks[:1]
    for goods in (swapped, twice):
        edited = replace_fields(s, ext=pairs_set(s.ext, "goods", goods))
        for state in (edited, GameState.from_dict(json.loads(json.dumps(edited.to_dict())))):
            problems = validate(state)
            assert any("name each city once" in x and "MK-SETUP-1" in x for x in problems), problems


def test_MK_SETUP_2_four_cards_each_and_five_face_up():
    s = new_game("maerklin", 4, 2)
    assert all(p.hand_size == 4 for p in s.players) and len(s.market) == 5


def test_MK_SETUP_3_announced_mix_then_keep_two():
    s = new_game("maerklin", 3, 4)
    assert {p.kind for p in s.pending} == {"setup_announce"}
    assert len([a for a in legal_actions(s, 0)]) == 5                     # 4/0 … 0/4
    refused(s, "0: announce 3 short 2 long", "MK-SETUP-3")
    s = apply(s, "0: announce 0 short 4 long")                            # all from one deck (interpretation)
    offered = s.pending_for(0).get("offered")
    assert [M.ticket(t).deck for t in offered] == ["long"] * 4
    refused(s, KeepTickets(tickets=offered[:1], seat=0), "MK-SETUP-3")
    refused(s, "0: announce 2 short 2 long", "MK-SETUP-3")                 # only one announcement
    s = apply(s, KeepTickets(tickets=offered[:2], seat=0))
    assert s.ticket_deck("long")[-2:] == offered[2:]                        # returned under their own deck
    assert validate(s) == []


def test_MK_SETUP_3_decks_shuffled_when_setup_ends():
    s = new_game("maerklin", 2, 5)
    for seat in range(2):
        s = apply(s, f"{seat}: announce 2 short 2 long")
    s = apply(s, KeepTickets(tickets=s.pending_for(0).get("offered")[:2], seat=0))
    before = s.ticket_deck("short")
    s2, events = step(s, KeepTickets(tickets=s.pending_for(1).get("offered")[:2], seat=1))
    assert s2.phase == "play" and any(e.kind == "tickets_shuffled" for e in events)
    returned = tuple(t for t in s.pending_for(1).get("offered")[2:] if M.ticket(t).deck == "short")
    assert sorted(s2.ticket_deck("short")) == sorted(before + returned)


def test_MK_SETUP_4_first_player_is_the_chosen_seat():
    s = new_game("maerklin", 3, 1, first_player=2)
    for seat in range(3):
        s = apply(s, f"{seat}: announce 2 short 2 long")
    for seat in range(3):
        s = apply(s, legal_actions(s, seat)[0])
    assert s.current == 2


# ---------------------------------------------------------------------------------------------
# turn and drawing

def test_MK_TURN_1_one_of_four_actions():
    s = put(own(started(), 0, route_id("Berlin", "Leipzig")), 0, "Berlin")
    kinds = {type(a).__name__ for a in legal_actions(s)}
    assert {"DrawDeck", "Claim", "Announce", "Ride"} <= kinds
    s = apply(s, "ride Berlin–Leipzig")
    refused(s, "draw deck", "MK-PASS-1")                                  # the move is the whole turn


def test_MK_DRAW_1_face_up_locomotive_ends_the_draw():
    s = started()
    deck = list(s.deck)
    deck.remove(LOCO)
    market = (LOCO,) + s.market[1:]
    deck.append(s.market[0])
    s = replace_fields(s, deck=tuple(deck), market=market)
    assert validate(s) == []
    s2 = apply(s, "draw faceup 1")
    assert s2.current != s.current and not s2.pending


def test_MK_DRAW_1_no_cards_means_move_claim_or_tickets():
    s = _network()
    hand = [0] * MK.card_kinds
    for c in s.deck + tuple(c for c in s.market if c is not None):
        hand[c] += 1
    players = list(s.players)
    for i, p in enumerate(players):
        for k, n in enumerate(p.hand):
            hand[k] += n + s.discard[k] * (i == 0)
        players[i] = replace_fields(p, hand=(0,) * MK.card_kinds)
    players[1] = replace_fields(players[1], hand=tuple(hand))
    s = replace_fields(s, deck=(), market=(None,) * 5, discard=(0,) * MK.card_kinds, players=tuple(players))
    assert validate(s) == []
    kinds = {type(a).__name__ for a in legal_actions(s)}
    assert kinds == {"Ride", "Announce"}                                   # "een passagier verplaatsen"
    refused(s, "draw deck", "MK-DRAW-1")


def _all_cards_in_hands_but(s, market):
    """Deck and discard pile empty, ``market`` face up, every other card in Red's hand: a rule-book edge case."""
    pool = [0] * MK.card_kinds
    for c in s.deck + tuple(c for c in s.market if c is not None):
        pool[c] += 1
    for k in range(MK.card_kinds):
        pool[k] += s.discard[k] + s.players[1].hand[k]
    for c in market:
        pool[c] -= 1
    players = list(s.players)
    players[1] = replace_fields(players[1], hand=tuple(pool))
    s = replace_fields(s, deck=(), market=tuple(market) + (None,) * (5 - len(market)), discard=(0,) * MK.card_kinds,
                       players=tuple(players))
    assert validate(s) == []
    return s


def test_MK_DRAW_1_face_up_cards_are_taken_when_deck_and_discards_are_empty():
    """The book stops drawing only when no train card is left at all ("geen treinkaarten meer over ... omdat de
    spelers alle kaarten in hun handen houden"); the face-up cards may still be taken (unlike USA-DRAW-8)."""
    s = _all_cards_in_hands_but(started(), [0, LOCO, 1])
    draws = [a for a in legal_actions(s) if isinstance(a, DrawFaceUp)]
    assert [a.slot for a in draws] == [1, 2, 3]
    refused(s, "draw deck", "MK-DRAW-1")
    s2, events = step(s, "draw faceup 1")
    assert s2.market[0] is None and s2.players[0].hand[0] == s.players[0].hand[0] + 1
    assert [a.slot for a in legal_actions(s2)] == [3]               # the second card: not the locomotive
    refused(s2, "draw faceup 2", "USA-DRAW-4")
    s3 = apply(s2, "draw faceup 3")
    assert s3.current == 1 and s3.market == (None, LOCO, None, None, None) and validate(s3) == []


def test_MK_DRAW_1_one_card_when_only_a_locomotive_is_left_for_the_second():
    s = _all_cards_in_hands_but(started(), [2, LOCO])
    s2, events = step(s, "draw faceup 1")
    assert s2.current == 1 and any(e.kind == "one_card" for e in events)
    assert validate(s2) == []


def _with_market(s, kinds):
    deck = list(s.deck)
    for c in s.market:
        deck.append(c)
    for kind in kinds:
        deck.remove(kind)
    return replace_fields(s, deck=tuple(deck), market=tuple(kinds))


def test_MK_DRAW_2_face_up_plus4_as_first_card_allows_a_second():
    s = _with_market(started(), [LOCO4, 0, 1, 2, 3])
    assert validate(s) == []
    s2 = apply(s, "draw faceup 1")
    assert s2.pending and s2.pending[0].kind == "second_card" and s2.players[s.current].hand[LOCO4] == 1


def test_MK_DRAW_2_face_up_plus4_may_be_the_second_card_interpretation():
    s = _with_market(started(), [0, LOCO4, 1, 2, 3])
    s = apply(s, "draw faceup 1")
    assert DrawFaceUp(slot=2, seat=s.current) in legal_actions(s)
    s2 = apply(s, "draw faceup 2")
    assert s2.players[s.current].hand[LOCO4] == 1 and not s2.pending


def test_MK_DRAW_3_passenger_cards_are_drawn_like_others():
    s = _with_market(started(), [PASSENGER, 0, 1, 2, 3])
    s = apply(s, "draw faceup 1")
    assert s.pending[0].kind == "second_card" and s.players[s.current].hand[PASSENGER] == 1


def test_MK_DRAW_4_three_face_up_passenger_cards_reset_the_market():
    s = _with_market(started(), [PASSENGER, PASSENGER, 0, 1, 2])
    deck = list(s.deck)
    deck.remove(PASSENGER)
    top = deck.pop(0)
    s = replace_fields(s, deck=(PASSENGER, *deck, top))                   # the replacement is the third passenger
    s2, events = step(s, "draw faceup 3")
    assert any(e.kind == "market_reset" and "passenger" in e.text for e in events)
    assert "MK-DRAW-4" in next(e.rule for e in events if e.kind == "market_reset")
    assert validate(s2) == [] and s2.market.count(PASSENGER) < 3


@pytest.mark.parametrize("seed", range(30, 60))
def test_MK_DRAW_4_position_never_lays_out_three_passenger_cards_or_locomotives(seed):
    market = position("maerklin", players=2, seed=seed).market
    assert market.count(PASSENGER) < 3 and market.count(LOCO) < 3


def test_MK_DRAW_4_an_explicit_market_with_three_passenger_cards_is_refused():
    for three, words in ((["passenger"] * 3, "3 face-up passenger cards"), (["locomotive"] * 3, "3 face-up locomotives")):
        with pytest.raises(TTRError, match=words) as e:
            position("maerklin", players=2, market=three + ["red", "blue"])
        assert "MK-DRAW-4/USA-DRAW-6" in str(e.value)
    ok = position("maerklin", players=2, market=["passenger", "passenger", "locomotive", "locomotive", "locoplus"])
    assert validate(ok) == []                                # two of each, and +4s do not count


def test_MK_DRAW_4_plus4_locomotives_do_not_count_as_locomotives():
    s = _with_market(started(), [LOCO4, LOCO4, LOCO, LOCO, 0])
    deck = list(s.deck)
    deck.remove(1)
    s = replace_fields(s, deck=(1, *deck))
    s2, events = step(s, "draw faceup 5")
    assert not any(e.kind == "market_reset" for e in events)


# ---------------------------------------------------------------------------------------------
# claiming

def test_MK_CLAIM_1_passenger_cards_cannot_pay():
    s = give(started(), 0, passenger=3)
    rid = route_id("Berlin", "Magdeburg")                                  # red 3
    refused(s, Claim(route=rid, payment=((PASSENGER, 3),)), "MK-CLAIM-1")
    assert not any(isinstance(a, Claim) and any(k == PASSENGER for k, _ in a.payment) for a in legal_actions(s))


def test_MK_CLAIM_1_colour_must_match():
    s = give(started(), 0, blue=3)
    refused(s, Claim(route=route_id("Berlin", "Magdeburg"), payment=((1, 3),)), "MK-CLAIM-1")


def test_MK_CLAIM_2_plus4_refused_on_a_3_route():
    s = give(started(), 0, red=2, locoplus=1)
    err = refused(s, Claim(route=route_id("Berlin", "Magdeburg"), payment=((7, 2), (LOCO4, 1))), "MK-CLAIM-2")
    assert "4 or more" in str(err)


def test_MK_CLAIM_2_plus4_is_wild_on_a_4_route_and_locos_anywhere():
    s = give(started(), 0, orange=2, locoplus=1, locomotive=1)
    rid = route_id("Berlin", "Leipzig")                                    # orange 4
    pay = ((2, 2), (LOCO, 1), (LOCO4, 1))
    assert Claim(route=rid, payment=pay, seat=0) in legal_actions(s)
    s2 = apply(s, Claim(route=rid, payment=pay))
    assert s2.claims[M.route(rid).index] == 0 and validate(s2) == []
    s3 = give(started(), 0, red=2, locomotive=1)
    assert explain(s3, Claim(route=route_id("Berlin", "Magdeburg"), payment=((LOCO, 1), (7, 2)))) is None


def test_MK_CLAIM_3_triple_route_one_per_player_and_closed_with_3_players():
    a, b, c = (r.id for r in M.routes_between("Dortmund", "Düsseldorf"))
    s = give(started(4), 0, red=2)
    s = own(s, 0, a)
    refused(s, Claim(route=b, payment=((7, 1),)), "MK-CLAIM-3")
    s4 = own(s, 1, b)
    assert validate(s4) == []
    s3 = give(started(3), 0, red=1)
    s3 = own(s3, 1, a)
    refused(s3, Claim(route=c, payment=((7, 1),)), "MK-CLAIM-3")


def test_MK_CLAIM_4_route_points_table():
    assert [MK.route_points(n) for n in range(1, 8)] == [1, 2, 4, 7, 10, 15, 18]
    s = give(started(), 0, blue=7)
    s2 = apply(s, Claim(route=route_id("Berlin", "Hamburg", "blue"), payment=((1, 7),)))
    assert s2.players[0].route_points == 18


def test_MK_CLAIM_5_place_a_passenger_after_a_claim():
    s = give(started(), 0, red=3)
    s = apply(s, Claim(route=route_id("Berlin", "Magdeburg"), payment=((7, 3),)))
    assert s.pending[0].kind == "place_passenger"
    assert {str(a) for a in legal_actions(s)} == {"blue: place Berlin", "blue: place Magdeburg", "blue: place none"}
    refused(s, "place Leipzig", "MK-CLAIM-5")
    s2 = apply(s, "place Berlin")
    assert passengers_of(s2, 0) == ("Berlin", RESERVE, RESERVE) and s2.current == 1


def test_MK_CLAIM_5_an_unknown_city_is_named_as_bad_input_and_changes_nothing():
    """A hand-built placement or ride naming no city of the board is refused as bad input naming it (it used to
    escape as a map-file error)."""
    from ttr_nb.errors import BadAction
    s = give(started(), 0, red=3)
    s = apply(s, Claim(route=route_id("Berlin", "Magdeburg"), payment=((7, 3),)))
    before = s.to_dict()
    for bad in (PlacePassenger(city="Nowhere"), Ride(a="Berlin", b="Nowhere")):
        with pytest.raises(BadAction, match="'Nowhere' is not a city of the Märklin board"):
            apply(s, bad)
    assert s.to_dict() == before
    refused(s, PlacePassenger(city="Leipzig"), "MK-CLAIM-5")


def test_MK_CLAIM_5_occupied_city_refused():
    s = put(give(started(), 0, red=3), 1, "Berlin")
    s = apply(s, Claim(route=route_id("Berlin", "Magdeburg"), payment=((7, 3),)))
    err = refused(s, "place Berlin", "MK-CLAIM-5")
    assert "one passenger per city" in str(err)
    assert apply(s, "place Magdeburg").current == 1


def test_MK_CLAIM_5_no_placement_without_a_spare_passenger():
    s = put(give(started(), 0, red=3), 0, "Köln", "Kiel", "Emden")
    s = apply(s, Claim(route=route_id("Berlin", "Magdeburg"), payment=((7, 3),)))
    assert not s.pending and s.current == 1
    refused(s, "1: place Berlin", "MK-CLAIM-5")


def test_MK_CLAIM_5_never_in_a_country():
    s = give(started(), 0, purple=3)
    s = apply(s, Claim(route=route_id("Düsseldorf", "Niederlande"), payment=((0, 3),)))
    assert [a.city for a in legal_actions(s)] == ["Düsseldorf", ""]


# ---------------------------------------------------------------------------------------------
# tickets

def test_MK_TICKET_1_mid_game_mix_keep_one_returns_under_own_decks():
    s = started()
    assert not any(isinstance(a, DrawTickets) for a in legal_actions(s))
    refused(s, "tickets", "MK-TICKET-1")
    refused(s, "announce 1 short 1 long", "MK-TICKET-1")
    s = apply(s, "announce 3 short 1 long")
    offered = s.pending_for(0).get("offered")
    assert [M.ticket(t).deck for t in offered] == ["short"] * 3 + ["long"]
    refused(s, KeepTickets(tickets=()), "MK-TICKET-1")
    s = apply(s, KeepTickets(tickets=(offered[3],)))
    assert s.ticket_deck("short")[-3:] == offered[:3] and validate(s) == []


def test_MK_TICKET_1_fewer_than_four_left():
    s = started()
    shorts, longs = s.ticket_deck("short"), s.ticket_deck("long")
    s = replace_fields(s, ticket_decks=(("long", longs[:1]), ("short", shorts[:1])),
                       tickets_out=s.tickets_out + shorts[1:] + longs[1:])
    assert [str(a) for a in legal_actions(s) if isinstance(a, Announce)] == ["blue: announce 1 short 1 long"]
    refused(s, "announce 2 short 0 long", "MK-TICKET-1")


# ---------------------------------------------------------------------------------------------
# passengers

def _network():
    """Blue owns Berlin–Leipzig and Leipzig–Dresden; red owns Dresden–Chemnitz and Leipzig–Chemnitz."""
    s = started()
    s = own(s, 0, route_id("Berlin", "Leipzig"), route_id("Leipzig", "Dresden"))
    s = own(s, 1, route_id("Chemnitz", "Dresden"), route_id("Chemnitz", "Leipzig"))
    return put(s, 0, "Berlin")


def test_MK_PASS_1_move_along_claimed_routes_step_by_step():
    s = _network()
    s = apply(s, "ride Berlin–Leipzig")
    assert s.pending[0].kind == "journey" and s.current == 0
    s = apply(s, "ride Leipzig–Dresden")
    s = apply(s, "stop")
    assert s.current == 1 and validate(s) == []


def test_MK_PASS_1_only_own_passengers_and_never_into_a_country():
    s = _network()
    refused(s, "ride Leipzig–Dresden", "MK-PASS-1")
    s = own(s, 0, route_id("Düsseldorf", "Niederlande"))
    s = put(s, 0, "Düsseldorf")
    refused(s, "ride Düsseldorf–Niederlande", "MK-PASS-1")


def test_MK_PASS_2_opponent_route_costs_a_passenger_card():
    s = give(_network(), 0, passenger=1)
    s = apply(s, "ride Berlin–Leipzig")
    before = s.discard[PASSENGER]
    s2, events = step(s, "ride Leipzig–Chemnitz")
    assert s2.players[0].hand[PASSENGER] == 0 and s2.discard[PASSENGER] == before + 1
    assert "passenger card" in events[0].text
    refused(s2, "ride Chemnitz–Dresden", "MK-PASS-2")                       # no card left


def test_MK_PASS_2_unclaimed_routes_cannot_be_travelled():
    s = _network()
    refused(s, "ride Berlin–Magdeburg", "MK-PASS-2")


def test_MK_PASS_3_no_route_twice_but_through_occupied_cities():
    s = put(_network(), 1, "Leipzig")
    s = apply(s, "ride Berlin–Leipzig")                                     # through a city with a passenger
    refused(s, "ride Leipzig–Berlin", "MK-PASS-3")


def test_MK_PASS_4_top_token_once_per_city_not_the_start():
    s = give(_network(), 0, passenger=2)
    s = apply(s, "ride Berlin–Leipzig")
    s = apply(s, "ride Leipzig–Chemnitz")
    s = apply(s, "ride Chemnitz–Dresden")
    s = apply(s, "ride Dresden–Leipzig")                                    # Leipzig again: nothing more
    stacks = goods_stacks(s)
    assert stacks["Leipzig"] == initial_goods(MK)["Leipzig"][1:]
    assert stacks["Berlin"] == initial_goods(MK)["Berlin"]
    assert goods_of(s, 0) == (initial_goods(MK)["Leipzig"][0], initial_goods(MK)["Chemnitz"][0],
                              initial_goods(MK)["Dresden"][0])


def test_MK_PASS_5_points_at_once_tokens_kept():
    s = _network()
    s = apply(s, "ride Berlin–Leipzig")
    sheet = score(s)
    assert dict(sheet.players[0].extras)["goods"] == initial_goods(MK)["Leipzig"][0]
    assert observe(s, 1)["players"][0]["goods_tokens"] == [initial_goods(MK)["Leipzig"][0]]


def _draws(s, *seats):
    """Each of ``seats`` in turn draws two cards from the deck (a whole turn that changes no passenger)."""
    for seat in seats:
        assert s.current == seat
        s = apply(apply(s, "draw deck"), "draw deck")
    return s


def test_MK_PASS_6_a_moved_passenger_stays_in_its_last_city_until_the_round_ends():
    """"Op het einde van de ronde waarin de passagier verplaatst werd, wordt hij uit het spel verwijderd": Blue
    (the first player) moves; the passenger stands in Leipzig while Red, Green and Yellow play, then leaves."""
    s = _network()
    s = apply(s, "ride Berlin–Leipzig")
    s, events = step(s, "stop")
    assert any(e.kind == "passenger_done" and "until the end of the round" in e.text for e in events)
    assert passengers_of(s, 0) == ("Leipzig", RESERVE, RESERVE) and moved_of(s, 0) == (0,)
    assert occupied(s) == {"Leipzig": 0} and leaving(s) == {"Leipzig": 0} and validate(s) == []
    view = observe(s, 2)                                  # public: every seat sees where it stands and that it moved
    assert view["players"][0]["passengers"][0] == "Leipzig" and view["players"][0]["passengers_moved"] == [0]
    s = _draws(s, 1, 2)
    assert leaving(s) == {"Leipzig": 0}                   # Red's and Green's turns: still there
    s, events = step(apply(s, "draw deck"), "draw deck")  # Yellow ends the round
    assert [e.text for e in events if e.kind == "passenger_left"] == [
        "End of the round: Blue's passenger in Leipzig leaves the game"]
    assert "MK-PASS-6" in next(e.rule for e in events if e.kind == "passenger_left")
    assert passengers_of(s, 0) == (DONE, RESERVE, RESERVE) and moved_of(s, 0) == () and occupied(s) == {}
    assert s.players[0].ext == pairs_set(s.players[0].ext, "moved", None) and validate(s) == []   # no key left over


def test_MK_PASS_6_its_last_city_takes_no_new_passenger_until_the_round_ends():
    s = _network()
    s = apply(apply(s, "ride Berlin–Leipzig"), "stop")
    s = give(s, 1, red=3)                                                   # Red claims Erfurt–Leipzig (red 3)
    s2 = apply(s, Claim(route=route_id("Erfurt", "Leipzig"), payment=((7, 3),)))
    assert {a.city for a in legal_actions(s2) if isinstance(a, PlacePassenger)} == {"Erfurt", ""}
    e = refused(s2, "place Leipzig", "MK-CLAIM-5")
    assert "leaves the game at the end of the round" in str(e)
    s3 = _draws(apply(s2, "place none"), 2, 3)                              # the round ends: Leipzig is free
    s3 = apply(give(s3, 0, yellow=2), Claim(route=route_id("Leipzig", "Magdeburg"), payment=((5, 2),)))
    assert {a.city for a in legal_actions(s3) if isinstance(a, PlacePassenger)} == {"Leipzig", "Magdeburg", ""}


def test_MK_PASS_6_each_passenger_moves_once():
    s = _network()
    s = apply(apply(s, "ride Berlin–Leipzig"), "stop")
    again = replace_fields(s, current=0)                   # a crafted turn for Blue before the round is over
    assert not any(isinstance(a, Ride) for a in legal_actions(again))
    e = refused(again, "ride Leipzig–Dresden", "MK-PASS-6")
    assert "already travelled" in str(e)
    assert best_passenger_move(again, 0).routes == ()
    s = _draws(s, 1, 2, 3)
    assert not any(isinstance(a, Ride) for a in legal_actions(s)) and passengers_of(s, 0)[0] == DONE


def test_MK_PASS_6_the_last_seat_of_the_round_sees_its_passenger_leave_at_once():
    s = own(_network(), 3, route_id("Erfurt", "Kassel"))
    s = put(s, 3, "Kassel")
    s = _draws(s, 0, 1, 2)
    assert s.current == 3
    s = apply(s, "ride Kassel–Erfurt")
    s, events = step(s, "stop")                            # Yellow's turn ends the round: gone at once
    assert {e.kind for e in events} >= {"passenger_done", "passenger_left"}
    assert passengers_of(s, 3)[0] == DONE and "Erfurt" not in occupied(s) and s.current == 0


def test_MK_PASS_6_a_moved_passenger_may_end_where_another_passenger_stands():
    """It passes through occupied cities (MK-PASS-3) and may stop in one; both stand there until the round ends."""
    s = put(_network(), 1, "Leipzig")
    s = apply(apply(s, "ride Berlin–Leipzig"), "stop")
    assert passengers_of(s, 0)[0] == "Leipzig" == passengers_of(s, 1)[0] and validate(s) == []
    assert occupied(s) == {"Leipzig": 1} and leaving(s) == {"Leipzig": 0}
    s = _draws(s, 1, 2, 3)
    assert occupied(s) == {"Leipzig": 1} and validate(s) == []


def test_MK_PASS_6_the_games_end_ends_the_round_under_way():
    s = own(_network(), 0, route_id("Berlin", "Hamburg", "blue"), route_id("Berlin", "Hannover"),
            route_id("Dresden", "Regensburg"), route_id("Berlin", "Rostock"), route_id("Berlin", "Dresden"),
            route_id("Berlin", "Schwerin"), route_id("Chemnitz", "Dresden"))
    s = replace_fields(s, phase="last_round", final_turns_left=1)
    s = apply(s, "ride Berlin–Leipzig")
    s, events = step(s, "stop")
    assert s.phase == "over" and passengers_of(s, 0)[0] == DONE
    assert [e.kind for e in events][-2:] == ["passenger_left", "game_over"]


def test_MK_PASS_6_a_moved_passenger_survives_saving_and_a_crafted_one_is_refused(tmp_path):
    g = Game(start=_network())
    g.push("ride Berlin–Leipzig")
    g.push("stop")
    path = g.save(tmp_path / "moved.json")
    back = Game.load(path)
    assert back.state == g.state and moved_of(back.state, 0) == (0,)
    back.push("draw deck")
    back.push("draw deck")
    assert leaving(back.state) == {"Leipzig": 0}
    s = g.state
    for bad, words in (((1,), "stands in no city"), ((0, 0), "distinct"), ((5,), "distinct"),
                       (("0",), "a list of passenger numbers")):
        crafted = replace_fields(s, players=(replace_fields(s.players[0], ext=pairs_set(s.players[0].ext, "moved", bad)),)
                                 + s.players[1:])
        assert any(words in p and "MK-PASS-6" in p for p in validate(crafted)), (bad, validate(crafted))


def test_MK_END_1_final_round_at_two_trains():
    s = own(started(2), 0, route_id("Berlin", "Hamburg", "blue"), route_id("Berlin", "Hannover"),
            route_id("Dresden", "Regensburg"), route_id("Berlin", "Rostock"), route_id("Berlin", "Dresden"),
            route_id("Berlin", "Schwerin"), route_id("Berlin", "Leipzig"), route_id("Chemnitz", "Dresden"))
    assert s.players[0].trains == 3 and validate(s) == []
    s = give(s, 0, red=1)
    s = apply(s, Claim(route=route_id("Koblenz", "Köln"), payment=((7, 1),)))
    s2, events = step(s, "place none")
    assert any(e.kind == "final_round" for e in events) and s2.phase == "last_round" and s2.final_turns_left == 2


def test_MK_SCORE_1_routes_goods_and_tickets():
    s = _network()
    s = apply(s, "ride Berlin–Leipzig")
    ps = score(s).players[0]
    assert ps.route_points == 7 + 4
    assert dict(ps.extras)["goods"] == 4
    assert ps.total == ps.route_points + ps.ticket_points + sum(v for _, v in ps.extras)


def test_MK_SCORE_2_most_completed_tickets_bonus_ties_all_get_it():
    s = started(3)
    sheet = score(s)
    assert all("most completed tickets" not in dict(p.extras) for p in sheet.players)   # nobody completed any
    t = M.ticket(s.players[0].tickets[0])
    from ttr_nb.board.scoring import connect_path
    edges = [(r.a, r.b, r.length, r.id) for r in M.routes]
    path = connect_path(edges, t.a, t.b)
    s1 = own(s, 0, *path)
    ps = score(s1).players
    assert dict(ps[0].extras).get("most completed tickets") == 10 and "most completed tickets" not in dict(ps[1].extras)


def test_MK_SCORE_2_ticket_to_a_country_by_any_border_point_never_through_it():
    from ttr_nb.games.maerklin import connected_avoiding_countries
    e = [(r.a, r.b, r.length, r.id) for r in M.routes if {r.a, r.b} & {"Niederlande"}]
    assert connected_avoiding_countries(MK, e, "Emden", "Niederlande") is not None
    assert connected_avoiding_countries(MK, e, "Emden", "Düsseldorf") is None        # not through the country


def test_MK_SCORE_3_no_longest_path_bonus():
    s = own(started(2), 0, route_id("Berlin", "Hamburg", "blue"))
    assert score(s).players[0].longest_bonus == 0 and MK.settings.longest_bonus == 0


def test_MK_SCORE_4_tie_break_chain_tickets_then_goods_count():
    assert MK.settings.tie_breaks == ("tickets", "goods")
    from ttr_nb.board.scoring import _winners
    sheet = score(started(2))
    a, b = sheet.players
    from dataclasses import replace
    a = replace(a, route_points=10, tickets=(), extras=(("goods", 4),), stats=(("goods_tokens", 1),))
    b = replace(b, route_points=10, tickets=(), extras=(("goods", 4),), stats=(("goods_tokens", 2),))
    winners, words = _winners(MK, [a, b])
    assert winners == (1,) and "goods" in words


# ---------------------------------------------------------------------------------------------
# best passenger move: exact, against a brute force

def brute_force(s, seat):
    v = MK
    tops = {c: st[0] for c, st in goods_stacks(s).items() if st}
    cards = s.players[seat].hand[PASSENGER]
    best = 0

    def go(city, used, got, left, pts):
        nonlocal best
        best = max(best, pts)
        for r in M.routes_at(city):
            if r.id in used or s.claims[r.index] == FREE:
                continue
            b = r.other(city)
            if M.city(b).extra.get("country"):
                continue
            cost = 0 if s.claims[r.index] == seat else 1
            if cost > left:
                continue
            gain = tops.get(b, 0) if b not in got else 0
            go(b, used | {r.id}, got | {b}, left - cost, pts + gain)

    for start in passengers_of(s, seat):
        if start not in (RESERVE, DONE):
            go(start, frozenset(), frozenset({start}), cards, 0)
    assert v is MK
    return best


@pytest.mark.parametrize("seed", range(12))
def test_best_passenger_move_matches_brute_force(seed):
    rng = random.Random(seed)
    s = started(3, seed)
    routes = [r for r in M.routes if not any(M.city(c).extra.get("country") for c in (r.a, r.b))]
    picked = rng.sample(routes, 22)
    claims = list(s.claims)
    for r in picked:
        claims[r.index] = rng.randrange(3)
    s = replace_fields(s, claims=tuple(claims))
    cities = sorted({c for r in picked for c in (r.a, r.b)})
    s = put(s, 0, *rng.sample(cities, 2))
    s = give(s, 0, passenger=rng.randrange(3))
    move = best_passenger_move(s, 0)
    assert move.points == brute_force(s, 0)
    if move.routes:                                     # the move is playable and scores what it says
        t = s
        for a, b in zip(move.cities, move.cities[1:]):
            t = apply(t, Ride(a=a, b=b, seat=0))
        assert sum(goods_of(t, 0)) == move.points


# ---------------------------------------------------------------------------------------------
# text, observation, map file, bots

def test_action_texts_round_trip():
    for text in ("blue: announce 2 short 2 long", "red: place Köln", "place none", "ride Berlin–Leipzig", "stop"):
        a = parse_action(text)
        assert parse_action(str(a)) == a
    assert parse_action("ride berlin-leipzig") == parse_action("ride Berlin–Leipzig")


def test_observe_hides_offered_tickets_and_hands_shows_goods():
    s = new_game("maerklin", 3, 9)
    s = apply(s, "0: announce 2 short 2 long")
    view = observe(s, 1)
    assert "data" not in view["pending"][0] or view["pending"][0]["seat"] == 1
    assert "hand" not in view["players"][0] and "goods" in view and view["players"][0]["passengers"] == [RESERVE] * 3
    text = json.dumps(view, ensure_ascii=False)
    assert all(t not in text for t in s.pending_for(0).get("offered"))


def test_map_file_equals_rebuild():
    doc = build_map_document(ROOT / "maps" / "sources" / "maerklin")
    assert map_to_json(doc) == (ROOT / "maps" / "maerklin.json").read_text(encoding="utf-8")
    shared = ROOT.parent / "shared" / "reference" / "maerklin"
    if shared.is_dir():
        for f in shared.iterdir():
            assert (ROOT / "maps" / "sources" / "maerklin" / f.name).read_bytes() == f.read_bytes()


def test_map_can_switch_to_the_full_germany_deck():
    doc = build_map_document(ROOT / "maps" / "sources" / "maerklin", deck="germany2017")
    assert len(doc["tickets"]) == 89


def test_greedy_bots_finish_and_move_passengers():
    s = new_game("maerklin", 4, 11)
    bots = [GreedyBot(seed=i) for i in range(4)]
    kinds = set()
    for _ in range(3000):
        if s.phase == "over":
            break
        seat = (s.pending[0].seat if s.pending else s.current)
        a, why = bots[seat].choose(s, seat)
        assert why
        kinds.add(type(a).__name__)
        s = apply(s, a)
    assert s.phase == "over" and validate(s) == []
    assert {"Ride", "PlacePassenger", "Announce"} <= kinds


def test_every_rule_id_has_a_test():
    """Every MK id of the project's rules page (and of the digest ../shared/rules/maerklin.md, when it is beside
    the repository) has a scenario test in this file."""
    pages = [ROOT / "docs" / "rules" / "maerklin.md"] + ([RULES] if RULES.is_file() else [])
    ids = set(re.findall(r"\bMK-[A-Z]+-\d+\b", " ".join(p.read_text(encoding="utf-8") for p in pages)))
    assert len(ids) > 20
    names = " ".join(n for n in globals() if n.startswith("test_MK_"))
    missing = sorted(i for i in ids if f"test_{i.replace('-', '_')}_" not in names)
    assert not missing, missing
