"""Ticket to Ride South Korea: a test (at least) per rule id of docs/rules/south_korea.md (SK-*), the rule-book
examples exactly, a stated reading for each open case, and the board facts the Danish rule book proves.

Positions are built from a real game by moving cards and tickets (never by inventing them), so every position
passes ``validate`` — the helpers below assert that.
"""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from ttr_nb.board.actions import Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, parse_action
from ttr_nb.bots import GreedyBot
from ttr_nb.board.cards import CARD_ALIASES, LOCO
from ttr_nb.board.engine import (apply, describe, explain, legal_actions, new_game, observe, step, to_move, turn_status,
                           validate)
from ttr_nb.errors import BadAction, IllegalAction, TTRError
from ttr_nb.games.south_korea import (PROVINCE_BONUS, DraftKeep, DraftPick, ExpressDraw, ExpressTickets,
                                      ProvinceClaim, build_map_document, express_left, province_ranking,
                                      province_space, province_trains, read_province_board)
from ttr_nb.board.maps import check_map_file, map_to_json
from ttr_nb.board.names import route_text
from ttr_nb.board.positions import position
from ttr_nb.board.scoring import score
from ttr_nb.board.state import FREE, GameState, pairs_set, replace_fields
from ttr_nb.variants import get_variant

SK = get_variant("south_korea")
M = SK.map
REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "rules" / "south_korea.md"
SHARED = REPO.parent / "shared"
BLUE, RED, GREEN, YELLOW, BLACK = range(5)


# ---------------------------------------------------------------------------------------------
# position helpers

def k(name: str) -> int:
    return CARD_ALIASES[name]


def ok(state: GameState) -> GameState:
    assert validate(state) == [], validate(state)
    return state


def drafted(players: int = 4, seed: int = 1) -> GameState:
    """A game past the draft: every seat picks the first card of each hand and keeps its first four picks."""
    s = new_game("south_korea", players, seed)
    while s.phase == "setup":
        for seat in to_move(s):
            p = s.pending_for(seat)
            if p.kind == "draft_pick":
                s = apply(s, DraftPick(ticket=p.get("packet")[0], seat=seat))
            else:
                s = apply(s, DraftKeep(tickets=p.get("offered")[:4], seat=seat))
    return ok(s)


def table(n: int = 2, seed: int = 1, *, hands=None, deck_top=(), claims=None, trains=None) -> GameState:
    """A position in play after a real draft (the drafted tickets kept), built by ``ttr_nb.board.positions.position``:
    ``hands`` seat -> {card: count}, ``deck_top`` the next cards, ``claims`` route id -> seat, ``trains`` seat ->
    trains left."""
    d = drafted(n, seed)
    return ok(position("south_korea", n, seed, hands=hands, deck_top=deck_top, claims=claims, trains=trains,
                       tickets={i: p.tickets for i, p in enumerate(d.players)}))


def place(s: GameState, *trains: tuple[str, int, int]) -> GameState:
    """Province trains (line, space, seat), taken from the seats' supplies."""
    players = list(s.players)
    for _, _, seat in trains:
        players[seat] = replace_fields(players[seat], trains=players[seat].trains - 1)
    ext = pairs_set(s.ext, "province", province_trains(s) + tuple(trains))
    return ok(replace_fields(s, ext=ext, players=tuple(players)))


def namwon_jinju():
    return M.routes_between("Namwon", "Jinju")[0]


def explain_ok(s: GameState, action):
    """The action as the engine records it (canonical: the map's city text), after checking it is legal."""
    from ttr_nb.board.engine import check
    return check(s, action)[0]


def refused(s: GameState, action, rule: str, words: str = "") -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        apply(s, action)
    assert e.value.rule.startswith(rule) or rule in e.value.rule, (e.value.rule, str(e.value))
    assert words.lower() in str(e.value).lower(), str(e.value)
    return e.value


def test_every_rule_id_has_a_test():
    ids = sorted(set(re.findall(r"\bSK-[A-Z]+-\d+\b", DOC.read_text(encoding="utf-8"))))
    if (SHARED / "rules" / "south_korea.md").is_file():     # the project's rules name every id of the digest
        digest = set(re.findall(r"\bSK-[A-Z]+-\d+\b", (SHARED / "rules" / "south_korea.md").read_text(encoding="utf-8")))
        assert digest <= set(ids)
    assert len(ids) == 28
    names = [n for n in globals() if n.startswith("test_SK_")]
    missing = [i for i in ids if not any(n.startswith("test_" + i.replace("-", "_") + "_") for n in names)]
    assert missing == []


def test_interpretations_name_rule_ids_of_the_rules_doc():
    ids = set(re.findall(r"\b(?:SK|USA)-[A-Z]+-\d+\b", DOC.read_text(encoding="utf-8")))
    for rule, text in SK.interpretations:
        assert text and (rule in ids or rule.startswith("USA-")), rule


