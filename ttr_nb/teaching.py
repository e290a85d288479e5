"""Small helpers for the teaching notebooks: the engine's own words, arranged for a reader — and the one
namespace a notebook imports.

Each notebook starts with one line, ``import ttr_nb.teaching as ttr``: this module re-exports what a lesson uses
(``ttr.Game``, ``ttr.position``, ``ttr.observe`` ...), and the figures, views, exercises and analyses are loaded
on first use (``ttr.board_figure``, ``ttr.play``, ``ttr.LegalPayments``, ``ttr.cheapest_paths`` ...).

Rules layer: nothing here imports plotly or ipywidgets at module level (``board_of``, ``learner_view`` and
``history_view`` and the lazily loaded names import them when called). Every text comes from the engine —
``describe``, ``turn_status``, the events of ``step`` and the ``IllegalAction`` of ``explain`` — so a notebook
shows exactly what the rules say, rule ids included.

    >>> from ttr_nb.teaching import try_action
    >>> from ttr_nb.board.positions import position
    >>> s = position("usa", players=3, seed=1, market=["locomotive", "red", "blue", "green", "white"])
    >>> first = try_action(s, "draw deck")
    >>> first.ok, first.status
    (True, 'Blue: take your second card — not a face-up locomotive (USA-DRAW-4).')
    >>> second = try_action(first.state, "draw faceup 1")
    >>> second.ok, second.rule
    (False, 'USA-DRAW-4')
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .board.actions import Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, payment_words
from .bots import GreedyBot
from .board.cards import CARD_NAMES, LOCO
from .board.engine import (Event, board_marks, check, claim_problem, describe, explain, legal_actions, observe, route_payments,
                     seat_name, step, turn_status)
from .errors import TTRError
from .board.names import route_text
from .game import Game
from .board.scoring import ScoreSheet
from .board.state import GameState
from .board.trail import Trail
from .variants import available_variants, get_game, get_variant

__all__ = ["Outcome", "try_action", "walk", "position_text", "seat_view_text", "action_menu", "action_menu_text",
           "payment_options", "points_table", "who_may_claim", "moves_text", "final_round_turns", "greedy_game",
           "route_cities", "revisited_cities", "trail_text", "longest_simple_path", "ticket_lines", "interpretations",
           "interpretations_text", "variants_overview", "variants_text", "variant_status", "variant_status_text",
           "PLANNED", "cards_text", "board_of", "board_animation", "zoom_to", "learner_view", "history_view", "bar_chart",
           "state_from_json", "route_ids", "route_names", "ticket_names", "position", "PLAYVIEW_CLASS", "HISTORYVIEW_CLASS"]

#: CSS classes put on the widget views of the notebooks (the browser test finds them by these).
PLAYVIEW_CLASS = "ttr-playview"
HISTORYVIEW_CLASS = "ttr-historyview"


# ------------------------------------------------------------------------------------------------ words

def cards_text(counts: Sequence[int] | dict[str, int]) -> str:
    """A hand in words, e.g. '2 blue, 1 red, 1 locomotive' (from a count vector or {card name: n});
    'no cards' if empty."""
    if isinstance(counts, dict):
        items = [(CARD_NAMES.index(k), n) for k, n in counts.items()]
    else:
        items = list(enumerate(counts))
    parts = []
    for k, n in sorted(items):
        if n:
            name = CARD_NAMES[k]
            parts.append(f"{n} {name}{'s' if k == LOCO and n != 1 else ''}")
    return ", ".join(parts) if parts else "no cards"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _ticket_words(m, tid: str) -> str:
    t = m.ticket(tid)
    return f"{t.a}–{t.b} ({t.points})"


# ------------------------------------------------------------------------------------------------ one action

@dataclass(frozen=True)
class Outcome:
    """What happened when an action was tried: the engine's words for it, or its refusal.

    ``ok``: the action was legal and applied (``state`` is the new state) — else ``state`` is the unchanged one,
    ``error`` the refusal and ``rule`` its rule id. ``events`` are the rule-relevant things that happened on the
    way (market reset, reshuffle, final round ...), ``status`` is ``turn_status`` afterwards.
    """

    action: str
    ok: bool
    words: str
    state: GameState
    status: str
    events: tuple[Event, ...] = ()
    error: TTRError | None = None
    rule: str | None = None

    @property
    def event_kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def lines(self) -> list[str]:
        if not self.ok:
            return [f"REFUSED  {self.action!r}: {self.error}"]
        out = [f"ok  {self.words}   [{self.action}]"]
        out += [f"   · {e}" for e in self.events]
        out.append(f"   → {self.status}")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_pretty_(self, p, cycle) -> None:      # IPython shows the words, not the dataclass
        p.text(str(self))


def try_action(state: GameState, action: Action | str) -> Outcome:
    """Try ``action`` on ``state`` through the engine: legal → applied (with events and the new status);
    refused → the ``IllegalAction``/``BadAction`` and its rule id, the state unchanged."""
    text = str(action).strip()
    err = explain(state, action)
    if err is not None:
        return Outcome(text, False, str(err), state, turn_status(state), (), err, getattr(err, "rule", None))
    text = _canonical_text(state, action, text)
    words = describe(state, action)
    new, events = step(state, action)
    return Outcome(text, True, words, new, turn_status(new), tuple(events))


def _canonical_text(state: GameState, action: Action | str, typed: str) -> str:
    """The engine's text of a legal action (cities, not ids; the map's spelling), with the seat prefix only
    where it was typed."""
    canon = str(check(state, action)[0])
    return canon if ":" in typed else canon.split(": ", 1)[-1]       # city names hold no colon


def walk(state: GameState, actions: Iterable[Action | str]) -> list[Outcome]:
    """Try several actions in a row; a refused one leaves the state as it was and the walk goes on from there."""
    out = []
    for a in actions:
        o = try_action(state, a)
        out.append(o)
        state = o.state
    return out


# ------------------------------------------------------------------------------------------------ positions

def position_text(state: GameState, *, deck_top: int = 0, seats: Sequence[int] | None = None) -> str:
    """The table as a teacher sees it: status, face-up cards, piles, each player's trains, hand and tickets.

    ``deck_top``: also name the next cards of the deck (hidden in a real game; shown so a reader can follow).
    ``seats``: the players to list (default all)."""
    m = get_variant(state.variant).map
    view = observe(state, None)
    lines = [turn_status(state)]
    market = ", ".join(f"{i + 1}:{c if c is not None else '(empty)'}" for i, c in enumerate(view["market"]))
    lines.append(f"face-up: {market}")
    piles = f"deck: {_plural(view['deck_size'], 'card')} · discard pile: {_plural(sum(state.discard), 'card')}"
    if deck_top:
        top = ", ".join(CARD_NAMES[c] for c in state.deck[:deck_top]) or "nothing"
        piles += f" · next in the deck: {top}"
    lines.append(piles)
    for p in view["players"]:
        if seats is not None and p["seat"] not in seats:
            continue
        tickets = ", ".join(_ticket_words(m, t) for t in p["tickets"]) or "none"
        lines.append(f"{p['name']:<6} trains {p['trains']:>2} · cards: {cards_text(p['hand'])} · tickets: {tickets}")
    return "\n".join(lines)


def seat_view_text(state: GameState, seat: int) -> str:
    """What ``observe(state, seat)`` lets one seat see: its own hand and tickets, only counts for the others."""
    from .variants import rules_of
    own = getattr(rules_of(state), "seat_view_text", None)
    if own is not None:                        # a game with its own rules module says it its own way
        return own(state, seat)
    m = get_variant(state.variant).map
    view = observe(state, seat)
    lines = [f"What {seat_name(seat)} sees — observe(state, {seat}):"]
    pend = {p["seat"]: p for p in view["pending"]}
    for p in view["players"]:
        if "hand" in p:
            cards = cards_text(p["hand"])
            tickets = ", ".join(_ticket_words(m, t) for t in p["tickets"]) or "none yet"
        else:
            cards = f"{p['hand_size']} cards (hidden)"
            tickets = f"{p['ticket_count']} (hidden)"
        line = f"  {p['name']:<6} cards: {cards} · tickets: {tickets}"
        q = pend.get(p["seat"])
        if q is not None and q["kind"] == "choose_tickets":
            if "data" in q:
                line += " · choosing from: " + ", ".join(_ticket_words(m, t) for t in q["data"]["offered"])
            else:
                line += f" · choosing from {q['offered_count']} tickets (hidden)"
        lines.append(line)
    lines.append(f"  face-up: {', '.join(str(c) for c in view['market'])} · deck: {_plural(view['deck_size'], 'card')} "
                 "(their order is hidden from everyone)")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ the turn

_KINDS = ((DrawDeck, "draw train cards"), (DrawFaceUp, "draw train cards"), (Claim, "claim a route"),
          (DrawTickets, "draw destination tickets"), (KeepTickets, "keep tickets"), (Pass, "pass"))


def _kind_of(action: Action) -> str:
    for cls, name in _KINDS:
        if isinstance(action, cls):
            return name
    return getattr(action, "verb", "") or type(action).__name__


def action_menu(state: GameState, seat: int | None = None) -> dict[str, list[str]]:
    """``legal_actions(state, seat)`` grouped by the kind of turn (USA-TURN-1), as action texts, in the engine's
    order: {'draw train cards': [...], 'claim a route': [...], 'draw destination tickets': [...]}."""
    out: dict[str, list[str]] = {}
    for a in legal_actions(state, seat):
        out.setdefault(_kind_of(a), []).append(str(a))
    return out


def action_menu_text(state: GameState, seat: int | None = None, examples: int = 3) -> str:
    menu = action_menu(state, seat)
    lines = []
    for kind, acts in menu.items():
        more = f", … ({len(acts) - examples} more)" if len(acts) > examples else ""
        extra = ""
        if kind == "claim a route":
            routes = {a.route for a in legal_actions(state, seat) if isinstance(a, Claim)}
            extra = f" on {len(routes)} routes"
        lines.append(f"{kind}: {len(acts)} legal action{'s' if len(acts) != 1 else ''}{extra} — "
                     f"{'; '.join(acts[:examples])}{more.replace(',', ';', 1)}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ claiming

def payment_options(state: GameState, route_id: str, seat: int | None = None) -> list[tuple[str, str]]:
    """Every legal way ``seat`` (default: the player to move) can pay for ``route_id`` now, as
    (action text, words) — the engine's ``route_payments``, kept only where ``explain`` agrees."""
    v = get_variant(state.variant)
    seat = state.current if seat is None else seat
    route = v.map.route(route_id)
    out = []
    for pay in route_payments(v, route, state.players[seat].hand):
        claim = Claim(route=route_text(v.map, route), payment=pay, seat=seat)
        if explain(state, claim) is None:
            out.append((str(claim), payment_words(pay)))
    return out


