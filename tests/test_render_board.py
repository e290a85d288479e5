"""Board rendering (ttr_nb.render.board), checked through ``fig.to_dict()`` — no browser needed."""
from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys

import plotly.graph_objects as go
import pytest
from plotly.basedatatypes import Undefined

from ttr_nb.errors import TTRError
from ttr_nb.board.maps import load_map
from ttr_nb.render import (CARD_SYMBOLS, OWNER_SYMBOLS, PLAYER_HEX, board_figure, board_png, project, route_hover,
                           trace_index, update_board)
from ttr_nb.render.board import CARD_HEX, USA_POINTS, as_figure_widget


def traces(fig) -> dict[str, dict]:
    """meta key -> trace dict."""
    return {t["meta"]: t for t in fig.to_dict()["data"]}


def structure(fig) -> list[tuple]:
    return [(t.meta, t.name, t.type) for t in fig.data]


def route_ids_in(trace: dict) -> list[str]:
    """Route ids of a trace in drawing order, each run of one route's points (its spaces) counted once."""
    out: list[str] = []
    for rid in trace["customdata"]:
        if rid is not None and (not out or out[-1] != rid):
            out.append(rid)
    return out


def pieces(trace: dict) -> int:
    """Number of None-separated polylines in a line trace."""
    xs = list(trace["x"])
    return 0 if not xs else 1 + xs.count(None)


def route_by_pair(m, a, b):
    (r,) = m.routes_between(a, b)
    return r


# --------------------------------------------------------------------------------------------------------------
def test_project_is_deterministic_and_covers_every_city(usa, europe):
    for m in (usa, europe):
        p1, p2 = project(m), project(m)
        assert p1 == p2
        assert set(p1) == {c.name for c in m.cities}
        assert len(set(p1.values())) == len(p1)            # no two cities on one spot
    plain = project(usa, board_like=False)
    assert plain["Seattle"][0] < plain["Boston"][0] and plain["Miami"][1] < plain["Seattle"][1]
    laid = project(usa)
    assert laid["Seattle"][0] < laid["Boston"][0] and laid["Miami"][1] < laid["Seattle"][1]


@pytest.mark.parametrize("key", ["usa", "europe"])
def test_one_clickable_marker_per_route(key):
    m = load_map(key)
    fig = board_figure(m)
    t = traces(fig)["routes"]
    assert [tr.name for tr in fig.data].count("routes") == 1
    assert list(t["customdata"]) == [r.id for r in m.routes]
    assert len(t["x"]) == len(t["y"]) == len(m.routes) == len(t["hovertext"])
    assert t["mode"] == "markers"
    # on top of everything that takes the pointer (the city names above it take no hover, so no click)
    hoverable = [tr.name for tr in fig.data if tr.hoverinfo != "skip"]
    assert hoverable[-1] == "routes" and fig.data[-1].meta == "city-names" and fig.data[-1].hoverinfo == "skip"
    assert list(t["marker"]["symbol"]) == [CARD_SYMBOLS[r.colour] for r in m.routes]


def test_axes_equal_aspect_and_plain_scatter(usa):
    fig = board_figure(usa)
    d = fig.to_dict()
    assert {tr["type"] for tr in d["data"]} == {"scatter"}
    assert d["layout"]["yaxis"]["scaleanchor"] == "x"
    assert d["layout"]["xaxis"]["visible"] is False and d["layout"]["yaxis"]["visible"] is False
    assert "geo" not in d["layout"]
    assert len(d["data"]) <= 34          # 30 + goods and passengers (Märklin; empty elsewhere) + space-marks + names


def test_hover_free_and_claimed(usa):
    r = route_by_pair(usa, "Denver", "Omaha")
    fig = board_figure(usa, owners={r.id: 1})
    t = traces(fig)["routes"]
    hover = dict(zip(t["customdata"], t["hovertext"]))
    assert hover[r.id].startswith("Denver–Omaha · 4 spaces · purple · 7 points · claimed by Red")
    free = route_by_pair(usa, "Calgary", "Winnipeg")
    assert hover[free.id].startswith("Calgary–Winnipeg · 6 spaces · white · 15 points · free")
    gray = route_by_pair(usa, "Atlanta", "Charleston")
    assert "gray (any one colour) · 2 points · free" in hover[gray.id]
    # route_hover directly, with a custom points table and player names
    text = route_hover(usa, r, "Ada", False, {4: 99})
    assert text.startswith("Denver–Omaha · 4 spaces · purple · 99 points · claimed by Ada")
    twin, other = usa.routes_between("Atlanta", "New Orleans")
    assert f"double route: the other one is {other.colour}" in route_hover(usa, twin, None, False, USA_POINTS)
    # no internal codes anywhere in a board's hovers (issue 17: "route id R005", "with orange R004", "(Ye)")
    import re
    codes = re.compile(r"\bR\d{3}\b|route id|\((?:Pu|Bu|Or|Wh|Gn|Ye|Bk|Rd|Gy)\b")
    for tr in fig.data:
        for h in (tr.hovertext if isinstance(tr.hovertext, (list, tuple)) else [tr.hovertext or ""]):
            assert not codes.search(str(h)), h


