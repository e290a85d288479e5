"""A student's bot in a process of its own: started fresh for each game, with a clean environment, limits, and a
copy of each view.

The referee (``BotProcess``) starts ``python -s -P -m ttr_nb.tournament.sandbox`` in an empty temporary folder,
with none of the caller's environment variables (only ``PYTHONHASHSEED=0``, where ttr_nb is, and a temporary
``HOME``), and talks to it in JSON lines: first the bot (its source text or pickled function) and the limits, then
one payload per move (``ttr_nb.tournament.view.payload``), each answered with a move, or a forfeit. The bot's own
``print`` output goes to a log file, never into the conversation.

Limits: a move must be answered within ``move_seconds`` of wall-clock time (else the process is killed and the
game forfeited); where the OS allows (Linux), the process's address space is capped at ``memory_mb`` and each
file it writes at ``FILE_MB``. See docs/tournament.md for what this does and does not protect.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from .contract import BotSpec, Forfeit, call_choose, load_choose

__all__ = ["BotProcess", "clean_env", "START_SECONDS", "MEMORY_MB", "FILE_MB"]

START_SECONDS = 30.0      # to start Python, import ttr_nb and load the bot (generous: a busy machine is slow)
MEMORY_MB = 2048          # default address-space limit of a bot's process
FILE_MB = 50              # largest file a bot's process may write (its print output included)
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])     # the folder that holds ttr_nb


def clean_env(home: str) -> dict[str, str]:
    """The whole environment of a bot's process: nothing of the caller's."""
    env = {"PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8",
           "PYTHONPATH": _PACKAGE_ROOT, "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8", "PATH": os.defpath}
    if os.name == "nt":                    # Windows cannot start Python without these
        for key in ("SYSTEMROOT", "SYSTEMDRIVE"):
            if key in os.environ:
                env[key] = os.environ[key]
    return env


class BotProcess:
    """One student's bot for one game, in its own process. ``start()`` then ``ask(payload, seed)`` per move;
    ``close()`` ends it. Every failure is a ``Forfeit`` with its kind."""

    def __init__(self, spec: BotSpec, *, memory_mb: int = MEMORY_MB, start_seconds: float = START_SECONDS):
        self.spec = spec
        self.memory_mb = memory_mb
        self.start_seconds = start_seconds
        self.proc: subprocess.Popen | None = None
        self._answers: queue.Queue = queue.Queue()
        self._outbox: queue.Queue = queue.Queue()
        self._dir = ""
        self._log = None

    # -- life ------------------------------------------------------------------------------------------------
    def start(self) -> "BotProcess":
        """Start the process and send it the bot (does not wait: see ``ready``)."""
        self._dir = tempfile.mkdtemp(prefix="ttr-bot-")
        self._log = open(os.path.join(self._dir, "output.txt"), "w+b")
        cmd = [sys.executable, "-s", "-P", "-m", "ttr_nb.tournament.sandbox"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                     cwd=self._dir, env=clean_env(self._dir), close_fds=True,
                                     start_new_session=(os.name == "posix"))
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()
        self._send({"bot": self.spec.to_wire(), "memory_mb": self.memory_mb, "file_mb": FILE_MB})
        return self

    def ready(self) -> None:
        """Wait until the bot is loaded; ``Forfeit("start", ...)`` if it cannot be."""
        msg = self._receive(self.start_seconds, "to start")
        if "forfeit" in msg:
            self.close()
            raise Forfeit(msg["forfeit"], msg["reason"])
        if not msg.get("ready"):
            self.close()
            raise Forfeit("start", f"the bot's process said {str(msg)[:100]!r} instead of being ready")

    def ask(self, doc: dict, seed: str, move_seconds: float) -> tuple[str, str]:
        """The bot's (answer text, reason) for the payload ``doc``; ``Forfeit`` on an exception, a non-text answer,
        no answer within ``move_seconds``, or a dead process."""
        self._send({"payload": doc, "seed": seed})
        msg = self._receive(move_seconds, "for a move")
        if "forfeit" in msg:
            self.close()
            raise Forfeit(msg["forfeit"], msg["reason"])
        if not isinstance(msg.get("move"), str):
            self.close()
            raise Forfeit("illegal", f"the bot's process sent {str(msg)[:100]!r} instead of a move")
        return msg["move"], str(msg.get("reason") or "")

    def close(self) -> None:
        """End the process (and anything it started) and remove its folder."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                if os.name == "posix":
                    os.killpg(self.proc.pid, signal.SIGKILL)
                else:
                    self.proc.kill()
            except (ProcessLookupError, PermissionError):
                pass
        if self.proc is not None:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:     # pragma: no cover (SIGKILL does not wait)
                pass
            for pipe in (self.proc.stdin, self.proc.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass
            self._outbox.put(None)
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = ""

    def __enter__(self) -> "BotProcess":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the conversation ------------------------------------------------------------------------------------
    def _send(self, msg: dict) -> None:
        self._outbox.put((json.dumps(msg) + "\n").encode("utf-8"))

    def _write(self) -> None:             # its own thread: a bot that stops reading cannot block the referee
        stdin = self.proc.stdin
        while True:
            data = self._outbox.get()
            if data is None:
                return
            try:
                stdin.write(data)
                stdin.flush()
            except (OSError, ValueError):
                return

    def _read(self) -> None:
        stdout = self.proc.stdout
        try:
            for line in stdout:
                self._answers.put(line)
        except (OSError, ValueError):
            pass
        self._answers.put(None)

    def _receive(self, seconds: float, what: str) -> dict:
        try:
            line = self._answers.get(timeout=seconds)
        except queue.Empty:
            self.close()
            raise Forfeit("timeout", f"no answer within {seconds:g} s {what}") from None
        if line is None:
            raise Forfeit("crash", self._death())
        try:
            msg = json.loads(line)
        except ValueError:
            self.close()
            raise Forfeit("illegal", f"the bot's process sent {line[:80]!r}, which is not an answer") from None
        return msg if isinstance(msg, dict) else {"unexpected": msg}

    def _death(self) -> str:
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
        tail = self._log_tail()
        self.close()
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            why = f"its process was killed by {name}"
            if name == "SIGKILL":
                why += f" (out of memory? the limit is {self.memory_mb} MB)"
            elif name == "SIGXFSZ":
                why += f" (it wrote a file larger than {FILE_MB} MB)"
        else:
            why = f"its process ended (exit code {code})"
        return why + (f"; its last output: {tail}" if tail else "")

    def _log_tail(self, n: int = 300) -> str:
        if self._log is None:
            return ""
        try:
            self._log.flush()
            self._log.seek(0, os.SEEK_END)
            size = self._log.tell()
            self._log.seek(max(0, size - n))
            text = self._log.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        lines = [x for x in text.strip().splitlines() if x.strip()]
        return lines[-1][-200:] if lines else ""


# ----------------------------------------------------------------------------------------------- the bot's side

def _limit(memory_mb: int, file_mb: int) -> None:
    try:
        import resource
    except ImportError:                   # Windows: no limits (said in docs/tournament.md)
        return
    for name, value in (("RLIMIT_AS", memory_mb), ("RLIMIT_FSIZE", file_mb), ("RLIMIT_CORE", 0)):
        kind = getattr(resource, name, None)
        if kind is None:
            continue
        n = value * 1024 * 1024
        try:
            resource.setrlimit(kind, (n, n))
        except (ValueError, OSError):     # macOS refuses RLIMIT_AS: "where the OS allows"
            pass


def main() -> int:
    """The bot's process: read the bot, then answer one payload per line until the referee ends it."""
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)                   # input() reads nothing
    os.dup2(2, 1)                         # print() goes to the log, never into the conversation
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.stdout = sys.stderr

    def send(msg: dict) -> None:
        proto_out.write(json.dumps(msg) + "\n")
        proto_out.flush()

    hello = json.loads(proto_in.readline())
    _limit(int(hello["memory_mb"]), int(hello["file_mb"]))
    spec = BotSpec.from_wire(hello["bot"])
    try:
        choose = load_choose(spec)
    except Forfeit as f:
        send({"forfeit": f.kind, "reason": f.reason})
        return 0
    send({"ready": True})
    for line in proto_in:
        msg = json.loads(line)
        try:
            text, reason = call_choose(choose, msg["payload"], msg["seed"], filename=spec.filename)
        except Forfeit as f:
            send({"forfeit": f.kind, "reason": f.reason})
            continue
        send({"move": text, "reason": reason})
    return 0


if __name__ == "__main__":
    sys.exit(main())