def points_table(variant: str = "usa") -> list[tuple[int, int]]:
    """(route length, points) from the variant's settings (USA-CLAIM-9)."""
    return sorted(get_variant(variant).settings.route_points.items())


def who_may_claim(state: GameState, route_id: str) -> dict[str, str]:
    """For every seat: 'may claim' or the engine's reason it may not (route taken, double-route rules
    USA-CLAIM-7/8, trains USA-CLAIM-4). Cards and whose turn it is are left out: this is about the route."""
    v = get_variant(state.variant)
    route = v.map.route(route_id)
    out = {}
    for seat in range(state.n_players):
        problem = claim_problem(v, state, seat, route, None)
        out[seat_name(seat)] = "may claim" if problem is None else f"may not: {problem[0]} ({v.rule(problem[1])})"
    return out


# ------------------------------------------------------------------------------------------------ games

def moves_text(game: Game, start: int = 0, end: int | None = None, *, claims: bool = True) -> str:
    """Moves ``start+1 .. end`` of ``game`` (each decision is one move: a card drawn, a route claimed, tickets
    kept): the words of each and its events (``claims=False`` hides the routine "X claimed ... for N points"
    events)."""
    lines = []
    for p in game.history[start:end]:
        lines.append(f"{p.number:>4}. {p.words}")
        for e in p.events:
            if claims or e.kind != "claim":
                lines.append(f"        · {e}")
    return "\n".join(lines)


