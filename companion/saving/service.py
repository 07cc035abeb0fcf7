"""One save from start to end, without a Flask request and without WTForms in its signature.

`submit` lays a phone's `wire.Save` over the stored game (`merge`), has it checked (the form's
own checks and the engine's, through the game's `Steps`), applies the draft/scored rule (a scored game
always scores; a value wrong on its own stores nothing; a rule between fields not met yet is stored
as a draft), writes nothing when nothing changes, and writes with one `UPDATE ... WHERE version`
(`store.save`): when another save got in between (`StaleVersion`) the merge is made again on the fresh
record, a few times, then the server is too busy (`Busy`, 503)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .wire import Changes, Save

RETRIES = 8


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
    """What became of a save: "saved" (maybe as a draft breaking a rule, see `checked`), "invalid"
    (a bad value: nothing stored) or "conflict" (the other side changed a field this phone changed
    too: nothing stored)."""

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
           retries: int = RETRIES) -> Outcome:
    """Lay this phone's save over the stored game and store the result (`write(record, document,
    version, status=, result=)`, the engine's result given so the write does not score again;
    raising an exception with the fresh `record` when the version moved on).
    `save` None: an old page without its base values, behind the stored version (every difference
    with what is stored is then a conflict)."""
    from ..store import StaleVersion

    if save is None:
        form, checked, theirs = steps.differences(record.document, steps.stored(record.document))
        if theirs:
            return Outcome("conflict", record, form, checked, theirs, steps=steps)
        save = Save({})  # it says what is stored already: nothing to write
    changed = list(save.changes)
    for _attempt in range(retries):
        view = steps.stored(record.document)
        # the engine alone when it can (an autosave of fields that are their contract paths), else
        # the merged form with WTForms' checks and the engine's
        merged = steps.direct(record.document, save, view)
        if merged is not None:
            form, checked = merged.form, merged.checked
        else:
            merged = steps.merge(record.document, save.changes, view, save.added, save.keys)
            form = merged.form
            checked = steps.check(record.document, form)
        if merged.conflicts:
            return Outcome("conflict", record, form, checked, merged.conflicts, merged.stored, changed, steps,
                           view=view)
        if not checked.storable:
            return Outcome("invalid", record, form, checked, {}, merged.stored, changed, steps, view=view)
        status = status_of(checked, finishing)
        if checked.document == record.document and status in (None, record.status):
            return Outcome("saved", record, form, checked, {}, merged.stored, changed, steps,
                           merged.moved, merged.dropped, view, view, record.version)  # nothing new
        laid_on = record.version
        try:
            record = write(record, checked.document, record.version, status=status, result=checked.result)
        except StaleVersion as exc:
            record = exc.record
            continue
        after = steps.written(merged, record.document)
        return Outcome("saved", record, form, checked, {}, None, changed, steps, merged.moved, merged.dropped,
                       after, view, laid_on)
    raise Busy
