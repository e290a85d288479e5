"""Scenario tests, one or more per rule id of docs/rules/usa.md (Ticket to Ride, USA).

Each test is named after the rule it checks (USA-DRAW-4 -> test_USA_DRAW_4_...). Positions are built exactly
with tests/usa_helpers.position() (cards moved between piles, validate() == [] for every one) and then played
through the public engine API. Where the Swedish rule book ("L60" = line 60 of the plain-text edition the project
was specified from) says more than the rule page, the book wins, and the test quotes the line.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from ttr_nb.board.actions import Claim, KeepTickets
from ttr_nb.board.cards import CARD_NAMES, COLOURS, LOCO, PLAYER_COLOURS
from ttr_nb.board.engine import apply, explain, legal_actions, new_game, observe, step, to_move, validate
from ttr_nb.errors import IllegalAction, TTRError
from ttr_nb.rng import shuffled
from ttr_nb.board.scoring import score
from ttr_nb.board.state import FREE
from ttr_nb.board.trail import longest_trail

from usa_helpers import (L, TOTAL, USA, V, assert_refused, hand_of, kind, legal_bodies, loco_count, market_names,
                         position, setup_done, snapshot)

RED, BLUE, GREEN, YELLOW = (COLOURS.index(c) for c in ("red", "blue", "green", "yellow"))
ALL_T = [t.id for t in USA.tickets]


def play_turn(state, seat=None):
    """One ordinary turn: two blind cards (one if the deck runs out)."""
    prefix = "" if seat is None else f"{seat}: "
    state = apply(state, prefix + "draw deck")
    if state.pending and state.pending[0].kind == "second_card":
        state = apply(state, prefix + "draw deck")
    return state


def events_of(evs, kind_):
    return [e for e in evs if e.kind == kind_]


def owned(state, seat):
    return {r.id for r in USA.routes if state.claims[r.index] == seat}


def assert_trail_valid(trail, routes_owned):
    """A trail: distinct owned routes, consecutive ones share the city between them, length = trains."""
    assert len(set(trail.routes)) == len(trail.routes)
    assert set(trail.routes) <= set(routes_owned)
    if not trail.routes:
        assert trail.length == 0
        return
    assert len(trail.cities) == len(trail.routes) + 1
    for i, rid in enumerate(trail.routes):
        r = USA.route(rid)
        assert {r.a, r.b} == {trail.cities[i], trail.cities[i + 1]}, (rid, trail.cities[i:i + 2])
    assert trail.length == sum(USA.route(r).length for r in trail.routes)


# =============================================================================================================
# Components (USA-COMP)

def test_USA_COMP_1_board_routes_lengths_colours_and_double_routes():
    assert len(USA.routes) == 100
    assert {r.length for r in USA.routes} == {1, 2, 3, 4, 5, 6}
    assert {r.colour for r in USA.routes} == set(COLOURS) | {"gray"}
    # a double route = two parallel routes between the same two cities
    groups = Counter(r.double_group for r in USA.routes if r.double_group)
    assert groups and set(groups.values()) == {2}
    for r in USA.routes:
        twins = USA.twins(r.id)
        if r.double_group is None:
            assert not twins
        else:
            (t,) = twins
            assert {t.a, t.b} == {r.a, r.b} and t.length == r.length and t.id != r.id
    assert {r.id for r in USA.routes_between("Atlanta", "New Orleans")} == {"R004", "R005"}


def test_USA_COMP_2_each_player_has_45_trains_and_a_player_colour():
    for n in (2, 5):
        s = new_game("usa", n, 3)
        assert [p.trains for p in s.players] == [45] * n
    assert PLAYER_COLOURS == ("blue", "red", "green", "yellow", "black")
    # 45 is the limit: the 3 spare trains per colour (L6) are not playable
    s = position(2, claims={"R071": 0})
    assert s.players[0].trains == 39
    bad = replace(s, players=(replace(s.players[0], trains=40), s.players[1]))
    assert any("USA-COMP-2" in p for p in validate(bad))


def test_USA_COMP_3_110_train_cards_12_per_colour_14_locomotives_conserved():
    assert TOTAL == {**{c: 12 for c in COLOURS}, "locomotive": 14}
    assert sum(TOTAL.values()) == 110
    assert CARD_NAMES[:8] == ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
    for n in (2, 3, 4, 5):
        s = new_game("usa", n, 11)
        total = Counter(s.deck) + Counter(c for c in s.market if c is not None)
        for pile in [s.discard] + [p.hand for p in s.players]:
            total += Counter({k: c for k, c in enumerate(pile) if c})
        assert dict(total) == {k: 14 if k == LOCO else 12 for k in range(9)}
        assert validate(s) == []


def test_USA_COMP_3_swedish_brown_is_the_orange_card():
    """F-USA-1: the book's "Bruna" (brown, L58) is the digest's orange."""
    s = position(4, hands={0: {"orange": 4}})
    s2 = apply(s, "claim R004 brown4")                      # Atlanta–New Orleans, orange
    assert s2.claims[USA.route("R004").index] == 0 and hand_of(s2, 0) == {}


def test_USA_COMP_4_30_tickets_and_a_10_point_longest_path_bonus():
    assert len(USA.tickets) == 30
    assert [t.id for t in USA.tickets] == [f"T{i:02d}" for i in range(1, 31)]
    assert all(t.points > 0 and t.a != t.b for t in USA.tickets)
    # one ticket deck with all 30 in it (3 per player dealt at setup)
    s = new_game("usa", 3, 2)
    dealt = [t for p in s.pending for t in p.get("offered")]
    assert len(dealt) == 9 and len(s.ticket_deck("regular")) == 21
    assert sorted(dealt + list(s.ticket_deck("regular"))) == [t.id for t in USA.tickets]
    # the bonus card is worth 10
    s = position(2, claims={"R071": 0}, phase="over")
    assert score(s).players[0].longest_bonus == 10 and score(s).players[1].longest_bonus == 0


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_USA_COMP_5_two_to_five_players(n):
    s = new_game("usa", n, 1)
    assert s.n_players == n and len(s.players) == n and validate(s) == []


@pytest.mark.parametrize("n", [0, 1, 6])
def test_USA_COMP_5_other_player_counts_refused(n):
    with pytest.raises(TTRError, match="USA-COMP-5"):
        new_game("usa", n, 1)


# =============================================================================================================
# Setup (USA-SETUP)

def test_USA_SETUP_1_score_markers_start_at_zero():
    s = new_game("usa", 5, 9)
    assert all(p.route_points == 0 for p in s.players)
    assert all(p.route_points == 0 and p.longest_bonus == 0 for p in score(s).players)


@pytest.mark.parametrize("n", [2, 5])
def test_USA_SETUP_2_four_cards_each_and_five_face_up_from_a_shuffled_deck(n):
    seed = 21
    s = new_game("usa", n, seed)
    original = shuffled([k for k, c in enumerate(V.deck_counts) for _ in range(c)], seed, "deck", 0)
    assert original != sorted(original)                    # shuffled
    assert [p.hand_size for p in s.players] == [4] * n
    assert len(s.market) == 5 and None not in s.market
    assert not any(s.discard)                              # no 3-locomotive reset at this seed
    hands = Counter(original[: 4 * n])                     # the first 4n cards are dealt
    assert hands == sum((Counter({k: c for k, c in enumerate(p.hand) if c}) for p in s.players), Counter())
    assert list(s.market) == original[4 * n: 4 * n + 5]   # the next 5 face up
    assert list(s.deck) == original[4 * n + 5:]
    assert loco_count(s) < 3


def test_USA_SETUP_2_three_face_up_locomotives_at_setup_are_reset():
    """USA-DRAW-6 applies at setup ("vid något tillfälle", L60). Seed 53 (4 players) turns up 3 locomotives."""
    seed, n = 53, 4
    s = new_game("usa", n, seed)
    original = shuffled([k for k, c in enumerate(V.deck_counts) for _ in range(c)], seed, "deck", 0)
    first_five = original[4 * n: 4 * n + 5]
    assert first_five.count(LOCO) >= 3
    assert s.discard == tuple(first_five.count(k) for k in range(9))      # all 5 discarded
    assert list(s.market) == original[4 * n + 5: 4 * n + 10]                # 5 new turned up
    assert loco_count(s) < 3 and validate(s) == []


def test_USA_SETUP_3_three_tickets_each_keep_at_least_two_simultaneously():
    s = new_game("usa", 3, 4)
    assert s.phase == "setup" and to_move(s) == (0, 1, 2)             # everyone at the same time
    offers = {p.seat: p.get("offered") for p in s.pending}
    assert all(len(o) == 3 for o in offers.values())
    assert len({t for o in offers.values() for t in o}) == 9
    assert {p.get("min_keep") for p in s.pending} == {2}
    # keeping one is refused, for every seat
    err = assert_refused(s, f"2: keep {offers[2][0]}", "USA-SETUP-3")
    assert "at least 2" in str(err)
    # seats choose in any order; play waits for all of them
    deck_before = s.ticket_deck("regular")
    s = apply(s, f"2: keep {offers[2][0]} {offers[2][2]}")             # returns offers[2][1]
    assert s.phase == "setup" and to_move(s) == (0, 1)
    assert s.players[2].tickets == (offers[2][0], offers[2][2])
    assert s.ticket_deck("regular") == deck_before + (offers[2][1],)  # to the BOTTOM
    assert_refused(s, f"2: keep {offers[2][1]}", "USA-SETUP-3")        # already chosen
    assert_refused(s, "0: draw deck", "USA-SETUP-3")                   # play has not started
    s = apply(s, f"0: keep {' '.join(offers[0])}")                      # all 3 may be kept
    assert s.players[0].tickets == offers[0] and s.ticket_deck("regular") == deck_before + (offers[2][1],)
    s = apply(s, f"1: keep {offers[1][2]} {offers[1][0]}")
    assert s.ticket_deck("regular") == deck_before + (offers[2][1], offers[1][1])
    assert s.phase == "play" and s.pending == () and validate(s) == []


def test_USA_SETUP_3_initial_choice_is_secret():
    s = new_game("usa", 3, 4)
    offers = {p.seat: p.get("offered") for p in s.pending}
    for viewer in range(3):
        view = observe(s, viewer)
        text = json.dumps(view)
        for other in range(3):
            if other == viewer:
                continue
            for t in offers[other]:
                assert t not in text, f"seat {viewer} can see {t} offered to seat {other}"
            assert "hand" not in view["players"][other] and "tickets" not in view["players"][other]
        mine = next(p for p in view["pending"] if p["seat"] == viewer)
        assert tuple(mine["data"]["offered"]) == offers[viewer]
    # the choice of one seat stays hidden from the others after it is made
    s = apply(s, f"1: keep {offers[1][0]} {offers[1][1]}")
    text = json.dumps(observe(s, 0))
    assert offers[1][0] not in text and offers[1][1] not in text


def test_USA_SETUP_3_duplicate_ids_cannot_fake_keeping_two():
    """keep ≥ 2 of 3 (L33 "måste behålla 2 kort"): an action naming one ticket twice keeps only one."""
    s = new_game("usa", 2, 4)
    t = s.pending[0].get("offered")[0]
    before = snapshot(s)
    with pytest.raises(TTRError):
        after = apply(s, KeepTickets(tickets=(t, t), seat=0))
        assert len(after.players[0].tickets) >= 2, f"kept only {after.players[0].tickets}"
    assert snapshot(s) == before


@pytest.mark.parametrize("n,first", [(2, 1), (4, 2), (5, 0)])
def test_USA_SETUP_4_chosen_first_player_starts_then_clockwise(n, first):
    s = setup_done(new_game("usa", n, 5, first_player=first))
    assert s.phase == "play" and to_move(s) == (first,)
    order = []
    for _ in range(2 * n):
        order.append(s.current)
        s = play_turn(s)
    assert order == [(first + i) % n for i in range(2 * n)]


# =============================================================================================================
# A turn (USA-TURN)

def test_USA_TURN_1_exactly_one_action_per_turn():
    s = position(3, hands={0: {"red": 6}, 1: {"red": 2}})
    # a claim is the whole turn
    s1 = apply(s, "claim R001 red2")
    assert s1.current == 1 and s1.pending == ()
    assert_refused(s1, "0: claim R003 red1", "USA-TURN-1")                # not your turn any more
    # after the first card only a second card may follow
    s2 = apply(s, "draw deck")
    assert to_move(s2) == (0,) and s2.pending[0].kind == "second_card"
    assert_refused(s2, "claim R001 red2", {"USA-DRAW-1", "USA-TURN-1"})
    assert_refused(s2, "tickets", {"USA-DRAW-1", "USA-TURN-1"})
    assert legal_bodies(s2) <= {"draw deck"} | {f"draw faceup {i}" for i in range(1, 6)}
    # after drawing tickets only the choice may follow
    s3 = apply(s, "tickets")
    assert_refused(s3, "draw deck", {"USA-TICKET-2", "USA-TURN-1"})
    assert_refused(s3, "claim R001 red2", {"USA-TICKET-2", "USA-TURN-1"})
    assert all(b.startswith("keep ") for b in legal_bodies(s3))
    # another seat may not act in someone's turn
    assert_refused(s, "1: claim R001 red2", "USA-TURN-1")
    # the three kinds of action are on offer at the start of a turn
    bodies = legal_bodies(s)
    assert "draw deck" in bodies and "tickets" in bodies and any(b.startswith("claim ") for b in bodies)


def test_USA_TURN_1_pass_only_when_no_action_at_all_is_possible():
    """Interpretation (ttr_nb/games/usa.py): no card to draw, no route payable, no ticket left -> pass."""
    s = position(2, deck_size=0, rest_to=1, ticket_deck=[], tickets={1: ALL_T})
    assert s.players[0].hand_size == 0
    assert legal_bodies(s) == {"pass"}
    s2 = apply(s, "pass")
    assert s2.current == 1 and s2.phase == "play"
    assert "pass" not in legal_bodies(s2)                     # seat 1 holds every card: it can claim
    assert_refused(s2, "pass", "USA-TURN-1")


# =============================================================================================================
# Drawing train cards (USA-DRAW)

def test_USA_DRAW_1_two_cards_each_face_up_or_blind_top_card():
    s = position(2, market=["purple", "blue", "orange", "white", "green"], deck_top=["red", "yellow", "black"])
    s = apply(s, "draw deck")                                 # blind: exactly the top card
    assert hand_of(s, 0) == {"red": 1} and s.deck[0] == kind("yellow")
    assert s.pending and s.pending[0].kind == "second_card" and to_move(s) == (0,)
    s = apply(s, "draw faceup 2")                              # then a face-up card
    assert hand_of(s, 0) == {"red": 1, "blue": 1}
    assert s.current == 1 and s.pending == ()
    assert s.players[0].hand_size == 2


def test_USA_DRAW_1_second_card_is_compulsory_when_one_exists():
    s = apply(position(2), "draw faceup 1")
    assert s.pending[0].kind == "second_card"
    assert_refused(s, "pass", {"USA-DRAW-1", "USA-TURN-1"})
    assert "pass" not in legal_bodies(s)


def test_USA_DRAW_2_face_up_card_replaced_at_once_before_the_second_card():
    s = position(2, market=["purple", "blue", "orange", "white", "green"], deck_top=["red", "yellow"])
    s = apply(s, "draw faceup 3")
    assert hand_of(s, 0) == {"orange": 1}
    assert market_names(s) == ["purple", "blue", "red", "white", "green"]   # refilled from the top of the deck
    assert s.pending[0].kind == "second_card"
    s = apply(s, "draw faceup 3")                                             # the replacement can be taken
    assert hand_of(s, 0) == {"orange": 1, "red": 1}
    assert market_names(s) == ["purple", "blue", "yellow", "white", "green"]
    assert validate(s) == []


def test_USA_DRAW_3_face_up_locomotive_first_is_the_only_card():
    s = position(2, market=["purple", "blue", L, "white", "green"], deck_top=["red"])
    s2, evs = step(s, "draw faceup 3")
    assert hand_of(s2, 0) == {L: 1}
    assert s2.current == 1 and s2.pending == ()                  # the turn is over
    assert market_names(s2)[2] == "red"                          # still replaced
    assert [e.rule for e in events_of(evs, "one_card")] == ["USA-DRAW-3"]
    assert validate(s2) == []


def test_USA_DRAW_3_face_up_locomotive_first_ends_turn_even_with_more_locomotives_shown():
    s = position(2, market=[L, "blue", L, "white", "green"], deck_top=["red"])
    s2 = apply(s, "draw faceup 1")
    assert hand_of(s2, 0) == {L: 1} and s2.current == 1 and s2.pending == ()


def test_USA_DRAW_4_face_up_locomotive_refused_as_second_card():
    s = position(2, market=["purple", "blue", L, "white", "green"], deck_top=["red", "yellow"])
    s = apply(s, "draw deck")
    err = assert_refused(s, "draw faceup 3", "USA-DRAW-4")
    assert "locomotive" in str(err)
    assert "draw faceup 3" not in legal_bodies(s)
    assert {"draw deck", "draw faceup 1", "draw faceup 2", "draw faceup 4", "draw faceup 5"} == legal_bodies(s)


def test_USA_DRAW_4_locomotive_just_turned_up_as_replacement_refused():
    """L60: "Om spelaren först drar ett uppvänt kort som ersätts med ett lokkort, så kan spelaren inte ta lokkortet." """
    s = position(2, market=["purple", "blue", "orange", "white", "green"], deck_top=[L, "yellow"])
    s = apply(s, "draw faceup 2")
    assert market_names(s)[1] == L and s.pending[0].kind == "second_card"
    assert_refused(s, "draw faceup 2", "USA-DRAW-4")
    s = apply(s, "draw faceup 1")
    assert hand_of(s, 0) == {"blue": 1, "purple": 1} and s.current == 1


def test_USA_DRAW_4_blind_locomotive_counts_as_an_ordinary_card():
    s = position(2, market=["purple", "blue", L, "white", "green"], deck_top=[L, L, "red"])
    s = apply(s, "draw deck")
    assert hand_of(s, 0) == {L: 1}
    assert s.pending and s.pending[0].kind == "second_card" and to_move(s) == (0,)
    assert_refused(s, "draw faceup 3", "USA-DRAW-4")         # a face-up one is still not allowed second
    s = apply(s, "draw deck")                                 # a second blind locomotive is fine
    assert hand_of(s, 0) == {L: 2} and s.current == 1


def test_USA_DRAW_4_face_up_locomotive_after_a_mid_draw_reset_refused():
    # take white -> its replacement is the 3rd locomotive -> reset; the new market shows a locomotive
    s = position(2, market=[L, L, "orange", "white", "green"], deck_top=[L, "red", L, "blue", "black", "yellow"])
    s, evs = step(s, "draw faceup 4")
    assert len(events_of(evs, "market_reset")) == 1
    assert market_names(s) == ["red", L, "blue", "black", "yellow"]
    assert s.pending[0].kind == "second_card"
    assert_refused(s, "draw faceup 2", "USA-DRAW-4")
    assert legal_bodies(s) == {"draw deck", "draw faceup 1", "draw faceup 3", "draw faceup 4", "draw faceup 5"}


def test_USA_DRAW_5_hand_size_is_unlimited():
    # seat 0 already holds 95 cards; the deck has 5 left and it may still draw
    s = position(2, deck_size=5, rest_to=0)
    assert s.players[0].hand_size == 100
    s = play_turn(s)
    assert s.players[0].hand_size == 102 and validate(s) == []


def test_USA_DRAW_6_third_face_up_locomotive_resets_all_five():
    s = position(2, market=[L, L, "orange", "white", "green"],
                 deck_top=[L, "red", "blue", "black", "yellow", "purple", "green"])
    disc_before = s.discard
    s2, evs = step(s, "draw faceup 3")                        # replacement = 3rd locomotive
    assert [e.rule for e in events_of(evs, "market_reset")] == ["USA-DRAW-6"]
    assert market_names(s2) == ["red", "blue", "black", "yellow", "purple"]
    # all five (including the replacement) were discarded
    added = [b - a for a, b in zip(disc_before, s2.discard)]
    assert added == [0, 0, 0, 1, 1, 0, 0, 0, 3]               # white, green, 3 locomotives
    assert hand_of(s2, 0) == {"orange": 1} and validate(s2) == []


def test_USA_DRAW_6_repeats_and_four_or_five_locomotives_also_reset():
    """"3 lokkort" (L60) means 3 or more: a fresh five with 4 locomotives is reset again, and so is one with 5."""
    s = position(2, market=["red", L, L, "blue", "green"],
                 deck_top=[L] + [L, L, L, L, "black"] + [L, L, L, L, L] + ["white", "yellow", "purple", "orange", "red"])
    s2, evs = step(s, "draw faceup 1")
    assert len(events_of(evs, "market_reset")) == 3
    assert not events_of(evs, "market_reset_stopped")
    assert market_names(s2) == ["white", "yellow", "purple", "orange", "red"]
    assert s2.discard[LOCO] == 3 + 4 + 5
    assert validate(s2) == []


def test_USA_DRAW_6_reset_refills_from_a_reshuffled_discard_pile():
    """The new five may come partly from a reshuffled discard pile (the deck runs out mid-reset)."""
    s = position(2, market=[L, L, "orange", "white", "green"], deck_top=[L, "red", "blue"],
                 deck_size=3, discard={"yellow": 5, "black": 5}, rest_to=1)
    s2, evs = step(s, "draw faceup 3")
    assert events_of(evs, "market_reset") and events_of(evs, "reshuffle")
    assert None not in s2.market and loco_count(s2) < 3 and validate(s2) == []


def test_USA_DRAW_6_reset_after_the_second_card_leaves_a_clean_market_for_the_next_player():
    s = position(2, market=[L, "blue", L, "white", "green"],
                 deck_top=["red", L, "purple", "orange", "yellow", "black", "blue"])
    s = apply(s, "draw deck")                                   # red, blind
    s2, evs = step(s, "draw faceup 2")                          # blue; replacement = 3rd locomotive -> reset
    assert len(events_of(evs, "market_reset")) == 1
    assert hand_of(s2, 0) == {"red": 1, "blue": 1} and s2.current == 1
    assert market_names(s2) == ["purple", "orange", "yellow", "black", "blue"]
    assert validate(s2) == []


def test_USA_DRAW_6_stops_when_the_remaining_cards_cannot_avoid_it():
    # outside the hands only 2 non-locomotives remain after the draw: no market of 5 can show fewer than 3 locos
    s = position(2, market=["red", "blue", L, L, "green"], deck_top=[L] * 12, deck_size=12, rest_to=1)
    s2, evs = step(s, "draw faceup 1")
    assert [e.rule for e in events_of(evs, "market_reset_stopped")] == ["USA-DRAW-6"]
    assert not events_of(evs, "market_reset")
    assert market_names(s2) == [L, "blue", L, L, "green"] and not any(s2.discard)
    # the turn goes on normally: blind or a non-locomotive second card, never a face-up locomotive
    assert legal_bodies(s2) == {"draw deck", "draw faceup 2", "draw faceup 5"}
    assert_refused(s2, "draw faceup 1", "USA-DRAW-4")
    s3 = apply(s2, "draw deck")
    assert s3.current == 1 and validate(s3) == []


def test_USA_DRAW_6_avoidable_reset_repeats_until_a_legal_market():
    """Digest: "repeat while it happens again; if the remaining cards cannot avoid it, stop". Here 3
    non-locomotives remain among 17 cards, so a market with fewer than 3 locomotives exists: the engine must keep
    resetting. The engine stops after 20 resets in a row (Settings.max_market_resets, listed in
    ttr_nb/games/usa.py USA_INTERPRETATIONS) and leaves 5 face-up locomotives, which neither the digest nor the book
    allows (L60: "Om det skulle finnas 3 lokkort uppvända vid något tillfälle ska alla 5 korten slängas")."""
    s = position(2, seed=2, market=["red", "blue", L, L, "green"], deck_top=[L] * 12 + ["yellow"],
                 deck_size=13, rest_to=1)
    s2, evs = step(s, "draw faceup 1")
    assert events_of(evs, "market_reset")
    assert not events_of(evs, "market_reset_stopped"), (
        f"stopped after {len(events_of(evs, 'market_reset'))} resets with {market_names(s2)} although 3 "
        "non-locomotives could avoid it")
    assert loco_count(s2) < 3


def test_USA_DRAW_7_empty_deck_reshuffles_the_discard_pile():
    s = position(2, deck_size=0, discard={"red": 10, "blue": 10, "green": 10, L: 5}, rest_to=1)
    assert s.deck == ()
    s2, evs = step(s, "draw deck")
    assert [e.rule for e in events_of(evs, "reshuffle")] == ["USA-DRAW-7"]
    assert s2.shuffles == s.shuffles + 1 and not any(s2.discard)
    assert len(s2.deck) == 34
    got = Counter(s2.deck) + Counter({k: n for k, n in enumerate(s2.players[0].hand) if n})
    assert got == Counter({RED: 10, BLUE: 10, GREEN: 10, LOCO: 5})
    assert list(s2.deck) != sorted(s2.deck) and list(s2.deck) != sorted(s2.deck, reverse=True)   # shuffled
    assert validate(s2) == []


def test_USA_DRAW_7_replacement_of_a_face_up_card_reshuffles_too():
    s = position(2, deck_size=0, discard={"black": 6}, rest_to=1)
    s2, evs = step(s, "draw faceup 1")
    assert events_of(evs, "reshuffle")
    assert market_names(s2)[0] == "black" and len(s2.deck) == 5 and validate(s2) == []


def test_USA_DRAW_8_no_train_card_when_deck_and_discard_are_empty():
    """L66: "så får spelaren inte dra några tågkort utan måste bygga en rutt eller dra ett biljettkort" — no train
    cards at all, the face-up ones included."""
    s = position(2, deck_size=0, rest_to=1, hands={0: {"red": 2}})
    assert s.deck == () and not any(s.discard) and None not in s.market
    assert_refused(s, "draw deck", "USA-DRAW-8")
    for slot in range(1, 6):
        assert_refused(s, f"draw faceup {slot}", "USA-DRAW-8")
    bodies = legal_bodies(s)
    assert not any(b.startswith("draw") for b in bodies)
    assert "tickets" in bodies and any(b.startswith("claim ") for b in bodies)
    s2 = apply(s, "claim R001 red2")                     # claiming is still possible
    assert s2.current == 1
    assert sum(s2.discard) == 2                           # ... and refills the discard pile: drawing works again
    assert explain(s2, "draw deck") is None


def test_USA_DRAW_8_turn_ends_with_one_card_when_no_second_exists_blind():
    s = position(2, deck_size=1, rest_to=1, deck_top=["red"])
    s2, evs = step(s, "draw deck")
    assert hand_of(s2, 0) == {"red": 1}
    assert s2.current == 1 and s2.pending == ()
    assert [e.rule for e in events_of(evs, "one_card")] == ["USA-DRAW-8"]
    assert validate(s2) == []


def test_USA_DRAW_8_turn_ends_with_one_card_when_replacement_empties_the_deck():
    s = position(2, deck_size=1, rest_to=1, deck_top=["red"])
    s2, evs = step(s, "draw faceup 4")
    assert hand_of(s2, 0) == {"white": 1}
    assert market_names(s2)[3] == "red" and s2.deck == ()
    assert s2.current == 1 and s2.pending == () and events_of(evs, "one_card")


def test_USA_DRAW_8_only_claims_or_tickets_then():
    s = position(3, deck_size=0, rest_to=2, hands={0: {"red": 1}})
    assert legal_bodies(s) == {"tickets", "claim R003 red1", "claim R026 red1", "claim R027 red1", "claim R058 red1",
                               "claim R059 red1", "claim R091 red1", "claim R092 red1", "claim R099 red1",
                               "claim R100 red1"}


# =============================================================================================================
# Claiming a route (USA-CLAIM)

def test_USA_CLAIM_1_exactly_as_many_cards_as_spaces():
    s = position(2, hands={0: {"red": 6, L: 2}})          # R025 Dallas–El Paso, 4 red
    assert_refused(s, "claim R025 red3", "USA-CLAIM-1")
    assert_refused(s, "claim R025 red5", "USA-CLAIM-1")   # paying extra is not allowed either (L70 "samma antal")
    assert_refused(s, "claim R025 red4+loco1", "USA-CLAIM-1")
    s2 = apply(s, "claim R025 red4")
    assert hand_of(s2, 0) == {"red": 2, L: 2} and s2.claims[USA.route("R025").index] == 0


def test_USA_CLAIM_1_set_must_be_of_one_colour():
    s = position(2, hands={0: {"red": 2, "blue": 2, "green": 1}})
    assert_refused(s, "claim R012 red2+blue2", {"USA-CLAIM-1", "USA-CLAIM-2"})   # gray: still one colour
    assert_refused(s, "claim R025 red2+blue2", {"USA-CLAIM-1", "USA-CLAIM-2"})
    assert not any(b.startswith("claim R012") for b in legal_bodies(s))


def test_USA_CLAIM_1_cards_must_be_in_the_hand():
    s = position(2, hands={0: {"red": 3}})
    assert_refused(s, "claim R025 red4", "USA-CLAIM-1")
    assert_refused(s, "claim R025 red3+loco1", "USA-CLAIM-1")


def test_USA_CLAIM_1_malformed_payment_objects_are_refused():
    """An Action object is input too: red5 + loco(-1) "is" 4 cards but would create a locomotive, and red2 + red2
    names one colour twice."""
    s = position(2, hands={0: {"red": 5}})
    for payment in (((RED, 5), (LOCO, -1)), ((RED, 4), (LOCO, 0)), ((RED, 2), (RED, 2))):
        before = snapshot(s)
        with pytest.raises(TTRError) as info:
            after = apply(s, Claim(route="R025", payment=payment, seat=0))
            assert validate(after) == [], (payment, validate(after))
        assert snapshot(s) == before
        if isinstance(info.value, IllegalAction):
            assert info.value.rule == "USA-CLAIM-1" and "USA-CLAIM-1" in str(info.value)


def test_USA_CLAIM_2_coloured_route_needs_its_colour_gray_takes_any_one():
    s = position(2, hands={0: {"blue": 4, "red": 4}})
    err = assert_refused(s, "claim R025 blue4", "USA-CLAIM-2")            # red route
    assert "red" in str(err)
    bodies = legal_bodies(s)
    assert "claim R025 red4" in bodies and "claim R025 blue4" not in bodies
    # gray R012 Calgary–Helena (4): any one colour
    assert {"claim R012 blue4", "claim R012 red4"} <= bodies
    for colour in ("blue", "red"):
        s2 = apply(s, f"claim R012 {colour}4")
        assert s2.claims[USA.route("R012").index] == 0 and hand_of(s2, 0).get(colour, 0) == 0


@pytest.mark.parametrize("payment", ["red3+loco1", "red1+loco3", "loco4"])
def test_USA_CLAIM_3_locomotives_are_wild_on_coloured_routes(payment):
    s = position(2, hands={0: {"red": 3, L: 4}})
    assert payment in {b.split()[-1] for b in legal_bodies(s) if b.startswith("claim R025 ")}
    s2 = apply(s, f"claim R025 {payment}")
    assert s2.claims[USA.route("R025").index] == 0 and s2.players[0].route_points == 7
    assert sum(s2.discard) == 4 and validate(s2) == []


def test_USA_CLAIM_3_every_legal_payment_is_offered():
    s = position(2, hands={0: {"red": 2, "blue": 2, L: 1}})
    pays = sorted(b.split()[-1] for b in legal_bodies(s) if b.startswith("claim R001 "))   # gray, 2
    assert pays == ["blue1+loco1", "blue2", "red1+loco1", "red2"]
    assert_refused(s, "claim R001 loco2", "USA-CLAIM-1")                                     # only one locomotive


def test_USA_CLAIM_3_all_locomotive_set_on_a_gray_route_and_payment_list():
    s = position(2, hands={0: {"green": 1, L: 2}})
    pays = sorted(b.split()[-1] for b in legal_bodies(s) if b.startswith("claim R001 "))   # gray, 2
    assert pays == ["green1+loco1", "loco2"]
    s2 = apply(s, "claim R001 loco2")
    assert hand_of(s2, 0) == {"green": 1} and s2.discard[LOCO] == 2


def test_USA_CLAIM_4_trains_placed_cards_discarded():
    s = position(2, hands={0: {"red": 4, L: 1}})
    s2, evs = step(s, "claim R025 red3+loco1")
    assert s2.players[0].trains == 41
    assert s2.discard[RED] == s.discard[RED] + 3 and s2.discard[LOCO] == s.discard[LOCO] + 1
    assert hand_of(s2, 0) == {"red": 1}
    assert validate(s2) == []


def test_USA_CLAIM_4_exactly_three_trains_can_claim_a_three_route():
    s = position(3, hands={0: {"red": 3}}, trains={0: 3}, avoid=["R018"])        # R018 Chicago–Duluth, 3 red
    assert s.players[0].trains == 3
    assert "claim R018 red3" in legal_bodies(s)
    s2 = apply(s, "claim R018 red3")
    assert s2.players[0].trains == 0 and s2.claims[USA.route("R018").index] == 0
    assert s2.phase == "last_round" and validate(s2) == []


def test_USA_CLAIM_4_two_trains_cannot_claim_a_three_route():
    s = position(3, hands={0: {"red": 5}}, trains={0: 2}, avoid=["R018", "R001"], phase="last_round",
                 final_turns_left=3)
    err = assert_refused(s, "claim R018 red3", "USA-CLAIM-4")
    assert "2" in str(err)
    assert not any(b.startswith("claim R018") for b in legal_bodies(s))
    s2 = apply(s, "claim R001 red2")                                               # a 2-route still fits
    assert s2.players[0].trains == 0


def test_USA_CLAIM_5_any_free_route_need_not_connect():
    s = position(3, hands={0: {"red": 2, "blue": 5}}, claims={"R088": 0, "R034": 1})
    # seat 0 owns Portland–Salt Lake City; Atlanta–Charleston (east coast) is still claimable
    s2 = apply(s, "claim R001 red2")
    assert owned(s2, 0) == {"R088", "R001"}
    # an already claimed route is refused
    s3 = position(3, hands={0: {"red": 4}}, claims={"R025": 1})
    err = assert_refused(s3, "claim R025 red4", "USA-CLAIM-5")
    assert "Red" in str(err)


def test_USA_CLAIM_6_one_route_per_turn():
    s = position(2, hands={0: {"red": 10}, 1: {}})
    s2 = apply(s, "claim R025 red4")
    assert s2.current == 1 and s2.pending == ()
    assert_refused(s2, "0: claim R018 red3", {"USA-TURN-1", "USA-CLAIM-6"})
    assert s2.players[0].route_points == 7 and owned(s2, 0) == {"R025"}


def test_USA_CLAIM_6_route_claimed_whole_not_in_parts():
    s = position(2, hands={0: {"red": 2}})
    assert_refused(s, "claim R025 red2", "USA-CLAIM-1")       # half of a 4-route is not a claim
    assert s.claims[USA.route("R025").index] == FREE


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_USA_CLAIM_7_one_player_never_claims_both_of_a_double_route(n):
    s = position(n, hands={0: {"yellow": 4, L: 4}}, claims={"R004": 0})     # Atlanta–New Orleans orange/yellow
    assert_refused(s, "claim R005 yellow4", {"USA-CLAIM-7"} if n >= 4 else {"USA-CLAIM-7", "USA-CLAIM-8"})
    assert_refused(s, "claim R005 loco4", {"USA-CLAIM-7"} if n >= 4 else {"USA-CLAIM-7", "USA-CLAIM-8"})
    assert not any(b.startswith("claim R005") for b in legal_bodies(s))


@pytest.mark.parametrize("n", [4, 5])
def test_USA_CLAIM_7_with_four_or_five_the_twin_is_open_to_another_player(n):
    s = position(n, current=1, hands={1: {"yellow": 4}}, claims={"R004": 0})
    assert "claim R005 yellow4" in legal_bodies(s)
    s2 = apply(s, "claim R005 yellow4")
    assert s2.claims[USA.route("R004").index] == 0 and s2.claims[USA.route("R005").index] == 1
    assert validate(s2) == []
    # gray double Atlanta–Raleigh: R006 owned by seat 3, seat 2 takes R007
    s3 = position(n, current=2, hands={2: {"black": 2}}, claims={"R006": 3})
    s3 = apply(s3, "claim R007 black2")
    assert s3.claims[USA.route("R006").index] == 3 and s3.claims[USA.route("R007").index] == 2
    assert validate(s3) == []


@pytest.mark.parametrize("n", [2, 3])
def test_USA_CLAIM_8_with_two_or_three_the_twin_is_closed_to_everybody(n):
    """L78: "När det endast är 2 eller 3 spelare i ett spel, får endast en av de två rutterna användas." """
    s = position(n, current=1, hands={1: {"yellow": 4, "red": 2, L: 2}}, claims={"R004": 0})
    err = assert_refused(s, "claim R005 yellow4", "USA-CLAIM-8")
    assert "Atlanta–New Orleans (orange)" in str(err) and "R004" not in str(err)     # R004: the orange twin
    assert not any(b.startswith("claim R005") for b in legal_bodies(s))
    # gray double Atlanta–Raleigh: once R006 is taken by seat 1 ...
    s2 = apply(s, "claim R006 red2")
    s2 = play_turn(s2) if n == 2 else play_turn(play_turn(s2))
    assert s2.current == 1
    assert_refused(s2, "claim R007 loco2", {"USA-CLAIM-7", "USA-CLAIM-8"})            # ... not for seat 1 ...
    s0 = position(n, current=0, hands={0: {"red": 2}}, claims={"R006": 1})
    assert_refused(s0, "claim R007 red2", "USA-CLAIM-8")                              # ... nor for anyone else


@pytest.mark.parametrize("n", [2, 3])
def test_USA_CLAIM_8_either_route_of_a_free_double_may_be_chosen(n):
    """L78: "En spelare kan dock välja vilken av rutterna han vill bebygga." """
    s = position(n, hands={0: {"yellow": 4, "orange": 4}})
    assert {"claim R004 orange4", "claim R005 yellow4"} <= legal_bodies(s)
    for rid, pay in (("R004", "orange4"), ("R005", "yellow4")):
        s2 = apply(s, f"claim {rid} {pay}")
        assert s2.claims[USA.route(rid).index] == 0 and validate(s2) == []


def test_USA_CLAIM_8_closed_route_stays_closed_for_the_rest_of_the_game():
    # 3 players, seat 2 owns R093 (Raleigh–Washington); everyone holds 2 red cards for R094 all game long
    s = position(3, hands={0: {"red": 2}, 1: {"red": 2}, 2: {"red": 2}}, claims={"R093": 2})
    for _ in range(6):                                     # two full rounds
        seat = s.current
        assert_refused(s, "claim R094 red2", {"USA-CLAIM-8"} if seat != 2 else {"USA-CLAIM-7", "USA-CLAIM-8"})
        s = play_turn(s)
    assert s.claims[USA.route("R094").index] == FREE


@pytest.mark.parametrize("rid,length,points", [("R003", 1, 1), ("R001", 2, 2), ("R018", 3, 4), ("R025", 4, 7),
                                               ("R051", 5, 10), ("R071", 6, 15)])
def test_USA_CLAIM_9_route_points_table(rid, length, points):
    r = USA.route(rid)
    assert r.length == length
    s = position(2, hands={0: {"red": length}}, claims={"R088": 0})   # already 15 points
    s2, evs = step(s, f"claim {rid} red{length}")
    assert s2.players[0].route_points == 15 + points
    assert [e.rule for e in events_of(evs, "claim")] == ["USA-CLAIM-9"]
    assert score(s2).players[0].route_points == 15 + points


# =============================================================================================================
# Destination tickets (USA-TICKET)

def test_USA_TICKET_1_three_from_the_top():
    deck = ["T05", "T09", "T01"] + [t for t in ALL_T if t not in ("T05", "T09", "T01")]
    s = position(2, ticket_deck=deck)
    s2 = apply(s, "tickets")
    (p,) = s2.pending
    assert p.kind == "choose_tickets" and p.seat == 0 and p.get("offered") == ("T05", "T09", "T01")
    assert s2.ticket_deck("regular") == tuple(deck[3:])
    assert to_move(s2) == (0,) and validate(s2) == []


@pytest.mark.parametrize("left", [1, 2])
def test_USA_TICKET_1_fewer_than_three_when_the_deck_is_short(left):
    """L94: "Om det inte finns 3 kort i högen får spelaren dra de kort som finns." """
    deck = ALL_T[:left]
    s = position(2, ticket_deck=deck, tickets={1: ALL_T[left:]})
    s2 = apply(s, "tickets")
    assert s2.pending[0].get("offered") == tuple(deck) and s2.ticket_deck("regular") == ()
    s3 = apply(s2, f"keep {deck[0]}")                               # keeping one is enough (and a lone one is forced)
    assert s3.players[0].tickets == (deck[0],) and s3.ticket_deck("regular") == tuple(deck[1:])
    assert s3.current == 1


def test_USA_TICKET_1_refused_when_the_ticket_deck_is_empty():
    s = position(2, ticket_deck=[], tickets={0: ALL_T[:10], 1: ALL_T[10:]})
    err = assert_refused(s, "tickets", "USA-TICKET-1")
    assert "empty" in str(err)
    assert "tickets" not in legal_bodies(s)


def test_USA_TICKET_2_keep_at_least_one_returns_go_to_the_bottom_in_order():
    deck = ["T05", "T09", "T01"] + [t for t in ALL_T if t not in ("T05", "T09", "T01")]
    s = apply(position(2, ticket_deck=deck), "tickets")
    assert_refused(s, KeepTickets(tickets=(), seat=0), "USA-TICKET-2")
    assert_refused(s, "keep T02", "USA-TICKET-2")                      # not offered
    assert {b for b in legal_bodies(s)} == {"keep T05 T09 T01", "keep T05 T09", "keep T05 T01", "keep T09 T01",
                                            "keep T05", "keep T09", "keep T01"}
    s2, evs = step(s, "keep T09")
    assert s2.players[0].tickets == ("T09",)
    assert s2.ticket_deck("regular") == tuple(deck[3:]) + ("T05", "T01")     # bottom, in the order drawn
    assert [e.rule for e in events_of(evs, "tickets_returned")] == ["USA-TICKET-2"]
    assert s2.current == 1 and s2.pending == ()


def test_USA_TICKET_2_keeping_all_three_returns_nothing():
    s = apply(position(2), "tickets")
    offered = s.pending[0].get("offered")
    s2 = apply(s, "keep " + " ".join(reversed(offered)))
    assert set(s2.players[0].tickets) == set(offered) and len(s2.ticket_deck("regular")) == 27


def test_USA_TICKET_3_any_number_kept_until_the_end_and_secret():
    s = position(2, tickets={0: ALL_T[:12]}, ticket_deck=ALL_T[12:])
    s = apply(apply(s, "tickets"), "keep T13")
    assert len(s.players[0].tickets) == 13 and s.players[0].tickets[:12] == tuple(ALL_T[:12])
    # tickets are never given back later: a new draw offers only new tickets
    s = play_turn(s)                                          # seat 1
    s = apply(s, "tickets")
    assert not set(s.pending[0].get("offered")) & set(ALL_T[:13])
    # kept tickets are hidden from the other seats
    view = observe(s, 1)
    assert "tickets" not in view["players"][0] and view["players"][0]["ticket_count"] == 13
    assert all(t not in json.dumps(view) for t in ALL_T[:13])


def test_USA_TICKET_3_offered_tickets_are_hidden_from_the_other_seats():
    """Drawn tickets are secret like kept ones (L98 "Biljettkorten förvaras gömda för de andra spelarna"): no
    part of another seat's observation — including its status line — may name them."""
    s = apply(position(3, ticket_deck=["T05", "T09", "T01"] + ALL_T[1:4] + ALL_T[5:8] + ALL_T[9:]), "tickets")
    for viewer in (1, 2):
        text = json.dumps(observe(s, viewer))
        leaked = [t for t in ("T05", "T09", "T01") if t in text]
        assert not leaked, f"seat {viewer} sees {leaked} offered to seat 0: {observe(s, viewer)['status']!r}"
    assert "T05" in json.dumps(observe(s, 0))


