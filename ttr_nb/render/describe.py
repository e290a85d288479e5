"""What a screen reader gets for a figure: a name, a description in words, and a text table (issue 21, item 3).

Built from what the viewing seat may see and nothing else: the public board (``board_marks``: owners, stations,
closed twins), ``observe(state, viewer)`` for tickets, and the last move as the view already words it for that
viewer. ``viewer=None`` is the teacher's view (everything); ``render.public.PUBLIC`` what every player may see (a hot
seat's hand-over). No plotly, no ipywidgets: plain strings and lists.

``board_text(state, viewer, last_move=...)``  -> ``(name, description, table)`` for a map board
``card_table_text(state, viewer, ...)``       -> the same for the Card Game's table
``province_text(state)``                      -> the same for South Korea's province board (public)
``map_text(map, highlight=..., marks=...)``   -> the same for a map without a game (the map explorer)
``ticket_map_text(state, viewer)``            -> the same for the Card Game's tickets on the map

``table`` is ``{"summary", "caption", "head", "rows"}``, as ``FigureView.describe`` takes it.
"""
from __future__ import annotations

from collections import defaultdict

from ..board.engine import board_marks, observe, seat_name, turn_status
from ..board.state import GameState
from ..variants import get_variant
from .public import PUBLIC, public_view


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _sentence(text: str) -> str:
    text = str(text).strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _connected(routes, a: str, b: str) -> bool:
    """Whether cities ``a`` and ``b`` are joined by ``routes`` (objects with ``.a`` and ``.b``)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for r in routes:
        parent[find(r.a)] = find(r.b)
    return a in parent and b in parent and find(a) == find(b)


def _ticket_progress(m, routes, tid: str) -> str:
    t = m.ticket(tid)
    own_cities = {c for r in routes for c in (r.a, r.b)}
    if _connected(routes, t.a, t.b):
        state = "connected by your routes"
    else:
        on = [c for c in (t.a, t.b) if c in own_cities]
        state = "not connected yet" + (f" ({' and '.join(on)} on your routes)" if on else "")
    return f"{t.a}–{t.b} ({t.points} points): {state}"


def board_text(state: GameState, viewer: int | None = None, *, last_move: str | None = None,
               title: str | None = None, highlight=()) -> tuple[str, str, dict]:
    """The name, description and routes table of a board showing ``state`` to ``viewer`` (None: the teacher)."""
    v = get_variant(state.variant)
    m = v.map
    marks = board_marks(state)
    owners: dict[str, int] = marks["owners"]
    closed = set(marks["closed"])
    stations: dict[str, int] = marks.get("stations") or {}
    view = public_view(observe, state) if viewer == PUBLIC else observe(state, viewer)
    who = ("the whole table" if viewer is None else "what every player sees" if viewer == PUBLIC
           else f"{seat_name(viewer)}'s view")
    name = f"{title or m.name} board, {who}"
    parts = [_sentence(turn_status(state))]
    by_seat: dict[int, list] = defaultdict(list)
    for r in m.routes:
        if r.id in owners:
            by_seat[owners[r.id]].append(r)
    parts.append(f"{_plural(len(owners), 'route')} of {len(m.routes)} claimed.")
    for p in view["players"]:
        i = p["seat"]
        mine = by_seat.get(i, [])
        you = " (you)" if viewer == i else ""
        said = f"{p['name']}{you}: {_plural(len(mine), 'route')}, {p['route_points']} route points, " \
               f"{_plural(p['trains'], 'train')} left"
        if mine:
            said += " — " + ", ".join(f"{r.a}–{r.b}" for r in mine)
        parts.append(said + ".")
    if stations:
        parts.append("Stations: " + ", ".join(f"{c} ({seat_name(s)})" for c, s in sorted(stations.items())) + ".")
    seats = [] if viewer == PUBLIC else [viewer] if viewer is not None else [p["seat"] for p in view["players"]]
    for i in seats:
        tickets = view["players"][i].get("tickets") or []
        if not tickets:
            continue
        mine = by_seat.get(i, [])
        whose = "Your tickets" if viewer is not None else f"{seat_name(i)}'s tickets"
        parts.append(f"{whose}: " + "; ".join(_ticket_progress(m, mine, t) for t in tickets) + ".")
    for label, ids in highlight or ():
        if ids:
            parts.append(f"Marked as {label}: " + ", ".join(f"{m.route(r).a}–{m.route(r).b}" for r in ids) + ".")
    if last_move:
        parts.append(_sentence(f"Last move: {last_move}"))
    rows = _route_rows(m, lambda r: seat_name(owners[r.id]) if r.id in owners
                       else ("closed" if r.id in closed else "free"))
    table = {"summary": "Text version: the board in words, every route and its owner",
             "caption": f"Routes of {m.name}", "head": ["route", "length", "colour", "owner"], "rows": rows}
    return name, " ".join(parts), table


def _route_rows(m, last) -> list[list[str]]:
    """One row per route of map ``m`` (by its cities): route, length, colour (tunnel, ferry), ``last(route)``."""
    rows = []
    for r in sorted(m.routes, key=lambda r: (r.a, r.b, r.id)):
        kind = [k for k, on in (("tunnel", getattr(r, "tunnel", False)),
                                (f"ferry, {getattr(r, 'ferry_locos', 0)} locomotive(s)", getattr(r, "ferry_locos", 0)))
                if on]
        rows.append([f"{r.a}–{r.b}", str(r.length), r.colour + (f" ({', '.join(kind)})" if kind else ""), last(r)])
    return rows


def _marked_words(m, ids) -> str:
    """The routes ``ids`` by their cities, each pair once (a double route's two tracks are one pair)."""
    pairs = list(dict.fromkeys(f"{m.route(r).a}–{m.route(r).b}" for r in ids))
    return ", ".join(pairs)


def map_text(m, *, highlight=(), marks: str = "", title: str | None = None) -> tuple[str, str, dict]:
    """A map with no game on it (the map explorer): what is marked on it and every route's mark.

    ``highlight``: ``[(label, route ids), ...]`` as the board draws it; ``marks``: the view's own words for what is
    marked (e.g. the cheapest paths city by city); without them each highlight is said as its routes."""
    name = f"{title or m.name} map"
    parts = [f"{_plural(len(m.cities), 'city', 'cities')} and {_plural(len(m.routes), 'route')}."]
    layers = [(label, list(ids)) for label, ids in highlight or () if ids]
    if marks:
        parts.append(_sentence(marks))
    elif layers:
        parts += [f"Marked ({label}): {_marked_words(m, ids)}." for label, ids in layers]
    else:
        parts.append("Nothing is marked on the map.")
    marked: dict[str, list[str]] = defaultdict(list)
    for label, ids in layers:
        for rid in ids:
            marked[rid].append(str(label))
    rows = _route_rows(m, lambda r: "; ".join(marked.get(r.id, ())) or "—")
    table = {"summary": "Text version: the map in words, every route and what marks it",
             "caption": f"Routes of {m.name}", "head": ["route", "length", "colour", "marked"], "rows": rows}
    return name, " ".join(parts), table


def ticket_map_text(state=None, viewer: int | None = None, *, tickets=None) -> tuple[str, str, dict]:
    """The Card Game's tickets on the map (``render.ticketmap``), for ``viewer``: the tickets the figure draws —
    every ticket of the game without a ``state`` (the deck's list is public), else those ``observe(state,
    viewer)`` shows, with who holds them and whether they are completed."""
    from ..cardgame.data import load_cards
    data = load_cards()
    holder: dict[str, str] = {}
    done: set[str] = set()
    hidden: list[str] = []
    if tickets is None and state is not None:
        from ..cardgame import engine as rules
        view = rules.observe(state, viewer)
        tickets = []
        for p in view["players"]:
            you = " (you)" if viewer == p["seat"] else ""
            if "tickets" in p:
                tickets += p["tickets"]
                holder.update({t: p["name"] + you for t in p["tickets"]})
                done.update(t for t in p["tickets"] if t in p["completed"])
            elif p["ticket_count"]:
                hidden.append(f"{p['name']} holds {_plural(p['ticket_count'], 'ticket')}, hidden from you")
        who = "the whole table" if viewer is None else f"{seat_name(viewer)}'s view"
    else:
        who = "every ticket of the game" if tickets is None else "chosen tickets"
        tickets = [t.id for t in data.tickets] if tickets is None else list(tickets)
    shown = [data.ticket(t) for t in tickets]
    parts = [f"{_plural(len(shown), 'ticket')} on a map of the USA, each a straight line between its two cities in the "
             "colours of the cards it needs" + (", the completed ones with a green halo" if done else "") + "."]
    big = {b.city: b.points for b in data.big_cities}
    on_big = {c: sum(1 for t in shown if c in (t.a, t.b)) for c in big}
    parts.append("Big Cities (stars): " + ", ".join(f"{c} ({big[c]} points, on {_plural(on_big[c], 'ticket')})"
                                                    for c in big) + ".")
    for seat_words in sorted(set(holder.values())):
        mine = [t for t in shown if holder.get(t.id) == seat_words]
        parts.append(f"{seat_words}: " + "; ".join(f"{t.a}–{t.b} ({t.points} points, needs {t.needs_words()})"
                                                  + (", completed" if t.id in done else "") for t in mine) + ".")
    parts += [_sentence(h) for h in hidden]
    head = ["ticket", "points", "cards needed"] + (["held by", "completed"] if holder else [])
    rows = [[f"{t.a}–{t.b}", str(t.points), t.needs_words()]
            + ([holder.get(t.id, ""), "yes" if t.id in done else "no"] if holder else [])
            for t in sorted(shown, key=lambda t: (t.a, t.b, t.id))]
    table = {"summary": "Text version: the tickets in words", "caption": "Tickets on the map", "head": head,
             "rows": rows}
    return f"Card Game tickets on the map, {who}", " ".join(parts), table


def card_table_text(state, viewer: int | None = None, *, last_move: str | None = None) -> tuple[str, str, dict]:
    """The Card Game's table for ``viewer`` (None: the whole table), from the Card Game's ``observe``."""
    from ..cardgame import engine as rules
    view = public_view(rules.observe, state) if viewer == PUBLIC else rules.observe(state, viewer)
    data = rules.load_cards()
    who = ("the whole table" if viewer is None else "what every player sees" if viewer == PUBLIC
           else f"{seat_name(viewer)}'s view")
    parts = [_sentence(view["status"])]
    market = ", ".join("empty" if c is None else c for c in view["market"])
    parts.append(f"Face up: {market}. Deck: {_plural(view['deck_size'], 'card')}; "
                 f"ticket deck: {_plural(view['ticket_deck_size'], 'ticket')}.")
    rows = []
    for p in view["players"]:
        you = " (you)" if viewer == p["seat"] else ""
        yard = ", ".join(f"{v['cards']} {c}" + (f" + {v['locomotives']} locomotives" if v["locomotives"] else "")
                         for c, v in p["yard"].items()) or "empty"
        track = (", ".join(f"{n} {c}" for c, n in p["track"].items()) or "empty") if "track" in p \
            else f"{_plural(p['track_size'], 'card')} (hidden)"
        hand = (", ".join(f"{n} {c}" for c, n in p["hand"].items()) or "no cards") if "hand" in p \
            else f"{_plural(p['hand_size'], 'card')} (hidden)"
        tickets = ("; ".join(f"{data.ticket(t).a}–{data.ticket(t).b} ({data.ticket(t).points})"
                             + (" done" if t in p["completed"] else "") for t in p["tickets"]) or "none") \
            if "tickets" in p else f"{_plural(p['ticket_count'], 'ticket')} (hidden)"
        parts.append(f"{p['name']}{you}: rail yard {yard}; on the track {track}; hand {hand}; tickets {tickets}.")
        rows.append([p["name"] + you, yard, track, hand, tickets])
    if last_move:
        parts.append(_sentence(f"Last move: {last_move}"))
    table = {"summary": "Text version: the table in words", "caption": "The players' piles",
             "head": ["player", "rail yard", "on the track", "hand", "tickets"], "rows": rows}
    return f"Card Game table, {who}", " ".join(parts), table


def province_text(state: GameState) -> tuple[str, str, dict]:
    """South Korea's province board (public): each line's trains and its ranking now."""
    from ..games.south_korea import PROVINCE_BONUS, province_lines, province_ranking, province_trains
    from ..board.cards import COLOURS
    v = get_variant(state.variant)
    lines = province_lines(v)
    trains = province_trains(state)
    bonus = PROVINCE_BONUS.get(state.n_players, ())
    parts = [f"Province board: one line per colour; bonuses for {state.n_players} players: "
             + (", ".join(f"+{b}" for b in bonus) or "none") + ", paid at the end by rank."]
    rows = []
    for colour in (c for c in COLOURS if c in lines):
        on = sorted((space, seat) for c, space, seat in trains if c == colour)
        placed = ", ".join(f"space {space} {seat_name(seat)}" for space, seat in on) or "no trains"
        rank = province_ranking(v, state, colour)
        ranking = ", ".join(f"{seat_name(r['seat'])} {r['total']}" + (f" (+{r['bonus']})" if r["bonus"] else "")
                            for r in rank) or "nobody yet"
        parts.append(f"{colour} line: {placed}; ranking {ranking}.")
        rows.append([colour, f"{lines[colour][0]}–{lines[colour][-1]}", placed, ranking])
    table = {"summary": "Text version: the province board in words", "caption": "Province lines",
             "head": ["line", "spaces", "trains", "ranking now"], "rows": rows}
    return "South Korea province board", " ".join(parts), table


__all__ = ["board_text", "card_table_text", "map_text", "province_text", "ticket_map_text"]
