"""Error handlers, registered in one place: a page in the app's look for people,
`{"errors": [{"path", "message"}]}` for the API."""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadHost, HTTPException, InternalServerError

from .games.i18n import N_, _, tr

MESSAGES = {
    400: (N_("Requête incorrecte"), N_("La demande n'a pas pu être comprise.")),
    403: (N_("Accès refusé"), N_("Ce lien ne donne pas accès à cette page.")),
    404: (N_("Page introuvable"), N_("Cette page n'existe pas, ou le lien de la partie est incomplet.")),
    405: (N_("Méthode non permise"), N_("Cette page ne s'utilise pas ainsi.")),
    408: (N_("Délai dépassé"), N_("Les données sont arrivées trop lentement. Rien n'a été enregistré : "
                              "réessayez.")),
    409: (N_("Conflit"), N_("Quelqu'un d'autre a modifié cette partie entre-temps.")),
    413: (N_("Trop volumineux"), N_("Les données envoyées dépassent la taille permise.")),
    422: (N_("Données invalides"), N_("Les données reçues ne décrivent pas une partie valide.")),
    500: (N_("Erreur interne"), N_("Quelque chose s'est mal passé de notre côté. Les parties enregistrées ne "
                               "sont pas touchées ; réessayez dans un instant.")),
}


def wants_json() -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, message: str | None = None, problems: list[dict] | None = None):
    pair = MESSAGES.get(status, MESSAGES[500] if status >= 500 else MESSAGES[400])
    title, default = tr(pair[0]), tr(pair[1])
    if request_ctx.url_adapter is None:
        # The Host header names no host a URL can be built for (a label over 63 characters, "a..b"):
        # the page's links are built for a placeholder host (they are relative: it never shows).
        request_ctx.url_adapter = current_app.url_map.bind(
            "invalid", script_name=request.script_root or None, url_scheme=request.scheme)
    if wants_json():
        body = {"errors": problems or [{"path": "document", "message": message or default}]}
        return jsonify(body), status
    return render_template("error.html", status=status, title=title,
                           message=message or default, problems=problems or []), status


def handle_http(exc: HTTPException):
    status = exc.code or 500
    if isinstance(exc, CSRFError):
        return error_response(400, _("Le formulaire a expiré ou vient d'un autre site : rechargez la "
                                     "page et recommencez. Rien n'a été enregistré."))
    if isinstance(exc, BadHost):
        return error_response(400, _("L'adresse du site demandée (l'en-tête Host) n'est pas un nom d'hôte "
                                     "valide."))
    return error_response(status)


def handle_unexpected(exc: Exception):
    if isinstance(exc, HTTPException):
        return handle_http(exc)
    # Logged with its traceback by Flask's logger; the user sees the 500 page.
    current_app.logger.exception("Unhandled error", exc_info=exc)

    return error_response(500)


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(InternalServerError, handle_http)
    app.register_error_handler(Exception, handle_unexpected)
