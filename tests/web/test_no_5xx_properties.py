"""No input gets a 5xx (issue 30): any JSON value at any path of a contract document sent to the
API, of an export file sent to the restore, of an autosave's changes; any text as a game link's
token on every route that takes one. On SQLite and on PostgreSQL (the throw-away server), where the
same inputs once answered 500 (a NUL in a token: PostgreSQL refuses it in a query's text).

Each property draws `EXAMPLES` examples (HYPOTHESIS_EXAMPLES scales them, as for the engines'
properties); a failure prints the smallest input Hypothesis found.
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import secrets
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app_helpers import create_game, make_app
from companion.extensions import db
from document_helpers import load_example

EXAMPLES = max(10, int(os.environ.get("HYPOTHESIS_EXAMPLES", "150")) * 2 // 3)
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

IRELAND = {"game": "rebirth", "variant": "ireland", "blarney": "Yanis", "cities": [
    {"size": 2, "tiles": [{"player": "Maëlle", "influence": 2}, {"player": "Yanis", "influence": 1}]}],
    "players": [{"name": "Maëlle", "track": 40, "towers": [13, 3], "public_missions": [
        {"points": 7, "doubled": True}], "privatized_missions": [{"points": 5, "achieved": True}],
        "tara_adjacent": 2, "castles": 1},
        {"name": "Yanis", "track": 38, "towers": [13], "castles": 2, "farms": {"agricultural": [3, 1]}}]}
DOCUMENTS = [load_example("rebirth-scotland.json"), load_example("reterra.json"),
             load_example("revive-abyss.json"), IRELAND]

# Any JSON value, small: what a client can put anywhere. Text with NULs, lone surrogates, controls.
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8)


def paths(value, at=()) -> list[tuple]:
    """Every place of `value` a value can be put: each node, and a new key in each object."""
    found = [at]
    if isinstance(value, dict):
        found.append((*at, "unknown_key"))
        for key, child in value.items():
            found += paths(child, (*at, key))
    elif isinstance(value, list):
        found.append((*at, len(value)))  # one item past the end
        for i, child in enumerate(value):
            found += paths(child, (*at, i))
    return found


def put(value, path: tuple, new):
    """A copy of `value` with `new` at `path` (appended when the index is one past the end)."""
    if not path:
        return new
    out = copy.deepcopy(value)
    node = out
    for step in path[:-1]:
        node = node[step]
    last = path[-1]
    if isinstance(node, list) and last == len(node):
        node.append(new)
    else:
        node[last] = new
    return out


def at_any_path(base) -> st.SearchStrategy:
    return st.sampled_from(paths(base)).flatmap(lambda p: JSON.map(lambda v: put(base, p, v)))


def export_of(document: dict) -> dict:
    return {"format": "companion-export", "version": 1, "exported_at": "2026-11-26T10:00:00Z", "games": [
        {"id": "0" * 32, "status": "scored", "created_at": "2026-11-26T09:00:00Z",
         "updated_at": "2026-11-26T10:00:00Z", "colours": [""] * len(document["players"]),
         "document": document, "edition": None}]}


def assert_not_5xx(response, sent) -> None:
    assert response.status_code < 500, (response.status_code, str(sent)[:500],
                                        response.get_data(as_text=True)[:500])


# ------------------------------------------------------------------ the two databases


class Target:
    """An app on one database, its phone, and a game of each kind (edit and view tokens)."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.tokens = {}
        for doc in DOCUMENTS[:3]:
            names = ["Maëlle", "Yanis"]
            self.tokens[doc["game"]] = create_game(self.client, doc["game"], doc["variant"], names)
        with app.app_context():
            from companion.storage.models import GameRecord

            self.views = list(db.session.scalars(sa.select(GameRecord.view_token)))
        self.fields = {}
        for game, token in self.tokens.items():
            page = self.client.get(f"/g/{token}/").get_data(as_text=True)
            self.fields[game] = sorted(set(re.findall(r'name="(players-[^"]+|[a-z_]+-\d[^"]*)"', page)))


@pytest.fixture(scope="module")
def sqlite_target(tmp_path_factory):
    return Target(make_app(tmp_path_factory.mktemp("props-sqlite"), RATELIMIT_ENABLED=False))


@pytest.fixture(scope="module")
def postgresql_target(postgres_url, tmp_path_factory):
    """A database of its own on the session's PostgreSQL server (others migrate `companion`)."""
    name = "props_" + secrets.token_hex(4)
    engine = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    url = postgres_url.replace("/companion?", f"/{name}?")
    app = make_app(tmp_path_factory.mktemp("props-pg"), SQLALCHEMY_DATABASE_URI=url,
                   SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True}, RATELIMIT_ENABLED=False)
    yield Target(app)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request) -> Target:
    return request.getfixturevalue(f"{request.param}_target")


# ------------------------------------------------------------------ the properties


@PROPERTY
@given(data=st.data())
def test_the_api_never_answers_5xx_whatever_the_document(target, data):
    doc = data.draw(st.sampled_from(DOCUMENTS).flatmap(at_any_path), label="document")
    edition = data.draw(st.none() | st.text(max_size=6), label="edition")
    url = "/api/v1/score" + (f"?edition={quote(edition)}" if edition is not None else "")
    response = target.client.post(url, data=json.dumps(doc), content_type="application/json")
    assert_not_5xx(response, doc)
    for game_tool in ("/api/v1/rebirth/city", "/api/v1/rebirth/castle"):
        assert_not_5xx(target.client.post(game_tool, data=json.dumps(doc), content_type="application/json"),
                       doc)


