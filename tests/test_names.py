"""Learner's words: actions and messages name cities, not ids; what one seat may read hides the others' secrets."""
from __future__ import annotations

import json
import re

import pytest

from ttr_nb import Game
from ttr_nb.board.actions import Claim, KeepTickets, parse_action
from ttr_nb.bots import GreedyBot, MixedBot, RandomBot, Reason, public_reason
from ttr_nb.board.cards import CARD_NAMES
from ttr_nb.board.engine import PUBLIC, apply, check, describe, legal_actions, new_game, step, turn_status
from ttr_nb.errors import BadAction, TTRError
from ttr_nb.board.names import find_route, route_text, ticket_text, ticket_with_points
from ttr_nb.board.positions import position
from ttr_nb.variants import get_variant

USA = get_variant("usa").map
EU = get_variant("europe").map
ID = re.compile(r"\b[RT]\d{2,3}\b")


# ----------------------------------------------------------------------------------------------- texts

def test_route_texts_are_unique_and_name_both_cities():
    for m in (USA, EU):
        texts = [route_text(m, r) for r in m.routes]
        assert len(set(texts)) == len(texts)
        for r, t in zip(m.routes, texts):
            assert t.startswith(f"{r.a}–{r.b}") and find_route(m, t) is r


@pytest.mark.parametrize("game", ["usa", "europe", "maerklin", "south_korea"])
def test_a_ticket_for_a_learner_says_what_its_number_is(game):
    m = get_variant(game).map
    texts = [ticket_with_points(m, t.id) for t in m.tickets]
    assert len(set(texts)) == len(texts)                         # twins stay told apart
    for t, text in zip(m.tickets, texts):
        assert text.startswith(f"{t.a}–{t.b} ({t.points} point") and ")" == text[-1]
        assert ticket_with_points(m, t) == text
    one = [t for t in m.tickets if t.points == 1]
    assert all(ticket_with_points(m, t).endswith("(1 point)") for t in one)
    with pytest.raises(TTRError):
        ticket_with_points(m, "T999")


def test_double_routes_are_told_apart_by_colour_then_number():
    assert route_text(USA, "R099") == "Seattle–Vancouver (gray #1)"
    assert route_text(USA, "R100") == "Seattle–Vancouver (gray #2)"
    assert route_text(USA, "R004") == "Atlanta–New Orleans (orange)"
    assert route_text(USA, "R001") == "Atlanta–Charleston"
    for text in ("vancouver-seattle (GRAY #2)", "Seattle—Vancouver (gray#2)", "seattle – vancouver (gray # 2)"):
        assert find_route(USA, text).id == "R100", text
    assert find_route(USA, "new orleans-atlanta (orange)").id == "R004"
    with pytest.raises(TTRError, match="say which"):
        find_route(USA, "Seattle–Vancouver")
    with pytest.raises(TTRError, match="no route between"):
        find_route(USA, "Seattle–Miami")


@pytest.mark.parametrize("text,canonical", [
    ("claim Denver-Omaha purple4", None),
    ("claim R001 red2", None),
    ("claim seattle-vancouver (gray #2) red1", "blue: claim Seattle–Vancouver (gray #2) red1"),
])
def test_claim_texts_round_trip_and_check_makes_them_canonical(text, canonical):
    a = parse_action(text)
    assert parse_action(str(a)) == a


def test_check_turns_ids_and_loose_spelling_into_the_canonical_city_text():
    s = position("usa", 2, 0, hands={0: {"red": 2}})
    for typed in ("claim R100 red1", "claim r100 red1", "claim vancouver-SEATTLE (gray #2) red1"):
        act, _ = check(s, typed)
        assert str(act) == "blue: claim Seattle–Vancouver (gray #2) red1"
        assert act in legal_actions(s) and parse_action(str(act)) == act


