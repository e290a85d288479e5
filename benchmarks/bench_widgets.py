"""Speed of one widget step, kernel side (printed, never asserted). Run: python benchmarks/bench_widgets.py [--reps N] [--quick]

One step = a route click (the route is selected, its legal payments become buttons, the board shows the selection)
→ a payment chosen → the claim applied through the engine (``game.push``) → the views refreshed in place (the
board ``FigureWidget`` through ``update_board``, hand/market/labels). Target: < 30 ms of CPU time. CPU time
(``time.process_time``) is the fair figure on a shared machine; wall time is printed too, and grows with the load.

Then each figure update alone (update_board, update_hand, update_market, update_score), median of ``--reps`` calls.
Measured 2026-11 (2 cores, load ~3.5), CPU medians: whole step 55 ms -> 5.9 ms; update_board 22 -> 3.3 ms,
update_hand 14 -> 0.4, update_market 15 -> 0.4, update_score 24 -> 0.8 (the update functions now compute plain dicts
and send only the properties that changed, in one plotly_update, instead of validated go objects for everything).

Each repetition claims one of two routes in turn, then undoes it (not timed), so every claim is a real engine step
(pushing the action the redo line already holds would only move the cursor).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def rich_position(players: int = 2, seed: int = 0, cards: int = 40):
    """A valid position in play, Blue to move, Blue holding ``cards`` more train cards (taken from the deck)."""
    from ttr_nb.board.engine import validate
    from ttr_nb.game import Game
    g = Game("usa", players=players, seed=seed)
    for seat in range(players):
        offered = g.state.pending_for(seat).get("offered")
        g.push(f"{seat}: keep {' '.join(offered[:2])}")
    s = g.state
    deck = list(s.deck)
    taken, deck = deck[:cards], deck[cards:]
    hand = list(s.players[0].hand)
    for c in taken:
        hand[c] += 1
    players_ = list(s.players)
    players_[0] = replace(players_[0], hand=tuple(hand))
    s = replace(s, deck=tuple(deck), players=tuple(players_))
    assert validate(s) == [], validate(s)
    return s


def claimable(state, seat: int = 0, n: int = 2) -> list[str]:
    from ttr_nb.board.actions import Claim
    from ttr_nb.board.engine import legal_actions
    from ttr_nb.variants import get_variant
    m = get_variant(state.variant).map
    ids = []
    for a in legal_actions(state, seat):
        if isinstance(a, Claim) and m.route(a.route).id not in ids:     # actions name cities; the board uses ids
            ids.append(m.route(a.route).id)
    return ids[:n]


def measure_step(reps: int = 50, *, with_bot: bool = False) -> dict:
    """Time ``reps`` widget steps (click → payment → applied → figure updated). Returns the timings in ms."""
    from ttr_nb.bots import make_bot
    from ttr_nb.game import Game
    from ttr_nb.render import PLAYER_HEX
    from ttr_nb.widgets import PlayView

    start = rich_position()
    game = Game(start=start)
    bots = {1: make_bot("greedy", seed=1)} if with_bot else {}
    view = PlayView(game, human_seats=(0, 1) if not with_bot else (0,), bots=bots, hand_over=False)
    routes = claimable(start)
    assert len(routes) == 2, routes
    fig = view.board.fig
    n_traces = len(fig.data)
    click_ms, pay_ms, total_ms, cpu_ms = [], [], [], []
    # one untimed warm-up step
    for rep in range(reps + 1):
        rid = routes[rep % 2]
        updates = view.board.updates
        c0 = time.process_time()
        t0 = time.perf_counter()
        legal = view.click_route(rid)
        t1 = time.perf_counter()
        ply = view.choose_payment(0)
        t2 = time.perf_counter()
        c2 = time.process_time()
        assert legal and ply is not None, view.message.text
        assert game.state.claims[game.variant.map.route(rid).index] == 0
        assert view.board.updates >= updates + 1 and view.board.fig is fig and len(fig.data) == n_traces
        assert view.board.route_marker(rid)["color"] == PLAYER_HEX["blue"]
        if rep:
            click_ms.append((t1 - t0) * 1000)
            pay_ms.append((t2 - t1) * 1000)
            total_ms.append((t2 - t0) * 1000)
            cpu_ms.append((c2 - c0) * 1000)
        view.undo()
    return {"reps": reps, "click": click_ms, "payment": pay_ms, "total": total_ms, "cpu": cpu_ms}


def _summary(ms: list[float]) -> str:
    q = statistics.quantiles(ms, n=10)
    return f"median {statistics.median(ms):6.2f} ms · mean {statistics.fmean(ms):6.2f} · p90 {q[-1]:6.2f} · min {min(ms):6.2f}"


def report(result: dict, label: str = "widget step") -> str:
    lines = [f"{label} over {result['reps']} repetitions (kernel side):",
             f"  route click (select + payment buttons + marker)  : {_summary(result['click'])}",
             f"  payment → push → refresh (board, hand, market):   {_summary(result['payment'])}",
             f"  whole step:                                       {_summary(result['total'])}   (target < 30 ms)",
             f"  whole step, CPU time of this process:             {_summary(result['cpu'])}",
             f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores: wall time grows when other "
             "processes compete for the CPU)"]
    return "\n".join(lines)


def _timed(fn, reps: int) -> tuple[list[float], list[float]]:
    """(CPU ms, wall ms) of ``reps`` calls ``fn(i)``."""
    cpu, wall = [], []
    for i in range(reps):
        c = time.process_time()
        t = time.perf_counter()
        fn(i)
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return cpu, wall


def parts(reps: int = 50) -> str:
    """Where the time goes: the engine push alone, and each figure update alone on a ``FigureWidget``, every
    call alternating between two positions (before / after a claim), so each one really changes the figure."""
    import plotly.graph_objects as go

    from ttr_nb.board.engine import legal_actions
    from ttr_nb.game import Game
    from ttr_nb.render import board_figure, panels, update_board
    from ttr_nb.board.scoring import score
    from ttr_nb.widgets._common import closed_routes
    start = rich_position()
    game = Game(start=start)
    rids = claimable(start)
    route_id = game.variant.map.route                      # a claim names its route by its cities
    acts = [next(a for a in legal_actions(start, 0) if getattr(a, "route", None) and route_id(a.route).id == rid)
            for rid in rids]

    def push(i):
        game.push(acts[i % 2])          # alternating: never the action the redo line holds, so a real step
        game.undo()
    rows = [("game.push (a claim) + undo", _timed(push, reps))]
    m = game.variant.map
    board = go.FigureWidget(board_figure(m, player_colours=("blue", "red")))
    closed = closed_routes(start)
    rows.append(("update_board", _timed(lambda i: update_board(board, m, owners={rids[i % 2]: 0}, closed=closed,
                                                                player_colours=("blue", "red")), reps)))
    game.push(acts[0])
    states = [start, game.state]
    sheets = [score(s) for s in states]
    hand = go.FigureWidget(panels.hand_figure(start, 0))
    market = go.FigureWidget(panels.market_figure(start))
    sheet_fig = go.FigureWidget(panels.score_figure(sheets[0]))
    rows.append(("update_hand", _timed(lambda i: panels.update_hand(hand, states[(i + 1) % 2], 0), reps)))
    rows.append(("update_market", _timed(lambda i: panels.update_market(market, states[(i + 1) % 2]), reps)))
    rows.append(("update_score (sheet given)", _timed(lambda i: panels.update_score(sheet_fig, sheets[(i + 1) % 2]),
                                                      reps)))
    rows.append(("scoring.score (the sheet)", _timed(lambda i: score(states[i % 2]), reps)))
    out = [f"  parts, {reps} calls each, on FigureWidgets (CPU time; wall time in brackets):"]
    for label, (cpu, wall) in rows:
        out.append(f"    {label:28s} {_summary(cpu)}   (wall median {statistics.median(wall):6.2f} ms)")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--quick", action="store_true", help="a few seconds: 5 repetitions")
    args = ap.parse_args(argv)
    if args.quick:
        args.reps = 5
    t = time.process_time()
    import ttr_nb.widgets  # noqa: F401
    print(f"import ttr_nb.widgets: {(time.process_time() - t) * 1000:.0f} ms CPU")
    print(report(measure_step(args.reps)))
    print(parts(args.reps))
    print(report(measure_step(3 if args.quick else max(10, args.reps // 5), with_bot=True), "step with a greedy bot's reply"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
