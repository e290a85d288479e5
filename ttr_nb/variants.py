"""Variants are settings + features, looked up by name in a registry (no ``if variant == ...`` anywhere).

``Settings`` holds the numbers and tables of a rule book; a ``Feature`` is a small hook object for a mechanic
the base game lacks (tunnels, stations, passengers, express cards ...). The engine calls the hooks at fixed
points; the base game (USA) has no features at all.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Mapping

from .board.cards import BASE_KINDS, CARD_NAMES, LOCO
from .errors import TTRError

if TYPE_CHECKING:  # pragma: no cover
    from .board.maps import Map, Route
# "GameState" and "Pending" in the annotations below are ttr_nb.board.state's, named and not imported: the state module
# reads this registry (a saved state's card kinds and rules module), so importing it here would close a circle.


@dataclass(frozen=True)
class Settings:
    trains: int = 45                                   # USA-COMP-2
    min_players: int = 2                               # USA-COMP-5
    max_players: int = 5
    start_hand: int = 4                                # USA-SETUP-2
    market_size: int = 5
    market_loco_limit: int = 3                         # USA-DRAW-6: 3 face-up locomotives reset the market
    # USA-DRAW-8: with deck and discard pile empty no card may be drawn, face-up ones included (the Swedish book);
    # Märklin's book lets the face-up cards still be taken (MK-DRAW-1)
    faceup_without_deck: bool = False
    route_points: Mapping[int, int] = field(default_factory=lambda: {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15})
    setup_deals: tuple[tuple[str, int], ...] = (("regular", 3),)   # USA-SETUP-3
    setup_min_keep: int = 2
    setup_returns: str = "bottom"                      # "bottom" of the deck, or "out" of the game (Europe)
    decks_out_after_setup: tuple[str, ...] = ()        # Europe: the undealt long tickets leave the game
    ticket_deck: str = "regular"                       # where USA-TICKET-1 draws from
    ticket_draw: int = 3
    ticket_min_keep: int = 1                           # USA-TICKET-2
    end_trains: int = 2                                # USA-END-1
    longest_bonus: int = 10                            # USA-SCORE-3
    twin_min_players: int = 4                          # USA-CLAIM-8: both twins usable from this many players
    tie_breaks: tuple[str, ...] = ("tickets", "longest")   # USA-SCORE-4
    market_reset_kinds: tuple[int, ...] = (LOCO,)      # USA-DRAW-6 (Märklin adds passenger cards, MK-DRAW-4)
    # Wild cards: (card kind, shortest route it may pay for, rule id of that limit). Märklin adds its +4 locomotive.
    wilds: tuple[tuple[int, int, str], ...] = ((LOCO, 1, "USA-CLAIM-3"),)
    max_market_resets: int = 1000                      # a safety net only: the "cannot be avoided" test stops first


class Feature:
    """Hooks a mechanic into the engine. Every method has a do-nothing default.

    ``tx`` arguments are the engine's mutable transaction (``ttr_nb.board.engine.Tx``): a feature changes the state
    only through it, so a refused action changes nothing.
    """

    name: str = ""
    pending_kinds: tuple[str, ...] = ()               # pending sub-steps this feature owns
    step_words: dict[str, str] = {}                    # each of them in a learner's words (see ``step_words``)
    table_data: tuple[str, ...] = ()                   # the keys it keeps in GameState.ext (ttr_nb.board.featuredata)
    player_data: tuple[str, ...] = ()                  # ... and in each PlayerState.ext

    def setup(self, variant: "Variant", tx) -> None: ...

    def turn_actions(self, variant: "Variant", state: "GameState", seat: int) -> list:
        """Extra whole-turn actions (in defined order), e.g. building a station."""
        return []

    def pending_actions(self, variant: "Variant", state: "GameState", pending: "Pending") -> list:
        return []

    def handles(self, action) -> bool:
        """Whether this feature owns the action. Must depend only on the action's class (the answer is cached)."""
        return False

    def overrides(self, hook: str) -> bool:
        """Whether this feature has its own ``hook`` (e.g. "on_claim"): the engine asks only the features that do."""
        return getattr(type(self), hook) is not getattr(Feature, hook)

    def check(self, variant: "Variant", state: "GameState", action, seat: int) -> None:
        """Raise IllegalAction if ``action`` (one this feature handles) is illegal."""

    def apply(self, variant: "Variant", tx, action, seat: int) -> None: ...

    #: optional ``quick(variant, state, action, trusted) -> GameState | None`` for the feature's own actions: the
    #: state after a plainly legal, canonical action straight away (one legality check, no transaction; with
    #: ``trusted`` none: the engine made the action for this state). None whenever anything is out of the ordinary
    #: (a refusal, an event to word, the end of the game): ``check`` and ``apply`` then take it, with the same
    #: result (tests/test_engine_fastpaths.py compares the two on whole games). It is also asked for a plain
    #: ``Claim`` the feature takes over (``takes_claim``), with ``trusted`` set: the engine's own quick path has
    #: checked it as ``_plainly_legal`` would (a plain turn, the route, the payment, the twins, the hand).
    quick = None

    def on_claim(self, variant: "Variant", tx, seat: int, route: "Route", payment) -> bool:
        """Called before a claim takes effect; return True when the feature took over (e.g. a tunnel)."""
        return False

    def takes_claim(self, variant: "Variant", state: "GameState", seat: int, route: "Route") -> bool:
        """Whether ``on_claim`` may do more than claim the route and end the turn here (e.g. only for a tunnel):
        the engine's quick path claims the other routes itself. True unless a feature says otherwise."""
        return True

    def claim_payment_problem(self, variant: "Variant", route: "Route", payment) -> tuple[str, str] | None:
        """(reason, rule id) when a payment breaks a feature's rule (e.g. ferry locomotives), else None."""
        return None

    def claim_size_problem(self, variant: "Variant", route: "Route", size: int) -> tuple[str, str] | None:
        """(reason, rule id) for a plain claim paying ``size`` cards for a route of another length, when the
        feature has something to say (South Korea: more cards belong to a province placement); None: the usual."""
        return None

    def min_locos(self, route: "Route") -> int:
        return 0

    def trains_elsewhere(self, state: "GameState", seat: int) -> int:
        """Trains of ``seat`` the feature placed off the routes (for the train-count invariant)."""
        return 0

    def held_cards(self, state: "GameState") -> list[int]:
        """Card kinds the feature holds outside the usual piles (for conservation checks)."""
        return []

    def held_tickets(self, state: "GameState") -> list[tuple[str, str]]:
        """(ticket id, where in words) for tickets the feature holds outside decks, hands and offers (a draft)."""
        return []

    def ticket_dead_ends(self, variant: "Variant") -> frozenset[str] | None:
        """Places a ticket's path may end at but not pass through (Märklin's countries, MK-SCORE-2): the base
        scoring checks every ticket that way (``scoring.ticket_results``). None: no such places."""
        return None

    def score(self, variant: "Variant", state: "GameState", sheet: dict) -> None:
        """Adjust a score sheet in place (extra lines, ticket completion via borrowed routes ...)."""

    #: optional ``score_points(variant, state, completed) -> list[int]``, for a feature with its own ``score``: per
    #: seat, the points that ``score`` adds to the seat's total (its extra lines, tickets it turns complete), given
    #: each seat's tickets completed or not as the base scoring finds them (``completed[seat][k]``). With it the
    #: final score finds a sole winner from the totals and makes the breakdown only when read, as for a game
    #: without features (``scoring.score``); without it every breakdown is made at once.
    score_points = None

    def data_problems(self, variant: "Variant", state: "GameState") -> list[str]:
        """What is malformed in this feature's own data (``table_data``/``player_data`` values, its pending steps'
        data): types and shapes only, in words. ``validate`` runs it before anything reads the data, so a crafted
        save is refused with words, never a raw TypeError (``ttr_nb.board.featuredata``)."""
        return []

    def validate(self, variant: "Variant", state: "GameState", problems: list[str]) -> None: ...

    def observe(self, variant: "Variant", state: "GameState", seat: int | None, view: dict) -> None: ...

    #: optional ``quick_round_end(variant, players) -> players``: ``on_round_end``'s effect on the players (a
    #: tuple of PlayerState) of a turn that ends a round on a quick path, for features that act then; without it
    #: the engine's quick paths leave such a turn to the general path whenever ``acts_at_round_end``.
    quick_round_end = None

    def on_round_end(self, variant: "Variant", tx) -> None:
        """Called when a round of turns ends (the seat before the first player finished its turn) and when the game
        ends (e.g. Märklin: the passengers that travelled this round leave the game, MK-PASS-6)."""

    def acts_at_round_end(self, variant: "Variant", state: "GameState") -> bool:
        """Whether ``on_round_end`` would change anything after a plain draw or claim in ``state`` (the engine's quick
        path ends the round itself when no feature would). True unless a feature says otherwise."""
        return True

    def after_setup(self, variant: "Variant", tx) -> None:
        """Called once when the last initial ticket choice is made, before play starts (e.g. reshuffling decks)."""

    #: optional ``quick_after_setup(variant, seed, decks) -> None``: ``after_setup``'s effect on the ticket decks
    #: (``decks``: name -> tuple of ids, changed in place), for features whose ``after_setup`` changes nothing else;
    #: without it the engine's quick path leaves the last initial ticket choice to the general path.
    quick_after_setup = None

    def board_marks(self, variant: "Variant", state: "GameState", marks: dict) -> None:
        """Add public board marks (e.g. marks["stations"][city] = seat) for plots."""


