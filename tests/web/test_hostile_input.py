"""Crafted input never gets a 500 (issue 22): each class the attack found is a 400/422 (or, for the
language switch's way back, home) with a clear message, and a seeded fuzz over every route of the
app's URL map sends hostile keys, depths, indexes and headers and finds no 5xx and no stored change."""

from __future__ import annotations

import json
import random
import re
from html import unescape

import pytest

from app_helpers import create_game
from companion.extensions import db
from companion.storage.models import GameRecord

DEEP = "[" * 50_000 + "]" * 50_000
DEEP_OBJECT = '{"a":' * 20_000 + "1" + "}" * 20_000  # 20,000 deep: posted urlencoded, under the size limit


def text_of(response) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def snapshot(app) -> list[tuple]:
    """Every stored game as it is (the statistics' `summary` cache aside: a visit may write it)."""
    with app.app_context():
        rows = db.session.execute(db.select(
            GameRecord.id, GameRecord.uid, GameRecord.edit_token, GameRecord.view_token, GameRecord.game,
            GameRecord.variant, GameRecord.document, GameRecord.version, GameRecord.status,
            GameRecord.colours, GameRecord.labels, GameRecord.updated_at).order_by(GameRecord.id)).all()
    return [tuple(json.dumps(v, sort_keys=True, default=str) for v in row) for row in rows]


@pytest.fixture
def games_(client):
    """A game of each kind, with something entered in Revive's great locations (a Rows list)."""
    tokens = {
        "rebirth": create_game(client, "rebirth", "scotland", ["Maëlle", "Yanis"]),
        "reterra": create_game(client, "reterra", "base", ["Maëlle", "Yanis"]),
        "revive": create_game(client, "revive", "base", ["Maëlle", "Yanis"]),
    }
    res = client.post(f"/g/{tokens['revive']}/save", data={"version": "1", "changes": json.dumps(
        {"players-0-great_locations-0": ["", "3"]})})
    assert res.status_code == 200, res.get_data(as_text=True)
    return tokens


# ------------------------------------------------------------------ each class, with its message


@pytest.mark.parametrize("field", ["changes", "new_rows"])
@pytest.mark.parametrize("deep", [DEEP, DEEP_OBJECT])
def test_autosave_json_nested_50000_deep_is_a_400_that_stores_nothing(app, client, games_, field, deep):
    before = snapshot(app)
    data = {"version": "2", "changes": "{}", field: deep}
    res = client.post(f"/g/{games_['revive']}/save", data=data)
    assert res.status_code == 400
    assert res.is_json and res.json["ok"] is False  # the phone shows the message as it is
    assert "imbriqué trop profondément" in res.json["message"]
    assert "imbriqué trop profondément" in text_of(res)
    assert "Rien n'a été enregistré" in text_of(res)
    assert snapshot(app) == before


def test_no_js_form_with_base_values_nested_deep_is_a_400(app, client, games_):
    before = snapshot(app)
    res = client.post(f"/g/{games_['revive']}/", data={"version": "2", "base_values": DEEP,
                                                       "players-0-great_locations-0": "5"})
    assert res.status_code == 400
    assert "« base_values » est illisible" in text_of(res)
    assert snapshot(app) == before


@pytest.mark.parametrize("index", ["²", "٣", "1" * 5000, "0" * 4])
def test_a_row_index_no_list_can_have_is_a_400_naming_the_field(app, client, games_, index):
    """Autosave key, no-JS form key, a row added: each refused with the field's name."""
    token = games_["revive"]
    name = f"players-0-great_locations-{index}"
    before = snapshot(app)
    for res in (
        client.post(f"/g/{token}/save", data={"version": "2", "changes": json.dumps({name: ["", "4"]})}),
        client.post(f"/g/{token}/save", data={"version": "2", "changes": "{}",
                                              "new_rows": json.dumps([name])}),
        client.post(f"/g/{token}/", data={"version": "2", "base_values": "{}", name: "4"}),
        client.post(f"/g/{token}/", data={"version": "2", "base_values": json.dumps({name: "4"})}),
    ):
        assert res.status_code == 400
        page = text_of(res)
        assert "Le formulaire contient un champ inconnu : « players-0-great_locations-" in page
        assert "Rien n'a été enregistré" in page
    assert snapshot(app) == before


