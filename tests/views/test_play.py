"""The table's flow with the Flask client: new game, end state, results, sharing, history, conflicts."""

from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest

from app_helpers import create_game, error_beside, foreign_inline, make_app, posted, stored
from companion import games
from companion.extensions import db
from companion.storage.models import DeviceGame, GameRecord
from document_helpers import load_example


def revive_form(doc: dict, version: int, mode: str = "each", shared=(0, 0, 0)) -> dict:
    """The form fields a table fills in for a Revive document (what the phone posts)."""
    data = {"version": str(version), "card_mode": mode}
    if mode == "shared":
        for j, points in enumerate(shared):
            data[f"card-{j}-points"] = str(points)
    for i, p in enumerate(doc["players"]):
        pre = f"players-{i}-"
        for key in ("track", "progress", "scyphoz", "two_tokens", "artifact_points", "devotion",
                    "machine_progress"):
            if key in p:
                data[pre + key] = str(p[key])
        for j, cb in enumerate(p.get("card_bonus", [])):
            if cb.get("unlocked"):
                data[f"{pre}card_bonus-{j}-unlocked"] = "y"
            data[f"{pre}card_bonus-{j}-cards"] = str(cb.get("cards", 0))
        for j, v in enumerate(p.get("great_locations", [])):
            data[f"{pre}great_locations-{j}"] = str(v)
        if p.get("four_token"):
            data[pre + "four_token"] = "y"
        for key, v in p.get("resources", {}).items():
            data[f"{pre}resources-{key}"] = str(v)
        for j, v in enumerate(p.get("artifacts", [])):
            data[f"{pre}artifacts-{j}"] = str(v)
        for j, line in enumerate(p.get("artifact_card", [])):
            data[f"{pre}artifact_card-{j}-count"] = str(line.get("count", 0))
            data[f"{pre}artifact_card-{j}-points"] = str(line.get("points", 0))
    return data


def create(client, names=("Maëlle", "Yanis"), variant="abyss", colours=None) -> str:
    return create_game(client, "revive", variant, names, colours)


record = stored


# ------------------------------------------------------------------ new game


def test_new_game_page_offers_colours_suggestions_and_seats(client):
    page = client.get("/nouvelle?game=revive&variant=abyss")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Nouvelle partie de Revive" in html
    assert html.count('list="noms-connus"') == 4  # Revive: up to 4 players
    assert '<datalist id="noms-connus">' in html
    # Seat i defaults to the box's colour i.
    assert re.search(r'id="players-0-colour".*?<option selected value="#c8372d">', html, re.S)
    assert re.search(r'id="players-1-colour".*?<option selected value="#2f6fb3">', html, re.S)
    assert 'value="abyss" checked' in html or 'checked id="variant-1"' in html or re.search(
        r'<input checked[^>]*value="abyss"', html)


def test_create_stores_players_in_seat_order_with_colours(app, client):
    token = create(client, ["Inès", "", "Yanis"], colours=["#3d8b4f", "#c8372d", "#2f6fb3"])
    rec = record(app, token)
    assert rec.document == {"game": "revive", "variant": "abyss",
                            "players": [{"name": "Inès"}, {"name": "Yanis"}]}
    assert rec.colours == ["#3d8b4f", "#2f6fb3"]
    assert rec.status == "draft" and rec.version == 1
    assert rec.edit_token != rec.view_token and len(rec.edit_token) >= 40


def test_new_game_rejects_duplicate_names_beside_the_field(app, client):
    page = client.post("/nouvelle", data={"game": "revive", "variant": "base",
                                          "players-0-name": "Alice", "players-1-name": "alice "})
    html = page.get_data(as_text=True)
    assert page.status_code == 422
    assert "nom déjà pris" in error_beside(html, "players-1-name")
    with app.app_context():
        assert db.session.query(GameRecord).count() == 0


def test_new_game_needs_players(client):
    page = client.post("/nouvelle", data={"game": "revive", "variant": "base"})
    assert page.status_code == 422
    assert "Ajoutez les joueurs" in page.get_data(as_text=True)


def test_game_without_screens_is_not_offered(client, dice):
    page = client.get("/nouvelle?game=dice")
    assert page.status_code == 404
    assert "pas encore disponible" in page.get_data(as_text=True)


