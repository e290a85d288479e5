"""Helpers for driving JupyterLab in a real Chromium through Python Playwright.

Import from browser tests with ``from labhelpers import ...`` (tests/browser is on sys.path because it has no
``__init__.py``); ``benchmarks/bench_browser.py`` imports them the same way.

What the waits are for (see shared NOTEBOOK_TESTING.md): waiting on the toolbar's "idle" indicator
alone fired "run all" into a kernel that was not connected yet, and no cell ran. So we wait on
JupyterLab's own objects: ``jupyterapp.restored``, the notebook panel's ``context.ready`` and
``sessionContext.ready``, then poll until the kernel is ``connected`` and ``idle``.

Rules kept here: every wait is on a condition (kernel idle, DOM state, a value the kernel holds), with a
generous deadline, never a fixed sleep; only *waits* are retried (``wait_until``), never assertions.

Figures (``check_figures``): every plotly figure on the page (``.js-plotly-plot``) is matched with what the kernel
holds — a static output against its ``application/vnd.plotly.v1+json`` data, a widget figure (anywidget /
``go.FigureWidget``) against the kernel object behind its widget model, found through the page's widget manager —
trace by trace (kind, meta, name, number of points, colours, route ids). A board (a trace with meta ``routes``) must
also carry every route id of its map and every layer ``ttr_nb.render.board_figure`` draws for that map.
"""
from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from urllib.parse import quote

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
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
# Generous: a loaded 2-core machine (8 people) runs these. Deadlines only bound waits on conditions.
WAIT_S = 90
SERVER_START_TIMEOUT_S = 120
# User-level JupyterLab settings for the test server (on top of the venv's overrides.json that
# .ci/setup.sh writes): no news toast and no update check, which would cover the page.
LAB_USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "checkForUpdates": False,
        "fetchNews": "false",
    },
}


# ------------------------------------------------------------------------------------------ JupyterLab server ---

@dataclass
class LabServer:
    url: str            # http://127.0.0.1:PORT (no trailing slash)
    root_dir: Path      # temp copy of notebooks/; write scratch notebooks here
    pid: int
    log_path: Path

    def sessions(self) -> list[dict]:
        with urllib.request.urlopen(f"{self.url}/api/sessions", timeout=10) as r:
            return json.loads(r.read())

    def shutdown_kernels(self) -> None:
        """Delete every session (and its kernel): a finished test leaves no kernel eating the 2 cores."""
        for s in self.sessions():
            req = urllib.request.Request(f"{self.url}/api/sessions/{s['id']}", method="DELETE")
            with contextlib.suppress(urllib.error.URLError, ConnectionError, TimeoutError):
                urllib.request.urlopen(req, timeout=30).close()


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
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


class ServerError(RuntimeError):
    pass


@contextlib.contextmanager
def lab_server_running(base: Path, log_path: Path):
    """JupyterLab on a free 127.0.0.1 port, root_dir = a copy of notebooks/ under ``base``, isolated from the
    user's Jupyter dirs. Its kernels import ``ttr_nb`` from this checkout (PYTHONPATH), not from whatever copy
    the venv has installed in editable mode."""
    root = base / "root"
    source = REPO / "notebooks"
    if source.is_dir():
        shutil.copytree(source, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    else:
        root.mkdir(parents=True)
    env = dict(os.environ)
    for var, sub in [("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
                     ("JUPYTERLAB_SETTINGS_DIR", "user-settings")]:
        (base / sub).mkdir(parents=True, exist_ok=True)
        env[var] = str(base / sub)
    for rel, settings in LAB_USER_SETTINGS.items():
        target = base / "user-settings" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(settings))
    env.pop("JUPYTER_PATH", None)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])

    port = _free_port()
    cmd = [sys.executable, "-m", "jupyter", "lab"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    cmd += ["--no-browser", f"--port={port}", "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=", "--ServerApp.password=", "--LabApp.expose_app_in_browser=True",
            f"--ServerApp.root_dir={root}"]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                raise ServerError(f"JupyterLab exited with {proc.returncode} before answering:\n{_tail(log_path)}")
            try:
                with urllib.request.urlopen(f"{url}/api/status", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise ServerError(f"JupyterLab did not answer {url}/api/status within {SERVER_START_TIMEOUT_S} s:\n"
                                  f"{_tail(log_path)}")
            time.sleep(0.25)
        yield LabServer(url=url, root_dir=root, pid=proc.pid, log_path=log_path)
    finally:
        _stop_group(proc)


@contextlib.contextmanager
def chromium_browser():
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


# ------------------------------------------------------------------------------------------------ console ---

# Console messages that come from JupyterLab itself, not from ttr_nb, plotly or anywidget. Each entry: a pattern on
# "[type] text @ url" and why it is allowed. Anything else of type error/warning fails the test.
ALLOWED_CONSOLE: list[tuple[re.Pattern, str]] = [
    # JupyterLab's translation manager asks the server for a language pack; none is installed for "en".
    (re.compile(r"Failed to load resource: the server responded with a status of 404.*/api/translations/"),
     "JupyterLab: no language pack (translations API 404)"),
    # The test server has no workspace yet for ?reset: JupyterLab reports the 404 of its first workspace fetch.
    (re.compile(r"Failed to load resource: the server responded with a status of 404.*/lab/api/workspaces"),
     "JupyterLab: workspace does not exist yet"),
    # JupyterLab's windowed notebook (jlab_core, WindowedList.scrollToItem) warns when a cell it was asked to
    # scroll to (the active cell during Run All) has not been rendered within 10 s; a loaded machine gets there.
    (re.compile(r"^\[error\] Could not restore the debugger state: Canceled future for debug_request message "
                r"before replies were done @ .*/static/lab/jlab_core\."),
     "JupyterLab's debugger sidebar asking a kernel that is being shut down or replaced (a page reload or a "
     "reopened notebook); it comes from JupyterLab's core bundle, not from ttr_nb or plotly"),
    (re.compile(r"^\[warning\] Item with index \d+ did not appear within \d+ ms @ .*/static/lab/jlab_core\."),
     "JupyterLab: windowed notebook scroll timeout"),
    # JupyterLab's plugin registry (jlab_core) times every plugin's activation and warns about a slow one, by its
    # id, on a loaded machine. Only these two timing warnings: a plugin that fails ("Error activating ...") is an
    # error and stays one; ttr_nb has no JupyterLab plugin (its widgets are anywidgets).
    (re.compile(r"^\[warning\] Plugin \S+ (is taking too long to activate|\(with \d+ dependants\) took [\d.]+ms "
                r"to activate)\. @ .*/static/lab/jlab_core\."),
     "JupyterLab: a plugin slow to activate under load (a timing warning of its plugin registry)"),
    # The browser asks for a favicon the JupyterLab server does not serve under this path.
    (re.compile(r"Failed to load resource: .*favicon"), "Chromium: favicon request"),
    # JupyterLab times its own plugins' start-up and warns when one takes long: on a loaded machine they do
    (re.compile(r"^\[warning\] Plugin \S+ (?:\(with \d+ dependants\) took [\d.]+ ?ms to activate|is taking too long "
                r"to activate)\.? @ .*/static/lab/jlab_core\."),
     "JupyterLab: a plugin of its own started slowly (a busy machine)"),
]


# plotly.js reports through console.trace ("WARN: Invalid color specifier ..."); anywidget through console.error.
_BAD_KINDS = {"error", "warning", "trace", "assert", "pageerror"}
_BAD_TEXT = re.compile(r"^\s*(WARN|WARNING|ERROR)\b|Uncaught|Failed to", re.IGNORECASE)


@dataclass
class ConsoleLog:
    """Every console message and page error of one page; ``problems()`` are the errors and warnings that no
    ``ALLOWED_CONSOLE`` entry explains."""
    lines: list[str] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)
    checked: int = 0

    def attach(self, page) -> "ConsoleLog":
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self._add("pageerror", str(exc), ""))
        return self

    def _on_console(self, msg) -> None:
        loc = msg.location or {}
        self._add(msg.type, msg.text, loc.get("url", "") if isinstance(loc, dict) else "")

    def _add(self, kind: str, text: str, url: str) -> None:
        line = f"[{kind}] {text}" + (f" @ {url}" if url else "")
        self.lines.append(line)
        if (kind in _BAD_KINDS or _BAD_TEXT.search(text)) and not any(p.search(line) for p, _ in ALLOWED_CONSOLE):
            self.bad.append(line)

    def problems(self) -> list[str]:
        return list(self.bad)

    def excuse(self, line: str) -> int:
        """Take the problems equal to ``line`` off the list (one test's known, explained message); how many."""
        kept = [b for b in self.bad if b != line]
        excused = len(self.bad) - len(kept)
        self.bad = kept
        return excused

    def assert_clean(self, where: str = "") -> None:
        self.checked = len(self.bad)
        if self.bad:
            shown = "\n".join(self.bad[:20]) + (f"\n... and {len(self.bad) - 20} more" if len(self.bad) > 20 else "")
            raise AssertionError(f"{len(self.bad)} console error(s)/warning(s){' ' + where if where else ''}:\n{shown}")


