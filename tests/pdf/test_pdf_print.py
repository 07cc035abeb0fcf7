"""The results page printed straight from the browser (static/css/print.css, media="print"):
no top bar, footer, navigation, buttons or forms on paper; black on white; tables across the page."""

from __future__ import annotations

import pytest

from browser_helpers import screenshot
from companion.extensions import db
from companion.storage import store
from document_helpers import load_example

pytestmark = pytest.mark.browser

HIDDEN = ".topbar, .foot, nav, button, .button, form, .no-print"


def _stored_game(app) -> str:
    """A scored game saved through the store, as the play pages would; its public results URL."""
    doc = load_example("rebirth-scotland.json")
    with app.app_context():
        record = store.create(doc["game"], doc["variant"], [p["name"] for p in doc["players"]],
                              ["#c0392b", "#2471a3", "#229954"])
        db.session.commit()
        store.save(record, doc, record.version, status="scored")
        return f"/r/{record.view_token}/"


def test_results_page_prints_without_chrome(phone, live_server):
    phone.goto(live_server.url + _stored_game(live_server.app))
    assert phone.locator("table").count() >= 1
    phone.emulate_media(media="print", color_scheme="dark")
    hidden_visible = phone.evaluate(
        """sel => [...document.querySelectorAll(sel)]
                 .filter(e => e.getClientRects().length && getComputedStyle(e).display !== 'none')
                 .map(e => e.outerHTML.slice(0, 80))""", HIDDEN)
    assert hidden_visible == []
    colours = phone.evaluate("""() => {
        const b = getComputedStyle(document.body), t = getComputedStyle(document.querySelector('td'));
        return [b.backgroundColor, b.color, t.color, t.backgroundColor]; }""")
    assert colours[0] in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    assert colours[1] == colours[2] == "rgb(0, 0, 0)"
    # Players' colours stay on paper (a colour printer shows them).
    fills = phone.evaluate(
        "() => [...document.querySelectorAll('circle')].map(c => getComputedStyle(c).fill)")
    assert "rgb(192, 57, 43)" in fills
    # What a <details> hides on screen is printed: paper cannot be tapped.
    hidden_details = phone.evaluate("""() => [...document.querySelectorAll('details > :not(summary)')]
        .filter(e => !e.checkVisibility()).length""")
    assert hidden_details == 0
    widths = phone.evaluate("""() => [document.querySelector('table').getBoundingClientRect().width,
                                      document.documentElement.clientWidth]""")
    assert widths[0] >= 0.95 * widths[1]
    screenshot(phone, "results-print")
