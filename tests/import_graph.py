"""The module import graph of a package, read from its source (``ast``), for the import-circle tests.

Every import counts: at the top of a module, inside a function (a "lazy" import: still a dependency) and under
``if TYPE_CHECKING:``.
"""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ttr_nb"


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, known: set[str], package: Path = PACKAGE) -> set[str]:
    """The modules of ``known`` that ``path`` imports anywhere in its text (``from . import x`` names module x
    when x is one; ``from .x import y`` names x, or x.y when that is a module)."""
    name = module_name(path, package)
    home = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top = package.name
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == top)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = home.split(".")[:len(home.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != top:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else target)
    out.discard(name)
    return {m for m in out if m in known}


@cache
def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the modules of the same package it imports (read once per package: the tests only look)."""
    paths = sorted(package.rglob("*.py"))
    known = {module_name(p, package) for p in paths}
    return {module_name(p, package): imports_of(p, known, package) for p in paths}


def within(graph: dict[str, set[str]], prefix: str) -> dict[str, set[str]]:
    """The part of ``graph`` inside one subpackage (its modules and the edges between them)."""
    inside = {m for m in graph if m == prefix or m.startswith(prefix + ".")}
    return {m: graph[m] & inside for m in inside}


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


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out
