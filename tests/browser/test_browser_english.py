"""The app in English on a phone (issue 13): headless Chromium at 390×844 whose language is English,
as a visitor from abroad opens it. Every page shows no French word (tests/i18n_words.py), keeps the
phone layout, runs its scripts in English, and the FR | EN switch takes the visitor back to French."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from i18n_words import french_words
from played import store_games
from playwright.sync_api import expect

from browser_helpers import check_layout, screenshot, show_player
from document_helpers import load_example

pytestmark = pytest.mark.browser

NAMED = ("Maëlle", "Yanis", "Inès", "Terrain de sport")
VARIANTS = [("rebirth", "scotland"), ("rebirth", "ireland"), ("reterra", "base"), ("revive", "base"),
            ("revive", "abyss")]


def english_page(page, path: str, name: str) -> str:
    page.goto(page.base_url + path)
    assert page.locator("html").get_attribute("lang") == "en", path
    text = page.locator("body").inner_text()
    assert not french_words(text, NAMED), (path, french_words(text, NAMED))
    check_layout(page)
    screenshot(page, f"en-{name}")
    return text


def test_home_new_game_and_edit_pages_in_english(english_phone):
    page = english_phone
    text = english_page(page, "/", "home")
    assert "Who won, and why?" in text and "New game" in text
    for game, variant in VARIANTS:
        english_page(page, f"/nouvelle?game={game}&variant={variant}", f"new-{game}-{variant}")
        page.fill("#players-0-name", "Maëlle")
        page.fill("#players-1-name", "Yanis")
        page.get_by_role("button", name="Start entering").click()
        page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
        path = urlparse(page.url).path
        english_page(page, path, f"edit-{game}-{variant}")
        # the scripts speak English too: a stepper's buttons and, after a change, the save state
        expect(page.locator("button[aria-label='Plus one']").first).to_be_attached()
        show_player(page, 0)
        page.fill('[name="players-0-%s"]' % ("segments" if game == "reterra" else "track"), "3")
        expect(page.locator("#save-state")).to_have_text("Saved \u2713")
        if game == "rebirth":
            english_page(page, path + "outils/ville", f"city-{variant}")
            english_page(page, path + "outils/chateau", f"castle-{variant}")
    english_page(page, "/parties", "history")
    english_page(page, "/nouvelle", "pick")


@pytest.mark.parametrize("name", ["rebirth-scotland.json", "reterra.json", "revive-abyss.json"])
def test_results_share_history_and_statistics_of_an_example_in_english(english_phone, live_server, name):
    page = english_phone
    device = "english-phone-" + name.split(".")[0]
    record = store_games(live_server.app, device, [load_example(name)])[0]
    page.context.add_cookies([{"name": "companion_device", "value": device, "url": live_server.url}])
    results = english_page(page, f"/g/{record.edit_token}/resultats", f"results-{name}")
    assert "Score sheet" in results and "Play again with the same players" in results
    english_page(page, f"/r/{record.view_token}/", f"share-{name}")
    history = english_page(page, "/parties", f"history-{name}")
    assert "Winner" in history or "Shared victory" in history
    stats = english_page(page, "/statistiques", f"statistics-{name}")
    assert "Statistics" in stats
    english_page(page, "/parties/importer", "import")
    english_page(page, "/g/no-such-game/", "error-404")


def test_the_switch_goes_back_to_french_and_stays(english_phone):
    page = english_phone
    page.goto(page.base_url + "/parties")
    page.get_by_role("link", name="FR", exact=True).click()
    # the same address again, in French: wait for the French page, not just the address
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", name="Mes parties")).to_be_visible()
    page.wait_for_url(re.compile(r"/parties$"))
    page.goto(page.base_url + "/")  # remembered: the English browser now gets French
    assert page.locator("h1").inner_text().startswith("Qui a gagné")
    page.get_by_role("link", name="EN", exact=True).click()
    expect(page.locator("h1")).to_have_text("Who won, and why?")
    check_layout(page)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_header_is_one_row_on_a_phone_in_both_languages(phone, language):
    """Menu and FR | EN share one row at 390 px: a second row would make every page (and every step
    of the edit page, issue 11's 3-screen limit) a row taller."""
    page = phone
    page.goto(page.base_url + f"/parties?lang={language}")
    links = page.locator(".topbar a:visible")  # on a phone the switch shows the other language only
    tops = {round(links.nth(i).bounding_box()["y"]) for i in range(links.count())}
    assert len(tops) == 1, tops
    menu = page.locator(".topbar nav:not(.lang-switch) a:visible").all_inner_texts()
    assert menu == (["Nouvelle partie", "Mes parties", "Statistiques"] if language == "fr"
                    else ["New game", "My games", "Statistics"])
    assert page.locator(".lang-switch a:visible").all_inner_texts() == ["EN" if language == "fr" else "FR"]
    assert page.locator(".topbar").bounding_box()["height"] < 70
    check_layout(page)


def test_the_reterra_drawing_tools_fit_a_phone_in_english(english_phone):
    """QA (issue 24): the English drawing step was 396 px wide at 390 px, "Inhabitant" cut off."""
    page = english_phone
    page.goto(page.base_url + "/nouvelle?game=reterra&variant=base")
    page.fill("#players-0-name", "Maëlle")
    page.fill("#players-1-name", "Yanis")
    page.get_by_role("button", name="Start entering").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    show_player(page, 0)
    page.locator('input[type=radio][value="grid"]').first.check()
    tools = page.locator("#f-players-0-grid .tool")
    expect(tools.first).to_be_visible()
    cut = page.evaluate("""() => [...document.querySelectorAll('#f-players-0-grid .tool')]
        .filter(b => b.scrollWidth > b.clientWidth || b.getBoundingClientRect().right > 390)
        .map(b => b.textContent.trim())""")
    assert cut == []
    assert "Inhabitant" in page.locator("#f-players-0-grid .board-tools").inner_text()
    check_layout(page)
    screenshot(page, "en-reterra-drawing-tools")
