"""``HistoryView``: step through a game — a slider over the plies, the board and status at each one, the ply's
words and events; "branch here" opens a what-if copy without touching the main line; stored variations can be
restored.

The view only reads the game (``game.state_at(k)``, ``game.line``): moving the slider never moves the game's own
cursor, so a ``PlayView`` on the same game is not disturbed.
"""
from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from ..actions import Claim
from ..errors import TTRError
from ..game import Game
from ..state import GameState
from ..variants import get_variant
from ._common import BoardWidget, MessageArea, esc, provisional_banner, status_html, table_view_html
from ._panels import ScorePanel


class HistoryView:
    """Step through ``game``'s line (plies 0..len(line); ply 0 is the start position).

    ``branch_view``: what "branch here" opens — ``"play"`` (a ``PlayView``; ``play_kwargs`` are passed to it) or
    ``"history"`` (another ``HistoryView``).
    """

    def __init__(self, game: Game, *, ply: int | None = None, branch_view: str = "play",
                 play_kwargs: Mapping[str, Any] | None = None, board_height: int = 520):
        if not isinstance(game, Game):
            raise TypeError(f"HistoryView needs a ttr_nb.Game, got {type(game).__name__}")
        if branch_view not in ("play", "history"):
            raise TTRError(f"branch_view must be 'play' or 'history', got {branch_view!r}")
        self.game = game
        self.branch_view = branch_view
        self.play_kwargs = dict(play_kwargs or {})
        self.variant = get_variant(game.start.variant)
        self.map = self.variant.map
        self.branches: list[tuple[Game, Any]] = []
        self.shown_ply = -1

        self.banner = widgets.HTML(provisional_banner(self.map))
        self.message = MessageArea()
        top = len(game.line)
        start = game.ply if ply is None else ply
        self.slider = widgets.IntSlider(value=start, min=0, max=top, description="move", continuous_update=True,
                                        layout=widgets.Layout(width="60%"))
        self.player = widgets.Play(value=start, min=0, max=top, interval=700, description="play")
        widgets.jslink((self.player, "value"), (self.slider, "value"))   # browser side: no round trip
        self.prev_button = widgets.Button(description="◀", tooltip="previous move", layout=widgets.Layout(width="44px"))
        self.next_button = widgets.Button(description="▶", tooltip="next move", layout=widgets.Layout(width="44px"))
        self.prev_button.on_click(lambda _b: self.step(-1))
        self.next_button.on_click(lambda _b: self.step(1))
        self.position = widgets.HTML()
        self.status = widgets.HTML()
        self.board = BoardWidget(self.map, n_players=game.start.n_players, height=board_height)
        self.ply_info = widgets.HTML()
        self.table = widgets.HTML()
        self.score = ScorePanel()
        self.branch_button = widgets.Button(description="branch here", tooltip="a what-if copy of the game at this ply",
                                            button_style="info")
        self.branch_button.on_click(lambda _b: self.branch_here())
        self.variations = widgets.Dropdown(options=[], description="variations", layout=widgets.Layout(width="70%"))
        self.restore_button = widgets.Button(description="restore", tooltip="make this variation the main line again")
        self.restore_button.on_click(lambda _b: self.restore_variation())
        self.branch_box = widgets.VBox()
        self.slider.observe(self._on_slider, names="value")
        self.widget = widgets.VBox([
            self.banner,
            widgets.HBox([self.player, self.prev_button, self.slider, self.next_button, self.position]),
            self.status, self.message.widget, self.board.view, self.ply_info, self.score.widget, self.table,
            widgets.HBox([self.branch_button]),
            widgets.HBox([self.variations, self.restore_button]),
            self.branch_box,
        ])
        self.refresh()

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget)

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
            self.message.refuse(f"ply must be a whole number, got {ply!r}")
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
        else:
            from .playview import PlayView
            v = PlayView(g, **self.play_kwargs)
        self.branches.append((g, v))
        self.branch_box.children = (widgets.HTML(f"<hr><b>What-if from ply {ply}</b> (the main line is kept)"),
                                    v.widget)
        self.message.ok(f"branched a what-if game at ply {ply}; the main line keeps its {len(self.game.line)} plies")
        return g

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
        self.message.ok(f"restored variation {index}: the line after ply {at} is now the main line")
        self.refresh(ply=at + 1 if at is not None and at < len(self.game.line) else at)
        return True

    def follow(self, view) -> None:
        """Stay at the game's current ply whenever ``view`` (a ``PlayView`` on the same game) changes."""
        view.on_change(lambda v: self.refresh(ply=v.game.ply))

    def refresh(self, ply: int | None = None) -> None:
        """Re-read the game (its line may have grown or changed) and show ``ply`` (default: keep the ply shown,
        or the game's current ply the first time)."""
        top = len(self.game.line)
        want = self.slider.value if ply is None else ply
        want = max(0, min(want, top))
        self.player.max = top
        self.slider.max = top
        opts = []
        for i, (at, acts) in enumerate(self.game.variations):
            first = acts[0] if acts else ""
            opts.append((f"{i}: after ply {at} — {first} … ({len(acts)} plies)", i))
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
            where = " <span style='color:#a60'>(ahead of the game's position: its redo line)</span>"
        elif ply == g.ply:
            where = " <span style='color:#17692e'>(the game's current position)</span>"
        self.position.value = f"ply <b>{ply}</b> of {len(line)}{where}"
        self.status.value = status_html(s)
        self.prev_button.disabled = ply <= 0
        self.next_button.disabled = ply >= len(line)
        highlight = []
        if ply:
            p = line[ply - 1]
            words = f"<b>{ply}. {esc(p.words)}</b> <code>{esc(p.text)}</code>"
            events = "".join(f"<li>{esc(e)}</li>" for e in p.events)
            self.ply_info.value = f"<div>{words}{'<ul style=margin:2px>' + events + '</ul>' if events else ''}</div>"
            if isinstance(p.action, Claim):
                r = self.map.route(p.action.route)
                highlight = [(f"ply {ply}: {r.a}–{r.b}", [r.id])]
        else:
            self.ply_info.value = "<div><b>0.</b> the start position</div>"
        self.board.show(s, highlight=highlight, title=f"{self.map.name} — ply {ply}")
        self.table.value = table_view_html(s, None)
        self.score.show(s)


__all__ = ["HistoryView"]
