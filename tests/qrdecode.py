"""Reading QR codes back as a phone's camera would: a real decoder (zbarimg, Debian's zbar-tools,
installed by `make test`) on a picture of the code."""

from __future__ import annotations

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


def terminal_to_png(block: str, path: Path, scale: int = 6) -> Path:
    """A terminal's half-block drawing (two modules a character: '█' both light, '▀' top light,
    '▄' bottom light, ' ' both dark) as a black-on-white PNG."""
    top = {"█": 1, "▀": 1, "▄": 0, " ": 0}
    bottom = {"█": 1, "▀": 0, "▄": 1, " ": 0}
    rows: list[list[int]] = []
    for line in block.splitlines():
        rows.append([top[c] for c in line])
        rows.append([bottom[c] for c in line])
    width = max(len(r) for r in rows)
    raw = b""
    for row in rows:
        light = [row[x] if x < len(row) else 1 for x in range(width)]
        pixels = bytes(255 if bit else 0 for bit in light for _ in range(scale))
        raw += (b"\x00" + pixels) * scale

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width * scale, len(rows) * scale, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
                     + chunk(b"IEND", b""))
    return path
