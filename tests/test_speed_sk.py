"""South Korea's quick paths read a full market from the engine's memory of the last full one (``engine._full``) and
make their pending steps with ``new_pending``: both must answer as the plain tests and constructors would."""
from __future__ import annotations

from ttr_nb.board import engine
from ttr_nb.board.engine import _general, _quick, apply, check, new_game, to_move
from ttr_nb.board.state import Pending, replace_fields
from ttr_nb.bots import RandomBot
from ttr_nb.games.south_korea import (DraftKeep, DraftPick, ExpressDraw, ExpressTickets, ProvinceClaim,
                                      _draft_keep_pending, _draft_pick, _draft_pick_pending)
from ttr_nb.variants import get_variant

OWN = (DraftPick, DraftKeep, ExpressDraw, ExpressTickets, ProvinceClaim)


def played(seeds=range(3)):
    """(seed, state, seat to move, the random bot's action) at every ply of seeded random-bot 4-player South Korea
    games; each action is played once the test has looked."""
    for seed in seeds:
        s = new_game("south_korea", 4, seed)
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        while s.phase != "over":
            seat = to_move(s)[0]
            a = bots[seat].choose(s, seat)[0]
            yield seed, s, seat, a
            s = apply(s, a)


def test_the_quick_paths_take_a_market_with_a_gap_to_the_general_path():
    """The full market remembered (``engine._full``) is the state's own: a state whose market has an empty slot is
    never taken for full, so South Korea's quick paths leave its actions to the general path (and the express
    picker lists the slots that hold a card); with the full market they give the general path's state."""
    v = get_variant("south_korea")
    express = v.feature("express")
    s = new_game("south_korea", 4, 2)
    bots = [RandomBot(70 + i) for i in range(4)]
    kinds, gaps = set(), 0
    while s.phase != "over":
        seat = to_move(s)[0]
        a, seat = check(s, bots[seat].choose(s, seat)[0])
        if isinstance(a, OWN):
            fast = _quick(v, s, a, False)
            assert fast is None or fast == _general(v, s, a, seat, None), (s.ply, str(a))
            if fast is not None:
                kinds.add(type(a).__name__)
            engine._full[0] = s.market                      # the full market remembered is this state's own
            gap = replace_fields(s, market=(None,) + s.market[1:])
            assert _quick(v, gap, a, False) is None and engine._full[0] is s.market, (s.ply, str(a))
            if not s.pending:
                lazy = express.bot_random(v, gap, seat, None)
                assert [lazy[k] for k in range(len(lazy))] == express.turn_actions(v, gap, seat)
                gaps += bool(len(lazy))
        s = apply(s, a)
    assert kinds >= {"DraftPick", "DraftKeep", "ExpressDraw", "ProvinceClaim"} and gaps > 5, (kinds, gaps)


def test_the_drafts_pending_steps_are_the_frozen_pendings():
    """SK-SETUP-3/4: the draft's pending steps, made by ``new_pending``, equal (and hash as) ``Pending(...)``."""
    pick = _draft_pick_pending(2, ["T01", "T02"], 5)
    assert type(pick) is Pending and pick == Pending("draft_pick", 2, (
        ("packet", ("T01", "T02")), ("round", 5), ("rule", "SK-SETUP-3"),
        ("text", "draft round 5 of 6: pick 1 of the 2 tickets in your hand; the rest go to the player on your left")))
    keep = _draft_keep_pending(1, ("T01", "T02", "T03", "T04", "T05", "T06"))
    assert type(keep) is Pending and keep == Pending("draft_keep", 1, (
        ("min_keep", 4), ("offered", ("T01", "T02", "T03", "T04", "T05", "T06")), ("rule", "SK-SETUP-4"),
        ("text", "keep exactly 4 of your 6 picked tickets")))
    assert hash(pick) == hash(Pending(pick.kind, pick.seat, pick.data))


