"""Issue 21: a save compares what is stored as the stored document means it (a field nobody typed
and a 0 the server filled in are one value), a player's building counts follow their card by id,
and every error of /save and /state is JSON the phone can show as it is."""

from __future__ import annotations

import json

import pytest

from helpers import autosave, create_game, posted, stored

VARIANTS = [("rebirth", "scotland"), ("rebirth", "ireland"), ("reterra", "base"), ("revive", "base"),
            ("revive", "abyss")]
NAMES = ["Ugo", "Wes"]
# what phone B types for Wes in the story, per game: the score track and one field of a list
B_TYPES = {"rebirth": {"players-1-track": "12", "players-1-ports": "1"},
           "reterra": {"players-1-segments": "2", "players-1-relics": "1"},
           "revive": {"players-1-track": "40", "players-1-artifacts-1": "1"}}
A_TYPES = {"rebirth": "players-0-track", "reterra": "players-0-segments", "revive": "players-0-track"}


def _fresh(client, token: str) -> tuple[int, dict[str, str]]:
    """A phone opening the entry link: the version and the base values its page was rendered with."""
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    return int(page["version"]), json.loads(page["base_values"])


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_second_phone_opened_before_the_first_save_is_no_conflict(client, app, game, variant):
    """The issue's story: B opens the link before anything is saved; A saves Ugo's track; B types Wes's
    fields. Nothing of B's is held back, and A's results are B's values."""
    token = create_game(client, game, variant, NAMES)
    version, base_b = _fresh(client, token)
    a_field = A_TYPES[game]
    assert autosave(client, token, version, **{a_field.replace("-", "__"): ("", "3")}).status_code == 200
    changes = {name: (base_b.get(name, ""), value) for name, value in B_TYPES[game].items()}
    answer = autosave(client, token, version, **{n.replace("-", "__"): pair for n, pair in changes.items()})
    assert answer.status_code == 200, answer.json
    assert not answer.json.get("conflict")
    for name, value in B_TYPES[game].items():
        assert answer.json["stored"][name] == value
    assert answer.json["stored"][a_field] == "3"


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_no_field_nobody_typed_is_a_conflict_after_a_save(client, app, game, variant):
    """Every number field of Wes's that nobody typed, changed from the page opened before any save,
    is taken without a conflict (a value the field refuses is refused, never called a conflict)."""
    token = create_game(client, game, variant, NAMES)
    version, base_b = _fresh(client, token)
    fields = [n for n in posted(client.get(f"/g/{token}/").get_data(as_text=True))
              if n.startswith("players-1-")]
    a_field = A_TYPES[game]
    assert autosave(client, token, version, **{a_field.replace("-", "__"): ("", "3")}).status_code == 200
    tried = 0
    for name in fields:
        if base_b.get(name, ""):
            continue  # a choice already made on the page (a mode): not a number typed
        answer = autosave(client, token, version, **{name.replace("-", "__"): ("", "1")})
        assert answer.status_code != 409, (name, answer.json.get("theirs"))
        tried += 1
    assert tried >= 5


def test_no_js_second_phone_opened_before_the_first_save_is_no_conflict(client, app):
    """The same through the form posted without JavaScript (Revive: the artifact counts)."""
    token = create_game(client, "revive", "base", NAMES)
    page_b = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    version, _ = _fresh(client, token)
    assert autosave(client, token, version, players__0__track=("", "30")).status_code == 200
    response = client.post(f"/g/{token}/", data=page_b | {"players-1-track": "40",
                                                          "players-1-artifacts-1": "1", "action": "save"})
    assert response.status_code == 302
    wes = stored(app, token).document["players"][1]
    assert wes["track"] == 40 and wes["artifacts"] == [0, 1, 0]


# ------------------------------------------------------------------ Reterra: counts follow their card


def _cards(client, token: str) -> int:
    """Three cards in play, Maëlle has 1 Ferme, 2 Puits, 3 Forge, Yanis nothing: the version."""
    answer = autosave(client, token, 1, ["buildings-0", "buildings-1", "buildings-2"],
                      buildings__0__name=("", "Ferme"), buildings__0__points=("", "3"),
                      buildings__1__name=("", "Puits"), buildings__1__points=("", "2"),
                      buildings__2__name=("", "Forge"), buildings__2__points=("", "4"),
                      players__0__built__0=("", "1"), players__0__built__1=("", "2"),
                      players__0__built__2=("", "3"))
    assert answer.status_code == 200, answer.json
    return answer.json["version"]


