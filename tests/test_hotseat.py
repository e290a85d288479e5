"""The hot seat keeps secrets (issue 17): two players at one screen, in every game. Through a whole game played by
clicks in a ``PlayView`` (the Card Game's own view for the Card Game), after every move and every hand-over, the
view's text — every widget's value, description, tooltip and options, the figures' texts, hovers and names, the
log and the message line — holds the secrets of at most one seat: the one at the screen; none while a hand-over is
up. A seat's secrets: its hand, the tickets it holds or is offered (South Korea's draft too), its on-the-track pile
(the Card Game), and its private wording of its own moves in the log."""
from __future__ import annotations

import pytest

from ttr_nb import Game
from ttr_nb.bots import make_bot
from ttr_nb.render import panels
from ttr_nb.widgets import PlayView
from ttr_nb.widgets.hotseat import NOBODY

GAMES = ["usa", "europe", "maerklin", "south_korea", "cardgame"]


def widget_text(w, out: list[str], seen: set[int]) -> None:
    """Every string a widget tree can put on the screen (value, description, tooltip(s), options, placeholder)."""
    if id(w) in seen:
        return
    seen.add(id(w))
    for attr in ("value", "description", "tooltip", "placeholder", "aria_label"):
        v = getattr(w, attr, None)
        if isinstance(v, str):
            out.append(v)
    table = getattr(w, "text_table", None)                 # a figure's text version for screen readers
    if isinstance(table, dict):
        out.extend(str(x) for v in table.values() for x in (v if isinstance(v, list) else [v]))
    for attr in ("tooltips", "_options_labels"):
        v = getattr(w, attr, None)
        if isinstance(v, (list, tuple)):
            out.extend(str(x) for x in v)
    for c in getattr(w, "children", ()) or ():
        widget_text(c, out, seen)


def figure_text(fig, out: list[str]) -> None:
    """Every text of a figure: trace names, texts, hovers, custom data; the title and annotations (read from the
    figure's plain data, ``to_plotly_json``, which is what the browser is sent)."""
    def strings(v):
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                strings(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                if isinstance(x, (str, dict, list, tuple)):
                    strings(x)
    data = fig.to_plotly_json()
    for t in data["data"]:
        for attr in ("name", "text", "hovertext", "customdata", "meta", "legendgrouptitle"):
            strings(t.get(attr))
    strings(data["layout"].get("title"))
    strings(data["layout"].get("annotations"))


def screen_text(view, spoken_from: int = 0) -> str:
    """What the view puts on the screen (and what its live region said since ``spoken_from``)."""
    out: list[str] = []
    widget_text(view.widget, out, set())
    access = getattr(view, "access", None)
    if access is not None:
        out.extend(access.spoken[spoken_from:])
    figure_text(view.board.fig if hasattr(view, "board") else view.fig, out)
    out.extend(view.log_lines())
    return "\n".join(out)


def secrets(view, seat: int) -> list[str]:
    """Texts that only ``seat`` (or the teacher) may see, as the views would write them."""
    g = view.game
    s = g.state
    if g.state.variant == "cardgame":
        from ttr_nb.cardgame import engine as rules
        from ttr_nb.widgets.cardgame import _hand_html
        data = rules.load_cards()
        ticket = data.ticket
        hand = _hand_html(s, seat)
        held = list(s.players[seat].tickets)
        routes = set()
    else:
        m = g.variant.map
        ticket = m.ticket
        hand = panels.hand_html(s, seat)
        held = list(s.players[seat].tickets)
        routes = {frozenset((r.a, r.b)) for r in m.routes}
    p = s.pending_for(seat) if s.pending else None
    offered = list(p.get("offered") or ()) + list(p.get("packet") or ()) if p is not None else []
    drafted = [t for k, v in (s.players[seat].ext or ()) if k == "drafted" for t in v] if hasattr(
        s.players[seat], "ext") else []
    out = [hand]
    for tid in dict.fromkeys(held + offered + drafted):
        t = ticket(tid)
        out.append(f"{t.a}–{t.b} ({t.points}")              # how the views name a ticket
        if frozenset((t.a, t.b)) not in routes:            # a route of that name is public
            out.append(f"{t.a}–{t.b}")
    return out


def check_screen(view, shown: int | None, where: str, spoken_from: int = 0) -> None:
    text = screen_text(view, spoken_from)
    n = view.game.state.n_players
    own = set(secrets(view, shown)) if shown is not None else set()
    for seat in range(n):
        if seat == shown:
            continue
        leaked = [x for x in secrets(view, seat) if x and x not in own and x in text]
        assert not leaked, f"{where}: the screen of {shown} shows secrets of seat {seat}: {leaked[:4]}"
    # every log line of another seat's move is its public wording
    for ply in view.game.history:
        if ply.seat != shown and ply.words != ply.public_words and ply.public_words:
            assert ply.words not in text, f"{where}: the private words of move {ply.number} are on the screen"
    if shown is not None:                                  # the check reads the right text: its own hand is there
        assert secrets(view, shown)[0] in text, f"{where}: the hand of the seat at the screen is not shown"


@pytest.mark.parametrize("key", GAMES)
def test_a_hot_seat_never_shows_two_seats_secrets_at_once(key):
    g = Game(key, players=2, seed=5)
    view = PlayView(g, human_seats=(0, 1), bots={})
    bots = {s: make_bot("greedy", seed=s) for s in (0, 1)}
    moves = handovers = 0
    last_seat = None
    said = 0                                               # the live region's announcements checked so far

    def spoken() -> int:
        return len(view.access.spoken)

    while not g.is_over:
        if view.handover.up:
            assert view.viewer() == NOBODY and view.acting_seat() is None
            check_screen(view, None, f"{key}, hand-over to {view.handover.waiting_for} after {moves} moves", said)
            said = spoken()
            seat = view.ready()
            handovers += 1
            check_screen(view, seat, f"{key}, {seat} at the screen after {moves} moves", said)
            said = spoken()
            continue
        seat = view.acting_seat()
        assert seat is not None and seat == view.handover.shown, (key, view.message.text)
        # a new player at the screen only after a hand-over
        assert last_seat in (None, seat) or handovers, (key, moves)
        action, _ = bots[seat].choose(g.state, seat)
        text = str(action) if key != "cardgame" else str(action).split(": ", 1)[1]
        assert view.press(text) is not None, (key, text, view.message.text)
        moves += 1
        last_seat = seat
        if not view.handover.up and not g.is_over:
            check_screen(view, seat, f"{key}, after move {moves} of seat {seat}", said)
            said = spoken()
        assert moves < 2000
    # one hand-over each time the other player's turn or choice came (and one at the start)
    assert handovers >= 20, (key, handovers, moves)
    assert view.viewer() is None                           # the game is over: everything may be shown


@pytest.mark.parametrize("key", ["usa", "cardgame"])
def test_without_a_hand_over_the_acting_seat_is_shown_at_once(key):
    """``hand_over=False`` (a teacher playing every seat in front of the class): no hand-over, the acting seat's
    cards are shown at once."""
    view = PlayView(Game(key, players=2, seed=5), human_seats=(0, 1), bots={}, hand_over=False)
    assert not view.handover.up and view.viewing_seat() == 0 and "Your hand" in screen_text(view)
