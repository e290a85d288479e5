"""The browser suite's console check (``labhelpers.ConsoleLog``), without a browser: what JupyterLab itself says
under load passes; anything from ttr_nb, plotly or anywidget, and any error, fails."""
from __future__ import annotations

from labhelpers import ConsoleLog

CORE = "http://127.0.0.1:41234/static/lab/jlab_core.8811dd2733d03721.js?v=8811dd2733d03721"


def test_jupyterlabs_slow_plugin_warnings_pass_and_errors_do_not():
    log = ConsoleLog()
    log._add("warning", "Plugin @jupyterlab/filebrowser-extension:browser is taking too long to activate.", CORE)
    log._add("warning", "Plugin anywidget:plugin (with 0 dependants) took 5981.20ms to activate.", CORE)
    assert log.problems() == []
    bad = [("error", "Error activating @jupyterlab/notebook-extension:tracker", CORE),      # a plugin that failed
           ("warning", "Plugin x is taking too long to activate.", "http://127.0.0.1:1/lab/extensions/other.js"),
           ("error", "Plugin @jupyterlab/x:y is taking too long to activate.", CORE),       # an error, not the warning
           ("pageerror", "[anywidget] Failed to initialize model.", ""),
           ("trace", "WARN: Invalid color specifier: Array(9)", "")]
    for kind, text, url in bad:
        log._add(kind, text, url)
    assert len(log.problems()) == len(bad)


def test_a_test_may_excuse_one_exact_message_and_nothing_else():
    log = ConsoleLog()
    lost = "[anywidget] Failed to initialize model."
    log._add("pageerror", lost, "")
    log._add("pageerror", lost, "")
    log._add("pageerror", lost + " (and more)", "")
    assert log.excuse(f"[pageerror] {lost}") == 2
    assert log.problems() == [f"[pageerror] {lost} (and more)"]
