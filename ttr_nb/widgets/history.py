"""``HistoryView``: step through a game — a slider over the plies, the board and status at each one, the ply's
words and events; "branch here" opens a what-if copy without touching the main line; stored variations can be
restored.

The view only reads the game (``game.state_at(k)``, ``game.line``): moving the slider never moves the game's own
cursor, so a ``PlayView`` on the same game is not disturbed.
"""
from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from ..board.actions import Claim
from ..errors import TTRError
from ..game import Game
from ..board.state import GameState
from ..variants import get_variant
from ._common import own_view, BoardWidget, MessageArea, esc, provisional_banner, status_html, table_view_html
from ._panels import ScorePanel
from .words import move_words
from .access import Access, accessible

#: names for the controls ipywidgets leaves unnamed (its Play buttons are icons; its slider handle has no label)
HISTORY_LABELS = (
    (".widget-play button:nth-of-type(1)", "play the moves one by one"),
    (".widget-play button:nth-of-type(2)", "pause"),
    (".widget-play button:nth-of-type(3)", "stop and go back to the first move"),
    (".widget-play button:nth-of-type(4)", "repeat: start again after the last move"),
    (".widget-slider .noUi-handle", "move number"),
    (".widget-slider input", "move number"),
    (".ttr-prev", "previous move"),
    (".ttr-next", "next move"),
)


