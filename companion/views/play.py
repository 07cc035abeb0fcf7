"""Scoring a game at the table: the `play` blueprint's URL rules, and which module serves each.

    new_game.py   /nouvelle                        pick a game, its players and colours
    edit.py       /g/<token>/ , /save , /state     the end state, autosaved (companion/saving)
    players.py    /g/<token>/joueurs               rename, reseat, recolour, add or remove players
    results.py    /g/<token>/resultats , /r/<token>/ , sheet.pdf   results, shared page, PDF
    screen.py     /r/<token>/ecran , /ecran/etat , /g/<token>/etape   the table's screen, the phones' steps
    history.py    /parties , /parties/<token>/supprimer , /g/<token>/rejouer   "Mes parties"
    photo.py      /g/<token>/photo , /g/<token>/photo.jpg , /r/<token>/photo.jpg   the final board's photo
    tie.py        /egalite , /egalite/partie          settle a tie alone, then start the full game
    changes.py    /g/<token>/historique , /annuler   the game's log of changes, undo (saving/gamelog.py)
    dates.py      the `short_date` and `date_and_time` template filters

Game-independent: a game's fields come from `companion/forms/<game>.py` (see companion.forms).
URLs: /g/<edit_token>/... edits (whoever holds the link), /r/<view_token>/... only reads.
"""

from __future__ import annotations

from flask import Blueprint

from ..storage import devices
from . import changes, dates, edit, history, new_game, photo, players, results, screen, tie
from .field_html import FieldHtml

bp = Blueprint("play", __name__)
bp.after_request(devices.set_device_cookie)
bp.add_app_template_global(FieldHtml, "field_html")  # templates/play/_fields.html: the fields' HTML
dates.register(bp)

GET_POST = ["GET", "POST"]
bp.add_url_rule("/nouvelle", "new", new_game.new, methods=GET_POST)
bp.add_url_rule("/g/<token:token>/", "edit", edit.edit, methods=GET_POST)
bp.add_url_rule("/g/<token:token>/save", "save", edit.save, methods=["POST"])
bp.add_url_rule("/g/<token:token>/state", "state", edit.state, methods=["GET"])
bp.add_url_rule("/g/<token:token>/joueurs", "players", players.page, methods=GET_POST)
bp.add_url_rule("/g/<token:token>/resultats", "results", results.results, methods=["GET"])
bp.add_url_rule("/r/<token:token>/", "view", results.view, methods=["GET"])
bp.add_url_rule("/g/<token:token>/sheet.pdf", "sheet", results.sheet, methods=["GET"])
bp.add_url_rule("/r/<token:token>/sheet.pdf", "view_sheet", results.view_sheet, methods=["GET"])
bp.add_url_rule("/g/<token:token>/rejouer", "again", history.again, methods=["POST"])
bp.add_url_rule("/r/<token:token>/ecran", "screen", screen.screen, methods=["GET"])
bp.add_url_rule("/r/<token:token>/ecran/etat", "screen_state", screen.screen_state, methods=["GET"])
bp.add_url_rule("/g/<token:token>/etape", "step", screen.step, methods=["POST"])
bp.add_url_rule("/g/<token:token>/photo", "photo_upload", photo.upload, methods=["POST"])
bp.add_url_rule("/g/<token:token>/photo/retirer", "photo_remove", photo.remove, methods=["POST"])
bp.add_url_rule("/g/<token:token>/photo.jpg", "photo", photo.image, methods=["GET"])
bp.add_url_rule("/r/<token:token>/photo.jpg", "view_photo", photo.view_image, methods=["GET"])
bp.add_url_rule("/parties", "history", history.list_games, methods=["GET"])
bp.add_url_rule("/parties/<token:token>/supprimer", "delete", history.remove, methods=GET_POST)
bp.add_url_rule("/egalite", "tie", tie.tie, methods=GET_POST)
bp.add_url_rule("/egalite/partie", "tie_start", tie.start, methods=["POST"])
bp.add_url_rule("/g/<token:token>/historique", "changes", changes.page, methods=["GET"])
bp.add_url_rule("/g/<token:token>/historique/annuler", "undo", changes.undo, methods=["POST"])
bp.add_url_rule("/g/<token:token>/annuler", "undo_last", changes.undo_last, methods=["POST"])
bp.add_url_rule("/g/<token:token>/annuler", "last_change", changes.last, methods=["GET"])
