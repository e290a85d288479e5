"""End-of-round ticket completion (CG-END-2), exactly and quickly.

Each card of the on-the-track pile serves one ticket; a colour card serves its own colour, a locomotive any colour.
So a set S of tickets can be completed exactly when the locomotives cover every colour's shortfall:

    sum over colours c of  max(0, need_c(S) - have_c)  <=  have_locomotive

(assign each colour's cards to the tickets needing that colour, up to what there is; each remaining circle takes a
locomotive — no assignment can do better, since a colour card can serve nothing but its colour). This is the
matching condition of the bipartite graph cards × circles, in closed form.

The best choice (most points, then most tickets; or most tickets, then most points) is found exactly by
``best_set``, never by a greedy pick. When the pile pays for every ticket, that is the answer; up to ``SMALL``
tickets a plain walk over them answers sooner than the bounds below can be set up. Otherwise its core,
``_Search.reach``, answers "can the tickets from here on add a value of at least N with these cards?" by a
depth-first search over the tickets largest first (most circles; those of a size in ticket order:
``_largest_first``) that remembers every (place, cards left) position it has judged — its bounds, worked out once,
and what the searches below it proved, which holds for every later question — and cuts a branch when an upper bound
falls short of N. It tries a ticket taken before left out unless the linear relaxation below leaves it out or takes
it only in part: the bound at the start is most often the best value's, and the sets near the relaxation's are the
likeliest to reach it (``_Search.reach``). Of two tickets needing the same cards the better is always taken first,
so leaving one out leaves out its worse twins too. The bounds (``_Bound``), all exact upper bounds:

* the best value of the remaining tickets whose circles fit in the cards left, colours ignored (a 0-1 knapsack
  table over the number of cards, made once per call);
* the linear-programming relaxation with the colours: its dual gives each colour a price (``_Relaxation``, a
  small simplex, once per call and value: the constraints are the same for every value, so each value's simplex
  starts from the basis the one before ended in); a ticket then costs the prices of its circles, the cards left are
  worth their prices (a locomotive the highest), and the fractional knapsack over those costs bounds every
  completion. A position's budget at every price of every bound is one sum of products (``_Search.pack``: the
  prices side by side in one whole number per card kind). The first part of the value (below) is priced as the
  value as a whole: its own relaxation is near it, and the search judged about 10% fewer positions so;
* both of these for the value as a whole and for each of its two parts apart (points, tickets), rounded down to
  whole numbers: a set has a whole number of tickets, so "18.7 tickets at most" means 18. This is what makes the
  search short: at the start the parts' bounds are within a ticket and a point or two of the answer on random
  hands, where the value as a whole was off by four tickets;
* for "most tickets", a set of k tickets has at most B - 4k points, B a bound of its points plus 4 per ticket (a
  Lagrangian bound: the points of the sets with the most tickets, not of any set);
* in a hard search (``HARD`` positions expanded), at the positions of the first ``DEPTH`` places that these bounds
  do not cut: the fractional knapsack at the prices of the position's own relaxation (its cards, its tickets),
  found by a dual simplex from the basis of the last solve at a place up to its own, most often its parent's
  (``_Search.tighten``). On the 32 saved slow
  hands the search judged about half as many positions so, and the slowest took half the time.

The best value is asked for from the bound at the start down: each question finds a set or proves a lower bound
(by points: first the points, then the number of tickets by halving, see ``_Search.best``). Every question costs
less the better the set found before it: the search starts from the best of a few greedy sets (best value per card,
per card at the colour prices, the relaxation's own tickets, fewest cards first), improved by a local search
(``_Search.improve``: add a ticket, swap one for a better one or for two) that often finds the best set itself, so
the questions only have to prove it.
(Asking "anything better than this first set?" before coming down from the bound was tried: slower, since the memo
of the looser questions from above is what makes that proof short.) Ties go to the set holding the earliest ticket
in ticket order. The search does not run in ticket order, so ticket order is folded into a second key: a set's key
has the bit 2**(n-1-t) for each ticket t it holds, so the set holding the earliest ticket where two differ has the
larger key (whole numbers, kept apart from the value: nothing rounds or spills over). ``_Search.earliest`` finds the
largest key among the sets of the best value by a memoised walk in the search's own order over (place, cards left,
value still needed), every branch that cannot make up the value still needed cut by ``reach`` (whose memo the
questions about the best value have filled) and every branch that, all its tickets taken, could not beat the
largest key found so far; twins stand side by side in the search's order, the better first and equal ones in ticket
order, so the twin that leaving one out skips never holds a larger key.

``best_set`` keeps its last answers (``KNOWN``; ``clear_cache`` forgets them), since a game asks again and again
about the same hand (the status line, the player's view, the bot), and with each answer what follows from it: after
completing a ticket k of the best set B (paid own colours first, as the engine pays), the best is B without k, ties
included (``_remember_the_rest``), so a player or bot completing the best set ticket by ticket searches once.

How long a search takes depends on the hand: real end-of-round hands answer in about 1 ms (median), the 31-ticket
position of the issue in about 2.5 ms; random hands of 28-46 tickets and 10-60 cards in about 3.5 ms (median; half
of it the setup: the simplexes and the tables), 99% within about 9 ms, the slowest of 8,000 about 20 ms (CPU on
the machine of 2026-12-07 at load 4; an earlier one took two to three times as long; with ``tighten``, the slowest
of 4,000 at load 1.6 28 ms against 24, a search of 3,500 positions whose 39 solves cut only a tenth of them). Hands sought to be slow (a
hill climb, ``tests/positions/cardgame_slow_hands_largest_first.json``) take up to about 40 ms (86 before the
relaxation was solved again near the start, at load 2.4): exact answers there need up to about five thousand
positions, a third to a half of them in the ties' walk, most of them proofs that a value cannot be made up
(``benchmarks/bench_cardgame.py --large N`` prints the median, the 99th percentile and the slowest of random hands,
and the times of the saved slow hands).
Tried and dropped (the earlier rounds' in benchmarks/README.md): the search in ticket order with the ties' walk in
ticket order (what every search paid for before the second key); sharpened bounds on hard hands (0-1 knapsacks over
the cards at whole-number prices, more Lagrangian weights; they paid in ticket order, in this order they cost more
than they prune); the ties' walk asking ``reach`` for the most (not the first set found): 0.8% more instructions;
two searches in two orders taking turns with doubling budgets (largest first and best value per card are slow on
different hands, but the second setup and the repeated work ate the gain); other orders (fewest circles first; best
value per card; by the prices of the relaxation); the tickets needing two of a colour first in their size (10% more
positions than ticket order there, once the search tried the relaxation's choices first); 0-1 knapsacks over the
circles of each colour and of each pair of colours against those cards and the locomotives (1-5% fewer positions on
the slowest hands, 1.4-2.7 times the time); for "most points" a mixed bound like ``MIX`` (points plus 2-16 per
ticket: 5-10% fewer positions, 1% more instructions); the linear relaxation solved anew at the positions of the
first 4-10 places from scratch (17-56% fewer positions on the slowest hands, but each solve costs a millisecond or
two: 1.4-2.6 times the time; the dual simplex from a basis found before that ``tighten`` uses pays, and only in hard
searches: at every search's first 10 places the median of random hands rose by a quarter); the ties decided ticket
by ticket in ticket order (a ticket in if a set of the best value still holds it with the tickets decided before:
the same positions judged as the ties' walk, whose cost is the proofs that the value still needed cannot be made up,
and 40% more time; with a second search in ticket order for those questions, twice the walk's time); in the ties'
walk, the tickets a set must hold to beat the largest key found (the earliest left in ticket order, while the later
ones all taken would not beat it) paid for and bounded with the rest before asking ``reach`` (2.3% fewer positions
on the 32 saved slow hands, up to 37% fewer in the walk on some, none on the second slowest: the same total CPU
time; with ``reach`` asked instead of the bound, 50% more), and the walk leaving a ticket out before taking it
(where the relaxation does, or where a later ticket is earlier in ticket order: the same positions, the cost being
proofs, not the floor).
``tests/test_rules_cardgame.py`` checks it against a brute force and against a plain dynamic programme.

The engine lets a player complete one ticket per action (``complete Chicago–Miami``, until no more can be paid):
paying each ticket from what the earlier ones left, own colours first, is feasible exactly when the whole set is (the
shortfalls add up colour by colour), so the step-by-step check is the set check.
"""
from __future__ import annotations

