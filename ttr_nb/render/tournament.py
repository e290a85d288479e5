"""A tournament's standings as a plotly figure: each bot's rating (mu with ±3 sigma, the conservative rating
marked) beside its win rate with the 95% interval and the share a bot would win by chance (1 / players)."""
from __future__ import annotations

from plotly.subplots import make_subplots
import plotly.graph_objects as go

from .figure import Figure

__all__ = ["standings_figure"]


def standings_figure(results, *, height: int | None = None) -> Figure:
    rows = results.standings()
    names = [s.bot for s in rows][::-1]                      # best on top
    rated = bool(rows) and rows[0].rating is not None
    players = results.header["players"]
    fig = Figure(make_subplots(rows=1, cols=2 if rated else 1, shared_yaxes=True, horizontal_spacing=0.04,
                               subplot_titles=(["Rating (mu ± 3 sigma; the dot: mu − 3 sigma)"] if rated else [])
                               + [f"Win rate (95% interval; dotted: {100 / players:.0f}%, chance)"]))
    col = 1
    if rated:
        mu = [s.mu for s in rows][::-1]
        err = [3 * s.sigma for s in rows][::-1]
        fig.add_trace(go.Scatter(x=mu, y=names, mode="markers", marker=dict(size=10, color="#1f5fa8", symbol="diamond"),
                                 error_x=dict(type="data", array=err, color="#1f5fa8", thickness=1.5), name="mu",
                                 hovertemplate="%{y}: mu %{x:.1f}<extra></extra>"), row=1, col=1)
        fig.add_trace(go.Scatter(x=[s.rating for s in rows][::-1], y=names, mode="markers", name="rating",
                                 marker=dict(size=8, color="#222", symbol="circle"),
                                 hovertemplate="%{y}: rating %{x:.1f}<extra></extra>"), row=1, col=1)
        col = 2
    rate = [100 * s.win_rate for s in rows][::-1]
    lo = [100 * (s.win_rate - s.win_low) for s in rows][::-1]
    hi = [100 * (s.win_high - s.win_rate) for s in rows][::-1]
    text = [f"{s.wins}/{s.games}" + (f", {s.forfeit_count} forfeits" if s.forfeit_count else "") for s in rows][::-1]
    fig.add_trace(go.Bar(x=rate, y=names, orientation="h", marker_color="#6a9fd4", name="win rate", text=text,
                         textposition="inside", insidetextanchor="start",
                         error_x=dict(type="data", symmetric=False, array=hi, arrayminus=lo, color="#222"),
                         hovertemplate="%{y}: %{x:.0f}% (%{text})<extra></extra>"), row=1, col=col)
    fig.add_vline(x=100 / players, line_dash="dot", line_color="#888", row=1, col=col)
    fig.update_xaxes(range=[0, 100], ticksuffix="%", row=1, col=col)
    fig.update_layout(title=results.title(), showlegend=False, height=height or 140 + 45 * len(rows),
                      margin=dict(l=110, r=20, t=90, b=40))
    return fig
