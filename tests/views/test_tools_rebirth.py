"""Rebirth's during-play tools (city resolver, castle control) under a game's edit link, with the
Flask client: answers in French with each player's points, messages beside the fields, CSRF, 404s,
and nothing stored."""

from __future__ import annotations

import re
from html import unescape

import pytest
from test_play_rebirth import attributes, create, error_beside, posted, stored

from app_helpers import make_app


def answer(html: str) -> dict:
    section = re.search(r'<section class="sheet answer".*?</section>', html, re.S)
    assert section, "no answer on the page"
    text = section.group(0)
    return {"title": unescape(re.search(r'id="answer-title">(.*?)</h2>', text).group(1)),
            "lines": [unescape(x) for x in re.findall(r"<li>(.*?)</li>", text)],
            "why": [unescape(x) for x in re.findall(r"<p>(.*?)</p>", text)]}


def tiles(*rows) -> dict[str, str]:
    data = {}
    for j, row in enumerate(rows):
        for key, value in zip(("player", "influence", "order"), row, strict=False):
            data[f"tiles-{j}-{key}"] = str(value)
    return data


@pytest.fixture
def ireland(client) -> str:
    return create(client, "ireland", ["Aoife", "Brian", "Ciara"])


def test_a_four_space_city_with_two_players_gives_13_and_3(client, app, ireland):
    page = client.get(f"/g/{ireland}/outils/ville")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Aoife" in html and "Ciara" in html  # the game's players, nothing to type
    assert "<section class=\"sheet answer\"" not in html
    before = stored(app, ireland)
    response = client.post(f"/g/{ireland}/outils/ville",
                           data={"size": "4",
                                 **tiles(("Aoife", 3), ("Brian", 2), ("Aoife", 1), ("Brian", 1))})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert answer(html) == {
        "title": "Ville complète",
        "lines": ["Aoife (1re) marque 13 points.", "Brian (2e) marque 3 points.",
                  "Ciara : aucune tuile dans cette ville."],
        "why": ["Ville 4 cases complète ; influence : Aoife 4, Brian 3.",
                "Prix (8/5/3) : Aoife 8 + 5 = 13, Brian 3."],
    }
    assert posted(html)["tiles-3-player"] == "Brian"  # the city stays in the form, to adjust
    after = stored(app, ireland)  # nothing stored
    assert (after.document, after.version) == (before.document, before.version)
    assert after.updated_at == before.updated_at


