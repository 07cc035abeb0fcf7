"""Revive's great locations offer two rows from the start, also without JavaScript (issue 32,
docs/rulings.md "Two great-location rows from the start"); the other games' lists keep one."""

from __future__ import annotations

import re

from app_helpers import create_game, stored

NAMES = ("Maëlle", "Yanis", "Inès", "Jules")


def great_rows(html: str, seat: int) -> list[str]:
    return re.findall(rf'<input [^>]*name="(players-{seat}-great_locations-\d+)"', html)


def test_a_blank_revive_game_offers_two_great_locations_per_player(client):
    token = create_game(client, "revive", "base", NAMES)
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    for seat in range(4):
        assert great_rows(html, seat) == [f"players-{seat}-great_locations-0",
                                          f"players-{seat}-great_locations-1"]
    assert html.count('data-shown="2"') == 4  # a row removed on the phone keeps two (fields.js)


def test_a_post_without_javascript_with_the_second_row_blank_stores_one(app, client):
    token = create_game(client, "revive", "abyss", NAMES[:3])
    data = {"version": "1", "card_mode": "shared", "action": "save",
            "players-0-great_locations-0": "5", "players-0-great_locations-1": "",
            "players-1-great_locations-0": "4", "players-1-great_locations-1": "9",
            "players-2-great_locations-0": "", "players-2-great_locations-1": ""}
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    players = stored(app, token).document["players"]
    assert players[0]["great_locations"] == [5]
    assert players[1]["great_locations"] == [4, 9]
    assert "great_locations" not in players[2]
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    # the stored rows and one blank row, never fewer than two
    assert len(great_rows(html, 0)) == 2 and len(great_rows(html, 1)) == 3 and len(great_rows(html, 2)) == 2
    assert re.search(r'name="players-0-great_locations-0"[^>]*value="5"', html)
    assert re.search(r'name="players-0-great_locations-1"[^>]*value=""', html)


def test_the_other_games_lists_keep_one_blank_row(client):
    token = create_game(client, "rebirth", "scotland", NAMES[:2])
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    assert 'name="players-0-missions-0-points"' in html and "players-0-missions-1-" not in html
    assert 'name="cities-0-size"' in html and "cities-1-" not in html
    token = create_game(client, "reterra", "base", NAMES[:2])
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    assert 'name="buildings-0-name"' in html and "buildings-1-" not in html
    assert "data-shown" not in html
