"""The Card Game package has no import circle (issue 18): the bots use the rules, the rules never name the bots.

The graph is read from the source (``ast``), every ``import`` counted — at the top of a module or inside a function,
since a deferred import is still a dependency; the engine finds its bots through the registry
(``ttr_nb.variants.bots_of``), not by importing them.
"""
from __future__ import annotations

from import_graph import cycles, import_graph, within


def test_the_cycle_finder_sees_a_circle_through_a_deferred_import(tmp_path):
    # the check can fail: two modules importing each other, one of them inside a function, are a circle
    root = tmp_path / "ttr_nb"
    pkg = root / "cardgame"
    pkg.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "engine.py").write_text("def bot():\n    from .bots import GreedyBot\n    return GreedyBot\n")
    (pkg / "bots.py").write_text("from .engine import bot\n\nclass GreedyBot:\n    pass\n")
    graph = within(import_graph(root), "ttr_nb.cardgame")
    assert cycles(graph) == [["ttr_nb.cardgame.bots", "ttr_nb.cardgame.engine"]]


def test_the_card_game_package_has_no_import_circle():
    edges = within(import_graph(), "ttr_nb.cardgame")
    assert "ttr_nb.cardgame.engine" in edges["ttr_nb.cardgame.bots"]          # the bots use the rules ...
    assert cycles(edges) == []                                                 # ... and nothing leads back


def test_the_card_game_bots_are_found_through_the_registry():
    from ttr_nb import Game, make_bot
    from ttr_nb.cardgame.bots import GreedyBot, RandomBot
    from ttr_nb.variants import bots_of
    assert isinstance(bots_of("cardgame")("greedy", 3), GreedyBot)
    assert isinstance(bots_of("card game")("random"), RandomBot)
    game = Game("cardgame", 2, seed=4)
    action, _ = make_bot("greedy", 1).choose(game.state, game.state.current)
    assert str(action)
