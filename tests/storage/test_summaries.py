"""Heavy pages read what is stored (issue 22): each version's summary is written with it, the
statistics and the CSV export read summaries and score nothing, the exports stream, and heavy routes
wait for a share of the working slots of their own."""

from __future__ import annotations

import csv
import io
import json
import threading
from datetime import UTC, datetime

import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from played import device_of, revive, store_games

from app_helpers import autosave, create_game, stored
from companion import create_app, games
from companion.extensions import db
from companion.games.core import Line, Place, PlayerScore, Result
from companion.outputs import exchange
from companion.storage import store, summaries
from companion.storage.models import GameRecord
from companion.web.limits import RequestGate
from document_helpers import load_example

FOUR = [load_example("rebirth-scotland.json"), load_example("revive-abyss.json"),
        revive(("Zoé", 30), ("Léo", 30)), revive(("Ana", 12), ("Bo", 40))]


def count_scoring(monkeypatch) -> list:
    calls: list = []
    real = games.score
    monkeypatch.setattr(games, "score", lambda doc, *a: calls.append(doc) or real(doc, *a))
    return calls


def test_a_save_writes_the_summary_of_the_version_it_stores(app, client):
    token = create_game(client, "revive", "base", ["Maëlle", "Yanis"])
    first = stored(app, token)
    assert summaries.current(first.summary, first.version)
    assert first.summary["names"] == ["Maëlle", "Yanis"]
    assert first.summary["result"]["places"] == [1, 1]  # nothing entered yet: a tie at 0
    assert autosave(client, token, first.version, players__0__track=("", "25"),
                    players__1__track=("", "31")).status_code == 200
    saved = stored(app, token)
    assert saved.version == first.version + 1 and summaries.current(saved.summary, saved.version)
    result = saved.summary["result"]
    assert result["winners"] == ["Yanis"] and result["places"] == [2, 1]
    assert [sum(points) for _, points in result["players"]] == \
        [p.total for p in games.score(saved.document).players]


def test_statistics_and_exports_score_nothing_once_games_are_saved(app, client, monkeypatch):
    device_of(client)
    token = create_game(client, "revive", "base", ["Maëlle", "Yanis"])
    autosave(client, token, 1, players__0__track=("", "25"), players__1__track=("", "31"))
    with app.app_context():  # "Voir les résultats": the status changes, not the document
        store.set_status(db.session.scalar(sa.select(GameRecord).where(GameRecord.edit_token == token)),
                         "scored")
    calls = count_scoring(monkeypatch)
    html = client.get("/statistiques").get_data(as_text=True)
    assert "Yanis" in html and "1 partie terminée" in html
    rows = list(csv.DictReader(io.StringIO(client.get("/parties/export.csv").get_data(as_text=True)[1:])))
    assert [(r["player"], r["seat"], r["place"], r["total"], r["winner"], r["track"]) for r in rows] == \
        [("Maëlle", "1", "2", "25", "0", "25"), ("Yanis", "2", "1", "31", "1", "31")]
    assert calls == []  # read from the summaries, nothing scored


def test_the_csv_from_summaries_is_the_csv_scored_from_documents(app, client):
    device = device_of(client)
    made = store_games(app, device, FOUR)  # stored without summaries (as before this version)
    store_games(app, device, [revive(("Ana", 3), ("Bo", 4))], status="draft")
    scored_now = client.get("/parties/export.csv").get_data()
    with app.app_context():
        for record in db.session.scalars(sa.select(GameRecord)):
            record.summary = summaries.make(record.document, record.version)
        db.session.commit()
    assert client.get("/parties/export.csv").get_data() == scored_now
    assert len(made) == 4


def test_the_json_export_streams_the_same_data_a_game_a_line(app, client):
    device = device_of(client)
    made = store_games(app, device, FOUR)
    now = datetime(2026, 11, 25, 10, tzinfo=UTC)
    with app.app_context():
        whole = exchange.to_json(exchange.records(device), now)
        for size in (1, 3, 250):
            text = "".join(exchange.json_chunks(exchange.batches(device, exchange.JSON_COLUMNS, size), now))
            assert json.loads(text) == whole
            lines = text.splitlines()
            games_lines = lines[5:-2]  # {, format, version, exported_at, "games": [ ... ], }
            assert len(games_lines) == len(made) and all(line.startswith('  {"id": ') for line in games_lines)
        assert json.loads("".join(exchange.json_chunks([], now))) == exchange.to_json([], now)
    response = client.get("/parties/export.json")
    assert response.is_streamed
    assert [g["id"] for g in json.loads(response.get_data())["games"]] == [r.uid for r in made]


