"""What the ``EditorView`` edits beyond the base game: one panel per variant feature, found by the feature's name
(``PANELS``), so the editor itself names no game.

* ``passengers`` (Märklin): where each player's passengers stand, each city's goods stack and who holds the
  tokens taken from it;
* ``stations`` (Europe): a city's train station and its owner;
* ``tunnels`` (Europe): a tunnel claim waiting for its answer — played through the engine with the three cards
  you choose on top of the deck, so the pending step is exactly the one a game would reach;
* ``express`` (South Korea): each player's unused express cards;
* ``province`` (South Korea): a train on a space of the province board (taken from its owner's 45);
* ``ticket_draft`` (South Korea): the tickets in a player's draft hand, while the draft runs.

Each edit is a pure function ``(editor, state, ...) -> GameState`` raising ``TTRError`` on bad input (the editor
then says why and changes nothing); the editor validates the result live like every other edit.
"""
from __future__ import annotations

from typing import Sequence

import ipywidgets as widgets

from ..board.actions import Claim, parse_payment
from ..board.cards import CARD_NAMES
from ..board.engine import apply, seat_name
from ..errors import TTRError
from ._common import checked_seat
from ..board.state import GameState, pairs_get, pairs_set, replace_fields

_NOBODY = "nobody"


_seat = checked_seat


def _set_ext(state: GameState, seat: int, key: str, value) -> GameState:
    players = list(state.players)
    players[seat] = replace_fields(players[seat], ext=pairs_set(players[seat].ext, key, value))
    return replace_fields(state, players=tuple(players))


# --------------------------------------------------------------------------------------------- the edits

def set_passengers(editor, state: GameState, seat: int, cities: Sequence[str]) -> GameState:
    """``seat``'s passengers stand in ``cities`` (at most 3; the others wait in reserve; MK-CLAIM-5)."""
    v = editor.variant
    feature = v.feature("passengers")
    seat = _seat(state, seat)
    names = [v.map.city(c).name for c in cities]
    countries = [c for c in names if c in v.map.ends_only]
    if countries:
        raise TTRError(f"{countries[0]} is a country: a passenger stands in a German city only (MK-CLAIM-5)")
    players = list(state.players)
    players[seat] = replace_fields(players[seat], ext=feature.stand(v, players[seat].ext, names))
    return replace_fields(state, players=tuple(players))


def set_goods(editor, state: GameState, city: str, left: int, seat: int | None = None) -> GameState:
    """``city``'s goods stack keeps its ``left`` bottom tokens (MK-PASS-4). With a ``seat`` (and the editor
    keeping things consistent) the tokens taken off go to that player, and tokens put back come from them."""
    from ..games.maerklin import goods_of, goods_stacks, initial_goods
    v = editor.variant
    full = initial_goods(v)
    name = v.map.city(city).name
    if name not in full:
        raise TTRError(f"{name} has no goods stack")
    stack = full[name]
    if isinstance(left, bool) or not isinstance(left, int) or not 0 <= left <= len(stack):
        raise TTRError(f"{name}'s stack holds 0 to {len(stack)} tokens ({', '.join(map(str, stack))}), not {left!r}")
    now = goods_stacks(state)[name]
    new = stack[len(stack) - left:]
    if seat is not None and editor.consistent:
        seat = _seat(state, seat)
        held = list(goods_of(state, seat))
        if len(new) < len(now):                      # taken off the top: to the player
            held += list(now[:len(now) - len(new)])
        else:                                        # put back: the player gives them up
            for token in new[:len(new) - len(now)]:
                if token not in held:
                    raise TTRError(f"{seat_name(seat)} holds no {token} goods token to put back on {name}")
                held.remove(token)
        state = _set_ext(state, seat, "goods", tuple(held))
    stacks = dict(goods_stacks(state))
    stacks[name] = new
    return replace_fields(state, ext=pairs_set(state.ext, "goods", tuple(sorted(stacks.items()))))


