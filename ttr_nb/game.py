"""``Game``: the engine for people — push, undo, redo, jump, branch, history with events, save and load.

A game is a start state plus a line of actions. Moving back (``undo``, ``goto``) keeps the actions ahead as a
redo line; pushing a different action there does not throw that line away: the whole old line is kept in
``variations`` as (ply where it parted, every action from the start), and ``restore_variation`` brings it
back. Nothing a user played is ever lost.

Save files are JSON (``format: ttr_nb-game``, versioned), validated on load by replaying every action through
the rules, and written atomically (temp file + rename), so a crash never leaves half a file.

Loading is bounded: at most ``MAX_SAVE_BYTES`` read from a regular file (folders, devices and pipes are refused
without being opened), no duplicate keys, at most ``MAX_VARIATIONS`` (200) variations and ``MAX_REPLAY`` (20,000) actions to
replay in all (the main line plus every variation's own part). Saving keeps an existing file's permissions,
writes *through* a symbolic link (the link stays, its target gets the new content), and removes its temp file on
any failure; temp files a killed save left (``.NAME.XXXXXXXX.ttr_nb-tmp``) are removed by the next save
(``ttr_nb.files.write_atomic``).
"""
from __future__ import annotations

import html
import json
import os
import stat
from collections import deque
from pathlib import Path
from typing import Any, Iterable
from weakref import ref

from .board.actions import Action
from .board.engine import PUBLIC, Event, seat_name
from .errors import SaveFileError, TTRError
from .files import checked_path, new_file_mode, read_bounded, write_atomic
from .board.state import GameState
from .variants import get_game, rules_of

SAVE_FORMAT = "ttr_nb-game"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 20_000_000
MAX_ACTIONS = 20_000           # actions in one line (a whole game is a few hundred)
MAX_VARIATIONS = 200           # stored variations in one save file
MAX_REPLAY = 20_000            # actions replayed to load a file: the main line plus each variation's own part


class Ply:
    """One applied action: its canonical text, the words for it, and the rule-relevant events it caused.

    ``text`` (the record) and ``words`` are the teacher's view: a ``keep`` names the tickets kept. What one seat
    may read: ``words_for(viewer)`` ("Red keeps 2 tickets") and ``events_for(viewer)``.

    A ply keeps little: its number, seat and action, the ply before it and (every ``CHECKPOINT`` plies) the state
    after it. The state, the words and the events are worked out when asked for, from the state before (the
    nearest kept state, then the actions since, replayed without checking: they were checked when pushed); the
    events are kept once asked for. So a long game's history stays small (benchmarks/README.md: bytes per ply)."""

    __slots__ = ("number", "seat", "action", "_prev", "_state", "_events", "_rules", "__weakref__")

    def __init__(self, number: int, seat: int, action: Action, prev: "Ply | GameState", state, rules):
        self.number = number                  # 1-based: ply 1 is the first action
        self.seat = seat
        self.action = action
        self._prev = prev                     # the ply before, or the start state (for ply 1)
        self._state = state                   # dropped later unless number % CHECKPOINT == 0 (see Game.push)
        self._events = None
        self._rules = rules

    def __repr__(self) -> str:
        return f"<Ply {self.number} {self.text!r}>"

    def __eq__(self, other) -> bool:
        """The same action at the same ply, leading to the same state (as when a Ply was a plain value)."""
        if other.__class__ is not Ply:
            return NotImplemented
        return other is self or (self.number == other.number and self.seat == other.seat
                                 and self.action == other.action and self.state == other.state)

    def __hash__(self) -> int:
        return hash((self.number, self.seat, self.action))

    @property
    def text(self) -> str:
        return str(self.action)

    @property
    def before(self) -> GameState:
        """The state this ply's action was played in."""
        prev = self._prev
        return prev.state if prev.__class__ is Ply else prev

    @property
    def state(self) -> GameState:
        """The state after it."""
        state = self._state
        return state if state is not None else _replay(self)

    @property
    def words(self) -> str:
        return self._rules.describe(self.before, self.action)

    @property
    def public_words(self) -> str:
        """``words`` as every other seat may read them."""
        return self._rules.describe(self.before, self.action, PUBLIC)

    @property
    def events(self) -> tuple[Event, ...]:
        if self._events is None:
            self._events = tuple(self._rules.step(self.before, self.action, trusted=True)[1])
        return self._events

    def words_for(self, viewer: int | None) -> str:
        if viewer is None or viewer == self.seat:
            return self.words
        return self.public_words or self.words

    def events_for(self, viewer: int | None) -> list[str]:
        """The events' texts (with rule ids) as ``viewer`` may read them."""
        return [e.str_for(viewer) for e in self.events]


