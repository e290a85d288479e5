"""The coach's reasons: one sentence per move in a learner's words, from the seat's view only.

A reason says what the move does for the seat's tickets (on the path of which ticket, or the last route it
needed), what it takes from the others (a route another seat's claims point to, a rail-yard stack it robs) and
what it risks (locomotives spent, trains running low, tickets that often stay unjoined, a route on the seat's
path the others took in the playouts while it drew). Cities are named, never ids, and the numbers come from the
search's playouts. Inputs: the seat's own tickets and hand, the public board, and the search statistics — all of
which the seat may see.
"""
from __future__ import annotations

from ..board.actions import Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass
from ..board.cards import COLOURS, LOCO, card_word
from ..board.engine import describe, seat_name
from ..board.state import GameState


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def _list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _cards(pay) -> str:
    from ..board.actions import payment_words
    return payment_words(pay)


def action_words(state, action, seat: int) -> str:
    """The move in the second person: 'claim Denver–Omaha with 4 red', 'take the face-up red card'."""
    if _claims_route(action) and state.__class__ is GameState:
        from ..variants import get_variant
        from ..board.names import find_route
        v = get_variant(state.variant)
        r = find_route(v.map, action.route)
        verb = "try the tunnel" if getattr(r, "tunnel", False) else "claim"
        extra = action.extra_words(v, state) if hasattr(action, "extra_words") else ""
        return f"{verb} {r.a}–{r.b} with {_cards(action.payment)}" + (f", {extra}" if extra else "")
    if isinstance(action, DrawDeck):
        return "draw a card from the deck"
    if isinstance(action, DrawFaceUp):
        card = state.market[action.slot - 1]
        return f"take the face-up {'locomotive' if card == LOCO else card_word(card) + ' card'}"
    if isinstance(action, DrawTickets):
        return "draw destination tickets"
    if isinstance(action, KeepTickets):
        return "keep " + (_list(list(action.tickets)) if action.tickets else "no tickets")
    if isinstance(action, Pass):
        return "pass"
    name = type(action).__name__
    if name == "PlayYard":
        return f"play {_cards(action.payment)} into your rail yard"
    if name == "MoveToTrack":
        return "move the top card of each rail-yard stack on to your track (step 1)"
    if name == "CompleteTicket":
        return f"complete {action.ticket}" if action.ticket else "complete no more tickets"
    text = describe(state, action, seat)
    who = seat_name(seat) + " "
    text = text[len(who):] if text.startswith(who) else text
    verb, _, rest = text.partition(" ")
    return f"{_second_person(verb)} {rest}".strip()


