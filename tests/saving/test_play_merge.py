"""Two phones on one game: a save carries only the fields its phone changed, so nothing another
phone saved is ever undone; a conflict is a field both changed to different values. Both the
autosave (JSON `changes`) and the no-JS form (`base_values`) are tried."""

from __future__ import annotations

import json
import re
from html import unescape

from app_helpers import autosave, create_game, error_beside, posted, stored

NAMES = ["Éloïse", "Jules"]


def start(client, app) -> str:
    token = create_game(client, "rebirth", "scotland", NAMES)
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    page |= {"players-0-castles": "2", "players-1-ports": "1", "action": "save"}
    assert client.post(f"/g/{token}/", data=page).status_code == 302
    return token


def test_no_js_phone_b_changing_another_player_keeps_phone_a_save(client, app):
    token = start(client, app)
    phone_a = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    phone_b = posted(client.get(f"/g/{token}/").get_data(as_text=True))  # opened before A saves
    assert client.post(f"/g/{token}/", data=phone_a | {"players-0-castles": "3"}).status_code == 302
    response = client.post(f"/g/{token}/", data=phone_b | {"players-1-ports": "4"})
    assert response.status_code == 302  # no conflict: B changed nothing A changed
    players = stored(app, token).document["players"]
    assert players[0]["castles"] == 3 and players[1]["ports"] == 4


def test_no_js_same_field_conflict_then_apply_mine_writes_only_mine(client, app):
    token = start(client, app)
    phone_a = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    phone_b = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    a = phone_a | {"players-0-castles": "3", "players-1-ports": "2"}
    assert client.post(f"/g/{token}/", data=a).status_code == 302
    page = client.post(f"/g/{token}/", data=phone_b | {"players-1-ports": "5"})
    html = unescape(page.get_data(as_text=True))
    assert page.status_code == 409
    # Only the field both changed is marked, with the OTHER phone's value (2, not the old 1).
    assert re.findall(r'id="t-([^"]+)">Enregistré sur l\'autre appareil : <b>([^<]*)</b>', html) == [
        ("players-1-ports", "2")]
    # The page holds A's castles (taken in) and B's ports (kept to apply).
    again = posted(html)
    assert again["players-0-castles"] == "3" and again["players-1-ports"] == "5"
    assert client.post(f"/g/{token}/", data=again | {"action": "save"}).status_code == 302
    players = stored(app, token).document["players"]
    assert players[0]["castles"] == 3 and players[1]["ports"] == 5


def test_autosave_carries_only_its_changes(client, app):
    token = start(client, app)
    version = stored(app, token).version
    # A sets Éloïse's castles to 3; B, opened before, changes only Jules's ports.
    assert autosave(client, token, version, players__0__castles=("2", "3")).status_code == 200
    answer = autosave(client, token, version, players__1__ports=("1", "4"))
    assert answer.status_code == 200, answer.json
    assert answer.json["stored"]["players-0-castles"] == "3"  # B's page takes in A's save
    players = stored(app, token).document["players"]
    assert players[0]["castles"] == 3 and players[1]["ports"] == 4


def test_autosave_conflict_only_for_a_field_both_changed_and_apply_mine(client, app):
    token = start(client, app)
    version = stored(app, token).version
    assert autosave(client, token, version, players__0__castles=("2", "3"),
                    players__1__ports=("1", "2")).status_code == 200
    answer = autosave(client, token, version, players__1__ports=("1", "6"), players__0__track=("", "9"))
    assert answer.status_code == 409
    assert answer.json["theirs"] == {"players-1-ports": "2"}  # the other phone's value, nothing else
    # the notice names the field for a player (it may sit on a hidden step) with the other value
    assert answer.json["fields"] == [["players-1-ports", "Jules · Ports", "2"]]
    assert answer.json["message"].startswith("Un autre appareil a modifié les mêmes champs")
    assert "Rechargez" not in answer.json["message"] and "rechargez" not in answer.json["message"]
    players = stored(app, token).document["players"]
    assert players[1]["ports"] == 2 and "track" not in players[0]
    # "Appliquer mes saisies": the same changes, now based on what the other phone stored.
    answer = autosave(client, token, answer.json["version"], players__1__ports=("2", "6"),
                      players__0__track=("", "9"))
    assert answer.status_code == 200
    players = stored(app, token).document["players"]
    assert (players[0]["castles"], players[0]["track"], players[1]["ports"]) == (3, 9, 6)


