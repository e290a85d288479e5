"""End-of-round ticket completion (CG-END-2), exactly and quickly.

Each card of the on-the-track pile serves one ticket; a colour card serves its own colour, a locomotive any colour.
So a set S of tickets can be completed exactly when the locomotives cover every colour's shortfall:

    sum over colours c of  max(0, need_c(S) - have_c)  <=  have_locomotive

(assign each colour's cards to the tickets needing that colour, up to what there is; each remaining circle takes a
locomotive — no assignment can do better, since a colour card can serve nothing but its colour). This is the
matching condition of the bipartite graph cards × circles, in closed form.

The best choice (most points, then most tickets; or most tickets, then most points) is found exactly by
``best_set``: a depth-first search over the tickets that remembers every (ticket, cards left) position it has
judged, and cuts a branch when an upper bound shows it cannot beat the best set found. Two bounds, both exact
upper bounds:

* the best points of the remaining tickets whose circles fit in the cards left, colours ignored (a 0-1 knapsack
  table over the number of cards, made once per call);
* the linear-programming relaxation with the colours: its dual gives each colour a price (``_colour_prices``, a
  small simplex, once per call); a ticket then costs the prices of its circles, the cards left are worth their
  prices (a locomotive the highest), and the fractional knapsack over those costs bounds every completion. It is
  nearly tight on real hands (within a point at the root of the 31-ticket position of the tests), so the search
  visits a few hundred positions instead of millions.

Every set gets a different value — its points (or count), then its tickets in ticket order as a tie-break (a set
holding an earlier ticket wins) — so the answer does not depend on the order the search tries the tickets in (the
best value per card first). ``benchmarks/bench_cardgame.py`` times it; ``tests/test_rules_cardgame.py`` checks it
against a brute force and bounds its work on every hand up to all 46 tickets.

The engine lets a player complete one ticket per action (``complete Chicago–Miami``, until no more can be paid):
paying each ticket from what the earlier ones left, own colours first, is feasible exactly when the whole set is (the
shortfalls add up colour by colour), so the step-by-step check is the set check.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Sequence

from ..cards import LOCO

Needs = Sequence[int]          # per card kind (colours only)


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
    value = [p * 64 + 1 for p in points] if by == "points" else [1024 + p for p in points]   # (points, count)
    return _Search(needs, value, have).best()


class _Search:
    """One exact search (see ``best_set``); tickets are renumbered best value per card first."""

    def __init__(self, needs: Sequence[Needs], value: Sequence[int], have: Sequence[int]):
        n = len(needs)
        size = [max(1, sum(t[:LOCO])) for t in needs]
        self.order = order = sorted(range(n), key=lambda i: (-value[i] / size[i], i))
        self.n = n
        self.needs = [tuple(needs[i][:LOCO]) for i in order]
        self.value = [value[i] for i in order]
        # the whole objective: the value, then the tickets in the original order (earlier = higher bit)
        self.key = [(value[i] << n) | (1 << (n - 1 - i)) for i in order]
        self.have = tuple(have[:LOCO])
        self.locos = have[LOCO]
        self.memo: dict = {}
        self.visits = 0
        rest = [(0,) * LOCO] * (n + 1)               # circles of tickets i.. per colour
        for i in range(n - 1, -1, -1):
            rest[i] = tuple(a + b for a, b in zip(rest[i + 1], self.needs[i]))
        self.rest = rest
        self._knapsack(sum(have[:LOCO]) + have[LOCO])
        self._priced(_colour_prices(self.needs, self.value, have))

    # -- bounds ---------------------------------------------------------------------------------
    def _knapsack(self, cards: int) -> None:
        """table[i][c]: the best value of tickets i.. with at most c circles in all, colours ignored."""
        n, size, value = self.n, [sum(t) for t in self.needs], self.value
        table = [[0] * (cards + 1) for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            nxt, row, s, v = table[i + 1], table[i], size[i], value[i]
            row[:s] = nxt[:s]
            for c in range(s, cards + 1):
                a, b = nxt[c], nxt[c - s] + v
                row[c] = a if a >= b else b
        self.table = table

    def _priced(self, price: Sequence[int]) -> None:
        """Per suffix i: its tickets by value per priced circle, with prefix sums (the fractional knapsack)."""
        self.price = price
        self.loco_price = max(price)
        cost = [sum(a * p for a, p in zip(t, price)) for t in self.needs]
        self.suffix = []
        for i in range(self.n + 1):
            free = sum(self.value[t] for t in range(i, self.n) if not cost[t])      # priced at nothing: always in
            idx = sorted((t for t in range(i, self.n) if cost[t]), key=lambda t: -self.value[t] / cost[t])
            costs, values, c_sum, v_sum = [], [], 0, free
            for t in idx:
                c_sum += cost[t]
                v_sum += self.value[t]
                costs.append(c_sum)
                values.append(v_sum)
            self.suffix.append((free, costs, values, [cost[t] for t in idx], [self.value[t] for t in idx]))

    def _fractional(self, i: int, budget: int) -> int:
        """An upper bound of the value tickets i.. can add with cards worth ``budget`` at the colour prices."""
        free, costs, values, cost, value = self.suffix[i]
        j = bisect_right(costs, budget)              # the first ticket that no longer fits whole
        if j == len(costs):
            return values[-1] if costs else free
        whole = values[j - 1] if j else free
        spent = costs[j - 1] if j else 0
        return whole + value[j] * (budget - spent) // cost[j]

    # -- the search -------------------------------------------------------------------------------
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
        """The best key tickets i.. add from cards (r, l) if it is at least ``need``; else some upper bound of it
        below ``need`` (the caller only needs to know it falls short)."""
        n = self.n
        if i == n:
            return 0
        rest = self.rest[i]
        r = tuple(x if x < y else y for x, y in zip(r, rest))      # cards beyond what is still needed: the same
        spare = sum(rest) - sum(r)
        if l > spare:
            l = spare
        # the bounds are on the value; a key is value * 2**n plus less than 2**n, so it reaches ``need`` only if
        # the value reaches need >> n; when it cannot, ((bound + 1) << n) - 1 bounds the key and is below need
        limit = need >> n
        bound = self.table[i][sum(r) + l]
        if bound < limit:
            return ((bound + 1) << n) - 1
        budget = sum(a * p for a, p in zip(r, self.price)) + self.loco_price * l
        bound = self._fractional(i, budget)
        if bound < limit:
            return ((bound + 1) << n) - 1
        memo_key = (i, r, l)
        found = self.memo.get(memo_key)
        if found is not None and (found[1] or found[0] < need):
            return found[0]
        self.visits += 1
        after = self.take(r, l, self.needs[i])
        if after is not None:
            with_it = self.key[i] + self.reach(i + 1, after[0], after[1], need - self.key[i])
            if with_it >= need:                                 # exact: is anything without it better?
                without = self.reach(i + 1, r, l, with_it + 1)
                result = (without, True) if without > with_it else (with_it, True)
            else:
                without = self.reach(i + 1, r, l, need)
                result = (without, True) if without >= need else (max(with_it, without), False)
        else:
            without = self.reach(i + 1, r, l, need)
            result = (without, without >= need)
        self.memo[memo_key] = result
        return result[0]

    def best(self) -> tuple[int, ...]:
        # a first set to beat: greedily, best value per card first
        r, l, start = self.have, self.locos, 0
        for i in range(self.n):
            after = self.take(r, l, self.needs[i])
            if after is not None:
                (r, l), start = after, start + self.key[i]
        target = self.reach(0, self.have, self.locos, start)
        chosen = []
        r, l = self.have, self.locos
        for i in range(self.n):                              # follow the best set down the search's own answers
            after = self.take(r, l, self.needs[i])
            if after is not None and self.key[i] + self.reach(i + 1, after[0], after[1], target - self.key[i]) >= target:
                chosen.append(self.order[i])
                target -= self.key[i]
                r, l = after
        return tuple(sorted(chosen))


def _colour_prices(needs: Sequence[Needs], value: Sequence[int], have: Sequence[int]) -> list[int]:
    """Whole-number prices per colour from the dual of the linear relaxation

        max  sum value_t x_t   s.t.  sum_t need_tc x_t - y_c <= have_c,  sum_c y_c <= locomotives,  0 <= x <= 1, y >= 0

    solved by a bounded-variable simplex in floats (the prices only steer the bound, which is exact for any prices;
    equal prices if the simplex does not settle)."""
    n = len(needs)
    rows = LOCO + 1
    slack = n + LOCO
    cols = slack + rows                                  # x_t, y_c, one slack per row
    inf = float("inf")
    upper = [1.0] * n + [inf] * (LOCO + rows)
    tab = [[0.0] * cols for _ in range(rows)]
    for t, need in enumerate(needs):
        for c in range(LOCO):
            if need[c]:
                tab[c][t] = float(need[c])
    for c in range(LOCO):
        tab[c][n + c] = -1.0
        tab[LOCO][n + c] = 1.0
    for row in range(rows):
        tab[row][slack + row] = 1.0
    reduced = [float(v) for v in value] + [0.0] * (LOCO + rows)   # objective minus c_B B^-1 A (basis: the slacks)
    values = [float(have[c]) for c in range(LOCO)] + [float(have[LOCO])]   # of the basic variables
    basis = [slack + row for row in range(rows)]
    basic = [False] * slack + [True] * rows
    at_upper = [False] * cols
    eps = 1e-9
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
        if step == inf:
            return [1] * LOCO                            # cannot happen: every x is at most 1
        for row in range(rows):
            values[row] -= tab[row][j] * sign * step
        if leave < 0:
            at_upper[j] = not at_upper[j]
            continue
        out = basis[leave]
        at_upper[out] = upper[out] != inf and values[leave] > upper[out] - eps
        entering = upper[j] - step if at_upper[j] else step
        pivot_row = tab[leave]
        pivot = pivot_row[j]
        pivot_row = tab[leave] = [x / pivot for x in pivot_row]
        for row in range(rows):
            f = tab[row][j]
            if row != leave and f:
                tab[row] = [x - f * y for x, y in zip(tab[row], pivot_row)]
        f = reduced[j]
        reduced = [x - f * y for x, y in zip(reduced, pivot_row)]
        values[leave] = entering
        basis[leave] = j
        basic[out], basic[j] = False, True
        at_upper[j] = False
    else:
        return [1] * LOCO
    prices = [max(0, round(-reduced[slack + c])) for c in range(LOCO)]    # the duals of the colour rows
    return prices if any(prices) else [1] * LOCO


__all__ = ["shortfall", "feasible", "cards_used", "best_set"]
