"""The edit page's weight (issue 33): its HTML for the 4-player Revive + Call of the Abyss game of
bench/bench_pages.py, and for a 4-player Rebirth Ireland game with 0 to 12 cities (bench/bench_rebirth.py's,
cut), with the CPU time of each city's page drawn (its skeleton) and filled.

Run: `.venv/bin/python -m bench.bench_page_size` (sizes are deterministic: tests/web/test_page_size.py
holds them to their bounds). Prints the bytes of each page, the growth per city (least squares over
0..12 cities) and the CPU time per city of a page drawn (skeleton cleared) and of a page filled.
"""

from __future__ import annotations

import copy
import re
import time

from bench.bench_pages import bench_app, form_fields
from bench.bench_rebirth import ireland_game
from bench.bench_revive import documents


def later_visit(client, url: str = "/"):
    """The client made a phone holding the files of the page at `url` (a later visit: the page
    alone, as measured; a first visit's page holds its stylesheets and scripts, companion/web/inline.py)."""
    value = re.search(r'data-cookie="([0-9a-f.]*)"', client.get(url).get_data(as_text=True)).group(1)
    client.set_cookie("assets", value)
    return client


def _new(client, game: str, variant: str, names: list[str]) -> str:
    data = {"game": game, "variant": variant}
    for i, name in enumerate(names):
        data[f"players-{i}-name"] = name
    return re.search(r"/g/([\w-]+)/", client.post("/nouvelle", data=data).headers["Location"]).group(1)


def revive_page(app) -> bytes:
    """The edit page of bench_pages' 4-player Revive + Abyss game, its end state saved."""
    client = later_visit(app.test_client())
    doc = next(iter(documents().values()))
    token = _new(client, "revive", "abyss", [p["name"] for p in doc["players"]])
    assert client.post(f"/g/{token}/save", data=form_fields(doc, 1)).status_code == 200
    later_visit(client, f"/g/{token}/")
    return client.get(f"/g/{token}/").get_data()


def ireland(cities: int) -> dict:
    doc = copy.deepcopy(ireland_game())
    doc["cities"] = doc["cities"][:cities]
    return doc


def ireland_token(app, cities: int) -> str:
    """A 4-player Ireland game holding the first `cities` cities of bench_rebirth's (stored as is)."""
    from companion.storage import store

    client = later_visit(app.test_client())
    doc = ireland(cities)
    token = _new(client, "rebirth", "ireland", [p["name"] for p in doc["players"]])
    with app.app_context():
        record = store.by_edit_token(token)
        store.save(record, doc, record.version)
    return token


def ireland_pages(app, counts=range(13)) -> dict[int, bytes]:
    client = later_visit(app.test_client(), f"/g/{ireland_token(app, 1)}/")
    return {n: client.get(f"/g/{ireland_token(app, n)}/").get_data() for n in counts}


def slope(points: dict[int, float]) -> float:
    """Least-squares growth per unit of x."""
    xs, ys = list(points), list(points.values())
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def _cpu(fn, rounds: int) -> float:
    best = float("inf")
    for _ in range(3):  # three samples, the least kept (what other jobs inflate least)
        start = time.process_time()
        for _ in range(rounds):
            fn()
        best = min(best, (time.process_time() - start) / rounds)
    return best


def main() -> None:
    from companion.views.edit_page import SKELETONS

    app = bench_app()
    page = revive_page(app)
    print(f"Revive + Abyss, 4 joueurs : {len(page)} octets")
    counts = (0, 4, 8, 12)
    tokens = {n: ireland_token(app, n) for n in range(13)}
    client = later_visit(app.test_client(), f"/g/{tokens[1]}/")
    sizes = {n: len(client.get(f"/g/{t}/").get_data()) for n, t in tokens.items()}
    print("Irlande, 4 joueurs, octets par nombre de villes :", sizes)
    print(f"  croissance par ville : {slope(sizes) / 1000:.1f} Ko")

    def drawn(n):
        def fn():
            SKELETONS.clear()
            client.get(f"/g/{tokens[n]}/")
        return fn

    cpu_drawn = {n: _cpu(drawn(n), 5) for n in counts}
    cpu_filled = {n: _cpu(lambda n=n: client.get(f"/g/{tokens[n]}/"), 20) for n in counts}
    print("  CPU, page dessinée (ms) :", {n: round(v * 1000, 2) for n, v in cpu_drawn.items()},
          f"par ville {slope(cpu_drawn) * 1000:.2f} ms")
    print("  CPU, page remplie (ms) :", {n: round(v * 1000, 2) for n, v in cpu_filled.items()},
          f"par ville {slope(cpu_filled) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