def test_USA_TICKET_4_connected_ticket_adds_its_points_else_subtracts():
    # T01 Denver–El Paso (4): Denver–Santa Fe (R039) + Santa Fe–El Paso (R050)
    done = position(2, claims={"R039": 0, "R050": 0}, tickets={0: ["T01"], 1: ["T02"]}, phase="over")
    sheet = score(done)
    t = sheet.players[0].tickets[0]
    assert t.completed and t.value == 4 and set(t.path) == {"R039", "R050"}
    assert sheet.players[0].total == 2 + 2 + 4 + 10
    t2 = sheet.players[1].tickets[0]                      # T02 Kansas City–Houston (5), no routes
    assert not t2.completed and t2.value == -5 and sheet.players[1].total == -5


def test_USA_TICKET_4_only_the_players_own_routes_count():
    # Denver–Santa Fe is seat 1's: seat 0's two routes do not connect Denver to El Paso
    s = position(2, claims={"R039": 1, "R050": 0, "R031": 0}, tickets={0: ["T01"]}, phase="over")
    t = score(s).players[0].tickets[0]
    assert not t.completed and t.value == -4


def test_USA_TICKET_4_long_path_through_several_routes():
    # T12 Seattle–Los Angeles (9): Seattle–Portland–San Francisco–Los Angeles
    s = position(2, claims={"R091": 0, "R089": 0, "R069": 0}, tickets={0: ["T12"]}, phase="over")
    t = score(s).players[0].tickets[0]
    assert t.completed and t.points == 9
    cities = {"Seattle"}
    for rid in t.path:
        r = USA.route(rid)
        assert r.a in cities or r.b in cities
        cities |= {r.a, r.b}
    assert "Los Angeles" in cities


