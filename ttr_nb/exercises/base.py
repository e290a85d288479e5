"""The exercises' common parts: answers parsed from values or text, prompts, feedback and the base class."""
from __future__ import annotations

import html
import re
from typing import Any, Iterable, Sequence

from ..board.actions import payment_str
from ..board.cards import CARD_NAMES, LOCO
from ..errors import TTRError
from ..board.names import route_text, ticket_text
from ..rng import choice_index, stream
from ..board.state import GameState
from ..variants import Variant, get_variant



# --------------------------------------------------------------------------------------------- values

class Feedback(tuple):
    """``(ok, explanation)``: unpacks as a pair, is truthy only when ``ok``; ``rules`` lists the rule ids cited."""

    def __new__(cls, ok: bool, explanation: str, rules: Iterable[str] = ()):
        self = super().__new__(cls, (bool(ok), str(explanation)))
        self.rules = tuple(dict.fromkeys(r for r in rules if r))
        return self

    @property
    def ok(self) -> bool:
        return self[0]

    @property
    def explanation(self) -> str:
        return self[1]

    def __bool__(self) -> bool:
        return self[0]

    def __repr__(self) -> str:
        return f"Feedback(ok={self[0]}, explanation={self[1]!r})"

    def __str__(self) -> str:
        return ("Right. " if self[0] else "Not quite. ") + self[1]

    def _repr_html_(self) -> str:
        colour, mark = ("#17692e", "Right") if self[0] else ("#b00020", "Not quite")
        body = "<br>".join(html.escape(line) for line in self[1].split("\n"))
        return (f'<div style="border-left:4px solid {colour};padding:4px 10px;margin:4px 0">'
                f'<b style="color:{colour}">{mark}</b><br>{body}</div>')


class Prompt(str):
    """A question: plain text as a ``str``, HTML in Jupyter."""

    def __new__(cls, text: str, html_text: str | None = None):
        self = super().__new__(cls, text)
        self.html = html_text if html_text is not None else "<br>".join(html.escape(x) for x in text.split("\n"))
        return self

    def _repr_html_(self) -> str:
        return self.html


def _esc(x: Any) -> str:
    return html.escape(str(x))


def _prompt(title: str, lines: Sequence[str], question: str, how: str) -> Prompt:
    text = "\n".join([title, *lines, question, how])
    items = "".join(f"<li>{_esc(x)}</li>" for x in lines)
    return Prompt(text, f'<div class="ttr-exercise"><b>{_esc(title)}</b><ul style="margin:2px 0">{items}</ul>'
                        f"<p style=\"margin:2px 0\"><b>{_esc(question)}</b></p><small>{_esc(how)}</small></div>")


def _hand_words(hand: Sequence[int]) -> str:
    parts = [f"{n} {'locomotive' + ('s' if n != 1 else '') if k == LOCO else CARD_NAMES[k]}"
             for k, n in enumerate(hand) if n]
    return ", ".join(parts) or "no cards"


def _route_words(v: Variant, rid: str) -> str:
    r = v.map.route(rid)
    extra = []
    if r.tunnel:
        extra.append("tunnel")
    if r.ferry_locos:
        extra.append(f"ferry with {r.ferry_locos} locomotive symbol{'s' if r.ferry_locos != 1 else ''}")
    if r.double_group:
        extra.append("one track of a double route")
    return f"{route_text(v.map, r)} ({r.length}, {r.colour}{', ' + ', '.join(extra) if extra else ''})"


def _ticket_words(v: Variant, tid: str) -> str:
    t = v.map.ticket(tid)
    return f"{ticket_text(v.map, t)} ({t.points}{', long' if t.deck == 'long' else ''})"


def _pick(r, items: Sequence):
    return items[choice_index(r, len(items))]


def _int_between(r, lo: int, hi: int) -> int:
    return lo + choice_index(r, hi - lo + 1)


def _split(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,;]+", text.strip()) if w]


def _as_list(answer: Any) -> list:
    if answer is None:
        return []
    if isinstance(answer, str):
        return [answer]
    if isinstance(answer, (list, tuple, set, frozenset)):
        items = list(answer)
        return sorted(items, key=str) if isinstance(answer, (set, frozenset)) else items
    return [answer]


