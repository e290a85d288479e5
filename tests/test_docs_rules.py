"""docs/rules/: the project's own rule pages, one per implemented game (generic over the files present).

Checked for every ``docs/rules/<game>.md``: each rule (a ``### <ID> · title`` heading) has a test named after it
somewhere in tests/, lists where it is implemented and tested, and every link resolves: files exist, a linked
``module.qualname`` exists in the linked module, a linked test function exists in the linked test file. Every rule id
the code cites (for the prefixes these pages define) is defined on a page. When the specification folder
``../shared/rules/`` is beside the repository, each page defines exactly the ids of its digest there.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "docs" / "rules"
SHARED_RULES = REPO.parent / "shared" / "rules"
PAGES = sorted(p for p in RULES.glob("*.md") if p.name != "README.md")

RULE_HEADING = re.compile(r"^### ([A-Z]+-[A-Z]+-\d+) · \S", re.M)
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def rule_ids(page: Path) -> list[str]:
    return RULE_HEADING.findall(page.read_text(encoding="utf-8"))


def sections(page: Path) -> dict[str, str]:
    """rule id -> the text of its section (up to the next heading)."""
    text = page.read_text(encoding="utf-8")
    out = {}
    for m in RULE_HEADING.finditer(text):
        end = re.compile(r"^#{1,3} ", re.M).search(text, m.end())
        out[m.group(1)] = text[m.start():end.start() if end else len(text)]
    return out


@lru_cache(maxsize=None)
def names_in(path: Path) -> frozenset[str]:
    """Every qualified name defined in a Python file: functions, classes, their methods, module-level names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.add(prefix + node.name)
                if isinstance(node, ast.ClassDef):
                    visit(node.body, prefix + node.name + ".")
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                    if isinstance(target, ast.Name):
                        found.add(prefix + target.id)

    visit(tree.body, "")
    return frozenset(found)


@lru_cache(maxsize=None)
def rule_named_tests() -> dict[str, tuple[str, ...]]:
    """rule id -> test functions named ``test_<ID with _>_...`` anywhere under tests/."""
    out: dict[str, list[str]] = {}
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                m = re.match(r"test_([A-Z]+_[A-Z]+_\d+)_", node.name)
                if m:
                    out.setdefault(m.group(1).replace("_", "-"), []).append(node.name)
    return {k: tuple(v) for k, v in out.items()}


def test_there_are_pages_and_the_index_lists_exactly_them():
    assert {"usa.md", "europe.md"} <= {p.name for p in PAGES}
    index = (RULES / "README.md").read_text(encoding="utf-8")
    listed = {target for _, target in LINK.findall(index) if target.endswith(".md") and "/" not in target}
    assert listed == {p.name for p in PAGES}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_rule_id_has_a_test(page):
    ids = rule_ids(page)
    assert len(ids) >= 10 and len(ids) == len(set(ids)), "rule ids must be unique"
    prefix = {i.split("-")[0] for i in ids}
    assert len(prefix) == 1, f"{page.name} defines ids of several games: {prefix}"
    tests = rule_named_tests()
    missing = [i for i in ids if i not in tests]
    assert missing == [], f"rules of {page.name} without a test named test_<ID>_...: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_rule_says_what_ttr_nb_does_where_and_which_tests(page):
    tests = rule_named_tests()
    for rid, text in sections(page).items():
        assert "**Rule.**" in text and "**In ttr_nb.**" in text, rid
        implemented = re.search(r"^- Implemented: (.+)$", text, re.M)
        tested = re.search(r"^- Tested: (.+)$", text, re.M)
        assert implemented and tested, f"{rid}: needs '- Implemented:' and '- Tested:' lines"
        assert any(target.endswith(".py") for _, target in LINK.findall(implemented.group(1))), rid
        linked_tests = {text.strip("`") for text, _ in LINK.findall(tested.group(1))}
        assert linked_tests & set(tests[rid]), f"{rid}: links none of the tests named after it"


