"""The engine's fast paths (free-route buckets carried across claims, cached draw actions) agree with the plain
definitions of the rules at every turn of real games."""
from __future__ import annotations

import pytest

from ttr_nb.board.actions import Claim, DrawDeck, DrawFaceUp
from ttr_nb.bots import RandomBot
from ttr_nb.board.engine import (apply, claim_problem, claimable_routes, legal_actions, new_game, route_payments, to_move)
from ttr_nb.variants import available_variants, get_variant


def plain_claimable(v, state, seat, affordable_only):
    """USA-CLAIM-4/5/7/8 (and USA-CLAIM-1..3 with affordable_only), route by route, no caches."""
    hand = state.players[seat].hand
    return [r.id for r in v.map.routes if claim_problem(v, state, seat, r, None) is None
            and (not affordable_only or route_payments(v, r, hand))]


@pytest.mark.parametrize("variant", available_variants())
@pytest.mark.parametrize("players", [2, 4])
def test_claimable_routes_matches_the_plain_definition_all_game(variant, players):
    v = get_variant(variant)
    checked = 0
    for seed in range(3):
        s = new_game(variant, players, seed)
        bots = [RandomBot(seed * 7 + i) for i in range(players)]
        while s.phase != "over":
            if not s.pending:
                seat = s.current
                for only in (True, False):
                    fast = [r.id for r in claimable_routes(v, s, seat, affordable_only=only)]
                    assert fast == plain_claimable(v, s, seat, only), (seed, s.ply)
                    v.route_table.forget()                     # and again from a cold cache
                    assert [r.id for r in claimable_routes(v, s, seat, affordable_only=only)] == fast
                checked += 1
            seat = to_move(s)[0]
            s = apply(s, bots[seat].choose(s, seat)[0])
    assert checked > 100


def test_cached_draw_actions_are_equal_values_with_the_right_seat():
    s = new_game("usa", 3, 2)
    while s.phase == "setup":
        s = apply(s, legal_actions(s)[0])
    draws = [a for a in legal_actions(s) if isinstance(a, DrawDeck | DrawFaceUp)]
    assert [str(a) for a in draws] == ["blue: draw deck"] + [f"blue: draw faceup {i}" for i in range(1, 6)]
    again = [a for a in legal_actions(s) if isinstance(a, DrawDeck | DrawFaceUp)]
    assert all(x is y for x, y in zip(draws, again))             # one shared immutable object per action
    assert DrawFaceUp(slot=3, seat=0) == draws[3]


def test_draw_choices_are_the_plain_list_for_any_market():
    """USA-DRAW-1..4: draw_choices' cached tuples (a second card's locomotives read from a table when the market has
    five slots, an empty slot or another size taking the loop) are the deck, then every face-up slot that holds a
    card and, for a second card, no locomotive, for the markets of whole games and edited ones."""
    from ttr_nb.board.cards import LOCO
    from ttr_nb.board.engine import draw_choices
    from ttr_nb.board.state import replace_fields

    def plain(state, seat, second):
        return (DrawDeck(seat=seat),) + tuple(DrawFaceUp(slot=i + 1, seat=seat) for i, c in enumerate(state.market)
                                              if c is not None and not (second and c == LOCO))

    edited = [(LOCO, 1, None, LOCO, 2), (None,) * 5, (LOCO,) * 5, (3, LOCO, 4, 5), (LOCO, 0, 1, 2, 3, LOCO),
              (11, LOCO, 2, 3, 4), (None, 1, 2, 3, LOCO), (0, LOCO, 2, LOCO, 4), (LOCO, 1, 2, 3, 4), (5, 1, 2, 3, 4)]
    states = [s for _, s, _ in random_game_states("usa", 31)]
    turn = next(s for s in states[40:] if not s.pending)
    second = next(s for s in states[40:] if s.pending and s.pending[0].kind == "second_card")
    edits = [replace_fields(s, market=m, deck=deck) for s in (turn, second) for m in edited for deck in (s.deck, ())]
    locos = 0
    for s in states + edits:
        if s.deck or any(s.discard):
            for seat in range(s.n_players):
                for second in (False, True):
                    assert draw_choices(s, seat, second) == plain(s, seat, second), (s.market, seat, second)
            locos += LOCO in s.market
    assert locos > 100
    # RandomBot.choose reads the usual cases' choices itself: the same picks as the listed definition's, here too
    v = get_variant("usa")
    for s in edits:
        seat = to_move(s)[0]
        for bot_seed in range(12):
            action = RandomBot(bot_seed).choose(s, seat)[0]
            assert action == _listed_random_choice(v, s, seat, bot_seed), (s.market, s.deck, bot_seed)


def test_the_spelled_out_constructors_agree_with_the_classes():
    """state.new_state/new_player set every slot by hand (the engine's per-ply constructors): the same values as
    the dataclasses' own constructors, field by field, for any field order change of GameState/PlayerState."""
    from dataclasses import fields

    from ttr_nb.board.state import GameState, PlayerState, new_player, new_state
    s = new_game("europe", 3, 5)
    values = [getattr(s, f.name) for f in fields(GameState)]
    assert new_state(*values) == GameState(*values) == s
    p = s.players[1]
    values = [getattr(p, f.name) for f in fields(PlayerState)]
    assert new_player(*values) == PlayerState(*values) == p
    assert [f.name for f in fields(GameState)][:3] == ["variant", "n_players", "seed"]
    from ttr_nb.board.actions import Claim, DrawTickets, draw_tickets_action, new_claim
    assert [f.name for f in fields(Claim)] == ["route", "payment", "seat"]
    made = new_claim("Denver–Omaha", ((2, 4),), 1)
    assert made == Claim(route="Denver–Omaha", payment=((2, 4),), seat=1) and type(made) is Claim
    assert hash(made) == hash(Claim("Denver–Omaha", ((2, 4),), 1)) and str(made) == "red: claim Denver–Omaha orange4"
    with pytest.raises(AttributeError):
        made.seat = 2                                     # frozen like any Claim
    assert draw_tickets_action(2) == DrawTickets(seat=2) and draw_tickets_action(2) is draw_tickets_action(2)
    from ttr_nb.board.actions import KeepTickets, new_keep
    assert [f.name for f in fields(KeepTickets)] == ["tickets", "seat"]
    kept = new_keep(("Denver–El Paso", "Boston–Miami"), 3)
    assert kept == KeepTickets(tickets=("Denver–El Paso", "Boston–Miami"), seat=3) and type(kept) is KeepTickets
    assert hash(kept) == hash(KeepTickets(("Denver–El Paso", "Boston–Miami"), 3))
    with pytest.raises(AttributeError):
        kept.seat = 2


@pytest.mark.parametrize("variant", available_variants())
def test_the_quick_path_gives_the_general_paths_state(variant):
    """engine._quick (plainly legal draws and claims straight to the new state) and engine._general (every
    action through Tx and the features' hooks) agree on every action the bots and legal_actions offer over whole
    games, trusted or checked; the quick path takes many plies, and never an action check() refuses."""
    from ttr_nb.board.engine import _general, _quick, check
    v = get_variant(variant)
    quick = total = 0
    kinds = set()
    for seed in range(2):
        s = new_game(variant, 4 - 2 * seed, seed)
        bots = [RandomBot(seed * 5 + i) for i in range(s.n_players)]
        while s.phase != "over":
            for a in legal_actions(s)[::7]:
                a, seat = check(s, a)
                slow = _general(v, s, a, seat, None)
                for trusted in (True, False):
                    fast = _quick(v, s, a, trusted)
                    assert fast is None or fast == slow, (seed, s.ply, str(a), trusted)
            seat = to_move(s)[0]
            a, seat = check(s, bots[seat].choose(s, seat)[0])
            fast = _quick(v, s, a, False)
            slow = _general(v, s, a, seat, None)
            quick += fast is not None
            total += 1
            assert fast is None or fast == slow, (seed, s.ply, str(a))
            if fast is not None:
                kinds.add(type(a).__name__)
                if s.phase == "setup":
                    kinds.add(type(a).__name__ + " at the setup")
                if isinstance(a, DrawFaceUp) and fast.discard != s.discard:
                    kinds.add("market reset")                         # USA-DRAW-6 without the transaction
                if type(a) is Claim and getattr(v.route_table.by_label[a.route], "tunnel", False):
                    kinds.add("tunnel Claim")
                if type(a) is Claim and fast.pending:
                    kinds.add("Claim to a pending step")              # a tunnel's extra cards, a passenger to place
                if fast.phase != s.phase:
                    kinds.add(f"to {fast.phase}")                     # USA-END-1: the final round, the game's end
                if fast.current == fast.first_player != s.current and any(p.get("moved") for p in s.players):
                    kinds.add("round end with travelled passengers")  # Feature.quick_round_end (MK-PASS-6)
            s = slow
    assert quick > total / 3
    # every quick path is taken somewhere; Europe's plain claims and Märklin's too (tunnels and a passenger in
    # reserve go the general way: Feature.takes_claim)
    assert kinds >= {"DrawDeck", "DrawFaceUp", "Claim", "DrawTickets", "KeepTickets"} - (
        {"DrawTickets", "KeepTickets"} if variant == "maerklin" else set()), kinds
    # the setup's keeps (USA-SETUP-3) too, where the tickets go back to the bottom and no feature acts in between
    if variant in ("usa", "maerklin"):
        assert "KeepTickets at the setup" in kinds, kinds
    # and the market's resets where one kind of card resets it (Märklin's passenger cards too: the general path)
    if variant != "maerklin":
        assert "market reset" in kinds, kinds
    # the features' own quick paths (Feature.quick) are taken too
    assert kinds >= FEATURE_QUICK.get(variant, set()), kinds
    # the final round starts there (USA-END-1), and the game ends there (a feature's quick round end included)
    assert "to last_round" in kinds and "to over" in kinds, kinds


