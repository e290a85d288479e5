"""Run a tournament: in this process, on local worker processes (all cores by default) or on a Dask cluster.

Every game is ``referee.play_game(task)``, a pure function of its task; the three ways of running differ only in
where that function runs, so they give the same records and the same table. Finished games stream into the
results file as they arrive (``results.ResultsFile``); a tournament started again with the same file plays only
the games it lacks.
"""
from __future__ import annotations

import os
import time
from typing import Any, Callable, Sequence

from ..errors import TTRError
from ..parallel import cpu_cores, in_browser, run_tasks
from .contract import BotSpec, bot_spec
from .referee import play_game
from .results import FORMAT, Results, ResultsFile
from .sandbox import MEMORY_MB
from .schedule import schedule

__all__ = ["run_tournament", "Progress", "in_browser", "default_workers"]

Progress = Callable[[int, int, dict | None], None]       # (finished, total, the record just finished or None)


def default_workers() -> int:
    """Local referee processes by default: one per core; 0 (this process) in JupyterLite."""
    return 0 if in_browser() else cpu_cores()


def _named(specs: list[BotSpec]) -> list[BotSpec]:
    """Bots with the same name get ' (2)', ' (3)' ... so every line of the table is one bot."""
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s.name] = seen.get(s.name, 0) + 1
        if seen[s.name] > 1 or sum(x.name == s.name for x in specs) > 1:
            s = BotSpec(name=f"{s.name} ({seen[s.name]})", kind=s.kind, house=s.house, source=s.source,
                        filename=s.filename, pickled=s.pickled, function=s.function)
        out.append(s)
    return out


def run_tournament(bots: Sequence[Any], variant: str = "usa", *, games: int = 4, players: int = 2, seed: int = 0,
                   workers: int | None = None, move_seconds: float = 1.0, memory_mb: int = MEMORY_MB,
                   scheduler: str | Any | None = None, out: str | os.PathLike | None = None,
                   tables: int | None = None, progress: Progress | None = None) -> Results:
    """Play every table of ``bots`` in every seat over ``games`` seeded deals and return the ``Results``.

    ``bots``: bot files (``NAME.py``), house bot names (any ``make_bot`` name), functions ``choose(view)``.
    ``workers``: local processes (default: all cores; 0 = this process, one game at a time, which is how
    JupyterLite runs); ``scheduler``: a Dask scheduler address (``tcp://...``) or a ``dask.distributed.Client``.
    ``out``: a JSON-lines file the games stream into (resumed when it holds this tournament).
    """
    from ..variants import get_game
    game = get_game(variant)
    settings = getattr(game, "settings", None)
    lo, hi = getattr(settings, "min_players", 2), getattr(settings, "max_players", 5)
    if not isinstance(players, int) or not lo <= players <= hi:
        raise TTRError(f"--players {players}: {game.name} is for {lo}–{hi} players")
    if not move_seconds > 0:
        raise TTRError(f"--move-seconds {move_seconds}: give a time above 0")
    if memory_mb < 64:
        raise TTRError(f"--memory-mb {memory_mb}: Python itself needs more than 64 MB")
    specs = _named([bot_spec(b) for b in bots])
    if workers is None:
        workers = default_workers()
    if workers < 0:
        raise TTRError(f"--workers {workers}: give 0 (this process) or more")
    in_process = workers == 0 and scheduler is None
    if in_browser() and not in_process:
        raise TTRError("JupyterLite has no processes: tournaments run here, one game at a time (workers=0)")
    plan = schedule(len(specs), players, games, seed, tables)
    header = {"format": FORMAT, "variant": game.key, "players": players, "deals": games, "games": len(plan),
              "seed": seed, "tables": tables, "move_seconds": move_seconds, "memory_mb": memory_mb,
              "bots": [{"name": s.name, "kind": s.kind, "digest": s.digest} for s in specs]}
    store = ResultsFile(out, header) if out is not None else None
    done = {r["index"]: r for r in (store.records if store else [])}
    wires: list[Any] = [s if in_process else s.to_wire() for s in specs]
    tasks = [dict(t, variant=game.key, seat_bots=[wires[b] for b in t["seats"]], move_seconds=move_seconds,
                  memory_mb=memory_mb, in_process=in_process) for t in plan if t["index"] not in done]
    records = list(done.values())
    total = len(plan)
    if progress:
        progress(len(records), total, None)

    def finished(record: dict) -> None:
        if store is not None:
            store.add(record)
        records.append(record)
        if progress:
            progress(len(records), total, record)

    if tasks:
        if scheduler is not None:
            _on_dask(scheduler, tasks, finished)
        elif in_process:
            for t in tasks:
                finished(play_game(t))
        else:
            run_tasks(play_game, tasks, workers, finished, what="a tournament worker")
    return Results(header, records, note=store.note if store else "", resumed=len(done),
                   workers=0 if in_process or scheduler is not None else min(workers, max(len(tasks), 1)))


def _on_dask(scheduler: Any, tasks: list[dict], finished: Callable[[dict], None]) -> None:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise TTRError("--scheduler needs Dask: pip install 'ttr-nb[cluster]'") from None
    own = not isinstance(scheduler, Client)
    if own:
        try:
            client = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as e:
            raise TTRError(f"--scheduler {scheduler}: cannot reach a Dask scheduler there ({e})") from None
    else:
        client = scheduler
    try:
        futures = client.map(play_game, tasks, pure=False)
        try:
            for f in as_completed(futures):
                finished(f.result())
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        if own:
            client.close()


class TextProgress:
    """A progress bar on a terminal (stderr): one line redrawn in place, or a line per tenth when not a terminal."""

    def __init__(self, stream, width: int = 30):
        self.stream = stream
        self.width = width
        self.started = time.perf_counter()
        self.first: int | None = None

    def __call__(self, done: int, total: int, record: dict | None) -> None:
        if self.first is None:
            self.first = done
        tty = getattr(self.stream, "isatty", lambda: False)()
        if not (tty or done == total or done == self.first or done % max(1, total // 10) == 0):
            return
        filled = self.width * done // max(total, 1)
        played = done - self.first
        rate = played / max(time.perf_counter() - self.started, 1e-9)
        line = (f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} games"
                + (f"  {rate:.1f} games/s" if played else ""))
        if record is not None and record["forfeits"]:
            line += f"  (game {record['index']}: a forfeit)"
        self.stream.write(("\r" + line.ljust(self.width + 50)) if tty else line + "\n")
        if tty and done == total:
            self.stream.write("\n")
        self.stream.flush()
