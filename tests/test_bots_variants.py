"""The random bot's turn on a board with features (Europe, Märklin, South Korea), its first draws written out as
arithmetic in ``RandomBot._turn_choice``, is the ``Counter``-based definition below at every turn of real games:
the same action from the same random numbers (USA-TURN-1, with each game's own kinds of turn)."""
from __future__ import annotations

import pytest

from ttr_nb.board.actions import draw_tickets_action, new_claim
from ttr_nb.bots import RandomBot, _claims_at_random, _own_action
from ttr_nb.board.engine import apply, draw_choices, legal_actions, new_game, to_move
from ttr_nb.rng import Counter
from ttr_nb.board.tables import claimable_mask, nth_bit, random_payment
from ttr_nb.variants import get_variant


def listed_turn(v, state, seat, r: Counter):
    """The kinds (draw, claim, tickets, the variant's own) in a random order, the first available taken; returns
    (action, whether the variant's own kind was tried and had nothing)."""
    kinds = [0, 1, 2, 3]
    fell_through = False
    while kinds:
        kind = kinds.pop(r.index(len(kinds)))
        if kind == 0:
            opts = draw_choices(state, seat, False)
            if opts:
                return opts[r.index(len(opts))], fell_through
        elif kind == 1:
            routes = claimable_mask(v, state, seat, True)
            if routes:
                i = nth_bit(routes, r.index(routes.bit_count()))
                label = v.route_table.labels[i]
                return new_claim(label, random_payment(v, i, state.players[seat].hand, r), seat), fell_through
        elif kind == 2:
            if state.ticket_deck(v.settings.ticket_deck):
                return draw_tickets_action(seat), fell_through
        else:                                   # (the features' own picks, as the bot makes them)
            action = _own_action(v, state, seat, r)
            if action is not None:
                return action, fell_through
            fell_through = True
    return legal_actions(state, seat)[0], fell_through


@pytest.mark.parametrize("variant", ["europe", "maerklin", "south_korea"])
def test_USA_TURN_1_the_random_bots_turn_with_features_is_the_counter_based_one(variant):
    v = get_variant(variant)
    turns = fell = 0
    for seed in range(2):
        s = new_game(variant, 4, seed)
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        while s.phase != "over":
            seat = to_move(s)[0]
            action, why = bots[seat].choose(s, seat)
            if not s.pending:
                bot = RandomBot(seed * 10 + seat)
                bot.choose(s, seat)                     # (fills the bot's key for this game)
                r = Counter.at(bot._keys[seat][1], s.ply)     # the turn's counter, as choose makes it
                want, fell_through = listed_turn(v, s, seat, r)
                assert action == want, (seed, s.ply)
                if action.__class__.__name__ == "Claim":
                    assert why == _claims_at_random(action.route)
                turns += 1
                fell += fell_through
            s = apply(s, action)
    assert turns > 100 and fell > 0          # (the variant's own kind had nothing, and the next kind was drawn)


@pytest.mark.parametrize("variant, idle_turns", [pytest.param("maerklin", 50, id="MK-PASS-1"),
                                                 pytest.param("europe", 100, id="EU-STATION-2")])
def test_MK_PASS_1_EU_STATION_2_bot_idle_says_none_only_when_the_features_have_no_turn_action(variant, idle_turns):
    """``Variant.bot_idle`` lets the random bot skip a variant's own pickers (Märklin: no ticket to announce and no
    passenger standing in a city; Europe: every station built): at every turn of real games where it says so, the
    features' own actions are none and nothing is drawn, and it says so on many turns (late in a game)."""
    v = get_variant(variant)
    idle = busy = 0
    for seed in range(3):
        s = new_game(variant, 4, seed)
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        while s.phase != "over":
            seat = to_move(s)[0]
            if not s.pending:
                r = Counter(seed, s.ply)
                before = r.state
                own = _own_action(v, s, seat, r)
                if v.bot_idle(v, s, seat):
                    assert own is None and r.state == before, (seed, s.ply)
                    idle += 1
                elif own is not None:
                    busy += 1
            s = apply(s, bots[seat].choose(s, seat)[0])
    assert idle > idle_turns and busy > 20
