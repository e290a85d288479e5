"""``EditorView``: the state editor / sandbox.

Edit hands (one IntText per seat per card) and the discard pile, the face-up market (Dropdowns), claims (click a
route on the board: free → seat 0 → seat 1 → … → free), tickets per seat (TagsInput), whose turn it is and trains.
After every edit ``validate(state)`` runs and its problems are shown (or a green "valid position"). "play from here"
returns a ``Game(start=edited_state)`` only when the position is valid; "export" writes the position as JSON and
"import" reads pasted JSON through ``GameState.from_dict`` + ``validate`` — on bad input it says why and changes
nothing.

With ``keep_consistent`` (the checkbox, on by default) the edits keep the rest of the table in step: cards put
into a hand, the market or the discard pile come from the deck (cards taken out go to the bottom of the deck),
claiming moves trains and route points, a ticket given to a seat leaves its deck (or the seat that had it) and a
removed one goes to the bottom of its deck. The deck cannot give what it does not hold: then ``validate`` names the
problem. Claiming a route in the editor does not pay for it: take the cards out of the hand (``set_hand``) and put
them on the discard pile (``set_discard``), as a real claim does (USA-CLAIM-4).
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

import ipywidgets as widgets
from traitlets import TraitError

from ..board.cards import CARD_NAMES, card_words
from ..board.engine import seat_name, validate
from ..errors import StateError, TTRError
from ..game import Game, read_json
from ..board.state import FREE, GameState, replace_fields
from ..variants import get_variant
from ..render.panels import CARD_WORD
from . import editor_features
from ._common import own_view, BoardWidget, checked_seat, deck_take, MessageArea, OK_COLOUR, ERROR_COLOUR, esc, provisional_banner, status_html

_EMPTY = "(empty)"


def _listed(values, prefix: str = "") -> str:
    """A list as given to an edit, for its message — whatever was given (the edit itself refuses bad values)."""
    if isinstance(values, (list, tuple)):
        return ", ".join(f"{prefix}{x}" for x in values)
    return repr(values)[:40]


class EditorView:
    def __new__(cls, game=None, *args, **kwargs):
        own = own_view("EditorView", game) if cls is EditorView else None
        if own is not None:                 # a game with its own views (the Card Game) is shown by them
            return own(game, *args, **kwargs)
        return super().__new__(cls)

    def __init__(self, game_or_state: Game | GameState, *, keep_consistent: bool = True,
                 play_kwargs: Mapping[str, Any] | None = None, board_height: int | None = None):
        if isinstance(game_or_state, Game):
            state = game_or_state.state
        elif isinstance(game_or_state, GameState):
            state = game_or_state
        else:
            raise TypeError(f"EditorView needs a Game or a GameState, got {type(game_or_state).__name__}")
        self.state: GameState = state
        self.variant = get_variant(state.variant)
        self.map = self.variant.map
        self.play_kwargs = dict(play_kwargs or {})
        self.problems: list[str] = []
        self.games: list[Game] = []
        self.play_view = None
        self._syncing = False
        n = state.n_players
        kinds = len(state.players[0].hand)

        self.banner = widgets.HTML(provisional_banner(self.map))
        self.message = MessageArea()
        self.validity = widgets.HTML()
        self.status = widgets.HTML()
        self.keep_consistent = widgets.Checkbox(value=keep_consistent, indent=False,
                                                description="keep cards, trains and tickets consistent (use the decks)")
        self.board = BoardWidget(self.map, n_players=n, on_click=self.click_route, height=board_height)

        # hands: one IntText per seat per card kind
        self.hand_inputs: list[list[widgets.IntText]] = []
        rows = [widgets.HBox([widgets.Label("", layout=widgets.Layout(width="70px"))]
                             + [widgets.Label(CARD_WORD[k], layout=widgets.Layout(width="64px")) for k in range(kinds)])]
        for seat in range(n):
            inputs = []
            for k in range(kinds):
                w = widgets.IntText(value=state.players[seat].hand[k], layout=widgets.Layout(width="64px"),
                                    tooltip=f"{seat_name(seat)}'s {card_words(k)}")
                w.observe(lambda c, seat=seat, k=k: self._from_widget(self.set_hand, seat, k, c["new"]), names="value")
                inputs.append(w)
            self.hand_inputs.append(inputs)
            rows.append(widgets.HBox([widgets.Label(seat_name(seat), layout=widgets.Layout(width="70px"))] + inputs))
        # the discard pile, one IntText per card kind (the cards a claim or a station was paid with)
        self.discard_inputs: list[widgets.IntText] = []
        for k in range(kinds):
            w = widgets.IntText(value=state.discard[k], layout=widgets.Layout(width="64px"),
                                tooltip=f"{card_words(k)} on the discard pile")
            w.observe(lambda c, k=k: self._from_widget(self.set_discard, k, c["new"]), names="value")
            self.discard_inputs.append(w)
        rows.append(widgets.HBox([widgets.Label("discards", layout=widgets.Layout(width="70px"))] + self.discard_inputs))
        hands_box = widgets.VBox(rows)

        # market
        options = [_EMPTY] + list(CARD_NAMES[:kinds])
        self.market_inputs: list[widgets.Dropdown] = []
        for i, c in enumerate(state.market):
            d = widgets.Dropdown(options=options, value=_EMPTY if c is None else CARD_NAMES[c],
                                 description=f"slot {i + 1}", layout=widgets.Layout(width="190px"))
            d.observe(lambda ch, slot=i + 1: self._from_widget(self.set_market, slot, ch["new"]), names="value")
            self.market_inputs.append(d)
        market_box = widgets.HBox(self.market_inputs, layout=widgets.Layout(flex_flow="row wrap"))

        # tickets
        all_ids = [t.id for t in self.map.tickets]
        self.ticket_inputs: list[widgets.TagsInput] = []
        trows = []
        for seat in range(n):
            t = widgets.TagsInput(value=list(state.players[seat].tickets), allowed_tags=all_ids,
                                  allow_duplicates=False)
            t.observe(lambda ch, seat=seat: self._from_widget(self.set_tickets, seat, ch["new"]), names="value")
            self.ticket_inputs.append(t)
            trows.append(widgets.HBox([widgets.Label(seat_name(seat), layout=widgets.Layout(width="70px")), t]))
        tickets_box = widgets.VBox(trows + [widgets.HTML(
            "<small>Ticket ids: " + esc(", ".join(f"{t.id} {t.a}–{t.b}" for t in self.map.tickets)) + "</small>")])

        # whose turn, trains
        self.current_input = widgets.Dropdown(options=[(seat_name(s), s) for s in range(n)], value=state.current,
                                              description="whose turn")
        self.current_input.observe(lambda ch: self._from_widget(self.set_current, ch["new"]), names="value")
        self.trains_inputs: list[widgets.IntText] = []
        for seat in range(n):
            w = widgets.IntText(value=state.players[seat].trains, description=f"{seat_name(seat)} trains",
                                style={"description_width": "initial"}, layout=widgets.Layout(width="160px"))
            w.observe(lambda ch, seat=seat: self._from_widget(self.set_trains, seat, ch["new"]), names="value")
            self.trains_inputs.append(w)
        turn_box = widgets.VBox([self.current_input,
                                 widgets.HBox(self.trains_inputs, layout=widgets.Layout(flex_flow="row wrap"))])

        # json
        self.json_text = widgets.Textarea(placeholder="press export, or paste a position here and press import",
                                          layout=widgets.Layout(width="100%", height="14em"))
        self.export_button = widgets.Button(description="export")
        self.export_button.on_click(lambda _b: self.export())
        self.import_button = widgets.Button(description="import")
        self.import_button.on_click(lambda _b: self.import_json())
        json_box = widgets.VBox([widgets.HBox([self.export_button, self.import_button]), self.json_text])

        self.play_button = widgets.Button(description="play from here", button_style="success")
        self.play_button.on_click(lambda _b: self.play_from_here())
        self.result_box = widgets.VBox()
        # what the variant's features add (Märklin's passengers and goods, Europe's stations and tunnels)
        self.feature_panels = editor_features.panels_for(self)
        self.tabs = widgets.Tab(children=[widgets.VBox([turn_box, widgets.HTML(
            "<small>Click a route's marker on the board to cycle its owner: free → "
            + esc(" → ".join(seat_name(s) for s in range(n))) + " → free.</small>")]),
            hands_box, market_box, tickets_box, *[p.widget for p in self.feature_panels], json_box])
        for i, title in enumerate(["turn & trains", "hands", "market", "tickets",
                                   *[p.title for p in self.feature_panels], "JSON"]):
            self.tabs.set_title(i, title)
        self.widget = widgets.VBox([self.banner, self.status, self.validity, self.message.widget, self.keep_consistent,
                                    self.board.view, self.tabs, self.play_button, self.result_box])
        from .access import Access, accessible
        self.access = accessible(self.widget, Access()).children[-1]
        self.access.follow(self.message)
        self._after_edit()

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget)

    # ------------------------------------------------------------------------------------------------ edits
    def _from_widget(self, setter, *args) -> None:
        if not self._syncing:
            setter(*args)

    @property
    def consistent(self) -> bool:
        return bool(self.keep_consistent.value)

    def _card(self, card: int | str | None) -> int | None:
        """A card kind of this variant (None: an empty slot); TTRError for a card this game does not have."""
        if card is None or card == _EMPTY:
            return None
        kinds = self.variant.card_kinds
        names = ", ".join(CARD_NAMES[:kinds])
        if isinstance(card, str):
            from ..board.cards import CARD_ALIASES
            kind = CARD_ALIASES.get(card.lower())
            if kind is None:
                raise TTRError(f"unknown card {card[:40]!r} (cards: {names})")
            if kind >= kinds:                # Märklin's +4 and passenger cards in another game
                raise TTRError(f"{self.variant.name} has no {CARD_NAMES[kind]} cards (cards: {names})")
            return kind
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < kinds:
            raise TTRError(f"unknown card kind {card!r:.40} (kinds 0–{kinds - 1}: {names})")
        return card

    def _cards_of(self, card: int | str, count: int, pile: str) -> int:
        """The card kind of ``count`` cards of ``card`` for ``pile`` (its words in a refusal); TTRError if either is
        not one."""
        kind = self._card(card)
        if kind is None:
            raise TTRError(f"{pile} holds cards, not empty slots")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise TTRError(f"a card count must be a whole number ≥ 0, got {count!r}")
        return kind

    def _seat(self, seat: int) -> int:
        return checked_seat(self.state, seat)

    def _excess(self, state: GameState, kind: int) -> int:
        """How many more cards of ``kind`` are on the table than the game has (0 when conserved or short)."""
        total = state.deck.count(kind) + state.market.count(kind) + state.discard[kind]
        total += sum(p.hand[kind] for p in state.players)
        total += sum(f.held_cards(state).count(kind) for f in self.variant.features)
        return max(0, total - self.variant.deck_counts[kind])

    def set_hand(self, seat: int, card: int | str, count: int) -> bool:
        """Give ``seat`` exactly ``count`` cards of ``card`` (a name like "locomotive" or a kind index)."""
        try:
            seat, kind = self._seat(seat), self._cards_of(card, count, "a hand")
        except TTRError as e:
            self.message.refuse(e)
            self._sync_widgets()
            return False
        s = self.state
        p = s.players[seat]
        hand = list(p.hand)
        hand[kind] = count
        deck, short = self._deck_after(s, kind, count - p.hand[kind])
        players = list(s.players)
        players[seat] = replace_fields(p, hand=tuple(hand))
        return self._commit(replace_fields(s, players=tuple(players), deck=tuple(deck)),
                            f"{seat_name(seat)} now holds {count} {CARD_NAMES[kind]}" + short)

    def set_discard(self, card: int | str, count: int) -> bool:
        """Put exactly ``count`` cards of ``card`` on the discard pile (e.g. the cards a claim was paid with)."""
        try:
            kind = self._cards_of(card, count, "the discard pile")
        except TTRError as e:
            self.message.refuse(e)
            self._sync_widgets()
            return False
        s = self.state
        discard = list(s.discard)
        discard[kind] = count
        deck, short = self._deck_after(s, kind, count - s.discard[kind])
        return self._commit(replace_fields(s, discard=tuple(discard), deck=tuple(deck)),
                            f"the discard pile now holds {count} {CARD_NAMES[kind]}" + short)

    def _deck_after(self, s: GameState, kind: int, delta: int) -> tuple[list[int], str]:
        """The deck once ``delta`` cards of ``kind`` have gone onto the table (> 0: taken from the bottom of the deck)
        or come off it (< 0: back under the deck), and a note when the deck was short; unchanged when the edits
        are not kept consistent."""
        deck = list(s.deck)
        if not self.consistent or not delta:
            return deck, ""
        if delta > 0:
            got = deck_take(deck, kind, delta)
            return deck, (f" — the deck held only {got} more {CARD_NAMES[kind]}" if got < delta else "")
        # cards that were conjured up (the deck was short) vanish rather than grow the deck
        deck += [kind] * max(0, -delta - self._excess(s, kind))
        return deck, ""

    def set_market(self, slot: int, card: int | str | None) -> bool:
        """Put ``card`` (or None: empty) in face-up slot ``slot`` (1 = leftmost)."""
        s = self.state
        try:
            kind = self._card(card)
            if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= len(s.market):
                raise TTRError(f"face-up slots are numbered 1–{len(s.market)}, got {slot!r}")
        except TTRError as e:
            self.message.refuse(e)
            self._sync_widgets()
            return False
        market = list(s.market)
        old = market[slot - 1]
        market[slot - 1] = kind
        deck = list(s.deck)
        note = f"face-up slot {slot}: {CARD_NAMES[kind] if kind is not None else 'empty'}"
        if self.consistent and old != kind:
            if old is not None and not self._excess(s, old):
                deck.append(old)
            if kind is not None and not deck_take(deck, kind, 1):
                note += f" — the deck held no {CARD_NAMES[kind]}"
        return self._commit(replace_fields(s, market=tuple(market), deck=tuple(deck)), note)

    def set_owner(self, route_id: str, seat: int | None) -> bool:
        """Make ``seat`` (None: nobody) the owner of ``route_id``."""
        s = self.state
        try:
            r = self.map.route(route_id)
            if seat is not None:
                self._seat(seat)
        except TTRError as e:
            self.message.refuse(e)
            return False
        old = s.claims[r.index]
        new = FREE if seat is None else seat
        claims = list(s.claims)
        claims[r.index] = new
        players = list(s.players)
        if self.consistent and old != new:
            pts = self.variant.route_points(r.length)
            if old != FREE:
                p = players[old]
                players[old] = replace_fields(p, trains=p.trains + r.length, route_points=p.route_points - pts)
            if new != FREE:
                p = players[new]
                players[new] = replace_fields(p, trains=p.trains - r.length, route_points=p.route_points + pts)
        self.state = replace_fields(s, claims=tuple(claims), players=tuple(players))
        self.message.note(f"{r.a}–{r.b} ({r.id}): " + ("free" if new == FREE else f"claimed by {seat_name(new)}"))
        self._after_edit()
        return True

    def click_route(self, route_id: str) -> int | None:
        """Cycle the owner of ``route_id``: free → seat 0 → seat 1 → … → free. Returns the new owner."""
        try:
            r = self.map.route(route_id)
        except TTRError as e:
            self.message.refuse(e)
            return None
        old = self.state.claims[r.index]
        new = old + 1 if old + 1 < self.state.n_players else FREE
        self.set_owner(r.id, None if new == FREE else new)
        return None if new == FREE else new

    def set_tickets(self, seat: int, tickets: Sequence[str]) -> bool:
        """Give ``seat`` exactly these kept tickets (ids, in order)."""
        s = self.state
        try:
            seat = self._seat(seat)
            ids = []
            for t in tickets:
                tid = self.map.ticket(t).id
                if tid in ids:
                    raise TTRError(f"ticket {tid} is named twice")
                ids.append(tid)
        except TTRError as e:
            self.message.refuse(e)
            self._sync_widgets()
            return False
        old = s.players[seat].tickets
        players = list(s.players)
        decks = {name: list(v) for name, v in s.ticket_decks}
        out = list(s.tickets_out)
        if self.consistent:
            for tid in ids:
                if tid in old:
                    continue
                for name in decks:
                    if tid in decks[name]:
                        decks[name].remove(tid)
                if tid in out:
                    out.remove(tid)
                for other, p in enumerate(players):
                    if other != seat and tid in p.tickets:
                        players[other] = replace_fields(p, tickets=tuple(x for x in p.tickets if x != tid))
            for tid in old:
                if tid not in ids:
                    decks.setdefault(self.map.ticket(tid).deck, []).append(tid)
        players[seat] = replace_fields(players[seat], tickets=tuple(ids))
        self.state = replace_fields(s, players=tuple(players), tickets_out=tuple(out),
                                    ticket_decks=tuple(sorted((k, tuple(v)) for k, v in decks.items())))
        self.message.note(f"{seat_name(seat)}'s tickets: {', '.join(ids) or 'none'}")
        self._after_edit()
        return True

    def set_current(self, seat: int) -> bool:
        """Whose turn it is. (A pending second card of the previous player is dropped when keeping consistent.)"""
        s = self.state
        try:
            seat = self._seat(seat)
        except TTRError as e:
            self.message.refuse(e)
            self._sync_widgets()
            return False
        pending = s.pending
        if self.consistent and s.phase in ("play", "last_round"):
            pending = tuple(p for p in pending if not (p.kind == "second_card" and p.seat != seat))
        self.state = replace_fields(s, current=seat, pending=pending)
        self.message.note(f"{seat_name(seat)} is to play")
        self._after_edit()
        return True

    def set_trains(self, seat: int, trains: int) -> bool:
        s = self.state
        try:
            seat = self._seat(seat)
            if isinstance(trains, bool) or not isinstance(trains, int):
                raise TTRError(f"trains must be a whole number, got {trains!r}")
        except TTRError as e:
            self.message.refuse(e)
            self._sync_widgets()
            return False
        players = list(s.players)
        players[seat] = replace_fields(players[seat], trains=trains)
        self.state = replace_fields(s, players=tuple(players))
        self.message.note(f"{seat_name(seat)} has {trains} trains")
        self._after_edit()
        return True

    # ------------------------------------------------------------------------------------------------ feature edits
    def _feature_edit(self, feature: str, what: str, edit, *args) -> bool:
        if self.variant.feature(feature) is None:
            self.message.refuse(f"{self.variant.name} has no {feature}")
            return False
        try:
            state = edit(self, self.state, *args)
        except TTRError as e:
            self.message.refuse(e)
            self._sync_widgets()
            return False
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:     # a value of the wrong kind
            self.message.refuse(f"not a value this edit can use ({type(e).__name__}: {str(e)[:80]}); nothing changed")
            self._sync_widgets()
            return False
        return self._commit(state, what)

    def _commit(self, state: GameState, note: str) -> bool:
        """Make ``state`` the edited position and show it. Should showing it fail, the edit is undone, so the
        editor keeps working with the position it had (a refusal changes nothing)."""
        old = self.state
        self.state = state
        try:
            self._after_edit()
        except (TTRError, TraitError, TypeError, ValueError, KeyError, IndexError) as e:
            self.state = old
            self._after_edit()
            self.message.refuse(f"this edit cannot be shown ({type(e).__name__}: {str(e)[:80]}); nothing changed")
            return False
        self.message.note(note)
        return True

    def set_passengers(self, seat: int, cities: Sequence[str]) -> bool:
        """Märklin: ``seat``'s passengers stand in ``cities`` (at most 3, the rest in reserve)."""
        return self._feature_edit("passengers", f"{seat_name(seat) if isinstance(seat, int) else seat}'s passengers: "
                                  f"{_listed(cities) or 'all in reserve'}", editor_features.set_passengers,
                                  seat, cities)

    def set_goods(self, city: str, left: int, seat: int | None = None) -> bool:
        """Märklin: ``city``'s goods stack keeps ``left`` tokens; those taken off go to ``seat`` (and tokens put
        back come from it) while the editor keeps things consistent."""
        return self._feature_edit("passengers", f"{city}: {left} goods token{'s' if left != 1 else ''} left",
                                  editor_features.set_goods, city, left, seat)

    def set_station(self, city: str, seat: int | None) -> bool:
        """Europe: a train station of ``seat`` in ``city`` (None removes the station there)."""
        who = "no station" if seat is None else f"a station of {seat_name(seat) if isinstance(seat, int) else seat}"
        return self._feature_edit("stations", f"{city}: {who}", editor_features.set_station, city, seat)

    def start_tunnel(self, route: str, payment: str, revealed: Sequence[str]) -> bool:
        """Europe: the player to move claims tunnel ``route`` with ``payment`` and turns up ``revealed`` (3 cards):
        the tunnel then waits for its answer, as in a game."""
        return self._feature_edit("tunnels", f"tunnel {route}: turned up {_listed(revealed)}",
                                  editor_features.start_tunnel, route, payment, revealed)

    def set_express(self, seat: int, values: Sequence[int]) -> bool:
        """South Korea: ``seat`` still holds the express cards ``values`` (e.g. ``[1, 3]``)."""
        return self._feature_edit("express", f"express cards left: {_listed(values, '+') or 'none'}",
                                  editor_features.set_express, seat, values)

    def set_province_train(self, line: str, space: int, seat: int | None) -> bool:
        """South Korea: a train of ``seat`` on ``space`` of the ``line`` province line (None frees the space)."""
        return self._feature_edit("province", f"{line} line, space {space}: "
                                  + ("free" if seat is None else f"a train of {seat_name(seat) if isinstance(seat, int) else seat}"),
                                  editor_features.set_province_train, line, space, seat)

    def set_draft_hand(self, seat: int, tickets: Sequence[str]) -> bool:
        """South Korea, during the draft: the tickets in ``seat``'s hand (as many as it holds now)."""
        return self._feature_edit("ticket_draft", "draft hand changed", editor_features.set_draft_hand, seat, tickets)

    def set_state(self, state: GameState) -> bool:
        """Replace the position being edited (same variant and number of players)."""
        if (state.variant, state.n_players) != (self.state.variant, self.state.n_players):
            self.message.refuse(f"this editor edits {self.variant.name} with {self.state.n_players} players; the "
                                f"position is {state.variant} with {state.n_players} players — open a new EditorView")
            return False
        self.state = state
        self._after_edit()
        return True

    # ------------------------------------------------------------------------------------------------ checks
    def validate(self) -> list[str]:
        self.problems = validate(self.state)
        return self.problems

    @property
    def is_valid(self) -> bool:
        return not self.problems

    def play_from_here(self, *, open_view: bool = True) -> Game | None:
        """A new ``Game`` starting from the edited position — only when it is valid (else None, problems shown).
        ``open_view``: also show a ``PlayView`` of it below the editor."""
        problems = self.validate()
        if problems:
            self.message.refuse(f"cannot play from an invalid position ({len(problems)} problem"
                                f"{'s' if len(problems) != 1 else ''}): " + "; ".join(problems))
            return None
        try:
            game = Game(start=self.state)
        except TTRError as e:
            self.message.refuse(e)
            return None
        self.games.append(game)
        if open_view:
            from .playview import PlayView
            self.play_view = PlayView(game, **self.play_kwargs)
            self.result_box.children = (widgets.HTML("<hr><b>Playing from the edited position</b>"),
                                        self.play_view.widget)
        self.message.ok("a new game starts from this position")
        return game

    def export(self) -> str:
        """The position as JSON text (``json.dumps(state.to_dict())``), also put in the text box."""
        text = json.dumps(self.state.to_dict(), indent=1)
        self.json_text.value = text
        self.message.ok(f"exported the position ({len(text)} characters of JSON)")
        return text

    def import_json(self, text: str | None = None, *, allow_invalid: bool = False) -> bool:
        """Read a position from JSON text (default: the text box). On any problem — not JSON, not a state,
        another variant or player count, a position that breaks the rules (unless ``allow_invalid``) — say why
        and change nothing."""
        if text is None:
            text = self.json_text.value
        if not isinstance(text, str) or not text.strip():
            self.message.refuse("import: nothing to read — paste a position (JSON) into the text box")
            return False
        try:
            doc = read_json(text, "import", noun="position")    # as strict as a save file: no key twice ...
        except TTRError as e:
            self.message.refuse(f"{e}; nothing changed")
            return False
        try:
            state = GameState.from_dict(doc, n_kinds=self.variant.card_kinds)
        except (StateError, TTRError) as e:
            self.message.refuse(f"import: {e}; nothing changed")
            return False
        except (TypeError, ValueError, AttributeError) as e:       # defensive: hostile shapes
            self.message.refuse(f"import: not a position ({type(e).__name__}: {e}); nothing changed")
            return False
        if (state.variant, state.n_players) != (self.state.variant, self.state.n_players):
            self.message.refuse(f"import: this editor edits {self.state.variant} with {self.state.n_players} players; the "
                                f"position is {state.variant} with {state.n_players} players — open a new EditorView; "
                                "nothing changed")
            return False
        problems = validate(state)
        if problems and not allow_invalid:
            self.message.refuse("import: the position breaks the rules: " + "; ".join(problems) + "; nothing changed")
            return False
        if not self._commit(state, "imported"):
            return False
        self.message.ok("imported the position" + (" (with problems, see above)" if problems else ""))
        return True

    # ------------------------------------------------------------------------------------------------ refresh
    def _sync_widgets(self) -> None:
        """Put the state's values into the input widgets without triggering edits."""
        s = self.state
        self._syncing = True
        try:
            for seat, inputs in enumerate(self.hand_inputs):
                for k, w in enumerate(inputs):
                    if w.value != s.players[seat].hand[k]:
                        w.value = s.players[seat].hand[k]
            for k, w in enumerate(self.discard_inputs):
                if w.value != s.discard[k]:
                    w.value = s.discard[k]
            for i, d in enumerate(self.market_inputs):
                v = _EMPTY if s.market[i] is None else CARD_NAMES[s.market[i]]
                if d.value != v:
                    d.value = v
            for seat, t in enumerate(self.ticket_inputs):
                if list(t.value) != list(s.players[seat].tickets):
                    t.value = list(s.players[seat].tickets)
            for seat, w in enumerate(self.trains_inputs):
                if w.value != s.players[seat].trains:
                    w.value = s.players[seat].trains
            if self.current_input.value != s.current:
                self.current_input.value = s.current
            for panel in self.feature_panels:
                panel.sync(s)
        finally:
            self._syncing = False

    def _after_edit(self) -> None:
        s = self.state
        self._sync_widgets()
        problems = self.validate()
        if problems:
            items = "".join(f"<li>{esc(p)}</li>" for p in problems)
            self.validity.value = (f"<div style='color:{ERROR_COLOUR}'><b>{len(problems)} problem"
                                   f"{'s' if len(problems) != 1 else ''}:</b><ul style='margin:2px 0'>{items}</ul></div>")
        else:
            self.validity.value = f"<div style='color:{OK_COLOUR}'><b>This is a valid position</b></div>"
        self.play_button.disabled = bool(problems)
        self.play_button.tooltip = "the position has problems (see above)" if problems else "start a game from here"
        self.status.value = status_html(s, f" <span style='color:#555'>· phase {esc(s.phase)}, turn {s.turn}, move {s.ply}</span>")
        self.board.show(s, title=f"{self.map.name} — editor")


__all__ = ["EditorView"]