def test_names_used_before_on_this_device_are_suggested(client, app):
    create(client, ["Maëlle", "Yanis"])
    html = client.get("/nouvelle?game=revive").get_data(as_text=True)
    datalist = re.search(r'<datalist id="noms-connus">(.*?)</datalist>', html, re.S).group(1)
    assert 'value="Maëlle"' in datalist and 'value="Yanis"' in datalist
    other = app.test_client()
    datalist = re.search(r'<datalist id="noms-connus">(.*?)</datalist>',
                         other.get("/nouvelle?game=revive").get_data(as_text=True), re.S).group(1)
    assert "Maëlle" not in datalist


# ------------------------------------------------------------------ end state


def test_a_submission_missing_a_players_fields_never_shifts_the_others(app, client):
    token = create(client, ["Maëlle", "Yanis"])
    client.post(f"/g/{token}/", data={"version": "1", "card_mode": "shared", "players-1-track": "9"})
    players = record(app, token).document["players"]
    assert players[1]["track"] == 9 and "track" not in players[0]


def test_full_game_scores_like_the_example(app, client):
    example = load_example("revive-abyss.json")
    token = create(client)
    data = revive_form(example, 1) | {"action": "finish"}
    response = client.post(f"/g/{token}/", data=data)
    assert response.status_code == 302 and response.headers["Location"].endswith("/resultats")
    rec = record(app, token)
    assert rec.status == "scored" and rec.version == 2
    assert games.score(rec.document).to_dict() == games.score(example).to_dict()
    html = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    assert "Maëlle gagne" in html
    totals = re.search(r'<tr class="totals">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r'<td class="num">(\d+)</td>', totals) == ["94", "83"]
    # Categories as rows, with their labels and each line's detail behind <details>.
    assert "Cartes gagnées et Scyphoz" in html and "Dévotion" in html
    assert "3 × 2 (couleur 1) + 1 × 2 (Scyphoz) = 8" in html


def test_shared_artifact_card_is_copied_to_every_player(app, client):
    token = create(client, variant="base")
    doc = {"players": [{"name": "Maëlle", "artifacts": [3, 0, 0], "artifact_card": [{"count": 6}, {}, {}]},
                       {"name": "Yanis", "artifact_card": [{"count": 2}, {"count": 1}, {}]}]}
    data = revive_form(doc, 1, mode="shared", shared=(1, 2, 0))
    data = {k: v for k, v in data.items() if not k.endswith("-points") or k.startswith("card-")}
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    stored = record(app, token).document
    assert [line.get("points", 0) for line in stored["players"][0]["artifact_card"]] == [1, 2, 0]
    assert [line.get("points", 0) for line in stored["players"][1]["artifact_card"]] == [1, 2, 0]
    result = games.score(stored)
    assert result.player("Maëlle").points("artifact_card") == 24  # the rules' example: 4 × 6 × 1
    # Reopened, the card shows as shared with its points once.
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    assert re.search(r'<input checked[^>]*value="shared"', html)
    assert re.search(r'name="card-1-points"[^>]*value="2"|value="2"[^>]*name="card-1-points"', html)


def test_invalid_value_is_shown_beside_the_field_and_nothing_is_stored(app, client):
    """Every value of the save wrong on its own: nothing is stored."""
    token = create(client)
    before = record(app, token)
    data = {"version": "1", "card_mode": "shared", "players-0-resources-gears": "9",
            "players-1-two_tokens": "deux"}
    page = client.post(f"/g/{token}/", data=data)
    html = page.get_data(as_text=True)
    assert page.status_code == 422
    assert error_beside(html, "players-0-resources-gears") == "doit être entre 0 et 6"
    assert error_beside(html, "players-1-two_tokens") == "doit être un nombre entier"
    assert "Rien n'a été enregistré" in unescape(html)
    # The typed values stay in the form to be corrected.
    assert 'value="deux"' in html and 'value="9"' in html
    after = record(app, token)
    assert after.document == before.document and after.version == 1


def test_invalid_values_are_shown_beside_their_fields_and_the_rest_is_stored(app, client):
    """Issue 29: a save keeps every valid value; the ones wrong on their own stay on the page with
    their messages (docs/rulings.md)."""
    token = create(client)
    data = {"version": "1", "card_mode": "shared", "players-0-track": "40",
            "players-0-resources-gears": "9", "players-1-two_tokens": "deux"}
    page = client.post(f"/g/{token}/", data=data)
    html = page.get_data(as_text=True)
    assert page.status_code == 422
    assert error_beside(html, "players-0-resources-gears") == "doit être entre 0 et 6"
    assert error_beside(html, "players-1-two_tokens") == "doit être un nombre entier"
    assert "Enregistré, sauf 2 valeurs à corriger" in unescape(html)
    assert "Rien n'a été enregistré" not in unescape(html)
    # The typed values stay in the form to be corrected; the page is based on what is stored now.
    assert 'value="deux"' in html and 'value="40"' in html and 'value="9"' in html
    page_fields = posted(html)
    assert page_fields["version"] == "2"
    assert json.loads(page_fields["base_values"])["players-0-track"] == "40"
    after = record(app, token)
    assert after.version == 2
    assert after.document["players"][0]["track"] == 40
    assert "resources" not in after.document["players"][0]
    assert "two_tokens" not in after.document["players"][1]
    # fixed on this page and saved again: stored, nothing left to correct
    again = client.post(f"/g/{token}/", data=page_fields | {"players-1-two_tokens": "2", "action": "save"})
    assert again.status_code == 422  # one fixed, stored; the other still to correct
    assert "Enregistré, sauf 1 valeur à corriger" in unescape(again.get_data(as_text=True))
    assert record(app, token).document["players"][1]["two_tokens"] == 2
    page_fields = posted(again.get_data(as_text=True))
    fixed = client.post(f"/g/{token}/",
                        data=page_fields | {"players-0-resources-gears": "5", "action": "save"})
    assert fixed.status_code == 302
    assert record(app, token).document["players"][0]["resources"] == {"gears": 5}


def test_item_hints_are_said_once_per_list_not_in_every_row(app, client):
    """A list's item fields keep their hint (V1: cards gained WITHOUT the starting cards), said once
    above the list, whatever its number of rows, and each row's field points at it; the same list of
    the next players says nothing more (issue 33: static/js/play/fields.js shows its "?" there)."""
    token = create(client, variant="base")
    data = {"version": "1", "card_mode": "shared", "action": "save"}
    for j, points in enumerate((5, 7, 9)):
        data[f"players-0-great_locations-{j}"] = str(points)
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    html = unescape(client.get(f"/g/{token}/").get_data(as_text=True))
    rows = re.findall(r'<input [^>]*name="players-0-great_locations-\d+"[^>]*>', html)
    assert len(rows) == 4  # three typed and the blank one
    # Once on the page (two players), not once per row, per colour or per player.
    seen = html
    assert seen.count("les points imprimés sur ce grand emplacement") == 1
    gained = "cartes de cette couleur gagnées pendant la partie, sans compter vos cartes de départ"
    assert seen.count(gained) == 1
    assert seen.count("ce que compte cette ligne de la carte") == 1
    assert 'id="f-players-1-great_locations" data-rows="players-1-great_locations" data-max="5" ' \
           'data-item-label="Grand emplacement" data-fold="h-great_locations"' in html
    box = re.search(r'id="f-players-0-great_locations".*?<ul class="item-hints"[^>]*>(.*?)</ul>', html, re.S)
    lines = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", li)).strip()
             for li in re.findall(r"<li[^>]*>(.*?)</li>", box.group(1), re.S)]
    assert lines == ["Points : les points imprimés sur ce grand emplacement"]
    # Each row's field, every player's, keeps its hint for a screen reader: the one the list says.
    for i, j in [(0, j) for j in range(4)] + [(1, 0)]:
        row = f"players-{i}-great_locations-{j}"
        assert re.search(rf'<input [^>]*name="{row}"[^>]*aria-describedby="h-great_locations-n"',
                         html)
    assert html.count('id="h-great_locations-n"') == 1
    said = '<span id="h-great_locations-n">les points imprimés sur ce grand emplacement</span>'
    assert said in html
    # The points of each player's own card line: said only when each player has a card.
    assert re.search(r'<li data-show-if="card_mode=each" hidden><span class="item-hint-label">'
                     r'Points indiqués', html)


