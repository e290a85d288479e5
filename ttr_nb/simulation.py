"""Many bot games and their statistics: ``simulate(...)`` (behind ``ttr-nb simulate``), on every core.

    import ttr_nb
    stats = ttr_nb.simulate("usa", games=200, players=4, bots="random")   # every core; workers=1: this process only
    print(stats)

Game ``g`` of a run is dealt from seed ``seed + g`` and its bots are seeded ``(seed + g) * 100 + seat`` (what
``ttr-nb play VARIANT --seed`` deals and plays), whatever process plays it, and the statistics are gathered in
game order: any number of workers gives the same statistics (for bots that do not read the clock; ``coach:SECONDS``
thinks for a CPU time, so its moves depend on the machine). The games run on ``ttr_nb.parallel``'s worker
processes; in JupyterLite, which has no processes, they run in the notebook's own process and the result says so.

A run longer than two seconds shows a progress bar (tqdm: on stderr, or a widget in a notebook).
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Sequence, TextIO

from .errors import TTRError
from .parallel import IN_BROWSER_NOTE, cpu_cores, in_browser, run_tasks

__all__ = ["simulate", "Simulation", "seat_bots", "play_games", "PROGRESS_AFTER"]

PROGRESS_AFTER = 2.0          # seconds: a shorter run shows no progress bar


def seat_bots(spec: str, players: int, seed: int) -> tuple[list, list[str]]:
    """The bots of one game from ``spec`` ("random", or one name per seat separated by commas, blue first), each
    seeded ``seed * 100 + seat``, and their names."""
    from .bots import make_bot
    names = [s.strip() for s in str(spec).split(",") if s.strip()] or ["greedy"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise TTRError(f"--bots names {len(names)} bots for {players} players; give one, or one per player")
    return [make_bot(name, seed * 100 + i) for i, name in enumerate(names)], names


def play_one(variant: str, players: int, bots: str, seed: int) -> dict:
    """One game to its end: the figures the statistics are made of (a JSON-ready dict)."""
    from .board.engine import apply, new_game, to_move
    from .board.scoring import score
    bot_list, _ = seat_bots(bots, players, seed)
    state = new_game(variant, players, seed)
    while state.phase != "over":
        seat = to_move(state)[0]
        action, _ = bot_list[seat].choose(state, seat)
        state = apply(state, action)
    sheet = score(state)
    return {"totals": [p.total for p in sheet.players], "turns": state.turn, "plies": state.ply,
            "tickets": [[p.completed, len(p.tickets)] for p in sheet.players if p.tickets],
            "figures": sheet.figures(), "winners": list(sheet.winners)}


def play_games(task: dict) -> dict:
    """A worker's task: games ``first`` .. ``first + count - 1`` of a run (``ttr_nb.parallel.run_tasks``). A task of
    no games only sets the game up: a worker's warm-up (the map and the bots loaded before its first task)."""
    seed = task["seed"]
    if not task["count"]:
        from .board.engine import new_game
        new_game(task["variant"], task["players"], seed)
        seat_bots(task["bots"], task["players"], seed)
    return {"first": task["first"], "games": [play_one(task["variant"], task["players"], task["bots"], seed + g)
                                              for g in range(task["first"], task["first"] + task["count"])]}


def _describe(values: Sequence[float], fmt: str = "{:.1f}") -> str:
    qs = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return (f"mean {fmt.format(statistics.fmean(values))}, min {fmt.format(min(values))}, "
            f"quartiles {', '.join(fmt.format(q) for q in qs)}, max {fmt.format(max(values))}")


@dataclass(frozen=True)
class Simulation:
    """The statistics of a run of ``simulate``: every player's final score, the game lengths, the share of tickets
    completed, the game's own figures (longest trail, ...) and the wins by seat; ``str(stats)`` is what
    ``ttr-nb simulate`` prints. ``workers`` is how many processes played at once (1: this one alone), ``note`` why
    fewer than asked for (JupyterLite), ``seconds`` the wall-clock time of the run; two runs compare equal when
    their statistics are equal, whatever their time and workers."""
    variant: str
    games: int
    players: int
    bots: str
    seed: int
    totals: tuple[int, ...]
    turns: tuple[int, ...]
    plies: tuple[int, ...]
    completion: tuple[float, ...]
    figures: dict[str, tuple[float, ...]] = field(hash=False)
    wins: tuple[int, ...]
    seconds: float = field(compare=False)
    workers: int = field(compare=False)
    note: str = field(default="", compare=False)

    def statistics_lines(self) -> list[str]:
        """The statistics alone (no time): the same for any number of workers."""
        from .board.engine import seat_name
        lines = [f"{self.games} games of {self.variant} with {self.players} players, bots {self.bots}, "
                 f"seeds {self.seed}–{self.seed + self.games - 1}",
                 f"  final score per player: {_describe(self.totals)}",
                 f"  game length in turns: {_describe(self.turns)}; in plies: {_describe(self.plies)}",
                 f"  tickets completed per player: {_describe([100 * c for c in self.completion], '{:.0f}%')}"
                 if self.completion else "  tickets completed per player: no player held a ticket"]
        lines += [f"  {label}: {_describe(values)}" for label, values in self.figures.items()]
        lines.append("  wins by seat (ties count for each): "
                     + ", ".join(f"{seat_name(i)} {w}" for i, w in enumerate(self.wins)))
        return lines

    def time_line(self) -> str:
        where = (f"on {self.workers} processes at once" if self.workers > 1 else
                 "in this browser tab, one game after another (JupyterLite cannot start other processes)"
                 if self.note else "in this process")
        return f"  time: {self.seconds:.2f} s ({self.games / max(self.seconds, 1e-9):.1f} games/s), {where}"

    def text(self) -> str:
        lines = self.statistics_lines()
        return "\n".join([lines[0], self.time_line(), *lines[1:]])

    __str__ = text

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:      # IPython and Jupyter show the text
        p.text(self.text())


