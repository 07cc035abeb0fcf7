"""Rebirth's end-state screens with the Flask client: both maps round-trip to the contract document,
map-only fields, hints in the rules' words, rows added without JavaScript, engine problems beside
their fields with nothing stored."""

from __future__ import annotations

import copy
import json
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from app_helpers import create_game, error_beside, posted, stored
from document_helpers import load_example

SCOTLAND = load_example("rebirth-scotland.json")

# An Irlande game of three, checked by hand against the rules (docs/rules/rebirth.fr.md):
#   Aoife: track 40 + farms (3 → 6, energy 2 → 3 and 1 → 1) 10 + 4-space city 13 (influence 4 against
#          Brian's 3, two players: 8 + 5) + 2 sea exploitations + public missions 6 × 2 + 3 = 15
#          + tower 13 + incomplete city 1 (her 1-icon tile) + 1 castle 5 + privatised mission 8 = 107
#   Brian: track 62 + farm 4 → 10 + cities 3 (4-space, second) + 3 (2-space, tied 2-2 with Ciara, whose
#          tile was placed first) + 1 sea exploitation + public mission 9 + towers 3 + 3 + 3 icons
#          + 2 castles 10 + privatised mission missed 0 = 107
#   Ciara: track 70 + energy farm 5 → 15 + 2-space city 5 + incomplete city 2 + 1 castle 5 = 97
# Aoife and Brian tie at 107; Ciara holds Blarney but is not among them (no jump in Irlande, R10), so
# Tara decides: Brian 4 adjacent spaces, Aoife 2: Brian wins.
IRELAND = {
    "game": "rebirth", "variant": "ireland",
    "players": [
        {"name": "Aoife", "track": 40, "farms": {"agricultural": [3], "energy": [2, 1]}, "ports": 2,
         "public_missions": [{"points": 6, "doubled": True}, {"points": 3}], "towers": [13],
         "castles": 1, "privatized_missions": [{"points": 8, "achieved": True}], "tara_adjacent": 2},
        {"name": "Brian", "track": 62, "farms": {"agricultural": [4]}, "ports": 1,
         "public_missions": [{"points": 9}], "towers": [3, 3], "incomplete_icons": 3, "castles": 2,
         "privatized_missions": [{"points": 7}], "tara_adjacent": 4},
        {"name": "Ciara", "track": 70, "farms": {"energy": [5]}, "castles": 1, "tara_adjacent": 1},
    ],
    "cities": [
        {"size": 4, "tiles": [{"player": "Aoife", "influence": 3}, {"player": "Brian", "influence": 2},
                              {"player": "Aoife", "influence": 1}, {"player": "Brian", "influence": 1}]},
        {"size": 2, "tiles": [{"player": "Ciara", "influence": 2, "order": 1},
                              {"player": "Brian", "influence": 2, "order": 2}]},
        {"size": 3, "tiles": [{"player": "Ciara", "influence": 2}, {"player": "Aoife", "influence": 1}]},
    ],
    "blarney": "Ciara",
}


def without_false(value):
    """A document as the form stores it: a false flag is left out (the contract's default)."""
    if isinstance(value, dict):
        return {k: without_false(v) for k, v in value.items() if v is not False}
    if isinstance(value, list):
        return [without_false(v) for v in value]
    return value


def create(client, variant: str, names) -> str:
    return create_game(client, "rebirth", variant, names)


class Attributes(HTMLParser):
    def __init__(self, id_: str):
        super().__init__()
        self.id, self.found = id_, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") == self.id and self.found is None:
            self.found = a


def attributes(html: str, id_: str) -> dict:
    """The attributes of the element with this id, whatever their order."""
    parser = Attributes(id_)
    parser.feed(html)
    assert parser.found is not None, f"no element #{id_}"
    return parser.found


