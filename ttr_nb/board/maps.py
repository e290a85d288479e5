"""Board maps: the map file format, its validating loader, and the boards shipped with ttr_nb.

A map is one JSON file per board (``maps/usa.json``, ``maps/europe.json``), generated from the checked facts in
``maps/sources/<board>/`` (CSV files and their ``SOURCES.md``) by ``ttr-nb maps rebuild`` (or ``python -m ttr_nb maps
rebuild``). Load one with :func:`load_map`::

    >>> from ttr_nb.board.maps import load_map
    >>> usa = load_map("usa")
    >>> usa.route("R001").cities
    ('Atlanta', 'Charleston')
    >>> [r.id for r in usa.routes_between("Atlanta", "New Orleans")]
    ['R004', 'R005']

Every problem in a map file is reported with the file, the item and the field, e.g.
``maps/usa.json: routes[17] (R018): field 'length' must be a whole number 1–8, got "four"``.
:func:`check_map_file` lists them all; :func:`load_map` raises :class:`~ttr_nb.errors.MapError` naming them.

This module is pure and cheap to import: networkx is imported only inside :meth:`Map.graph`, json, csv and
pathlib only when a file is actually read or written.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .cards import CARD_INDEX, CARD_NAMES, COLOURS, GRAY, LOCOMOTIVE
from ..errors import MapError
from .names import find_route, find_ticket
from .names import fold_text as _fold     # case- and accent-insensitive names ("zurich" finds "Zürich")

__all__ = [
    "City", "Route", "Ticket", "Map",
    "load_map", "available_maps", "maps_dir", "sources_dir", "map_from_reference", "check_map_file",
    "map_from_dict", "map_to_json",
    "FORMAT", "FORMAT_VERSION", "ROUTE_COLOURS", "MAX_ROUTE_LENGTH",
]

FORMAT = "ttr_nb-map"
FORMAT_VERSION = 1
ROUTE_COLOURS: tuple[str, ...] = COLOURS + (GRAY,)
MAX_ROUTE_LENGTH = 8          # Europe's Petrograd–Stockholm; no shipped board goes higher
MAX_TICKET_POINTS = 99
MAX_DECK_COUNT = 1000
MAX_GROUP_SIZE = 3            # double and triple routes (Märklin has triples)
MAX_FILE_BYTES = 10_000_000

_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
_KEY_RE = re.compile(r"[a-z][a-z0-9_]{0,39}")
_COLOUR_ALIASES = {"pink": "purple", "violet": "purple", "grey": "gray", "any": "gray", "loco": LOCOMOTIVE}


# --------------------------------------------------------------------------------------------- immutable helpers

def _empty() -> Mapping:
    return MappingProxyType({})


def _freeze(value):
    """Deep read-only copy: dicts become mappingproxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value):
    """The inverse of :func:`_freeze`: plain dicts and lists (JSON-ready)."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_thaw(v) for v in value]
    return value


def _suggest(word, choices) -> str:
    if not isinstance(word, str):
        return ""
    import difflib
    folded = {_fold(c): c for c in choices}
    close = difflib.get_close_matches(_fold(word), list(folded), n=3, cutoff=0.6)
    return f" (did you mean {', '.join(repr(folded[c]) for c in close)}?)" if close else ""


# --------------------------------------------------------------------------------------------- the value types

@dataclass(frozen=True, slots=True)
class City:
    """A city (or, on some boards, a country) with its approximate real-world position in decimal degrees."""
    name: str
    lat: float
    lon: float
    extra: Mapping = field(default_factory=_empty, hash=False)

    def __post_init__(self):
        if not isinstance(self.extra, MappingProxyType):
            object.__setattr__(self, "extra", _freeze(self.extra))


@dataclass(frozen=True, slots=True)
class Route:
    """One track. Each track of a double (or triple) route is its own Route; they share ``double_group``.

    ``colour`` is one of the eight card colours or ``"gray"`` (any one colour). ``ferry_locos`` is the number of
    locomotive symbols printed on a ferry (0: not a ferry). ``index`` is the route's position in ``Map.routes``.
    """
    id: str
    index: int
    a: str
    b: str
    length: int
    colour: str
    double_group: str | None = None
    tunnel: bool = False
    ferry_locos: int = 0

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    def other(self, city: str) -> str:
        """The city at the other end from ``city``."""
        if city == self.a:
            return self.b
        if city == self.b:
            return self.a
        raise MapError(f"route {self.id} ({self.a}–{self.b}) does not touch {city!r}")

    def __str__(self) -> str:
        return f"{self.id} {self.a}–{self.b} {self.length} {self.colour}"


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket. ``deck`` names the ticket deck ("regular", "long", "short", ...).
    ``extra`` holds per-game fields (the card game's colour requirements)."""
    id: str
    a: str
    b: str
    points: int
    deck: str = "regular"
    extra: Mapping = field(default_factory=_empty, hash=False)

    def __post_init__(self):
        if not isinstance(self.extra, MappingProxyType):
            object.__setattr__(self, "extra", _freeze(self.extra))

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    def __str__(self) -> str:
        return f"{self.id} {self.a}–{self.b} {self.points}"


