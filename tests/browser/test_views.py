"""The views, played by clicks in a real JupyterLab + Chromium (scratch notebooks, see viewhelpers.py).

* PlayView: keep the initial tickets, draw a card blind, a face-up locomotive refused as the second card
  (USA-DRAW-4), the second card, the bots' turns, a claim where the learner picks one of several payments, undo.
* HistoryView: drag the slider, branch a what-if game and play a move in it.
* EditorView: give a route an owner by clicking its marker; edit a hand in its "hands" tab.
* Secrets: a player's view (PlayView against bots, hot seat, TableView for a seat) shows no kept or offered ticket
  and no hand of another seat.

After every step: the kernel has the expected game (read from the kernel), the page shows the kernel's words, and
every figure of the notebook draws what the kernel holds (``check_figures``); no console error or warning.
"""
from __future__ import annotations

import re

import pytest

from labhelpers import WAIT_S, check_figures, click_route_marker, kernel_eval, kernel_json
from viewhelpers import (EDITOR_CELLS, HISTORY_CELLS, PAYMENT_CHOICES, PLAY_CELLS, open_scratch_view, pair_patterns,
                         plies, secrets_of_others, wait_kernel, wait_text)


def _turn_status(page, nb, var="view"):
    """The status line as the view shows it: a player's view without rule ids, the teacher's tables with them."""
    return kernel_eval(page, nb, f"(__import__('ttr_nb.widgets.words', fromlist=['x']).without_rule_ids "
                                 f"if getattr({var}, 'human_seats', ()) else str)("
                                 f"__import__('ttr_nb.board.engine', fromlist=['turn_status']).turn_status({var}.game.state))")


def _owner(state: str, route_id: str) -> str:
    """Kernel expression: the seat owning ``route_id`` in the state ``state`` (None: free)."""
    return f"dict(__import__('ttr_nb.board.engine', fromlist=['x']).board_marks({state})['owners']).get({route_id!r})"


def _button(scope, pattern: str):
    return scope.get_by_role("button", name=re.compile(pattern, re.IGNORECASE))


@pytest.mark.browser
@pytest.mark.slow
def test_playview_turns_by_clicks(lab_server, page, console):
    from playwright.sync_api import expect

    nb = "t_play.ipynb"
    view = open_scratch_view(page, lab_server, nb, PLAY_CELLS, ".t-play")
    check_figures(page, nb, min_figures=1, what="PlayView at the start")

    # 1. the initial tickets: tick the first two offered, keep
    offered = kernel_json(page, nb, "[__import__('ttr_nb.widgets._common', fromlist=['x']).ticket_words(view.map, t) "
                                    "for t in view.offered(0)]")
    assert len(offered) == 3, offered
    for label in offered[:2]:
        view.locator(".widget-checkbox", has_text=label).locator("input[type=checkbox]").check()
    _button(view, r"^keep\b").click()
    wait_kernel(page, nb, "view.turn_seat() == 0 and len(view.game.state.players[0].tickets) == 2",
                "Blue kept two tickets and is to play")
    wait_text(view, _turn_status(page, nb), "status after keeping tickets")

    # 2. a first card, blind
    before = plies(page, nb)
    _button(view, r"draw deck").click()
    wait_kernel(page, nb, f"len(view.game.history) == {before + 1}", "the blind draw reached the game")
    wait_text(view, _turn_status(page, nb), "status after the first card")

    # 3. a face-up locomotive as the second card is refused (USA-DRAW-4), and nothing changes
    market = kernel_eval(page, nb, "[None if c is None else __import__('ttr_nb.board.cards', fromlist=['x']).CARD_NAMES[c] "
                                   "for c in view.game.state.market]")
    assert "locomotive" in market, f"no face-up locomotive with seed in viewhelpers.PLAY_SEED: {market}"
    slot = market.index("locomotive") + 1
    loco = _button(view, rf"^\s*{slot}\b.*locomotive")
    expect(loco).to_have_count(1, timeout=WAIT_S * 1000)
    n_before = plies(page, nb)
    if loco.is_disabled():
        expect(loco).to_have_attribute("title", re.compile("USA-DRAW-4"))
    else:
        loco.click()
        wait_text(view, "USA-DRAW-4", "the refusal of a face-up locomotive as second card")
    assert plies(page, nb) == n_before
    assert kernel_eval(page, nb, "view.game.state.pending[0].kind if view.game.state.pending else None") == \
        "second_card"

    # 4. the second card: the turn ends, the bots play, and it is Blue's turn again
    _button(view, r"draw deck").click()
    wait_kernel(page, nb, f"len(view.game.history) >= {n_before + 3} and view.turn_seat() == 0",
                "the bots played and Blue is to play")
    bot_words = kernel_json(page, nb, "[p.words for p in view.game.history if p.seat != 0][-2:]")
    for words in bot_words:
        wait_text(view, words, "the bots' moves in the log")
    check_figures(page, nb, min_figures=1, what="after the bots' turns")

    # 5. a claim where Blue chooses how to pay
    choices = kernel_json(page, nb, "__ttr_payment_choices(view, 0)", PAYMENT_CHOICES)
    assert choices, "Blue has no route with two ways to pay: pick another seed in viewhelpers.PLAY_SEED"
    route = choices[0]
    click_route_marker(page, ".t-play", route["route"],
                       done=lambda: kernel_eval(page, nb, f"view.selected_route == {route['route']!r}"))
    pay = [_button(view, rf"^\s*{re.escape(words)}\s*$") for words in route["payments"]]
    for b in pay:
        expect(b.first).to_be_visible(timeout=WAIT_S * 1000)
    pay[1].first.click()
    wait_kernel(page, nb, f"{_owner('view.game.state', route['route'])} == 0", "the claim reached the game")
    paid = kernel_eval(page, nb, "__import__('ttr_nb.board.actions', fromlist=['x']).payment_words("
                                 "next(p for p in reversed(view.game.history) if p.seat == 0).action.payment)")
    assert paid == route["payments"][1], (paid, route)
    check_figures(page, nb, min_figures=1, what="after Blue's claim")

    # 6. undo: back to before the claim
    _button(view, r"undo").click()
    wait_kernel(page, nb, f"{_owner('view.game.state', route['route'])} is None", "undo reached the game")
    assert kernel_eval(page, nb, "view.turn_seat()") == 0
    check_figures(page, nb, min_figures=1, what="after undo")
    console.assert_clean("while playing in the PlayView")