def test_the_draft_pick_steps_tail_made_once_is_the_steps_own_data():
    """SK-SETUP-3/4: a pick step's round, rule and text, made once per packet size and round (_draft_pick_tail),
    and a keep step's rule and text, made once per offer size (_draft_keep_tail), read as a step built field by
    field, for every round and size, from a tuple or a list."""
    from ttr_nb.games.south_korea import DRAFT_HAND
    for rnd in range(1, DRAFT_HAND + 1):
        for n in range(0, DRAFT_HAND + 2):
            packet = tuple(f"T{i:02d}" for i in range(n))
            want = Pending("draft_pick", 1, (
                ("packet", packet), ("round", rnd), ("rule", "SK-SETUP-3"),
                ("text", f"draft round {rnd} of {DRAFT_HAND}: pick 1 of the {n} ticket{'' if n == 1 else 's'} in "
                         f"your hand; the rest go to the player on your left")))
            for given in (packet, list(packet)):
                made = _draft_pick_pending(1, given, rnd)
                assert type(made) is Pending and made == want and made.data[0][1].__class__ is tuple
    for n in range(0, DRAFT_HAND + 2):                       # (a keep step's rule and text: _draft_keep_tail)
        offered = tuple(f"T{i:02d}" for i in range(n))
        want = Pending("draft_keep", 3, (("min_keep", 4), ("offered", offered), ("rule", "SK-SETUP-4"),
                                         ("text", f"keep exactly 4 of your {n} picked ticket{'' if n == 1 else 's'}")))
        for given in (offered, list(offered)):
            made = _draft_keep_pending(3, given)
            assert type(made) is Pending and made == want and made.data[1][1].__class__ is tuple


def test_the_random_draft_keep_reads_the_listed_order_from_the_positions_made_once():
    """SK-SETUP-4: ``random_pending``'s keep is the choice ``pending_actions`` lists at the random index, for every
    index and for hands of 4 to 7 picked tickets (``_keep_positions``: made once per size, in ``combinations``'
    order), and draws as many numbers as the listed pick."""
    from ttr_nb.games.south_korea import _keep_positions
    from ttr_nb.rng import Counter
    v = get_variant("south_korea")
    draft = v.feature("ticket_draft")
    ids = [t.id for t in v.map.tickets][:7]
    for n in range(4, 8):
        p = _draft_keep_pending(2, tuple(ids[:n]))
        listed = draft.pending_actions(v, None, p)
        assert len(_keep_positions(n)) == len(listed)
        for kept, back in _keep_positions(n):                   # (each keep's returned positions: the others)
            assert sorted(kept + back) == list(range(n)) and list(kept) == sorted(kept) and len(kept) == 4
        for k in range(40):
            lazy, plain = Counter(9, k), Counter(9, k)
            assert draft.random_pending(v, None, p, lazy) == listed[plain.index(len(listed))], (n, k)
            assert lazy.index(1 << 30) == plain.index(1 << 30)


def test_bot_idle_holds_only_when_neither_picker_has_an_action_or_draws():
    """``Variant.bot_idle`` (``_bot_idle``) lets the random bot skip the express and province pickers: wherever it
    says so, both pickers (``bots._own_pickers``) have no action and leave the counter where it was; and the
    province routes kept for the last state and seat (``_province_routes``) are the ones worked out afresh."""
    from ttr_nb.bots import _own_pickers
    from ttr_nb.board.tables import claimable_mask
    from ttr_nb.rng import Counter
    from ttr_nb.games import south_korea as sk
    v = get_variant("south_korea")
    t = v.route_table
    assert v.bot_idle is sk._bot_idle
    idle = busy = 0
    for seed, s, seat, a in played(range(4)):
        if not s.pending:
            trains = s.players[seat].trains
            fresh = claimable_mask(v, s, seat, True) & t.every[min(trains - 1, t.top)] if trains >= 2 else 0
            sk._ROUTES_LAST = (None, None, 0)
            assert sk._province_routes(v, s, seat) == fresh == sk._province_routes(v, s, seat)
            if sk._bot_idle(v, s, seat):
                for pick in _own_pickers(v):
                    r = Counter(seed, s.ply)
                    assert len(pick(v, s, seat, r)) == 0 and r.state == Counter(seed, s.ply).state, s.ply
                idle += 1
            else:
                busy += 1
    assert idle > 20 and busy > 20, (idle, busy)


def test_the_random_bots_province_claims_and_draft_keeps_are_the_frozen_actions():
    """``_nth_claim`` and the draft keep of ``random_pending`` make their actions through open subclasses
    (``_OpenProvinceClaim``, ``_OpenDraftKeep``): each is its frozen class exactly, equal to and hashing as the
    dataclass's own construction, and stays frozen."""
    import dataclasses
    import pytest
    made = {ProvinceClaim: 0, DraftKeep: 0}
    for seed, s, seat, a in played():
        if type(a) in made:
            plain = type(a)(**{f.name: getattr(a, f.name) for f in dataclasses.fields(a)})
            assert type(a) is type(plain) and a == plain and hash(a) == hash(plain), str(a)
            with pytest.raises(dataclasses.FrozenInstanceError):
                a.seat = 0
            made[type(a)] += 1
    assert made[ProvinceClaim] > 10 and made[DraftKeep] == 12, made


