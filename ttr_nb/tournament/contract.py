"""The bot contract for students: ``choose(view)`` returns one of ``view.legal``.

A bot is

* a Python file defining ``choose(view)`` (``BotSpec.from_file``), or
* a function ``choose(view)`` in a notebook (``BotSpec.from_function``), or
* a house bot by any ``make_bot`` name: ``random``, ``greedy``, ``mixed:0.5`` ... (``BotSpec.from_house``).

``choose`` may also return ``(move, "why")``: the reason is kept with the game's record. Anything else — an
exception, an answer that is not a legal move of that seat, no answer in time — *forfeits* the game (``Forfeit``,
with its ``kind`` and a reason in words). The module ``random`` is seeded before every call from the game's seed,
the seat and the move number, so a bot that uses it plays the same game every time.

``StudentBot`` wraps a student's function into the house bots' protocol (``choose(state, seat) -> (action,
reason)``), in the caller's own process: for a quick test in a notebook (and in JupyterLite, which has no other
processes). Tournaments run each student's bot in a process of its own (``ttr_nb.tournament.sandbox``).
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import random
import re
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import BadAction, IllegalAction, TTRError
from .view import BotView, payload

__all__ = ["BotSpec", "Forfeit", "StudentBot", "bot_spec", "load_choose", "call_choose", "checked_action",
           "FORFEIT_KINDS", "seed_key"]

#: why a game can be forfeited, in words
FORFEIT_KINDS = {
    "start": "could not be loaded",
    "exception": "choose raised an exception",
    "illegal": "not a legal move",
    "timeout": "too slow",
    "crash": "its process died",
}


class Forfeit(TTRError):
    """A bot lost its game by ``kind`` (a key of ``FORFEIT_KINDS``); the message says what happened."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


@dataclass(frozen=True)
class BotSpec:
    """A bot as it travels to a worker: a house bot by name, a file's text, or a pickled function.

    ``name`` is how tables and charts call it; ``digest`` identifies its code (a changed file is a new bot when a
    tournament resumes)."""

    name: str
    kind: str                          # "house", "source" or "function"
    house: str = ""                    # kind "house": the make_bot name
    source: str = ""                   # kind "source": the file's text
    filename: str = ""                 # kind "source": the file's name (for tracebacks)
    pickled: bytes = b""               # kind "function": cloudpickle of the function (for processes)
    function: Any = field(default=None, compare=False, repr=False)    # kind "function", in this process only

    @property
    def digest(self) -> str:
        body = {"house": self.house, "source": self.source}.get(self.kind)
        if body is None:
            body = _function_source(self.function)
        return hashlib.sha256(f"{self.kind}\n{body}".encode("utf-8")).hexdigest()[:16]

    @property
    def sandboxed(self) -> bool:
        """House bots are ttr_nb's own code and play in the referee's process; students' bots get a process."""
        return self.kind != "house"

    @classmethod
    def from_house(cls, name: str) -> "BotSpec":
        from ..bots import make_bot
        make_bot(name)                  # TTRError naming the known bots if there is no such bot
        return cls(name=str(name).strip().lower(), kind="house", house=str(name).strip().lower())

    @classmethod
    def from_file(cls, path: str | os.PathLike, name: str | None = None) -> "BotSpec":
        p = Path(path)
        if not p.is_file():
            raise TTRError(f"bot file {str(path)!r} does not exist" if not p.exists() else f"{str(path)!r} is not a file")
        try:
            source = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise TTRError(f"cannot read bot file {str(path)!r}: {e}") from None
        return cls(name=name or p.stem, kind="source", source=source, filename=p.name)

    @classmethod
    def from_function(cls, fn: Callable, name: str | None = None) -> "BotSpec":
        if not callable(fn):
            raise TTRError(f"a bot is a function choose(view), got {type(fn).__name__}")
        return cls(name=name or _function_name(fn), kind="function", function=fn)

    def to_wire(self) -> dict:
        """This bot for another process: a JSON-ready dict (a function travels pickled, by value)."""
        d = {"name": self.name, "kind": self.kind, "house": self.house, "source": self.source,
             "filename": self.filename}
        if self.kind == "function":
            d["pickled"] = (self.pickled or _pickle(self.function, self.name)).hex()
        return d

    @classmethod
    def from_wire(cls, d: dict) -> "BotSpec":
        return cls(name=d["name"], kind=d["kind"], house=d.get("house", ""), source=d.get("source", ""),
                   filename=d.get("filename", ""), pickled=bytes.fromhex(d.get("pickled", "")))


