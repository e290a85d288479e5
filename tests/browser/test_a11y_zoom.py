"""The play views at 200 % zoom beside JupyterLab's file panel (issue 21: "the view is 272 px wide and buttons are
cut ('Un…')").

A 1280×800 school laptop at 200 % zoom is a 640×400 CSS-pixel window with two device pixels per CSS pixel; with
the file panel open the notebook leaves a view about 270 px wide. A USA and a Card Game play view, each with the
decision at hand (the first tickets to keep; then, in the USA, a route's payments), must:

* show every button, toggle and label whole: no text cut or ellipsised (its text fits its box), nothing past the
  view's right edge; a list box (whose rows a browser never wraps) inside the view, and its rows told apart by
  what shows of them;
* stay usable: each decision is made by clicking its controls (ticket boxes and "keep", a payment button, a move
  from the Card Game's list and "play this"), nothing covering them, and what they do reaches the game.

Screenshots (at 2 device pixels per CSS pixel) go to tests/browser/artifacts/a11y-zoom200-*.png.
"""
from __future__ import annotations

import pytest

from labhelpers import ARTIFACTS, WAIT_S, ConsoleLog, kernel_eval, kernel_json, open_and_run_all, settle
from viewhelpers import wait_kernel, write_notebook

ZOOM_VIEWPORT = {"width": 640, "height": 400}      # 1280×800 at 200 %
CELLS = [
    "from ttr_nb import Game\nfrom ttr_nb.widgets import PlayView\n"
    "view = PlayView(Game('usa', players=2, seed=1))\nview.widget.add_class('t-play')\nview",
    "card = PlayView(Game('cardgame', players=2, seed=1))\ncard.widget.add_class('t-card')\ncard",
]

# Runs in the page: what is cut in a view. A control or label is cut when its text is wider (or taller) than its
# box with the overflow hidden, or when it reaches past the view's right edge (the output area clips it there).
_JS_CUT = r"""
(sel) => {
  const view = document.querySelector(sel);
  const edge = view.getBoundingClientRect();
  const out = {width: Math.round(edge.width), cut: [], checked: 0};
  const seen = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
    && !el.closest('.ttr-sr-only, .js-plotly-plot, [hidden]');
  const items = view.querySelectorAll('button, .widget-label, .widget-label-basic, .widget-html-content > b, '
                                      + 'label, select, .widget-toggle-button, summary');
  for (const el of items) {
    if (!seen(el)) continue;
    const text = (el.innerText || el.value || '').trim();
    if (!text) continue;
    out.checked += 1;
    const st = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const past = r.right > edge.right + 1 || r.left < edge.left - 1;
    let clipped = false, clippedY = false;
    if (el.tagName === 'SELECT') {
      // a list box's rows do not wrap: what shows of each (the width less padding and scroll bar) must differ
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
      const room = el.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 8;
      const full = [...el.options].map((o) => o.text);
      const shown = full.map((t) => { while (t && ctx.measureText(t).width > room) t = t.slice(0, -1); return t; });
      clipped = new Set(shown).size < new Set(full).size;
    } else {
      clipped = st.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1;
      clippedY = st.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 2;
    }
    if (clipped || clippedY || past) {
      out.cut.push({text: text.slice(0, 50), tag: el.tagName, width: Math.round(r.width),
                    scroll: el.scrollWidth, client: el.clientWidth, past, clippedY, overflow: st.overflowX,
                    ellipsis: st.textOverflow});
    }
  }
  return out;
}
"""

# Runs in the page: the centre of an element is the element itself (nothing covers it), so a click reaches it.
_JS_CLICKABLE = r"""
(el) => {
  el.scrollIntoView({block: 'center'});
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}
"""


def _check(page, sel: str, what: str, problems: list[str]) -> None:
    facts = page.evaluate(_JS_CUT, sel)
    assert facts["checked"] > 3, (what, facts)
    if facts["width"] > 300:
        problems.append(f"{what}: the view is {facts['width']} px wide, not the narrow view this test is about")
    for c in facts["cut"]:
        problems.append(f"{what}: cut {c}")


def _click(page, locator, what: str) -> None:
    locator.scroll_into_view_if_needed()
    assert page.evaluate(_JS_CLICKABLE, locator.element_handle()), f"{what} is covered by something else"
    locator.click()