def test_the_games_end_takes_a_travelled_passenger_off_on_the_quick_path():
    """The game's end ends the round under way (Tx.game_over, MK-PASS-6): the quick path's last turn applies the
    feature's quick round end as the general path does, so a passenger that travelled in the final round leaves."""
    from ttr_nb.board.engine import _general, _quick, check
    from ttr_nb.board.state import pairs_set, replace_fields
    from ttr_nb.games.maerklin import DONE, MOVED
    v = get_variant("maerklin")
    s = new_game("maerklin", 4, 3)
    bots = [RandomBot(30 + i) for i in range(4)]
    while not (s.phase == "last_round" and s.final_turns_left == 1 and not s.pending):
        seat = to_move(s)[0]
        s = apply(s, bots[seat].choose(s, seat)[0])
    mover = (s.current + 1) % 4                         # a seat whose passenger travelled this round
    players = list(s.players)
    q = players[mover]
    ext = pairs_set(pairs_set(q.ext, "passengers", ("Berlin", DONE, DONE)), MOVED, (0,))
    players[mover] = replace_fields(q, ext=ext)
    s = apply(replace_fields(s, players=tuple(players)), DrawDeck(seat=s.current))
    a, seat = check(s, DrawDeck(seat=s.current))        # the last turn's second card ends the game
    fast, slow = _quick(v, s, a, False), _general(v, s, a, seat, None)
    assert fast is not None and fast == slow and fast.phase == "over"
    assert fast.players[mover].get("passengers") == (DONE, DONE, DONE) and fast.players[mover].get(MOVED) is None


FEATURE_QUICK = {"south_korea": {"ProvinceClaim", "ExpressDraw", "DraftPick", "DraftKeep"}, "europe": {"TunnelWithdraw", "tunnel Claim", "Claim to a pending step", "BuildStation"},
                 "maerklin": {"Claim to a pending step", "PlacePassenger", "Ride", "Stop", "Announce",
                              "round end with travelled passengers"}}


@pytest.mark.parametrize("text", ["blue: draw faceup 6", "red: draw deck", "blue: claim Atlanta–Miami blue5",
                                  "blue: claim Atlanta–Miami blue1", "blue: claim Atlanta–Miami red5"])
def test_the_quick_path_leaves_refusals_to_check(text):
    from ttr_nb.board.actions import parse_action
    from ttr_nb.board.engine import _quick
    from ttr_nb.errors import TTRError
    s = new_game("usa", 2, 1)
    while s.phase == "setup":
        s = apply(s, legal_actions(s)[0])
    action = parse_action(text)
    assert _quick(get_variant("usa"), s, action, False) is None
    with pytest.raises(TTRError):
        apply(s, action)


@pytest.mark.parametrize("variant", ["europe", "maerklin"])
def test_a_claim_a_feature_takes_over_is_checked_once_and_refused_when_the_hand_cannot_pay(variant):
    """EU-TUNNEL-1, MK-CLAIM-5 (and USA-CLAIM-1): the engine's quick claim checks a claim before it hands it to the
    feature (tunnels, a passenger to place) as trusted; a payment the hand does not hold is left to check, which
    refuses it, and the same claim that the hand can pay takes the feature's quick path to the general path's state."""
    from ttr_nb.board.engine import _general, _quick, check
    from ttr_nb.errors import TTRError
    from ttr_nb.board.tables import payment
    v = get_variant(variant)
    t = v.route_table
    s = new_game(variant, 4, 3)
    bots = [RandomBot(30 + i) for i in range(4)]
    refused = taken = 0
    while s.phase != "over" and (refused < 3 or taken < 3):
        seat = to_move(s)[0]
        if not s.pending and s.phase == "play":
            hand = s.players[seat].hand
            for i in claimable_mask_free(v, s, seat):
                route = t.routes[i]
                hook = next((f for f in t.claim_hooks if f.takes_claim(v, s, seat, route)), None)
                if hook is None:
                    continue
                colour = t.colour[i] if t.colour[i] >= 0 else 0      # (-1: a gray route, paid here in colour 0)
                short = payment(colour, route.length, 0)
                if hand[colour] < route.length:          # the hand cannot pay: refused, nothing handed over
                    assert _quick(v, s, Claim(route=t.labels[i], payment=short, seat=seat), False) is None
                    with pytest.raises(TTRError):
                        apply(s, Claim(route=t.labels[i], payment=short, seat=seat))
                    refused += 1
                else:
                    try:
                        a, seat = check(s, Claim(route=t.labels[i], payment=short, seat=seat))
                    except TTRError:                        # e.g. a ferry's locomotives (EU-FERRY-1)
                        continue
                    fast = _quick(v, s, a, False)
                    assert fast is None or fast == _general(v, s, a, seat, None)
                    taken += fast is not None
        s = apply(s, bots[seat].choose(s, seat)[0])
    assert refused >= 3 and taken >= 1, (refused, taken)


def claimable_mask_free(v, state, seat):
    """The routes free to ``seat`` with the trains for them (twin rules kept), hand aside: bit indexes."""
    from ttr_nb.board.tables import claimable_mask
    mask = claimable_mask(v, state, seat, False)
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def test_a_claim_without_a_payment_is_refused_not_taken_for_one_of_ours():
    # the quick paths trust only payment tuples the engine made itself; None (no payment) is not one of them
    from ttr_nb.board.actions import Claim
    from ttr_nb.errors import TTRError
    from ttr_nb.game import Game
    from ttr_nb.board.tables import interned
    assert not interned(None)
    g = Game("usa", 3, 2)
    g.play_bots(RandomBot(2), max_plies=25)
    claim = next(a for a in legal_actions(g.state) if isinstance(a, Claim))
    with pytest.raises(TTRError):
        apply(g.state, Claim(route=claim.route, payment=None, seat=claim.seat))


@pytest.mark.parametrize("players", [2, 4])
def test_the_quick_claim_trusts_only_its_own_payments_and_keeps_the_twin_rules(players):
    """USA-CLAIM-1/2 and USA-CLAIM-7/8 on the quick path: a claim's payment is checked by the identity of the engine's
    own payment tuples (RouteTable.fits: only interned ones, which live on, and only where their shape fits); an
    equal tuple built by hand is left to check, and gives the same state; a twin closed to the seat is refused, with
    the rule id, whatever the quick path had cached."""
    from ttr_nb.board.engine import _quick
    from ttr_nb.errors import IllegalAction
    from ttr_nb.board.tables import interned
    v = get_variant("usa")
    t = v.route_table
    s = new_game("usa", players, 5)
    bots = [RandomBot(50 + i) for i in range(players)]
    claims = twins = 0
    while s.phase != "over":
        seat = to_move(s)[0]
        if not s.pending and s.phase in ("play", "last_round") and s.ply % 3 == 0:
            for action in legal_actions(s, seat):
                if action.__class__ is not Claim:
                    continue
                i = t.by_label[action.route].index
                copy = tuple(tuple(part) for part in action.payment)        # equal, not the engine's own
                assert copy == action.payment and not interned(copy) and id(copy) not in t.fits[i]
                hand_built = Claim(route=action.route, payment=copy, seat=seat)
                assert _quick(v, s, hand_built, False) is None
                if claims < 30:
                    assert apply(s, hand_built) == apply(s, action)
                claims += 1
            for r in v.map.routes:                                # twins the seat may not take (USA-CLAIM-7/8)
                if s.claims[r.index] != -1 or not t.twins[r.index] or not route_payments(v, r, s.players[seat].hand):
                    continue
                problem = claim_problem(v, s, seat, r, None)
                if problem is None or problem[1] not in ("USA-CLAIM-7", "USA-CLAIM-8"):
                    continue
                pay = route_payments(v, r, s.players[seat].hand)[0]
                closed = Claim(route=t.labels[r.index], payment=pay, seat=seat)
                assert _quick(v, s, closed, False) is None
                with pytest.raises(IllegalAction) as err:
                    apply(s, closed)
                assert err.value.rule == problem[1]
                twins += 1
        s = apply(s, bots[seat].choose(s, seat)[0])
    from ttr_nb.board.tables import _PAYMENTS
    own = {id(p) for p in _PAYMENTS.values()}
    assert all(fit <= own for fit in t.fits) and any(t.fits)
    assert claims > 50 and twins > 0


def made_by_the_bot(variant, picks, seeds):
    """Each action the random bots make that ``picks`` (a test on the action) in random 4-player games of
    ``variant`` (a bot's seed: the game's times 5 plus its seat), checked first to be the one RouteTable.made holds
    with that very state, one of legal_actions', and taken by apply to the state the checked path gives: yields
    (state, seat, action, bots); each game goes on from that state after the action."""
    t = get_variant(variant).route_table
    for seed in seeds:
        s = new_game(variant, 4, seed)
        bots = [RandomBot(seed * 5 + i) for i in range(4)]
        while s.phase != "over":
            seat = to_move(s)[0]
            action = bots[seat].choose(s, seat)[0]
            if picks(action):
                assert t.made[0] is action and t.made[1] is s
                assert action in legal_actions(s, seat)
                fast = apply(s, action)
                t.made = (None, None)                         # the same action, checked
                assert apply(s, action) == fast
                yield s, seat, action, bots
                s = fast
            else:
                s = apply(s, action)