@pytest.mark.parametrize("key", ["colour_names-²", "colour_names-" + "9" * 5000, "players-²-name"])
def test_new_game_form_with_a_crafted_index_makes_no_game(app, client, key):
    res = client.post("/nouvelle", data={"game": "revive", "variant": "base", "players-0-name": "Ana",
                                         "players-1-name": "Bo", key: "Jaune"})
    assert res.status_code == 400
    assert "Le formulaire contient un champ inconnu" in text_of(res)
    assert snapshot(app) == []


def test_the_forms_read_a_crafted_index_as_no_row_even_without_the_check(app, client, games_, monkeypatch):
    """The forms themselves never call int() on "²" or 5,000 digits (a check bypassed or forgotten)."""
    from companion.web import formkeys

    hooks = app.before_request_funcs[None]
    monkeypatch.setitem(app.before_request_funcs, None, [f for f in hooks if f is not formkeys.check_request])
    res = client.post("/nouvelle", data={"game": "revive", "variant": "base", "players-0-name": "Ana",
                                         "players-1-name": "Bo", "colour_names-²": "x",
                                         "colour_names-" + "1" * 5000: "y"})
    assert res.status_code == 302
    res = client.post(f"/g/{games_['revive']}/", data={"version": "2", "base_values": "{}",
                                                        "players-0-great_locations-²": "4"})
    assert res.status_code < 500


@pytest.mark.parametrize("target", ["/parties\n", "/parties%0d%0aSet-Cookie:%20x=1", "/a%09b", "/\x00"])
def test_language_switch_with_a_control_character_in_next_goes_home(client, target):
    res = client.get("/langue/en?next=" + target.replace("\n", "%0A").replace("\x00", "%00"))
    assert res.status_code == 303
    assert res.headers["Location"] == "/"
    assert "x=1" not in res.headers.get("Set-Cookie", "")
    assert "lang=en" in res.headers["Set-Cookie"]  # the language is switched all the same


@pytest.mark.parametrize("host", ["a" * 64 + ".example", "a..b", "." , "a" * 300])
@pytest.mark.parametrize("path", ["/", "/parties", "/nouvelle?game=revive", "/statistiques", "/nope"])
def test_a_host_header_no_url_can_be_built_for_is_a_400_page(client, host, path):
    res = client.get(path, headers={"Host": host})
    assert res.status_code == 400
    assert "L'adresse du site demandée (l'en-tête Host) n'est pas un nom d'hôte valide." in text_of(res)
    assert 'href="/"' in res.get_data(as_text=True)  # the page's links still work (relative)


def test_a_bad_host_header_under_the_api_is_a_json_400(client):
    res = client.post("/api/v1/score", json={"game": "revive"}, headers={"Host": "a..b"})
    assert res.status_code == 400
    assert "en-tête Host" in res.get_json()["errors"][0]["message"]


def test_api_document_nested_deep_is_a_400_saying_so(client):
    for body in (DEEP, DEEP_OBJECT, "[" * 100 + "]" * 100):
        res = client.post("/api/v1/score", data=body, content_type="application/json")
        assert res.status_code == 400
        assert "imbriqué trop profondément (au plus 64 niveaux)" in res.get_json()["errors"][0]["message"]


def test_export_file_nested_deep_is_refused_with_its_path(app, client):
    import io

    res = client.post("/parties/importer", data={"file": (io.BytesIO(DEEP.encode()), "x.json")},
                      content_type="multipart/form-data")
    assert res.status_code == 422
    assert "imbriqué trop profondément" in text_of(res)
    assert snapshot(app) == []


@pytest.mark.parametrize("url", ["/nouvelle?game=revive", "/parties/importer"])
def test_a_multipart_post_without_its_boundary_is_not_a_500(app, client, url):
    res = client.post(url, data="x=1", headers={"Content-Type": "multipart/form-data"})
    assert res.status_code < 500
    assert snapshot(app) == []


@pytest.mark.parametrize(("name", "bad"), [
    ("players-0-great_locations-²", True), ("players-0-great_locations-" + "1" * 5000, True),
    ("colour_names-٣", True), ("players-１-name", True), ("players-0-cities-1234-size", True),
    ("1234", True), ("players-0-cities-999-size", False), ("players-0-name", False), ("x1234", False),
    ("players-0-a1234", False), ("é-12", False), ("", False), ("-", False)])
