"""The ttr-nb command line: play, simulate, check-map, variants."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ttr_nb.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_play_prints_every_turn_and_the_final_breakdown():
    code, out, _ = run("play", "usa", "--players", "3", "--bots", "greedy,random,mixed:0.5", "--seed", "4")
    assert code == 0
    assert out.startswith("Ticket to Ride (USA) — 3 players, seed 4")
    assert "Players: Blue (greedy), Red (random), Green (mixed:0.5)" in out
    assert "\nTurn 1 · Blue\n" in out
    assert "The game is over: final scoring (USA-END-1)" in out
    assert "Final score" in out and "Winner" in out
    assert "longest trail" in out


def test_play_is_reproducible_for_a_seed():
    assert run("play", "--seed", "9", "--players", "2")[1] == run("play", "--seed", "9", "--players", "2")[1]
    assert run("play", "--seed", "9", "--players", "2")[1] != run("play", "--seed", "10", "--players", "2")[1]


def test_play_quiet_prints_only_the_score():
    code, out, _ = run("play", "--quiet", "--players", "2", "--seed", "1")
    assert code == 0 and "Turn 1" not in out and "Final score" in out


def test_simulate_prints_statistics():
    code, out, err = run("simulate", "usa", "--games", "4", "--players", "2", "--bots", "random", "--seed", "5",
                         "--workers", "1")
    assert code == 0
    assert "4 games of usa with 2 players, bots random, seeds 5–8" in out
    for line in ("final score per player", "game length in turns", "tickets completed per player", "longest trail",
                 "wins by seat"):
        assert line in out
    assert err == ""              # a short run shows no progress bar (tests/test_simulation.py: a long one does)


def test_check_map_accepts_the_shipped_maps_and_names_problems_in_bad_ones(tmp_path):
    code, out, _ = run("check-map", str(ROOT / "maps" / "usa.json"))
    assert code == 0 and "valid" in out and "36 cities, 100 routes, 30 tickets" in out
    doc = json.loads((ROOT / "maps" / "usa.json").read_text(encoding="utf-8"))
    doc["routes"][3]["length"] = "four"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = run("check-map", str(bad))
    assert code == 1
    assert "bad.json" in out and "routes[3]" in out and "length" in out


@pytest.mark.parametrize("argv, message", [
    (("play", "--players", "9"), "2–5 players"),
    (("play", "--bots", "nope"), "unknown bot 'nope'"),
    (("play", "--players", "3", "--bots", "greedy,random"), "2 bots for 3 players"),
    (("play", "atlantis"), "unknown variant 'atlantis'"),
    (("simulate", "--games", "0"), "--games must be at least 1"),
    (("play", "--bots", "mixed:1.5"), "between 0 and 1"),
])
def test_bad_arguments_give_a_clear_error_and_exit_2(argv, message):
    code, out, err = run(*argv)
    assert code == 2
    assert message in err
    assert out == ""


def test_variants_lists_every_registered_variant():
    code, out, _ = run("variants")
    assert code == 0
    assert "usa" in out and "Ticket to Ride (USA)" in out and "europe" in out


def test_console_entry_point_runs_as_a_module():
    proc = subprocess.run([sys.executable, "-m", "ttr_nb.cli", "play", "--quiet", "--players", "2", "--seed", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Final score" in proc.stdout


def test_play_help_explains_every_argument_and_lists_the_games(capsys):
    from ttr_nb.variants import available_games, get_game
    with pytest.raises(SystemExit) as e:
        main(["play", "--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    flat = " ".join(text.split())                         # argparse wraps the help to the terminal's width
    for arg, words in (("VARIANT", "the game to play"), ("--players N", "how many players: 2–4 in cardgame"),
                       ("--bots BOTS", "mixed:P = greedy with probability P"), ("--seed SEED", "same game again"),
                       ("--quiet", "only the final score")):
        line = next(l for l in text.splitlines() if l.strip().startswith(arg))
        assert words in flat and len(line.strip()) > len(arg), (arg, line)
    for key in available_games():
        assert f"  {key} " in text and get_game(key).name in text
    assert "example: ttr-nb play europe" in text


def test_variants_are_listed_in_aligned_columns():
    code, out, _ = run("variants")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 5 and any(l.startswith("south_korea ") for l in lines)
    starts = {len(l) - len(l.split(maxsplit=1)[1]) for l in lines}     # where each game's name begins
    assert len(starts) == 1, lines
