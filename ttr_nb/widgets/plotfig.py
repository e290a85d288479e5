"""Plotly figures in a notebook that always draw: a small anywidget instead of plotly's ``go.FigureWidget``.

Why not ``go.FigureWidget``: each one ships plotly's ~5 MB widget bundle as its own front-end module, and
anywidget gives a model 2 s to load its module before it stops delivering that model's messages for good. On a
busy machine, or with several figures at once, the bundle is late, and the figure stays empty ("Click to enter
Plot title", 0 traces) with no error. Its Python side also refreshes the figure it shows after a page reload
only from the state it was built with, so a reloaded board lost its later claims.

How this module avoids both:

* ``FigureView`` has a module of a few kilobytes, which loads in milliseconds. plotly.js itself comes once per
  page, from the plotly package installed in the kernel (``package_data/plotly.min.js``), through ONE hidden
  ``PlotlyRuntime`` model per kernel. A view waits for it (showing "Drawing ..."), then draws.
* The figure lives in the kernel as a ``LiveFigure`` (a ``go.Figure``): every change made to it (``update_board``,
  ``batch_update``, ``trace.x = ...``) becomes one small patch message, applied in the browser with
  ``Plotly.update``; patches that arrive faster than the browser paints are merged into one redraw.
* Whenever the browser asks for the widget's state (first display, page reload, reopening a notebook whose kernel
  is running), it gets the figure as it is *now*, with a revision number, so stale patches are skipped.
* A view built while hidden (another tab, a closed accordion, off-screen) waits until it has a size, and the
  figure follows its container's width (keeping the board's aspect).
* Even a small module can miss anywidget's 2 s on a loaded machine: a ``FigureView`` whose model stopped
  answering is replaced by a fresh one, without an error in the browser's console (``resilient.py``).

Use ``figure_view(fig)`` to make one; ``view.figure`` is the ``LiveFigure`` to change.
"""
from __future__ import annotations

import importlib.resources
import itertools
import re
from typing import Any

import plotly.graph_objects as go
import traitlets
from ipywidgets import widget_serialization
from plotly.basedatatypes import Undefined

from ..render.figure import figure_text
from .resilient import RESILIENT_JS, Held, Resilient

# The page-wide promise of plotly.js, by version: the runtime resolves it, every figure view awaits it.
_SLOT_JS = r"""
const KEY = "__ttr_nb_plotly__";
function slot(version) {
  const all = (globalThis[KEY] ??= {});
  if (!all[version]) {
    let resolve, reject;
    const promise = new Promise((a, b) => { resolve = a; reject = b; });
    all[version] = { promise, resolve, reject, loading: false };
  }
  return all[version];
}
// Whole drawings of figures take turns, page-wide, with a break for the page between two: many figures drawn at
// once (a notebook's Run All, a page reload) would keep the page busy so long that other widgets' modules do not
// load within anywidget's 2 s (and anywidget then stops delivering their messages).
function inTurn(draw) {
  const KEY = "__ttr_nb_draws__";
  const before = globalThis[KEY] || Promise.resolve();
  const mine = before.then(() => new Promise((r) => setTimeout(r, 0))).then(draw);
  globalThis[KEY] = mine.catch(() => {});
  return mine;
}
"""

_RUNTIME_ESM = _SLOT_JS + r"""
function bytesOf(value) {
  if (value instanceof DataView) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return value;
}
export default {
  initialize({ model }) {
    const s = slot(model.get("js_version"));
    if (s.loading) return;
    s.loading = true;
    // A classic <script> from a Blob URL: the browser parses it off the main thread, so loading plotly.js does
    // not freeze the page (anywidget gives every model 2 s to become ready). plotly.js defines window.Plotly
    // (and, as a UMD bundle, window.moduleName): both are put back as they were.
    const names = ["Plotly", "moduleName"];
    const before = names.map((n) => [n, Object.prototype.hasOwnProperty.call(globalThis, n), globalThis[n]]);
    const url = URL.createObjectURL(new Blob([bytesOf(model.get("source"))], { type: "text/javascript" }));
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.onload = () => {
      const Plotly = globalThis.Plotly;
      for (const [n, had, value] of before) {
        if (had) globalThis[n] = value;
        else if (n === "moduleName") delete globalThis[n];
      }
      URL.revokeObjectURL(url);
      script.remove();
      if (Plotly && Plotly.newPlot) s.resolve(Plotly);
      else { s.loading = false; s.reject(new Error("plotly.js did not define Plotly")); }
    };
    script.onerror = () => { s.loading = false; URL.revokeObjectURL(url); s.reject(new Error("plotly.js failed to load")); };
    document.head.appendChild(script);
  },
};
"""

