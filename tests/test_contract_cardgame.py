"""The engine contract (tests/test_contract.py) for the Card Game, which has no board: for 2, 3 and 4 players,

* bot games (random, greedy, mixed) finish, and ``validate`` finds nothing after any ply;
* every listed action applies (``apply`` and ``step`` agree, text and object agree, the result is valid) and its
  text round-trips; unlisted actions raise ``IllegalAction``/``BadAction``, change nothing, and ``explain`` agrees;
* ``observe(state, seat)`` is unchanged by swapping what that seat may not see (hands, on-the-track piles, held
  and offered tickets, deck orders) — and does change for the owner, so the swaps are real;
* the engine and bots are deterministic; states round-trip through JSON; games round-trip through save/load.

Everything goes through the public entry points (``ttr_nb.board.engine``, ``ttr_nb.make_bot``, ``ttr_nb.Game``), which
find the Card Game's rules module from ``state.variant``: no special case above the protocol.
"""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttr_nb import Game, make_bot, score
from ttr_nb.board.actions import DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, parse_action
from ttr_nb.cardgame.actions import CompleteTicket, MoveToTrack, PlayYard
from ttr_nb.cardgame.state import CardState
from ttr_nb.board.cards import LOCO
from ttr_nb.board.engine import apply, explain, legal_actions, new_game, observe, step, to_move, validate
from ttr_nb.errors import BadAction, IllegalAction, TTRError
from ttr_nb.board.state import GameState, Pending

from test_contract import play as contract_play

PLAYERS = [2, 3, 4]
GAMES = [(0, "random"), (0, "greedy"), (0, "mixed:0.5"), (1, "random"), (1, "greedy"), (1, "mixed:0.5")]


def play(n: int, seed: int, spec: str):
    """A whole bot game (cached), played by the board contract's own loop: nothing Card-Game specific."""
    return contract_play("cardgame", n, seed, spec)


