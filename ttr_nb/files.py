"""Reading a file a user named, safely: bounded, regular files only, never blocking; and writing one atomically.

``read_bounded(path, limit)`` looks at the path with ``os.stat`` before opening it, so a folder, a device
(``/dev/zero``), a FIFO or a socket is refused without being opened (a FIFO would block ``open``, ``/dev/zero``
would never end). The file is then opened non-blocking, checked again (it may have been swapped in between), and
at most ``limit + 1`` bytes are read, whatever ``st_size`` says. A path holding a NUL byte is refused too.
Problems are raised as :class:`FileProblem` (a ``TTRError``) whose message does not name the file: callers put
their own label in front.

``write_atomic(target, data, mode)`` writes a file whole or not at all: a temp file beside it, made exclusively
(``O_CREAT | O_EXCL | O_NOFOLLOW`` through ``tempfile.mkstemp``, so a link planted in the folder is never
followed), locked while it is written, then renamed over ``target`` (a rename replaces a link at ``target``
itself, never the file it points to). Its name is recognisably ours, ``.NAME.XXXXXXXX.ttr_nb-tmp``; a writer
killed half-way (``kill -9``) leaves one behind, and the next write of the same file removes such leftovers —
only regular files of exactly that pattern, owned by us, and not locked by a writer still at work.
"""
from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from pathlib import Path

from .errors import TTRError


class FileProblem(TTRError):
    """A file that cannot be read as asked (missing, not a regular file, too large, unreadable)."""


def checked_path(path) -> str:
    """``path`` as text, refusing what the operating system would choke on (NUL bytes, non-text paths)."""
    try:
        text = os.fspath(path)
    except TypeError:
        raise FileProblem(f"a path must be text, got {type(path).__name__}") from None
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeDecodeError:
            raise FileProblem("the path is not valid text") from None
    if "\x00" in text:
        raise FileProblem("the path contains a NUL byte")
    if not text:
        raise FileProblem("the path is empty")
    return text


def read_bounded(path, limit: int, noun: str = "file") -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them (else FileProblem)."""
    p = checked_path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise FileProblem(f"cannot read the {noun}: no such {noun}") from None
    except OSError as e:
        raise FileProblem(f"cannot read the {noun} ({e.strerror or e})") from None
    _check_kind(st, noun, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except OSError as e:
        raise FileProblem(f"cannot read the {noun} ({e.strerror or e})") from None
    try:
        _check_kind(os.fstat(fd), noun, limit)            # swapped for something else since the stat above?
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as e:
        raise FileProblem(f"cannot read the {noun} ({e.strerror or e})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileProblem(f"too large: a {noun} may be at most {limit} bytes")
    return data


def _check_kind(st: os.stat_result, noun: str, limit: int) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise FileProblem(f"cannot read the {noun}: it is a folder")
    if not stat.S_ISREG(st.st_mode):
        raise FileProblem(f"cannot read the {noun}: not a regular file (a device, pipe or socket)")
    if st.st_size > limit:
        raise FileProblem(f"too large: {st.st_size} bytes; a {noun} may be at most {limit}")


TEMP_TAG = "ttr_nb-tmp"
#: a temp file younger than this is never taken for a leftover (its writer may not have locked it yet)
FRESH_SECONDS = 5.0
#: without file locks (Windows), a leftover is one older than this
STALE_SECONDS = 3600.0

try:
    import fcntl
except ImportError:                   # pragma: no cover  (Windows)
    fcntl = None


def _temp_pattern(name: str) -> re.Pattern:
    return re.compile(rf"^\.{re.escape(name)}\.[a-z0-9_]{{8}}\.{re.escape(TEMP_TAG)}$")


def clean_stale_temps(target: Path) -> list[str]:
    """Remove the temp files that killed writers of ``target`` left in its folder; returns their names. Never
    touches anything else: a name not of the pattern, a link, a folder, another user's file, a file a writer
    still holds locked (or, without locks, one younger than an hour) all stay."""
    folder = target.parent if str(target.parent) else Path(".")
    pattern = _temp_pattern(target.name)
    removed = []
    try:
        names = [n for n in os.listdir(folder) if pattern.match(n)]
    except OSError:
        return removed
    now = time.time()
    for name in names:
        path = folder / name
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:                   # a link (O_NOFOLLOW), gone meanwhile, or not ours to read
            continue
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != getattr(os, "geteuid", lambda: st.st_uid)():
                continue
            age = now - st.st_mtime
            if age < FRESH_SECONDS:
                continue
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)   # a live writer holds it: leave it alone
                except OSError:
                    continue
            elif age < STALE_SECONDS:
                continue
            if os.path.samestat(st, os.lstat(path)):                  # still the file we checked
                os.unlink(path)
                removed.append(name)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def new_file_mode() -> int:
    """The permissions a new file gets: 0666 less the umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(target: Path, data: str | bytes, mode: int) -> None:
    """Write ``data`` (text as UTF-8) to ``target`` whole or not at all, with permissions ``mode``; see the module
    docstring. On any failure the temp file is removed, ``target`` is untouched and the OSError is raised."""
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    clean_stale_temps(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=f".{TEMP_TAG}", dir=folder)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)                 # ours, while we write: a cleaner leaves it alone
        text = isinstance(data, str)
        with os.fdopen(fd, "w" if text else "wb", **({"encoding": "utf-8"} if text else {})) as f:
            fd = -1                                        # closed with f (and its lock released) from here on
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        tmp = None
    finally:
        if fd != -1:
            os.close(fd)
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


__all__ = ["FileProblem", "checked_path", "read_bounded", "write_atomic", "clean_stale_temps", "new_file_mode",
           "TEMP_TAG"]