_FIGURE_ESM = _SLOT_JS + RESILIENT_JS + r"""
const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

// one flush of queued patches: per trace, later values win; layout keys likewise
function merge(ops) {
  const traces = new Map();
  const relayout = {};
  for (const op of ops) {
    for (const [i, props] of op.traces || []) {
      const t = traces.get(i) || {};
      Object.assign(t, props);
      traces.set(i, t);
    }
    for (const [k, v] of Object.entries(op.relayout || {})) {
      // a whole list (e.g. annotations) replaces what was queued for its items
      for (const q of Object.keys(relayout)) if (q.startsWith(k + "[") || q.startsWith(k + ".")) delete relayout[q];
      relayout[k] = v;
    }
  }
  const indexes = [...traces.keys()].sort((a, b) => a - b);
  const restyle = {};
  indexes.forEach((i, slotIndex) => {
    for (const [k, v] of Object.entries(traces.get(i))) {
      if (!(k in restyle)) restyle[k] = new Array(indexes.length).fill(undefined);
      restyle[k][slotIndex] = v;
    }
  });
  return { restyle, relayout, indexes };
}

export default {
  initialize({ model }) { listenForHold(model); },
  async render({ model, el }) {
    el.classList.add("ttr-figure");
    for (const c of (model.get("css_classes") || [])) el.classList.add(c);
    const box = document.createElement("div");
    box.className = "ttr-figure-plot";
    const note = document.createElement("div");
    note.className = "ttr-figure-note";
    note.textContent = model.get("loading_text") || "Drawing ...";
    // Screen readers: the plot is one figure with a name and a generated description (plotly's SVG, whose text
    // would be read as a run of city names, is hidden from them); a collapsed "text version" holds the same
    // description and a table (routes and owners ...), for everyone.
    const uid = "ttr-fig-" + Math.random().toString(36).slice(2, 10);
    box.setAttribute("role", "figure");
    const text = document.createElement("details");
    text.className = "ttr-figure-text";
    const summary = document.createElement("summary");
    const desc = document.createElement("p");
    desc.id = uid + "-desc";
    desc.className = "ttr-figure-desc";
    const table = document.createElement("table");
    table.className = "ttr-figure-table";
    text.append(summary, desc, table);
    const showText = () => {
      box.setAttribute("aria-label", model.get("aria_label") || "figure");
      const d = model.get("description") || "";
      desc.textContent = d;
      if (d) box.setAttribute("aria-describedby", desc.id); else box.removeAttribute("aria-describedby");
      const t = model.get("text_table") || {};
      summary.textContent = t.summary || "Text version";
      table.replaceChildren();
      const rows = t.rows || [];
      if (t.caption) { const c = document.createElement("caption"); c.textContent = t.caption; table.append(c); }
      if ((t.head || []).length) {
        const tr = document.createElement("tr");
        for (const h of t.head) { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; tr.append(th); }
        const thead = document.createElement("thead");
        thead.append(tr);
        table.append(thead);
      }
      const tbody = document.createElement("tbody");
      for (const r of rows) {
        const tr = document.createElement("tr");
        for (const v of r) { const td = document.createElement("td"); td.textContent = String(v); tr.append(td); }
        tbody.append(tr);
      }
      table.append(tbody);
      table.hidden = !rows.length;
      text.hidden = !(d || rows.length);
    };
    showText();
    model.on("change:aria_label", showText);
    model.on("change:description", showText);
    model.on("change:text_table", showText);
    // plotly's SVG text stays out of the accessibility tree; its toolbar stays out of the tab order (the
    // figure's text version says what the picture shows, and the mouse still reaches the toolbar)
    const quiet = () => {
      for (const s of box.querySelectorAll(".main-svg")) s.setAttribute("aria-hidden", "true");
      for (const a of box.querySelectorAll(".modebar-btn, .modebar a")) a.setAttribute("tabindex", "-1");
    };
    el.append(note, box, text);
    let figure = model.get("_figure");
    let rev = model.get("_rev");
    const aspect = () => model.get("aspect");
    // In a play layout (ttr_nb.widgets.playlayout) the figure is never taller than the notebook's visible height
    // less the part of the view above it and --ttr-board-below px under it (the hand and the draws), so the board
    // and the decision at hand are on one screen; with --ttr-board-fit: height (a tall map beside its column) it is
    // as wide as it is drawn at that height, leaving the column at least --ttr-side-min px.
    const cssVar = (name) => getComputedStyle(el).getPropertyValue(name).trim();
    const visibleHeight = () => {
      const scroller = el.closest(".jp-WindowedPanel-outer, .jp-Notebook");
      return scroller && scroller.clientHeight > 0 ? scroller.clientHeight : window.innerHeight;
    };
    const layoutCap = () => {
      const below = parseFloat(cssVar("--ttr-board-below"));
      const view = el.closest(".ttr-playview");
      if (!Number.isFinite(below) || !view) return Infinity;
      const above = el.getBoundingClientRect().top - view.getBoundingClientRect().top;
      // what the view shows under the plot itself (the text version's summary line)
      const own = Math.max(0, el.getBoundingClientRect().height - box.getBoundingClientRect().height);
      return visibleHeight() - above - below - own;
    };
    // A compact layout (--ttr-board-compact: 1, a narrow play view) draws the figure without its title and legend,
    // with the margins its layout.meta.ttr_compact gives: the room goes to the map.
    const compact = () => {
      const c = ((figure.layout || {}).meta || {}).ttr_compact;
      return c && cssVar("--ttr-board-compact") === "1" ? c : null;
    };
    const compacted = (layout) => {
      const c = compact();
      if (!c) return layout;
      return Object.assign(layout, { showlegend: false, title: Object.assign({}, layout.title || {}, { text: "" }),
                                     margin: Object.assign({}, layout.margin || {}, { t: c.top, b: c.bottom }) });
    };
    const sizeOf = () => {
      const a = aspect();
      const c = compact();
      const ew = model.get("extra_width") || 0, eh = c ? c.top + c.bottom : (model.get("extra_height") || 0);
      let cap = model.get("max_height_vh") > 0 ? window.innerHeight * model.get("max_height_vh") / 100 : Infinity;
      cap = Math.max(200, Math.min(cap, layoutCap()));
      if (a > 0 && cssVar("--ttr-board-fit") === "height") {
        const host = el.closest(".ttr-main");
        const room = (host ? host.getBoundingClientRect().width : window.innerWidth)
          - (parseFloat(cssVar("--ttr-side-min")) || 0);
        const w = Math.max(120, Math.floor(Math.min(room, (cap - eh) / a + ew)));
        el.style.width = w + "px";
        return { width: w, height: Math.round(Math.max(50, w - ew) * a) + eh };
      }
      el.style.width = "";
      const w = Math.floor(box.getBoundingClientRect().width || el.getBoundingClientRect().width);
      // the plot area keeps the aspect; the margins (title, legend) keep their pixels
      const plotW = Math.max(w - ew, 50);
      if (a > 0) return { width: w, height: Math.min(Math.round(plotW * a) + eh, Math.round(cap)) };
      // a figure of its own height (the Card Game's table): no taller than the room either, in a play layout
      const own = ((box.layout || {}).height) || ((figure.layout || {}).height);
      return Number.isFinite(layoutCap()) && own ? { width: w, height: Math.min(own, Math.round(cap)) } : { width: w };
    };
    // names drawn smaller on a figure drawn smaller than they are placed for (layout.meta.ttr_names: the trace,
    // the px per data unit they are placed for, their size and the smallest size), so they never overlap: the
    // font and the (invisible) markers that set each name's distance from its point shrink alike, so the names
    // keep the placement's geometry, only smaller
    let nameMarkers = null;
    const fitNames = () => {
      const spec = ((box.layout || {}).meta || {}).ttr_names;
      const full = box._fullLayout;
      if (!spec || !full || !full.xaxis || !box.data || !box.data[spec.trace]) return;
      if (nameMarkers === null) nameMarkers = clone((box.data[spec.trace].marker || {}).size ?? null);
      const ppu = Math.min(full.xaxis._m || Infinity, Math.abs(full.yaxis._m) || Infinity);
      const want = Math.round(10 * Math.max(spec.min_size, spec.size * Math.min(1, ppu / spec.ppu))) / 10;
      const font = box.data[spec.trace].textfont || {};
      if (!Number.isFinite(want) || font.size === want) return;
      const k = want / spec.size;
      const sizes = Array.isArray(nameMarkers) ? nameMarkers.map((m) => m * k) : nameMarkers === null ? null : nameMarkers * k;
      const update = { "textfont.size": want };
      if (sizes !== null) update["marker.size"] = [sizes];
      return Plotly.restyle(box, update, [spec.trace]);
    };
    // a figure of its own height drawn shorter than it is laid out for (layout.meta.ttr_scale: the height and the
    // smallest share; the Card Game's table in a play layout): its markers shrink with it, so neighbouring rows'
    // cards never touch, and its words down to font_min px
    let scaleBase = null;
    let scaleK = 1;
    const fitScale = () => {
      const spec = ((box.layout || {}).meta || {}).ttr_scale;
      const fl = box._fullLayout;
      if (!spec || !fl || !box.data) return;
      if (scaleBase === null) {
        scaleBase = box.data.map((t) => [clone((t.marker || {}).size ?? null), (t.textfont || {}).size ?? null]);
      }
      const k = Math.round(100 * Math.max(spec.min || 0.5, Math.min(1, fl.height / spec.height))) / 100;
      if (k === scaleK) return;
      scaleK = k;
      const times = (v, f) => (Array.isArray(v) ? v.map((x) => f(x)) : f(v));
      const marks = [], fonts = [], mi = [], fi = [];
      scaleBase.forEach(([m, f], i) => {
        if (m !== null) { marks.push(times(m, (x) => x * k)); mi.push(i); }
        if (f !== null) { fonts.push(Math.max(spec.font_min || 0, f * k)); fi.push(i); }
      });
      return Promise.all([mi.length ? Plotly.restyle(box, { "marker.size": marks }, mi) : null,
                          fi.length ? Plotly.restyle(box, { "textfont.size": fonts }, fi) : null]);
    };
    box.style.minHeight = ((figure.layout || {}).height || 400) + "px";

    el.dataset.ttrStep = "loading plotly.js";
    let Plotly;
    try {
      Plotly = await slot(model.get("js_version")).promise;
    } catch (err) {
      note.textContent = "The drawing library did not load (" + err + "). Run this cell again.";
      return;
    }
    // wait until the view has a width: a view built in a hidden tab or a closed panel draws when it is shown
    el.dataset.ttrStep = "waiting for a size";
    await new Promise((resolve) => {
      if (box.getBoundingClientRect().width > 0) return resolve();
      const ro = new ResizeObserver(() => { if (box.getBoundingClientRect().width > 0) { ro.disconnect(); resolve(); } });
      ro.observe(box);
    });

    let queue = [];
    let drawn = false;
    let busy = false;
    // aria-busy on the figure while it is being drawn anew (patches, a resize, a whole figure asked of the kernel):
    // a screen reader waits for the change to finish, and a test knows when the board stands still
    let waitingFigure = false;
    let resizing = false;
    const markBusy = () => {
      if (busy || resizing || waitingFigure || queue.length) el.setAttribute("aria-busy", "true");
      else el.removeAttribute("aria-busy");
    };
    const layoutOf = (fig) => Object.assign(compacted(clone(fig.layout || {})), sizeOf(), { autosize: false });
    const full = async (fig) => {
      await inTurn(() => Plotly.react(box, clone(fig.data || []), layoutOf(fig), model.get("config") || {}));
      scaleBase = null;                 // drawn anew as the kernel has it: at full size again
      scaleK = 1;
      await fitNames();
      await fitScale();
    };
    const flush = async () => {
      if (busy || !drawn) return;
      busy = true;
      markBusy();
      try {
        while (queue.length) {
          let ops = queue;
          queue = [];
          // a whole figure replaces everything queued before it; the patches after it still apply
          const last = ops.map((op) => Boolean(op.figure)).lastIndexOf(true);
          if (last >= 0) {
            await full(ops[last].figure);
            ops = ops.slice(last + 1);
          }
          if (ops.length) {
            const { restyle, relayout, indexes } = merge(ops);
            await Plotly.update(box, restyle, relayout, indexes);
            const c = compact();             // a new title from the kernel: still none in a compact layout
            if (c && Object.keys(relayout).some((k) => /^(title|showlegend|margin)/.test(k))) {
              await Plotly.relayout(box, { showlegend: false, "title.text": "", "margin.t": c.top, "margin.b": c.bottom });
            }
          }
        }
        quiet();
      } finally {
        busy = false;
        markBusy();
      }
    };
    const schedule = () => requestAnimationFrame(() => { flush(); });

    const onMsg = (msg) => {
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "patch") {
        if (msg.rev <= rev) return;
        rev = msg.rev;
        queue.push(...msg.ops);
      } else if (msg.type === "figure") {
        if (msg.rev < rev) return;
        rev = msg.rev;
        queue = [{ figure: msg.figure }];
        waitingFigure = false;
      } else {
        return;
      }
      markBusy();
      schedule();
    };
    model.on("msg:custom", onMsg);

    el.dataset.ttrStep = "drawing";
    await inTurn(() => Plotly.newPlot(box, clone(figure.data || []), layoutOf(figure), model.get("config") || {}));
    await fitNames();
    await fitScale();
    quiet();
    el.dataset.ttrStep = "drawn";
    box.style.minHeight = "";
    note.remove();
    drawn = true;
    el.dataset.ttrDrawn = "1";
    box.on("plotly_click", (ev) => {
      const points = (ev.points || []).map((p) => ({
        trace: p.curveNumber, index: p.pointIndex ?? p.pointNumber, x: p.x, y: p.y,
      }));
      model.send({ type: "click", points });
    });
    // Say hello with the revision drawn: the kernel answers (and sends the figure if patches came meanwhile).
    // A model that stopped answering (resilient.py) is replaced by a fresh one. After a page reload (no hold
    // seen) a slow answer is no reason: the kernel answers twice — to this model, and through the page's one
    // PlotlyRuntime with this model's token — so a view that hears the runtime's word but not its own knows for
    // sure that its model is deaf; the time bound (hello_timeout_ms) is a last resort, for a deaf runtime too.
    let runtimeModel = null;
    try {
      const ref = String(model.get("runtime") || "").replace(/^IPY_MODEL_/, "");
      runtimeModel = ref && model.widget_manager ? await model.widget_manager.get_model(ref) : null;
    } catch (e) {
      runtimeModel = null;              // no runtime to hear from: the time bound alone decides
    }
    const token = model.get("_token");
    const proof = runtimeModel && ((lost) => {
      const onRuntime = (msg) => { if (msg && msg.type === "acked" && msg.token === token) lost(); };
      runtimeModel.on("msg:custom", onRuntime);
      return () => runtimeModel.off("msg:custom", onRuntime);
    });
    const bye = greet(model, { rev }, () => {
      note.textContent = "Reconnecting ...";
      el.prepend(note);
    }, proof);
    schedule();

    // follow the box's width, the window's size and (in a play layout) the view's: a status line that wraps or
    // a decision that appears above the board changes the room; small changes are let be (no jumping board)
    let last = sizeOf();
    let wasCompact = Boolean(compact());
    const resize = async () => {
      if (drawn && Boolean(compact()) !== wasCompact) {
        // the layout became compact (or wide again): draw the whole figure anew, as the kernel has it now
        wasCompact = !wasCompact;
        waitingFigure = true;
        markBusy();
        model.send({ type: "hello", rev: -1 });
        return;
      }
      const now = sizeOf();
      if (!drawn || now.width <= 0) return;
      if (Math.abs(now.width - last.width) < 2 && Math.abs((now.height || 0) - (last.height || 0)) < 16) return;
      last = now;
      resizing = true;
      markBusy();
      try {
        await Plotly.relayout(box, now);
        await fitNames();
        await fitScale();
        quiet();
      } finally {
        resizing = false;
        markBusy();
      }
    };
    const ro = new ResizeObserver(() => { resize(); });
    ro.observe(box);
    // the view's own size too: a status line that wraps or a decision that appears moves the board
    for (const host of [el.closest(".ttr-main"), el.closest(".ttr-playview")]) if (host) ro.observe(host);
    window.addEventListener("resize", resize);
    return () => {
      bye();
      ro.disconnect();
      window.removeEventListener("resize", resize);
      model.off("msg:custom", onMsg);
      model.off("change:aria_label", showText);
      model.off("change:description", showText);
      model.off("change:text_table", showText);
      try { Plotly.purge(box); } catch (e) { /* already gone */ }
    };
  },
};
"""

