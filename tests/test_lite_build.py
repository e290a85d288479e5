"""The pieces of ``ttr-nb lite build`` that need no network or browser (the site itself: tests/browser/test_lite.py).

The lock writer runs as a script in the build venv; here it runs with this interpreter on small wheels made
in the test, to check the browser's markers, the closure and the hashes.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ttr_nb import lite
from ttr_nb.cli import main
from ttr_nb.errors import TTRError

pytest.importorskip("packaging")


def make_wheel(folder: Path, name: str, version: str, requires: list[str], module: str | None = None) -> Path:
    stem = name.replace("-", "_")
    path = folder / f"{stem}-{version}-py3-none-any.whl"
    meta = "Metadata-Version: 2.1\nName: {}\nVersion: {}\n{}".format(
        name, version, "".join(f"Requires-Dist: {r}\n" for r in requires))
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{module or stem}/__init__.py", "")
        z.writestr(f"{stem}-{version}.dist-info/METADATA", meta)
    return path


def run_lock(tmp_path: Path, roots: list[str]) -> subprocess.CompletedProcess:
    lock_in = tmp_path / "in.json"
    lock_in.write_text(json.dumps({"info": {"version": "314.0.6", "python": "3.14.2"}, "packages": {"x": {}}}))
    return subprocess.run([sys.executable, str(lite.STEPS), "lock", str(tmp_path / "wheels"), str(lock_in),
                           str(tmp_path / "out.json"), "3.14.2", *roots], capture_output=True, text=True)


def test_lock_follows_the_browsers_markers_and_hashes_each_wheel(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    app = make_wheel(wheels, "App", "1.0", ["dep-one>=1", 'pexpect; sys_platform != "emscripten"',
                                            'backport; python_version < "3.12"', 'extra-only; extra == "x"'])
    make_wheel(wheels, "dep-one", "2.0", ["Typing_Extensions"], module="dep_one")
    make_wheel(wheels, "typing-extensions", "4.0", [], module="typing_extensions")
    make_wheel(wheels, "pexpect", "4.9", [])
    done = run_lock(tmp_path, ["app"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "packages": ["app", "dep-one", "typing-extensions"], "unused": ["pexpect"]}
    lock = json.loads((tmp_path / "out.json").read_text())
    assert lock["info"] == {"version": "314.0.6", "python": "3.14.2"}
    entry = lock["packages"]["app"]
    assert entry["depends"] == ["dep-one"]
    assert entry["imports"] == ["App"]
    assert entry["sha256"] == hashlib.sha256(app.read_bytes()).hexdigest()
    assert entry["file_name"] == app.name and entry["install_dir"] == "site" and entry["package_type"] == "package"
    assert lock["packages"]["dep-one"]["depends"] == ["typing-extensions"]
    assert lock["packages"]["dep-one"]["imports"] == ["dep_one"]


def test_lock_names_a_missing_dependency(tmp_path):
    (tmp_path / "wheels").mkdir()
    make_wheel(tmp_path / "wheels", "app", "1.0", ["absent>=1"])
    done = run_lock(tmp_path, ["app"])
    assert done.returncode != 0
    assert "no wheel for 'absent'" in done.stderr


def test_lock_refuses_a_compiled_wheel(tmp_path):
    (tmp_path / "wheels").mkdir()
    (tmp_path / "wheels" / "fast-1.0-cp311-cp311-manylinux_2_17_x86_64.whl").write_bytes(b"")
    done = run_lock(tmp_path, ["fast"])
    assert done.returncode != 0 and "not a pure-Python wheel" in done.stderr


def test_lite_copy_uses_lites_kernel_clears_outputs_and_inlines_images(tmp_path):
    (tmp_path / "images").mkdir()
    png = b"\x89PNG\r\n\x1a\nfake"
    (tmp_path / "images" / "b.png").write_bytes(png)
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                       "widgets": {"state": {}}},
          "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["See ![a board](images/b.png)\n",
                                                                          "and ![gone](images/none.png)"]},
                    {"cell_type": "code", "metadata": {}, "execution_count": 3, "source": ["1 + 1"],
                     "outputs": [{"output_type": "execute_result", "execution_count": 3, "metadata": {},
                                  "data": {"text/plain": "2"}}]}]}
    (tmp_path / "n.ipynb").write_text(json.dumps(nb))
    lite._lite_notebook(tmp_path / "n.ipynb", tmp_path / "out.ipynb")
    out = json.loads((tmp_path / "out.ipynb").read_text())
    assert out["metadata"]["kernelspec"]["name"] == "python"
    assert "widgets" not in out["metadata"]
    code = out["cells"][1]
    assert code["outputs"] == [] and code["execution_count"] is None
    text = "".join(out["cells"][0]["source"])
    assert f"![a board](data:image/png;base64,{base64.b64encode(png).decode()})" in text
    assert "![gone](images/none.png)" in text        # a missing file stays as written


def test_static_outputs_draw_plotly_with_the_local_script_and_explain_widgets():
    nbformat = pytest.importorskip("nbformat")
    sys.path.insert(0, str(lite.STEPS.parent))
    try:
        import _venv_steps
    finally:
        sys.path.remove(str(lite.STEPS.parent))
    fig = {"data": [{"type": "scatter", "name": "a </script> b"}], "layout": {"height": 420}}
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", outputs=[
        nbformat.v4.new_output("display_data", data={"application/vnd.plotly.v1+json": fig}),
        nbformat.v4.new_output("display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "m"},
                                                     "text/plain": "VBox()"})])])
    _venv_steps._static_outputs(nb)
    plot, widget = (o["data"] for o in nb.cells[0].outputs)
    assert 'Plotly.newPlot("ttr-plot-1"' in plot["text/html"] and "height:420px" in plot["text/html"]
    assert "</script> b" not in plot["text/html"] and "<\\/script> b" in plot["text/html"]
    assert "JupyterLite" in widget["text/html"] and "text/plain" not in widget


def test_build_refuses_a_folder_it_did_not_make(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(TTRError, match="not empty and not a site built by ttr-nb lite build"):
        lite.build(tmp_path, cache=tmp_path / "cache")
    assert (tmp_path / "mine.txt").read_text() == "keep me"
    err = io.StringIO()
    assert main(["lite", "build", str(tmp_path), "--cache", str(tmp_path / "cache")], out=io.StringIO(), err=err) == 2
    assert "not a site built by ttr-nb lite build" in err.getvalue()


def test_build_names_a_notebooks_folder_without_notebooks(tmp_path):
    with pytest.raises(TTRError, match="no notebooks"):
        lite.build(tmp_path / "site", cache=tmp_path / "cache", notebooks=tmp_path)
