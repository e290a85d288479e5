"""The coach in the views, by clicks in JupyterLab + Chromium (issue 19 item 4), in every game: the hint button of
each game's play view, reached by the keyboard (Tab, then Enter) and found by its accessible name; its answer (three
moves with their chances, the chance to complete each of the seat's tickets) shows in the page with a board that
draws what the kernel holds; the review button of each game's history view after a game, and a review item's button
showing its position. Screenshots at 1440×900 and 1024×768 go to tests/browser/artifacts/coach-*.png.
"""
from __future__ import annotations

import re

import pytest

from labhelpers import SCREEN_SIZES, WAIT_S, check_figures, kernel_eval, save_screenshot, settle
from viewhelpers import COACH_CELLS, COACH_MORE, open_scratch_view, wait_kernel, wait_text


def _shots(page, view, stem: str) -> None:
    before = page.viewport_size
    try:
        for w, h in SCREEN_SIZES:
            page.set_viewport_size({"width": w, "height": h})
            view.scroll_into_view_if_needed()
            view.locator(".ttr-coach-output, .ttr-review-output").first.scroll_into_view_if_needed()
            settle(page)
            save_screenshot(page, f"coach-{stem}-{w}x{h}")
    finally:
        if before:
            page.set_viewport_size(before)


def _ask_by_keyboard(page, view, nb: str, var: str) -> None:
    """The coach's button is a <button> in the tab order, found by its accessible name: focus it, press Enter; wait
    for the hint."""
    from playwright.sync_api import expect
    button = view.get_by_role("button", name="coach: best moves")
    expect(button).to_have_count(1, timeout=WAIT_S * 1000)
    expect(button).to_be_enabled(timeout=WAIT_S * 1000)
    assert button.get_attribute("tabindex") in (None, "0")
    button.focus()
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    wait_kernel(page, nb, f"{var}.coach.hint is not None", "the coach's hint reached the view", timeout_s=WAIT_S * 2)
    best = kernel_eval(page, nb, f"{var}.coach.hint.moves[0].words")
    wait_text(view.locator(".ttr-coach-output"), best, "the coach's best move on the page")
    wait_text(view.locator(".ttr-coach-output"), "chance to win", "the chances on the page")
    assert kernel_eval(page, nb, f"{var}.message.text").startswith("The coach suggests")
    # the progress bar is gone once the answer is there
    expect(view.locator(".ttr-coach-progress")).to_have_count(0, timeout=WAIT_S * 1000)


@pytest.mark.browser
@pytest.mark.slow
def test_coach_hint_and_review_by_clicks(lab_server, page, console):
    from playwright.sync_api import expect

    nb = "t_coach.ipynb"
    view = open_scratch_view(page, lab_server, nb, COACH_CELLS, ".t-coach")
    check_figures(page, nb, min_figures=2, what="the play views at the start")

    # 1. USA: the hint by the keyboard; its best claim (if any) is drawn on the board, which the page draws
    _ask_by_keyboard(page, view, nb, "view")
    assert kernel_eval(page, nb, "view._hint_trail == ((view.coach.hint.route,) if view.coach.hint.route else ())")
    expect(view.locator(".ttr-coach-output ul li")).to_have_count(
        kernel_eval(page, nb, "len(view.coach.hint.odds)"), timeout=WAIT_S * 1000)    # a chance per own ticket
    check_figures(page, nb, min_figures=2, what="the board with the coach's claim")
    _shots(page, view, "usa-hint")

    # 2. the next move takes the hint away
    view.get_by_role("button", name=re.compile(r"^draw deck$|deck", re.IGNORECASE)).first.click()
    wait_kernel(page, nb, "view.coach.hint is None", "the hint went with the move")
    expect(view.locator(".ttr-coach-output .ttr-coach-moves")).to_have_count(0, timeout=WAIT_S * 1000)

    # 3. the Card Game's view
    cards = page.locator(".t-coach-cards")
    cards.scroll_into_view_if_needed()
    _ask_by_keyboard(page, cards, nb, "card_view")
    _shots(page, cards, "cardgame-hint")

    # 4. the review after a game, and a review item's position
    hist = page.locator(".t-coach-history")
    assert _review_by_click(page, hist, nb, "hist") >= 1, kernel_eval(page, nb, "hist.review.output.value")
    check_figures(page, nb, min_figures=3, what="the history at the reviewed move")
    _shots(page, hist, "review")

    # 5. the other board games' play views: the hint and the chance of each own ticket, by the keyboard
    for name in COACH_MORE:
        if name == "cardgame":
            continue
        more = page.locator(f".t-coach-{name}")
        more.scroll_into_view_if_needed()
        _ask_by_keyboard(page, more, nb, f"view_{name}")
        expect(more.locator(".ttr-coach-output ul li")).to_have_count(
            kernel_eval(page, nb, f"len(view_{name}.coach.hint.odds)"), timeout=WAIT_S * 1000)
        _shots(page, more, f"{name}-hint")

    # 6. every other game's review, by a click
    for name in COACH_MORE:
        _review_by_click(page, page.locator(f".t-coach-history-{name}"), nb, f"hist_{name}")
    check_figures(page, nb, min_figures=10, what="every game's views after the reviews")


def _review_by_click(page, hist, nb: str, var: str) -> int:
    """Click the review of the history view ``var``; wait for it on the page; if it lists moves, show the first one's
    position by its button. The number of moves listed."""
    from playwright.sync_api import expect
    hist.scroll_into_view_if_needed()
    review = hist.get_by_role("button", name="coach: review the game")
    expect(review).to_be_enabled(timeout=WAIT_S * 1000)
    review.click()
    wait_kernel(page, nb, f"{var}.review.button.disabled is False and {var}.review.output.value != ''",
                f"{var}: the review finished", timeout_s=WAIT_S * 3)
    n = kernel_eval(page, nb, f"len({var}.review.items)")
    if not n:
        wait_text(hist.locator(".ttr-review-output"), "found no move", f"{var}: the review's answer on the page")
        return 0
    first = kernel_eval(page, nb, f"{var}.review.items[0].ply")
    wait_text(hist.locator(".ttr-review-output"), "costliest moves", f"{var}: the review's title on the page")
    hist.get_by_role("button", name=f"show move {first}").click()
    wait_kernel(page, nb, f"{var}.shown_ply == {first - 1}", f"{var}: the history shows the position before that move")
    shown = f"move {first - 1} of" if kernel_eval(page, nb, f"{var}.game.state.variant") != "cardgame" \
        else f"{first - 1}. "                   # the Card Game's history says the move shown as "80. Red draws ..."
    wait_text(hist, shown, f"{var}: the position shown on the page")
    return n
