"""Issue 32: undo and the game's log. Two phones (two clients, each its own device cookie) save one
game; "Annuler" undoes this phone's last change, several levels deep, a removed Rebirth city
included; an undo is a save like any other (a field the other phone changed since is a conflict,
nothing stored); the log page lists every change and undoes any of them without JavaScript; the
log goes into the export and comes back with a restore."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
import sqlalchemy as sa

from app_helpers import autosave, create_game, make_app, stored
from companion.extensions import db
from companion.outputs import exchange
from companion.storage import changelog
from companion.storage.models import GameChange

NAMES = ["Maëlle", "Yanis"]


def _undo(phone, token: str):
    """"Annuler" as static/js/play/autosave.js does it: ask for this phone's last change, then send its
    undo through the autosave (`undo` naming it). (the answer, the change's id)"""
    last = phone.get(f"/g/{token}/annuler", headers={"Accept": "application/json"}).json
    if not last["ok"]:
        return None, None
    version = stored(phone.application, token).version
    data = {"version": str(version), "undo": str(last["id"]),
            "changes": json.dumps(last["changes"])}
    return phone.post(f"/g/{token}/save", data=data), last["id"]


def _rows(app, token: str) -> list[GameChange]:
    with app.app_context():
        game_id = stored(app, token).id
        rows = list(db.session.scalars(sa.select(GameChange).where(GameChange.game_id == game_id)
                                       .order_by(GameChange.id)))
        db.session.expunge_all()
        return rows


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _buttons(html: str) -> list[str]:
    """The changes the log page offers to undo, newest first (each button's form names its change)."""
    return re.findall(r'<form method="post" action="/g/[^"]+/historique/annuler">\s*'
                      r'<input type="hidden" name="csrf_token" value="[^"]*">\s*'
                      r'<input type="hidden" name="change" value="(\d+)">', html)


def _flashes(html: str) -> list[str]:
    return [unescape(m).strip() for m in re.findall(r'<p class="flash[^"]*"[^>]*>(.*?)</p>', html, re.S)]


def test_undo_restores_the_value_several_levels_deep(app):
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    assert autosave(phone, token, 1, players__0__track=("", "12")).status_code == 200
    answer = autosave(phone, token, 2, players__0__track=("12", "20"), players__1__track=("", "5"))
    assert answer.status_code == 200
    assert autosave(phone, token, 3, players__0__artifacts__1=("", "2")).status_code == 200

    answer, _ = _undo(phone, token)  # the artifacts
    assert answer.status_code == 200, answer.json
    doc = stored(app, token).document
    assert doc["players"][0]["artifacts"][1] == 0 and doc["players"][0]["track"] == 20
    answer, _ = _undo(phone, token)  # both tracks, in one tap: they were one save
    assert answer.status_code == 200
    doc = stored(app, token).document
    assert doc["players"][0]["track"] == 12 and "track" not in doc["players"][1]
    answer, _ = _undo(phone, token)
    assert answer.status_code == 200
    assert "track" not in stored(app, token).document["players"][0]
    assert _undo(phone, token) == (None, None)  # nothing left: the undos are not undone by "Annuler"
    last = phone.get(f"/g/{token}/annuler").json
    assert last == {"ok": False, "message": last["message"]} and "Rien à annuler" in last["message"]

    rows = _rows(app, token)
    assert len(rows) == 6 and [r.undo_of for r in rows[3:]] == [rows[2].id, rows[1].id, rows[0].id]
    assert json.loads(rows[1].changes) == {"players-0-track": ["12", "20"], "players-1-track": ["", "5"]}
    assert json.loads(rows[4].changes) == {"players-0-track": ["20", "12"], "players-1-track": ["5", ""]}


def test_undo_never_erases_the_other_phones_later_value(app):
    a, b = app.test_client(), app.test_client()
    token = create_game(a, "revive", "base", NAMES)
    assert autosave(a, token, 1, players__0__track=("", "12")).status_code == 200
    assert autosave(b, token, 2, players__0__track=("12", "30")).status_code == 200

    answer, _ = _undo(a, token)  # A's 12 was changed to 30 by B since: a conflict, nothing stored
    assert answer.status_code == 409
    assert answer.json["conflict"] and answer.json["theirs"] == {"players-0-track": "30"}
    assert stored(app, token).document["players"][0]["track"] == 30 and stored(app, token).version == 3

    page = a.post(f"/g/{token}/annuler", follow_redirects=True)  # the same without JavaScript
    assert page.status_code == 200
    assert any("Rien n'a été annulé" in f and "30" in f for f in _flashes(page.get_data(as_text=True)))
    assert stored(app, token).document["players"][0]["track"] == 30 and stored(app, token).version == 3
    assert len(_rows(app, token)) == 2  # nothing logged: nothing stored


def test_annuler_undoes_this_phones_change_only(app):
    a, b = app.test_client(), app.test_client()
    token = create_game(a, "revive", "base", NAMES)
    assert autosave(a, token, 1, players__0__track=("", "12")).status_code == 200
    assert autosave(b, token, 2, players__1__track=("", "7")).status_code == 200
    answer, _ = _undo(a, token)
    assert answer.status_code == 200
    players = stored(app, token).document["players"]
    assert "track" not in players[0] and players[1]["track"] == 7  # B's later change stays
    assert _undo(a, token) == (None, None)  # B's change is not A's to undo with "Annuler"
    answer, _ = _undo(b, token)
    assert answer.status_code == 200 and "track" not in stored(app, token).document["players"][1]


CITY_PARIS = {"cities-0-size": "3", "cities-0-tiles-0-player": "Maëlle", "cities-0-tiles-0-influence": "2",
              "cities-0-tiles-1-player": "Yanis", "cities-0-tiles-1-influence": "3"}
CITY_LYON = {"cities-1-size": "2", "cities-1-tiles-0-player": "Yanis", "cities-1-tiles-0-influence": "4"}


def _changes(pairs: dict) -> dict:
    return {name.replace("-", "__"): pair for name, pair in pairs.items()}


def test_undo_of_a_removed_rebirth_city_restores_the_city_and_its_tiles(app):
    a, b = app.test_client(), app.test_client()
    token = create_game(a, "rebirth", "ireland", NAMES)
    both = {n: ("", v) for n, v in (CITY_PARIS | CITY_LYON).items()}
    answer = autosave(a, token, 1, rows=["cities-0", "cities-1"], **_changes(both))
    assert answer.status_code == 200, answer.json
    before = stored(app, token).document
    assert len(before["cities"]) == 2
    # A removes the first city, as autosave.js sends it: the second moves up into its row
    up = {n.replace("cities-1", "cities-0"): v for n, v in CITY_LYON.items()}
    removal = {n: (v, up.get(n, "")) for n, v in CITY_PARIS.items()}
    removal |= {n: (v, "") for n, v in CITY_LYON.items()}
    answer = autosave(a, token, 2, **_changes(removal))
    assert answer.status_code == 200, answer.json
    assert len(stored(app, token).document["cities"]) == 1
    assert autosave(b, token, 3, players__1__track=("", "9")).status_code == 200  # B, elsewhere

    answer, _ = _undo(a, token)  # the whole city in one tap
    assert answer.status_code == 200, answer.json
    after = stored(app, token).document
    assert after["cities"] == before["cities"]
    assert after["players"][1]["track"] == 9


def test_the_log_page_names_each_change_and_undoes_any_without_javascript(app):
    a, b = app.test_client(), app.test_client()
    token = create_game(a, "revive", "base", NAMES)
    assert autosave(a, token, 1, players__0__track=("", "12")).status_code == 200
    assert autosave(b, token, 2, players__1__track=("", "7")).status_code == 200
    html = a.get(f"/g/{token}/historique").get_data(as_text=True)
    text = _text(html)
    assert "ce téléphone" in text and "un autre téléphone" in text
    assert "Maëlle · " in text and "vide → 12" in text and "Yanis · " in text and "vide → 7" in text
    assert html.index("vide → <b>7</b>") < html.index("vide → <b>12</b>")  # newest first
    forms = _buttons(html)
    assert len(forms) == 2
    edit = a.get(f"/g/{token}/").get_data(as_text=True)
    assert f'href="/g/{token}/historique"' in edit and 'data-undo=' in edit

    # A undoes B's change from the log (post/redirect/get), then redoes it
    answer = a.post(f"/g/{token}/historique/annuler", data={"change": forms[0]})  # B's
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/g/{token}/historique")
    assert "track" not in stored(app, token).document["players"][1]
    html = a.get(f"/g/{token}/historique").get_data(as_text=True)
    assert "Modification annulée." in _flashes(html)
    assert "annulée" in _text(html) and "Rétablir" in html
    redo = _buttons(html)[0]  # the undo, newest
    assert a.post(f"/g/{token}/historique/annuler", data={"change": redo}).status_code == 303
    assert stored(app, token).document["players"][1]["track"] == 7
    assert a.post(f"/g/{token}/historique/annuler", data={"change": "999999"}).status_code == 404
    assert a.post(f"/g/{token}/historique/annuler", data={"change": "x"}).status_code == 400


def test_annuler_without_javascript_goes_back_level_by_level(app):
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    for version, (was, now) in enumerate([("", "10"), ("10", "11"), ("11", "12")], 1):
        assert autosave(phone, token, version, players__0__track=(was, now)).status_code == 200
    for expected in (11, 10, None):
        answer = phone.post(f"/g/{token}/annuler")
        assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/g/{token}/")
        assert stored(app, token).document["players"][0].get("track") == expected
    page = phone.post(f"/g/{token}/annuler", follow_redirects=True).get_data(as_text=True)
    assert any("Rien à annuler" in f for f in _flashes(page))


def test_the_log_keeps_the_last_changes_of_a_game(app, monkeypatch):
    monkeypatch.setattr(changelog, "KEPT", 3)
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    for version in range(1, 6):
        was = "" if version == 1 else str(version - 1)
        assert autosave(phone, token, version, players__0__track=(was, str(version))).status_code == 200
    rows = _rows(app, token)
    assert [json.loads(r.changes)["players-0-track"] for r in rows] == [["2", "3"], ["3", "4"], ["4", "5"]]


def test_a_change_made_before_the_seats_moved_cannot_be_undone(app):
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    assert autosave(phone, token, 1, players__0__track=("", "12")).status_code == 200
    with app.app_context():
        db.session.execute(sa.text("UPDATE games SET seats_version = 2"))  # the "Joueurs" page reordered
        db.session.commit()
    assert phone.get(f"/g/{token}/annuler").json["ok"] is False
    change = _rows(app, token)[0].id
    page = phone.post(f"/g/{token}/historique/annuler", data={"change": str(change)},
                      follow_redirects=True).get_data(as_text=True)
    assert any("ne peut plus être annulée" in f for f in _flashes(page))
    assert stored(app, token).document["players"][0]["track"] == 12


def test_the_log_goes_into_the_export_and_comes_back_with_a_restore(app, tmp_path):
    a, b = app.test_client(), app.test_client()
    token = create_game(a, "revive", "base", NAMES)
    assert autosave(a, token, 1, players__0__track=("", "12")).status_code == 200
    assert autosave(b, token, 2, players__1__track=("", "7")).status_code == 200
    answer, undone = _undo(a, token)
    assert answer.status_code == 200
    exported = a.get("/parties/export.json")
    assert exported.status_code == 200
    data = json.loads(exported.get_data(as_text=True))
    (game,) = data["games"]
    log = game["log"]
    assert [entry["changes"] for entry in log] == [
        {"players-0-track": ["", "12"]}, {"players-1-track": ["", "7"]}, {"players-0-track": ["12", ""]}]
    assert log[2]["undoes"] == 0 and "undoes" not in log[0]
    assert log[0]["phone"] == log[2]["phone"] != log[1]["phone"]
    device = a.get_cookie("companion_device").value
    assert device not in json.dumps(data)  # a hash of the phone, never its cookie

    other = make_app(tmp_path / "other")
    with other.test_request_context("/"):
        outcome = exchange.restore(exchange.parse(json.dumps(data)), None)
        (added,) = outcome.added
        restored = changelog.changes_of(added.id)
        assert [c.changes for c in reversed(restored)] == [entry["changes"] for entry in log]
        assert [c.undone for c in reversed(restored)] == [True, False, False]
        assert restored[0].undo_of == restored[2].id
    # the restored game's log is undoable there: B's 7 goes back to blank
    phone = other.test_client()
    html = phone.get(f"/g/{added.edit_token}/historique").get_data(as_text=True)
    actions = _buttons(html)
    assert len(actions) == 2  # B's change, and A's undo (to redo); A's first change is undone
    answer = phone.post(f"/g/{added.edit_token}/historique/annuler", data={"change": actions[1]})
    assert answer.status_code == 303
    assert "track" not in stored(other, added.edit_token).document["players"][1]

    # a file written before the log restores as it did; a broken log is refused with its path
    del game["log"]
    with other.test_request_context("/"):
        assert exchange.parse(json.dumps(data))[0].log is None
    game["id"] = "ab" * 16
    game["log"] = [{"at": "hier", "phone": "x", "changes": {"players-0-track": ["", 3]}, "undoes": 4}]
    with other.test_request_context("/"), pytest.raises(exchange.Refused) as refused:
        exchange.parse(json.dumps(data))
    paths = [p.path for p in refused.value.problems]
    assert paths == ["games[0].log[0].at", "games[0].log[0].changes", "games[0].log[0].undoes"]


def test_a_deleted_game_takes_its_log_with_it(app):
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    assert autosave(phone, token, 1, players__0__track=("", "12")).status_code == 200
    view = stored(app, token).view_token
    assert phone.post(f"/parties/{view}/supprimer").status_code in (302, 303)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(GameChange)) == 0


CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def test_the_undo_forms_carry_their_csrf_token(tmp_path):
    """With CSRF on (a real server): the edit page's ↶ form (its skeleton's token filled in per
    request) and the log page's buttons each post their token; a post without it changes nothing."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    phone = app.test_client()
    page = phone.get("/nouvelle?game=revive&variant=base").get_data(as_text=True)
    data = {"csrf_token": CSRF.search(page).group(1), "game": "revive", "variant": "base",
            "players-0-name": "Maëlle", "players-1-name": "Yanis"}
    data |= dict(re.findall(r'name="(once)"[^>]*value="([^"]+)"', page))
    created = phone.post("/nouvelle", data=data)
    token = re.fullmatch(r"/g/([\w-]+)/", created.headers["Location"]).group(1)
    edit = phone.get(f"/g/{token}/").get_data(as_text=True)
    csrf = CSRF.search(edit).group(1)
    save = {"csrf_token": csrf, "version": "1", "changes": json.dumps({"players-0-track": ["", "12"]})}
    assert phone.post(f"/g/{token}/save", data=save).status_code == 200
    edit = phone.get(f"/g/{token}/").get_data(as_text=True)  # the skeleton, filled for this request
    undo_form = re.search(r'<form class="undo-form" method="post" action="/g/[^"]+/annuler">(.*?)</form>',
                          edit, re.S).group(1)
    csrf = CSRF.search(undo_form).group(1)
    assert re.findall(r'name="csrf_token"[^>]*value="([^"]+)"', edit) == [csrf, csrf]  # the page's own
    assert phone.post(f"/g/{token}/annuler").status_code == 400  # no token: refused, nothing undone
    assert stored(app, token).document["players"][0]["track"] == 12
    assert phone.post(f"/g/{token}/annuler", data={"csrf_token": csrf}).status_code == 303
    assert "track" not in stored(app, token).document["players"][0]
    log = phone.get(f"/g/{token}/historique").get_data(as_text=True)
    (redo,) = re.findall(r'<form method="post" action="/g/[^"]+/historique/annuler">\s*'
                         r'<input type="hidden" name="csrf_token" value="([^"]+)">\s*'
                         r'<input type="hidden" name="change" value="(\d+)">', log)
    undo = {"csrf_token": redo[0], "change": redo[1]}
    assert phone.post(f"/g/{token}/historique/annuler", data=undo | {"csrf_token": ""}).status_code == 400
    assert phone.post(f"/g/{token}/historique/annuler", data=undo).status_code == 303
    assert stored(app, token).document["players"][0]["track"] == 12


def test_undo_of_a_removed_reterra_card_brings_back_the_card_and_its_counts(app):
    """Reterra's building cards: a card removed (the rows below moved up, each count with its card)
    comes back with every player's count of it."""
    from test_play_saving import _cards, _remove_puits

    phone = app.test_client()
    token = create_game(phone, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(phone, token)
    before = stored(app, token).document
    _remove_puits(phone, token, version)
    assert [card["name"] for card in stored(app, token).document["buildings"]] == ["Ferme", "Forge"]
    answer, _ = _undo(phone, token)
    assert answer.status_code == 200, answer.json
    after = stored(app, token).document
    assert after["buildings"] == before["buildings"] and after["players"] == before["players"]


def test_the_log_page_and_annuler_in_english(app):
    phone = app.test_client()
    token = create_game(phone, "revive", "base", NAMES)
    assert autosave(phone, token, 1, players__0__track=("", "12")).status_code == 200
    phone.get("/langue/en", query_string={"next": "/"})
    text = _text(phone.get(f"/g/{token}/historique").get_data(as_text=True))
    assert "History of changes" in text and "this phone" in text and "empty → 12" in text
    assert "Undo this change" in text
    edit = phone.get(f"/g/{token}/").get_data(as_text=True)
    assert 'aria-label="Undo my last change"' in edit
    page = phone.post(f"/g/{token}/annuler", follow_redirects=True).get_data(as_text=True)
    assert "Change undone." in _flashes(page)
    page = phone.post(f"/g/{token}/annuler", follow_redirects=True).get_data(as_text=True)
    assert any(f.startswith("Nothing to undo") for f in _flashes(page))


def test_the_log_page_names_a_card_removed_by_its_name_never_by_its_hidden_id(app):
    """QA: removing a Reterra building card logged its hidden id beside its name, and the log page
    showed it as a field of its own (« Carte 1 · Id : serre → marche »); the undo still lays it back."""
    phone = app.test_client()
    token = create_game(phone, "reterra", "base", NAMES)
    cards = {"buildings__0__id": ("", "serre"), "buildings__0__name": ("", "Serre"),
             "buildings__0__points": ("", "4"), "buildings__1__id": ("", "marche"),
             "buildings__1__name": ("", "Marché"), "buildings__1__points": ("", "2")}
    assert autosave(phone, token, 1, rows=["buildings-0", "buildings-1"], **cards).status_code == 200
    removed = {"buildings__0__id": ("serre", "marche"), "buildings__0__name": ("Serre", "Marché"),
               "buildings__0__points": ("4", "2"), "buildings__1__id": ("marche", ""),
               "buildings__1__name": ("Marché", ""), "buildings__1__points": ("2", "")}
    assert autosave(phone, token, 2, **removed).status_code == 200
    text = _text(phone.get(f"/g/{token}/historique").get_data(as_text=True))
    assert "Serre → Marché" in text and "Marché → vide" in text
    assert "serre → marche" not in text and "Id" not in text
    answer = phone.post(f"/g/{token}/annuler")  # the last change undone, its ids with it
    assert answer.status_code == 303
    assert [c["id"] for c in stored(app, token).document["buildings"]] == ["serre", "marche"]


def test_the_log_page_names_each_count_by_the_card_it_was_typed_for_after_a_card_is_removed(app):
    """QA: a card removed moves the cards below it up a row. The counts typed before were named by
    the card in their row now (« Maëlle · Forge : vide → 2 » for the 2 Puits); each change is named
    by the cards as they stood right after it, the removal itself by the cards it left."""
    from test_play_saving import _cards, _remove_puits

    phone = app.test_client()
    token = create_game(phone, "reterra", "base", ["Maëlle", "Yanis"])
    version = _cards(phone, token)  # Ferme, Puits, Forge; Maëlle 1, 2, 3
    answer = autosave(phone, token, version, players__1__built__1=("", "5"))  # Yanis: 5 Puits
    assert answer.status_code == 200, answer.json
    answer = autosave(phone, token, answer.json["version"], players__1__built__2=("", "6"))  # 6 Forge
    assert answer.status_code == 200, answer.json
    _remove_puits(phone, token, answer.json["version"])
    page = phone.get(f"/g/{token}/historique").get_data(as_text=True)
    entries = [_text(e) for e in re.split(r'<form method="post" action="/g/[^"]+/historique/annuler">', page)]
    removal, forge, puits, cards = entries[:4]
    assert "Yanis · Forge : vide → 6" in forge and "Puits" not in forge
    assert "Yanis · Puits : vide → 5" in puits and "Forge" not in puits
    assert "Maëlle · Ferme : vide → 1" in cards and "Maëlle · Puits : vide → 2" in cards
    assert "Maëlle · Forge : vide → 3" in cards
    assert "Carte 2 · Nom de la carte : Puits → Forge" in removal and "Yanis · Forge : 5 → 6" in removal
    # the stored game is what it was: the page only names the changes
    assert [card["name"] for card in stored(app, token).document["buildings"]] == ["Ferme", "Forge"]