# ---------------------------------------------------------------------------------------------
# the board (PROVISIONAL) and its facts

def test_SK_COMP_4_board_is_provisional_with_44_route_cards():
    assert M.provisional is True and M.provisional_note.startswith("PROVISIONAL")
    assert "NOT the published" in M.provisional_note
    assert len(M.tickets) == 44 and len(M.cities) == 36 and len(M.routes) == 82
    assert len({r.double_group for r in M.routes if r.double_group}) == 10
    s = new_game("south_korea", 3, 0)
    assert observe(s, 0)["provisional"] == M.provisional_note      # every view carries the note


def test_SK_COMP_4_book_fact_namwon_jinju_white_or_gray_at_most_5():
    """All the book proves: Blue claims Namwon–Jinju with 4 white cards and 1 locomotive and puts a train on the white
    line (SK-PROV-6). So the route takes at most 5 cards — more matching cards than needed may be played (SK-PROV-3),
    so it may be shorter — and it is white, or gray (a gray route may go on any line, SK-PROV-2). The stand-in's
    white route of 4 is an assumption within that (maps/sources/south_korea/PROVISIONAL.md)."""
    (r,) = M.routes_between("Namwon", "Jinju")
    assert r.colour in ("white", "gray") and 1 <= r.length <= 5
    s = table(4, hands={BLUE: dict(white=4, locomotive=1)})
    s2 = ok(apply(s, "claim Namwon–Jinju white4+loco1 +1 province white"))         # the book's move is legal here
    assert s2.claims[r.index] == BLUE and province_trains(s2) == (("white", 6, BLUE),)
    assert (r.colour, r.length) == ("white", 4)                                    # the stand-in's choice
    provisional = (REPO / "maps" / "sources" / "south_korea" / "PROVISIONAL.md").read_text(encoding="utf-8")
    assert "white (or gray) and at most 5 long" in provisional and "**white, length 4**" in provisional


def test_SK_COMP_5_province_board_one_line_per_colour_and_book_spaces():
    board = M.extra["province_board"]
    assert sorted(board) == sorted(["purple", "blue", "orange", "white", "green", "yellow", "black", "red"])
    assert 6 in board["white"] and {5, 6} <= set(board["red"])          # the two facts the book proves
    for line, spaces in M.extra["province_board_known"].items():
        assert set(spaces) <= set(board[line])


def test_map_file_is_a_rebuild_of_maps_sources():
    assert check_map_file(REPO / "maps" / "south_korea.json") == []
    committed = (REPO / "maps" / "south_korea.json").read_text(encoding="utf-8")
    assert map_to_json(build_map_document()) == committed, "run: python -m ttr_nb.games.south_korea"


def test_maps_sources_are_the_reference_files_unchanged():
    """maps/sources/south_korea/ holds the tables and their provenance (a plain clone checks these); when the spec
    folder ../shared/reference/ is beside the repository, they are byte-identical to it."""
    own = REPO / "maps" / "sources" / "south_korea"
    names = sorted(p.name for p in own.iterdir())
    assert names == ["PROVISIONAL.md", "SOURCES.md", "cities.csv", "province_board.csv", "province_board_known.csv",
                     "routes.csv", "tickets.csv"], names
    assert "## Partial facts (with sources)" in (own / "SOURCES.md").read_text(encoding="utf-8")
    ref = SHARED / "reference" / "south_korea"
    if ref.is_dir():                          # only beside the spec
        assert sorted(f.name for f in ref.iterdir()) == names
        for f in ref.iterdir():
            assert (own / f.name).read_bytes() == f.read_bytes(), f.name


def test_province_board_csv_is_read_strictly(tmp_path):
    (tmp_path / "province_board.csv").write_text("colour,spaces\nwhite,1;2;2\n", encoding="utf-8")
    with pytest.raises(TTRError, match="line 2"):
        read_province_board(tmp_path)


# ---------------------------------------------------------------------------------------------
# components and setup

def test_SK_COMP_1_two_to_five_players_45_trains():
    for n in (2, 5):
        s = new_game("south_korea", n, 0)
        assert all(p.trains == 45 for p in s.players)
    for n in (1, 6):
        with pytest.raises(TTRError, match="SK-COMP-1"):
            new_game("south_korea", n, 0)


def test_SK_COMP_2_the_base_deck_of_110():
    assert SK.deck_counts == (12,) * 8 + (14,)
    s = new_game("south_korea", 4, 2)
    assert len(s.deck) + sum(p.hand_size for p in s.players) + 5 == 110


def test_SK_COMP_3_fifteen_express_cards_one_set_each():
    s = new_game("south_korea", 5, 0)
    assert [express_left(s, i) for i in range(5)] == [(1, 2, 3)] * 5


