"""The ``Game`` facade: push (text or object), undo/redo/goto, variations (nothing a user played is lost),
branch, events in the history, push_many, play_bots, ``_repr_html_``, and save/load — exact round trips, atomic
writes, and hostile save files that must each raise ``SaveFileError`` naming the problem.
"""
from __future__ import annotations

import html
import json
import math
import os
import re
from pathlib import Path

import pytest

import ttr_nb
from ttr_nb import Game, make_bot
from ttr_nb.board.actions import Claim, KeepTickets, parse_action
from ttr_nb.bots import GreedyBot, RandomBot
from ttr_nb.board.cards import PLAYER_COLOURS
from ttr_nb.board.engine import apply, new_game, to_move, validate
from ttr_nb.errors import BadAction, IllegalAction, SaveFileError, StateError, TTRError
from ttr_nb.board.names import ticket_text
from ttr_nb.board.state import replace_fields
from ttr_nb.variants import available_variants

PACKAGE = Path(ttr_nb.__file__).resolve().parent


def snapshot(g: Game):
    """Everything that makes a Game what it is (to compare before/after a refused operation)."""
    return (g.to_dict(), g.start, g.state, g.ply, [p.text for p in g.line], list(g.variations))


def bot_game(players: int = 3, seed: int = 1, plies: int | None = None, bot=None) -> Game:
    g = Game("usa", players=players, seed=seed)
    g.play_bots(bot or RandomBot(seed), max_plies=plies if plies is not None else 100_000)
    return g


def other_legal(g: Game, avoid: str) -> str:
    """A legal action text at the current position that differs from ``avoid``."""
    return next(str(a) for a in reversed(g.legal_actions()) if str(a) != avoid)


# ------------------------------------------------------------------------------------------------ push

def test_push_by_text_and_by_object_agree_with_the_engine():
    ref = bot_game(3, 4, plies=40)
    texts = ref.actions()
    by_text, by_object = Game("usa", 3, 4), Game("usa", 3, 4)
    s = new_game("usa", 3, 4)
    for text in texts:
        s = apply(s, text)
        ply = by_text.push(text)
        assert ply.text == text and ply.state == s and ply.number == by_text.ply
        assert ply.seat == parse_action(text).seat and ply.words
        by_object.push(parse_action(text))
        assert by_text.state == by_object.state == s
    assert by_text.actions() == by_object.actions() == texts
    assert by_text.line == by_object.line


def test_push_fills_in_the_seat_in_the_record():
    g = bot_game(2, 3, plies=2)                          # setup done: blue to play
    assert g.state.phase == "play"
    ply = g.push("draw deck")
    assert ply.text == "blue: draw deck" and g.actions()[-1] == "blue: draw deck"


@pytest.mark.parametrize("bad", ["fly to the moon", "claim R999 red1", "OTHER SEAT", "keep T01", "pass", "",
                                 42, None, Claim(route="R001", payment=((0, 9),))], ids=repr)
def test_refused_push_raises_and_changes_nothing(bad):
    g = bot_game(3, 2, plies=30)
    g.goto(20)                                           # with a redo line ahead
    assert g.state.phase == "play"
    if bad == "OTHER SEAT":                              # a seat whose turn it is not
        bad = f"{PLAYER_COLOURS[(g.state.current + 1) % 3]}: draw deck"
    before = snapshot(g)
    with pytest.raises(TTRError) as ei:
        g.push(bad)
    assert isinstance(ei.value, IllegalAction | BadAction)
    assert snapshot(g) == before


