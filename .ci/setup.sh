#!/usr/bin/env bash
# Make the project's virtualenv ready; idempotent (a second run takes about a second).
#
#   bash .ci/setup.sh              venv + `pip install -e ".[test]"` + JupyterLab overrides (the test command)
#   bash .ci/setup.sh --notebook   venv + `pip install -e ".[notebook]"`: only what running needs (the run command);
#                                  a venv that already has the test extra is left as it is (it holds the notebook extra)
#   bash .ci/setup.sh --browser    ... and make sure Debian's Chromium is at /usr/bin/chromium
#   bash .ci/setup.sh --force      reinstall even if pyproject.toml has not changed
#
# Environment:
#   TTR_NB_VENV    where the venv lives (default .venv, relative to the repo root)
#   TTR_NB_PYTHON  the interpreter that creates it (default python3; must be >= 3.11)
#
# Never runs `playwright install` (browser downloads are impossible here): the browser tests drive
# Debian's chromium package through Python playwright's executable_path.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

VENV="${TTR_NB_VENV:-.venv}"
case "$VENV" in /*) ;; *) VENV="$ROOT/$VENV" ;; esac
PYTHON="${TTR_NB_PYTHON:-python3}"
CHROMIUM=/usr/bin/chromium
STAMP="$VENV/.ttr_nb-install-stamp"

want_browser=0
force=0
extra=test
for arg in "$@"; do
    case "$arg" in
        --notebook) extra=notebook ;;
        --browser) want_browser=1 ;;
        --force) force=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "setup.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

log() { echo "[setup] $*"; }
# sha256 of stdin or a file: sha256sum (Linux) or shasum (macOS).
sha256() { if command -v sha256sum >/dev/null 2>&1; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
# This machine's pip.conf names a local extra index that may be absent: drop pip's warning about it.
pip_q() {
    "$VENV/bin/python" -m pip "$@" 2>&1 | { grep -v "is neither a file nor a directory" || true; }
}
die() { echo "[setup] ERROR: $*" >&2; exit 1; }
start=$SECONDS

# Two setups of the same venv at once (two test runs on one machine) would fight inside pip: take turns.
if command -v flock >/dev/null 2>&1; then
    lock="${TMPDIR:-/tmp}/ttr_nb-setup-$(printf '%s' "$VENV" | sha256 | cut -c1-12).lock"
    exec 9>"$lock"
    flock -w 900 9 || die "another setup of $VENV has held $lock for 15 minutes"
fi

# --- 1. the virtualenv -------------------------------------------------------------------------
if [ -x "$VENV/bin/python" ] && ! "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    log "$VENV is broken or older than Python 3.11: recreating it"
    rm -rf "$VENV"
fi
if [ ! -x "$VENV/bin/python" ]; then
    command -v "$PYTHON" >/dev/null 2>&1 \
        || die "'$PYTHON' not found. Install Python >= 3.11 (Debian: apt-get install python3 python3-venv) or set TTR_NB_PYTHON."
    if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        die "ttr_nb needs Python >= 3.11, but '$PYTHON' is $("$PYTHON" -c 'import sys; print(sys.version.split()[0])'). Set TTR_NB_PYTHON to a newer interpreter."
    fi
    log "creating $VENV with $("$PYTHON" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
    "$PYTHON" -m venv "$VENV" \
        || die "'$PYTHON -m venv' failed (Debian: apt-get install python3-venv)."
fi

# --- 2. the package and its extra, only when pyproject.toml changed ------------------------------
# hatchling refuses to build when the force-included maps/ folder is missing (an empty folder is
# not kept by git, so a fresh clone may lack it before the first map lands).
mkdir -p maps
# The stamp records what was installed: "<sha256 of pyproject.toml> <python version> <extra>". The test extra
# includes the notebook extra, so a test venv also serves the run command.
base_stamp="$(sha256 pyproject.toml | cut -d' ' -f1) $("$VENV/bin/python" -c 'import sys; print(sys.version.split()[0])')"
have_stamp="$(cat "$STAMP" 2>/dev/null || true)"
if [ "$force" = 0 ] && { [ "$have_stamp" = "$base_stamp $extra" ] || [ "$have_stamp" = "$base_stamp test" ]; }; then
    log "ttr-nb[${have_stamp##* }] is up to date in $VENV (pyproject.toml unchanged)"
else
    log "installing ttr-nb[$extra] (editable) into $VENV"
    rm -f "$STAMP"
    pip_q install --quiet --upgrade pip
    pip_q install --quiet -e ".[$extra]"
    echo "$base_stamp $extra" > "$STAMP"
fi

# --- 3. JupyterLab: no news toast, no update check (they cover the page in browser tests) -------
settings="$VENV/share/jupyter/lab/settings"
overrides='{
  "@jupyterlab/apputils-extension:notification": {
    "checkForUpdates": false,
    "fetchNews": "false"
  }
}'
mkdir -p "$settings"
if [ "$(cat "$settings/overrides.json" 2>/dev/null || true)" != "$overrides" ]; then
    printf '%s\n' "$overrides" > "$settings/overrides.json"
    log "wrote $settings/overrides.json"
fi

# --- 4. Chromium for the real-browser tests ----------------------------------------------------
if [ "$want_browser" = 1 ]; then
    if [ ! -x "$CHROMIUM" ]; then
        install_cmd="apt-get update && apt-get install -y --no-install-recommends chromium"
        if [ "$(id -u)" != 0 ]; then
            echo "[setup] ERROR: $CHROMIUM is missing and this is not root. Run:" >&2
            echo "    sudo sh -c '$install_cmd'" >&2
            echo "then run this script again. (Never 'playwright install': it downloads a browser.)" >&2
            exit 1
        fi
        log "installing Debian's chromium: $install_cmd"
        export DEBIAN_FRONTEND=noninteractive
        apt_install() {
            apt-get update -qq && apt-get install -y -qq -o DPkg::Lock::Timeout=120 --no-install-recommends chromium
        }
        if ! apt_install; then
            log "apt-get failed; retrying once in 10 s"
            sleep 10
            apt_install || die "could not install chromium with apt-get (see above)."
        fi
        [ -x "$CHROMIUM" ] || die "apt-get installed chromium but $CHROMIUM is still missing."
    fi
    log "browser: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM (version unknown)")"
fi

log "ready in $((SECONDS - start)) s: $VENV"
