"""Export this device's games (JSON to restore, CSV for a spreadsheet) and restore an export file.

Thin: `companion.outputs.exchange` builds and checks the files; here only the device, the upload form (CSRF
through Flask-WTF, a size limit of its own) and the French messages. Exports are streamed, a batch
of games at a time, and are heavy routes (`limits.heavy`): thousands of games wait for the heavy
share of the working slots, never for the tables' autosaves.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)

from ..games.i18n import _, ngettext
from ..outputs import exchange, restore_jobs
from ..storage import devices
from ..web import limits

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
@limits.heavy  # a file of games with their photos: each photo is decoded again (storage.photos.checked)
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
    device = devices.device_id()
    job = restore_jobs.start(data, device)
    return _answer(job, restore_jobs.wait(job, device, current_app.config["RESTORE_WAIT_SECONDS"]))


@bp.get("/parties/importer/<job>")
def progress(job: str):
    """A restore still at work when its page was answered: asked again (the page refreshes itself)
    until it is finished, each time waiting a few seconds for it."""
    device = devices.device_id(create=False)
    state = restore_jobs.wait(job, device, current_app.config["RESTORE_WAIT_SECONDS"]) if device else None
    if request.args.get(POLL) == "1" and state is not None and restore_jobs.finished(state):
        return "", 204  # nothing flashed here: the page loads itself again and that load says it
    return _answer(job, state)


def _answer(job: str, state: dict | None):
    """What the phone sees of a restore: the games added (then "Mes parties"), every problem with its
    path, or its progress (a page that asks again by itself, JavaScript or not)."""
    if state is None:
        abort(404)
    if state["state"] == "done":
        flash(said_counts(state["added"], state["present"]), "success")
        return redirect(url_for("play.history"))
    if restore_jobs.finished(state):
        return _refused(restore_jobs.problems_of(state), count=state.get("count"),
                        status=422 if state["state"] == "refused" else 500)
    if request.method == "POST":  # the page of its progress, at an address of its own
        return redirect(url_for("exchange.progress", job=job), 303)
    response = make_response(render_template("play/import_progress.html", state=state,
                                             refresh=REFRESH_SECONDS))
    response.headers["Cache-Control"] = "no-store"
    return response


POLL = "poll"  # static/js/progress.js's background asks: a finished restore is a bare 204 for them
REFRESH_SECONDS = 1  # the progress page asks again this soon (each ask waits for the job a while)


def _refused(problems, status: int = 422, count: int | None = None):
    return render_template("play/import.html", problems=problems, count=count or len(problems),
                           limit=_limit()), status


def said(outcome: exchange.Outcome) -> str:
    """What an import did, in French: "2 parties restaurées ; 1 déjà présente sur ce serveur…"."""
    return said_counts(len(outcome.added), len(outcome.present))


def said_counts(added: int, present: int) -> str:
    # Nothing new but games already here: say so in words, not "0 partie restaurée".
    parts = [ngettext("{n} partie restaurée", "{n} parties restaurées", added) if added or not present
             else _("Aucune nouvelle partie")]
    if present:
        parts.append(_("{present} déjà présente sur ce serveur, laissée telle quelle", present=present)
                     if present == 1 else
                     _("{present} déjà présentes sur ce serveur, laissées telles quelles", present=present))
    return " ; ".join(parts) + "."
