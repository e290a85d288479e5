"""The Card Game's own actions (the draws, ``tickets``, ``keep`` and ``pass`` are the board game's):

    track                      step 1 of a turn: one card of each colour from the rail yard to the on-the-track
                               pile, locomotives of a stack first (CG-TURN-1)
    yard green3+loco1          play two or more cards of one colour into the rail yard, locomotives on top
    yard blue1+red1+yellow1    play exactly three cards of three different colours (CG-YARD-1/2)
    complete T04 T11           at the end of a round: complete these tickets from the on-the-track pile
    complete                   ... or none of them (CG-END-2)

Registered with ``ttr_nb.actions.register_action``, so ``ttr_nb.parse_action`` reads them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ..actions import Action, Payment, parse_payment, payment_str, register_action
from ..errors import BadAction


@dataclass(frozen=True, slots=True)
class MoveToTrack(Action):
    seat: int | None = None
    verb: ClassVar[str] = "track"

    def body(self) -> str:
        return "track"


@dataclass(frozen=True, slots=True)
class PlayYard(Action):
    payment: Payment = ()
    seat: int | None = None
    verb: ClassVar[str] = "yard"

    def body(self) -> str:
        return f"yard {payment_str(self.payment)}"


@dataclass(frozen=True, slots=True)
class CompleteTickets(Action):
    tickets: tuple[str, ...] = ()
    seat: int | None = None
    verb: ClassVar[str] = "complete"

    def body(self) -> str:
        return " ".join(("complete", *self.tickets))


_TICKET_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")


def _parse_track(words: list[str], text: str) -> Action:
    if words:
        raise BadAction(f"{text!r}: 'track' takes nothing after it")
    return MoveToTrack()


def _parse_yard(words: list[str], text: str) -> Action:
    if len(words) != 1:
        raise BadAction(f"{text!r}: write 'yard CARDS', e.g. 'yard green3+loco1' or 'yard blue1+red1+yellow1'")
    return PlayYard(payment=parse_payment(words[0], repr(text)))


def _parse_complete(words: list[str], text: str) -> Action:
    ids: list[str] = []
    for w in words:
        if not _TICKET_ID.match(w):
            raise BadAction(f"{text!r}: {w!r} is not a ticket id (e.g. T04)")
        if w.upper() in ids:
            raise BadAction(f"{text!r}: ticket {w.upper()} is named twice")
        ids.append(w.upper())
    return CompleteTickets(tickets=tuple(ids))


register_action("track", _parse_track)
register_action("yard", _parse_yard)
register_action("complete", _parse_complete)

__all__ = ["MoveToTrack", "PlayYard", "CompleteTickets"]
