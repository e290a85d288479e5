"""The Card Game's own views (it has no board): ``CardPlayView`` plays it by clicks, ``CardTableView`` shows the
table as the teacher or one player sees it, ``CardHistoryView`` steps through a game. ``ttr.PlayView(game)``,
``ttr.TableView(game)`` and ``ttr.HistoryView(game)`` give these for a Card Game, because the game's registry entry
names this module (``views``); the board views name no game.

Everything shown comes from ``observe(state, viewer)``, the moves' viewer-aware words, and the table figure
(``ttr_nb.render.cardtable``), so a player's view never shows another player's hand, tickets or on-the-track pile
— the log included.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import ipywidgets as widgets

from ..board.actions import Action, KeepTickets
from ..cardgame import engine as rules
from ..cardgame.actions import CompleteTicket
from ..board.engine import seat_name
from ..board.names import ticket_text, ticket_words
from ..errors import TTRError
from ..game import Game, Ply
from ..render.panels import _chip
from ._common import MessageArea, checked_seat, deck_take, esc, log_html, notice_html
from ._common import ticket_words as view_ticket_words
from .access import Access, accessible
from .hotseat import NOBODY, HandOver, first_human
from .keyboard import OptionList, split_options
from .playlayout import PLAY_CSS, play_area
from .words import move_words, reason_words, second_person, without_rule_ids

#: where the keyboard focus goes when the control that had it goes away (first that can take it)
CARD_FOCUS_ORDER = (".ttr-tickets input", ".ttr-options button", ".ttr-optionlist select", "button")

WHOLE_TABLE = "whole table"


def _robbed(before, after) -> list[tuple[int, str]]:
    """(seat, colour) of the rail-yard stacks a move robbed (they left a yard other than the mover's)."""
    if before is None:
        return []
    a, b = rules.observe(before, None), rules.observe(after, None)
    out = []
    for p, q in zip(a["players"], b["players"]):
        for colour in p["yard"]:
            if colour not in q["yard"] and p["track_size"] == q["track_size"]:
                out.append((p["seat"], colour))
    return out


def _banner(state) -> str:
    from ..variants import get_game
    note = get_game(state.variant).provisional_note
    return notice_html("Ticket data of medium-low confidence:", "check the tickets against the real cards.",
                       note) if note else ""


def _observe(state, seat: int | None) -> dict:
    """``observe`` for a seat, the whole table (None) or nobody's secrets (``PUBLIC``: a hot seat's hand-over)."""
    from ..render.cardtable import PUBLIC, public_view
    return public_view(state) if seat == PUBLIC else rules.observe(state, seat)


def _tickets_html(state, seat: int | None) -> str:
    """The tickets ``seat`` may see (its own, as "Your tickets"; everyone's by name for the teacher), with their
    colours and points."""
    view = _observe(state, seat)
    data = rules.load_cards()
    rows = []
    for p in view["players"]:
        if "tickets" not in p:
            continue
        items = []
        for tid in p["tickets"]:
            t = data.ticket(tid)
            need = t.needs_words()
            done = " <b style='color:#17692e'>done</b>" if tid in p.get("completed", ()) else ""
            items.append(f"<div>{esc(t.a)}–{esc(t.b)} ({t.points} points){done}"
                         + (f" <span style='color:#555'>needs {esc(need)}</span>" if need else "") + "</div>")
        whose = "Your tickets" if seat is not None and p.get("seat") == seat else f"{esc(p['name'])}'s tickets"
        rows.append(f"<div><b>{whose}</b>{''.join(items) or '<div><i>none yet</i></div>'}</div>")
    return "".join(rows)


def _hand_html(state, seat: int | None, *, label: str = "Your hand", teacher: bool = False) -> str:
    """``seat``'s hand (and on-the-track pile, where it may see it) as that seat sees it; ``teacher``: as the
    teacher sees it (everything). Nobody's (a hot seat's hand-over, seat -1): nothing."""
    if seat is None or seat < 0:
        return ""
    view = rules.observe(state, None if teacher else seat)
    me = view["players"][seat]
    from ..board.cards import CARD_NAMES
    chips = "".join(_chip(CARD_NAMES.index(c), n, me["name"]) for c, n in me.get("hand", {}).items() if n)
    track = me.get("track")
    size = me["track_size"]
    pile = (" · on the track: " + ", ".join(f"{n} {c}" for c, n in track.items())) if track else \
        (f" · on the track: {size} card{'s' if size != 1 else ''}, face down until the end of the round"
         if "track" not in me and size else "")          # CG-AREA-1: the book's rule keeps it secret from you too
    return f"<div><b>{esc(label)}</b> {chips or '<i>no cards</i>'}<span style='color:#555'>{esc(pile)}</span></div>"


class _CardView:
    """What the Card Game views share: the game, a viewer, the table figure, words and the log."""

    def _setup(self, game: Game, board_height: int = 0) -> None:
        if not isinstance(game, Game):
            raise TypeError(f"this view needs a ttr_nb.Game, got {type(game).__name__}")
        if game.rules is not rules:
            raise TTRError(f"this view shows the Card Game, not {game.state.variant}")
        from ..render.cardtable import card_table_figure
        from .plotfig import figure_view
        self.game = game
        self.banner = widgets.HTML(_banner(game.state))
        self.status = widgets.HTML()
        self.message = MessageArea()
        self._view = figure_view(card_table_figure(game.state, None), css_classes=["ttr-cardtable"],
                                 loading_text="Drawing the table ...")
        self.fig = self._view.figure
        self.hand = widgets.HTML()
        self.tickets = widgets.HTML()
        self.log_widget = widgets.HTML()

    @property
    def table(self):
        return self._view.current()

    def _draw(self, state, viewer: int | None, before=None, *, rule_ids: bool = True) -> None:
        from ..render.cardtable import update_card_table
        update_card_table(self.fig, state, viewer, robbed=_robbed(before, state))
        from ..render.describe import card_table_text
        self.table.describe(*card_table_text(state, viewer))
        status = rules.turn_status(state, viewer if viewer is None or viewer >= 0 else None)
        self.status.value = f"<b>{esc(status if rule_ids else without_rule_ids(status))}</b>"
        self.hand.value = _hand_html(state, viewer)
        self.tickets.value = _tickets_html(state, viewer)

    @staticmethod
    def _line(ply: Ply, viewer: int | None, before=None) -> str:
        return f"{ply.number}. {move_words(ply, viewer, before)}"

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget)

    def _accessible(self, focus_order=()) -> None:
        """Screen readers and keyboards: a live region in the view, focus kept in it (``widgets.access``)."""
        self.access = accessible(self.widget, Access(focus_order=focus_order)).children[-1]
        self.access.follow(self.message)


