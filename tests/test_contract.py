"""The contract every registered variant keeps (DESIGN.md, "Tests"), over every variant × 2..5 players × seeds:

* bot games (random, greedy, mixed) finish within a ply bound, and ``validate`` finds nothing after every ply;
* every action ``legal_actions`` lists applies (``apply``/``step`` agree, text and object agree, the result is
  valid) and its text round-trips through ``parse_action``;
* actions that are not listed raise ``IllegalAction``/``BadAction``, change nothing, and ``explain`` names the
  same error; listed ones have ``explain(...) is None``;
* cards, trains and tickets are conserved (by ``validate`` and by an independent count here);
* ``observe(state, seat)`` is the same for two states that differ only in what ``seat`` may not see, and does
  differ for the owner / the teacher view;
* bots and the engine are deterministic; ``GameState`` round-trips through ``to_dict``/``from_dict``/JSON.

Parametrised over ``available_variants()``, so a variant added to the registry is covered automatically.
The seeds marked ``slow`` add depth; ``-m "not slow"`` still covers every variant and player count.
"""
from __future__ import annotations

import functools
import json
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttr_nb import make_bot
from ttr_nb.board.actions import Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, parse_action
from ttr_nb.board.cards import LOCO
from ttr_nb.board.engine import Event, apply, explain, legal_actions, new_game, observe, route_payments, step, to_move, validate
from ttr_nb.errors import BadAction, IllegalAction, TTRError
from ttr_nb.board.names import route_text, ticket_text
from ttr_nb.board.scoring import score
from ttr_nb.board.state import FREE, GameState, pairs_set, replace_fields
from ttr_nb.variants import available_variants, get_variant

VARIANTS = available_variants()
MAX_PLIES = 3000           # a real game takes 150–450 plies; this bound only catches a game that never ends
BOT_SPECS = ("random", "greedy", "mixed:0.5")


def player_counts(variant: str) -> list[int]:
    st_ = get_variant(variant).settings
    return [n for n in range(2, 6) if st_.min_players <= n <= st_.max_players]


CASES = [(v, n) for v in VARIANTS for n in player_counts(v)]
CASE_IDS = [f"{v}-{n}p" for v, n in CASES]
SEEDS = [0, 1, pytest.param(2, marks=pytest.mark.slow), pytest.param(11, marks=pytest.mark.slow)]
# bot games: every bot on the fast seeds; the slow seeds add random games (greedy planning is the costly part)
GAMES = [(0, "random"), (0, "greedy"), (0, "mixed:0.5"), (1, "random"), (1, "greedy"), (1, "mixed:0.5"),
         pytest.param(2, "random", marks=pytest.mark.slow), pytest.param(11, "random", marks=pytest.mark.slow),
         pytest.param(2, "greedy", marks=pytest.mark.slow)]


def test_every_variant_is_covered():
    assert "usa" in VARIANTS
    for v in VARIANTS:
        assert player_counts(v), f"{v} allows no player count between 2 and 5"
        assert get_variant(v).key == v


# ------------------------------------------------------------------------------------------------ playing

@functools.lru_cache(maxsize=None)
def play(variant: str, n: int, seed: int, spec: str) -> tuple[tuple[GameState, ...], tuple[Action, ...]]:
    """A whole bot game: every state (index = ply) and every action. Cached: several tests read the same games."""
    return _play(variant, n, seed, spec)


def _play(variant: str, n: int, seed: int, spec: str):
    s = new_game(variant, n, seed)
    bots = [make_bot(spec, seed * 10 + i) for i in range(n)]
    states, actions = [s], []
    for _ in range(MAX_PLIES):
        if s.phase == "over":
            break
        seats = to_move(s)
        assert seats, f"nobody to move at ply {s.ply} in phase {s.phase}"
        seat = seats[s.ply % len(seats)]           # vary who answers first when several seats choose at once
        action, reason = bots[seat].choose(s, seat)
        assert isinstance(reason, str) and reason
        s = apply(s, action)
        states.append(s)
        actions.append(action)
    return tuple(states), tuple(actions)