def sample(states, count: int):
    every = max(1, len(states) // count)
    picked = set(range(0, len(states), every)) | {len(states) - 1}
    picked |= {i for i, s in enumerate(states) if s.pending and s.phase != "setup"}
    return [states[i] for i in sorted(picked)][:: max(1, len(picked) // (2 * count))]


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("seed,spec", GAMES)
def test_bot_games_finish_and_stay_valid(n, seed, spec):
    states, actions = play(n, seed, spec)
    assert states[-1].phase == "over", f"not over after {len(actions)} plies"
    for s in states:
        assert isinstance(s, CardState)
        assert validate(s) == [], (s.ply, validate(s))
    sheet = score(states[-1])
    assert sheet.final and sheet.winners
    assert states[-1].round == (2 if n == 4 else 1)


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("seed", [0, 1])
def test_every_legal_action_applies_and_round_trips(n, seed):
    states, _ = play(n, seed, "mixed:0.5")
    for s in sample(states, 25):
        legal = legal_actions(s)
        assert legal or s.phase == "over"
        assert len(set(legal)) == len(legal)
        for a in legal:
            text = str(a)
            assert parse_action(text) == a, text
            assert explain(s, a) is None and explain(s, text) is None
            s2, events = step(s, a)
            assert apply(s, text) == s2 == apply(s, a)
            assert validate(s2) == [], (text, validate(s2))
            assert all(e.rule.startswith("CG-") for e in events)


def candidates(s):
    seats = range(s.n_players)
    out = []
    for seat in seats:
        out += [DrawDeck(seat=seat), MoveToTrack(seat=seat), DrawTickets(seat=seat), Pass(seat=seat),
                CompleteTicket(seat=seat)]
        out += [DrawFaceUp(slot=i, seat=seat) for i in range(1, 6)]
        p = s.players[seat]
        for c in range(8):
            for k in (1, 2, 3):
                out.append(PlayYard(payment=((c, k),), seat=seat))
                out.append(PlayYard(payment=((c, k), (LOCO, 1)), seat=seat))
        out.append(PlayYard(payment=((LOCO, 2),), seat=seat))
        out.append(PlayYard(payment=((0, 1), (1, 1), (2, 1)), seat=seat))
        out += [CompleteTicket(ticket=t, seat=seat) for t in p.tickets[:3] + ("T01",)]
        offered = (s.pending_for(seat).get("offered", ()) if s.pending_for(seat) else ()) or ("T01",)
        out += [KeepTickets(tickets=(), seat=seat), KeepTickets(tickets=offered[:1], seat=seat),
                KeepTickets(tickets=("T99",), seat=seat)]
    return out


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("seed", [0, 1])
def test_unlisted_actions_raise_and_change_nothing(n, seed):
    states, _ = play(n, seed, "mixed:0.5")
    refused = 0
    for s in sample(states, 20):
        legal = set(legal_actions(s))
        before = s.to_dict()
        for cand in candidates(s):
            if cand in legal:
                continue
            try:
                checked = apply(s, cand)
            except (IllegalAction, BadAction) as e:
                refused += 1
                assert s.to_dict() == before
                again = explain(s, cand)
                assert type(again) is type(e) and str(again) == str(e)
                if isinstance(e, IllegalAction):
                    assert e.rule and e.rule.startswith("CG-"), str(e)
            else:        # legal only in a non-canonical form (e.g. unsorted): must equal a listed action's result
                assert any(apply(s, a) == checked for a in legal), f"{cand} applied but is not listed"
    assert refused > 100


def test_actions_of_the_board_game_are_refused_clearly():
    s = new_game("cardgame", 2, 0)
    for text in ("claim R001 red2", "blue: claim R001 red2"):
        with pytest.raises(BadAction, match="not part of the Card Game"):
            apply(s, text) if s.phase != "setup" else apply(_played(2), text)


def _played(n: int, seed: int = 0):
    states, _ = play(n, seed, "greedy")
    return next(s for s in states if s.phase == "play" and not s.pending)


# ------------------------------------------------------------------------------------------------ observe

def _swap_hands(s, j, k):
    hj, hk = list(s.players[j].hand), list(s.players[k].hand)
    a = next((c for c in range(9) if hj[c] and hj[c] > hk[c]), None)
    b = next((c for c in range(9) if hk[c] and hk[c] > hj[c] and c != a), None)
    if a is None or b is None:
        return None
    hj[a] -= 1; hj[b] += 1; hk[b] -= 1; hk[a] += 1
    players = list(s.players)
    players[j] = replace(players[j], hand=tuple(hj))
    players[k] = replace(players[k], hand=tuple(hk))
    return replace(s, players=tuple(players))


def _swap_track_with_deck(s, j):
    track = list(s.players[j].track)
    a = next((c for c in range(9) if track[c]), None)
    if a is None:
        return None
    b = next((c for c in s.deck if c != a), None)
    if b is None:
        return None
    deck = list(s.deck)
    deck[deck.index(b)] = a
    track[a] -= 1
    track[b] += 1
    players = list(s.players)
    players[j] = replace(players[j], track=tuple(track))
    return replace(s, players=tuple(players), deck=tuple(deck))


def _swap_ticket_with_deck(s, j):
    p = s.players[j]
    if not p.tickets or not s.ticket_deck:
        return None
    mine, theirs = p.tickets[0], s.ticket_deck[-1]
    players = list(s.players)
    players[j] = replace(p, tickets=(theirs,) + p.tickets[1:])
    return replace(s, players=tuple(players), ticket_deck=s.ticket_deck[:-1] + (mine,))


def _swap_offer_with_deck(s, j):
    pend = s.pending_for(j)
    if pend is None or pend.kind != "choose_tickets" or not s.ticket_deck:
        return None
    offered = pend.get("offered")
    new = (s.ticket_deck[0],) + offered[1:]
    data = tuple((k, new if k == "offered" else v) for k, v in pend.data)
    pending = tuple(Pending(p.kind, p.seat, data) if p is pend else p for p in s.pending)
    return replace(s, pending=pending, ticket_deck=(offered[0],) + s.ticket_deck[1:])


def _permute_deck(s):
    if len(set(s.deck)) < 2:
        return None
    return replace(s, deck=tuple(reversed(s.deck)), ticket_deck=tuple(reversed(s.ticket_deck)))


@pytest.mark.parametrize("n", PLAYERS)
def test_observe_leaks_no_hand_pile_or_ticket(n):
    states, _ = play(n, 0, "mixed:0.5")
    changed_for_owner = 0
    checked = 0
    for s in sample(states, 40):
        for viewer in range(n):
            view = json.dumps(observe(s, viewer), sort_keys=True)
            others = [j for j in range(n) if j != viewer]
            swaps = [(None, _permute_deck(s))]
            for j in others:
                swaps += [(j, _swap_ticket_with_deck(s, j)), (j, _swap_offer_with_deck(s, j))]
                if s.phase not in ("complete", "over"):
                    swaps.append((j, _swap_track_with_deck(s, j)))
                for k in others:
                    if k > j:
                        swaps.append((j, _swap_hands(s, j, k)))
            for owner, t in swaps:
                if t is None:
                    continue
                if s.phase == "over" and owner is not None:
                    continue            # tickets are revealed at the end
                checked += 1
                assert json.dumps(observe(t, viewer), sort_keys=True) == view, (s.ply, viewer, owner)
                if owner is not None and observe(t, owner) != observe(s, owner):
                    changed_for_owner += 1
    assert checked > 50 and changed_for_owner > 20


def test_observe_rejects_bad_seats():
    s = new_game("cardgame", 3, 0)
    for bad in (-1, 3, "1", True):
        with pytest.raises(TTRError):
            observe(s, bad)
    assert observe(s, 2)["viewer"] == 2 and "deck" not in observe(s, None)


# ------------------------------------------------------------------------------------------------ determinism, JSON

@pytest.mark.parametrize("n", PLAYERS)
def test_same_seed_same_game_different_seed_different_game(n):
    a, _ = play(n, 0, "random")
    b = new_game("cardgame", n, 0)
    assert b == a[0]
    assert new_game("cardgame", n, 1) != a[0]
    states, actions = play(n, 0, "random")
    s = new_game("cardgame", n, 0)
    for act in actions:
        s = apply(s, str(act))
    assert s == states[-1]


@pytest.mark.parametrize("spec", ["random", "greedy", "mixed:0.5"])
def test_bots_are_stateless(spec):
    states, _ = play(3, 1, spec)
    bot = make_bot(spec, 5)
    for s in sample(states, 20):
        if s.phase == "over":
            continue
        seat = to_move(s)[0]
        assert bot.choose(s, seat) == make_bot(spec, 5).choose(s, seat)


@pytest.mark.parametrize("n", PLAYERS)
def test_state_json_round_trip_at_every_ply(n):
    states, _ = play(n, 1, "mixed:0.5")
    for s in states:
        d = json.loads(json.dumps(s.to_dict()))
        assert CardState.from_dict(d) == s
        assert GameState.from_dict(d) == s          # the board state's decoder hands Card Game states on


def test_state_decoder_refuses_bad_fields():
    d = new_game("cardgame", 2, 0).to_dict()
    for key, value in (("phase", "dance"), ("round", 3), ("deck", ["joker"]), ("players", [])):
        bad = dict(d, **{key: value})
        with pytest.raises(TTRError):
            CardState.from_dict(bad)
    with pytest.raises(TTRError, match="unknown field"):
        CardState.from_dict(dict(d, extra=1))


@pytest.mark.parametrize("n", PLAYERS)
def test_game_save_load_undo_branch(n, tmp_path):
    g = Game("cardgame", players=n, seed=3)
    g.play_bots(make_bot("greedy", 1), max_plies=120)
    path = g.save(tmp_path / "cg.json")
    h = Game.load(path)
    assert h.state == g.state and h.actions() == g.actions()
    g.undo()
    b = g.branch()
    assert b.state == g.state_at(g.ply)
    g.redo()
    assert g.state == h.state
    g.play_bots(make_bot("random", 2))
    assert g.is_over and validate(g.state) == []
    h2 = Game.load(g.save(tmp_path / "done.json"))
    assert h2.state == g.state and h2.score().winners == g.score().winners
    assert "Card Game" in g._repr_html_()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PLAYERS), st.integers(0, 10_000), st.lists(st.integers(0, 10_000), min_size=50, max_size=400))
def test_property_random_legal_sequences_stay_valid(n, seed, picks):
    s = new_game("cardgame", n, seed)
    for pick in picks:
        if s.phase == "over":
            break
        legal = legal_actions(s)
        s = apply(s, legal[pick % len(legal)])
        assert validate(s) == []


def test_cli_plays_and_simulates_the_card_game():
    import io

    from ttr_nb.cli import main
    out, err = io.StringIO(), io.StringIO()
    assert main(["play", "cardgame", "--players", "4", "--seed", "1"], out, err) == 0
    text = out.getvalue()
    assert "PROVISIONAL data" in text and "Train robbing" in text and "Final score" in text and "CG-END-4" in text
    out = io.StringIO()
    assert main(["simulate", "card game", "--games", "3", "--players", "2", "--bots", "greedy,random"], out, err) == 0
    assert "Big Cities cards" in out.getvalue()
    out = io.StringIO()
    assert main(["variants"], out, err) == 0 and "cardgame" in out.getvalue()


def test_greedy_bot_plays_sensibly_with_reasons():
    wins, reasons = 0, []
    for seed in range(4):
        g = Game("cardgame", players=2, seed=seed)
        bots = {0: make_bot("greedy", seed), 1: make_bot("random", seed)}
        while not g.is_over:
            seat = g.to_move()[0]
            action, why = bots[seat].choose(g.state, seat)
            if seat == 0:
                reasons.append(why)
            g.push(action)
        wins += g.score().winners == (0,)
    assert wins >= 3
    text = " ".join(reasons)
    assert "its tickets need" in text and "best set" in text and "step 1" in text


def test_history_words_and_events_keep_secrets_from_other_seats():
    from ttr_nb.cardgame.data import load_cards
    from ttr_nb.board.cards import CARD_NAMES
    data = load_cards()
    g = Game("cardgame", players=3, seed=2)
    g.play_bots(make_bot("mixed:0.5", 4))
    checked = 0
    for ply in g.history:
        other = (ply.seat + 1) % 3
        if isinstance(ply.action, KeepTickets) and ply.action.tickets:
            for name in ply.action.tickets:
                assert name not in ply.words_for(other) and name in ply.words_for(ply.seat)
                assert all(name not in e for e in ply.events_for(other))
            checked += 1
        for e in ply.events:
            if e.kind == "deck_card":
                assert not any(c in e.text_for(other) for c in CARD_NAMES)
                assert any(c in e.text_for(ply.seat) for c in CARD_NAMES)
                checked += 1
    assert checked > 10
    assert data.ticket_text("T12") == "Chicago–Miami"


def test_an_edited_start_position_saves_and_loads(tmp_path):
    from cardgame_helpers import counts, make
    g = Game(start=make(3, hands={0: counts(red=3)}, yards={1: {"blue": (2, 0)}}))
    g.push("yard red3")
    g.push("track")
    h = Game.load(g.save(tmp_path / "edited.json"))
    assert h.start == g.start and h.state == g.state and h.actions() == ["blue: yard red3", "red: track"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_plays_the_card_game_through_its_rules_module(players, tmp_path):
    """``Game`` dispatches through the game's rules module (no special case): play, undo, redo, branch, save, load."""
    from ttr_nb.bots import make_bot
    from ttr_nb.cardgame import engine as card_engine
    from ttr_nb.game import Game
    g = Game("cardgame", players=players, seed=3)
    assert g.rules is card_engine and g.state.variant == "cardgame"
    g.play_bots(make_bot("greedy", seed=1), max_plies=40)
    mid = g.state
    b = g.branch(20)
    assert b.state == g.state_at(20) and b.rules is card_engine
    b.push(b.legal_actions()[0])
    assert g.state == mid                                      # the branch is independent
    g.undo()
    g.redo()
    assert g.state == mid
    g.play_bots(make_bot("greedy", seed=1))
    assert g.is_over and g.score().winners
    path = g.save(tmp_path / "card.json")
    again = Game.load(path)
    assert again.state == g.state and again.actions() == g.actions()