@PROPERTY
@given(data=st.data())
def test_a_restore_never_answers_5xx_whatever_the_file(target, data):
    file = data.draw(st.sampled_from(DOCUMENTS).map(export_of).flatmap(at_any_path), label="file")
    body = json.dumps(file).encode()
    response = target.client.post("/parties/importer", data={"file": (io.BytesIO(body), "x.json")},
                                  content_type="multipart/form-data")
    assert_not_5xx(response, file)


@PROPERTY
@given(data=st.data())
def test_an_autosave_never_answers_5xx_whatever_it_carries(target, data):
    game = data.draw(st.sampled_from(sorted(target.tokens)), label="game")
    names = target.fields[game] or ["players-0-name"]
    field = data.draw(st.sampled_from(names) | st.text(max_size=12), label="field")
    pair = data.draw(st.tuples(st.text(max_size=6), st.text(max_size=6)).map(list) | JSON, label="value")
    changes = data.draw(at_any_path({field: pair}), label="changes")
    form = {"version": data.draw(st.sampled_from(["1", "2", "99", "-1", "x", ""]), label="version"),
            "changes": json.dumps(changes)}
    if data.draw(st.booleans(), label="with new_rows"):
        form["new_rows"] = json.dumps(data.draw(JSON | st.lists(st.sampled_from(names)), label="new_rows"))
    response = target.client.post(f"/g/{target.tokens[game]}/save", data=form)
    assert_not_5xx(response, form)


TOKEN_ROUTES = [("GET", "/g/{}/"), ("POST", "/g/{}/"), ("POST", "/g/{}/save"), ("GET", "/g/{}/state"),
                ("GET", "/g/{}/resultats"), ("GET", "/r/{}/"), ("GET", "/g/{}/sheet.pdf"),
                ("GET", "/r/{}/sheet.pdf"), ("POST", "/g/{}/rejouer"), ("GET", "/parties/{}/supprimer"),
                ("POST", "/parties/{}/supprimer"), ("GET", "/g/{}/outils/ville"),
                ("POST", "/g/{}/outils/ville"), ("GET", "/g/{}/outils/chateau"),
                ("POST", "/g/{}/outils/chateau"), ("GET", "/r/{}/ecran"), ("GET", "/r/{}/ecran/etat"),
                ("POST", "/g/{}/etape"), ("POST", "/g/{}/photo"), ("POST", "/g/{}/photo/retirer"),
                ("GET", "/g/{}/photo.jpg"), ("GET", "/r/{}/photo.jpg"), ("GET", "/g/{}/joueurs"),
                ("POST", "/g/{}/joueurs"), ("GET", "/g/{}/historique"), ("POST", "/g/{}/historique/annuler"),
                ("GET", "/g/{}/annuler"), ("POST", "/g/{}/annuler")]


def test_every_route_taking_a_token_is_listed_here(sqlite_target):
    rules = {r.rule for r in sqlite_target.app.url_map.iter_rules() if "token" in r.arguments}
    assert {re.sub(r"<[^>]+>", "{}", r) for r in rules} == {path for _, path in TOKEN_ROUTES}


@PROPERTY
@given(token=st.text(min_size=1, max_size=70) | st.sampled_from(["%00", "a%00b", "x" * 65, "\x00"]),
       route=st.sampled_from(TOKEN_ROUTES))
def test_any_text_as_a_token_is_never_a_5xx(target, token, route):
    method, path = route
    url = path.format(token if token.startswith(("%", "a%")) else quote(token, safe=""))
    response = target.client.open(url, method=method, data={"version": "1", "changes": "{}"})
    assert_not_5xx(response, url)
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", token):
        assert response.status_code in (404, 405) or (method == "POST" and response.status_code == 400)


# ------------------------------------------------------------------ the three found by hand (issue 30)


def test_a_restored_document_whose_game_is_a_list_is_refused_with_its_path(target):
    document = dict(DOCUMENTS[2], game=["revive"])
    body = json.dumps(export_of(document)).encode()
    response = target.client.post("/parties/importer", data={"file": (io.BytesIO(body), "x.json")},
                                  content_type="multipart/form-data")
    assert response.status_code == 422
    assert "<code>games[0].document.game</code>" in response.get_data(as_text=True)


def test_towers_holding_an_object_are_a_path_and_a_message(target):
    doc = put(IRELAND, ("players", 0, "towers"), [{}, 3])
    response = target.client.post("/api/v1/score", json=doc)
    assert response.status_code == 422
    assert {"path": "players[0].towers[0]", "message": "doit valoir 13 ou 3"} in response.json["errors"]


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/g/{}/"), ("GET", "/r/{}/"), ("GET", "/g/{}/state"), ("GET", "/g/{}/sheet.pdf"),
    ("GET", "/g/{}/resultats"), ("GET", "/parties/{}/supprimer"), ("POST", "/parties/{}/supprimer")])
def test_a_nul_in_a_token_is_a_404_on_both_databases(target, method, path):
    response = target.client.open(path.format("abc%00def"), method=method)
    assert response.status_code == 404
    if path.endswith("state"):  # the autosave's JSON, which the phone shows as it is
        assert response.json["ok"] is False and "Cette partie n'existe plus" in response.json["message"]
    else:
        assert "Page introuvable" in response.get_data(as_text=True)
