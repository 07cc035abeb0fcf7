"""Reterra's screens with the Flask client: counts and drawn communities round-trip to the contract
document, the no-JS notation ("A1 C4"), French messages beside the fields, building cards by name."""

from __future__ import annotations

import copy
import re
from html import unescape

import pytest

from app_helpers import autosave, create_game, error_beside, markup, posted, stored
from companion.extensions import db
from companion.forms import reterra as screens
from companion.forms import screens as screens_of
from companion.games import reterra as engine
from companion.storage.models import GameRecord
from document_helpers import load_example

EXAMPLE = load_example("reterra.json")


def create(client, names=("Maëlle", "Yanis")) -> str:
    return create_game(client, "reterra", "base", names)


def example_form(version: int) -> dict[str, str]:
    """The example as a table types it without JavaScript: a card given by its name only, Maëlle's
    counts, Yanis's community as 8 rows of letters and squares in A1 notation."""
    data = {"version": str(version), "action": "save",
            "buildings-0-name": "Terrain de sport", "buildings-0-points": "3",
            "players-0-mode": "counts", "players-0-segments": "1", "players-0-energy_sources": "1",
            "players-0-relics": "4", "players-0-junk": "1", "players-0-inhabitants": "3",
            "players-0-built-0": "1",
            "players-1-mode": "grid", "players-1-built-0": "",
            "players-1-grid-sources": "e3", "players-1-grid-relics": "A1, H8",
            "players-1-grid-junk": "H8", "players-1-grid-inhabitants": "E5 F6"}
    for r, row in enumerate(EXAMPLE["players"][1]["grid"]["terrain"]):
        data[f"players-1-grid-terrain-{r}"] = " ".join(row[:4]) + " " + row[4:].lower()  # as typed
    return data


def test_both_modes_save_the_contract_document_and_come_back_unchanged(app, client):
    token = create(client)
    response = client.post(f"/g/{token}/", data=example_form(1))
    assert response.status_code == 302, response.get_data(as_text=True)
    rec = stored(app, token)
    assert rec.document == EXAMPLE  # the card's id derived from its name, counts left out in grid mode

    page = client.get(f"/g/{token}/").get_data(as_text=True)
    fields = posted(page)
    assert fields["players-1-mode"] == "grid" and fields["players-0-mode"] == "counts"
    rows = [fields[f"players-1-grid-terrain-{r}"] for r in range(8)]
    assert rows == EXAMPLE["players"][1]["grid"]["terrain"]
    assert (fields["players-1-grid-sources"], fields["players-1-grid-relics"], fields["players-1-grid-junk"],
            fields["players-1-grid-inhabitants"]) == ("E3", "A1 H8", "H8", "E5 F6")
    assert fields["buildings-0-id"] == "terrain-de-sport" and fields["players-0-built-0"] == "1"
    assert 'data-show-if="players-1-mode=counts" hidden' in page  # Yanis's counts are put away

    # Another phone's values, should they conflict, read the way they were typed.
    with app.test_request_context():
        texts = screens_of("reterra").texts(EXAMPLE)
        shown = {name: texts.shown(name) for name in texts.values}
    assert shown["players-1-grid-relics"] == "A1 H8" and shown["players-1-grid-terrain-0"] == "FFFFEEDD"
    assert shown["players-1-mode"] == "Dessiner la communauté"

    # Posting the page back as rendered changes nothing.
    fields["action"] = "save"
    assert client.post(f"/g/{token}/", data=fields).status_code == 302
    again = stored(app, token)
    assert again.document == EXAMPLE and again.version == rec.version  # nothing changed: nothing written

    results = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    assert "Yanis gagne" in results
    assert '<td class="num">\u22121</td>' in results  # junk, with a true minus sign as on the sheet
    totals = re.search(r'<tr class="totals">(.*?)</tr>', results, re.S).group(1)
    assert re.findall(r'<td class="num">(\d+)</td>', totals) == ["20", "25"]


def test_a_stored_document_with_its_own_card_id_keeps_it(app, client):
    token = create(client)
    doc = copy.deepcopy(EXAMPLE)
    doc["buildings"] = [{"id": "sport", "name": "Terrain de sport", "points": 3}]
    doc["players"][0]["buildings"] = {"sport": 1}
    with app.app_context():
        rec = db.session.scalar(db.select(GameRecord).where(GameRecord.edit_token == token))
        rec.document = doc
        db.session.commit()
    fields = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    fields["action"] = "save"
    assert client.post(f"/g/{token}/", data=fields).status_code == 302
    assert stored(app, token).document == doc


