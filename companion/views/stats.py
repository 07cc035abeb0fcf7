"""Statistics pages (this device's games, or one player's). Their numbers' filters and the results
pages' BG Stats link and category-mix chart are template helpers (views/template_helpers.py).

The statistics read every scored game of the device (not only the history's latest 100) in one
query, with each game's summary written when it was saved; nothing is scored unless a summary is
stale (`device_plays`). The page is one of the heavy routes (`limits.heavy`): a device with
thousands of games waits for the heavy share of the working slots, not the tables' autosaves.
"""

from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, current_app, render_template, request

from ..base import diskfull, gcpause
from ..extensions import db
from ..games.i18n import _
from ..outputs import charts
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
