"""The session cookie checked once per process (companion/web/sessions.py): what a phone's session
holds is the same as with Flask's own sessions, a forged, expired or re-keyed cookie is still
refused, and one request's changes never reach another's copy."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import flash, get_flashed_messages, session

from companion.web import sessions


@pytest.fixture
def routes(app):
    @app.get("/_t/put/<value>")
    def put(value):
        session["seen"] = value
        return "ok"

    @app.get("/_t/read")
    def read():
        return session.get("seen", "-")

    @app.get("/_t/notes")
    def notes():
        session["notes"] = ["a"]
        return "ok"

    @app.get("/_t/append")
    def append():  # changes the session's list in place: the remembered contents must not follow
        session["notes"].append("x")
        return ",".join(session["notes"])

    @app.get("/_t/flash")
    def flash_one():
        flash("bonjour")
        return "ok"

    @app.get("/_t/peek")
    def peek():
        return ",".join(session.get("notes", [])) or "-"

    @app.get("/_t/flashed")
    def flashed():
        return ",".join(get_flashed_messages()) or "-"

    return app


def cookie_of(client) -> str:
    return client.get_cookie("session").value


def checks(app, monkeypatch) -> list[int]:
    """Counts the full signature checks (the signing serializer built to read a cookie)."""
    made = []
    original = sessions.RememberedCookieSessions.get_signing_serializer

    def counted(self, flask_app):
        made.append(1)
        return original(self, flask_app)

    monkeypatch.setattr(sessions.RememberedCookieSessions, "get_signing_serializer", counted)
    return made


def test_the_app_reads_sessions_this_way(app):
    assert isinstance(app.session_interface, sessions.RememberedCookieSessions)


def test_a_cookie_read_again_gives_the_same_session_without_a_second_check(routes, client, monkeypatch):
    client.get("/_t/put/rouge")
    made = checks(routes, monkeypatch)
    assert client.get("/_t/read").text == "rouge"
    assert client.get("/_t/read").text == "rouge"
    assert client.get("/_t/read").text == "rouge"
    assert len(made) == 1  # the first read checked it; the others knew it


def test_a_forged_cookie_is_refused_even_beside_a_remembered_one(routes, client):
    client.get("/_t/put/rouge")
    good = cookie_of(client)
    assert client.get("/_t/read").text == "rouge"  # remembered now
    payload, _, signature = good.rpartition(".")
    forged = payload + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    client.set_cookie("session", forged)
    assert client.get("/_t/read").text == "-"
    other = routes.test_client()
    other.set_cookie("session", good.replace(good[:4], good[:3] + ("x" if good[3] != "x" else "y"), 1))
    assert other.get("/_t/read").text == "-"


def test_a_remembered_cookie_past_its_lifetime_is_refused(routes, client, monkeypatch):
    routes.permanent_session_lifetime = timedelta(seconds=100)
    client.get("/_t/put/rouge")
    assert client.get("/_t/read").text == "rouge"
    later = sessions.time.time() + 101
    monkeypatch.setattr(sessions.time, "time", lambda: later)
    assert client.get("/_t/read").text == "-"


def test_a_new_secret_refuses_what_the_old_one_signed(routes, client):
    client.get("/_t/put/rouge")
    assert client.get("/_t/read").text == "rouge"
    routes.secret_key = "another secret, the old cookies are void"
    assert client.get("/_t/read").text == "-"


def test_one_requests_changes_in_place_never_reach_the_next(routes, client):
    client.get("/_t/notes")
    cookie = cookie_of(client)
    assert client.get("/_t/append").text == "a,x"  # its own copy of the list, changed in place
    client.set_cookie("session", cookie)  # the same cookie again, as a second tab would send it
    assert client.get("/_t/peek").text == "a"
    assert client.get("/_t/append").text == "a,x"


def test_flash_messages_still_cross_a_redirect(routes, client):
    client.get("/_t/flash")
    assert client.get("/_t/flashed").text == "bonjour"
    assert client.get("/_t/flashed").text == "-"
