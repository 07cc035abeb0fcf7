"""Issue 21: a save compares what is stored as the stored document means it (a field nobody typed
and a 0 the server filled in are one value), a player's building counts follow their card by id,
and every error of /save and /state is JSON the phone can show as it is."""

from __future__ import annotations

import html
import json

import pytest

from app_helpers import autosave, create_game, posted, stored

VARIANTS = [("rebirth", "scotland"), ("rebirth", "ireland"), ("reterra", "base"), ("revive", "base"),
            ("revive", "abyss")]
NAMES = ["Ugo", "Wes"]
# what phone B types for Wes in the story, per game: the score track and one field of a list
B_TYPES = {"rebirth": {"players-1-track": "12", "players-1-ports": "1"},
           "reterra": {"players-1-segments": "2", "players-1-relics": "1"},
           "revive": {"players-1-track": "40", "players-1-artifacts-1": "1"}}
A_TYPES = {"rebirth": "players-0-track", "reterra": "players-0-segments", "revive": "players-0-track"}


def _fresh(client, token: str) -> tuple[int, dict[str, str]]:
    """A phone opening the entry link: the version and the base values its page was rendered with."""
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    return int(page["version"]), json.loads(page["base_values"])


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_second_phone_opened_before_the_first_save_is_no_conflict(client, app, game, variant):
    """The issue's story: B opens the link before anything is saved; A saves Ugo's track; B types Wes's
    fields. Nothing of B's is held back, and A's results are B's values."""
    token = create_game(client, game, variant, NAMES)
    version, base_b = _fresh(client, token)
    a_field = A_TYPES[game]
    assert autosave(client, token, version, **{a_field.replace("-", "__"): ("", "3")}).status_code == 200
    changes = {name: (base_b.get(name, ""), value) for name, value in B_TYPES[game].items()}
    answer = autosave(client, token, version, **{n.replace("-", "__"): pair for n, pair in changes.items()})
    assert answer.status_code == 200, answer.json
    assert not answer.json.get("conflict")
    for name, value in B_TYPES[game].items():
        assert answer.json["stored"][name] == value
    assert answer.json["stored"][a_field] == "3"


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_no_field_nobody_typed_is_a_conflict_after_a_save(client, app, game, variant):
    """Every number field of Wes's that nobody typed, changed from the page opened before any save,
    is taken without a conflict (a value the field refuses is refused, never called a conflict)."""
    token = create_game(client, game, variant, NAMES)
    version, base_b = _fresh(client, token)
    fields = [n for n in posted(client.get(f"/g/{token}/").get_data(as_text=True))
              if n.startswith("players-1-")]
    a_field = A_TYPES[game]
    assert autosave(client, token, version, **{a_field.replace("-", "__"): ("", "3")}).status_code == 200
    tried = 0
    for name in fields:
        if base_b.get(name, ""):
            continue  # a choice already made on the page (a mode): not a number typed
        answer = autosave(client, token, version, **{name.replace("-", "__"): ("", "1")})
        assert answer.status_code != 409, (name, answer.json.get("theirs"))
        tried += 1
    assert tried >= 5


def test_no_js_second_phone_opened_before_the_first_save_is_no_conflict(client, app):
    """The same through the form posted without JavaScript (Revive: the artifact counts)."""
    token = create_game(client, "revive", "base", NAMES)
    page_b = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    version, _ = _fresh(client, token)
    assert autosave(client, token, version, players__0__track=("", "30")).status_code == 200
    response = client.post(f"/g/{token}/", data=page_b | {"players-1-track": "40",
                                                          "players-1-artifacts-1": "1", "action": "save"})
    assert response.status_code == 302
    wes = stored(app, token).document["players"][1]
    assert wes["track"] == 40 and wes["artifacts"] == [0, 1, 0]


# ------------------------------------------------------------------ Reterra: counts follow their card


def _cards(client, token: str) -> int:
    """Three cards in play, Maëlle has 1 Ferme, 2 Puits, 3 Forge, Yanis nothing: the version."""
    answer = autosave(client, token, 1, ["buildings-0", "buildings-1", "buildings-2"],
                      buildings__0__name=("", "Ferme"), buildings__0__points=("", "3"),
                      buildings__1__name=("", "Puits"), buildings__1__points=("", "2"),
                      buildings__2__name=("", "Forge"), buildings__2__points=("", "4"),
                      players__0__built__0=("", "1"), players__0__built__1=("", "2"),
                      players__0__built__2=("", "3"))
    assert answer.status_code == 200, answer.json
    return answer.json["version"]


