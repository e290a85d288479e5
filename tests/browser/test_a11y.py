"""Accessibility in a real JupyterLab + Chromium, for every game (issue 21, item 5).

Per game, one scratch notebook shows the four views (play, history, table, editor). Then:

1. **Keyboard only**: from the notebook, Tab into the PlayView, make the setup decisions (option buttons, ticket
   boxes with Space, "keep" with Enter), then claim a route through the claim list (arrow keys) and a payment
   button (Enter) — the Card Game: a rail-yard play from its move list — without the mouse. After every step
   the focus is still inside the view, and the focused control has a 3:1 focus ring.
2. **axe-core** (WCAG 2.1 A/AA + best practice) over each view: no violation in ttr_nb's output.
3. **Contrast** from the computed styles of every visible text in each view (axe's own contrast rule does not
   run inside JupyterLab): 4.5:1 (3:1 for large text).
4. The toolbar of every figure has no cloud-upload / Chart Studio button and no tab stop; every figure has a role,
   a name and a description.
5. USA: the map explorer's board is described by what it marks (the cheapest paths, city by city) and follows a new
   search. The Card Game: its ticket map, shown as a plain figure (05_card_game's way), is followed by its text
   version — JupyterLab's sanitizer keeps the ``details``, its summary and a row per ticket — with no axe violation.

USA also saves, for the record, the board under simulated deuteranopia (CDP) and the text a screen reader gets
for the view (``aria_snapshot``) into tests/browser/artifacts/.
"""
from __future__ import annotations

import json

import pytest

from a11yhelpers import (axe_violations, contrast_problems, focus_ring, tab_to, wait_focus_inside)
from labhelpers import ARTIFACTS, WAIT_S, kernel_eval, kernel_json, open_and_run_all, settle, wait_until
from viewhelpers import wait_kernel, write_notebook

GAMES = {           # variant: (players, seed): seeds where Blue can pay for a route on its first turn
    "usa": (2, 1), "europe": (2, 1), "maerklin": (2, 1), "south_korea": (2, 1), "cardgame": (2, 1),
}
VIEWS = ("t-play", "t-history", "t-table", "t-editor")
EXTRA = {          # a figure that had only its title for a name (issue 21): described now
    "usa": "from ttr_nb.widgets import MapExplorer\n"
           "explorer = MapExplorer('usa', a='Seattle', b='Miami', k=2)\nexplorer.show_paths()\n"
           "explorer.widget.add_class('t-explorer')\nexplorer",
    "cardgame": "import ttr_nb.teaching as ttr\nttr.ticket_map_figure().show()",
}


def _cells(variant: str, players: int, seed: int) -> list[str]:
    return [
        "from IPython.display import display\n"
        "from ttr_nb import Game\n"
        "from ttr_nb.bots import make_bot\n"
        "from ttr_nb.widgets import PlayView, HistoryView, TableView, EditorView\n"
        f"view = PlayView(Game({variant!r}, players={players}, seed={seed}))\n"
        "view.widget.add_class('t-play')\n"
        "display(view.widget)",
        f"past = Game({variant!r}, players={players}, seed={seed + 10})\n"
        f"past.play_bots({{s: make_bot('greedy', seed=s) for s in range({players})}}, max_plies=24)\n"
        "hist = HistoryView(past, ply=12)\n"
        "hist.widget.add_class('t-history')\n"
        "display(hist.widget)",
        "table = TableView(past, seat=0)\n"
        "table.widget.add_class('t-table')\n"
        "display(table.widget)",
        "editor = EditorView(past.state)\n"
        "editor.widget.add_class('t-editor')\n"
        "display(editor.widget)",
        # how many offered tickets a choice keeps (every keep step carries min_keep)
        "def keep_count(v):\n"
        "    return v.game.state.pending_for(0).get('min_keep')",
    ] + ([EXTRA[variant]] if variant in EXTRA else [])


def _board_setup_state(page, nb):
    return kernel_json(page, nb, "dict(turn=view.turn_seat() == 0, choosing=0 in view.choosing_seats(), "
                                 "need=keep_count(view) if 0 in view.choosing_seats() else 0, "
                                 "options=len(view.step_options), plies=len(view.game.history))")


