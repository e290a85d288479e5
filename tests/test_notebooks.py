"""The notebooks as a learner meets them: what they say, how they are controlled, what they may show.

nbval runs them (``pytest --nbval-lax --nbval-current-env notebooks/``); these tests read the committed files:

* nbval control sits in cell tags (``nbval-check-output`` ...), never in visible ``# NBVAL_*`` comments; the
  checks that only guard a lesson (``assert``) live in hidden cells tagged ``lesson-check``;
* one import line per notebook: ``import ttr_nb.teaching as ttr``;
* plain words: no "ply", no glyph that needs an emoji font, cities rather than route or ticket ids in the lessons;
* every claim about a game's status (done / provisional / rules engine / coming) agrees with the code;
* a cell tagged ``player-view`` shows only what that seat may see (USA-TICKET-3): it is re-run here and its
  output searched for every hidden ticket of the other seats;
* 00_start_here lists every notebook; notebooks stay small and carry no widget state.
"""
from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from pathlib import Path

import pytest

import ttr_nb.teaching as ttr
from ttr_nb.variants import get_game

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
IDS = [p.stem for p in PATHS]
OUR_TAGS = {"lesson-check", "player-view"}
IMPORT_LINE = "import ttr_nb.teaching as ttr"
OTHER_IMPORTS = {"networkx"}          # map_explorer is a lesson about networkx
LESSONS = {"00_start_here", "01_usa", "02_europe", "07_write_a_bot", "classroom"}      # learner prose: cities, not ids


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _output_text(cell: dict) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append("".join(out.get("text", "")))
        for mime in ("text/plain", "text/html", "text/markdown"):
            value = out.get("data", {}).get(mime)
            if value is not None:
                parts.append("".join(value) if isinstance(value, list) else value)
    return "\n".join(parts)


def _code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def _hidden(cell: dict) -> bool:
    return bool(cell.get("metadata", {}).get("jupyter", {}).get("source_hidden"))


@pytest.fixture(scope="module", params=PATHS, ids=IDS)
def notebook(request):
    return request.param, _load(request.param)


# ----------------------------------------------------------------------------------------------- control


def test_nbval_tags_are_the_ones_nbval_reads():
    from nbval.plugin import metadata_tags
    for tag in ("nbval-check-output", "nbval-ignore-output", "nbval-skip", "nbval-raises-exception"):
        assert tag in metadata_tags


def test_nbval_control_is_in_tags_not_in_visible_comments(notebook):
    from nbval.plugin import metadata_tags
    path, nb = notebook
    for i, cell in enumerate(_code_cells(nb)):
        assert not re.search(r"^\s*#\s*(NBVAL_|PYTEST_VALIDATE_)", _source(cell), re.M), f"{path.name} cell {i}"
        for tag in cell.get("metadata", {}).get("tags", []):
            assert tag in metadata_tags or tag in OUR_TAGS, f"{path.name} cell {i}: unknown tag {tag!r}"
    assert any("nbval-check-output" in c.get("metadata", {}).get("tags", []) for c in _code_cells(nb)), \
        f"{path.name}: no output is checked"


def test_asserts_live_only_in_hidden_lesson_check_cells(notebook):
    path, nb = notebook
    for i, cell in enumerate(_code_cells(nb)):
        tree = ast.parse(_source(cell))
        asserts = any(isinstance(node, ast.Assert) for node in ast.walk(tree))
        checks = "lesson-check" in cell.get("metadata", {}).get("tags", [])
        assert asserts == checks, f"{path.name} cell {i}: asserts belong in (and only in) lesson-check cells"
        if checks:
            assert _hidden(cell), f"{path.name} cell {i}: a lesson check is hidden (jupyter.source_hidden)"
            assert not _output_text(cell).strip(), f"{path.name} cell {i}: a lesson check prints nothing"