def test_closed_routes_fade_and_say_why(usa):
    a, b = usa.routes_between("Boston", "Montréal")
    fig = board_figure(usa, owners={a.id: 0}, closed={b.id})
    t = traces(fig)
    hover = dict(zip(t["routes"]["customdata"], t["routes"]["hovertext"]))
    assert "· closed" in hover[b.id] and "only one route of a double route" in hover[b.id]
    assert "claimed by Blue" in hover[a.id]
    assert route_ids_in(t["closed"]) == [b.id]
    assert t["closed"]["showlegend"] is True
    opacity = dict(zip(t["routes"]["customdata"], t["routes"]["marker"]["opacity"]))
    assert opacity[b.id] < 0.5 and opacity[a.id] == 1.0
    assert b.id not in route_ids_in(t["spaces:gray"])


def test_parallel_routes_are_offset(usa, europe):
    for m in (usa, europe):
        t = traces(board_figure(m))["routes"]
        mid = dict(zip(t["customdata"], zip(t["x"], t["y"])))
        groups = {}
        for r in m.routes:
            groups.setdefault(frozenset((r.a, r.b)), []).append(r.id)
        doubles = [ids for ids in groups.values() if len(ids) > 1]
        assert doubles
        for ids in doubles:
            points = {mid[i] for i in ids}
            assert len(points) == len(ids), ids


def test_spaces_are_drawn_one_piece_per_space(usa):
    t = traces(board_figure(usa))
    total = sum(pieces(t[f"spaces:{c}"]) for c in ("purple", "blue", "orange", "white", "green", "yellow", "black",
                                                     "red", "gray"))
    assert total == sum(r.length for r in usa.routes) == 309
    assert pieces(t["outlines"]) == 309
    gray = [r for r in usa.routes if r.colour == "gray"]
    assert pieces(t["spaces:gray"]) == sum(r.length for r in gray)
    assert set(route_ids_in(t["spaces:gray"])) == {r.id for r in gray}


def test_tunnel_and_ferry_on_europe(europe):
    fig = board_figure(europe)
    t = traces(fig)
    hover = dict(zip(t["routes"]["customdata"], t["routes"]["hovertext"]))
    tunnels = [r for r in europe.routes if r.tunnel]
    ferries = [r for r in europe.routes if r.ferry_locos]
    assert tunnels and ferries
    for r in tunnels:
        assert "tunnel:" in hover[r.id]
    for r in ferries:
        n = r.ferry_locos
        assert f"ferry: needs {n} locomotive{'s' if n > 1 else ''}" in hover[r.id]
    assert set(route_ids_in(t["tunnels"])) == {r.id for r in tunnels}
    assert t["tunnels"]["line"]["dash"] not in (None, "solid") and t["tunnels"]["showlegend"] is True
    assert len(t["ferries"]["x"]) == sum(r.ferry_locos for r in ferries)
    assert sorted(set(t["ferries"]["customdata"])) == sorted(r.id for r in ferries)
    # the USA has neither: the traces exist (same structure everywhere) but stay empty and out of the legend
    u = traces(board_figure(load_map("usa")))
    assert not u["tunnels"]["x"] and u["tunnels"]["showlegend"] is False and not u["ferries"]["x"]


def test_owners_recolour_the_right_routes(usa):
    owners = {"R035": 0, "R031": 0, "R019": 1, "R010": 3}
    fig = board_figure(usa, owners=owners)
    t = traces(fig)
    for seat in range(5):
        mine = [rid for rid, s in owners.items() if s == seat]
        assert sorted(set(route_ids_in(t[f"seat:{seat}"]))) == sorted(mine)
        assert pieces(t[f"seat:{seat}"]) == sum(usa.route(r).length for r in mine)
        assert t[f"seat:{seat}"]["line"]["color"] == PLAYER_HEX[("blue", "red", "green", "yellow", "black")[seat]]
        assert t[f"seat:{seat}"]["showlegend"] is (seat in owners.values())
    assert t["seat:3"]["name"] == "Yellow"
    assert sorted(set(route_ids_in(t["claimed-outline"]))) == sorted(owners)
    # the route's own colour stays under the trains: claimed routes keep their coloured spaces
    space_ids = {rid for key, tr in t.items() if key.startswith("spaces:") for rid in route_ids_in(tr)}
    assert set(owners) <= space_ids
    for rid in owners:
        assert rid in route_ids_in(t[f"spaces:{usa.route(rid).colour}"])
    # no train is drawn in a card colour: a claim never looks like a free route of that colour
    assert not {PLAYER_HEX[c] for c in ("blue", "red", "green", "yellow", "black")} & set(CARD_HEX.values())
    routes = t["routes"]
    sym = dict(zip(routes["customdata"], routes["marker"]["symbol"]))
    col = dict(zip(routes["customdata"], routes["marker"]["color"]))
    assert sym["R019"] == OWNER_SYMBOLS[1] and col["R019"] == PLAYER_HEX["red"]
    assert sym["R010"] == OWNER_SYMBOLS[3]
    assert len(set(OWNER_SYMBOLS[:5])) == 5 and not set(OWNER_SYMBOLS) & set(CARD_SYMBOLS.values())


