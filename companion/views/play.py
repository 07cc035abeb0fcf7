"""Scoring a game at the table: new game, end state (autosaved), results, sharing, history.

Game-independent: a game's fields come from `companion/forms/<game>.py` (see companion.forms).
URLs: /g/<edit_token>/... edits (whoever holds the link), /r/<view_token>/... only reads.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from functools import partial
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    has_request_context,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup

from .. import bgstats, forms, games, links, store
from ..extensions import db
from ..forms.html import FieldHtml
from ..games import i18n
from ..games.core import join_names
from ..games.i18n import N_, _, tr
from ..lru import LRU
from ..saving import service, wire

bp = Blueprint("play", __name__)
bp.after_request(store.set_device_cookie)
bp.add_app_template_global(FieldHtml, "field_html")  # templates/play/_fields.html: the fields' HTML

ONCE = re.compile(r"[\w-]{40,64}")
MONTHS = ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc.")
MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
CONFLICT = (N_("Quelqu'un a modifié les mêmes champs depuis un autre appareil pendant que vous "
               "saisissiez. Rien n'a été écrasé : ses valeurs sont indiquées sous ces champs, vos "
               "saisies y sont restées ; ses autres modifications sont reprises. « Enregistrer » "
               "appliquera vos saisies ; rechargez la page pour reprendre les siennes."))
# The same, as the autosave shows it: its own two buttons, and the fields listed with links to them.
CONFLICT_LIVE = (N_("Un autre appareil a modifié les mêmes champs pendant que vous saisissiez. Rien n'a "
                    "été écrasé : vos saisies sont restées dans ces champs, la valeur de l'autre appareil "
                    "est indiquée sous chacun, et ses autres modifications sont reprises. Choisissez :"))
INVALID = N_("Rien n'a été enregistré : corrigez les champs signalés (vos saisies restent sur ce "
             "téléphone).")
UNFINISHED = (N_("Vos saisies sont enregistrées, mais les résultats attendent encore : complétez les "
                 "champs signalés."))
DRAFT = N_("Enregistré (à compléter avant les résultats : voir les champs signalés).")


ZONE_COOKIE = "companion_tz"  # the phone's time zone (IANA name), written by static/js/zone.js


def zone() -> ZoneInfo | None:
    """The player's time zone, from the cookie their browser set; None when unknown (no JS yet)."""
    name = request.cookies.get(ZONE_COOKIE, "") if has_request_context() else ""
    if not name or len(name) > 64 or not re.fullmatch(r"[A-Za-z0-9_+\-/]+", name):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def local(value: datetime) -> datetime:
    """A stored time (UTC; SQLite gives it back without its zone) in the player's time zone."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(zone() or UTC)


def french_date(value: datetime | date | None) -> str:
    """A short date in the reader's language: « 22 nov. 2026 », "22 Nov 2026"."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = local(value)
    months = MONTHS_EN if i18n.current() == "en" else MONTHS
    return f"{value.day} {months[value.month - 1]} {value.year}"


@bp.app_template_filter("fr_date")
def _fr_date(value) -> str:
    return french_date(value)


@bp.app_template_filter("fr_when")
def _fr_when(value: datetime) -> str:
    """« 22 nov. 2026 à 21 h 05 » in the player's zone; « … UTC » while the zone is unknown."""
    t = local(value)
    if i18n.current() == "en":
        return f"{french_date(t)}, {t.hour}:{t.minute:02d}" + ("" if zone() else " UTC")
    return f"{french_date(t)} à {t.hour} h {t.minute:02d}" + ("" if zone() else " UTC")


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
    if request.method == "GET" or not ONCE.fullmatch(form.once.data or ""):
        form.once.data = secrets.token_urlsafe(32)
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
    done = store.by_creation_key(form.once.data) if form.once.data else None
    if done is not None:  # this very form was already posted (double tap, Back then submit)
        return done
    if variant not in game.variants:
        errors.setdefault(form.variant.name, []).append(_("choisissez une variante"))
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
                _("couleur déjà prise par {other} : choisissez-en une autre", other=other))
        colours.append(colour)
    document = {"game": game.id, "variant": variant, "players": [{"name": n} for n in names]}
    for problem in games.validate(document):
        path = problem.path
        if path.startswith("players[") and path.endswith("].name"):
            seat = seats[int(path[len("players["):path.index("]")])]
            errors.setdefault(form.players.entries[seat].form.name.name, []).append(problem.message)
        elif path == "players":  # too few: the form has no more seats than the game allows
            general.append(problem.message if names else
                           _("Ajoutez les joueurs : {game} se joue de {lo} à {hi} joueurs.",
                             game=game.title, lo=game.min_players, hi=game.max_players))
        else:
            general.append(problem.message)
    if errors or general:
        return None
    twin = store.untouched_twin(game.id, variant, names, colours)
    if twin is not None:
        return twin
    given = [(entry.data or "").strip()[:20] for entry in form.colour_names.entries][:sc.colour_names]
    labels = {"colours": given} if any(given) else None
    record = store.create(game.id, variant, names, colours, creation_key=form.once.data, labels=labels)
    db.session.commit()
    return record