def test_SK_SETUP_1_four_cards_each_and_five_face_up():
    s = new_game("south_korea", 4, 7)
    assert [p.hand_size for p in s.players] == [4] * 4
    assert len(s.market) == 5 and s.market.count(LOCO) < 3


def test_SK_SETUP_2_express_cards_lie_face_up():
    s = drafted(3)
    for viewer in (None, 0, 1, 2):
        assert [e["express"] for e in observe(s, viewer)["players"]] == [[1, 2, 3]] * 3
    bad = replace_fields(s, players=(replace_fields(s.players[0], ext=pairs_set(s.players[0].ext, "express", (2, 2))),)
                         + s.players[1:])
    assert any("SK-COMP-3" in p for p in validate(bad))


def test_SK_SETUP_3_six_cards_each_all_pick_at_once_and_pass_left():
    s = new_game("south_korea", 4, 3)
    assert to_move(s) == (0, 1, 2, 3)
    packets = {p.seat: p.get("packet") for p in s.pending}
    assert all(len(x) == 6 for x in packets.values()) and len(set(sum(packets.values(), ()))) == 24
    assert "SK-SETUP-3" in turn_status(s)
    for seat in (2, 0, 3):                       # any order: simultaneous
        s = apply(s, f"{['blue', 'red', 'green', 'yellow'][seat]}: draft pick {packets[seat][1]}")
    assert to_move(s) == (1,) and s.pending[0].get("round") == 1        # the others wait for red
    s = ok(apply(s, DraftPick(ticket=packets[1][0], seat=1)))
    # everyone picked: each hand moved one seat to the left (the next seat)
    for seat in range(4):
        got = s.pending_for(seat).get("packet")
        before = packets[(seat - 1) % 4]
        assert set(got) == set(before) - {before[1] if (seat - 1) % 4 != 1 else before[0]} and len(got) == 5
        assert s.pending_for(seat).get("round") == 2


def test_SK_SETUP_3_a_pick_is_final_and_must_come_from_the_hand():
    s = new_game("south_korea", 3, 4)
    mine = s.pending_for(0).get("packet")
    other = s.pending_for(1).get("packet")[0]
    refused(s, DraftPick(ticket=other, seat=0), "SK-SETUP-3", "not in the hand")
    s = apply(s, DraftPick(ticket=mine[0], seat=0))
    refused(s, DraftPick(ticket=mine[1], seat=0), "SK-SETUP-3", "waiting")      # no second pick, no swap
    with pytest.raises(IllegalAction, match="SK-SETUP-3"):
        apply(s, "draft pick " + other)                                         # several seats: name the seat


def test_SK_SETUP_3_observe_shows_a_seat_only_its_own_cards():
    s = new_game("south_korea", 4, 5)
    v0 = observe(s, 0)
    mine = set(s.pending_for(0).get("packet"))
    text = json.dumps(v0)
    for q in s.pending[1:]:
        assert not any(t in text for t in q.get("packet") if t not in mine)
    assert "packet_count" in v0["pending"][1] and "data" not in v0["pending"][1]
    s = apply(s, DraftPick(ticket=sorted(mine)[0], seat=0))
    v0, v1 = observe(s, 0), observe(s, 1)
    assert v0["players"][0]["draft_picked"] == [sorted(mine)[0]]
    assert "draft_picked" not in v1["players"][0] and v1["players"][0]["draft_picked_count"] == 1
    assert sorted(mine)[0] not in json.dumps(v1)
    assert sorted(mine)[0] in json.dumps(observe(s, None))                  # the teacher sees everything


def test_SK_SETUP_4_keep_exactly_four_and_shuffle_the_rest_in():
    s = new_game("south_korea", 2, 6)
    while s.pending[0].kind == "draft_pick":
        for seat in to_move(s):
            s = apply(s, DraftPick(ticket=s.pending_for(seat).get("packet")[-1], seat=seat))
    assert [len(p.get("offered")) for p in s.pending] == [6, 6]
    assert [p.get("min_keep") for p in s.pending] == [4, 4]                # a view reads how many, as for any keep
    six = s.pending_for(0).get("offered")
    refused(s, DraftKeep(tickets=six[:3], seat=0), "SK-SETUP-4", "exactly 4")
    refused(s, DraftKeep(tickets=six[:5], seat=0), "SK-SETUP-4", "exactly 4")
    refused(s, KeepTickets(tickets=six[:4], seat=0), "SK-SETUP-4")          # the base keep is not the draft keep
    assert {len(a.tickets) for a in legal_actions(s, 0)} == {4} and len(legal_actions(s, 0)) == 15
    s = ok(apply(s, DraftKeep(tickets=six[:4], seat=0)))
    s = ok(apply(s, DraftKeep(tickets=s.pending_for(1).get("offered")[2:], seat=1)))
    assert s.phase == "play" and s.players[0].tickets == six[:4]
    deck = s.ticket_deck("regular")
    assert len(deck) == 44 - 8 and set(six[4:]) <= set(deck)
    assert deck[-2:] != six[4:] or deck[:2] != six[4:]                       # shuffled in, not just appended