@dataclass(frozen=True)
class Variant:
    key: str
    name: str
    map_key: str
    rule_prefix: str                                   # "USA", "EU", ...
    settings: Settings = field(default_factory=Settings)
    features: tuple[Feature, ...] = ()
    aliases: tuple[str, ...] = ()
    rule_map: Mapping[str, str] = field(default_factory=dict)   # base rule family -> this variant's id ("USA-DRAW" -> "EU-DRAW-1")
    description: str = ""
    card_kinds: int = BASE_KINDS                       # card kinds 0..card_kinds-1 of cards.CARD_NAMES
    # Where the rule book is silent or ambiguous: (rule id, what ttr_nb does). Shown to users (notebooks, README).
    interpretations: tuple[tuple[str, str], ...] = ()
    # Base-game interpretations that do not hold here, and why — this game's own rule book settles the question, or
    # the rule they read does not exist here: (base rule id, why). ``compare.interpretations`` leaves them out.
    settled: tuple[tuple[str, str], ...] = ()
    rules: str = "ttr_nb.board.engine"                        # the module implementing the protocol (see rules_of)
    # optional ``bot_idle(variant, state, seat) -> bool``: True only when no feature has a turn action of its own for
    # ``seat`` (every ``bot_random`` / ``turn_actions`` empty, nothing drawn). The random bot then skips asking them:
    # one quick test for turns where they find nothing (Märklin late in a game, ``games.maerklin``).
    bot_idle: Callable[["Variant", "GameState", int], bool] | None = None

    @property
    def provisional(self) -> bool:
        return self.map.provisional

    @property
    def provisional_note(self) -> str:
        return self.map.provisional_note

    @property
    def summary(self) -> str:
        return f"map {self.map_key}"

    @cached_property
    def map(self) -> "Map":
        from .board.maps import load_map
        return load_map(self.map_key)

    def rule(self, rule_id: str) -> str:
        """This variant's citation for a base rule: for Europe, USA-DRAW-4 is cited as "EU-DRAW-1/USA-DRAW-4"."""
        if rule_id.startswith(self.rule_prefix + "-"):
            return rule_id
        family = rule_id.rsplit("-", 1)[0]
        own = self.rule_map.get(rule_id) or self.rule_map.get(family)
        return f"{own}/{rule_id}" if own else rule_id

    def route_points(self, length: int) -> int:
        return self.settings.route_points.get(length, 0)

    def feature_for(self, action) -> Feature | None:
        """The feature that handles this kind of action (None: a base action). Cached per action class."""
        cache = self._feature_by_class
        try:
            return cache[action.__class__]
        except KeyError:
            found = cache[action.__class__] = next((f for f in self.features if f.handles(action)), None)
            return found

    @cached_property
    def _feature_by_class(self) -> dict:
        return {}

    @cached_property
    def quick_paths(self) -> dict:
        """action class -> the engine's quick path for it here, or None (filled by ``board.engine._quick_path``)."""
        return {}

    def pending_feature(self, kind: str) -> Feature | None:
        """The feature that owns pending steps of ``kind`` (the first that names it; None: a base step)."""
        return self._feature_by_pending.get(kind)

    @cached_property
    def _feature_by_pending(self) -> dict[str, Feature]:
        return {kind: f for f in reversed(self.features) for kind in f.pending_kinds}

    def feature(self, name: str) -> Feature | None:
        for f in self.features:
            if f.name == name:
                return f
        return None

    @cached_property
    def route_table(self):
        """Per-route arrays and bit masks for the hot loop (``ttr_nb.board.tables.RouteTable``)."""
        from .board.tables import RouteTable
        return RouteTable(self)

    @cached_property
    def deck_counts(self) -> tuple[int, ...]:
        counts = [0] * self.card_kinds
        for name, n in self.map.deck:
            counts[CARD_NAMES.index(name)] = n
        return tuple(counts)


