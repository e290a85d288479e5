"""``ttr-nb lite build OUT``: an offline JupyterLite site with ttr_nb and its notebooks.

The site is a static folder: any web server (or ``python -m http.server``) serves it, and a browser runs
the notebooks in Pyodide (Python compiled to WebAssembly) with nothing installed. Everything in it comes
from the package index (PyPI) and the npm registry at build time; nothing is fetched from a CDN when it runs.

How it is built (every download is cached, so a second build takes seconds plus ``jupyter lite build``):

1. A *build venv* under the cache (never the project's venv) with ``jupyterlite-core``,
   ``jupyterlite-pyodide-kernel``, ``nbconvert`` and the front-end extensions (``jupyterlab_widgets``,
   ``anywidget``, ``plotly``) at the versions the browser kernel gets.
2. The Pyodide runtime from the npm package ``pyodide`` at the kernel's ``PYODIDE_VERSION`` (``npm pack``).
3. The browser's wheels with pip (pure-Python ``py3-none-any`` wheels for Python 3.14), plus the kernel's
   own wheels from the pyodide-kernel extension and the ttr-nb wheel; ``pyodide-lock.json`` is written
   for exactly those wheels (own sha256, dependencies under the browser's markers), so it works with the
   build venv on Python 3.11 (the ``[lock]`` extra of the kernel would need 3.12).
4. ``jupyter lite build``; every locked package is pre-loaded when the kernel starts (no ``%pip``), and the
   kernel's start-up file (``kernel_startup.py``) imports plotly and the widgets and draws one board off-screen,
   so the first board after "Run All" is quick.
5. Static HTML copies of the notebooks (committed outputs; plotly boards drawn by a local plotly.js) in
   ``read/``, and an ``index.html`` linking both.

The rules core never imports this module.
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import TTRError

JUPYTERLITE_VERSION = "0.8.6"
PYODIDE_VERSION = "314.0.6"        # must equal jupyterlite_pyodide_kernel.constants.PYODIDE_VERSION (checked)
PYODIDE_PYTHON = "3.14.2"          # the CPython inside that Pyodide (its lock's info.python; checked)
BUILD_TOOLS = (
    f"jupyterlite-core=={JUPYTERLITE_VERSION}",
    f"jupyterlite-pyodide-kernel=={JUPYTERLITE_VERSION}",
    "jupyter_server>=2",          # the contents addon indexes files/ with it
    "nbconvert>=7.16",
)
# What the notebooks import in the browser (besides ttr-nb and its own dependencies) and what the kernel
# itself loads. micropip is always loaded by the kernel; comm/ipython/jedi are the kernel's dependencies;
# nbformat because plotly's ``fig.show()`` refuses to render without it (pure-Python wheels only: pip
# picks the jsonschema that needs no compiled rpds-py).
BROWSER_SPECS = ("ipywidgets>=8.1", "anywidget>=0.9", "plotly>=6.1.1", "nbformat>=4.2", "micropip", "comm",
                 "ipython", "jedi", "openskill>=6")     # openskill: the tournament ratings of 07_write_a_bot
# Front-end extensions: installed into the build venv at the same version as the browser's wheel.
FRONTEND_PACKAGES = ("jupyterlab-widgets", "anywidget", "plotly")
# Shipped inside the pyodide-kernel extension (not on PyPI in these forms): the kernel, piplite, a stub
# ipykernel and a stub widgetsnbextension (ipywidgets needs one; the real one is a classic-notebook extension).
KERNEL_WHEELS = ("ipykernel", "piplite", "pyodide_kernel", "widgetsnbextension-4")
PYODIDE_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "package.json", "pyodide-lock.json")
SITE_MARKER = ".ttr-nb-lite-site"
LITE_KERNEL = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
STEPS = Path(__file__).with_name("_venv_steps.py")
# In the browser: the kernel's IPython runs this file as it starts (imports + one board drawn off-screen).
STARTUP = f"/lib/python{PYODIDE_PYTHON.rsplit('.', 1)[0]}/site-packages/ttr_nb/lite/kernel_startup.py"

Log = Callable[[str], None]


@dataclass
class BuildReport:
    out: Path
    seconds: float
    size_bytes: int
    files: int
    notebooks: list[str]
    packages: list[str]
    timings: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        steps = ", ".join(f"{k} {v:.1f} s" for k, v in self.timings.items())
        return (f"JupyterLite site in {self.out}: {self.size_bytes / 1e6:.1f} MB in {self.files} files, "
                f"{len(self.notebooks)} notebooks, {len(self.packages)} Python packages pre-loaded; "
                f"built in {self.seconds:.1f} s ({steps})")


def default_cache() -> Path:
    env = os.environ.get("TTR_NB_LITE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ttr-nb" / "lite"


def source_root() -> Path | None:
    """The source checkout this ttr_nb runs from (has pyproject.toml and notebooks/), or None."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "notebooks").is_dir():
        return root
    return None


