"""The coach's strength (issue 19, item 3): win rates against other bots, printed, never asserted.

    python benchmarks/bench_coach.py --quick                 # seconds: a few short games per line, tiny budgets
    python benchmarks/bench_coach.py --lines greedy-1,greedy-0.2 --games 400 --workers 2 --out results.jsonl
    python benchmarks/bench_coach.py --report results.jsonl  # the table of what a results file holds

Time per move is **CPU seconds per decision** of the coach (``coach:SECONDS``: ``time.process_time`` of the process
that plays, so a busy machine slows the games down but does not weaken the coach; a decision is one action: a
turn of two card draws is two decisions). The opponents take what they need.

Each line plays ``--games`` games in the *duplicate* format: every deal is played once from each seat (game ``g``
deals seed ``--seed + g // players`` and gives the coach seat ``g % players``), so the luck of the deal and the
first player's edge cancel out (two greedy bots score exactly 50% this way). Every finished game is appended to
``--out`` as one JSON line, so a long run can stop and resume
(games already in the file are skipped). The report gives per line: games, coach wins (a shared victory counts as a
fraction), the win rate with its 95% Wilson interval, the coach's mean margin over the best other seat with a 95%
interval, and playouts per CPU second. Targets (2-player USA unless said):

    greedy-1   coach:1 vs greedy           >= 85%      greedy-0.2  coach:0.2 vs greedy   >= 70%
    <style>-1  coach:1 vs each style       >= 70%      self        coach:1 vs coach:0.2  >= 60%
    usa4       coach:1 + 3 greedy (4p USA) >= 50%      <game>-1    coach:1 vs its greedy >= 75% (every other game)
    time table: coach:0.05 / 0.2 / 1 / 3 vs greedy (lines greedy-0.05, greedy-0.2, greedy-1, greedy-3)
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STYLE_NAMES = ("route_focus", "destination_hungry", "long_route", "one_step")

# name -> (game, players, coach spec, opponent spec, target)
LINES: dict[str, tuple[str, int, str, str, float | None]] = {
    "greedy-0.05": ("usa", 2, "coach:0.05", "greedy", None),
    "greedy-0.2": ("usa", 2, "coach:0.2", "greedy", 0.70),
    "greedy-1": ("usa", 2, "coach:1", "greedy", 0.85),
    "greedy-3": ("usa", 2, "coach:3", "greedy", None),
    **{f"{s}-1": ("usa", 2, "coach:1", s, 0.70) for s in STYLE_NAMES},
    "self": ("usa", 2, "coach:1", "coach:0.2", 0.60),
    "usa4": ("usa", 4, "coach:1", "greedy", 0.50),
    **{f"{g}-1": (g, 2, "coach:1", "greedy", 0.75) for g in ("europe", "maerklin", "south_korea", "cardgame")},
}
QUICK = {                     # the same lines with budgets a hundred times smaller: a smoke run in seconds
    "greedy-0.2": ("usa", 2, "coach:0.01", "greedy", None),
    "route_focus-1": ("usa", 2, "coach:0.01", "route_focus", None),
    "cardgame-1": ("cardgame", 2, "coach:0.01", "greedy", None),
}


def play_one(line: str, spec: tuple, g: int, seed: int) -> dict:
    """One game of a line (run in a worker process)."""
    from ttr_nb.bots import make_bot
    from ttr_nb.coach.bot import CoachBot
    from ttr_nb.board.engine import apply, new_game, to_move
    from ttr_nb.variants import rules_of
    game, players, coach, opponent, _ = spec
    coach_seat = g % players
    s = new_game(game, players, seed + g // players)
    bots = {i: make_bot(coach if i == coach_seat else opponent, seed * 100 + g * 10 + i) for i in range(players)}
    cpu = {i: 0.0 for i in range(players)}
    decisions = {i: 0 for i in range(players)}
    playouts = 0
    search_cpu = 0.0
    while s.phase != "over":
        seat = to_move(s)[0]
        t0 = time.process_time()
        action, _ = bots[seat].choose(s, seat)
        dt = time.process_time() - t0
        cpu[seat] += dt
        decisions[seat] += 1
        bot = bots[seat]
        if seat == coach_seat and isinstance(bot, CoachBot) and bot.last is not None:
            playouts += bot.last.playouts
            search_cpu += bot.last.cpu
            bot.last = None
        s = apply(s, action)
    sheet = rules_of(s).score(s)
    totals = [p.total for p in sheet.players]
    win = 1.0 / len(sheet.winners) if coach_seat in sheet.winners else 0.0
    best_other = max(t for i, t in enumerate(totals) if i != coach_seat)
    return {"line": line, "game": g, "seed": seed + g // players, "base": seed, "variant": game, "players": players, "coach": coach,
            "opponent": opponent, "coach_seat": coach_seat, "totals": totals, "winners": list(sheet.winners),
            "win": win, "margin": totals[coach_seat] - best_other, "coach_cpu": cpu[coach_seat],
            "coach_decisions": decisions[coach_seat], "playouts": playouts, "search_cpu": search_cpu}


def play_task(task: dict) -> dict:
    """``play_one`` as a task of ``ttr_nb.parallel.run_tasks`` (``--workers``)."""
    return play_one(task["line"], tuple(task["spec"]), task["game"], task["seed"])


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def summary(rows: list[dict]) -> dict:
    n = len(rows)
    wins = sum(r["win"] for r in rows)
    margins = [r["margin"] for r in rows]
    mean = sum(margins) / n if n else 0.0
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1)) if n > 1 else 0.0
    lo, hi = wilson(wins, n)
    po = sum(r["playouts"] for r in rows)
    cpu = sum(r["search_cpu"] for r in rows)
    dec = sum(r["coach_decisions"] for r in rows)
    return {"games": n, "wins": wins, "rate": wins / n if n else 0.0, "lo": lo, "hi": hi, "margin": mean,
            "margin_ci": 1.96 * sd / math.sqrt(n) if n > 1 else 0.0, "playouts_per_s": po / cpu if cpu else 0.0,
            "cpu_per_decision": sum(r["coach_cpu"] for r in rows) / dec if dec else 0.0,
            "seats": sorted({r["coach_seat"] for r in rows})}


def report(rows: list[dict], lines: dict) -> str:
    by_line: dict[str, list[dict]] = {}
    for r in rows:
        by_line.setdefault(r["line"], []).append(r)
    out = [f"{'line':22} {'game':12} {'coach':10} {'vs':19} {'games':>5} {'wins':>6} {'win rate (95%)':>20} "
           f"{'margin (95%)':>14} {'target':>7} {'playouts/s':>10} {'cpu/dec':>8}"]
    for name in list(lines) + sorted(set(by_line) - set(lines)):
        rs = by_line.get(name)
        if not rs:
            continue
        s = summary(rs)
        r0 = rs[0]
        target = lines.get(name, (None,) * 5)[4]
        met = "" if target is None else (f">={100 * target:.0f}% " + ("met" if s["lo"] >= target else
                                                                     "open" if s["hi"] >= target else "not met"))
        out.append(f"{name:22} {r0['variant'] + ' ' + str(r0['players']) + 'p':12} {r0['coach']:10} "
                   f"{r0['opponent']:19} {s['games']:>5} {s['wins']:>6.1f} "
                   f"{100 * s['rate']:>6.1f}% [{100 * s['lo']:4.1f}, {100 * s['hi']:4.1f}] "
                   f"{s['margin']:>+7.1f} ±{s['margin_ci']:4.1f} {met:>12} {s['playouts_per_s']:>10.0f} "
                   f"{s['cpu_per_decision']:>8.3f}")
    return "\n".join(out)


def read_rows(path: Path | None) -> list[dict]:
    if path is None or not path.exists():
        return []
    rows = []
    for text in path.read_text().splitlines():
        if text.strip():
            rows.append(json.loads(text))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run in seconds (tiny budgets, 2 games a line)")
    ap.add_argument("--lines", default="", help=f"comma-separated line names (default: all): {', '.join(LINES)}")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="append each finished game here (JSON lines; resumable)")
    ap.add_argument("--report", type=Path, default=None, help="only print the table of a results file")
    args = ap.parse_args(argv)
    lines = QUICK if args.quick else LINES
    if args.report:
        print(report(read_rows(args.report), LINES))
        return 0
    names = [x for x in args.lines.split(",") if x] or list(lines)
    unknown = [x for x in names if x not in lines]
    if unknown:
        ap.error(f"unknown line(s) {', '.join(unknown)}; known: {', '.join(lines)}")
    games = 2 if args.quick and args.games == 400 else args.games
    done = {(r["line"], r["game"]) for r in read_rows(args.out) if r.get("base") == args.seed}
    # round robin over the lines (a deal from every seat at a time), so a run stopped early has covered every line
    step = max(lines[name][1] for name in names)
    jobs = [(name, lines[name], g, args.seed) for start in range(0, games, step) for name in names
            for g in range(start, min(games, start + step)) if (name, g) not in done and g < games]
    rows = [r for r in read_rows(args.out) if r["line"] in names]
    t0 = time.time()
    print(f"{len(jobs)} games to play ({len(done)} already in {args.out}), {args.workers} worker(s); "
          f"time per move = CPU seconds per decision of the coach", flush=True)

    def record(row: dict) -> None:
        rows.append(row)
        if args.out:
            with args.out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        print(f"  {row['line']:22} game {row['game']:3}: coach {'won' if row['win'] == 1 else 'shared' if row['win'] else 'lost'} "
              f"{row['totals']} (seat {row['coach_seat']})", flush=True)

    if args.workers <= 1:
        for job in jobs:
            record(play_one(*job))
    else:                         # ttr_nb's one process pool (a task and its result are JSON-ready dicts)
        from ttr_nb.parallel import run_tasks
        run_tasks(play_task, [{"line": name, "spec": list(spec), "game": g, "seed": seed} for name, spec, g, seed in jobs],
                  args.workers, record, what="a coach game")
    print(f"\n{time.time() - t0:.0f} s wall clock, {os.cpu_count()} cores on this machine\n")
    print(report(rows, lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
