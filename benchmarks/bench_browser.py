"""Browser-side speed of the views, measured in a real JupyterLab + Chromium (Debian's /usr/bin/chromium).

    python benchmarks/bench_browser.py [--repeat N]

Prints, for clicks in a PlayView (USA, 3 players, seed 5; the bots are greedy):

* click → visible change, median and p95 (ms), timed in the page: from the ``pointerdown`` of the click to the first
  animation frame where the change is in the DOM —
  route click (the payment buttons appear), payment (the board's drawn data change), draw (the view's text
  changes), undo (the board or the text change);
* "branch here" in a HistoryView → the branch's board drawn;
* a HistoryView slider dragged over 20 steps: time from releasing the mouse until the board shows the final ply,
  and how many different plies the board showed after the release (redraws still queued);
* the first board cell of a notebook: from the fresh kernel being idle to the board drawn (a static
  ``board_of(...).show()`` and a ``play(...)`` view, each in its own new kernel).

Needs the notebook extras and Chromium (as the browser tests do); the kernels import ttr_nb from this checkout.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))

from labhelpers import (ARTIFACTS, chromium_browser, kernel_eval, kernel_json, lab_server_running,  # noqa: E402
                        open_and_run_all, open_notebook, route_marker_xy, run_all, wait_until)
from viewhelpers import HISTORY_CELLS, PAYMENT_CHOICES, PLAY_CELLS, write_notebook  # noqa: E402

# In the page: arm a timer that starts at the next pointerdown and stops at the first animation frame where
# ``changed(baseline)`` is true. ``kind`` picks what "changed" means for the view ``sel``.
_JS_ARM = r"""
([sel, kind]) => {
  const view = document.querySelector(sel);
  const boards = () => Array.from(view.querySelectorAll('.js-plotly-plot'))
      .filter((gd) => gd.data && gd.data.some((t) => t.meta === 'routes'));
  const boardPrint = () => JSON.stringify(boards().map((gd) => gd.data.map((t) =>
      [t.x ? t.x.length : 0, t.marker ? t.marker.color : null, t.marker ? t.marker.size : null,
       t.line ? t.line.color : null, t.selectedpoints || null])));
  const buttons = () => Array.from(view.querySelectorAll('button')).map((b) => b.textContent + (b.disabled ? '0' : '1')).join('|');
  const drawnBoards = () => boards().filter((gd) => gd.querySelector('.main-svg') && gd.data.length > 0);
  const before = new Set(drawnBoards());
  const newBoards = () => drawnBoards().filter((gd) => !before.has(gd)).length;
  const probes = {
    buttons: buttons,
    board: boardPrint,
    text: () => view.innerText,
    board_or_text: () => boardPrint() + view.innerText,
    new_board: newBoards,
  };
  const probe = probes[kind];
  const base = probe();
  const t = window.__ttrT = {t0: null, t1: null, kind};
  const start = () => {
    t.t0 = performance.now();
    const tick = () => {
      if (t.t1 !== null) return;
      let now;
      try { now = probe(); } catch (e) { now = base; }
      if (kind === 'new_board' ? now > 0 : now !== base) { t.t1 = performance.now(); return; }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  document.addEventListener('pointerdown', start, {capture: true, once: true});
  return base === undefined ? null : true;
}
"""


def timed_click(page, sel: str, kind: str, click, timeout_s: float = 120) -> float:
    """ms from the click's pointerdown to the first frame showing the change of ``kind`` in ``sel``."""
    page.evaluate(_JS_ARM, [sel, kind])
    click()
    page.wait_for_function("() => window.__ttrT && window.__ttrT.t1 !== null", timeout=timeout_s * 1000)
    return page.evaluate("() => window.__ttrT.t1 - window.__ttrT.t0")


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(0.95 * (len(xs) - 1))))]


