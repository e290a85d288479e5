"""Keyboard play, screen-reader text and announcements of the views, without a browser (issue 21, items 2-3).

* Every game's first turn is played through the keyboard's controls only (the claim chooser's list, the option
  buttons, the Card Game's move list), and that reaches the same game as clicks.
* What a screen reader gets (a figure's description and text table, the live region's lines) comes from the
  viewing seat's view: changing what that seat cannot see gives the same text.
* No figure offers a cloud upload or Chart Studio button.
"""
from __future__ import annotations

import dataclasses

import pytest

from ttr_nb import Game, load_map
from ttr_nb.board.engine import board_marks, claimable_routes
from ttr_nb.widgets import EditorView, HistoryView, PlayView, TableView

SETUP_SEEDS = {"usa": 1, "europe": 1, "maerklin": 1, "south_korea": 1}


def keep_count(pending) -> int:
    """How many offered tickets a choice keeps at least (every keep step says it: ``min_keep``)."""
    need = pending.get("min_keep")
    assert isinstance(need, int) and need >= 1, pending
    return need


def _through_setup(view) -> None:
    """Answer Blue's setup decisions as a keyboard does: the option buttons, the ticket boxes and "keep"."""
    for _ in range(12):
        if view.turn_seat() == 0:
            return
        if view.choosing_seats():
            view.set_ticket_checks(0, view.offered(0)[:keep_count(view.game.state.pending_for(0))])
            view._ticket_panels[0]["keep"].click()
        else:
            assert view.step_options, view.message.text
            view.options_box.children[0].click()
    assert view.turn_seat() == 0, view.message.text


@pytest.mark.parametrize("variant", sorted(SETUP_SEEDS))
def test_a_first_turn_with_a_claim_by_the_keyboard_controls(variant):
    view = PlayView(Game(variant, players=2, seed=SETUP_SEEDS[variant]))
    _through_setup(view)
    s = view.game.state
    expected = sorted((r.a, r.b, r.id) for r in claimable_routes(view.variant, s, 0, affordable_only=True))
    listed = [tok.split(":", 1)[1] for _w, tok in view.chooser.entries if tok.startswith("route:")]
    # every claimable route is listed, the second track of a double route that reads the same as the first as it
    reached = [view.chooser.aliases.get(f"route:{rid}", f"route:{rid}").split(":", 1)[1] for _a, _b, rid in expected]
    assert listed == list(dict.fromkeys(reached))
    words = [w for w, tok in view.chooser.entries if tok.startswith("route:")]
    assert len(set(words)) == len(words)                                 # no two look-alike rows
    for alias, token in view.chooser.aliases.items():
        a, b = view.map.route(alias.split(":", 1)[1]), view.map.route(token.split(":", 1)[1])
        assert a.double_group == b.double_group and (a.colour, a.length) == (b.colour, b.length)
    words, token = view.chooser.entries[0]
    route = view.map.route(token.split(":", 1)[1])
    assert words.startswith(f"{route.a}–{route.b} · {route.length} space") and route.colour in words
    # the list calls the board's click handler: the same payments as a click on the marker
    view.chooser.choose(0)
    by_list = [str(a) for a in view.payments]
    assert view.selected_route == route.id and view.board.selected == route.id
    assert by_list == [str(a) for a in PlayView(view.game.branch(view.game.ply)).click_route(route.id)]
    view.payments_box.children[0].click()
    assert board_marks(view.game.state)["owners"].get(route.id) == 0
    assert view.chooser.select.value is None and view.payments_box.children == ()
    assert any(line.startswith(f"Blue claims {route.a}–{route.b}") for line in view.access.spoken)


def test_a_double_routes_look_alike_track_is_listed_once_and_a_click_on_it_shows_that_entry():
    view = PlayView(Game("usa", players=2, seed=1))
    _through_setup(view)
    alias, token = next(iter(sorted(view.chooser.aliases.items())))
    other = alias.split(":", 1)[1]
    assert alias not in [tok for _w, tok in view.chooser.entries] and token in [tok for _w, tok in view.chooser.entries]
    assert view.click_route(other) and view.selected_route == other
    assert view.chooser.select.value == token                     # the look-alike entry shows the board's choice
    assert view.selected_route == other                           # and showing it did not choose the first track


