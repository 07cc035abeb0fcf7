"""Rebirth's cities entered by taps on a 390×844 phone (issue 24, static/js/rebirth.js): "Nouvelle
ville" with its size in one tap, one tap per tile on the city's pad (a button per player and
influence), the placement order filled in from the order of entry and asked for only when a tie in a
complete city needs it (R4). What is stored is the contract's document; two phones adding a tile to
one city keep both; without JS the fields are the same as before."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from bench.bench_taps import ireland_cities, scotland_cities
from browser_helpers import check_layout, new_game, saved, screenshot, second_phone, stored_document

pytestmark = pytest.mark.browser


class Taps:
    """The page and the taps it took."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def tap(self, locator) -> None:
        locator.tap()
        self.count += 1

    def city(self, size: int) -> None:
        self.tap(self.page.locator(f'[data-new-city-size="{size}"]'))

    def tile(self, c: int, player: str, influence: int) -> None:
        self.tap(self.page.locator(f'#f-cities-{c} [data-tile-pad] button[data-player="{player}"]'
                                   f'[data-influence="{influence}"]'))


def order_of(page, c: int, t: int) -> str:
    return page.locator(f'[name="cities-{c}-tiles-{t}-order"]').input_value()


def tile_line(page, c: int, t: int):
    return page.locator(f'[name="cities-{c}-tiles-{t}-player"]').locator("xpath=ancestor::*[@data-row][1]")


@pytest.mark.parametrize("make", [scotland_cities, ireland_cities], ids=["scotland", "ireland"])
def test_the_issues_cities_take_a_tap_each_and_store_the_document(phone, live_server, make):
    """Issue 24's two games: every city one tap, every tile one tap, nothing else; the stored cities
    are the scenario's, the tied city with its placement order (from the order of entry), the others
    without any."""
    doc = make()
    url = new_game(phone, "rebirth", doc["variant"], [p["name"] for p in doc["players"]])
    taps = Taps(phone)
    for c, city in enumerate(doc["cities"]):
        taps.city(city["size"])
        for t in city["tiles"]:
            taps.tile(c, t["player"], t["influence"])
    assert taps.count == len(doc["cities"]) + sum(len(c["tiles"]) for c in doc["cities"])
    first = doc["cities"][0]  # folded into one line saying what it holds
    words = "1 case" if first["size"] == 1 else f"{first['size']} cases"
    expect(phone.locator("#f-cities-0").locator("xpath=..").locator("> .city-summary")).to_have_text(
        f"Ville 1 · {words} · " + ", ".join(f"{t['player']} {t['influence']}" for t in first["tiles"]))
    tied = 2  # the scenario's city whose tie the placement order breaks; folded since: a tap opens it
    phone.locator(f"#f-cities-{tied}").locator("xpath=..").locator("> .city-summary").tap()
    expect(phone.locator(f'#f-cities-{tied} [data-order-note]')).to_be_visible()
    expect(phone.locator(f'[name="cities-{tied}-tiles-0-order"]')).to_be_visible()  # shown, changeable
    check_layout(phone)
    screenshot(phone, f"play-rebirth-cities-{doc['variant']}")
    saved(phone)
    assert stored_document(live_server, url)["cities"] == doc["cities"]


def test_a_reloaded_page_shows_only_the_cities_entered(phone, live_server):
    """QA: after a reload the page's spare blank city (the one "Nouvelle ville" fills) read as a
    folded "Ville 3" under two cities entered: a city nobody entered, on the table's screen."""
    new_game(phone, "rebirth", "scotland", ["Ana", "Ben"])
    taps = Taps(phone)
    taps.city(2)
    taps.tile(0, "Ana", 3)
    taps.tile(0, "Ben", 1)
    taps.city(1)
    taps.tile(1, "Ben", 2)
    saved(phone)
    phone.reload()
    summaries = phone.locator(".city-summary:visible")
    expect(summaries).to_have_count(1)  # the first city folded; the second, the last entered, open
    expect(summaries.first).to_have_text("Ville 1 · 2 cases · Ana 3, Ben 1")
    expect(phone.locator("#f-cities-1")).to_be_visible()
    expect(phone.locator("#f-cities-2")).to_be_hidden()  # the spare one, blank
    taps.city(3)  # "Nouvelle ville" fills the spare one and shows it
    expect(phone.locator("#f-cities-2")).to_be_visible()
    expect(phone.locator('[name="cities-2-size"]')).to_have_value("3")


