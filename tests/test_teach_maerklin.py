"""Märklin's teaching layer: the board's goods, passengers and countries, the PlayView (ticket mix, passengers, the
hint), the exercises, the comparison table and the score table. The rules themselves: test_rules_maerklin.py."""
from __future__ import annotations

import plotly.graph_objects as go
import pytest

import ttr_nb.teaching as ttr
from ttr_nb.board.cards import LOCO4, PASSENGER
from ttr_nb.board.engine import board_marks, legal_actions
from ttr_nb.errors import TTRError
from ttr_nb.exercises import BestPassengerMove, PassengerFare, make_exercise
from ttr_nb.games.maerklin import best_passenger_move, goods_stacks, occupied
from ttr_nb.render import board_figure, trace_index
from ttr_nb.widgets import PlayView

MK = ttr.get_variant("maerklin")


def journey_position():
    """Blue's passenger in Magdeburg; Blue owns Magdeburg–Berlin and Leipzig–Erfurt, Red owns Berlin–Leipzig."""
    return ttr.position("maerklin", players=2, seed=1, hands={0: {"passenger": 1, "red": 2}},
                        passengers={0: ["Magdeburg"]},
                        claims={"Berlin–Magdeburg": 0, "Berlin–Leipzig": 1, "Erfurt–Leipzig": 0})


def trace(fig, key):
    return fig.data[trace_index(fig, key)]


# ------------------------------------------------------------------------------------------------ the board

def test_board_draws_every_goods_stack_with_its_top_value_colour_and_symbol():
    s = ttr.walk(journey_position(), ["ride Magdeburg–Berlin"])[-1].state
    fig = ttr.board_of(s)
    goods = trace(fig, "goods")
    stacks = goods_stacks(s)
    assert sorted(goods.customdata) == sorted(stacks) and len(stacks) == 35    # MK-COMP-5: 35 German cities
    assert goods.text[0] != ""                                                # a full stack first (the legend)
    for city, text, symbol, hover in zip(goods.customdata, goods.text, goods.marker.symbol, goods.hovertext):
        stack = stacks[city]
        colour = MK.map.city(city).extra["goods_colour"]
        assert text == (str(stack[0]) if stack else "")
        assert symbol.startswith({"white": "circle", "yellow": "square", "red": "diamond", "black": "hexagon"}[colour])
        assert symbol.endswith("-open") == (not stack)
        assert colour in hover and city in hover
    berlin = list(goods.customdata).index("Berlin")
    assert goods.text[berlin] == "6" and "6, 5, 4" in goods.hovertext[berlin]     # the 7 was taken


def test_board_draws_passengers_where_they_stand_and_a_moving_one_where_it_is():
    s = journey_position()
    assert dict(zip(trace(ttr.board_of(s), "passengers").customdata, ["Blue"])) == {"Magdeburg": "Blue"}
    mid = ttr.walk(s, ["ride Magdeburg–Berlin", "ride Berlin–Leipzig"])[-1].state
    marks = board_marks(mid)
    assert marks["passengers"] == {"Leipzig": 0} and occupied(mid) == {"Magdeburg": 0}   # it keeps its slot
    assert [set(MK.map.route(r).cities) for r in marks["trail"]] == [{"Berlin", "Magdeburg"}, {"Berlin", "Leipzig"}]
    fig = ttr.board_of(mid)
    p = trace(fig, "passengers")
    assert list(p.customdata) == ["Leipzig"] and "Blue's passenger" in p.hovertext[0]
    t = trace(fig, "trail")
    assert t.name == "Blue's passenger" and list(t.customdata) and set(t.customdata) - {None} == set(marks["trail"])


def test_countries_are_squares_and_say_so():
    fig = ttr.board_of(ttr.Game("maerklin", players=2, seed=1).state)
    cities = trace(fig, "cities")
    for name, symbol, hover in zip(cities.customdata, cities.marker.symbol, cities.hovertext):
        country = name in MK.map.ends_only
        assert (symbol == "square") == country
        assert ("a country" in hover) == country


def test_triple_routes_are_named_triple_in_the_hover():
    triple = next(r for r in MK.map.routes if len(MK.map.twins(r.id)) == 2)
    routes = trace(ttr.board_of(ttr.Game("maerklin", players=2, seed=1).state), "routes")
    hover = routes.hovertext[list(routes.customdata).index(triple.id)]
    assert "triple route: the others are gray and gray" in hover         # three parallel gray routes, in words


