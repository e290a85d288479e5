"""What changes from one variant to another — generated from the variants' data, never typed by hand.

    >>> from ttr_nb.compare import compare_variants
    >>> table = compare_variants("usa", "europe")
    >>> table["route points"].values
    ('1→1, 2→2, 3→4, 4→7, 5→10, 6→15', '1→1, 2→2, 3→4, 4→7, 6→15, 8→21')
    >>> table["route points"].rules
    ('USA-CLAIM-9', 'EU-CLAIM-2/USA-CLAIM-9')

Every row is computed from what the engine itself uses: the variant's ``Settings`` (trains, points table, setup
deals, where returned tickets go, end trigger, tie-break chain ...), its ``features`` (tunnels, ferries,
stations: their own one-line description, the extra turn actions and pending steps they add, and the scoring they
add, in the words each scoring feature builds from its own rule tables: ``score_words``), and its map
(``Map.summary()``: cities, routes, lengths, tunnels, ferries, tickets per deck, the train-card deck). Change a
setting on a copied ``Variant`` and the table follows. A cell that spells out how ttr_nb reads a rule where the book
is silent (the tie-break chain) names that interpretation (``Row.readings``): a table never passes off ttr_nb's
reading as the book's.

Rules layer: pure Python (``as_html`` writes plain HTML text; no plotly, no ipywidgets).
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from .variants import Feature, Variant, available_variants, get_variant, step_words
from .board.cards import CARD_NAMES, LOCO

__all__ = ["Row", "Comparison", "compare_variants", "as_html", "as_markdown", "interpretations",
           "interpretations_html"]


@dataclass(frozen=True)
class Row:
    """One thing the variants may differ in: a value (and the rule id it comes from) per variant."""

    section: str
    topic: str
    values: tuple[str, ...]
    rules: tuple[str, ...]        # "" where no rule id applies (map facts)
    # per variant: the rule ids (as that variant cites them) of ttr_nb's interpretations behind the value, "" if none
    readings: tuple[str, ...] = ()

    @property
    def same(self) -> bool:
        return len(set(self.values)) <= 1

    def to_dict(self, keys: Sequence[str] | None = None) -> dict:
        keys = keys or [f"v{i}" for i in range(len(self.values))]
        readings = self.readings or ("",) * len(self.values)
        out = {"section": self.section, "topic": self.topic}
        for k, value, rule, reading in zip(keys, self.values, self.rules, readings):
            out[k] = value
            out[f"{k} rule"] = rule
            out[f"{k} reading"] = reading
        out["same"] = self.same
        return out


@dataclass(frozen=True)
class Comparison:
    """The rows of ``compare_variants``: iterate, index by position or by topic (``table["trains"]``)."""

    variants: tuple[Variant, ...]
    rows: tuple[Row, ...]

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, key: int | str) -> Row:
        if isinstance(key, str):
            for r in self.rows:
                if r.topic == key:
                    return r
            raise KeyError(f"no row {key!r}; rows: {', '.join(r.topic for r in self.rows)}")
        return self.rows[key]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(v.key for v in self.variants)

    def differences(self) -> list[Row]:
        return [r for r in self.rows if not r.same]

    def to_dicts(self, only_differences: bool = False) -> list[dict]:
        rows = self.differences() if only_differences else self.rows
        return [r.to_dict(self.keys) for r in rows]

    def as_html(self, only_differences: bool = False, caption: str | None = None) -> "HTMLText":
        return as_html(self, only_differences=only_differences, caption=caption)

    def as_markdown(self, only_differences: bool = False) -> str:
        return as_markdown(self, only_differences=only_differences)

    def _repr_html_(self) -> str:
        return str(self.as_html())

    def __str__(self) -> str:
        return self.as_markdown()

    def __repr__(self) -> str:
        return (f"<Comparison {' vs '.join(self.keys)}: {len(self.rows)} rows, {len(self.differences())} differ "
                "(as_html(), as_markdown(), rows)>")


class HTMLText(str):
    """HTML that Jupyter displays as HTML; still an ordinary ``str``."""

    def _repr_html_(self) -> str:
        return str(self)


# --------------------------------------------------------------------------------------------- the rows

def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _join(items: Sequence[str], last: str = "and") -> str:
    items = list(items)
    if not items:
        return "—"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _lengths(lengths: Iterable[int]) -> str:
    """1, 2, 3, 4, 5, 6 → "1–6"; gaps listed: "1–4, 6, 8"."""
    xs = sorted(set(lengths))
    runs: list[list[int]] = []
    for x in xs:
        if runs and x == runs[-1][-1] + 1:
            runs[-1].append(x)
        else:
            runs.append([x])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def _deck_words(name: str) -> str:
    return {"regular": "regular"}.get(name, name)


def _deals(deals) -> str:
    return " + ".join(f"{n} {_deck_words(d)}" for d, n in deals)


def _returns(where: str) -> str:
    return {"bottom": "to the bottom of the ticket deck", "out": "out of the game (back in the box, unseen)"}.get(
        where, where)


def _tie_breaks(v: Variant) -> str:
    from .board.scoring import _TIE_BREAKS
    words = [_TIE_BREAKS[name][1] if name in _TIE_BREAKS else name for name in v.settings.tie_breaks]
    return "most points, then " + ", then ".join(words) + "; still tied: shared"


def _feature_line(f: Feature) -> str:
    """A feature's own one-line description: the first sentence of its class docstring."""
    doc = (type(f).__doc__ or "").strip().splitlines()
    return doc[0].strip().rstrip(".") if doc else f.name


