"""Four playing styles to play against, after the four agents of AI playtesting for Ticket to Ride (de Mesentier
Silva, Lee, Togelius and Nealen, 2017): each a style a learner can name, recognise and beat.

* ``route_focus`` — goes straight for its tickets: keeps only tickets that fit one network, claims every route of
  its paths as soon as it can pay, the ones with the fewest ways around first; never draws more tickets.
* ``destination_hungry`` — collects tickets: keeps every ticket it can still join, and draws new ones whenever its
  paths are nearly done and trains remain.
* ``long_route`` — builds long: saves up one colour and claims the longest routes (5 and 6 spaces) for their big
  points and the longest-path bonus; keeps the tickets that lie along them.
* ``one_step`` — thinks one move ahead: claims whatever route scores most right now, else takes the card of the
  colour it holds most of; keeps the tickets worth the most points.

They are not the coach's playout policy (the greedy bot's plan), so the coach does not model them exactly: the
benchmark plays the coach against each (``benchmarks/bench_coach.py``). Like every bot: ``choose(state, seat) ->
(action, reason)``, stateless and seeded, the reason in a learner's words (``Reason``: its public part names no
ticket and no hand card). Steps a variant adds (tunnels, stations, passengers, the South Korean draft) are played
as the greedy bot plays them. The Card Game has no board: for it these styles defer to its own bots' error.
"""
from __future__ import annotations

from itertools import combinations

from ..board.actions import Claim, DrawTickets, KeepTickets
from ..bots import GreedyBot, Reason
from ..board.cards import COLOURS, LOCO
from ..board.engine import draw_faceup_action
from ..board.names import ticket_words
from ..rng import Counter
from ..board.state import FREE, GameState
from ..variants import bots_of, get_variant
from .policy import BoardPolicy, make_plan, path_cost


class StyleBot:
    """The shared frame: pending steps, payments, draws; each style decides its keeps and its turns."""

    name = "style"
    words = ""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._greedy = GreedyBot(seed)

    def choose(self, state, seat: int):
        if state.__class__ is not GameState:
            return bots_of(state)(self.name, self.seed).choose(state, seat)
        v = get_variant(state.variant)
        pol = BoardPolicy(v)
        pending = state.pending_for(seat) if state.pending else None
        if pending is not None and pending.kind == "choose_tickets":
            return self.keep(pol, state, seat, pending)
        if pending is not None and pending.kind != "second_card":
            return self._greedy.choose(state, seat)
        plan = pol.plan(state, seat)
        if pending is None:
            choice = self.turn(pol, state, seat, plan)
            if choice is not None:
                return choice
        return self.draw(pol, state, seat, plan, second=pending is not None)

    # -- shared pieces ---------------------------------------------------------------------------------
    def claim(self, pol: BoardPolicy, state, seat: int, i: int, plan, why: str, public: str):
        pay = pol.payment(state, i, state.players[seat].hand, plan)
        if pay is None or not pol._claim_ok(state, seat, i, pay):
            return None
        label = pol.t.labels[i]
        return Claim(route=label, payment=pay, seat=seat), Reason(why.format(route=label), public.format(route=label))

    def claim_first(self, pol: BoardPolicy, state, seat: int, plan, order, why: str):
        """The first route of ``order`` (route indices) that ``seat`` can claim now; ``why`` names the route as
        ``{route}`` and its ticket as ``{ticket}``."""
        t = pol.t
        for i in order:
            if t.length[i] <= state.players[seat].trains:
                got = self.claim(pol, state, seat, i, plan,
                                 why.replace("{ticket}", t.ticket_text[plan.reasons[i]]), "claims {route}")
                if got is not None:
                    return got
        return None

    def affordable(self, pol: BoardPolicy, state, seat: int, plan) -> list[int]:
        """Free routes ``seat`` may claim and pay now (route order)."""
        t = pol.t
        p = state.players[seat]
        claims = state.claims
        small = state.n_players < t.small_twin
        hand = p.hand
        locos = hand[LOCO] + sum(hand[LOCO + 1:])
        out = []
        for i in range(t.n_routes):
            n = t.length[i]
            if claims[i] != FREE or n > p.trains:
                continue
            c = t.colour[i]
            if (max(hand[:LOCO]) if c < 0 else hand[c]) + locos < n:
                continue
            if t.twins[i] and any(claims[j] == seat or (small and claims[j] != FREE) for j in t.twins[i]):
                continue
            if pol.payment(state, i, hand, plan) is not None:
                out.append(i)
        return out

    def draw(self, pol: BoardPolicy, state, seat: int, plan, second: bool):
        """Draw for the plan (a face-up colour it is short of, else blind): the greedy bot's way."""
        action = pol.draw(state, seat, plan, second)
        if action.__class__.__name__ == "DrawFaceUp":
            card = state.market[action.slot - 1]
            took = f"takes face-up {COLOURS[card]}"
            return action, Reason(f"{took}: its path needs it", took)
        if action.__class__.__name__ == "DrawDeck":
            return action, Reason("draws blind: no face-up card helps", "draws blind")
        return action, Reason("takes what is left")

    def keep_best(self, pol: BoardPolicy, state, seat: int, pending, value):
        """The offered subset (at least the minimum) with the best ``value(combo, plan)``."""
        t = pol.t
        offered = pending.get("offered")
        need = min(pending.get("min_keep"), len(offered))
        p = state.players[seat]
        best = None
        for size in range(need, len(offered) + 1):
            for combo in combinations(offered, size):
                plan = make_plan(t, state, seat, list(p.tickets) + list(combo))
                if any(x in plan.impossible for x in combo):
                    score = -1000 * sum(1 for x in combo if x in plan.impossible)
                else:
                    score = value(combo, plan, p)
                key = (score, -size, combo)
                if best is None or key > best[0]:
                    best = (key, combo)
        combo = best[1]
        names = tuple(t.ticket_text[x] for x in combo)
        n = len(combo)
        return KeepTickets(tickets=names, seat=seat), Reason(
            f"keeps {ticket_words(get_variant(state.variant).map, combo)}: {self.keep_words}",
            f"keeps {n} ticket{'s' if n != 1 else ''}")

    keep_words = ""

    def keep(self, pol, state, seat, pending):
        raise NotImplementedError

    def turn(self, pol, state, seat, plan):
        raise NotImplementedError


