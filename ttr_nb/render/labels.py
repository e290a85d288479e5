"""Where each city's name goes on a board: one of plotly's eight text positions around its marker, chosen so that
no name covers another name, a city marker or a goods token — at every size the board is drawn, from
its smallest size up to ``SCALES[-1]`` times that (a board is drawn as wide as its box: a play view beside its
side column draws it smaller than a wide notebook). Among the placements that keep those rules, names
go where they cover the fewest route spaces and click markers, above their city by preference.

How a name is measured (``label_box``): its width from a table of per-character advance widths (DejaVu Sans, the
widest of the sans-serif faces a browser picks for "Arial, Helvetica, sans-serif", measured in Chromium; kerning
only narrows a name), its height from the face's ascent and descent, and its place from plotly.js's own rule for
``textposition`` (the text stands ``radius / 0.8 + 1`` px from the marker's centre, the baseline set as in
``Drawing.textPointPosition``). Everything is in screen pixels around the city, y pointing up.

The search (``place_labels``) is deterministic: the most constrained city first, a depth-first search over the
positions that break no rule, then passes that move single names to cheaper positions while no rule breaks. It
runs once per board geometry (a few hundredths of a second) and is cached by ``board.py``.
"""
from __future__ import annotations

import bisect
import math
import unicodedata
from typing import Iterable, Mapping, NamedTuple, Sequence

#: plotly ``textposition`` -> (horizontal side: -1 left, 0 centred, +1 right; vertical: -1 below, 0 middle, +1 above;
#: preference cost). Above the city reads best, then below, then beside.
SLOTS: tuple[tuple[str, int, int, float], ...] = (
    ("top center", 0, 1, 0.0),
    ("bottom center", 0, -1, 0.5),
    ("middle right", 1, 0, 0.7),
    ("middle left", -1, 0, 0.7),
    ("top right", 1, 1, 1.0),
    ("top left", -1, 1, 1.0),
    ("bottom right", 1, -1, 1.2),
    ("bottom left", -1, -1, 1.2),
)
SLOT_NAMES = tuple(s[0] for s in SLOTS)

#: The sizes (times the smallest size the names are placed for) at which no name may cover another name or a marker:
#: a name keeps its px size while the board grows, so it must stay clear at every size, not only at the smallest.
SCALES: tuple[float, ...] = (1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0, 2.25, 2.5)

# Advance widths in em of DejaVu Sans (measured in Chromium with canvas measureText at 100 px). Letters with
# accents take their base letter's width (NFD); anything else counts as a full em.
_WIDTHS: dict[str, float] = {
    " ": 0.318, "'": 0.275, "(": 0.39, ")": 0.39, "-": 0.361, ".": 0.318, ",": 0.318, "/": 0.337, "&": 0.78,
    **{d: 0.636 for d in "0123456789"},
    "A": 0.684, "B": 0.686, "C": 0.698, "D": 0.77, "E": 0.632, "F": 0.575, "G": 0.775, "H": 0.752, "I": 0.295,
    "J": 0.295, "K": 0.656, "L": 0.557, "M": 0.863, "N": 0.748, "O": 0.787, "P": 0.603, "Q": 0.787, "R": 0.695,
    "S": 0.635, "T": 0.611, "U": 0.732, "V": 0.684, "W": 0.989, "X": 0.685, "Y": 0.611, "Z": 0.685,
    "a": 0.613, "b": 0.635, "c": 0.55, "d": 0.635, "e": 0.615, "f": 0.352, "g": 0.635, "h": 0.634, "i": 0.278,
    "j": 0.278, "k": 0.579, "l": 0.278, "m": 0.974, "n": 0.634, "o": 0.612, "p": 0.635, "q": 0.635, "r": 0.411,
    "s": 0.521, "t": 0.392, "u": 0.634, "v": 0.592, "w": 0.818, "x": 0.592, "y": 0.592, "z": 0.525,
    "ß": 0.636, "ø": 0.612, "Ø": 0.787, "æ": 0.981, "ł": 0.278, "Ł": 0.557,
}
ASCENT, DESCENT = 0.93, 0.24          # of the face, in em (accented capitals reach the ascent)
_SHADOW = 1.0                          # px: the white text shadow ("auto") around each glyph


