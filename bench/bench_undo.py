"""Issue 32: what the game's log costs an autosave, and the log's page of a full log (500 changes).

In process (Flask's test client, SQLite in a temporary folder), each against the app's trivial
route served the same way in the same run (the floor), in wall and CPU time (`interleaved`):
  - an autosave of one player's number, logged (the log's INSERT and its bound, on the save's own
    connection after its commit) and the same with the log left out: their difference is the log's cost;
  - "Annuler" as the page does it: the change asked for (GET /annuler), then sent through /save;
  - the log's page of a Rebirth game whose log is full (500 changes).

    .venv/bin/python -m bench.bench_undo [--seconds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from bench.common import interleaved, report_both


def _app(folder: Path):
    os.environ["COMPANION_INSTANCE"] = str(folder / "instance")
    from companion import create_app
    from companion.extensions import db

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'b.sqlite3'}",
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})
    with app.app_context():
        db.create_all()
    app.add_url_rule("/_floor", "floor", lambda: "ok")
    return app


def _game(client) -> str:
    data = {"game": "rebirth", "variant": "ireland", "players-0-name": "Aoife", "players-1-name": "Brian",
            "players-2-name": "Ciara"}
    return client.post("/nouvelle", data=data).headers["Location"].split("/")[2]


class Typing:
    """One phone typing a player's track up and down, each save on the version it holds."""

    def __init__(self, client, token: str):
        self.client, self.token, self.version, self.value = client, token, 1, ""

    def __call__(self) -> None:
        new = "12" if self.value != "12" else "13"
        data = {"version": str(self.version), "delta": "1",
                "changes": json.dumps({"players-0-track": [self.value, new]})}
        answer = self.client.post(f"/g/{self.token}/save", data=data).get_json()
        assert answer["ok"], answer
        self.version, self.value = answer["version"], new


def main() -> list[dict]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0)
    seconds = parser.parse_args().seconds
    from companion.saving import gamelog
    from companion.storage import changelog

    results = []
    with tempfile.TemporaryDirectory() as folder:
        app = _app(Path(folder))
        client = app.test_client()
        floor = lambda: client.get("/_floor")  # noqa: E731
        token = _game(client)
        typing = Typing(client, token)
        results.append(report_both("autosave, logged", interleaved(typing, floor, seconds), "/_floor"))
        kept = gamelog.record
        gamelog.record = lambda *args, **kwargs: None
        try:
            results.append(report_both("autosave, not logged", interleaved(typing, floor, seconds),
                                       "/_floor"))
        finally:
            gamelog.record = kept

        def undo() -> None:
            last = client.get(f"/g/{token}/annuler").get_json()
            if not last["ok"]:  # everything undone: one change more to undo
                typing()
                return
            data = {"version": str(typing.version), "undo": str(last["id"]),
                    "changes": json.dumps(last["changes"])}
            answer = client.post(f"/g/{token}/save", data=data).get_json()
            assert answer["ok"], answer
            typing.version, typing.value = answer["version"], last["changes"]["players-0-track"][1]

        results.append(report_both("Annuler (GET /annuler, then /save)", interleaved(undo, floor, seconds),
                                   "/_floor"))
        for _ in range(changelog.KEPT + 10):
            typing()
        page = lambda: client.get(f"/g/{token}/historique?tout=1")  # noqa: E731
        assert page().status_code == 200
        results.append(report_both(f"log page, {changelog.KEPT} changes", interleaved(page, floor, seconds),
                                   "/_floor"))
        page30 = lambda: client.get(f"/g/{token}/historique")  # noqa: E731
        results.append(report_both("log page, the last 30 shown", interleaved(page30, floor, seconds),
                                   "/_floor"))
    return results


if __name__ == "__main__":
    main()