# ---------------------------------------------------------------------------------------------
# turns and express cards

def test_SK_TURN_1_one_base_action_boosted_or_not():
    s = drafted(3)
    assert "draw destination tickets or boost one of them with an unused express card" in turn_status(s)
    s2 = apply(s, DrawDeck())
    assert s2.pending[0].kind == "second_card"
    refused(s2, ExpressDraw(slot=0, express=1), "USA-DRAW-1")              # no boost in the middle of a draw
    refused(s2, "tickets +1", "USA-DRAW-1")
    s3 = apply(s, "tickets +1")
    assert s3.pending[0].kind == "choose_tickets" and s3.current == s.current


def test_SK_TURN_2_each_express_card_once_then_out_of_the_game():
    s = drafted(2)
    s = apply(s, "draw deck +2")
    s = apply(s, "draw deck")
    s = apply(s, "draw deck")                                                # red's turn
    s = apply(s, "draw deck")
    assert express_left(s, 0) == (1, 3) and observe(s, 1)["players"][0]["express_used"] == [2]
    refused(s, "draw deck +2", "SK-TURN-2", "already used")
    assert not any(isinstance(a, ExpressDraw) and a.express == 2 for a in legal_actions(s))


def test_SK_EXPRESS_1_boosted_draw_takes_blind_cards_first():
    s = table(2, deck_top=("red", "green", "blue"))
    before = s.players[0].hand
    s2 = ok(apply(s, "draw deck +2"))
    hand = s2.players[0].hand
    assert hand[k("red")] == before[k("red")] + 1 and hand[k("green")] == before[k("green")] + 1
    assert hand[k("blue")] == before[k("blue")] + 1                        # then the normal first card
    assert s2.pending[0].kind == "second_card" and express_left(s2, 0) == (1, 3)


def test_SK_EXPRESS_1_a_face_up_locomotive_after_the_boost_is_the_whole_draw():
    s = drafted(2, seed=11)
    slot = next((i for i, c in enumerate(s.market) if c == LOCO), None)
    if slot is None:                                         # put a locomotive face up (moved from the deck)
        deck = list(s.deck)
        j = deck.index(LOCO)
        market = list(s.market)
        deck[j], market[0] = market[0], LOCO
        s = ok(replace_fields(s, deck=tuple(deck), market=tuple(market)))
        slot = 0
    s2, events = step(s, ExpressDraw(slot=slot + 1, express=3))
    assert s2.current == 1 and not s2.pending                                 # USA-DRAW-3 as usual
    assert s2.players[0].hand_size == s.players[0].hand_size + 4
    assert any(e.kind == "one_card" for e in events)


def test_SK_EXPRESS_1_boost_needs_its_cards_and_one_more():
    s = drafted(2)
    total = len(s.deck)
    hoard = list(s.players[1].hand)
    for c in s.deck[3:]:
        hoard[c] += 1
    s = ok(replace_fields(s, deck=s.deck[:3], players=(s.players[0], replace_fields(s.players[1], hand=tuple(hoard)))))
    assert total > 3
    refused(s, "draw deck +3", "SK-EXPRESS-1", "interpretation")
    s2 = ok(apply(s, "draw faceup 1 +2"))                                      # 2 blind + 1 face up; 1 card replaces it
    assert len(s2.deck) == 0 and express_left(s2, 0) == (1, 3)


def test_SK_EXPRESS_2_boosted_ticket_draw_offers_three_plus_boost():
    s = drafted(3)
    s = apply(s, ExpressTickets(express=2))
    offered = s.pending[0].get("offered")
    assert len(offered) == 5 and s.pending[0].get("min_keep") == 1
    refused(s, KeepTickets(tickets=()), "USA-TICKET-2")
    s2 = ok(apply(s, KeepTickets(tickets=offered)))                            # may keep all
    assert s2.players[0].tickets[-5:] == offered


def test_SK_EXPRESS_2_no_boost_when_it_would_add_nothing():
    s = drafted(5)                                              # 44 - 20 = 24 left; move all but 3 out of the deck
    deck = s.ticket_deck("regular")
    p0 = replace_fields(s.players[0], tickets=s.players[0].tickets + deck[3:])
    s = ok(replace_fields(s, ticket_decks=(("regular", deck[:3]),), players=(p0,) + s.players[1:]))
    refused(s, "tickets +1", "SK-EXPRESS-2", "nothing extra")
    assert apply(s, DrawTickets()).pending[0].get("offered") == deck[:3]


