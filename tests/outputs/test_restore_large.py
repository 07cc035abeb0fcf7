"""Restore from the page takes a club's export (issue 22): 5,000 games, about 10 MB, sent from a
phone's form with CSRF on, with the same all-or-nothing checks and every problem with its path; the
limit is one setting (UPLOAD_MAX_BYTES), said on the page."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
import sqlalchemy as sa
from played import device_of
from playwright.sync_api import expect
from test_restore_background import follow

from app_helpers import make_app
from bench.bench_restore import club_export, text_of
from companion.extensions import db
from companion.storage.models import DeviceGame, GameRecord


def csrf_phone(app):
    """A phone with CSRF on: it reads the restore page (its token) as a browser would."""
    phone = app.test_client()
    device = device_of(phone)
    page = phone.get("/parties/importer").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return phone, device, token, page


def upload(phone, token: str, data: bytes):
    """The file posted, then its progress page followed (a busy machine may take longer than the
    restore's wait) until the restore answers: what was added, or its problems."""
    form = {"csrf_token": token, "file": (io.BytesIO(data), "club.json")}
    return follow(phone, phone.post("/parties/importer", data=form, content_type="multipart/form-data"))


def count(app, device: str | None = None) -> int:
    with app.app_context():
        query = sa.select(sa.func.count()).select_from(GameRecord)
        if device:
            query = query.join(DeviceGame).where(DeviceGame.device == device, DeviceGame.can_edit)
        return db.session.scalar(query)


def test_a_club_export_of_5000_games_is_restored_from_the_page_with_csrf_on(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    phone, device, token, page = csrf_phone(app)
    assert "Fichier d'export (JSON, 16 Mo au plus)" in page  # the one limit, said on the page
    data = text_of(club_export())
    assert len(data) > 10_000_000  # the club's 9.9 MB, and a little more
    response = upload(phone, token, data)
    assert response.status_code == 302, unescape(response.get_data(as_text=True))[-2000:]
    assert "5000 parties restaurées." in phone.get("/parties").get_data(as_text=True)
    assert count(app, device) == 5000


def test_a_club_export_with_mistakes_is_refused_whole_with_every_path(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    phone, _, token, _ = csrf_phone(app)
    data = club_export()
    bad = [7, 1234, 4999] + list(range(100, 160))  # 63 games with a mistake, one in each
    for i in bad:
        data["games"][i]["colours"] = ["rouge"]
    response = upload(phone, token, text_of(data))
    assert response.status_code == 422
    html = unescape(response.get_data(as_text=True))
    assert "Rien n'a été importé :" in html and "le fichier contient 63 erreurs." in html
    listed = re.findall(r"<code>(games\[\d+\]\.colours)</code>", html)
    assert listed[:3] == ["games[7].colours", "games[100].colours", "games[101].colours"]
    assert len(listed) == 50 and "… et 13 autres." in html
    assert count(app) == 0  # all or nothing


def test_the_limit_is_one_setting_said_on_the_page_and_in_the_refusal(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True, UPLOAD_MAX_BYTES=2 * 1024 * 1024)
    phone, _, token, page = csrf_phone(app)
    assert "Fichier d'export (JSON, 2 Mo au plus)" in page
    data = text_of(club_export(1500))
    assert len(data) > 2 * 1024 * 1024
    response = upload(phone, token, data)
    assert response.status_code == 413
    html = unescape(response.get_data(as_text=True))
    assert "<code>fichier</code> : fichier trop gros (2 Mo au plus)" in html
    assert "Fichier d'export (JSON, 2 Mo au plus)" in html  # the form again, to choose another file
    assert count(app) == 0
    small = text_of(club_export(300))
    assert 384 * 1024 < len(small) < 2 * 1024 * 1024  # over the app's limit for one document
    assert upload(phone, token, small).status_code == 302


def test_without_the_csrf_token_a_large_restore_is_still_refused_as_forged(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    phone, _, _, _ = csrf_phone(app)
    response = upload(phone, "forged", text_of(club_export(400)))
    assert response.status_code == 400
    assert "Le formulaire a expiré ou vient d'un autre site" in unescape(response.get_data(as_text=True))
    assert count(app) == 0


@pytest.mark.browser
def test_a_phone_restores_a_club_export_through_the_page(phone, live_server, tmp_path):
    """Chromium at a phone's size picks the 10 MB file and taps "Restaurer" (CSRF on, a real server)."""
    file = tmp_path / "club.json"
    data = club_export()
    file.write_bytes(text_of(data))
    try:
        phone.goto(f"{phone.base_url}/parties/importer")
        expect(phone.locator("label[for=file]")).to_have_text("Fichier d'export (JSON, 16 Mo au plus)")
        phone.set_input_files("#file", str(file))
        phone.get_by_role("button", name="Restaurer").tap()
        phone.wait_for_url(re.compile(r"/parties$"), timeout=120_000)
        expect(phone.locator(".flash-success")).to_have_text("5000 parties restaurées.")
    finally:  # the live server is the session's: leave its database as the other tests expect it
        with live_server.app.app_context():
            uids = [g["id"] for g in data["games"]]
            for start in range(0, len(uids), 500):
                ids = sa.select(GameRecord.id).where(GameRecord.uid.in_(uids[start:start + 500]))
                db.session.execute(sa.delete(DeviceGame).where(DeviceGame.game_id.in_(ids)))
                db.session.execute(sa.delete(GameRecord).where(GameRecord.uid.in_(uids[start:start + 500])))
            db.session.commit()
