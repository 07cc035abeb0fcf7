"""Form <-> document: the contract document a form describes (`collect`, every contract-named field,
blanks left out, contract path -> field name recorded for messages), and a form's values as a browser
posts them (`raw_values`) and as a person reads them (`leaves`, `differences`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wtforms.fields import BooleanField, FieldList, FormField, RadioField, SelectField

from ..games.core import join
from ..games.i18n import _
from .fields import SKIPPED, Choice, Count, Name, Rows, choice_labels, document_value, is_blank, walk

if TYPE_CHECKING:
    from .steps import Stored

OMIT = object()


def collect(form, path: str, paths: dict, skip=()) -> dict:
    out = {}
    for f in form:
        if f.short_name in skip or f.short_name in SKIPPED:
            continue
        p = join(path, f.short_name)
        value = _convert(f, p, paths)
        if value is not OMIT:
            out[f.short_name] = value
    return out


def _convert(f, path: str, paths: dict):
    paths[path] = f.name
    if isinstance(f, FormField):
        value = collect(f.form, path, paths, skip=set(getattr(f.form, "ui_only", ())))
        if not value:
            return OMIT  # an empty object is the same as none (contract)
        # a player not chosen yet (`Name.nobody` False) is left out, the group kept
        return {k: v for k, v in value.items()
                if not (v is None and isinstance(f.form[k], Name) and not f.form[k].nobody)}
    if isinstance(f, Rows):
        items = []
        for entry in f.entries:
            if is_blank(entry):
                continue
            value = _convert(entry, join(path, len(items)), paths)
            if value is not OMIT:  # a row holding only a typing error: its message is beside it
                items.append(value)
        return items if items else OMIT
    if isinstance(f, FieldList):
        values = []
        for i, entry in enumerate(f.entries):
            value = _convert(entry, join(path, i), paths)
            if value is OMIT:  # a fixed list keeps every entry: a blank one is its empty value
                value = (0 if isinstance(entry, Count) else False if isinstance(entry, BooleanField)
                         else {} if isinstance(entry, FormField) else None)
            values.append(value)
        return values
    if isinstance(f, BooleanField):
        return True if f.data else OMIT  # left out means false (contract)
    if isinstance(f, Name):
        return f.data or None
    if isinstance(f, Count):
        return OMIT if f.data is None else f.data
    data = f.data
    if isinstance(data, str):
        data = data.strip()
    if data in (None, ""):
        return OMIT
    return document_value(data, f.numeric) if isinstance(f, Choice) and isinstance(data, str) else data


def leaf_fields(form):
    """The fields a player fills (no group, no list, no version or action field), in page order."""
    return (f for f in walk(form) if not isinstance(f, FormField | FieldList) and f.short_name not in SKIPPED)


def raw_values(form) -> dict[str, str]:
    """Field name -> the text a browser posts for it ('' when blank or unticked), every leaf field."""
    out = {}
    for f in leaf_fields(form):
        if isinstance(f, BooleanField):
            value = "y" if f.data else ""
        elif isinstance(f, RadioField | SelectField):
            value = "" if f.data is None else str(f.data)
        else:
            value = f._value()
        out[f.name] = (value or "").strip()
    return out


def blank_texts(form) -> dict[str, str]:
    """Field name -> the text a field nobody typed shows once its document is stored, where it is
    not blank: a number in a fixed list (`Fixed`, or a game's own `FieldList`) is stored as 0
    (`_convert`), so a page rendered before the first save (blank) and after it ("0") agree."""
    return {entry.name: "0" for f in walk(form) if isinstance(f, FieldList) and not isinstance(f, Rows)
            for entry in f.entries if isinstance(entry, Count)}


def leaves(form) -> dict[str, str]:
    """Field name -> the value as a person reads it, for every leaf field (conflict display)."""
    out = {}
    for f in leaf_fields(form):
        if isinstance(f, BooleanField):
            out[f.name] = _("oui") if f.data else _("non")
        elif isinstance(f, RadioField):
            out[f.name] = choice_labels(f.choices).get(f.data, f.data or "")
        elif isinstance(f, Count):
            out[f.name] = "" if f.data is None else str(f.data)
        else:
            out[f.name] = (f.data or "") if isinstance(f.data, str) else str(f.data or "")
    return out


def differences(mine, theirs: Stored) -> dict[str, str]:
    """Fields whose stored value (theirs) differs from what this phone sent (mine)."""
    a = leaves(mine)
    return {name: (value if value != "" else _("vide")) for name, value in theirs.shown.items()
            if a.get(name, "") != value}