# ------------------------------------------------------------------------------------------------- waiting ---

class WaitTimeout(AssertionError):
    pass


def wait_until(probe: Callable[[], Any], what: str, timeout_s: float = WAIT_S, page=None, poll_s: float = 0.15):
    """Call ``probe`` until it returns something truthy (returned); retries only the wait, raising WaitTimeout
    with ``what`` and the last value at the deadline. ``page``: poll with the page's own timer (keeps Playwright's
    event loop turning), else time.sleep. Exceptions of ``probe`` count as "not yet"."""
    deadline = time.monotonic() + timeout_s
    last: Any = None
    while True:
        try:
            last = probe()
            if last:
                return last
        except WaitTimeout:
            raise
        except Exception as exc:        # a page in the middle of a redraw, a kernel busy: not yet
            last = f"{type(exc).__name__}: {exc}"
        if time.monotonic() > deadline:
            raise WaitTimeout(f"{what}: not true within {timeout_s:.0f} s (last: {str(last)[:600]})")
        if page is not None:
            page.wait_for_timeout(poll_s * 1000)
        else:
            time.sleep(poll_s)


# --------------------------------------------------------------------------------------------- notebooks ---

# Shared JS: a sleep, a promise with a deadline, and "find the panel of PATH".
_JS_PRELUDE = r"""
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const withTimeout = (promise, ms, what) => Promise.race([
  promise,
  new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)),
]);
const app = window.jupyterapp;
const findPanel = () => {
  const current = app.shell.currentWidget;
  if (current && current.context && current.context.path === path && current.sessionContext) return current;
  for (const w of app.shell.widgets('main')) {
    if (w.context && w.context.path === path && w.sessionContext) return w;
  }
  return null;
};
const kernelState = (panel) => {
  const session = panel && panel.sessionContext.session;
  const k = session && session.kernel;
  return k ? `${k.name}: connectionStatus=${k.connectionStatus} status=${k.status}` : 'no kernel';
};
const dialogText = () => {
  const d = document.querySelector('.jp-Dialog');
  return d ? ` (a dialog is open: ${JSON.stringify(d.innerText.slice(0, 200))})` : '';
};
const busyPrompts = (panel) => Array.from(panel.node.querySelectorAll('.jp-InputPrompt'))
    .filter((el) => el.textContent.includes('[*]')).length;
const runningCells = (panel) => panel.content.widgets
    .filter((c) => c.model.type === 'code' && c.model.executionState === 'running').length;
"""

_JS_WAIT_FOR_KERNEL = (
    "async ({path, timeoutMs, activate}) => {"
    + _JS_PRELUDE
    + r"""
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  await withTimeout(app.restored, left(), 'jupyterapp.restored');
  let panel = null;
  while (!(panel = findPanel())) {
    if (Date.now() > deadline) {
      const cur = app.shell.currentWidget;
      throw new Error(`notebook ${path} did not open; current widget: ${cur ? cur.title.label : 'none'}${dialogText()}`);
    }
    await sleep(100);
  }
  if (activate) app.shell.activateById(panel.id);
  await withTimeout(panel.context.ready, left(), `${path}: context.ready`);
  await withTimeout(panel.sessionContext.ready, left(), `${path}: sessionContext.ready`);
  for (;;) {
    const session = panel.sessionContext.session;
    const k = session && session.kernel;
    if (k && k.connectionStatus === 'connected' && k.status === 'idle') return kernelState(panel);
    if (Date.now() > deadline) throw new Error(`kernel not ready for ${path}: ${kernelState(panel)}${dialogText()}`);
    await sleep(100);
  }
}"""
)

_JS_START_RUN_ALL = (
    "async ({path}) => {"
    + _JS_PRELUDE
    + r"""
  const panel = findPanel();
  if (!panel) throw new Error(`notebook ${path} is not open`);
  app.shell.activateById(panel.id);
  window.__ttrRunAll = {done: false, error: null};
  app.commands.execute('notebook:run-all-cells').then(
    () => { window.__ttrRunAll.done = true; },
    (e) => { window.__ttrRunAll.done = true; window.__ttrRunAll.error = String(e); });
  return true;
}"""
)

