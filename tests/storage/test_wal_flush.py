"""The saves' group flush (storage/sqlite.py's `WalFlush`, issue 33): the saves' connection commits
without SQLite's fsync, and a save is answered only once the WAL holding it is on the disk; one
flush covers every commit made before it began; while a save waits for its flush, its working slot
serves the others, and under gunicorn's event loop the fsync runs beside the loop."""

from __future__ import annotations

import errno
import itertools
import json
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from app_helpers import autosave, create_game, make_app
from companion.extensions import db
from companion.storage import sqlite as sqlite_setup
from companion.storage import store

ROOT = Path(__file__).resolve().parents[2]
WAIT = 120  # seconds: a guard against a hung test only; every wait below ends on a signal first


def _track_on_disk_file(app, token: str) -> int | None:
    """The first player's track as a new connection to the database file reads it (what is committed)."""
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        text = connection.execute("SELECT document FROM games WHERE edit_token = ?", (token,)).fetchone()[0]
    return json.loads(text)["players"][0].get("track")


class Flushes(list):
    """Each flush the saves waited for: (the WAL file it flushed, what `read()` gave as it began)."""

    def read(self):
        return None


@pytest.fixture
def flushes(monkeypatch):
    made = Flushes()
    real = sqlite_setup.WalFlush._flush

    def flush(self):
        made.append((self.path, made.read()))
        real(self)

    monkeypatch.setattr(sqlite_setup.WalFlush, "_flush", flush)
    return made


def test_the_saves_connection_leaves_its_fsync_to_the_flush_and_the_others_keep_theirs(app, client):
    token = create_game(client, "revive", "base", ["Ana", "Bob"])
    assert autosave(client, token, 1, players__0__track=("", "3")).status_code == 200
    with app.app_context(), store.saving() as kept:  # the connection the save just used
        assert kept.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL: no fsync of its own
        assert db.session.connection().exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL


def test_a_save_is_answered_once_the_wal_holding_it_is_flushed(app, client, flushes):
    token = create_game(client, "revive", "base", ["Ana", "Bob"])
    flushes.read = lambda: _track_on_disk_file(app, token)
    wal = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///") + "-wal"
    version, before = 1, ""
    for track in (3, 4, 5):
        answer = autosave(client, token, version, players__0__track=(before, str(track)))
        before = str(track)
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
        # answered after a flush of this database's WAL that began once this save was committed
        assert flushes[-1] == (wal, track)
    assert len(flushes) == 3  # one after the other: each save waited for a flush of its own


def test_a_connection_given_back_to_the_pool_syncs_its_commits_again(app):
    with app.app_context():
        connection = db.engine.connect()
        sqlite_setup.flush_after_commits(connection)
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1
        raw = connection.connection.driver_connection
        connection.close()
        assert raw.execute("PRAGMA synchronous").fetchone()[0] == 2
        with db.engine.connect() as again:  # whichever connection the pool hands out next
            assert again.exec_driver_sql("PRAGMA synchronous").scalar() == 2


def test_a_save_waiting_for_its_flush_gives_its_working_slot_to_the_others(tmp_path, monkeypatch):
    app = make_app(tmp_path, ACTIVE_REQUESTS=1)  # one request works at a time, as in a worker
    saver, reader = app.test_client(), app.test_client()
    token = create_game(saver, "revive", "base", ["Ana", "Bob"])
    entered, go_on = threading.Event(), threading.Event()
    real = sqlite_setup.WalFlush._flush

    def held_flush(self):
        entered.set()
        assert go_on.wait(WAIT)
        real(self)

    monkeypatch.setattr(sqlite_setup.WalFlush, "_flush", held_flush)
    answers = {}
    save = threading.Thread(target=lambda: answers.setdefault(
        "save", autosave(saver, token, 1, players__0__track=("", "7"))))
    save.start()
    assert entered.wait(WAIT)  # the save is committed and waits for its flush
    page = threading.Thread(target=lambda: answers.setdefault("page", reader.get(f"/g/{token}/")))
    page.start()
    page.join(WAIT)
    assert "page" in answers and answers["page"].status_code == 200  # served meanwhile
    assert "save" not in answers  # not answered before its flush
    go_on.set()
    save.join(WAIT)
    assert answers["save"].status_code == 200 and answers["save"].get_json()["version"] == 2