def _alternatives(t, state, seat: int, i: int) -> int:
    """How many trains more the cheapest way around route ``i`` costs (a large number: it is a bottleneck)."""
    claims = list(state.claims)
    claims[i] = -3                                   # pretend someone else took it
    small = state.n_players < t.small_twin
    found = path_cost(t, tuple(claims), seat, small, (), t.a[i], t.b[i])
    return 99 if found is None else found[0] - t.length[i]


class RouteFocus(StyleBot):
    name = "route_focus"
    words = "goes straight for its tickets: claims its paths' routes early, the ones with no way around first"
    keep_words = "they need the fewest extra trains for their points"

    def keep(self, pol, state, seat, pending):
        base = make_plan(pol.t, state, seat).cost

        def value(combo, plan, p):
            extra = plan.cost - base
            over = max(0, plan.cost - (p.trains - 8))
            return sum(pol.t.ticket[x][2] for x in combo) - 0.9 * extra - 5 * over
        return self.keep_best(pol, state, seat, pending, value)

    def turn(self, pol, state, seat, plan):
        t = pol.t
        p = state.players[seat]
        order = sorted(plan.routes, key=lambda i: (-_alternatives(t, state, seat, i), t.length[i], t.ids[i]))
        got = self.claim_first(pol, state, seat, plan, order,
                               "claims {route} early: its path for {ticket} has no cheap way around it")
        if got is not None:
            return got
        if not plan.routes or p.trains <= 6 or state.phase == "last_round":
            best = pol.longest_claim(state, seat, plan)
            if best is not None and (t.length[best[0]] >= 3 or p.trains <= 6 or state.phase == "last_round"):
                return self.claim(pol, state, seat, best[0], plan, "claims {route}: its tickets are done, so points",
                                  "claims {route}")
        return None


class DestinationHungry(StyleBot):
    name = "destination_hungry"
    words = "collects tickets: keeps all it can join and draws more whenever its paths are nearly done"
    keep_words = "it keeps every ticket it can still join"

    def keep(self, pol, state, seat, pending):
        def value(combo, plan, p):
            over = max(0, plan.cost - (p.trains - 3))
            return sum(pol.t.ticket[x][2] for x in combo) - 0.3 * plan.cost - 4 * over
        return self.keep_best(pol, state, seat, pending, value)

    def turn(self, pol, state, seat, plan):
        t = pol.t
        v = pol.v
        p = state.players[seat]
        got = self.claim_first(pol, state, seat, plan, plan.claim_order(t), "claims {route}: on its path for {ticket}")
        if got is not None:
            return got
        spare = p.trains - plan.cost
        if (plan.cost <= 4 and spare >= 10 and state.phase == "play" and v.settings.ticket_deck
                and state.ticket_deck(v.settings.ticket_deck)):
            return DrawTickets(seat=seat), Reason(f"its paths need only {plan.cost} more trains and it has "
                                                  f"{p.trains}: hungry for more tickets", "draws new tickets")
        if p.trains <= 6 or state.phase == "last_round":
            best = pol.longest_claim(state, seat, plan)
            if best is not None:
                return self.claim(pol, state, seat, best[0], plan, "claims {route} for points before the end",
                                  "claims {route}")
        return None


