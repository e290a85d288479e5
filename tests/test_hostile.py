"""Hostile input (issue 8, item 4): every case gets a clear project error or the right behaviour, and nothing
invalid is accepted. One test per case; the fuzz tests are in test_fuzz.py."""
from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest

from ttr_nb import Game
from ttr_nb.actions import parse_action
from ttr_nb.bots import RandomBot
from ttr_nb.cli import main
from ttr_nb.engine import apply, legal_actions, validate
from ttr_nb.errors import BadAction, MapError, SaveFileError
from ttr_nb.files import FileProblem, read_bounded
from ttr_nb.game import MAX_REPLAY, MAX_VARIATIONS
from ttr_nb.maps import check_map_file, load_map
from ttr_nb.state import Pending, replace_fields


def played(plies: int = 30, seed: int = 2) -> Game:
    g = Game("usa", 3, seed)
    g.play_bots(RandomBot(seed), max_plies=plies)
    return g


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


# ----------------------------------------------------------------------------------------------- digits

@pytest.mark.parametrize("text", ["²: draw deck", "red: draw faceup ²", "draw faceup ³", "blue: draw faceup ١",
                                  "claim R001 red²", "claim R001 red٢", "١: tickets"])
def test_non_ascii_digits_are_a_bad_action_not_a_crash(text):
    s = played().state
    with pytest.raises(BadAction):
        parse_action(text)
    with pytest.raises(BadAction):
        apply(s, text)


# ----------------------------------------------------------------------------------------------- NUL bytes

def test_a_path_with_a_nul_byte_is_a_project_error(tmp_path):
    with pytest.raises(SaveFileError, match="NUL"):
        Game.load(str(tmp_path / "a\x00b.json"))
    with pytest.raises(MapError, match="NUL"):
        load_map(str(tmp_path / "a\x00b.json"))
    assert any("NUL" in p for p in check_map_file(str(tmp_path / "a\x00b.json")))
    code, _, err = cli("check-map", str(tmp_path / "a\x00b.json"))
    assert code == 1 or code == 2
    with pytest.raises(SaveFileError, match="NUL"):
        played(4).save(str(tmp_path / "x\x00.json"))


def test_check_map_cli_with_a_nul_byte_prints_no_traceback(tmp_path, capsys):
    code, out, err = cli("check-map", "maps/\x00usa.json")
    assert code in (1, 2) and "NUL" in out + err and "Traceback" not in out + err


# ----------------------------------------------------------------------------------------------- reads

def test_dev_zero_a_fifo_and_a_folder_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)                           # nobody writes: opening it for reading would block for ever
    # should the guard ever break, a writer unblocks the open after a while: the test then fails, never hangs
    import threading

    def unblock():
        try:
            fd = os.open(fifo, os.O_WRONLY)
            os.close(fd)
        except OSError:
            pass
    guard = threading.Timer(30, unblock)
    guard.daemon = True
    guard.start()
    for path in ("/dev/zero", fifo):
        with pytest.raises(SaveFileError, match="not a regular file"):
            Game.load(path)
        with pytest.raises(MapError, match="not a regular file"):
            load_map(Path(path))
    guard.cancel()
    with pytest.raises(SaveFileError, match="folder"):
        Game.load(tmp_path)
    with pytest.raises(MapError, match="folder"):
        load_map(tmp_path)


def test_reads_stop_at_the_limit_even_when_the_size_is_not_known(tmp_path):
    """/proc files say st_size 0; the read itself is bounded (limit + 1 bytes)."""
    proc = Path("/proc/self/status")
    if proc.exists():
        with pytest.raises(FileProblem, match="too large"):
            read_bounded(proc, 10)
    f = tmp_path / "f.txt"
    f.write_bytes(b"x" * 11)
    with pytest.raises(FileProblem, match="too large"):
        read_bounded(f, 10)
    assert read_bounded(f, 11) == b"x" * 11


def test_load_map_does_not_quote_a_file_that_is_not_a_map(tmp_path):
    secret = tmp_path / "passwd"
    secret.write_text("root:hunter2:0:0:root:/root:/bin/bash\n")
    with pytest.raises(MapError) as info:
        load_map(str(secret))
    assert "hunter2" not in str(info.value) and "not a map file" in str(info.value)
    if Path("/etc/passwd").is_file():
        with pytest.raises(MapError) as info:
            load_map("../../etc/passwd")
        assert "root:" not in str(info.value)


# ----------------------------------------------------------------------------------------------- save contents

def test_duplicate_keys_in_a_save_are_refused(tmp_path):
    g = played(10)
    path = g.save(tmp_path / "g.json")
    text = path.read_text()
    path.write_text(text.replace('"seed":', '"seed": 5, "seed":', 1))
    with pytest.raises(SaveFileError, match="appears twice"):
        Game.load(path)


def test_validate_rejects_a_pending_step_of_unknown_kind(tmp_path):
    g = played(10)
    s = replace_fields(g.state, pending=(Pending("mystery", g.state.current),))
    assert any("unknown kind 'mystery'" in p for p in validate(s))
    doc = g.to_dict()
    doc["start"] = s.to_dict()
    doc.update(actions=[], cursor=0, variations=[], seed=s.seed)
    with pytest.raises(SaveFileError, match="unknown kind"):
        Game.from_dict(doc)


