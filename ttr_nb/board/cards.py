"""Train-card colours shared by every variant.

Card kinds are small integers so hands can be count vectors: index 0..7 are the eight colours in
the order of the rule books (USA-COMP-3), index 8 is the locomotive. Variants that add card kinds
(Märklin's +4 locomotives and passenger cards) extend this list with higher indices.
"""
from __future__ import annotations

COLOURS: tuple[str, ...] = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
LOCO = 8
LOCOMOTIVE = "locomotive"
GRAY = "gray"
LOCO4 = 9          # Märklin's locomotive +4: wild only on long routes (a variant's Settings.wilds says so)
PASSENGER = 10     # Märklin's passenger card: pays for opponents' routes on a passenger's journey, never for a claim
BASE_KINDS = LOCO + 1                  # the card kinds of a game without extra cards (USA, Europe)
CARD_NAMES: tuple[str, ...] = COLOURS + (LOCOMOTIVE, "locoplus", "passenger")
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
# Short names accepted in action text ("loco" for locomotive).
# "brown" is the Swedish rule book's name for orange (USA-COMP-3); "pink" the board's name for purple.
CARD_ALIASES: dict[str, int] = {**CARD_INDEX, "loco": LOCO, "pink": 0, "brown": 2}
PLAYER_COLOURS: tuple[str, ...] = ("blue", "red", "green", "yellow", "black")  # USA-COMP-2


def card_word(kind: int | str) -> str:
    """One card kind in a list ("2 red", "1 +4 locomotive"): its name, but never the action notation "locoplus"."""
    name = CARD_NAMES[kind] if isinstance(kind, int) else kind
    return "+4 locomotive" if name == CARD_NAMES[LOCO4] else name


def a_card(kind: int) -> str:
    """One card in a sentence, with its article: "a red card", "an orange card", "a locomotive", "a +4 locomotive"."""
    name = {LOCO: LOCOMOTIVE, LOCO4: "+4 locomotive"}.get(kind, f"{CARD_NAMES[kind]} card")
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def card_words(kind: int) -> str:
    """A card kind in a sentence, plural: "red cards", "locomotives", "+4 locomotives", "passenger cards"."""
    return {LOCO: "locomotives", LOCO4: "+4 locomotives"}.get(kind, f"{CARD_NAMES[kind]} cards")