def _run(cmd: list[str], what: str, cwd: Path | None = None, env: dict | None = None) -> str:
    try:
        done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError as e:
        raise TTRError(f"{what}: {e.filename} not found") from None
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-25:])
        raise TTRError(f"{what} failed (exit {done.returncode}): {' '.join(map(str, cmd[:4]))} ...\n{tail}")
    return done.stdout


def _key(*parts: object) -> str:
    return hashlib.sha256(json.dumps([str(p) for p in parts]).encode()).hexdigest()[:12]


def _pip(venv: Path) -> list[str]:
    return [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "--no-input"]


def _build_venv(cache: Path, log: Log) -> Path:
    """The venv with the build tools (created once per tool set and Python)."""
    version = ".".join(map(str, sys.version_info[:3]))
    venv = cache / f"venv-py{version}-{_key(*BUILD_TOOLS)}"
    stamp = venv / ".ttr-nb-tools"
    if stamp.is_file():
        return venv
    log(f"creating the build venv {venv} (Python {version})")
    shutil.rmtree(venv, ignore_errors=True)
    _run([sys.executable, "-m", "venv", venv], "creating the build venv (Debian: apt-get install python3-venv)")
    _run(_pip(venv) + ["install", "--quiet", *BUILD_TOOLS], "installing the JupyterLite build tools")
    found = _run([venv / "bin" / "python", "-c",
                  "from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION as v; print(v)"],
                 "reading the kernel's Pyodide version").strip()
    if found != PYODIDE_VERSION:
        raise TTRError(f"jupyterlite-pyodide-kernel wants Pyodide {found}, ttr_nb.lite pins {PYODIDE_VERSION}")
    stamp.write_text("\n".join(BUILD_TOOLS) + "\n")
    return venv


def _pyodide_runtime(cache: Path, log: Log) -> Path:
    """The npm package ``pyodide`` unpacked (cached)."""
    target = cache / f"pyodide-{PYODIDE_VERSION}"
    if all((target / f).is_file() for f in PYODIDE_FILES):
        return target
    if shutil.which("npm") is None:
        raise TTRError("npm not found: the Pyodide runtime comes from the npm registry "
                       "(Debian: apt-get install npm, or install Node.js)")
    log(f"fetching the Pyodide runtime: npm pack pyodide@{PYODIDE_VERSION}")
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        name = _run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--silent", "--pack-destination", tmp],
                    "npm pack pyodide").strip().splitlines()[-1]
        with tarfile.open(Path(tmp) / name) as tar:
            members = [m for m in tar.getmembers() if m.isfile() and m.name.startswith("package/")
                       and "/" not in m.name[len("package/"):]]
            unpacked = Path(tmp) / "unpacked"
            unpacked.mkdir()
            for m in members:
                src = tar.extractfile(m)
                assert src is not None
                (unpacked / m.name[len("package/"):]).write_bytes(src.read())
        missing = [f for f in PYODIDE_FILES if not (unpacked / f).is_file()]
        if missing:
            raise TTRError(f"the npm package pyodide@{PYODIDE_VERSION} lacks {missing}")
        info = json.loads((unpacked / "pyodide-lock.json").read_text())["info"]
        if info.get("python") != PYODIDE_PYTHON:
            raise TTRError(f"pyodide@{PYODIDE_VERSION} runs Python {info.get('python')}, expected {PYODIDE_PYTHON}")
        shutil.rmtree(target, ignore_errors=True)
        unpacked.rename(target)
    return target


