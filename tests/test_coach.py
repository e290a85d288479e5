"""The coach (ttr_nb.coach): deterministic with a playout budget, blind to what its seat cannot see, a reason for
every move it ranks, ticket odds, a review of a game, make_bot("coach"), and the four playing styles."""
from __future__ import annotations

import random
import re
from functools import lru_cache

import pytest

from ttr_nb import Game, determinize, make_bot
from ttr_nb.bots import GreedyBot
from ttr_nb.coach import CoachBot, advise, review, ticket_odds
from ttr_nb.coach.styles import STYLES
from ttr_nb.board.engine import apply, legal_actions, to_move
from ttr_nb.errors import TTRError
from purity import run_blocked

GAMES = ["usa", "europe", "maerklin", "south_korea", "cardgame"]
TICKET_ID = re.compile(r"\bT\d{2,3}\b|\bR\d{3}\b")


@lru_cache(maxsize=None)
def midgame(game: str, plies: int = 40, players: int = 2) -> Game:
    g = Game(game, players=players, seed=8)
    g.play_bots({s: GreedyBot(s) for s in range(players)}, max_plies=plies)
    return g


def _ticket_words(state, tid: str) -> str:
    from ttr_nb.cardgame.data import load_cards
    from ttr_nb.board.names import ticket_text
    from ttr_nb.variants import get_game
    game = get_game(state.variant)
    return ticket_text(game.map if hasattr(game, "map") else load_cards(), tid)


def _summary(advice):
    return [(str(a.action), round(a.win, 6), round(a.margin, 6), a.why, a.playouts) for a in advice]


@pytest.mark.parametrize("game", GAMES)
def test_advice_is_deterministic_and_blind_to_what_the_seat_cannot_see(game):
    s = midgame(game).state
    seat = to_move(s)[0]
    first = _summary(advise(s, seat, playouts=16, seed=3))
    assert _summary(advise(s, seat, playouts=16, seed=3)) == first
    for k in range(2):        # the other hands and tickets, the deck orders and the seed re-dealt: the same advice
        other = determinize(s, seat, random.Random(f"hidden/{k}"))
        assert other != s
        assert _summary(advise(other, seat, playouts=16, seed=3)) == first


@pytest.mark.parametrize("game", GAMES)
def test_every_ranked_move_is_legal_and_has_a_reason_in_words(game):
    s = midgame(game, 30).state
    seat = to_move(s)[0]
    advice = advise(s, seat, playouts=20, seed=1)
    legal = legal_actions(s, seat)
    assert advice and sum(a.chosen for a in advice) == 1 and advice.chosen.chosen
    assert [a.win + a.margin / 40 for a in advice] == sorted((a.win + a.margin / 40 for a in advice), reverse=True)
    for a in advice:
        assert a.action in legal
        assert 0.0 <= a.win <= 1.0 and a.playouts >= 1
        assert a.why and a.why[0].isupper() and a.why.endswith(".") and "\n" not in a.why
        assert not TICKET_ID.search(a.why) and not TICKET_ID.search(a.words), a.why
        assert str(a).startswith(a.words)


def test_advice_at_the_start_compares_the_ticket_choices():
    g = Game("usa", players=2, seed=2)
    advice = advise(g.state, 0, playouts=40, seed=0)
    assert all(type(a.action).__name__ == "KeepTickets" for a in advice)
    assert len(advice) == len(legal_actions(g.state, 0))           # keep all 3, or any 2 of them
    assert all("points" in a.why for a in advice)


def test_advise_takes_a_game_and_refuses_bad_budgets_and_seats():
    g = midgame("usa")
    assert advise(g, playouts=8)[0].action in g.legal_actions()
    for bad in (dict(playouts=0), dict(playouts=2.5), dict(seconds=0), dict(seconds="1"), dict(playouts=True)):
        with pytest.raises(TTRError):
            advise(g, **bad)
    with pytest.raises(TTRError):
        advise(g, 7, playouts=8)
    with pytest.raises(TTRError, match="not"):
        advise(g, 1 - g.to_move()[0], playouts=8)


def test_seconds_budget_is_respected_roughly():
    import time
    g = midgame("usa")
    t0 = time.process_time()
    advice = advise(g, seconds=0.2)
    assert time.process_time() - t0 < 2.0 and advice


