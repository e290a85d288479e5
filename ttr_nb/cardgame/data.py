"""The Card Game's cards: 96 train cards, 46 destination tickets, 6 Big Cities bonus cards (CG-COMP-1..3).

The shipped file ``maps/cardgame.cards.json`` is generated from the reference tables copied unchanged into
``maps/sources/cardgame/`` (``tickets.csv``, ``big_cities.csv``, ``deck.csv``, ``cities.csv``, ``SOURCES.md``) by a
stated rule (:func:`build_document`):

* one entry per CSV row, in file order; a ticket's ``needs`` lists its colour circles by colour (the CSV's
  per-colour columns, zero columns left out), and the CSV's ``circles`` column must equal their sum;
* the totals stated in SOURCES.md (46 tickets, 581 points, 132 circles, 96 cards, 65 bonus points) are recounted
  and the build stops if they disagree;
* ``provisional`` is true: the tickets come from a single source lineage (SOURCES.md rates them medium-low).

Rebuild or check with ``python -m ttr_nb.cardgame.data rebuild [--check]``; ``tests/test_rules_cardgame.py``
checks the committed file equals a rebuild. Everything it reads is inside the package's ``maps/`` folder.
"""
from __future__ import annotations

import csv
import json
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from ..board.cards import BASE_KINDS, CARD_NAMES, COLOURS, LOCO
from ..errors import MapError

FORMAT = "ttr_nb-cardgame"
VERSION = 1
FILE_NAME = "cardgame.cards.json"        # not <key>.json: it is not a board map (ttr_nb.board.maps lists those)
PROVISIONAL_NOTE = ("The 46 tickets (cities, points, colour circles) come from a single source lineage (a "
                    "university course's data set), rated medium-low confidence: check them against the real cards.")
CONFIDENCE = {"deck": "high", "ticket and Big Cities counts": "high", "Big Cities values": "medium-high",
              "ticket cities, points and colours": "medium-low (single source lineage)"}


@dataclass(frozen=True)
class CardTicket:
    id: str
    a: str
    b: str
    points: int
    needs: tuple[int, ...]          # cards needed per card kind (index LOCO is always 0: tickets show colours only)

    @property
    def size(self) -> int:
        return sum(self.needs)

    def needs_words(self) -> str:
        return " + ".join(f"{n} {CARD_NAMES[k]}" for k, n in enumerate(self.needs) if n)

    def __str__(self) -> str:
        return f"{self.a}–{self.b} ({self.points})"


@dataclass(frozen=True)
class BigCity:
    city: str
    points: int
    colour: str


@dataclass(frozen=True)
class CardCity:
    name: str
    lat: float
    lon: float


@dataclass(frozen=True, eq=False)
class CardData:
    """The cards. It answers the few questions ``ttr_nb.board.names`` asks of a map (``tickets``, ``routes``, ``city``,
    ``name``), so tickets are named by their cities the same way as on the boards."""

    name: str
    deck: tuple[int, ...]                   # count per card kind
    tickets: tuple[CardTicket, ...]
    big_cities: tuple[BigCity, ...]
    cities: tuple[tuple[str, float, float], ...]    # (name, lat, lon)
    provisional: bool
    provisional_note: str
    provenance: Mapping

    routes: tuple = ()                      # no board

    def __post_init__(self):
        from ..board.maps import _fold
        object.__setattr__(self, "_ticket_by_id", {t.id: t for t in self.tickets})
        object.__setattr__(self, "_route_by_id", {})
        object.__setattr__(self, "_cities", {_fold(c[0]): CardCity(*c) for c in self.cities})
        # ticket id -> its needs as (colour, count) pairs, the colours it needs only (the engine's quick tests)
        object.__setattr__(self, "need_pairs", {t.id: tuple((c, n) for c, n in enumerate(t.needs) if n)
                                                for t in self.tickets})
        object.__setattr__(self, "_texts", {})          # ticket id -> canonical name, filled as asked
        object.__setattr__(self, "_by_text", {})        # canonical name -> ticket, filled with ``_texts``

    def ticket(self, ticket_id: str) -> CardTicket:
        t = self._ticket_by_id.get(ticket_id)
        if t is None:
            raise MapError(f"the Card Game has no ticket {ticket_id!r} (tickets are T01–T{len(self.tickets):02d})")
        return t

    def has_ticket(self, ticket_id: str) -> bool:
        return ticket_id in self._ticket_by_id

    def city(self, name: str) -> CardCity:
        from ..board.maps import _fold
        found = self._cities.get(_fold(name.strip())) if isinstance(name, str) else None
        if found is None:
            raise MapError(f"no ticket of the Card Game names the city {name!r}")
        return found

    def find_ticket(self, ref: str) -> CardTicket:
        """The ticket named by its id ("T12") or its cities ("Chicago–Miami"); MapError if none."""
        from ..board.names import find_ticket
        return find_ticket(self, ref)

    def ticket_text(self, ticket_id: str) -> str:
        """A ticket's canonical name: its cities ("Chicago–Miami"; "Chicago–New York (5 #1)" where two tickets join
        the same cities)."""
        text = self._texts.get(ticket_id)
        if text is None:
            from ..board.names import ticket_text
            text = ticket_text(self, ticket_id)
            self._texts[ticket_id] = text
            self._by_text[text] = self.ticket(ticket_id)
        return text

    def ticket_named(self, text: str) -> CardTicket | None:
        """The ticket whose canonical name is ``text`` exactly, None for any other text (a quick test for the
        names the engine itself writes; ``find_ticket`` reads every spelling)."""
        if len(self._by_text) < len(self.tickets):
            for t in self.tickets:
                self.ticket_text(t.id)
        return self._by_text.get(text)