# --------------------------------------------------------------------------- end state


def _edit_page(record, sc: forms.Screens, form, *, errors=None, general=None, theirs=None, status=200,
               stored: dict | None = None):
    """The end-state page; `stored`: the stored values (`forms.raw_values`) when the caller has them."""
    if stored is None:
        stored = forms.stored(sc, record.document).values
    forms.pad_rows(form, request.form.get("add_row") if request.method == "POST" else None)
    result = store.result_of(record)
    errors = errors or {}
    warned = forms.warned(sc, record.document, form, result)[0] if not errors else {}
    sc.label(form, store.labels_of(record))
    stored = {k: v for k, v in stored.items() if v}
    return render_template(
        sc.templates, record=record, screens=sc, game=sc.game, form=form,
        names=store.names_of(record), colours=store.colours_of(record),
        totals=[p.total for p in result.players] if result else [], warned=warned,
        known_cards=partial(store.known_cards, record.game),  # read only by a page that offers them
        errors=errors, general=general or [], theirs=theirs or {},
        summary=forms.summary(form, errors) if status == 422 else [],
        # a conflict's fields, named for a player, with the other side's value (see `save`)
        conflict_fields=forms.summary(form, {n: [v] for n, v in theirs.items()}) if theirs else [],
        base_values=json.dumps(stored, ensure_ascii=False, separators=(",", ":")),
    ), status


def _save_of(record, sc: forms.Screens) -> wire.Save | None:
    """What this phone changed: the autosave's own lists, or the no-JS form compared with the values
    its page was rendered from (its rows never move: each count's card is its row's). None when a
    post cannot say (no base values and an older version): every difference is then a conflict."""
    if wire.is_autosave(request.form):
        try:
            return wire.autosave(request.form)
        except wire.BadSave:
            abort(400)
    posted_form = sc.form(record.document, formdata=request.form)
    posted = forms.raw_values(posted_form)
    base = wire.parse_values(request.form.get(wire.BASE))
    version = wire.version_of(request.form)
    if base is None:
        if version != record.version:
            return None
        base = forms.stored(sc, record.document).values
    return wire.Save(wire.changes_of(posted, base), forms.new_rows(posted_form, base),
                     forms.row_keys(sc, posted_form), version)


def _submit(record, sc: forms.Screens, *, finishing: bool = False) -> service.Outcome:
    """This request's save through the saving service (companion/saving/service.py)."""
    save = _save_of(record, sc)
    extra = {"csrf_token": request.form.get("csrf_token", "")} if "csrf_token" in request.form else {}
    try:
        return service.submit(record, save, forms.Steps(sc, request.form, extra), write=store.save,
                              finishing=finishing)
    except service.Busy:
        abort(503)


def _anchor(form, changed: list[str]) -> str:
    """Where the player was: the last field this phone changed, in the page's order."""
    order = {name: k for k, name in enumerate(forms.labels(form))}
    known = [name for name in changed if name in order]
    if not known:
        return "actions"
    return "f-" + max(known, key=order.get)


@bp.route("/g/<token>/", methods=["GET", "POST"])
def edit(token: str):
    record = store.by_edit_token(token)
    sc = _screens_or_404(record.game)
    if request.method == "GET":
        store.remember(record, can_edit=True)
        form = sc.form(record.document)
        form.version.data = str(record.version)
        # a stored draft's rules beside their fields; a game that scores (its result is kept) has none
        errors = {} if store.result_of(record) is not None else forms.problems_of(sc, record.document, form)
        return _edit_page(record, sc, form, errors=errors, stored=forms.raw_values(form))
    finishing = request.form.get("action") == "finish"
    out = _submit(record, sc, finishing=finishing)
    record, form, checked = out.record, out.form, out.checked
    form.version.data = str(record.version)  # saving again applies this phone's entries
    if out.kind == "conflict":
        return _edit_page(record, sc, form, errors=checked.errors, theirs=out.theirs,
                          general=[tr(CONFLICT), *checked.general], status=409, stored=out.known)
    if out.kind == "invalid":
        return _edit_page(record, sc, form, errors=checked.errors, general=[tr(INVALID), *checked.general],
                          status=422, stored=out.known)
    if request.form.get("add_row"):
        return _edit_page(record, sc, form, errors=checked.errors, stored=out.known)
    if finishing and not checked.ok:  # kept as a draft; only the results wait for the rules
        return _edit_page(record, sc, form, errors=checked.errors,
                          general=[tr(UNFINISHED), *checked.general], status=422, stored=out.known)
    if finishing:
        return redirect(url_for("play.results", token=token))
    for message in out.dropped.values():
        flash(message, "error")
    flash(_("Enregistré.") if checked.ok else tr(DRAFT), "success")
    # the fields this phone changed: in this post, or (with JS) in the autosave just before it
    changed = out.changed or forms.parse_list(request.form.get("just_saved")) or []
    return redirect(url_for("play.edit", token=token, _anchor=_anchor(form, changed)))


