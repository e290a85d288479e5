"""The bot exercise: write ``choose(view)`` that beats a house bot (greedy, by default) in enough games.

Not a position to judge like the other exercises: the answer is a function, checked by playing it (in this
process, so it runs in JupyterLite too) over seeded deals, each in both seats, and counting the wins.
"""
from __future__ import annotations

from typing import Any

from ..errors import TTRError
from .base import Feedback, Prompt, _prompt

__all__ = ["BeatBot", "BeatGreedy"]


class BeatBot:
    """Win at least ``share`` of ``games`` two-player games of ``variant`` against the house bot ``opponent``
    (``games`` / 2 deals from ``seed``, each played from both seats). A forfeit counts as a loss."""

    kind = "beat_bot"

    def __init__(self, opponent: str = "greedy", *, games: int = 100, share: float = 0.6, variant: str = "usa",
                 seed: int = 0):
        from ..bots import make_bot
        from ..variants import get_game
        make_bot(opponent)
        if not isinstance(games, int) or games < 2 or games % 2:
            raise TTRError(f"games={games!r}: an even number of games, at least 2 (each deal from both seats)")
        if not 0 < share <= 1:
            raise TTRError(f"share={share!r}: a share of the games between 0 and 1")
        self.opponent = opponent
        self.games = games
        self.share = share
        self.variant = get_game(variant).key
        self.seed = seed
        self.results = None

    @property
    def title(self) -> str:
        return f"Beat {self.opponent} in {100 * self.share:.0f}% of {self.games} games"

    def prompt(self) -> Prompt:
        from ..variants import get_game
        return _prompt(self.title, [f"{get_game(self.variant).name}, 2 players: your bot against the house bot "
                                    f"{self.opponent}, {self.games // 2} deals, each from both seats",
                                    "a forfeit (an exception, an illegal move) loses that game"],
                       f"Write choose(view) that wins at least {self.needed} of the {self.games} games.",
                       "Check it with ex.check(choose); it plays every game, which takes a little while.")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(games={self.games}, share={self.share:g}, variant={self.variant!r})"

    def _repr_html_(self) -> str:
        return self.prompt().html

    @property
    def needed(self) -> int:
        import math
        return math.ceil(self.share * self.games - 1e-9)

    def check(self, answer: Any) -> Feedback:
        from ..tournament.runner import run_tournament
        if not callable(answer) and not isinstance(answer, str):
            return Feedback(False, f"Give your bot: a function choose(view), got {type(answer).__name__}")
        results = run_tournament([answer, self.opponent], self.variant, games=self.games // 2, players=2,
                                 seed=self.seed, workers=0)
        self.results = results
        mine = results.standings()
        me = next(s for s in mine if s.bot == results.bots[0])
        lo, hi = me.win_low, me.win_high
        words = (f"{me.bot} won {me.wins} of {me.games} games ({100 * me.win_rate:.0f}%; 95% interval "
                 f"{100 * lo:.0f}–{100 * hi:.0f}%), {self.needed} needed")
        if me.forfeit_count:
            first = next(f for f in results.forfeits() if f["bot"] == me.bot)
            words += (f"; it forfeited {me.forfeit_count} game{'s' if me.forfeit_count != 1 else ''} "
                      f"(first: {first['kind']} at move {first['move']}: {first['reason']})")
        if me.wins >= self.needed:
            return Feedback(True, words + ". Well done: try it in the class tournament.")
        return Feedback(False, words + ". Look at a lost game in a HistoryView (ex.results.game(i)): where did "
                                       f"{self.opponent} score what you did not?")


class BeatGreedy(BeatBot):
    """Beat the greedy house bot in 60% of 100 games of USA (the lesson's exercise)."""

    kind = "beat_greedy"

    def __init__(self, *, games: int = 100, share: float = 0.6, variant: str = "usa", seed: int = 0):
        super().__init__("greedy", games=games, share=share, variant=variant, seed=seed)
