"""South Korea's teaching layer: the draft, express cards and province placements by clicks in the PlayView, the
province board figure, the player panel's express cards, the exercises, the editor's panels, and that the draft
stays secret. The rules themselves: test_rules_south_korea.py."""
from __future__ import annotations

import plotly.graph_objects as go
import pytest

import ttr_nb.teaching as ttr
from ttr_nb.errors import TTRError
from ttr_nb.exercises import ProvinceBonus, ProvinceSpace, make_exercise
from ttr_nb.games.south_korea import drafted, express_left, province_ranking, province_trains
from ttr_nb.render.provinces import province_figure, update_provinces
from ttr_nb.widgets import EditorView, HistoryView, PlayView, TableView

SK = ttr.get_variant("south_korea")
RED_LINE = [("red", 9, 2), ("red", 6, 3), ("red", 2, 3), ("red", 5, 0), ("red", 3, 0), ("red", 7, 1)]


def trace(fig, key):
    return next(t for t in fig.data if t.meta == key)


def drafted_view(seed=2):
    view = PlayView(ttr.Game("south_korea", players=3, seed=seed))
    for _ in range(6):
        view.choose_option(0)
    view.keep_tickets(0, view.offered(0)[:4])
    return view


# ------------------------------------------------------------------------------------------------ the draft

def test_draft_by_clicks_names_the_cards_and_keeps_exactly_four():
    view = PlayView(ttr.Game("south_korea", players=3, seed=2))
    s = view.game.state
    packet = s.pending_for(0).get("packet")
    labels = [b.description for b in view.options_box.children]
    assert len(labels) == 6 and all(label.startswith("pick ") for label in labels)
    first = SK.map.ticket(packet[0])
    assert labels[0] == f"pick {first.a}–{first.b} ({first.points} points)"     # what the number is, said
    assert "SK-SETUP-3" not in view.step_info.value and "no picks yet" in view.step_info.value
    view.choose_option(0)
    assert drafted(view.game.state, 0) == (packet[0],)
    assert "your picks so far" in view.step_info.value
    # the hand passed on: Blue now holds what Green (the seat on Blue's right) held, minus Green's pick
    for _ in range(5):
        view.choose_option(0)
    assert view.choosing_seats() == [0] and len(view.offered(0)) == 6
    assert "keep exactly 4" in view.tickets_box.children[0].children[0].value
    assert view.keep_tickets(0, view.offered(0)[:3]) is None and "SK-SETUP-4" in view.message.text
    assert view.keep_tickets(0, view.offered(0)[:4]) is not None
    assert view.game.state.phase == "play" and len(view.game.state.players[0].tickets) == 4


def test_the_draft_stays_secret_in_a_players_view_and_log():
    view = PlayView(ttr.Game("south_korea", players=3, seed=2))
    for _ in range(3):
        view.choose_option(0)
    s = view.game.state
    assert drafted(s, 1) and drafted(s, 2)
    text = " ".join(view.log_lines()) + view.players.value + view.step_info.value
    for seat in (1, 2):
        for tid in drafted(s, seat):
            t = SK.map.ticket(tid)
            assert f"{t.a}–{t.b}" not in text
    teacher = TableView(view.game)
    words = [f"{SK.map.ticket(t).a}–{SK.map.ticket(t).b}" for t in drafted(s, 1)]
    assert all(w in teacher.html for w in words)                              # the teacher sees Red's picks
    teacher.select(0)
    assert not any(w in teacher.html for w in words)
    teacher.select(1)
    assert all(w in teacher.html for w in words)                              # and Red sees its own


# ------------------------------------------------------------------------------------------------ express, province

def test_express_card_boosts_the_draw_buttons_and_is_struck_through_once_used():
    view = drafted_view()
    assert [v for _l, v in view.boost_toggle.options] == [0, 1, 2, 3]
    view.use_boost(2)
    ply = view.draw_deck()
    assert ply is not None and ply.text == "blue: draw deck +2"
    assert express_left(view.game.state, 0) == (1, 3) and view.boost_toggle.value == 0
    assert "<s title='used'>+2</s>" in view.players.value
    view.draw_deck()                           # the second card
    view.bots_play()
    assert [v for _l, v in view.boost_toggle.options] == [0, 1, 3]
    view.use_boost(2)
    assert "no +2 express card" in view.message.text