def test_keep_names_tickets_by_cities_and_ids_stay_accepted():
    s = new_game("usa", 3, 1)
    off = s.pending_for(0).get("offered")
    names = [ticket_text(USA, t) for t in off]
    want = f"blue: keep {names[0]}, {names[2]}"
    for typed in (f"blue: keep {off[2]} {off[0]}", f"blue: keep {names[2].upper()}, {names[0].lower()}",
                  f"blue: keep {off[0]}, {names[2].replace('–', '-')}"):
        act, _ = check(s, typed)
        assert str(act) == want and parse_action(want) == act
    assert parse_action("keep T24 T03") == KeepTickets(tickets=("T24", "T03"))
    assert str(parse_action("keep Helena–Los Angeles, Duluth–Houston")) == "keep Helena–Los Angeles, Duluth–Houston"
    with pytest.raises(BadAction, match="named twice"):
        check(s, f"blue: keep {off[0]}, {names[0]}")


def test_every_legal_action_prints_cities_and_round_trips():
    for variant in ("usa", "europe"):
        g = Game(variant, 3, 4)
        g.play_bots({i: RandomBot(i) for i in range(3)}, max_plies=120)
        for a in legal_actions(g.state) + [p.action for p in g.history]:
            assert not ID.search(str(a)), str(a)
            assert parse_action(str(a)) == a


def test_station_text_is_recorded_in_the_maps_spelling():
    g = Game("europe", 2, 0)
    for seat in (0, 1):
        g.push(next(a for a in g.legal_actions(seat)))
    hand = g.state.players[g.state.current].hand
    colour = CARD_NAMES[max(range(8), key=lambda k: hand[k])]
    city = next(c.name for c in EU.cities if c.name != c.name.upper())
    ply = g.push(f"station {city.upper()} {colour}1")
    assert ply.text.endswith(f"station {city} {colour}1")


def test_old_saves_with_ids_still_load_and_new_saves_store_cities(tmp_path):
    g = Game("usa", 2, 3)
    old = []
    for _ in range(40):
        a = g.legal_actions()[-1] if g.state.phase == "setup" else RandomBot(5).choose(g.state, g.to_move()[0])[0]
        g.push(a)
    for p in g.history:          # the same game written as the old engine wrote it: ids
        a = p.action
        if isinstance(a, Claim):
            old.append(str(Claim(route=USA.route(a.route).id, payment=a.payment, seat=a.seat)))
        elif isinstance(a, KeepTickets):
            old.append(str(KeepTickets(tickets=tuple(USA.ticket(t).id for t in a.tickets), seat=a.seat)))
        else:
            old.append(p.text)
    assert any(ID.search(t) for t in old)
    doc = g.to_dict()
    doc["actions"] = old
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    h = Game.load(path)
    assert h.actions() == g.actions()
    assert not any(ID.search(t) for t in json.loads(h.save(tmp_path / "new.json").read_text())["actions"])


# ----------------------------------------------------------------------------------------------- messages

def test_refusals_and_status_name_cities_not_ids():
    s = new_game("usa", 3, 1)
    off = s.pending_for(0).get("offered")
    msg = str(check.__globals__["explain"](s, "blue: keep"))
    assert "keep at least 2" in msg and ticket_text(USA, off[0]) in msg and not ID.search(msg)
    msg = str(check.__globals__["explain"](s, "blue: draw deck"))
    assert ticket_text(USA, off[0]) in msg and not ID.search(msg)
    assert not ID.search(turn_status(s, 0))
    p = position("usa", 2, 1, hands={1: {"yellow": 4}}, claims={"R004": 0}, current=1)
    msg = str(check.__globals__["explain"](p, "claim R005 yellow4"))
    assert "Atlanta–New Orleans (orange)" in msg and not ID.search(msg)


# ----------------------------------------------------------------------------------------------- secrets

