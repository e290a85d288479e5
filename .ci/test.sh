#!/usr/bin/env bash
# THE test command: set up (with Chromium), then ONE pytest run over
#   tests/                  unit, scenario, packaging and real-browser tests (browser tests may not skip here)
#   notebooks/*.ipynb       executed by nbval in lax mode (asserts and NBVAL_CHECK_OUTPUT cells count)
#   README.md               the tour's doctest
# Extra arguments go to pytest (e.g. bash .ci/test.sh -k smoke -x).
# Exit status is pytest's, except that "no tests collected" (pytest's 5) is a failure too.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${TTR_NB_VENV:-.venv}"
case "$VENV" in /*) ;; *) VENV="$ROOT/$VENV" ;; esac

now() { date +%s.%N; }
t0=$(now)
bash .ci/setup.sh --browser
setup_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
echo "[test] phase setup: ${setup_s} s"

# tests/browser/test_lite.py (the JupyterLite site) is .ci/lite.sh's step: it needs npm and PyPI to build.
args=(tests --ignore=tests/browser/test_lite.py)
if [ -d notebooks ]; then
    args+=(notebooks)
fi
args+=(--nbval-lax --nbval-current-env)
if [ -f README.md ]; then
    args+=(--doctest-glob=README.md README.md)
fi

export TTR_NB_REQUIRE_BROWSER=1          # a missing browser is an error here, never a skip
export TTR_NB_SETUP_SECONDS="$setup_s"   # printed by .ci/pytest_phases.py in pytest's summary
export PYTHONPATH="$ROOT/.ci${PYTHONPATH:+:$PYTHONPATH}"

echo "[test] phase pytest: $VENV/bin/python -m pytest ${args[*]} $*"
set +e
"$VENV/bin/python" -m pytest -p pytest_phases "${args[@]}" "$@"
rc=$?
set -e
if [ "$rc" = 5 ]; then
    echo "[test] FAILED: pytest collected no tests (exit 5); an empty run is not a green run." >&2
fi
exit "$rc"
