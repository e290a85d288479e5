"""Märklin's own quick paths and their shortcuts agree with the general path at every turn of real games."""
from __future__ import annotations

from ttr_nb.board import engine
from ttr_nb.board.engine import apply, new_game, to_move
from ttr_nb.board.state import new_player, replace_fields
from ttr_nb.bots import RandomBot
from ttr_nb.variants import get_variant


def played(bots_from: int, seeds=range(3)):
    """(seed, state, seat to move, the random bot's action) at every ply of seeded random-bot 4-player Märklin games
    (the bots of game ``seed`` seeded ``bots_from + 4 * seed`` on); each action is played once the test has looked."""
    for seed in seeds:
        s = new_game("maerklin", 4, seed)
        bots = [RandomBot(bots_from + 4 * seed + i) for i in range(4)]
        while s.phase != "over":
            seat = to_move(s)[0]
            a = bots[seat].choose(s, seat)[0]
            yield seed, s, seat, a
            s = apply(s, a)


def test_maerklins_quick_paths_refuse_a_market_with_an_empty_slot_after_a_full_one_was_remembered():
    """Märklin's quick paths (announcements at setup and on a turn, placements, rides, stops) skip ``None in market``
    for the market tuple the engine remembers as full (engine._full): right after a quick ply remembered one, the
    same ply from a state whose market has an empty slot is refused by every quick path (the general path takes it),
    and the ply itself gives the general path's state."""
    v = get_variant("maerklin")
    kinds = set()
    for seed, s, seat, a in played(40, range(2)):
        fast = engine._quick(v, s, a, False)
        slow = apply(s, a)
        if fast is not None:
            assert fast == slow, (seed, s.ply, str(a))
            assert None not in engine._full[0]
            if fast.phase != "over":
                kinds.add(type(a).__name__ + (" at the setup" if s.phase == "setup" else ""))
                holed = replace_fields(s, market=(None,) + s.market[1:])
                assert engine._quick(v, holed, a, False) is None, (seed, s.ply, str(a))
                assert engine._quick(v, holed, a, True) is None, (seed, s.ply, str(a))
    assert kinds >= {"Announce at the setup", "Announce", "PlacePassenger", "Ride", "Stop"}, kinds


def test_maerklin_plus4_claimable_by_colour_pairs_at_and_past_the_pairs_rows():
    """MK-CLAIM-2: with +4 locomotives in hand claimable_mask reads the colours once more as four pairs of rows
    (RouteTable.pair_colours), and past those rows the padded ones colour by colour: hands on both sides of the
    pairs' last row, with fewer trains too, must agree with the listed payments for every route."""
    import random

    from test_engine_fastpaths import mask_agrees_with_payments
    from ttr_nb.board.cards import LOCO, LOCO4
    v = get_variant("maerklin")
    t = v.route_table
    reach = len(t.pair_colours[0])
    s = new_game("maerklin", 2, 0)
    rng = random.Random(11)
    hands = []
    for _ in range(200):
        hand = [rng.choice((0, 0, 1, 2, 3, 5)) for _ in range(LOCO)] + [rng.choice((0, 1, 3, 8)),
                                                                         rng.choice((1, 2, 6)), 0]
        k = hand[LOCO] + hand[LOCO4]
        hand[rng.randrange(LOCO)] = reach - k - rng.choice((1, 0, 0, -2))      # the pairs' last row, or past it
        hands.append(tuple(hand))
    past = sum(max(hand[:LOCO]) + hand[LOCO] + hand[LOCO4] >= reach for hand in hands)
    agreed, payable = mask_agrees_with_payments(v, s, hands, (45, t.top - 1, 3))
    assert agreed > 10000 and 0 < payable < agreed and 20 < past < len(hands) - 20


