"""The engine's and the command line's words (issue 17, item 4): articles and plurals right, South Korea's cards
called one thing everywhere, refusals that name the option a learner missed."""
from __future__ import annotations

import io
import re

from ttr_nb import Game
from ttr_nb.bots import make_bot
from ttr_nb.cardgame import engine as cg
from ttr_nb.board.cards import CARD_NAMES, LOCO, LOCO4, PASSENGER, a_card
from ttr_nb.cli import main
from ttr_nb.board.engine import describe, legal_actions, step, turn_status
from ttr_nb.board.positions import position
from ttr_nb.board.state import replace_fields
from ttr_nb.variants import get_variant, step_words

ORANGE = CARD_NAMES.index("orange")


def test_a_card_has_the_right_article():
    assert a_card(ORANGE) == "an orange card"
    assert a_card(CARD_NAMES.index("red")) == "a red card"
    assert a_card(LOCO) == "a locomotive"
    assert a_card(LOCO4) == "a +4 locomotive"          # never the action notation "locoplus"
    assert a_card(PASSENGER) == "a passenger card"


def test_a_blind_draw_of_an_orange_card_says_an_orange_card():
    s = position("usa", players=2, deck_top=["orange"])
    _, events = step(s, "draw deck")
    (e,) = [e for e in events if e.kind == "deck_card"]
    assert e.text_for(0) == "You drew an orange card from the deck"
    assert e.text_for(None) == "Blue drew an orange card from the deck"
    assert e.text_for(1) == "Blue drew a card from the deck"
    mk = position("maerklin", players=2, deck_top=["locoplus"])
    (e,) = [e for e in step(mk, "draw deck")[1] if e.kind == "deck_card"]
    assert e.text_for(0) == "You drew a +4 locomotive from the deck"


def test_the_card_games_blind_draw_and_track_step_say_an_orange_card():
    g = Game("cardgame", 2, 3)
    g.play_bots(make_bot("greedy", seed=1), until_seat=None, max_plies=2)     # both keep their tickets
    s = g.state
    deck = list(s.deck)
    i = deck.index(ORANGE)
    deck[0], deck[i] = deck[i], deck[0]
    s = replace_fields(s, deck=tuple(deck))
    seat = s.current
    _, events = cg.step(s, "draw deck")
    (e,) = [e for e in events if e.kind == "deck_card"]
    assert e.text_for(seat) == "You drew an orange card from the deck"


def test_the_command_line_says_1_point_not_1_points():
    out, err = io.StringIO(), io.StringIO()
    assert main(["play", "maerklin", "--players", "2", "--seed", "1"], out=out, err=err) == 0
    text = out.getvalue()
    assert "for 1 point (" in text                      # a bot claims a 1-space route in this seeded game
    assert not re.search(r"\b1 points\b", text)
    assert not re.search(r"\ba (orange|locomotive \+4|\+4)", text)


def test_south_korea_calls_its_destination_cards_tickets_everywhere():
    """The Danish book's 'rutekort' are tickets in every word a player reads outside the notebooks: statuses,
    step names, descriptions of every legal action (the draft included), moves and events of a whole game."""
    v = get_variant("south_korea")
    g = Game("south_korea", 3, 5)
    seen = []
    for f in v.features:
        seen += list(getattr(f, "step_words", {}).values()) + [getattr(f, "setup_words", ""), f.__doc__ or ""]
    seen += [step_words(v, k) for f in v.features for k in f.pending_kinds]
    bots = [make_bot("greedy", seed=s) for s in range(3)]
    while not g.is_over and g.ply < 120:
        s = g.state
        seen.append(turn_status(s))
        seen += [turn_status(s, seat) for seat in range(3)]
        seen += [describe(s, a) for a in legal_actions(s)[:40]]
        seat = g.to_move()[0]
        action, reason = bots[seat].choose(s, seat)
        seen.append(str(reason))
        ply = g.push(action)
        seen += [ply.words] + ply.events_for(None) + ply.events_for(seat)
    text = "\n".join(seen)
    assert "ticket" in text and "draft" in text
    assert "route card" not in text.lower() and "route-card" not in text.lower()
    assert "rutekort" not in text.lower()