class CardPlayView(_CardView):
    """Play the Card Game by clicks: you play ``human_seats`` (default Blue), greedy bots the others. Each turn
    shows its step 1 (moving a card of each colour from your rail yard onto the on-the-track pile) as its own
    button, then the draws, the rail-yard plays and the ticket draw; refusals name the CG-* rule they break.
    Two or more human seats at one screen (a hot seat) see one player's cards at a time, with a hand-over between
    players (``ready()``; ``hand_over=False``: without one), as in the ``PlayView``."""

    def __init__(self, game: Game, human_seats: Sequence[int] = (0,), bots: Mapping[int, Any] | Any | None = None,
                 seat_view: int | None = None, *, auto_bots: bool = True, log_lines: int = 14,
                 hand_over: bool | None = None, **_ignored):
        self._setup(game)
        n = game.state.n_players
        for s in human_seats:
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
                raise TTRError(f"human seat {s!r} is not a seat of this {n}-player game (0..{n - 1})")
        if hand_over is not None and not isinstance(hand_over, bool):
            raise TTRError(f"hand_over must be True, False or None, got {hand_over!r}")
        if bots is None:
            from ..bots import make_bot
            bots = {s: make_bot("greedy", seed=s) for s in range(n) if s not in human_seats}
        elif not isinstance(bots, Mapping):
            bots = {s: bots for s in range(n) if s not in human_seats}
        self.bots = {s: b for s, b in bots.items() if s not in human_seats}
        self.human_seats = tuple(s for s in range(n) if s not in self.bots)
        self.seat_view = seat_view
        self.handover = HandOver(self.ready)
        self.handover.reset(bool(hand_over if hand_over is not None else True)
                            and len(self.human_seats) >= 2 and seat_view is None)
        self.auto_bots = auto_bots
        self.log_size = log_lines
        self._entries: list[tuple[Ply, Any, Any]] = []      # (ply, bot reason, state before)
        self._bot_moves: list[tuple[Ply, Any]] = []         # the bots' moves since the last human move
        self._listeners: list[Callable] = []
        self.options: list[Action] = []
        self._option_buttons: list[widgets.Button] = []
        self.options_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.options_box.add_class("ttr-options")
        # a turn's many rail-yard plays: one list box and a "play" button (a short tab order), the draws stay buttons
        self.more_options = OptionList(self.choose_option, label="or play", button="play this")
        self.ticket_box = widgets.VBox()
        self.ticket_box.add_class("ttr-tickets")
        self._ticket_checks: dict[str, widgets.Checkbox] = {}
        self.undo_button = widgets.Button(description="Undo", layout=widgets.Layout(width="auto"))
        self.undo_button.on_click(lambda _b: self.undo())
        self.redo_button = widgets.Button(description="Redo", layout=widgets.Layout(width="auto"))
        self.redo_button.on_click(lambda _b: self.redo())
        self.bots_button = widgets.Button(description="bots play until my turn", layout=widgets.Layout(width="auto"))
        self.bots_button.on_click(lambda _b: self.bots_play())
        self.explain_bots = widgets.Checkbox(value=False, description="explain the bots' moves", indent=False,
                                             layout=widgets.Layout(width="auto"),
                                             tooltip="after each bot move in the log, why the bot chose it")
        self.explain_bots.observe(lambda _c: self._refresh_log(), names="value")
        # one screen (see playlayout): the table with the decision at hand (your hand with it: it decides what you
        # can play) beside it, above it when narrow
        # the coach (issue 19): the 3 best moves of the seat at the screen and its tickets' odds
        from .coachpanel import CoachPanel
        self.coach = CoachPanel(lambda: (self.game.state, self.acting_seat()), on_said=self.message.note)
        strip = widgets.HBox([self.undo_button, self.redo_button, self.bots_button, self.coach.button,
                              self.explain_bots], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.widget = widgets.VBox([
            widgets.HTML(PLAY_CSS), self.banner,
            widgets.HBox([self.status, self.message.widget], layout=widgets.Layout(flex_flow="row wrap")),
            play_area(self.table, [self.handover.widget, self.hand, self.ticket_box, self.options_box,
                                   self.more_options.widget], strip,
                      [self.coach.widget, self.tickets, self.log_widget]),
        ], layout=widgets.Layout(width="100%"))
        self.widget.add_class("ttr-playview")
        self._accessible(CARD_FOCUS_ORDER)
        if self.auto_bots:
            self._run_bots()
        self.refresh()

    # -- who ------------------------------------------------------------------------------------
    def viewer(self) -> int | None:
        """Whose secrets the view shows: a seat; None for everything (a teacher's view, or the game is over);
        ``hotseat.NOBODY`` while a hot seat's hand-over is up."""
        if not self.human_seats or self.game.is_over:
            return None
        if self.handover.active:
            return self.handover.viewer()
        return self.viewing_seat()

    def viewing_seat(self) -> int | None:
        if self.seat_view is not None:
            return self.seat_view
        if not self.human_seats or self.game.is_over:
            return None
        if self.handover.active:
            return None if self.handover.up else self.handover.shown
        acting = [s for s in self.game.to_move() if s in self.human_seats]
        return acting[0] if acting else self.human_seats[0]

    def acting_seat(self) -> int | None:
        if self.handover.up:
            return None
        seats = [s for s in self.game.to_move() if s in self.human_seats]
        if self.handover.active:
            seats = [s for s in seats if s == self.handover.shown]
        return seats[0] if seats else None

    def ready(self) -> int | None:
        """The hand-over's button: the player the hot seat waits for is at the screen. Returns that seat."""
        seat = self.handover.take()
        if seat is None:
            self.message.note("no hand-over is waiting")
            return None
        self.message.note(f"{seat_name(seat)}'s screen")
        self.refresh()
        return seat

    def _sync(self) -> None:
        self.handover.sync(None if self.game.is_over else first_human(self.game.to_move(), self.human_seats),
                           self.game.is_over)

    def on_change(self, callback: Callable) -> None:
        self._listeners.append(callback)

    # -- acting ---------------------------------------------------------------------------------
    def choose_option(self, index: int) -> Ply | None:
        """Play option ``index`` of the buttons (0-based, as listed)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.options):
            self.message.refuse(f"there is no option number {index!r}; choose 0–{len(self.options) - 1}")
            return None
        return self._push(self.options[index])

    def press(self, text: str) -> Ply | None:
        """Play an action text for the acting human seat, e.g. "track", "draw deck", "yard red2+loco1"."""
        seat = self.acting_seat()
        if seat is None:
            self.message.refuse(self.handover.words() if self.handover.up else
                                "nobody in this view can act now — " + rules.turn_status(self.game.state))
            return None
        try:
            action = rules.check(self.game.state, f"{seat_name(seat).lower()}: {text}")[0]
        except TTRError as e:
            self.message.refuse(e)
            return None
        return self._push(action)

    def keep_tickets(self, tickets: Sequence[str] | None = None) -> Ply | None:
        """Keep the ticked tickets (or ``tickets``, by ids or cities) of the acting seat."""
        seat = self.acting_seat()
        if tickets is None:
            tickets = [t for t, box in self._ticket_checks.items() if box.value]
        return self._push(KeepTickets(tickets=tuple(tickets), seat=seat))

    def _push(self, action: Action) -> Ply | None:
        seat = getattr(action, "seat", None)
        if seat is None:
            self.message.refuse(self.handover.words() if self.handover.up else
                                "nobody in this view can act now — " + rules.turn_status(self.game.state))
            return None
        if self.handover.active and seat != self.handover.shown:
            self.message.refuse(self.handover.words() if self.handover.up else
                                f"{seat_name(seat)} is not at the screen")
            return None
        before = self.game.state
        try:
            ply = self.game.push(action)
        except TTRError as e:
            self.message.refuse(e)
            return None
        self._entries.append((ply, None, before))
        self._bot_moves = []
        if self.auto_bots:
            self._run_bots()
        self._sync()
        viewer = self.viewer()
        note = move_words(ply, viewer, before)
        if self._bot_moves:
            note += " · then " + "; ".join(move_words(p, viewer, b) for p, b in self._bot_moves[-3:])
        self.message.note(note)
        self.refresh()
        return ply

    def _run_bots(self, max_plies: int = 5000) -> int:
        played = 0
        while not self.game.is_over and played < max_plies:
            seat = next((s for s in self.game.to_move() if s in self.bots), None)
            if seat is None:
                break
            action, reason = self.bots[seat].choose(self.game.state, seat)
            before = self.game.state
            ply = self.game.push(action)
            self._entries.append((ply, reason, before))
            self._bot_moves.append((ply, before))
            played += 1
        return played

    def bots_play(self) -> int:
        n = self._run_bots()
        self.refresh()
        return n

    def undo(self) -> bool:
        """Take back to the human's previous decision (the bots' replies and the human's last move)."""
        g = self.game
        if not any(p.seat in self.human_seats for p in g.history):
            self.message.note("nothing to undo: no human move has been played yet")
            return False
        while g.ply:
            p = g.undo()
            self._entries = [e for e in self._entries if e[0] is not p]
            if p.seat in self.human_seats:
                break
        self._sync()
        self.message.note(f"Took back: {move_words(p, self.viewer())}")
        self.refresh()
        return True

    def redo(self) -> bool:
        g = self.game
        if g.ply >= len(g.line):
            self.message.note("nothing to redo")
            return False
        before = g.state
        ply = g.redo()
        self._entries.append((ply, None, before))
        if self.auto_bots:
            self._run_bots()
        self.refresh()
        return True

    # -- showing --------------------------------------------------------------------------------
    def log_lines(self) -> list[str]:
        """Newest first, each move once, as the viewing seat may read them (its own secrets only; everything once it
        is over); a bot's reason after its move when ``explain_bots`` is ticked (the teacher's view: always)."""
        viewer = self.viewer()
        explain = self.explain_bots.value or not self.human_seats
        out = []
        for ply, reason, before in self._entries:
            line = self._line(ply, viewer, before)
            why = reason_words(reason, viewer, ply.seat) if explain else ""
            if why:
                line += f" (why: {why})"
            out.append(line)
        return out[::-1]

    def _refresh_log(self) -> None:
        self.log_widget.value = log_html(self.log_lines(), self.log_size, newest_first=True)

    def refresh(self) -> None:
        s = self.game.state
        self._sync()
        self.coach.sync()                      # a hint is for one position and the seat at the screen only
        viewer = self.viewer()
        before = self._entries[-1][2] if self._entries else None
        self._draw(s, viewer, before, rule_ids=not self.human_seats)
        seat = self.acting_seat()
        acts = self.game.legal_actions(seat) if seat is not None else []
        keeps = [a for a in acts if isinstance(a, KeepTickets)]
        self.options = [a for a in acts if not isinstance(a, KeepTickets)]
        best = ""
        if any(isinstance(a, CompleteTicket) for a in self.options):
            by_points = rules.best_completion(s, seat, "points")
            by_count = rules.best_completion(s, seat, "tickets")
            data = rules.load_cards()
            words = lambda ids: ", ".join(f"{data.ticket(t).a}–{data.ticket(t).b}" for t in ids) or "none"  # noqa: E731
            best = (f"<div>Best choices (exact): most points — {esc(words(by_points))}; most tickets — "
                    f"{esc(words(by_count))}{'' if self.human_seats else ' (CG-END-3)'}</div>")
        while len(self._option_buttons) < len(self.options):
            b = widgets.Button(layout=widgets.Layout(width="auto"), button_style="warning")
            b.on_click(lambda _b, i=len(self._option_buttons): self.choose_option(i))
            self._option_buttons.append(b)
        for b, a in zip(self._option_buttons, self.options):
            b.description = second_person(rules.describe(s, a, seat).split(" ", 1)[-1])      # "take face-up card 1"
            b.tooltip = str(a)
        from ..board.actions import DrawDeck, DrawFaceUp, DrawTickets
        shown, listed = split_options([b.description for b in self._option_buttons], self.options,
                                      (DrawDeck, DrawFaceUp, DrawTickets))
        self.options_box.children = tuple(self._option_buttons[i] for i in shown)
        self.more_options.update([(self._option_buttons[i].description, i) for i in listed])
        if keeps:
            p = s.pending_for(seat)
            offered = p.get("offered")
            data = rules.load_cards()
            if set(self._ticket_checks) != set(offered):
                self._ticket_checks = {t: widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"),
                                                           description=view_ticket_words(data, t))
                                       for t in offered}
            keep = widgets.Button(description="keep", button_style="primary")
            keep.on_click(lambda _b: self.keep_tickets())
            need = p.get("min_keep") or 0
            rule = f" ({esc(p.get('rule'))})" if p.get("rule") and not self.human_seats else ""
            self.ticket_box.children = (widgets.HTML(f"<b>{esc(seat_name(seat))}</b>, keep at least {need} of these "
                                                     f"tickets{rule}:"),
                                        widgets.HBox(list(self._ticket_checks.values()),
                                                     layout=widgets.Layout(flex_flow="row wrap")), keep)
        else:
            self._ticket_checks = {}
            self.ticket_box.children = (widgets.HTML(best),) if best else ()
        self._refresh_log()
        self.undo_button.disabled = not any(p.seat in self.human_seats for p in self.game.history)
        self.redo_button.disabled = self.game.ply >= len(self.game.line)
        status = rules.turn_status(s, viewer if viewer is None or viewer >= 0 else None)
        self.access.status(status if not self.human_seats else without_rule_ids(status))
        for cb in list(self._listeners):
            cb(self)

    @property
    def html(self) -> str:
        """Everything textual the view shows now (for tests: nothing hidden may be in it)."""
        return "".join([self.status.value, self.hand.value, self.tickets.value, self.log_widget.value,
                        self.message.widget.value, self.handover.note.value, self.coach.output.value,
                        "".join(b.description for b in self.options_box.children),
                        "".join(self.more_options.labels),
                        "".join(getattr(w, "value", "") for w in self.ticket_box.children),
                        "".join(c.description for c in self._ticket_checks.values())])


