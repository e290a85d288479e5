"""Packaging: the wheel ships the maps and the console script; the README names the CI command.

The wheel and sdist are built with hatchling's PEP 517 hooks in a subprocess (no build isolation,
no network: hatchling is in the test extra), into a temp folder.
"""
from __future__ import annotations

import configparser
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _build(kind: str, out: Path) -> Path:
    code = f"import hatchling.build as b; print(b.build_{kind}({str(out)!r}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"hatchling build_{kind} failed:\n{done.stdout}\n{done.stderr}"
    return out / done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    if not (REPO / "maps" / "usa.json").is_file():
        pytest.skip("maps/usa.json does not exist in the repo yet")
    path = _build("wheel", tmp_path_factory.mktemp("wheel"))
    with zipfile.ZipFile(path) as zf:
        yield zf


def test_wheel_contains_the_maps(wheel):
    names = set(wheel.namelist())
    assert "ttr_nb/maps/usa.json" in names
    shipped = sorted(p.name for p in (REPO / "maps").glob("*.json"))
    assert shipped and all(f"ttr_nb/maps/{name}" in names for name in shipped)


def test_wheel_holds_only_the_package(wheel):
    strays = [n for n in wheel.namelist() if not n.startswith(("ttr_nb/", "ttr_nb-0.1.0.dist-info/"))]
    assert strays == []
    assert "ttr_nb/__init__.py" in wheel.namelist() or not (REPO / "ttr_nb" / "__init__.py").exists()


def test_wheel_declares_the_console_script(wheel):
    entry_points = configparser.ConfigParser()
    entry_points.read_string(wheel.read("ttr_nb-0.1.0.dist-info/entry_points.txt").decode())
    assert entry_points["console_scripts"]["ttr-nb"] == "ttr_nb.cli:main"


def test_wheel_metadata(wheel):
    metadata = wheel.read("ttr_nb-0.1.0.dist-info/METADATA").decode()
    assert "Name: ttr-nb" in metadata
    assert "Requires-Python: >=3.11" in metadata
    assert "Requires-Dist: networkx>=3" in metadata
    assert "Provides-Extra: notebook" in metadata and "Provides-Extra: test" in metadata


def test_sdist_contains_sources_data_tests_and_notebooks(tmp_path):
    if not (REPO / "maps" / "usa.json").is_file():
        pytest.skip("maps/usa.json does not exist in the repo yet")
    path = _build("sdist", tmp_path)
    with tarfile.open(path) as tf:
        names = [n.split("/", 1)[1] for n in tf.getnames() if "/" in n]
    assert "pyproject.toml" in names and "maps/usa.json" in names
    for folder in ("ttr_nb", "maps", "tests", "notebooks", "benchmarks"):
        has_files = any(p.is_file() for p in (REPO / folder).rglob("*")
                        if "__pycache__" not in p.parts and ".ipynb_checkpoints" not in p.parts
                        and "artifacts" not in p.parts)
        if has_files:
            assert any(n.startswith(folder + "/") for n in names), f"sdist lacks {folder}/"
    assert not any("/artifacts/" in n or "__pycache__" in n for n in names)


def test_readme_names_the_ci_command():
    lines = [line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines() if line.strip()]
    last = lines[-1]
    assert last == "bash .ci/test.sh"
    assert last in (REPO / "README.md").read_text()
