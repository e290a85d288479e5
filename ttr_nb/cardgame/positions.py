"""Card Game positions for lessons and exercises, in a learner's words: who holds which cards, what lies in each
rail yard and on each on-the-track pile — every card of the game accounted for, so ``validate`` accepts it.

    >>> from ttr_nb.cardgame.positions import card_position
    >>> s = card_position(2, seed=1, hands={0: {"blue": 3}}, yards={1: {"blue": 1}})
    >>> s.players[1].stack(1), s.players[0].hand[1]
    (1, 3)
"""
from __future__ import annotations

from typing import Mapping, Sequence

from ..board.cards import CARD_ALIASES, COLOURS, LOCO
from ..errors import TTRError
from ..rng import shuffled
from ..board.state import Pending
from .data import load_cards
from .state import CardPlayer, CardState

N_KINDS = LOCO + 1

__all__ = ["card_position"]


def _kind(name: str, where: str) -> int:
    k = CARD_ALIASES.get(str(name).strip().lower())
    if k is None or k > LOCO:
        raise TTRError(f"{where}: {name!r} is not a card of the Card Game ({', '.join(COLOURS)}, locomotive)")
    return k


def card_position(players: int = 2, seed: int = 0, *, hands: Mapping[int, Mapping[str, int]] | None = None,
                  yards: Mapping[int, Mapping[str, int | tuple[int, int]]] | None = None,
                  tracks: Mapping[int, Mapping[str, int]] | None = None,
                  tickets: Mapping[int, Sequence[str]] | None = None,
                  market: Sequence[str] | None = None, current: int = 0,
                  see_own_track: bool = False) -> CardState:
    """A Card Game position in round 1, in play, with exactly what you ask for.

    hands, tracks: seat → {card: count}; yards: seat → {colour: cards or (cards, locomotives on top)};
    tickets: seat → tickets held (ids or cities); market: 5 card names (default: from the shuffled rest);
    current: whose turn. The remaining cards are shuffled (``seed``) into the deck; seats without a hand get none.
    see_own_track: the book's option for young players, who see their own on-the-track pile (CG-AREA-1).
    """
    data = load_cards()
    if not 2 <= players <= 4:
        raise TTRError(f"the Card Game is for 2 to 4 players, not {players}")
    pool = list(data.deck)

    def take(k: int, n: int, where: str) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise TTRError(f"{where}: {n!r} is not a number of cards")
        if pool[k] < n:
            raise TTRError(f"{where}: the game has no {n} more {'locomotives' if k == LOCO else COLOURS[k]} left")
        pool[k] -= n

    def vector(named: Mapping[str, int] | None, where: str) -> tuple[int, ...]:
        out = [0] * N_KINDS
        for name, n in (named or {}).items():
            k = _kind(name, where)
            take(k, n, where)
            out[k] += n
        return tuple(out)

    for what, table in (("hands", hands), ("yards", yards), ("tracks", tracks), ("tickets", tickets)):
        for seat in (table or {}):
            if not (isinstance(seat, int) and 0 <= seat < players):
                raise TTRError(f"{what}: there is no seat {seat!r} in a {players}-player game")
    held: set[str] = set()
    people = []
    for seat in range(players):
        hand = vector((hands or {}).get(seat), f"hand of seat {seat}")
        track = vector((tracks or {}).get(seat), f"on-the-track pile of seat {seat}")
        yard, locos = [0] * len(COLOURS), [0] * len(COLOURS)
        for colour, stack in ((yards or {}).get(seat) or {}).items():
            c = _kind(colour, f"rail yard of seat {seat}")
            if c == LOCO:
                raise TTRError(f"rail yard of seat {seat}: locomotives lie on top of a colour's stack, never alone (CG-YARD-2)")
            cards, on_top = stack if isinstance(stack, tuple) else (stack, 0)
            take(c, cards, f"rail yard of seat {seat}")
            take(LOCO, on_top, f"rail yard of seat {seat}")
            yard[c], locos[c] = cards, on_top
        ids = tuple(data.find_ticket(t).id for t in (tickets or {}).get(seat, ()))
        if set(ids) & held:
            raise TTRError(f"tickets: {sorted(set(ids) & held)[0]} is given to two seats")
        held |= set(ids)
        people.append(CardPlayer(hand=hand, yard=tuple(yard), yard_locos=tuple(locos), track=track, tickets=ids))
    rest = shuffled([k for k, n in enumerate(pool) for _ in range(n)], seed, "card_position", 0)
    if market is not None:
        if len(market) != 5:
            raise TTRError(f"market: give 5 cards, got {len(market)}")
        face = []
        for name in market:
            k = _kind(name, "market")
            if k not in rest:
                raise TTRError(f"market: no {name} card is left")
            rest.remove(k)
            face.append(k)
    else:
        face, rest = rest[:5], rest[5:]
    if not (isinstance(current, int) and 0 <= current < players):
        raise TTRError(f"current: there is no seat {current!r} in a {players}-player game")
    # CG-TURN-1: a turn starts with step 1 when the player's rail yard holds cards
    step1 = (Pending("to_track", current, (("rule", "CG-TURN-1"),)),) if any(people[current].yard) else ()
    state = CardState(variant="cardgame", n_players=players, seed=seed, deck=tuple(rest), market=tuple(face),
                      discard=(0,) * N_KINDS, ticket_deck=tuple(t.id for t in data.tickets if t.id not in held),
                      players=tuple(people), phase="play", round=1, current=current, pending=step1,
                      final_turns_left=-1, first_player=0, see_own_track=see_own_track)
    from .engine import require_valid
    return require_valid(state)