def test_the_province_places_without_express_cards_are_the_reach():
    """``_places_of_reach`` with no express card (boosts ``(0,)``) answers the reach itself, cut at the top: the
    counts the general sum per size gives."""
    from ttr_nb.games.south_korea import _places_of_reach, _reach_of_spans
    for spans in ((), ((1, 9),), ((3, 7), (1, 9)), ((5, 4),), ((2, 2), (6, 9), (1, 3))):
        reach = _reach_of_spans(spans, 9)
        assert _places_of_reach(reach, (0,), 9) == tuple(sum(reach[size + e] for e in (0,)) for size in range(10))
        assert _places_of_reach(reach, (0, 1, 3), 9) == tuple(reach[s] + reach[s + 1] + reach[s + 3] for s in range(10))


def test_a_draft_pick_from_a_packet_holding_a_card_twice_takes_the_general_path():
    """SK-SETUP-3: the quick draft pick cuts the picked card out of the packet by its place; a packet holding that
    card twice (an edited state) is left to the general path, which passes on the rest without either copy."""
    v = get_variant("south_korea")
    s = new_game("south_korea", 4, 3)
    p = s.pending_for(0)
    packet = p.get("packet")
    twice = Pending(p.kind, 0, tuple((k, (packet[0],) + packet[:-1] if k == "packet" else x) for k, x in p.data))
    edited = replace_fields(s, pending=(twice,) + s.pending[1:])
    a = _draft_pick(v.route_table.ticket_text[packet[0]], 0)
    assert _quick(v, s, a, False) is not None and _quick(v, edited, a, False) is None
    after = apply(edited, a)
    assert packet[0] not in after.players[0].get("passing") and after.players[0].get("drafted") == (packet[0],)


def test_the_province_points_are_the_rankings_awards():
    """SK-SCORE-2/3: ``ProvinceBoard.score_points`` (the seats' totals and highest spaces, ranked without the words)
    gives each seat what ``ProvinceBoard._awards`` (the rankings ``score`` words) gives it: at every 7th ply of random
    games of 2 to 5 players, and on edited boards (an unknown line, equal totals, a seat that does not play)."""
    v = get_variant("south_korea")
    board = v.feature("province")

    def ranked(s):
        awards = board._awards(v, s, None)
        return [awards.get(seat, 0) for seat in range(s.n_players)]
    seen = 0
    for players in (2, 3, 4, 5):
        s = new_game("south_korea", players, players)
        bots = [RandomBot(players * 10 + i) for i in range(players)]
        while s.phase != "over":
            if s.ply % 7 == 0 or not s.pending and s.get("province", ()):
                assert board.score_points(v, s, None) == ranked(s), (players, s.ply)
                seen += bool(s.get("province", ()))
            seat = to_move(s)[0]
            s = apply(s, bots[seat].choose(s, seat)[0])
        assert board.score_points(v, s, None) == ranked(s) and any(ranked(s)), players
    assert seen > 100
    s = new_game("south_korea", 3, 1)
    for trains in ((("white", 6, 0), ("white", 2, 1), ("white", 4, 1), ("red", 5, 2), ("red", 1, 0), ("red", 4, 0)),
                   (("white", 3, 2), ("white", 3, 1), ("white", 9, 0), ("gold", 9, 1), ("white", 1, 7))):
        edited = replace_fields(s, ext=(("province", trains),))
        assert board.score_points(v, edited, None) == ranked(edited), trains


def test_the_express_cards_left_after_one_is_used_are_the_filtered_ones():
    """SK-TURN-2: ``_unused`` (cached, for the quick paths) is the express cards left without the one used, for every
    set of cards a seat may hold, as ``_use_express`` leaves them."""
    from itertools import combinations as subsets
    from ttr_nb.games.south_korea import EXPRESS_VALUES, _unused
    for size in range(len(EXPRESS_VALUES) + 1):
        for left in subsets(EXPRESS_VALUES, size):
            for used in EXPRESS_VALUES:
                assert _unused(left, used) == tuple(x for x in left if x != used)
                assert _unused(left, used) is _unused(tuple(list(left)), used)