def test_the_one_rule_for_a_row_index_in_a_field_name(name, bad):
    from companion.web.formkeys import bad_name

    assert bad_name(name) is bad


# ------------------------------------------------------------------ the fuzz

HOSTILE_INDEXES = ["²", "٣", "¹⁰", "1" * 5000, "9" * 40, "0" * 4, "１"]
ODD_KEYS = ["", "-", "--", "players", "players-", "players--1-name", "players-0-", "csrf_token", "x" * 3000,
            "players-0-great_locations-x", "\u2028", "é", "players-0-cities-0-tiles-0-player", "__proto__",
            "players-0-name\x00", "a[b]", "a.b", "players-0-resources-gears"]
HOSTILE_HEADERS = [
    {"Host": "a" * 64 + ".example"}, {"Host": "a..b"}, {"Host": "."}, {"Host": "x" * 500},
    {"Host": "localhost:99999999"}, {"Host": "[::1"}, {"Host": "é.fr"},
    {"Accept-Language": "x" * 5000}, {"Accept-Language": "fr;q=abc, *;q=1e999, en;q=-1"},
    {"Cookie": "lang=" + "x" * 4000}, {"Cookie": "companion_tz=../../../etc/passwd"},
    {"Cookie": "companion_tz=" + "A/" * 40}, {"Cookie": "companion_device=é; session=garbage"},
    {"Cookie": "companion_device=" + "a" * 5000}, {"If-None-Match": '"' + "x" * 5000}, {"If-None-Match": "*"},
    {"If-Modified-Since": "yesterday"}, {"Range": "bytes=99999999999999999999999-"},
    {"Accept": "application/json;q=abc"}, {"X-Forwarded-Host": "a..b"}, {"Origin": "null"},
    {"Referer": "http://a..b/"}, {"Content-Type": "multipart/form-data"},
]
HOSTILE_ARGS = ["next", "version", "game", "variant", "joueur", "lang"]
HOSTILE_VALUES = ["/a\nb", "1" * 5000, "²", "\x00", "x" * 5000, "-1", "//evil.example", "%ff", "NaN", "[]",
                  "../../etc/passwd", "\u202e", "1e999"]


def hostile_json(rng: random.Random) -> str:
    """A value for a JSON field: too deep, or readable but of a shape or key no field has."""
    depth = rng.choice([65, 500, 5000, 50_000])
    return rng.choice([
        "[" * depth + "]" * depth,
        '{"a":' * depth + "0" + "}" * depth,
        json.dumps({f"players-0-great_locations-{rng.choice(HOSTILE_INDEXES)}": ["", "1"]}),
        json.dumps([f"players-{rng.choice(HOSTILE_INDEXES)}-cities-0"]),
    ])


def hostile_form(rng: random.Random) -> dict:
    """A form post that no route may store: at least one key no list index can be, or one of the
    edit page's JSON fields too deep or naming such a key; then noise (odd keys, odd values)."""
    data: dict[str, str] = {}
    if rng.random() < 0.5:
        prefix = rng.choice(["players-0-great_locations", "colour_names", "players", "players-0-cities",
                             "buildings", "players-1-missions", "x"])
        data[f"{prefix}-{rng.choice(HOSTILE_INDEXES)}" + rng.choice(["", "-name", "-0-player"])] = "1"
    else:
        data[rng.choice(["changes", "new_rows", "base_values", "just_saved"])] = hostile_json(rng)
    for _ in range(rng.randint(0, 4)):
        data[rng.choice(ODD_KEYS)] = rng.choice(HOSTILE_VALUES + ["", "1", "Yanis"])
    if rng.random() < 0.5:
        data["version"] = rng.choice(["1", "2", "1" * 5000, "-1", "x"])
    if rng.random() < 0.3:
        data.update(game=rng.choice(["revive", "rebirth", "reterra", "²"]), variant=rng.choice(["base", "x"]))
    return data


