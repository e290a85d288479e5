"""Scratch notebooks with one ttr_nb view each, for the interaction tests and the browser benchmark.

Each scratch notebook builds a view through the public API and adds a CSS class of ours (``t-play`` ...) to the
view's top widget, so selectors do not depend on the views' inner layout. Everything the tests expect is read from
the kernel (``kernel_eval``) — the live game behind the view — never hard-coded.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from labhelpers import WAIT_S, kernel_eval, kernel_json, open_and_run_all, wait_until

PLAY_SEED = 5      # USA, 3 players: a locomotive is face up at the start (checked against the kernel in the test)


def write_notebook(path: Path, cells: list[str]) -> Path:
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                   "source": src} for i, src in enumerate(cells)],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb, indent=1))
    return path


def open_scratch_view(page, server, nb: str, cells: list[str], selector: str):
    """Write the scratch notebook ``nb``, open it, run it, and return the locator of its one view ``selector``
    (waits until the view is in the page)."""
    from playwright.sync_api import expect

    write_notebook(server.root_dir / nb, cells)
    open_and_run_all(page, server.url, nb)
    view = page.locator(selector)
    expect(view).to_have_count(1, timeout=WAIT_S * 1000)
    return view


PLAY_CELLS = [
    "from ttr_nb.widgets import play\n"
    f"view = play('usa', players=3, seed={PLAY_SEED})\n"
    "view.widget.add_class('t-play')\n"
    "view",
]

# every game's play view mid-game (the coach's hint) and a history view of a finished game of each (its review):
# USA and the Card Game first (classes t-coach, t-coach-cards, t-coach-history), then the other three board games
# (t-coach-GAME, t-coach-history-GAME for each of COACH_MORE)
COACH_MORE = ("europe", "maerklin", "south_korea", "cardgame")
COACH_CELLS = [
    "from ttr_nb import Game\n"
    "from ttr_nb.bots import GreedyBot\n"
    "from ttr_nb.widgets import PlayView\n"
    "game = Game('usa', players=2, seed=8)\n"
    "game.play_bots({s: GreedyBot(s) for s in range(2)}, max_plies=40)\n"
    "seat = game.to_move()[0]\n"
    "view = PlayView(game, human_seats=(seat,))\n"
    "view.widget.add_class('t-coach')\n"
    "view",
    "cards = Game('cardgame', players=2, seed=8)\n"
    "cards.play_bots({s: GreedyBot(s) for s in range(2)}, max_plies=40)\n"
    "card_seat = cards.to_move()[0]\n"
    "card_view = PlayView(cards, human_seats=(card_seat,))\n"
    "card_view.widget.add_class('t-coach-cards')\n"
    "card_view",
    "from ttr_nb import make_bot\n"
    "from ttr_nb.widgets import HistoryView\n"
    "over = Game('usa', players=2, seed=5)\n"
    "over.play_bots({0: make_bot('one_step', 1), 1: GreedyBot(2)})\n"
    "hist = HistoryView(over, seat=0, ply=0)\n"
    "hist.widget.add_class('t-coach-history')\n"
    "hist",
    *(f"more_{name} = Game({name!r}, players=2, seed=8)\n"
      f"more_{name}.play_bots({{s: GreedyBot(s) for s in range(2)}}, max_plies=40)\n"
      f"view_{name} = PlayView(more_{name}, human_seats=(more_{name}.to_move()[0],))\n"
      f"view_{name}.widget.add_class('t-coach-{name}')\n"
      f"view_{name}" for name in COACH_MORE if name != "cardgame"),
    *(f"over_{name} = Game({name!r}, players=2, seed=5)\n"
      f"over_{name}.play_bots({{0: make_bot({'mixed:0.5' if name == 'cardgame' else 'one_step'!r}, 1), "
      f"1: GreedyBot(2)}})\n"
      f"hist_{name} = HistoryView(over_{name}, seat=0, ply=0)\n"
      f"hist_{name}.widget.add_class('t-coach-history-{name}')\n"
      f"hist_{name}" for name in COACH_MORE),
]

HISTORY_CELLS = [
    "from ttr_nb import Game\n"
    "from ttr_nb.bots import GreedyBot\n"
    "from ttr_nb.widgets import HistoryView\n"
    "game = Game('usa', players=3, seed=3)\n"
    "game.play_bots({s: GreedyBot(seed=s) for s in range(3)}, max_plies=60)\n"
    "hist = HistoryView(game, ply=10)\n"
    "hist.widget.add_class('t-history')\n"
    "hist",
]

EDITOR_CELLS = [
    "from ttr_nb.board.positions import position\n"
    "from ttr_nb.widgets import EditorView\n"
    "editor = EditorView(position('usa', players=2, seed=4))\n"
    "editor.widget.add_class('t-editor')\n"
    "editor",
]

# Kernel code the tests use to read the game behind a PlayView (``v``): its legal payments without touching it.
PAYMENT_CHOICES = r'''
def __ttr_payment_choices(v, seat):
    from ttr_nb.board.engine import claimable_routes, explain, route_payments
    from ttr_nb.board.actions import Claim, payment_words
    out = []
    s = v.game.state
    for r in claimable_routes(v.variant, s, seat, affordable_only=True):
        legal = [Claim(route=r.id, payment=p, seat=seat) for p in route_payments(v.variant, r, s.players[seat].hand)]
        legal = [c for c in legal if explain(s, c) is None]
        if len(legal) >= 2:
            out.append({"route": r.id, "a": r.a, "b": r.b, "payments": [payment_words(c.payment) for c in legal]})
    return out
'''


def plies(page, nb: str, var: str = "view") -> int:
    return kernel_eval(page, nb, f"len({var}.game.history)")


def wait_kernel(page, nb: str, expr: str, what: str, timeout_s: float = WAIT_S):
    """Wait until the kernel expression ``expr`` is truthy (the kernel has handled the click)."""
    return wait_until(lambda: kernel_eval(page, nb, expr), what, timeout_s, page=page)


def wait_text(locator, text: str, what: str, timeout_s: float = WAIT_S):
    """Wait until ``text`` is in the locator's rendered text (a widget label the kernel updated)."""
    return wait_until(lambda: text in locator.inner_text(), f"{what}: {text!r} shown", timeout_s)