def _function_name(fn) -> str:
    name = getattr(fn, "__name__", "") or "bot"
    if name in ("choose", "<lambda>"):
        module = getattr(fn, "__module__", "") or ""
        name = "my bot" if module in ("__main__", "") else module.rsplit(".", 1)[-1]
    return name


def _function_source(fn) -> str:
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return repr(getattr(fn, "__code__", fn))


def _pickle(fn, name: str) -> bytes:
    try:
        import cloudpickle
    except ImportError:
        raise TTRError(f"bot {name!r} is a function: to run it in a process of its own ttr_nb sends it with "
                       "cloudpickle, which is not installed (pip install 'ttr-nb[cluster]'); or run in this "
                       "process (workers=0), or save the bot to a file (ttr.save_bot)") from None
    return cloudpickle.dumps(fn)


def bot_spec(bot: Any, name: str | None = None) -> BotSpec:
    """A ``BotSpec`` from a file path, a house bot name, a function, or a ``BotSpec``."""
    if isinstance(bot, BotSpec):
        return bot
    if callable(bot) and not isinstance(bot, (str, os.PathLike)):
        return BotSpec.from_function(bot, name)
    if isinstance(bot, (str, os.PathLike)):
        text = str(bot)
        if text.endswith(".py") or os.sep in text or "/" in text:
            return BotSpec.from_file(text, name)
        try:                # a house bot's name first: "coach:0.05" is no path to look up (JupyterLite's
            return BotSpec.from_house(text)     # file system would ask its server for a folder "coach:")
        except TTRError as e:
            if Path(text).is_file():
                return BotSpec.from_file(text, name)
            raise TTRError(f"{text!r} is neither a bot file (NAME.py) nor a house bot: {e}") from None
    raise TTRError(f"a bot is a file NAME.py, a house bot name or a function choose(view); got {type(bot).__name__}")


# ----------------------------------------------------------------------------------------------- loading and calling

def load_choose(spec: BotSpec) -> Callable:
    """The ``choose`` function of a student's bot, loaded in this process. Raises ``Forfeit("start", ...)``."""
    if spec.kind == "function":
        fn = spec.function
        if fn is None:
            try:
                import cloudpickle
                fn = cloudpickle.loads(spec.pickled)
            except Exception as e:      # noqa: BLE001 (whatever unpacking a student's function raises)
                raise Forfeit("start", f"{spec.name}: the function could not be unpacked here "
                                       f"({type(e).__name__}: {e})") from None
    elif spec.kind == "source":
        fn = _load_file(spec)
    else:
        raise TTRError(f"{spec.name} is a house bot: make_bot({spec.house!r}) plays it")
    if not callable(fn):
        raise Forfeit("start", f"{spec.name}: choose is a {type(fn).__name__}, not a function")
    return fn