def test_maerklin_board_figures_validate():
    s = ttr.walk(journey_position(), ["ride Magdeburg–Berlin"])[-1].state
    for fig in (ttr.board_of(s), board_figure(MK.map, goods=board_marks(s)["goods"], passengers={"Berlin": 1},
                                              player_names=["Blue", "Red"], player_colours=["blue", "red"])):
        go.Figure(fig.to_dict())                  # plotly's validation: raises on a bad property


def test_a_journey_animates_token_by_token_and_a_refused_step_gets_no_frame():
    start = journey_position()
    steps = ttr.walk(start, ["ride Magdeburg–Berlin", "ride Berlin–Leipzig", "ride Leipzig–Erfurt",
                             "ride Erfurt–Leipzig", "stop", "draw deck", "draw deck"])
    assert [o.ok for o in steps] == [True, True, True, False, True, True, True]
    fig = ttr.board_animation(start, steps, focus=["Magdeburg", "Berlin", "Leipzig", "Erfurt"])
    go.Figure(fig.to_dict())                      # frames, buttons and slider validate
    assert [f.name for f in fig.frames] == ["0", "1", "2", "3", "4", "5", "6"]
    assert [s.label for s in fig.layout.sliders[0].steps] == ["start", "1", "2", "3", "4", "5", "6"]
    metas = [fig.data[i].meta for i in fig.frames[0].traces]
    assert {"goods", "passengers", "trail"} <= set(metas) and "routes" not in metas    # only what changes travels

    def frame_trace(k, key):
        return fig.frames[k].data[metas.index(key)]

    def top(k, city):
        goods = frame_trace(k, "goods")
        return goods.text[list(goods.customdata).index(city)]

    stacks = goods_stacks(start)
    for k, city in ((1, "Berlin"), (2, "Leipzig"), (3, "Erfurt")):     # each step takes its city's top token
        assert top(k - 1, city) == str(stacks[city][0]) and top(k, city) == str(stacks[city][1])
    assert sum(x is not None for x in frame_trace(3, "trail").x) > sum(x is not None for x in frame_trace(1, "trail").x)
    # stop: the passenger waits in Erfurt until the round ends (Red's turn), then leaves the game (MK-PASS-6)
    assert sum(x is not None for x in frame_trace(4, "passengers").x or ()) == 1
    assert not any(frame_trace(6, "passengers").x or ())
    captions = [f.layout.annotations[-1].text.replace("<br>", " ") for f in fig.frames]
    assert "Magdeburg to Berlin" in captions[1] and "1 passenger card" in captions[2]
    assert "Erfurt to Leipzig" not in " ".join(captions)      # the refused step back along Leipzig–Erfurt
    assert fig.layout.annotations[0].text.startswith("<b>PROVISIONAL MAP</b>")
    assert all(f.layout.annotations[0].text == fig.layout.annotations[0].text for f in fig.frames)
    full = ttr.board_of(start)
    width = fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0]
    assert width < (full.layout.xaxis.range[1] - full.layout.xaxis.range[0]) / 2    # the focus zooms on Märklin too


def test_board_animation_refuses_what_it_cannot_animate():
    start = journey_position()
    with pytest.raises(TTRError, match="nothing to animate"):
        ttr.board_animation(start, ttr.walk(start, ["ride Berlin–Leipzig"]))        # refused: no passenger there
    with pytest.raises(TTRError, match="outcomes of walk"):
        ttr.board_animation(start, [start])


def test_the_table_names_cards_and_pending_steps_in_a_learners_words():
    from ttr_nb.widgets._common import table_view_html
    g = ttr.Game("maerklin", players=3, seed=2)
    assert LOCO4 in g.state.market                       # this seed turns up a +4 locomotive
    for viewer in (None, 0):
        text = table_view_html(g.state, viewer)
        assert "+4 locomotive" in text and "locoplus" not in text
        assert "Blue: announce a ticket mix (at setup)" in text and "setup announce" not in text
    held = ttr.position("maerklin", players=2, seed=1, hands={0: {"locoplus": 2, "red": 1}})
    assert "2 +4 locomotive" in table_view_html(held, 0)


def test_board_refuses_goods_or_passengers_off_the_map():
    with pytest.raises(TTRError, match="goods: unknown city"):
        board_figure(MK.map, goods={"Atlantis": (3,)})
    with pytest.raises(TTRError, match="passengers: city Berlin has seat 7"):
        board_figure(MK.map, passengers={"Berlin": 7}, player_colours=["blue", "red"])


# ------------------------------------------------------------------------------------------------ the PlayView