_REGISTRY: dict[str, Variant] = {}    # board variants, and games with their own rules engine (ttr_nb.games.cardgame)
_ALIASES: dict[str, str] = {}


#: the base game's pending sub-steps in a learner's words (features name theirs in ``Feature.step_words``)
BASE_STEP_WORDS = {"second_card": "take a second card", "choose_tickets": "choose tickets"}


def step_words(variant: "Variant", kind: str) -> str:
    """A pending sub-step of ``variant`` in a learner's words ('announce a ticket mix (at setup)'), never its id."""
    for f in getattr(variant, "features", ()):
        if kind in f.step_words:
            return f.step_words[kind]
    return BASE_STEP_WORDS.get(kind, kind.replace("_", " "))


def register(variant):
    """Register a board ``Variant`` or another game's registry entry (an object with ``key``, ``aliases``, ``name``
    and ``rules``, the module that implements the engine protocol for it)."""
    _REGISTRY[variant.key] = variant
    for name in (variant.key, *variant.aliases):
        _ALIASES[name.lower()] = variant.key
    return variant


def get_game(name):
    """The registry entry of any game: a board ``Variant``, or another game's entry (the Card Game)."""
    if not isinstance(name, str) and hasattr(name, "rules"):
        return name
    hit = _REGISTRY.get(name)             # fast path: the state's own key
    if hit is not None:
        return hit
    _load_builtin()
    key = _ALIASES.get(str(name).strip().lower())
    if key is None:
        raise TTRError(f"unknown variant {name!r}; known: {', '.join(available_games())}")
    return _REGISTRY[key]