def test_the_page_says_when_typing_is_saved_with_and_without_javascript(client):
    html = unescape(client.get(f"/g/{create(client)}/").get_data(as_text=True))
    assert re.search(r'<span class="js-only">Chaque saisie est enregistrée au fur et à mesure\.</span>', html)
    assert re.search(r'<span class="nojs-only">Rien n\'est enregistré avant « Enregistrer »', html)
    # as served (minified): the rules read without their spaces
    css = re.sub(r"\s+|;(?=\})", "", client.get("/static/css/app.css").get_data(as_text=True))
    rule = re.search(r"@media\(scripting:none\)\{(.*?)\}\}", css).group(1)
    assert ".js-only{display:none" in rule and ".nojs-only{display:inline" in rule
    assert re.search(r"(^|\})\.nojs-only\{display:none\}", css)


def test_engine_problem_maps_back_to_its_field(app, client):
    """Only one player may hold the 4-point token (V5): the engine's message lands beside the field."""
    token = create(client)
    data = {"version": "1", "card_mode": "shared", "players-0-four_token": "y", "players-1-four_token": "y",
            "action": "finish"}
    posted_ = client.post(f"/g/{token}/", data=data)
    # a rule between fields: kept as a draft, no results; said on a page reached by a GET
    # (post/redirect/get: the back button never asks to send the form again)
    assert posted_.status_code == 303
    assert posted_.headers["Location"] == f"/g/{token}/?attente=1#error-summary"
    page = client.get(posted_.headers["Location"])
    assert page.status_code == 200
    said = unescape(page.get_data(as_text=True))
    assert "Vos saisies sont enregistrées, mais les résultats attendent encore" in said
    assert "un seul joueur peut tenir le jeton 4 points" in error_beside(
        page.get_data(as_text=True), "players-1-four_token")
    assert (record(app, token).version, record(app, token).status) == (2, "draft")