@pytest.mark.browser
@pytest.mark.slow
def test_play_views_at_200_percent_zoom_beside_the_file_panel(browser, lab_server):
    nb = "t_a11y_zoom.ipynb"
    write_notebook(lab_server.root_dir / nb, CELLS)
    context = browser.new_context(viewport=ZOOM_VIEWPORT, device_scale_factor=2)
    context.set_default_timeout(90_000)
    page = context.new_page()
    console = ConsoleLog().attach(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        open_and_run_all(page, lab_server.url, nb)
        page.evaluate("async () => { await window.jupyterapp.commands.execute('filebrowser:activate'); }")
        page.locator(".jp-FileBrowser").first.wait_for(state="visible", timeout=WAIT_S * 1000)
        problems: list[str] = []
        for sel in (".t-play", ".t-card"):
            page.locator(sel).scroll_into_view_if_needed()
            page.locator(f"{sel} .ttr-figure[data-ttr-drawn]").first.wait_for(state="attached",
                                                                            timeout=WAIT_S * 1000)
        # USA: the first tickets, then a route's payments
        play = page.locator(".t-play")
        play.locator(".ttr-tickets").first.scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(ARTIFACTS / "a11y-zoom200-usa-tickets.png"))
        _check(page, ".t-play", "USA, keeping tickets", problems)
        need = kernel_eval(page, nb, "view.game.state.pending_for(0).get('min_keep')")
        boxes = play.locator(".ttr-tickets input[type=checkbox]")
        for k in range(need):
            _click(page, boxes.nth(k), f"ticket box {k}")
        wait_kernel(page, nb, f"len(view.checked_tickets(0)) == {need}", "the ticked tickets reached the kernel")
        _click(page, play.locator(".ttr-tickets button").first, "the keep button")
        wait_kernel(page, nb, "view.turn_seat() == 0", "Blue kept tickets and it is Blue's turn")
        route = kernel_json(page, nb, "next(t.split(':', 1)[1] for w, t in view.chooser.entries "
                                      "if t.startswith('route:') and 'tunnel' not in w)")
        kernel_eval(page, nb, f"len(view.click_route({route!r}))")
        play.locator(".ttr-payments button").first.wait_for(state="visible", timeout=WAIT_S * 1000)
        play.locator(".ttr-payments").first.scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(ARTIFACTS / "a11y-zoom200-usa-payment.png"))
        _check(page, ".t-play", "USA, paying for a route", problems)
        _click(page, play.locator(".ttr-payments button").first, "a payment button")
        wait_kernel(page, nb, f"__import__('ttr_nb.board.engine', fromlist=['x']).board_marks(view.game.state)['owners']"
                              f".get({route!r}) == 0", "the claim reached the game")
        # the Card Game: the first tickets, then its move list
        cardv = page.locator(".t-card")
        cardv.locator(".ttr-tickets").first.scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(ARTIFACTS / "a11y-zoom200-cardgame-tickets.png"))
        _check(page, ".t-card", "Card Game, keeping tickets", problems)
        _click(page, cardv.locator(".ttr-tickets input[type=checkbox]").first, "a Card Game ticket box")
        wait_kernel(page, nb, "sum(b.value for b in card._ticket_checks.values()) >= 1", "the tick reached the kernel")
        _click(page, cardv.locator(".ttr-tickets button").first, "the Card Game's keep button")
        wait_kernel(page, nb, "card.acting_seat() == 0 and not card._ticket_checks", "Blue's first turn")
        cardv.locator(".ttr-optionlist").first.scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(ARTIFACTS / "a11y-zoom200-cardgame-turn.png"))
        _check(page, ".t-card", "Card Game, a turn", problems)
        moves = cardv.locator(".ttr-optionlist select")
        moves.select_option(index=0)
        wait_kernel(page, nb, "card.more_options.select.value is not None", "the list chose a move")
        _click(page, cardv.locator(".ttr-optionlist button").first, "the Card Game's 'play this' button")
        wait_kernel(page, nb, "any(p['yard'] for p in [card.game.rules.observe(card.game.state, 0)['players'][0]])",
                    "the rail-yard play reached the game")
        assert not problems, f"{len(problems)} problem(s) at 200 %:\n" + "\n".join(problems[:30])
        console.assert_clean("at 200 % zoom")
    except BaseException:
        page.screenshot(path=str(ARTIFACTS / "a11y-zoom200-failure.png"))
        (ARTIFACTS / "a11y-zoom200-console.log").write_text("\n".join(console.lines) + "\n")
        raise
    finally:
        context.close()
        lab_server.shutdown_kernels()