def test_SK_EXPRESS_3_express_on_a_claim_raises_the_space_and_needs_a_placement():
    s = table(4, hands={0: dict(white=4)})
    r = namwon_jinju()
    e = refused(s, ProvinceClaim(route=r.id, payment=((k("white"), 4),), express=2), "SK-EXPRESS-3", "province")
    assert "add 'province white'" in str(e)                  # the route's own line, named
    s2 = ok(apply(s, "claim Namwon–Jinju white4 +2 province white"))
    assert province_trains(s2) == (("white", 6, 0),)


# ---------------------------------------------------------------------------------------------
# the province board

def test_SK_PROV_6_the_rule_book_example_blue_lands_on_white_6():
    s = table(4, hands={BLUE: dict(white=4, locomotive=1)})
    a = parse_action("claim Namwon–Jinju white4+loco1 +1 province white")
    assert a == ProvinceClaim(route="Namwon–Jinju", payment=((k("white"), 4), (LOCO, 1)), express=1, line="white")
    s2, events = step(s, a)
    ok(s2)
    assert province_trains(s2) == (("white", 6, BLUE),)
    assert s2.players[BLUE].trains == 45 - 4 - 1 and s2.players[BLUE].hand_size == 0
    assert express_left(s2, BLUE) == (2, 3) and s2.claims[namwon_jinju().index] == BLUE
    assert any("SK-PROV-6" in str(e) and "space 6" in str(e) for e in events)
    assert str(explain_ok(s, a)) == "blue: claim Jinju–Namwon white4+loco1 +1 province white"  # recorded: map order


def test_SK_PROV_1_placing_is_optional_and_costs_a_remaining_train():
    s = table(2, hands={0: dict(white=4)})
    plain = ok(apply(s, "claim Namwon–Jinju white4"))
    assert province_trains(plain) == () and plain.players[0].trains == 41
    placed = ok(apply(s, "claim Namwon–Jinju white4 province white"))
    assert province_trains(placed) == (("white", 4, 0),) and placed.players[0].trains == 40
    low = table(2, hands={0: dict(white=4)}, trains={0: 4})
    refused(low, "claim Namwon–Jinju white4 province white", "SK-PROV-1", "one more")
    assert ok(apply(low, "claim Namwon–Jinju white4")).players[0].trains == 0


def test_SK_PROV_2_the_line_of_the_route_colour_gray_any():
    s = table(2, hands={0: dict(white=4, green=6)})
    refused(s, "claim Namwon–Jinju white4 province red", "SK-PROV-2", "white line")
    gray = next(r for r in M.routes if r.colour == "gray" and r.length == 3 and not r.double_group)
    for line in ("red", "purple"):
        s2 = ok(apply(s, ProvinceClaim(route=gray.id, payment=((k("green"), 3),), line=line)))
        assert province_trains(s2) == ((line, 3, 0),)
    lines = {a.line for a in legal_actions(s) if isinstance(a, ProvinceClaim) and a.route == route_text(M, gray)}
    assert lines == set(M.extra["province_board"])


def test_SK_PROV_3_space_equals_cards_played_extra_matching_cards_allowed():
    s = table(2, hands={0: dict(white=7, locomotive=1)})
    s2 = ok(apply(s, "claim Namwon–Jinju white7+loco1 province white"))
    assert province_trains(s2) == (("white", 8, 0),) and s2.players[0].hand_size == 0
    assert s2.discard[k("white")] == 7 and s2.players[0].trains == 40       # trains: the route's 4 + 1
    e = refused(s, "claim Namwon–Jinju white5", "SK-PROV-3", "province")      # extra cards only with a placement
    assert "add 'province white'" in str(e) and "takes exactly 4 cards" in str(e)
    refused(s, "claim Namwon–Jinju white3", "USA-CLAIM-1", "exactly 4")      # too few: the base rule
    refused(s, "claim Namwon–Jinju white3 province white", "SK-PROV-3", "at least 4")


def test_SK_PROV_3_a_space_beyond_the_line_is_refused():
    s = table(2, hands={0: dict(white=7, locomotive=1)})
    e = refused(s, "claim Namwon–Jinju white7+loco1 +2 province white", "SK-PROV-3", "no space 10")
    assert "interpretation" in str(e)
    assert all(sum(n for _, n in a.payment) + a.express <= 9 for a in legal_actions(s) if isinstance(a, ProvinceClaim))


def test_SK_PROV_4_a_taken_space_sends_the_train_to_the_first_free_lower_one():
    s = place(table(3, hands={0: dict(white=4)}), ("white", 4, 1), ("white", 3, 2))
    s2 = ok(apply(s, "claim Namwon–Jinju white4 province white"))
    assert ("white", 2, 0) in province_trains(s2)
    assert province_space(SK, s, "white", 4) == (2, "space 2 (space 4 is taken: the first free space below it)")


