"""The coach in the views (issue 19, item 4): a hint button with the ticket odds for a play view, a game review for
a history view.

``CoachPanel`` (in ``PlayView`` and the Card Game's ``CardPlayView``): the button "coach: best moves" asks the coach
(``ttr_nb.coach.hint``) for the top 3 moves of the seat at the screen, with their chances to win and reasons, and
the chance to complete each of that seat's tickets, from one search. The best claim among them is drawn on the
board (``on_route``). Thinking shows a progress bar and takes about 1 s of CPU in a kernel; in JupyterLite's Python
a fixed, smaller number of playouts (a few seconds), and the panel says so.

``ReviewPanel`` (in ``HistoryView``): after a game, "coach: review the game" looks for the moves where a seat's
estimated chance to win dropped most (``ttr_nb.coach.review``), each with the coach's alternative and why, and a
button that shows the position.

Secrets: the coach works from the seat's view alone (``observe``/``determinize``), so what it says tells nothing
the seat may not see. A panel answers for the seat its view shows and forgets the answer as soon as the position or
the seat at the screen changes (the next move, a hot seat's hand-over): a hint is never shown to another player.
"""
from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from ..board.engine import seat_name, to_move
from ..errors import TTRError
from ._common import esc

#: the buttons' words (their accessible names too)
HINT_WORDS = "coach: best moves"
REVIEW_WORDS = "coach: review the game"
#: playouts per move of a review in a kernel (a board game; the Card Game has about twice the decisions and slower
#: playouts, so fewer): a few seconds of thinking for a whole game; in JupyterLite's Python (several times slower)
#: fewer still, said so
REVIEW_PLAYOUTS = {"board": 20, "cardgame": 8}
BROWSER_REVIEW_PLAYOUTS = {"board": 6, "cardgame": 3}
#: a reviewed move is shown only when its loss is this many standard errors clear of chance, on the samples both
#: moves were played on (``ReviewItem.z``): with few playouts a move, a drop alone may be luck
REVIEW_SURE = 2.0


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def _lead(margin: float) -> str:
    """The expected final margin on the best other player, in words."""
    points = round(abs(margin))
    if not points:
        return "level with the best other player on average"
    return f"{points} point{'s' if points != 1 else ''} {'ahead of' if margin > 0 else 'behind'} the best other player on average"


def progress_html(share: float | None, what: str) -> str:
    """A native progress bar with an accessible name (``what``), or nothing (``share`` None)."""
    if share is None:
        return ""
    value = max(0, min(100, round(100 * share)))
    return (f"<div class='ttr-coach-progress' style='display:flex;align-items:center;gap:6px'>"
            f"<progress max='100' value='{value}' aria-label='{esc(what)}' style='width:160px'></progress>"
            f"<span>{esc(what)} … {value}%</span></div>")


def hint_html(h, seat: int) -> str:
    """The hint of ``seat`` as HTML: the top moves, then the seat's tickets with their chance to complete."""
    # a list, not a table: the reasons are sentences, and the view's side column is narrow
    rows = "".join(
        f"<li style='margin-bottom:3px'><b>{esc(a.words)}</b>: <b>{_pct(a.win)}</b> chance to win, {_lead(a.margin)}"
        f"<br><span style='color:#333'>{esc(a.why)}</span></li>" for a in h.moves)
    out = [f"<div><b>The coach's best moves for {esc(seat_name(seat))}</b></div>"
           f"<ol class='ttr-coach-moves' style='margin:2px 0;padding-left:1.4em'>{rows}</ol>"]
    if h.odds:
        items = "".join(f"<li>{esc(o.words)}: {'joined already' if o.joined else _pct(o.chance) + ' to complete'}</li>"
                        for o in h.odds)
        out.append(f"<div><b>Your tickets</b>, the chance to complete each by the end (the coach's playouts):"
                   f"<ul style='margin:2px 0'>{items}</ul></div>")
    note = (f"Ranked by the chance to win and the lead together. From what {seat_name(seat)} can see, guessing the "
            f"hidden cards and tickets; {h.note}.")
    if h.route:
        note += " The best claim among them is drawn on the board as the hint."
    out.append(f"<small style='color:#444'>{esc(note)}</small>")
    return "<div class='ttr-coach-hint'>" + "".join(out) + "</div>"


def hint_summary(h) -> str:
    """One line for the message area and a screen reader."""
    best = h.moves[0]
    return f"The coach suggests: {best.words} ({_pct(best.win)} to win) — {best.why}"


