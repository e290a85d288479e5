"""Run by the JupyterLite kernel as it starts (``PYTHONSTARTUP``, which the Pyodide kernel's IPython honours):
import what the notebooks draw with and build one board off-screen, so that the first board after "Run All" does
not pay for plotly's first-use imports, validators and JSON encoder (seconds in the browser, where every failed
optional import also asks the server for files). Nothing is displayed, nothing is left in the user's namespace.

plotly's default renderer is set to ``plotly_mimetype``: JupyterLite draws that with the jupyterlab-plotly
extension the site ships. plotly's default there (``plotly_mimetype+notebook``) would also send its whole
plotly.js (about 4.7 MB) into the notebook at the first ``fig.show()``, for the classic Notebook only.
"""
from __future__ import annotations


def warm() -> None:
    import nbformat  # noqa: F401  (plotly's fig.show() checks for it)
    import networkx  # noqa: F401  (Map.graph() and ttr_nb.analysis; seconds to import in the browser)
    import plotly.io

    import ttr_nb.widgets  # noqa: F401  (ipywidgets, anywidget, the board widget)
    from ttr_nb import Game
    from ttr_nb.teaching import board_of

    plotly.io.renderers.default = "plotly_mimetype"
    plotly.io.to_json(board_of(Game("usa", players=2, seed=0).state))
