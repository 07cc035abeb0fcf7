"""Scoring a game at the table: new game, end state (autosaved), results, sharing, history.

Game-independent: a game's fields come from `companion/forms/<game>.py` (see companion.forms).
URLs: /g/<edit_token>/... edits (whoever holds the link), /r/<view_token>/... only reads.
"""

from __future__ import annotations

from datetime import date, datetime

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from .. import forms, games, store
from ..extensions import db
from ..games.core import join_names

bp = Blueprint("play", __name__)
bp.after_request(store.set_device_cookie)

MONTHS = ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc.")
CONFLICT = ("Quelqu'un a enregistré cette partie depuis un autre appareil pendant que vous saisissiez. "
            "Rien n'a été écrasé : ses valeurs sont indiquées sous les champs concernés, vos saisies sont "
            "restées dans le formulaire. « Enregistrer » appliquera vos saisies ; rechargez la page pour "
            "reprendre les siennes.")
INVALID = "Rien n'a été enregistré : corrigez les champs signalés (vos saisies restent sur ce téléphone)."


def french_date(value: datetime | date | None) -> str:
    if value is None:
        return ""
    return f"{value.day} {MONTHS[value.month - 1]} {value.year}"


@bp.app_template_filter("fr_date")
def _fr_date(value) -> str:
    return french_date(value)


def _screens_or_404(game_id: str) -> forms.Screens:
    sc = forms.screens(game_id)
    if sc is None:
        abort(404)
    return sc


# --------------------------------------------------------------------------- new game


@bp.route("/nouvelle", methods=["GET", "POST"])
def new():
    game_id = request.values.get("game", "")
    game = games.GAMES.get(game_id)
    if game is None:
        return render_template("play/pick.html", games=list(games.GAMES.values()),
                               available={g: forms.screens(g) is not None for g in games.GAMES})
    sc = forms.screens(game_id)
    if sc is None or game.score is None:
        return render_template("play/pick.html", games=list(games.GAMES.values()), unavailable=game,
                               available={g: forms.screens(g) is not None for g in games.GAMES}), 404
    form = forms.new_game_form(game.max_players)(formdata=request.form if request.method == "POST" else None)
    form.game.data = game.id
    form.variant.choices = forms.options(game.variants.items())
    if request.method == "GET":
        variant = request.args.get("variant")
        form.variant.data = variant if variant in game.variants else next(iter(game.variants))
        _prefill_players(form, sc)
    palette = sc.palette
    for entry in form.players.entries:
        entry.form.colour.choices = forms.options(palette)
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    if request.method == "POST":
        record = _create(form, game, sc, errors, general)
        if record is not None:
            store.remember(record, can_edit=True)
            return redirect(url_for("play.edit", token=record.edit_token))
    status = 422 if errors or general else 200
    return render_template("play/new.html", form=form, game=game, screens=sc, errors=errors,
                           general=general, known_names=store.known_names()), status


def _prefill_players(form, sc: forms.Screens) -> None:
    """Seat i's colour defaults to the box's colour i."""
    defaults = sc.default_colours(len(form.players.entries))
    for i, entry in enumerate(form.players.entries):
        entry.form.name.data = ""
        entry.form.colour.data = defaults[i]


def _create(form, game: games.Game, sc: forms.Screens, errors: dict, general: list):
    """A new game from the form, or None with messages beside the fields."""
    variant = form.variant.data
    if variant not in game.variants:
        errors.setdefault(form.variant.name, []).append("choisissez une variante")
        return None
    palette = [hex_ for hex_, _ in sc.palette]
    seats, names, colours = [], [], []
    for i, entry in enumerate(form.players.entries):
        name = (entry.form.name.data or "").strip()
        if not name:
            continue
        seats.append(i)
        names.append(name)
        colour = entry.form.colour.data
        colour = colour if colour in palette else sc.default_colours(i + 1)[i]
        if colour in colours and len(palette) >= len(form.players.entries):
            # Two pawns of one colour cannot sit at one table (the box has one set per colour).
            other = names[colours.index(colour)]
            errors.setdefault(entry.form.name.name, []).append(
                f"couleur déjà prise par {other} : choisissez-en une autre")
        colours.append(colour)
    document = {"game": game.id, "variant": variant, "players": [{"name": n} for n in names]}
    for problem in games.validate(document):
        path = problem.path
        if path.startswith("players[") and path.endswith("].name"):
            seat = seats[int(path[len("players["):path.index("]")])]
            errors.setdefault(form.players.entries[seat].form.name.name, []).append(problem.message)
        elif path == "players":
            general.append(problem.message if names else
                           f"Ajoutez les joueurs : {game.label} se joue de {game.min_players} "
                           f"à {game.max_players} joueurs.")
        else:
            general.append(problem.message)
    if errors or general:
        return None
    record = store.create(game.id, variant, names, colours)
    db.session.commit()
    return record


