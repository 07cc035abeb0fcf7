"""Issue 29: a save keeps every valid value. A value wrong on its own (out of bounds, not a number)
is left out with its message beside its field; every other value of that save is stored and reaches
the other phones. Nothing is stored only when nothing else of the save was valid."""

from __future__ import annotations

import json

from app_helpers import autosave, create_game, posted, stored
from companion.games import i18n
from companion.saving import service, wire

NAMES = ["Ugo", "Wes"]


def _page(client, token: str) -> tuple[int, dict[str, str]]:
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    return int(page["version"]), json.loads(page["base_values"])


def test_the_issue_s_revive_story_keeps_88_and_12_without_the_9_crystals(client, app):
    """On Revive: the score track 88, the machine progress 12, then 9 crystals (0-3 allowed)."""
    token = create_game(client, "revive", "base", NAMES)
    version, base = _page(client, token)
    answer = autosave(client, token, version, players__0__track=("", "88"), players__0__progress=("", "12"),
                      players__0__resources__crystals=("", "9"))
    assert answer.status_code == 200
    data = answer.json
    assert data["ok"] is True and data["version"] == version + 1
    assert data["refused"] == ["players-0-resources-crystals"]
    assert data["state"] == "Enregistré, sauf 1 valeur à corriger"
    assert data["errors"]["players-0-resources-crystals"] == ["doit être entre 0 et 3"]
    assert data["totals"][0] == 88 + 12  # the running total is no longer 0
    # the error summary names the field to fix for a player
    assert data["summary"] == [["players-0-resources-crystals", "Ugo · Ressources restantes · Cristaux",
                                "doit être entre 0 et 3"]]
    record = stored(app, token)
    assert record.document["players"][0]["track"] == 88
    assert record.document["players"][0]["progress"] == 12
    assert "resources" not in record.document["players"][0]
    # a second phone sees 88 and 12 at once
    _version, theirs = _page(client, token)
    assert theirs["players-0-track"] == "88" and theirs["players-0-progress"] == "12"
    assert "players-0-resources-crystals" not in theirs
    state = client.get(f"/g/{token}/state?version={version}").json
    assert state["stored"]["players-0-track"] == "88"
    # the 9 sent again with the next change (the phone keeps it): refused again, the change stored
    again = autosave(client, token, version + 1, players__1__track=("", "30"),
                     players__0__resources__crystals=("", "9"))
    assert again.status_code == 200 and again.json["refused"] == ["players-0-resources-crystals"]
    assert stored(app, token).document["players"][1]["track"] == 30
    # corrected: stored, nothing left to fix
    fixed = autosave(client, token, version + 2, players__0__resources__crystals=("", "3"))
    assert fixed.status_code == 200 and "refused" not in fixed.json
    assert stored(app, token).document["players"][0]["resources"] == {"crystals": 3}


def test_the_state_is_said_in_english_too(client, app):
    token = create_game(client, "revive", "base", NAMES)
    client.get("/langue/en")  # the FR | EN switch's cookie
    version, _base = _page(client, token)
    answer = autosave(client, token, version, players__0__track=("", "88"),
                      players__0__resources__crystals=("", "9"), players__1__track=("", "x"))
    assert answer.status_code == 200
    assert sorted(answer.json["refused"]) == ["players-0-resources-crystals", "players-1-track"]
    with i18n.using("en"):
        expected = i18n.ngettext("Enregistré, sauf {n} valeur à corriger",
                                 "Enregistré, sauf {n} valeurs à corriger", 2)
    assert expected == "Saved, except 2 values to correct"
    assert answer.json["state"] == expected
    assert answer.json["errors"]["players-0-resources-crystals"] == ["must be between 0 and 3"]


def test_a_save_of_only_bad_values_stores_nothing(client, app):
    token = create_game(client, "revive", "base", NAMES)
    version, _base = _page(client, token)
    answer = autosave(client, token, version, players__0__resources__crystals=("", "9"),
                      players__1__track=("", "douze"))
    assert answer.status_code == 422
    assert "Rien n'a été enregistré" in answer.json["general"][0]
    assert set(answer.json["errors"]) == {"players-0-resources-crystals", "players-1-track"}
    assert stored(app, token).version == version


def test_a_rule_between_fields_still_makes_a_draft(client, app):
    """Rebirth: a city's tile typed before its player is chosen (a rule between fields: a draft),
    with a bad count beside it: the tile is stored as a draft, its rule flagged, the bad count left
    out with its message."""
    token = create_game(client, "rebirth", "ireland", NAMES)
    version, _base = _page(client, token)
    answer = autosave(client, token, version, ["cities-0", "cities-0-tiles-0"], players__0__track=("", "5"),
                      cities__0__size=("", "2"), cities__0__tiles__0__influence=("", "2"),
                      players__1__ports=("", "999"))
    assert answer.status_code == 200
    data = answer.json
    assert data["refused"] == ["players-1-ports"] and data["draft"] is True
    assert data["errors"]["cities-0-tiles-0-player"] == ["choisissez le joueur qui a posé la tuile"]
    assert data["errors"]["players-1-ports"][0].startswith("doit être")
    record = stored(app, token)
    assert record.status == "draft"
    assert record.document["players"][0]["track"] == 5
    assert record.document["cities"] == [{"size": 2, "tiles": [{"influence": 2}]}]
    assert "ports" not in record.document["players"][1]