def _load_file(spec: BotSpec) -> Callable | None:
    """Import the bot's source as the module it is (from a copy in a fresh folder: the file may come from another
    machine) and return its ``choose``; ``Forfeit("start", ...)`` if it cannot be loaded."""
    import importlib.util
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="ttr-bot-source-")
    try:
        path = os.path.join(folder, Path(spec.filename).name or "bot.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(spec.source)
        name = "ttr_nb_student_" + (re.sub(r"\W", "_", Path(spec.filename).stem) or "bot")
        found = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(found)
        try:
            found.loader.exec_module(module)
        except SyntaxError as e:
            raise Forfeit("start", f"{spec.filename}, line {e.lineno}: SyntaxError: {e.msg}") from None
        except BaseException as e:      # noqa: BLE001 (a student's file may raise anything, SystemExit too)
            raise Forfeit("start", f"{spec.filename}: loading it raised {_where(e, spec.filename)}") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    fn = module.__dict__.get("choose")
    if fn is None:
        raise Forfeit("start", f"{spec.filename} defines no function choose(view)")
    return fn


def _where(e: BaseException, filename: str) -> str:
    """'ZeroDivisionError: division by zero (first.py, line 4, in choose)': the last frame in the bot's code."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if not f.filename.endswith(
        (os.path.join("tournament", "contract.py"), os.path.join("tournament", "sandbox.py")))]
    own = [f for f in frames if Path(f.filename).name == Path(filename).name] or frames
    text = "".join(traceback.format_exception_only(type(e), e)).strip().splitlines()[-1]
    if own:
        f = own[-1]
        text += f" ({Path(f.filename).name}, line {f.lineno}, in {f.name})"
    return text[:500]


def seed_key(game_seed: int, seat: int, move: int) -> str:
    """What ``random`` is seeded with before a bot's ``choose`` (the same in every process and on every worker)."""
    return f"ttr_nb bot/{game_seed}/{seat}/{move}"


def call_choose(choose: Callable, doc: dict, seed: str, *, filename: str = "") -> tuple[str, str]:
    """Call ``choose`` on a fresh ``BotView`` of the payload ``doc`` with ``random`` seeded by ``seed``; return
    (the answer's text, the bot's reason or ''). Raises ``Forfeit`` ("exception" or "illegal" when the answer is
    not text at all). The caller's ``random`` state is kept."""
    view = BotView(doc)
    saved = random.getstate()
    random.seed(seed)
    try:
        answer = choose(view)
    except Exception as e:             # noqa: BLE001 (a student's bot may raise anything)
        raise Forfeit("exception", f"choose raised {_where(e, filename)}") from None
    finally:
        random.setstate(saved)
    reason = ""
    if isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[1], str):
        answer, reason = answer
    if not isinstance(answer, str):
        raise Forfeit("illegal", f"choose returned {_short(answer)}, not one of view.legal (a move's text)")
    return str(answer), reason[:300]


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def checked_action(state, seat: int, text: str, legal: list[str] | None = None):
    """The action ``text`` stands for, checked by the rules for ``seat`` (its seat filled in). Raises ``Forfeit
    ("illegal", ...)`` naming the rule when it is not a legal move of that seat."""
    from ..board.actions import parse_action
    from ..board.engine import seat_name
    from ..variants import rules_of
    rules = rules_of(state)
    try:
        action = parse_action(text)
    except BadAction as e:
        raise Forfeit("illegal", f"returned {_short(text)}: {e}") from None
    if action.seat is not None and action.seat != seat:
        raise Forfeit("illegal", f"returned {_short(text)}, a move for {seat_name(action.seat)}: a bot plays "
                                 f"only its own seat ({seat_name(seat)})")
    action = action.with_seat(seat)
    if legal is not None and text in legal:
        return action
    try:
        action, _ = rules.check(state, action)
    except (IllegalAction, BadAction, TTRError) as e:
        raise Forfeit("illegal", f"returned {_short(text)}, not a legal move: {e}") from None
    return action


class StudentBot:
    """A student's ``choose(view)`` in the house bots' protocol, run in this process (no time or memory limit can
    be enforced here: a move slower than ``move_seconds`` forfeits only after it returns).

    ``choose(state, seat)`` builds the seat's view from ``observe`` and the legal moves (a copy), calls the
    function, checks the answer with the rules and returns ``(action, reason)``; it raises ``Forfeit`` otherwise.
    """

    def __init__(self, bot: Callable | str | BotSpec, *, move_seconds: float | None = None, name: str | None = None):
        self.spec = bot_spec(bot, name)
        if not self.spec.sandboxed:
            raise TTRError(f"{self.spec.name} is a house bot: use make_bot({self.spec.house!r})")
        self.name = self.spec.name
        self.move_seconds = move_seconds
        self._choose = load_choose(self.spec)

    def choose(self, state, seat: int):
        doc = payload(state, seat)           # made afresh for this call: the game holds no part of it
        legal = list(doc["legal"])           # kept apart: the bot may change the lists it is given
        start = time.perf_counter()
        text, reason = call_choose(self._choose, doc, seed_key(state.seed, seat, state.ply),
                                   filename=self.spec.filename)
        took = time.perf_counter() - start
        if self.move_seconds is not None and took > self.move_seconds:
            raise Forfeit("timeout", f"took {took:.2f} s for a move (the limit is {self.move_seconds:g} s)")
        from ..bots import Reason
        # the reason may name the seat's own secrets: other seats read only that the bot chose
        return checked_action(state, seat, text, legal), Reason(reason or "its own choice", "its own choice")