def test_maerklin_quick_round_end_reads_every_shape_of_a_players_pairs():
    """MK-PASS-6: quick_round_end passes over a player whose pairs are the usual two (goods, passengers) without
    reading them all; a player with two pairs one of which is the travelled passengers (a position without goods),
    with three, or with other pairs is read in full: each player's passengers leave exactly as on_round_end's
    ``_left_game`` has them leave."""
    from ttr_nb.board.state import new_player, pairs_get
    from ttr_nb.games.maerklin import MOVED, RESERVE, _left_game
    v = get_variant("maerklin")
    f = v.route_table.round_end_hooks[0]
    here = ("Berlin", "Leipzig", RESERVE)
    exts = [(("goods", (3,)), ("passengers", here)),
            (("goods", ()), (MOVED, (1,)), ("passengers", here)),
            ((MOVED, (0,)), ("passengers", here)),
            ((MOVED, (0, 1)), ("passengers", here), ("zz", 1)),
            (("goods", ()), (MOVED, ())),
            (("passengers", here),),
            ()]
    for a in exts:
        for b in exts:
            players = tuple(new_player((0,) * 11, 45, (), 0, ext) for ext in (a, b, exts[0], a))
            expected = tuple(new_player(p.hand, p.trains, p.tickets, p.route_points, _left_game(p.ext))
                             if pairs_get(p.ext, MOVED, ()) else p for p in players)
            assert f.quick_round_end(v, players) == expected, (a, b)


def test_maerklin_stopped_passenger_on_a_players_usual_pairs_as_on_any_pairs():
    """MK-PASS-6: ``_stopped`` writes a player's usual two pairs (goods, passengers) directly, the travelled slot
    between them, reading the journey's seven pairs in place; on those and on every other shape of either it gives
    the pairs ``pairs_set`` gives."""
    from ttr_nb.board.state import new_pending, pairs_get, pairs_set
    from ttr_nb.games.maerklin import MOVED, RESERVE, _journey_step, _stopped
    here = ("Berlin", "Leipzig", RESERVE)
    exts = [(("goods", (3,)), ("passengers", here)),
            (("goods", ()), (MOVED, (1,)), ("passengers", here)),
            ((MOVED, (1,)), ("passengers", here)),
            (("goods", ()), ("passengers", here), ("zz", 1)),
            (("passengers", here),)]
    for ext in exts:
        for slot in (0, 1):
            journey = _journey_step(2, "Dresden", slot, here[slot], ("r1",), ("Dresden",))
            mine = list(pairs_get(ext, "passengers"))
            mine[slot] = "Dresden"
            expected = pairs_set(pairs_set(ext, "passengers", tuple(mine)), MOVED,
                                 tuple(sorted(set(pairs_get(ext, MOVED, ())) | {slot})))
            assert _stopped(ext, journey) == expected, (ext, slot)
            data = journey.data                         # the seven pairs read in place, and other shapes
            for shape in (tuple(reversed(data)), (("aa", 1),) + data, data[:1] + data[2:] + (("zz", 1),)):
                assert _stopped(ext, new_pending("journey", 2, shape)) == expected, (ext, slot, shape)


def test_maerklin_usual_set_gives_the_pairs_pairs_set_gives():
    """A placement and a goods token rewrite a player's usual pairs (goods, passengers) in place (``_usual_set``):
    on those and on every other shape the pairs are ``pairs_set``'s."""
    from ttr_nb.board.state import pairs_set
    from ttr_nb.games.maerklin import MOVED, RESERVE, _usual_set
    here = ("Berlin", RESERVE, RESERVE)
    exts = [(("goods", (3,)), ("passengers", here)),
            (("goods", ()), (MOVED, (0,)), ("passengers", here)),
            ((MOVED, (0,)), ("passengers", here)),
            (("goods", (4,)), (MOVED, (0,))),
            (("passengers", here),),
            (("goods", ()),),
            ()]
    for ext in exts:
        for key, value in (("goods", (5, 2)), ("passengers", ("Berlin", "Kassel", RESERVE))):
            assert _usual_set(ext, key, value) == pairs_set(ext, key, value), (ext, key)


