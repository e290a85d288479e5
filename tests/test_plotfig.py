"""The figure widget (ttr_nb.widgets.plotfig), kernel side: what it sends to the browser and how it answers.

The browser side (drawing, merging patches, asking for a fresh model) is exercised by tests/browser.
"""
from __future__ import annotations

import ipywidgets as widgets
import plotly.graph_objects as go
import pytest

from ttr_nb import load_map
from ttr_nb.render import board_figure, update_board
from ttr_nb.widgets.plotfig import FigureView, LiveFigure, figure_view, plotly_runtime


@pytest.fixture
def sent(monkeypatch):
    """Every custom message the figure views send, as (view, content), but the "hold" each sends when it is made
    (tests/test_resilient.py checks that one)."""
    out: list = []

    def send(self, content, buffers=None):
        if content.get("type") != "hold":
            out.append((self, content))
    monkeypatch.setattr(FigureView, "send", send)
    return out


def test_the_runtime_carries_the_installed_plotly_js_once():
    rt = plotly_runtime()
    assert plotly_runtime() is rt                                    # one per kernel
    assert rt.source.startswith(b"/**") and b"plotly.js v" in rt.source[:200]
    assert rt.js_version and rt.js_version[0].isdigit()
    a, b = figure_view(go.Figure()), figure_view(go.Figure())
    assert a.runtime is rt and b.runtime is rt and a.js_version == rt.js_version


def test_changes_become_patches_with_increasing_revisions(sent):
    usa = load_map("usa")
    view = figure_view(board_figure(usa))
    fig = view.figure
    assert isinstance(fig, LiveFigure) and fig._ttr_view() is view
    update_board(fig, usa)                                            # nothing changed: nothing sent
    assert sent == []
    update_board(fig, usa, owners={"R001": 0})
    update_board(fig, usa, owners={"R001": 0, "R002": 1})
    revs = [c["rev"] for _, c in sent]
    assert [c["type"] for _, c in sent] == ["patch", "patch"] and revs == [1, 2]
    (op,) = sent[0][1]["ops"]
    metas = {fig.data[i].meta for i, _ in op["traces"]}
    assert {"seat:0", "claimed-outline", "routes"} <= metas and "cities" not in metas
    fig.layout.title.text = "new title"                               # a plain plotly assignment is a patch too
    assert sent[-1][1]["ops"][0]["relayout"] == {"title.text": "new title"}


def test_the_state_the_browser_asks_for_is_the_figure_as_it_is_now(sent):
    usa = load_map("usa")
    view = figure_view(board_figure(usa))
    first = view.get_state()
    assert first["_rev"] == 0
    update_board(view.figure, usa, owners={"R001": 0})
    now = view.get_state()                                            # a page reload asks for this
    assert now["_rev"] == 1
    seat0 = next(t for t in now["_figure"]["data"] if t.get("meta") == "seat:0")
    assert "R001" in seat0["customdata"]
    assert view.get_state("config").keys() == {"config"}            # a single trait: no figure attached


def test_hello_is_answered_and_a_late_view_gets_the_whole_figure(sent):
    usa = load_map("usa")
    view = figure_view(board_figure(usa))
    view._on_msg(view, {"type": "hello", "rev": 0}, [])
    assert [c["type"] for _, c in sent] == ["ack"]                    # up to date: only the answer
    update_board(view.figure, usa, owners={"R001": 0})
    sent.clear()
    view._on_msg(view, {"type": "hello", "rev": 0}, [])              # drawn before the patch came
    assert [c["type"] for _, c in sent] == ["ack", "figure"] and sent[1][1]["rev"] == 1


def test_hello_is_answered_through_the_runtime_too(monkeypatch, sent):
    """The kernel answers a view's hello twice: to the view's model, and through the page's one runtime with the
    model's token — a view that hears the runtime but not its own answer knows for sure that anywidget stopped
    delivering to its model (and asks for a fresh one); a slow answer alone is no such proof."""
    from ttr_nb.widgets.plotfig import PlotlyRuntime
    heard: list = []
    monkeypatch.setattr(PlotlyRuntime, "send", lambda self, content, buffers=None: heard.append(content))
    a, b = figure_view(go.Figure()), figure_view(go.Figure())
    assert a._token and b._token and a._token != b._token           # each model its own name
    a._on_msg(a, {"type": "hello", "rev": 0}, [])
    assert [c["type"] for _, c in sent] == ["ack"] and heard == [{"type": "acked", "token": a._token}]
    assert a.hello_timeout_ms >= 20_000                               # the time bound is only a last resort


def test_sync_stores_the_current_figure_for_views_created_later(sent):
    """A model first displayed after changes (a view built in advance): ``sync`` puts the current figure and
    revision into the model's state, so the new view draws it at once and its hello needs no resend."""
    usa = load_map("usa")
    view = figure_view(board_figure(usa))
    view.sync()
    assert view._rev == 0                                             # nothing changed: nothing to store
    update_board(view.figure, usa, owners={"R001": 0, "R002": 1})
    assert view._rev == 0
    view.sync()
    assert view._rev == 1 and view._figure == view.get_state()["_figure"]
    seat0 = next(t for t in view._figure["data"] if t.get("meta") == "seat:0")
    assert "R001" in seat0["customdata"]
    sent.clear()
    view._on_msg(view, {"type": "hello", "rev": view._rev}, [])
    assert [c["type"] for _, c in sent] == ["ack"]


def test_a_model_that_stopped_answering_is_replaced_in_its_boxes():
    usa = load_map("usa")
    view = figure_view(board_figure(usa), aspect=0.5)
    box = widgets.VBox([widgets.HTML("above"), view])
    view._on_msg(view, {"type": "stale", "rev": 0}, [])
    fresh = view.replaced_by
    assert fresh is not None and box.children[1] is fresh and view.comm is None
    assert fresh.figure is view.figure and fresh.aspect == 0.5 and view.current() is fresh
    assert view.figure._ttr_view() is fresh                           # later changes go to the fresh model
    lonely = figure_view(board_figure(usa))
    assert lonely.replace() is None and lonely.replaced_by is None    # shown by no box: nothing to swap


def test_clicks_reach_the_trace_callbacks_and_bad_points_are_ignored():
    fig = go.Figure([go.Scatter(x=[0, 1, 2], y=[0, 1, 2], customdata=["a", "b", "c"])])
    view = figure_view(fig)
    got = []
    view.figure.data[0].on_click(lambda trace, points, state: got.append(list(points.point_inds)))
    view._on_msg(view, {"type": "click", "points": [{"trace": 0, "index": 2}]}, [])
    view._on_msg(view, {"type": "click", "points": [{"trace": 7, "index": 0}, {"nonsense": 1}]}, [])
    view._on_msg(view, "not a dict", [])
    assert got == [[2]]
