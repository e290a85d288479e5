"""``advise``: the coach's ranked moves for one seat, each with its win chance, points and reason."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..board.actions import Action
from ..errors import TTRError
from ..board.state import GameState
from .explain import Context, action_words, board_reason, card_reason
from .search import Settings, search, utility


@dataclass(frozen=True)
class Advice:
    """One move the coach compared.

    ``win``: estimated chance to win (0–1) if the seat plays ``action`` and everyone then plays on like the
    coach's playout policy; ``points``: the seat's expected final points; ``margin``: its expected lead over the
    best other seat (negative: behind); ``why``: one sentence in a learner's words; ``words``: the move itself in
    words; ``playouts``: how many playouts back the numbers; ``se``: the standard error of ``win``; ``chosen``: the
    move the coach plays (it keeps its policy's move unless another is clearly better)."""

    action: Action
    win: float
    points: float
    margin: float
    why: str
    words: str
    playouts: int
    se: float
    chosen: bool = False

    def __str__(self) -> str:
        return f"{self.words}: {round(100 * self.win)}% to win, {self.points:.0f} points expected — {self.why}"


class AdviceList(list):
    """``advise``'s answer: a list of :class:`Advice`, best estimate first; a table in a notebook."""

    @property
    def chosen(self) -> Advice:
        """The move the coach plays."""
        return next(a for a in self if a.chosen)

    def table(self, top: int | None = None) -> str:
        rows = self[:top] if top else self
        return "\n".join(f"{i}.{'*' if a.chosen else ''} {a.words}: {round(100 * a.win)}% to win, about "
                         f"{a.points:.0f} points ({a.margin:+.0f} on the best other player) — {a.why}"
                         for i, a in enumerate(rows, 1))

    def __repr__(self) -> str:
        return self.table() + "\n" + self.note()

    def _repr_html_(self) -> str:
        import html
        rows = "".join(
            f"<tr><td>{'<b>' if a.chosen else ''}{html.escape(a.words)}{' (the coach plays it)</b>' if a.chosen else ''}</td>"
            f"<td style='text-align:right'>{round(100 * a.win)}%</td><td style='text-align:right'>{a.points:.0f}</td>"
            f"<td style='text-align:right'>{a.margin:+.0f}</td><td style='text-align:left'>{html.escape(a.why)}</td></tr>"
            for a in self)
        return ("<table class='ttr-advice'><thead><tr><th>move</th><th>chance to win</th><th>points</th>"
                "<th>lead</th><th style='text-align:left'>why</th></tr></thead><tbody>" + rows + "</tbody></table>"
                f"<small>{html.escape(self.note())}</small>")

    def note(self) -> str:
        """How to read the table: the playouts behind it, and the coach's own move when it is not the first."""
        n = max((a.playouts for a in self), default=0)
        text = f"Best estimate first; up to {n} playouts a move; marked: the move the coach plays."
        if self and not self[0].chosen:
            text += (f" It still plays {self.chosen.words}: the others' lead is within what chance can give in this "
                     "many playouts.")
        return text


def _game_state(state):
    from ..game import Game
    return state.state if isinstance(state, Game) else state


def _check_budget(seconds, playouts) -> None:
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                                or not 0 < seconds <= 3600):
        raise TTRError(f"seconds must be a number above 0 and at most 3600, got {seconds!r}")
    if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int)
                                 or not 1 <= playouts <= 1_000_000):
        raise TTRError(f"playouts must be a whole number from 1 to 1,000,000, got {playouts!r}")


def advise(state, seat: int | None = None, *, seconds: float | None = None, playouts: int | None = None, seed=0,
           moves: int | None = None, among=None, settings: Settings | None = None, progress=None) -> AdviceList:
    """The coach's advice for ``seat`` (default: the seat to move), best first.

    ``state``: a state or a ``Game``. ``playouts``: the playout budget (deterministic for a ``seed``); ``seconds``:
    a CPU-time budget instead; neither: 200 playouts. ``moves``: compare at most this many moves (the coach's
    first idea and the most promising others), so each gets more playouts. ``among``: compare exactly these moves
    (actions or their text, e.g. ``["draw tickets", "claim Duluth–Helena orange6"]``; the coach's own first idea is
    added). Only what ``seat`` can see is used: the result is the same for two positions that differ only in other
    players' hands and tickets or in the order of the decks. ``progress``: called with the share of the budget used
    (0–1) while the coach thinks."""
    return _search_advice(state, seat, seconds, playouts, seed, moves, among, settings, progress)[0]


