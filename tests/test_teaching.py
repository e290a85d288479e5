"""ttr_nb.teaching: the helpers the teaching notebooks call (every one of them, with real positions)."""
from __future__ import annotations

from purity import run_blocked

from types import SimpleNamespace

import pytest

from ttr_nb import Game, get_variant, legal_actions, score
from ttr_nb import teaching as T
from ttr_nb.board.actions import KeepTickets
from ttr_nb.bots import GreedyBot
from ttr_nb.errors import TTRError
from ttr_nb.board.positions import position
from ttr_nb.board.trail import Trail


# Blue's routes make a loop through Denver: the longest trail (16) passes Denver twice; a simple path gets 9.
LOOP = {"R037": 0, "R035": 0, "R058": 0, "R032": 0, "R039": 0, "R050": 0}


def loop_position():
    return position("usa", players=3, seed=2, claims={**LOOP, "R024": 1, "R086": 1},
                    tickets={0: ["T01", "T16"], 1: ["T03"]})


def ending_game() -> Game:
    """Blue (4 trains) claims a 2-route: final round; bots play Red and Green; Blue's final claim ends it."""
    g = Game(start=position("usa", players=3, seed=5, trains={0: 4}, hands={0: {"green": 2, "red": 1}}))
    g.push("claim R039 green2")
    g.play_bots({1: GreedyBot(seed=1), 2: GreedyBot(seed=2)}, until_seat=0)
    g.push("claim R003 red1")
    return g


# ----------------------------------------------------------------------------------------------- words

def test_cards_text_from_vectors_and_dicts():
    assert T.cards_text([0, 2, 0, 0, 0, 0, 0, 1, 1]) == "2 blue, 1 red, 1 locomotive"
    assert T.cards_text({"locomotive": 3, "purple": 1}) == "1 purple, 3 locomotives"
    assert T.cards_text([0] * 9) == "no cards"
    assert T.cards_text({}) == "no cards"


# ----------------------------------------------------------------------------------------------- try_action / walk

def test_try_action_legal_applies_and_reports_events_and_status():
    s = position("usa", players=3, seed=1, market=["locomotive", "locomotive", "red", "blue", "green"],
                 deck_top=["locomotive", "white", "orange", "purple", "black", "yellow"])
    o = T.try_action(s, "draw faceup 3")
    assert o.ok and o.error is None and o.rule is None
    assert o.state is not s and o.state.ply == s.ply + 1
    assert o.words == "Blue takes face-up card 3 (red)"
    assert o.event_kinds == ["market_reset"] and o.events[0].rule == "USA-DRAW-6"
    assert o.status.startswith("Blue: take your second card") and "USA-DRAW-4" in o.status
    text = str(o)
    assert text.splitlines()[0] == "ok  Blue takes face-up card 3 (red)   [draw faceup 3]"
    assert "· Three face-up locomotives" in text and text.splitlines()[-1].startswith("   → Blue: take your second")


def test_try_action_refused_leaves_state_and_names_rule():
    s = position("usa", players=3, seed=1, market=["red", "blue", "locomotive", "green", "white"])
    first = T.try_action(s, "draw deck")
    o = T.try_action(first.state, "draw faceup 3")
    assert not o.ok and o.rule == "USA-DRAW-4" and o.state is first.state
    assert o.events == () and o.status == first.status
    assert str(o) == ("REFUSED  'draw faceup 3': a face-up locomotive may not be taken as the second card "
                      "(USA-DRAW-4)")
    # a malformed action (BadAction) is refused too, without a rule id
    bad = T.try_action(s, "claim R999 red1")
    assert not bad.ok and bad.rule is None and "R999" in str(bad.error)
    # an action object with an empty ticket list prints without a trailing blank
    g = Game(start=s)
    g.push("tickets")
    none = T.try_action(g.state, KeepTickets(tickets=(), seat=0))
    assert none.action == "blue: keep" and none.rule == "USA-TICKET-2"


