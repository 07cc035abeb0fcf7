"""The players after the start (issue 32, the "Joueurs" page): renamed, reseated, recoloured, added,
removed, everything that names them following, and the autosaves of pages rendered before a change
of seats refused rather than landing on someone else's seat."""

from __future__ import annotations

import json
import re
from html import unescape

from app_helpers import autosave, create_game, error_beside, stored
from companion import games
from companion.extensions import db
from companion.storage import store
from companion.storage.models import GameRecord

RED, BLUE, GREEN, YELLOW = "#c0392b", "#2e6da4", "#2e8b57", "#f1c40f"


def players_form(client, token: str) -> dict[str, str]:
    """What the page posts back untouched (a browser without JS)."""
    html = client.get(f"/g/{token}/joueurs").get_data(as_text=True)
    values = {}
    for name, value in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', html):
        if 'type="checkbox"' not in name:
            values[name] = unescape(value)
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        chosen = re.search(r'<option selected value="([^"]*)"|<option value="([^"]*)" selected', body)
        values[name] = unescape(next(g for g in chosen.groups() if g is not None)) if chosen else ""
    values.pop("csrf_token", None)
    return {k: v for k, v in values.items() if not k.endswith("-remove")}


def set_document(app, token: str, document: dict) -> None:
    with app.app_context():
        rec = db.session.scalar(db.select(GameRecord).where(GameRecord.edit_token == token))
        store.save(rec, document, rec.version)


def post(client, token, data):
    return client.post(f"/g/{token}/joueurs", data=data)


def rebirth_city_game(app, client) -> str:
    """Seats Alice, Bob, Chloé, Dan; a complete 3-space city where Bob and Dan tie on 2 and Alice
    placed the last tile (R4: the tied nearest clockwise from her wins); Bob holds Edinburgh."""
    token = create_game(client, "rebirth", "scotland", ["Alice", "Bob", "Chloé", "Dan"])
    doc = {"game": "rebirth", "variant": "scotland",
           "players": [{"name": "Alice", "track": 40}, {"name": "Bob", "track": 30, "castles": 1},
                       {"name": "Chloé", "track": 20}, {"name": "Dan", "track": 10}],
           "edinburgh": "Bob", "stirling": None,
           "cities": [{"size": 3, "tiles": [{"player": "Bob", "influence": 2, "order": 1},
                                            {"player": "Dan", "influence": 2, "order": 2},
                                            {"player": "Alice", "influence": 1, "order": 3}]}]}
    set_document(app, token, doc)
    return token


def city_points(doc: dict, name: str) -> int:
    result = games.score(doc)
    player = next(p for p in result.players if p.name == name)
    return next(line.points for line in player.breakdown if line.key == "cities")


def test_a_rename_follows_into_the_holders_and_tiles_and_the_results_say_it(app, client):
    token = rebirth_city_game(app, client)
    data = players_form(client, token) | {"players-1-name": "Bobby"}
    response = post(client, token, data)
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{token}/"
    assert "Joueurs enregistrés." in client.get(f"/g/{token}/").get_data(as_text=True)
    doc = stored(app, token).document
    assert [p["name"] for p in doc["players"]] == ["Alice", "Bobby", "Chloé", "Dan"]
    assert doc["players"][1] == {"name": "Bobby", "track": 30, "castles": 1}  # their entries stay theirs
    assert doc["edinburgh"] == "Bobby"
    assert [t["player"] for t in doc["cities"][0]["tiles"]] == ["Bobby", "Dan", "Alice"]
    assert stored(app, token).seats_version == 0  # no seat moved: no open page is refused
    results = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    assert "Bobby" in results and ">Bob<" not in results


def test_two_names_may_swap_and_a_colour_changes(app, client):
    token = rebirth_city_game(app, client)
    before = stored(app, token).colours
    data = players_form(client, token) | {"players-0-name": "Bob", "players-1-name": "Alice",
                                          "players-2-colour": before[3], "players-3-colour": before[2]}
    assert post(client, token, data).status_code == 303
    rec = stored(app, token)
    assert [p["name"] for p in rec.document["players"]] == ["Bob", "Alice", "Chloé", "Dan"]
    assert rec.document["players"][0]["track"] == 40 and rec.document["edinburgh"] == "Alice"
    assert rec.colours == [before[0], before[1], before[3], before[2]]


