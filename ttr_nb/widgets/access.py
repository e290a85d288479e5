"""``Access``: the part of every view that is for keyboards and screen readers (issue 21).

One small anywidget per view, placed inside it. It draws nothing visible; in the browser it

* holds a polite live region (``role="status"``): ``say(text)`` announces a line there (the status, a refusal, the
  bots' moves) — only text the view already shows to its viewer, so an announcement never tells a secret;
* names what ipywidgets leaves unnamed (``labels``: CSS selector -> accessible name, e.g. the history's play
  buttons and its slider);
* keeps the keyboard focus inside the view: when the focused control disappears or is disabled (the ticket
  panel after "keep", the payment buttons after a claim), focus goes to the first of ``focus_order`` that can take
  it, instead of falling to the page (where JupyterLab's shortcuts would take the next keys);
* gives the view's controls a focus ring of 3:1 or better (``ACCESS_CSS``) and lets its buttons wrap instead of
  being cut ("Un…") when the view is narrow (a 200 % zoom beside JupyterLab's file panel); a view narrower than
  ``NARROW_VIEW_PX`` stacks what sat side by side (a CSS container query on the view).

Kernel side, ``spoken`` keeps what was announced (for tests and for a teacher's log).

Under load anywidget may give up on this widget's model (it was not ready within 2 s) and then drops every message
to it: an ``Access`` is ``Resilient`` (``resilient.py``), so a model that stopped answering is replaced by a fresh
one in its view, and the old object passes what it is told to say on to the fresh one.
"""
from __future__ import annotations

from typing import Sequence

import traitlets

from ..render.palette import BUTTON_FILLS, FOCUS_GAP, FOCUS_RING
from .resilient import RESILIENT_JS, Resilient

#: the class every ttr_nb view's outer box carries (the scope of ``ACCESS_CSS`` and of focus keeping)
VIEW_CLASS = "ttr-view"
#: a view this narrow (px) or narrower (200 % zoom beside JupyterLab's file panel: about 270 px) stacks what sat
#: side by side: rows wrap, a list box's label goes above it, no column keeps a minimum width
NARROW_VIEW_PX = 480

ACCESS_CSS = f"""
.{VIEW_CLASS} :focus-visible {{
  outline: 3px solid {FOCUS_RING} !important; outline-offset: 2px !important;
  box-shadow: 0 0 0 2px {FOCUS_GAP} !important;
}}
.{VIEW_CLASS} .widget-button, .{VIEW_CLASS} .widget-toggle-button {{
  white-space: normal; height: auto; min-height: var(--jp-widgets-inline-height, 28px); line-height: 1.25;
  overflow: visible; text-overflow: clip; max-width: 100%; flex-shrink: 0;
}}
.{VIEW_CLASS} .widget-toggle-buttons {{ flex-wrap: wrap; height: auto; }}
.{VIEW_CLASS} .lm-TabBar-tab, .{VIEW_CLASS} .lm-TabBar-tabLabel, .{VIEW_CLASS} .jupyter-widget-Collapse-header,
.{VIEW_CLASS} .jupyter-widget-Collapse-header span, .{VIEW_CLASS} .lm-AccordionPanel-title,
.{VIEW_CLASS} .lm-AccordionPanel-title span, .{VIEW_CLASS} .lm-AccordionPanel-titleLabel {{ color: #333333 !important; }}
.{VIEW_CLASS} .widget-toggle-buttons .widget-toggle-button {{ margin-bottom: 2px; }}
{"".join(f".{VIEW_CLASS} .jupyter-button.mod-{k}:not(:disabled), .{VIEW_CLASS} .jupyter-button.mod-{k}.mod-active "
         f"{{ background-color: {v}; color: #ffffff; }}" + chr(10) for k, v in BUTTON_FILLS.items())}
.{VIEW_CLASS} {{ container-type: inline-size; }}
@container (max-width: {NARROW_VIEW_PX}px) {{
  .{VIEW_CLASS} .widget-hbox, .{VIEW_CLASS} .widget-select {{ flex-wrap: wrap; }}
  .{VIEW_CLASS} .widget-select {{ margin-left: 0; margin-right: 0; }}
  .{VIEW_CLASS} .widget-select > select {{ min-width: 0; flex: 1 1 100%; }}
  .{VIEW_CLASS} .ttr-side {{ margin-left: 0 !important; min-width: 0 !important; flex: 1 1 100% !important; }}
  .{VIEW_CLASS} .ttr-players td {{ white-space: normal !important; }}
  .{VIEW_CLASS} table {{ max-width: 100%; }}
}}
.ttr-sr-only {{
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}}
"""