def char_width(ch: str) -> float:
    """Advance width of ``ch`` in em (see ``_WIDTHS``)."""
    w = _WIDTHS.get(ch)
    if w is None:
        base = unicodedata.normalize("NFD", ch)[:1]
        w = _WIDTHS.get(base, 1.0)
    return w


def text_width(text: str, font_px: float) -> float:
    """Width in px of ``text`` at ``font_px`` (never less than the browser draws it)."""
    return sum(char_width(c) for c in text) * font_px


def text_offset(marker_size: float) -> float:
    """How far (px) plotly puts a text from the centre of a marker of ``marker_size`` px (``radius / 0.8 + 1``)."""
    return marker_size / 2 / 0.8 + 1 if marker_size else 0.0


def label_box(slot: str, text: str, font_px: float, marker_size: float) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) in px around the city's centre (y up) of ``text`` at plotly position ``slot``."""
    _name, hx, vy, _cost = SLOTS[SLOT_NAMES.index(slot)]
    w = text_width(text, font_px) + 2 * _SHADOW
    r = text_offset(marker_size)
    if hx == 0:
        x0 = -w / 2
    elif hx > 0:
        x0 = r - _SHADOW
    else:
        x0 = -r - w + _SHADOW
    # plotly's baseline below the centre (screen y down): top -0.25f - r, bottom 0.75f + r, middle 0.25f
    base = {1: -0.25 * font_px - r, -1: 0.75 * font_px + r, 0: 0.25 * font_px}[vy]
    top, bottom = base - ASCENT * font_px - _SHADOW, base + DESCENT * font_px + _SHADOW
    return (x0, -bottom, x0 + w, -top)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _circle_hits(box, cx: float, cy: float, r: float) -> bool:
    """Whether the circle (cx, cy, r) meets the box."""
    dx = max(box[0] - cx, 0.0, cx - box[2])
    dy = max(box[1] - cy, 0.0, cy - box[3])
    return dx * dx + dy * dy < r * r


class Placement(NamedTuple):
    """Where the names go (city -> plotly text position) and the rules that placement breaks (empty: none)."""
    slots: dict[str, str]
    broken: tuple[str, ...]


