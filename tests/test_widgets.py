"""The widget views (ttr_nb.widgets), headless: real handlers are driven and the game must change as the rules say.

No browser: ipywidgets and the figure views work without a front end. A click on the board is delivered the
way the browser delivers it (the ``FigureView``'s click message), or through the view's public
handler (``view.click_route``). Timing is printed, never asserted (see benchmarks/bench_widgets.py).
"""
from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

import ipywidgets as widgets  # noqa: E402
import plotly.graph_objects as go  # noqa: E402

from ttr_nb.board.actions import Claim  # noqa: E402
from ttr_nb.bots import make_bot  # noqa: E402
from ttr_nb.board.cards import CARD_NAMES, LOCO, a_card  # noqa: E402
from ttr_nb.board.engine import check, legal_actions, observe, to_move  # noqa: E402
from ttr_nb.errors import TTRError  # noqa: E402
from ttr_nb.game import Game  # noqa: E402
from ttr_nb.board.maps import load_map  # noqa: E402
from ttr_nb.board.positions import position  # noqa: E402
from ttr_nb.render import PLAYER_HEX, trace_index  # noqa: E402
from ttr_nb.board.state import FREE  # noqa: E402
from ttr_nb.widgets import EditorView, HistoryView, MapExplorer, PlayView, TableView, play  # noqa: E402
from ttr_nb.widgets._common import hand_text  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------------------------------------------
# helpers

def browser_click(fig, route_id: str) -> None:
    """Deliver a click on ``route_id``'s marker exactly as the browser does (the FigureView's click message)."""
    ti = trace_index(fig, "routes")
    i = list(fig.data[ti].customdata).index(route_id)
    _send_click(fig, ti, i)


def _send_click(fig, ti: int, i: int) -> None:
    """The message the browser's FigureView sends for a click on point ``i`` of trace ``ti``."""
    view = fig._ttr_view()
    assert view is not None, "the figure is not shown by a FigureView"
    view._on_msg(view, {"type": "click", "points": [{"trace": ti, "index": i, "x": 0, "y": 0}]}, [])


def keep_first(view: PlayView, seat: int = 0, n: int = 2):
    offered = view.offered(seat)
    view.set_ticket_checks(seat, offered[:n])
    return view.keep_tickets(seat)


def first_claimable(state, seat: int = 0) -> Claim | None:
    return next((a for a in legal_actions(state, seat) if isinstance(a, Claim)), None)


def highlight_ids(fig, i: int = 0) -> set[str]:
    return {c for c in fig.data[trace_index(fig, f"highlight:{i}")].customdata or () if c}


def game_after_setup(players: int = 3, seed: int = 0) -> Game:
    g = Game("usa", players=players, seed=seed)
    for seat in range(players):
        offered = g.state.pending_for(seat).get("offered")
        g.push(f"{seat}: keep {' '.join(offered[:2])}")
    return g


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_widgets", ROOT / "benchmarks" / "bench_widgets.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# --------------------------------------------------------------------------------------------------------------
# PlayView

def test_play_view_setup_bots_choose_and_human_keeps():
    view = PlayView(Game("usa", players=3, seed=1), human_seats=(0,))
    s = view.game.state
    assert s.phase == "setup"
    assert to_move(s) == (0,), "the bots keep their tickets at once; only the human's choice is pending"
    assert view.choosing_seats() == [0]
    assert len(view.tickets_box.children) == 1
    # a learner's status line says what to do without rule ids (refusals and the teacher's view keep them)
    assert "keeps at least 2" in view.status.value and "USA-SETUP-3" not in view.status.value
    offered = view.offered(0)
    assert len(offered) == 3
    ply = keep_first(view)
    assert ply is not None and ply.seat == 0
    assert view.game.state.phase == "play"
    assert view.game.state.players[0].tickets == offered[:2]
    assert view.tickets_box.children == ()
    assert "Blue" in view.status.value and "USA-TURN-1" not in view.status.value
    teacher = PlayView(view.game, human_seats=(), bots={s: make_bot("greedy", seed=s) for s in range(3)},
                       auto_bots=False)
    assert "USA-TURN-1" in teacher.status.value


def test_simultaneous_setup_one_panel_per_human_seat_when_there_is_no_hand_over():
    g = Game("usa", players=3, seed=2)
    view = PlayView(g, human_seats=(0, 2), hand_over=False)      # a teacher playing both seats in front of the class
    assert view.choosing_seats() == [0, 2] and len(view.tickets_box.children) == 2
    assert to_move(g.state) == (0, 2)                 # Red's bot has kept its tickets
    view.set_ticket_checks(2, view.offered(2))
    box = view._ticket_panels[2]["keep"]
    box.click()                                       # Green's keep button
    assert len(g.state.players[2].tickets) == 3 and view.choosing_seats() == [0]
    assert len(view.tickets_box.children) == 1
    assert view.press("keep") is None and "USA-SETUP-3" in view.message.text   # nothing ticked for Blue
    keep_first(view, 0, 3)
    assert g.state.phase == "play"


