"""Restoring a club's export from the page (issue 22): 5,000 games, about 10 MB, posted as a phone's
form with CSRF on (Flask test client, SQLite, no network), against `json.loads` of the same file in
the same run (the floor: reading the file at all).

Run: `.venv/bin/python -m bench.bench_restore`. Measures the strict reading and checking of the file
(`exchange.parse`: every document validated as the app stores one) and the whole restore through the
page (upload, CSRF, parse, 5,000 inserts in one transaction), each on a fresh database.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import time
from pathlib import Path

from bench.bench_pages import bench_app
from bench.common import json_floor, per_second, report

EXAMPLES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
COLOURS = ["#c8372d", "#2f6fb3", "#e0b422", "#3d8b4f"]


def club_export(n: int = 5000) -> dict:
    """A club's export of `n` scored games of the three games (the shared example documents)."""
    docs = [json.loads((EXAMPLES / f).read_text(encoding="utf-8"))
            for f in ("rebirth-scotland.json", "reterra.json", "revive-abyss.json")]
    return {"format": "companion-export", "version": 1, "exported_at": "2026-11-25T20:00:00Z", "games": [
        {"id": secrets.token_hex(16), "status": "scored", "created_at": f"2026-01-01T20:{i % 60:02d}:00Z",
         "updated_at": "2026-01-02T20:00:00Z", "colours": COLOURS[:len(docs[i % 3]["players"])],
         "document": docs[i % 3]} for i in range(n)]}


def text_of(data: dict) -> bytes:
    """The file as a phone would hold it (pretty-printed: 5,000 games are then 10.6 MB)."""
    return json.dumps(data, ensure_ascii=False, indent=2).encode()


def restore_once(text: bytes) -> float:
    """Seconds for one restore through the page, on a fresh database, CSRF on."""
    app = bench_app()
    app.config["WTF_CSRF_ENABLED"] = True
    phone = app.test_client()
    phone.set_cookie("companion_device", "bench-device-000000000000")
    page = phone.get("/parties/importer").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    start = time.perf_counter()
    response = phone.post("/parties/importer", content_type="multipart/form-data",
                          data={"csrf_token": token, "file": (io.BytesIO(text), "club.json")})
    elapsed = time.perf_counter() - start
    assert response.status_code == 302, response.status_code
    return elapsed


def main() -> list[dict]:
    from companion import exchange

    text = text_of(club_export())
    print(f"fichier : {len(text) / 1e6:.1f} Mo, 5000 parties")
    floor = json_floor(text.decode(), seconds=3.0)
    results = [report("lecture stricte et contrôle (exchange.parse)", per_second(lambda: exchange.parse(text),
                                                                               seconds=3.0, min_runs=2),
                      "json.loads du même fichier", floor)]
    best = min(restore_once(text) for _ in range(2))
    results.append(report("restauration par la page (CSRF, 5000 insertions)", 1 / best,
                          "json.loads du même fichier", floor))
    print(f"restauration par la page : {best:.1f} s")
    return results


if __name__ == "__main__":
    json.dumps(main())