def form_data(document: dict, version: int, action: str = "save") -> dict[str, str]:
    """The document as a table types it into the form (field names mirror the contract's paths)."""
    data = {"version": str(version), "action": action}
    for i, p in enumerate(document["players"]):
        pre = f"players-{i}-"
        for key in ("track", "ports", "incomplete_icons", "castles", "gifts", "tara_adjacent"):
            if key in p:
                data[pre + key] = str(p[key])
        for kind, sizes in p.get("farms", {}).items():
            for j, n in enumerate(sizes):
                data[f"{pre}farms-{kind}-{j}"] = str(n)
        for key, flag in (("missions", "achieved"), ("public_missions", "doubled"),
                          ("privatized_missions", "achieved")):
            for j, card in enumerate(p.get(key, [])):
                data[f"{pre}{key}-{j}-points"] = str(card["points"])
                if card.get(flag):
                    data[f"{pre}{key}-{j}-{flag}"] = "y"
        for j, value in enumerate(p.get("towers", [])):
            data[f"{pre}towers-{j}"] = str(value)
    for c, city in enumerate(document.get("cities", [])):
        data[f"cities-{c}-size"] = str(city["size"])
        for t, tile in enumerate(city["tiles"]):
            for key, value in tile.items():
                data[f"cities-{c}-tiles-{t}-{key}"] = str(value)
    for key in ("edinburgh", "stirling", "blarney"):
        if key in document:
            data[key] = document[key] or ""
    return data


def results_totals(html: str) -> list[str]:
    row = re.search(r'<tr class="totals">(.*?)</tr>', html, re.S).group(1)
    return re.findall(r"<td[^>]*>\s*(\d+)", row)


@pytest.mark.parametrize("document, totals, winner", [
    (SCOTLAND, ["66", "63", "56"], "Maëlle gagne"),
    (IRELAND, ["107", "107", "97"], "Brian gagne"),
], ids=["scotland", "ireland"])
def test_documents_round_trip_through_the_form(client, app, document, totals, winner):
    token = create(client, document["variant"], [p["name"] for p in document["players"]])
    response = client.post(f"/g/{token}/", data=form_data(document, 1, "finish"))
    assert response.status_code == 302, error_summary(response.get_data(as_text=True))
    assert response.headers["Location"] == f"/g/{token}/resultats"
    rec = stored(app, token)
    assert rec.document == without_false(document)
    assert rec.status == "scored"
    page = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    assert results_totals(page) == totals
    assert f'<h1 id="winner" class="winner">{winner}</h1>' in page

    # The edit page shows every value back; posting it unchanged stores the same document.
    edit = client.get(f"/g/{token}/").get_data(as_text=True)
    values = posted(edit)
    assert values["cities-0-tiles-0-player"] == document["cities"][0]["tiles"][0]["player"]
    values["action"] = "save"
    response = client.post(f"/g/{token}/", data=values)
    assert response.status_code == 302, error_summary(response.get_data(as_text=True))
    again = stored(app, token)
    assert again.document == rec.document
    assert again.version == rec.version  # nothing changed: nothing written


def error_summary(html: str) -> str:
    return " | ".join(f"{m[0]}: {unescape(m[1])}" for m in
                      re.findall(r'id="e-([^"]+)" role="alert">([^<]+)</p>', html))


def test_towers_are_numbers_and_one_privatised_mission(client, app):
    token = create(client, "ireland", ["Aoife", "Brian"])
    data = {"version": "1", "action": "save", "players-0-towers-0": "13", "players-0-towers-1": "3",
            "players-1-privatized_missions-0-points": "9", "players-1-privatized_missions-0-achieved": "y"}
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    players = stored(app, token).document["players"]
    assert players[0]["towers"] == [13, 3]
    assert players[1]["privatized_missions"] == [{"points": 9, "achieved": True}]
    page = client.get(f"/g/{token}/").get_data(as_text=True)
    assert 'name="players-1-privatized_missions-1-points"' not in page  # at most one (R8)
    assert 'value="players-1-privatized_missions"' not in page  # and no button to add one
    assert posted(page)["players-0-towers-0"] == "13" and posted(page)["players-0-towers-1"] == "3"


def test_a_tower_sent_as_a_digit_python_cannot_read_is_refused_not_a_crash(client, app):
    """"¹" is a digit to str.isdigit() but not to int(): the save answered 500 (found by the fuzz test)."""
    token = create(client, "ireland", ["Aoife", "Brian"])
    for url in (f"/g/{token}/save", f"/g/{token}/"):
        res = client.post(url, data={"version": "1", "players-0-towers-0": "\u00b9"})
        assert res.status_code == 422, url
    assert "towers" not in stored(app, token).document["players"][0]


