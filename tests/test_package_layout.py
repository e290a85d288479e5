"""The package's layout: the board engine lives in ``ttr_nb/board/``, and the names its modules had directly under
``ttr_nb/`` still import, as the same module objects."""
from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import ttr_nb

PACKAGE = Path(ttr_nb.__file__).resolve().parent


def test_the_board_engine_has_its_own_folder():
    moved = ttr_nb.MOVED_TO_BOARD
    assert {p.stem for p in (PACKAGE / "board").glob("*.py")} == moved | {"__init__"}
    assert not [m for m in moved if (PACKAGE / f"{m}.py").exists()]


@pytest.mark.parametrize("name", sorted(ttr_nb.MOVED_TO_BOARD))
def test_an_old_module_name_is_the_moved_module(name):
    old = importlib.import_module(f"ttr_nb.{name}")
    new = importlib.import_module(f"ttr_nb.board.{name}")
    assert old is new and new.__name__ == new.__spec__.name == f"ttr_nb.board.{name}"


def test_old_names_in_a_fresh_process():
    """``from ttr_nb.engine import ...`` before anything else imported the board modules, and the map module still
    loaded only when asked for."""
    code = ("import sys; from ttr_nb.engine import new_game; from ttr_nb.state import GameState; "
            "print('ttr_nb.board.maps' in sys.modules); assert isinstance(new_game('usa', 2, 1), GameState); "
            "import ttr_nb.maps as m; print(m.__name__, m.load_map('usa').key)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "ttr_nb.board.maps", "usa"]


def test_an_old_name_wins_over_a_data_folder_of_that_name(tmp_path, monkeypatch):
    """An installed wheel holds the boards' data in a folder ttr_nb/maps/: ``import ttr_nb.maps`` must still give the
    map module, not that folder as an empty namespace package."""
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "usa.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(ttr_nb, "__path__", [*ttr_nb.__path__, str(tmp_path)])
    board_maps = importlib.import_module("ttr_nb.board.maps")
    monkeypatch.delitem(sys.modules, "ttr_nb.maps", raising=False)       # the old name looked up afresh
    assert importlib.import_module("ttr_nb.maps") is board_maps


def test_running_an_old_name_says_where_it_went():
    done = subprocess.run([sys.executable, "-m", "ttr_nb.maps", "summary"], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "ttr_nb.maps has moved to ttr_nb.board.maps: run python -m ttr_nb.board.maps" in done.stderr


def test_an_unknown_name_is_still_unknown():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("ttr_nb.no_such_module")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("ttr_nb.board.no_such_module")
