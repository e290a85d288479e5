"""One screen for a play view: the board (or the Card Game's table) with the decision at hand, whatever the width.

A play view is four parts: the **board**, the **decision** at hand (the tickets to keep, how to pay for a route, a
tunnel's answer ...), the **strip** (the hand, the draws and the controls) and the **information** (the players'
numbers, your tickets, the log). ``play_area`` lays them out with CSS alone, so the browser rearranges them as the
notebook's width changes (a CSS container query on the view, not the window: JupyterLab's file panel takes room):

* wide (the view 880 px or more): the board on the left; beside it the decision, then the information; the strip
  under the board.
* narrow (a 1024 px school laptop with JupyterLab's file panel open): the decision above the board, the strip
  under it, the information last — the board and what is to be decided are on one screen.
* a tall map (Märklin's Germany, South Korea): the board as wide as it is drawn at the window's height, the strip
  in the column beside it (a tall map has room at its side, not under it); on a very narrow view, stacked.

The board's height is capped so that what goes with it stays on the screen: the figure view (``plotfig``) draws it
no taller than the notebook's visible height less the part of the view above the board and ``--ttr-board-below``
px under it (set here per layout); with ``--ttr-board-fit: height`` (a tall map beside its column) the board is as
wide as it is drawn at that height, and the column keeps at least ``--ttr-side-min`` px.
"""
from __future__ import annotations

from typing import Sequence

import ipywidgets as widgets

#: The widest view that is still "narrow" (px): below it the side column would leave a wide board too little room.
NARROW_PX = 880
#: The narrowest view that shows a tall board beside its column (px).
TALL_SIDE_PX = 560
#: The side column's smallest width (px).
SIDE_MIN_PX = 250
#: Room kept for the decision above the board on a narrow view (px): a payment's buttons or three tickets to keep
#: fit without moving the board down.
DECISION_PX = 100
#: Room kept under the board on a narrow view (px): the draw buttons (the strip's first row) and a little more.
BELOW_NARROW_PX = 75


def _stacked(kind: str) -> str:
    """CSS that stacks a ``kind`` ("wide" or "tall") play area: the decision, the board, the strip, the rest."""
    main = f".ttr-playview .ttr-main.ttr-{kind}"
    return (f"  {main} {{ flex-wrap: wrap; --ttr-board-below: {BELOW_NARROW_PX}px; --ttr-board-fit: width; "
            f"--ttr-board-compact: 1; }}\n"
            f"  {main} > .ttr-side, {main} > .ttr-board-column {{ display: contents; }}\n"
            f"  {main} .ttr-decision {{ order: 1; flex: 1 1 100%; min-height: {DECISION_PX}px; }}\n"
            f"  {main} .ttr-board-box {{ order: 2; flex: 1 1 100%; min-width: 0; }}\n"
            f"  {main} .ttr-strip {{ order: 3; flex: 1 1 100%; }}\n"
            f"  {main} .ttr-info {{ order: 4; flex: 1 1 100%; }}\n")


PLAY_CSS = f"""<style>
.ttr-playview {{ container-type: inline-size; }}
.ttr-playview .ttr-main {{ display: flex; flex-flow: row nowrap; align-items: flex-start; width: 100%;
  --ttr-board-below: 115px; --ttr-board-fit: width; --ttr-side-min: {SIDE_MIN_PX + 12}px; }}
.ttr-playview .ttr-main > .ttr-board-column {{ flex: 1000 1 560px; min-width: 0; }}
.ttr-playview .ttr-main > .ttr-side {{ flex: 1 1 300px; min-width: {SIDE_MIN_PX}px; max-width: 100%;
  margin-left: 8px; box-sizing: border-box; }}
.ttr-playview .ttr-strip > * {{ margin: 2px 12px 2px 0; }}
.ttr-playview .widget-html-content {{ line-height: 1.4; }}
.ttr-playview .ttr-draws .widget-button {{ margin: 2px 3px 2px 0; }}
.ttr-playview .ttr-info, .ttr-playview .ttr-decision, .ttr-playview .ttr-side {{ min-width: 0; }}
.ttr-playview .ttr-chooser:has(select:disabled) {{ display: none; }}
.ttr-playview .ttr-main.ttr-tall {{ --ttr-board-below: 12px; --ttr-board-fit: height; }}
.ttr-playview .ttr-main.ttr-tall > .ttr-board-column {{ flex: 0 0 auto; }}
@container (max-width: {NARROW_PX - 1}px) {{
{_stacked("wide")}  .ttr-playview .ttr-main.ttr-tall {{ --ttr-board-compact: 1; }}
  .ttr-playview .ttr-draws .widget-button {{ min-width: 0 !important; padding: 0 7px; }}
  .ttr-playview .ttr-chooser select {{ height: 4.6em; }}
  .ttr-playview .ttr-hand br {{ display: none; }}
}}
@container (max-width: {TALL_SIDE_PX - 1}px) {{
{_stacked("tall")}}}
.ttr-projector .ttr-playview, .ttr-projector {{ font-size: 130%; }}
</style>"""


def _column(children: Sequence[widgets.Widget], cls: str) -> widgets.VBox:
    box = widgets.VBox(list(children))
    box.add_class(cls)
    return box


def play_area(board: widgets.Widget, decision: Sequence[widgets.Widget], strip: widgets.Widget,
              info: Sequence[widgets.Widget], *, tall: bool = False) -> widgets.Box:
    """The board, the decision, the strip and the information laid out as the module docstring says (``tall``: a
    board taller than wide)."""
    decision_box = _column(decision, "ttr-decision")
    info_box = _column(info, "ttr-info")
    strip.add_class("ttr-strip")
    board_box = widgets.Box([board])
    board_box.add_class("ttr-board-box")
    if tall:
        # a tall map has room at its side, not under it: the hand and draws go into the column beside it
        column = _column([board_box], "ttr-board-column")
        side = _column([decision_box, strip, info_box], "ttr-side")
    else:
        # the strip stays right under the board, however tall the column beside it grows
        column = _column([board_box, strip], "ttr-board-column")
        side = _column([decision_box, info_box], "ttr-side")
    main = widgets.Box([column, side])
    main.add_class("ttr-main")
    main.add_class("ttr-tall" if tall else "ttr-wide")
    return main


__all__ = ["PLAY_CSS", "NARROW_PX", "TALL_SIDE_PX", "SIDE_MIN_PX", "DECISION_PX", "play_area"]
