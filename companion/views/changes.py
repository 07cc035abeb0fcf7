"""The game's log (/g/<token>/historique) and undo (/g/<token>/annuler): thin, over saving/gamelog.py
(writing, undo) and storage/changelog.py (reading).

The log page lists the game's changes, newest first, each with its phone ("ce téléphone", "un autre
téléphone"), its time, and its fields from what to what, with a button that undoes it: a plain
form (POST, CSRF), post/redirect/get, no JavaScript needed. "Annuler" on the edit page undoes this
phone's last change: with JavaScript, static/js/play/autosave.js asks `last` (GET, JSON) and sends the
undo through the autosave; without, it posts here (`undo_last`). An undo goes through the saving
service as any save: a field another phone changed since is a conflict, and nothing is stored."""

from __future__ import annotations

from flask import abort, flash, jsonify, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, HiddenField, RadioField, SelectField

from .. import forms
from ..forms.convert import leaf_fields
from ..forms.fields import choice_labels
from ..games import i18n
from ..games.i18n import N_, _, tr
from ..saving import gamelog, service
from ..storage import changelog, devices, store
from . import dates
from .edit import screens_or_404

NOTHING = N_("Rien à annuler : ce téléphone n'a pas encore modifié cette partie (ou tout est déjà annulé).")
LOCKED = N_("Cette modification ne peut plus être annulée : les joueurs ont changé de place depuis.")
UNDONE = N_("Modification annulée.")
SAME = N_("Rien à annuler : ces champs ont déjà ces valeurs.")
CONFLICT = N_("Rien n'a été annulé : un autre téléphone a modifié depuis {fields}. Changez-les à la main "
              "si vous le voulez.")
REFUSED = N_("Rien n'a été annulé : {fields}.")
SHOWN = 30  # changes on the page before "Voir les plus anciennes"
LINES = 4  # a change's fields shown before the rest is folded


# --------------------------------------------------------------------------- the log page


def page(token: str):
    record = store.by_edit_token(token)
    sc = screens_or_404(record.game)
    every = changelog.changes_of(record.id)
    everything = request.args.get("tout") == "1"
    shown = every if everything else every[:SHOWN]
    names = {n for c in shown for n in c.changes}
    device = devices.device_id()
    by_id = {c.id: c for c in every}
    entries = []
    for c, (named, readable) in zip(shown, _namings(sc, record, shown, names), strict=True):
        entries.append({
            "change": c, "mine": c.mine(device), "time": _time(c.at),
            "undoable": c.undoable(record.seats_version) and not c.undone,
            "undoes": _time(by_id[c.undo_of].at) if c.undo_of in by_id else None,
            "lines": [(named(n), readable(n, before), readable(n, after))
                      for n, (before, after) in _ordered(named.shown(c.changes), named)],
        })
    return render_template("play/changes.html", record=record, game=sc.game, entries=entries,
                           more=len(every) - len(shown), lines=LINES)


def _ordered(changes: dict, named) -> list:
    return sorted(changes.items(), key=lambda item: named.order(item[0]))


class _Named:
    """Field name -> its name for a player ("Ville 2 · Tuile 1 · Joueur"), in the page's order."""

    def __init__(self, labels: dict[str, str], hidden: frozenset[str] = frozenset()):
        self.labels, self.hidden = labels, hidden
        self.orders = {name: k for k, name in enumerate(labels)}

    def shown(self, changes: dict) -> dict:
        """The changes a player reads: without the page's hidden fields (a building card's id moves
        with its name), unless nothing else is left."""
        out = {name: pair for name, pair in changes.items() if name not in self.hidden}
        return out or changes

    def __call__(self, name: str) -> str:
        return self.labels.get(name, name)

    def order(self, name: str) -> tuple:
        return (self.orders.get(name, len(self.orders)), name)


def _namings(sc, record, newest_first: list, names: set[str]):
    """Each change's naming (`_names`), from the game's values right after it: the stored ones for
    the newest, then each change's `before` laid back over them, newest to oldest. A count is named by
    its row's card (Reterra), and a card removed since moves the cards below it up: a change is named
    by the cards as they stood then. One form a different set of cards (`row_keys`), not a change."""
    values = dict(sc.texts(record.document).values)
    made: dict[tuple, tuple] = {}
    for change in newest_first:
        cards = tuple(sorted(sc.row_keys(values).items()))
        if cards not in made:
            made[cards] = _names(sc, record, names, values)
        yield made[cards]
        values = values | {name: before for name, (before, _after) in change.changes.items()}


