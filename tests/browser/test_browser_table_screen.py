"""Issue 31, "the table's screen", in a browser: a laptop's screen (1280×720) follows a phone's saves
and steps without a reload, then shows the winner; its QR code scans as the read-only screen itself;
the same page fits a 390×844 phone."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from browser_helpers import check_layout, new_game, saved, screenshot, show_player
from qrdecode import decode

pytestmark = pytest.mark.browser

SOON = 15_000  # ms: a poll every 3 s, on a machine shared with the app and the phone


@pytest.fixture
def laptop(browser, live_server):
    """The table's laptop (or a TV): a wide window, its own cookies; every request on the app's origin,
    no script error, nothing the CSP blocks."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    origin = urlparse(live_server.url).netloc
    outside: list[str] = []

    def guard(route):
        if urlparse(route.request.url).netloc != origin and not route.request.url.startswith("data:"):
            outside.append(route.request.url)
            return route.abort()
        return route.continue_()

    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(10_000)
    broken: list[str] = []
    page.on("pageerror", lambda exc: broken.append(f"JS error: {exc}"))
    page.on("console", lambda msg: broken.append(f"CSP: {msg.text}")
            if "Content Security Policy" in msg.text else None)
    yield page
    context.close()
    assert not outside, f"requests left the app's origin: {outside}"
    assert not broken, f"the page broke: {broken}"


def row(page, seat: int):
    return page.locator(f'#screen-board .screen-row[data-seat="{seat}"]')


def test_a_save_on_a_phone_shows_on_the_screen(phone, laptop, tmp_path):
    edit_url = new_game(phone, "revive", "base", ["Ana", "Bea"])
    edit_token = re.search(r"/g/([\w-]+)/", edit_url).group(1)
    link = phone.get_by_role("link", name="Écran de la table")
    screen_url = phone.base_url + link.get_attribute("href")
    assert re.fullmatch(re.escape(phone.base_url) + r"/r/[\w-]+/ecran", screen_url)

    laptop.goto(screen_url)
    expect(laptop.locator("h1")).to_have_text("Saisie en cours")
    expect(laptop.locator("[data-live]")).to_be_visible()
    # the phone shows the table's step (Revive's first), then Ana's: the screen says so, without a reload
    expect(laptop.locator(".screen-table-step")).to_have_text("Toute la table : en saisie", timeout=SOON)
    show_player(phone, 0)
    expect(row(laptop, 0).locator(".screen-where")).to_have_text("en saisie", timeout=SOON)
    expect(laptop.locator(".screen-table-step")).to_have_count(0)

    # a save on the phone: the screen's row follows within a few seconds
    phone.fill('[name="players-0-track"]', "12")
    saved(phone)
    expect(row(laptop, 0)).to_contain_text("12", timeout=SOON)
    expect(laptop.locator("#screen-board .screen-row").first).to_contain_text("Ana")
    expect(laptop.locator("#screen-board .screen-row.first")).to_have_count(1)

    # the phone moves on to Bea: the step moves on the screen
    show_player(phone, 1)
    expect(row(laptop, 1).locator(".screen-where")).to_have_text("en saisie", timeout=SOON)
    expect(row(laptop, 0).locator(".screen-where")).to_have_count(0)
    phone.fill('[name="players-1-track"]', "15")
    saved(phone)
    expect(row(laptop, 1).locator("[data-total]")).to_have_text("15", timeout=SOON)
    expect(laptop.locator("#screen-board .screen-row").first).to_contain_text("Bea")
    screenshot(laptop, "table-screen-draft")

    # the results: the winner on the screen, and the phone is no longer on a step
    phone.get_by_role("button", name="Voir les résultats").click()
    phone.wait_for_url(re.compile(r"/resultats$"))
    expect(laptop.locator("h1")).to_have_text("Bea gagne", timeout=SOON)
    expect(laptop.locator("#screen-board .screen-where")).to_have_count(0, timeout=SOON)
    screenshot(laptop, "table-screen-scored")

    # read-only: the entry link is nowhere in the page, and its QR code scans as the screen itself
    assert edit_token not in laptop.content()
    shot = tmp_path / "screen.png"
    laptop.locator(".screen-join svg.qr").screenshot(path=str(shot))
    assert decode(shot) == [screen_url]


def test_the_screen_fits_a_phone(phone):
    new_game(phone, "revive", "base", ["Ana", "Bea", "Camille", "Dominique"])
    phone.goto(phone.base_url + phone.get_by_role("link", name="Écran de la table").get_attribute("href"))
    expect(phone.locator("h1")).to_have_text("Saisie en cours")
    expect(phone.locator("#screen-board .screen-row")).to_have_count(4)
    check_layout(phone)
    size = phone.locator(".screen-join svg.qr").bounding_box()
    assert 200 <= size["width"] <= 390, "large enough to scan from across a table"
    screenshot(phone, "table-screen-phone")