import gc
from bisect import bisect_right
from collections import OrderedDict
from itertools import accumulate
from operator import mul
from typing import Sequence

from ..board.cards import LOCO

Needs = Sequence[int]          # per card kind (colours only)
DEPTH = 10                     # the relaxation solved again at the positions of the first places (_Search.tighten) ...
HARD = 1000                    # ... once the search has expanded this many positions (easy hands never pay for it)
SMALL = 12                     # up to this many tickets best_set walks them without bounds
MIX = 4                        # points per ticket in the "most tickets" search's mixed bound (see _Search)
TRIES = 4                      # most tickets: after this many failed questions the count itself is asked (_Search.best)
IMPROVE = 4                    # rounds of the local search for a first set (_Search.improve)


# best_set's answers, most recently asked for last (a game asks again and again about the same hand: the status line,
# the player's view, the bot), with what follows from them (_remember_the_rest)
_KNOWN: OrderedDict = OrderedDict()
KNOWN = 512


def shortfall(need: Sequence[int], have: Sequence[int]) -> int:
    """Locomotives needed to cover ``need`` (per colour) from ``have`` (per card kind)."""
    return sum(n - have[c] for c, n in enumerate(need[:LOCO]) if n > have[c])


def feasible(needs: Sequence[Needs], have: Sequence[int]) -> bool:
    total = [0] * LOCO
    for need in needs:
        for c in range(LOCO):
            total[c] += need[c]
    return shortfall(total, have) <= have[LOCO]


def cards_used(needs: Sequence[Needs], have: Sequence[int]) -> tuple[int, ...]:
    """The cards a feasible set uses: each colour's own cards first, locomotives for the rest (a tuple per kind)."""
    total = [0] * LOCO
    for need in needs:
        for c in range(LOCO):
            total[c] += need[c]
    used = [min(total[c], have[c]) for c in range(LOCO)]
    return tuple(used) + (sum(total) - sum(used),)


def best_set(needs: Sequence[Needs], points: Sequence[int], have: Sequence[int], *,
             by: str = "points") -> tuple[int, ...]:
    """The feasible set of ticket indices that is best ``by`` "points" (then more tickets) or "tickets" (then more
    points); remaining ties go to the set first in ticket order (the one holding the earliest ticket where two
    differ). Exact (see the module docstring)."""
    if by not in ("points", "tickets"):
        raise ValueError(f"by must be 'points' or 'tickets', got {by!r}")
    n = len(needs)
    if not n:
        return ()
    key = (tuple(map(tuple, needs)), tuple(points), tuple(have), by)
    known = _KNOWN.get(key)
    if known is None:
        known = _KNOWN[key] = [_best_set(needs, points, have, by), False]
        while len(_KNOWN) > KNOWN:
            _KNOWN.popitem(last=False)
    else:
        _KNOWN.move_to_end(key)
    if not known[1]:                                # what is best after completing one ticket of it: the rest of it
        known[1] = True
        _remember_the_rest(key, known[0])
    return known[0]