@dataclass(frozen=True, eq=False, repr=False)
class Map:
    """A board: cities, routes, tickets and the train-card deck, plus where the facts came from.

    Immutable. Compared and hashed by identity (``load_map`` returns the same object for the same name), so a Map
    may be used as a dict key or in a cache. Lookups (``route``, ``twins``, ``routes_at`` ...) use dicts built once.
    """
    key: str
    name: str
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    deck: tuple[tuple[str, int], ...]
    provisional: bool = False
    provisional_note: str = ""
    provenance: Mapping = field(default_factory=_empty)
    source_file: str = ""
    extra: Mapping = field(default_factory=_empty)

    def __post_init__(self):
        setattr_ = object.__setattr__
        cities = tuple(sorted(self.cities, key=lambda c: c.name))
        setattr_(self, "cities", cities)
        setattr_(self, "routes", tuple(self.routes))
        setattr_(self, "tickets", tuple(self.tickets))
        setattr_(self, "deck", tuple((str(n), int(c)) for n, c in self.deck))
        setattr_(self, "provenance", _freeze(self.provenance))
        setattr_(self, "extra", _freeze(self.extra))
        for i, r in enumerate(self.routes):
            if r.index != i:
                raise MapError(f"{self.key}: route {r.id} has index {r.index} but is at position {i} of routes")
        by_name = {c.name: c for c in cities}
        folded: dict[str, str] = {}
        for c in cities:
            folded.setdefault(_fold(c.name), c.name)
        by_id = {r.id: r for r in self.routes}
        at: dict[str, list[Route]] = {c.name: [] for c in cities}
        between: dict[frozenset, list[Route]] = {}
        groups: dict[str, list[Route]] = {}
        for r in self.routes:
            for end in (r.a, r.b):
                if end not in at:
                    raise MapError(f"{self.key}: route {r.id} ends at {end!r}, which is not a city of this map")
            at[r.a].append(r)
            at[r.b].append(r)
            between.setdefault(frozenset((r.a, r.b)), []).append(r)
            if r.double_group is not None:
                groups.setdefault(r.double_group, []).append(r)
        twins = {r.id: () for r in self.routes}
        for members in groups.values():
            for r in members:
                twins[r.id] = tuple(t for t in members if t is not r)
        setattr_(self, "_city_by_name", by_name)
        setattr_(self, "_city_folded", folded)
        setattr_(self, "_route_by_id", by_id)
        setattr_(self, "_ticket_by_id", {t.id: t for t in self.tickets})
        setattr_(self, "_routes_at", {k: tuple(v) for k, v in at.items()})
        setattr_(self, "_routes_between", {k: tuple(v) for k, v in between.items()})
        setattr_(self, "_twins", twins)

    def __repr__(self) -> str:
        flag = ", PROVISIONAL" if self.provisional else ""
        return (f"<Map {self.key} {self.name!r}: {len(self.cities)} cities, {len(self.routes)} routes, "
                f"{len(self.tickets)} tickets{flag}>")

    # ------------------------------------------------------------------------------------------- lookups
    def _city_name(self, name) -> str:
        if isinstance(name, City):
            name = name.name
        if name in self._city_by_name:
            return name
        if isinstance(name, str):
            found = self._city_folded.get(_fold(name.strip()))
            if found is not None:
                return found
        raise MapError(f"{self.key}: unknown city {name!r}{_suggest(name, self._city_by_name)}")

    def city(self, name: str) -> City:
        """The city called ``name`` (exact, or ignoring case and accents). MapError if there is none."""
        return self._city_by_name[self._city_name(name)]

    def route(self, route_id: str) -> Route:
        """The route with this id (e.g. "R017") or city text ("Denver–Omaha", see ``ttr_nb.board.names``). MapError if
        there is none."""
        if isinstance(route_id, Route):
            route_id = route_id.id
        try:
            return self._route_by_id[route_id]
        except (KeyError, TypeError):
            if isinstance(route_id, str) and route_id.upper() in self._route_by_id:
                return self._route_by_id[route_id.upper()]
            if isinstance(route_id, str) and any(d in route_id for d in "–—-"):
                try:
                    return find_route(self, route_id)
                except MapError as e:
                    raise MapError(f"{self.key}: {e}") from None
            raise MapError(f"{self.key}: unknown route {route_id!r}{_suggest(route_id, self._route_by_id)}") from None

    def ticket(self, ticket_id: str) -> Ticket:
        """The ticket with this id (e.g. "T04") or city text ("Helena–Los Angeles"). MapError if there is none."""
        if isinstance(ticket_id, Ticket):
            ticket_id = ticket_id.id
        try:
            return self._ticket_by_id[ticket_id]
        except (KeyError, TypeError):
            if isinstance(ticket_id, str) and ticket_id.upper() in self._ticket_by_id:
                return self._ticket_by_id[ticket_id.upper()]
            if isinstance(ticket_id, str) and any(d in ticket_id for d in "–—-"):
                try:
                    return find_ticket(self, ticket_id)
                except MapError as e:
                    raise MapError(f"{self.key}: {e}") from None
            raise MapError(f"{self.key}: unknown ticket {ticket_id!r}{_suggest(ticket_id, self._ticket_by_id)}") from None

    def twins(self, route_id: str) -> tuple[Route, ...]:
        """The other tracks of the same double (or triple) route, in file order; () for a single route."""
        return self._twins[self.route(route_id).id]

    def routes_between(self, a: str, b: str) -> tuple[Route, ...]:
        """Every track joining ``a`` and ``b`` (either order), in file order; () if they are not neighbours."""
        return self._routes_between.get(frozenset((self._city_name(a), self._city_name(b))), ())

    def routes_at(self, city: str) -> tuple[Route, ...]:
        """Every track touching ``city``, in file order."""
        return self._routes_at[self._city_name(city)]

    @property
    def ends_only(self) -> frozenset[str]:
        """Places a path may start or end at but never pass through: on the Märklin board the countries
        (a city whose ``extra`` says ``country: true``; a route into a country is not a way through it).
        Empty on the other boards. The analyses (``ttr_nb.analysis``) honour it."""
        return frozenset(c.name for c in self.cities if c.extra.get("country"))

    def graph(self):
        """A new ``networkx.MultiGraph`` of the board (yours to modify).

        Nodes are city names with ``lat``, ``lon`` (and the city's extra fields); one edge per route with
        ``key`` = route id and attributes ``id, length, colour, double_group, tunnel, ferry_locos``.
        ``graph.graph`` holds ``key``, ``name``, ``provisional`` and ``ends_only`` (places no path passes
        through, see ``Map.ends_only``).
        """
        import networkx as nx

        g = nx.MultiGraph(key=self.key, name=self.name, provisional=self.provisional,
                          ends_only=sorted(self.ends_only))
        for c in self.cities:
            g.add_node(c.name, **{k: v for k, v in c.extra.items() if k not in ("lat", "lon")}, lat=c.lat, lon=c.lon)
        for r in self.routes:
            g.add_edge(r.a, r.b, key=r.id, id=r.id, length=r.length, colour=r.colour,
                       double_group=r.double_group, tunnel=r.tunnel, ferry_locos=r.ferry_locos)
        return g

    def summary(self) -> dict:
        """Counts: cities, routes, city pairs, double groups, total length, lengths and colours, tunnels, ferries,
        tickets by deck, ticket points, deck size. The same numbers as ``provenance["totals"]``."""
        totals = _totals(len(self.cities), self.routes, self.tickets, self.deck)
        totals["lengths"] = {int(k): v for k, v in totals["lengths"].items()}
        return {"key": self.key, "name": self.name, "provisional": self.provisional, **totals}


def _totals(n_cities: int, routes, tickets, deck) -> dict:
    """The totals recorded in ``provenance.totals`` (JSON form: string keys). ``routes``/``tickets`` are Route and
    Ticket objects or their JSON dicts; ``deck`` is (name, count) pairs."""
    def get(item, name, default=None):
        return item.get(name, default) if isinstance(item, Mapping) else getattr(item, name)

    routes, tickets = list(routes), list(tickets)
    lengths: dict[int, int] = {}
    colours: dict[str, int] = {c: 0 for c in ROUTE_COLOURS}
    groups = set()
    for r in routes:
        lengths[get(r, "length")] = lengths.get(get(r, "length"), 0) + 1
        colours[get(r, "colour")] = colours.get(get(r, "colour"), 0) + 1
        if get(r, "double_group") is not None:
            groups.add(get(r, "double_group"))
    by_deck: dict[str, int] = {}
    points_by_deck: dict[str, int] = {}
    for t in tickets:
        d = get(t, "deck", "regular")
        by_deck[d] = by_deck.get(d, 0) + 1
        points_by_deck[d] = points_by_deck.get(d, 0) + get(t, "points")
    return {
        "cities": n_cities,
        "routes": len(routes),
        "city_pairs": len({frozenset((get(r, "a"), get(r, "b"))) for r in routes}),
        "double_groups": len(groups),
        "total_length": sum(get(r, "length") for r in routes),
        "lengths": {str(k): lengths[k] for k in sorted(lengths)},
        "colours": {c: n for c, n in colours.items() if n},
        "tunnels": sum(1 for r in routes if get(r, "tunnel", False)),
        "ferries": sum(1 for r in routes if get(r, "ferry_locos", 0) > 0),
        "ferry_locos": sum(get(r, "ferry_locos", 0) for r in routes),
        "tickets": len(tickets),
        "ticket_points": sum(get(t, "points") for t in tickets),
        "tickets_by_deck": by_deck,
        "ticket_points_by_deck": points_by_deck,
        "deck_cards": sum(n for _, n in deck),
    }


# --------------------------------------------------------------------------------------------- finding the files

