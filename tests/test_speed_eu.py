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
