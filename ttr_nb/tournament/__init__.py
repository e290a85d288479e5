"""Student bots and tournaments: write ``choose(view)``, play it against others, rank everyone.

* ``contract``: the bot contract (``choose(view)`` returns one of ``view.legal``), ``StudentBot`` (a student's
  function in the house bots' protocol), forfeits;
* ``view``: ``BotView``, what a bot sees (built from ``observe`` and the legal moves only);
* ``schedule``: every table of bots, each bot in every seat, over seeded deals;
* ``referee``: one game, refereed (forfeits, a stand-in for a forfeited seat, the record);
* ``sandbox``: a student's bot in a process of its own (clean environment, time and memory limits);
* ``runner``: this process, local worker processes, or a Dask cluster; ``results``: the JSON-lines file, ratings
  (openskill), win rates with 95% intervals, the table, replays.

Rules layer: nothing here imports plotly or ipywidgets (``Results.chart`` loads ``ttr_nb.render.tournament``).
"""
from __future__ import annotations

from .contract import FORFEIT_KINDS, BotSpec, Forfeit, StudentBot, bot_spec
from .results import Results, Standing, load_results, wilson
from .runner import run_tournament
from .view import BotView, Move, Path, RouteInfo, TicketInfo, payload, view_of

__all__ = ["BotSpec", "BotView", "FORFEIT_KINDS", "Forfeit", "Move", "Path", "Results", "RouteInfo", "Standing",
           "StudentBot", "TicketInfo", "bot_spec", "load_results", "payload", "run_tournament", "view_of", "wilson"]
