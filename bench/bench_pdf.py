"""PDF sheets: a filled 4-player sheet rendered per second, against a minimal one-page WeasyPrint
document rendered in the same process and run (the floor: WeasyPrint's own fixed cost).

Run: `.venv/bin/python -m bench.bench_pdf`. Sheets: a 4-player Revive + Call of the Abyss game with
every field filled, a 4-player Reterra game scored from four grids (four community drawings), and
the blank Rebirth Irlande pad rendered afresh (its per-process cache bypassed).
"""

from __future__ import annotations

import datetime as dt

from bench.bench_revive import documents as revive_documents
from bench.common import per_second, report
from companion import games, pdf

NAMES = ("Maëlle", "Yanis", "Zoë Ødegård", "李小龍")
COLOURS = ["rouge", "bleu", "#229954", "jaune"]
TERRAIN = ["FFFFEEDD", "FFFFEEDD", "PPRREEDD", "PPRREEDD", "DDDDPPPP", "DDDDPPPP", "RRFFEEPP", "RRFFEEPP"]


def revive_doc() -> dict:
    doc = revive_documents()["4 joueurs, totaux distincts"]
    for player, name in zip(doc["players"], NAMES, strict=True):
        player["name"] = name
    return doc


def reterra_doc() -> dict:
    players = []
    for i, name in enumerate(NAMES):
        grid = {"terrain": TERRAIN[i:] + TERRAIN[:i], "relics": [[0, 0], [7, 7]], "junk": [[7, 7]],
                "inhabitants": [[4, 4], [5, 5]]}
        players.append({"name": name, "grid": grid, "buildings": {"observatoire": 1}, "building_bonus": i})
    return {"game": "reterra", "variant": "base", "players": players,
            "buildings": [{"id": "observatoire", "name": "Observatoire", "points": 4}]}


def minimal() -> bytes:
    return pdf.render_html("<!doctype html><html lang=fr><title>x</title><p>Bonjour</p></html>")[0]


def main() -> list[dict]:
    day = dt.date(2026, 11, 22)
    floor = per_second(minimal, seconds=2.0)
    results = []
    for label, doc in (("Revive + Abysses, 4 joueurs", revive_doc()), ("Reterra, 4 grilles", reterra_doc())):
        result = games.score(doc)

        def sheet(doc=doc, result=result) -> bytes:
            return pdf.sheet_from_result(doc, result, colours=COLOURS, date=day)

        size = len(sheet())
        rate = per_second(sheet, seconds=3.0)
        print(f"{label} : {1000 / rate:.0f} ms par feuille, {size / 1024:.0f} Kio ; "
              f"page minimale : {1000 / floor:.0f} ms")
        results.append(report(f"feuille PDF ({label})", rate, "page WeasyPrint minimale", floor))
    pad = per_second(lambda: pdf._pad.__wrapped__("rebirth", "ireland", "fr"), seconds=2.0)
    print(f"feuille vierge Rebirth Irlande : {1000 / pad:.0f} ms")
    results.append(report("feuille vierge (Rebirth Irlande)", pad, "page WeasyPrint minimale", floor))
    return results


if __name__ == "__main__":
    main()