def _checked_workers(workers: Any) -> int | None:
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise TTRError(f"--workers {workers!r}: give a whole number of processes, 1 or more")
    if workers < 1:
        raise TTRError(f"--workers {workers}: give 1 (this process) or more")
    return workers


class _Bar:
    """A tqdm progress bar that appears once the run has taken ``after`` seconds (tqdm is imported only then):
    on ``stream`` (the command line's stderr), or ``tqdm.auto``'s (a widget in a notebook, stderr elsewhere)."""

    def __init__(self, total: int, show: bool | TextIO, after: float):
        self.total, self.show, self.after = total, show, after
        self.started = time.perf_counter()
        self.done = 0
        self.bar = None

    def update(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.show is not False and time.perf_counter() - self.started >= self.after:
            if self.show is True:
                from tqdm.auto import tqdm
                if in_browser():                     # no threads there: tqdm would warn that its monitor cannot start
                    tqdm.monitor_interval = 0
                self.bar = tqdm(total=self.total, unit="game", desc="simulate")
            else:
                from tqdm import tqdm
                self.bar = tqdm(total=self.total, unit="game", desc="simulate", file=self.show)
            self.bar.start_t -= time.perf_counter() - self.started    # time and rate count from the run's start
            self.bar.update(self.done)
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def simulate(variant: str = "usa", games: int = 100, players: int = 4, bots: str = "random", seed: int = 0, *,
             workers: int | None = None, progress: bool | TextIO = True,
             progress_after: float = PROGRESS_AFTER) -> Simulation:
    """Play ``games`` games of ``variant`` between ``bots`` and return their statistics (``Simulation``).

    ``bots``: one bot name for every seat or one per seat separated by commas (blue first): random, greedy,
    mixed:P, coach:SECONDS, a playing style (see ``ttr_nb.bots.make_bot``). Game ``g`` is dealt from ``seed + g``.
    ``workers``: how many processes play at once, this one included (default: one per core; 1: this process only,
    one game after another);
    the statistics are the same for any number. JupyterLite has no processes: there the games run in this process
    and the result says so. ``progress``: a progress bar once the run takes ``progress_after`` seconds (True:
    ``tqdm.auto``, a widget in a notebook; a text stream: a text bar on it; False: none).
    """
    if isinstance(games, bool) or not isinstance(games, int):
        raise TTRError(f"--games {games!r}: give a whole number of games, 1 or more")
    if games < 1:
        raise TTRError("--games must be at least 1")
    asked = _checked_workers(workers)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TTRError(f"--seed {seed!r}: give a whole number")
    from .board.engine import new_game
    from .variants import get_game
    key = get_game(variant).key
    new_game(key, players, seed)              # the game and the player count, checked before any work
    seat_bots(bots, players, seed)            # the bots' names too
    note = ""
    if in_browser():
        if asked is None or asked > 1:
            note = IN_BROWSER_NOTE
            print(f"{note}.", flush=True)
        n = 1
    else:
        n = min(asked or cpu_cores(), games)
    records: list[dict | None] = [None] * games
    bar = _Bar(games, progress, progress_after)
    started = time.perf_counter()
    try:
        if n == 1:
            for g in range(games):
                records[g] = play_one(key, players, bots, seed + g)
                bar.update(1)
        else:
            size = max(1, min(50, games // (n * 20)))          # about 20 tasks per worker: balanced, yet few lines

            def finished(result: dict) -> None:
                first = result["first"]
                records[first:first + len(result["games"])] = result["games"]
                bar.update(len(result["games"]))

            tasks = [{"variant": key, "players": players, "bots": bots, "seed": seed, "first": first,
                      "count": min(size, games - first)} for first in range(0, games, size)]
            run_tasks(play_games, tasks, n, finished, what="a simulation worker", here=True,
                      warmup=dict(tasks[0], count=0))
    finally:
        bar.close()
    seconds = time.perf_counter() - started
    totals, turns, plies, completion, figures, wins = [], [], [], [], {}, [0] * players
    for r in records:                               # in game order: the same statistics from any worker count
        totals += r["totals"]
        turns.append(r["turns"])
        plies.append(r["plies"])
        completion += [done / held for done, held in r["tickets"]]
        for label, values in r["figures"].items():
            figures.setdefault(label, []).extend(values)
        for w in r["winners"]:
            wins[w] += 1
    return Simulation(key, games, players, bots, seed, tuple(totals), tuple(turns), tuple(plies), tuple(completion),
                      {k: tuple(v) for k, v in figures.items()}, tuple(wins), seconds, n, note)
