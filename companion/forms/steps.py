"""The form side of a save (`companion.saving.service` calls it through `Steps`): the stored
document's values without its form (`Stored`, kept per document text), this phone's changes laid
over them as a form to check (`merge`), and the engine alone for an autosave of plain numbers
(`Steps.direct`, `companion.forms.direct`)."""

from __future__ import annotations

import json
import marshal
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..games import i18n
from ..games.i18n import _
from ..saving import service, wire
from ..saving.merge import under
from .binding import EndState, Screens, screens
from .convert import blank_texts, differences, leaves, raw_values
from .fields import Rows, walk
from .problems import Checked, check, labels

# --------------------------------------------------------------------------- field-level saves
#
# A save carries what THIS phone changed, field by field, each with the value it was based on
# ({field name: (base, mine)}), never the whole form: a field the phone did not touch is never
# written back, so two phones entering different players never undo each other. The autosave
# sends these pairs itself (`CHANGES`); the no-JS form posts every field plus `BASE`, the values
# the page was rendered from, and the server takes the difference. `merge` then lays the changes
# over the values stored NOW: a field is in conflict only when the other side changed it too, to
# something else (stored value neither the base nor mine).

BASE, CHANGES, ADDED, KEYS = wire.BASE, wire.CHANGES, wire.ADDED, wire.KEYS  # see companion.saving.wire


changes_of = wire.changes_of
parse_values = wire.parse_values


def parse_changes(text: str | None) -> dict[str, tuple[str, str]] | None:
    """`CHANGES` as posted by the autosave: {name: [base, mine]}, or None when malformed."""
    try:
        return wire.parse_changes(text)
    except wire.BadSave:
        return None


def parse_keys(text: str | None) -> dict[str, str] | None:
    """`KEYS` as posted by the autosave: {field name: key} (absent: none), or None when malformed."""
    try:
        return wire.parse_keys(text)
    except wire.BadSave:
        return None


def row_keys(screens_: Screens, form) -> dict[str, str]:
    """What a posted form says of the rows its fields were typed for (a game's `row_keys`)."""
    return screens_.row_keys(form)


def parse_list(text: str | None) -> list[str] | None:
    """`ADDED` as posted by the autosave: a JSON list of row names (absent: none)."""
    try:
        return wire.parse_list(text)
    except wire.BadSave:
        return None


@dataclass(frozen=True)
class Stored:
    """What saves and pages read of a stored document's form, without the form (read only):
    `values` (field name -> text, `raw_values`), `shown` (field name -> value as a person reads
    it, `leaves`), `limits` (Rows name -> max entries), `document` and `paths` (`to_document`)."""

    values: Mapping[str, str]
    shown: Mapping[str, str]
    limits: Mapping[str, int]
    document: dict
    paths: Mapping[str, str]
    # field name -> the text the stored document shows for a field nobody typed, when not blank: an
    # entry of a fixed list of numbers is stored as 0 (the contract keeps every entry), so "" and "0"
    # are one value there (`same`)
    blanks: Mapping[str, str] = field(default_factory=dict)

    def same(self, name: str, a: str, b: str) -> bool:
        """Whether two texts of a field mean one stored value."""
        if a == b:
            return True
        blank = self.blanks.get(name)
        return blank is not None and {a, b} <= {"", blank}


def stored(screens_: Screens, document: dict) -> Stored:
    """The `Stored` view of a document: the form is built once per document and language
    (a WTForms form of a 4-player game is ~180 fields; every autosave needs the stored values
    before and after it), kept in a bounded cache per process."""
    key = (screens_.id, _key(document), i18n.current())
    with _STORED_LOCK:
        found = _STORED.get(key)
        if found is not None:
            _STORED.move_to_end(key)
            return found
    from . import direct  # a document seen before but for a few numbers: its view without a form

    def build(labelled: bool = False) -> Stored:  # with the form (its JSON text made only then)
        text = json.dumps(document, sort_keys=True, ensure_ascii=False)
        return _stored(screens_.id, text, key[2], labelled)

    found = direct.view_of(screens_, document, key[2], build)
    _keep(key, found)
    return found


def _key(document: dict) -> bytes | str:
    """A document's key in the stored views' cache, read at every save (twice: the game read, the
    game written): its marshal bytes, a seventh of its sorted JSON's cost. Version 2 writes no
    back-references, so equal documents built alike give equal bytes, and bytes tell True from 1;
    a document with its keys in another order is only a miss (its view made again, the same).
    Anything marshal cannot write (never a JSON document) is keyed by its JSON."""
    try:
        return marshal.dumps(document, 2)
    except ValueError:
        return json.dumps(document, sort_keys=True, ensure_ascii=False, default=repr)


_STORED: OrderedDict = OrderedDict()  # (game, document key (`_key`), language) -> Stored, least recent first
_STORED_LOCK = threading.Lock()
STORED_MAX = 256


def _keep(key, view: Stored) -> None:
    with _STORED_LOCK:
        _STORED[key] = view
        _STORED.move_to_end(key)
        while len(_STORED) > STORED_MAX:
            _STORED.popitem(last=False)