def test_player_names_and_colours(usa):
    fig = board_figure(usa, owners={"R001": 1}, player_names=["Ada", "Bob"], player_colours=("red", "#00aa88"))
    t = traces(fig)
    assert [t["seat:0"]["name"], t["seat:1"]["name"]] == ["Ada", "Bob"]
    assert t["seat:0"]["showlegend"] and t["seat:1"]["showlegend"]
    assert t["seat:1"]["line"]["color"] == "#00aa88"
    assert "claimed by Bob" in dict(zip(t["routes"]["customdata"], t["routes"]["hovertext"]))["R001"]
    with pytest.raises(TTRError):
        board_figure(usa, owners={"R001": 2}, player_colours=("red", "blue"))
    with pytest.raises(TTRError):
        board_figure(usa, owners={"R999": 0})


def test_stations(europe):
    fig = board_figure(europe, stations={"Wien": 1, "Berlin": 0})
    s = traces(fig)["stations"]
    assert list(s["customdata"]) == ["Berlin", "Wien"]
    assert list(s["hovertext"]) == ["Berlin · station of Blue", "Wien · station of Red"]
    assert list(s["marker"]["color"]) == [PLAYER_HEX["blue"], PLAYER_HEX["red"]]
    with pytest.raises(TTRError):
        board_figure(europe, stations={"Atlantis": 0})


def test_highlight_and_trail_contain_exactly_the_asked_routes(usa):
    path = ["R039", "R050"]                                    # Denver–Santa Fe, El Paso–Santa Fe
    trail = ["R031", "R035", "R019"]                           # Helena–Denver–Omaha–Chicago
    fig = board_figure(usa, highlight=[("Cheapest path Denver–El Paso", path), ("Other", ["R001"])],
                       trail=trail, trail_label="Longest trail (Blue, 11)")
    t = traces(fig)
    assert route_ids_in(t["highlight:0"]) == path and t["highlight:0"]["name"] == "Cheapest path Denver–El Paso"
    assert route_ids_in(t["highlight:1"]) == ["R001"] and t["highlight:1"]["showlegend"] is True
    assert not t["highlight:2"]["x"] and t["highlight:2"]["showlegend"] is False
    assert route_ids_in(t["trail"]) == trail and t["trail"]["name"] == "Longest trail (Blue, 11)"
    steps = t["trail-steps"]
    assert route_ids_in(steps) == trail
    assert [x for x in steps["text"] if x] == ["1", "2", "3"]
    assert "step 1: Helena → Denver" in steps["hovertext"][0]
    assert "step 2: Denver → Omaha" in steps["hovertext"][2]
    # the trail line runs continuously Helena -> Denver -> Omaha -> Chicago (each piece starts where the last ended)
    xs, ys = t["trail"]["x"], t["trail"]["y"]
    pos = project(usa)
    first = (xs[0], ys[0])
    assert _dist(first, pos["Helena"]) < _dist(first, pos["Denver"])
    last = (xs[-1], ys[-1])
    assert _dist(last, pos["Chicago"]) < _dist(last, pos["Omaha"])
    with pytest.raises(TTRError):
        board_figure(usa, highlight=[(str(i), ["R001"]) for i in range(5)])


def _dist(p, q):
    return ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5


def _provisional_words(fig) -> int:
    return sum(str(t).upper().count("PROVISIONAL") for t in [fig.layout.title.text]
               + [a.text for a in fig.layout.annotations])


