"""The photo of the final board (issue 31): taken on the results page, kept with the game, shown on
the results and shared pages, optional on the sheet (`sheet.pdf?photo=1`).

    POST /g/<token>/photo           upload (CSRF; heavy share of the working slots; PHOTO_MAX_BYTES)
    POST /g/<token>/photo/retirer   remove it
    GET  /g/<token>/photo.jpg , /r/<token>/photo.jpg   the kept JPEG (ETag: its digest)

Thin: `companion.storage.photos` reads and rewrites the image (orientation applied, 2048 px at most, no
metadata), `photo_store.set_photo` keeps it. A refusal stores nothing and answers the results page with
the message beside the field.
"""

from __future__ import annotations

from flask import Response, abort, current_app, flash, redirect, request, url_for

from ..base import offload
from ..games.i18n import _
from ..storage import photo_store, photos, store
from ..web import limits
from . import results

FIELD = "photo"


def limit() -> int:
    """The largest photo a phone may send (the setting PHOTO_MAX_BYTES, said beside the field)."""
    return current_app.config["PHOTO_MAX_BYTES"]


def megabytes() -> int:
    return max(1, limit() // (1024 * 1024))


def _refused(token: str, message: str, status: int = 422):
    page = results.results(token, photo_problem=message)
    if isinstance(page, Response):  # no results to show any more (a draft again): its own answer
        return page
    return page, status


def _too_large():
    token = (request.view_args or {}).get("token", "")
    store.by_edit_token(token)  # a link that names no game is a 404, not a page about size
    return _refused(token, _("Photo trop lourde : {n} Mo au plus.", n=megabytes()), 413)


@limits.heavy  # reading a phone's photo costs a tenth of a second or more: never in the tables' share
@limits.upload(too_large=_too_large, limit="PHOTO_MAX_BYTES")
def upload(token: str):
    record = store.by_edit_token(token)
    sent = request.files.get(FIELD)
    if sent is None or not sent.filename:
        return _refused(token, _("Choisissez une photo, ou prenez-la avec l'appareil photo."))
    data = sent.read(limit() + 1)
    if len(data) > limit():
        return _too_large()
    try:
        photo = offload.in_thread(photos.prepare, data)  # Pillow's work off the event loop
    except photos.Refused as refused:
        return _refused(token, _(refused.message, **refused.values))
    photo_store.set_photo(record, photo)
    flash(_("Photo du plateau enregistrée."), "success")
    return redirect(url_for("play.results", token=token) + "#photo")


def remove(token: str):
    record = store.by_edit_token(token)
    photo_store.remove_photo(record)
    flash(_("Photo retirée."), "success")
    return redirect(url_for("play.results", token=token) + "#photo")


def _image(record) -> Response:
    photo = photo_store.photo_of(record.id) if record.photo_key else None
    if photo is None:
        abort(404)
    headers = {"Cache-Control": "private, no-cache",  # a new photo has a new ETag; a 304 costs nothing
               "Content-Disposition": 'inline; filename="plateau.jpg"'}
    if request.if_none_match.contains_weak(photo.digest):
        response = Response(status=304, headers=headers)
    else:
        response = Response(photo.data, mimetype=photos.CONTENT_TYPE, headers=headers)
    response.set_etag(photo.digest)
    return response


def image(token: str):
    return _image(store.read_by_edit_token(token))


def view_image(token: str):
    return _image(store.read_by_view_token(token))