class LongRoute(StyleBot):
    name = "long_route"
    words = "builds long: saves up cards and claims the longest routes for big points and the longest path"
    keep_words = "they lie along long routes"

    def keep(self, pol, state, seat, pending):
        t = pol.t

        def value(combo, plan, p):
            longs = sum(1 for i in plan.routes if t.length[i] >= 4)
            return sum(t.ticket[x][2] for x in combo) - 0.6 * plan.cost + 3 * longs - 5 * max(0, plan.cost - p.trains + 10)
        return self.keep_best(pol, state, seat, pending, value)

    def turn(self, pol, state, seat, plan):
        t = pol.t
        p = state.players[seat]
        routes = self.affordable(pol, state, seat, plan)
        mine = {i for i in range(t.n_routes) if state.claims[i] == seat}
        cities = {t.a[i] for i in mine} | {t.b[i] for i in mine}

        def key(i):
            touches = t.a[i] in cities or t.b[i] in cities
            return (t.length[i] + (1 if touches else 0) + (1 if i in plan.reasons else 0), t.ids[i])
        long_ones = [i for i in routes if t.length[i] >= 5 or (t.length[i] >= 4 and i in plan.reasons)]
        if long_ones:
            i = max(long_ones, key=key)
            return self.claim(pol, state, seat, i, plan,
                              f"claims {{route}}: {t.length[i]} trains for {t.points[i]} points, a long stretch for "
                              "the longest path", "claims {route}")
        endgame = p.trains <= 8 or state.phase == "last_round" or not state.deck
        if endgame or p.hand_size >= 14:
            got = self.claim_first(pol, state, seat, plan, plan.claim_order(t), "claims {route} for {ticket}")
            if got is not None:
                return got
            if routes:
                i = max(routes, key=key)
                return self.claim(pol, state, seat, i, plan, "claims {route}: the longest it can pay now",
                                  "claims {route}")
        return None

    def draw(self, pol, state, seat, plan, second):
        """Saves up one colour: the face-up card of the colour it holds most of (a long route's colour), else blind."""
        hand = state.players[seat].hand
        best = None
        for i, c in enumerate(state.market):
            if c is None or c >= LOCO:
                continue
            if best is None or (hand[c], -i) > (hand[best[1]], -best[0]):
                best = (i, c)
        if best is not None and hand[best[1]] >= 2 and (state.deck or any(state.discard)):
            took = f"takes face-up {COLOURS[best[1]]}"
            return draw_faceup_action(best[0] + 1, seat), Reason(f"{took}: saving up for a long route", took)
        return super().draw(pol, state, seat, plan, second)


class OneStep(StyleBot):
    name = "one_step"
    words = "thinks one move ahead: claims whatever scores most now, else takes more of its biggest colour"
    keep_words = "they are worth the most points"

    def keep(self, pol, state, seat, pending):
        def value(combo, plan, p):
            return sum(pol.t.ticket[x][2] for x in combo) - 0.2 * plan.cost - 2 * max(0, plan.cost - p.trains)
        return self.keep_best(pol, state, seat, pending, value)

    def turn(self, pol, state, seat, plan):
        """The claim that scores most this turn: a route of its paths when it can pay one (most points first),
        else any route of 4 or more spaces (7+ points); near the end, anything."""
        t = pol.t
        routes = self.affordable(pol, state, seat, plan)
        if not routes:
            return None
        mine = [i for i in routes if i in plan.reasons]
        if mine:
            i = max(mine, key=lambda i: (t.points[i], t.ids[i]))
            return self.claim(pol, state, seat, i, plan,
                              f"claims {{route}}: {t.points[i]} points right now, on its path for "
                              f"{t.ticket_text[plan.reasons[i]]}", "claims {route}")
        i = max(routes, key=lambda i: (t.points[i], t.ids[i]))
        if t.length[i] >= 4 or state.players[seat].trains <= 6 or state.phase == "last_round" or not plan.routes:
            return self.claim(pol, state, seat, i, plan,
                              f"claims {{route}}: {t.points[i]} points right now, the most it can score this turn",
                              "claims {route}")
        return None

    def draw(self, pol, state, seat, plan, second):
        hand = state.players[seat].hand
        r = Counter(self.seed, seat, state.ply, state.seed, 7)
        best = None
        for i, c in enumerate(state.market):
            if c is None or c >= LOCO:
                continue
            if best is None or hand[c] > hand[best[1]]:
                best = (i, c)
        if best is not None and (state.deck or any(state.discard)) and (hand[best[1]] > 0 or r.random() < 0.5):
            took = f"takes face-up {COLOURS[best[1]]}"
            return draw_faceup_action(best[0] + 1, seat), Reason(f"{took}: more of the colour it holds most", took)
        return super().draw(pol, state, seat, plan, second)


STYLES = {cls.name: cls for cls in (RouteFocus, DestinationHungry, LongRoute, OneStep)}

__all__ = ["STYLES", "StyleBot", "RouteFocus", "DestinationHungry", "LongRoute", "OneStep"]