def test_push_records_the_canonical_text(tmp_path):
    """The same move spelt differently (tickets in another order, a lower-case route id, payment terms in another
    order) is one action: the record holds its canonical text (as legal_actions lists it), replaying it over the
    redo line does not create a variation, and save/load gives back the identical record."""
    g = Game("usa", 3, 1)
    off = g.state.pending_for(0).get("offered")
    m = g.variant.map
    names = [ticket_text(m, t) for t in off]
    listed = str(KeepTickets(tickets=tuple(names[:2]), seat=0))
    assert listed == f"blue: keep {names[0]}, {names[1]}"
    assert listed in [str(a) for a in g.legal_actions()]
    assert g.push(KeepTickets(tickets=(off[1], off[0]), seat=0)).text == listed       # ids, other order
    g.undo()
    g.push(f"blue: keep {off[1]} {off[0]}")
    g.undo()
    g.push(f"Blue: keep {names[1].lower().replace('–', '-')}, {names[0].upper()}")     # cities, any case and dash
    assert g.variations == [], "the same move, spelt differently, was stored as a variation"
    bot = RandomBot(1)
    while True:
        claims = [a for a in g.legal_actions() if isinstance(a, Claim) and len(a.payment) == 2]
        if claims:
            break
        g.push(bot.choose(g.state, g.to_move()[0])[0])
    a = claims[0]
    odd = Claim(route=a.route.lower(), payment=tuple(reversed(a.payment)))
    assert g.push(odd).text == str(a)
    h = Game.load(g.save(tmp_path / "canonical.json"))
    assert h.actions() == g.actions()


# ------------------------------------------------------------------------------------------------ undo / redo / goto

def test_undo_redo_and_goto_reach_every_ply():
    g = bot_game(4, 5, plies=60)
    n = len(g.line)
    assert n == 60
    states = [new_game("usa", 4, 5)]
    for text in g.actions():
        states.append(apply(states[-1], text))
    for k in list(range(n + 1)) + [n, 0, 37, 3, 59]:
        assert g.goto(k) == states[k]
        assert g.state == states[k] == g.state_at(k)
        assert g.ply == k and len(g.history) == k and len(g.line) == n
    g.goto(n)
    for k in range(n, 0, -1):
        undone = g.undo()
        assert undone.number == k and g.ply == k - 1 and g.state == states[k - 1]
    assert g.undo() is None and g.ply == 0 and g.state == g.start
    for k in range(1, n + 1):
        assert g.redo().number == k and g.state == states[k]
    assert g.redo() is None and g.ply == n
    assert g.pop().number == n                          # pop is undo
    for bad in (-1, n + 1, True, "3", 2.0, None):
        with pytest.raises(TTRError):
            g.goto(bad)
        with pytest.raises(TTRError):
            g.state_at(bad)
    assert g.ply == n - 1


def test_pushing_the_redo_action_just_moves_forward():
    g = bot_game(3, 6, plies=30)
    line = [p.text for p in g.line]
    g.goto(10)
    g.push(line[10])
    assert g.ply == 11 and [p.text for p in g.line] == line and g.variations == []
    g.push(parse_action(line[11]))                        # by object, too
    assert g.ply == 12 and g.variations == []


def test_push_after_undo_keeps_the_old_line_and_restore_brings_it_back():
    g = bot_game(3, 7, plies=50)
    original = g.actions()
    final_state = g.state
    g.goto(40)
    new = other_legal(g, original[40])
    g.push(new)
    assert g.actions() == original[:40] + [new]
    assert g.variations == [(40, tuple(original))]        # (where it parted, the whole old line)
    g.restore_variation(0)
    assert g.actions() == original and g.state == final_state
    assert g.variations == [(40, tuple(original[:40] + [new]))]   # the line it replaced is kept in turn
    g.restore_variation(0)
    assert g.actions() == original[:40] + [new]
    assert g.variations == [(40, tuple(original))]
    for bad in (1, -1, "0", None):
        before = snapshot(g)
        with pytest.raises(TTRError):
            g.restore_variation(bad)
        assert snapshot(g) == before


def _two_divergences() -> tuple[Game, list[str]]:
    """Play a line A, go back to ply 10 and play something else, then go back to ply 5 and play something else:
    the first stored variation (after ply 10) belongs to line A, which is no longer the current line."""
    g = Game("usa", 2, 3)
    g.play_bots(GreedyBot(0), max_plies=14)
    line_a = g.actions()
    g.goto(10)
    g.push(other_legal(g, line_a[10]))
    g.goto(5)
    g.push(other_legal(g, line_a[5]))
    g.play_bots(RandomBot(5), max_plies=8)
    return g, line_a