def _feature_words(v: Variant, attr: str) -> str:
    """A feature's own words for a row it changes (South Korea's draft replaces the setup ticket choice)."""
    return "; ".join(w for f in v.features for w in [getattr(f, attr, "")] if w)


def _turn_choices(v: Variant) -> str:
    base = ["draw train cards", "claim a route", "draw destination tickets"]
    more = [w for f in v.features for w in getattr(f, "turn_words", ())]
    return _join(base + more, "or")


def _pending_steps(v: Variant) -> str:
    steps = ["second card (after a first card)", "choose tickets (after drawing)"]
    steps += [step_words(v, kind) for f in v.features for kind in f.pending_kinds]
    return "; ".join(steps)


def _score_lines(v: Variant) -> str:
    """The score lines the variant's features add on top of routes, tickets and the longest path, in the words each
    scoring feature builds from the tables its ``score`` uses (``score_words``: e.g. South Korea's province bonuses by
    player count) — read from the rules, not found by scoring a sample game (a 2-player sample hides most of it)."""
    words = []
    for f in v.features:
        if type(f).score is Feature.score:            # the feature adds nothing to the score sheet
            continue
        words.append(getattr(f, "score_words", "") or _feature_line(f))
    return "; ".join(words) or "—"


def _deck(v: Variant) -> str:
    counts = dict(v.map.deck)
    locos = counts.pop("locomotive", 0)
    extra = [f"{counts.pop(name)} {words}" for name, words in (("locoplus", "+4 locomotives"),
                                                                ("passenger", "passenger cards")) if name in counts]
    by_n: dict[int, list[str]] = {}
    for name, n in counts.items():
        by_n.setdefault(n, []).append(name)
    parts = [f"{n} × {len(names)} colours" if len(names) > 1 else f"{n} {names[0]}" for n, names in sorted(by_n.items())]
    if locos:
        parts.append(f"{locos} locomotives")
    return f"{sum(dict(v.map.deck).values())} = " + " + ".join(parts + extra)


def _tickets_by_deck(s: dict) -> str:
    decks = s["tickets_by_deck"]
    pts = s["ticket_points_by_deck"]
    return " + ".join(f"{n} {_deck_words(d)} ({pts[d]} points)" for d, n in sorted(decks.items(), key=lambda kv: kv[0] != "regular"))