def test_outcome_pretty_repr_is_its_text():
    o = T.try_action(position("usa", players=2, seed=1), "draw deck")
    calls = []
    o._repr_pretty_(SimpleNamespace(text=calls.append), False)
    assert calls == [str(o)]


def test_walk_goes_on_from_the_unchanged_state_after_a_refusal():
    s = position("usa", players=3, seed=1, market=["red", "blue", "locomotive", "green", "white"])
    a, b, c = T.walk(s, ["draw deck", "draw faceup 3", "draw faceup 1"])
    assert a.ok and not b.ok and c.ok
    assert b.state is a.state
    assert c.state.current == 1 and c.state.players[0].hand_size == s.players[0].hand_size + 2


# ----------------------------------------------------------------------------------------------- positions

def test_position_text_shows_table_and_deck_top():
    s = position("usa", players=3, seed=1, hands={0: {"red": 2, "blue": 1}},
                 market=["red", "blue", "locomotive", "green", "white"], deck_top=["yellow", "black"])
    text = T.position_text(s, deck_top=2)
    lines = text.splitlines()
    assert lines[0] == "Blue to play: draw train cards, claim a route or draw destination tickets (USA-TURN-1)."
    assert lines[1] == "face-up: 1:red, 2:blue, 3:locomotive, 4:green, 5:white"
    assert "next in the deck: yellow, black" in lines[2]
    assert "Blue   trains 45 · cards: 1 blue, 2 red · tickets: none" in lines
    assert len(lines) == 3 + 3
    only_blue = T.position_text(s, seats=[0])
    assert "Red" not in only_blue.split("\n", 3)[3] and "next in the deck" not in only_blue
    one = T.position_text(position("usa", players=2, seed=1, deck_size=1))
    assert "deck: 1 card ·" in one


def test_seat_view_text_hides_other_hands_and_offers():
    g = Game("usa", players=3, seed=7)           # setup: everyone chooses from 3 offered tickets
    text = T.seat_view_text(g.state, 0)
    own_offer = g.state.pending_for(0).get("offered")
    red_offer = g.state.pending_for(1).get("offered")
    cities = [f"{g.variant.map.ticket(t).a}–{g.variant.map.ticket(t).b}" for t in (*own_offer, *red_offer)]
    assert all(c in text for c in cities[:3])          # tickets are named by their cities, not ids
    assert not any(c in text for c in cities[3:]) and not any(t in text for t in (*own_offer, *red_offer))
    assert "Red    cards: 4 cards (hidden)" in text and "choosing from 3 tickets (hidden)" in text
    assert text.startswith("What Blue sees — observe(state, 0):")
    s = position("usa", players=2, seed=1, hands={0: {"white": 1}, 1: {"red": 5}}, tickets={1: ["T05"]})
    blue = T.seat_view_text(s, 0)
    assert "5 red" not in blue and "Chicago–New Orleans" not in blue and "tickets: 1 (hidden)" in blue
    assert "5 red" in T.seat_view_text(s, 1) and "Chicago–New Orleans (7)" in T.seat_view_text(s, 1)


# ----------------------------------------------------------------------------------------------- the turn

def test_action_menu_groups_legal_actions_by_kind():
    s = position("usa", players=3, seed=1, hands={0: {"red": 3}})
    menu = T.action_menu(s)
    assert list(menu) == ["draw train cards", "claim a route", "draw destination tickets"]
    assert sum(len(v) for v in menu.values()) == len(legal_actions(s))
    assert menu["draw train cards"][0] == "blue: draw deck" and menu["draw destination tickets"] == ["blue: tickets"]
    second = T.try_action(s, "draw deck").state
    assert list(T.action_menu(second)) == ["draw train cards"]
    setup = Game("usa", players=2, seed=3).state
    assert list(T.action_menu(setup, 0)) == ["keep tickets"]
    text = T.action_menu_text(s, examples=2)
    assert text.splitlines()[0] == ("draw train cards: 6 legal actions — blue: draw deck; blue: draw faceup 1; … "
                                    "(4 more)")
    n_routes = len({a.split("claim ", 1)[1].rsplit(" ", 1)[0] for a in menu["claim a route"]})   # city texts
    assert n_routes > 10 and not any("R0" in a for a in menu["claim a route"])
    assert f"on {n_routes} routes" in text
    assert text.splitlines()[-1] == "draw destination tickets: 1 legal action — blue: tickets"


