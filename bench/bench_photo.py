"""The photo of the final board (issue 31): what reading a phone's photo costs the server, against a
minimal one-page WeasyPrint document in the same process and run (bench/common.py's floor), in wall
and CPU time (`interleaved`).

Run: `.venv/bin/python -m bench.bench_photo`. The photos: a 12 Mpx phone JPEG (4032 x 3024, EXIF
orientation 6, quality 90, with texture: a photo's entropy, not a flat colour) and a 48 Mpx one
(8064 x 6048), as `companion.storage.photos.prepare` reads them (decoded at a reduced scale, turned, 2048 px,
written again); then a filled sheet with and without its photo page.
"""

from __future__ import annotations

import io
import random

from PIL import ExifTags, Image, ImageFilter

from bench.bench_pdf import COLOURS, minimal, revive_doc
from bench.common import interleaved, report_both
from companion import games, pdf
from companion.storage import photos


def phone_jpeg(width: int, height: int) -> bytes:
    rng = random.Random(31)
    small = Image.frombytes("RGB", (width // 8, height // 8), rng.randbytes(width // 8 * (height // 8) * 3))
    image = small.resize((width, height), Image.Resampling.BILINEAR).filter(ImageFilter.DETAIL)
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90, exif=exif)
    return out.getvalue()


def main() -> list[dict]:
    results = []
    for label, size in (("12 Mpx", (4032, 3024)), ("48 Mpx", (8064, 6048))):
        data = phone_jpeg(*size)
        kept = photos.prepare(data)
        print(f"photo {label} : {len(data) / 1e6:.1f} Mo envoyés, {len(kept.data) / 1e3:.0f} ko gardés "
              f"({kept.width} x {kept.height})")
        results.append(report_both(f"photo {label} lue et réécrite", interleaved(
            lambda data=data: photos.prepare(data), minimal, seconds=4.0), "page WeasyPrint minimale"))
    doc = revive_doc()
    result = games.score(doc)
    photo = photos.prepare(phone_jpeg(4032, 3024)).data
    results.append(report_both("feuille PDF avec sa photo", interleaved(
        lambda: pdf.sheet_from_result(doc, result, colours=COLOURS, photo=photo),
        lambda: pdf.sheet_from_result(doc, result, colours=COLOURS), seconds=6.0), "la même sans photo"))
    return results


if __name__ == "__main__":
    main()
