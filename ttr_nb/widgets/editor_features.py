"""What the ``EditorView`` edits beyond the base game: one panel per variant feature, found by the feature's name
(``PANELS``), so the editor itself names no game.

* ``passengers`` (Märklin): where each player's passengers stand, each city's goods stack and who holds the
  tokens taken from it;
* ``stations`` (Europe): a city's train station and its owner;
* ``tunnels`` (Europe): a tunnel claim waiting for its answer — played through the engine with the three cards
  you choose on top of the deck, so the pending step is exactly the one a game would reach.

Each edit is a pure function ``(editor, state, ...) -> GameState`` raising ``TTRError`` on bad input (the editor
then says why and changes nothing); the editor validates the result live like every other edit.
"""
from __future__ import annotations

from typing import Sequence

import ipywidgets as widgets

from ..actions import Claim, parse_payment
from ..cards import CARD_NAMES
from ..engine import apply, seat_name
from ..errors import TTRError
from ..state import GameState, pairs_get, pairs_set, replace_fields

_NOBODY = "nobody"


def _seat(state: GameState, seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_players:
        raise TTRError(f"there is no seat {seat!r} in this {state.n_players}-player game")
    return seat


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
        from ..games.maerklin import DONE, RESERVE, goods_of, goods_stacks, initial_goods, passengers_of
        for seat, t in enumerate(self.passenger_inputs):
            standing = [w for w in passengers_of(state, seat) if w not in (RESERVE, DONE) and w in t.allowed_tags]
            if list(t.value) != standing:
                t.value = standing
        full = initial_goods(self.editor.variant)[self.city.value]
        self.left.max = len(full)
        self.left.value = len(goods_stacks(state)[self.city.value])
        self.stacks.value = "<small>" + " · ".join(
            f"{seat_name(s)} holds {', '.join(map(str, goods_of(state, s))) or 'no tokens'}"
            for s in range(state.n_players)) + "</small>"


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


#: feature name -> the editor panel for it
PANELS = {"passengers": PassengersPanel, "stations": StationsPanel, "tunnels": TunnelPanel}


def panels_for(editor) -> list[_Panel]:
    return [PANELS[f.name](editor) for f in editor.variant.features if f.name in PANELS]