def secrets_of_others(page, nb: str, var: str, seat: int) -> dict:
    """What ``seat`` may not see, from the kernel's full state: other seats' kept and offered tickets (as the
    city pairs a text would name) and their hands (as ``hand_text`` writes them); plus ``seat``'s own tickets
    (which its view should show: a check that we read the right text)."""
    code = r'''
def __ttr_secrets(v, seat):
    from ttr_nb.widgets._common import hand_text
    s = v.game.state
    m = v.map
    def pairs(tids):
        out = []
        for tid in tids:
            t = m.ticket(tid)
            out.append([t.a, t.b])
        return out
    from ttr_nb.board.engine import seat_name
    others = {}
    for i, p in enumerate(s.players):
        if i == seat:
            continue
        offered = []
        pend = s.pending_for(i)
        if pend is not None and pend.kind == "choose_tickets":
            offered = list(pend.get("offered"))
        others[seat_name(i)] = {"tickets": pairs(p.tickets), "offered": pairs(offered),
                          "hand": hand_text(p.hand), "hand_size": sum(p.hand)}
    return {"others": others, "own": pairs(s.players[seat].tickets)}
'''
    return kernel_json(page, nb, f"__ttr_secrets({var}, {seat})", code)


def pair_patterns(a: str, b: str) -> re.Pattern:
    """``a–b`` or ``b–a``, with an en dash, a hyphen or "to" between (whitespace-tolerant)."""
    sep = r"\s*(?:–|-|—|\bto\b)\s*"
    ea, eb = re.escape(a), re.escape(b)
    return re.compile(rf"{ea}{sep}{eb}|{eb}{sep}{ea}")