def _remove_puits(client, token: str, version: int) -> None:
    """Phone A removes the Puits card (row 2 of 3): the rows after it move up, as autosave.js sends it."""
    answer = autosave(client, token, version,
                      buildings__1__id=("puits", "forge"), buildings__1__name=("Puits", "Forge"),
                      buildings__1__points=("2", "4"), buildings__2__id=("forge", ""),
                      buildings__2__name=("Forge", ""), buildings__2__points=("4", ""),
                      players__0__built__1=("2", "3"), players__0__built__2=("3", ""))
    assert answer.status_code == 200, answer.json


def keyed(client, token: str, version: int, keys: dict[str, str], **changes):
    """An autosave whose building counts say the card they were typed for (`row_keys`)."""
    data = {"version": str(version), "row_keys": json.dumps(keys), "changes": json.dumps(
        {name.replace("__", "-"): list(pair) for name, pair in changes.items()})}
    return client.post(f"/g/{token}/save", data=data)


def test_a_count_typed_for_a_card_that_moved_up_goes_to_that_card(client, app):
    """B has not caught up with A removing the Puits: B's Forge is still its third row. Yanis's 2 Forge
    go to the Forge (now the second row), not to nowhere (a third row that no longer exists)."""
    token = create_game(client, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(client, token)
    _remove_puits(client, token, version)
    answer = keyed(client, token, version, {"players-1-built-2": "Forge"}, players__1__built__2=("", "2"))
    assert answer.status_code == 200, answer.json
    doc = stored(app, token).document
    assert [c["id"] for c in doc["buildings"]] == ["ferme", "forge"]
    assert doc["players"][1]["buildings"] == {"forge": 2}
    assert doc["players"][0]["buildings"] == {"ferme": 1, "forge": 3}
    assert answer.json["stored"]["players-1-built-1"] == "2"
    assert answer.json["moved"] == {"players-1-built-2": "players-1-built-1"}


def test_a_count_typed_for_a_card_the_other_phone_removed_is_said_and_not_written(client, app):
    """B types Yanis's Puits, which A removed meanwhile, and Yanis's segments: the segments are saved;
    the count is not written onto the Forge that took the Puits's row, and the phone says why (never
    dropped without a word); its field goes back to what is stored."""
    token = create_game(client, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(client, token)
    _remove_puits(client, token, version)
    answer = keyed(client, token, version, {"players-1-built-1": "Puits"}, players__1__built__1=("", "1"),
                   players__1__segments=("", "2"))
    assert answer.status_code == 200, answer.json
    assert answer.json["general"] == ["Yanis : la carte « Puits » a été retirée sur un autre appareil ; le "
                                      "nombre saisi pour elle (1) n'est pas enregistré."]
    assert answer.json["moved"] == {"players-1-built-1": ""}
    yanis = stored(app, token).document["players"][1]
    assert yanis["segments"] == 2 and "buildings" not in yanis


def test_no_js_counts_follow_the_card_they_were_typed_beside(client, app):
    """The form posted without JavaScript, from a page rendered before A removed the Puits: Yanis's
    Forge count (third row on that page) goes to the Forge."""
    token = create_game(client, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(client, token)
    page_b = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    _remove_puits(client, token, version)
    response = client.post(f"/g/{token}/", data=page_b | {"players-1-built-2": "2", "action": "save"})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    doc = stored(app, token).document
    assert doc["players"][1]["buildings"] == {"forge": 2}
    assert [c["id"] for c in doc["buildings"]] == ["ferme", "forge"]


def test_a_card_removed_takes_its_counts_and_the_others_keep_theirs(client, app):
    """A removes the Puits as autosave.js now sends it: only the card rows move (board.js leaves out the
    counts, unchanged card by card); each player's counts stay with their cards on the server."""
    token = create_game(client, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(client, token)
    answer = keyed(client, token, version, {},
                   buildings__1__id=("puits", "forge"), buildings__1__name=("Puits", "Forge"),
                   buildings__1__points=("2", "4"), buildings__2__id=("forge", ""),
                   buildings__2__name=("Forge", ""), buildings__2__points=("4", ""))
    assert answer.status_code == 200, answer.json
    doc = stored(app, token).document
    assert doc["players"][0]["buildings"] == {"ferme": 1, "forge": 3}
    assert answer.json["stored"]["players-0-built-1"] == "3"


# ------------------------------------------------------------------ /save and /state errors: JSON


KEPT = "Vos saisies sont gardées sur ce téléphone."


def _error(response, status: int) -> str:
    """An error of /save or /state as the phone reads it: JSON, its status, a message."""
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.is_json, response.content_type
    assert response.json["ok"] is False
    return response.json["message"]


def _revive(client) -> tuple[str, int]:
    token = create_game(client, "revive", "base", NAMES)
    return token, _fresh(client, token)[0]


def test_an_expired_page_is_said_as_such(tmp_path, monkeypatch):
    """With CSRF on (as served), a save without a valid token: the page has expired, reload it."""
    from app_helpers import make_app

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = create_game_with_csrf(client)
    data = {"version": "1", "csrf_token": "stale", "changes": '{"players-0-track": ["", "3"]}'}
    message = _error(client.post(f"/g/{token}/save", data=data), 400)
    assert message.startswith("La page a expiré : rechargez-la") and message.endswith(KEPT)
    assert "track" not in stored(app, token).document["players"][0]


def create_game_with_csrf(client) -> str:
    import re

    page = client.get("/nouvelle?game=revive&variant=base").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="csrf_token" value="([^"]+)"', page)
    once = re.search(r'name="once" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="once" value="([^"]+)"', page)
    data = {"game": "revive", "variant": "base", "players-0-name": "Ugo", "players-1-name": "Wes",
            "csrf_token": csrf.group(1), "once": once.group(1) if once else ""}
    response = client.post("/nouvelle", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:300]
    return response.headers["Location"].split("/")[2]


def test_a_deleted_game_is_said_on_save_and_on_state(client, app):
    token, version = _revive(client)
    from companion.extensions import db
    from companion.storage.models import GameRecord

    with app.app_context():
        db.session.execute(db.delete(GameRecord).where(GameRecord.edit_token == token))
        db.session.commit()
    message = _error(autosave(client, token, version, players__0__track=("", "3")), 404)
    assert message.startswith("Cette partie n'existe plus") and message.endswith(KEPT)
    assert _error(client.get(f"/g/{token}/state?version=1"), 404) == message


def test_a_body_too_large_is_said(client, app):
    token, version = _revive(client)
    big = json.dumps({"players-0-track": ["", "3" * (app.config["MAX_CONTENT_LENGTH"] + 10)]})
    message = _error(client.post(f"/g/{token}/save", data={"version": str(version), "changes": big}), 413)
    assert message.startswith("Trop de données d'un coup") and message.endswith(KEPT)


def test_a_body_too_slow_is_said(client, app):
    token, version = _revive(client)
    response = client.post(f"/g/{token}/save", data={"version": str(version), "changes": "{}"},
                           environ_overrides={"companion.body_too_slow": True})
    assert _error(response, 408).startswith("Le réseau est trop lent")


def test_a_malformed_save_is_said(client, app):
    token, version = _revive(client)
    message = _error(client.post(f"/g/{token}/save", data={"version": str(version), "changes": "[1"}), 400)
    assert message.startswith("La demande n'a pas été comprise") and message.endswith(KEPT)
    assert _error(client.get(f"/g/{token}/save"), 405).endswith(KEPT)


def test_a_server_too_busy_to_save_is_said(client, app, monkeypatch):
    """Another save got in first every time (the retries spent): 503, try again."""
    from companion.storage import store

    token, version = _revive(client)

    def always_stale(record, document, version, *, status=None, result=None):
        raise store.StaleVersion(record)

    monkeypatch.setattr(store, "save", always_stale)
    message = _error(autosave(client, token, version, players__0__track=("", "3")), 503)
    assert message.startswith("Le serveur est très occupé") and message.endswith(KEPT)


def _disk_full_errors():
    import sqlite3

    import sqlalchemy.exc

    class DiskFull(Exception):  # psycopg.errors.DiskFull as SQLAlchemy wraps it (SQLSTATE 53100)
        sqlstate = "53100"

    sqlite_full = sqlite3.OperationalError("database or disk is full")
    return [sqlalchemy.exc.OperationalError("UPDATE games", {}, sqlite_full),
            OSError(28, "No space left on device"),
            sqlalchemy.exc.OperationalError("UPDATE games", {}, DiskFull("could not extend file"))]


@pytest.mark.parametrize("error", _disk_full_errors(), ids=["sqlite", "enospc", "postgresql"])
def test_no_space_left_is_said_and_nothing_else_breaks(client, app, monkeypatch, error):
    from companion.storage import store

    token, version = _revive(client)

    def full(*args, **kwargs):
        raise error

    monkeypatch.setattr(store, "save", full)
    message = _error(autosave(client, token, version, players__0__track=("", "3")), 507)
    assert message == "Le serveur n'a plus de place : votre saisie est gardée sur ce téléphone."
    monkeypatch.undo()
    assert autosave(client, token, version, players__0__track=("", "3")).status_code == 200


@pytest.mark.parametrize("error", _disk_full_errors(), ids=["sqlite", "enospc", "postgresql"])
def test_no_space_left_on_a_form_post_or_a_new_game_says_so(client, app, monkeypatch, error):
    """The no-JS save and a new game write too: a full disk is said as such (507), not an internal
    error, and the page tells the player the entry is still in the page they came from."""
    from companion.storage import store

    token, version = _revive(client)

    def full(*args, **kwargs):
        raise error

    monkeypatch.setattr(store, "save", full)
    monkeypatch.setattr(store, "create", full)
    page = client.post(f"/g/{token}/", data={"version": str(version), "card_mode": "each",
                                            "players-0-track": "3"})
    assert page.status_code == 507
    assert "Le serveur n'a plus de place" in html.unescape(page.get_data(as_text=True))
    new = client.post("/nouvelle", data={"game": "revive", "variant": "base", "players-0-name": "Ana"})
    assert new.status_code == 507 and "Erreur interne" not in new.get_data(as_text=True)
    api = client.post("/api/v1/score", json={"game": "nope"})
    assert api.status_code == 422  # reading routes are untouched
    monkeypatch.undo()
    assert stored(app, token).version == version


def test_an_unexpected_error_is_json_too(client, app, monkeypatch):
    from companion.storage import store

    token, version = _revive(client)
    monkeypatch.setattr(store, "save", lambda *a, **k: 1 / 0)
    assert _error(autosave(client, token, version, players__0__track=("", "3")), 500).endswith(KEPT)


def test_the_pages_still_answer_errors_in_the_apps_look(client, app):
    """Only the two JSON endpoints changed: the edit page of a game that does not exist is a page."""
    response = client.get("/g/nothing-here/")
    assert response.status_code == 404 and response.mimetype == "text/html"


def test_the_errors_are_in_the_readers_language(client, app):
    response = client.get("/g/no-such-game/state?version=1&lang=en")
    assert _error(response, 404) == ("This game no longer exists (deleted from another device?): nothing was "
                                     "saved. Your entries are kept on this phone.")


def _save(client, token: str, version: int, changes: dict, delta: bool = True):
    """An autosave as the page sends it, saying it takes `changed` for `stored` (`delta`)."""
    data = {"version": str(version), "changes": json.dumps({n: list(p) for n, p in changes.items()}),
            "new_rows": "[]"}
    if delta:
        data["delta"] = "1"
    answer = client.post(f"/g/{token}/save", data=data)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.json


def _every(client, token: str) -> dict[str, str]:
    """Every non-blank stored value, as a page catching up is given them."""
    return client.get(f"/g/{token}/state?version=0").json["stored"]


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_a_page_holding_the_version_gets_only_what_changed(client, app, game, variant):
    """The page's autosave asks for `changed`: laid on the version the page holds, the answer is only
    the stored values that changed since (a few hundred bytes instead of every value, on a bad
    signal), and laid over what the page held they are every stored value. A page behind (another
    phone saved meanwhile) is given every value, as before."""
    token = create_game(client, game, variant, NAMES)
    version, base = _fresh(client, token)
    held = {n: v for n, v in base.items() if v}
    field, other = A_TYPES[game], next(iter(B_TYPES[game]))

    def take(answer: dict) -> int:
        assert "stored" not in answer
        for name, value in answer["changed"].items():
            if value:
                held[name] = value
            else:
                held.pop(name, None)
        assert held == _every(client, token)
        return answer["version"]

    first = _save(client, token, version, {field: ("", " 3 ")})  # the game's first save
    assert first["changed"][field] == "3"  # as the server reads it
    version = take(first)
    second = _save(client, token, version, {field: ("3", "4")})
    assert second["changed"] == {field: "4"}
    version = take(second)
    blanked = _save(client, token, version, {field: ("4", "")})
    assert blanked["changed"] == {field: ""}
    version = take(blanked)
    unchanged = _save(client, token, version, {field: ("", "")})
    assert unchanged["changed"] == {} and unchanged["version"] == version
    # another phone saves meanwhile: this page is behind, and is given every value
    assert autosave(client, token, version, **{other.replace("-", "__"): ("", "1")}).status_code == 200
    behind = _save(client, token, version, {field: ("", "5")})
    assert "changed" not in behind
    assert behind["stored"] == _every(client, token)
    assert behind["stored"][field] == "5" and behind["stored"][other] == "1"
    # a client that does not ask (an older page) is given every value
    assert "changed" not in _save(client, token, behind["version"], {field: ("5", "6")}, delta=False)