class _Thinking:
    """Calls ``show(share)`` as a search moves on, at most about 20 times (each one is a message to the browser)."""

    def __init__(self, show: Callable[[float], None]):
        self.show = show
        self.last = -1

    def __call__(self, share: float) -> None:
        step = int(20 * share)
        if step != self.last:
            self.last = step
            self.show(share)


class CoachPanel:
    """The hint button of a play view and what it shows (see the module).

    ``position()``: the state and the seat at the screen that may act now (None: nobody, e.g. while a hot seat's
    hand-over is up, or a bot's turn). ``on_route(route_id or None)``: draw (or clear) the best claim on the board.
    ``on_said(text)``: a one-line summary for the view's message area. ``seconds``/``playouts``: the budget (default:
    about 1 s in a kernel, fewer playouts in JupyterLite; ``ttr_nb.coach.hint``)."""

    def __init__(self, position: Callable[[], tuple[Any, int | None]], *,
                 on_route: Callable[[str | None], None] | None = None, on_said: Callable[[str], None] | None = None,
                 seconds: float | None = None, playouts: int | None = None, seed=0, top: int = 3):
        self.position = position
        self.on_route = on_route
        self.on_said = on_said
        self.seconds, self.playouts, self.seed, self.top = seconds, playouts, seed, top
        self.button = widgets.Button(description=HINT_WORDS, button_style="info", layout=widgets.Layout(width="auto"),
                                     tooltip="the coach's 3 best moves for you now, with their chances to win and "
                                             "why, and your tickets' chances to complete")
        self.button.add_class("ttr-coach-button")
        self.button.on_click(lambda _b: self.ask())
        self.progress = widgets.HTML()
        self.output = widgets.HTML()
        self.output.add_class("ttr-coach-output")
        self.widget = widgets.VBox([self.progress, self.output], layout=widgets.Layout(width="100%"))
        self.widget.add_class("ttr-coach")
        self.hint = None                    # the last answer (a ttr_nb.coach.Hint), for the position in ``shown_for``
        self.shown_for: tuple[Any, int] | None = None

    def _who(self) -> tuple[Any, int | None]:
        state, seat = self.position()
        if seat is not None and (state.phase == "over" or seat not in to_move(state)):
            seat = None
        return state, seat

    def ask(self):
        """The button: the coach's hint for the seat at the screen (None when nobody there may act)."""
        state, seat = self._who()
        if seat is None:
            self.clear()
            self.output.value = ("<div style='color:#444'>The coach helps the player whose move it is, when that "
                                 "player is at the screen.</div>")
            return None
        from ..coach import hint
        self.button.disabled = True
        self.output.value = ""
        show = _Thinking(lambda share: setattr(self.progress, "value", progress_html(share, "the coach is thinking")))
        show(0.0)
        try:
            h = hint(state, seat, seconds=self.seconds, playouts=self.playouts, seed=self.seed, top=self.top,
                     progress=show)
        except TTRError as e:
            self.output.value = f"<div style='color:#444'>{esc(e)}</div>"
            return None
        finally:
            self.progress.value = ""
            self.button.disabled = False
        self.hint, self.shown_for = h, (state, seat)
        self.output.value = hint_html(h, seat)
        if self.on_route is not None:
            self.on_route(h.route)
        if self.on_said is not None:
            self.on_said(hint_summary(h))
        return h

    def clear(self) -> None:
        """Forget the shown hint (and take its route off the board)."""
        had = self.shown_for is not None
        self.hint, self.shown_for = None, None
        self.output.value = ""
        if had and self.on_route is not None:
            self.on_route(None)

    def sync(self) -> None:
        """After the view changed: a hint for another position or another seat goes; the button is usable only
        when a seat at the screen may act."""
        state, seat = self._who()
        if self.shown_for is not None and (self.shown_for[0] is not state or self.shown_for[1] != seat):
            self.clear()
        self.button.disabled = seat is None


def review_budget(state) -> tuple[int, str]:
    """(playouts per move, note) for a review of ``state``'s game: fewer in JupyterLite's Python, said so."""
    import sys
    from ..board.state import GameState
    kind = "board" if state.__class__ is GameState else "cardgame"
    if sys.platform == "emscripten":
        n = BROWSER_REVIEW_PLAYOUTS[kind]
        return n, (f"{n} playouts a move: fewer than in a kernel, as Python in the browser is slower, so only big "
                   "drops show")
    return REVIEW_PLAYOUTS[kind], f"{REVIEW_PLAYOUTS[kind]} playouts a move"


