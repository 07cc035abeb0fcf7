"""A restore's progress page in the browser (issue 32): with JavaScript it asks again in the
background and changes only its status (a timed reload is what axe-core's meta-refresh rule, WCAG
2.2.1, refuses: the page is not reloaded under the player), then, once the restore is over, shows
"Mes parties" with what was added, said once."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.outputs import restore_jobs

pytestmark = pytest.mark.browser

DEVICE = "restore-progress-device-0001"  # a device id as the app issues them (20+ characters)
JOB = "ab" * 16


def step(app, **state) -> None:
    """The job's progress file, as the restore's thread writes it."""
    restore_jobs.folder(app).mkdir(parents=True, exist_ok=True)
    restore_jobs._write(JOB, {"device": DEVICE, "language": "fr", "checked": 0, "total": 12, **state}, app)


def test_the_progress_changes_in_place_then_my_games_say_what_was_added(phone, live_server):
    app = live_server.app
    phone.context.add_cookies([{"name": "companion_device", "value": DEVICE, "url": live_server.url}])
    step(app, state="checking", checked=3)
    waited = app.config["RESTORE_WAIT_SECONDS"]
    app.config["RESTORE_WAIT_SECONDS"] = 0.2  # each ask answers at once: the page's cadence is its own
    try:
        phone.goto(f"{phone.base_url}/parties/importer/{JOB}")
        status = phone.locator("[data-progress]")
        expect(status).to_contain_text("Contrôle des parties : 3 sur 12.")
        assert phone.locator('meta[http-equiv="refresh"]').count() == 0  # in <noscript>: not a timed reload
        phone.evaluate("window.stillThisPage = true")
        step(app, state="checking", checked=9)
        expect(status).to_contain_text("Contrôle des parties : 9 sur 12.")
        step(app, state="writing", checked=12)
        expect(status).to_contain_text("Enregistrement des 12 parties")
        assert phone.evaluate("window.stillThisPage === true")  # the same page, its status changed
        step(app, state="done", added=12, present=0)
        phone.wait_for_url(f"{live_server.url}/parties")
        expect(phone.locator("main")).to_contain_text("12 parties restaurées.")
        assert phone.locator("main").inner_text().count("12 parties restaurées.") == 1
    finally:
        app.config["RESTORE_WAIT_SECONDS"] = waited
