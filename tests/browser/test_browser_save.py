"""Saving at the table, on a phone (headless Chromium, 390×844): two phones on one game, reloads and
double taps that must not look like another phone, the Enter key, one game per new-game form, a
rule not met yet that must not stop the other fields from saving."""

from __future__ import annotations

import contextlib
import re
from datetime import datetime, timedelta
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from browser_helpers import (
    check_layout,
    choose,
    new_game,
    saved,
    second_phone,
    settled,
    show_player,
    stored_document,
)

pytestmark = pytest.mark.browser
NAMES = ["Éloïse", "Jules"]


@contextlib.contextmanager
def behind(phone, browser, live_server):
    """Two phones on one game, B behind: Jules's ports saved at 1, B opened, then A saves 4 (B's page
    still shows 1). Yields (url, B's context, B's page); B is closed after."""
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 1)
    phone.fill('[name="players-1-ports"]', "1")
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        phone.fill('[name="players-1-ports"]', "4")
        saved(phone)
        yield url, context, other
    finally:
        context.close()


def test_the_issue_two_phones_never_lose_an_edit(phone, browser, live_server):
    """A sets Éloïse's castles to 3; B, opened before, changes only Jules's ports: nothing is undone.
    Then both change Jules's ports: B sees A's value (not the old one), applies its own, and Éloïse
    keeps her 3 castles."""
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    phone.fill('[name="players-0-castles"]', "2")
    show_player(phone, 1)
    phone.fill('[name="players-1-ports"]', "1")
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(phone, 0)
        phone.fill('[name="players-0-castles"]', "3")
        saved(phone)
        show_player(other, 1)
        other.fill('[name="players-1-ports"]', "4")
        saved(other)
        expect(other.locator('[name="players-0-castles"]')).to_have_value("3")  # taken in
        assert other.locator("#play-notice").is_hidden()
        players = stored_document(live_server, url)["players"]
        assert players[0]["castles"] == 3 and players[1]["ports"] == 4

        # Then both change Jules's ports. A (whose screen still shows 1) is told B's 4, and applies 5.
        show_player(phone, 1)
        phone.fill('[name="players-1-ports"]', "5")
        phone.locator("#play-notice").wait_for(state="visible")
        expect(phone.locator("#play-notice")).to_be_in_viewport()  # brought into view: its buttons
        assert phone.locator("#t-players-1-ports").inner_text() == "Enregistré sur l'autre appareil : 4"
        assert phone.locator(".theirs").count() == 1
        phone.get_by_role("button", name="Appliquer mes saisies").click()
        saved(phone)
        other.fill('[name="players-1-ports"]', "6")  # B, from its 4: A wrote 5 meanwhile
        notice = other.locator("#play-notice")
        notice.wait_for(state="visible")
        assert other.locator("#t-players-1-ports").inner_text() == "Enregistré sur l'autre appareil : 5"
        assert other.locator(".theirs").count() == 1
        other.get_by_role("button", name="Appliquer mes saisies").click()
        saved(other)
        players = stored_document(live_server, url)["players"]
        assert players[0]["castles"] == 3 and players[1]["ports"] == 6
        other.reload()
        assert other.locator('[name="players-0-castles"]').input_value() == "3"
        assert other.locator("#play-notice").is_hidden()
    finally:
        context.close()


def test_a_phone_back_to_the_front_shows_what_the_other_saved(phone, browser, live_server):
    """B lies on the table, its screen off, while A enters Jules's ports; B woken up (the page shown
    again) shows A's value and the new totals before its player touches anything, then saves its
    own field with no conflict. Nothing polls: the catch-up comes with the page's return."""
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    phone.fill('[name="players-0-castles"]', "2")
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(phone, 1)
        phone.fill('[name="players-1-ports"]', "4")
        saved(phone)
        jules = phone.locator('[data-seat-total="1"]').first.inner_text()
        with other.expect_response(re.compile(r"/state\?version=")) as asked:
            other.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the screen back on
        assert asked.value.status == 200
        expect(other.locator("#save-state")).to_have_text("Mis à jour avec les saisies d'un autre appareil")
        expect(other.locator('[name="players-1-ports"]')).to_have_value("4")
        expect(other.locator('[data-seat-total="1"]').first).to_have_text(jules)
        assert other.locator("#play-notice").is_hidden()
        check_layout(other)
        show_player(other, 0)
        other.fill('[name="players-0-track"]', "31")
        saved(other)
        assert other.locator(".theirs").count() == 0
        players = stored_document(live_server, url)["players"]
        assert (players[0]["castles"], players[0]["track"], players[1]["ports"]) == (2, 31, 4)
        # Back again with nothing new: nothing changes on screen, the status stays "Enregistré".
        with other.expect_response(re.compile(r"/state\?version=")) as asked:
            other.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        assert asked.value.status == 204
        saved(other)
    finally:
        context.close()