# ---------------------------------------------------------------------------------------------
# building the document from the reference tables

def source_dir() -> Path:
    """``maps/sources/cardgame`` of a checkout (or the installed package's copy)."""
    from ..board.maps import maps_dir
    return maps_dir() / "sources" / "cardgame"


def _rows(folder: Path, name: str, columns: tuple[str, ...]) -> list[dict]:
    path = folder / name
    try:
        with path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise MapError(f"{path}: cannot read ({e.strerror or e})") from None
    if not rows or any(c not in rows[0] for c in columns):
        raise MapError(f"{path}: expected the columns {', '.join(columns)}")
    return rows


def _int(path: str, row: int, column: str, text: str) -> int:
    if not re.fullmatch(r"\d{1,4}", text or ""):
        raise MapError(f"{path} row {row}: {column} must be a whole number, got {text!r}")
    return int(text)


def _stated_totals(sources_md: str) -> dict[str, int]:
    """The totals SOURCES.md states, read from its 'Totals' section."""
    want = {"tickets": r"Tickets: (\d+)", "points": r"Sum of points: \*\*(\d+)\*\*", "circles": r"Circles: (\d+) in total",
            "cities": r"Cities on tickets: (\d+)", "big_cities": r"Big City bonus cards: (\d+)",
            "bonus_points": r"worth (\d+) points together", "deck": r"Deck: (\d+) ="}
    out = {}
    for key, pattern in want.items():
        m = re.search(pattern, sources_md)
        if m is None:
            raise MapError(f"SOURCES.md: cannot find the stated total for {key} (pattern {pattern!r})")
        out[key] = int(m.group(1))
    return out


def build_document(folder: Path | str | None = None) -> dict:
    """The JSON document of ``maps/cardgame.cards.json``, rebuilt from the reference tables in ``folder``."""
    folder = Path(folder) if folder is not None else source_dir()
    deck = {}
    for i, r in enumerate(_rows(folder, "deck.csv", ("card", "count")), 2):
        if r["card"] not in CARD_NAMES:
            raise MapError(f"deck.csv row {i}: unknown card {r['card']!r}")
        deck[r["card"]] = _int("deck.csv", i, "count", r["count"])
    tickets = []
    for i, r in enumerate(_rows(folder, "tickets.csv", ("id", "city_a", "city_b", "points", *COLOURS, "circles")), 2):
        needs = {c: _int("tickets.csv", i, c, r[c]) for c in COLOURS}
        if sum(needs.values()) != _int("tickets.csv", i, "circles", r["circles"]):
            raise MapError(f"tickets.csv row {i}: the colour columns add up to {sum(needs.values())}, circles says {r['circles']}")
        tickets.append({"id": r["id"], "a": r["city_a"], "b": r["city_b"],
                        "points": _int("tickets.csv", i, "points", r["points"]),
                        "needs": {c: n for c, n in needs.items() if n}})
    big = [{"city": r["city"], "points": _int("big_cities.csv", i, "points", r["points"]), "colour": r["colour"]}
           for i, r in enumerate(_rows(folder, "big_cities.csv", ("city", "points", "colour")), 2)]
    cities = [{"name": r["name"], "lat": float(r["lat"]), "lon": float(r["lon"])}
              for r in _rows(folder, "cities.csv", ("name", "lat", "lon"))]
    sources_md = (folder / "SOURCES.md").read_text(encoding="utf-8")
    totals = {"tickets": len(tickets), "points": sum(t["points"] for t in tickets),
              "circles": sum(sum(t["needs"].values()) for t in tickets),
              "cities": len({c for t in tickets for c in (t["a"], t["b"])}), "big_cities": len(big),
              "bonus_points": sum(b["points"] for b in big), "deck": sum(deck.values())}
    stated = _stated_totals(sources_md)
    wrong = [f"{k}: counted {totals[k]}, SOURCES.md states {stated[k]}" for k in stated if stated[k] != totals[k]]
    if wrong:
        raise MapError("the reference tables disagree with SOURCES.md: " + "; ".join(wrong))
    title = sources_md.splitlines()[0].lstrip("# ").strip()
    return {
        "format": FORMAT, "version": VERSION, "key": "cardgame", "name": "Ticket to Ride: The Card Game",
        "provisional": True, "provisional_note": PROVISIONAL_NOTE,
        "deck": deck, "tickets": tickets, "big_cities": big, "cities": cities,
        "provenance": {
            "reference": "maps/sources/cardgame/ (tickets.csv, big_cities.csv, deck.csv, cities.csv, SOURCES.md), "
                         "copied unchanged from the project's checked reference data",
            "how": "Generated by `python -m ttr_nb.cardgame.data rebuild` (ttr_nb.cardgame.data.build_document): one "
                   "entry per CSV row in file order, colour circles as needs per colour, totals recounted against "
                   "SOURCES.md. Do not edit by hand.",
            "title": title,
            "confidence": CONFIDENCE,
            "lineage": "Tickets and Big Cities values: one lineage only (University of Crete CS-252 course resources, "
                       "panteliselef/Java-TicketToRide @ a8886455182b7ce931bbb0400503ba9cd647e8e6 and "
                       "NicolaiGoon/Ticket-to-Ride @ 4fefe530eb096ff9c69a30995c2c1b244ff3fcab); deck and component "
                       "counts: the rule book and two independent reviews. See SOURCES.md.",
            "licence": "Facts only (names, points, colours, counts) rewritten in our own format.",
            "totals": totals,
        },
    }