def _colours(s: dict) -> str:
    cols = dict(s["colours"])
    gray = cols.pop("gray", 0)
    counts = sorted(set(cols.values()))
    if len(counts) == 1:
        text = f"{counts[0]} of each of {len(cols)} colours"
    else:
        text = ", ".join(f"{c} {n}" for c, n in cols.items())
    return f"{text} + {gray} gray"


def _reset_words(v: Variant) -> str:
    """USA-DRAW-6 and its variants: three face-up cards of one kind reset the row (three of a mix do not)."""
    n = v.settings.market_loco_limit
    kinds = ["locomotives" if k == LOCO else f"{CARD_NAMES[k]} cards" for k in v.settings.market_reset_kinds]
    return ", or ".join(f"{n} face-up {kind}" for kind in kinds) + (", reset them" if len(kinds) > 1 else " reset them")


def _doubles(v: Variant) -> str:
    triples = any(len(v.map.twins(r.id)) == 2 for r in v.map.routes)
    many = "two of a double or triple route" if triples else "both routes of a double"
    return f"one player never {many}; all used only with {v.settings.twin_min_players}+ players"


def _tracks(v: Variant) -> str:
    s = v.map.summary()
    triples = sum(1 for r in v.map.routes if len(v.map.twins(r.id)) == 2) // 3
    kinds = f"{s['double_groups'] - triples} double and {triples} triple routes" if triples else \
        f"{s['double_groups']} double routes"
    return f"{s['routes']} ({kinds})"


Getter = Callable[[Variant], str]

# (section, topic, value, base rule id or None). The rule id is cited the way each variant cites it
# (``Variant.rule``): Europe cites USA-CLAIM-9 as "EU-CLAIM-2/USA-CLAIM-9".
_ROWS: tuple[tuple[str, str, Getter, str | None], ...] = (
    ("Components", "players", lambda v: f"{v.settings.min_players}–{v.settings.max_players}", "USA-COMP-5"),
    ("Components", "trains per player", lambda v: str(v.settings.trains), "USA-COMP-2"),
    ("Components", "train cards", _deck, "USA-COMP-3"),
    ("Components", "ticket decks", lambda v: _tickets_by_deck(v.map.summary()), "USA-COMP-4"),
    ("Setup", "starting hand", lambda v: _plural(v.settings.start_hand, "train card"), "USA-SETUP-2"),
    ("Setup", "face-up cards", lambda v: f"{v.settings.market_size}; {_reset_words(v)}", "USA-DRAW-6"),
    ("Setup", "setup tickets", lambda v: _feature_words(v, "setup_words") or (
        f"deal {_deals(v.settings.setup_deals)}, keep at least {v.settings.setup_min_keep}"), "USA-SETUP-3"),
    ("Setup", "returned setup tickets", lambda v: _feature_words(v, "setup_returns_words")
     or _returns(v.settings.setup_returns), "USA-SETUP-3"),
    ("Setup", "undealt tickets", lambda v: (", ".join(f"the undealt {d} tickets leave the game"
                                                      for d in v.settings.decks_out_after_setup) or "—"), None),
    ("A turn", "turn choices", _turn_choices, "USA-TURN-1"),
    ("A turn", "steps inside a turn", _pending_steps, "USA-TURN-1"),
    ("A turn", "drawing tickets", lambda v: _feature_words(v, "ticket_draw_words") or (
        f"draw {v.settings.ticket_draw} from the {v.settings.ticket_deck} deck, keep at least "
        f"{v.settings.ticket_min_keep}; returns {_returns('bottom')}"), "USA-TICKET-2"),
    ("A turn", "double routes", _doubles, "USA-CLAIM-8"),
    ("A turn", "special routes and mechanics", lambda v: "; ".join(_feature_line(f) for f in v.features) or "—", None),
    ("A turn", "route points", lambda v: ", ".join(f"{k}→{p}" for k, p in sorted(v.settings.route_points.items())),
     "USA-CLAIM-9"),
    ("End and scoring", "end trigger", lambda v: f"{v.settings.end_trains} or fewer trains left: one more turn each",
     "USA-END-1"),
    ("End and scoring", "longest path bonus", lambda v: (f"+{v.settings.longest_bonus} (ties: each)"
                                                         if v.settings.longest_bonus else "—"), "USA-SCORE-3"),
    ("End and scoring", "other score lines", _score_lines, None),
    ("End and scoring", "tie-breaks", _tie_breaks, "USA-SCORE-4"),
    ("Map", "cities", lambda v: str(v.map.summary()["cities"]), None),
    ("Map", "routes (tracks)", lambda v: _tracks(v), None),
    ("Map", "route lengths on the map", lambda v: _lengths(v.map.summary()["lengths"]), None),
    ("Map", "route spaces", lambda v: str(v.map.summary()["total_length"]), None),
    ("Map", "route colours", lambda v: _colours(v.map.summary()), None),
    ("Map", "tunnels", lambda v: str(v.map.summary()["tunnels"]), None),
    ("Map", "ferries", lambda v: (lambda s: f"{s['ferries']} ({s['ferry_locos']} locomotive symbols)"
                                  if s["ferries"] else "0")(v.map.summary()), None),
    ("Map", "tickets", lambda v: (lambda s: f"{s['tickets']} worth {s['ticket_points']} points")(v.map.summary()), None),
)