def test_nested_variations_can_be_saved_and_loaded(tmp_path):
    """Nothing is lost, and a file the program wrote can be read back: variations that branched off a line
    that was itself replaced must still replay."""
    g, _ = _two_divergences()
    path = g.save(tmp_path / "nested.json")
    h = Game.load(path)
    assert h.to_dict() == g.to_dict()


def test_nested_variations_restore_the_line_they_came_from():
    """Line A is split over two variations; restoring them (one, or one then another) must give it back, and
    restoring a stored variation must never fail."""
    g, line_a = _two_divergences()
    n_vars = len(g.variations)
    assert n_vars == 2
    found = False
    for first in range(n_vars):
        for second in (None, *range(n_vars - 1)):
            h, _ = _two_divergences()
            try:
                h.restore_variation(first)
                if second is not None:
                    h.restore_variation(second)
            except TTRError as e:
                pytest.fail(f"restore_variation({first}) then ({second}) failed: {e}")
            found = found or h.actions() == line_a
    assert found, "line A can no longer be recovered from the variations"


# ------------------------------------------------------------------------------------------------ branch

def test_branch_is_independent():
    g = bot_game(3, 8, plies=30)
    g.goto(25)
    before = snapshot(g)
    b = g.branch()
    assert b.state == g.state and b.ply == 25 and len(b.line) == 25 and b.variations == []
    b.push(b.legal_actions()[-1])
    b.play_bots(RandomBot(9), max_plies=5)
    assert snapshot(g) == before
    b_before = snapshot(b)
    g.push(g.legal_actions()[0])
    g.undo()
    g.goto(3)
    assert snapshot(b) == b_before
    early = g.branch(5)
    assert early.state == g.state_at(5) and early.ply == 5 and early.start == g.start
    for bad in (-1, 31, "1"):
        with pytest.raises(TTRError):
            g.branch(bad)


# ------------------------------------------------------------------------------------------------ events

@pytest.mark.parametrize("variant", available_variants())
def test_events_of_a_long_game_are_in_the_history(variant):
    wanted = {"reshuffle", "market_reset", "final_round", "game_over"}
    for seed in range(8):
        g = Game(variant, 4, seed)
        g.play_bots(RandomBot(seed))
        kinds = {e.kind for _, e in g.events()}
        if wanted <= kinds:
            break
    else:
        pytest.fail(f"no seed 0..7 gave all of {sorted(wanted)} in a 4-player random {variant} game")
    assert g.is_over
    events = g.events()
    assert [n for n, _ in events] == sorted(n for n, _ in events)
    assert all(1 <= n <= g.ply and str(e) for n, e in events)
    assert [k for _, e in events for k in [e.kind] if k == "game_over"] == ["game_over"]
    assert events[-1][1].kind == "game_over" and events[-1][0] == g.ply
    finals = [(n, e) for n, e in events if e.kind == "final_round"]
    assert len(finals) == 1 and "USA-END-1" in finals[0][1].rule
    for n, e in events:
        ply = g.line[n - 1]
        assert e in ply.events
        if e.kind == "reshuffle":
            assert ply.state.shuffles > g.state_at(n - 1).shuffles
    # USA-END-1: after the trigger, every player — the trigger included — gets exactly one more turn
    trigger_ply = finals[0][0]
    trigger_seat = g.line[trigger_ply - 1].seat
    turns = []
    for p in g.line[trigger_ply:]:
        before = g.state_at(p.number - 1)
        if not turns or turns[-1][0] != before.turn:
            turns.append((before.turn, p.seat))
    n = g.state.n_players
    assert [seat for _, seat in turns] == [(trigger_seat + k) % n for k in range(1, n + 1)]


# ------------------------------------------------------------------------------------------------ push_many / bots

