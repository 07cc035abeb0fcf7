"""Compressed answers (companion/web/compress.py): brotli to a phone that offers it, gzip otherwise,
nothing to one that offers neither; each copy has its own validator, and a phone revalidating the
copy it holds gets a 304; caches are told the answer varies with Accept-Encoding."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli
import pytest
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from app_helpers import holding_files
from companion.web.compress import chosen, chosen_for
from companion.web.lean import lean

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = "/static/js/play/autosave.js"


def _accept(header: str):
    return parse_accept_header(header, LanguageAccept)


@pytest.mark.parametrize(("header", "encoding"), [
    ("gzip, deflate, br, zstd", "br"),  # Chromium over HTTPS
    ("gzip, deflate", "gzip"),  # Chromium over HTTP
    ("br;q=0, gzip", "gzip"),
    ("gzip;q=1, br;q=0.5", "gzip"),
    ("*", "br"),
    ("gzip;q=0, *;q=0.3", "br"),
    ("identity", None),
    ("", None),
    ("br;q=0, gzip;q=0", None),
])
def test_the_encoding_follows_what_the_phone_offers(header, encoding):
    assert chosen(_accept(header)) == encoding
    assert chosen_for(header) == encoding  # as the answers read it (kept per header), twice alike
    assert chosen_for(header) == encoding


def test_a_page_comes_in_brotli_when_offered_and_gzip_otherwise(client):
    home = client.get("/").get_data(as_text=True)
    br = client.get("/", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert br.headers["Content-Encoding"] == "br" and "Accept-Encoding" in br.headers["Vary"]
    assert brotli.decompress(br.data).decode() == home
    gz = client.get("/", headers={"Accept-Encoding": "gzip, deflate"})
    assert gz.headers["Content-Encoding"] == "gzip" and gzip.decompress(gz.data).decode() == home
    assert len(br.data) * 2 < len(home.encode()) and len(gz.data) * 2 < len(home.encode())
    refused = client.get("/", headers={"Accept-Encoding": "br;q=0, gzip;q=0"})
    assert "Content-Encoding" not in refused.headers and refused.get_data(as_text=True) == home
    assert "Accept-Encoding" in refused.headers["Vary"]  # another phone may get another body


def test_each_static_copy_has_its_validator_and_revalidates_to_304(client):
    # as phones get it: without its comments (companion/web/lean.py)
    plain_bytes = lean((ROOT / "static" / "js" / "play" / "autosave.js").read_bytes(), "text/javascript")
    copies = {}
    for header, encoding, suffix, decode in (("br", "br", '-br"', brotli.decompress),
                                             ("gzip", "gzip", '-gz"', gzip.decompress)):
        first = client.get(SCRIPT, headers={"Accept-Encoding": header})
        assert first.headers["Content-Encoding"] == encoding and decode(first.data) == plain_bytes
        etag = first.headers["ETag"]
        assert etag.endswith(suffix)
        again = client.get(SCRIPT, headers={"Accept-Encoding": header, "If-None-Match": etag})
        assert again.status_code == 304 and again.data == b""
        # compressed once: the second full answer is the same bytes
        assert client.get(SCRIPT, headers={"Accept-Encoding": header}).data == first.data
        copies[encoding] = etag
    assert copies["br"] != copies["gzip"]
    # the gzip copy's validator does not stand for the brotli copy
    other = client.get(SCRIPT,
                       headers={"Accept-Encoding": "br", "If-None-Match": copies["gzip"]})
    assert other.status_code == 200 and brotli.decompress(other.data) == plain_bytes


def test_an_edit_page_is_sent_compressed(client):
    response = client.post("/nouvelle", data={"game": "revive", "variant": "abyss",
                                              "players-0-name": "Ana", "players-1-name": "Bo"})
    token = re.search(r"/g/([\w-]+)/", response.headers["Location"]).group(1)
    holding_files(client, f"/g/{token}/")  # a later visit: the page alone (a first one holds its files)
    plain = client.get(f"/g/{token}/").get_data(as_text=True)
    br = client.get(f"/g/{token}/", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert br.headers["Content-Encoding"] == "br"
    assert 'name="players-0-track"' in brotli.decompress(br.data).decode() and "players-0-track" in plain
    gz = client.get(f"/g/{token}/", headers={"Accept-Encoding": "gzip, deflate"})
    assert len(br.data) < len(gz.data) and len(br.data) * 5 < len(plain.encode())
