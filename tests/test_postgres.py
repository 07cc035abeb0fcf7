"""The same code on PostgreSQL (DATABASE_URL), as a club that outgrew one machine runs it."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from companion import create_app, store
from companion.extensions import db
from companion.models import GameRecord
from conftest import load_example


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