@pytest.mark.parametrize("variant", available_variants())
def test_a_claim_the_random_bot_made_is_taken_unchecked_only_for_its_own_state(variant):
    """RouteTable.made: the random bot's claim, built from claimable_mask and payment_tuple, is one of
    legal_actions' claims, and apply takes it without _quick_claim's checks to the state the checked path gives; the
    same claim applied to another state (the route taken meanwhile, a twin closed, an edited hand) is checked as any
    other and refused."""
    from ttr_nb.board.state import replace_fields
    from ttr_nb.errors import TTRError
    t = get_variant(variant).route_table
    made = refused = 0
    for s, seat, action, _ in made_by_the_bot(variant, lambda a: a.__class__ is Claim, range(2)):
        made += 1
        if made % 4 == 0:                                     # the claim, made for s, on other states: checked there
            i = t.by_label[action.route].index
            taken = replace_fields(s, claims=s.claims[:i] + ((seat + 1) % 4,) + s.claims[i + 1:])
            poor = replace_fields(s, players=tuple(
                replace_fields(p, hand=(0,) * len(p.hand)) if k == seat else p for k, p in enumerate(s.players)))
            for other in (taken, poor):
                t.made = (action, s)
                with pytest.raises(TTRError):
                    apply(other, action)
                refused += 1
    assert made > 40 and refused > 10


def test_the_random_bots_decks_without_tickets_remembered_by_identity_change_no_choice():
    """RandomBot.choose remembers the ticket decks tuple last found without a ticket in any deck, and skips reading
    that very tuple again: every choice is the one made with nothing remembered, for decks without tickets (the same
    tuple, in either variant, or an equal one) and with tickets; decks with tickets are never remembered."""
    import ttr_nb.bots as bots
    from ttr_nb.board.actions import DrawTickets
    from ttr_nb.board.state import replace_fields
    states = []
    for variant in ("usa", "europe"):
        s = new_game(variant, 4, 3)
        b = [RandomBot(i) for i in range(4)]
        while s.phase == "setup" or s.pending:
            seat = to_move(s)[0]
            s = apply(s, b[seat].choose(s, seat)[0])
        states.append(s)
    empty, full = (("regular", ()),), (("regular", ("T01",)),)
    drew = skipped = 0
    for s in states:
        for decks, known in ((empty, empty), (tuple(list(empty)), empty), (full, empty), (full, None)):
            s = replace_fields(s, ticket_decks=decks)
            for b in range(40):
                bots._NO_TICKETS = None
                plain = RandomBot(b).choose(s, s.current)
                assert bots._NO_TICKETS in (None, decks) and (bots._NO_TICKETS is None or decks is not full)
                bots._NO_TICKETS = known
                assert RandomBot(b).choose(s, s.current) == plain
                drew += plain[0].__class__ is DrawTickets
                skipped += decks is known
    bots._NO_TICKETS = None
    assert drew > 20 and skipped == 80


@pytest.mark.parametrize("variant", available_variants())
def test_a_ticket_keep_the_random_bot_made_is_taken_unmatched_only_for_its_own_state(variant):
    """RouteTable.made: the random bot's ticket keep (at the setup and in mid-game) is one of legal_actions' keeps,
    and apply takes its tickets from there to the state the names' matching gives; the same keep applied to another
    state (an edited offer, its tickets in another order or others) is matched as any other and gives what the
    general path gives (or is refused with it). RandomBot.choose draws the keep's index in its own loop when the
    offer is the first pending step: the same keep as bots._keep_at_random with the ply's Counter (the pickers'
    way), and as the bot's choice for a seat whose offer is not the first step."""
    from ttr_nb.board.actions import KeepTickets
    from ttr_nb.board.engine import _checked_general
    from ttr_nb.board.state import Pending, replace_fields
    from ttr_nb.bots import _keep_at_random
    from ttr_nb.errors import TTRError
    from ttr_nb.rng import Counter
    v = get_variant(variant)
    t = v.route_table
    made = edited = reordered = 0
    phases = set()
    for s, seat, action, bots in made_by_the_bot(variant, lambda a: a.__class__ is KeepTickets, range(2)):
        phases.add(s.phase)
        made += 1
        assert _keep_at_random(v, s, s.pending_for(seat), Counter(bots[seat].seed, seat, s.ply, s.seed)) == action
        p = s.pending_for(seat)
        data = dict(p.data)
        for offered in (data["offered"][::-1], data["offered"][1:], tuple(reversed(sorted(t.ticket_text)))[:3]):
            other = replace_fields(s, pending=tuple(
                Pending(q.kind, q.seat, tuple((k, offered if k == "offered" else x) for k, x in q.data))
                if q is p else q for q in s.pending))
            again = bots[seat].choose(s, seat)[0]           # the keep made again for s, applied to other
            assert again == action and t.made[0] is again and t.made[1] is s
            try:
                expected = _checked_general(v, other, again, None, False)
            except TTRError:
                with pytest.raises(TTRError):
                    apply(other, again)
            else:
                assert apply(other, again) == expected
            edited += 1
        for q in s.pending[1:]:                               # (the setup's later offers: first once, and not)
            first = replace_fields(s, pending=(q,) + tuple(x for x in s.pending if x is not q))
            assert bots[q.seat].choose(first, q.seat)[0] == bots[q.seat].choose(s, q.seat)[0]
            reordered += 1
    assert made > 15 and edited == 3 * made and "play" in phases and reordered >= 12 * ("setup" in phases)
    assert "setup" in phases or variant == "south_korea"          # (South Korea's setup is a draft of its own)


def _taken_by_another(state, action):
    """``state`` with what ``action`` (a province claim's route, a station's city) takes held by the next seat."""
    from ttr_nb.board.state import pairs_set, replace_fields
    other = (action.seat + 1) % state.n_players
    if hasattr(action, "city"):                           # Europe's station: the city holds the next seat's station
        q = state.players[other]
        stations = tuple(q.get("stations", ())) + (action.city,)
        players = list(state.players)
        players[other] = replace_fields(q, ext=pairs_set(q.ext, "stations", stations))
        return replace_fields(state, players=tuple(players))
    i = get_variant(state.variant).route_table.by_label[action.route].index
    return replace_fields(state, claims=state.claims[:i] + (other,) + state.claims[i + 1:])


@pytest.mark.parametrize("variant, kind", [("south_korea", "ProvinceClaim"), ("europe", "BuildStation")])
def test_a_feature_action_the_random_bot_made_is_taken_unchecked_only_for_its_own_state(variant, kind):
    """RouteTable.made for a feature's own action: the random bot's province claim (ProvinceBoard.bot_random's, made
    at once or later from a _LaterClaim) or station (Stations.bot_random's) is one of legal_actions' actions, and
    the feature's quick path takes it without its checks to the state the checked path gives; the same action on
    another state (its route or city taken meanwhile, an edited empty hand) is checked as any other and refused."""
    from ttr_nb.board.state import replace_fields
    from ttr_nb.errors import TTRError
    t = get_variant(variant).route_table
    made = refused = 0
    for s, seat, action, _ in made_by_the_bot(variant, lambda a: a.__class__.__name__ == kind, range(3)):
        made += 1
        poor = replace_fields(s, players=tuple(
            replace_fields(p, hand=(0,) * len(p.hand)) if k == seat else p for k, p in enumerate(s.players)))
        for other in (_taken_by_another(s, action), poor):
            t.made = (action, s)
            with pytest.raises(TTRError):
                apply(other, action)
            refused += 1
    assert made > 20 and refused > 40


@pytest.mark.parametrize("variant", available_variants())
def test_claims_info_of_all_free_claims_and_of_a_claim_made_are_the_plain_ones(variant):
    """tables.ClaimsInfo: a new game's claims (all free, read by one count) and the info RouteTable.claimed derives
    from it for one claim are what the definition gives route by route (free routes; twins closed to the claimer and,
    with few players, to all); a short edited tuple takes the loop."""
    from ttr_nb.board.tables import FREE, ClaimsInfo
    t = get_variant(variant).route_table
    n = len(t.routes)

    def plain(claims):
        blocked = {}
        for i, owner in enumerate(claims):
            if owner != FREE:
                for j in t.twins[i]:
                    blocked[owner] = blocked.get(owner, 0) | 1 << j
        blocked_all = 0
        for b in blocked.values():
            blocked_all |= b
        return sum(1 << i for i, owner in enumerate(claims) if owner == FREE), blocked, blocked_all

    def got(info):
        return info.free, {s: b for s, b in info.blocked.items() if b}, info.blocked_all

    start = (FREE,) * n
    assert got(ClaimsInfo(t, start)) == plain(start) and ClaimsInfo(t, start).free == t.all
    assert got(ClaimsInfo(t, start[:-1])) == plain(start[:-1])
    twinned = [i for i in range(n) if t.twins[i]] or [0]
    for i in (0, twinned[0], n - 1):
        t.forget()
        t.claims_info(start)
        after = start[:i] + (2,) + start[i + 1:]
        t.claimed(start, after, i, 2)
        assert t.latest.claims is after and got(t.latest) == plain(after)
        assert got(ClaimsInfo(t, after)) == plain(after)
    # (RouteTable.all_but, what claimed clears a claimed route's bit with: every route but that one)
    assert t.all_but == tuple(t.all & ~(1 << i) for i in range(n))


def test_ferries_payable_by_arithmetic_exactly_when_a_payment_exists():
    """EU-FERRY: claimable_mask decides a ferry (routes needing locomotives) from counts alone; it must agree with
    the listed payments for every hand, including hands short of locomotives or of the colour (without a
    locomotive it skips the ferries: each needs one or more)."""
    import random

    from dataclasses import replace

    from ttr_nb.board.tables import claimable_mask
    v = get_variant("europe")
    t = v.route_table
    assert t.special_rows, "Europe has ferries"
    s = new_game("europe", 2, 0)
    rng = random.Random(18)
    hands = [tuple(rng.choice((0, 0, 1, 2, 3, 5)) for _ in range(9)) for _ in range(400)]
    hands += [(0,) * 8 + (k,) for k in range(7)] + [(3,) + (0,) * 7 + (1,), (1,) * 8 + (0,)]
    hands += [(12,) * 8 + (14,), (12,) + (0,) * 7 + (1,), (0,) * 8 + (14,)]     # counts beyond the longest route
    hands += [(6,) * 8 + (0,), (12,) * 8 + (0,), (0, 6) + (0,) * 7]                # no locomotive, colours to spare
    agreed = payable = 0
    for hand in hands:
        players = (replace(s.players[0], hand=hand), s.players[1])
        state = replace(s, players=players)
        mask = claimable_mask(v, state, 0, True)
        for i, *_ in t.special_rows:
            expected = bool(route_payments(v, t.routes[i], hand))
            assert bool(mask >> i & 1) == expected, (t.routes[i].id, hand)
            agreed += 1
            payable += expected
    assert agreed > 1000 and 0 < payable < agreed


