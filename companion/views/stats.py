"""Statistics pages (this device's games, or one player's) and what the results pages borrow from
this feature: the BG Stats link and the category-mix chart (template globals, so views/play.py
does not change).

The statistics read every scored game of the device (not only the history's latest 100) in one
query, and score each game once per request (`stats.play`).
"""

from __future__ import annotations

import threading

import sqlalchemy as sa
from flask import Blueprint, render_template, request
from markupsafe import Markup

from .. import bgstats, charts, store
from .. import stats as statistics
from ..extensions import db
from ..models import DeviceGame, GameRecord
from .play import french_date

bp = Blueprint("stats", __name__)
bp.after_request(store.set_device_cookie)


# (game uid, version) -> its Play (None: no longer scores). A version is never stored twice with two
# documents (store.save bumps it on every write) and a uid is never reused (a row id may be, after a
# deletion), so an entry never goes stale; a new engine means a new process, hence an empty memo.
# Bounded: a busy server forgets and scores again.
_MEMO: dict[tuple[str, int], statistics.Play | None] = {}
_MEMO_MAX = 20_000
_memo_lock = threading.Lock()


def device_plays() -> list[statistics.Play]:
    """This device's scored games, all of them (not the history's latest 100).

    One query reads what identifies each game; only games this process has not scored yet at their
    current version are read in full and scored (once): 500 games would take 100 ms to score on
    every request."""
    device = store.device_id(create=False)
    if device is None:
        return []
    rows = db.session.execute(
        sa.select(GameRecord.id, GameRecord.version, GameRecord.uid, GameRecord.game, GameRecord.variant,
                  GameRecord.created_at)
        .join(DeviceGame, DeviceGame.game_id == GameRecord.id)
        .where(DeviceGame.device == device, GameRecord.status == "scored")).all()
    keys = [(row.uid, row.version) for row in rows]
    with _memo_lock:
        found = {k: _MEMO[k] for k in keys if k in _MEMO}
    missing = [row for row, k in zip(rows, keys, strict=True) if k not in found]
    if missing:
        documents = dict(db.session.execute(
            sa.select(GameRecord.id, GameRecord.document)
            .where(GameRecord.id.in_([row.id for row in missing]))).all())
        scored = {(row.uid, row.version): statistics.play(row.uid, row.game, row.variant, row.created_at,
                                                          documents.get(row.id))
                  for row in missing}
        found.update(scored)
        with _memo_lock:
            if len(_MEMO) + len(scored) > _MEMO_MAX:
                _MEMO.clear()
            _MEMO.update(scored)
    plays = (found[k] for k in keys)
    return [p for p in plays if p is not None]


@bp.get("/statistiques")
def index():
    player = (request.args.get("joueur") or "").strip()[:80] or None
    summary = statistics.summarise(device_plays(), player)
    charts_by_group = []
    for n, group in enumerate(summary.groups):
        drawn = group.charted()
        series = [charts.Series(s.name, group.series[s.name], charts.SERIES_COLOURS[i])
                  for i, s in enumerate(drawn)]
        svg = charts.totals_over_time(
            series, len(group.plays), group.first, group.last, ident=f"chart-{n}",
            title=f"{group.label} : totaux de {'chaque joueur' if player is None else player} "
                  f"au fil des parties", date=french_date)
        charts_by_group.append({"svg": svg, "legend": series, "more": len(group.players) - len(drawn)})
    status = 404 if player and summary.player is None else 200
    return render_template("stats/index.html", summary=summary, asked=player,
                           charts=charts_by_group), status


@bp.app_template_filter("decimal")
def decimal(value: float) -> str:
    """52.25 -> "52,3", 50.0 -> "50": one decimal when there is one, French comma, true minus sign."""
    text = f"{abs(value):.1f}".removesuffix(".0").replace(".", ",")
    return ("\u2212" if value < 0 and text != "0" else "") + text


@bp.app_template_filter("percent")
def percent(value: float) -> str:
    return f"{round(value * 100)}\u00a0%"


# --------------------------------------------------------------------------- on the results pages


@bp.app_template_global("bgstats_link")
def bgstats_link(record: GameRecord, result) -> str:
    return bgstats.link(result, uid=record.uid, played_at=record.created_at)


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
