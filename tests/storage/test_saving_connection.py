"""The saves' connection (`store.saving`, issue 33): with SQLite one connection a process is kept for
the autosaves, one save at a time, so a save takes none from the pool; a save finding it taken takes
one from the pool; whatever a failed save left uncommitted is rolled back before the next one; a
forked worker opens its own."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from app_helpers import autosave, create_game, stored
from companion.extensions import db
from companion.saving import gamelog
from companion.storage import store


@pytest.fixture
def checkouts(app):
    """Each connection the app's pool hands out, as a list."""
    out: list[int] = []
    with app.app_context():
        pool = db.engine.pool

    def on_checkout(dbapi_connection, record, proxy):
        out.append(1)

    sa.event.listen(pool, "checkout", on_checkout)
    yield out
    sa.event.remove(pool, "checkout", on_checkout)


def test_saves_take_no_connection_from_the_pool(app, client, checkouts):
    token = create_game(client, "revive", "base", ["Ana", "Bob"])
    version = autosave(client, token, 1, players__0__track=("", "3")).get_json()["version"]
    checkouts.clear()
    for track in ("4", "5", "6"):
        answer = autosave(client, token, version, players__0__track=(str(int(track) - 1), track))
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
    assert checkouts == []  # the kept connection, three times
    assert stored(app, token).document["players"][0]["track"] == 6


def test_a_save_finding_the_kept_connection_taken_takes_one_from_the_pool(app, client, checkouts):
    token = create_game(client, "revive", "base", ["Ana", "Bob"])
    version = autosave(client, token, 1, players__0__track=("", "3")).get_json()["version"]
    with app.app_context():
        lock, _connection = store._kept(db.engine)  # noqa: SLF001 - another thread's save holds it
    checkouts.clear()
    with lock:
        answer = autosave(client, token, version, players__0__track=("3", "8"))
    assert answer.status_code == 200 and checkouts == [1]
    assert stored(app, token).document["players"][0]["track"] == 8


def test_what_a_failed_save_left_uncommitted_is_rolled_back(app, client, monkeypatch):
    token = create_game(client, "revive", "base", ["Ana", "Bob"])
    version = autosave(client, token, 1, players__0__track=("", "3")).get_json()["version"]

    def broken(out, **_kwargs):  # after the versioned UPDATE, before its commit
        raise RuntimeError("the log's entry could not be made")

    monkeypatch.setattr(gamelog, "record", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert autosave(client, token, version, players__0__track=("3", "9")).status_code == 500
    monkeypatch.undo()
    assert stored(app, token).document["players"][0]["track"] == 3  # the UPDATE went with its transaction
    answer = autosave(client, token, version, players__0__track=("3", "7"))  # the same version: no conflict
    assert answer.status_code == 200, answer.get_json()
    assert stored(app, token).document["players"][0]["track"] == 7


def test_saves_from_two_threads_are_each_stored(app, client):
    """Two phones' saves at once in one process: one on the kept connection, the other waits for it or
    takes one from the pool; neither is lost."""
    token = create_game(client, "revive", "base", ["Ana", "Bob"])
    version = autosave(client, token, 1, players__0__track=("", "1")).get_json()["version"]
    answers = []

    def save(seat: int) -> None:  # each on the version both phones hold, each its own player's field
        base = "1" if seat == 0 else ""
        answers.append(autosave(app.test_client(), token, version,
                                **{f"players__{seat}__track": (base, str(10 + seat))}).status_code)

    threads = [threading.Thread(target=save, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert answers == [200, 200]  # the later one merged on the earlier one's version
    players = stored(app, token).document["players"]
    assert (players[0]["track"], players[1]["track"]) == (10, 11)


def test_a_forked_worker_opens_its_own(app, monkeypatch):
    with app.app_context():
        first = store._kept(db.engine)  # noqa: SLF001 - the kept connection itself, as a save takes it
        assert store._kept(db.engine) == first  # noqa: SLF001 - kept
        monkeypatch.setattr(store.os, "getpid", lambda: -1)  # another process, forked with the engine
        other = store._kept(db.engine)[1]  # noqa: SLF001 - the forked worker's
        assert other is not first[1]
        other.close()
