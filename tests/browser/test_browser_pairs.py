"""Two numbers side by side (Revive's resources two by two): a message under one of them makes it
taller, and the pair still reads in its order, label beside label, each stepper under its own
label. Aligned at the bottom, the neighbour sat level with the message, lower than the field with
the message, and Cristaux read as coming before Nourriture (QA)."""

from __future__ import annotations

import pytest

from browser_helpers import check_layout, new_game, settled, show_player

pytestmark = pytest.mark.browser

PLACES = """(names) => names.map(name => {
  const input = document.querySelector(`[name="${name}"]`), field = input.closest('.field');
  const label = field.querySelector(':scope > label').getBoundingClientRect();
  const box = input.getBoundingClientRect(), error = field.querySelector('.field-error');
  return {label: [Math.round(label.left), Math.round(label.top)], input: Math.round(box.top),
          error: error && error.textContent.trim() ? Math.round(error.getBoundingClientRect().top) : null};
})"""


@pytest.mark.parametrize("wrong", ["food", "crystals"])
def test_a_message_under_one_field_of_a_pair_keeps_the_pair_in_its_order(phone, wrong):
    new_game(phone, "revive", "base", ["Maëlle", "Yanis", "Inès"])
    show_player(phone, 0)
    phone.fill(f'[name="players-0-resources-{wrong}"]', "999")  # more than the game has
    phone.locator('[name="players-0-resources-gears"]').focus()
    settled(phone)
    food, crystals = phone.evaluate(PLACES, ["players-0-resources-food", "players-0-resources-crystals"])
    shown = food if wrong == "food" else crystals
    assert shown["error"] is not None, "the refused value has its message beside it"
    # Nourriture, then Cristaux to its right, on one line: labels level, steppers level
    assert food["label"][0] < crystals["label"][0]
    assert abs(food["label"][1] - crystals["label"][1]) <= 1, (food, crystals)
    assert abs(food["input"] - crystals["input"]) <= 1, (food, crystals)
    assert shown["error"] > shown["input"]  # the message under its own stepper
    check_layout(phone)
