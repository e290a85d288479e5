#!/usr/bin/env bash
# THE run command: install what running needs (ttr-nb[notebook], not the test tools), then open JupyterLab on
# notebooks/00_start_here.ipynb. The address JupyterLab prints (with its token) opens that notebook.
# Extra arguments go to `jupyter lab` (e.g. bash .ci/lab.sh --port 8899 --no-browser).
#
# Environment: TTR_NB_VENV (where the venv lives, default .venv), TTR_NB_PYTHON (see .ci/setup.sh);
# TTR_NB_NO_SETUP=1 uses the venv as it is (e.g. one an administrator installed; the tests use it too).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${TTR_NB_VENV:-.venv}"
case "$VENV" in /*) ;; *) VENV="$ROOT/$VENV" ;; esac

if [ "${TTR_NB_NO_SETUP:-0}" != 1 ]; then
    bash .ci/setup.sh --notebook
fi

target=notebooks/00_start_here.ipynb
extra=()
if [ "$(id -u)" = 0 ]; then
    extra+=(--allow-root)   # JupyterLab refuses to start as root without it
fi
echo "[lab] starting JupyterLab in $ROOT; open the address it prints below (it opens $target; Ctrl-C stops it)"
# default_url makes the printed, tokenised address the notebook's own (/lab/tree/<path>?token=...).
exec "$VENV/bin/jupyter" lab --ServerApp.root_dir="$ROOT" --LabApp.default_url="/lab/tree/$target" \
    "${extra[@]}" "$@"
