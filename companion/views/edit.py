"""The end-state page of a game being scored (/g/<token>/), its autosave (/save) and the state a
phone asks for when it comes back (/state). Thin: each save goes through the saving service
(companion/saving), which merges, checks and writes; here only the request and the answer."""

from __future__ import annotations

import contextlib
import sys
from functools import partial
from typing import Any, ClassVar

from flask import Response, abort, flash, g, jsonify, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from .. import forms, games
from ..games.i18n import N_, _, ngettext, tr
from ..saving import gamelog, service, wire
from ..storage import devices, history, store
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


def _form_of(out, sc: forms.GameForms, values=None):
    """The form of a save's texts (after a refusal or a conflict: what this phone typed, as the
    page shows it again), with the CSRF token posted."""
    pairs = list((out.data if values is None else values).items())
    if "csrf_token" in request.form:
        pairs.append(("csrf_token", request.form["csrf_token"]))
    return sc.form(out.record.document, formdata=MultiDict(pairs))


def _partial_page(out, sc: forms.GameForms):
    """A no-JS save stored without its values wrong on their own: the page of what is stored now,
    each refused field holding what was typed, with its message (nothing else to do than fix it)."""
    values = dict(out.after.values) | {name: request.form.get(name, "") for name in out.refused}
    form = _form_of(out, sc, values)
    form.version.data = str(out.record.version)
    return _edit_page(out.record, sc, form, errors=out.checked.errors | out.refused,
                      general=[partly(out.refused), *out.checked.general], status=422,
                      stored=out.after.values)


def _summary(out, sc: forms.GameForms, errors: dict) -> list[list[str]]:
    """The fields of `errors` named for a player (a refusal's, a conflict's): read from the form of
    the save's texts, built only then."""
    if not errors:
        return []
    return [list(item) for item in forms.summary(_form_of(out, sc), errors)]

_SCREENS: dict[str, forms.GameForms] = {}


def screens_or_404(game_id: str) -> forms.GameForms:
    """A game's screens, kept while its rules and forms module are the ones loaded (a test's
    stand-in game replaces them): a save reaches its field spec with no call into the forms."""
    sc = _SCREENS.get(game_id)
    if sc is None or games.GAMES.get(game_id) is not sc.game \
            or sys.modules.get(f"{forms.__name__}.{game_id}") is not sc.module:
        sc = forms.screens(game_id)
        if sc is None:
            abort(404)
        _SCREENS[game_id] = sc
    return sc


def _edit_page(record, sc: forms.GameForms, form, *, errors=None, general=None, theirs=None, status=200,
               stored: dict | None = None, summarised: bool = False):
    """The end-state page; `stored`: the stored values (`forms.raw_values`) when the caller has them;
    the summary of what to fix on top for a refusal (422) or when `summarised`."""
    view = sc.texts(record.document)
    if stored is None:
        stored = view.values
    forms.pad_rows(form, request.form.get("add_row") if request.method == "POST" else None)
    result = store.result_of(record)
    errors = errors or {}
    warned = forms.warned(sc, view, result)[0] if not errors else {}
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


def _save_of(record, sc: forms.GameForms, form) -> tuple[wire.Save | None, dict[str, str] | None]:
    """What this phone changed: the autosave's own lists, or the no-JS form compared with the values
    its page was rendered from (its rows never move: each count's card is its row's), and that
    form's texts. The save is None when a post cannot say (no base values and an older version):
    every difference is then a conflict."""
    if wire.is_autosave(form):
        try:
            return wire.autosave(form), None
        except wire.BadSave:
            abort(400)
    posted = forms.raw_values(sc.form(record.document, formdata=form))
    base = wire.parse_values(form.get(wire.BASE))
    version = wire.version_of(form)
    if base is None:
        if version != record.version:
            return None, posted
        base = sc.texts(record.document).values
    seats = len(record.document.get("players") or [])
    added = wire.added_rows(sc.spec(record.document["variant"], seats), posted, base)
    keys = sc.row_keys(posted)
    return wire.Save(wire.changes_of(posted, base), added, keys, version), posted


def _submit(record, sc: forms.GameForms, form, *, finishing: bool = False) -> service.Outcome:
    """This request's save through the saving service (companion/saving/service.py); `form`: the
    request's form, read once by the view (each `request.` goes through Werkzeug's proxy)."""
    save, posted = _save_of(record, sc, form)
    document, version = record.document, record.version
    fields = _TextsRead(sc.fields, game=record.id if isinstance(record, store.Held) else None)

    def write(record, document, version, **options):
        fields.texts(document)  # before the write: the log and the answer read them, not under its lock
        return store.save(record, document, version, **options)

    try:
        with store.one_commit():
            out = service.submit(record, save, fields, write=write, finishing=finishing, posted=posted)
            # the game's log (companion/saving/gamelog.py): what this save changed, by this phone; `undo` when
            # the save is the undo of a change ("↶", static/js/play/autosave.js). Written in the save's
            # transaction and committed with it: one commit per save.
            gamelog.record(out, document=document, version=version, device=devices.device_id(),
                           undo_of=undo_of(form))
    except service.Busy:
        abort(503)
    return out