def test_a_tie_is_settled_clockwise_from_the_player_who_completed_the_city(client, ireland):
    url = f"/g/{ireland}/outils/ville"
    data = {"size": "3", **tiles(("Aoife", 2), ("Brian", 2), ("Ciara", 1))}
    response = client.post(url, data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert error_beside(html, "tiles").startswith(
        "ville 3 cases : égalité d'influence entre Aoife et Brian (2)")
    assert "Rien n&#39;a été calculé" in html
    data["tiles-1-order"] = "3"  # Brian completed the city: he comes last among the tied
    result = answer(client.post(url, data=data).get_data(as_text=True))
    assert result["lines"] == ["Aoife (1re) marque 6 points.", "Brian (2e) marque 4 points.",
                               "Ciara (3e) marque 2 points."]
    assert "Brian a complété la ville et passe en dernier" in result["why"][1]


def test_an_incomplete_city_says_what_each_tile_will_score(client, ireland):
    response = client.post(f"/g/{ireland}/outils/ville",
                           data={"size": "3", **tiles(("Ciara", 2), ("Aoife", 1))})
    result = answer(response.get_data(as_text=True))
    assert result["title"] == "Ville incomplète"
    assert result["lines"] == [
        "Aoife : 1 point en fin de partie si la ville reste incomplète (1 point par icône).",
        "Ciara : 2 points en fin de partie si la ville reste incomplète (1 point par icône).",
        "Brian : aucune tuile dans cette ville."]


def test_city_errors_beside_their_fields(client, ireland):
    url = f"/g/{ireland}/outils/ville"
    data = {"size": "2", **tiles(("Aoife", 9), ("", 2), ("Brian", "x"))}
    html = client.post(url, data=data).get_data(as_text=True)
    assert error_beside(html, "tiles-0-influence") == "doit être entre 1 et 4"
    assert error_beside(html, "tiles-2-influence") == "doit être un nombre entier"
    assert error_beside(html, "tiles-1-player") == "choisissez à qui est la tuile"
    assert error_beside(html, "tiles") == "au plus 2 tuiles dans une ville de 2 cases (il y en a 3)"
    html = client.post(url, data=tiles(("Aoife", 2))).get_data(as_text=True)
    assert error_beside(html, "size") == "indiquez le nombre de cases de la ville (1 à 4)"


def test_scotland_has_no_four_space_city(client):
    token = create(client, "scotland", ["Maëlle", "Yanis"])
    html = client.get(f"/g/{token}/outils/ville").get_data(as_text=True)
    assert 'value="3"' in html and 'name="size" type="radio" value="4"' not in html
    assert "Ville 4 cases" not in html
    assert 'name="tiles-3-player"' not in html  # three tiles at most
    response = client.post(f"/g/{token}/outils/ville", data={"size": "4", **tiles(("Maëlle", 1))})
    assert response.status_code == 422
    assert error_beside(response.get_data(as_text=True), "size") == "choix inconnu"
    response = client.post(f"/g/{token}/outils/ville", data={"size": "deux", **tiles(("Maëlle", 1))})
    assert response.status_code == 422  # a size no radio offers (a crafted post) is no crash either
    assert error_beside(response.get_data(as_text=True), "size") == "choix inconnu"


def test_castle_control(client, app, ireland):
    url = f"/g/{ireland}/outils/chateau"
    html = client.get(url).get_data(as_text=True)
    assert "personne (château libre)" in html
    before = stored(app, ireland)
    # Equal adjacent tiles, Aoife has more farms: she takes it (R6).
    data = {"holder": "Brian", "active": "Aoife", "adjacent-0-tiles": "2", "adjacent-0-farms": "1",
            "adjacent-1-tiles": "2"}
    result = answer(client.post(url, data=data).get_data(as_text=True))
    assert result["title"] == "Aoife contrôle le château"
    assert result["lines"][0] == ("Aoife contrôle le château : 5 points pour Aoife en fin de partie si le "
                                  "château lui reste jusqu'au bout.")
    assert result["why"] == ["Égalité de tuiles adjacentes : Aoife 2, Brian 2 ; fermes adjacentes : Aoife 1, "
                             "Brian 0 ; Aoife prend le contrôle du château."]
    # Still equal: the active player loses.
    data["adjacent-1-farms"] = "1"
    assert answer(client.post(url, data=data).get_data(as_text=True))["title"] == "Brian contrôle le château"
    # A free castle: the player who just placed a tile beside it takes it.
    result = answer(client.post(url, data={"holder": "", "active": "Ciara", "adjacent-2-tiles": "1"})
                    .get_data(as_text=True))
    assert result["title"] == "Ciara contrôle le château"
    # The active player must have placed a tile beside the castle: said beside the field.
    response = client.post(url, data={"holder": "", "active": "Ciara"})
    assert response.status_code == 422
    assert "au moins 1 tuile adjacente" in error_beside(response.get_data(as_text=True), "active")
    assert stored(app, ireland).version == before.version  # nothing stored


def test_castle_errors_beside_their_fields(client, ireland):
    response = client.post(f"/g/{ireland}/outils/chateau",
                           data={"holder": "Brian", "adjacent-0-tiles": "1", "adjacent-0-farms": "3",
                                 "adjacent-2-tiles": "12"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert error_beside(html, "active") == "choisissez le joueur qui vient de poser sa tuile"
    assert error_beside(html, "adjacent-0-farms") == (
        "les fermes font partie des tuiles adjacentes : au plus 1")
    assert error_beside(html, "adjacent-2-tiles") == "doit être entre 0 et 8"
    assert "<section class=\"sheet answer\"" not in html


def test_unknown_link_and_other_games_are_not_found(client):
    assert client.get("/g/nope/outils/ville").status_code == 404
    assert client.post("/g/nope/outils/chateau", data={}).status_code == 404
    response = client.post("/nouvelle", data={"game": "revive", "variant": "base", "players-0-name": "A",
                                              "players-1-name": "B"})
    token = response.headers["Location"].split("/")[2]
    assert client.get(f"/g/{token}/outils/ville").status_code == 404
    assert client.get(f"/g/{token}/outils/chateau").status_code == 404


def test_the_edit_page_links_to_the_tools(client, ireland):
    html = client.get(f"/g/{ireland}/").get_data(as_text=True)
    assert f'href="/g/{ireland}/outils/ville"' in html
    assert f'href="/g/{ireland}/outils/chateau"' in html
    tool = client.get(f"/g/{ireland}/outils/chateau").get_data(as_text=True)
    assert f'href="/g/{ireland}/"' in tool  # and back


def test_csrf_when_enabled(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/nouvelle?game=rebirth&variant=ireland").get_data(as_text=True)
    csrf = attributes(page, "csrf_token")["value"]
    response = client.post("/nouvelle", data={"csrf_token": csrf, "game": "rebirth", "variant": "ireland",
                                              "players-0-name": "Aoife", "players-1-name": "Brian"})
    assert response.status_code == 302
    game = response.headers["Location"].split("/")[2]
    url = f"/g/{game}/outils/ville"
    data = {"size": "2", **tiles(("Aoife", 3), ("Brian", 1))}
    refused = client.post(url, data=data)
    assert refused.status_code == 400
    html = refused.get_data(as_text=True)
    assert "Le formulaire a expiré" in html and "<section class=\"sheet answer\"" not in html
    form_token = posted(client.get(url).get_data(as_text=True))["csrf_token"]
    accepted = client.post(url, data={"csrf_token": form_token, **data})
    assert accepted.status_code == 200
    assert answer(accepted.get_data(as_text=True))["lines"][:2] == ["Aoife (1re) marque 5 points.",
                                                                    "Brian (2e) marque 3 points."]
    castle = client.post(f"/g/{game}/outils/chateau", data={"holder": "", "active": "Aoife"})
    assert castle.status_code == 400
