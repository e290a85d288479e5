"""The lesson's side of bots and tournaments (``notebooks/07_write_a_bot.ipynb``, through ``ttr_nb.teaching``).

* ``bot_view(game, seat)``: what a bot of that seat would be given now (``play_moves`` gets a game a few turns in);
* ``tournament(bots, ...)``: ``run_tournament`` with a lesson's defaults (in the notebook's own process, one
  game at a time, with a progress bar in the notebook) — the same games and table as ``ttr-nb tournament``;
* ``save_bot(choose, "my_bot.py")``: a notebook function (with the helper functions, imports and constants it
  uses) written to a bot file for the class tournament.

Rules layer: IPython is imported only to draw the progress bar, and only when it is there.
"""
from __future__ import annotations

import html
import inspect
import os
import textwrap
import types
from pathlib import Path
from typing import Any, Callable, Sequence

from ..errors import TTRError
from .contract import BotSpec, load_choose
from .results import Results
from .runner import run_tournament
from .view import BotView, view_of

__all__ = ["bot_view", "play_moves", "tournament", "save_bot", "bot_source", "NotebookProgress"]


def bot_view(game, seat: int | None = None) -> BotView:
    """The ``BotView`` a bot playing ``seat`` gets now (default: the first seat to move) in ``game`` (a ``Game`` or
    a state)."""
    state = getattr(game, "state", game)
    from ..variants import rules_of
    rules = rules_of(state)
    if seat is None:
        movers = rules.to_move(state)
        if not movers:
            raise TTRError("the game is over: no seat has a move to choose")
        seat = movers[0]
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n_players:
        raise TTRError(f"there is no seat {seat!r} in a {state.n_players}-player game")
    return view_of(state, seat)


def play_moves(game, moves: int, bot: str = "greedy"):
    """Play the next ``moves`` moves of ``game`` (a ``Game``) with house bots ``bot`` in every seat; returns the
    game (a position to look at, a few turns in)."""
    from ..bots import make_bot
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
        raise TTRError(f"moves={moves!r}: a number of moves, 0 or more")
    game.play_bots(make_bot(bot), max_plies=moves)
    return game


class NotebookProgress:
    """A progress bar in a notebook cell (an HTML ``<progress>`` redrawn in place; plain text elsewhere)."""

    def __init__(self, label: str = "games"):
        self.label = label
        self.handle = None
        self._html = None
        try:
            from IPython import get_ipython
            from IPython.display import HTML, display
        except ImportError:
            return
        if get_ipython() is not None:                 # in a notebook (not a plain script)
            self._html = HTML
            self.handle = display(HTML(self._bar(0, 1)), display_id=True)

    def _bar(self, done: int, total: int) -> str:
        return (f'<div class="ttr-progress"><progress value="{done}" max="{total}" style="width:18em" '
                f'aria-label="{html.escape(self.label)} played"></progress> {done} of {total} {html.escape(self.label)}'
                f'</div>')

    def __call__(self, done: int, total: int, record: dict | None) -> None:
        if self.handle is not None:
            self.handle.update(self._html(self._bar(done, total)))


def tournament(bots: Sequence[Any], variant: str = "usa", *, games: int = 4, players: int = 2, seed: int = 0,
               workers: int = 0, move_seconds: float = 1.0, out: str | os.PathLike | None = None,
               progress: bool = True, **options) -> Results:
    """Every table of ``bots`` (functions ``choose(view)``, bot files, house bot names) in every seat over ``games``
    seeded deals; returns the ``Results`` (a table in the notebook; ``.chart()``, ``.game(i)``).

    ``workers=0`` (the default here) plays in this notebook's process, one game at a time — how JupyterLite runs
    it, and quick for a few games; no time limit can be enforced in this process. ``workers=None`` uses every
    core, each student's bot in a process of its own, with ``move_seconds`` enforced (as ``ttr-nb tournament``).
    """
    bar = NotebookProgress() if progress else None
    return run_tournament(bots, variant, games=games, players=players, seed=seed, workers=workers,
                          move_seconds=move_seconds, out=out, progress=bar, **options)