def _slider_handle(view):
    return view.locator(".widget-slider .noUi-handle, .widget-slider input[type=range]").first


def drag_slider(page, view, target: int, lo: int, hi: int, steps: int = 20) -> None:
    """Drag the HistoryView's slider handle to ``target`` with the mouse, in ``steps`` moves."""
    handle = _slider_handle(view)
    handle.scroll_into_view_if_needed()
    track = view.locator(".widget-slider .noUi-target, .widget-slider input[type=range]").first.bounding_box()
    hb = handle.bounding_box()
    x0, y = hb["x"] + hb["width"] / 2, hb["y"] + hb["height"] / 2
    x1 = track["x"] + track["width"] * (target - lo) / (hi - lo)
    page.mouse.move(x0, y)
    page.mouse.down()
    page.mouse.move(x1, y, steps=steps)
    page.mouse.up()


@pytest.mark.browser
@pytest.mark.slow
def test_historyview_slider_and_branch(lab_server, page, console):

    nb = "t_history.ipynb"
    view = open_scratch_view(page, lab_server, nb, HISTORY_CELLS, ".t-history")
    check_figures(page, nb, min_figures=1, what="HistoryView at ply 10")

    top = kernel_eval(page, nb, "len(hist.game.line)")
    assert top >= 40, top
    drag_slider(page, view, 30, 0, top)
    ply = int(view.locator(".widget-readout").first.inner_text())
    assert abs(ply - 30) <= 2, ply                    # the mouse lands within a step of the target
    wait_kernel(page, nb, f"hist.slider.value == {ply} and hist.shown_ply == {ply}",
                "the kernel caught up with the slider")
    check_figures(page, nb, min_figures=1, what=f"HistoryView after dragging to ply {ply}")
    # the board shows the position at that ply: its title names the ply
    title = kernel_eval(page, nb, "hist.board.fig.layout.title.text if hasattr(hist.board, 'fig') else ''")
    assert str(ply) in str(title), title

    # branch a what-if game here; its view appears and draws; a move in it leaves the main line alone
    _button(view, r"branch here").click()
    wait_kernel(page, nb, "len(hist.branches) == 1", "the branch was made")
    # the branch starts from the shown position (its view's bots may have played on from there)
    assert kernel_eval(page, nb, f"[p.text for p in hist.branches[0][0].history[:{ply}]] == "
                                 f"[p.text for p in hist.game.line[:{ply}]] and hist.branches[0][0].ply >= {ply}")
    check_figures(page, nb, min_figures=2, what="after 'branch here'")
    main_line = kernel_eval(page, nb, "len(hist.game.line)")
    branch_view = kernel_eval(page, nb, "type(hist.branches[0][1]).__name__")
    if branch_view == "PlayView":
        seat_ok = kernel_eval(page, nb, "hist.branches[0][1].turn_seat() is not None")
        if seat_ok:
            before = kernel_eval(page, nb, "len(hist.branches[0][0].history)")
            _button(view, r"draw deck").first.click()
            wait_kernel(page, nb, f"len(hist.branches[0][0].history) > {before}", "a move in the branch")
            check_figures(page, nb, min_figures=2, what="after a move in the branch")
    assert kernel_eval(page, nb, "len(hist.game.line)") == main_line
    console.assert_clean("in the HistoryView")


