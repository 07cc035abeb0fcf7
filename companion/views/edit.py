"""The end-state page of a game being scored (/g/<token>/), its autosave (/save) and the state a
phone asks for when it comes back (/state). Thin: each save goes through the saving service
(companion/saving), which merges, checks and writes; here only the request and the answer."""

from __future__ import annotations

from functools import partial

from flask import abort, flash, jsonify, redirect, render_template, request, url_for

from .. import forms, games, history, store
from ..forms import direct
from ..games.i18n import N_, _, ngettext, tr
from ..saving import service, wire
from . import edit_page

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
WAITING = "attente"  # the edit page's query after a refused "Voir les résultats" (post/redirect/get)
DRAFT = N_("Enregistré (à compléter avant les résultats : voir les champs signalés).")


def partly(refused: dict) -> str:
    """The save state of a save stored without its values wrong on their own."""
    return ngettext("Enregistré, sauf {n} valeur à corriger", "Enregistré, sauf {n} valeurs à corriger",
                    len(refused))


def _partial_page(out, sc: forms.Screens):
    """A no-JS save stored without its values wrong on their own: the page of what is stored now,
    each refused field holding what was typed, with its message (nothing else to do than fix it)."""
    from werkzeug.datastructures import MultiDict

    view = out.view if out.view is not None else forms.stored(sc, out.record.document)
    values = dict(view.values) | {name: request.form.get(name, "") for name in out.refused}
    if "csrf_token" in request.form:
        values["csrf_token"] = request.form["csrf_token"]
    form = sc.form(out.record.document, formdata=MultiDict(list(values.items())))
    form.version.data = str(out.record.version)
    return _edit_page(out.record, sc, form, errors=out.checked.errors | out.refused,
                      general=[partly(out.refused), *out.checked.general], status=422, stored=view.values)

def screens_or_404(game_id: str) -> forms.Screens:
    sc = forms.screens(game_id)
    if sc is None:
        abort(404)
    return sc


def _edit_page(record, sc: forms.Screens, form, *, errors=None, general=None, theirs=None, status=200,
               stored: dict | None = None, summarised: bool = False):
    """The end-state page; `stored`: the stored values (`forms.raw_values`) when the caller has them;
    the summary of what to fix on top for a refusal (422) or when `summarised`."""
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
        # what the game's page offers from this device's past games (Reterra's cards): read only there
        from_past=partial(games.from_past, record.game, partial(history.documents, record.game)),
        errors=errors, general=general or [], theirs=theirs or {},
        summary=forms.summary(form, errors) if status == 422 or summarised else [],
        # a conflict's fields, named for a player, with the other side's value (see `save`)
        conflict_fields=forms.summary(form, {n: [v] for n, v in theirs.items()}) if theirs else [],
        base_values=edit_page.quoted_json(stored),
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


def edit(token: str):
    if request.method == "GET":
        # the game with this device's history entry, in one query (written when it must be)
        row = history.open_by_edit_token(token)
        sc = screens_or_404(row.game)
        waiting = request.args.get(WAITING) == "1"  # "Voir les résultats" refused, then redirected here
        fast = None if waiting else edit_page.page(row, sc)  # nothing beside a field: its skeleton
        if fast is not None:
            return fast
        record = store.by_edit_token(token)
        form = sc.form(record.document)
        form.version.data = str(record.version)
        # a stored draft's rules beside their fields; a game that scores (its result is kept) has none
        errors = {} if store.result_of(record) is not None else forms.problems_of(sc, record.document, form)
        if waiting and not errors:  # scored meanwhile (another phone): nothing waits any more
            return redirect(url_for("play.edit", token=token))
        general = [tr(UNFINISHED), *forms.stored_problems(sc, forms.stored(sc, record.document))[1]] \
            if waiting else None  # the rules with no field of their own too, as the refusal said them
        return _edit_page(record, sc, form, errors=errors, stored=forms.raw_values(form), general=general,
                          summarised=waiting)
    record = store.by_edit_token(token)
    sc = screens_or_404(record.game)
    finishing = request.form.get("action") == "finish"
    out = _submit(record, sc, finishing=finishing)
    if out.kind == "seats":  # the players changed on another phone: this page's seats are gone
        flash(tr(service.SEATS_MOVED), "error")
        return redirect(url_for("play.edit", token=token), 303)
    record, form, checked = out.record, out.form, out.checked
    form.version.data = str(record.version)  # saving again applies this phone's entries
    if out.kind == "conflict":
        return _edit_page(record, sc, form, errors=checked.errors, theirs=out.theirs,
                          general=[tr(CONFLICT), *checked.general], status=409, stored=out.known)
    if out.kind == "invalid":
        return _edit_page(record, sc, form, errors=checked.errors, general=[tr(INVALID), *checked.general],
                          status=422, stored=out.known)
    if out.refused:  # stored without the values wrong on their own: they stay on the page to fix
        return _partial_page(out, sc)
    if request.form.get("add_row"):
        return _edit_page(record, sc, form, errors=checked.errors, stored=out.known)
    if finishing and not checked.ok:  # kept as a draft; only the results wait for the rules
        # post/redirect/get: the page that says so is a GET the back button leaves (no "resubmit?")
        return redirect(url_for("play.edit", token=token, _anchor="error-summary", **{WAITING: "1"}), 303)
    if finishing:
        return redirect(url_for("play.results", token=token))
    for message in out.dropped.values():
        flash(message, "error")
    flash(_("Enregistré.") if checked.ok else tr(DRAFT), "success")
    # the fields this phone changed: in this post, or (with JS) in the autosave just before it
    changed = out.changed or forms.parse_list(request.form.get("just_saved")) or []
    return redirect(url_for("play.edit", token=token, _anchor=_anchor(form, changed)))


