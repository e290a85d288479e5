"""Build steps that run *inside the Lite build venv* (which has ``packaging`` and ``nbconvert``).

Run as a script by :mod:`ttr_nb.lite`, never imported by ttr_nb itself::

    python _venv_steps.py lock WHEEL_DIR LOCK_IN LOCK_OUT ROOT [ROOT ...]
    python _venv_steps.py html TEMPLATE OUT_DIR NOTEBOOK [NOTEBOOK ...]

``lock`` writes a ``pyodide-lock.json`` for the wheels in WHEEL_DIR: the closure of ROOT names under the
browser's environment markers (Python 3.14, sys_platform emscripten), with each wheel's own sha256, so
Pyodide installs them all from the site and asks no CDN. ``html`` writes the static, kernel-free copies
of the notebooks (their committed outputs; plotly figures drawn by a local plotly.min.js).
"""
from __future__ import annotations

import hashlib
import json
import sys
import zipfile
from email.parser import HeaderParser
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename


def _metadata(wheel: Path):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = next(n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA"))
        headers = HeaderParser().parsestr(z.read(meta).decode("utf-8"))
        tops = set()
        for n in names:
            head = n.split("/", 1)[0]
            if head.endswith((".dist-info", ".data")):
                continue
            if "/" in n:
                tops.add(head)
            elif n.endswith(".py"):
                tops.add(n[:-3])
    return headers, sorted(t for t in tops if t.isidentifier())


def lock(wheel_dir: str, lock_in: str, lock_out: str, roots: list[str], python: str) -> None:
    env = {
        "python_version": ".".join(python.split(".")[:2]), "python_full_version": python,
        "sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
        "platform_machine": "wasm32", "implementation_name": "cpython",
        "platform_python_implementation": "CPython", "implementation_version": python,
        "platform_release": "", "platform_version": "", "extra": "",
    }
    wheels = {}
    for whl in sorted(Path(wheel_dir).glob("*.whl")):
        name, version, _build, tags = parse_wheel_filename(whl.name)
        if not any(t.platform == "any" for t in tags):
            raise SystemExit(f"{whl.name} is not a pure-Python wheel; the browser kernel cannot use it")
        if name in wheels:
            raise SystemExit(f"two wheels for {name}: {wheels[name][0].name} and {whl.name}")
        wheels[name] = (whl, str(version))
    packages, todo = {}, [canonicalize_name(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in packages:
            continue
        if name not in wheels:
            raise SystemExit(f"no wheel for {name!r} (needed in the browser) in {wheel_dir}")
        whl, version = wheels[name]
        headers, imports = _metadata(whl)
        depends = []
        for text in headers.get_all("Requires-Dist") or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate(env):
                dep = canonicalize_name(req.name)
                if dep not in depends:
                    depends.append(dep)
        packages[name] = {
            "name": name, "version": version, "file_name": whl.name, "install_dir": "site",
            "sha256": hashlib.sha256(whl.read_bytes()).hexdigest(), "package_type": "package",
            "imports": imports, "depends": sorted(depends), "unvendored_tests": False,
        }
        todo.extend(depends)
    info = json.loads(Path(lock_in).read_text())["info"]
    Path(lock_out).write_text(json.dumps({"info": info, "packages": dict(sorted(packages.items()))}, indent=1))
    unused = sorted(set(wheels) - set(packages))
    print(json.dumps({"packages": sorted(packages), "unused": unused}))


_WIDGET_NOTE = ('<p class="ttr-widget-note"><em>An interactive view: it works when the notebook runs '
                '(open it in JupyterLite from the index page).</em></p>')


def _static_outputs(nb) -> None:
    """Give plotly figures and widget views an HTML form that a kernel-free page can show offline."""
    count = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data")
            if not data:
                continue
            fig = data.get("application/vnd.plotly.v1+json")
            if fig is not None and "text/html" not in data:
                count += 1
                div = f"ttr-plot-{count}"
                payload = json.dumps({"data": fig.get("data", []), "layout": fig.get("layout", {})})
                payload = payload.replace("</", "<\\/")
                height = int((fig.get("layout") or {}).get("height") or 500)
                data["text/html"] = (
                    f'<div id="{div}" class="ttr-static-plot" style="height:{height}px"></div>'
                    f'<script>(function(){{var f={payload};'
                    f'Plotly.newPlot("{div}",f.data,f.layout,{{displaylogo:false,responsive:true}});}})();</script>')
            elif "application/vnd.jupyter.widget-view+json" in data:
                data["text/html"] = _WIDGET_NOTE
                data.pop("text/plain", None)


def static_html(template: str, out_dir: str, notebooks: list[str]) -> None:
    import nbformat
    from nbconvert import HTMLExporter

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter(template_name="lab", template_file=template)
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        nb.metadata.pop("widgets", None)
        _static_outputs(nb)
        body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": Path(path).stem}})
        (out / (Path(path).stem + ".html")).write_text(body, encoding="utf-8")
        print(Path(path).stem)


def main(argv: list[str]) -> None:
    if argv[0] == "lock":
        lock(argv[1], argv[2], argv[3], argv[5:], python=argv[4])
    elif argv[0] == "html":
        static_html(argv[1], argv[2], argv[3:])
    else:
        raise SystemExit(f"unknown step {argv[0]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
