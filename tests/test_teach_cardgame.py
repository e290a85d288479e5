"""The Card Game's teaching layer: its own views found through its registry entry (PlayView, TableView,
HistoryView, EditorView give the Card Game's), played by clicks with 2, 3 and 4 players, the table figure and the
ticket map, robbery shown, the exact completion offered, secrets kept (hands, tickets, on-the-track piles), and the
exercises. The rules themselves: test_rules_cardgame.py."""
from __future__ import annotations

import html
import json
import re

import plotly.graph_objects as go
import pytest

import ttr_nb.teaching as ttr
from ttr_nb.cardgame import engine as rules
from ttr_nb.cardgame.actions import CompleteTicket, MoveToTrack
from ttr_nb.cardgame.data import load_cards
from ttr_nb.errors import TTRError
from ttr_nb.exercises import BestCompletion, CanPlayYard, make_exercise
from ttr_nb.render.cardtable import card_table_figure
from ttr_nb.render.ticketmap import ticket_map_figure
from ttr_nb.widgets.cardgame import CardEditorView, CardHistoryView, CardPlayView, CardTableView

DATA = load_cards()


def words(tid):
    t = DATA.ticket(tid)
    return f"{t.a}–{t.b}"


def trace(fig, key):
    return next(t for t in fig.data if t.meta == key)


def click(view, keep: int = 1) -> bool:
    """One click of seat 0: keep its first offered tickets, else step 1, else a rail-yard play, else the first
    option. False when nothing is to click."""
    if view._ticket_checks:
        view.keep_tickets(list(view._ticket_checks)[:keep])
        return True
    if not view.options:
        return False
    kinds = [type(a).__name__ for a in view.options]
    pick = next((kinds.index(k) for k in ("MoveToTrack", "PlayYard") if k in kinds), 0)
    view.choose_option(pick)
    return True


def play_human(view, moves=600):
    """Play seat 0 by clicks until the game is over."""
    for _ in range(moves):
        if view.game.is_over or not click(view):
            break


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_views_of_a_card_game_are_its_own(players):
    g = ttr.Game("cardgame", players=players, seed=5)
    assert type(ttr.PlayView(g)) is CardPlayView
    assert type(ttr.TableView(g)) is CardTableView
    assert type(ttr.HistoryView(g)) is CardHistoryView
    assert type(ttr.EditorView(g)) is CardEditorView
    assert type(ttr.PlayView(ttr.Game("usa", players=2, seed=1))).__name__ == "PlayView"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_by_clicks(players):
    view = ttr.PlayView(ttr.Game("cardgame", players=players, seed=7))
    assert "keep at least 1" in view.ticket_box.children[0].value
    play_human(view)
    g = view.game
    assert g.is_over and g.score().winners
    assert any(isinstance(p.action, MoveToTrack) for p in g.history if p.seat == 0)      # step 1 as its own move
    assert (max(p.state.round for p in g.history) == 2) == (players == 4)                # CG-END-4
    assert view.undo() and not g.is_over


def test_step_one_is_its_own_button_and_refusals_cite_the_rule():
    """CG-TURN-1: with cards in the rail yard, a turn starts with step 1 alone (one card of each colour onto the
    on-the-track pile); a refused play names its CG rule."""
    view = CardPlayView(ttr.Game("cardgame", players=2, seed=3))
    for _ in range(100):
        if any(isinstance(a, MoveToTrack) for a in view.options):
            break
        click(view)
    assert [type(a) for a in view.options] == [MoveToTrack]
    assert "on-the-track pile" in view.options_box.children[0].description
    assert view.press("yard loco2") is None and "CG-" in view.message.text