class CardTableView(_CardView):
    """The table for the projector: the whole table (teacher) or what one player may see."""

    def __init__(self, game: Game, *, seat: int | None = None, **_ignored):
        self._setup(game)
        n = game.state.n_players
        self.toggle = widgets.ToggleButtons(options=[WHOLE_TABLE] + [seat_name(s) for s in range(n)],
                                            value=WHOLE_TABLE if seat is None else seat_name(seat))
        self.toggle.observe(lambda _c: self.refresh(), names="value")
        self.widget = widgets.VBox([self.banner, self.toggle, self.status, self.message.widget, self.table,
                                    widgets.HBox([self.hand, self.tickets])])
        self._accessible()
        self.refresh()

    @property
    def seat(self) -> int | None:
        v = self.toggle.value
        return None if v == WHOLE_TABLE else self.toggle.options.index(v) - 1

    def select(self, who) -> None:
        label = WHOLE_TABLE if who is None else (seat_name(who) if isinstance(who, int) else str(who).title())
        if label not in self.toggle.options:
            self.message.refuse(f"no view called {who!r}; choose one of {', '.join(self.toggle.options)}")
            return
        if self.toggle.value != label:
            self.toggle.value = label
        else:
            self.refresh()

    def follow(self, view) -> None:
        view.on_change(lambda _v: self.refresh())

    def refresh(self) -> None:
        self._draw(self.game.state, self.seat)

    @property
    def html(self) -> str:
        return "".join([self.status.value, self.hand.value, self.tickets.value])