def _names(sc, record, names: set[str], values: dict[str, str] | None = None):
    """How the page names these fields, and shows their texts: one form of the game's `values` (the
    stored ones by default), with a row for every field named (a removed city's fields are named as
    the city was)."""
    if values is None:
        values = dict(sc.texts(record.document).values)
    pairs = MultiDict([(n, v) for n, v in values.items() if v]
                      + [(n, "") for n in names if not values.get(n)])
    form = sc.form(record.document, formdata=pairs)
    sc.label(form, store.labels_of(record))
    labels = forms.labels(form)
    fields = {f.name: f for f in leaf_fields(form)}

    def readable(name: str, text: str) -> str:
        f = fields.get(name)
        if isinstance(f, BooleanField):
            return _("oui") if text else _("non")
        if text == "":
            return _("vide")
        if isinstance(f, RadioField | SelectField):
            return str(choice_labels(f.choices).get(text, text))
        return text

    return _Named(labels, frozenset(n for n, f in fields.items() if isinstance(f, HiddenField))), readable


def _time(moment) -> str:
    t = dates.local(moment)
    return f"{t.hour}:{t.minute:02d}" if i18n.current() == "en" else f"{t.hour} h {t.minute:02d}"


# --------------------------------------------------------------------------- undo


def last(token: str):
    """This phone's last change not undone yet, for the edit page's "↶" (autosave.js): its id and
    what undoing it sends, `{field: [what it stored, what was before]}`; or a message."""
    record = store.by_edit_token(token)
    screens_or_404(record.game)
    change = changelog.last(record.id, devices.device_id(), record.seats_version)
    if change is None:
        return jsonify(ok=False, message=tr(NOTHING))
    changes = {name: list(pair) for name, pair in gamelog.undo_changes(change).items()}
    return jsonify(ok=True, id=change.id, changes=changes)


def undo_last(token: str):
    """"Annuler" on the edit page without JavaScript: this phone's last change, then the edit page."""
    record = store.by_edit_token(token)
    change = changelog.last(record.id, devices.device_id(), record.seats_version)
    return _undo(record, change, url_for("play.edit", token=token))


def undo(token: str):
    """An entry's button on the log page (any phone's change, an undo included: it is then redone),
    the change named by the form (`change`)."""
    record = store.by_edit_token(token)
    change = request.form.get("change", "")
    if not (change.isdigit() and len(change) < 12):
        abort(400)
    found = changelog.get(record.id, int(change))
    if found is None:
        abort(404)
    return _undo(record, found, url_for("play.changes", token=token))


def _undo(record, change, back: str):
    sc = screens_or_404(record.game)
    if change is None:
        flash(tr(NOTHING), "error")
        return redirect(back, 303)
    if not change.undoable(record.seats_version):
        flash(tr(LOCKED), "error")
        return redirect(back, 303)
    document, version = record.document, record.version
    try:  # written with its log entry: one commit (gamelog.record)
        with store.one_commit():
            out = service.submit(record, gamelog.undo_save(change, version), sc.fields, write=store.save)
            gamelog.record(out, document=document, version=version, device=devices.device_id(),
                           undo_of=change.id)
    except service.Busy:
        abort(503)
    if out.kind == "seats":
        flash(tr(service.SEATS_MOVED), "error")
    elif out.kind == "conflict":
        named, readable = _names(sc, out.record, set(out.theirs))
        fields = ", ".join(_("{field} (maintenant {value})", field=named(n), value=readable(n, v))
                           for n, v in _ordered(out.theirs, named))
        flash(_(CONFLICT, fields=fields), "error")
    elif out.kind == "invalid":
        named, _readable = _names(sc, out.record, set(out.checked.errors))
        fields = "; ".join(f"{named(n)} : {' '.join(m)}" for n, m in out.checked.errors.items()) \
            or " ".join(out.checked.general)
        flash(_(REFUSED, fields=fields), "error")
    elif out.record.version == out.laid_on:
        flash(tr(SAME), "success")
    else:
        if out.refused:  # undone but for the values refused now (a player renamed since)
            named, _readable = _names(sc, out.record, set(out.refused))
            for name, messages in out.refused.items():
                flash(f"{named(name)} : {' '.join(messages)}", "error")
        flash(tr(UNDONE), "success")
    return redirect(back, 303)