def test_castle_holder_before_castles_is_kept_as_a_draft_flagged_beside_both_fields(client, app):
    """Order of entry: the Edinburgh holder chosen before Yanis's castles are typed. The rule is not
    met yet, but every other field is stored (as a draft), the rule is flagged beside both fields,
    and only the results wait."""
    document = copy.deepcopy(SCOTLAND)
    document["players"][1].pop("castles")  # Yanis holds Édimbourg with 0 castles
    token = create(client, "scotland", ["Maëlle", "Yanis", "Inès"])
    response = client.post(f"/g/{token}/", data=form_data(document, 1, "finish"))
    assert response.status_code == 303  # no results yet: the page that says so, by a GET
    response = client.get(response.headers["Location"])
    html = response.get_data(as_text=True)
    assert error_beside(html, "edinburgh") == ("Yanis tient le château d'Édimbourg : ses châteaux "
                                               "doivent être au moins 1 (indiqué : 0)")
    assert error_beside(html, "players-1-castles") == "au moins 1 : Yanis tient le château d'Édimbourg"
    assert "Vos saisies sont enregistrées" in unescape(html)
    assert "Rien n&#39;a été enregistré" not in html
    # The summary at the top links to both fields.
    summary = re.search(r'<nav class="error-summary".*?</nav>', html, re.S).group(0)
    assert '<a href="#f-edinburgh">' in summary and '<a href="#f-players-1-castles">Yanis · ' in summary
    assert posted(html)["players-0-track"] == "48"
    after = stored(app, token)
    assert after.status == "draft" and after.version == 2
    assert after.document["players"][0]["track"] == 48 and after.document["edinburgh"] == "Yanis"
    assert client.get(f"/g/{token}/resultats").status_code == 302  # back to the form
    # Reopened, the page flags the rule again; typing the castles then gives the results.
    page = client.get(f"/g/{token}/").get_data(as_text=True)
    assert error_beside(page, "players-1-castles") == "au moins 1 : Yanis tient le château d'Édimbourg"
    answer = client.post(f"/g/{token}/save", data={"version": "2", "changes": json.dumps(
        {"players-1-castles": ["", "2"]})}).get_json()
    assert answer["ok"] is True and answer["errors"] == {} and answer["draft"] is False
    finish = client.post(f"/g/{token}/", data=posted(client.get(f"/g/{token}/").get_data(as_text=True))
                         | {"action": "finish"})
    assert finish.status_code == 302 and stored(app, token).status == "scored"


def test_city_tie_needing_the_order_is_shown_on_the_city(client, app):
    token = create(client, "scotland", ["Maëlle", "Yanis", "Inès"])
    document = {"players": [{"name": n} for n in ("Maëlle", "Yanis", "Inès")], "cities": [
        {"size": 3, "tiles": [{"player": "Maëlle", "influence": 2}, {"player": "Yanis", "influence": 2},
                              {"player": "Inès", "influence": 1}]}]}
    response = client.post(f"/g/{token}/", data=form_data(document, 1))
    assert response.status_code == 302  # kept as a draft, flagged on the city
    message = error_beside(client.get(f"/g/{token}/").get_data(as_text=True), "cities-0")
    assert message.startswith("ville 3 cases n°1 : égalité d'influence entre Maëlle et Yanis (2)")
    # Saying which tile was placed last settles it: Inès completed the city, Maëlle is next clockwise.
    data = form_data(document, 2)
    data["cities-0-tiles-2-order"] = "3"
    assert client.post(f"/g/{token}/", data=data).status_code == 302
    result = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    assert "ville 3 cases n°1 : 6 (égalité d&#39;influence avec Yanis, départagée dans le sens horaire " \
           "depuis Inès)" in result


def test_rows_added_without_javascript_offer_the_players(client):
    token = create(client, "scotland", ["Maëlle", "Yanis"])
    data = {"version": "1", "cities-0-size": "2", "cities-0-tiles-0-player": "Yanis",
            "cities-0-tiles-0-influence": "3", "add_row": "cities-0-tiles"}
    response = client.post(f"/g/{token}/", data=data)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    # The typed tile stays, and a new blank tile row offers the game's players.
    assert posted(html)["cities-0-tiles-0-player"] == "Yanis"
    for name in ("cities-0-tiles-1-player", "cities-1-tiles-0-player"):
        select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
        assert re.findall(r'value="([^"]*)"', select) == ["", "Maëlle", "Yanis"]