# ----------------------------------------------------------------------------------------------- saving a bot

_CONSTANTS = (int, float, str, bool, type(None))


def _constant(x: Any) -> bool:
    if isinstance(x, _CONSTANTS):
        return True
    if isinstance(x, (tuple, list, set, frozenset)):
        return all(_constant(v) for v in x)
    if isinstance(x, dict):
        return all(_constant(k) and _constant(v) for k, v in x.items())
    return False


def _names(code: types.CodeType) -> set[str]:
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def bot_source(fn: Callable) -> str:
    """Python source for a bot file holding ``fn`` as ``choose``, with the functions it calls from the same
    notebook (or module), the modules it uses, and its constants. ``TTRError`` names what cannot be written out."""
    if not isinstance(fn, types.FunctionType):
        raise TTRError(f"a bot is a function choose(view), got {type(fn).__name__}")
    imports: dict[str, str] = {}
    constants: dict[str, str] = {}
    functions: dict[str, str] = {}

    def visit(f: types.FunctionType) -> None:
        if f.__name__ in functions:
            return
        if f.__name__ == "<lambda>":
            raise TTRError("save_bot needs functions defined with def (a lambda has no name to save)")
        try:
            source = textwrap.dedent(inspect.getsource(f))
        except (OSError, TypeError):
            raise TTRError(f"the source of {f.__name__} cannot be found (define it in a notebook cell or a file)") from None
        functions[f.__name__] = ""                 # placeholder while its helpers are visited (recursion)
        for name in sorted(_names(f.__code__)):
            if name not in f.__globals__:          # a builtin, or an attribute's name (view.legal)
                continue
            obj = f.__globals__[name]
            if isinstance(obj, types.ModuleType):
                top = obj.__name__
                imports[name] = f"import {top}" if top == name else f"import {top} as {name}"
            elif isinstance(obj, types.FunctionType) and obj.__module__ == fn.__module__:
                visit(obj)
            elif callable(obj) and getattr(obj, "__module__", None) and obj.__module__ != fn.__module__ \
                    and getattr(obj, "__name__", None):
                mod = obj.__module__
                imports[name] = (f"from {mod} import {obj.__name__}" if obj.__name__ == name
                                 else f"from {mod} import {obj.__name__} as {name}")
            elif _constant(obj):
                constants[name] = f"{name} = {obj!r}"
            else:
                raise TTRError(f"{f.__name__} uses {name} (a {type(obj).__name__}), which save_bot cannot write "
                               "into a file: make it a constant, a function, or import it inside the function")
        functions[f.__name__] = source

    visit(fn)
    parts = [f'"""A bot for ttr_nb: choose(view) returns one of view.legal (written by ttr_nb\'s save_bot)."""']
    if imports:
        parts.append("\n".join(sorted(imports.values())))
    if constants:
        parts.append("\n".join(constants[k] for k in sorted(constants)))
    order = [k for k in functions if k != fn.__name__] + [fn.__name__]
    parts += [functions[k].rstrip() for k in order]
    if fn.__name__ != "choose":
        parts.append(f"choose = {fn.__name__}")
    return "\n\n\n".join(parts) + "\n"


def save_bot(fn: Callable, path: str | os.PathLike) -> Path:
    """Write ``fn`` (and what it uses) to the bot file ``path``, check the file loads, and return its path. An
    existing file is replaced only if it is a bot file save_bot wrote."""
    target = Path(path)
    if target.suffix != ".py":
        raise TTRError(f"{str(path)!r}: a bot file ends in .py")
    if target.is_dir():
        raise TTRError(f"{str(path)!r} is a folder")
    if target.exists() and "written by ttr_nb's save_bot" not in target.read_text(encoding="utf-8", errors="replace")[:300]:
        raise TTRError(f"{str(path)!r} exists and was not written by save_bot: it is left as it is; choose another name")
    source = bot_source(fn)
    target.write_text(source, encoding="utf-8")
    load_choose(BotSpec.from_file(target))        # the file must load on its own (Forfeit names the problem)
    return target
