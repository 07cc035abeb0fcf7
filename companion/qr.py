"""QR codes of the links a phone must open: inline SVG for the pages, text blocks for a terminal.

Drawn by the server with segno (no request leaves the page, the CSP stays as it is). Error
correction M survives a crease or a glare on a printed page; the quiet zone of 4 modules is the
standard's, which phone cameras need to find the code.
"""

from __future__ import annotations

import io
from functools import lru_cache

import segno

QUIET_ZONE = 4


@lru_cache(maxsize=256)
def svg(link: str, title: str = "") -> str:
    """An `<svg>` element that scales to its CSS box (no width/height), black on white whatever
    the page's colours, so that it scans on screen and prints."""
    code = segno.make(link, error="m", micro=False)
    return code.svg_inline(scale=1, border=QUIET_ZONE, dark="#000", light="#fff", omitsize=True,
                           svgclass="qr", lineclass=None, title=title or None)


def terminal(link: str) -> str:
    """The code in Unicode half blocks (two modules a character), light modules drawn, as on a
    dark terminal; readable by a phone from the screen of the machine that serves the app."""
    out = io.StringIO()
    segno.make(link, error="m", micro=False).terminal(out=out, compact=True, border=QUIET_ZONE)
    return out.getvalue()