def final_round_turns(game: Game) -> list[str]:
    """The players who took a turn after the final round began (USA-END-1), in order, one entry per turn
    (a two-card draw is one turn)."""
    start = next((p.number for p in game.history if any(e.kind == "final_round" for e in p.events)), None)
    if start is None:
        return []
    turns = []
    for p in game.history[start:]:
        before = game.state_at(p.number - 1)
        if before.turn != p.state.turn:           # the turn counter moves when a turn ends
            turns.append(seat_name(p.seat))
    return turns


def greedy_game(players: int = 3, seed: int = 4) -> Game:
    """A whole seeded game between greedy bots (``GreedyBot(seed=seat)`` in every seat), played to the end."""
    game = Game("usa", players=players, seed=seed)
    game.play_bots({s: GreedyBot(seed=s) for s in range(players)})
    return game


# ------------------------------------------------------------------------------------------------ scoring

def route_cities(variant: str, route_ids: Sequence[str], start: str | None = None) -> list[str]:
    """The cities along consecutive routes (a path or trail), beginning at ``start`` (default: the end of the
    first route not shared with the second)."""
    m = get_variant(variant).map
    routes = [m.route(r) for r in route_ids]
    if not routes:
        return [start] if start else []
    if start is None:
        first = routes[0]
        if len(routes) > 1 and first.a in (routes[1].a, routes[1].b) and first.b not in (routes[1].a, routes[1].b):
            start = first.b
        else:
            start = first.a
    cities = [start]
    for r in routes:
        here = cities[-1]
        if here == r.a:
            cities.append(r.b)
        elif here == r.b:
            cities.append(r.a)
        else:
            raise TTRError(f"route {r.id} ({r.a}–{r.b}) does not start at {here}: the routes are not consecutive")
    return cities