_JS_WAIT_QUIET = (
    "async ({path, timeoutMs}) => {"
    + _JS_PRELUDE
    + r"""
  const deadline = Date.now() + timeoutMs;
  const panel = findPanel();
  if (!panel) throw new Error(`notebook ${path} is not open`);
  let quietSince = null;
  for (;;) {
    const k = panel.sessionContext.session && panel.sessionContext.session.kernel;
    const started = !window.__ttrRunAll || window.__ttrRunAll.done;
    const quiet = started && k && k.status === 'idle' && busyPrompts(panel) === 0 && runningCells(panel) === 0;
    if (quiet) {
      quietSince = quietSince || Date.now();
      if (Date.now() - quietSince >= 300) break;   // idle for a moment: late comm messages are in
    } else {
      quietSince = null;
    }
    if (Date.now() > deadline) {
      throw new Error(`run-all did not finish in ${timeoutMs} ms: ${kernelState(panel)}, `
        + `${busyPrompts(panel)} prompt(s) show [*]${dialogText()}`);
    }
    await sleep(100);
  }
  if (window.__ttrRunAll && window.__ttrRunAll.error) throw new Error('run-all failed: ' + window.__ttrRunAll.error);
  return panel.content.widgets.map((c, index) => {
    const outputs = c.model.type === 'code' ? c.model.outputs.toJSON() : [];
    return {
      index,
      type: c.model.type,
      source: c.model.sharedModel.getSource(),
      executionCount: c.model.type === 'code' ? c.model.executionCount : null,
      errors: outputs.filter((o) => o.output_type === 'error')
        .map((o) => `${o.ename}: ${o.evalue}\n${(o.traceback || []).join('\n')}`),
    };
  });
}"""
)

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def open_notebook(page, base_url: str, notebook_name: str, timeout_s: float = 180, reset: bool = True) -> str:
    """Open ``lab/tree/NAME?reset`` and wait until its kernel is connected and idle.

    Returns a short description of the kernel. ``notebook_name`` is relative to the server's root.
    """
    deadline = time.monotonic() + timeout_s
    url = f"{base_url.rstrip('/')}/lab/tree/{quote(notebook_name)}" + ("?reset" if reset else "")
    page.goto(url, wait_until="domcontentloaded", timeout=timeout_s * 1000)
    page.wait_for_function("() => !!window.jupyterapp", timeout=timeout_s * 1000)
    return wait_for_kernel(page, notebook_name, max(1.0, deadline - time.monotonic()))


def wait_for_kernel(page, notebook_name: str, timeout_s: float = 180, activate: bool = True) -> str:
    return page.evaluate(_JS_WAIT_FOR_KERNEL, {"path": notebook_name, "timeoutMs": int(timeout_s * 1000),
                                               "activate": activate})


def _check_cells(notebook_name: str, cells: list[dict], allow_errors: bool) -> list[dict]:
    if not allow_errors:
        failed = [c for c in cells if c["errors"]]
        if failed:
            details = "\n\n".join(f"cell {c['index']}:\n{_ANSI.sub('', e)}" for c in failed for e in c["errors"])
            raise AssertionError(f"{notebook_name}: {len(failed)} cell(s) raised:\n{details}")
        not_run = [c["index"] for c in cells
                   if c["type"] == "code" and c["source"].strip() and c["executionCount"] is None]
        if not_run:
            raise AssertionError(f"{notebook_name}: code cells {not_run} did not run")
    return cells


def start_run_all(page, notebook_name: str) -> None:
    """Fire "run all" in the open notebook and return at once (``wait_run_all`` waits for the end)."""
    page.evaluate(_JS_START_RUN_ALL, {"path": notebook_name})


def wait_run_all(page, notebook_name: str, timeout_s: float = 300, allow_errors: bool = False) -> list[dict]:
    cells = page.evaluate(_JS_WAIT_QUIET, {"path": notebook_name, "timeoutMs": int(timeout_s * 1000)})
    return _check_cells(notebook_name, cells, allow_errors)


def run_all(page, notebook_name: str, timeout_s: float = 300, allow_errors: bool = False) -> list[dict]:
    """Run every cell of the open notebook and wait until the kernel is idle and no cell shows ``[*]``.

    Returns one dict per cell (index, type, source, executionCount, errors). Raises AssertionError when a
    cell raised (unless ``allow_errors``) or a non-empty code cell did not run.
    """
    start_run_all(page, notebook_name)
    return wait_run_all(page, notebook_name, timeout_s, allow_errors)


def open_and_run_all(page, base_url: str, notebook_name: str, timeout_s: float = 300,
                     allow_errors: bool = False) -> list[dict]:
    """Open a notebook in JupyterLab, wait for its kernel for real, run all cells, wait until done.

    ``timeout_s`` bounds each of the two steps (opening + kernel start, then running).
    """
    open_notebook(page, base_url, notebook_name, timeout_s)
    return run_all(page, notebook_name, timeout_s, allow_errors=allow_errors)


def save_notebook(page, notebook_name: str, timeout_s: float = WAIT_S) -> None:
    """Save the open notebook (so a reload finds its outputs) and wait until it is clean."""
    page.evaluate("async ({path, timeoutMs}) => {" + _JS_PRELUDE + r"""
  const panel = findPanel();
  if (!panel) throw new Error(`notebook ${path} is not open`);
  await withTimeout(panel.context.save(), timeoutMs, `saving ${path}`);
  return true;
}""", {"path": notebook_name, "timeoutMs": int(timeout_s * 1000)})


_JS_WIDGETS_RESTORED = (
    "async ({path}) => {"
    + _JS_PRELUDE
    + r"""
  const panel = findPanel();
  if (!panel) return 'the notebook is not open';
  // the notebook's widget manager, through the widget renderer its rendermime makes (no output need be drawn)
  const renderer = panel.content.rendermime.createRenderer('application/vnd.jupyter.widget-view+json');
  const manager = renderer && renderer._manager ? await renderer._manager.promise : null;
  renderer && renderer.dispose && renderer.dispose();
  if (!manager) return 'no widget manager';
  if (!manager.restoredStatus) return 'the widget manager is restoring';
  const missing = [];
  for (const cell of panel.content.widgets) {
    if (cell.model.type !== 'code') continue;
    for (const o of cell.model.outputs.toJSON()) {
      const d = o.data && o.data['application/vnd.jupyter.widget-view+json'];
      if (d && d.model_id && !manager.has_model(d.model_id)) missing.push(d.model_id.slice(0, 8));
    }
  }
  return missing.length ? `models not restored yet: ${missing.join(', ')}` : true;
}"""
)


