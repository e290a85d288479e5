"""``ttr-nb simulate`` on 1 and on 2 worker processes (issue 18, item 5): the speed-up, printed, never asserted.

    python benchmarks/bench_simulate.py                      # 400 random 4-player USA games, 3 rounds
    python benchmarks/bench_simulate.py --games 1000 --workers 1,2,4
    python benchmarks/bench_simulate.py --quick              # seconds: 20 games, 1 round

Workers are there to finish sooner, so the figure compared is **wall-clock** time (``time.perf_counter``); the
**CPU time** of the whole run (this process plus every worker process, ``time.process_time`` and
``resource.getrusage(RUSAGE_CHILDREN)``) is printed beside it to show the work is the same. The worker counts run
interleaved (1, 2, 2, 1, 1, 2, ...) after a warm-up in this process, and the machine's load average is printed
before and after: on a shared machine other jobs take cores too, and "cores used" (CPU time ÷ wall-clock time)
says how much of the machine the run got (1.00 = one core all the time). Every run must print the same
statistics (checked: exit status 1 if not).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def children_cpu() -> float:
    try:
        import resource
    except ImportError:                   # Windows: the workers' CPU time is not known
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load() -> str:
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg()) + " (1/5/15 min)"
    except (AttributeError, OSError):
        return "unknown"


def autogroup() -> bool:
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run in seconds (20 games, 1 round)")
    ap.add_argument("--variant", default="usa")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", default="1,2", help="the worker counts to compare, separated by commas")
    args = ap.parse_args(argv)
    games, rounds = (20, 1) if args.quick else (args.games, args.rounds)
    counts = [int(w) for w in args.workers.split(",")]
    from ttr_nb.parallel import cpu_cores
    from ttr_nb.simulation import simulate
    print(f"python {sys.version.split()[0]}, {cpu_cores()} cores; load average before: {load()}")
    if autogroup():
        print("the kernel schedules by session (autogroup): on a busy machine every process of this session shares "
              "one session's part of the CPU, so more workers cannot take more of it")
    print(f"{games} games of {args.variant}, {args.players} players, bots {args.bots}; {rounds} round(s) of "
          f"{', '.join(map(str, counts))} worker(s), interleaved")
    simulate(args.variant, 2, args.players, args.bots, args.seed, workers=1, progress=False)      # warm-up
    walls: dict[int, list[float]] = {n: [] for n in counts}
    cpus: dict[int, list[float]] = {n: [] for n in counts}
    first = None
    same = True
    for r in range(rounds):
        for n in (counts if r % 2 == 0 else counts[::-1]):
            cpu0, kids0, wall0 = time.process_time(), children_cpu(), time.perf_counter()
            stats = simulate(args.variant, games, args.players, args.bots, args.seed, workers=n, progress=False)
            wall = time.perf_counter() - wall0
            cpu = time.process_time() - cpu0 + children_cpu() - kids0
            walls[n].append(wall)
            cpus[n].append(cpu)
            first = first or stats
            same = same and stats == first
            print(f"  round {r + 1}, {n} worker(s): {wall:6.2f} s wall clock, {cpu:6.2f} s CPU in all processes, "
                  f"{games / wall:6.1f} games/s, cores used {cpu / wall:4.2f}")
    print(f"load average after: {load()}")
    print("the same statistics in every run: " + ("yes" if same else "NO"))
    base = statistics.median(walls[counts[0]])
    for n in counts:
        wall, cpu = statistics.median(walls[n]), statistics.median(cpus[n])
        print(f"{n} worker(s): median {wall:.2f} s wall clock ({games / wall:.1f} games/s), median {cpu:.2f} s CPU, "
              f"cores used {cpu / wall:.2f}; speed-up over {counts[0]}: {base / wall:.2f}x")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
