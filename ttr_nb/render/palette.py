"""Colour maths for accessibility: WCAG contrast, colour-vision simulation and colour distance. Pure Python.

* ``contrast_ratio(fg, bg)``: WCAG 2.1's ratio of relative luminances (text needs 4.5:1, focus indicators and
  other non-text marks 3:1). ``ink_on(bg)``: black or white text, whichever contrasts more — always at least
  4.58:1, because a background's luminance cannot be far from both.
* ``simulate(colour, kind)``: how a colour looks with protanopia, deuteranopia or tritanopia — the severity-1.0
  matrices of Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of Color
  Vision Deficiency", IEEE TVCG 15(6), applied to linear sRGB.
* ``delta_e(a, b)``: CIEDE2000 (Sharma, Wu & Dalal 2005, "The CIEDE2000 Color-Difference Formula"), on CIELAB
  under D65. Below about 10, two small marks are hard to tell apart at a glance.

The board's own cues that do not depend on colour (a shape per route colour, repeated along each route; the
dashed "you can claim" glow) are named here too, so one test checks colours and cues together.
"""
from __future__ import annotations

import math
from typing import Iterable

#: Machado et al. 2009, severity 1.0 (rows: output R, G, B; columns: input R, G, B), linear sRGB.
MACHADO_2009: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
DEFICIENCIES: tuple[str, ...] = tuple(MACHADO_2009)

#: WCAG 2.1 AA: normal text (1.4.3) and non-text marks such as a focus ring (1.4.11).
TEXT_CONTRAST = 4.5
NON_TEXT_CONTRAST = 3.0
#: CIEDE2000 distance under which two route colours count as confusable.
MIN_DELTA_E = 10.0

#: The keyboard focus ring of ttr_nb's views: a dark blue outline, offset from the element by a white gap, so it
#: keeps 3:1 against the page and against any button colour.
FOCUS_RING = "#0b3d91"
FOCUS_GAP = "#ffffff"
#: Grey text that still reads 4.5:1 on white and on the board's paper colour.
MUTED_INK = "#595959"
#: Fills of ipywidgets' button styles inside ttr_nb's views, darker than JupyterLab's own (whose "info", "success"
#: and "warning" buttons carry white text at 3.5, 4.1 and 2.7:1): white text reads 5.7:1 or more on each.
BUTTON_FILLS: dict[str, str] = {"primary": "#1565c0", "success": "#2e7031", "info": "#00707c", "warning": "#a34700",
                                "danger": "#b3261e"}


def hex_rgb(colour: str) -> tuple[float, float, float]:
    """``"#rrggbb"`` or ``"#rgb"`` as three floats 0..1."""
    h = str(colour).strip().lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6 or any(c not in "0123456789abcdefABCDEF" for c in h):
        raise ValueError(f"not a hex colour: {colour!r} (expected #rrggbb)")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def rgb_hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{round(min(1.0, max(0.0, c)) * 255):02x}" for c in rgb)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def relative_luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of an sRGB colour."""
    r, g, b = (_linear(c) for c in hex_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(fg: str, bg: str) -> float:
    """WCAG 2.1 contrast ratio, 1.0 .. 21.0 (order does not matter)."""
    a, b = relative_luminance(fg), relative_luminance(bg)
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


def ink_on(bg: str) -> str:
    """``"#000000"`` or ``"#ffffff"``: the text colour with the higher contrast on ``bg`` (always >= 4.58:1)."""
    return "#000000" if contrast_ratio("#000000", bg) >= contrast_ratio("#ffffff", bg) else "#ffffff"


def blend(colour: str, background: str, opacity: float) -> str:
    """``colour`` drawn with ``opacity`` over ``background`` (in sRGB, as browsers composite)."""
    f, b = hex_rgb(colour), hex_rgb(background)
    return rgb_hex(opacity * x + (1 - opacity) * y for x, y in zip(f, b))


def simulate(colour: str, kind: str) -> str:
    """How ``colour`` looks with ``kind`` ("protanopia", "deuteranopia", "tritanopia"): Machado et al. 2009."""
    try:
        m = MACHADO_2009[kind]
    except KeyError:
        raise ValueError(f"unknown colour-vision deficiency {kind!r}; choose one of {', '.join(DEFICIENCIES)}") from None
    lin = [_linear(c) for c in hex_rgb(colour)]
    out = [sum(m[i][j] * lin[j] for j in range(3)) for i in range(3)]
    return rgb_hex(_gamma(c) for c in out)


def lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65 white) of an sRGB colour."""
    r, g, b = (_linear(c) for c in hex_rgb(colour))
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
    white = (0.95047, 1.0, 1.08883)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    fx, fy, fz = (f(v / w) for v, w in zip((x, y, z), white))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if (a1p or b1) else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if (a2p or b2) else 0.0
    dLp = L2 - L1
    dCp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    else:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    dHp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    Lp_bar = (L1 + L2) / 2
    Cp_bar = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_bar = (h1p + h2p + 360) / 2
    else:
        hp_bar = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp_bar - 30)) + 0.24 * math.cos(math.radians(2 * hp_bar))
         + 0.32 * math.cos(math.radians(3 * hp_bar + 6)) - 0.20 * math.cos(math.radians(4 * hp_bar - 63)))
    d_theta = 30 * math.exp(-(((hp_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(Cp_bar ** 7 / (Cp_bar ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (Lp_bar - 50) ** 2 / math.sqrt(20 + (Lp_bar - 50) ** 2)
    s_c = 1 + 0.045 * Cp_bar
    s_h = 1 + 0.015 * Cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dLp / s_l) ** 2 + (dCp / s_c) ** 2 + (dHp / s_h) ** 2 + r_t * (dCp / s_c) * (dHp / s_h))


def delta_e(a: str, b: str, kind: str | None = None) -> float:
    """CIEDE2000 distance of two sRGB colours, as seen with ``kind`` (None: normal colour vision)."""
    if kind is not None:
        a, b = simulate(a, kind), simulate(b, kind)
    return ciede2000(lab(a), lab(b))


def confusable_pairs(colours: dict[str, str], kind: str | None, limit: float = MIN_DELTA_E) -> list[tuple[str, str, float]]:
    """The pairs of ``colours`` (name -> hex) closer than ``limit`` (CIEDE2000) as seen with ``kind``, closest first."""
    names = sorted(colours)
    out = [(a, b, delta_e(colours[a], colours[b], kind)) for i, a in enumerate(names) for b in names[i + 1:]]
    return sorted((p for p in out if p[2] < limit), key=lambda p: p[2])


__all__ = ["BUTTON_FILLS", "DEFICIENCIES", "FOCUS_RING", "FOCUS_GAP", "MACHADO_2009", "MIN_DELTA_E", "MUTED_INK", "NON_TEXT_CONTRAST",
           "TEXT_CONTRAST", "blend", "ciede2000", "confusable_pairs", "contrast_ratio", "delta_e", "hex_rgb", "ink_on",
           "lab", "relative_luminance", "rgb_hex", "simulate"]
