"""How often one client may restore, create games, settle ties and call the API (issue 30): past
each setting's limit the answer is a 429 that says so in the page's language (JSON under /api/),
with a Retry-After, and nothing is done; the table's other requests are not counted."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
import sqlalchemy as sa
from played import device_of
from test_restore_background import post_file

from app_helpers import make_app
from companion import settings
from companion.extensions import db
from companion.storage.models import GameRecord
from document_helpers import load_example

FRENCH = ("Trop de demandes de cet appareil en peu de temps : rien n'a été fait. Attendez un peu, puis "
          "réessayez.")
ENGLISH_PAGE = "Too many requests"


def limited(tmp_path, **limits):
    return make_app(tmp_path, RATELIMIT_ENABLED=True, **limits)


def text(response) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def games(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(GameRecord))


def export_file(n: int) -> bytes:
    from bench.bench_restore import club_export, text_of

    return text_of(club_export(n))


def test_the_documented_defaults():
    config = settings.from_env("/nonexistent")
    assert config["RATE_LIMIT_RESTORE"] == "10 per hour"
    assert config["RATE_LIMIT_NEW_GAME"] == "60 per 10 minutes"
    assert config["RATE_LIMIT_TIE"] == "60 per minute"
    assert config["RATE_LIMIT_API"] == "300 per minute"
    assert config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert config["RATELIMIT_ENABLED"] is True


def test_restores_past_the_limit_are_a_429_in_french_and_restore_nothing(tmp_path):
    app = limited(tmp_path, RATE_LIMIT_RESTORE="2 per hour")
    phone = app.test_client()
    device_of(phone)
    for n in (1, 2):
        assert post_file(phone, export_file(n)).status_code == 302
    assert games(app) == 3
    refused = post_file(phone, export_file(3))
    assert refused.status_code == 429
    assert FRENCH in text(refused)
    assert int(refused.headers["Retry-After"]) > 0
    assert games(app) == 3
    assert phone.get("/parties/importer").status_code == 200  # the page itself is not counted


def test_new_games_past_the_limit_make_no_game_and_say_so_in_english(tmp_path):
    app = limited(tmp_path, RATE_LIMIT_NEW_GAME="3 per minute")
    phone = app.test_client()
    form = {"game": "revive", "variant": "base", "players-0-name": "Ana", "players-1-name": "Bo"}
    for n in range(3):  # three tables (the same one again would be its untouched twin)
        assert phone.post("/nouvelle", data={**form, "players-1-name": f"Bo{n}"}).status_code == 302
    assert phone.get("/nouvelle?game=revive").status_code == 200  # choosing is not creating
    refused = phone.post("/nouvelle", data=form, headers={"Accept-Language": "en"})
    assert refused.status_code == 429
    assert ENGLISH_PAGE in text(refused)
    assert "Too many requests from this device in a short time: nothing was done. Wait a little, then try " \
           "again." in text(refused)
    assert games(app) == 3


def test_the_tie_page_past_its_limit(tmp_path):
    app = limited(tmp_path, RATE_LIMIT_TIE="2 per minute")
    phone = app.test_client()
    url = "/egalite?game=revive&variant=base"
    assert phone.get(url).status_code == 200
    answers = [phone.post(url, data={}).status_code for _ in range(3)]
    assert answers[:2] != [429, 429] and answers[2] == 429
    assert phone.get(url).status_code == 200  # reading the page is not counted


def test_the_api_past_its_limit_answers_json_with_a_message(tmp_path):
    app = limited(tmp_path, RATE_LIMIT_API="3 per minute")
    client = app.test_client()
    document = load_example("revive-abyss.json")
    for _ in range(3):
        assert client.post("/api/v1/score", json=document).status_code == 200
    refused = client.post("/api/v1/score", json=document)
    assert refused.status_code == 429
    assert refused.is_json
    assert refused.json["errors"][0]["message"] == FRENCH
    assert client.get("/api/v1/games").status_code == 429  # one count for the whole API
    english = client.post("/api/v1/rebirth/city", json={}, headers={"Accept-Language": "en"})
    assert english.status_code == 429 and english.json["errors"][0]["message"].startswith("Too many requests")


def test_the_table_is_never_counted(tmp_path):
    """Pages, autosaves and exports of a game are not limited here (the request gate bounds them)."""
    app = limited(tmp_path, RATE_LIMIT_NEW_GAME="1 per minute", RATE_LIMIT_API="1 per minute")
    phone = app.test_client()
    response = phone.post("/nouvelle", data={"game": "revive", "variant": "base", "players-0-name": "Ana",
                                             "players-1-name": "Bo"})
    token = re.fullmatch(r"/g/([\w-]+)/", response.headers["Location"]).group(1)
    for version in range(1, 11):
        base = str(version - 1) if version > 1 else ""
        saved = phone.post(f"/g/{token}/save", data={"version": str(version), "changes": json.dumps(
            {"players-0-great_locations-0": [base, str(version)]})})
        assert saved.status_code == 200, saved.get_data(as_text=True)
        assert phone.get(f"/g/{token}/").status_code == 200
    assert phone.get("/parties/export.json").status_code == 200


@pytest.mark.parametrize("limit", ["1 per minute"])
def test_two_apps_count_apart(tmp_path, limit):
    """Each app has its own Limiter (the tests make many apps in one process)."""
    first = limited(tmp_path / "a", RATE_LIMIT_API=limit).test_client()
    second = limited(tmp_path / "b", RATE_LIMIT_API=limit).test_client()
    assert first.get("/api/v1/games").status_code == 200
    assert second.get("/api/v1/games").status_code == 200
    assert first.get("/api/v1/games").status_code == 429


def test_off_when_disabled(tmp_path):
    app = make_app(tmp_path, RATE_LIMIT_RESTORE="1 per hour")  # the suite's apps: RATELIMIT_ENABLED off
    phone = app.test_client()
    device_of(phone)
    for n in (1, 2, 3):
        assert post_file(phone, export_file(n)).status_code == 302