_NONE_WORDS = {"", "none", "nothing", "no", "-", "—", "[]", "()", "{}", "empty"}


def _bool_answer(answer: Any) -> bool | None:
    if isinstance(answer, bool):
        return answer
    if isinstance(answer, str):
        w = answer.strip().lower().rstrip(".!")
        if w in ("yes", "y", "true", "legal", "ok", "allowed", "1"):
            return True
        if w in ("no", "n", "false", "illegal", "not legal", "forbidden", "0"):
            return False
    return None


def _int_answer(answer: Any) -> int | None:
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int):
        return answer
    if isinstance(answer, float) and answer.is_integer():
        return int(answer)
    if isinstance(answer, str) and re.fullmatch(r"\s*[-+−]?\d+\s*(points?|cards?)?\s*", answer):
        return int(re.sub(r"[^\d+-]", "", answer.replace("−", "-")))
    return None


def _payment_hand(colour: str, n: int, locos: int) -> tuple[dict[str, int], str]:
    """({card: count}, payment text) for ``n`` cards of ``colour`` + ``locos`` locomotives."""
    hand = {k: c for k, c in ((colour, n), ("locomotive", locos)) if c}
    pay = tuple(sorted((CARD_NAMES.index(k), c) for k, c in hand.items()))
    return hand, payment_str(pay)


def _bot_game(variant: str, players: int, seed: int):
    """A whole game of greedy bots (deterministic for the seed), as a ``Game``."""
    from ..bots import GreedyBot
    from ..game import Game
    g = Game(variant, players=players, seed=seed)
    g.play_bots({s: GreedyBot(seed=seed * 10 + s) for s in range(players)})
    return g


# --------------------------------------------------------------------------------------------- the base class

class Exercise:
    """Base class: subclasses set ``kind`` and ``title`` and build ``state``/``seat`` in ``__init__``."""

    kind = ""
    title = ""
    #: the games it is built for (the first is its default)
    variants: tuple[str, ...] = ("usa", "europe")

    def __init__(self, seed: int = 0, variant: str = "usa"):
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise TTRError(f"an exercise seed is a whole number ≥ 0, got {seed!r}")
        self.seed = seed
        self.v: Variant = get_variant(variant)
        self.variant = self.v.key
        self.rng = stream(seed, f"exercise/{self.kind}/{self.variant}")
        self.state: GameState
        self.seat: int = 0

    # -- the protocol --------------------------------------------------------------------------
    def prompt(self) -> Prompt:
        raise NotImplementedError

    def check(self, answer: Any) -> Feedback:
        raise NotImplementedError

    def solution(self) -> Any:
        raise NotImplementedError

    def worked(self) -> str:
        """The solution in words (what ``check`` says to a right answer)."""
        return self.check(self.solution()).explanation

    # -- showing -------------------------------------------------------------------------------
    def highlight(self) -> list[tuple[str, list[str]]]:
        return []

    def trail(self) -> list[str]:
        return []

    def board(self, *, solution: bool = False, height: int = 520):
        """The position's board (plotly ``go.Figure``); ``solution=True`` also draws the answer where it is a
        set of routes (a trail, ticket paths)."""
        from ..board.engine import board_marks, seat_name as _name
        from ..render.board import board_figure
        marks = board_marks(self.state)
        return board_figure(self.v.map, owners=marks["owners"], closed=marks["closed"], stations=marks["stations"],
                            player_names=[_name(s) for s in range(self.state.n_players)],
                            highlight=self.highlight() if not solution else self.solution_highlight(),
                            trail=self.trail() if solution else (), height=height,
                            points_table=self.v.settings.route_points, goods=marks.get("goods"),
                            passengers=marks.get("passengers"), title=f"{self.title} — seed {self.seed}")

    def solution_highlight(self) -> list[tuple[str, list[str]]]:
        return self.highlight()

    def _repr_html_(self) -> str:
        return self.prompt().html

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed}, variant={self.variant!r})"

    def rule(self, rule_id: str) -> str:
        """``rule_id`` cited this variant's way (Europe: "EU-CLAIM-1/USA-CLAIM-1")."""
        return self.v.rule(rule_id)
