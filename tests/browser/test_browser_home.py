"""The home page on a phone: headless Chromium at 390×844, as a player opens it."""

from __future__ import annotations

import pytest

from browser_helpers import check_layout, screenshot

pytestmark = pytest.mark.browser


def test_home_page_on_a_phone(phone):
    phone.goto(phone.base_url + "/")
    assert phone.locator("h1").inner_text().startswith("Qui a gagné")
    for game in ("Rebirth", "Reterra", "Revive"):
        assert phone.get_by_role("heading", name=game).is_visible()
    # One column, nothing wider than the screen, every link and button a comfortable tap target.
    check_layout(phone)
    size = phone.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 16
    screenshot(phone, "home")