@pytest.mark.browser
@pytest.mark.slow
def test_editorview_edits(lab_server, page, console):
    from playwright.sync_api import expect

    nb = "t_editor.ipynb"
    view = open_scratch_view(page, lab_server, nb, EDITOR_CELLS, ".t-editor")
    check_figures(page, nb, min_figures=1, what="EditorView at the start")

    # a free route (from the kernel), clicked: Blue owns it, and the board shows it
    route = kernel_eval(page, nb, "next(r.id for r in editor.map.routes if r.id not in "
                                  "dict(__import__('ttr_nb.board.engine', fromlist=['x']).board_marks(editor.state)['owners']))")
    click_route_marker(page, ".t-editor", route)
    wait_kernel(page, nb, f"{_owner('editor.state', route)} == 0", "the route's owner changed")
    check_figures(page, nb, min_figures=1, what="after giving a route an owner")

    # the hands tab: Blue's first card kind set to 2
    view.get_by_role("tab", name=re.compile("hands")).click()
    first = view.locator(".widget-hbox:visible").filter(has=page.get_by_text("Blue", exact=True)) \
        .locator("input[type=number]").first
    expect(first).to_be_visible(timeout=WAIT_S * 1000)
    want = kernel_eval(page, nb, "editor.state.players[0].hand[0]") + 1
    first.fill(str(want))
    first.press("Enter")
    wait_kernel(page, nb, f"editor.state.players[0].hand[0] == {want}", "the hand edit reached the kernel")
    check_figures(page, nb, min_figures=1, what="after a hand edit")
    console.assert_clean("in the EditorView")


SECRET_GAMES = {
    # against bots: Blue's view; Blue plays two turns of blind draws, the bots keep tickets and play
    "bots": ("from ttr_nb.widgets import play\n"
             "spy = play('usa', players=3, seed=8)\n"
             "spy.widget.add_class('t-secrets')\n"
             "spy",
             ["spy.keep_tickets(0, spy.offered(0)[:2])", "spy.draw_deck()", "spy.draw_deck()",
              "spy.draw_deck()", "spy.draw_deck()"], 0),
    # hot seat: both seats human, a hand-over between them; after Blue's turn Red takes the screen, and Blue's
    # secrets must be gone
    "hot seat": ("from ttr_nb import Game\n"
                 "from ttr_nb.widgets import PlayView\n"
                 "spy = PlayView(Game('usa', players=2, seed=8), human_seats=(0, 1), bots={})\n"
                 "spy.widget.add_class('t-secrets')\n"
                 "spy",
                 ["spy.ready()", "spy.keep_tickets(0, spy.offered(0)[:2])",
                  "spy.ready()", "spy.keep_tickets(1, spy.offered(1)[:2])",
                  "spy.ready()", "spy.draw_deck()", "spy.draw_deck()", "spy.ready()"], 1),
    # a TableView showing one seat's view of a game the bots played for a while
    "table for a seat": ("from ttr_nb import Game\n"
                         "from ttr_nb.bots import GreedyBot\n"
                         "from ttr_nb.widgets import TableView\n"
                         "g = Game('usa', players=3, seed=8)\n"
                         "g.play_bots({s: GreedyBot(seed=s) for s in range(3)}, max_plies=30)\n"
                         "spy = TableView(g, seat=0)\n"
                         "spy.widget.add_class('t-secrets')\n"
                         "spy",
                         [], 0),
}


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("kind", list(SECRET_GAMES))
def test_a_player_view_shows_no_secret_of_another_seat(lab_server, page, console, kind):

    cell, moves, seat = SECRET_GAMES[kind]
    nb = f"t_secrets_{kind.replace(' ', '_')}.ipynb"
    view = open_scratch_view(page, lab_server, nb, [cell], ".t-secrets")
    for move in moves:
        kernel_eval(page, nb, "None", move)
    playview = kernel_eval(page, nb, "hasattr(spy, 'viewing_seat')")
    shown = kernel_eval(page, nb, "spy.viewing_seat() if hasattr(spy, 'viewing_seat') else spy.seat")
    assert shown == seat, (kind, shown)
    status = _turn_status(page, nb, "spy")
    wait_text(view, status, "the view caught up with the moves")
    n = plies(page, nb, "spy")
    if playview:
        last = kernel_eval(page, nb, "spy.game.history[-1].words")
        wait_text(view, last, "the last move shown")

    secrets = secrets_of_others(page, nb, "spy", seat)
    text = view.inner_text()
    # a check that we read the right text: the seat's own tickets are shown to it
    own = [f"{a}–{b}" for a, b in secrets["own"] if not pair_patterns(a, b).search(text)]
    assert not own, f"{kind}: the seat's own tickets are not in its view: {own}"
    leaks = []
    for name, sec in secrets["others"].items():
        for a, b in sec["tickets"] + sec["offered"]:
            m = pair_patterns(a, b).search(text)
            if m:
                at = text[max(0, m.start() - 80):m.end() + 40].replace("\n", " ")
                leaks.append(f"{name}'s ticket {a}–{b}: …{at}…")
        if sec["hand"].count(",") >= 1 and sec["hand"] in text:      # two kinds or more: not a chance match
            leaks.append(f"{name}'s hand ({sec['hand']})")
    assert not leaks, f"{kind}: the view of seat {seat} after {n} moves shows another seat's secrets:\n" + \
        "\n".join(leaks)
    console.assert_clean(f"in the {kind} view")