def test_the_random_bots_express_choices_are_the_listed_ones_made_once():
    """SK-TURN-2: ``ExpressCards.bot_random`` hands the random bot a shared tuple of the express actions
    (``_express_choices``): at every turn of 4-player games it is ``turn_actions``, action for action and in order
    (every express card left with every slot holding a card, then the ticket draws), and the same cards and market
    give that very tuple again."""
    v = get_variant("south_korea")
    express = v.feature("express")
    seen = 0
    for seed, s, seat, a in played():
        if not s.pending:
            listed = express.turn_actions(v, s, seat)
            got = express.bot_random(v, s, seat, None)
            assert type(got) is tuple and list(got) == listed, (seed, s.ply)
            assert [hash(a) for a in got] == [hash(a) for a in listed]
            assert express.bot_random(v, s, seat, None) is got
            name = v.settings.ticket_deck
            for few in (s.ticket_deck(name)[:3], s.ticket_deck(name)[:4]):     # ticket boosts refused, allowed
                short = replace_fields(s, ticket_decks=tuple((k, few if k == name else x) for k, x in s.ticket_decks))
                assert list(express.bot_random(v, short, seat, None)) == express.turn_actions(v, short, seat)
            seen += bool(listed)
    assert seen > 30, seen


def test_the_express_bounds_say_when_every_route_places_a_train():
    """SK-PROV-3/4: ``_express_bounds`` (kept for the last room, read by ``ProvinceBoard.bot_random``) holds an express
    card between its bounds exactly when every line's free spaces reach from the shortest route's length + the card to
    the longest one's + the card; and then every route of the map has a claim of exactly its length whose train finds
    a free space (``ProvinceBoard._targets``): at every ply of random games, and for a board with no line."""
    from ttr_nb.games import south_korea as sk
    v = get_variant("south_korea")
    t = v.route_table
    shortest, longest = min(t.length), max(t.length)
    held = seen = 0
    for seed, s, seat, a in played():
        room = sk._placeable_now(v, s)
        sk._ROOM_LAST = (None, None, None)
        bounds = sk._express_bounds(v, room)
        assert bounds is sk._ROOM_LAST and bounds[0] is room
        assert bounds[1:] == (max(lo for lo, _ in room.values()) - shortest, min(hi for _, hi in room.values()) - longest)
        for most in (1, 2, 3):
            plain = all(lo <= shortest + most and longest + most <= hi for lo, hi in room.values())
            assert (bounds[1] <= most <= bounds[2]) == plain, (seed, s.ply, most)
            if plain:
                assert all(any(lo <= r.length + most <= hi for _, lo, hi in sk.ProvinceBoard._targets(r, room))
                           for r in t.routes), (seed, s.ply, most)
            held += plain
            seen += 1
    assert 0 < held < seen, (held, seen)
    empty = sk._express_bounds(v, {})
    assert not any(empty[1] <= most <= empty[2] for most in (1, 2, 3))


def draft_plies(seeds=range(3)):
    """(seed, state, seat, the random bot's action) at every ply of the ticket draft (SK-SETUP-3/4) of 4-player
    games with these seeds; each action is applied once the caller is done with it."""
    for seed in seeds:
        s = new_game("south_korea", 4, seed)
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        while s.phase == "setup":
            seat = to_move(s)[0]
            a = bots[seat].choose(s, seat)[0]
            yield seed, s, seat, a
            s = apply(s, a)


