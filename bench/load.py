"""Load benchmark: a real gunicorn (the repository's gunicorn.conf.py) on loopback, driven by Locust.

Run: `.venv/bin/python -m bench.load` (options: --users 20 50 --seconds 30 --databases sqlite postgresql).
Headless and bounded: each phase runs a fixed number of users for a fixed time, the script starts
and stops its own gunicorn (and a throw-away PostgreSQL server when Debian's `initdb` is present),
and every request goes to 127.0.0.1.

Each user is one table's phone on a 4-player Revive + Call of the Abyss game: the edit page,
autosave as the page sends it (the fields changed since its last answer, each with its base, and
the version it last got; its own game: every save must succeed), results, the device's history,
the API's score, the PDF sheet of a finished game (~3 %, served from the sheet cache after its
first render, which happens before measuring), and `/_floor`, a trivial route of
the same app (bench/floor_app.py) as the floor. Reported per route: requests, errors, p50/p95/p99 as
the client saw them (Locust), as gunicorn measured them (access log: server time, the wait for one
of the app's working slots included) and the service time (working only, companion.web.limits), and the
ratio of each route's service-time p50 to the floor's. At the end every game is read back: the stored
version and value must be the last acknowledged save (0 lost saves).
"""

from __future__ import annotations

import argparse
import contextlib
import html
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import gevent
import locust
from locust import FastHttpUser, between, task
from locust.env import Environment

from bench import servers
from bench.bench_pages import form_fields
from bench.bench_revive import documents
from bench.common import held_now

ROOT = Path(__file__).resolve().parent.parent
DOC = next(iter(documents().values()))
NAMES = [p["name"] for p in DOC["players"]]
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
TOKEN = re.compile(r"/g/([\w-]+)/")
VIEW = re.compile(r"/r/([\w-]+)/")
ROUTES = [  # access-log path (tokens masked) -> route name
    (re.compile(r"^GET /g/[^/]+/ "), "edit page"),
    (re.compile(r"^POST /g/[^/]+/save "), "autosave"),
    (re.compile(r"^GET /g/[^/]+/resultats "), "results"),
    (re.compile(r"^GET /parties "), "history"),
    (re.compile(r"^POST /api/v1/score "), "API score"),
    (re.compile(r"^GET /r/[^/]+/sheet.pdf "), "PDF (cached)"),
    (re.compile(r"^GET /_floor "), "trivial route"),
]
ORDER = [name for _, name in ROUTES]


def input_value(html: str, name: str) -> str:
    tag = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', html)
    # the lean edit page writes a JSON value between single quotes (companion/views/field_html.py)
    value = re.search(r"""value=(?:"([^"]*)"|'([^']*)')""", tag.group(0)) if tag else None
    return (value.group(1) if value.group(1) is not None else value.group(2)) if value else ""


# --------------------------------------------------------------------------- the users


