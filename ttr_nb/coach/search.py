"""Determinized Monte Carlo search on shared samples (the coach's engine).

For one decision of one seat:

1. **Candidates**: the legal actions, one per distinct choice that matters (a route once, with the payment the
   policy would use; a face-up colour once), at most ``max_candidates``, the policy's own move always among them
   (:func:`candidates`).
2. **Samples**: sample ``i`` is a determinization of the position from the seat's view (``ttr_nb.board.engine.determinize``
   with a seed made of the coach's seed and ``i``), the other seats' tickets weighted by what their claims suggest
   (``ttr_nb.coach.infer``). Every candidate is played on the *same* samples, and each playout continues with the
   same policy for every seat, so the differences between candidates are measured on common ground.
3. **Results**: each playout ends with the real score sheet: win (1, shared on a tie), the seat's points, its margin
   over the best other seat, which of its tickets were joined, and who claimed what in the next turns (for ``why``).
4. **Budget**: ``playouts`` (deterministic for a seed) or ``seconds`` of CPU time. Candidates clearly worse than
   the leader (by ``drop_z`` standard errors of the paired difference, after ``min_samples``) stop getting
   playouts; with one candidate left the search stops early.
5. **Choice, conservative**: the policy's own move unless another candidate beats it by ``pick_z`` standard errors
   of the paired difference on at least ``min_pick`` shared samples (issue 19's trial: taking the best average of a
   few samples picks lucky junk; with several candidates and few samples, 2 standard errors still let about one
   decision in ten switch by chance). The utility compared is ``win + margin / margin_scale``: the win decides, the margin breaks the ties
   that a few samples leave.

The search reads the position only through ``determinize`` (a function of the seat's view) and the legal actions
of the seat; so its advice is a function of the seat's view, the public board and the seed.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from ..board.actions import Claim, DrawDeck, DrawFaceUp, DrawTickets
from ..board.cards import LOCO
from ..board.engine import apply, check, determinize, legal_actions, to_move
from ..errors import TTRError
from ..board.state import GameState
from ..variants import rules_of
from .policy import policy_for

MAX_PLIES = 3000                     # a safety net: real games end long before


@dataclass
class Settings:
    """The search's knobs (the defaults are the ones the benchmark measured)."""

    max_candidates: int = 12
    pick_z: float = 2.5              # another move replaces the policy's only when this many standard errors better
    min_pick: int = 12               # ... and only after this many shared samples (few samples: the t-distribution)
    drop_z: float = 2.5              # a candidate this many standard errors behind the leader gets no more playouts
    min_samples: int = 8             # before anything is dropped
    margin_scale: float = 40.0       # utility = win + margin / margin_scale
    infer: bool = True               # weight the other seats' tickets by their claims
    horizon: int = 4                 # plies after the move whose claims are remembered for the reasons
    min_candidates: int = 3          # compared however small the budget
    spread: float = 1.5              # candidates ~ budget / (min_samples * spread): enough samples each
    pre_samples: int = 4             # samples that first estimate what the other seats need (for the candidates)
    early_stop: bool = False         # stop once one candidate is left (the bot); else the budget refines its numbers


@dataclass
class Result:
    """One playout's end, from the seat's side."""

    win: float
    points: int
    margin: int
    joined: tuple[bool, ...]                  # per ticket of the seat at the start (in its order): joined at the end
    failed: bool                              # some ticket of the seat (new ones included) was not joined
    early_claims: tuple[tuple[int, str], ...]  # (seat, route id) claimed by others within ``horizon`` plies


@dataclass
class Stats:
    """What the playouts of one candidate found."""

    action: object
    results: dict = field(default_factory=dict)     # sample index -> Result

    @property
    def n(self) -> int:
        return len(self.results)

    def mean(self, attr: str) -> float:
        vals = [getattr(r, attr) for r in self.results.values()]
        return sum(vals) / len(vals) if vals else 0.0


def utility(r: Result, s: Settings) -> float:
    return r.win + r.margin / s.margin_scale