@bp.post("/g/<token>/save")
def save(token: str):
    """Autosave (fetch, debounced): JSON in the same shape whatever happens. `stored` is every
    non-blank stored value, so the page takes in what another phone saved meanwhile."""
    record = store.by_edit_token(token)
    sc = _screens_or_404(record.game)
    out = _submit(record, sc)
    checked = out.checked
    stored = {k: v for k, v in out.stored.items() if v}
    summary = [list(item) for item in forms.summary(out.form, checked.errors)]
    if out.kind == "conflict":
        result = store.result_of(out.record)  # what is stored: right again once "theirs" is taken
        # each field in conflict, named for a player, with the other side's value: the notice links
        # to them (one may be on another player's step, hidden)
        fields = [list(item) for item in forms.summary(out.form, {n: [v] for n, v in out.theirs.items()})]
        return jsonify(ok=False, conflict=True, version=out.record.version, theirs=out.theirs,
                       fields=fields, message=tr(CONFLICT_LIVE), errors=checked.errors,
                       general=checked.general, stored=stored,
                       totals=[p.total for p in result.players] if result else []), 409
    if out.kind == "invalid":
        return jsonify(ok=False, version=out.record.version, errors=checked.errors,
                       general=[tr(INVALID), *checked.general], summary=summary, stored=stored), 422
    return jsonify(ok=True, version=out.record.version, errors=checked.errors,
                   general=[*out.dropped.values(), *checked.general],
                   totals=[p.total for p in checked.result.players] if checked.result else [],
                   draft=not checked.ok, stored=stored, moved=out.moved,
                   warnings=forms.warned(sc, out.record.document, forms.stored(sc, out.record.document),
                                         checked.result)[0])


@bp.get("/g/<token>/state")
def state(token: str):
    """What the server holds now, for a page coming back to the front (a phone woken up, a tab
    shown again: another phone may have saved meanwhile). Nothing (204) when `version` is still the
    stored one, else the answer of a save that changed nothing. Never writes."""
    record = store.by_edit_token(token)
    sc = _screens_or_404(record.game)
    if request.args.get("version") == str(record.version):
        return "", 204
    view = forms.stored(sc, record.document)
    result = store.result_of(record)
    errors, general = forms.stored_problems(sc, view)
    return jsonify(ok=True, version=record.version, errors=errors, general=general,
                   totals=[p.total for p in result.players] if result else [], draft=result is None,
                   stored={k: v for k, v in view.values.items() if v},
                   warnings=forms.warned(sc, record.document, view, result)[0])


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
    sc = forms.screens(record.game)
    labels = store.labels_of(record)

    def say(text: str) -> str:  # the table's names (Revive's colours) in the engine's sentences
        return sc.relabel(text, labels) if sc else text

    rows = []
    for row in games.score_pad(result):
        cells = [{"points": line.points, "detail": say(line.detail), "name": p.name}
                 for line, p in zip(row.lines, result.players, strict=True)]
        rows.append({"key": row.key, "label": row.label, "hint": row.hint, "cells": cells,
                     "details": [c for c in cells if c["detail"]]})
    context.update(
        rows=rows, totals=totals,
        warnings=[w.message for w in games.warnings(record.document, result, finished=True)],
        headline=(_("{names} gagne", names=result.winners[0]) if len(result.winners) == 1

                  else _("Victoire partagée : {names}", names=join_names(result.winners))),
        tiebreaks=game.tiebreak_lines(record.variant),
    )
    return context


@dataclass(frozen=True)
class Shown:
    """What a results page shows of one stored version: the podium, ties, score pad and chart
    (play/_results.html, `html`; None when the version does not score) and the BG Stats link."""

    html: Markup | None
    bgstats: str = ""

    def __len__(self) -> int:  # its weight in SHOWN
        return len(self.html or "") + len(self.bgstats)


# Rendered results per process: a results page is read again and again between two saves (the
# table, each phone the link was shared with). Bounded in characters and in count.
SHOWN = LRU(max_size=16 * 1024 * 1024, max_items=512)