# Rows whose value spells out how ttr_nb reads its rule where the book is silent (the tie-break chain: Europe's
# "fewest stations built", Märklin's "most goods tokens", "still tied: shared"): their cells name that reading.
_READ_ROWS = frozenset({"tie-breaks"})


def _rule(v: Variant, base: str | None) -> str:
    return v.rule(base) if base else ""


def _reading(v: Variant, cited: str) -> str:
    """The rule ids in a cell's citation ("EU-SCORE-3/USA-SCORE-4") that ttr_nb had to read where the variant's
    book is silent (its interpretations, the inherited ones included), joined by ", "; "" when the book settles all."""
    read = {row["rule"].rsplit("/", 1)[-1] for row in interpretations(v)}
    return ", ".join(i for i in cited.split("/") if i and i in read)


def compare_variants(*names: str | Variant, only_differences: bool = False) -> Comparison:
    """Rows comparing two (or more) variants; ``names`` are variant names/aliases or ``Variant`` objects.

    ``only_differences`` keeps the rows whose values differ. Without names: every registered variant.
    """
    variants = tuple(get_variant(n) for n in (names or available_variants()))
    if not variants:
        raise ValueError("compare_variants: name at least one variant")
    rows = []
    for section, topic, getter, base in _ROWS:
        rules = tuple(_rule(v, base) for v in variants)
        readings = tuple(_reading(v, rule) if topic in _READ_ROWS else "" for v, rule in zip(variants, rules))
        rows.append(Row(section, topic, tuple(getter(v) for v in variants), rules, readings))
    if only_differences:
        rows = [r for r in rows if not r.same]
    return Comparison(variants, tuple(rows))


# --------------------------------------------------------------------------------------------- output

def _table(c: Comparison | Iterable[Row]) -> tuple[tuple[str, ...], list[Row]]:
    if isinstance(c, Comparison):
        return tuple(v.name for v in c.variants), list(c.rows)
    rows = list(c)
    n = len(rows[0].values) if rows else 0
    return tuple(f"variant {i + 1}" for i in range(n)), rows


