"""02_europe in a real JupyterLab + Chromium: run all, then play in the Europe PlayView by clicking.

The notebook (a temp copy, see conftest.py) runs top to bottom; its static plotly figures, the HistoryView and the
PlayView must draw. Then, in the PlayView at the end (CSS class ``ttr-playview``):

1. tick two of the four offered tickets (one long, three regular) and press **keep** → the kernel's status line
   says Blue is to play, with Europe's fourth choice, "build a train station" (EU-TURN-1);
2. press **draw deck** → the status says "take your second card";
3. press **draw deck** again → the bots (Red, Green) play their turns and it is Blue's turn again; the log shows
   their moves and the board is still drawn, with Europe's tunnel layer.

Every check reads text the kernel wrote into the page, so each proves a round trip browser → kernel → browser.
The game is rebuilt here with the notebook's seed to know which tickets are offered.
"""
from __future__ import annotations

import re

import pytest

from labhelpers import find_view, keep_tickets, open_and_run_all, save_screenshot, settle

NOTEBOOK = "02_europe.ipynb"
PLAYERS, SEED = 3, 21          # as in the notebook: play("europe", players=3, seed=21)
VIEW = ".ttr-playview"

_JS_BOARD = r"""
(selector) => {
  const gd = document.querySelector(selector + ' .js-plotly-plot');
  if (!gd || !gd.data) return {error: 'no plot in ' + selector};
  const metas = gd.data.map((t) => t.meta);
  const routes = gd.data.find((t) => t.meta === 'routes');
  return {traces: gd.data.length, tunnels: metas.includes('tunnels'), ferries: metas.includes('ferries'),
          markers: routes ? routes.customdata.length : 0,
          svg: !!gd.querySelector('.main-svg')};
}
"""


def _offered_labels() -> list[str]:
    from ttr_nb import Game, get_variant
    from ttr_nb.widgets._common import ticket_words

    game = Game("europe", players=PLAYERS, seed=SEED)
    offered = game.state.pending_for(0).get("offered")
    return [ticket_words(get_variant("europe").map, t) for t in offered]


@pytest.mark.browser
@pytest.mark.slow
def test_02_europe_runs_and_the_playview_plays(lab_server, page):
    from playwright.sync_api import expect

    labels = _offered_labels()
    assert len(labels) == 4                       # 1 long + 3 regular (EU-SETUP-2/3)
    cells = open_and_run_all(page, lab_server.url, NOTEBOOK, timeout_s=240)
    assert sum(1 for c in cells if c["type"] == "code") > 25

    # the static figures (plotly mimetype) and the two widget views drew
    page.locator(".js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=60_000)
    expect(page.locator(".ttr-historyview")).to_have_count(1, timeout=60_000)
    view = find_view(page, VIEW, min_plots=1)   # every figure is checked in test_browser_notebooks.py
    board = page.evaluate(_JS_BOARD, VIEW)
    assert "error" not in board, board
    assert board["svg"] and board["tunnels"] and board["ferries"] and board["markers"] == 101, board

    status = view.locator(".ttr-status").first          # the status line (a learner's: no rule ids)
    expect(status).to_contain_text("waiting for Blue", timeout=30_000)

    # 1. keep the long ticket and one regular one
    keep_tickets(view, labels[:2], status)
    expect(status).to_contain_text("build a train station", timeout=30_000)

    # 2. a first card, blind
    deck = view.get_by_role("button", name="draw deck", exact=True)
    deck.click()
    expect(status).to_contain_text("take your second card", timeout=30_000)

    # 3. the second card: the turn ends, the bots reply, and it is Blue's turn again
    deck.click()
    expect(status).to_contain_text("Blue to play", timeout=60_000)
    # the bots' moves are in the log once each, their reasons on demand ("explain the bots' moves")
    log = view.locator(".ttr-log")
    expect(log).to_contain_text(re.compile(r"\d+\. (Red|Green) "), timeout=30_000)
    assert "why:" not in log.inner_text()
    view.get_by_role("checkbox", name="explain the bots' moves").check()
    expect(log).to_contain_text("(why:", timeout=30_000)
    after = page.evaluate(_JS_BOARD, VIEW)
    assert after["svg"] and after["traces"] == board["traces"], (board, after)   # updated in place, not rebuilt

    view.evaluate("el => el.scrollIntoView({block: 'start'})")     # status line, board and buttons in the shot
    settle(page)
    shot = save_screenshot(page, "browser_europe_playview")
    assert shot.stat().st_size > 10_000