def maps_dir():
    """The folder holding the shipped map files: ``ttr_nb/maps/`` inside an installed wheel, else ``maps/`` at the
    top of a source checkout (or editable install). MapError if neither exists."""
    from pathlib import Path
    try:
        from importlib.resources import files
        package = files("ttr_nb")
        # Only a regular package gives a plain Path. While ttr_nb has no __init__.py it is a namespace package
        # that may span several folders (e.g. a stale copy left by an editable install): skip to the checkout.
        if isinstance(package, Path) and (package / "maps").is_dir():
            return package / "maps"
    except (ImportError, TypeError, ValueError, OSError):
        pass
    package = Path(__file__).resolve().parents[1]            # ttr_nb/, this module being ttr_nb/board/maps.py
    beside = package / "maps"                                # found without importlib.resources
    if beside.is_dir():
        return beside
    checkout = package.parent / "maps"
    if checkout.is_dir():
        return checkout
    raise MapError(f"the map folder is missing: neither the installed package's ttr_nb/maps/ nor {checkout} exists; "
                   "reinstall ttr_nb")


def available_maps() -> list[str]:
    """Sorted names of the map files shipped with ttr_nb (e.g. ['europe', 'usa'])."""
    return sorted(p.stem for p in maps_dir().glob("*.json") if _KEY_RE.fullmatch(p.stem))


def _label(path) -> str:
    """How a file is named in error messages: ``maps/usa.json`` for shipped maps, else the path as given."""
    from pathlib import Path
    p = Path(path)
    try:
        if p.resolve().parent == maps_dir().resolve():
            return f"maps/{p.name}"
    except (MapError, OSError, ValueError):    # ValueError: a NUL byte in the path (refused when it is read)
        pass
    return repr(str(path)) if "\x00" in str(path) else str(path)


_CACHE: dict[str, Map] = {}


def load_map(name_or_path) -> Map:
    """Load a map by registered name ("usa", "Europe": case-insensitive; cached) or from a path to a .json file.

    Raises MapError naming the file, the item and the field of every problem found (see :func:`check_map_file`).
    """
    from pathlib import Path
    if isinstance(name_or_path, os.PathLike):
        return _load_path(Path(name_or_path))
    if not isinstance(name_or_path, str):
        raise MapError(f"load_map expects a map name such as 'usa' or a path to a .json file, "
                       f"got {type(name_or_path).__name__}")
    text = name_or_path.strip()
    if not text:
        raise MapError(f"load_map: empty map name; available maps: {', '.join(available_maps())}")
    if "/" in text or "\\" in text or os.sep in text or text.lower().endswith(".json"):
        return _load_path(Path(text))
    key = text.lower()
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    path = maps_dir() / f"{key}.json"
    if not _KEY_RE.fullmatch(key) or not path.is_file():
        names = available_maps()
        raise MapError(f"unknown map {name_or_path!r}{_suggest(key, names)}; available maps: {', '.join(names)} "
                       "(or give a path to a .json map file)")
    m = _load_path(path)
    if m.key != key:
        raise MapError(f"{_label(path)}: top level: field 'key' is {m.key!r} but the file is named {path.name}")
    _CACHE[key] = m
    return m


def _load_path(path) -> Map:
    label = _label(path)
    ok, doc, problems = _read_document(path, label)
    if ok:
        problems += _check_document(doc, label)
    if problems:
        raise _error(problems)
    return _build_map(doc, str(path))


def check_map_file(path) -> list[str]:
    """Every problem found in the map file at ``path`` (an empty list means the file is valid)."""
    label = _label(path)
    ok, doc, problems = _read_document(path, label)
    return problems + _check_document(doc, label) if ok else problems


def map_from_dict(doc: Mapping, source: str = "<dict>") -> Map:
    """Validate a map document already in memory (same format as the files) and build the Map.
    Handy for small test boards; ``source`` is the name used in error messages and ``Map.source_file``."""
    problems = _check_document(doc, source)
    if problems:
        raise _error(problems)
    return _build_map(doc, source)


def _error(problems: list[str]) -> MapError:
    if len(problems) == 1:
        err = MapError(problems[0])
    else:
        shown = problems[:25]
        more = f"\n  ... and {len(problems) - len(shown)} more" if len(problems) > len(shown) else ""
        err = MapError(f"{problems[0]}\n{len(problems)} problems in all:\n  " + "\n  ".join(shown) + more)
    err.problems = list(problems)
    return err


# --------------------------------------------------------------------------------------------- reading JSON

