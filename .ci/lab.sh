#!/usr/bin/env bash
# THE run command: set up, then open JupyterLab on the first teaching notebook.
# Extra arguments go to `jupyter lab` (e.g. bash .ci/lab.sh --port 8899 --no-browser).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${TTR_NB_VENV:-.venv}"
case "$VENV" in /*) ;; *) VENV="$ROOT/$VENV" ;; esac

bash .ci/setup.sh

target=notebooks/00_start_here.ipynb

extra=()
if [ "$(id -u)" = 0 ]; then
    extra+=(--allow-root)   # JupyterLab refuses to start as root without it
fi
exec "$VENV/bin/jupyter" lab "${extra[@]}" "$target" "$@"