# --------------------------------------------------------------------------- end state


def _edit_page(record, sc: forms.Screens, form, *, errors=None, general=None, theirs=None, status=200):
    forms.pad_rows(form, request.form.get("add_row") if request.method == "POST" else None)
    result = store.result_of(record)
    warned = forms.warned(sc, record.document, form)[0] if not errors else {}
    return render_template(
        sc.templates, record=record, screens=sc, game=sc.game, form=form,
        names=store.names_of(record), colours=store.colours_of(record),
        totals=[p.total for p in result.players] if result else [], warned=warned,
        errors=errors or {}, general=general or [], theirs=theirs or {}, kind=forms.kind,
    ), status


def _submit(record, sc: forms.Screens):
    """Check a submission and store it if valid and not stale.

    Returns (outcome, form, checked, theirs) with outcome "saved", "invalid" or "conflict"."""
    form = sc.form(record.document, formdata=request.form)
    base = form.version_number()
    checked = forms.check(sc, record.document, form)
    finishing = request.form.get("action") == "finish"
    theirs = {}
    if base != record.version:
        theirs = forms.differences(form, sc.form(record.document))
        return "conflict", form, checked, theirs
    if not checked.ok:
        return "invalid", form, checked, theirs
    try:
        store.save(record, checked.document, base, status="scored" if finishing else None)
    except store.StaleVersion as exc:
        record = exc.record
        theirs = forms.differences(form, sc.form(record.document))
        return "conflict", form, checked, theirs
    form.version.data = str(record.version)
    return "saved", form, checked, theirs


@bp.route("/g/<token>/", methods=["GET", "POST"])
def edit(token: str):
    record = store.by_edit_token(token)
    sc = _screens_or_404(record.game)
    if request.method == "GET":
        store.remember(record, can_edit=True)
        form = sc.form(record.document)
        form.version.data = str(record.version)
        return _edit_page(record, sc, form)
    outcome, form, checked, theirs = _submit(record, sc)
    if outcome == "conflict":
        record = store.by_edit_token(token)
        form.version.data = str(record.version)  # saving again applies this phone's entries
        return _edit_page(record, sc, form, errors=checked.errors, theirs=theirs,
                          general=[CONFLICT, *checked.general], status=409)
    if outcome == "invalid":
        return _edit_page(record, sc, form, errors=checked.errors, general=[INVALID, *checked.general],
                          status=422)
    if request.form.get("add_row"):
        return _edit_page(record, sc, form)
    if request.form.get("action") == "finish":
        return redirect(url_for("play.results", token=token))
    flash("Enregistré.", "success")
    return redirect(url_for("play.edit", token=token))


@bp.post("/g/<token>/save")
def save(token: str):
    """Autosave (fetch, debounced): JSON in the same shape whatever happens."""
    record = store.by_edit_token(token)
    sc = _screens_or_404(record.game)
    outcome, form, checked, theirs = _submit(record, sc)
    if outcome == "conflict":
        fresh = store.by_edit_token(token)
        return jsonify(ok=False, conflict=True, version=fresh.version, theirs=theirs, message=CONFLICT,
                       errors=checked.errors, general=checked.general), 409
    if outcome == "invalid":
        return jsonify(ok=False, version=record.version, errors=checked.errors,
                       general=[INVALID, *checked.general]), 422
    return jsonify(ok=True, version=int(form.version.data), errors={}, general=[],
                   totals=[p.total for p in checked.result.players],
                   warnings=forms.warned(sc, record.document, form, checked.result)[0])


# --------------------------------------------------------------------------- results