def sample(states, count: int) -> list[GameState]:
    """About ``count`` states spread over the game, plus a few with a pending step after setup, and the last."""
    every = max(1, len(states) // count)
    picked = {i for i in range(0, len(states), every)} | {len(states) - 1}
    pending = [i for i, s in enumerate(states) if s.pending and s.phase != "setup"]
    picked |= set(pending[:: max(1, len(pending) // 4)][:4])
    return [states[i] for i in sorted(picked)]


# ------------------------------------------------------------------------------------------------ independent counts

def card_totals(v, s: GameState) -> list[int]:
    totals = [0] * v.card_kinds
    for c in s.deck:
        totals[c] += 1
    for c in s.market:
        if c is not None:
            totals[c] += 1
    for pile in (s.discard, *(p.hand for p in s.players)):
        for k, c in enumerate(pile):
            totals[k] += c
    for f in v.features:
        for c in f.held_cards(s):
            totals[c] += 1
    return totals


def check_conservation(v, s: GameState) -> None:
    assert card_totals(v, s) == list(v.deck_counts), f"cards not conserved at ply {s.ply}"
    on_board = [0] * s.n_players
    for length, owner in zip(v.route_table.length, s.claims):
        if owner != FREE:
            on_board[owner] += length
    for seat, p in enumerate(s.players):
        elsewhere = sum(f.trains_elsewhere(s, seat) for f in v.features)
        assert p.trains + on_board[seat] + elsewhere == v.settings.trains, f"seat {seat}'s trains at ply {s.ply}"
        assert p.trains >= 0
        assert all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in p.hand), p.hand
    ids = [t for _, deck in s.ticket_decks for t in deck] + list(s.tickets_out)
    ids += [t for p in s.players for t in p.tickets]
    ids += [t for q in s.pending if q.kind == "choose_tickets" for t in q.get("offered")]
    ids += [t for f in v.features for t, _ in f.held_tickets(s)]      # e.g. South Korea's draft hands
    assert sorted(ids) == sorted(t.id for t in v.map.tickets), f"tickets not conserved at ply {s.ply}"


# ------------------------------------------------------------------------------------------------ 1. games finish

@pytest.mark.parametrize("seed,spec", GAMES)
@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_bot_games_finish_and_stay_valid(variant, n, seed, spec):
    v = get_variant(variant)
    states, actions = play(variant, n, seed, spec)
    final = states[-1]
    assert final.phase == "over", f"not over after {len(actions)} plies (bound {MAX_PLIES})"
    assert len(actions) < MAX_PLIES
    assert to_move(final) == () and legal_actions(final) == []
    # validate() after EVERY ply of the random games (every 5th of the others) and at the end; independent counts
    every = 1 if spec == "random" else 5
    for i, s in enumerate(states):
        assert s.ply == i
        if i % every == 0 or i == len(states) - 1:
            assert validate(s) == [], f"ply {i}: {validate(s)}"
            check_conservation(v, s)
    # claims never change hands; the game never goes back a phase
    order = {"setup": 0, "play": 1, "last_round": 2, "over": 3}
    for a, b in zip(states, states[1:]):
        assert all(x == FREE or x == y for x, y in zip(a.claims, b.claims))
        assert order[a.phase] <= order[b.phase]
    # every action played has a text form that parses back to it (a game record is a list of texts)
    for a in actions:
        assert parse_action(str(a)) == a, f"{a!r} -> {str(a)!r} does not round-trip"
    # the bots only ever play listed actions (canonical: the same object legal_actions has)
    for s, a in list(zip(states, actions))[seed % 4::4]:
        assert a in legal_actions(s), f"bot played {a} which is not in legal_actions at ply {s.ply}"
    sheet = score(final)
    assert sheet is not None


# ------------------------------------------------------------------------------------------------ 2. legal actions apply

@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_every_legal_action_applies(variant, n, seed):
    v = get_variant(variant)
    states, _ = play(variant, n, seed, "random")
    checked = 0
    for s in sample(states, 15):
        legal = legal_actions(s)
        assert legal == legal_actions(s), "legal_actions is not deterministic"
        assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
        if s.phase == "over":
            assert legal == []
            continue
        assert legal, f"no legal action at ply {s.ply} ({s.phase})"
        seats = to_move(s)
        assert all(a.seat in seats for a in legal), "every listed action has its seat filled in"
        assert [a for seat in seats for a in legal_actions(s, seat)] == legal
        for other in set(range(n)) - set(seats):
            assert legal_actions(s, other) == []
        for a in legal:
            text = str(a)
            assert parse_action(text) == a, f"{text!r} does not round-trip"
            assert explain(s, a) is None
            s2, events = step(s, a)
            assert all(isinstance(e, Event) for e in events)
            assert s2 == apply(s, a) == apply(s, text)
            assert s2.ply == s.ply + 1
            assert validate(s2) == [], f"{text} at ply {s.ply}: {validate(s2)}"
            check_conservation(v, s2)
            checked += 1
    assert checked > 100


# ------------------------------------------------------------------------------------------------ 3. illegal actions

FULL = 99


def candidate_actions(v, s: GameState, legal: list[Action]) -> list[Action]:
    """A broad set of well-formed actions, most of them not legal here: other seats, other slots, claims of other
    routes and with other payments, keeps of non-offered tickets or too few, tickets, pass."""
    n = s.n_players
    actor = (to_move(s) or (s.current,))[0]
    seats = sorted({actor, (actor + 1) % n, (actor - 1) % n}) + [None, n]     # n: a seat that does not exist
    base: list[Action] = [DrawDeck(), DrawTickets(), Pass()]
    base += [DrawFaceUp(slot=i) for i in range(0, len(s.market) + 2)]
    pool = [ids[0] for _, ids in s.ticket_decks if ids] + [t for p in s.players for t in p.tickets[:1]]
    keeps: list[tuple[str, ...]] = [(pool[0],)] if pool else []
    keeps.append(("T999",))
    for q in s.pending:
        if q.kind == "choose_tickets":
            off = q.get("offered")
            keeps += [c for size in range(0, len(off) + 1) for c in combinations(off, size)]
            keeps += [off[:1] + (t,) for t in pool[:2]] + [off + (t,) for t in pool[:1]]
    base += [KeepTickets(tickets=k) for k in keeps]
    out = [a if seat is None else a.with_seat(seat) for a in base for seat in seats]
    # every listed action, for every other seat
    out += [a.with_seat(seat) for a in legal[:: max(1, len(legal) // 12)] for seat in range(n + 1) if seat != a.seat]
    # claims: routes the seat can claim, claimed ones, their twins, and a spread of the rest
    rng = random.Random(s.ply)
    routes = list(v.map.routes)
    picked = {v.map.route(a.route).index for a in legal if isinstance(a, Claim)}
    picked = set(rng.sample(sorted(picked), min(4, len(picked))))
    taken = [r.index for r in routes if s.claims[r.index] != FREE]
    picked |= set(rng.sample(taken, min(3, len(taken))))
    for i in list(picked):
        picked |= {t.index for t in v.map.twins(routes[i].id)}
    picked |= set(rng.sample(range(len(routes)), 4))
    claim_seats = sorted({None, actor, (actor + 1) % n}, key=lambda x: -1 if x is None else x)
    full = (FULL,) * v.card_kinds
    for i in sorted(picked):
        r = routes[i]
        pays = route_payments(v, r, full)
        pays = pays[:: max(1, len(pays) // 6)] + [a.payment for a in legal if isinstance(a, Claim) and a.route == r.id]
        c = 0 if r.colour == "gray" else next(k for k in range(LOCO) if k != v.route_table.colour[i])
        pays += [((c, r.length + 1),), ((c, r.length - 1),) if r.length > 1 else ((c, 2),),
                 ((c, r.length),), ((0, 1), (1, r.length - 1)) if r.length > 1 else ((0, 1), (1, 1))]
        for pay in dict.fromkeys(pays):
            for seat in claim_seats:
                out.append(Claim(route=r.id, payment=pay, seat=seat))
    out += [Claim(route="R999", payment=((0, 1),)), Claim(route="ZZ", payment=((LOCO, 1),))]
    return list(dict.fromkeys(out))


def _named(cand: Action, s: GameState) -> Action:
    """``cand`` with its route/ticket ids replaced by the city texts legal_actions lists (no rules applied)."""
    m = get_variant(s.variant).map
    if isinstance(cand, Claim) and cand.route in m._route_by_id:
        return replace_fields(cand, route=route_text(m, cand.route))
    if isinstance(cand, KeepTickets):
        return replace_fields(cand, tickets=tuple(ticket_text(m, t) if t in m._ticket_by_id else t for t in cand.tickets))
    return cand


def listed(cand: Action, s: GameState, legal_set: set) -> bool:
    cand = _named(cand, s)
    if cand.seat is None:
        seats = to_move(s)
        return len(seats) == 1 and cand.with_seat(seats[0]) in legal_set
    return cand in legal_set


def refusal(s: GameState, cand: Action) -> TTRError:
    """The error ``apply`` raises for ``cand`` (failing if it does not), checked against ``explain``."""
    try:
        apply(s, cand)
    except (IllegalAction, BadAction) as e:
        err = e
    else:
        pytest.fail(f"{cand} is not listed in legal_actions but apply accepted it (ply {s.ply}, {s.phase})")
    assert str(err)
    e2 = explain(s, cand)
    assert type(e2) is type(err) and str(e2) == str(err), f"explain({cand}) = {e2!r}, apply raised {err!r}"
    return err


def assert_refused(s: GameState, cand: Action) -> TTRError:
    snapshot = s.to_dict()
    err = refusal(s, cand)
    with pytest.raises(type(err)):
        step(s, cand)
    assert s.to_dict() == snapshot, f"refused {cand} but the state changed"
    return err


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_unlisted_actions_raise_and_change_nothing(variant, n, seed):
    v = get_variant(variant)
    states, _ = play(variant, n, seed, "random")
    refused = accepted = 0
    rules = set()
    for s in sample(states, 10):
        snapshot = s.to_dict()
        legal = legal_actions(s)
        legal_set = set(legal)
        for cand in candidate_actions(v, s, legal):
            if listed(cand, s, legal_set):
                assert explain(s, cand) is None, f"{cand} is listed but explain says {explain(s, cand)}"
                accepted += 1
                continue
            err = refusal(s, cand)
            refused += 1
            if isinstance(err, IllegalAction):
                assert err.rule, f"{cand}: IllegalAction without a rule id: {err}"
                rules.add(err.rule.split("/")[-1].rsplit("-", 1)[0])
        assert s.to_dict() == snapshot, "a refused action changed the state"
        assert legal_actions(s) == legal
    assert refused > 500 and accepted > 10
    # the refusals cite the rules they enforce
    assert {"USA-TURN", "USA-CLAIM", "USA-DRAW"} <= rules


def play_state(variant: str, n: int, seed: int = 0) -> GameState:
    """A state in phase play with nothing pending and the deck not empty (from a random game)."""
    states, _ = play(variant, n, seed, "random")
    return next(s for s in states[len(states) // 3:] if s.phase == "play" and not s.pending and s.deck)


@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_no_tickets_left_means_no_ticket_draw(variant, n):
    s = play_state(variant, n)
    gone = tuple(t for _, ids in s.ticket_decks for t in ids)
    s = replace_fields(s, ticket_decks=tuple((name, ()) for name, _ in s.ticket_decks), tickets_out=s.tickets_out + gone)
    assert validate(s) == []
    assert not any(isinstance(a, DrawTickets) for a in legal_actions(s))
    err = assert_refused(s, DrawTickets())
    assert isinstance(err, IllegalAction) and "USA-TICKET-1" in err.rule
    for a in legal_actions(s):
        assert validate(apply(s, a)) == []


def _move_cards_to(s: GameState, holder: int, *, from_seats=(), market: bool = False) -> GameState:
    """All of the deck and discard pile (and the hands of ``from_seats``, and with ``market`` the face-up cards)
    into ``holder``'s hand: still valid."""
    hand = list(s.players[holder].hand)
    for c in s.deck + (tuple(c for c in s.market if c is not None) if market else ()):
        hand[c] += 1
    for k, c in enumerate(s.discard):
        hand[k] += c
    players = list(s.players)
    for seat in from_seats:
        for k, c in enumerate(players[seat].hand):
            hand[k] += c
        players[seat] = replace_fields(players[seat], hand=(0,) * len(hand))
    players[holder] = replace_fields(players[holder], hand=tuple(hand))
    return replace_fields(s, deck=(), discard=(0,) * len(s.discard), players=tuple(players),
                          market=(None,) * len(s.market) if market else s.market)


@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_no_train_cards_left_means_no_card_draw(variant, n):
    s = play_state(variant, n)
    holder = (s.current + 1) % n
    s = _move_cards_to(s, holder)
    assert validate(s) == []
    legal = legal_actions(s)
    if get_variant(variant).settings.faceup_without_deck:      # Märklin (MK-DRAW-1): the face-up cards remain
        assert [a.slot for a in legal if isinstance(a, DrawFaceUp)] == [i + 1 for i, c in enumerate(s.market)
                                                                        if c is not None]
        assert "USA-DRAW-8" in assert_refused(s, DrawDeck()).rule
        s = _move_cards_to(s, holder, market=True)             # then no train card is left outside the hands
        assert validate(s) == []
        legal = legal_actions(s)
    assert not any(isinstance(a, DrawDeck | DrawFaceUp) for a in legal)
    for cand in [DrawDeck(), *(DrawFaceUp(slot=i + 1) for i in range(len(s.market)))]:
        err = assert_refused(s, cand)
        assert isinstance(err, IllegalAction) and "USA-DRAW-8" in err.rule
    # with no cards, no tickets and nothing affordable, passing is the only (and a legal) action
    s = _move_cards_to(s, holder, from_seats=[s.current])
    gone = tuple(t for _, ids in s.ticket_decks for t in ids)
    s = replace_fields(s, ticket_decks=tuple((name, ()) for name, _ in s.ticket_decks), tickets_out=s.tickets_out + gone)
    assert validate(s) == []
    v = get_variant(variant)
    extra = [a for f in v.features for a in f.turn_actions(v, s, s.current)]
    if extra:                                      # e.g. Märklin: moving a passenger needs no card (MK-DRAW-1)
        assert legal_actions(s) == extra
        return
    assert legal_actions(s) == [Pass(seat=s.current)]
    s2 = apply(s, "pass")
    assert s2.passes == s.passes + 1 and validate(s2) == []
    assert_refused(s2, Pass())                     # the next seat holds every card: it can act, so it may not pass


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_over_refuses_everything(variant):
    states, _ = play(variant, 3 if 3 in player_counts(variant) else player_counts(variant)[0], 0, "greedy")
    s = states[-1]
    v = get_variant(variant)
    for cand in candidate_actions(v, s, []):
        err = assert_refused(s, cand)
        if isinstance(err, IllegalAction):
            assert "USA-END-1" in err.rule


# ------------------------------------------------------------------------------------------------ 3b. malformed objects

def _rich_play_state(variant: str, n: int) -> tuple[GameState, int, object]:
    """A play state whose current seat holds >= 4 cards of one colour and can claim a gray 2-route."""
    v = get_variant(variant)
    for seed in range(6):
        states, _ = play(variant, n, seed, "random")
        for s in states:
            if s.phase != "play" or s.pending:
                continue
            hand = s.players[s.current].hand
            colour = max(range(LOCO), key=lambda k: hand[k])
            if hand[colour] < 4:
                continue
            for a in legal_actions(s):
                if isinstance(a, Claim) and v.map.route(a.route).length == 2 and v.map.route(a.route).colour == "gray":
                    return s, colour, v.map.route(a.route)
    pytest.skip("no suitable position found")


@pytest.mark.parametrize("variant", VARIANTS)
def test_malformed_claim_payments_are_refused(variant):
    """Action objects built in code (a widget, a notebook) must be checked as strictly as parsed text: a payment
    with a negative or fractional count is not a set of cards."""
    s, colour, route = _rich_play_state(variant, 3)
    bad = [
        ((colour, 4), (LOCO, -2)),         # 4 + (-2) = 2 cards: would pay 4 and take 2 locomotives back
        ((colour, 3), (LOCO, -1)),
        ((colour, 2.0),),                  # a float count: the hand would hold 2.0 cards
        ((colour, True), (LOCO, True)),    # booleans are not counts
        ((colour, 1), (colour, 1)),        # the same kind twice
    ]
    for pay in bad:
        cand = Claim(route=route.id, payment=pay)
        assert cand not in set(legal_actions(s))
        err = explain(s, cand)
        assert isinstance(err, (IllegalAction, BadAction)), f"{pay} is accepted: explain() = {err!r}"
        assert_refused(s, cand)


@pytest.mark.parametrize("variant", VARIANTS)
def test_keep_with_a_ticket_named_twice_is_refused(variant):
    """KeepTickets(("T05", "T05")) must not count as keeping two tickets (USA-SETUP-3: keep at least 2)."""
    s = new_game(variant, 3, 1)
    if s.pending_for(0).kind == "setup_announce":    # Märklin: announce the ticket mix first (MK-SETUP-3)
        s = apply(s, legal_actions(s, 0)[0])
    q = s.pending_for(0)
    if q.kind != "choose_tickets":      # a feature's own setup (South Korea's draft): a ticket choice during play
        s = next(x for x in play(variant, 3, 1, "random")[0] if x.phase != "setup" and x.pending
                 and x.pending[0].kind == "choose_tickets")
        q = s.pending[0]
    off = q.get("offered")
    need = max(2, q.get("min_keep"))
    cand = KeepTickets(tickets=(off[0],) * need, seat=q.seat)
    assert cand not in set(legal_actions(s))
    err = explain(s, cand)
    assert err is not None, f"{cand.tickets} accepted: seat 0 would keep 1 ticket where {need} are required"
    assert_refused(s, cand)


@pytest.mark.parametrize("bad", [
    DrawFaceUp(slot="1"), DrawFaceUp(slot=True), DrawFaceUp(slot=1.0), DrawDeck(seat="0"), DrawDeck(seat=True),
    Claim(route="R001", payment="red2"), Claim(route="R001", payment=(("red", 2),)), Claim(route=5, payment=()),
    KeepTickets(tickets="T01"),
], ids=repr)
def test_malformed_action_objects_give_bad_action_not_a_crash(bad):
    """Wrong field types in an action object: explain() returns (never raises) a TTRError, apply raises it."""
    states, _ = play("usa", 3, 0, "random")
    for s in (states[0], next(x for x in states if x.phase == "play" and not x.pending)):
        try:
            err = explain(s, bad)
        except Exception as e:                            # noqa: BLE001 - the point of the test
            pytest.fail(f"explain({bad!r}) raised {type(e).__name__}: {e}")
        assert isinstance(err, TTRError), f"{bad!r} accepted"
        assert_refused(s, bad)


# ------------------------------------------------------------------------------------------------ 4. observe

def _swap_hand_and_deck(s: GameState, seat: int) -> GameState | None:
    hand = s.players[seat].hand
    for pos, b in enumerate(s.deck):
        for a, count in enumerate(hand):
            if count and a != b:
                new_hand = list(hand)
                new_hand[a] -= 1
                new_hand[b] += 1
                deck = list(s.deck)
                deck[pos] = a
                players = list(s.players)
                players[seat] = replace_fields(players[seat], hand=tuple(new_hand))
                return replace_fields(s, deck=tuple(deck), players=tuple(players))
    return None


def _swap_hands(s: GameState, j: int, k: int) -> GameState | None:
    hj, hk = s.players[j].hand, s.players[k].hand
    for a, ca in enumerate(hj):
        for b, cb in enumerate(hk):
            if ca and cb and a != b:
                nj, nk = list(hj), list(hk)
                nj[a] -= 1; nj[b] += 1; nk[b] -= 1; nk[a] += 1      # noqa: E702
                players = list(s.players)
                players[j] = replace_fields(players[j], hand=tuple(nj))
                players[k] = replace_fields(players[k], hand=tuple(nk))
                return replace_fields(s, players=tuple(players))
    return None


def _permute_deck(s: GameState) -> GameState | None:
    if len(set(s.deck)) < 2:
        return None
    deck = list(s.deck)
    random.Random(s.ply).shuffle(deck)
    if tuple(deck) == s.deck:
        deck = deck[1:] + deck[:1]
    return replace_fields(s, deck=tuple(deck)) if tuple(deck) != s.deck else None


def _regular_deck(s: GameState, v) -> tuple[int, tuple[str, ...]] | None:
    for i, (name, ids) in enumerate(s.ticket_decks):
        if name == v.settings.ticket_deck and ids:
            return i, ids
    return None


def _with_ticket_deck(s: GameState, i: int, ids: tuple[str, ...]) -> GameState:
    decks = list(s.ticket_decks)
    decks[i] = (decks[i][0], ids)
    return replace_fields(s, ticket_decks=tuple(decks))


def _swap_kept_ticket(s: GameState, v, seat: int) -> GameState | None:
    found = _regular_deck(s, v)
    if found is None or not s.players[seat].tickets:
        return None
    i, ids = found
    mine = s.players[seat].tickets
    players = list(s.players)
    players[seat] = replace_fields(players[seat], tickets=(ids[-1],) + mine[1:])
    s2 = replace_fields(s, players=tuple(players))
    return _with_ticket_deck(s2, i, ids[:-1] + (mine[0],))


def _swap_offered_ticket(s: GameState, v, seat: int) -> GameState | None:
    q = s.pending_for(seat)
    found = _regular_deck(s, v)
    if q is None or q.kind != "choose_tickets" or found is None:
        return None
    i, ids = found
    off = q.get("offered")
    new_q = replace_fields(q, data=pairs_set(q.data, "offered", (ids[-1],) + off[1:]))
    s2 = replace_fields(s, pending=tuple(new_q if p is q else p for p in s.pending))
    return _with_ticket_deck(s2, i, ids[:-1] + (off[0],))


def _permute_ticket_deck(s: GameState, v) -> GameState | None:
    found = _regular_deck(s, v)
    if found is None or len(found[1]) < 2:
        return None
    i, ids = found
    return _with_ticket_deck(s, i, ids[1:] + ids[:1])


def _view(s: GameState, seat) -> str:
    return json.dumps(observe(s, seat), sort_keys=True)


def hidden_twins(v, s: GameState):
    """(name, other state, seats allowed to see the difference) for changes of hidden information only."""
    n = s.n_players
    yield "deck order", _permute_deck(s), set()
    yield "ticket deck order", _permute_ticket_deck(s, v), set()
    for j in range(n):
        yield f"seat {j}'s hand <-> deck", _swap_hand_and_deck(s, j), {j}
        yield f"seat {j}'s hand <-> seat {(j + 1) % n}'s hand", _swap_hands(s, j, (j + 1) % n), {j, (j + 1) % n}
        yield f"seat {j}'s kept ticket <-> ticket deck", _swap_kept_ticket(s, v, j), {j}
        yield f"seat {j}'s offered ticket <-> ticket deck", _swap_offered_ticket(s, v, j), {j}


@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_observe_leaks_no_hidden_card_or_ticket(variant, n):
    v = get_variant(variant)
    states, _ = play(variant, n, 0, "random")
    picked = [states[0]] + sample(states, 12)
    # every state where a seat chooses tickets during play (the offer is private, the status line is public)
    picked += [s for s in states if s.phase != "setup" and s.pending and s.pending[0].kind == "choose_tickets"][:4]
    picked = list({s.ply: s for s in picked}.values())
    tried = {"owner": 0, "teacher": 0}
    leaks = []
    for s in picked:
        for seat in (None, *range(n)):
            json.dumps(observe(s, seat))                      # a view is plain JSON
        for name, twin, owners in hidden_twins(v, s):
            if twin is None:
                continue
            assert twin != s and validate(twin) == [], f"{name}: the twin must be a different, valid state"
            for seat in range(n):
                same = _view(s, seat) == _view(twin, seat)
                if seat in owners:
                    assert not same, f"{name}: seat {seat} should see its own change"
                    tried["owner"] += 1
                elif not same:
                    a, b = observe(s, seat), observe(twin, seat)
                    diff = sorted(k for k in a if a[k] != b.get(k))
                    leaks.append(f"ply {s.ply} ({s.phase}), {name}: seat {seat} sees a difference in {diff}: "
                                 + "; ".join(f"{k}: {a[k]!r} vs {b[k]!r}" for k in diff if k != "players")[:300])
            if owners:
                assert _view(s, None) != _view(twin, None), f"{name}: the teacher view shows everything"
                tried["teacher"] += 1
    assert tried["owner"] > 20 and tried["teacher"] > 10
    assert not leaks, f"{len(leaks)} leaks, e.g.\n" + "\n".join(leaks[:5])


@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_observe_rejects_bad_seats_and_names_the_viewer(variant, n):
    s = new_game(variant, n, 3)
    assert observe(s, 0)["viewer"] == 0 and observe(s)["viewer"] is None
    for bad in (-1, n, "0", 1.5):
        with pytest.raises(TTRError):
            observe(s, bad)


# ------------------------------------------------------------------------------------------------ 5. determinism

@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_same_seed_same_game_different_seed_different_game(variant, n):
    a = [str(x) for x in _play(variant, n, 1, "mixed:0.5")[1]]      # played afresh
    b = [str(x) for x in play(variant, n, 1, "mixed:0.5")[1]]       # (cached: usually played by another test)
    c = [str(x) for x in play(variant, n, 0, "mixed:0.5")[1]]
    assert a == b
    assert a != c
    assert new_game(variant, n, 5) == new_game(variant, n, 5)
    decks = {new_game(variant, n, seed).deck for seed in range(5)}
    assert len(decks) == 5


@pytest.mark.parametrize("spec", BOT_SPECS)
def test_bots_are_stateless(spec):
    states, _ = play("usa", 4, 1, "random")
    bot = make_bot(spec, 3)
    for s in states[::25]:
        for seat in to_move(s):
            first = bot.choose(s, seat)
            assert bot.choose(s, seat) == first
            assert make_bot(spec, 3).choose(s, seat) == first


# ------------------------------------------------------------------------------------------------ 6. serialisation

@pytest.mark.parametrize("spec", BOT_SPECS)
@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_state_dict_and_json_round_trip_at_every_ply(variant, n, spec):
    states, _ = play(variant, n, 0, spec)
    for s in states[:: 1 if spec == "random" else 3]:
        d = s.to_dict()
        text = json.dumps(d, allow_nan=False)
        back = GameState.from_dict(json.loads(text))
        assert back == s and hash(back) == hash(s)
        assert back.to_dict() == d
        assert json.dumps(back.to_dict(), allow_nan=False) == text


# ------------------------------------------------------------------------------------------------ 7. properties

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_property_random_legal_sequences_stay_valid(data):
    variant = data.draw(st.sampled_from(VARIANTS), label="variant")
    n = data.draw(st.sampled_from(player_counts(variant)), label="players")
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    v = get_variant(variant)
    s = new_game(variant, n, seed)
    for _ in range(data.draw(st.integers(0, 200), label="plies")):
        legal = legal_actions(s)
        if not legal:
            assert s.phase == "over"
            break
        a = legal[data.draw(st.integers(0, len(legal) - 1))]
        s2 = apply(s, str(a))
        assert s2 == apply(s, a)
        s = s2
        assert validate(s) == [], validate(s)
    check_conservation(v, s)
    assert GameState.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    for seat in (None, *range(n)):
        json.dumps(observe(s, seat))


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 3), spec=st.sampled_from(BOT_SPECS),
       where=st.floats(0, 1))
def test_property_state_round_trips_at_random_plies(variant, seed, spec, where):
    n = player_counts(variant)[seed % len(player_counts(variant))]
    states, _ = play(variant, n, seed, spec)
    s = states[min(len(states) - 1, int(where * len(states)))]
    assert GameState.from_dict(s.to_dict()) == s
    assert GameState.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    assert validate(GameState.from_dict(s.to_dict())) == []


def test_validate_is_not_vacuous():
    """The invariants used above do catch broken states (so a passing contract test means something)."""
    s = play_state("usa", 3)
    extra = list(s.players[0].hand)
    extra[LOCO] += 1
    broken = [
        replace_fields(s, players=(replace_fields(s.players[0], hand=tuple(extra)),) + s.players[1:]),
        replace_fields(s, deck=s.deck[1:]),
        replace_fields(s, players=(replace_fields(s.players[0], trains=s.players[0].trains - 1),) + s.players[1:]),
        replace_fields(s, players=(replace_fields(s.players[0], tickets=s.players[0].tickets + s.players[1].tickets[:1]),)
                       + s.players[1:]),
        replace_fields(s, claims=(s.players.__len__(),) + s.claims[1:]),
    ]
    for b in broken:
        assert validate(b), "validate missed a broken state"


@pytest.mark.parametrize("variant,n", CASES, ids=CASE_IDS)
def test_the_random_bot_decides_from_what_its_seat_may_see(variant, n):
    """Hidden information is the seat's own: the random bot (which reads the full state for speed, e.g. the deck's
    size for a draw and its own hand for a claim) picks the same action when only what its seat cannot see changes:
    the deck's or the ticket deck's order, another seat's hand or tickets."""
    from ttr_nb.bots import RandomBot
    v = get_variant(variant)
    states, _ = play(variant, n, 0, "random")
    compared = 0
    for s in [states[0]] + sample(states, 20):
        if s.phase == "over":
            continue
        seat = to_move(s)[0]
        for name, twin, owners in hidden_twins(v, s):
            if twin is None or seat in owners:
                continue
            for bot_seed in (0, 1, 2):
                assert RandomBot(bot_seed).choose(s, seat)[0] == RandomBot(bot_seed).choose(twin, seat)[0], \
                    f"ply {s.ply}, {name}: seat {seat} chose from what it cannot see"
                compared += 1
    assert compared > 100
