"""The coach's playout policy: the greedy bot's plan, made fast enough to play thousands of games a minute.

A playout plays a sampled position to the end with one policy for every seat; the coach compares its candidate moves
by those results, so the policy bounds how many playouts a second it gets (issue 19's trial: three quarters of the
time went to the greedy bot's searches). :class:`BoardPolicy` makes the same kind of choices as
``ttr_nb.bots.GreedyBot`` — plan cheapest paths for the open tickets, claim a planned route it can pay (longest
first), else draw the colours the plan needs; near the end, long routes for points — but

* works on integer tables built once per map (:class:`BoardTables`: adjacency, lengths, colours, twins, labels);
* finds paths with a small Dijkstra over city numbers that stops at the target, honouring the board's
  dead-end places (Märklin's countries);
* keeps each seat's plan between turns and plans again only when it may have changed: new tickets, or a route on
  the plan taken (or closed) by someone else. Another seat's claim elsewhere can only make other paths dearer, so a
  cheapest plan stays a cheapest plan; the seat's own claims on the plan are simply done;
* shares the plans it makes with the other playouts of the same sample (``shared``, dropped by the search at each
  new sample): every candidate is played on that sample, so the same claims and tickets come up again and again;
* builds no list of legal actions: it makes the one action it wants, which the engine checks on ``apply``.

Steps a variant adds (tunnels, stations, passengers, the South Korean draft and express cards, Märklin's ticket
mix) go to the variant's own greedy hooks, as ``GreedyBot`` does. The Card Game plays with its own greedy bot
(:class:`CardPolicy`): it is already fast.

Everything here reads what the seat to move may see (its hand and tickets, the board, the face-up cards, pile
sizes): a policy never needs a hidden card.
"""
from __future__ import annotations

import heapq
from itertools import combinations

from ..board.actions import Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass
from ..board.cards import COLOURS, LOCO
from ..board.engine import draw_deck_action, draw_faceup_action, legal_actions, route_payments, twin_problem
from ..board.names import route_labels, ticket_text
from ..board.state import FREE, GameState
from ..board.tables import payment as payment_of
from ..variants import Variant, get_variant

INF = 1 << 30
_NOTHING: frozenset = frozenset()


class BoardTables:
    """Per-map integer tables for the hot loop (built once per variant, see :func:`tables`)."""

    def __init__(self, v: Variant):
        m = v.map
        self.v = v
        self.cities = [c.name for c in m.cities]
        index = {name: i for i, name in enumerate(self.cities)}
        self.city_index = index
        routes = m.routes
        self.n_routes = len(routes)
        self.a = tuple(index[r.a] for r in routes)
        self.b = tuple(index[r.b] for r in routes)
        self.length = tuple(r.length for r in routes)
        self.colour = tuple(-1 if r.colour == "gray" else COLOURS.index(r.colour) for r in routes)
        self.twins = v.route_table.twins
        self.ids = tuple(r.id for r in routes)
        self.labels = route_labels(m)
        self.points = tuple(v.route_points(r.length) for r in routes)
        self.tunnel = tuple(bool(getattr(r, "tunnel", False)) for r in routes)
        adj: list[list[tuple[int, int]]] = [[] for _ in self.cities]
        for i in range(len(routes)):
            adj[self.a[i]].append((i, self.b[i]))
            adj[self.b[i]].append((i, self.a[i]))
        self.adj = tuple(tuple(x) for x in adj)
        # path_cost's view of ``adj``: (route, other city, length, twins) read in one unpacking
        self.edges = tuple(tuple((i, other, self.length[i], self.twins[i]) for i, other in x) for x in adj)
        self.shift = max(1, len(self.cities) - 1).bit_length()      # path_cost's heap: distance << shift | city
        self.mask = (1 << self.shift) - 1
        self.dead_end = tuple(name in m.ends_only for name in self.cities)
        self.ticket = {t.id: (index[t.a], index[t.b], t.points) for t in m.tickets}
        self.ticket_text = {t.id: ticket_text(m, t.id) for t in m.tickets}
        self.small_twin = v.settings.twin_min_players
        self.by_length_desc = tuple(sorted(range(len(routes)), key=lambda i: (-self.length[i], self.ids[i])))


