"""A student's bot in a process of its own: started fresh for each game, with a clean environment, limits, and a
copy of each view.

The referee (``BotProcess``) starts the bot's process in an empty temporary folder, with none of the caller's
environment variables (only ``PYTHONHASHSEED=0``, where ttr_nb is, and a temporary ``HOME``). On Linux it is forked
from a *zygote*: one clean process per referee (started like a bot's, with that environment) that has imported
ttr_nb, loaded the boards and never seen a game or a bot, so each bot still starts fresh but without paying for
Python's start and ttr_nb's imports (about 0.25 s of CPU) every game. Elsewhere each bot's process is
``python -s -P -m ttr_nb.tournament.sandbox``. The referee talks to it in JSON lines: first the bot (its source text or pickled function) and the limits, then
one payload per move (``ttr_nb.tournament.view.payload``), each answered with a move, or a forfeit. The bot's own
``print`` output goes to a log file, never into the conversation.

Limits: a move may use ``move_seconds`` of CPU time (measured in the bot's process, so a busy machine does not
make a bot forfeit), and must come within ``wall_seconds(move_seconds)`` on the clock (else the process is killed:
a bot that sleeps or waits forfeits too); where the OS allows (Linux), the process's address space is capped at
``memory_mb`` and each file it writes at ``FILE_MB``. See docs/tournament.md for what this does and does not protect.
"""
from __future__ import annotations

import atexit
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from .contract import BotSpec, Forfeit, call_choose, load_choose

__all__ = ["BotProcess", "clean_env", "START_SECONDS", "MEMORY_MB", "FILE_MB"]

START_SECONDS = 30.0      # to start Python, import ttr_nb and load the bot (generous: a busy machine is slow)
MEMORY_MB = 2048          # default address-space limit of a bot's process
FILE_MB = 50              # largest file a bot's process may write (its print output included)
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])     # the folder that holds ttr_nb


