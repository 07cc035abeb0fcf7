"""Issue 24, "the screen", on a 390×844 phone: the sticky bar is one compact row and leaves the fields
the screen, the tallest step (an Irlande player with every list filled) stays within 3 screens, and a
running total shows "–" while a change waits for the server's answer, never the old number."""

from __future__ import annotations

import re

import pytest
from played import store_games
from playwright.sync_api import expect
from test_browser_rebirth import fill_player

from browser_helpers import check_layout, new_game, saved, screenshot, show_player
from document_helpers import load_example

pytestmark = pytest.mark.browser

SCREENS = 3 * 844

# An Irlande player with every list of the step filled as far as a real table takes it.
IRELAND_FULL = {"track": 61, "ports": 4, "incomplete_icons": 3, "tara_adjacent": 3, "castles": 2,
                "farms": {"agricultural": [5, 3, 2, 1], "energy": [4, 2, 1]},
                "public_missions": [{"points": 9, "doubled": True}, {"points": 6}, {"points": 4},
                                    {"points": 3}],
                "towers": [13, 3, 3],
                "privatized_missions": [{"points": 8, "achieved": True}]}
SCOTLAND_FULL = {"track": 61, "ports": 4, "incomplete_icons": 3, "gifts": 2, "castles": 2,
                 "farms": {"agricultural": [5, 3, 2, 1], "energy": [4, 2, 1]},
                 "missions": [{"points": 9, "achieved": True}, {"points": 6, "achieved": True},
                              {"points": 4}, {"points": 3, "achieved": True}]}

BAR = """() => {
  const bar = document.getElementById('actions');
  const shown = [...bar.querySelectorAll('button, .turn-who, .save-state')]
    .filter(e => e.offsetParent !== null && !e.hidden && e.getClientRects().length)
    .map(e => { const r = e.getBoundingClientRect();
                return {what: e.textContent.trim(), button: e.tagName === 'BUTTON', top: r.top,
                        bottom: r.bottom, left: r.left, right: r.right, height: r.height}; });
  const r = bar.getBoundingClientRect();
  return {height: r.height, top: r.top, shown};
}"""


def one_row(page) -> dict:
    """The sticky bar's parts on one row within 390 px: its buttons side by side, and whose turn and
    the save state (two small lines) beside them, within the buttons' height."""
    bar = page.evaluate(BAR)
    parts = bar["shown"]
    buttons = [p for p in parts if p["button"]]
    assert all(b["height"] >= 44 for b in buttons), buttons
    assert len(buttons) >= 2, bar
    assert len({round(b["top"]) for b in buttons}) == 1, f"buttons on more than one row: {parts}"
    top, bottom = buttons[0]["top"], buttons[0]["bottom"]
    assert all(top - 1 <= p["top"] and p["bottom"] <= bottom + 1 for p in parts), f"more than a row: {parts}"
    assert all(p["right"] <= 390 and p["left"] >= 0 for p in parts), parts
    return bar


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_sticky_bar_is_one_compact_row(phone, language):
    page = phone
    url = new_game(page, "rebirth", "ireland", ["Maëlle", "Yanis", "Inès"])
    page.goto(url + f"?lang={language}")
    for step in ("table", "joueur-1", "joueur-3"):  # the table, a player, the last one (no "next")
        page.locator(f'.steps-list a[data-goto="{step}"]').tap()
        bar = one_row(page)
        assert bar["height"] <= 64, f"the bar is {bar['height']} px tall on {step}"
        assert bar["top"] + bar["height"] == pytest.approx(844, abs=1), "the bar sits at the screen's foot"
    # while saving and once saved, the save state shows in the same row
    show_player(page, 0)
    page.fill('[name="players-0-track"]', "12")
    done = "Enregistré \u2713" if language == "fr" else "Saved \u2713"
    expect(page.locator("#save-state")).to_have_text(done)
    bar = one_row(page)
    assert any(p["what"].startswith(("Enregistré", "Saved")) for p in bar["shown"]), bar
    assert bar["height"] <= 64
    check_layout(page)
    screenshot(page, f"screen-bar-{language}")
    # a draft (Blarney's holder chosen before anyone's castles): its save state still in the row
    page.locator('.steps-list a[data-goto="table"]').tap()
    page.locator('label:has(> input[name="blarney"][value="Yanis"])').tap()
    draft = "Enregistré \u2713 (incomplet)" if language == "fr" else "Saved \u2713 (incomplete)"
    expect(page.locator("#save-state")).to_have_text(draft)
    bar = page.evaluate(BAR)  # its save state may take a second small line: a few pixels more
    assert bar["height"] <= 72, f"the bar is {bar['height']} px tall with a draft's save state"
    screenshot(page, f"screen-bar-draft-{language}")


@pytest.mark.parametrize(("variant", "player"), [("ireland", IRELAND_FULL), ("scotland", SCOTLAND_FULL)])
def test_a_player_step_with_every_list_filled_fits_in_three_screens(phone, variant, player):
    page = phone
    new_game(page, "rebirth", variant, ["Aoife", "Brian", "Ciara"])
    fill_player(page, 0, player)
    saved(page)
    show_player(page, 0)
    height = page.evaluate("document.documentElement.scrollHeight")
    screenshot(page, f"screen-rebirth-{variant}-full-player")
    assert height <= SCREENS, f"the {variant} player's step: {height} px, more than 3 screens ({SCREENS} px)"
    check_layout(page)


def test_a_running_total_waits_for_the_answer_with_a_dash(phone):
    """The total shown is the server's: while a change is on its way, a dash, never the old number."""
    page = phone
    new_game(page, "revive", "base", ["Maëlle", "Yanis"])
    show_player(page, 0)
    page.fill('[name="players-0-track"]', "20")
    saved(page)
    expect(page.locator("[data-turn-total]")).to_have_text("20")
    held = []  # the save's request, answered once the test has looked at the page
    page.route(re.compile(r"/save$"), lambda route: held.append(route))
    page.fill('[name="players-0-track"]', "38")
    expect(page.locator("[data-turn-total]")).to_have_text("\u2013")
    expect(page.locator('.steps-list [data-seat-total="0"]')).to_have_text("\u2013")
    # another player's total is not touched by this change
    assert page.locator('.steps-list [data-seat-total="1"]').inner_text() == "0"
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    expect(page.locator("[data-turn-total]")).to_have_text("\u2013")  # still: no answer yet
    held[0].continue_()
    page.unroute(re.compile(r"/save$"))
    expect(page.locator("[data-turn-total]")).to_have_text("38")
    expect(page.locator('.steps-list [data-seat-total="0"]')).to_have_text("38")


def test_the_links_to_copy_are_never_zoomed_into(phone, live_server):
    """QA (issue 24): the read-only link's field was 0.9 rem, and iOS zooms into a field under 16 px."""
    page = phone
    record = store_games(live_server.app, "screen-links", [load_example("revive-abyss.json")])[0]
    page.context.add_cookies([{"name": "companion_device", "value": "screen-links", "url": live_server.url}])
    for path in (f"/g/{record.edit_token}/resultats", f"/g/{record.edit_token}/"):
        page.goto(page.base_url + path)
        sizes = page.evaluate("[...document.querySelectorAll('.share-row input')]"
                              ".map(i => parseFloat(getComputedStyle(i).fontSize))")
        assert sizes and min(sizes) >= 16, (path, sizes)