_CSS = """
.ttr-figure { width: 100%; min-width: 0; }
.ttr-figure-plot { width: 100%; }
.ttr-figure-note { color: #555; font-style: italic; padding: 6px 0; }
.ttr-figure-text { margin: 2px 0 4px; font-size: 13px; color: #222; }
.ttr-figure-text > summary { cursor: pointer; color: #0b3d91; padding: 2px 0; }
.ttr-figure-text > p { margin: 4px 0; max-width: 60em; }
.ttr-figure-table { border-collapse: collapse; }
.ttr-figure-table th, .ttr-figure-table td { text-align: left; padding: 1px 8px 1px 0; border-bottom: 1px solid #ddd; }
.ttr-figure-table caption { text-align: left; font-weight: bold; }
"""

#: plotly's toolbar on every figure: no "Share chart" / cloud upload / Chart Studio button, no plotly logo, only
#: the buttons a learner uses (zoom, pan, reset, save as PNG)
FIGURE_CONFIG: dict = {
    "displaylogo": False, "scrollZoom": False, "showSendToCloud": False, "showEditInChartStudio": False,
    "showLink": False,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d", "zoomIn2d", "zoomOut2d", "sendDataToCloud",
                               "editInChartStudio", "toggleSpikelines", "hoverClosestCartesian",
                               "hoverCompareCartesian"],
}
#: what must never be on a figure's toolbar (checked by the tests, and stripped from any config a caller passes)
FORBIDDEN_BUTTONS = ("sendDataToCloud", "editInChartStudio")