def test_each_map_shows_only_its_fields_with_hints_in_the_rules_words(client):
    scotland = client.get(f"/g/{create(client, 'scotland', ['Maëlle', 'Yanis'])}/").get_data(as_text=True)
    ireland = client.get(f"/g/{create(client, 'ireland', ['Aoife', 'Brian'])}/").get_data(as_text=True)
    for key in ("edinburgh", "stirling", "players-0-missions-0-points", "players-0-gifts"):
        assert f'name="{key}"' in scotland and f'name="{key}"' not in ireland
    for key in ("blarney", "players-0-public_missions-0-points", "players-0-towers-0",
                "players-0-privatized_missions-0-points", "players-0-tara_adjacent"):
        assert f'name="{key}"' in ireland and f'name="{key}"' not in scotland
    for page in (scotland, ireland):
        text = unescape(page)
        assert "Taille finale de chaque groupe de fermes agricoles" in text
        assert "Icônes de vos communautés restées dans une ville incomplète" in text
        assert "Châteaux contrôlés en fin de partie : 5 points chacun" in text
        assert "laissez la piste à 0 si vous détaillez" in text  # R1: track and items add up
        assert 'inputmode="numeric"' in page and "data-stepper" in page
        assert 'href="/g/' in page and "/outils/ville" in page and "/outils/chateau" in page
    assert '<label for="players-0-ports">Ports</label>' in scotland
    assert '<label for="players-0-ports">Exploitations en mer</label>' in ireland
    assert attributes(scotland, "cities-0-size")["max"] == "3"  # 4-space cities: Irlande only
    assert attributes(ireland, "cities-0-size")["max"] == "4"


def test_new_game_offers_the_box_colours(client):
    page = client.get("/nouvelle?game=rebirth&variant=scotland").get_data(as_text=True)
    for hex_, name in (("#c8372d", "rouge"), ("#2f6fb3", "bleu"), ("#e0b422", "jaune"), ("#3d8b4f", "vert")):
        assert f'value="{hex_}">{name}</option>' in page


def test_a_tile_without_its_player_is_shown_beside_the_player_select(client, app):
    token = create(client, "ireland", ["Aoife", "Brian"])
    data = {"version": "1", "cities-0-size": "2", "cities-0-tiles-0-influence": "2",
            "cities-0-tiles-1-player": "Brian", "cities-0-tiles-1-influence": "5"}
    html = client.post(f"/g/{token}/", data=data).get_data(as_text=True)
    assert error_beside(html, "cities-0-tiles-0-player") == "choisissez le joueur qui a posé la tuile"
    assert error_beside(html, "cities-0-tiles-1-influence") == "doit être entre 1 et 4"
    # the influence out of bounds is left out, the rest of the save is stored (a draft: a tile's
    # player to choose); the 5 typed stays in its field
    kept = stored(app, token)
    assert (kept.version, kept.status) == (2, "draft")
    assert kept.document["cities"] == [{"size": 2, "tiles": [{"influence": 2}, {"player": "Brian"}]}]
    assert 'value="5"' in html
    assert "Enregistré, sauf 1 valeur à corriger" in unescape(html)