class _TextsRead:
    """A game's fields (`saving.spec.Fields`) keeping the texts of the last document it read: those of
    the document a save writes are read before its UPDATE, so that between the UPDATE and the commit
    (SQLite's write lock held, every other save waiting) only the log's entry is made. They are made
    from the texts of the document the save was laid on (`Fields.texts`'s `like`: the segments it did
    not change taken as they are). `game`: the stored game the documents are versions of, when they
    are those `store.held_by_edit_token` hands out (shared, never changed): the texts of the game's
    last document read here are kept (`KNOWN`), found again for the same document by the next save,
    and for a newer one (another worker's save) they are its `like`: only the segments that save
    changed are made again."""

    KNOWN: ClassVar[dict[tuple[int, str], tuple[dict, Any]]] = {}  # (game id, language) -> (document, texts)
    KEPT = 512  # games: a club's evening, each worker seeing every table

    def __init__(self, fields, game: int | None = None):
        # the language the texts' readings are worded in: this request's (`companion.web.i18n_web`)
        self._fields, self._key = fields, None if game is None else (game, g.get("lang"))
        self._last: tuple = (None, None)
        # what the saving service reads of every save, found here rather than through `__getattr__`
        self.read, self.rules, self.say = fields.read, fields.rules, fields.say

    def __getattr__(self, name):
        return getattr(self._fields, name)

    def texts(self, document: dict):
        if self._last[0] is document:
            return self._last[1]
        like = self._last[1]
        found = self.KNOWN.get(self._key) if self._key is not None else None
        if found is not None and found[0] is document:
            texts = found[1]
        else:  # made from the texts read last (a save's: those of the document it was laid on)
            if like is None and found is not None:
                like = found[1]  # an older version of the game's: its unchanged segments are these
            texts = self._fields.texts(document, like=like)
            if self._key is not None:
                known = self.KNOWN
                if known.pop(self._key, None) is None and len(known) >= self.KEPT:
                    # the game saved least recently (each save puts its game last); the dict may change
                    # meanwhile in another thread
                    with contextlib.suppress(RuntimeError, StopIteration):
                        known.pop(next(iter(known)), None)
                known[self._key] = (document, texts)
        self._last = (document, texts)
        return texts


def undo_of(posted) -> int | None:
    """The change a save undoes (the autosave's `undo`), None when it is no undo."""
    # not `get`: Werkzeug's raises and catches an HTTP error inside for a missing name (most saves)
    text = posted["undo"] if "undo" in posted else ""  # noqa: SIM401
    return int(text) if text.isdigit() and len(text) < 12 else None


def _parse_list(text: str | None) -> list[str] | None:
    try:
        return wire.parse_list(text)
    except wire.BadSave:
        return None


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
        view = sc.texts(record.document)
        # a stored draft's rules beside their fields; a game that scores (its result is kept) has none
        errors = {} if store.result_of(record) is not None else forms.problems_of(sc, view)
        if waiting and not errors:  # scored meanwhile (another phone): nothing waits any more
            return redirect(url_for("play.edit", token=token))
        general = [tr(UNFINISHED), *forms.stored_problems(sc, view)[1]] \
            if waiting else None  # the rules with no field of their own too, as the refusal said them
        return _edit_page(record, sc, form, errors=errors, stored=forms.raw_values(form), general=general,
                          summarised=waiting)
    record = store.by_edit_token(token)
    sc = screens_or_404(record.game)
    posted = request.form
    finishing = posted.get("action") == "finish"
    out = _submit(record, sc, posted, finishing=finishing)
    if out.kind == "seats":  # the players changed on another phone: this page's seats are gone
        flash(tr(service.SEATS_MOVED), "error")
        return redirect(url_for("play.edit", token=token), 303)
    record, checked = out.record, out.checked
    if out.refused and out.kind == "saved":  # stored without the values wrong on their own: to fix
        return _partial_page(out, sc)
    form = _form_of(out, sc)
    form.version.data = str(record.version)  # saving again applies this phone's entries
    if out.kind == "conflict":
        return _edit_page(record, sc, form, errors=checked.errors, theirs=out.theirs,
                          general=[tr(CONFLICT), *checked.general], status=409, stored=out.after.values)
    if out.kind == "invalid":
        return _edit_page(record, sc, form, errors=checked.errors, general=[tr(INVALID), *checked.general],
                          status=422, stored=out.after.values)
    if posted.get("add_row"):
        return _edit_page(record, sc, form, errors=checked.errors, stored=out.after.values)
    if finishing and not checked.ok:  # kept as a draft; only the results wait for the rules
        # post/redirect/get: the page that says so is a GET the back button leaves (no "resubmit?")
        return redirect(url_for("play.edit", token=token, _anchor="error-summary", **{WAITING: "1"}), 303)
    if finishing:
        return redirect(url_for("play.results", token=token))
    for message in out.dropped.values():
        flash(message, "error")
    flash(_("Enregistré.") if checked.ok else tr(DRAFT), "success")
    # the fields this phone changed: in this post, or (with JS) in the autosave just before it
    changed = out.changed or _parse_list(posted.get("just_saved")) or []
    return redirect(url_for("play.edit", token=token, _anchor=_anchor(form, changed)))


