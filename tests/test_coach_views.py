"""The coach in the views (issue 19 item 4): the hint button with the ticket odds, the game review. What the panels
show comes from the seat's view only (changing what the seat cannot see gives the same words), a hint goes when
the position or the seat at the screen changes, thinking shows progress, a review jumps to the positions."""
from __future__ import annotations

import random
import re
from functools import lru_cache

import pytest

from ttr_nb import Game, determinize, make_bot
from ttr_nb.bots import GreedyBot
from ttr_nb.board.engine import to_move
from ttr_nb.widgets.coachpanel import HINT_WORDS, REVIEW_WORDS, CoachPanel, ReviewPanel, progress_html

GAMES = ["usa", "cardgame"]


@lru_cache(maxsize=None)
def midgame(game: str, plies: int = 40) -> Game:
    g = Game(game, players=2, seed=8)
    g.play_bots({s: GreedyBot(s) for s in range(2)}, max_plies=plies)
    return g


class Spot:
    """A position and the seat at the screen, as a view would give them."""

    def __init__(self, state, seat):
        self.state, self.seat = state, seat
        self.routes: list = []
        self.said: list[str] = []

    def __call__(self):
        return self.state, self.seat


def panel_for(spot: Spot, playouts: int = 24) -> CoachPanel:
    return CoachPanel(spot, on_route=spot.routes.append, on_said=spot.said.append, playouts=playouts, seed=1)


def _lead_words(margin: float) -> str:
    n = round(abs(margin))
    return "level with" if not n else f"{n} point{'s' if n != 1 else ''} {'ahead of' if margin > 0 else 'behind'}"


@pytest.mark.parametrize("game", GAMES)
def test_hint_shows_three_moves_with_chances_and_reasons_and_the_ticket_odds(game):
    s = midgame(game).state
    seat = to_move(s)[0]
    spot = Spot(s, seat)
    panel = panel_for(spot)
    assert panel.button.description == HINT_WORDS and not panel.button.disabled
    h = panel.ask()
    assert h is not None and 1 <= len(h.moves) <= 3
    out = panel.output.value
    for a in h.moves:
        assert a.words in out.replace("&#x27;", "'") and f"{round(100 * a.win)}%" in out
    # the order is the search's (chance and lead together): each move says its lead, and the note says so
    leads = re.findall(r"chance to win, (\d+ points? (?:ahead of|behind)|level with) the best other player", out)
    assert leads == [_lead_words(a.margin) for a in h.moves], (leads, [a.margin for a in h.moves])
    assert "Ranked by the chance to win and the lead together" in out
    assert "to complete" in out or "joined already" in out
    assert panel.progress.value == "" and not panel.button.disabled          # thinking is over
    assert spot.said and spot.said[-1].startswith("The coach suggests: " + h.moves[0].words)
    assert spot.routes == [h.route]
    if game == "cardgame":
        assert h.route is None


@pytest.mark.parametrize("game", GAMES)
def test_hint_is_the_same_when_what_the_seat_cannot_see_changes(game):
    s = midgame(game).state
    seat = to_move(s)[0]
    first = panel_for(Spot(s, seat))
    first.ask()
    other = determinize(s, seat, random.Random("another deal of the hidden cards"))
    assert other != s
    again = panel_for(Spot(other, seat))
    again.ask()
    cpu = re.compile(r" in [0-9.]+ s of thinking")        # the CPU time it took is all that may differ
    assert cpu.search(first.output.value)
    assert cpu.sub("", again.output.value) == cpu.sub("", first.output.value)


def test_hint_goes_when_the_position_or_the_seat_at_the_screen_changes():
    g = midgame("usa")
    s = g.state
    seat = to_move(s)[0]
    spot = Spot(s, seat)
    panel = panel_for(spot)
    panel.ask()
    panel.sync()                                    # nothing changed: the hint stays
    assert panel.output.value and panel.shown_for == (s, seat)
    spot.seat = None                                # a hot seat's hand-over: nobody's secrets on the screen
    panel.sync()
    assert panel.output.value == "" and panel.hint is None and panel.button.disabled
    assert spot.routes[-1] is None                  # the drawn claim goes too
    spot.seat = seat
    panel.sync()
    assert not panel.button.disabled
    panel.ask()
    spot.state = g.state_at(g.ply - 1)              # another position (undo)
    panel.sync()
    assert panel.output.value == ""


def test_hint_for_nobody_says_whom_the_coach_helps_and_thinks_not():
    s = midgame("usa").state
    seat = to_move(s)[0]
    for who in (None, 1 - seat):                    # nobody at the screen; a seat that is not to move
        spot = Spot(s, who)
        panel = panel_for(spot)
        panel.sync()
        assert panel.button.disabled
        assert panel.ask() is None and "whose move it is" in panel.output.value and spot.routes == []


def test_thinking_shows_a_progress_bar_with_a_name():
    s = midgame("usa").state
    seat = to_move(s)[0]
    panel = panel_for(Spot(s, seat))
    shown = []
    panel.progress.observe(lambda c: shown.append(c["new"]), names="value")
    panel.ask()
    bars = [v for v in shown if v]
    assert bars and all("<progress" in v and "aria-label='the coach is thinking'" in v for v in bars)
    assert len(bars) <= 22 and shown[-1] == ""      # a few messages to the browser, and it goes away
    assert progress_html(None, "x") == "" and "value='100'" in progress_html(1.5, "x")


