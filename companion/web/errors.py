"""Error handlers, registered in one place: a page in the app's look for people,
`{"errors": [{"path", "message"}]}` for the API."""

from __future__ import annotations

import re

from flask import Flask, current_app, jsonify, render_template, request
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadHost, HTTPException, InternalServerError, NotFound

from ..base import diskfull
from ..games.i18n import N_, _, tr
from ..storage import store

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
    429: (N_("Trop de demandes"), N_("Trop de demandes de cet appareil en peu de temps : rien n'a été fait. "
                                     "Attendez un peu, puis réessayez.")),
    500: (N_("Erreur interne"), N_("Quelque chose s'est mal passé de notre côté. Les parties enregistrées ne "
                               "sont pas touchées ; réessayez dans un instant.")),
    507: (N_("Plus de place sur le serveur"),
          N_("Le serveur n'a plus de place : rien n'a été enregistré, les parties enregistrées ne sont pas "
             "touchées. Revenez en arrière : vos saisies sont encore dans la page ; réessayez quand la "
             "personne qui gère le serveur aura fait de la place.")),
}


# The edit page's own JSON endpoints (static/js/play/autosave.js shows `message` as it is, keeps the entry).
SAVING = re.compile(r"/g/[^/]+/(?:save|state)")
KEPT = N_("Vos saisies sont gardées sur ce téléphone.")
DISK_FULL = N_("Le serveur n'a plus de place : votre saisie est gardée sur ce téléphone.")
FOR_PHONE = {
    400: N_("La demande n'a pas été comprise : rechargez la page."),
    404: N_("Cette partie n'existe plus (supprimée depuis un autre appareil ?) : rien n'a été enregistré."),
    405: N_("La demande n'a pas été comprise : rechargez la page."),
    408: N_("Le réseau est trop lent : l'enregistrement n'est pas arrivé en entier. Nouvel essai dans un "
            "instant."),
    413: N_("Trop de données d'un coup : rien n'a été enregistré."),
    503: N_("Le serveur est très occupé : rien n'a été enregistré. Nouvel essai dans un instant."),
}
EXPIRED = N_("La page a expiré : rechargez-la pour continuer (rien n'a été enregistré).")
SERVER = N_("Erreur du serveur : rien n'a été enregistré. Nouvel essai dans un instant.")


def saving_error(status: int, message: str):
    """/save and /state answer every error as JSON the phone shows as it is: what happened, what to
    do, and that the entry is kept (autosave.js keeps it in every case)."""
    text = tr(message)
    if message != DISK_FULL:
        text = f"{text} {tr(KEPT)}"
    return jsonify(ok=False, error=status, message=text), status


def for_phone(status: int) -> str:
    return FOR_PHONE.get(status, SERVER if status >= 500 else FOR_PHONE[400])


def wants_json() -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, message: str | None = None, problems: list[dict] | None = None):
    if SAVING.fullmatch(request.path):  # a refusal before the view (formkeys): JSON the phone shows
        return saving_error(status, message or for_phone(status))
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
    if SAVING.fullmatch(request.path):
        if isinstance(exc, CSRFError):
            return saving_error(400, EXPIRED)
        return saving_error(status, for_phone(status))
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
    full = diskfull.is_disk_full(exc)
    if SAVING.fullmatch(request.path):
        return saving_error(507, DISK_FULL) if full else saving_error(500, SERVER)
    return error_response(507 if full else 500)


def handle_missing(exc: store.Missing):
    """A game no link finds (or deleted meanwhile): the 404 of pages, the API and the autosave."""
    return handle_http(NotFound())


def init_app(app: Flask) -> None:
    app.register_error_handler(store.Missing, handle_missing)
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(InternalServerError, handle_http)
    app.register_error_handler(Exception, handle_unexpected)
