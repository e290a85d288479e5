"""Our anywidgets under load, kernel side (ttr_nb.widgets.resilient): the "hold" each model gets when it is made,
the answer to a view's hello, and a lost model replaced by a fresh one in its view — the live region (``Access``)
as well as the figures. The browser side (a model that anywidget gave up on, no console error) is
tests/browser/test_a11y_load.py.
"""
from __future__ import annotations

import ipywidgets as widgets
import plotly.graph_objects as go
import pytest

from ttr_nb import Game
from ttr_nb.bots import make_bot
from ttr_nb.widgets import HistoryView, PlayView
from ttr_nb.widgets.access import Access
from ttr_nb.widgets.plotfig import PlotlyRuntime, figure_view
from ttr_nb.widgets.resilient import Held


@pytest.fixture
def sent(monkeypatch):
    """Every custom message our anywidgets send, as (widget, content), in order."""
    out: list = []

    def send(self, content, buffers=None):
        out.append((self, content))
    monkeypatch.setattr(Held, "send", send)
    return out


@pytest.mark.parametrize("make", [Access, lambda: figure_view(go.Figure()), PlotlyRuntime],
                         ids=["access", "figure", "runtime"])
def test_every_model_gets_one_hold_first_with_its_own_key(sent, make):
    a, b = make(), make()
    for w in (a, b):
        mine = [c for x, c in sent if x is w]
        assert mine == [{"type": "hold"}]
    assert a._hold_key and b._hold_key and a._hold_key != b._hold_key


def test_access_answers_hello_and_ignores_nonsense(sent):
    access = Access()
    sent.clear()
    access._on_msg(access, {"type": "hello"}, [])
    access._on_msg(access, "not a dict", [])
    access._on_msg(access, {"type": "what"}, [])
    assert [c for _, c in sent] == [{"type": "ack"}]
    assert access.replaced_by is None


def test_a_lost_access_is_replaced_and_the_old_object_speaks_through_the_fresh_one(sent):
    labels = [(".x button", "Play"), (".x input", "Move")]
    access = Access(labels=labels, focus_order=[".a", ".b"])
    box = widgets.VBox([widgets.Button(description="x"), access])
    access.say("Blue's turn")
    access.status("Red is thinking")
    access._on_msg(access, {"type": "stale"}, [])
    fresh = access.replaced_by
    assert fresh is not None and access.current() is fresh and box.children[1] is fresh and access.comm is None
    assert fresh.labels == [list(x) for x in labels] and fresh.focus_order == [".a", ".b"]
    assert fresh._hold_key != access._hold_key
    sent.clear()
    access.say("Not allowed: you have no cards")          # a view keeps its first object: it still reaches the page
    access.status("Red is thinking")                        # said already: not again
    access.status("Your turn")
    assert [(w, c["text"]) for w, c in sent] == [(fresh, "Not allowed: you have no cards"), (fresh, "Your turn")]
    assert access.spoken is fresh.spoken and access.spoken[-3:] == ["Red is thinking", "Not allowed: you have no cards",
                                                                     "Your turn"]
    assert access.replace() is None and fresh.replaced_by is None   # a second "stale" of the old model: nothing
    assert Access().replace() is None                                 # shown by no box: nothing to swap


def test_a_play_view_goes_on_announcing_after_its_live_region_was_replaced(sent):
    view = PlayView(Game("usa", players=2, seed=1))
    first = view.access
    first._on_msg(first, {"type": "stale"}, [])
    fresh = first.replaced_by
    assert fresh is not None and fresh in view.widget.children and first not in view.widget.children
    sent.clear()
    assert view.draw_deck() is None                         # Blue still chooses tickets: refused, and said so
    view.keep_tickets(0, view.offered(0)[:2])               # then Blue's turn (the bot keeps its own)
    said = [c["text"] for w, c in sent if c["type"] == "say"]
    assert {w for w, c in sent if c["type"] == "say"} == {fresh}
    assert said[0].startswith("Not allowed: ") and len(said) >= 2, said
    assert said == view.access.spoken[-len(said):]


def test_a_history_view_goes_on_announcing_after_its_live_region_was_replaced(sent):
    game = Game("usa", players=2, seed=3)
    game.play_bots({s: make_bot("greedy", seed=s) for s in range(2)}, max_plies=12)
    hist = HistoryView(game, ply=4)
    first = hist.access
    first._on_msg(first, {"type": "stale"}, [])
    sent.clear()
    hist.show(8)
    said = [(w, c["text"]) for w, c in sent if c["type"] == "say"]
    assert said and all(w is first.replaced_by for w, _ in said) and "8" in said[-1][1], said
