"""One autosave as a phone sends it (a 4-player Revive + Call of the Abyss game, one field of one
player changed, as static/js/play/autosave.js posts it), against the app's trivial route in the same
run: CPU time (and wall time), and with `--instructions` the instructions each costs, counted by
valgrind (cachegrind, no cache simulation) as the difference between a warmed process that then
makes N calls and one that makes none.

Run: `.venv/bin/python -m bench.bench_autosave` (CPU; a few seconds), then
`.venv/bin/python -m bench.bench_autosave --instructions` (valgrind; a few minutes; `--elsewhere`: also
an autosave after another worker's save, a table's usual case with two workers).
Also timed alone: the engine scoring the saved document after one player's field changed, with each
player's part kept (companion/games/parts.py) and with nothing kept (a full rescoring).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
from urllib.parse import quote

from bench.bench_pages import bench_app, stored_game
from bench.common import interleaved, report_both

try:  # the store of players' parts (issue 33); absent before it, where every score is a full one
    from companion.games.parts import PARTS
except ImportError:  # pragma: no cover - measuring the code before it
    PARTS = None

FORM = "application/x-www-form-urlencoded"
VERSION = re.compile(rb'"version":(\d+)')


def setup():
    """The app, a stored game with its whole end state, and the two calls: an autosave of one field
    (player 0's track, a new value each time) and the trivial route."""
    app = bench_app()
    client = app.test_client()
    token, doc, first = stored_game(client)
    version = [first["version"]]
    held = {name: first["stored"].get(name, "") for name in ("players-0-track", "players-0-progress")}
    calls = [0]

    def autosave():
        """Player 0's track + 1 (0 after 500), and every 500th save their progress + 1 instead: the
        player's sub-document is never one the engine saw within its parts' store (`parts.SIZE`), as
        at a table where the same values seldom come back."""
        calls[0] += 1
        name = "players-0-progress" if calls[0] % 500 == 0 else "players-0-track"
        top = 100 if name.endswith("progress") else 500
        mine = str((int(held[name] or 0) + 1) % top)
        # the body as the page's script sends it (url-encoded, static/js/play/autosave.js), encoded
        # here in one step, and the answer read for its version alone: what the phone does is not
        # the server's cost (werkzeug's test client encoding a dict, and parsing the answer twice)
        changes = quote(json.dumps({name: [held[name], mine]}), safe="")
        body = f"version={version[0]}&changes={changes}&row_keys=%7B%7D&new_rows=%5B%5D&delta=1"
        response = client.post(f"/g/{token}/save", data=body, content_type=FORM)
        text = response.get_data()
        assert response.status_code == 200, text
        assert b'"totals":' in text  # the answer carries the new totals
        version[0], held[name] = int(VERSION.search(text).group(1)), mine

    def floor():
        return client.get("/_floor")

    return app, doc, autosave, floor


def another_workers_save(app):
    """Another worker's save as this process meets it (the table's case: two workers, four phones): the
    stored document changed in the database, one of players 1-3's track in turn, none of this
    process's copies of it. Its own work is not the save measured: `--elsewhere` counts it apart."""
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    connection, calls = sqlite3.connect(path, isolation_level=None), [0]

    def another():
        calls[0] += 1
        (key, text, version), = connection.execute(
            "SELECT id, document, version FROM games ORDER BY id DESC LIMIT 1").fetchall()
        document = json.loads(text)
        player = document["players"][1 + calls[0] % 3]
        player["track"] = (player.get("track") or 0) % 499 + 1
        connection.execute("UPDATE games SET document = ?, version = ? WHERE id = ? AND version = ?",
                           (json.dumps(document), version + 1, key, version))

    return another


def engine_calls(doc: dict):
    """The engine alone on the document an autosave of player 0's track leaves: parts kept, then
    nothing kept (each call a full rescoring)."""
    from companion import games

    state = {"n": 0}

    def changed() -> dict:  # a sub-document of player 0 not seen within the store's 1,024 parts
        state["n"] += 1
        player = {**doc["players"][0], "track": state["n"] % 500, "progress": state["n"] // 500 % 100}
        return {**doc, "players": [player, *doc["players"][1:]]}

    def kept():
        return games.score(changed())

    def full():
        if PARTS is not None:
            PARTS.clear()
        return games.score(changed())

    return kept, full


def cpu() -> None:
    app, doc, autosave, floor = setup()
    report_both("enregistrement automatique d'un champ (POST), 4 joueurs", interleaved(autosave, floor),
                "route triviale de l'application")
    kept, full = engine_calls(doc)
    report_both("moteur seul, un joueur changé, parts des autres gardées", interleaved(kept, floor),
                "route triviale de l'application")
    report_both("moteur seul, un joueur changé, tout recompté", interleaved(full, floor),
                "route triviale de l'application")


def count(what: str, n: int) -> None:
    """Warm up (the app, one autosave, one trivial request), then `n` calls of `what`: the process
    valgrind counts."""
    app, doc, autosave, floor = setup()
    another = another_workers_save(app)
    another()
    autosave()
    floor()
    call = {"autosave": autosave, "floor": floor, "none": lambda: None, "another": another,
            "after_another": lambda: (another(), autosave())}[what]
    for _ in range(n):
        call()


def instructions(n: int, samples: int = 3, elsewhere: bool = False) -> None:
    """Instructions per call, each the difference between N calls and none after the same warm-up;
    `samples` rounds, the autosave and the trivial route interleaved in each, and their median ratio.
    The three processes of a round share one hash seed (`PYTHONHASHSEED`, a new one each round): the
    start of a process moves by some 6 million instructions from one seed to another, which divided
    by N moved either count by 4 % (the trivial route read 1.46-1.56 M on the same code); with one
    seed the same process counts within a few hundred instructions, so the difference is the calls'.
    `elsewhere`: also an autosave after another worker's save (`another_workers_save`), counted as N of
    both less N of the other's alone."""
    def run(what: str, calls: int, seed: int) -> int:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, "-m", "bench.bench_autosave", "--count", what, str(calls)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": str(seed)}).stderr
        return int(re.search(r"I\s+refs:\s+([\d,]+)", out).group(1).replace(",", ""))

    ratios = []
    for _round in range(samples):
        seed = random.randrange(1, 2**32)
        base = run("none", 0, seed)
        each = {what: (run(what, n, seed) - base) / n for what in ("autosave", "floor")}
        ratios.append(each["autosave"] / each["floor"])
        after = ""
        if elsewhere:
            mine = (run("after_another", n, seed) - run("another", n, seed)) / n
            after = f" ; après celui d'un autre worker {mine:,.0f} (ratio {mine / each['floor']:.2f})"
        print(f"instructions par appel (valgrind, {n} appels, graine {seed}) : enregistrement automatique "
              f"{each['autosave']:,.0f} ; route triviale {each['floor']:,.0f} ; "
              f"ratio {ratios[-1]:.2f}{after}", flush=True)
    print(f"ratio médian sur {samples} tours : {statistics.median(ratios):.2f} "
          f"({min(ratios):.2f} à {max(ratios):.2f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instructions", type=int, nargs="?", const=200, metavar="N",
                        help="count instructions under valgrind (N calls each, default 200)")
    parser.add_argument("--samples", type=int, default=3, help="rounds of --instructions (median)")
    parser.add_argument("--elsewhere", action="store_true",
                        help="with --instructions: also an autosave after another worker's save")
    parser.add_argument("--count", nargs=2, metavar=("WHAT", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count:
        count(args.count[0], int(args.count[1]))
    elif args.instructions:
        instructions(args.instructions, args.samples, args.elsewhere)
    else:
        cpu()