def test_hot_seat_shows_one_players_choice_at_a_time_with_a_hand_over_between():
    """Issue 17: two players at one screen choose their first tickets one after the other, each behind a
    hand-over; the one waited for presses "I am ...: show my cards" (``ready``); nothing can be done for a seat
    that is not at the screen."""
    g = Game("usa", players=3, seed=2)
    view = PlayView(g, human_seats=(0, 2))            # Red is a bot; Blue and Green share the screen
    assert view.handover.up and view.handover.waiting_for == 0 and view.tickets_box.children == ()
    assert view.hand.value == "" and view.my_tickets.value == "" and view.viewing_seat() is None
    assert "Blue begins" in view.handover.note.value and view.handover.button.description == "I am Blue: show my cards"
    before = g.state
    assert view.keep_tickets(0, view.offered(0)[:2]) is None and "pass the screen to Blue" in view.message.text
    assert g.state is before
    assert view.ready() == 0
    assert len(view.tickets_box.children) == 1 and "Blue" in view.tickets_box.children[0].children[0].value
    assert "Your hand" in view.hand.value and not view.handover.up
    assert view.keep_tickets(2, view.offered(2)[:2]) is None and g.state is before      # Green is not at the screen
    keep_first(view, 0, 2)
    # Blue is done: the hand-over to Green hides Blue's choice and hand
    assert view.handover.up and view.handover.waiting_for == 2 and view.tickets_box.children == ()
    assert "Blue is done" in view.handover.note.value and view.hand.value == ""
    kept = [g.variant.map.ticket(t) for t in g.state.players[0].tickets]
    assert not any(f"{t.a}–{t.b}" in view.message.text + " ".join(view.log_lines()) for t in kept)
    assert view.ready() == 2
    assert [p.children[0].value.count("Green") for p in view.tickets_box.children] == [1]
    keep_first(view, 2, 3)
    assert g.state.phase == "play" and view.handover.waiting_for == 0        # Blue's turn: hand over to Blue


def test_ticket_keep_with_too_few_checked_is_refused_setup_and_play():
    view = PlayView(Game("usa", players=3, seed=1), human_seats=(0,))
    before = view.game.state
    view.set_ticket_checks(0, view.offered(0)[:1])
    assert view.checked_tickets(0) == view.offered(0)[:1]
    assert view.press("keep") is None
    assert "USA-SETUP-3" in view.message.text and view.message.is_error
    assert view.message.error is not None and view.message.error.rule == "USA-SETUP-3"
    assert view.game.state is before
    keep_first(view)
    # during play: draw tickets, then keep none
    ply = view.draw_tickets()
    assert ply is not None and view.choosing_seats() == [0]
    pending = view.game.state
    assert view.keep_tickets(0, []) is None
    assert "USA-TICKET-2" in view.message.text
    assert view.game.state is pending
    view.set_ticket_checks(0, view.offered(0)[:1])
    assert view.keep_tickets(0) is not None
    assert len(view.game.state.players[0].tickets) == 3


def test_click_route_then_payment_claims_and_updates_the_figure_in_place():
    g = None
    for seed in range(30):
        g = game_after_setup(3, seed)
        if first_claimable(g.state) is not None:
            break
    claim = first_claimable(g.state)
    assert claim is not None, "no seed in 0..29 lets Blue claim a route at once"
    view = PlayView(g, human_seats=(0,))
    fig = view.board.fig
    n_traces = len(fig.data)
    rid = g.variant.map.route(claim.route).id        # the board knows routes by id; actions name their cities
    route = g.variant.map.route(rid)
    assert view.board.route_marker(rid)["color"] != PLAYER_HEX["blue"]
    hand_before = sum(g.state.players[0].hand)
    trains_before = g.state.players[0].trains
    ply_before = g.ply

    browser_click(fig, rid)                       # the browser's click reaches the handler
    assert view.selected_route == rid
    assert view.payments and all(isinstance(p, Claim) and p.route == rid for p in view.payments)
    assert len(view.payments_box.children) == len(view.payments)
    routes = fig.data[trace_index(fig, "routes")]
    assert list(routes.selectedpoints) == [list(routes.customdata).index(rid)], "the selected marker stands out"

    # pressing the first payment button claims it
    view.payments_box.children[0].click()
    s = g.state_at(ply_before + 1)
    assert s.claims[route.index] == 0
    assert sum(s.players[0].hand) == hand_before - route.length
    assert s.players[0].trains == trains_before - route.length
    # the same FigureWidget, the same trace structure, the owner's colour on the marker
    assert view.board.fig is fig and len(fig.data) == n_traces
    marker = view.board.route_marker(rid)
    assert marker["color"] == PLAYER_HEX["blue"]
    assert rid in set(fig.data[trace_index(fig, "seat:0")].customdata)
    assert routes.selectedpoints is None
    # the bots replied, and it is Blue's turn again
    assert g.ply > ply_before + 1
    assert {p.seat for p in g.history[ply_before + 1:]} == {1, 2}
    assert to_move(g.state) == (0,)
    assert any("[bot:" in line for line in view.log)
    assert view.last_reasons