def test_SK_PROV_4_no_free_lower_space_means_not_on_that_line():
    s = place(table(3, hands={0: dict(white=4)}), ("white", 4, 1), ("white", 3, 2), ("white", 2, 1), ("white", 1, 2))
    e = refused(s, "claim Namwon–Jinju white4 province white", "SK-PROV-4", "cannot go on that line")
    assert "interpretation" in str(e)
    assert ok(apply(s, "claim Namwon–Jinju white4")).claims[namwon_jinju().index] == 0     # the claim alone is fine
    s3 = ok(apply(s, "claim Namwon–Jinju white4 +1 province white"))                         # space 5 is free
    assert ("white", 5, 0) in province_trains(s3)


def test_SK_PROV_5_province_trains_stay_and_count_against_the_45():
    s = table(2, hands={0: dict(white=4)})
    s2 = apply(s, "claim Namwon–Jinju white4 province white")
    assert SK.feature("province").trains_elsewhere(s2, 0) == 1
    bad = replace_fields(s2, players=(replace_fields(s2.players[0], trains=41),) + s2.players[1:])
    assert any("SK-COMP-1" in p for p in validate(bad))
    later = s2
    for _ in range(4):
        later = apply(later, "draw deck")
    assert province_trains(later) == province_trains(s2)


def test_SK_END_1_the_end_counts_the_trains_left_in_the_supply():
    s = table(2, hands={0: dict(white=4)}, trains={0: 7})
    s2 = ok(apply(s, "claim Namwon–Jinju white4"))                 # 3 left: no final round yet
    assert s2.phase == "play"
    s3 = ok(apply(s, "claim Namwon–Jinju white4 province white"))  # 2 left in supply: the final round starts
    assert s3.phase == "last_round" and s3.final_turns_left == 2


def test_SK_SCORE_3_the_rule_book_red_line_example():
    # 4 players as in the book; its black player sits in ttr_nb's fourth seat, which is yellow (seat colours blue,
    # red, green, yellow, black): green 9 -> 10; "black" 8 with a 6 -> 6; blue 8 with a 5 -> 4; red 7 -> 0.
    black = YELLOW
    s = drafted(4)
    s = place(s, ("red", 9, GREEN), ("red", 6, black), ("red", 2, black), ("red", 5, BLUE), ("red", 3, BLUE),
              ("red", 7, RED))
    rank = province_ranking(SK, s, "red")
    assert [(r["seat"], r["total"], r["best"], r["bonus"]) for r in rank] == [
        (GREEN, 9, 9, 10), (black, 8, 6, 6), (BLUE, 8, 5, 4), (RED, 7, 7, 0)]
    sheet = score(s)
    assert [dict(p.extras)["province board"] for p in sheet.players] == [4, 0, 10, 6]
    assert any("red line: total 8 (spaces 2, 6), rank 2: 6 points" in n for n in sheet.players[black].notes)


def test_SK_SCORE_2_bonuses_by_player_count_only_players_on_the_line():
    assert PROVINCE_BONUS == {2: (10,), 3: (10, 6), 4: (10, 6, 4), 5: (10, 6, 4, 2)}
    for n in (2, 3, 4, 5):
        s = drafted(n)
        s = place(s, *[("blue", 9 - seat, seat) for seat in range(n)])
        got = [dict(p.extras)["province board"] for p in score(s).players]
        assert got == list(PROVINCE_BONUS[n]) + [0] * (n - len(PROVINCE_BONUS[n]))
    s = place(drafted(3), ("green", 1, 2))
    assert [dict(p.extras)["province board"] for p in score(s).players] == [0, 0, 10]    # alone on a line: first


def test_SK_SCORE_1_routes_and_route_cards_as_usual():
    s = table(2, claims={namwon_jinju().id: 0})
    sheet = score(s)
    assert sheet.players[0].route_points == 7 == SK.route_points(4)
    assert [t.id for t in sheet.players[0].tickets] == list(s.players[0].tickets)
    assert SK.settings.route_points[6] == 15


def test_SK_SCORE_4_no_longest_path_bonus():
    s = table(2, claims={r.id: 0 for r in M.routes_at("Namwon")})
    sheet = score(s)
    assert sheet.players[0].longest.length > 0 and sheet.players[0].longest_bonus == 0
    assert SK.settings.longest_bonus == 0 and "longest" not in SK.settings.tie_breaks


def test_SK_SCORE_5_ties_most_route_cards_completed_then_shared():
    from ttr_nb.board.scoring import _winners
    a, b = score(drafted(2)).players
    a2 = replace_fields_ps(a, 10, 2)
    b2 = replace_fields_ps(b, 10, 1)
    assert _winners(SK, [a2, b2])[0] == (0,)
    assert "SK-SCORE-5" in _winners(SK, [a2, b2])[1]
    assert _winners(SK, [a2, replace_fields_ps(b, 10, 2)])[0] == (0, 1)


