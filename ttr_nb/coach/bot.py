"""``make_bot("coach")`` / ``make_bot("coach:SECONDS")``: a bot that plays the coach's chosen move.

``coach`` searches a fixed number of playouts per decision (:data:`DEFAULT_PLAYOUTS`), so it is reproducible like
the other bots: the same state, seat and bot seed give the same move. ``coach:0.5`` searches for 0.5 CPU seconds
per decision (``time.process_time``, fair on a busy machine; the move may then vary a little from run to run).

The budget is spread by what a decision is worth (:func:`weight`): a ticket choice gets more than a normal turn,
the second card of a draw less, a forced move none; the weights are set so that a game's decisions average about
the nominal budget (the benchmark reports the average it really used).
The bot reads the state only through ``determinize`` and its own legal actions: what its seat cannot see never
changes its move (tested). Its reason is the coach's why-sentence with the win chance, for its own seat and the
teacher; every other seat reads only the move in words.
"""
from __future__ import annotations

from ..bots import Reason
from ..errors import TTRError

DEFAULT_PLAYOUTS = 200


class CoachBot:
    def __init__(self, seconds: float | None = None, playouts: int | None = None, seed: int = 0, settings=None):
        if seconds is None and playouts is None:
            playouts = DEFAULT_PLAYOUTS
        from .advice import _check_budget
        _check_budget(seconds, playouts)
        self.seconds = seconds
        self.playouts = playouts if seconds is None else None
        self.seed = seed
        from .search import Settings
        self.settings = settings or Settings(early_stop=True)     # a bot need not refine numbers nobody reads
        self.name = f"coach:{seconds:g}" if seconds is not None else "coach"
        self.last = None             # the last search (for benchmarks and tests)

    def choose(self, state, seat: int):
        from .advice import advice_from
        from .search import Settings, search
        from ..board.engine import describe, legal_actions, PUBLIC
        acts = legal_actions(state, seat)
        if len(acts) == 1:
            a = acts[0]
            return a, Reason("the only legal move", "the only legal move")
        w = weight(state, seat)
        result = search(state, seat, playouts=None if self.playouts is None else max(1, round(self.playouts * w)),
                        seconds=None if self.seconds is None else self.seconds * w,
                        seed=f"{self.seed}/{state.ply}", settings=self.settings)
        self.last = result
        best = advice_from(state, seat, result, self.settings).chosen
        public = describe(state, best.action, PUBLIC)
        verb = public.split(" ", 1)[1] if " " in public else public
        text = f"{best.words}: {best.why} (coach: {round(100 * best.win)}% to win over {best.playouts} playouts)"
        return best.action, Reason(text, verb)


#: the share of the nominal budget a decision gets, by its kind
WEIGHTS = {"setup_tickets": 3.0, "tickets": 2.0, "step": 1.5, "second_card": 0.5, "turn": 1.2}


def weight(state, seat: int) -> float:
    """What this decision of ``seat`` gets of the nominal budget (see :data:`WEIGHTS`)."""
    pending = state.pending_for(seat) if state.pending else None
    if pending is None:
        return WEIGHTS["turn"]
    if pending.kind == "choose_tickets":
        return WEIGHTS["setup_tickets" if state.phase == "setup" else "tickets"]
    if pending.kind == "second_card":
        return WEIGHTS["second_card"]
    return WEIGHTS["step"]


def make_coach(spec: str, seed: int = 0) -> CoachBot:
    """'coach' (fixed playouts) or 'coach:SECONDS' (CPU seconds per decision)."""
    text = str(spec).strip().lower()
    if text == "coach":
        return CoachBot(seed=seed)
    try:
        seconds = float(text.split(":", 1)[1])
    except (IndexError, ValueError):
        raise TTRError(f"unknown bot {spec!r}: write 'coach' or 'coach:SECONDS', e.g. 'coach:0.5'") from None
    return CoachBot(seconds=seconds, seed=seed)


__all__ = ["CoachBot", "make_coach", "weight", "WEIGHTS", "DEFAULT_PLAYOUTS"]