def document_text(doc: Mapping) -> str:
    """The file text: one top-level field per line, lists one item per line (easy to read in a diff)."""
    def one(v) -> str:
        return json.dumps(v, ensure_ascii=False)

    parts = []
    for k, v in doc.items():
        if isinstance(v, list):
            parts.append(f" {one(k)}: [\n" + ",\n".join(f"  {one(x)}" for x in v) + "\n ]")
        else:
            parts.append(f" {one(k)}: {one(v)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


# ---------------------------------------------------------------------------------------------
# loading

def data_path() -> Path:
    from ..board.maps import maps_dir
    return maps_dir() / FILE_NAME


def data_from_document(doc: Mapping, source: str = "<dict>") -> CardData:
    """Check a document (format, counts, ticket ids, cities) and build the immutable CardData. MapError names
    what is wrong."""
    def bad(msg: str) -> MapError:
        return MapError(f"{source}: {msg}")

    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise bad(f"not a Card Game data file (format must be {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise bad(f"version {doc.get('version')!r} is not supported (this ttr_nb reads version {VERSION})")
    try:
        deck = [0] * BASE_KINDS
        for name, n in doc["deck"].items():
            deck[CARD_NAMES.index(name)] = int(n)
        tickets = []
        for t in doc["tickets"]:
            needs = [0] * BASE_KINDS
            for c, n in t["needs"].items():
                k = COLOURS.index(c)
                needs[k] = int(n)
            tickets.append(CardTicket(str(t["id"]), str(t["a"]), str(t["b"]), int(t["points"]), tuple(needs)))
        big = tuple(BigCity(str(b["city"]), int(b["points"]), str(b["colour"])) for b in doc["big_cities"])
        cities = tuple((str(c["name"]), float(c["lat"]), float(c["lon"])) for c in doc["cities"])
    except (KeyError, ValueError, TypeError, AttributeError) as e:
        raise bad(f"malformed entry ({type(e).__name__}: {e})") from None
    ids = [t.id for t in tickets]
    if len(set(ids)) != len(ids):
        raise bad("a ticket id appears twice")
    names = {c[0] for c in cities}
    for t in tickets:
        if t.a not in names or t.b not in names:
            raise bad(f"ticket {t.id} names a city that is not in the city list")
        if not 1 <= t.size <= 5 or t.points <= 0:
            raise bad(f"ticket {t.id} needs {t.size} cards for {t.points} points (expected 1–5 cards, points > 0)")
    if deck[LOCO] <= 0 or any(n <= 0 for n in deck[:LOCO]):
        raise bad("the deck must hold every colour and locomotives")
    return CardData(name=str(doc["name"]), deck=tuple(deck), tickets=tuple(tickets), big_cities=big, cities=cities,
                    provisional=bool(doc["provisional"]), provisional_note=str(doc.get("provisional_note") or ""),
                    provenance=doc.get("provenance") or {})


@lru_cache(maxsize=None)
def load_cards() -> CardData:
    """The shipped Card Game data (cached)."""
    path = data_path()
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise MapError(f"{path}: cannot read the Card Game data ({e.strerror or e}); reinstall ttr_nb") from None
    except json.JSONDecodeError as e:
        raise MapError(f"{path}: not valid JSON (line {e.lineno}: {e.msg})") from None
    return data_from_document(doc, str(path))


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] != "rebuild" or len(args) > 2 or (len(args) == 2 and args[1] != "--check"):
        print("usage: python -m ttr_nb.cardgame.data rebuild [--check]", file=sys.stderr)
        return 2
    text = document_text(build_document())
    path = data_path()
    current = path.read_text(encoding="utf-8") if path.exists() else None
    if len(args) == 2:
        print(f"{path}: {'up to date' if current == text else 'OUT OF DATE'}")
        return 0 if current == text else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