class Table(FastHttpUser):
    """One phone scoring one game; `games` collects (edit token, last acknowledged save)."""

    wait_time = between(0.05, 0.3)
    games: list = []
    ready = 0
    seats = 0  # tables started so far: each gets players of its own

    def players(self) -> list[str]:
        """This table's names: every table its own (the same names everywhere would make every
        table's game the same document, and the caches keyed by a document's text would serve
        one table what another computed: a flattering figure)."""
        return [f"{name} {self.table}" for name in NAMES]

    def new_game(self) -> tuple[str, str]:
        page = self.client.get("/nouvelle?game=revive&variant=abyss", name="(setup)")
        data = {"csrf_token": CSRF.search(page.text).group(1), "game": "revive", "variant": "abyss"}
        data.update({f"players-{i}-name": n for i, n in enumerate(self.players())})
        made = self.client.post("/nouvelle", data=data, allow_redirects=False, name="(setup)")
        token = TOKEN.search(made.headers["Location"]).group(1)
        edit = self.client.get(f"/g/{token}/", name="(setup)")
        self.base = json.loads(html.unescape(input_value(edit.text, "base_values")))  # as the page has it
        return token, CSRF.search(edit.text).group(1)

    def on_start(self):
        try:
            self.setup()
        finally:
            Table.ready += 1

    def setup(self):
        Table.seats += 1
        self.table = Table.seats
        # The finished game first: a new game asked again with the same players while the first is
        # untouched opens that one (issue 11), so the table's own game is made once this one is saved.
        finished, csrf = self.new_game()
        saved = self.client.post(f"/g/{finished}/save", data={**form_fields(DOC, 1), "csrf_token": csrf},
                                 name="(setup)")
        assert saved.status_code == 200, saved.text
        results = self.client.get(f"/g/{finished}/resultats", name="(setup)")
        self.view = VIEW.search(results.text).group(1)
        self.client.get(f"/r/{self.view}/sheet.pdf", name="(setup: first PDF render)")
        self.token, self.csrf = self.new_game()  # sets self.base: the values its page was rendered with
        self.version, self.saves, self.acked = 1, 0, None
        self.record = {"token": self.token, "acked": None, "pending": None}
        Table.games.append(self.record)

    @task(20)
    def edit_page(self):
        self.client.get(f"/g/{self.token}/", name="edit page")

    @task(40)
    def autosave(self):
        """As static/js/play/autosave.js saves: the fields this phone changed since the values it was last
        given (`stored` of the previous answer), each with that base: the whole end state at the
        first save, then the one field edited since."""
        self.saves += 1
        track = self.saves % 90
        # never a page-only switch (data-local: play.js does not send it; `card_mode` was sent with
        # every save here, which took every autosave through the form)
        if self.saves == 1:
            wanted = {k: v for k, v in form_fields(DOC, self.version).items()
                      if k not in ("version", "card_mode")}
        else:
            # Only the field edited since: comparing the whole end state with `stored` again would
            # send, at every save, each player's own card line, which the stored game keeps as the
            # table's shared card (not as those fields): a dozen changes no phone makes, through the
            # form (they decide how the page shows the card).
            wanted = {}
        wanted["players-0-track"] = str(track)
        changes = {k: [self.base.get(k, ""), v] for k, v in wanted.items() if self.base.get(k, "") != v}
        data = {"csrf_token": self.csrf, "version": str(self.version),
                "changes": json.dumps(changes), "new_rows": "[]", "delta": "1"}  # only what changed
        # Sent but not yet answered: when the run stops here, the server may hold it or not.
        self.record["pending"] = (self.version + 1, str(track))
        with self.client.post(f"/g/{self.token}/save", data=data, name="autosave",
                              catch_response=True) as res:
            if res.status_code != 200:
                res.failure(f"{res.status_code}: {res.text[:200]}")
                return
            answer = res.json()
            self.version, self.base = answer["version"], held_now(self.base, answer)
            self.record["acked"], self.record["pending"] = (self.version, str(track)), None

    @task(10)
    def results(self):
        self.client.get(f"/g/{self.token}/resultats", name="results")

    @task(5)
    def history(self):
        self.client.get("/parties", name="history")

    @task(10)
    def api_score(self):
        self.client.post("/api/v1/score", json=DOC, name="API score")

    @task(3)
    def pdf(self):
        self.client.get(f"/r/{self.view}/sheet.pdf", name="PDF (cached)")

    @task(12)
    def floor(self):
        self.client.get("/_floor", name="trivial route")


# --------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def gunicorn(database_url: str, tmp: Path, max_rss: int | None = None):
    """The app (with its floor route) under the repository's gunicorn.conf.py; yields (URL, access
    log); the URL's `proc` is the master. `max_rss`: its WORKER_MAX_RSS_MB (None: the environment's
    or the default)."""
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp / "instance"), "DATABASE_URL": database_url}
    if max_rss is not None:
        env["WORKER_MAX_RSS_MB"] = str(max_rss)
    subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=120)
    log, errors = tmp / "access.log", tmp / "error.log"
    args = ("--access-logfile", str(log), "--error-logfile", str(errors),
            "--access-logformat",
            '"%(r)s" %(s)s %(D)s %({companion.service_us}e)s %({companion.service_cpu_us}e)s '
            '%({bench.run_queue_us}e)s')
    with servers.gunicorn("bench.floor_app:app()", free_port(), env, args, "/_floor", errors) as host:
        yield host, log


