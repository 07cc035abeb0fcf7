"""The schema is built by migrations, and they match the models: a stored game survives upgrades."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from companion import create_app
from companion.extensions import db


def test_upgrade_builds_the_models_schema(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite3'}"})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        names = sa.inspect(db.engine).get_table_names()
        assert {"games", "device_games", "alembic_version"} <= set(names)
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        assert diff == [], f"models and migrations differ: run `flask db migrate` ({diff})"


def test_games_stored_before_uids_get_one_each(tmp_path, monkeypatch):
    """A server upgraded with games already stored: each gets its own uid, and nothing is lost."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'u.sqlite3'}"})
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "fce37012f846"]).exit_code == 0
    with app.app_context(), db.engine.begin() as conn:
        for i in range(3):
            conn.execute(sa.text(
                "INSERT INTO games (edit_token, view_token, game, variant, document, version, status, "
                "created_at, updated_at) VALUES (:e, :v, 'revive', 'base', '{}', 1, 'draft', "
                "'2026-01-01 00:00:00', '2026-01-01 00:00:00')"), {"e": f"e{i}", "v": f"v{i}"})
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context(), db.engine.connect() as conn:
        uids = [row[0] for row in conn.execute(sa.text("SELECT uid FROM games"))]
    assert len(uids) == 3 and len(set(uids)) == 3
    assert all(len(u) == 32 and int(u, 16) >= 0 for u in uids)
