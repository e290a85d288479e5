"""The ways to get ttr_nb running (README, "Install"): the run command opens 00_start_here, and
``ttr-nb notebooks DIR`` copies the notebooks out without ever overwriting a user's file.
(The wheel installed into a fresh venv: tests/test_packaging.py.)"""
from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from ttr_nb.cli import main
from ttr_nb.errors import TTRError
from ttr_nb.shipped import MANIFEST, copy_notebooks, notebooks_dir, shipped_notebooks

REPO = Path(__file__).resolve().parents[1]
START = "notebooks/00_start_here.ipynb"


# ------------------------------------------------------------------------------------------------ ttr-nb notebooks

def test_shipped_notebooks_are_the_repository_notebooks():
    assert notebooks_dir() == REPO / "notebooks"           # a source checkout
    names = [p.relative_to(notebooks_dir()).as_posix() for p in shipped_notebooks()]
    assert "00_start_here.ipynb" in names and all(not n.startswith(".") for n in names)
    assert {p.name for p in (REPO / "notebooks").glob("*.ipynb")} <= set(names)


def test_copy_into_a_new_folder_then_again(tmp_path):
    target = tmp_path / "class" / "ttr_nb"
    report = copy_notebooks(target)
    names = [p.relative_to(notebooks_dir()).as_posix() for p in shipped_notebooks()]
    assert report.copied == names and not (report.updated or report.unchanged or report.kept)
    for name in names:
        assert (target / name).read_bytes() == (notebooks_dir() / name).read_bytes()
    manifest = json.loads((target / MANIFEST).read_text(encoding="utf-8"))
    assert sorted(manifest["files"]) == sorted(names)
    again = copy_notebooks(target)
    assert again.unchanged == names and not (again.copied or again.updated or again.kept)
    assert "already up to date" in str(again) and f"jupyter lab {target / '00_start_here.ipynb'}" in str(again)


def test_a_users_edited_or_own_file_is_never_overwritten(tmp_path):
    copy_notebooks(tmp_path)
    edited = tmp_path / "01_usa.ipynb"
    edited.write_text("my notes", encoding="utf-8")
    (tmp_path / "02_europe.ipynb").unlink()
    mine = tmp_path / "my_own.ipynb"
    mine.write_text("{}", encoding="utf-8")
    report = copy_notebooks(tmp_path)
    assert report.kept == ["01_usa.ipynb"] and report.copied == ["02_europe.ipynb"]
    assert edited.read_text(encoding="utf-8") == "my notes" and mine.read_text(encoding="utf-8") == "{}"
    assert "kept yours: 01_usa.ipynb differs from the shipped copy and was not overwritten" in str(report)
    assert copy_notebooks(tmp_path).kept == ["01_usa.ipynb"]    # still kept on every later run


def test_a_file_in_the_way_before_any_copy_is_kept(tmp_path):
    (tmp_path / "00_start_here.ipynb").write_text("someone else's", encoding="utf-8")
    report = copy_notebooks(tmp_path)
    assert "00_start_here.ipynb" in report.kept
    assert (tmp_path / "00_start_here.ipynb").read_text(encoding="utf-8") == "someone else's"