def test_maerklin_plus4_claimable_by_arithmetic_exactly_when_a_payment_exists():
    """MK-CLAIM-2: with +4 locomotives in hand claimable_mask reads the padded rows once more (colour + locomotives +
    the +4 cards); it must agree with the listed payments for every route and hand, counts beyond the padding (the
    clipped rows) included."""
    import random

    from dataclasses import replace

    from ttr_nb.board.cards import LOCO4
    from ttr_nb.board.tables import WIDE, claimable_mask
    v = get_variant("maerklin")
    t = v.route_table
    assert t.extra_wilds and not t.special, "Märklin's +4 locomotive is its only extra wild"
    s = new_game("maerklin", 2, 0)
    rng = random.Random(42)
    hands = [tuple(rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(LOCO4)) + (rng.choice((1, 1, 2, 3)),) + (0,)
             for _ in range(250)]
    hands += [(0,) * LOCO4 + (k, 0) for k in range(1, 5)] + [(0,) * 8 + (1, 1, 0), (5,) + (0,) * 8 + (1, 0)]
    hands += [(WIDE,) + (0,) * 8 + (1, 0), (0,) * 8 + (WIDE - 2, 3, 0)]         # past the padded rows: clipped
    agreed = payable = 0
    for hand in hands:
        state = replace(s, players=(replace(s.players[0], hand=hand), s.players[1]))
        mask = claimable_mask(v, state, 0, True)
        for r in v.map.routes:
            expected = r.length <= state.players[0].trains and bool(route_payments(v, r, hand))
            assert bool(mask >> r.index & 1) == expected, (r.id, hand)
            agreed += 1
            payable += expected
    assert agreed > 10000 and 0 < payable < agreed


def mask_agrees_with_payments(v, s, hands, trains_cycle) -> tuple[int, int]:
    """Seat 0 of the 2-player state ``s`` given each of ``hands`` in turn, with the trains of ``trains_cycle`` in
    turn: claimable_mask holds exactly the routes short enough with a listed payment. (routes checked, payable)."""
    from dataclasses import replace

    from ttr_nb.board.tables import claimable_mask
    agreed = payable = 0
    for k, hand in enumerate(hands):
        trains = trains_cycle[k % len(trains_cycle)]
        state = replace(s, players=(replace(s.players[0], hand=hand, trains=trains), s.players[1]))
        mask = claimable_mask(v, state, 0, True)
        for r in v.map.routes:
            expected = r.length <= trains and bool(route_payments(v, r, hand))
            assert bool(mask >> r.index & 1) == expected, (r.id, hand, trains)
            agreed += 1
            payable += expected
    return agreed, payable


@pytest.mark.parametrize("variant", ["usa", "south_korea"])
def test_claimable_by_colour_pairs_exactly_when_a_payment_exists(variant):
    """USA-CLAIM-1..3: claimable_mask reads the eight colours as four pairs of rows (RouteTable.pair_colours, up to
    a colour's and the locomotives' cards of the deck), hands past them the padded rows one colour at a time, and past
    those the clipped rows: each must agree with the listed payments for every route, with fewer trains too."""
    import random

    from ttr_nb.board.cards import LOCO
    from ttr_nb.board.tables import WIDE
    v = get_variant(variant)
    t = v.route_table
    reach = len(t.pair_colours[0])
    s = new_game(variant, 2, 0)
    rng = random.Random(7)
    hands = [tuple(rng.choice((0, 0, 1, 2, 3, 4, 6)) for _ in range(LOCO + 1)) for _ in range(300)]
    hands += [(reach - 1,) + (0,) * 8, (0,) * 7 + (reach,) + (0,), (0,) * 8 + (reach,), (2,) * 8 + (reach - 2,)]
    hands += [(WIDE,) + (0,) * 8, (1,) + (0,) * 7 + (WIDE - 1,), (0, 5) + (0,) * 6 + (WIDE + 3,)]
    agreed, payable = mask_agrees_with_payments(v, s, hands, (45, t.top - 1, 2))
    assert agreed > 20000 and 0 < payable < agreed


@pytest.mark.parametrize("variant", ["usa", "europe", "maerklin"])
def test_the_random_bots_payment_is_the_listed_one_at_its_index(variant):
    """USA-CLAIM-1..3 (EU-FERRY, MK-CLAIM-2): route_payments and RandomBot read a route's payments from the payment
    table (tables.payment_tuple, which RandomBot.choose calls with its own draws) instead of listing them: the
    payments listed colour by colour (tables.listed_payments), then Märklin's with +4 locomotives, the very same
    shared tuples in the same order, and the one at the index the same counter draws from their count
    (tables.random_payment), for every route and many hands (short of locomotives, of the colour, or rich, some past
    every deck's count; in Märklin with and without +4 locomotives)."""
    import random

    from ttr_nb.rng import Counter
    from ttr_nb.board.tables import _extra_wild_payments, listed_payments, payment_tuple, random_payment
    v = get_variant(variant)
    t = v.route_table
    rng = random.Random(18)
    hands = [tuple(rng.choice((0, 0, 1, 2, 3, 5, 8, 12, 14, 30)) for _ in range(v.card_kinds))
             for _ in range(150)]
    picked = set()
    for h, hand in enumerate(hands):
        for i, route in enumerate(t.routes):
            listed = listed_payments(t, i, hand) + tuple(_extra_wild_payments(v, route, hand, t.colour[i],
                                                                              t.min_locos[i]))
            pays = payment_tuple(v, i, hand)
            assert len(pays) == len(listed) and all(a is b for a, b in zip(pays, listed)), (route.id, hand)
            assert route_payments(v, route, hand) == list(pays)
            if not pays:
                continue
            for key in range(3):
                pay = random_payment(v, i, hand, Counter(h, i, key))
                assert pay is pays[Counter(h, i, key).index(len(pays))], (route.id, hand, key)
                picked.add((i, pay))
    assert len(picked) > 1_000


@pytest.mark.parametrize("variant", ["usa", "maerklin"])
def test_a_negative_count_pays_for_nothing_in_route_payments(variant):
    """USA-CLAIM-2/3 on an edited hand that validate refuses (a negative count): the payment table would read its
    rows from their ends and offer cards the hand does not hold, so route_payments lists such a hand colour by colour:
    no payment uses the negative kind; a negative colour leaves the payments the hand without it has, negative
    locomotives leave none (they short every payment, as the listing always counted them)."""
    from ttr_nb.board.cards import LOCO
    v = get_variant(variant)
    checked = 0
    for negative in (0, 3, LOCO):
        hand = [4] * v.card_kinds
        hand[negative] = -1
        zeroed = list(hand)
        zeroed[negative] = 0
        for route in v.map.routes:
            pays = route_payments(v, route, tuple(hand))
            assert all(hand[k] >= n for pay in pays for k, n in pay), (route.id, hand)
            if negative == LOCO:
                assert pays == [], (route.id, hand)
            else:
                assert pays == route_payments(v, route, tuple(zeroed)), (route.id, hand)
                checked += bool(pays)
    assert checked > 100


def test_the_random_bots_ticket_keep_is_the_listed_choice_at_its_index():
    """USA-TICKET-2: RandomBot picks the k-th of legal_actions' ticket keeps from positions listed once per offer
    size (bots.keep_choices) instead of listing the actions: the same order for every offer size and least keep."""
    from itertools import combinations

    from ttr_nb.bots import _nth_combination, keep_choices
    from ttr_nb.board.names import ticket_text
    for n in range(0, 8):                           # (South Korea's draft keep: 4 of 5-7, by _nth_combination)
        items = tuple("abcdefg"[:n])
        for size in range(n + 1):
            listed = list(combinations(items, size))
            assert [_nth_combination(items, size, k) for k in range(len(listed))] == listed
    for variant, players in (("usa", 3), ("europe", 4)):          # setup offers of 3 and 4 tickets
        s = new_game(variant, players, 7)
        m = get_variant(variant).map
        for p in s.pending:
            offered = [ticket_text(m, t) for t in p.get("offered")]
            listed = [a.tickets for a in legal_actions(s, p.seat)]
            assert [tuple(offered[j] for j in c) for c in keep_choices(len(offered), p.get("min_keep"))] == listed
    assert len(keep_choices(3, 1)) == 7 and keep_choices(2, 3) == ((0, 1),)     # an offer smaller than the least keep
    s = new_game("usa", 3, 4)                       # the setup offers: 3 tickets, keep at least 2 (USA-SETUP-3)
    for seat in range(3):
        listed = legal_actions(s, seat)
        assert len(listed) == 4
        picks = {RandomBot(b).choose(s, seat)[0] for b in range(60)}
        assert picks <= set(listed) and len(picks) == 4


