"""The Card Game's fast paths agree with the plain rules: the quick check (``engine._QUICK_CHECK``) accepts exactly
what ``check``'s full path returns unchanged, the spelled-out constructors build the dataclasses' values, and the
random bot's picks by index are the picks from the full lists."""
from __future__ import annotations

from dataclasses import fields
from itertools import combinations

import pytest

from ttr_nb.board.actions import DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass
from ttr_nb.cardgame import engine as eng
from ttr_nb.cardgame.actions import CompleteTicket, MoveToTrack, PlayYard
from ttr_nb.cardgame.bots import GreedyBot, RandomBot
from ttr_nb.cardgame.data import load_cards
from ttr_nb.cardgame.state import CardPlayer, CardState, new_card_player, new_card_state
from ttr_nb.board.cards import LOCO
from ttr_nb.errors import TTRError


def positions(players: int, seed: int, every: int = 1):
    """Every ``every``-th position of a game with random and greedy bots (a mix reaches every phase)."""
    bots = [(RandomBot if i % 2 else GreedyBot)(seed * 10 + i) for i in range(players)]
    s = eng.new_game("cardgame", players, seed)
    while s.phase != "over":
        if s.ply % every == 0:
            yield s
        seat = eng.to_move(s)[0]
        s = eng.apply(s, bots[seat].choose(s, seat)[0])
    yield s


def full_check(state, action):
    """``check`` without its quick path: (action, seat), or the exception it raises."""
    saved = eng._QUICK_CHECK
    eng._QUICK_CHECK = {}
    try:
        return eng.check(state, action)
    except TTRError as e:
        return e
    finally:
        eng._QUICK_CHECK = saved


def candidates(state: CardState, seat: int):
    """Legal and refused actions of every kind the quick check knows, canonical and not."""
    data = load_cards()
    yield MoveToTrack(seat=seat)
    yield DrawDeck(seat=seat)
    yield DrawTickets(seat=seat)
    for slot in range(0, 7):
        yield DrawFaceUp(slot=slot, seat=seat)
    for c in range(LOCO):
        for k in (1, 2, 3):
            for n_loco in (0, 1, 2):
                if n_loco:
                    yield PlayYard(payment=((c, k), (LOCO, n_loco)), seat=seat)
                    yield PlayYard(payment=((LOCO, n_loco), (c, k)), seat=seat)      # not in kind order
                else:
                    yield PlayYard(payment=((c, k),), seat=seat)
    for combo in combinations(range(LOCO), 3):
        yield PlayYard(payment=tuple((c, 1) for c in combo), seat=seat)
    yield PlayYard(payment=((0, 1), (1, 1)), seat=seat)
    yield PlayYard(payment=((0, 1), (1, 1), (2, 2)), seat=seat)
    yield PlayYard(payment=((LOCO, 2),), seat=seat)
    yield PlayYard(payment=(), seat=seat)
    pending = state.pending_for(seat)
    if pending is not None and pending.kind == "choose_tickets":
        names = [data.ticket_text(t) for t in pending.get("offered")]
        for size in range(len(names) + 1):
            for combo in combinations(names, size):
                yield KeepTickets(tickets=combo, seat=seat)
                yield KeepTickets(tickets=combo[::-1], seat=seat)
        yield KeepTickets(tickets=tuple(pending.get("offered")), seat=seat)            # by id: not canonical
        yield KeepTickets(tickets=(names[0], names[0]), seat=seat)
    for t in state.players[seat].tickets[:8] + ("T01", "T46"):
        yield CompleteTicket(ticket=data.ticket_text(t), seat=seat)
        yield CompleteTicket(ticket=t, seat=seat)
    yield CompleteTicket(seat=seat)


@pytest.mark.parametrize("players,seed", [(2, 3), (4, 5)])
def test_quick_check_accepts_exactly_what_the_full_check_returns_unchanged(players, seed):
    tried = accepted = 0
    for s in positions(players, seed, every=5):
        seats = set(eng.to_move(s)) | {(s.current + 1) % players}
        for seat in sorted(seats):
            for a in candidates(s, seat):
                quick = eng._QUICK_CHECK[a.__class__](s, a, seat) if s.phase != "over" else False
                full = full_check(s, a)
                unchanged = isinstance(full, tuple) and full[0] == a and full[1] == seat
                assert quick == unchanged, (s.ply, s.phase, str(a), full)
                assert eng.check(s, a) == full if unchanged else True
                tried += 1
                accepted += quick
    assert accepted > 300 and tried > 10 * accepted


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (4, 13)])
def test_every_listed_action_takes_the_quick_check(players, seed):
    for s in positions(players, seed):
        for a in eng.legal_actions(s):
            if isinstance(a, Pass):
                continue
            assert eng._QUICK_CHECK[a.__class__](s, a, a.seat), (s.ply, str(a))
            assert full_check(s, a) == (a, a.seat)


def test_the_spelled_out_constructors_agree_with_the_classes():
    s = list(positions(4, 2, every=40))[-2]
    values = [getattr(s, f.name) for f in fields(CardState)]
    built = new_card_state(*values)
    assert type(built) is CardState and built == CardState(*values) and hash(built) == hash(CardState(*values))
    p = s.players[1]
    pv = [getattr(p, f.name) for f in fields(CardPlayer)]
    assert new_card_player(*pv) == CardPlayer(*pv) and type(new_card_player(*pv)) is CardPlayer
    with pytest.raises(AttributeError):
        built.ply = 3                                   # still frozen


@pytest.mark.parametrize("players,seed", [(2, 21), (4, 22)])
def test_the_random_bot_picks_by_index_from_the_full_lists(players, seed):
    """draw_at/draw_count, YardPlan.at/count and keep_at/keep_count (what the random bot makes) are the entries
    and lengths of the lists legal_actions gives, at every position of a game."""
    plans = 0
    for s in positions(players, seed):
        for seat in range(players):
            plan = eng.YardPlan(s, seat)
            plays = eng.yard_plays(s, seat)
            assert plan.count == len(plays) and [plan.at(i) for i in range(plan.count)] == plays
            plans += bool(plays)
            for second in (False, True):
                draws = eng.draw_actions(s, seat, second)
                assert eng.draw_count(s, second) == len(draws)
                assert [eng.draw_at(s, seat, second, i) for i in range(len(draws))] == draws
        for p in s.pending:
            if p.kind == "choose_tickets":
                keeps = eng.legal_actions(s, p.seat)
                offered = len(p.get("offered"))
                assert eng.keep_count(offered, min(p.get("min_keep"), offered)) == len(keeps)
                assert [eng.keep_at(s, p, i) for i in range(len(keeps))] == keeps
    assert plans > 50
