"""Heavy pages beside the tables (issue 22): eight exports of a 5,000-game history at once, against a
real gunicorn (the repository's gunicorn.conf.py, SQLite) on loopback.

Run: `.venv/bin/python -m bench.heavy` (options: --games 5000 --exports 8 --seconds 15). One device
holds 5,000 scored games, restored as a club's export would be (each game's summary written then);
another phone keeps a 4-player Revive game it autosaves. Measured, in one run:

- alone: the trivial route (`/_floor`, bench/floor_app.py: the floor) and an autosave;
- with `--exports` clients downloading the CSV and the JSON export over and over (half each): the same
  two requests from one more client, p50/p95/p99 and their ratio to the floor alone; how long each
  export took; and the workers' resident memory (peak during the exports against their idle size);
- the statistics page of the 5,000 games, first visit and next.

Targets (issue 22): trivial route and autosave under 300 ms p95 during the exports; a worker's memory
under 2x its idle size. Every request goes to 127.0.0.1 and every wait is bounded.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench import servers
from bench.bench_stats import documents

ROOT = Path(__file__).resolve().parent.parent
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
DEVICE = "bench-heavy-device-000000000000"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def seed(database: str, instance: Path, n: int) -> tuple[str, str]:
    """The schema, `n` scored games in DEVICE's history (restored, as from a club's export), and
    one game for the autosaving phone; returns that game's edit token and the phone's device."""
    env = {**os.environ, "COMPANION_INSTANCE": str(instance), "DATABASE_URL": database}
    subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=300)
    os.environ.update({"COMPANION_INSTANCE": str(instance), "DATABASE_URL": database})
    from companion import create_app
    from companion.extensions import db
    from companion.outputs import exchange
    from companion.storage import store
    from companion.storage.models import DeviceGame

    app = create_app()
    start = datetime(2024, 1, 1, 20, tzinfo=UTC)
    docs = documents(n)
    incoming = [exchange.Incoming(f"{i:032x}", "scored", start + timedelta(hours=6 * i), start, [], doc)
                for i, doc in enumerate(docs)]
    phone = "bench-heavy-phone-0000000000000"
    with app.test_request_context("/"):
        exchange.restore(incoming, DEVICE)
        record = store.create("revive", "abyss", ["Maëlle", "Yanis", "Inès", "Hugo"],
                              ["#c0392b", "#2471a3", "#e0b422", "#3d8b4f"])
        db.session.add(DeviceGame(device=phone, game_id=record.id, can_edit=True))
        db.session.commit()
        return record.edit_token, phone


class Client:
    """One keep-alive connection to the server, with a device cookie."""

    def __init__(self, port: int, device: str):
        self.port, self.cookie = port, f"companion_device={device}"
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        headers = {"Cookie": self.cookie, **(headers or {})}
        try:
            self.conn.request(method, path, body=body, headers=headers)
            res = self.conn.getresponse()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            self.conn.request(method, path, body=body, headers=headers)
            res = self.conn.getresponse()
        size = 0
        while chunk := res.read(256 * 1024):
            size += len(chunk)
        return res.status, size, res


class Phone(Client):
    """The table's phone: autosaves one field of its game, as static/js/play/autosave.js does."""

    def __init__(self, port: int, device: str, token: str):
        super().__init__(port, device)
        self.token = token
        self.conn.request("GET", f"/g/{token}/", headers={"Cookie": self.cookie})
        res = self.conn.getresponse()
        page = res.read().decode()
        for cookie in res.headers.get_all("Set-Cookie") or []:
            if cookie.startswith("session="):
                self.cookie += "; " + cookie.split(";")[0]
        self.csrf = CSRF.search(page).group(1)
        self.version, self.value, self.used = 1, "", time.monotonic()

    def save(self) -> float:
        mine = str(int(self.value or 0) % 90 + 1)
        body = urllib.parse.urlencode({
            "csrf_token": self.csrf, "version": str(self.version),
            "changes": json.dumps({"players-0-track": [self.value, mine]})})
        if time.monotonic() - self.used > 3:  # the server closes a connection idle for 5 s (keepalive)
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        start = time.perf_counter()
        self.conn.request("POST", f"/g/{self.token}/save", body=body.encode(), headers={
            "Cookie": self.cookie, "Content-Type": "application/x-www-form-urlencoded"})
        res = self.conn.getresponse()
        answer = res.read()
        elapsed = time.perf_counter() - start
        self.used = time.monotonic()
        if res.status != 200:
            raise RuntimeError(f"autosave answered {res.status}: {answer[:300]!r}")
        self.version, self.value = json.loads(answer)["version"], mine
        return elapsed


