"""The photo of the final board (issue 31): taken on the results page, kept with the game without any
EXIF field, rotated and at most 2048 px; refused with a clear message (not an image, too heavy, a
decompression bomb, HEIC) storing nothing; served under both links; optional on the sheet; removed
with the game; carried by the JSON export and restored, the CSV export unaffected."""

from __future__ import annotations

import io
import json
import random
import re
import struct
import zlib
from html import unescape

import pytest
import sqlalchemy as sa
from PIL import ExifTags, Image, ImageFile
from played import device_of, revive, store_games
from pypdf import PdfReader

from app_helpers import make_app, markup
from companion.extensions import db
from companion.storage import photos
from companion.storage.models import GamePhoto, GameRecord
from companion.web.limits import HeavyPaths

BLUE, RED = (0, 0, 255), (255, 0, 0)


def phone_photo(width=4000, height=3000, orientation=6) -> bytes:
    """A phone's JPEG: a blue band on its left (as stored), EXIF orientation 6 (the phone was held
    upright: shown turned a quarter clockwise, the band on top), GPS position, maker, a comment."""
    image = Image.new("RGB", (width, height), RED)
    image.paste(BLUE, (0, 0, width // 10, height))
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = orientation
    exif[ExifTags.Base.Make] = "PhoneMaker"
    exif[ExifTags.Base.Model] = "Model 12"
    exif[ExifTags.IFD.GPSInfo] = {
        ExifTags.GPS.GPSLatitudeRef: "N", ExifTags.GPS.GPSLatitude: (48.0, 51.0, 24.0),
        ExifTags.GPS.GPSLongitudeRef: "E", ExifTags.GPS.GPSLongitude: (2.0, 21.0, 3.0)}
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif, comment=b"Rue des Jeux 12", quality=90)
    data = out.getvalue()
    assert Image.open(io.BytesIO(data)).getexif().get_ifd(ExifTags.IFD.GPSInfo)  # the test's own check
    return data


def png_declaring(width: int, height: int) -> bytes:
    """A tiny PNG file whose header declares `width` x `height` pixels (a decompression bomb's shape)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
            + chunk(b"IEND", b""))


def scored_game(app, client):
    device_of(client)
    [record] = store_games(app, None, [revive(("Alice", 30), ("Bob", 20))])
    return record


def send(client, token: str, data: bytes, name="IMG_0001.JPG", field="photo"):
    return client.post(f"/g/{token}/photo", data={field: (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def stored(app, record):
    with app.app_context():
        photo = db.session.get(GamePhoto, record.id)
        key = db.session.scalar(sa.select(GameRecord.photo_key).where(GameRecord.id == record.id))
        return (None if photo is None else (photo.data, photo.width, photo.height, photo.digest)), key


def error_beside_field(html: str) -> str:
    found = re.search(r'<p class="field-error" id="e-photo" role="alert">([^<]*)</p>', html)
    assert found, "the message slot beside the photo field"
    return unescape(found.group(1))


def test_a_phone_photo_is_kept_rotated_small_and_without_any_exif(app, client):
    record = scored_game(app, client)
    page = client.get(f"/g/{record.edit_token}/resultats").get_data(as_text=True)
    assert 'accept="image/*" capture="environment"' in page and 'enctype="multipart/form-data"' in page
    assert "16 Mo au plus" in page and "La localisation" in page  # the limit and the promise, by the field

    response = send(client, record.edit_token, phone_photo())
    assert response.status_code == 302 and response.headers["Location"].endswith("/resultats#photo")
    (data, width, height, digest), key = stored(app, record)
    assert key == digest
    kept = Image.open(io.BytesIO(data))
    # turned upright, 2048 at most (decoded at half scale: 4000 px / 2)
    assert kept.format == "JPEG" and (width, height) == kept.size == (1500, 2000)
    assert kept.getpixel((width // 2, 20))[2] > 200 and kept.getpixel((width // 2, height - 20))[0] > 200
    assert not kept.getexif() and not kept.getexif().get_ifd(ExifTags.IFD.GPSInfo)
    assert set(kept.info) <= {"jfif", "jfif_version", "jfif_unit", "jfif_density", "dpi"}
    for trace in (b"Exif", b"GPS", b"PhoneMaker", b"Model 12", b"Rue des Jeux", b"http://ns.adobe.com"):
        assert trace not in data

    html = client.get(f"/g/{record.edit_token}/resultats").get_data(as_text=True)
    assert "Photo du plateau enregistrée." in html
    assert f'src="/g/{record.edit_token}/photo.jpg?v={digest[:12]}"' in html
    assert "Remplacer la photo" in html and "Retirer la photo" in html
    assert f"/g/{record.edit_token}/sheet.pdf?photo=1" in html
    shared = client.get(f"/r/{record.view_token}/").get_data(as_text=True)
    assert f'src="/r/{record.view_token}/photo.jpg?v={digest[:12]}"' in shared
    assert record.edit_token not in shared and 'type="file"' not in markup(shared)
    assert f"/r/{record.view_token}/sheet.pdf?photo=1" in shared

    for url in (f"/g/{record.edit_token}/photo.jpg", f"/r/{record.view_token}/photo.jpg"):
        served = client.get(url)
        assert served.status_code == 200 and served.data == data
        assert served.headers["Content-Type"] == "image/jpeg"
        assert served.headers["X-Content-Type-Options"] == "nosniff"
        assert "default-src 'self'" in served.headers["Content-Security-Policy"]
        assert served.headers["Cache-Control"] == "private, no-cache"
        again = client.get(url, headers={"If-None-Match": served.headers["ETag"]})
        assert again.status_code == 304 and not again.data


def test_a_photo_is_kept_as_the_game_is_without_touching_its_version(app, client):
    record = scored_game(app, client)
    assert send(client, record.edit_token, phone_photo(800, 600, orientation=1)).status_code == 302
    with app.app_context():
        row = db.session.get(GameRecord, record.id)
        assert row.version == record.version and row.document == record.document
    (data, width, height, _), _ = stored(app, record)
    assert (width, height) == (800, 600)  # never enlarged
    # another photo replaces it
    assert send(client, record.edit_token, phone_photo(1200, 900, orientation=1)).status_code == 302
    (second, width, _, digest), key = stored(app, record)
    assert width == 1200 and second != data and key == digest
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(GamePhoto)) == 1


@pytest.mark.parametrize(("content", "name", "expected"), [
    (b"Ceci est une liste de courses, pas une photo.\n", "notes.txt", "n'est pas une photo lisible : formats "
                                                                      "acceptés JPEG, PNG, WebP"),
    (b"%PDF-1.7\n" + b"0" * 500, "plateau.jpg", "n'est pas une photo lisible"),
    (png_declaring(100_000, 100_000), "bombe.png", "Image trop grande : 40 mégapixels au plus."),
    (png_declaring(7_000, 7_000), "grand.png", "Image trop grande : 40 mégapixels au plus."),
    (phone_photo(400, 300)[:2000], "coupee.jpg", "incomplète ou abîmée"),
])
@pytest.mark.parametrize("truncated_allowed", [False, True])
def test_what_is_not_a_usable_photo_is_refused_beside_the_field_and_nothing_is_stored(
        app, client, monkeypatch, content, name, expected, truncated_allowed):
    # as in a process where WeasyPrint was imported first (it allows truncated images globally)
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", truncated_allowed)
    record = scored_game(app, client)
    response = send(client, record.edit_token, content, name)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert expected in error_beside_field(html)
    assert 'aria-invalid="true"' in html
    assert stored(app, record) == (None, None)


def test_a_heic_photo_is_refused_naming_the_formats_read(app, client):
    if photos.HEIF:
        pytest.skip("the pillow-heif plugin is installed here: HEIC is read")
    record = scored_game(app, client)
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 200
    response = send(client, record.edit_token, heic, "IMG_0002.HEIC")
    message = error_beside_field(response.get_data(as_text=True))
    assert "HEIC" in message and "JPEG, PNG, WebP" in message and "Le plus compatible" in message
    assert stored(app, record) == (None, None)


def test_a_photo_over_the_limit_is_refused_with_the_limit(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = make_app(tmp_path, PHOTO_MAX_BYTES=1024 * 1024)
    client = app.test_client()
    record = scored_game(app, client)
    assert "1 Mo au plus" in client.get(f"/g/{record.edit_token}/resultats").get_data(as_text=True)
    noise = Image.frombytes("RGB", (800, 800), random.Random(31).randbytes(800 * 800 * 3))
    out = io.BytesIO()
    noise.save(out, "PNG")
    heavy = out.getvalue()
    assert len(heavy) > 1024 * 1024
    response = send(client, record.edit_token, heavy, "grand.png")
    assert response.status_code == 413
    assert error_beside_field(response.get_data(as_text=True)) == "Photo trop lourde : 1 Mo au plus."
    assert stored(app, record) == (None, None)
    assert send(client, record.edit_token, phone_photo(1000, 750)).status_code == 302  # a usual one fits


def test_a_post_without_a_file_or_for_no_game(app, client):
    record = scored_game(app, client)
    response = client.post(f"/g/{record.edit_token}/photo", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choisissez une photo" in error_beside_field(response.get_data(as_text=True))
    assert send(client, "nothing-here", phone_photo(400, 300)).status_code == 404
    assert client.get("/g/nothing-here/photo.jpg").status_code == 404
    assert client.get(f"/r/{record.view_token}/photo.jpg").status_code == 404  # no photo yet
    assert "Photo du plateau final" not in client.get(f"/r/{record.view_token}/").get_data(as_text=True)


def test_the_upload_requires_csrf(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    record = scored_game(app, client)
    assert send(client, record.edit_token, phone_photo(400, 300)).status_code == 400
    assert stored(app, record) == (None, None)
    page = client.get(f"/g/{record.edit_token}/resultats").get_data(as_text=True)
    token = re.search(r'action="/g/[^"]+/photo">\s*<input type="hidden" name="csrf_token" value="([^"]+)"',
                      page).group(1)
    response = client.post(f"/g/{record.edit_token}/photo", content_type="multipart/form-data",
                           data={"csrf_token": token, "photo": (io.BytesIO(phone_photo(400, 300)), "a.jpg")})
    assert response.status_code == 302 and stored(app, record)[1] is not None


def test_the_upload_is_in_the_heavy_share_of_the_working_slots(app):
    heavy = HeavyPaths(app)
    assert ("/g/abc/photo", "POST") in heavy
    assert ("/parties/export.json", "GET") in heavy
    assert ("/parties/importer", "POST") in heavy  # a file's photos are each decoded again
    for light in (("/g/abc/photo.jpg", "GET"), ("/g/abc/save", "POST"), ("/g/abc/photo/retirer", "POST"),
                  ("/r/abc/photo.jpg", "GET"), ("/g/abc/", "POST"), ("/photo", "POST")):
        assert light not in heavy, light


def test_removing_the_photo_or_the_game_removes_it(app, client):
    record = scored_game(app, client)
    with app.app_context():  # this device's game, so that it may delete it
        from companion.storage.models import DeviceGame
        db.session.add(DeviceGame(device=client.get_cookie("companion_device").value, game_id=record.id))
        db.session.commit()
    assert send(client, record.edit_token, phone_photo(400, 300)).status_code == 302
    response = client.post(f"/g/{record.edit_token}/photo/retirer")
    assert response.status_code == 302 and stored(app, record) == (None, None)
    assert client.get(f"/g/{record.edit_token}/photo.jpg").status_code == 404
    assert "Retirer la photo" not in client.get(f"/g/{record.edit_token}/resultats").get_data(as_text=True)

    assert send(client, record.edit_token, phone_photo(400, 300)).status_code == 302
    assert client.post(f"/parties/{record.view_token}/supprimer").status_code == 302
    with app.app_context():
        assert db.session.get(GameRecord, record.id) is None
        assert db.session.scalar(sa.select(sa.func.count()).select_from(GamePhoto)) == 0


def test_the_sheet_has_the_photo_on_a_second_page_only_when_asked(app, client):
    record = scored_game(app, client)
    plain = client.get(f"/g/{record.edit_token}/sheet.pdf")
    assert plain.status_code == 200 and len(PdfReader(io.BytesIO(plain.data)).pages) == 1
    assert client.get(f"/g/{record.edit_token}/sheet.pdf?photo=1").data == plain.data  # no photo yet
    assert send(client, record.edit_token, phone_photo(1600, 1200, orientation=1)).status_code == 302
    for url in (f"/g/{record.edit_token}/sheet.pdf?photo=1", f"/r/{record.view_token}/sheet.pdf?photo=1"):
        with_photo = client.get(url)
        assert with_photo.status_code == 200 and with_photo.headers["Content-Type"] == "application/pdf"
        pages = PdfReader(io.BytesIO(with_photo.data)).pages
        assert len(pages) == 2
        [image] = pages[1].images
        assert image.image.size == (1600, 1200)
        assert "Photo du plateau final" in pages[1].extract_text()
        assert with_photo.headers["ETag"] != plain.headers["ETag"]
    again = client.get(f"/g/{record.edit_token}/sheet.pdf")
    assert len(PdfReader(io.BytesIO(again.data)).pages) == 1  # without the parameter: the sheet alone


def test_the_sheets_fetcher_serves_the_photo_and_still_nothing_else():
    from companion.pdf.fetcher import PHOTO_URL, FetchRefused, StaticFetcher

    fetcher = StaticFetcher(resources={PHOTO_URL: (b"jpeg bytes", "image/jpeg")})
    response = fetcher.fetch(PHOTO_URL)
    assert response.read() == b"jpeg bytes" and response.content_type == "image/jpeg"
    for url in ("companion-photo:other.jpg", "file:///etc/passwd", "http://127.0.0.1/x.jpg",
                "data:image/jpeg;base64,AAAA"):
        with pytest.raises(FetchRefused):
            fetcher.fetch(url)
    with pytest.raises(FetchRefused):
        StaticFetcher().fetch(PHOTO_URL)  # only when the app hands it over


def test_export_carries_the_photo_in_the_one_json_file_and_restore_reads_it_back(app, client, tmp_path):
    device_of(client)
    device = client.get_cookie("companion_device").value
    [with_photo, without] = store_games(app, device, [revive(("Alice", 30), ("Bob", 20)),
                                                      revive(("Zoé", 12), ("Léo", 14))])
    csv_before = client.get("/parties/export.csv").data
    assert send(client, with_photo.edit_token, phone_photo(1000, 750)).status_code == 302
    (data, _, _, digest), _ = stored(app, with_photo)
    assert client.get("/parties/export.csv").data == csv_before  # the CSV export is unaffected

    text = client.get("/parties/export.json").get_data(as_text=True)
    entries = {g["id"]: g for g in json.loads(text)["games"]}
    assert entries[with_photo.uid]["photo"]["type"] == "image/jpeg"
    assert "photo" not in entries[without.uid]

    other = make_app(tmp_path / "elsewhere")
    phone = other.test_client()
    device_of(phone)
    response = phone.post("/parties/importer", data={"file": (io.BytesIO(text.encode()), "x.json")},
                          content_type="multipart/form-data")
    assert response.status_code == 302
    with other.app_context():
        restored = db.session.scalar(sa.select(GameRecord).where(GameRecord.uid == with_photo.uid))
        photo = db.session.get(GamePhoto, restored.id)
        assert photo.data == data and restored.photo_key == digest == photo.digest  # byte for byte
        plain = db.session.scalar(sa.select(GameRecord).where(GameRecord.uid == without.uid))
        assert plain.photo_key is None
        token = restored.view_token
    assert phone.get(f"/r/{token}/photo.jpg").data == data


def test_a_restored_photo_is_checked_as_an_upload_is(app, client):
    device_of(client)
    game = {"id": "ab" * 16, "status": "scored", "created_at": "2026-11-24T18:40:00Z",
            "document": revive(("Alice", 30), ("Bob", 20))}
    gps = phone_photo(600, 400)
    files = {
        "not an image": ({"type": "image/jpeg", "data": "SGVsbG8="}, "games[0].photo.data"),
        "not base64": ({"type": "image/jpeg", "data": "***"}, "games[0].photo.data"),
        "another type": ({"type": "image/gif", "data": ""}, "games[0].photo"),
    }
    import base64

    for value, path in files.values():
        body = json.dumps({"format": "companion-export", "version": 1, "games": [{**game, "photo": value}]})
        response = client.post("/parties/importer", data={"file": (io.BytesIO(body.encode()), "x.json")},
                               content_type="multipart/form-data")
        assert response.status_code == 422 and path in response.get_data(as_text=True)
        with app.app_context():
            assert db.session.scalar(sa.select(sa.func.count()).select_from(GameRecord)) == 0
    # a photo with its EXIF (a file written by hand): restored without it
    value = {"type": "image/jpeg", "data": base64.b64encode(gps).decode()}
    body = json.dumps({"format": "companion-export", "version": 1, "games": [{**game, "photo": value}]})
    response = client.post("/parties/importer", data={"file": (io.BytesIO(body.encode()), "x.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    with app.app_context():
        [photo] = db.session.scalars(sa.select(GamePhoto))
        assert b"GPS" not in photo.data and not Image.open(io.BytesIO(photo.data)).getexif()
        assert (photo.width, photo.height) == (400, 600)  # its orientation applied


def test_photos_on_postgresql(postgres_url, tmp_path, monkeypatch):
    """Bytes in a PostgreSQL column, the same pages, and the photo gone with its game (ON DELETE CASCADE)."""
    from companion import create_app

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False})
    assert app.test_cli_runner().invoke(args=["db", "upgrade"]).exit_code == 0
    client = app.test_client()
    record = scored_game(app, client)
    assert send(client, record.edit_token, phone_photo(1000, 750)).status_code == 302
    (data, width, height, digest), key = stored(app, record)
    assert (width, height) == (750, 1000) and key == digest
    assert client.get(f"/r/{record.view_token}/photo.jpg").data == data
    with app.app_context(), db.engine.begin() as conn:  # the database removes it with its game by itself
        conn.execute(sa.text("DELETE FROM games WHERE id = :id"), {"id": record.id})
        assert conn.execute(sa.text("SELECT count(*) FROM game_photos WHERE game_id = :id"),
                            {"id": record.id}).scalar_one() == 0


def test_the_long_side_is_at_most_2048_whatever_the_photo():
    for size, expected in (((5000, 5000), (2048, 2048)), ((3000, 4000), (1500, 2000)),
                           ((2500, 1000), (2048, 819)), ((1600, 1200), (1600, 1200)),
                           ((8064, 6048), (2016, 1512)), ((640, 480), (640, 480))):
        image = Image.new("RGB", size, (40, 90, 160))
        out = io.BytesIO()
        image.save(out, "PNG" if size[0] == 2500 else "JPEG")
        photo = photos.prepare(out.getvalue())
        assert (photo.width, photo.height) == expected == Image.open(io.BytesIO(photo.data)).size, size


@pytest.mark.browser
def test_a_phone_takes_the_photo_and_sees_it_on_both_pages(phone, live_server, tmp_path):
    """Headless Chromium at a phone's size, CSRF on: the file input (what the camera hands it), then
    the photo on the results page and on the share link's page, drawn (CSP allowing it)."""
    from playwright.sync_api import expect

    from browser_helpers import check_layout

    [record] = store_games(live_server.app, None, [revive(("Alice", 30), ("Bob", 20))])
    picture = tmp_path / "IMG_0001.JPG"
    picture.write_bytes(phone_photo(1200, 900))
    phone.goto(f"{phone.base_url}/g/{record.edit_token}/resultats")
    field = phone.locator("#photo-file")
    assert field.get_attribute("accept") == "image/*" and field.get_attribute("capture") == "environment"
    field.set_input_files(str(picture))
    phone.get_by_role("button", name="Enregistrer la photo").click()
    expect(phone.locator(".flash")).to_contain_text("Photo du plateau enregistrée.")
    image = phone.locator("img.board-photo-img")
    expect(image).to_be_visible()
    assert phone.wait_for_function("img => img.complete && img.naturalWidth === 900",
                                   arg=image.element_handle())
    assert image.bounding_box()["width"] <= 390
    check_layout(phone)  # one column, every tap target (the file input, replace, remove) 44 px at least
    phone.goto(f"{phone.base_url}/r/{record.view_token}/")
    expect(phone.locator("img.board-photo-img")).to_be_visible()
    shown = "() => document.querySelector('img.board-photo-img').naturalHeight === 1200"
    assert phone.wait_for_function(shown)


def test_an_upload_waits_for_the_heavy_share_while_the_tables_pages_go_on(app, client):
    """The app's own gate: with the heavy share taken (an export running), a photo's upload waits
    for it, while a table's page is answered at once; then the upload goes through."""
    import threading

    from companion.web.limits import GATE

    record = scored_game(app, client)
    gate = app.extensions[GATE]
    data = phone_photo(800, 600)
    answers = {}
    waiting = threading.Event()

    class Share:  # the heavy share, saying when a request starts waiting for it
        def __init__(self, slots):
            self.slots = slots

        def acquire(self):
            waiting.set()
            return self.slots.acquire()

        def release(self):
            return self.slots.release()

    gate.heavy_slots = Share(gate.heavy_slots)
    gate.heavy_slots.slots.acquire()  # what a running export holds
    try:
        upload = threading.Thread(target=lambda: answers.update(upload=send(app.test_client(),
                                                                            record.edit_token, data)))
        upload.start()
        assert waiting.wait(timeout=30)  # the upload asked for the heavy share...
        assert client.get(f"/g/{record.edit_token}/resultats").status_code == 200  # the table's page
        assert "upload" not in answers and upload.is_alive()  # still waiting for the heavy share
    finally:
        gate.heavy_slots.release()
    upload.join(timeout=60)
    assert answers["upload"].status_code == 302 and stored(app, record)[1] is not None