_ESM = RESILIENT_JS + r"""
const FOCUSABLE = 'button, select, input, textarea, summary, [tabindex]:not([tabindex="-1"])';
const OWN_KEYS_ON = 'button, select, input, textarea, summary, [role="slider"], [role="listbox"]';
const NAV_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown",
                          " ", "Enter"]);
function usable(node) {
  return node && !node.disabled && node.getAttribute("tabindex") !== "-1" && node.getClientRects().length > 0
    && getComputedStyle(node).visibility !== "hidden";
}
export default {
  initialize({ model }) { listenForHold(model); },
  render({ model, el }) {
    el.classList.add("ttr-access");
    const region = document.createElement("div");
    region.className = "ttr-sr-only ttr-live";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "false");
    el.append(region);
    let root = null;
    let inside = false;       // the keyboard focus was last inside this view
    const label = () => {
      if (!root) return;
      for (const [sel, name] of model.get("labels") || []) {
        for (const node of root.querySelectorAll(sel)) {
          if (node.getAttribute("aria-label") !== name) node.setAttribute("aria-label", name);
          if (!node.title && node.tagName === "BUTTON") node.title = name;
        }
      }
    };
    const restore = () => {
      if (!root || !inside) return;
      const now = document.activeElement;
      if (now && now !== document.body && root.contains(now) && usable(now)) return;
      if (now && now !== document.body && !root.contains(now)) {
        // focus moved somewhere else on purpose (JupyterLab's notebook takes it when it is lost): only pull it
        // back when it went to the notebook itself, not into another control
        if (!now.classList.contains("jp-Notebook") && !now.classList.contains("jp-Cell")
            && !now.classList.contains("jp-OutputArea-output")) { inside = false; return; }
      }
      for (const sel of [...(model.get("focus_order") || []), FOCUSABLE]) {
        const target = [...root.querySelectorAll(sel)].find(usable);
        if (target) { target.focus(); return; }
      }
    };
    let pending = false;
    const later = () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; label(); restore(); });
    };
    const onFocusIn = (ev) => { inside = Boolean(root && root.contains(ev.target)); };
    // keys a control of the view uses (a list's arrows, a button's Enter and Space) stay with it: JupyterLab's
    // command mode would otherwise take them (ArrowDown moved to the next cell, Enter opened the editor)
    const onKey = (ev) => {
      const t = ev.target;
      if (!t || !t.matches || !t.matches(OWN_KEYS_ON)) return;
      if (NAV_KEYS.has(ev.key) || (t.tagName === "SELECT" && ev.key.length === 1)) ev.stopPropagation();
    };
    const mo = new MutationObserver(later);
    const attach = () => {
      root = el.closest("." + model.get("view_class"));
      if (!root) return false;
      // a fresh model that took a lost one's place (resilient.py) keeps the focus where it was
      inside = root.contains(document.activeElement);
      document.addEventListener("focusin", onFocusIn, true);
      root.addEventListener("keydown", onKey);
      mo.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["disabled", "style", "class"] });
      label();
      return true;
    };
    // the widget is put in the page after render(): wait until it is
    const waiter = new MutationObserver(() => { if (attach()) waiter.disconnect(); });
    requestAnimationFrame(() => { if (!attach()) waiter.observe(document.body, { childList: true, subtree: true }); });
    model.on("change:labels", label);
    const onMsg = (msg) => {
      if (!msg || msg.type !== "say" || !msg.text) return;
      const line = document.createElement("p");
      line.textContent = msg.text;
      region.append(line);
      while (region.childElementCount > 4) region.firstElementChild.remove();
    };
    model.on("msg:custom", onMsg);
    const bye = greet(model, {}, null);
    return () => {
      bye();
      waiter.disconnect();
      mo.disconnect();
      document.removeEventListener("focusin", onFocusIn, true);
      if (root) root.removeEventListener("keydown", onKey);
      model.off("msg:custom", onMsg);
      model.off("change:labels", label);
    };
  },
};
"""


class Access(Resilient):
    """See the module docstring. ``view_class``: the CSS class of the view this widget sits in."""

    _esm = _ESM
    _css = ACCESS_CSS
    view_class = traitlets.Unicode(VIEW_CLASS).tag(sync=True)
    labels = traitlets.List(traitlets.List(traitlets.Unicode())).tag(sync=True)
    focus_order = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, *, labels: Sequence[tuple[str, str]] = (), focus_order: Sequence[str] = (), **kwargs):
        super().__init__(labels=[[s, n] for s, n in labels], focus_order=list(focus_order), **kwargs)
        self.layout.height = "0px"
        self.layout.overflow = "hidden"
        self.spoken: list[str] = []
        self._status = ""

    def _fresh(self) -> "Access":
        """A new model with the same names and focus order; it goes on with the same ``spoken`` list."""
        fresh = Access(labels=[tuple(x) for x in self.labels], focus_order=self.focus_order,
                       view_class=self.view_class, hello_timeout_ms=self.hello_timeout_ms)
        fresh.spoken = self.spoken
        fresh._status = self._status
        return fresh

    def say(self, text: str) -> None:
        """Announce ``text`` (polite: after what the screen reader is saying). Empty text says nothing."""
        target = self.current()
        text = " ".join(str(text or "").split())
        if not text:
            return
        target.spoken.append(text)
        del target.spoken[:-50]
        target.send({"type": "say", "text": text})

    def status(self, text: str) -> None:
        """Announce the view's status line when it changed since the last call."""
        target = self.current()
        text = " ".join(str(text or "").split())
        if text and text != target._status:
            target._status = text
            target.say(text)

    def follow(self, message) -> None:
        """Announce whatever ``message`` (a ``MessageArea``) shows from now on: refusals and notes."""
        message.listen(lambda text, is_error: self.say(("Not allowed: " if is_error else "") + text))


def accessible(box, access: Access):
    """Make ``box`` (a view's outer ipywidgets Box) a ttr_nb view: the view class and ``access`` inside it."""
    box.add_class(VIEW_CLASS)
    box.children = (*box.children, access)
    return box


__all__ = ["ACCESS_CSS", "Access", "VIEW_CLASS", "accessible"]
