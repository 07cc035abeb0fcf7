"""Names a player types are text everywhere: no markup from a name reaches a page."""

from __future__ import annotations

import re

from app_helpers import create_game, foreign_inline, stored

HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>']


def test_hostile_names_are_escaped_on_every_page(app, client):
    token = create_game(client, "revive", "base", HOSTILE)
    rec = stored(app, token)
    assert [p["name"] for p in rec.document["players"]] == HOSTILE  # kept as typed
    pages = [f"/g/{token}/", f"/g/{token}/resultats", f"/r/{rec.view_token}/", "/parties",
             "/nouvelle?game=revive"]
    for url in pages:
        response = client.get(url)
        html = response.get_data(as_text=True)
        assert "<script>alert(1)</script>" not in html, url
        assert "<img src=x" not in html, url
        # no inline script but the app's own files on a first visit, each allowed by its hash
        assert not foreign_inline(response), url
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>[^<]*alert", html), url
    results = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in results


def test_game_urls_are_unguessable(app, client):
    # (five different tables: the same untouched new game asked twice is one game, test_play_merge)
    tokens = {create_game(client, "revive", "base", ["A", f"B{k}"]) for k in range(5)}
    assert len(tokens) == 5 and all(len(t) >= 43 for t in tokens)  # 256 random bits each
    rec = stored(app, next(iter(tokens)))
    assert rec.view_token != rec.edit_token
    assert client.get(f"/g/{rec.view_token}/").status_code == 404  # the share link cannot edit
    assert client.get(f"/g/{rec.edit_token[:-1]}/").status_code == 404


def test_two_players_cannot_take_one_colour(app, client):
    from app_helpers import error_beside

    data = {"game": "rebirth", "variant": "scotland",
            "players-0-name": "Maëlle", "players-0-colour": "#c8372d",
            "players-1-name": "Yanis", "players-1-colour": "#c8372d"}
    res = client.post("/nouvelle", data=data)
    assert res.status_code == 422
    assert error_beside(res.get_data(as_text=True), "players-1-name") == (
        "couleur déjà prise par Maëlle : choisissez-en une autre")
    data["players-1-colour"] = "#2f6fb3"
    assert client.post("/nouvelle", data=data).status_code == 302
