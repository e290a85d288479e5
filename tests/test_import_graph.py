"""The board engine's core has no import circles (issue 18): no two of its modules import each other, directly or
through others.

The graph is read from the source (ast), so every import counts: at the top of a module, inside a function (a
"lazy" import), and under ``if TYPE_CHECKING:``. A circle of module imports makes the import order matter and ties
modules together that the design keeps apart; engine↔scoring, state↔variants, maps↔names (and engine↔tables,
engine↔featuredata, tables↔variants) were such circles and are ended. Circles elsewhere in the package (the bots
with the coach and tournament, the Card Game's engine with its bots) are not checked here.
"""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ttr_nb"

# The board engine's core: every module here must lie on no import circle at all.
CORE = ("actions", "cards", "determinization", "engine", "errors", "featuredata", "maps", "names", "rng", "scoring",
        "state", "tables", "trail", "variants")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The ttr_nb modules ``path`` imports anywhere in its text (``from . import x`` names module x when x is one)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "ttr_nb")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "ttr_nb":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else target)
    out.discard(name)
    return {m for m in out if m in known}


@cache
def import_graph() -> dict[str, set[str]]:
    """module -> the ttr_nb modules it imports (read once: the tests below only look)."""
    paths = sorted(PACKAGE.rglob("*.py"))
    known = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, known) for p in paths}


def circle_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """One import circle from ``start`` back to it (a list of modules), or None (a depth-first search)."""
    seen: set[str] = set()
    path = [start]

    def walk(node: str) -> bool:
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                return True
            if nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                if walk(nxt):
                    return True
                path.pop()
        return False
    return path + [start] if walk(start) else None


def test_the_graph_sees_every_kind_of_import():
    """The reader itself: top-level, relative, lazy (inside a function) and TYPE_CHECKING imports are all edges
    (a reader that missed them would pass vacuously)."""
    graph = import_graph()
    assert "ttr_nb.names" in graph["ttr_nb.engine"]                     # from .names import ... (top level)
    assert "ttr_nb.scoring" in graph["ttr_nb.engine"]                   # inside engine.score
    assert "ttr_nb.variants" in graph["ttr_nb.state"]                   # inside state._variant_kinds
    assert "ttr_nb.maps" in graph["ttr_nb.variants"]                    # under TYPE_CHECKING, and in Variant.map
    assert "ttr_nb.engine" in graph["ttr_nb.render.board"] or "ttr_nb.engine" in graph["ttr_nb.render.describe"]


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circle_through(graph, "a") == ["a", "b", "c", "a"]
    assert circle_through(graph, "d") is None


def test_no_import_circle_through_the_board_core():
    graph = import_graph()
    for short in CORE:
        assert f"ttr_nb.{short}" in graph, f"ttr_nb.{short} is gone: update CORE"
    circles = [" → ".join(c) for short in CORE if (c := circle_through(graph, f"ttr_nb.{short}"))]
    assert not circles, "import circles through the board core:\n" + "\n".join(circles)


def test_the_named_pairs_do_not_import_each_other():
    graph = import_graph()
    for a, b in [("engine", "scoring"), ("state", "variants"), ("maps", "names"), ("engine", "tables"),
                 ("engine", "featuredata"), ("tables", "variants")]:
        a, b = f"ttr_nb.{a}", f"ttr_nb.{b}"
        assert not (b in graph[a] and a in graph[b]), f"{a} and {b} import each other"
