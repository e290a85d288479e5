"""Reading a file a user named, safely: bounded, regular files only, never blocking.

``read_bounded(path, limit)`` looks at the path with ``os.stat`` before opening it, so a folder, a device
(``/dev/zero``), a FIFO or a socket is refused without being opened (a FIFO would block ``open``, ``/dev/zero``
would never end). The file is then opened non-blocking, checked again (it may have been swapped in between), and
at most ``limit + 1`` bytes are read, whatever ``st_size`` says. A path holding a NUL byte is refused too.
Problems are raised as :class:`FileProblem` (a ``TTRError``) whose message does not name the file: callers put
their own label in front.
"""
from __future__ import annotations

import os
import stat

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


__all__ = ["FileProblem", "checked_path", "read_bounded"]
