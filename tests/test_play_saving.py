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