def wait_for_widgets(page, notebook_name: str, timeout_s: float = WAIT_S) -> None:
    """Wait until the page's widget manager has restored the kernel's widgets: restored, and every widget output
    of the notebook has its model. Until then nothing may draw an output (JupyterLab draws an output when its
    cell comes into view) nor keep the kernel busy: ipywidgets gives an output up for good ("Error displaying
    widget: model not found") when its model is not there within 2 s once the manager says it has restored,
    and a restore that waits more than 4 s for the kernel's answer starts again the slow way."""
    wait_until(lambda: page.evaluate(_JS_WIDGETS_RESTORED, {"path": notebook_name}) is True,
               f"{notebook_name}: the page restored the kernel's widgets", timeout_s, page=page, poll_s=0.25)


_LOST_WIDGET = "Error displaying widget: model not found"


def lost_widget_outputs(page, notebook_name: str) -> int:
    """How many widget outputs of the notebook ipywidgets' renderer has given up on for good ("Error displaying
    widget: model not found")."""
    return page.evaluate("({path, text}) => {" + _JS_PRELUDE + r"""
  const panel = findPanel();
  if (!panel) return 0;
  return [...panel.node.querySelectorAll('.jp-OutputArea-output')].filter(n => n.textContent.includes(text)).length;
}""", {"path": notebook_name, "text": _LOST_WIDGET})


def come_back(page, console, notebook_name: str, action, *, min_figures: int, what: str, attempts: int = 3):
    """``action(page, notebook_name)`` (a reload or a reopen), then ``check_figures``. An upstream race
    (@jupyter-widgets/jupyterlab-manager 5.0.16, ``WidgetRenderer.renderModel``): on a loaded machine the page's
    widget manager can say it has restored while a second restore (started when the kernel connection comes up
    again) is still adding models; an output drawn in that moment is given up for good ("Error displaying widget:
    model not found"), although its model arrives a moment later. When — and only when — that is why figures are
    missing (the outputs show the error, the manager has every model, and the only console errors are that
    race's), the learner's remedy is taken: the page comes back once more. Any other problem fails at once.
    Upstream: jupyter-widgets/ipywidgets#4026 ("Widget output rendered before its comm_open is processed fails
    permanently"), open; nothing in ttr_nb reaches that renderer. Under heavy load (six busy loops on two cores) a
    reopen of 01_usa lost the same two outputs in every attempt: this remedy helps at CI's load, not at that one."""
    for attempt in range(1, attempts + 1):
        seen = len(console.bad)
        action(page, notebook_name)
        try:
            return check_figures(page, notebook_name, min_figures=min_figures, what=what)
        except AssertionError:
            lost = lost_widget_outputs(page, notebook_name)
            new = console.bad[seen:]
            upstream = [line for line in new if "widget model not found" in line]
            if attempt == attempts or not lost or len(upstream) != len(new) \
                    or page.evaluate(_JS_WIDGETS_RESTORED, {"path": notebook_name}) is not True:
                raise
            del console.bad[seen:]
            warnings.warn(f"{notebook_name} {what}: ipywidgets gave {lost} output(s) up while restoring "
                          f"(the widget manager's restore race); attempt {attempt + 1}")


def reload_page(page, notebook_name: str, timeout_s: float = 180) -> None:
    """Save, reload the page (same URL without ?reset: the notebook reopens on its running kernel), wait for it
    and for its widgets."""
    save_notebook(page, notebook_name)
    page.reload(wait_until="domcontentloaded", timeout=timeout_s * 1000)
    page.wait_for_function("() => !!window.jupyterapp", timeout=timeout_s * 1000)
    wait_for_kernel(page, notebook_name, timeout_s)
    wait_for_widgets(page, notebook_name, timeout_s)


def reopen_notebook(page, notebook_name: str, timeout_s: float = 180) -> None:
    """Save, close the notebook's tab (its kernel keeps running), open it again in the same page, wait for it."""
    save_notebook(page, notebook_name)
    kernel_before = kernel_id(page, notebook_name)
    page.evaluate("async ({path}) => {" + _JS_PRELUDE + r"""
  const panel = findPanel();
  if (!panel) throw new Error(`notebook ${path} is not open`);
  panel.dispose();
  for (let i = 0; i < 600 && findPanel(); i++) await sleep(50);
  await app.commands.execute('docmanager:open', {path});
  return true;
}""", {"path": notebook_name})
    wait_for_kernel(page, notebook_name, timeout_s)
    wait_for_widgets(page, notebook_name, timeout_s)
    after = kernel_id(page, notebook_name)
    assert after == kernel_before, f"reopening {notebook_name} started a new kernel ({kernel_before} -> {after})"


def kernel_id(page, notebook_name: str) -> str:
    return page.evaluate("({path}) => {" + _JS_PRELUDE + r"""
  const p = findPanel();
  return p && p.sessionContext.session && p.sessionContext.session.kernel ? p.sessionContext.session.kernel.id : null;
}""", {"path": notebook_name})


def hide_notebook(page) -> None:
    """Open a Launcher tab in front of the notebook (the notebook's tab is hidden until activated again)."""
    page.evaluate("async () => { await window.jupyterapp.commands.execute('launcher:create'); return true; }")


def activate_notebook(page, notebook_name: str) -> None:
    page.evaluate("({path}) => {" + _JS_PRELUDE + r"""
  const p = findPanel();
  if (!p) throw new Error(`notebook ${path} is not open`);
  app.shell.activateById(p.id);
  return true;
}""", {"path": notebook_name})


# ---------------------------------------------------------------------------------------- kernel queries ---

_JS_KERNEL_EVAL = (
    "async ({path, code, expr, timeoutMs}) => {"
    + _JS_PRELUDE
    + r"""
  const panel = findPanel();
  if (!panel) throw new Error(`notebook ${path} is not open`);
  const k = panel.sessionContext.session.kernel;
  const future = k.requestExecute({code, silent: true, store_history: false,
                                   user_expressions: expr ? {r: expr} : {}, allow_stdin: false});
  const reply = await withTimeout(future.done, timeoutMs, 'a kernel query');
  const c = reply.content;
  if (c.status !== 'ok') throw new Error(`kernel query failed: ${c.ename}: ${c.evalue}\n${(c.traceback || []).join('\n')}`);
  if (!expr) return null;
  const r = c.user_expressions.r;
  if (r.status !== 'ok') throw new Error(`kernel expression failed: ${r.ename}: ${r.evalue}`);
  return r.data['text/plain'];
}"""
)


def kernel_eval(page, notebook_name: str, expr: str, code: str = "", timeout_s: float = WAIT_S) -> Any:
    """Run ``code`` silently in the notebook's kernel (no cell, no execution count), then return the value of
    ``expr`` (a Python literal: its repr is parsed with ``ast.literal_eval``; use ``json.dumps(...)`` for more)."""
    text = page.evaluate(_JS_KERNEL_EVAL, {"path": notebook_name, "code": code, "expr": expr,
                                           "timeoutMs": int(timeout_s * 1000)})
    if text is None:
        return None
    return ast.literal_eval(_ANSI.sub("", text))


