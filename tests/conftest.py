"""Fixtures: an app on a temporary database, its client and CLI runner, and a live
server with headless Chromium at a phone viewport for the browser tests."""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest
from hypothesis import HealthCheck, settings

from companion import create_app
from companion.extensions import db

# Test files are in folders by layer, their basenames unique across folders: a test that reuses
# another folder's (`from test_pdf import read`) finds it by that name.
for _folder in sorted(Path(__file__).resolve().parent.iterdir()):
    if _folder.is_dir() and any(_folder.glob("test_*.py")) and str(_folder) not in sys.path:
        sys.path.append(str(_folder))

settings.register_profile(
    "companion", deadline=None, max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "150")),
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
# How long a browser action or check may wait at most: a ceiling, not a budget. Tests wait on the
# page's own signals (the save state, `data-save-queue`, a navigation), which come as soon as the work
# is done; on a machine busy with other work (CI's shared runners, two cores and seven sessions)
# that may take far longer than on an idle one, and a check that waits longer still fails when the
# page is wrong.
CEILING = 60_000


def load_example(name: str) -> dict:
    """A hand-checked example document (docs/contract.md's examples, kept in tests/fixtures)."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def make_app(tmp_path: Path, **overrides):
    os.environ["COMPANION_INSTANCE"] = str(tmp_path / "instance")
    config = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        "WTF_CSRF_ENABLED": False,
        # The suite sends hundreds of requests from one address: tests/web/test_rate_limits.py turns
        # the limits on for itself.
        "RATELIMIT_ENABLED": False,
    }
    config.update(overrides)
    app = create_app(config)
    with app.app_context():
        db.create_all()
    return app


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


def screenshot(page, name: str) -> Path:
    """Save a screenshot under test-artifacts/ (git-ignored) for a reviewer to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


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


@pytest.fixture
def dice_screens(dice, app, monkeypatch):
    """Step 2 for "dice": its screens, `tests/plugins/dice/forms.py`, found where the app looks for a
    game's (`companion.forms.dice`), and its page, `tests/plugins/dice/templates/play/dice.html`."""
    import sys

    import jinja2
    from plugins.dice import forms as dice_forms

    from companion import forms

    monkeypatch.setitem(sys.modules, "companion.forms.dice", dice_forms)
    templates = str(Path(__file__).parent / "plugins" / "dice" / "templates")
    monkeypatch.setattr(app.jinja_env, "loader", jinja2.ChoiceLoader([app.jinja_env.loader,
                                                                      jinja2.FileSystemLoader(templates)]))
    forms.end_state_class.cache_clear()
    yield forms.screens("dice")
    forms.end_state_class.cache_clear()


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
