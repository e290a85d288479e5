"""Märklin's own quick paths and their shortcuts agree with the general path at every turn of real games."""
from __future__ import annotations

from ttr_nb.board import engine
from ttr_nb.board.engine import apply, new_game, to_move
from ttr_nb.board.state import replace_fields
from ttr_nb.bots import RandomBot
from ttr_nb.variants import get_variant


def test_maerklins_quick_paths_refuse_a_market_with_an_empty_slot_after_a_full_one_was_remembered():
    """Märklin's quick paths (announcements at setup and on a turn, placements, rides, stops) skip ``None in market``
    for the market tuple the engine remembers as full (engine._full): right after a quick ply remembered one, the
    same ply from a state whose market has an empty slot is refused by every quick path (the general path takes it),
    and the ply itself gives the general path's state."""
    v = get_variant("maerklin")
    kinds = set()
    for seed in range(2):
        s = new_game("maerklin", 4, seed)
        bots = [RandomBot(40 + 4 * seed + i) for i in range(4)]
        while s.phase != "over":
            seat = to_move(s)[0]
            a = bots[seat].choose(s, seat)[0]
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
            s = slow
    assert kinds >= {"Announce at the setup", "Announce", "PlacePassenger", "Ride", "Stop"}, kinds
