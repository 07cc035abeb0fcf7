"""Export and restore (issue 14): "Mes parties" exports this device's games as JSON and CSV; the JSON
restores them on another device or server, never twice, and a tampered file changes nothing."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta
from html import unescape

import pytest
import sqlalchemy as sa
from played import HOSTILE, START, device_of, revive, store_games

from app_helpers import make_app
from companion import games
from companion.cli import main
from companion.extensions import db
from companion.outputs.exchange import iso as exchange_iso
from companion.storage.models import DeviceGame, GameRecord
from document_helpers import load_example


def export(client) -> dict:
    response = client.get("/parties/export.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith('attachment; filename="mes-parties-')
    return json.loads(response.get_data(as_text=True))


def upload(client, data: bytes | str, name="mes-parties.json"):
    if isinstance(data, str):
        data = data.encode()
    return client.post("/parties/importer", data={"file": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def snapshot(app) -> list[tuple]:
    with app.app_context():
        games_ = db.session.execute(sa.select(GameRecord.uid, GameRecord.status, GameRecord.document,
                                              GameRecord.colours).order_by(GameRecord.id)).all()
        devices = db.session.execute(sa.select(DeviceGame.device, DeviceGame.game_id,
                                               DeviceGame.can_edit)).all()
    return [tuple(r) for r in games_] + [tuple(r) for r in devices]


def results_of(app, device=None) -> dict[str, dict]:
    """uid -> (created_at, colours, result) of every scored game, as the pages would compute them."""
    with app.app_context():
        query = sa.select(GameRecord).order_by(GameRecord.id)
        if device:
            query = query.join(DeviceGame).where(DeviceGame.device == device)
        return {r.uid: (r.created_at.replace(tzinfo=None), r.colours, r.status,
                        games.score(r.document).to_dict() if r.status == "scored" else None)
                for r in db.session.scalars(query)}


def sample(app, client):
    """A device with a Rebirth, a Reterra and a Revive game (real examples), a tie and a draft."""
    device = device_of(client)
    docs = [load_example("rebirth-scotland.json"), load_example("reterra.json"),
            load_example("revive-abyss.json"), revive(("Alice", 30), ("Bob", 30))]
    made = store_games(app, device, docs)
    made += store_games(app, device, [revive(("Alice", 3), ("Zoé", 1))], status="draft",
                        start=START + timedelta(days=10))
    return device, made


# ------------------------------------------------------------------ JSON and the round trip


def test_json_export_holds_documents_dates_colours_status_and_ids(app, client):
    device, made = sample(app, client)
    store_games(app, "another-device-0000000000", [revive(("Eve", 3), ("Finn", 4))])
    data = export(client)
    assert data["format"] == "companion-export" and data["version"] == 1
    assert [g["id"] for g in data["games"]] == [r.uid for r in made]  # this device's games only
    first = data["games"][0]
    assert first["document"] == load_example("rebirth-scotland.json")
    assert first["status"] == "scored" and first["created_at"] == "2026-01-01T20:00:00Z"
    assert first["colours"] == ["#c8372d", "#2f6fb3", "#e0b422"]
    assert data["games"][-1]["status"] == "draft"


def test_round_trip_to_another_server_gives_identical_results(app, client, tmp_path):
    device, made = sample(app, client)
    text = client.get("/parties/export.json").get_data()
    other = make_app(tmp_path / "other")
    phone = other.test_client()
    new_device = device_of(phone)
    response = upload(phone, text)
    assert response.status_code == 302 and response.headers["Location"] == "/parties"
    page = phone.get("/parties").get_data(as_text=True)
    assert "5 parties restaurées." in page
    assert results_of(other, new_device) == results_of(app, device)
    # the restored games are this phone's: listed, editable, their results pages open
    with other.app_context():
        rows = db.session.execute(sa.select(GameRecord.edit_token, DeviceGame.can_edit).join(DeviceGame)
                                  .where(DeviceGame.device == new_device)).all()
    assert len(rows) == 5 and all(can_edit for _, can_edit in rows)
    assert phone.get(f"/g/{rows[0][0]}/resultats").status_code == 200
    # importing the same file again adds nothing
    before = snapshot(other)
    upload(phone, text)
    assert "Aucune nouvelle partie ; 5 déjà présentes sur ce serveur, laissées telles quelles." in \
        phone.get("/parties").get_data(as_text=True)
    assert snapshot(other) == before


def test_restoring_on_the_same_server_never_duplicates_and_a_uid_opens_nothing(app, client):
    """Another device restoring this server's own export gets nothing: each game refused with its
    path (a uid grants nothing, docs/rulings.md); the device that has them restores it unchanged."""
    _, made = sample(app, client)
    text = client.get("/parties/export.json").get_data()
    before = snapshot(app)
    second = app.test_client()
    device_of(second)
    response = upload(second, text)
    assert response.status_code == 422
    html = unescape(response.get_data(as_text=True))
    assert "Rien n'a été importé" in html
    for i in range(5):
        assert (f"<code>games[{i}].id</code> : cette partie est déjà sur ce serveur, et pas dans la liste "
                "de cet appareil") in html
    assert snapshot(app) == before  # not one game in the other device's list (its rows are in the snapshot)
    # the original device re-importing its own file keeps its edit access, and nothing changes
    upload(client, text)
    assert "Aucune nouvelle partie ; 5 déjà présentes sur ce serveur, laissées telles quelles." in \
        client.get("/parties").get_data(as_text=True)
    assert snapshot(app) == before


def test_a_uid_from_a_csv_export_with_any_document_opens_nothing(app, client):
    """The attack of issue 22: a game_id read in a CSV export, a file naming it with a document of
    one's own (here the stored one itself, a game just started), and a new game beside it: refused
    whole, with the path of the game that is not the device's; the real game stays out of its list."""
    device, made = sample(app, client)
    csv_rows = rows_of(client.get("/parties/export.csv").get_data(as_text=True))
    target = csv_rows[-1]["game_id"]  # the draft
    with app.app_context():
        stored_ = db.session.scalar(sa.select(GameRecord).where(GameRecord.uid == target))
        document, created = stored_.document, exchange_iso(stored_.created_at)
    attacker = app.test_client()
    device_of(attacker)
    crafted = {"format": "companion-export", "version": 1, "games": [
        {"id": "e" * 32, "status": "scored", "created_at": "2026-02-01T20:00:00Z",
         "document": revive(("Ana", 3), ("Bo", 4))},
        {"id": target, "status": "draft", "created_at": created, "updated_at": created,
         "document": document},
    ]}
    before = snapshot(app)
    response = upload(attacker, json.dumps(crafted))
    assert response.status_code == 422
    assert "<code>games[1].id</code> : cette partie est déjà sur ce serveur" in \
        unescape(response.get_data(as_text=True))
    assert "games[0]" not in response.get_data(as_text=True)  # the new game was fine: only the stranger
    assert snapshot(app) == before  # the new game was not stored either: all or nothing
    history = attacker.get("/parties").get_data(as_text=True)
    assert stored_.view_token not in history and stored_.edit_token not in history


