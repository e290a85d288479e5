"""Figures a variant's features add beside the board, found by the feature's name (``PANELS``), so the views
(PlayView, HistoryView, TableView) name no game: South Korea's province board (``province``).

A panel has ``widget`` (what a layout shows) and ``show(state)`` (redraw in place). Panels show public
information only.
"""
from __future__ import annotations

from ..board.state import GameState


class ProvincePanel:
    """South Korea's province board (``ttr_nb.render.provinces``), updated in place."""

    def __init__(self, state: GameState):
        from ..render.provinces import province_figure
        from .plotfig import figure_view
        fig = province_figure(state, provisional_note=False)       # the view's banner says PROVISIONAL
        self._view = figure_view(fig, css_classes=["ttr-provinces"], loading_text="Drawing the province board ...")
        self.fig = self._view.figure
        self.show(state)

    @property
    def widget(self):
        return self._view.current()

    def show(self, state: GameState) -> None:
        from ..render.describe import province_text
        from ..render.provinces import update_provinces
        update_provinces(self.fig, state, provisional_note=False)
        self.widget.describe(*province_text(state))


#: feature name -> the panel drawn for it
PANELS = {"province": ProvincePanel}


def panels_for(variant, state: GameState) -> list:
    return [PANELS[f.name](state) for f in variant.features if f.name in PANELS]