def test_clicking_a_route_that_cannot_be_claimed_says_why():
    g = game_after_setup(3, 0)
    view = PlayView(g, human_seats=(0,))
    hand = g.state.players[0].hand
    m = g.variant.map
    # a 6-long coloured route Blue cannot pay for
    r = next(r for r in m.routes if r.length == 6 and r.colour != "gray"
             and hand[CARD_NAMES.index(r.colour)] + hand[LOCO] < 6)
    before = g.state
    assert view.click_route(r.id) == []
    assert view.message.is_error and "USA-CLAIM-1" in view.message.text
    assert view.payments == [] and g.state is before
    # an unknown route id
    view.click_route("R999")
    assert view.message.is_error and "R999" in view.message.text


def test_faceup_locomotive_disabled_as_second_card_and_refused_by_the_handler():
    found = None
    for seed in range(40):
        g = game_after_setup(3, seed)
        if LOCO in g.state.market:
            found = g
            break
    assert found is not None
    g = found
    view = PlayView(g, human_seats=(0,))
    slot = g.state.market.index(LOCO) + 1
    button = view.faceup_buttons[slot - 1]
    assert button.description == f"{slot}: locomotive"
    assert not button.disabled, "as first card a face-up locomotive may be taken"
    assert view.press("draw deck") is not None
    s = g.state
    assert s.pending and s.pending[0].kind == "second_card" and s.market[slot - 1] == LOCO
    assert button.disabled and "USA-DRAW-4" in button.tooltip
    assert not view.deck_button.disabled
    ply = g.ply
    assert view.draw_faceup(slot) is None          # pressing it anyway
    assert view.message.is_error and "USA-DRAW-4" in view.message.text
    assert view.message.error.rule == "USA-DRAW-4"
    assert g.state is s and g.ply == ply
    assert view.press(f"draw faceup {slot}") is None and "USA-DRAW-4" in view.message.text
    assert g.state is s


def test_undo_takes_back_to_the_humans_previous_decision_and_redo_replays():
    g = game_after_setup(3, 2)
    view = PlayView(g, human_seats=(0,))
    s0, p0 = g.state, g.ply
    view.press("draw deck")
    s1, p1 = g.state, g.ply                       # Blue owes a second card: no bot moved
    assert p1 == p0 + 1 and s1.pending
    view.press("draw deck")
    p2 = g.ply
    assert p2 > p1 + 1 and to_move(g.state) == (0,)   # Blue's turn ended, the bots played
    line_len = len(g.line)
    assert view.undo()
    assert g.ply == p1 and g.state == s1          # back before Blue's second card (the bots' plies too)
    assert view.undo()
    assert g.ply == p0 and g.state == s0
    assert not view.undo_button.disabled and not view.redo_button.disabled
    assert view.redo()
    assert g.ply == p1
    assert view.redo()
    assert g.ply == p2 and len(g.line) == line_len
    assert view.redo_button.disabled
    # undo, then play something else: the old line is kept as a variation
    view.undo()
    view.undo()
    view.press("draw tickets")
    assert g.variations, "the replaced line is kept"


def test_bots_play_until_my_turn_when_auto_is_off():
    g = Game("usa", players=3, seed=4)
    view = PlayView(g, human_seats=(0,), bots={1: make_bot("random", 1), 2: make_bot("greedy", 2)}, auto_bots=False)
    assert g.ply == 0 and not view.bots_button.disabled
    n = view.bots_play()
    assert n == 2 and to_move(g.state) == (0,)
    keep_first(view)
    assert to_move(g.state) == (0,)               # Blue starts; nothing for the bots
    view.press("draw deck")
    view.press("draw deck")
    assert g.state.current == 1
    assert view.bots_play() >= 1 and g.state.current == 0


def test_press_refuses_bad_text_and_bot_seats():
    view = PlayView(game_after_setup(3, 3), human_seats=(0,))
    before = view.game.state
    assert view.press("fly to the moon") is None and view.message.is_error
    assert view.press("red: draw deck") is None and "bot" in view.message.text
    assert view.game.state is before


def test_play_convenience_and_game_over():
    view = play(players=2, seed=5)
    assert isinstance(view, PlayView) and view.human_seats == (0,) and set(view.bots) == {1}
    assert isinstance(view.widget, widgets.VBox)
    # the bots take over seat 0 too and play the game out
    view.bots[0] = make_bot("greedy", 0)
    view.human_seats = ()
    view.bots_play()
    g = view.game
    assert g.is_over
    assert "over" in view.status.value and "USA-END-1" in view.status.value
    assert view.score.widget.layout.display != "none"
    assert "Winner" in view.score.table.value
    assert view.score.fig is None or isinstance(view.score.fig, go.Figure)
    assert view.deck_button.disabled and all(b.disabled for b in view.faceup_buttons)
    before = g.state
    view.click_route(g.variant.map.routes[0].id)
    assert view.message.is_error and "USA-END-1" in view.message.text
    assert g.state is before