def _listed_extra_wild_payments(v, route, hand, c0, min_locos):
    """MK-CLAIM-2's payments with +4 locomotives listed one by one and sorted (fewest wild cards, then the payment):
    what ``tables._extra_wild_payments`` reads from its groups."""
    from ttr_nb.board.cards import LOCO
    length = route.length
    out = []
    for w, shortest, _ in v.settings.wilds:
        if w == LOCO or length < shortest or not hand[w]:
            continue
        for n_w in range(1, min(hand[w], length) + 1):
            for n_l in range(0, min(hand[LOCO], length - n_w) + 1):
                if n_l < min_locos:
                    continue
                rest = length - n_w - n_l
                wild_part = tuple(sorted(((w, n_w),) + (((LOCO, n_l),) if n_l else ())))
                if rest == 0:
                    out.append((n_w + n_l, wild_part))
                    continue
                for c in (range(LOCO) if c0 < 0 else (c0,)):
                    if hand[c] >= rest:
                        out.append((n_w + n_l, ((c, rest),) + wild_part))
    out.sort()
    return [pay for _, pay in out]


def test_maerklin_plus4_payments_from_their_groups_as_listed_one_by_one():
    """MK-CLAIM-2: the payments with +4 locomotives, read from the groups kept per route length and wild cards held,
    are the payments listed one by one and sorted, in the same order, each the engine's shared (interned) tuple;
    for every route and hands with few and many cards, negative counts (an edited state) included."""
    import random

    from ttr_nb.board import tables
    from ttr_nb.board.cards import LOCO, LOCO4
    v = get_variant("maerklin")
    t = v.route_table
    rng = random.Random(5)
    hands = [tuple(rng.choice((0, 0, 1, 2, 4, 7, 12)) for _ in range(LOCO)) + (rng.choice((0, 1, 2, 5, 14)),
                                                                              rng.choice((0, 1, 2, 3, 6)), 1)
             for _ in range(150)]
    hands += [(3,) * 8 + (-1, 2, 0), (3,) * 8 + (2, -1, 0), (-2,) + (6,) * 7 + (1, 3, 0)]
    assert sum(1 for hand in hands if hand[LOCO4] > 0) > 100
    listed = 0
    for hand in hands:
        for r in v.map.routes:
            got = tables._extra_wild_payments(v, r, hand, t.colour[r.index], t.min_locos[r.index])
            assert got == _listed_extra_wild_payments(v, r, hand, t.colour[r.index], t.min_locos[r.index]), (r.id, hand)
            assert all(tables.intern(pay) is pay for pay in got)
            listed += len(got)
    assert listed > 5000


def test_maerklin_random_bots_rides_are_the_listed_ones():
    """MK-PASS-1/2: Passengers.bot_random hands the random bot the rides turn_actions lists (the shared Ride of
    each), in the same order, at every turn of whole games."""
    v = get_variant("maerklin")
    passengers = v.feature("passengers")
    seen = 0
    for seed, s, seat, a in played(70):
        if not s.pending and s.phase != "setup":
            listed = passengers.turn_actions(v, s, seat)
            assert list(passengers.bot_random(v, s, seat, None)) == listed, (seed, s.ply)
            seen += bool(listed)
    assert seen > 50


def test_maerklin_ticket_mix_taken_from_the_usual_decks_as_from_any_decks():
    """MK-TICKET-1: ``_take_mix`` reads the usual ticket decks (long, short: sorted pairs) in place and makes the new
    pairs in order; the same decks given in another order, or with another deck beside them, go the dict's way: the
    same decks (sorted pairs), the same tickets offered, the same refusals."""
    from ttr_nb.games.maerklin import _take_mix
    s = new_game("maerklin", 4, 3)
    decks = s.ticket_decks
    assert [name for name, _ in decks] == ["long", "short"]
    for short, long in ((0, 0), (5, 1), (1, 0), (0, 3)):
        small = replace_fields(s, ticket_decks=(("long", decks[0][1][:long]), ("short", decks[1][1][:short])))
        flipped = replace_fields(small, ticket_decks=small.ticket_decks[::-1])
        extra = replace_fields(small, ticket_decks=small.ticket_decks + (("spare", ("x",)),))
        for mix in ((2, 2), (4, 0), (0, 4), (1, 0), (0, 1), (1, 2), (3, 1), (0, 0), (-1, 5), (True, 3), (2.0, 2)):
            for total in (None, 4):
                for trusted in (False, True):
                    if trusted and not (mix[0].__class__ is int and mix[1].__class__ is int and min(mix) >= 0):
                        continue
                    got = _take_mix(small, mix, total, trusted)
                    assert _take_mix(flipped, mix, total, trusted) == got, (short, long, mix, total, trusted)
                    other = _take_mix(extra, mix, total, trusted)
                    assert (other is None) == (got is None)
                    if got is not None:
                        assert other == (got[0] + (("spare", ("x",)),), got[1])