def test_an_old_page_keeps_saving(client, app):
    """A page rendered by the previous release posts the same changes and reads the same answer
    (ok, errors beside their fields, stored): the new keys are only added."""
    token = create_game(client, "revive", "base", NAMES)
    version, _base = _page(client, token)
    old = {"version": str(version), "changes": json.dumps({"players-0-track": ["", "88"],
                                                            "players-0-resources-crystals": ["", "9"]}),
           "row_keys": "{}", "new_rows": "[]"}  # no `delta`: every stored value comes back
    data = client.post(f"/g/{token}/save", data=old).json
    assert data["ok"] is True and data["stored"]["players-0-track"] == "88"
    assert data["errors"]["players-0-resources-crystals"] == ["doit être entre 0 et 3"]
    assert "players-0-resources-crystals" not in data["stored"]


def test_the_service_leaves_out_only_the_bad_values(app):
    """The service itself, without Flask's request: the partial rule and the rule before it."""
    from types import SimpleNamespace

    from companion import forms

    sc = forms.screens("revive")
    doc = {"game": "revive", "variant": "base", "players": [{"name": "Ugo"}, {"name": "Wes"}]}
    record = SimpleNamespace(document=doc, version=1, status="draft")

    def write(record, document, version, *, status=None, result=None):
        return SimpleNamespace(document=document, version=version + 1, status=status or record.status)

    save = wire.Save({"players-0-track": ("", "88"), "players-0-resources-crystals": ("", "9")}, version=1)
    with app.test_request_context():
        out = service.submit(record, save, sc.fields, write=write)
        assert out.kind == "saved" and out.record.version == 2
        assert out.refused == {"players-0-resources-crystals": ["doit être entre 0 et 3"]}
        assert out.record.document["players"][0]["track"] == 88
        whole = service.submit(record, save, sc.fields, write=write, partial=False)
        assert whole.kind == "invalid" and whole.record.version == 1


def test_voir_les_resultats_with_a_bad_value_stays_on_the_page(client, app):
    """Without JavaScript, "Voir les résultats" with a value wrong on its own: the rest is stored, the
    game is not marked scored, and the page comes back with the value to correct (no results yet)."""
    token = create_game(client, "revive", "base", NAMES)
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    typed = {"players-0-track": "88", "players-1-track": "40", "players-0-resources-crystals": "9"}
    answer = client.post(f"/g/{token}/", data=page | typed | {"action": "finish"})
    assert answer.status_code == 422
    html = answer.get_data(as_text=True)
    assert "Enregistré, sauf 1 valeur à corriger" in html
    assert posted(html)["players-0-resources-crystals"] == "9"
    record = stored(app, token)
    assert record.status != "scored"
    assert [p.get("track") for p in record.document["players"]] == [88, 40]
    # corrected and asked again: the results
    done = client.post(f"/g/{token}/", data=posted(html) | {"players-0-resources-crystals": "3",
                                                              "action": "finish"})
    assert done.status_code == 302 and done.headers["Location"].endswith("/resultats")
    assert stored(app, token).status == "scored"


def test_a_bad_value_in_a_row_leaves_the_rest_of_the_row_stored(client, app):
    """Rebirth: a new city typed by the autosave, one tile's influence out of bounds: the city and
    its other tile are stored, the influence comes back with its message."""
    token = create_game(client, "rebirth", "scotland", NAMES)
    version, _base = _page(client, token)
    answer = autosave(client, token, version, ["cities-0", "cities-0-tiles-0", "cities-0-tiles-1"],
                      cities__0__size=("", "2"), cities__0__tiles__0__player=("", "Ugo"),
                      cities__0__tiles__0__influence=("", "2"), cities__0__tiles__1__player=("", "Wes"),
                      cities__0__tiles__1__influence=("", "7"))
    assert answer.status_code == 200
    assert answer.json["refused"] == ["cities-0-tiles-1-influence"]
    assert answer.json["errors"]["cities-0-tiles-1-influence"][0].startswith("doit être entre 1 et")
    assert stored(app, token).document["cities"] == [
        {"size": 2, "tiles": [{"player": "Ugo", "influence": 2}, {"player": "Wes"}]}]


def test_reterra_counts_keep_the_valid_ones(client, app):
    """Reterra: a player's counts, one of them out of bounds: the others are stored."""
    token = create_game(client, "reterra", "base", NAMES)
    version, _base = _page(client, token)
    answer = autosave(client, token, version, players__0__segments=("", "2"), players__0__relics=("", "999"),
                      players__1__inhabitants=("", "3"))
    assert answer.status_code == 200, answer.json
    assert answer.json["refused"] == ["players-0-relics"]
    players = stored(app, token).document["players"]
    assert players[0].get("segments") == 2 and "relics" not in players[0]
    assert players[1].get("inhabitants") == 3


def test_reterra_a_count_by_card_out_of_bounds_leaves_the_others_stored(client, app):
    """Reterra's building counts sent with the card they were typed for (`row_keys`): one out of
    bounds is left out with its message, the other counts of the save are stored."""
    from test_play_saving import _cards, keyed

    token = create_game(client, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(client, token)
    answer = keyed(client, token, version, {"players-1-built-0": "Ferme", "players-1-built-1": "Puits"},
                   players__1__built__0=("", "2"), players__1__built__1=("", "99"))
    assert answer.status_code == 200, answer.json
    assert answer.json["refused"] == ["players-1-built-1"]
    assert answer.json["errors"]["players-1-built-1"][0].startswith("doit être entre 0 et")
    assert stored(app, token).document["players"][1]["buildings"] == {"ferme": 2}
