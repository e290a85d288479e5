#!/usr/bin/env bash
# Run the whole browser suite N times in a row (default 5) while a CPU hog keeps the cores busy; print the
# failure count. The hog is LOOPS busy loops (default: one per core, nproc), started here and stopped by their PIDs
# at the end.
#
#   bash benchmarks/browser_under_load.sh [--loops L] [--nice P] [N] [extra pytest args...]
#
# --nice P runs the busy loops at niceness P (a machine shared with others: they still make the load, but yield
# the CPU to everyone else first). E.g. three runs of the notebooks' browser test under six niced busy loops:
#   bash benchmarks/browser_under_load.sh --loops 6 --nice 19 3 tests/browser/test_browser_notebooks.py
# (an option with a value as one word, e.g. -kusa). Uses the project's venv python (PYTHON=... to override); run
# it from the repository root or anywhere.
set -u
LOOPS="$(nproc)"
NICENESS=0
while [ $# -gt 0 ]; do
  case "$1" in
    --loops) LOOPS="${2:?--loops needs a number}"; shift 2 ;;
    --nice) NICENESS="${2:?--nice needs a niceness}"; shift 2 ;;
    *) break ;;
  esac
done
N="${1:-5}"
shift || true
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$HERE/.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON="$(command -v python3)"
CORES="$(nproc)"
LOGDIR="$HERE/tests/browser/artifacts/under-load"
mkdir -p "$LOGDIR"

hogs=()
stop_hogs() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${hogs[@]}"; do wait "$pid" 2>/dev/null; done
}
trap stop_hogs EXIT INT TERM
for _ in $(seq "$LOOPS"); do
  nice -n "$NICENESS" bash -c 'while :; do :; done' &
  hogs+=("$!")
done
echo "CPU hog: ${#hogs[@]} busy loops at niceness $NICENESS on $CORES cores (PIDs ${hogs[*]})"

failures=0
for i in $(seq "$N"); do
  start=$(date +%s)
  # the suite, or the test files named among the extra arguments (options alone filter the whole suite)
  set_args=(tests/browser "$@")
  for a in "$@"; do case "$a" in -*) ;; *) set_args=("$@"); break ;; esac; done
  ( cd "$HERE" && TTR_NB_REQUIRE_BROWSER=1 "$PYTHON" -m pytest -q -p no:cacheprovider -m browser "${set_args[@]}" ) \
    >"$LOGDIR/run-$i.log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  summary="$(grep -E '^[0-9]+ (passed|failed)|passed|failed|error' "$LOGDIR/run-$i.log" | tail -1)"
  if [ "$rc" -ne 0 ]; then
    failures=$((failures + 1))
    echo "run $i/$N: FAILED (exit $rc, ${took} s): $summary  (log: $LOGDIR/run-$i.log)"
  else
    echo "run $i/$N: passed (${took} s): $summary"
  fi
done
echo "browser suite under load: $failures of $N runs failed"
[ "$failures" -eq 0 ]
