"""Rebirth played through the UI as a table would, on a phone (headless Chromium, 390×844): the Écosse
example, an Irlande game checked by hand, and the city and castle tools opened from a game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_play_rebirth import IRELAND, without_false  # the Irlande game, checked by hand

from browser_helpers import check_layout, choose, saved, screenshot, show_player, stored_document
from browser_helpers import new_game as start_game
from document_helpers import load_example

pytestmark = pytest.mark.browser


def new_game(page, variant: str, names: list[str]) -> str:
    return start_game(page, "rebirth", variant, names)


def add(page, rows: str) -> None:
    """The list's "Ajouter…" button (JS adds the row in place)."""
    page.locator(f'#f-{rows} > button[name="add_row"]').tap()


def fill_rows(page, rows: str, values: list, fill) -> None:
    for j, value in enumerate(values):
        if j and not page.locator(f'[name^="{rows}-{j}"]').count():
            add(page, rows)
        fill(f"{rows}-{j}", value)


def tap_tile(page, c: int, player: str, influence: int) -> None:
    """One tap on the city's pad (static/js/rebirth.js): the tile's player and influence."""
    page.locator(f'#f-cities-{c} [data-tile-pad] button[data-player="{player}"]'
                 f'[data-influence="{influence}"]').tap()


def fill_cities(page, cities: list[dict]) -> None:
    """City by city, as the table reads the board: "Nouvelle ville" with its size (one tap), then a
    tap per tile on the city's pad. The placement order is never typed: where a tie needs it, it is
    filled in from the order of entry, which is the order of the documents' tiles."""
    for c, city in enumerate(cities):
        page.locator(f'[data-new-city-size="{city["size"]}"]').tap()
        expect(page.locator(f'[name="cities-{c}-size"]')).to_have_value(str(city["size"]))
        for t in city["tiles"]:
            tap_tile(page, c, t["player"], t["influence"])
        for j, t in enumerate(city["tiles"]):
            order = page.locator(f'[name="cities-{c}-tiles-{j}-order"]')
            expect(order).to_have_value(str(t.get("order", "")))


def fill_player(page, i: int, p: dict) -> None:
    show_player(page, i)
    pre = f"players-{i}-"
    for key in ("track", "ports", "incomplete_icons", "gifts", "tara_adjacent"):
        if p.get(key):
            page.fill(f'[name="{pre}{key}"]', str(p[key]))
    for _ in range(p.get("castles", 0)):  # the stepper's + button
        page.locator(f'#f-{pre}castles button[data-step="1"]').tap()
    for kind, sizes in p.get("farms", {}).items():
        fill_rows(page, f"{pre}farms-{kind}", sizes, lambda name, n: page.fill(f'[name="{name}"]', str(n)))

    def card(flag):
        def fill(prefix, m):
            page.fill(f'[name="{prefix}-points"]', str(m["points"]))
            if m.get(flag):
                page.check(f'[name="{prefix}-{flag}"]')
        return fill

    fill_rows(page, f"{pre}missions", p.get("missions", []), card("achieved"))
    fill_rows(page, f"{pre}public_missions", p.get("public_missions", []), card("doubled"))
    for j, m in enumerate(p.get("privatized_missions", [])):
        card("achieved")(f"{pre}privatized_missions-{j}", m)
    fill_rows(page, f"{pre}towers", p.get("towers", []),  # radios "13 points" (first), "3 points"
              lambda name, v: page.locator(f'label[for="{name}-{0 if v == 13 else 1}"]').tap())


def totals(page) -> list[str]:
    return page.locator("tr.totals td").all_inner_texts()


def finish(page) -> None:
    page.get_by_role("button", name="Voir les résultats").click()
    page.wait_for_url(re.compile(r"/resultats$"))


