"""Two phones racing on one game, 200 times, through the real pages over HTTP: lost edits (must be 0)
and false conflicts, and races per second beside a trivial Flask route served the same way.

Run: `.venv/bin/python -m bench.bench_races` (RACES=200 by default; DATABASE_URL for PostgreSQL).

Each race: a new game from the new-game page (CSRF on, each phone its own cookies); both phones open
the edit page; each changes 1 to 3 fields (Rebirth, 4 players), sometimes one the other changes too
(to another value, or the same), and sometimes both add a city (the same new row on both screens);
both send at the same instant (threads behind a barrier), each by
the autosave endpoint (`changes` JSON) or the no-JS form post ("Enregistrer", every field plus
`base_values`), chosen at random. A phone told of a conflict applies its entries ("Appliquer mes
saisies": the autosave resent with the other phone's values as base, or the conflict page posted
back). Then the stored game is read back through the edit page:
- lost edit: a field changed by one phone only that does not hold its value, or a field both changed
  that holds neither the value applied last;
- false conflict: a conflict reported on a field the other phone did not change to another value.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import re
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from app_helpers import posted  # noqa: E402 - what a browser without JS posts back, as the tests read it

NAMES = ["Éloïse", "Jules", "Inès", "Yanis"]
KEYS = ("track", "ports", "castles", "incomplete_icons", "gifts")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """One phone: its own cookies (device, CSRF session), plain HTTP like a browser."""

    def __init__(self, base: str):
        self.base = base
        cookies = urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        self.opener = urllib.request.build_opener(cookies, NoRedirect())

    def request(self, path: str, data: dict | None = None) -> tuple[int, str, dict]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base + path, data=body, headers={"Accept": "text/html"})
        try:
            with self.opener.open(req, timeout=30) as res:
                return res.status, res.read().decode(), dict(res.headers)
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(), dict(exc.headers)


def serve(app):
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def new_game(phone: Phone) -> str:
    status, html, _ = phone.request("/nouvelle?game=rebirth&variant=scotland")
    data = {"csrf_token": re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1),
            "once": re.search(r'name="once" type="hidden" value="([^"]+)"', html).group(1),
            "game": "rebirth", "variant": "scotland"}
    for i, name in enumerate(NAMES):
        data[f"players-{i}-name"] = name
    status, _, headers = phone.request("/nouvelle", data)
    assert status == 302, status
    return re.search(r"/g/([\w-]+)/", headers["Location"]).group(1)


def send(phone: Phone, token: str, page: dict, mine: dict[str, str], autosave: bool):
    """One save of `mine` (field -> value) from a page read earlier; returns (status, answer)."""
    if autosave:
        base = json.loads(page["base_values"])
        changes = {name: [base.get(name, ""), value] for name, value in mine.items()}
        added = ["cities-0"] if any(name.startswith("cities-0-") for name in mine) else []
        status, text, _ = phone.request(f"/g/{token}/save", {"csrf_token": page["csrf_token"],
                                                             "version": page["version"],
                                                             "changes": json.dumps(changes),
                                                             "new_rows": json.dumps(added)})
        return status, json.loads(text)
    status, html, _ = phone.request(f"/g/{token}/", page | mine | {"action": "save"})
    return status, html


def apply_mine(phone: Phone, token: str, page: dict, mine: dict[str, str], autosave: bool, answer):
    """"Appliquer mes saisies" after a conflict."""
    if autosave:
        stored = answer["stored"]
        base = json.loads(page["base_values"])
        changes = {name: [stored.get(name, "") if name in answer["theirs"] else base.get(name, ""), value]
                   for name, value in mine.items()}
        added = ["cities-0"] if any(name.startswith("cities-0-") for name in mine) else []
        status, text, _ = phone.request(f"/g/{token}/save", {"csrf_token": page["csrf_token"],
                                                             "version": str(answer["version"]),
                                                             "changes": json.dumps(changes),
                                                             "new_rows": json.dumps(added)})
        return status
    again = posted(answer)
    # the conflict page kept mine (a city this phone added may show at the next free row)
    assert all(again[name] == value for name, value in mine.items() if not name.startswith("cities-"))
    status, _, _ = phone.request(f"/g/{token}/", again | {"action": "save"})
    return status


def conflict_fields(answer, autosave: bool) -> set[str]:
    if autosave:
        return set(answer["theirs"])
    return set(re.findall(r'id="t-([^"]+)"', answer))


def race(base_url: str, rng: random.Random) -> dict:
    a, b = Phone(base_url), Phone(base_url)
    token = new_game(a)
    pages = [posted(a.request(f"/g/{token}/")[1]), posted(b.request(f"/g/{token}/")[1])]
    fields = [f"players-{i}-{key}" for i in range(4) for key in KEYS]
    picks = [rng.sample(fields, rng.randint(1, 3)), rng.sample(fields, rng.randint(1, 3))]
    if rng.random() < 0.35:  # sometimes the same field on both phones
        picks[1][0] = picks[0][0]
    mines = [{name: str(rng.randint(1, 8)) for name in pick} for pick in picks]  # within every bound
    cities = rng.random() < 0.2  # sometimes both phones add a city (the same new row on both screens)
    if cities:
        for k, mine in enumerate(mines):
            mine |= {"cities-0-size": str(k + 2), "cities-0-tiles-0-player": NAMES[k],
                     "cities-0-tiles-0-influence": str(k + 1)}
    if rng.random() < 0.3 and picks[1][0] == picks[0][0]:
        mines[1][picks[0][0]] = mines[0][picks[0][0]]  # ... sometimes to the same value
    modes = [rng.random() < 0.5, rng.random() < 0.5]
    barrier = threading.Barrier(2)
    answers: list = [None, None]

    def go(k: int, phone: Phone) -> None:
        barrier.wait()
        answers[k] = send(phone, token, pages[k], mines[k], modes[k])

    threads = [threading.Thread(target=go, args=(k, p)) for k, p in enumerate((a, b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out = {"conflicts": 0, "false_conflicts": 0, "lost": 0}
    applied_last = None
    for k, phone in enumerate((a, b)):
        status, answer = answers[k]
        if status == 409:
            out["conflicts"] += 1
            other = mines[1 - k]
            real = {n for n in mines[k] if n in other and other[n] != mines[k][n]
                    and not n.startswith("cities-")}  # two new cities are two rows, no conflict
            if not conflict_fields(answer, modes[k]) <= real or not real:
                out["false_conflicts"] += 1
            applied = apply_mine(phone, token, pages[k], mines[k], modes[k], answer)
            assert applied in (200, 302), (applied, modes[k], mines, conflict_fields(answer, modes[k]))
            applied_last = k
        else:
            assert status in (200, 302), (status, answer if isinstance(answer, dict) else answer[:300])
    final = posted(a.request(f"/g/{token}/")[1])
    if cities:  # both cities kept, whichever index each went to
        kept = {(final.get(f"cities-{c}-size"), final.get(f"cities-{c}-tiles-0-player")) for c in (0, 1)}
        out["lost"] += len({(str(k + 2), NAMES[k]) for k in (0, 1)} - kept)
        for mine in mines:
            for name in [n for n in mine if n.startswith("cities-")]:
                del mine[name]
    for name in set(mines[0]) | set(mines[1]):
        wanted = {mines[k][name] for k in (0, 1) if name in mines[k]}
        if len(wanted) > 1:  # both changed it, differently: a conflict, then the phone that applied
            wanted = {mines[applied_last][name]} if applied_last is not None else set()  # (none: lost)
        if final.get(name, "") not in wanted:
            out["lost"] += 1
    return out


def main() -> None:
    import logging

    from bench.common import spread

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
    races = int(os.environ.get("RACES", "200"))
    folder = Path(tempfile.mkdtemp(prefix="companion-races-"))
    os.environ.setdefault("COMPANION_INSTANCE", str(folder / "instance"))
    from flask import Flask

    from companion import create_app
    from companion.extensions import db

    config = {"WTF_CSRF_ENABLED": True, "RATELIMIT_ENABLED": False}  # every phone from one address
    if not os.environ.get("DATABASE_URL"):
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{folder / 'races.sqlite3'}"
    app = create_app(config)
    with app.app_context():
        db.create_all()
    server, url = serve(app)
    floor_app = Flask("floor")
    floor_app.add_url_rule("/", "index", lambda: "ok")
    floor_server, floor_url = serve(floor_app)
    # The races in ROUNDS slices, each just after a slice of the floor (interleaved: a busy moment of
    # the machine slows both alike); servers and phones run in this process, so its CPU time is
    # the whole work of both sides. Each slice's ratio: its time per race ÷ the floor's per request.
    rounds = max(3, int(os.environ.get("ROUNDS", "5")))
    try:
        floor_phone = Phone(floor_url)
        rng = random.Random(11)
        totals = {"conflicts": 0, "false_conflicts": 0, "lost": 0}
        walls, cpus, done, spent = [], [], 0, 0.0
        for k in range(rounds):
            n, start, cpu = 0, time.perf_counter(), time.process_time()
            while time.perf_counter() - start < 0.3 or n < 20:
                floor_phone.request("/")
                n += 1
            floor_wall, floor_cpu = (time.perf_counter() - start) / n, (time.process_time() - cpu) / n
            count = races // rounds + (1 if k < races % rounds else 0)
            start, cpu = time.perf_counter(), time.process_time()
            for _ in range(count):
                for key, value in race(url, rng).items():
                    totals[key] += value
            wall = time.perf_counter() - start
            walls.append(wall / count / floor_wall)
            cpus.append((time.process_time() - cpu) / count / floor_cpu)
            done, spent = done + count, spent + wall
    finally:
        server.shutdown()
        floor_server.shutdown()
    print(f"two-phone races through the pages: {races} races, lost edits {totals['lost']}, "
          f"conflicts {totals['conflicts']} (false: {totals['false_conflicts']})")
    print(f"races: {done / spent:,.1f}/s ; a race ÷ a trivial Flask route's request over HTTP, median of "
          f"{rounds} interleaved slices (min-max): wall {spread(walls)}, CPU {spread(cpus)} "
          "(a race: 1 new game, 3 page loads, 2-4 saves)")
    if totals["lost"]:
        raise SystemExit("lost edits: the save merge is broken")


if __name__ == "__main__":
    main()