def set_station(editor, state: GameState, city: str, seat: int | None) -> GameState:
    """A train station of ``seat`` in ``city`` (None: no station there; EU-STATION-1)."""
    from ..games.europe import station_owners
    v = editor.variant
    name = v.map.city(city).name
    owner = station_owners(state).get(name)
    if owner is not None:
        state = _set_ext(state, owner, "stations",
                         tuple(c for c in pairs_get(state.players[owner].ext, "stations", ()) if c != name))
    if seat is not None:
        seat = _seat(state, seat)
        state = _set_ext(state, seat, "stations", tuple(pairs_get(state.players[seat].ext, "stations", ())) + (name,))
    return state


def start_tunnel(editor, state: GameState, route: str, payment: str, revealed: Sequence[str]) -> GameState:
    """The seat to play claims the tunnel ``route`` paying ``payment`` (e.g. "red2+loco1") and turns up the
    three ``revealed`` cards (taken from the deck, else from the discard pile): the tunnel waits for its answer
    (EU-TUNNEL-1 … 3). The engine plays the claim, so a claim it refuses is refused here, with its rule."""
    v = editor.variant
    r = v.map.route(route)
    if not r.tunnel:
        raise TTRError(f"{r.a}–{r.b} is not a tunnel")
    if state.pending or state.phase not in ("play", "last_round"):
        raise TTRError("a tunnel can be started only at the beginning of a turn in play")
    if len(revealed) != 3:
        raise TTRError(f"a tunnel turns up 3 cards, not {len(revealed)}")
    kinds = []
    for word in revealed:
        if word not in CARD_NAMES and word != "loco":
            raise TTRError(f"{word!r} is not a card ({', '.join(CARD_NAMES[:v.card_kinds])})")
        kinds.append(CARD_NAMES.index("locomotive" if word == "loco" else word))
    deck, discard = list(state.deck), list(state.discard)
    for k in kinds:
        if k in deck:
            deck.remove(k)
        elif discard[k] > 0:
            discard[k] -= 1
        else:
            raise TTRError(f"no {CARD_NAMES[k]} card is left in the deck or the discard pile to turn up")
    ready = replace_fields(state, deck=tuple(kinds + deck), discard=tuple(discard))
    return apply(ready, Claim(route=r.id, payment=parse_payment(payment, f"the tunnel's payment {payment!r}"),
                              seat=state.current))


def set_express(editor, state: GameState, seat: int, values: Sequence[int]) -> GameState:
    """``seat`` still holds the express cards ``values`` (the others are used; SK-TURN-2)."""
    from ..games.south_korea import EXPRESS_VALUES
    seat = _seat(state, seat)
    if not isinstance(values, (list, tuple)):
        raise TTRError(f"express cards: give a list such as [1, 3], got {values!r:.40} (SK-COMP-3)")
    bad = [x for x in values if type(x) is not int or x not in EXPRESS_VALUES]     # never 1.0 or True
    if bad or len(set(values)) != len(values):
        raise TTRError(f"express cards are +1, +2 and +3 (whole numbers), each once; got {list(values)!r:.60} "
                       "(SK-COMP-3)")
    return _set_ext(state, seat, "express", tuple(sorted(values)))


def set_province_train(editor, state: GameState, line: str, space: int, seat: int | None) -> GameState:
    """A train of ``seat`` on ``space`` of the ``line`` province line (None: the space is freed); the train comes
    from (or goes back to) its owner's supply (SK-PROV-5)."""
    from ..games.south_korea import province_lines, province_trains
    v = editor.variant
    lines = province_lines(v)
    if line not in lines:
        raise TTRError(f"there is no {line!r} province line (lines: {', '.join(lines)})")
    if type(space) is not int or space not in lines[line]:
        raise TTRError(f"the {line} line has spaces {lines[line][0]}–{lines[line][-1]}, not {space!r:.40}")
    trains = list(province_trains(state))
    players = list(state.players)
    for t in [t for t in trains if t[0] == line and t[1] == space]:
        trains.remove(t)
        players[t[2]] = replace_fields(players[t[2]], trains=players[t[2]].trains + 1)
    if seat is not None:
        seat = _seat(state, seat)
        trains.append((line, space, seat))
        players[seat] = replace_fields(players[seat], trains=players[seat].trains - 1)
    return replace_fields(state, players=tuple(players), ext=pairs_set(state.ext, "province", tuple(trains)))


