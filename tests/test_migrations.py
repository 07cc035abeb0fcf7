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
