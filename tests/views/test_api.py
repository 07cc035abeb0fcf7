"""POST /api/v1/score and the tools endpoint: results and every error path of the contract."""

from __future__ import annotations

import json

from document_helpers import load_example


def dice_doc(**extra):
    doc = {"game": "dice", "variant": "base",
           "players": [{"name": "Alice", "points": 12, "sixes": 1},
                       {"name": "Bob", "points": 12, "sixes": 2}]}
    doc.update(extra)
    return doc


def test_scores_a_document(client, dice):
    res = client.post("/api/v1/score", json=dice_doc())
    assert res.status_code == 200
    body = res.get_json()
    assert [p["name"] for p in body["players"]] == ["Alice", "Bob"]
    assert body["players"][0]["total"] == 12
    assert body["players"][0]["breakdown"] == [{"key": "points", "points": 12, "detail": "12"}]
    assert body["winners"] == ["Bob"]
    assert body["ranking"] == [{"place": 1, "players": ["Bob"]}, {"place": 2, "players": ["Alice"]}]
    assert len(body["explanation"]) == 1 and "Bob gagne" in body["explanation"][0]


def test_content_type_is_not_required(client, dice):
    res = client.post("/api/v1/score", data=json.dumps(dice_doc()), content_type="text/plain")
    assert res.status_code == 200


def test_422_lists_every_error_with_its_path(client, dice):
    doc = dice_doc()
    doc["players"][0]["points"] = "12"
    doc["players"][1]["points"] = 101
    res = client.post("/api/v1/score", json=doc)
    assert res.status_code == 422
    errors = res.get_json()["errors"]
    assert {e["path"] for e in errors} == {"players[0].points", "players[1].points"}
    assert all(e["message"] for e in errors)


def test_400_when_not_json(client):
    res = client.post("/api/v1/score", data="{not json", content_type="application/json")
    assert res.status_code == 400
    assert res.get_json()["errors"][0]["path"] == "document"


def test_413_when_too_large(client):
    res = client.post("/api/v1/score", data="[" + "0," * 200_000 + "0]", content_type="application/json")
    assert res.status_code == 413
    assert "errors" in res.get_json()


def test_deeply_nested_body_is_a_400_not_a_crash(client):
    res = client.post("/api/v1/score", data="[" * 50_000 + "]" * 50_000)
    assert res.status_code in (400, 413)


def test_get_is_not_allowed_and_answers_json(client):
    res = client.get("/api/v1/score")
    assert res.status_code == 405
    assert "errors" in res.get_json()


def test_unknown_tool_is_404(client):
    assert client.post("/api/v1/rebirth/nothing", json={}).status_code == 404


def test_games_listing(client):
    listing = {g["id"]: g for g in client.get("/api/v1/games").get_json()}
    assert set(listing) >= {"rebirth", "reterra", "revive"}
    assert [v["id"] for v in listing["rebirth"]["variants"]] == ["scotland", "ireland"]
    keys = [b["key"] for b in listing["revive"]["variants"][1]["breakdown"]]
    assert keys[-1] == "devotion"


def test_shared_examples_score_or_say_not_available(client):
    """Each game's example either scores or gets a clear 422 while its engine has not landed."""
    for name in ("rebirth-scotland.json", "reterra.json", "revive-abyss.json"):
        res = client.post("/api/v1/score", json=load_example(name))
        if res.status_code == 422:
            assert "pas encore disponible" in res.get_json()["errors"][0]["message"]
        else:
            assert res.status_code == 200


def test_reterra_grid_tool_counts_a_painted_board(client):
    grid = {"terrain": ["FFFFEEDD", "FFFFEEDD", "PPRREEDD", "PPRREEDD",
                        "DDDDPPPP", "DDDDPPPP", "RRFFEEPP", "RRFFEEPP"],
            "sources": [[1, 2]], "relics": [[0, 0], [7, 7]], "junk": [[7, 7]],
            "inhabitants": [[4, 4], [5, 5]]}
    res = client.post("/api/v1/reterra/grid", json={"grid": grid})
    assert res.status_code == 200
    assert res.get_json()["total"] == 25  # the shared example's grid: 15 + 8 + 1 - 1 + 2
    bad = client.post("/api/v1/reterra/grid", json={"grid": {**grid, "junk": [[3, 3]]}})
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["path"].startswith("grid.junk")
    assert client.post("/api/v1/reterra/grid", json={}).status_code == 422


def test_a_list_where_a_variant_belongs_is_a_422_not_a_crash(client):
    doc = load_example("revive-abyss.json")
    doc["variant"] = []
    res = client.post("/api/v1/score", json=doc)
    assert res.status_code == 422
    assert res.get_json()["errors"][0]["path"] == "variant"


def test_reminders_follow_the_variant(client):
    listing = {g["id"]: g for g in client.get("/api/v1/games").get_json()}
    scotland, ireland = ({b["key"]: b for b in v["breakdown"]} for v in listing["rebirth"]["variants"])
    assert "4 cases" not in scotland["cities"]["hint"] and "4 cases 8/5/3" in ireland["cities"]["hint"]
    assert ireland["ports"]["label"] == "Exploitations en mer"
    revive_base = {b["key"]: b for b in listing["revive"]["variants"][0]["breakdown"]}
    assert "hors départ" in revive_base["card_bonus"]["hint"]  # V1: starting cards do not count
