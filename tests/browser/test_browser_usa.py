"""01_usa in a real JupyterLab + Chromium: run all, then play the first moves in the PlayView by clicking.

The notebook (a temp copy, see conftest.py) runs top to bottom; the static plotly figures and the widget views
must draw. Then, in the PlayView at the end (CSS class ``ttr-playview``, set by ``ttr_nb.teaching.learner_view``):

1. tick two offered tickets and press **keep** → the kernel's status line says Blue is to play;
2. click a route marker on the PlayView's board → its legal payments appear as buttons;
3. press **draw deck** → the status says "take your second card".

Every check reads text the kernel wrote into the page, so each proves a round trip browser → kernel → browser.
The game is rebuilt here with the same seed to know which tickets are offered and which route Blue can pay for.
"""
from __future__ import annotations

import re

import pytest

from labhelpers import click_route_marker, find_view, keep_tickets, open_and_run_all, save_screenshot, settle

NOTEBOOK = "01_usa.ipynb"
PLAYERS, SEED = 3, 11          # as in the notebook: learner_view(players=3, seed=11)
VIEW = ".ttr-playview"

def _learner_setup():
    """The learner's game as the notebook builds it: the tickets offered to Blue and a route Blue can pay for."""
    from ttr_nb import Game, get_variant
    from ttr_nb.board.engine import claimable_routes
    from ttr_nb.widgets._common import ticket_words

    game = Game("usa", players=PLAYERS, seed=SEED)
    v = get_variant("usa")
    offered = game.state.pending_for(0).get("offered")
    labels = [ticket_words(v.map, t) for t in offered]
    routes = claimable_routes(v, game.state, 0, affordable_only=True)
    assert routes, "Blue's starting hand pays for no route: pick another seed"
    return labels, routes[0]


@pytest.mark.browser
@pytest.mark.slow
def test_01_usa_runs_and_the_playview_plays(lab_server, page):
    from playwright.sync_api import expect

    ticket_labels, route = _learner_setup()
    cells = open_and_run_all(page, lab_server.url, NOTEBOOK, timeout_s=240)
    assert sum(1 for c in cells if c["type"] == "code") > 30

    # static figures (plotly mimetype) and the widget boards drew
    page.locator(".js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=60_000)
    view = find_view(page, VIEW, min_plots=1)   # every figure is checked in test_browser_notebooks.py

    status = view.locator(".ttr-status").first          # the status line (a learner's: no rule ids)
    expect(status).to_contain_text("waiting for Blue", timeout=30_000)

    # 1. keep two tickets
    keep_tickets(view, ticket_labels[:2], status)

    # 2. click a route marker on the board: the legal payments appear
    info = view.locator(".widget-html", has_text=re.compile(r"legal payments?:"))
    click_route_marker(page, VIEW, route.id, done=lambda: info.count() > 0)
    expect(info).to_contain_text(f"{route.a}–{route.b}", timeout=30_000)
    pay_buttons = view.locator(".widget-button", has_text=re.compile(r"\d (purple|blue|orange|white|green|yellow|"
                                                                    r"black|red|locomotive)"))
    expect(pay_buttons.first).to_be_visible(timeout=30_000)

    # 3. draw a card blind: the status moves on to the second card
    view.get_by_role("button", name="draw deck", exact=True).click()
    expect(status).to_contain_text("take your second card", timeout=30_000)
    # the log says the move once, as its player may read it: which card the blind draw gave
    log = view.locator(".ttr-log", has_text=re.compile(r"You drew an? \w+ card from the deck"))
    expect(log.first).to_be_attached(timeout=30_000)

    traces = page.evaluate(f"() => document.querySelector('{VIEW} .js-plotly-plot').data.length")
    assert traces > 0
    view.evaluate("el => el.scrollIntoView({block: 'start'})")     # status line, board and buttons in the shot
    settle(page)
    shot = save_screenshot(page, "browser_usa_playview")
    assert shot.stat().st_size > 10_000
