"""Accessibility checks in the browser: axe-core, contrast from computed styles, keyboard walking.

axe-core comes from the npm registry (``npm pack axe-core@AXE_VERSION``), cached under
``$TTR_NB_AXE_CACHE`` (default ``~/.cache/ttr-nb/axe-core-<version>/axe.min.js``), the way the JupyterLite step
caches Pyodide. If it cannot be had, the test fails and says why: an accessibility check never skips.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

import pytest

AXE_VERSION = "4.14.1"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def axe_source() -> str:
    """The text of axe.min.js (fetched once with npm, then cached)."""
    base = Path(os.environ.get("TTR_NB_AXE_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
                / "ttr-nb")
    target = base / f"axe-core-{AXE_VERSION}" / "axe.min.js"
    if target.is_file():
        return target.read_text(encoding="utf-8")
    if shutil.which("npm") is None:
        pytest.fail(f"axe-core {AXE_VERSION} is not cached at {target} and npm is not installed to fetch it "
                    "(Debian: apt-get install npm)", pytrace=False)
    base.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=base) as tmp:
        run = subprocess.run(["npm", "pack", f"axe-core@{AXE_VERSION}", "--silent", "--pack-destination", tmp],
                             capture_output=True, text=True, timeout=300)
        if run.returncode != 0:
            pytest.fail(f"npm pack axe-core@{AXE_VERSION} failed ({run.returncode}): {run.stderr.strip()[-800:]}",
                        pytrace=False)
        tgz = Path(tmp) / run.stdout.strip().splitlines()[-1]
        with tarfile.open(tgz) as tar:
            member = tar.getmember("package/axe.min.js")
            data = tar.extractfile(member).read()
        target.parent.mkdir(parents=True, exist_ok=True)
        part = target.with_suffix(".part")
        part.write_bytes(data)
        part.replace(target)
    return target.read_text(encoding="utf-8")


def inject_axe(page) -> None:
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())


_JS_AXE = r"""
async ([selector, tags]) => {
  const el = document.querySelector(selector);
  if (!el) return {error: 'no element ' + selector};
  const r = await axe.run(el, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return {violations: r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => ({target: n.target.join(' '), html: n.html.slice(0, 200),
                                                    summary: (n.failureSummary || '').slice(0, 300)}))})),
          incomplete_contrast: r.incomplete ? r.incomplete.filter((v) => v.id === 'color-contrast').length : 0};
}
"""


def axe_violations(page, selector: str) -> list[dict]:
    """axe-core's WCAG 2.1 A/AA + best-practice violations inside ``selector`` (ttr_nb's own output)."""
    inject_axe(page)
    out = page.evaluate(_JS_AXE, [selector, AXE_TAGS])
    assert "error" not in out, out
    return out["violations"]


# WCAG 2.1 contrast of every visible text inside ``selector``, from the computed styles (axe's own contrast rule
# does not run inside JupyterLab). Background: the element's and its ancestors' background colours composited;
# a disabled control (exempt in WCAG) and plotly's SVG (hidden from screen readers, described in words) are skipped.
_JS_CONTRAST = r"""
(selector) => {
  const root = document.querySelector(selector);
  if (!root) return {error: 'no element ' + selector};
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const mix = (top, alpha, base) => base.map((v, i) => top[i] * alpha + v * (1 - alpha));
  const backOf = (el) => {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let base = [255, 255, 255];
    for (const c of layers.reverse()) base = mix(c, c[3], base);
    return base;
  };
  const opacityOf = (el) => { let o = 1; for (let n = el; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity); return o; };
  const bad = [];
  let checked = 0;
  const all = [root, ...root.querySelectorAll('*')];
  for (const el of all) {
    if (el.closest('.js-plotly-plot, [aria-hidden="true"], .ttr-sr-only, :disabled, .mod-disabled, option')) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim()).map((n) => n.textContent.trim()).join(' ');
    const isField = el.matches('select, input[type=text], input[type=number], textarea');
    if (!own && !isField) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const st = getComputedStyle(el);
    const back = backOf(el);
    let fg = parse(st.color);
    if (!fg) continue;
    fg = mix(fg, fg[3] * opacityOf(el), back);
    const size = parseFloat(st.fontSize);
    const bold = Number(st.fontWeight) >= 700;
    const need = (size >= 24 || (bold && size >= 18.66)) ? 3.0 : 4.5;
    const r = ratio(fg, back);
    checked += 1;
    if (r < need) bad.push({text: (own || el.tagName).slice(0, 60), ratio: Math.round(r * 100) / 100, need,
                            color: st.color, background: 'rgb(' + back.map(Math.round).join(',') + ')',
                            where: el.className && el.className.baseVal === undefined ? String(el.className).slice(0, 60) : el.tagName});
  }
  return {checked, bad};
}
"""


def contrast_problems(page, selector: str) -> tuple[int, list[dict]]:
    out = page.evaluate(_JS_CONTRAST, selector)
    assert "error" not in out, out
    return out["checked"], out["bad"]


# The focused element's focus ring: its outline against what is behind it.
_JS_FOCUS_RING = r"""
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {error: 'nothing focused'};
  const st = getComputedStyle(el);
  const parse = (c) => { const m = /rgba?\(([^)]+)\)/.exec(c || ''); return m ? m[1].split(/[\s,\/]+/).filter(Boolean).map(Number) : null; };
  const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  let back = [255, 255, 255];
  for (let n = el.parentElement; n; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor);
    if (c && (c.length < 4 || c[3] >= 1)) { back = c; break; }
  }
  const ring = parse(st.outlineColor);
  const x = lum(ring), y = lum(back);
  return {tag: el.tagName, style: st.outlineStyle, width: parseFloat(st.outlineWidth),
          ratio: (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05), color: st.outlineColor};
}
"""


def focus_ring(page) -> dict:
    return page.evaluate(_JS_FOCUS_RING)


def active_matches(page, selector: str) -> bool:
    return page.evaluate("(sel) => { const a = document.activeElement; return !!(a && a.matches(sel)); }", selector)


def tab_to(page, selector: str, limit: int = 60) -> int:
    """Press Tab (then, if need be, Shift+Tab) until the focused element matches ``selector``; returns how many
    presses it took. Fails if it never gets there."""
    if active_matches(page, selector):
        return 0
    for key, n in (("Tab", limit), ("Shift+Tab", 2 * limit)):
        for i in range(n):
            page.keyboard.press(key)
            if active_matches(page, selector):
                return i + 1
    raise AssertionError(f"Tab never reached {selector!r}; focus is on "
                         + page.evaluate("() => document.activeElement && document.activeElement.outerHTML.slice(0, 200)"))


def wait_focus_inside(page, selector: str, what: str, timeout_ms: int = 30_000) -> None:
    """Wait until the keyboard focus is on a control inside ``selector`` (the view kept it)."""
    try:
        page.wait_for_function("(sel) => { const a = document.activeElement; return !!(a && a !== document.body "
                               "&& a.closest(sel)); }", arg=selector, timeout=timeout_ms)
    except Exception:
        where = page.evaluate("() => document.activeElement ? document.activeElement.outerHTML.slice(0, 160) : 'none'")
        raise AssertionError(f"{what}: the focus left the view (now on {where})") from None