def replace_fields_ps(ps, total: int, completed: int):
    from dataclasses import replace
    from ttr_nb.board.scoring import TicketResult
    tickets = tuple(TicketResult(f"T{i}", "a", "b", 0, i < completed) for i in range(4))
    return replace(ps, route_points=total, tickets=tickets, extras=(), longest_bonus=0)


# ---------------------------------------------------------------------------------------------
# double routes

def test_SK_DOUBLE_1_four_or_five_players_both_tracks_never_one_player():
    r1, r2 = M.routes_between("Busan", "Daegu")
    s = table(4, hands={0: dict(black=5, white=5), 1: dict(white=5)})
    s = ok(apply(s, Claim(route=r1.id, payment=((k("black"), 5),))))
    s = ok(apply(s, Claim(route=r2.id, payment=((k("white"), 5),))))
    assert s.claims[r1.index] == 0 and s.claims[r2.index] == 1
    s4 = table(5, hands={0: dict(black=5, white=5)})
    s4 = apply(s4, Claim(route=r1.id, payment=((k("black"), 5),)))
    for _ in range(8):
        s4 = apply(s4, "draw deck")
    refused(s4, Claim(route=r2.id, payment=((k("white"), 5),)), "SK-DOUBLE-1", "both routes")


def test_SK_DOUBLE_2_two_or_three_players_the_other_track_closes():
    r1, r2 = M.routes_between("Busan", "Daegu")
    for n in (2, 3):
        s = table(n, hands={0: dict(black=5), 1: dict(white=6)})
        s = ok(apply(s, Claim(route=r1.id, payment=((k("black"), 5),))))
        refused(s, Claim(route=r2.id, payment=((k("white"), 5),)), "SK-DOUBLE-2", "closed")
        refused(s, ProvinceClaim(route=r2.id, payment=((k("white"), 6),), line="white"), "SK-DOUBLE-2")


# ---------------------------------------------------------------------------------------------
# texts, refusals, saving, observing

@pytest.mark.parametrize("text", ["draw deck +2", "draw faceup 3 +1", "tickets +3", "draft pick T05",
                                  "draft keep T01 T02 T03 T04", "claim Jinju–Namwon white4+loco1 +1 province white",
                                  "green: claim Busan–Changwon (gray) red2 province purple", "claim Jinju–Namwon white4 +3"])
def test_texts_round_trip_and_use_city_names(text):
    a = parse_action(text)
    assert parse_action(str(a)) == a and str(a) == text


def test_the_issue_s_own_notation_is_read_too():
    a = parse_action("claim Namwon–Jinju white4 loco1 +1 province white")
    assert a == ProvinceClaim(route="Namwon–Jinju", payment=((k("white"), 4), (LOCO, 1)), express=1, line="white")
    s = table(4, hands={BLUE: dict(white=4, locomotive=1)})
    assert str(explain_ok(s, a)) == "blue: claim Jinju–Namwon white4+loco1 +1 province white"


def test_route_words_accept_ids_dashes_and_case_and_name_the_double_track():
    s = table(2, hands={0: dict(white=4, red=2)})
    a = explain_ok(s, "claim jinju-namwon white4 province white")
    assert a.route == "Jinju–Namwon" == route_text(M, namwon_jinju())
    assert explain_ok(s, "claim R067 white4 province white") == a
    with pytest.raises(BadAction, match="joined by 2 routes"):
        apply(s, "claim Busan–Changwon red2 province white")
    assert explain_ok(s, "claim Busan–Changwon (gray) red2 province white").route == "Busan–Changwon (gray)"
    with pytest.raises(BadAction, match="express card"):
        parse_action("draw deck +4")
    with pytest.raises(BadAction, match="province line"):
        parse_action("claim Namwon–Jinju white4 province gray")


def test_refusals_change_nothing_and_describe_in_words():
    s = table(2, hands={0: dict(white=4)})
    snapshot = s.to_dict()
    for bad in ("claim Namwon–Jinju white4 province red", "draw deck +4", "draft pick T01"):
        assert explain(s, bad) is not None
    assert s.to_dict() == snapshot
    assert describe(s, "claim Namwon–Jinju white4 +1 province white") == (
        "Blue claims Jinju–Namwon (4, white) with 4 white and the +1 express card and puts a train on the white "
        "province line")
    assert "express" in describe(s, "draw deck +2")


def test_state_round_trips_through_json_mid_draft_and_mid_game():
    s = new_game("south_korea", 4, 9)
    s = apply(s, DraftPick(ticket=s.pending_for(2).get("packet")[0], seat=2))
    for state in (s, place(table(3, hands={0: dict(white=4)}), ("white", 4, 1))):
        assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_validate_catches_bad_province_and_draft_data():
    s = place(drafted(3), ("white", 4, 1))
    doubled = replace_fields(s, ext=pairs_set(s.ext, "province", (("white", 4, 1), ("white", 4, 2))))
    assert any("two trains" in p for p in validate(doubled))
    off = replace_fields(s, ext=pairs_set(s.ext, "province", (("white", 12, 1),)))
    assert any("no space 12" in p for p in validate(off))
    d = new_game("south_korea", 3, 1)
    lost = replace_fields(d, pending=d.pending[1:])
    assert any("missing" in p for p in validate(lost))


