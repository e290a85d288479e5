"""Card Game bots with the board bots' interface: ``choose(state, seat) -> (action, reason)``, seeded, stateless.

``ttr_nb.bots.RandomBot``/``GreedyBot`` hand Card Game states to these (``make_bot("greedy")`` works for every
game). The greedy bot plays the game's economy: cards reach the on-the-track pile only through the rail yard, one
per colour per turn, so it keeps many colours in its yard, collects the colours its tickets still need, robs when
that also takes a stack from an opponent, avoids stacks an opponent can easily beat, and completes the best
ticket set (exact) at the end of a round.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ..board.actions import Action, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets
from ..bots import Reason
from ..board.cards import COLOURS, LOCO
from ..errors import TTRError
from ..rng import Counter, fold
from .actions import CompleteTicket, MoveToTrack, PlayYard
from .data import load_cards
from .engine import (YardPlan, best_completion, draw_actions, draw_at, draw_count, keep_at, keep_count, legal_actions,
                     opponents_stack, track_visible, yard_plays)
from .state import N_COLOURS, CardState


_AT_RANDOM = Reason("picks at random among the legal choices")
_KIND_REASONS = {kind: Reason(f"picks a {kind} action at random") for kind in ("draw", "yard", "tickets")}
_NOTHING_ELSE = Reason("nothing else is possible")
_BASES: dict[tuple[int, int, int], int] = {}      # (bot seed, seat, game seed) -> Counter.base (see RandomBot)


class RandomBot:
    """Uniform over the kinds of action available (draw / rail yard / tickets), then uniform within the kind.

    It counts the choices of a kind and makes only the one it picks (``draw_at``, ``YardPlan.at``, ``keep_at``):
    the same pick as from the full lists of ``legal_actions`` (tests/test_cardgame_fastpaths.py)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, state: CardState, seat: int) -> tuple[Action, str]:
        key = (self.seed, seat, state.seed)
        base = _BASES.get(key)
        if base is None:
            if len(_BASES) > 4096:
                _BASES.clear()
            base = _BASES[key] = Counter.base(fold(self.seed, seat), state.seed)
        r = Counter.at(base, state.ply)               # = Counter(self.seed, seat, state.ply, state.seed)
        if state.pending:
            p = state.pending_for(seat)
            kind = p.kind if p is not None else None
            if kind == "to_track":
                return MoveToTrack(seat=seat), _AT_RANDOM
            if kind == "second_card":
                return draw_at(state, seat, True, r.index(draw_count(state, True))), _AT_RANDOM
            if kind == "choose_tickets":
                offered = len(p.get("offered"))
                n = keep_count(offered, min(p.get("min_keep"), offered))
                return keep_at(state, p, r.index(n)), _AT_RANDOM
            acts = legal_actions(state, seat)
            return acts[r.index(len(acts))], _AT_RANDOM
        kinds = ["draw", "yard", "tickets"]
        while kinds:
            kind = kinds.pop(r.index(len(kinds)))
            if kind == "draw":
                n = draw_count(state, False)
                if n:
                    return draw_at(state, seat, False, r.index(n)), _KIND_REASONS[kind]
            elif kind == "yard":
                plan = YardPlan(state, seat)
                if plan.count:
                    return plan.at(r.index(plan.count)), _KIND_REASONS[kind]
            elif state.ticket_deck:
                return DrawTickets(seat=seat), _KIND_REASONS[kind]
        return legal_actions(state, seat)[0], _NOTHING_ELSE


@lru_cache(maxsize=1024)
def _needs(tickets: tuple[str, ...]) -> tuple[int, ...]:
    """Per colour: the cards ``tickets`` need in all (a hand's tickets change seldom: kept for the last 1024)."""
    pairs = load_cards().need_pairs             # each ticket's (colour, count) pairs, the colours it needs only
    need = [0] * N_COLOURS
    for t in tickets:
        for c, n in pairs[t]:
            if c < N_COLOURS:
                need[c] += n
    return tuple(need)


