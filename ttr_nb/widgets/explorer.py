"""``MapExplorer``: pick two cities → the k cheapest paths glow on the board and are listed; buttons show the
ticket difficulty table, city centrality and route ticket-load (the busiest routes glow on the board).
The numbers come from ``ttr_nb.analysis``. What glows is said in words too: in the board's description for screen
readers and its text version (``render.describe.map_text``).
"""
from __future__ import annotations

import ipywidgets as widgets

from ..errors import TTRError
from ..board.maps import Map, load_map
from ._common import BoardWidget, MessageArea, provisional_banner

MAX_PATHS = 4          # highlight layers on the board (render.board.MAX_HIGHLIGHTS)


def _count(n: int, words: str) -> str:
    return f"{n} {words}{'s' if n != 1 else ''}"


class MapExplorer:
    def __init__(self, map: Map | str = "usa", *, a: str | None = None, b: str | None = None, k: int = 3,
                 top_routes: int = 10, board_height: int | None = None):
        self.map = load_map(map) if isinstance(map, str) else map
        cities = sorted(c.name for c in self.map.cities)
        self.banner = widgets.HTML(provisional_banner(self.map))
        self.message = MessageArea()
        self.city_a = widgets.Dropdown(options=cities, value=a if a in cities else cities[0], description="from")
        self.city_b = widgets.Dropdown(options=cities, value=b if b in cities else cities[-1], description="to")
        self.k = widgets.BoundedIntText(value=max(1, min(k, MAX_PATHS)), min=1, max=MAX_PATHS, description="paths",
                                        layout=widgets.Layout(width="150px"))
        self.find_button = widgets.Button(description="cheapest paths", button_style="primary")
        self.find_button.on_click(lambda _b: self.show_paths())
        self.top = widgets.BoundedIntText(value=top_routes, min=1, max=len(self.map.routes), description="top routes",
                                          style={"description_width": "initial"}, layout=widgets.Layout(width="160px"))
        self.tickets_button = widgets.Button(description="ticket difficulty", layout=widgets.Layout(width="auto"))
        self.tickets_button.on_click(lambda _b: self.show_ticket_difficulty())
        self.centrality_button = widgets.Button(description="city centrality", layout=widgets.Layout(width="auto"))
        self.centrality_button.on_click(lambda _b: self.show_centrality())
        self.load_button = widgets.Button(description="route ticket-load", layout=widgets.Layout(width="auto"))
        self.load_button.on_click(lambda _b: self.show_route_load())
        self.clear_button = widgets.Button(description="clear", layout=widgets.Layout(width="auto"))
        self.clear_button.on_click(lambda _b: self.clear())
        self.board = BoardWidget(self.map, on_click=self.click_route, height=board_height)
        self.output = widgets.HTML()
        self.paths: list = []
        self.highlighted: list[tuple[str, list[str]]] = []
        self.rows: list[dict] = []
        self.widget = widgets.VBox([
            self.banner,
            widgets.HBox([self.city_a, self.city_b, self.k, self.find_button], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.tickets_button, self.centrality_button, self.load_button, self.top, self.clear_button],
                         layout=widgets.Layout(flex_flow="row wrap")),
            self.message.widget, self.board.view, self.output,
        ])
        from .access import Access, accessible
        self.access = accessible(self.widget, Access()).children[-1]
        self.access.follow(self.message)
        self._highlight([])

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget)

    def _highlight(self, layers: list[tuple[str, list[str]]], marks: str = "") -> None:
        """Make ``layers`` glow on the board; ``marks``: what they are, in words (else each is said by its routes)."""
        from ..render.describe import map_text
        self.highlighted = layers
        self.board.draw(highlight=layers[:MAX_PATHS])
        self.board.view.describe(*map_text(self.map, highlight=layers[:MAX_PATHS], marks=marks))

    # ------------------------------------------------------------------------------------------------ handlers
    def show_paths(self, a: str | None = None, b: str | None = None, k: int | None = None) -> list:
        """The ``k`` cheapest paths between ``a`` and ``b`` (default: the dropdowns): highlighted + listed."""
        from ..analysis import as_html, cheapest_paths
        try:
            a = self.map.city(a).name if a is not None else self.city_a.value
            b = self.map.city(b).name if b is not None else self.city_b.value
        except TTRError as e:
            self.message.refuse(e)
            return []
        k = self.k.value if k is None else k
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_PATHS:
            self.message.refuse(f"paths: choose 1–{MAX_PATHS} (the board has {MAX_PATHS} highlight colours), got {k!r}")
            return []
        self.city_a.value, self.city_b.value, self.k.value = a, b, k
        if a == b:
            self.message.refuse(f"choose two different cities (both are {a})")
            return []
        try:
            paths = cheapest_paths(self.map, a, b, k)
        except (TTRError, ValueError) as e:
            self.message.refuse(e)
            return []
        self.paths = list(paths)
        if not paths:
            self.message.note(f"{a} and {b} are not connected on this map")
            self._highlight([])
            self.output.value = ""
            return []
        layers = [(f"#{i + 1}: {p.trains} trains", [rid for par in (p.parallel or [(r,) for r in p.routes]) for rid in par])
                  for i, p in enumerate(paths)]
        self._highlight(layers, marks=f"The {_count(len(paths), 'cheapest path')} from {a} to {b} "
                                      f"{'are' if len(paths) != 1 else 'is'} marked: "
                                      + "; ".join(f"#{i + 1}, {p}" for i, p in enumerate(paths)))
        rows = [{"#": i + 1, "trains": p.trains, "routes": p.n_routes, "path": " – ".join(p.cities),
                 "route ids": ", ".join(p.routes)} for i, p in enumerate(paths)]
        self.rows = rows
        self.output.value = as_html(rows, caption=f"The {len(paths)} cheapest path{'s' if len(paths) != 1 else ''} "
                                                  f"{a} → {b}")
        self.message.note(f"cheapest: {paths[0]}")
        return self.paths

    def show_ticket_difficulty(self) -> list[dict]:
        from ..analysis import as_html, ticket_difficulty
        rows = ticket_difficulty(self.map)
        self.rows = rows
        cols = ["id", "ticket", "points", "trains", "routes", "cheapest", "alternatives", "points_per_train", "path"]
        self._highlight([])
        self.output.value = as_html(rows, columns=cols, caption="Ticket difficulty (cheapest trains on an empty board; "
                                                                "more alternatives = harder to block)")
        self.message.note(f"{len(rows)} tickets")
        return rows

    def show_centrality(self) -> list[dict]:
        from ..analysis import as_html, city_centrality
        rows = city_centrality(self.map)
        self.rows = rows
        n = self.top.value
        hubs = [r["city"] for r in rows[:n]]
        routes = sorted({rt.id for c in hubs[:3] for rt in self.map.routes_at(c)})
        self._highlight([("routes at the top 3 hubs", routes)] if routes else [])
        self.output.value = as_html(rows, caption="City centrality (betweenness over train-weighted shortest paths)",
                                    max_rows=max(n, 15))
        self.message.note("most central: " + ", ".join(hubs[:5]))
        return rows

    def show_route_load(self, top: int | None = None) -> list[dict]:
        """Routes on the most tickets' cheapest paths: the top ``top`` glow on the board."""
        from ..analysis import as_html, route_ticket_load
        rows = route_ticket_load(self.map)
        self.rows = rows
        n = self.top.value if top is None else top
        ids = [r["route"] for r in rows[:n] if r["tickets"]]
        self._highlight([(f"top {len(ids)} routes by ticket load", ids)] if ids else [])
        cols = ["route", "a", "b", "length", "colour", "tickets", "share", "ticket_points"]
        self.output.value = as_html(rows, columns=cols, caption="Route ticket-load (tickets whose cheapest paths use the route)",
                                    max_rows=max(n, 15))
        self.message.note(f"highlighted the top {len(ids)} routes")
        return rows

    def click_route(self, route_id: str) -> None:
        try:
            r = self.map.route(route_id)
        except TTRError as e:
            self.message.refuse(e)
            return
        self.message.note(f"{r.a}–{r.b} · {r.length} · {r.colour}"
                          + (" · double route" if r.double_group else "") + (" · tunnel" if r.tunnel else "")
                          + (f" · ferry ({r.ferry_locos} locomotives)" if r.ferry_locos else ""))

    def clear(self) -> None:
        self._highlight([])
        self.output.value = ""
        self.rows = []
        self.paths = []
        self.message.clear()


__all__ = ["MapExplorer"]