def test_a_device_that_reads_a_game_may_restore_it_and_still_only_reads(app, client):
    device, made = sample(app, client)
    text = client.get("/parties/export.json").get_data()
    reader = app.test_client()
    reader_device = device_of(reader)
    for record in made:
        assert reader.get(f"/r/{record.view_token}/").status_code == 200  # opened by its share link
    response = upload(reader, text)
    assert response.status_code == 302
    with app.app_context():
        access = db.session.scalars(sa.select(DeviceGame.can_edit).where(DeviceGame.device == reader_device))
        assert list(access) == [False] * 5


# ------------------------------------------------------------------ refused files


def tampered(text: bytes) -> dict:
    data = json.loads(text)
    data["games"][0]["document"]["players"][0]["castles"] = 99
    data["games"][2]["document"]["players"][1]["track"] = "beaucoup"
    data["games"][3]["colours"] = ["rouge"]
    data["games"][4]["id"] = data["games"][1]["id"]
    data["games"][1]["status"] = "fini"
    return data


def test_a_tampered_file_is_refused_with_paths_and_changes_nothing(app, client, tmp_path):
    sample(app, client)
    data = tampered(client.get("/parties/export.json").get_data())
    other = make_app(tmp_path / "other")
    phone = other.test_client()
    device_of(phone)
    store_games(other, None, [revive(("Kept", 1), ("Too", 2))])
    before = snapshot(other)
    response = upload(phone, json.dumps(data))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Rien n'a été importé" in html
    listed = [re.sub(r"<[^>]+>", "", li) for li in re.findall(r"<li><code>(.*?)</li>", html)]
    assert "games[0].document.players[0].castles : doit être entre 0 et 12" in listed
    assert any(line.startswith("games[2].document.players[1].track : ") for line in listed)
    assert "games[3].colours : attendu : une couleur par joueur (2)" in listed
    assert any(line.startswith("games[1].status : statut inconnu") for line in listed)
    assert snapshot(other) == before  # all or nothing: not even the valid games were stored