def test_provisional_map_says_so(monkeypatch):
    from ttr_nb import variants
    usa = variants.get_variant("usa")
    prov_map = dataclasses.replace(load_map("usa"), provisional=True, provisional_note="test: not checked")
    v = dataclasses.replace(usa, key="usa_provisional_test", aliases=())
    v.__dict__["map"] = prov_map                 # the cached_property's slot
    monkeypatch.setitem(variants._REGISTRY, v.key, v)
    monkeypatch.setitem(variants._ALIASES, v.key, v.key)
    g = Game(v.key, players=2, seed=0)
    view = PlayView(g, human_seats=(0,))
    # said once, in the view's banner (the board does not repeat it)
    assert "PROVISIONAL" in view.banner.value and "test: not checked" in view.banner.value
    assert "PROVISIONAL" not in view.board.fig.layout.title.text and not view.board.fig.layout.annotations
    explorer = MapExplorer(prov_map)
    assert "PROVISIONAL" in explorer.banner.value and "PROVISIONAL" not in explorer.board.fig.layout.title.text


# --------------------------------------------------------------------------------------------------------------
# HistoryView

def test_history_slider_shows_state_at_ply():
    g = game_after_setup(3, 0)
    g.play_bots({s: make_bot("greedy", s) for s in range(3)}, max_plies=40)
    claim_plies = [p.number for p in g.line if isinstance(p.action, Claim)]
    assert claim_plies
    view = HistoryView(g)
    assert view.slider.max == len(g.line) and view.slider.value == g.ply
    k = claim_plies[0]
    view.slider.value = k
    assert view.state == g.state_at(k)
    assert f"move <b>{k}</b>" in view.position.value
    p = g.line[k - 1]
    assert p.words in view.ply_info.value
    rid = g.variant.map.route(p.action.route).id
    assert view.board.route_marker(rid)["color"] == PLAYER_HEX[("blue", "red", "green")[p.seat]]
    assert rid in highlight_ids(view.board.fig)
    view.step(-1)
    assert view.ply == k - 1 and view.board.route_marker(rid)["color"] != PLAYER_HEX[("blue", "red", "green")[p.seat]]
    view.show(0)
    assert "start position" in view.ply_info.value and view.prev_button.disabled
    view.show(10_000)
    assert view.ply == len(g.line) and view.next_button.disabled
    assert g.ply == len(g.line), "the view never moves the game's cursor"


def test_branch_here_keeps_the_main_line():
    g = game_after_setup(3, 1)
    g.play_bots({s: make_bot("greedy", s) for s in range(3)}, max_plies=12)
    main = [p.text for p in g.line]
    cursor = g.ply
    view = HistoryView(g, play_kwargs={"human_seats": (0, 1, 2), "bots": {}, "hand_over": False})
    view.show(5)
    b = view.branch_here()
    assert isinstance(b, Game) and b is not g
    assert [p.text for p in b.line] == main[:5]
    assert isinstance(view.branches[-1][1], PlayView)
    pv = view.branches[-1][1]
    pv.press("draw tickets") or pv.press("draw deck")
    assert len(b.line) == 6
    assert [p.text for p in g.line] == main and g.ply == cursor
    assert view.branch_box.children


def _view_print(pv: PlayView) -> tuple:
    """Everything a PlayView shows, as values (board data, texts, buttons)."""
    return (pv.status.value, pv.players.value, pv.hand.value, pv.my_tickets.value, pv.log_widget.value,
            pv.route_info.value, [b.description for b in pv.tickets_box.children[0].children[1].children]
            if pv.tickets_box.children else [], [(b.description, b.disabled) for b in pv.draw_row.children],
            pv.undo_button.disabled, pv.redo_button.disabled, pv.bots_button.disabled,
            json.dumps(pv.board.fig.to_dict()["data"], sort_keys=True, default=str), pv.log, pv.game.ply)


@pytest.mark.parametrize("at", [0, 5, 14])
def test_a_branch_opened_in_a_view_built_in_advance_is_the_view_built_for_it(at):
    """"branch here" opens the branch in a PlayView made in advance (``prepare_branch_view``, run by itself after
    the HistoryView is displayed): it must show exactly what a PlayView built for the branch shows, with bots that
    play on as that one's would, and the main line untouched."""
    g = game_after_setup(3, 2)
    g.play_bots({s: make_bot("greedy", s) for s in range(3)}, max_plies=20)
    main = [p.text for p in g.line]
    view = HistoryView(g)
    view.prepare_branch_view()
    spare = view._spare
    assert isinstance(spare, PlayView)
    spare.press("draw deck")              # whatever the spare did before must not leak into the branch
    b = view.branch_here(at)
    pv = view.branches[-1][1]
    assert pv is spare and pv.game is b and view._spare is None
    fresh = PlayView(g.branch(at))
    assert _view_print(pv) == _view_print(fresh)
    for v in (pv, fresh):                 # and they play on alike (same bots, same seeds)
        v.bots_play() if v.bots_button.disabled is False else None
        legal = [a for a in legal_actions(v.game.state) if a.seat in v.human_seats]
        if legal and v.game.state.phase != "over":
            v._push(legal[0])
    assert _view_print(pv) == _view_print(fresh)
    assert [p.text for p in g.line] == main
    view.prepare_branch_view()
    assert view._spare is not None and view._spare is not pv


def test_use_game_refuses_another_kind_of_game():
    pv = PlayView(game_after_setup(3, 1))
    before = pv.status.value
    with pytest.raises(TTRError, match="3-player usa game"):
        pv.use_game(Game("usa", players=2, seed=1))
    with pytest.raises(TypeError):
        pv.use_game("usa")
    assert pv.status.value == before


