"""Issue 11, "no page taller than 3 screens per step": a Revive player's step, filled as a real table
fills it (every number typed, two great locations, each player's own artifact card), fits in three
screens of a 390×844 phone, one column, every tap target at least 44 px."""

from __future__ import annotations

import pytest

from browser_helpers import check_layout, fill_revive_player, new_game, saved, screenshot, show_player

pytestmark = pytest.mark.browser

SCREENS = 3 * 844

FULL = {"track": 38, "progress": 6,
        "card_bonus": [{"unlocked": True, "cards": 3}, {"unlocked": True, "cards": 2}, {"cards": 1}],
        "scyphoz": 1, "great_locations": [5, 3], "four_token": True, "two_tokens": 1,
        "resources": {"gears": 2, "books": 3, "food": 1, "crystals": 2},
        "artifacts": [2, 0, 1], "artifact_points": 7,
        "artifact_card": [{"count": 3, "points": 2}, {"count": 1, "points": 1}, {"count": 2, "points": 3}],
        "devotion": 9, "machine_progress": 11}


@pytest.mark.parametrize("variant", ["base", "abyss"])
def test_a_fully_filled_player_step_fits_in_three_screens(phone, variant):
    new_game(phone, "revive", variant, ["Maëlle", "Yanis", "Inès"])
    phone.get_by_label("Une carte par joueur").check()  # the tallest case: each player's card points too
    player = dict(FULL) if variant == "abyss" else {k: v for k, v in FULL.items()
                                                     if k not in ("scyphoz", "devotion")}
    fill_revive_player(phone, 0, player, card_each=True)
    saved(phone)
    show_player(phone, 0)
    # everything typed is on the step, nothing hidden: every filled field is visible
    shown = ["track", "progress", "great_locations-1", "resources-crystals", "artifacts-2",
             "artifact_card-2-points", "machine_progress"]
    shown += ["scyphoz", "devotion"] if variant == "abyss" else []
    for name in shown:
        assert phone.locator(f'[name="players-0-{name}"]').is_visible(), name
    height = phone.evaluate("document.documentElement.scrollHeight")
    screenshot(phone, f"revive-{variant}-full-player-step")
    assert height <= SCREENS, f"the player's step is {height} px tall, more than 3 screens ({SCREENS} px)"
    check_layout(phone)