def _check_link(page: Path, text: str, target: str) -> str | None:
    if re.match(r"[a-z]+:", target) or target.startswith("#"):
        return None                                           # web addresses and anchors in the page
    path = (page.parent / target.split("#", 1)[0]).resolve()
    if not path.exists():
        return f"{target}: no such file"
    name = text.strip("`")
    if path.suffix != ".py" or not re.fullmatch(r"[A-Za-z_][\w.]*", name):
        return None
    rel = path.relative_to(REPO)
    if rel.parts[0] == "tests":
        return None if name in names_in(path) else f"{target}: no test {name}"
    module = ".".join(rel.with_suffix("").parts[1:])          # ttr_nb/games/europe.py -> games.europe
    if name == module:                                        # a rule implemented across a whole module
        return None
    if not name.startswith(module + "."):
        return f"[{text}]({target}): a code link is written module.name, e.g. `{module}.<name>`"
    qualname = name[len(module) + 1:]
    return None if qualname in names_in(path) else f"{target}: {qualname} is not defined there"


@pytest.mark.parametrize("page", [*PAGES, RULES / "README.md"], ids=lambda p: p.name)
def test_every_link_resolves(page):
    links = LINK.findall(page.read_text(encoding="utf-8"))
    assert links
    problems = [p for text, target in links if (p := _check_link(page, text, target))]
    assert problems == []


def test_the_link_checker_catches_bad_links(tmp_path):
    page = RULES / "usa.md"
    assert _check_link(page, "`board.engine.check`", "../../ttr_nb/board/engine.py") is None
    assert _check_link(page, "`games.europe.Tunnels.on_claim`", "../../ttr_nb/games/europe.py") is None
    assert "not defined" in _check_link(page, "`board.engine.no_such_function`", "../../ttr_nb/board/engine.py")
    assert "module.name" in _check_link(page, "`check`", "../../ttr_nb/board/engine.py")
    assert "no such file" in _check_link(page, "`x`", "../../ttr_nb/nowhere.py")
    assert "no test" in _check_link(page, "`test_USA_DRAW_4_nope`", "../../tests/test_rules_usa.py")


def test_every_rule_id_the_code_cites_is_defined():
    defined = {i for page in PAGES for i in rule_ids(page)}
    prefixes = "|".join(sorted({i.split("-")[0] for i in defined}))
    cited: dict[str, str] = {}
    for path in sorted((REPO / "ttr_nb").rglob("*.py")):
        for rid in re.findall(rf"\b(?:{prefixes})-[A-Z]+-\d+\b", path.read_text(encoding="utf-8")):
            cited.setdefault(rid, str(path.relative_to(REPO)))
    unknown = {rid: where for rid, where in cited.items() if rid not in defined}
    assert unknown == {}
    assert len(cited) > 40


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_define_the_ids_of_the_specification(page):
    """Always: ids are in the game's order (components, setup, ...) without gaps. Beside the specification
    (../shared/rules/<game>.md), the page defines exactly the ids its digest defines."""
    ids = rule_ids(page)
    by_family: dict[str, list[int]] = {}
    for rid in ids:
        family, n = rid.rsplit("-", 1)
        by_family.setdefault(family, []).append(int(n))
    assert all(nums == list(range(1, len(nums) + 1)) for nums in by_family.values()), by_family
    digest = SHARED_RULES / page.name
    if digest.is_file():
        spec = re.findall(r"^- ([A-Z]+-[A-Z]+-\d+) ", digest.read_text(encoding="utf-8"), re.M)
        assert ids == spec


def test_every_interpretation_the_code_declares_is_marked_on_its_rule():
    from ttr_nb.variants import available_variants, get_variant
    by_id = {rid: text for page in PAGES for rid, text in sections(page).items()}
    declared = {rid for key in available_variants() for rid, _ in get_variant(key).interpretations}
    assert declared
    unmarked = sorted(rid for rid in declared if "**Interpretation:**" not in by_id.get(rid, ""))
    assert unmarked == []
