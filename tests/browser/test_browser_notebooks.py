"""Every notebook in notebooks/, in a real JupyterLab + Chromium: its figures draw, and keep drawing.

For each notebook (a temp copy, see conftest.py):

1. Run All; then every plotly figure on the page (``.js-plotly-plot``) is compared with what the kernel holds, trace
   by trace (``labhelpers.check_figures``): a static output with its plotly JSON, a widget figure with the kernel
   object behind its widget model. Boards must carry every route of their map and every layer
   ``ttr_nb.render.board_figure`` draws. No console error or warning (``labhelpers.ALLOWED_CONSOLE`` lists the few
   that come from JupyterLab itself).
2. Screenshots at 1440×900 and 1024×768 go to tests/browser/artifacts/.
3. Reload the page (the notebook reopens on its running kernel): the same comparison.
4. Close the notebook's tab and open it again (kernel still running): the same comparison.

A second test runs a notebook while its tab is hidden behind a Launcher, so every view is built hidden; when the
tab comes back, every figure must draw.
"""
from __future__ import annotations

import json
import shutil

import pytest

from labhelpers import (REPO, activate_notebook, check_figures, come_back, hide_notebook, open_notebook,
                        play_animations, reload_page, reopen_notebook, run_all, screenshots_of_notebook, start_run_all,
                        wait_run_all)

NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
RUN_TIMEOUT_S = 420


def _min_figures(name: str) -> int:
    """At least as many figures as the committed notebook shows: its plotly outputs, plus one for its widget
    outputs (a widget view holds one or more figures; their number is checked against the kernel)."""
    nb = json.loads((REPO / "notebooks" / name).read_text())
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    plots = sum(1 for o in outputs if "application/vnd.plotly.v1+json" in o.get("data", {}))
    widgets = any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    return plots + (1 if widgets else 0)


def _animations(name: str) -> int:
    """How many animated figures (plotly frames) the committed notebook shows."""
    nb = json.loads((REPO / "notebooks" / name).read_text())
    return sum(1 for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])
               if len(o.get("data", {}).get("application/vnd.plotly.v1+json", {}).get("frames", [])) > 1)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_figure_draws_after_run_all_reload_and_reopen(lab_server, page, console, name):
    least = _min_figures(name)
    open_notebook(page, lab_server.url, name, RUN_TIMEOUT_S)
    run_all(page, name, RUN_TIMEOUT_S)
    first = check_figures(page, name, min_figures=least, what="after Run All")
    console.assert_clean(f"in {name} after Run All")

    screenshots_of_notebook(page, name, f"notebook-{name.removesuffix('.ipynb')}")

    # an animation (a Märklin journey) plays to its last frame when its play button is pressed
    played = play_animations(page, name)
    assert played >= _animations(name), f"{name}: {played} animations played, the notebook has {_animations(name)}"
    console.assert_clean(f"in {name} after playing its animations")

    # after a reload or reopen the figures come back one by one: wait for as many as Run All drew, not fewer
    again = come_back(page, console, name, reload_page, min_figures=first.checked, what="after a page reload")
    assert again.checked >= first.checked, (first, again)
    console.assert_clean(f"in {name} after a page reload")

    reopened = come_back(page, console, name, reopen_notebook, min_figures=first.checked,
                         what="after reopening it with its kernel running")
    assert reopened.checked >= first.checked, (first, reopened)
    console.assert_clean(f"in {name} after reopening it")


HIDDEN_RUN = ["classroom.ipynb", "01_usa.ipynb"]


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in HIDDEN_RUN if n in NOTEBOOKS])
def test_views_built_in_a_hidden_tab_draw_when_shown(lab_server, page, console, name):
    copy = f"hidden-{name}"
    # the committed notebook, not the server's copy: an earlier test's Run All may have saved that one with widget
    # views of its own kernel, which this new kernel does not have ("widget model not found")
    shutil.copy(REPO / "notebooks" / name, lab_server.root_dir / copy)
    open_notebook(page, lab_server.url, copy, RUN_TIMEOUT_S)
    start_run_all(page, copy)
    hide_notebook(page)                    # every output, widget views included, is built while hidden
    wait_run_all(page, copy, RUN_TIMEOUT_S)
    hidden = page.evaluate("() => { const n = document.querySelector('.jp-NotebookPanel'); "
                           "return !!n && !n.checkVisibility(); }")
    assert hidden, "the notebook's tab was visible while it ran"
    activate_notebook(page, copy)
    check_figures(page, copy, min_figures=_min_figures(name), what="built in a hidden tab")
    console.assert_clean(f"in {copy}, run while hidden")