def test_provisional_map_is_labelled_once(usa):
    south_korea = load_map("south_korea")
    fig = board_figure(usa)
    assert "PROVISIONAL" not in fig.layout.title.text and not fig.layout.annotations
    prov = dataclasses.replace(usa, provisional=True, provisional_note="Tickets not yet cross-checked.")
    fig = board_figure(prov)
    notes = [a.text for a in fig.layout.annotations]
    assert any("PROVISIONAL" in n and "Tickets not yet cross-checked." in n for n in notes)
    assert _provisional_words(fig) == 1, (fig.layout.title.text, notes)       # said once: not in the title too
    # an explicit title cannot hide it either, nor can update_board
    fig = board_figure(prov, title="My game")
    assert fig.layout.title.text == "My game" and _provisional_words(fig) == 1
    update_board(fig, prov, title="Turn 3")
    assert _provisional_words(fig) == 1
    # a map whose name says it (South Korea's stand-in board) loses those words from the title: the note says it
    fig = board_figure(south_korea)
    assert "provisional" in south_korea.name.lower() and _provisional_words(fig) == 1, fig.layout.title.text
    assert fig.layout.title.text.startswith("Ticket to Ride South Korea")
    # a view that shows its own banner asks for no note: then the figure says nothing (the banner says it once)
    fig = board_figure(south_korea, provisional_note=False)
    assert _provisional_words(fig) == 0 and fig.layout.margin.t < board_figure(south_korea).layout.margin.t
    update_board(fig, south_korea, title="move 3")
    assert _provisional_words(fig) == 0


def test_a_view_says_provisional_once():
    """Every view of a provisional map says PROVISIONAL once: in its banner, not again on its board."""
    from ttr_nb.game import Game
    from ttr_nb.widgets import EditorView, HistoryView, PlayView, TableView
    g = Game("south_korea", players=2, seed=1)
    for view in (PlayView(g), HistoryView(g), TableView(g), EditorView(g.state)):
        board = view.board.fig
        panels = [p.fig for p in getattr(view, "feature_panels", ()) if hasattr(p, "fig")]   # the province board
        said = (view.banner.value.upper().count("PROVISIONAL") + _provisional_words(board)
                + sum(str(f.layout.title.text).upper().count("PROVISIONAL") for f in panels))
        assert said == 1, (type(view).__name__, view.banner.value, board.layout.title.text)


@pytest.mark.parametrize("widget", [False, True])
def test_update_board_in_place(usa, widget):
    fig = board_figure(usa)
    if widget:
        fig = go.FigureWidget(fig)
    before = structure(fig)
    routes_obj = fig.data[trace_index(fig, "routes")]
    # claims only: the same traces with the same names, new data
    update_board(fig, usa, owners={"R001": 4})
    assert structure(fig) == before
    assert route_ids_in(traces(fig)["seat:4"]) == ["R001"]
    # highlights and trails: the same traces (meta keys, order); their legend names become the labels
    update_board(fig, usa, owners={"R035": 2}, closed={"R009"}, highlight=[("Cheapest", ["R039"])],
                 trail=["R031", "R035"])
    assert [s[0] for s in structure(fig)] == [s[0] for s in before]          # same traces, same order
    assert fig.data[trace_index(fig, "highlight:0")].name == "Cheapest"
    assert fig.data[trace_index(fig, "routes")] is routes_obj                # updated, not replaced
    t = traces(fig)
    assert route_ids_in(t["seat:2"]) == ["R035"]
    assert route_ids_in(t["closed"]) == ["R009"]
    assert route_ids_in(t["highlight:0"]) == ["R039"]
    assert route_ids_in(t["trail"]) == ["R031", "R035"]
    hover = dict(zip(t["routes"]["customdata"], t["routes"]["hovertext"]))
    assert "claimed by Green" in hover["R035"]
    # the same figure equals a fresh one drawn with the same arguments
    fresh = board_figure(usa, owners={"R035": 2}, closed={"R009"}, highlight=[("Cheapest", ["R039"])],
                         trail=["R031", "R035"])
    assert _data(fig) == _data(fresh)
    # and back again: names too are as before once the labels are the same
    update_board(fig, usa)
    assert structure(fig) == before
    assert _data(fig) == _data(board_figure(usa))


def _data(fig):
    return json.loads(json.dumps([{k: v for k, v in t.items() if k != "uid"} for t in fig.to_dict()["data"]]))


def test_update_board_on_widget_sends_one_message(usa):
    fig = go.FigureWidget(board_figure(usa))
    sent = []
    for name in ("_send_update_msg", "_send_restyle_msg", "_send_relayout_msg", "_send_addTraces_msg",
                 "_send_deleteTraces_msg", "_send_moveTraces_msg"):
        original = getattr(fig, name)

        def spy(*args, _name=name, _original=original, **kwargs):
            sent.append(_name)
            return _original(*args, **kwargs)

        setattr(fig, name, spy)
    update_board(fig, usa, owners={"R001": 0, "R002": 1})
    assert sent == ["_send_update_msg"]