def test_the_order_is_asked_only_while_a_tie_in_a_complete_city_needs_it(phone, live_server):
    url = new_game(phone, "rebirth", "scotland", ["Maëlle", "Yanis", "Inès", "Jules"])
    taps = Taps(phone)
    taps.city(3)
    taps.tile(0, "Jules", 2)
    taps.tile(0, "Maëlle", 1)
    note = phone.locator("#f-cities-0 [data-order-note]")
    expect(note).to_be_hidden()  # incomplete: no order
    # The tiles in the order they were entered, each on one line: its rank, its player, its influence.
    expect(tile_line(phone, 0, 0).locator("> .tile-tag")).to_have_text(re.compile(r"^\s*1\s*Jules\s*2\s*$"))
    expect(tile_line(phone, 0, 1).locator("> .tile-tag")).to_have_text(re.compile(r"^\s*2\s*Maëlle\s*1\s*$"))
    taps.tile(0, "Yanis", 2)  # complete, Jules 2 and Yanis 2: R4 needs the order
    expect(note).to_be_visible()
    assert [order_of(phone, 0, t) for t in range(3)] == ["1", "2", "3"]
    # The pad is done: the city is full.
    pad = phone.locator("#f-cities-0 [data-tile-pad]")
    expect(pad.locator('button[data-player="Inès"][data-influence="1"]')).to_be_disabled()
    saved(phone)
    city = stored_document(live_server, url)["cities"][0]
    assert [t.get("order") for t in city["tiles"]] == [1, 2, 3]

    # Yanis placed first after all: the table changes the orders beside the tiles (steppers).
    phone.fill('[name="cities-0-tiles-0-order"]', "2")
    phone.fill('[name="cities-0-tiles-1-order"]', "3")
    phone.fill('[name="cities-0-tiles-2-order"]', "1")
    saved(phone)
    city = stored_document(live_server, url)["cities"][0]
    assert [t.get("order") for t in city["tiles"]] == [2, 3, 1]
    phone.get_by_role("button", name="Voir les résultats").click()
    phone.wait_for_url(re.compile(r"/resultats$"))
    phone.locator("tr[data-key=cities] summary").tap()
    detail = phone.locator("tr[data-key=cities] + tr.detail-row").inner_text()
    # Maëlle placed the last tile: clockwise from her, Yanis is nearer than Jules.
    assert "Yanis : ville 3 cases n°1 : 6 (égalité d'influence avec Jules" in detail
    assert "Jules : ville 3 cases n°1 : 4 (égalité d'influence avec Yanis" in detail

    # Back on the page: a tile removed, the tie is gone and the orders the table typed stay theirs.
    phone.go_back()
    phone.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    tile_line(phone, 0, 2).get_by_role("button", name="Retirer la tuile").tap()
    expect(note).to_be_hidden()
    saved(phone)
    city = stored_document(live_server, url)["cities"][0]
    assert [t.get("order") for t in city["tiles"]] == [2, 3]


def test_orders_filled_from_the_entry_go_when_the_tie_goes(phone, live_server):
    url = new_game(phone, "rebirth", "ireland", ["Aoife", "Brian", "Cliona"])
    taps = Taps(phone)
    taps.city(2)
    taps.tile(0, "Aoife", 2)
    taps.tile(0, "Brian", 2)
    saved(phone)
    assert stored_document(live_server, url)["cities"] == [
        {"size": 2, "tiles": [{"player": "Aoife", "influence": 2, "order": 1},
                              {"player": "Brian", "influence": 2, "order": 2}]}]
    # Brian's tile was a 3: removed and tapped again, no tie, no order.
    tile_line(phone, 0, 1).get_by_role("button", name="Retirer la tuile").tap()
    taps.tile(0, "Brian", 3)
    saved(phone)
    assert stored_document(live_server, url)["cities"] == [
        {"size": 2, "tiles": [{"player": "Aoife", "influence": 2}, {"player": "Brian", "influence": 3}]}]
    # A tile's line opens its fields (player, influence, order) to change it in place.
    tile_line(phone, 0, 0).locator("> .tile-tag").tap()
    phone.select_option('[name="cities-0-tiles-0-player"]', "Cliona")
    saved(phone)
    assert stored_document(live_server, url)["cities"][0]["tiles"][0] == {"player": "Cliona", "influence": 2}
    expect(tile_line(phone, 0, 0).locator("> .tile-tag")).to_contain_text("Cliona")