def test_list_rows_without_js(app, client):
    token = create(client, variant="base")
    # "Ajouter une ligne" on a phone without JS: saves and gives one more blank row.
    data = {"version": "1", "card_mode": "shared", "players-0-great_locations-0": "5", "add_row":
            "players-0-great_locations"}
    page = client.post(f"/g/{token}/", data=data)
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'name="players-0-great_locations-1"' in html and 'name="players-0-great_locations-2"' in html
    assert record(app, token).document["players"][0]["great_locations"] == [5]
    # Blank rows in the middle are dropped, and an engine error is shown on the right row.
    data = {"version": "2", "card_mode": "shared", "players-0-great_locations-0": "5",
            "players-0-great_locations-1": "", "players-0-great_locations-2": "31"}
    page = client.post(f"/g/{token}/", data=data)
    assert page.status_code == 422
    assert "entre 1 et 30" in error_beside(page.get_data(as_text=True), "players-0-great_locations-2")


def test_version_conflict_keeps_both_sides(app, client):
    token = create(client)
    first = {"version": "1", "card_mode": "shared", "players-0-track": "38"}
    assert client.post(f"/g/{token}/", data=first).status_code == 302  # phone A saves (version 2)
    stale = {"version": "1", "card_mode": "shared", "players-0-track": "12", "players-1-track": "55"}
    page = client.post(f"/g/{token}/", data=stale)  # phone B still had version 1
    html = page.get_data(as_text=True)
    assert page.status_code == 409
    assert "Rien n'a été écrasé" in unescape(html)
    assert re.search(r'id="t-players-0-track">Enregistré sur l\'autre appareil : <b>38</b>', unescape(html))
    assert 'value="12"' in html and 'value="55"' in html  # B's entries remain, to re-apply
    assert 'name="version" type="hidden" value="2"' in html or 'value="2"' in html
    rec = record(app, token)
    assert rec.document["players"][0]["track"] == 38 and rec.version == 2
    # Re-applying on purpose (the form now carries version 2) wins.
    assert client.post(f"/g/{token}/", data=stale | {"version": "2"}).status_code == 302
    assert record(app, token).document["players"][0]["track"] == 12