# ----------------------------------------------------------------------------------------------- claiming

def test_payment_options_are_exactly_the_legal_claims_of_the_route():
    s = position("usa", players=3, seed=1, hands={0: {"red": 3, "blue": 2, "green": 1, "locomotive": 2}})
    for rid in ("R037", "R039", "R049"):
        got = [text for text, _ in T.payment_options(s, rid)]
        m = get_variant(s.variant).map
        want = [str(a) for a in legal_actions(s) if getattr(a, "route", None) and m.route(a.route).id == rid]
        assert got == want and got
    assert T.payment_options(s, "R037") == [("blue: claim Denver–Salt Lake City (red) red3", "3 red"),
                                            ("blue: claim Denver–Salt Lake City (red) red2+loco1", "2 red + 1 locomotive"),
                                            ("blue: claim Denver–Salt Lake City (red) red1+loco2", "1 red + 2 locomotives")]
    assert T.payment_options(s, "R040") == []          # orange 6: no orange cards
    assert T.payment_options(s, "R037", seat=1) == []  # not Red's turn


def test_points_table():
    assert T.points_table() == [(1, 1), (2, 2), (3, 4), (4, 7), (5, 10), (6, 15)]
    europe = dict(T.points_table("europe"))          # the variant's own table (Europe has 8-space routes)
    assert europe[6] == 15 and europe[8] == 21


def test_who_may_claim_follows_player_count_and_trains():
    three = position("usa", players=3, seed=1, claims={"R037": 1})
    ans = T.who_may_claim(three, "R038")
    assert list(ans) == ["Blue", "Red", "Green"]
    assert ans["Blue"].endswith("(USA-CLAIM-8)") and ans["Green"].endswith("(USA-CLAIM-8)")
    assert ans["Red"].endswith("(USA-CLAIM-7)")
    four = T.who_may_claim(position("usa", players=4, seed=1, claims={"R037": 1}), "R038")
    assert four == {**four, "Blue": "may claim", "Green": "may claim", "Yellow": "may claim"}
    assert four["Red"].startswith("may not: Red already owns")
    taken = T.who_may_claim(three, "R037")
    assert all(v.endswith("(USA-CLAIM-5)") for v in taken.values())
    short = T.who_may_claim(position("usa", players=2, seed=1, trains={0: 3}), "R035")
    assert short["Blue"].endswith("(USA-CLAIM-4)") and short["Red"] == "may claim"


# ----------------------------------------------------------------------------------------------- games

def test_moves_text_lists_words_and_events():
    g = Game("usa", players=3, seed=7)
    g.push_many(["red: keep T11 T18 T03", "green: keep T16 T02", "blue: keep T30 T27", "claim R099 blue1"])
    text = T.moves_text(g)
    assert text.splitlines()[0] == "   1. Red keeps Sault St. Marie–Oklahoma City (9), Winnipeg–Little Rock (11), New York–Atlanta (6)"
    assert "· Everyone has chosen tickets: Blue starts (USA-SETUP-4)" in text
    assert "claimed Seattle–Vancouver" in text
    assert "claimed" not in T.moves_text(g, claims=False)
    assert T.moves_text(g, 3).startswith("   4. Blue claims Seattle–Vancouver")
    assert T.moves_text(g, 0, 1).count("\n") == 0