def test_padded_tile_rows_of_a_stored_game_offer_the_players(client, app):
    """Without SeatRows: the generic padding gives the blank tile rows (of a stored city, and of the
    blank city after it) the game's players, with "choisir…" as the blank option."""
    token = create(client, "scotland", ["Maëlle", "Yanis"])
    document = {"players": [{"name": "Maëlle"}, {"name": "Yanis"}], "cities": [
        {"size": 2, "tiles": [{"player": "Maëlle", "influence": 2}, {"player": "Yanis", "influence": 1}]}]}
    assert client.post(f"/g/{token}/", data=form_data(document, 1)).status_code == 302
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    assert posted(html)["cities-0-tiles-1-player"] == "Yanis"
    for name in ("cities-0-tiles-0-player", "cities-0-tiles-2-player", "cities-1-tiles-0-player"):
        select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
        assert re.findall(r'<option[^>]*value="([^"]*)"[^>]*>([^<]*)</option>', select) == [
            ("", "choisir…"), ("Maëlle", "Maëlle"), ("Yanis", "Yanis")], name
    assert 'name="cities-0-tiles-3-player"' not in html and 'name="cities-2-size"' not in html
    # 2 tiles and the blank row fill a city (3 at most in Écosse): no "Ajouter une tuile" there.
    assert re.search(r'<button[^>]*value="cities-0-tiles"[^>]*>', html).group(0).endswith(" hidden>")
    assert re.search(r'<button[^>]*value="cities-1-tiles"[^>]*>', html).group(0).endswith('"cities-1-tiles">')


def test_a_tiles_item_hints_are_said_once_per_city_above_its_tiles(client, app):
    """« Ordre de pose » and « Influence » keep their hints, said once above the first city's tiles, not
    in each tile row nor in each city (issue 33: static/js/play/fields.js copies its "?" into the next
    cities); every tile's fields point at those lines."""
    token = create(client, "ireland", ["Aoife", "Brian"])
    doc = copy.deepcopy(IRELAND)  # IRELAND is shared with the browser tests: never change it
    doc.update(players=doc["players"][:2], cities=doc["cities"][:1], blarney=None)
    for player in doc["players"]:
        player.pop("privatized_missions", None)
    assert client.post(f"/g/{token}/", data=form_data(doc, 1)).status_code == 302
    html = unescape(client.get(f"/g/{token}/").get_data(as_text=True))
    assert len(re.findall(r'name="cities-0-tiles-\d+-order"', html)) == 4  # a full 4-space city
    cities = len(re.findall(r'name="cities-\d+-size"', html))
    assert cities == 2  # the stored city and the blank one offered
    seen = html
    assert seen.count("facultatif : 1 = posée en premier ; utile en cas d'égalité") == 1
    assert seen.count("nombre d'icônes sur la tuile (1 à 4)") == 1
    assert re.search(r'<li><span class="item-hint-label">Ordre de pose</span> : '
                     r'<span id="h-cities-tiles-order">facultatif : 1 = posée en premier ; '
                     r"utile en cas d'égalité</span></li>", html)
    assert attributes(html, "f-cities-1-tiles")["data-fold"] == "h-cities-tiles"
    for c, t in [(0, t) for t in range(4)] + [(1, 0)]:  # each tile's field keeps its hint for a screen reader
        described = attributes(html, f"cities-{c}-tiles-{t}-influence")["aria-describedby"].split()
        assert described == ["h-cities-tiles-influence"]
    # The farm groups' and missions' item hints too, once on the page.
    farms = ('Taille</span> : <span id="h-farms-agricultural-n">'
             "nombre de tuiles du groupe en fin de partie")
    assert seen.count(farms) == 1
    assert seen.count("nombre de tuiles du groupe en fin de partie") == 2  # the agricultural and energy lists
    assert seen.count("la valeur que vous avez marquée sur la carte") == 1


def test_several_messages_on_one_field_are_kept_apart(client, app):
    """A 4-space city in Écosse: the form's bound and the engine's rule, two sentences, not one."""
    token = create(client, "scotland", ["Maëlle", "Yanis"])
    data = {"version": "1", "cities-0-size": "4", "cities-0-tiles-0-player": "Maëlle",
            "cities-0-tiles-0-influence": "1"}
    page = client.post(f"/g/{token}/", data=data)
    assert page.status_code == 422
    assert unescape(error_beside(page.get_data(as_text=True), "cities-0-size")) == (
        "doit être entre 1 et 3 · les villes de 4 cases n'existent qu'en Irlande (Écosse : 1 à 3)")
    kept = stored(app, token)  # the size left out, its tile stored (a draft: the size to type)
    assert (kept.version, kept.status) == (2, "draft")
    assert kept.document["cities"] == [{"tiles": [{"player": "Maëlle", "influence": 1}]}]
    assert posted(page.get_data(as_text=True))["cities-0-size"] == "4"  # the 4 typed stays, to fix
