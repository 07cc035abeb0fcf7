"""The photo of a game's final board: an uploaded image made into what is kept (Pillow; pure: no
Flask, no database).

`prepare(data)` reads an image a phone sent (JPEG, PNG or WebP; HEIC too when the `pillow-heif`
plugin is installed), applies its EXIF orientation, makes its long side at most `MAX_SIDE` pixels
and writes it again as a JPEG from its pixels alone: no EXIF field (GPS above all), no XMP, no
comment, no colour profile is carried over. Anything else is `Refused` with a sentence for the
player (`message`, French, translated where shown): not an image, a format not read here, a
decompression bomb (`MAX_PIXELS` decoded at most; Pillow's own limit is met before any pixel is
read), an image cut short.

`checked(data)` is the restore's way: a photo already made here (a JPEG within `MAX_SIDE`, without
metadata) is kept byte for byte, anything else goes through `prepare`.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from ..games.i18n import N_

MAX_SIDE = 2048  # pixels: the long side of a kept photo (enough to read the board's pieces)
# A JPEG is decoded at the smallest scale (1/2, 1/4, 1/8) whose long side is still this many pixels:
# a 12 Mpx phone photo (4032 px) at 1/2 is kept at 2016 px, a 48 Mpx one (8064 px) at 1/4 too, in a
# fraction of the time of a full decode and resize.
DRAFT_SIDE = 1600
# Pixels decoded at most (a JPEG is decoded at a reduced scale when it can be: a 50 Mpx phone photo
# needs 12.5): 120 MB of RGB at worst, in the heavy share of the working slots.
MAX_PIXELS = 40_000_000
QUALITY = 85
CONTENT_TYPE = "image/jpeg"
FORMATS = ["JPEG", "PNG", "WEBP"]

try:  # HEIC (iPhones) where the optional plugin is installed; otherwise refused with the formats read
    from pillow_heif import register_heif_opener  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the installation
    HEIF = False
else:  # pragma: no cover
    register_heif_opener()
    HEIF = True
    FORMATS.append("HEIF")

ACCEPTED = "JPEG, PNG, WebP" + (", HEIC" if HEIF else "")

NOT_AN_IMAGE = N_("Ce fichier n'est pas une photo lisible : formats acceptés {formats}.")
HEIC_REFUSED = N_("Les photos HEIC (iPhone) ne sont pas lues par ce serveur : formats acceptés {formats}. "
                  "Sur l'iPhone : Réglages > Appareil photo > Formats > « Le plus compatible ».")
TOO_MANY_PIXELS = N_("Image trop grande : {mp} mégapixels au plus.")
BROKEN = N_("Cette image est incomplète ou abîmée : reprenez la photo.")


class Refused(ValueError):
    """The upload is not kept: `message` (an N_ id) with its `values`."""

    def __init__(self, message: str, **values):
        super().__init__(message.format(**values))
        self.message = message
        self.values = values


@dataclass(frozen=True)
class Photo:
    data: bytes  # a JPEG, without any metadata
    width: int
    height: int
    digest: str  # 32 hex digits of the bytes' SHA-256


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def _is_heic(data: bytes) -> bool:
    """An ISO base media file of the HEIF family (its `ftyp` box names the brand)."""
    return data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"hevc", b"hevx", b"mif1", b"msf1",
                                                   b"heim", b"heis")


def _open(data: bytes) -> Image.Image:
    if not HEIF and _is_heic(data):
        raise Refused(HEIC_REFUSED, formats=ACCEPTED)
    try:
        # Pillow refuses a decompression bomb here, from the header alone (DecompressionBombError).
        image = Image.open(io.BytesIO(data), formats=FORMATS)
    except Image.DecompressionBombError:
        raise Refused(TOO_MANY_PIXELS, mp=MAX_PIXELS // 1_000_000) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise Refused(NOT_AN_IMAGE, formats=ACCEPTED) from None
    return image


def _decoded(image: Image.Image) -> Image.Image:
    """Its pixels, at the smallest scale a JPEG offers that still covers MAX_SIDE; refused before
    decoding when they would be more than MAX_PIXELS."""
    if image.format == "JPEG":
        width, height = image.size
        scale = next((s for s in (8, 4, 2) if max(width, height) // s >= DRAFT_SIDE), 1)
        if scale > 1:
            image.draft("RGB", (max(1, width // scale), max(1, height // scale)))
    width, height = image.size
    if width * height > MAX_PIXELS or width < 1 or height < 1:
        raise Refused(TOO_MANY_PIXELS, mp=MAX_PIXELS // 1_000_000)
    try:
        image.load()
    except Image.DecompressionBombError:
        raise Refused(TOO_MANY_PIXELS, mp=MAX_PIXELS // 1_000_000) from None
    except (OSError, ValueError, SyntaxError, EOFError):
        raise Refused(BROKEN) from None
    return image


def _whole(image: Image.Image, data: bytes) -> None:
    """A cut file is refused by its own end: WeasyPrint turns Pillow's LOAD_TRUNCATED_IMAGES on for
    the whole process when it is imported, and a truncated JPEG or PNG then loads with grey pixels."""
    if image.format == "JPEG" and not data.rstrip(b"\x00\r\n ").endswith(b"\xff\xd9"):
        raise Refused(BROKEN)
    if image.format == "PNG":
        try:
            Image.open(io.BytesIO(data), formats=("PNG",)).verify()  # every chunk's CRC, up to IEND
        except (OSError, ValueError, SyntaxError, EOFError):
            raise Refused(BROKEN) from None


def prepare(data: bytes) -> Photo:
    """The photo as kept: orientation applied, long side at most MAX_SIDE, JPEG without metadata."""
    image = _open(data)
    _whole(image, data)
    image = _decoded(image)
    image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)  # square: before turning it is cheaper
    # its EXIF orientation, before the EXIF is left out (a damaged EXIF block: the pixels as they are)
    with contextlib.suppress(OSError, ValueError, SyntaxError):
        image = ImageOps.exif_transpose(image)
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, "white")
        flat.paste(rgba, mask=rgba.getchannel("A"))
        image = flat
    elif image.mode != "RGB":
        image = image.convert("RGB")
    # A new image from the pixels alone: nothing of the file's `info` (EXIF, XMP, comment, ICC
    # profile) can reach the encoder.
    bare = Image.frombytes("RGB", image.size, image.tobytes())
    out = io.BytesIO()
    bare.save(out, "JPEG", quality=QUALITY, optimize=True)
    kept = out.getvalue()
    return Photo(kept, bare.width, bare.height, _digest(kept))


def is_bare(image: Image.Image) -> bool:
    """A JPEG as `prepare` writes them: within MAX_SIDE, RGB, no metadata of any kind."""
    return (image.format == "JPEG" and image.mode == "RGB" and max(image.size) <= MAX_SIDE
            and not image.getexif() and not set(image.info) - {"jfif", "jfif_version", "jfif_unit",
                                                                "jfif_density", "dpi", "progressive",
                                                                "progression"})


def checked(data: bytes) -> Photo:
    """A photo from an export file: kept as it is when it is one `prepare` made (a round trip
    changes no byte), else made again by `prepare`."""
    image = _open(data)
    if is_bare(image):
        _decoded(image)  # it must decode whole
        return Photo(data, image.width, image.height, _digest(data))
    return prepare(data)
