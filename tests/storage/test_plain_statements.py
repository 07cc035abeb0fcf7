"""The autosave's statements run as plain SQL (`store.Plain`, issue 33): the same SQL as SQLAlchemy's
for SQLite and PostgreSQL, the same values read and written as a Core statement's, in the
connection's transaction, and a driver's error raised as SQLAlchemy's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import sqlite
from sqlalchemy.dialects.postgresql import psycopg

from app_helpers import autosave, create_game
from companion.extensions import db
from companion.saving import gamelog
from companion.storage import store
from companion.storage.models import GameChange, GameRecord

PLAIN = {"the game read": store._HELD_BY["edit_token"], "the versioned UPDATE": store._WRITE,
         "the log's INSERT": gamelog._INSERT}


@pytest.mark.parametrize("dialect", [sqlite.dialect(), psycopg.dialect()], ids=["sqlite", "postgresql"])
@pytest.mark.parametrize("name", list(PLAIN))
def test_each_statement_is_sqlalchemys_own_sql_with_nothing_added_at_each_call(name, dialect):
    plain = PLAIN[name]
    compiled = plain.compiled(dialect)
    assert compiled.sql == plain.statement.compile(dialect=dialect).string
    assert "RETURNING" not in compiled.sql  # no new key read back (an INSERT on PostgreSQL)
    assert plain.compiled(dialect) is compiled  # compiled once per database


def test_a_statement_sqlalchemy_would_add_to_at_each_call_is_refused():
    with_default = store.Plain(GameChange.__table__.insert().values(game_id=sa.bindparam("game")))
    with pytest.raises(ValueError, match="not a plain statement"):
        with_default.compiled(sqlite.dialect())  # `at` has a Python default


def test_read_and_written_as_a_core_statement_would(app, client):
    token = create_game(client, "revive", "base", ["Maëlle", "Yanis"])
    assert autosave(client, token, 1, players__0__track=("", "10")).status_code == 200
    with app.app_context(), db.engine.connect() as connection:
        core = connection.execute(store.HELD_BY["edit_token"], {"token": token}).one()
        plain = store._HELD_BY["edit_token"].first(connection, {"token": token})
        # the document read as its stored text (a save is handed the document of the same text again)
        assert plain[:2] + (store.json_value(plain[2]),) + plain[3:] == tuple(core)
        held = store.held_by_edit_token(token, connection)
        assert (held.id, held.game, held.document, held.version, held.status, held.edition,
                held.seats_version) == tuple(core)  # the document read as a document, accents and all
        assert held.document["players"][0]["name"] == "Maëlle" and held.document["players"][0]["track"] == 10
        assert store._HELD_BY["edit_token"].first(connection, {"token": "nobody"}) is None
        document = {**held.document, "players": [{"name": "Maëlle", "track": 12}, {"name": "Yanis"}]}
        written = store._WRITE.execute(connection, {
            "document": document, "version": held.version + 1, "updated_at": datetime(2026, 1, 2, tzinfo=UTC),
            "summary": None, "status": "draft", "key": held.id, "seen": held.version, "scored_at": None})
        assert written == 1 and connection.in_transaction()
        connection.rollback()  # in the connection's transaction: rolled back with it
    with app.app_context():
        record = db.session.scalar(sa.select(GameRecord).where(GameRecord.edit_token == token))
        assert record.document["players"][0]["track"] == 10 and record.version == 2


def test_a_value_missing_is_an_error_never_a_null_written(app):
    with app.app_context(), db.engine.connect() as connection, pytest.raises(KeyError, match="seen"):
        store._WRITE.execute(connection, {"document": {}, "version": 2, "updated_at": None, "summary": None,
                                          "status": "draft", "key": 1, "scored_at": None})


def test_a_drivers_error_is_raised_as_sqlalchemys(app):
    broken = store.Plain(sa.select(GameRecord.__table__.c.id).where(sa.text("no_such_column = 1")))
    with app.app_context(), db.engine.connect() as connection, pytest.raises(sa.exc.OperationalError):
        broken.first(connection, {})