_TABLES: dict[str, BoardTables] = {}


def tables(v: Variant) -> BoardTables:
    t = _TABLES.get(v.key)
    if t is None:
        t = _TABLES[v.key] = BoardTables(v)
    return t


def path_cost(t: BoardTables, claims, seat: int, small: bool, own: set[int] | frozenset, a: int, b: int
              ) -> tuple[int, list[int]] | None:
    """Trains still needed to join cities ``a`` and ``b`` for ``seat`` and the free routes of one cheapest path:
    routes of the seat (and ``own``: planned or borrowable) cost 0, free ones their length; others' routes and
    closed twins (USA-CLAIM-7/8) are walls; a dead-end place is never passed through. None: cannot be joined.

    The heap holds ``distance << shift | city``: one int orders as the pair (distance, city) does, so cities come
    off in the same order (and ties go the same way) as with pairs, without making a tuple per push."""
    if a == b:
        return 0, []
    n = len(t.cities)
    best = [INF] * n
    best[a] = 0
    via = [-1] * n                      # the route each city was reached by
    heap = [a]
    edges, dead, shift, mask = t.edges, t.dead_end, t.shift, t.mask
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        x = pop(heap)
        city = x & mask
        d = x >> shift
        if city == b:
            path = []
            ends_a, ends_b = t.a, t.b
            while city != a:
                i = via[city]
                city = ends_a[i] if ends_b[i] == city else ends_b[i]
                if claims[i] != seat and i not in own:
                    path.append(i)
            return d, path
        if d > best[city] or (dead[city] and city != a):
            continue
        for i, other, length, tw in edges[city]:
            owner = claims[i]
            if owner == FREE:
                if i in own:
                    nd = d
                else:
                    if tw:
                        closed = False
                        for j in tw:
                            o = claims[j]
                            if o == seat or (small and o != FREE):
                                closed = True
                                break
                        if closed:
                            continue
                    nd = d + length
            elif owner == seat or i in own:
                nd = d
            else:
                continue
            if nd < best[other]:
                best[other] = nd
                via[other] = i
                push(heap, nd << shift | other)
    return None


class Plan:
    """A seat's plan: the free routes to claim for its open tickets (most valuable ticket first), the trains they
    need, the tickets already joined and those that can no longer be."""

    __slots__ = ("tickets", "claims", "routes", "reasons", "cost", "done", "impossible", "borrow", "_order", "_need",
                 "_greedy")

    def __init__(self, tickets, claims, routes, reasons, cost, done, impossible, borrow):
        self.tickets = tickets
        self.claims = claims
        self.routes = routes            # route indices, in planning order
        self.reasons = reasons          # route index -> ticket id it serves
        self.cost = cost
        self.done = done                # ticket ids already joined
        self.impossible = impossible
        self.borrow = borrow
        self._order = None
        self._need = None
        self._greedy = None             # the plan as bots.Plan, for the variants' greedy hooks

    def claim_order(self, t: "BoardTables") -> list[int]:
        """The planned routes longest first (ties: route id), as ``GreedyBot`` tries them."""
        if self._order is None:
            self._order = sorted(self.routes, key=lambda i: (-t.length[i], t.ids[i]))
        return self._order

    def need(self, t: "BoardTables") -> tuple[dict[int, int], bool]:
        """Cards of each colour the planned routes need, and whether a gray route is planned."""
        if self._need is None:
            need: dict[int, int] = {}
            gray = False
            for i in self.routes:
                c = t.colour[i]
                if c >= 0:
                    need[c] = need.get(c, 0) + t.length[i]
                else:
                    gray = True
            self._need = (need, gray)
        return self._need


