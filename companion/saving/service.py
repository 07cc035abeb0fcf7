"""One save from start to end, without a Flask request and without WTForms in its signature.

`submit` lays a phone's `wire.Save` over the stored game (`merge`), has it checked (the form's
own checks and the engine's, through the game's `Steps`), applies the draft/scored rule (a scored
game always scores; a value wrong on its own is left out and every other value of the save is
stored; a rule between fields not met yet is stored as a draft), writes nothing when nothing
changes, and writes with one `UPDATE ... WHERE version` (`store.save`): when another save got in
between (`StaleVersion`) the merge is made again on the fresh record, a few times, then the server
is too busy (`Busy`, 503)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..games.i18n import N_
from .wire import Changes, Save

RETRIES = 8
LOG = logging.getLogger(__name__)  # at DEBUG: which way each save was laid (the engine's, the form's)


class Busy(Exception):
    """Another save got in first every time: nothing was written (the phone tries again)."""


class Steps:
    """A game's form steps (`companion.forms.steps.Steps`): the only place WTForms works for a save.
    The first four are required; `direct` and `written` have the defaults a game's steps without a
    form-free path get (every save through the merged form; nothing to do after a write)."""

    def stored(self, document: dict) -> Any:  # the stored document's view (`forms.Stored`)
        raise NotImplementedError

    def merge(self, document: dict, changes: Changes, view: Any, added: list[str],
              keys: dict[str, str]) -> Any:  # `forms.Merged`: form, conflicts, stored, moved, dropped
        raise NotImplementedError

    def check(self, document: dict, form: Any) -> Any:  # `forms.Checked`
        raise NotImplementedError

    def differences(self, document: dict, view: Any) -> tuple[Any, Any, dict[str, str]]:
        raise NotImplementedError

    def direct(self, document: dict, save: Save, view: Any) -> Any | None:
        """The save checked without the merged form (`forms.direct.Laid`), or None: the form's way."""
        return None

    def written(self, merged: Any, document: dict) -> Any | None:
        """After `merged` was written as `document` (a direct save keeps its stored values): the
        stored view of `document` when it made one, else None."""
        return None


@dataclass
class Outcome:
    """What became of a save: "saved" (maybe as a draft breaking a rule, see `checked`; maybe without
    the values wrong on their own, see `refused`), "invalid" (nothing stored: every value changed was
    wrong on its own, or a bad value is not one of its changes, such as an expired form),
    "conflict" (the other side changed a field this phone changed too: nothing stored) or "seats"
    (the players' seats changed since the page was rendered: nothing stored, `form` and `checked`
    None, the phone reloads)."""

    kind: str
    record: Any
    form: Any
    checked: Any
    theirs: dict[str, str] = field(default_factory=dict)
    known: dict[str, str] | None = None  # the stored values, when already read
    changed: list[str] = field(default_factory=list)
    steps: Steps | None = None
    moved: dict[str, str] = field(default_factory=dict)  # rows this phone added, put elsewhere
    dropped: dict[str, str] = field(default_factory=dict)  # left out, and why (a card removed meanwhile)
    # the stored view (`Steps.stored`) of `record.document` when the save has it already (None: ask
    # `Steps.stored`), so the answer does not look it up again (a key is a json.dumps of the document)
    view: Any = None
    # a save stored or found unchanged: the stored view it was laid on and that view's version (the
    # phone based on that version holds those values: the answer may send only what changed)
    before: Any = None
    laid_on: int | None = None
    # the values left out because each was wrong on its own (field name -> its messages): the rest of
    # the save was stored (see docs/rulings.md, "Entering a game on the screens")
    refused: dict[str, list[str]] = field(default_factory=dict)

    @property
    def stored(self) -> dict[str, str]:
        """Every stored value as the page shows it (read once, when asked for)."""
        if self.known is None:
            self.known = dict(self.steps.stored(self.record.document).values)
        return self.known


def status_of(checked, finishing: bool) -> str | None:
    """The draft/scored rule: a document that does not score is a draft; "Voir les résultats" on
    one that scores makes it scored; otherwise the status stays (None)."""
    if not checked.ok:
        return "draft"
    return "scored" if finishing else None


def submit(record, save: Save | None, steps: Steps, *, write: Callable, finishing: bool = False,
           retries: int = RETRIES, partial: bool = True) -> Outcome:
    """Lay this phone's save over the stored game and store the result (`write(record, document,
    version, status=, result=)`, the engine's result given so the write does not score again;
    raising an exception with the fresh `record` when the version moved on).
    `save` None: an old page without its base values, behind the stored version (every difference
    with what is stored is then a conflict). `partial` False: the rule before issue 29 (a value wrong
    on its own stores nothing of its save), kept for the tests comparing the two paths on it."""
    from ..store import StaleVersion

    if save is None:
        form, checked, theirs = steps.differences(record.document, steps.stored(record.document))
        if theirs:
            return Outcome("conflict", record, form, checked, theirs, steps=steps)
        save = Save({})  # it says what is stored already: nothing to write
    changed = list(save.changes)
    whole = save
    for _attempt in range(retries):
        if seats_moved_since(record, save):
            return Outcome("seats", record, None, None, steps=steps)
        view = steps.stored(record.document)
        save, refused = whole, {}
        merged, form, checked = _laid(steps, record.document, save, view)
        if merged.conflicts:
            return Outcome("conflict", record, form, checked, merged.conflicts, merged.stored, changed, steps,
                           view=view)
        first = merged, form, checked
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
            merged, form, checked = _laid(steps, record.document, save, view)
            if merged.conflicts:  # cannot be: fewer changes, the same stored values
                break
        if not checked.storable or merged.conflicts or (refused and checked.document == record.document):
            merged, form, checked = first  # nothing of it is stored
            return Outcome("invalid", record, form, checked, {}, merged.stored, changed, steps, view=view)
        status = status_of(checked, finishing and not refused)
        if checked.document == record.document and status in (None, record.status):
            return Outcome("saved", record, form, checked, {}, merged.stored, changed, steps,
                           merged.moved, merged.dropped, view, view, record.version, refused)  # nothing new
        laid_on = record.version
        try:
            record = write(record, checked.document, record.version, status=status, result=checked.result)
        except StaleVersion as exc:
            record = exc.record
            continue
        after = steps.written(merged, record.document)
        return Outcome("saved", record, form, checked, {}, None, changed, steps, merged.moved, merged.dropped,
                       after, view, laid_on, refused)
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


def _laid(steps: Steps, document: dict, save: Save, view) -> tuple[Any, Any, Any]:
    """A save laid on the stored view and checked: (merged, form, checked). The engine alone when it
    can (an autosave of fields that are their contract paths), else the merged form with WTForms'
    checks and the engine's."""
    merged = steps.direct(document, save, view)
    if merged is not None:
        LOG.debug("save of %s laid by the engine", sorted(save.changes))
        return merged, merged.form, merged.checked
    LOG.debug("save of %s laid by the merged form", sorted(save.changes))
    merged = steps.merge(document, save.changes, view, save.added, save.keys)
    return merged, merged.form, steps.check(document, merged.form)


def without(save: Save, names) -> Save:
    """`save` without the changes of `names` (values wrong on their own): the rows it added keep
    only those it still fills, the keys only those of its changes."""
    gone = set(names)
    changes = {name: pair for name, pair in save.changes.items() if name not in gone}
    added = [prefix for prefix in save.added
             if any(name == prefix or name.startswith(prefix + "-") for name in changes)]
    keys = {name: key for name, key in save.keys.items() if name in changes}
    return replace(save, changes=changes, added=added, keys=keys)
