"""Playing by keyboard (issue 21, item 2): choosers that list in words what the board offers to a mouse.

* ``ClaimChooser``: a list box of what the acting seat can claim now — every route it can pay for ("Denver–Santa
  Fe · 2 spaces · gray"; the two tracks of a double route that read the same, once), then the cities where it can
  act (Europe: "station in Wien") — reached by Tab, moved through with the arrow keys. Choosing an entry calls the
  same handler as a click on the board (``PlayView.click_route`` / ``click_city``): the payments appear as buttons
  right after it in the tab order.
* ``OptionList``: for a turn with many similar moves (the Card Game's rail-yard plays): one list box and a "play"
  button instead of a button per move, so a turn takes a handful of tab stops, not forty.

Both are plain ipywidgets (a ``<select>`` list box: one tab stop, arrow keys, its label read by screen readers).
"""
from __future__ import annotations

from typing import Callable, Sequence

import ipywidgets as widgets

#: a chooser shows at most this many rows at once (it scrolls)
ROWS = 6


def route_words(route) -> str:
    """A route in words for a list: cities, length, colour, and what is special about it."""
    extra = []
    if getattr(route, "tunnel", False):
        extra.append("tunnel")
    locos = int(getattr(route, "ferry_locos", 0) or 0)
    if locos:
        extra.append(f"ferry, {locos} locomotive{'s' if locos != 1 else ''}")
    spaces = f"{route.length} space{'s' if route.length != 1 else ''}"
    return " · ".join([f"{route.a}–{route.b}", spaces, route.colour, *extra])


class ClaimChooser:
    """The list of claims (and city actions) for the keyboard; ``update(routes, cities)`` refills it in place.

    ``on_route(route_id)`` and ``on_city(city)`` are called when an entry is chosen (arrow keys or a click).
    """

    def __init__(self, on_route: Callable[[str], object], on_city: Callable[[str], object]):
        self._on_route = on_route
        self._on_city = on_city
        self._syncing = False
        self.head = widgets.HTML()
        self.select = widgets.Select(options=[], value=None, rows=ROWS, description="claim",
                                     layout=widgets.Layout(width="100%"), style={"description_width": "initial"})
        self.select.observe(self._changed, names="value")
        self.widget = widgets.VBox([self.head, self.select], layout=widgets.Layout(width="100%"))
        self.widget.add_class("ttr-chooser")
        self.entries: list[tuple[str, str]] = []
        #: a double route's second track listed as its first (``route:<id>`` -> the listed token)
        self.aliases: dict[str, str] = {}

    def update(self, routes: Sequence, cities: Sequence[tuple[str, str]] = (), selected: str | None = None,
               active: bool = True) -> None:
        """Show ``routes`` (map routes) and ``cities`` ((city, words)); ``selected``: a route id or city to
        show as chosen (a click on the board chose it). ``active`` False: nobody in the view can claim now."""
        entries = []
        # the two tracks of a double route that read the same (two gray tracks) are one entry: either claim is the
        # same move, and a list of look-alike rows is hard to read; a click on the other track shows that entry
        alias: dict[str, str] = {}
        listed: dict[tuple, str] = {}
        for r in sorted(routes, key=lambda r: (r.a, r.b, r.id)):
            words, token = route_words(r), f"route:{r.id}"
            twin = (getattr(r, "double_group", None), words)
            if twin[0] and twin in listed:
                alias[token] = listed[twin]
                continue
            listed[twin] = token
            entries.append((words, token))
        entries += [(f"{words}", f"city:{city}") for city, words in sorted(cities)]
        self.aliases = alias
        if entries != self.entries:
            self._syncing = True
            try:
                self.select.options = entries
                self.entries = entries
            finally:
                self._syncing = False
        self.show(selected)
        n_routes, n_cities = sum(1 for _w, tok in entries if tok.startswith("route:")), len(cities)
        if not active:
            text = "Claims by keyboard: none now (not your turn)"
        elif not entries:
            text = "Claims by keyboard: nothing you can pay for now — draw cards"
        else:
            text = (f"Claims by keyboard: {n_routes} route{'s' if n_routes != 1 else ''} you can pay for"
                    + (f", {n_cities} {'cities' if n_cities != 1 else 'city'}" if n_cities else "")
                    + " (arrow keys choose; the payments follow)")
        self.head.value = f"<span style='font-size:12px;color:#444'>{text}</span>"
        self.select.disabled = not entries
        self.select.rows = max(2, min(ROWS, len(entries)))

    def show(self, selected: str | None) -> None:
        """Show ``selected`` (a route id or a city; None: nothing) as the chosen entry, without choosing it again
        (a click on the board chose it)."""
        want = None
        if selected is not None:
            tokens = {self.aliases.get(f"route:{selected}", f"route:{selected}"), f"city:{selected}"}
            want = next((tok for _w, tok in self.entries if tok in tokens), None)
        if self.select.value != want:
            self._syncing = True
            try:
                self.select.value = want
            finally:
                self._syncing = False

    def choose(self, index: int):
        """Choose entry ``index`` (as listed), as the arrow keys do."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.entries):
            raise IndexError(f"there is no entry number {index!r}; the list has {len(self.entries)}")
        self.select.value = self.entries[index][1]

    def _changed(self, change) -> None:
        if self._syncing or change["new"] is None:
            return
        kind, _, ref = str(change["new"]).partition(":")
        if kind == "route":
            self._on_route(ref)
        else:
            self._on_city(ref)


class OptionList:
    """Many moves as one list box and a "play" button (``on_play(index)`` gets the chosen move's index)."""

    def __init__(self, on_play: Callable[[int], object], label: str = "more moves", button: str = "play"):
        self._on_play = on_play
        self.select = widgets.Select(options=[], value=None, rows=ROWS, description=label,
                                     layout=widgets.Layout(width="100%"), style={"description_width": "initial"})
        self.button = widgets.Button(description=button, button_style="primary", disabled=True,
                                     tooltip="play the move chosen in the list", layout=widgets.Layout(width="auto"))
        self.button.on_click(lambda _b: self.play())
        self.select.observe(lambda c: setattr(self.button, "disabled", c["new"] is None), names="value")
        self.widget = widgets.HBox([self.select, self.button], layout=widgets.Layout(width="100%",
                                                                                      align_items="flex-end"))
        self.widget.add_class("ttr-optionlist")
        self.labels: list[str] = []

    def update(self, items: Sequence[tuple[str, int]]) -> None:
        """``items``: (words, index) of the moves to list; none hides the list."""
        items = list(items)
        labels = [w for w, _i in items]
        if items != list(self.select.options):
            self.select.options = items
            self.select.value = None
        self.labels = labels
        self.select.rows = max(2, min(ROWS, len(items)))
        self.button.disabled = self.select.value is None
        self.widget.layout.display = "" if items else "none"

    def play(self):
        if self.select.value is None:
            return None
        return self._on_play(self.select.value)


def split_options(words: Sequence[str], actions: Sequence, keep: tuple[type, ...], limit: int = 8) -> tuple[list[int], list[int]]:
    """Which options stay buttons and which go into an ``OptionList``: all buttons up to ``limit``; beyond it,
    the ``keep`` kinds (the draws) stay buttons and the rest are listed."""
    idx = list(range(len(actions)))
    if len(idx) <= limit:
        return idx, []
    buttons = [i for i in idx if isinstance(actions[i], keep)]
    return buttons, [i for i in idx if i not in buttons]


__all__ = ["ClaimChooser", "OptionList", "ROWS", "route_words", "split_options"]
