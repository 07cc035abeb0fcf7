"""What one autosave asks of the database (issue 33): three statements (the game read, the versioned
UPDATE, the log's INSERT) and ONE commit, the game and its log entry written together; a log that
cannot be written never loses the save; the log trimmed to its last KEPT changes every few saves,
no reader ever showing more."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from app_helpers import autosave, create_game, stored
from companion.extensions import db
from companion.outputs import log_file
from companion.saving import gamelog
from companion.storage import changelog
from companion.storage.models import GameChange

NAMES = ["Maëlle", "Yanis"]


@pytest.fixture
def counted(app):
    """The SQL statements (first word) and the commits the app's engine makes, as lists."""
    statements: list[str] = []
    commits: list[int] = []
    with app.app_context():
        engine = db.engine

    def on_statement(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement.split(None, 1)[0].upper())

    def on_commit(conn):
        commits.append(1)

    sa.event.listen(engine, "before_cursor_execute", on_statement)
    sa.event.listen(engine, "commit", on_commit)
    yield statements, commits
    sa.event.remove(engine, "before_cursor_execute", on_statement)
    sa.event.remove(engine, "commit", on_commit)


def _log(app, token: str) -> list[dict]:
    with app.app_context():
        game_id = stored(app, token).id
        return [json.loads(text) for text in db.session.scalars(
            sa.select(GameChange.changes).where(GameChange.game_id == game_id).order_by(GameChange.id))]


def test_an_autosave_reads_once_writes_the_game_and_its_log_and_commits_once(app, counted):
    statements, commits = counted
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    assert autosave(phone, token, 1, players__0__track=("", "10")).status_code == 200  # warmed
    del statements[:], commits[:]
    answer = autosave(phone, token, 2, players__0__track=("10", "11"))
    assert answer.status_code == 200 and answer.json["version"] == 3
    assert statements == ["SELECT", "UPDATE", "INSERT"]
    assert len(commits) == 1
    assert stored(app, token).document["players"][0]["track"] == 11
    assert _log(app, token)[-1] == {"players-0-track": ["10", "11"]}


def test_an_autosave_that_changes_nothing_writes_nothing(app, counted):
    statements, _commits = counted
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    assert autosave(phone, token, 1, players__0__track=("", "10")).status_code == 200
    del statements[:]
    answer = autosave(phone, token, 2, players__0__track=("10", "10"))
    assert answer.status_code == 200 and answer.json["version"] == 2
    assert statements == ["SELECT"]


def test_a_log_that_cannot_be_written_loses_neither_the_save_nor_leaves_half_of_it(app, monkeypatch):
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    assert autosave(phone, token, 1, players__0__track=("", "10")).status_code == 200
    written = gamelog._write

    def broken(connection, *args):
        written(connection, *args)  # the entry is in the transaction, then the log fails
        raise sa.exc.OperationalError("INSERT", {}, Exception("the log's table is locked"))

    monkeypatch.setattr(gamelog, "_write", broken)
    answer = autosave(phone, token, 2, players__0__track=("10", "11"))
    assert answer.status_code == 200 and answer.json["version"] == 3
    game = stored(app, token)
    assert game.version == 3 and game.document["players"][0]["track"] == 11  # the save is kept
    assert _log(app, token) == [{"players-0-track": ["", "10"]}]  # and no entry of it, nor twice


def test_the_log_is_trimmed_every_few_saves_and_no_reader_shows_more_than_kept(app, monkeypatch):
    monkeypatch.setattr(changelog, "KEPT", 8)
    monkeypatch.setattr(gamelog, "trim_every", lambda: 4)
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    for version in range(1, 15):  # 14 changes
        was = "" if version == 1 else str(version - 1)
        assert autosave(phone, token, version, players__0__track=(was, str(version))).status_code == 200
    rows = _log(app, token)
    assert 8 <= len(rows) < 8 + 4  # trimmed at version 12, two more since
    with app.app_context():
        game = stored(app, token)
        shown = changelog.changes_of(game.id)
        exported = log_file.exported([game.id], {game.id: 0})[game.id]
    assert [c.changes["players-0-track"][1] for c in shown] == [str(v) for v in range(14, 6, -1)]
    assert [e["changes"]["players-0-track"][1] for e in exported] == [str(v) for v in range(7, 15)]