# =============================================================================================================
# End of the game (USA-END)

def _trigger(n, seat, first_player=0):
    """Seat ``seat`` to move with 4 trains and 2 red cards; claiming R039 (2) leaves it 2 trains."""
    s = position(n, current=seat, hands={seat: {"red": 2}}, trains={seat: 4}, avoid=["R039"],
                 first_player=first_player)
    s2, evs = step(s, "claim R039 red2")
    return s2, evs


@pytest.mark.parametrize("n,seat", [(2, 0), (3, 1), (4, 1), (5, 2), (5, 4)])
def test_USA_END_1_every_player_trigger_included_gets_exactly_one_final_turn(n, seat):
    s, evs = _trigger(n, seat)
    assert s.players[seat].trains == 2
    assert s.phase == "last_round" and [e.rule for e in events_of(evs, "final_round")] == ["USA-END-1"]
    order = []
    for _ in range(n):
        assert s.phase == "last_round"
        order.append(s.current)
        s = play_turn(s)
    assert order == [(seat + k) % n for k in range(1, n + 1)]      # the trigger seat plays last
    assert s.phase == "over" and to_move(s) == () and legal_actions(s) == []
    assert_refused(s, "draw deck", "USA-END-1")
    assert score(s).final and validate(s) == []


def test_USA_END_1_more_than_two_trains_left_does_not_trigger():
    s = position(3, hands={0: {"red": 2}}, trains={0: 5}, avoid=["R039"])
    s2 = apply(s, "claim R039 red2")
    assert s2.players[0].trains == 3 and s2.phase == "play" and s2.final_turns_left == -1


