"""Settling a tie on a phone (issue 24): from the home page to the engine's answer in at most ten
taps, for each game, variant and edition, on a 390×844 touch screen (headless Chromium).

Taps are counted as bench/bench_taps.py counts them: every tap on the screen (a link, a chip, a
button, a field to put the cursor in it); typing into the field that has the cursor and the
keyboard's "suivant" (Enter, to the next field) are not taps.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_helpers import check_layout, screenshot
from companion import games
from companion.games import TieQuestion
from companion.games.core import headline

pytestmark = pytest.mark.browser

GOAL = 10

# (choice link's words, game, variant, edition, tied, others, total, chips {field: name},
#  numbers {field: [one per tied player]})
CASES = {
    "scotland": ("Rebirth · Écosse", "rebirth", "scotland", None, ["Ana", "Bob"], ["Cy"], 87,
                 {"stirling": "Cy"}, {}),
    "ireland": ("Rebirth · Irlande", "rebirth", "ireland", None, ["Ana", "Bob", "Cy"], [], 60,
                {}, {"tara_adjacent": [1, 3, 2]}),
    "reterra": ("Reterra · Règles françaises", "reterra", "base", None, ["Ana", "Bob"], [], 40,
                {}, {"inhabitants": [3, 5]}),
    "reterra-en": ("Reterra · Édition anglaise", "reterra", "base", "en", ["Ana", "Bob"], [], 40,
                   {}, {"buildings": [4, 1]}),
    "revive": ("Revive · Base", "revive", "base", None, ["Ana", "Bob"], [], 80,
               {}, {"leftover": [2, 2], "machine_progress": [10, 12]}),
    "abyss": ("Revive · Call of the Abyss", "revive", "abyss", None, ["Ana", "Bob"], [], 95,
              {}, {"leftover": [4, 1], "machine_progress": [0, 30]}),
}


class Phone:
    def __init__(self, page):
        self.page = page
        self.taps = 0

    def tap(self, locator) -> None:
        locator.tap()
        self.taps += 1

    def type_then_next(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.page.keyboard.press("Enter")


def engine_answer(game, variant, edition, tied, others, total, chips, numbers):
    names = tuple(tied + others)
    values = {key: names.index(name) for key, name in chips.items()}
    for f in games.tie_offered(game, variant, edition):
        if f.kind == "holder":
            values.setdefault(f.key, None)
    values.update(numbers)
    result, problems = games.settle_tie(game, TieQuestion(variant, edition, names, len(tied), total, values))
    assert result is not None, problems
    return result


@pytest.mark.parametrize("case", list(CASES))
def test_a_tie_is_settled_in_ten_taps_from_home(phone, case):
    words, game, variant, edition, tied, others, total, chips, numbers = CASES[case]
    page = phone
    me = Phone(page)
    page.goto(page.base_url + "/")
    me.tap(page.get_by_role("link", name="Départager une égalité"))
    page.wait_for_url("**/egalite")
    check_layout(page)
    me.tap(page.get_by_role("link", name=words))
    page.wait_for_url(f"**/egalite?game={game}*")
    check_layout(page)
    # the names: the first tapped, then "suivant" from field to field (empty seats passed over)
    me.tap(page.locator('[name="name-0"]'))
    for name in tied:
        me.type_then_next(name)
    for _ in range(4 - len(tied)):
        page.keyboard.press("Enter")
    for name in others:
        me.type_then_next(name)
    if others:
        for _ in range(2 - len(others)):
            page.keyboard.press("Enter")
    expect(page.locator('[name="total"]')).to_be_focused()
    page.keyboard.type(str(total))
    for key, values in numbers.items():
        me.tap(page.locator(f'[name="{key}-0"]'))
        for i, value in enumerate(values):
            if i:
                page.keyboard.press("Enter")  # "suivant": the next player's number
            page.keyboard.type(str(value))
    for key, name in chips.items():
        me.tap(page.locator(f"#f-{key} label.chip", has_text=name))
    check_layout(page)
    me.tap(page.get_by_role("button", name="Départager", exact=True))
    page.wait_for_url("**#reponse")
    result = engine_answer(game, variant, edition, tied, others, total, chips, numbers)
    expect(page.locator("#winner")).to_have_text(headline(result.winners))
    expect(page.locator(".tie-answer .ties .tie-short")).to_have_text(result.answers)
    expect(page.locator(".tie-answer .ties .tie-detail p")).to_have_text(result.explanation)
    assert me.taps <= GOAL, f"{case}: {me.taps} taps"
    check_layout(page)
    # the main button stands clear of the last field's chips (a tap meant for a chip never settles)
    gap = page.evaluate("() => { const b = document.querySelector('#tie button[data-main]'); "
                        "const last = b.previousElementSibling.getBoundingClientRect(); "
                        "return b.getBoundingClientRect().top - last.bottom; }")
    assert gap >= 12, f"{case}: the button is {gap} px from the field above"
    screenshot(page, f"tie-{case}")
    print(f"{case}: {me.taps} taps")  # noqa: T201 - the figure the report quotes


def test_the_full_game_starts_from_the_answer(phone):
    page = phone
    page.goto(page.base_url + "/egalite?game=reterra&variant=base&edition=en")
    page.fill('[name="name-0"]', "Ana")
    page.fill('[name="name-1"]', "Bob")
    page.fill('[name="total"]', "30")
    page.locator('#f-buildings-0 button[data-step="1"]').tap()
    page.locator('#f-buildings-0 button[data-step="1"]').tap()
    expect(page.locator('[name="buildings-0"]')).to_have_value("2")
    # the names typed are on the rows; the empty seats' rows are hidden
    expect(page.locator('label[for="buildings-1"]')).to_have_text("Bob")
    expect(page.locator("#f-buildings-2")).to_be_hidden()
    page.get_by_role("button", name="Départager", exact=True).tap()
    expect(page.locator("#winner")).to_have_text("Ana gagne")
    page.get_by_role("button", name="Saisir la partie complète avec ces joueurs").tap()
    page.wait_for_url(re.compile(r"/g/[\w-]+/#joueur-1$"))  # opened on the first player
    expect(page.locator("body")).to_contain_text("Ana")
    expect(page.locator("body")).to_contain_text("Bob")
