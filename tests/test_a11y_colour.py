"""Contrast and colour vision, computed from the palette (issue 21, item 4).

* Every text colour ttr_nb writes (CSS in its HTML, the face-up buttons, the card chips, the message colours) reads
  at least 4.5:1 on the background it sits on (WCAG 2.1 AA, 1.4.3); the focus ring 3:1 (1.4.11).
* Route colours: for protanopia, deuteranopia and tritanopia (Machado et al. 2009), every pair of route colours is
  at least 10 apart (CIEDE2000), or the board carries a non-colour cue on every route: each space of an open route
  shows its colour's own shape. The "you can claim" glow is at least 10 from every route colour for every eye.
* The colour maths itself is checked against published values (Sharma et al. 2005's CIEDE2000 test pairs, WCAG's
  black/white ratio), so a wrong formula cannot pass these tests.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ttr_nb.render import palette
from ttr_nb.render.palette import (DEFICIENCIES, MIN_DELTA_E, NON_TEXT_CONTRAST, TEXT_CONTRAST, blend, ciede2000,
                                   confusable_pairs, contrast_ratio, delta_e, ink_on, simulate)

PACKAGE = Path(__file__).resolve().parents[1] / "ttr_nb"
WHITE = "#ffffff"


# --------------------------------------------------------------------------------------------- the maths
@pytest.mark.parametrize("lab1, lab2, expected", [
    # Sharma, Wu & Dalal (2005), table 1: pairs 1, 2, 7, 17, 25
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_ciede2000_matches_the_published_test_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_contrast_ratio_is_wcags():
    assert contrast_ratio("#000000", WHITE) == pytest.approx(21.0)
    assert contrast_ratio(WHITE, WHITE) == pytest.approx(1.0)
    assert contrast_ratio("#777777", WHITE) == pytest.approx(4.48, abs=0.01)     # the classic "just fails"
    with pytest.raises(ValueError, match="not a hex colour"):
        contrast_ratio("red", WHITE)


def test_simulation_keeps_greys_and_merges_red_and_green_for_a_deuteranope():
    for grey in ("#000000", "#808080", WHITE):
        for kind in DEFICIENCIES:
            assert delta_e(simulate(grey, kind), grey) < 1.0, (grey, kind)
    # pure red and green are far apart for everyone but much closer for a deuteranope or a protanope
    normal = delta_e("#d62728", "#2ca02c")
    assert delta_e("#d62728", "#2ca02c", "deuteranopia") < normal / 2
    assert delta_e("#d62728", "#2ca02c", "protanopia") < normal / 2
    with pytest.raises(ValueError, match="deuteranopia"):
        simulate(WHITE, "greenblind")


def test_ink_on_always_reaches_aa():
    for v in range(0, 256, 5):
        for bg in (f"#{v:02x}{v:02x}{v:02x}", f"#{v:02x}80{255 - v:02x}", f"#ff{v:02x}00"):
            assert contrast_ratio(ink_on(bg), bg) >= 4.58 - 1e-9, bg


# --------------------------------------------------------------------------------------------- text contrast
_COLOUR = re.compile(r"(?<![-\w])color\s*:\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b")
_BACK = re.compile(r"background(?:-color)?\s*:\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b")


def _light_backgrounds() -> set[str]:
    """Every light background colour ttr_nb's HTML uses, plus white and the board's paper."""
    from ttr_nb.render.board import BACKGROUND
    out = {WHITE, BACKGROUND}
    for f in PACKAGE.rglob("*.py"):
        for c in _BACK.findall(f.read_text(encoding="utf-8")):
            if palette.relative_luminance(c) > 0.5:
                out.add(c.lower())
    return out


def test_every_css_text_colour_in_the_package_reaches_4_5_to_1():
    """A ``color:#...`` in ttr_nb's HTML: against the background set in the same style (or line), else against
    every light background ttr_nb uses (white, the board's paper, the banners' and tables' tints)."""
    light = _light_backgrounds()
    checked, bad = 0, []
    for f in sorted(PACKAGE.rglob("*.py")):
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"background(?:-color)?\s*:\s*\{", line):
                continue            # a background from a table (access.py's button fills): tested with its table
            for m in _COLOUR.finditer(line):
                colour = m.group(1)
                backs = _BACK.findall(line) or sorted(light)
                worst = min(contrast_ratio(colour, b) for b in backs)
                checked += 1
                if worst < TEXT_CONTRAST:
                    bad.append(f"{f.relative_to(PACKAGE.parent)}:{n}: {colour} reads {worst:.2f}:1")
    assert checked > 30, checked           # the scan found the package's colours
    assert not bad, "\n".join(bad)


def test_named_text_colours_reach_4_5_to_1():
    from ttr_nb.render.board import BACKGROUND, INK
    from ttr_nb.widgets._common import ERROR_COLOUR, OK_COLOUR
    for colour in (ERROR_COLOUR, OK_COLOUR, INK, palette.MUTED_INK):
        for back in (WHITE, BACKGROUND):
            assert contrast_ratio(colour, back) >= TEXT_CONTRAST, (colour, back)