def _hidden_words(state, viewer: int) -> set[str]:
    """The city texts of tickets ``viewer`` may not know (other seats' tickets and offers) that are not also the
    name of a route (a public claim may name the same two cities)."""
    v = get_variant(state.variant)
    route_pairs = {frozenset((r.a, r.b)) for r in v.map.routes}
    ids = [t for i, p in enumerate(state.players) if i != viewer for t in p.tickets]
    ids += [t for q in state.pending if q.seat != viewer and q.kind == "choose_tickets" for t in q.get("offered")]
    out = set()
    for tid in ids:
        t = v.map.ticket(tid)
        if frozenset((t.a, t.b)) not in route_pairs:
            out.add(ticket_text(v.map, t))
    return out


@pytest.mark.parametrize("variant,seed", [("usa", 1), ("usa", 2), ("europe", 3), ("europe", 4)])
def test_public_texts_never_show_another_seats_tickets_or_drawn_card(variant, seed):
    n = 3
    bots = [GreedyBot(seed), MixedBot(0.5, seed), RandomBot(seed)]
    s = new_game(variant, n, seed)
    checked = secret_reasons = 0
    for _ in range(400):
        if s.phase == "over":
            break
        seat = (s.pending[0].seat if s.pending else s.current)
        action, reason = bots[seat].choose(s, seat)
        assert isinstance(reason, Reason)
        after, events = step(s, action)
        act, _ = check(s, action)
        for viewer in range(n):
            if viewer == seat:
                continue
            hidden = _hidden_words(after, viewer) | _hidden_words(s, viewer)
            texts = [describe(s, act, viewer), reason.text_for(viewer, seat), turn_status(after, viewer),
                     *(e.text_for(viewer) for e in events)]
            for text in texts:
                assert not any(h in text for h in hidden), (text, hidden)
                checked += 1
            for e in events:
                if e.kind == "deck_card":
                    assert e.text_for(viewer) == e.text and not any(c in e.text for c in CARD_NAMES)
        if reason.secret:
            secret_reasons += 1
        s = after
    assert checked > 500 and secret_reasons > 0


def test_private_wording_goes_to_the_acting_seat_and_the_teacher_only():
    """A swap test: the private and the public wording really differ, and each goes where it belongs."""
    s = new_game("usa", 3, 1)
    off = s.pending_for(1).get("offered")
    keep = f"red: keep {off[0]} {off[1]}"
    names = [ticket_text(USA, t) for t in off[:2]]
    assert all(nm in describe(s, keep) for nm in names)
    assert all(nm in describe(s, keep, 1) for nm in names)
    assert describe(s, keep, 0) == describe(s, keep, PUBLIC) == "Red keeps 2 tickets"
    _, events = step(s, keep)
    (e,) = [e for e in events if e.kind == "tickets_returned"]
    assert e.seat == 1 and ticket_text(USA, off[2]) in e.text_for(1) and ticket_text(USA, off[2]) in e.text_for(None)
    assert ticket_text(USA, off[2]) not in e.text_for(0) and ticket_text(USA, off[2]) not in str(e)
    # a blind draw: the drawer (and the teacher) learn the card; the others do not
    s = apply(apply(apply(s, keep), f"blue: keep {' '.join(s.pending_for(0).get('offered'))}"),
              f"green: keep {' '.join(s.pending_for(2).get('offered'))}")
    card = s.deck[0]
    name = CARD_NAMES[card]
    _, events = step(s, "draw deck")
    (e,) = [e for e in events if e.kind == "deck_card"]
    assert e.text_for(0).startswith("You drew a") and name in e.text_for(0) and name in e.text_for(None)
    assert name not in e.text_for(1) and e.text_for(1) == "Blue drew a card from the deck"


def test_bot_reasons_have_a_public_wording_without_tickets():
    s = new_game("usa", 2, 0)
    action, reason = GreedyBot(0).choose(s, 0)
    kept = [USA.ticket(t) for t in action.tickets]
    assert all(ticket_text(USA, t) in reason for t in kept)
    assert reason.public == f"keeps {len(kept)} tickets" and reason.secret
    assert public_reason(reason) == reason.public and public_reason("plain words") == "plain words"
    assert reason.text_for(None, 0) == str(reason) == reason.text_for(0, 0) and reason.text_for(1, 0) == reason.public
