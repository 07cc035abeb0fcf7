"""The results of a stored version are rendered once per process and shown again from memory
(companion/views/results.py `_shown`): whatever the order of the requests, each reader gets the page
of their own language, time zone and access, the numbers of the latest save, and nothing of
another reader (CSRF token, flashed messages, edit links)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from html import unescape

import pytest

from app_helpers import create_game, stored
from companion.extensions import db
from companion.storage.models import GameRecord
from companion.views import results as play  # the rendered results live in views/results.py

FINISHED = {"version": "1", "card_mode": "shared", "players-0-track": "40", "players-1-track": "12"}


@pytest.fixture(autouse=True)
def empty_cache():
    play.SHOWN.clear()
    yield
    play.SHOWN.clear()


def scored(app, client, names=("Maëlle", "Yanis"), created=None) -> tuple[str, str]:
    """A 2-player Revive game saved once with results; (edit token, view token)."""
    token = create_game(client, "revive", "base", list(names), ["#3d8b4f", "#7b4ea3"])
    if created is not None:
        with app.app_context():
            rec = db.session.scalar(db.select(GameRecord).where(GameRecord.edit_token == token))
            rec.created_at = created
            db.session.commit()
    assert client.post(f"/g/{token}/save", data=FINISHED).status_code == 200
    return token, stored(app, token).view_token


def totals(html: str) -> list[str]:
    row = re.search(r'<tr class="totals">(.*?)</tr>', html, re.S).group(1)
    return re.findall(r'<td class="num">([^<]+)</td>', row)


def page(client, url: str, **headers) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.status_code
    return unescape(response.get_data(as_text=True))


def test_the_second_reading_is_the_same_page_from_memory(app, client):
    token, _ = scored(app, client)
    first = page(client, f"/g/{token}/resultats")
    assert len(play.SHOWN) == 1
    again = page(client, f"/g/{token}/resultats")
    assert len(play.SHOWN) == 1 and again == first
    assert "Maëlle gagne" in again and totals(again) == totals(first)


def test_a_save_shows_its_new_numbers(app, client):
    token, view = scored(app, client)
    before = page(client, f"/g/{token}/resultats")
    page(client, f"/r/{view}/")
    saved = client.post(f"/g/{token}/save", data=FINISHED | {"version": "2", "players-1-track": "70"})
    assert saved.status_code == 200
    for url in (f"/g/{token}/resultats", f"/r/{view}/"):
        after = page(client, url)
        assert totals(after) != totals(before)
        assert totals(after)[1] == str(saved.json["totals"][1])
        assert "Yanis gagne" in after and "Maëlle gagne" not in after


def test_each_language_gets_its_own_page(app, client):
    token, view = scored(app, client)
    french = page(client, f"/g/{token}/resultats")
    english = page(client, f"/g/{token}/resultats", **{"Accept-Language": "en"})
    assert "Maëlle gagne" in french and "Feuille de score" in french
    assert "Maëlle wins" in english and "Score sheet" in english and "gagne" not in english
    assert "Maëlle gagne" in page(client, f"/r/{view}/")  # French again, after the English one
    assert "Maëlle wins" in page(client, f"/r/{view}/?lang=en")


def test_the_date_follows_each_readers_time_zone(app, client):
    """23:30 UTC on 22 Nov is 23 Nov in Paris: the cached page of one zone is not shown in another."""
    token, view = scored(app, client, created=datetime(2026, 11, 22, 23, 30, tzinfo=UTC))
    assert "22 nov. 2026" in page(client, f"/r/{view}/")
    client.set_cookie("companion_tz", "Europe/Paris")
    paris = page(client, f"/r/{view}/")
    assert "23 nov. 2026" in paris and "22 nov. 2026" not in paris
    client.set_cookie("companion_tz", "America/New_York")
    assert "22 nov. 2026" in page(client, f"/r/{view}/")


def test_the_read_only_page_never_shows_the_edit_link(app, client):
    """Rendered after the edit link's results (and before), the share page has no edit token,
    no "Modifier", no "Rejouer" form; the edit link's page keeps them."""
    token, view = scored(app, client)
    for order in ((f"/g/{token}/resultats", f"/r/{view}/"), (f"/r/{view}/", f"/g/{token}/resultats")):
        play.SHOWN.clear()
        pages = {url: page(app.test_client(), url) for url in order}
        read_only, editable = pages[f"/r/{view}/"], pages[f"/g/{token}/resultats"]
        assert token not in read_only and "/rejouer" not in read_only and "Modifier" not in read_only
        assert "Maëlle gagne" in read_only
        assert f"/g/{token}/rejouer" in editable and f"/g/{token}/" in editable
        assert totals(read_only) == totals(editable)
        kept = [shown.html for shown in play.SHOWN._items.values()]  # what is shared between readers
        assert len(kept) == 2 and not any(token in html or "csrf" in html for html in kept)