class _Bad:
    """Stands in for a JSON value we refuse (NaN, Infinity, an absurdly long integer) so the checks can name it."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _read_document(path, label):
    """(parsed?, document, problems). Problems found while parsing (duplicate keys) do not stop the checks."""
    import json
    from ..files import FileProblem, read_bounded
    try:
        raw = read_bounded(path, MAX_FILE_BYTES, "map file")      # regular files only, never more than the limit
    except FileProblem as e:
        return False, None, [f"{label}: {e}"]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return False, None, [f"{label}: byte {e.start}: the file is not UTF-8 text"]
    if not text.strip():
        return False, None, [f"{label}: the file is empty"]

    duplicates: list[str] = []

    def pairs_hook(pairs):
        out = {}
        for k, v in pairs:
            if k in out:
                who = next((f"{n} {v2!r}" for n, v2 in pairs if n in ("id", "name") and isinstance(v2, str)), None)
                duplicates.append(f"{label}: {'the object with ' + who if who else 'an object'}: field {k!r} "
                                  "appears twice in it")
            out[k] = v
        return out

    def parse_int(s):
        return int(s) if len(s) <= 60 else _Bad(f"a {len(s.lstrip('-'))}-digit number")

    try:
        doc = json.loads(text, object_pairs_hook=pairs_hook, parse_int=parse_int,
                         parse_constant=lambda c: _Bad(c))
    except json.JSONDecodeError as e:
        if not text.lstrip().startswith(("{", "[")):
            # not JSON at all: say so without quoting the file (it may be any file on the machine)
            return False, None, [f"{label}: not a map file: a map file is a JSON object starting with '{{' "
                                 f"(invalid JSON: {e.msg} at line {e.lineno}, column {e.colno})"]
        lines = text.splitlines() or [""]
        line = lines[min(e.lineno, len(lines)) - 1]
        start = max(0, e.colno - 50)
        excerpt = ("…" if start else "") + line[start:e.colno + 30].strip() + ("…" if len(line) > e.colno + 30 else "")
        cut = not text[e.pos:].strip() or not text.rstrip().endswith(("}", "]"))
        truncated = " (the file ends too early: is it truncated?)" if cut else ""
        where = _json_error_context(lines, e.lineno, e.colno)
        return False, None, [f"{label}: line {e.lineno}, column {e.colno}{where}: invalid JSON: {e.msg}{truncated}: "
                             f"{excerpt}"]
    except (ValueError, RecursionError) as e:
        return False, None, [f"{label}: invalid JSON: {e}"]
    return True, doc, duplicates


def _json_error_context(lines: list[str], lineno: int, colno: int) -> str:
    """Best effort: which item and field a JSON syntax error sits in, for files in the canonical layout
    (one city/route/ticket per line). Returns e.g. " (routes[4] (R005), field 'length')" or ""."""
    if not 0 < lineno <= len(lines):
        return ""
    line = lines[lineno - 1]
    fields = re.findall(r'"([^"\\]{1,40})"\s*:', line[:colno - 1])
    item = None
    if line.lstrip().startswith("{"):
        for j in range(lineno - 2, -1, -1):
            m = re.match(r'\s*"(cities|routes|tickets)"\s*:\s*\[\s*$', lines[j])
            if m:
                ident = re.search(r'"(?:id|name)"\s*:\s*"([^"\\]{1,80})"', line)
                item = f"{m.group(1)}[{lineno - 2 - j}]" + (f" ({ident.group(1)})" if ident else "")
                break
            if not lines[j].lstrip().startswith("{"):
                break
    parts = ([item] if item else []) + ([f"field {fields[-1]!r}"] if fields else [])
    return f" ({', '.join(parts)})" if parts else ""


# --------------------------------------------------------------------------------------------- validating

def _show(v) -> str:
    import json
    if isinstance(v, _Bad):
        return v.text
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v) if v.bit_length() <= 200 else f"a {int(v.bit_length() * 0.30103)}-digit number"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        s = json.dumps(v, ensure_ascii=False)
        return s if len(s) <= 60 else s[:56] + '…"'
    if isinstance(v, Mapping):
        return "an object"
    if isinstance(v, (list, tuple)):
        return "a list"
    return type(v).__name__


def _is_int(v, lo, hi) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _is_number(v, lo, hi) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and lo <= v <= hi  # NaN fails both comparisons


def _name_problem(v, what="a name") -> str | None:
    if not isinstance(v, str):
        return f"must be {what} (a string), got {_show(v)}"
    if not v.strip():
        return f"must be a non-empty {what}, got {_show(v)}"
    if v != v.strip() or any(ord(c) < 32 for c in v) or len(v) > 80:
        return f"must be {what} without leading/trailing spaces or control characters, at most 80 long, got {_show(v)}"
    return None


def _id_problem(v, example) -> str | None:
    if not isinstance(v, str) or not _ID_RE.fullmatch(v):
        return f"must be an id like \"{example}\" (letters, digits, '_', '-', '.'; at most 40), got {_show(v)}"
    return None


def _colour_problem(v) -> str | None:
    if isinstance(v, str) and v in ROUTE_COLOURS:
        return None
    hint = ""
    if isinstance(v, str) and v.strip().lower() in _COLOUR_ALIASES and _COLOUR_ALIASES[v.strip().lower()] in ROUTE_COLOURS:
        hint = f" (write {_COLOUR_ALIASES[v.strip().lower()]!r})"
    elif isinstance(v, str) and v.strip().lower() in ROUTE_COLOURS:
        hint = f" (write {v.strip().lower()!r})"
    return f"must be one of {', '.join(ROUTE_COLOURS)}, got {_show(v)}{hint}"


_TOP_REQUIRED = ("format", "version", "key", "name", "provisional", "provisional_note", "provenance",
                 "deck", "cities", "routes", "tickets")
_TOP_OPTIONAL = ("extra",)
_CITY_REQUIRED = ("name", "lat", "lon")
_CITY_OPTIONAL = ("extra",)
_ROUTE_REQUIRED = ("id", "a", "b", "length", "colour")
_ROUTE_OPTIONAL = ("double_group", "tunnel", "ferry_locos")
_TICKET_REQUIRED = ("id", "a", "b", "points")
_TICKET_OPTIONAL = ("deck", "extra")
_TOTAL_KEYS = ("cities", "routes", "city_pairs", "double_groups", "total_length", "lengths", "colours", "tunnels",
               "ferries", "ferry_locos", "tickets", "ticket_points", "tickets_by_deck", "ticket_points_by_deck",
               "deck_cards")


class _Report:
    def __init__(self, label: str):
        self.label = label
        self.problems: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.problems.append(f"{self.label}: {where}: {message}")

    def keys(self, where: str, obj: Mapping, required, optional) -> None:
        for k in required:
            if k not in obj:
                self.add(where, f"field {k!r} is missing")
        allowed = tuple(required) + tuple(optional)
        for k in obj:
            if k not in allowed:
                self.add(where, f"unknown field {k!r}{_suggest(k, allowed)}; allowed: {', '.join(allowed)}")


def _item(kind: str, i: int, obj, ident: str) -> str:
    name = obj.get(ident) if isinstance(obj, Mapping) else None
    return f"{kind}[{i}] ({name})" if isinstance(name, str) and name.strip() and len(name) <= 80 else f"{kind}[{i}]"


def _check_document(doc, label: str) -> list[str]:
    rep = _Report(label)
    if not isinstance(doc, Mapping):
        rep.add("top level", f"a map file must be a JSON object {{...}}, got {_show(doc)}")
        return rep.problems
    top = "top level"
    rep.keys(top, doc, _TOP_REQUIRED, _TOP_OPTIONAL)
    if "format" in doc and doc["format"] != FORMAT:
        rep.add(top, f"field 'format' must be \"{FORMAT}\", got {_show(doc['format'])} (is this a ttr_nb map file?)")
    if "version" in doc:
        v = doc["version"]
        if _is_int(v, FORMAT_VERSION + 1, 10**9):
            rep.add(top, f"field 'version' is {v}: this ttr_nb reads version {FORMAT_VERSION}; upgrade ttr_nb")
        elif v != FORMAT_VERSION or isinstance(v, bool):
            rep.add(top, f"field 'version' must be {FORMAT_VERSION}, got {_show(v)}")
    if "key" in doc and (not isinstance(doc["key"], str) or not _KEY_RE.fullmatch(doc["key"])):
        rep.add(top, f"field 'key' must be a short lower-case name like \"usa\" (a-z, 0-9, _), got {_show(doc['key'])}")
    if "name" in doc and (p := _name_problem(doc["name"], "a title")):
        rep.add(top, f"field 'name' {p}")
    prov = doc.get("provisional")
    note = doc.get("provisional_note")
    if "provisional" in doc and not isinstance(prov, bool):
        rep.add(top, f"field 'provisional' must be true or false, got {_show(prov)}")
    if "provisional_note" in doc:
        if not isinstance(note, str):
            rep.add(top, f"field 'provisional_note' must be a string, got {_show(note)}")
        elif prov is True and not note.strip():
            rep.add(top, "field 'provisional_note' must say what is provisional (the sentence users will see) "
                         "when 'provisional' is true, got \"\"")
        elif prov is False and note:
            rep.add(top, "field 'provisional_note' must be \"\" when 'provisional' is false")
    if "extra" in doc and not isinstance(doc["extra"], Mapping):
        rep.add(top, f"field 'extra' must be an object, got {_show(doc['extra'])}")
    if "provenance" in doc and not isinstance(doc["provenance"], Mapping):
        rep.add(top, f"field 'provenance' must be an object, got {_show(doc['provenance'])}")

    # ---- deck
    deck = doc.get("deck")
    deck_ok = False
    if "deck" in doc:
        if not isinstance(deck, Mapping):
            rep.add("deck", f"must be an object of card name → count, e.g. {{\"purple\": 12, ...}}, got {_show(deck)}")
        elif not deck:
            rep.add("deck", "must list at least one card")
        else:
            deck_ok = True
            for card, count in deck.items():
                if card not in CARD_INDEX:
                    alias = _COLOUR_ALIASES.get(card.strip().lower() if isinstance(card, str) else card)
                    hint = f" (write {alias!r})" if alias else _suggest(card, CARD_NAMES)
                    rep.add("deck", f"field {card!r} is not a card; cards are {', '.join(CARD_NAMES)}{hint}")
                    deck_ok = False
                if not _is_int(count, 0, MAX_DECK_COUNT):
                    rep.add("deck", f"field {card!r} must be a whole number 0–{MAX_DECK_COUNT}, got {_show(count)}")
                    deck_ok = False
            if deck_ok and sum(deck.values()) == 0:
                rep.add("deck", "holds no cards at all")

    # ---- cities
    city_names: dict[str, int] = {}
    folded_names: dict[str, str] = {}
    cities = doc.get("cities")
    cities_ok = isinstance(cities, list)
    if "cities" in doc and not isinstance(cities, list):
        rep.add(top, f"field 'cities' must be a list of cities, got {_show(cities)}")
    for i, c in enumerate(cities if isinstance(cities, list) else ()):
        where = _item("cities", i, c, "name")
        if not isinstance(c, Mapping):
            rep.add(where, f"must be an object {{\"name\", \"lat\", \"lon\"}}, got {_show(c)}")
            cities_ok = False
            continue
        n_before = len(rep.problems)
        rep.keys(where, c, _CITY_REQUIRED, _CITY_OPTIONAL)
        name = c.get("name")
        if "name" in c:
            if p := _name_problem(name, "a city name"):
                rep.add(where, f"field 'name' {p}")
            elif name in city_names:
                rep.add(where, f"field 'name': the city {name!r} is listed twice (first at cities[{city_names[name]}])")
            elif _fold(name) in folded_names:
                rep.add(where, f"field 'name': {name!r} differs from {folded_names[_fold(name)]!r} only in case or "
                               "accents; city names must stay distinct when typed without them")
            else:
                city_names[name] = i
                folded_names[_fold(name)] = name
        for fld, lim in (("lat", 90), ("lon", 180)):
            if fld in c and not _is_number(c[fld], -lim, lim):
                rep.add(where, f"field {fld!r} must be a number from -{lim} to {lim} (decimal degrees), got {_show(c[fld])}")
        if "extra" in c and not isinstance(c["extra"], Mapping):
            rep.add(where, f"field 'extra' must be an object, got {_show(c['extra'])}")
        cities_ok = cities_ok and len(rep.problems) == n_before

    def check_city_ref(where, obj, fld):
        v = obj.get(fld)
        if fld not in obj:
            return False
        if not isinstance(v, str):
            rep.add(where, f"field {fld!r} must be a city name (a string), got {_show(v)}")
            return False
        if v not in city_names:
            if isinstance(cities, list):   # no point repeating it for every route if the city list itself is broken
                rep.add(where, f"field {fld!r}: unknown city {_show(v)}{_suggest(v, city_names)}; "
                               "every city must be listed in 'cities'")
            return False
        return True

    # ---- routes
    routes = doc.get("routes")
    routes_ok = isinstance(routes, list)
    if "routes" in doc and not isinstance(routes, list):
        rep.add(top, f"field 'routes' must be a list of routes, got {_show(routes)}")
    route_ids: dict[str, int] = {}
    good_routes: list[tuple[int, str, Mapping]] = []   # (index, where, route) for routes with valid fields
    linked: list[tuple[int, str, Mapping, bool, bool, bool]] = []   # + (ends ok, length ok, group ok), for twins
    for i, r in enumerate(routes if isinstance(routes, list) else ()):
        where = _item("routes", i, r, "id")
        if not isinstance(r, Mapping):
            rep.add(where, f"must be an object {{\"id\", \"a\", \"b\", \"length\", \"colour\", ...}}, got {_show(r)}")
            routes_ok = False
            continue
        n_before = len(rep.problems)
        rep.keys(where, r, _ROUTE_REQUIRED, _ROUTE_OPTIONAL)
        if "id" in r:
            if p := _id_problem(r["id"], "R001"):
                rep.add(where, f"field 'id' {p}")
            elif r["id"] in route_ids:
                rep.add(where, f"field 'id': the id {r['id']!r} is used twice (first at routes[{route_ids[r['id']]}])")
            else:
                route_ids[r["id"]] = i
        ends_ok = check_city_ref(where, r, "a") & check_city_ref(where, r, "b")
        if ends_ok and r["a"] == r["b"]:
            rep.add(where, f"field 'b': a route must join two different cities, got {_show(r['a'])} at both ends")
        length = r.get("length")
        length_ok = _is_int(length, 1, MAX_ROUTE_LENGTH)
        if "length" in r and not length_ok:
            rep.add(where, f"field 'length' must be a whole number 1–{MAX_ROUTE_LENGTH}, got {_show(length)}")
        if "colour" in r and (p := _colour_problem(r["colour"])):
            rep.add(where, f"field 'colour' {p}")
        group = r.get("double_group")
        group_ok = group is None or not _id_problem(group, "D01")
        if not group_ok:
            rep.add(where, f"field 'double_group' must be null or {_id_problem(group, 'D01')[len('must be '):]}")
        linked.append((i, where, r, ends_ok and r["a"] != r["b"], length_ok, group_ok))
        tunnel = r.get("tunnel", False)
        if not isinstance(tunnel, bool):
            rep.add(where, f"field 'tunnel' must be true or false, got {_show(tunnel)}")
        locos = r.get("ferry_locos", 0)
        if not _is_int(locos, 0, MAX_ROUTE_LENGTH):
            rep.add(where, f"field 'ferry_locos' must be a whole number 0–{MAX_ROUTE_LENGTH} "
                           f"(0: not a ferry), got {_show(locos)}")
        elif locos > 0:
            if _is_int(length, 1, MAX_ROUTE_LENGTH) and locos > length:
                rep.add(where, f"field 'ferry_locos' is {locos} but the route is only {length} long")
            if isinstance(r.get("colour"), str) and r.get("colour") in COLOURS:
                rep.add(where, f"field 'colour': a ferry (ferry_locos > 0) must be gray, got {_show(r['colour'])}")
            if tunnel is True:
                rep.add(where, "field 'tunnel': a route cannot be both a tunnel and a ferry")
        if len(rep.problems) == n_before:
            good_routes.append((i, where, r))
        else:
            routes_ok = False

    # ---- route cross-checks: double groups, parallel tracks, every city reachable
    # (checked on every route whose own fields involved are valid, so one bad field does not cascade)
    groups: dict[str, list[tuple]] = {}
    pairs: dict[frozenset, list[tuple]] = {}
    for entry in linked:
        r, ends_ok, group_ok = entry[2], entry[3], entry[5]
        if ends_ok and group_ok:
            pairs.setdefault(frozenset((r["a"], r["b"])), []).append(entry)
        if group_ok and r.get("double_group") is not None:
            groups.setdefault(r["double_group"], []).append(entry)
    for gid, members in groups.items():
        first_where = members[0][1]
        if len(members) < 2:
            rep.add(first_where, f"field 'double_group': group {gid!r} has only this route; a double group needs "
                                 "2 or 3 parallel tracks (use null for a single route)")
        if len(members) > MAX_GROUP_SIZE:
            rep.add(members[MAX_GROUP_SIZE][1], f"field 'double_group': group {gid!r} has {len(members)} routes; "
                                                f"at most {MAX_GROUP_SIZE} (a triple route)")
        # the odd one out is blamed: compare each member with the group's most common city pair and length
        pair_votes: dict[frozenset, list] = {}
        length_votes: dict[int, list] = {}
        for e in members:
            if e[3]:
                pair_votes.setdefault(frozenset((e[2]["a"], e[2]["b"])), []).append(e)
            if e[4]:
                length_votes.setdefault(e[2]["length"], []).append(e)
        pair, pair_members = max(pair_votes.items(), key=lambda kv: len(kv[1]), default=(None, []))
        length, length_members = max(length_votes.items(), key=lambda kv: len(kv[1]), default=(None, []))
        for i, where, r, ends_ok, length_ok, _ in members:
            if ends_ok and frozenset((r["a"], r["b"])) != pair:
                ref = pair_members[0]
                rep.add(where, f"field 'double_group': group {gid!r} joins {ref[2]['a']}–{ref[2]['b']} "
                               f"({ref[1]}) but this route joins {r['a']}–{r['b']}")
            elif length_ok and r["length"] != length:
                ref = length_members[0]
                rep.add(where, f"field 'length' is {r['length']} but its twin in group {gid!r} "
                               f"({ref[1]}) is {length} long")
    for members in pairs.values():
        ungrouped = [e for e in members if e[2].get("double_group") is None]
        if len(members) > 1 and ungrouped:
            i, where, r = ungrouped[0][:3]
            others = ", ".join(e[1] for e in members if e is not ungrouped[0])
            rep.add(where, f"field 'double_group' is null but {others} also join{'s' if len(members) == 2 else ''} "
                           f"{r['a']}–{r['b']}; parallel tracks must share a double_group")
    if cities_ok and routes_ok and good_routes:
        adjacency: dict[str, set] = {n: set() for n in city_names}
        for _, _, r in good_routes:
            adjacency[r["a"]].add(r["b"])
            adjacency[r["b"]].add(r["a"])
        for n, i in city_names.items():
            if not adjacency[n]:
                rep.add(f"cities[{i}] ({n})", "field 'name': no route touches this city")
        start = next((n for n in city_names if adjacency[n]), None)
        seen, todo = {start}, [start]
        while todo:
            for nb in adjacency[todo.pop()]:
                if nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        cut_off = sorted(n for n in city_names if n not in seen and adjacency[n])
        if cut_off:
            rep.add("routes", f"the board is in pieces: {', '.join(cut_off[:8])}{' ...' if len(cut_off) > 8 else ''} "
                              f"cannot be reached from {start}")

    # ---- tickets
    tickets = doc.get("tickets")
    tickets_ok = isinstance(tickets, list)
    if "tickets" in doc and not isinstance(tickets, list):
        rep.add(top, f"field 'tickets' must be a list of tickets, got {_show(tickets)}")
    ticket_ids: dict[str, int] = {}
    for i, t in enumerate(tickets if isinstance(tickets, list) else ()):
        where = _item("tickets", i, t, "id")
        if not isinstance(t, Mapping):
            rep.add(where, f"must be an object {{\"id\", \"a\", \"b\", \"points\", \"deck\"}}, got {_show(t)}")
            tickets_ok = False
            continue
        n_before = len(rep.problems)
        rep.keys(where, t, _TICKET_REQUIRED, _TICKET_OPTIONAL)
        if "id" in t:
            if p := _id_problem(t["id"], "T01"):
                rep.add(where, f"field 'id' {p}")
            elif t["id"] in ticket_ids:
                rep.add(where, f"field 'id': the id {t['id']!r} is used twice (first at tickets[{ticket_ids[t['id']]}])")
            else:
                ticket_ids[t["id"]] = i
        if check_city_ref(where, t, "a") & check_city_ref(where, t, "b") and t["a"] == t["b"]:
            rep.add(where, f"field 'b': a ticket must join two different cities, got {_show(t['a'])} at both ends")
        if "points" in t and not _is_int(t["points"], 1, MAX_TICKET_POINTS):
            rep.add(where, f"field 'points' must be a whole number 1–{MAX_TICKET_POINTS}, got {_show(t['points'])}")
        if "deck" in t and (not isinstance(t["deck"], str) or not _KEY_RE.fullmatch(t["deck"])):
            rep.add(where, f"field 'deck' must be a lower-case deck name like \"regular\" or \"long\", got {_show(t['deck'])}")
        if "extra" in t and not isinstance(t["extra"], Mapping):
            rep.add(where, f"field 'extra' must be an object, got {_show(t['extra'])}")
        tickets_ok = tickets_ok and len(rep.problems) == n_before

    # ---- provenance totals must match the data (catches hand edits that forget to update them)
    prov_doc = doc.get("provenance")
    if isinstance(prov_doc, Mapping) and "totals" in prov_doc:
        stated = prov_doc["totals"]
        if not isinstance(stated, Mapping):
            rep.add("provenance", f"field 'totals' must be an object, got {_show(stated)}")
        else:
            for k in stated:
                if k not in _TOTAL_KEYS:
                    rep.add("provenance", f"field 'totals.{k}' is not a known total{_suggest(k, _TOTAL_KEYS)}; "
                                          f"known: {', '.join(_TOTAL_KEYS)}")
            if cities_ok and routes_ok and tickets_ok and deck_ok and not rep.problems:
                actual = _totals(len(cities), routes, tickets, list(deck.items()))
                for k in _TOTAL_KEYS:
                    if k in stated and _thaw(stated[k]) != actual[k]:
                        rep.add("provenance", f"field 'totals.{k}' says {_show_total(stated[k])} but the data give "
                                              f"{_show_total(actual[k])}; fix the data or the total")
    return rep.problems


def _show_total(v) -> str:
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.items()) + "}"
    return _show(v)


def _build_map(doc: Mapping, source_file: str) -> Map:
    cities = tuple(City(c["name"], float(c["lat"]), float(c["lon"]), c.get("extra", {})) for c in doc["cities"])
    routes = tuple(
        Route(r["id"], i, r["a"], r["b"], r["length"], r["colour"], r.get("double_group"),
              bool(r.get("tunnel", False)), r.get("ferry_locos", 0))
        for i, r in enumerate(doc["routes"]))
    tickets = tuple(Ticket(t["id"], t["a"], t["b"], t["points"], t.get("deck", "regular"), t.get("extra", {}))
                    for t in doc["tickets"])
    deck = tuple(sorted(doc["deck"].items(), key=lambda kv: CARD_INDEX[kv[0]]))
    return Map(key=doc["key"], name=doc["name"], cities=cities, routes=routes, tickets=tickets, deck=deck,
               provisional=doc["provisional"], provisional_note=doc["provisional_note"],
               provenance=doc["provenance"], source_file=source_file, extra=doc.get("extra", {}))


# --------------------------------------------------------------------------------------------- writing JSON

def map_to_json(doc: Mapping) -> str:
    """The canonical text of a map document: indented, one city/route/ticket per line, UTF-8 (not escaped)."""
    import json

    def one(v):
        return json.dumps(_thaw(v), ensure_ascii=False)

    parts = []
    for k, v in doc.items():
        if k in ("cities", "routes", "tickets") and isinstance(v, (list, tuple)):
            body = ",\n".join(f"    {one(item)}" for item in v)
            parts.append(f'  {one(k)}: [\n{body}\n  ]' if v else f"  {one(k)}: []")
        elif k == "deck":
            parts.append(f"  {one(k)}: {one(v)}")
        else:
            parts.append(f"  {one(k)}: {_pretty(_thaw(v), 2)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _pretty(value, indent: int, width: int = 110) -> str:
    """JSON with containers on one line when they fit in ``width`` columns, else one member per line."""
    import json
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or indent + len(flat) <= width:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        body = ",\n".join(f"{pad}{json.dumps(k, ensure_ascii=False)}: {_pretty(v, indent + 2, width)}"
                          for k, v in value.items())
        return "{\n" + body + "\n" + " " * indent + "}"
    body = ",\n".join(pad + _pretty(v, indent + 2, width) for v in value)
    return "[\n" + body + "\n" + " " * indent + "]"


# --------------------------------------------------------------------------------------------- building from reference CSVs

#: The boards ``ttr-nb maps rebuild`` writes: key -> (folder under ``maps/sources/``, title).
REFERENCE_BOARDS: dict[str, tuple[str, str]] = {
    "usa": ("usa", "Ticket to Ride (USA)"),
    "europe": ("europe", "Ticket to Ride: Europe"),
}


def sources_dir():
    """The folder of reference tables the maps are built from: ``maps/sources/`` beside the map files (it ships in
    the wheel and the sdist too, as the maps' provenance)."""
    return maps_dir() / "sources"


def _read_csv(path, required: tuple[str, ...]) -> list[dict]:
    import csv
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.DictReader(f))
            header = rows[0].keys() if rows else []
    except FileNotFoundError:
        raise MapError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise MapError(f"{path}: cannot read: {e}") from None
    missing = [c for c in required if c not in header]
    if missing:
        raise MapError(f"{path}: header: column(s) {', '.join(missing)} missing")
    for n, row in enumerate(rows, start=2):
        if None in row or any(v is None for v in row.values()):
            raise MapError(f"{path}: line {n}: wrong number of fields")
    return rows