def as_html(comparison: Comparison | Iterable[Row], only_differences: bool = False,
            caption: str | None = None) -> HTMLText:
    """The comparison as an HTML table: one column per variant, rule ids in small print, rows that differ bold."""
    heads, rows = _table(comparison)
    if only_differences:
        rows = [r for r in rows if not r.same]
    td = "padding:3px 8px;border-bottom:1px solid #ddd;vertical-align:top;text-align:left;"
    out = ['<table class="ttr-compare" style="border-collapse:collapse;font-size:13px">']
    if caption:
        out.append(f'<caption style="text-align:left;font-weight:bold;padding:4px 0">{html.escape(caption)}</caption>')
    out.append("<thead><tr>" + "".join(f'<th style="{td}border-bottom:2px solid #888">{html.escape(h)}</th>'
                                       for h in ("", *heads)) + "</tr></thead><tbody>")
    section = None
    for r in rows:
        if r.section != section:
            section = r.section
            out.append(f'<tr><td colspan="{len(heads) + 1}" style="{td}background:#eee;font-weight:bold">'
                       f"{html.escape(section)}</td></tr>")
        weight = "" if r.same else "font-weight:bold;"
        cells = [f'<td style="{td}{weight}">{html.escape(r.topic)}</td>']
        for value, rule, reading in zip(r.values, r.rules, r.readings or ("",) * len(r.values)):
            note = rule + (f" · ttr_nb's reading: {reading}" if reading else "")
            small = f'<br><span style="font-size:11px;color:#595959">{html.escape(note)}</span>' if note else ""
            cells.append(f'<td style="{td}{"" if r.same else "background:#fff6d6;"}">{html.escape(value)}{small}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return HTMLText("".join(out))


def as_markdown(comparison: Comparison | Iterable[Row], only_differences: bool = False) -> str:
    heads, rows = _table(comparison)
    if only_differences:
        rows = [r for r in rows if not r.same]
    esc = lambda s: s.replace("|", "\\|")   # noqa: E731
    lines = ["| | " + " | ".join(esc(h) for h in heads) + " |", "|---" * (len(heads) + 1) + "|"]
    for r in rows:
        mark = "" if r.same else " *"
        readings = r.readings or ("",) * len(r.values)
        lines.append(f"| {esc(r.topic)}{mark} | " + " | ".join(
            esc(v) + (f" ({rule})" if rule else "") + (f" [ttr_nb's reading: {reading}]" if reading else "")
            for v, rule, reading in zip(r.values, r.rules, readings)) + " |")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------- interpretations

def _base_variants(v: Variant) -> list[Variant]:
    """Variants whose rules ``v`` builds on: those whose rule prefix names ``v.rule_map`` entries (Europe → USA)."""
    prefixes = []
    for base_id in v.rule_map:
        p = base_id.split("-", 1)[0]
        if p != v.rule_prefix and p not in prefixes:
            prefixes.append(p)
    out = []
    for key in available_variants():
        other = get_variant(key)
        if other.rule_prefix in prefixes and other.key != v.key:
            out.append(other)
    return out


def interpretations(variant: str | Variant) -> list[dict]:
    """Where the rule books are silent or ambiguous, what ttr_nb does: the variant's own interpretations, then
    those it inherits from the variant it builds on (cited the variant's way, e.g. "EU-DRAW-1/USA-DRAW-6")."""
    v = get_variant(variant)
    settled = dict(v.settled)                     # base-game readings this variant's own book settles
    own = {rule for rule, _ in v.interpretations}      # a variant's own reading of a base rule replaces the base's
    inherited = {(rule, text): base.key for base in _base_variants(v) for rule, text in base.interpretations
                 if rule not in settled and (rule not in own or (rule, text) in v.interpretations)}
    rows, seen = [], set()
    for rule, text in v.interpretations:          # a variant may list the base game's too: say where they come from
        rows.append({"rule": v.rule(rule), "from": inherited.get((rule, text), v.key), "what ttr_nb does": text})
        seen.add((rule, text))
    for (rule, text), key in inherited.items():
        if (rule, text) not in seen:
            rows.append({"rule": v.rule(rule), "from": key, "what ttr_nb does": text})
    return rows


def interpretations_html(variant: str | Variant) -> HTMLText:
    from .analysis import as_html as table_html
    v = get_variant(variant)
    return HTMLText(table_html(interpretations(v), caption=f"{v.name}: interpretations (the rule book is silent "
                                                           "or ambiguous)"))