def still_needed(state: CardState, seat: int) -> list[int]:
    """Per colour: cards the open tickets need beyond what the rail yard (public) and, where ``seat`` may see it,
    the on-the-track pile already hold. By the book's rule the pile is secret from its owner too until the round
    ends (CG-AREA-1): a bot then does not count it, as ``observe`` does not show it."""
    p = state.players[seat]
    need = _needs(p.tickets)
    if track_visible(state, seat, seat):
        track = p.track
    else:                       # only its size is known: guess it spread over the needs in proportion
        total, size = sum(need), sum(p.track)
        track = [min(need[c], size * need[c] // total) if total else 0 for c in range(N_COLOURS)]
    return [max(0, need[c] - track[c] - p.yard[c]) for c in range(N_COLOURS)]


class GreedyBot:
    """Collects the colours its tickets need, keeps its rail yard busy, robs when it pays, protects its yard."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, state: CardState, seat: int) -> tuple[Action, str]:
        data = load_cards()
        p = state.players[seat]
        pending = state.pending_for(seat) if state.pending else None
        if pending is not None:
            if pending.kind == "complete_tickets":
                best = best_completion(state, seat)        # exact; its first ticket, then the rest on later steps
                if not best:
                    return CompleteTicket(seat=seat), Reason("no further ticket adds points: done")
                pts = sum(data.ticket(t).points for t in best)
                return (CompleteTicket(ticket=data.ticket_text(best[0]), seat=seat),
                        Reason(f"part of the best set it can still pay for ({pts} point{'s' if pts != 1 else ''}, "
                               "found exactly)"))
            if pending.kind == "choose_tickets":
                return self._keep(state, seat, pending)
            if pending.kind == "second_card":
                return self._draw(state, seat, second=True)
            return legal_actions(state, seat)[0], Reason("step 1: moves a card of each colour onto the on-the-track pile")
        need = still_needed(state, seat)
        last_turn = state.phase == "last_round"
        plays = yard_plays(state, seat)
        if plays:                         # the best value, ties to the last play in words; none unless it pays
            values = [self._play_value(state, seat, a, need, last_turn) for a in plays]
            value = max(values)
            if value > 0:
                best = max((a for a, x in zip(plays, values) if x == value), key=str) if values.count(value) > 1 \
                    else plays[values.index(value)]
                return best, self._play_reason(state, seat, best, need)
        spare = sum(p.track) - sum(sum(data.ticket(t).needs) for t in p.tickets)      # the pile's size is public
        if (state.ticket_deck and not last_turn and len(state.deck) > 20 and sum(need) <= 1
                and spare + p.yard_size >= 3):
            return DrawTickets(seat=seat), Reason("its tickets are nearly covered: draws new ones", "draws tickets")
        return self._draw(state, seat, second=False)

    # -- rail yard -------------------------------------------------------------------------
    @staticmethod
    def _play_value(state: CardState, seat: int, play: PlayYard, need: list[int], last_turn: bool) -> float:
        counts = dict(play.payment)
        colours = [k for k in counts if k != LOCO]
        robbed = sum(opponents_stack(state, seat, c) for c in colours)
        if last_turn:                     # cards played now never reach the track: only a robbery helps
            return robbed - 0.5 * counts.get(LOCO, 0)
        size = sum(counts.values())
        useful = sum(min(counts[c], need[c]) for c in colours)
        hand = state.players[seat].hand
        value = 2.0 * useful + robbed + 0.3 * size + 0.5 * len(colours) - 0.8 * counts.get(LOCO, 0)
        if len(colours) == 1:
            c = colours[0]
            value -= 0.3 * (hand[c] - counts[c])          # keep no leftovers of a colour in hand
            if size <= 2 and state.players[seat].hand_size < 8:
                value -= 1.0                              # a stack of two is easy to rob: wait for more
        return value

    @staticmethod
    def _play_reason(state: CardState, seat: int, play: PlayYard, need: list[int]) -> Reason:
        counts = dict(play.payment)
        colours = [k for k in counts if k != LOCO]
        robbed = [COLOURS[c] for c in colours if opponents_stack(state, seat, c)]
        wanted = [COLOURS[c] for c in colours if need[c]]
        public = [f"robs the {', '.join(robbed)} stack of an opponent"] if robbed else []
        parts = public + ([f"its tickets need {', '.join(wanted)}"] if wanted else [])
        if not parts:
            parts.append("keeps cards moving towards the on-the-track pile")
        return Reason("plays into the rail yard: " + "; ".join(parts),
                      "plays into the rail yard" + (": " + public[0] if public else ""))

    # -- drawing ---------------------------------------------------------------------------
    def _draw(self, state: CardState, seat: int, second: bool) -> tuple[Action, str]:
        p = state.players[seat]
        need = still_needed(state, seat)
        best = None
        for i, c in enumerate(state.market):
            if c is None or c == LOCO:
                continue
            short = need[c] - p.hand[c]
            key = (short, 1 if p.yard[c] == 0 else 0, -i)
            if short > 0 and (best is None or key > best[0]):
                best = (key, i, c)
        if best is not None:
            _, i, c = best
            took = f"takes face-up {COLOURS[c]}"
            return DrawFaceUp(slot=i + 1, seat=seat), Reason(f"{took}: its tickets still need {need[c]}", took)
        if not second and LOCO in state.market and sum(need) >= 3:
            i = state.market.index(LOCO)
            return DrawFaceUp(slot=i + 1, seat=seat), Reason("takes the face-up locomotive: it can stand in for any "
                                                             "colour")
        if state.deck:
            return DrawDeck(seat=seat), Reason("draws blind: no face-up card helps its tickets", "draws blind")
        acts = draw_actions(state, seat, second)
        if acts:
            return acts[0], Reason("the deck is empty: takes a face-up card")
        return legal_actions(state, seat)[0], Reason("nothing useful is left")

    # -- tickets ---------------------------------------------------------------------------
    @staticmethod
    def _keep(state: CardState, seat: int, pending) -> tuple[Action, str]:
        data = load_cards()
        p = state.players[seat]
        offered = pending.get("offered")
        need = min(pending.get("min_keep"), len(offered))
        held = sum(data.ticket(t).size for t in p.tickets)
        budget = 9 if state.phase == "setup" else max(0, 6 - sum(still_needed(state, seat)))
        best = None
        for size in range(need, len(offered) + 1):
            for combo in combinations(offered, size):
                circles = sum(data.ticket(t).size for t in combo)
                points = sum(data.ticket(t).points for t in combo)
                over = max(0, held + circles - budget - held)
                key = (points - 4 * over - 0.5 * circles, -size, combo)
                if best is None or key > best[0]:
                    best = (key, combo)
        combo = best[1]
        names = tuple(data.ticket_text(t) for t in combo)
        n = f"keeps {len(combo)} ticket{'s' if len(combo) != 1 else ''}"
        return KeepTickets(tickets=names, seat=seat), Reason(f"{n}: the most points for the cards it can gather", n)


def bot(kind: str, seed: int = 0):
    """This game's bot of a kind ("random", "greedy"): ``ttr_nb.bots`` hands Card Game states to it (it finds this
    function through the registry, ``ttr_nb.variants.bots_of``; the engine does not know its bots)."""
    if kind not in _KINDS:
        raise TTRError(f"the Card Game has no {kind!r} bot; known: {', '.join(_KINDS)}")
    return _KINDS[kind](seed)


_KINDS = {"random": RandomBot, "greedy": GreedyBot}


__all__ = ["RandomBot", "GreedyBot", "still_needed", "bot"]
