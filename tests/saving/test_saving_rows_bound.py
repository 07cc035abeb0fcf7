"""A list of rows sent with more rows than it holds (a page's `Rows` bound: Revive's great
locations, Reterra's cards, Rebirth's cities) is never cut without a word: the save is refused with
the message beside the list, and nothing of it is stored. Blank rows among them are no rows."""

from __future__ import annotations

import json

import pytest

from app_helpers import create_game, stored
from companion.games import reterra, revive
from companion.saving import wire

NAMES = ["Ugo", "Wes"]


def _save(client, token: str, version: int, changes: dict[str, tuple[str, str]]):
    return client.post(f"/g/{token}/save", data=wire.encode(wire.Save(changes, version=version)))


# (game, variant, list field, the fields of row k as (name, value), the bound)
CASES = [
    ("revive", "base", "players-0-great_locations",
     lambda k: {f"players-0-great_locations-{k}": str(10 + k)}, revive.GREAT_LOCATIONS_MAX),
    ("reterra", "base", "buildings",
     lambda k: {f"buildings-{k}-name": f"Carte {k}", f"buildings-{k}-points": "2"}, reterra.MAX_CARDS),
    ("rebirth", "scotland", "cities",
     lambda k: {f"cities-{k}-size": "1", f"cities-{k}-tiles-0-player": "Ugo",
                f"cities-{k}-tiles-0-influence": "2"}, 40),
]


@pytest.mark.parametrize(("game", "variant", "field", "row", "bound"), CASES, ids=[c[0] for c in CASES])
def test_one_row_too_many_is_refused_with_its_message_and_nothing_stored(client, app, game, variant,
                                                                         field, row, bound):
    token = create_game(client, game, variant, NAMES)
    before = stored(app, token).document
    changes = {name: ("", value) for k in range(bound + 1) for name, value in row(k).items()}
    changes["players-1-track" if game != "reterra" else "players-1-segments"] = ("", "3")
    answer = _save(client, token, 1, changes)
    assert answer.status_code == 422, answer.json
    assert answer.json["errors"][field] == [f"au plus {bound} éléments (il y en a {bound + 1})"]
    assert stored(app, token).document == before  # nothing of the save: no row cut, none kept

    # the same rows but one: all stored
    changes = {name: ("", value) for k in range(bound) for name, value in row(k).items()}
    answer = _save(client, token, 1, changes)
    assert answer.status_code == 200, answer.json
    assert all(answer.json["stored"][name] == value for name, value in row(bound - 1).items())


def test_a_blank_row_among_more_rows_than_the_bound_is_no_row(client, app):
    """Six rows of great locations sent, one of them blank: the five others are stored, the last one
    too (the bound counts rows holding something, never cutting the last ones)."""
    token = create_game(client, "revive", "base", NAMES)
    changes = {f"players-0-great_locations-{k}": ("", str(10 + k)) for k in range(6) if k != 2}
    changes["players-0-great_locations-2"] = ("", "")
    answer = _save(client, token, 1, changes)
    assert answer.status_code == 200, answer.json
    assert stored(app, token).document["players"][0]["great_locations"] == [10, 11, 13, 14, 15]


def test_the_api_says_the_path_of_a_list_too_long(client):
    """The API takes documents: the engine's bound says its path and message (422)."""
    doc = {"game": "revive", "variant": "base",
           "players": [{"name": "Ugo", "great_locations": [1, 2, 3, 4, 5, 6]}, {"name": "Wes"}]}
    answer = client.post("/api/v1/score", data=json.dumps(doc), content_type="application/json")
    assert answer.status_code == 422
    assert {"path": "players[0].great_locations", "message": "au plus 5 éléments (il y en a 6)"} \
        in answer.json["errors"]