class CardHistoryView(_CardView):
    """Step through a Card Game move by move (step 1 of each turn is its own move); ``seat``: whose view."""

    def __init__(self, game: Game, *, ply: int | None = None, seat: int | None = None, **_ignored):
        self._setup(game)
        self.seat = seat
        top = len(game.line)
        self.slider = widgets.IntSlider(value=0, min=0, max=top, description="move", continuous_update=False,
                                        layout=widgets.Layout(width="60%"))
        self.prev_button = widgets.Button(description="◀", layout=widgets.Layout(width="44px"))
        self.next_button = widgets.Button(description="▶", layout=widgets.Layout(width="44px"))
        self.prev_button.on_click(lambda _b: self.step(-1))
        self.next_button.on_click(lambda _b: self.step(1))
        self.prev_button.add_class("ttr-prev")
        self.next_button.add_class("ttr-next")
        self.ply_info = widgets.HTML()
        self.slider.observe(lambda c: self.show(c["new"]), names="value")
        # after the game: the coach's review of a seat's moves (a seat's view: that seat's), each with its position
        from .coachpanel import ReviewPanel
        self.review = ReviewPanel(game, seat, on_show=self.show)
        self.widget = widgets.VBox([self.banner, widgets.HBox([self.prev_button, self.slider, self.next_button]),
                                    self.status, self.ply_info, self.table, widgets.HBox([self.hand, self.tickets]),
                                    self.review.widget])
        self._accessible()
        from .history import HISTORY_LABELS
        self.access.labels = [list(x) for x in HISTORY_LABELS]
        self.show(game.ply if ply is None else ply)

    def show(self, ply: int):
        g = self.game
        ply = max(0, min(int(ply), len(g.line)))
        if self.slider.value != ply:
            self.slider.value = ply            # the observer shows it
            return g.state_at(ply)
        s = g.state_at(ply)
        before = g.state_at(ply - 1) if ply else None
        self._draw(s, self.seat, before)
        self.ply_info.value = (f"<b>{esc(self._line(g.line[ply - 1], self.seat))}</b>" if ply
                               else "<b>0.</b> the start")
        self.prev_button.disabled = ply <= 0
        self.next_button.disabled = ply >= len(g.line)
        self.shown_ply = ply
        self.access.say(f"Move {ply} of {len(g.line)}: " + (self._line(g.line[ply - 1], self.seat) if ply else "the start"))
        return s

    def step(self, delta: int):
        return self.show(self.shown_ply + delta)