def test_same_value_on_both_sides_is_no_conflict(client, app):
    """Two taps on "Voir les résultats", or a reload re-sending what was already saved."""
    token = start(client, app)
    phone = posted(client.get(f"/g/{token}/").get_data(as_text=True)) | {"players-0-track": "30",
                                                                         "action": "finish"}
    first = client.post(f"/g/{token}/", data=phone)
    second = client.post(f"/g/{token}/", data=phone)
    assert first.status_code == second.status_code == 302
    assert second.headers["Location"].endswith("/resultats")
    version = stored(app, token).version
    again = autosave(client, token, version - 1, players__0__track=("", "30"))
    assert again.status_code == 200 and stored(app, token).version == version


def test_a_bad_value_is_refused_beside_its_field_whatever_the_other_side_did(client, app):
    token = start(client, app)
    phone = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    page = client.post(f"/g/{token}/", data=phone | {"players-1-ports": "99"})
    assert page.status_code == 422
    assert error_beside(page.get_data(as_text=True), "players-1-ports").startswith("doit être entre 0 et")
    assert stored(app, token).document["players"][1]["ports"] == 1


# ------------------------------------------------------------------ one game per new-game form


def test_the_same_new_game_form_posted_twice_makes_one_game(client, app):
    """A double tap on "Commencer la saisie", or Back then submit: the form's one-time key sends
    the second post to the game the first one created."""
    from companion.extensions import db
    from companion.storage.models import GameRecord

    page = client.get("/nouvelle?game=rebirth&variant=scotland").get_data(as_text=True)
    data = posted_new(page) | {"players-0-name": "Éloïse", "players-1-name": "Jules"}
    first = client.post("/nouvelle", data=data)
    second = client.post("/nouvelle", data=data)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    with app.app_context():
        assert db.session.query(GameRecord).count() == 1
    # A fresh new-game page is a new game.
    page = client.get("/nouvelle?game=rebirth&variant=scotland").get_data(as_text=True)
    third = client.post("/nouvelle", data=posted_new(page) | {"players-0-name": "A", "players-1-name": "B"})
    assert third.headers["Location"] != first.headers["Location"]


def posted_new(html: str) -> dict[str, str]:
    """The hidden and chosen fields of the new-game form, as a browser posts them."""
    values = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and ('type="hidden"' in tag or "checked" in tag):
            values[name.group(1)] = unescape(value.group(1)) if value else ""
    return values


# ------------------------------------------------------------------ a draft breaking a rule


def test_a_draft_breaking_a_rule_never_breaks_a_page(client, app):
    """Stored as a draft with the Edinburgh holder and no castles: every page reading the game copes."""
    token = start(client, app)
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    assert client.post(f"/g/{token}/", data=page | {"edinburgh": "Jules", "players-1-castles": ""}
                       ).status_code == 302
    rec = stored(app, token)
    assert rec.status == "draft" and rec.document["edinburgh"] == "Jules"
    results = client.get(f"/g/{token}/resultats")
    assert results.status_code == 302 and results.headers["Location"] == f"/g/{token}/"
    edit = unescape(client.get(f"/g/{token}/").get_data(as_text=True))
    assert "Pas encore de résultats : complétez les champs signalés." in edit
    assert error_beside(edit, "players-1-castles").startswith("au moins 1")
    for url in (f"/g/{token}/sheet.pdf", f"/r/{rec.view_token}/sheet.pdf"):
        assert client.get(url).status_code == 302
    view = client.get(f"/r/{rec.view_token}/")
    assert view.status_code == 200 and "pas encore de résultats" in unescape(view.get_data(as_text=True))
    history = client.get("/parties")
    assert history.status_code == 200 and "Jules" in history.get_data(as_text=True)


