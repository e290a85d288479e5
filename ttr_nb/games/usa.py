"""Ticket to Ride (USA), the base game: settings only — it has no features (docs/rules/usa.md)."""
from __future__ import annotations

from ..variants import Settings, Variant, register

# Where the Swedish rule book is silent or ambiguous, ttr_nb does this (docs/rules/usa.md says so rule by rule):
USA_INTERPRETATIONS: tuple[tuple[str, str], ...] = (
    ("USA-SETUP-3", "The book does not say in what order the players choose their first tickets: in ttr_nb all "
                    "choose at the same time, and nobody sees another player's offer."),
    ("USA-SETUP-4", "The starting player is a seat you choose (first_player, default the first seat)."),
    ("USA-TURN-1", "A player who can do nothing at all (no card to draw, no route to pay for, no ticket left) passes; "
                   "if every player passes in a row, the game ends."),
    ("USA-DRAW-4", "The book does not say what a locomotive drawn blind from the deck counts as: ttr_nb counts it as "
                   "one ordinary card, so the player still takes a second card (as the Icelandic Europe book says)."),
    ("USA-DRAW-6", "Three or more face-up locomotives reset the market, again while it happens. The book does not say "
                   "when to stop if it cannot be avoided: ttr_nb stops when the cards outside the hands hold fewer "
                   "non-locomotives than a legal market needs (a safety net also stops after 1000 resets in a row, "
                   "which no real deck reaches)."),
    ("USA-DRAW-8", "As the book says literally: with deck and discard pile both empty no train card may be drawn, "
                   "face-up cards included. If that happens after a first card, the turn ends with one card."),
    ("USA-SCORE-3", "The book does not say whether the longest continuous route may pass through a city twice: ttr_nb "
                    "counts the longest trail, which may revisit cities and close loops but uses each route once, "
                    "measured in trains (as the Icelandic Europe book says)."),
    ("USA-SCORE-4", "Still tied after most completed tickets and the longest-path bonus (several players can hold it): "
                    "the victory is shared."),
)

USA = register(Variant(
    key="usa",
    name="Ticket to Ride (USA)",
    map_key="usa",
    rule_prefix="USA",
    settings=Settings(),
    aliases=("base", "ticket to ride", "america"),
    description="The base game: draw train cards, claim routes, draw destination tickets.",
    interpretations=USA_INTERPRETATIONS,
))
