"""A phone's first visit: the page's stylesheets and scripts inside the page, cached files after
(issue 33). On a table's slow link (400 ms round trip, 400 kbit/s) every file a page links costs a
round trip after the page's first bytes, and a phone opens six connections at a time: the edit
page's ten files were a second wave behind the HTML (interactive in 1.6-2.3 s). Inside the page
they travel with it, compressed with it, and the page is interactive once its last byte is in.

A phone that has the files already (a later visit) gets the links, as the templates write them: the
cookie `assets` lists the files it holds, each by the start of its content hash
(`static_cache.version`, the `?v=` of its URL). A first visit's page ends with `static/js/warm.js`
(inline too), which, once the page has loaded, fetches the files it was given inline (their hashed
URLs, cached a year) and only then writes the cookie the server chose: a phone that left before
they were fetched is sent them inline again, never a link to a file it lacks.

The rewrite reads the rendered page (the templates and the caches of rendered pages are the same
for every visit): each `<link rel="stylesheet">` of a static file the phone lacks becomes a
`<style>` at its place; every script of the page (they are all deferred, in the head) moves to the
end of the body in the same order, inline when the phone lacks it, else a plain `<script src>`:
they run after the document is parsed, in order, before DOMContentLoaded, as deferred scripts do.
The Content-Security-Policy stays strict: no 'unsafe-inline', each inline file allowed by its own
SHA-256 (`security.policy`), so no other inline script or style runs. Only a file's lean bytes
(`companion.web.lean`) are inlined, and never one that holds a closing tag or a comment opener
(`inlinable`): it keeps its link.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from flask import Flask, Response, current_app, g, request

from . import compress, lean, security, static_cache

COOKIE = "assets"
TOKEN = 8  # hex digits of a file's content hash the cookie keeps (files differ in the first few)
WARM = "js/warm.js"
# what would end or change the element a file is put in (compared in lower case)
_UNSAFE = ("</script", "</style", "<!--", "<script")

_LINK = re.compile(r'<link rel="stylesheet"(?P<media> media="[a-z]+")? href="(?P<url>(?P<prefix>[^"]*?)'
                   r'/static/(?P<file>[^"?]+)\?v=(?P<v>[0-9a-f]+))">')
# every stylesheet or script a page names, by its token: the quick look of a later visit
_REFERENCES = re.compile(rb'/static/[^"?]+\.(?:css|js)\?v=([0-9a-f]{%d})' % TOKEN)
_SCRIPT = re.compile(r'<script src="(?P<url>(?P<prefix>[^"]*?)/static/(?P<file>[^"?]+)\?v=(?P<v>[0-9a-f]+))"'
                     r' defer></script>\n?')


@dataclass(frozen=True)
class Asset:
    text: str  # the lean bytes, decoded
    digest: str  # 'sha256-…' as a CSP source


@lru_cache(maxsize=256)
def _asset(path: str, version: str) -> Asset | None:  # noqa: ARG001 - the key of the cache
    mimetype = "text/css" if path.endswith(".css") else "text/javascript"
    with open(path, "rb") as fh:
        data = lean.lean(fh.read(), mimetype)
    text = data.decode("utf-8")
    if not inlinable(text):
        return None
    return Asset(text, "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode())


def inlinable(text: str) -> bool:
    """Whether `text` may sit between <script> or <style> tags as it is."""
    lower = text.lower()
    return not any(mark in lower for mark in _UNSAFE)


def asset(filename: str, version: str | None = None) -> Asset | None:
    """static/`filename` as it goes inside a page, when its current version is `version` (None:
    whatever it is) and it may be inlined; else None."""
    current = static_cache.version(filename)
    if current is None or (version is not None and version != current):
        return None
    path = static_cache._path(current_app.static_folder, filename)  # noqa: SLF001 - the resolved path
    return _asset(path, current) if path else None


def held(cookie: str | None) -> set[str]:
    """The files' tokens a phone's `assets` cookie says it holds."""
    return {t for t in (cookie or "").split(".") if len(t) == TOKEN}


def current_tokens() -> set[str]:
    """The tokens of every stylesheet and script in static/ now (a cookie keeps only those)."""
    folder = current_app.static_folder
    out = set()
    for sub in ("css", "js"):
        for root, _dirs, files in os.walk(os.path.join(folder, sub)):
            for name in files:
                rel = os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/")
                version = static_cache.version(rel)
                if version:
                    out.add(version[:TOKEN])
    return out


def rewrite(html: str, holds: set[str], root: str) -> tuple[str, list[str], list[str], str] | None:
    """`html` with the files a phone lacks inside it (module docstring); None when it holds them
    all. Returns the page, the scripts' and styles' CSP hashes, and the cookie value to write."""
    lacking = []  # (token, url) of the files put inside the page
    styles: list[str] = []
    scripts: list[str] = []

    def style(match: re.Match) -> str:
        if match["v"][:TOKEN] in holds:
            return match[0]
        found = asset(match["file"], match["v"])
        if found is None:
            return match[0]
        lacking.append((match["v"][:TOKEN], match["url"]))
        styles.append(found.digest)
        return f"<style{match['media'] or ''}>{found.text}</style>"

    page = _LINK.sub(style, html)
    moved = []  # the scripts in their order: (match, Asset or None when linked)
    for match in _SCRIPT.finditer(page):
        found = None if match["v"][:TOKEN] in holds else asset(match["file"], match["v"])
        moved.append((match, found))
        if found is not None:
            lacking.append((match["v"][:TOKEN], match["url"]))
            scripts.append(found.digest)
    if not lacking:
        return None
    end = page.rfind("</body>")
    warm = asset(WARM)
    if end < 0 or warm is None:
        return None
    if moved:
        page = _SCRIPT.sub("", page)
        end = page.rfind("</body>")
    tail = []
    for match, found in moved:
        tail.append(f'<script src="{match["url"]}"></script>' if found is None
                    else f"<script>{found.text}</script>")
    cookie = ".".join(sorted((holds & current_tokens()) | {token for token, _ in lacking}))
    urls = " ".join(dict.fromkeys(url for _, url in lacking))
    tail.append(f'<script data-warm="{escape(urls)}" data-cookie="{cookie}" data-path="{escape(root)}">'
                f"{warm.text}</script>")
    scripts.append(warm.digest)
    return page[:end] + "\n".join(tail) + "\n" + page[end:], scripts, styles, cookie


def first_visit(response: Response) -> Response:
    """An after_request hook: a page's files inside it for a phone that lacks them (`rewrite`)."""
    if (response.status_code != 200 or response.mimetype != "text/html" or response.is_streamed
            or response.direct_passthrough or "Content-Encoding" in response.headers
            or "ETag" in response.headers):
        return response
    data = response.get_data()
    files = _REFERENCES.findall(data)  # a later visit pays this scan alone (~40 µs for 130 KB)
    if not files:
        return response
    response.vary.add("Cookie")  # the same URL is another body for a phone that holds the files
    holds = held(request.cookies.get(COOKIE))
    if all(token.decode() in holds for token in files):
        return response
    done = rewrite(data.decode("utf-8"), holds, (request.script_root or "") + "/")
    if done is None:
        return response
    page, scripts, styles, _cookie = done
    response.set_data(page)
    setattr(g, compress.INLINED, True)  # compressed harder: it is a few times bigger
    response.headers["Content-Security-Policy"] = security.policy(tuple(dict.fromkeys(scripts)),
                                                                  tuple(dict.fromkeys(styles)))
    return response


def init_app(app: Flask) -> None:
    """After `compress.init_app`: Flask runs the later hook first, so the page is rewritten before
    it is compressed, and its policy set before `security.add_headers` sets the default one."""
    app.after_request(first_visit)
