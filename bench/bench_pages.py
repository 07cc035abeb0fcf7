"""The play pages: a 4-player Revive + Call of the Abyss game, requests per second through the Flask
test client (no network), against a trivial Flask route served the same way in the same run.

Run: `.venv/bin/python -m bench.bench_pages`. Each part is measured in short slices taken in turn
with the floor's (`common.interleaved`), in wall time and in CPU time; the floor is the app's own
trivial route (its hooks included). Measures the edit page (about 130 fields; as it is, and
compressed as a phone asks for it), one autosave as the page sends it (one field changed: laid on
the stored document, the engine, the versioned UPDATE on SQLite), the results page (read again,
from memory, and a version's first reading, drawn) and the filled sheet read from its cache.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from flask import Flask

from bench.bench_revive import documents
from bench.common import interleaved, report_both


def trivial_route():
    """A call of a trivial Flask route, served the same way (the floor)."""
    app = Flask("floor")
    app.add_url_rule("/", "index", lambda: "ok")
    client = app.test_client()
    return lambda: client.get("/")


def form_fields(doc: dict, version: int) -> dict:
    data = {"version": str(version), "card_mode": "each"}
    for i, p in enumerate(doc["players"]):
        pre = f"players-{i}-"
        for key in ("track", "progress", "scyphoz", "two_tokens", "artifact_points", "devotion",
                    "machine_progress"):
            data[pre + key] = str(p.get(key, ""))
        for j, cb in enumerate(p["card_bonus"]):
            data[f"{pre}card_bonus-{j}-cards"] = str(cb["cards"])
            if cb["unlocked"]:
                data[f"{pre}card_bonus-{j}-unlocked"] = "y"
        for j, v in enumerate(p["great_locations"]):
            data[f"{pre}great_locations-{j}"] = str(v)
        for key, v in p["resources"].items():
            data[f"{pre}resources-{key}"] = str(v)
        for j, v in enumerate(p["artifacts"]):
            data[f"{pre}artifacts-{j}"] = str(v)
        for j, line in enumerate(p["artifact_card"]):
            data[f"{pre}artifact_card-{j}-count"] = str(line["count"])
            data[f"{pre}artifact_card-{j}-points"] = str(line["points"])
    return data


def stored_game(client) -> tuple[str, dict, dict]:
    """The 4-player Revive + Abyss game of these benchmarks created and its whole end state saved
    once: its token, its document, and the first save's answer."""
    doc = next(iter(documents().values()))
    new = {"game": "revive", "variant": "abyss"}
    for i, p in enumerate(doc["players"]):
        new[f"players-{i}-name"] = p["name"]
    token = re.search(r"/g/([\w-]+)/", client.post("/nouvelle", data=new).headers["Location"]).group(1)
    first = client.post(f"/g/{token}/save", data=form_fields(doc, 1))
    return token, doc, first.json


def bench_app():
    """The app on a throw-away SQLite database, schema built, CSRF off (as the test client posts)."""
    from companion import create_app
    from companion.extensions import db

    tmp = Path(tempfile.mkdtemp())
    os.environ["COMPANION_INSTANCE"] = str(tmp)
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'bench.sqlite3'}"})
    app.add_url_rule("/_floor", "floor", lambda: "ok")  # the floor of `parts`, as in bench/load.py
    with app.app_context():
        db.create_all()
    return app