def test_history_variations_are_listed_and_restored():
    g = game_after_setup(3, 1)
    g.push("draw deck")
    g.push("draw deck")
    g.undo()
    g.undo()
    g.push("tickets")
    view = HistoryView(g)
    assert len(view.variations.options) == 1 and not view.restore_button.disabled
    assert view.restore_variation()
    assert [p.text for p in g.line][-2:] == ["blue: draw deck", "blue: draw deck"]
    assert len(view.variations.options) == 1                 # the replaced line became a variation
    assert view.slider.max == len(g.line)


def test_history_of_a_finished_game_shows_the_final_score():
    g = Game("usa", players=2, seed=6)
    g.play_bots({0: make_bot("greedy", 0), 1: make_bot("greedy", 1)})
    assert g.is_over
    view = HistoryView(g)
    assert view.ply == len(g.line)
    assert view.score.widget.layout.display != "none" and "Winner" in view.score.table.value
    view.show(3)
    assert view.score.widget.layout.display == "none"
    # the other views on a finished game
    table = TableView(g)
    assert "Winner" in table.score.table.value and "USA-END-1" in table.status.value
    table.select("Red")
    assert "Winner" in table.score.table.value
    ed = EditorView(g)
    assert ed.problems == [] and "over" in ed.status.value
    again = ed.play_from_here()
    assert again is not None and again.is_over
    assert ed.play_view is not None and "Winner" in ed.play_view.score.table.value


# --------------------------------------------------------------------------------------------------------------
# EditorView

def test_editor_invalid_edit_shows_problem_and_play_from_here_refuses():
    g = game_after_setup(3, 0)
    ed = EditorView(g)
    assert ed.problems == [] and "valid position" in ed.validity.value
    fig = ed.board.fig
    # a 15th locomotive: typed into the IntText, as a user would
    ed.hand_inputs[0][LOCO].value = 15
    assert any("locomotive" in p and "USA-COMP-3" in p for p in ed.problems), ed.problems
    assert "locomotive" in ed.validity.value and "USA-COMP-3" in ed.validity.value
    assert ed.play_button.disabled
    assert ed.play_from_here(open_view=False) is None
    assert ed.message.is_error and "USA-COMP-3" in ed.message.text
    # back to a legal count: valid again, and play from here gives a Game starting there
    ed.set_hand(0, "locomotive", g.state.players[0].hand[LOCO])
    assert ed.problems == []
    new = ed.play_from_here(open_view=False)
    assert isinstance(new, Game) and new.start == ed.state
    assert ed.board.fig is fig


def test_editor_without_consistency_shows_raw_problems_and_claim_cycling():
    g = game_after_setup(3, 0)
    ed = EditorView(g.state, keep_consistent=False)
    ed.set_hand(1, "red", g.state.players[1].hand[CARD_NAMES.index("red")] + 1)
    assert any("red cards" in p for p in ed.problems)
    ed.set_hand(1, "red", g.state.players[1].hand[CARD_NAMES.index("red")])
    assert ed.problems == []
    ed.keep_consistent.value = True
    m = g.variant.map
    r = next(r for r in m.routes if r.double_group is None)
    fig = ed.board.fig
    n = len(fig.data)
    browser_click(fig, r.id)
    assert ed.state.claims[r.index] == 0 and ed.problems == []
    assert ed.state.players[0].trains == 45 - r.length
    assert ed.board.route_marker(r.id)["color"] == PLAYER_HEX["blue"]
    ed.click_route(r.id)
    assert ed.state.claims[r.index] == 1
    ed.click_route(r.id)
    ed.click_route(r.id)
    assert ed.state.claims[r.index] == FREE and ed.state.players[0].trains == 45
    assert ed.board.fig is fig and len(fig.data) == n
    # tickets move between the deck and the seats
    deck = dict(ed.state.ticket_decks)["regular"]
    ed.ticket_inputs[2].value = list(ed.state.players[2].tickets) + [deck[0]]
    assert deck[0] in ed.state.players[2].tickets and ed.problems == []
    # market and whose turn
    ed.set_market(1, "locomotive")
    ed.set_current(2)
    assert ed.state.current == 2 and ed.state.market[0] == LOCO
    assert ed.problems == [] or all("locomotive" not in p for p in ed.problems)


def test_USA_CLAIM_4_editor_pays_a_claim_onto_the_discard_pile():
    """The classroom's example: Blue has claimed Denver–Santa Fe (2 spaces: 2 trains, 2 points) paying 2 of its 3 red
    cards, which lie on the discard pile — not back in the deck (USA-CLAIM-4)."""
    start = position("usa", players=2, seed=13, hands={0: {"red": 3, "locomotive": 1}}, claims={"Denver–Omaha": 1})
    ed = EditorView(start)
    red = CARD_NAMES.index("red")
    assert ed.set_owner("Denver–Santa Fe", 0) and ed.set_hand(0, "red", 1) and ed.set_discard("red", 2)
    s = ed.state
    assert (start.players[0].trains, s.players[0].trains) == (45, 43) and s.players[0].route_points == 2
    assert s.players[0].hand[red] == 1 and s.discard[red] == 2 and sum(s.discard) == 2
    assert s.deck == start.deck and ed.problems == [] and ed.is_valid          # no card gained, none lost
    assert [w.value for w in ed.discard_inputs] == list(s.discard)             # the "discards" row shows it
    assert ed.discard_inputs[red].tooltip == "red cards on the discard pile"   # and names each box
    ed.discard_inputs[red].value = 0                                           # typed back: under the deck
    assert ed.state.discard[red] == 0 and ed.state.deck[-2:] == (red, red) and ed.is_valid
    before = ed.state
    assert not ed.set_discard("red", -1) and not ed.set_discard(None, 1) and not ed.set_discard("red", 1.5)
    assert ed.state is before and ed.message.is_error                          # refused, nothing changed
    loose = EditorView(start, keep_consistent=False)
    assert loose.set_discard("red", 2) and loose.state.deck == start.deck
    assert any("red" in p and "USA-COMP-3" in p for p in loose.problems)       # two red cards too many


