"""The error hierarchy. Every message names the input, the seat and the rule id where there is one."""
from __future__ import annotations


class TTRError(ValueError):
    """Base class of every error ttr_nb raises on bad input. ``rule`` is the rule id it cites, if any."""

    rule: str | None = None


class IllegalAction(TTRError):
    """A well-formed action that the rules forbid in this state. ``rule`` is the rule id it breaks."""

    def __init__(self, message: str, rule: str | None = None, action: object = None, seat: int | None = None):
        self.rule = rule
        self.action = action
        self.seat = seat
        self.reason = message
        text = message if rule is None or rule in message else f"{message} ({rule})"
        super().__init__(text)


class BadAction(TTRError):
    """Action text that cannot be parsed, or an action object that is malformed."""


class MapError(TTRError):
    """A map file that is missing, malformed or inconsistent. Names the file, the item and the field."""


class StateError(TTRError):
    """A game state that breaks an invariant (see ``validate``) or cannot be decoded."""


class SaveFileError(TTRError):
    """A save file that cannot be read: missing, truncated, corrupt, hostile or of an unknown version."""
