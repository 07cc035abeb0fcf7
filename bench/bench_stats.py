"""The statistics page (issue 14) with 500 scored games on one device, against a trivial Flask route
served the same way in the same run (Flask test client, SQLite, no network).

Run: `.venv/bin/python -m bench.bench_stats`. The 500 games mix the three games (the shared examples
with varied numbers); every request reads them in one query with their remembered summaries: the
first request of all scores the 500 games and writes the summaries, the next ones score nothing.
Target: the page answers in under 100 ms on the project's 2-core machine.
"""

from __future__ import annotations

import copy
import random
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.bench_pages import bench_app, trivial_floor
from bench.common import per_second, report

GAMES = 500
TARGET_MS = 100
EXAMPLES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
NAMES = ["Maëlle", "Yanis", "Inès", "Hugo", "Zoé", "Léon", "Camille", "Noah"]


def documents(n: int = GAMES, seed: int = 14) -> list[dict]:
    """Valid documents: the examples with other names and other track points."""
    import json

    from companion import games

    rng = random.Random(seed)
    bases = [json.loads((EXAMPLES / f).read_text(encoding="utf-8"))
             for f in ("rebirth-scotland.json", "reterra.json", "revive-abyss.json")]
    out = []
    while len(out) < n:
        doc = copy.deepcopy(rng.choice(bases))
        names = rng.sample(NAMES, len(doc["players"]))
        renames = {p["name"]: new for p, new in zip(doc["players"], names, strict=True)}
        for p in doc["players"]:
            p["name"] = renames[p["name"]]
            if "track" in p:
                p["track"] = rng.randint(20, 120)
        for city in doc.get("cities", []):
            for tile in city.get("tiles", []):
                tile["player"] = renames.get(tile["player"], tile["player"])
        for key in ("edinburgh", "stirling"):
            if doc.get(key):
                doc[key] = renames[doc[key]]
        if not games.validate(doc):
            out.append(doc)
    return out


def main() -> list[dict]:
    from companion.extensions import db
    from companion.models import DeviceGame, GameRecord

    app = bench_app()
    device = "bench-device-0000000000000000"
    start = datetime(2025, 1, 1, 20, tzinfo=UTC)
    with app.app_context():
        for i, doc in enumerate(documents()):
            record = GameRecord(game=doc["game"], variant=doc["variant"], document=doc, status="scored",
                                created_at=start + timedelta(hours=18 * i), updated_at=start)
            db.session.add(record)
            db.session.flush()
            db.session.add(DeviceGame(device=device, game_id=record.id))
        db.session.commit()
    client = app.test_client()
    client.set_cookie("companion_device", device)

    def page():
        response = client.get("/statistiques")
        assert response.status_code == 200 and b"500 parties" in response.data, response.status_code

    def player_page():
        assert client.get("/statistiques?joueur=Ma%C3%ABlle").status_code == 200

    first = time.perf_counter()
    page()
    # The very first request scores the 500 games and writes their summaries (once per game version).
    cold = 1000 * (time.perf_counter() - first)
    print(f"statistiques, 500 parties : première visite (500 parties calculées, résumés écrits) "
          f"{cold:.0f} ms")
    floor = trivial_floor()
    results = []
    for label, fn in (("statistiques de l'appareil, 500 parties", page),
                      ("statistiques d'un joueur, 500 parties", player_page)):
        rate = per_second(fn, seconds=3.0)
        results.append(report(label, rate, "route Flask triviale", floor))
        verdict = "atteint" if 1000 / rate < TARGET_MS else "MANQUÉ"
        print(f"  soit {1000 / rate:.1f} ms par page (route triviale : {1000 / floor:.2f} ms) ; "
              f"objectif < {TARGET_MS} ms : {verdict}")
    return results


if __name__ == "__main__":
    main()
