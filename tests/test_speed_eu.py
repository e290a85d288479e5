"""Europe's shortcuts for speed give what the plain definitions give, at every ply of real random games."""
from __future__ import annotations

from ttr_nb.board import engine
from ttr_nb.board.state import replace_fields
from ttr_nb.bots import RandomBot
from ttr_nb.engine import apply, legal_actions, new_game, to_move
from ttr_nb.games.europe import BuildStation
from ttr_nb.variants import get_variant


def random_states(games=3, players=4, bot_seed=40):
    """(state, seat to move, the random bot's action) at every ply of seeded random-bot Europe games."""
    for seed in range(games):
        s = new_game("europe", players, seed)
        bots = [RandomBot(bot_seed + seed * 10 + i) for i in range(players)]
        while s.phase != "over":
            seat = to_move(s)[0]
            a = bots[seat].choose(s, seat)[0]
            yield s, seat, a
            s = apply(s, a)


def test_the_features_quick_paths_refuse_a_market_with_an_empty_slot_after_a_full_one_was_remembered():
    """Stations.quick and Tunnels.quick skip ``None in market`` for the market tuple remembered full
    (engine._full): a state whose market has an empty slot is still refused (the general path refills it), right
    after the full market of the same ply was remembered."""
    v = get_variant("europe")
    tried = {"BuildStation": 0, "TunnelPay": 0, "TunnelWithdraw": 0}
    for s, seat, a in random_states():
        name = type(a).__name__
        if name not in tried or s.phase == "setup":
            continue
        for action in [a] + ([] if name == "BuildStation" else legal_actions(s)):
            action, _ = engine.check(s, action)
            fast = engine._quick(v, s, action, False)
            assert fast is None or None not in s.market and s.market is engine._full[0]
            holed = replace_fields(s, market=(None,) + s.market[1:])
            for trusted in (True, False):
                assert engine._quick(v, holed, action, trusted) is None, (s.ply, str(action))
        tried[name] += 1
    assert all(tried.values()), tried


def test_the_random_bots_station_pick_reads_the_stations_wherever_they_are_in_the_players_data():
    """Stations.bot_random reads a player's stations from the first pair of its ext (a Europe player's only key):
    with another key sorted before them (the general pairs_get lookup), the pick and the random numbers drawn are
    the same, and both are the action turn_actions lists at that index."""
    from ttr_nb.board.state import pairs_set
    from ttr_nb.rng import Counter
    v = get_variant("europe")
    stations = v.feature("stations")
    picked = 0
    for s, seat, _ in random_states(games=2):
        if s.pending or s.phase == "setup":
            continue
        other = replace_fields(s, players=tuple(replace_fields(q, ext=pairs_set(q.ext, "a_first", 1))
                                                for q in s.players))
        assert all(q.ext[0][0] == "a_first" for q in other.players)
        a, b, listed = Counter(1, seat, s.ply), Counter(1, seat, s.ply), Counter(1, seat, s.ply)
        got = stations.bot_random(v, s, seat, a)
        assert got == stations.bot_random(v, other, seat, b), s.ply
        actions = stations.turn_actions(v, s, seat)
        assert got == ([actions[listed.index(len(actions))]] if actions else []), s.ply
        assert a.index(1 << 30) == b.index(1 << 30) == listed.index(1 << 30)
        picked += bool(got) and any(q.get("stations") for q in s.players)
    assert picked > 20


def test_a_tunnel_claims_quick_path_counts_the_extra_cards_as_tunnel_extra_and_the_general_path_do():
    """EU-TUNNEL-2/3: Tunnels.quick counts the extra cards itself; for every payment of every free tunnel the hand
    can pay (all-locomotive payments included) it makes the general path's state, whose pending step asks for
    tunnel_extra(payment, the three cards turned up)."""
    from ttr_nb.board.engine import claimable_routes, route_payments
    from ttr_nb.board.actions import Claim
    from ttr_nb.errors import TTRError
    from ttr_nb.games.europe import tunnel_extra
    v = get_variant("europe")
    compared = {"none": 0, "some": 0, "locos": 0}
    for s, seat, _ in random_states(games=2):
        if s.pending or s.phase != "play" or s.ply % 3 or len(s.deck) < 3:
            continue
        for route in claimable_routes(v, s, seat, affordable_only=True):
            if not route.tunnel:
                continue
            for pay in route_payments(v, route, s.players[seat].hand):
                try:
                    a, _ = engine.check(s, Claim(route=route.id, payment=pay, seat=seat))
                except TTRError:
                    continue
                fast = engine._quick(v, s, a, False)
                slow = engine._general(v, s, a, seat, None)
                assert fast is None or fast == slow, (s.ply, str(a))
                extra = tunnel_extra(pay, s.deck[:3])
                assert slow.pending[0].get("extra") == extra if extra else not slow.pending
                compared["locos" if len(pay) == 1 and pay[0][0] == 8 else "some" if extra else "none"] += 1
    assert all(n > 5 for n in compared.values()), compared


