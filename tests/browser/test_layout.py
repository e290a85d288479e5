"""Every game's play view on one screen, at 1440×900 and at 1024×768 with JupyterLab's file panel open (issue 17).

One scratch notebook holds a play view of each game with a decision at hand: the first tickets to keep (USA,
Europe, the Card Game), Märklin's ticket mix, South Korea's draft, and a USA route clicked with its payment buttons.
At each window size every view is scrolled to the top of the notebook panel, as a reader scrolls to it, and the DOM
must say:

* the board and every control of the decision at hand (tickets, payments, options, the draw buttons) lie inside the
  notebook's visible panel: nothing to scroll to;
* no two parts overlap (the board, the decision, the hand and draws, the players, your tickets, the log);
* a tall map (Märklin, South Korea) is drawn as wide as its height needs, not as a narrow strip in a wide box;
* the city names as the browser drew them overlap no other name, and each lies within the box the label placement
  computed for it (``ttr_nb.render.labels``) at the size it was drawn.

Screenshots go to tests/browser/artifacts/layout-*.png.
"""
from __future__ import annotations

import pytest

from labhelpers import SCREEN_SIZES, WAIT_S, save_screenshot, settle, wait_until
from viewhelpers import open_scratch_view

NOTEBOOK = "t_layout.ipynb"
VIEWS = {
    "usa": "v = PlayView(Game('usa', players=3, seed=2))",
    "usa-payment": ("v = PlayView(Game('usa', players=3, seed=2))\n"
                    "v.keep_tickets(0, v.offered(0)[:2])\n"
                    "from ttr_nb.board.engine import claimable_routes\n"
                    "v.click_route(next(r.id for r in claimable_routes(v.variant, v.game.state, 0, affordable_only=True)"
                    " if len(v.click_route(r.id)) >= 2))"),
    "europe": "v = PlayView(Game('europe', players=3, seed=2))",
    "maerklin": "v = PlayView(Game('maerklin', players=3, seed=2))",
    "south_korea": "v = PlayView(Game('south_korea', players=3, seed=2))",
    "cardgame": "v = PlayView(Game('cardgame', players=3, seed=2))",
    # a tall map in play: the draws and a route's payments beside it
    "south_korea-turn": ("v = PlayView(Game('south_korea', players=3, seed=2))\n"
                         "for _ in range(6): v.choose_option(0)\n"
                         "v.keep_tickets(0, v.offered(0)[:4])\n"
                         "from ttr_nb.board.engine import claimable_routes\n"
                         "v.click_route(claimable_routes(v.variant, v.game.state, 0, affordable_only=True)[0].id)"),
    "maerklin-turn": ("v = PlayView(Game('maerklin', players=3, seed=2))\n"
                      "v.choose_option(2)\n"
                      "v.keep_tickets(0, v.offered(0)[:2])\n"
                      "from ttr_nb.board.engine import claimable_routes\n"
                      "v.click_route(claimable_routes(v.variant, v.game.state, 0, affordable_only=True)[0].id)"),
}
CELLS = [f"from ttr_nb import Game\nfrom ttr_nb.widgets import PlayView\n{code}\nv.widget.add_class('t-{name}')\nv"
         for name, code in VIEWS.items()]