def _spy_messages(fig) -> list[tuple]:
    """Record (method, restyle keys by trace meta, relayout keys) of every message the widget would send."""
    sent: list[tuple] = []
    metas = [t.meta for t in fig.data]
    for name in ("_send_update_msg", "_send_restyle_msg", "_send_relayout_msg", "_send_addTraces_msg",
                 "_send_deleteTraces_msg", "_send_moveTraces_msg"):
        original = getattr(fig, name)

        def spy(*args, _name=name, _original=original, **kwargs):
            if _name == "_send_update_msg":
                style, lay = kwargs.get("restyle_data", args[0] if args else {}), kwargs.get(
                    "relayout_data", args[1] if len(args) > 1 else {})
                idx = kwargs.get("trace_indexes", args[2] if len(args) > 2 else None)
                changed = {metas[i]: sorted(k for k, vals in style.items()
                                            if not isinstance(vals, list) or vals[n] is not Undefined)
                           for n, i in enumerate(idx or [])}
                sent.append((_name, changed, sorted(lay)))
            else:
                sent.append((_name, None, None))
            return _original(*args, **kwargs)

        setattr(fig, name, spy)
    return sent


@pytest.mark.parametrize("adopted", [True, False], ids=["as_figure_widget", "plain FigureWidget"])
def test_update_board_sends_only_what_changed(usa, adopted):
    fig = as_figure_widget(board_figure(usa)) if adopted else go.FigureWidget(board_figure(usa))
    sent = _spy_messages(fig)
    update_board(fig, usa)                                      # nothing changed: nothing is sent
    assert sent == []
    update_board(fig, usa, owners={"R001": 0})
    (msg,) = sent
    name, changed, relayout = msg
    assert name == "_send_update_msg" and relayout == []
    # a claim touches the trains and the click markers; never the route spaces, cities, highlights, ...
    assert {"claimed-outline", "seat:0", "routes"} <= set(changed)
    assert "outlines" not in changed and not any(k.startswith("spaces:") for k in changed)   # the route stays drawn
    assert not {"cities", "highlight:0", "trail", "seat:1", "stations", "ferries"} & set(changed)
    assert "x" not in changed["routes"] and "marker.color" in changed["routes"]     # midpoints do not move
    sent.clear()
    update_board(fig, usa, owners={"R001": 0})                  # the same again: nothing
    assert sent == []
    update_board(fig, usa, owners={"R001": 0}, title="Turn 2")  # only the title
    assert sent == [("_send_update_msg", {}, ["title.text"])]
    assert _data(fig) == _data(board_figure(usa, owners={"R001": 0}))


def test_update_board_matches_a_fresh_figure_step_by_step(usa, europe):
    """Many small diffs in a row add up to exactly what board_figure draws from scratch (widget and figure)."""
    steps = [dict(owners={"R001": 0}), dict(owners={"R001": 0, "R002": 1}, closed={"R009"}),
             dict(owners={"R002": 1}, highlight=[("A", ["R039"]), ("B", ["R031"])], trail=["R031", "R035"]),
             dict(owners={"R002": 1}, highlight=[("A", ["R040"])], trail=["R031"], title="x"), dict()]
    for fig in (board_figure(usa), as_figure_widget(board_figure(usa)), go.FigureWidget(board_figure(usa))):
        for kw in steps:
            update_board(fig, usa, **kw)
            assert _data(fig) == _data(board_figure(usa, **kw)), kw
            assert fig.layout.title.text == board_figure(usa, **kw).layout.title.text
    fig = as_figure_widget(board_figure(europe))
    for kw in (dict(owners={"R017": 0}, stations={"Wien": 1}), dict(stations={"Wien": 0}, trail=["R017"]), dict()):
        update_board(fig, europe, **kw)
        assert _data(fig) == _data(board_figure(europe, **kw)), kw


def test_update_board_joins_the_callers_batch(usa):
    fig = as_figure_widget(board_figure(usa))
    sent = _spy_messages(fig)
    with fig.batch_update():
        fig.layout.dragmode = "zoom"
        update_board(fig, usa, owners={"R001": 1}, title="Batched")
        assert sent == []                                        # nothing goes out before the batch ends
    assert len(sent) == 1 and sent[0][0] == "_send_update_msg" and "dragmode" in sent[0][2]
    assert _data(fig) == _data(board_figure(usa, owners={"R001": 1}))
    assert fig.layout.title.text == "Batched"
    update_board(fig, usa, owners={"R001": 1}, title="Batched")   # the batch was remembered too: nothing to send
    assert len(sent) == 1


def test_routes_trace_has_the_selection_styles(usa):
    t = traces(board_figure(usa))["routes"]
    assert t["selected"] == {"marker": {"size": 24, "opacity": 1.0}}
    assert t["unselected"] == {"marker": {"opacity": 0.4}}
    fig = as_figure_widget(board_figure(usa))
    routes = fig.data[trace_index(fig, "routes")]
    routes.selectedpoints = [3]                                  # what BoardWidget.select does
    update_board(fig, usa, owners={"R001": 0})
    assert list(routes.selectedpoints) == [3] and routes.selected.marker.size == 24


