#!/usr/bin/env bash
# The JupyterLite step of CI (after .ci/test.sh): build the offline site with `ttr-nb lite build` (cached by
# source hash under TTR_NB_LITE_CACHE, default ~/.cache/ttr-nb/lite) and test it in Chromium:
# tests/browser/test_lite.py (no request may leave the machine; every notebook runs; its boards draw).
# Needs network to PyPI and the npm registry on the first build, and npm (Node.js) on PATH.
# Extra arguments go to pytest. Exit status is pytest's; "no tests collected" (5) is a failure too.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${TTR_NB_VENV:-.venv}"
case "$VENV" in /*) ;; *) VENV="$ROOT/$VENV" ;; esac

bash .ci/setup.sh --browser
export TTR_NB_REQUIRE_BROWSER=1
export PYTHONPATH="$ROOT/.ci${PYTHONPATH:+:$PYTHONPATH}"
echo "[lite] phase pytest: $VENV/bin/python -m pytest tests/browser/test_lite.py $*"
set +e
"$VENV/bin/python" -m pytest -p pytest_phases tests/browser/test_lite.py "$@"
rc=$?
set -e
if [ "$rc" = 5 ]; then
    echo "[lite] FAILED: pytest collected no tests (exit 5); an empty run is not a green run." >&2
fi
exit "$rc"