def row(name: str, xs: list[float]) -> str:
    if not xs:
        return f"{name:<34} (no samples)"
    return (f"{name:<34} median {statistics.median(xs):7.0f} ms   p95 {p95(xs):7.0f} ms   "
            f"min {min(xs):6.0f}   max {max(xs):6.0f}   n={len(xs)}")


def button(scope, pattern: str):
    return scope.get_by_role("button", name=re.compile(pattern, re.IGNORECASE))


def bench_playview(page, server, repeat: int) -> dict[str, list[float]]:
    nb = "bench_play.ipynb"
    write_notebook(server.root_dir / nb, PLAY_CELLS)
    open_and_run_all(page, server.url, nb)
    sel = ".t-play"
    view = page.locator(sel)
    view.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=120_000)
    kernel_eval(page, nb, "None", "view.keep_tickets(0, view.offered(0)[:2]); view.draw_deck(); view.draw_deck()")
    wait_until(lambda: kernel_eval(page, nb, "view.turn_seat() == 0"), "Blue to play", page=page)
    out: dict[str, list[float]] = {"route click": [], "payment": [], "draw": [], "undo": []}
    for _ in range(repeat):
        choices = kernel_json(page, nb, "__ttr_payment_choices(view, 0)", PAYMENT_CHOICES)
        if not choices:
            break
        route = choices[0]
        xy = route_marker_xy(page, sel, route["route"])
        page.mouse.move(xy["x"], xy["y"])
        out["route click"].append(timed_click(page, sel, "buttons", lambda: page.mouse.click(xy["x"], xy["y"])))
        pay = button(view, rf"^\s*{re.escape(route['payments'][0])}\s*$").first
        pay.wait_for(state="visible", timeout=120_000)
        out["payment"].append(timed_click(page, sel, "board", pay.click))
        undo = button(view, r"undo").first
        wait_until(lambda: undo.is_enabled(), "undo enabled", page=page)
        out["undo"].append(timed_click(page, sel, "board_or_text", undo.click))
        wait_until(lambda: kernel_eval(page, nb, "view.turn_seat() == 0 and not view.payments"),
                   "back to Blue's turn", page=page)
        deck = button(view, r"draw deck").first
        wait_until(lambda: deck.is_enabled(), "draw deck enabled", page=page)
        out["draw"].append(timed_click(page, sel, "text", deck.click))
        wait_until(lambda: undo.is_enabled(), "undo enabled", page=page)
        out["undo"].append(timed_click(page, sel, "board_or_text", undo.click))
        wait_until(lambda: kernel_eval(page, nb, "view.turn_seat() == 0 and not view.game.state.pending"),
                   "back to Blue's turn", page=page)
    return out


