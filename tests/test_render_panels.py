"""Game panels (ttr_nb.render.panels), checked through ``fig.to_dict()`` and the HTML text — no browser needed."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys

import plotly.graph_objects as go
import pytest

from ttr_nb.bots import GreedyBot
from ttr_nb.board.cards import CARD_NAMES, LOCO, PLAYER_COLOURS
from ttr_nb.board.engine import seat_name
from ttr_nb.errors import TTRError
from ttr_nb.game import Game
from ttr_nb.render import panels as P
from ttr_nb.render.board import CARD_SYMBOLS, PLAYER_HEX
from ttr_nb.board.scoring import score
from ttr_nb.board.state import replace_fields
from ttr_nb.variants import get_variant


def plain(text: str) -> str:
    """A bar text without the colour span around it."""
    return re.sub(r'^<span style="color:#[0-9a-f]{6}">(.*)</span>$', r"\1", text)


@pytest.fixture(scope="module")
def game():
    g = Game("usa", 4, seed=3)
    g.play_bots(GreedyBot(1), max_plies=120)
    return g


@pytest.fixture(scope="module")
def state(game):
    return game.state


@pytest.fixture(scope="module")
def earlier(game):
    return game.state_at(60)


@pytest.fixture(scope="module")
def final():
    g = Game("usa", 4, seed=3)
    g.play_bots(GreedyBot(1))
    assert g.is_over
    return g.state


def traces(fig) -> dict[str, dict]:
    return {t["meta"]: t for t in fig.to_dict()["data"]}


def structure(fig) -> list[tuple]:
    return [(t.meta, t.type) for t in fig.data]


# --------------------------------------------------------------------------------------------- hand

def test_hand_bars_equal_the_hand(state):
    for seat in range(state.n_players):
        fig = P.hand_figure(state, seat)
        t = traces(fig)
        hand = state.players[seat].hand
        assert t["hand"]["type"] == "bar"
        assert list(t["hand"]["x"]) == list(CARD_NAMES[:9])          # USA: colours + locomotive
        assert list(t["hand"]["y"]) == list(hand)
        assert [plain(x) for x in t["hand"]["text"]] == [str(n) for n in hand]   # the count is written on each bar
        assert fig.layout.title.text.startswith(f"{seat_name(seat)}'s hand — {sum(hand)} card")
        assert fig.layout.meta["ttr_panel"] == "hand"


def test_hand_colours_have_shapes_and_words(state):
    t = traces(P.hand_figure(state, 0))
    symbols = list(t["symbols"]["marker"]["symbol"])
    assert len(set(symbols)) == len(CARD_NAMES[:9])                        # every kind its own shape
    assert symbols[:8] == [CARD_SYMBOLS[c] for c in CARD_NAMES[:8]]        # the board's shapes
    assert "pattern" not in t["hand"]["marker"]     # plotly.js warns about a pattern over per-bar colours
    assert "wild" in t["hand"]["hovertext"][LOCO]
    n = state.players[0].hand[0]
    assert t["hand"]["hovertext"][0] == f"{n} purple card{'s' if n != 1 else ''}"


def test_hand_rejects_a_bad_seat(state):
    with pytest.raises(TTRError):
        P.hand_figure(state, 9)


# --------------------------------------------------------------------------------------------- market

def test_market_tiles_match_the_market(state):
    fig = P.market_figure(state)
    t = traces(fig)
    assert list(t["market"]["x"]) == [1, 2, 3, 4, 5]
    for i, card in enumerate(state.market):
        word = "loco" if card == LOCO else CARD_NAMES[card]
        assert plain(t["market"]["text"][i]) == f"<b>{word}</b>"
        assert t["market"]["marker"]["color"][i] == P.CARD_FILL[card]
        assert t["symbols"]["marker"]["symbol"][i] == P.CARD_MARK[card]
    piles = t["piles"]["text"]
    assert plain(piles[0]) == f"<b>{len(state.deck)}</b><br>cards"
    assert piles[1] == f"<b>{sum(state.discard)}</b><br>cards"
    assert piles[2] == f"<b>{len(state.ticket_deck('regular'))}</b><br>tickets"
    assert list(fig.layout.xaxis.ticktext[:5]) == [f"<b>{i}</b>" for i in range(1, 6)]


def test_market_empty_slots(state):
    empty = replace_fields(state, market=(None, LOCO, None, 3, 0))
    t = traces(P.market_figure(empty))
    assert [plain(t["market"]["text"][i]) for i in (0, 2)] == ["<b>empty</b>", "<b>empty</b>"]
    assert list(t["symbols"]["marker"]["opacity"]) == [0, 1, 0, 1, 1]
    assert "empty" in t["market"]["hovertext"][0]


# --------------------------------------------------------------------------------------------- trains

def test_trains_figure(state):
    fig = P.trains_figure(state)
    t = traces(fig)
    assert list(t["trains"]["x"]) == [p.trains for p in state.players]
    assert list(t["trains"]["marker"]["color"]) == [PLAYER_HEX[c] for c in PLAYER_COLOURS[:4]]
    end = get_variant("usa").settings.end_trains
    assert list(t["end"]["x"]) == [end, end]
    assert "USA-END-1" in t["end"]["name"]
    assert list(fig.layout.yaxis.ticktext) == [seat_name(i) + (" ▶" if i == state.current else "") for i in range(4)]


# --------------------------------------------------------------------------------------------- score

SEGMENT_KEYS = ["routes", "tickets+", "tickets-", "longest", "extras"]


@pytest.mark.parametrize("which", ["midgame", "final"])
def test_score_segments_sum_to_totals(which, state, final):
    sheet = score(state if which == "midgame" else final)
    fig = P.score_figure(sheet)
    assert [m for m, _ in structure(fig)] == SEGMENT_KEYS + ["total", "labels"]
    t = traces(fig)
    assert fig.layout.barmode == "relative"
    for i, p in enumerate(sheet.players):
        parts = [t[k]["x"][i] for k in SEGMENT_KEYS]
        assert sum(parts) == p.total
        assert t["routes"]["x"][i] == p.route_points
        assert t["tickets+"]["x"][i] == sum(r.points for r in p.tickets if r.completed)
        assert t["tickets-"]["x"][i] == -sum(r.points for r in p.tickets if not r.completed) <= 0
        assert t["longest"]["x"][i] == p.longest_bonus
        assert t["total"]["x"][i] == p.total
        label = t["labels"]["text"][i]
        assert ("★ winner" in label) == (p.seat in sheet.winners)
        assert str(abs(p.total)) in label
    assert fig.layout.title.text == ("Final score" if sheet.final else "Score if the game ended now")
    assert sheet.decided_by in fig.layout.annotations[0].text


# --------------------------------------------------------------------------------------------- HTML panels

def _hand_token(state, seat) -> str:
    kind = next(k for k, n in enumerate(state.players[seat].hand) if n)
    n = state.players[seat].hand[kind]
    return f'{seat_name(seat)} holds {P._card_words(kind, n)}'


def test_players_panel_hides_other_hands(state):
    teacher = P.players_panel_html(state)
    mine = P.players_panel_html(state, 0)
    for other in (1, 2, 3):
        token = _hand_token(state, other)
        assert token in teacher
        assert token not in mine
        assert f"{state.players[other].hand_size} cards" in mine            # only the count is public
        for tid in state.players[other].tickets:
            assert f'title="{tid}"' in teacher and f'title="{tid}"' not in mine
    assert _hand_token(state, 0) in mine
    assert mine.count("(hidden)") == 2 * 3
    assert "(hidden)" not in teacher
    assert "Blue</b> (you)" in mine


def test_players_panel_uses_observe_only(state, monkeypatch):
    """Everything the seat view shows comes from observe(): a view without hand contents shows none."""
    calls = []
    real = P.observe

    def spy(s, seat=None):
        calls.append(seat)
        return real(s, seat)

    monkeypatch.setattr(P, "observe", spy)
    P.players_panel_html(state, 2)
    assert calls == [2]


def test_players_panel_setup_shows_own_offer_only():
    s = Game("usa", 3, seed=1).state
    html = P.players_panel_html(s, 1)
    offered = s.pending_for(1).get("offered")
    other = s.pending_for(0).get("offered")
    assert "choosing from:" in html and html.count("choosing from 3 offered tickets") == 2
    from ttr_nb.board.maps import load_map
    m = load_map("usa")
    assert all(f"{m.ticket(t).a}–{m.ticket(t).b}" in html for t in offered)
    assert not any(f"{m.ticket(t).a}–{m.ticket(t).b} ({m.ticket(t).points})" in html for t in other
                   if t not in offered)


def test_tickets_table(state):
    sheet = score(state)
    for seat in range(state.n_players):
        html = P.tickets_table_html(state, seat)
        ps = sheet.players[seat]
        assert html.count("✓") == ps.completed
        assert html.count("✗") == len(ps.tickets) - ps.completed
        assert html.count('title="completed"') == ps.completed              # colour + symbol + words
        for r in ps.tickets:
            assert f"{r.a}–{r.b}" in html
            if r.completed:
                assert f"+{r.points}<" in html
            else:
                assert f"−{r.points}<" in html


def test_compact_tickets_say_what_the_numbers_count(state):
    """The side column's tickets: "needs 5 more trains", "(12 points)" — not a bare "needs 21 ... (21)" — and the
    heading on its own line (it ran into "no tickets yet")."""
    from ttr_nb.analysis import player_network
    for seat in range(state.n_players):
        html = P.tickets_compact_html(state, seat)
        for t in player_network(state, seat).tickets:
            assert f"({t.points} point{'s' if t.points != 1 else ''})" in html
            if not t.completed and t.needed is not None:
                assert f"needs {t.needed} more train{'s' if t.needed != 1 else ''}" in html
    start = Game("usa", 2, seed=1).state
    empty = P.tickets_compact_html(start, 0)
    assert "<div><b>Your tickets</b></div><div><i>no tickets yet</i></div>" in empty


# --------------------------------------------------------------------------------------------- updating in place

def _data(fig) -> list[dict]:
    return [{k: v for k, v in t.items() if k != "uid"} for t in fig.to_dict()["data"]]


CASES = [
    ("hand", lambda s: P.hand_figure(s, 1), lambda f, s: P.update_hand(f, s, 1), False),
    ("market", P.market_figure, P.update_market, False),
    ("trains", P.trains_figure, P.update_trains, False),
    ("score", lambda s: P.score_figure(score(s)), lambda f, s: P.update_score(f, score(s)), False),
]


@pytest.mark.parametrize("widget", [False, True], ids=["Figure", "FigureWidget"])
@pytest.mark.parametrize("name, make, update, _", CASES, ids=[c[0] for c in CASES])
def test_update_keeps_traces_and_changes_data(name, make, update, _, widget, state, earlier):
    fig = make(earlier)
    if widget:
        try:
            fig = go.FigureWidget(fig)
        except Exception as e:                               # anywidget missing
            pytest.skip(f"FigureWidget unavailable: {e}")
    before_structure = structure(fig)
    before = _data(fig)
    update(fig, state)
    assert structure(fig) == before_structure
    after = _data(fig)
    assert after != before
    assert after == _data(make(state))                         # the same as a fresh figure
    fresh_layout = make(state).to_dict()["layout"]
    got_layout = fig.to_dict()["layout"]
    for key in ("title", "xaxis", "yaxis", "annotations"):
        assert got_layout.get(key) == fresh_layout.get(key)


@pytest.mark.parametrize("name, make, update, _", CASES, ids=[c[0] for c in CASES])
def test_update_sends_one_message_with_only_the_changes(name, make, update, _, state, earlier):
    from ttr_nb.render.board import as_figure_widget
    for fig in (as_figure_widget(make(earlier)), go.FigureWidget(make(earlier))):
        sent: list[tuple] = []

        def spy(*args, _sent=sent, _original=fig._send_update_msg, **kwargs):
            _sent.append((args, kwargs))
            return _original(*args, **kwargs)
        for other in ("_send_restyle_msg", "_send_relayout_msg"):
            setattr(fig, other, lambda *a, _o=other, _sent=sent, **k: _sent.append((_o,)))
        fig._send_update_msg = spy
        update(fig, earlier)                                   # the same position again: nothing to send
        assert sent == []
        update(fig, state)
        assert len(sent) == 1 and len(sent[0]) == 2            # one plotly update message
        style = sent[0][1].get("restyle_data", sent[0][0][0] if sent[0][0] else {})
        assert "type" not in style and "meta" not in style    # never the structure
        assert _data(fig) == _data(make(state))
        update(fig, earlier)
        update(fig, state)
        assert len(sent) == 3 and _data(fig) == _data(make(state))


def test_panel_update_inside_a_batch(state, earlier):
    fig = go.FigureWidget(P.market_figure(earlier))
    with fig.batch_update():
        P.update_market(fig, state)
    assert _data(fig) == _data(P.market_figure(state))
    assert fig.layout.title.text == P.market_figure(state).layout.title.text


def test_update_refuses_a_foreign_figure(state):
    with pytest.raises(TTRError):
        P.update_hand(P.market_figure(state), state, 0)
    with pytest.raises(TTRError):
        P.update_market(go.Figure(), state)


def test_figures_are_json_and_deterministic(state):
    for make in (lambda: P.hand_figure(state, 0), lambda: P.market_figure(state), lambda: P.trains_figure(state),
                 lambda: P.score_figure(score(state))):
        a, b = make(), make()
        assert a.to_json() == b.to_json()


def test_panels_import_no_widgets():
    code = "import sys, ttr_nb.render.panels; print('ipywidgets' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("chromium"), reason="kaleido needs Chromium")
def test_png_export(state, tmp_path):
    path = P.panel_png(P.score_figure(score(state)), tmp_path / "score.png")
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


@pytest.mark.parametrize("name, make, update, _", CASES, ids=[c[0] for c in CASES])
def test_every_panel_figure_passes_plotlys_validation(name, make, update, _, state, earlier):
    """The panels are built unvalidated (plotly's fast path); rebuilding them with validation must not raise."""
    import plotly.graph_objects as go
    fig = make(earlier)
    go.Figure(fig.to_dict())
    update(fig, state)
    go.Figure(fig.to_dict())