def save(token: str):
    """Autosave (fetch, debounced): JSON in the same shape whatever happens. `stored` is every
    non-blank stored value, so the page takes in what another phone saved meanwhile; `changed`
    instead, for a page that asks for it (`delta`) and whose save was laid on the version it holds:
    what changed since (`wire.stored_changes`)."""
    with store.saving() as connection:  # read and written with Core statements, no ORM session
        record = store.held_by_edit_token(token, connection)  # the game as a save needs it
        sc = screens_or_404(record.game)
        out = _submit(record, sc)  # written on the same connection (`store.save` of a Held record)
    if out.kind == "seats":  # nothing stored: the phone reloads (autosave.js shows the message)
        return jsonify(ok=False, reload=True, version=out.record.version,
                       message=tr(service.SEATS_MOVED)), 409
    checked = out.checked
    # the stored values after it, or as they are (the save's own view when it has one: no second look-up)
    view = out.view if out.view is not None else forms.stored(sc, out.record.document)
    stored = {k: v for k, v in view.values.items() if v}
    if out.kind == "conflict":
        result = store.result_of(out.record)  # what is stored: right again once "theirs" is taken
        # each field in conflict, named for a player, with the other side's value: the notice links
        # to them (one may be on another player's step, hidden); named without a form when the save
        # built none
        fields = [list(item) for item in direct.summary(sc, out.record.document, out.form,
                                                        {n: [v] for n, v in out.theirs.items()})]
        return jsonify(ok=False, conflict=True, version=out.record.version, theirs=out.theirs,
                       fields=fields, message=tr(CONFLICT_LIVE), errors=checked.errors,
                       general=checked.general, stored=stored,
                       totals=[p.total for p in result.players] if result else []), 409
    if out.kind == "invalid":  # the refused fields, named for a player (only a refusal lists them)
        summary = [list(item) for item in direct.summary(sc, out.record.document, out.form, checked.errors)]
        return jsonify(ok=False, version=out.record.version, errors=checked.errors,
                       general=[tr(INVALID), *checked.general], summary=summary, stored=stored), 422
    held = {"stored": stored}
    errors, more = checked.errors, {}
    if out.refused:  # stored without the values wrong on their own: each keeps its message and entry
        errors = checked.errors | out.refused
        summary = direct.summary(sc, out.record.document, out.form, out.refused)
        more = {"refused": list(out.refused), "state": partly(out.refused),
                "summary": [list(item) for item in summary]}
    if out.before is not None and wire.wants_delta(request.form) \
            and out.laid_on == wire.version_of(request.form):  # laid on the version the page holds
        held = {"changed": wire.stored_changes(out.before.values, view.values)}
    return jsonify(ok=True, version=out.record.version, errors=errors,
                   general=[*out.dropped.values(), *checked.general],
                   totals=[p.total for p in checked.result.players] if checked.result else [],
                   draft=not checked.ok, moved=out.moved,
                   warnings=forms.warned(sc, out.record.document, view, checked.result)[0], **held, **more)


def state(token: str):
    """What the server holds now, for a page coming back to the front (a phone woken up, a tab
    shown again: another phone may have saved meanwhile). Nothing (204) when `version` is still the
    stored one, else the answer of a save that changed nothing. Never writes."""
    record = store.by_edit_token(token)
    sc = screens_or_404(record.game)
    if request.args.get("version") == str(record.version):
        return "", 204
    asked = request.args.get("version", "")
    if asked.isdigit() and int(asked) < record.seats_version:  # its seats are gone: never caught up
        return jsonify(ok=False, reload=True, version=record.version, message=tr(service.SEATS_MOVED)), 409
    view = forms.stored(sc, record.document)
    result = store.result_of(record)
    errors, general = forms.stored_problems(sc, view)
    return jsonify(ok=True, version=record.version, errors=errors, general=general,
                   totals=[p.total for p in result.players] if result else [], draft=result is None,
                   stored={k: v for k, v in view.values.items() if v},
                   warnings=forms.warned(sc, record.document, view, result)[0])