def _kernel_wheels(venv: Path) -> list[Path]:
    pypi = next(venv.glob("share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"))
    found = []
    for prefix in KERNEL_WHEELS:
        hits = sorted(pypi.glob(f"{prefix}*-py3-none-any.whl"))
        if len(hits) != 1:
            raise TTRError(f"expected one {prefix} wheel in {pypi}, found {[h.name for h in hits]}")
        found.append(hits[0])
    return found


def _browser_wheels(venv: Path, cache: Path, ttr_wheel: Path, log: Log) -> Path:
    """All wheels the browser needs except ttr-nb, resolved once per spec set (cached)."""
    kernel = _kernel_wheels(venv)
    requires = _wheel_requires(ttr_wheel)
    specs = sorted({*BROWSER_SPECS, *requires})
    folder = cache / f"wheels-{_key(PYODIDE_PYTHON, *specs, *(k.name for k in kernel))}"
    done = folder / ".resolved"
    if done.is_file():
        return folder
    log(f"downloading the browser's wheels with pip: {', '.join(specs)}")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    stubs = folder / ".stubs"
    stubs.mkdir()
    for whl in kernel:
        shutil.copy2(whl, folder / whl.name)
    stub = next(w for w in kernel if w.name.startswith("widgetsnbextension"))
    shutil.copy2(stub, stubs / stub.name)
    stub_version = stub.name.split("-")[1]
    _run(_pip(venv) + ["download", "--quiet", "--dest", folder, "--only-binary=:all:", "--platform", "any",
                       "--implementation", "py", "--abi", "none",
                       "--python-version", ".".join(PYODIDE_PYTHON.split(".")[:2]),
                       "--find-links", stubs, *specs, f"widgetsnbextension=={stub_version}"],
         "pip download (the browser's wheels)")
    shutil.rmtree(stubs)
    done.write_text("\n".join(specs) + "\n")
    return folder


def _wheel_requires(wheel: Path) -> list[str]:
    """ttr-nb's own (non-extra) requirements, from its wheel's METADATA."""
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        lines = z.read(meta).decode("utf-8").splitlines()
    return [line.split(":", 1)[1].strip() for line in lines
            if line.startswith("Requires-Dist:") and "extra ==" not in line]


def _frontend(venv: Path, wheels: Path, log: Log) -> None:
    """Install the front-end extensions at the browser wheels' versions into the build venv."""
    pins = []
    for name in FRONTEND_PACKAGES:
        stem = name.replace("-", "_")
        hits = sorted(wheels.glob(f"{stem}-*.whl"))
        if len(hits) != 1:
            raise TTRError(f"expected one {stem} wheel in {wheels}, found {[h.name for h in hits]}")
        pins.append(f"{name}=={hits[0].name.split('-')[1]}")
    stamp = venv / ".ttr-nb-frontend"
    if stamp.is_file() and stamp.read_text().split() == pins:
        return
    log(f"installing the front-end extensions into the build venv: {', '.join(pins)}")
    _run(_pip(venv) + ["install", "--quiet", *pins], "installing the front-end extensions")
    stamp.write_text("\n".join(pins) + "\n")


def _ttr_wheel(root: Path | None, wheel: Path | None, venv: Path, work: Path, log: Log) -> Path:
    if wheel is not None:
        if not (wheel.is_file() and wheel.name.startswith("ttr_nb-") and wheel.suffix == ".whl"):
            raise TTRError(f"--wheel {wheel}: not a ttr_nb-*.whl file")
        return wheel
    if root is None:
        raise TTRError("this ttr_nb is not a source checkout: pass --wheel (the ttr_nb wheel to put in the site)")
    log(f"building the ttr-nb wheel from {root}")
    dest = work / "dist"
    _run(_pip(venv) + ["wheel", "--quiet", "--no-deps", "--wheel-dir", dest, root], "building the ttr-nb wheel")
    return next(dest.glob("ttr_nb-*.whl"))


def _notebooks(folder: Path) -> list[Path]:
    found = sorted(folder.glob("*.ipynb"))
    if not found:
        raise TTRError(f"no notebooks (*.ipynb) in {folder}")
    return found


_IMAGE_LINK = re.compile(r"!\[([^\]]*)\]\((?![a-z]+:|/)([^)\s]+\.(?:png|jpe?g|gif|svg))\)")
_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
                ".svg": "image/svg+xml"}