def paired(a: Stats, b: Stats, s: Settings) -> tuple[float, float, int]:
    """Mean and standard error of utility(a) - utility(b) on the samples both were played on."""
    common = [i for i in a.results if i in b.results]
    k = len(common)
    if k == 0:
        return 0.0, math.inf, 0
    d = [utility(a.results[i], s) - utility(b.results[i], s) for i in common]
    mean = sum(d) / k
    if k < 2:
        return mean, math.inf, k
    var = sum((x - mean) ** 2 for x in d) / (k - 1)
    return mean, math.sqrt(var / k) if var > 0 else 1e-9, k


# ---------------------------------------------------------------------------------------------
# one playout

def final_result(state, seat: int, tickets: tuple[str, ...]) -> tuple[float, int, int, tuple[bool, ...], bool]:
    sheet = rules_of(state).score(state)
    totals = [p.total for p in sheet.players]
    mine = totals[seat]
    best_other = max(t for i, t in enumerate(totals) if i != seat)
    win = 1.0 / len(sheet.winners) if seat in sheet.winners else 0.0
    joined = _joined(sheet.players[seat], tickets)
    failed = any(not getattr(tr, "completed", True) for tr in sheet.players[seat].tickets)
    return win, mine, mine - best_other, joined, failed


def _joined(player, tickets) -> tuple[bool, ...]:
    done = {}
    for tr in getattr(player, "tickets", ()):
        done[getattr(tr, "id", None)] = bool(getattr(tr, "completed", False))
    return tuple(done.get(t, False) for t in tickets)


def _trusting_apply():
    """The engine's ``apply`` for actions the engine or a ttr_nb bot made (``trusted=True`` skips the legality check
    where the engine offers it); plain ``apply`` otherwise."""
    import inspect
    try:
        if "trusted" in inspect.signature(apply).parameters:
            return lambda state, action: apply(state, action, trusted=True)
    except (TypeError, ValueError):
        pass
    return apply


play_move = _trusting_apply()


def playout(state, seat: int, policy, tickets: tuple[str, ...], horizon: int) -> Result:
    """Play ``state`` to the end with ``policy`` for every seat; the result from ``seat``'s side. The policy's
    moves go through the engine's trusted path where it has one (they are legal by construction: the tests replay
    playouts through the checked path)."""
    early: list[tuple[int, str]] = []
    plies = 0
    is_board = state.__class__ is GameState
    while state.phase != "over" and plies < MAX_PLIES:
        movers = to_move(state)
        who = movers[0]
        action = policy.choose(state, who)
        if is_board and plies < horizon and who != seat and type(action) is Claim:
            early.append((who, action.route))
        state = play_move(state, action)
        plies += 1
    win, points, margin, joined, failed = final_result(state, seat, tickets)
    return Result(win, points, margin, joined, failed, tuple(early))


# ---------------------------------------------------------------------------------------------
# candidates

def _key(action) -> tuple:
    """Actions that make the same choice for the search: a route (whatever the payment), a face-up card kind."""
    if type(action) is Claim:
        return ("claim", action.route)
    return (type(action).__name__, action.body())


def candidates(state, seat: int, default, limit: int, *, plan=None, needs: dict | None = None) -> list:
    """The legal actions worth comparing, at most ``limit``, the policy's ``default`` first.

    One action per choice that matters: a route once (the payment the policy would use, else the first listed: by
    colour, fewest locomotives), a face-up card kind once. Then, in this order: claims of routes on the seat's own
    ``plan``, longest first; claims that block a route other seats seem to need (``needs``: share of samples);
    the blind draw; face-up cards the plan needs, a face-up locomotive, the other face-up kinds; new tickets; the
    variant's own actions; the other claims, longest first. Pending choices (tickets to keep, a draft pick) keep
    the order of the legal actions."""
    acts = legal_actions(state, seat)
    if not acts:
        return []
    out = [default]
    seen = {_key(default)}
    market = getattr(state, "market", ())
    faceup_seen = set()
    if type(default) is DrawFaceUp:
        faceup_seen.add(market[default.slot - 1])
    rest = []
    for a in acts:
        k = _key(a)
        if k in seen:
            continue
        if type(a) is DrawFaceUp:
            card = market[a.slot - 1]
            if card in faceup_seen:
                continue
            faceup_seen.add(card)
        seen.add(k)
        rest.append(a)
    if state.__class__ is GameState and not (state.pending and state.pending_for(seat).kind != "second_card"):
        rest.sort(key=lambda a: _prior(state, seat, a, plan, needs or {}))
    return out + rest[:max(0, limit - 1)]