def test_USA_END_1_zero_trains_also_triggers():
    s = position(2, hands={0: {"red": 3}}, trains={0: 3}, avoid=["R018"])
    s2 = apply(s, "claim R018 red3")
    assert s2.players[0].trains == 0 and s2.phase == "last_round"
    s2 = play_turn(s2)                                  # seat 1
    assert s2.phase == "last_round" and s2.current == 0
    s2 = apply(s2, "tickets")                           # the trigger seat's final turn (no trains: tickets)
    assert s2.phase == "last_round"                      # the turn is not over until the choice
    s2 = apply(s2, "keep " + s2.pending[0].get("offered")[0])
    assert s2.phase == "over"


def test_USA_END_1_trigger_fires_once():
    """L102 "...spela en gång till. Spelet avslutas därefter": a second player dropping to ≤ 2 in the final
    round does not extend the game."""
    s = position(4, current=1, hands={1: {"red": 2}, 2: {"blue": 2}}, trains={1: 4, 2: 4}, avoid=["R039", "R050"])
    s = apply(s, "claim R039 red2")                 # seat 1 triggers
    s = apply(s, "claim R050 blue2")                # seat 2 also drops to 2 in the final round
    assert s.players[2].trains == 2 and s.phase == "last_round"
    s = play_turn(s)                                # seat 3
    s = play_turn(s)                                # seat 0
    s = play_turn(s)                                # seat 1: its final turn
    assert s.phase == "over"


