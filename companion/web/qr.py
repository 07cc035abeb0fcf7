"""QR codes of the links a phone must open: inline SVG for the pages, coloured half blocks for a terminal.

Drawn by the server with segno (no request leaves the page, the CSP stays as it is). Error
correction M survives a crease or a glare on a printed page; the quiet zone of 4 modules is the
standard's, which phone cameras need to find the code.
"""

from __future__ import annotations

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


# Explicit colours from the 256-colour cube (16 is #000000, 231 is #ffffff: a terminal's theme
# remaps the 16 basic colours, seldom these), so the code is black on white, quiet zone included,
# on a light terminal (macOS's default) as on a dark one. Each line ends with a reset.
DARK, LIGHT = 16, 231
UPPER_HALF = "▀"


def terminal(link: str) -> str:
    """The code in Unicode half blocks (two modules a character: the upper half in the foreground
    colour, the lower in the background colour), black on white whatever the terminal's own
    colours; readable by a phone from the screen of the machine that serves the app."""
    rows = [[DARK if bit else LIGHT for bit in row]
            for row in segno.make(link, error="m", micro=False).matrix_iter(border=QUIET_ZONE)]
    if len(rows) % 2:
        rows.append([LIGHT] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        line, now = "", None
        for cell in zip(top, bottom, strict=True):
            if cell != now:  # a colour is said when it changes
                line += "\x1b[38;5;{};48;5;{}m".format(*cell)
                now = cell
            line += UPPER_HALF
        lines.append(line + "\x1b[0m")
    return "\n".join(lines) + "\n"