def test_editor_export_import_roundtrip_and_bad_input_changes_nothing():
    g = game_after_setup(3, 0)
    ed = EditorView(g)
    text = ed.export()
    assert json.loads(text) == g.state.to_dict() and ed.json_text.value == text
    before = ed.state
    # not JSON
    ed.json_text.value = "{not json"
    assert not ed.import_json()
    assert ed.message.is_error and "not valid JSON" in ed.message.text and ed.state is before
    # JSON but not a state
    assert not ed.import_json(json.dumps({"variant": "usa"}))
    assert "missing field" in ed.message.text and ed.state is before
    # a state that breaks the rules
    bad = g.state.to_dict()
    bad["players"][0]["hand"]["locomotive"] = 30
    assert not ed.import_json(json.dumps(bad))
    assert "USA-COMP-3" in ed.message.text and ed.state is before
    # another player count
    other = Game("usa", players=2, seed=0).state.to_dict()
    assert not ed.import_json(json.dumps(other)) and ed.state is before
    # a good position
    good = g.state_at(1).to_dict()
    assert ed.import_json(json.dumps(good))
    assert ed.state == g.state_at(1) and ed.problems == []
    assert ed.hand_inputs[0][0].value == g.state_at(1).players[0].hand[0]


# --------------------------------------------------------------------------------------------------------------
# TableView

def test_table_view_hides_other_hands_in_player_view():
    g = game_after_setup(3, 0)
    view = TableView(g)
    def words(tid):
        t = g.variant.map.ticket(tid)
        return f"{t.a}–{t.b} ({t.points} points)"        # the view says what the number is
    red_tickets = [words(t) for t in g.state.players[1].tickets]
    blue_tickets = [words(t) for t in g.state.players[0].tickets]
    assert view.seat is None
    assert all(t in view.html for t in red_tickets + blue_tickets)
    view.select("Blue")
    assert view.seat == 0 and view.toggle.value == "Blue"
    html = view.html
    assert all(t in html for t in blue_tickets)
    assert not any(t in html for t in red_tickets), "another player's tickets leak into Blue's view"
    assert "hidden" in html
    obs = observe(g.state, 0)
    assert "hand" not in obs["players"][1]
    view.toggle.value = "Red"                     # as the ToggleButtons would
    assert view.seat == 1 and all(t in view.html for t in red_tickets)
    assert not any(t in view.html for t in blue_tickets)
    view.select(None)
    assert view.seat is None
    view.select("Purple")
    assert view.message.is_error


def test_table_and_history_follow_a_play_view():
    g = game_after_setup(3, 0)
    pv = PlayView(g, human_seats=(0,))
    table, hist = TableView(g, seat=0), HistoryView(g)
    table.follow(pv)
    hist.follow(pv)
    pv.press("draw tickets")
    assert hist.slider.max == len(g.line) and hist.ply == g.ply
    assert "choosing from" in table.table.value or "chooses among" in table.table.value


# --------------------------------------------------------------------------------------------------------------
# MapExplorer

def test_map_explorer_highlights_the_cheapest_paths():
    ex = MapExplorer("usa")
    fig = ex.board.fig
    n = len(fig.data)
    ex.city_a.value, ex.city_b.value, ex.k.value = "Denver", "El Paso", 2
    ex.find_button.click()
    assert len(ex.paths) == 2
    first = ex.paths[0]
    assert first.trains == 4
    assert set(first.routes) <= highlight_ids(fig, 0)
    assert highlight_ids(fig, 1)
    assert "Denver" in ex.output.value and "El Paso" in ex.output.value
    assert ex.board.fig is fig and len(fig.data) == n
    rows = ex.show_route_load(top=5)
    assert rows and set(highlight_ids(fig, 0)) == {r["route"] for r in rows[:5]}
    assert not highlight_ids(fig, 1)
    assert ex.show_ticket_difficulty() and "ticket" in ex.output.value.lower()
    assert ex.show_centrality() and "betweenness" in ex.output.value
    ex.show_paths("Denver", "Denver")
    assert ex.message.is_error
    ex.clear()
    assert not highlight_ids(fig, 0)


# --------------------------------------------------------------------------------------------------------------
# timing (printed, never asserted)

def test_widget_step_time(bench, capsys):
    result = bench.measure_step(50)
    with capsys.disabled():
        print("\n" + bench.report(result))