def kernel_json(page, notebook_name: str, expr: str, code: str = "", timeout_s: float = WAIT_S) -> Any:
    """``json.loads`` of the kernel's ``json.dumps(expr)``."""
    return json.loads(kernel_eval(page, notebook_name, f"__import__('json').dumps({expr}, default=str)", code,
                                  timeout_s))


# --------------------------------------------------------------------------------------------- figures ---

# Runs in the kernel: a summary of every live plotly figure widget, keyed by its widget model id. A widget whose
# figure lives in ``.figure`` (ttr_nb's own figure widget) or that is a plotly ``go.FigureWidget`` counts.
_KERNEL_FIGURES = r'''
def __ttr_figures():
    import json
    from ipywidgets.widgets.widget import _instances
    def plain(v):
        if v is None:
            return None
        if hasattr(v, "tolist"):
            v = v.tolist()
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, (str, int, float, bool)):
            return v
        return str(v)
    def npoints(t):
        for k in ("x", "y", "values", "labels", "z"):
            v = getattr(t, k, None) if k in t else None
            if v is not None:
                return len(v)
        return 0
    def colour(obj, key):
        try:
            return plain(obj[key])
        except (KeyError, ValueError, AttributeError):
            return None
    out = {}
    for mid, w in list(_instances.items()):
        if getattr(w, "comm", None) is None:
            continue
        fig = getattr(w, "figure", None)
        if fig is None and hasattr(w, "_widget_data") and hasattr(w, "data"):
            fig = w
        if fig is None or not hasattr(fig, "data") or not hasattr(fig, "layout"):
            continue
        traces = []
        for t in fig.data:
            routes = t.meta == "routes"
            traces.append({"type": t.type, "meta": plain(t.meta), "name": plain(t.name), "n": npoints(t),
                           "marker_color": colour(t, "marker.color") if "marker" in t else None,
                           "line_color": colour(t, "line.color") if "line" in t else None,
                           "customdata": plain(t.customdata) if routes else None})
        title = fig.layout.title.text if fig.layout.title else None
        out[mid] = {"traces": traces, "title": title, "widget": type(w).__name__}
    return json.dumps(out)
'''

# Runs in the page: for each figure model id the kernel named, the figures its attached views draw; plus every
# static plotly output (with the figure data of its output model) and the total of .js-plotly-plot in the page.
_JS_PAGE_FIGURES = (
    "async ({path, ids, scroll}) => {"
    + _JS_PRELUDE
    + r"""
  const panel = findPanel();
  if (!panel) throw new Error(`notebook ${path} is not open`);
  // plotly.py may send arrays base64-encoded ({dtype, bdata}); plotly.js decodes them into typed arrays
  const SIZES = {i1: 1, u1: 1, i2: 2, u2: 2, i4: 4, u4: 4, f4: 4, f8: 8};
  const len = (v) => (v && v.bdata !== undefined ? atob(v.bdata).length / (SIZES[v.dtype] || 8) : v.length);
  const summary = (data, gd) => (data || []).map((t) => ({
    type: t.type || 'scatter', meta: t.meta === undefined ? null : t.meta, name: t.name === undefined ? null : t.name,
    n: len(['x', 'y', 'values', 'labels', 'z'].map((k) => t[k]).find((v) => v !== undefined && v !== null) || []) ?? 0,
    marker_color: t.marker && t.marker.color !== undefined ? t.marker.color : null,
    line_color: t.line && t.line.color !== undefined ? t.line.color : null,
    customdata: t.meta === 'routes' && t.customdata ? Array.from(t.customdata) : null,
  }));
  const plotInfo = (gd) => {
    const rect = gd.getBoundingClientRect();
    const title = gd._fullLayout && gd._fullLayout.title ? gd._fullLayout.title.text : null;
    return {
      visible: gd.checkVisibility ? gd.checkVisibility() : !!gd.offsetParent,
      width: Math.round(rect.width), height: Math.round(rect.height),
      svg: !!gd.querySelector('.main-svg'),
      traces: summary(gd.data, gd), title,
      placeholder: !!(gd.querySelector('.gtitle') && /Click to enter/.test(gd.querySelector('.gtitle').textContent)),
    };
  };
  // the page's widget manager, from any widget renderer in the notebook's outputs
  let manager = null;
  for (const cell of panel.content.widgets) {
    const area = cell.outputArea;
    if (!area) continue;
    for (const child of area.widgets) {
      for (const w of (child.widgets || [])) {
        if (w._manager && w._manager.promise) { manager = await w._manager.promise; break; }
      }
      if (manager) break;
    }
    if (manager) break;
  }
  // scroll a figure into sight and give the page two frames to lay it out (a view that waits for a size,
  // in a cell JupyterLab renders only near the viewport, draws once it is seen — as a reader scrolling would)
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const show = async (el) => { if (scroll && el) { el.scrollIntoView({block: 'center'}); await frames(); } };
  // JupyterLab renders only the cells near the viewport: visit each cell that shows a widget, so its views exist
  if (scroll && panel.content.scrollToItem) {
    const cellsNow = panel.content.widgets;
    for (let ci = 0; ci < cellsNow.length; ci++) {
      const outs = cellsNow[ci].model.type === 'code' ? cellsNow[ci].model.outputs.toJSON() : [];
      if (!outs.some((o) => o.data && o.data['application/vnd.jupyter.widget-view+json'])) continue;
      await panel.content.scrollToItem(ci, 'center').catch(() => null);
      await frames();
    }
  }
  const widgetFigures = {};
  const seen = new Set();
  if (manager) {
    for (const id of ids) {
      let model = null;
      try { model = await manager.get_model(id); } catch (e) { model = null; }
      const views = model ? await Promise.all(Object.values(model.views || {})) : [];
      widgetFigures[id] = [];
      for (const v of views) {
        if (!v || !v.el || !document.contains(v.el)) continue;
        await show(v.el);
        const gd = v.el.classList.contains('js-plotly-plot') ? v.el : v.el.querySelector('.js-plotly-plot');
        if (!gd) { widgetFigures[id].push({noplot: true, visible: v.el.checkVisibility(),
                                           text: v.el.innerText.slice(0, 200)}); continue; }
        seen.add(gd);
        widgetFigures[id].push(plotInfo(gd));
      }
    }
  }
  const statics = [];
  const cells = panel.content.widgets;
  for (let ci = 0; ci < cells.length; ci++) {
    const cell = cells[ci];
    if (cell.model.type !== 'code') continue;
    const outputs = cell.model.outputs.toJSON();
    let k = -1;                       // the k-th plotly output of this cell
    for (let oi = 0; oi < outputs.length; oi++) {
      const o = outputs[oi];
      const fig = o.data && o.data['application/vnd.plotly.v1+json'];
      if (!fig) continue;
      if (scroll) {
        // JupyterLab renders the cells near the viewport only: bring this one in first
        if (panel.content.scrollToItem) await panel.content.scrollToItem(ci, 'center').catch(() => null);
        await show(cell.node);
      }
      k += 1;
      const node = cell.outputArea.widgets[oi] ? cell.outputArea.widgets[oi].node : null;
      // by output index; else (the output area's children need not follow the model's indexes after a
      // reload) the k-th plotly figure in the cell's output area
      let gd = (node ? node.querySelector('.js-plotly-plot') : null)
        || (cell.outputArea.node.querySelectorAll('.js-plotly-plot')[k] ?? null);
      if (gd) { await show(gd); seen.add(gd); }
      // after a reload, plotly's JupyterLab renderer shows the PNG it saved with the output instead of a plot
      const img = gd ? null : (node || cell.outputArea.node).querySelector('.jp-RenderedPlotly img.plot-img');
      const drawn = gd ? plotInfo(gd) : img ? {image: true, visible: img.checkVisibility(),
                                                 ok: img.complete && img.naturalWidth > 0} : null;
      statics.push({cell: ci, output: oi, expected: summary(fig.data), title: fig.layout && fig.layout.title
        ? (fig.layout.title.text ?? fig.layout.title) : null, drawn});
    }
  }
  const all = Array.from(panel.node.querySelectorAll('.js-plotly-plot'));
  const unknown = all.filter((gd) => !seen.has(gd)).map((gd) => plotInfo(gd));
  return {manager: !!manager, widgetFigures, statics, total: all.length, unknown};
}"""
)