def _shown(record, *, editable: bool) -> Shown:
    """The results of `record`'s stored version, rendered once per everything they are drawn from:
    the version (the document; every save bumps it), the players' colours and the table's names,
    the reader's language and time zone (the date), edit or read-only, the site's root (static
    links). Nothing of the request or the reader's session goes in: the CSRF token, flashed
    messages, header and menu are rendered around it on each request."""
    here = zone()
    key = (record.view_token, record.version, repr(record.colours), repr(record.labels), i18n.current(),
           here.key if here else "", editable, request.script_root)
    shown = SHOWN.get(key)
    if shown is None:
        context = _results_context(record, editable=editable)
        if context["result"] is None:
            shown = Shown(None)
        else:
            shown = Shown(Markup(render_template("play/_results.html", **context)),  # noqa: S704 - rendered escaped
                          bgstats.link(context["result"], uid=record.uid, played_at=record.created_at))
        if not current_app.jinja_env.auto_reload:  # development: templates change under it
            SHOWN.put(key, shown)
    return shown


@bp.get("/g/<token>/resultats")
def results(token: str):
    record = store.open_by_edit_token(token)
    shown = _shown(record, editable=True)
    if shown.html is None:
        flash(_("Pas encore de résultats : complétez les champs signalés."), "error")
        return redirect(url_for("play.edit", token=token))
    share = links.phone_url("play.view", token=record.view_token)
    return render_template("play/results.html", record=record, game=games.GAMES[record.game], shown=shown,
                           share_url=share)


@bp.get("/r/<token>/")
def view(token: str):
    record = store.open_by_view_token(token)
    return render_template("play/view.html", record=record, game=games.GAMES[record.game],
                           shown=_shown(record, editable=False))


def _sheet(record, back: str):
    """The filled sheet; a draft that does not score yet (a rule between fields not met) has none:
    back to its page, which says so (`back`). A sheet already drawn for this version (or a 304)
    costs one query: the game is scored only when its sheet is drawn."""
    from ..pdf.cache import sheet_response

    sc = _screens_or_404(record.game)
    labels = store.labels_of(record)
    # Hex and the palette's French name, so a black-and-white print still tells players apart.
    colours = [(c, sc.colour_name(c)) for c in store.colours_of(record)]
    day = local(record.created_at).date()  # the date where the table played

    def render() -> bytes | None:
        from ..pdf import sheet_from_result  # WeasyPrint loads only when a sheet is rendered

        result = store.result_of(record)
        if result is None:
            return None
        if labels:  # the table's names (Revive's colours) in each line's detail, as on the results page
            result = replace(result, players=[
                replace(p, breakdown=[replace(line, detail=sc.relabel(line.detail, labels))
                                      for line in p.breakdown])
                for p in result.players])
        return sheet_from_result(record.document, result, colours=colours, date=day)

    # Rendered once per stored version (ETag, 304); the key holds all the sheet draws from.
    response = sheet_response(record, colours, day, labels, render)
    return redirect(back) if response is None else response


@bp.get("/g/<token>/sheet.pdf")
def sheet(token: str):
    return _sheet(store.read_by_edit_token(token), url_for("play.results", token=token))


@bp.get("/r/<token>/sheet.pdf")
def view_sheet(token: str):
    return _sheet(store.read_by_view_token(token), url_for("play.view", token=token))


# Table-level parts a new game with the same table keeps (the cards in play stay on the table).
AGAIN_KEEPS = {"reterra": ("buildings",)}


@bp.post("/g/<token>/rejouer")
def again(token: str):
    """Play again: a new game with the same game, variant, players, colours and table names, the
    next player starting (seat order shifted by one: the first player passes to the left); the
    table-level cards in play stay (Reterra's buildings, ruling in docs/rulings.md)."""
    record = store.by_edit_token(token)
    names, colours = store.names_of(record), store.colours_of(record)
    names, colours = names[1:] + names[:1], colours[1:] + colours[:1]
    kept = {key: record.document[key] for key in AGAIN_KEEPS.get(record.game, ()) if key in record.document}
    fresh = store.create(record.game, record.variant, names, colours, labels=store.labels_of(record),
                         document=kept)
    db.session.commit()
    store.remember(fresh, can_edit=True)
    flash(_("Nouvelle partie, mêmes joueurs : bonne partie !"), "success")
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
            "game": game.title if game else record.game,
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
        flash(_("Partie supprimée.") if deleted else _("Partie retirée de cet appareil."), "success")
        return redirect(url_for("play.history"))
    game = games.GAMES.get(record.game)
    return render_template("play/delete.html", record=record, can_edit=entry.can_edit,
                           game=game, names=store.names_of(record))