def wall_seconds(move_seconds: float) -> float:
    """The clock's limit for a move of ``move_seconds`` CPU seconds: three times as long, and at least 2 s more
    (on a busy machine a process waits for a core; a bot that sleeps or waits still forfeits)."""
    return max(3 * move_seconds, move_seconds + 2.0)


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
        self.proc: subprocess.Popen | None = None       # a spawned process (no zygote)
        self._zygote: "_Zygote | None" = None            # or a process forked by the zygote
        self._pid = 0
        self._in = self._out = None
        self._closed = False
        self._answers: queue.Queue = queue.Queue()
        self._outbox: queue.Queue = queue.Queue()
        self._dir = ""
        self._log = None

    # -- life ------------------------------------------------------------------------------------------------
    def start(self) -> "BotProcess":
        """Start the process and send it the bot (does not wait: see ``ready``)."""
        self._dir = tempfile.mkdtemp(prefix="ttr-bot-")
        self._log = open(os.path.join(self._dir, "output.txt"), "w+b")
        zygote = _zygote()
        if zygote is not None:
            self._pid, self._in, self._out = zygote.fork(self._dir, self._log)
            self._zygote = zygote
        else:
            cmd = [sys.executable, "-s", "-P", "-m", "ttr_nb.tournament.sandbox"]
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                         cwd=self._dir, env=clean_env(self._dir), close_fds=True,
                                         start_new_session=(os.name == "posix"))
            self._pid, self._in, self._out = self.proc.pid, self.proc.stdout, self.proc.stdin
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
        more than ``move_seconds`` of CPU for the move, no answer within ``wall_seconds(move_seconds)`` on the
        clock, or a dead process."""
        self._send({"payload": doc, "seed": seed})
        wall = wall_seconds(move_seconds)
        msg = self._receive(wall, f"on the clock for a move (the limit: {move_seconds:g} s of CPU; a bot that "
                                  "waits forfeits too)")
        cpu = msg.get("cpu")
        if isinstance(cpu, (int, float)) and cpu > move_seconds:
            self.close()
            raise Forfeit("timeout", f"used {cpu:.2f} s of CPU for a move (the limit is {move_seconds:g} s)")
        if "forfeit" in msg:
            self.close()
            raise Forfeit(msg["forfeit"], msg["reason"])
        if not isinstance(msg.get("move"), str):
            self.close()
            raise Forfeit("illegal", f"the bot's process sent {str(msg)[:100]!r} instead of a move")
        return msg["move"], str(msg.get("reason") or "")

    def close(self) -> None:
        """End the process (and anything it started) and remove its folder."""
        if not self._closed and self._pid:
            self._closed = True
            alive = self.proc.poll() is None if self.proc is not None else True
            if alive:
                try:
                    if os.name == "posix":
                        os.killpg(self._pid, signal.SIGKILL)
                    else:
                        self.proc.kill()
                except (ProcessLookupError, PermissionError):
                    pass
            if self.proc is not None:
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:     # pragma: no cover (SIGKILL does not wait)
                    pass
            for pipe in (self._in, self._out):
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
        stdin = self._out
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
        stdout = self._in
        try:
            for line in stdout:
                self._answers.put((time.monotonic(), line))
        except (OSError, ValueError):
            pass
        self._answers.put((time.monotonic(), None))

    def _receive(self, seconds: float, what: str) -> dict:
        # The limit is judged by when the answer arrived, not by when this thread woke up to look: on a busy
        # machine the wait can end late and find an answer that came after the limit (a bot that sleeps exactly
        # the limit would then pass in one run and forfeit in the next).
        deadline = time.monotonic() + seconds
        try:
            arrived, line = self._answers.get(timeout=seconds)
        except queue.Empty:
            arrived, line = deadline, ""
        if arrived >= deadline:
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
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                code = None
        else:
            code = self._zygote.status(self._pid)
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


def _serve(proto_in, proto_out) -> None:
    """The bot's side of the conversation: the bot and its limits first, then one answer per payload."""
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
        return
    send({"ready": True})
    for line in proto_in:
        msg = json.loads(line)
        started = time.process_time()
        try:
            text, reason = call_choose(choose, msg["payload"], msg["seed"], filename=spec.filename)
        except Forfeit as f:
            send({"forfeit": f.kind, "reason": f.reason})
            continue
        send({"move": text, "reason": reason, "cpu": time.process_time() - started})


def _quiet_stdio(log_fd: int | None = None) -> None:
    """fd 0 reads nothing; fd 1 and 2 (print, tracebacks) go to the log (``log_fd``, or the current fd 2)."""
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    if log_fd is not None:
        os.dup2(log_fd, 2)
        os.close(log_fd)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.stdout = sys.stderr


def main() -> int:
    """A spawned bot's process: the conversation on stdin/stdout (kept apart from the bot's own print)."""
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    _quiet_stdio()
    _serve(proto_in, proto_out)
    return 0


# ----------------------------------------------------------------------------------------------- the zygote (Linux)