PILES = ("hand", "rail yard", "on the track")


class CardEditorView(_CardView):
    """Set up a Card Game position and see what the rules say about it, checked live by ``validate``: set how many
    cards of a kind lie in a seat's hand, rail yard (with locomotives on top) or on-the-track pile, give a seat its
    tickets, choose whose turn it is — or edit the whole position as JSON. Cards put somewhere come from the bottom of
    the deck and cards taken away go back under it, tickets likewise with the ticket deck, so every card of the game
    stays accounted for. A valid position plays on in a ``CardPlayView``. Refused input says why and changes
    nothing."""

    def __init__(self, game, **_ignored):
        from ..board.cards import COLOURS, LOCOMOTIVE
        if not isinstance(game, Game):
            game = Game(start=game)
        self._setup(game)
        self.state = game.state
        self.problems: list[str] = []
        self.validity = widgets.HTML()
        seats = [(seat_name(i), i) for i in range(self.state.n_players)]
        small = widgets.Layout(width="auto")
        self.seat_pick = widgets.Dropdown(options=seats, value=0, description="seat", layout=small)
        self.pile_pick = widgets.Dropdown(options=PILES, value="hand", description="pile", layout=small)
        self.card_pick = widgets.Dropdown(options=list(COLOURS) + [LOCOMOTIVE], value=COLOURS[0], description="card",
                                          layout=small)
        self.count_box = widgets.BoundedIntText(value=0, min=0, max=99, description="cards",
                                                layout=widgets.Layout(width="150px"))
        self.locos_box = widgets.BoundedIntText(value=0, min=0, max=99, description="+ locos",
                                                layout=widgets.Layout(width="150px"),
                                                tooltip="locomotives on top of a rail-yard stack")
        set_button = widgets.Button(description="set", button_style="primary")
        set_button.on_click(lambda _b: self._from_widgets())
        self.pile_pick.observe(lambda _c: self._show_seat(), names="value")
        self.seat_pick.observe(lambda _c: self._show_seat(), names="value")
        self.card_pick.observe(lambda _c: self._show_seat(), names="value")
        self.ticket_text = widgets.Text(description="tickets", placeholder="Chicago–Miami, Dallas–Seattle",
                                        layout=widgets.Layout(width="60%"))
        ticket_button = widgets.Button(description="give these tickets")
        ticket_button.on_click(lambda _b: self.set_tickets(self.seat_pick.value, self._ticket_refs()))
        turn_button = widgets.Button(description="this seat plays next")
        turn_button.on_click(lambda _b: self.set_current(self.seat_pick.value))
        self.json_text = widgets.Textarea(layout=widgets.Layout(width="100%", height="14em"))
        imp = widgets.Button(description="import")
        imp.on_click(lambda _b: self.import_json())
        self.play_button = widgets.Button(description="play from here", button_style="success")
        self.play_button.on_click(lambda _b: self.play_from_here())
        self.result_box = widgets.VBox()
        edits = widgets.VBox([
            widgets.HBox([self.seat_pick, self.pile_pick, self.card_pick, self.count_box, self.locos_box, set_button],
                         layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.ticket_text, ticket_button, turn_button], layout=widgets.Layout(flex_flow="row wrap"))])
        json_box = widgets.Accordion(children=[widgets.VBox([self.json_text, imp])])
        json_box.set_title(0, "the position as JSON (export, change, import)")
        json_box.selected_index = None
        self.widget = widgets.VBox([self.banner, self.status, self.validity, self.message.widget, self.table,
                                    widgets.HBox([self.hand, self.tickets]), edits, json_box,
                                    widgets.HBox([self.play_button]), self.result_box])
        self._accessible()
        self._after_edit()

    # -- the edits ------------------------------------------------------------------------------------------
    def set_pile(self, seat: int, pile: str, card: str, count: int, locomotives: int = 0) -> bool:
        """Make ``seat``'s ``pile`` ("hand", "rail yard" or "on the track") hold ``count`` cards of ``card``; in a
        rail yard, ``card`` is the stack's colour and ``locomotives`` lie on top of it (CG-YARD-2)."""
        from ..board.cards import CARD_ALIASES, CARD_NAMES, LOCO
        try:
            seat = self._seat(seat)
            if pile not in PILES:
                raise TTRError(f"there is no pile {pile!r}: choose {', '.join(PILES)}")
            kind = CARD_ALIASES.get(str(card).strip().lower())
            if kind is None or kind > LOCO:
                raise TTRError(f"{card!r} is not a card of the Card Game")
            for what, n in (("cards", count), ("locomotives", locomotives)):
                if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 99:
                    raise TTRError(f"{n!r} is not a number of {what} (0 to 99)")
            if pile == "rail yard" and kind == LOCO:
                raise TTRError("locomotives lie on top of a colour's stack, never alone (CG-YARD-2): choose the "
                               "colour and give the locomotives as '+ locos'")
            if pile != "rail yard" and locomotives:
                raise TTRError("only a rail-yard stack has locomotives on top; count locomotives as their own card")
            p = self.state.players[seat]
            deck = list(self.state.deck)
            if pile == "rail yard":
                self._move(deck, kind, count - p.yard[kind])
                self._move(deck, LOCO, locomotives - p.yard_locos[kind])
                changes = {"yard": _put(p.yard, kind, count), "yard_locos": _put(p.yard_locos, kind, locomotives)}
                said = f"{count} {CARD_NAMES[kind]}" + (f" + {locomotives} locomotives" if locomotives else "")
            else:
                field = "hand" if pile == "hand" else "track"
                self._move(deck, kind, count - getattr(p, field)[kind])
                changes = {field: _put(getattr(p, field), kind, count)}
                said = f"{count} {CARD_NAMES[kind]}"
        except TTRError as e:
            self.message.refuse(f"{e}; nothing changed")
            return False
        from dataclasses import replace
        players = list(self.state.players)
        players[seat] = replace(p, **changes)
        self.state = replace(self.state, players=tuple(players), deck=tuple(deck))
        self.message.ok(f"{seat_name(seat)}'s {pile}: {said}")
        self._after_edit()
        return True

    def set_tickets(self, seat: int, tickets: Sequence[str]) -> bool:
        """Give ``seat`` exactly these open tickets (cities or ids): new ones come out of the ticket deck, the ones
        taken away go under it. A ticket another seat holds or has completed is refused."""
        from dataclasses import replace
        data = rules.load_cards()
        try:
            seat = self._seat(seat)
            ids = []
            for ref in tickets:
                tid = data.find_ticket(ref).id
                if tid in ids:
                    raise TTRError(f"{ref} is named twice")
                for other, q in enumerate(self.state.players):
                    if (other != seat and tid in q.tickets) or tid in q.completed:
                        raise TTRError(f"{ref}: {seat_name(other)} has it already")
                if tid not in self.state.ticket_deck and tid not in self.state.players[seat].tickets:
                    raise TTRError(f"{ref} is not in the ticket deck")
                ids.append(tid)
        except TTRError as e:
            self.message.refuse(f"{e}; nothing changed")
            return False
        old = self.state.players[seat].tickets
        deck = [t for t in self.state.ticket_deck if t not in ids] + [t for t in old if t not in ids]
        players = list(self.state.players)
        players[seat] = replace(players[seat], tickets=tuple(ids))
        self.state = replace(self.state, players=tuple(players), ticket_deck=tuple(deck))
        self.message.ok(f"{seat_name(seat)}'s tickets: {ticket_words(data, ids) or 'none'}")
        self._after_edit()
        return True

    def set_current(self, seat: int) -> bool:
        """Make it ``seat``'s turn (in play; step 1 is owed when its rail yard holds cards, CG-TURN-1)."""
        from dataclasses import replace
        from ..board.state import Pending
        try:
            seat = self._seat(seat)
            if self.state.phase not in ("play", "last_round"):
                raise TTRError(f"whose turn it is can be chosen during play, not in the {self.state.phase} phase")
        except TTRError as e:
            self.message.refuse(f"{e}; nothing changed")
            return False
        step1 = (Pending("to_track", seat, (("rule", "CG-TURN-1"),)),) if any(self.state.players[seat].yard) else ()
        self.state = replace(self.state, current=seat, pending=step1)
        first = " (step 1 first: the rail yard holds cards)" if step1 else ""
        self.message.ok(f"{seat_name(seat)} plays next{first}")
        self._after_edit()
        return True

    def _seat(self, seat) -> int:
        return checked_seat(self.state, seat)

    @staticmethod
    def _move(deck: list[int], kind: int, delta: int) -> None:
        """Take ``delta`` cards of ``kind`` from the bottom of ``deck`` (or put ``-delta`` back under it); all
        or nothing."""
        from ..board.cards import CARD_NAMES
        if delta <= 0:
            deck.extend([kind] * -delta)
        elif deck.count(kind) < delta:
            raise TTRError(f"the deck holds only {deck.count(kind)} {CARD_NAMES[kind]} cards, {delta} are needed "
                           f"(take them from another pile first)")
        else:
            deck_take(deck, kind, delta)

    def _from_widgets(self) -> None:
        self.set_pile(self.seat_pick.value, self.pile_pick.value, self.card_pick.value, self.count_box.value,
                      self.locos_box.value if self.pile_pick.value == "rail yard" else 0)

    def _ticket_refs(self) -> list[str]:
        return [t.strip() for t in self.ticket_text.value.split(",") if t.strip()]

    def _show_seat(self) -> None:
        """The boxes show what the chosen seat and pile hold now (so 'set' changes only what you change)."""
        from ..board.cards import CARD_ALIASES, LOCO
        p = self.state.players[self.seat_pick.value]
        data = rules.load_cards()
        self.ticket_text.value = ", ".join(ticket_text(data, t) for t in p.tickets)      # each one unambiguous
        kind = CARD_ALIASES[self.card_pick.value]
        yard = self.pile_pick.value == "rail yard"
        self.locos_box.disabled = not yard
        if yard:
            self.count_box.value = p.yard[kind] if kind < LOCO else 0
            self.locos_box.value = p.yard_locos[kind] if kind < LOCO else 0
        else:
            self.count_box.value = (p.hand if self.pile_pick.value == "hand" else p.track)[kind]
            self.locos_box.value = 0

    def _after_edit(self) -> None:
        import json
        self.problems = rules.validate(self.state)
        self.validity.value = ("<b style='color:#17692e'>This is a valid position</b>" if not self.problems else
                               "<b style='color:#b00020'>Problems:</b><ul>" + "".join(f"<li>{esc(p)}</li>" for p in self.problems)
                               + "</ul>")
        self.play_button.disabled = bool(self.problems)
        exported = json.dumps(self.state.to_dict(), indent=1)
        if self.json_text.value in ("", getattr(self, "_exported", "")):
            self.json_text.value = exported       # JSON typed in the box and not imported yet is never overwritten
        elif exported != self._exported and not self.message.is_error:
            self.message.ok(f"{self.message.text} — the JSON box keeps the text you typed, not imported: import it, "
                            "or clear the box to see this position's JSON")
        self._exported = exported
        self._show_seat()
        self._draw(self.state, None)
        # the editor is the teacher's: every hand and on-the-track pile, by name
        self.hand.value = "".join(_hand_html(self.state, i, label=f"{seat_name(i)}'s hand", teacher=True)
                                  for i in range(self.state.n_players))

    @property
    def is_valid(self) -> bool:
        return not self.problems

    def import_json(self, text: str | None = None) -> bool:
        from ..game import read_json
        text = self.json_text.value if text is None else text
        try:                            # as strict as a save file: no key twice, bounded nesting and numbers
            state = rules.state_from_dict(read_json(text, "import", noun="position"))
        except TTRError as e:
            self.message.refuse(f"{e}; nothing changed")
            return False
        except (ValueError, TypeError, KeyError) as e:
            self.message.refuse(f"import: {e}; nothing changed")
            return False
        if (state.variant, state.n_players) != (self.state.variant, self.state.n_players):
            self.message.refuse(f"import: this editor edits a {self.state.n_players}-player Card Game; nothing changed")
            return False
        self.state = state
        self.message.ok("imported the position")
        self.json_text.value = ""             # imported: the box shows the position's own JSON again
        self._after_edit()
        return True

    def play_from_here(self):
        if self.problems:
            self.message.refuse("cannot play from an invalid position: " + "; ".join(self.problems))
            return None
        game = Game(start=self.state)
        self.result_box.children = (CardPlayView(game).widget,)
        return game


def _put(counts: tuple[int, ...], kind: int, n: int) -> tuple[int, ...]:
    return counts[:kind] + (n,) + counts[kind + 1:]


# the names the board views look up for a game that names this module (``views``)
PlayView = CardPlayView
TableView = CardTableView
HistoryView = CardHistoryView
EditorView = CardEditorView

__all__ = ["CardPlayView", "CardTableView", "CardHistoryView", "CardEditorView"]