def _safe_config(config: dict | None) -> dict:
    """``config`` (default ``FIGURE_CONFIG``) with the cloud and Chart Studio buttons always removed."""
    out = dict(FIGURE_CONFIG if config is None else config)
    for key in ("showSendToCloud", "showEditInChartStudio", "showLink"):
        out[key] = False
    out["displaylogo"] = False
    remove = list(out.get("modeBarButtonsToRemove") or [])
    out["modeBarButtonsToRemove"] = remove + [b for b in FORBIDDEN_BUTTONS if b not in remove]
    return out


def _title_text(fig: go.Figure) -> str:
    """The figure's title as plain text (for its accessible name)."""
    title = fig.layout.title.text if fig.layout.title is not None else None
    text = re.sub(r"<[^>]+>", " ", str(title or ""))
    return re.sub(r"\s+", " ", text).strip()


def _plotly_js() -> tuple[bytes, str]:
    """plotly.js as installed with the plotly package, and its version (from the file's header)."""
    source = (importlib.resources.files("plotly") / "package_data" / "plotly.min.js").read_bytes()
    m = re.search(rb"plotly\.js v(\d+\.\d+\.\d+\S*)", source[:400])
    version = m.group(1).decode() if m else f"{len(source)}"
    return source, version


class PlotlyRuntime(Held):
    """plotly.js for every ``FigureView`` of this kernel, sent to the page once. Never displayed."""

    _esm = _RUNTIME_ESM
    source = traitlets.Bytes(b"").tag(sync=True)
    js_version = traitlets.Unicode("").tag(sync=True)