def test_nothing_secret_in_a_players_view_table_figure_or_log():
    g = ttr.Game("cardgame", players=3, seed=11)
    view = CardPlayView(g)
    for _ in range(12):
        click(view, keep=2)
    s = g.state
    assert s.phase in ("play", "last_round") and all(sum(p.track) for p in s.players[1:])
    shown = view.html + view.fig.to_json()
    for seat in (1, 2):
        for tid in s.players[seat].tickets:
            assert words(tid) not in shown, words(tid)
        assert f"{ttr.seat_name(seat)}'s on-the-track pile: {sum(s.players[seat].track)} cards (face down)" in \
            " ".join(trace(view.fig, "track").hovertext)
    assert "<b>Your tickets</b>" in view.tickets.value and "Blue's tickets" not in view.tickets.value
    teacher = CardTableView(g)
    assert all(words(t) in teacher.html for t in s.players[1].tickets)          # the teacher sees everything
    assert "<b>Red's tickets</b>" in teacher.tickets.value and "Your tickets" not in teacher.tickets.value
    teacher.select(2)
    assert not any(words(t) in teacher.html for t in s.players[1].tickets)


def test_a_robbery_is_shown_as_it_happens():
    g = ttr.Game("cardgame", players=3, seed=3)
    g.play_bots(ttr.make_bot("greedy", seed=1))
    ply = next(p.number for p in g.history if any(e.kind == "robbery" for e in p.events))
    hist = CardHistoryView(g, ply=ply)
    robbed = trace(hist.fig, "robbed")
    assert len(robbed.x) == 1 and "robbed (CG-YARD-4)" in robbed.hovertext[0]
    hist.step(1)
    assert not trace(hist.fig, "robbed").x or len(trace(hist.fig, "robbed").x) == 0


def test_end_of_round_offers_the_exact_best_completion():
    view = CardPlayView(ttr.Game("cardgame", players=2, seed=7))
    for _ in range(600):
        if any(isinstance(a, CompleteTicket) for a in view.options) or not click(view, keep=3):
            break
    assert any(isinstance(a, CompleteTicket) for a in view.options)
    best = rules.best_completion(view.game.state, 0, "points")
    text = view.ticket_box.children[0].value
    assert "Best choices (exact)" in text and all(words(t) in text for t in best)


def test_table_figure_and_ticket_map_validate():
    g = ttr.Game("cardgame", players=4, seed=2)
    g.play_bots(ttr.make_bot("greedy", seed=1), max_plies=80)
    for fig in (card_table_figure(g.state, 0), card_table_figure(g.state, None), ticket_map_figure(),
                ticket_map_figure(g.state, 0)):
        go.Figure(fig.to_dict())
    mine = ticket_map_figure(g.state, 0)
    assert trace(mine, "tickets").hovertext and len(trace(mine, "tickets").x) == len(g.state.players[0].tickets)
    big = [t for t, sym in zip(trace(ticket_map_figure(), "cities").text, trace(ticket_map_figure(), "cities").marker.symbol)
           if sym == "star"]
    assert sorted(big) == sorted(b.city for b in DATA.big_cities)


def test_the_tables_names_above_and_below_their_cards_are_never_cut_off():
    """In a play layout on a 1024x768 laptop the table is drawn shorter than its own height, and a name written
    above a card of the top row ("deck 67", the face-up colours) then reaches the plot's edge: such words are drawn
    over the margin, not clipped at the edge."""
    g = ttr.Game("cardgame", players=4, seed=2)
    g.play_bots(ttr.make_bot("greedy", seed=1), max_plies=80)
    fig = card_table_figure(g.state, 0)
    outside = [t for t in fig.data if t.text and (t.textposition or "").split()[0] in ("top", "bottom")]
    assert {t.meta for t in outside} >= {"market", "piles", "yards"}
    assert all(t.cliponaxis is False for t in outside), [t.meta for t in outside if t.cliponaxis is not False]