def test_the_remembered_pending_tunnel_reads_as_a_fresh_copy_of_it():
    """_tunnel_data remembers the last Pending it read: at every pending tunnel of random games it answers what an
    equal Pending read afresh gives, after another tunnel was read in between too; a garbled copy is still refused."""
    import pytest
    from ttr_nb.board.state import Pending
    from ttr_nb.errors import TTRError
    from ttr_nb.games.europe import _tunnel_data
    seen = []
    for s, _, _ in random_states():
        if s.pending and s.pending[0].kind == "tunnel":
            p = s.pending[0]
            first = _tunnel_data(p)
            assert _tunnel_data(p) is first
            assert _tunnel_data(Pending(p.kind, p.seat, tuple(p.data))) == first
            if seen:
                _tunnel_data(seen[-1])
                assert _tunnel_data(p) == first
            garbled = Pending(p.kind, p.seat, tuple((k, None) if k == "extra" else (k, x) for k, x in p.data))
            with pytest.raises(TTRError):
                _tunnel_data(garbled)
            seen.append(p)
    assert len(seen) > 10


def test_a_station_payment_is_found_as_the_listed_payments_find_it():
    """EU-STATION-2/3: _station_payment answers ``pay in _one_colour_payments(hand, size)`` (none after the third
    station) for every one- and two-card-kind payment of up to four cards, on hands of every make-up the random
    games have and a few made ones (no locomotives, only locomotives, nothing)."""
    from itertools import product
    from ttr_nb.games.europe import _one_colour_payments, _station_payment
    hands = {tuple(q.hand) for s, _, _ in random_states(games=1) for q in s.players}
    hands |= {(0,) * 9, (3,) * 8 + (0,), (0,) * 8 + (3,), (1, 0, 2, 0, 0, 0, 0, 3, 1)}
    pays = [((k, n),) for k in range(-1, 10) for n in range(5)]
    pays += [((c, k), (l, m)) for c, k, l, m in product(range(9), range(4), (7, 8), range(4))]
    pays += [(), "red1", ((8, 1), (8, 1)), ((True, 1),), ((0, 1.0),), [(0, 1)], ((0, 1, 1),), ((0, 2), [8, 1])]
    agreed = 0
    for hand in hands:
        for built in ((), ("Wien",), ("Wien", "Roma"), ("Wien", "Roma", "Kyiv")):
            listed = _one_colour_payments(hand, len(built) + 1) if len(built) < 3 else []
            for pay in pays:
                expected = pay in listed and all(type(x) is int for pair in pay for x in pair)
                assert _station_payment(hand, built, pay) == expected, (hand, built, pay)
                agreed += expected
    assert agreed > 1000


def test_best_borrowing_without_a_reachable_ticket_borrows_nothing_as_a_brute_force_finds():
    """EU-STATION-5: best_borrowing stops early when no open ticket's ends would be joined by all the stations'
    candidate routes together; its gain and choice (ties: fewer borrowed routes, then the first combination) are a
    brute force's over every combination of candidates (None first, then route ids), at the end of random games,
    for every seat."""
    from itertools import product
    from ttr_nb.games.europe import best_borrowing, station_candidates, stations_of
    v = get_variant("europe")

    def points(state, seat, borrowed):
        up = {}

        def root(x):
            while up.get(x, x) != x:
                x = up[x]
            return x
        for r in [r for r in v.map.routes if state.claims[r.index] == seat] + list(borrowed):
            a, b = root(r.a), root(r.b)
            if a != b:
                up[a] = b
        tickets = [v.map.ticket(t) for t in state.players[seat].tickets]
        return sum(t.points if root(t.a) == root(t.b) else -t.points for t in tickets)

    checked = gained = 0
    finals = []
    for s, _, _ in random_states(games=12):
        if s.phase == "last_round":
            finals.append(s)
    for s in finals[-40:]:
        for seat in range(s.n_players):
            stations = stations_of(s, seat)
            got = best_borrowing(v, s, seat)
            cands = [[None] + sorted(station_candidates(v, s, seat, c), key=lambda r: r.id) for c in stations]
            base = points(s, seat, ())
            keys = [((points(s, seat, [r for r in combo if r is not None]) - base,
                      -sum(r is not None for r in combo)), combo) for combo in product(*cands)]
            best = max(key for key, _ in keys) if stations else (0, 0)
            assert got.gain == best[0], (s.ply, seat)
            if stations:                    # ties: fewer borrowed routes, then the first in that order
                first = next(combo for key, combo in keys if key == best)
                assert got.routes == tuple(None if r is None else r.id for r in first), (s.ply, seat)
            if not got.gain:
                assert got.routes == (None,) * len(stations)
            checked += 1
            gained += got.gain > 0
    assert checked > 100 and gained > 10, (checked, gained)


