"""The stylesheet and scripts as a phone downloads them: minified by rcssmin and rjsmin (comments and
the whitespace between tokens gone; strings, template literals and regular expressions kept as they
are, a line break kept where JavaScript's automatic semicolons need it). The files are written to be
read (a third of their bytes are comments), and a phone on a bad signal pays for every byte on its
first visit. No build step: this runs once per process, on the bytes served (`companion.web.compress`
keeps the result with the compressed copies). Why these two libraries rather than the regular
expressions this module once had: docs/architecture.md, "Minified files and caches".
"""

from __future__ import annotations

import rcssmin
import rjsmin

TYPES = {"text/css": "css", "text/javascript": "js", "application/javascript": "js"}


def lean(data: bytes, mimetype: str) -> bytes:
    """`data` (a static file of type `mimetype`) without what only its reader needs; other types
    as they are."""
    kind = TYPES.get(mimetype)
    if kind is None:
        return data
    text = data.decode("utf-8")
    text = rcssmin.cssmin(text) if kind == "css" else rjsmin.jsmin(text)
    return text.encode("utf-8")
