"""Widgets of our own (anywidget) that keep working when anywidget gives up on them.

anywidget's front end gives each model 2 s to load its module and become "ready". A model that misses this (a
busy machine, many widgets at once) gets none of the kernel's messages ever after: its view keeps the state it
was created with (a live region that never speaks, a board that never shows a claim). And when nothing in the
page was waiting for that model's readiness as the 2 s ran out, the browser reports the failure as an uncaught
error ("[anywidget] Failed to initialize model.").

``Held`` and ``Resilient`` (the base of ``FigureView`` and ``Access``) deal with both:

* Right after a model is created, the kernel sends it one "hold" message. JupyterLab handles a kernel's
  messages one after another, and anywidget makes a model's message wait for that model's readiness; so the
  readiness never fails unobserved (no console error), and before any view of the model is drawn the page knows
  whether the model is alive: its module saw the hold, or the hold was dropped.
* A view of a model that did not see its hold (dropped, or a model rebuilt from the kernel's state after a page
  reload, which sends no hold) says hello; the kernel answers "ack". No answer within ``hello_timeout_ms``
  means the model is lost, and the view asks the kernel for a fresh one (``replace``): a new model of the same
  widget takes its place in every box that shows it, and the old Python object forwards to it (``current``).

A widget's ESM includes ``RESILIENT_JS`` and calls ``listenForHold(model)`` in ``initialize`` and
``greet(model, extra, onLost)`` in ``render`` (it returns the clean-up function).
"""
from __future__ import annotations

import uuid

import anywidget
import ipywidgets as widgets
import traitlets

RESILIENT_JS = r"""
const HELD = (globalThis.__ttr_nb_held__ ??= new Set());
// initialize(): the kernel's hold comes right after the model is ready, before any view of it is made
function listenForHold(model) {
  const key = model.get("_hold_key");
  const onHold = (msg) => {
    if (msg && msg.type === "hold") { HELD.add(key); model.off("msg:custom", onHold); }
  };
  model.on("msg:custom", onHold);
}
// render(): say hello (the kernel answers "ack" and may send more, e.g. the figure as it is now). A model that
// saw its hold is alive; any other gets hello_timeout_ms to be answered, else it is lost: onLost(), and the
// kernel is asked for a fresh model to take this one's place. proof (optional), for a model not known alive:
// proof(lost) listens for a sure sign that this model is deaf and calls lost() on it (sooner than the time
// bound); it returns its clean-up function. greet returns the clean-up function.
function greet(model, extra, onLost, proof) {
  let timer = null;
  let settled = false;
  let unproof = null;
  const lost = () => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    timer = null;
    if (onLost) onLost();
    model.send({ type: "stale" });
  };
  const onAck = (msg) => {
    if (msg && msg.type === "ack") { settled = true; clearTimeout(timer); timer = null; }
  };
  model.on("msg:custom", onAck);
  if (!HELD.has(model.get("_hold_key"))) {
    timer = setTimeout(lost, model.get("hello_timeout_ms"));
    if (proof) unproof = proof(lost);
  }
  model.send(Object.assign({ type: "hello" }, extra || {}));
  return () => {
    settled = true;
    clearTimeout(timer);
    model.off("msg:custom", onAck);
    if (unproof) unproof();
  };
}
"""


class Held(anywidget.AnyWidget):
    """An anywidget whose readiness in the page never fails unobserved: see the module docstring."""

    _hold_key = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs):
        kwargs.setdefault("_hold_key", uuid.uuid4().hex)
        super().__init__(**kwargs)
        self.send({"type": "hold"})


class Resilient(Held):
    """A displayed anywidget that is replaced by a fresh model when its own stops answering (module docstring).

    Subclasses give ``_fresh()`` (a new widget like this one) and may override ``_hello(content)`` (after the
    ack) and ``_message(content)`` (their own messages from the browser)."""

    hello_timeout_ms = traitlets.Int(4000).tag(sync=True)

    def __init__(self, **kwargs):
        self.replaced_by: Resilient | None = None
        super().__init__(**kwargs)
        self.on_msg(self._on_msg)

    def _on_msg(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == "hello":
            self.send({"type": "ack"})
            self._hello(content)
        elif kind == "stale":
            self.replace()
        else:
            self._message(content)

    def _hello(self, content: dict) -> None:
        """After the answer to a view's hello (``content`` is what the view said)."""

    def _message(self, content: dict) -> None:
        """A message of the subclass's own (not hello or stale)."""

    def _fresh(self) -> "Resilient":
        raise NotImplementedError

    def current(self) -> "Resilient":
        """This widget, or the fresh one that took its place (see ``replace``)."""
        view = self
        while view.replaced_by is not None:
            view = view.replaced_by
        return view

    def replace(self) -> "Resilient | None":
        """Put a fresh widget like this one in every box that shows this one, and close this one.

        The browser asks for it when this model does not answer. Returns the new widget, or None when no box
        shows this one (a widget displayed on its own: run its cell again) or it was replaced already.
        """
        from ipywidgets.widgets import widget as _widget_module   # the live widgets (ipywidgets 8 keeps them here)
        if self.replaced_by is not None:
            return None
        live = getattr(_widget_module, "_instances", {})
        boxes = [w for w in list(live.values()) if isinstance(w, widgets.Box) and any(c is self for c in w.children)]
        if not boxes:
            return None
        fresh = self._fresh()
        self.replaced_by = fresh
        for box in boxes:
            box.children = tuple(fresh if c is self else c for c in box.children)
        self.close()
        return fresh


__all__ = ["Held", "RESILIENT_JS", "Resilient"]
