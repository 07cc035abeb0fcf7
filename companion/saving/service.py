"""One save from start to end (the autosave's and the no-JS post's), without a request or a form.

`submit` lays a phone's `wire.Save` over the stored texts (`merge`), reads them as a document by the
game's field spec (`spec.read`) and has the engine check the whole (`problems.check`); applies the
draft/scored rule (a value wrong on its own is left out and the rest stored; a rule between fields
not met yet makes a draft), writes nothing when nothing changes, and writes with one `UPDATE ...
WHERE version` (`store.save`), merged again on the fresh record when another save got in (a few
times, then `Busy`, 503)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..games.i18n import N_, _
from . import problems, spec
from .merge import lay
from .wire import Save, differing

RETRIES = 8


class Busy(Exception):
    """Another save got in first every time: nothing was written (the phone tries again)."""


@dataclass
class Outcome:
    """What became of a save: "saved" (maybe as a draft breaking a rule, see `checked`; maybe without
    the values wrong on their own, see `refused`), "invalid" (nothing stored: every value changed was
    wrong on its own), "conflict" (the other side changed a field this phone changed too: nothing
    stored) or "seats" (the players' seats changed since the page was rendered: nothing stored,
    `checked` None, the phone reloads). `data`: every field's text after the merge (what the page
    shows again after a refusal); `before`/`after`: the stored texts the save was laid on and those
    of the record now."""

    kind: str
    record: Any
    checked: problems.Checked | None
    fields: spec.Fields
    theirs: dict[str, str] = field(default_factory=dict)
    changed: list[str] = field(default_factory=list)
    moved: dict[str, str] = field(default_factory=dict)  # rows this phone added, put elsewhere
    dropped: dict[str, str] = field(default_factory=dict)  # left out, and why (a card removed meanwhile)
    data: dict[str, str] = field(default_factory=dict)
    before: spec.Texts | None = None
    laid_on: int | None = None  # the version `before` is of, when the save was laid on it
    # the values left out because each was wrong on its own (field name -> its messages): the rest of
    # the save was stored (see docs/rulings.md, "Entering a game on the screens")
    refused: dict[str, list[str]] = field(default_factory=dict)
    _after: spec.Texts | None = None
    _read_as: tuple | None = None  # the texts the stored document was read from, and how
    _since: tuple | None = None  # (before, what differs since: `changes_since`)

    @property
    def after(self) -> spec.Texts:
        """The stored texts of the record as it is now (read once, when asked for). When they are
        the very fields the save was read from (no row left out or numbered again), that reading's
        contract paths are theirs."""
        if self._after is None:
            self._after = self.fields.texts(self.record.document)
            if self._read_as is not None and self._read_as[0].keys() == self._after.values.keys():
                self._after._paths = self._read_as[1].paths
        return self._after

    @property
    def stored(self) -> dict[str, str]:
        return dict(self.after.values)

    def changes_since(self, before) -> dict[str, tuple[str, str]]:
        """`wire.differing(before, after)`, once per `before` (the log and the answer both read it)."""
        if self._since is None or self._since[0] is not before:
            self._since = (before, differing(before, self.after))
        return self._since[1]


def status_of(checked, finishing: bool) -> str | None:
    """The draft/scored rule: a document that does not score is a draft; "Voir les résultats" on
    one that scores makes it scored; otherwise the status stays (None)."""
    if not checked.ok:
        return "draft"
    return "scored" if finishing else None


def laid(fields: spec.Fields, document: dict, save: Save, view: spec.Texts):
    """A save laid on the stored texts and read: (merged texts (`merge.Laid`), checked, how they
    were read)."""
    names = [p.get("name", "") for p in document.get("players", [])]
    merged = lay(view, save.changes, added=save.added or None, keys=save.keys or None, names=names,
                 rules=fields.rules)
    if merged.conflicts:  # a blank value named as a person reads it (only then: no message otherwise)
        merged.conflicts = {name: value or _("vide") for name, value in merged.conflicts.items()}
    doc, reading = fields.read(document, merged.data, known=view, touched=merged.touched)
    return merged, problems.check(doc, reading, fields.say), reading


def submit(record, save: Save | None, fields: spec.Fields, *, write: Callable, finishing: bool = False,
           retries: int = RETRIES, partial: bool = True, posted: Mapping[str, str] | None = None) -> Outcome:
    """Lay this phone's save over the stored game and store the result (`write(record, document,
    version, status=, result=)`, the engine's result given so the write does not score again;
    raising an exception with the fresh `record` when the version moved on).
    `save` None: an old page without its base values, behind the stored version (`posted`: its
    values): every difference with what is stored is then a conflict. `partial` False: the rule
    before issue 29 (a value wrong on its own stores nothing of its save)."""
    from ..storage.store import StaleVersion

    if save is None:
        view = fields.texts(record.document)
        posted = dict(posted or {})
        theirs = {name: view.shown(name) or _("vide") for name in view.values
                  if view.shown(name, posted.get(name, "")) != view.shown(name)}
        doc, reading = fields.read(record.document, posted)
        checked = problems.check(doc, reading, fields.say)
        if theirs:
            return Outcome("conflict", record, checked, fields, theirs, data=posted, before=view)
        save = Save({})  # it says what is stored already: nothing to write
    changed = list(save.changes)
    whole = save
    for _attempt in range(retries):
        if seats_moved_since(record, save):
            return Outcome("seats", record, None, fields, changed=changed)
        view = fields.texts(record.document)
        save, refused = whole, {}
        merged, checked, reading = laid(fields, record.document, save, view)
        if merged.conflicts:
            return Outcome("conflict", record, checked, fields, merged.conflicts, changed, data=merged.data,
                           before=view, _after=view)
        first = merged, checked, reading
        # a save keeps every valid value: the values wrong on their own are left out (their messages
        # go back beside them) and the rest is laid again, until it is storable or nothing is left
        while partial and not checked.storable:
            wrong = [name for name in checked.refused if name in save.changes]
            if not wrong:
                break
            refused.update((name, list(checked.errors.get(name, ()))) for name in wrong)
            save = without(save, wrong)
            if not save.changes:
                break
            merged, checked, reading = laid(fields, record.document, save, view)
            if merged.conflicts:  # cannot be: fewer changes, the same stored values
                break
        if not checked.storable or merged.conflicts or (refused and checked.document == record.document):
            merged, checked, reading = first  # nothing of it is stored
            return Outcome("invalid", record, checked, fields, {}, changed, data=merged.data, before=view,
                           _after=view)
        status = status_of(checked, finishing and not refused)
        if checked.document == record.document and status in (None, record.status):
            return Outcome("saved", record, checked, fields, {}, changed, merged.moved, merged.dropped,
                           merged.data, view, record.version, refused, view)  # nothing new
        laid_on = record.version
        try:
            record = write(record, checked.document, record.version, status=status, result=checked.result)
        except StaleVersion as exc:
            record = exc.record
            continue
        return Outcome("saved", record, checked, fields, {}, changed, merged.moved, merged.dropped,
                       merged.data, view, laid_on, refused, _read_as=(merged.data, reading))
    raise Busy


# -- the players' seats changed after the page was rendered (the "Joueurs" page, issue 32)

SEATS_MOVED = N_("Les joueurs ont changé sur un autre téléphone : rechargez la page.")


def seats_moved_since(record, save: Save) -> bool:
    """A save based on a version older than the last change of seats (`seats_version`): its fields
    are keyed by seat (`players-0-track`), and that seat may now be someone else's. Refused
    whole (Outcome "seats"), nothing stored: the phone reloads. A save that does not say its
    version (no page of the app sends one) is not refused here; a no-JS post without base values
    behind the stored version never reaches here (`submit`: a conflict on every difference)."""
    # a record without the column (a caller's stand-in, as the engine's tests build) never moved a seat
    return save.version is not None and save.version < (getattr(record, "seats_version", 0) or 0)


def without(save: Save, names) -> Save:
    """`save` without the changes of `names` (values wrong on their own): the rows it added keep
    only those it still fills, the keys only those of its changes."""
    gone = set(names)
    changes = {name: pair for name, pair in save.changes.items() if name not in gone}
    added = [prefix for prefix in save.added
             if any(name == prefix or name.startswith(prefix + "-") for name in changes)]
    keys = {name: key for name, key in save.keys.items() if name in changes}
    return replace(save, changes=changes, added=added, keys=keys)