def test_greedy_bot_drafts_uses_express_and_places_province_trains():
    s = new_game("south_korea", 3, 2)
    bots = [GreedyBot(i) for i in range(3)]
    reasons = []
    while s.phase != "over" and s.ply < 2000:
        seat = to_move(s)[0]
        a, why = bots[seat].choose(s, seat)
        reasons.append(why)
        s = apply(s, a)
    assert s.phase == "over"
    assert any("fits best" in r for r in reasons) and any("keeps" in r for r in reasons)
    assert any("province line" in r for r in reasons) and any("express" in r for r in reasons)
    assert province_trains(s)


# ---------------------------------------------------------------------------------------------
# the draft's secrets, and random play (hypothesis)

def _swap_draft_card(s: GameState, seat: int, where: str) -> GameState:
    """Swap one of ``seat``'s draft cards (its hand in front of it, its picks, or the cards it is passing) with the
    top card of the route-card deck: a change only ``seat`` (and the teacher) may notice."""
    deck = list(s.ticket_deck("regular"))
    top = deck[0]
    if where == "packet":
        p = s.pending_for(seat)
        old = p.get("packet")[0]
        data = pairs_set(p.data, "packet", (top,) + p.get("packet")[1:])
        pending = tuple(replace_fields(q, data=data) if q is p else q for q in s.pending)
        players = s.players
    else:
        pending = s.pending
        held = s.players[seat].get(where)
        old = held[0]
        pl = replace_fields(s.players[seat], ext=pairs_set(s.players[seat].ext, where, (top,) + tuple(held[1:])))
        players = s.players[:seat] + (pl,) + s.players[seat + 1:]
    deck[0] = old
    return ok(replace_fields(s, pending=pending, players=players, ticket_decks=(("regular", tuple(deck)),)))


def test_observe_during_the_draft_shows_each_seat_only_its_own_cards():
    s = new_game("south_korea", 4, 12)
    s = apply(s, DraftPick(ticket=s.pending_for(1).get("packet")[2], seat=1))       # red has picked and is passing
    s = apply(s, DraftPick(ticket=s.pending_for(3).get("packet")[0], seat=3))
    cases = [(0, "packet"), (2, "packet"), (1, "drafted"), (1, "passing"), (3, "drafted")]
    for seat, where in cases:
        twin = _swap_draft_card(s, seat, where)
        for viewer in range(4):
            same = observe(s, viewer) == observe(twin, viewer)
            assert same == (viewer != seat), (seat, where, viewer)
        assert observe(s, None) != observe(twin, None)


try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:                                   # pragma: no cover
    given = None


if given is not None:
    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(2, 5), st.integers(0, 10**6), st.lists(st.integers(0, 10**6), min_size=60, max_size=60))
    def test_random_legal_play_keeps_every_invariant(n, seed, picks):
        s = new_game("south_korea", n, seed)
        for i, pick in enumerate(picks * 2):
            if s.phase == "over":
                break
            acts = legal_actions(s)
            a = acts[pick % len(acts)]
            assert parse_action(str(a)) == a
            s = apply(s, a)
            assert validate(s) == []
            if i % 15 == 0:
                assert GameState.from_dict(json.loads(json.dumps(s.to_dict()))) == s
                for seat in range(n):
                    json.dumps(observe(s, seat))


def test_comparison_table_tells_the_draft_and_the_provisional_board():
    from ttr_nb.compare import compare_variants
    text = str(compare_variants("usa", "south_korea", only_differences=True))
    assert "then keep exactly 4 (SK-SETUP-3" in text and "shuffled into the deck" in text
    assert "(SK-COMP-4/USA-COMP-4)" in text and "— (SK-SCORE-4/USA-SCORE-3)" in text


def test_draft_texts_name_cities_and_bot_reasons_keep_the_draft_secret():
    s = new_game("south_korea", 3, 8)
    tid = s.pending_for(1).get("packet")[0]
    t = M.ticket(tid)
    a = explain_ok(s, f"red: draft pick {t.b.lower()}-{t.a}")
    assert a == DraftPick(ticket=f"{t.a}–{t.b}", seat=1) and parse_action(str(a)) == a
    assert explain_ok(s, f"red: draft pick {tid}") == a
    action, why = GreedyBot(0).choose(s, 1)
    assert isinstance(action, DraftPick) and action.ticket in str(why) and action.ticket not in why.public
