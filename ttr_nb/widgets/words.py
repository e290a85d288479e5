"""How the views say a move: once, in a learner's words, with nothing the reader may not see.

The engine reports each move twice over — the move ("Red claims Dallas–Houston (1, gray) with 1 purple") and events
that restate it ("Red claimed Dallas–Houston ... for 1 point") — and a bot adds its reason. A view says the move
once: the move's words, what only its reader may know folded in ("You drew a red card from the deck" instead of
"Blue draws the top card of the deck"), the points a claim scored, and then only the events that add something (a
reshuffle, the final round, tickets returned). A bot's reason is shown on demand.

Rule ids ("(USA-SETUP-3)", "(MK-TURN-1/USA-TURN-1)") belong in refusals and in the teacher's view; a learner's
status line goes without them (``without_rule_ids``).
"""
from __future__ import annotations

import re
from typing import Any

#: Events that say again what the move's own words say (at most adding what only the mover may know).
RESTATING = frozenset({"claim", "deck_card", "tickets_announced", "passenger_placed", "tunnel_paid",
                       "tunnel_withdrawn", "draft_keep", "express"})

_RULE_IDS = re.compile(r"\s*\((?:[A-Z]{2,4}-[A-Z]+(?:-\d+)?[a-z]?)(?:\s*[/,;]\s*[A-Z]{2,4}-[A-Z]+(?:-\d+)?[a-z]?)*\)")


def without_rule_ids(text: str) -> str:
    """``text`` without the rule ids in brackets ("... waiting for Blue (USA-SETUP-3)." -> "... waiting for
    Blue.")."""
    return _RULE_IDS.sub("", str(text))


def move_words(ply, viewer: int | None, before: Any = None) -> str:
    """The move ``ply`` said once for ``viewer`` (None: the teacher, who sees everything): see the module docstring.
    ``before``: the state before the move (for the points a claim scored)."""
    words = ply.words_for(viewer)
    extra = []
    for e in ply.events:
        text = e.text_for(viewer)
        if e.kind in RESTATING:
            if text != e.text:                 # what only this reader may know (the card a blind draw gave)
                words = text
            if e.kind == "claim" and before is not None:
                points = _route_points(ply.state, ply.seat) - _route_points(before, ply.seat)
                if points:
                    words += f" — {points} point{'s' if points != 1 else ''}"
            continue
        extra.append(text)
    return " · ".join([words, *extra])


def _route_points(state, seat: int) -> int:
    try:
        return int(state.players[seat].route_points)
    except (AttributeError, IndexError, TypeError, ValueError):
        return 0


_ES = ("sses", "shes", "ches", "xes", "zes", "oes")


def second_person(words: str) -> str:
    """An action's words addressed to its player, for a button: "draws the top card of the deck" -> "draw the top
    card of the deck", "takes face-up card 1" -> "take face-up card 1", "announces 2 short + 2 long tickets" ->
    "announce 2 short + 2 long tickets" (the first word is the verb; "its" becomes "your")."""
    text = str(words).strip()
    if not text:
        return text
    verb, _, rest = text.partition(" ")
    low = verb.lower()
    if low.endswith("ies") and len(low) > 4:
        verb = verb[:-3] + "y"
    elif low.endswith(_ES):
        verb = verb[:-2]
    elif low.endswith("s") and not low.endswith("ss") and len(low) > 2:
        verb = verb[:-1]
    rest = re.sub(r"\bits\b", "your", rest)
    return f"{verb} {rest}".strip()


def reason_words(reason: Any, viewer: int | None, seat: int) -> str:
    """A bot's reason for its move as ``viewer`` may read it ("" when it would tell another seat's secret)."""
    if reason is None:
        return ""
    text_for = getattr(reason, "text_for", None)
    if text_for is not None:
        return str(text_for(viewer, seat) or "")
    return str(reason) if viewer is None or viewer == seat else ""


__all__ = ["RESTATING", "without_rule_ids", "move_words", "reason_words", "second_person"]