def test_maerklin_movable_slot_is_the_first_movable_passenger_in_the_city():
    """MK-TURN-1/MK-PASS-6: ``_movable_slot`` (a move's first step) reads a player's usual pairs (goods, passengers)
    without looking for travelled ones; on those and on every other shape it names the first slot ``movable`` lists
    in the city, or None."""
    from ttr_nb.board.state import new_player
    from ttr_nb.games.maerklin import DONE, MOVED, RESERVE, _movable_slot, movable
    s = new_game("maerklin", 2, 0)
    here = ("Berlin", "Kassel", "Berlin")
    exts = [(("goods", (3,)), ("passengers", here)),
            (("goods", ()), (MOVED, (0,)), ("passengers", here)),
            ((MOVED, (2,)), ("passengers", here)),
            (("goods", ()), ("passengers", ("Kassel", RESERVE, DONE))),
            (("goods", ()), (MOVED, (0, 1))),
            (("goods", ()),),
            ()]
    for ext in exts:
        q = s.players[1]
        state = replace_fields(s, players=(s.players[0], new_player(q.hand, q.trains, q.tickets, q.route_points, ext)))
        for city in ("Berlin", "Kassel", "Leipzig", RESERVE, DONE):
            slots = [i for i, w in movable(state, 1) if w == city]
            assert _movable_slot(state, 1, city) == (slots[0] if slots else None), (ext, city)


def test_maerklin_left_game_on_a_players_usual_pairs_as_on_any_pairs():
    """MK-PASS-6: at a round's end ``_left_game`` writes a player's usual pairs with travelled slots (goods, moved,
    passengers) directly as the two left; on those and on every other shape it gives the pairs ``pairs_set`` gives
    (the travelled passengers done, the travelled slots dropped), None when nobody travelled."""
    from ttr_nb.board.state import pairs_get, pairs_set
    from ttr_nb.games.maerklin import DONE, MOVED, RESERVE, _left_game
    here = ("Berlin", "Kassel", RESERVE)
    exts = [(("goods", (3,)), (MOVED, (0,)), ("passengers", here)),
            (("goods", ()), (MOVED, (0, 1)), ("passengers", here)),
            ((MOVED, (1,)), ("passengers", here)),
            (("goods", ()), (MOVED, (1,)), ("passengers", here), ("zz", 2)),
            (("aa", 1), (MOVED, (0,)), ("passengers", here)),
            (("goods", ()), (MOVED, ()), ("passengers", here)),
            (("goods", ()), ("passengers", here))]
    for ext in exts:
        moved = pairs_get(ext, MOVED, ())
        mine = list(pairs_get(ext, "passengers"))
        for i in moved:
            mine[i] = DONE
        expected = pairs_set(pairs_set(ext, "passengers", tuple(mine)), MOVED, None) if moved else None
        assert _left_game(ext) == expected, ext


def test_maerklin_setup_announcement_picked_as_from_the_listed_mixes():
    """MK-SETUP-3: TicketMix.random_pending picks a seat's setup announcement from the shared announcements of the
    clipped deck sizes when the decks hold 4 tickets or more; for every pair of deck sizes (in either order, with a
    spare deck beside them) and several counters it is the one ``pending_actions`` lists at the same draw."""
    from ttr_nb.games.maerklin import SETUP_KIND
    from ttr_nb.board.state import Pending
    from ttr_nb.rng import Counter
    v = get_variant("maerklin")
    mix = v.feature("ticket_mix")
    s = new_game("maerklin", 4, 5)
    decks = dict(s.ticket_decks)
    picked = set()
    for short in range(8):
        for long in range(8):
            pairs = (("long", decks["long"][:long]), ("short", decks["short"][:short]))
            for shape in (pairs, pairs[::-1], pairs + (("spare", ("x",)),)):
                state = replace_fields(s, ticket_decks=shape)
                for seat in range(4):
                    p = Pending(SETUP_KIND, seat, ())
                    listed = mix.pending_actions(v, state, p)
                    if not listed:
                        continue
                    for k in range(6):
                        a, b = Counter.of_state(1000 * k + 7 * short + long), Counter.of_state(1000 * k + 7 * short + long)
                        got = mix.random_pending(v, state, p, a)
                        assert got == listed[b.index(len(listed))] and a.state == b.state, (short, long, seat, k)
                        picked.add((got.short, got.long))
    assert picked == {(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)}