# Runs in the page: the layout facts of one view, scrolled to the top of the notebook panel.
_JS_FACTS = r"""
(sel) => {
  const view = document.querySelector(sel);
  const panel = view.closest('.jp-WindowedPanel-outer');
  const r = (el) => { const b = el.getBoundingClientRect(); return {x: b.left, y: b.top, w: b.width, h: b.height}; };
  const seen = (el) => el.checkVisibility() && el.getBoundingClientRect().width > 0;
  const board = view.querySelector('.ttr-board-box .js-plotly-plot');
  const parts = [];
  const add = (name, el) => { if (el && seen(el)) parts.push({name, ...r(el)}); };
  add('board', board);
  for (const [i, el] of Array.from(view.querySelectorAll('.ttr-decision > *')).entries()) add(`decision ${i}`, el);
  add('strip', view.querySelector('.ttr-strip'));
  for (const [i, el] of Array.from(view.querySelectorAll('.ttr-info > *')).entries()) add(`info ${i}`, el);
  add('hand', view.querySelector('.ttr-hand'));
  add('log', view.querySelector('.ttr-log'));
  // the decision at hand: what the player can do now (a disabled draw button during the setup is not)
  const controls = Array.from(view.querySelectorAll(
      '.ttr-decision input, .ttr-decision button, .ttr-decision select, .ttr-draws button, .ttr-handover button'))
    .filter((el) => seen(el) && !el.disabled)
    .map((el) => ({name: (el.innerText || el.value || el.type || '').trim().slice(0, 40), ...r(el)}));
  // the city names as drawn: each text's box (page pixels) and its font size
  const names = [];
  if (board && board.data) {
    const k = board.data.findIndex((t) => t.meta === 'city-names');
    const cities = new Set(k >= 0 ? Array.from(board.data[k].text) : []);
    for (const t of board.querySelectorAll('.scatterlayer .textpoint text')) {
      if (!cities.has(t.textContent)) continue;
      const b = t.getBoundingClientRect();
      names.push({text: t.textContent, x: b.left, y: b.top, w: b.width, h: b.height,
                  size: parseFloat(getComputedStyle(t).fontSize)});
    }
  }
  // the Card Game table's cards as drawn (market, piles, rail yards, on-the-track piles): each marker's box
  const cards = [];
  if (board && board.data && ((board.layout || {}).meta || {}).ttr_panel === 'cardtable') {
    // a trace drawn with no points has no group: each group names its trace (plotly's calcdata on the element)
    for (const g of board.querySelectorAll('.scatterlayer .trace')) {
      const cd = g.__data__;
      const t = cd && cd[0] && cd[0].trace;
      if (!t || !['market', 'piles', 'yards', 'track'].includes(t.meta)) continue;
      for (const [j, pt] of Array.from(g.querySelectorAll('path.point')).entries()) {
        cards.push({text: `${t.meta} ${j}`, ...r(pt)});
      }
    }
  }
  const fig = view.querySelector('.ttr-board-box .ttr-figure');
  return {panel: r(panel), parts, controls, names, cards, board: board ? r(board) : null,
          tall: !!view.querySelector('.ttr-main.ttr-tall'),
          aspect: board && board._fullLayout ? {
            plotW: board._fullLayout._size.w, plotH: board._fullLayout._size.h,
            xr: board._fullLayout.xaxis.range, yr: board._fullLayout.yaxis.range} : null,
          drawn: fig ? fig.dataset.ttrDrawn === '1' && !fig.hasAttribute('aria-busy') : true};
}
"""


def _overlap(a: dict, b: dict, slack: float = 1.0) -> bool:
    return (a["x"] + slack < b["x"] + b["w"] and b["x"] + slack < a["x"] + a["w"]
            and a["y"] + slack < b["y"] + b["h"] and b["y"] + slack < a["y"] + a["h"])


def _inside(a: dict, p: dict, slack: float = 1.0) -> bool:
    return (a["x"] >= p["x"] - slack and a["y"] >= p["y"] - slack and a["x"] + a["w"] <= p["x"] + p["w"] + slack
            and a["y"] + a["h"] <= p["y"] + p["h"] + slack)


def _facts(page, name: str) -> dict:
    """Scroll the view to the top of the notebook panel and read its layout once it stands still."""
    sel = f".t-{name}"
    page.evaluate("(sel) => { const v = document.querySelector(sel); "
                  "v.closest('.jp-OutputArea-output').scrollIntoView({block: 'start'}); }", sel)
    state = {"last": None}

    def still():
        settle(page)
        now = page.evaluate(_JS_FACTS, sel)
        # the city names too: after a resize the board may stand while its labels are placed anew for the new size
        key = (now["board"], [(p["name"], round(p["y"]), round(p["h"])) for p in now["parts"]],
               [(n["text"], round(n["x"]), round(n["y"]), round(n["w"])) for n in now["names"]],
               [(c["name"], round(c["x"]), round(c["y"])) for c in now["controls"]])
        same = now["drawn"] and now["board"] is not None and key == state["last"]
        state["last"], state["facts"] = key, now
        return same

    wait_until(still, f"the {name} view stands still", WAIT_S, page=page)
    return state["facts"]