def test_europe_lists_station_cities_and_a_city_opens_its_payments():
    view = PlayView(Game("europe", players=2, seed=1))
    _through_setup(view)
    cities = [(w, tok) for w, tok in view.chooser.entries if tok.startswith("city:")]
    assert cities and all("station" in w for w, _t in cities)
    i = view.chooser.entries.index(cities[0])
    view.chooser.choose(i)
    assert view.selected_city == cities[0][1].split(":", 1)[1] and view.payments


def test_the_chooser_is_empty_and_says_why_when_it_is_not_your_turn():
    view = PlayView(Game("usa", players=2, seed=1), auto_bots=False)
    assert view.chooser.entries == [] and view.chooser.select.disabled
    assert "not your turn" in view.chooser.head.value


def test_card_game_turn_is_short_and_playable_from_the_move_list():
    from ttr_nb.widgets.cardgame import CardPlayView
    view = PlayView(Game("cardgame", players=2, seed=1))
    assert isinstance(view, CardPlayView)
    view._ticket_checks[next(iter(view._ticket_checks))].value = True
    view.keep_tickets()
    n_buttons = len(view.options_box.children)
    n_listed = len(view.more_options.select.options)
    assert n_listed >= 10 and n_buttons <= 7          # the draws stay buttons; the rail-yard plays are one list
    assert len(view.options) == n_buttons + n_listed
    words = view.more_options.select.options[0][0]
    view.more_options.select.value = view.more_options.select.options[0][1]
    ply = view.more_options.button.click()
    assert view.game.history[0].seat == 0 or ply is None
    mine = [p for p in view.game.history if p.seat == 0]
    from ttr_nb.widgets.words import second_person          # the list speaks to the player ("play 1 orange ...")
    assert second_person(mine[-1].words_for(0).split(" ", 1)[-1]) == words
    assert any(p["yard"] for p in [view.game.rules.observe(view.game.state, 0)["players"][0]])


def _swap_hidden(state, seat: int):
    """``state`` with the other two seats' tickets and hands exchanged (what ``seat`` cannot see)."""
    players = list(state.players)
    a, b = [i for i in range(len(players)) if i != seat][:2]
    players[a], players[b] = (dataclasses.replace(players[a], tickets=players[b].tickets, hand=players[b].hand),
                              dataclasses.replace(players[b], tickets=players[a].tickets, hand=players[a].hand))
    return dataclasses.replace(state, players=tuple(players))


@pytest.mark.parametrize("variant", ["usa", "europe", "maerklin", "south_korea"])
def test_board_text_is_the_seats_view_only(variant):
    from ttr_nb.render.describe import board_text
    g = Game(variant, players=3, seed=2)
    from ttr_nb.bots import make_bot
    bots = {s: make_bot("greedy", seed=s) for s in range(3)}
    g.play_bots(bots, max_plies=40)
    s = g.state
    name, text, table = board_text(s, 0, last_move="Red claims something")
    assert "Blue's view" in name and "Your tickets" in text and "Last move: Red claims something." in text
    assert board_text(_swap_hidden(s, 0), 0) == board_text(s, 0)
    # the teacher's text does name the others' tickets
    assert board_text(_swap_hidden(s, 0), None) != board_text(s, None)
    from ttr_nb.board.engine import seat_name
    marks = board_marks(s)
    m = g.variant.map
    assert len(table["rows"]) == len(m.routes) and table["head"] == ["route", "length", "colour", "owner"]
    seen = {"free": 0, "owned": 0}
    for r, row in zip(sorted(m.routes, key=lambda r: (r.a, r.b, r.id)), table["rows"]):
        assert row[:2] == [f"{r.a}–{r.b}", str(r.length)] and row[2].startswith(r.colour)
        if r.id in marks["owners"]:
            assert row[3] == seat_name(marks["owners"][r.id])
            seen["owned"] += 1
        elif r.id not in marks["closed"]:
            assert row[3] == "free"
            seen["free"] += 1
    assert seen["owned"] == len(marks["owners"]) > 0 and seen["free"] > 0