def _prior(state, seat: int, a, plan, needs: dict) -> tuple:
    from ..variants import get_variant
    from .policy import tables
    t = tables(get_variant(state.variant))
    if type(a) is Claim:
        i = t.labels.index(a.route) if a.route in t.labels else -1
        if plan is not None and i in plan.reasons:
            return (0, -t.length[i], a.route)
        block = max((share.get(i, 0.0) for share in needs.values()), default=0.0)
        if block >= 0.5:
            return (1, -block * t.length[i], a.route)
        return (6, -t.length[i], a.route)
    if type(a) is DrawDeck:
        return (2, 0, "")
    if type(a) is DrawFaceUp:
        card = state.market[a.slot - 1]
        wanted = plan is not None and any(t.colour[j] == card for j in plan.routes)
        return (3, 0 if wanted else 1 if card == LOCO else 2, str(a.slot))
    if type(a) is DrawTickets:
        return (4, 0, "")
    return (5, 0, str(a))


# ---------------------------------------------------------------------------------------------
# the search

@dataclass
class SearchResult:
    stats: list                      # Stats per candidate, the policy's default first
    chosen: int                      # index into stats
    samples: int
    playouts: int
    cpu: float
    weights: dict                    # the ticket weights used for the other seats
    tickets: tuple[str, ...]         # the seat's tickets when the search began
    needs: dict                      # other seat -> {route index: share of samples with it on that seat's plan}


def sample_state(state, seat: int, seed, i: int, weights):
    return determinize(state, seat, random.Random(f"coach/{seed}/{i}"), ticket_weights=weights or None)


_RATE: dict[str, float] = {}       # CPU seconds per playout, per game (a running average): sizes the candidate list