def test_the_quickly_made_actions_and_tunnel_step_are_the_frozen_dataclasses_own():
    """_new_station, _new_tunnel_pay and _tunnel_step's new_pending skip the frozen __init__: what they make equals
    and hashes as the dataclass's own construction, has its class, and stays frozen."""
    import dataclasses
    import pytest
    from ttr_nb.board.state import Pending
    from ttr_nb.games.europe import TunnelPay, _new_station, _new_tunnel_pay, _tunnel_step
    v = get_variant("europe")
    made = [(_new_station("Wien", ((7, 2),), 1), BuildStation(city="Wien", payment=((7, 2),), seat=1)),
            (_new_tunnel_pay(((8, 1),), 3), TunnelPay(payment=((8, 1),), seat=3))]
    route = next(r for r in v.map.routes if r.tunnel)
    p = _tunnel_step(route, 2, ((0, route.length),), (0, 8, 3), 2)
    made.append((p, Pending(p.kind, p.seat, p.data)))
    for quick, own in made:
        assert type(quick) is type(own) and quick == own and hash(quick) == hash(own) and repr(quick) == repr(own)
        with pytest.raises(dataclasses.FrozenInstanceError):
            quick.seat = 0


def test_bot_idle_says_idle_exactly_when_no_next_station_can_be_paid():
    """EU-STATION-2/3: Europe's _bot_idle is True exactly when the seat's next station has no payment listed
    (``Stations._payments``: all three built, or no colour with the locomotives covers its size, nor the
    locomotives alone), on every hand of random games and made ones (nothing, locomotives only, an edited hand
    with negative counts), for every number of stations built and wherever the stations are in the player's data."""
    from itertools import product
    from ttr_nb.board.state import new_player
    from ttr_nb.games.europe import Stations, _bot_idle
    v = get_variant("europe")
    s = new_game("europe", 4, 0)
    hands = {tuple(q.hand) for st, _, _ in random_states(games=1) for q in st.players}
    hands |= {(0,) * 9, (0,) * 8 + (1,), (0,) * 8 + (3,), (3,) * 8 + (0,), (-1,) * 8 + (2,), (-1,) * 8 + (3,),
              (1, 0, 0, 0, 0, 0, 0, 0, 1), (2, 0, 0, 0, 0, 0, 0, 0, 0)}
    hands |= {tuple(c) + (l,) for c in product((0, 1, 2), repeat=2) for l in range(4) for c in [c + (0,) * 6]}
    idle = busy = 0
    for hand in hands:
        for built in ((), ("Wien",), ("Wien", "Roma"), ("Wien", "Roma", "Kyiv")):
            for ext in ((("stations", built),), (("other", 1), ("stations", built))):
                p = s.players[0]
                q = new_player(hand, p.trains, p.tickets, p.route_points, ext)
                t = replace_fields(s, players=(q,) + s.players[1:])
                want = not Stations._payments(t, 0)
                assert _bot_idle(v, t, 0) == want, (hand, built, ext)
                idle += want
                busy += not want
    assert idle > 50 and busy > 50


def test_the_pieces_kept_by_score_are_each_seats_own_pieces():
    """best_borrowing's pieces (_own_pieces) read from what scoring.score kept for the same claims and seats are
    _pieces over the seat's own routes: right after scoring finished games (every seat), for states never scored, and for a state with the same claims tuple but fewer seats."""
    from ttr_nb.board import scoring
    from ttr_nb.board.scoring import _pieces, score
    from ttr_nb.games.europe import _own_pieces
    v = get_variant("europe")
    t = v.route_table

    def plain(state, seat):
        return _pieces(t, [i for i, owner in enumerate(state.claims) if owner == seat])

    finals = []
    for s, _, _ in random_states(games=3):
        for seat in range(s.n_players):
            assert _own_pieces(t, s, seat) == plain(s, seat), (s.ply, seat)
        if s.phase == "last_round":
            finals.append(s)
    kept = 0
    for s in finals[-6:]:
        score(s)
        kept += scoring._LAST_PIECES[0][0] is s.claims
        for seat in range(s.n_players):
            assert _own_pieces(t, s, seat) == plain(s, seat), (s.ply, seat)
        fewer = replace_fields(s, players=s.players[:2])
        for seat in range(2):
            assert _own_pieces(t, fewer, seat) == plain(fewer, seat)
    assert kept == 6


