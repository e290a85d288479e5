"""The play views' one-screen layout (ttr_nb.widgets.playlayout), kernel side: which part goes where. The browser
test (tests/browser/test_layout.py) measures the result at 1440×900 and 1024×768."""
from __future__ import annotations

import pytest

from ttr_nb import Game
from ttr_nb.widgets import PlayView
from ttr_nb.widgets.playlayout import PLAY_CSS


def classes(w) -> set[str]:
    return set(getattr(w, "_dom_classes", ()) or ())


def find(w, cls: str):
    if cls in classes(w):
        return w
    for c in getattr(w, "children", ()) or ():
        hit = find(c, cls)
        if hit is not None:
            return hit
    return None


@pytest.mark.parametrize("key, tall", [("usa", False), ("europe", False), ("maerklin", True),
                                       ("south_korea", True), ("cardgame", False)])
def test_the_board_the_decision_the_strip_and_the_information_have_their_places(key, tall):
    view = PlayView(Game(key, players=3, seed=2))
    main = find(view.widget, "ttr-main")
    assert main is not None and ("ttr-tall" in classes(main)) == tall
    column, side = main.children
    assert "ttr-board-column" in classes(column) and "ttr-side" in classes(side)
    assert [c for c in column.children if "ttr-board-box" in classes(c)], "the board is in the board's column"
    decision, strip, info = find(view.widget, "ttr-decision"), find(view.widget, "ttr-strip"), find(view.widget, "ttr-info")
    assert decision in side.children and info in side.children
    # the strip (draws and hand) right under a wide board; beside a tall one (a tall map has room at its side)
    assert (strip in side.children) == tall and (strip in column.children) == (not tall)
    assert side.children.index(decision) < side.children.index(info)
    if key != "cardgame":
        assert view.draw_row in strip.children and strip.children.index(view.draw_row) == 0   # the draws first
    assert "container-type: inline-size" in PLAY_CSS and "@container (max-width: 879px)" in PLAY_CSS