def clear_cache() -> None:
    """Forget the answers ``best_set`` keeps (a benchmark timing the search itself clears them first)."""
    _KNOWN.clear()


def _remember_the_rest(key: tuple, chosen: tuple[int, ...]) -> None:
    """Once the best set B of some tickets and cards is known, so is the best after completing any ticket k of B
    (paid own colours first, as the engine does): B without k. It is paid for by what k left (the shortfalls add
    up colour by colour); a better set S from there would make S + k better than B with the cards before, and a
    set as good but first in ticket order would make S + k first (S + k and B differ where S and B - k do). So
    completing the best set one ticket at a time, as a player and the greedy bot do, searches once."""
    needs, points, have, by = key
    for k in chosen:
        used = cards_used([needs[k]], have)
        rest = (needs[:k] + needs[k + 1:], points[:k] + points[k + 1:], tuple(a - b for a, b in zip(have, used)), by)
        if rest not in _KNOWN:
            _KNOWN[rest] = [tuple(i - (i > k) for i in chosen if i != k), False]
    while len(_KNOWN) > KNOWN:
        _KNOWN.popitem(last=False)


def _best_set(needs: Sequence[Needs], points: Sequence[int], have: Sequence[int], by: str) -> tuple[int, ...]:
    """``best_set`` without its memory of answers."""
    n = len(needs)
    if by == "points":
        primary, secondary, scale = list(points), [1] * n, 64            # (points, count): a count is below 64
    else:
        primary, secondary, scale = [1] * n, list(points), 1024          # (count, points): points sum below 1024
    value = [a * scale + b for a, b in zip(primary, secondary)]
    if feasible(needs, have):                       # every ticket can be paid: all of them is best either way
        return tuple(range(n))
    if n <= SMALL:                                  # a few tickets: a plain walk is quicker than the bounds' setup
        return _first_set_plain(needs, value, have)
    order = _largest_first(needs, value)
    # the search makes many small tuples and lists that it frees itself (no cycles): the cyclic garbage collector
    # would traverse them again and again (about a tenth of a search's time), so it waits until the search is done
    collecting = gc.isenabled()
    gc.disable()
    try:
        search = _Search([needs[i] for i in order], [value[i] for i in order], scale, have)
        return search.earliest(search.best(), order)
    finally:
        if collecting:
            gc.enable()


def _largest_first(needs: Sequence[Needs], value: Sequence[int]) -> list[int]:
    """The order the bounded search takes the tickets in: most circles first, those of a size in ticket order, twins
    needing the same cards side by side at the place of the first of them, the better first and, as good, in ticket
    order (see ``_Search.past``). Ticket order within a size is the tie order, which the ties' walk
    (``_Search.earliest``) follows so; with the tickets needing two of a colour first in their size, as before, the
    search and the walk judged 10% more positions on the slowest hands of a sweep."""
    first: dict = {}                                # the cards a ticket needs -> the first ticket needing them
    for i, t in enumerate(needs):
        first.setdefault(tuple(t[:LOCO]), i)
    return sorted(range(len(needs)), key=lambda i: (-sum(needs[i][:LOCO]), first[tuple(needs[i][:LOCO])], -value[i], i))


def _first_set_plain(needs: Sequence[Needs], value: Sequence[int], have: Sequence[int]) -> tuple[int, ...]:
    """``best_set`` for a few tickets: a memoised walk over the tickets in ticket order without bounds (the best
    value from each position and cards left), then each ticket put in when taking it still reaches the best."""
    n = len(needs)
    needs = [tuple(t[:LOCO]) for t in needs]
    rest = [(0,) * LOCO] * (n + 1)
    for i in range(n - 1, -1, -1):
        rest[i] = tuple(a + b for a, b in zip(rest[i + 1], needs[i]))
    memo: dict = {}

    def take(r, l, t):
        short = sum(x - a for x, a in zip(t, r) if x > a)
        return (tuple(a - x if a > x else 0 for x, a in zip(t, r)), l - short) if short <= l else None

    def walk(i, r, l):
        if i == n:
            return 0
        r = tuple(map(min, r, rest[i]))
        l = min(l, sum(rest[i]) - sum(r))
        key = (i, r, l)
        found = memo.get(key)
        if found is None:
            after = take(r, l, needs[i])
            found = walk(i + 1, r, l)
            if after is not None:
                found = max(found, value[i] + walk(i + 1, *after))
            memo[key] = found
        return found

    r, l, chosen = tuple(have[:LOCO]), have[LOCO], []
    for i in range(n):
        after = take(r, l, needs[i])
        if after is not None and value[i] + walk(i + 1, *after) == walk(i, r, l):
            chosen.append(i)
            r, l = after
    return tuple(chosen)