def test_editor_checks_an_imported_position_and_refuses_bad_input():
    g = ttr.Game("cardgame", players=2, seed=1)
    ed = CardEditorView(g)
    assert ed.is_valid
    doc = json.loads(ed.json_text.value)
    before = ed.state
    assert not ed.import_json("{not json") and ed.state is before
    doc["players"][0]["hand"]["purple"] = doc["players"][0]["hand"].get("purple", 0) + 5   # out of nowhere
    assert ed.import_json(json.dumps(doc)) and not ed.is_valid and ed.play_button.disabled
    assert ed.play_from_here() is None


def test_editor_sets_up_the_rule_books_robbery_by_piles_and_keeps_every_card_accounted_for():
    from ttr_nb.cardgame.positions import card_position
    ed = CardEditorView(card_position(2, seed=1))
    total = len(ed.state.deck)
    # the rule book's example: John (Red) has played 1 blue, 1 red and 1 yellow into his rail yard; Rolf (Blue) plays
    # 3 blue, and John discards his blue card
    for colour in ("blue", "red", "yellow"):
        assert ed.set_pile(1, "rail yard", colour, 1)
    assert ed.set_pile(0, "hand", "blue", 3)
    assert ed.set_pile(0, "on the track", "locomotive", 2)
    assert ed.is_valid and len(ed.state.deck) == total - 8          # every card came out of the deck
    assert ed.state.players[1].stack(1) == 1 and ed.state.players[0].hand[1] == 3
    assert ed.state.players[0].track[8] == 2
    shown = html.unescape(ed.hand.value)                            # the editor shows every hand and pile
    assert "Blue's hand" in shown and "Red's hand" in shown and "on the track: 2 locomotive" in shown
    game = ed.play_from_here()
    after = game.push("yard blue3")
    assert any(e.rule == "CG-YARD-4" for e in after.events) and game.state.players[1].stack(1) == 0
    red, yellow = (ttr.CARD_NAMES.index(c) for c in ("red", "yellow"))
    assert game.state.players[1].stack(red) == game.state.players[1].stack(yellow) == 1    # only the blue goes
    # taking cards away puts them back under the deck
    assert ed.set_pile(0, "on the track", "locomotive", 0) and len(ed.state.deck) == total - 6 and ed.is_valid
    # the widgets do the same as the calls
    ed.seat_pick.value, ed.pile_pick.value, ed.card_pick.value = 1, "rail yard", "blue"
    assert ed.count_box.value == 1 and not ed.locos_box.disabled    # the boxes show what the pile holds
    ed.count_box.value, ed.locos_box.value = 2, 1
    ed._from_widgets()
    assert (ed.state.players[1].yard[1], ed.state.players[1].yard_locos[1]) == (2, 1) and ed.is_valid


def test_editor_refuses_impossible_piles_and_tickets_and_changes_nothing():
    from ttr_nb.cardgame.positions import card_position
    ed = CardEditorView(card_position(3, seed=2))
    before = ed.state
    for call, says in ((lambda: ed.set_pile(0, "hand", "purple", 40), "the deck holds only"),
                       (lambda: ed.set_pile(0, "rail yard", "locomotive", 2), "CG-YARD-2"),
                       (lambda: ed.set_pile(0, "hand", "red", 1, locomotives=1), "only a rail-yard stack"),
                       (lambda: ed.set_pile(5, "hand", "red", 1), "no seat 5"),
                       (lambda: ed.set_pile(0, "pocket", "red", 1), "no pile 'pocket'"),
                       (lambda: ed.set_pile(0, "hand", "gold", 1), "'gold' is not a card"),
                       (lambda: ed.set_pile(0, "hand", "red", -1), "not a number of cards"),
                       (lambda: ed.set_tickets(0, ["Atlantis–Miami"]), "Atlantis"),
                       (lambda: ed.set_tickets(0, ["Chicago–New York"]), "say which")):
        assert call() is False and ed.state is before, says
        said = html.unescape(ed.message.widget.value)
        assert says in said and "nothing changed" in said
    mine = ed.state.ticket_deck[:2]
    assert ed.set_tickets(0, [words(t) if "#" not in ttr.ticket_names("cardgame", [t]) else t for t in mine])
    kept = ed.state
    assert not ed.set_tickets(1, [mine[0]]) and ed.state is kept
    assert "Blue has it already" in html.unescape(ed.message.widget.value)
    assert ed.set_tickets(0, []) and ed.state.ticket_deck[-2:] == mine and ed.is_valid   # back under the deck
    ed.json_text.value = '{"typed": "by the user"}'                  # typed, not imported: never overwritten
    assert ed.set_pile(0, "hand", "red", 1) and ed.json_text.value == '{"typed": "by the user"}'
    said = html.unescape(ed.message.widget.value)
    assert "Blue's hand: 1 red" in said and "keeps the text you typed" in said     # both said, the edit done
    assert ed.import_json(json.dumps(ed.state.to_dict()))                         # an import is not "typed"
    assert json.loads(ed.json_text.value) == ed.state.to_dict() and "keeps" not in ed.message.widget.value


