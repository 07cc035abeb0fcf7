"""A form's values as a browser posts them (`raw_values`) and as a person reads them (`leaves`): what a
page rendered from a form says (a save reads texts, `companion.saving.spec`)."""

from __future__ import annotations

from wtforms.fields import BooleanField, FieldList, FormField, RadioField, SelectField

from ..games.i18n import _
from .fields import SKIPPED, Count, choice_labels, walk


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