def _csv_int(path, n, ident, column, text, lo=0, hi=10**6) -> int:
    try:
        value = int(text.strip())
    except (ValueError, AttributeError):
        value = None
    if value is None or not lo <= value <= hi:
        raise MapError(f"{path}: line {n} ({ident}): column {column!r} must be a whole number {lo}–{hi}, got {text!r}")
    return value


def _csv_number(path, n, ident, column, text) -> float:
    try:
        return float(text)
    except ValueError:
        raise MapError(f"{path}: line {n} ({ident}): column {column!r} must be a number, got {text!r}") from None


def _csv_value(text: str):
    """Extra CSV columns: whole numbers become ints, everything else stays text."""
    t = text.strip()
    return int(t) if re.fullmatch(r"-?\d{1,9}", t) else t


def _clean_md(text: str) -> str:
    text = text.replace("**", "").replace("`", "")
    return re.sub(r"\s+", " ", text).strip()


def _md_sections(text: str) -> tuple[str, str, dict[str, list[str]]]:
    title, preamble, sections, current = "", [], {}, None
    for line in text.splitlines():
        if line.startswith("# ") and not title:
            title = line[2:].strip()
        elif line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
        elif current is None:
            preamble.append(line)
        else:
            sections[current].append(line)
    return title, _clean_md(" ".join(preamble)), sections