def _card_setup_state(page, nb):
    return kernel_json(page, nb, "dict(turn=view.acting_seat() == 0 and not view._ticket_checks, "
                                 "choosing=bool(view._ticket_checks), need=keep_count(view) if view._ticket_checks "
                                 "else 0, options=0, plies=len(view.game.history))")


def _check_ring(page, what: str) -> None:
    ring = focus_ring(page)
    assert "error" not in ring, (what, ring)
    assert ring["style"] != "none" and ring["width"] >= 2 and ring["ratio"] >= 3.0, (what, ring)


def _keyboard_setup(page, nb: str, card: bool) -> int:
    """Blue's setup decisions by keyboard; returns the Tab presses used."""
    presses = 0
    state_of = _card_setup_state if card else _board_setup_state
    for _step in range(14):
        st = state_of(page, nb)
        if st["turn"]:
            return presses
        if st["choosing"]:
            presses += tab_to(page, ".t-play .ttr-tickets input[type=checkbox]")
            _check_ring(page, "a ticket box")
            for k in range(st["need"]):
                page.keyboard.press("Space")
                if k < st["need"] - 1:
                    page.keyboard.press("Tab")
                    presses += 1
            wait_kernel(page, nb, f"len([b for b in (view._ticket_checks.values() if hasattr(view, '_ticket_checks') "
                                  f"else view._ticket_panels[0]['boxes'].values()) if b.value]) == {st['need']}",
                        "the ticked boxes reached the kernel")
            presses += tab_to(page, ".t-play .ttr-tickets button")
            page.keyboard.press("Enter")
        else:
            assert st["options"], st
            presses += tab_to(page, ".t-play .ttr-options button")
            page.keyboard.press("Enter")
        wait_kernel(page, nb, f"len(view.game.history) > {st['plies']}", "the keyboard's setup step reached the game")
        wait_focus_inside(page, ".t-play", "after a setup step")
    raise AssertionError("Blue's setup did not end")


def _keyboard_claim(page, nb: str) -> str:
    """Claim a route (not a tunnel: no pending step) through the claim list and a payment button."""
    entries = kernel_json(page, nb, "view.chooser.entries")
    k = next(i for i, (words, tok) in enumerate(entries) if tok.startswith("route:") and "tunnel" not in words)
    route = entries[k][1].split(":", 1)[1]
    tab_to(page, ".t-play .ttr-chooser select")
    _check_ring(page, "the claim list")
    for _ in range(k + 1):
        page.keyboard.press("ArrowDown")
    wait_kernel(page, nb, f"view.selected_route == {route!r} and len(view.payments) > 0", "the list chose the route")
    tab_to(page, ".t-play .ttr-payments button")
    _check_ring(page, "a payment button")
    page.keyboard.press("Enter")
    wait_kernel(page, nb, f"__import__('ttr_nb.board.engine', fromlist=['x']).board_marks(view.game.state)['owners']"
                          f".get({route!r}) == 0", "the keyboard's claim reached the game")
    wait_focus_inside(page, ".t-play", "after the claim")
    # a step the claim opens (Märklin: place a passenger) is answered by keyboard too
    for _ in range(4):
        if not kernel_eval(page, nb, "bool(view.step_options) and view.game.state.pending_for(0) is not None"):
            break
        n = kernel_eval(page, nb, "len(view.game.history)")
        tab_to(page, ".t-play .ttr-options button")
        page.keyboard.press("Enter")
        wait_kernel(page, nb, f"len(view.game.history) > {n}", "the step after the claim")
        wait_focus_inside(page, ".t-play", "after the step after the claim")
    return route


