"""What would I have needed? (issue 31): the smallest change to a losing player's own end state that
makes them win or share, found by the engine, said in one line on the results page, the shared page and
the sheet, and given by the API (`?needed=1`) and the CLI (`--needed`)."""

from __future__ import annotations

import copy
import io
import json
from dataclasses import replace
from html import unescape

import pytest
from test_pdf import DAY, read, squash

from app_helpers import create_game, stored
from companion import games
from companion.cli import main
from companion.games import i18n, needed
from companion.storage import score_cache
from document_helpers import load_example

FINISHED = {"version": "1", "card_mode": "shared", "players-0-track": "40", "players-1-track": "12"}


def lines(doc: dict, edition: str | None = None) -> list[str]:
    return [needed.line(need) for need in games.needs(doc, edition=edition)]


# ------------------------------------------------------------------ the engine's answers


def test_the_examples_answers_in_the_players_words():
    doc = load_example("rebirth-scotland.json")  # Maëlle 66, Yanis 63 (holds Édimbourg), Inès 56
    assert lines(doc) == [
        "Yanis : 1 château de plus, ou le château de Stirling, ou 1 don de la cathédrale de plus",
        "Inès : 2 châteaux de plus (victoire partagée)",
    ]
    entries = needed.to_json(games.needs(doc))
    assert entries[0] == {"player": "Yanis", "outcome": "wins",
                          "changes": [{"path": "players[1].castles", "from": 1, "to": 2}]}
    # a free castle taken is one of the player's castles: one unit, two fields of the document
    assert entries[1]["changes"] == [{"path": "stirling", "from": None, "to": "Yanis"},
                                     {"path": "players[1].castles", "from": 1, "to": 2}]
    # a count left out is 0 (the contract): Inès gave no castles
    assert entries[3] == {"player": "Inès", "outcome": "shares",
                          "changes": [{"path": "players[2].castles", "from": 0, "to": 2}]}
    assert doc == load_example("rebirth-scotland.json")  # the document given is never changed


def test_english_edition_says_its_rule_when_its_tie_break_gives_the_win():
    # Nadia's community is a grid (its squares stay as drawn): her levers are the cards and the powers
    grid = {"terrain": ["FEFEFEFE", "EFEFEFEF"] * 4, "relics": [[0, 0], [1, 1], [2, 2]]}
    doc = {"game": "reterra", "variant": "base",
           "buildings": [{"id": "puits", "name": "Puits", "points": 0}],
           "players": [{"name": "Basile", "relics": 3, "buildings": {"puits": 2}},
                       {"name": "Nadia", "grid": grid, "buildings": {"puits": 1}}]}
    # 3 each; Basile built more: he wins by the English rule; by inhabitants (none) it is shared
    assert games.score(doc, edition="en").winners == ["Basile"]
    assert lines(doc, "en") == ["Nadia : 1 point de pouvoir de bâtiment de plus, ou 1 Puits de plus "
                                "(règle de l'édition anglaise ; victoire partagée)"]
    # by the French rules a card worth 0 changes nothing (never offered), and the shared win has no loser
    assert games.score(doc).winners == ["Basile", "Nadia"] and lines(doc) == []


def test_a_castle_or_token_another_player_holds_is_never_taken():
    doc = load_example("rebirth-scotland.json")
    doc["stirling"] = "Maëlle"
    for entry in needed.to_json(games.needs(doc)):
        assert all(change["path"] not in ("edinburgh", "stirling") for change in entry["changes"])
    revive = {"game": "revive", "variant": "base",
              "players": [{"name": "Ana", "track": 50, "four_token": True}, {"name": "Ben", "track": 51}]}
    revive["players"].append({"name": "Cléo", "track": 52})
    for entry in needed.to_json(games.needs(revive)):
        assert all(not change["path"].endswith("four_token") for change in entry["changes"])
    # Ana's token counts for her (54): Ben needs 55, Cléo ties at 54 (nothing else apart: shared)
    assert lines(revive) == ["Ben : 2 jetons 2 points de plus",
                             "Cléo : 1 jeton 2 points de plus (victoire partagée)"]