def test_playview_figure_and_announcements_keep_secrets():
    """What a screen reader gets in Blue's view (the board's text, the live region) is the same when the other
    seats' hidden hands and tickets are exchanged; the bots play by hand, so their moves stay the same."""
    def run(swap: bool):
        g = Game("usa", players=3, seed=7)
        view = PlayView(g, auto_bots=False)
        view.set_ticket_checks(0, view.offered(0)[:2])
        view.keep_tickets(0)
        for seat in (1, 2):                   # the other seats keep tickets by hand: the same for both runs
            g.push(g.legal_actions(seat)[0])
        if swap:
            g2 = Game(start=_swap_hidden(g.state, 0))
            view.use_game(g2)
        view.draw_deck()
        return view.board.view.description, view.board.view.text_table, view.access.spoken[-1]
    assert run(False) == run(True)
    text = run(False)[0]
    assert "Your tickets" in text and "Red's tickets" not in text


def test_refusals_and_status_are_announced():
    view = PlayView(Game("usa", players=3, seed=1))
    view.draw_faceup(9)
    assert view.access.spoken[-1].startswith("Not allowed:")
    before = len(view.access.spoken)
    view.refresh()
    assert len(view.access.spoken) == before          # an unchanged status is not said again


def test_every_view_is_accessible_and_its_figures_are_named():
    from ttr_nb.board.positions import position
    from ttr_nb.widgets.access import VIEW_CLASS, Access
    g = Game("south_korea", players=2, seed=3)
    views = [PlayView(g), HistoryView(g), TableView(g), EditorView(position("usa", players=2, seed=4))]
    for v in views:
        assert VIEW_CLASS in v.widget._dom_classes
        assert isinstance(v.widget.children[-1], Access) and v.access is v.widget.children[-1]
    board = views[0].board.view
    assert board.aria_label.endswith("Blue's view") and board.description
    province = views[0].feature_panels[0].widget
    assert province.aria_label == "South Korea province board" and "line" in province.description
    assert [r[0] for r in province.text_table["rows"]]


def test_history_controls_get_names():
    from ttr_nb.widgets.history import HISTORY_LABELS
    g = Game("usa", players=2, seed=1)
    h = HistoryView(g)
    named = dict(tuple(x) for x in h.access.labels)
    assert named == dict(HISTORY_LABELS)
    assert {".widget-play button:nth-of-type(1)", ".widget-slider .noUi-handle", ".ttr-prev"} <= set(named)


def test_no_figure_offers_a_cloud_upload():
    from ttr_nb.render import board_figure
    from ttr_nb.variants import get_variant
    from ttr_nb.widgets.plotfig import FigureView
    for config in (None, {"displaylogo": True, "showSendToCloud": True, "modeBarButtonsToRemove": []}):
        view = FigureView(board_figure(get_variant("usa").map), **({} if config is None else {"config": config}))
        c = view.config
        assert c["showSendToCloud"] is False and c["showEditInChartStudio"] is False and c["displaylogo"] is False
        assert {"sendDataToCloud", "editInChartStudio"} <= set(c["modeBarButtonsToRemove"])
    assert view.aria_label == "Ticket to Ride (USA)"


def _other_tickets(state, seat: int):
    """``state`` with every other seat's held tickets exchanged for as many from the ticket deck (the counts, which
    everyone sees, stay; which tickets, which ``seat`` cannot see, change)."""
    deck = list(state.ticket_deck)
    players = []
    for i, p in enumerate(state.players):
        if i != seat and p.tickets:
            new, deck = tuple(deck[:len(p.tickets)]), deck[len(p.tickets):] + list(p.tickets)
            p = dataclasses.replace(p, tickets=new)
        players.append(p)
    return dataclasses.replace(state, players=tuple(players), ticket_deck=tuple(deck))