def test_USA_END_1_first_player_does_not_matter():
    s, _ = _trigger(4, 0, first_player=2)
    for expected in (1, 2, 3, 0):
        assert s.current == expected and s.phase == "last_round"
        s = play_turn(s)
    assert s.phase == "over"


# =============================================================================================================
# Final scoring (USA-SCORE)

def test_USA_SCORE_1_route_points_recounted_from_the_board():
    s = position(3, hands={0: {"red": 10}}, claims={"R071": 1, "R003": 1, "R052": 2})
    s = apply(s, "claim R025 red4")
    sheet = score(s)
    assert [p.route_points for p in sheet.players] == [7, 16, 4]
    assert [p.route_points for p in sheet.players] == [p.route_points for p in s.players]
    assert set(sheet.players[1].routes) == {"R071", "R003"}
    assert not sheet.final


def test_USA_SCORE_2_completed_plus_uncompleted_minus():
    # seat 0: T01 (4) completed, T13 Duluth–El Paso (10) not
    s = position(2, claims={"R039": 0, "R050": 0}, tickets={0: ["T01", "T13"]}, phase="over")
    p = score(s).players[0]
    assert [t.value for t in p.tickets] == [4, -10]
    assert p.ticket_points == -6 and p.completed == 1
    assert p.total == 4 + (-6) + 10


