"""Screen-reader text of the figures that had only a title (issue 21): the Card Game's ticket map shown as a plain
figure (05_card_game's way) and the map explorer's marked paths, in a real JupyterLab.

* The ticket map is followed by its collapsed text version — JupyterLab keeps the ``details`` element, its summary
  and the table (its sanitizer could have dropped them) — with a row per ticket; axe finds nothing in it.
* The explorer's board is a figure named after its map, whose description (``aria-describedby``) says the cheapest
  paths city by city, and changes when other paths are marked.

Screenshot: tests/browser/artifacts/a11y-text-ticketmap.png (the text version opened).
"""
from __future__ import annotations

import pytest

from a11yhelpers import axe_violations
from labhelpers import ARTIFACTS, WAIT_S, kernel_json, open_and_run_all, settle, wait_until

CELLS = [
    "import ttr_nb.teaching as ttr\nttr.ticket_map_figure().show()",
    "from ttr_nb.widgets import MapExplorer\n"
    "explorer = MapExplorer('usa', a='Seattle', b='Miami', k=2)\nexplorer.show_paths()\n"
    "explorer.widget.add_class('t-explorer')\nexplorer",
]

_JS_DESC = """(sel) => { const b = document.querySelector(sel + ' .ttr-figure-plot');
  const d = document.getElementById(b.getAttribute('aria-describedby') || '');
  return {role: b.getAttribute('role'), name: b.getAttribute('aria-label'), desc: d ? d.textContent : ''}; }"""


@pytest.mark.browser
@pytest.mark.slow
def test_ticket_map_and_explorer_paths_are_described(lab_server, page, console):
    from viewhelpers import write_notebook
    nb = "t_a11y_text.ipynb"
    write_notebook(lab_server.root_dir / nb, CELLS)
    open_and_run_all(page, lab_server.url, nb)
    text = page.locator("details.ttr-figure-text").first
    text.wait_for(state="attached", timeout=WAIT_S * 1000)
    text.scroll_into_view_if_needed()
    shown = page.evaluate("""() => { const d = document.querySelector('details.ttr-figure-text');
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
    page.screenshot(path=str(ARTIFACTS / "a11y-text-ticketmap.png"))
    assert axe_violations(page, ".t-ticketmap-text") == []

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
    console.assert_clean("ticket map and explorer")
