"""Packaging: the wheel ships the maps (with their sources), the notebooks and the console script, and installs into
a fresh venv; the sdist holds everything the tests need; the README names the CI command.

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
def wheel_path(tmp_path_factory) -> Path:
    return _build("wheel", tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def wheel(wheel_path) -> zipfile.ZipFile:
    with zipfile.ZipFile(wheel_path) as zf:
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
    assert "Requires-Dist: networkx>=3" in metadata and "Requires-Dist: tqdm>=4.66" in metadata   # tqdm: simulate's bar
    assert "Provides-Extra: notebook" in metadata and "Provides-Extra: test" in metadata


def test_wheel_ships_the_notebooks_the_map_sources_and_the_licence(wheel):
    names = set(wheel.namelist())
    notebooks = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
    assert notebooks and all(f"ttr_nb/notebooks/{name}" in names for name in notebooks)
    for board in ("usa", "europe"):
        assert {f"ttr_nb/maps/sources/{board}/{f}" for f in ("SOURCES.md", "routes.csv")} <= names
    assert "ttr_nb-0.1.0.dist-info/licenses/LICENSE" in names


def test_licence_is_mit_as_pyproject_says():
    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert 'license = "MIT"' in (REPO / "pyproject.toml").read_text(encoding="utf-8")


def test_installed_wheel_copies_its_notebooks_and_imports(wheel_path, tmp_path):
    """pip install the built wheel into a fresh venv (its dependencies reused from this environment through a .pth
    file, no index), then ``ttr-nb notebooks DIR`` and an import, all from the installed package."""
    import os
    import sysconfig
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "_reuse_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                           "--quiet", str(wheel_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    script = venv / ("Scripts/ttr-nb.exe" if os.name == "nt" else "bin/ttr-nb")
    work = tmp_path / "home"
    work.mkdir()

    def run(*argv):
        return subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=120)

    # ttr_nb.maps, the map module's old name, is also the wheel's data folder ttr_nb/maps/: the module must win
    imported = run(str(python), "-c", "import ttr_nb, ttr_nb.board.maps as m, ttr_nb.maps as old; assert old is m; "
                                      "print(ttr_nb.__file__); print(m.maps_dir()); "
                                      "print(ttr_nb.Game('europe', players=2, seed=1).status()[:6])")
    assert imported.returncode == 0, imported.stderr
    file, maps, status = imported.stdout.splitlines()
    assert Path(file).is_relative_to(site) and Path(maps) == site / "ttr_nb" / "maps" and status == "Setup:"
    first = run(str(script), "notebooks", "ttr_nb")
    assert first.returncode == 0, first.stderr
    shipped = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
    assert sorted(p.name for p in (work / "ttr_nb").glob("*.ipynb")) == shipped
    assert (work / "ttr_nb" / "01_usa.ipynb").read_bytes() == (REPO / "notebooks" / "01_usa.ipynb").read_bytes()
    assert "copied: 00_start_here.ipynb" in first.stdout and "jupyter lab" in first.stdout
    (work / "ttr_nb" / "01_usa.ipynb").write_text("my own notes", encoding="utf-8")
    again = run(str(script), "notebooks", "ttr_nb")
    assert again.returncode == 0 and "kept yours: 01_usa.ipynb" in again.stdout and "already up to date" in again.stdout
    assert (work / "ttr_nb" / "01_usa.ipynb").read_text(encoding="utf-8") == "my own notes"
    rebuilt = run(str(script), "maps", "rebuild", "--check", "--out", str(site / "ttr_nb" / "maps"))
    assert rebuilt.returncode == 0 and rebuilt.stdout.count("up to date") == 2, rebuilt.stdout + rebuilt.stderr


def test_sdist_contains_sources_data_tests_and_notebooks(tmp_path):
    path = _build("sdist", tmp_path)
    with tarfile.open(path) as tf:
        names = [n.split("/", 1)[1] for n in tf.getnames() if "/" in n]
    assert "pyproject.toml" in names and "maps/usa.json" in names and "LICENSE" in names
    assert {"docs/rules/usa.md", "maps/sources/usa/routes.csv", ".ci/setup.sh"} <= set(names)
    for folder in ("ttr_nb", "maps", "tests", "notebooks", "benchmarks"):
        has_files = any(p.is_file() for p in (REPO / folder).rglob("*")
                        if "__pycache__" not in p.parts and ".ipynb_checkpoints" not in p.parts
                        and "artifacts" not in p.parts)
        if has_files:
            assert any(n.startswith(folder + "/") for n in names), f"sdist lacks {folder}/"
    assert not any("/artifacts/" in n or "__pycache__" in n for n in names)
    # `pip install ttr-nb-0.1.0.tar.gz` builds the wheel from the unpacked sdist: it must find everything
    with tarfile.open(path) as tf:
        tf.extractall(tmp_path / "unpacked", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    root = next((tmp_path / "unpacked").iterdir())
    code = f"import hatchling.build as b; print(b.build_wheel({str(tmp_path / 'whl')!r}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "whl" / done.stdout.strip().splitlines()[-1]) as zf:
        built = set(zf.namelist())
    assert {"ttr_nb/notebooks/00_start_here.ipynb", "ttr_nb/maps/usa.json", "ttr_nb/maps/sources/usa/routes.csv"} <= built


def test_readme_names_the_ci_commands():
    lines = [line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines() if line.strip()]
    commands = [line for line in lines if line.startswith("bash .ci/")]
    assert commands[0] == "bash .ci/test.sh"
    readme = (REPO / "README.md").read_text()
    assert "bash .ci/run" in readme                      # the test command of the README is what CI runs
    for command in commands:
        assert command in readme, command