class ReviewPanel:
    """The review button of a history view and what it shows (see the module).

    ``game``: the game; ``seat``: the seat the view belongs to (None: the teacher's view, which chooses a seat);
    ``on_show(ply)``: show the position at ``ply`` (before the move reviewed). ``playouts`` per move (default:
    ``review_budget``)."""

    def __init__(self, game, seat: int | None = None, *, on_show: Callable[[int], Any] | None = None,
                 playouts: int | None = None, seed=0, top: int = 3):
        self.game, self.seat, self.on_show = game, seat, on_show
        self.playouts, self.seed, self.top = playouts, seed, top
        n = game.start.n_players
        self.who = widgets.Dropdown(options=[(seat_name(x), x) for x in range(n)], value=0 if seat is None else seat,
                                    description="whose moves", layout=widgets.Layout(
                                        width="auto", display="none" if seat is not None else ""))
        self.button = widgets.Button(description=REVIEW_WORDS, button_style="info", layout=widgets.Layout(width="auto"),
                                     tooltip="after the game: the moves where the chance to win dropped most, with "
                                             "the coach's better move and why")
        self.button.add_class("ttr-review-button")
        self.button.on_click(lambda _b: self.run())
        self.progress = widgets.HTML()
        self.output = widgets.HTML()
        self.output.add_class("ttr-review-output")
        self.items_box = widgets.VBox()
        self.items: list = []
        self.widget = widgets.VBox([widgets.HBox([self.who, self.button], layout=widgets.Layout(flex_flow="row wrap")),
                                    self.progress, self.output, self.items_box])
        self.widget.add_class("ttr-review")
        self.sync()

    def sync(self) -> None:
        """The button works once the game is over."""
        self.button.disabled = not self.game.is_over
        self.button.tooltip = ("the moves where the chance to win dropped most, with the coach's better move and why"
                               if self.game.is_over else "the coach reviews a game once it is over")

    def run(self) -> list:
        """The button: review the chosen seat's moves. Returns the review's items (``ttr_nb.coach.ReviewItem``)."""
        if not self.game.is_over:
            self.output.value = "<div style='color:#444'>The coach reviews a game once it is over.</div>"
            return []
        from ..coach import review
        seat = self.who.value if self.seat is None else self.seat
        playouts, note = ((self.playouts, f"{self.playouts} playouts a move") if self.playouts
                          else review_budget(self.game.start))
        self.button.disabled = True
        self.output.value = ""
        self.items_box.children = ()
        what = f"the coach is reviewing {seat_name(seat)}'s moves"
        show = _Thinking(lambda share: setattr(self.progress, "value", progress_html(share, what)))
        show(0.0)
        try:
            found = review(self.game, seat, playouts=playouts, seed=self.seed, top=3 * self.top, progress=show)
            self.items = [it for it in found if it.z >= REVIEW_SURE][:self.top]
        finally:
            self.progress.value = ""
            self.sync()
        name = seat_name(seat)
        if not self.items:
            self.output.value = (f"<div>The coach found no move of {esc(name)}'s that clearly cost a chance to win: "
                                 f"each was about as good as its own choice, as far as its playouts can tell. "
                                 f"<small style='color:#444'>({esc(note)})</small></div>")
            return []
        self.output.value = (f"<div><b>{esc(name)}'s costliest moves</b>, by the coach's estimate of the chance to win "
                             f"<small style='color:#444'>(from what {esc(name)} could see then; {esc(note)})</small>"
                             f"</div>")
        rows = []
        for it in self.items:
            words = it.text.replace(f"Turn {it.turn + 1}:", f"Turn {it.turn + 1} (move {it.ply}):", 1)
            text = widgets.HTML(f"<div class='ttr-review-item'>{esc(words)}</div>",
                                layout=widgets.Layout(flex="1 1 300px"))
            go = widgets.Button(description=f"show move {it.ply}", layout=widgets.Layout(width="auto"),
                                tooltip=f"the position before move {it.ply}")
            go.on_click(lambda _b, ply=it.ply: self.show(ply))
            rows.append(widgets.HBox([go, text], layout=widgets.Layout(flex_flow="row wrap", align_items="center")))
        self.items_box.children = tuple(rows)
        return self.items

    def show(self, ply: int) -> None:
        """Show the position before move ``ply`` (1-based, as in the review)."""
        if self.on_show is not None:
            self.on_show(ply - 1)


__all__ = ["CoachPanel", "ReviewPanel", "HINT_WORDS", "REVIEW_WORDS", "hint_html", "hint_summary", "progress_html"]
