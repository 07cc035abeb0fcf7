"""Every link a phone must open has a QR code beside it that a camera reads (zbarimg on a screenshot
of the page at 390×844) as exactly that link; "Copier" never vanishes, even without a clipboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_helpers import check_layout, fill_revive_player, new_game, saved, screenshot
from qrdecode import decode

pytestmark = pytest.mark.browser


def scanned(page, link_id: str, tmp_path) -> str:
    """What a camera reads from the QR code beside the link `link_id`, as the screen shows it."""
    box = page.locator(f".phone-link:has(#{link_id}) .qr-box svg")
    box.scroll_into_view_if_needed()
    expect(box).to_be_visible()
    size = box.bounding_box()
    assert size["width"] >= 200, "large enough to scan from across a table"
    assert size["width"] <= 390
    shot = tmp_path / f"{link_id}.png"
    page.screenshot(path=str(shot))  # the viewport, as a phone held up to it shows it
    codes = decode(shot)
    assert len(codes) == 1, codes
    return codes[0]


def test_the_home_page_offers_the_app_to_another_phone(phone, tmp_path):
    phone.goto(phone.base_url + "/")
    phone.get_by_text("Ouvrir sur un autre téléphone").click()
    link = phone.locator("#app-url").input_value()
    assert link == phone.base_url + "/"
    assert scanned(phone, "app-url", tmp_path) == link
    check_layout(phone)
    screenshot(phone, "home-other-phone")


def test_the_entry_link_and_the_share_link_scan_as_themselves(phone, tmp_path):
    url = new_game(phone, "revive", "base", ["Ana", "Bea"])
    phone.locator("details.share-edit summary").click()
    assert phone.locator("#edit-url").input_value() == url
    assert scanned(phone, "edit-url", tmp_path) == url
    check_layout(phone)
    fill_revive_player(phone, 0, {"track": 12}, card_each=False)
    fill_revive_player(phone, 1, {"track": 9}, card_each=False)
    saved(phone)
    phone.get_by_role("button", name="Voir les résultats").click()
    phone.wait_for_url(re.compile(r"/resultats$"))
    share = phone.locator("#share-url").input_value()
    assert re.fullmatch(re.escape(phone.base_url) + r"/r/[\w-]+/", share)
    assert scanned(phone, "share-url", tmp_path) == share
    check_layout(phone)
    screenshot(phone, "results-share-qr")


def test_without_a_clipboard_copier_selects_the_link(phone):
    """Over plain http on a room's Wi-Fi a browser gives no clipboard: the button stays and selects
    the link for the phone's own copy menu, and says so."""
    phone.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined});"
                          "document.execCommand = function () { return false; };")
    phone.goto(phone.base_url + "/")
    phone.get_by_text("Ouvrir sur un autre téléphone").click()
    button = phone.locator('[data-copy="app-url"]')
    expect(button).to_have_text("Copier")
    expect(button).to_be_visible()
    button.click()
    expect(button).to_have_text("Sélectionné")
    expect(phone.locator('[data-copy-help="app-url"]')).to_be_visible()
    selected = phone.evaluate("(() => { const i = document.getElementById('app-url');"
                              " return i.value.slice(i.selectionStart, i.selectionEnd); })()")
    assert selected == phone.base_url + "/"


def test_with_a_clipboard_copier_copies(phone):
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=phone.base_url)
    phone.goto(phone.base_url + "/")
    phone.get_by_text("Ouvrir sur un autre téléphone").click()
    button = phone.locator('[data-copy="app-url"]')
    expect(button).to_have_text("Copier")
    button.click()
    expect(button).to_have_text("Copié ✓")
    assert phone.evaluate("navigator.clipboard.readText()") == phone.base_url + "/"
