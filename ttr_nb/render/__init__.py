"""Plotly renderers: pure functions ``state/map -> go.Figure``. No ipywidgets here (that is ttr_nb.widgets)."""
from __future__ import annotations

from .board import (CARD_CODES, CARD_HEX, CARD_SYMBOLS, OWNER_SYMBOLS, PLAYER_HEX, USA_POINTS, board_figure,
                    board_png, project, route_hover, trace_index, update_board)

__all__ = ["CARD_CODES", "CARD_HEX", "CARD_SYMBOLS", "OWNER_SYMBOLS", "PLAYER_HEX", "USA_POINTS", "board_figure",
           "board_png", "project", "route_hover", "trace_index", "update_board"]
