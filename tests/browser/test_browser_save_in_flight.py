"""Two phones on one game while a save is on its way (headless Chromium, 390×844): a value typed
on one phone is never written over the other phone's without the conflict being shown, and never
shown on a phone as saved when the server holds another. The first save's answer is held back by
the test (`hold`) and let go when the test says: no wall-clock wait, the order is the test's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_helpers import new_game, saved, second_phone, settled, show_player, stored_document

pytestmark = pytest.mark.browser
NAMES = ["Éloïse", "Jules"]


HOLD = """() => {
  const real = window.fetch;
  window.heldSaves = [];
  window.fetch = function (url) {
    const answer = real.apply(this, arguments);
    if (!/\\/save$/.test(String(url)) || window.heldOnce) return answer;
    window.heldOnce = true;  // this one: its answer waits for the test
    return new Promise(resolve => window.heldSaves.push(() => resolve(answer)));
  };
}"""


def hold(page) -> None:
    """The page's next autosave goes to the server at once, and its answer waits on the page until
    `let_go`: the player types meanwhile, as on a slow network."""
    page.evaluate(HOLD)


def let_go(page) -> None:
    assert page.evaluate("window.heldSaves.length") == 1
    page.evaluate("window.heldSaves.shift()()")


def test_a_field_typed_while_a_save_is_on_its_way_meets_the_other_phones_value(phone, browser,
                                                                               live_server):
    """B saved Jules's ports at 7. A, not caught up, types Jules's castles (its save held on the way),
    then Jules's ports 5 meanwhile. The held save's answer brings B's 7: A's 5 must not go over it
    unseen (its base is the blank A saw, not B's 7): A is shown the conflict, and the stored game
    keeps B's 7 until A chooses."""
    url = new_game(phone, "rebirth", "scotland", NAMES)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(other, 1)
        other.fill('[name="players-1-ports"]', "7")
        saved(other)
        show_player(phone, 1)
        settled(phone)
        hold(phone)
        with phone.expect_response("**/save"):
            phone.fill('[name="players-1-castles"]', "2")
        phone.fill('[name="players-1-ports"]', "5")  # typed while the save's answer is on its way
        let_go(phone)
        expect(phone.locator("#t-players-1-ports")).to_have_text("Enregistré sur l'autre appareil : 7")
        expect(phone.locator('[name="players-1-ports"]')).to_have_value("5")
        jules = stored_document(live_server, url)["players"][1]
        assert (jules["castles"], jules["ports"]) == (2, 7)  # A's castles kept, B's ports not overwritten
        phone.get_by_role("button", name="Appliquer mes saisies").click()  # A chooses its own
        saved(phone)
        assert stored_document(live_server, url)["players"][1]["ports"] == 5
    finally:
        context.close()


def test_a_field_typed_while_a_save_meets_a_conflict_is_not_written_over_the_other(phone, browser,
                                                                                  live_server):
    """The same when the held save itself meets a conflict: B saved Jules's castles 3 and ports 7; A
    types castles 2 (held), then ports 5. A's castles is a conflict; A applies its own: its ports 5
    is then a conflict too (A never saw B's 7), not written over B's 7 without a word."""
    url = new_game(phone, "rebirth", "scotland", NAMES)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(other, 1)
        other.fill('[name="players-1-castles"]', "3")
        other.fill('[name="players-1-ports"]', "7")
        saved(other)
        assert stored_document(live_server, url)["players"][1]["ports"] == 7
        show_player(phone, 1)
        settled(phone)
        hold(phone)
        with phone.expect_response("**/save"):
            phone.fill('[name="players-1-castles"]', "2")
        phone.fill('[name="players-1-ports"]', "5")
        let_go(phone)
        expect(phone.locator("#t-players-1-castles")).to_have_text("Enregistré sur l'autre appareil : 3")
        phone.get_by_role("button", name="Appliquer mes saisies").click()
        expect(phone.locator("#t-players-1-ports")).to_have_text("Enregistré sur l'autre appareil : 7")
        jules = stored_document(live_server, url)["players"][1]
        assert (jules["castles"], jules["ports"]) == (3, 7)  # a save meeting a conflict stores nothing
        phone.get_by_role("button", name="Appliquer mes saisies").click()
        saved(phone)
        jules = stored_document(live_server, url)["players"][1]
        assert (jules["castles"], jules["ports"]) == (2, 5)
    finally:
        context.close()


def three_cards_leo_one_puits(phone) -> str:
    """A Reterra game on phone A: Ferme, Puits and Forge in play, Léo with 1 Puits, saved; its URL."""
    url = new_game(phone, "reterra", "base", ["Inès", "Léo"])
    for k, (name, points) in enumerate([("Ferme", 3), ("Puits", 2), ("Forge", 4)]):
        if k:
            phone.get_by_role("button", name="Ajouter une carte").tap()
        phone.fill(f'[name="buildings-{k}-name"]', name)
        phone.fill(f'[name="buildings-{k}-points"]', str(points))
    show_player(phone, 1)
    phone.locator('#f-players-1-built-1 button[data-step="1"]').tap()  # Léo: 1 Puits
    saved(phone)
    return url


def gives_leo_two_forge(other, url: str) -> None:
    """Phone B opens the game and gives Léo 2 Forge (the third card), by taps."""
    other.goto(url)
    show_player(other, 1)
    for _ in range(2):
        other.locator('#f-players-1-built-2 button[data-step="1"]').tap()


def test_a_card_removed_here_shows_the_count_the_other_phone_gave_below_it(phone, browser, live_server):
    """Reterra (static/js/board.js): three cards in play on both phones, Léo has 1 Puits; B gives Léo 2
    Forge. A, not caught up, removes the Puits: the Forge moves up a row on A, its count for Léo (blank
    on A) only moved with its card, so A does not send it and the server keeps B's 2 on the Forge. A
    must then show Léo's 2 (not a blank said "Enregistré" while the server holds 2), and A's next save
    must not blank it."""
    url = three_cards_leo_one_puits(phone)
    context, other = second_phone(browser, live_server)
    try:
        gives_leo_two_forge(other, url)
        saved(other)
        assert stored_document(live_server, url)["players"][1]["buildings"] == {"puits": 1, "forge": 2}
        phone.locator(".steps-list a", has_text="Table").click()
        phone.locator('[data-rows="buildings"] [data-row]').nth(1).locator("[data-remove-row]").tap()
        saved(phone)
        doc = stored_document(live_server, url)
        assert [c["id"] for c in doc["buildings"]] == ["ferme", "forge"]
        assert doc["players"][1]["buildings"] == {"forge": 2}
        show_player(phone, 1)
        expect(phone.locator("#f-players-1-built-1 label")).to_have_text("Forge")
        expect(phone.locator('[name="players-1-built-1"]')).to_have_value("2")
        phone.locator('#f-players-1-segments button[data-step="1"]').tap()  # A goes on with Léo
        saved(phone)
        leo = stored_document(live_server, url)["players"][1]
        assert (leo["segments"], leo["buildings"]) == (1, {"forge": 2})
    finally:
        context.close()


def test_a_card_removed_in_a_save_meeting_a_conflict_keeps_the_other_phones_count(phone, browser,
                                                                                  live_server):
    """The same when A's save removing the Puits meets a conflict (B gave Inès 3 segments, A 1): nothing
    is stored, A chooses its own values, and Léo's Forge on A is B's 2, kept by the save that follows."""
    url = three_cards_leo_one_puits(phone)
    context, other = second_phone(browser, live_server)
    try:
        gives_leo_two_forge(other, url)
        show_player(other, 0)
        other.fill('[name="players-0-segments"]', "3")
        saved(other)
        phone.locator(".steps-list a", has_text="Table").click()
        phone.locator('[data-rows="buildings"] [data-row]').nth(1).locator("[data-remove-row]").tap()
        show_player(phone, 0)
        phone.locator('#f-players-0-segments button[data-step="1"]').tap()  # sent at once, with the removal
        expect(phone.locator("#t-players-0-segments")).to_have_text("Enregistré sur l'autre appareil : 3")
        assert len(stored_document(live_server, url)["buildings"]) == 3  # nothing stored
        phone.get_by_role("button", name="Appliquer mes saisies").click()
        saved(phone)
        doc = stored_document(live_server, url)
        assert [c["id"] for c in doc["buildings"]] == ["ferme", "forge"]
        assert (doc["players"][0]["segments"], doc["players"][1]["buildings"]) == (1, {"forge": 2})
        show_player(phone, 1)
        expect(phone.locator('[name="players-1-built-1"]')).to_have_value("2")
    finally:
        context.close()
