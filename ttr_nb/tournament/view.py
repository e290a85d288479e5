"""What a student's bot is given: a ``BotView`` of one seat, built from ``observe`` and the legal moves alone.

A bot is a function ``choose(view)`` that returns one of ``view.legal``. The view is made from a *payload*, a plain
JSON document (``payload(state, seat)``): the seat's ``observe`` (what that player may see at the table), the legal
moves as action texts, the seat, the game and the move number. Nothing else of the game crosses over: not the
deck order, not another player's hand or tickets. A bot in its own process receives the payload as JSON text, so
it holds a copy and can change nothing of the real game.

The helpers answer what a student needs in every game, from the same visible facts:

* every game: ``legal`` (``Move``s: a ``str`` with ``kind``, and for a claim its cities, length and points ...),
  ``hand``, ``tickets`` (with their cities and points), ``market``, ``others``, ``moves_of(kind)``;
* board games: ``map``, ``routes`` (with their owner), ``cheapest_path(a, b)`` over free and own routes,
  ``ticket_plan()`` (the cheapest way to finish each of the seat's tickets), ``graph()`` (a networkx graph of the
  routes the seat can still use);
* the Card Game: ``yard``, ``track``, ``still_needed()`` (the colours its tickets need beyond the on-the-track
  pile and the rail yard).
"""
from __future__ import annotations

import dataclasses
import heapq
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..board.actions import parse_action
from ..board.cards import CARD_NAMES, LOCO, PLAYER_COLOURS
from ..errors import TTRError
from ..variants import get_game, rules_of

__all__ = ["BotView", "Move", "RouteInfo", "TicketInfo", "Path", "payload", "view_of"]

FREE = -1


class _lazy:
    """Computed on first use and kept (like ``functools.cached_property``, without its lock: a view is never
    shared between threads, and the lock made every Move attribute slow)."""

    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value


def payload(state, seat: int) -> dict:
    """Everything a bot of ``seat`` may be told, as a JSON-ready dict: ``observe(state, seat)``, the legal moves as
    texts (in the engine's order) with their parts (``moves``: kind, route, payment, face-up slot, tickets, so a
    bot need not parse the texts), the seat, the game's key and the move number."""
    rules = rules_of(state)
    acts = rules.legal_actions(state, seat)
    own = f"{PLAYER_COLOURS[seat]}: " if 0 <= seat < len(PLAYER_COLOURS) else ""
    cut = len(own)
    texts = [str(a) for a in acts]               # a bot plays only its own seat: no "blue: " before its moves
    return {"variant": state.variant, "seat": seat, "move": state.ply,
            "legal": [t[cut:] if own and t.startswith(own) else t for t in texts],
            "moves": [_parts(a) for a in acts], "observe": rules.observe(state, seat)}


_FIELDS: dict[type, tuple[str, ...]] = {}


def _parts(action) -> dict:
    """An action's parts by name (``kind`` and each field but the seat): a payment as [card kind, count] pairs,
    texts and numbers as they are, tuples of them as lists."""
    cls = type(action)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(action) if f.name != "seat")
    parts: dict = {"kind": cls.verb}
    for name in names:
        value = getattr(action, name)
        if value is None or value == ():
            continue
        if name == "payment":
            parts[name] = [list(kn) for kn in value]
        elif isinstance(value, (str, int, float)):
            parts[name] = value
        elif isinstance(value, tuple) and all(isinstance(x, (str, int)) for x in value):
            parts[name] = list(value)
    return parts


@lru_cache(maxsize=16)
def _adjacency(m) -> dict[str, tuple[tuple[int, str], ...]]:
    """Per city of map ``m``: (route index, the city at its other end), in the map's order."""
    out: dict[str, list] = {c.name: [] for c in m.cities}
    for r in m.routes:
        out[r.a].append((r.index, r.b))
        out[r.b].append((r.index, r.a))
    return {c: tuple(v) for c, v in out.items()}


@lru_cache(maxsize=4096)
def _route_index(m, ref: str) -> int:
    from ..board.names import find_route
    return find_route(m, ref).index


