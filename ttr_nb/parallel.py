"""Games on every core: the one way ttr_nb runs work in parallel (``ttr-nb simulate``, tournaments, benchmarks).

``run_tasks(function, tasks, workers, finished)`` calls ``function(task)`` for every task in ``workers`` local
processes and hands each result to ``finished`` as it arrives (in the order they finish). A task and its result
are JSON-ready dicts, and ``function`` is a module-level function that is a pure function of its task (the seeds
are in the task, never taken from the worker), so where a task runs never changes its result.

The workers are plain subprocesses (``python -m ttr_nb.parallel MODULE FUNCTION [FILE]``), fed one JSON line per
task; not ``multiprocessing``: nothing of the caller's script or notebook is imported again, and a function in a
script run as ``__main__`` (a benchmark) is loaded from its file under another name, so its ``if __name__ ==
"__main__"`` part does not run twice.

JupyterLite (Pyodide) has no processes: ``in_browser()`` says so, and callers run their tasks in their own process.
The rules core never imports this module.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Iterable

from .errors import TTRError

__all__ = ["run_tasks", "in_browser", "cpu_cores", "IN_BROWSER_NOTE"]

AHEAD = 2                 # tasks a worker holds: while it plays one, the next waits in its input

IN_BROWSER_NOTE = ("JupyterLite runs Python inside this browser tab, which cannot start other processes, "
                   "so the games run here one after another")


def in_browser() -> bool:
    """True in JupyterLite (Pyodide, ``sys.platform == "emscripten"``): no processes there."""
    return sys.platform == "emscripten"


def cpu_cores() -> int:
    """The cores this process may use (its CPU affinity where the system tells it, else every core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _where(function: Callable) -> list[str]:
    """How a worker finds ``function``: its module and name, plus the file when it lives in a script run as
    ``__main__`` (``python benchmarks/bench_coach.py``)."""
    module, name = getattr(function, "__module__", None), getattr(function, "__qualname__", "")
    if not module or not name or "." in name or "<" in name:
        raise TTRError(f"{function!r}: workers can only call a function defined at the top of a module")
    if module == "__main__":
        main = sys.modules["__main__"]
        spec = getattr(main, "__spec__", None)
        if spec is not None and spec.name:         # run as python -m package.module: importable by name
            return [spec.name, name]
        path = getattr(main, "__file__", None)
        if not path:
            raise TTRError(f"{name}: defined in an interactive session or notebook; workers need it in a file")
        return ["__main__", name, os.path.abspath(path)]
    return [module, name]


def _load(args: list[str]) -> Callable[[dict], dict]:
    import importlib
    if len(args) == 3:                                # a script's function: loaded from its file, not as __main__
        import importlib.util
        spec = importlib.util.spec_from_file_location("_ttr_nb_worker_script", args[2])
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(args[0])
    return getattr(module, args[1])


def run_tasks(function: Callable[[dict], dict], tasks: Iterable[dict], workers: int,
              finished: Callable[[dict], None], *, what: str = "a worker", here: bool = False,
              warmup: dict | None = None) -> None:
    """Run ``function(task)`` for every task on ``workers`` processes, a task at a time each, and call
    ``finished(result)`` in this thread as results arrive.

    ``here=True``: this process is one of the ``workers`` and plays tasks too (its results pass through JSON like
    the others'), starting at once while the other processes start up (about half a second each: Python, ttr_nb,
    the maps); a process that is not ready when the last task is done is stopped unused, so a short run costs
    no more than in this process alone. A worker takes tasks only once it is ready (``function(warmup)`` done, its
    result dropped: e.g. the map loaded), and holds at most ``AHEAD`` of them: the one it plays and the next, so it
    never waits for this process to hand it one.

    A task that raises stops the run with a ``TTRError`` naming ``what`` and the worker's traceback (here: the
    exception itself); the other workers finish their task and exit. Interrupted (Ctrl-C, or ``finished``
    raising), every worker is stopped before this returns."""
    import queue
    import subprocess
    import threading
    where = _where(function)
    todo: queue.Queue = queue.Queue()
    count = 0
    for t in tasks:
        todo.put(t)
        count += 1
    if not count:
        return
    done: queue.Queue = queue.Queue()
    wanted = max(0 if here else 1, min(workers - here, count))
    procs: list[subprocess.Popen] = []
    ready = [False] * wanted

    def serve(i: int, proc: subprocess.Popen) -> None:
        try:
            proc.stdin.write(json.dumps(warmup) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()             # the worker's first line: it is ready
        except Exception:                # noqa: BLE001 (it ended at once, its reason on stderr; or the run is over)
            line = ""
        if not line:
            done.put(json.dumps({"error": f"the worker process did not start (exit code {proc.wait()})"}))
            return
        ready[i] = True
        sent = 0                              # tasks written to the worker and not answered yet
        while True:
            while sent < AHEAD:
                try:
                    task = todo.get_nowait()
                except queue.Empty:
                    break
                try:
                    proc.stdin.write(json.dumps(task) + "\n")
                    proc.stdin.flush()
                except Exception as e:      # noqa: BLE001 (any failure here ends the run with its reason)
                    done.put(json.dumps({"error": f"task {task.get('index', '?')}: {type(e).__name__}: {e}"}))
                    return
                sent += 1
            if not sent:
                return
            try:
                line = proc.stdout.readline()
            except Exception as e:          # noqa: BLE001
                line = json.dumps({"error": f"{type(e).__name__}: {e}"})
            done.put(line or json.dumps({"error": f"the worker process ended (exit code {proc.poll()})"}))
            if not line:
                return
            sent -= 1

    try:
        for i in range(wanted):
            procs.append(subprocess.Popen([sys.executable, "-m", "ttr_nb.parallel", *where], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, text=True, encoding="utf-8"))
            threading.Thread(target=serve, args=(i, procs[-1]), daemon=True).start()
        for _ in range(count):
            line = None
            while here and line is None:
                try:
                    line = done.get_nowait()
                except queue.Empty:
                    try:
                        task = todo.get_nowait()
                    except queue.Empty:
                        break                             # every task handed out: wait for the workers
                    line = json.dumps(function(task))
            msg = json.loads(line if line is not None else done.get())
            if "error" in msg:
                raise TTRError(f"{what} failed: {msg['error']}")
            finished(msg)
    finally:
        for p, started in zip(procs, ready):
            if started:                      # end of input: a worker finishes its task (if any) and exits
                try:
                    p.stdin.close()
                except OSError:
                    pass
            else:                            # still starting up: nothing of the run is in it
                p.kill()
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:  # interrupted in the middle of a task: stop it
                p.kill()
                p.wait()
            for pipe in (p.stdin, p.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass


def main(args: list[str] | None = None) -> int:
    """A worker: runs the warm-up task (the first line; ``null``: none), says it is ready (one line), then reads one
    task per line (JSON) and writes ``function(task)`` as one line (or ``{"error": ...}``)."""
    import signal
    import traceback
    # Ctrl-C in a terminal reaches the whole process group: the caller stops the run (it closes this worker's input
    # or ends it), so a worker prints no traceback of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    function = _load(list(sys.argv[1:] if args is None else args))
    warmup = json.loads(sys.stdin.readline() or "null")
    if warmup is not None:
        function(warmup)
    sys.stdout.write(json.dumps({"ready": True}) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        try:
            result = function(json.loads(line))
        except Exception:                   # noqa: BLE001 (reported to run_tasks, which stops the run)
            result = {"error": traceback.format_exc(limit=8)}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