# --------------------------------------------------------------------------------------------------------------
# a variant with features (Europe): stations through a city click, the tunnel step as option buttons

def browser_click_city(fig, city: str) -> None:
    ti = trace_index(fig, "cities")
    _send_click(fig, ti, list(fig.data[ti].customdata).index(city))


def europe_after_setup(seed: int) -> Game:
    g = Game("europe", players=3, seed=seed)
    for seat in range(3):
        offered = g.state.pending_for(seat).get("offered")
        g.push(f"{seat}: keep {' '.join(offered[:2])}")
    return g


def test_europe_station_by_clicking_a_city():
    g = europe_after_setup(0)
    view = PlayView(g, human_seats=(0, 1, 2), bots={}, hand_over=False)
    fig = view.board.fig
    browser_click_city(fig, "Wien")
    assert view.selected_city == "Wien" and view.payments
    assert all(getattr(a, "city", None) == "Wien" for a in view.payments)
    assert len(view.payments_box.children) == len(view.payments)
    view.payments_box.children[0].click()
    assert g.state.players[0].get("stations") == ("Wien",)
    assert "Wien" in fig.data[trace_index(fig, "stations")].customdata
    # Red may not build in Wien too: the engine's refusal, with its rule id
    assert view.click_city("Wien") == []
    assert view.message.is_error and "EU-STATION" in view.message.text
    assert "stations: Wien" in TableView(g).table.value


def test_europe_tunnel_step_is_answered_with_option_buttons():
    for seed in range(40):
        g = europe_after_setup(seed)
        m = g.variant.map
        tunnels = [a for a in legal_actions(g.state, 0) if isinstance(a, Claim) and m.route(a.route).tunnel]
        if tunnels:
            break
    assert tunnels
    view = PlayView(g, human_seats=(0, 1, 2), bots={}, hand_over=False)
    view.click_route(tunnels[0].route)
    i = next(i for i, a in enumerate(view.payments) if check(g.state, a)[0] == tunnels[0])
    view.choose_payment(i)
    s = g.state
    if s.pending and s.pending[0].kind == "tunnel":
        assert view.step_options and len(view.options_box.children) == len(view.step_options)
        assert "turned up" in view.step_info.value and "EU-TUNNEL" not in view.step_info.value
        assert view.draw_deck() is None and view.message.is_error       # the step must be answered first
        withdraw = next(k for k, a in enumerate(view.step_options) if "withdraw" in str(a))
        view.options_box.children[withdraw].click()
        assert g.state.claims[m.route(tunnels[0].route).index] == FREE
        assert not g.state.pending and g.state.current == 1
    else:                                   # no extra card was needed: the tunnel was claimed at once
        assert s.claims[m.route(tunnels[0].route).index] == 0
    assert view.step_options == [] and view.options_box.children == ()


def test_usa_city_click_has_nothing_to_do():
    view = PlayView(game_after_setup(3, 0), human_seats=(0,))
    assert view.click_city("Denver") == []
    assert not view.message.is_error and "nothing to do" in view.message.text


# --------------------------------------------------------------------------------------------------------------
# what a player's view may show (USA-TICKET-3: tickets are secret; hands are secret)

def _all_text(w) -> str:
    """Every HTML value, description and tooltip in a widget tree: what the browser can show."""
    out = []
    seen = set()

    def walk(x):
        if id(x) in seen:
            return
        seen.add(id(x))
        for attr in ("value", "description", "tooltip", "placeholder"):
            v = getattr(x, attr, None)
            if isinstance(v, str):
                out.append(v)
        for c in getattr(x, "children", ()) or ():
            walk(c)
    walk(w)
    return "\n".join(out)


def _ticket_names(g: Game, seat: int) -> list[str]:
    m = g.variant.map
    return [f"{m.ticket(t).a}–{m.ticket(t).b}" for t in g.state.players[seat].tickets]


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_USA_TICKET_3_a_players_view_never_shows_the_bots_tickets(seed):
    g = Game("usa", players=3, seed=seed)
    view = PlayView(g, human_seats=(0,), bots={1: make_bot("greedy", seed=1), 2: make_bot("greedy", seed=2)})
    keep_first(view, 0, 2)
    for _ in range(12):                                  # a few turns: the bots draw and keep tickets too
        if view.turn_seat() is None:
            break
        if view.state.pending_for(0) is not None and view.offered(0):
            keep_first(view, 0, 1)
        else:
            view.press("draw tickets") if _ % 4 == 3 else view.press("draw deck")
    text = _all_text(view.widget) + "\n".join(view.log_lines())
    secrets = [name for seat in (1, 2) for name in _ticket_names(g, seat) if name not in _ticket_names(g, 0)]
    assert secrets, "the bots must hold tickets for this test to mean anything"
    leaked = [name for name in secrets if name in text]
    assert not leaked, f"Blue's view shows the bots' secret tickets {leaked}"
    assert any("keeps" in line and "ticket" in line for line in view.log_lines())   # the public wording is there
    # the swap check: the same view may show its own tickets, and a teacher view shows the bots' ones
    assert any(name in text for name in _ticket_names(g, 0))
    teacher = PlayView(g, human_seats=(), bots={s: make_bot("greedy", seed=s) for s in range(3)}, auto_bots=False)
    teacher_text = "\n".join(teacher.log_lines()) + "\n".join(g.history[i].words for i in range(len(g.history)))
    assert any(name in teacher_text for name in secrets)


