"""Undo at the table (issue 32), on a 390×844 phone: "↶ Annuler" in the sticky bar undoes this
phone's last change, then the one before; a removed Rebirth city comes back whole in one tap; an
undo of a field another phone changed since is a conflict shown as any other (nothing overwritten);
the other phone sees the state undone to; the log page lists the changes and undoes one."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser_axe import violations

from browser_helpers import (
    check_layout,
    new_game,
    saved,
    screenshot,
    second_phone,
    settled,
    show_player,
    stored_document,
)

pytestmark = pytest.mark.browser
NAMES = ["Éloïse", "Jules"]


def undo(page) -> None:
    """Tap "↶ Annuler" and wait for the server's answer (the save state says it)."""
    page.get_by_role("button", name="Annuler ma dernière modification").tap()
    expect(page.locator("#save-state")).to_have_text("Annulé ✓")
    settled(page)


def caught_up(page) -> None:
    """The page comes back to the front (a phone picked up again): it asks what the server holds."""
    page.evaluate("window.dispatchEvent(new Event('focus'))")


def test_undo_a_value_then_the_one_before_and_the_other_phone_follows(phone, browser, live_server):
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    castles = phone.locator('[name="players-0-castles"]')
    castles.fill("2")
    saved(phone)
    castles.fill("3")
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(other, 0)
        expect(other.locator('[name="players-0-castles"]')).to_have_value("3")
        check_layout(phone)  # the bar with its fifth button: one column, every target 44 px
        screenshot(phone, "play-undo-bar")

        undo(phone)
        expect(castles).to_have_value("2")
        assert stored_document(live_server, url)["players"][0]["castles"] == 2
        caught_up(other)
        expect(other.locator('[name="players-0-castles"]')).to_have_value("2")

        undo(phone)  # a second level: the first change
        expect(castles).to_have_value("")
        assert "castles" not in stored_document(live_server, url)["players"][0]
        other.reload()
        show_player(other, 0)
        expect(other.locator('[name="players-0-castles"]')).to_have_value("")

        phone.get_by_role("button", name="Annuler ma dernière modification").tap()
        expect(phone.locator("#save-state")).to_have_text("Rien à annuler")
    finally:
        context.close()


def test_an_undo_never_overwrites_the_other_phones_later_value(phone, browser, live_server):
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 1)
    phone.fill('[name="players-1-ports"]', "1")
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(other, 1)
        other.fill('[name="players-1-ports"]', "4")
        saved(other)
        phone.get_by_role("button", name="Annuler ma dernière modification").tap()
        phone.locator("#play-notice").wait_for(state="visible")
        expect(phone.locator("#save-state")).to_have_text("Non enregistré : conflit")
        expect(phone.locator("#t-players-1-ports")).to_have_text("Enregistré sur l'autre appareil : 4")
        assert stored_document(live_server, url)["players"][1]["ports"] == 4  # nothing overwritten
        phone.get_by_role("button", name="Reprendre ses valeurs").click()
        expect(phone.locator('[name="players-1-ports"]')).to_have_value("4")
        settled(phone)
        assert stored_document(live_server, url)["players"][1]["ports"] == 4
    finally:
        context.close()


def _tap_city(page, size: int, tiles: list[tuple[str, int]], c: int) -> None:
    page.locator(f'[data-new-city-size="{size}"]').tap()
    for player, influence in tiles:
        page.locator(f'#f-cities-{c} [data-tile-pad] button[data-player="{player}"]'
                     f'[data-influence="{influence}"]').tap()