def test_games_stored_before_get_their_summary_from_the_migration(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 's.sqlite3'}"})
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "i13m01_merge_heads"]).exit_code == 0
    documents = [(load_example("revive-abyss.json"), "scored"), (revive(("Ana", 3)), "draft")]
    with app.app_context(), db.engine.begin() as conn:
        for i, (doc, status) in enumerate(documents):
            conn.execute(sa.text(
                "INSERT INTO games (edit_token, view_token, uid, game, variant, document, version, status, "
                "created_at, updated_at) VALUES (:e, :v, :u, :g, :var, :d, 3, :s, "
                "'2026-01-01 00:00:00', '2026-01-02 00:00:00')"),
                {"e": f"e{i}", "v": f"v{i}", "u": f"{i:032x}", "g": doc["game"], "var": doc["variant"],
                 "d": json.dumps(doc), "s": status})
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context(), db.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT summary, version, updated_at FROM games ORDER BY id")).all()
    scored, draft = (json.loads(row[0]) if isinstance(row[0], str) else row[0] for row in rows)
    assert summaries.current(scored, 3) and summaries.current(draft, 3)
    assert scored["result"]["winners"] == games.score(documents[0][0]).winners
    assert draft["names"] == ["Ana"]
    assert all(str(row[2]).startswith("2026-01-02") for row in rows)  # the history's order is kept


# ------------------------------------------------------------------ the heavy share of the slots


def test_heavy_routes_wait_for_their_own_share_and_leave_the_others_free():
    inside = threading.Semaphore(0)
    go_on = threading.Event()
    entered = []

    def app(environ, start_response):
        path = environ["PATH_INFO"]
        entered.append(path)

        def body():
            if path.startswith("/heavy"):
                inside.release()
                assert go_on.wait(10)
            yield b"done"

        start_response("200 OK", [("Content-Type", "text/plain")])
        environ["companion.streamed"] = True  # what limits.streamed says of an export
        return body()

    gate = RequestGate(app, None, active=2, heavy=1, heavy_paths=lambda: {"/heavy1", "/heavy2"})

    def call(path, out):
        body = gate({"PATH_INFO": path}, lambda *a: None)
        out[path] = b"".join(body)
        body.close()

    out: dict = {}
    first = threading.Thread(target=call, args=("/heavy1", out))
    second = threading.Thread(target=call, args=("/heavy2", out))
    first.start()
    assert inside.acquire(timeout=10)  # the first export is working (its body being written)
    second.start()
    light = threading.Thread(target=call, args=("/light", out))
    light.start()
    light.join(10)
    assert out.get("/light") == b"done"  # a table's request went through beside the export...
    assert entered.count("/heavy2") == 0  # ...while the second export waits for the heavy share
    go_on.set()
    first.join(10)
    second.join(10)
    assert out == {"/heavy1": b"done", "/heavy2": b"done", "/light": b"done"}


def test_the_exports_and_statistics_are_heavy_routes(app):
    from companion.web.limits import heavy_paths

    assert {"/parties/export.json", "/parties/export.csv", "/statistiques"} <= heavy_paths(app)
    assert "/api/v1/games" not in heavy_paths(app) and "/parties" not in heavy_paths(app)


LINES = st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(-5, 50)), min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=4))
def test_a_summary_keeps_each_players_points_as_the_result_reads_them(breakdowns):
    """The keys are the first player's lines'; each player's points for a key are those
    `PlayerScore.points` finds (its first line of that key), whatever the order or repeats; each
    player's place, the one `Result.place_of` finds."""
    keys = [key for key, _points in breakdowns[0]]
    if any({key for key, _p in lines} != set(keys) for lines in breakdowns):
        return  # every player of a game has the same categories
    players = [PlayerScore(f"P{i}", [Line(key, points) for key, points in lines])
               for i, lines in enumerate(breakdowns)]
    ranking = [Place(1, [p.name for p in players[:1]])] + ([Place(2, [p.name for p in players[1:]])]
                                                            if len(players) > 1 else [])
    result = Result("revive", "base", players, ranking, [])
    kept = summaries.of_result(result)
    assert kept["keys"] == keys
    assert kept["players"] == [[p.name, [p.points(k) for k in keys]] for p in players]
    assert kept["places"] == [result.place_of(p.name) for p in players]