def set_draft_hand(editor, state: GameState, seat: int, tickets: Sequence[str]) -> GameState:
    """While the draft runs: the tickets in ``seat``'s hand (as many as now; SK-SETUP-3). New cards come from
    the ticket deck and the replaced ones go back into it."""
    from ..board.names import find_ticket
    from ..board.state import Pending
    seat = _seat(state, seat)
    p = state.pending_for(seat) if state.pending else None
    if p is None or p.kind != "draft_pick":
        raise TTRError(f"{seat_name(seat)} holds no draft hand now (the draft is over or it has picked this round)")
    m = editor.map
    ids = [find_ticket(m, t).id for t in tickets]
    old = list(p.get("packet"))
    if len(ids) != len(old) or len(set(ids)) != len(ids):
        raise TTRError(f"{seat_name(seat)}'s draft hand holds {len(old)} different tickets; got {len(ids)}")
    decks = {name: list(ids_) for name, ids_ in state.ticket_decks}
    deck = editor.variant.settings.ticket_deck
    pile = decks.get(deck, [])
    for t in ids:
        if t not in old and t not in pile:
            raise TTRError(f"{find_ticket(m, t).a}–{find_ticket(m, t).b} is not in the ticket deck "
                           "(another player holds it)")
    pile = [t for t in pile if t not in ids] + [t for t in old if t not in ids]
    decks[deck] = pile
    data = tuple((k, tuple(ids) if k == "packet" else v) for k, v in p.data)
    pending = tuple(Pending(q.kind, q.seat, data) if q is p else q for q in state.pending)
    return replace_fields(state, pending=pending, ticket_decks=tuple(sorted((k, tuple(v)) for k, v in decks.items())))


# --------------------------------------------------------------------------------------------- the panels

class _Panel:
    title = ""

    def __init__(self, editor):
        self.editor = editor
        self.widget = widgets.VBox()

    def sync(self, state: GameState) -> None:       # the state's values into the inputs (the editor guards events)
        pass


class PassengersPanel(_Panel):
    title = "passengers & goods"

    def __init__(self, editor):
        super().__init__(editor)
        from ..games.maerklin import initial_goods, is_country
        v, n = editor.variant, editor.state.n_players
        cities = [c.name for c in v.map.cities if not is_country(v, c.name)]
        self.passenger_inputs = []
        rows = [widgets.HTML("<b>Passengers</b> (up to 3 per player, one per city, never in a country; MK-CLAIM-5)")]
        for seat in range(n):
            t = widgets.TagsInput(allowed_tags=cities, allow_duplicates=False)
            t.observe(lambda ch, seat=seat: editor._from_widget(editor.set_passengers, seat, ch["new"]), names="value")
            self.passenger_inputs.append(t)
            rows.append(widgets.HBox([widgets.Label(seat_name(seat), layout=widgets.Layout(width="70px")), t]))
        goods_cities = sorted(initial_goods(v))
        self.city = widgets.Dropdown(options=goods_cities, description="city", layout=widgets.Layout(width="220px"))
        self.left = widgets.BoundedIntText(min=0, max=4, description="tokens left",
                                           style={"description_width": "initial"}, layout=widgets.Layout(width="150px"))
        self.taker = widgets.Dropdown(options=[(seat_name(s), s) for s in range(n)] + [(_NOBODY, None)],
                                      description="taken by", layout=widgets.Layout(width="190px"))
        self.apply_button = widgets.Button(description="set stack", layout=widgets.Layout(width="auto"))
        self.apply_button.on_click(lambda _b: editor.set_goods(self.city.value, self.left.value, self.taker.value))
        self.city.observe(lambda _c: self.sync(editor.state), names="value")
        self.stacks = widgets.HTML()
        rows += [widgets.HTML("<b>Goods</b>: how many tokens a city's stack still holds; the tokens taken off go to "
                              "(or come back from) the player named (MK-PASS-4)"),
                 widgets.HBox([self.city, self.left, self.taker, self.apply_button],
                              layout=widgets.Layout(flex_flow="row wrap")), self.stacks]
        self.widget.children = rows

    def sync(self, state: GameState) -> None:
        from ..games.maerklin import DONE, RESERVE, goods_of, goods_stacks, initial_goods, leaving, passengers_of
        for seat, t in enumerate(self.passenger_inputs):
            standing = [w for w in passengers_of(state, seat) if w not in (RESERVE, DONE) and w in t.allowed_tags]
            if list(t.value) != standing:
                t.value = standing
        full = initial_goods(self.editor.variant)[self.city.value]
        self.left.max = len(full)
        self.left.value = len(goods_stacks(state)[self.city.value])
        gone = [f"{seat_name(s)}'s passenger in {c} has travelled and leaves at the end of the round (MK-PASS-6; "
                "setting the passengers above makes it a fresh one)" for c, s in sorted(leaving(state).items())]
        self.stacks.value = "<small>" + " · ".join(
            [f"{seat_name(s)} holds {', '.join(map(str, goods_of(state, s))) or 'no tokens'}"
             for s in range(state.n_players)] + gone) + "</small>"


