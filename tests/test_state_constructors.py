"""The engine's per-ply constructors (board.state.new_state/new_player/new_pending) make the frozen classes
themselves: equal, hashed and frozen like the dataclasses' own construction, of exactly that class."""
from __future__ import annotations

import dataclasses

import pytest

from ttr_nb.board.actions import draw_tickets_action
from ttr_nb.board.engine import apply, legal_actions, new_game
from ttr_nb.board.state import GameState, Pending, PlayerState, new_pending, new_player, new_state


def test_new_pending_is_the_frozen_pending():
    data = (("min_keep", 1), ("offered", ("T01", "T02", "T03")), ("returns", "bottom"))
    made = new_pending("choose_tickets", 2, data)
    assert type(made) is Pending and made == Pending("choose_tickets", 2, data)
    assert hash(made) == hash(Pending("choose_tickets", 2, data)) and made.get("min_keep") == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.seat = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made.kind


def test_a_quick_ticket_draw_offers_a_frozen_pending():
    s = new_game("usa", 2, 3)
    while s.phase == "setup":
        s = apply(s, legal_actions(s)[0])         # every seat keeps all its offered tickets
    s = apply(s, draw_tickets_action(s.current))  # (engine._quick_tickets)
    p = s.pending[0]
    assert type(p) is Pending and p.kind == "choose_tickets" and len(p.get("offered")) == 3
    assert GameState.from_dict(s.to_dict()) == s


def test_new_state_and_new_player_are_the_frozen_classes():
    s = new_game("usa", 4, 1)
    made = new_state(*[getattr(s, f.name) for f in dataclasses.fields(GameState)])
    player = new_player(*[getattr(s.players[0], f.name) for f in dataclasses.fields(PlayerState)])
    assert type(made) is GameState and type(player) is PlayerState
    assert made == s and hash(made.players) == hash(s.players) and player == s.players[0]
    for obj, name in ((made, "ply"), (player, "trains")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, 0)
