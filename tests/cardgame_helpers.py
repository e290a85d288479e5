"""Building Card Game positions for scenario tests: every card and ticket accounted for, so validate() == []."""
from __future__ import annotations

from ttr_nb.board.cards import CARD_INDEX, COLOURS, LOCO
from ttr_nb.cardgame.data import load_cards
from ttr_nb.cardgame.engine import apply, legal_actions, new_game, to_move, validate
from ttr_nb.cardgame.state import CardPlayer, CardState
from ttr_nb.rng import shuffled
from ttr_nb.board.state import Pending

N_KINDS = 9


def counts(**named) -> tuple[int, ...]:
    out = [0] * N_KINDS
    for name, n in named.items():
        out[LOCO if name in ("loco", "locomotive") else CARD_INDEX[name]] += n
    return tuple(out)


def make(n: int = 2, *, hands=None, yards=None, tracks=None, tickets=None, completed=None, market=None,
         deck=None, deck_size: int | None = None, discard=None, current: int = 0, phase: str = "play",
         round: int = 1, pending=(), final_turns_left: int = -1, ticket_deck=None, spent=None) -> CardState:
    """A position built from scratch. ``hands``/``tracks``/``discard``/``spent``: {seat: counts(...)}; ``yards``:
    {seat: {colour: (cards, locos)}}; ``market``: card names (None for empty); ``deck``: card names top first (else
    the remaining cards, shuffled, cut to ``deck_size`` with the rest in the discard pile); tickets: {seat: ids}."""
    data = load_cards()
    pool = list(data.deck)
    hands = hands or {}
    yards = yards or {}
    tracks = tracks or {}
    spent = spent or {}
    players = []
    for seat in range(n):
        hand = hands.get(seat, counts())
        track = tracks.get(seat, counts())
        sp = spent.get(seat, counts())
        yard, ylocos = [0] * 8, [0] * 8
        for colour, (cards, locos) in (yards.get(seat) or {}).items():
            c = COLOURS.index(colour)
            yard[c], ylocos[c] = cards, locos
            pool[c] -= cards
            pool[LOCO] -= locos
        for pile in (hand, track, sp):
            for k in range(N_KINDS):
                pool[k] -= pile[k]
        players.append(CardPlayer(hand=hand, yard=tuple(yard), yard_locos=tuple(ylocos), track=track,
                                  tickets=tuple((tickets or {}).get(seat, ())),
                                  completed=tuple((completed or {}).get(seat, ())), spent=sp))
    mk = tuple(None if c is None else CARD_INDEX.get(c, LOCO) for c in (market or ["red", "blue", "green", "white", "black"]))
    for c in mk:
        if c is not None:
            pool[c] -= 1
    disc = list((discard or {}).get(0, counts())) if discard else [0] * N_KINDS
    for k in range(N_KINDS):
        pool[k] -= disc[k]
    assert all(x >= 0 for x in pool), f"more cards placed than exist: {pool}"
    rest = shuffled([k for k, c in enumerate(pool) for _ in range(c)], 5, "test")
    if deck is not None:
        top = [CARD_INDEX.get(c, LOCO) for c in deck]
        for c in top:
            rest.remove(c)
        rest = top + rest
        deck_size = len(top) if deck_size is None else deck_size
    if deck_size is not None:
        for c in rest[deck_size:]:
            disc[c] += 1
        rest = rest[:deck_size]
    used = {t for seat in range(n) for t in (tickets or {}).get(seat, ()) + tuple((completed or {}).get(seat, ()))}
    offered = {t for p in pending for t in p.get("offered", ())}
    tdeck = tuple(ticket_deck) if ticket_deck is not None else tuple(
        t.id for t in data.tickets if t.id not in used and t.id not in offered)
    s = CardState(variant="cardgame", n_players=n, seed=5, deck=tuple(rest), market=mk, discard=tuple(disc),
                  ticket_deck=tdeck, players=tuple(players), phase=phase, round=round, current=current,
                  pending=tuple(pending), final_turns_left=final_turns_left, first_player=0)
    return s


def to_track(seat: int) -> Pending:
    return Pending("to_track", seat, (("rule", "CG-TURN-1"),))


def after_setup(n: int, seed: int = 0) -> CardState:
    """A new game with every player keeping all six tickets."""
    s = new_game("cardgame", n, seed)
    while s.phase == "setup":
        seat = to_move(s)[0]
        s = apply(s, legal_actions(s, seat)[0])
    return s


def assert_valid(s: CardState) -> CardState:
    assert validate(s) == [], validate(s)
    return s