def test_playview_offers_the_ticket_mix_at_setup_and_later():
    view = PlayView(ttr.Game("maerklin", players=3, seed=1))
    assert [str(a) for a in view.step_options] == [f"blue: announce {k} short {4 - k} long" for k in (4, 3, 2, 1, 0)]
    # addressed to the player, without rule ids (issue 17: "announces 4 short + 0 long tickets")
    assert [b.description for b in view.options_box.children][0] == "announce 4 short + 0 long tickets"
    assert "how many of your 4 tickets" in view.step_info.value and "MK-SETUP-3" not in view.step_info.value
    view.choose_option(2)
    assert len(view.offered(0)) == 4
    view.keep_tickets(0, view.offered(0)[:2])
    s = view.game.state
    assert s.phase == "play" and s.current == 0
    # a mid-game ticket draw: no mix buttons on every turn; "draw tickets" offers the mixes
    assert view.step_options == [] and view.options_box.children == ()
    assert not view.tickets_button.disabled
    assert view.draw_tickets() is None and [type(a).__name__ for a in view.step_options] == ["Announce"] * 5
    assert "Draw tickets" in view.step_info.value and view.game.state is s
    view.click_route(view.map.routes[0].id)                  # changing one's mind closes the choice
    assert view.step_options == []
    view.draw_tickets()
    view.choose_option(0)
    assert view.game.state.pending_for(0).kind == "choose_tickets" and len(view.offered(0)) == 4


def test_playview_moves_a_passenger_by_clicks_and_the_hint_is_the_exact_best_move():
    g = ttr.Game(start=journey_position())
    view = PlayView(g, human_seats=(0,))
    best = best_passenger_move(g.state, 0)
    text = view.hint()
    assert " – ".join(best.cities) in text and f"{best.points} points" in text
    assert tuple(c for c in trace(view.board.fig, "trail").customdata if c) and view.board.fig.data[
        trace_index(view.board.fig, "trail")].name == "hint"
    acts = view.click_city("Magdeburg")
    assert [str(a) for a in acts] == ["blue: ride Magdeburg–Berlin"]
    assert "takes 7 goods points" in view.payments_box.children[0].description
    view.choose_payment(0)
    s = g.state
    assert s.pending and s.pending[0].kind == "journey"
    assert [str(a) for a in view.step_options] == ["blue: ride Berlin–Leipzig", "blue: stop"]
    assert "Red's route: 1 passenger card" in view.options_box.children[0].description
    assert trace(view.board.fig, "trail").name == "Blue's passenger"         # the hint is gone, the path drawn
    view.choose_option(0)
    assert g.state.players[0].hand[PASSENGER] == 0
    view.choose_option(len(view.step_options) - 1)                            # stop
    assert not any(p.seat == 0 for p in g.state.pending)


def test_playview_shows_plus_four_and_passenger_cards():
    s = ttr.position("maerklin", players=2, seed=1, hands={0: {"locoplus": 1, "passenger": 2, "red": 1}},
                     market=["locoplus", "passenger", "red", "blue", "green"])
    view = PlayView(ttr.Game(start=s), human_seats=(0,))
    assert "+4 loco" in view.hand.value and "passenger" in view.hand.value
    assert [b.description for b in view.faceup_buttons[:2]] == ["1: +4 loco", "2: passenger"]
    assert s.players[0].hand[LOCO4] == 1


def test_playview_log_hides_other_seats_tickets_in_maerklin():
    view = PlayView(ttr.Game("maerklin", players=3, seed=1))
    view.choose_option(2)
    view.keep_tickets(0, view.offered(0)[:2])
    lines = " ".join(view.log_lines())
    for seat in (1, 2):
        for tid in view.game.state.players[seat].tickets:
            t = MK.map.ticket(tid)
            assert f"{t.a}–{t.b}" not in lines


# ------------------------------------------------------------------------------------------------ exercises

@pytest.mark.parametrize("seed", range(12))
def test_best_passenger_move_exercise_is_exact_and_right_answers_pass(seed):
    ex = BestPassengerMove(seed=seed)
    assert ex.check(ex.solution())
    assert ex.best.points == best_passenger_move(ex.state, 0).points > 0
    assert not ex.check(ex.start_city)                                   # a journey needs a step
    short = "–".join(ex.best.cities[:2])
    fb = ex.check(short)
    assert bool(fb) == (best_passenger_move(ex.state, 0).points == ex.best.points and len(ex.best.cities) == 2)