def get_variant(name: "str | Variant") -> Variant:
    """A board variant (``get_game`` also finds games without a board)."""
    if isinstance(name, Variant):
        return name
    hit = _REGISTRY.get(name)
    if hit is None:
        hit = get_game(name)
    if not isinstance(hit, Variant):
        raise TTRError(f"{hit.key!r} ({hit.name}) is not a board variant: it has its own rules engine ({hit.rules})")
    return hit


def available_variants() -> list[str]:
    """The board variants (every board has a ``Map``)."""
    _load_builtin()
    return sorted(k for k, v in _REGISTRY.items() if isinstance(v, Variant))


def available_games() -> list[str]:
    """Every registered game: the board variants and the games with their own rules engine."""
    _load_builtin()
    return sorted(_REGISTRY)


_RULES: dict[str, object] = {}


def rules_of(name) -> object:
    """The rules module of a game (by key, alias, entry or state): ``ttr_nb.board.engine`` for the board variants,
    ``ttr_nb.cardgame.engine`` for the Card Game. Every module has the protocol's functions (new_game,
    legal_actions, apply, step, check, explain, to_move, observe, validate, turn_status, describe, score ...)."""
    key = getattr(name, "variant", name)
    mod = _RULES.get(key) if isinstance(key, str) else None
    if mod is None:
        import importlib
        mod = importlib.import_module(get_game(key).rules)
        if isinstance(key, str):
            _RULES[key] = mod
    return mod


def bots_of(name) -> object:
    """The bot maker ``bot(kind, seed)`` of a game with its own rules engine (by key, alias, entry or state), from
    the module its registry entry names (``bots``): the bots use the rules, so the rules module cannot name them."""
    key = getattr(name, "variant", name)
    make = _BOTS.get(key) if isinstance(key, str) else None
    if make is None:
        entry = get_game(key)
        module = getattr(entry, "bots", "")
        if not module:
            raise KeyError(f"{entry.name} plays with the board bots of ttr_nb.bots")
        import importlib
        make = importlib.import_module(module).bot
        if isinstance(key, str):
            _BOTS[key] = make
    return make


_BOTS: dict[str, object] = {}


_BUILTIN = ("usa", "europe", "south_korea", "cardgame", "maerklin")   # modules under ttr_nb.games that register the shipped variants
_loaded = False


def _load_builtin() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        import importlib
        for module in _BUILTIN:
            importlib.import_module(f"ttr_nb.games.{module}")


__all__ = ["Settings", "Feature", "Variant", "register", "get_variant", "get_game", "available_variants",
           "available_games", "rules_of", "bots_of"]
