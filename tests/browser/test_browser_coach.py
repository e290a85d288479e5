"""The coach in the views, by clicks in JupyterLab + Chromium (issue 19 item 4): the hint button of the USA play
view and of the Card Game's, reached by the keyboard (Tab, then Enter) and found by its accessible name; its
answer shows in the page with a board that draws what the kernel holds; the review button of a history view after
a game, and a review item's button showing its position. Screenshots at 1440×900 and 1024×768 go to
tests/browser/artifacts/coach-*.png.
"""
from __future__ import annotations

import re

import pytest

from labhelpers import SCREEN_SIZES, WAIT_S, check_figures, kernel_eval, save_screenshot, settle
from viewhelpers import COACH_CELLS, open_scratch_view, wait_kernel, wait_text


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
    hist.scroll_into_view_if_needed()
    review = hist.get_by_role("button", name="coach: review the game")
    expect(review).to_be_enabled(timeout=WAIT_S * 1000)
    review.click()
    wait_kernel(page, nb, "hist.review.button.disabled is False and hist.review.output.value != ''",
                "the review finished", timeout_s=WAIT_S * 3)
    n = kernel_eval(page, nb, "len(hist.review.items)")
    assert n >= 1, kernel_eval(page, nb, "hist.review.output.value")
    first = kernel_eval(page, nb, "hist.review.items[0].ply")
    wait_text(hist.locator(".ttr-review-output"), "costliest moves", "the review's title on the page")
    hist.get_by_role("button", name=f"show move {first}").click()
    wait_kernel(page, nb, f"hist.shown_ply == {first - 1}", "the history shows the position before that move")
    wait_text(hist, f"move {first - 1} of", "the slider's position on the page")
    check_figures(page, nb, min_figures=3, what="the history at the reviewed move")
    _shots(page, hist, "review")
