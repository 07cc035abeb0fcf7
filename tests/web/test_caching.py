"""What browsers and proxies may keep: never a page holding an edit token; a game's PDF sheet is
rendered once per stored version and revalidated with its ETag (304)."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader

from app_helpers import create_game, stored
from companion.pdf import cache


@pytest.fixture
def renders(monkeypatch):
    """A fresh sheet cache for the test; its `renders` counts the sheets really drawn."""
    sheets = cache.SheetCache()
    monkeypatch.setattr(cache, "SHEETS", sheets)
    return sheets


def revive(client) -> str:
    return create_game(client, "revive", "base", ["Maëlle", "Yanis"], ["#3d8b4f", "#7b4ea3"])


def text_of(pdf: bytes) -> str:
    return PdfReader(BytesIO(pdf)).pages[0].extract_text()


def test_sheet_is_rendered_once_per_version_and_revalidated(app, client, renders):
    token = revive(client)
    view = stored(app, token).view_token
    first = client.get(f"/g/{token}/sheet.pdf")
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    etag = first.headers["ETag"]
    assert etag.startswith('"v1-')
    assert first.headers["Cache-Control"] == "private, no-cache"
    again = client.get(f"/r/{view}/sheet.pdf")  # the share link: same sheet, same cache entry
    assert again.data == first.data and again.headers["ETag"] == etag
    assert renders.renders == 1

    unchanged = client.get(f"/r/{view}/sheet.pdf", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert unchanged.headers["ETag"] == etag
    # A proxy that compressed the sheet hands back a weak ETag: still the same sheet.
    assert client.get(f"/r/{view}/sheet.pdf", headers={"If-None-Match": f"W/{etag}"}).status_code == 304
    assert renders.renders == 1

    saved = client.post(f"/g/{token}/save", data={"version": "1", "card_mode": "shared",
                                                  "players-0-track": "57"})
    assert saved.status_code == 200
    changed = client.get(f"/r/{view}/sheet.pdf", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] not in (etag, None)
    assert changed.headers["ETag"].startswith('"v2-')
    assert changed.data != first.data
    assert "57" in text_of(changed.data) and "57" not in text_of(first.data)
    assert renders.renders == 2


def test_a_304_needs_no_render_even_in_a_fresh_worker(app, client, renders):
    token = revive(client)
    etag = client.get(f"/g/{token}/sheet.pdf").headers["ETag"]
    renders.clear()  # another worker, or this one after a restart: nothing cached
    assert client.get(f"/g/{token}/sheet.pdf", headers={"If-None-Match": etag}).status_code == 304
    assert renders.renders == 1


def test_two_games_never_share_a_sheet(app, client, renders):
    one, two = revive(client), create_game(client, "revive", "base", ["Ann", "Bob"], ["#3d8b4f", "#7b4ea3"])
    a, b = client.get(f"/g/{one}/sheet.pdf"), client.get(f"/g/{two}/sheet.pdf")
    assert a.headers["ETag"] != b.headers["ETag"]
    assert "Maëlle" in text_of(a.data) and "Ann" in text_of(b.data)


def test_cache_is_bounded():
    sheets = cache.SheetCache(max_bytes=250, max_items=3)
    for i in range(10):
        sheets.get_or_render(f"k{i}", lambda: b"x" * 100)
    assert sheets.get("k9") and sheets.get("k8")
    assert sheets.get("k7") is None and sheets.get("k0") is None
    assert sheets.renders == 10


def test_pages_holding_an_edit_token_are_never_stored(app, client):
    token = revive(client)
    rebirth = create_game(client, "rebirth", "scotland", ["Ann", "Bob"])
    view = stored(app, token).view_token
    pages = {
        "new game": client.get("/nouvelle?game=revive"),
        "new game refused": client.post("/nouvelle", data={"game": "revive", "variant": "base"}),
        "edit": client.get(f"/g/{token}/"),
        "edit refused": client.post(f"/g/{token}/", data={"version": "1", "players-0-track": "x"}),
        "autosave": client.post(f"/g/{token}/save", data={"version": "1", "card_mode": "shared"}),
        "results": client.get(f"/g/{token}/resultats"),
        "city tool": client.get(f"/g/{rebirth}/outils/ville"),
        "castle tool": client.get(f"/g/{rebirth}/outils/chateau"),
        "history": client.get("/parties"),
        "delete": client.get(f"/parties/{view}/supprimer"),
        "unknown game": client.get("/g/not-a-token/"),
    }
    for label, response in pages.items():
        assert response.headers.get("Cache-Control") == "no-store", label
    assert client.get(f"/r/{view}/").headers["Cache-Control"] == "private, no-cache"
    assert "no-store" not in client.get("/").headers.get("Cache-Control", "")


def test_app_log_masks_tokens(app, client, caplog):
    token = revive(client)
    with caplog.at_level("INFO"):
        app.logger.warning("slow request: GET /g/%s/resultats (referrer http://x/r/%s/)", token, token)
    message = caplog.records[-1].getMessage()
    assert token not in message and token[4:] not in message
    assert f"/g/{token[:4]}…/resultats" in message and f"/r/{token[:4]}…/" in message


def test_workers_share_rendered_sheets_on_disk(app, client, renders):
    token = revive(client)
    first = client.get(f"/g/{token}/sheet.pdf")
    etag = first.headers["ETag"].strip('"')
    on_disk = Path(app.instance_path) / "sheets" / f"{etag}.pdf"
    assert on_disk.read_bytes() == first.data
    renders.clear()  # another worker: its memory is empty, the disk is shared
    assert client.get(f"/g/{token}/sheet.pdf").data == first.data
    assert renders.renders == 1


def test_disk_cache_keeps_the_newest_sheets(tmp_path):
    sheets = cache.SheetCache(max_files=3)
    for i in range(6):
        sheets.get_or_render(f"k{i}", lambda i=i: b"%d" % i, tmp_path)
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["k3.pdf", "k4.pdf", "k5.pdf"]


def test_warm_loads_weasyprint_before_any_request():
    """gunicorn.conf.py's post_worker_init calls companion.pdf.warm: in a fresh interpreter it
    leaves WeasyPrint imported, the fonts read and the sheet template compiled."""
    import subprocess
    import sys

    code = ("import sys; from companion import pdf; assert 'weasyprint' not in sys.modules; pdf.warm(); "
            "print('weasyprint' in sys.modules, pdf._coverage.cache_info().currsize, "
            "pdf._environment.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "1", "1"]


def test_gunicorn_config_warms_each_worker(monkeypatch):
    import runpy

    from companion import ROOT, pdf

    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    from gunicorn.util import load_class
    from gunicorn.workers.ggevent import GeventWorker

    assert issubclass(load_class(config["worker_class"]), GeventWorker)
    assert config["worker_connections"] >= 1000
    assert config["max_requests"] > 0 and config["max_requests_jitter"] > 0
    assert config["logger_class"] == "companion.web.logmask.GunicornLogger"
    from companion.base import gcpause

    calls = []
    monkeypatch.setattr(pdf, "warm", lambda: calls.append("warm"))
    monkeypatch.setattr(gcpause, "full_collections_every", lambda seconds: calls.append(("full", seconds)))
    config["post_worker_init"](None)
    assert calls == ["warm", ("full", 60)]  # and a full collection a minute (issue 33)


def test_a_sheet_already_drawn_is_served_without_scoring_the_game(app, client, renders, monkeypatch):
    """The sheet's key is made from the stored row alone: a cached sheet or a 304 does not score
    the game again; a save (a new version) does, and its sheet shows the new numbers."""
    from companion import games
    from companion.storage import score_cache

    token = revive(client)
    view = stored(app, token).view_token
    etag = client.get(f"/r/{view}/sheet.pdf").headers["ETag"]
    scored = []
    real = games.score
    monkeypatch.setattr(games, "score", lambda doc: scored.append(1) or real(doc))
    score_cache.result_of_text.cache_clear()
    assert client.get(f"/r/{view}/sheet.pdf").status_code == 200
    assert client.get(f"/g/{token}/sheet.pdf", headers={"If-None-Match": etag}).status_code == 304
    assert scored == [] and renders.renders == 1

    assert client.post(f"/g/{token}/save", data={"version": "1", "card_mode": "shared",
                                                "players-0-track": "57"}).status_code == 200
    fresh = client.get(f"/r/{view}/sheet.pdf", headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and "57" in text_of(fresh.data)
    assert scored and renders.renders == 2


def test_the_sheets_key_changes_with_the_engines_and_translations(monkeypatch):
    """Sheets on disk outlive an upgrade: what they print (scores, relabelled details, translated
    words) is part of the key's digest, not only the PDF code."""
    from companion import ROOT

    read = []
    real = Path.read_bytes

    def reading(path):
        read.append(path.relative_to(ROOT).as_posix())
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", reading)
    assert cache._render_id() == cache.RENDER_ID
    for needed in ("companion/games/revive.py", "companion/forms/revive.py", "companion/pdf/__init__.py",
                   "companion/translations/en/LC_MESSAGES/messages.po", "templates/pdf/sheet.html"):
        assert needed in read, needed
