"""``ttr-nb simulate`` and ``ttr_nb.simulation.simulate`` on every core (issue 18, item 5): the same statistics for
any number of workers, the worker count checked, JupyterLite's in-process run said in words, the progress bar on
stderr only; and ``ttr_nb.parallel``, the one process pool (a script's own function, a failing task)."""
from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ttr_nb
from ttr_nb import parallel, simulation
from ttr_nb.cli import main
from ttr_nb.errors import TTRError
from ttr_nb.simulation import Simulation, simulate

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def without_time(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("  time: ")]


def test_workers_1_and_2_print_identical_statistics():
    args = ("simulate", "usa", "--games", "6", "--players", "2", "--bots", "random,greedy", "--seed", "11")
    code1, one, _ = run(*args, "--workers", "1")
    code2, two, _ = run(*args, "--workers", "2")
    assert code1 == code2 == 0
    assert "  time: " in one and "in this process" in one
    assert "on 2 processes at once" in two
    assert without_time(one) == without_time(two)
    assert len(without_time(one)) == 6 and "longest trail" in one and "wins by seat" in one


def test_the_function_gives_the_same_statistics_for_any_worker_count():
    one = simulate("usa", games=5, players=2, bots="random", seed=3, workers=1, progress=False)
    three = simulate("usa", games=5, players=2, bots="random", seed=3, workers=3, progress=False)
    assert isinstance(one, Simulation) and (one.workers, three.workers) == (1, 3) and ttr_nb.simulate is simulate
    assert one == three and one.statistics_lines() == three.statistics_lines()
    assert len(one.totals) == 10 and len(one.turns) == 5 and sum(one.wins) >= 5
    # game g of a run is the game dealt from seed + g, whoever plays it: the last game alone is the same game
    last = simulate("usa", games=1, players=2, bots="random", seed=7, workers=1, progress=False)
    assert three.totals[-2:] == last.totals and three.plies[-1:] == last.plies
    assert one != simulate("usa", games=5, players=2, bots="random", seed=4, workers=1, progress=False)


@pytest.mark.parametrize("workers, words", [(0, "--workers 0: give 1 (this process) or more"),
                                            (-2, "--workers -2: give 1"),
                                            ("2", "--workers '2': give a whole number of processes"),
                                            (2.5, "--workers 2.5: give a whole number"),
                                            (True, "--workers True: give a whole number")])
def test_a_bad_worker_count_is_named(workers, words, monkeypatch):
    monkeypatch.setattr(simulation, "run_tasks", lambda *a, **k: pytest.fail("no work before the check"))
    with pytest.raises(TTRError) as e:
        simulate("usa", games=2, players=2, workers=workers, progress=False)
    assert words in str(e.value)


@pytest.mark.parametrize("value, words", [("x", "argument --workers: 'x' is not a whole number"),
                                          ("0", "argument --workers: 0: give 1 (this process) or more"),
                                          ("-3", "argument --workers: -3: give 1")])