def test_scotland_example_played_through(phone, live_server):
    example = load_example("rebirth-scotland.json")
    url = new_game(phone, "scotland", [p["name"] for p in example["players"]])
    check_layout(phone)
    phone.locator("#r1 summary").tap()  # R1, folded behind a tap
    assert "laissez la piste à 0 si vous détaillez" in phone.locator("#r1").inner_text()
    assert phone.locator('[name="blarney"], [name="players-0-towers-0"]').count() == 0  # Irlande only
    fill_cities(phone, example["cities"])
    # A tile added then removed in the second city (a copy of the first): it stays in that city.
    open_city(phone, 1)
    tap_tile(phone, 1, "Yanis", 3)
    expect(phone.locator('[name="cities-1-tiles-2-player"]')).to_have_count(1)
    assert phone.locator('[name="cities-0-tiles-2-player"], [name="cities-2-size"]').count() == 0
    new_tile = phone.locator("#f-cities-1-tiles-2").locator("xpath=..")  # its row
    new_tile.get_by_role("button", name="Retirer la tuile").tap()
    expect(phone.locator('[name^="cities-1-tiles-"][name$="-player"]')).to_have_count(2)
    choose(phone, "edinburgh", "Yanis")
    for i, player in enumerate(example["players"]):
        fill_player(phone, i, player)
    saved(phone)
    assert stored_document(live_server, url) == without_false(example)
    check_layout(phone)
    screenshot(phone, "play-rebirth-scotland-edit")
    finish(phone)
    assert phone.locator("h1.winner").inner_text() == "Maëlle gagne"
    assert totals(phone) == ["66", "63", "56"]
    # The 2-space city tie (3 against 3) is settled by placement order: Inès placed first.
    phone.locator("tr[data-key=cities] summary").tap()
    detail = phone.locator("tr[data-key=cities] + tr.detail-row").inner_text()
    assert "Inès : ville 2 cases n°1 : 5 (égalité d'influence avec Yanis, départagée par l'ordre de pose)" \
        in detail
    check_layout(phone)
    screenshot(phone, "play-rebirth-scotland-results")


def test_ireland_tie_for_first_settled_by_tara(phone, live_server):
    url = new_game(phone, "ireland", ["Aoife", "Brian", "Ciara"])
    assert phone.locator('[name="edinburgh"], [name="players-0-gifts"]').count() == 0  # Écosse only
    expect(phone.locator("#f-players-0-ports label").first).to_have_text("Exploitations en mer")
    fill_cities(phone, IRELAND["cities"])
    choose(phone, "blarney", "Ciara")
    for i, player in enumerate(IRELAND["players"]):
        fill_player(phone, i, player)
    saved(phone)
    assert stored_document(live_server, url) == IRELAND
    check_layout(phone)
    screenshot(phone, "play-rebirth-ireland-edit")
    finish(phone)
    assert phone.locator("h1.winner").inner_text() == "Brian gagne"
    assert totals(phone) == ["107", "107", "97"]
    assert phone.locator(".ties .tie-short").all_inner_texts() == [
        "Brian gagne, puis Aoife : cases adjacentes à la tour ronde de Tara (Aoife 2, Brian 4)"]
    assert phone.locator(".ties .tie-detail p").all_text_contents() == [
        "Aoife et Brian à égalité (107 points) ; aucun des deux ne tient le château de Blarney ; cases "
        "adjacentes à la tour ronde de Tara : Aoife 2, Brian 4 ; Brian gagne, puis Aoife."]
    check_layout(phone)
    screenshot(phone, "play-rebirth-ireland-results")


def test_city_and_castle_tools_from_a_game(phone):
    url = new_game(phone, "ireland", ["Aoife", "Brian", "Ciara"])
    phone.locator(".rebirth-tools summary").tap()  # the table's tools, folded behind a tap
    phone.get_by_role("link", name="Résoudre une ville").tap()
    phone.wait_for_url(re.compile(r"/outils/ville$"))
    check_layout(phone)
    phone.get_by_label("Ville 4 cases").check()
    for j, (who, influence) in enumerate((("Aoife", 3), ("Brian", 2), ("Aoife", 1), ("Brian", 1))):
        choose(phone, f"tiles-{j}-player", who)  # one chip per player
        phone.fill(f'[name="tiles-{j}-influence"]', str(influence))
    phone.get_by_role("button", name="Calculer la ville").click()
    answer = phone.locator("#answer")
    expect(answer).to_contain_text("Ville complète")
    assert answer.locator("li").all_inner_texts() == [
        "Aoife (1re) marque 13 points.", "Brian (2e) marque 3 points.",
        "Ciara : aucune tuile dans cette ville."]
    assert "Prix (8/5/3) : Aoife 8 + 5 = 13, Brian 3." in answer.inner_text()
    assert phone.locator('[name="tiles-0-influence"]').input_value() == "3"  # the city stays to adjust
    check_layout(phone)
    screenshot(phone, "tools-rebirth-city")

    phone.get_by_role("link", name="Retour à la partie").tap()
    phone.wait_for_url(url)  # the game's page first: a tap while it loads would be lost
    phone.locator(".rebirth-tools summary").tap()
    phone.get_by_role("link", name="Contrôle d'un château").tap()
    phone.wait_for_url(re.compile(r"/outils/chateau$"))
    choose(phone, "holder", "Brian")  # players as chips
    choose(phone, "active", "Aoife")
    phone.fill('[name="adjacent-0-tiles"]', "2")
    phone.locator('#f-adjacent-0-farms button[data-step="1"]').tap()
    phone.fill('[name="adjacent-1-tiles"]', "2")
    phone.get_by_role("button", name="Qui contrôle le château ?").click()
    expect(phone.locator("#answer-title")).to_have_text("Aoife contrôle le château")
    why = phone.locator("#answer").inner_text()
    assert "fermes adjacentes : Aoife 1, Brian 0 ; Aoife prend le contrôle" in why
    check_layout(phone)
    screenshot(phone, "tools-rebirth-castle")


