"""``review``: after a game, the moves where a seat's estimated chance to win dropped most.

For each decision the seat made, the position before it is searched from the seat's view (the move that was
played is always among the moves compared, on the same samples). The *drop* is the coach's best move's win chance
minus the played move's. The biggest drops come back, each with the coach's alternative, its reason and what
happened next on the board (public: "Red took Denver–Omaha on the next turn").
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..board.actions import Claim
from ..board.engine import seat_name, to_move
from ..errors import TTRError
from ..board.state import GameState
from .advice import Advice, advice_from
from .search import Settings, _key, paired, search


@dataclass(frozen=True)
class ReviewItem:
    ply: int                 # 1-based number of the move in the game's history
    turn: int
    played: Advice           # the move that was played, with the coach's numbers for it
    better: Advice           # the coach's move there
    drop: float              # better.win - played.win
    next: str                # what happened on the board right after, in words ('' when nothing notable)
    z: float = 0.0           # how clear the loss is: the mean loss (win chance and margin) on the samples both
                             # moves were played on, in standard errors of that mean (2 or more: hardly chance)

    @property
    def text(self) -> str:
        """'Turn 12: drawing cards kept 38%; claim Denver–Omaha had 61% — it is on your path ...; then Red took
        Denver–Omaha.'"""
        then = f" Then {self.next}." if self.next else ""
        return (f"Turn {self.turn + 1}: {self.played.words} left {round(100 * self.played.win)}% to win; "
                f"{self.better.words} had {round(100 * self.better.win)}% — {self.better.why}{then}")

    def __str__(self) -> str:
        return self.text


def review(game, seat: int, *, playouts: int = 60, seed=0, top: int = 3, min_drop: float = 0.05,
           moves=None, progress=None) -> list[ReviewItem]:
    """The ``top`` moves of ``seat`` in ``game`` (a ``Game``) whose estimated win chance was furthest below the
    coach's choice, biggest drop first (only drops of at least ``min_drop``). ``playouts`` per move (deterministic
    for a ``seed``); ``moves``: review only these moves (their 1-based numbers in ``game.history``) instead of every
    move of the seat. ``progress``: called with the share of the seat's moves reviewed (0–1) after each one, for a
    view that shows the coach at work."""
    from .advice import _check_budget
    _check_budget(None, playouts)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.state.n_players:
        raise TTRError(f"there is no seat {seat!r} in a {game.state.n_players}-player game")
    history = game.history
    items = []
    s = Settings()
    wanted = None if moves is None else set(moves)
    mine = [k for k, ply in enumerate(history)
            if ply.seat == seat and (wanted is None or ply.number in wanted)]
    for done, k in enumerate(mine):
        if progress is not None and done:
            progress(done / len(mine))
        ply = history[k]
        before = game.state_at(ply.number - 1)
        if seat not in to_move(before):
            continue
        from ..board.engine import legal_actions
        if len(legal_actions(before, seat)) < 2:
            continue
        result = search(before, seat, playouts=playouts, seed=f"review/{seed}/{ply.number}", include=(ply.action,))
        advice = advice_from(before, seat, result, s)
        played = next((a for a in advice if _key(a.action) == _key(ply.action)), None)
        if played is None:
            continue
        best = advice.chosen
        drop = best.win - played.win
        if _key(best.action) == _key(played.action) or drop < min_drop:
            continue
        pk = next(i for i, st in enumerate(result.stats) if _key(st.action) == _key(ply.action))
        mean, se, _n = paired(result.stats[result.chosen], result.stats[pk], s)
        z = mean / se if se and math.isfinite(se) else 0.0
        items.append(ReviewItem(ply.number, before.turn, played, best, drop, _what_next(game, k, seat), z))
    if progress is not None:
        progress(1.0)
    items.sort(key=lambda it: (-it.drop, it.ply))
    return items[:top]


def _what_next(game, k: int, seat: int) -> str:
    """The first claim by another seat within the next round of turns, when it took a route the seat's plan
    needed (public: claims are on the board)."""
    history = game.history
    before = history[k].state
    if before.__class__ is not GameState:
        return ""
    from ..variants import get_variant
    from .policy import make_plan, tables
    v = get_variant(before.variant)
    t = tables(v)
    plan = make_plan(t, before, seat)
    mine = {t.labels[i] for i in plan.routes}
    for ply in history[k + 1:k + 1 + 2 * before.n_players]:
        if ply.seat != seat and isinstance(ply.action, Claim) and ply.action.route in mine:
            return f"{seat_name(ply.seat)} took {ply.action.route}, a route on your path"
    return ""


__all__ = ["ReviewItem", "review"]