def kernel_figures(page, notebook_name: str) -> dict[str, dict]:
    """model id -> {"traces": [...], "title", "widget"} of every live figure widget in the notebook's kernel."""
    return json.loads(kernel_eval(page, notebook_name, "__ttr_figures()", _KERNEL_FIGURES))


def page_figures(page, notebook_name: str, ids, scroll: bool = False) -> dict:
    return page.evaluate(_JS_PAGE_FIGURES, {"path": notebook_name, "ids": list(ids), "scroll": scroll})


def _norm(v):
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, list):
        return [_norm(x) for x in v]
    return v


def trace_differences(expected: list[dict], drawn: list[dict]) -> list[str]:
    """What differs between two trace summaries (empty: the same picture)."""
    if len(expected) != len(drawn):
        return [f"{len(drawn)} traces drawn, the kernel has {len(expected)} "
                f"(metas drawn {[t.get('meta') for t in drawn][:8]}...)"]
    out = []
    for i, (e, d) in enumerate(zip(expected, drawn)):
        for key in ("type", "meta", "name", "n", "marker_color", "line_color", "customdata"):
            ev, dv = _norm(e.get(key)), _norm(d.get(key))
            if key == "type" and ev in (None, "scatter") and dv in (None, "scatter"):
                continue
            if ev != dv:
                out.append(f"trace {i} ({e.get('meta') or e.get('name')}): {key} {str(dv)[:120]} drawn, "
                           f"kernel {str(ev)[:120]}")
    return out


@dataclass
class FigureReport:
    checked: int                      # figures compared and equal
    hidden: list[str]                 # figures whose view is not visible (in a closed panel); not compared
    problems: list[str]
    boards: list[list[dict]]          # trace summaries of every board figure (for the map checks)
    total: int                        # .js-plotly-plot elements in the notebook
    images: list[str] = field(default_factory=list)   # static figures shown as plotly's saved PNG (after a reload)


def _compare(page, notebook_name: str, scroll: bool) -> FigureReport:
    kfigs = kernel_figures(page, notebook_name)
    pf = page_figures(page, notebook_name, kfigs.keys(), scroll=scroll)
    problems, hidden, boards, images = [], [], [], []
    checked = 0

    def judge(where: str, expected: list[dict], drawn: dict | None) -> None:
        nonlocal checked
        if drawn is None:
            problems.append(f"{where}: not in the page")
        elif not drawn["visible"]:
            hidden.append(where)
        elif drawn.get("image"):          # plotly's saved PNG of the figure (no traces to compare)
            if drawn["ok"]:
                checked += 1
                images.append(where)
            else:
                problems.append(f"{where}: its saved picture did not load")
        else:
            diff = trace_differences(expected, drawn["traces"])
            if drawn["placeholder"]:
                diff.insert(0, "shows the placeholder title 'Click to enter Plot title'")
            if not drawn["svg"]:
                diff.insert(0, "no svg drawn")
            if diff:
                problems.append(f"{where}: " + "; ".join(diff[:6]))
            else:
                checked += 1
                if _is_board(drawn["traces"]):
                    boards.append(drawn["traces"])

    if kfigs and not pf["manager"]:
        problems.append("no widget manager found in the page, though the kernel has figure widgets")
    for mid, kf in kfigs.items():
        for view in pf["widgetFigures"].get(mid, []):
            where = f"{kf['widget']} {mid[:8]} ({kf['title'] or 'untitled'})"
            if view.get("noplot"):
                if view.get("visible"):
                    problems.append(f"{where}: its view shows no plotly figure (text: {view.get('text')!r})")
                continue
            judge(where, kf["traces"], view)
    for st in pf["statics"]:
        judge(f"static figure in cell {st['cell']} ({st['title'] or 'untitled'})", st["expected"], st["drawn"])
    for u in pf["unknown"]:
        problems.append(f"a plotly figure the kernel does not know: {len(u['traces'])} traces, title {u['title']!r}")
    return FigureReport(checked=checked, hidden=hidden, problems=problems, boards=boards, total=pf["total"],
                        images=images)


def _is_board(traces: list[dict]) -> bool:
    """A board has a "routes" trace (one marker per route) and a "cities" trace (a score chart may have a bar
    trace called "routes")."""
    metas = {t.get("meta") for t in traces}
    return "routes" in metas and "cities" in metas


def board_expectations() -> dict[str, dict]:
    """Per map: its route ids and the trace metas ``ttr_nb.render.board_figure`` draws for it (test process; the
    kernel imports the same checkout)."""
    from ttr_nb import available_maps, load_map
    from ttr_nb.render import board_figure
    out = {}
    for name in available_maps():
        m = load_map(name)
        fig = board_figure(m)
        out[name] = {"routes": sorted(str(r.id) for r in m.routes),
                     "metas": sorted({str(t.meta) for t in fig.data if t.meta is not None
                                      and not str(t.meta).startswith("seat:")})}
    return out


