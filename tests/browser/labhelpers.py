"""Helpers for driving JupyterLab in a real Chromium through Python Playwright.

Import from browser tests with ``from labhelpers import open_and_run_all, save_screenshot``
(tests/browser is on sys.path because it has no ``__init__.py``).

What the waits are for (see shared NOTEBOOK_TESTING.md): waiting on the toolbar's "idle" indicator
alone fired "run all" into a kernel that was not connected yet, and no cell ran. So we wait on
JupyterLab's own objects: ``jupyterapp.restored``, the notebook panel's ``context.ready`` and
``sessionContext.ready``, then poll until the kernel is ``connected`` and ``idle``.
"""
from __future__ import annotations

import re
import time
from pathlib import Path
from urllib.parse import quote

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

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
"""

_JS_WAIT_FOR_KERNEL = (
    "async ({path, timeoutMs}) => {"
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
  app.shell.activateById(panel.id);
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

_JS_RUN_ALL = (
    "async ({path, timeoutMs}) => {"
    + _JS_PRELUDE
    + r"""
  const deadline = Date.now() + timeoutMs;
  const panel = findPanel();
  if (!panel) throw new Error(`notebook ${path} is not open`);
  app.shell.activateById(panel.id);
  await withTimeout(app.commands.execute('notebook:run-all-cells'), timeoutMs, `run-all-cells in ${path}`);
  const busyPrompts = () => Array.from(panel.node.querySelectorAll('.jp-InputPrompt'))
      .filter((el) => el.textContent.includes('[*]')).length;
  const runningCells = () => panel.content.widgets
      .filter((c) => c.model.type === 'code' && c.model.executionState === 'running').length;
  let quietSince = null;
  for (;;) {
    const k = panel.sessionContext.session && panel.sessionContext.session.kernel;
    const quiet = k && k.status === 'idle' && busyPrompts() === 0 && runningCells() === 0;
    if (quiet) {
      quietSince = quietSince || Date.now();
      if (Date.now() - quietSince >= 300) break;   // idle for a moment: late comm messages are in
    } else {
      quietSince = null;
    }
    if (Date.now() > deadline) {
      throw new Error(`run-all did not finish in ${timeoutMs} ms: ${kernelState(panel)}, `
        + `${busyPrompts()} prompt(s) show [*]${dialogText()}`);
    }
    await sleep(100);
  }
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


def open_notebook(page, base_url: str, notebook_name: str, timeout_s: float = 120) -> str:
    """Open ``lab/tree/NAME?reset`` and wait until its kernel is connected and idle.

    Returns a short description of the kernel. ``notebook_name`` is relative to the server's root.
    """
    deadline = time.monotonic() + timeout_s
    url = f"{base_url.rstrip('/')}/lab/tree/{quote(notebook_name)}?reset"
    page.goto(url, wait_until="domcontentloaded", timeout=timeout_s * 1000)
    page.wait_for_function("() => !!window.jupyterapp", timeout=timeout_s * 1000)
    return wait_for_kernel(page, notebook_name, max(1.0, deadline - time.monotonic()))


def wait_for_kernel(page, notebook_name: str, timeout_s: float) -> str:
    """Wait (in the page) until the notebook ``notebook_name`` is open and its kernel connected and idle.

    Needs ``window.jupyterapp`` (JupyterLab's ``expose_app_in_browser``; JupyterLite's ``exposeAppInBrowser``).
    """
    return page.evaluate(_JS_WAIT_FOR_KERNEL, {"path": notebook_name, "timeoutMs": int(timeout_s * 1000)})


def run_all(page, notebook_name: str, timeout_s: float = 120, allow_errors: bool = False) -> list[dict]:
    """Run every cell of the open notebook and wait until the kernel is idle and no cell shows ``[*]``.

    Returns one dict per cell (index, type, source, executionCount, errors). Raises AssertionError when a
    cell raised (unless ``allow_errors``) or a non-empty code cell did not run.
    """
    cells = page.evaluate(_JS_RUN_ALL, {"path": notebook_name, "timeoutMs": int(timeout_s * 1000)})
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


def open_and_run_all(page, base_url: str, notebook_name: str, timeout_s: float = 180,
                     allow_errors: bool = False) -> list[dict]:
    """Open a notebook in JupyterLab, wait for its kernel for real, run all cells, wait until done.

    ``timeout_s`` bounds each of the two steps (opening + kernel start, then running).
    """
    open_notebook(page, base_url, notebook_name, timeout_s)
    return run_all(page, notebook_name, timeout_s, allow_errors=allow_errors)


def save_screenshot(page, name: str, locator=None) -> Path:
    """Save ``tests/browser/artifacts/NAME.png`` (of ``locator`` scrolled into view, or the page)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if locator is not None:
        locator.scroll_into_view_if_needed()
    page.screenshot(path=str(path))
    return path


def find_view(page, selector: str, min_plots: int):
    """The widget view matching ``selector``, scrolled into sight with its first board drawn; also checks that
    at least ``min_plots`` plotly figures drew in the page."""
    from playwright.sync_api import expect

    view = page.locator(selector)
    expect(view).to_have_count(1, timeout=60_000)
    view.scroll_into_view_if_needed()
    view.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60_000)
    n_plots = page.evaluate("() => document.querySelectorAll('.js-plotly-plot').length")
    assert n_plots >= min_plots, f"only {n_plots} plotly figures in the page"
    return view


def keep_tickets(view, labels, status) -> None:
    """Tick the checkboxes of ``labels`` in a PlayView and press keep; waits until it is Blue's turn."""
    from playwright.sync_api import expect

    for label in labels:
        view.locator(".widget-checkbox", has_text=label).locator("input[type=checkbox]").check()
    view.get_by_role("button", name="keep", exact=True).click()
    expect(status).to_contain_text("Blue to play", timeout=30_000)