def test_a_ticket_offer_read_by_one_unpacking_or_by_its_keys_gives_the_same_keep():
    """USA-SETUP-3 / USA-TICKET-2: engine._quick_keep and bots._keep_at_random read an offer's data in one
    unpacking when it starts with the engine's shape (min_keep, offered, returns, in that order; Märklin's rule
    after them) and by its keys otherwise: an edited offer (its pairs in another order, one pair more first or last,
    "returns" missing) gives the same new state as the general path and the unedited offer, and the same choice of
    the random bot, at the setup and in mid-game."""
    from ttr_nb.board.actions import DrawTickets
    from ttr_nb.board.engine import _general, _quick
    from ttr_nb.board.state import Pending, replace_fields
    checked = 0
    phases = set()
    for variant, players, seed in (("usa", 3, 5), ("usa", 4, 9), ("europe", 3, 2), ("maerklin", 3, 4)):
        v = get_variant(variant)
        s = new_game(variant, players, seed)
        bots = [RandomBot(seed * 3 + i) for i in range(players)]
        offers = 0                                  # mid-game offers seen
        while s.phase != "over" and offers < 3:
            for p in s.pending:
                if p.kind != "choose_tickets":
                    continue
                offers += s.phase == "play"
                phases.add(s.phase)
                data = p.data
                assert [k for k, _ in data[:3]] == ["min_keep", "offered", "returns"]  # the shape read at once
                for edited_data in (data[::-1], data + (("note", 1),), data[1:] + data[:1], data[:2],
                                    (("note", 1),) + data):
                    edited = replace_fields(s, pending=tuple(Pending(q.kind, q.seat, edited_data) if q is p else q
                                                             for q in s.pending))
                    for b in range(3):
                        assert RandomBot(b).choose(edited, p.seat) == RandomBot(b).choose(s, p.seat)
                    for a in legal_actions(s, p.seat):
                        fast = _quick(v, edited, a, False)
                        if len(edited_data) <= 2:               # no "returns": neither path keeps by the rules
                            assert fast is None
                            continue
                        assert fast == _general(v, edited, a, p.seat, None) == _quick(v, s, a, False), str(a)
                        checked += 1
            seat = to_move(s)[0]
            a = bots[seat].choose(s, seat)[0]
            if s.phase == "play" and not s.pending and s.ticket_deck(v.settings.ticket_deck):
                a = DrawTickets(seat=seat)                  # (a mid-game offer every turn)
            s = apply(s, a)
    assert checked > 100 and phases == {"setup", "play"}


def test_the_random_bots_express_choices_are_the_listed_ones_in_a_3_player_game():
    """SK-TURN-2: ExpressCards.bot_random hands the random bot turn_actions (one shared tuple, ``_express_choices``):
    the same actions, in the same order, at every turn of a 3-player game."""
    v = get_variant("south_korea")
    express = v.feature("express")
    s = new_game("south_korea", 3, 1)
    bots = [RandomBot(30 + i) for i in range(3)]
    seen = 0
    while s.phase != "over":
        seat = to_move(s)[0]
        if not s.pending:
            listed = express.turn_actions(v, s, seat)
            lazy = express.bot_random(v, s, seat, None)
            assert len(lazy) == len(listed) and [lazy[k] for k in range(len(lazy))] == listed
            with pytest.raises(IndexError):
                lazy[len(lazy)]
            seen += bool(listed)
        s = apply(s, bots[seat].choose(s, seat)[0])
    assert seen > 20


def test_the_express_pickers_tables_are_max_and_the_boosts_and_edited_cards_take_the_plain_way():
    """SK-TURN-2: _EXPRESS_TERMS (the express cards' largest value, the claim's boosts (0,) + the cards), read by the
    random pickers instead of max() and tuple(), holds max(left) and (0,) + left for every set of cards a validated
    state may hold; an edited state's cards (a list, an unsorted tuple) miss them and the pickers still hand out
    turn_actions, and the province pick (cards as a list) the same claim with the same numbers drawn as with the
    usual tuple."""
    from itertools import combinations
    from ttr_nb.board.state import pairs_set, replace_fields
    from ttr_nb.games.south_korea import _EXPRESS_TERMS, EXPRESS_VALUES
    from ttr_nb.rng import Counter
    sets = [c for n in range(len(EXPRESS_VALUES) + 1) for c in combinations(EXPRESS_VALUES, n)]
    assert _EXPRESS_TERMS == {c: (max(c) if c else 0, (0,) + c) for c in sets}
    v = get_variant("south_korea")
    express, province = v.feature("express"), v.feature("province")
    checked = 0
    for seed, s, seat in random_game_states("south_korea", 8):
        if s.pending or s.phase == "setup":
            continue
        left = dict(s.players[seat].ext).get("express", ())
        for edited in ([*left], tuple(reversed(left))):
            players = list(s.players)
            players[seat] = replace_fields(players[seat], ext=pairs_set(players[seat].ext, "express", edited))
            e = replace_fields(s, players=tuple(players))
            assert list(express.bot_random(v, e, seat, None)) == express.turn_actions(v, e, seat), (seed, s.ply)
            if isinstance(edited, list):                    # (a reversed tuple boosts in its own order)
                plain, odd = Counter(seed, seat, s.ply), Counter(seed, seat, s.ply)
                assert list(province.bot_random(v, e, seat, odd)) == list(province.bot_random(v, s, seat, plain))
                assert odd.index(1 << 30) == plain.index(1 << 30)
            checked += len(left) > 1
    assert checked > 20


def test_the_random_bots_province_pick_is_the_listed_claim_it_would_pick():
    """SK-PROV-3/SK-EXPRESS-3: ProvinceBoard.bot_random counts a route's province claims by size and makes only the
    one picked: the claim the listing (turn_actions' order) has at the same index, with the same random numbers
    drawn, at every turn of whole games; the province room it reads (cached, and carried over by the quick path
    from board to board) is the room computed afresh."""
    from ttr_nb.games.south_korea import ProvinceClaim, _LaterClaim, _placeable, _placeable_now
    from ttr_nb.rng import Counter
    v = get_variant("south_korea")
    province = v.feature("province")

    def listed_pick(state, seat, r):                      # the listing's way: every claim of a route, one picked
        trains = state.players[seat].trains
        routes = [x for x in claimable_routes(v, state, seat, affordable_only=True) if trains > x.length]
        while routes:
            options = province._options(v, state, seat, (routes.pop(r.index(len(routes))),))
            if options:
                return [ProvinceClaim(*options[r.index(len(options))], seat)]
        return []
    picked = later = 0
    for seed, s, seat in random_game_states("south_korea", 40):
        assert _placeable(v, s) == _placeable_now(v, s), (seed, s.ply)     # kept up by the quick path too
        if not s.pending:
            for k in range(3):
                lazy, listed = Counter(seed, seat, s.ply, k), Counter(seed, seat, s.ply, k)
                got = province.bot_random(v, s, seat, lazy)
                assert list(got) == listed_pick(s, seat, listed), (seed, s.ply, k)
                assert lazy.index(1 << 30) == listed.index(1 << 30)     # the same numbers were drawn
                picked += bool(got)
                later += isinstance(got, _LaterClaim)       # counted off, made on demand (express cards left)
    assert picked > 50 and later > 20


def test_south_koreas_kept_terms_are_the_variants_own_and_follow_another_variant_object():
    """South Korea's province code reads its variant's route table, province lines and top space from _TERMS_LAST,
    kept for the last variant object it ran for: at every ply of whole games they are that variant's own, and a
    second variant object (a copy, with a route table of its own) is answered from its own table, province routes
    and claims alike, then the first again."""
    import copy
    from ttr_nb.games import south_korea as sk
    v = get_variant("south_korea")
    other = copy.copy(v)
    other.__dict__["route_table"] = type(v.route_table)(other)
    checked = 0
    for seed, s, seat in random_game_states("south_korea", 7, games=1):
        if not s.pending and s.phase != "setup":
            for w in (v, other, v):
                sk._ROUTES_LAST = (None, None, 0)
                routes = sk._province_routes(w, s, seat)
                assert sk._TERMS_LAST[0] is w and sk._TERMS_LAST[1] is w.route_table
                assert sk._TERMS_LAST[2:] == (sk.province_lines(v), sk._province_top(v))
                trains = s.players[seat].trains
                assert routes == sum(1 << x.index for x in claimable_routes(w, s, seat, affordable_only=True)
                                     if trains > x.length)
            checked += 1
    assert checked > 50
    assert other.route_table is not v.route_table


def test_the_random_bots_station_pick_is_the_listed_station_it_would_pick():
    """EU-STATION-1..3: Stations.bot_random counts the free cities and the station's payments and makes only the
    one picked: the action turn_actions lists at the same random index, with the same random numbers drawn, at
    every turn of whole games (stations built as they go, hands of every size)."""
    from ttr_nb.rng import Counter
    v = get_variant("europe")
    stations = v.feature("stations")
    picked = 0
    for seed, s, seat in random_game_states("europe", 50, games=3):
        if not s.pending:
            lazy, listed = Counter(seed, seat, s.ply), Counter(seed, seat, s.ply)
            actions = stations.turn_actions(v, s, seat)
            got = stations.bot_random(v, s, seat, lazy)
            assert got == ([actions[listed.index(len(actions))]] if actions else []), (seed, s.ply)
            assert lazy.index(1 << 30) == listed.index(1 << 30)     # the same numbers were drawn
            picked += bool(got)
    assert picked > 50


def test_a_tunnels_colour_is_the_first_coloured_card_of_the_payment():
    """europe.tunnel_colour (a plain loop): the payment's first card kind that is not a locomotive, None for all
    locomotives or no cards (EU-TUNNEL-2/3), as the comprehension read it."""
    from ttr_nb.board.cards import LOCO
    from ttr_nb.games.europe import tunnel_colour
    for pay in ((), ((LOCO, 2),), ((3, 2),), ((3, 1), (LOCO, 1)), ((LOCO, 1), (5, 2)), ((0, 1),)):
        colours = [k for k, _ in pay if k != LOCO]
        assert tunnel_colour(pay) == (colours[0] if colours else None), pay


