"""The board engine's core has no import circles (issue 18): no two of its modules import each other, directly or
through others.

The graph is read from the source (ast), so every import counts: at the top of a module, inside a function (a
"lazy" import), and under ``if TYPE_CHECKING:``. A circle of module imports makes the import order matter and ties
modules together that the design keeps apart; engine↔scoring, state↔variants, maps↔names (and engine↔tables,
engine↔featuredata, tables↔variants) were such circles and are ended. Circles elsewhere in the package (the bots
with the coach and tournament, the Card Game's engine with its bots) are not checked here.
"""
from __future__ import annotations

from import_graph import circle_through, import_graph

# The board engine's core: every module here must lie on no import circle at all.
BOARD = ("actions", "cards", "determinization", "engine", "featuredata", "maps", "names", "scoring", "state", "tables",
         "trail")
CORE = tuple(f"ttr_nb.board.{m}" for m in BOARD) + ("ttr_nb.errors", "ttr_nb.rng", "ttr_nb.variants")


def full(short: str) -> str:
    return f"ttr_nb.board.{short}" if short in BOARD else f"ttr_nb.{short}"


def test_the_graph_sees_every_kind_of_import():
    """The reader itself: top-level, relative, lazy (inside a function) and TYPE_CHECKING imports are all edges
    (a reader that missed them would pass vacuously)."""
    graph = import_graph()
    assert "ttr_nb.board.names" in graph["ttr_nb.board.engine"]                     # from .names import ... (top level)
    assert "ttr_nb.board.scoring" in graph["ttr_nb.board.engine"]                   # inside engine.score
    assert "ttr_nb.variants" in graph["ttr_nb.board.state"]                   # inside state._variant_kinds
    assert "ttr_nb.board.maps" in graph["ttr_nb.variants"]                    # under TYPE_CHECKING, and in Variant.map
    assert "ttr_nb.board.engine" in graph["ttr_nb.render.board"] or "ttr_nb.board.engine" in graph["ttr_nb.render.describe"]


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circle_through(graph, "a") == ["a", "b", "c", "a"]
    assert circle_through(graph, "d") is None


def test_no_import_circle_through_the_board_core():
    graph = import_graph()
    for name in CORE:
        assert name in graph, f"{name} is gone: update CORE"
    circles = [" → ".join(c) for name in CORE if (c := circle_through(graph, name))]
    assert not circles, "import circles through the board core:\n" + "\n".join(circles)


def test_the_named_pairs_do_not_import_each_other():
    graph = import_graph()
    for a, b in [("engine", "scoring"), ("state", "variants"), ("maps", "names"), ("engine", "tables"),
                 ("engine", "featuredata"), ("tables", "variants")]:
        a, b = full(a), full(b)
        assert not (b in graph[a] and a in graph[b]), f"{a} and {b} import each other"