def test_a_ticket_keep_is_said_once_and_the_returned_tickets_only_to_their_owner():
    g = ttr.Game("cardgame", players=3, seed=2)
    g.play_bots({s: ttr.make_bot("greedy", seed=s) for s in range(3)}, max_plies=3)
    for ply in g.line[:3]:
        public = [str(e) for e in ply.events_for((ply.seat + 1) % 3)]
        own = [str(e) for e in ply.events_for(ply.seat)]
        assert "keeps" not in " ".join(public) and "kept" not in " ".join(public)      # the move's words say it
        assert any(re.match(rf"{ttr.seat_name(ply.seat)} returned \d tickets?, to be shuffled into the ticket deck", e)
                   for e in public)
        assert any(e.startswith("You returned ") and "–" in e for e in own)             # by name, to the owner


@pytest.mark.parametrize("seed", range(6))
def test_card_game_exercises(seed):
    a, b = CanPlayYard(seed=seed), BestCompletion(seed=seed)
    assert a.check(a.solution()) and not a.check(not a.solution())
    assert b.check(b.solution())
    assert not b.check(b.solution().split(", ")[0]) or len(b.best) == 1


def test_card_game_exercises_speak_plainly():
    """A robbery beats a stack (singular), completion is CG-END-2 (CG-END-3 is the end of a 2-3 player game), and two
    tickets joining the same cities are told apart by the colours they need."""
    robbing = next(ex for ex in (CanPlayYard(seed=s) for s in range(40))
                   if ex.solution() and any(q.stack(next(k for k, _ in ex.payment if k != ttr.LOCO))
                                            for i, q in enumerate(ex.state.players) if i != ex.seat))
    said = robbing.check("yes").explanation
    assert re.search(r"'s stack of \d+ \w+ is beaten by \d+ and discarded", said) and " are beaten" not in said
    # the first seed whose best set holds two tickets joining the same cities
    ex = next(e for e in (BestCompletion(seed=s) for s in range(13, 80)) if "(" in e.solution())
    fb = ex.check(ex.solution())
    assert fb and fb.rules == ("CG-END-2",) and "CG-END-3" not in fb.explanation
    names = ex.solution().split(", ")
    told = [n for n in names if "(" in n]            # e.g. "Chicago–New York (1 yellow)", "New York–Chicago (1 blue)"
    assert len(told) >= 2 and all(re.fullmatch(r"[^()]+–[^()]+ \(\d+ \w+( \+ \d+ \w+)*\)", n) for n in told)
    assert ex.check([n for n in names if n != told[-1]]).ok is False
    assert ex.check(re.sub(r" \([^)]*\)", "", ex.solution()))   # either order still reads
    assert "add the colours they need" in str(ex.prompt())


def test_card_game_exercises_are_registered_and_refuse_other_games():
    assert isinstance(make_exercise("can_play_yard", 1), CanPlayYard)
    assert isinstance(make_exercise("best_completion", 1), BestCompletion)
    with pytest.raises(TTRError):
        CanPlayYard(seed=1, variant="usa")
