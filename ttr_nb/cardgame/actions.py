"""The Card Game's own actions (the draws, ``tickets``, ``keep`` and ``pass`` are the board game's):

    track                      step 1 of a turn: one card of each colour from the rail yard to the on-the-track
                               pile, locomotives of a stack first (CG-TURN-1)
    yard green3+loco1          play two or more cards of one colour into the rail yard, locomotives on top
    yard blue1+red1+yellow1    play exactly three cards of three different colours (CG-YARD-1/2)
    complete Chicago–Miami     at the end of a round: complete this ticket from the on-the-track pile (named by its
                               cities like every ticket, ``ttr_nb.board.names``; its id, ``complete T12``, is accepted too)
    complete done              ... and complete no more: refused while the pile can still pay for a ticket (the
                               book: as many as possible, CG-END-2); one ticket per action keeps the list of legal
                               actions short however many tickets a player holds

Registered with ``ttr_nb.board.actions.register_action``, so ``ttr_nb.parse_action`` reads them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..board.actions import Action, Payment, _ref, parse_payment, payment_str, register_action
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
class CompleteTicket(Action):
    ticket: str | None = None          # None: done, complete no more tickets this round
    seat: int | None = None
    verb: ClassVar[str] = "complete"

    def body(self) -> str:
        return f"complete {self.ticket or 'done'}"


def _parse_track(words: list[str], text: str) -> Action:
    if words:
        raise BadAction(f"{text!r}: 'track' takes nothing after it")
    return MoveToTrack()


def _parse_yard(words: list[str], text: str) -> Action:
    if len(words) != 1:
        raise BadAction(f"{text!r}: write 'yard CARDS', e.g. 'yard green3+loco1' or 'yard blue1+red1+yellow1'")
    return PlayYard(payment=parse_payment(words[0], repr(text)))


def _parse_complete(words: list[str], text: str) -> Action:
    original = text.strip().partition(":")[2] if ":" in text else text    # the words as typed (the parser lower-cases)
    words = original.split()[1:]
    if not words:
        raise BadAction(f"{text!r}: name the ticket to complete, e.g. 'complete Chicago–Miami'")
    if "," in original:
        raise BadAction(f"{text!r}: complete one ticket at a time ('complete Chicago–Miami', then the next) until the "
                        "pile can pay for no more")
    if words == ["done"] or words == ["DONE"]:
        return CompleteTicket()
    return CompleteTicket(ticket=_ref(words, text, "ticket", "Chicago–Miami"))


register_action("track", _parse_track)
register_action("yard", _parse_yard)
register_action("complete", _parse_complete)

__all__ = ["MoveToTrack", "PlayYard", "CompleteTicket"]