def main(only: str | None = None) -> list[dict]:
    """`only`: measure only the lines whose label holds this text (and skip the parts)."""
    from companion.views.edit_page import SKELETONS  # the edit pages' skeletons
    from companion.views.results import SHOWN  # the rendered results kept per version

    app = bench_app()
    client = app.test_client()
    token, doc, first = stored_game(client)  # the whole end state, once
    version, track = [first["version"]], [first["stored"]["players-0-track"]]

    def autosave():
        """As static/js/play/autosave.js saves: the one field changed since the last answer, with its base."""
        mine = str((int(track[0]) + 1) % 90)
        changes = {"players-0-track": [track[0], mine]}
        data = {"version": version[0], "changes": json.dumps(changes), "new_rows": "[]", "delta": "1"}
        response = client.post(f"/g/{token}/save", data=data)  # answered with what changed
        assert response.status_code == 200, response.get_data(as_text=True)
        version[0], track[0] = response.json["version"], mine

    def edit_drawn():
        SKELETONS.clear()
        return client.get(f"/g/{token}/")

    def results_drawn():
        SHOWN.clear()
        return client.get(f"/g/{token}/resultats")

    client.get(f"/g/{token}/sheet.pdf")  # drawn once: then read from the sheet cache
    # A phone that holds the stylesheets and scripts (every visit after its first, companion/web/inline.py);
    # `newcomer` is one that does not: its page carries them inside.
    first_visit = client.get(f"/g/{token}/").get_data(as_text=True)
    client.set_cookie("assets", re.search(r'data-cookie="([0-9a-f.]+)"', first_visit).group(1))
    newcomer = app.test_client()

    # The floor: the app's own trivial route, served the same way (its hooks: session, security
    # headers, limits, compression), as in bench/load.py and the figures.
    def floor():
        return client.get("/_floor")

    results = []
    english = {"Accept-Language": "en"}
    br, gz = {"Accept-Encoding": "gzip, deflate, br"}, {"Accept-Encoding": "gzip, deflate"}
    for label, fn in (("page de saisie (GET)", lambda: client.get(f"/g/{token}/")),
                      # as a phone asks for it: compressed (brotli over HTTPS, gzip over HTTP)
                      ("page de saisie, brotli (GET, HTTPS)", lambda: client.get(f"/g/{token}/", headers=br)),
                      ("page de saisie, gzip (GET, HTTP)", lambda: client.get(f"/g/{token}/", headers=gz)),
                      # a phone's first visit: the page with its stylesheets and scripts inside
                      ("page de saisie, première visite, gzip (GET, HTTP)",
                       lambda: newcomer.get(f"/g/{token}/", headers=gz)),
                      ("page de saisie, première visite, brotli (GET, HTTPS)",
                       lambda: newcomer.get(f"/g/{token}/", headers=br)),
                      # a shape's first page (a new game, a row added): its skeleton drawn, with the form
                      ("page de saisie d'une nouvelle forme (GET, squelette dessiné)", edit_drawn),
                      ("enregistrement automatique (POST)", autosave),
                      ("résultats (GET)", lambda: client.get(f"/g/{token}/resultats")),
                      # a version's first reading (after a save): its results drawn, not from memory
                      ("résultats d'une nouvelle version (GET)", results_drawn),
                      # the same pages in English (issue 13): the catalogue should cost nothing
                      ("page de saisie en anglais (GET)", lambda: client.get(f"/g/{token}/",
                                                                             headers=english)),
                      ("résultats en anglais (GET)",
                       lambda: client.get(f"/g/{token}/resultats", headers=english)),
                      ("feuille PDF en cache (GET)", lambda: client.get(f"/g/{token}/sheet.pdf"))):
        if only and only not in label:
            continue
        results.append(report_both(f"play {label}, 4 joueurs", interleaved(fn, floor, rounds=10),
                                   "route triviale de l'application"))
    return results if only else results + parts(app, token, doc)


def parts(app, token: str, doc: dict) -> list[dict]:
    """What an edit page and an autosave are made of, each part alone, against a trivial route of
    the same app (its hooks: session, security headers, limits) served the same way: the floor of
    bench/load.py. An edit page builds the stored game's form and writes ~130 fields; an autosave
    builds no form: the stored document's texts, the merged texts read by the spec, the engine, the
    versioned write."""
    import gzip

    import brotli
    from werkzeug.datastructures import MultiDict

    from companion import forms, games
    from companion.saving import service, wire
    from companion.storage import store

    client = app.test_client()
    def floor():
        return client.get("/_floor")

    page = client.get(f"/g/{token}/").get_data()
    sc = forms.screens("revive")
    out = []
    with app.test_request_context("/"):
        posted = MultiDict(list(sc.texts(doc).values.items()))
        record = store.by_edit_token(token)

        fields = sc.fields
        save = wire.Save({"players-0-track": (str(doc["players"][0].get("track", "")), "42")})

        def laid():  # issue 29: the one path: merged on the stored texts, read by the spec, checked
            return service.laid(fields, doc, save, fields.texts(doc))

        def write():
            record.version = store.save(record, record.document, record.version).version

        for label, fn in (
                ("formulaire WTForms d'une partie enregistrée", lambda: sc.form(doc)),
                ("formulaire WTForms des valeurs envoyées", lambda: sc.form(doc, formdata=posted)),
                ("moteur seul", lambda: games.score(doc)),
                ("textes de la partie enregistrée (spec)", lambda: fields.texts(doc)),
                ("document lu des textes (spec)", lambda: fields.read(doc, posted)),
                # issue 29: one field merged on the stored texts, read by the spec, checked by the engine
                ("un champ fusionné, lu par la spec et vérifié par le moteur (sans formulaire)", laid),
                (f"gzip (niveau 6) de la page de saisie, {len(page) // 1000} Ko : "
                 f"{len(gzip.compress(page, 6)) / 1000:.1f} Ko", lambda: gzip.compress(page, 6)),
                (f"brotli (niveau 3) de la page de saisie : "
                 f"{len(brotli.compress(page, quality=3, mode=brotli.MODE_TEXT)) / 1000:.1f} Ko",
                 lambda: brotli.compress(page, quality=3, mode=brotli.MODE_TEXT)),
                ("une écriture versionnée (UPDATE ... WHERE version, SQLite)", write)):
            out.append(report_both(f"play partie : {label}", interleaved(fn, floor),
                                   "route triviale de l'application"))
    return out


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only",
                        help="measure only the lines whose label holds this text, e.g. 'automatique'")
    main(parser.parse_args().only)