def test_autosave_warning_in_english(app, client):
    """The blank-player warning is a sentence of the reader's language, like every message."""
    token = create(client)
    client.get("/langue/en")
    ok = client.post(f"/g/{token}/save", data={"version": "1", "card_mode": "shared", "players-0-track": "7"})
    assert ok.json["warnings"] == {"players-1": ["Yanis: nothing entered (total 0). Forgotten?"]}
    page = client.get(f"/g/{token}/").get_data(as_text=True)
    assert "Yanis: nothing entered (total 0). Forgotten?" in page


def test_autosave_json(app, client):
    token = create(client)
    ok = client.post(f"/g/{token}/save", data={"version": "1", "card_mode": "shared", "players-0-track": "7"})
    assert ok.status_code == 200
    assert {k: ok.json[k] for k in ("ok", "version", "errors", "general", "totals", "draft")} == {
        "ok": True, "version": 2, "errors": {}, "general": [], "totals": [7, 0], "draft": False}
    assert ok.json["stored"]["players-0-track"] == "7"  # what the server holds, for the page
    # a likely mistake, never blocking: Yanis has nothing entered while Maëlle has
    assert ok.json["warnings"] == {"players-1": ["Yanis : rien n'est saisi (total 0). Un oubli ?"]}
    bad = client.post(f"/g/{token}/save", data={"version": "2", "card_mode": "shared", "players-0-track": "7",
                                                "players-0-progress": "101"})
    assert bad.status_code == 422, bad.json
    assert bad.json["errors"] == {"players-0-progress": ["doit être entre 0 et 100"]}
    stale = client.post(f"/g/{token}/save", data={"version": "1", "card_mode": "shared",
                                                  "players-0-track": "9"})
    assert stale.status_code == 409 and stale.json["conflict"] and stale.json["version"] == 2
    assert stale.json["theirs"]["players-0-track"] == "7"
    # Blank fields are left out (0 / false / empty for the engines), lists of three stay three.
    assert record(app, token).document["players"][0] == {"name": "Maëlle", "track": 7,
                                                         "card_bonus": [{}, {}, {}],
                                                         "artifacts": [0, 0, 0],
                                                         "artifact_card": [{}, {}, {}]}


# ------------------------------------------------------------------ results, sharing


def test_tie_settled_by_leftover_resources(app, client):
    token = create(client, ["Alice", "Bob"], variant="base")
    doc = {"players": [{"name": "Alice", "track": 30, "resources": {"gears": 4}},
                       {"name": "Bob", "track": 30, "resources": {"books": 2}}]}
    assert client.post(f"/g/{token}/", data=revive_form(doc, 1) | {"action": "finish"}).status_code == 302
    html = unescape(client.get(f"/g/{token}/resultats").get_data(as_text=True))
    assert "Alice gagne" in html
    assert "ressources restantes non converties : Alice 4, Bob 2" in html


def test_shared_victory_is_shown_as_such(client):
    token = create(client, ["Alice", "Bob"], variant="base")
    doc = {"players": [{"name": "Alice", "track": 30}, {"name": "Bob", "track": 30}]}
    client.post(f"/g/{token}/", data=revive_form(doc, 1) | {"action": "finish"})
    html = unescape(client.get(f"/g/{token}/resultats").get_data(as_text=True))
    assert "Victoire partagée : Alice et Bob" in html
    assert html.count("<li class=\"place first shared\">") == 1