def board_problems(boards: list[list[dict]]) -> list[str]:
    """A drawn board must carry every route of one map (as the routes trace's customdata, one marker each) and
    every layer board_figure draws for that map."""
    expected = board_expectations()
    out = []
    for traces in boards:
        routes = next(t for t in traces if t.get("meta") == "routes")
        ids = sorted(str(x) for x in (routes.get("customdata") or []))
        match = [name for name, e in expected.items() if e["routes"] == ids]
        if not match:
            out.append(f"a board whose route markers ({len(ids)}) are not the routes of any map")
            continue
        metas = {str(t.get("meta")) for t in traces}
        missing = [mt for mt in expected[match[0]]["metas"] if mt not in metas]
        if missing:
            out.append(f"a {match[0]} board without the layers {missing}")
    return out


def check_figures(page, notebook_name: str, *, min_figures: int = 1, timeout_s: float = WAIT_S,
                  what: str = "") -> FigureReport:
    """Every plotly figure of the notebook draws what the kernel holds (see the module docstring).

    Waits (up to ``timeout_s``) until the comparison comes out clean — figures are drawn asynchronously, and a
    view off-screen may draw only when scrolled to — then asserts on that last comparison.
    """
    state = {"report": None}

    def probe():
        rep = _compare(page, notebook_name, scroll=True)
        state["report"] = rep
        return not rep.problems and rep.checked >= min_figures

    try:
        wait_until(probe, f"{notebook_name}: every figure drawn as the kernel has it", timeout_s, page=page,
                   poll_s=0.5)
    except WaitTimeout:
        pass                           # the assertions below say what is wrong
    rep = state["report"] or _compare(page, notebook_name, scroll=True)
    label = f"{notebook_name}{' ' + what if what else ''}"
    if rep.problems or rep.checked < min_figures:
        label += widget_output_report(page, notebook_name)
    assert not rep.problems, f"{label}: {len(rep.problems)} figure problem(s):\n" + "\n".join(rep.problems[:30])
    assert rep.checked >= min_figures, f"{label}: only {rep.checked} figures drawn, expected >= {min_figures}"
    bp = board_problems(rep.boards)
    assert not bp, f"{label}: " + "\n".join(bp)
    return rep


_JS_WIDGET_OUTPUTS = (
    "async ({path}) => {"
    + _JS_PRELUDE
    + r"""
  const panel = findPanel();
  if (!panel) return {error: 'notebook not open'};
  let manager = null;
  for (const cell of panel.content.widgets) {
    for (const child of (cell.outputArea ? cell.outputArea.widgets : [])) {
      for (const w of (child.widgets || [])) if (w._manager && w._manager.promise) manager = await w._manager.promise;
    }
  }
  const out = [];
  panel.content.widgets.forEach((cell, index) => {
    if (cell.model.type !== 'code') return;
    cell.model.outputs.toJSON().forEach((o, k) => {
      const d = o.data && o.data['application/vnd.jupyter.widget-view+json'];
      if (!d) return;
      const node = cell.outputArea && cell.outputArea.widgets[k] ? cell.outputArea.widgets[k].node : null;
      out.push({cell: index, model: d.model_id, text: node ? node.textContent.slice(0, 60) : '(not rendered)',
                known: manager ? manager.has_model(d.model_id) : null});
    });
  });
  return {restored: manager ? manager.restoredStatus : null, outputs: out};
}"""
)


def widget_output_report(page, notebook_name: str) -> str:
    """What the page's widget outputs show and what the page's widget manager and the kernel know of their models
    (for a failure message: an output that says "model not found" is a widget the restore did not bring back)."""
    try:
        info = page.evaluate(_JS_WIDGET_OUTPUTS, {"path": notebook_name})
        live = json.loads(kernel_eval(page, notebook_name, "__import__('json').dumps(sorted(k for k, w in __import__("
                                                          "'ipywidgets').widgets.widget._instances.items() "
                                                          "if getattr(w, 'comm', None) is not None))"))
    except Exception as exc:            # a report only: never hide the real failure
        return f" (no widget report: {exc})"
    rows = [f"cell {o['cell']}: model {o['model'][:8]} page knows it: {o['known']}, kernel: "
            f"{'yes' if o['model'] in live else 'NO'}, shows {o['text']!r}" for o in info.get("outputs", [])]
    return f" [widget manager restored: {info.get('restored')}; " + "; ".join(rows) + "]"


def play_animations(page, notebook_name: str, timeout_s: float = WAIT_S) -> int:
    """Press the play button of every animated figure (plotly frames, e.g. ``ttr.board_animation``) with the mouse
    and wait until it shows its last frame: its caption is the last frame's. Returns how many were played."""
    n = page.evaluate("""() => {
      window.__ttrAnims = Array.from(document.querySelectorAll('.jp-Notebook .js-plotly-plot'))
        .filter((gd) => ((gd._transitionData || {})._frames || []).length > 1);
      return window.__ttrAnims.length; }""")
    for i in range(n):
        page.evaluate("(i) => window.__ttrAnims[i].scrollIntoView({block: 'center'})", i)
        settle(page)
        box = page.evaluate("""(i) => {
          const b = window.__ttrAnims[i].querySelector('.updatemenu-button');
          const r = b.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; }""", i)
        page.mouse.click(box["x"], box["y"])
        wait_until(lambda: page.evaluate("""(i) => {
              const gd = window.__ttrAnims[i], frames = gd._transitionData._frames;
              const texts = (annotations) => JSON.stringify((annotations || []).map((a) => a.text));
              return texts(gd.layout.annotations) === texts(frames[frames.length - 1].layout.annotations); }""", i),
                   f"{notebook_name}: animation {i + 1} of {n} played to its last frame", timeout_s, page=page)
    return n


# ------------------------------------------------------------------------------------------- screenshots ---

def save_screenshot(page, name: str, locator=None) -> Path:
    """Save ``tests/browser/artifacts/NAME.png`` (of ``locator`` scrolled into view, or the page)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if locator is not None:
        locator.scroll_into_view_if_needed()
    page.screenshot(path=str(path))
    return path


def settle(page) -> None:
    """Wait two animation frames: what was just scrolled or changed is painted (a condition, not a sleep)."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


SCREEN_SIZES = [(1440, 900), (1024, 768)]


def _figures_in_view_drawn(page, timeout_s: float = WAIT_S) -> None:
    """Wait until every figure view on the screen has drawn (a screenshot of a board still drawing shows an empty
    frame); a figure that does not draw is for check_figures to report, not for the screenshot to wait on."""
    try:
        wait_until(lambda: page.evaluate("""() => Array.from(document.querySelectorAll('.ttr-figure')).every((el) => {
              const r = el.getBoundingClientRect();
              const seen = r.bottom > 0 && r.top < window.innerHeight && r.width > 0;
              return !seen || el.dataset.ttrDrawn === '1'; })"""), "the figures on the screen drew", timeout_s,
                   page=page)
        settle(page)
    except WaitTimeout:
        pass