def test_validate_rejects_a_position_where_nobody_can_act():
    """Second card owed, but every card is in the hands: no legal action, and the game is not over."""
    s = played(20).state
    s = replace_fields(s, pending=())
    while s.phase != "play":
        s = apply(s, legal_actions(s)[0])
    seat = s.current
    hand = list(s.players[seat].hand)
    for c in list(s.deck) + [c for c in s.market if c is not None]:
        hand[c] += 1
    for k, n in enumerate(s.discard):
        hand[k] += n
    players = list(s.players)
    players[seat] = replace_fields(players[seat], hand=tuple(hand))
    stuck = replace_fields(s, deck=(), market=(None,) * len(s.market), discard=(0,) * len(s.discard),
                           players=tuple(players), pending=(Pending("second_card", seat),))
    assert legal_actions(stuck) == []
    assert any("no player has a legal action" in p for p in validate(stuck))


def test_loading_cost_is_bounded_and_the_limits_are_named(tmp_path):
    g = played(60)
    doc = g.to_dict()
    line = doc["actions"]
    doc["variations"] = [{"parted_at": 0, "actions": line} for _ in range(1000)]      # the crafted file
    with pytest.raises(SaveFileError, match=f"at most {MAX_VARIATIONS} variations"):
        Game.from_dict(doc)
    # within the count, but each variation replays a long line of its own: the replay limit stops it
    first = g.legal_actions()
    alt = Game("usa", 3, 2)
    alt.push(str(legal_actions(alt.state)[-1]))             # parts at ply 0: nothing in common with the main line
    alt.play_bots(RandomBot(9), max_plies=299)
    n = MAX_REPLAY // len(alt.actions()) + 1
    doc["variations"] = [{"parted_at": 0, "actions": alt.actions()}] * min(n, MAX_VARIATIONS)
    assert first and n <= MAX_VARIATIONS
    with pytest.raises(SaveFileError, match=f"at most {MAX_REPLAY} actions"):
        Game.from_dict(doc)


# ----------------------------------------------------------------------------------------------- saving

def test_save_keeps_the_files_mode(tmp_path):
    path = tmp_path / "g.json"
    g = played(6)
    g.save(path)
    os.chmod(path, 0o640)
    g.save(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    fresh = tmp_path / "new.json"
    mask = os.umask(0o022)
    try:
        g.save(fresh)
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o644


def test_save_writes_through_a_symlink(tmp_path):
    target = tmp_path / "real.json"
    link = tmp_path / "link.json"
    g = played(6)
    g.save(target)
    os.chmod(target, 0o600)
    link.symlink_to(target)
    h = played(12)
    h.save(link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert Game.load(target).actions() == h.actions()
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600


@pytest.mark.parametrize("where", ["chmod", "replace", "write"])
def test_save_removes_its_temp_file_on_any_failure(tmp_path, monkeypatch, where):
    path = tmp_path / "g.json"
    played(6).save(path)
    old = path.read_bytes()

    def boom(*a, **k):
        raise OSError(28, f"simulated failure in {where}")
    if where == "write":
        real = os.fdopen

        def fdopen(fd, *a, **k):
            f = real(fd, *a, **k)

            class Broken(io.TextIOWrapper):
                pass
            f.write = boom            # type: ignore[method-assign]
            return f
        monkeypatch.setattr(os, "fdopen", fdopen)
    else:
        monkeypatch.setattr(os, where, boom)
    with pytest.raises(OSError, match="simulated"):
        played(12).save(path)
    monkeypatch.undo()
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_save_refuses_to_replace_a_folder_or_a_device(tmp_path):
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(SaveFileError, match="not a regular file"):
        played(4).save(tmp_path / "dir.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.json"]


# ----------------------------------------------------------------------------------------------- canonical text

def test_station_amsterdam_in_capitals_is_recorded_as_amsterdam():
    g = Game("europe", 2, 0)
    for seat in (0, 1):
        g.push(g.legal_actions(seat)[0])
    hand = g.state.players[g.state.current].hand
    colour = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")[max(range(8), key=lambda k: hand[k])]
    ply = g.push(f"station AMSTERDAM {colour}1")
    assert ply.text.endswith(f"station Amsterdam {colour}1") and ply.action.city == "Amsterdam"


# ----------------------------------------------------------------------------------------------- picture --out

def test_picture_into_a_missing_folder_is_a_clear_error(tmp_path):
    code, out, err = cli("picture", "--out", str(tmp_path / "nope" / "board.png"), "--plies", "0")
    assert code == 2 and "does not exist" in err and "Traceback" not in err
    assert not (tmp_path / "nope").exists()


def test_picture_refuses_formats_it_cannot_write_and_names_the_supported_ones(tmp_path):
    code, _, err = cli("picture", "--out", str(tmp_path / "board.gif"), "--plies", "0")
    assert code == 2 and ".png" in err and ".svg" in err
    assert list(tmp_path.iterdir()) == []


def test_picture_svg_writes_svg(tmp_path):
    pytest.importorskip("kaleido")
    out = tmp_path / "board.svg"
    try:
        code, _, err = cli("picture", "--out", str(out), "--plies", "0")
    except (RuntimeError, ValueError) as e:           # kaleido present but no browser to drive
        pytest.skip(f"no static image export here: {e}")
    assert code == 0, err
    head = out.read_bytes()[:200]
    assert head.lstrip().startswith((b"<svg", b"<?xml")) and b"\x89PNG" not in head
