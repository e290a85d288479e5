"""Re-execute the notebooks in place and tidy them for committing (no widget state, no timing metadata).

    .venv/bin/python .ci/notebooks.py                 # every notebook in notebooks/
    .venv/bin/python .ci/notebooks.py notebooks/01_usa.ipynb

Widget state is never stored (a FigureWidget would add ~5 MB of plotly.js); consecutive stream outputs are
merged so nbval compares whole printed results; the kernelspec is ipykernel's own, so that opening a notebook in
JupyterLab does not rewrite it. The kernel imports this checkout's ``ttr_nb`` (PYTHONPATH), not
an installed copy.

nbval is controlled by cell tags, never by visible comments: a ``# NBVAL_CHECK_OUTPUT`` (or other ``# NBVAL_*``)
line is moved into the cell's tags here. Cells tagged ``lesson-check`` (asserts that guard a lesson) are kept
hidden (``jupyter.source_hidden``). See tests/test_notebooks.py for the rules.
"""
from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import nbformat
from nbconvert.preprocessors import ExecutePreprocessor

ROOT = Path(__file__).resolve().parents[1]
_MARKER = re.compile(r"^[ \t]*#[ \t]*NBVAL_(CHECK_OUTPUT|IGNORE_OUTPUT|SKIP|RAISES_EXCEPTION)[ \t]*\n?", re.M)


def kernelspec() -> dict:
    """The kernelspec as ipykernel reports it — what JupyterLab writes into a notebook it opens. Committed as it is,
    opening a notebook changes nothing (with "Python 3" JupyterLab's autosave rewrote it to "Python 3 (ipykernel)")."""
    from ipykernel.kernelspec import KERNEL_NAME, get_kernel_dict
    spec = get_kernel_dict()
    return {"name": KERNEL_NAME, "display_name": spec["display_name"], "language": spec["language"]}


def tidy(nb) -> None:
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = kernelspec()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        tags = list(cell.metadata.get("tags", []))
        for marker in _MARKER.findall(cell.source):
            tags.append("nbval-" + marker.lower().replace("_", "-"))
        cell.source = _MARKER.sub("", cell.source)
        if tags:
            cell.metadata["tags"] = list(dict.fromkeys(tags))
        if "lesson-check" in tags:
            cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
        merged = []
        for out in cell.outputs:
            if out.output_type == "stream" and merged and merged[-1].output_type == "stream" \
                    and merged[-1].name == out.name:
                merged[-1].text += out.text
            else:
                merged.append(out)
        cell.outputs = [o for o in merged if not (o.output_type == "stream" and not o.text)]
        for out in cell.outputs:
            # a saved widget view points at a model that no kernel has when the notebook is opened again
            # (JupyterLab then logs "widget model not found"); the view's text fallback stays
            data = out.get("data") if out.output_type in ("display_data", "execute_result") else None
            if data is not None:
                data.pop("application/vnd.jupyter.widget-view+json", None)


def run(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    ExecutePreprocessor(timeout=600, kernel_name="python3", store_widget_state=False).preprocess(
        nb, {"metadata": {"path": str(path.parent)}})
    tidy(nb)
    nbformat.validate(nb)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    paths = [Path(p) for p in argv] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in paths:
        seconds = run(path)
        print(f"{path.name}: executed in {seconds:.1f} s, {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
