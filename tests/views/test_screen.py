"""Issue 31, "the table's screen": /r/<view_token>/ecran shows every player's running total and place,
the step each phone is on, a QR code to follow the game, the winner and the tie sentence once scored;
its poll answers 204 while nothing changed; it never carries the entry link (companion/views/screen.py,
companion/storage/phones.py)."""

from __future__ import annotations

import re
import time
from html import unescape

import pytest

from app_helpers import autosave, create_game, stored
from companion.storage import phones


def _game(client, app, names=("Inès", "Marc")):
    token = create_game(client, "revive", "base", list(names))
    return token, stored(app, token)


def _text(html: str) -> str:
    """The page's text as a reader sees it (tags out, spaces folded)."""
    html = re.sub(r"</?sup>", "", html)  # "1<sup>re</sup>" reads "1re"
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def _board(html: str) -> str:
    """The board's text: its rows in order, each "place name [step] total"."""
    rows = re.findall(r'<li class="screen-row[^"]*" data-seat="\d+">(.*?)</li>', html, re.S)
    return " | ".join(_text(row) for row in rows)


def _version(html: str) -> str:
    return re.search(r'data-version="([^"]+)"', html).group(1)


def _poll(client, view: str, version: str):
    return client.get(f"/r/{view}/ecran/etat?version={version}")


def _step(client, token: str, step: str, at: int):
    return client.post(f"/g/{token}/etape", data={"step": step, "at": str(at)})


def test_the_screen_shows_each_players_running_total_and_place(client, app):
    token, record = _game(client, app)
    assert autosave(client, token, record.version, players__1__track=("", "14")).status_code == 200
    page = client.get(f"/r/{record.view_token}/ecran")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Saisie en cours" in html
    assert _board(html) == "1re Marc 14 | 2e Inès 0"  # best first
    # the security headers of every page, and a read-only page revalidated each time
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["Cache-Control"] == "private, no-cache"
    # no request leaves the page: its scripts and stylesheets are the app's own
    assert not re.search(r'(?:src|href)="https?://', html)
    # without JavaScript it reloads itself
    assert '<noscript><meta http-equiv="refresh" content="15"></noscript>' in html


def test_the_poll_answers_nothing_while_nothing_changed_then_the_new_board(client, app):
    token, record = _game(client, app)
    view = record.view_token
    version = _version(client.get(f"/r/{view}/ecran").get_data(as_text=True))
    nothing = _poll(client, view, version)
    assert nothing.status_code == 204 and nothing.data == b""
    assert autosave(client, token, record.version, players__0__track=("", "9")).status_code == 200
    changed = _poll(client, view, version)
    assert changed.status_code == 200
    answer = changed.get_json()
    assert answer["version"] != version
    assert answer["status"] == "draft" and answer["winner"] is None
    assert [(p["name"], p["total"], p["place"]) for p in answer["players"]] == [("Inès", 9, 1),
                                                                                ("Marc", 0, 2)]
    assert _board(answer["html"]) == "1re Inès 9 | 2e Marc 0"
    # the screen now holds the new version: nothing again
    assert _poll(client, view, answer["version"]).status_code == 204
    # a version it never held (or none): the whole board
    assert _poll(client, view, "x").status_code == 200
    assert client.get(f"/r/{view}/ecran/etat").status_code == 200


def test_the_screen_says_the_step_each_phone_is_on(client, app):
    token, record = _game(client, app)
    view = record.view_token
    version = _version(client.get(f"/r/{view}/ecran").get_data(as_text=True))
    assert _step(client, token, "joueur-2", 1000).status_code == 204
    answer = _poll(client, view, version).get_json()
    assert [p["phones"] for p in answer["players"]] == [0, 1]
    assert "1 téléphone en saisie" in answer["html"]
    assert _board(answer["html"]) == "1re Inès 0 | 1re Marc en saisie 0"
    # a second phone on the table's step, then the first one moves on to Inès
    other = app.test_client()
    create_game(other, "revive", "base", ["X", "Y"])  # its own device cookie
    assert _step(other, token, "table", 1000).status_code == 204
    assert _step(client, token, "joueur-1", 2000).status_code == 204
    answer = _poll(client, view, answer["version"]).get_json()
    assert [p["phones"] for p in answer["players"]] == [1, 0] and answer["table_phones"] == 1
    assert "Toute la table : en saisie" in _text(answer["html"])
    assert "2 téléphones en saisie" in answer["html"]
    # the first page's "left", arriving after the next page's step, changes nothing
    assert _step(client, token, "", 1500).status_code == 204
    assert _poll(client, view, answer["version"]).status_code == 204
    # leaving for good
    assert _step(client, token, "", 3000).status_code == 204
    answer = _poll(client, view, answer["version"]).get_json()
    assert [p["phones"] for p in answer["players"]] == [0, 0] and answer["table_phones"] == 1


def test_once_scored_the_winner_and_the_tie_sentence(client, app):
    token = create_game(client, "revive", "base", ["Ana", "Bea", "Cy"])
    view = stored(app, token).view_token
    version = _version(client.get(f"/r/{view}/ecran").get_data(as_text=True))
    finished = client.post(f"/g/{token}/", data={"action": "finish", "version": "1", "card_mode": "each",
                                                 "players-0-track": "12", "players-1-track": "12",
                                                 "players-2-track": "3"})
    assert finished.status_code == 302
    answer = _poll(client, view, version).get_json()
    assert answer["status"] == "scored"
    assert answer["winner"] == "Victoire partagée : Ana et Bea"
    assert answer["ties"] and answer["ties"][0].startswith("Ana et Bea à égalité (12 points)")
    html = client.get(f"/r/{view}/ecran").get_data(as_text=True)
    assert '<h1 class="screen-title winner" data-headline>Victoire partagée : Ana et Bea</h1>' in html
    assert "Ana et Bea à égalité (12 points)" in html
    assert _board(html) == "1re Ana 12 | 1re Bea 12 | 3e Cy 3"