def test_a_players_stations_read_first_are_what_pairs_get_reads():
    """europe._stations_in (the stations read from a player's first pair, an empty ext answered at once) agrees with
    pairs_get on the usual shapes and on edited ones."""
    from ttr_nb.board.state import pairs_get
    from ttr_nb.games.europe import _stations_in
    for ext in ((), (("stations", ()),), (("stations", ("Berlin", "Wien")),), (("goods", 1),),
                (("a", 1), ("stations", ("Roma",))), [], [("stations", ("Paris",))]):
        assert _stations_in(ext) == pairs_get(ext, "stations", ()), ext


def test_the_owned_routes_kept_for_scoring_are_each_seats_routes():
    """europe._owned (best_borrowing's routes of a seat, one pass over the claims kept for the claims tuple and the
    number of players): each seat's route indices in order, as the plain comprehension reads them, for states along
    whole games, an empty board, and a state edited to fewer players that shares the claims tuple."""
    from ttr_nb.board.state import replace_fields
    from ttr_nb.games.europe import _owned
    checked = 0
    for seed, s, seat in random_game_states("europe", 7, games=2):
        for k in range(s.n_players):
            assert _owned(s)[k] == [i for i, owner in enumerate(s.claims) if owner == k]
        checked += 1
    assert checked > 100
    s = new_game("europe", 4, 3)
    assert _owned(s) == [[], [], [], []]
    claims = tuple((i % 5) - 1 for i in range(len(s.claims)))      # FREE (-1) and seats 0..3
    four = replace_fields(s, claims=claims)
    two = replace_fields(four, n_players=2, players=four.players[:2])
    assert two.claims is four.claims
    for state in (four, two, four):
        assert _owned(state) == [[i for i, owner in enumerate(claims) if owner == k] for k in range(state.n_players)]


def test_the_random_bots_draft_pick_and_keep_are_the_listed_ones():
    """SK-SETUP-3/4: TicketDraft.random_pending picks a draft pick or the keep of 4 without listing them: the action
    pending_actions lists at the same random index, with the same random numbers drawn, at every draft step."""
    from ttr_nb.rng import Counter
    v = get_variant("south_korea")
    draft = v.feature("ticket_draft")
    assert v.pending_feature("draft_pick") is draft and v.pending_feature("draft_keep") is draft
    assert v.pending_feature("choose_tickets") is None
    kinds = {"draft_pick": 0, "draft_keep": 0}
    for seed, s, seat in random_game_states("south_korea", 60, games=3):
        p = s.pending_for(seat) if s.pending else None
        if p is not None and p.kind in kinds:
            for k in range(3):
                lazy, listed = Counter(seed, seat, s.ply, k), Counter(seed, seat, s.ply, k)
                actions = draft.pending_actions(v, s, p)
                assert draft.random_pending(v, s, p, lazy) == actions[listed.index(len(actions))], (seed, s.ply)
                assert lazy.index(1 << 30) == listed.index(1 << 30)
            kinds[p.kind] += 1
    assert kinds["draft_pick"] >= 3 * 6 * 2 and kinds["draft_keep"] >= 3 * 2


def test_the_random_bots_maerklin_choices_are_the_listed_ones():
    """MK-TICKET-1, MK-PASS-1..3: TicketMix.bot_random and Passengers.bot_random hand the random bot turn_actions
    as sequences (announcements kept per deck sizes; rides made when asked for): the same actions, in the same
    order, at every turn of whole games."""
    v = get_variant("maerklin")
    mix, passengers = v.feature("ticket_mix"), v.feature("passengers")
    rides = 0
    for seed, s, seat in random_game_states("maerklin", 80):
        if not s.pending:
            for f in (mix, passengers):
                lazy = f.bot_random(v, s, seat, None)
                assert [lazy[k] for k in range(len(lazy))] == f.turn_actions(v, s, seat), (seed, s.ply)
                with pytest.raises(IndexError):
                    lazy[len(lazy)]
            rides += len(passengers.bot_random(v, s, seat, None))
    assert rides > 100


def test_the_random_bots_maerklin_pending_picks_are_the_listed_ones():
    """MK-CLAIM-5, MK-PASS-1..3: Passengers.random_pending picks what the random bot would pick from the listed
    pending actions (a placement's cities and none; a journey's rides and the stop), with the same random
    numbers, at every placement and journey step of whole games."""
    v = get_variant("maerklin")
    seen = {"place_passenger": 0, "journey": 0}
    for seed, s, seat in random_game_states("maerklin", 90, games=3):
        p = s.pending_for(seat) if s.pending else None
        if p is None or p.kind not in seen:
            continue
        assert_random_pending_is_listed(v, v.feature("passengers"), s, p, seed)
        seen[p.kind] += 1
    assert min(seen.values()) > 20, seen


def test_the_random_bots_tunnel_answer_is_the_listed_one():
    """EU-TUNNEL-2..4: Tunnels.random_pending picks what the random bot would pick from the listed answers (each
    extra payment, then the withdrawal), with the same random numbers, at every pending tunnel of whole games."""
    v = get_variant("europe")
    seen = 0
    for seed, s, seat in random_game_states("europe", 70, games=6, players=4):
        p = s.pending_for(seat) if s.pending else None
        if p is None or p.kind != "tunnel":
            continue
        seen += assert_random_pending_is_listed(v, v.feature("tunnels"), s, p, seed) > 1
    assert seen > 5, seen


def test_a_pending_tunnels_data_read_in_place_is_what_its_pairs_say():
    """europe._tunnel_data reads the pairs _tunnel_step makes in place: the same (route, played, revealed, extra) as
    Pending.get reads, for every pending tunnel of whole games and for edited ones (a pair more, a pair less, other
    order); garbled data is still refused."""
    from ttr_nb.board.state import new_pending
    from ttr_nb.errors import TTRError
    from ttr_nb.games.europe import _played_payment, _revealed_kinds, _tunnel_data

    def plain(p):
        return (p.get("route"), _played_payment(p.get("played")), _revealed_kinds(p.get("revealed")), p.get("extra"))
    seen = 0
    for seed, s, seat in random_game_states("europe", 70, games=4, players=4):
        p = s.pending_for(seat) if s.pending else None
        if p is None or p.kind != "tunnel":
            continue
        assert _tunnel_data(p) == plain(p)
        data = p.data
        for edited in (data[:5], data + (("zz", 1),), tuple(reversed(data)), (("a", 0),) + data[1:]):
            q = new_pending("tunnel", p.seat, edited)
            if all(q.get(k) is not None for k in ("route", "played", "revealed", "extra")):
                assert _tunnel_data(q) == plain(q)
            else:
                with pytest.raises(TTRError):
                    _tunnel_data(q)
        seen += 1
    assert seen > 5, seen


def assert_random_pending_is_listed(v, feature, s, p, seed) -> int:
    """``feature.random_pending`` at pending step ``p`` is ``legal_actions``' entry at the random bot's index, for
    three counters, and it draws as many numbers; returns how many actions are listed."""
    from ttr_nb.rng import Counter
    listed = legal_actions(s, p.seat)
    for n in range(3):
        one, two = Counter(n, p.seat, s.ply, seed), Counter(n, p.seat, s.ply, seed)
        assert feature.random_pending(v, s, p, one) == listed[two.index(len(listed))], (seed, s.ply, n)
        assert one._x == two._x
    return len(listed)


def random_game_states(variant, bot_seed, games=2, players=None):
    """(game, state, seat to move) at every ply of seeded random-bot games of ``players`` (default: 4, then 3)."""
    for seed in range(games):
        s = new_game(variant, players or 4 - seed, seed)
        bots = [RandomBot(bot_seed + i) for i in range(s.n_players)]
        while s.phase != "over":
            seat = to_move(s)[0]
            yield seed, s, seat
            s = apply(s, bots[seat].choose(s, seat)[0])


def test_every_answer_to_a_tunnel_takes_the_quick_path_to_the_general_paths_state():
    """EU-TUNNEL-2..5: at every pending tunnel of whole random games, each listed answer (every extra payment, and
    withdrawing) gives the same state by Tunnels.quick, trusted or checked, as by the general path."""
    from ttr_nb.board.engine import _general, _quick, check
    v = get_variant("europe")
    answers = {"TunnelPay": 0, "TunnelWithdraw": 0}
    for seed, s, _ in random_game_states("europe", 70, games=4, players=4):
        if s.pending and s.pending[0].kind == "tunnel":
            for a in legal_actions(s):
                a, seat = check(s, a)
                slow = _general(v, s, a, seat, None)
                for trusted in (True, False):
                    fast = _quick(v, s, a, trusted)
                    assert fast is None or fast == slow, (seed, s.ply, str(a), trusted)
                answers[type(a).__name__] += fast is not None         # (None: the game's last turn)
    assert min(answers.values()) >= 3, answers


def test_a_tunnel_claim_with_three_cards_left_takes_the_quick_path_to_the_general_paths_state():
    """EU-TUNNEL-2/6: with exactly three cards in the deck a tunnel turns them all up (no reshuffle), by
    Tunnels.quick as by the general path; with fewer the general path reshuffles (Tunnels.quick declines)."""
    from ttr_nb.board.engine import _general, _quick, check
    from ttr_nb.board.actions import Claim
    v = get_variant("europe")
    taken = {True: 0, False: 0}
    for seed, s, seat in random_game_states("europe", 90, games=6, players=4):
        if s.pending or len(s.deck) > 3 or s.phase not in ("play", "last_round"):
            continue
        for a in legal_actions(s, seat):
            if type(a) is not Claim or not v.route_table.by_label[a.route].tunnel:
                continue
            a, seat = check(s, a)
            slow = _general(v, s, a, seat, None)
            for trusted in (True, False):
                fast = _quick(v, s, a, trusted)
                assert (fast is not None) == (len(s.deck) == 3), (seed, s.ply, str(a), trusted)
                assert fast is None or fast == slow, (seed, s.ply, str(a), trusted)
            taken[len(s.deck) == 3] += 1
    assert min(taken.values()) >= 3, taken


