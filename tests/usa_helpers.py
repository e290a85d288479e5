"""Helpers for the USA scenario tests (tests/test_rules_usa.py): build exact, valid positions.

``position(...)`` starts from a real ``new_game`` and rearranges its cards, tickets and claims into the
position a test needs, moving cards between piles (never inventing them), so ``validate(state) == []`` holds
for every position built here (the function asserts it).
"""
from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Iterable, Mapping, Sequence

import pytest

from ttr_nb.board.actions import parse_action
from ttr_nb.board.cards import CARD_ALIASES, CARD_NAMES, LOCO
from ttr_nb.board.engine import explain, legal_actions, new_game, validate
from ttr_nb.errors import IllegalAction
from ttr_nb.board.maps import load_map
from ttr_nb.board.state import FREE, GameState, Pending, PlayerState
from ttr_nb.variants import get_variant

USA = load_map("usa")
V = get_variant("usa")
TOTAL = dict(zip(CARD_NAMES, V.deck_counts))         # 12 of each colour, 14 locomotives
L = "locomotive"
SEATS = {"blue": 0, "red": 1, "green": 2, "yellow": 3, "black": 4}


def kind(name: str | int) -> int:
    if isinstance(name, int):
        return name
    return CARD_ALIASES[name.lower()]


def counts(spec: Mapping[str, int] | None) -> list[int]:
    out = [0] * V.card_kinds
    for name, n in (spec or {}).items():
        out[kind(name)] += n
    return out


def hand_of(state: GameState, seat: int) -> dict[str, int]:
    return {CARD_NAMES[k]: n for k, n in enumerate(state.players[seat].hand) if n}


def route(rid: str):
    return USA.route(rid)


def _filler_routes(n_players: int, taken: set[str], avoid: set[str], need: int) -> list[str]:
    """Routes (no double routes) whose lengths add up to exactly ``need``: a subset-sum over the free ones."""
    candidates = [r for r in USA.routes
                  if r.double_group is None and r.id not in taken and r.id not in avoid]
    candidates.sort(key=lambda r: (-r.length, r.id))
    best: dict[int, list[str]] = {0: []}
    for r in candidates:
        for total, chosen in sorted(best.items(), reverse=True):
            t = total + r.length
            if t <= need and t not in best:
                best[t] = chosen + [r.id]
        if need in best:
            return best[need]
    raise AssertionError(f"cannot place exactly {need} filler trains")


def position(n_players: int = 4, *, seed: int = 1, hands: Mapping[int, Mapping[str, int]] | None = None,
             market: Sequence[str | None] | None = ("purple", "blue", "orange", "white", "green"),
             deck_top: Sequence[str] = (), discard: Mapping[str, int] | None = None, deck_size: int | None = None,
             rest_to: int | str = "deck", claims: Mapping[str, int] | None = None,
             trains: Mapping[int, int] | None = None, avoid: Iterable[str] = (),
             tickets: Mapping[int, Sequence[str]] | None = None, ticket_deck: Sequence[str] | None = None,
             current: int = 0, phase: str = "play", final_turns_left: int = -1,
             pending: Sequence[Pending] = (), first_player: int = 0) -> GameState:
    """A valid USA position.

    hands      {seat: {"red": 3, "locomotive": 1}}; seats not named get an empty hand
    market     five card names (top-left first)
    deck_top   the first cards of the deck, in order (index 0 = top)
    discard    counts in the discard pile
    deck_size  total deck size (deck_top + that many of the remaining cards); the rest goes to ``rest_to``:
               "discard", or a seat number (its hand). Default: every remaining card is in the deck.
    claims     {"R001": seat}; trains and route points follow from them
    trains     {seat: trains left}: filler routes (single routes not in ``avoid``/claims) are claimed to get there
    tickets    {seat: kept ticket ids}; ``ticket_deck`` the ticket deck top first (default: all others T01..T30)
    """
    base = new_game("usa", n_players, seed, first_player=first_player)
    pool = counts(TOTAL)

    def take(name: str, n: int = 1) -> int:
        k = kind(name)
        if pool[k] < n:
            raise AssertionError(f"not enough {CARD_NAMES[k]} cards left to place ({pool[k]} < {n})")
        pool[k] -= n
        return k

    hand_counts = []
    for seat in range(n_players):
        spec = (hands or {}).get(seat, {})
        h = [0] * V.card_kinds
        for name, n in spec.items():
            h[take(name, n)] += n
        hand_counts.append(h)
    mkt = tuple(None if c is None else take(c) for c in market)
    disc = [0] * V.card_kinds
    for name, n in (discard or {}).items():
        disc[take(name, n)] += n
    top = [take(c) for c in deck_top]
    rest = [k for k in range(V.card_kinds) for _ in range(pool[k])]
    random.Random(seed).shuffle(rest)
    if deck_size is None:
        deck = top + rest
    else:
        extra = deck_size - len(top)
        assert extra >= 0
        deck = top + rest[:extra]
        leftover = rest[extra:]
        for k in leftover:
            if rest_to == "discard":
                disc[k] += 1
            else:
                hand_counts[int(rest_to)][k] += 1

    # claims and trains
    owner = [FREE] * len(USA.routes)
    for rid, seat in (claims or {}).items():
        owner[USA.route(rid).index] = seat
    taken = set(claims or {})
    avoid_set = set(avoid)
    for rid in list(taken) + list(avoid_set):
        avoid_set |= {t.id for t in USA.twins(rid)}
    for seat, left in (trains or {}).items():
        placed = sum(r.length for r in USA.routes if owner[r.index] == seat)
        need = V.settings.trains - placed - left
        assert need >= 0, f"seat {seat} already has {placed} trains on the board"
        for rid in _filler_routes(n_players, taken, avoid_set, need):
            owner[USA.route(rid).index] = seat
            taken.add(rid)
    players = []
    all_held: list[str] = []
    for seat in range(n_players):
        mine = [r for r in USA.routes if owner[r.index] == seat]
        kept = tuple((tickets or {}).get(seat, ()))
        all_held += kept
        players.append(PlayerState(hand=tuple(hand_counts[seat]), trains=V.settings.trains - sum(r.length for r in mine),
                                   tickets=kept, route_points=sum(V.route_points(r.length) for r in mine)))
    for p in pending:
        if p.kind == "choose_tickets":
            all_held += list(p.get("offered"))
    if ticket_deck is None:
        ticket_deck = [t.id for t in USA.tickets if t.id not in all_held]
        out: tuple[str, ...] = ()
    else:
        out = tuple(t.id for t in USA.tickets if t.id not in all_held and t.id not in ticket_deck)
        assert not out, f"tickets nowhere (the USA has no out-of-game pile): {out}"
    state = replace(base, deck=tuple(deck), market=mkt, discard=tuple(disc),
                    ticket_decks=(("regular", tuple(ticket_deck)),), tickets_out=out, claims=tuple(owner),
                    players=tuple(players), phase=phase, current=current, pending=tuple(pending),
                    final_turns_left=final_turns_left, turn=0, ply=0, passes=0)
    problems = validate(state)
    assert problems == [], problems
    return state