def test_final_round_turns_gives_every_player_one_turn_trigger_included():
    g = ending_game()
    assert g.is_over
    assert T.final_round_turns(g) == ["Red", "Green", "Blue"]
    assert T.final_round_turns(Game("usa", players=2, seed=1)) == []
    # a two-card draw is one turn, not two
    g2 = Game(start=position("usa", players=2, seed=5, trains={0: 4}, hands={0: {"green": 2}}))
    g2.push_many(["claim R039 green2", "draw deck", "draw deck", "draw deck", "draw deck"])
    assert g2.is_over and T.final_round_turns(g2) == ["Red", "Blue"]


def test_greedy_game_is_seeded_and_finished():
    a, b = T.greedy_game(players=3, seed=4), T.greedy_game(players=3, seed=4)
    assert a.is_over and a.actions() == b.actions()
    assert [p.total for p in a.score().players] == [92, 89, 97]
    assert T.greedy_game(players=2, seed=1).actions() != a.actions()


# ----------------------------------------------------------------------------------------------- scoring

def test_route_cities_follows_the_routes():
    assert T.route_cities("usa", ["R039", "R050"]) == ["Denver", "Santa Fe", "El Paso"]
    assert T.route_cities("usa", ["R050", "R039"]) == ["El Paso", "Santa Fe", "Denver"]
    assert T.route_cities("usa", ["R039"], "Santa Fe") == ["Santa Fe", "Denver"]
    assert T.route_cities("usa", [], "Denver") == ["Denver"] and T.route_cities("usa", []) == []
    with pytest.raises(TTRError, match="not consecutive"):
        T.route_cities("usa", ["R039", "R001"])


def test_revisited_cities_and_trail_text():
    sheet = score(loop_position())
    trail = sheet.players[0].longest
    assert trail.length == 16 and T.revisited_cities(trail) == ["Denver"]
    text = T.trail_text(trail)
    assert text.endswith("passes through Denver twice") and "16 trains, 6 routes" in text
    loop = Trail(9, ("R035", "R058", "R032"), ("Denver", "Omaha", "Kansas City", "Denver"))
    assert T.revisited_cities(loop) == []             # a closed loop's start is not a revisit
    assert T.trail_text(Trail(0, (), ())) == "no routes"
    assert T.trail_text(Trail(2, ("R039",), ("Denver", "Santa Fe"))) == "Denver → Santa Fe — 2 trains, 1 route"


def test_longest_simple_path_is_shorter_than_the_trail():
    s = loop_position()
    assert T.longest_simple_path(s, 0) == 9
    assert T.longest_simple_path(s, 1) == 6          # Chicago–Toronto–Pittsburgh
    assert T.longest_simple_path(s, 2) == 0          # no routes


def test_ticket_lines_show_paths_and_penalties():
    sheet = score(loop_position())
    assert T.ticket_lines(sheet, 0) == [
        "completed      Denver–El Paso: +4  via Denver → Santa Fe → El Paso",
        "not completed  Denver–Pittsburgh: -11  (no path of own routes joins them)",
    ]
    assert T.ticket_lines(sheet, 2) == []


# ----------------------------------------------------------------------------------------------- variants

def test_interpretations():
    rows = T.interpretations("usa")
    assert rows == list(get_variant("usa").interpretations)
    assert "USA-DRAW-8" in dict(rows)
    text = T.interpretations_text("usa", width=80)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert [l[:12].strip() for l in text.splitlines() if not l.startswith(" ")] == [r for r, _ in rows]


def test_variants_overview_and_text():
    rows = T.variants_overview()
    assert [r["key"] for r in rows] == ["europe", "maerklin", "south_korea", "usa"]
    usa = next(r for r in rows if r["key"] == "usa")
    assert usa["players"] == "2–5" and usa["routes"] == 100 and usa["tickets"] == 30 and usa["rule_prefix"] == "USA"
    assert usa["provisional"] is False
    assert next(r for r in rows if r["key"] == "south_korea")["provisional"] is True
    text = T.variants_text()
    lines = text.splitlines()
    assert len(lines) == 4 and [ln for ln in lines if "PROVISIONAL" in ln] == [ln for ln in lines if "Märklin" in ln or "South Korea" in ln]