def test_the_quick_draft_makes_the_general_paths_players_whatever_they_hold():
    """SK-SETUP-3/4: the quick draft pick, the hands passed on and the draft's end read the draft's usual player
    (its picks, its express cards and the cards it passes) without a loop and a sort; a player holding anything
    else (another key, picks as a list) takes the loop: at every pick of whole drafts, with the picking seat's data
    so edited too, the quick path gives the general path's state (at a round's last pick the picking seat's data
    goes to _pass_hands or _end_draft, which build that player once)."""
    v = get_variant("south_korea")
    seen = {"usual": 0, "edited": 0, "passed": 0, "ended": 0}
    for seed, s, seat, a in draft_plies():
        if type(a) is DraftPick:
            ps = s.players[seat]
            drafted = ps.get("drafted", ())
            for ext in (ps.ext, (("aardvark", 1),) + ps.ext,
                        tuple((k, list(x) if k == "drafted" else x) for k, x in ps.ext)):
                players = s.players[:seat] + (replace_fields(ps, ext=ext),) + s.players[seat + 1:]
                edited = replace_fields(s, players=players)
                fast = _quick(v, edited, a, False)
                assert fast is not None and fast == _general(v, edited, a, seat, None), (seed, s.ply, ext)
                seen["usual" if ext is ps.ext else "edited"] += 1
                if not fast.pending or fast.pending[0].kind == "draft_keep":
                    seen["ended"] += 1
                elif len(s.pending) == 1:
                    seen["passed"] += 1
            assert drafted == s.players[seat].get("drafted", ())
    assert seen["usual"] == 72 and seen["edited"] == 144 and seen["passed"] == 45 and seen["ended"] == 9, seen


def test_bot_idle_keeps_the_province_routes_it_works_out():
    """``_bot_idle`` works out a seat's province routes (the random bot asking there first) and keeps them for
    ``ProvinceBoard.bot_random`` and ``_province_routes``, express cards left or not: at every turn the routes kept are
    the ones ``_province_routes`` works out afresh, and idle means there are none and no express card is left."""
    from ttr_nb.games import south_korea as sk
    v = get_variant("south_korea")
    seen = {True: 0, False: 0}
    for seed, s, seat, a in played():
        if not s.pending and s.phase != "setup":
            sk._ROUTES_LAST = (None, None, 0)
            idle = sk._bot_idle(v, s, seat)
            kept = sk._ROUTES_LAST
            sk._ROUTES_LAST = (None, None, 0)
            fresh = sk._province_routes(v, s, seat)
            left = s.players[seat].get("express", ())
            assert kept[0] is s and kept[1:] == (seat, fresh), (seed, s.ply)
            assert idle == (not fresh and not left), (seed, s.ply)
            seen[bool(left)] += 1
    assert seen[True] > 50 and seen[False] > 50, seen


def test_the_quick_express_draw_sets_the_express_cards_as_the_general_path_does():
    """SK-TURN-2/SK-EXPRESS-1: the quick express draw writes a player's express cards left without ``pairs_set``'s
    call when they are its only data, and through ``pairs_set`` otherwise: with the drawing seat's data as play
    makes it and with another key beside the cards, the quick path gives the general path's state."""
    v = get_variant("south_korea")
    seen = 0
    for seed, s, seat, a in played(range(4)):
        if type(a) is ExpressDraw:
            ps = s.players[seat]
            for ext in (ps.ext, (("aardvark", 1),) + ps.ext, ps.ext + (("zeta", (2,)),)):
                players = s.players[:seat] + (replace_fields(ps, ext=ext),) + s.players[seat + 1:]
                edited = replace_fields(s, players=players)
                fast = _quick(v, edited, a, False)
                assert fast is not None and fast == _general(v, edited, a, seat, None), (seed, s.ply, ext)
            seen += 1
    assert seen > 20, seen


def test_the_later_province_claim_is_one_claim_by_index_and_by_iteration():
    """``ProvinceBoard.bot_random``'s ``_LaterClaim`` (a one-item tuple, so that its len() is no Python call) reads
    as one claim: len() 1, the same claim by index and by iteration, made from the counter where the bot's draws
    stood (the claim ``_pick_claim`` picks from there), and nothing past it."""
    import pytest
    from ttr_nb.games import south_korea as sk
    from ttr_nb.rng import Counter
    v = get_variant("south_korea")
    province = v.feature("province")
    seen = 0
    for seed, s, seat, a in played():
        if not s.pending:
            r = Counter(seed, s.ply)
            start = r.state
            got = province.bot_random(v, s, seat, r)
            if isinstance(got, sk._LaterClaim):
                p = s.players[seat]
                made = sk._pick_claim(v, sk._province_routes(v, s, seat), sk._placeable(v, s),
                                      (0,) + tuple(p.get("express")), p.hand, seat, Counter.of_state(start))
                assert len(got) == 1 and bool(got) and list(got) == [got[0]] == made, (seed, s.ply)
                assert type(got[0]) is ProvinceClaim
                with pytest.raises(IndexError):
                    got[1]
                seen += 1
    assert seen > 10, seen


