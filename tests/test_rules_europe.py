"""Ticket to Ride Europe: one scenario test (at least) per rule id of docs/rules/europe.md (EU-*), plus
tunnel odds against an exact enumeration, station borrowing against a brute force, and a quick contract run.

Positions are built from a real game by moving cards and tickets (never by inventing them), so every position
passes ``validate`` — the helpers below assert that.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from fractions import Fraction
from itertools import combinations, product
from pathlib import Path

import pytest

from ttr_nb.board.actions import Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, parse_action
from ttr_nb.bots import GreedyBot, RandomBot
from ttr_nb.board.cards import CARD_ALIASES, CARD_NAMES, LOCO
from ttr_nb.board.engine import (apply, describe, explain, legal_actions, new_game, observe, route_payments, step,
                           to_move, turn_status, validate)
from ttr_nb.errors import BadAction, IllegalAction, TTRError
from ttr_nb.europe import (BuildStation, TunnelPay, TunnelWithdraw, best_borrowing, station_candidates,
                           tunnel_extra, tunnel_odds)
from ttr_nb.board.scoring import owned_edges, score, ticket_results
from ttr_nb.board.state import FREE, GameState, pairs_set, replace_fields
from ttr_nb.variants import get_variant

EU = get_variant("europe")
M = EU.map
RULES = Path(__file__).resolve().parents[1] / "docs" / "rules" / "europe.md"


# ---------------------------------------------------------------------------------------------
# position helpers: everything is moved from somewhere, so card and ticket conservation hold

def k(name: str) -> int:
    return CARD_ALIASES[name]


def ok(state: GameState) -> GameState:
    assert validate(state) == [], validate(state)
    return state


def started(players: int = 2, seed: int = 1, first: int = 0) -> GameState:
    """A game just past setup: every seat kept its first two offered tickets."""
    s = new_game("europe", players, seed, first_player=first)
    for p in s.pending:
        s = apply(s, KeepTickets(tickets=p.get("offered")[:2], seat=p.seat))
    return ok(s)


def set_hand(s: GameState, seat: int, **cards: int) -> GameState:
    """Give ``seat`` exactly these cards: its old hand goes to the deck bottom, the new one comes from the deck bottom
    (so the top of the deck stays as it was)."""
    deck = list(s.deck)
    for kind, n in enumerate(s.players[seat].hand):
        deck += [kind] * n
    hand = [0] * EU.card_kinds
    for name, n in cards.items():
        for _ in range(n):
            i = len(deck) - 1 - deck[::-1].index(k(name))
            del deck[i]
            hand[k(name)] += 1
    players = list(s.players)
    players[seat] = replace_fields(players[seat], hand=tuple(hand))
    return ok(replace_fields(s, deck=tuple(deck), players=tuple(players)))


def stack(s: GameState, *names: str) -> GameState:
    """Put these cards on top of the deck, in this order (taken from further down the deck)."""
    deck = list(s.deck)
    top = []
    for name in names:
        top.append(deck.pop(deck.index(k(name))))
    return ok(replace_fields(s, deck=tuple(top + deck)))


def shorten(s: GameState, deck_left: int, discard: dict[str, int] | None = None, sink: int = 1) -> GameState:
    """Keep only the top ``deck_left`` cards in the deck; the discard pile becomes ``discard``; every other card goes
    to seat ``sink``'s hand (a hoarding opponent)."""
    deck = list(s.deck)
    pile = list(s.discard)
    hand = list(s.players[sink].hand)
    for kind, n in enumerate(pile):
        hand[kind] += n
    pile = [0] * EU.card_kinds
    for c in deck[deck_left:]:
        hand[c] += 1
    deck = deck[:deck_left]
    for name, n in (discard or {}).items():
        assert hand[k(name)] >= n
        hand[k(name)] -= n
        pile[k(name)] += n
    players = list(s.players)
    players[sink] = replace_fields(players[sink], hand=tuple(hand))
    return ok(replace_fields(s, deck=tuple(deck), discard=tuple(pile), players=tuple(players)))


def own(s: GameState, seat: int, *route_ids: str) -> GameState:
    """``seat`` has claimed these routes (trains placed, points scored)."""
    claims = list(s.claims)
    p = s.players[seat]
    trains, points = p.trains, p.route_points
    for rid in route_ids:
        r = M.route(rid)
        assert claims[r.index] == FREE
        claims[r.index] = seat
        trains -= r.length
        points += EU.route_points(r.length)
    players = list(s.players)
    players[seat] = replace_fields(p, trains=trains, route_points=points)
    return ok(replace_fields(s, claims=tuple(claims), players=tuple(players)))


def set_tickets(s: GameState, seat: int, *ticket_ids: str) -> GameState:
    """``seat`` holds exactly these tickets: taken from wherever they are; its old tickets leave the game."""
    want = set(ticket_ids)
    decks = tuple((name, tuple(t for t in ids if t not in want)) for name, ids in s.ticket_decks)
    out = [t for t in s.tickets_out if t not in want] + [t for t in s.players[seat].tickets if t not in want]
    players = [replace_fields(p, tickets=tuple(t for t in p.tickets if t not in want)) for p in s.players]
    players[seat] = replace_fields(players[seat], tickets=tuple(ticket_ids))
    return ok(replace_fields(s, ticket_decks=decks, tickets_out=tuple(out), players=tuple(players)))


def set_stations(s: GameState, seat: int, *cities: str) -> GameState:
    players = list(s.players)
    players[seat] = replace_fields(players[seat], ext=pairs_set(players[seat].ext, "stations", tuple(cities)))
    return ok(replace_fields(s, players=tuple(players)))