def _inline_images(cell: dict, folder: Path) -> None:
    """Relative images in markdown become data: addresses. JupyterLab first sets the raw address on the
    <img> and only then resolves it, so a relative path (or an attachment:) is requested from the page as
    is: a 404 (or an unknown-scheme error) in Lite."""
    source = "".join(cell.get("source", []))

    def inline(m: re.Match) -> str:
        path = folder / m.group(2)
        if not path.is_file():
            return m.group(0)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return f"![{m.group(1)}](data:{_IMAGE_TYPES[path.suffix.lower()]};base64,{data})"

    new = _IMAGE_LINK.sub(inline, source)
    if new != source:
        cell["source"] = new.splitlines(keepends=True)


def _lite_notebook(src: Path, dest: Path) -> None:
    """Copy for the browser: Lite's kernel is named ``python``; outputs cleared (the kernel makes them);
    relative images inlined."""
    nb = json.loads(src.read_text(encoding="utf-8"))
    nb.setdefault("metadata", {})["kernelspec"] = dict(LITE_KERNEL)
    nb["metadata"].pop("widgets", None)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        elif cell.get("cell_type") == "markdown":
            _inline_images(cell, src.parent)
    dest.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


_READ_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}<script src="plotly.min.js" charset="utf-8"></script>{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""

_INDEX = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ttr_nb notebooks</title>
<!-- JupyterLite's apps read their base settings from this element of the root page: keep it. -->
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{{}}</script>
<style>body{{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}}
td{{padding:.3rem .8rem .3rem 0}}</style></head>
<body><h1>ttr_nb — Ticket to Ride notebooks</h1>
<p>Everything runs in this browser: Python starts inside the page (the first start takes a little while),
nothing is installed and nothing is sent anywhere. Changes are kept in this browser only.</p>
<table>
{rows}
</table>
<p><a href="lab/index.html">Open JupyterLab with all notebooks</a></p>
</body></html>
"""


def _index(out: Path, names: list[str]) -> None:
    rows = "\n".join(
        f'<tr><td>{html.escape(n)}</td><td><a href="lab/index.html?path={html.escape(n)}.ipynb">run it</a></td>'
        f'<td><a href="read/{html.escape(n)}.html">read it (no Python)</a></td></tr>' for n in names)
    (out / "index.html").write_text(_INDEX.format(rows=rows), encoding="utf-8")


def _prepare_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise TTRError(f"{out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / SITE_MARKER).is_file():
        raise TTRError(f"{out} is not empty and not a site built by ttr-nb lite build: choose another folder")


def _prepare_cache(cache: Path) -> None:
    """The download and build-tool cache: a folder this build can write (created if missing), else a TTRError
    saying what to do — before any download starts."""
    where = f"--cache {cache}"
    if cache.exists() and not cache.is_dir():
        raise TTRError(f"{where}: is a file, not a folder; give a folder for the downloads and build tools "
                       f"(default {default_cache()})")
    try:
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=cache):        # the one sure test that we may write there (root included)
            pass
    except OSError as e:
        raise TTRError(f"{where}: cannot write there ({e.strerror or e}); give a folder you may write to, e.g. "
                       f"{default_cache()}") from None


def build(out: str | Path, *, cache: str | Path | None = None, notebooks: str | Path | None = None,
          wheel: str | Path | None = None, log: Log = print) -> BuildReport:
    """Build the site into ``out`` (replacing a site this command built there before)."""
    started = time.perf_counter()
    timings: dict[str, float] = {}
    out = Path(out).resolve()
    _prepare_out(out)
    cache = Path(cache) if cache else default_cache()
    _prepare_cache(cache)
    root = source_root()
    if notebooks:
        nb_dir = Path(notebooks)
    else:
        from ..shipped import notebooks_dir
        nb_dir = notebooks_dir()
    sources = _notebooks(nb_dir)

    def lap(name: str, t0: float) -> float:
        now = time.perf_counter()
        timings[name] = now - t0
        return now

    t = time.perf_counter()
    venv = _build_venv(cache, log)
    runtime = _pyodide_runtime(cache, log)
    t = lap("tools", t)
    with tempfile.TemporaryDirectory(prefix="ttr-nb-lite-") as tmp:
        work = Path(tmp)
        ttr_wheel = _ttr_wheel(root, Path(wheel) if wheel else None, venv, work, log)
        wheels = _browser_wheels(venv, cache, ttr_wheel, log)
        _frontend(venv, wheels, log)
        t = lap("wheels", t)

        lite = work / "lite"
        pyodide_dir = lite / "static" / "pyodide"
        pyodide_dir.mkdir(parents=True)
        for f in PYODIDE_FILES:
            if f != "pyodide-lock.json":
                shutil.copy2(runtime / f, pyodide_dir / f)
        pool = work / "pool"
        pool.mkdir()
        for whl in [*wheels.glob("*.whl"), ttr_wheel]:
            shutil.copy2(whl, pool / whl.name)
        roots = ["ttr-nb", *(s.split(">")[0].split("=")[0] for s in BROWSER_SPECS),
                 "piplite", "ipykernel", "pyodide-kernel"]
        result = json.loads(_run([venv / "bin" / "python", STEPS, "lock", pool, runtime / "pyodide-lock.json",
                                  pyodide_dir / "pyodide-lock.json", PYODIDE_PYTHON, *roots],
                                 "writing pyodide-lock.json").strip().splitlines()[-1])
        locked = json.loads((pyodide_dir / "pyodide-lock.json").read_text())["packages"]
        for entry in locked.values():
            shutil.copy2(pool / entry["file_name"], pyodide_dir / entry["file_name"])
        packages = result["packages"]

        files = lite / "files"
        files.mkdir()
        for src in sources:
            _lite_notebook(src, files / src.name)
        for sub in sorted(p for p in nb_dir.iterdir() if p.is_dir() and not p.name.startswith(".")):
            shutil.copytree(sub, files / sub.name, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        (lite / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {
                "appName": "ttr_nb",
                "litePluginSettings": {
                    "@jupyterlite/pyodide-kernel-extension:kernel": {
                        "disablePyPIFallback": True,
                        "loadPyodideOptions": {"packages": packages, "env": {"PYTHONSTARTUP": STARTUP}},
                    },
                },
            },
        }, indent=1))
        (lite / "jupyter_lite_config.json").write_text(json.dumps({
            "LiteBuildConfig": {"apps": ["lab"], "contents": ["files"], "no_sourcemaps": True,
                                "no_unused_shared_packages": True},
        }, indent=1))
        (lite / "overrides.json").write_text(json.dumps({
            "@jupyterlab/apputils-extension:notification": {"checkForUpdates": False, "fetchNews": "false"},
        }, indent=1))
        staged = work / "site"
        env = dict(os.environ)
        env.pop("JUPYTER_PATH", None)
        log("jupyter lite build")
        _run([venv / "bin" / "jupyter", "lite", "build", "--lite-dir", lite, "--output-dir", staged],
             "jupyter lite build", cwd=lite, env=env)
        t = lap("lite build", t)

        read = staged / "read"
        read.mkdir()
        template = work / "read.html.j2"
        template.write_text(_READ_TEMPLATE)
        _run([venv / "bin" / "python", STEPS, "html", template, read, *sources], "nbconvert (static copies)")
        plotly_wheel = pyodide_dir / locked["plotly"]["file_name"]
        with zipfile.ZipFile(plotly_wheel) as z:
            (read / "plotly.min.js").write_bytes(z.read("plotly/package_data/plotly.min.js"))
        for sub in sorted(p for p in nb_dir.iterdir() if p.is_dir() and not p.name.startswith(".")):
            shutil.copytree(sub, read / sub.name, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        _index(staged, [s.stem for s in sources])
        (staged / SITE_MARKER).write_text(json.dumps({"ttr_nb_wheel": ttr_wheel.name, "packages": packages}))
        t = lap("static copies", t)

        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staged), str(out))
    size = files_n = 0
    for p in out.rglob("*"):
        if p.is_file():
            size += p.stat().st_size
            files_n += 1
    return BuildReport(out=out, seconds=time.perf_counter() - started, size_bytes=size, files=files_n,
                       notebooks=[s.stem for s in sources], packages=packages, timings=timings)