def test_USA_SCORE_3_loop_with_a_tail_revisits_a_city():
    """Loop Dallas–Houston–New Orleans–Little Rock–Dallas (1+2+3+2) plus the tail El Paso–Dallas (4): the trail
    El Paso→Dallas→…→Dallas uses every route and passes Dallas twice: 12 (a simple path gives only 11)."""
    routes = {"R026": 0, "R055": 0, "R065": 0, "R028": 0, "R025": 0}
    s = position(2, claims=routes, phase="over")
    p = score(s).players[0]
    assert p.longest.length == 12 and set(p.longest.routes) == set(routes)
    assert p.longest.cities.count("Dallas") == 2
    assert_trail_valid(p.longest, owned(s, 0))
    assert p.longest_bonus == 10


def test_USA_SCORE_3_figure_eight_uses_every_route():
    """Two loops through Dallas: D–Houston–New Orleans–Little Rock–D (8) and D–Oklahoma City–El Paso–D (11)."""
    routes = {"R026": 0, "R055": 0, "R065": 0, "R028": 0, "R029": 0, "R048": 0, "R025": 0}
    s = position(2, claims=routes, phase="over")
    trail = score(s).players[0].longest
    assert trail.length == 19 and set(trail.routes) == set(routes)
    assert trail.cities[0] == trail.cities[-1]                 # a closed trail
    assert trail.cities.count("Dallas") == 3 - (trail.cities[0] != "Dallas")
    assert_trail_valid(trail, owned(s, 0))