def test_card_game_ticket_map_is_described_from_the_seats_view():
    from ttr_nb.bots import make_bot
    from ttr_nb.cardgame.data import load_cards
    from ttr_nb.render.describe import ticket_map_text
    from ttr_nb.render.figure import figure_text
    from ttr_nb.render.ticketmap import ticket_map_figure
    from ttr_nb.widgets.plotfig import figure_view
    g = Game("cardgame", players=3, seed=11)
    g.play_bots({s: make_bot("greedy", seed=s) for s in range(3)}, max_plies=30)
    s = g.state
    data = load_cards()
    name, text, table = ticket_map_text(s, 0)
    mine = [data.ticket(t) for t in s.players[0].tickets]
    assert name == "Card Game tickets on the map, Blue's view"
    assert all(f"{t.a}–{t.b} ({t.points} points, needs {t.needs_words()})" in text for t in mine)
    assert f"Red holds {len(s.players[1].tickets)} tickets, hidden from you" in text
    assert sorted(r[0] for r in table["rows"]) == sorted(f"{t.a}–{t.b}" for t in mine)
    assert {r[3] for r in table["rows"]} == {"Blue (you)"}
    changed = _other_tickets(s, 0)
    assert changed.players[1].tickets != s.players[1].tickets
    assert ticket_map_text(changed, 0) == ticket_map_text(s, 0)          # what Blue cannot see changes nothing
    assert ticket_map_text(changed, None) != ticket_map_text(s, None)    # the teacher sees every ticket
    # the figure carries the same text; a figure view of it takes it as its name and description
    fig = ticket_map_figure(s, 0)
    assert figure_text(fig) == (name, text, table)
    view = figure_view(fig)
    assert (view.aria_label, view.description, view.text_table) == (name, text, table)
    every = figure_text(ticket_map_figure())
    assert every[0].endswith("every ticket of the game") and len(every[2]["rows"]) == len(data.tickets)
    assert every[1].startswith(f"{len(data.tickets)} tickets on a map of the USA")


def test_a_static_figure_with_a_text_shows_its_text_version_after_it(monkeypatch):
    import IPython.display
    from ttr_nb.render import figure as figure_module
    from ttr_nb.render.ticketmap import ticket_map_figure
    shown = []
    monkeypatch.setattr(figure_module, "_own_display", lambda: True)
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: shown.append(obj))
    fig = ticket_map_figure()
    fig.show()
    assert [sorted(b) for b in shown] == [["application/vnd.plotly.v1+json", "text/plain"], ["text/html", "text/plain"]]
    page = shown[1]["text/html"]
    assert page.startswith("<details class='ttr-figure-text'><summary>Text version: the tickets in words</summary>")
    assert page.count("<tr>") == 46 + 1 and "<th scope='col' style='text-align:left'>ticket</th>" in page
    assert shown[1]["text/plain"].startswith("Card Game tickets on the map, every ticket of the game: 46 tickets")
    shown.clear()
    from ttr_nb.render import board_figure
    board_figure(load_map("usa")).show()                                  # a figure without a text: the figure only
    assert len(shown) == 1


def test_map_explorer_says_what_it_marks():
    from ttr_nb.widgets import MapExplorer
    e = MapExplorer("usa")
    board = e.board.view
    assert board.aria_label == "Ticket to Ride (USA) map" and "Nothing is marked" in board.description
    paths = e.show_paths("Seattle", "Miami", 2)
    text = board.description
    assert "The 2 cheapest paths from Seattle to Miami are marked: #1, " in text
    for p in paths:
        assert " – ".join(p.cities) in text
    marked = {r[0]: r[3] for r in board.text_table["rows"] if r[3] != "—"}
    on_both = {f"{e.map.route(r).a}–{e.map.route(r).b}" for r in set(paths[0].routes) & set(paths[1].routes)}
    assert on_both and all(marked[pair].startswith("#1") and "#2" in marked[pair] for pair in on_both)
    rows = e.show_route_load(top=3)
    pairs = list(dict.fromkeys(f"{r['a']}–{r['b']}" for r in rows[:3]))   # a double route's tracks: one pair
    assert board.description.endswith("Marked (top 3 routes by ticket load): " + ", ".join(pairs) + ".")
    e.clear()
    assert "Nothing is marked" in board.description and {r[3] for r in board.text_table["rows"]} == {"—"}
