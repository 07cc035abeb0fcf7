"""How a typed value reads, the same for a form's own fields (companion/forms/fields.py) and a save's
reading of the texts a page posts (companion/saving/spec.py)."""

from __future__ import annotations

import re

from ..games.i18n import _

_INT = re.compile(r"[+-]?\d{1,7}")


def whole_number(text: str) -> int | None:
    """A typed whole number as a `Count` reads it (the form, and the autosave's engine path alike):
    None when blank; a ValueError with the field's message when it is not one ("−" is a minus)."""
    raw = text.strip().replace("\u2212", "-")
    if raw == "":
        return None
    if not _INT.fullmatch(raw):
        raise ValueError(_("doit être un nombre entier"))
    return int(raw)


def out_of_bounds(value: int | None, lo: int, hi: int) -> str | None:
    """A `Count`'s message for a number outside its bounds, else None."""
    if value is not None and not lo <= value <= hi:
        return _("doit être entre {lo} et {hi}", lo=lo, hi=hi)
    return None


def document_value(text: str, numeric: bool):
    """A chosen value (its posted text, stripped) as the document holds it: a numeric choice's
    ASCII digits as their number ("¹" is a digit to isdigit() and not to int()); anything else
    stays as typed, for the field's message and the engine's."""
    if numeric and text.isascii() and text.isdigit():
        return int(text)
    return text
