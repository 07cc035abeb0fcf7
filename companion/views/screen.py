"""The table's screen (/r/<token>/ecran): a laptop or a TV at the table shows every player's running
total and place as the phones save, the step each phone is on, a QR code to follow the game on a
phone, and the winner with the tie sentences once the game is scored.

Read-only: it is served under the read-only link only, and carries no entry link (a screen is seen
by the whole room and may be left open; docs/architecture.md, "The table's screen"). It follows the
game by asking /r/<token>/ecran/etat?version=V every few seconds (static/js/screen.js): 204 while V
is still the game's version and its phones' steps (one query and one small folder read, nothing
scored), else the board drawn again with its figures (JSON). The phones say their step at
/g/<token>/etape (static/js/play/where.js; kept by companion/storage/phones.py, not in the database).
"""

from __future__ import annotations

import logging
from collections import Counter

import sqlalchemy as sa
from flask import abort, current_app, jsonify, render_template, request

from ..games import GAMES
from ..games.core import headline_of
from ..storage import devices, history, phones, score_cache, store
from ..storage.models import GameRecord
from ..web import links

log = logging.getLogger(__name__)

EVERY = 3  # seconds between two questions of a screen (static/js/screen.js reads data-every)

_TABLE = GameRecord.__table__
# What a screen's question needs to answer "nothing new": the game's uid (its phones' folder) and
# version, by its read-only link; a phone's step, the uid by the entry link.
VERSION_BY_VIEW = (sa.select(_TABLE.c.uid, _TABLE.c.version)
                   .where(_TABLE.c.view_token == sa.bindparam("token")))
UID_BY_EDIT = sa.select(_TABLE.c.uid).where(_TABLE.c.edit_token == sa.bindparam("token"))


def steps_root():
    return phones.root(current_app.instance_path)


def version_of(record_version: int, found: Counter) -> str:
    """What a screen holds: the game's stored version and its phones' steps."""
    return f"{record_version}.{phones.stamp(found)}"


def board_of(record, found: Counter) -> dict:
    """What the screen shows of `record` with its phones on the steps `found`: one row per player
    (seat, name, colour, running total and place when the document scores, the phones on their step),
    best first when it scores, in seat order otherwise; the phones on the table's step; the winner's
    headline and the tie sentences once the game is scored."""
    result = score_cache.result_of(record)
    names = store.names_of(record)
    colours = store.colours_of(record)
    rows = []
    for seat, (name, colour) in enumerate(zip(names, colours, strict=True)):
        player = result.players[seat] if result is not None and seat < len(result.players) else None
        rows.append({"seat": seat, "name": name, "colour": colour,
                     "total": player.total if player else None,
                     "place": result.place_of(player.name) if player and len(names) > 1 else None,
                     "phones": found.get(f"joueur-{seat + 1}", 0)})
    if result is not None:
        rows.sort(key=lambda row: (row["place"] or 0, row["seat"]))
    scored = record.status == "scored" and result is not None
    table = found.get("table", 0)
    return {"rows": rows, "scores": result is not None, "scored": scored, "table_phones": table,
            "phones": table + sum(row["phones"] for row in rows),
            "headline": headline_of(result) if scored else None,
            "ties": list(result.explanation) if scored else []}


def screen(token: str):
    record = history.open_by_view_token(token)  # the screen's device keeps the game in its list
    found = phones.steps(steps_root(), record.uid)
    game = GAMES[record.game]
    return render_template(
        "play/screen.html", record=record, game=game, variant_label=game.variant_label(record.variant),
        board=board_of(record, found), version=version_of(record.version, found), every=EVERY,
        follow_url=links.phone_url("play.screen", token=record.view_token))


def screen_state(token: str):
    """Nothing (204) while `version` is what the screen holds; else the board again, as JSON."""
    seen = store.read_row(VERSION_BY_VIEW, {"token": token})
    found = phones.steps(steps_root(), seen.uid)
    if request.args.get("version") == version_of(seen.version, found):
        return "", 204
    record = store.read_by_view_token(token)
    board = board_of(record, found)
    return jsonify(
        version=version_of(record.version, found), status=record.status,
        players=[{key: row[key] for key in ("seat", "name", "total", "place", "phones")}
                 for row in board["rows"]],
        table_phones=board["table_phones"], winner=board["headline"], ties=board["ties"],
        html=render_template("play/_screen_board.html", board=board))


def step(token: str):
    """A phone's edit page says which step it shows (`step`: "table", "joueur-N", or "" when it
    leaves) at its own time `at` (milliseconds). Nothing stored in the database; 204."""
    seen = store.read_row(UID_BY_EDIT, {"token": token})
    where = request.form.get("step", "")
    at = request.form.get("at", "")
    if (where and not phones.STEP.fullmatch(where)) or not phones.AT.fullmatch(at):
        abort(400)
    device = devices.device_id(create=False)
    if device is not None:  # a phone without its cookie has no place to be told apart
        try:
            phones.tell(steps_root(), seen.uid, device, where, int(at))
        except OSError as exc:  # a full or read-only disk: the screen goes without, the phone too
            log.warning("a phone's step was not kept: %s", exc)
    return "", 204