def test_a_scored_game_broken_by_a_later_save_is_a_draft_again(client, app):
    token = start(client, app)
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    assert client.post(f"/g/{token}/", data=page | {"action": "finish"}).status_code == 302
    assert stored(app, token).status == "scored"
    answer = client.post(f"/g/{token}/save", data={"version": "0", "changes": json.dumps(
        {"stirling": ["", "Éloïse"], "players-0-castles": ["2", "0"]})}).get_json()
    assert answer["ok"] is True and answer["draft"] is True
    assert "stirling" in answer["errors"] and "players-0-castles" in answer["errors"]
    assert stored(app, token).status == "draft"


# ------------------------------------------------------------------ no-JS: Enter, where the page comes back


def test_no_js_enregistrer_comes_back_where_the_player_was(client, app):
    token = start(client, app)
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    response = client.post(f"/g/{token}/", data=page | {"players-1-ports": "2", "players-0-track": "9"})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/g/{token}/#f-players-1-ports"  # the last one changed
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    assert 'id="f-players-1-ports"' in html


def test_enregistrer_after_an_autosave_comes_back_at_the_field_it_saved(client, app):
    """With JS, a tap on "Enregistrer" right after typing sends the change through the autosave
    first; the submit that follows changes nothing, and names the fields just saved so the page
    comes back at them (QA: it came back at the first step)."""
    token = start(client, app)
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    for just_saved, anchor in (('["players-1-ports"]', "#f-players-1-ports"),
                               ('["players-0-track", "players-1-ports"]', "#f-players-1-ports"),
                               ('["nothing-here"]', "#actions"), ("not json", "#actions"),
                               (None, "#actions")):
        data = page | {"action": "save"} | ({"just_saved": just_saved} if just_saved else {})
        response = client.post(f"/g/{token}/", data=data)
        assert response.status_code == 302
        assert response.headers["Location"] == f"/g/{token}/{anchor}", just_saved


def test_no_js_enter_in_a_field_saves_rather_than_adding_a_row(client, app):
    """Enter in a field submits with the form's FIRST submit button: "Enregistrer", hidden, first."""
    token = start(client, app)
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    form = html[html.index('<form method="post"'):]
    first = re.search(r"<button[^>]*type=\"submit\"[^>]*>", form).group(0)
    assert 'name="action"' in first and 'value="save"' in first


def test_refused_save_lists_each_field_to_fix_at_the_top(client, app):
    token = start(client, app)
    page = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    response = client.post(f"/g/{token}/", data=page | {"players-1-ports": "99", "players-0-track": "abc"})
    assert response.status_code == 422
    html = unescape(response.get_data(as_text=True))
    summary = re.search(r'<nav class="error-summary".*?</nav>', html, re.S).group(0)
    items = [re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(r"<li>(.*?)</li>", summary, re.S)]
    assert items[0].startswith("Éloïse · ") and "doit être un nombre entier" in items[0]
    assert items[1].startswith("Jules · ") and "doit être entre 0 et" in items[1]
    assert re.findall(r'href="#(f-[^"]+)"', summary) == ["f-players-0-track", "f-players-1-ports"]


def race_two_phones(app, rounds: int = 15) -> None:
    """Two phones autosaving different players' fields at the same instants, `rounds` times each:
    every save lands (the merge is made again on a stale version), none is undone, no conflict."""
    import threading

    client = app.test_client()
    token = create_game(client, "rebirth", "scotland", NAMES)
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def phone(field: str) -> None:
        own = app.test_client()
        last = ""
        for k in range(1, rounds + 1):
            barrier.wait()
            answer = autosave(own, token, 0, **{field: (last, str(k))})
            statuses.append(answer.status_code)
            last = str(k)

    threads = [threading.Thread(target=phone, args=(f,)) for f in ("players__0__track", "players__1__ports")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200] * (2 * rounds)
    players = stored(app, token).document["players"]
    assert players[0]["track"] == rounds and players[1]["ports"] == rounds


def test_simultaneous_saves_of_different_fields_all_land(app):
    race_two_phones(app)


# ------------------------------------------------------------------ two phones adding a row


