"""Statistics, export and restore on PostgreSQL (issue 14): the summaries' one-statement write-back,
the uid lookups and JSON documents behave there as on SQLite."""

from __future__ import annotations

import io
import json

import sqlalchemy as sa
from played import device_of, revive, store_games

from companion import create_app
from companion.extensions import db
from companion.storage.models import DeviceGame, GameRecord
from document_helpers import load_example


def test_statistics_export_and_restore_on_postgresql(postgres_url, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False})
    assert app.test_cli_runner().invoke(args=["db", "upgrade"]).exit_code == 0
    phone = app.test_client()
    device = device_of(phone)
    made = store_games(app, device, [load_example("revive-abyss.json"), revive(("Zoé", 30), ("Léo", 30))])
    html = phone.get("/statistiques").get_data(as_text=True)
    assert "2 parties terminées sur cet appareil" in html
    with app.app_context():
        summaries = db.session.scalars(sa.select(GameRecord.summary)
                                       .where(GameRecord.id.in_([r.id for r in made]))).all()
    assert all(s and s["version"] == 1 and s["result"]["players"] for s in summaries)
    assert phone.get("/statistiques").get_data(as_text=True) == html

    text = phone.get("/parties/export.json").get_data()
    assert [g["id"] for g in json.loads(text)["games"]] == [r.uid for r in made]
    stranger = app.test_client()
    device_of(stranger)
    response = stranger.post("/parties/importer", data={"file": (io.BytesIO(text), "x.json")},
                             content_type="multipart/form-data")
    assert response.status_code == 422  # a uid grants nothing (issue 22)
    assert "games[1].id" in response.get_data(as_text=True)
    other = app.test_client()
    other_device = device_of(other)
    for record in made:  # a phone of the table that opened the share links restores the file
        assert other.get(f"/r/{record.view_token}/").status_code == 200
    response = other.post("/parties/importer", data={"file": (io.BytesIO(text), "x.json")},
                          content_type="multipart/form-data")
    assert response.status_code == 302
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(GameRecord)
                                 .where(GameRecord.uid.in_([r.uid for r in made]))) == 2
        access = db.session.scalars(sa.select(DeviceGame.can_edit).where(DeviceGame.device == other_device))
        assert list(access) == [False, False]
    assert "2 parties terminées sur cet appareil" in other.get("/statistiques").get_data(as_text=True)
