"""Ticket to Ride (USA), the base game: settings only — it has no features (../shared/rules/usa.md)."""
from __future__ import annotations

from .variants import Settings, Variant, register

USA = register(Variant(
    key="usa",
    name="Ticket to Ride (USA)",
    map_key="usa",
    rule_prefix="USA",
    settings=Settings(),
    aliases=("base", "ticket to ride", "america"),
    description="The base game: draw train cards, claim routes, draw destination tickets.",
))
