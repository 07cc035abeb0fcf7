"""Restoring a club's export from the page (issues 22 and 30): 10,000 games, posted as a phone's
form with CSRF on (Flask test client, SQLite, no network), against `json.loads` of the same file in
the same run (the floor: reading the file at all), in CPU time (this process's, the restore's
thread included) beside wall time. Goal (issue 30): the whole restore within 20× the floor.

Run: `.venv/bin/python -m bench.bench_restore`. Measures the strict reading and checking of the file
(`exchange.parse`: every document validated as the app stores one, and its summary made) and the
whole restore through the page (upload, CSRF, the background job, its inserts), each restore on a
fresh database.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import time
from pathlib import Path

from bench.bench_pages import bench_app

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


def export_text(data: dict) -> bytes:
    """The file as the app's export writes it (a game per line, `exchange.json_chunks`): 10,000
    games are then 9 MB, under the page's 16 MB."""
    head = {k: v for k, v in data.items() if k != "games"}
    lines = ",\n".join("  " + json.dumps(g, ensure_ascii=False) for g in data["games"])
    return (json.dumps(head, ensure_ascii=False)[:-1] + ', "games": [\n' + lines + "\n ]\n}\n").encode()


def restore_once(text: bytes) -> tuple[float, float]:
    """(wall, CPU) seconds for one restore through the page, on a fresh database, CSRF on: from the
    POST to the answer that says what was added (the page waits for the restore's thread)."""
    app = bench_app()
    app.config["WTF_CSRF_ENABLED"] = True
    app.config["RESTORE_WAIT_SECONDS"] = 600
    phone = app.test_client()
    phone.set_cookie("companion_device", "bench-device-000000000000")
    page = phone.get("/parties/importer").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    start, cpu = time.perf_counter(), time.process_time()
    response = phone.post("/parties/importer", content_type="multipart/form-data",
                          data={"csrf_token": token, "file": (io.BytesIO(text), "club.json")})
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert response.status_code == 302, response.status_code
    return wall, cpu


def timed(fn) -> tuple[float, float]:
    """(wall, CPU) seconds of one call of `fn` (a restore returns its own)."""
    start, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out if isinstance(out, tuple) else (time.perf_counter() - start, time.process_time() - cpu)


def main(n: int = 10_000, rounds: int = 3) -> list[dict]:
    """`rounds` rounds (3 at least), each measuring the floor (`json.loads` of the file) just before
    each candidate: every ratio is the median of the rounds' with their spread (min-max)."""
    import statistics

    from bench.common import MIN_ROUNDS, spread
    from companion.outputs import exchange

    rounds = max(rounds, MIN_ROUNDS)
    text = export_text(club_export(n))
    assert len(json.loads(text)["games"]) == n
    print(f"fichier : {len(text) / 1e6:.1f} Mo, {n} parties ; {rounds} tours, le plancher (json.loads du "
          "même fichier) mesuré juste avant chaque mesure")
    names = ("lecture stricte et contrôle (exchange.parse)",
             f"restauration par la page ({n} parties, CSRF, en arrière-plan)")
    candidates = (lambda: exchange.parse(text), lambda: restore_once(text))
    samples: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in names}
    for _ in range(rounds):
        for name, fn in zip(names, candidates, strict=True):
            floor_wall, floor_cpu = timed(lambda: json.loads(text))
            wall, cpu = timed(fn)
            samples[name].append((wall, cpu, wall / floor_wall, cpu / floor_cpu))
    results = []
    for name in names:
        walls, cpus = [s[0] for s in samples[name]], [s[1] for s in samples[name]]
        ratios, cpu_ratios = [s[2] for s in samples[name]], [s[3] for s in samples[name]]
        print(f"{name} : {statistics.median(walls):.2f} s ; CPU {statistics.median(cpus):.2f} s ; rapport au "
              f"plancher, médiane (min-max) : {spread(ratios)}× (mur), {spread(cpu_ratios)}× (CPU)")
        results.append({"name": name, "wall": statistics.median(walls), "cpu": statistics.median(cpus),
                        "ratio": statistics.median(ratios), "cpu_ratio": statistics.median(cpu_ratios)})
    return results


if __name__ == "__main__":
    json.dumps(main())