def revisited_cities(trail: Trail) -> list[str]:
    """Cities a trail passes through more than once (a closed loop's start counts once), sorted."""
    cities = list(trail.cities)
    if len(cities) > 1 and cities[0] == cities[-1]:
        cities = cities[:-1]
    return sorted({c for c in cities if cities.count(c) > 1})


def trail_text(trail: Trail) -> str:
    if not trail.routes:
        return "no routes"
    again = revisited_cities(trail)
    note = f"; passes through {', '.join(again)} twice" if again else ""
    return f"{' → '.join(trail.cities)} — {_plural(trail.length, 'train')}, {_plural(len(trail.routes), 'route')}{note}"


def longest_simple_path(state: GameState, seat: int) -> int:
    """Trains on the longest path of ``seat``'s routes that never visits a city twice — NOT the rule (the rule
    counts trails, USA-SCORE-3), shown for contrast."""
    v = get_variant(state.variant)
    adj: dict[str, list[tuple[str, int, str]]] = {}
    for r in v.map.routes:
        if state.claims[r.index] == seat:
            adj.setdefault(r.a, []).append((r.b, r.length, r.id))
            adj.setdefault(r.b, []).append((r.a, r.length, r.id))
    best = 0

    def go(city: str, seen: set[str], length: int) -> None:
        nonlocal best
        best = max(best, length)
        for other, n, _rid in adj.get(city, ()):
            if other not in seen:
                seen.add(other)
                go(other, seen, length + n)
                seen.discard(other)

    for city in sorted(adj):
        go(city, {city}, 0)
    return best


def ticket_lines(sheet: ScoreSheet, seat: int, variant: str = "usa") -> list[str]:
    """One line per ticket of ``seat`` in a score sheet: completed or not, points ±, and the path of routes that
    completes it."""
    out = []
    for t in sheet.players[seat].tickets:
        if t.completed:
            path = " → ".join(route_cities(variant, t.path, t.a)) if t.path else t.a
            out.append(f"completed      {t.a}–{t.b}: {t.value:+d}  via {path}")
        else:
            out.append(f"not completed  {t.a}–{t.b}: {t.value:+d}  (no path of own routes joins them)")
    return out


# ------------------------------------------------------------------------------------------------ variants

def interpretations(variant: str = "usa") -> list[tuple[str, str]]:
    """(rule id, what ttr_nb does) where the rule book is silent or ambiguous."""
    return list(get_variant(variant).interpretations)


def interpretations_text(variant: str = "usa", width: int = 110) -> str:
    import textwrap
    lines = []
    for rule, text in interpretations(variant):
        body = textwrap.wrap(text, width - 14)
        lines.append(f"{rule:<12}  {body[0]}")
        lines += [" " * 14 + b for b in body[1:]]
    return "\n".join(lines)