def test_update_board_keeps_the_users_view(usa):
    fig = go.FigureWidget(board_figure(usa, trail=["R031"]))
    fig.data[trace_index(fig, "trail")].visible = "legendonly"           # the user hid it from the legend
    fig.layout.xaxis.range = [-5, 5]                                       # ... and zoomed in
    update_board(fig, usa, owners={"R001": 0}, trail=["R031", "R035"])
    assert fig.data[trace_index(fig, "trail")].visible == "legendonly"
    assert tuple(fig.layout.xaxis.range) == (-5, 5)
    update_board(fig, usa, height=800)                                     # a new size lays the board out again
    assert fig.layout.height == 800 and tuple(fig.layout.xaxis.range) != (-5, 5)
    assert _data(fig)[trace_index(fig, "routes")] == _data(board_figure(usa, height=800))[trace_index(fig, "routes")]


def test_update_board_rejects_a_foreign_figure(usa, europe):
    with pytest.raises(TTRError):
        update_board(board_figure(europe), usa)


def test_figures_are_deterministic(europe):
    a = board_figure(europe, owners={"R017": 0}, stations={"Wien": 1})
    b = board_figure(europe, owners={"R017": 0}, stations={"Wien": 1})
    assert a.to_json() == b.to_json()


def test_render_does_not_import_ipywidgets():
    code = "import sys, ttr_nb.render; assert 'ipywidgets' not in sys.modules and 'anywidget' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="kaleido needs Chromium (apt-get install chromium)")
def test_board_png(tmp_path, europe):
    fig = board_figure(europe, owners={"R017": 0}, stations={"Wien": 1}, trail=["R017"])
    out = board_png(fig, tmp_path / "board.png", width=600, height=400)
    data = (tmp_path / "board.png").read_bytes()
    assert out.endswith("board.png") and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


# ----------------------------------------------------------------------------- showing without plotly's renderers

_SHOW_IN_A_SHELL = r"""
import json, sys
import ipykernel  # noqa: F401  (as in a Jupyter kernel)
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
from ttr_nb import Game
from ttr_nb.teaching import board_of
fig = board_of(Game("usa", players=2, seed=1).state, title="first board")
shown = []
shell.display_pub.publish = lambda data, metadata=None, **kw: shown.append(data)
fig.show()
bundle = fig._repr_mimebundle_()
print(json.dumps({"renderers_loaded": "plotly.io._renderers" in sys.modules, "nbformat": "nbformat" in sys.modules,
                  "shown": [sorted(d) for d in shown], "bundle": sorted(bundle),
                  "traces": len(bundle["application/vnd.plotly.v1+json"]["data"]),
                  "metas": [t.get("meta") for t in bundle["application/vnd.plotly.v1+json"]["data"]]}))
"""