@pytest.mark.parametrize(("content", "expected"), [
    (b"not json", "fichier : ce n&#39;est pas du JSON valide (ligne 1, colonne 1)"),
    (b"\xff\xfe", "fichier : le texte n&#39;est pas de l&#39;UTF-8 valide (octet 1)"),
    (b"[]", "fichier : attendu : un objet JSON"),
    (b'{"format": "companion-export", "version": 1}', "games : champ obligatoire"),
    (b'{"format": "other", "version": 1, "games": []}', "format : attendu « companion-export »"),
    # Read as strictly as the API: a key given twice is never settled by the last one silently.
    (b'{"format": "companion-export", "version": 1, "games": [], "games": []}',
     "games : clé présente plusieurs fois dans le même objet"),
    (b'{"format": "companion-export", "version": 1, "games": [{"id": "A\\ud800"}]}',
     "games[0].id : contient un caractère invalide"),
])
def test_files_that_are_not_exports_get_a_clear_message(client, content, expected):
    device_of(client)
    response = upload(client, content)
    assert response.status_code == 422
    text = re.sub(r"</?code>", "", response.get_data(as_text=True))
    assert expected in text


def test_a_scored_game_that_does_not_score_is_refused(app, client):
    device_of(client)
    data = {"format": "companion-export", "version": 1, "games": [
        {"id": "a" * 32, "status": "scored", "created_at": "2026-01-01T10:00:00Z", "colours": None,
         "document": {"game": "revive", "variant": "base", "players": [{"name": "A", "castles": 2}]}}]}
    response = upload(client, json.dumps(data))
    assert response.status_code == 422
    assert "games[0].document.players[0].castles" in response.get_data(as_text=True)


def test_a_draft_may_break_a_rule_between_fields_but_a_scored_game_may_not(app, client):
    """As the screens store them: a Stirling holder typed before the castles is a draft worth
    restoring; the same document claimed as scored is refused; a bad value is refused either way."""
    device_of(client)
    early = {"game": "rebirth", "variant": "scotland", "stirling": "A",
             "players": [{"name": "A"}, {"name": "B"}]}
    assert games.validate(early) and all(p.kind == games.RULE for p in games.validate(early))

    def item(uid, status, document):
        return {"id": uid, "status": status, "created_at": "2026-01-01T10:00:00Z", "colours": None,
                "document": document}

    refused = upload(client, json.dumps({"format": "companion-export", "version": 1, "games": [
        item("b" * 32, "scored", early)]}))
    assert refused.status_code == 422
    assert "games[0].document.stirling" in refused.get_data(as_text=True)
    bad = dict(early, players=[{"name": "A", "castles": 99}, {"name": "B"}])
    assert upload(client, json.dumps({"format": "companion-export", "version": 1, "games": [
        item("c" * 32, "draft", bad)]})).status_code == 422
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(GameRecord)) == 0

    restored = upload(client, json.dumps({"format": "companion-export", "version": 1, "games": [
        item("d" * 32, "draft", early)]}))
    assert restored.status_code in (200, 302, 303)
    with app.app_context():
        record = db.session.scalar(sa.select(GameRecord).where(GameRecord.uid == "d" * 32))
        assert record is not None and record.status == "draft" and record.document == early
    again = export(client)
    assert [g["document"] for g in again["games"]] == [early]


def test_upload_limit_and_missing_file(client):
    device_of(client)
    response = client.post("/parties/importer", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "choisissez le fichier .json" in response.get_data(as_text=True)
    big = b'{"format": "companion-export", "version": 1, "games": [' + b" " * (16 * 1024 * 1024) + b"]}"
    response = upload(client, big)
    assert response.status_code == 413
    assert "fichier trop gros (16 Mo au plus)" in response.get_data(as_text=True)


def test_import_form_requires_csrf(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/parties/importer").get_data(as_text=True)
    assert 'name="csrf_token"' in page and 'enctype="multipart/form-data"' in page
    response = upload(client, b'{"format": "companion-export", "version": 1, "games": []}')
    assert response.status_code == 400


# ------------------------------------------------------------------ CSV


def rows_of(text: str) -> list[dict]:
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text[1:])))