def test_a_seat_swap_changes_who_wins_a_city_tie_settled_clockwise(app, client):
    token = rebirth_city_game(app, client)
    doc = stored(app, token).document
    # R4: Bob and Dan tie on 2, Alice completed: clockwise from her Bob (seat 2) comes before Dan (seat 4)
    assert (city_points(doc, "Bob"), city_points(doc, "Dan")) == (6, 4)
    colours = stored(app, token).colours
    data = players_form(client, token) | {"players-1-place": "4", "players-3-place": "2"}
    assert post(client, token, data).status_code == 303
    rec = stored(app, token)
    assert [p["name"] for p in rec.document["players"]] == ["Alice", "Dan", "Chloé", "Bob"]
    assert rec.colours == [colours[0], colours[3], colours[2], colours[1]]  # each keeps their colour
    assert (city_points(rec.document, "Dan"), city_points(rec.document, "Bob")) == (6, 4)
    assert rec.seats_version == rec.version


def test_a_stale_autosave_after_a_reorder_is_refused_and_changes_nothing(app, client):
    token = rebirth_city_game(app, client)
    version = stored(app, token).version  # the version another phone's page was rendered at
    data = players_form(client, token) | {"players-1-place": "4", "players-3-place": "2"}
    assert post(client, token, data).status_code == 303
    before = stored(app, token)
    # that phone types Bob's track on seat 1 (Bob's seat when its page was rendered): Dan's now
    response = autosave(client, token, version, players__1__track=("30", "55"))
    assert response.status_code == 409
    body = response.get_json()
    assert body["ok"] is False and body["reload"] is True
    assert body["message"] == "Les joueurs ont changé sur un autre téléphone : rechargez la page."
    after = stored(app, token)
    assert (after.document, after.version) == (before.document, before.version)
    # the page's catching up says the same (it would otherwise take the new version and save on)
    caught = client.get(f"/g/{token}/state?version={version}")
    assert caught.status_code == 409 and caught.get_json()["reload"] is True
    # the same save from a page rendered after the reorder goes through, on Dan's seat
    response = autosave(client, token, before.version, players__1__track=("10", "55"))
    assert response.status_code == 200, response.get_json()
    assert stored(app, token).document["players"][1] == {"name": "Dan", "track": 55}


def test_a_stale_no_js_post_after_a_reorder_changes_nothing(app, client):
    token = rebirth_city_game(app, client)
    version = stored(app, token).version
    data = players_form(client, token) | {"players-1-place": "4", "players-3-place": "2"}
    assert post(client, token, data).status_code == 303
    before = stored(app, token)
    response = client.post(f"/g/{token}/", data={"version": str(version), "players-1-track": "99",
                                                 "base_values": json.dumps({"players-1-track": "30"})})
    assert response.status_code == 303
    assert stored(app, token).document == before.document
    page = client.get(f"/g/{token}/").get_data(as_text=True)
    assert "Les joueurs ont changé sur un autre téléphone : rechargez la page." in page


def test_a_rename_alone_refuses_no_open_page(app, client):
    token = rebirth_city_game(app, client)
    version = stored(app, token).version
    assert post(client, token, players_form(client, token) | {"players-3-name": "Dana"}).status_code == 303
    response = autosave(client, token, version, players__3__track=("10", "12"))
    assert response.status_code == 200
    assert stored(app, token).document["players"][3] == {"name": "Dana", "track": 12}


def test_a_player_added_sits_last_up_to_the_games_max(app, client):
    token = create_game(client, "rebirth", "scotland", ["Alice", "Bob"])
    data = players_form(client, token) | {"new_name": "Chloé"}
    assert post(client, token, data).status_code == 303
    rec = stored(app, token)
    assert [p["name"] for p in rec.document["players"]] == ["Alice", "Bob", "Chloé"]
    assert len(set(rec.colours)) == 3 and all(rec.colours)  # the first colour free
    assert rec.seats_version == rec.version
    assert post(client, token, players_form(client, token) | {"new_name": "Dan"}).status_code == 303
    response = post(client, token, players_form(client, token) | {"new_name": "Émile"})
    assert response.status_code == 422
    assert error_beside(response.get_data(as_text=True), "new_name") == \
        "Rebirth se joue à 4 joueurs au plus : retirez-en un d'abord"
    assert len(stored(app, token).document["players"]) == 4


def test_a_name_is_checked_as_on_the_new_game_page(app, client):
    token = create_game(client, "rebirth", "scotland", ["Alice", "Bob"])
    response = post(client, token, players_form(client, token) | {"new_name": "alice"})
    assert response.status_code == 422
    assert error_beside(response.get_data(as_text=True), "new_name") == \
        "nom déjà pris par le joueur 1 (les noms doivent être distincts)"
    response = post(client, token, players_form(client, token) | {"players-1-name": "  "})
    assert error_beside(response.get_data(as_text=True), "players-1-name") == \
        "le nom doit faire de 1 à 40 caractères"
    response = post(client, token, players_form(client, token) | {"players-1-place": "1"})
    assert "place 1 déjà donnée à Alice" in error_beside(response.get_data(as_text=True), "players-1-name")
    colours = stored(app, token).colours
    response = post(client, token, players_form(client, token) | {"players-1-colour": colours[0]})
    assert error_beside(response.get_data(as_text=True), "players-1-name") == \
        "couleur déjà prise par Alice : choisissez-en une autre"
    assert [p["name"] for p in stored(app, token).document["players"]] == ["Alice", "Bob"]
    assert stored(app, token).version == 1