def test_variants_text_flags_a_provisional_board(monkeypatch):
    real = get_variant("usa")
    fake_map = SimpleNamespace(name="Märklin board", cities=[1] * 3, routes=[1] * 4, tickets=[1] * 5,
                               provisional=True, provisional_note="route colours not checked yet")
    fake = SimpleNamespace(key="maerklin", name="Ticket to Ride Märklin", map=fake_map, settings=real.settings,
                           rule_prefix="MK", interpretations=(), description="")
    monkeypatch.setattr(T, "available_variants", lambda: ["maerklin", "usa"])
    monkeypatch.setattr(T, "get_variant", lambda key: fake if key == "maerklin" else real)
    text = T.variants_text()
    assert "maerklin Ticket to Ride Märklin" in text
    assert "PROVISIONAL board — route colours not checked yet" in text.splitlines()[0]
    assert "PROVISIONAL" not in text.splitlines()[1]


# ----------------------------------------------------------------------------------------------- pictures & views

def test_board_of_draws_owners_closed_twins_and_trail():
    pytest.importorskip("plotly")
    from ttr_nb.render import trace_index
    s = loop_position()
    trail = score(s).players[0].longest.routes
    fig = T.board_of(s, trail=trail, highlight=[("x", ["R024"])], title="t")
    assert fig.layout.title.text == "t"
    blue = fig.data[trace_index(fig, "seat:0")]
    assert blue.name == "Blue" and any(x is not None for x in blue.x)
    assert any(x is not None for x in fig.data[trace_index(fig, "closed")].x)        # R038 closed (3 players)
    assert fig.data[trace_index(fig, "trail")].name == "Longest trail"
    assert fig.data[trace_index(fig, "highlight:0")].name == "x"
    four = T.board_of(position("usa", players=4, seed=1, claims={"R037": 1}))
    assert not any(x is not None for x in (four.data[trace_index(four, "closed")].x or ()))


def test_board_of_focus_zooms_and_keeps_proportions():
    pytest.importorskip("plotly")
    s = loop_position()
    full = T.board_of(s)
    fx, fy = full.layout.xaxis.range, full.layout.yaxis.range
    fig = T.board_of(s, focus=["Denver", "Salt Lake City"], margin=2)
    x, y = fig.layout.xaxis.range, fig.layout.yaxis.range
    assert x[1] - x[0] < (fx[1] - fx[0]) / 2
    assert (x[1] - x[0]) / (y[1] - y[0]) == pytest.approx((fx[1] - fx[0]) / (fy[1] - fy[0]))
    with pytest.raises(TTRError, match="Atlantis"):
        T.zoom_to(fig, ["Atlantis"])
    T.zoom_to(full, ["Miami", "Seattle"])           # the whole diagonal: wide and tall
    assert full.layout.xaxis.range[0] < fx[0] + 5


def test_learner_view_and_history_view():
    pytest.importorskip("ipywidgets")
    view = T.learner_view(players=3, seed=11)
    assert T.PLAYVIEW_CLASS in view.widget._dom_classes
    assert view.human_seats == (0,) and set(view.bots) == {1, 2}
    assert view.game.state.phase == "setup" and view.game.to_move() == (0,)   # the bots have chosen already
    offered = view.offered(0)
    view.set_ticket_checks(0, offered[:2])
    view.keep_tickets(0)
    view.press("draw deck")
    assert "take your second card" in view.status.value
    h = T.history_view(T.greedy_game(players=2, seed=1))
    assert T.HISTORYVIEW_CLASS in h.widget._dom_classes and h.ply == 0


def test_teaching_imports_without_plotly_or_widgets():
    done = run_blocked("""
        from ttr_nb import teaching
        from ttr_nb.board.positions import position
        print(teaching.try_action(position("usa", players=2, seed=1), "draw deck").status)
        assert not [m for m in sys.modules if m.split(".")[0] in BLOCKED]
        print("OK")
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("OK") and "take your second card" in done.stdout