def test_maerklin_journey_step_picked_as_from_the_listed_steps_on_any_pairs():
    """MK-PASS-1..3: Passengers.random_pending reads a journey's pairs in place when they are the seven
    ``_journey_step`` makes; at every journey step of whole games, with those pairs and with pairs of other shapes
    (another key before or after them, one left out), the random bot's pick is the one ``pending_actions`` lists at
    the same draw."""
    from ttr_nb.board.state import Pending
    from ttr_nb.rng import Counter
    v = get_variant("maerklin")
    passengers = v.feature("passengers")
    seen = 0
    for seed, s, seat, a in played(90):
        if s.pending and s.pending[0].kind == "journey":
            p = s.pending[0]
            data = p.data
            assert len(data) == 7
            shapes = (data, (("aa", 1),) + data, data + (("zz", 1),), data[:4] + data[5:],
                      tuple(pair for pair in data if pair[0] != "text") + (("zz", 1),))
            for shape in shapes:
                q = Pending("journey", p.seat, shape)
                for k in range(4):
                    r1, r2 = Counter.of_state(31 * s.ply + k), Counter.of_state(31 * s.ply + k)
                    listed = passengers.pending_actions(v, s, q)
                    got = passengers.random_pending(v, s, q, r1)
                    assert got == listed[r2.index(len(listed))] and r1.state == r2.state, (seed, s.ply, shape)
            seen += 1
    assert seen > 20


def test_maerklin_placement_and_ride_read_their_pairs_in_place_as_on_any_pairs():
    """MK-CLAIM-5, MK-PASS-4: the quick placement and the random bot's placement read the step's cities from its
    first pair, and a quick ride reads the goods stacks from the table's first pair and the player's tokens from
    its first pair; with another pair sorted before those (and a player without goods tokens), every placement and
    ride of whole games gives the general path's state, and the random bot picks the placement listed at its draw."""
    from ttr_nb.board.engine import _general, _quick
    from ttr_nb.board.state import Pending, new_player, pairs_set
    from ttr_nb.games.maerklin import PlacePassenger, Ride
    from ttr_nb.rng import Counter
    v = get_variant("maerklin")
    passengers = v.feature("passengers")
    seen = set()
    for seed, s, seat, a in played(110):
        if type(a) in (PlacePassenger, Ride):
            shapes = [s]
            if type(a) is PlacePassenger:
                p = s.pending[0]
                q = Pending(p.kind, p.seat, (("aa", 1),) + p.data)
                shapes.append(replace_fields(s, pending=(q,)))
                for k in range(3):
                    r1, r2 = Counter.of_state(17 * s.ply + k), Counter.of_state(17 * s.ply + k)
                    listed = passengers.pending_actions(v, s, q)
                    assert passengers.random_pending(v, s, q, r1) == listed[r2.index(len(listed))]
            else:
                shapes.append(replace_fields(s, ext=pairs_set(s.ext, "aa", 1)))
                me = s.players[seat]
                bare = tuple(pair for pair in me.ext if pair[0] != "goods")
                players = list(s.players)
                players[seat] = new_player(me.hand, me.trains, me.tickets, me.route_points, bare)
                shapes.append(replace_fields(s, players=tuple(players)))
            for t in shapes:
                fast = _quick(v, t, a, False)
                assert fast is not None and fast == _general(v, t, a, seat, None), (seed, s.ply, str(a))
            seen.add(type(a).__name__ + (" with a token" if s.ext != apply(s, a).ext else ""))
    assert seen == {"PlacePassenger", "Ride", "Ride with a token"}, seen