def test_push_many_is_all_or_nothing():
    g = bot_game(3, 10, plies=40)
    texts = g.actions()
    g.goto(30)
    g.push(other_legal(g, texts[30]))                    # a variation exists, and we are mid-line
    g.goto(20)
    before = snapshot(g)
    good = texts[20:23]
    with pytest.raises(TTRError):
        g.push_many(good + ["claim R999 red1"] + texts[23:25])
    assert snapshot(g) == before
    with pytest.raises(TTRError):
        g.push_many(iter(["draw faceup 9"]))
    assert snapshot(g) == before
    g.push_many(a for a in good)
    assert g.ply == 23 and g.actions() == texts[:23]


def test_play_bots():
    g = Game("usa", 3, 11)
    played = g.play_bots({0: make_bot("greedy"), 1: make_bot("random", 1)})
    assert played == 2 and to_move(g.state) == (2,)       # stops when a seat without a bot must act
    assert g.play_bots(RandomBot(2), max_plies=5) == 5 and g.ply == 7
    g.play_bots(RandomBot(2), until_seat=g.state.current)
    assert g.ply == 7                                     # already that seat's turn: nothing to do
    other = (g.state.current + 1) % 3
    g.play_bots(RandomBot(2), until_seat=other)
    assert other in g.to_move()
    rest = g.play_bots(make_bot("mixed:0.5", 3))
    assert g.is_over and rest > 50 and g.play_bots(RandomBot(0)) == 0
    assert validate(g.state) == []


def test_play_bots_after_undo_follows_the_redo_line():
    """A bot that plays the undone move again moves the cursor along the redo line (no new state is built): the
    next choice must be made from the position after it, not from the one before."""
    g = Game("usa", 3, 7)
    g.play_bots(GreedyBot(seed=1), max_plies=6)
    line = g.actions()
    g.undo()
    g.undo()
    assert g.play_bots(GreedyBot(seed=1), max_plies=4) == 4
    assert g.ply == 8 and validate(g.state) == []
    replay = Game("usa", 3, 7)
    replay.push_many(g.actions())
    assert replay.state == g.state and g.actions()[:6] == line


def test_repr_html_shows_the_status():
    for g in (Game("usa", 3, 1), bot_game(3, 1, plies=25), bot_game(2, 1)):
        out = g._repr_html_()
        assert html.escape(g.status()) in out
        assert html.escape(g.variant.name) in out and "<table" in out
        assert f"ply {g.ply}" in out
        assert f"ply {g.ply}/" in repr(g)
    assert "over" in Game.__repr__(g)


# ------------------------------------------------------------------------------------------------ save / load

def _rich_game() -> Game:
    """A game with a redo line ahead of the cursor and two variations."""
    g = bot_game(4, 12, plies=60)
    texts = g.actions()
    g.goto(50)
    g.push(other_legal(g, texts[50]))
    g.play_bots(RandomBot(1), max_plies=4)
    g.goto(40)                                           # a redo line of 15 plies ahead
    return g


def _assert_same_game(h: Game, g: Game) -> None:
    assert h.start == g.start
    assert h.state == g.state and h.ply == g.ply
    assert h.line == g.line                              # texts, seats, events and states of every ply
    assert h.variations == g.variations
    assert h.to_dict() == g.to_dict()


def test_save_load_round_trips_exactly(tmp_path):
    g = _rich_game()
    assert g.variations and g.ply < len(g.line)
    path = g.save(tmp_path / "game.json")
    assert path == tmp_path / "game.json"
    assert os.listdir(tmp_path) == ["game.json"]
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "ttr_nb-game" and doc["version"] == 1 and "start" not in doc
    h = Game.load(path)
    _assert_same_game(h, g)
    h.redo()
    g.redo()
    assert h.state == g.state
    _assert_same_game(Game.from_dict(json.loads(json.dumps(g.to_dict()))), g)