def setup_done(state: GameState, keep: Mapping[int, Sequence[str]] | None = None):
    """Finish the initial ticket choice: every seat keeps all 3 (or ``keep[seat]``)."""
    from ttr_nb.board.engine import apply
    for p in list(state.pending):
        chosen = (keep or {}).get(p.seat, p.get("offered"))
        state = apply(state, f"{p.seat}: keep {' '.join(chosen)}")
    return state


def snapshot(state: GameState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def assert_refused(state: GameState, action, rules: str | Iterable[str]) -> IllegalAction:
    """``action`` raises IllegalAction citing one of ``rules`` (in .rule and in the message), changes nothing,
    agrees with ``explain`` and is not among the legal actions."""
    from ttr_nb.board.engine import apply
    rules = {rules} if isinstance(rules, str) else set(rules)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    err = info.value
    assert err.rule in rules, f"cited {err.rule!r}, expected one of {sorted(rules)}: {err}"
    assert err.rule in str(err), str(err)
    assert snapshot(state) == before
    again = explain(state, action)
    assert isinstance(again, IllegalAction) and again.rule == err.rule
    act = parse_action(action) if isinstance(action, str) else action
    seat = getattr(act, "seat", None)
    assert act.body() not in {a.body() for a in legal_actions(state, seat)}
    return err


def legal_bodies(state: GameState, seat: int | None = None) -> set[str]:
    """The legal actions' texts with route and ticket ids in place of city names (``claim R025 red4``,
    ``keep T01 T04``), so a test can name the exact route of a double; ``legal_texts`` gives the real texts."""
    return {id_body(state, a) for a in legal_actions(state, seat)}


def legal_texts(state: GameState, seat: int | None = None) -> set[str]:
    return {a.body() for a in legal_actions(state, seat)}


def id_body(state: GameState, action) -> str:
    from ttr_nb.board.actions import Claim, KeepTickets, payment_str
    from ttr_nb.variants import get_variant
    m = get_variant(state.variant).map
    if isinstance(action, Claim):
        return f"claim {m.route(action.route).id} {payment_str(action.payment)}"
    if isinstance(action, KeepTickets):
        return " ".join(("keep", *(m.ticket(t).id for t in action.tickets)))
    return action.body()


def market_names(state: GameState) -> list[str | None]:
    return [None if c is None else CARD_NAMES[c] for c in state.market]


def loco_count(state: GameState) -> int:
    return sum(1 for c in state.market if c == LOCO)


__all__ = ["USA", "V", "L", "SEATS", "TOTAL", "kind", "counts", "hand_of", "route", "position", "setup_done",
           "snapshot", "assert_refused", "legal_bodies", "market_names", "loco_count"]
