"""Statistics pages (this device's games, or one player's) and what the results pages borrow from
this feature: the BG Stats link and the category-mix chart (template globals, so views/results.py
does not change).

The statistics read every scored game of the device (not only the history's latest 100) in one
query, with each game's summary written when it was saved; nothing is scored unless a summary is
stale (`device_plays`). The page is one of the heavy routes (`limits.heavy`): a device with
thousands of games waits for the heavy share of the working slots, not the tables' autosaves.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import sqlalchemy as sa
from flask import Blueprint, current_app, render_template, request
from markupsafe import Markup

from ..base import diskfull, gcpause
from ..extensions import db
from ..games import i18n
from ..games.i18n import _
from ..outputs import bgstats, charts
from ..outputs import stats as statistics
from ..storage import devices, summaries
from ..storage.models import DeviceGame, GameRecord
from ..web import limits
from .dates import short_date

bp = Blueprint("stats", __name__)
bp.after_request(devices.set_device_cookie)


def device_plays() -> list[statistics.Play]:
    """This device's scored games, all of them (not the history's latest 100).

    One query reads each game's identity and its stored summary (`GameRecord.summary`, written with
    every version of the game: companion.storage.summaries); a game whose summary is missing or stale (made
    for another version, or by another engine: the rules changed) is read in full, scored once, and
    its summary written back, so an upgrade of the rules costs one slower visit, not every one."""
    device = devices.device_id(create=False)
    if device is None:
        return []
    rows = db.session.execute(
        sa.select(GameRecord.id, GameRecord.version, GameRecord.uid, GameRecord.game, GameRecord.variant,
                  GameRecord.created_at, GameRecord.summary, GameRecord.edition)
        .join(DeviceGame, DeviceGame.game_id == GameRecord.id)
        .where(DeviceGame.device == device, GameRecord.status == "scored")).all()
    plays: dict[int, statistics.Play | None] = {}
    missing = []
    for n, row in enumerate(rows, 1):
        if n % (10 * limits.PAUSE_EVERY) == 0:  # a summary read costs a tenth of a game written
            limits.pause()
        if summaries.current(row.summary, row.version):
            result = row.summary.get("result")
            if result is None:  # this version does not score: left out, as the history does
                plays[row.id] = None
                continue
            play = statistics.from_summary(row.uid, row.game, row.variant, row.created_at, result)
            if play is not None:
                plays[row.id] = play
                continue
        missing.append(row)  # no summary, a stale one or a damaged one: made again
    if missing:
        _score_and_keep(missing, plays)
    found = (plays.get(row.id) for row in rows)
    return [p for p in found if p is not None]


def _play(row, summary: dict) -> statistics.Play | None:
    """None when this version does not score: left out, as the history does."""
    result = summary.get("result")
    if result is None:
        return None
    return statistics.from_summary(row.uid, row.game, row.variant, row.created_at, result)


def _score_and_keep(rows, plays: dict) -> None:
    ids = [row.id for row in rows]
    documents = dict(db.session.execute(
        sa.select(GameRecord.id, GameRecord.document).where(GameRecord.id.in_(ids))).all())
    kept = []
    for n, row in enumerate(rows, 1):
        if n % limits.PAUSE_EVERY == 0:
            limits.pause()
        summary = summaries.make(documents.get(row.id), row.version, edition=row.edition)
        plays[row.id] = _play(row, summary)
        kept.append({"row_id": row.id, "row_version": row.version, "row_summary": summary})
    # One statement for all: written only if the game is still at that version (a save in between
    # wins), and updated_at set to itself so that a summary does not move the game up the history.
    games_table = GameRecord.__table__
    try:
        db.session.execute(
            games_table.update()
            .where(games_table.c.id == sa.bindparam("row_id"),
                   games_table.c.version == sa.bindparam("row_version"))
            .values(summary=sa.bindparam("row_summary"), updated_at=games_table.c.updated_at), kept)
        db.session.commit()
    except sa.exc.SQLAlchemyError as exc:  # a full disk: the page is drawn all the same (issue 22)
        db.session.rollback()
        current_app.logger.warning("statistics summaries not kept (%s): the page goes on",
                                   "disk full" if diskfull.is_disk_full(exc) else type(exc).__name__)


@bp.get("/statistiques")
@limits.heavy
def index():
    # Without the collector walking the page's many short-lived objects (companion.base.gcpause).
    with gcpause.paused():
        return _index()


def _index():
    player = (request.args.get("joueur") or "").strip()[:80] or None
    summary = statistics.summarise(device_plays(), player)
    charts_by_group = []
    for n, group in enumerate(summary.groups):
        drawn = group.charted()
        series = [charts.Series(s.name, group.series[s.name], charts.SERIES_COLOURS[i])
                  for i, s in enumerate(drawn)]
        svg = charts.totals_over_time(
            series, len(group.plays), group.first, group.last, ident=f"chart-{n}",
            title=(_("{group} : totaux de chaque joueur au fil des parties", group=group.label)
                   if player is None
                   else _("{group} : totaux de {player} au fil des parties", group=group.label,
                          player=player)),
            date=short_date)
        charts_by_group.append({"svg": svg, "legend": series, "more": len(group.players) - len(drawn)})
    status = 404 if player and summary.player is None else 200
    return render_template("stats/index.html", summary=summary, asked=player,
                           charts=charts_by_group), status


@bp.app_template_filter("decimal")
def decimal(value: float) -> str:
    """52.25 -> "52,3" in French, "52.3" in English; 50.0 -> "50": one decimal when there is one,
    true minus sign."""
    text = str(_half_up(abs(value), "0.1")).removesuffix(".0")
    if i18n.current() == "fr":
        text = text.replace(".", ",")
    return ("\u2212" if value < 0 and text != "0" else "") + text


@bp.app_template_filter("percent")
def percent(value: float) -> str:
    """'50 %' in French (a no-break space before the sign), "50%" in English."""
    space = "\u00a0" if i18n.current() == "fr" else ""
    return f"{_half_up(value * 100, '1')}{space}%"


def _half_up(value: float, step: str) -> Decimal:
    """Halves rounded up, as a player checks by hand (round() and format() round 40.25 to 40.2); the
    float's noise (57 / 200 * 100 = 28.499999999999996) is dropped first."""
    exact = Decimal(repr(value)).quantize(Decimal("1e-9"))
    return exact.quantize(Decimal(step), rounding=ROUND_HALF_UP)


# --------------------------------------------------------------------------- on the results pages


@bp.app_template_global("bgstats_link")
def bgstats_link(record: GameRecord, result) -> str:
    return bgstats.link(result, uid=record.uid, played_at=record.created_at,
                        duration=bgstats.duration_min(record.created_at, record.first_scored_at))


@bp.app_template_global("category_mix")
def category_mix(result, rows) -> list[charts.MixBar]:
    """The results page's score pad rows as one bar per player (the same numbers as the table)."""
    labels = [row["label"] for row in rows]
    players = [(p.name, [row["cells"][i]["points"] for row in rows]) for i, p in enumerate(result.players)]
    return charts.category_mix(labels, players)


@bp.app_template_global("category_colour")
def category_colour(index: int) -> str:
    return charts.category_colour(index)


@bp.app_template_global("swatch")
def swatch(colour: str, size: int = 12) -> Markup:
    size = int(size)
    svg = (f'<svg class="swatch" width="{size}" height="{size}" viewBox="0 0 10 10" aria-hidden="true">'
           f'<rect width="10" height="10" rx="2" fill="{charts.safe_colour(colour)}"/></svg>')
    return Markup(svg)  # noqa: S704 - a checked colour and a number, nothing else