def test_save_load_round_trips_an_edited_start(tmp_path):
    # a position taken from the middle of another game ...
    mid = bot_game(3, 13, plies=45).state
    g = Game(start=mid)
    g.play_bots(RandomBot(3), max_plies=10)
    g.undo()
    path = g.save(tmp_path / "mid.json")
    assert "start" in json.loads(path.read_text())
    h = Game.load(path)
    _assert_same_game(h, g)
    assert h.start == mid
    # ... and a hand-edited one: a card swapped between the current player's hand and the deck
    s = mid
    hand = list(s.players[s.current].hand)
    a = next(k for k, c in enumerate(hand) if c)
    b = next(c for c in s.deck if c != a)
    pos = s.deck.index(b)
    hand[a] -= 1
    hand[b] += 1
    deck = list(s.deck)
    deck[pos] = a
    players = list(s.players)
    players[s.current] = replace_fields(players[s.current], hand=tuple(hand))
    edited = replace_fields(s, deck=tuple(deck), players=tuple(players))
    assert validate(edited) == []
    g2 = Game(start=edited)
    g2.push(g2.legal_actions()[0])
    h2 = Game.load(g2.save(tmp_path / "edited.json"))
    _assert_same_game(h2, g2)
    assert h2.start == edited


def test_game_refuses_an_invalid_start():
    s = new_game("usa", 3, 1)
    hand = list(s.players[0].hand)
    hand[-1] += 1
    bad = replace_fields(s, players=(replace_fields(s.players[0], hand=tuple(hand)),) + s.players[1:])
    with pytest.raises(StateError):
        Game(start=bad)


def test_save_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    bot_game(3, 1, plies=10).save(path)
    old = path.read_bytes()

    def boom(src, dst):
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="simulated"):
        bot_game(3, 2, plies=30).save(path)
    assert path.read_bytes() == old
    assert sorted(os.listdir(tmp_path)) == ["game.json"], "a temp file was left behind"
    monkeypatch.undo()
    Game.load(path)


def test_save_can_be_interrupted_while_writing(tmp_path, monkeypatch):
    """A failure while the data is written (not only at the rename) leaves the old file and no temp file."""
    path = tmp_path / "game.json"
    bot_game(3, 1, plies=10).save(path)
    old = path.read_bytes()

    def boom(fd):
        raise OSError("fsync failed (simulated)")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError, match="simulated"):
        bot_game(3, 2, plies=30).save(path)
    assert path.read_bytes() == old
    assert sorted(os.listdir(tmp_path)) == ["game.json"]


# ------------------------------------------------------------------------------------------------ hostile files

def _base_doc() -> dict:
    return bot_game(3, 1, plies=12).to_dict()


def _start_doc(**changes) -> dict:
    """A valid file whose start position is stored, with ``changes`` applied to the start dict."""
    g = bot_game(3, 1, plies=20)
    doc = Game(start=g.state).to_dict()
    for path, value in changes.items():
        target = doc["start"]
        keys = path.split("/")
        for k in keys[:-1]:
            target = target[int(k)] if isinstance(target, list) else target[k]
        if value is _DELETE:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
    return doc


_DELETE = object()


def _with(**changes) -> str:
    doc = _base_doc()
    for k, v in changes.items():
        if v is _DELETE:
            del doc[k]
        else:
            doc[k] = v
    return json.dumps(doc)


def _illegal_fourth_action() -> str:
    doc = _base_doc()
    doc["actions"] = doc["actions"][:3] + ["claim R001 red9"] + doc["actions"][3:]
    doc["cursor"] = len(doc["actions"])
    return json.dumps(doc)


def _extra_loco() -> str:
    doc = _start_doc()
    hand = doc["start"]["players"][0]["hand"]
    hand["locomotive"] = hand.get("locomotive", 0) + 1
    return json.dumps(doc)


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _doc_text(doc) -> str:
    return json.dumps(doc)