def test_two_phones_adding_a_city_keep_both(client, app):
    """A and B each add a city (the first free row, the same index on both): both are kept, no
    conflict, with the autosave and without JS."""
    token = create_game(client, "rebirth", "scotland", NAMES)
    page_a = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    page_b = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    city_a = {"cities-0-size": "2", "cities-0-tiles-0-player": "Éloïse", "cities-0-tiles-0-influence": "2"}
    assert client.post(f"/g/{token}/", data=page_a | city_a).status_code == 302
    city_b = {"cities-0-size": "1", "cities-0-tiles-0-player": "Jules", "cities-0-tiles-0-influence": "3"}
    response = client.post(f"/g/{token}/", data=page_b | city_b)
    assert response.status_code == 302, unescape(response.get_data(as_text=True))[:200]
    cities = stored(app, token).document["cities"]
    assert cities == [{"size": 2, "tiles": [{"player": "Éloïse", "influence": 2}]},
                      {"size": 1, "tiles": [{"player": "Jules", "influence": 3}]}]
    # The autosave: a third phone adds a tile to the first city while a fourth adds one too.
    version = stored(app, token).version
    tile = {"cities-0-tiles-1-player": ["", "Jules"], "cities-0-tiles-1-influence": ["", "1"]}
    first = client.post(f"/g/{token}/save", data={"version": str(version), "changes": json.dumps(tile),
                                                 "new_rows": json.dumps(["cities-0-tiles-1"])})
    assert first.status_code == 200 and first.json["moved"] == {}
    other = {"cities-0-tiles-1-player": ["", "Éloïse"], "cities-0-tiles-1-influence": ["", "4"]}
    second = client.post(f"/g/{token}/save", data={"version": str(version), "changes": json.dumps(other),
                                                  "new_rows": json.dumps(["cities-0-tiles-1"])})
    assert second.status_code == 200, second.json
    assert second.json["moved"] == {"cities-0-tiles-1": "cities-0-tiles-2"}
    tiles = stored(app, token).document["cities"][0]["tiles"]
    assert tiles == [{"player": "Éloïse", "influence": 2}, {"player": "Jules", "influence": 1},
                     {"player": "Éloïse", "influence": 4}]


def test_an_autosave_builds_no_form(client, app, monkeypatch):
    """A save is read by the game's field spec and checked by the engine (issue 29): no form at all,
    whatever it changes: a player's numbers, a row of numbers (a group of farms), a city with its
    tiles, a list of a game never saved yet."""
    from companion import forms

    token = start(client, app)
    built = []
    real = forms.GameForms.form
    monkeypatch.setattr(forms.GameForms, "form", lambda self, doc, formdata=None: built.append(
        formdata is not None) or real(self, doc, formdata))
    version = stored(app, token).version
    first = autosave(client, token, version, players__0__castles=("2", "3"))
    assert first.status_code == 200 and first.json["stored"]["players-0-castles"] == "3"
    built.clear()
    second = autosave(client, token, first.json["version"], players__0__castles=("3", "4"))
    assert second.status_code == 200 and second.json["stored"]["players-0-castles"] == "4"
    assert built == []  # read by the spec: no form, neither this phone's nor the new version's
    assert stored(app, token).document["players"][0]["castles"] == 4
    third = autosave(client, token, second.json["version"], ["players-0-farms-agricultural-0"],
                     players__0__farms__agricultural__0=("", "2"))
    assert third.status_code == 200 and third.json["stored"]["players-0-farms-agricultural-0"] == "2"
    assert built == []  # a row of numbers: no form either
    assert stored(app, token).document["players"][0]["farms"] == {"agricultural": [2]}
    city = autosave(client, token, third.json["version"], ["cities-0", "cities-0-tiles-0"],
                    cities__0__size=("", "3"), cities__0__tiles__0__player=("", "Jules"),
                    cities__0__tiles__0__influence=("", "2"))
    assert city.status_code == 200 and city.json["stored"]["cities-0-tiles-0-player"] == "Jules"
    assert built == []  # a city and its tiles: no form either
    assert stored(app, token).document["cities"] == [{"size": 3, "tiles": [{"player": "Jules",
                                                                            "influence": 2}]}]
    fourth = autosave(client, token, city.json["version"], players__1__ports=("1", "2"))
    assert fourth.status_code == 200 and fourth.json["stored"]["players-0-farms-agricultural-0"] == "2"
    assert built == []
    # a game never saved: its stored document is not yet as a save writes it; read alike
    fresh = create_game(client, "rebirth", "scotland", NAMES)
    client.get(f"/g/{fresh}/")
    built.clear()
    city = autosave(client, fresh, stored(app, fresh).version, ["cities-0"], cities__0__size=("", "3"))
    assert city.status_code == 200 and city.json["stored"]["cities-0-size"] == "3"
    assert built == []
    last = autosave(client, fresh, city.json["version"], players__1__ports=("", "2"))
    assert last.status_code == 200 and last.json["stored"]["cities-0-size"] == "3"
    assert built == []