# ------------------------------------------------------------------ lists inside list rows


def type_tile(page, prefix: str, player: str, influence: int, order: int | None = None) -> None:
    """A tile by a tap on its city's pad (it lands in the row `prefix`), then, when given, its order
    typed in its fields (a tap on the tile's line shows them)."""
    c = int(prefix.split("-")[1])
    tap_tile(page, c, player, influence)
    expect(page.locator(f'[name="{prefix}-player"]')).to_have_value(player)
    expect(page.locator(f'[name="{prefix}-influence"]')).to_have_value(str(influence))
    if order is not None:
        page.locator(f'[name="{prefix}-player"]').locator("xpath=ancestor::*[@data-row][1]") \
            .locator("> .tile-tag").tap()
        page.fill(f'[name="{prefix}-order"]', str(order))


NESTED_CITIES = [
    {"size": 2, "tiles": [{"player": "Maëlle", "influence": 2}, {"player": "Yanis", "influence": 1}]},
    {"size": 3, "tiles": [{"player": "Yanis", "influence": 3},
                          {"player": "Inès", "influence": 1, "order": 2}]},
]


def open_city(page, c: int) -> None:
    """A city the table moved on from is folded into one line (static/js/rebirth.js): a tap opens it."""
    summary = page.locator(f"#f-cities-{c}").locator("xpath=..").locator("> .city-summary")
    if summary.count() and summary.is_visible():
        summary.tap()
    expect(page.locator(f'[name="cities-{c}-size"]')).to_be_visible()


def test_cities_and_tiles_added_in_the_browser_keep_their_own_names(phone, live_server):
    url = new_game(phone, "scotland", ["Maëlle", "Yanis", "Inès"])
    # On load, the blank city's tile keeps its name (play/fields.js used to count the tile rows as cities).
    expect(phone.locator('[name="cities-0-tiles-0-player"]')).to_have_count(1)
    assert phone.locator('[name^="cities-1"]').count() == 0
    phone.fill('[name="cities-0-size"]', "2")
    type_tile(phone, "cities-0-tiles-0", "Maëlle", 2)
    type_tile(phone, "cities-0-tiles-1", "Yanis", 1)

    # Two cities added in the browser ("Nouvelle ville", 3 spaces): each a copy of the last with ONE
    # blank tile, and its size.
    phone.locator('[data-new-city-size="3"]').tap()
    phone.locator('[data-new-city-size="3"]').tap()
    for c in (1, 2):
        tiles = phone.locator(f'#f-cities-{c}-tiles [name$="-player"]')
        expect(tiles).to_have_count(1)
        assert tiles.first.get_attribute("name") == f"cities-{c}-tiles-0-player"
        assert tiles.first.input_value() == ""
        assert phone.locator(f'[name="cities-{c}-size"]').input_value() == "3"
        assert phone.locator(f'[name="cities-{c}-tiles-0-influence"]').input_value() == ""
    expect(phone.locator("#f-cities-2 > legend")).to_have_text("Ville 3")

    # Tiles added to the second city are named after it, and so is everything around them.
    open_city(phone, 1)
    phone.fill('[name="cities-1-size"]', "3")
    type_tile(phone, "cities-1-tiles-0", "Yanis", 3)
    type_tile(phone, "cities-1-tiles-1", "Inès", 1, order=2)
    box = phone.locator('[data-rows="cities-1-tiles"]')
    assert box.get_attribute("id") == "f-cities-1-tiles"
    assert box.locator('> button[name="add_row"]').get_attribute("value") == "cities-1-tiles"
    select = phone.locator('[name="cities-1-tiles-1-player"]')
    assert select.get_attribute("id") == "cities-1-tiles-1-player"
    # described by the one hint said above the first city's tiles (issue 33), which stays the only one
    assert select.get_attribute("aria-describedby").split() == ["h-cities-tiles-player"]
    assert phone.locator("#h-cities-tiles-player").count() == 1
    assert phone.locator('label[for="cities-1-tiles-1-player"]').count() == 1
    # a message for this tile (the autosave's slot, made when an answer needs it) lands in its own
    # wrapper, named after it, and describes its field
    phone.evaluate('Play.slot("e", "cities-1-tiles-1-player")')
    assert phone.locator("#f-cities-1-tiles-1-player > #e-cities-1-tiles-1-player").count() == 1
    assert select.get_attribute("aria-describedby").split() == ["e-cities-1-tiles-1-player",
                                                                "h-cities-tiles-player"]
    expect(phone.locator("#f-cities-1-tiles-1 > legend")).to_have_text("Tuile 2")
    assert phone.locator('[name^="cities-1-tiles-"][name$="-player"]').evaluate_all(
        "els => els.map(e => e.name)") == ["cities-1-tiles-0-player", "cities-1-tiles-1-player"]
    assert phone.locator('[name^="cities-0-tiles-"][name$="-player"]').evaluate_all(
        "els => els.map(e => e.value)") == ["Maëlle", "Yanis"]  # the first city is untouched
    assert phone.locator('[name^="cities-2-tiles-"]').count() == 3  # player, influence, order

    # The third city, still blank, is removed with its worded button (not a "×" by its tile's).
    open_city(phone, 2)
    phone.locator("#f-cities-2").locator("xpath=..").get_by_role("button", name="Retirer la ville").tap()
    open_city(phone, 1)
    expect(phone.locator('[name^="cities-2"]')).to_have_count(0)
    expect(phone.locator('[name^="cities-1-tiles-"][name$="-player"]')).to_have_count(2)
    check_layout(phone)
    # A tile's fields at 390 px: the player on a line, influence and order side by side below it.
    screenshot(phone, "play-rebirth-nested-tiles")
    boxes = [phone.locator(f"#cities-1-tiles-1-{k}").bounding_box() for k in ("player", "influence", "order")]
    assert boxes[1]["y"] == boxes[2]["y"] and boxes[1]["y"] >= boxes[0]["y"] + boxes[0]["height"]
    assert boxes[2]["x"] >= boxes[1]["x"] + boxes[1]["width"]

    saved(phone)
    assert stored_document(live_server, url)["cities"] == NESTED_CITIES
    phone.reload()
    assert phone.locator('[name="cities-1-tiles-1-player"]').input_value() == "Inès"
    assert phone.locator('[name="cities-1-tiles-1-order"]').input_value() == "2"
    assert phone.locator('[name="cities-0-tiles-1-player"]').input_value() == "Yanis"
    assert stored_document(live_server, url)["cities"] == NESTED_CITIES


