"""CSRF tokens checked once per process (companion/web/csrf.py): a token read again is not checked
in full again, and whatever Flask-WTF's own check refuses is still refused, remembered or not, with
nothing stored."""

from __future__ import annotations

import html
import json

import pytest
from flask import session
from flask_wtf.csrf import generate_csrf
from itsdangerous import URLSafeTimedSerializer

from app_helpers import make_app
from companion.web import csrf

REFUSED = "Le formulaire a expiré ou vient d'un autre site"


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)

    @app.get("/_t/token")
    def token():
        return generate_csrf()

    @app.post("/_t/post")
    def post():
        return "posted"

    @app.get("/_t/forget")
    def forget():  # a new session token: the tokens signed for the old one are no longer good
        session.pop("csrf_token", None)
        return generate_csrf()

    return app


@pytest.fixture
def full_checks(monkeypatch) -> list[int]:
    """Counts the tokens whose signature was checked in full (Flask-WTF's validate_csrf)."""
    seen = []
    original = URLSafeTimedSerializer.loads

    def counted(self, s, *args, **kwargs):
        if self.salt == csrf.SALT.encode() and not kwargs.get("return_timestamp"):
            seen.append(1)
        return original(self, s, *args, **kwargs)

    monkeypatch.setattr(URLSafeTimedSerializer, "loads", counted)
    return seen


def posted(client, token: str | None, base_url: str = "http://localhost/",
           headers: dict | None = None) -> tuple[int, str]:
    data = {} if token is None else {"csrf_token": token}
    response = client.post("/_t/post", data=data, base_url=base_url, headers=headers or {})
    return response.status_code, html.unescape(response.get_data(as_text=True))


def remembered(client) -> str:
    """A token of `client`'s session, posted once: remembered from then on."""
    token = client.get("/_t/token").text
    assert posted(client, token)[0] == 200
    return token


def test_the_app_checks_tokens_this_way(app):
    assert isinstance(app.extensions["csrf"], csrf.RememberedCSRF)


def test_a_token_posted_again_is_checked_in_full_once(app, full_checks):
    client = app.test_client()
    token = client.get("/_t/token").text
    assert [posted(client, token)[0] for _ in range(4)] == [200] * 4
    assert len(full_checks) == 1
    # the header the page's scripts may use instead of the field
    assert client.post("/_t/post", headers={"X-CSRFToken": token}).status_code == 200
    assert len(full_checks) == 1


def test_a_remembered_token_is_refused_with_another_session(app):
    ana, bob = app.test_client(), app.test_client()
    token = ana.get("/_t/token").text
    bob.get("/_t/token")  # Bob has a session token of his own
    assert posted(ana, token)[0] == 200  # remembered now
    status, body = posted(bob, token)
    assert status == 400 and REFUSED in body
    fresh = app.test_client()  # no session at all
    status, body = posted(fresh, token)
    assert status == 400 and REFUSED in body


def test_a_remembered_token_is_refused_once_its_session_token_changed(app):
    client = app.test_client()
    token = remembered(client)
    new = client.get("/_t/forget").text
    assert new != token
    assert posted(client, token)[0] == 400
    assert posted(client, new)[0] == 200


@pytest.mark.parametrize("change", [lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),
                                    lambda t: t + "x", lambda t: "", lambda t: None])
def test_a_changed_or_missing_token_is_refused_even_beside_a_remembered_one(app, change):
    client = app.test_client()
    token = remembered(client)
    status, body = posted(client, change(token))
    assert status == 400 and REFUSED in body


def test_a_remembered_token_expires_with_the_time_limit(app, monkeypatch):
    app.config["WTF_CSRF_TIME_LIMIT"] = 60
    client = app.test_client()
    token = remembered(client)  # signed now
    later = csrf.time.time() + 61
    monkeypatch.setattr(csrf.time, "time", lambda: later)
    status, body = posted(client, token)
    assert status == 400 and REFUSED in body


def test_a_remembered_token_is_refused_after_the_secret_changed(app):
    client = app.test_client()
    token = remembered(client)
    app.config["WTF_CSRF_SECRET_KEY"] = "another secret"
    assert posted(client, token)[0] == 400


def test_over_https_a_remembered_token_still_needs_a_same_origin_referrer(app):
    client = app.test_client()
    base = "https://club.example/"
    token = client.get("/_t/token", base_url=base).text
    good = {"Referer": base + "g/x/"}
    assert posted(client, token, base, good)[0] == 200
    for headers in ({}, {"Referer": "https://elsewhere.example/"}):
        assert posted(client, token, base, headers)[0] == 400, headers
    assert posted(client, token, base, good)[0] == 200


def test_an_autosave_with_another_phones_remembered_token_changes_nothing(app):
    """Ana's phone saves (its token remembered); Eve's phone posts Ana's token with its own session:
    refused as an expired page, the game unchanged; Ana's next save goes through."""
    from test_play_saving import create_game_with_csrf, stored

    ana, eve = app.test_client(), app.test_client()
    token = create_game_with_csrf(ana)
    good = ana.get("/_t/token").text
    eve.get("/_t/token")

    def save(client, was: str, value: str, version: int) -> int:
        form = {"csrf_token": good, "version": str(version), "new_rows": "[]",
                "changes": json.dumps({"players-0-track": [was, value]})}
        return client.post(f"/g/{token}/save", data=form).status_code

    assert save(ana, "", "3", 1) == 200
    version = stored(app, token).version
    assert save(eve, "3", "5", version) == 400
    after = stored(app, token)
    assert (after.version, after.document["players"][0]["track"]) == (version, 3)
    assert save(ana, "3", "4", version) == 200
    assert stored(app, token).document["players"][0]["track"] == 4


def test_the_api_stays_exempt_and_forms_do_not(app):
    """The API takes no cookie identity (companion/views/api.py exempts its blueprint): a document
    posted without a token is scored; a form posted without one is refused."""
    client = app.test_client()
    scored = client.post("/api/v1/score", json={"game": "revive", "variant": "base",
                                                 "players": [{"name": "Ana"}, {"name": "Bob"}]})
    assert scored.status_code in (200, 422) and scored.is_json  # the contract's answer, not CSRF's 400
    assert posted(client, None)[0] == 400
