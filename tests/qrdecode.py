"""Reading QR codes back as a phone's camera would: a real decoder (zbarimg, Debian's zbar-tools,
installed by `make test`) on a picture of the code."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

ZBARIMG = "/usr/bin/zbarimg"


def decode(png: Path) -> list[str]:
    """Every QR code zbarimg finds in the picture, as text."""
    if not shutil.which(ZBARIMG):
        pytest.fail(f"{ZBARIMG} is missing: `make test` installs Debian's zbar-tools package")
    out = subprocess.run([ZBARIMG, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(png)],
                         capture_output=True, text=True, timeout=30, check=False)
    return [line for line in out.stdout.splitlines() if line]


# What a terminal draws for its default colours, by theme: (text, background), as grey levels.
THEMES = {"dark": (229, 0), "light": (0, 255)}
# The 256-colour palette's fixed entries the banner uses; the basic 16 depend on the theme.
PALETTE = {16: 0, 231: 255, 15: 255, 0: 0}
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def terminal_cells(text: str, theme: str) -> list[list[tuple[str, int, int]]]:
    """Each line of `text` as the cells a terminal of that theme shows: (character, foreground grey,
    background grey), following the SGR colour sequences (reset, 38;5;N, 48;5;N, 39, 49)."""
    default_fg, default_bg = THEMES[theme]
    fg, bg = default_fg, default_bg
    lines = []
    for line in text.splitlines():
        cells, at = [], 0
        for match in [*SGR.finditer(line), None]:
            end = match.start() if match else len(line)
            cells += [(char, fg, bg) for char in line[at:end]]
            if match is None:
                break
            at = match.end()
            codes = [int(c) for c in match.group(1).split(";") if c] or [0]
            i = 0
            while i < len(codes):
                code = codes[i]
                if code == 0:
                    fg, bg = default_fg, default_bg
                elif code == 39:
                    fg = default_fg
                elif code == 49:
                    bg = default_bg
                elif code in (38, 48) and codes[i + 1] == 5:
                    grey = PALETTE[codes[i + 2]]
                    fg, bg = (grey, bg) if code == 38 else (fg, grey)
                    i += 2
                i += 1
        lines.append(cells)
    return lines


def terminal_to_png(block: str, path: Path, theme: str = "dark", scale: int = 6) -> Path:
    """A terminal's half-block drawing (two modules a character: '█' both in the text colour, '▀'
    the top, '▄' the bottom, ' ' neither) as the picture a terminal of `theme` ("dark": light text
    on black, "light": black text on white) shows, its colour sequences applied."""
    halves = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    rows: list[list[int]] = []
    for cells in terminal_cells(block, theme):
        top, bottom = [], []
        for char, fg, bg in cells:
            upper, lower = halves[char]
            top.append(fg if upper else bg)
            bottom.append(fg if lower else bg)
        rows += [top, bottom]
    width = max(len(r) for r in rows)
    background = THEMES[theme][1]
    raw = b""
    for row in rows:
        greys = [row[x] if x < len(row) else background for x in range(width)]
        pixels = bytes(grey for grey in greys for _ in range(scale))
        raw += (b"\x00" + pixels) * scale

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    # Drawn on the terminal's own background, with a margin as a window has around its text.
    margin = 4 * scale
    framed = b""
    full = width * scale + 2 * margin
    blank = b"\x00" + bytes([background]) * full
    framed += blank * margin
    for y in range(len(rows) * scale):
        line = raw[y * (width * scale + 1) + 1:(y + 1) * (width * scale + 1)]
        framed += b"\x00" + bytes([background]) * margin + line + bytes([background]) * margin
    framed += blank * margin
    header = struct.pack(">IIBBBBB", full, len(rows) * scale + 2 * margin, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(framed))
                     + chunk(b"IEND", b""))
    return path
