"""``ticket_odds``: the chance that each of a seat's tickets is joined (completed) by the end of the game.

Estimated like the coach's moves: the position is sampled from the seat's view (``determinize``) and played to the
end with the playout policy for every seat; a ticket's chance is the share of playouts in which it ended joined.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import TTRError
from ..board.state import GameState


@dataclass(frozen=True)
class TicketOdds:
    ticket: str          # its id
    words: str           # its cities and points, 'Denver–El Paso (4)'
    points: int
    chance: float        # 0–1: joined at the end in this share of the playouts
    joined: bool         # joined already now
    playouts: int

    def __str__(self) -> str:
        now = " (joined already)" if self.joined else ""
        return f"{self.words}: {round(100 * self.chance)}%{now}"


def _ticket_facts(state, seat: int) -> list[tuple[str, str, int, bool]]:
    """(id, words, points, joined now) of the seat's held tickets."""
    from ..board.names import ticket_words
    if state.__class__ is GameState:
        from ..variants import get_variant
        from .policy import make_plan, tables
        v = get_variant(state.variant)
        done = set(make_plan(tables(v), state, seat).done)
        return [(t, ticket_words(v.map, [t]), v.map.ticket(t).points, t in done) for t in state.players[seat].tickets]
    from ..cardgame.data import load_cards
    data = load_cards()
    return [(t, ticket_words(data, [t]), data.ticket(t).points, False) for t in state.players[seat].tickets]


def ticket_odds(state, seat: int, *, playouts: int = 100, seed=0) -> list[TicketOdds]:
    """Per ticket ``seat`` holds, the chance it is joined at the game's end (see the module); deterministic for a
    ``seed``. ``state``: a state or a ``Game``."""
    from .advice import _check_budget, _game_state
    from .search import playout, sample_state
    from .policy import policy_for
    from .infer import ticket_weights
    state = _game_state(state)
    _check_budget(None, playouts)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_players:
        raise TTRError(f"there is no seat {seat!r} in a {state.n_players}-player game")
    facts = _ticket_facts(state, seat)
    if not facts:
        return []
    tickets = tuple(f[0] for f in facts)
    weights = ticket_weights(state, seat)
    counts = [0] * len(tickets)
    n = 0
    if state.phase == "over":
        return [TicketOdds(t, w, p, 1.0 if j else 0.0, j, 0) for t, w, p, j in facts]
    for i in range(playouts):
        det = sample_state(state, seat, f"odds/{seed}", i, weights)
        r = playout(det, seat, policy_for(det, i, prudent=seat), tickets, 0)
        n += 1
        for k, ok in enumerate(r.joined):
            counts[k] += ok
    return [TicketOdds(t, w, p, counts[k] / n, j, n) for k, (t, w, p, j) in enumerate(facts)]


def odds_from(state, seat: int, result) -> list[TicketOdds]:
    """Ticket odds from a finished search (the chosen move's playouts: the same sampling as the advice)."""
    facts = _ticket_facts(state, seat)
    st = result.stats[result.chosen]
    n = st.n
    out = []
    for k, (t, w, p, j) in enumerate(facts):
        hits = sum(1 for r in st.results.values() if k < len(r.joined) and r.joined[k])
        out.append(TicketOdds(t, w, p, hits / n if n else 0.0, j, n))
    return out


__all__ = ["TicketOdds", "ticket_odds", "odds_from"]
