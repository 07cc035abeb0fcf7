"""Fixtures: an app on a temporary database, its client and CLI runner, and a live
server with headless Chromium at a phone viewport for the browser tests."""

from __future__ import annotations

import logging
import os
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest
from hypothesis import HealthCheck, settings

from app_helpers import make_app
from browser_helpers import CEILING

# Test files are in folders by layer, their basenames unique across folders: a test that reuses
# another folder's (`from test_pdf import read`) finds it by that name.
for _folder in sorted(Path(__file__).resolve().parent.iterdir()):
    if _folder.is_dir() and any(_folder.glob("test_*.py")) and str(_folder) not in sys.path:
        sys.path.append(str(_folder))

settings.register_profile(
    "companion", deadline=None, max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "150")),
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    yield make_app(tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


# ------------------------------------------------------------------ browser


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The real app (CSRF on) served on a free loopback port for the whole session."""
    from werkzeug.serving import make_server

    tmp = tmp_path_factory.mktemp("live")
    app = make_app(tmp, WTF_CSRF_ENABLED=True, TESTING=False)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.url = f"http://127.0.0.1:{server.server_port}"
    server.app = app
    yield server
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    from playwright.sync_api import expect, sync_playwright

    # Assertions wait as long as actions (CEILING, not Playwright's 5 s): see CEILING.
    expect.set_options(timeout=CEILING)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


@pytest.fixture
def phone(browser, live_server):
    """A fresh phone (390×844, touch) whose every request must stay on the app's origin."""
    yield from _phone(browser, live_server, "fr-FR")


@pytest.fixture
def english_phone(browser, live_server):
    """The same phone set to English (Accept-Language en-GB): the app answers in English."""
    yield from _phone(browser, live_server, "en-GB")


@pytest.fixture
def phone_without_js(browser, live_server):
    """The same phone with JavaScript off: every page must work as plain forms."""
    yield from _phone(browser, live_server, "fr-FR", javascript=False)


def _phone(browser, live_server, locale: str, javascript: bool = True):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2, locale=locale,
                                  java_script_enabled=javascript)
    origin = urlparse(live_server.url).netloc
    outside: list[str] = []

    def guard(route):
        url = route.request.url
        if urlparse(url).netloc != origin and not url.startswith(("data:", "blob:")):
            outside.append(url)
            return route.abort()
        return route.continue_()

    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(CEILING)
    page.base_url = live_server.url
    page.outside_requests = outside
    # What a player would never see but must never happen: a script crashing, or the
    # Content-Security-Policy blocking something a page relies on.
    broken: list[str] = []
    page.on("pageerror", lambda exc: broken.append(f"JS error: {exc}"))
    page.on("console", lambda msg: broken.append(f"CSP: {msg.text}")
            if "Content Security Policy" in msg.text else None)
    yield page
    context.close()
    assert not outside, f"requests left the app's origin: {outside}"
    assert not broken, f"the page broke: {broken}"


# ------------------------------------------------------------------ a stand-in game


@pytest.fixture
def dice(monkeypatch):
    """Register the stand-in game "dice" (2-4 players) for the duration of a test, by step 1 of
    "Adding a fourth game" (docs/architecture.md): its rules module, `tests/plugins/dice/rules.py`
    (a `GAME` with its `score`, and `HOOKS`), put in the registries `_MODULES` fills."""
    from plugins.dice import rules

    from companion import games

    monkeypatch.setitem(games.GAMES, "dice", rules.GAME)
    monkeypatch.setitem(games.HOOKS, "dice", rules.HOOKS)
    return rules.GAME


# ------------------------------------------------------------------ PostgreSQL


@pytest.fixture(scope="session")
def postgres_url():
    """A throw-away PostgreSQL server on a Unix socket (Debian's binaries; `make test` installs them),
    so the same code is proven on the database a club moves to."""
    from bench import servers

    if servers.initdb() is None:
        pytest.fail("PostgreSQL server binaries are missing: `make test` installs Debian's postgresql")
    with servers.postgresql(5499, "-c fsync=off") as url:
        yield url


@pytest.fixture
def weasy_log(caplog, monkeypatch):
    """WeasyPrint's warnings and errors, with its logger surely enabled and propagating (Alembic's
    logging setup, run by other tests, may have disabled existing loggers)."""
    logger = logging.getLogger("weasyprint")
    monkeypatch.setattr(logger, "disabled", False)
    monkeypatch.setattr(logger, "propagate", True)
    caplog.set_level(logging.WARNING, logger="weasyprint")
    return caplog