def test_undo_of_a_removed_city_brings_it_back_whole(phone, browser, live_server):
    url = new_game(phone, "rebirth", "scotland", NAMES)
    _tap_city(phone, 3, [("Éloïse", 2), ("Jules", 3)], 0)
    _tap_city(phone, 2, [("Jules", 4)], 1)
    saved(phone)
    cities = stored_document(live_server, url)["cities"]
    assert len(cities) == 2
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        summary = phone.locator("#f-cities-0").locator("xpath=..").locator("> .city-summary")
        if summary.is_visible():
            summary.tap()
        phone.locator("#f-cities-0").locator("xpath=..").get_by_role("button", name="Retirer la ville").tap()
        saved(phone)
        assert len(stored_document(live_server, url)["cities"]) == 1

        undo(phone)
        assert stored_document(live_server, url)["cities"] == cities
        for name, value in (("cities-0-tiles-0-player", "Éloïse"), ("cities-0-tiles-1-player", "Jules"),
                            ("cities-1-tiles-0-player", "Jules"), ("cities-1-tiles-0-influence", "4")):
            expect(phone.locator(f'[name="{name}"]')).to_have_value(value)
        phone.reload()  # what the server holds is what the page showed
        expect(phone.locator('[name="cities-1-tiles-0-player"]')).to_have_value("Jules")
        caught_up(other)  # B, opened before the removal, still shows both cities, the first unchanged
        expect(other.locator('[name="cities-0-tiles-0-player"]')).to_have_value("Éloïse")
        expect(other.locator('[name="cities-1-tiles-0-influence"]')).to_have_value("4")
        assert stored_document(live_server, url)["cities"] == cities
    finally:
        context.close()


def test_the_log_page_on_a_phone_undoes_a_change(phone, live_server):
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    phone.fill('[name="players-0-castles"]', "2")
    saved(phone)
    show_player(phone, 1)
    phone.fill('[name="players-1-ports"]', "3")
    saved(phone)
    phone.goto(url + "historique")
    changes = phone.locator("li.change")
    expect(changes).to_have_count(2)
    expect(changes.nth(0)).to_contain_text("Jules · ")
    expect(changes.nth(0)).to_contain_text("vide → 3")
    expect(changes.nth(1)).to_contain_text("ce téléphone")
    check_layout(phone)
    assert violations(phone) == []  # axe-core, WCAG 2.2 AA (tests/browser/test_browser_axe.py)
    screenshot(phone, "play-changes")
    changes.nth(1).get_by_role("button", name="Annuler cette modification").tap()  # the older one
    expect(phone.locator(".flash-success")).to_have_text("Modification annulée.")
    expect(phone.locator("li.change")).to_have_count(3)
    expect(phone.locator("li.change").nth(2)).to_contain_text("annulée")
    document = stored_document(live_server, url)
    assert "castles" not in document["players"][0] and document["players"][1]["ports"] == 3
    phone.get_by_role("link", name="Retour à la saisie").tap()
    show_player(phone, 0)
    expect(phone.locator('[name="players-0-castles"]')).to_have_value("")


def test_without_javascript_the_undo_is_a_form(phone_without_js, live_server):
    """No JS: ↶ posts its own form and the page comes back saying so (post/redirect/get); Enter in a
    field is still "Enregistrer" (↶ is not a button of the entry's form)."""
    page = phone_without_js
    url = new_game(page, "rebirth", "scotland", NAMES)
    page.fill('[name="players-1-ports"]', "3")
    page.press('[name="players-1-ports"]', "Enter")
    page.wait_for_url(re.compile(r"#f-players-1-ports$"))
    page.fill('[name="players-1-ports"]', "5")
    page.press('[name="players-1-ports"]', "Enter")
    expect(page.locator(".flash-success")).to_have_text("Enregistré.")
    page.get_by_role("button", name="Annuler ma dernière modification").tap()
    expect(page.locator(".flash-success")).to_have_text("Modification annulée.")
    expect(page.locator('[name="players-1-ports"]')).to_have_value("3")
    assert stored_document(live_server, url)["players"][1]["ports"] == 3
    check_layout(page)


def test_undo_works_beside_a_choice_only_this_phone_keeps(phone, live_server):
    """QA: "Une carte par joueur" with every player's card still blank is this page's choice alone (the
    stored game cannot tell it from one shared card), so it stays unlike the stored value after its
    save. "↶" waited for it to be saved and did nothing, without a word; it now undoes the last change."""
    url = new_game(phone, "revive", "base", NAMES)
    phone.get_by_role("radio", name="Une carte par joueur").first.check()
    show_player(phone, 0)
    track = phone.locator('[name="players-0-track"]')
    track.fill("10")
    saved(phone)
    assert stored_document(live_server, url)["players"][0]["track"] == 10
    undo(phone)
    expect(track).to_have_value("")
    assert "track" not in stored_document(live_server, url)["players"][0]
    expect(phone.locator('[name="card_mode"][value="each"]')).to_be_checked()  # still chosen
