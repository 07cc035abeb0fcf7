"""Revive's great locations offer two rows from the start (issue 32, docs/rulings.md "Two
great-location rows from the start"): on a phone (headless Chromium, 390×844) a player with two
great locations types both without « Ajouter un grand emplacement », a player with one keeps one,
and removing a row never leaves the list with fewer than two."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_helpers import new_game, saved, show_player, stored_document

pytestmark = pytest.mark.browser

NAMES = ["Maëlle", "Yanis", "Inès", "Jules"]


def rows(page, seat: int):
    return page.locator(f'#f-players-{seat}-great_locations input[name^="players-{seat}-great_locations-"]')


def total(page, seat: int):
    return page.locator(f'.steps-list [data-seat-total="{seat}"]')


def test_two_great_locations_are_typed_without_adding_a_row(phone, live_server):
    url = new_game(phone, "revive", "base", NAMES)
    show_player(phone, 0)
    for seat in range(4):  # every player's list: two rows, blank
        expect(rows(phone, seat)).to_have_count(2)
    first, second = (phone.locator(f'[name="players-0-great_locations-{j}"]') for j in (0, 1))
    expect(second).to_be_visible()
    first.tap()
    phone.keyboard.type("5")  # 1 to 30: 5 cannot grow, the cursor goes on to the second row
    expect(second).to_be_focused()
    phone.keyboard.type("3")
    saved(phone)
    expect(total(phone, 0)).to_have_text("8")
    show_player(phone, 1)
    phone.locator('[name="players-1-great_locations-0"]').tap()
    phone.keyboard.type("7")
    saved(phone)
    expect(total(phone, 1)).to_have_text("7")
    doc = stored_document(live_server, url)
    assert doc["players"][0]["great_locations"] == [5, 3]
    assert doc["players"][1]["great_locations"] == [7]  # the blank second row is not stored
    assert "great_locations" not in doc["players"][2]

    # reopened: the stored rows and one blank row, never fewer than two
    phone.reload()
    show_player(phone, 0)
    expect(rows(phone, 0)).to_have_count(3)
    expect(rows(phone, 1)).to_have_count(2)
    expect(rows(phone, 2)).to_have_count(2)
    expect(phone.locator('[name="players-0-great_locations-1"]')).to_have_value("3")

    # a row removed from two: the list still offers two, the values below moved up
    show_player(phone, 1)
    phone.locator('#f-players-1-great_locations [data-row]').first.locator("[data-remove-row]").tap()
    expect(rows(phone, 1)).to_have_count(2)
    expect(phone.locator('[name="players-1-great_locations-0"]')).to_have_value("")
    expect(phone.locator('[name="players-1-great_locations-1"]')).to_have_value("")
    saved(phone)
    expect(total(phone, 1)).to_have_text("0")
    assert "great_locations" not in stored_document(live_server, url)["players"][1]
    show_player(phone, 0)
    phone.locator('#f-players-0-great_locations [data-row]').first.locator("[data-remove-row]").tap()
    expect(rows(phone, 0)).to_have_count(2)
    expect(phone.locator('[name="players-0-great_locations-0"]')).to_have_value("3")
    saved(phone)
    expect(total(phone, 0)).to_have_text("3")
    # a third great location: « Ajouter » as before
    phone.locator('#f-players-0-great_locations button[name="add_row"]').tap()
    expect(rows(phone, 0)).to_have_count(3)
    expect(phone.locator('[name="players-0-great_locations-2"]')).to_be_focused()

    # the results show the sum of the stored rows
    phone.locator('[name="players-0-great_locations-1"]').tap()
    phone.keyboard.type("5")
    saved(phone)
    expect(total(phone, 0)).to_have_text("8")
    phone.get_by_role("button", name="Voir les résultats").click()
    phone.wait_for_url(re.compile(r"/resultats$"))
    line = phone.locator("tr[data-key=great_locations]")
    assert line.locator("td").all_inner_texts()[0] == "8"
    line.locator("summary").tap()
    expect(phone.locator("tr[data-key=great_locations] + tr.detail-row")).to_contain_text("3 + 5 = 8")
