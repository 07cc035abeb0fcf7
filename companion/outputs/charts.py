"""Charts drawn on the server as SVG: no script, no external request, the same markup on the page and
on the printed sheet. Pure (no Flask): data in, `Markup` out, every text escaped here.

Only presentation attributes (fill, stroke...) are used, never `style`: the Content-Security-Policy
forbids inline styles. Each chart carries its words for screen readers (role="img" with a label, or a
<title>/<desc> pair) and the pages print the same figures in a table beside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from markupsafe import Markup, escape

from ..games.core import points_text
from ..games.i18n import _

# Okabe-Ito and a few more: told apart by most colour-blind readers, and in grey on paper.
CATEGORY_COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442",
                    "#7f3c8d", "#999999", "#11a579")
SERIES_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
HEX = re.compile(r"#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}")
WIDTH = 360  # viewBox units; the CSS stretches the drawing to the column's width


def safe_colour(value: object, fallback: str = "#888888") -> str:
    return value if isinstance(value, str) and HEX.fullmatch(value) else fallback


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def category_colour(index: int) -> str:
    return CATEGORY_COLOURS[index % len(CATEGORY_COLOURS)]


# --------------------------------------------------------------------------- category mix


@dataclass(frozen=True)
class MixBar:
    name: str
    svg: Markup


def category_mix(labels: Sequence[str], players: Sequence[tuple[str, Sequence[int]]],
                 text: Callable[[str], str] = str) -> list[MixBar]:
    """One horizontal bar per player: each category's points as a segment, in the categories' order
    and colours, on one scale for every player (so bars compare); negative points (Reterra's junk)
    go left of zero, each in its category's colour (the legend names it). `text` adapts names and
    labels (the PDF replaces undrawable glyphs)."""
    positives = [sum(p for p in pts if p > 0) for _, pts in players]
    negatives = [-sum(p for p in pts if p < 0) for _, pts in players]
    span = (max(positives, default=0) + max(negatives, default=0)) or 1
    zero = max(negatives, default=0) / span * WIDTH
    bars = []
    for (name, points), neg in zip(players, negatives, strict=True):
        parts = [f"{text(label)} {points_text(p)}" for label, p in zip(labels, points, strict=True) if p]
        said = f"{text(name)} : " + (", ".join(parts) if parts else _("aucun point"))
        rects = []
        x = zero
        for i, (label, p) in enumerate(zip(labels, points, strict=True)):
            if p <= 0:
                continue
            w = p / span * WIDTH
            rects.append(f'<rect x="{_num(x)}" y="0" width="{_num(w)}" height="14" '
                         f'fill="{category_colour(i)}" stroke="#ffffff" stroke-width="0.6">'
                         f'<title>{escape(text(label))} : {escape(points_text(p))}</title></rect>')
            x += w
        x = zero
        for i, (label, p) in enumerate(zip(labels, points, strict=True)):
            if p >= 0:
                continue
            w = -p / span * WIDTH
            x = max(x - w, 0.0)  # never "-0" from the float sum
            rects.append(f'<rect x="{_num(x)}" y="0" width="{_num(w)}" height="14" '
                         f'fill="{category_colour(i)}" stroke="#ffffff" stroke-width="0.6">'
                         f'<title>{escape(text(label))} : {escape(points_text(p))}</title></rect>')
        if neg and zero:
            rects.append(f'<line x1="{_num(zero)}" y1="-2" x2="{_num(zero)}" y2="16" stroke="#000000" '
                         f'stroke-width="1"/>')
        svg = (f'<svg class="mix-bar" viewBox="0 -2 {WIDTH} 18" preserveAspectRatio="none" role="img" '
               f'aria-label="{escape(said)}">{"".join(rects)}</svg>')
        bars.append(MixBar(name, Markup(svg)))  # noqa: S704 - texts escaped above
    return bars


# --------------------------------------------------------------------------- totals over time


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[tuple[int, datetime, int]]  # (play index in the group, when, total)
    colour: str


def totals_over_time(series: Sequence[Series], plays: int, first: datetime | None, last: datetime | None,
                     *, ident: str, title: str, date: Callable[[datetime], str]) -> Markup:
    """A line per player: x the group's plays in order (first to last date), y the total."""
    height, left, right, top, bottom = 190, 34, 8, 8, 30
    values = [t for s in series for _, _, t in s.points]
    lo = min(0, min(values, default=0))
    hi = max(values, default=0)
    if hi == lo:
        hi = lo + 10
    step = _nice((hi - lo) / 4)
    lo = (lo // step) * step
    hi = -(-hi // step) * step
    inner_w, inner_h = WIDTH - left - right, height - top - bottom

    def x_of(i: int) -> float:
        return left + (inner_w / 2 if plays <= 1 else i / (plays - 1) * inner_w)

    def y_of(v: float) -> float:
        return top + (hi - v) / (hi - lo) * inner_h

    parts = []
    v = lo
    while v <= hi:
        y = y_of(v)
        parts.append(f'<line x1="{left}" y1="{_num(y)}" x2="{WIDTH - right}" y2="{_num(y)}" '
                     f'stroke="#8a8a8a" stroke-width="{1 if v == 0 else 0.4}"/>'
                     f'<text x="{left - 4}" y="{_num(y + 3.5)}" text-anchor="end" font-size="10" '
                     f'fill="currentColor">{escape(points_text(int(v)))}</text>')
        v += step
    if first is not None and last is not None:
        parts.append(f'<text x="{left}" y="{height - 10}" font-size="10" fill="currentColor">'
                     f'{escape(date(first))}</text>')
        if plays > 1:
            parts.append(f'<text x="{WIDTH - right}" y="{height - 10}" text-anchor="end" font-size="10" '
                         f'fill="currentColor">{escape(date(last))}</text>')
    marks = plays <= 60
    for s in series:
        coords = " ".join(f"{_num(x_of(i))},{_num(y_of(t))}" for i, _, t in s.points)
        colour = safe_colour(s.colour)
        if len(s.points) > 1:
            parts.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2" '
                         f'stroke-linejoin="round"/>')
        if marks or len(s.points) == 1:
            for i, when, t in s.points:
                parts.append(f'<circle cx="{_num(x_of(i))}" cy="{_num(y_of(t))}" r="3" fill="{colour}">'
                             f'<title>{escape(s.name)}, {escape(date(when))} : '
                             f'{escape(points_text(t))}</title></circle>')
    described = "; ".join(_describe(s) for s in series)
    order = escape(_("Totaux dans l'ordre des parties."))
    svg = (f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
           f'aria-labelledby="{ident}-t {ident}-d"><title id="{ident}-t">{escape(title)}</title>'
           f'<desc id="{ident}-d">{order} {escape(described)}</desc>'
           f'{"".join(parts)}</svg>')
    return Markup(svg)  # noqa: S704 - texts escaped above, numbers and colours checked


def _describe(s: Series) -> str:
    """Every total when there are few; the range and the last one when there are many."""
    totals = [t for _, _, t in s.points]
    if len(totals) <= 12:
        return f"{s.name} : {', '.join(points_text(t) for t in totals)}"
    return _("{name} : {n} parties, de {low} à {high} points, la dernière {last}", name=s.name,
             n=len(totals), low=points_text(min(totals)), high=points_text(max(totals)),
             last=points_text(totals[-1]))


def _nice(raw: float) -> int:
    """A round step for the grid (1, 2, 5, 10, 20, 50...)."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if step * m >= raw:
                return step * m
        step *= 10
