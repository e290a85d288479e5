"""Ticket to Ride: The Card Game (docs/rules/cardgame.md): registered under ``cardgame``.

It has no board, so it is not a board ``Variant``: the registry holds a :class:`CardGame` that names its rules
module (``ttr_nb.cardgame.engine``); the public entry points (``ttr_nb.board.engine``, ``ttr_nb.Game``, the bots, the CLI)
look the rules module up from ``state.variant`` (``ttr_nb.variants.rules_of``). The settings are the rule book's
numbers; the interpretations are where the Swedish rule book is silent or ambiguous.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..variants import register


@dataclass(frozen=True)
class CardSettings:
    min_players: int = 2                 # CG-COMP-4
    max_players: int = 4
    start_locos: int = 1                 # CG-SETUP-1
    start_hand: int = 7                  # CG-SETUP-2
    market_size: int = 5                 # CG-SETUP-3
    setup_tickets: int = 6               # CG-SETUP-4
    setup_min_keep: int = 1
    ticket_draw: int = 4                 # CG-TICKET-1
    ticket_min_keep: int = 0
    min_stack: int = 2                   # CG-YARD-1 a: two or more cards of one colour
    mixed_play: int = 3                  # CG-YARD-1 b: exactly three cards of three different colours
    two_round_players: int = 4           # CG-ROUND-2
    round2_hand: int = 4                 # CG-END-4
    tie_breaks: tuple[str, ...] = ("tickets", "big_cities")   # CG-SCORE-4


CG_INTERPRETATIONS: tuple[tuple[str, str], ...] = (
    ("CG-SETUP-4", "The tickets players give back at setup are shuffled into the ticket deck once everyone has "
                   "chosen (in a fixed order first, so the result does not depend on who answered first)."),
    ("CG-SETUP-5", "The starting player (the book: the youngest) is a seat you choose (first_player, default the "
                   "first seat)."),
    ("CG-TURN-1", "Step 1 is its own action, 'track', owed at the start of every turn with cards in the rail yard "
                  "(a player's first turn always has an empty yard). It moves the top card of every stack: a "
                  "locomotive while the stack has one."),
    ("CG-AREA-1", "As the book says, every on-the-track pile is secret from all players, its owner included, until "
                  "the round ends: everyone sees its size. The book's option for young or new players, who may look "
                  "at their own pile, is a setting: see_own_track=True (new_game, Game, card_position), saved with "
                  "the game. Bots decide from what their seat may see."),
    ("CG-YARD-2", "A one-colour play needs at least one card of that colour and at least two cards in all, "
                  "locomotives counting (one green card and one locomotive make a green stack of two)."),
    ("CG-YARD-4", "Locomotives count toward a stack's size, on both sides of a robbery. A play must be larger than "
                  "the stack of every opponent who holds that colour; each of them discards their whole stack, "
                  "locomotives included, face up. A three-colour play (one card per colour) can never be larger, so "
                  "it may not use a colour another player has in their yard."),
    ("CG-TICKET-1", "With fewer than four tickets left, a player draws what is left; with none left, tickets cannot "
                    "be drawn."),
    ("CG-END-1", "The last round starts when the deck becomes empty, by a blind draw or by refilling a taken face-up "
                 "card. A player who empties the deck with the first card may still take a face-up card (not a "
                 "locomotive); with no card left to take, the turn ends with one card. Face-up cards are not "
                 "replaced any more. A player who can do nothing (no card, no yard play, no ticket) passes."),
    ("CG-END-2", "The book says a player completes 'as many as possible'. Each player completes tickets one at a "
                 "time, all players at once and in secret, and may not stop ('complete done' is refused) while the "
                 "pile can still pay for another ticket; which ones, and so how many when tickets compete for the "
                 "same cards, is the player's choice. The engine offers the best choices, found exactly: most "
                 "points, and most tickets. Each colour's own cards are used first, locomotives for the rest. The "
                 "on-the-track piles are shown to everyone from this step on."),
    ("CG-END-4", "The player who ended round 1 is the one who drew the deck's last card (that player also has the "
                 "round's last turn). The face-up cards and the discard pile are shuffled into the new deck too; 4 "
                 "cards are dealt to each player starting with the new starting player, then 5 are turned up. If the "
                 "deck cannot deal that many, what there is is dealt; if it is empty right after the deal, the last "
                 "round (CG-END-1) starts at once."),
    ("CG-SCORE-2", "A Big Cities card needs at least one completed ticket to its city."),
    ("CG-SCORE-4", "Still tied after most completed tickets and most Big Cities cards: the victory is shared."),
)


@dataclass(frozen=True)
class CardGame:
    """A registry entry for a game with its own rules engine (no board, no ``Map``)."""

    key: str
    name: str
    rules: str                                          # the module implementing the protocol
    rule_prefix: str
    settings: CardSettings = field(default_factory=CardSettings)
    bots: str = ""                                      # the module with its bots: bot(kind, seed)
    views: str = "ttr_nb.widgets.cardgame"              # its own views (PlayView, TableView, HistoryView, EditorView)
    aliases: tuple[str, ...] = ()
    description: str = ""
    interpretations: tuple[tuple[str, str], ...] = ()
    summary: str = ""

    def rule(self, rule_id: str) -> str:
        return rule_id

    @property
    def data(self):
        from ..cardgame.data import load_cards
        return load_cards()

    @property
    def provisional(self) -> bool:
        return self.data.provisional

    @property
    def provisional_note(self) -> str:
        return self.data.provisional_note


CARDGAME = register(CardGame(
    key="cardgame",
    name="Ticket to Ride: The Card Game",
    rules="ttr_nb.cardgame.engine",
    bots="ttr_nb.cardgame.bots",
    rule_prefix="CG",
    aliases=("card game", "card-game", "the card game"),
    description="No board and no trains: play cards into your rail yard, move them onto your on-the-track pile, "
                "rob other players' yards, and complete tickets from the pile at the end of the round.",
    interpretations=CG_INTERPRETATIONS,
    summary="card game, no board",
))

from ..cardgame import actions as _actions  # noqa: E402,F401  (registers the verbs track, yard, complete)