def remember(screens_: Screens, document: dict, view: Stored) -> None:
    """Keep the `Stored` view of a document a save made without a form (`direct.Laid.after`)."""
    _keep((screens_.id, _key(document), i18n.current()), view)


def _stored(game_id: str, text: str, lang: str, labelled: bool = False):
    """The `Stored` view made with the form (`labelled`: with its fields' `labels` beside it)."""
    sc = screens(game_id)
    form = sc.form(json.loads(text))
    document, paths = sc.to_document(json.loads(text), form)
    limits = {f.name: f.max_entries for f in walk(form) if isinstance(f, Rows)}
    # shared by every request of this process: read only
    view = Stored(*(MappingProxyType(d) for d in (raw_values(form), leaves(form), limits)), document,
                  MappingProxyType(paths), MappingProxyType(blank_texts(form)))
    return (view, labels(form)) if labelled else view


@dataclass
class Merged:
    """This phone's changes laid over the stored values: the form to check and store, the fields
    the other side changed differently (name -> their value as a person reads it), the stored
    values the merge was made on, and the rows this phone added that went to another index
    (old prefix -> new: the other phone had added a row at the same place)."""

    form: EndState
    conflicts: dict[str, str]
    stored: dict[str, str]
    moved: dict[str, str] = field(default_factory=dict)
    # fields left out, with the message saying why (a count for a card another phone removed)
    dropped: dict[str, str] = field(default_factory=dict)


def new_rows(form, base: dict[str, str]) -> list[str]:
    """The rows of `form` (a posted form) that were blank in `base`: rows this phone added."""
    out = []
    for f in walk(form):
        if isinstance(f, Rows):
            for entry in f.entries:
                if not any(under(n, entry.name) and v for n, v in base.items()):
                    out.append(entry.name)
    return out


def merge(screens_: Screens, document: dict, changes: dict[str, tuple[str, str]],
          extra: dict[str, str] | None = None, view: Stored | None = None,
          added: list[str] | None = None, keys: Mapping[str, str] | None = None) -> Merged:
    """The stored game with this phone's changes applied (`companion.saving.merge.lay`) as a form to
    check (`extra`: csrf_token and the like; `view`: the stored document's `Stored`, when the caller
    has it; `added`: the rows this phone added, see `new_rows`; `keys`: see `KEYS`)."""
    from werkzeug.datastructures import MultiDict

    from ..saving.merge import lay

    view = view if view is not None else stored(screens_, document)
    names = [p.get("name", "") for p in document.get("players", [])]
    laid = lay(view, changes, added=added, keys=keys, names=names, rules=screens_.adapter, blank=_("vide"))
    # blanks included, as a browser posts them: a blank row in the middle keeps the rows after it
    # at their own index (a radio or a box left blank reads as unset, see `Choice`)
    pairs = list(laid.data.items()) + list((extra or {}).items())
    form = screens_.form(document, formdata=MultiDict(pairs))
    return Merged(form, laid.conflicts, dict(view.values), laid.moved, laid.dropped)


class Steps(service.Steps):
    """A game's form steps for `companion.saving.service` (its `Steps`): the stored view, the merged
    form, WTForms' and the engine's checks. `formdata`: a no-JS post (read only by `differences`, for
    an old page without base values); `extra`: fields posted beside the changes (csrf_token)."""

    def __init__(self, screens_: Screens, formdata=None, extra: dict[str, str] | None = None):
        self.screens, self.formdata, self.extra = screens_, formdata, extra

    def stored(self, document: dict) -> Stored:
        return stored(self.screens, document)

    def merge(self, document: dict, changes, view: Stored, added, keys) -> Merged:
        return merge(self.screens, document, changes, self.extra, view, added, keys)

    def check(self, document: dict, form: EndState) -> Checked:
        return check(self.screens, document, form)

    def differences(self, document: dict, view: Stored):
        form = self.screens.form(document, formdata=self.formdata)
        return form, check(self.screens, document, form), differences(form, view)

    def direct(self, document: dict, save, view: Stored):
        """An autosave laid on the stored document and checked by the engine, no form built, or
        None when it touches a field only the form can read (`companion.forms.direct.lay_save`)."""
        from . import direct

        return direct.lay_save(self, document, save, view)

    def written(self, merged, document: dict) -> Stored | None:
        """After a direct save is written: its stored values, made from the ones before it (None:
        a save through the form, whose stored values `stored` makes when asked)."""
        from .direct import Laid

        if isinstance(merged, Laid):
            return merged.after(self.screens, document)
        return None


class Lazy:
    """A form made only when something reads it (the error summary's names of a direct save)."""

    def __init__(self, make):
        self._make, self._form = make, None

    def _get(self):
        if self._form is None:
            self._form = self._make()
        return self._form

    def __getattr__(self, name):
        return getattr(self._get(), name)

    def __iter__(self):
        return iter(self._get())

    def __contains__(self, name):
        return name in self._get()

    def __getitem__(self, name):
        return self._get()[name]