def test_a_save_whose_flush_fails_is_not_answered_as_saved(app, client, monkeypatch):
    token = create_game(client, "revive", "base", ["Ana", "Bob"])

    def failing(self):
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(sqlite_setup.WalFlush, "_flush", failing)
    with pytest.raises(OSError):  # gunicorn answers 500: the phone keeps its change and tries again
        autosave(client, token, 1, players__0__track=("", "3"))


def test_a_commit_outside_a_request_is_flushed_before_it_returns(app, flushes):
    with app.app_context():
        connection = db.engine.connect()
        sqlite_setup.flush_after_commits(connection)
        connection.exec_driver_sql("UPDATE games SET status = status")
        connection.commit()
        sqlite_setup.committed(connection)  # the CLI's case: no request to answer later
        assert len(flushes) == 1
        connection.close()


def test_one_flush_covers_every_commit_made_before_it_began(tmp_path):
    """Eight savers commit and wait together: each returns only after a flush that began after its
    commit ended, and fewer flushes than commits are made."""
    clock = itertools.count()
    events: list[tuple] = []
    flush = sqlite_setup.WalFlush(str(tmp_path / "db-wal"))
    first_in, go_on = threading.Event(), threading.Event()

    def flushing():
        events.append(("began", next(clock)))
        first_in.set()
        assert go_on.wait(WAIT)  # the others commit meanwhile
        events.append(("ended", next(clock)))

    flush._flush = flushing
    committed_before: dict[int, int] = {}
    returned: dict[int, int] = {}
    lock = threading.Lock()

    def saver(n: int) -> None:
        with lock:  # the commit, then its ticket
            committed_before[n] = next(clock)
            ticket = flush.ticket()
        flush.wait(ticket)
        returned[n] = next(clock)

    first = threading.Thread(target=saver, args=(0,))
    first.start()
    assert first_in.wait(WAIT)
    others = [threading.Thread(target=saver, args=(n,)) for n in range(1, 8)]
    for thread in others:
        thread.start()
    while len(committed_before) < 8:  # every saver has committed: they all wait now
        threading.Event().wait(0.001)
    go_on.set()
    for thread in (first, *others):
        thread.join(WAIT)
    assert len(returned) == 8
    flushes = [(began, ended)
               for (_began, began), (_ended, ended) in zip(events[::2], events[1::2], strict=True)]
    assert all(kind == "began" for kind, _at in events[::2])
    assert len(flushes) == flush.flushes == 2  # the first saver's, then one for the seven others
    for n in range(8):
        assert any(committed_before[n] < began and ended < returned[n] for began, ended in flushes), n


def test_under_the_event_loop_other_requests_run_during_a_flush(tmp_path):
    """gunicorn's worker (gevent): the fsync runs in a thread beside the loop. The flush below ends only
    when another greenlet has run meanwhile; had it run on the loop's own thread, it would wait in vain."""
    script = textwrap.dedent(f"""
        from gevent import monkey
        monkey.patch_all()
        import gevent
        from companion.storage.sqlite import WalFlush

        gate = monkey.get_original("_thread", "allocate_lock")()  # a lock of the OS, never the loop's
        gate.acquire()
        seen = {{}}
        flush = WalFlush({str(tmp_path / "db-wal")!r})
        flush._flush = lambda: seen.setdefault("others ran", gate.acquire(timeout={WAIT}))
        waiting = gevent.spawn(flush.wait, flush.ticket())
        other = gevent.spawn(gate.release)  # another request served by the loop
        gevent.joinall([waiting, other], raise_error=True)
        print(seen["others ran"], flush.flushes)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=WAIT * 2, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "1"]