def test_maerklin_rides_from_the_table_are_the_step_route_definition():
    """MK-PASS-1..3: the rides Passengers lists from its per-map table are the neighbouring cities (no country) that
    step_route reaches with the passenger cards in hand, at every ply of whole games, from every city a passenger
    of the seat to move stands in, with and without used routes."""
    from ttr_nb.games.maerklin import Ride, is_country, movable, step_route
    v = get_variant("maerklin")
    passengers = v.feature("passengers")

    def plain(s, seat, at, used, cards):
        out, seen = [], set()
        for r in v.map.routes_at(at):
            b = r.other(at)
            if b in seen or is_country(v, b):
                continue
            seen.add(b)
            got = step_route(v, s, seat, at, b, used)
            if got[0] is not None and got[1] <= cards:
                out.append(Ride(a=at, b=b, seat=seat))
        return out
    rides = 0
    for seed, s, seat in random_game_states("maerklin", 50):
        used = tuple(v.map.routes[i].id for i, owner in enumerate(s.claims) if owner != -1)[::3]
        for _, at in movable(s, seat):
            for u in ((), used):
                for cards in (0, 2):
                    got = passengers._rides(v, s, seat, at, u, cards)
                    assert got == plain(s, seat, at, u, cards), (seed, s.ply, at, u, cards)
                    rides += len(got)
    assert rides > 100


def _listed_random_choice(v, state, seat, bot_seed):
    """What RandomBot picks, the plain way (USA-DRAW-1..4, USA-CLAIM-1..4, USA-TICKET-1): a ``Counter(bot seed,
    seat, ply, game seed)``, the kinds draw / claim / tickets tried in a random order, the draws, the claimable
    routes and a route's payments listed, one pick by index each. None for a ticket keep (tested above)."""
    from ttr_nb.board.actions import Claim, DrawTickets
    from ttr_nb.board.engine import draw_actions
    from ttr_nb.board.names import route_labels
    from ttr_nb.rng import Counter
    r = Counter(bot_seed, seat, state.ply, state.seed)
    p = state.pending_for(seat)
    if p is not None:
        if p.kind != "second_card":
            return None
        acts = draw_actions(state, seat, True)
        return acts[r.index(len(acts))]
    kinds = [0, 1, 2]
    while kinds:
        kind = kinds.pop(r.index(len(kinds)))
        if kind == 0 and draw_actions(state, seat, False):
            acts = draw_actions(state, seat, False)
            return acts[r.index(len(acts))]
        if kind == 1:
            routes = claimable_routes(v, state, seat, affordable_only=True)
            if routes:
                route = routes[r.index(len(routes))]
                pays = route_payments(v, route, state.players[seat].hand)
                return Claim(route=route_labels(v.map)[route.index], payment=pays[r.index(len(pays))], seat=seat)
        if kind == 2 and state.ticket_deck(v.settings.ticket_deck):
            return DrawTickets(seat=seat)
    return legal_actions(state, seat)[0]


@pytest.mark.parametrize("players", [2, 4])
def test_the_random_bots_written_out_draws_are_the_counters(players):
    """RandomBot.choose writes the counter's first draws out as integer arithmetic (no Counter object on a plain
    turn or a second card): every choice of whole seeded games equals the one the listed, Counter-based definition
    picks (the golden games pin the same numbers; this names the place if they ever drift)."""
    v = get_variant("usa")
    compared = 0
    for seed in range(3):
        bots = [RandomBot(seed * 7 + i) for i in range(players)]
        s = new_game("usa", players, seed)
        while s.phase != "over":
            seat = to_move(s)[0]
            action, _ = bots[seat].choose(s, seat)
            expected = _listed_random_choice(v, s, seat, bots[seat].seed)
            if expected is not None:
                assert action == expected, (seed, s.ply)
                compared += 1
            s = apply(s, action)
    assert compared > 300 * players // 2


def test_nth_bit_is_the_kth_of_the_set_bits():
    """tables.nth_bit (the random bot's and South Korea's pick among claimable routes, USA-CLAIM-1) is ``bits(mask)[k]``
    for sparse, dense and wide masks and every k, and refuses a k beyond the set bits."""
    import random

    from ttr_nb.board.tables import bits, nth_bit
    rng = random.Random(18)
    masks = [1, 1 << 200, (1 << 101) - 1] + [rng.getrandbits(rng.choice((8, 64, 110, 300))) & rng.getrandbits(300)
                                            for _ in range(300)]
    for mask in masks:
        assert [nth_bit(mask, k) for k in range(mask.bit_count())] == bits(mask)
    with pytest.raises(ValueError):
        nth_bit(0b1011, 3)


def test_quick_paths_leave_a_base_action_a_feature_takes_over_to_the_general_path():
    """The base quick paths do not ask ``feature_for`` themselves: the per-variant table (``_quick_path``) does,
    once per class. A feature that takes claims over must keep every claim off the quick claim path."""
    import dataclasses
    from ttr_nb.board import engine
    from ttr_nb.variants import Feature

    class TakesClaims(Feature):
        name = "takes_claims"

        def handles(self, action) -> bool:
            return isinstance(action, Claim)

    usa = get_variant("usa")
    taken = dataclasses.replace(usa, key="usa_taken", features=(TakesClaims(),))
    bots = [RandomBot(40 + i) for i in range(3)]
    state = new_game("usa", 3, 40)
    claims = 0
    while state.phase != "over" and claims < 10:
        seat = to_move(state)[0]
        action, _ = bots[seat].choose(state, seat)
        if action.__class__ is Claim:
            new = engine._quick(usa, state, action, False)
            if new is not None:
                claims += 1
                assert engine._quick(taken, state, action, False) is None
        state = apply(state, action)
    assert claims == 10
    assert taken.quick_paths == {Claim: None}
    assert usa.quick_paths[Claim] is engine._quick_claim


@pytest.mark.parametrize("pairs", [(), (("express", (1, 2)),), (("goods", (7,)),), (("a", 1), ("goods", (3,)), ("z", 2))])
@pytest.mark.parametrize("value", [(5,), None, ()])
def test_pairs_set_quick_case_is_the_sorted_rebuild(pairs, value):
    """``pairs_set``'s one-key shortcut (a feature's table or player holding one key) gives the pairs the sorted
    rebuild gives: the key set, removed (None) or added, the others kept in key order."""
    from ttr_nb.board.state import pairs_set
    want = {k: v for k, v in pairs if k != "goods"}
    if value is not None:
        want["goods"] = value
    assert pairs_set(pairs, "goods", value) == tuple(sorted(want.items()))


def test_the_remembered_full_market_is_full_and_another_tuple_is_looked_at():
    """The quick paths skip ``None in market`` for the market tuple they last found or made full (engine._full):
    that tuple has no empty slot after every quick ply of a game, and a state whose market has an empty slot is
    refused by every quick path even right after a full market was remembered (the general path takes it)."""
    from ttr_nb.board import engine
    from ttr_nb.board.actions import DrawTickets, KeepTickets
    from ttr_nb.board.state import replace_fields
    v = get_variant("usa")
    s = new_game("usa", 4, 3)
    bots = [RandomBot(30 + i) for i in range(4)]
    remembered = 0
    while s.phase != "over":
        seat = to_move(s)[0]
        a = bots[seat].choose(s, seat)[0]
        fast = engine._quick(v, s, a, False)
        if fast is not None:
            assert None not in engine._full[0]
            remembered += engine._full[0] is fast.market
            if s.phase != "setup" and fast.phase != "over":
                holed = replace_fields(s, market=(None,) + s.market[1:])
                assert engine._quick(v, holed, a, False) is None, (s.ply, str(a))
                assert engine._quick(v, holed, a, True) is None, (s.ply, str(a))
        s = apply(s, a)
    assert remembered > 100


@pytest.mark.parametrize("variant", available_variants())
def test_the_route_tables_ticket_decks_are_the_maps(variant):
    """The quick keep returns a ticket to the deck ``RouteTable.ticket_deck`` names: the map's own ticket deck."""
    v = get_variant(variant)
    assert v.route_table.ticket_deck == {t.id: v.map.ticket(t.id).deck for t in v.map.tickets}


@pytest.mark.parametrize("variant", ["usa", "south_korea"])
def test_USA_SETUP_3_several_seats_to_move_are_their_pending_seats_ascending(variant):
    """``to_move`` with several pending steps (every seat's setup tickets, South Korea's draft) reads the seats
    from a table by their bit set: the pending steps' seats, ascending, each once, whatever their order."""
    from dataclasses import replace
    several = 0
    for seed in range(3):
        s = new_game(variant, 4, seed)
        bots = [RandomBot(seed * 7 + i) for i in range(4)]
        while s.phase != "over":
            if len(s.pending) > 1:
                several += 1
                seats = tuple(sorted({p.seat for p in s.pending}))
                assert to_move(s) == seats
                assert to_move(replace(s, pending=s.pending[::-1])) == seats
                assert to_move(replace(s, pending=s.pending + s.pending[:1])) == seats
            seat = to_move(s)[0]
            s = apply(s, bots[seat].choose(s, seat)[0])
    assert several >= (9 if variant == "usa" else 60)        # (setup: 4, 3 and 2 seats still choosing)


def test_offer_terms_reads_an_offer_of_any_shape_as_its_keys_say():
    """state.offer_terms: the engine's own offer shape by one unpacking, any other (keys in another order, a pair
    more, one missing, a list) by key: the same (min_keep, offered, returns) as pairs_get."""
    from ttr_nb.board.state import offer_terms, pairs_get
    usual = (("min_keep", 1), ("offered", (3, 5, 8)), ("returns", "bottom"))
    shapes = [usual, usual + (("rule", "MK-TICKET-1"),), usual[::-1], (("extra", 0),) + usual, usual[:2],
              [list(p) for p in usual], ()]
    for data in shapes:
        want = tuple(pairs_get(data, k) for k in ("min_keep", "offered", "returns"))
        assert offer_terms(data) == want, data
    assert offer_terms(usual) == (1, (3, 5, 8), "bottom")