def test_read_only_link_cannot_edit(app, client):
    token = create(client)
    client.post(f"/g/{token}/", data={"version": "1", "card_mode": "shared", "players-0-track": "5",
                                      "action": "finish"})
    rec = record(app, token)
    viewer = app.test_client()
    page = viewer.get(f"/r/{rec.view_token}/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Maëlle gagne" in html
    assert rec.edit_token not in html and "<form" not in html.split("<main", 1)[1]
    assert viewer.post(f"/r/{rec.view_token}/", data={"players-0-track": "99"}).status_code == 405
    assert viewer.get(f"/g/{rec.view_token}/").status_code == 404
    assert viewer.post(f"/g/{rec.view_token}/save", data={"version": "2"}).status_code == 404
    assert record(app, token).document["players"][0]["track"] == 5
    # The edit side offers the share link.
    assert f"/r/{rec.view_token}/" in client.get(f"/g/{token}/resultats").get_data(as_text=True)


def test_play_again_with_the_same_players(app, client):
    token = create(client, ["Maëlle", "Yanis"], colours=["#3d8b4f", "#7b4ea3"])
    response = client.post(f"/g/{token}/rejouer")
    assert response.status_code == 302
    new_token = re.fullmatch(r"/g/([\w-]+)/", response.headers["Location"]).group(1)
    assert new_token != token
    old, new = record(app, token), record(app, new_token)
    # the next player starts: seat order shifted by one, each keeping their colour
    assert new.document == {"game": "revive", "variant": "abyss", "players": [{"name": "Yanis"},
                                                                               {"name": "Maëlle"}]}
    assert old.colours == ["#3d8b4f", "#7b4ea3"] and new.colours == ["#7b4ea3", "#3d8b4f"]
    assert new.status == "draft"


def test_revive_colours_named_once_and_said_on_every_line(app, client):
    """The table names its colours on the new-game page; the form's lists by colour and the results'
    details say those names, stored beside the document (never in it)."""
    response = client.post("/nouvelle", data={
        "game": "revive", "variant": "base", "players-0-name": "Maëlle", "players-1-name": "Yanis",
        "colour_names-0": "jaune", "colour_names-1": "bleu", "colour_names-2": ""})
    token = re.fullmatch(r"/g/([\w-]+)/", response.headers["Location"]).group(1)
    rec = record(app, token)
    assert rec.labels == {"colours": ["jaune", "bleu", ""]}
    assert "colour" not in json.dumps(rec.document)
    html = unescape(client.get(f"/g/{token}/").get_data(as_text=True))
    for key in ("card_bonus", "artifact_card"):
        assert re.search(rf'id="f-players-0-{key}-0"[^>]*>\s*<legend>jaune</legend>', html), key
        assert re.search(rf'id="f-players-0-{key}-1"[^>]*>\s*<legend>bleu</legend>', html), key
        assert re.search(rf'id="f-players-0-{key}-2"[^>]*>\s*<legend>couleur 3</legend>', html), key
    assert '<label for="players-1-artifacts-1">bleu</label>' in html
    data = {"version": "1", "card_mode": "shared", "players-0-card_bonus-1-unlocked": "y",
            "players-0-card_bonus-1-cards": "3", "players-1-track": "2", "action": "finish"}
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    results = unescape(client.get(f"/g/{token}/resultats").get_data(as_text=True))
    assert "(bleu)" in results and "couleur 2" not in results
    # ... and so does the printed sheet
    from pypdf import PdfReader

    sheet = PdfReader(io.BytesIO(client.get(f"/g/{token}/sheet.pdf").data))
    text = " ".join(" ".join(page.extract_text().split()) for page in sheet.pages)
    assert "(bleu)" in text and "couleur 2" not in text
    # "Rejouer" keeps the names
    again = re.fullmatch(r"/g/([\w-]+)/", client.post(f"/g/{token}/rejouer").headers["Location"]).group(1)
    assert record(app, again).labels == {"colours": ["jaune", "bleu", ""]}


def test_pdf_sheet_from_the_edit_and_the_read_only_links(app, client):
    from io import BytesIO

    from pypdf import PdfReader

    token = create(client, colours=["#3d8b4f", "#7b4ea3"])
    rec = record(app, token)
    for url in (f"/g/{token}/sheet.pdf", f"/r/{rec.view_token}/sheet.pdf"):
        response = client.get(url)
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        reader = PdfReader(BytesIO(response.data))
        text = reader.pages[0].extract_text()
        assert len(reader.pages) == 1
        # Names with their palette colour in words: a black-and-white print tells players apart.
        for words in ("Maëlle", "Yanis", "vert", "violet"):
            assert words in text
    assert client.get("/g/not-a-token/sheet.pdf").status_code == 404


# ------------------------------------------------------------------ history


def test_history_is_per_device(app, client):
    token = create(client, ["Maëlle", "Yanis"])
    client.post(f"/g/{token}/", data={"version": "1", "card_mode": "shared", "players-1-track": "9",
                                      "action": "finish"})
    mine = client.get("/parties").get_data(as_text=True)
    assert "Revive" in mine and "Yanis" in mine and "Gagnant" in mine
    assert f"/g/{token}/resultats" in mine
    cookie = client.get_cookie("companion_device")
    assert cookie is not None and cookie.http_only
    other = app.test_client()
    assert "Yanis" not in other.get("/parties").get_data(as_text=True)
    # Opening the read-only link puts it in that device's list, read-only.
    view = record(app, token).view_token
    other.get(f"/r/{view}/")
    theirs = other.get("/parties").get_data(as_text=True)
    assert "lecture seule" in theirs and f"/r/{view}/" in theirs and token not in theirs


def test_history_tells_a_game_from_its_copy_by_the_time(app, client):
    """A game and its "Rejouer" copy share date, game and players: the time tells them apart."""
    from datetime import UTC, datetime

    token = create(client, ["Maëlle", "Yanis"])
    copy = re.fullmatch(r"/g/([\w-]+)/", client.post(f"/g/{token}/rejouer").headers["Location"]).group(1)
    with app.app_context():
        for tok, when in ((token, datetime(2026, 11, 22, 20, 5, tzinfo=UTC)),
                          (copy, datetime(2026, 11, 22, 21, 40, tzinfo=UTC))):
            rec = db.session.scalar(db.select(GameRecord).where(GameRecord.edit_token == tok))
            rec.created_at = when
        db.session.commit()
    html = unescape(client.get("/parties").get_data(as_text=True))
    meta = r'<span class="history-meta muted">(.*?)</span>\s*<span class="history-winner">'
    metas = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m)) for m in re.findall(meta, html, re.S)]
    assert len(metas) == 2 and metas[0] != metas[1]
    assert any(m.startswith("22 nov. 2026 à 20 h 05 UTC ·") for m in metas), metas
    assert any(m.startswith("22 nov. 2026 à 21 h 40 UTC ·") for m in metas), metas
    assert '<time datetime="2026-11-22T20:05Z" data-local>' in html
    assert "Supprimer la partie Revive du 22 nov. 2026 à 21 h 40 UTC" in html