_RUNTIME: PlotlyRuntime | None = None
_TOKENS = itertools.count(1)


def plotly_runtime() -> PlotlyRuntime:
    """The kernel's one ``PlotlyRuntime`` (made on first use; made again if someone closed it)."""
    global _RUNTIME
    if _RUNTIME is None or getattr(_RUNTIME, "comm", None) is None:
        source, version = _plotly_js()
        _RUNTIME = PlotlyRuntime(source=source, js_version=version)
    return _RUNTIME


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items() if x is not Undefined}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if hasattr(v, "tolist") and not isinstance(v, (str, bytes)):
        return v.tolist()
    return v


class LiveFigure(go.Figure):
    """A ``go.Figure`` whose every change is forwarded to the ``FigureView`` showing it.

    plotly routes each change of a figure (property assignment, ``update``, ``plotly_update``, the end of a
    ``batch_update``) through ``_send_*_msg`` hooks that do nothing on a plain figure; here they send patches.
    """

    def _ttr_view(self) -> "FigureView | None":
        return self.__dict__.get("_ttr_view_ref")

    def _send_restyle_msg(self, restyle_data, trace_indexes=None, source_view_id=None):
        self._send_update_msg(restyle_data, {}, trace_indexes)

    def _send_relayout_msg(self, layout_data, source_view_id=None):
        self._send_update_msg({}, layout_data, [])

    def _send_update_msg(self, restyle_data, relayout_data, trace_indexes=None, source_view_id=None):
        view = self._ttr_view()
        if view is None:
            return
        if trace_indexes is None:
            trace_indexes = list(range(len(self.data)))
        elif isinstance(trace_indexes, int):
            trace_indexes = [trace_indexes]
        traces = []
        for slot, i in enumerate(trace_indexes):
            props = {}
            for k, v in (restyle_data or {}).items():
                val = v[slot % len(v)] if isinstance(v, list) and v else v
                if val is not Undefined:
                    props[k] = _jsonable(val)
            if props:
                traces.append([int(i), props])
        relayout = {k: _jsonable(v) for k, v in (relayout_data or {}).items() if v is not Undefined}
        if traces or relayout:
            view._patch({"traces": traces, "relayout": relayout})

    def _send_whole(self, *args, **kwargs):
        view = self._ttr_view()
        if view is not None:
            view._resend()

    _send_addTraces_msg = _send_whole
    _send_moveTraces_msg = _send_whole
    _send_deleteTraces_msg = _send_whole
    _send_animate_msg = _send_whole