def test_USA_SCORE_3_branching_network_counts_only_one_trail():
    # star at Denver: Helena (4), Omaha (4), Phoenix (5), Santa Fe (2): best = Phoenix–Denver–Helena/Omaha = 9
    s = position(2, claims={"R031": 0, "R035": 0, "R036": 0, "R039": 0}, phase="over")
    trail = score(s).players[0].longest
    assert trail.length == 9 and len(trail.routes) == 2 and "R036" in trail.routes
    assert_trail_valid(trail, owned(s, 0))


def test_USA_SCORE_3_length_counts_trains_not_routes():
    # seat 0: one 6-route; seat 1: three routes of 1+1+3 = 5 trains
    s = position(2, claims={"R071": 0, "R091": 1, "R099": 1, "R014": 1}, phase="over")
    sheet = score(s)
    assert [p.longest.length for p in sheet.players] == [6, 5]
    assert len(sheet.players[1].longest.routes) == 3
    assert [p.longest_bonus for p in sheet.players] == [10, 0]
    for p in sheet.players:
        assert_trail_valid(p.longest, owned(s, p.seat))


def test_USA_SCORE_3_tied_longest_paths_all_get_10():
    s = position(3, claims={"R071": 0, "R047": 1, "R014": 2}, phase="over")     # 6, 6, 3
    sheet = score(s)
    assert [p.longest.length for p in sheet.players] == [6, 6, 3]
    assert [p.longest_bonus for p in sheet.players] == [10, 10, 0]
    assert [p.total for p in sheet.players] == [25, 25, 4]