def test_an_unchanged_older_copy_is_brought_up_to_date(tmp_path):
    copy_notebooks(tmp_path)
    old = b'{"cells": [], "note": "an older ttr_nb"}'
    (tmp_path / "01_usa.ipynb").write_bytes(old)
    manifest = json.loads((tmp_path / MANIFEST).read_text(encoding="utf-8"))
    import hashlib
    manifest["files"]["01_usa.ipynb"] = hashlib.sha256(old).hexdigest()   # as if an older version copied it
    (tmp_path / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    report = copy_notebooks(tmp_path)
    assert report.updated == ["01_usa.ipynb"]
    assert (tmp_path / "01_usa.ipynb").read_bytes() == (notebooks_dir() / "01_usa.ipynb").read_bytes()


def test_bad_targets_are_clear_errors(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    with pytest.raises(TTRError, match="is a file, not a folder"):
        copy_notebooks(afile)
    err = io.StringIO()
    assert main(["notebooks", str(afile)], out=io.StringIO(), err=err) == 2
    assert "is a file, not a folder" in err.getvalue()
    (tmp_path / MANIFEST).write_text("not json", encoding="utf-8")      # a damaged record: copy anyway, keep nothing
    assert copy_notebooks(tmp_path).copied


def test_cli_notebooks_says_what_it_did(tmp_path):
    out = io.StringIO()
    assert main(["notebooks", str(tmp_path / "nb")], out=out) == 0
    assert out.getvalue().startswith(f"ttr_nb notebooks in {tmp_path / 'nb'}:\n  copied: 00_start_here.ipynb")


# ------------------------------------------------------------------------------------------------ the run command

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_listening(proc: subprocess.Popen, port: int, log: str, limit: float = 120.0) -> None:
    """Jupyter Server logs its address a moment before its socket accepts: wait for the socket (or the server's end)."""
    import time
    deadline = time.monotonic() + limit
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"JupyterLab never listened on port {port}:\n{log}") from None
        try:
            code = proc.wait(timeout=0.25)              # returns only if the server died
        except subprocess.TimeoutExpired:
            continue
        raise AssertionError(f"JupyterLab stopped (exit {code}):\n{log}")


def test_run_command_prints_an_address_that_opens_00_start_here(tmp_path):
    """bash .ci/lab.sh (its setup step skipped: this environment is ready) starts JupyterLab; the tokenised
    address it prints is /lab/tree/notebooks/00_start_here.ipynb, and the server serves that notebook."""
    if not (Path(sys.prefix) / "bin" / "jupyter").exists():
        pytest.fail(f"{sys.prefix}/bin/jupyter is missing: install the notebook extra (bash .ci/setup.sh --notebook)")
    env = {**os.environ, "TTR_NB_NO_SETUP": "1", "TTR_NB_VENV": sys.prefix, "JUPYTER_RUNTIME_DIR": str(tmp_path),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    port = _free_port()
    proc = subprocess.Popen(["bash", str(REPO / ".ci" / "lab.sh"), "--no-browser", f"--port={port}",
                             "--ServerApp.port_retries=0"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        seen = []
        url = None
        for line in proc.stdout:                    # ends if the server dies; the pytest timeout guards the rest
            seen.append(line)
            if "?token=" in line and "127.0.0.1" in line:
                url = line.split()[-1]
                break
        assert url, "".join(seen)
        assert seen[0].startswith("[lab] starting JupyterLab")
        parts = urllib.parse.urlsplit(url)
        assert parts.path == f"/lab/tree/{START}" and parts.query.startswith("token=")
        token = parts.query.split("=", 1)[1]
        _wait_until_listening(proc, port, "".join(seen))
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))    # localhost: never via a proxy
        with opener.open(url, timeout=60) as page:
            assert page.status == 200 and b"JupyterLab" in page.read()
        api = f"http://127.0.0.1:{port}/api/contents/{START}?content=0&token={token}"
        with opener.open(api, timeout=60) as reply:
            model = json.load(reply)
        assert (model["type"], model["path"]) == ("notebook", START)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


@pytest.mark.slow
def test_setup_installs_only_the_notebook_extra_for_running_and_is_idempotent(tmp_path):
    """.ci/setup.sh --notebook (the run command's setup) installs ttr-nb[notebook]; run again it does nothing; the
    test setup then adds the test extra, which also serves the run command. The venv reuses this environment's
    packages through a .pth file and pip runs without an index, so nothing is downloaded."""
    import sysconfig
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = Path(subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "_reuse_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    env = {**os.environ, "TTR_NB_VENV": str(venv), "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "TMPDIR": str(tmp_path)}
    env.pop("PYTHONPATH", None)

    def setup(*args) -> str:
        done = subprocess.run(["bash", str(REPO / ".ci" / "setup.sh"), *args], env=env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    assert "installing ttr-nb[notebook] (editable)" in setup("--notebook")
    assert (venv / ".ttr_nb-install-stamp").read_text().split()[-1] == "notebook"
    assert "ttr-nb[notebook] is up to date" in setup("--notebook")
    assert "installing ttr-nb[test] (editable)" in setup()
    assert "ttr-nb[test] is up to date" in setup("--notebook")       # the test extra includes the notebook extra
    assert "ttr-nb[test] is up to date" in setup()
    found = subprocess.run([str(venv / "bin" / "python"), "-c", "import ttr_nb.board.maps as m; print(m.maps_dir())"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert Path(found.stdout.strip()) == REPO / "maps", found.stderr
    assert (venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json").is_file()


def test_readme_gives_each_install_path_tested_here():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for command in ("bash .ci/lab.sh", "bash .ci/test.sh", 'pip install "ttr-nb[notebook]"', "ttr-nb notebooks ~/ttr_nb",
                    "jupyter lab ~/ttr_nb/00_start_here.ipynb", ".venv\\Scripts\\python -m pip install -e \".[notebook]\"",
                    "nbviewer"):
        assert command in readme, command
    for heading in ("**Windows**", "**macOS**", "**A shared JupyterHub (a class).**", "**Reading without running"):
        assert heading in readme, heading
