"""What every player may see, nobody's secrets: the view of a hot seat's screen while the hand-over is up.

The engines' ``observe(state, seat)`` shows a seat its own secrets and every other seat's public side; so the public
view of the table is each player as *another* seat sees it (what one seat may see of another's is public), and each
pending choice likewise. Built from ``observe`` alone, it can show nothing ``observe`` hides.
"""
from __future__ import annotations

from typing import Callable

#: The viewer of what every player may see (no seat's secrets).
PUBLIC = -1


def public_view(observe: Callable, state) -> dict:
    """``observe``'s answer with no seat's secrets (see the module docstring); ``viewer`` is ``PUBLIC``."""
    n = state.n_players
    views = [observe(state, j) for j in range(n)]
    out = dict(views[0])
    out["players"] = [views[(i + 1) % n]["players"][i] for i in range(n)]
    out["pending"] = [views[(e["seat"] + 1) % n]["pending"][k] for k, e in enumerate(views[0]["pending"])]
    out["viewer"] = PUBLIC
    return out


__all__ = ["PUBLIC", "public_view"]