def view_of(state, seat: int) -> "BotView":
    """The ``BotView`` a bot of ``seat`` gets at ``state`` (a copy: built from the payload's JSON text)."""
    return BotView(json.loads(json.dumps(payload(state, seat))))


@dataclass(frozen=True, repr=False)
class RouteInfo:
    """A route of the board: its cities, length, colour (``gray``: any one colour), points, and owner (a seat, or
    None while it is free)."""

    id: str
    a: str
    b: str
    length: int
    colour: str
    points: int
    owner: int | None = None
    tunnel: bool = False
    ferry: int = 0                   # locomotives a ferry asks for (0: not a ferry)

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    def __str__(self) -> str:
        return f"{self.a}–{self.b} ({self.length}, {self.colour})"

    __repr__ = __str__


@dataclass(frozen=True, repr=False)
class TicketInfo:
    """A destination ticket: its two cities and points; in the Card Game also ``needs``, the colour circles."""

    id: str
    a: str
    b: str
    points: int
    needs: tuple[tuple[str, int], ...] = ()

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    def __str__(self) -> str:
        return f"{self.a}–{self.b} ({self.points})"

    __repr__ = __str__


@dataclass(frozen=True, repr=False)
class Path:
    """A cheapest way to join two cities: ``trains`` still to place (own routes cost nothing), the ``routes`` still
    to claim, and the ``cities`` walked from the first to the last."""

    trains: int
    routes: tuple[RouteInfo, ...]
    cities: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.trains} trains: {' – '.join(self.cities)}"

    __repr__ = __str__


class Move(str):
    """One legal move: the action text itself (return it from ``choose``), with what a bot wants to know of it.

    ``kind``: the action's first word (``draw``, ``claim``, ``tickets``, ``keep``, ``pass``, and each game's own:
    ``station``, ``tunnel``, ``announce``, ``place``, ``ride``, ``stop``, ``draft``, ``yard``, ``track``, ``complete``).
    A claim has ``route`` (a ``RouteInfo``), ``cities``, ``length`` and ``points``; a move that pays has ``cards``
    (the payment as {card name: count}); a face-up draw has ``card``; ``keep`` has ``tickets`` (``TicketInfo``s).
    """

    def __new__(cls, text: str, view: "BotView", parts: dict | None = None):
        self = super().__new__(cls, text)
        if parts is None:                          # a text without its parts (a view made by hand): read it
            parts = _parts(parse_action(text))
        self._view = view
        self._parts = parts
        self.kind: str = parts["kind"]
        return self

    @_lazy
    def route(self) -> RouteInfo | None:
        ref = self._parts.get("route")
        return self._view.route(ref) if ref is not None and self._view.map is not None else None

    @_lazy
    def cards(self) -> dict[str, int]:
        return {("locomotive" if k == LOCO else CARD_NAMES[k]): n for k, n in self._parts.get("payment", ())}

    @_lazy
    def card(self) -> str | None:
        slot = self._parts.get("slot")
        if slot is None or self.kind != "draw":
            return None
        market = self._view.market
        return market[slot - 1] if 0 < slot <= len(market) else None

    @_lazy
    def tickets(self) -> tuple[TicketInfo, ...]:
        refs = self._parts.get("tickets") or ([self._parts["ticket"]] if self._parts.get("ticket") else [])
        return tuple(self._view.ticket(t) for t in refs)

    @property
    def parts(self) -> dict:
        """Every part of the move by name, as the rules read it: ``kind``, and e.g. ``route``, ``payment``,
        ``slot``, ``tickets``, a station's or a passenger's ``city`` ..."""
        return dict(self._parts)

    @property
    def cities(self) -> tuple[str, str] | None:
        return self.route.cities if self.route else None

    @property
    def length(self) -> int:
        return self.route.length if self.route else 0

    @property
    def points(self) -> int:
        """Points this move scores at once: a claim's route points (kept tickets score at the end: see
        ``tickets``)."""
        return self.route.points if self.route else 0

    @property
    def locomotives(self) -> int:
        return self.cards.get("locomotive", 0)

    def __reduce__(self):          # a plain string when pickled or copied
        return (str, (str(self),))