def test_times_are_said_in_the_players_time_zone(app, client):
    """Once the browser said its zone (cookie set by zone.js): history, results and the PDF's date
    are where the table plays. 23:30 UTC on 22 Nov is 23 Nov, 00:30 in Paris."""
    from datetime import UTC, datetime

    token = create(client, ["Maëlle", "Yanis"])
    with app.app_context():
        rec = db.session.scalar(db.select(GameRecord).where(GameRecord.edit_token == token))
        rec.created_at = datetime(2026, 11, 22, 23, 30, tzinfo=UTC)
        db.session.commit()
    client.set_cookie("companion_tz", "Europe/Paris")
    html = unescape(client.get("/parties").get_data(as_text=True))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert "23 nov. 2026 à 0 h 30 ·" in text
    assert "UTC" not in re.sub(r"<[^>]+>", "", html.split('<ul class="history"')[1])
    data = {"version": "1", "card_mode": "shared", "players-0-track": "3", "action": "finish"}
    client.post(f"/g/{token}/", data=data)
    assert "23 nov. 2026" in unescape(client.get(f"/g/{token}/resultats").get_data(as_text=True))
    sheet = client.get(f"/g/{token}/sheet.pdf")
    assert 'filename="revive-2026-11-23.pdf"' in sheet.headers["Content-Disposition"]
    # a zone that does not exist is ignored: UTC, said so
    client.set_cookie("companion_tz", "Mars/Olympus")
    assert "22 nov. 2026 à 23 h 30 UTC" in unescape(client.get("/parties").get_data(as_text=True))


def test_delete_with_confirmation(app, client):
    token = create(client)
    view = record(app, token).view_token
    confirm = client.get(f"/parties/{view}/supprimer")
    assert confirm.status_code == 200 and "Supprimer cette partie" in confirm.get_data(as_text=True)
    assert record(app, token) is not None  # a GET never deletes
    done = client.post(f"/parties/{view}/supprimer")
    assert done.status_code == 302
    assert client.get(f"/g/{token}/").status_code == 404
    with app.app_context():
        assert db.session.query(DeviceGame).count() == 0