def test_a_player_who_cannot_win_is_told_why():
    top = {"name": "Ana", "track": 500, "castles": 12, "ports": 36}
    missions = [{"points": 1, "achieved": False}] * 8
    stuck = {"name": "Ben", "track": 500, "castles": 12, "missions": missions}
    doc = {"game": "rebirth", "variant": "scotland", "players": [top, stuck], "edinburgh": "Ana",
           "stirling": "Ana"}
    [need] = games.needs(doc)
    assert not need.options and need.reason == needed.NO_LEVER
    assert lines(doc) == ["Ben : aucun de ses propres champs ne peut encore changer dans les bornes du "
                          "contrat"]
    assert needed.to_json([need]) == [{"player": "Ben", "outcome": None, "changes": [],
                                       "reason": needed.reason_text(need)}]
    stuck["track"] = 499  # one point of track left: not 36
    [need] = games.needs(doc)
    assert need.reason == needed.OUT_OF_REACH
    assert lines(doc)[0].startswith("Ben : ne peut pas gagner en changeant seulement son propre jeu")


def test_nobody_is_searched_when_alone_or_when_everyone_shares():
    assert games.needs({"game": "revive", "variant": "base", "players": [{"name": "Bea", "track": 9}]}) == []
    tied = {"game": "revive", "variant": "base",
            "players": [{"name": "A", "track": 9}, {"name": "B", "track": 9}]}
    assert games.needs(tied) == []


def test_leftover_resources_break_the_tie_and_a_fifth_makes_a_point():
    """V6: more leftover resources win a tie; the lever is monotone (a fifth resource leaves none
    left over, but makes a point, which comes first)."""
    ana = {"name": "Ana", "track": 500, "four_token": True, "two_tokens": 4, "resources": {"books": 3},
           "machine_progress": 60}
    ben = {"name": "Ben", "track": 500, "two_tokens": 4, "resources": {"books": 1}, "machine_progress": 60,
           "artifact_points": 4}
    doc = {"game": "revive", "variant": "base", "players": [ana, ben]}
    assert [p.total for p in games.score(doc).players] == [512, 512] and games.score(doc).winners == ["Ana"]
    [need] = games.needs(doc)  # Ben's only lever with room: his resources (3 left over: shared)
    assert [o.changes for o in need.options] == [(needed.Change("players[1].resources.gears", 0, 2),)]
    assert lines(doc) == ["Ben : 2 ressources restantes de plus (victoire partagée)"]


def test_a_lever_said_not_monotone_is_stepped_with_the_same_answer():
    doc = load_example("revive-abyss.json")
    result = games.score(doc)
    hooks = games.hooks_of("revive")

    def levers(seat, monotone):
        return [replace(lever, monotone=monotone) for lever in hooks.levers(doc, seat, None)]

    def score(candidate):
        return games.score(candidate)

    halved = needed.search(doc, result, lambda seat: levers(seat, True), score)
    stepped = needed.search(doc, result, lambda seat: levers(seat, False), score)
    assert needed.to_json(halved) == needed.to_json(stepped) and halved[0].options


def test_the_line_is_said_in_english():
    doc = load_example("rebirth-scotland.json")
    with i18n.using("en"):
        assert lines(doc) == ["Yanis: 1 more castle, or Stirling Castle, or 1 more cathedral gift",
                              "Inès: 2 more castles (shared victory)"]


# ------------------------------------------------------------------ API and CLI


def test_api_adds_needed_only_when_asked(client):
    doc = load_example("rebirth-scotland.json")
    plain = client.post("/api/v1/score", json=doc).get_json()
    assert "needed" not in plain
    asked = client.post("/api/v1/score?needed=1", json=doc).get_json()
    assert {k: v for k, v in asked.items() if k != "needed"} == plain
    assert asked["needed"] == needed.to_json(games.needs(doc))
    assert [e["player"] for e in asked["needed"]] == ["Yanis", "Yanis", "Yanis", "Inès"]
    reterra = load_example("reterra.json")
    english = client.post("/api/v1/score?needed=1&edition=en", json=reterra).get_json()
    assert english["needed"] == needed.to_json(games.needs(reterra, edition="en"))
    bad = client.post("/api/v1/score?needed=1", json={"game": "rebirth"})
    assert bad.status_code == 422 and "needed" not in bad.get_json()


def test_cli_takes_needed(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(load_example("rebirth-scotland.json")), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["score", str(path), "--needed"], stdout=out, stderr=err) == 0
    body = json.loads(out.getvalue())
    assert body["needed"][-1] == {"player": "Inès", "outcome": "shares",
                                  "changes": [{"path": "players[2].castles", "from": 0, "to": 2}]}
    out = io.StringIO()
    assert main(["score", str(path)], stdout=out, stderr=err) == 0
    assert "needed" not in json.loads(out.getvalue())


# ------------------------------------------------------------------ pages and sheet


