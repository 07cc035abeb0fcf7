"""Messages in the player's language, for pure Python code (the engines, the CLI, the PDF).

French literals are the message ids: French needs no catalogue and reads exactly as written. Other
languages come from the gettext catalogues in companion/translations/ (compiled by `make install`),
read with the standard library so that companion/games/ never imports Flask. The language is a
context variable: the web app sets it per request (companion/web/i18n_web.py), the CLI from `--lang`,
code can use `using("en")`; messages are built when called, in the language of the moment.

    _("au plus {n} caractères", n=40)        # translated, then formatted when arguments are given
    ngettext("{n} château", "{n} châteaux", n)  # French rule (0 and 1 singular) or the catalogue's
    N_("Châteaux")                            # marks a module-level constant; translate it when read
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
from contextvars import ContextVar
from functools import cache
from pathlib import Path

DOMAIN = "messages"
LOCALEDIR = Path(__file__).resolve().parent.parent / "translations"
DEFAULT = "fr"
LANGUAGES = ("fr", "en")  # the first is the source language (the message ids)

_current: ContextVar[str] = ContextVar("companion_language", default=DEFAULT)


def normalise(lang: str | None) -> str | None:
    """'en-GB', 'EN', 'en_US' -> 'en'; None for a language the app does not speak."""
    if not lang:
        return None
    code = lang.strip().replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else None


def current() -> str:
    return _current.get()


def set_language(lang: str | None):
    """Set the language of this context; returns a token for `reset`."""
    return _current.set(normalise(lang) or DEFAULT)


def reset(token) -> None:
    _current.reset(token)


@contextlib.contextmanager
def using(lang: str | None):
    token = set_language(lang)
    try:
        yield
    finally:
        _current.reset(token)


@cache
def catalogue(lang: str, localedir: Path = LOCALEDIR) -> _gettext.NullTranslations:
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    po = localedir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    mo = po.with_suffix(".mo")
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        # A server installed without `make translations` (or a catalogue edited since) would
        # otherwise speak French to an English reader without a word: compile it in memory.
        return _compiled(po)
    return _gettext.translation(DOMAIN, str(localedir), languages=[lang], fallback=True)


def _compiled(po: Path) -> _gettext.GNUTranslations:
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        messages = read_po(source)
    buffer = io.BytesIO()
    write_mo(buffer, messages)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def gettext(message: str, **values) -> str:
    lang = _current.get()
    text = message if lang == DEFAULT or not message else catalogue(lang).gettext(message)
    return text.format(**values) if values else text


_ = gettext
tr = gettext  # for a value known only at run time (a constant marked with N_): not extracted


def ngettext(singular: str, plural: str, n: int, **values) -> str:
    """A count's message; `{n}` is filled with `n`. French: singular for -1..1 (« 0 château »)."""
    lang = current()
    if lang == DEFAULT:
        text = singular if abs(n) <= 1 else plural
    else:
        t = catalogue(lang)
        if (singular, 0) in getattr(t, "_catalog", {}):
            text = t.ngettext(singular, plural, n)
        else:  # two forms marked apart with N_ (a table of words): the language's rule picks one
            rule = getattr(t, "plural", lambda k: int(k != 1))
            text = t.gettext(plural if rule(n) else singular)
    return text.format(n=n, **values)



def N_(message: str) -> str:
    """Mark a constant for extraction; it is translated where it is read (`tr(constant)`)."""

    return message


# The month names, long and short, per language: the only copy (static/js/zone.js reads its short
# French ones from the catalogue, companion/web/jsstrings.py "months").
MONTHS = {
    "fr": (("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
            "novembre", "décembre"),
           ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.",
            "déc.")),
    "en": (("January", "February", "March", "April", "May", "June", "July", "August", "September",
            "October", "November", "December"),
           ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")),
}


def long_date(day) -> str:
    """The date printed on a sheet: "1er mars 2026" in French, "1 March 2026" in English."""
    if current() == "en":
        return f"{day.day} {MONTHS['en'][0][day.month - 1]} {day.year}"
    return f"{'1er' if day.day == 1 else day.day} {MONTHS['fr'][0][day.month - 1]} {day.year}"


def short_date(day) -> str:
    """A short date in the current language: « 22 nov. 2026 », "22 Nov 2026"."""
    months = MONTHS["en" if current() == "en" else "fr"][1]
    return f"{day.day} {months[day.month - 1]} {day.year}"
