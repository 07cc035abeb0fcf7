"""A form's values as a browser posts them (`raw_values`): what a no-JS post sends to the save, which
reads texts (`companion.saving.spec`)."""

from __future__ import annotations

from wtforms.fields import BooleanField, FieldList, FormField, RadioField, SelectField

from .fields import SKIPPED, walk


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