def test_a_player_removed_takes_their_entries_and_blanks_what_named_them(app, client):
    token = rebirth_city_game(app, client)
    colours = stored(app, token).colours
    response = post(client, token, players_form(client, token) | {"players-1-remove": "y"})
    assert response.status_code == 303
    rec = stored(app, token)
    assert [p["name"] for p in rec.document["players"]] == ["Alice", "Chloé", "Dan"]
    assert rec.colours == [colours[0], colours[2], colours[3]]
    assert rec.document["edinburgh"] is None
    # the tile stays in its city, without an owner, for the table to settle (docs/rulings.md)
    assert [t["player"] for t in rec.document["cities"][0]["tiles"]] == [None, "Dan", "Alice"]
    assert rec.status == "draft" and rec.seats_version == rec.version
    page = client.get(f"/g/{token}/").get_data(as_text=True)
    assert "choisissez le joueur qui a posé la tuile" in page


def test_removing_stops_at_the_games_min(app, client):
    token = create_game(client, "rebirth", "scotland", ["Alice", "Bob"])
    response = post(client, token, players_form(client, token) | {"players-1-remove": "y"})
    assert response.status_code == 422
    assert error_beside(response.get_data(as_text=True), "players-1-name") == \
        "Rebirth se joue à 2 joueurs au moins : retirez-en moins"
    assert len(stored(app, token).document["players"]) == 2


def test_a_page_rendered_for_other_players_changes_nothing(app, client):
    token = create_game(client, "rebirth", "scotland", ["Alice", "Bob"])
    old = players_form(client, token)
    assert post(client, token, players_form(client, token) | {"new_name": "Chloé"}).status_code == 303
    version = stored(app, token).version
    response = post(client, token, old | {"players-0-name": "Zoé"})
    assert response.status_code == 409
    assert "Les joueurs ont changé sur un autre téléphone pendant que vous modifiiez cette page" in \
        unescape(response.get_data(as_text=True))
    assert stored(app, token).version == version
    assert [p["name"] for p in stored(app, token).document["players"]] == ["Alice", "Bob", "Chloé"]


def test_the_edit_page_links_to_the_players_page(client):
    token = create_game(client, "revive", "base", ["Alice"])
    assert f'href="/g/{token}/joueurs"' in client.get(f"/g/{token}/").get_data(as_text=True)


def test_the_players_form_needs_its_csrf_token(tmp_path, monkeypatch):
    from app_helpers import make_app

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    with app.app_context():
        rec = store.create("rebirth", "scotland", ["Alice", "Bob"], ["", ""])
        db.session.commit()
        token = rec.edit_token
    html = client.get(f"/g/{token}/joueurs").get_data(as_text=True)
    assert 'name="csrf_token"' in html
    data = players_form(client, token) | {"players-1-name": "Bobby"}
    response = client.post(f"/g/{token}/joueurs", data=data)
    assert response.status_code == 400
    assert [p["name"] for p in stored(app, token).document["players"]] == ["Alice", "Bob"]
    data["csrf_token"] = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    assert client.post(f"/g/{token}/joueurs", data=data).status_code == 303
    assert [p["name"] for p in stored(app, token).document["players"]] == ["Alice", "Bobby"]


def test_seats_moved_between_the_read_and_the_write_refuse_the_save_on_its_retry(app):
    """The players changed between a save's read and its write: the write meets StaleVersion, and the
    fresh record's seats are newer than the save's version, so the retry stores nothing."""
    from types import SimpleNamespace

    from companion import forms
    from companion.saving import service, wire

    sc = forms.screens("revive")
    start = {"game": "revive", "variant": "base", "players": [{"name": "Ana"}, {"name": "Bo"}]}
    record = SimpleNamespace(document=start, version=3, status="draft", seats_version=0)
    moved = SimpleNamespace(id=1, document={**start, "players": start["players"][::-1]}, version=4,
                            status="draft", seats_version=4)
    writes = []

    def write(rec, document, version, *, status=None, result=None):
        writes.append(document)
        raise store.StaleVersion(moved)

    posted = wire.Save({"players-0-track": ("", "10")}, [], {}, 3)
    with app.test_request_context():
        out = service.submit(record, posted, sc.fields, write=write)
    assert out.kind == "seats" and out.record is moved and len(writes) == 1
