"""JSON API: score a contract document, and the games' table tools (Rebirth's city and castle)."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, make_response, request

from .. import games
from ..base import jsonio
from ..games import needed
from ..games.core import InvalidDocument
from ..games.i18n import _
from ..web.errors import error_response

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def read_json() -> object:
    """The request body as JSON whatever its content type: 400 when it is not JSON, 422 with the
    paths for what JSON allows and the contract does not (a key given twice, a lone surrogate)."""
    raw = request.get_data(cache=True)  # raises 413 past MAX_CONTENT_LENGTH, chunked or not
    try:
        return jsonio.parse(raw)
    except jsonio.NotJson as exc:  # said once, where reading stopped ("not JSON: not JSON" before)
        message = _("le corps de la requête n'est pas du JSON valide (ligne {line}, colonne {column})",
                    line=exc.line, column=exc.column) if exc.line else str(exc)
        abort(make_response(error_response(400, message)))
    except InvalidDocument as exc:
        abort(make_response(invalid(exc)))


def invalid(exc: InvalidDocument):
    return error_response(422, problems=[p.to_dict() for p in exc.problems])


@bp.post("/score")
def score():
    doc = read_json()
    try:
        # ?edition=en: the rule set the table plays by (Reterra's English edition), outside the document.
        result = games.score(doc, edition=request.args.get("edition") or None)
    except InvalidDocument as exc:
        return invalid(exc)
    body = result.to_dict()
    if request.args.get("needed") in ("1", "true"):
        # ?needed=1: what each player who did not win would have needed (docs/contract.md, "needed")
        body["needed"] = needed_entries(doc, result, request.args.get("edition") or None)
    return jsonify(body)


def needed_entries(doc, result, edition: str | None) -> list[dict]:
    """The result's `needed`: one entry per smallest change of each player who did not win."""
    return needed.to_json(games.needs(doc, result, edition=edition))


@bp.get("/games")
def list_games():
    """What a client needs to build a document: games, variants, player counts, breakdown keys."""
    return jsonify([
        {
            "id": g.id,
            "label": g.title,
            "players": {"min": g.min_players, "max": g.max_players},
            "available": g.score is not None,
            "variants": [
                {"id": v, "label": label,
                 "breakdown": [{"key": c.key, "label": c.label_for(v), "hint": c.hint_for(v)}
                               for c in g.categories_for(v)],
                 "tiebreaks": list(g.tiebreak_lines(v))}
                for v, label in g.variant_items()

            ],
        }
        for g in games.GAMES.values()
    ])


@bp.post("/<game_id>/<tool>")
def tool(game_id: str, tool: str):
    fn = games.TOOLS.get((game_id, tool))
    if fn is None:
        abort(404)
    payload = read_json()
    try:
        return jsonify(fn(payload))
    except InvalidDocument as exc:
        return invalid(exc)


def init_app(app) -> None:
    from ..web.csrf import csrf

    # The API takes no cookie-based identity, so CSRF does not apply to it.
    csrf.exempt(bp)
    app.register_blueprint(bp)