def _remove_puits(client, token: str, version: int) -> None:
    """Phone A removes the Puits card (row 2 of 3): the rows after it move up, as play.js sends it."""
    answer = autosave(client, token, version,
                      buildings__1__id=("puits", "forge"), buildings__1__name=("Puits", "Forge"),
                      buildings__1__points=("2", "4"), buildings__2__id=("forge", ""),
                      buildings__2__name=("Forge", ""), buildings__2__points=("4", ""),
                      players__0__built__1=("2", "3"), players__0__built__2=("3", ""))
    assert answer.status_code == 200, answer.json


def keyed(client, token: str, version: int, keys: dict[str, str], **changes):
    """An autosave whose building counts say the card they were typed for (`row_keys`)."""
    data = {"version": str(version), "row_keys": json.dumps(keys), "changes": json.dumps(
        {name.replace("__", "-"): list(pair) for name, pair in changes.items()})}
    return client.post(f"/g/{token}/save", data=data)


def test_a_count_typed_for_a_card_that_moved_up_goes_to_that_card(client, app):
    """B has not caught up with A removing the Puits: B's Forge is still its third row. Yanis's 2 Forge
    go to the Forge (now the second row), not to nowhere (a third row that no longer exists)."""
    token = create_game(client, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(client, token)
    _remove_puits(client, token, version)
    answer = keyed(client, token, version, {"players-1-built-2": "Forge"}, players__1__built__2=("", "2"))
    assert answer.status_code == 200, answer.json
    doc = stored(app, token).document
    assert [c["id"] for c in doc["buildings"]] == ["ferme", "forge"]
    assert doc["players"][1]["buildings"] == {"forge": 2}
    assert doc["players"][0]["buildings"] == {"ferme": 1, "forge": 3}
    assert answer.json["stored"]["players-1-built-1"] == "2"
    assert answer.json["moved"] == {"players-1-built-2": "players-1-built-1"}


def test_a_count_typed_for_a_card_the_other_phone_removed_is_said_and_not_written(client, app):
    """B types Yanis's Puits, which A removed meanwhile, and Yanis's segments: the segments are saved;
    the count is not written onto the Forge that took the Puits's row, and the phone says why (never
    dropped without a word); its field goes back to what is stored."""
    token = create_game(client, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(client, token)
    _remove_puits(client, token, version)
    answer = keyed(client, token, version, {"players-1-built-1": "Puits"}, players__1__built__1=("", "1"),
                   players__1__segments=("", "2"))
    assert answer.status_code == 200, answer.json
    assert answer.json["general"] == ["Yanis : la carte « Puits » a été retirée sur un autre appareil ; le "
                                      "nombre saisi pour elle (1) n'est pas enregistré."]
    assert answer.json["moved"] == {"players-1-built-1": ""}
    yanis = stored(app, token).document["players"][1]
    assert yanis["segments"] == 2 and "buildings" not in yanis


def test_no_js_counts_follow_the_card_they_were_typed_beside(client, app):
    """The form posted without JavaScript, from a page rendered before A removed the Puits: Yanis's
    Forge count (third row on that page) goes to the Forge."""
    token = create_game(client, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(client, token)
    page_b = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    _remove_puits(client, token, version)
    response = client.post(f"/g/{token}/", data=page_b | {"players-1-built-2": "2", "action": "save"})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    doc = stored(app, token).document
    assert doc["players"][1]["buildings"] == {"forge": 2}
    assert [c["id"] for c in doc["buildings"]] == ["ferme", "forge"]


def test_a_card_removed_takes_its_counts_and_the_others_keep_theirs(client, app):
    """A removes the Puits as play.js now sends it: only the card rows move (board.js leaves out the
    counts, unchanged card by card); each player's counts stay with their cards on the server."""
    token = create_game(client, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(client, token)
    answer = keyed(client, token, version, {},
                   buildings__1__id=("puits", "forge"), buildings__1__name=("Puits", "Forge"),
                   buildings__1__points=("2", "4"), buildings__2__id=("forge", ""),
                   buildings__2__name=("Forge", ""), buildings__2__points=("4", ""))
    assert answer.status_code == 200, answer.json
    doc = stored(app, token).document
    assert doc["players"][0]["buildings"] == {"ferme": 1, "forge": 3}
    assert answer.json["stored"]["players-0-built-1"] == "3"