def test_back_to_the_front_never_replaces_what_this_phone_typed(phone, browser, live_server):
    """B typed Jules's ports with no network (kept on the phone) while A saved another value there:
    the page back to the front keeps B's entry (no catch-up while this phone holds changes of its
    own); the network back, B's save meets A's value as a conflict for the player to settle."""
    with behind(phone, browser, live_server) as (url, context, other):
        context.set_offline(True)
        show_player(other, 1)
        other.fill('[name="players-1-ports"]', "6")
        expect(other.locator("#save-state")).to_contain_text("Pas de réseau")
        asked = []
        other.on("request", lambda request: asked.append(request.url) if "/state" in request.url else None)
        other.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        other.evaluate("window.dispatchEvent(new Event('focus'))")
        assert asked == []  # nothing asked: this phone's own change goes first, through a save
        expect(other.locator('[name="players-1-ports"]')).to_have_value("6")
        context.set_offline(False)
        other.evaluate("window.dispatchEvent(new Event('online'))")
        expect(other.locator("#t-players-1-ports")).to_have_text("Enregistré sur l'autre appareil : 4")
        expect(other.locator('[name="players-1-ports"]')).to_have_value("6")
        assert stored_document(live_server, url)["players"][1]["ports"] == 4  # nothing settled yet