def test_the_rule_books_province_example_by_clicks():
    """SK-PROV-3/SK-EXPRESS-3: Blue pays 4 white + 1 locomotive and +1 on Namwon–Jinju: space 6 of the white line."""
    s = ttr.position("south_korea", players=3, seed=1, hands={0: {"white": 5, "locomotive": 1}})
    view = PlayView(ttr.Game(start=s), human_seats=(0,))
    view.click_route("Jinju–Namwon")
    assert view.extra_toggle.layout.display == "" and "province white +1 express" in [v for _l, v in view.extra_toggle.options]
    pays = view.choose_extra("province white +1 express")
    labels = [b.description for b in view.payments_box.children]
    assert "4 white + 1 locomotive → space 6" in labels
    view.choose_payment(labels.index("4 white + 1 locomotive → space 6"))
    assert province_trains(view.game.state) == (("white", 6, 0),)
    assert trace(view.feature_panels[0].fig, "trains").customdata == ("white:6",)
    assert express_left(view.game.state, 0) == (2, 3) and len(pays) == 5
    assert view.choose_extra("province pink") == [] and "not offered" in view.message.text


def test_the_board_title_says_provisional_once_and_fits_a_narrow_window():
    fig = ttr.board_of(ttr.position("south_korea", players=2, seed=1))
    # the note under the title says PROVISIONAL; the title does not repeat it (it was "... board) — PROVISIONAL")
    assert fig.layout.title.text == "Ticket to Ride South Korea"
    assert [a.text.count("PROVISIONAL") for a in fig.layout.annotations] == [1]


def test_province_figure_draws_every_space_the_trains_and_the_ranking():
    s = ttr.position("south_korea", players=4, seed=1, province=RED_LINE)
    fig = province_figure(s)
    go.Figure(fig.to_dict())                                               # validates
    spaces = trace(fig, "spaces")
    assert len(spaces.x) == 8 * 9
    assert sorted(trace(fig, "trains").customdata) == sorted(f"red:{sp}" for _l, sp, _s in RED_LINE)
    ranking = dict(zip(trace(fig, "ranking").y, trace(fig, "ranking").text))
    red = ranking[min(ranking)]                                           # the red line is the lowest row
    assert red == "Green 9 → +10 · Yellow 8 → +6 · Blue 8 → +4 · Red 7 → 0"
    assert "PROVISIONAL" in fig.layout.title.text
    empty = province_figure(ttr.position("south_korea", players=4, seed=1))
    update_provinces(empty, s)
    assert trace(empty, "trains").customdata == trace(fig, "trains").customdata


def test_province_board_shows_in_history_and_table_views():
    g = ttr.Game("south_korea", players=3, seed=4)
    g.play_bots({s: ttr.GreedyBot(seed=s) for s in range(3)})
    assert province_trains(g.state), "the bots placed province trains"
    hist = HistoryView(g, ply=len(g.line))
    assert len(trace(hist.feature_panels[0].fig, "trains").x) == len(province_trains(g.state))
    hist.show(0)
    assert len(trace(hist.feature_panels[0].fig, "trains").x or ()) == 0
    table = TableView(g)
    assert len(trace(table.feature_panels[0].fig, "trains").x) == len(province_trains(g.state))


