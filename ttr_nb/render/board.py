"""The board as a plotly figure: pure functions ``map (+ claims) -> go.Figure``. No ipywidgets here.

Plain x/y ``go.Scatter`` traces only (``scattergeo`` fetches its maps from a CDN and draws nothing offline).
``project`` places the cities: real latitude/longitude through a Lambert azimuthal equal-area projection, then
relaxed so that every route space has about the same drawn size, as on the printed boards. Equal aspect.

Trace structure, bottom to top. It depends only on the map and on ``len(player_colours)``, so ``update_board``
changes data, labels and visibility but never the number, order or ``meta`` keys of the traces: a
``FigureWidget`` is updated in place, never rebuilt. Find a trace with ``trace_index(fig, meta_key)``.
Every point of every route trace has ``customdata`` = its route id (``None`` at the line breaks).

=================  =============================================================================================
meta               what
=================  =============================================================================================
highlight:0..3     glowing halo along the routes of ``highlight[i]``; legend name = its label
trail              halo along the trail, piece by piece in trail order; legend name = ``trail_label``
tunnels            dotted dark border around tunnel spaces (legend entry only on maps with tunnels)
outlines           dark outline under every free route space (so white spaces show on the light background)
spaces:<colour>    free route spaces, one short line per space, one trace per card colour + ``spaces:gray``
space-marks        the colour's ``CARD_SYMBOLS`` shape on every space of an open route, in black or white (a cue
                   that needs no colour vision; trains cover it once claimed)
closed             faded spaces of closed routes (USA-CLAIM-8)
claimed-outline    black outline under claimed spaces
seat:0..n-1        spaces claimed by seat i in its colour; legend = player name with the seat's marker symbol
ferries            a locomotive mark (black dot) on each ferry space that needs a locomotive
trail-steps        per trail route: its step number (circle) at 28 % and an arrowhead at 72 % of the way
stations           a triangle in the owner's colour behind the city (Europe); hover "Wien · station of Red"
marked-cities      a ring around each of the viewer's ticket cities (behind the city marker)
cities             city markers (a country, a place no path passes through, is a square); hover: its neighbours
goods              a city's goods stack (Märklin), standing on the city: its top value in a token of the stack's
                   colour, one symbol per colour (white circle, yellow square, red diamond, black hexagon); an
                   emptied stack is a hollow token; hover: the whole stack
passengers         a passenger standing in a city (Märklin): "P" in its owner's colour; hover "Leipzig · Blue's
                   passenger"
routes             ONE marker per route midpoint, ``customdata`` = route id, hover = ``route_hover``: the
                   click target. Symbol per card colour (``CARD_SYMBOLS``) or per owner (``OWNER_SYMBOLS``).
city-names         the city names, on top (each where ``ttr_nb.render.labels`` put it: over no other name and no
                   other city's marker, at every size from the smallest the map's names are placed for)
=================  =============================================================================================

Only the legend traces' ``name``/``showlegend`` follow the labels passed in (player names, highlight labels,
``trail_label``); with the same labels, two calls give the same names.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
from plotly.basedatatypes import Undefined

from ..board.cards import COLOURS, GRAY, PLAYER_COLOURS
from ..errors import TTRError
from .figure import Figure

# --------------------------------------------------------------------------------------------------------------
# Styling tables
# --------------------------------------------------------------------------------------------------------------
USA_POINTS: Mapping[int, int] = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}

#: Fill colour of route spaces, per card colour (+ gray).
CARD_HEX: Mapping[str, str] = {
    "purple": "#b35ad1", "blue": "#2f78dc", "orange": "#f28c1c", "white": "#ffffff", "green": "#3aa64a",
    "yellow": "#f4d01e", "black": "#2a2a2a", "red": "#dd3b31", GRAY: "#a7a7a7",
}
#: Marker symbol of a free route's midpoint marker, per card colour: shape tells colours apart without hue.
CARD_SYMBOLS: Mapping[str, str] = {
    "purple": "diamond", "blue": "square", "orange": "triangle-up", "white": "circle", "green": "pentagon",
    "yellow": "star", "black": "hexagon", "red": "triangle-down", GRAY: "cross",
}
#: Goods tokens (Märklin): fill, symbol and text colour per stack colour; the symbol tells colours apart without hue.
GOODS_STYLE: Mapping[str, tuple[str, str, str]] = {
    "white": ("#ffffff", "circle", "#111111"), "yellow": ("#f4d01e", "square", "#111111"),
    "red": ("#dd3b31", "diamond", "#ffffff"), "black": ("#2a2a2a", "hexagon", "#ffffff"),
}
#: Two-letter code of each card colour (kept for compact labels; the hovers say the colour in words).
CARD_CODES: Mapping[str, str] = {
    "purple": "Pu", "blue": "Bu", "orange": "Or", "white": "Wh", "green": "Gn", "yellow": "Ye", "black": "Bk",
    "red": "Rd", GRAY: "Gy",
}
#: Hex values for the player colour names in ``cards.PLAYER_COLOURS`` (other CSS colours pass through). The seats
#: keep the rule book's train colours as names (USA-COMP-2), but their trains are drawn in deep shades that no card
#: colour uses (``CARD_HEX``), always with a white edge and the owner's symbol: a train never looks like a route.
PLAYER_HEX: Mapping[str, str] = {
    "blue": "#0b2a7a", "red": "#7d0a1e", "green": "#0a4d22", "yellow": "#b07d00", "black": "#000000",
}
#: Marker symbol per seat on claimed routes and stations (distinct from the card-colour symbols).
OWNER_SYMBOLS: tuple[str, ...] = ("circle-x", "square-x", "diamond-x", "star-triangle-up", "hexagram", "bowtie",
                                  "hourglass", "star-square")
#: Glows along routes; the first ("you can claim", the last move) stays >= 10 CIEDE2000 from every route colour with
#: protanopia, deuteranopia and tritanopia too (render/palette.py; an amber glow was lost on yellow routes)
HIGHLIGHT_HEX: tuple[str, ...] = ("#6699ff", "#00b8e6", "#66dd00", "#ff5c8a")
SELECTED_HEX = "#00d5ff"       # the halo of the selected route
MARKED_HEX = "#d81b60"         # the ring around a marked city (the viewer's ticket cities)
MAX_HIGHLIGHTS = len(HIGHLIGHT_HEX)
TRAIL_HEX = "#e6007e"
#: Marker style of the selected route / of the other routes while one is selected (trace "routes").
SELECTED_STYLE: Mapping[str, Any] = {"marker": {"size": 24, "opacity": 1.0}}
UNSELECTED_STYLE: Mapping[str, Any] = {"marker": {"opacity": 0.4}}
BACKGROUND = "#f6f1e4"
INK = "#222222"

# Sizes in screen pixels at the nominal size (1000 px wide, ``height`` tall); converted to data units per map.
_NOMINAL_WIDTH = 1000
_SPACE_W = 7            # width of a free route space
_CLAIM_W = 9            # width of a claimed space
_OUTLINE_EXTRA = 3
_CITY_CLEAR = 9         # gap between a city centre and the first space
_PARALLEL_SEP = 10      # distance between the centre lines of parallel routes
_GAP = 3                # gap between two spaces
_BEND_CLEAR = 12        # a route passing closer than this to another city is bent away from it
_PAD_X, _PAD_Y = 40, 22  # room around the outermost cities (their names go above or below them: _place_labels)
_TITLE_MARGIN = 44
_LEGEND_MARGIN = 46        # room under the map for the legend (two rows of entries)


def _name(x: Any) -> str:
    return x if isinstance(x, str) else getattr(x, "name", str(x))


def _player_hex(colour: str) -> str:
    return PLAYER_HEX.get(colour, colour)


# --------------------------------------------------------------------------------------------------------------
# Projection and geometry
# --------------------------------------------------------------------------------------------------------------
def _laea(map) -> dict[str, tuple[float, float]]:
    """Lambert azimuthal equal-area, centred on the middle of the map's bounding box, in degrees of arc."""
    lats = [c.lat for c in map.cities]
    lons = [c.lon for c in map.cities]
    phi0 = math.radians((min(lats) + max(lats)) / 2)
    lam0 = math.radians((min(lons) + max(lons)) / 2)
    out: dict[str, tuple[float, float]] = {}
    for c in map.cities:
        phi, dlam = math.radians(c.lat), math.radians(c.lon) - lam0
        cosc = math.sin(phi0) * math.sin(phi) + math.cos(phi0) * math.cos(phi) * math.cos(dlam)
        k = math.sqrt(2.0 / (1.0 + cosc))
        x = k * math.cos(phi) * math.sin(dlam)
        y = k * (math.cos(phi0) * math.sin(phi) - math.sin(phi0) * math.cos(phi) * math.cos(dlam))
        out[_name(c)] = (math.degrees(x), math.degrees(y))
    return out


# Board-like layout: stress majorization towards "every space about the same size" (as the printed boards are
# drawn) while all other city pairs keep their true distances. _ROUTE_WEIGHT says how much the route lengths matter
# against geography; no two cities are aimed closer than _MIN_CITY_GAP of the map's width.
_ROUTE_WEIGHT = 15.0
_MIN_CITY_GAP = 0.06
_LAYOUT_ITERATIONS = 300