def place_labels(pos: Mapping[str, tuple[float, float]], *, upp: float, font_px: float,
                 marker_px: Mapping[str, float], marker_r: Mapping[str, float],
                 bounds: tuple[float, float, float, float],
                 lines: Iterable[Sequence[tuple[float, float]]] = (),
                 points: Sequence[tuple[float, float, float]] = (),
                 scales: Sequence[float] = SCALES, budget: int = 20000) -> Placement:
    """Place the names of the cities at ``pos`` (data units).

    ``upp``: data units per px at scale 1; ``font_px``: the names' size; ``marker_px``: each city's marker size
    (plotly's: it sets how far the name stands off); ``marker_r``: the radius (px) of what each city's marker
    covers; ``bounds``: (x0, y0, x1, y1) the names must stay inside (data units); ``lines``: polylines (route
    spaces) a name should not cover; ``points``: (x, y, radius px) of click markers a name should not cover.

    The rules — no name over another name or over another city's marker, every name inside ``bounds`` — are kept
    at every scale in ``scales``; when no placement keeps them all (within ``budget`` search steps), the one the
    greedy pass finds is returned with what it breaks."""
    names = sorted(pos)
    n_slots = len(SLOTS)
    # each candidate's box in data units at each scale
    boxes: dict[str, list[list[tuple[float, float, float, float]]]] = {}
    for name in names:
        cx, cy = pos[name]
        per_slot = []
        for slot in SLOT_NAMES:
            b = label_box(slot, name, font_px, marker_px.get(name, 0.0))
            per_slot.append([(cx + b[0] * upp / s, cy + b[1] * upp / s, cx + b[2] * upp / s, cy + b[3] * upp / s)
                             for s in scales])
        boxes[name] = per_slot
    # names close enough to meet (a name's box, or a marker it might cover, lies within ``reach`` of its city)
    reach = 2 * max((abs(v) for n in names for bx in boxes[n] for b in bx
                     for v in (b[0] - pos[n][0], b[2] - pos[n][0], b[1] - pos[n][1], b[3] - pos[n][1])), default=0.0)
    reach += max(marker_r.values(), default=0.0) * upp / min(scales)
    near: dict[str, list[str]] = {n: [] for n in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if abs(pos[a][0] - pos[b][0]) <= reach and abs(pos[a][1] - pos[b][1]) <= reach:
                near[a].append(b)
                near[b].append(a)

    def alone(name: str, k: int) -> str | None:
        """What candidate ``k`` of ``name`` breaks on its own (None: nothing)."""
        for si, s in enumerate(scales):
            b = boxes[name][k][si]
            if b[0] < bounds[0] or b[2] > bounds[2] or b[1] < bounds[1] or b[3] > bounds[3]:
                return f"{name} outside the board at {s:g}x"
            for other in near[name]:
                if _circle_hits(b, *pos[other], marker_r.get(other, 0.0) * upp / s):
                    return f"{name} over {other}'s marker at {s:g}x"
        return None

    valid = {name: [k for k in range(n_slots) if alone(name, k) is None] for name in names}
    # what each candidate costs: its preference, the route spaces and click markers it covers (at scale 1)
    samples: list[tuple[float, float]] = []
    for line in lines:
        for (x0, y0), (x1, y1) in zip(line, line[1:]):
            steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / (3 * upp)))
            samples.extend((x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps) for i in range(steps + 1))
    samples.sort()
    sample_x = [x for x, _y in samples]
    unit = min(range(len(scales)), key=lambda i: abs(scales[i] - 1.0))
    cost: dict[tuple[str, int], float] = {}
    m = 3 * upp
    for name in names:
        for k in range(n_slots):
            b = boxes[name][k][unit]
            lo, hi = bisect.bisect_left(sample_x, b[0] - m), bisect.bisect_right(sample_x, b[2] + m)
            covered = sum(1 for _x, y in samples[lo:hi] if b[1] - m <= y <= b[3] + m)
            cost[(name, k)] = (SLOTS[k][3] + 0.3 * covered
                               + 4.0 * sum(1 for x, y, r in points if _circle_hits(b, x, y, r * upp)))
    clash_cache: dict[tuple[str, int, str, int], bool] = {}

    def clash(a: str, ka: int, b: str, kb: int) -> bool:
        key = (a, ka, b, kb) if a < b else (b, kb, a, ka)
        hit = clash_cache.get(key)
        if hit is None:
            hit = clash_cache[key] = any(_overlap(x, y) for x, y in zip(boxes[a][ka], boxes[b][kb]))
        return hit

    # depth-first search: the city with the fewest open positions first, its cheapest position first
    choice: dict[str, int] = {}
    domains = {n: sorted(valid[n], key=lambda k: (cost[(n, k)], k)) for n in names}
    steps = [budget]

    def search(doms: dict[str, list[int]]) -> bool:
        if len(choice) == len(names):
            return True
        steps[0] -= 1
        if steps[0] < 0:
            return False
        name = min((n for n in names if n not in choice), key=lambda n: (len(doms[n]), n))
        for k in doms[name]:
            new = dict(doms)
            for other in near[name]:
                if other not in choice:
                    new[other] = [q for q in doms[other] if not clash(name, k, other, q)]
                    if not new[other]:
                        break
            else:
                choice[name] = k
                if search(new):
                    return True
                del choice[name]
        return False

    if not all(domains.values()) or not search(domains):
        # no placement keeps every rule: greedily, the fewest clashes
        choice.clear()
        for name in sorted(names, key=lambda n: (len(valid[n]), n)):
            options = domains[name] or sorted(range(n_slots), key=lambda k: (cost[(name, k)], k))
            choice[name] = min(options, key=lambda k: (sum(1 for o in near[name] if o in choice
                                                           and clash(name, k, o, choice[o])), cost[(name, k)], k))
    # improve: move single names to cheaper positions that clash with nothing
    for _round in range(4):
        moved = False
        for name in names:
            here = choice[name]
            for k in domains[name]:
                if cost[(name, k)] >= cost[(name, here)]:
                    break
                if not any(clash(name, k, o, choice[o]) for o in near[name]):
                    choice[name] = k
                    moved = True
                    break
        if not moved:
            break
    broken = []
    for name in names:
        why = alone(name, choice[name])
        if why is not None:
            broken.append(why)
        broken += [f"{name} over {o}'s name" for o in near[name] if name < o and clash(name, choice[name], o, choice[o])]
    return Placement({name: SLOT_NAMES[choice[name]] for name in names}, tuple(broken))


__all__ = ["SLOTS", "SLOT_NAMES", "SCALES", "Placement", "char_width", "text_width", "text_offset", "label_box",
           "place_labels"]
