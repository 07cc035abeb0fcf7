"""The same pages on a desktop screen (1280×800): readable, one column centred, no sideways scroll."""

from __future__ import annotations

import re

import pytest

from browser_helpers import CEILING, screenshot
from document_helpers import load_example

pytestmark = pytest.mark.browser


@pytest.fixture
def desktop(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(CEILING)
    yield page
    context.close()


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    # The reading column stays narrow enough to read on a wide screen.
    assert page.evaluate("document.querySelector('main').getBoundingClientRect().width") <= 900


def test_pages_on_a_desktop(desktop, live_server):
    base = live_server.url
    desktop.goto(base + "/")
    no_sideways_scroll(desktop)
    desktop.goto(base + "/nouvelle?game=revive&variant=abyss")
    example = load_example("revive-abyss.json")
    for i, player in enumerate(example["players"]):
        desktop.fill(f"#players-{i}-name", player["name"])
    desktop.get_by_role("button", name="Commencer la saisie").click()
    desktop.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    no_sideways_scroll(desktop)
    edit_url = desktop.url
    desktop.goto(edit_url + "resultats")
    assert desktop.locator("h1.winner").is_visible()
    no_sideways_scroll(desktop)
    screenshot(desktop, "desktop-results")
    desktop.goto(base + "/parties")
    no_sideways_scroll(desktop)
    pad = desktop.request.get(base + "/sheets/rebirth/scotland.pdf")
    assert pad.ok and pad.headers["content-type"] == "application/pdf"
