"""The web app's language: Flask-Babel for the templates, the engines' context variable for the rest.

Chosen per request: `?lang=` (links, the API), else the `lang` cookie the FR | EN switch sets, else
the browser's Accept-Language, else French. Every response says which (Content-Language) and that
it depends on it (Vary), so no cache serves one language's page to the other.
"""

from __future__ import annotations

import contextlib
from functools import lru_cache
from urllib.parse import urlsplit

from flask import Blueprint, Flask, g, redirect, request
from flask_babel import Babel
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..games import i18n

COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
NAMES = {"fr": "Français", "en": "English"}

bp = Blueprint("lang", __name__)


def select() -> str:
    """The language of this request (see the module docstring)."""
    asked = i18n.normalise(request.args.get("lang")) or i18n.normalise(request.cookies.get(COOKIE))
    if asked:
        return asked
    return _best_of(request.headers.get("Accept-Language", ""))


@lru_cache(maxsize=256)
def _best_of(accept: str) -> str:
    """The language a browser's Accept-Language asks for, read once per process for each text (a
    phone sends the same one with every tap's save)."""
    best = parse_accept_header(accept, LanguageAccept).best_match(i18n.LANGUAGES)
    return i18n.normalise(best) or i18n.DEFAULT


def current() -> str:
    return i18n.current()


def ordinal_suffix(n: int) -> str:
    """What follows the number of a place, set as a superscript: "re"/"e", "st"/"nd"/"rd"/"th"."""
    from ..games.core import ordinal

    return ordinal(n)[len(str(n)):]



def _begin() -> None:
    g.lang = select()  # read by a view without a call into the engines' i18n (companion/views/edit.py)
    g.lang_token = i18n.set_language(g.lang)


def _end(exc=None) -> None:
    token = g.pop("lang_token", None)
    if token is not None:
        with contextlib.suppress(ValueError):  # set in another context: nothing to undo
            i18n.reset(token)


def _headers(response):
    if request.endpoint == "static":  # the same files for every reader: cached alike
        return response
    headers = response.headers
    if "Content-Language" not in headers:
        headers["Content-Language"] = i18n.current()
    if "Vary" in headers:  # the view's or compression's: both added to it
        response.vary.update(("Accept-Language", "Cookie"))
    else:  # most answers: written at once, without parsing a header set and writing it again
        headers["Vary"] = "Accept-Language, Cookie"
    return response


def _safe_next(target: str | None) -> str:
    """Back to the page the switch was tapped on: a path of this site only (never //host, never
    a scheme, never a control character), else home."""
    if (not target or not target.startswith("/") or target.startswith("//") or "\\" in target
            or not target.isprintable()):  # a newline would split the Location header
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


@bp.get("/langue/<code>")
def switch(code: str):
    """The FR | EN switch: a plain link (no script), remembered in a cookie for a year."""
    lang = i18n.normalise(code) or i18n.DEFAULT
    response = redirect(_safe_next(request.args.get("next")), code=303)
    response.set_cookie(COOKIE, lang, max_age=COOKIE_AGE, samesite="Lax", httponly=True,
                        secure=request.is_secure)
    return response


def switch_links() -> list[dict]:
    """The switch's links for the current page (templates: `language_links()`)."""
    here = request.full_path.rstrip("?") if request else "/"
    if request.endpoint == "lang.switch":
        here = "/"
    # ?lang= in the page's own URL would win over the cookie: drop it from the way back.
    parts = urlsplit(here)
    query = "&".join(q for q in parts.query.split("&") if q and not q.startswith("lang="))
    here = parts.path + (f"?{query}" if query else "")
    from flask import url_for

    return [{"code": code, "label": code.upper(), "name": NAMES[code], "current": code == i18n.current(),
             "url": url_for("lang.switch", code=code, next=here)} for code in i18n.LANGUAGES]


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select, default_translation_directories=str(i18n.LOCALEDIR))
    app.before_request_funcs.setdefault(None, []).insert(0, _begin)  # before CSRF and every other hook
    app.teardown_request(_end)
    app.after_request(_headers)
    app.register_blueprint(bp)
    # One translation path for pages, sheets, engines and CLI: the templates' `_`/`ngettext` are the
    # engines' (stdlib gettext on the same catalogue; French plural rule: « 0 partie »).
    app.jinja_env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)
    from .jsstrings import attribute

    app.jinja_env.globals.update(current_language=current, language_links=switch_links,
                                 ordinal_suffix=ordinal_suffix, js_strings_attribute=attribute, tr=i18n.tr)