def save(token: str):
    """Autosave (fetch, debounced): JSON in the same shape whatever happens. `stored` is every
    non-blank stored value, so the page takes in what another phone saved meanwhile; `changed`
    instead, for a page that asks for it (`delta`) and whose save was laid on the version it holds:
    what changed since (`wire.stored_changes`)."""
    posted = request.form
    with store.saving() as connection:  # read and written with Core statements, no ORM session
        record = store.held_by_edit_token(token, connection)  # the game as a save needs it
        sc = screens_or_404(record.game)
        out = _submit(record, sc, posted)  # written on the same connection (`store.save` of a Held record)
    if out.kind == "seats":  # nothing stored: the phone reloads (autosave.js shows the message)
        return jsonify(ok=False, reload=True, version=out.record.version,
                       message=tr(service.SEATS_MOVED)), 409
    checked = out.checked
    view = out.after  # the stored texts after it, or as they are
    if out.kind == "conflict":
        result = store.result_of(out.record)  # what is stored: right again once "theirs" is taken
        # each field in conflict, named for a player, with the other side's value: the notice links
        # to them (one may be on another player's step, hidden); named without a form when the save
        # built none
        fields = _summary(out, sc, {n: [v] for n, v in out.theirs.items()})
        return jsonify(ok=False, conflict=True, version=out.record.version, theirs=out.theirs,
                       fields=fields, message=tr(CONFLICT_LIVE), errors=checked.errors,
                       general=checked.general, stored=_non_blank(view.values),
                       totals=[p.total for p in result.players] if result else []), 409
    if out.kind == "invalid":  # the refused fields, named for a player (only a refusal lists them)
        summary = _summary(out, sc, checked.errors)
        return jsonify(ok=False, version=out.record.version, errors=checked.errors,
                       general=[tr(INVALID), *checked.general], summary=summary,
                       stored=_non_blank(view.values)), 422
    errors, more = checked.errors, {}
    if out.refused:  # stored without the values wrong on their own: each keeps its message and entry
        errors = checked.errors | out.refused
        more = {"refused": list(out.refused), "state": partly(out.refused),
                "summary": _summary(out, sc, out.refused)}
    if out.before is not None and wire.wants_delta(posted) \
            and out.laid_on == wire.version_of(posted):  # laid on the version the page holds
        held = {"changed": wire.stored_changes(out.before, view, out.changes_since(out.before))}
    else:
        held = {"stored": _non_blank(view.values)}
    return _json(ok=True, version=out.record.version, errors=errors,
                 general=[*out.dropped.values(), *checked.general],
                 totals=[p.total for p in checked.result.players] if checked.result else [],
                 draft=not checked.ok, moved=out.moved,
                 warnings=forms.warned(sc, view, checked.result)[0], **held, **more)


def _non_blank(values: dict[str, str]) -> dict[str, str]:
    """The answer's `stored`: every non-blank stored value (a page without `changed` takes them all)."""
    return {name: value for name, value in values.items() if value}


def _json(**answer) -> Response:
    """A stored save's answer, dumped once, compact, in UTF-8 (what `jsonify` gives, without its key
    sorting and ASCII escapes: the answer of every autosave)."""
    return Response(store.json_text(answer), mimetype="application/json")


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
    view = sc.texts(record.document)
    result = store.result_of(record)
    errors, general = forms.stored_problems(sc, view)
    return jsonify(ok=True, version=record.version, errors=errors, general=general,
                   totals=[p.total for p in result.players] if result else [], draft=result is None,
                   stored={k: v for k, v in view.values.items() if v},
                   warnings=forms.warned(sc, view, result)[0])