def test_historyview_steps_through_the_draft_pick_by_pick_and_a_seat_sees_only_its_own_picks():
    import re

    def text(html):
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))

    g = ttr.Game("south_korea", players=3, seed=2)
    g.play_bots({s: ttr.GreedyBot(seed=s) for s in range(3)}, max_plies=3 * 6 + 3)
    picks = [p for p in g.line if p.text.split(": ", 1)[-1].startswith("draft pick")]
    assert len(picks) == 3 * 6                                   # SK-SETUP-3: 6 picks each, one ply each
    teacher, blue = HistoryView(g), HistoryView(g, seat=0)
    for ply, p in enumerate(g.line[:len(picks)], 1):
        card = p.text.split("draft pick ", 1)[1]
        teacher.show(ply)
        assert card in text(teacher.ply_info.value) and card in text(teacher.table.value)  # picked, held by its seat
        if ply < len(picks):                                     # the last pick ends the draft: on to the keep
            assert drafted(g.state_at(ply), p.seat)[-1] == SK.map.ticket(card).id
        blue.show(ply)
        own = p.seat == 0
        assert (card in text(blue.ply_info.value)) == own        # another seat's pick is not named to Blue
        for seat in (1, 2):                                      # nor what the others hold or pass
            for tid in drafted(g.state_at(ply), seat):
                assert ttr.ticket_names("south_korea", [tid]) not in text(blue.table.value)
    teacher.show(3)
    assert "passes" in text(teacher.ply_info.value)              # the hands move left once everyone has picked
    teacher.show(1)
    assert "Red: pick a ticket (the draft)" in text(teacher.table.value)      # not "draft pick"
    assert "draft picked count" not in text(teacher.table.value)                 # the picks themselves are listed
    blue.show(1)
    assert "draft picked count: 0" in text(blue.table.value)     # another seat's picks: only how many


# ------------------------------------------------------------------------------------------------ exercises, editor

@pytest.mark.parametrize("seed", range(10))
def test_province_space_exercise(seed):
    ex = ProvinceSpace(seed=seed)
    assert ex.check(ex.solution())
    if ex.space is not None and ex.space != ex.value:
        fb = ex.check(ex.value)
        assert not fb and "taken" in fb.explanation and "SK-PROV-4" in " ".join(fb.rules)


@pytest.mark.parametrize("seed", range(10))
def test_province_bonus_exercise(seed):
    ex = ProvinceBonus(seed=seed)
    assert ex.check(ex.solution())
    ranking = province_ranking(SK, ex.state, ex.line)
    assert ex.bonus[ranking[0]["seat"]] == 10
    swapped = ", ".join(f"{ttr.seat_name(r['seat'])} {10 if i == 1 else 0}" for i, r in enumerate(ranking))
    assert not ex.check(swapped)


def test_south_korea_exercises_are_registered_and_refuse_other_games():
    assert isinstance(make_exercise("province_space", 1), ProvinceSpace)
    assert isinstance(make_exercise("province_bonus", 1), ProvinceBonus)
    with pytest.raises(TTRError, match="no province board"):
        ProvinceSpace(seed=1, variant="usa")


def test_editor_edits_express_cards_the_province_board_and_draft_hands():
    ed = EditorView(ttr.position("south_korea", players=3, seed=1))
    titles = [ed.tabs.get_title(i) for i in range(len(ed.tabs.children))]
    assert {"express cards", "province board", "draft hands"} <= set(titles)
    assert ed.set_express(0, [1, 3]) and ed.is_valid and express_left(ed.state, 0) == (1, 3)
    before = ed.state
    assert not ed.set_express(0, [4]) and ed.state is before
    assert ed.set_province_train("red", 9, 2) and ed.is_valid and ed.state.players[2].trains == 44
    assert ed.set_province_train("red", 9, 1) and [p.trains for p in ed.state.players] == [45, 44, 45]
    assert ed.set_province_train("red", 9, None) and [p.trains for p in ed.state.players] == [45, 45, 45]
    assert not ed.set_province_train("red", 12, 0) and "spaces 1–9" in ed.message.text
    draft = EditorView(ttr.Game("south_korea", players=3, seed=2))
    s = draft.state
    packet = s.pending_for(0).get("packet")
    deck = dict(s.ticket_decks)["regular"]
    assert draft.set_draft_hand(0, list(packet[:-1]) + [deck[0]]) and draft.is_valid
    assert packet[-1] in dict(draft.state.ticket_decks)["regular"]
    other = s.pending_for(1).get("packet")[0]
    assert not draft.set_draft_hand(0, list(packet[:-1]) + [other]) and "another player" in draft.message.text
