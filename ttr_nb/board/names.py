"""Routes and tickets by their cities: the words a learner reads and types instead of ids.

    route_text(m, route)    "Denver–Omaha"; "Kansas City–Omaha (gray #2)" where the pair has several tracks
    ticket_text(m, ticket)  "Helena–Los Angeles"
    find_route(m, ref)      the Route for an id ("R099", any case) or a city text
    find_ticket(m, ref)     the Ticket for an id ("T24") or a city text
    ticket_words(m, ids)    "Helena–Los Angeles (8), Duluth–Houston (8)" for messages
    seat_name(seat)         "Red", the seat's player colour ("Seat 9" past the colours)
    fold_text(text)         the case- and accent-free form names are compared in ("zurich" for "Zürich")

A city text is two city names joined by a dash (en dash "–", or "-" / "—"), in either order, ignoring case and
accents ("kansas city-omaha"). Where a city pair has several tracks (double routes) the text ends in a
qualifier in brackets: the route colour, ``(blue)``, and where two tracks of the pair share a colour, also
their number in the map's order, ``(gray #1)``, ``(gray #2)``. The same is done for tickets should a map hold two
tickets between the same cities (their points, then ``#n``). The canonical text — the one printed — uses the
map's spelling and order of the two cities.
"""
from __future__ import annotations

import re
from weakref import WeakKeyDictionary

from .cards import PLAYER_COLOURS
from ..errors import MapError

DASHES = "–—-"
_QUAL = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")
_tables: "WeakKeyDictionary" = WeakKeyDictionary()


def fold_text(name: str) -> str:
    """Case- and accent-insensitive form of a name ("Montreal" finds "Montréal", "zurich" finds "Zürich")."""
    import unicodedata
    text = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in text if not unicodedata.combining(c))


def seat_name(seat: int) -> str:
    """A seat in words: its player colour, capitalised ("Red"); "Seat 9" past the colours."""
    return PLAYER_COLOURS[seat].capitalize() if 0 <= seat < len(PLAYER_COLOURS) else f"Seat {seat}"


def _fold(text: str) -> str:
    return " ".join(fold_text(text).split())


def _key(qualifier: str) -> str:
    """'Gray # 2' and 'gray#2' are the same qualifier."""
    return "".join(_fold(qualifier).split())


def _labels(items, qualifiers) -> dict[str, str]:
    """id -> canonical text; ``qualifiers(item)`` gives the words that tell same-pair items apart."""
    by_pair: dict[frozenset, list] = {}
    for it in items:
        by_pair.setdefault(frozenset((it.a, it.b)), []).append(it)
    out: dict[str, str] = {}
    for group in by_pair.values():
        for it in group:
            base = f"{it.a}–{it.b}"
            if len(group) == 1:
                out[it.id] = base
                continue
            q = qualifiers(it)
            same = [x for x in group if qualifiers(x) == q]
            if len(same) > 1:
                q = f"{q} #{same.index(it) + 1}"
            out[it.id] = f"{base} ({q})"
    return out


class _Table:
    __slots__ = ("route_text", "ticket_text", "routes", "tickets", "route_pairs", "ticket_pairs", "route_labels")

    def __init__(self, m):
        self.route_text = _labels(m.routes, lambda r: r.colour)
        self.ticket_text = _labels(m.tickets, lambda t: str(t.points))
        self.route_labels = tuple(self.route_text[r.id] for r in m.routes)    # by route index
        self.routes = {text: r for r in m.routes for text in [self.route_text[r.id]]}
        self.tickets = {self.ticket_text[t.id]: t for t in m.tickets}
        self.route_pairs: dict[frozenset, list] = {}
        for r in m.routes:
            self.route_pairs.setdefault(frozenset((r.a, r.b)), []).append(r)
        self.ticket_pairs: dict[frozenset, list] = {}
        for t in m.tickets:
            self.ticket_pairs.setdefault(frozenset((t.a, t.b)), []).append(t)


def table(m) -> _Table:
    t = _tables.get(m)
    if t is None:
        t = _tables[m] = _Table(m)
    return t


def route_text(m, route) -> str:
    if isinstance(route, str):
        route = m.route(route)
    return table(m).route_labels[route.index]


