#!/usr/bin/env bash
# Run the whole browser suite N times in a row (default 5) while a CPU hog keeps both cores busy; print the
# failure count. The hog is one busy loop per core (nproc), started here and stopped by its PIDs at the end.
#
#   bash benchmarks/browser_under_load.sh [N] [extra pytest args...]
#
# Uses the project's venv python (PYTHON=... to override); run it from the repository root or anywhere.
set -u
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
for _ in $(seq "$CORES"); do
  ( while :; do :; done ) &
  hogs+=("$!")
done
echo "CPU hog: ${#hogs[@]} busy loops on $CORES cores (PIDs ${hogs[*]})"

failures=0
for i in $(seq "$N"); do
  start=$(date +%s)
  ( cd "$HERE" && TTR_NB_REQUIRE_BROWSER=1 "$PYTHON" -m pytest -q -p no:cacheprovider tests/browser -m browser "$@" ) \
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