def bench_history(page, server, repeat: int) -> dict[str, list[float]]:
    nb = "bench_history.ipynb"
    write_notebook(server.root_dir / nb, HISTORY_CELLS)
    open_and_run_all(page, server.url, nb)
    sel = ".t-history"
    view = page.locator(sel)
    view.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=120_000)
    out: dict[str, list[float]] = {"branch here": [], "slider 20 steps: catch-up": [],
                                   "slider 20 steps: redraws after release": []}
    top = kernel_eval(page, nb, "len(hist.game.line)")
    for k in range(repeat):
        # drag 20 steps (alternately up and down), then time until the board's title names the final ply
        lo_ply, hi_ply = 10, 30
        start_ply, end_ply = (lo_ply, hi_ply) if k % 2 == 0 else (hi_ply, lo_ply)
        kernel_eval(page, nb, "None", f"hist.show({start_ply})")
        wait_until(lambda: view.locator(".widget-readout").first.inner_text().strip() == str(start_ply),
                   "slider at the start ply", page=page)
        handle = view.locator(".widget-slider .noUi-handle").first
        handle.scroll_into_view_if_needed()
        track = view.locator(".widget-slider .noUi-target").first.bounding_box()
        hb = handle.bounding_box()
        y = hb["y"] + hb["height"] / 2
        x1 = track["x"] + track["width"] * end_ply / top
        page.mouse.move(hb["x"] + hb["width"] / 2, y)
        page.mouse.down()
        page.mouse.move(x1, y, steps=20)
        page.evaluate(r"""(sel) => {
          const view = document.querySelector(sel);
          const gd = Array.from(view.querySelectorAll('.js-plotly-plot')).find((g) => g.data && g.data.some((t) => t.meta === 'routes'));
          const title = () => (gd._fullLayout && gd._fullLayout.title ? gd._fullLayout.title.text : '') || '';
          const s = window.__ttrSlider = {t0: performance.now(), t1: null, titles: [title()], target: null};
          const tick = () => {
            const now = title();
            if (now !== s.titles[s.titles.length - 1]) s.titles.push(now);
            const readout = view.querySelector('.widget-readout');
            s.target = readout ? readout.textContent.trim() : null;
            if (s.target !== null && new RegExp('\\b' + s.target + '\\b').test(now)) { s.t1 = performance.now(); return; }
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }""", sel)
        page.mouse.up()
        page.wait_for_function("() => window.__ttrSlider.t1 !== null", timeout=180_000)
        res = page.evaluate("() => window.__ttrSlider")
        out["slider 20 steps: catch-up"].append(res["t1"] - res["t0"])
        out["slider 20 steps: redraws after release"].append(len(res["titles"]) - 1)
        # branch here, at the shown ply
        branch = button(view, r"branch here").first
        out["branch here"].append(timed_click(page, sel, "new_board", branch.click))
        wait_until(lambda: kernel_eval(page, nb, f"len(hist.branches) == {k + 1}"), "branch made", page=page)
    return out


FIRST_BOARD = {
    "first board cell (static board)": [
        "from ttr_nb import Game\n"
        "from ttr_nb.teaching import board_of\n"
        "board_of(Game('usa', players=3, seed=1).state, title='first board').show()"],
    "first board cell (play view)": [
        "from ttr_nb.widgets import play\n"
        "play('usa', players=3, seed=1)"],
}


def bench_first_board(page, server, index: int, cells: list[str]) -> float:
    nb = f"bench_first_{index}.ipynb"
    write_notebook(server.root_dir / nb, cells)
    open_notebook(page, server.url, nb)           # waits for a new kernel, connected and idle
    t0 = time.perf_counter()
    run_all(page, nb)
    page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot'))"
                           ".some((gd) => gd.querySelector('.main-svg') && gd.data && gd.data.some((t) => t.meta === 'routes'))",
                           timeout=180_000, polling="raf")
    return (time.perf_counter() - t0) * 1000


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=10, help="rounds of each click (default 10)")
    args = ap.parse_args(argv)
    results: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp, \
            lab_server_running(Path(tmp), ARTIFACTS / "bench-jupyterlab.log") as server, \
            chromium_browser() as browser:
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        context.set_default_timeout(120_000)
        page = context.new_page()
        for i, (name, cells) in enumerate(FIRST_BOARD.items()):
            results[name] = [bench_first_board(page, server, i, cells)]
            server.shutdown_kernels()
        results.update(bench_playview(page, server, args.repeat))
        server.shutdown_kernels()
        results.update(bench_history(page, server, max(3, args.repeat // 2)))
        server.shutdown_kernels()
        context.close()
    print(f"browser: JupyterLab + Chromium, {args.repeat} rounds; times from pointerdown to the first frame showing "
          f"the change")
    for name, xs in results.items():
        if name.endswith("redraws after release"):
            print(f"{name:<34} median {statistics.median(xs):7.1f}      max {max(xs):4.0f}   n={len(xs)}"
                  if xs else f"{name:<34} (no samples)")
        elif name.startswith("first board"):
            print(f"{name:<34} {xs[0]:7.0f} ms after the kernel was idle")
        else:
            print(row(name, xs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
