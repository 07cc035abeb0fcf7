"""PDF sheets: a filled 4-player sheet rendered per second, against a minimal one-page WeasyPrint
document rendered in the same process and run (the floor: WeasyPrint's own fixed cost).

Run:
`.venv/bin/python -m bench.bench_pdf` (about a minute); `--profile`: where a fresh sheet's CPU goes
(its phases, and WeasyPrint's parts and the libraries it calls, from a profile). Each filled sheet
is measured in short slices taken in turn with the floor's, in CPU time beside wall time, as the app
renders it now (the "what would I have needed" lines searched once per stored version, as the
results page keeps them), and as it rendered it before issue 33 (its stylesheet and fonts read at
every sheet, the search made again). Sheets: a 4-player
Revive + Call of the Abyss game with every field filled, a 4-player Reterra game scored from four
grids (four community drawings), and the blank Rebirth Irlande pad rendered afresh (its per-process
cache bypassed).
"""

from __future__ import annotations

import datetime as dt

from bench.bench_revive import documents as revive_documents
from bench.common import interleaved, report_both
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


def unshared(template: str, context: dict) -> bytes:
    """A sheet rendered as before issue 33 (the reference beside the floor): the page links its
    stylesheet, which WeasyPrint parses again with a new font configuration (its three fonts loaded
    again), the collector running; its `context` made for it (`_sheet_context`, the search for
    what each player would have needed included)."""
    from weasyprint import HTML

    from companion.pdf.fetcher import StaticFetcher

    for compact in (0, 1, 2):
        html = pdf._html(template, compact=compact, **context).replace(
            "<head>", '<head><link rel="stylesheet" href="css/sheet.css">', 1)
        document = HTML(string=html, base_url=pdf.BASE_URL, url_fetcher=StaticFetcher()).render()
        if len(document.pages) == 1:
            break
    return document.write_pdf()


def main(seconds: float = 6.0, rounds: int = 5) -> list[dict]:
    """Each sheet in short slices taken in turn with the floor's (`common.interleaved`, `rounds`
    samples each), in CPU time beside wall time: as the app renders it now, and as it rendered it
    before (`unshared`)."""
    day = dt.date(2026, 11, 22)
    results = []
    for label, doc in (("Revive + Abysses, 4 joueurs", revive_doc()), ("Reterra, 4 grilles", reterra_doc())):
        result = games.score(doc)
        needs = games.needs(doc, result)  # as the app keeps it per stored version (score_cache.needed_of)

        def sheet(doc=doc, result=result, needs=needs) -> bytes:
            return pdf.sheet_from_result(doc, result, colours=COLOURS, date=day, needs=needs)

        def before(doc=doc, result=result) -> bytes:
            return unshared("pdf/sheet.html", pdf._sheet_context(doc, result, COLOURS, day))

        size = len(sheet())
        for name, fn in (("avant (feuille de style relue)", before), ("maintenant", sheet)):
            rates = interleaved(fn, minimal, seconds=seconds, rounds=rounds)
            results.append(report_both(f"feuille PDF ({label}), {name}", rates, "page WeasyPrint minimale"))
            print(f"  {1000 / rates[2]:.0f} ms de CPU par feuille ({1000 / rates[0]:.0f} ms au mur), "
                  f"{size / 1024:.0f} Kio ; page minimale : {1000 / rates[3]:.0f} ms de CPU ; "
                  f"objectif <= 1000 ms de CPU : {'atteint' if rates[2] >= 1 else 'MANQUÉ'}")
    rates = interleaved(lambda: pdf._pad.__wrapped__("rebirth", "ireland", "fr"), minimal, seconds=seconds,
                        rounds=rounds)
    results.append(report_both("feuille vierge (Rebirth Irlande)", rates, "page WeasyPrint minimale"))
    print(f"  {1000 / rates[2]:.0f} ms de CPU ({1000 / rates[0]:.0f} ms au mur)")
    return results