def refusal(s: GameState, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        apply(s, action)
    assert explain(s, action) is not None
    return info.value


def go(s: GameState, action) -> tuple[GameState, list]:
    s2, events = step(s, action)
    return ok(s2), events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def player_score(s: GameState, seat: int):
    return score(s).players[seat]


# ---------------------------------------------------------------------------------------------
# every rule id has a test

def test_every_rule_id_has_a_test():
    ids = sorted(set(re.findall(r"\bEU-[A-Z]+-\d+\b", RULES.read_text(encoding="utf-8"))))
    assert len(ids) >= 30
    names = [n for n in globals() if n.startswith("test_EU_")]
    missing = [i for i in ids if not any(n.startswith("test_" + i.replace("-", "_") + "_") for n in names)]
    assert missing == []


# ---------------------------------------------------------------------------------------------
# components

def test_EU_COMP_1_board_of_1901_lengths_1_to_8_without_5_and_7():
    names = {c.name for c in M.cities}
    assert {"Angora", "Constantinople", "Smyrna", "Petrograd", "Kobenhavn"} <= names
    assert {r.length for r in M.routes} == {1, 2, 3, 4, 6, 8}
    assert all(EU.route_points(r.length) > 0 for r in M.routes)     # every length is in the table (F-EU-12)


def test_EU_COMP_2_45_trains_and_3_stations_each():
    s = started(5)
    assert all(p.trains == 45 for p in s.players)
    view = observe(s, 0)
    assert [e["stations_left"] for e in view["players"]] == [3] * 5
    assert [e["stations"] for e in view["players"]] == [[]] * 5


def test_EU_COMP_3_110_train_cards():
    counts = dict(zip(CARD_NAMES, EU.deck_counts))
    assert counts.pop("locomotive") == 14
    assert set(counts.values()) == {12} and len(counts) == 8
    assert sum(EU.deck_counts) == 110


def test_EU_COMP_4_46_tickets_6_long_and_the_express_bonus():
    decks = Counter(t.deck for t in M.tickets)
    assert decks == {"regular": 40, "long": 6}
    assert EU.settings.longest_bonus == 10


# ---------------------------------------------------------------------------------------------
# setup

@pytest.mark.parametrize("players", [2, 5])
def test_EU_SETUP_1_four_cards_each_and_five_face_up(players):
    s = new_game("europe", players, 3)
    assert [p.hand_size for p in s.players] == [4] * players
    assert len(s.market) == 5 and None not in s.market
    assert sum(1 for c in s.market if c == LOCO) < 3           # USA-DRAW-6 applies (EU-SETUP-1)
    assert ok(s).phase == "setup"


def test_EU_SETUP_2_one_long_ticket_each_the_rest_out_of_the_game():
    s = new_game("europe", 4, 11)
    longs = {t.id for t in M.tickets if t.deck == "long"}
    for p in s.pending:
        offered = p.get("offered")
        assert [M.ticket(t).deck for t in offered] == ["long", "regular", "regular", "regular"]
    dealt = {p.get("offered")[0] for p in s.pending}
    assert set(s.tickets_out) == longs - dealt                  # back in the box, unseen
    assert s.ticket_deck("long") == ()
    view = observe(s, 0)
    assert view["tickets_out_count"] == 2 and "T4" not in str(view.get("tickets_out", ""))
    ok(s)


def test_EU_SETUP_3_three_regular_tickets_each_the_rest_form_the_deck():
    s = new_game("europe", 3, 2)
    assert len(s.ticket_deck("regular")) == 40 - 3 * 3
    assert all(M.ticket(t).deck == "regular" for t in s.ticket_deck("regular"))


def test_EU_SETUP_4_keep_at_least_two_returns_leave_the_game():
    s = new_game("europe", 2, 4)
    offered = s.pending_for(0).get("offered")
    e = refusal(s, KeepTickets(tickets=offered[:1], seat=0))
    assert e.rule == "EU-SETUP-4/USA-SETUP-3"
    # any mix: two regular tickets, the long one returned
    s2, events = go(s, KeepTickets(tickets=offered[1:3], seat=0))
    assert s2.players[0].tickets == offered[1:3]
    assert {offered[0], offered[3]} <= set(s2.tickets_out)
    assert offered[3] not in s2.ticket_deck("regular")
    assert "out of the game" in str(events[0]) and "EU-SETUP-4" in str(events[0])
    assert "at least 2" in turn_status(s)
    # keeping all four is allowed too
    s3, _ = go(s2, KeepTickets(tickets=s2.pending_for(1).get("offered"), seat=1))
    assert len(s3.players[1].tickets) == 4 and s3.phase == "play"


def test_EU_SETUP_5_the_chosen_first_player_starts():
    s = started(4, seed=9, first=2)
    assert s.current == 2 and to_move(s) == (2,)
    assert turn_status(s).startswith("Green to play")


# ---------------------------------------------------------------------------------------------
# turns, drawing, claiming, tickets

def test_EU_TURN_1_exactly_one_action_a_station_is_a_whole_turn():
    s = set_hand(started(2), 0, red=2, blue=1)
    acts = legal_actions(s)
    assert {type(a).__name__ for a in acts} == {"DrawDeck", "DrawFaceUp", "Claim", "DrawTickets", "BuildStation"}
    assert "build a train station" in turn_status(s) and "EU-TURN-1" in turn_status(s)
    s2, events = go(s, "station Wien red1")
    assert s2.current == 1 and not s2.pending and "station" in kinds(events)
    e = refusal(s2, Claim(route="R012", payment=((k("yellow"), 2),), seat=0))
    assert e.rule == "EU-TURN-1/USA-TURN-1"
    # mid-draw, a station is not allowed either
    s3, _ = go(s, DrawDeck())
    assert refusal(s3, "station Wien red1").rule == "EU-DRAW-1/USA-DRAW-1"


def test_EU_DRAW_1_a_face_up_locomotive_is_not_a_second_card():
    s = started(2)
    # put a locomotive face up in slot 1 (swap with a deck card), then draw blind first
    deck = list(s.deck)
    market = list(s.market)
    i = deck.index(LOCO)
    deck[i], market[0] = market[0], LOCO
    s = ok(replace_fields(s, deck=tuple(deck), market=tuple(market)))
    s2, _ = go(s, DrawDeck())
    assert refusal(s2, DrawFaceUp(slot=1)).rule == "EU-DRAW-1/USA-DRAW-4"
    s3, events = go(s, DrawFaceUp(slot=1))
    assert s3.current == 1 and "one_card" in kinds(events)


def test_EU_CLAIM_1_colour_and_double_routes_as_usa():
    s = set_hand(started(2), 0, red=3, black=3)
    e = refusal(s, Claim(route="R017", payment=((k("red"), 3),)))        # Berlin–Frankfurt black with red
    assert e.rule == "EU-CLAIM-1/USA-CLAIM-2"
    s2, _ = go(s, Claim(route="R018", payment=((k("red"), 3),)))        # the red twin
    s2 = set_hand(s2, 1, black=3)
    e = refusal(s2, Claim(route="R017", payment=((k("black"), 3),)))    # 2 players: the twin is closed
    assert e.rule == "EU-CLAIM-1/USA-CLAIM-8"
    # a double route joins the same two cities with the same length; side-by-side routes to other cities are not one
    groups: dict = {}
    for r in M.routes:
        if r.double_group:
            groups.setdefault(r.double_group, set()).add((frozenset(r.cities), r.length))
    assert groups and all(len(g) == 1 for g in groups.values())


def test_EU_CLAIM_2_route_points_1_2_4_7_15_21():
    assert dict(EU.settings.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
    # the only plain 6-route is a tunnel and the other one a ferry: claim the ferry Palermo–Smyrna
    s = set_hand(started(2), 0, red=4, locomotive=2)
    s2, events = go(s, "claim R082 red4+loco2")
    assert s2.players[0].route_points == 15 and s2.players[0].trains == 39
    assert any("15 points" in e.text and e.rule == "EU-CLAIM-2/USA-CLAIM-9" for e in events)


def test_EU_TICKET_1_draw_three_regular_keep_one_returns_to_the_bottom():
    s = started(2)
    deck = s.ticket_deck("regular")
    s2, _ = go(s, DrawTickets())
    offered = s2.pending_for(0).get("offered")
    assert offered == deck[:3] and all(M.ticket(t).deck == "regular" for t in offered)
    assert refusal(s2, KeepTickets(tickets=())).rule == "EU-TICKET-1/USA-TICKET-2"
    assert refusal(s2, "keep").rule == "EU-TICKET-1/USA-TICKET-2"     # the text form reaches the rule too
    s3, events = go(s2, KeepTickets(tickets=offered[:1]))
    assert s3.ticket_deck("regular")[-2:] == offered[1:]
    assert any(e.rule == "EU-TICKET-1/USA-TICKET-2" for e in events)
    # fewer than 3 left: draw what there is
    s4 = set_tickets(s3, 1, *s3.players[1].tickets, *s3.ticket_deck("regular")[:-2])
    assert len(s4.ticket_deck("regular")) == 2
    s5, _ = go(s4, DrawTickets())
    assert len(s5.pending_for(1).get("offered")) == 2


# ---------------------------------------------------------------------------------------------
# ferries

def test_EU_FERRY_1_ferries_are_gray_routes_with_locomotive_symbols():
    ferries = [r for r in M.routes if r.ferry_locos]
    assert ferries and all(r.colour == "gray" for r in ferries)
    assert M.route("R082").ferry_locos == 2 and {M.route("R082").a, M.route("R082").b} == {"Palermo", "Smyrna"}
    assert [EU.route_table.min_locos[r.index] for r in ferries] == [r.ferry_locos for r in ferries]


def test_EU_FERRY_2_palermo_smyrna_takes_two_locomotives_and_four_of_one_colour():
    r = M.route("R082")
    assert route_payments(EU, r, [0, 0, 0, 0, 0, 0, 0, 4, 2]) == [((k("red"), 4), (LOCO, 2))]
    assert route_payments(EU, r, [0, 0, 0, 0, 0, 0, 0, 6, 1]) == []
    assert route_payments(EU, r, [0, 0, 0, 0, 0, 0, 0, 5, 3]) == [((k("red"), 4), (LOCO, 2)), ((k("red"), 3), (LOCO, 3))]
    s = set_hand(started(2), 0, red=6, locomotive=1)
    assert not [a for a in legal_actions(s) if isinstance(a, Claim) and M.route(a.route).id == "R082"]
    e = refusal(s, "claim R082 red6")
    assert e.rule == "EU-FERRY-2" and "2 locomotives" in str(e)
    assert refusal(s, "claim R082 red5+loco1").rule == "EU-FERRY-2"
    s = set_hand(started(2), 0, red=4, locomotive=2)
    assert [str(a) for a in legal_actions(s) if isinstance(a, Claim) and M.route(a.route).id == "R082"] == ["blue: claim Palermo–Smyrna red4+loco2"]
    go(s, "claim R082 red4+loco2")
    # locomotives may stand in for the other spaces too
    s = set_hand(started(2), 0, locomotive=6)
    go(s, "claim R082 loco6")
    # a one-symbol ferry (Dieppe–London) with a mixed payment
    s = set_hand(started(2), 0, green=1, locomotive=1)
    go(s, "claim R048 green1+loco1")
    assert refusal(set_hand(started(2), 0, green=2), "claim R048 green2").rule == "EU-FERRY-2"


# ---------------------------------------------------------------------------------------------
# tunnels

def tunnel_start(hand: dict, top: tuple, players: int = 2) -> GameState:
    return stack(set_hand(started(players), 0, **hand), *top)


def test_EU_TUNNEL_1_the_played_cards_are_committed_first():
    s = tunnel_start({"green": 3}, ("locomotive", "blue", "white"))
    s2, events = go(s, "claim R098 green2")                   # Venezia–Zürich, green tunnel of 2
    assert s2.players[0].hand[k("green")] == 1                  # 2 green lie on the table
    assert s2.pending[0].kind == "tunnel" and s2.pending[0].get("played") == "green2"
    assert refusal(s, "claim R098 green1").rule == "EU-CLAIM-1/USA-CLAIM-1"
    view = observe(s2, 1)                                       # public: the played and the turned-up cards
    assert view["tunnel"] == {"seat": 0, "route": "R098", "played": "green2",
                              "revealed": ["locomotive", "blue", "white"], "extra": 1}


def test_EU_TUNNEL_2_three_cards_turned_up_matching_colour_or_locomotive():
    s = tunnel_start({"black": 5}, ("black", "locomotive", "red"))
    s2, events = go(s, "claim R070 black3")                    # Madrid–Pamplona, black tunnel of 3
    assert len(s2.deck) == len(s.deck) - 3
    p = s2.pending[0]
    assert p.get("extra") == 2 and p.get("revealed") == ("black", "locomotive", "red")
    assert [str(a) for a in legal_actions(s2)] == ["blue: tunnel pay black2", "blue: tunnel withdraw"]
    ev = next(e for e in events if e.kind == "tunnel")
    assert ev.rule == "EU-TUNNEL-2" and "2 more black cards or locomotives" in ev.text
    status = turn_status(s2)
    assert "Madrid–Pamplona" in status and "tunnel pay" in status and "(EU-TUNNEL-2)" in status
    assert refusal(s2, "tunnel pay black1").rule == "EU-TUNNEL-2"
    assert refusal(s2, "tunnel pay red2").rule == "EU-TUNNEL-2"
    assert refusal(s2, "draw deck").rule == "EU-TUNNEL-2"          # the pending step comes first
    assert refusal(s2, "station Wien black1").rule == "EU-TUNNEL-2"
    s3, events = go(s2, "tunnel pay black2")
    assert s3.claims[M.route("R070").index] == 0 and s3.players[0].hand[k("black")] == 0
    assert s3.players[0].trains == 42 and s3.players[0].route_points == 4      # points by length (F-EU-7 d)
    assert s3.discard[k("black")] == s.discard[k("black")] + 5 + 1
    assert kinds(events)[:3] == ["tunnel_paid", "claim", "tunnel_discard"] and s3.current == 1
    assert describe(s2, "tunnel pay black2") == "Blue pays 2 black more and completes the tunnel Madrid–Pamplona (black)"


def test_EU_TUNNEL_2_a_reshuffle_while_turning_up_leaves_the_table_cards_out():
    s = set_hand(started(2), 0, black=3)
    s = shorten(stack(s, "red"), 1, {"black": 2, "blue": 1})  # 1 card in the deck, 3 discarded
    s2, events = go(s, "claim R070 black3")
    assert "reshuffle" in kinds(events)
    revealed = s2.pending[0].get("revealed") if s2.pending else None
    # the played black cards were not reshuffled: the 3 turned-up cards are red + 2 of the 3 discards
    assert revealed is not None and revealed[0] == "red" and len(revealed) == 3
    assert sum(s2.discard) == 0 and len(s2.deck) == 1


def test_EU_TUNNEL_3_locomotives_only_then_only_locomotives_count_and_are_paid():
    s = tunnel_start({"locomotive": 4, "blue": 2}, ("locomotive", "blue", "blue"))
    s2, events = go(s, "claim R078 loco2")                     # München–Venezia, blue tunnel, all locomotives
    assert s2.pending[0].get("extra") == 1                      # the two blue do not count
    assert [str(a) for a in legal_actions(s2)] == ["blue: tunnel pay loco1", "blue: tunnel withdraw"]
    e = refusal(s2, "tunnel pay blue1")
    assert e.rule == "EU-TUNNEL-3" and "locomotives" in str(e)
    assert "(EU-TUNNEL-3)" in turn_status(s2)
    s3, _ = go(s2, "tunnel pay loco1")
    assert s3.players[0].hand[LOCO] == 1
    # all locomotives and no locomotive turned up: free
    s = tunnel_start({"locomotive": 2}, ("blue", "blue", "red"))
    s2, events = go(s, "claim R078 loco2")
    assert not s2.pending and s2.claims[M.route("R078").index] == 0
    assert tunnel_extra(((LOCO, 2),), [k("blue"), LOCO, LOCO]) == 2


def test_EU_TUNNEL_4_withdraw_takes_the_cards_back_and_ends_the_turn():
    s = tunnel_start({"green": 2, "locomotive": 1}, ("green", "red", "blue"))
    s2, _ = go(s, "claim R098 green2")
    assert [str(a) for a in legal_actions(s2)] == ["blue: tunnel pay loco1", "blue: tunnel withdraw"]
    s3, events = go(s2, "tunnel withdraw")                     # allowed although it could pay ("or will not")
    assert s3.players[0].hand == s.players[0].hand
    assert s3.claims[M.route("R098").index] == FREE and s3.current == 1 and not s3.pending
    assert kinds(events) == ["tunnel_withdrawn", "tunnel_discard"]
    assert events[0].rule == "EU-TUNNEL-4"
    # cannot pay: withdraw is the only choice; paying is refused citing EU-TUNNEL-4
    s = tunnel_start({"green": 2}, ("green", "locomotive", "blue"))
    s2, _ = go(s, "claim R098 green2")
    assert [str(a) for a in legal_actions(s2)] == ["blue: tunnel withdraw"]
    assert refusal(s2, "tunnel pay green2").rule == "EU-TUNNEL-4"
    assert refusal(s, "tunnel withdraw").rule == "EU-TUNNEL-2"        # nothing to withdraw from
    assert describe(s2, "tunnel withdraw").startswith("Blue withdraws")


def test_EU_TUNNEL_5_the_turned_up_cards_are_always_discarded():
    for action, hand in (("tunnel pay red1", {"red": 3}), ("tunnel withdraw", {"red": 3})):
        s = tunnel_start(hand, ("red", "blue", "white"))
        s2, _ = go(s, "claim R014 red2")                       # Barcelona–Pamplona, gray tunnel of 2
        s3, _ = go(s2, action)
        for name in ("blue", "white"):
            assert s3.discard[k(name)] == s.discard[k(name)] + 1
        assert s3.discard[k("red")] == s.discard[k("red")] + (4 if action.startswith("tunnel pay") else 1)
    s = tunnel_start({"red": 2}, ("blue", "white", "yellow"))        # nothing matches: claimed at once
    s2, events = go(s, "claim R014 red2")
    assert kinds(events) == ["tunnel", "claim", "tunnel_discard"] and not s2.pending
    assert sum(s2.discard) == sum(s.discard) + 5


@pytest.mark.parametrize("deck_left, discard, revealed", [
    (0, {}, 0),                          # none at all: claimed with no risk
    (1, {}, 1),                          # one card in the deck (a red), nothing to reshuffle
    (0, {"red": 1, "blue": 1}, 2),       # the deck is empty: the 2 discards are reshuffled and turned up
    (1, {"white": 1}, 2),                # one from the deck, one from the reshuffled discard pile
])
def test_EU_TUNNEL_6_short_deck_turns_up_what_there_is(deck_left, discard, revealed):
    s = stack(set_hand(started(2), 0, red=4), "red")
    s = shorten(s, deck_left, discard)
    s2, events = go(s, "claim R014 red2")
    tunnel = next(e for e in events if e.kind == "tunnel")
    if revealed == 0:
        assert not s2.pending and s2.claims[M.route("R014").index] == 0 and s2.current == 1
        assert tunnel.rule == "EU-TUNNEL-6" and "no risk" in tunnel.text
        assert sum(s2.discard) == 2
        return
    assert ("reshuffle" in kinds(events)) == (revealed > deck_left)
    shown = s2.pending[0].get("revealed")
    assert len(shown) == revealed and f"only {revealed} card" in tunnel.text and "EU-TUNNEL-6" in tunnel.text
    assert s2.pending[0].get("extra") == 1 == shown.count("red")
    s3, _ = go(s2, "tunnel pay red1")
    assert s3.claims[M.route("R014").index] == 0 and len(s3.deck) == 0
    assert sum(s3.discard) == 2 + 1 + revealed                  # played + extra + the turned-up cards


def test_EU_TUNNEL_7_example_1_two_red_one_red_turned_up():
    s = tunnel_start({"red": 3}, ("red", "blue", "white"))
    s2, _ = go(s, "claim R014 red2")
    assert s2.pending[0].get("extra") == 1
    assert [str(a) for a in legal_actions(s2)] == ["blue: tunnel pay red1", "blue: tunnel withdraw"]


def test_EU_TUNNEL_7_example_2_two_green_one_locomotive_turned_up():
    s = tunnel_start({"green": 3, "locomotive": 1}, ("locomotive", "blue", "white"))
    s2, _ = go(s, "claim R098 green2")
    assert s2.pending[0].get("extra") == 1
    assert [str(a) for a in legal_actions(s2)] == ["blue: tunnel pay green1", "blue: tunnel pay loco1",
                                                   "blue: tunnel withdraw"]


def test_EU_TUNNEL_7_example_3_two_locomotives_one_locomotive_turned_up():
    s = tunnel_start({"locomotive": 3, "green": 1}, ("locomotive", "blue", "white"))
    s2, _ = go(s, "claim R098 loco2")
    assert s2.pending[0].get("extra") == 1
    assert [str(a) for a in legal_actions(s2)] == ["blue: tunnel pay loco1", "blue: tunnel withdraw"]
    assert refusal(s2, "tunnel pay green1").rule == "EU-TUNNEL-3"


def test_tunnel_pending_state_round_trips_and_validates():
    s = tunnel_start({"black": 5}, ("black", "locomotive", "red"))
    s2, _ = go(s, "claim R070 black3")
    assert GameState.from_dict(s2.to_dict()) == s2
    broken = replace_fields(s2, pending=(replace_fields(s2.pending[0], data=pairs_set(s2.pending[0].data, "extra", 1)),))
    assert any("extra" in p for p in validate(broken))
    lost = replace_fields(s2, pending=(replace_fields(s2.pending[0], data=pairs_set(s2.pending[0].data, "played", "black2")),))
    assert any("black" in p for p in validate(lost))               # a card went missing / illegal payment
    hidden = observe(s2, 1)
    assert "hand" not in hidden["players"][0] and "data" not in hidden["pending"][0]


# ---------------------------------------------------------------------------------------------
# stations

def test_EU_STATION_1_any_city_without_a_station_even_with_every_route_free():
    s = set_hand(started(2), 0, red=1)
    assert all(s.claims[r.index] == FREE for r in M.routes_at("Wien"))
    s2, events = go(s, "station Wien red1")
    assert s2.players[0].get("stations") == ("Wien",)
    s2 = set_hand(s2, 1, blue=1)
    e = refusal(s2, "station Wien blue1")
    assert e.rule == "EU-STATION-1" and "Blue's station" in str(e)
    assert not any(isinstance(a, BuildStation) and a.city == "Wien" for a in legal_actions(s2))
    with pytest.raises(BadAction, match="no city 'Wein'.*Wien"):
        apply(s2, "station Wein blue1")
    s3, _ = go(s2, "station zurich blue1")                     # city names are matched like the map does
    assert s3.players[1].get("stations") == ("Zürich",)
    s3, _ = go(s2, "station Zürich blue1")
    assert s3.players[1].get("stations") == ("Zürich",)
    assert observe(s3, 0)["players"][1]["stations"] == ["Zürich"]


def test_EU_STATION_2_one_per_turn_three_per_game():
    s = set_hand(started(2), 0, red=6, blue=3)
    s, _ = go(s, "station Wien red1")
    assert s.current == 1                                       # the whole turn
    s, _ = go(s, "draw deck")
    s, _ = go(s, "draw deck")
    s, _ = go(s, "station Berlin red2")
    s, _ = go(s, "draw deck")
    s, _ = go(s, "draw deck")
    s, _ = go(s, "station Roma red3")
    s, _ = go(s, "draw deck")
    s, _ = go(s, "draw deck")
    assert s.players[0].get("stations") == ("Wien", "Berlin", "Roma")
    assert not any(isinstance(a, BuildStation) for a in legal_actions(s))
    e = refusal(s, "station Paris blue3")
    assert e.rule == "EU-STATION-2"
    too_many = replace_fields(s, players=(
        replace_fields(s.players[0], ext=pairs_set((), "stations", ("Wien", "Berlin", "Roma", "Paris"))), s.players[1]))
    assert any("EU-STATION-2" in p for p in validate(too_many))
    shared = set_stations(s, 1, "Paris")
    shared = replace_fields(shared, players=(shared.players[0], replace_fields(
        shared.players[1], ext=pairs_set((), "stations", ("Wien",)))))
    assert any("EU-STATION-1" in p for p in validate(shared))


def test_EU_STATION_3_cost_1_2_3_of_one_colour_locomotives_stand_in_discarded():
    s = set_hand(started(2), 0, red=1, blue=2, green=1, locomotive=3)
    first = [str(a) for a in legal_actions(s) if isinstance(a, BuildStation) and a.city == "Wien"]
    assert first == ["blue: station Wien blue1", "blue: station Wien green1", "blue: station Wien red1",
                     "blue: station Wien loco1"]
    assert refusal(s, "station Wien blue2").rule == "EU-STATION-3"
    s1, events = go(s, "station Wien loco1")                   # a locomotive alone is "a card of any colour"
    assert s1.discard[LOCO] == s.discard[LOCO] + 1 and s1.players[0].hand[LOCO] == 2
    assert next(e for e in events if e.kind == "station").rule == "EU-STATION-3"
    s1 = ok(replace_fields(s1, current=0))
    second = [str(a) for a in legal_actions(s1) if isinstance(a, BuildStation) and a.city == "Berlin"]
    assert second == ["blue: station Berlin blue2", "blue: station Berlin blue1+loco1", "blue: station Berlin green1+loco1",
                      "blue: station Berlin red1+loco1", "blue: station Berlin loco2"]
    assert refusal(s1, "station Berlin red1+green1").rule == "EU-STATION-3"
    assert refusal(s1, "station Berlin red1").rule == "EU-STATION-3"
    assert refusal(s1, "station Berlin red2").rule == "EU-STATION-3"       # only one red in hand
    s2, _ = go(s1, "station Berlin red1+loco1")
    s2 = ok(replace_fields(s2, current=0))
    assert refusal(s2, "station Roma blue2").rule == "EU-STATION-3"
    s3, _ = go(s2, "station Roma blue2+loco1")
    assert s3.players[0].hand[k("green")] == 1 and s3.players[0].hand_size == 1
    assert sum(s3.discard) == sum(s.discard) + 6
    assert describe(s2, "station Roma blue2+loco1") == "Blue builds a station in Roma with 2 blue + 1 locomotive"


def paris_wien_position(stations=("Wien",)) -> GameState:
    """Blue: Paris–Frankfurt–München and London–Amsterdam–Essen–Berlin; Red owns München–Wien and Berlin–Wien.
    Blue's tickets: Paris–Wien (8) and London–Wien (10)."""
    s = started(2)
    s = own(s, 0, "R059", "R058", "R004", "R002", "R016")
    s = own(s, 1, "R079", "R021")
    s = set_tickets(s, 0, "T25", "T33")
    return set_stations(s, 0, *stations)


def test_EU_STATION_4_a_station_borrows_one_route_of_another_player():
    s = started(2)
    s = own(s, 0, "R059", "R058")                               # Paris–Frankfurt–München
    s = own(s, 1, "R079")                                       # München–Wien (Red)
    s = set_tickets(s, 0, "T25")                                # Paris–Wien
    assert player_score(s, 0).ticket_points == -8
    for city in ("München", "Wien"):                            # either end of the borrowed route
        ps = player_score(set_stations(s, 0, city), 0)
        assert ps.ticket_points == 8
        assert ps.tickets[0].via == ("R079",) and ps.tickets[0].path[-1] == "R079"
        assert any(f"station in {city} borrowed München–Wien (orange, Red)" in n for n in ps.notes)
    # only routes of another player: a free route cannot be borrowed
    s2 = set_tickets(started(2), 0, "T25")
    s2 = set_stations(own(s2, 0, "R059", "R058"), 0, "Wien")
    assert player_score(s2, 0).ticket_points == -8
    assert "no route borrowed" in player_score(s2, 0).notes[0]
    # and only one route per station: Paris–Zagrab would need München–Wien and Wien–Zagrab
    s3 = own(set_tickets(s, 0, "T15"), 1, "R101")               # Wien–Zagrab (Red)
    s3 = set_stations(s3, 0, "Wien")
    assert player_score(s3, 0).ticket_points == -7
    assert player_score(set_stations(s3, 0, "Wien", "Zagrab"), 0).ticket_points == 7


def test_EU_STATION_5_one_route_for_every_ticket_chosen_to_maximise():
    s = paris_wien_position()
    ps = player_score(s, 0)
    # Berlin–Wien completes London–Wien (10); München–Wien would give Paris–Wien (8); not both
    assert {t.id: t.completed for t in ps.tickets} == {"T25": False, "T33": True}
    assert ps.ticket_points == 2
    assert best_borrowing(EU, s, 0).routes == ("R021",)
    # a second station (in München) borrows the other route: both complete
    ps2 = player_score(paris_wien_position(("Wien", "München")), 0)
    assert ps2.ticket_points == 18
    assert {t.id: t.via for t in ps2.tickets} == {"T25": ("R079",), "T33": ("R021",)}
    assert best_borrowing(EU, paris_wien_position(("Wien", "München")), 0).routes == ("R021", "R079")


def brute_force_ticket_points(s: GameState, seat: int) -> int:
    """Every combination of (no route | one candidate) per station, scored with the plain ticket code."""
    stations = s.players[seat].get("stations", ())
    tickets = s.players[seat].tickets
    base = owned_edges(EU, s, seat)
    options = [[None] + station_candidates(EU, s, seat, c) for c in stations]
    best = None
    for choice in product(*options):
        edges = base + [(r.a, r.b, r.length, r.id) for r in choice if r is not None]
        value = sum(t.value for t in ticket_results(EU, tickets, edges))
        best = value if best is None else max(best, value)
    return best


def random_position(seed: int, players: int = 4) -> GameState:
    """Each seat lays its network along shortest paths of its tickets, but other seats have taken some routes on
    those paths; stations stand mostly at the ends of those taken routes — where borrowing matters and conflicts."""
    import networkx as nx
    from ttr_nb.rng import stream
    r = stream(seed, "test-stations")
    g = M.graph()
    s = started(players, seed)
    tickets = sorted((t.id for t in M.tickets), key=lambda _: r.random())
    claims = list(s.claims)
    length = [0] * players
    hot: list[set[str]] = [set() for _ in range(players)]
    held = []
    for seat in range(players):
        mine = tickets[seat * 8: seat * 8 + 3 + int(r.random() * 5)]
        held.append(mine)
        for tid in mine:
            t = M.ticket(tid)
            path = nx.shortest_path(g, t.a, t.b, weight=lambda u, v, d: min(e["length"] for e in d.values()))
            for a, b in zip(path, path[1:]):
                route = M.routes_between(a, b)[0]
                if claims[route.index] != FREE or any(claims[x.index] != FREE for x in M.twins(route.id)):
                    continue
                owner = seat if r.random() < 0.7 else int(r.random() * players)
                if length[owner] + route.length > 40:
                    continue
                claims[route.index] = owner
                length[owner] += route.length
                if owner != seat:
                    hot[seat].update((a, b))
    for seat in range(players):
        s = own(s, seat, *[x.id for x in M.routes if claims[x.index] == seat])
        s = set_tickets(s, seat, *held[seat])
    taken: set[str] = set()
    for seat in range(players):
        pool = sorted(hot[seat] - taken, key=lambda _: r.random())
        pool += sorted((c.name for c in M.cities if c.name not in taken and c.name not in pool), key=lambda _: r.random())
        chosen = pool[:int(r.random() * 4)]
        taken.update(chosen)
        s = set_stations(s, seat, *chosen)
    return ok(s)


@pytest.mark.parametrize("seed", range(16))
def test_EU_STATION_5_borrowing_matches_a_brute_force(seed):
    s = random_position(seed)
    sheet = score(s)
    for seat in range(s.n_players):
        ps = sheet.players[seat]
        assert ps.ticket_points == brute_force_ticket_points(s, seat)
        # the same route for every ticket: each station's route appears in no other station's place
        choice = best_borrowing(EU, s, seat).routes
        used = {rid for t in ps.tickets for rid in t.via}
        assert used <= {rid for rid in choice if rid is not None}
        for city, rid in zip(s.players[seat].get("stations", ()), choice):
            if rid is not None:
                assert city in M.route(rid).cities and s.claims[M.route(rid).index] not in (FREE, seat)


def test_EU_STATION_6_four_points_per_station_not_built():
    s = started(3)
    s = set_stations(set_stations(s, 1, "Wien"), 2, "Roma", "Paris", "Berlin")
    sheet = score(s)
    assert [dict(p.extras)["stations not built"] for p in sheet.players] == [12, 8, 0]
    assert "stations not built" in sheet.table()


# ---------------------------------------------------------------------------------------------
# end and scoring

def test_EU_END_1_two_or_fewer_trains_everyone_gets_one_more_turn():
    s = started(3)
    picked, total = [], 0
    for r in M.routes:                                          # 41 trains of routes, Venezia–Zagrab kept free
        if r.id != "R097" and not M.twins(r.id) and total + r.length <= 41:
            picked.append(r.id)
            total += r.length
        if total == 41:
            break
    s = own(s, 0, *picked)
    assert s.players[0].trains == 4
    s = set_hand(s, 0, red=2)
    s, events = go(s, "claim R097 red2")
    assert s.players[0].trains == 2 and s.phase == "last_round" and s.final_turns_left == 3
    assert next(e for e in events if e.kind == "final_round").rule == "EU-END-1/USA-END-1"
    for _ in range(3):
        assert s.phase == "last_round"
        s, _ = go(s, DrawTickets())
        s, _ = go(s, KeepTickets(tickets=s.pending[0].get("offered")[:1]))
    assert s.phase == "over" and score(s).final


def test_EU_SCORE_1_routes_tickets_with_stations_and_unbuilt_stations():
    s = paris_wien_position()
    ps = player_score(s, 0)
    routes = sum(EU.route_points(M.route(r).length) for r in ("R059", "R058", "R004", "R002", "R016"))
    assert ps.route_points == routes == s.players[0].route_points
    assert ps.ticket_points == 10 - 8
    assert dict(ps.extras) == {"stations not built": 8}
    assert ps.total == routes + 2 + 8 + ps.longest_bonus
    d = score(s).to_dict()["players"][0]
    r021 = M.route("R021")
    assert any(f"{r021.a}–{r021.b}" in n for n in d["notes"]) and d["tickets"][1]["via"] == ["R021"]


def test_EU_SCORE_2_european_express_own_trains_only_ties_share():
    s = paris_wien_position()
    ps = score(s).players
    # Blue's own longest trail: London–Amsterdam–Essen–Berlin (2+3+2); the borrowed Berlin–Wien does not count
    assert ps[0].longest.length == 7 and "R021" not in ps[0].longest.routes
    assert ps[0].longest_bonus == 10 and ps[1].longest_bonus == 0
    tied = own(s, 1, "R099")             # Red: Warszawa–Wien–Berlin 4+3 (a trail uses only two of Wien's three routes)
    ps = score(tied).players
    assert ps[1].longest.length == 7 and [p.longest_bonus for p in ps] == [10, 10]
    longer = own(tied, 1, "R015")        # + Berlin–Danzig 4: Red alone
    assert [p.longest_bonus for p in score(longer).players] == [0, 10]
    even = own(set_tickets(set_tickets(started(2), 0), 1), 0, "R099")
    even = own(even, 1, "R009")                                 # 4 and 4
    assert [p.longest_bonus for p in score(even).players] == [10, 10]


def test_EU_SCORE_3_ties_most_tickets_then_fewest_stations_built_then_express():
    base = set_tickets(set_tickets(started(2), 0), 1)
    # fewest stations: Blue 2 routes of 3 + 1 station (4+4+10+8), Red 1 route of 3 (4+10+12): 26 each
    s = own(own(base, 0, "R006", "R024"), 1, "R046")
    s = set_stations(s, 0, "Wien")
    sheet = score(s)
    assert [p.total for p in sheet.players] == [26, 26]
    assert sheet.winners == (1,) and "fewest stations built" in sheet.decided_by and "EU-SCORE-3" in sheet.decided_by
    assert [p.stat("stations_used") for p in sheet.players] == [1, 0]     # built, whether or not it borrowed
    # express: Blue one route of 4 (7+10+12 = 29), Red 17 points in routes of 3 or less (17+12 = 29)
    s = own(base, 0, "R099")
    s = own(s, 1, "R006", "R024", "R046", "R041", "R063", "R001")
    sheet = score(s)
    assert [p.total for p in sheet.players] == [29, 29]
    assert sheet.winners == (0,) and sheet.decided_by.endswith("holds the longest-path bonus (EU-SCORE-3/USA-SCORE-4)")
    # tickets first: equal points, Red completed one ticket more
    s = own(set_tickets(base, 1, "T02"), 1, "R037", "R093")     # Budapest–Sarajevo–Sofia completes T02 (5)
    s = own(s, 0, "R006", "R024")
    sheet = score(s)
    t = [p.total for p in sheet.players]
    assert sheet.players[1].completed == 1
    if t[0] == t[1]:
        assert sheet.winners == (1,) and "most completed tickets" in sheet.decided_by


def test_EU_SCORE_3_the_stations_tie_break_counts_built_not_borrowing_stations():
    s = paris_wien_position(("Wien", "Roma"))                  # Roma borrows nothing, but is built
    ps = player_score(s, 0)
    assert ps.stat("stations_used") == 2
    assert any("station in Roma: no route borrowed" in n for n in ps.notes)


# ---------------------------------------------------------------------------------------------
# tunnel odds

def _odds_by_enumeration(s: GameState, seat: int, payment) -> list[Fraction]:
    """Every set of turned-up cards, counted: the unseen pool (deck + other hands) one card at a time, then the
    discard pile for a short deck."""
    from ttr_nb.europe import tunnel_colour
    colour = tunnel_colour(payment)

    def match(c):
        return c == LOCO or c == colour

    pool = list(s.deck) + [kind for i, p in enumerate(s.players) if i != seat for kind, n in enumerate(p.hand)
                           for _ in range(n)]
    pile = [kind for kind, n in enumerate(s.discard) for _ in range(n)]
    n1 = min(3, len(s.deck))
    n2 = min(3 - n1, len(pile))
    counts = [0] * 4
    total = 0
    for a in combinations(range(len(pool)), n1):
        x = sum(1 for i in a if match(pool[i]))
        for b in combinations(range(len(pile)), n2):
            counts[x + sum(1 for i in b if match(pile[i]))] += 1
            total += 1
    return [Fraction(c, total) for c in counts]


def small_pool(deck_left: int, discard: dict) -> GameState:
    s = set_hand(started(2), 0, red=3, locomotive=1, blue=2)
    return shorten(s, deck_left, discard)


@pytest.mark.parametrize("payment", [((k("red"), 2),), ((LOCO, 1), (k("red"), 1)), ((LOCO, 2),)])
def test_tunnel_odds_match_an_exact_enumeration(payment):
    # 25 cards in the deck, 12 in the discard pile, the rest in the other hand (unseen)
    s = set_hand(started(2), 0, red=3, locomotive=2, blue=2)
    deck = list(s.deck)
    pile = list(s.discard)
    for c in deck[25:37]:
        pile[c] += 1
    s = replace_fields(s, deck=tuple(deck[:25] + deck[37:]), discard=tuple(pile))
    s = ok(s)
    odds = tunnel_odds(s, 0, "R014", payment)
    assert list(odds.exact) == _odds_by_enumeration(s, 0, payment)
    assert sum(odds.exact) == 1 and odds.revealed == 3
    assert abs(sum(odds.probabilities) - 1) < 1e-12
    assert odds.unseen == len(s.deck) + s.players[1].hand_size


@pytest.mark.parametrize("deck_left, discard", [(0, {}), (1, {}), (2, {}), (1, {"red": 1, "blue": 2}),
                                                (0, {"red": 1, "green": 1, "locomotive": 1}), (2, {"white": 3})])
def test_tunnel_odds_short_deck_match_an_exact_enumeration(deck_left, discard):
    s = small_pool(deck_left, discard)
    # shorten() moved everything to seat 1: thin that hand so the enumeration stays small
    for payment in (((k("red"), 2),), ((LOCO, 1), (k("red"), 1)), ((LOCO, 2),)):
        odds = tunnel_odds(s, 0, "R014", payment)
        assert list(odds.exact) == _odds_by_enumeration(s, 0, payment)
        assert odds.revealed == min(3, deck_left + sum(discard.values()))
    if deck_left == 0 and not discard:
        assert tunnel_odds(s, 0, "R014", "red2").exact == (1, 0, 0, 0)


def test_tunnel_odds_are_what_the_engine_deals():
    """Over many deals, the engine's reveals agree with the average of the odds (a statistical check)."""
    observed = [0] * 4
    mean = [0.0] * 4
    n = 0
    for seed in range(400):
        s = new_game("europe", 2, seed)
        for p in s.pending:
            s = apply(s, KeepTickets(tickets=p.get("offered")[:2], seat=p.seat))
        hand = s.players[0].hand
        colour = max(range(LOCO), key=lambda c: hand[c])
        if hand[colour] < 2:
            continue
        pay = ((colour, 2),)
        odds = tunnel_odds(s, 0, "R014", pay)
        s2 = apply(s, Claim(route="R014", payment=pay))
        observed[s2.pending[0].get("extra") if s2.pending else 0] += 1
        mean = [m + p for m, p in zip(mean, odds.probabilities)]
        n += 1
    assert n > 150
    for extra in range(4):
        p = mean[extra] / n
        assert abs(observed[extra] / n - p) < 4 * (p * (1 - p) / n) ** 0.5 + 0.02, (extra, observed, n, p)


def test_tunnel_odds_refuse_a_route_that_is_not_a_tunnel():
    with pytest.raises(TTRError, match="not a tunnel"):
        tunnel_odds(started(2), 0, "R001", "black1")
    odds = tunnel_odds(set_hand(started(2), 0, red=3, locomotive=1), 0, "R014", "red2")
    assert odds.can_pay == odds.exact[0] + odds.exact[1] + odds.exact[2]     # 1 red + 1 loco spare
    assert "R014 with red2" in str(odds) and odds.to_dict()["revealed"] == 3


# ---------------------------------------------------------------------------------------------
# actions, bots, contract

def test_europe_actions_round_trip_as_text():
    for text in ("station Wien red2", "blue: station Zürich loco1", "tunnel pay red1+loco1", "tunnel withdraw",
                 "3: tunnel pay loco2", "station Den Haag blue1"):
        a = parse_action(text)
        assert parse_action(str(a)) == a
    assert parse_action("station  Wien  RED2") == BuildStation(city="Wien", payment=((k("red"), 2),))
    assert parse_action("tunnel pay red1") == TunnelPay(payment=((k("red"), 1),))
    assert parse_action("tunnel withdraw") == TunnelWithdraw()
    for bad in ("station", "station Wien", "station Wien red0", "tunnel", "tunnel pay", "tunnel go", "station W1en red1"):
        with pytest.raises(BadAction):
            parse_action(bad)


def test_greedy_bot_pays_or_withdraws_and_builds_a_blocked_tickets_station():
    bot = GreedyBot(0)
    s = tunnel_start({"green": 3}, ("green", "blue", "white"))
    s2, _ = go(s, "claim R098 green2")
    a, why = bot.choose(s2, 0)
    assert str(a) == "blue: tunnel pay green1" and "EU-TUNNEL-2" in why
    s = tunnel_start({"green": 2}, ("green", "green", "white"))
    s2, _ = go(s, "claim R098 green2")
    a, why = bot.choose(s2, 0)
    assert isinstance(a, TunnelWithdraw) and "EU-TUNNEL-4" in why
    # Paris–Wien is blocked (Red owns every route into Wien); a station fixes it, paid with a spare colour
    s = started(2)
    s = own(s, 0, "R059", "R058")
    s = own(s, 1, "R079", "R021", "R038", "R099", "R101")     # (Budapest–Wien R039 is closed: 2 players)
    s = set_tickets(s, 0, "T25")
    s = set_hand(s, 0, white=3)
    a, why = bot.choose(s, 0)
    assert isinstance(a, BuildStation) and a.city in ("München", "Wien") and "station" in why
    s2, _ = go(s, a)
    assert player_score(s2, 0).ticket_points == 8


def play_to_end(variant_seed: int, players: int, bot, *, round_trip_every: int = 0) -> GameState:
    s = new_game("europe", players, variant_seed)
    while not s.is_over:
        seat = to_move(s)[0]
        action, _ = bot.choose(s, seat)
        assert parse_action(str(action)) == action
        s = apply(s, action)
        problems = validate(s)
        assert problems == [], (variant_seed, s.ply, str(action), problems)
        if round_trip_every and s.ply % round_trip_every == 0:
            assert GameState.from_dict(s.to_dict()) == s
        assert s.ply < 5000
    return s


FULL = bool(os.environ.get("TTR_EU_FULL"))


@pytest.mark.parametrize("seed", range(30 if FULL else 6))
def test_contract_random_europe_games_finish_valid(seed):
    players = 2 + seed % 4
    s = play_to_end(seed, players, RandomBot(seed), round_trip_every=25)
    sheet = score(s)
    assert sheet.final and len(sheet.players) == players
    for ps in sheet.players:
        assert dict(ps.extras)["stations not built"] == 4 * (3 - len(s.players[ps.seat].get("stations", ())))


@pytest.mark.parametrize("seed", range(10 if FULL else 2))
def test_contract_greedy_europe_games_finish_valid(seed):
    players = 2 + (seed * 3) % 4
    s = play_to_end(1000 + seed, players, GreedyBot(seed))
    sheet = score(s)
    assert sheet.final and sum(p.completed for p in sheet.players) > 0


def test_usa_is_unchanged_by_the_europe_features():
    usa = get_variant("usa")
    assert usa.features == () and "build" not in turn_status(started_usa())
    assert "EU" not in usa.rule("USA-DRAW-4")


def started_usa() -> GameState:
    s = new_game("usa", 2, 1)
    for p in s.pending:
        s = apply(s, KeepTickets(tickets=p.get("offered")[:2], seat=p.seat))
    return s


@pytest.mark.parametrize("action", [
    BuildStation(city="Wien", payment=((7, -1), (8, 2))), BuildStation(city="Wien", payment=((7, True),)),
    BuildStation(city="Wien", payment="red1"), BuildStation(city=7, payment=((7, 1),)),
    BuildStation(city="Wien", payment=((7, 1), (7, 0))), BuildStation(city="Wien", payment=((7, 1.0),)),
])
def test_malformed_station_objects_are_bad_actions(action):
    s = set_hand(started(2), 0, red=2, locomotive=2)
    with pytest.raises(BadAction):
        apply(s, action)


@pytest.mark.parametrize("payment", [((7, 2), (8, -1)), ((7, 1.0),), "red1", ((7, 1), (7, 0)), ((9, 1),)])
def test_malformed_tunnel_payments_are_bad_actions(payment):
    s = tunnel_start({"red": 3}, ("red", "blue", "white"))
    s2, _ = go(s, "claim R014 red2")
    with pytest.raises(BadAction):
        apply(s2, TunnelPay(payment=payment))