def test_csrf_token_and_flashed_messages_stay_with_their_reader(tmp_path, monkeypatch):
    """With CSRF on: two phones reading the same cached results each get their own token, which
    their own "Rejouer" accepts and the other's session refuses; a flashed message shows once,
    on the phone it was for."""
    from app_helpers import make_app

    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    one, two = app.test_client(), app.test_client()
    form = one.get("/nouvelle?game=revive&variant=base").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form).group(1)
    made = one.post("/nouvelle", data={"csrf_token": csrf, "game": "revive", "variant": "base",
                                       "players-0-name": "Maëlle", "players-1-name": "Yanis"})
    token = re.search(r"/g/([\w-]+)/", made.headers["Location"]).group(1)
    # A no-JS save flashes « Enregistré. » for the next page this phone opens: its results.
    assert one.post(f"/g/{token}/", data=FINISHED | {"csrf_token": csrf}).status_code == 302

    def rejouer_token(html: str) -> str:
        form = re.search(r'action="/g/[\w-]+/rejouer">(.*?)</form>', html, re.S).group(1)
        return re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)

    first = page(one, f"/g/{token}/resultats")
    assert "Enregistré." in first
    second = page(two, f"/g/{token}/resultats")
    assert "Enregistré." not in second and "Enregistré." not in page(one, f"/g/{token}/resultats")
    mine, theirs = rejouer_token(first), rejouer_token(second)
    assert mine != theirs
    assert two.post(f"/g/{token}/rejouer", data={"csrf_token": mine}).status_code == 400
    assert two.post(f"/g/{token}/rejouer", data={"csrf_token": theirs}).status_code == 302


def test_names_stay_escaped_from_memory_too(app, client):
    token, view = scored(app, client, names=("<b>Zoé</b>", 'Léo "&"'))
    for _ in range(2):  # rendered, then from memory
        for url in (f"/g/{token}/resultats", f"/r/{view}/"):
            raw = client.get(url).get_data(as_text=True)
            assert "<b>Zoé</b>" not in raw and "&lt;b&gt;Zoé&lt;/b&gt;" in raw
            assert 'Léo "&"' not in raw


def test_the_scripts_strings_are_in_each_pages_language(client):
    """base.html's data-strings (the scripts' words), made once per language."""
    def strings(**headers) -> dict:
        html = client.get("/", headers=headers).get_data(as_text=True)
        return json.loads(unescape(re.search(r'data-strings="([^"]*)"', html).group(1)))

    assert strings()["saving"] == "Enregistrement…"
    assert strings(**{"Accept-Language": "en"})["saving"] == "Saving…"
    assert strings()["saving"] == "Enregistrement…"


def test_results_and_a_cached_sheet_read_the_database_once(app, client):
    """Under load every query lets the other working thread take the interpreter (SQLite releases
    it): a results page read again, or a sheet already drawn, is one query; the history entry is
    still written when it must be (first visit, edit access gained)."""
    import sqlalchemy as sa

    token, view = scored(app, client)
    statements = []

    def count(conn, cursor, statement, *args):
        statements.append(statement.split()[0])

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        other = app.test_client()  # another phone: its first visit writes its history entry
        page(other, f"/r/{view}/")
        assert "INSERT" in statements
        statements.clear()
        for url in (f"/r/{view}/", f"/g/{token}/resultats", f"/r/{view}/sheet.pdf", f"/r/{view}/sheet.pdf"):
            other.get(url)
            if url.endswith("resultats"):  # edit access gained: written once
                assert "UPDATE" in statements
            else:
                assert statements == ["SELECT"], (url, statements)
            statements.clear()
        assert [e.can_edit for e in _history(app, other)] == [True]
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


def _history(app, client):
    from companion.storage.models import DeviceGame

    device = client.get_cookie("companion_device").value
    with app.app_context():
        return db.session.scalars(db.select(DeviceGame).where(DeviceGame.device == device)).all()
