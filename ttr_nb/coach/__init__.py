"""The coach (issue 19): a search that plays well and says why, for all five games, from one seat's view only.

    advise(state, seat, *, seconds=None, playouts=None, seed=0)  -> [Advice], best first: .action, .win, .points,
                                                                    .margin, .why (one sentence), .words
    ticket_odds(state, seat, *, playouts=100, seed=0)            -> [TicketOdds]: each own ticket's chance to be joined
    review(game, seat, *, playouts=60, seed=0, top=3)             -> [ReviewItem]: the moves that cost most, with the
                                                                    coach's alternative and why
    hint(state, seat, *, seconds=1, top=3, progress=None)         -> Hint: the top moves, the best claim's route to draw,
                                                                    the ticket odds, from one search (for a hint button)
    make_bot("coach") / make_bot("coach:0.5")                     -> a bot that plays the coach's move

How it works (``search``): determinized Monte Carlo. The position is sampled from the seat's view
(``ttr_nb.board.engine.determinize``: the unseen cards, tickets and deck orders re-dealt, the other seats' tickets
weighted by what their claims suggest, ``infer``), every candidate move is played on the same samples, and each
sample is played to the end by a fast greedy policy (``policy``) for every seat; the policy's own move is kept
unless another is better by a margin of standard errors. It never peeks: everything it reads is what the seat may
see, so its advice is a function of that view, the public board and the seed.

The coach sits above the engine protocol (``observe``/``determinize``, legal actions, ``apply``): it works for every
registered game, the Card Game included. Four playing styles to play against live in ``styles``.
"""
from __future__ import annotations

from .advice import Advice, AdviceList, Hint, advise, hint
from .bot import CoachBot, make_coach
from .odds import TicketOdds, odds_from, ticket_odds
from .review import ReviewItem, review
from .search import Settings, search

__all__ = ["Advice", "AdviceList", "Hint", "hint", "advise", "CoachBot", "make_coach", "TicketOdds", "ticket_odds", "odds_from", "ReviewItem",
           "review", "Settings", "search"]
