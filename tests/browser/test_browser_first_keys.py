"""The keys of a game's start and end (issue 32, Revive's taps), on a phone (headless Chromium, 390×844):
the new-game page opens with the cursor in the first name, "suivant" goes from name to name and on
the last seat starts the game (its key says "go"; the colours' names stay a tap away); a blank game
opened for the first time on a phone has the cursor in its first field, a game already started or a
page reopened does not; the last field of the last step says "go" and shows the results. With the
"Auto" switch off as on, and the new-game page without JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_helpers import new_game, saved, stored_document

pytestmark = pytest.mark.browser

NAMES = ["Maëlle", "Yanis", "Inès", "Jules"]
GAME = re.compile(r"/g/[\w-]+/$")


def active(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.name || ''")


@pytest.mark.parametrize("auto", ["on", "off"])
def test_a_four_player_game_started_with_the_keyboard_alone(phone, live_server, auto):
    if auto == "off":  # the edit page's "Auto" switch turned off on this phone: nothing here depends on it
        phone.add_init_script("localStorage.setItem('companion-auto-next', 'off')")
    phone.goto(f"{phone.base_url}/nouvelle?game=revive&variant=base")
    first = phone.locator("#players-0-name")
    expect(first).to_be_focused()  # no tap to put the cursor in the first name
    expect(phone.locator("#players-3-name")).to_have_attribute("enterkeyhint", "go")
    expect(phone.locator("#players-2-name")).to_have_attribute("enterkeyhint", "next")
    for i, name in enumerate(NAMES):
        if i:
            phone.keyboard.press("Enter")
            expect(phone.locator(f"#players-{i}-name")).to_be_focused()
        phone.keyboard.type(name)
    phone.keyboard.press("Enter")  # the last seat's "go": the game starts, the colours' names left blank
    phone.wait_for_url(GAME)
    url = phone.url
    # a game nobody has typed in, opened here for the first time: the cursor in its first field
    expect(phone.locator('[name="card-0-points"]')).to_be_focused()
    phone.keyboard.type("1")
    phone.keyboard.press("Enter")
    expect(phone.locator('[name="card-1-points"]')).to_be_focused()
    phone.keyboard.type("2")
    if auto == "on":  # 2 cannot grow in 0 to 10: the cursor moves on by itself
        expect(phone.locator('[name="card-2-points"]')).to_be_focused()
    else:
        phone.keyboard.press("Enter")
        expect(phone.locator('[name="card-2-points"]')).to_be_focused()
    phone.keyboard.type("1")
    saved(phone)
    doc = stored_document(live_server, url)
    assert [p["name"] for p in doc["players"]] == NAMES
    assert [line["points"] for line in doc["players"][3]["artifact_card"]] == [1, 2, 1]
    # reopened (a refresh): the page opens as it was, no field takes the cursor
    phone.reload()
    expect(phone.locator('[name="card-0-points"]')).to_have_value("1")
    expect(phone.locator("#table")).to_be_visible()
    assert active(phone) == ""


def test_the_colours_names_a_tap_away_and_a_blank_seat_still_starts(phone, live_server):
    phone.goto(f"{phone.base_url}/nouvelle?game=revive&variant=base")
    expect(phone.locator("#players-0-name")).to_be_focused()
    phone.keyboard.type("Maëlle")
    phone.keyboard.press("Enter")
    phone.keyboard.type("Yanis")
    phone.keyboard.press("Enter")
    phone.keyboard.type("Inès")
    phone.keyboard.press("Enter")  # three players: "suivant" goes on to the fourth seat, blank
    expect(phone.locator("#players-3-name")).to_be_focused()
    assert GAME.search(phone.url) is None
    phone.locator("#colour_names-0").tap()  # the colours' names: a tap on the first one
    phone.keyboard.type("jaune")
    phone.keyboard.press("Enter")
    expect(phone.locator("#colour_names-1")).to_be_focused()
    phone.keyboard.type("bleu")
    phone.keyboard.press("Enter")
    phone.keyboard.press("Enter")  # on the blank third one: the game starts
    phone.wait_for_url(GAME)
    doc = stored_document(live_server, phone.url)
    assert [p["name"] for p in doc["players"]] == ["Maëlle", "Yanis", "Inès"]
    expect(phone.locator("#table")).to_contain_text("jaune")
    expect(phone.locator("#table")).to_contain_text("bleu")


def test_a_refused_start_leaves_the_cursor_alone(phone):
    phone.goto(f"{phone.base_url}/nouvelle?game=revive&variant=base")
    expect(phone.locator("#players-0-name")).to_be_focused()
    phone.keyboard.press("Enter")  # a blank first seat: the main action, refused (no player)
    expect(phone.locator(".flash-error")).to_contain_text("Ajoutez les joueurs")
    # its message is at the top (role=alert): the first name is not focused over it
    assert phone.locator("#players-0-name").get_attribute("autofocus") is None


def test_a_started_game_opened_on_another_phone_takes_no_cursor(phone, browser, live_server):
    from browser_helpers import second_phone

    url = new_game(phone, "revive", "base", NAMES[:2])
    expect(phone.locator('[name="card-0-points"]')).to_be_focused()
    phone.keyboard.type("3")
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        expect(other.locator('[name="card-0-points"]')).to_have_value("3")
        assert active(other) == ""  # something is typed: the page opens as it is, no keyboard
    finally:
        context.close()


def test_the_last_field_says_go_and_shows_the_results(phone, live_server):
    new_game(phone, "revive", "base", NAMES[:2])
    phone.locator('.steps-list a[data-goto="joueur-1"]').tap()
    last_of_first = phone.locator('[name="players-0-machine_progress"]')
    last_of_first.tap()
    expect(last_of_first).to_have_attribute("enterkeyhint", "next")  # "suivant" goes to the next player
    phone.locator('.steps-list a[data-goto="joueur-2"]').tap()
    track = phone.locator('[name="players-1-track"]')
    track.tap()
    expect(track).to_have_attribute("enterkeyhint", "next")
    phone.keyboard.type("40")
    last = phone.locator('[name="players-1-machine_progress"]')
    last.tap()
    expect(last).to_have_attribute("enterkeyhint", "go")
    phone.keyboard.type("12")
    phone.keyboard.press("Enter")  # the keyboard's "go": the results, as the "Résultats" button
    phone.wait_for_url(re.compile(r"/resultats$"))
    expect(phone.locator("tr.totals")).to_be_visible()


def test_without_javascript_the_first_name_has_the_cursor_and_enter_starts(phone_without_js, live_server):
    page = phone_without_js
    page.goto(f"{page.base_url}/nouvelle?game=revive&variant=base")
    expect(page.locator("#players-0-name")).to_be_focused()  # the HTML's autofocus, no script
    for i, name in enumerate(NAMES):
        page.fill(f"#players-{i}-name", name)
    page.press("#players-3-name", "Enter")  # the browser's own submit: the game starts
    page.wait_for_url(GAME)
    doc = stored_document(live_server, page.url)
    assert [p["name"] for p in doc["players"]] == NAMES
    assert active(page) == ""  # no script: the edit page takes no cursor (every step shown)
