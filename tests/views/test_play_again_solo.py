"""Issue 24, smaller points of the results: "Rejouer avec les mêmes joueurs" says that the first
player passes to the left (on the button and on the new game's page), and a game played alone says
its score, not a winner (results page, shared page, "Mes parties"; the sheet: tests/pdf/test_pdf.py)."""

from __future__ import annotations

import re

from app_helpers import create_game


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)).split())


def test_play_again_says_who_starts(client):
    token = create_game(client, "revive", "base", ["Maëlle", "Yanis", "Inès"])
    assert client.post(f"/g/{token}/", data={"version": "1", "action": "finish",
                                              "players-0-track": "40", "players-1-track": "30",
                                              "players-2-track": "20"}).status_code == 302
    results = text(client.get(f"/g/{token}/resultats"))
    assert "Rejouer avec les mêmes joueurs Le premier joueur passe à gauche : Yanis commence." in results
    english = text(client.get(f"/g/{token}/resultats", headers={"Accept-Language": "en"}))
    assert "The first player passes to the left: Yanis starts." in english
    again = client.post(f"/g/{token}/rejouer", follow_redirects=True)
    assert "Nouvelle partie, mêmes joueurs : Yanis commence (le premier joueur est passé à gauche)." \
        in text(again)


def test_a_solo_game_says_its_score_not_a_winner(client):
    token = create_game(client, "revive", "base", ["Bea"])
    assert client.post(f"/g/{token}/", data={"version": "1", "action": "finish",
                                              "players-0-track": "52"}).status_code == 302
    page = client.get(f"/g/{token}/resultats")
    results = text(page)
    assert "Partie en solo : Bea, 52 points" in results
    assert "gagne" not in results and "Le premier joueur passe" not in results  # nobody to pass to
    assert 'class="rank"' not in page.get_data(as_text=True)  # no "1re": alone, there is no place
    shared = re.search(r"(/r/[\w-]+/)", page.get_data(as_text=True)).group(1)  # the read-only link
    assert "Partie en solo : Bea, 52 points" in text(client.get(shared))
    history = text(client.get("/parties"))
    assert "Partie en solo : Bea, 52 points" in history and "Gagnant" not in history
    english = text(client.get(f"/g/{token}/resultats", headers={"Accept-Language": "en"}))
    assert "Solo game: Bea, 52 points" in english and "wins" not in english
