"""Static files a phone loads once: content-hashed URLs cached a year, and a revalidation that
matches what the phone holds (its gzipped copy) answers 304 instead of the whole file again."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

from app_helpers import holding_files
from companion.web.lean import lean

ROOT = Path(__file__).resolve().parent.parent.parent
GZ = {"Accept-Encoding": "gzip, deflate"}  # what Chromium offers over plain HTTP (a table's LAN)


def asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', html)


def test_pages_link_their_static_files_by_content_hash(client):
    holding_files(client)  # a later visit: a first one has them inside the page (tests/web/test_inline.py)
    urls = asset_urls(client.get("/").get_data(as_text=True))
    assert any("/static/css/app.css" in u for u in urls) and any("/static/js/share.js" in u for u in urls)
    for url in urls:
        path, version = re.fullmatch(r"/static/([^?]+)\?v=([0-9a-f]{12})", url).groups()
        assert hashlib.sha256((ROOT / "static" / path).read_bytes()).hexdigest()[:12] == version


def test_a_hashed_url_is_cached_a_year_and_never_revalidated(client):
    holding_files(client)
    url = next(u for u in asset_urls(client.get("/").get_data(as_text=True)) if "app.css" in u)
    response = client.get(url, headers=GZ)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    # as phones get it: without its comments (companion/web/lean.py)
    sheet = (ROOT / "static" / "css" / "app.css").read_bytes()
    assert gzip.decompress(response.data) == lean(sheet, "text/css")


def test_another_hash_or_none_is_revalidated(client):
    for url in ("/static/css/app.css", "/static/css/app.css?v=000000000000"):
        assert client.get(url).headers["Cache-Control"] == "no-cache"


def test_revalidating_the_gzipped_copy_answers_304(client):
    first = client.get("/static/js/play/autosave.js", headers=GZ)
    assert first.headers["Content-Encoding"] == "gzip"
    etag = first.headers["ETag"]
    assert etag.endswith('-gz"')
    again = client.get("/static/js/play/autosave.js", headers=GZ | {"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    # The plain copy has its own validator; a changed file answers in full.
    plain = client.get("/static/js/play/autosave.js")
    assert plain.headers.get("Content-Encoding") is None and plain.headers["ETag"] != etag
    plain_again = client.get("/static/js/play/autosave.js", headers={"If-None-Match": plain.headers["ETag"]})
    assert plain_again.status_code == 304
    other = client.get("/static/js/play/autosave.js", headers=GZ | {"If-None-Match": '"other-gz"'})
    assert other.status_code == 200


def test_a_small_file_keeps_its_plain_validator(client):
    small = client.get("/static/js/strings.js", headers=GZ)
    assert small.headers.get("Content-Encoding") is None
    etag = small.headers["ETag"]
    assert not etag.endswith('-gz"')
    assert client.get("/static/js/strings.js", headers=GZ | {"If-None-Match": etag}).status_code == 304
