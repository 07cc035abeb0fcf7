"""Export this device's games (JSON to restore, CSV for a spreadsheet) and restore an export file.

Thin: `companion.exchange` builds and checks the files; here only the device, the upload form (CSRF
through Flask-WTF, a size limit of its own) and the French messages. Exports are streamed, a batch
of games at a time, and are heavy routes (`limits.heavy`): thousands of games wait for the heavy
share of the working slots, never for the tables' autosaves.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)

from .. import devices, exchange, limits
from ..games.i18n import _, ngettext

bp = Blueprint("exchange", __name__)
bp.after_request(devices.set_device_cookie)


def _limit() -> int:
    """The largest file a restore takes (the setting UPLOAD_MAX_BYTES, said on the page)."""
    return current_app.config["UPLOAD_MAX_BYTES"]


def _too_big():
    megabytes = _limit() // (1024 * 1024)
    return _refused([exchange.Problem("fichier", _("fichier trop gros ({n} Mo au plus)", n=megabytes))], 413)


def _download(chunks, mimetype: str, extension: str) -> Response:
    """The file, streamed as it is written (a batch of games at a time), in the request's context."""
    name = f"mes-parties-{datetime.now(UTC):%Y-%m-%d}.{extension}"
    return limits.streamed(Response(stream_with_context(chunks), mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}))


def _mine(columns):
    """This device's games, a batch at a time (none for a device without a cookie yet)."""
    device = devices.device_id(create=False)
    return iter(()) if device is None else exchange.batches(device, columns)


@bp.get("/parties/export.json")
@limits.heavy
def export_json():
    return _download(exchange.json_chunks(_mine(exchange.JSON_COLUMNS)), "application/json", "json")


@bp.get("/parties/export.csv")
@limits.heavy
def export_csv():
    device = devices.device_id(create=False)
    keys = exchange.csv_keys(exchange.variants_of(device) if device is not None else set())
    return _download(exchange.csv_chunks(_mine(exchange.CSV_COLUMNS), keys), "text/csv", "csv")


@bp.route("/parties/importer", methods=["GET", "POST"])
@limits.heavy  # a file of games with their photos: each photo is decoded again (companion.photos.checked)
@limits.upload(too_large=_too_big)  # the request's limit is raised before CSRF reads the form
def restore():
    if request.method == "GET":
        return render_template("play/import.html", problems=[], limit=_limit())
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _refused([exchange.Problem("fichier",
                                          _("choisissez le fichier .json exporté depuis « Mes parties »"))])
    data = upload.read(_limit() + 1)
    if len(data) > _limit():
        return _too_big()
    try:
        outcome = exchange.restore(exchange.parse(data), devices.device_id())
    except exchange.Refused as refused:
        return _refused(refused.problems)
    flash(said(outcome), "success")
    return redirect(url_for("play.history"))


def _refused(problems, status: int = 422):
    return render_template("play/import.html", problems=problems, limit=_limit()), status


def said(outcome: exchange.Outcome) -> str:
    """What an import did, in French: "2 parties restaurées ; 1 déjà présente sur ce serveur…"."""
    added, present = len(outcome.added), len(outcome.present)
    # Nothing new but games already here: say so in words, not "0 partie restaurée".
    parts = [ngettext("{n} partie restaurée", "{n} parties restaurées", added) if added or not present
             else _("Aucune nouvelle partie")]
    if present:
        parts.append(_("{present} déjà présente sur ce serveur, laissée telle quelle", present=present)
                     if present == 1 else
                     _("{present} déjà présentes sur ce serveur, laissées telles quelles", present=present))
    return " ; ".join(parts) + "."