@pytest.mark.parametrize("variant", available_variants())
def test_the_per_key_terms_are_the_variants_own_and_an_alias_takes_the_same_turns(variant):
    """What the quick paths and the random bot read of a variant by its key (engine._TURN_TERMS and _RESET_TERMS,
    bots._TURN_PLAN: a Variant's attributes are generic lookups in CPython 3.11) is the variant's own, and a state
    named by an alias, which those tables do not hold, plays the same game through the fallbacks."""
    from ttr_nb import bots as bots_module
    from ttr_nb.board import engine
    from ttr_nb.board.state import replace_fields
    v = get_variant(variant)
    s = new_game(variant, 3, 5)
    alias = replace_fields(s, variant=v.aliases[0])
    players = [RandomBot(50 + i) for i in range(3)]
    plies = 0
    while s.phase != "over" and plies < 400:
        seat = to_move(s)[0]
        a = players[seat].choose(s, seat)[0]
        assert players[seat].choose(alias, seat)[0] == a, (s.ply, str(a))
        s, alias = apply(s, a), apply(alias, a)
        assert alias == replace_fields(s, variant=v.aliases[0]), (s.ply, str(a))
        plies += 1
    assert plies > 100
    hooks = v.route_table.round_end_hooks       # (one hook with a quick round end: that bound method itself)
    one = len(hooks) == 1 and hooks[0].quick_round_end is not None
    assert engine._TURN_TERMS[variant] == (hooks[0].quick_round_end if one else hooks, v.settings.end_trains)
    assert one == (variant == "maerklin")
    kinds, limit, calm = engine._RESET_TERMS[variant]
    assert (kinds, limit) == (v.settings.market_reset_kinds, v.settings.market_loco_limit)
    assert calm[0] is not None and engine._reset_kind(calm[0], kinds, limit) is None   # (see the next test)
    kinds = bots_module._KIND_ORDERS_EXTRA if v.features else bots_module._KIND_ORDERS
    assert bots_module._TURN_PLAN[variant] == (v, kinds, len(kinds), v.settings.ticket_deck)
    assert bots_module._turn_plan(v.aliases[0]) == bots_module._TURN_PLAN[variant]
    assert v.aliases[0] not in engine._TURN_TERMS and v.aliases[0] not in bots_module._TURN_PLAN
    if v.features:                              # (the random bot asks a board with features only)
        assert bots_module._FEATURE_PLAN[variant] == (v, v.bot_idle, bots_module._pending_pickers(v),
                                                      bots_module._own_pickers(v))
        assert bots_module._feature_plan(v.aliases[0]) == bots_module._FEATURE_PLAN[variant]
        assert v.aliases[0] not in bots_module._FEATURE_PLAN


@pytest.mark.parametrize("slot", [0, -1, 6, 99, True, 1.0])
def test_a_face_up_slot_outside_the_market_or_not_a_plain_int_is_left_to_check(slot):
    """_quick_draw reads the slot's card from the market tuple and takes a slot past its end as IndexError: slots
    outside 1..5 (a negative one would index from the end), a bool and a float are refused, and check words them."""
    from ttr_nb.board.engine import _quick
    from ttr_nb.errors import TTRError
    s = new_game("usa", 2, 1)
    while s.phase == "setup":
        s = apply(s, legal_actions(s)[0])
    action = DrawFaceUp(slot=slot, seat=s.current)
    assert _quick(get_variant("usa"), s, action, False) is None
    with pytest.raises(TTRError):
        apply(s, action)


def test_a_face_up_draw_counts_the_market_only_when_it_may_reset_and_resets_as_the_general_path():
    """USA-DRAW-6 on the quick path: a market a face-up draw made showing fewer than 3 locomotives is remembered
    (engine._RESET_TERMS' calm market), and a draw from it counts the market only when the new card is a
    locomotive; a market kept with 3 locomotives (or any other tuple) is counted again, so the reset is tried again
    when the draw takes another card. Every case gives the general path's state."""
    from ttr_nb.board import engine
    from ttr_nb.board.cards import LOCO
    from ttr_nb.board.state import replace_fields
    v = get_variant("usa")
    s = new_game("usa", 2, 4)
    while s.phase == "setup":
        s = apply(s, legal_actions(s)[0])
    red, blue, green = 0, 1, 2
    rest = tuple(c for c in s.deck if c != LOCO)
    calm = engine._RESET_TERMS["usa"][2]

    def both(state, slot):
        action = DrawFaceUp(slot=slot, seat=state.current)
        fast = engine._quick(v, state, action, False)
        slow = engine._general(v, state, action, state.current, None)
        assert fast == slow, (state.market, state.deck[:6], slot)
        return fast

    # two locomotives shown, a third turned up: the market resets (from a remembered calm market too)
    s1 = replace_fields(s, market=(LOCO, LOCO, red, blue, green), deck=(LOCO,) + rest)
    calm[0] = s1.market
    after = both(s1, 3)
    assert after.market.count(LOCO) < 3 and after.discard != s1.discard
    # a calm market and a card that is no locomotive: no count, no reset, and the new market is remembered
    s2 = replace_fields(s, market=(LOCO, LOCO, red, blue, green), deck=rest)
    calm[0] = s2.market
    after = both(s2, 4)
    assert calm[0] is after.market and after.discard == s2.discard
    # a market kept with three locomotives (the reset could not be avoided then): taking a coloured card leaves
    # three shown, and the reset is tried again; with only locomotives left to turn up it stays, and is not calm
    s3 = replace_fields(s, market=(LOCO, LOCO, LOCO, red, blue), deck=rest)
    after = both(s3, 4)
    assert after.market.count(LOCO) < 3 and after.discard != s3.discard
    s4 = replace_fields(s, market=(LOCO, LOCO, LOCO, red, blue), deck=(green,) + (LOCO,) * 10,
                        discard=(0,) * len(s.discard))
    both(s4, 5)
    assert calm[0] is not None and engine._reset_kind(calm[0], (LOCO,), 3) is None


def test_a_second_cards_key_read_from_two_tables_is_the_sum_of_the_slots_bits():
    """draw_choices' key of a five-slot market for a second card, read as _LOCO_KEY3[m0][m1][m2] + _LOCO_KEY2[m3][m4],
    is the per-slot table's sum plus the size (and _shut_key's) for every kind in every slot, negative indices
    reading the same entries as before; an empty slot or a kind past the table's end raises, as before."""
    from itertools import product
    from ttr_nb.board.engine import _LOCO_KEY, _LOCO_KEY2, _LOCO_KEY3, _shut_key
    kinds = range(-len(_LOCO_KEY[0]), len(_LOCO_KEY[0]))
    for m0, m1, m2 in product(kinds, repeat=3):
        for m3, m4 in ((m0, m1), (m2, m0), (8, m2), (m1, 8)):
            t = _LOCO_KEY
            summed = t[0][m0] + t[1][m1] + t[2][m2] + t[3][m3] + t[4][m4] + 5
            assert _LOCO_KEY3[m0][m1][m2] + _LOCO_KEY2[m3][m4] == summed
    for market in product((0, 3, 7, 8, 9, 10), repeat=5):         # (colours, the locomotive, Märklin's own kinds)
        m0, m1, m2, m3, m4 = market
        assert _LOCO_KEY3[m0][m1][m2] + _LOCO_KEY2[m3][m4] == _shut_key(market, True)
    for m0, m4 in ((None, 1), (1, None), (len(_LOCO_KEY[0]), 1), (1, len(_LOCO_KEY[0]))):
        with pytest.raises((TypeError, IndexError)):
            _LOCO_KEY3[m0][1][2] + _LOCO_KEY2[3][m4]


def test_maerklin_tables_by_key_are_the_variants_own():
    """maerklin._TABLES (what the quick paths and the random bot read by state.variant instead of v.__dict__ and
    v.route_table, generic lookups in CPython 3.11) holds the variant's own tables, kept for its key only: a state
    named by an alias gets the same ones through _tables each time."""
    from ttr_nb.games import maerklin as mk
    v = get_variant("maerklin")
    s = new_game("maerklin", 4, 3)
    bots = [RandomBot(30 + i) for i in range(4)]
    for _ in range(120):                        # claims, rides and journey steps fill the table
        seat = to_move(s)[0]
        s = apply(s, bots[seat].choose(s, seat)[0])
    want = (mk._ride_index(v), mk._ride_pairs(v), mk._ride_table(v), mk._placeable_ends(v), v.route_table)
    assert mk._TABLES["maerklin"] == want
    assert all(a is b for a, b in zip(mk._TABLES["maerklin"], want))
    alias = v.aliases[0]
    assert all(a is b for a, b in zip(mk._tables(v, alias), want))
    assert alias not in mk._TABLES


@pytest.mark.parametrize("ext", [
    (), (("goods", ()),), (("goods", ()), ("passengers", ("A", "*"))), (("passengers", ("B",)),),
    (("goods", (1,)), ("moved", (0,)), ("passengers", ("C", "*"))), (("passengers", ("D",)), ("zzz", 1)),
    (("moved", (1,)),),
])
def test_maerklin_passengers_in_is_pairs_get(ext):
    """maerklin._passengers_in (the last pair read first, ext[-1] once) is pairs_get(ext, "passengers", ()) on every
    shape of a player's pairs: empty, without passengers, passengers last or not."""
    from ttr_nb.games import maerklin as mk
    from ttr_nb.board.state import pairs_get
    assert mk._passengers_in(ext) == pairs_get(ext, "passengers", ())