def variants_overview() -> list[dict[str, Any]]:
    """One row per shipped variant: key, name, map, players, whether its board is PROVISIONAL (and why), and
    how many interpretations it lists."""
    rows = []
    for key in available_variants():
        v = get_variant(key)
        m = v.map
        st = v.settings
        rows.append({"key": v.key, "name": v.name, "map": m.name, "players": f"{st.min_players}–{st.max_players}",
                     "cities": len(m.cities), "routes": len(m.routes), "tickets": len(m.tickets),
                     "provisional": bool(m.provisional), "provisional_note": m.provisional_note or "",
                     "rule_prefix": v.rule_prefix, "interpretations": len(v.interpretations),
                     "description": v.description})
    return rows


def variants_text() -> str:
    lines = []
    for r in variants_overview():
        status = f"PROVISIONAL board — {r['provisional_note']}" if r["provisional"] else "board not provisional"
        lines.append(f"{r['key']:<8} {r['name']} · {r['players']} players · {r['cities']} cities, {r['routes']} "
                     f"routes, {r['tickets']} tickets · rule ids {r['rule_prefix']}-… · {status}")
    return "\n".join(lines)


def state_from_json(text: str) -> GameState:
    """A position from the JSON text an ``EditorView`` exports (or ``json.dumps(state.to_dict())``); a clear
    ``StateError`` when the text is not such a position."""
    import json
    from .errors import StateError
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as e:
        raise StateError(f"not the JSON text of a position: {e}") from None
    return GameState.from_dict(data)


#: Games whose rules are digested but whose engine is not in this package yet: (variant key, name). Empty today:
#: every game with a rule digest in docs/rules/ is playable. A variant registered under the same key is never
#: "coming" (see ``variant_status``).
PLANNED: tuple[tuple[str, str], ...] = ()

#: The games that have their lesson notebook (and views) already: variant key -> notebook.
LESSON_NOTEBOOKS = {"usa": "01_usa.ipynb", "europe": "02_europe.ipynb", "maerklin": "03_maerklin.ipynb",
                    "south_korea": "04_south_korea.ipynb", "cardgame": "05_card_game.ipynb"}

_STATUS_WORDS = {"done": "done: playable, every rule of its rule book in the engine, with its lesson",
                 "provisional": "playable, every rule of its rule book in the engine, with its lesson; PROVISIONAL",
                 "engine": "rules engine: play it from Python or with ttr-nb play; its lesson is still to be written",
                 "coming": "coming: rules digested, no engine in this package yet"}


def variant_status() -> dict[str, str]:
    """Every game ttr_nb knows of → 'done' (registered, with its lesson, its data confirmed), 'provisional' (the
    same with provisional data: a board marked ``Map.provisional``, or the Card Game's ticket data), 'engine'
    (registered: its rules are in the engine, but it has no lesson notebook yet) or 'coming' (in ``PLANNED``, not
    registered). The notebooks' claims are tested against this."""
    from .variants import available_games, get_game
    out = {}
    for key in available_games():
        if key not in LESSON_NOTEBOOKS:
            out[key] = "engine"
        else:
            out[key] = "provisional" if get_game(key).provisional else "done"
    for key, _name in PLANNED:
        out.setdefault(key, "coming")
    return out


def _provisional_part(game) -> str:
    """What is provisional about a game, in words: its board (a map game) or its ticket data (the Card Game, which
    has no board)."""
    return "board" if getattr(game, "map_key", None) else "ticket data"