class StationsPanel(_Panel):
    title = "stations"

    def __init__(self, editor):
        super().__init__(editor)
        n = editor.state.n_players
        self.city = widgets.Dropdown(options=[c.name for c in editor.map.cities], description="city",
                                     layout=widgets.Layout(width="220px"))
        self.owner = widgets.Dropdown(options=[(_NOBODY, None)] + [(seat_name(s), s) for s in range(n)],
                                      description="station of", layout=widgets.Layout(width="200px"))
        button = widgets.Button(description="set station", layout=widgets.Layout(width="auto"))
        button.on_click(lambda _b: editor.set_station(self.city.value, self.owner.value))
        self.built = widgets.HTML()
        self.widget.children = [widgets.HTML("<b>Train stations</b>: at most 3 per player, one per city "
                                             "(EU-STATION-1/2); the train-card cost is not replayed"),
                                widgets.HBox([self.city, self.owner, button], layout=widgets.Layout(flex_flow="row wrap")),
                                self.built]

    def sync(self, state: GameState) -> None:
        from ..games.europe import stations_of
        self.built.value = "<small>" + " · ".join(
            f"{seat_name(s)}: {', '.join(stations_of(state, s)) or 'none'}" for s in range(state.n_players)) + "</small>"


class TunnelPanel(_Panel):
    title = "tunnel"

    def __init__(self, editor):
        super().__init__(editor)
        tunnels = sorted((f"{r.a}–{r.b}", r.id) for r in editor.map.routes if r.tunnel)
        self.route = widgets.Dropdown(options=tunnels, description="tunnel", layout=widgets.Layout(width="280px"))
        self.payment = widgets.Text(value="red2", description="pays", layout=widgets.Layout(width="180px"))
        self.revealed = widgets.Text(value="red, blue, locomotive", description="turns up",
                                     layout=widgets.Layout(width="300px"))
        button = widgets.Button(description="start the tunnel claim", layout=widgets.Layout(width="auto"))
        button.on_click(lambda _b: editor.start_tunnel(self.route.value, self.payment.value,
                                                       [w.strip() for w in self.revealed.value.split(",")]))
        self.widget.children = [widgets.HTML("<b>A pending tunnel</b>: the player to move claims a tunnel and the "
                                             "three cards you name are turned up (EU-TUNNEL-1 … 3)"),
                                widgets.HBox([self.route, self.payment, self.revealed, button],
                                             layout=widgets.Layout(flex_flow="row wrap"))]