def _search_advice(state, seat, seconds, playouts, seed, moves, among, settings, progress):
    """(advice, search result, the state searched, the seat) for ``advise`` and ``hint``."""
    state = _game_state(state)
    _check_budget(seconds, playouts)
    if moves is not None:
        if isinstance(moves, bool) or not isinstance(moves, int) or not 1 <= moves <= 50:
            raise TTRError(f"moves must be a whole number from 1 to 50, got {moves!r}")
        from dataclasses import replace
        settings = replace(settings or Settings(), max_candidates=moves, min_candidates=min(moves, 3))
    from ..board.engine import to_move
    movers = to_move(state)
    if seat is None:
        if not movers:
            raise TTRError("the game is over: there is no move to advise")
        seat = movers[0]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_players:
        raise TTRError(f"there is no seat {seat!r} in a {state.n_players}-player game")
    actions = None
    if among is not None:
        from ..board.engine import check
        if isinstance(among, str) or not hasattr(among, "__iter__"):
            raise TTRError("among must be a list of moves (actions or their text)")
        actions = []
        for a in among:
            if isinstance(a, str) and ":" not in a:
                from ..board.engine import seat_name
                a = f"{seat_name(seat).lower()}: {a}"
            actions.append(check(state, a)[0])
    result = search(state, seat, playouts=playouts, seconds=seconds, seed=seed, settings=settings, actions=actions,
                    progress=progress)
    return advice_from(state, seat, result, settings or Settings()), result, state, seat


@dataclass(frozen=True)
class Hint:
    """What a hint button shows: the top moves with their chances and reasons (``moves``), the route of the best
    claim among them to draw on the board (``route``: a route id, or None when no claim is among them), and the
    chance of each of the seat's tickets from the same playouts (``odds``: the coach's own move's)."""

    moves: AdviceList
    route: str | None
    odds: list
    playouts: int
    note: str = ""                 # how the budget was chosen, in words (e.g. fewer playouts in the browser)

    def __str__(self) -> str:
        lines = [self.moves.table()]
        lines += [f"  {o}" for o in self.odds]
        return "\n".join(lines)


def hint(state, seat: int | None = None, *, seconds: float | None = None, playouts: int | None = None, seed=0,
         top: int = 3, progress=None) -> Hint:
    """The top ``top`` moves for ``seat`` with their chances and reasons, the best claim's route and the seat's
    ticket odds, from one search (see ``advise``; the same budget arguments). Made for a view's hint button: give it
    ``seconds`` (a kernel: about 1; in the browser's Python, JupyterLite, fewer playouts) and a ``progress``
    callback."""
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= 12:
        raise TTRError(f"top must be a whole number from 1 to 12, got {top!r}")
    note = ""
    if seconds is None and playouts is None:
        seconds, playouts, note = default_budget()
    advice, result, state, seat = _search_advice(state, seat, seconds, playouts, seed, max(top, 3), None, None,
                                                 progress)
    from .odds import odds_from
    shown = AdviceList(advice[:top])
    route = None
    for a in shown:
        if isinstance(getattr(a.action, "route", None), str) and state.__class__ is GameState:
            from ..board.names import find_route
            from ..variants import get_variant
            route = find_route(get_variant(state.variant).map, a.action.route).id
            break
    return Hint(shown, route, odds_from(state, seat, result), result.playouts,
                note or f"{result.playouts} playouts in {result.cpu:.1f} s of thinking")


#: JupyterLite's Python (Pyodide) runs the playouts several times slower than a kernel: a hint there gets a fixed
#: number of playouts, which takes a few seconds, and says so
BROWSER_PLAYOUTS = 60


def default_budget() -> tuple[float | None, int | None, str]:
    """(seconds, playouts, note) for a hint: 1 s of thinking in a kernel; in the browser's Python (JupyterLite),
    ``BROWSER_PLAYOUTS`` playouts, with a note that says the numbers rest on fewer playouts."""
    import sys
    if sys.platform == "emscripten":
        return None, BROWSER_PLAYOUTS, (f"{BROWSER_PLAYOUTS} playouts: fewer than in a kernel, as Python in the browser "
                                        "is slower, so the chances are rougher")
    return 1.0, None, ""


def advice_from(state, seat: int, result, s: Settings) -> AdviceList:
    """Advice objects for a finished search, by the utility the search compared (win chance, then margin), best
    first; ``chosen`` marks the move the coach plays (its policy's move unless another is clearly better, so it
    may stand below a move whose lead is within what chance gives in this many playouts)."""
    plan = None
    if state.__class__ is GameState and state.phase != "setup":
        from ..variants import get_variant
        from .policy import make_plan, tables
        plan = make_plan(tables(get_variant(state.variant)), state, seat)
    ctx = Context(state, seat, result, result.needs, plan)
    order = sorted(range(len(result.stats)), key=lambda k: (-_mean_utility(result.stats[k], s), k != result.chosen, k))
    out = AdviceList()
    for k in order:
        st = result.stats[k]
        n = st.n
        win = st.mean("win")
        se = math.sqrt(win * (1 - win) / n) if n > 1 else 1.0
        why = board_reason(ctx, st) if state.__class__ is GameState else card_reason(ctx, st)
        out.append(Advice(st.action, win, st.mean("points"), st.mean("margin"), why,
                          action_words(state, st.action, seat), n, se, k == result.chosen))
    return out


def _mean_utility(st, s: Settings) -> float:
    if not st.n:
        return -math.inf
    return sum(utility(r, s) for r in st.results.values()) / st.n


__all__ = ["Advice", "AdviceList", "Hint", "advise", "hint", "advice_from", "default_budget", "BROWSER_PLAYOUTS"]