def test_a_conflict_names_the_other_value_in_the_readers_language(client, app):
    """A box the other phone unticked, or a field it emptied, is said in the page's language."""
    token = start(client, app)
    version = stored(app, token).version
    assert autosave(client, token, version, players__1__ports=("1", "")).status_code == 200
    for lang, word in (("fr", "vide"), ("en", "empty")):
        client.get(f"/langue/{lang}")
        late = autosave(client, token, version, players__1__ports=("1", "3"))
        assert late.status_code == 409
        assert late.json["theirs"] == {"players-1-ports": word}


# ------------------------------------------------------------------ a page back to the front (catch-up)


def _same_as_a_save(state: dict, save: dict) -> None:
    """`state` says what a save that changed nothing says of the same stored version."""
    for key in ("version", "stored", "totals", "errors", "general", "warnings", "draft"):
        assert state[key] == save[key], key


def test_state_says_nothing_while_the_page_has_the_stored_version(client, app):
    token = start(client, app)
    rec = stored(app, token)
    response = client.get(f"/g/{token}/state?version={rec.version}")
    assert response.status_code == 204 and response.get_data() == b""
    assert "no-store" in response.headers["Cache-Control"]  # its URL holds the edit token
    assert client.post(f"/g/{token}/state").status_code == 405
    assert client.get("/g/not-a-game/state?version=1").status_code == 404


def test_state_brings_what_another_phone_saved(client, app):
    """Phone B opened the game at version v; phone A saves; B, back to the front, is given A's
    values and the new totals: the same answer as a save of B's that changed nothing."""
    token = start(client, app)
    seen = stored(app, token).version
    a = autosave(client, token, seen, players__0__castles=("2", "3"))
    assert a.status_code == 200
    state = client.get(f"/g/{token}/state?version={seen}")
    assert state.status_code == 200 and "no-store" in state.headers["Cache-Control"]
    assert state.json["stored"]["players-0-castles"] == "3" and state.json["version"] == seen + 1
    nothing = autosave(client, token, seen + 1)  # B saving nothing, at the version it now has
    assert nothing.status_code == 200
    _same_as_a_save(state.json, nothing.json)
    assert state.json["draft"] is False and len(state.json["totals"]) == 2
    assert stored(app, token).version == seen + 1  # neither wrote anything
    # A version the page cannot have had (or none) is answered in full, never refused.
    for query in ("", "?version=abc", f"?version={seen + 5}"):
        assert client.get(f"/g/{token}/state{query}").json["version"] == seen + 1


def test_state_of_a_draft_flags_the_rule_beside_its_fields(client, app):
    """The other phone stored a draft breaking a rule (Edinburgh's holder, no castles): the state
    flags it beside both fields, gives no totals, and never changes what is stored."""
    token = start(client, app)
    seen = stored(app, token).version
    draft = autosave(client, token, seen, edinburgh=("", "Jules"), players__1__castles=("", ""))
    assert draft.status_code == 200 and draft.json["draft"] is True
    before = stored(app, token)
    state = client.get(f"/g/{token}/state?version={seen}").json
    assert state["draft"] is True and state["totals"] == []
    assert state["errors"]["players-1-castles"][0].startswith("au moins 1")
    assert "edinburgh" in state["errors"]
    _same_as_a_save(state, autosave(client, token, before.version).json)
    after = stored(app, token)
    assert (after.version, after.document, after.status) == (before.version, before.document, "draft")
    client.get("/langue/en")
    english = client.get(f"/g/{token}/state?version={seen}").json
    assert english["errors"]["players-1-castles"][0].startswith("at least 1")