def _keyboard_card_play(page, nb: str) -> str:
    n = kernel_eval(page, nb, "len(view.more_options.select.options)")
    assert n > 0
    tab_to(page, ".t-play .ttr-optionlist select")
    _check_ring(page, "the move list")
    page.keyboard.press("ArrowDown")
    wait_kernel(page, nb, "view.more_options.select.value is not None", "the list chose a move")
    words = kernel_eval(page, nb, "view.more_options.select.label")
    tab_to(page, ".t-play .ttr-optionlist button")
    page.keyboard.press("Enter")
    wait_kernel(page, nb, "any(p['yard'] for p in [view.game.rules.observe(view.game.state, 0)['players'][0]])",
                "the keyboard's rail-yard play reached the game")
    wait_focus_inside(page, ".t-play", "after the rail-yard play")
    return words


def _tab_stops(page, selector: str) -> int:
    return page.evaluate("""(sel) => [...document.querySelector(sel).querySelectorAll(
        'button, select, input, textarea, summary, a[href], [tabindex]')].filter((n) => !n.disabled
        && n.getAttribute('tabindex') !== '-1' && n.getClientRects().length).length""", selector)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(GAMES))
def test_keyboard_turn_axe_and_contrast(lab_server, page, console, variant):
    players, seed = GAMES[variant]
    nb = f"t_a11y_{variant}.ipynb"
    write_notebook(lab_server.root_dir / nb, _cells(variant, players, seed))
    open_and_run_all(page, lab_server.url, nb)
    for cls in reversed(VIEWS):                         # each view drawn (a view off-screen may wait for a size)
        view = page.locator(f".{cls}")
        view.wait_for(state="attached", timeout=WAIT_S * 1000)
        view.scroll_into_view_if_needed()
        view.locator(".ttr-figure[data-ttr-drawn]").first.wait_for(state="attached", timeout=WAIT_S * 2000)
    page.locator(".t-play").scroll_into_view_if_needed()
    card = variant == "cardgame"

    # 1. keyboard only: into the view, the setup, a claim
    page.keyboard.press("Escape")                        # the notebook in command mode
    tab_to(page, ".t-play button, .t-play input, .t-play select", limit=80)
    _keyboard_setup(page, nb, card)
    done = _keyboard_card_play(page, nb) if card else _keyboard_claim(page, nb)
    assert done
    stops = _tab_stops(page, ".t-play")
    assert stops <= 30, f"{stops} tab stops in the {variant} play view"

    # 2.-4. every view: axe, contrast, figures
    for cls in VIEWS:
        sel = f".{cls}"
        page.locator(sel).scroll_into_view_if_needed()
        settle(page)
        violations = axe_violations(page, sel)
        assert violations == [], f"{variant} {cls}: " + json.dumps(violations, indent=1)[:3000]
        checked, bad = contrast_problems(page, sel)
        assert checked > 3 and bad == [], f"{variant} {cls}: {bad[:8]}"
        figs = page.evaluate("""(sel) => [...document.querySelectorAll(sel + ' .ttr-figure-plot')].map((b) => ({
            role: b.getAttribute('role'), name: b.getAttribute('aria-label'),
            desc: (document.getElementById(b.getAttribute('aria-describedby') || '') || {}).textContent || '',
            cloud: [...b.querySelectorAll('.modebar-btn')].filter((a) => /share|cloud|chart studio|edit in/i
                      .test((a.getAttribute('data-title') || '') + (a.getAttribute('data-val') || ''))).length,
            tabbable: [...b.querySelectorAll('a, button, [tabindex]')].filter((a) => a.getAttribute('tabindex') !== '-1').length}))""", sel)
        assert figs, f"{variant} {cls}: no figure"
        for f in figs:
            assert f["role"] == "figure" and f["name"] and f["cloud"] == 0 and f["tabbable"] == 0, (cls, f)
        boards = [f for f in figs if "board" in f["name"] or "table" in f["name"]]
        assert boards and all(len(f["desc"]) > 40 for f in boards), (cls, figs)
    # the live region said what happened, in words the player may read
    spoken = kernel_json(page, nb, "view.access.spoken")
    live = page.evaluate("() => document.querySelector('.t-play .ttr-live').textContent")
    assert spoken and spoken[-1] in live or any(s in live for s in spoken[-3:]), (spoken[-3:], live)

    if variant == "usa":
        _explorer_described(page, nb)
        _record_for_the_lead(page)
    if variant == "cardgame":
        _ticket_map_described(page, nb)
    console.assert_clean(f"{variant} accessibility")