def route_labels(m) -> tuple[str, ...]:
    """The canonical text of every route, by route index."""
    return table(m).route_labels


def ticket_text(m, ticket) -> str:
    if isinstance(ticket, str):
        ticket = m.ticket(ticket)
    return table(m).ticket_text[ticket.id]


def ticket_with_points(m, ticket) -> str:
    """A ticket for a learner's eyes: 'Seoul–Busan (6 points)' (a twin of the same cities and points keeps its
    '#2'). Unknown ids raise MapError."""
    if isinstance(ticket, str):
        ticket = m.ticket(ticket)
    text = table(m).ticket_text[ticket.id]
    twin = text[text.index("#"):-1] if "#" in text else ""
    points = f"{ticket.points} point{'s' if ticket.points != 1 else ''}"
    return f"{ticket.a}–{ticket.b} ({points}{', ' + twin if twin else ''})"


def ticket_words(m, ids) -> str:
    """Tickets for a message: 'Helena–Los Angeles (8), Duluth–Houston (8)' (unknown ids as they are)."""
    out = []
    for tid in ids:
        try:
            t = m.ticket(tid)
        except MapError:
            out.append(str(tid))
            continue
        text = table(m).ticket_text[t.id]
        out.append(text if text.endswith(")") else f"{text} ({t.points})")
    return ", ".join(out)


def _split_pair(m, text: str):
    """The two cities of 'A–B' (any dash, either order, folded), or None."""
    for i, ch in enumerate(text):
        if ch in DASHES:
            a, b = text[:i].strip(), text[i + 1:].strip()
            if not a or not b:
                continue
            try:
                return m.city(a).name, m.city(b).name
            except MapError:
                continue
    return None


def _find(m, ref: str, what: str, by_id, canonical: dict, pairs: dict, text_of: dict, qualifier):
    if not isinstance(ref, str):
        raise MapError(f"a {what} must be named by its id or its two cities, got {type(ref).__name__}")
    item = by_id.get(ref)
    if item is None and ref.upper() in by_id:
        item = by_id[ref.upper()]
    if item is not None:
        return item
    item = canonical.get(ref)
    if item is not None:
        return item
    text = " ".join(ref.split())
    m_q = _QUAL.match(text)
    base, qual = (m_q.group(1), m_q.group(2)) if m_q else (text, None)
    pair = _split_pair(m, base)
    if pair is None:
        raise MapError(f"{ref[:80]!r} names no {what} of the {m.name} map: write its two cities joined by a dash, "
                       f"e.g. {next(iter(canonical), 'A–B')!r}")
    group = pairs.get(frozenset(pair), [])
    if not group:
        raise MapError(f"the {m.name} map has no {what} between {pair[0]} and {pair[1]}")
    if qual is None:
        if len(group) == 1:
            return group[0]
        raise MapError(f"{pair[0]} and {pair[1]} are joined by {len(group)} {what}s: say which, "
                       + " or ".join(repr(text_of[x.id]) for x in group))
    want = _key(qual)
    for x in group:
        full = text_of[x.id]
        own = full[full.rfind("(") + 1:-1] if full.endswith(")") else qualifier(x)
        if _key(own) == want or (len(group) == 1 and _key(qualifier(x)) == want):
            return x
    raise MapError(f"{ref[:80]!r}: the {what}s between {pair[0]} and {pair[1]} are "
                   + ", ".join(repr(text_of[x.id]) for x in group))


def find_route(m, ref):
    """The route named by ``ref``: an id ("R099", any case) or its city text (see the module docstring)."""
    t = table(m)
    return _find(m, ref, "route", m._route_by_id, t.routes, t.route_pairs, t.route_text, lambda r: r.colour)


def find_ticket(m, ref):
    """The ticket named by ``ref``: an id ("T24", any case) or its city text."""
    t = table(m)
    return _find(m, ref, "ticket", m._ticket_by_id, t.tickets, t.ticket_pairs, t.ticket_text, lambda x: str(x.points))


__all__ = ["route_text", "route_labels", "ticket_text", "ticket_words", "find_route", "find_ticket", "DASHES"]
