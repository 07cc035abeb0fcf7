"""The "Joueurs" page on a phone (issue 32): a player renamed and two seats swapped after the
start; the results and the sheet follow, and a phone whose page was rendered before is told to
reload instead of saving on a seat that is now someone else's."""

from __future__ import annotations

import io
import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from browser_helpers import (
    check_layout,
    new_game,
    saved,
    screenshot,
    second_phone,
    show_player,
    show_step,
    stored_document,
)

pytestmark = pytest.mark.browser


def test_rename_and_swap_two_seats_then_results_and_sheet_follow(phone, browser, live_server):
    url = new_game(phone, "revive", "base", ["Alice", "Bob"])
    show_player(phone, 0)
    phone.fill('[name="players-0-track"]', "40")
    saved(phone)
    show_player(phone, 1)
    phone.fill('[name="players-1-track"]', "12")
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)  # another phone, its page rendered before the change of seats
        show_step(phone, "table")  # the players' link is on the table's step, beside the table screen's
        phone.get_by_role("link", name="Joueurs", exact=True).click()
        phone.wait_for_url(re.compile(r"/joueurs$"))
        check_layout(phone)
        phone.fill("#players-0-name", "Zoé")
        phone.select_option("#players-0-place", "2")
        phone.select_option("#players-1-place", "1")
        screenshot(phone, "players-rename-swap")
        phone.get_by_role("button", name="Enregistrer les joueurs").click()
        phone.wait_for_url(url)
        expect(phone.get_by_text("Joueurs enregistrés.")).to_be_visible()
        doc = stored_document(live_server, url)
        assert [(p["name"], p.get("track")) for p in doc["players"]] == [("Bob", 12), ("Zoé", 40)]

        # the other phone types on its seat 1 (Alice's when it was rendered, Bob's now): refused
        show_player(other, 0)
        other.fill('[name="players-0-track"]', "99")
        notice = other.locator("#play-notice")
        expect(notice).to_contain_text("Les joueurs ont changé sur un autre téléphone : rechargez la page.")
        assert stored_document(live_server, url) == doc
        other.get_by_role("button", name="Recharger la page").click()
        # after the reload it types on the new seats, with nothing of the old draft
        expect(other.get_by_role("button", name="Recharger la page")).to_have_count(0)
        expect(other.locator('[name="players-0-track"]')).to_have_value("12")
    finally:
        context.close()

    phone.goto(url + "resultats")
    body = phone.locator("main").inner_text()
    assert "Zoé" in body and "Alice" not in body
    check_layout(phone)
    pdf = phone.request.get(url + "sheet.pdf").body()
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Zoé" in text and "Alice" not in text
    assert text.index("Bob") < text.index("Zoé")  # the sheet's columns in the new seat order


def test_the_players_page_passes_axe_with_and_without_its_messages(phone, english_phone):
    from test_browser_axe import violations

    found = {}
    for language, page, start, save in (("fr", phone, "Commencer la saisie", "Enregistrer les joueurs"),
                                        ("en", english_phone, "Start entering", "Save the players")):
        page.goto(f"{page.base_url}/nouvelle?game=rebirth&variant=scotland")
        page.fill("#players-0-name", "Maëlle")
        page.fill("#players-1-name", "Yanis")
        page.get_by_role("button", name=start).click()
        page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
        page.goto(page.url + "joueurs")
        found[f"{language} page"] = violations(page)
        page.fill("#new_name", "maëlle")  # a name taken: its message beside the field
        page.get_by_role("button", name=save).click()
        expect(page.locator("#e-new_name")).not_to_be_empty()
        check_layout(page)
        found[f"{language} refused"] = violations(page)
    assert found == {k: [] for k in found}, found
