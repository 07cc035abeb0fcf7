"""This device's games ("Mes parties", /parties): the list, removing one, and "rejouer" (a new game
with the same table)."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for

from .. import games
from ..extensions import db
from ..games import core
from ..games.i18n import _
from ..storage import history, score_cache, store


def again(token: str):
    """Play again: a new game with the same game, variant, players, colours and table names, the
    next player starting (seat order shifted by one: the first player passes to the left); the
    table-level parts the game's hooks name stay (`kept_on_again`: Reterra's buildings), and so does
    the edition the table plays by (Reterra's tie rule)."""
    record = store.by_edit_token(token)
    names, colours = store.names_of(record), store.colours_of(record)
    names, colours = names[1:] + names[:1], colours[1:] + colours[:1]
    keeps = games.hooks_of(record.game).kept_on_again
    kept = {key: record.document[key] for key in keeps if key in record.document}
    fresh = store.create(record.game, record.variant, names, colours, labels=store.labels_of(record),
                         document=kept, edition=store.edition_of(record))
    db.session.commit()
    history.remember(fresh, can_edit=True)
    if len(names) > 1:
        flash(_("Nouvelle partie, mêmes joueurs : {name} commence (le premier joueur est passé à gauche).",
                name=names[0]), "success")
    else:
        flash(_("Nouvelle partie, mêmes joueurs : bonne partie !"), "success")
    return redirect(url_for("play.edit", token=fresh.edit_token))


# --------------------------------------------------------------------------- history


def list_games():
    entries = []
    for entry in history.entries():
        record = entry.record
        game = games.GAMES.get(record.game)
        result = score_cache.result_of(record) if record.status == "scored" else None
        entries.append({
            "record": record, "can_edit": entry.can_edit,
            "game": game.title if game else record.game,
            "variant": game.variant_label(record.variant) if game else record.variant,
            "players": store.names_of(record),
            "colours": store.colours_of(record),
            "winners": result.winners if result else [],
            "solo": core.solo_score(result) if result else None,
            "url": (url_for("play.results" if record.status == "scored" else "play.edit",
                            token=record.edit_token) if entry.can_edit
                    else url_for("play.view", token=record.view_token)),
        })
    return render_template("play/history.html", entries=entries)


def remove(token: str):
    """Remove a game from this device's list (the no-JS confirmation page, then a CSRF-checked POST);
    the game itself is deleted when this device could edit it and no other device kept it."""
    record = store.by_view_token(token)
    entry = history.entry_for(record)
    if entry is None:
        abort(404)
    if request.method == "POST":
        deleted = history.forget(record)
        flash(_("Partie supprimée.") if deleted else _("Partie retirée de cet appareil."), "success")
        return redirect(url_for("play.history"))
    game = games.GAMES.get(record.game)
    return render_template("play/delete.html", record=record, can_edit=entry.can_edit,
                           game=game, names=store.names_of(record))