def test_a_conflict_on_a_step_left_behind_is_named_and_must_be_chosen(phone, browser, live_server):
    """QA: B types Jules's ports (A saved another value there) and goes straight on to Éloïse's step.
    The notice names the field for a player, with A's value, and links to it on its hidden step;
    "Voir les résultats" waits for the player's choice instead of settling it for them."""
    with behind(phone, browser, live_server) as (url, context, other):
        show_player(other, 1)
        other.fill('[name="players-1-ports"]', "6")
        show_player(other, 0)  # on to the next player before the save's answer
        notice = other.locator("#play-notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("Un autre appareil a modifié les mêmes champs")
        link = notice.get_by_role("link", name="Jules · Ports")
        expect(notice.locator(".conflict-fields li")).to_have_text(
            "Jules · Ports — Enregistré sur l'autre appareil : 4")
        assert other.locator('[name="players-1-ports"]').is_hidden()  # on Jules's step
        check_layout(other)
        other.get_by_role("button", name="Voir les résultats").click()
        expect(other.locator("#save-state")).to_have_text(
            "Choisissez d'abord : vos saisies ou celles de l'autre appareil")
        assert other.url == url and stored_document(live_server, url)["players"][1]["ports"] == 4
        link.click()
        field = other.locator('[name="players-1-ports"]')
        expect(field).to_be_visible()
        expect(field).to_have_value("6")
        expect(other.locator("#t-players-1-ports")).to_have_text("Enregistré sur l'autre appareil : 4")
        other.get_by_role("button", name="Reprendre ses valeurs").click()
        expect(field).to_have_value("4")
        expect(notice).to_be_hidden()
        other.get_by_role("button", name="Voir les résultats").click()
        other.wait_for_url(re.compile(r"/resultats$"))
        assert stored_document(live_server, url)["players"][1]["ports"] == 4


def test_the_entry_link_for_a_second_phone_is_on_the_page(phone, browser, live_server):
    """QA: nothing told a table how to bring a second phone in (the only link offered was the
    read-only one). The edit page gives its own link, folded, with a copy button; opened on another
    phone it is the same game, saving."""
    url = new_game(phone, "rebirth", "scotland", NAMES)
    share = phone.locator("details.share-edit")
    share.locator("summary").click()
    link = share.locator("#edit-url")
    expect(link).to_be_visible()
    assert link.input_value() == url
    expect(share.get_by_role("button", name="Copier")).to_be_visible()
    check_layout(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(link.input_value())
        show_player(other, 0)
        other.fill('[name="players-0-castles"]', "2")
        saved(other)
        assert stored_document(live_server, url)["players"][0]["castles"] == 2
    finally:
        context.close()


def test_voir_les_resultats_right_after_typing_into_a_conflict(phone, browser, live_server):
    """QA: B typed Jules's ports (A had saved another value) and tapped "Voir les résultats" within
    the autosave's delay: the whole form went, and came back as the no-JS conflict page, whose advice
    (reload) was wrong. Now the waiting change goes first; its conflict shows the choices, the tap
    is dropped (no jump to the results once the player chooses)."""
    with behind(phone, browser, live_server) as (url, context, other):
        show_player(other, 1)
        other.fill('[name="players-1-ports"]', "6")
        other.get_by_role("button", name="Voir les résultats").click()  # at once
        notice = other.locator("#play-notice")
        expect(notice.get_by_role("button", name="Appliquer mes saisies")).to_be_visible()
        expect(notice).not_to_contain_text("rechargez")
        assert other.url == url
        notice.get_by_role("button", name="Appliquer mes saisies").click()
        saved(other)
        settled(other)
        assert other.url == url  # the dropped tap does not come back
        assert stored_document(live_server, url)["players"][1]["ports"] == 6


def test_a_conflict_page_from_a_full_submit_offers_the_same_choices(phone, browser, live_server):
    """Another phone saved between this page's last autosave and a full submit: the page the server
    sends back holds the conflict; with JavaScript it offers the two buttons and the field's link."""
    with behind(phone, browser, live_server) as (url, context, other):
        # B's full submit with its old base, as if the autosave had answered just before A's save
        other.evaluate("""() => { const f = document.getElementById('end-state');
            f.querySelector('[name="players-1-ports"]').value = '6'; f.submit(); }""")
        other.wait_for_load_state()
        notice = other.locator("#play-notice")
        expect(notice.get_by_role("button", name="Reprendre ses valeurs")).to_be_visible()
        expect(notice).to_contain_text("Un autre appareil a modifié les mêmes champs")
        expect(notice).not_to_contain_text("rechargez")
        expect(notice.get_by_role("link", name="Jules · Ports")).to_have_count(1)
        check_layout(other)
        other.get_by_role("button", name="Enregistrer").first.click(force=True)
        expect(other.locator("#save-state")).to_have_text(
            "Choisissez d'abord : vos saisies ou celles de l'autre appareil")
        notice.get_by_role("button", name="Reprendre ses valeurs").click()
        field = other.locator('[name="players-1-ports"]')
        expect(field).to_have_value("4")
        expect(notice).to_be_hidden()
        assert stored_document(live_server, url)["players"][1]["ports"] == 4


def test_a_refused_value_keeps_its_message_when_the_page_comes_back(phone, live_server):
    """QA: a value refused (not stored) lost its message when the page came back to the front, and
    looked saved. No catch-up while the refusal stands."""
    new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    phone.fill('[name="players-0-castles"]', "abc")
    expect(phone.locator("#save-state")).to_have_text("Non enregistré : à corriger")
    message = phone.locator("#e-players-0-castles")
    expect(message).not_to_have_text("")
    asked = []
    phone.on("request", lambda r: asked.append(r.url) if "/state" in r.url else None)
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    settled(phone)  # a catch-up would be "asking" until its answer: none was sent
    assert asked == []
    expect(message).not_to_have_text("")
    expect(phone.locator("#save-state")).to_have_text("Non enregistré : à corriger")


def test_a_conflict_on_the_shared_artifact_card_lists_the_card_once(phone, browser, live_server):
    """QA: Revive with one artifact card for the table: the page copies it to every player's hidden
    card; a conflict on it listed those copies too, as links to fields nobody can see."""
    url = new_game(phone, "revive", "abyss", ["Ana", "Ben", "Chloé"])
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        phone.fill('[name="card-0-points"]', "2")
        saved(phone)
        other.fill('[name="card-0-points"]', "3")
        notice = other.locator("#play-notice")
        expect(notice.get_by_role("button", name="Appliquer mes saisies")).to_be_visible()
        items = notice.locator(".conflict-fields li")
        expect(items).to_have_count(1)
        link = items.first.get_by_role("link")
        assert link.is_visible() and other.locator(link.get_attribute("href")).is_visible()
    finally:
        context.close()


def test_enregistrer_right_after_typing_comes_back_on_the_same_player(phone, live_server):
    """QA: typed on Jules's step, "Enregistrer" at once: the value is saved and the page comes back
    on Jules's step (it came back on the first step, scrolled to the buttons)."""
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 1)
    phone.fill('[name="players-1-ports"]', "3")
    phone.get_by_role("button", name="Enregistrer").click()  # within the autosave's delay
    phone.wait_for_url(re.compile(r"#f-players-1-ports$"))
    expect(phone.locator('[name="players-1-ports"]')).to_be_visible()
    expect(phone.locator('[name="players-1-ports"]')).to_have_value("3")
    assert stored_document(live_server, url)["players"][1]["ports"] == 3


def test_voir_les_resultats_offline_tries_once_and_keeps_the_entry(phone, live_server):
    """QA: offline, a tap on "Voir les résultats" after typing retried at once, hundreds of times a
    second. One attempt, the offline status; the entry stays on the phone and goes once online."""
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    saves = []
    phone.on("request", lambda r: saves.append(r.url) if r.url.endswith("/save") else None)
    phone.context.set_offline(True)
    try:
        phone.fill('[name="players-0-track"]', "9")
        phone.get_by_role("button", name="Voir les résultats").click()
        expect(phone.locator("#save-state")).to_have_text("Pas de réseau : saisies gardées sur ce téléphone")
        # the failed attempt is over, the next one is due in 10 s: nothing else was sent meanwhile
        expect(phone.locator("form[data-save-queue]")).to_have_attribute("data-save-queue", "waiting")
        assert len(saves) <= 2, len(saves)
        expect(phone.locator('[name="players-0-track"]')).to_have_value("9")
    finally:
        phone.context.set_offline(False)
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    saved(phone)
    assert urlparse(phone.url).path == urlparse(url).path  # the tap was not kept for later
    assert stored_document(live_server, url)["players"][0]["track"] == 9


def test_reload_right_after_typing_is_no_conflict(phone, live_server):
    url = new_game(phone, "rebirth", "scotland", NAMES)
    for value in ("12", "13", "14"):
        show_player(phone, 0)
        phone.fill('[name="players-0-track"]', value)
        phone.reload()  # within the autosave's 0.7 s: the draft comes back and is sent
        saved(phone)
        assert phone.locator(".theirs").count() == 0
        assert "Quelqu'un" not in phone.locator("#play-notice").inner_text()
        assert phone.locator('[name="players-0-track"]').input_value() == value
    assert stored_document(live_server, url)["players"][0]["track"] == 14


def slow(route) -> None:
    """A POST whose answer comes back a little late, as on a table's Wi-Fi: the server has it, and
    the player has time for a second tap."""
    import time

    response = route.fetch(max_redirects=0)
    time.sleep(0.4)
    route.fulfill(response=response)


def test_two_taps_on_voir_les_resultats(phone, live_server):
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    phone.fill('[name="players-0-track"]', "20")
    show_player(phone, 1)
    phone.fill('[name="players-1-track"]', "11")
    # Two taps, the second while the first is on its way to the server.
    phone.route("**/g/*/", lambda route: slow(route) if route.request.method == "POST"
                else route.continue_())
    phone.evaluate("""() => {
      const button = document.querySelector('button[name=action][value=finish]');
      button.click();
      setTimeout(() => button.click(), 150);
    }""")
    expect(phone).to_have_url(re.compile(r"/resultats$"))  # the second tap's page: no conflict
    assert phone.locator("h1.winner").inner_text() == "Éloïse gagne"
    phone.goto(url)
    assert phone.locator(".theirs").count() == 0 and phone.locator("#play-notice").is_hidden()


def test_enter_moves_to_the_next_field(phone, live_server):
    phone.goto(f"{phone.base_url}/nouvelle?game=rebirth&variant=scotland")
    phone.fill("#players-0-name", "Éloïse")
    phone.press("#players-0-name", "Enter")
    expect(phone.locator("#players-1-name")).to_be_focused()  # not submitted after the first name
    assert urlparse(phone.url).path == "/nouvelle"
    phone.keyboard.type("Jules")
    phone.keyboard.press("Enter")
    expect(phone.locator("#players-2-name")).to_be_focused()
    phone.keyboard.press("Enter")  # a blank optional seat: the table is complete, the game starts
    phone.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    # The score form: Enter never adds a tile; it goes on, and the last field shows the results.
    # Enter on a step's last field goes on to the next step (the first player's), cursor in its
    # first field: the table's last field to type is the city's size (tiles are taps on its pad).
    phone.fill('[name="cities-0-size"]', "2")
    phone.press('[name="cities-0-size"]', "Enter")
    assert phone.locator('[name^="cities-0-tiles-1"]').count() == 0
    assert phone.locator('[name^="cities-1"]').count() == 0
    focused = phone.evaluate("document.activeElement.name")
    assert focused and focused != "cities-0-size"
    expect(phone.locator("#joueur-1")).to_be_visible()
    expect(phone.locator('[name="players-0-track"]')).to_be_focused()
    show_player(phone, 1)
    last = phone.locator("#end-state input[type=text]:visible").last
    last.fill("3")
    last.press("Enter")
    phone.wait_for_url(re.compile(r"/resultats$"))


def test_double_tap_on_start_makes_one_game(phone, live_server):
    from companion.extensions import db
    from companion.storage.models import GameRecord

    with live_server.app.app_context():
        before = db.session.query(GameRecord).count()
    phone.goto(f"{phone.base_url}/nouvelle?game=revive&variant=base")
    phone.fill("#players-0-name", "Éloïse")
    phone.fill("#players-1-name", "Jules")
    phone.get_by_role("button", name="Commencer la saisie").dblclick()
    # the second tap's submit may abort the first's navigation (the browser's own doing): what counts
    # is the page the phone lands on, polled, not the first navigation's outcome
    expect(phone).to_have_url(re.compile(r"/g/[\w-]+/$"))
    phone.wait_for_load_state()
    first = phone.url
    phone.go_back()  # Back, then submit again (the names typed again if the page came back blank)
    if not phone.locator("#players-0-name").input_value():
        phone.fill("#players-0-name", "Éloïse")
        phone.fill("#players-1-name", "Jules")
    phone.get_by_role("button", name="Commencer la saisie").click()
    phone.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    assert phone.url == first
    with live_server.app.app_context():
        assert db.session.query(GameRecord).count() == before + 1


def test_holder_before_castles_still_saves_everything_else(phone, live_server):
    url = new_game(phone, "rebirth", "ireland", NAMES)
    choose(phone, "blarney", "Jules")  # the holder first, castles not typed yet
    expect(phone.locator("#save-state")).to_contain_text("Enregistré ✓")
    expect(phone.locator("#e-blarney")).to_contain_text("Jules tient le château de Blarney")
    expect(phone.locator("#e-players-1-castles")).to_contain_text("au moins 1")
    show_player(phone, 0)
    phone.fill('[name="players-0-track"]', "30")
    expect(phone.locator("#save-state")).to_contain_text("Enregistré ✓")
    document = stored_document(live_server, url)
    assert document["blarney"] == "Jules" and document["players"][0]["track"] == 30
    # The results wait: refused with a summary linking to both fields.
    phone.get_by_role("button", name="Voir les résultats").click()
    phone.wait_for_load_state()
    summary = phone.locator("#error-summary")
    expect(summary).to_be_visible()
    links = summary.locator("a")
    assert {links.nth(k).get_attribute("href") for k in range(links.count())} == {
        "#f-blarney", "#f-players-1-castles"}
    check_layout(phone)
    links.nth(1 if links.nth(0).get_attribute("href") == "#f-blarney" else 0).click()  # to Jules's step
    expect(phone.locator('[name="players-1-castles"]')).to_be_visible()
    phone.fill('[name="players-1-castles"]', "1")
    saved(phone)
    assert phone.locator("#e-blarney").inner_text() == ""
    phone.get_by_role("button", name="Voir les résultats").click()
    phone.wait_for_url(re.compile(r"/resultats$"))


def test_without_javascript_enter_saves_and_comes_back_to_the_field(phone_without_js, live_server):
    """No JS: Enter in a field is "Enregistrer" (not a list's "Ajouter une tuile"), and the page comes
    back at the field just typed, not at the top of a long page."""
    page = phone_without_js
    url = new_game(page, "rebirth", "scotland", NAMES)
    page.fill('[name="players-1-ports"]', "3")
    page.press('[name="players-1-ports"]', "Enter")
    page.wait_for_url(re.compile(r"#f-players-1-ports$"))
    assert page.locator('[name^="cities-0-tiles-1"]').count() == 0  # no tile added
    assert stored_document(live_server, url)["players"][1]["ports"] == 3
    assert page.evaluate("window.scrollY") > 844  # at the field, well down the page


def test_the_autosave_carries_only_the_fields_typed(phone, live_server):
    """What goes over the network: the changed fields, each with the value it was based on."""
    import json
    from urllib.parse import parse_qs

    new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    phone.fill('[name="players-0-castles"]', "2")
    saved(phone)
    sent = []
    phone.on("request", lambda r: sent.append(r) if r.url.endswith("/save") else None)
    show_player(phone, 1)
    phone.fill('[name="players-1-ports"]', "4")
    saved(phone)
    body = sent[-1].post_data
    if "form-data" in (sent[-1].headers.get("content-type") or ""):
        changes = json.loads(body.split('name="changes"')[1].split("\r\n\r\n", 1)[1].split("\r\n--")[0])
    else:
        changes = json.loads(parse_qs(body)["changes"][0])
    assert changes == {"players-1-ports": ["", "4"]}
    assert "players-0-castles" not in body


def test_two_phones_each_adding_a_tile_keep_both(phone, browser, live_server):
    url = new_game(phone, "rebirth", "scotland", NAMES)

    def tile(page, who, icons):  # a tap on the city's pad (static/js/rebirth.js): a new tile row
        pad = page.locator("#f-cities-0 [data-tile-pad]")
        pad.locator(f'button[data-player="{who}"][data-influence="{icons}"]').tap()

    phone.fill('[name="cities-0-size"]', "3")
    tile(phone, "Éloïse", "2")
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        tile(phone, "Jules", "1")
        expect(phone.locator('[name="cities-0-tiles-1-player"]')).to_have_value("Jules")
        saved(phone)
        # B has not seen Jules's tile: its own goes in the row after its first Éloïse until the
        # answer (sent at once, a tap) lays Jules's before it; only what follows the answer is checked
        tile(other, "Éloïse", "3")
        saved(other)
        assert other.locator("#play-notice").is_hidden()  # no conflict: both tiles are kept
        tiles = stored_document(live_server, url)["cities"][0]["tiles"]
        assert tiles == [{"player": "Éloïse", "influence": 2}, {"player": "Jules", "influence": 1},
                         {"player": "Éloïse", "influence": 3}]
        # B's screen shows the three tiles, Jules's where A put it and B's own after it.
        expect(other.locator('[name="cities-0-tiles-1-player"]')).to_have_value("Jules")
        expect(other.locator('[name="cities-0-tiles-2-player"]')).to_have_value("Éloïse")
        expect(other.locator('[name="cities-0-tiles-2-influence"]')).to_have_value("3")
        settled(other)  # nothing left to send: no save undoes A's tile
        assert stored_document(live_server, url)["cities"][0]["tiles"] == tiles
    finally:
        context.close()


# what phone A types for Ugo, and phone B for Wes (its track, and a field of a list where the game has
# one), per game: the issue's story of a second phone opened before anything was saved
FIRST_SAVE = {"rebirth": ("players-0-track", "30"), "reterra": ("players-0-segments", "2"),
              "revive": ("players-0-track", "30")}
SECOND_PHONE = {"rebirth": {"players-1-track": "12", "players-1-ports": "1"},
                "reterra": {"players-1-segments": "1", "players-1-relics": "3"},
                "revive": {"players-1-track": "40", "players-1-artifacts-1": "1"}}


@pytest.mark.parametrize(("game", "variant"), [("rebirth", "scotland"), ("rebirth", "ireland"),
                                               ("reterra", "base"), ("revive", "base"), ("revive", "abyss")])
def test_a_second_phone_opened_before_the_first_save_saves_everything(phone, browser, live_server,
                                                                      game, variant):
    """Phone B opens the entry link before anything is saved; A saves Ugo's field; B types Wes's: every
    one of B's entries is stored, no conflict (Revive's artifact counts nobody typed are stored as 0,
    the same value as B's blank)."""
    url = new_game(phone, game, variant, ["Ugo", "Wes"])
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        name, value = FIRST_SAVE[game]
        show_player(phone, 0)
        phone.fill(f'[name="{name}"]', value)
        saved(phone)
        show_player(other, 1)
        for field, typed in SECOND_PHONE[game].items():
            other.fill(f'[name="{field}"]', typed)
        saved(other)
        assert other.locator(".theirs").count() == 0
        assert other.locator("#play-notice").is_hidden()
        page = stored_document(live_server, url)
        fields = {name: value} | SECOND_PHONE[game]
        for field, typed in fields.items():
            _, seat, *path = field.split("-")
            held = page["players"][int(seat)]
            for part in path:
                held = held[int(part)] if part.isdigit() else held[part]
            assert str(held) == typed, field
    finally:
        context.close()


def test_a_full_disk_is_said_and_the_entry_kept(phone, live_server, monkeypatch):
    """The server has no space left when Jules's track is saved: the phone shows the server's message
    as it is, keeps the typed value (in its field, and through a reload), and saves it once the server
    can write again."""
    import sqlite3

    import sqlalchemy.exc

    from companion.storage import store

    def full(*args, **kwargs):
        full = sqlite3.OperationalError("database or disk is full")
        raise sqlalchemy.exc.OperationalError("UPDATE games", {}, full)

    url = new_game(phone, "rebirth", "scotland", NAMES)
    monkeypatch.setattr(store, "save", full)
    show_player(phone, 1)
    phone.fill('[name="players-1-track"]', "27")
    notice = phone.locator("#play-notice")
    expect(notice).to_have_text("Le serveur n'a plus de place : votre saisie est gardée sur ce téléphone.")
    expect(phone.locator("#save-state")).to_have_text("Non enregistré")
    expect(phone.locator('[name="players-1-track"]')).to_have_value("27")
    phone.reload()  # the draft puts it back, and sends it: the same answer
    expect(notice).to_have_text("Le serveur n'a plus de place : votre saisie est gardée sur ce téléphone.")
    expect(phone.locator('[name="players-1-track"]')).to_have_value("27")
    assert "track" not in stored_document(live_server, url)["players"][1]
    monkeypatch.undo()
    phone.evaluate("window.dispatchEvent(new Event('online'))")  # or the retry, 10 s later
    saved(phone)
    assert stored_document(live_server, url)["players"][1]["track"] == 27


def test_a_game_deleted_meanwhile_is_said_and_the_entry_kept(phone, live_server):
    """Another device deleted the game: the phone says so rather than "L'enregistrement a échoué (404)",
    and the typed value stays in its field."""
    from companion.extensions import db
    from companion.storage.models import GameRecord

    url = new_game(phone, "rebirth", "scotland", NAMES)
    token = re.search(r"/g/([\w-]+)/", url).group(1)
    with live_server.app.app_context():
        db.session.execute(db.delete(GameRecord).where(GameRecord.edit_token == token))
        db.session.commit()
    show_player(phone, 0)
    phone.fill('[name="players-0-track"]', "9")
    expect(phone.locator("#play-notice")).to_contain_text("Cette partie n'existe plus")
    expect(phone.locator('[name="players-0-track"]')).to_have_value("9")


def test_a_typo_does_not_hold_back_the_other_values(phone, browser, live_server):
    """Issue 29, as a new user tried it on Revive: the score track 88, the machine progress 12, then 9
    crystals (0 to 3 allowed). 88 and 12 are stored and reach a second phone; the 9 stays in its field
    with its message, the page says "Enregistré, sauf 1 valeur à corriger", and once it is corrected
    everything is saved."""
    url = new_game(phone, "revive", "base", NAMES)
    show_player(phone, 0)
    phone.fill('[name="players-0-track"]', "88")
    phone.fill('[name="players-0-progress"]', "12")
    phone.fill('[name="players-0-resources-crystals"]', "9")
    expect(phone.locator("#save-state")).to_have_text("Enregistré, sauf 1 valeur à corriger")
    expect(phone.locator("#e-players-0-resources-crystals")).to_have_text("doit être entre 0 et 3")
    expect(phone.locator('[name="players-0-resources-crystals"]')).to_have_value("9")
    expect(phone.locator('[data-seat-total="0"]').first).to_have_text("100")  # 88 + 12, not 0
    summary = phone.locator("#error-summary")  # the value to correct, a link to its field
    expect(summary.get_by_role("link", name="Éloïse · Ressources restantes · Cristaux")).to_be_visible()
    check_layout(phone)
    # leaving the field (its change event) sends nothing new: the state stays what it was
    phone.locator('[name="players-0-resources-crystals"]').dispatch_event("change")
    expect(phone.locator("#save-state")).to_have_text("Modifications en attente…")
    expect(phone.locator("#save-state")).to_have_text("Enregistré, sauf 1 valeur à corriger")
    expect(phone.locator('[data-seat-total="0"]').first).to_have_text("100")
    player = stored_document(live_server, url)["players"][0]
    assert (player["track"], player["progress"]) == (88, 12) and "resources" not in player
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(other, 0)
        expect(other.locator('[name="players-0-track"]')).to_have_value("88")
        expect(other.locator('[name="players-0-progress"]')).to_have_value("12")
        expect(other.locator('[name="players-0-resources-crystals"]')).to_have_value("")
        # the second phone enters Jules's track; the first corrects its crystals: both kept
        show_player(other, 1)
        other.fill('[name="players-1-track"]', "40")
        saved(other)
        phone.fill('[name="players-0-resources-crystals"]', "3")
        saved(phone)
        expect(phone.locator("#e-players-0-resources-crystals")).to_have_text("")
        expect(phone.locator('[name="players-1-track"]')).to_have_value("40")
        players = stored_document(live_server, url)["players"]
        assert players[0]["resources"] == {"crystals": 3} and players[1]["track"] == 40
    finally:
        context.close()


def test_a_draft_kept_before_the_upgrade_is_sent_and_kept_but_its_typo(phone, live_server):
    """A draft a phone kept in its storage before this release (`{base, values}`, as autosave.js has
    always written it) with a typo in it: restored on the page and sent; its valid values are stored,
    the typo stays in its field with its message."""
    url = new_game(phone, "revive", "base", NAMES)
    phone.evaluate("""() => {
        const f = document.getElementById('end-state');
        localStorage.setItem('companion-draft:' + f.dataset.draft, JSON.stringify({base: {}, values: {
            'players-0-track': '88', 'players-0-progress': '12', 'players-0-resources-crystals': '9'}}));
    }""")
    phone.reload()
    expect(phone.locator("#save-state")).to_have_text("Enregistré, sauf 1 valeur à corriger")
    expect(phone.locator('[name="players-0-resources-crystals"]')).to_have_value("9")
    expect(phone.locator("#e-players-0-resources-crystals")).to_have_text("doit être entre 0 et 3")
    player = stored_document(live_server, url)["players"][0]
    assert (player["track"], player["progress"]) == (88, 12) and "resources" not in player


def test_a_tap_is_sent_at_once_and_typing_after_a_short_pause(phone, live_server):
    """Totals follow a tap at once (issue 33): a stepper's + sends its save without the autosave's
    delay, and the answer brings the total; typed digits wait for it, so a number is sent whole. The
    page's clock is held still: what is sent is told by the page's own timers, never by how fast
    this machine is."""
    new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    settled(phone)
    sent = []
    phone.on("request", lambda r: sent.append(r.url) if r.url.endswith("/save") else None)
    queue = "document.querySelector('form[data-save-queue]').dataset.saveQueue"
    phone.clock.install()
    phone.clock.pause_at(datetime.now() + timedelta(hours=1))  # no timer fires but by run_for
    phone.locator('#f-players-0-ports button[data-step="1"]').tap()  # the stepper's +
    assert phone.evaluate(queue) != "waiting"  # on its way, no timer run: sent at once
    saved(phone)
    assert len(sent) == 1
    expect(phone.locator(".steps-list .seat-total").first).to_have_text("1")  # the answer's total
    phone.locator('[name="players-0-track"]').tap()
    phone.keyboard.type("4")
    phone.clock.run_for(1)
    assert phone.evaluate(queue) == "waiting"  # a digit waits for the next one
    phone.keyboard.type("2")
    phone.clock.run_for(2000)
    saved(phone)
    assert len(sent) == 2  # "42" sent once, whole
    expect(phone.locator(".steps-list .seat-total").first).to_have_text("43")


def test_a_box_tapped_while_a_save_is_on_its_way_is_sent_by_its_answer(phone, live_server):
    """One save at a time: taps made while one is on its way are not lost, and go with its answer
    (the stored game has every one of them once the page says it is saved)."""
    url = new_game(phone, "rebirth", "scotland", NAMES)
    show_player(phone, 0)
    settled(phone)
    plus = phone.locator('#f-players-0-castles button[data-step="1"]')
    for _ in range(3):
        plus.tap()
    phone.locator('#f-players-0-ports button[data-step="1"]').tap()
    settled(phone)
    saved(phone)
    player = stored_document(live_server, url)["players"][0]
    assert (player["castles"], player["ports"]) == (3, 1)
    expect(phone.locator(".steps-list .seat-total").first).to_have_text("16")