def project(map, *, board_like: bool = True) -> dict[str, tuple[float, float]]:
    """City name -> (x, y) for an equal-aspect plot; y points north. Deterministic (no randomness, fixed order).

    Starts from real latitude/longitude through a Lambert azimuthal equal-area projection centred on the map
    (units: degrees of arc, 1 ~ 111 km). With ``board_like`` (the default) the layout is then relaxed by stress
    majorization so that a route's drawn length is proportional to its number of spaces + 0.7, as on the printed
    boards (crowded regions such as Benelux open up, long empty routes shrink), while every other pair of cities
    keeps its geographic distance. ``board_like=False`` gives the plain projection.
    """
    geo = _laea(map)
    names = sorted(geo)
    n = len(names)
    if not board_like or n < 3 or not map.routes:
        return {c: (round(geo[c][0], 4), round(geo[c][1], 4)) for c in names}
    idx = {c: i for i, c in enumerate(names)}
    pts = [list(geo[c]) for c in names]
    xs = [p[0] for p in pts]
    gap = _MIN_CITY_GAP * ((max(xs) - min(xs)) or 1.0)
    spaces: dict[tuple[int, int], int] = {}
    for r in map.routes:
        i, j = sorted((idx[_name(r.a)], idx[_name(r.b)]))
        spaces[(i, j)] = max(spaces.get((i, j), 0), int(r.length))
    ratios = sorted(math.dist(pts[i], pts[j]) / (k + 0.7) for (i, j), k in spaces.items())
    unit = ratios[len(ratios) // 2] or 1.0           # median: half the routes get longer, half shorter
    target = [[max(math.dist(pts[i], pts[j]), gap) for j in range(n)] for i in range(n)]
    weight = [[0.0 if i == j else target[i][j] ** -2 for j in range(n)] for i in range(n)]
    for (i, j), k in spaces.items():
        t = max(unit * (k + 0.7), gap)
        target[i][j] = target[j][i] = t
        weight[i][j] = weight[j][i] = _ROUTE_WEIGHT * t ** -2
    for _ in range(_LAYOUT_ITERATIONS):
        for i in range(n):
            xi, yi = pts[i]
            sx = sy = sw = 0.0
            wi, ti = weight[i], target[i]
            for j in range(n):
                if j == i:
                    continue
                xj, yj = pts[j]
                dx, dy = xi - xj, yi - yj
                d = math.hypot(dx, dy) or 1e-9
                w = wi[j]
                sx += w * (xj + ti[j] * dx / d)
                sy += w * (yj + ti[j] * dy / d)
                sw += w
            pts[i] = [sx / sw, sy / sw]
    return {c: (round(pts[idx[c]][0], 4), round(pts[idx[c]][1], 4)) for c in names}


_PROJECTION_CACHE: dict[int, tuple[Any, dict]] = {}

#: The board-like layouts of the shipped maps, computed once by ``project`` and stored (the relaxation is pure Python
#: and takes about a second per map — on every notebook's first board), with the places of their city names
#: (``_label_placement``: a search of about a second too). An entry is used only when its fingerprint
#: (the map's cities, routes and the layout's constants) is the map's: an edited map is laid out afresh. Rebuild with
#: ``write_layouts(stored_layout_keys())``; tests/test_render_board.py checks the stored ones against ``project``.
LAYOUTS_FILE = Path(__file__).with_name("layouts.json")
_STORED_LAYOUTS: dict | None = None


def layout_fingerprint(map) -> str:
    """What ``project(map)`` depends on, hashed: cities with coordinates, routes with lengths, the constants."""
    parts = [f"v1 {_ROUTE_WEIGHT} {_MIN_CITY_GAP} {_LAYOUT_ITERATIONS}"]
    parts += sorted(f"c {_name(c)} {c.lat!r} {c.lon!r}" for c in map.cities)
    parts += sorted(f"r {min(_name(r.a), _name(r.b))} {max(_name(r.a), _name(r.b))} {int(r.length)}" for r in map.routes)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _stored_layout(map) -> dict[str, tuple[float, float]] | None:
    global _STORED_LAYOUTS
    if _STORED_LAYOUTS is None:
        try:
            _STORED_LAYOUTS = json.loads(LAYOUTS_FILE.read_text(encoding="utf-8")).get("maps", {})
        except (OSError, ValueError):
            _STORED_LAYOUTS = {}
    entry = _STORED_LAYOUTS.get(getattr(map, "key", None))
    if not entry or entry.get("fingerprint") != layout_fingerprint(map):
        return None
    pos = {c: (float(x), float(y)) for c, (x, y) in entry["pos"].items()}
    return pos if set(pos) == {_name(c) for c in map.cities} else None


def stored_layout_keys() -> list[str]:
    """The maps whose layouts are stored: those of every registered board game."""
    from ..variants import available_variants, get_variant
    return sorted({get_variant(k).map.key for k in available_variants()})


def write_layouts(keys: Sequence[str]) -> Path:
    """Compute and store the layouts of the maps ``keys`` (e.g. ``["usa", "europe"]``) and the places of their city
    names in ``LAYOUTS_FILE``."""
    from ..board.maps import load_map
    global _STORED_LAYOUTS
    out = {}
    for key in sorted(keys):
        m = load_map(key)
        out[key] = {"fingerprint": layout_fingerprint(m), "pos": {c: list(xy) for c, xy in project(m).items()}}
    _STORED_LAYOUTS = out                  # the names are placed on these layouts
    _PROJECTION_CACHE.clear()
    _LABEL_CACHE.clear()
    for key in sorted(keys):
        m = load_map(key)
        lab = _compute_labels(m)
        out[key]["labels"] = {"fingerprint": label_fingerprint(m), "upp": lab.upp, "slots": lab.slots,
                              **({"broken": list(lab.broken)} if lab.broken else {})}
    LAYOUTS_FILE.write_text(json.dumps({"about": "board-like city layouts and the places of the city names, see "
                                                 "ttr_nb.render.board.LAYOUTS_FILE", "maps": out},
                                       indent=1, sort_keys=True) + "\n", encoding="utf-8")
    _STORED_LAYOUTS = None
    _LABEL_CACHE.clear()
    return LAYOUTS_FILE


def _projected(map) -> dict[str, tuple[float, float]]:
    hit = _PROJECTION_CACHE.get(id(map))
    if hit is not None and hit[0] is map:
        return hit[1]
    pos = _stored_layout(map) or project(map)
    if len(_PROJECTION_CACHE) > 16:
        _PROJECTION_CACHE.clear()
    _PROJECTION_CACHE[id(map)] = (map, pos)
    return pos


class _Geometry:
    """Everything about a map's layout that does not depend on claims; computed once per (map, height)."""

    def __init__(self, map, height: int, *, with_labels: bool = True, note: bool = True):
        self.pos = _projected(map)
        xs = [p[0] for p in self.pos.values()]
        ys = [p[1] for p in self.pos.values()]
        # pixels per data unit at the nominal size: the axis with less room decides, as scaleanchor does
        self.top, self.bottom = _margins(map, note)
        self.upp = 1.0 / _nominal_ppu(map, height, note)
        # the room around the outermost cities holds their names on the smallest board the names are placed for
        #: city -> plotly text position of its name (``_label_placement``)
        self.labels = _label_placement(map) if with_labels else None
        pad = max(self.upp, self.labels.upp) if self.labels is not None else self.upp
        self.x_range = (min(xs) - _PAD_X * pad, max(xs) + _PAD_X * pad)
        self.y_range = (min(ys) - _PAD_Y * pad, max(ys) + _PAD_Y * pad)
        self.routes = {r.id: r for r in map.routes}
        self.order = [r.id for r in map.routes]
        self.centre: dict[str, list[tuple[float, float]]] = {}     # route id -> centre polyline (offset, clipped)
        self.spaces: dict[str, list[list[tuple[float, float]]]] = {}
        self.mid: dict[str, tuple[float, float]] = {}
        self.ends: dict[str, tuple[str, str]] = {}                 # canonical (a, b) of the centre polyline
        self._build(map)
        self._space_xy: dict[str, tuple[list, list, list]] = {}
        self._piece_xy: dict[str, tuple[list, list, list]] = {}
        self._claim_size: dict[str, int] = {}
        self._hover: dict[tuple, str] = {}         # route_hover results (they depend on a few arguments only)
        self.cities: tuple | None = None           # the cities trace's arrays (they never change)

    def piece_xy(self, rid: str) -> tuple[list, list, list]:
        """x, y, customdata of the train pieces on a claimed route: the middle 60 % of each space, so the route's
        own colour stays visible at both ends of every space — on a short space all but 2 px at each end, so that a
        claim is never a mere dot (computed once)."""
        hit = self._piece_xy.get(rid)
        if hit is None:
            pieces = []
            for sp in self.spaces[rid]:
                total = _length(sp)
                end = min(0.2 * total, 2 * self.upp)
                pieces.append((rid, _sub(sp, end, total - end)))
            hit = self._piece_xy[rid] = _polyline_xy(pieces)
        return hit

    def claim_marker(self, rid: str) -> int:
        """The size (px) of a claimed route's owner marker: 14, smaller on a short route (0.45 of its drawn length, at
        least 8), so that the train pieces around it still show."""
        hit = self._claim_size.get(rid)
        if hit is None:
            hit = self._claim_size[rid] = max(8, min(14, round(0.45 * _length(self.centre[rid]) / self.upp)))
        return hit

    def space_xy(self, rid: str) -> tuple[list, list, list]:
        """x, y, customdata of one route's spaces, as ``_polyline_xy`` draws them (computed once)."""
        hit = self._space_xy.get(rid)
        if hit is None:
            hit = self._space_xy[rid] = _polyline_xy((rid, sp) for sp in self.spaces[rid])
        return hit

    # geometry helpers --------------------------------------------------------------------------------------
    def _build(self, map) -> None:
        u = self.upp
        groups: dict[tuple[str, str], list] = defaultdict(list)
        for r in map.routes:
            a, b = sorted((_name(r.a), _name(r.b)))
            groups[(a, b)].append(r)
        for (a, b), rs in groups.items():
            rs.sort(key=lambda r: (r.index, r.id))
            base = self._centre_line(a, b)
            n = len(rs)
            for k, r in enumerate(rs):
                off = (k - (n - 1) / 2) * _PARALLEL_SEP * u
                line = _offset(base, off) if off else base
                line = _clip(line, _CITY_CLEAR * u, _CITY_CLEAR * u)
                self.centre[r.id] = line
                self.ends[r.id] = (a, b)
                self.spaces[r.id] = _split(line, max(1, int(r.length)), _GAP * u)
                self.mid[r.id] = _point_at(line, _length(line) / 2)

    def _centre_line(self, a: str, b: str) -> list[tuple[float, float]]:
        """Straight, or a gentle quadratic curve when the straight line would run over another city."""
        p, q = self.pos[a], self.pos[b]
        dx, dy = q[0] - p[0], q[1] - p[1]
        d = math.hypot(dx, dy) or 1e-9
        ux, uy = dx / d, dy / d
        nx, ny = -uy, ux
        clear = _BEND_CLEAR * self.upp
        bend = 0.0
        for name, c in sorted(self.pos.items()):
            if name in (a, b):
                continue
            t = ((c[0] - p[0]) * ux + (c[1] - p[1]) * uy) / d
            if not 0.08 < t < 0.92:
                continue
            side = (c[0] - p[0]) * nx + (c[1] - p[1]) * ny        # signed distance of the city from the line
            if abs(side) >= clear:
                continue
            need = (clear + abs(side)) / (2 * t * (1 - t))         # control offset that gives the clearance at t
            need = -need if side > 0 else need
            if abs(need) > abs(bend):
                bend = need
        if not bend:
            return [p, q]
        cx, cy = (p[0] + q[0]) / 2 + nx * bend, (p[1] + q[1]) / 2 + ny * bend
        pts = []
        for i in range(25):
            t = i / 24
            pts.append(((1 - t) ** 2 * p[0] + 2 * t * (1 - t) * cx + t * t * q[0],
                        (1 - t) ** 2 * p[1] + 2 * t * (1 - t) * cy + t * t * q[1]))
        return pts


def _length(line) -> float:
    return sum(math.dist(line[i], line[i + 1]) for i in range(len(line) - 1))


def _point_at(line, s: float) -> tuple[float, float]:
    for i in range(len(line) - 1):
        seg = math.dist(line[i], line[i + 1])
        if s <= seg or i == len(line) - 2:
            t = 0.0 if seg == 0 else min(max(s / seg, 0.0), 1.0)
            return (line[i][0] + (line[i + 1][0] - line[i][0]) * t, line[i][1] + (line[i + 1][1] - line[i][1]) * t)
        s -= seg
    return line[-1]


def _direction_at(line, s: float) -> tuple[float, float]:
    for i in range(len(line) - 1):
        seg = math.dist(line[i], line[i + 1])
        if s <= seg or i == len(line) - 2:
            return ((line[i + 1][0] - line[i][0]) / (seg or 1), (line[i + 1][1] - line[i][1]) / (seg or 1))
        s -= seg
    return (1.0, 0.0)


def _sub(line, s0: float, s1: float) -> list[tuple[float, float]]:
    """The part of a polyline between arc lengths s0 and s1."""
    out = [_point_at(line, s0)]
    acc = 0.0
    for i in range(len(line) - 1):
        acc += math.dist(line[i], line[i + 1])
        if s0 < acc < s1:
            out.append(line[i + 1])
    out.append(_point_at(line, s1))
    return out


def _clip(line, start: float, end: float):
    total = _length(line)
    start, end = min(start, total * 0.3), min(end, total * 0.3)
    return _sub(line, start, total - end)


def _offset(line, off: float):
    out = []
    for i, p in enumerate(line):
        a, b = line[max(i - 1, 0)], line[min(i + 1, len(line) - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy) or 1.0
        out.append((p[0] - dy / d * off, p[1] + dx / d * off))
    return out


def _split(line, n: int, gap: float) -> list[list[tuple[float, float]]]:
    total = _length(line)
    gap = min(gap, total * 0.3 / max(n - 1, 1))
    seg = (total - gap * (n - 1)) / n
    return [_sub(line, k * (seg + gap), k * (seg + gap) + seg) for k in range(n)]


_GEOMETRY_CACHE: dict[tuple[int, int, bool], tuple[Any, _Geometry]] = {}


def _geometry(map, height: int, note: bool = True) -> _Geometry:
    key = (id(map), height, note)
    hit = _GEOMETRY_CACHE.get(key)
    if hit is not None and hit[0] is map:
        return hit[1]
    g = _Geometry(map, height, note=note)
    if len(_GEOMETRY_CACHE) > 16:
        _GEOMETRY_CACHE.clear()
    _GEOMETRY_CACHE[key] = (map, g)
    return g


def _provisional_text(map) -> str:
    note = getattr(map, "provisional_note", "") or "This map's data is provisional: it may still change."
    note = re.sub(r"^\s*PROVISIONAL\s*[:—-]\s*", "", note)             # the label says it already
    cities = list(getattr(map, "cities", ()))
    width = 120
    if cities:                         # a board taller than wide (Märklin) is drawn narrow: shorter lines
        lats, lons = [c.lat for c in cities], [c.lon for c in cities]
        mid = math.radians((max(lats) + min(lats)) / 2)
        if (max(lats) - min(lats)) > (max(lons) - min(lons)) * math.cos(mid):
            width = 62
    return f"<b>PROVISIONAL MAP</b> — {_wrap(note, width)}"


def _nominal_ppu(map, height: int, note: bool = True) -> float:
    """Pixels per data unit of a board ``height`` px tall and ``_NOMINAL_WIDTH`` wide."""
    pos = _projected(map)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    top, bottom = _margins(map, note)
    wp, hp = _NOMINAL_WIDTH - 20, max(height - top - bottom, 200)
    return min((wp - 2 * _PAD_X) / span_x, (hp - 2 * _PAD_Y) / span_y)


def _margins(map, note: bool = True) -> tuple[int, int]:
    """(top, bottom) margins in px: the title, and the provisional note under it when there is one (and ``note``);
    the legend below the map."""
    top = _TITLE_MARGIN
    if note and getattr(map, "provisional", False):
        top += 16 * (1 + _provisional_text(map).count("<br>")) + 14
    return top, _LEGEND_MARGIN


def _spaces_xy(geo: "_Geometry", rids, *, pieces: bool = False) -> tuple[list, list, list]:
    """``_polyline_xy`` of the spaces (or the train pieces) of routes ``rids``, from per-route parts made once."""
    xs: list = []
    ys: list = []
    ids: list = []
    part = geo.piece_xy if pieces else geo.space_xy
    for rid in rids:
        x, y, cd = part(rid)
        if xs:
            xs.append(None)
            ys.append(None)
            ids.append(None)
        xs += x
        ys += y
        ids += cd
    return xs, ys, ids


def _polyline_xy(lines) -> tuple[list, list, list]:
    """x, y, customdata of (route id, polyline) pairs joined with None separators; customdata = route id."""
    xs: list = []
    ys: list = []
    ids: list = []
    for rid, line in lines:
        if xs:
            xs.append(None)
            ys.append(None)
            ids.append(None)
        for x, y in line:
            xs.append(round(x, 4))
            ys.append(round(y, 4))
            ids.append(rid)
    return xs, ys, ids


# --------------------------------------------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------------------------------------------
def route_hover(map, route, owner_name: str | None, closed: bool, points_table: Mapping[int, int] = USA_POINTS,
                *, closed_rule: str = "USA-CLAIM-8") -> str:
    """Hover text of one route in a learner's words, e.g. ``Denver–Omaha · 4 spaces · purple · 7 points · free``.

    Extra lines say tunnel / ferry / double route; no internal codes (route ids, colour codes). ``owner_name``
    None means free. ``closed_rule`` is kept for callers; the hover explains the closure in words instead."""
    colour = route.colour
    colour_text = "gray (any one colour)" if colour == GRAY else colour
    n = int(route.length)
    points = points_table.get(n)
    points_text = f"{points} point{'s' if points != 1 else ''}" if points is not None else "? points"
    if owner_name is not None:
        status = f"claimed by {owner_name}"
    elif closed:
        status = "closed"
    else:
        status = "free"
    lines = [f"{_name(route.a)}–{_name(route.b)} · {n} space{'s' if n != 1 else ''} · {colour_text} · "
             f"{points_text} · {status}"]
    if getattr(route, "tunnel", False):
        lines.append("tunnel: draw 3 cards when claiming; each one of the route's colour (or a locomotive) "
                     "costs one more card")
    locos = int(getattr(route, "ferry_locos", 0) or 0)
    if locos:
        lines.append(f"ferry: needs {locos} locomotive{'s' if locos != 1 else ''}")
    twins = _twins(map, route)
    if twins:
        words = [t.colour if t.colour != GRAY else "gray" for t in twins]
        if len(twins) == 1:
            lines.append(f"double route: the other one is {words[0]}")
        else:
            lines.append(f"{'triple' if len(twins) == 2 else 'multiple'} route: the others are "
                         + ", ".join(words[:-1]) + f" and {words[-1]}")
    if closed and owner_name is None:
        lines.append("closed: with 2–3 players only one route of a double route may be used")
    return "<br>".join(lines)


def _twins(map, route) -> tuple:
    twins = getattr(map, "twins", None)
    if twins is not None:
        try:
            return tuple(twins(route.id))
        except (KeyError, ValueError, TTRError):
            return ()
    if not route.double_group:
        return ()
    return tuple(r for r in map.routes if r.id != route.id and r.double_group == route.double_group)


# --------------------------------------------------------------------------------------------------------------
# City label placement (``ttr_nb.render.labels``): once per map, stored with its layout
# --------------------------------------------------------------------------------------------------------------
_FONT_PX = 13             # city names: 13 px (a projector makes them larger: ``scale``)
_MIN_NAME_PX = 9          # ... and never smaller than this on a board drawn smaller than its names are placed for
_CITY_MARKER = 11
_COUNTRY_MARKER = 16      # a country (``Map.ends_only``): a larger square
_GOODS_MARKER = 17        # a city with a goods stack (Märklin): the stack's token stands on it
_LABEL_BASE = 650         # names are placed for sizes relative to the board laid out ``_LABEL_BASE`` px tall
#: the smallest sizes tried for a map's names (times its ``_LABEL_BASE`` board): the first at which every name
#: keeps its rules at every size up to ``labels.SCALES[-1]`` times it is the map's smallest size
_LABEL_LADDER = tuple(round(0.6 + 0.05 * i, 2) for i in range(29))


def _goods_cities(map) -> frozenset[str]:
    return frozenset(_name(c) for c in map.cities if getattr(c, "extra", {}).get("goods_colour"))


def _marker_sizes(map) -> dict[str, int]:
    """Each city's marker size in px at scale 1 (plotly's ``marker.size``)."""
    ends, goods = getattr(map, "ends_only", frozenset()), _goods_cities(map)
    return {_name(c): _COUNTRY_MARKER if _name(c) in ends else _GOODS_MARKER if _name(c) in goods else _CITY_MARKER
            for c in map.cities}


def _marker_radius(map) -> dict[str, float]:
    """What each city's marker covers (px from its centre): half its size and its outline; a square's corner."""
    ends = getattr(map, "ends_only", frozenset())
    return {c: (size / 2 * math.sqrt(2) if c in ends else size / 2) + 1.1 for c, size in _marker_sizes(map).items()}


class _Labels:
    """A map's names: city -> plotly text position, and ``upp``, the data units per px of the smallest board on
    which every name keeps its rules (no name over another name or another city's marker, none outside the
    board) at every size up to ``labels.SCALES[-1]`` times it; ``broken`` lists what it breaks when no ladder
    size keeps them all."""

    def __init__(self, slots: dict[str, str], upp: float, broken: Sequence[str] = ()):
        self.slots, self.upp, self.broken = dict(slots), float(upp), tuple(broken)


def label_fingerprint(map) -> str:
    """What the placement of ``map``'s names depends on beyond its layout: the label constants and metrics."""
    from . import labels
    parts = [layout_fingerprint(map), f"l2 {_FONT_PX} {_CITY_MARKER} {_COUNTRY_MARKER} {_GOODS_MARKER} {_LABEL_BASE}",
             repr(_LABEL_LADDER), repr(labels.SCALES), repr(labels.SLOTS), repr(sorted(labels._WIDTHS.items())),
             f"{_PAD_X} {_PAD_Y} {labels.ASCENT} {labels.DESCENT}",
             " ".join(sorted(_goods_cities(map))), " ".join(sorted(getattr(map, "ends_only", ())))]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _place_at(map, base: "_Geometry", scale: float):
    """The names placed for boards from ``scale`` times the ``_LABEL_BASE`` board up (``labels.Placement``)."""
    from . import labels
    upp = base.upp / scale
    xs = [p[0] for p in base.pos.values()]
    ys = [p[1] for p in base.pos.values()]
    # a name may reach into the room around the outermost cities (the board keeps it: ``_Geometry``), not beyond
    bounds = (min(xs) - _PAD_X * upp, min(ys) - _PAD_Y * upp, max(xs) + _PAD_X * upp, max(ys) + _PAD_Y * upp)
    return labels.place_labels(
        base.pos, upp=upp, font_px=_FONT_PX, marker_px=_marker_sizes(map), marker_r=_marker_radius(map),
        bounds=bounds, lines=[sp for sps in base.spaces.values() for sp in sps],
        points=[(x, y, 6.0) for x, y in base.mid.values()])


def _compute_labels(map) -> _Labels:
    """Search ``_LABEL_LADDER`` (by halving) for the smallest size at which every name keeps its rules."""
    base = _Geometry(map, _LABEL_BASE, with_labels=False)
    lo, hi = 0, len(_LABEL_LADDER) - 1
    best = _place_at(map, base, _LABEL_LADDER[hi])
    if best.broken:                        # not even the largest: the fewest broken rules there
        return _Labels(best.slots, base.upp / _LABEL_LADDER[hi], best.broken)
    found = hi
    while lo < hi:
        mid = (lo + hi) // 2
        p = _place_at(map, base, _LABEL_LADDER[mid])
        if p.broken:
            lo = mid + 1
        else:
            best, found, hi = p, mid, mid
    return _Labels(best.slots, base.upp / _LABEL_LADDER[found])


_LABEL_CACHE: dict[int, tuple[Any, _Labels]] = {}


def _label_placement(map) -> _Labels:
    """The map's names (stored in ``LAYOUTS_FILE`` for the shipped maps, else computed once and cached)."""
    hit = _LABEL_CACHE.get(id(map))
    if hit is not None and hit[0] is map:
        return hit[1]
    res = _stored_labels(map) or _compute_labels(map)
    if len(_LABEL_CACHE) > 16:
        _LABEL_CACHE.clear()
    _LABEL_CACHE[id(map)] = (map, res)
    return res


def _stored_labels(map) -> _Labels | None:
    _stored_layout(map)                    # loads the file
    entry = (_STORED_LAYOUTS or {}).get(getattr(map, "key", None)) or {}
    lab = entry.get("labels")
    if not lab or lab.get("fingerprint") != label_fingerprint(map):
        return None
    slots = dict(lab["slots"])
    return _Labels(slots, lab["upp"]) if set(slots) == {_name(c) for c in map.cities} else None


_MIN_ROUTE_PX = 16        # a route drawn shorter than this between its cities' clearances shows a claim as a dot


def default_height(map) -> int:
    """The height (px) a board of ``map`` is laid out for: 650, or taller for a map taller than wide, so that every
    city name has room (``_Labels.upp``) and a claim on the shortest route shows as a train, not as a mere dot (the
    route at least ``_MIN_ROUTE_PX`` long between its cities' clearances)."""
    pos = _projected(map)
    shortest = min((math.dist(pos[_name(r.a)], pos[_name(r.b)]) for r in map.routes), default=0.0)
    need = 1.0 / _label_placement(map).upp
    if shortest > 0:
        need = max(need, (_MIN_ROUTE_PX + 2 * _CITY_CLEAR) / shortest)
    height = _LABEL_BASE
    while _nominal_ppu(map, height) < need * 0.9999 and height < 3 * _LABEL_BASE:
        height += 10
    return height


# --------------------------------------------------------------------------------------------------------------
# Building the traces
# --------------------------------------------------------------------------------------------------------------
def _trail_walk(geo: _Geometry, trail: Sequence[str]) -> list[tuple[str, bool]] | None:
    """(route id, reversed?) per trail step so consecutive routes share a city; None if it is not a trail."""
    if not trail:
        return []
    first = geo.routes[trail[0]]
    for start in (_name(first.a), _name(first.b)):
        here = start
        steps = []
        for rid in trail:
            r = geo.routes[rid]
            a, b = _name(r.a), _name(r.b)
            if here not in (a, b):
                break
            canon_a, _ = geo.ends[rid]
            steps.append((rid, here != canon_a))
            here = b if here == a else a
        else:
            return steps
    return None


def _check_ids(geo: _Geometry, ids, what: str) -> None:
    for rid in ids:
        if rid not in geo.routes:
            raise TTRError(f"{what}: unknown route id {rid!r} (not on this map)")


def _traces(map, *, owners, closed, player_names, player_colours, stations, highlight, trail, trail_label,
            points_table, closed_rule, height, selected=None, marked=None, scale: float = 1.0,
            goods=None, passengers=None, note: bool = True) -> list[dict]:
    geo = _geometry(map, height, note)
    owners = dict(owners or {})
    closed = set(closed)
    stations = dict(stations or {})
    goods = dict(goods or {})
    passengers = dict(passengers or {})
    n_seats = len(player_colours)
    names = list(player_names) if player_names is not None else [c.title() for c in player_colours]
    if len(names) > n_seats:
        raise TTRError(f"{len(names)} player names but only {n_seats} player colours")
    names += [c.title() for c in player_colours[len(names):]]
    _check_ids(geo, owners, "owners")
    _check_ids(geo, closed, "closed")
    for rid, seat in owners.items():
        if not 0 <= seat < n_seats:
            raise TTRError(f"owners: route {rid} has seat {seat}, but seats are 0..{n_seats - 1}")
    for what, marks in (("stations", stations), ("passengers", passengers)):
        for city, seat in marks.items():
            if city not in geo.pos:
                raise TTRError(f"{what}: unknown city {city!r}")
            if not 0 <= seat < n_seats:
                raise TTRError(f"{what}: city {city} has seat {seat}, but seats are 0..{n_seats - 1}")
    for city in goods:
        if city not in geo.pos:
            raise TTRError(f"goods: unknown city {city!r}")
    if len(highlight) > MAX_HIGHLIGHTS:
        raise TTRError(f"at most {MAX_HIGHLIGHTS} highlights, got {len(highlight)}")
    for label, ids in highlight:
        _check_ids(geo, ids, f"highlight {label!r}")
    _check_ids(geo, trail, "trail")
    if selected is not None:
        _check_ids(geo, [selected], "selected")
    marked = dict(marked or {})
    for city in marked:
        if city not in geo.pos:
            raise TTRError(f"marked cities: unknown city {city!r}")
    hex_of = [_player_hex(c) for c in player_colours]
    upp = geo.upp
    traces: list[dict] = []

    def scatter(meta, name, **kw):
        d = dict(type="scatter", meta=meta, name=name, x=kw.pop("x", []), y=kw.pop("y", []),
                 customdata=kw.pop("customdata", []),
                 showlegend=kw.pop("showlegend", False), hoverinfo=kw.pop("hoverinfo", "skip"))
        d.update(kw)
        traces.append(d)
        return d

    # 1. highlight glows (under everything)
    for i in range(MAX_HIGHLIGHTS):
        if i < len(highlight):
            label, ids = highlight[i]
            x, y, cd = _polyline_xy((r, geo.centre[r]) for r in ids)
            scatter(f"highlight:{i}", str(label), x=x, y=y, customdata=cd, mode="lines", showlegend=True,
                    line=dict(color=HIGHLIGHT_HEX[i], width=22), opacity=0.55, legendgroup="highlights",
                    legendrank=200 + i)
        else:
            scatter(f"highlight:{i}", f"highlight {i + 1}", mode="lines", line=dict(color=HIGHLIGHT_HEX[i], width=22),
                    opacity=0.55, legendgroup="highlights", legendrank=200 + i)

    # 1a. the selected route: a dark halo around it (the widgets select a route on a click)
    x, y, cd = _polyline_xy([(selected, geo.centre[selected])]) if selected is not None else ([], [], [])
    scatter("selected", "selected route", x=x, y=y, customdata=cd, mode="lines",
            line=dict(color=SELECTED_HEX, width=19), opacity=0.9)

    # 1b. trail: a halo along its routes (under them); arrowheads and step numbers are added near the top
    walk = _trail_walk(geo, trail) if trail else []
    if walk is None:                     # not a connected trail: draw each route in its own direction
        walk = [(rid, False) for rid in trail]
    x, y, cd = _polyline_xy((rid, geo.centre[rid][::-1] if rev else geo.centre[rid]) for rid, rev in walk)
    scatter("trail", str(trail_label), x=x, y=y, customdata=cd, mode="lines", showlegend=bool(trail),
            line=dict(color=TRAIL_HEX, width=21), opacity=0.45, legendgroup="trail", legendrank=250)

    claimed = [rid for rid in geo.order if rid in owners]
    closed_ids = [rid for rid in geo.order if rid in closed and rid not in owners]
    tunnels = [rid for rid in geo.order if getattr(geo.routes[rid], "tunnel", False) and rid not in closed_ids]
    has_tunnels = any(getattr(r, "tunnel", False) for r in map.routes)
    has_ferries = any(getattr(r, "ferry_locos", 0) for r in map.routes)

    # 2. tunnel borders: a wide dotted dark line under the spaces
    x, y, cd = _spaces_xy(geo, tunnels)
    scatter("tunnels", "tunnel (dotted border)", x=x, y=y, customdata=cd, mode="lines", showlegend=has_tunnels,
            line=dict(color="#1d1d1d", width=_SPACE_W + 7, dash="3px,3px"), legendgroup="map", legendrank=300)
    # 3. outlines + spaces of every open route: free ones and claimed ones (their trains go on top)
    open_ids = [rid for rid in geo.order if rid not in closed_ids]
    x, y, cd = _spaces_xy(geo, open_ids)
    scatter("outlines", "route outlines", x=x, y=y, customdata=cd, mode="lines",
            line=dict(color="#3a3a3a", width=_SPACE_W + _OUTLINE_EXTRA))
    for colour in COLOURS + (GRAY,):
        ids = [rid for rid in open_ids if geo.routes[rid].colour == colour]
        x, y, cd = _spaces_xy(geo, ids)
        scatter(f"spaces:{colour}", f"{colour} routes", x=x, y=y, customdata=cd, mode="lines",
                line=dict(color=CARD_HEX[colour], width=_SPACE_W))
    # 3a. the colour's shape on every space of an open route (under the trains): routes stay apart without colour
    # vision (checked with simulated colour blindness in tests/test_a11y_colour.py)
    scatter("space-marks", "route colour shapes", **_space_marks(geo, open_ids))
    # 4. closed routes, faded
    x, y, cd = _spaces_xy(geo, closed_ids)
    scatter("closed", "closed (2–3 players)", x=x, y=y, customdata=cd, mode="lines", showlegend=bool(closed_ids),
            line=dict(color="rgba(120,120,120,0.35)", width=_SPACE_W - 2), legendgroup="map", legendrank=310)
    # 5. claimed routes: a train piece on each space (white edge, then one trace per seat in its colour)
    x, y, cd = _spaces_xy(geo, claimed, pieces=True)
    scatter("claimed-outline", "train edges", x=x, y=y, customdata=cd, mode="lines",
            line=dict(color="#ffffff", width=_CLAIM_W + 3))
    active = set(owners.values()) | set(stations.values())
    for seat in range(n_seats):
        ids = [rid for rid in claimed if owners[rid] == seat]
        x, y, cd = _spaces_xy(geo, ids, pieces=True)
        show = seat < len(player_names) if player_names is not None else seat in active
        scatter(f"seat:{seat}", names[seat], x=x, y=y, customdata=cd, mode="lines+markers", showlegend=show,
                line=dict(color=hex_of[seat], width=_CLAIM_W),
                marker=dict(size=0.01, symbol=OWNER_SYMBOLS[seat % len(OWNER_SYMBOLS)], color=hex_of[seat],
                            line=dict(color="#111111", width=1.5)),
                legendgroup="players", legendrank=100 + seat)
    # 6. ferry locomotive marks on the first `ferry_locos` spaces of each ferry
    fx, fy, fcd = [], [], []
    for rid in geo.order:
        locos = int(getattr(geo.routes[rid], "ferry_locos", 0) or 0)
        if not locos or rid in closed_ids:
            continue
        sps = geo.spaces[rid]
        for k in _ferry_spaces(len(sps), locos):
            px, py = _point_at(sps[k], _length(sps[k]) / 2)
            fx.append(round(px, 4))
            fy.append(round(py, 4))
            fcd.append(rid)
    scatter("ferries", "ferry: locomotive space", x=fx, y=fy, customdata=fcd, mode="markers", showlegend=has_ferries,
            marker=dict(symbol="circle", size=7, color="#111111", line=dict(color="#ffffff", width=1.5)),
            legendgroup="map", legendrank=301)
    # 7. trail steps: an arrowhead at 70 % of each route (pointing along the trail) and its number at 30 %
    px_, py_, psym, pang, psize, ptext, phover, pcd = [], [], [], [], [], [], [], []
    for k, (rid, rev) in enumerate(walk):
        line = geo.centre[rid][::-1] if rev else geo.centre[rid]
        total = _length(line)
        r = geo.routes[rid]
        frm, to = geo.ends[rid][::-1] if rev else geo.ends[rid]
        hover = f"{trail_label}, step {k + 1}: {frm} → {to} ({r.length} spaces, {rid})"
        for frac, sym, text in ((0.72, "triangle-up", ""), (0.28, "circle", str(k + 1))):
            p = _point_at(line, frac * total)
            dx, dy = _direction_at(line, frac * total)
            px_.append(round(p[0], 4)), py_.append(round(p[1], 4))
            psym.append(sym)
            # normalised as plotly's validator does, so that raw updates equal a validated fresh figure
            pang.append((round(math.degrees(math.atan2(dx, dy)), 1) + 180) % 360 - 180 if text == "" else 0)
            psize.append(13 if text == "" else 17)
            ptext.append(text)
            phover.append(hover)
            pcd.append(rid)
    scatter("trail-steps", f"{trail_label} steps", x=px_, y=py_, customdata=pcd, mode="markers+text", text=ptext,
            hovertext=phover, hoverinfo="text", textposition="middle center",
            textfont=dict(color="#ffffff", size=10, family="Arial Black, Arial, sans-serif"),
            marker=dict(symbol=psym, size=psize, angle=pang, color=TRAIL_HEX, opacity=1,  # sizes array: else 0.7
                        line=dict(color="#ffffff", width=1.5)),
            legendgroup="trail")
    # 8. stations
    sx, sy, scol, ssym, shover = [], [], [], [], []
    for city in sorted(stations):
        seat = stations[city]
        x0, y0 = geo.pos[city]
        sx.append(round(x0, 4)), sy.append(round(y0 + 2 * upp, 4))
        scol.append(hex_of[seat])
        ssym.append("triangle-up")
        shover.append(f"{city} · station of {names[seat]}")
    scatter("stations", "stations", x=sx, y=sy, customdata=sorted(stations), mode="markers", hovertext=shover,
            hoverinfo="text",
            marker=dict(symbol=ssym, size=26, color=scol, line=dict(color="#111111", width=1.5)))
    # 8a. marked cities (e.g. the cities of the viewer's own tickets): a wide ring behind the city marker
    mk = sorted(marked)
    scatter("marked-cities", "your ticket cities", x=[geo.pos[c][0] for c in mk], y=[geo.pos[c][1] for c in mk],
            customdata=mk, mode="markers", hovertext=[marked[c] for c in mk], hoverinfo="text",
            showlegend=bool(mk), legendgroup="map", legendrank=320,
            marker=dict(symbol="circle-open", size=round(24 * scale), color=MARKED_HEX, line=dict(width=4)))
    # 8b. cities (their names go on top: 11.)
    font_px = round(_FONT_PX * scale)
    if geo.cities is None or geo.cities[5] != font_px:     # the same for every call: once per map, size and scale
        labels = geo.labels.slots if geo.labels is not None else {}
        sizes = _marker_sizes(map)
        cx, cy, ctext, cpos, chover, csym, csize = [], [], [], [], [], [], []
        ends = getattr(map, "ends_only", frozenset())
        for c in map.cities:
            name = _name(c)
            cx.append(geo.pos[name][0]), cy.append(geo.pos[name][1])
            ctext.append(name)
            cpos.append(labels.get(name, "top center"))
            hover = _city_hover(map, name)
            if name in ends:
                hover = hover.replace("</b>", "</b> · a country: a ticket may end here, no path passes through", 1)
            chover.append(hover)
            csym.append("square" if name in ends else "circle")
            csize.append(round(sizes[name] * scale))
        geo.cities = (cx, cy, ctext, cpos, chover, font_px, csym, csize)
    cx, cy, ctext, cpos, chover = (list(v) for v in geo.cities[:5])
    csym, csize = list(geo.cities[6]), list(geo.cities[7])
    uniform = len(set(csize)) == 1
    city_size = csize[0] if uniform else csize
    scatter("cities", "cities", x=cx, y=cy, customdata=ctext, mode="markers", hovertext=chover, hoverinfo="text",
            cliponaxis=False,
            marker=dict(symbol=csym if "square" in csym else "circle", size=city_size,
                        color=["#cfe0f5" if q == "square" else "#fffdf5" for q in csym] if "square" in csym
                        else "#fffdf5", line=dict(color=INK, width=2.2)))
    # 8c. goods stacks (Märklin): the top value in a token of the stack's colour, standing on the city (its name
    #     keeps clear of it: the city's marker has the token's size)
    gx, gy, gtext, gsym, gcol, gtcol, ghover, gcd = [], [], [], [], [], [], [], []
    for city in sorted(goods, key=lambda c: (not goods[c], c)):    # full stacks first: the legend shows a token
        stack = tuple(goods[city])
        colour = str(map.city(city).extra.get("goods_colour", "white")) if hasattr(map, "city") else "white"
        fill, symbol, ink = GOODS_STYLE.get(colour, GOODS_STYLE["white"])
        x0, y0 = geo.pos[city]
        gx.append(x0), gy.append(y0)
        gcd.append(city)
        if stack:
            gtext.append(str(stack[0]))
            gsym.append(symbol)
            gcol.append(fill)
            gtcol.append(ink)
            ghover.append(f"{city} · goods, {colour} stack: {', '.join(str(x) for x in stack)} (top {stack[0]} point"
                          f"{'s' if stack[0] != 1 else ''}; a passenger ending or passing here takes it)")
        else:
            gtext.append("")
            gsym.append(symbol + "-open")
            gcol.append("#595959")
            gtcol.append(ink)
            ghover.append(f"{city} · goods, {colour} stack: empty (all taken)")
    scatter("goods", "goods (top value)", x=gx, y=gy, customdata=gcd, mode="markers+text", text=gtext,
            hovertext=ghover, hoverinfo="text", textposition="middle center", showlegend=bool(goods),
            legendgroup="map", legendrank=330, cliponaxis=False,
            textfont=dict(size=round(10 * scale), color=gtcol, family="Arial Black, Arial, sans-serif"),
            marker=dict(symbol=gsym, size=round(_GOODS_MARKER * scale), color=gcol, line=dict(color="#111111", width=1.2)))
    # 8d. passengers (Märklin): "P" in the owner's colour, down and left of the city
    pc = sorted(passengers)
    scatter("passengers", "passengers (P)", x=[round(geo.pos[c][0] - 11 * upp * scale, 4) for c in pc],
            y=[round(geo.pos[c][1] - 9 * upp * scale, 4) for c in pc], customdata=pc, mode="markers+text",
            text=["P"] * len(pc), textposition="middle center", hoverinfo="text",
            hovertext=[f"{c} · {names[passengers[c]]}'s passenger" for c in pc], showlegend=bool(pc),
            legendgroup="map", legendrank=331, cliponaxis=False,
            textfont=dict(size=round(10 * scale), color="#ffffff", family="Arial Black, Arial, sans-serif"),
            marker=dict(symbol="circle", size=round(18 * scale), color=[hex_of[passengers[c]] for c in pc],
                        line=dict(color="#ffffff", width=2)))
    # 10. route midpoints: the click targets
    mx, my, mid, msym, mcol, msize, mop, mhover, mline = [], [], [], [], [], [], [], [], []
    hover_key = (tuple(points_table.items()), closed_rule)
    for rid in geo.order:
        r = geo.routes[rid]
        x0, y0 = geo.mid[rid]
        mx.append(round(x0, 4)), my.append(round(y0, 4)), mid.append(rid)
        seat = owners.get(rid)
        if seat is not None:
            msym.append(OWNER_SYMBOLS[seat % len(OWNER_SYMBOLS)])
            mcol.append(hex_of[seat])
            msize.append(round(geo.claim_marker(rid) * scale))
            mop.append(1.0)
            mline.append("#111111")
        else:
            msym.append(CARD_SYMBOLS.get(r.colour, "circle"))
            mcol.append(CARD_HEX.get(r.colour, r.colour))
            msize.append(round((10 if r.colour != GRAY else 9) * scale))
            mop.append(0.35 if rid in closed else 1.0)
            mline.append("#333333")
        owner_name = names[seat] if seat is not None else None
        key = (rid, owner_name, rid in closed, hover_key)
        text = geo._hover.get(key)
        if text is None:
            if len(geo._hover) > 20_000:
                geo._hover.clear()
            text = geo._hover[key] = route_hover(map, r, owner_name, rid in closed, points_table,
                                                 closed_rule=closed_rule)
        mhover.append(text)
    scatter("routes", "routes", x=mx, y=my, mode="markers", customdata=mid, hovertext=mhover, hoverinfo="text",
            marker=dict(symbol=msym, color=mcol, size=msize, opacity=mop, line=dict(color=mline, width=1.5)),
            # a selected route (``selectedpoints``, set by the widgets on a click) grows, the others fade:
            # plotly's own selection styling, so a selection costs one small property change, not a redraw
            selected={"marker": dict(SELECTED_STYLE["marker"])},
            unselected={"marker": dict(UNSELECTED_STYLE["marker"])})
    # 11. city names, on top of everything (a route's marker never hides a name); the markers are invisible and
    #     the size of the cities' own, as plotly sets a name's distance from its point by its marker's size
    scatter("city-names", "city names", x=cx, y=cy, customdata=ctext, mode="markers+text", text=ctext,
            textposition=cpos, cliponaxis=False,
            textfont=dict(size=font_px, color=INK, family="Arial, Helvetica, sans-serif", shadow="auto"),
            marker=dict(size=city_size, opacity=0))

    return traces


def _space_marks(geo: _Geometry, rids) -> dict:
    """Trace properties of the shape marks on the spaces of ``rids``: the route colour's ``CARD_SYMBOLS`` shape in
    black or white (whichever contrasts more with the space), at the middle of each space."""
    from .palette import ink_on
    x, y, sym, col, cd = [], [], [], [], []
    for rid in rids:
        colour = geo.routes[rid].colour
        for sp in geo.spaces[rid]:
            px, py = _point_at(sp, _length(sp) / 2)
            x.append(round(px, 4)), y.append(round(py, 4)), cd.append(rid)
            sym.append(CARD_SYMBOLS.get(colour, "circle"))
            col.append(ink_on(CARD_HEX.get(colour, "#a7a7a7")))
    return dict(x=x, y=y, customdata=cd, mode="markers",
                marker=dict(symbol=sym, size=6, color=col, opacity=0.9, line=dict(width=0)))


def _ferry_spaces(n: int, locos: int) -> list[int]:
    """Which spaces of an n-space ferry carry the locomotive marks (spread out, centre first)."""
    locos = min(locos, n)
    if locos == n:
        return list(range(n))
    if locos == 1:
        return [n // 2] if n % 2 else [n // 2 - 1]
    return sorted({round(i * (n - 1) / (locos - 1)) for i in range(locos)})


def _city_hover(map, name: str) -> str:
    nbrs: dict[str, list[str]] = defaultdict(list)
    for r in map.routes:
        a, b = _name(r.a), _name(r.b)
        if name in (a, b):
            other = b if a == name else a
            nbrs[other].append(f"{r.length} {r.colour}")
    parts = [f"{o} ({', '.join(v)})" for o, v in sorted(nbrs.items())]
    lines = [f"<b>{name}</b> · {len(parts)} neighbour{'s' if len(parts) != 1 else ''}"]
    row = ""
    for p in parts:
        if row and len(row) + len(p) > 60:
            lines.append(row.rstrip(", "))
            row = ""
        row += p + ", "
    if row:
        lines.append(row.rstrip(", "))
    return "<br>".join(lines)


def _title(map, title: str | None) -> str:
    """The title: ``title``, or the map's name. A provisional map says PROVISIONAL once, in the note under the title
    (or, in a view, its banner): a name that says "provisional" in brackets loses those words here."""
    text = title if title is not None else str(getattr(map, "name", "") or getattr(map, "key", "board"))
    if getattr(map, "provisional", False):
        text = re.sub(r"\s*\([^()]*provisional[^()]*\)", "", text, flags=re.IGNORECASE).strip() or text
    return text


# --------------------------------------------------------------------------------------------------------------
# Updating a figure in place: send only what changed
# --------------------------------------------------------------------------------------------------------------
_NOT_DATA = frozenset(("type", "meta", "uid"))
_APPLIED = "_ttr_applied"          # private attribute of a figure: what the update functions last applied to it


def _flatten(d: Mapping[str, Any], prefix: str = "", out: dict | None = None) -> dict[str, Any]:
    """Plain nested dicts -> {"marker.line.color": value, ...}; a list of dicts (layout annotations) is
    flattened by index ("annotations[0].text"); every other value (data arrays too) is a leaf."""
    if out is None:
        out = {}
    for k, v in d.items():
        if not prefix and k in _NOT_DATA:
            continue
        if isinstance(v, dict) and v:
            _flatten(v, f"{prefix}{k}.", out)
        elif isinstance(v, list) and v and all(isinstance(e, dict) for e in v):
            for i, e in enumerate(v):
                _flatten(e, f"{prefix}{k}[{i}].", out)
        else:
            out[prefix + k] = v
    return out


def _changes(new: dict[str, Any], old: dict[str, Any] | None) -> dict[str, Any]:
    """The entries of ``new`` that differ from ``old`` (all of them without ``old``); keys that were set before and
    are no longer wanted become None (plotly's "unset")."""
    if old is None:
        return dict(new)
    out = {k: v for k, v in new.items() if k not in old or old[k] != v}
    out.update((k, None) for k in old if k not in new)
    return out


def _cache_of(fig):
    """(trace objects, flat trace dicts, flat layout) last applied to ``fig`` by ``_apply``; None when there is
    none or the figure's traces were replaced since."""
    cache = getattr(fig, _APPLIED, None)
    if cache is None:
        return None
    data = fig.data
    if len(cache[0]) != len(data) or any(a is not b for a, b in zip(cache[0], data)):
        return None
    return cache


def _remember(fig, traces: Sequence[Mapping[str, Any]], layout: Mapping[str, Any]) -> None:
    """Record that ``fig`` was just built from ``traces``/``layout`` (so its first update is already a diff)."""
    object.__setattr__(fig, _APPLIED, (tuple(fig.data), [_flatten(t) for t in traces], _flatten(layout)))


def as_figure_widget(fig) -> go.FigureWidget:
    """``fig`` as a ``go.FigureWidget`` (itself if it is one). What ``update_board`` / ``panels.update_*`` know
    about ``fig`` carries over, so the widget's first update sends only what changed, like every later one."""
    if isinstance(fig, go.FigureWidget):
        return fig
    widget = go.FigureWidget(fig)
    _transfer_cache(fig, widget)
    return widget


def _transfer_cache(fig, copy) -> None:
    """``copy`` was just made from ``fig`` and holds exactly its values: let it inherit what ``_apply`` knows."""
    cache = _cache_of(fig)
    if cache is not None:
        object.__setattr__(copy, _APPLIED, (tuple(copy.data), cache[1], cache[2]))
        checked = getattr(fig, "_ttr_board_checked", None)
        if checked is not None:
            object.__setattr__(copy, "_ttr_board_checked", checked)


def _list_lengths(layout: Mapping[str, Any]) -> dict[str, int]:
    return {k: len(v) for k, v in layout.items() if isinstance(v, list) and v and all(isinstance(e, dict) for e in v)}


def _apply(fig, traces: Sequence[Mapping[str, Any]], layout: Mapping[str, Any], *,
           force_layout: Mapping[str, Any] | None = None) -> None:
    """Make ``fig`` show ``traces`` (plain dicts, one per trace of ``fig``, same order) and ``layout`` (a plain dict
    of the layout properties to manage), sending only what changed: ONE ``plotly_update`` (one message for a
    ``FigureWidget``), no validation (the dicts come from the same code that built the figure, and that was
    validated), no ``go`` objects built.

    What was applied is remembered on the figure; the next call compares against it, so unchanged properties
    (most of the board) cost nothing. A figure met for the first time (e.g. a fresh ``board_figure`` or a
    ``FigureWidget`` made from one) is compared by plotly itself against its current values, so it is correct
    too, only slower once. Assumption: between calls, nobody but these functions changes the managed properties
    (user zoom, legend clicks and selections touch other properties). ``force_layout`` entries are always sent.
    Inside someone else's ``batch_update()`` the changes are assigned as ordinary (validated) properties instead,
    so they join that batch.
    """
    data = fig.data
    cache = _cache_of(fig)
    old_traces = cache[1] if cache is not None else [None] * len(data)
    old_layout = cache[2] if cache is not None else None
    flat_traces = [_flatten(t) for t in traces]
    flat_layout = _flatten(layout)
    restyle: dict[str, list] = {}
    indexes: list[int] = []
    for i, (new, old) in enumerate(zip(flat_traces, old_traces)):
        diff = _changes(new, old)
        if not diff:
            continue
        slot = len(indexes)
        indexes.append(i)
        for k, v in diff.items():
            restyle.setdefault(k, [Undefined] * slot).append(v)
        for vals in restyle.values():
            if len(vals) == slot:
                vals.append(Undefined)
    relayout = _changes(flat_layout, old_layout)
    relayout.update(force_layout or {})
    # a list of dicts (annotations) that changes length cannot be patched by index: assign it whole
    lengths = _list_lengths(layout)
    whole = {k: layout[k] for k, n in lengths.items() if len(fig.layout[k] or ()) != n}
    if whole or getattr(fig, "_in_batch_mode", False):
        batch = getattr(fig, "batch_update", None)
        with batch():
            for k, v in whole.items():
                fig.layout[k] = v
            for k, v in relayout.items():
                if not any(k.startswith(f"{w}[") for w in whole):
                    fig.layout[k] = v
            for slot, i in enumerate(indexes):
                trace = data[i]
                for k, vals in restyle.items():
                    if vals[slot] is not Undefined:
                        trace[k] = vals[slot]
    elif restyle or relayout:
        fig.plotly_update(restyle_data=restyle, relayout_data=relayout, trace_indexes=indexes)
    object.__setattr__(fig, _APPLIED, (tuple(data), flat_traces, flat_layout))


# --------------------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------------------
def board_figure(map, *, owners: Mapping[str, int] | None = None, closed: Collection[str] = (),
                 player_names: Sequence[str] | None = None, player_colours: Sequence[str] = PLAYER_COLOURS,
                 stations: Mapping[str, int] | None = None,
                 highlight: Sequence[tuple[str, Sequence[str]]] = (),
                 trail: Sequence[str] = (), trail_label: str = "Longest trail",
                 title: str | None = None, height: int | None = None,
                 points_table: Mapping[int, int] = USA_POINTS, closed_rule: str = "USA-CLAIM-8",
                 selected: str | None = None, marked: Mapping[str, str] | None = None,
                 scale: float = 1.0, goods: Mapping[str, Sequence[int]] | None = None,
                 passengers: Mapping[str, int] | None = None, provisional_note: bool = True) -> go.Figure:
    """The board as a ``go.Figure`` (see the module docstring for the trace structure).

    ``owners``: route id -> seat; ``closed``: route ids closed to everybody; ``stations``: city -> seat;
    ``highlight``: up to four ``(label, route ids)`` drawn as glowing halos; ``trail``: ordered route ids drawn
    with arrows and step numbers; ``selected``: a route drawn with a dark halo; ``marked``: city -> hover text,
    cities ringed (a seat's ticket cities); ``scale``: city names and markers larger (e.g. 1.4 on a projector);
    ``goods``: city -> its goods stack, top first (Märklin); ``passengers``: city -> seat of the passenger there.
    ``height``: None lays the board out for ``default_height(map)`` (650 px, more for a map taller than wide).
    ``provisional_note``: a provisional map's note under the title (a view that shows its own banner passes False,
    so that PROVISIONAL is said once). Click targets are the markers of the trace named ``"routes"``
    (``customdata`` = route id).
    """
    if height is None:
        height = default_height(map)
    note = bool(provisional_note)
    traces = _traces(map, owners=owners, closed=closed, player_names=player_names,
                        player_colours=tuple(player_colours), stations=stations, highlight=tuple(highlight),
                        trail=tuple(trail), trail_label=trail_label, points_table=points_table,
                        closed_rule=closed_rule, height=height, selected=selected, marked=marked, scale=scale,
                        goods=goods, passengers=passengers, note=note)
    geo = _geometry(map, height, note)
    # Built unvalidated (plotly's own fast path for trusted input: 25 times faster than validating ~60 traces on
    # every new board); tests/test_render_board.py validates every figure kind this module makes.
    fig = Figure(data=[{**t, "type": "scatter"} for t in traces], _validate=False)
    managed_layout = {"title": {"text": _title(map, title)}}       # what update_board keeps up to date
    annotations = []
    if note and getattr(map, "provisional", False):
        annotations.append(dict(
            text=_provisional_text(map), xref="paper", yref="paper", x=0.0, y=1.0, xanchor="left",
            yanchor="bottom", yshift=4, showarrow=False, align="left", font=dict(size=12, color="#8a1c00"),
            bgcolor="#fff0d6", bordercolor="#d9480f", borderwidth=1.5, borderpad=4))
    fig.update_layout(
        title=dict(text=_title(map, title), x=0.01, xanchor="left", y=1.0, yanchor="top", yref="container",
                   pad=dict(t=10), font=dict(size=19, color=INK)),
        height=height, margin=dict(l=10, r=10, t=geo.top, b=geo.bottom, autoexpand=False),
        paper_bgcolor=BACKGROUND, plot_bgcolor=BACKGROUND,
        xaxis=dict(visible=False, range=list(geo.x_range), constrain="range"),
        yaxis=dict(visible=False, range=list(geo.y_range), scaleanchor="x", scaleratio=1, constrain="range"),
        hovermode="closest", hoverlabel=dict(bgcolor="#ffffff", font_size=12, align="left"),
        # the legend under the map, never over it
        legend=dict(orientation="h", x=0, xanchor="left", y=0, yanchor="top", font=dict(size=13),
                    bgcolor="rgba(255,255,255,0)", itemsizing="constant", groupclick="toggleitem",
                    traceorder="normal", itemwidth=30),
        annotations=annotations, dragmode="pan", clickmode="event", uirevision=str(getattr(map, "key", "board")),
        font=dict(family="Arial, Helvetica, sans-serif"),
        meta=dict(ttr_board=str(getattr(map, "key", "")), seats=len(player_colours), note=note,
                  # the names' px size and the px per data unit they are placed for: a figure view drawn smaller
                  # draws them smaller (down to _MIN_NAME_PX), so that they still never overlap
                  ttr_names=dict(trace=len(traces) - 1, ppu=round(scale / _label_placement(map).upp, 4),
                                 size=round(_FONT_PX * scale), min_size=_MIN_NAME_PX),
                  # a compact play view (a narrow window) draws the map without title and legend
                  ttr_compact=dict(top=6, bottom=4)),
    )
    _remember(fig, traces, managed_layout)
    object.__setattr__(fig, "_ttr_board_checked", (str(getattr(map, "key", "")), [t["meta"] for t in traces]))
    return fig


def update_board(fig, map, *, owners: Mapping[str, int] | None = None, closed: Collection[str] = (),
                 player_names: Sequence[str] | None = None, player_colours: Sequence[str] = PLAYER_COLOURS,
                 stations: Mapping[str, int] | None = None,
                 highlight: Sequence[tuple[str, Sequence[str]]] = (),
                 trail: Sequence[str] = (), trail_label: str = "Longest trail",
                 title: str | None = None, height: int | None = None,
                 points_table: Mapping[int, int] = USA_POINTS, closed_rule: str = "USA-CLAIM-8",
                 selected: str | None = None, marked: Mapping[str, str] | None = None, scale: float = 1.0,
                 goods: Mapping[str, Sequence[int]] | None = None, passengers: Mapping[str, int] | None = None) -> None:
    """Redraw claims/highlights/trail of a figure made by ``board_figure`` in place.

    Works on ``go.Figure`` and ``go.FigureWidget``. Only the properties that changed since the last call are
    set, in one ``plotly_update`` (one message to the browser); the new values are computed as plain dicts,
    never as validated ``go`` objects. Traces keep their number, order and ``meta`` keys; only data, legend
    labels and visibility change. ``height`` None keeps the figure's height.
    """
    if height is None:
        height = fig.layout.height or default_height(map)
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    note = bool(meta.get("note", True))          # as ``board_figure`` made it
    traces = _traces(map, owners=owners, closed=closed, player_names=player_names,
                        player_colours=tuple(player_colours), stations=stations, highlight=tuple(highlight),
                        trail=tuple(trail), trail_label=trail_label, points_table=points_table,
                        closed_rule=closed_rule, height=height, selected=selected, marked=marked, scale=scale,
                        goods=goods, passengers=passengers, note=note)
    key = str(getattr(map, "key", ""))
    metas = [t["meta"] for t in traces]
    if getattr(fig, "_ttr_board_checked", None) != (key, metas) or _cache_of(fig) is None:
        if meta.get("ttr_board") != key or [t.meta for t in fig.data] != metas:
            raise TTRError("update_board: this figure was not made by board_figure for this map "
                           "(its traces differ); make a new one with board_figure")
    force = None
    if fig.layout.height != height:      # only then: a user's zoom and pan survive ordinary updates
        geo = _geometry(map, height, note)
        force = {"height": height, "xaxis.range": list(geo.x_range), "yaxis.range": list(geo.y_range),
                 "margin.t": geo.top, "margin.b": geo.bottom}
    _apply(fig, traces, {"title": {"text": _title(map, title)}}, force_layout=force)
    object.__setattr__(fig, "_ttr_board_checked", (key, metas))


def trace_index(fig, key: str) -> int:
    """Position of the trace with ``meta == key`` (e.g. ``"routes"``, ``"seat:1"``, ``"highlight:0"``)."""
    for i, t in enumerate(fig.data):
        if t.meta == key:
            return i
    raise KeyError(key)


def board_png(fig, path, width: int = 1200, height: int = 800, scale: float = 1.0) -> str:
    """Write the figure as a PNG with kaleido (offline; needs Chromium, e.g. Debian's ``chromium``)."""
    import plotly.io as pio

    static = go.Figure(fig)                      # a copy (also turns a FigureWidget into a plain figure)
    static.update_layout(height=height, width=width)
    pio.write_image(static, str(path), format="png", width=width, height=height, scale=scale)
    return str(path)


def _wrap(text: str, width: int) -> str:
    words = str(text).split()
    lines, row = [], ""
    for w in words:
        if row and len(row) + 1 + len(w) > width:
            lines.append(row)
            row = w
        else:
            row = f"{row} {w}" if row else w
    if row:
        lines.append(row)
    return "<br>".join(lines)