@lru_cache(maxsize=None)
def finished(game: str = "usa") -> Game:
    g = Game(game, players=2, seed=5)
    g.play_bots({0: make_bot("one_step", 1), 1: GreedyBot(2)})
    return g


def test_review_lists_the_costliest_moves_and_shows_their_positions():
    g = finished()
    shown = []
    panel = ReviewPanel(g, on_show=shown.append, playouts=8, seed=0)
    assert panel.button.description == REVIEW_WORDS and not panel.button.disabled
    assert panel.who.layout.display == ""          # the teacher's view chooses whose moves
    panel.who.value = 0
    items = panel.run()
    assert items and len(items) <= 3 and len(panel.items_box.children) == len(items)
    assert all(it.z >= 2 for it in items)                # only losses clear of chance are shown
    assert "Blue" in panel.output.value and "costliest" in panel.output.value
    go = panel.items_box.children[0].children[0]
    assert go.description == f"show move {items[0].ply}"
    assert f"(move {items[0].ply}):" in panel.items_box.children[0].children[1].value       # the slider's number
    go.click()
    assert shown == [items[0].ply - 1]              # the position before the move
    assert panel.progress.value == "" and not panel.button.disabled


def test_review_waits_for_the_end_of_the_game_and_a_seats_view_reviews_that_seat():
    g = midgame("usa", 30)
    panel = ReviewPanel(g, seat=1, playouts=4)
    assert panel.button.disabled and "once it is over" in panel.button.tooltip
    assert panel.run() == [] and "once it is over" in panel.output.value
    done = ReviewPanel(finished(), seat=1, playouts=4)
    assert done.who.layout.display == "none" and done.who.value == 1


@pytest.mark.parametrize("game,first", [("usa", "one_step"), ("cardgame", "mixed:0.5")])
def test_history_views_have_the_review_once_the_game_is_over(game, first):
    from ttr_nb.widgets import HistoryView
    g = Game(game, players=2, seed=5)
    g.play_bots({0: make_bot(first, 1), 1: GreedyBot(2)}, max_plies=20)
    early = HistoryView(g, seat=0)
    assert early.review.button.disabled                  # not before the end of the game
    g.play_bots({0: make_bot(first, 1), 1: GreedyBot(2)})
    view = HistoryView(g, seat=0, ply=0)
    assert not view.review.button.disabled and view.review.widget in view.widget.children
    view.review.show(6)                                  # a review item's button: the position before move 6
    assert view.shown_ply == 5


def test_review_budget_is_smaller_for_the_card_game_and_in_the_browser(monkeypatch):
    import sys
    from ttr_nb.widgets.coachpanel import review_budget
    usa, cards = midgame("usa").start, midgame("cardgame").start
    assert review_budget(usa)[0] > review_budget(cards)[0]
    kernel = review_budget(usa)[0]
    monkeypatch.setattr(sys, "platform", "emscripten")
    n, note = review_budget(usa)
    assert n < kernel and "browser" in note


CPU = re.compile(r" in [0-9.]+ s of thinking")


@pytest.mark.parametrize("game", GAMES)
def test_play_views_hint_from_the_seat_at_the_screen_only(game):
    """PlayView and the Card Game's view: the coach's button answers from the seat's view (a game that differs only
    in what the seat cannot see gets the same hint), draws the best claim, says it, and the hint goes with the next
    move."""
    from ttr_nb.widgets import PlayView
    s = midgame(game).state
    seat = to_move(s)[0]
    shown = []
    for start in (s, determinize(s, seat, random.Random("hidden"))):
        view = PlayView(Game(start=start), human_seats=(seat,), auto_bots=False)
        view.coach.playouts, view.coach.seed = 24, 1
        assert not view.coach.button.disabled and view.coach.button.description == "coach: best moves"
        h = view.coach.ask()
        assert h is not None and view.message.text.startswith("The coach suggests: " + h.moves[0].words)
        shown.append(CPU.sub("", view.coach.output.value))
    assert shown[0] == shown[1] and shown[0]
    if game == "usa":
        assert view._hint_trail == ((h.route,) if h.route else ())
        view.draw_deck()
    else:
        view.choose_option(0)
    assert view.game.state is not start
    assert view.coach.output.value == "" and view.coach.hint is None
    if game == "usa":
        assert view._hint_trail == ()


def test_hot_seat_never_shows_a_hint_behind_the_hand_over():
    from ttr_nb.widgets import PlayView
    view = PlayView(Game("usa", players=2, seed=3), human_seats=(0, 1))
    view.coach.playouts = 12
    assert view.handover.up and view.coach.button.disabled
    assert view.coach.ask() is None and view.coach.hint is None
    assert view.ready() == 0 and not view.coach.button.disabled
    assert view.coach.ask() is not None and "Blue" in view.coach.output.value
    view.keep_tickets(0, view.offered(0)[:2])           # Blue is done: the screen goes to Red behind a hand-over
    assert view.handover.up and view.handover.waiting_for == 1
    assert view.coach.output.value == "" and view.coach.button.disabled
    assert view.ready() == 1
    assert view.coach.output.value == "" and not view.coach.button.disabled   # Red asks for its own hint
    cards = PlayView(Game("cardgame", players=2, seed=3), human_seats=(0, 1))      # the Card Game's view alike
    assert cards.handover.up and cards.coach.button.disabled and cards.coach.ask() is None
    assert cards.ready() == 0 and not cards.coach.button.disabled
