"""Proves the real-browser harness: JupyterLab + widgets + plotly FigureWidget in Chromium.

A tiny notebook (not a committed one) is written into the server's temp root, run in the page, and
checked through the DOM: the plot drew, and a click on a widget button reached the kernel, whose
callback changed a Label.
"""
from __future__ import annotations

import nbformat
import pytest

from labhelpers import open_and_run_all, save_screenshot

NOTEBOOK = "browser_smoke.ipynb"

WIDGET_CELL = """\
import ipywidgets as widgets

clicks = {"n": 0}
label = widgets.Label(value="clicks: 0")
button = widgets.Button(description="Click me")

def on_click(_button):
    clicks["n"] += 1
    label.value = f"clicks: {clicks['n']}"

button.on_click(on_click)
widgets.HBox([button, label])
"""

PLOT_CELL = """\
import plotly.graph_objects as go

fig = go.FigureWidget(data=[go.Scatter(x=[0, 1, 2, 3], y=[1, 3, 2, 4], mode="lines+markers", name="smoke")])
fig.update_layout(width=600, height=400, title="browser smoke")
fig
"""


def _write_notebook(path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Browser smoke test"),
        nbformat.v4.new_code_cell(WIDGET_CELL),
        nbformat.v4.new_code_cell(PLOT_CELL),
    ]
    nbformat.write(nb, str(path))


@pytest.mark.browser
@pytest.mark.slow
def test_widgets_and_plotly_work_in_jupyterlab(lab_server, page):
    from playwright.sync_api import expect

    _write_notebook(lab_server.root_dir / NOTEBOOK)
    cells = open_and_run_all(page, lab_server.url, NOTEBOOK, timeout_s=120)
    assert [c["executionCount"] for c in cells if c["type"] == "code"] == [1, 2]

    # The FigureWidget rendered through anywidget + plotly.js, with our trace in it.
    plot = page.locator(".js-plotly-plot .main-svg").first
    plot.wait_for(state="visible", timeout=60_000)
    traces = page.evaluate(
        "() => Array.from(document.querySelectorAll('.js-plotly-plot'), gd => (gd.data || []).map(t => t.name))")
    assert ["smoke"] in traces, traces

    # A click in the page goes to the kernel, whose callback changes the Label.
    label = page.locator(".widget-label", has_text="clicks:")
    expect(label).to_have_text("clicks: 0", timeout=30_000)
    page.locator(".widget-button", has_text="Click me").click()
    expect(label).to_have_text("clicks: 1", timeout=30_000)
    page.locator(".widget-button", has_text="Click me").click()
    expect(label).to_have_text("clicks: 2", timeout=30_000)

    shot = save_screenshot(page, "browser_smoke", locator=plot)
    assert shot.stat().st_size > 10_000