CHECKPOINT = 16         # a ply keeps the state after it every CHECKPOINT plies (and a few recent ones, see _replay)
_RECENT_SIZE = 64
_recent: deque = deque()         # weak references to the plies that keep a worked-out state for a while


def _replay(ply: Ply) -> GameState:
    """The state after ``ply``: from the nearest ply before it whose state is known, its actions replayed. The
    result stays with the ply until ``_RECENT_SIZE`` later ones are worked out (a scan of a history then costs one
    action per ply)."""
    todo = []
    p = ply
    while True:
        todo.append(p)
        prev = p._prev
        if prev.__class__ is not Ply:
            state = prev
            break
        if prev._state is not None:
            state = prev._state
            break
        p = prev
    apply = ply._rules.apply
    for p in reversed(todo):
        state = apply(state, p.action, trusted=True)
    ply._state = state
    _recent.append(ref(ply))
    if len(_recent) > _RECENT_SIZE:
        old = _recent.popleft()()
        if old is not None and old.number % CHECKPOINT:
            old._state = None
    return state


class Game:
    def __init__(self, variant: str = "usa", players: int = 4, seed: int = 0, *, first_player: int = 0,
                 start: GameState | None = None, **options):
        """``options``: a game's own settings, as its rules module lists them in ``GAME_OPTIONS`` (the Card Game:
        ``see_own_track=True``); they are part of the start state, so a save file keeps them."""
        # every rule goes through the game's rules module (the board engine, or the Card Game's own engine)
        if start is not None:
            self._rules = rules_of(start)
            self._rules.require_valid(start)
            self.start = start
        else:
            self._rules = rules_of(variant)
            known = getattr(self._rules, "GAME_OPTIONS", {})
            unknown = sorted(k for k in options if k not in known)
            if unknown:
                raise TTRError(f"{get_game(variant).name} has no option {unknown[0]!r}"
                               + (f" (its options: {', '.join(known)})" if known else ""))
            self.start = self._rules.new_game(variant, players, seed, first_player=first_player, **options)
        self._line: list[Ply] = []        # the current line, including plies ahead of the cursor (redo)
        self._cursor = 0                  # how many plies of the line are applied
        self._now: tuple = (None, None)   # (the ply at the cursor, its state): the state every view asks for
        self.variations: list[tuple[int, tuple[str, ...]]] = []   # (ply where it parted, its whole line of actions)

    # -- reading -------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        if not self._cursor:
            return self.start
        ply = self._line[self._cursor - 1]
        now = self._now
        if now[0] is ply:
            return now[1]
        state = ply.state
        self._now = (ply, state)
        return state

    @property
    def variant(self):
        return get_game(self.start.variant)

    @property
    def ply(self) -> int:
        return self._cursor

    @property
    def history(self) -> list[Ply]:
        """The plies played up to the current position (not the redo line ahead)."""
        return self._line[: self._cursor]

    @property
    def line(self) -> list[Ply]:
        """The whole line, including plies ahead of the cursor that ``redo`` would replay."""
        return list(self._line)

    def state_at(self, ply: int) -> GameState:
        self._check_ply(ply, len(self._line))
        if ply == self._cursor:
            return self.state
        return self._line[ply - 1].state if ply else self.start

    def actions(self) -> list[str]:
        return [p.text for p in self.history]

    @property
    def rules(self):
        """The rules module this game is played by (``ttr_nb.board.engine`` or ``ttr_nb.cardgame.engine``)."""
        return self._rules

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        return self._rules.legal_actions(self.state, seat)

    def to_move(self) -> tuple[int, ...]:
        return self._rules.to_move(self.state)

    def status(self, viewer: int | None = None) -> str:
        return self._rules.turn_status(self.state, viewer)

    def observe(self, seat: int | None = None) -> dict:
        return self._rules.observe(self.state, seat)

    def score(self):
        return self._rules.score(self.state)

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    def events(self) -> list[tuple[int, Event]]:
        """Every rule-relevant event so far, with the ply that caused it."""
        return [(p.number, e) for p in self.history for e in p.events]

    # -- moving --------------------------------------------------------------------------------
    def push(self, action: Action | str) -> Ply:
        """Apply an action (object or text). Illegal or malformed: raises, and the game is unchanged."""
        before = self.state
        r = self._rules
        # checked once (raises, changing nothing, if refused) and applied in the same pass
        new_state, act, seat = r.apply_checked(before, action)
        line = self._line
        cursor = self._cursor
        if cursor < len(line):
            if line[cursor].action == act:            # same as the redo line: just move forward
                self._cursor += 1
                return line[cursor]
            self.variations.append((cursor, tuple(p.text for p in line)))
            del line[cursor:]
        prev = line[-1] if cursor else self.start
        ply = Ply(cursor + 1, seat, act, prev, new_state, r)
        if cursor:                                 # the ply two back forgets its state (Ply keeps checkpoints only)
            older = prev._prev
            if older.__class__ is Ply and older.number % CHECKPOINT:
                older._state = None
        line.append(ply)
        self._cursor = cursor + 1
        self._now = (ply, new_state)
        return ply

    def push_many(self, actions: Iterable[Action | str]) -> None:
        """Push several actions; if one is refused, the game is left as it was before the first."""
        saved = (list(self._line), self._cursor, list(self.variations))
        try:
            for a in actions:
                self.push(a)
        except TTRError:
            self._line, self._cursor, self.variations = saved
            raise

    def undo(self) -> Ply | None:
        """Step back one ply (kept as the redo line). Returns the undone ply, or None at the start."""
        if not self._cursor:
            return None
        self._cursor -= 1
        return self._line[self._cursor]

    pop = undo

    def redo(self) -> Ply | None:
        if self._cursor >= len(self._line):
            return None
        self._cursor += 1
        return self._line[self._cursor - 1]

    def goto(self, ply: int) -> GameState:
        """Jump to any ply of the line (0 = the start); the plies ahead stay as the redo line."""
        self._check_ply(ply, len(self._line))
        self._cursor = ply
        return self.state

    def branch(self, ply: int | None = None) -> "Game":
        """A what-if copy of this game at ``ply`` (default: now). The copy is independent; this game is untouched."""
        ply = self._cursor if ply is None else ply
        self._check_ply(ply, len(self._line))
        g = Game.__new__(Game)
        g._rules = self._rules
        g.start = self.start
        g._line = list(self._line[:ply])
        g._cursor = ply
        g._now = self._now
        g.variations = []
        return g

    def restore_variation(self, index: int) -> None:
        """Make a stored variation the current line again (the line it replaces becomes a variation); the cursor
        goes to the end of the restored line."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.variations):
            raise TTRError(f"there is no variation {index!r}; this game has {len(self.variations)}")
        _, actions = self.variations[index]
        saved = (list(self._line), self._cursor, list(self.variations))
        current = tuple(p.text for p in self._line)
        common = 0
        while common < min(len(current), len(actions)) and current[common] == actions[common]:
            common += 1
        try:
            del self.variations[index]
            self._cursor = common
            del self._line[common:]
            for a in actions[common:]:
                self.push(a)
            if current[common:]:
                self.variations.append((common, current))
        except TTRError:
            self._line, self._cursor, self.variations = saved
            raise

    def play_bots(self, bots: dict[int, Any] | Any, *, until_seat: int | None = None, max_plies: int = 100_000) -> int:
        """Let bots play: ``bots`` maps seats to bots (or one bot for every seat). Stops when the game is over,
        when a seat without a bot must act, or (``until_seat``) when that seat is to act. Returns plies played."""
        if not isinstance(bots, dict):
            bots = {s: bots for s in range(self.state.n_players)}
        played = 0
        to_move = self._rules.to_move
        state = self.state
        while state.phase != "over" and played < max_plies:
            seats = to_move(state)
            if until_seat is not None and until_seat in seats:
                break
            seat = seats[0] if seats[0] in bots else next((s for s in seats if s in bots), None)
            if seat is None:
                break
            action, _reason = bots[seat].choose(state, seat)
            self.push(action)
            state = self.state      # (a push that follows the redo line moves the cursor without a new state)
            played += 1
        return played

    @staticmethod
    def _check_ply(ply: Any, top: int) -> None:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= top:
            raise TTRError(f"ply must be a whole number from 0 to {top}, got {ply!r}")

    # -- files ---------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        s = self.start
        fresh = self._rules.new_game(s.variant, s.n_players, s.seed, first_player=s.first_player)
        doc: dict[str, Any] = {
            "format": SAVE_FORMAT, "version": SAVE_VERSION, "variant": s.variant, "players": s.n_players,
            "seed": s.seed, "first_player": s.first_player,
            "actions": [p.text for p in self._line], "cursor": self._cursor,
            "variations": [{"parted_at": at, "actions": list(acts)} for at, acts in self.variations],
        }
        if s != fresh:
            doc["start"] = s.to_dict()      # an edited position: stored whole
        return doc

    def save(self, path: str | os.PathLike) -> Path:
        """Write the game to ``path`` atomically (a temp file in the same folder, renamed over it).

        An existing file keeps its permissions (a new one gets the usual ones, 0666 less the umask). A symbolic
        link is written *through*: its target gets the new content and the link stays a link. On any failure the
        temp file is removed, the old file is untouched and the error (an OSError) is raised. Temp files that
        earlier saves of the same file left when they were killed are removed (only those: see
        ``ttr_nb.files.clean_stale_temps``)."""
        try:
            name = checked_path(path)
        except TTRError as e:
            raise SaveFileError(f"{str(path)[:200]!r}: cannot save there ({e})") from None
        path = Path(name)
        target = Path(os.path.realpath(path)) if path.is_symlink() else path
        text = json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"
        try:
            st = os.stat(target)
        except FileNotFoundError:
            st = None
        except OSError as e:
            raise SaveFileError(f"{path}: cannot save there ({e.strerror or e})") from None
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise SaveFileError(f"{path}: is not a regular file (a folder, device or pipe): not overwritten")
        mode = stat.S_IMODE(st.st_mode) if st is not None else new_file_mode()
        write_atomic(target, text, mode)       # temp file made exclusively; leftovers of killed saves removed
        return path

    @classmethod
    def from_dict(cls, doc: Any, *, source: str = "save file") -> "Game":
        def bad(msg: str) -> SaveFileError:
            return SaveFileError(f"{source}: {msg}")

        if not isinstance(doc, dict):
            raise bad(f"must hold a JSON object, got {type(doc).__name__}")
        required = {"format", "version", "variant", "players", "seed", "first_player", "actions", "cursor", "variations"}
        missing = sorted(required - set(doc))
        if missing:
            raise bad(f"missing field(s): {', '.join(missing)}")
        extra = sorted(str(k) for k in set(doc) - required - {"start"})
        if extra:
            raise bad(f"unknown field(s): {', '.join(extra)}")
        if doc["format"] != SAVE_FORMAT:
            raise bad(f"'format' must be {SAVE_FORMAT!r}, got {str(doc['format'])[:40]!r}")
        if type(doc["version"]) is not int or doc["version"] != SAVE_VERSION:
            raise bad(f"version {str(doc['version'])[:20]!r} is not supported (this ttr_nb reads version {SAVE_VERSION})")
        for key, lo, hi in (("players", 1, 8), ("seed", 0, 2**63 - 1), ("first_player", 0, 7), ("cursor", 0, MAX_ACTIONS)):
            v = doc[key]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise bad(f"'{key}' must be a whole number from {lo} to {hi}, got {str(v)[:40]!r}")
        if not isinstance(doc["variant"], str):
            raise bad("'variant' must be text")
        try:
            get_game(doc["variant"])
        except TTRError as e:
            raise bad(str(e)) from None
        actions = doc["actions"]
        if not isinstance(actions, list) or len(actions) > MAX_ACTIONS or not all(isinstance(a, str) for a in actions):
            raise bad(f"'actions' must be a list of at most {MAX_ACTIONS} action texts")
        if doc["cursor"] > len(actions):
            raise bad(f"'cursor' {doc['cursor']} is beyond the {len(actions)} actions")
        variations = doc["variations"]
        if not isinstance(variations, list) or len(variations) > MAX_VARIATIONS:
            raise bad(f"'variations' must be a list of at most {MAX_VARIATIONS} variations")
        replay = len(actions)       # the loading cost: every action replayed (each variation from where it parts)
        try:
            if "start" in doc:
                rules = rules_of(doc["variant"])
                start = rules.state_from_dict(doc["start"])
                if (start.variant, start.n_players, start.seed) != (get_game(doc["variant"]).key, doc["players"], doc["seed"]):
                    raise bad("'start' does not match the variant, players and seed of the file")
                problems = rules.validate(start)
                if problems:
                    raise bad("the start position breaks the rules: " + "; ".join(problems))
                game = cls(start=start)
            else:
                game = cls(doc["variant"], doc["players"], doc["seed"], first_player=doc["first_player"])
        except SaveFileError:
            raise
        except TTRError as e:
            raise bad(str(e)) from None
        for i, text in enumerate(actions):
            try:
                game.push(text)
            except TTRError as e:
                raise bad(f"action {i + 1} ({text[:60]!r}) cannot be replayed: {e}") from None
        main = tuple(p.text for p in game._line)
        for j, var in enumerate(variations):
            if (not isinstance(var, dict) or set(var) != {"parted_at", "actions"} or isinstance(var["parted_at"], bool)
                    or not isinstance(var["parted_at"], int) or not isinstance(var["actions"], list)
                    or len(var["actions"]) > MAX_ACTIONS or not all(isinstance(a, str) for a in var["actions"])
                    or not 0 <= var["parted_at"] <= len(var["actions"])):
                raise bad(f"variations[{j}] must be {{'parted_at': ply, 'actions': [every action text of that line]}}")
            common = 0
            while common < min(len(main), len(var["actions"])) and main[common] == var["actions"][common]:
                common += 1
            replay += len(var["actions"]) - common
            if replay > MAX_REPLAY:
                raise bad(f"too many actions to replay: a save file may hold at most {MAX_REPLAY} actions in its "
                          f"main line and variations together (variations[{j}] goes beyond that)")
            probe = game.branch(common)
            try:
                probe.push_many(var["actions"][common:])
            except TTRError as e:
                raise bad(f"variations[{j}] cannot be replayed: {e}") from None
            game.variations.append((var["parted_at"], tuple(p.text for p in probe._line)))
        game._cursor = doc["cursor"]
        return game

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Game":
        """Read a save file (bounded, regular files only: see the module docstring) and replay it."""
        try:
            raw = read_bounded(path, MAX_SAVE_BYTES, "save file")
        except TTRError as e:
            shown = repr(str(path)[:200]) if "\x00" in str(path) else str(path)
            raise SaveFileError(f"{shown}: {e}") from None
        path = Path(path)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveFileError(f"{path}: not a text file (not UTF-8)") from None
        doc = read_json(text, str(path), damaged="the file may be truncated or damaged")
        return cls.from_dict(doc, source=str(path))

    # -- display -------------------------------------------------------------------------------
    def __repr__(self) -> str:
        s = self.state
        return (f"<Game {s.variant} {s.n_players} players seed={s.seed} ply {self._cursor}/{len(self._line)} "
                f"phase={s.phase}>")

    def _repr_html_(self) -> str:
        s = self.state
        if s.__class__ is not GameState:             # a game with its own rules module renders its own summary
            return rules_of(s).game_html(self)
        v = self.variant
        rows = []
        for i, p in enumerate(s.players):
            mark = "▶ " if i in self._rules.to_move(s) else ""
            rows.append(f"<tr><td>{mark}{html.escape(seat_name(i))}</td><td>{p.trains}</td><td>{p.route_points}</td>"
                        f"<td>{p.hand_size}</td><td>{len(p.tickets)}</td></tr>")
        market = ", ".join("—" if c is None else html.escape(_card(c)) for c in s.market)
        last = "".join(f"<li>{html.escape(p.words)}" + "".join(f" <em>— {html.escape(e.str_for(None))}</em>" for e in p.events
                                                               if e.kind != "claim") + "</li>" for p in self.history[-5:])
        warn = (f"<p style='color:#a40'><b>PROVISIONAL board:</b> {html.escape(v.map.provisional_note)}</p>"
                if v.map.provisional else "")
        return (f"<div><b>{html.escape(v.name)}</b> — {s.n_players} players, seed {s.seed}, ply {self._cursor}"
                f"{warn}<p>{html.escape(self._rules.turn_status(s))}</p>"
                f"<table><tr><th>player</th><th>trains</th><th>route points</th><th>cards</th><th>tickets</th></tr>"
                f"{''.join(rows)}</table><p>Face-up: {market} · deck {len(s.deck)} · discards {sum(s.discard)}</p>"
                f"{'<p>Last plies:</p><ol start=' + str(max(1, self._cursor - 4)) + '>' + last + '</ol>' if last else ''}</div>")


def read_json(text: str, source: str, *, damaged: str = "", noun: str = "save file") -> Any:
    """JSON text read as strictly as a save file (``Game.load``, the editors' JSON boxes): at most
    ``MAX_SAVE_BYTES`` characters, no key twice in one object, no NaN or Infinity, no nesting too deep to follow,
    no number too long to read. Any problem is a SaveFileError starting with ``source``."""
    if not isinstance(text, str):
        raise SaveFileError(f"{source}: JSON must be text, got {type(text).__name__}")
    if len(text) > MAX_SAVE_BYTES:
        raise SaveFileError(f"{source}: too large: {len(text)} characters; a {noun} may be at most {MAX_SAVE_BYTES}")
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        raise SaveFileError(f"{source}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
                            + (f"; {damaged}" if damaged else "")) from None
    except RecursionError:
        raise SaveFileError(f"{source}: the JSON is nested too deeply to be a {noun}") from None
    except ValueError as e:            # a duplicate key, NaN, or a number of thousands of digits
        if "integer string conversion" in str(e):
            raise SaveFileError(f"{source}: a number in it has thousands of digits: far too long to be part of a "
                                f"{noun}") from None
        raise SaveFileError(f"{source}: {e}") from None


def _card(kind: int) -> str:
    from .board.cards import CARD_NAMES
    return CARD_NAMES[kind]


def _reject_constant(name: str):
    raise ValueError(f"{name} is not allowed in a save file")


def _no_duplicates(pairs: list) -> dict:
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k[:40]!r} appears twice in one object; each field is named once")
        out[k] = v
    return out


__all__ = ["Game", "Ply", "SAVE_FORMAT", "SAVE_VERSION", "read_json"]
