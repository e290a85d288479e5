"""The figure class the renderers return: a ``go.Figure`` that shows itself in Jupyter without loading plotly's
renderer machinery.

Why: plotly decides how to show a figure in ``plotly.io._renderers``, and importing that module imports nbformat,
which imports jsonschema, whose format checker builds an RFC 3987 grammar (``rfc3987_syntax``) at import time —
1.5–7 s in a fresh kernel, paid by the first board of every notebook. What JupyterLab (and JupyterLite, VS Code)
draws is just the plotly mimetype bundle, which needs none of that. So, while the user has not touched
``plotly.io.renderers`` (the module is not loaded yet), :class:`Figure` hands Jupyter that bundle itself; once it
is loaded (the user chose a renderer, or something else imported it), plotly's own path decides, as usual.
Everything else is plain ``go.Figure``.

A figure may carry what a screen reader gets for it (``describe_figure``: a name, a description in words and a
table, as ``render.describe`` makes them): shown this way, a collapsed "text version" follows the figure, and a
``FigureView`` of it takes them as its accessible name and description.
"""
from __future__ import annotations

import html
import json
import sys

import plotly.graph_objects as go

MIMETYPE = "application/vnd.plotly.v1+json"
_RENDERERS = "plotly.io._renderers"


def _own_display() -> bool:
    """True when we show the figure ourselves: inside a Jupyter kernel, plotly's renderers not loaded."""
    if _RENDERERS in sys.modules or "ipykernel" not in sys.modules:
        return False
    ipython = sys.modules.get("IPython")
    return ipython is not None and getattr(ipython, "get_ipython", lambda: None)() is not None


def mime_bundle(fig: go.Figure) -> dict:
    """The Jupyter display bundle of ``fig``: the plotly mimetype (what plotly's ``plotly_mimetype`` renderer
    sends) and a one-line text for front ends that cannot draw it."""
    from plotly.io._json import to_json
    data = json.loads(to_json(fig.to_dict(), validate=False, remove_uids=False))
    title = fig.layout.title.text if fig.layout.title and fig.layout.title.text else "a plotly figure"
    return {MIMETYPE: data, "text/plain": f"<figure: {title}>"}


def describe_figure(fig: go.Figure, name: str, description: str, table: dict | None = None) -> go.Figure:
    """Attach a screen reader's text to ``fig`` (kept with the object, not in the plotly JSON); returns ``fig``."""
    object.__setattr__(fig, "_ttr_text", (str(name), str(description), dict(table or {})))
    return fig


def figure_text(fig: go.Figure) -> tuple[str, str, dict] | None:
    """``(name, description, table)`` attached by ``describe_figure``, or None."""
    return fig.__dict__.get("_ttr_text")


def text_version_bundle(name: str, description: str, table: dict) -> dict:
    """A collapsed "text version" of a figure, as a display bundle: HTML (a ``details`` element with the
    description and the table) and plain text (the name and the description)."""
    esc = html.escape
    left = "style='text-align:left'"               # words read from the left (JupyterLab aligns cells right)
    rows = table.get("rows") or []
    parts = ["<details class='ttr-figure-text'>",
             f"<summary>{esc(table.get('summary') or 'Text version')}</summary>", f"<p>{esc(description)}</p>"]
    if rows:
        parts.append("<table>" + (f"<caption>{esc(table['caption'])}</caption>" if table.get("caption") else ""))
        if table.get("head"):
            parts.append("<thead><tr>" + "".join(f"<th scope='col' {left}>{esc(str(h))}</th>" for h in table["head"])
                         + "</tr></thead>")
        parts.append("<tbody>" + "".join("<tr>" + "".join(f"<td {left}>{esc(str(v))}</td>" for v in r) + "</tr>"
                                         for r in rows) + "</tbody></table>")
    parts.append("</details>")
    return {"text/html": "".join(parts), "text/plain": f"{name}: {description}"}


class Figure(go.Figure):
    """A ``go.Figure`` whose display in a Jupyter kernel skips plotly's renderer imports (see the module text)."""

    def _ipython_display_(self):
        if not _own_display():
            return super()._ipython_display_()
        from IPython.display import display
        display(mime_bundle(self), raw=True)
        self._show_text()

    def _show_text(self) -> None:
        text = figure_text(self)
        if text is not None:
            from IPython.display import display
            display(text_version_bundle(*text), raw=True)

    def _repr_mimebundle_(self, include=None, exclude=None, validate=True, **kwargs):
        if not _own_display() or kwargs:
            return super()._repr_mimebundle_(include, exclude, validate, **kwargs)
        return mime_bundle(self)

    def show(self, *args, **kwargs):
        """As ``go.Figure.show``; with no arguments, in a Jupyter kernel, the figure is displayed directly."""
        if args or kwargs or not _own_display():
            return super().show(*args, **kwargs)
        from IPython.display import display
        display(mime_bundle(self), raw=True)
        self._show_text()