def timed(client: Client, path: str) -> float:
    start = time.perf_counter()
    status, _, _ = client.request("GET", path)
    if status != 200:
        raise RuntimeError(f"{path} answered {status}")
    return time.perf_counter() - start


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def workers(master: int) -> list[int]:
    """The master's children, read from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            found.append(int(stat.parent.name))
    return sorted(found)


def probe(port: int, phone: Phone, seconds: float, floor: list, saves: list) -> None:
    """The tables meanwhile: the trivial route then an autosave, again and again."""
    client = Client(port, "bench-heavy-probe-0000000000000")
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        floor.append(timed(client, "/_floor"))
        saves.append(phone.save())
        time.sleep(0.05)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--exports", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="companion-heavy-"))
    database = f"sqlite:///{tmp / 'games.sqlite3'}"
    began = time.monotonic()
    token, phone_device = seed(database, tmp / "instance", args.games)
    print(f"{args.games} games restored in {time.monotonic() - began:.1f} s")
    port = free_port()
    env = {"COMPANION_INSTANCE": str(tmp / "instance"), "DATABASE_URL": database,
           "GUNICORN_ACCESS_LOG": "/dev/null", "GUNICORN_ERROR_LOG": str(tmp / "error.log")}
    results: dict = {}
    with servers.gunicorn("bench.floor_app:app()", port, env, ready="/_floor",
                          error_log=tmp / "error.log") as host:
        pids = workers(host.proc.pid)
        client = Client(port, DEVICE)
        phone = Phone(port, phone_device, token)
        for _ in range(3):  # every worker has served an export once: its idle size includes the code
            client.request("GET", "/parties/export.csv")
            client.request("GET", "/parties/export.json")
        floor_alone = [timed(client, "/_floor") for _ in range(200)]
        saves_alone = [phone.save() for _ in range(60)]
        time.sleep(1.0)
        idle = {pid: rss_kb(pid) for pid in pids}

        stop = threading.Event()
        exports: dict[str, list[float]] = {"CSV": [], "JSON": []}
        errors: list[str] = []

        def exporter(kind: str):
            mine = Client(port, DEVICE)
            path = "/parties/export.csv" if kind == "CSV" else "/parties/export.json"
            while not stop.is_set():
                try:
                    exports[kind].append(timed(mine, path))
                except Exception as exc:  # noqa: BLE001 - counted and reported
                    errors.append(f"{kind}: {exc}")

        peak = dict(idle)

        def sample():
            while not stop.is_set():
                for pid in pids:
                    peak[pid] = max(peak[pid], rss_kb(pid))
                time.sleep(0.05)

        threads = [threading.Thread(target=exporter, args=("CSV" if i % 2 == 0 else "JSON",), daemon=True)
                   for i in range(args.exports)]
        threads.append(threading.Thread(target=sample, daemon=True))
        for t in threads:
            t.start()
        time.sleep(1.0)  # every export under way
        floor_busy: list[float] = []
        saves_busy: list[float] = []
        probe(port, phone, args.seconds, floor_busy, saves_busy)
        stop.set()
        for t in threads:
            t.join(120)

        stats_first = timed(Client(port, DEVICE), "/statistiques")
        stats_next = percentile([timed(client, "/statistiques") for _ in range(5)], 0.5)

    floor = percentile(floor_alone, 0.5)

    def line(name, values):
        p50, p95, p99 = (percentile(values, q) * 1000 for q in (0.5, 0.95, 0.99))
        print(f"{name:<34} {len(values):>6}   {p50:7.1f} {p95:7.1f} {p99:7.1f}   "
              f"{p50 / (floor * 1000):7.1f} {p95 / (floor * 1000):7.1f}")
        return {"requests": len(values), "p50_ms": p50, "p95_ms": p95, "p99_ms": p99}

    csv_clients, json_clients = args.exports - args.exports // 2, args.exports // 2
    print(f"\n{args.exports} exports of {args.games} games at once ({csv_clients} CSV, {json_clients} JSON), "
          f"{args.seconds:.0f} s; 2 shared cores, client on the same machine")
    print(f"{'request':<34} {'n':>6}   {'p50':>7} {'p95':>7} {'p99':>7}   {'p50÷fl':>7} {'p95÷fl':>7}  (ms)")
    results["trivial alone"] = line("trivial route, alone (the floor)", floor_alone)
    results["autosave alone"] = line("autosave, alone", saves_alone)
    results["trivial busy"] = line("trivial route, during the exports", floor_busy)
    results["autosave busy"] = line("autosave, during the exports", saves_busy)
    results["CSV"] = line("CSV export (5,000 games)", exports["CSV"])
    results["JSON"] = line("JSON export (5,000 games)", exports["JSON"])
    print(f"statistics page, 5,000 games: first visit {stats_first * 1000:.0f} ms "
          f"({stats_first / floor:.0f}x the floor), next {stats_next * 1000:.0f} ms")
    for pid in pids:
        print(f"worker {pid}: {idle[pid] / 1024:.0f} MB idle, {peak[pid] / 1024:.0f} MB at most during the "
              f"exports ({peak[pid] / idle[pid]:.2f}x)")
    print(f"errors: {len(errors)}" + (f" ({errors[:3]})" if errors else ""))
    results.update(stats_first_ms=stats_first * 1000, stats_next_ms=stats_next * 1000,
                   memory={pid: (idle[pid], peak[pid]) for pid in pids}, errors=len(errors))
    return results


if __name__ == "__main__":
    main()