HOSTILE = [
    ("not JSON", lambda: "this is not json {", "not valid JSON"),
    ("truncated", lambda: (lambda t: t[: len(t) // 2])(json.dumps(_base_doc(), indent=1)), "not valid JSON"),
    ("empty file", lambda: "", "not valid JSON"),
    ("only whitespace", lambda: "  \n\t ", "not valid JSON"),
    ("a JSON list", lambda: json.dumps([_base_doc()]), "JSON object"),
    ("a JSON string", lambda: '"ttr_nb-game"', "JSON object"),
    ("null", lambda: "null", "JSON object"),
    ("wrong format", lambda: _with(format="chess-pgn"), "format"),
    ("wrong version", lambda: _with(version=2), "version"),
    ("version as text", lambda: _with(version="1"), "version"),
    ("version true", lambda: _with(version=True), "version"),
    ("unknown variant", lambda: _with(variant="monopoly"), "unknown variant"),
    ("variant not text", lambda: _with(variant=["usa"]), "variant"),
    ("players 99", lambda: _with(players=99), "players"),
    ("players 6", lambda: _with(players=6), "players"),
    ("players 0", lambda: _with(players=0), "players"),
    ("seed -1", lambda: _with(seed=-1), "seed"),
    ("seed 10**30", lambda: _with(seed=10**30), "seed"),
    ("seed 'x'", lambda: _with(seed="x"), "seed"),
    ("seed true", lambda: _with(seed=True), "seed"),
    ("seed 1.5", lambda: _with(seed=1.5), "seed"),
    ("seed with 5000 digits", lambda: _with(seed=0).replace('"seed": 0', '"seed": 1' + "0" * 5000), "digits"),
    ("first_player out of range", lambda: _with(first_player=3), "first_player"),
    ("extra keys", lambda: _with(evil="rm -rf /"), "unknown field(s): evil"),
    ("missing actions", lambda: _with(actions=_DELETE), "missing field(s): actions"),
    ("missing format", lambda: _with(format=_DELETE), "missing field(s): format"),
    ("actions not a list", lambda: _with(actions="draw deck"), "'actions'"),
    ("actions not strings", lambda: _with(actions=[1, 2, 3], cursor=0), "'actions'"),
    ("actions as objects", lambda: _with(actions=[{"verb": "draw"}], cursor=0), "'actions'"),
    ("an illegal action", _illegal_fourth_action, "action 4"),
    ("a malformed action", lambda: _with(actions=["fly away"], cursor=1), "action 1"),
    ("cursor beyond the end", lambda: _with(cursor=13), "'cursor'"),
    ("cursor negative", lambda: _with(cursor=-1), "'cursor'"),
    ("cursor as text", lambda: _with(cursor="3"), "'cursor'"),
    ("variations not a list", lambda: _with(variations="none"), "'variations'"),
    ("variation without actions", lambda: _with(variations=[{"parted_at": 0}]), "variations[0]"),
    ("variation in the old format", lambda: _with(variations=[{"after": 0, "actions": []}]), "variations[0]"),
    ("variation parting after its end", lambda: _with(variations=[{"parted_at": 99, "actions": []}]), "variations[0]"),
    ("variation with an illegal action", lambda: _with(variations=[{"parted_at": 0, "actions": ["claim R001 red9"]}]),
     "variations[0]"),
    ("start: an extra locomotive", _extra_loco, "locomotive"),
    ("start: trains as text", lambda: _doc_text(_start_doc(**{"players/0/trains": "45"})), "trains"),
    ("start: huge trains", lambda: _doc_text(_start_doc(**{"players/0/trains": 10**12})), "trains"),
    ("start: huge hand", lambda: _doc_text(_start_doc(**{"players/1/hand": {"red": 10**15}})), "hand"),
    ("start: huge seed", lambda: _doc_text(_start_doc(seed=10**30)), "seed"),
    ("start: float ply", lambda: _doc_text(_start_doc(ply=1.5)), "ply"),
    ("start: extra key", lambda: _doc_text(_start_doc(cheat=True)), "unknown field(s) cheat"),
    ("start: missing key", lambda: _doc_text(_start_doc(deck=_DELETE)), "missing field(s) deck"),
    ("start: unknown card", lambda: _doc_text(_start_doc(deck=["joker"])), "unknown card"),
    ("start: not an object", lambda: _with(start=[1, 2, 3]), "must be an object"),
    ("start: another seed", lambda: (lambda d: json.dumps({**d, "seed": d["seed"] + 1}))(_start_doc()), "does not match"),
    ("start: deeply nested ext", lambda: _doc_text(_start_doc(ext={"a": json.loads(_nested(50))})), "nested too deeply"),
    ("start: offered tickets as text", lambda: _doc_text(_start_doc(pending=[
        {"kind": "choose_tickets", "seat": 0, "data": {"offered": "T01", "min_keep": 1, "returns": "bottom"}}])),
     "offer"),
    ("NaN", lambda: _with(seed=0).replace('"seed": 0', '"seed": NaN'), "NaN"),
    ("Infinity", lambda: _with(seed=0).replace('"seed": 0', '"seed": Infinity'), "Infinity"),
    ("-Infinity in a start", lambda: _doc_text(_start_doc()).replace('"turn": ', '"turn": -Infinity, "x": '), "Infinity"),
    ("deeply nested junk", lambda: _nested(100_000), ""),
    ("deeply nested in a field", lambda: _with(variations=0).replace('"variations": 0', '"variations": ' + _nested(50_000)), ""),
    ("not UTF-8", lambda: b"\xff\xfe{\x00}", "UTF-8"),
]


@pytest.fixture(scope="module")
def existing_game() -> Game:
    return _rich_game()


@pytest.mark.parametrize("name,make,fragment", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_save_file_is_refused_with_a_reason(tmp_path, existing_game, name, make, fragment):
    before = snapshot(existing_game)
    content = make()
    path = tmp_path / "hostile.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    try:
        Game.load(path)
    except SaveFileError as e:
        msg = str(e)
    except BaseException as e:                          # noqa: BLE001 - any other exception is the bug
        pytest.fail(f"{name}: Game.load raised {type(e).__name__} instead of SaveFileError: {str(e)[:200]}")
    else:
        pytest.fail(f"{name}: Game.load accepted the file")
    assert fragment in msg, f"{name}: the message does not name the problem ({fragment!r}): {msg[:300]}"
    assert str(path) in msg, f"{name}: the message does not name the file: {msg[:200]}"
    assert len(msg) < 2000, f"{name}: the message echoes the file ({len(msg)} characters)"
    assert snapshot(existing_game) == before


def test_a_30_mb_file_is_refused_without_reading_it(tmp_path, existing_game):
    before = snapshot(existing_game)
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.write(b'{"format": "ttr_nb-game", "actions": [')
        f.truncate(30 * 1024 * 1024)                    # sparse: 30 MB on paper, nothing on disk
    with pytest.raises(SaveFileError, match="too large"):
        Game.load(path)
    assert snapshot(existing_game) == before


def test_missing_file_and_directory_are_save_file_errors(tmp_path):
    with pytest.raises(SaveFileError, match="cannot read"):
        Game.load(tmp_path / "nope.json")
    (tmp_path / "adir.json").mkdir()
    try:
        Game.load(tmp_path / "adir.json")
    except SaveFileError:
        pass
    except BaseException as e:                          # noqa: BLE001
        pytest.fail(f"loading a directory raised {type(e).__name__}: {e}")
    else:
        pytest.fail("a directory was loaded as a game")


@pytest.mark.parametrize("doc", [None, [], "x", 3, {"format": float("nan")},
                                 {**{k: 0 for k in ("format", "version", "variant", "players", "seed", "first_player",
                                                    "actions", "cursor", "variations")}, "seed": math.inf}],
                         ids=["None", "list", "str", "int", "nan format", "inf seed"])
def test_from_dict_refuses_non_documents(doc):
    with pytest.raises(SaveFileError):
        Game.from_dict(doc)


def test_no_pickle_eval_or_exec_in_the_package():
    pattern = re.compile(r"\bpickle\b|\bcPickle\b|\bmarshal\b|\bshelve\b|(?<![\w.])eval\s*\(|(?<![\w.])exec\s*\(|"
                         r"yaml\.load\b|__import__\s*\(")
    hits = []
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 5
    for path in files:
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(PACKAGE.parent)}:{i}: {line.strip()}")
    assert not hits, "\n".join(hits)
