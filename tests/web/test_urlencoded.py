"""A small url-encoded body read in one step (companion/web/urlencoded.py): the very form Werkzeug
reads, for every body, whichever of the two reads it; an autosave's body read the short way."""

from __future__ import annotations

import io
import json
from urllib.parse import quote, quote_plus, urlencode

import flask
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder

from app_helpers import autosave, create_game, stored
from companion.web import urlencoded

TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
PAIRS = st.lists(st.tuples(TEXT, TEXT), max_size=6)
# bytes made of what bodies are made of: escapes good and bad, raw "=", "&", "+", spaces, non-ASCII
PIECES = st.sampled_from([b"a", b"Z", b"0", b"-", b"_", b".", b"~", b"*", b"+", b"&", b"=", b"%", b"%2",
                          b"%41", b"%e9", b"%C3%A9", b"%FF", b"%zz", b"%0A", b"%20", b" ", b"\n", b"\xc3\xa9",
                          b"%3D", b"%26", b"%2B", b";", b"/"])
BODIES = st.lists(PIECES, max_size=30).map(b"".join)


def forms(body: bytes, content_type: str = urlencoded.URLENCODED):
    """The form of `body` as Flask's own request reads it, and as the app's does."""
    def read(cls):
        environ = EnvironBuilder(method="POST", input_stream=io.BytesIO(body), content_length=len(body),
                                 content_type=content_type).get_environ()
        return cls(environ).form
    return read(flask.Request), read(urlencoded.Request)


@settings(max_examples=300, deadline=None)
@given(PAIRS, st.booleans())
def test_an_encoded_form_is_read_the_short_way_as_werkzeug_reads_it(pairs, plus):
    body = urlencode(pairs, quote_via=quote_plus if plus else quote).encode()
    assert urlencoded.pairs(body) is not None  # what a browser encodes is read here
    theirs, ours = forms(body)
    assert list(ours.items(multi=True)) == list(theirs.items(multi=True))


@settings(max_examples=600, deadline=None)
@given(BODIES)
def test_any_body_reads_as_werkzeug_reads_it(body):
    """Raw "=", bad escapes, spaces, line ends, bytes not UTF-8: read here the same or left to Werkzeug."""
    try:
        theirs = flask.Request(EnvironBuilder(method="POST", input_stream=io.BytesIO(body),
                                              content_length=len(body),
                                              content_type=urlencoded.URLENCODED).get_environ()).form
    except UnicodeDecodeError:  # Werkzeug's own failure on a body not UTF-8: never read here
        assert urlencoded.pairs(body) is None
        return
    _theirs, ours = forms(body)
    assert list(ours.items(multi=True)) == list(theirs.items(multi=True))


def test_what_is_left_to_werkzeug():
    assert urlencoded.pairs(b"a=b=c") is None  # a raw "=" in a value
    assert urlencoded.pairs(b"a=%zz") is None and urlencoded.pairs(b"a=%4") is None  # not escapes
    assert urlencoded.pairs(b"a=%FF") is None  # not UTF-8 once unescaped
    assert urlencoded.pairs(b"a=x y") is None and urlencoded.pairs("a=é".encode()) is None
    assert urlencoded.pairs(b"a=1&&b&=2&c=%2B+%3D") == [("a", "1"), ("b", ""), ("", "2"), ("c", "+ =")]


def test_a_body_past_the_limit_is_refused_as_before(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 100
    token = create_game(client, "revive", "base", ["Ana", "Bob"])
    response = autosave(client, token, 1, players__0__track=("", "7" * 200))
    assert response.status_code == 413


def test_an_autosave_is_read_the_short_way_and_stored(client, app, monkeypatch):
    token = create_game(client, "revive", "base", ["Ana", "Bob"])
    read = []
    real = urlencoded.pairs
    monkeypatch.setattr(urlencoded, "pairs", lambda body: read.append(real(body)) or read[-1])
    changes = json.dumps({"players-0-track": ["", "31"], "players-1-track": ["", "4"]})
    body = f"version=1&changes={quote(changes, safe='')}&row_keys=%7B%7D&new_rows=%5B%5D&delta=1"
    response = client.post(f"/g/{token}/save", data=body,
                           content_type="application/x-www-form-urlencoded;charset=UTF-8")
    assert response.status_code == 200, response.json
    assert read and read[0] is not None and ("changes", changes) in read[0]
    assert response.json["totals"][:2] == [31, 4]
    assert [p.get("track") for p in stored(app, token).document["players"]] == [31, 4]


def test_a_value_werkzeug_reads_is_stored_the_same(client, app):
    """A name typed with "=" and "&" goes through the long way, as before."""
    token = create_game(client, "revive", "base", ["Ana", "Bob"])
    changes = json.dumps({"players-0-track": ["", "12"]})
    body = f"version=1&changes={quote(changes, safe='')}&note=a=b"  # a raw "=": Werkzeug's
    assert urlencoded.pairs(body.encode()) is None
    response = client.post(f"/g/{token}/save", data=body, content_type=urlencoded.URLENCODED)
    assert response.status_code == 200, response.json
    assert stored(app, token).document["players"][0]["track"] == 12