_JS_DESC = """(sel) => { const b = document.querySelector(sel + ' .ttr-figure-plot');
  const d = document.getElementById(b.getAttribute('aria-describedby') || '');
  return {role: b.getAttribute('role'), name: b.getAttribute('aria-label'), desc: d ? d.textContent : ''}; }"""


def _explorer_described(page, nb: str) -> None:
    view = page.locator(".t-explorer")
    view.scroll_into_view_if_needed()
    view.locator(".ttr-figure[data-ttr-drawn]").first.wait_for(state="attached", timeout=WAIT_S * 1000)
    paths = kernel_json(page, nb, "[' – '.join(p.cities) for p in explorer.paths]")
    got = page.evaluate(_JS_DESC, ".t-explorer")
    assert got["role"] == "figure" and got["name"] == "Ticket to Ride (USA) map", got
    assert "The 2 cheapest paths from Seattle to Miami are marked" in got["desc"]
    assert all(p in got["desc"] for p in paths), (paths, got)
    kernel_json(page, nb, "len(explorer.show_paths('Boston', 'Denver', 1))")
    wait_until(lambda: "path from Boston to Denver is marked" in page.evaluate(_JS_DESC, ".t-explorer")["desc"],
               "the explorer's description follows the new path", page=page)
    assert axe_violations(page, ".t-explorer") == []


def _ticket_map_described(page, nb: str) -> None:
    text = page.locator(".jp-RenderedHTMLCommon details.ttr-figure-text").first     # a static output's
    text.wait_for(state="attached", timeout=WAIT_S * 1000)
    text.scroll_into_view_if_needed()
    shown = page.evaluate("""() => {
        const d = document.querySelector('.jp-RenderedHTMLCommon details.ttr-figure-text');
        d.open = true; const out = d.closest('.jp-OutputArea-child'); out.classList.add('t-ticketmap-text');
        return {summary: d.querySelector('summary').textContent, desc: d.querySelector('p').textContent,
                rows: d.querySelectorAll('tbody tr').length,
                head: [...d.querySelectorAll('th')].map((t) => t.textContent),
                after: !!out.previousElementSibling.querySelector('.js-plotly-plot')}; }""")
    n_tickets = kernel_json(page, nb, "len(__import__('ttr_nb.cardgame.data', fromlist=['x']).load_cards().tickets)")
    assert shown["summary"] == "Text version: the tickets in words" and shown["after"], shown
    assert shown["rows"] == n_tickets and shown["head"] == ["ticket", "points", "cards needed"], shown
    assert shown["desc"].startswith(f"{n_tickets} tickets on a map of the USA"), shown
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "a11y-cardgame-ticketmap-text.png"))
    assert axe_violations(page, ".t-ticketmap-text") == []


def _record_for_the_lead(page) -> None:
    """A board under simulated deuteranopia and the accessibility tree of the play view (the issue's note)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    view = page.locator(".t-play")
    view.scroll_into_view_if_needed()
    page.evaluate("() => { for (const d of document.querySelectorAll('.t-play details.ttr-figure-text')) d.open = true; }")
    settle(page)
    (ARTIFACTS / "a11y-usa-playview-aria.txt").write_text(view.aria_snapshot() + "\n", encoding="utf-8")
    page.evaluate("() => { for (const d of document.querySelectorAll('.t-play details.ttr-figure-text')) d.open = false; }")
    board = view.locator(".ttr-board").first
    board.scroll_into_view_if_needed()
    settle(page)
    cdp = page.context.new_cdp_session(page)
    try:
        for kind in ("deuteranopia", "protanopia", "tritanopia", "none"):
            cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": kind})
            settle(page)
            if kind != "none":
                board.screenshot(path=str(ARTIFACTS / f"a11y-usa-board-{kind}.png"))
    finally:
        cdp.detach()