# --------------------------------------------------------------------------- workers' memory


def workers_of(master: int) -> list[int]:
    """The gunicorn master's worker processes (Linux /proc)."""
    try:
        return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def resident_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        return None
    return None


def sample_memory(master: int, every: float, into: list) -> None:
    """Every `every` seconds: (seconds since start, {worker pid: resident MB}), until killed."""
    start = time.monotonic()
    while True:
        sizes = {pid: mb for pid in workers_of(master) if (mb := resident_mb(pid)) is not None}
        into.append((time.monotonic() - start, sizes))
        gevent.sleep(every)


def show_memory(samples: list, width: int = 12) -> None:
    """The workers' resident sizes over the phase, `width` points, and the recycled workers."""
    if not samples:
        print("memory: no sample (no /proc?)")
        return
    step = max(1, len(samples) // width)
    points = samples[::step] + ([samples[-1]] if (len(samples) - 1) % step else [])
    print("workers' resident MB (t s: each worker's MB):")
    print("  " + " | ".join(f"{t:.0f}s: {'/'.join(f'{mb:.0f}' for mb in sizes.values())}"
                            for t, sizes in points))
    seen = [pid for _, sizes in samples for pid in sizes]
    first = set(samples[0][1])
    fresh = sorted(set(seen) - first)
    print(f"  workers at the start {len(first)}, started during the phase (recycled ones replaced): "
          f"{len(fresh)}")


# --------------------------------------------------------------------------- a phase


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def server_times(log: Path, offset: int, queued: dict | None = None) -> tuple[dict[str, list[float]], ...]:
    """For each request logged after `offset`, by route: the server time (ms, from the request read
    to the response written, waiting for a slot included), the service time (ms, working only) and
    its CPU time (ms, the working thread's: what the other jobs of a shared machine inflate least);
    into `queued`, when given, its thread's time waiting for a core (ms, bench/floor_app.py)."""
    times: dict[str, list[float]] = {name: [] for name in ORDER}
    service: dict[str, list[float]] = {name: [] for name in ORDER}
    cpu: dict[str, list[float]] = {name: [] for name in ORDER}
    with log.open(encoding="utf-8", errors="replace") as fh:
        fh.seek(offset)
        for line in fh:
            match = re.match(r'"(.*)" (\d+) (\d+) (\d+|-) (\d+|-)(?: (\d+|-))?$', line.strip())
            if not match:
                continue
            for pattern, name in ROUTES:
                if pattern.match(match.group(1)):
                    times[name].append(int(match.group(3)) / 1000)
                    if match.group(4) != "-":
                        service[name].append(int(match.group(4)) / 1000)
                    if match.group(5) != "-":
                        cpu[name].append(int(match.group(5)) / 1000)
                    if queued is not None and match.group(6) not in (None, "-"):
                        queued.setdefault(name, []).append(int(match.group(6)) / 1000)
                    break
    return times, service, cpu


def stored(host: str, token: str) -> tuple[int, str]:
    with urllib.request.urlopen(f"{host}/g/{token}/", timeout=30) as res:  # noqa: S310 - loopback
        html = res.read().decode()
    return int(input_value(html, "version")), input_value(html, "players-0-track")


def phase(host: str, log: Path, users: int, seconds: float, master: int | None = None) -> dict:
    Table.games, Table.ready = [], 0
    env = Environment(user_classes=[Table], host=host)
    runner = env.create_local_runner()
    memory: list = []  # from the tables' arrival on: their setup is where a fresh worker grows most
    sampler = gevent.spawn(sample_memory, master, 1.0, memory) if master else None
    runner.start(users, spawn_rate=10)
    deadline = time.monotonic() + 120
    while Table.ready < users and time.monotonic() < deadline:
        gevent.sleep(0.2)
    gevent.sleep(1.0)
    setup_errors = env.stats.total.num_failures + len(env.runner.exceptions)
    env.stats.reset_all()
    offset = log.stat().st_size
    gevent.sleep(seconds)
    if sampler is not None:
        sampler.kill()
    runner.stop()
    runner.quit()
    gevent.sleep(0.5)
    served, working, cpu = server_times(log, offset)
    routes = {}
    for name in ORDER:
        entry = env.stats.get(name, "POST" if name in ("autosave", "API score") else "GET")
        routes[name] = {
            "requests": entry.num_requests, "errors": entry.num_failures,
            "client": [entry.get_response_time_percentile(q) for q in (0.5, 0.95, 0.99)],
            "server": [percentile(served[name], q) for q in (0.5, 0.95, 0.99)],
            "service": [percentile(working[name], q) for q in (0.5, 0.95, 0.99)],
            "cpu": [percentile(cpu[name], q) for q in (0.5, 0.95, 0.99)],
        }
    floor = routes["trivial route"]["service"][0]
    floor_cpu = routes["trivial route"]["cpu"][0]
    for data in routes.values():
        data["ratio"] = data["service"][0] / floor if floor else float("nan")
        data["cpu_ratio"] = data["cpu"][0] / floor_cpu if floor_cpu else float("nan")
    # A save is lost when the server holds neither the last acknowledged one nor the one in flight.
    lost = 0
    for game in Table.games:
        if game["acked"] is not None and stored(host, game["token"]) not in (game["acked"], game["pending"]):
            lost += 1
    total = env.stats.total
    return {"users": users, "seconds": seconds, "routes": routes, "lost_saves": lost,
            "load_average": os.getloadavg(),
            "saves_checked": sum(1 for g in Table.games if g["acked"]),
            "requests": total.num_requests, "errors": total.num_failures, "setup_errors": setup_errors,
            "users_started": len(Table.games), "memory": memory,
            "rps": total.num_requests / seconds}


def show(database: str, result: dict) -> None:
    print(f"\n{database}, {result['users']} users, {result['seconds']:.0f} s: {result['rps']:.0f} req/s, "
          f"{result['errors']} errors (+{result['setup_errors']} while {result['users_started']} tables "
          f"set up), {result['lost_saves']} lost saves (of {result['saves_checked']} games checked); "
          f"load average at the end {' '.join(f'{v:.2f}' for v in result['load_average'])}")
    print(f"{'route':<15} {'requests':>8} {'errors':>6}   {'client p50/p95/p99 ms':>22}   "
          f"{'server p50/p95/p99 ms':>22}   {'service p50/p95/p99 ms':>22}   {'service p50/floor':>17}   "
          f"{'CPU p50/p95/p99 ms':>19}   {'CPU p50/floor':>13}")
    for name, r in result["routes"].items():
        client = "/".join(f"{v:.0f}" for v in r["client"])
        server = "/".join(f"{v:.0f}" for v in r["server"])
        service = "/".join(f"{v:.1f}" for v in r["service"])
        cpu = "/".join(f"{v:.1f}" for v in r["cpu"])
        print(f"{name:<15} {r['requests']:>8} {r['errors']:>6}   {client:>22}   {server:>22}   "
              f"{service:>22}   {r['ratio']:>16.1f}x   {cpu:>19}   {r['cpu_ratio']:>12.1f}x")
    show_memory(result.get("memory", []))


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, nargs="+", default=[20, 50])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--databases", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--max-rss", type=int, help="the server's WORKER_MAX_RSS_MB (0: never recycled)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the server's logs and database")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the servers on the way out
    locust.log.setup_logging("WARNING")
    results = []
    for database in args.databases:
        tmp = Path(tempfile.mkdtemp(prefix="companion-load-"))
        try:
            with contextlib.ExitStack() as stack:
                if database == "postgresql":
                    if servers.initdb() is None:
                        print("\npostgresql: initdb not found, skipped")
                        continue
                    url = stack.enter_context(servers.postgresql(5497, "-c max_connections=200"))
                else:
                    url = f"sqlite:///{tmp / 'load.sqlite3'}"
                host, log = stack.enter_context(gunicorn(url, tmp, args.max_rss))
                for users in args.users:
                    result = {"database": database, **phase(host, log, users, args.seconds, host.proc.pid)}
                    show(database, result)
                    results.append(result)
        finally:
            if args.keep:
                print(f"logs and database kept in {tmp}")
            else:
                shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
