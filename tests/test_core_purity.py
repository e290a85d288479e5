"""The rules core is pure: it imports, plays, scores, saves and loads a game with plotly, ipywidgets, IPython and
anywidget made unimportable, and ``import ttr_nb`` does not pull in networkx (``Map.graph()`` imports it lazily).

Each check runs in a fresh interpreter, so modules other tests imported do not hide a violation.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from purity import BLOCKER, run_python as _run


def test_blocker_really_blocks():
    """The harness itself: a blocked import fails (otherwise the purity test could pass vacuously)."""
    done = _run(BLOCKER + textwrap.dedent('''
        try:
            import plotly.graph_objects
        except ImportError as e:
            print("BLOCKED", e)
        else:
            raise SystemExit("plotly imported although blocked")
    '''))
    assert done.returncode == 0, done.stderr
    assert "BLOCKED" in done.stdout


def test_rules_core_imports_and_plays_without_plotting_or_widgets(tmp_path):
    code = BLOCKER + textwrap.dedent(f'''
        import ttr_nb
        import ttr_nb.board.engine, ttr_nb.game, ttr_nb.bots, ttr_nb.board.scoring, ttr_nb.board.maps, ttr_nb.board.state, ttr_nb.board.actions
        import ttr_nb.variants, ttr_nb.rng, ttr_nb.board.trail, ttr_nb.errors, ttr_nb.board.cards
        modules = ["ttr_nb", "ttr_nb.board.engine", "ttr_nb.game", "ttr_nb.bots", "ttr_nb.board.scoring", "ttr_nb.board.maps"]
        if importlib.util.find_spec("ttr_nb.cli") is not None:
            import ttr_nb.cli
            modules.append("ttr_nb.cli")
        for variant in ttr_nb.available_variants():
            game = ttr_nb.Game(variant, players=3, seed=5)
            game.play_bots({{0: ttr_nb.make_bot("greedy"), 1: ttr_nb.make_bot("random", 1), 2: ttr_nb.make_bot("mixed:0.5", 2)}})
            assert game.is_over, variant
            ttr_nb.score(game.state)
            game.status(); game._repr_html_(); game.observe(0); ttr_nb.validate(game.state)
            path = {str(tmp_path)!r} + f"/{{variant}}.json"
            game.save(path)
            assert ttr_nb.Game.load(path).state == game.state
        leaked = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
        assert not leaked, f"imported: {{leaked}}"
        assert not attempts, f"the core tried to import: {{attempts}}"
        for m in modules:
            assert m in sys.modules, m
        print("OK", modules)
    ''')
    done = _run(code)
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert "OK" in done.stdout


def test_import_ttr_nb_does_not_import_networkx():
    done = _run(textwrap.dedent(f'''
        import sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
        import ttr_nb
        import ttr_nb.board.engine, ttr_nb.game, ttr_nb.bots, ttr_nb.board.scoring, ttr_nb.board.maps
        assert "networkx" not in sys.modules, "import ttr_nb imported networkx"
        ttr_nb.load_map("usa")
        assert "networkx" not in sys.modules, "load_map imported networkx"
        g = ttr_nb.load_map("usa").graph()
        assert "networkx" in sys.modules          # Map.graph() is where networkx comes in
        assert g.number_of_edges() == len(ttr_nb.load_map("usa").routes)
        print("OK")
    '''))
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert "OK" in done.stdout
