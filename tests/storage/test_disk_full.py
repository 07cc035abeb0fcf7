"""A full disk (issue 22): pages that only read never fail because the history entry they write in
passing had no room. Tested on a real small filesystem (a tmpfs the test mounts) holding the SQLite
database and the instance folder, filled to the last byte."""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
import sqlalchemy as sa
from played import device_of, revive, store_games

from app_helpers import make_app
from companion.base import diskfull
from companion.extensions import db
from companion.storage.models import DeviceGame, GameRecord

SIZE = "8m"


@pytest.fixture
def small_disk(tmp_path):
    """A tmpfs of 8 MB mounted for this test (root only: skipped with the reason otherwise)."""
    point = tmp_path / "disk"
    point.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE}", "tmpfs", str(point)],
                              capture_output=True, text=True, timeout=30)
    except (FileNotFoundError, PermissionError) as exc:
        pytest.skip(f"cannot mount a small filesystem here: {exc}")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem (mount -t tmpfs needs root): {done.stderr.strip()}")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True, timeout=30)


def fill(folder: Path) -> Path:
    """Fill the filesystem of `folder` to the last byte; the filler file, to free it again."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as fh:
        for size in (1 << 20, 1 << 16, 1 << 12, 1 << 8, 1):
            try:
                while True:
                    fh.write(b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    assert os.statvfs(folder).f_bavail == 0
    return filler


def stored(app) -> list[tuple]:
    with app.app_context():
        return [tuple(r) for r in db.session.execute(sa.select(
            GameRecord.id, GameRecord.document, GameRecord.version, GameRecord.status)).all()]


def entries(app, device: str) -> list:
    with app.app_context():
        return list(db.session.scalars(sa.select(DeviceGame.game_id).where(DeviceGame.device == device)))


@pytest.fixture
def full(small_disk, monkeypatch):
    """An app whose database and instance folder are on the small filesystem, with a draft and a
    scored game, the disk then filled (the WAL emptied first, so any write needs room)."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = make_app(small_disk)
    owner = app.test_client()
    device = device_of(owner)
    made = store_games(app, device, [revive(("Ana", 12), ("Bo", 9))])
    made += store_games(app, device, [revive(("Cy", 3), ("Di", 4))], status="draft")
    with app.app_context():
        db.session.execute(sa.text("PRAGMA wal_checkpoint(TRUNCATE)"))
    filler = fill(small_disk)
    app.owner = owner
    return app, made, filler


def test_pages_that_read_still_answer_when_the_history_entry_has_no_room(full, caplog):
    app, (scored, draft), filler = full
    before = stored(app)
    phone = app.test_client()  # a phone that never saw these games: each visit writes its entry
    device = device_of(phone)
    caplog.set_level(logging.WARNING)
    edit = phone.get(f"/g/{draft.edit_token}/")
    assert edit.status_code == 200
    assert 'name="players-0-track"' in edit.get_data(as_text=True)  # the form, all of it
    results = phone.get(f"/g/{scored.edit_token}/resultats")
    assert results.status_code == 200 and "Ana gagne" in results.get_data(as_text=True)
    shared = phone.get(f"/r/{scored.view_token}/")
    assert shared.status_code == 200 and "Ana gagne" in shared.get_data(as_text=True)
    # each write was tried, failed for want of room, was logged and rolled back
    said = [r.getMessage() for r in caplog.records if "history entry" in r.getMessage()]
    assert len(said) == 3 and all("not written (disk full)" in m for m in said)
    assert entries(app, device) == []
    assert stored(app) == before  # nothing corrupted
    assert phone.get("/parties").status_code == 200
    # room again: the next visit writes the entry, as on any day
    filler.unlink()
    assert phone.get(f"/g/{draft.edit_token}/").status_code == 200
    assert entries(app, device) == [draft.id]


def test_the_statistics_page_is_drawn_when_its_summaries_have_no_room(full, caplog):
    app, _, filler = full
    caplog.set_level(logging.WARNING)
    page = app.owner.get("/statistiques")
    assert page.status_code == 200 and "1 partie terminée sur cet appareil" in page.get_data(as_text=True)
    assert any("statistics summaries not kept (disk full)" in r.getMessage() for r in caplog.records)
    filler.unlink()
    assert app.owner.get("/statistiques").status_code == 200
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(GameRecord)
                                 .where(GameRecord.summary.is_not(None))) == 1  # kept once there is room


def test_the_disk_full_helper_knows_each_database_and_file_error(full):
    app, (_, draft), _ = full
    with app.app_context():
        db.session.add(DeviceGame(device="x" * 30, game_id=draft.id, can_edit=False))
        with pytest.raises(sa.exc.OperationalError) as caught:
            db.session.commit()
        db.session.rollback()
    assert diskfull.is_disk_full(caught.value)  # SQLAlchemy's wrapper around sqlite3's SQLITE_FULL
    assert diskfull.is_disk_full(sqlite3.OperationalError("database or disk is full"))
    assert diskfull.is_disk_full(OSError(errno.ENOSPC, "No space left on device"))

    class DiskFull(Exception):  # what psycopg raises, by its SQLSTATE
        sqlstate = "53100"

    wrapped = RuntimeError("save failed")
    wrapped.__cause__ = DiskFull()
    assert diskfull.is_disk_full(wrapped)
    assert not diskfull.is_disk_full(sqlite3.OperationalError("database is locked"))
    assert not diskfull.is_disk_full(OSError(errno.EACCES, "Permission denied"))
    assert not diskfull.is_disk_full(None)
