"""The only way WeasyPrint reads anything while rendering a sheet: the app's own static files.

No network (http, https, ftp...), no `data:`, no `file://` outside `static/` (paths are resolved,
symbolic links included, before the check), so a document can never make the server fetch or
embed something else. The one exception is what the app hands it itself: `resources`, exact URLs
(`PHOTO_URL`) mapped to bytes it already holds (the game's photo, read from the database and made
by companion/storage/photos.py), never a path or an address a document could name.
WeasyPrint 70 takes a `URLFetcher` subclass whose `fetch(url, headers)` returns a
`URLFetcherResponse`; an exception it raises is logged by WeasyPrint and the resource is left out of
the page.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from weasyprint.urls import URLFetcher, URLFetcherResponse

from ..settings import STATIC

PHOTO_URL = "companion-photo:board.jpg"  # the game's photo on the sheet (`resources`)


class FetchRefused(ValueError):
    """A URL the sheets may not read."""


def static_path(url: str, root: Path = STATIC) -> Path:
    """The file under `root` that a `file:` URL names; FetchRefused for anything else."""
    if not isinstance(url, str) or "\x00" in url:
        raise FetchRefused("adresse illisible")
    parts = urlsplit(url)
    if parts.scheme.lower() != "file":
        raise FetchRefused(f"seuls les fichiers statiques de l'application sont lus (refusé : {url[:80]})")
    if parts.netloc not in ("", "localhost"):
        raise FetchRefused(f"fichier distant refusé : {url[:80]}")
    base = root.resolve()
    path = Path(url2pathname(unquote(parts.path))).resolve()
    if not path.is_relative_to(base):
        raise FetchRefused(f"hors des fichiers statiques : {url[:80]}")
    if not path.is_file():
        raise FetchRefused(f"fichier statique introuvable : {url[:80]}")
    return path


class StaticFetcher(URLFetcher):
    """Serves `static/` (or `root`) to WeasyPrint and refuses everything else."""

    def __init__(self, root: Path = STATIC, resources: dict[str, tuple[bytes, str]] | None = None):
        super().__init__(allowed_protocols=("file",), allow_redirects=False, fail_on_errors=False)
        self.root = Path(root)
        self.resources = dict(resources or {})  # exact URL -> (bytes, content type), the app's own

    def fetch(self, url, headers=None):  # noqa: ARG002 - WeasyPrint's signature
        if isinstance(url, str) and url in self.resources:
            data, mime = self.resources[url]
            return URLFetcherResponse(url, data, {"Content-Type": mime})
        path = static_path(url, self.root)
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".ttf":
            mime = "font/ttf"
        return URLFetcherResponse(path.as_uri(), path.read_bytes(), {"Content-Type": mime})