def _results_context(record, *, editable: bool) -> dict:
    result = store.result_of(record)
    game = games.GAMES[record.game]
    names = store.names_of(record)
    colours = dict(zip(names, store.colours_of(record), strict=True))
    context = {"record": record, "game": game, "result": result, "colours": colours, "editable": editable,
               "variant_label": game.variant_label(record.variant)}
    if result is None:
        return context
    totals = {p.name: p.total for p in result.players}
    rows = []
    for row in games.score_pad(result):
        cells = [{"points": line.points, "detail": line.detail, "name": p.name}
                 for line, p in zip(row.lines, result.players, strict=True)]
        rows.append({"key": row.key, "label": row.label, "hint": row.hint, "cells": cells,
                     "details": [c for c in cells if c["detail"]]})
    context.update(
        rows=rows, totals=totals, warnings=[w.message for w in games.warnings(record.document, result)],
        headline=(f"{result.winners[0]} gagne" if len(result.winners) == 1
                  else f"Victoire partagée : {join_names(result.winners)}"),
        tiebreaks=game.tiebreaks.get(record.variant, ()),
    )
    return context


@bp.get("/g/<token>/resultats")
def results(token: str):
    record = store.by_edit_token(token)
    store.remember(record, can_edit=True)
    context = _results_context(record, editable=True)
    if context["result"] is None:
        flash("Cette partie ne se calcule plus : vérifiez les champs signalés.", "error")
        return redirect(url_for("play.edit", token=token))
    share = url_for("play.view", token=record.view_token, _external=True)
    return render_template("play/results.html", share_url=share, **context)


@bp.get("/r/<token>/")
def view(token: str):
    record = store.by_view_token(token)
    store.remember(record, can_edit=False)
    return render_template("play/view.html", **_results_context(record, editable=False))


def _sheet(record):
    from ..pdf import render_sheet  # WeasyPrint loads only when a sheet is asked for

    sc = _screens_or_404(record.game)
    # Hex and the palette's French name, so a black-and-white print still tells players apart.
    colours = [(c, sc.colour_name(c)) for c in store.colours_of(record)]
    data = render_sheet(record.document, colours=colours, date=record.created_at.date())
    name = f"{record.game}-{record.created_at:%Y-%m-%d}.pdf"
    headers = {"Content-Disposition": f'inline; filename="{name}"', "Cache-Control": "no-store"}
    return Response(data, mimetype="application/pdf", headers=headers)


@bp.get("/g/<token>/sheet.pdf")
def sheet(token: str):
    return _sheet(store.by_edit_token(token))


@bp.get("/r/<token>/sheet.pdf")
def view_sheet(token: str):
    return _sheet(store.by_view_token(token))


@bp.post("/g/<token>/rejouer")
def again(token: str):
    """Play again: a new game with the same game, variant, players and colours."""
    record = store.by_edit_token(token)
    fresh = store.create(record.game, record.variant, store.names_of(record), store.colours_of(record))
    db.session.commit()
    store.remember(fresh, can_edit=True)
    flash("Nouvelle partie, mêmes joueurs : bonne partie !", "success")
    return redirect(url_for("play.edit", token=fresh.edit_token))


# --------------------------------------------------------------------------- history


@bp.get("/parties")
def history():
    entries = []
    for entry in store.history():
        record = entry.record
        game = games.GAMES.get(record.game)
        result = store.result_of(record) if record.status == "scored" else None
        entries.append({
            "record": record, "can_edit": entry.can_edit,
            "game": game.label if game else record.game,
            "variant": game.variant_label(record.variant) if game else record.variant,
            "players": store.names_of(record),
            "colours": store.colours_of(record),
            "winners": result.winners if result else [],
            "url": (url_for("play.results" if record.status == "scored" else "play.edit",
                            token=record.edit_token) if entry.can_edit
                    else url_for("play.view", token=record.view_token)),
        })
    return render_template("play/history.html", entries=entries)


@bp.route("/parties/<token>/supprimer", methods=["GET", "POST"])
def delete(token: str):
    """Remove a game from this device's list (the no-JS confirmation page, then a CSRF-checked POST);
    the game itself is deleted when this device could edit it and no other device kept it."""
    record = store.by_view_token(token)
    entry = store.entry_for(record)
    if entry is None:
        abort(404)
    if request.method == "POST":
        deleted = store.forget(record)
        flash("Partie supprimée." if deleted else "Partie retirée de cet appareil.", "success")
        return redirect(url_for("play.history"))
    game = games.GAMES.get(record.game)
    return render_template("play/delete.html", record=record, can_edit=entry.can_edit,
                           game=game, names=store.names_of(record))
