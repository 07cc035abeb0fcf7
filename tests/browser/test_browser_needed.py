"""What would I have needed? (issue 31) on a phone: headless Chromium at 390×844 opens the results of a
stored game and its shared link; each player who did not win has their line, in the page's language,
and the page keeps the phone layout (a long line wraps, nothing scrolls sideways)."""

from __future__ import annotations

import pytest
from played import store_games
from playwright.sync_api import expect

from browser_helpers import check_layout, screenshot
from document_helpers import load_example

pytestmark = pytest.mark.browser


def test_the_lines_show_on_the_results_and_the_shared_page(phone, live_server):
    page = phone
    doc = load_example("rebirth-scotland.json")
    doc["players"][1]["name"] = "Yanis-Alexandre de la Tour d'Auvergne"  # a long name: the line wraps
    doc["cities"][0]["tiles"][1]["player"] = doc["edinburgh"] = doc["players"][1]["name"]
    record = store_games(live_server.app, "needed-phone", [doc])[0]
    page.context.add_cookies([{"name": "companion_device", "value": "needed-phone", "url": live_server.url}])
    for path in (f"/g/{record.edit_token}/resultats", f"/r/{record.view_token}/"):
        page.goto(page.base_url + path)
        box = page.locator(".needed")
        expect(box.get_by_role("heading")).to_have_text("Ce qu'il aurait fallu pour gagner")
        expect(box.locator("p")).to_have_text([
            "Yanis-Alexandre de la Tour d'Auvergne : 1 château de plus, ou le château de Stirling, "
            "ou 1 don de la cathédrale de plus",
            "Inès : 2 châteaux de plus (victoire partagée)",
        ])
        check_layout(page)
    screenshot(page, "needed-shared")
    page.goto(page.base_url + f"/r/{record.view_token}/?lang=en")
    expect(page.locator(".needed p").last).to_have_text("Inès: 2 more castles (shared victory)")
    check_layout(page)