def test_the_store_says_a_game_is_missing_and_the_pages_answer_404(app, client):
    """The store knows no HTTP: a link that finds no game raises `store.Missing` (outside any
    request too), which the pages answer as their 404."""
    from companion.storage import store

    with app.app_context():
        for find in (store.by_edit_token, store.by_view_token, store.read_by_edit_token,
                     store.read_by_view_token):
            with pytest.raises(store.Missing):
                find("no-such-link")
    page = client.get("/g/no-such-link/")
    assert page.status_code == 404 and "Page introuvable" in page.get_data(as_text=True)


def test_delete_only_removes_from_this_device_when_another_kept_it(app, client):
    token = create(client)
    view = record(app, token).view_token
    other = app.test_client()
    other.get(f"/g/{token}/")  # a second phone opened the edit link
    client.post(f"/parties/{view}/supprimer")
    assert view not in client.get("/parties").get_data(as_text=True)
    assert other.get(f"/g/{token}/").status_code == 200
    # A device that never opened the game cannot remove it.
    assert app.test_client().post(f"/parties/{view}/supprimer").status_code == 404


@pytest.mark.parametrize("url", ["/nouvelle", "/g/{token}/", "/g/{token}/save", "/g/{token}/rejouer",
                                 "/parties/{view}/supprimer"])
def test_csrf_required_when_enabled(tmp_path, url):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/nouvelle?game=revive").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    response = client.post("/nouvelle", data={"csrf_token": csrf, "game": "revive", "variant": "base",
                                              "players-0-name": "Alice"})
    assert response.status_code == 302
    token = response.headers["Location"].split("/")[2]
    view = record(app, token).view_token
    response = client.post(url.format(token=token, view=view), data={"game": "revive", "variant": "base",
                                                                     "version": "1", "players-0-name": "X"})
    assert response.status_code == 400
    if url.endswith("/save"):  # the autosave's JSON, shown by the phone as it is (issue 21)
        assert response.json["message"].startswith("La page a expiré : rechargez-la")
    else:
        assert "Le formulaire a expiré" in unescape(response.get_data(as_text=True))
    assert record(app, token).version == 1


def test_pages_keep_the_csp_and_stay_on_the_origin(app, client):
    """No inline script or style anywhere in the flow, and nothing fetched from another site."""
    token = create(client)
    client.post(f"/g/{token}/", data={"version": "1", "card_mode": "shared", "players-0-track": "5",
                                      "action": "finish"})
    view = record(app, token).view_token
    for url in ("/nouvelle?game=revive", f"/g/{token}/", f"/g/{token}/resultats", f"/r/{view}/", "/parties",
                f"/parties/{view}/supprimer"):
        response = client.get(url)
        html = response.get_data(as_text=True)
        assert " style=" not in html and "onclick" not in html, url
        assert not foreign_inline(response), url  # a first visit's own files alone, by their hashes
        # a link the user may tap is not a request; the only one leaving the app is BG Stats' (issue 14)
        links = re.findall(r'<a [^>]*href="([^"]+)"', html)
        resources = [u for u in re.findall(r'(?:src|href)="([^"]+)"', html) if u not in links]
        assert [u for u in resources if "//" in u] == [], url
        assert all(u.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
                   for u in links if "//" in u), url


def test_results_of_a_game_with_nothing_entered_say_so(app, client):
    """QA: "Voir les résultats" on an empty game gave a shared victory at 0 with no word of warning.
    The results say it once (in the reader's language); the edit page, where nobody has started
    yet, does not."""
    token = create(client)
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    finished = client.post(f"/g/{token}/", data=page | {"action": "finish"})
    assert finished.status_code == 302 and finished.headers["Location"].endswith("/resultats")
    results = unescape(client.get(f"/g/{token}/resultats").get_data(as_text=True))
    assert "Victoire partagée : Maëlle et Yanis" in results
    assert results.count("Rien n'est saisi pour aucun joueur : tout le monde est à 0. Un oubli ?") == 1
    edit = unescape(client.get(f"/g/{token}/").get_data(as_text=True))
    assert "Rien n'est saisi" not in edit and "rien n'est saisi" not in edit
    client.get("/langue/en")
    english = unescape(client.get(f"/g/{token}/resultats").get_data(as_text=True))
    assert "Nothing is entered for any player: everyone is at 0. Forgotten?" in english
