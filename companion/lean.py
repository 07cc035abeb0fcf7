"""The stylesheet and scripts as a phone downloads them: without their comments, blank lines and
indentation. The files are written to be read (a third of their bytes are comments), and a phone
on a bad signal pays for every byte on its first visit: about 7.5 KB less of the 24 KB the edit
page needs, compressed. No build step: this runs once per process, on the bytes served
(`companion.compress` keeps the result with the compressed copies).

Only what cannot change the program goes: a comment that fills its own lines (a `//` line, a
`/* … */` block starting a line and ending one), lines left blank, and the spaces and tabs that
start or end a line. A comment after code on its line stays. The scripts hold no template literal
and no string continued on the next line (tests/test_lean.py checks both), so a line's start or
end is never inside a string.
"""

from __future__ import annotations

import re

_CSS_COMMENT = re.compile(r"/\*(?:(?!\*/).)*\*/", re.S)
# a block comment alone on its lines: from a line's start to a "*/" that ends its line
_JS_BLOCK = re.compile(r"^[ \t]*/\*(?:(?!\*/).)*\*/[ \t]*\n", re.S | re.M)
_JS_LINE = re.compile(r"^[ \t]*//[^\n]*\n", re.M)
_INDENT = re.compile(r"^[ \t]+|[ \t]+$", re.M)
_BLANK = re.compile(r"\n[ \t]*(?=\n)")

TYPES = {"text/css": "css", "text/javascript": "js", "application/javascript": "js"}


def lean(data: bytes, mimetype: str) -> bytes:
    """`data` (a static file of type `mimetype`) without what only its reader needs; other types
    as they are."""
    kind = TYPES.get(mimetype)
    if kind is None:
        return data
    text = data.decode("utf-8")
    if kind == "css":
        text = _CSS_COMMENT.sub("", text)
    else:
        text = _JS_LINE.sub("", _JS_BLOCK.sub("", text))
    text = _BLANK.sub("", _INDENT.sub("", text))
    return text.lstrip("\n").encode("utf-8")