@pytest.mark.parametrize("game", ["usa", "cardgame"])
def test_ticket_odds_per_own_ticket_and_blind_to_hidden_information(game):
    s = midgame(game, 50).state
    seat = 0
    odds = ticket_odds(s, seat, playouts=12, seed=2)
    assert [o.ticket for o in odds] == list(s.players[seat].tickets)
    assert all(0.0 <= o.chance <= 1.0 and o.playouts == 12 for o in odds)
    assert all(o.chance == 1.0 for o in odds if o.joined)
    other = determinize(s, seat, random.Random(3))
    assert ticket_odds(other, seat, playouts=12, seed=2) == odds


def test_review_finds_the_costly_moves_with_the_coachs_alternative():
    g = Game("usa", players=2, seed=5)
    g.play_bots({0: make_bot("one_step", 1), 1: GreedyBot(2)}, max_plies=60)
    numbers = [p.number for p in g.history if p.seat == 0][8:20]
    items = review(g, 0, playouts=16, seed=0, top=3, min_drop=0.0, moves=numbers)
    assert items and len(items) <= 3
    assert [it.drop for it in items] == sorted((it.drop for it in items), reverse=True)
    for it in items:
        assert it.ply in numbers and g.history[it.ply - 1].seat == 0
        assert it.better.win - it.played.win == pytest.approx(it.drop)
        assert it.better.words != it.played.words
        assert it.text.startswith(f"Turn {it.turn + 1}:") and not TICKET_ID.search(it.text)


def test_make_bot_coach_specs():
    bot = make_bot("coach", 3)
    assert isinstance(bot, CoachBot) and bot.playouts and bot.seconds is None and bot.name == "coach"
    timed = make_bot("coach:0.5")
    assert timed.seconds == 0.5 and timed.name == "coach:0.5"
    for bad in ("coach:", "coach:fast", "coach:-1", "coach:0", "coach:99999"):
        with pytest.raises(TTRError):
            make_bot(bad)


@pytest.mark.parametrize("game", ["usa", "cardgame"])
def test_coach_bot_plays_a_whole_game_legally_and_keeps_its_secrets(game):
    """From the ticket choice (first moves) and from late in a game to its end (the Card Game's completion)."""
    first = Game(game, players=2, seed=1).state
    late = midgame(game, 120 if game == "cardgame" else 80).state
    bots = {0: CoachBot(playouts=6, seed=1), 1: GreedyBot(1)}
    for seat in (0, 1):
        assert bots[0].choose(first, seat)[0] in legal_actions(first, seat)
    s = late
    while s.phase != "over":
        seat = to_move(s)[0]
        action, why = bots[seat].choose(s, seat)
        assert action in legal_actions(s, seat)
        if seat == 0 and type(action).__name__ != "CompleteTicket":      # a completed ticket is laid face up
            assert not TICKET_ID.search(why.public)
            assert not any(_ticket_words(s, t) in why.public for t in s.players[0].tickets), why.public
        s = apply(s, action)


def test_coach_bot_is_blind_to_hidden_information():
    s = midgame("usa", 44).state
    seat = to_move(s)[0]
    bot = CoachBot(playouts=12, seed=4)
    move = bot.choose(s, seat)
    for k in range(2):
        assert bot.choose(determinize(s, seat, random.Random(k)), seat) == move


@pytest.mark.parametrize("name", sorted(STYLES))
def test_playing_styles_play_legal_games_with_reasons(name):
    g = Game("usa", players=2, seed=3)
    bot = make_bot(name, 2)
    s = g.state
    reasons = []
    while s.phase != "over":
        seat = to_move(s)[0]
        action, why = (bot if seat == 0 else GreedyBot(0)).choose(s, seat)
        assert action in legal_actions(s, seat)
        if seat == 0:
            reasons.append(why)
        s = apply(s, action)
    assert all(r and not TICKET_ID.search(r) for r in reasons)
    assert all(not TICKET_ID.search(r.public) for r in reasons)


def test_playing_styles_differ():
    """Each style makes choices the others do not: its moves over one position's line differ from greedy's."""
    s = Game("usa", players=2, seed=6).state
    seat = 0
    moves = {name: [] for name in STYLES}
    for name in STYLES:
        state = s
        for _ in range(80):
            if state.phase == "over":
                break
            who = to_move(state)[0]
            a = make_bot(name, 0).choose(state, who)[0] if who == seat else GreedyBot(0).choose(state, who)[0]
            moves[name].append(str(a))
            state = apply(state, a)
    assert len({tuple(m) for m in moves.values()}) == len(STYLES)


def test_playing_styles_work_on_every_board_and_refuse_the_card_game_clearly():
    for game in ("europe", "maerklin", "south_korea"):
        g = Game(game, players=2, seed=2)
        g.play_bots({0: make_bot("route_focus"), 1: make_bot("long_route")}, max_plies=200)
        assert g.ply >= 100
    g = Game("cardgame", players=2, seed=2)
    with pytest.raises(TTRError, match="Card Game has no"):
        make_bot("one_step").choose(g.state, 0)