def test_a_full_disk_while_the_log_is_written_stores_neither_and_says_so(app, monkeypatch):
    import sqlite3

    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    assert autosave(phone, token, 1, players__0__track=("", "10")).status_code == 200
    written = gamelog._write

    def full(connection, *args):
        written(connection, *args)
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr(gamelog, "_write", full)
    answer = autosave(phone, token, 2, players__0__track=("10", "11"))
    assert answer.status_code == 507  # the disk-full answer the page shows (errors.py)
    game = stored(app, token)
    assert game.version == 2 and game.document["players"][0]["track"] == 10  # the UPDATE rolled back too
    assert _log(app, token) == [{"players-0-track": ["", "10"]}]


def test_the_write_turn_is_given_back_whatever_becomes_of_the_save(app, monkeypatch):
    """With SQLite the saves of one process take turns for the write (store._WRITING): a save stored,
    one in conflict and one the disk refused each give it back (else the next save would wait)."""
    import sqlite3

    from companion.storage import store

    phone, other = app.test_client(), app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    assert autosave(phone, token, 1, players__0__track=("", "10")).status_code == 200
    assert not store._WRITING.locked()
    assert autosave(other, token, 1, players__0__track=("", "12")).status_code == 409  # a conflict
    assert not store._WRITING.locked()
    written = gamelog._write

    def full(connection, *args):
        written(connection, *args)
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr(gamelog, "_write", full)
    assert autosave(phone, token, 2, players__0__track=("10", "11")).status_code == 507
    assert not store._WRITING.locked()
    monkeypatch.setattr(gamelog, "_write", written)
    assert autosave(phone, token, 2, players__0__track=("10", "11")).status_code == 200
    assert stored(app, token).document["players"][0]["track"] == 11


def _turn_is_free(path: str) -> bool:
    """Whether another process could take the database's write turn now: a lock taken through a file
    opened apart excludes as one from another process would."""
    import fcntl
    import os

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return True
    finally:
        os.close(fd)


def test_the_other_processes_wait_for_the_write_turn_from_the_update_to_the_commit(app, monkeypatch):
    """The server's processes (gunicorn's workers) take turns for SQLite's write through a lock file
    beside the database (storage/sqlite.py): held from a save's UPDATE until its commit, so another
    worker's save waits for it in the kernel, woken at once, instead of sleeping in SQLite's busy
    handler; given back after a conflict or a refused write too."""
    import sqlite3

    from companion.storage import sqlite as sqlite_setup

    with app.app_context():
        turn = sqlite_setup.write_turn(db.engine)
    assert turn is not None and turn.path.endswith(".sqlite3-turn")
    phone, other = app.test_client(), app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    seen: list[bool] = []
    written = gamelog._write

    def watched(connection, *args):  # between the UPDATE and the commit: the log's INSERT
        seen.append(_turn_is_free(turn.path))
        written(connection, *args)

    monkeypatch.setattr(gamelog, "_write", watched)
    assert autosave(phone, token, 1, players__0__track=("", "10")).status_code == 200
    assert seen == [False] and _turn_is_free(turn.path)
    assert autosave(other, token, 1, players__0__track=("", "12")).status_code == 409  # a conflict
    assert _turn_is_free(turn.path)

    def full(connection, *args):
        written(connection, *args)
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr(gamelog, "_write", full)
    assert autosave(phone, token, 2, players__0__track=("10", "11")).status_code == 507
    assert _turn_is_free(turn.path)


def test_a_save_waits_for_another_process_holding_the_write_turn(app, tmp_path):
    """A save arriving while another process holds the turn is stored once that process lets go
    (not refused, not lost): the turn is waited for, the way SQLite's own lock was."""
    import subprocess
    import sys
    import threading

    from companion.storage import sqlite as sqlite_setup

    with app.app_context():
        turn = sqlite_setup.write_turn(db.engine)
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    holder = subprocess.Popen(  # another process: takes the turn, says so, lets go when told
        [sys.executable, "-c", "import fcntl, os, sys\n"
         f"fd = os.open({turn.path!r}, os.O_RDWR | os.O_CREAT)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\nsys.stdin.readline()\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        answers = []
        saving = threading.Thread(
            target=lambda: answers.append(autosave(phone, token, 1, players__0__track=("", "10"))))
        saving.start()
        from companion.storage import store

        while not store._WRITING.locked():  # the save has its process's turn, and waits for the file's
            assert saving.is_alive() and holder.poll() is None
            threading.Event().wait(0.01)
        assert saving.is_alive() and not answers
        assert stored(app, token).version == 1  # not written while the other process holds the turn
        holder.stdin.write("go\n")
        holder.stdin.flush()
        saving.join(timeout=120)
        assert answers and answers[0].status_code == 200
        assert stored(app, token).document["players"][0]["track"] == 10
    finally:
        holder.kill()
        holder.wait(timeout=30)
