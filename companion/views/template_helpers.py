"""What templates call beyond Jinja's own: numbers as a player reads them (`decimal`, `percent`,
`points`), and the results pages' BG Stats link, category-mix chart and colour swatches. Registered
on the app (`init_app`), not by one page's blueprint, since results, sheets, statistics and the
players' page all read them."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from flask import Flask
from markupsafe import Markup

from ..games import i18n
from ..games.core import points_text
from ..outputs import bgstats, charts
from ..storage.models import GameRecord


def init_app(app: Flask) -> None:
    for name, function in (("decimal", decimal), ("percent", percent), ("points", points_text)):
        app.add_template_filter(function, name)
    for function in (bgstats_link, category_mix, category_colour, swatch):
        app.add_template_global(function)


def decimal(value: float) -> str:
    """52.25 -> "52,3" in French, "52.3" in English; 50.0 -> "50": one decimal when there is one,
    true minus sign."""
    text = str(_half_up(abs(value), "0.1")).removesuffix(".0")
    if i18n.current() == "fr":
        text = text.replace(".", ",")
    return ("\u2212" if value < 0 and text != "0" else "") + text


def percent(value: float) -> str:
    """'50 %' in French (a no-break space before the sign), "50%" in English."""
    space = "\u00a0" if i18n.current() == "fr" else ""
    return f"{_half_up(value * 100, '1')}{space}%"


def _half_up(value: float, step: str) -> Decimal:
    """Halves rounded up, as a player checks by hand (round() and format() round 40.25 to 40.2); the
    float's noise (57 / 200 * 100 = 28.499999999999996) is dropped first."""
    exact = Decimal(repr(value)).quantize(Decimal("1e-9"))
    return exact.quantize(Decimal(step), rounding=ROUND_HALF_UP)


def bgstats_link(record: GameRecord, result) -> str:
    return bgstats.link(result, uid=record.uid, played_at=record.created_at,
                        duration=bgstats.duration_min(record.created_at, record.first_scored_at))


def category_mix(result, rows) -> list[charts.MixBar]:
    """The results page's score pad rows as one bar per player (the same numbers as the table)."""
    labels = [row["label"] for row in rows]
    players = [(p.name, [row["cells"][i]["points"] for row in rows]) for i, p in enumerate(result.players)]
    return charts.category_mix(labels, players)


def category_colour(index: int) -> str:
    return charts.category_colour(index)


def swatch(colour: str, size: int = 12) -> Markup:
    size = int(size)
    svg = (f'<svg class="swatch" width="{size}" height="{size}" viewBox="0 0 10 10" aria-hidden="true">'
           f'<rect width="10" height="10" rx="2" fill="{charts.safe_colour(colour)}"/></svg>')
    return Markup(svg)  # noqa: S704 - a checked colour and a number, nothing else