def test_maerklin_quick_ride_reads_a_journeys_pairs_in_place_as_on_any_pairs():
    """MK-PASS-1..4: a quick ride on a journey under way reads the seven pairs ``_journey_step`` makes in place;
    with those and with pairs of other shapes (another key before or after them, the text left out) every such
    ride of whole games gives the general path's state, and a ride from another city than the journey's is left to
    the general path (None)."""
    from ttr_nb.board.engine import _general, _quick
    from ttr_nb.board.state import Pending
    from ttr_nb.games.maerklin import Ride
    v = get_variant("maerklin")
    seen = 0
    for seed, s, seat, a in played(130):
        if type(a) is Ride and s.pending and s.pending[0].kind == "journey":
            p = s.pending[0]
            data = p.data
            assert len(data) == 7
            for shape in (data, (("aa", 1),) + data, data + (("zz", 1),),
                          tuple(pair for pair in data if pair[0] != "text")):
                t = replace_fields(s, pending=(Pending("journey", p.seat, shape),))
                fast = _quick(v, t, a, False)
                assert fast is not None and fast == _general(v, t, a, seat, None), (seed, s.ply, shape)
                elsewhere = Ride(a=a.b, b=a.a, seat=seat)
                assert _quick(v, t, elsewhere, False) is None, (seed, s.ply, shape)
            seen += 1
    assert seen > 10, seen


def test_maerklin_claimable_mask_of_eleven_kinds_unpacked_as_sliced():
    """claimable_mask unpacks Märklin's eleven card kinds at once instead of slicing the colours off: every route
    set must be the one the sliced reading (a hand of another length, one more empty kind) gives, for hands with
    and without +4 locomotives, on every seat's turn of real games."""
    from ttr_nb.board.tables import claimable_mask
    v = get_variant("maerklin")
    seen = plus4 = 0
    for seed, s, seat, a in played(70):
        for who in range(4):
            hand = s.players[who].hand
            assert len(hand) == 11
            players = list(s.players)
            players[who] = replace_fields(players[who], hand=hand + (0,))
            wider = replace_fields(s, players=tuple(players))
            for affordable in (True, False):
                assert claimable_mask(v, s, who, affordable) == claimable_mask(v, wider, who, affordable), \
                    (seed, s.ply, who)
            seen += 1
            plus4 += hand[9] > 0
    assert seen > 1000 and plus4 > 200, (seen, plus4)


def test_payment_shapes_kept_by_colour_and_length_as_worked_out_per_route():
    """engine._payment_shape keeps a fit under (colour, length, payment) too, when no feature judges payments by
    more than their shape (Märklin, USA; not Europe's ferries): for every route, in a shuffled order, every payment
    the tables list for varied hands and some that do not fit (another colour, too few cards, +4s on a short route)
    must get the answer _shape_problem works out for that route, with fresh caches and with filled ones."""
    import random

    from ttr_nb.board.tables import payment, payment_tuple
    rng = random.Random(5)
    for name, alike in (("maerklin", True), ("usa", True), ("europe", False)):
        v = get_variant(name)
        t = v.route_table
        assert engine._shapes_alike(v) is alike
        kinds = v.card_kinds
        cases = []
        for route in t.routes:
            for _ in range(12):
                hand = tuple(rng.choice((0, 1, 2, 4, 6)) for _ in range(kinds))
                cases += [(route, pay) for pay in payment_tuple(v, route.index, hand)]
            cases += [(route, payment(c, route.length, 0)) for c in range(8)]
            cases.append((route, payment(0, max(1, route.length - 1), 0)))
            if kinds > 9:
                cases.append((route, ((0, route.length - 1), (9, 1))))
        saved = dict(t.shapes)
        try:
            for _ in range(2):
                t.shapes.clear()
                rng.shuffle(cases)
                for filled in (False, True):
                    shared = 0
                    for route, pay in cases:
                        shared += (route.colour, route.length, pay) in t.shapes and (route.index, pay) not in t.shapes
                        assert engine._payment_shape(v, route, pay) == engine._shape_problem(v, route, pay), \
                            (name, route.id, pay)
                    assert (shared > 100) is (alike and not filled), (name, shared)
        finally:
            t.shapes.clear()
            t.shapes.update(saved)