@pytest.mark.parametrize(("field", "typed", "message"), [
    ("players-1-grid-relics", "A1 Z9",
     "« Z9 » n'est pas une case : une lettre de A à H (colonne) puis un chiffre de 1 à 8 (ligne), "
     "par exemple C4"),
    ("players-1-grid-relics", "A1 a1", "A1 est écrite deux fois"),
    ("players-1-grid-sources", "E3 F4", "E3 et F4 sont sur la même tuile : une seule fois par tuile"),
    ("players-1-grid-terrain-2", "PPRREEDX",
     "ligne 3 : « X » en H3 : attendu F (forêt), E (eau), D (désert), P (plaine) ou R (rocaille)"),
    ("players-1-grid-terrain-7", "RRFFEE", "ligne 8 : 8 lettres attendues, une par case de A à H"),
    ("players-1-grid-terrain-0", "FFFF..DD", "ligne 1 : la case E1 n'est pas encore peinte"),
    # the engine's own rules, its coordinates said in the board's notation
    ("players-1-grid-junk", "H8 A2", "la case A2 n'a pas de relique : le bric-à-brac se pose sur une relique "
                                     "(imprimée ou jeton)"),
    ("players-1-grid-sources", "A1",
     "la tuile A1-B2 porte une source d'énergie : ses 4 cases doivent être de l'eau (E), "
     "or la case A1 est forêt"),
    ("players-0-segments", "12", "doit être entre 0 et 9"),
])
def test_a_bad_entry_is_refused_beside_its_field_and_nothing_is_stored(app, client, field, typed, message):
    token = create(client)
    assert client.post(f"/g/{token}/", data=example_form(1)).status_code == 302
    before = stored(app, token)
    data = example_form(before.version)
    data[field] = typed
    response = client.post(f"/g/{token}/", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert error_beside(html, field) == message
    assert f'value="{typed}"' in html or field.startswith("players-1-grid-terrain")  # what was typed stays
    after = stored(app, token)
    assert (after.document, after.version) == (before.document, before.version)


def test_only_the_chosen_mode_is_read(app, client):
    token = create(client)
    data = example_form(1)
    data["players-0-grid-relics"] = "not squares"  # Maëlle counts: her hidden board is ignored
    data["players-1-segments"] = "99"  # Yanis draws: his hidden counts are ignored
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    assert stored(app, token).document == EXAMPLE


def test_an_empty_board_is_nothing_drawn_yet(app, client):
    token = create(client)
    data = {"version": "1", "action": "save", "players-0-mode": "grid", "players-1-mode": "grid"}
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    assert stored(app, token).document["players"] == [{"name": "Maëlle"}, {"name": "Yanis"}]


def test_a_tap_on_dessiner_and_back_keeps_the_counts(app, client):
    """QA: "Dessiner la communauté" tapped by mistake (or to start drawing) erased the counts typed
    before, on the server and then on the screen: the total fell to 0. An empty board replaces
    nothing; a board painted in full replaces the counts, as the contract says."""

    token = create(client)

    def save(version, **changes):
        answer = autosave(client, token, version, **changes)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        return answer.json

    first = save(1, players__0__segments=("", "2"), players__0__relics=("", "5"))
    assert first["totals"][0] > 0
    drawing = save(first["version"], players__0__mode=("counts", "grid"))
    assert drawing["totals"] == first["totals"]
    assert drawing["stored"]["players-0-segments"] == "2" and drawing["stored"]["players-0-relics"] == "5"
    back = save(drawing["version"], players__0__mode=("grid", "counts"))
    assert back["totals"] == first["totals"]
    player = stored(app, token).document["players"][0]
    assert (player["segments"], player["relics"]) == (2, 5) and "grid" not in player
    # A community painted in full is the score: its counts are the board's, none of the typed ones.
    rows = {f"players__0__grid__terrain__{r}": ("", row) for r, row in enumerate(
        EXAMPLE["players"][1]["grid"]["terrain"])}
    painted = save(back["version"], players__0__mode=("counts", "grid"), **rows)
    player = stored(app, token).document["players"][0]
    assert "grid" in player and "segments" not in player and "relics" not in player
    assert painted["totals"][0] == engine.analyse_grid(player["grid"])["total"]


def test_building_cards_by_name(app, client):
    token = create(client)
    data = example_form(1)
    data.update({"buildings-1-name": "Observatoire", "buildings-1-points": "4", "players-1-built-1": "2",
                 "buildings-2-name": "", "buildings-2-points": "", "players-0-built-2": ""})
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    doc = stored(app, token).document
    assert doc["buildings"][1] == {"id": "observatoire", "name": "Observatoire", "points": 4}
    assert doc["players"][1]["buildings"] == {"observatoire": 2}

    page = client.get(f"/g/{token}/").get_data(as_text=True)
    assert re.search(r'<label for="players-1-built-1">Observatoire</label>', page)  # a stepper per card

    bad = example_form(2)
    bad.update({"buildings-1-name": "Terrain  de Sport", "buildings-1-points": "2",
                "buildings-2-points": "5"})
    response = client.post(f"/g/{token}/", data=bad)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert error_beside(html, "buildings-1-name") == "cette carte est déjà la ligne 1"
    assert error_beside(html, "buildings-2-name") == "donnez le nom de la carte"
    assert stored(app, token).version == 2


def test_inhabitants_settle_a_tie(app, client):
    token = create(client, ("Alice", "Bruno"))
    data = {"version": "1", "action": "finish",
            "players-0-mode": "counts", "players-0-segments": "2", "players-0-inhabitants": "1",
            "players-1-mode": "counts", "players-1-segments": "1", "players-1-inhabitants": "4"}
    response = client.post(f"/g/{token}/", data=data)
    assert response.status_code == 302
    html = unescape(client.get(response.headers["Location"]).get_data(as_text=True))
    assert "Bruno gagne" in html
    assert "habitants" in html.split('class="ties"')[1].split("</div>")[0]


# ------------------------------------------------------------------ notation


def test_notation_reads_and_writes_the_board_coordinates():
    assert screens.parse_squares(" a1,C4;h8  ") == [(0, 0), (3, 2), (7, 7)]
    assert screens.parse_squares("F4 A8", tiles=True) == [(1, 2), (3, 0)]
    assert screens.write_squares([[0, 0], [3, 2]]) == "A1 C4"
    assert screens.write_squares([[1, 2]], tiles=True) == "E3"
    with pytest.raises(ValueError, match="« I1 » n'est pas une case"):
        screens.parse_squares("I1")
    with pytest.raises(ValueError, match="« A0 »"):
        screens.parse_squares("A0")
    assert screens.slug("  Café-théâtre & Cie ") == "cafe-theatre-cie"
    assert screens.readable("la case [5, 5] porte du bric-à-brac (junk[0]) : non") == \
        "la case F6 porte du bric-à-brac : non"


def test_every_square_reads_back_as_the_engine_sees_it():
    """The notation and the engine agree on every square: row 1 is the top row, column A the left."""
    for r in range(engine.SIZE):
        for c in range(engine.SIZE):
            text = screens.write_squares([[r, c]])
            assert screens.parse_squares(text) == [(r, c)]
            assert screens.readable(f"la case [{r}, {c}]") == f"la case {text}"


# ------------------------------------------------------------------ results drawing


def drawing(html: str, name: str) -> str:
    pattern = rf'<figure class="community" data-player="{re.escape(name)}">(.*?)</figure>'
    match = re.search(pattern, html, re.S)
    return match.group(1) if match else ""


def test_the_results_drawing_shows_what_the_engine_found(app):
    from flask import render_template

    from companion import games

    class Record:
        document = EXAMPLE

    with app.test_request_context():
        html = render_template("play/_reterra_results.html", result=games.score(EXAMPLE), record=Record)
    assert drawing(html, "Maëlle") == ""  # counted on the table: nothing to draw
    svg = drawing(html, "Yanis")
    assert svg.count('<rect class="sq-') == 64
    assert svg.count('class="sq-F seg"') == 8  # the forest segment of 8 squares, in its strong tone
    assert svg.count('class="sq-R"') == 8  # the two rock areas of 4: pale, no segment
    assert svg.count('<path class="seg-line"') == 5
    assert svg.count('<circle class="source scored"') == 1
    assert svg.count('<path class="relic"') == 2 and svg.count('<path class="junk"') == 1
    assert svg.count('<circle class="inhabitant"') == 2
    assert "<b>25 points</b>" in svg and "5 segments" in svg


def test_results_pages_draw_each_drawn_community(client):
    """Through play/_results.html's hook: {% include "play/_" ~ game.id ~ "_results.html" %}."""
    token = create(client)
    assert client.post(f"/g/{token}/", data=example_form(1)).status_code == 302
    for url in (f"/g/{token}/resultats", client.get(f"/g/{token}/resultats").get_data(as_text=True)
                .split('id="share-url" type="text" readonly value="')[1].split('"')[0]):
        html = client.get(url).get_data(as_text=True)
        assert drawing(html, "Yanis").count('<path class="seg-line"') == 5
        assert drawing(html, "Maëlle") == ""


def test_play_again_keeps_the_cards_and_the_next_player_starts(app, client):
    token = create(client, ("Maëlle", "Yanis", "Inès"))
    data = {"version": "1", "buildings-0-name": "Terrain de sport", "buildings-0-points": "3",
            "buildings-1-name": "Observatoire", "buildings-1-points": "2", "players-0-built-0": "1"}
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    again = re.fullmatch(r"/g/([\w-]+)/", client.post(f"/g/{token}/rejouer").headers["Location"]).group(1)
    doc = stored(app, again).document
    assert [p["name"] for p in doc["players"]] == ["Yanis", "Inès", "Maëlle"]
    assert doc["buildings"] == [{"id": "terrain-de-sport", "name": "Terrain de sport", "points": 3},
                                {"id": "observatoire", "name": "Observatoire", "points": 2}]
    assert all(set(p) == {"name"} for p in doc["players"])  # the communities start empty


def test_cards_this_device_used_before_are_offered(app, client):
    token = create(client)
    data = {"version": "1", "buildings-0-name": "Terrain de sport", "buildings-0-points": "3"}
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    fresh = create(client, ("Inès", "Jules"))
    html = unescape(client.get(f"/g/{fresh}/").get_data(as_text=True))
    assert re.search(r'<button type="button" class="ghost chip-button" data-card-name="Terrain de sport" '
                     r'data-card-points="3"', html)
    assert '<option value="Terrain de sport">3 points</option>' in html  # without JS: suggested
    # another device sees none of them
    other = app.test_client()
    other_token = create(other, ("Léa", "Noé"))
    assert "data-card-picker" not in markup(other.get(f"/g/{other_token}/").get_data(as_text=True))


def test_two_phones_adding_a_card_at_once_keep_each_count_with_its_card(app, client):
    """QA: A adds the card "Puits"; B, at the same moment, adds "Forge" at the same row and gives
    Maëlle 3 of them. B's card goes to the next row, and its count goes with it: before, the count
    stayed at the old row, on A's card, and nobody was told."""

    token = create(client)

    first = autosave(client, token, 1, ["buildings-0"],
                     buildings__0__name=("", "Ferme"), buildings__0__points=("", "3"))
    assert first.status_code == 200
    base = first.json["version"]
    a = autosave(client, token, base, ["buildings-1"],
                 buildings__1__name=("", "Puits"), buildings__1__points=("", "2"))
    assert a.status_code == 200
    b = autosave(client, token, base, ["buildings-1"],
                 buildings__1__name=("", "Forge"), buildings__1__points=("", "4"),
                 players__0__built__1=("", "3"))
    assert b.status_code == 200, b.get_data(as_text=True)
    assert b.json["moved"] == {"buildings-1": "buildings-2", "players-0-built-1": "players-0-built-2"}
    doc = stored(app, token).document
    assert [c["name"] for c in doc["buildings"]] == ["Ferme", "Puits", "Forge"]
    forge = doc["buildings"][2]["id"]
    assert doc["players"][0]["buildings"] == {forge: 3}
    assert b.json["stored"]["players-0-built-2"] == "3" and "players-0-built-1" not in b.json["stored"]


def test_a_conflict_on_a_building_count_names_the_card(app, client):
    """QA: a conflict on a count read "Maëlle · Built · Built 2" (an English field name, a row
    number); it is named by its card, in the reader's language."""

    token = create(client)

    first = autosave(client, token, 1, buildings__0__name=("", "Forge"), buildings__0__points=("", "3"),
                 players__0__built__0=("", "1"))
    assert first.status_code == 200
    assert autosave(client, token, first.json["version"], players__0__built__0=("1", "2")).status_code == 200
    late = autosave(client, token, first.json["version"], players__0__built__0=("1", "3"))
    assert late.status_code == 409
    assert late.json["fields"] == [["players-0-built-0", "Maëlle · Forge", "2"]]


def test_board_messages_name_squares_as_the_board_does_everywhere(app, client):
    """QA: the summary at the top said "la case [4, 2]" where the board says C5: every message of
    the engine about a square reads in the board's notation (summary, field, autosave answer)."""
    import json

    token = create(client)
    data = example_form(1) | {"players-1-grid-junk": "C5", "action": "finish"}
    page = client.post(f"/g/{token}/", data=data)
    assert page.status_code == 422
    html = unescape(page.get_data(as_text=True))
    summary = html[html.index('id="error-summary"'):html.index("</nav>", html.index('id="error-summary"'))]
    assert "C5" in summary and not re.search(r"\[\d, \d\]", summary)
    version = stored(app, token).version

    # what the page was rendered from: the stored values
    values = screens_of("reterra").texts(stored(app, token).document).values
    changes = {k: [values.get(k, ""), v] for k, v in data.items()
               if k not in ("version", "action") and values.get(k, "") != v}
    answer = client.post(f"/g/{token}/save", data={"version": str(version), "changes": json.dumps(changes)})
    messages = [m for ms in answer.json["errors"].values() for m in ms] + answer.json["general"]
    assert messages and all(not re.search(r"\[\d, \d\]", m) for m in messages), messages
