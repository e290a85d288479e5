"""The hot seat: two or more players at one screen, each seeing only their own secrets.

When another player's turn (or choice) comes, the view hides everything secret — the last player's hand, tickets
and what they just chose — and shows a hand-over instead: "Blue is done. Pass the screen to Red — Red, press when
ready". Only when Red presses does the screen show Red's hand, tickets and decision. The same between the choices
everyone makes at once (the first tickets, South Korea's draft): one player at a time. The first player gets a
hand-over too, so nobody's cards are on the screen before their owner sits at it.

``HandOver`` keeps whose secrets the screen shows; the views ask it for their viewer (a seat, or ``NOBODY`` while the
hand-over is up) and build every text from that viewer's view of the game.
"""
from __future__ import annotations

from typing import Callable, Iterable

import ipywidgets as widgets

from ..board.engine import seat_name
from ._common import esc

#: A viewer who is no seat: the view shows what every player may see, nobody's secrets.
NOBODY = -1


class HandOver:
    """Whose secrets a hot-seat view shows, and the hand-over panel (``widget``) shown between two players.

    ``active``: False for a view that needs no hand-over (one human seat, a fixed ``seat_view``, or asked not to).
    ``shown``: the seat at the screen (None while the hand-over is up); ``waiting_for``: the seat it waits for.
    """

    def __init__(self, on_ready: Callable[[], object]):
        self.active = False
        self.shown: int | None = None
        self.waiting_for: int | None = None
        self.last: int | None = None               # who had the screen before the hand-over
        self.note = widgets.HTML()
        self.button = widgets.Button(button_style="primary", layout=widgets.Layout(width="auto"))
        self.button.on_click(lambda _b: on_ready())
        self.widget = widgets.VBox([self.note, self.button],
                                   layout=widgets.Layout(display="none", border="2px solid #1f5fa8",
                                                         padding="6px 10px", margin="2px 0"))
        self.widget.add_class("ttr-handover")

    def reset(self, active: bool) -> None:
        self.active = active
        self.shown = self.waiting_for = self.last = None

    @property
    def up(self) -> bool:
        """Whether the hand-over is on the screen (nobody's secrets are shown)."""
        return self.active and self.waiting_for is not None

    def viewer(self) -> int:
        """The seat whose secrets may be shown, or ``NOBODY`` while the hand-over is up."""
        return NOBODY if self.up or self.shown is None else self.shown

    def sync(self, wanted: int | None, over: bool) -> None:
        """``wanted``: the human seat that is to act now (None: nobody, e.g. a bot). Another seat than the one at
        the screen puts the hand-over up; the end of the game takes it down (everything is shown then)."""
        if not self.active or over:
            self.waiting_for = None
        elif wanted is not None and wanted != self.shown and wanted != self.waiting_for:
            self.last = self.shown if self.shown is not None else self.last
            self.shown = None
            self.waiting_for = wanted
        self._render()

    def take(self) -> int | None:
        """The player waited for is at the screen now: show their secrets. Returns that seat (None: no hand-over)."""
        seat = self.waiting_for
        if seat is not None:
            self.shown, self.waiting_for = seat, None
            self._render()
        return seat

    def words(self) -> str:
        """What the hand-over says (also the refusal of anything tried while it is up)."""
        who = seat_name(self.waiting_for) if self.waiting_for is not None else ""
        return f"pass the screen to {who} first: {who} presses \"{self.button.description}\" when ready"

    def _render(self) -> None:
        if not self.up:
            self.widget.layout.display = "none"
            return
        who = seat_name(self.waiting_for)
        if self.last is None:
            head = f"<b>{esc(who)} begins.</b>"
        else:
            head = f"<b>{esc(seat_name(self.last))} is done.</b> Pass the screen to <b>{esc(who)}</b>."
        self.note.value = (f"<div style='font-size:1.1em'>{head} {esc(who)}, press the button when nobody else "
                           f"can see the screen: it shows your cards and tickets.</div>")
        self.button.description = f"I am {who}: show my cards"
        self.button.tooltip = f"only {who} should look at the screen now"
        self.widget.layout.display = ""


def first_human(to_move: Iterable[int], human_seats: Iterable[int]) -> int | None:
    """The first seat of ``to_move`` played through the view (None: none)."""
    humans = set(human_seats)
    return next((x for x in to_move if x in humans), None)


__all__ = ["NOBODY", "HandOver", "first_human"]
