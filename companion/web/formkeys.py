"""The field names a posted form may carry, checked once before any view.

WTForms reads a list's row index from a field name with `str.isdigit()` then `int()`: "²" is a digit
to the first and not to the second, and 5,000 ASCII digits pass the first and exceed what the second
reads (both a ValueError deep inside the form: a 500). The edit page also names fields inside its JSON
fields (the autosave's `changes` and `new_rows`, the no-JS form's `base_values`), and those names are
laid over a form too. `check_request` refuses such a post with a 400 and a clear message before any
view (or the merge) reads it, so nothing is stored; `bad_name` is the one rule.
"""

from __future__ import annotations

import re

from flask import Flask, abort, make_response, request

from ..base import jsonio
from ..games.i18n import _

# No list of the forms has more than a few dozen rows: three digits are plenty for an index.
MAX_INDEX_DIGITS = 3
# The edit page's JSON fields: {name: ...} objects and lists of names (companion.forms).
NAMED_OBJECTS = ("changes", "base_values")
NAMED_LISTS = ("new_rows", "just_saved")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


# An ASCII name's part made of more digits than an index has (a whole part: between "-" or the ends).
_LONG_INDEX = re.compile(rf"(?<![^-])[0-9]{{{MAX_INDEX_DIGITS + 1},}}(?![^-])")


def bad_name(name: str) -> bool:
    """True when a part of `name` (between "-") is a number no row index can be: digits other than
    ASCII ("²", "٣") or more than MAX_INDEX_DIGITS of them."""
    if name.isascii():  # the names the pages post: one regular expression, no split
        return _LONG_INDEX.search(name) is not None
    return any(part.isdigit() and not (part.isascii() and len(part) <= MAX_INDEX_DIGITS)
               for part in name.split("-"))


def _shown(name: str) -> str:
    return name if len(name) <= 60 else name[:57] + "…"


def _refuse(message: str):
    from .errors import error_response

    abort(make_response(error_response(
        400, message + " " + _("Rien n'a été enregistré : rechargez la page et recommencez."))))


def _unknown(name: str):
    _refuse(_("Le formulaire contient un champ inconnu : « {name} ».", name=_shown(name)))


# What a JSON text needs to hold for a name in it to be refused: a run of more ASCII digits than an
# index has, an escape (\u...) or a character beyond ASCII (the only ways to a digit other than
# ASCII), or more brackets than `jsonio.MAX_DEPTH` levels (nested too deep: refused as unreadable).
_MAYBE_BAD = re.compile(rf"[0-9]{{{MAX_INDEX_DIGITS + 1},}}|\\u")


def _surely_good(text: str) -> bool:
    """True when no name inside `text` can be refused, whatever it holds, told without reading it as
    JSON (an autosave's `changes`, a few short names and values: most posts)."""
    return (text.isascii() and _MAYBE_BAD.search(text) is None
            and text.count("[") + text.count("{") <= jsonio.MAX_DEPTH)


def _names_in(field: str, text: str) -> list[str]:
    """The field names inside one of the edit page's JSON fields (keys, or list items)."""
    try:
        value = jsonio.loads(text)
    except jsonio.TooDeep as exc:
        _refuse(_("Le champ « {field} » est illisible ({problem}).", field=field, problem=str(exc)))
    except ValueError:
        return []  # not JSON: the view says what that means (no base values: an old page)
    if isinstance(value, dict):
        return [str(k) for k in value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def check_request() -> None:
    """before_request: a form post whose field names (or the names in its JSON fields) no form can
    read is a 400 with the name; other requests pass."""
    here = request._get_current_object()  # one lookup through Werkzeug's proxy, not one per attribute
    if here.method not in ("POST", "PUT", "PATCH") or here.mimetype not in FORM_TYPES:
        return
    form = here.form
    for name in form:
        if bad_name(name):
            _unknown(name)
    for field in NAMED_OBJECTS + NAMED_LISTS:
        # not `get`: Werkzeug's raises and catches an HTTP error inside for a missing name
        text = form[field] if field in form else None  # noqa: SIM401
        if text and not _surely_good(text):
            for name in _names_in(field, text):
                if bad_name(name):
                    _unknown(name)


def init_app(app: Flask) -> None:
    app.before_request(check_request)
