"""The same code on PostgreSQL (DATABASE_URL), as a club that outgrew one machine runs it."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from companion import create_app
from companion.extensions import db
from companion.storage import store
from companion.storage.models import GameRecord
from document_helpers import load_example


def test_migrations_and_games_on_postgresql(postgres_url, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    app = create_app({"TESTING": True})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == postgres_url
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert db.engine.dialect.name == "postgresql"
        with db.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), db.metadata) == []
        doc = load_example("revive-abyss.json")
        record = GameRecord(game=doc["game"], variant=doc["variant"], document=doc)
        db.session.add(record)
        db.session.commit()
        token = record.edit_token
        db.session.expunge_all()
        stored = db.session.execute(sa.select(GameRecord).filter_by(edit_token=token)).scalar_one()
        assert stored.document == doc  # JSON (accents included) comes back as it went in
        assert stored.created_at.tzinfo is not None
    res = app.test_client().post("/api/v1/score", json=doc)
    assert res.status_code == 200 and res.get_json()["winners"] == ["Maëlle"]

    # Two phones saving from the same version: the second is refused, nothing is lost.
    with app.test_request_context("/"):
        record = store.create("revive", "abyss", ["Maëlle", "Yanis"], ["#c0392b", "#2471a3"])
        db.session.commit()
        store.save(record, doc, 1)
        with pytest.raises(store.StaleVersion) as stale:
            store.save(record, {**doc, "players": doc["players"][::-1]}, 1)
        assert stale.value.record.version == 2
        assert stale.value.record.document == doc

    # The server ends a pooled connection (a restart, an idle timeout): the next request gets a
    # fresh one instead of an error (the pool pings a server's connections before use).
    with app.app_context(), db.engine.connect() as conn:  # a pooled connection, left open in the pool
        conn.execute(sa.text("select 1"))
    outside = sa.create_engine(postgres_url, poolclass=sa.pool.NullPool)
    with outside.connect() as admin:
        ended = admin.execute(sa.text("select count(pg_terminate_backend(pid)) from pg_stat_activity "
                                      "where datname = current_database() and pid <> pg_backend_pid()"))
        assert ended.scalar_one() >= 1
    outside.dispose()
    assert app.test_client().get(f"/g/{token}/").status_code == 200


def test_simultaneous_merged_saves_on_postgresql(postgres_url, tmp_path, monkeypatch):
    """The merge is made again when the one UPDATE ... WHERE version finds another save got in
    first: on PostgreSQL too, two phones saving different fields at the same instants lose nothing."""
    from test_play_merge import race_two_phones

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])  # whichever test runs first
    assert result.exit_code == 0, result.output
    race_two_phones(app)


def test_the_log_and_undo_on_postgresql(postgres_url, tmp_path, monkeypatch):
    """Issue 32 on PostgreSQL: each save logged on the autosave's own connection, undone through the
    autosave, kept to its bound, exported, and gone with its game (ON DELETE CASCADE)."""
    from test_gamelog import _undo

    from app_helpers import autosave, create_game
    from companion.storage import changelog
    from companion.storage.models import GameChange

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])  # whichever test runs first
    assert result.exit_code == 0, result.output
    monkeypatch.setattr(changelog, "KEPT", 3)
    a, b = app.test_client(), app.test_client()
    token = create_game(a, "revive", "base", ["Maëlle", "Yanis"])
    for version in range(1, 5):
        was = "" if version == 1 else str(version)
        assert autosave(a, token, version, players__0__track=(was, str(version + 1))).status_code == 200
    assert autosave(b, token, 5, players__1__track=("", "7")).status_code == 200
    answer, _ = _undo(a, token)
    assert answer.status_code == 200, answer.json
    with app.app_context():
        record = db.session.scalar(sa.select(GameRecord).filter_by(edit_token=token))
        assert record.document["players"][0]["track"] == 4 and record.document["players"][1]["track"] == 7
        changes = changelog.changes_of(record.id)
        assert len(changes) == 3 and changes[0].undo_of == changes[2].id and changes[2].undone
        game_id, view = record.id, record.view_token
    log = json.loads(a.get("/parties/export.json").get_data(as_text=True))["games"][0]["log"]
    assert [entry.get("undoes") for entry in log] == [None, None, 0]
    assert a.post(f"/parties/{view}/supprimer").status_code in (302, 303)
    with app.app_context():
        left = db.session.scalar(sa.select(sa.func.count()).select_from(GameChange)
                                 .where(GameChange.game_id == game_id))
        assert left == 0