class BotView:
    """One seat's view of the game, for ``choose(view)``. See the module's docstring for what it holds.

    ``raw`` is the seat's ``observe`` document itself (a dict of what the seat may see), for anything the helpers
    do not name.
    """

    def __init__(self, payload: dict):
        if not isinstance(payload, dict) or not {"variant", "seat", "legal", "observe"} <= set(payload):
            raise TTRError("a bot view is made from payload(state, seat): a dict with variant, seat, legal, observe")
        self.raw: dict = payload["observe"]
        self.seat: int = payload["seat"]
        self.variant: str = payload["variant"]
        self.move_number: int = payload.get("move", self.raw.get("ply", 0))
        self._legal_texts: list[str] = list(payload["legal"])
        self._moves: list[dict] | None = payload.get("moves")

    # -- who and where ---------------------------------------------------------------------------------------
    @_lazy
    def game(self):
        """The game's registry entry (``view.game.name``: its name)."""
        return get_game(self.variant)

    @property
    def players(self) -> int:
        return self.raw["n_players"]

    @property
    def name(self) -> str:
        """The seat's player colour ('Blue')."""
        return self.me["name"]

    @property
    def phase(self) -> str:
        """'setup', 'play', 'last_round' or 'over'."""
        return self.raw["phase"]

    @property
    def turn(self) -> int:
        return self.raw["turn"]

    @property
    def status(self) -> str:
        return self.raw.get("status", "")

    @property
    def pending(self) -> str | None:
        """The step this seat owes before its turn goes on ('choose_tickets', 'second_card' ...), or None."""
        for p in self.raw.get("pending", ()):
            if p["seat"] == self.seat:
                return p["kind"]
        return None

    # -- the moves ---------------------------------------------------------------------------------------------
    @_lazy
    def legal(self) -> list[Move]:
        """The legal moves, each a ``Move`` (a ``str``: return one of them)."""
        parts = self._moves or [None] * len(self._legal_texts)
        return [Move(t, self, p) for t, p in zip(self._legal_texts, parts)]

    def moves_of(self, kind: str) -> list[Move]:
        """The legal moves of one kind ('claim', 'draw', 'tickets', 'keep' ...)."""
        return [m for m in self.legal if m.kind == kind]

    @property
    def kinds(self) -> list[str]:
        """The kinds of move available now, in the order they first appear in ``legal``."""
        return list(dict.fromkeys(m.kind for m in self.legal))

    # -- the seat and the others -------------------------------------------------------------------------------
    @property
    def me(self) -> dict:
        return self.raw["players"][self.seat]

    @property
    def others(self) -> list[dict]:
        """The other players as the table shows them (no hands, no tickets: those are secret)."""
        return [p for p in self.raw["players"] if p["seat"] != self.seat]

    @property
    def hand(self) -> dict[str, int]:
        """The seat's cards: {card name: count}."""
        return dict(self.me.get("hand", {}))

    @property
    def hand_size(self) -> int:
        return self.me["hand_size"]

    @property
    def trains(self) -> int | None:
        """Trains left to place (board games; None in the Card Game)."""
        return self.me.get("trains")

    @property
    def market(self) -> list[str | None]:
        """The face-up cards, left to right (slot 1 first)."""
        return list(self.raw["market"])

    @property
    def deck_size(self) -> int:
        return self.raw["deck_size"]

    @_lazy
    def tickets(self) -> list[TicketInfo]:
        """The seat's own tickets (kept ones; offered ones are in the ``keep`` moves)."""
        return [self.ticket(t) for t in self.me.get("tickets", ())]

    def ticket(self, ref: str) -> TicketInfo:
        """A ticket by id or by its cities ('Denver–El Paso')."""
        if self.map is None:
            from ..cardgame.data import load_cards
            data = load_cards()
            t = data.ticket(ref) if data.has_ticket(ref) else data.find_ticket(ref)
            return TicketInfo(t.id, t.a, t.b, t.points,
                              tuple((CARD_NAMES[k], n) for k, n in enumerate(t.needs) if n))
        from ..board.names import find_ticket
        t = find_ticket(self.map, ref)
        return TicketInfo(t.id, t.a, t.b, t.points)

    # -- the board -----------------------------------------------------------------------------------------
    @_lazy
    def map(self):
        """The board (``ttr_nb.board.maps.Map``: public facts, the same for everyone); None in the Card Game."""
        return getattr(self.game, "map", None) if hasattr(self.game, "map_key") else None

    def route(self, ref: str) -> RouteInfo:
        """A route by id or by its cities ('Denver–Omaha', 'Kansas City–Omaha (gray #2)')."""
        return self.routes[_route_index(self._board(), ref)]

    def _board(self):
        if self.map is None:
            raise TTRError(f"{self.game.name} has no board: routes and paths belong to the board games")
        return self.map

    def _route_info(self, r) -> RouteInfo:
        owner = self.raw["claims"][r.index]
        return RouteInfo(r.id, r.a, r.b, r.length, r.colour, self.game.route_points(r.length),
                         None if owner == FREE else owner, r.tunnel, r.ferry_locos)

    @_lazy
    def routes(self) -> list[RouteInfo]:
        """Every route of the board with its owner (None: free), in the map's order."""
        return [self._route_info(r) for r in self._board().routes]

    @property
    def my_routes(self) -> list[RouteInfo]:
        return [r for r in self.routes if r.owner == self.seat]

    @property
    def free_routes(self) -> list[RouteInfo]:
        """Routes nobody has claimed (a twin of a double route may still be closed to you: see ``usable``)."""
        return [r for r in self.routes if r.owner is None]

    def usable(self, route: RouteInfo | str) -> bool:
        """Whether the seat may still use ``route`` to join cities: its own, or free and not a closed twin (you
        never own both tracks of a double route; with few players a double route takes one claim)."""
        r = self._board().route(route.id if isinstance(route, RouteInfo) else self.route(route).id)
        return self._cost(r) is not None

    @_lazy
    def _costs(self) -> list[int | None]:
        """Per route index: trains the seat still needs to use it (0: its own), or None (it cannot)."""
        m = self._board()
        claims = self.raw["claims"]
        few = self.players < getattr(self.game.settings, "twin_min_players", 0)
        out: list[int | None] = []
        for r in m.routes:
            owner = claims[r.index]
            if owner == self.seat:
                out.append(0)
            elif owner != FREE:
                out.append(None)
            elif r.double_group is not None and any(
                    claims[t.index] == self.seat or (few and claims[t.index] != FREE) for t in m.twins(r.id)):
                out.append(None)         # never both tracks of a double route; few players: one claim closes it
            else:
                out.append(r.length)
        return out

    def _cost(self, r) -> int | None:
        return self._costs[r.index]

    def cheapest_path(self, a: str, b: str) -> Path | None:
        """The fewest trains still needed to join cities ``a`` and ``b`` over the seat's own routes (free of
        charge) and free routes it may claim; None when they can no longer be joined. Ties: fewer routes to claim,
        then the map's order."""
        m = self._board()
        start, goal = m.city(a).name, m.city(b).name
        if start == goal:
            return Path(0, (), (start,))
        key = (start, goal)
        memo = self.__dict__.setdefault("_paths", {})
        if key in memo:
            return memo[key]
        costs = self._costs
        adjacent = _adjacency(m)
        blocked = m.ends_only - {start, goal}           # Märklin's countries: only a path's ends
        best = {start: (0, 0)}
        prev: dict[str, tuple[str, int]] = {}
        heap = [(0, 0, start)]
        far = (1 << 30, 0)
        while heap:
            trains, steps, city = heapq.heappop(heap)
            if city == goal:
                break
            if (trains, steps) > best[city] or city in blocked:
                continue
            for index, other in adjacent[city]:
                cost = costs[index]
                if cost is None:
                    continue
                nk = (trains + cost, steps + (cost > 0))
                if nk < best.get(other, far):
                    best[other] = nk
                    prev[other] = (city, index)
                    heapq.heappush(heap, (nk[0], nk[1], other))
        if goal not in best:
            memo[key] = None
            return None
        routes, cities, city = [], [goal], goal
        while city != start:
            city, index = prev[city]
            cities.append(city)
            if costs[index]:
                routes.append(self.routes[index])
        memo[key] = Path(best[goal][0], tuple(reversed(routes)), tuple(reversed(cities)))
        return memo[key]

    def ticket_plan(self) -> list[tuple[TicketInfo, Path | None]]:
        """For each of the seat's tickets: the cheapest way to finish it (``Path.trains`` 0: done; None: it can no
        longer be completed)."""
        return [(t, self.cheapest_path(t.a, t.b)) for t in self.tickets]

    def graph(self):
        """A networkx ``Graph`` of the routes the seat can still use: an edge per pair of neighbouring cities with
        ``trains`` (0 for the seat's own route, else the length of the cheapest free track) and ``route`` (its
        id). Use it with networkx: ``nx.shortest_path(view.graph(), a, b, weight="trains")``."""
        import networkx as nx
        g = nx.Graph()
        m = self._board()
        g.add_nodes_from(c.name for c in m.cities)
        for r in m.routes:
            cost = self._cost(r)
            if cost is None:
                continue
            old = g.get_edge_data(r.a, r.b)
            if old is None or cost < old["trains"]:
                g.add_edge(r.a, r.b, trains=cost, route=r.id, length=r.length, colour=r.colour)
        return g

    # -- the Card Game -------------------------------------------------------------------------------------
    @property
    def yard(self) -> dict[str, dict]:
        """Card Game: the seat's rail yard, {colour: {'cards': n, 'locomotives': n}}."""
        return dict(self.me.get("yard", {}))

    @property
    def track(self) -> dict[str, int]:
        """Card Game: the seat's on-the-track pile, {card name: count}, as the seat may see it: by the book's rule
        it is secret from its owner too until the round ends ({} until then; its size is ``me["track_size"]``), with
        the young players' option ``see_own_track`` its cards (CG-AREA-1)."""
        return dict(self.me.get("track", {}))

    def still_needed(self) -> dict[str, int]:
        """Card Game: per colour, the cards the seat's tickets need beyond its on-the-track pile (as far as the seat
        may see it, see ``track``) and rail yard."""
        need: dict[str, int] = {}
        for t in self.tickets:
            for colour, n in t.needs:
                need[colour] = need.get(colour, 0) + n
        track, yard = self.track, self.yard
        out = {c: n - track.get(c, 0) - yard.get(c, {}).get("cards", 0) for c, n in need.items()}
        return {c: n for c, n in sorted(out.items(), key=lambda x: CARD_NAMES.index(x[0])) if n > 0}

    # -- words ---------------------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<BotView of {self.name} in {self.game.name}: {len(self._legal_texts)} legal moves>"

    def text(self, moves: int = 6) -> str:
        """The view in words: who you are, what you hold, what the others show, the first legal moves."""
        lines = [f"You are {self.name} (seat {self.seat}) in {self.game.name}, {self.players} players, "
                 f"{self.phase.replace('_', ' ')}, turn {self.turn + 1}."]
        hand = ", ".join(f"{n} {c}" for c, n in self.hand.items()) or "no cards"
        lines.append(f"Your hand: {hand}" + (f"; trains left: {self.trains}" if self.trains is not None else ""))
        lines.append("Your tickets: " + (", ".join(map(str, self.tickets)) or "none yet"))
        lines.append("Face-up cards: " + ", ".join(c or "(empty)" for c in self.market))
        for p in self.others:
            shown = [f"{p['hand_size']} cards", f"{p['ticket_count']} tickets (hidden)"]
            if "trains" in p:
                shown.append(f"{p['trains']} trains left")
            lines.append(f"{p['name']}: " + ", ".join(shown))
        legal = self.legal
        lines.append(f"{len(legal)} legal moves: " + "; ".join(legal[:moves]) + (" ..." if len(legal) > moves else ""))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def _repr_pretty_(self, p, cycle) -> None:     # IPython prints the words
        p.text(self.text())