def test_a_new_tunnel_step_is_remembered_as_reading_it_afresh_gives():
    """_tunnel_step leaves what _tunnel_data reads of the step it makes in _last_tunnel (the random bot's pick reads
    it next): for every tunnel, every colour and all-locomotive payment of its length, and turned-up cards of every
    kind, the remembered data equal (and have the types of) what an equal Pending read afresh gives."""
    from itertools import product
    import pytest
    from ttr_nb.board.state import Pending
    from ttr_nb.errors import TTRError
    from ttr_nb.games.europe import _last_tunnel, _tunnel_data, _tunnel_step, tunnel_extra
    v = get_variant("europe")
    tunnels = [r for r in v.map.routes if r.tunnel]
    checked = 0
    for route, (c, k) in product(tunnels, [(0, 0), (3, 1), (7, 2), (8, 0)]):
        if k >= route.length:
            continue
        pay = ((8, route.length),) if c == 8 else ((c, route.length - k),) + (((8, k),) if k else ())
        for revealed in [(8, 8, 8), (c, 1, 2), (5, c, 8), (c,), (2, 8)]:
            extra = tunnel_extra(pay, revealed)
            if not extra:
                continue
            p = _tunnel_step(route, 1, pay, revealed, extra)
            kept = _last_tunnel[0]
            assert kept[0] is p and _tunnel_data(p) is kept[1]
            fresh = _tunnel_data(Pending(p.kind, p.seat, tuple(p.data)))
            assert fresh == kept[1] and [type(x) for x in fresh] == [type(x) for x in kept[1]]
            assert kept[1][1] == pay and kept[1][2] == revealed
            checked += 1
    assert checked > 100
    _last_tunnel[0] = (None, None)
    p = _tunnel_step(tunnels[0], 1, ((3, 0), (8, 2)), (8,), 1)       # a text that does not read back: not kept
    assert _last_tunnel[0] == (None, None)
    with pytest.raises(TTRError):
        _tunnel_data(p)


def test_tunnel_extra_payments_are_every_exact_payment_of_the_extra_cards():
    """EU-TUNNEL-2/3: tunnel_extra_payments (its bounds found by conditionals, not min and max) lists every payment
    of exactly ``extra`` cards of the played colour and locomotives the hand holds, most colour first, only
    locomotives after an all-locomotive payment, on hands short of either and with counts past the extra."""
    from itertools import product
    from ttr_nb.games.europe import tunnel_extra_payments
    listed = 0
    for colour_cards, locos, extra, played in product(range(5), range(5), range(1, 4), (((7, 2),), ((8, 3),),
                                                                                      ((7, 1), (8, 1)))):
        hand = [1] * 9
        hand[7], hand[8] = colour_cards, locos
        if played[0][0] == 8:
            want = [((8, extra),)] if locos >= extra else []
        else:
            want = [((7, k),) if k == extra else ((8, extra),) if k == 0 else ((7, k), (8, extra - k))
                    for k in range(extra, -1, -1) if k <= colour_cards and extra - k <= locos]
        assert tunnel_extra_payments(tuple(hand), played, extra) == want, (hand, played, extra)
        listed += len(want)
    assert listed > 100


def test_the_matching_rows_count_the_extra_cards_as_tunnel_extra_does():
    """EU-TUNNEL-2/3: Tunnels.quick counts a tunnel claim's extra cards from _MATCHING's row of the payment's colour
    (LOCO for an all-locomotive payment): for every payment kind and every three turned-up cards, as tunnel_extra."""
    from itertools import product
    from ttr_nb.games.europe import _MATCHING, tunnel_colour, tunnel_extra
    for pay in [((c, 2),) for c in range(9)] + [((c, 1), (8, 1)) for c in range(8)]:
        colour = tunnel_colour(pay)
        row = _MATCHING[8 if colour is None else colour]
        for revealed in product(range(9), repeat=3):
            assert row[revealed[0]] + row[revealed[1]] + row[revealed[2]] == tunnel_extra(pay, revealed)