def test_a_blind_draw_tells_the_drawer_which_card_it_gave():
    g = game_after_setup(3, 2)
    view = PlayView(g, human_seats=(0, 1, 2), bots={})
    assert view.draw_deck() is None and view.ready() == 0       # the hot seat's hand-over first
    before = list(g.state.players[0].hand)
    view.draw_deck()
    after = g.state.players[0].hand
    (got,) = [k for k in range(len(after)) if after[k] > before[k]]
    assert f"drew {a_card(got)}" in view.message.text


def test_the_selected_route_is_haloed_and_the_viewers_ticket_cities_are_ringed():
    g = game_after_setup(3, 0)
    view = PlayView(g, human_seats=(0,), bots={1: make_bot("random", seed=1), 2: make_bot("random", seed=2)})
    fig = view.board.fig
    halo = fig.data[trace_index(fig, "selected")]
    assert not list(halo.customdata or ())
    view.click_route("R001")
    assert "R001" in set(halo.customdata) and view.board.selected == "R001"
    view.click_route("R002")
    assert set(c for c in halo.customdata if c) == {"R002"}
    rings = fig.data[trace_index(fig, "marked-cities")]
    m = g.variant.map
    mine = {c for t in g.state.players[0].tickets for c in (m.ticket(t).a, m.ticket(t).b)}
    assert set(rings.customdata) == mine
    assert all("your ticket" in h for h in rings.hovertext)


def test_projector_enlarges_new_boards_and_refuses_nonsense():
    from ttr_nb.widgets import projector
    usa = load_map("usa")
    try:
        projector(True, 1.5)
        big = PlayView(game_after_setup(3, 0), human_seats=(0, 1, 2), bots={}).board.fig
        projector(False)
        small = PlayView(game_after_setup(3, 0), human_seats=(0, 1, 2), bots={}).board.fig
        size = lambda f: f.data[trace_index(f, "city-names")].textfont.size   # noqa: E731
        assert size(small) >= 13 and size(big) >= 1.4 * size(small)
        with pytest.raises(ValueError):
            projector(True, 9)
    finally:
        projector(False)
    assert usa is load_map("usa")


def test_USA_TICKET_3_a_seats_history_view_hides_the_others_kept_tickets_until_the_end():
    g = game_after_setup(3, 5)
    g.play_bots({s: make_bot("greedy", s) for s in range(3)}, max_plies=30)
    keeps = [p for p in g.line if p.seat == 1 and type(p.action).__name__ == "KeepTickets"]
    assert keeps
    red = HistoryView(g, seat=0)
    teacher = HistoryView(g)
    names = _ticket_names(g, 1)
    for view in (red, teacher):
        view.show(keeps[0].number)
    secret = [n for n in names if n not in _ticket_names(g, 0)]
    assert secret
    assert not any(n in _all_text(red.widget) for n in secret)
    assert any(n in _all_text(teacher.widget) for n in secret)          # the swap check: the teacher sees them
    with pytest.raises(Exception):
        HistoryView(g, seat=7)


def test_USA_SCORE_2_a_seats_history_view_opens_the_table_once_the_game_is_over():
    """Final scoring turns every ticket over (USA-SCORE-2), and a class reviews a finished game together: the replay
    of a seat shows every seat's tickets and hand once the game is over, at any move (a decision the README states)."""
    g = game_after_setup(2, 3)
    g.play_bots({s: make_bot("greedy", s) for s in range(2)})
    assert g.is_over
    blue = HistoryView(g, seat=0)
    secret = [n for n in _ticket_names(g, 1) if n not in _ticket_names(g, 0)]
    assert secret
    for ply in (len(g.line) // 2, len(g.line)):
        blue.show(ply)
        table = blue.table.value
        assert "whole table" in table and "(hidden)" not in table
        assert all(n in table for n in secret)
        if ply == len(g.line):
            assert hand_text(g.state.players[1].hand) in table


@pytest.mark.parametrize("variant, where", [("usa", "to the bottom of the ticket deck"), ("europe", "out of the game")])
def test_log_says_a_ticket_keep_once(variant, where):
    """USA-SETUP-3 / EU-SETUP-4: a keep's line says what was kept once (the move's words), and the event adds only
    what went back and where — to the owner by name, to everyone else as a count."""
    view = PlayView(Game(variant, 3, seed=1))
    offered = view.offered(0)
    view.keep_tickets(0, offered[:2])
    lines = [line for line in view.log_lines() if "keeps" in line]
    assert len(lines) == 3
    for line in lines:
        assert "kept" not in line, line
    mine = next(line for line in lines if line.split(" ", 1)[1].startswith("Blue"))
    returned = view.map.ticket(offered[-1])
    assert f"{returned.a}–{returned.b}" in mine.split("You returned ", 1)[1] and mine.count(where) == 1
    others = [line for line in lines if line not in (mine,) and "returned" in line]
    assert all(returned.a not in line.split("·", 1)[1] for line in others)     # Europe: "Green returned 1 ticket …"