def test_tiles_typed_before_autosave_come_back_from_the_draft(phone, live_server):
    url = new_game(phone, "scotland", ["Maëlle", "Yanis", "Inès"])
    # No autosave reaches the server: the server "fails" (an aborted request would be retried, and
    # the retry pending at unload is sent with keepalive, which routing does not catch).
    phone.context.route("**/save", lambda route: route.fulfill(status=503, body="indisponible"))
    phone.fill('[name="cities-0-size"]', "2")
    type_tile(phone, "cities-0-tiles-0", "Maëlle", 2)
    type_tile(phone, "cities-0-tiles-1", "Yanis", 1)
    phone.locator('[data-new-city-size="3"]').tap()
    type_tile(phone, "cities-1-tiles-0", "Yanis", 3)
    type_tile(phone, "cities-1-tiles-1", "Inès", 1, order=2)
    expect(phone.locator("#save-state")).to_have_text("Non enregistré")
    assert "cities" not in stored_document(live_server, url)

    phone.reload()  # the tab closed before any save: the server page has one blank city
    # (the notice "Des saisies non enregistrées ont été retrouvées" gives way to the failed save's)
    expect(phone.locator("#save-state")).to_have_text("Non enregistré")
    for c, city in enumerate(NESTED_CITIES):
        assert phone.locator(f'[name="cities-{c}-size"]').input_value() == str(city["size"])
        for t, tile in enumerate(city["tiles"]):
            for key in ("player", "influence", "order"):
                assert phone.locator(f'[name="cities-{c}-tiles-{t}-{key}"]').input_value() == \
                    str(tile.get(key, "")), (c, t, key)
        expect(phone.locator(f'#f-cities-{c}-tiles [data-row]')).to_have_count(len(city["tiles"]))
    assert phone.locator('[name^="cities-2"]').count() == 0
    assert "cities" not in stored_document(live_server, url)  # it all came from the phone

    phone.context.unroute("**/save")
    phone.evaluate("window.dispatchEvent(new Event('online'))")  # the network is back: it is sent
    saved(phone)
    assert stored_document(live_server, url)["cities"] == NESTED_CITIES
    assert phone.evaluate("Object.keys(localStorage).filter(k => k.startsWith('companion-draft:'))") == []