def test_face_up_buttons_and_card_chips_reach_4_5_to_1_for_every_card():
    from ttr_nb import Game
    from ttr_nb.render.panels import CARD_FILL, _chip
    from ttr_nb.widgets import PlayView
    for kind, fill in enumerate(CARD_FILL):
        chip = _chip(kind, 2, "Blue")
        ink = re.search(r";color:(#[0-9a-fA-F]{6})", chip).group(1)
        assert contrast_ratio(ink, fill) >= TEXT_CONTRAST, (kind, fill, ink)
    seen = set()
    for variant in ("usa", "maerklin"):
        for seed in range(6):
            view = PlayView(Game(variant, players=2, seed=seed))
            for b in view.faceup_buttons:
                seen.add(b.description.split(": ", 1)[-1])
                assert contrast_ratio(b.style.text_color, b.style.button_color) >= TEXT_CONTRAST, \
                    (b.description, b.style.button_color, b.style.text_color)
    assert len(seen) >= 8, seen            # most card kinds were face up at some point


def test_the_focus_ring_reaches_3_to_1():
    from ttr_nb.render.board import BACKGROUND, CARD_HEX
    ring, gap = palette.FOCUS_RING, palette.FOCUS_GAP
    # the ring sits on the page (white, the paper) with a white gap between it and the element
    for back in (WHITE, BACKGROUND, gap):
        assert contrast_ratio(ring, back) >= NON_TEXT_CONTRAST, back
    # and still against any button colour it might touch
    for fill in CARD_HEX.values():
        assert max(contrast_ratio(ring, fill), contrast_ratio(gap, fill)) >= NON_TEXT_CONTRAST, fill


def test_the_views_css_sets_that_focus_ring_and_readable_button_styles():
    from ttr_nb.widgets.access import ACCESS_CSS
    assert palette.FOCUS_RING in ACCESS_CSS and ":focus-visible" in ACCESS_CSS
    for style, fill in palette.BUTTON_FILLS.items():
        assert contrast_ratio(WHITE, fill) >= TEXT_CONTRAST, style
        assert f".jupyter-button.mod-{style}:not(:disabled), .ttr-view .jupyter-button.mod-{style}.mod-active " \
               f"{{ background-color: {fill}; color: #ffffff; }}" in ACCESS_CSS


# --------------------------------------------------------------------------------------------- colour vision
def _route_colours() -> dict[str, str]:
    from ttr_nb.render.board import CARD_HEX
    return dict(CARD_HEX)


@pytest.mark.parametrize("kind", DEFICIENCIES)
def test_route_colours_differ_or_carry_a_shape_on_every_space(kind):
    """ΔE2000 >= 10 for every pair of route colours, or a non-colour cue: each colour its own shape, drawn on
    every space of every open route of every map."""
    from ttr_nb.render import board_figure, trace_index
    from ttr_nb.render.board import CARD_SYMBOLS
    from ttr_nb.variants import get_variant
    close = confusable_pairs(_route_colours(), kind, MIN_DELTA_E)
    for a, b, _d in close:
        assert CARD_SYMBOLS[a] != CARD_SYMBOLS[b], (kind, a, b)
    if not close:
        return
    for variant in ("usa", "europe", "maerklin", "south_korea"):
        m = get_variant(variant).map
        fig = board_figure(m)
        marks = fig.data[trace_index(fig, "space-marks")]
        per_route: dict[str, list[str]] = {}
        for rid, sym in zip(marks.customdata, marks.marker.symbol):
            per_route.setdefault(rid, []).append(sym)
        for r in m.routes:
            assert per_route.get(r.id) == [CARD_SYMBOLS[r.colour]] * r.length, (variant, r.id)
        for rid, ink, sym in zip(marks.customdata, marks.marker.color, marks.marker.symbol):
            fill = _route_colours()[m.route(rid).colour]
            assert contrast_ratio(ink, fill) >= NON_TEXT_CONTRAST, (rid, ink, fill)


def test_the_known_confusions_are_found():
    """The simulation sees what the audit saw (so the cue above is needed and checked)."""
    assert ("green", "red") in {(a, b) for a, b, _ in confusable_pairs(_route_colours(), "deuteranopia")}
    assert ("blue", "purple") in {(a, b) for a, b, _ in confusable_pairs(_route_colours(), "protanopia")}


@pytest.mark.parametrize("kind", (None, *DEFICIENCIES))
def test_the_claimable_glow_stands_out_from_every_route_colour(kind):
    from ttr_nb.render.board import BACKGROUND, HIGHLIGHT_HEX
    glow = blend(HIGHLIGHT_HEX[0], BACKGROUND, 0.55)        # drawn at opacity 0.55 on the paper
    for name, fill in _route_colours().items():
        assert delta_e(glow, fill, kind) >= MIN_DELTA_E, (kind, name, round(delta_e(glow, fill, kind), 1))
    assert delta_e(glow, BACKGROUND, kind) >= MIN_DELTA_E
