"""The home page on a phone: headless Chromium at 390×844, as a player opens it."""

from __future__ import annotations

import pytest

from conftest import screenshot

pytestmark = pytest.mark.browser


def test_home_page_on_a_phone(phone):
    phone.goto(phone.base_url + "/")
    assert phone.locator("h1").inner_text().startswith("Qui a gagné")
    for game in ("Rebirth", "Reterra", "Revive"):
        assert phone.get_by_role("heading", name=game).is_visible()
    # One column, nothing wider than the screen: no horizontal scrolling, nothing to zoom.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # Every link and button is a comfortable tap target.
    small = phone.evaluate("""() => [...document.querySelectorAll('a, button, input, select')]
        .filter(e => e.offsetParent !== null && !e.classList.contains('skip'))
        .map(e => [e.textContent.trim() || e.name, e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)""")
    assert small == [], f"tap targets under 44 px: {small}"
    size = phone.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 16
    screenshot(phone, "home")