def test_the_random_bots_draft_pick_and_keep_left_in_made_are_the_checked_quick_ones():
    """SK-SETUP-3/4: the random bot's draft pick (keep) leaves its step, packet (offer) and the ticket's place (the
    positions kept) in ``RouteTable.made`` (``TicketDraft.random_pending``) and the quick path reads them there for
    that very state and first step: at every pick and keep of whole drafts it gives the state the checked quick
    path and the general path give; one made for another seat's step (not the first) is checked as any other."""
    from ttr_nb.rng import Counter
    v = get_variant("south_korea")
    t = v.route_table
    draft = v.feature("ticket_draft")
    seen = {DraftPick: 0, DraftKeep: 0, "other": 0}
    for seed, s, seat, a in draft_plies():
        assert t.made[0] is a and t.made[1] is s and t.made[2] is s.pending[0], (seed, s.ply)
        fast = _quick(v, s, a, False)
        t.made = (None, None)
        assert fast is not None and fast == _quick(v, s, a, False) == _general(v, s, a, seat, None), (seed, s.ply)
        seen[type(a)] += 1
        if len(s.pending) > 1:
            other = s.pending[1]
            b = draft.random_pending(v, s, other, Counter(seed, s.ply))
            assert t.made[0] is b and t.made[2] is other
            assert _quick(v, s, b, False) == _general(v, s, b, other.seat, None), (seed, s.ply)
            seen["other"] += 1
    assert seen[DraftPick] == 72 and seen[DraftKeep] == 12 and seen["other"] > 50, seen


def test_the_quick_draft_keep_sets_the_one_ticket_deck_and_leaves_other_decks_to_the_general_path():
    """SK-SETUP-4: the quick keep adds the returned tickets (found by the positions the random bot's keep left) to
    the one ticket deck (and shuffles it after the last keep) without a dict and a sort; a state with another ticket
    deck too, or none, or an offer holding a ticket twice, takes the general path: at every keep of whole drafts,
    the quick path gives the general path's state or declines, and apply gives it."""
    from ttr_nb.rng import Counter
    v = get_variant("south_korea")
    seen = {"one": 0, "other": 0}
    for seed, s, seat, a in draft_plies():
        if type(a) is DraftKeep:
            fast = _quick(v, s, a, False)
            assert fast is not None and fast == _general(v, s, a, seat, None), (seed, s.ply)
            seen["one"] += 1
            for decks in ((), (("other", ("T01",)),) + s.ticket_decks, s.ticket_decks + (("zzz", ()),)):
                edited = replace_fields(s, ticket_decks=decks)
                assert _quick(v, edited, a, False) is None, (seed, s.ply, decks)
                assert apply(edited, a) == _general(v, edited, a, seat, None), (seed, s.ply, decks)
                seen["other"] += 1
            # an offer holding a ticket twice (edited): the random bot's keep of it takes the general path
            step = s.pending[0]
            twice = replace_fields(step, data=tuple((k, x[:-1] + x[:1] if k == "offered" else x)
                                                    for k, x in step.data))
            edited = replace_fields(s, pending=(twice,) + s.pending[1:])
            b = v.feature("ticket_draft").random_pending(v, edited, twice, Counter(seed, s.ply))
            assert _quick(v, edited, b, False) is None, (seed, s.ply)      # (apply's general path: checked)
    assert seen == {"one": 12, "other": 36}, seen


def test_the_hands_passed_on_make_the_pick_steps_whatever_their_sizes():
    """SK-SETUP-3: _pass_hands finds the pick steps' tail once for hands of the first hand's size; a hand of another
    size (edited) gets its own: the steps equal those made one by one, and the players lose the hands."""
    from ttr_nb.board.state import new_player
    from ttr_nb.games.south_korea import _pass_hands
    for sizes in ((5, 5, 5, 5), (5, 5, 4, 5), (3, 5, 5, 1)):
        hands = [tuple(f"T{10 * s + i:02d}" for i in range(n)) for s, n in enumerate(sizes)]
        players = [new_player((0,) * 9, 40, (), 0, (("drafted", ("T99",)), ("express", (1, 2, 3)), ("passing", h)))
                   for h in hands]
        steps = _pass_hands(players, 1)
        assert steps == [_draft_pick_pending(s, hands[s - 1], 2) for s in range(4)], sizes
        assert all(p.ext == (("drafted", ("T99",)), ("express", (1, 2, 3))) for p in players)
