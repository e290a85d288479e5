"""Plotly renderers: pure functions ``state/map -> go.Figure``. No ipywidgets here (that is ttr_nb.widgets)."""
from __future__ import annotations

from .board import (CARD_CODES, CARD_HEX, CARD_SYMBOLS, OWNER_SYMBOLS, PLAYER_HEX, USA_POINTS, as_figure_widget,
                    board_figure, board_png, project, route_hover, trace_index, update_board)
from .panels import (hand_figure, market_figure, players_panel_html, score_figure, tickets_table_html, trains_figure,
                     update_hand, update_market, update_score, update_trains)

__all__ = ["CARD_CODES", "CARD_HEX", "CARD_SYMBOLS", "OWNER_SYMBOLS", "PLAYER_HEX", "USA_POINTS", "as_figure_widget",
           "board_figure", "board_png", "project", "route_hover", "trace_index", "update_board", "hand_figure",
           "market_figure", "players_panel_html", "score_figure", "tickets_table_html", "trains_figure", "update_hand",
           "update_market", "update_score", "update_trains"]
