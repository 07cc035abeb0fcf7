"""Blank score pads as PDF: `/sheets/<game>/<variant>.pdf` (the home page links here).

A stored game's filled sheet is served by the play views, which call `pdf.render_sheet`.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort

from .. import pdf
from ..web import limits

bp = Blueprint("sheets", __name__)


@bp.get("/sheets/<game>/<variant>.pdf", endpoint="pad")
@limits.heavy  # drawn once per game and variant (kept), a second of WeasyPrint the first time
def pad(game: str, variant: str) -> Response:
    try:
        game_spec, variant = pdf.pad_spec(game, variant)
    except pdf.UnknownPad:
        abort(404)
    body = pdf.render_pad(game_spec.id, variant)
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="feuille-{game_spec.id}-{variant}.pdf"'
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