def test_USA_SCORE_3_separate_networks_are_not_added():
    s = position(2, claims={"R071": 0, "R047": 0, "R003": 1}, phase="over")   # Miami–N.O. and El Paso–L.A.
    assert score(s).players[0].longest.length == 6


def test_USA_SCORE_3_nobody_with_routes_gets_no_bonus():
    s = position(2, phase="over")
    assert [p.longest_bonus for p in score(s).players] == [0, 0]


def test_USA_SCORE_3_trail_on_abstract_graphs():
    # figure-eight of two triangles sharing X, every edge 1: 6
    e8 = [("X", "A", 1, "a"), ("A", "B", 1, "b"), ("B", "X", 1, "c"),
          ("X", "C", 1, "d"), ("C", "D", 1, "e"), ("D", "X", 1, "f")]
    assert longest_trail(e8).length == 6
    # parallel routes are two edges (a loop of two): 3 + 3 + tail 2
    par = [("A", "B", 3, "p"), ("A", "B", 3, "q"), ("B", "C", 2, "r")]
    assert longest_trail(par).length == 8
    # a "theta" (three paths between X and Y, X and Y odd): one trail uses all of them, crossing X and Y twice
    theta = [("X", "Y", 5, "t1"), ("X", "M", 2, "t2"), ("M", "Y", 2, "t3"), ("X", "Y", 3, "t4")]
    assert longest_trail(theta).length == 12
    # K4 with unit routes: four odd cities, so one route must be left out: 5
    k4 = [("A", "B", 1, "k1"), ("A", "C", 1, "k2"), ("A", "D", 1, "k3"), ("B", "C", 1, "k4"), ("B", "D", 1, "k5"),
          ("C", "D", 1, "k6")]
    assert longest_trail(k4).length == 5
    # a star with arms 6, 5, 4: only two arms: 11
    star = [("C", "P", 6, "s1"), ("C", "Q", 5, "s2"), ("C", "R", 4, "s3")]
    assert longest_trail(star).length == 11
    # the order of the input does not matter
    assert longest_trail(list(reversed(e8))) == longest_trail(e8)


def _brute_trail(edges):
    adj = {}
    for i, (a, b, w, _) in enumerate(edges):
        adj.setdefault(a, []).append((i, b))
        adj.setdefault(b, []).append((i, a))
    best = 0

    def walk(v, used, total):
        nonlocal best
        best = max(best, total)
        for i, u in adj[v]:
            if not used >> i & 1:
                walk(u, used | 1 << i, total + edges[i][2])

    for v in adj:
        walk(v, 0, 0)
    return best


def test_USA_SCORE_3_trail_matches_brute_force_on_random_multigraphs():
    rng = random.Random(20240601)
    for _ in range(250):
        n = rng.randint(3, 6)
        edges = []
        for i in range(rng.randint(1, 8)):
            a, b = rng.sample(range(n), 2)
            edges.append((f"C{a}", f"C{b}", rng.randint(1, 6), f"R{i}"))
        t = longest_trail(edges)
        assert t.length == _brute_trail(edges), edges
        by_id = {e[3]: e for e in edges}
        assert len(set(t.routes)) == len(t.routes)
        for i, rid in enumerate(t.routes):
            a, b, _, _ = by_id[rid]
            assert {a, b} == {t.cities[i], t.cities[i + 1]}
        assert sum(by_id[r][2] for r in t.routes) == t.length


def test_USA_SCORE_4_most_points_wins():
    s = position(3, claims={"R071": 0, "R047": 1, "R036": 1}, phase="over")
    sheet = score(s)
    assert sheet.winners == (1,)
    assert "most points" in sheet.decided_by and "USA-SCORE-4" in sheet.decided_by


def test_USA_SCORE_4_tie_on_points_most_completed_tickets_wins_over_the_bonus_holder():
    # seat 0: R039+R050 (4 points) + T01 completed (+4) = 8, trail 4
    # seat 1: R068+R049 (8 points), trail 6 -> bonus 10, T13 failed (-10) = 8, 0 completed
    s = position(2, claims={"R039": 0, "R050": 0, "R068": 1, "R049": 1}, tickets={0: ["T01"], 1: ["T13"]},
                 phase="over")
    sheet = score(s)
    assert [p.total for p in sheet.players] == [8, 8]
    assert [p.longest_bonus for p in sheet.players] == [0, 10]
    assert sheet.winners == (0,)
    assert "tickets" in sheet.decided_by and "USA-SCORE-4" in sheet.decided_by
    assert "longest" not in sheet.decided_by


def test_USA_SCORE_4_still_tied_the_longest_path_bonus_decides():
    # seat 0: R068+R049 (8) + bonus 10 - T13 (10) = 8, 0 completed; seat 1: R052+R076 (4+4) = 8, 0 completed
    s = position(2, claims={"R068": 0, "R049": 0, "R052": 1, "R076": 1}, tickets={0: ["T13"]}, phase="over")
    sheet = score(s)
    assert [p.total for p in sheet.players] == [8, 8]
    assert [p.completed for p in sheet.players] == [0, 0]
    assert sheet.winners == (0,)
    assert "tickets" in sheet.decided_by and "longest" in sheet.decided_by and "USA-SCORE-4" in sheet.decided_by


def test_USA_SCORE_4_three_way_tie_broken_in_two_steps():
    # seat 0: R052+R076 = 8 points, trail 3, no ticket
    # seat 1: R039+R050 = 4 points + T01 (+4) = 8, trail 4, 1 ticket
    # seat 2: Kansas City–Oklahoma City–Dallas–Houston (2+2+1 = 5 points, trail 5 -> bonus 10),
    #         T02 Kansas City–Houston (+5) completed, T19 Boston–Miami (-12) not: 5 + 10 + 5 - 12 = 8, 1 ticket
    s = position(3, claims={"R052": 0, "R076": 0, "R039": 1, "R050": 1, "R056": 2, "R029": 2, "R026": 2},
                 tickets={1: ["T01"], 2: ["T02", "T19"]}, phase="over")
    sheet = score(s)
    assert [p.total for p in sheet.players] == [8, 8, 8]
    assert [p.completed for p in sheet.players] == [0, 1, 1]
    assert [p.longest_bonus for p in sheet.players] == [0, 0, 10]
    assert sheet.winners == (2,)
    assert "tickets" in sheet.decided_by and "longest" in sheet.decided_by and "USA-SCORE-4" in sheet.decided_by


def test_USA_SCORE_4_tie_on_everything_is_shared():
    s = position(2, claims={"R071": 0, "R047": 1}, phase="over")       # 15 + 10 each
    sheet = score(s)
    assert [p.total for p in sheet.players] == [25, 25]
    assert sheet.winners == (0, 1)
    assert "USA-SCORE-4" in sheet.decided_by and "shared" in sheet.decided_by
    assert "tickets" in sheet.decided_by and "longest" in sheet.decided_by
