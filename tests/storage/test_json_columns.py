"""A game's JSON columns are written and read by orjson (storage/store.py's `json_text` and
`json_value`, the database engine's serializer), with Python's json for what orjson refuses: what was
stored before reads the same, and nothing Python could write is refused now."""

from __future__ import annotations

import json

import sqlalchemy as sa

from app_helpers import autosave, create_game, stored
from companion.extensions import db
from companion.storage import store


def test_what_orjson_refuses_is_written_and_read_as_python_did():
    lone = {"name": "A\ud800"}  # a lone surrogate: no UTF-8 for it
    assert store.json_value(store.json_text(lone)) == lone
    big = {"n": 2**70}  # past 64 bits
    assert store.json_value(store.json_text(big)) == big
    assert store.json_value(json.dumps(lone)) == lone  # the escape json.dumps wrote before


def test_a_game_stored_reads_back_as_itself_and_as_json(app):
    """Accents as they are, and the text in the database is plain JSON for any other reader."""
    with app.app_context():
        assert db.engine.dialect._json_serializer is store.json_text  # noqa: SLF001 - what writes them
    phone = app.test_client()
    token = create_game(phone, "revive", "base", ["Maëlle", "Ñuño"])
    assert autosave(phone, token, 1, players__0__track=("", "42")).status_code == 200
    game = stored(app, token)
    assert [p["name"] for p in game.document["players"]] == ["Maëlle", "Ñuño"]
    with app.app_context():
        text = db.session.execute(sa.text("SELECT document FROM games WHERE id = :id"),
                                  {"id": game.id}).scalar_one()
    assert json.loads(text) == game.document
    assert json.loads(text)["players"][0]["track"] == 42