def test_a_read_only_screen_never_carries_the_entry_link(client, app):
    token, record = _game(client, app)
    view = record.view_token
    assert _step(client, token, "joueur-1", 1).status_code == 204
    assert autosave(client, token, record.version, players__0__track=("", "9")).status_code == 200
    html = client.get(f"/r/{view}/ecran").get_data(as_text=True)
    poll = _poll(client, view, "x").get_data(as_text=True)
    for text in (html, poll):
        assert token not in text
        assert "/g/" not in text
    # its QR code opens this very screen, read-only
    assert f"<title>Code QR de http://localhost/r/{view}/ecran</title>" in html
    assert f'<span class="qr-link">http://localhost/r/{view}/ecran</span>' in html


def test_the_edit_and_results_pages_link_to_the_screen(client, app):
    token = create_game(client, "revive", "base", ["Ana", "Bea"])
    view = stored(app, token).view_token
    edit = client.get(f"/g/{token}/").get_data(as_text=True)
    assert f'<a href="/r/{view}/ecran" target="_blank">Écran de la table</a>' in edit
    assert f'data-where="/g/{token}/etape"' in edit
    client.post(f"/g/{token}/", data={"action": "finish", "version": "1", "card_mode": "each",
                                      "players-0-track": "12", "players-1-track": "9"})
    results = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    assert f'href="/r/{view}/ecran">Écran de la table</a>' in results


def test_unknown_links_are_404_and_bad_steps_400(client, app):
    token, record = _game(client, app)
    assert client.get("/r/nope/ecran").status_code == 404
    assert client.get("/r/nope/ecran/etat?version=1.0").status_code == 404
    assert client.get(f"/r/{token}/ecran").status_code == 404  # the entry link is not a read-only one
    assert _step(client, "nope", "table", 1).status_code == 404
    assert _step(client, record.view_token, "table", 1).status_code == 404  # nor the other way round
    for step, at in (("joueur-0", "1"), ("joueur-100", "1"), ("../x", "1"), ("table", ""), ("table", "-1"),
                     ("table", "1" * 17), ("TABLE", "1")):
        assert client.post(f"/g/{token}/etape", data={"step": step, "at": at}).status_code == 400, step
    assert client.get(f"/g/{token}/etape").status_code == 405


def test_in_english(client, app):
    token, record = _game(client, app)
    _step(client, token, "joueur-1", 1)
    html = client.get(f"/r/{record.view_token}/ecran?lang=en").get_data(as_text=True)
    assert "Revive · table screen" in html and "Entry in progress" in html
    assert "1 phone entering scores" in html
    assert "Follow the game on your phone" in html and "entering" in _board(html)


def test_a_deleted_game_takes_its_phones_steps_with_it(client, app):
    token, record = _game(client, app)
    assert _step(client, token, "joueur-1", 1).status_code == 204
    folder = phones.folder(phones.root(app.instance_path), record.uid)
    assert [p.name for p in folder.iterdir()]
    deleted = client.post(f"/parties/{record.view_token}/supprimer")
    assert deleted.status_code == 302
    assert not folder.exists()
    assert client.get(f"/r/{record.view_token}/ecran").status_code == 404


# ------------------------------------------------------------------ companion/storage/phones.py


def test_a_phone_not_heard_of_is_forgotten(tmp_path):
    phones.tell(tmp_path, "a7", "device-one-xxxxxxxxxxxx", "joueur-1", 10)
    phones.tell(tmp_path, "a7", "device-two-xxxxxxxxxxxx", "table", 10)
    assert phones.steps(tmp_path, "a7") == {"joueur-1": 1, "table": 1}
    later = time.time() + phones.FORGET + 1
    assert phones.steps(tmp_path, "a7", now=later) == {}
    assert not [p for p in (tmp_path / "a7").iterdir() if not p.name.startswith(".")]  # files removed
    assert phones.steps(tmp_path, "b8") == {}  # a game no phone spoke of


def test_a_game_keeps_at_most_so_many_phones(tmp_path):
    for k in range(phones.MAX_PHONES + 5):
        phones.tell(tmp_path, "c1", f"device-{k:04d}-xxxxxxxxxxxx", "table", 1)
    assert phones.steps(tmp_path, "c1") == {"table": phones.MAX_PHONES}
    # one already kept still moves
    phones.tell(tmp_path, "c1", "device-0000-xxxxxxxxxxxx", "joueur-2", 2)
    assert phones.steps(tmp_path, "c1") == {"table": phones.MAX_PHONES - 1, "joueur-2": 1}


@pytest.mark.parametrize("found, other", [({"table": 1}, {"table": 2}), ({"table": 1}, {"joueur-1": 1}),
                                          ({}, {"table": 1})])
def test_the_stamp_changes_with_the_steps(found, other):
    from collections import Counter

    assert phones.stamp(Counter(found)) != phones.stamp(Counter(other))
    assert phones.stamp(Counter(found)) == phones.stamp(Counter(dict(reversed(list(found.items())))))