def make_plan(t: BoardTables, state: GameState, seat: int, tickets=None, *, borrow: frozenset = _NOTHING,
              memo: dict | None = None) -> Plan:
    """Cheapest paths for ``seat``'s tickets (default: all it holds), each reusing the routes planned for the more
    valuable ones before it (``bots.plan_for``'s order). ``memo``: a dict shared by calls on the same state and
    seat (the ticket sets a keep compares), each path looked up by the routes planned before it."""
    claims = state.claims
    small = state.n_players < t.small_twin
    tickets = tuple(state.players[seat].tickets if tickets is None else tickets)
    own = set(borrow)
    routes: list[int] = []
    reasons: dict[int, str] = {}
    done, impossible = [], []
    cost = 0
    for tid in sorted(tickets, key=lambda x: (-t.ticket[x][2], x)):
        a, b, _ = t.ticket[tid]
        if memo is None:
            found = path_cost(t, claims, seat, small, own, a, b)
        else:
            key = (frozenset(own), a, b)
            found = memo.get(key, memo)
            if found is memo:
                found = memo[key] = path_cost(t, claims, seat, small, own, a, b)
        if found is None:
            impossible.append(tid)
            continue
        c, path = found
        if c == 0 and not path:
            done.append(tid)
            continue
        cost += c
        for i in path:
            own.add(i)
            routes.append(i)
            reasons[i] = tid
    return Plan(tickets, claims, routes, reasons, cost, tuple(done), tuple(impossible), borrow)