def test_maerklin_dead_sides_file_each_route_as_its_ends_do():
    """scoring._dead_sides, kept per route table and dead set: for every route, () when neither end is dead, else
    its (dead end, other end) pairs in the order _completed_avoiding once found them from the ends; Märklin's
    countries, another dead set on the same table and the countries again (the kept table checked on use); and
    the completed tickets on those sets agree with the breakdown's search (ticket_results with those dead ends)."""
    from ttr_nb.board import scoring
    v = get_variant("maerklin")
    t = v.route_table
    countries = scoring._dead_places(v)
    names = {n: name for r, pair in zip(t.routes, t.ends) for name, n in zip((r.a, r.b), pair)}
    other = frozenset(sorted(names)[::7])
    for dead in (countries, other, countries):
        sides = scoring._dead_sides(t, dead)
        assert len(sides) == len(t.ends)
        for (a, b), pairs in zip(t.ends, sides):
            assert pairs == ((a, b),) * (a in dead) + ((b, a),) * (b in dead)
        s = new_game("maerklin", 4, 3)
        bots = [RandomBot(90 + i) for i in range(4)]
        while s.phase != "over":
            seat = to_move(s)[0]
            s = apply(s, bots[seat].choose(s, seat)[0])
        got = scoring._completed_avoiding(t, s, scoring._indices_by_seat(s), dead)
        for seat, p in enumerate(s.players):
            want = scoring.ticket_results(v, p.tickets, scoring.owned_edges(v, s, seat),
                                          dead_ends=frozenset(names[n] for n in dead))
            assert got[seat] == [r.completed for r in want], (sorted(dead), seat)
    assert sum(map(bool, scoring._dead_sides(t, countries))) > 10
    assert sum(map(bool, scoring._dead_sides(t, other))) > 10


def test_maerklins_ride_rows_read_the_claims_as_the_route_indexes_do():
    """MK-PASS-1..2: the random bot's ride rows (_ride_index: each neighbour's routes as indexes and as a bit set,
    and every seat's shared ride) agree with _ride_row and _ride; Passengers.bot_random, which tests a row's bit set
    against the claims' info when the seat holds a passenger card, lists turn_actions' rides on states whose claims
    tuple the route table has not seen (an edited claims tuple: a new one, passenger cards given or taken)."""
    from ttr_nb.games import maerklin as mk
    v = get_variant("maerklin")
    for a, row in mk._ride_index(v).items():
        want = mk._ride_row(v, a)
        assert [b for b, *_ in row] == [b for b, _ in want]
        for (b, indexes, mask, rides), (_, routes) in zip(row, want):
            assert indexes == tuple(r.index for r in routes) and mask == sum(1 << i for i in indexes)
            assert rides == tuple(mk._ride(a, b, seat) for seat in range(v.settings.max_players))
    passengers = v.feature("passengers")
    seen = 0
    for seed, s, seat, a in played(70, range(2)):
        if s.pending or s.phase == "setup":
            continue
        q = s.players[seat]
        for cards in (0, 2):
            hand = q.hand[:mk.PASSENGER] + (cards,) + q.hand[mk.PASSENGER + 1:]
            players = s.players[:seat] + (new_player(hand, q.trains, q.tickets, q.route_points, q.ext),) + s.players[seat + 1:]
            edited = replace_fields(s, players=players, claims=tuple(list(s.claims)))
            got = passengers.bot_random(v, edited, seat, None)
            assert list(got) == passengers.turn_actions(v, edited, seat), (seed, s.ply, cards)
            seen += len(got)
    assert seen > 50


def test_maerklins_bot_idle_reads_the_passengers_as_counting_them_does():
    """MK-PASS-1: _bot_idle's set of passenger tuples with none standing in a city says what counting the reserve
    and done ones says, for every tuple of the players' number of passengers; another number is never idle (the
    pickers then look and find nothing)."""
    from itertools import product
    from ttr_nb.games import maerklin as mk
    for mine in product((mk.RESERVE, mk.DONE, "Berlin", "Köln"), repeat=mk.PASSENGERS):
        assert (mine in mk._NONE_STANDING) == (mine.count(mk.DONE) + mine.count(mk.RESERVE) == len(mine)), mine
    assert (mk.RESERVE,) * (mk.PASSENGERS + 1) not in mk._NONE_STANDING