def test_csv_has_one_row_per_player_and_game_and_a_column_per_breakdown_key(app, client):
    _, made = sample(app, client)
    response = client.get("/parties/export.csv")
    assert response.mimetype == "text/csv"
    rows = rows_of(response.get_data(as_text=True))
    assert len(rows) == 3 + 2 + 2 + 2 + 2
    header = list(rows[0])
    assert header[:11] == ["game_id", "game", "variant", "date", "status", "player", "colour", "seat",
                           "place", "total", "winner"]
    for game in games.GAMES.values():
        for variant in game.variants:
            if (game.id, variant) in {("rebirth", "scotland"), ("reterra", "base"), ("revive", "abyss")}:
                assert set(game.keys(variant)) <= set(header)
    rebirth = games.score(load_example("rebirth-scotland.json"))
    first = rows[0]
    assert (first["game_id"], first["game"], first["variant"], first["date"], first["seat"]) == \
        (made[0].uid, "rebirth", "scotland", "2026-01-01 20:00:00", "1")
    assert first["colour"] == "rouge"
    for row, p in zip(rows[:3], rebirth.players, strict=True):
        assert row["player"] == p.name and int(row["total"]) == p.total
        assert int(row["place"]) == rebirth.place_of(p.name)
        assert row["winner"] == ("1" if p.name in rebirth.winners else "0")
        for line in p.breakdown:
            assert int(row[line.key]) == line.points
        assert row["progress"] == ""  # a Revive key: not Rebirth's
    assert "public_missions" not in header  # an Ireland key, and no Ireland game was exported
    tie = rows[7:9]
    assert [(r["place"], r["winner"]) for r in tie] == [("1", "1"), ("1", "1")]
    draft = rows[9]
    assert draft["status"] == "draft" and draft["total"] == "" and draft["track"] == ""
    reterra = [r for r in rows if r["game"] == "reterra"]
    assert any(int(r["junk"]) < 0 for r in reterra)  # numbers stay numbers, minus sign included


def test_csv_neutralises_formulas_in_names(app, client):
    device = device_of(client)
    store_games(app, device, [revive(*[(n, 5) for n in HOSTILE[:4]]), revive(*[(n, 5) for n in HOSTILE[4:]])])
    rows = rows_of(client.get("/parties/export.csv").get_data(as_text=True))
    names = [r["player"] for r in rows]
    assert names == [HOSTILE[0], HOSTILE[1], "'" + HOSTILE[2], "'" + HOSTILE[3], "'" + HOSTILE[4],
                     "'" + HOSTILE[5]]
    assert not any(cell[:1] in "=+-@" for r in rows for k, cell in r.items() if not k.isidentifier()
                   or k in ("player", "colour", "game_id"))


def test_json_export_keeps_hostile_names_as_data(app, client):
    device = device_of(client)
    store_games(app, device, [revive(*[(n, 5) for n in HOSTILE[:4]])])
    response = client.get("/parties/export.json")
    assert response.mimetype == "application/json"
    players = json.loads(response.get_data())["games"][0]["document"]["players"]
    assert [p["name"] for p in players] == HOSTILE[:4]


def test_a_device_without_games_exports_empty_files(client):
    assert export(client)["games"] == []
    assert client.get("/parties/export.csv").get_data(as_text=True).count("\r\n") == 1


def test_history_page_offers_export_restore_and_statistics(app, client):
    empty = client.get("/parties").get_data(as_text=True)
    for href in ("/parties/importer", "/statistiques"):  # a new phone restores; nothing to export yet
        assert f'href="{href}"' in empty
    for href in ("/parties/export.json", "/parties/export.csv"):
        assert f'href="{href}"' not in empty
    sample(app, client)
    html = client.get("/parties").get_data(as_text=True)
    for href in ("/parties/export.json", "/parties/export.csv", "/parties/importer", "/statistiques"):
        assert f'href="{href}"' in html


# ------------------------------------------------------------------ command line


