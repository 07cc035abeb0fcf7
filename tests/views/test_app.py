"""The app factory, settings from the environment, pages, headers and error pages."""

from __future__ import annotations

import os
import re
import stat

import pytest

from companion import create_app, settings


def test_factory_takes_a_test_config(app):
    assert app.testing
    assert app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite:///")
    assert not app.debug


def test_default_database_is_sqlite_in_instance(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "inst"))
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'inst' / 'companion.sqlite3'}"


def test_a_sqlite_file_is_not_pinged_a_database_server_is(app):
    """A ping is one more statement per request; only a server can drop a pooled connection (the
    PostgreSQL side: tests/storage/test_postgres.py replaces a connection the server ended)."""
    from companion.extensions import db

    with app.app_context():
        assert db.engine.dialect.name == "sqlite" and not db.engine.pool._pre_ping
    assert settings.engine_options("postgresql+psycopg://u:p@db/club") == {"pool_pre_ping": True}


@pytest.mark.parametrize("given, expected", [
    ("postgres://u:p@db/club", "postgresql+psycopg://u:p@db/club"),
    ("postgresql://u:p@db/club", "postgresql+psycopg://u:p@db/club"),
    ("sqlite:////srv/games.db", "sqlite:////srv/games.db"),
])
def test_database_url_from_environment(monkeypatch, tmp_path, given, expected):
    monkeypatch.setenv("DATABASE_URL", given)
    assert settings.database_url(str(tmp_path)) == expected


def test_secret_key_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    assert settings.secret_key(str(tmp_path)) == "from-the-environment"
    assert not (tmp_path / "secret_key").exists()


def test_secret_key_generated_once_private_and_not_a_constant(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = settings.secret_key(str(tmp_path / "a"))
    again = settings.secret_key(str(tmp_path / "a"))
    other = settings.secret_key(str(tmp_path / "b"))
    assert first == again and len(first) >= 64
    assert first != other
    mode = stat.S_IMODE(os.stat(tmp_path / "a" / "secret_key").st_mode)
    assert mode == 0o600


def test_home_page_presents_the_three_games_in_french(client):
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert '<html lang="fr">' in html
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in html
    for text in ("Rebirth", "Écosse", "Irlande", "Reterra", "Revive", "Call of the Abyss"):
        assert text in html


def test_security_headers(client):
    headers = client.get("/").headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"


def test_pages_make_no_external_requests(client):
    """Nothing the home page loads or links to leaves the app: every src, href, action and CSS url()
    is a path of its own. (The page does show its own address as text, for another phone.)"""
    html = client.get("/").get_data(as_text=True)
    targets = re.findall(r'\b(?:src|href|action|xlink:href)="([^"]*)"', html)
    targets += re.findall(r"url\(([^)]*)\)", html)
    assert targets, "the page loads its stylesheet and scripts"
    outside = [t for t in targets if "//" in t or re.match(r"[a-z][a-z0-9+.-]*:", t, re.I)]
    assert outside == []


def test_404_page_in_french_in_the_app_look(client):
    page = client.get("/nulle-part")
    assert page.status_code == 404
    html = page.get_data(as_text=True)
    assert "Page introuvable" in html and re.search(r'href="/static/css/app.css\?v=[0-9a-f]{12}"', html)


def test_413_page(tmp_path):
    from flask import request

    from app_helpers import make_app

    app = make_app(tmp_path, MAX_CONTENT_LENGTH=10)

    @app.post("/upload")
    def upload():
        return str(len(request.get_data()))

    page = app.test_client().post("/upload", data="x" * 100, content_type="text/plain")
    assert page.status_code == 413
    assert "Trop volumineux" in page.get_data(as_text=True)


def test_500_page_hides_the_error(tmp_path, monkeypatch):
    from app_helpers import make_app

    app = make_app(tmp_path)

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret detail")

    page = app.test_client().get("/boom")
    assert page.status_code == 500
    html = page.get_data(as_text=True)
    assert "Erreur interne" in html and "secret detail" not in html


def test_422_page_lists_problems(app):
    from companion.web.errors import error_response

    with app.test_request_context("/"):
        body, status = error_response(422, problems=[{"path": "players[0].name", "message": "<b>x</b>"}])
    assert status == 422
    assert "players[0].name" in body and "&lt;b&gt;x&lt;/b&gt;" in body  # escaped


def test_csrf_protects_forms(tmp_path):
    from flask_wtf import FlaskForm
    from wtforms import StringField

    from app_helpers import make_app

    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)

    class NameForm(FlaskForm):
        name = StringField()

    @app.post("/form")
    def form():
        return "ok" if NameForm().validate_on_submit() else ("invalid", 400)

    page = app.test_client().post("/form", data={"name": "x"})
    assert page.status_code == 400
    assert "expiré" in page.get_data(as_text=True) or page.get_data(as_text=True) == "invalid"


def test_forms_work_over_https_with_csrf(tmp_path):
    """Over HTTPS Flask-WTF also checks the Referer: the referrer policy must let it through."""
    from flask_wtf import FlaskForm

    from app_helpers import make_app

    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)

    @app.route("/form", methods=["GET", "POST"])
    def form():
        f = FlaskForm()
        return "ok" if f.validate_on_submit() else f.csrf_token.current_token

    client = app.test_client()
    base = "https://table.example"
    token = client.get("/form", base_url=base).get_data(as_text=True)
    policy = client.get("/form", base_url=base).headers["Referrer-Policy"]
    assert policy in ("same-origin", "strict-origin", "strict-origin-when-cross-origin")
    # A browser under that policy sends the page's own URL as Referer to the same origin.
    res = client.post("/form", base_url=base, data={"csrf_token": token},
                      headers={"Referer": f"{base}/form"})
    assert res.get_data(as_text=True) == "ok"


def test_proxy_headers_trusted_only_when_configured(tmp_path, monkeypatch):
    from flask import request

    from app_helpers import make_app

    for trusted, scheme in (("", "http"), ("1", "https")):
        monkeypatch.setenv("TRUSTED_PROXIES", trusted)
        app = make_app(tmp_path)

        @app.get("/scheme")
        def scheme_view():
            return request.scheme

        res = app.test_client().get("/scheme", headers={"X-Forwarded-Proto": "https"})
        assert res.get_data(as_text=True) == scheme


def test_static_css_is_served(client):
    assert client.get("/static/css/app.css").status_code == 200


def test_text_responses_are_gzipped_for_a_bad_signal(client):
    import gzip

    page = client.get("/", headers={"Accept-Encoding": "gzip, deflate"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page.headers["Vary"]
    assert "Rebirth" in gzip.decompress(page.data).decode()
    css = client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip"})
    assert css.headers["Content-Encoding"] == "gzip" and b"--accent" in gzip.decompress(css.data)
    plain = client.get("/")
    assert "Content-Encoding" not in plain.headers and "Rebirth" in plain.get_data(as_text=True)
    pad = client.get("/sheets/revive/base.pdf", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in pad.headers and pad.data.startswith(b"%PDF")