# where a sheet's CPU goes, by the package (or the part of WeasyPrint) whose code runs
PARTS = (("weasyprint/css", "WeasyPrint: styles (cascade, computed values)"),
         ("weasyprint/layout", "WeasyPrint: layout"),
         ("weasyprint/text", "WeasyPrint: text (Pango through cffi: shaping, line breaks, fonts)"),
         ("weasyprint/draw", "WeasyPrint: drawing the pages"),
         ("weasyprint/svg", "WeasyPrint: SVG (charts, communities)"),
         ("weasyprint/formatting_structure", "WeasyPrint: boxes built from the HTML"),
         ("weasyprint/pdf", "WeasyPrint: PDF objects, fonts embedded"),
         ("weasyprint", "WeasyPrint: the rest (HTML, images, document)"),
         ("pydyf", "pydyf (the PDF written)"), ("fontTools", "fontTools (fonts subset)"),
         ("tinycss2", "tinycss2 (CSS parsed)"), ("cssselect2", "cssselect2 (selectors matched)"),
         ("tinyhtml5", "tinyhtml5 (HTML parsed)"), ("html5lib", "html5lib (HTML parsed)"),
         ("cffi", "cffi"), ("jinja2", "Jinja (the sheet's HTML)"),
         ("companion", "companion (context, drawings)"))


def profile(rounds: int = 5) -> None:
    """Where a fresh sheet's CPU goes: its phases timed (median of `rounds`), then one profile of
    `rounds` sheets, each function's own time summed by the part it belongs to (`PARTS`)."""
    import cProfile
    import pstats
    import statistics
    import time

    from weasyprint import HTML

    from companion.pdf.fetcher import StaticFetcher

    day = dt.date(2026, 11, 22)
    for label, doc in (("Revive + Abysses, 4 joueurs", revive_doc()), ("Reterra, 4 grilles", reterra_doc())):
        result = games.score(doc)
        needs = games.needs(doc, result)
        pdf.sheet_from_result(doc, result, colours=COLOURS, date=day)  # warm: fonts, stylesheet, caches
        phases: dict[str, list[float]] = {}
        for _ in range(rounds):
            start = time.process_time()
            games.needs(doc, result)
            phases.setdefault("(what each would have needed, searched: kept per stored version)", []).append(
                1000 * (time.process_time() - start))
            marks = [time.process_time()]
            with pdf._rendering():
                context = pdf._sheet_context(doc, result, COLOURS, day, needs=needs)
                marks.append(time.process_time())
                html = pdf._html("pdf/sheet.html", compact=0, **context)
                marks.append(time.process_time())
                css, fonts = pdf._stylesheet()
                parsed = HTML(string=html, base_url=pdf.BASE_URL, url_fetcher=StaticFetcher())
                marks.append(time.process_time())
                document = parsed.render(stylesheets=[css], font_config=fonts)
                marks.append(time.process_time())
                document.write_pdf()
                marks.append(time.process_time())
            for name, a, b in zip(("context (scores, drawings' data)", "Jinja: the sheet's HTML",
                                   "HTML parsed (tinyhtml5)", "render: styles and layout",
                                   "write_pdf: drawing, fonts subset, PDF"), marks, marks[1:], strict=False):
                phases.setdefault(name, []).append(1000 * (b - a))
        total = statistics.median(sum(v) for v in zip(*list(phases.values())[1:], strict=True))
        print(f"\n{label}: {total:.0f} ms of CPU per sheet (median of {rounds}; one page, no retry; "
              "the search apart)")
        for name, values in phases.items():
            print(f"  {name}: {statistics.median(values):.0f} ms ({min(values):.0f}-{max(values):.0f})")
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(rounds):
            pdf.sheet_from_result(doc, result, colours=COLOURS, date=day, needs=needs)
        prof.disable()
        stats = pstats.Stats(prof).stats
        own: dict[str, float] = {}
        for (filename, _line, _name), (_cc, _nc, tottime, _ct, _callers) in stats.items():
            path = filename.replace("\\", "/")
            part = next((title for key, title in PARTS if f"/{key}/" in path or f"/{key}." in path),
                        "C code called directly (Python's own, built-ins)" if filename == "~"
                        else "other Python")
            own[part] = own.get(part, 0.0) + tottime
        whole = sum(own.values())
        print(f"  profiled ({rounds} sheets, profiler's overhead included), each function's own time:")
        for part, seconds in sorted(own.items(), key=lambda kv: -kv[1]):
            print(f"    {part}: {100 * seconds / whole:.0f} %")
        top = sorted(stats.items(), key=lambda kv: -kv[1][2])[:8]
        print("  the functions with the most own time:")
        for (filename, line, name), (_cc, calls, tottime, _ct, _callers) in top:
            short = "/".join(filename.replace("\\", "/").split("/")[-2:])
            print(f"    {100 * tottime / whole:.0f} % {short}:{line} {name} ({calls:,} calls)")


if __name__ == "__main__":
    import sys

    if "--profile" in sys.argv[1:]:
        profile()
    else:
        main()