def _second_person(verb: str) -> str:
    """'moves' -> 'move', 'tries' -> 'try', 'passes' -> 'pass' (the engine describes a seat's move in the third
    person; the coach speaks to the player)."""
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith("es") and verb[:-2].endswith(("s", "sh", "ch", "x", "z")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def _claims_route(action) -> bool:
    """A claim, or a variant's claim with more to it (South Korea's province train): it names a route and a payment."""
    return isinstance(action, Claim) or (isinstance(getattr(action, "route", None), str)
                                         and isinstance(getattr(action, "payment", None), tuple))


class Context:
    """What the reasons may use: the seat's view of the position and the search's numbers."""

    def __init__(self, state, seat: int, result, needs: dict, plan):
        self.state = state
        self.seat = seat
        self.result = result
        self.needs = needs            # other seat -> {route index: share of samples with it on that seat's plan}
        self.plan = plan              # the seat's own plan (ttr_nb.coach.policy.Plan) or None (Card Game)


def board_reason(ctx: Context, stats) -> str:
    """The why-sentence of one candidate on a board."""
    from ..variants import get_variant
    from .policy import tables
    state, seat = ctx.state, ctx.seat
    v = get_variant(state.variant)
    t = tables(v)
    m = v.map
    p = state.players[seat]
    action = stats.action
    parts: list[str] = []
    risks: list[str] = []
    plan = ctx.plan
    tickets = ctx.result.tickets
    joined = _joined_rates(stats, tickets)
    if _claims_route(action):
        from ..board.names import find_route
        i = find_route(m, action.route).index
        served = sorted({plan.reasons[j] for j in plan.routes if j == i}) if plan else []
        if served:
            tid = served[0]
            left = [j for j in plan.routes if plan.reasons[j] == tid and j != i]
            name = t.ticket_text[tid]
            if not left:
                parts.append(f"it is the last route {name} needs")
            else:
                parts.append(f"it is on your path for {name}")
        else:
            pts = t.points[i]
            parts.append(f"no ticket of yours needs it, but it scores {pts} point{'s' if pts != 1 else ''} for "
                         f"{t.length[i]} train{'s' if t.length[i] != 1 else ''}")
        for o, share in sorted(ctx.needs.items()):
            s = share.get(i, 0.0)
            if s >= 0.4:
                name = seat_name(o)
                parts.append(f"it blocks {name}: it is on {name}'s path in {_pct(s)} of the coach's guesses at "
                             f"{name}'s tickets")
        if getattr(action, "line", ""):              # South Korea: a train on the province board too
            parts.append(f"it also puts a train on the {action.line} province line, which scores at the end if "
                         "you lead that line")
        elif hasattr(action, "extra_words"):        # another variant's addition to a claim
            parts.append(f"it also adds {action.extra_words(v, state)}")
        route = m.routes[i]
        if getattr(route, "tunnel", False):
            from ..games.europe import tunnel_odds
            odds = tunnel_odds(state, seat, route.id, action.payment)
            extra = 1 - float(odds.exact[0])
            risks.append(f"the turned-up cards ask for more in {_pct(extra)} of cases, and you finish the tunnel "
                         f"in {_pct(float(odds.can_pay))} of all cases (else you take your cards back and lose "
                         "the turn)")
        locos = dict(action.payment).get(LOCO, 0)
        if locos:
            risks.append(f"it spends {locos} locomotive{'s' if locos != 1 else ''}")
        left_trains = p.trains - t.length[i]
        if left_trains <= 2 and state.phase == "play":
            risks.append(f"it leaves you {left_trains} train{'s' if left_trains != 1 else ''}, which starts the "
                         "final round")
        elif left_trains < 6:
            risks.append(f"it leaves you only {left_trains} trains")
    elif isinstance(action, DrawFaceUp | DrawDeck):
        card = state.market[action.slot - 1] if isinstance(action, DrawFaceUp) else None
        need = {}
        if plan:
            for j in plan.routes:
                c = t.colour[j]
                if c >= 0:
                    need[c] = need.get(c, 0) + t.length[j]
        if card is not None and card < len(COLOURS) and need.get(card, 0) > p.hand[card]:
            short = need[card] - p.hand[card]
            tid = next((plan.reasons[j] for j in plan.routes if t.colour[j] == card), None)
            parts.append(f"your path{' for ' + t.ticket_text[tid] if tid else ''} still needs {short} more "
                         f"{COLOURS[card]}")
        elif card == LOCO:
            parts.append("a locomotive pays for any colour, but it is your whole turn")
        elif card is not None:
            parts.append(f"{card_word(card)} cards help with gray routes or later plans")
        elif plan and plan.routes:
            parts.append("no face-up card is a colour your path needs, so a blind card is the better chance")
        else:
            parts.append("more cards keep your options open")
        lost = _taken_from_path(ctx, stats)
        if lost:
            risks.append(lost)
    elif isinstance(action, DrawTickets):
        parts.append(f"you have {p.trains} trains left for new tickets")
        risks += _ticket_risk(stats, "unjoined")
    elif isinstance(action, KeepTickets):
        from ..board.names import find_ticket
        ids = [find_ticket(m, x).id for x in action.tickets]
        from .policy import make_plan
        kept_plan = make_plan(t, state, seat, list(p.tickets) + ids)
        points = sum(t.ticket[x][2] for x in ids)
        parts.append(f"together they are worth {points} points and need about {kept_plan.cost} trains of your "
                     f"{p.trains}")
        shared = _shared_cities(t, ids)
        if shared:
            parts.append(f"they share {_list(shared)}")
        fail = _fail_rate(stats)
        if fail:
            risks.append(f"in {_pct(fail)} of the playouts at least one ticket stayed unjoined")
    else:
        parts.append(action_words(state, action, seat))
    if joined and not isinstance(action, KeepTickets | DrawTickets):
        weakest = min(joined.items(), key=lambda kv: kv[1])
        if weakest[1] < 0.6 and weakest[0] in t.ticket_text:
            risks.append(f"{t.ticket_text[weakest[0]]} is joined in only {_pct(weakest[1])} of the playouts")
    return _sentence(parts, risks)


def card_reason(ctx: Context, stats) -> str:
    """The why-sentence of one candidate in the Card Game."""
    from ..cardgame.actions import CompleteTicket, MoveToTrack, PlayYard
    from ..cardgame.data import load_cards
    state, seat = ctx.state, ctx.seat
    data = load_cards()
    p = state.players[seat]
    action = stats.action
    parts: list[str] = []
    risks: list[str] = []
    need = [0] * len(COLOURS)
    for tid in p.tickets:
        for c, n in enumerate(data.ticket(tid).needs[:len(COLOURS)]):
            need[c] += n
    if isinstance(action, PlayYard):
        pay = dict(action.payment)
        colours = [c for c in pay if c != LOCO]
        size = sum(pay.values()) if len(colours) == 1 else 1
        robbed = [seat_name(o) for o in range(state.n_players) if o != seat
                  for c in colours if state.players[o].stack(c)]
        parts.append(f"it banks {_cards(action.payment)} in your rail yard, one card a turn on to your track")
        if robbed:
            parts.append(f"it robs {_list(sorted(set(robbed)))}")
        for c in colours:
            top = max((state.players[o].hand_size for o in range(state.n_players) if o != seat), default=0)
            if len(colours) == 1 and size <= 3 and top >= size + 1:
                risks.append(f"a {size}-card {COLOURS[c]} stack can be robbed by a bigger one")
                break
        useful = [COLOURS[c] for c in colours if need[c]]
        if useful:
            parts.append(f"your tickets need {_list(useful)}")
    elif isinstance(action, DrawFaceUp | DrawDeck):
        card = state.market[action.slot - 1] if isinstance(action, DrawFaceUp) else None
        if card is not None and card < len(COLOURS) and need[card]:
            parts.append(f"your tickets need {need[card]} {COLOURS[card]} in all")
        elif card == LOCO:
            parts.append("a locomotive joins any stack, but it is your whole turn")
        else:
            parts.append("more cards in hand let you bank bigger stacks later")
    elif isinstance(action, DrawTickets):
        parts.append(f"{len(state.deck)} cards are left in the deck to complete new tickets")
        risks += _ticket_risk(stats, "open")
    elif isinstance(action, KeepTickets):
        ids = [data.find_ticket(x).id for x in action.tickets]
        points = sum(data.ticket(x).points for x in ids)
        parts.append(f"they are worth {points} points")
        fail = _fail_rate(stats)
        if fail:
            risks.append(f"in {_pct(fail)} of the playouts at least one stayed open")
    elif isinstance(action, CompleteTicket):
        parts.append("it completes " + action.ticket if action.ticket else "nothing more can be completed to profit")
    elif isinstance(action, MoveToTrack):
        parts.append("step 1 of every turn: the top card of each stack goes on to your track")
    else:
        parts.append(action_words(state, action, seat))
    return _sentence(parts, risks)


def _sentence(parts: list[str], risks: list[str]) -> str:
    text = "; ".join(parts) if parts else "it keeps your plan going"
    if risks:
        text += "; risk: " + _list(risks)
    return text[0].upper() + text[1:] + "."


def _joined_rates(stats, tickets) -> dict[str, float]:
    n = stats.n
    if not n or not tickets:
        return {}
    out = {}
    for k, tid in enumerate(tickets):
        out[tid] = sum(1 for r in stats.results.values() if k < len(r.joined) and r.joined[k]) / n
    return out


def _fail_rate(stats) -> float | None:
    if not stats.n:
        return None
    return sum(1 for r in stats.results.values() if r.failed) / stats.n


def _ticket_risk(stats, word: str) -> list[str]:
    """'in 24% of the playouts a ticket stayed unjoined and cost points' (empty without playouts)."""
    fail = _fail_rate(stats)
    return [] if fail is None else [f"in {_pct(fail)} of the playouts a ticket stayed {word} and cost points"]


def _taken_from_path(ctx: Context, stats) -> str:
    """'Red took Denver–Omaha, on your path, in 30% of the playouts' when that happened often while drawing."""
    if not ctx.plan or not ctx.plan.routes or not stats.n:
        return ""
    from ..variants import get_variant
    from .policy import tables
    t = tables(get_variant(ctx.state.variant))
    mine = {t.labels[j] for j in ctx.plan.routes}
    counts: dict[tuple[int, str], int] = {}
    for r in stats.results.values():
        for who, label in set(r.early_claims):
            if label in mine:
                counts[(who, label)] = counts.get((who, label), 0) + 1
    if not counts:
        return ""
    (who, label), k = max(counts.items(), key=lambda kv: (kv[1], kv[0][1]))
    share = k / stats.n
    if share < 0.2:
        return ""
    return f"{seat_name(who)} took {label}, on your path, in {_pct(share)} of the playouts"


def _shared_cities(t, ids) -> list[str]:
    seen: dict[int, int] = {}
    for x in ids:
        a, b, _ = t.ticket[x]
        for c in (a, b):
            seen[c] = seen.get(c, 0) + 1
    return [t.cities[c] for c, k in sorted(seen.items()) if k > 1]


__all__ = ["action_words", "Context", "board_reason", "card_reason"]