def test_the_coach_is_part_of_the_pure_rules_core():
    done = run_blocked('''
        import ttr_nb
        from ttr_nb.coach import advise, ticket_odds
        from ttr_nb.coach.styles import STYLES
        g = ttr_nb.Game("usa", players=2, seed=1)
        assert advise(g, playouts=4)
        leaked = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
        assert not leaked and not attempts, (leaked, attempts)
        print("PURE")
    ''')
    assert done.returncode == 0, done.stderr
    assert "PURE" in done.stdout


# ------------------------------------------------------------------------------------------ the classroom exercise

@pytest.fixture(scope="module")
def win_chance():
    from ttr_nb.exercises import WinChance
    return WinChance(seed=2)


def test_win_chance_reads_percentages_and_shares(win_chance):
    est = win_chance.move.win
    pct = round(100 * est)
    for answer in (pct, f"{pct}%", f"{pct} percent", round(est, 2), f"{est:.2f}"):
        assert win_chance.check(answer), answer
    for answer in ("lots", None, -5, 140, "150%"):
        fb = win_chance.check(answer)
        assert not fb and "percentage" in fb.explanation


def test_win_chance_says_how_far_off_and_why(win_chance):
    est = win_chance.move.win
    low = max(0, round(100 * est) - 40)
    fb = win_chance.check(low)
    assert not fb and "too low" in fb.explanation and win_chance.move.why in fb.explanation
    assert f"{round(100 * est)}%" in fb.explanation and f"of the {win_chance.move.playouts} games" in fb.explanation
    assert win_chance.compare().count("\n") == len(win_chance.advice) - 1


def test_win_chance_other_moves_and_bad_options():
    from ttr_nb.exercises import WinChance
    other = WinChance(seed=2, move="other")
    assert not other.move.chosen and "coach's own choice" in other.check(other.solution()).explanation
    for bad in (dict(move="worst"), dict(tolerance=0), dict(tolerance=0.9), dict(tolerance=True)):
        with pytest.raises(TTRError):
            WinChance(seed=2, **bad)


@pytest.mark.parametrize("game", GAMES)
def test_the_playout_policy_only_makes_legal_moves(game):
    """The playouts send the policy's moves through the engine's trusted path: each must pass the full check."""
    from ttr_nb.coach.policy import policy_for
    from ttr_nb.board.engine import is_legal
    for start in (Game(game, players=2, seed=3).state, midgame(game, 30).state):
        for seat in (0, 1):
            s = determinize(start, seat, random.Random(seat))
            policy = policy_for(s, 1, prudent=seat)
            while s.phase != "over":
                who = to_move(s)[0]
                action = policy.choose(s, who)
                assert is_legal(s, action), (game, s.ply, str(action))
                s = apply(s, action)


def test_hint_gives_the_top_moves_the_claim_to_draw_and_ticket_odds_with_progress():
    from ttr_nb.coach import hint
    s = midgame("usa", 40).state
    seat = to_move(s)[0]
    seen = []
    h = hint(s, seat, playouts=30, seed=2, progress=seen.append)
    assert 1 <= len(h.moves) <= 3 and h.playouts <= 30
    assert seen == sorted(seen) and seen[-1] == 1.0 and all(0 <= x <= 1 for x in seen)
    claims = [a for a in h.moves if type(a.action).__name__ == "Claim"]
    if claims:
        from ttr_nb.board.names import find_route
        from ttr_nb.variants import get_variant
        assert h.route == find_route(get_variant("usa").map, claims[0].action.route).id
    else:
        assert h.route is None
    assert [o.ticket for o in h.odds] == list(s.players[seat].tickets)
    other = determinize(s, seat, random.Random(9))
    again = hint(other, seat, playouts=30, seed=2)
    assert (_summary(again.moves), again.route, again.odds) == (_summary(h.moves), h.route, h.odds)
    with pytest.raises(TTRError):
        hint(s, seat, playouts=30, top=0)


def test_hint_budget_is_a_second_in_a_kernel_and_fewer_playouts_in_the_browser(monkeypatch):
    import sys
    from ttr_nb.coach.advice import BROWSER_PLAYOUTS, default_budget
    assert default_budget() == (1.0, None, "")
    monkeypatch.setattr(sys, "platform", "emscripten")
    seconds, playouts, note = default_budget()
    assert seconds is None and playouts == BROWSER_PLAYOUTS and "fewer" in note and "browser" in note