def test_a_tile_added_on_two_phones_to_one_city_is_two_tiles(phone, browser, live_server):
    url = new_game(phone, "rebirth", "ireland", ["Aoife", "Brian", "Cliona"])
    taps = Taps(phone)
    taps.city(4)
    taps.tile(0, "Aoife", 3)
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        Taps(phone).tile(0, "Brian", 2)
        saved(phone)
        Taps(other).tile(0, "Cliona", 1)  # the same row on this phone: put after A's by the server
        saved(other)
        expect(other.locator('[name="cities-0-tiles-1-player"]')).to_have_value("Brian")  # taken in
        expect(other.locator('[name="cities-0-tiles-2-player"]')).to_have_value("Cliona")
        assert stored_document(live_server, url)["cities"] == [
            {"size": 4, "tiles": [{"player": "Aoife", "influence": 3}, {"player": "Brian", "influence": 2},
                                  {"player": "Cliona", "influence": 1}]}]
        # Both phones add a city: two cities.
        Taps(phone).city(1)
        Taps(phone).tile(1, "Aoife", 4)
        Taps(other).city(2)
        saved(phone)
        saved(other)
        cities = stored_document(live_server, url)["cities"]
        assert [c["size"] for c in cities] == [4, 1, 2]
    finally:
        context.close()


def test_the_pad_in_english_fits_the_phone(english_phone, live_server):
    page = english_phone
    page.goto(f"{page.base_url}/nouvelle?game=rebirth&variant=ireland")
    for i, name in enumerate(["Aoife", "Brian", "Cliona"]):
        page.fill(f"#players-{i}-name", name)
    page.get_by_role("button", name="Start entering").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    url = page.url
    expect(page.locator("[data-new-city] .pad-title")).to_have_text("New city:")
    assert page.locator("[data-new-city-size]").all_inner_texts() == ["1 space", "2 spaces", "3 spaces",
                                                                      "4 spaces"]
    taps = Taps(page)
    taps.city(2)
    taps.tile(0, "Aoife", 2)
    taps.tile(0, "Brian", 2)
    expect(page.locator("#f-cities-0 [data-order-note]")).to_contain_text("the placement order breaks it")
    assert page.locator('#f-cities-0 button[data-player="Brian"][data-influence="2"]') \
        .get_attribute("aria-label") == "Brian, influence 2"
    check_layout(page)
    screenshot(page, "play-rebirth-cities-english")
    expect(page.locator("#save-state")).to_have_text("Saved ✓")
    assert stored_document(live_server, url)["cities"][0]["tiles"][1] == {"player": "Brian", "influence": 2,
                                                                        "order": 2}


def test_without_javascript_the_tiles_are_fields_and_the_pad_is_not_shown(phone_without_js, live_server):
    page = phone_without_js
    url = new_game(page, "rebirth", "scotland", ["Maëlle", "Yanis", "Inès"])
    expect(page.locator("[data-tile-pad]").first).to_be_hidden()
    expect(page.locator("[data-new-city]")).to_be_hidden()
    page.fill('[name="cities-0-size"]', "2")
    page.select_option('[name="cities-0-tiles-0-player"]', "Yanis")
    page.fill('[name="cities-0-tiles-0-influence"]', "3")
    page.get_by_role("button", name="Ajouter une tuile").click()
    page.select_option('[name="cities-0-tiles-1-player"]', "Inès")
    page.fill('[name="cities-0-tiles-1-influence"]', "3")
    page.fill('[name="cities-0-tiles-1-order"]', "2")
    page.get_by_role("button", name="Enregistrer").first.click()
    page.wait_for_load_state("load")
    assert stored_document(live_server, url)["cities"] == [
        {"size": 2, "tiles": [{"player": "Yanis", "influence": 3},
                              {"player": "Inès", "influence": 3, "order": 2}]}]
