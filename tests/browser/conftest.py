"""Real-browser test harness: a JupyterLab server and Debian's Chromium driven by Python Playwright.

Fixtures
    lab_server  (session)  JupyterLab on a free 127.0.0.1 port, root_dir = a temp copy of notebooks/
                           (tests never touch committed notebooks); ``.url``, ``.root_dir``, ``.log_path``
    browser     (session)  Playwright Chromium from /usr/bin/chromium (never ``playwright install``)
    page        (function) a fresh 1200x1500 page; on failure its screenshot and console log are saved

Helpers live in labhelpers.py (``open_and_run_all``, ``save_screenshot``); artefacts go to
tests/browser/artifacts/ (git-ignored).

Tests marked ``@pytest.mark.browser`` skip when Chromium (or playwright) is missing, with the reason
below, except under ``TTR_NB_REQUIRE_BROWSER=1`` (set by .ci/test.sh), where that is an error.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from labhelpers import ARTIFACTS

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SKIP_REASON = "Chromium not installed: run bash .ci/setup.sh --browser"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1200, "height": 1500}
SERVER_START_TIMEOUT_S = 90
# User-level JupyterLab settings for the test server (on top of the venv's overrides.json that
# .ci/setup.sh writes): no news toast and no update check, which would cover the page.
LAB_USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "checkForUpdates": False,
        "fetchNews": "false",
    },
}


def _browser_problem() -> str | None:
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        return SKIP_REASON
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Python playwright not installed: run bash .ci/setup.sh --browser"
    return None


def _require_browser() -> None:
    problem = _browser_problem()
    if problem is None:
        return
    if os.environ.get("TTR_NB_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{problem} (TTR_NB_REQUIRE_BROWSER=1: browser tests may not skip)", pytrace=False)
    pytest.skip(problem)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    # Before any fixture starts (so no JupyterLab is launched for a test that cannot run).
    if item.get_closest_marker("browser") is not None:
        _require_browser()


_REPORTS = pytest.StashKey[dict]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    return report


# --------------------------------------------------------------------------------- JupyterLab ---

@dataclass
class LabServer:
    url: str            # http://127.0.0.1:PORT (no trailing slash)
    root_dir: Path      # temp copy of notebooks/; write scratch notebooks here
    pid: int
    log_path: Path


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(path: Path, n: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return "(no log)"


def _stop_group(proc: subprocess.Popen) -> None:
    """SIGTERM the server's process group (it shuts its kernels down), SIGKILL if it hangs."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory) -> LabServer:
    base = tmp_path_factory.mktemp("jupyterlab")
    root = base / "root"
    source = REPO / "notebooks"
    if source.is_dir():
        shutil.copytree(source, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    else:
        root.mkdir()

    # Keep the server away from the user's ~/.jupyter and ~/.local/share/jupyter: its own config,
    # data (so the venv's python3 kernel is the one used), runtime, workspaces and user settings.
    env = dict(os.environ)
    for var, sub in [("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
                     ("JUPYTERLAB_SETTINGS_DIR", "user-settings")]:
        (base / sub).mkdir()
        env[var] = str(base / sub)
    for rel, settings in LAB_USER_SETTINGS.items():
        target = base / "user-settings" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(settings))
    env.pop("JUPYTER_PATH", None)

    port = _free_port()
    cmd = [sys.executable, "-m", "jupyter", "lab"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    cmd += [
        "--no-browser",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--LabApp.expose_app_in_browser=True",
        f"--ServerApp.root_dir={root}",
    ]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log_path = ARTIFACTS / "jupyterlab-server.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"JupyterLab exited with {proc.returncode} before answering:\n{_tail(log_path)}",
                            pytrace=False)
            try:
                with urllib.request.urlopen(f"{url}/api/status", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not answer {url}/api/status within {SERVER_START_TIMEOUT_S} s:\n"
                            f"{_tail(log_path)}", pytrace=False)
            time.sleep(0.25)
        yield LabServer(url=url, root_dir=root, pid=proc.pid, log_path=log_path)
    finally:
        _stop_group(proc)


# ---------------------------------------------------------------------------------- Chromium ---

@pytest.fixture(scope="session")
def browser():
    _require_browser()
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        pw.stop()


@pytest.fixture
def page(browser, request):
    """A fresh page per test; on failure, saves artifacts/<test>-failure.png and <test>-console.log."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(30_000)
    pg = context.new_page()
    console: list[str] = []
    pg.on("console", lambda msg: console.append(f"[{msg.type}] {msg.text}"))
    pg.on("pageerror", lambda exc: console.append(f"[pageerror] {exc}"))
    try:
        yield pg
    finally:
        reports = request.node.stash.get(_REPORTS, {})
        if any(r.failed for r in reports.values()):
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            stem = request.node.name.replace("/", "_")
            try:
                pg.screenshot(path=str(ARTIFACTS / f"{stem}-failure.png"))
            except Exception as exc:  # the page may be gone; the log still helps
                console.append(f"[harness] screenshot failed: {exc}")
            (ARTIFACTS / f"{stem}-console.log").write_text("\n".join(console) + "\n")
        context.close()


def pytest_collection_modifyitems(config, items):
    """Run browser tests last: fast tests report first, and ``-x`` stops before a browser starts."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