def test_best_passenger_move_hint_points_at_what_the_best_journey_does():
    """The hint names passenger cards only when the best journey spends more of them than the answer did."""
    free = BestPassengerMove(seed=13)                      # the classroom's: the best journey spends none
    assert free.best.cards == 0
    fb = free.check("–".join(free.best.cities[:3]))
    assert not fb and "Look for tokens further on." in fb.explanation and "passenger card here" not in fb.explanation
    paying = BestPassengerMove(seed=6)                     # the best journey pays one card for a Red route
    assert paying.best.cards == 1
    fb = paying.check("–".join(paying.best.cities[:2]))
    assert not fb and "A Red route is worth a passenger card here." in fb.explanation


def test_best_passenger_move_exercise_cites_the_engine_for_an_impossible_journey():
    ex = BestPassengerMove(seed=3)
    far = next(c.name for c in MK.map.cities if c.name not in ex.best.cities and not c.extra.get("country"))
    fb = ex.check(f"{ex.start_city}–{far}")
    assert not fb and "MK-PASS" in " ".join(fb.rules) + fb.explanation


@pytest.mark.parametrize("seed", range(8))
def test_passenger_fare_exercise(seed):
    ex = PassengerFare(seed=seed)
    cards, points = ex.solution()
    assert ex.check(f"{cards}, {points}") and ex.check((cards, points))
    assert not ex.check(f"{cards + 1}, {points}")
    if cards != points:
        assert "swapped" in ex.check(f"{points}, {cards}").explanation


def test_maerklin_exercises_are_registered_and_refuse_other_games():
    assert isinstance(make_exercise("best_passenger_move", 2), BestPassengerMove)
    assert isinstance(make_exercise("passenger_fare", 2), PassengerFare)
    with pytest.raises(TTRError, match="no passengers"):
        BestPassengerMove(seed=1, variant="usa")
    fig = BestPassengerMove(seed=4).board(solution=True)
    assert len(trace(fig, "passengers").customdata) == 1 and len(trace(fig, "goods").customdata) == 35


# ------------------------------------------------------------------------------------------------ words

def test_comparison_with_usa_speaks_a_learners_words():
    text = ttr.compare_variants("usa", "maerklin").as_markdown()
    for word in ("+4 locomotives", "passenger cards", "3 face-up locomotives, or 3 face-up passenger cards, reset them",
                 "announce a mix of 4", "2 triple routes", "+10 for the most completed tickets"):
        assert word in text, word
    for dev_id in ("ticket_mix", "maerklin_scoring", "(passengers)", "locoplus"):
        assert dev_id not in text, dev_id


def test_score_table_leaves_out_the_longest_path_where_it_scores_nothing():
    g = ttr.Game("maerklin", players=2, seed=3)
    g.play_bots({s: ttr.GreedyBot(seed=s) for s in range(2)})
    table = g.score().table()
    assert "longest" not in table.splitlines()[0] and "goods" in table.splitlines()[0]
    usa = ttr.Game("usa", players=2, seed=3)
    usa.play_bots({s: ttr.GreedyBot(seed=s) for s in range(2)})
    assert "longest" in usa.score().table().splitlines()[0]


def test_position_places_passengers_and_refuses_bad_ones():
    s = journey_position()
    assert occupied(s) == {"Magdeburg": 0}
    with pytest.raises(TTRError, match="one passenger per city"):
        ttr.position("maerklin", players=2, seed=1, passengers={0: ["Berlin"], 1: ["Berlin"]})
    with pytest.raises(TTRError, match="has no passengers"):
        ttr.position("usa", players=2, seed=1, passengers={0: ["Denver"]})
    with pytest.raises(TTRError, match="3 passengers"):
        ttr.position("maerklin", players=2, seed=1, passengers={0: ["Berlin", "Kiel", "Ulm", "Erfurt"]})
    assert [str(a) for a in legal_actions(s, 0) if type(a).__name__ == "Ride"] == ["blue: ride Magdeburg–Berlin"]


# ------------------------------------------------------------------------------------------------ step through, edit

def test_historyview_steps_through_a_journey_token_by_token():
    from ttr_nb.widgets import HistoryView
    g = ttr.Game(start=journey_position())
    g.push_many(["ride Magdeburg–Berlin", "ride Berlin–Leipzig", "ride Leipzig–Erfurt", "stop", "draw deck",
                 "draw deck"])
    view = HistoryView(g, ply=0)
    seen = []
    for ply in range(7):
        view.show(ply)
        goods = trace(view.board.fig, "goods")
        top = dict(zip(goods.customdata, goods.text))
        seen.append((top["Berlin"], top["Leipzig"], top["Erfurt"], len(set(trace(view.board.fig, "trail").customdata) - {None}),
                     tuple(trace(view.board.fig, "passengers").customdata)))
    assert seen == [("7", "4", "3", 0, ("Magdeburg",)), ("6", "4", "3", 1, ("Berlin",)), ("6", "3", "3", 2, ("Leipzig",)),
                    ("6", "3", "2", 3, ("Erfurt",)), ("6", "3", "2", 0, ("Erfurt",)),   # stopped: waits (MK-PASS-6)
                    ("6", "3", "2", 0, ("Erfurt",)), ("6", "3", "2", 0, ())]          # Red's turn ends the round


