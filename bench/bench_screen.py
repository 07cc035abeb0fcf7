"""The table's screen (issue 31): what 50 screens asking "anything new?" every 3 seconds cost, against
a trivial route of the same app measured in the same run.

Run: `.venv/bin/python -m bench.bench_screen` (`--seconds 30` for the served part, `--no-server` to
skip it). Two parts, on a 4-player Revive + Call of the Abyss game:

1. In process (Flask test client, `common.interleaved`: short slices taken in turn with the floor,
   wall and CPU time): the screen's question when nothing changed (204: one query, the phones'
   folder read), the same after a change (200: the board drawn again, as JSON), the page itself,
   and a phone's step report. Then what 50 screens at one question every 3 s take of one core.
2. Served (the repository's gunicorn.conf.py on loopback, SQLite): 50 screens, each its own
   keep-alive connection, ask every 3 s for `--seconds` while a phone changes the game every 5 s
   and its step every 7 s (written the way the app writes them, from this process), beside 50
   clients asking the trivial route at the same pace. From gunicorn's access log: each route's
   CPU time per request as the app measured it (`companion.service_cpu_us`, the working thread's),
   the server's time, and the ratio to the floor; and every screen must end on the last version.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench.bench_revive import documents
from bench.common import interleaved, report_both

SCREENS = 50
EVERY = 3.0  # seconds between two questions of one screen (companion/views/screen.py EVERY)
DOC = next(iter(documents().values()))
FLOOR = "route triviale de l'application"


def make_game(app) -> tuple[str, str, int]:
    """A 4-player game with its whole end state stored: (edit token, view token, uid)."""
    from companion.extensions import db
    from companion.storage import store

    with app.app_context():
        names = [p["name"] for p in DOC["players"]]
        record = store.create("revive", DOC["variant"], names, ["#c8372d", "#2f6fb3", "#e3b52a", "#3d8b4f"])
        db.session.commit()
        record = store.save(record, DOC, record.version)
        return record.edit_token, record.view_token, record.uid


def change(app, token: str, k: int) -> None:
    """A phone's save, as the app writes it: the first player's track moved on (a new version)."""
    from companion.storage import store

    with app.app_context():
        record = store.by_edit_token(token)
        document = {**record.document, "players": [dict(p) for p in record.document["players"]]}
        document["players"][0]["track"] = k % 90
        store.save(record, document, record.version)


def in_process() -> list[dict]:
    from bench.bench_pages import bench_app

    app = bench_app()
    client = app.test_client()
    edit, view, uid = make_game(app)
    for k, step in enumerate(("table", "joueur-2", "joueur-3")):  # three phones on their steps
        client.set_cookie("companion_device", f"device-{k:02d}-xxxxxxxxxxxxxxxxx", domain="localhost")
        client.post(f"/g/{edit}/etape", data={"step": step, "at": "1"})
    page = client.get(f"/r/{view}/ecran").get_data(as_text=True)
    held = re.search(r'data-version="([^"]+)"', page).group(1)

    def unchanged():
        response = client.get(f"/r/{view}/ecran/etat?version={held}")
        assert response.status_code == 204, response.status_code

    def changed():  # a version the screen does not hold: the board drawn again
        response = client.get(f"/r/{view}/ecran/etat?version=0")
        assert response.status_code == 200, response.status_code

    at = [1]

    def step():
        at[0] += 1
        response = client.post(f"/g/{edit}/etape", data={"step": "joueur-1", "at": str(at[0])})
        assert response.status_code == 204, response.status_code

    def floor():
        return client.get("/_floor")

    results, unchanged_rates = [], None
    for label, fn in (("question d'un écran, rien de nouveau (204)", unchanged),
                      ("question d'un écran après un changement (200, tableau redessiné)", changed),
                      ("page de l'écran (GET)", lambda: client.get(f"/r/{view}/ecran")),
                      ("étape d'un téléphone (POST /etape)", step)):
        rates = interleaved(fn, floor)
        unchanged_rates = unchanged_rates or rates
        results.append(report_both(f"écran de la table : {label}, 4 joueurs", rates, FLOOR))
    # 50 screens, one question every 3 s: the share of one core their questions take (CPU time)
    asked = SCREENS / EVERY
    cpu_rate, cpu_floor = unchanged_rates[2], unchanged_rates[3]
    print(f"{SCREENS} écrans, une question toutes les {EVERY:.0f} s ({asked:.1f}/s) : "
          f"{100 * asked / cpu_rate:.2f} % d'un cœur en temps CPU "
          f"(la route triviale au même rythme : {100 * asked / cpu_floor:.2f} %)")
    return results


# --------------------------------------------------------------------------- served


def free_port() -> int:
    """A free loopback port (bench.load has one too, but importing it patches threads for Locust)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu_of(process_group: int) -> float:
    """CPU seconds (user + system) of every process of a group (gunicorn's master and workers)."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == process_group:  # pgrp
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


class Asker(threading.Thread):
    """One screen (or one floor client): its own keep-alive connection, one question every EVERY
    seconds, started at its own offset; keeps the version it last got, as static/js/screen.js."""

    def __init__(self, host: str, path: str, start: float, until: float, version: str | None):
        super().__init__(daemon=True)
        self.host, self.path, self.start_at, self.until, self.version = host, path, start, until, version
        self.errors = 0
        self.changes = 0

    def run(self) -> None:
        parts = urlsplit(self.host)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        next_at = self.start_at
        while next_at < self.until:
            time.sleep(max(0.0, next_at - time.monotonic()))
            path = self.path if self.version is None else f"{self.path}?version={self.version}"
            try:
                connection.request("GET", path, headers={"Accept": "application/json"})
                response = connection.getresponse()
                body = response.read()
                if response.status == 200 and self.version is not None:
                    import json

                    self.version = json.loads(body)["version"]
                    self.changes += 1
                elif response.status not in (200, 204):
                    self.errors += 1
            except (OSError, http.client.HTTPException):
                self.errors += 1
                connection.close()
                connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
            next_at += EVERY
        connection.close()


def served(seconds: float) -> dict:
    import subprocess

    from bench import servers
    from companion import create_app
    from companion.storage import phones

    tmp = Path(tempfile.mkdtemp(prefix="companion-screen-"))
    database = f"sqlite:///{tmp / 'bench.sqlite3'}"
    env = {**os.environ, "COMPANION_INSTANCE": str(tmp / "instance"), "DATABASE_URL": database}
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"], cwd=root, env=env,
                   check=True, capture_output=True, timeout=120)
    os.environ.update({"COMPANION_INSTANCE": env["COMPANION_INSTANCE"], "DATABASE_URL": database})
    app = create_app({"SQLALCHEMY_DATABASE_URI": database})
    edit, view, uid = make_game(app)
    steps_root = Path(env["COMPANION_INSTANCE"]) / "steps"
    log, errors = tmp / "access.log", tmp / "error.log"
    args = ("--access-logfile", str(log), "--error-logfile", str(errors), "--access-logformat",
            '"%(r)s" %(s)s %(D)s %({companion.service_us}e)s %({companion.service_cpu_us}e)s')
    with servers.gunicorn("bench.floor_app:app()", free_port(), env, args, "/_floor", errors) as host:
        with urllib_open(f"{host}/r/{view}/ecran") as page:
            held = re.search(r'data-version="([^"]+)"', page).group(1)
        begin = time.monotonic() + 1.0
        until = begin + seconds
        askers = [Asker(host, f"/r/{view}/ecran/etat", begin + EVERY * k / SCREENS, until, held)
                  for k in range(SCREENS)]
        askers += [Asker(host, "/_floor", begin + EVERY * (k + 0.5) / SCREENS, until, None)
                   for k in range(SCREENS)]
        group = os.getpgid(host.proc.pid)
        cpu_before = _cpu_of(group)
        for asker in askers:
            asker.start()
        k, moved, next_save, next_step = 0, 0, begin + 5, begin + 7
        while time.monotonic() < until - 2 * EVERY:  # the last change leaves every screen time to see it
            time.sleep(0.05)
            now = time.monotonic()
            if now >= next_save:
                k += 1
                change(app, edit, k)
                next_save += 5
            if now >= next_step:
                phones.tell(steps_root, uid, "bench-phone-xxxxxxxxxxxx", f"joueur-{1 + k % 4}",
                            int(time.time() * 1000))
                next_step += 7
                moved += 1
        for asker in askers:
            asker.join(seconds + 60)
        cpu = _cpu_of(group) - cpu_before
        with urllib_open(f"{host}/r/{view}/ecran") as page:
            final = re.search(r'data-version="([^"]+)"', page).group(1)
    screens = askers[:SCREENS]
    stale = [a for a in screens if a.version != final]
    lines = [line for line in log.read_text(errors="replace").splitlines()]
    routes = {"question, rien de nouveau (204)": [], "question, changement (200)": [], "route triviale": []}
    times = {name: [] for name in routes}
    for line in lines:
        match = re.match(r'"(\S+) (\S+) [^"]*" (\d+) (\d+) (\d+|-) (\d+|-)$', line.strip())
        if not match or match.group(6) == "-":
            continue
        path, status = match.group(2), match.group(3)
        name = ("route triviale" if path.startswith("/_floor") else
                "question, rien de nouveau (204)" if "/ecran/etat" in path and status == "204" else
                "question, changement (200)" if "/ecran/etat" in path and status == "200" else None)
        if name:
            routes[name].append(int(match.group(6)) / 1000)
            times[name].append(int(match.group(4)) / 1000)
    floor = statistics.median(routes["route triviale"])
    print(f"\nServi (gunicorn, SQLite), {SCREENS} écrans + {SCREENS} clients de la route triviale, "
          f"une question toutes les {EVERY:.0f} s chacun, {seconds:.0f} s, {k} enregistrements et "
          f"{moved} étapes d'un téléphone :")
    for name, values in routes.items():
        if not values:
            continue
        p50, ordered = statistics.median(values), sorted(times[name])
        print(f"  {name} : {len(values)} requêtes ; temps CPU médian {p50:.3f} ms "
              f"(ratio à la route triviale : {p50 / floor:.1f}) ; temps serveur p50 "
              f"{statistics.median(ordered):.1f} ms, p95 {ordered[int(0.95 * len(ordered))]:.1f} ms")
    print(f"  CPU de gunicorn pendant la mesure : {cpu:.2f} s pour {seconds:.0f} s "
          f"({100 * cpu / seconds:.1f} % d'un cœur, les deux groupes de clients ensemble)")
    print(f"  erreurs : {sum(a.errors for a in askers)} ; "
          f"écrans restés sur une version ancienne : {len(stale)}")
    return {"routes": {n: statistics.median(v) for n, v in routes.items() if v}, "floor": floor, "cpu": cpu,
            "stale": len(stale), "errors": sum(a.errors for a in askers)}


class urllib_open:  # noqa: N801 - used as a function
    """The text of a page of the local server."""

    def __init__(self, url: str):
        import urllib.request

        self.response = urllib.request.urlopen(url, timeout=30)  # noqa: S310 - loopback

    def __enter__(self) -> str:
        return self.response.read().decode()

    def __exit__(self, *exc) -> None:
        self.response.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="the served part's length")
    parser.add_argument("--no-server", action="store_true", help="only the in-process part")
    options = parser.parse_args()
    in_process()
    if not options.no_server:
        served(options.seconds)