def variant_status_text() -> str:
    """One line per game: key, name and status (with what is provisional, and why, where a game has such data)."""
    from .variants import get_game
    names = dict(PLANNED)
    notes = {}
    for key, status in variant_status().items():
        if status != "coming":
            game = get_game(key)
            names[key] = game.name
            if game.provisional:
                note = re.sub(r"^PROVISIONAL:\s*", "", game.provisional_note or "provisional facts")
                notes[key] = f"{_provisional_part(game)}: {note}"
    lines = []
    for key, status in variant_status().items():
        words = _STATUS_WORDS[status]
        if key in notes:
            words += f" {notes[key]}" if status == "provisional" else f" (PROVISIONAL {notes[key]})"
        lines.append(f"{key:<12} {names[key]:<32} {words}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ names

def route_ids(variant, refs: Iterable[str]) -> list[str]:
    """Route ids for routes named by their cities ("Denver–Omaha", "Denver–Salt Lake City (red)") or by id."""
    from .board.names import find_route
    m = get_variant(variant).map
    return [find_route(m, r).id for r in refs]


def route_names(variant, ids: Iterable[str]) -> list[str]:
    """The city texts of routes given by id or city text, e.g. ['Denver–Salt Lake City (red)']."""
    from .board.names import route_text
    m = get_variant(variant).map
    return [route_text(m, r) for r in route_ids(variant, ids)]


def ticket_names(variant, ids: Iterable[str]) -> str:
    """Tickets in words: 'Helena–Los Angeles (8), Duluth–Houston (8)' (ids or city texts)."""
    from .board.names import find_ticket, ticket_words
    entry = get_game(variant)
    m = entry.map if hasattr(entry, "map") else entry.data          # the Card Game's tickets are its cards
    return ticket_words(m, [find_ticket(m, t).id for t in ids])


def position(variant: str = "usa", *args, claims: dict | None = None, tickets: dict | None = None,
             **kwargs) -> GameState:
    """``ttr_nb.board.positions.position`` with routes and tickets named by their cities (ids work too):
    ``claims={"Denver–Omaha": 0}``, ``tickets={0: ["Denver–El Paso"]}``. See that function for the rest."""
    from .board.names import find_ticket
    m = get_variant(variant).map
    if claims is not None:
        claims = dict(zip(route_ids(variant, claims), claims.values()))
    if tickets is not None:
        tickets = {seat: [find_ticket(m, t).id for t in held] for seat, held in tickets.items()}
    return _position(variant, *args, claims=claims, tickets=tickets, **kwargs)


# ------------------------------------------------------------------------------------------------ pictures & views
# (plotly / ipywidgets are imported only here, when called)

def board_of(state: GameState, *, highlight: Sequence[tuple[str, Sequence[str]]] = (), trail: Sequence[str] = (),
             title: str | None = None, height: int = 560, focus: Sequence[str] = (), margin: float | None = None):
    """A static board figure (``go.Figure``) of ``state``: owners in player colours, closed twins faded
    (USA-CLAIM-8), stations, plus ``highlight`` layers and a ``trail`` drawn step by step.

    Routes in ``highlight`` and ``trail`` are named by their cities ("Denver–Omaha") or ids.
    ``focus``: city names to zoom on (the view keeps the board's proportions; ``margin`` is the room around
    them in board units; by default a twelfth of the board's larger side). Pan or double-click the plot to see
    the whole board."""
    from .board.cards import PLAYER_COLOURS
    from .render import board_figure
    v = get_variant(state.variant)
    marks = board_marks(state)
    names = [seat_name(i) for i in range(state.n_players)]
    highlight = [(label, route_ids(v, refs)) for label, refs in highlight]
    trail_label = {}
    if trail:
        trail = route_ids(v, trail)
    elif marks.get("trail"):            # a move under way (a Märklin passenger's path so far)
        trail, trail_label = marks["trail"], {"trail_label": marks.get("trail_label", "path")}
    fig = board_figure(v.map, owners=marks["owners"], closed=marks["closed"], stations=marks["stations"],
                       player_names=names, player_colours=PLAYER_COLOURS[:state.n_players],
                       highlight=highlight, trail=trail, title=title, height=height,
                       points_table=v.settings.route_points, goods=marks.get("goods"),
                       passengers=marks.get("passengers"), **trail_label)
    if focus:
        zoom_to(fig, focus, margin)
    return fig


def board_animation(start: GameState, steps: Sequence[Outcome], *, title: str | None = None, height: int = 700,
                    focus: Sequence[str] = (), margin: float | None = None, seconds: float = 1.2):
    """The board of ``start`` animated over ``steps`` (the outcomes of ``walk``): one frame per applied step,
    with a play button and a slider under the board, each frame captioned under the board with what happened.

    Made for a Märklin passenger's journey (the path grows, each city's goods stack drops by the token taken,
    the passenger leaves at the end), it animates any moves: claims, stations, a trail. Refused steps change
    nothing, so they get no frame. The animation is a plain figure: it plays without a kernel (a saved
    notebook, JupyterLite). Only the layers that change travel in the frames."""
    import textwrap

    import plotly.graph_objects as go

    if not all(isinstance(o, Outcome) for o in steps):
        raise TTRError("board_animation: steps must be the outcomes of walk() or try_action()")
    moves = [o for o in steps if o.ok]
    if not moves:
        raise TTRError("board_animation: no step was applied, so there is nothing to animate")
    head = title if title is not None else "The board, move by move"
    words = ["Before the first step."] + [f"{k}. {o.words}" for k, o in enumerate(moves, 1)]
    boards = [board_of(s, title=head, height=height) for s in [start] + [o.state for o in moves]]
    fig = boards[0]
    if focus:
        zoom_to(fig, focus, margin)
    first = [t.to_plotly_json() for t in fig.data]
    changing = sorted({i for b in boards[1:] for i, t in enumerate(b.data) if t.to_plotly_json() != first[i]})
    fixed = [a.to_plotly_json() for a in fig.layout.annotations]          # the provisional note stays

    def caption(text: str) -> list[dict]:       # what happened, under the board, wrapped for a narrow window
        return fixed + [dict(text="<br>".join(textwrap.wrap(text, 75)), xref="paper", yref="paper", x=0, y=0,
                             xanchor="left", yanchor="top", yshift=-6, align="left", showarrow=False,
                             font=dict(size=14, color="#222222"))]

    fig.frames = [go.Frame(name=str(k), traces=changing, data=[b.data[i] for i in changing],
                           layout=dict(annotations=caption(w)))
                  for k, (b, w) in enumerate(zip(boards, words))]
    ms = int(seconds * 1000)
    play = dict(frame=dict(duration=ms, redraw=True), transition=dict(duration=0), fromcurrent=True, mode="immediate")
    below = dict(y=0, yanchor="top", pad=dict(t=62))                       # under the two caption lines
    fig.update_layout(
        showlegend=False, margin=dict(b=fig.layout.margin.b + 120), annotations=caption(words[0]),
        updatemenus=[dict(type="buttons", direction="left", x=0, xanchor="left", showactive=False, font=dict(size=13),
                          buttons=[dict(label="▶ play", method="animate", args=[None, play]),
                                   dict(label="‖ pause", method="animate",
                                        args=[[None], dict(frame=dict(duration=0, redraw=False), mode="immediate")])],
                          **below)],
        sliders=[dict(active=0, x=0.3, len=0.7, currentvalue=dict(visible=False), font=dict(size=12), **below,
                      steps=[dict(label=str(k) if k else "start", method="animate",
                                  args=[[str(k)], dict(frame=dict(duration=0, redraw=True), mode="immediate",
                                                       transition=dict(duration=0))])
                             for k in range(len(boards))])])
    return fig


def zoom_to(fig, cities: Sequence[str], margin: float | None = None) -> None:
    """Set a board figure's axis ranges around ``cities`` (in place), keeping the full board's aspect ratio.
    ``margin``: the room around them in board units (boards differ in scale: USA is about 40 units wide,
    Märklin 6); by default a twelfth of the board's larger side."""
    from .render import trace_index
    t = fig.data[trace_index(fig, "cities")]
    where = {str(c): (x, y) for c, x, y in zip(t.customdata, t.x, t.y)}
    missing = [c for c in cities if c not in where]
    if missing:
        raise TTRError(f"zoom_to: no city {missing[0]!r} on this board")
    xs = [where[c][0] for c in cities]
    ys = [where[c][1] for c in cities]
    fx0, fx1 = fig.layout.xaxis.range
    fy0, fy1 = fig.layout.yaxis.range
    if margin is None:
        margin = max(fx1 - fx0, fy1 - fy0) / 12
    x0, x1 = min(xs) - margin, max(xs) + margin
    y0, y1 = min(ys) - margin, max(ys) + margin
    ratio = (fx1 - fx0) / (fy1 - fy0)               # width / height of the whole board
    if (x1 - x0) / (y1 - y0) < ratio:               # too narrow: widen around the centre
        cx, w = (x0 + x1) / 2, (y1 - y0) * ratio
        x0, x1 = cx - w / 2, cx + w / 2
    else:                                           # too flat: heighten
        cy, h = (y0 + y1) / 2, (x1 - x0) / ratio
        y0, y1 = cy - h / 2, cy + h / 2
    fig.update_layout(xaxis_range=[x0, x1], yaxis_range=[y0, y1])


def learner_view(players: int = 3, seed: int = 11, bots: str = "greedy", **kwargs):
    """A ``PlayView`` for a learner: you are Blue (seat 0), greedy bots play the other seats."""
    from .widgets import play
    view = play("usa", players=players, seed=seed, bots=bots, **kwargs)
    view.widget.add_class(PLAYVIEW_CLASS)
    return view


def bar_chart(labels: Sequence[str], values: Sequence[float], *, title: str = "", height: int = 380):
    """A horizontal bar chart (``go.Figure``), first label on top — for a quick look at a list of numbers."""
    import plotly.graph_objects as go

    from .render.figure import Figure
    return Figure(go.Bar(x=list(values)[::-1], y=list(labels)[::-1], orientation="h"),
                     layout=dict(title=title, height=height, margin=dict(l=120, r=20, t=50, b=40)))


def history_view(game: Game, move: int | None = 0, **kwargs):
    """A ``HistoryView`` over ``game`` showing the position after ``move`` moves (default 0: the start)."""
    from .widgets import HistoryView
    view = HistoryView(game, ply=move, **kwargs)
    view.widget.add_class(HISTORYVIEW_CLASS)
    return view


# ------------------------------------------------------------------------------------------------ the lesson namespace
# ``import ttr_nb.teaching as ttr`` is the one import line of a notebook. The rules names below are imported with
# this module; the rest (figures, views, exercises, analyses) load on first use, so a notebook that only reads
# rules never imports plotly or ipywidgets.

from .board import maps as _maps, scoring as _scoring  # noqa: E402
from .board.actions import parse_action  # noqa: E402,F401
from .bots import make_bot  # noqa: E402,F401
from .board.engine import apply, closed_routes, is_legal, new_game, to_move, validate  # noqa: E402,F401
from .board.positions import position as _position  # noqa: E402
from .board.state import FREE  # noqa: E402,F401

load_map, available_maps, Map = _maps.load_map, _maps.available_maps, _maps.Map
score = _scoring.score

_LAZY = {
    "ttr_nb.render": ("board_figure",),
    "ttr_nb.render.panels": ("market_figure", "score_figure", "hand_figure"),
    "ttr_nb.widgets": ("play", "PlayView", "HistoryView", "EditorView", "TableView", "MapExplorer"),
    "ttr_nb.exercises": ("EXERCISES", "make_exercise", "LegalPayments", "IsItLegal", "TicketDone", "FindLongest",
                         "ScoreThis", "TunnelExtra", "BestPassengerMove", "PassengerFare",
                         "ProvinceSpace", "ProvinceBonus", "CanPlayYard", "BestCompletion", "WinChance"),
    "ttr_nb.analysis": ("as_html", "cheapest_paths", "city_centrality", "route_ticket_load", "ticket_difficulty"),
    "ttr_nb.compare": ("compare_variants", "interpretations_html"),
    "ttr_nb.games.europe": ("best_borrowing", "station_candidates", "stations_of", "tunnel_odds"),
    "ttr_nb.games.maerklin": ("best_passenger_move", "passengers_of", "goods_of", "goods_stacks"),
    "ttr_nb.games.south_korea": ("province_ranking", "province_space", "express_left", "drafted"),
    "ttr_nb.render.provinces": ("province_figure",),
    "ttr_nb.render.cardtable": ("card_table_figure",),
    "ttr_nb.render.ticketmap": ("ticket_map_figure",),
    "ttr_nb.cardgame.engine": ("best_completion", "completable", "completion_problem", "yard_problem"),
    "ttr_nb.cardgame.positions": ("card_position",),
    "ttr_nb.coach": ("advise", "ticket_odds", "review"),
    "ttr_nb.tournament.teach": ("bot_view", "play_moves", "tournament", "save_bot", "bot_source"),
    "ttr_nb.tournament.results": ("load_results",),
    "ttr_nb.exercises.bots": ("BeatGreedy", "BeatBot"),
}
_LAZY_NAMES = {name: module for module, names in _LAZY.items() for name in names}


def __getattr__(name: str):
    module = _LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'ttr_nb.teaching' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_NAMES))