class _Search:
    """One exact search (see ``best_set``) over the tickets in the order given (``_largest_first``; any order that
    keeps twins side by side, the better first and equal ones in ticket order, gives the same answers)."""

    def __init__(self, needs: Sequence[Needs], value: Sequence[int], scale: int, have: Sequence[int]):
        self.n = n = len(needs)
        self.needs = [tuple(t[:LOCO]) for t in needs]
        self.value = list(value)
        # past[i]: the first place after the run of tickets from i on that need the same cards, each worth no more
        # than the one before: leaving one out leaves out the rest of its run, since the swap changes no card.
        past = list(range(1, n + 1))
        for i in range(n - 2, -1, -1):
            if self.needs[i] == self.needs[i + 1] and self.value[i] >= self.value[i + 1]:
                past[i] = past[i + 1]
        self.past = past
        size = [max(1, sum(t)) for t in self.needs]
        self.greedy = sorted(range(n), key=lambda i: (-self.value[i] / size[i], i))     # a first set, best per card
        self.have = tuple(have[:LOCO])
        self.locos = have[LOCO]
        self.memo: dict = {}
        self.visits = 0
        self.start: list = []                       # the first set (``best``)
        rest = [(0,) * LOCO] * (n + 1)               # circles of tickets i.. per colour
        for i in range(n - 1, -1, -1):
            rest[i] = tuple(a + b for a, b in zip(rest[i + 1], self.needs[i]))
        self.rest = rest
        self.rest_sum = [sum(x) for x in rest]
        cards = sum(have[:LOCO]) + have[LOCO]
        self.scale = scale
        first = [x // scale for x in self.value]
        second = [x % scale for x in self.value]
        # "most tickets": the points of a set of at least k tickets are at most B - MIX * k, B a bound of the
        # points plus MIX per ticket (a Lagrangian weight: 4 points a ticket prunes best on random hands)
        mix = [MIX * x + y for x, y in zip(first, second)] if scale == 1024 else None
        # each bounded value with its colour prices from the linear relaxation (one relaxation, warm-started from
        # value to value); the first part at the whole value's prices: its own relaxation is near them (the whole
        # value is the first part scaled, plus the second), and with them the search judged about 10% fewer positions
        lp = _Relaxation(self.needs, have)
        price = {0: lp.prices([_Bound.SCALE * x for x in self.value])}
        lp.keep()
        self.lp = lp
        self.first_scaled = [_Bound.SCALE * (x // scale) for x in self.value]     # the first part, for ``tighten``
        self.fractions = lp.solution()              # the relaxation's tickets, whole and in part: a first set
        # the search tries first what the relaxation does: a ticket it leaves out or takes in part, left out first
        self.skip_first = [x < 1 - 1e-9 for x in self.fractions] if lp.settled else [False] * n
        price.update((k, lp.prices([_Bound.SCALE * x for x in v])) for k, v in ((3, mix), (2, second)) if v)
        price[1] = price[0]
        self.bounds = [_Bound(self.needs, v, have, cards, price[k]) if v else None
                       for k, v in enumerate((self.value, first, second, mix))]
        self.pack()

    def pack(self) -> None:
        """Every bound's card prices side by side in one whole number per card kind, ``width`` bits each: one sum of
        products gives a position's budget at every price at once (``judge``). A budget is at most the one of all
        the cards at the start, so no field spills over."""
        have = self.have + (self.locos,)
        kinds = [b.price + (b.loco_price,) for b in self.bounds if b is not None]
        width = self.width = max(sum(map(mul, have, k)) for k in kinds).bit_length() + 1
        self.mask = (1 << width) - 1
        packed = [sum(k[c] << (width * x) for x, k in enumerate(kinds)) for c in range(LOCO + 1)]
        self.packed, self.packed_loco = tuple(packed[:LOCO]), packed[LOCO]
        shifts = []                                 # each bound's field, in bits
        at = 0
        for b in self.bounds:
            shifts.append(width * at)
            if b is not None:
                at += 1
        self.shifts = shifts

    def take(self, r: Sequence[int], l: int, t: Sequence[int]):
        """The cards left after completing a ticket needing ``t`` from ``r`` and ``l`` locomotives, or None."""
        nr = list(r)
        short = 0
        for c in range(LOCO):
            tc = t[c]
            if tc:
                if tc <= nr[c]:
                    nr[c] -= tc
                else:
                    short += tc - nr[c]
                    nr[c] = 0
        return (tuple(nr), l - short) if short <= l else None

    def reach(self, i: int, r: tuple, l: int, need: int) -> int:
        """Whether the tickets i.. can add a value of ``need`` from cards (r, l): a value at least ``need`` if so (the
        first found), else an upper bound below it. Ticket i is tried taken first, unless the linear relaxation
        leaves it out or takes it only in part (``skip_first``): the first sets tried follow the relaxation, whose
        bound at the start is most often the best value's. On the 200 slowest searches of a sweep of 10,000 the
        search and the ties' walk judged 20% fewer positions so than taking every ticket first (26% on the 40
        slowest), the same answers."""
        if i == self.n:
            return 0
        rest = self.rest[i]
        r = tuple(map(min, r, rest))                 # cards beyond what is still needed: the same
        spare = self.rest_sum[i] - sum(r)
        if l > spare:
            l = spare
        memo_key = (i, r, l)
        # what is known of a position, whatever was asked: [upper bound, the upper bound of the sets with the most
        # tickets the bounds allow (from ``top``), ``top`` in the value's units, the best value found (a lower bound),
        # whether the position's own relaxation sharpened them already or never will (``tighten``)]
        known = self.memo.get(memo_key)
        if known is None:
            known = self.memo[memo_key] = self.judge(i, r, l)
        upper, top_upper, top, low, tight = known
        if need >= top:                           # a set reaching ``need`` holds as many tickets as the bounds allow
            upper = top_upper
        if upper < need:
            return upper
        if low >= need:
            return low
        if not tight and self.visits > HARD:
            self.tighten(i, r, l, known)
            upper, top_upper, top = known[:3]
            if need >= top:
                upper = top_upper
            if upper < need:
                return upper
        self.visits += 1
        after = self.take(r, l, self.needs[i])
        found = -1
        for take in ((False, True) if self.skip_first[i] else (True, False)):
            if not take:
                got = self.reach(self.past[i], r, l, need)
            elif after is not None:
                v = self.value[i]
                got = v + self.reach(i + 1, after[0], after[1], need - v)
            else:
                continue
            if got >= need:
                if got > low:
                    known[3] = got
                return got
            if got > found:
                found = got
        # nothing reaches ``need``: ``found`` bounds every value from here (``need`` was at most ``upper``)
        if found < known[0]:
            known[0] = found
        if found < known[1]:
            known[1] = found
        return found

    def judge(self, i: int, r: tuple, l: int) -> list:
        """The bounds of a position (see ``reach``), worked out once: the value as a whole and each part apart."""
        cards = sum(r) + l
        budgets = sum(map(mul, r, self.packed)) + l * self.packed_loco      # at every price at once (``pack``)
        mask = self.mask
        whole, first, second, mix = self.bounds
        at_whole, at_first, at_second, at_mix = self.shifts
        upper = whole.at(i, cards, (budgets >> at_whole) & mask)
        top = first.at(i, cards, (budgets >> at_first) & mask)              # each part bounded apart, whole numbers
        parts = self.scale * top + second.at(i, cards, (budgets >> at_second) & mask)
        if parts < upper:
            upper = parts
        top_upper = upper
        if mix is not None:                         # a set of exactly ``top`` tickets
            top_upper = min(upper, self.scale * top + mix.at(i, cards, (budgets >> at_mix) & mask) - MIX * top)
        return [upper, top_upper, self.scale * top, 0, i >= DEPTH]

    def tighten(self, i: int, r: tuple, l: int, known: list) -> None:
        """Sharpen the bounds of a position near the start (``known``, see ``reach``) with the colour prices of its own
        linear relaxation (``_Relaxation.prices_at``): the value as a whole and its first part at those prices, the
        fractional knapsack of tickets i.. within the cards' price, rounded down. Any prices give upper bounds, so the
        answers stay exact whatever the floats do. When the first part's bound drops, the bound of the sets with the
        most tickets the bounds allowed before still bounds those with fewer (its Lagrangian part, scale k + B - MIX k
        for k tickets, grows with k; by points that bound is the bound as a whole). On the 32 saved slow hands the
        search judged about half as many positions so; only the positions of the first ``DEPTH`` places, and only once
        ``HARD`` positions have been expanded: each solve costs about as much as judging a few dozen positions, which
        the easy hands (nearly all) never get back: at every search's first 10 places the median of random hands rose
        from 3.8 to 4.8 ms and the 99th percentile from 10.7 to 14.6."""
        known[4] = True
        price = self.lp.prices_at(i, r, l)
        if price is None:
            return
        ticket_cost = [sum(map(mul, t, price)) for t in self.needs[i:]]
        budget = sum(map(mul, r, price)) + l * max(price)
        whole = _fractional(ticket_cost, [_Bound.SCALE * v for v in self.value[i:]], budget) // _Bound.SCALE
        first = _fractional(ticket_cost, self.first_scaled[i:], budget) // _Bound.SCALE
        scale = self.scale
        if scale * first < known[2]:
            cards = sum(r) + l
            budgets = sum(map(mul, r, self.packed)) + l * self.packed_loco
            second = self.bounds[2].at(i, cards, (budgets >> self.shifts[2]) & self.mask)
            known[2] = scale * first
            whole = min(whole, known[2] + second)
        if whole < known[0]:
            known[0] = whole
        if known[0] < known[1]:
            known[1] = known[0]

    def best(self) -> int:
        """The best value, asked from the bound at the start down: each question either finds a set reaching it or
        proves a lower bound (the memo's facts hold for every question); a greedy set, best value per card first, is
        reached from the start. By points, the points come first ("this many points, any number of tickets?"),
        then the number of tickets by halving: the bounds of the number of tickets among the sets with the most
        points are weak, and lowering them one ticket per question was slow. By tickets, the points are lowered one
        at a time; after ``TRIES`` failures in a row the count itself is asked ("this many tickets, any points?"):
        where the bounds allow a ticket more than any set holds, lowering its points took about 40 questions."""
        self.start = self.improve(max((self.greedy_set(order) for order in self.greedy_orders()), key=self.set_value))
        low = self.set_value(self.start)
        high = self.reach(0, self.have, self.locos, 1 << 62)
        scale = self.scale
        by_points = scale == 64
        while by_points and low // scale < high // scale:
            probe = high // scale * scale
            found = self.reach(0, self.have, self.locos, probe)
            if found >= probe:
                low = found
            else:
                high = found
        failed = 0
        while low < high:
            probe = (low + high + 1) // 2 if by_points else high
            if failed >= TRIES and low // scale < high // scale:
                probe, failed = high // scale * scale, 0
            found = self.reach(0, self.have, self.locos, probe)
            if found >= probe:
                low = found
            else:
                high = found
                failed += 1
        return low

    def greedy_set(self, order) -> list[int]:
        """The set that takes the tickets in ``order`` whenever the cards left pay for them."""
        r, l, chosen = self.have, self.locos, []
        for i in order:
            after = self.take(r, l, self.needs[i])
            if after is not None:
                r, l = after
                chosen.append(i)
        return chosen

    def set_value(self, chosen: Sequence[int]) -> int:
        return sum(self.value[i] for i in chosen)

    def improve(self, chosen: Sequence[int]) -> list[int]:
        """A set the cards pay for, at least as good as ``chosen`` (which they pay for), found by a local search:
        add a ticket that still fits, swap one for a better one, or one for two; stops when no such move is left
        (or after ``IMPROVE`` rounds). Its value is only a lower bound of the best: the search proves the best."""
        have, locos, value, n = self.have, self.locos, self.value, self.n
        sparse = [[(c, x) for c, x in enumerate(t) if x] for t in self.needs]

        def extra(total, ticket) -> int:
            """How many more locomotives the set needs with ``ticket`` added to the circles ``total``."""
            e = 0
            for c, x in ticket:
                over = total[c] - have[c]
                if over + x > 0:
                    e += over + x if over >= 0 else over + x
            return e

        def with_(total, ticket):
            total = total[:]
            for c, x in ticket:
                total[c] += x
            return total

        def short_of(total) -> int:
            return sum(t - h for t, h in zip(total, have) if t > h)

        inside = [False] * n
        total = [0] * LOCO
        for i in chosen:
            inside[i] = True
            total = with_(total, sparse[i])
        short = short_of(total)
        for _ in range(IMPROVE):
            moved = False
            for j in range(n):                              # add a ticket that still fits
                if not inside[j]:
                    e = extra(total, sparse[j])
                    if short + e <= locos:
                        inside[j], total, short, moved = True, with_(total, sparse[j]), short + e, True
            outs = [j for j in range(n) if not inside[j]]
            for i in range(n):                              # one out, one or two in
                if not inside[i]:
                    continue
                less = total[:]
                for c, x in sparse[i]:
                    less[c] -= x
                base = short_of(less)
                room = [j for j in outs if not inside[j] and base + extra(less, sparse[j]) <= locos]
                best, move = value[i], None
                for y, j in enumerate(room):
                    if value[j] > best:
                        best, move = value[j], (j,)
                    if y + 1 < len(room):
                        more = with_(less, sparse[j])
                        left = locos - short_of(more)
                        for k in room[y + 1:]:
                            if value[j] + value[k] > best and extra(more, sparse[k]) <= left:
                                best, move = value[j] + value[k], (j, k)
                if move is not None:
                    inside[i] = False
                    total = less
                    for j in move:
                        inside[j] = True
                        total = with_(total, sparse[j])
                    short = short_of(total)
                    moved = True
            if not moved:
                break
        return [i for i in range(n) if inside[i]]

    def greedy_orders(self):
        """Orders for a first set (a lower bound of the best value): best value per card; best value per card at
        the colour prices of the linear relaxation (a locomotive at the dearest); the tickets of the relaxation's
        solution first, whole ones before those in part (on the slowest hands its sets were a point or two short
        where the others were four to six); and for "most tickets" also the fewest cards first, and the cheapest at
        those prices first."""
        yield self.greedy
        n, value = self.n, self.value
        price = self.bounds[0].price
        cost = [max(1, sum(map(mul, t, price))) for t in self.needs]
        yield sorted(range(n), key=lambda i: (-value[i] / cost[i], i))
        x = self.fractions
        yield sorted(range(n), key=lambda i: (-x[i], -value[i] / cost[i], i))
        if self.scale == 1024:
            yield sorted(range(n), key=lambda i: (sum(self.needs[i]), -value[i], i))
            yield sorted(range(n), key=lambda i: (cost[i], -value[i], i))

    def earliest(self, target: int, order: Sequence[int]) -> tuple[int, ...]:
        """The set reaching ``target`` (the best value) that is first in ticket order, as ticket indices in order:
        ``order[k]`` is the ticket index of this search's k-th ticket. The tie order is folded into a second key:
        a set's tie key has the bit 2**(n-1-t) for each of its tickets t, so of two sets the one holding the earliest
        ticket where they differ has the larger key (whole numbers: no rounding, no spill into the value). Among the
        sets of the best value (none is worth more) the largest key is found by a memoised walk in this search's
        order over (place, cards left, value still needed): a branch that cannot reach the value still needed is cut
        by ``reach``, whose memo the questions about the best value have filled, and a branch whose tickets, all of
        them taken, could not beat the largest key found so far is cut too (``floor``; the first floor is the key of
        the search's first set when it is worth the best value: 4% fewer instructions on the slowest hands)."""
        n = self.n
        bit = [1 << (n - 1 - t) for t in order]
        suffix_bits = list(accumulate(reversed(bit), initial=0))[::-1]      # the key of tickets k.. all taken
        # (place, cards, value still needed) -> (exact, key): the largest key if exact, else "at most key"
        memo: dict = {}
        needs, value, rest, rest_sum, past = self.needs, self.value, self.rest, self.rest_sum, self.past

        def key_of(k: int, r: tuple, l: int, need: int, floor: int) -> int:
            """The largest tie key of the sets of tickets k.. the cards (r, l) pay for that add exactly ``need``
            (none adds more: the value is the best) if it is above ``floor``, else -1."""
            if need <= 0:                           # nothing more can be added: the best value is reached
                return 0 if floor < 0 else -1
            if floor < -1:                          # keys are whole numbers: above -1 is any key (-1 is none)
                floor = -1
            elif suffix_bits[k] <= floor:           # even all of them would not beat the floor (and k == n: none)
                return -1
            r = tuple(map(min, r, rest[k]))
            spare = rest_sum[k] - sum(r)
            if l > spare:
                l = spare
            memo_key = (k, r, l, need)
            known = memo.get(memo_key)
            if known is not None:
                exact, key = known
                if exact or key <= floor:
                    return key if key > floor else -1
            best = floor                            # the best key above the floor found so far
            if self.reach(k, r, l, need) >= need:
                after = self.take(r, l, needs[k])
                if after is not None:
                    with_it = key_of(k + 1, after[0], after[1], need - value[k], best - bit[k])
                    if with_it >= 0:
                        best = bit[k] + with_it
                # leaving ticket k out leaves out its worse twins after it (``past``): a set holding a twin
                # instead of k is worth no more and, the twins in ticket order, comes later in ticket order
                without = key_of(past[k], r, l, need, best)
                if without > best:
                    best = without
            else:
                best = floor = -1                   # nothing reaches ``need`` from here, whatever the floor
            if best > floor:                        # found above the floor: the largest there is
                memo[memo_key] = (True, best)
                return best
            memo[memo_key] = (False, floor)
            return -1

        first = self.start if self.set_value(self.start) == target else ()
        floor = sum(bit[k] for k in first) - 1 if first else -1
        key = key_of(0, self.have, self.locos, target, floor)
        key_of = None                               # the walk refers to itself: end the cycle, free its memo now
        return tuple(t for t in range(n) if key >> (n - 1 - t) & 1)


class _Bound:
    """An upper bound of one part of the value (whole numbers): the smallest of a 0-1 knapsack over the number of
    cards (colours ignored) and the fractional knapsack at the colour prices of the linear relaxation, rounded down
    (any prices bound every completion: a set's circles cost at most the cards' price, a locomotive priced as the
    dearest colour)."""

    SCALE = 1000                 # prices are whole numbers: the values are scaled so small values get fine prices

    def __init__(self, needs: Sequence[Needs], value: Sequence[int], have: Sequence[int], cards: int,
                 price: Sequence[int]):
        self.n = n = len(needs)
        self.table = _knapsack([sum(t) for t in needs], value, cards)
        scaled = [v * self.SCALE for v in value]
        self.price = tuple(price)
        self.loco_price = max(price)
        cost = [sum(a * p for a, p in zip(t, price)) for t in needs]
        by_ratio = sorted((t for t in range(n) if cost[t]), key=lambda t: (-scaled[t] / cost[t], t))
        suffix = []
        free = 0
        for i in range(n, -1, -1):                   # tickets i.. by value per priced circle, with running sums
            if i < n and not cost[i]:
                free += scaled[i]
            idx = [t for t in by_ratio if t >= i]
            c_each = [cost[t] for t in idx]
            v_each = [scaled[t] for t in idx]
            # the running sums start at nothing taken (cost 0, the free tickets' value): no special first place
            suffix.append((list(accumulate(c_each, initial=0)), list(accumulate(v_each, initial=free)), c_each,
                           v_each))
        suffix.reverse()
        self.suffix = suffix

    def at(self, i: int, cards: int, budget: int) -> int:
        """At most the value tickets i.. can add from ``cards`` cards whose price is ``budget`` (at this bound's
        prices; see ``_Search.pack``)."""
        a = self.table[i][cards]
        costs, values, cost, value = self.suffix[i]          # the fractional knapsack within ``budget``
        j = bisect_right(costs, budget) - 1          # the first ticket that no longer fits whole (costs[0] is 0)
        b = values[j]
        if j < len(cost):
            b += value[j] * (budget - costs[j]) // cost[j]
        b //= self.SCALE
        return a if a < b else b


def _fractional(cost: Sequence[int], value: Sequence[int], budget: int) -> int:
    """At most the value of tickets costing ``cost`` within ``budget`` (the fractional knapsack, rounded down)."""
    total = sum(v for c, v in zip(cost, value) if not c)          # the tickets costing nothing at these prices
    for t in sorted((t for t in range(len(cost)) if cost[t]), key=lambda t: -value[t] / cost[t]):
        if cost[t] > budget:
            return total + value[t] * budget // cost[t]
        budget -= cost[t]
        total += value[t]
    return total


def _knapsack(cost: Sequence[int], value: Sequence[int], budget: int) -> list[list[int]]:
    """table[i][b]: the best value of tickets i.. costing at most b in all (a 0-1 knapsack, b up to ``budget``)."""
    n = len(cost)
    table = [[0] * (budget + 1)] * (n + 1)
    for i in range(n - 1, -1, -1):
        nxt, c, v = table[i + 1], cost[i], value[i]
        table[i] = nxt[:c] + [a if a >= b + v else b + v for a, b in zip(nxt[c:], nxt)]
    return table


class _Relaxation:
    """The linear relaxation of a hand, for whole-number prices per colour from its dual:

        max  sum value_t x_t   s.t.  sum_t need_tc x_t - y_c <= have_c,  sum_c y_c <= locomotives,  0 <= x <= 1, y >= 0

    solved by a bounded-variable simplex in floats (the prices only steer the bounds, which are exact for any prices;
    equal prices if the simplex does not settle). The constraints are the same for every value asked about, so each
    ``prices`` call starts from the basis the call before ended in (still feasible): only its new reduced costs are
    worked out, and a value near the one before (the whole value after its first part) takes a few pivots."""

    def __init__(self, needs: Sequence[Needs], have: Sequence[int]):
        self.n = n = len(needs)
        rows = self.rows = LOCO + 1
        slack = self.slack = n + LOCO
        cols = self.cols = slack + rows                   # x_t, y_c, one slack per row
        inf = float("inf")
        self.upper = [1.0] * n + [inf] * (LOCO + rows)
        tab = self.tab = [[0.0] * cols for _ in range(rows)]          # B^-1 A
        for t, need in enumerate(needs):
            for c in range(LOCO):
                if need[c]:
                    tab[c][t] = float(need[c])
        for c in range(LOCO):
            tab[c][n + c] = -1.0
            tab[LOCO][n + c] = 1.0
        for row in range(rows):
            tab[row][slack + row] = 1.0
        self.values = [float(have[c]) for c in range(LOCO)] + [float(have[LOCO])]   # of the basic variables
        self.basis = [slack + row for row in range(rows)]
        self.basic = [False] * slack + [True] * rows
        self.at_upper = [False] * cols
        self.settled = True

    def solution(self) -> list[float]:
        """Each ticket's part in the relaxation's solution for the value last asked about (1: whole; 0 if the
        simplex did not settle)."""
        if not self.settled:
            return [0.0] * self.n
        x = [1.0 if up else 0.0 for up in self.at_upper[:self.n]]
        for row, j in enumerate(self.basis):
            if j < self.n:
                x[j] = self.values[row]
        return x

    def prices(self, value: Sequence[int]) -> list[int]:
        """The colour prices for ``value`` (per ticket, whole numbers)."""
        if not self.settled:
            return [1] * LOCO
        n, rows, cols, slack = self.n, self.rows, self.cols, self.slack
        tab, values, basis, basic, at_upper, upper = (self.tab, self.values, self.basis, self.basic, self.at_upper,
                                                      self.upper)
        inf = float("inf")
        eps = 1e-9
        reduced = [float(v) for v in value] + [0.0] * (LOCO + rows)     # objective minus c_B B^-1 A
        for row in range(rows):
            f = reduced[basis[row]]
            if f:
                reduced = [x - f * y for x, y in zip(reduced, tab[row])]
        for _ in range(500):
            j, best = -1, eps                                # the entering variable: the largest gain
            for k in range(cols):
                if not basic[k]:
                    gain = -reduced[k] if at_upper[k] else reduced[k]
                    if gain > best:
                        j, best = k, gain
            if j < 0:
                break
            sign = -1.0 if at_upper[j] else 1.0             # moves down from its upper bound, or up from 0
            step, leave = upper[j], -1                       # a bound flip unless a basic variable stops it first
            for row in range(rows):
                a = tab[row][j] * sign
                if a > eps:
                    limit = values[row] / a
                elif a < -eps and upper[basis[row]] != inf:
                    limit = (values[row] - upper[basis[row]]) / a
                else:
                    continue
                if limit < step - eps:
                    step, leave = limit, row
            if step == inf:              # cannot happen: every x is at most 1
                self.settled = False
                return [1] * LOCO
            for row in range(rows):
                values[row] -= tab[row][j] * sign * step
            if leave < 0:
                at_upper[j] = not at_upper[j]
                continue
            out = basis[leave]
            at_upper[out] = upper[out] != inf and values[leave] > upper[out] - eps
            entering = upper[j] - step if at_upper[j] else step
            reduced = _pivot(tab, reduced, leave, j)
            values[leave] = entering
            basis[leave] = j
            basic[out], basic[j] = False, True
            at_upper[j] = False
        else:
            self.settled = False
            return [1] * LOCO
        self.reduced = reduced
        prices = [max(0, round(-reduced[slack + c])) for c in range(LOCO)]    # the duals of the colour rows
        return prices if any(prices) else [1] * LOCO

    def keep(self) -> None:
        """Keep the basis the last ``prices`` call ended in, for ``prices_at`` (rows are replaced, never changed)."""
        # place -> the basis the last solve at a position of that place ended in (the start's at place 0)
        self.kept = {0: (list(self.tab), self.basis[:], self.basic[:], self.at_upper[:], self.reduced)} \
            if self.settled else None

    def prices_at(self, i: int, have: Sequence[int], locos: int):
        """The colour prices of the relaxation of tickets i.. with the cards (have, locos), for the value of the
        kept basis, or None: a dual simplex from the basis of the last solve at the nearest place up to i (the
        start's at worst; in a depth-first search most often the position's parent). That basis is still optimal
        for the objective: only the cards changed, and the tickets from its place to i, now fixed at 0, so a few
        pivots answer where a whole solve takes dozens (on a hard hand half as many as from the start's basis)."""
        if self.kept is None:
            return None
        rows, cols, slack = self.rows, self.cols, self.slack
        place = i
        while place not in self.kept:
            place -= 1
        tab, basis, basic, at_upper, reduced = self.kept[place]
        tab, basis, basic, at_upper = list(tab), basis[:], basic[:], at_upper[:]
        upper = [0.0] * i + self.upper[i:]
        b = list(have[:LOCO]) + [locos]
        eps = 1e-9
        # the basic variables' values: B^-1 b (the slack columns hold B^-1) less the columns of the nonbasic ones at
        # their upper bound
        values = [sum(map(mul, row[slack:], b)) for row in tab]
        for j in range(cols):
            if at_upper[j] and not basic[j] and upper[j]:
                u = upper[j]
                for row in range(rows):
                    values[row] -= tab[row][j] * u
        for _ in range(60):                             # a handful in practice; more means it does not settle
            leave, worst = -1, eps
            for row in range(rows):
                v, u = values[row], upper[basis[row]]
                gap = -v if v < 0 else v - u
                if gap > worst:
                    leave, worst = row, gap
            if leave < 0:                               # feasible again, and still optimal
                self.kept[i] = (tab, basis, basic, at_upper, reduced)
                prices = [max(0, round(-reduced[slack + c])) for c in range(LOCO)]
                return prices if any(prices) else None
            up = values[leave] > 0                      # the leaving variable goes down to its upper bound
            pivot_row = tab[leave]
            j, best = -1, float("inf")                  # the entering variable: the dual ratio test
            for k in range(cols):
                if basic[k] or not upper[k]:
                    continue
                a = pivot_row[k]
                high = at_upper[k]
                if (a > eps and up != high) or (a < -eps and up == high):
                    ratio = abs(reduced[k] / a)
                    if ratio < best:
                        j, best = k, ratio
            if j < 0:
                return None
            out = basis[leave]
            move = (values[leave] - (upper[out] if up else 0.0)) / pivot_row[j]     # x_j's change: x_out to its bound
            for row in range(rows):
                values[row] -= tab[row][j] * move
            values[leave] = (upper[j] if at_upper[j] else 0.0) + move
            reduced = _pivot(tab, reduced, leave, j)
            basis[leave] = j
            basic[out], basic[j] = False, True
            at_upper[out], at_upper[j] = up, False
        return None


def _pivot(tab: list, reduced: list, leave: int, j: int) -> list:
    """Pivot the tableau ``tab`` (B^-1 A, its rows replaced, never changed) on row ``leave`` and column ``j``;
    returns the reduced costs after it."""
    pivot_row = tab[leave]
    pivot = pivot_row[j]
    pivot_row = tab[leave] = [x / pivot for x in pivot_row]
    for row in range(len(tab)):
        f = tab[row][j]
        if row != leave and f:
            tab[row] = [x - f * y for x, y in zip(tab[row], pivot_row)]
    f = reduced[j]
    return [x - f * y for x, y in zip(reduced, pivot_row)]


__all__ = ["shortfall", "feasible", "cards_used", "best_set"]
