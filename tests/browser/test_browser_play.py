"""Revive played through the UI as a table would, on a phone (headless Chromium, 390×844)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_helpers import check_layout, fill_revive_player, saved, screenshot, second_phone, show_player
from browser_helpers import new_game as start_game
from document_helpers import load_example

pytestmark = pytest.mark.browser


def new_game(page, variant: str, names: list[str]) -> str:
    return start_game(page, "revive", variant, names)


def totals(page) -> list[str]:
    return page.locator("tr.totals td").all_inner_texts()


def finish(page) -> None:
    page.get_by_role("button", name="Voir les résultats").click()
    page.wait_for_url(re.compile(r"/resultats$"))


def test_revive_abyss_example_played_through(phone):
    example = load_example("revive-abyss.json")
    new_game(phone, "abyss", ["Maëlle", "Yanis"])
    check_layout(phone)
    phone.get_by_label("Une carte par joueur").check()  # each player has their own artifact card
    show_player(phone, 0)
    assert phone.locator('[name="players-0-artifact_card-0-points"]').is_visible()
    for i, player in enumerate(example["players"]):
        fill_revive_player(phone, i, player, card_each=True)
    saved(phone)
    # The running totals follow the autosave, on the seat chips and each player's heading.
    assert phone.locator('.seats [data-seat-total="0"]').inner_text() == "94"
    assert phone.locator('#joueur-2 [data-seat-total="1"]').inner_text() == "83"
    finish(phone)
    assert phone.locator("h1.winner").inner_text() == "Maëlle gagne"
    assert totals(phone) == ["94", "83"]
    # Each line's detail on tap.
    detail = phone.locator("tr[data-key=artifact_card] + tr.detail-row")
    assert not detail.is_visible()
    phone.locator("tr[data-key=artifact_card] summary").tap()
    assert "en tout 3 × 5 × 1 + 1 × 0 × 2 + 2 × 2 × 2 = 23" in detail.inner_text()
    check_layout(phone)
    screenshot(phone, "play-revive-abyss-results")


def test_revive_base_game_with_a_shared_card(phone):
    phone.goto(f"{phone.base_url}/nouvelle?game=revive&variant=base")
    check_layout(phone)
    screenshot(phone, "play-new-game")
    new_game(phone, "base", ["Inès", "Léo", "Zoé"])
    # The shared artifact card: points typed once (1, 2, 3), each player counts their own.
    for j, points in enumerate((1, 2, 3)):
        phone.fill(f'[name="card-{j}-points"]', str(points))
    show_player(phone, 0)
    assert not phone.locator('[name="players-0-artifact_card-0-points"]').is_visible()
    fill_revive_player(phone, 0, {"track": 41, "progress": 5, "card_bonus": [{"unlocked": True, "cards": 4}],
                           "great_locations": [7, 4], "resources": {"gears": 3, "food": 3},
                           "artifacts": [1, 0, 2],
                           "artifact_card": [{"count": 3}, {"count": 1}, {"count": 0}]}, card_each=False)
    # 41 + 5 + 8 + 11 + 1 + (2 × 3 × 1 + 1 × 1 × 2) = 74
    fill_revive_player(phone, 1, {"track": 52, "four_token": True, "two_tokens": 1, "resources": {"books": 5},
                           "artifact_card": [{"count": 2}, {"count": 0}, {"count": 1}]}, card_each=False)
    # 52 + 4 + 2 + 1 + (1 × 2 × 1 + 1 × 1 × 3) = 64
    fill_revive_player(phone, 2, {"track": 60, "progress": 9}, card_each=False)  # 69
    saved(phone)
    check_layout(phone)
    screenshot(phone, "play-revive-base-edit")
    finish(phone)
    assert phone.locator("h1.winner").inner_text() == "Inès gagne"
    assert totals(phone) == ["74", "64", "69"]
    assert phone.locator(".place").all_inner_texts()[1].startswith("2")
    check_layout(phone)
    screenshot(phone, "play-revive-base-results")


def test_tie_settled_by_leftover_resources(phone):
    new_game(phone, "base", ["Alice", "Bob"])
    fill_revive_player(phone, 0, {"track": 30, "resources": {"gears": 4}}, card_each=False)
    fill_revive_player(phone, 1, {"track": 30, "resources": {"books": 2}}, card_each=False)
    finish(phone)
    assert phone.locator("h1.winner").inner_text() == "Alice gagne"
    assert totals(phone) == ["30", "30"]
    # the short answer first, the reasoning one tap below
    assert phone.locator(".ties .tie-short").all_inner_texts() == [
        "Alice gagne, puis Bob : ressources restantes non converties (Alice 4, Bob 2)"]
    phone.locator(".ties summary", has_text="Le détail").tap()
    ties = phone.locator(".ties").inner_text()
    assert "Alice et Bob à égalité (30 points)" in ties
    assert "ressources restantes non converties : Alice 4, Bob 2" in ties
    screenshot(phone, "play-revive-tie-results")
    # The read-only link shows the same results, and nothing to edit.
    share = phone.locator("#share-url").input_value()
    phone.goto(share)
    assert phone.locator("h1.winner").inner_text() == "Alice gagne"
    assert phone.locator("main form, main input").count() == 0
    check_layout(phone)
    screenshot(phone, "play-revive-read-only")
    phone.goto(f"{phone.base_url}/parties")
    assert "Gagnant : Alice" in phone.locator(".history").inner_text()
    check_layout(phone)
    screenshot(phone, "play-history")


def test_bad_value_corrected_after_its_message(phone):
    url = new_game(phone, "base", ["Alice", "Bob"])
    show_player(phone, 0)
    phone.fill('[name="players-0-track"]', "40")
    saved(phone)
    show_player(phone, 1)
    phone.fill('[name="players-1-resources-gears"]', "9")  # at most 6 (V2)
    message = phone.locator("#e-players-1-resources-gears")
    message.wait_for(state="visible")
    assert message.inner_text() == "doit être entre 0 et 6"
    assert "à corriger" in phone.locator("#save-state").inner_text()
    # A reload keeps what was typed (the draft on the phone), the message comes back.
    phone.goto(url)
    assert phone.locator('[name="players-1-resources-gears"]').input_value() == "9"
    show_player(phone, 1)
    message.wait_for(state="visible")
    phone.fill('[name="players-1-resources-gears"]', "6")
    saved(phone)
    assert not message.is_visible()
    finish(phone)
    assert totals(phone) == ["40", "1"]
    screenshot(phone, "play-revive-corrected-results")


def test_two_phones_editing_one_game(phone, browser, live_server):
    url = new_game(phone, "base", ["Alice", "Bob"])
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(phone, 0)
        phone.fill('[name="players-0-track"]', "38")  # phone A saves first
        saved(phone)
        show_player(other, 1)
        other.fill('[name="players-1-track"]', "12")  # phone B, opened before, another field
        saved(other)  # no conflict: B sends only what it changed...
        expect(other.locator('[name="players-0-track"]')).to_have_value("38")  # ...and takes in A's
        # Both change Alice's progress: B is told, with A's value, and keeps its own entry.
        phone.fill('[name="players-0-progress"]', "5")
        saved(phone)
        show_player(other, 0)
        other.fill('[name="players-0-progress"]', "7")
        notice = other.locator("#play-notice")
        notice.wait_for(state="visible")
        assert "Rien n'a été écrasé" in notice.inner_text()
        assert other.locator("#t-players-0-progress").inner_text() == "Enregistré sur l'autre appareil : 5"
        assert other.locator(".theirs").count() == 1  # only the field both changed
        assert other.locator('[name="players-0-progress"]').input_value() == "7"
        # Alice's total: 43 stored, 45 with B's entry; until B chooses, no number (not 38, its last save).
        assert other.locator('.steps-list [data-seat-total="0"]').inner_text() == "\u2013"
        other.get_by_role("button", name="Appliquer mes saisies").click()
        saved(other)
        expect(other.locator('.steps-list [data-seat-total="0"]')).to_have_text("45")
        # Again on Bob's progress, and B takes A's value: the totals are the stored game's.
        show_player(phone, 1)
        phone.fill('[name="players-1-progress"]', "3")
        saved(phone)
        show_player(other, 1)
        other.fill('[name="players-1-progress"]', "4")
        expect(other.locator('.steps-list [data-seat-total="1"]')).to_have_text("\u2013")
        other.get_by_role("button", name="Reprendre ses valeurs").click()
        saved(other)
        assert other.locator('[name="players-1-progress"]').input_value() == "3"
        assert other.locator(".steps-list .seat-total").all_inner_texts() == ["45", "15"]
        phone.goto(url + "resultats")
        assert totals(phone) == ["45", "15"]
    finally:
        context.close()


def test_several_messages_for_one_field_are_set_apart(phone):
    """Two messages about one field read as two: "first · second", not one run-on sentence."""
    start_game(phone, "rebirth", "scotland", ["Alice", "Bob"])
    phone.fill('[name="cities-0-size"]', "4")
    message = phone.locator("#e-cities-0-size")
    expect(message).to_contain_text(" · ")
    parts = message.inner_text().split(" · ")
    assert len(parts) >= 2 and all(part.strip() for part in parts), parts
    assert any("les villes de 4 cases" in part for part in parts), parts