def scored(app, client, names) -> tuple[str, str]:
    token = create_game(client, "revive", "base", list(names), ["#3d8b4f", "#7b4ea3"])
    assert client.post(f"/g/{token}/save", data=FINISHED).status_code == 200
    return token, stored(app, token).view_token


def test_results_and_shared_pages_show_the_line_escaped(app, client):
    token, view = scored(app, client, ("Maëlle", "<b>Yanis</b>"))
    for url in (f"/g/{token}/resultats", f"/r/{view}/"):
        html = client.get(url).get_data(as_text=True)
        assert "Ce qu&#39;il aurait fallu pour gagner" in html or "Ce qu'il aurait fallu pour gagner" in html
        line = "&lt;b&gt;Yanis&lt;/b&gt; : 28 points de plus sur la piste de score (victoire partagée)"
        assert line in html
        assert "<b>Yanis</b>" not in html
    english = unescape(client.get(f"/r/{view}/?lang=en").get_data(as_text=True))
    assert "What it would have taken to win" in english
    assert "<b>Yanis</b>: 28 more points on the score track (shared victory)" in english


def test_the_search_runs_once_per_stored_version(app, client, monkeypatch):
    calls = []
    real = games.needs

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(games, "needs", counting)
    score_cache.needed_of_text.cache_clear()
    token, view = scored(app, client, ("Maëlle", "Yanis"))
    for url in (f"/g/{token}/resultats", f"/r/{view}/", f"/r/{view}/?lang=en", f"/g/{token}/resultats"):
        assert client.get(url).status_code == 200
    assert len(calls) == 1
    saved = client.post(f"/g/{token}/save", data=FINISHED | {"version": "2", "players-1-track": "30"})
    assert saved.status_code == 200
    html = unescape(client.get(f"/g/{token}/resultats").get_data(as_text=True))
    assert "Yanis : le jeton 4 points et 3 jetons 2 points de plus (victoire partagée)" in html
    assert len(calls) == 2


def test_the_sheet_prints_the_lines(weasy_log):
    from companion import pdf

    doc = load_example("rebirth-scotland.json")
    pages, text = read(pdf.render_sheet(doc, date=DAY))
    assert pages == 1
    assert squash("Ce qu'il aurait fallu pour gagner") in text
    for sentence in lines(doc):
        assert squash(sentence) in text
    reterra = load_example("reterra.json")
    _, text = read(pdf.render_sheet(reterra, date=DAY, edition="en"))
    for sentence in lines(reterra, "en"):
        assert squash(sentence) in text


def test_the_sheet_route_prints_the_line(app, client):
    token, _view = scored(app, client, ("Maëlle", "Yanis"))
    response = client.get(f"/g/{token}/sheet.pdf")
    assert response.status_code == 200
    _, text = read(response.data)
    assert squash("Yanis : 28 points de plus sur la piste de score (victoire partagée)") in text


def test_the_sheet_reuses_the_search_of_its_stored_version(app, client, monkeypatch):
    """The sheet prints the lines the results page searched for (once per stored version, issue 33:
    the search was a sixth of a fresh sheet's CPU), not a search of its own."""
    calls = []
    real = games.needs

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(games, "needs", counting)
    score_cache.needed_of_text.cache_clear()
    token, _view = scored(app, client, ("Maëlle", "Yanis"))
    assert client.get(f"/g/{token}/resultats").status_code == 200
    response = client.get(f"/g/{token}/sheet.pdf")
    assert response.status_code == 200 and len(calls) == 1
    _, text = read(response.data)
    assert squash("Yanis : 28 points de plus sur la piste de score (victoire partagée)") in text


@pytest.mark.parametrize("name", ["rebirth-scotland.json", "reterra.json", "revive-abyss.json"])
def test_every_suggestion_of_the_examples_wins_as_claimed(name):
    doc = load_example(name)
    for entry in needed.to_json(games.needs(doc)):
        changed = copy.deepcopy(doc)
        for change in entry["changes"]:
            needed._set(changed, parse(change["path"]), change["to"])
        result = games.score(changed)
        assert entry["player"] in result.winners
        assert (len(result.winners) == 1) == (entry["outcome"] == "wins")


def parse(path: str) -> tuple:
    """"players[2].resources.gears" -> ("players", 2, "resources", "gears")."""
    keys: list = []
    for part in path.split("."):
        while "[" in part:
            head, rest = part.split("[", 1)
            if head:
                keys.append(head)
            index, part = rest.split("]", 1)
            keys.append(int(index))
        if part:
            keys.append(part)
    return tuple(keys)
