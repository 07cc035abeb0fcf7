"""A complete number moves the cursor on (issue 32, Revive's taps): a 4-player Revive game entered on a
phone (headless Chromium, 390×844) the new way (no "suivant" after a number that cannot grow, a box
that puts the cursor in its number, a tap on a field further on) and the habitual way (a number, then
"suivant", on every field): every field holds what was typed, the stored game too, and the habitual
"suivant" never skips a field. The line that says so, and its switch."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_helpers import check_layout, new_game, saved, second_phone, show_player, stored_document

pytestmark = pytest.mark.browser

NAMES = ["Maëlle", "Yanis", "Inès", "Jules"]


def player(k: int) -> dict:
    """Field (after players-K-) -> value typed; boxes ticked separately. Zeros left blank."""
    values = {"track": 30 + 7 * k, "progress": 4 + k, "card_bonus-0-cards": 2 + k, "card_bonus-1-cards": 1,
              "great_locations-0": 5, "two_tokens": k % 2, "resources-gears": 2 + k % 3, "resources-books": 1,
              "resources-food": k % 2, "resources-crystals": 3, "artifacts-0": 1, "artifacts-1": k % 2,
              "artifacts-2": 1, "artifact_points": 2 + k, "artifact_card-0-count": 2 + k,
              "artifact_card-1-count": 1, "artifact_card-2-count": k, "machine_progress": 8 + k}
    return {f"players-{k}-{n}": v for n, v in values.items() if v}


BOXES = ["card_bonus-0-unlocked", "card_bonus-1-unlocked"]


def active(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.name || ''")


def step_fields(page) -> list[str]:
    """The typable fields of the step on screen, in the order "suivant" visits them."""
    return page.evaluate("""() => [...document.querySelector('[data-stage]:not([hidden])')
        .querySelectorAll('input')].filter(e => e.matches('input[data-stepper]') && e.offsetParent !== null)
        .map(e => e.name)""")


def the_new_way(page, seat: int, values: dict) -> None:
    """Page order; a box first where its number follows (the box puts the cursor there); "suivant"
    to the very next field unless the cursor moved there by itself; a tap on a field further on."""
    order = step_fields(page)
    moved = None
    for name in [n for n in order if n in values]:
        box = name.replace("-cards", "-unlocked")
        if box != name:
            page.locator(f'label:has(> input[name="{box}"])').tap()
            expect(page.locator(f'[name="{name}"]')).to_be_focused()  # the box put the cursor in its number
            moved = None
        here = active(page)
        if here != name:
            if order.index(name) == order.index(here) + 1 and here != moved:
                page.keyboard.press("Enter")
            else:
                page.locator(f'[name="{name}"]').tap()
        expect(page.locator(f'[name="{name}"]')).to_be_focused()
        page.keyboard.type(str(values[name]))
        after = active(page)
        moved = after if after != name else None


def the_habitual_way(page, seat: int, values: dict) -> None:
    """Every field of the step in turn: its number if it has one, then "suivant" (Enter), as before
    the cursor moved by itself; the boxes after."""
    last = f"players-{seat}-machine_progress"
    for _ in range(40):
        name = active(page)
        assert name.startswith(f"players-{seat}-"), f"the cursor left the step at {name!r}"
        if name in values:
            page.keyboard.type(str(values[name]))
        if name == last:
            break
        page.keyboard.press("Enter")
    for box in BOXES:
        page.locator(f'label:has(> input[name="players-{seat}-{box}"])').tap()


def test_four_players_entered_the_new_way_and_the_habitual_way(phone, live_server):
    url = new_game(phone, "revive", "base", NAMES)
    # the line that says it, above the step, before the first number
    note = phone.locator("#auto-next-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("passe seul au champ suivant")
    phone.locator('[name="card-0-points"]').tap()
    phone.keyboard.type("1")
    phone.keyboard.press("Enter")
    phone.keyboard.type("2")  # 0 to 10: 2 cannot grow, the cursor moves on to the next line's points
    expect(phone.locator('[name="card-2-points"]')).to_be_focused()
    phone.keyboard.type("1")
    check_layout(phone)
    expected = {}
    for seat in range(4):
        phone.get_by_role("button", name=re.compile("^(Joueur|Étape) suivant")).tap()
        expect(phone.locator(f'[name="players-{seat}-track"]')).to_be_focused()
        described = phone.locator(f'[name="players-{seat}-track"]').get_attribute("aria-describedby")
        assert "auto-next-note" in described  # the line is said where the step starts
        values = player(seat)
        expected.update(values)
        if seat % 2:
            the_habitual_way(phone, seat, values)
        else:
            the_new_way(phone, seat, values)
            for box in BOXES:
                expect(phone.locator(f'[name="players-{seat}-{box}"]')).to_be_checked()
        # every field holds what was typed, and only that (a number of a three-colour list nobody
        # typed comes back from the save as 0: a number typed after it reads as itself, not "01")
        for name in step_fields(phone):
            want = expected.get(name, "")
            shown = re.compile(f"^{want}$" if want else "^0?$")
            expect(phone.locator(f'[name="{name}"]')).to_have_value(shown)
    saved(phone)
    doc = stored_document(live_server, url)
    for k, p in enumerate(doc["players"]):
        values = player(k)
        assert p["track"] == values[f"players-{k}-track"]
        assert {key: n for key, n in p["resources"].items() if n} == \
            {key: n for key, n in {"gears": 2 + k % 3, "books": 1, "food": k % 2, "crystals": 3}.items() if n}
        assert [n or 0 for n in p["artifacts"]] == [1, k % 2, 1]
        assert [line.get("count", 0) for line in p["artifact_card"]] == [2 + k, 1, k]
        assert [line.get("points", 0) for line in p["artifact_card"]] == [1, 2, 1]
        assert p["card_bonus"][:2] == [{"unlocked": True, "cards": 2 + k}, {"unlocked": True, "cards": 1}]
        assert p["great_locations"] == [5]
        assert p["machine_progress"] == 8 + k


def test_the_habitual_suivant_after_a_move_skips_no_field_and_the_switch_turns_it_off(phone):
    new_game(phone, "revive", "base", NAMES[:2])
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    gears = phone.locator('[name="players-0-resources-gears"]')
    gears.tap()
    phone.keyboard.type("2")  # 0 to 6: complete
    books = phone.locator('[name="players-0-resources-books"]')
    expect(books).to_be_focused()
    phone.keyboard.press("Enter")  # the habit: taken as done, the cursor stays where it moved
    expect(books).to_be_focused()
    phone.keyboard.type("1")
    expect(books).to_have_value("1")
    expect(phone.locator('[name="players-0-resources-food"]')).to_be_focused()
    phone.keyboard.press("Enter")  # the habit again
    phone.keyboard.press("Enter")  # food left blank: this one moves on
    crystals = phone.locator('[name="players-0-resources-crystals"]')
    expect(crystals).to_be_focused()
    expect(phone.locator('[name="players-0-resources-food"]')).to_have_value("")
    # a number that can still grow stays: 1 in a field of 0 to 20
    phone.locator('[name="players-0-artifacts-0"]').tap()
    phone.keyboard.type("1")
    expect(phone.locator('[name="players-0-artifacts-0"]')).to_be_focused()
    phone.keyboard.type("2")  # 12: 120 is past 20, complete
    expect(phone.locator('[name="players-0-artifacts-1"]')).to_be_focused()
    # a number past the field's max stays where it is, its message comes beside it
    phone.locator('[name="players-0-two_tokens"]').tap()
    phone.keyboard.type("9")
    expect(phone.locator('[name="players-0-two_tokens"]')).to_be_focused()
    phone.keyboard.press("Backspace")
    # the switch: off on this phone, said on the line, kept after a reload
    switch = phone.get_by_role("button", name="Passage automatique")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.tap()
    expect(switch).to_have_attribute("aria-pressed", "false")
    expect(phone.locator("#auto-next-note")).to_contain_text("qu'avec « suivant »")
    phone.locator('[name="players-0-resources-gears"]').tap()
    phone.keyboard.press("Backspace")
    phone.keyboard.type("3")
    expect(phone.locator('[name="players-0-resources-gears"]')).to_be_focused()
    saved(phone)
    phone.reload()
    expect(phone.get_by_role("button", name="Passage automatique")).to_have_attribute("aria-pressed", "false")


def test_a_number_typed_after_the_stored_0_reads_as_itself_on_every_phone(phone, browser, live_server):
    """The table's shared card saved first makes every player's three artifacts 0 (a fixed list's
    blank entry is stored as 0, and the answer shows it): a player typing 3 there sees 3, as the
    server stores it and a second phone shows it, never "03" beside "Enregistré"."""
    url = new_game(phone, "revive", "base", NAMES[:2])
    phone.locator('[name="card-0-points"]').tap()
    phone.keyboard.type("3")
    saved(phone)
    show_player(phone, 1)
    field = phone.locator('[name="players-1-artifacts-2"]')
    expect(field).to_have_value("0")  # what the save stored for a colour nobody typed
    field.tap()
    phone.keyboard.press("End")  # the cursor after the 0, wherever the tap put it
    phone.keyboard.type("3")
    expect(field).to_have_value("3")
    saved(phone)
    assert stored_document(live_server, url)["players"][1]["artifacts"][2] == 3
    phone.reload()
    show_player(phone, 1)
    expect(phone.locator('[name="players-1-artifacts-2"]')).to_have_value("3")
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(other, 1)
        expect(other.locator('[name="players-1-artifacts-2"]')).to_have_value("3")
    finally:
        context.close()
