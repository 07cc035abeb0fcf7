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


def test_games_stored_before_the_photos_keep_everything_and_have_none(tmp_path, monkeypatch):
    """Issue 31 on a server with games: the new columns are empty (no photo, first scoring unknown:
    no duration sent), the photos' table is there and takes a photo; a downgrade gives it all back."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'p.sqlite3'}"})
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "i24a0edition1"]).exit_code == 0
    with app.app_context(), db.engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO games (edit_token, view_token, uid, game, variant, document, version, status, "
            "created_at, updated_at) VALUES ('e', 'v', :uid, 'revive', 'base', '{\"a\": 1}', 3, 'scored', "
            "'2026-01-01 20:00:00', '2026-01-01 21:00:00')"), {"uid": "ab" * 16})
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context(), db.engine.begin() as conn:
        row = conn.execute(sa.text("SELECT id, version, status, document, first_scored_at, photo_key "
                                   "FROM games")).one()
        assert row[1:] == (3, "scored", '{"a": 1}', None, None)
        conn.execute(sa.text("INSERT INTO game_photos (game_id, data, width, height, digest, created_at) "
                             "VALUES (:id, :data, 2, 1, 'd', '2026-01-02 00:00:00')"),
                     {"id": row[0], "data": b"\xff\xd8jpeg"})
        assert conn.execute(sa.text("SELECT data FROM game_photos")).scalar_one() == b"\xff\xd8jpeg"
    assert runner.invoke(args=["db", "downgrade", "i24a0edition1"]).exit_code == 0
    with app.app_context():
        assert "game_photos" not in sa.inspect(db.engine).get_table_names()
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version, status FROM games")).one() == (3, "scored")


def test_games_stored_before_seats_could_change_are_at_seats_version_zero(tmp_path, monkeypatch):
    """Issue 32 on a server with games: every stored game gets seats_version 0 (no autosave refused
    for seats), keeps everything else, and the downgrade gives it back."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 's.sqlite3'}"})
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "i31a0photo001"]).exit_code == 0
    with app.app_context(), db.engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO games (edit_token, view_token, uid, game, variant, document, version, status, "
            "created_at, updated_at) VALUES ('e', 'v', :uid, 'revive', 'base', '{\"a\": 1}', 4, 'draft', "
            "'2026-01-01 20:00:00', '2026-01-01 21:00:00')"), {"uid": "cd" * 16})
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context(), db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version, document, seats_version FROM games")).one() == \
            (4, '{"a": 1}', 0)
    assert runner.invoke(args=["db", "downgrade", "i31a0photo001"]).exit_code == 0
    with app.app_context():
        columns = {c["name"] for c in sa.inspect(db.engine).get_columns("games")}
        assert "seats_version" not in columns and "photo_key" in columns


def test_games_stored_before_the_log_have_an_empty_one(tmp_path, monkeypatch):
    """Issue 32 on a server with games: the log's table is there, empty (nothing of theirs to undo),
    takes a change and goes with its game; the downgrade gives everything else back."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'l.sqlite3'}"})
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "i32a0seats001"]).exit_code == 0
    with app.app_context(), db.engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO games (edit_token, view_token, uid, game, variant, document, version, status, "
            "created_at, updated_at) VALUES ('e', 'v', :uid, 'revive', 'base', '{\"a\": 1}', 4, 'draft', "
            "'2026-01-01 20:00:00', '2026-01-01 21:00:00')"), {"uid": "ef" * 16})
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context(), db.engine.begin() as conn:
        game = conn.execute(sa.text("SELECT id, version, document FROM games")).one()
        assert game[1:] == (4, '{"a": 1}')
        assert conn.execute(sa.text("SELECT count(*) FROM game_changes")).scalar_one() == 0
        conn.execute(sa.text("INSERT INTO game_changes (game_id, phone, at, version, changes) "
                             "VALUES (:id, 'ab12', '2026-01-02 00:00:00', 5, '{}')"), {"id": game[0]})
    assert runner.invoke(args=["db", "downgrade", "i32a0seats001"]).exit_code == 0
    with app.app_context():
        assert "game_changes" not in sa.inspect(db.engine).get_table_names()
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version, seats_version FROM games")).one() == (4, 0)
