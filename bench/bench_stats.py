"""The statistics page (issues 14 and 33) of a club's device with 2,000 and with 5,000 scored games,
against the app's own trivial route served the same way in the same run (Flask test client, SQLite,
no network).

Run: `.venv/bin/python -m bench.bench_stats` (a minute or two: 7,000 games are scored and stored first).
The games mix the three games (the shared examples with varied numbers and names); every request
reads them in one query with their remembered summaries (the first request of all scores them and
writes the summaries, the next ones score nothing). Each page is measured in short slices taken in
turn with the floor's (`common.interleaved`, 3 rounds at least), in CPU time beside wall time, and
reported per game: a page that grows linearly costs the same per game at 2,000 and at 5,000 games.
Targets: under 0.3 s of CPU for 5,000 games, and at most 1.15 times the CPU per game of 2,000.
"""

from __future__ import annotations

import copy
import random
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.bench_pages import bench_app
from bench.common import interleaved, report_both

SIZES = (2000, 5000)
ROUNDS = 5
TARGET_CPU_MS = 300
LINEAR_MOST = 1.15  # CPU per game at the largest size / at the smallest
EXAMPLES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
NAMES = ["Maëlle", "Yanis", "Inès", "Hugo", "Zoé", "Léon", "Camille", "Noah"]


def documents(n: int = 500, seed: int = 14) -> list[dict]:
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


def store(app, device: str, docs: list[dict]) -> None:
    """`docs` as scored games of `device`, one every 18 hours, their summaries written (as
    store.create writes them)."""
    from companion.extensions import db
    from companion.storage import summaries
    from companion.storage.models import DeviceGame, GameRecord

    start = datetime(2020, 1, 1, 20, tzinfo=UTC)
    with app.app_context():
        for i, doc in enumerate(docs):
            record = GameRecord(game=doc["game"], variant=doc["variant"], document=doc, status="scored",
                                summary=summaries.make(doc, 1), created_at=start + timedelta(hours=18 * i),
                                updated_at=start)
            db.session.add(record)
            db.session.flush()
            db.session.add(DeviceGame(device=device, game_id=record.id))
        db.session.commit()


def main(sizes: tuple[int, ...] = SIZES, rounds: int = ROUNDS) -> list[dict]:
    app = bench_app()
    made = time.perf_counter()
    pool = documents(max(sizes))
    clients = {}
    for n in sizes:
        device = f"bench-device-{n:016d}"
        store(app, device, pool[:n])
        client = app.test_client()
        client.set_cookie("companion_device", device)
        clients[n] = client
    floor_client = app.test_client()
    print(f"{sum(sizes):,} parties enregistrées en {time.perf_counter() - made:.0f} s")

    def floor():
        floor_client.get("/_floor")

    results, per_game = [], {}
    for n in sizes:
        client = clients[n]
        expected = f"{n:,}".replace(",", "\u202f").encode()

        def page(client=client, expected=expected, n=n):
            response = client.get("/statistiques")
            assert response.status_code == 200, response.status_code
            assert expected in response.data or str(n).encode() in response.data

        start = time.process_time()
        page()  # summaries all current: nothing scored
        first = time.process_time() - start
        # Long enough slices for several pages each: rounds * 2 pages at least.
        rates = interleaved(page, floor, seconds=max(3.0, rounds * 2 * first * 1.2), rounds=rounds)
        results.append(report_both(f"statistiques de l'appareil, {n:,} parties", rates,
                                   "route triviale de l'app"))
        cpu_ms = 1000 / rates[2]
        per_game[n] = 1e6 / rates[2] / n
        print(f"  {n:,} parties : {cpu_ms:.0f} ms de CPU par page ({1000 / rates[0]:.0f} ms au mur), "
              f"{per_game[n]:.1f} µs de CPU par partie ; route triviale : {1e6 / rates[3]:.0f} µs de CPU")
    small, large = min(sizes), max(sizes)
    growth = per_game[large] / per_game[small]
    cpu_large = per_game[large] * large / 1000
    print(f"CPU par partie, {large:,} / {small:,} parties : {growth:.2f} (linéaire : 1,00 ; "
          f"objectif <= {LINEAR_MOST}) : {'atteint' if growth <= LINEAR_MOST else 'MANQUÉ'}")
    print(f"{large:,} parties : {cpu_large:.0f} ms de CPU (objectif <= {TARGET_CPU_MS} ms) : "
          f"{'atteint' if cpu_large <= TARGET_CPU_MS else 'MANQUÉ'}")
    return results


if __name__ == "__main__":
    main()