def test_a_board_shows_in_a_kernel_without_loading_plotlys_renderers():
    """The first board of a notebook must not pay for plotly.io._renderers (nbformat → jsonschema → an RFC 3987
    grammar built at import: seconds): the figure hands Jupyter the plotly mimetype bundle itself."""
    out = subprocess.run([sys.executable, "-c", _SHOW_IN_A_SHELL], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["renderers_loaded"] is False and got["nbformat"] is False
    assert got["shown"] == [["application/vnd.plotly.v1+json", "text/plain"]]
    assert got["bundle"] == ["application/vnd.plotly.v1+json", "text/plain"]
    assert "routes" in got["metas"] and got["traces"] > 5


def test_the_own_bundle_is_what_plotlys_mimetype_renderer_sends(usa):
    """Same data and layout as plotly's own ``plotly_mimetype`` renderer (which the user gets once they have
    chosen a renderer themselves)."""
    from ttr_nb.render.figure import MIMETYPE, Figure, mime_bundle
    fig = board_figure(usa, title="same")
    assert isinstance(fig, Figure)
    ours = mime_bundle(fig)[MIMETYPE]
    from plotly.io._renderers import renderers
    theirs = renderers["plotly_mimetype"].to_mimebundle(fig.to_dict())[MIMETYPE]
    assert ours["data"] == theirs["data"] and ours["layout"] == theirs["layout"]
    assert mime_bundle(fig)["text/plain"] == "<figure: " + fig.layout.title.text + ">"


# ----------------------------------------------------------------------------- stored layouts

def test_every_board_game_has_a_stored_layout_equal_to_a_fresh_one():
    """The stored board-like layouts (a second of pure Python per map, saved for every notebook's first board)
    are exactly what ``project`` computes today; every registered board game's map has one."""
    from ttr_nb.render import board as b
    stored = json.loads(b.LAYOUTS_FILE.read_text(encoding="utf-8"))["maps"]
    assert sorted(stored) == b.stored_layout_keys(), \
        "store them: python -c 'from ttr_nb.render.board import *; write_layouts(stored_layout_keys())'"
    for key in stored:
        m = load_map(key)
        fresh = b.project(m)
        assert stored[key]["fingerprint"] == b.layout_fingerprint(m), key
        assert set(stored[key]["pos"]) == set(fresh), key
        for city, (x, y) in stored[key]["pos"].items():
            assert abs(x - fresh[city][0]) < 1e-3 and abs(y - fresh[city][1]) < 1e-3, (key, city)


def test_an_edited_map_is_laid_out_afresh(usa):
    """A map whose routes or cities differ from the stored one (a teacher's edited file) does not get the stored
    layout: its fingerprint differs, and ``project`` runs."""
    from ttr_nb.render import board as b
    assert b._stored_layout(usa) is not None
    r0 = usa.routes[0]
    edited = dataclasses.replace(usa, routes=(dataclasses.replace(r0, length=r0.length % 6 + 1),) + usa.routes[1:])
    assert b.layout_fingerprint(edited) != b.layout_fingerprint(usa)
    assert b._stored_layout(edited) is None
    moved = dataclasses.replace(usa, cities=(dataclasses.replace(usa.cities[0], lat=usa.cities[0].lat + 1),)
                                + usa.cities[1:])
    assert b._stored_layout(moved) is None


# ----------------------------------------------------------------------------- built unvalidated, checked here

@pytest.mark.parametrize("key", ["usa", "europe", "south_korea"])
def test_every_board_figure_passes_plotlys_validation(key):
    """board_figure builds its figure unvalidated (plotly's fast path); every property it can set must still be
    one plotly accepts: rebuilding the figure with validation raises on anything unknown or malformed."""
    from ttr_nb.board.engine import board_marks, seat_name
    from ttr_nb.game import Game
    from ttr_nb.bots import GreedyBot
    m = load_map(key)
    g = Game(key, players=3, seed=2)
    g.play_bots({s: GreedyBot(seed=s) for s in range(3)}, max_plies=70)
    marks = board_marks(g.state)
    rids = [r.id for r in m.routes]
    figs = [board_figure(m),
            board_figure(m, owners=marks["owners"], closed=marks["closed"], stations=marks["stations"],
                         player_names=[seat_name(s) for s in range(3)], highlight=[("a", rids[:3]), ("b", rids[3:5])],
                         trail=rids[:2], selected=rids[7], marked={m.cities[0].name: "ticket"}, scale=1.5,
                         title="all options")]
    for fig in figs:
        go.Figure(fig.to_dict())                     # validating: raises ValueError on a bad property
        assert fig.to_dict()["data"] and all(t["type"] == "scatter" for t in fig.to_dict()["data"])


# ----------------------------------------------------------------------------- city names

def _drawn_ppu(fig, width: int) -> float:
    """Pixels per data unit of a board figure drawn ``width`` px wide at its own height (plotly's scaleanchor:
    the axis with less room decides)."""
    lay = fig.layout
    (x0, x1), (y0, y1) = lay.xaxis.range, lay.yaxis.range
    plot_w = width - lay.margin.l - lay.margin.r
    plot_h = lay.height - lay.margin.t - lay.margin.b
    return min(plot_w / (x1 - x0), plot_h / (y1 - y0))


def name_problems(fig, ppu: float) -> list[str]:
    """What the city names of a board figure cover when drawn at ``ppu`` px per data unit: another name, another
    city's marker, or room outside the board. Each name's box from its font size and text (``labels.text_width``:
    per-character widths) and plotly's rule for where a ``textposition`` puts a text beside its marker."""
    from ttr_nb.render import labels
    names = fig.data[trace_index(fig, "city-names")]
    cities = fig.data[trace_index(fig, "cities")]
    n = len(names.text)
    per = lambda v: list(v) if isinstance(v, (list, tuple)) else [v] * n      # noqa: E731
    sizes, symbols, font = per(names.marker.size), per(cities.marker.symbol), names.textfont.size
    assert per(cities.marker.size) == sizes, "the names stand off by the cities' own marker sizes"
    boxes = {}
    for text, x, y, slot, size in zip(names.text, names.x, names.y, names.textposition, sizes):
        b = labels.label_box(slot, text, font, size)
        boxes[text] = (x + b[0] / ppu, y + b[1] / ppu, x + b[2] / ppu, y + b[3] / ppu)
    out = []
    (rx0, rx1), (ry0, ry1) = fig.layout.xaxis.range, fig.layout.yaxis.range
    margin = fig.layout.margin.l / ppu
    for i, (a, ba) in enumerate(sorted(boxes.items())):
        for b, bb in sorted(boxes.items())[i + 1:]:
            if ba[0] < bb[2] and bb[0] < ba[2] and ba[1] < bb[3] and bb[1] < ba[3]:
                out.append(f"{a} over {b}")
        for c, x, y, size, sym in zip(cities.customdata, cities.x, cities.y, sizes, symbols):
            r = (size / 2 * (2 ** 0.5 if sym == "square" else 1) + 1.1) / ppu       # its outline too
            dx, dy = max(ba[0] - x, 0, x - ba[2]), max(ba[1] - y, 0, y - ba[3])
            if c != a and dx * dx + dy * dy < r * r:
                out.append(f"{a} over the marker of {c}")
        if ba[0] < rx0 - margin or ba[2] > rx1 + margin or ba[1] < ry0 or ba[3] > ry1:
            out.append(f"{a} outside the board")
    return out


@pytest.mark.parametrize("key", ["usa", "europe", "maerklin", "south_korea"])
def test_no_city_name_covers_another_name_or_a_marker(key):
    """At the board's default size, and at every size from the smallest its names are placed for up to 2.5 times
    that, no city name covers another city's name or marker, and none leaves the board (issue 17: Märklin's
    Saarbrücken/Mannheim/Karlsruhe, Europe's München/Zagrab, South Korea's Seoul ...)."""
    from ttr_nb.render import board as b
    m = load_map(key)
    fig = board_figure(m)
    smallest = 1 / b._label_placement(m).upp
    default = _drawn_ppu(fig, 1000)
    assert default >= smallest * 0.999, f"{key}: the default board is drawn smaller than its names need"
    for ppu in sorted({default, *(smallest * k for k in (1.0, 1.1, 1.25, 1.6, 2.0, 2.5))}):
        problems = name_problems(fig, ppu)
        assert not problems, f"{key} at {ppu / smallest:.2f} x its smallest size: " + "; ".join(problems[:8])
    # the names of a projector board (everything 1.4 times larger) keep clear at 1.4 times the size
    big = board_figure(m, scale=1.4)
    assert not name_problems(big, smallest * 1.4)


def test_a_name_is_measured_no_smaller_than_it_is_drawn():
    """The width table behind the name boxes: never narrower than a plain sans-serif face draws (about half an em
    per character; wide letters more), accented letters as their base letter, an unknown character a full em."""
    from ttr_nb.render import labels
    assert labels.text_width("Saarbrücken", 13) == labels.text_width("Saarbrucken", 13)
    assert labels.text_width("W", 10) > labels.text_width("i", 10)
    for text in ("München", "Zagrab", "Erzurum", "Düsseldorf", "Chungju", "Oklahoma City"):
        assert labels.text_width(text, 13) >= 0.5 * 13 * len(text), text
    assert labels.char_width("\u4e2d") == 1.0


def test_every_board_game_has_its_city_names_stored_as_placed_today():
    """The places of the city names stored with the layouts are what the search finds today, and every one keeps
    its rules at its smallest size (nothing broken)."""
    from ttr_nb.render import board as b
    stored = json.loads(b.LAYOUTS_FILE.read_text(encoding="utf-8"))["maps"]
    for key in b.stored_layout_keys():
        m = load_map(key)
        lab = stored[key]["labels"]
        assert lab["fingerprint"] == b.label_fingerprint(m) and not lab.get("broken"), key
        fresh = b._compute_labels(m)
        assert fresh.slots == lab["slots"] and abs(fresh.upp - lab["upp"]) < 1e-9 and not fresh.broken, key


@pytest.mark.parametrize("key", ["usa", "europe", "maerklin", "south_korea"])
def test_every_claim_shows_as_a_train_not_a_dot(key):
    """At the board's default size a claimed route shows its owner's train pieces, at least one and a half times as
    long as the owner's marker on it — on the shortest route too (issue 17: a claim of a short South Korea route
    showed only as a small dot)."""
    m = load_map(key)
    fig = board_figure(m, owners={r.id: 0 for r in m.routes})
    ppu = _drawn_ppu(fig, 1000)
    train = fig.data[trace_index(fig, "seat:0")]
    length: dict[str, float] = {}
    for (x0, y0, r0), (x1, y1, r1) in zip(zip(train.x, train.y, train.customdata),
                                          list(zip(train.x, train.y, train.customdata))[1:]):
        if r0 is not None and r0 == r1 and x0 is not None and x1 is not None:
            length[r0] = length.get(r0, 0.0) + ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 * ppu
    routes = fig.data[trace_index(fig, "routes")]
    short = [(rid, round(length.get(rid, 0), 1), size) for rid, size in zip(routes.customdata, routes.marker.size)
             if length.get(rid, 0) < 1.5 * size]
    assert not short, f"{key}: claims hidden by their marker (route, train px, marker px): {short[:6]}"