def _int(v: Any) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return 0


def _figure_json(fig: go.Figure) -> dict:
    return _jsonable(fig.to_plotly_json())


class FigureView(Resilient):
    """Shows a ``LiveFigure`` (``self.figure``) and keeps it drawn; see the module docstring.

    ``aspect`` > 0 makes the figure as wide as its container, and its plot area (the width less ``extra_width``)
    ``aspect`` times as tall as wide, plus ``extra_height`` (margins for a title or a legend); ``max_height_vh``
    > 0 caps the height at that share of the window (so what goes with the figure stays on the screen).
    Clicks on points reach the callbacks registered with ``trace.on_click`` as with ``go.FigureWidget``.
    """

    _esm = _FIGURE_ESM
    _css = _CSS
    _figure = traitlets.Dict().tag(sync=True)
    _rev = traitlets.Int(0).tag(sync=True)
    config = traitlets.Dict().tag(sync=True)
    aspect = traitlets.Float(0.0).tag(sync=True)
    extra_height = traitlets.Int(0).tag(sync=True)
    extra_width = traitlets.Int(0).tag(sync=True)
    max_height_vh = traitlets.Float(0.0).tag(sync=True)     # > 0: never taller than this % of the window
    css_classes = traitlets.List(traitlets.Unicode()).tag(sync=True)
    loading_text = traitlets.Unicode("Drawing ...").tag(sync=True)
    js_version = traitlets.Unicode("").tag(sync=True)
    #: how long a view of a model not known alive waits for any word from the kernel before it asks for a fresh
    #: model (the runtime's word settles it sooner, see the render code): a slow kernel on a busy machine is no
    #: reason to replace a model
    hello_timeout_ms = traitlets.Int(30000).tag(sync=True)
    runtime = traitlets.Instance(PlotlyRuntime, allow_none=True).tag(sync=True, **widget_serialization)
    #: this model's name in the runtime's word that the kernel answered its hello
    _token = traitlets.Unicode("").tag(sync=True)
    #: the figure's accessible name, its generated description (plain text) and its text version as a table
    #: ``{"summary": ..., "caption": ..., "head": [...], "rows": [[...], ...]}`` (see ``describe``)
    aria_label = traitlets.Unicode("").tag(sync=True)
    description = traitlets.Unicode("").tag(sync=True)
    text_table = traitlets.Dict().tag(sync=True)

    def __init__(self, figure: go.Figure, **kwargs):
        fig = figure if isinstance(figure, LiveFigure) else live_figure(figure)
        kwargs.setdefault("_token", f"fv{next(_TOKENS)}")
        self._live = fig
        self._rev_now = 0
        self._dirty = False
        self.patches_sent = 0          # for tests and benchmarks
        rt = plotly_runtime()
        kwargs["config"] = _safe_config(kwargs.get("config"))
        text = figure_text(figure)              # a screen reader's text the figure carries (render.figure)
        if text is not None:
            for key, value in zip(("aria_label", "description", "text_table"), text):
                kwargs.setdefault(key, value)
        kwargs.setdefault("aria_label", _title_text(fig) or "figure")
        super().__init__(_figure=_figure_json(fig), js_version=rt.js_version, runtime=rt, **kwargs)
        object.__setattr__(fig, "_ttr_view_ref", self)

    @property
    def figure(self) -> LiveFigure:
        return self._live

    def describe(self, name: str | None = None, description: str | None = None,
                 table: dict | None = None) -> None:
        """Set what a screen reader gets for this figure: its name, a description, and the text version's table
        (``{"summary", "caption", "head", "rows"}``); None leaves a part as it is. One message, only if changed."""
        with self.hold_sync():
            if name is not None and name != self.aria_label:
                self.aria_label = name
            if description is not None and description != self.description:
                self.description = description
            if table is not None and table != self.text_table:
                self.text_table = table

    # --- kernel -> browser ------------------------------------------------------------------------------
    def _patch(self, op: dict) -> None:
        self._rev_now += 1
        self._dirty = True
        self.patches_sent += 1
        self.send({"type": "patch", "rev": self._rev_now, "ops": [op]})

    def _resend(self) -> None:
        self._rev_now += 1
        self._dirty = True
        self.send({"type": "figure", "rev": self._rev_now, "figure": _figure_json(self._live)})

    def get_state(self, key=None, drop_defaults=False):
        state = super().get_state(key=key, drop_defaults=drop_defaults)
        if "_figure" in state and getattr(self, "_dirty", False):
            # the browser asks for the state (display, reload, reopen): give it the figure as it is now
            state["_figure"] = _figure_json(self._live)
            state["_rev"] = self._rev_now
        return state

    def sync(self) -> None:
        """Store the figure as it is now in the model's state (one message). A view created later — this model
        displayed for the first time after changes, e.g. a view built in advance — then draws the current figure
        at once, instead of the one it was created with followed by the current one."""
        if self._dirty:
            with self.hold_sync():
                self._figure = _figure_json(self._live)
                self._rev = self._rev_now
            self._dirty = False

    # --- browser -> kernel ------------------------------------------------------------------------------
    def _hello(self, content: dict) -> None:
        if self._rev_now > _int(content.get("rev")):
            self.send({"type": "figure", "rev": self._rev_now, "figure": _figure_json(self._live)})
        # the same word through the runtime: a view that hears it but not the ack knows its model is deaf
        rt = self.runtime
        if rt is not None and getattr(rt, "comm", None) is not None:
            rt.send({"type": "acked", "token": self._token})

    def _message(self, content: dict) -> None:
        if content.get("type") == "click":
            self.click(content.get("points") or [])

    def _fresh(self) -> "FigureView":
        """A new model of this figure with the same settings (``Resilient.replace`` puts it in this one's place)."""
        return FigureView(self._live, config=self.config, aspect=self.aspect, extra_height=self.extra_height,
                          extra_width=self.extra_width, max_height_vh=self.max_height_vh,
                          css_classes=list(self.css_classes), loading_text=self.loading_text,
                          hello_timeout_ms=self.hello_timeout_ms, aria_label=self.aria_label,
                          description=self.description, text_table=dict(self.text_table))

    def click(self, points: list[dict]) -> None:
        """Dispatch a click (as the browser reports it: ``[{"trace": i, "index": j}, ...]``) to ``on_click``."""
        from plotly.callbacks import InputDeviceState, Points
        by_trace: dict[int, list[int]] = {}
        for p in points:
            try:
                by_trace.setdefault(int(p["trace"]), []).append(int(p["index"]))
            except (KeyError, TypeError, ValueError):
                continue
        data = self._live.data
        for i, inds in sorted(by_trace.items()):
            if not 0 <= i < len(data):
                continue
            trace = data[i]
            pts = Points(point_inds=inds, xs=[], ys=[], trace_name=trace.name, trace_index=i)
            state = InputDeviceState(ctrl=False, alt=False, shift=False, meta=False, button=0, buttons=1)
            trace._dispatch_on_click(pts, state)


def live_figure(fig: go.Figure) -> LiveFigure:
    """A ``LiveFigure`` copy of ``fig``; what ``ttr_nb.render``'s update functions know about ``fig`` carries over
    (so the first update sends only what changed)."""
    from ..render.board import _transfer_cache
    live = LiveFigure(fig, _validate=False)     # a copy of a figure plotly has validated already
    _transfer_cache(fig, live)
    return live


def figure_view(fig: go.Figure, **kwargs) -> FigureView:
    """Display ``fig`` so that it always draws and follows later changes (see the module docstring)."""
    return FigureView(fig, **kwargs)


__all__ = ["FIGURE_CONFIG", "FigureView", "LiveFigure", "PlotlyRuntime", "figure_view", "live_figure", "plotly_runtime"]