def _md_section(sections, prefix: str) -> list[str]:
    for name, lines in sections.items():
        if name.lower().startswith(prefix.lower()):
            return lines
    return []


def _md_items(lines: list[str]) -> list[str]:
    """Bullets (nested bullets folded into their parent) and table rows, each as one plain-text line."""
    items: list[str] = []
    header: list[str] | None = None
    for line in lines:
        s = line.strip()
        if s.startswith("|"):
            cells = [_clean_md(c) for c in s.strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                continue
            if header is None:
                header = cells
            else:
                items.append(f"{cells[0]}: " + "; ".join(f"{h} {c}" for h, c in zip(header[1:], cells[1:])))
            continue
        header = None
        if re.match(r"(-|\*|\d+\.) ", line):
            items.append(s.split(" ", 1)[1])
        elif re.match(r"\s+(-|\*) ", line) and items:
            sep = " " if items[-1].rstrip().endswith((".", ":", ";")) else "; "
            items[-1] += sep + s.split(" ", 1)[1]
        elif s and items:
            items[-1] += " " + s
    return [_clean_md(i) for i in items]


def _md_sources(lines: list[str]) -> list[dict]:
    out = []
    for text in _md_items(lines):
        repo = re.match(r"([\w.-]+/[\w.-]+)(?: \([^)]*\))? @ ([0-9a-f]{7,40})", text)
        low = text.lower()
        role = ("primary" if "primary source" in low else
                "not used" if re.search(r"did not use|not used|ignored", low) else
                "component counts" if "component" in low else "cross-check")
        out.append({"repo": repo.group(1) if repo else None, "commit": repo.group(2) if repo else None,
                    "role": role, "detail": text})
    return out


_TOTAL_PATTERNS = (
    ("cities", r"Cities: (\d+)"),
    ("routes", r"Routes: (\d+) tracks"),
    ("city_pairs", r"over (\d+) city pairs"),
    ("double_groups", r"of which (\d+) are double"),
    ("total_length", r"Sum of route lengths: \**(\d+)"),
    ("tunnels", r"Tunnels: (\d+)"),
    ("ferries", r"Ferries: (\d+) tracks"),
    ("ferry_locos", r"Ferries: \d+ tracks carrying (\d+)"),
    ("tickets", r"Tickets: (\d+)"),
    ("ticket_points", r"Sum of points: \**(\d+)"),
    ("deck_cards", r"Deck: (\d+)"),
)


def _check_stated_totals(sources_md, text: str, totals: dict) -> list[str]:
    """Compare the totals SOURCES.md states with the ones counted from the CSVs; MapError on any mismatch."""
    checked = []
    for key, pattern in _TOTAL_PATTERNS:
        m = re.search(pattern, text)
        if m:
            stated = int(m.group(1))
            if stated != totals[key]:
                raise MapError(f"{sources_md}: Totals: {key.replace('_', ' ')} is stated as {stated} but the CSVs give "
                               f"{totals[key]}")
            checked.append(f"{key.replace('_', ' ')} {stated}")
    m = re.search(r"Lengths: ((?:\d+×\d+(?:, )?)+)", text)
    if m:
        pairs = re.findall(r"(\d+)×(\d+)", m.group(1))
        stated_lengths = {a: int(b) for a, b in pairs}
        if stated_lengths != totals["lengths"]:        # also read as count×length (Märklin's SOURCES.md)
            stated_lengths = {b: int(a) for a, b in pairs}
        if stated_lengths != totals["lengths"]:
            raise MapError(f"{sources_md}: Totals: lengths stated as {m.group(1)} but the CSVs give {totals['lengths']}")
        checked.append("lengths " + m.group(1))
    m = re.search(r"Colours: gray (\d+), and (\d+) each of", text)
    if m:
        gray, each = int(m.group(1)), int(m.group(2))
        if totals["colours"] != {**{c: each for c in COLOURS}, GRAY: gray}:
            raise MapError(f"{sources_md}: Totals: colours stated as gray {gray} and {each} of each colour but the CSVs "
                           f"give {totals['colours']}")
        checked.append(f"colours gray {gray} + {each} of each card colour")
    for deck_name, n, points in re.findall(r"\b(Regular|Long|Short): (\d+) tickets, (\d+) points", text):
        d = deck_name.lower()
        if totals["tickets_by_deck"].get(d) != int(n) or totals["ticket_points_by_deck"].get(d) != int(points):
            raise MapError(f"{sources_md}: Totals: {d} tickets stated as {n} worth {points} but the CSVs give "
                           f"{totals['tickets_by_deck'].get(d)} worth {totals['ticket_points_by_deck'].get(d)}")
        checked.append(f"{d} tickets {n} worth {points}")
    return checked


def map_from_reference(folder, *, key: str, name: str, tickets_file: str = "tickets.csv",
                       deck: Mapping | None = None, provisional: bool | None = None,
                       provisional_note: str | None = None, extra: Mapping | None = None,
                       reference: str | None = None) -> dict:
    """Build a map document (the JSON content, as a dict) from a reference folder such as ``maps/sources/usa/``.

    Reads ``cities.csv`` (extra columns go to the city's ``extra``), ``routes.csv`` (``tunnel`` and ``ferry_locos``
    optional), ``tickets_file`` (extra columns go to the ticket's ``extra``), ``deck.csv`` unless ``deck`` is given,
    ``SOURCES.md`` (summarised into ``provenance``; the totals it states are checked against the CSVs) and
    ``PROVISIONAL.md`` if present (then ``provisional`` defaults to true and the note to its first line).
    ``reference`` is how the folder is named in the provenance (default ``maps/sources/<folder name>``).
    The document is validated; MapError names the CSV line or the JSON item at fault.
    """
    from pathlib import Path
    folder = Path(folder)
    if not folder.is_dir():
        raise MapError(f"{folder}: no such reference folder")
    reference = reference or f"maps/sources/{folder.name}"

    cities = []
    for n, row in enumerate(_read_csv(folder / "cities.csv", ("name", "lat", "lon")), start=2):
        c = {"name": row["name"].strip(), "lat": _csv_number(folder / "cities.csv", n, row["name"], "lat", row["lat"]),
             "lon": _csv_number(folder / "cities.csv", n, row["name"], "lon", row["lon"])}
        more = {k: _csv_value(v) for k, v in row.items() if k not in ("name", "lat", "lon") and v.strip()}
        if more:
            c["extra"] = more
        cities.append(c)
    cities.sort(key=lambda c: c["name"])

    routes = []
    rpath = folder / "routes.csv"
    for n, row in enumerate(_read_csv(rpath, ("id", "city_a", "city_b", "length", "colour")), start=2):
        rid = row["id"].strip()
        routes.append({
            "id": rid, "a": row["city_a"].strip(), "b": row["city_b"].strip(),
            "length": _csv_int(rpath, n, rid, "length", row["length"], 1, MAX_ROUTE_LENGTH),
            "colour": row["colour"].strip(),
            "double_group": (row.get("double_group") or "").strip() or None,
            "tunnel": bool(_csv_int(rpath, n, rid, "tunnel", row.get("tunnel") or "0", 0, 1)),
            "ferry_locos": _csv_int(rpath, n, rid, "ferry_locos", row.get("ferry_locos") or "0", 0, MAX_ROUTE_LENGTH),
        })

    tickets = []
    tpath = folder / tickets_file
    for n, row in enumerate(_read_csv(tpath, ("id", "city_a", "city_b", "points")), start=2):
        tid = row["id"].strip()
        t = {"id": tid, "a": row["city_a"].strip(), "b": row["city_b"].strip(),
             "points": _csv_int(tpath, n, tid, "points", row["points"], 1, MAX_TICKET_POINTS),
             "deck": (row.get("deck") or "regular").strip()}
        more = {k: _csv_value(v) for k, v in row.items()
                if k not in ("id", "city_a", "city_b", "points", "deck") and v.strip()}
        if more:
            t["extra"] = more
        tickets.append(t)

    if deck is None:
        dpath = folder / "deck.csv"
        deck = {row["card"].strip(): _csv_int(dpath, n, row["card"], "count", row["count"], 0, MAX_DECK_COUNT)
                for n, row in enumerate(_read_csv(dpath, ("card", "count")), start=2)}
    deck = {k: deck[k] for k in sorted(deck, key=lambda k: CARD_INDEX.get(k, len(CARD_INDEX)))}

    prov_md = folder / "PROVISIONAL.md"
    if provisional is None:
        provisional = prov_md.is_file()
    if provisional_note is None:
        provisional_note = ""
        if provisional and prov_md.is_file():
            first = next((ln.strip() for ln in prov_md.read_text(encoding="utf-8").splitlines() if ln.strip()), "")
            provisional_note = _clean_md(first.lstrip("#> "))
    if not provisional:
        provisional_note = ""

    totals = _totals(len(cities), routes, tickets, list(deck.items()))
    files = ["cities.csv", "routes.csv", tickets_file] + (["deck.csv"] if (folder / "deck.csv").is_file() else [])
    provenance: dict = {
        "reference": f"{reference}/ ({', '.join(files)})",
        "how": (f"Generated by `ttr-nb maps rebuild` from {reference}/; every number here comes from "
                f"those CSV files, whose SOURCES.md lists the sources and how they were cross-checked. Do not edit "
                f"this file by hand: fix the CSVs and rebuild."),
        "licence": "Facts only (names, lengths, colours, points, counts), rewritten in our own format; no code, "
                   "text or artwork was copied from the sources.",
    }
    sources_md = folder / "SOURCES.md"
    if sources_md.is_file():
        md = sources_md.read_text(encoding="utf-8")
        title, preamble, sections = _md_sections(md)
        stated = re.search(r"All values are facts[^.]*\.(?: No code was copied\.)?", preamble)
        if stated:
            provenance["licence"] += " SOURCES.md: " + stated.group(0)
        provenance["title"] = title
        provenance["sources"] = _md_sources(_md_section(sections, "Sources"))
        provenance["disagreements"] = _md_items(_md_section(sections, "Cross-check"))
        provenance["notes"] = _md_items(_md_section(sections, "Format notes"))
        provenance["caveats"] = _md_items(_md_section(sections, "Not verified"))
        checked = _check_stated_totals(f"{reference}/SOURCES.md", "\n".join(_md_section(sections, "Totals")), totals)
        provenance["checks"] = [
            "The totals below were counted from the CSVs when this file was built and agree with the totals "
            f"stated in {reference}/SOURCES.md: " + ", ".join(checked) + ".",
            "load_map re-validates the file and recounts these totals every time it is read.",
        ]
    if prov_md.is_file():
        provenance["provisional_details"] = f"{reference}/PROVISIONAL.md"
    provenance["totals"] = totals

    doc = {"format": FORMAT, "version": FORMAT_VERSION, "key": key, "name": name,
           "provisional": bool(provisional), "provisional_note": provisional_note,
           "deck": deck, "cities": cities, "routes": routes, "tickets": tickets,
           "extra": dict(extra or {}), "provenance": provenance}
    problems = _check_document(doc, f"{reference} (building {key}.json)")
    if problems:
        raise _error(problems)
    return doc


# --------------------------------------------------------------------------------------------- command line

def _rebuild(reference_root, out_dir, check_only: bool, out=None) -> int:
    from pathlib import Path
    status = 0
    for key, (folder, title) in REFERENCE_BOARDS.items():
        doc = map_from_reference(Path(reference_root) / folder, key=key, name=title)
        text = map_to_json(doc)
        target = Path(out_dir) / f"{key}.json"
        old = target.read_text(encoding="utf-8") if target.is_file() else None
        if old == text:
            print(f"{target}: up to date", file=out)
        elif check_only:
            print(f"{target}: differs from a rebuild from {Path(reference_root) / folder} (run: ttr-nb maps rebuild)",
                  file=out)
            status = 1
        else:
            target.write_text(text, encoding="utf-8")
            print(f"{target}: written ({len(doc['cities'])} cities, {len(doc['routes'])} routes, "
                  f"{len(doc['tickets'])} tickets)", file=out)
    return status


def main(argv=None, out=None, prog: str = "ttr-nb maps") -> int:
    """``ttr-nb maps rebuild|check|summary`` (also ``python -m ttr_nb maps ...``)."""
    import argparse
    import json
    parser = argparse.ArgumentParser(prog=prog, description="ttr_nb map files")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("rebuild", help="regenerate maps/*.json from maps/sources/<board>/")
    p.add_argument("--sources", "--reference", dest="sources", default=None,
                   help="the folder holding one reference folder per board (default: maps/sources)")
    p.add_argument("--out", default=None, help="where to write (default: the maps folder)")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is out of date")
    p = sub.add_parser("check", help="validate map files (default: the shipped ones)")
    p.add_argument("paths", nargs="*")
    p = sub.add_parser("summary", help="print a map's totals")
    p.add_argument("map")
    args = parser.parse_args(argv)
    try:
        if args.command == "rebuild":
            return _rebuild(args.sources or sources_dir(), args.out or maps_dir(), args.check, out)
        if args.command == "check":
            paths = args.paths or [str(maps_dir() / f"{n}.json") for n in available_maps()]
            bad = 0
            for path in paths:
                problems = check_map_file(path)
                print(f"{_label(path)}: ok" if not problems else "\n".join(problems), file=out)
                bad += bool(problems)
            return 1 if bad else 0
        print(json.dumps(load_map(args.map).summary(), indent=2, ensure_ascii=False), file=out)
        return 0
    except MapError as e:
        print(f"error: {e}", file=out)
        return 1


if __name__ == "__main__":
    # ``import ttr_nb`` does not load this module (see ttr_nb/__init__.py), so ``python -m ttr_nb.board.maps`` runs it
    # once, without a runpy warning; ``python -m ttr_nb maps ...`` and ``ttr-nb maps ...`` are the same command.
    raise SystemExit(main(prog="python -m ttr_nb.board.maps"))