def test_editor_edits_passengers_goods_and_both_ticket_decks_with_live_validation():
    from ttr_nb.widgets import EditorView
    ed = EditorView(ttr.position("maerklin", players=2, seed=1, hands={0: {"passenger": 1, "locoplus": 2}}))
    assert "passengers & goods" in [ed.tabs.get_title(i) for i in range(len(ed.tabs.children))]
    assert [w.value for w in ed.hand_inputs[0][-2:]] == [2, 1]                      # +4 and passenger cards
    assert ed.set_passengers(0, ["Berlin", "Kiel"]) and ed.is_valid
    assert ed.feature_panels[0].passenger_inputs[0].value == ["Berlin", "Kiel"]
    assert ed.set_passengers(1, ["Berlin"]) and not ed.is_valid and "MK-CLAIM-5" in ed.problems[0]
    before = ed.state
    assert not ed.set_passengers(1, ["Niederlande"]) and ed.state is before and "country" in ed.message.text
    assert not ed.set_passengers(1, ["Berlin", "Kiel", "Ulm", "Erfurt"]) and ed.state is before
    ed.set_passengers(1, [])
    assert ed.set_goods("Berlin", 2, 0) and ed.is_valid and ttr.goods_of(ed.state, 0) == (7, 6)
    assert not ed.set_goods("Berlin", 4, 1) and "Red holds no 7" in ed.message.text
    assert not ed.set_goods("Berlin", 9, 0) and ttr.goods_stacks(ed.state)["Berlin"] == (5, 4)
    assert ed.set_goods("Berlin", 4, 0) and ttr.goods_of(ed.state, 0) == () and ed.is_valid
    ed.keep_consistent.value = False
    assert ed.set_goods("Kiel", 0) and not ed.is_valid and "MK-COMP-5" in " ".join(ed.problems)
    ed.keep_consistent.value = True
    ed.set_goods("Kiel", len(MK.map.city("Kiel").extra["goods"]))
    short = next(t for t in MK.map.tickets if t.deck == "short")
    long_ = next(t for t in MK.map.tickets if t.deck == "long")
    assert ed.set_tickets(0, [short.id, long_.id]) and ed.is_valid
    decks = dict(ed.state.ticket_decks)
    assert short.id not in decks["short"] and long_.id not in decks["long"]
    assert ed.set_tickets(0, []) and long_.id in dict(ed.state.ticket_decks)["long"] and ed.is_valid
    assert not ed.set_station("Berlin", 0) and "has no stations" in ed.message.text


def test_editor_edits_europes_stations_and_a_pending_tunnel():
    from ttr_nb.widgets import EditorView
    ed = EditorView(ttr.position("europe", players=2, seed=1, hands={0: {"red": 3}}))
    titles = [ed.tabs.get_title(i) for i in range(len(ed.tabs.children))]
    assert "stations" in titles and "tunnel" in titles
    assert ed.set_station("Wien", 1) and ttr.stations_of(ed.state, 1) == ("Wien",) and ed.is_valid
    assert ed.set_station("Wien", 0) and ttr.stations_of(ed.state, 1) == () and ttr.stations_of(ed.state, 0) == ("Wien",)
    for city in ("Berlin", "Roma", "Paris"):
        ed.set_station(city, 0)
    assert not ed.is_valid and any("EU-STATION" in p for p in ed.problems)           # a 4th station
    for city in ("Berlin", "Roma", "Paris", "Wien"):
        ed.set_station(city, None)
    assert ed.is_valid
    before = ed.state
    assert not ed.start_tunnel("Berlin–Wien", "red2", ["red", "blue", "yellow"]) and ed.state is before
    assert not ed.start_tunnel("Sarajevo–Sofia", "red2", ["red", "blue"]) and ed.state is before
    assert ed.start_tunnel("Sarajevo–Sofia", "red2", ["red", "blue", "yellow"]) and ed.is_valid
    p = ed.state.pending[0]
    assert p.kind == "tunnel" and p.get("extra") == 1 and p.get("revealed") == ("red", "blue", "yellow")
    game = ed.play_from_here(open_view=False)
    assert [str(a) for a in ttr.legal_actions(game.state)] == ["blue: tunnel pay red1", "blue: tunnel withdraw"]