def run(argv, stdin_text=""):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(stdin_text))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def cli_db(tmp_path, monkeypatch):
    """The CLI reads DATABASE_URL like the app: point it at a test database (schema built)."""
    def database(name):
        app = make_app(tmp_path / name)
        monkeypatch.setenv("DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])
        monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / name / "instance"))
        return app
    return database


def test_cli_export_then_import_elsewhere(cli_db, tmp_path):
    source = cli_db("source")
    store_games(source, "device-a-000000000000000", [load_example("revive-abyss.json"),
                                                   revive(("Alice", 30), ("Bob", 30))])
    store_games(source, "device-b-000000000000000", [revive(("Eve", 3), ("Finn", 4))])
    out_file = tmp_path / "all.json"
    code, out, err = run(["export", "-o", str(out_file)])
    assert code == 0 and err == "" and out == "3 parties exportées dans " + str(out_file) + "\n"
    code, out, _ = run(["export", "--device", "device-b-000000000000000"])
    assert [g["document"]["players"][0]["name"] for g in json.loads(out)["games"]] == ["Eve"]
    code, out, _ = run(["export", "--format", "csv"])
    assert code == 0 and len(rows_of(out)) == 6

    target = cli_db("target")
    code, out, err = run(["import", str(out_file), "--device", "device-c-000000000000000"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "3 parties restaurées."
    assert all(re.fullmatch(r"/g/[\w-]{40,}/  revive (abyss|base) · .+", line) for line in lines[1:])
    assert results_of(target, "device-c-000000000000000") == results_of(source)
    code, out, _ = run(["import", str(out_file)])
    again = "Aucune nouvelle partie ; 3 déjà présentes sur ce serveur, laissées telles quelles.\n"
    assert (code, out) == (0, again)


def test_cli_import_for_a_device_that_lacks_a_present_game_is_refused_with_paths(cli_db, tmp_path):
    source = cli_db("source")
    store_games(source, "device-a-000000000000000", [revive(("Eve", 3), ("Finn", 4)),
                                                   revive(("Ana", 1), ("Bo", 2))])
    out_file = tmp_path / "all.json"
    assert run(["export", "-o", str(out_file)])[0] == 0
    before = snapshot(source)
    code, out, err = run(["import", str(out_file), "--device", "device-z-000000000000000"])
    assert (code, out) == (2, "")
    assert [line for line in err.splitlines() if line.startswith("games[")] == [
        f"games[{i}].id: cette partie est déjà sur ce serveur, et pas dans la liste de cet appareil : un "
        "fichier ne donne pas accès à une partie existante ; ouvrez-la par son lien" for i in range(2)]
    assert snapshot(source) == before
    # the device that has them, and the operator without a device, restore it: nothing changes
    assert run(["import", str(out_file), "--device", "device-a-000000000000000"])[0] == 0
    assert run(["import", str(out_file)])[0] == 0
    assert snapshot(source) == before


def test_cli_import_of_a_tampered_file_prints_paths_and_exits_2(cli_db, tmp_path):
    source = cli_db("source")
    store_games(source, "device-a-000000000000000", [load_example("rebirth-scotland.json"),
                                                   *[revive(("A", i), ("B", 1)) for i in range(4)]])
    code, out, _ = run(["export"])
    target = cli_db("target")
    before = snapshot(target)
    code, out, err = run(["import", "-"], json.dumps(tampered(out.encode())))
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert "games[0].document.players[0].castles: doit être entre 0 et 12" in lines
    assert "games[3].colours: attendu : une couleur par joueur (2)" in lines
    assert "games[4].id: même identifiant que games[1]" in lines
    assert snapshot(target) == before
    code, _, err = run(["import", str(tmp_path / "missing.json")])
    assert code == 2 and err.endswith("missing.json: fichier introuvable\n")


def test_a_file_larger_than_one_document_is_restored(app, client, tmp_path):
    """The app refuses bodies over 256 KB (one document); an export of hundreds of games is more."""
    device = device_of(client)
    doc = load_example("revive-abyss.json")
    store_games(app, device, [doc] * 300)
    text = client.get("/parties/export.json").get_data()
    assert len(text) > 256 * 1024
    other = make_app(tmp_path / "other")
    phone = other.test_client()
    device_of(phone)
    assert upload(phone, text).status_code == 302
    assert "300 parties restaurées." in phone.get("/parties").get_data(as_text=True)