def test_one_short_import_line(notebook):
    path, nb = notebook
    ours, others = [], []
    for cell in _code_cells(nb):
        for node in ast.walk(ast.parse(_source(cell))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                (ours if ast.unparse(node).startswith(("import ttr_nb", "from ttr_nb")) else others).append(node)
    assert [ast.unparse(n) for n in ours] == [IMPORT_LINE], path.name
    assert {n.names[0].name for n in others} <= OTHER_IMPORTS and len(others) <= 1, path.name


def test_no_widget_state_and_small(notebook):
    path, nb = notebook
    assert "widgets" not in nb.get("metadata", {})
    # a board figure is ~110 KB of plotly JSON (~220 KB once nbformat indents it); widget state would add ~5 MB
    assert path.stat().st_size < 1_250_000, f"{path.name}: {path.stat().st_size} bytes"
    for cell in _code_cells(nb):
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{path.name}: a saved error"


# ----------------------------------------------------------------------------------------------- words

def _texts(nb: dict, *, code: bool = True):
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown" or code:
            yield i, "source", _source(cell)
        if cell["cell_type"] == "code":
            yield i, "output", _output_text(cell)


def test_plain_words_no_ply(notebook):
    path, nb = notebook
    for i, where, text in _texts(nb):
        hit = re.search(r"\bpl(y|ies)\b", text, re.I)
        assert hit is None, f"{path.name} cell {i} {where}: {text[max(0, hit.start() - 40):hit.end() + 40]!r}"


# Symbols and pictographs (U+2600–U+27BF, U+2B00–U+2BFF, U+1F000 on) render only with an emoji or symbol font;
# the variation selector U+FE0F asks for one.
_EMOJI = re.compile("[\u2600-\u27bf\u2b00-\u2bff\ufe0f\U0001f000-\U0001ffff]")


def test_no_glyph_that_needs_an_emoji_font(notebook):
    path, nb = notebook
    for i, where, text in _texts(nb):
        hit = _EMOJI.search(text)
        assert hit is None, f"{path.name} cell {i} {where}: {hit.group()!r} in {text[max(0, hit.start() - 40):hit.end() + 20]!r}"


def test_teaching_texts_have_no_emoji_glyph():
    root = Path(ttr.__file__).parent
    files = [root / "teaching.py", root / "compare.py", *sorted((root / "exercises").glob("*.py"))]
    for path in files:                                  # the exercises are a package since session 2
        name = path.relative_to(root)
        hit = _EMOJI.search(path.read_text(encoding="utf-8"))
        assert hit is None, f"{name}: {hit.group()!r}"


_IDS = re.compile(r"\b(R\d{3}|T\d{2})\b")


@pytest.mark.parametrize("path", [p for p in PATHS if p.stem in LESSONS], ids=lambda p: p.stem)
def test_lessons_name_cities_not_route_or_ticket_ids(path):
    nb = _load(path)
    for i, where, text in _texts(nb, code=False):
        hit = _IDS.search(text)
        assert hit is None, f"{path.name} cell {i} {where}: {text[max(0, hit.start() - 50):hit.end() + 30]!r}"


# ----------------------------------------------------------------------------------------------- status claims

_STATUS_PHRASES = {
    # a game whose rules engine is in the package but whose lesson is not (its provisional data may be named too)
    "engine": r"\brules engine\b",
    "coming": r"\bin progress\b|\bplanned\b|\bcoming\b|\bto come\b|\bnot yet\b|\bno engine\b|\bwill come\b",
    "provisional": r"\bprovisional\b|\bstand-ins?\b",
    "done": r"\bcomplete\b|\bdone\b|\bfinished\b",
}


def _game_names() -> dict[str, str]:
    """Words a notebook may use for each game → its key (variant names without 'Ticket to Ride', keys, aliases)."""
    names = {}
    for key, name in ttr.PLANNED:
        names[key.replace("_", " ")] = key
        names[re.sub(r"^Ticket to Ride:? (The )?", "", name).strip("() ")] = key
    for key in ttr.variant_status():
        if key in dict(ttr.PLANNED) and ttr.variant_status()[key] == "coming":
            continue
        v = get_game(key)
        names[key] = key
        names[re.sub(r"^Ticket to Ride:? (The )?", "", v.name).strip("() ")] = key
    return {n.lower(): k for n, k in names.items() if n}


def status_claims(text: str) -> list[tuple[str, str, str]]:
    """(game key, claimed status, sentence) for each sentence that names games and a status word."""
    names = _game_names()
    text = re.sub(r"\b[A-Z]{2,}-[A-Z]+-\d+\b", " ", text)              # rule ids (USA-DRAW-4) are not game names
    text = re.sub(r"\([^()]*\.ipynb\)", " ", text)                       # nor are links
    out = []
    # sentences; lines of a list or a table; rows of an HTML table (each row speaks of its own game)
    for sentence in re.split(r"(?<=[.!?:])\s+|\n\s*\n|\n(?=[*|-])|\n(?=\w+\s{2,})|(?<=</tr>)", text):
        low = sentence.lower()
        games = {k for n, k in names.items() if re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", low)}
        if not games:
            continue
        for status, pattern in _STATUS_PHRASES.items():
            if re.search(pattern, low):
                out += [(g, status, sentence.strip()) for g in sorted(games)]
                if status == "engine":
                    break
    return out


def test_status_claims_reader_understands_examples():
    assert ("europe", "coming", "Europe is in progress.") in status_claims("Europe is in progress. USA-DRAW-4 holds.")
    assert [(g, s) for g, s, _ in status_claims("The Card Game has its rules engine (provisional tickets).")] == \
        [("cardgame", "engine")]
    assert {(g, s) for g, s, _ in status_claims("Märklin, South Korea and the Card Game are planned.")} == \
        {("maerklin", "coming"), ("south_korea", "coming"), ("cardgame", "coming")}
    assert status_claims("Read 02_europe (02_europe.ipynb) for tunnels.") == []
    rows = "<tr><td>Europe</td><td>47</td></tr><tr><td>South Korea (provisional stand-in board)</td></tr>"
    assert [(g, s) for g, s, _ in status_claims(rows)] == [("south_korea", "provisional")]


def test_every_status_claim_in_the_notebooks_matches_the_code(notebook):
    path, nb = notebook
    truth = ttr.variant_status()
    # a rules-engine game may also be PROVISIONAL (a stand-in board or deck): saying so is true
    provisional = {k for k, s in truth.items() if s == "engine" and get_game(k).provisional}
    wrong = []
    for i, where, text in _texts(nb, code=False):
        for game, status, sentence in status_claims(text):
            if truth.get(game) != status and not (status == "provisional" and game in provisional):
                wrong.append(f"cell {i} {where}: says {game} is {status}, the code says {truth.get(game)}: {sentence!r}")
    assert not wrong, f"{path.name}:\n" + "\n".join(wrong)


def test_start_here_states_every_games_status():
    nb = _load(NOTEBOOKS / "00_start_here.ipynb")
    claims = {(g, s) for i, where, text in _texts(nb, code=False) for g, s, _ in status_claims(text)}
    assert set(ttr.variant_status().items()) <= claims


def test_start_here_lists_every_notebook_and_only_those_that_exist():
    nb = _load(NOTEBOOKS / "00_start_here.ipynb")
    prose = "\n".join(_source(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    linked = set(re.findall(r"\]\(([\w.-]+\.ipynb)\)", prose))
    assert linked <= {p.name for p in PATHS}, linked - {p.name for p in PATHS}
    index = {m for m in re.findall(r"^\| \[[^\]]+\]\(([\w.-]+\.ipynb)\)", prose, re.M)}
    assert index == {p.name for p in PATHS} - {"00_start_here.ipynb"}


def test_every_link_between_notebooks_resolves(notebook):
    path, nb = notebook
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for target in re.findall(r"\]\(([\w.-]+\.ipynb)(?:#[^)]*)?\)", _source(cell)):
                assert (NOTEBOOKS / target).exists(), f"{path.name} links to a missing {target}"


# ----------------------------------------------------------------------------------------------- secrets

def _player_view_cells(nb: dict) -> list[int]:
    return [i for i, c in enumerate(nb["cells"]) if "player-view" in c.get("metadata", {}).get("tags", [])]


def _run_until(nb: dict, last: int, monkeypatch) -> dict:
    """Run the code cells 0..last of a notebook here (figures not shown), as the kernel would; the namespace."""
    import plotly.graph_objects as go
    monkeypatch.setattr(go.Figure, "show", lambda self, *a, **k: None)
    monkeypatch.chdir(NOTEBOOKS)
    ns: dict = {}
    for cell in nb["cells"][:last]:
        if cell["cell_type"] == "code":
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(_source(cell), "<cell>", "exec"), ns)
    return ns


def _hidden_ticket_words(state, seat: int) -> set[str]:
    """City pairs of every ticket another seat holds or is choosing from, that ``seat`` does not also see."""
    m = getattr(ttr.get_game(state.variant), "map", None)
    if m is None:                                   # the Card Game: its tickets are its cards
        from ttr_nb.cardgame.data import load_cards
        m = load_cards()
    words = lambda tids: {f"{m.ticket(t).a}–{m.ticket(t).b}" for t in tids}        # noqa: E731
    def choosing(pend) -> set[str]:        # tickets offered, or a draft hand (South Korea)
        return words((pend.get("offered") or ()) + (pend.get("packet") or ())) if pend is not None else set()

    def held(p) -> set[str]:                # kept, and picked in a draft so far
        drafted = p.get("drafted", ()) if hasattr(p, "get") else ()
        return words(tuple(p.tickets) + tuple(drafted or ()))

    own = held(state.players[seat]) | choosing(state.pending_for(seat))
    other = set()
    for other_seat, p in enumerate(state.players):
        if other_seat != seat:
            other |= held(p) | choosing(state.pending_for(other_seat))
    return other - own


@pytest.mark.parametrize("path", [p for p in PATHS if _player_view_cells(_load(p))], ids=lambda p: p.stem)
def test_player_view_outputs_show_no_hidden_ticket(path, monkeypatch):
    """Each ``player-view`` cell prints ``seat_view_text(STATE, SEAT)`` or ``action_menu_text(STATE, SEAT)``:
    it is re-run, its output must equal the saved one, and neither may name a ticket the seat cannot see."""
    nb = _load(path)
    for i in _player_view_cells(nb):
        cell = nb["cells"][i]
        ns = _run_until(nb, i, monkeypatch)
        calls = [n for n in ast.walk(ast.parse(_source(cell))) if isinstance(n, ast.Call)
                 and ast.unparse(n.func) in ("ttr.seat_view_text", "ttr.action_menu_text")]
        assert calls, f"{path.name} cell {i}: a player-view cell prints a seat's view"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(_source(cell), "<cell>", "exec"), ns)
        assert out.getvalue().strip() == _output_text(cell).strip(), f"{path.name} cell {i}: saved output is stale"
        for call in calls:
            state = eval(ast.unparse(call.args[0]), ns)
            seat = eval(ast.unparse(call.args[1]), ns)
            secret = _hidden_ticket_words(state, seat)
            assert secret, f"{path.name} cell {i}: nothing hidden to check"
            shown = [w for w in secret if w in out.getvalue() or w in _output_text(cell)]
            assert not shown, f"{path.name} cell {i}: seat {seat} is shown other seats' tickets {shown}"


def _ci_notebooks():
    import importlib.util
    spec = importlib.util.spec_from_file_location("ci_notebooks", NOTEBOOKS.parent / ".ci" / "notebooks.py")
    ci = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ci)
    return ci


def _ipykernel_spec() -> dict:
    from ipykernel.kernelspec import KERNEL_NAME, get_kernel_dict
    spec = get_kernel_dict()
    return {"name": KERNEL_NAME, "display_name": spec["display_name"], "language": spec["language"]}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_kernelspec_is_what_ipykernel_reports(path):
    """JupyterLab writes the running kernel's spec into a notebook it opens; committed the same, opening a notebook
    leaves the file as it is (with "Python 3", autosave rewrote it to "Python 3 (ipykernel)")."""
    assert _load(path)["metadata"]["kernelspec"] == _ipykernel_spec(), path.name


def test_ci_tidy_writes_ipykernels_kernelspec():
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "an older name", "language": "python"}
    _ci_notebooks().tidy(nb)
    assert nb.metadata["kernelspec"] == _ipykernel_spec()


def test_ci_tidy_moves_nbval_comments_into_tags_and_hides_lesson_checks():
    import nbformat
    ci = _ci_notebooks()
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"state": {}}
    nb.cells = [nbformat.v4.new_code_cell("# NBVAL_CHECK_OUTPUT\nprint(1)"),
                nbformat.v4.new_code_cell("assert True", metadata={"tags": ["lesson-check"]}),
                nbformat.v4.new_code_cell("x = 1  # NBVAL_SKIP is only a marker on a line of its own")]
    ci.tidy(nb)
    assert nb.cells[0].source == "print(1)" and nb.cells[0].metadata["tags"] == ["nbval-check-output"]
    assert nb.cells[1].metadata["jupyter"]["source_hidden"] is True
    assert "tags" not in nb.cells[2].metadata and "widgets" not in nb.metadata


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_no_saved_widget_views(path):
    """A saved widget view points at a model no kernel has when the notebook is opened again (JupyterLab logs
    "widget model not found"): .ci/notebooks.py keeps only the view's text fallback."""
    nb = _load(path)
    views = [i for i, c in enumerate(nb["cells"]) for o in c.get("outputs", ())
             if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert views == [], f"{path.name}: cells {views} keep widget views"
