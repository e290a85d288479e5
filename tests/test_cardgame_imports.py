"""The Card Game package has no import circle (issue 18): the bots use the rules, the rules never name the bots.

The graph is read from the source (``ast``), every ``import`` counted — at the top of a module or inside a function,
since a deferred import is still a dependency; the engine finds its bots through the registry
(``ttr_nb.variants.bots_of``), not by importing them.
"""
from __future__ import annotations

import ast
from pathlib import Path

import ttr_nb

PACKAGE = Path(ttr_nb.__file__).resolve().parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The ttr_nb modules one file imports (``from .x import y`` counts ``x``, and ``x.y`` when that is a module)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("ttr_nb"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("ttr_nb"):
                found.add(target)
                found.update(f"{target}.{a.name}" for a in node.names)
    return found


def graph(root: Path) -> dict[str, set[str]]:
    modules = {module_name(p): p for p in root.rglob("*.py")}
    return {m: {t for t in imports_of(p) if t in modules and t != m} for m, p in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_sees_a_circle_through_a_deferred_import(tmp_path):
    # the check can fail: two modules importing each other, one of them inside a function, are a circle
    pkg = tmp_path / "ttr_nb" / "cardgame"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "engine.py").write_text("def bot():\n    from .bots import GreedyBot\n    return GreedyBot\n")
    (pkg / "bots.py").write_text("from .engine import bot\n\nclass GreedyBot:\n    pass\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path / "ttr_nb"
    try:
        assert cycles(graph(pkg)) == [["ttr_nb.cardgame.bots", "ttr_nb.cardgame.engine"]]
    finally:
        PACKAGE = saved


def test_the_card_game_package_has_no_import_circle():
    edges = graph(PACKAGE / "cardgame")
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