def search(state, seat: int, *, playouts: int | None = None, seconds: float | None = None, seed=0,
           settings: Settings | None = None, actions=None, include=(), progress=None) -> SearchResult:
    """Compare the seat's candidate moves by playouts on shared samples (see the module).

    ``playouts``: the total number of playouts (the result is then a function of the seat's view and ``seed``);
    ``seconds``: a CPU-time budget instead (``time.process_time``); neither: 200 playouts. ``actions``: compare
    these instead of the chosen candidates (the policy's move is added); ``include``: actions compared in any case
    (a review adds the move that was played); ``progress``: called with the share of the budget used (0–1) after
    each sample, for a view that shows the coach thinking."""
    s = settings or Settings()
    if seat not in to_move(state):
        raise TTRError(f"it is not {_seat_words(seat)}'s move: the coach advises a seat that is to act")
    if playouts is None and seconds is None:
        playouts = 200
    start = time.process_time()
    weights = {}
    if s.infer:
        from .infer import ticket_weights
        weights = ticket_weights(state, seat)
    base = sample_state(state, seat, seed, -1, weights)
    default = check(base, policy_for(base, 0, prudent=seat).choose(base, seat))[0]
    own_plan = None
    if base.__class__ is GameState and base.phase != "setup":
        from ..variants import get_variant
        from .policy import make_plan, tables
        own_plan = make_plan(tables(get_variant(base.variant)), base, seat)
    needs: dict = {}
    dets: dict[int, object] = {}
    for i in range(s.pre_samples):
        dets[i] = sample_state(state, seat, seed, i, weights)
        _count_needs(dets[i], seat, needs)
    shares = {o: {r: c / s.pre_samples for r, c in counts.items()} for o, counts in needs.items()}
    key = getattr(state, "variant", "")
    if actions is not None:
        acts = list(actions)
        if not any(_key(a) == _key(default) for a in acts):
            acts = [default] + acts
    else:
        budget = playouts if playouts is not None else seconds / _RATE.get(key, 0.005)
        limit = max(s.min_candidates, min(s.max_candidates, int(budget / (s.min_samples * s.spread))))
        pending = state.pending_for(seat) if state.pending else None
        if pending is not None and pending.kind not in ("second_card", "to_track"):
            limit = s.max_candidates          # a ticket choice, a draft pick: few options, each matters
        acts = candidates(state, seat, default, limit, plan=own_plan, needs=shares)
    for a in include:
        a = check(base, a)[0]
        if not any(_key(a) == _key(b) for b in acts):
            acts.append(a)
    stats = [Stats(a) for a in acts]
    tickets = _own_tickets(state, seat)
    alive = list(range(len(stats)))
    done = 0
    i = 0
    t_play = 0.0
    plans: dict = {}                 # the playouts' plans on one sample, shared (see BoardPolicy._fresh_plan)

    def out_of_budget(extra: int) -> bool:
        if i < 1:
            return False
        if playouts is not None and done + extra > playouts:
            return True
        return seconds is not None and time.process_time() - start >= seconds

    while len(alive) > 1 or i < 1 or not s.early_stop:     # one move left: the budget refines its numbers
        if out_of_budget(len(alive)):
            break
        if i in dets:
            det = dets.pop(i)
        else:
            det = sample_state(state, seat, seed, i, weights)
            _count_needs(det, seat, needs)
        plans.clear()                # other samples deal the other seats other tickets: kept, the plans only grow
        for k in alive:
            if playouts is None and out_of_budget(0):
                break
            try:
                after = apply(det, stats[k].action)
            except TTRError:
                continue
            t0 = time.process_time()
            stats[k].results[i] = playout(after, seat, policy_for(after, i, prudent=seat, shared=plans),
                                          tickets, s.horizon)
            t_play += time.process_time() - t0
            done += 1
        i += 1
        if i >= s.min_samples and len(alive) > 1:
            alive = _survivors(stats, alive, s)
        if progress is not None:
            used = done / playouts if playouts is not None else (time.process_time() - start) / seconds
            progress(min(1.0, used))
    if done:
        _RATE[key] = 0.8 * _RATE.get(key, t_play / done) + 0.2 * (t_play / done)
    if progress is not None:
        progress(1.0)
    chosen = _choose(stats, s)
    seen = max(i, s.pre_samples)
    shares = {o: {r: c / seen for r, c in counts.items()} for o, counts in needs.items()}
    return SearchResult(stats, chosen, i, done, time.process_time() - start, weights, tickets, shares)


def _seat_words(seat: int) -> str:
    from ..board.engine import seat_name
    return seat_name(seat)


def _count_needs(det, seat: int, needs: dict) -> None:
    """Count, per other seat, the routes on its plan for the tickets this sample dealt it (board games)."""
    if det.__class__ is not GameState or det.phase == "setup":
        return
    from ..variants import get_variant
    from .policy import make_plan, tables
    t = tables(get_variant(det.variant))
    for o in range(det.n_players):
        if o == seat or not det.players[o].tickets:
            continue
        counts = needs.setdefault(o, {})
        for r in make_plan(t, det, o).routes:
            counts[r] = counts.get(r, 0) + 1


def _own_tickets(state, seat: int) -> tuple[str, ...]:
    return tuple(state.players[seat].tickets)


def _leader(stats: list, alive: list, s: Settings) -> int:
    return max(alive, key=lambda k: (sum(utility(r, s) for r in stats[k].results.values()) / max(1, stats[k].n), -k))


def _survivors(stats: list, alive: list, s: Settings) -> list:
    lead = _leader(stats, alive, s)
    keep = []
    for k in alive:
        if k == lead or k == 0:
            keep.append(k)
            continue
        mean, se, n = paired(stats[k], stats[lead], s)
        if n >= s.min_samples and mean + s.drop_z * se < 0:
            continue
        keep.append(k)
    return keep


def _choose(stats: list, s: Settings) -> int:
    """The policy's move (index 0) unless another is better by ``pick_z`` standard errors on the shared samples."""
    best, best_gain = 0, 0.0
    for k in range(1, len(stats)):
        mean, se, n = paired(stats[k], stats[0], s)
        if n >= s.min_pick and mean - s.pick_z * se > 0 and mean > best_gain:
            best, best_gain = k, mean
    return best


__all__ = ["Settings", "Result", "Stats", "SearchResult", "search", "candidates", "playout", "utility", "paired"]