class HistoryView:
    """Step through ``game``'s line (plies 0..len(line); ply 0 is the start position).

    ``branch_view``: what "branch here" opens — ``"play"`` (a ``PlayView``; ``play_kwargs`` are passed to it) or
    ``"history"`` (another ``HistoryView``).
    """
    def __new__(cls, game=None, *args, **kwargs):
        own = own_view("HistoryView", game) if cls is HistoryView else None
        if own is not None:                 # a game with its own views (the Card Game) is shown by them
            return own(game, *args, **kwargs)
        return super().__new__(cls)


    def __init__(self, game: Game, *, ply: int | None = None, branch_view: str = "play",
                 play_kwargs: Mapping[str, Any] | None = None, board_height: int | None = None, seat: int | None = None):
        if not isinstance(game, Game):
            raise TypeError(f"HistoryView needs a ttr_nb.Game, got {type(game).__name__}")
        if branch_view not in ("play", "history"):
            raise TTRError(f"branch_view must be 'play' or 'history', got {branch_view!r}")
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool)
                                     and 0 <= seat < game.start.n_players):
            raise TTRError(f"seat {seat!r} is not a seat of this {game.start.n_players}-player game")
        self.game = game
        #: whose view this is: None = the teacher's (everything); a seat sees only what it may (USA-TICKET-3),
        #: everything once the game is over
        self.seat = seat
        self.branch_view = branch_view
        self.play_kwargs = dict(play_kwargs or {})
        self.variant = get_variant(game.start.variant)
        self.map = self.variant.map
        self.branches: list[tuple[Game, Any]] = []
        self._spare = None                # the PlayView the next "branch here" opens, built in advance
        self.shown_ply = -1

        self.banner = widgets.HTML(provisional_banner(self.map))
        self.message = MessageArea()
        top = len(game.line)
        start = game.ply if ply is None else ply
        # continuous_update=False: a drag asks for one board, at the release (the readout follows the drag in the
        # browser); the play button and ◀ ▶ step one move at a time
        self.slider = widgets.IntSlider(value=start, min=0, max=top, description="move", continuous_update=False,
                                        layout=widgets.Layout(width="60%"))
        self.player = widgets.Play(value=start, min=0, max=top, interval=700, description="play")
        widgets.jslink((self.player, "value"), (self.slider, "value"))   # browser side: no round trip
        self.prev_button = widgets.Button(description="◀", tooltip="previous move", layout=widgets.Layout(width="44px"))
        self.next_button = widgets.Button(description="▶", tooltip="next move", layout=widgets.Layout(width="44px"))
        self.prev_button.on_click(lambda _b: self.step(-1))
        self.next_button.on_click(lambda _b: self.step(1))
        self.prev_button.add_class("ttr-prev")
        self.next_button.add_class("ttr-next")
        self.position = widgets.HTML()
        self.status = widgets.HTML()
        self.board = BoardWidget(self.map, n_players=game.start.n_players, height=board_height)
        self.ply_info = widgets.HTML()
        from .feature_panels import panels_for
        self.feature_panels = panels_for(get_variant(game.start.variant), game.start)
        self.table = widgets.HTML()
        self.score = ScorePanel()
        self.branch_button = widgets.Button(description="branch here", tooltip="a what-if copy of the game at this move",
                                            button_style="info")
        self.branch_button.on_click(lambda _b: self.branch_here())
        self.variations = widgets.Dropdown(options=[], description="variations", layout=widgets.Layout(width="70%"))
        self.restore_button = widgets.Button(description="restore", tooltip="make this variation the main line again")
        self.restore_button.on_click(lambda _b: self.restore_variation())
        self.branch_box = widgets.VBox()
        self.branch_title = widgets.HTML()
        # after the game: the coach's review of a seat's moves (a seat's view: that seat's), each with its position
        from .coachpanel import ReviewPanel
        self.review = ReviewPanel(game, seat, on_show=self.show)
        self.slider.observe(self._on_slider, names="value")
        self.widget = widgets.VBox([
            self.banner,
            widgets.HBox([self.player, self.prev_button, self.slider, self.next_button, self.position]),
            self.status, self.message.widget, self.board.view, self.ply_info,
            *[p.widget for p in self.feature_panels], self.score.widget, self.table,
            self.review.widget,
            widgets.HBox([self.branch_button]),
            widgets.HBox([self.variations, self.restore_button]),
            self.branch_box,
        ])
        self.access = accessible(self.widget, Access(labels=HISTORY_LABELS,
                                                     focus_order=(".widget-play button", ".widget-slider"))).children[-1]
        self.access.follow(self.message)
        self.refresh()

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget)
        self._prepare_later()

    # ------------------------------------------------------------------------------------------------ handlers
    @property
    def ply(self) -> int:
        return self.slider.value

    @property
    def state(self) -> GameState:
        """The state shown (``game.state_at(ply)``)."""
        return self.game.state_at(self.slider.value)

    def show(self, ply: int) -> GameState:
        """Show ply ``ply`` (clamped to 0..len(line)) and return its state."""
        if isinstance(ply, bool) or not isinstance(ply, int):
            self.message.refuse(f"the move number must be a whole number, got {ply!r}")
            return self.state
        ply = max(0, min(ply, len(self.game.line)))
        if self.slider.value != ply:
            self.slider.value = ply          # the observer renders it
        else:
            self._render(ply)
        return self.state

    goto = show

    def step(self, delta: int) -> GameState:
        return self.show(self.slider.value + delta)

    def branch_here(self, ply: int | None = None, view: str | None = None) -> Game:
        """A what-if copy of the game at ``ply`` (default: the ply shown), opened in a second view below.
        The main line is untouched. Returns the new ``Game`` (its view is ``self.branches[-1][1]``)."""
        ply = self.slider.value if ply is None else ply
        try:
            g = self.game.branch(ply)
        except TTRError as e:
            self.message.refuse(e)
            raise
        kind = view or self.branch_view
        if kind == "history":
            v = HistoryView(g, branch_view=self.branch_view, play_kwargs=self.play_kwargs)
        elif self._spare is not None:
            v, self._spare = self._spare, None
            v.use_game(g)
        else:
            from .playview import PlayView
            v = PlayView(g, **self.play_kwargs)
        self.branches.append((g, v))
        self.branch_title.value = f"<hr><b>What-if from move {ply}</b> (the main line is kept)"
        self.branch_box.children = (self.branch_title, v.widget)
        self.message.ok(f"branched a what-if game at move {ply}; the main line keeps its {len(self.game.line)} moves")
        self._prepare_later()
        return g

    def prepare_branch_view(self) -> None:
        """Build the view the next "branch here" opens, now (a ``PlayView`` takes a few hundred milliseconds to
        build and to reach the browser; made in advance, the branch shows at once). Done by itself after the cell
        that displays this view has run, and again a moment after each branch."""
        if self._spare is None and self.branch_view == "play":
            from .playview import PlayView
            self._spare = PlayView(self.game.branch(0), **self.play_kwargs)

    def _prepare_later(self) -> None:
        """Schedule ``prepare_branch_view`` for when the kernel has answered the current request (never in
        between: the branch or the display the user waits for goes first)."""
        import asyncio
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:
            loop.call_later(0.5, self._prepare_quietly)
            return
        try:
            from IPython import get_ipython
        except ImportError:
            return
        ip = get_ipython()
        if ip is None or not hasattr(ip, "events"):
            return

        def after_cell(*_args) -> None:
            ip.events.unregister("post_run_cell", after_cell)
            self._prepare_quietly()
        ip.events.register("post_run_cell", after_cell)

    def _prepare_quietly(self) -> None:
        try:
            self.prepare_branch_view()
        except Exception as e:          # a view made in advance is only a speed-up: never an error for the user
            self.message.note(f"(the next branch will take a moment longer: {e})")

    def restore_variation(self, index: int | None = None) -> bool:
        """Make stored variation ``index`` (default: the one picked in the dropdown) the game's line again."""
        if index is None:
            index = self.variations.value
        if index is None:
            self.message.refuse("this game has no stored variations")
            return False
        try:
            at = self.game.variations[index][0] if isinstance(index, int) and 0 <= index < len(self.game.variations) else None
            self.game.restore_variation(index)
        except TTRError as e:
            self.message.refuse(e)
            return False
        self.message.ok(f"restored variation {index}: the line after move {at} is now the main line")
        self.refresh(ply=at + 1 if at is not None and at < len(self.game.line) else at)
        return True

    def follow(self, view) -> None:
        """Stay at the game's current ply whenever ``view`` (a ``PlayView`` on the same game) changes."""
        view.on_change(lambda v: self.refresh(ply=v.game.ply))

    def refresh(self, ply: int | None = None) -> None:
        """Re-read the game (its line may have grown or changed) and show ``ply`` (default: keep the ply shown,
        or the game's current ply the first time)."""
        top = len(self.game.line)
        self.review.sync()                   # the review waits for the end of the game
        want = self.slider.value if ply is None else ply
        want = max(0, min(want, top))
        self.player.max = top
        self.slider.max = top
        opts = []
        for i, (at, acts) in enumerate(self.game.variations):
            opts.append((f"{i}: the {len(acts)} move{'s' if len(acts) != 1 else ''} played after move {at} "
                         f"before the game took another way", i))
        self.variations.options = opts
        self.variations.value = opts[0][1] if opts else None
        self.restore_button.disabled = not opts
        if self.slider.value != want:
            self.slider.value = want
        else:
            self._render(want)

    # ------------------------------------------------------------------------------------------------ rendering
    def _on_slider(self, change) -> None:
        self._render(change["new"])

    def _render(self, ply: int) -> None:
        g = self.game
        line = g.line
        ply = max(0, min(ply, len(line)))
        s = g.state_at(ply)
        self.shown_ply = ply
        where = ""
        if ply > g.ply:
            where = " <span style='color:#8a4600'>(ahead of the game's position: its redo line)</span>"
        elif ply == g.ply:
            where = " <span style='color:#17692e'>(the game's current position)</span>"
        self.position.value = f"move <b>{ply}</b> of {len(line)}{where}"
        viewer = None if self.seat is None or g.state_at(len(line)).phase == "over" else self.seat
        self.status.value = status_html(s)
        self.prev_button.disabled = ply <= 0
        self.next_button.disabled = ply >= len(line)
        highlight = []
        if ply:
            p = line[ply - 1]
            # the move in words, said once (what it changed folded in), as the viewer may read it
            words = move_words(p, viewer, g.state_at(ply - 1))
            said = f"Move {ply} of {len(line)}: {words}"
            self.ply_info.value = f"<div><b>{ply}.</b> {esc(words)}</div>"
            if isinstance(p.action, Claim):
                r = self.map.route(p.action.route)
                highlight = [(f"move {ply}: {r.a}–{r.b}", [r.id])]
        else:
            self.ply_info.value = "<div><b>0.</b> the start position</div>"
            said = f"Move 0 of {len(line)}: the start position"
        self.board.show(s, highlight=highlight, title=f"{self.map.name} — move {ply}", viewer=self.seat,
                        last_move=said.split(": ", 1)[1] if ply else None)
        self.access.say(said)
        self.table.value = table_view_html(s, viewer)
        self.score.show(s)
        for panel in self.feature_panels:
            panel.show(s)


__all__ = ["HistoryView"]
