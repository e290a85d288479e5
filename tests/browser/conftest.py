"""Real-browser test harness: a JupyterLab server and Debian's Chromium driven by Python Playwright.

Fixtures
    lab_server  (session)  JupyterLab on a free 127.0.0.1 port, root_dir = a temp copy of notebooks/
                           (tests never touch committed notebooks); ``.url``, ``.root_dir``, ``.log_path``;
                           its kernels import ttr_nb from this checkout
    browser     (session)  Playwright Chromium from /usr/bin/chromium (never ``playwright install``)
    page        (function) a fresh 1200x1500 page; every console message is collected (``console``); on failure
                           its screenshot and console log are saved; after the test its kernels are shut down
    console     (function) the page's ``ConsoleLog``: ``console.assert_clean()`` fails on any console error or
                           warning not explained by ``labhelpers.ALLOWED_CONSOLE``; the fixture checks it again
                           after the test (an error of the test's teardown if a message came after the last check)

Helpers live in labhelpers.py; artefacts go to tests/browser/artifacts/ (git-ignored).

Tests marked ``@pytest.mark.browser`` skip when Chromium (or playwright) is missing, with the reason
below, except under ``TTR_NB_REQUIRE_BROWSER=1`` (set by .ci/test.sh), where that is an error.
"""
from __future__ import annotations

import os

import pytest

from labhelpers import ARTIFACTS, CHROMIUM, ConsoleLog, ServerError, chromium_browser, lab_server_running

SKIP_REASON = "Chromium not installed: run bash .ci/setup.sh --browser"
VIEWPORT = {"width": 1200, "height": 1500}


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


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    base = tmp_path_factory.mktemp("jupyterlab")
    try:
        with lab_server_running(base, ARTIFACTS / "jupyterlab-server.log") as server:
            yield server
    except ServerError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def browser():
    _require_browser()
    with chromium_browser() as chromium:
        yield chromium


_CONSOLE = pytest.StashKey[ConsoleLog]()


@pytest.fixture
def page(browser, lab_server, request):
    """A fresh page per test; on failure, saves artifacts/<test>-failure.png and <test>-console.log."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(90_000)
    pg = context.new_page()
    log = ConsoleLog().attach(pg)
    request.node.stash[_CONSOLE] = log
    try:
        yield pg
    finally:
        reports = request.node.stash.get(_REPORTS, {})
        stem = request.node.name.replace("/", "_").replace("[", "-").replace("]", "")
        if any(r.failed for r in reports.values()):
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            try:
                pg.screenshot(path=str(ARTIFACTS / f"{stem}-failure.png"))
            except Exception as exc:  # the page may be gone; the log still helps
                log.lines.append(f"[harness] screenshot failed: {exc}")
            (ARTIFACTS / f"{stem}-console.log").write_text("\n".join(log.lines) + "\n")
        context.close()
        lab_server.shutdown_kernels()


@pytest.fixture
def console(page, request):
    log = request.node.stash[_CONSOLE]
    yield log
    reports = request.node.stash.get(_REPORTS, {})
    if "call" in reports and reports["call"].passed and len(log.bad) > log.checked:
        log.assert_clean("after the test's last check")


def pytest_collection_modifyitems(config, items):
    """Run browser tests last: fast tests report first, and ``-x`` stops before a browser starts."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