def screenshots_of_notebook(page, notebook_name: str, stem: str, max_views: int = 8) -> list[Path]:
    """At 1440×900 and 1024×768: the notebook's top, and each widget view / figure output scrolled to the top
    of the panel (at most ``max_views``). Restores the viewport afterwards."""
    before = page.viewport_size
    shots = []
    try:
        for w, h in SCREEN_SIZES:
            page.set_viewport_size({"width": w, "height": h})
            page.evaluate("() => { const n = document.querySelector('.jp-WindowedPanel-outer'); if (n) n.scrollTop = 0; }")
            page.wait_for_function("() => document.querySelector('.jp-Notebook') !== null")
            shots.append(save_screenshot(page, f"{stem}-{w}x{h}-00-top"))
            n = page.evaluate(r"""() => {
              const outs = Array.from(document.querySelectorAll('.jp-Notebook .jp-OutputArea-output'))
                .filter((o) => o.querySelector('.js-plotly-plot, .widget-box, .jupyter-widgets'));
              window.__ttrShots = outs; return outs.length; }""")
            step = max(1, -(-n // max_views))
            for k, i in enumerate(range(0, n, step)):
                page.evaluate("(i) => window.__ttrShots[i].scrollIntoView({block: 'start'})", i)
                settle(page)
                _figures_in_view_drawn(page)
                shots.append(save_screenshot(page, f"{stem}-{w}x{h}-{k + 1:02d}"))
    finally:
        if before:
            page.set_viewport_size(before)
    return shots


# ----------------------------------------------------------------------------------------- widget views ---

def find_view(page, selector: str, min_plots: int):
    """The widget view matching ``selector``, scrolled into sight with its first board drawn; also checks that
    at least ``min_plots`` plotly figures drew in the page."""
    from playwright.sync_api import expect

    view = page.locator(selector)
    expect(view).to_have_count(1, timeout=WAIT_S * 1000)
    view.scroll_into_view_if_needed()
    view.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=WAIT_S * 1000)
    n_plots = page.evaluate("() => document.querySelectorAll('.js-plotly-plot').length")
    assert n_plots >= min_plots, f"only {n_plots} plotly figures in the page"
    return view


def keep_tickets(view, labels, status) -> None:
    """Tick the checkboxes of ``labels`` in a PlayView and press keep; waits until it is Blue's turn."""
    from playwright.sync_api import expect

    def box(label):
        return view.locator(".widget-checkbox", has_text=label).locator("input[type=checkbox]")

    # The panel may still be (re)drawn while the first clicks land (a loaded machine): a tick that did not take
    # is ticked again, and every box is checked once more, as the user sees them, before "keep".
    for _round in range(4):
        for label in labels:
            try:
                box(label).check(timeout=WAIT_S * 250)
            except Exception:
                pass
        if all(box(label).is_checked() for label in labels):
            break
    for label in labels:
        expect(box(label)).to_be_checked(timeout=WAIT_S * 1000)
    view.get_by_role("button", name="keep", exact=True).click()
    expect(status).to_contain_text("Blue to play", timeout=WAIT_S * 1000)


# Pixel position (page coordinates) of a route's click marker on the first board inside ``selector``.
_JS_MARKER_XY = r"""
([selector, routeId]) => {
  const plots = Array.from(document.querySelectorAll(selector + ' .js-plotly-plot'));
  const gd = plots.find((p) => p.data && p.data.some((t) => t.meta === 'routes')) || plots[0];
  if (!gd || !gd._fullLayout) return {error: 'no plot in ' + selector};
  const i = gd.data.findIndex((t) => t.meta === 'routes');
  if (i < 0) return {error: `no routes trace in ${plots.length} plot(s)`};
  const j = Array.from(gd.data[i].customdata).indexOf(routeId);
  if (j < 0) return {error: 'no marker for ' + routeId};
  gd.scrollIntoView({block: 'center'});
  const fl = gd._fullLayout;
  const box = gd.getBoundingClientRect();
  return {
    x: box.left + fl.xaxis._offset + fl.xaxis.l2p(gd.data[i].x[j]),
    y: box.top + fl.yaxis._offset + fl.yaxis.l2p(gd.data[i].y[j]),
    traces: gd.data.length,
  };
}
"""


def route_marker_xy(page, selector: str, route_id: str) -> dict:
    """Scroll the board of ``selector`` into view and return the page coordinates of ``route_id``'s marker."""
    xy = page.evaluate(_JS_MARKER_XY, [selector, route_id])
    assert "error" not in xy, xy
    return xy


_JS_HOVERED = r"""
([selector, routeId]) => {
  const gd = Array.from(document.querySelectorAll(selector + ' .js-plotly-plot'))
      .find((p) => p.data && p.data.some((t) => t.meta === 'routes'));
  return !!(gd && gd._hoverdata && gd._hoverdata.some((p) => p.customdata === routeId));
}
"""


def click_route_marker(page, selector: str, route_id: str, done: Callable[[], Any] | None = None,
                       attempts: int = 4) -> None:
    """Click ``route_id``'s marker as a user does: point at it until plotly shows that route's hover (plotly
    turns a click into ``plotly_click`` only for the point it is hovering), then click. On a loaded machine the
    board may still be moving (scrolled into view, resized to its box, redrawn by a patch that arrived between
    the hover and the click — a redraw forgets the hover) when the coordinates are read: then the coordinates
    are read again and the pointer moved again. ``done``: a probe that is truthy once the view answered the
    click; while it is not, the click is repeated, as a user would (selecting a route twice is harmless)."""
    per_try_s = WAIT_S / attempts
    for attempt in range(attempts):
        xy = route_marker_xy(page, selector, route_id)
        page.mouse.move(xy["x"] - 3, xy["y"] - 3)
        page.mouse.move(xy["x"], xy["y"], steps=2)
        try:
            page.wait_for_function(_JS_HOVERED, arg=[selector, route_id], timeout=per_try_s * 1000, polling="raf")
        except Exception:
            if attempt == attempts - 1:
                raise WaitTimeout(f"the pointer on {route_id}'s marker never showed its hover ({attempts} tries)")
            continue
        page.mouse.click(xy["x"], xy["y"])
        if done is None:
            return
        try:
            wait_until(done, f"the view answered the click on {route_id}", per_try_s, page=page)
            return
        except WaitTimeout:
            if attempt == attempts - 1:
                raise