@pytest.mark.browser
@pytest.mark.slow
def test_every_play_view_fits_one_screen_at_1440_and_1024(lab_server, page, console):
    from ttr_nb.render import labels

    page.set_viewport_size({"width": 1440, "height": 900})
    open_scratch_view(page, lab_server, NOTEBOOK, CELLS, ".t-cardgame")
    problems: list[str] = []
    for w, h in SCREEN_SIZES:
        page.set_viewport_size({"width": w, "height": h})
        for name in VIEWS:
            f = _facts(page, name)
            where = f"{name} at {w}x{h}"
            save_screenshot(page, f"layout-{name}-{w}x{h}")
            panel = f["panel"]
            board = next(p for p in f["parts"] if p["name"] == "board")
            if not _inside(board, panel):
                problems.append(f"{where}: the board {board} is not inside the visible panel {panel}")
            if not f["controls"]:
                problems.append(f"{where}: no decision control found")
            if name.endswith("-turn") or name == "usa-payment":          # a turn: the draws are at hand
                if not any(c["name"].startswith("draw deck") for c in f["controls"]):
                    problems.append(f"{where}: no enabled draw buttons")
            for c in f["controls"]:
                if not _inside(c, panel):
                    problems.append(f"{where}: the control {c['name']!r} is off the screen ({c} vs {panel})")
            parts = [p for p in f["parts"] if p["name"] not in ("hand", "log")]
            for i, a in enumerate(parts):
                for b in parts[i + 1:]:
                    if _overlap(a, b):
                        problems.append(f"{where}: {a['name']} overlaps {b['name']}")
            hand = next((p for p in f["parts"] if p["name"] == "hand"), None)
            log = next((p for p in f["parts"] if p["name"] == "log"), None)
            if hand and log and _overlap(hand, log):
                problems.append(f"{where}: the log is drawn over the hand")
            if f["tall"] and f["aspect"]:
                a = f["aspect"]
                need = a["plotH"] * (a["xr"][1] - a["xr"][0]) / (a["yr"][1] - a["yr"][0])
                if a["plotW"] > need * 1.15 + 4:
                    problems.append(f"{where}: the tall map is a strip in a wider box ({a['plotW']:.0f} px wide, "
                                    f"its height needs {need:.0f})")
            if name == "cardgame":                                       # the table's cards never touch
                cards = f["cards"]
                if len(cards) < 10:
                    problems.append(f"{where}: only {len(cards)} of the table's cards found")
                for i, a in enumerate(cards):
                    for b in cards[i + 1:]:
                        if _overlap(a, b):
                            problems.append(f"{where}: the table's {a['text']} and {b['text']} overlap")
            names = f["names"]
            if name != "cardgame" and not names:
                problems.append(f"{where}: no city names drawn")
            for i, a in enumerate(names):
                if a["size"] < 9:
                    problems.append(f"{where}: {a['text']} drawn at {a['size']} px")
                model = labels.text_width(a["text"], a["size"])
                if a["w"] > model + 2:
                    problems.append(f"{where}: {a['text']} is {a['w']:.1f} px wide, its box {model:.1f}")
                for b in names[i + 1:]:
                    if _overlap(a, b, slack=1.5):
                        problems.append(f"{where}: the names {a['text']} and {b['text']} overlap")
    assert not problems, f"{len(problems)} layout problem(s):\n" + "\n".join(problems[:40])
    console.assert_clean("in the play views at both sizes")
