"""The "Joueurs" page (/g/<token>/joueurs): rename, reseat, recolour, add or remove the players of
a game under way. Thin: the change is planned and written by companion/storage/players.py."""

from __future__ import annotations

import json

from flask import abort, flash, redirect, render_template, request, url_for

from .. import forms, games
from ..forms.players import players_form
from ..games.i18n import _
from ..storage import history, players, store


def page(token: str):
    record = store.by_edit_token(token)
    sc = forms.screens(record.game)
    game = games.GAMES.get(record.game)
    if sc is None or game is None:
        abort(404)
    names = store.names_of(record)
    colours = store.colours_of(record)
    posted = request.method == "POST"
    form = players_form(len(names))(formdata=request.form if posted else None)
    palette = [hex_ for hex_, _name in sc.palette]
    places = forms.options((str(n), str(n)) for n in range(1, len(names) + 1))
    for entry in form.players.entries:
        entry.form.colour.choices = forms.options(sc.palette)
        entry.form.place.choices = places
    form.new_colour.choices = forms.options([("", _("une libre")), *sc.palette])
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    if posted:
        form.validate()  # CSRF is checked app-wide before this; the rows are read below
        change = _change(form, names)
        if change is None:  # rendered for other players: the page of the players stored now
            return _fresh(record, sc, game, [players.elsewhere()])
        out = players.apply(record, change, palette)
        if out.ok:
            flash(_("Joueurs enregistrés."), "success")
            return redirect(url_for("play.edit", token=token), 303)
        errors, general = out.errors, out.general
        if general:  # the players changed elsewhere meanwhile: the page of what is stored now
            return _fresh(store.by_edit_token(token), sc, game, general)
    else:
        _fill(form, names, colours)
    status = 422 if errors or general else 200
    return render_template("play/players.html", record=record, form=form, game=game, names=names,
                           colours=colours, errors=errors, general=general,
                           known_names=history.known_names()), status


def _fill(form, names: list[str], colours: list[str]) -> None:
    form.roster.data = json.dumps(names, ensure_ascii=False)
    for i, entry in enumerate(form.players.entries):
        entry.form.name.data = names[i]
        entry.form.colour.data = colours[i]
        entry.form.place.data = str(i + 1)
        entry.form.remove.data = False
    form.new_name.data = ""
    form.new_colour.data = ""


def _fresh(record, sc, game, general: list[str]):
    """The page of the players stored now, with `general` on top (nothing of the post kept)."""
    names, colours = store.names_of(record), store.colours_of(record)
    form = players_form(len(names))()
    places = forms.options((str(n), str(n)) for n in range(1, len(names) + 1))
    for entry in form.players.entries:
        entry.form.colour.choices = forms.options(sc.palette)
        entry.form.place.choices = places
    form.new_colour.choices = forms.options([("", _("une libre")), *sc.palette])
    _fill(form, names, colours)
    return render_template("play/players.html", record=record, form=form, game=game, names=names,
                           colours=colours, errors={}, general=general,
                           known_names=history.known_names()), 409


def _change(form, names: list[str]) -> players.Change | None:
    """The posted rows as a change; None when the page was rendered for other players."""
    try:
        roster = json.loads(form.roster.data or "null")
    except ValueError:
        return None
    if not isinstance(roster, list) or roster != names:
        return None
    seats = []
    for i, entry in enumerate(form.players.entries):
        place = entry.form.place.data or ""
        seats.append(players.Seat(was=names[i], name=entry.form.name.data or "",
                                  colour=entry.form.colour.data or "",
                                  place=int(place) if place.isdigit() and len(place) < 3 else 0,
                                  remove=bool(entry.form.remove.data)))
    new = (form.new_name.data or "").strip()
    added = (new, form.new_colour.data or "") if new else None
    return players.Change(roster=roster, seats=seats, added=added)