class ExpressPanel(_Panel):
    title = "express cards"

    def __init__(self, editor):
        super().__init__(editor)
        from ..games.south_korea import EXPRESS_VALUES
        self.boxes = []
        rows = [widgets.HTML("<b>Express cards</b> still unused (SK-TURN-2)")]
        for seat in range(editor.state.n_players):
            boxes = [widgets.Checkbox(description=f"+{e}", indent=False, layout=widgets.Layout(width="60px"))
                     for e in EXPRESS_VALUES]
            for b in boxes:
                b.observe(lambda _c, seat=seat: editor._from_widget(
                    editor.set_express, seat, [e for e, x in zip(EXPRESS_VALUES, self.boxes[seat]) if x.value]),
                    names="value")
            self.boxes.append(boxes)
            rows.append(widgets.HBox([widgets.Label(seat_name(seat), layout=widgets.Layout(width="70px")), *boxes]))
        self.widget.children = rows

    def sync(self, state: GameState) -> None:
        from ..games.south_korea import EXPRESS_VALUES, express_left
        for seat, boxes in enumerate(self.boxes):
            left = express_left(state, seat)
            for e, b in zip(EXPRESS_VALUES, boxes):
                if b.value != (e in left):
                    b.value = e in left


class ProvincePanel(_Panel):
    title = "province board"

    def __init__(self, editor):
        super().__init__(editor)
        from ..games.south_korea import province_lines
        lines = province_lines(editor.variant)
        n = editor.state.n_players
        self.line = widgets.Dropdown(options=list(lines), description="line", layout=widgets.Layout(width="180px"))
        self.space = widgets.BoundedIntText(value=1, min=1, max=max(max(s) for s in lines.values()),
                                            description="space", layout=widgets.Layout(width="150px"))
        self.owner = widgets.Dropdown(options=[(_NOBODY, None)] + [(seat_name(s), s) for s in range(n)],
                                      description="train of", layout=widgets.Layout(width="190px"))
        button = widgets.Button(description="set space", layout=widgets.Layout(width="auto"))
        button.on_click(lambda _b: editor.set_province_train(self.line.value, self.space.value, self.owner.value))
        self.widget.children = [widgets.HTML("<b>Province board</b>: a train on a space (from its owner's 45 trains; "
                                             "SK-PROV-3/5) — the board above the tabs shows the result"),
                                widgets.HBox([self.line, self.space, self.owner, button],
                                             layout=widgets.Layout(flex_flow="row wrap"))]


class DraftPanel(_Panel):
    title = "draft hands"

    def __init__(self, editor):
        super().__init__(editor)
        labels = [f"{t.a}–{t.b}" for t in editor.map.tickets]
        self.inputs = []
        rows = [widgets.HTML("<b>Draft hands</b> (while the draft runs: the tickets in front of each player; "
                             "SK-SETUP-3)")]
        for seat in range(editor.state.n_players):
            t = widgets.TagsInput(allowed_tags=labels, allow_duplicates=False)
            t.observe(lambda ch, seat=seat: editor._from_widget(editor.set_draft_hand, seat, ch["new"]), names="value")
            self.inputs.append(t)
            rows.append(widgets.HBox([widgets.Label(seat_name(seat), layout=widgets.Layout(width="70px")), t]))
        self.widget.children = rows

    def sync(self, state: GameState) -> None:
        m = self.editor.map
        for seat, t in enumerate(self.inputs):
            p = state.pending_for(seat) if state.pending else None
            held = [f"{m.ticket(x).a}–{m.ticket(x).b}" for x in p.get("packet")] if p is not None and \
                p.kind == "draft_pick" else []
            if list(t.value) != held:
                t.value = held


#: feature name -> the editor panel for it
PANELS = {"passengers": PassengersPanel, "stations": StationsPanel, "tunnels": TunnelPanel, "express": ExpressPanel,
          "province": ProvincePanel, "ticket_draft": DraftPanel}


def panels_for(editor) -> list[_Panel]:
    return [PANELS[f.name](editor) for f in editor.variant.features if f.name in PANELS]
