"""The JupyterLite site's figures (printed, never asserted). Run: python benchmarks/bench_lite.py [--no-browser]

1. ``ttr-nb lite build`` into a temp folder, timed, with the Lite cache as it is (run twice to see a warm
   build: the build venv, the Pyodide runtime and the wheels are cached; a cold build also downloads them).
2. The site's size: MB on disk, files, and as a ``.tar.gz`` (what a teacher uploads), and its biggest parts.
3. Unless ``--no-browser``: tests/browser/test_lite.py in Chromium (it serves the cached site with
   ``python -m http.server``), then its timings per notebook: page opened -> kernel ready, "Run All" ->
   first board drawn, "Run All" -> all cells done; and the coach's hint and review, click -> answer on the page.

Measured 2026-11-23 on this project's machine (2 cores shared by 8 sessions, load average 4-12, so every figure
is inflated; Chromium headless, site served by ``python -m http.server``):

* build: cold cache about 105 s (build venv 25 s, wheels and npm download about 20 s, the rest as warm);
  warm cache 38 s (ttr-nb wheel 13 s, ``jupyter lite build`` 17 s, static copies 8 s).
* site: 70.7 MB in 562 files, 38.5 MB as tar.gz: static/ 36.2 (Pyodide runtime 13, 37 wheels 22.7 of which
  plotly 9.7 and jedi 4.9), JupyterLab build/ 17.9, read/ 8.5 (4.7 of it plotly.min.js), extensions/ 6.4.
* kernel ready after the page opens: 32-49 s in the last full run (30-76 s across runs, following the load).
* first board after "Run All" on a ready kernel, last full run (all 10 tests green): 01_usa 7.2 s, 02_europe
  6.8 s, classroom 5.2 s, map_explorer 5.1 s (4.0-8.2 s across the runs after the warm-up). Before the kernel's
  start-up warm-up (ttr_nb/lite/warmup.py) 01_usa took 7.9-9.4 s and 02_europe, classroom and map_explorer
  19-21 s; before it, plotly's first fig.show() also pushed its whole plotly.js into the page.
* all cells: 00_start_here 1.0 s, 01_usa 20.7 s, 02_europe 19.0 s, classroom 15.9 s, map_explorer 10.8 s.
"""
from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def tree_size(path: Path) -> tuple[int, int]:
    files = [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def targz_size(path: Path) -> int:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(path, arcname=path.name)
    return buf.tell()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-browser", action="store_true", help="only build and measure the folder")
    args = parser.parse_args()
    from ttr_nb.lite import build

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        started = time.perf_counter()
        report = build(site, log=lambda line: print(f"  [lite] {line}", flush=True))
        print(f"build: {time.perf_counter() - started:.1f} s wall ({', '.join(f'{k} {v:.1f} s' for k, v in report.timings.items())})")
        size, files = tree_size(site)
        print(f"site: {size / 1e6:.1f} MB in {files} files; as tar.gz {targz_size(site) / 1e6:.1f} MB")
        parts = {p.name: tree_size(p)[0] for p in site.iterdir() if p.is_dir()}
        wheels = sum(p.stat().st_size for p in (site / "static" / "pyodide").glob("*.whl"))
        print("  parts: " + ", ".join(f"{k} {v / 1e6:.1f}" for k, v in sorted(parts.items(), key=lambda kv: -kv[1]))
              + f" MB; of static/, the wheels {wheels / 1e6:.1f} MB ({len(report.packages)} packages)")
    if args.no_browser:
        return 0
    timings = ROOT / "tests" / "browser" / "artifacts" / "lite-timings.json"
    timings.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "tests/browser/test_lite.py", "-k", "runs_offline or coach"], cwd=ROOT)
    if not timings.is_file():
        print("no timings recorded (see the pytest output above)")
        return done.returncode or 1
    print("notebook               kernel ready   first board   all cells   (s after page open / after Run All)")
    recorded = json.loads(timings.read_text())
    coach = recorded.pop("coach", None)
    for name, t in recorded.items():
        first = "-" if t["first_board_s"] is None else f"{t['first_board_s']:.1f}"
        print(f"  {name:22} {t['kernel_ready_s']:10.1f} {first:>13} {t['run_all_s']:11.1f}")
    if coach:
        print("the coach, click -> answer on the page (s): " + ", ".join(f"{k[:-2]} {v:.1f}" for k, v in coach.items()))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
