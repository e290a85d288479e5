"""determinize(state, seat, rng) for every game: the seat's view is kept (``observe`` equal), everything is accounted
for (``validate`` clean), what the seat cannot see is re-dealt, and the result depends on the seat's view and the rng
alone (two states that differ only in hidden information give the same result)."""
from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache

import pytest

from ttr_nb import determinize, new_game, observe, validate
from ttr_nb.bots import GreedyBot
from ttr_nb.board.engine import apply, to_move
from ttr_nb.errors import TTRError

GAMES = [("usa", 2), ("usa", 4), ("europe", 3), ("maerklin", 2), ("south_korea", 3), ("cardgame", 2), ("cardgame", 4)]


@lru_cache(maxsize=None)
def positions(game: str, players: int) -> tuple:
    """States of one greedy game: every 9th ply, the first state of every pending step kind (a tunnel, a draft
    pick, a journey, a rail-yard step, the end-of-round completion ...) and the end."""
    s = new_game(game, players, 4)
    bots = [GreedyBot(i) for i in range(players)]
    out, kinds = [s], set()
    while s.phase != "over":
        seat = to_move(s)[0]
        s = apply(s, bots[seat].choose(s, seat)[0])
        new = {p.kind for p in s.pending} - kinds
        if new or s.ply % 9 == 0:
            kinds |= new
            out.append(s)
    out.append(s)
    return tuple(out)


@pytest.mark.parametrize("game,players", GAMES)
def test_determinize_keeps_the_view_and_accounts_for_every_card_and_ticket(game, players):
    changed = 0
    for k, s in enumerate(positions(game, players)):
        for seat in range(players):
            d = determinize(s, seat, random.Random(k * 10 + seat))
            assert validate(d) == [], (game, s.ply, seat)
            assert observe(d, seat) == observe(s, seat), (game, s.ply, seat)
            mine = observe(s, seat)["players"][seat] if game == "cardgame" else {}
            if game == "cardgame" and "track" not in mine:       # CG-AREA-1: the owner's pile is secret too
                assert replace(d.players[seat], track=s.players[seat].track) == s.players[seat]
                assert sum(d.players[seat].track) == sum(s.players[seat].track)
            else:
                assert d.players[seat] == s.players[seat]
            changed += d != s
    assert changed > len(positions(game, players))        # the hidden part really is re-dealt


@pytest.mark.parametrize("game,players", GAMES)
def test_determinize_is_a_function_of_the_seats_view_and_the_rng(game, players):
    for k, s in enumerate(positions(game, players)):
        for seat in range(players):
            other = determinize(s, seat, random.Random(f"other/{k}"))      # same view, other hidden cards
            shuffled = replace(s, deck=tuple(reversed(s.deck)), seed=(s.seed + 1) % 2**62)
            a = determinize(s, seat, random.Random(7))
            assert determinize(other, seat, random.Random(7)) == a, (game, s.ply, seat)
            assert determinize(shuffled, seat, random.Random(7)) == a, (game, s.ply, seat)
            assert determinize(s, seat, 7) == determinize(other, seat, 7)      # a whole-number seed works too


@pytest.mark.parametrize("game,players", [("usa", 2), ("cardgame", 2)])
def test_determinize_redeals_the_other_hands_and_tickets(game, players):
    s = positions(game, players)[3]
    hands = {determinize(s, 0, random.Random(i)).players[1].hand for i in range(12)}
    tickets = {determinize(s, 0, random.Random(i)).players[1].tickets for i in range(12)}
    assert len(hands) > 1 and len(tickets) > 1


def test_determinize_weights_bias_the_other_hands():
    s = positions("usa", 2)[4]
    hidden = [t for t in s.ticket_decks[0][1]][:3]
    weights = {1: {t: 1000.0 for t in hidden}}
    hits = sum(any(t in hidden for t in determinize(s, 0, random.Random(i), ticket_weights=weights).players[1].tickets)
               for i in range(10))
    assert hits == 10


def test_determinize_cg_area_1_keeps_the_owners_pile_only_when_the_owner_may_see_it():
    s = next(p for p in positions("cardgame", 2) if p.phase == "play" and sum(p.players[0].track) >= 3)
    kept = {determinize(replace(s, see_own_track=True), 0, random.Random(i)).players[0].track for i in range(8)}
    redealt = {determinize(s, 0, random.Random(i)).players[0].track for i in range(8)}
    assert kept == {s.players[0].track}                   # the young players' option: the owner looks at it
    assert len(redealt) > 1                               # the book: secret from its owner too, so guessed


@pytest.mark.parametrize("seat,rng", [(5, 0), (-1, 0), (True, 0), (0, 1.5), (0, None)])
def test_determinize_refuses_bad_input_clearly(seat, rng):
    s = new_game("usa", 2, 1)
    with pytest.raises(TTRError):
        determinize(s, seat, rng)
