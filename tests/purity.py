"""Run code in a fresh interpreter with plotly, ipywidgets, IPython and anywidget made unimportable (shared by
the tests that prove a module belongs to the pure rules layer)."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Prelude of every blocked run: ``BLOCKED`` (the names) and ``attempts`` (what tried to import them).
BLOCKER = textwrap.dedent('''
    import importlib.abc, importlib.util, sys
    sys.path.insert(0, {repo!r})
    BLOCKED = ("plotly", "ipywidgets", "IPython", "anywidget")
    attempts = []

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                attempts.append(name)
                raise ImportError(f"{{name}} is blocked: the rules core must not import it")
            return None

    sys.meta_path.insert(0, Blocker())
    for m in BLOCKED:
        assert m not in sys.modules, f"{{m}} was imported before the test started"
''').format(repo=str(REPO))


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=str(REPO), capture_output=True, text=True, timeout=120)


def run_blocked(code: str) -> subprocess.CompletedProcess:
    """``code`` (dedented) after the blocker prelude, in a fresh interpreter."""
    return run_python(BLOCKER + textwrap.dedent(code))
