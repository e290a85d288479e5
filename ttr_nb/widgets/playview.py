"""``PlayView``: walk through a turn — click a route, pick a payment, draw cards, keep tickets, bots reply.

Every handler goes through the engine: a widget event becomes an action, the action is pushed on the ``Game``
(``game.push``), and the views are refreshed in place (the board ``FigureWidget`` through ``update_board``,
labels and HTML by value). A refusal is shown in the message area as the ``IllegalAction``'s text, which names
the rule (e.g. "a face-up locomotive may not be taken as the second card (USA-DRAW-4)"); the game is unchanged.

The handlers are public so tests and notebooks can drive the view without a browser::

    view = PlayView(Game("usa", players=3, seed=1))
    view.set_ticket_checks(0, view.offered(0)[:2]); view.keep_tickets(0)
    view.click_route("R039"); view.choose_payment(0)
    view.press("draw deck"); view.press("draw faceup 2")
    view.click_city("Wien"); view.choose_payment(0)        # Europe: a station
    view.choose_option(0)                                   # Europe: answer a pending tunnel step
    view.undo(); view.redo()
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import ipywidgets as widgets

from ..board.actions import (Action, Claim, DrawDeck, DrawFaceUp, DrawTickets, KeepTickets, Pass, parse_action,
                       payment_words)
from ..board.cards import CARD_NAMES, COLOURS, GRAY, LOCO
from ..board.engine import (claimable_routes, describe, explain, legal_actions, route_payments, seat_name, to_move,
                      turn_status)
from ..errors import TTRError
from ..game import Game, Ply
from ..board.state import GameState
from ..variants import get_variant, step_words
from ..render import panels
from ..render.palette import ink_on
from ._common import own_view, BoardWidget, MessageArea, esc, log_html, provisional_banner, status_html, ticket_words
from ._panels import ScorePanel
from .access import Access, accessible
from .hotseat import NOBODY, HandOver, first_human
from .keyboard import ClaimChooser
from .playlayout import PLAY_CSS, play_area
from .words import move_words, reason_words, second_person, without_rule_ids

#: where the keyboard focus goes when the control that had it goes away (first that can take it)
PLAY_FOCUS_ORDER = (".ttr-tickets input", ".ttr-payments button", ".ttr-options button", ".ttr-chooser select",
                    ".ttr-draws button")

#: turn actions the view offers by its own buttons or by a click on the board (the rest show as option buttons)
_OFFERED_ELSEWHERE = (Claim, DrawDeck, DrawFaceUp, DrawTickets, Pass)
_LOCO_HEX = "#6b5b95"


def _button_word(kind: int) -> str:
    return CARD_NAMES[kind] if kind <= LOCO else panels.CARD_WORD[kind]      # "locomotive", "+4 loco", ...


def _card_hex(kind: int | None) -> str:
    from ..render.board import CARD_HEX
    from ..render.panels import CARD_FILL
    if kind is None:
        return "#dddddd"
    if kind == LOCO:
        return _LOCO_HEX
    return CARD_HEX.get(CARD_NAMES[kind], CARD_FILL[kind])


class PlayView:
    """Play a game against bots (or hot-seat): see the module ``ttr_nb.widgets.playview`` for the handlers.

    ``human_seats``: seats played through this view. ``bots``: ``{seat: bot}``; ``None`` gives every other seat a
    greedy bot; a seat with neither is played through the view too (hot seat). ``seat_view``: whose hand and
    tickets the panels show; ``None`` follows the human seat to act. ``auto_bots``: after each human action the
    bots play until a human seat is to act (otherwise press "bots play"). ``hand_over``: with two or more human
    seats and no ``seat_view`` (a hot seat), the screen shows one player's secrets at a time, with a hand-over
    between players (``ready()`` is its button; see ``hotseat``); False shows the acting seat's cards without one
    (a teacher playing every seat in front of the class).
    """
    def __new__(cls, game=None, *args, **kwargs):
        own = own_view("PlayView", game) if cls is PlayView else None
        if own is not None:                 # a game with its own views (the Card Game) is shown by them
            return own(game, *args, **kwargs)
        return super().__new__(cls)


    def __init__(self, game: Game, human_seats: Sequence[int] = (0,), bots: Mapping[int, Any] | Any | None = None,
                 seat_view: int | None = None, *, auto_bots: bool = True, board_height: int | None = None,
                 log_lines: int = 14, hand_over: bool | None = None):
        self.handover = HandOver(self.ready)
        self._bind(game, human_seats, bots, seat_view, auto_bots, log_lines, hand_over)
        self._build(board_height)
        if self.auto_bots:
            self._run_bots()
        self.refresh()

    def use_game(self, game: Game) -> None:
        """Show and play ``game`` in this view instead (same game and player count, e.g. another branch of the
        same game): the widgets stay, everything about the old game (log, selection, bots) is replaced, as if the
        view had been built for ``game``. "branch here" uses it to open a branch in a view built in advance."""
        if not isinstance(game, Game):
            raise TypeError(f"PlayView needs a ttr_nb.Game, got {type(game).__name__}")
        if (game.state.variant, game.state.n_players) != (self.game.state.variant, self.game.state.n_players):
            raise TTRError(f"this view shows a {self.game.state.n_players}-player {self.game.state.variant} game; "
                           f"it cannot take a {game.state.n_players}-player {game.state.variant} game")
        self._bind(game, *self._bind_args)
        self._ticket_panels = {}
        self.tickets_box.children = ()
        self.message.clear()
        if self.auto_bots:
            self._run_bots()
        self.refresh()
        self.board.view.sync()          # a view not yet on the page draws this game at once

    def _bind(self, game: Game, human_seats, bots, seat_view, auto_bots: bool, log_lines: int,
              hand_over: bool | None) -> None:
        """Check the arguments and set up everything that belongs to the game shown (not to the widgets)."""
        if not isinstance(game, Game):
            raise TypeError(f"PlayView needs a ttr_nb.Game, got {type(game).__name__}")
        if hand_over is not None and not isinstance(hand_over, bool):
            raise TTRError(f"hand_over must be True, False or None, got {hand_over!r}")
        self._bind_args = (human_seats, bots, seat_view, auto_bots, log_lines, hand_over)
        self.game = game
        n = game.state.n_players
        humans = set()
        for s in human_seats:
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
                raise TTRError(f"human seat {s!r} is not a seat of this {n}-player game (0..{n - 1})")
            humans.add(s)
        if bots is None:
            from ..bots import make_bot
            bots = {s: make_bot("greedy", seed=s) for s in range(n) if s not in humans}
        elif not isinstance(bots, Mapping):
            bots = {s: bots for s in range(n) if s not in humans}
        for s in bots:
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
                raise TTRError(f"bot seat {s!r} is not a seat of this {n}-player game (0..{n - 1})")
        self.bots: dict[int, Any] = {s: b for s, b in bots.items() if s not in humans}
        # a seat nobody else plays is played through the view (hot seat)
        self.human_seats: tuple[int, ...] = tuple(s for s in range(n) if s not in self.bots)
        if seat_view is not None and not (isinstance(seat_view, int) and 0 <= seat_view < n):
            raise TTRError(f"seat_view {seat_view!r} is not a seat of this {n}-player game")
        self.seat_view = seat_view
        # a hot seat: one player's secrets at a time, a hand-over between players
        self.handover.reset(bool(hand_over if hand_over is not None else True)
                            and len(self.human_seats) >= 2 and seat_view is None)
        self.auto_bots = auto_bots
        self.log_size = log_lines
        self.variant = get_variant(game.state.variant)
        self.map = self.variant.map
        # pending kinds that are a ticket choice (tick, then keep), with the action that keeps: the base game's,
        # and a variant's own (South Korea's draft keep)
        self._keep_actions: dict[str, type] = {"choose_tickets": KeepTickets}
        for f in self.variant.features:
            self._keep_actions.update(getattr(f, "ticket_choices", {}))
        self._booster = next((f for f in self.variant.features if hasattr(f, "boost")), None)
        # a variant whose ticket draw is a choice (Märklin: a mix of two decks), offered after "draw tickets"
        self._ticket_draw = next((f for f in self.variant.features
                                  if hasattr(f, "ticket_draw_words") and hasattr(f, "handles")), None)
        self._mix_open = False
        self._private = next((f for f in self.variant.features if hasattr(f, "private_words")), None)
        self.selected_route: str | None = None
        self.selected_city: str | None = None
        self.payments: list[Action] = []           # legal actions for the selected route (or city)
        self.log: list[str] = []                   # the teacher's log (everything), oldest first
        self._entries: list[tuple] = []            # (ply or None, bot reason, state before, note) for the views
        self.last_reasons: list[str] = []          # the bots' one-line reasons since the last human action
        self._bot_moves: list[tuple[Ply, Any]] = []  # the bots' moves since the last human action (for the note)
        self._listeners: list[Callable[["PlayView"], None]] = []
        self._viewing: int | None = None

    def _build(self, board_height: int | None) -> None:
        n = self.game.state.n_players
        self.banner = widgets.HTML(PLAY_CSS + provisional_banner(self.map))
        self.status = widgets.HTML()
        self.status.add_class("ttr-status")
        self.message = MessageArea()
        # never taller than the notebook's visible height less what goes with it (see playlayout)
        self.board = BoardWidget(self.map, n_players=n, on_click=self.click_route, on_city=self.click_city,
                                 height=board_height)
        self.step_options: list[Action] = []       # answers to a variant's pending step (tunnel ...) or "pass"
        self._option_buttons: list[widgets.Button] = []
        self.step_info = widgets.HTML()
        self.options_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.route_info = widgets.HTML()
        self._claim_groups: dict[str, list[Action]] = {}
        self._syncing_extra = False
        self.extra_toggle = widgets.ToggleButtons(options=[], layout=widgets.Layout(display="none", width="auto"),
                                                  style={"button_width": "auto"})
        self.extra_toggle.observe(self._extra_changed, names="value")
        self._pay_buttons: list[widgets.Button] = []
        self.payments_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.deck_button = widgets.Button(description="draw deck", layout=widgets.Layout(width="auto"))
        self.deck_button.on_click(lambda _b: self.draw_deck())
        self.faceup_buttons: list[widgets.Button] = []
        for i in range(self.variant.settings.market_size):
            # a border: a white card's button is not lost on the white page
            b = widgets.Button(description="-", layout=widgets.Layout(width="auto", min_width="74px",
                                                                      border="1px solid #444444"))
            b.on_click(lambda _b, slot=i + 1: self.draw_faceup(slot))
            self.faceup_buttons.append(b)
        self.tickets_button = widgets.Button(description="draw tickets", layout=widgets.Layout(width="auto"))
        self.tickets_button.on_click(lambda _b: self.draw_tickets())
        self.boost_toggle = widgets.ToggleButtons(
            options=[("no express card", 0)], value=0, style={"button_width": "auto"},
            tooltips=["draw as usual"],
            layout=widgets.Layout(width="auto", display="" if self._booster is not None else "none"))
        self.boost_toggle.observe(lambda _c: self._refresh_buttons(self.game.state), names="value")
        self.draw_row = widgets.HBox([self.boost_toggle, self.deck_button, *self.faceup_buttons, self.tickets_button],
                                     layout=widgets.Layout(flex_flow="row wrap"))
        self._ticket_panels: dict[int, dict] = {}
        self.tickets_box = widgets.VBox()
        self.undo_button = widgets.Button(description="Undo", tooltip="take back to your previous decision",
                                          layout=widgets.Layout(width="auto"))
        self.undo_button.on_click(lambda _b: self.undo())
        self.redo_button = widgets.Button(description="Redo", tooltip="replay what was taken back",
                                          layout=widgets.Layout(width="auto"))
        self.redo_button.on_click(lambda _b: self.redo())
        self.bots_button = widgets.Button(description="bots play until my turn", layout=widgets.Layout(width="auto"))
        self.bots_button.on_click(lambda _b: self.bots_play())
        self._hinter = next((f for f in self.variant.features if hasattr(f, "hint")), None)
        self.hint_button = widgets.Button(description=getattr(self._hinter, "hint_label", "hint"),
                                          tooltip="the best move of this kind now, worked out exactly",
                                          layout=widgets.Layout(width="auto",
                                                                display="" if self._hinter else "none"))
        self.hint_button.on_click(lambda _b: self.hint())
        self._hint_trail: tuple[str, ...] = ()
        # the coach (issue 19): the 3 best moves of the seat at the screen, its tickets' odds, the best claim drawn
        from .coachpanel import CoachPanel
        self.coach = CoachPanel(lambda: (self.game.state, self._acting_seat()), on_route=self._coach_route,
                                on_said=self.message.note)
        self.show_claimable = widgets.Checkbox(value=False, description="show routes I can claim", indent=False,
                                               layout=widgets.Layout(width="auto"))
        self.show_claimable.observe(lambda _c: self.refresh(), names="value")
        self.explain_bots = widgets.Checkbox(value=False, description="explain the bots' moves", indent=False,
                                             layout=widgets.Layout(width="auto"),
                                             tooltip="after each bot move in the log, why the bot chose it")
        self.explain_bots.observe(lambda _c: self._refresh_log(), names="value")
        self.hand = widgets.HTML()
        self.players = widgets.HTML()
        self.my_tickets = widgets.HTML()
        self.score = ScorePanel()
        self.log_widget = widgets.HTML()
        from .feature_panels import panels_for
        self.feature_panels = panels_for(self.variant, self.game.state)     # South Korea: the province board
        # One screen: the board with the decision at hand; the hand, the draws and the controls in a strip; the
        # players, your tickets and the log (see playlayout: beside the board, or above and under it when narrow)
        # the keyboard's way to the board: a list of what can be claimed, right before the payments it opens
        self.chooser = ClaimChooser(self.click_route, self.click_city)
        self.tickets_box.add_class("ttr-tickets")
        self.payments_box.add_class("ttr-payments")
        self.options_box.add_class("ttr-options")
        self.draw_row.add_class("ttr-draws")
        controls = widgets.HBox([self.undo_button, self.redo_button, self.bots_button, self.hint_button,
                                 self.coach.button, self.show_claimable, self.explain_bots], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        # the draws first: they are the decision at hand on a turn (the hand after them, then the controls)
        strip = widgets.HBox([self.draw_row, self.hand, controls],
                             layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        view = self.board.view
        self._main = play_area(view, [self.handover.widget, self.tickets_box, self.chooser.widget, self.route_info,
                                      self.extra_toggle, self.payments_box, self.step_info, self.options_box],
                               strip, [self.coach.widget, self.players, self.my_tickets, self.log_widget],
                               tall=self.board.tall)
        self.widget = widgets.VBox([
            self.banner,
            widgets.HBox([self.status, self.message.widget], layout=widgets.Layout(flex_flow="row wrap")),
            self._main,
            *[p.widget for p in self.feature_panels],
            self.score.widget,
        ], layout=widgets.Layout(width="100%"))
        self.widget.add_class("ttr-playview")
        view.add_class("ttr-board")
        # screen readers and keyboards: a live region, and focus kept in the view when a control goes away
        self.access = accessible(self.widget, Access(focus_order=PLAY_FOCUS_ORDER)).children[-1]
        self.access.follow(self.message)

    # ------------------------------------------------------------------------------------------------ display
    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget)

    def on_change(self, callback: Callable[["PlayView"], None]) -> None:
        """Call ``callback(view)`` after every refresh (e.g. ``view.on_change(lambda v: table.refresh())``)."""
        self._listeners.append(callback)

    # ------------------------------------------------------------------------------------------------ who acts
    @property
    def state(self) -> GameState:
        return self.game.state

    def turn_seat(self) -> int | None:
        """The human seat whose turn it is (play / final round), or None (a bot's turn, setup, game over)."""
        s = self.game.state
        if s.phase not in ("play", "last_round") or s.current not in self.human_seats:
            return None
        return s.current

    def choosing_seats(self) -> list[int]:
        """Human seats that owe a ticket choice now (several at once during setup)."""
        s = self.game.state
        return [p.seat for p in s.pending if p.kind in self._keep_actions and p.seat in self.human_seats]

    def ready(self) -> int | None:
        """The hand-over's button: the player the hot seat waits for is at the screen; show their cards, tickets
        and decision. Returns that seat (None: no hand-over was waiting)."""
        seat = self.handover.take()
        if seat is None:
            self.message.note("no hand-over is waiting: " + self._waiting_text(self.game.state))
            return None
        self.message.note(f"{seat_name(seat)}'s screen: {self._your_move_words(seat)}")
        self.refresh()
        return seat

    def _your_move_words(self, seat: int) -> str:
        s = self.game.state
        p = s.pending_for(seat) if s.pending else None
        if p is not None and p.kind in self._keep_actions:
            return "choose which tickets to keep"
        if p is not None:
            return step_words(self.variant, p.kind)
        return "your turn" if s.current == seat and s.phase in ("play", "last_round") else "waiting"

    def viewer(self) -> int | None:
        """Whose secrets the view shows: a seat; ``None`` for everything (a teacher's view, or the game is over);
        ``hotseat.NOBODY`` while a hot seat's hand-over is up (only what every player may see)."""
        if self.game.state.phase == "over" or not self.human_seats:
            return None
        if self.handover.active:
            return self.handover.viewer()
        return self.viewing_seat()

    def viewing_seat(self) -> int | None:
        """Whose hand and tickets the panels show (None: nobody's, e.g. while a hot seat's hand-over is up)."""
        if self.seat_view is not None:
            return self.seat_view
        if self.handover.active:
            return self.handover.shown if not self.handover.up else None
        seat = self.turn_seat()
        if seat is None:
            choosing = self.choosing_seats()
            seat = choosing[0] if choosing else None
        if seat is None:
            seat = self._viewing if self._viewing is not None else (self.human_seats[0] if self.human_seats else None)
        self._viewing = seat
        return seat

    def acting_seat(self) -> int | None:
        """The human seat that may act in this view now (None: nobody, e.g. while a hot seat's hand-over is up)."""
        return self._acting_seat()

    def _acting_seat(self) -> int | None:
        if self.handover.up:                  # nobody acts before the player waited for is at the screen
            return None
        seat = self.turn_seat()
        if seat is None:
            seat = self.viewing_seat()
        return seat

    def _wanted_seat(self) -> int | None:
        """The human seat that is to act now (the first, when several choose at once)."""
        s = self.game.state
        return None if s.phase == "over" else first_human(to_move(s), self.human_seats)

    def offered(self, seat: int) -> tuple[str, ...]:
        """The tickets offered to ``seat`` now (empty if it owes no ticket choice)."""
        p = self.game.state.pending_for(seat)
        return tuple(p.get("offered")) if p is not None and p.kind in self._keep_actions else ()

    # ------------------------------------------------------------------------------------------------ handlers
    def click_route(self, route_id: str) -> list[Claim]:
        """Select a route: its legal payments appear as buttons; if it cannot be claimed, say why (rule id).
        Returns the legal claims (empty when refused)."""
        s = self.game.state
        try:
            route = self.map.route(route_id)
        except TTRError as e:
            self.message.refuse(e)
            return []
        seat = self._acting_seat()
        if self._mix_open:                    # changing one's mind: the ticket choice closes
            self._mix_open = False
            self._refresh_step(s)
        self.selected_route = route.id
        self.selected_city = None
        if seat is None:
            self.payments = []
            self._refuse_nobody(Claim(route=route.id, payment=((LOCO, route.length),)), f"{route.a}–{route.b}: ")
            self._refresh_selection()
            return []
        hand = s.players[seat].hand
        claims = [Claim(route=route.id, payment=p, seat=seat) for p in route_payments(self.variant, route, hand)]
        legal = [c for c in claims if explain(s, c) is None]
        # a variant's richer claims of this route (South Korea: a train on the province board too), grouped by what
        # they add; the chooser above the payments picks the group
        groups: dict[str, list[Action]] = {"": legal} if legal else {}
        for a in legal_actions(s, seat):
            words = getattr(a, "extra_words", None)
            if words is not None and self._route_id(a.route) == route.id:
                groups.setdefault(words(self.variant, s), []).append(a)
        self._claim_groups = groups
        self._set_extra_options()
        legal = self.payments
        if legal:
            self.message.note(f"{route.a}–{route.b} ({route.length}, {route.colour}): choose how to pay")
        else:
            err = explain(s, claims[0] if claims else self._representative_claim(route, seat, hand))
            self.message.refuse(err if err is not None else f"{route.a}–{route.b} cannot be claimed now")
        self._refresh_selection()
        return legal

    def _route_id(self, ref: str) -> str | None:
        try:
            return self.map.route(ref).id
        except TTRError:
            return None

    def _set_extra_options(self) -> None:
        """The chooser of what a claim adds (shown only when there is a choice) and the payments of its group."""
        groups = self._claim_groups
        options = [("plain claim" if k == "" else k, k) for k in groups]
        self._syncing_extra = True
        try:
            self.extra_toggle.options = options
            if options:
                keep = self.extra_toggle.value if self.extra_toggle.value in groups else options[0][1]
                self.extra_toggle.value = keep
        finally:
            self._syncing_extra = False
        self.extra_toggle.layout.display = "" if len(options) > 1 else "none"
        self.payments = list(groups.get(self.extra_toggle.value, [])) if options else []

    def choose_extra(self, extra: str) -> list[Action]:
        """Pick what the selected route's claim adds ("" = a plain claim; South Korea: "province white +1
        express"); the payment buttons follow. Returns the payments now offered."""
        if extra not in self._claim_groups:
            self.message.refuse(f"{extra!r} is not offered for this route; choose one of: "
                                + ", ".join(repr(k) for k in self._claim_groups))
            return []
        self.extra_toggle.value = extra
        return self.payments

    def _extra_changed(self, change) -> None:
        if not self._syncing_extra:
            self.payments = list(self._claim_groups.get(change["new"], []))
            self._refresh_selection()

    def click_city(self, city: str) -> list[Action]:
        """Select a city: the variant's legal actions there (e.g. Europe's stations, one per payment) appear as
        buttons; if there are none, say why. Returns the legal actions (empty when there are none)."""
        s = self.game.state
        try:
            name = self.map.city(city).name
        except TTRError as e:
            self.message.refuse(e)
            return []
        seat = self._acting_seat()
        self.selected_route = None
        self.selected_city = name
        if seat is None:
            self.payments = []
            self.message.refuse(f"{name}: " + (self.handover.words() if self.handover.up else
                                               f"nobody in this view can act now — {self._waiting_text(s)}"))
            self._refresh_selection()
            return []
        acts = [a for a in legal_actions(s, seat) if getattr(a, a.city_field, None) == name if a.city_field]
        self.payments = acts
        if acts:
            self.message.note(f"{name}: choose one")
        else:
            err = self._city_refusal(s, seat, name)
            if err is not None:
                self.message.refuse(err)
            else:
                self.message.note(f"{name}: nothing to do in a city in {self.variant.name}")
        self._refresh_selection()
        return acts

    def choose_option(self, index: int) -> Ply | None:
        """Answer the pending step of a variant (e.g. Europe's tunnel: pay or withdraw) with option ``index``."""
        if not self.step_options:
            self.message.refuse("there is no pending step to answer")
            return None
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.step_options):
            self.message.refuse(f"there is no option number {index!r}; choose 0–{len(self.step_options) - 1}")
            return None
        return self._push(self.step_options[index])

    def choose_payment(self, index: int) -> Ply | None:
        """Claim the selected route with payment number ``index`` (0-based, as the buttons are listed)."""
        if not self.payments:
            self.message.refuse("select a route on the board first (click its marker)")
            return None
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.payments):
            self.message.refuse(f"there is no payment number {index!r}; choose 0–{len(self.payments) - 1}")
            return None
        action = self.payments[index]
        return self._push(action)

    def claim(self, route_id: str, payment: int = 0) -> Ply | None:
        """``click_route`` then ``choose_payment`` in one call."""
        if not self.click_route(route_id):
            return None
        return self.choose_payment(payment)

    def draw_deck(self) -> Ply | None:
        return self._push(self._boosted(DrawDeck(seat=self._acting_seat())))

    def draw_faceup(self, slot: int) -> Ply | None:
        """Take face-up card ``slot`` (1 = leftmost), even if its button is disabled: the engine decides."""
        return self._push(self._boosted(DrawFaceUp(slot=slot, seat=self._acting_seat())))

    def draw_tickets(self) -> Ply | None:
        """Draw destination tickets; where the variant asks which tickets (Märklin's mix of the short and the long
        deck), its choices appear as buttons first (``choose_option``). Returns the move (None: a choice is up)."""
        if self._ticket_draw is not None:
            seat = self._acting_seat()
            if seat is None or self.turn_seat() != seat:
                self._refuse_nobody(DrawTickets(seat=0))
                return None
            self._mix_open = True
            self._refresh_step(self.game.state)
            if not self.step_options:
                self.message.refuse("no tickets are left to draw")
                return None
            self.message.note("choose which tickets to draw")
            return None
        return self._push(self._boosted(DrawTickets(seat=self._acting_seat())))

    def use_boost(self, value: int) -> None:
        """South Korea: boost the next draw with the +``value`` express card (0: none); the draw buttons then
        play the boosted draw (SK-TURN-2)."""
        values = [v for _label, v in self.boost_toggle.options]
        if value not in values:
            self.message.refuse(f"no +{value} express card to use now; choose one of {values}")
            return
        self.boost_toggle.value = value

    def _boosted(self, action: Action) -> Action:
        value = self.boost_toggle.value if self._booster is not None else 0
        return self._booster.boost(action, value) if value else action

    def press(self, what: str) -> Ply | None:
        """Press a button by name or play an action text: "draw deck", "draw faceup 3", "faceup 3", "tickets",
        "draw tickets", "keep" (the checked tickets), "keep T04 T11", "claim R042 red3+loco1", "undo", "redo",
        "bots". A seat prefix ("red: keep T01 T02") acts for that human seat."""
        text = str(what).strip()
        low = text.lower()
        if low in ("undo", "↶ undo"):
            self.undo()
            return None
        if low in ("redo", "↷ redo"):
            self.redo()
            return None
        if low in ("bots", "bots play", "bots play until my turn"):
            self.bots_play()
            return None
        if low == "draw tickets":
            return self.draw_tickets()
        if low == "keep":
            return self.keep_tickets()
        if low.startswith("faceup "):
            text = "draw " + text
        try:
            action = parse_action(text)
        except TTRError as e:
            self.message.refuse(e)
            return None
        seat = getattr(action, "seat", None)
        if seat is None:
            if isinstance(action, KeepTickets):
                choosing = [x for x in self.choosing_seats() if self._at_screen(x)]
                seat = choosing[0] if choosing else self._acting_seat()
            else:
                seat = self._acting_seat()
            if seat is not None:
                action = action.with_seat(seat)
        elif seat not in self.human_seats:
            self.message.refuse(f"{seat_name(seat)} is played by a bot in this view")
            return None
        return self._push(action)

    def set_ticket_checks(self, seat: int, tickets: Sequence[str]) -> None:
        """Tick exactly ``tickets`` in ``seat``'s ticket choice (the others are unticked)."""
        panel = self._ticket_panels.get(seat)
        if panel is None:
            self.message.refuse(self.handover.words() if self.handover.up else
                                f"{seat_name(seat)} has no ticket choice on the screen now")
            return
        wanted = {t.upper() for t in tickets}
        for tid, box in panel["boxes"].items():
            box.value = tid in wanted

    def checked_tickets(self, seat: int) -> tuple[str, ...]:
        panel = self._ticket_panels.get(seat)
        if panel is None:
            return ()
        return tuple(tid for tid, box in panel["boxes"].items() if box.value)

    def keep_tickets(self, seat: int | None = None, tickets: Sequence[str] | None = None) -> Ply | None:
        """Keep the ticked tickets (or ``tickets``) of ``seat`` (default: the first human seat choosing)."""
        if seat is None:
            choosing = [x for x in self.choosing_seats() if self._at_screen(x)]
            seat = choosing[0] if choosing else self._acting_seat()
        if seat is None:
            self._refuse_nobody(KeepTickets(tickets=(), seat=0))
            return None
        if tickets is None:
            tickets = self.checked_tickets(seat) if seat is not None else ()
        p = self.game.state.pending_for(seat) if seat is not None and self.game.state.pending else None
        keep = self._keep_actions.get(p.kind, KeepTickets) if p is not None else KeepTickets
        return self._push(keep(tickets=tuple(t.upper() for t in tickets), seat=seat))

    def undo(self) -> bool:
        """Take back to the human's previous decision point: the bots' replies and the last human action."""
        self._hint_trail = ()
        g = self.game
        if not any(p.seat in self.human_seats for p in g.history):
            self.message.note("nothing to undo: no human action has been played yet")
            return False
        taken: list[Ply] = []
        while g.ply:
            p = g.undo()
            taken.append(p)
            if p.seat in self.human_seats:
                break
        self._log_note(f"Undo: {len(taken)} move{'' if len(taken) == 1 else 's'} taken back, to before "
                       f"\"{self._words_for_log(taken[-1])}\"")
        self._clear_selection()
        self.handover.sync(self._wanted_seat(), self.game.state.phase == "over")
        self.message.note(f"Took back: {move_words(taken[-1], self.viewer())}"
                          + (f" (and {len(taken) - 1} bot move{'' if len(taken) == 2 else 's'})" if len(taken) > 1 else ""))
        self.refresh()
        return True

    def redo(self) -> bool:
        """Replay the next human action that was taken back, and the bots' replies after it."""
        g = self.game
        if g.ply >= len(g.line):
            self.message.note("nothing to redo")
            return False
        first = g.redo()
        n = 1
        while g.ply < len(g.line) and g.line[g.ply].seat not in self.human_seats:
            g.redo()
            n += 1
        self._log_note(f"Redo: {n} move{'' if n == 1 else 's'} replayed from \"{self._words_for_log(first)}\"")
        self._clear_selection()
        if self.auto_bots:
            self._run_bots()
        self.handover.sync(self._wanted_seat(), self.game.state.phase == "over")
        self.message.note(f"Replayed: {move_words(first, self.viewer())}")
        self.refresh()
        return True

    def bots_play(self) -> int:
        """Let the bots play until a human seat is to act (or the game is over). Returns plies played."""
        n = self._run_bots()
        if not n:
            self.message.note("no bot is to move: " + self._waiting_text(self.game.state))
        self.refresh()
        return n

    def hint(self) -> str:
        """The variant's hint for the seat to act (Märklin: the exact best passenger move), said in the message
        area and drawn on the board as a path until the next move. Returns the text ("" without a hint)."""
        s = self.game.state
        seat = self._acting_seat()
        if self._hinter is None:
            self.message.note(f"{self.variant.name} has no hint")
            return ""
        if seat is None:
            self.message.refuse("nobody in this view can act now — " + self._waiting_text(s))
            return ""
        text, routes = self._hinter.hint(self.variant, s, seat)
        self._hint_trail = tuple(routes)
        self.message.note(text)
        self._draw_board(s, self.viewing_seat())
        return text

    def coach_hint(self):
        """The coach's button: the 3 best moves of the seat at the screen with their chances to win and reasons,
        its tickets' chances to complete, the best claim drawn on the board (``widgets.coachpanel``). Returns the
        ``ttr_nb.coach.Hint`` (None: nobody at the screen may act now)."""
        return self.coach.ask()

    def _coach_route(self, route: str | None) -> None:
        """Draw the coach's best claim on the board (None: take it off; the refresh that follows draws)."""
        self._hint_trail = (route,) if route else ()
        if route is not None:
            self._draw_board(self.game.state, self.viewer())

    # ------------------------------------------------------------------------------------------------ internals
    def _words(self, s: GameState, a: Action) -> str:
        """A button's words for action ``a``, addressed to the player who may play it ("take face-up card 1")."""
        own = getattr(a, "button_words", None)
        return own(self.variant, s) if own is not None else second_person(describe(s, a).split(" ", 1)[-1])

    def _city_refusal(self, s: GameState, seat: int, city: str):
        """Why no city action is legal here: the engine's refusal of a representative action (a legal one moved
        to this city, or — with stations — a one-card station), or None when the variant has no city actions."""
        elsewhere = next((a for a in legal_actions(s, seat) if getattr(a, "city", None) not in (None, city)), None)
        if elsewhere is not None:
            import dataclasses
            return explain(s, dataclasses.replace(elsewhere, city=city))
        if self.variant.feature("stations") is not None:
            hand = s.players[seat].hand
            built = len(s.players[seat].get("stations", ()) or ())
            colour = max(range(len(COLOURS)), key=lambda k: (hand[k], -k))
            try:
                return explain(s, parse_action(f"station {city} {CARD_NAMES[colour]}{built + 1}").with_seat(seat))
            except TTRError as e:
                return e
        return None

    def _representative_claim(self, route, seat: int, hand) -> Claim:
        """A claim the hand cannot pay, used only to let the engine say why (route taken, trains, cards ...)."""
        if route.colour == GRAY:
            colour = max(range(len(COLOURS)), key=lambda k: (hand[k], -k))
        else:
            colour = COLOURS.index(route.colour)
        return Claim(route=route.id, payment=((colour, route.length),), seat=seat)

    def _waiting_text(self, s: GameState) -> str:
        if s.phase == "over":
            return "the game is over"
        return "waiting for " + ", ".join(seat_name(x) + (" (bot)" if x in self.bots else "") for x in to_move(s))

    def _refuse_nobody(self, action: Action, prefix: str = "") -> None:
        """No seat of this view may act: after the game, the engine's own refusal; else who we wait for."""
        s = self.game.state
        if s.phase == "over":
            err = explain(s, action.with_seat(0))
            if err is not None:
                self.message.refuse(f"{prefix}{err}")
                return
        if self.handover.up:
            self.message.refuse(prefix + self.handover.words())
            return
        self.message.refuse(f"{prefix}nobody in this view can act now — " + self._waiting_text(s))

    def _push(self, action: Action) -> Ply | None:
        if getattr(action, "seat", 0) is None:
            self._refuse_nobody(action)
            return None
        seat = getattr(action, "seat", None)
        if self.handover.active and seat is not None and seat != self.handover.shown:
            # a hot seat acts only for the player at the screen (the others' cards are hidden)
            self.message.refuse(self.handover.words() if self.handover.up else
                                f"{seat_name(seat)} is not at the screen: {self._waiting_text(self.game.state)}")
            return None
        before = self.game.state
        try:
            ply = self.game.push(action)
        except TTRError as e:
            self.message.refuse(e)
            self._refresh_buttons(self.game.state)
            return None
        self.last_reasons = []
        self._bot_moves = []
        self._hint_trail = ()
        if self.boost_toggle.value:
            self.boost_toggle.value = 0
        self._log_ply(ply, None, before)
        self._clear_selection()
        if self.auto_bots:
            self._run_bots()
        self.handover.sync(self._wanted_seat(), self.game.state.phase == "over")
        # said once, as the reader may read it: the mover's own words ("You drew a red card ...") while the mover
        # is at the screen, the public ones once a hand-over hides them
        viewer = self.viewer()
        note = move_words(ply, viewer, before)
        if self._bot_moves:
            note += " · then " + "; ".join(move_words(p, viewer, b) for p, b in self._bot_moves[-3:])
        self.message.note(note)
        self.refresh()
        return ply

    def _run_bots(self, max_plies: int = 5000) -> int:
        g = self.game
        played = 0
        while not g.is_over and played < max_plies:
            seat = next((x for x in to_move(g.state) if x in self.bots), None)
            if seat is None:
                break
            action, reason = self.bots[seat].choose(g.state, seat)
            before = g.state
            try:
                ply = g.push(action)
            except TTRError as e:      # a bot bug: show it rather than loop
                self.message.refuse(f"{seat_name(seat)}'s bot chose an illegal action: {e}")
                break
            self._log_ply(ply, reason, before)
            self._bot_moves.append((ply, before))
            self.last_reasons.append(f"{seat_name(seat)}: {reason_words(reason, self.viewer(), seat)}"
                                     if self.may_see_secrets_of(seat) else ply.words_for(self.viewer()))
            played += 1
        return played

    def _log_ply(self, ply: Ply, reason: str | None, before: GameState | None = None) -> None:
        who = "" if reason is None else f"  [bot: {reason}]"
        self.log.append(f"{ply.number:>4}. {ply.words}{who}")
        for e in ply.events:
            self.log.append(f"        · {e}")
        self._entries.append((ply, reason, before, None))

    def _log_note(self, text: str) -> None:
        self.log.append(text)
        self._entries.append((None, None, None, text))

    def may_see_secrets_of(self, seat: int) -> bool:
        """Whether this view may show ``seat``'s secrets (its tickets, hand, its bot's ticket-driven reasons): the
        seat at the screen, everything once the game is over, and all of it in a teacher view (no human seat)."""
        viewer = self.viewer()
        return viewer is None or viewer == seat

    def _words_for_log(self, ply: Ply) -> str:
        """A move's words for a note kept in the log: the public ones (the log is read by every seat later)."""
        return ply.words_for(NOBODY) if self.human_seats else ply.words

    def log_lines(self) -> list[str]:
        """The log as this view shows it, newest first: each move once, in words, without another seat's secrets
        (until the game ends); a bot's reason after its move when ``explain_bots`` is ticked (the teacher's view:
        always)."""
        out: list[str] = []
        viewer = self.viewer()
        explain = self.explain_bots.value or not self.human_seats
        for ply, reason, before, note in self._entries:
            if ply is None:
                out.append(note)
                continue
            line = f"{ply.number}. {move_words(ply, viewer, before)}"
            if reason is not None and explain:
                why = reason_words(reason, viewer, ply.seat)
                if why:
                    line += f" (why: {why})"
            out.append(line)
        return out[::-1]

    def _clear_selection(self) -> None:
        self._mix_open = False
        self.selected_route = None
        self.selected_city = None
        self.payments = []
        self._claim_groups = {}
        self.extra_toggle.layout.display = "none"

    # ------------------------------------------------------------------------------------------------ refresh
    def refresh(self) -> None:
        """Bring every part of the view up to date with ``game.state`` (in place)."""
        s = self.game.state
        self.handover.sync(self._wanted_seat(), s.phase == "over")
        self.coach.sync()                      # a hint is for one position and the seat at the screen only
        viewer = self.viewer()
        seat = viewer if viewer is not None and viewer >= 0 else None       # whose own cards are on the screen
        # whose seat is whose: the players' table says "(you)" (a hot seat's hand-over names the player)
        self.status.value = status_html(s, rule_ids=not self.human_seats)
        self.access.status(self._say(turn_status(s)))
        if self.handover.up:
            self._clear_selection()
        self._refresh_selection()
        self._refresh_chooser(s)
        self._refresh_step(s)
        self._draw_board(s, viewer)            # its screen-reader text too: NOBODY's while a hand-over is up
        self._refresh_buttons(s)
        self._refresh_tickets(s)
        self.hand.value = panels.hand_html(s, seat) if seat is not None else ""
        self.players.value = panels.players_compact_html(s, seat)
        self.my_tickets.value = panels.tickets_compact_html(s, seat) if seat is not None else ""
        self.score.show(s)
        for panel in self.feature_panels:
            panel.show(s)
        self._refresh_log()
        g = self.game
        self.undo_button.disabled = not any(p.seat in self.human_seats for p in g.history)
        self.redo_button.disabled = g.ply >= len(g.line)
        self.bots_button.disabled = s.phase == "over" or not any(x in self.bots for x in to_move(s))
        self.hint_button.disabled = self._acting_seat() is None
        for cb in list(self._listeners):
            cb(self)

    def _refresh_log(self) -> None:
        self.log_widget.value = log_html(self.log_lines(), self.log_size, newest_first=True)

    def _highlight(self, s: GameState, viewing: int | None) -> list:
        out = []
        if self.show_claimable.value and viewing is not None and viewing >= 0 and s.phase in ("play", "last_round"):
            ids = [r.id for r in claimable_routes(self.variant, s, viewing, affordable_only=True)]
            if ids:
                out.append(("you can claim", ids))
        return out

    def _draw_board(self, s: GameState, viewing: int | None) -> None:
        title = None
        if s.phase == "over":
            title = f"{self.map.name} — game over"
        self.board.show(s, highlight=self._highlight(s, viewing), title=title, viewer=viewing,
                        trail=self._hint_trail, trail_label="hint" if self._hint_trail else None)

    def _refresh_selection(self) -> None:
        self.board.select(self.selected_route)
        self.chooser.show(self.selected_route or self.selected_city)
        if self.selected_route is None and self.selected_city is None:
            self.route_info.value = ""
            self.payments_box.children = ()
            return
        if self.selected_route is not None:
            r = self.map.route(self.selected_route)
            what = f"<b>{esc(r.a)}–{esc(r.b)}</b> · {r.length} · {esc(r.colour)}"
            kind = "payment"
        else:
            what = f"<b>{esc(self.selected_city)}</b>"
            kind = "choice"
        n = len(self.payments)
        self.route_info.value = what + (f" — {n} legal {kind}{'s' if n != 1 else ''}:" if n else "")
        while len(self._pay_buttons) < n:
            b = widgets.Button(layout=widgets.Layout(width="auto"))
            b.on_click(lambda _b, i=len(self._pay_buttons): self.choose_payment(i))
            self._pay_buttons.append(b)
        for b, a in zip(self._pay_buttons, self.payments):
            pay = getattr(a, "payment", None)
            if hasattr(a, "button_words"):
                b.description = self._words(self.game.state, a)
            elif pay is not None and self.selected_route is not None:
                b.description = payment_words(pay)
            else:
                b.description = self._words(self.game.state, a)
            b.tooltip = str(a)
        self.payments_box.children = tuple(self._pay_buttons[:n])

    def _at_screen(self, seat: int) -> bool:
        """Whether ``seat``'s decision may be shown (always, but in a hot seat only the player at the screen's)."""
        return not self.handover.active or (not self.handover.up and seat == self.handover.shown)

    def _say(self, text: str) -> str:
        """A status or step text as this view says it: rule ids only in the teacher's view."""
        return text if not self.human_seats else without_rule_ids(text)

    def _refresh_chooser(self, s: GameState) -> None:
        """The keyboard's list of claims: the routes the seat to play can pay for, and its city actions (only the
        player at the screen's, in a hot seat: what can be paid for tells the hand)."""
        seat = self.turn_seat()
        if seat is not None and not self._at_screen(seat):
            seat = None
        routes, cities = [], []
        if seat is not None and not s.pending:
            routes = claimable_routes(self.variant, s, seat, affordable_only=True)
            ways: dict[str, list[Action]] = {}
            for a in legal_actions(s, seat):
                city = getattr(a, a.city_field, None) if a.city_field else None
                if city:
                    ways.setdefault(city, []).append(a)
            for city, acts in ways.items():
                words = self._words(s, acts[0]).split(" with ")[0]
                cities.append((city, words + (f" ({len(acts)} ways to pay)" if len(acts) > 1 else "")))
        self.chooser.update(routes, cities, selected=self.selected_route or self.selected_city,
                            active=seat is not None)

    def _refresh_step(self, s: GameState) -> None:
        """A variant's pending step for a human seat (tunnel ...), the ticket mix chosen after "draw tickets", or a
        turn where only passing is possible: its legal answers as buttons, addressed to the player."""
        opts: list[Action] = []
        text = ""
        # a pending step of a human seat (a tunnel, Märklin's ticket mix or passenger ...), in setup too
        stepping = [x for x in to_move(s) if x in self.human_seats and s.pending and self._at_screen(x)
                    and (q := s.pending_for(x)) is not None and q.kind not in (*self._keep_actions, "second_card")]
        seat = s.current if s.phase in ("play", "last_round") and s.current in self.human_seats else None
        if seat is not None and not self._at_screen(seat):
            seat = None
        if stepping:
            p = s.pending_for(stepping[0])
            opts = legal_actions(s, stepping[0])
            ask = p.get("text") if hasattr(p, "get") else None
            text = (f"<b>{esc(seat_name(stepping[0]))}</b>, {esc(self._say(ask))}:" if ask
                    else f"<b>{esc(seat_name(stepping[0]))}</b>: {esc(step_words(self.variant, p.kind))}")
            revealed = p.get("revealed") if hasattr(p, "get") else None
            if revealed:                          # e.g. the three cards a tunnel turned up, shown as cards
                text += "<div>Turned up: " + panels.cards_html(
                    [CARD_NAMES.index(c) if isinstance(c, str) else c for c in revealed]) + "</div>"
            words = getattr(self._private, "private_words", None)
            if words is not None and stepping[0] == self.viewing_seat():      # the seat's own secret (its draft)
                note = words(self.variant, s, stepping[0])
                if note:
                    text += f"<div>{esc(note)}</div>"
        elif seat is not None and not s.pending:
            acts = legal_actions(s, seat)
            if len(acts) == 1 and isinstance(acts[0], Pass):
                opts = acts
                text = (f"<b>{esc(seat_name(seat))}</b>, you cannot do anything: pass"
                        + (" (USA-DRAW-8)" if not self.human_seats else ""))
            elif self._mix_open and self._ticket_draw is not None:
                # the ticket draw of a variant where you choose which tickets (Märklin: a mix of two decks)
                opts = [a for a in acts if self._ticket_draw.handles(a)]
                text = (f"<b>Draw tickets:</b> {esc(self._ticket_draw.ticket_draw_words)}" if opts else "")
            else:
                # a variant's own turn actions that no button or board click offers
                opts = [a for a in acts if not isinstance(a, _OFFERED_ELSEWHERE)
                        and not (a.city_field and getattr(a, a.city_field, None))
                        and not (self._booster is not None and self._booster.is_boost(a))
                        and not (self._ticket_draw is not None and self._ticket_draw.handles(a))
                        and getattr(a, "route", None) is None]
                if opts:
                    text = "<b>Or:</b>"
        if not opts:
            self._mix_open = False
        self.step_options = opts
        self.step_info.value = text
        while len(self._option_buttons) < len(opts):
            b = widgets.Button(layout=widgets.Layout(width="auto"), button_style="warning")
            b.on_click(lambda _b, i=len(self._option_buttons): self.choose_option(i))
            self._option_buttons.append(b)
        for b, a in zip(self._option_buttons, opts):
            b.description = self._words(s, a)
            b.tooltip = str(a)
        self.options_box.children = tuple(self._option_buttons[:len(opts)])

    def _refresh_buttons(self, s: GameState) -> None:
        seat = self.turn_seat()
        if s.phase == "over":
            idle = "The game is over" + (" (USA-END-1)." if not self.human_seats else ".")
        elif self.handover.up:
            idle = self.handover.words()
        elif seat is None or not self._at_screen(seat):
            idle = "Not your turn: " + self._waiting_text(s)
        else:
            idle = None

        def set_button(button: widgets.Button, action: Action | None, ok_tip: str) -> None:
            if action is None or idle is not None:
                button.disabled = True
                button.tooltip = idle or ""
                return
            err = explain(s, action)
            button.disabled = err is not None
            button.tooltip = str(err) if err is not None else ok_tip

        if self._booster is not None:
            values = tuple(self._booster.boost_options(self.variant, s, seat)) if idle is None else ()
            options = [("no express card", 0)] + [(f"+{e}", e) for e in values]
            if list(self.boost_toggle.options) != options:
                keep = self.boost_toggle.value if self.boost_toggle.value in (0, *values) else 0
                self.boost_toggle.options = options
                self.boost_toggle.value = keep
                self.boost_toggle.tooltips = ["draw as usual"] + [f"the +{e} express card: {e} more card(s) first"
                                                                  for e in values]
            self.boost_toggle.disabled = idle is not None
        set_button(self.deck_button, self._boosted(DrawDeck(seat=seat)), "take the top card of the deck, blind")
        for i, b in enumerate(self.faceup_buttons):
            card = s.market[i] if i < len(s.market) else None
            b.description = f"{i + 1}: {_button_word(card)}" if card is not None else f"{i + 1}: (empty)"
            b.style.button_color = _card_hex(card)
            b.style.text_color = ink_on(_card_hex(card)) if card is not None else "#444444"      # WCAG AA
            set_button(b, self._boosted(DrawFaceUp(slot=i + 1, seat=seat)), f"take the face-up {_button_word(card) if card is not None else ''}")
        if self._ticket_draw is not None:             # the tickets are chosen after the press (Märklin's mix)
            mixes = [a for a in legal_actions(s, seat) if self._ticket_draw.handles(a)] if idle is None else []
            self.tickets_button.disabled = idle is not None or not mixes
            self.tickets_button.tooltip = idle or ("choose which tickets to draw" if mixes
                                                   else "no tickets are left to draw")
        else:
            set_button(self.tickets_button, self._boosted(DrawTickets(seat=seat)),
                       "draw destination tickets and keep at least one")

    def _refresh_tickets(self, s: GameState) -> None:
        # in a hot seat only the player at the screen sees (and makes) their ticket choice
        seats = [x for x in self.choosing_seats() if self._at_screen(x)]
        panels = []
        for seat in seats:
            p = s.pending_for(seat)
            offered = tuple(p.get("offered"))
            need = min(p.get("min_keep") or 0, len(offered))
            panel = self._ticket_panels.get(seat)
            if panel is None or panel["offered"] != offered:
                boxes = {tid: widgets.Checkbox(value=False, description=ticket_words(self.map, tid), indent=False,
                                               layout=widgets.Layout(width="auto", margin="0 8px 0 0"))
                         for tid in offered}
                keep = widgets.Button(description="keep", button_style="primary")
                keep.on_click(lambda _b, seat=seat: self.keep_tickets(seat))
                head = widgets.HTML()
                box = widgets.VBox([head, widgets.HBox(list(boxes.values()), layout=widgets.Layout(flex_flow="row wrap")), keep],
                                   layout=widgets.Layout(border="1px solid #bbb", padding="4px", margin="2px 0"))
                panel = {"offered": offered, "boxes": boxes, "keep": keep, "head": head, "box": box}
                self._ticket_panels[seat] = panel
            who = f"<b>{esc(seat_name(seat))}</b>"
            if p.kind == "choose_tickets":
                panel["head"].value = (f"{who}, keep at least {need} of these tickets"
                                       + (" (each player chooses, in secret)" if s.phase == "setup" else "") + ":")
            else:                                   # a variant's own ticket choice says what it asks
                rule = f" ({esc(p.get('rule'))})" if p.get("rule") and not self.human_seats else ""
                panel["head"].value = f"{who}, {esc(self._say(p.get('text') or 'choose'))}{rule}:"
            panels.append(panel["box"])
        for seat in list(self._ticket_panels):
            if seat not in seats:
                del self._ticket_panels[seat]
        self.tickets_box.children = tuple(panels)


__all__ = ["PlayView"]
