"""Player names shown on shared pages and sheets: no control or bidi characters, something visible.
One rule (games.core.name_problem) for documents, table tools, the new-game page, API and CLI."""

from __future__ import annotations

import io
import json

import pytest

from app_helpers import error_beside
from companion import games
from companion.cli import main
from companion.extensions import db
from companion.games.core import name_problem
from companion.storage.models import GameRecord
from document_helpers import load_example

REFUSED = {
    "nul": ("Al\x00ice", "contrôle"),
    "escape": ("\x1b[31mRouge", "contrôle"),
    "delete": ("Bob\x7f", "contrôle"),
    "line feed inside": ("Bob\nAlice", "contrôle"),
    "right-to-left override": ("Bob\u202eecila", "sens de l'écriture"),
    "left-to-right embedding": ("\u202aBob", "sens de l'écriture"),
    "first strong isolate": ("Bob\u2068", "sens de l'écriture"),
    "zero-width space": ("Al\u200bice", "invisible"),
    "only zero-width joiners": ("\u200d\u200d", "aucun caractère visible"),
    "only Hangul filler": ("\u3164\u3164", "aucun caractère visible"),
    "only a combining accent": ("\u0301", "aucun caractère visible"),
    "only a blank Braille pattern": ("\u2800", "aucun caractère visible"),
    "only private use": ("\ue000", "aucun caractère visible"),
}
ACCEPTED = ["Maëlle", "李小龙", "محمد\u200f", "Ana-Lucía", "R2-D2", "🐙", "👩\u200d👩\u200d👧",
            "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "J.-P.", "Zoë ✨"]


@pytest.mark.parametrize("name, words", REFUSED.values(), ids=REFUSED.keys())
def test_refused_names_say_why(name, words):
    assert words in name_problem(name)


@pytest.mark.parametrize("name", ACCEPTED)
def test_real_names_are_accepted(name):
    assert name_problem(name) is None


def test_a_name_looked_at_once_is_said_in_each_language():
    """name_problem keeps what it found per name and language (every autosave checks the names)."""
    from companion.games import i18n

    bad = "Ana\u202e"
    assert "inverse le sens" in name_problem(bad)
    with i18n.using("en"):
        english = name_problem(bad)
    assert "inverse" not in english and "U+202E" in english
    assert "inverse le sens" in name_problem(bad)


def revive(name: str) -> dict:
    doc = load_example("revive-abyss.json")
    doc["players"][1]["name"] = name
    return doc


@pytest.mark.parametrize("name, words", REFUSED.values(), ids=REFUSED.keys())
def test_api_refuses_with_the_path(client, name, words):
    res = client.post("/api/v1/score", json=revive(name))
    assert res.status_code == 422
    errors = res.get_json()["errors"]
    assert errors[0]["path"] == "players[1].name" and words in errors[0]["message"]


def test_cli_refuses_with_the_path():
    out, err = io.StringIO(), io.StringIO()
    code = main(["score", "-"], stdout=out, stderr=err, stdin=io.StringIO(json.dumps(revive("\x1b[2J"))))
    assert code == 2
    assert err.getvalue().startswith("players[1].name: le nom contient un caractère de contrôle (U+001B)")


def test_table_tools_share_the_rule(client):
    res = client.post("/api/v1/rebirth/city", json={"variant": "scotland", "players": ["Ann", "\u202eboB"],
                                                    "city": {"tiles": []}})
    assert res.status_code == 422
    assert res.get_json()["errors"][0]["path"] == "players[1]"
    with pytest.raises(games.InvalidDocument):
        games.TOOLS[("rebirth", "castle")]({"players": ["Ann", "\u3164"], "holder": None, "active": "Ann",
                                            "adjacent": {}})


@pytest.mark.parametrize("name, words", [REFUSED["nul"], REFUSED["right-to-left override"],
                                         REFUSED["only Hangul filler"]])
def test_new_game_page_says_it_beside_the_name(client, app, name, words):
    page = client.post("/nouvelle", data={"game": "revive", "variant": "base",
                                          "players-0-name": "Alice", "players-1-name": name})
    assert page.status_code == 422
    assert words in error_beside(page.get_data(as_text=True), "players-1-name")
    with app.app_context():
        assert db.session.query(GameRecord).count() == 0


def test_a_name_with_accents_and_emoji_still_starts_a_game(client):
    page = client.post("/nouvelle", data={"game": "revive", "variant": "base",
                                          "players-0-name": "Maëlle 🐙", "players-1-name": "محمد"})
    assert page.status_code == 302