def hostile_api_body(rng: random.Random) -> bytes:
    depth = rng.choice([65, 1000, 50_000])
    return rng.choice([
        ("[" * depth + "]" * depth).encode(),
        ('{"game":' * depth + '"revive"' + "}" * depth).encode(),
        b'{"game": "revive", "players": [' + b"1" * 5000 + b"]}",
        b'{"a": 1, "a": 2}', b"\xff\xfe", b'"\\ud800"', b"NaN", b"",
    ])


def url_for_rule(rule, rng: random.Random, tokens: dict, views: dict) -> str:
    values = {}
    for arg in rule.arguments:
        if arg == "token":
            if rule.rule.startswith(("/r/", "/parties/")):
                values[arg] = rng.choice(list(views.values()) + ["x" * 300, "²"])
            else:
                values[arg] = rng.choice(list(tokens.values()) + ["x" * 300, "²"])
        elif arg == "code":
            values[arg] = rng.choice(["fr", "en", "xx", "²" * 50])
        elif arg in ("game", "game_id"):
            values[arg] = rng.choice(["revive", "rebirth", "reterra", "²"])
        elif arg == "variant":
            values[arg] = rng.choice(["x", "²", "y" * 200])  # a real pad is drawn in test_pdf
        elif arg == "tool":
            values[arg] = rng.choice(["city", "castle", "grid", "²"])
        elif arg == "filename":
            values[arg] = rng.choice(["css/app.css", "../secret_key", "x" * 300])
        else:
            values[arg] = "x"
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], rule.rule)


def test_fuzz_every_route_with_hostile_keys_depths_indexes_and_headers(app, client, games_, monkeypatch):
    """Seeded, bounded (600 requests, a few seconds): no 5xx anywhere, no stored change."""
    monkeypatch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)  # a crash is a 500 answer, counted
    rng = random.Random(22)
    with app.app_context():
        views = {g: db.session.scalar(db.select(GameRecord.view_token).filter_by(edit_token=t))
                 for g, t in games_.items()}
    before = snapshot(app)
    rules = [r for r in app.url_map.iter_rules()]
    assert len(rules) >= 20  # every route of the app, whatever is added later
    failures, sent = [], 0
    for rule in rules:
        methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
        for method in methods:
            for _ in range(30 if method == "POST" else 15):
                url = url_for_rule(rule, rng, games_, views)
                headers = dict(rng.choice(HOSTILE_HEADERS)) if rng.random() < 0.5 else {}
                if method == "GET":
                    if rng.random() < 0.7:
                        url += "?" + "&".join(f"{k}={v}" for k, v in [
                            (rng.choice(HOSTILE_ARGS), rng.choice(HOSTILE_VALUES).replace("\n", "%0A")
                             .replace("\x00", "%00").replace("&", "%26"))])
                    if rule.endpoint in ("play.sheet", "play.view_sheet"):
                        headers.pop("If-None-Match", None)  # drawn once per version: keep it short
                    res = client.get(url, headers=headers)
                elif rule.rule.startswith("/api/"):
                    headers.pop("Content-Type", None)
                    res = client.post(url, data=hostile_api_body(rng), headers=headers,
                                      content_type="application/json")
                else:
                    kind = headers.pop("Content-Type", None) or "application/x-www-form-urlencoded"
                    res = client.post(url, data=hostile_form(rng), headers=headers, content_type=kind)
                res.close()  # as a browser's connection ends: a streamed export gives its slot back
                sent += 1
                if res.status_code >= 500:
                    failures.append((method, url[:120], str(headers)[:120], res.status_code))
    assert sent >= 500
    assert failures == []
    assert snapshot(app) == before


def test_refused_posts_give_their_working_slot_back_at_once(app, client, games_):
    """A refusal made before the view (an HTTPException carrying its answer) is written at once: it
    must not keep one of the process's working slots until its body is read. Three such answers held
    unread used to leave a fourth request waiting for ever."""
    name = "players-0-great_locations-²"
    held = [client.post(f"/g/{games_['revive']}/save", data={"version": "2",
                                                             "changes": json.dumps({name: ["", "4"]})})
            for _ in range(app.config["ACTIVE_REQUESTS"] + 1)]
    assert [r.status_code for r in held] == [400] * len(held)
    gate = app.extensions["companion.gate"]
    assert gate.slots.free == app.config["ACTIVE_REQUESTS"]  # every slot free, bodies still unread
    assert client.get("/").status_code == 200