class BoardPolicy:
    """A fast greedy policy for the board games; one object per playout (it remembers each seat's plan).

    ``prudent``: the seat that plays like the coach (None: every seat plays like the greedy bot). That seat is more
    careful with tickets than the greedy bot: it keeps a set of tickets only if their paths leave about 20 trains to
    spare (the greedy bot: 5), and it draws new tickets only with 20 trains or more (the greedy bot: 12). Keeping
    too much is the greedy bot's costliest habit: this alone wins about two games in three against it (300 seeded
    2-player USA games, ``benchmarks/bench_coach.py``'s notes). The coach's first idea for a move is this prudent
    policy's, and in its playouts its own seat plays prudently while the others play like the greedy bot.
    """

    SPARE = 20                     # trains a prudent seat keeps free when it chooses tickets (greedy: 5)
    TICKET_TRAINS = 20             # trains a prudent seat needs before it draws new tickets (greedy: 12)

    def __init__(self, v: Variant, prudent: int | None = None, shared: dict | None = None):
        self.prudent = prudent
        self.v = v
        self.t = tables(v)
        self.plans: dict[int, Plan] = {}
        self.shared = shared
        self.features = v.features
        self.borrowers = [f for f in v.features if hasattr(f, "bot_borrowable")]
        self.turners = [f for f in v.features if hasattr(f, "bot_turn")]
        self.improvers = [f for f in v.features if hasattr(f, "bot_improve")]
        self.claim_checks = [f for f in v.features if hasattr(f, "bot_claim_ok")]
        self.extra_wilds = len(v.settings.wilds) > 1
        self.min_locos = v.route_table.min_locos

    # -- plans -----------------------------------------------------------------------------------
    def plan(self, state: GameState, seat: int) -> Plan:
        p = self.plans.get(seat)
        tickets = state.players[seat].tickets
        claims = state.claims
        if p is not None and p.claims is claims and p.tickets is tickets and not self.borrowers:
            return p                          # the common case: a card draw changed nothing the plan depends on
        borrow = self.borrowable(state, seat)
        if p is not None and p.tickets == tickets and p.borrow == borrow:
            if p.claims is claims:
                return p
            small = state.n_players < self.t.small_twin
            twins = self.t.twins
            keep = []
            for i in p.routes:
                owner = claims[i]
                if owner == seat:
                    continue
                if owner != FREE:
                    keep = None
                    break
                for j in twins[i]:
                    o = claims[j]
                    if o == seat or (small and o != FREE):
                        keep = None
                        break
                if keep is None:
                    break
                keep.append(i)
            if keep is not None:
                if len(keep) == len(p.routes):        # nothing on the plan changed: what it derived stands
                    q = Plan(tickets, claims, p.routes, p.reasons, p.cost, p.done, p.impossible, borrow)
                    q._order, q._need, q._greedy = p._order, p._need, p._greedy
                else:                                 # the seat claimed some: a ticket may just have been joined
                    left = {p.reasons[i] for i in keep}
                    done = tuple(x for x in p.tickets if x not in left and x not in p.impossible)
                    cost = sum(self.t.length[i] for i in keep)
                    q = Plan(tickets, claims, keep, p.reasons, cost, done, p.impossible, borrow)
                    if p._order is not None:
                        q._order = [i for i in p._order if claims[i] != seat]
                self.plans[seat] = q
                return q
        p = self._fresh_plan(state, seat, borrow)
        self.plans[seat] = p
        return p

    def borrowable(self, state: GameState, seat: int) -> frozenset:
        """Routes of others the seat's plan may use as its own (Europe's stations), as the variant's hooks say."""
        borrowers = self.borrowers
        if not borrowers:
            return _NOTHING
        if len(borrowers) == 1:                 # a frozenset of a frozenset is the same object: no copy
            return frozenset(borrowers[0].bot_borrowable(self.v, state, seat))
        return frozenset().union(*(f.bot_borrowable(self.v, state, seat) for f in borrowers))

    def _fresh_plan(self, state: GameState, seat: int, borrow: frozenset) -> Plan:
        """``make_plan`` for the seat's tickets, looked up in ``shared`` first: the playouts of one position (each
        candidate on the same sample) meet the same claims again and again, and ``make_plan`` is a function of
        the claims, the seat, its tickets and ``borrow`` (the game and the player count being the position's)."""
        shared = self.shared
        if shared is None:
            return make_plan(self.t, state, seat, borrow=borrow)
        key = (state.claims, seat, state.players[seat].tickets, borrow)
        p = shared.get(key)
        if p is None:
            p = shared[key] = make_plan(self.t, state, seat, borrow=borrow)
        return p

    # -- choosing ----------------------------------------------------------------------------------
    def choose(self, state: GameState, seat: int):
        action = self._choose(state, seat)
        if self.improvers:                   # e.g. South Korea's express cards and province trains
            def needs(route) -> int:         # the trains this seat's tickets still need besides ``route``
                plan = self.plan(state, seat)
                return plan.cost - (route.length if route.index in plan.routes else 0)
            for f in self.improvers:
                action, _ = f.bot_improve(self.v, state, seat, action, "", needs)
        return action

    def _choose(self, state: GameState, seat: int):
        pending = state.pending_for(seat) if state.pending else None
        if pending is not None:
            if pending.kind == "choose_tickets":
                return self.keep(state, seat, pending)
            if pending.kind != "second_card":
                return self._feature_pending(state, seat, pending)
        v, t = self.v, self.t
        p = state.players[seat]
        plan = self.plan(state, seat)
        hand = p.hand
        if pending is None:
            locos = hand[LOCO] + (sum(hand[LOCO + 1:]) if len(hand) > LOCO + 1 else 0)
            top = max(hand[:LOCO])
            trains = p.trains
            colour, length = t.colour, t.length
            for i in plan.claim_order(t):
                n = length[i]
                c = colour[i]
                if n > trains or (top if c < 0 else hand[c]) + locos < n:
                    continue
                pay = self.payment(state, i, hand, plan)
                if pay is not None and self._claim_ok(state, seat, i, pay):
                    return Claim(route=t.labels[i], payment=pay, seat=seat)
            if self.turners:
                gplan = self.greedy_plan(plan)
                for f in self.turners:
                    choice = f.bot_turn(v, state, seat, gplan)
                    if choice is not None:
                        return choice[0]
            endgame = state.phase == "last_round" or p.trains <= 6
            if not plan.routes or endgame:
                best = self.longest_claim(state, seat, plan)
                if best is not None and (endgame or t.length[best[0]] >= 3 or not state.deck):
                    return Claim(route=t.labels[best[0]], payment=best[1], seat=seat)
                if (not plan.routes and p.trains >= (self.TICKET_TRAINS if seat == self.prudent else 12)
                        and state.phase == "play" and v.settings.ticket_deck
                        and state.ticket_deck(v.settings.ticket_deck)):
                    return DrawTickets(seat=seat)
        return self.draw(state, seat, plan, second=pending is not None)

    def _claim_ok(self, state, seat, i, pay) -> bool:
        if self.claim_checks:
            route = self.v.map.routes[i]
            if any(not f.bot_claim_ok(self.v, state, seat, route, pay) for f in self.claim_checks):
                return False
        if self.t.twins[i] and twin_problem(self.v, state, seat, self.v.map.routes[i]) is not None:
            return False
        return True

    def needed(self, plan: Plan) -> dict[int, int]:
        return plan.need(self.t)[0]

    def payment(self, state: GameState, i: int, hand, plan: Plan):
        """The payment ``GreedyBot`` would choose: fewest locomotives, then the colour the plan needs least (then
        the lower colour), as the minimum of ``route_payments``' list by that key. With locomotives the only wild
        card that list is, per colour, the most cards of it down to the fewest the locomotives allow (none below
        a ferry's minimum of locomotives), then all locomotives: its best is made here without listing it."""
        t = self.t
        if self.extra_wilds:                     # Märklin's +4 cards: payments mixing two kinds of wild card
            pays = route_payments(self.v, self.v.map.routes[i], hand)
            if not pays:
                return None
            if len(pays) == 1:
                return pays[0]
            need = self.needed(plan)
            return min(pays, key=lambda pay: (dict(pay).get(LOCO, 0), sum(need.get(k, 0) for k, _ in pay if k != LOCO),
                                              pay))
        n = t.length[i]
        locos = hand[LOCO]
        least = self.min_locos[i]
        if locos < least:
            return None
        low = n - locos if n - locos > 1 else 1      # the fewest cards of a colour the locomotives allow
        most = n - least                             # the most cards of a colour the route takes
        c = t.colour[i]
        if c >= 0:
            k = hand[c] if hand[c] < most else most
            if k >= low:
                return payment_of(c, k, n - k)
        else:
            best_k, ties = 0, []
            for col in range(LOCO):
                k = hand[col] if hand[col] < most else most
                if k >= low and k >= best_k:
                    if k > best_k:
                        best_k, ties = k, [col]
                    else:
                        ties.append(col)
            if ties:
                col = ties[0]
                if len(ties) > 1:
                    need = self.needed(plan)
                    col = min(ties, key=lambda x: (need.get(x, 0), x))
                return payment_of(col, best_k, n - best_k)
        return payment_of(0, 0, n) if locos >= n else None

    def longest_claim(self, state: GameState, seat: int, plan: Plan):
        """The longest route ``seat`` may claim and pay now (ties: route id), with its payment, or None."""
        t = self.t
        p = state.players[seat]
        hand = p.hand
        claims = state.claims
        small = state.n_players < t.small_twin
        locos = hand[LOCO] + (sum(hand[LOCO + 1:]) if len(hand) > LOCO + 1 else 0)
        best_colour = max(hand[:LOCO])
        for i in t.by_length_desc:
            n = t.length[i]
            if claims[i] != FREE or n > p.trains:
                continue
            c = t.colour[i]
            if (best_colour if c < 0 else hand[c]) + locos < n:
                continue
            tw = t.twins[i]
            if tw and any(claims[j] == seat or (small and claims[j] != FREE) for j in tw):
                continue
            pay = self.payment(state, i, hand, plan)
            if pay is not None and self._claim_ok(state, seat, i, pay):
                return i, pay
        return None

    def draw(self, state: GameState, seat: int, plan: Plan, second: bool):
        """``GreedyBot._draw``: a face-up card the plan is short of (never a locomotive), else the deck."""
        if not state.deck and not any(state.discard):
            return self._fallback(state, seat)
        hand = state.players[seat].hand
        need, gray = plan.need(self.t)
        slot, most = -1, 0                       # the first face-up card of the colour the plan is shortest of
        if need:
            for i, c in enumerate(state.market):
                if c is not None and c < LOCO:
                    short = need.get(c, 0) - hand[c]
                    if short > most:
                        slot, most = i, short
        if slot < 0 and gray:                    # else, for a gray route, the first of the colour held most
            top = max(hand[:LOCO])
            for i, c in enumerate(state.market):
                if c is not None and c < LOCO and hand[c] == top:
                    slot = i
                    break
        if slot >= 0:
            return draw_faceup_action(slot + 1, seat)
        return draw_deck_action(seat)

    def keep(self, state: GameState, seat: int, pending):
        """``GreedyBot._keep``, with the fast planner: the kept set with the best points for the trains it needs."""
        t = self.t
        offered = pending.get("offered")
        need = min(pending.get("min_keep"), len(offered))
        p = state.players[seat]
        borrow = self.borrowable(state, seat)
        memo: dict = {}                      # the combinations share most of their paths
        base_plan = make_plan(t, state, seat, borrow=borrow, memo=memo)
        current = [x for x in p.tickets if x not in base_plan.done]
        base = base_plan.cost if current else 0
        best = None
        for size in range(need, len(offered) + 1):
            for combo in combinations(offered, size):
                plan = make_plan(t, state, seat, current + list(combo), borrow=borrow, memo=memo)
                if plan.impossible and any(x in plan.impossible for x in combo):
                    value = -1000 * len(plan.impossible)
                else:
                    points = sum(t.ticket[x][2] for x in combo)
                    over = max(0, plan.cost - (p.trains - (self.SPARE if seat == self.prudent else 5)))
                    value = points - 0.55 * (plan.cost - base) - 3 * over
                key = (value, -size, combo)
                if best is None or key > best[0]:
                    best = (key, combo)
        combo = best[1]
        return KeepTickets(tickets=tuple(t.ticket_text[x] for x in combo), seat=seat)

    # -- what the variant adds ----------------------------------------------------------------------
    def greedy_plan(self, plan: Plan):
        if plan._greedy is None:             # a plan lasts several turns: its hooks' view is made once
            from ..bots import Plan as GreedyPlan
            t = self.t
            plan._greedy = GreedyPlan(tuple(t.ids[i] for i in plan.routes),
                                      {t.ids[i]: t.ticket_text[plan.reasons[i]] for i in plan.routes}, plan.cost,
                                      plan.impossible)
        return plan._greedy

    def _feature_pending(self, state, seat, pending):
        for f in self.features:
            if pending.kind in f.pending_kinds and hasattr(f, "bot_pending"):
                return f.bot_pending(self.v, state, pending)[0]
        return self._fallback(state, seat)

    @staticmethod
    def _fallback(state, seat):
        acts = legal_actions(state, seat)
        for a in acts:
            if isinstance(a, DrawFaceUp | DrawDeck | Claim):
                return a
        return acts[0] if acts else Pass(seat=seat)


class CardPolicy:
    """The Card Game's playout policy: its greedy bot (``ttr_nb.cardgame.bots``), which is fast already."""

    def __init__(self, seed: int = 0):
        from ..cardgame.bots import GreedyBot
        self.bot = GreedyBot(seed)

    def choose(self, state, seat: int):
        return self.bot.choose(state, seat)[0]


def policy_for(state, seed: int = 0, *, prudent: int | None = None, shared: dict | None = None):
    """A fresh playout policy for the game of ``state`` (``prudent``: the seat that plays like the coach, see
    BoardPolicy; ``shared``: a dict of plans shared by the playouts of one position, see
    ``BoardPolicy._fresh_plan``)."""
    if state.__class__ is GameState:
        return BoardPolicy(get_variant(state.variant), prudent, shared)
    return CardPolicy(seed)


__all__ = ["BoardTables", "tables", "path_cost", "Plan", "make_plan", "BoardPolicy", "CardPolicy", "policy_for"]
