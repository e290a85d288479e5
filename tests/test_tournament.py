"""Student bots and tournaments (issue 20): the bot contract and its view, forfeits, the sandbox's promises,
results that resume, the same table from one process, local workers and a Dask cluster.

Kept small for CI: house bots where a student's bot is not the point, short games (a forfeit hands the seat to the
random stand-in at once), one Dask LocalCluster for one tiny tournament.
"""
from __future__ import annotations

import dataclasses
import json
import os
import textwrap
from pathlib import Path

import pytest

from ttr_nb.cli import main
from ttr_nb.errors import TTRError
from ttr_nb.tournament import BotView, Forfeit, StudentBot, bot_spec, load_results, payload, run_tournament, view_of
from ttr_nb.tournament.referee import play_game, ranks
from ttr_nb.tournament.results import wilson
from ttr_nb.tournament.schedule import count_games, schedule
from ttr_nb.variants import rules_of

GAMES = ("usa", "europe", "maerklin", "south_korea", "cardgame")


def _bot(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return str(path)


def _first(view):
    return view.legal[0]


def _position(variant: str, moves: int, seed: int = 4):
    from ttr_nb.bots import make_bot
    rules = rules_of(variant)
    state = rules.new_game(variant, 3, seed)
    bots = [make_bot("random", seed * 10 + s) for s in range(3)]
    for _ in range(moves):
        seat = rules.to_move(state)[0]
        state = rules.apply(state, bots[seat].choose(state, seat)[0])
    return state


# ----------------------------------------------------------------------------------------------- the view

@pytest.mark.parametrize("variant", GAMES)
def test_view_holds_the_legal_moves_and_helpers_in_every_game(variant):
    state = _position(variant, 40)
    rules = rules_of(state)
    seat = rules.to_move(state)[0]
    view = view_of(state, seat)
    assert view.seat == seat and view.variant == variant and view.players == 3
    engine = [str(a).split(": ", 1)[-1] for a in rules.legal_actions(state, seat)]
    assert [str(m) for m in view.legal] == engine
    for move in view.legal:                  # each move's parts agree with the engine's reading of its text
        assert move.kind == type(rules.legal_actions(state, seat)[view.legal.index(move)]).verb
    assert set(view.kinds) == {m.kind for m in view.legal}
    assert view.hand == {k: n for k, n in view.me.get("hand", {}).items()}
    assert all(t.a and t.b and t.points for t in view.tickets)
    if variant == "cardgame":
        assert view.map is None and view.trains is None
        need = view.still_needed()
        assert all(n > 0 for n in need.values())
        with pytest.raises(TTRError, match="no board"):
            view.cheapest_path("Chicago", "Miami")
    else:
        for ticket, path in view.ticket_plan():
            if path is not None:
                assert path.cities[0] == ticket.a and path.cities[-1] == ticket.b
                assert path.trains == sum(r.length for r in path.routes)
                assert all(r.owner is None for r in path.routes)
        g = view.graph()
        assert g.number_of_nodes() == len(view.map.cities)
        for claim in view.moves_of("claim"):
            assert claim.route.owner is None and claim.length == claim.route.length and claim.cards


@pytest.mark.parametrize("variant", GAMES)
def test_view_is_the_same_whatever_the_seat_cannot_see(variant):
    """Hidden information: the other seats' hands and the deck's order changed, the payload a bot gets is the same
    (and so is any bot's answer)."""
    state = _position(variant, 30, seed=6)
    rules = rules_of(state)
    seat = rules.to_move(state)[0]
    other = (seat + 1) % state.n_players
    players = list(state.players)
    hand = list(players[other].hand)
    src = next(k for k, n in enumerate(hand) if n)
    dst = next(k for k in range(len(hand)) if k != src)
    hand[src] -= 1
    hand[dst] += 1
    players[other] = dataclasses.replace(players[other], hand=tuple(hand))
    changed = dataclasses.replace(state, players=tuple(players), deck=tuple(reversed(state.deck)))
    assert changed != state
    assert payload(changed, seat) == payload(state, seat)
    assert payload(changed, other) != payload(state, other)       # the change is real: its owner sees it


def test_view_text_names_own_tickets_not_the_others():
    from ttr_nb.board.names import ticket_text
    from ttr_nb.board.maps import load_map
    state = _position("usa", 12)
    view = view_of(state, 0)
    text = view.text()
    m = load_map("usa")
    assert all(str(t) in text for t in view.tickets)
    for other in (1, 2):
        assert not [t for t in state.players[other].tickets if ticket_text(m, m.ticket(t)) in text]
        assert "hand" not in view.raw["players"][other] and "tickets" not in view.raw["players"][other]


def test_payload_is_json_and_the_view_a_copy():
    state = _position("europe", 25)
    doc = payload(state, 0)
    assert json.loads(json.dumps(doc)) == doc
    view = BotView(json.loads(json.dumps(doc)))
    view.raw["players"][0]["trains"] = 0
    view.legal.clear()
    assert payload(state, 0) == doc


# ----------------------------------------------------------------------------------------------- the contract

def test_student_bot_plays_a_whole_game_and_the_record_replays():
    def longest(view):
        claims = view.moves_of("claim")
        return max(claims, key=lambda m: (m.length, str(m))) if claims else view.legal[0]
    results = run_tournament([longest, "greedy"], "usa", games=1, players=2, seed=8, workers=0)
    assert results.complete and len(results.records) == 2 and not results.forfeits()
    for r in results.records:
        game = results.game(r["index"])
        assert game.is_over and [p.total for p in game.score().players] == r["scores"]
        assert sorted(r["ranks"]) in ([1, 2], [1, 1])


def test_student_bot_answers_are_checked_by_the_rules():
    state = _position("usa", 20)
    seat = rules_of(state).to_move(state)[0]
    for answer, kind, words in [
        (lambda v: "claim Nowhere–Elsewhere red9", "illegal", "not a legal move"),
        (lambda v: None, "illegal", "returned None"),
        (lambda v: 1 / 0, "exception", "ZeroDivisionError"),
        (lambda v: "red: draw deck" if v.seat == 0 else "blue: draw deck", "illegal", "only its own seat"),
    ]:
        with pytest.raises(Forfeit, match=words) as e:
            StudentBot(answer).choose(state, seat)
        assert e.value.kind == kind
    action, reason = StudentBot(lambda v: (v.legal[-1], "the last one")).choose(state, seat)
    assert str(action).split(": ", 1)[-1] == payload(state, seat)["legal"][-1]
    assert str(reason) == "the last one" and reason.public == "its own choice"


def test_make_bot_takes_a_student_bot_file_or_function(tmp_path):
    """A student's bot in the house bots' protocol: it plays a Game (and so the play and history views)."""
    from ttr_nb.bots import make_bot
    from ttr_nb.game import Game
    path = _bot(tmp_path, "alice", "def choose(view):\n    return view.legal[-1]\n")
    game = Game("europe", players=2, seed=3)
    game.play_bots({0: make_bot(path), 1: make_bot(_first)}, max_plies=30)
    assert game.ply == 30 and isinstance(make_bot(path), StudentBot)


def test_random_is_seeded_per_move_so_student_bots_replay():
    def dice(view):
        import random
        return random.choice(view.legal)
    a = run_tournament([dice, "random"], "usa", games=1, seed=2, workers=0)
    b = run_tournament([dice, "random"], "usa", games=1, seed=2, workers=0)
    assert [r["actions"] for r in a.records] == [r["actions"] for r in b.records]


def test_bot_specs_from_files_names_and_functions(tmp_path):
    assert bot_spec("greedy").kind == "house" and bot_spec("mixed:0.5").house == "mixed:0.5"
    assert bot_spec(_first).kind == "function"
    f = _bot(tmp_path, "alice", "def choose(view):\n    return view.legal[0]\n")
    assert bot_spec(f).name == "alice"
    with pytest.raises(TTRError, match="neither a bot file"):
        bot_spec("grumpy")
    with pytest.raises(TTRError, match="does not exist"):
        bot_spec(str(tmp_path / "nobody.py"))


# ----------------------------------------------------------------------------------------------- forfeits, in processes

FORFEITING = {
    "start": ("def choose(view)\n    return view.legal[0]\n", "SyntaxError"),
    "exception": ("def choose(view):\n    return {}['x']\n", "KeyError"),
    "illegal": ("def choose(view):\n    return 'claim Denver–Omaha red9'\n", "not a legal move"),
    "timeout": ("import time\ndef choose(view):\n    time.sleep(60)\n", "no answer within 2.5 s on the clock"),
    "cpu": ("import time\ndef choose(view):\n    t = time.process_time()\n    while time.process_time() - t < 0.15:\n"
            "        pass\n    return view.legal[0]\n", "of CPU for a move (the limit is 0.1 s)"),
    "crash": ("import os\ndef choose(view):\n    os._exit(3)\n", "exit code 3"),
    "memory": ("def choose(view):\n    x = bytearray(3_000_000_000)\n    return view.legal[0]\n", "MemoryError"),
}


@pytest.mark.skipif(os.name != "posix", reason="the memory limit needs RLIMIT_AS (Linux)")
@pytest.mark.parametrize("case", sorted(FORFEITING))
def test_each_way_to_forfeit_is_recorded_and_the_game_finishes(case, tmp_path):
    source, words = FORFEITING[case]
    bot = bot_spec(_bot(tmp_path, case, source)).to_wire()
    house = bot_spec("greedy").to_wire()
    record = play_game({"index": 0, "deal": 0, "seed": 3, "variant": "usa", "seats": [0, 1],
                        "seat_bots": [bot, house], "move_seconds": 0.1 if case == "cpu" else 0.5, "memory_mb": 512,
                        "in_process": False})
    (f,) = record["forfeits"]
    kind = {"memory": "exception", "cpu": "timeout"}.get(case, case)
    assert f["seat"] == 0 and f["kind"] == kind and words in f["reason"], f
    assert record["ranks"] == [2, 1] and record["winners"] == [1]
    game_over = rules_of("usa").new_game("usa", 2, 3)
    for a in record["actions"]:                      # the random stand-in played the seat to the end
        game_over = rules_of("usa").apply(game_over, a)
    assert game_over.phase == "over"


def test_bots_spawned_without_the_zygote_forfeit_the_same_way(tmp_path, monkeypatch):
    """Where there is no zygote (not Linux, or TTR_NB_NO_ZYGOTE=1) each bot's process is spawned: same answers."""
    from ttr_nb.tournament import sandbox
    monkeypatch.setenv("TTR_NB_NO_ZYGOTE", "1")
    assert sandbox._zygote() is None
    for case in ("crash", "illegal"):
        bot = bot_spec(_bot(tmp_path, case, FORFEITING[case][0])).to_wire()
        record = play_game({"index": 0, "deal": 0, "seed": 3, "variant": "usa", "seats": [0, 1],
                            "seat_bots": [bot, bot_spec("random").to_wire()], "move_seconds": 5, "memory_mb": 512,
                            "in_process": False})
        (f,) = record["forfeits"]
        assert f["kind"] == case and FORFEITING[case][1] in f["reason"]


def test_the_clock_limit_is_judged_by_when_the_answer_arrived():
    """An answer that arrives after the clock's limit is a timeout even when the referee's wait ends late and finds
    it there (a busy machine): a bot that sleeps exactly the limit forfeits in every run, not in some."""
    import time
    from ttr_nb.tournament.sandbox import BotProcess
    late, on_time = BotProcess(bot_spec("random")), BotProcess(bot_spec("random"))
    late._answers.put((time.monotonic() + 60, '{"move": "draw"}\n'))        # arrived after a 1 s limit
    with pytest.raises(Forfeit) as refused:
        late._receive(1.0, "on the clock for a move")
    assert refused.value.kind == "timeout" and "no answer within 1 s on the clock" in str(refused.value)
    on_time._answers.put((time.monotonic(), '{"move": "draw"}\n'))
    assert on_time._receive(1.0, "on the clock for a move") == {"move": "draw"}


@pytest.mark.skipif(os.name != "posix", reason="the clock's limit is the same elsewhere; the zygote is Linux's")
def test_a_bot_that_sleeps_exactly_the_clock_limit_forfeits(tmp_path):
    from ttr_nb.tournament.sandbox import wall_seconds
    source = f"import time\ndef choose(view):\n    time.sleep({wall_seconds(0.1)!r})\n    return view.legal[0]\n"
    bot = bot_spec(_bot(tmp_path, "sleeper", source)).to_wire()
    record = play_game({"index": 0, "deal": 0, "seed": 3, "variant": "usa", "seats": [0, 1],
                        "seat_bots": [bot, bot_spec("random").to_wire()], "move_seconds": 0.1, "memory_mb": 512,
                        "in_process": False})
    (f,) = record["forfeits"]
    assert f["seat"] == 0 and f["kind"] == "timeout" and "on the clock" in f["reason"], f


def test_a_bot_cannot_change_a_result_or_read_the_callers_environment(tmp_path, monkeypatch):
    """A bot that patches ttr_nb in its own process and mutates its view plays the same game as one that only
    chooses the same moves; its process has none of the caller's environment variables."""
    monkeypatch.setenv("TTR_TEACHER_SECRET", "hunter2")
    patcher = _bot(tmp_path, "patcher", """
        import os
        import ttr_nb.board.engine, ttr_nb.board.scoring, ttr_nb.tournament.contract
        def choose(view):
            pick = view.legal[0]
            ttr_nb.board.engine.apply = lambda state, action: state            # the referee does not use this copy
            ttr_nb.board.engine.legal_actions = lambda *a, **k: []
            ttr_nb.board.scoring.score = None
            ttr_nb.tournament.contract.checked_action = lambda *a, **k: None
            view.raw["players"][view.seat]["trains"] = 99
            view.raw["claims"][:] = [view.seat] * len(view.raw["claims"])
            view.legal.append("claim Denver–Omaha red9")
            if view.turn == 6:
                raise RuntimeError("environment: " + ",".join(sorted(os.environ)))
            return pick
    """)
    plain = _bot(tmp_path, "plain", """
        def choose(view):
            if view.turn == 6:
                raise RuntimeError("stop here too")
            return view.legal[0]
    """)

    def run(bot):
        return play_game({"index": 0, "deal": 0, "seed": 11, "variant": "usa", "seats": [0, 1],
                          "seat_bots": [bot_spec(bot).to_wire(), bot_spec("greedy").to_wire()],
                          "move_seconds": 5, "memory_mb": 1024, "in_process": False})
    a, b = run(patcher), run(plain)
    assert a["actions"] == b["actions"] and a["scores"] == b["scores"] and a["ranks"] == b["ranks"]
    (f,) = a["forfeits"]
    env = f["reason"].split("environment: ", 1)[1].split(" (", 1)[0].split(",")
    assert "TTR_TEACHER_SECRET" not in env and "hunter2" not in f["reason"]
    assert set(env) <= {"PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYTHONPATH", "HOME",
                        "TMPDIR", "LANG", "PATH", "LC_CTYPE"}


# ----------------------------------------------------------------------------------------------- schedule and results

def test_schedule_every_table_every_seat_seeded_deals():
    plan = schedule(4, 2, 3, seed=10)
    assert len(plan) == count_games(4, 2, 3) == 3 * 6 * 2
    assert [t["index"] for t in plan] == list(range(len(plan)))
    assert {t["seed"] for t in plan} == {10, 11, 12}
    pairs = [tuple(t["seats"]) for t in plan if t["deal"] == 0]
    assert len(set(pairs)) == 12 and all((b, a) in pairs for a, b in pairs)
    some = schedule(30, 4, 2, seed=1, tables=5)
    assert len(some) == 2 * 5 * 4 and some == schedule(30, 4, 2, seed=1, tables=5)
    with pytest.raises(TTRError, match="at least 3"):
        schedule(2, 3, 1, seed=0)


def test_places_forfeits_last_and_wilson_intervals():
    assert ranks([50, 80, 60], [1], []) == [3, 1, 2]
    assert ranks([50, 80, 60], [1], [{"seat": 1}]) == [2, 3, 1]
    assert ranks([70, 70, 10], [0, 1], []) == [1, 1, 3]
    lo, hi = wilson(6, 10)
    assert 0.31 < lo < 0.32 and 0.83 < hi < 0.84
    assert wilson(0, 0) == (0.0, 1.0)


def test_results_stream_to_a_file_and_resume_without_replaying(tmp_path):
    out = tmp_path / "class.jsonl"
    bots = ["random", "mixed:0.2", "random"]             # quick games: the file is the point here
    full = run_tournament(bots, "usa", games=2, players=2, seed=5, workers=0, out=out)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + full.header["games"] == 13
    # an interruption: four games finished, the fifth cut in the middle of its line
    out.write_text("\n".join(lines[:5]) + "\n" + lines[5][:40], encoding="utf-8")
    seen = []
    again = run_tournament(bots, "usa", games=2, players=2, seed=5, workers=0, out=out,
                           progress=lambda done, total, rec: seen.append(rec and rec["index"]))
    assert again.resumed == 4 and "unfinished last line" in again.note
    assert seen[0] is None and sorted(seen[1:]) == list(range(4, 12))       # only the missing games were played
    strip = lambda rs: [{k: v for k, v in r.items() if k not in ("seconds", "cpu")} for r in rs]   # noqa: E731
    assert strip(again.records) == strip(full.records)
    assert again.table() == full.table() == load_results(out).table()
    # Ctrl-C after three games: the three are kept, the command says so, and a new run plays the other nine
    cut = tmp_path / "cut.jsonl"

    def stop(done, total, record):
        if done == 3:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        run_tournament(bots, "usa", games=1, players=2, seed=5, workers=0, out=cut, progress=stop)
    assert len(load_results(cut).records) == 3
    assert run_tournament(bots, "usa", games=1, players=2, seed=5, workers=0, out=cut).resumed == 3
    before = out.read_bytes()
    with pytest.raises(TTRError, match="holds another tournament"):
        run_tournament(bots, "usa", games=3, players=2, seed=5, workers=0, out=out)
    assert out.read_bytes() == before


# ----------------------------------------------------------------------------------------------- the command

def _cli(*args: str) -> tuple[int, str, str]:
    import io
    out, err = io.StringIO(), io.StringIO()
    code = main(["tournament", *args], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_forfeits_crasher_and_sleeper_and_workers_give_the_same_table(tmp_path):
    crasher = _bot(tmp_path, "crasher", "def choose(view):\n    raise ValueError('oops')\n")
    sleeper = _bot(tmp_path, "sleeper", "import time\ndef choose(view):\n    time.sleep(30)\n")
    args = ["usa", crasher, sleeper, "greedy", "random", "--games", "1", "--players", "2", "--move-seconds", "0.5",
            "--seed", "3", "--quiet"]
    code, out, err = _cli(*args, "--workers", "2", "--out", str(tmp_path / "r.jsonl"))
    assert code == 0, err
    rows = {line.split()[1]: line for line in out.splitlines()[2:6]}
    assert rows["crasher"].endswith("6 exception") and rows["sleeper"].endswith("6 timeout")
    assert rows["greedy"].endswith(" -") and rows["random"].endswith(" -")
    assert "ValueError: oops (crasher.py, line 2, in choose)" in out and "no answer within 2.5 s" in out
    assert "12 games played" in err and "on 2 local worker processes" in err
    assert len(load_results(tmp_path / "r.jsonl").records) == 12
    code1, out1, _ = _cli(*args, "--workers", "1")
    assert code1 == 0 and out1 == out


def test_greedy_never_draws_when_deck_and_discard_are_empty_USA_DRAW_8():
    """Found by a tournament: a bot that only draws empties deck and discard; greedy then took a face-up card,
    which USA-DRAW-8 forbids (the referee now records a refused house-bot move as a forfeit instead of stopping)."""
    from ttr_nb.bots import make_bot
    rules = rules_of("usa")
    state = rules.new_game("usa", 2, 4)
    bots = [StudentBot(_first), make_bot("greedy", 401)]
    empty = 0
    while state.phase != "over":
        seat = rules.to_move(state)[0]
        empty += not state.deck and not any(state.discard)
        state = rules.apply(state, bots[seat].choose(state, seat)[0])      # raised IllegalAction (USA-DRAW-8)
    assert empty


def test_cli_refuses_bad_input_with_a_clear_message(tmp_path):
    code, _, err = _cli("usa", "greedy", "nobody_here", "--games", "1")
    assert code == 2 and "neither a bot file" in err
    code, _, err = _cli("usa", "greedy", "random", "--players", "7")
    assert code == 2 and "2–5 players" in err
    code, _, err = _cli("usa", "greedy", "--players", "2")
    assert code == 2 and "give at least 2" in err
    bad = tmp_path / "notes.txt"
    bad.write_text("my notes\n")
    code, _, err = _cli("usa", "greedy", "random", "--out", str(bad), "--workers", "0")
    assert code == 2 and "not a ttr-nb tournament" in err and bad.read_text() == "my notes\n"


def test_dask_local_cluster_gives_the_same_table(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    crasher = _bot(tmp_path, "crasher", "def choose(view):\n    raise ValueError('oops')\n")
    args = ["usa", crasher, "greedy", "random", "--games", "1", "--seed", "4", "--quiet"]
    code, local, _ = _cli(*args, "--workers", "0")
    assert code == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        code, remote, err = _cli(*args, "--scheduler", cluster.scheduler_address)
    assert code == 0, err
    assert remote == local and "Dask cluster" in err and "crasher: 4 × exception" in remote


# ----------------------------------------------------------------------------------------------- the lesson's helpers

def test_save_bot_writes_a_file_that_plays_the_same(tmp_path):
    from ttr_nb.tournament.teach import save_bot
    path = save_bot(_helper_bot, tmp_path / "mine.py")
    text = path.read_text(encoding="utf-8")
    assert "import math" in text and "LIMIT = 3" in text and "def _score(" in text and "choose = _helper_bot" in text
    state = _position("usa", 15)
    seat = rules_of(state).to_move(state)[0]
    assert StudentBot(str(path)).choose(state, seat)[0] == StudentBot(_helper_bot).choose(state, seat)[0]
    (tmp_path / "other.py").write_text("print('mine')\n")
    with pytest.raises(TTRError, match="not written by save_bot"):
        save_bot(_helper_bot, tmp_path / "other.py")


LIMIT = 3


def _score(move) -> float:
    import math
    return math.log1p(move.length) if move.length <= LIMIT else 0.0


def _helper_bot(view):
    import math  # noqa: F401  (a module import is written out too)
    return max(view.legal, key=lambda m: (_score(m), str(m)))


def test_beat_bot_exercise_passes_and_fails():
    from ttr_nb.exercises.bots import BeatBot, BeatGreedy

    def longest(view):
        claims = view.moves_of("claim")
        return max(claims, key=lambda m: m.length) if claims else view.legal[0]
    ok = BeatBot("random", games=4, seed=1).check(longest)
    assert ok and "won 4 of 4" in ok.explanation
    bad = BeatGreedy(games=2).check(lambda view: view.legal[-1])
    assert not bad and "needed" in bad.explanation
    assert "60%" in BeatGreedy().title and "100" in str(BeatGreedy().prompt())


def test_tournament_core_imports_no_plotting(tmp_path):
    from purity import run_blocked
    done = run_blocked('''
        from ttr_nb.tournament import run_tournament
        r = run_tournament([lambda v: v.legal[0], "random"], "cardgame", games=1, workers=0)
        assert r.complete and r.table()
        leaked = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
        assert not leaked and not attempts, (leaked, attempts)
        print("OK")
    ''')
    assert done.returncode == 0 and "OK" in done.stdout, done.stderr


def test_chart_draws_ratings_and_win_rates():
    results = run_tournament(["greedy", "random"], "usa", games=1, workers=0)
    fig = results.chart()
    names = [t.name for t in fig.data]
    assert names == ["mu", "rating", "win rate"] and list(fig.data[2].y) == ["random", "greedy"]


def test_a_house_bot_name_is_not_looked_up_as_a_file(monkeypatch, tmp_path):
    """'coach:0.05' names a house bot: no file-system lookup (JupyterLite's file system asks its server for a
    folder 'coach:' and the page logs a 404). A plain name that is no house bot but a file still loads."""
    monkeypatch.chdir(tmp_path)
    looked = []
    is_file = Path.is_file
    monkeypatch.setattr(Path, "is_file", lambda self: looked.append(str(self)) or is_file(self))
    assert bot_spec("coach:0.05").kind == "house" and bot_spec("greedy").kind == "house"
    assert looked == []
    (tmp_path / "mybot").write_text("def choose(view):\n    return view.legal[0]\n")
    assert bot_spec("mybot").kind == "source" and set(looked) == {"mybot"}
    with pytest.raises(TTRError, match="neither a bot file"):
        bot_spec("nobot")