class _Zygote:
    """The referee's end of a zygote: ``fork`` a bot's process, ask a finished one's ``status``."""

    def __init__(self):
        import socket
        self.home = tempfile.mkdtemp(prefix="ttr-zygote-")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.ctrl = ours
        self.lock = threading.Lock()
        self.proc = subprocess.Popen([sys.executable, "-s", "-P", "-m", "ttr_nb.tournament.sandbox", "--zygote",
                                      str(theirs.fileno())], pass_fds=[theirs.fileno()], cwd=self.home,
                                     env=clean_env(self.home), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        theirs.close()
        ours.settimeout(START_SECONDS)
        if json.loads(ours.recv(4096) or b"{}").get("ready") is not True:
            raise OSError("the zygote did not start")
        ours.settimeout(None)

    def _ask(self, msg: dict, fds: list[int] = ()) -> dict:
        import socket
        with self.lock:
            socket.send_fds(self.ctrl, [json.dumps(msg).encode("utf-8")], list(fds))
            reply = self.ctrl.recv(4096)
        if not reply:
            raise OSError("the zygote has ended")
        return json.loads(reply)

    def fork(self, folder: str, log) -> tuple[int, Any, Any]:
        """A new bot's process in ``folder``, printing into ``log``: (pid, its answers, its inbox)."""
        import socket
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            pid = self._ask({"op": "fork", "dir": folder}, [theirs.fileno(), log.fileno()])["pid"]
        finally:
            theirs.close()
        return pid, ours.makefile("rb"), ours.makefile("wb")

    def status(self, pid: int) -> int | None:
        """A finished process's exit status (negative: the signal that ended it), as ``Popen.returncode``."""
        try:
            return self._ask({"op": "status", "pid": pid}).get("code")
        except OSError:
            return None


    def stop(self) -> None:
        """End the zygote (it reaps its bots' processes and removes its folder) and wait for it."""
        try:
            self.ctrl.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


_ZYGOTES: dict[int, _Zygote | None] = {}
_ZYGOTE_LOCK = threading.Lock()


@atexit.register
def _stop_zygotes() -> None:
    for pid, zygote in list(_ZYGOTES.items()):
        if zygote is not None and pid == os.getpid():
            zygote.stop()


def _zygote() -> _Zygote | None:
    """This process's zygote (started on first use), or None where there is none (not Linux, or it failed)."""
    if not sys.platform.startswith("linux") or os.environ.get("TTR_NB_NO_ZYGOTE"):
        return None
    me = os.getpid()
    with _ZYGOTE_LOCK:
        if me not in _ZYGOTES:
            try:
                _ZYGOTES[me] = _Zygote()
            except (OSError, ValueError):
                _ZYGOTES[me] = None
        return _ZYGOTES[me]


def zygote_main(ctrl_fd: int) -> int:
    """The zygote: load what every bot needs, then fork one bot's process per request until the referee ends."""
    import socket
    ctrl = socket.socket(fileno=ctrl_fd)
    from ..variants import available_games, get_game
    from .view import BotView  # noqa: F401  (loaded once here, shared by every bot's process)
    from ..cardgame.data import load_cards
    import ttr_nb.board.names  # noqa: F401
    for key in available_games():
        game = get_game(key)
        if hasattr(game, "map_key"):
            game.map
    load_cards()
    try:
        import networkx  # noqa: F401  (view.graph)
    except ImportError:
        pass
    statuses: dict[int, int | None] = {}
    home = os.getcwd()
    ctrl.sendall(json.dumps({"ready": True}).encode("utf-8"))
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(ctrl, 65536, 2)
        except OSError:
            data = b""
        if not data:                     # the referee has ended: reap the bots' processes (all ended), go
            while True:
                try:
                    os.waitpid(-1, 0)
                except ChildProcessError:
                    break
            shutil.rmtree(home, ignore_errors=True)
            return 0
        req = json.loads(data)
        while True:                      # collect finished bots' statuses
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if not pid:
                break
            statuses[pid] = os.waitstatus_to_exitcode(status)
            if len(statuses) > 10_000:   # bots the referee killed itself: nobody asks for those
                del statuses[next(iter(statuses))]
        if req["op"] == "fork":
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                try:
                    ctrl.close()
                    os.setsid()
                    os.chdir(req["dir"])
                    os.environ.update(HOME=req["dir"], TMPDIR=req["dir"])
                    tempfile.tempdir = None
                    conn = socket.socket(fileno=fds[0])
                    _quiet_stdio(fds[1])
                    _serve(conn.makefile("r", encoding="utf-8"), conn.makefile("w", encoding="utf-8"))
                except BaseException:    # noqa: BLE001 (the bot's process ends here whatever happened)
                    os._exit(1)
                os._exit(0)
            for fd in fds:
                os.close(fd)
            ctrl.sendall(json.dumps({"pid": pid}).encode("utf-8"))
        elif req["op"] == "status":
            pid = req["pid"]
            if pid not in statuses:
                try:
                    statuses[pid] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
                except ChildProcessError:
                    statuses[pid] = None
            ctrl.sendall(json.dumps({"code": statuses.pop(pid)}).encode("utf-8"))


if __name__ == "__main__":
    sys.exit(zygote_main(int(sys.argv[2])) if sys.argv[1:2] == ["--zygote"] else main())