def test_the_command_line_names_a_bad_worker_count(value, words, capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--workers", value])
    assert e.value.code == 2
    captured = capsys.readouterr()
    assert words in captured.err and captured.out == ""


def test_bad_games_and_bots_are_refused_before_any_worker_starts(monkeypatch):
    monkeypatch.setattr(simulation, "run_tasks", lambda *a, **k: pytest.fail("no work before the check"))
    for kwargs, words in ((dict(bots="nope"), "unknown bot 'nope'"), (dict(players=9), "2–5 players"),
                          (dict(variant="atlantis"), "unknown variant 'atlantis'"), (dict(games=0), "at least 1")):
        with pytest.raises(TTRError, match=words):
            simulate(**{"games": 3, "players": 2, **kwargs}, workers=2, progress=False)


def test_in_jupyterlite_the_games_run_here_and_it_says_so(monkeypatch, capsys):
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(simulation, "run_tasks", lambda *a, **k: pytest.fail("no processes in JupyterLite"))
    stats = simulate("usa", games=2, players=2, seed=5, workers=4, progress=False)
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "cannot start other processes" in said and "one after another" in said
    assert stats.workers == 1 and "browser tab" in stats.note and "browser tab" in str(stats)
    quiet = simulate("usa", games=2, players=2, seed=5, workers=1, progress=False)      # asked for this process
    assert capsys.readouterr().out == "" and quiet.note == "" and quiet == stats
    import tqdm.auto
    monkeypatch.setattr(tqdm.auto.tqdm, "monitor_interval", 10)
    simulate("usa", games=1, players=2, seed=5, workers=1, progress_after=0.0)          # a bar, the notebook's way
    assert tqdm.auto.tqdm.monitor_interval == 0          # no monitor thread: Pyodide cannot start threads
    assert "simulate: 100%" in capsys.readouterr().err
    monkeypatch.setattr(sys, "platform", "linux")
    assert simulate("usa", games=2, players=2, seed=5, workers=1, progress=False) == stats


def test_a_long_run_shows_a_progress_bar_on_stderr_never_on_stdout(monkeypatch):
    monkeypatch.setattr(simulation, "PROGRESS_AFTER", 0.0)        # every run counts as long
    code, out, err = run("simulate", "--games", "3", "--players", "2", "--workers", "1")
    assert code == 0
    assert "simulate: 100%" in err and "3/3" in err and "game/s" in err
    assert "%|" not in out and "3/3" not in out and out.startswith("3 games of usa")
    monkeypatch.setattr(simulation, "PROGRESS_AFTER", 3600.0)     # a short run: no bar
    assert run("simulate", "--games", "3", "--players", "2", "--workers", "1")[2] == ""


def test_in_a_notebook_the_bar_is_tqdm_auto(capsys):
    stats = simulate("usa", games=2, players=2, workers=1, progress_after=0.0)   # tqdm.auto: plain tqdm outside Jupyter
    captured = capsys.readouterr()
    assert "simulate: 100%" in captured.err and "2/2" in captured.err and captured.out == ""
    assert stats.games == 2


def test_tqdm_is_imported_only_when_a_bar_shows():
    code = textwrap.dedent('''
        import sys
        import ttr_nb, ttr_nb.cli, ttr_nb.simulation
        assert "tqdm" not in sys.modules, "import ttr_nb imported tqdm"
        ttr_nb.simulation.simulate("usa", games=1, players=2, workers=1, progress_after=3600)
        assert "tqdm" not in sys.modules, "a short run imported tqdm"
        print("OK")
    ''')
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "OK" in done.stdout, done.stderr


def test_the_pool_runs_a_scripts_own_function_without_running_the_script_again(tmp_path):
    script = tmp_path / "square.py"
    script.write_text(textwrap.dedent('''
        import sys
        from ttr_nb.parallel import run_tasks

        def square(task):
            return {"index": task["index"], "square": task["index"] ** 2}

        if __name__ == "__main__":
            print("main ran")
            got = []
            run_tasks(square, [{"index": i} for i in range(5)], 2, got.append)
            print(sorted(r["square"] for r in got))
    '''), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["main ran", "[0, 1, 4, 9, 16]"]


def test_a_failing_task_stops_the_run_with_the_workers_reason():
    with pytest.raises(TTRError) as e:
        parallel.run_tasks(simulation.play_games, [{"first": 0}], 2, lambda r: None, what="a simulation worker")
    assert "a simulation worker failed" in str(e.value) and "KeyError" in str(e.value)
    with pytest.raises(TTRError, match="defined at the top of a module"):
        parallel.run_tasks(lambda t: t, [{}], 1, lambda r: None)


def test_simulate_help_explains_workers(capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--help"])
    assert e.value.code == 0
    flat = " ".join(capsys.readouterr().out.split())             # argparse wraps the help to the terminal's width
    assert "--workers N how many processes play the games at once: default one per core; 1 = this process only" in flat
    assert "The statistics are the same for any N" in flat


def _children() -> set[int]:
    import os
    pid = os.getpid()
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="lists child processes through /proc (Linux)")
def test_a_run_stopped_midway_leaves_no_worker_process():
    class Stop(Exception):
        pass

    def stop(result):
        raise Stop

    before = _children()
    tasks = [{"variant": "usa", "players": 2, "bots": "random", "seed": 0, "first": g, "count": 1} for g in range(8)]
    with pytest.raises(Stop):
        parallel.run_tasks(simulation.play_games, tasks, 3, stop, warmup=dict(tasks[0], count=0))
    assert _children() <= before


def test_ctrl_c_on_the_command_line_says_interrupted(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(simulation, "simulate", interrupted)
    code, out, err = run("simulate", "--games", "3")
    assert code == 130 and "ttr-nb: interrupted" in err and out == ""


def test_a_worker_that_cannot_start_is_reported(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text(textwrap.dedent('''
        from ttr_nb.parallel import run_tasks

        def same(task):
            return task

        if __name__ == "__main__":
            try:
                run_tasks(same, [{"index": 0}], 2, print, what="the broken pool")
            except Exception as e:
                print(type(e).__name__, e)
        else:
            raise RuntimeError("this worker cannot load its function")
    '''), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "TTRError the broken pool failed: the worker process did not start (exit code 1)"
    assert "this worker cannot load its function" in done.stderr          # the worker's own reason, on stderr
