"""A phone on a bad signal: pages over an emulated slow link (400 ms round trip, 400 kbit/s each way;
Chromium's network emulation through CDP), at 390×844, in gzip and in brotli measured apart.

Run: `.venv/bin/python -m bench.bench_slow_link [--samples 3]`. "Interactive" is the end of
DOMContentLoaded (the page's scripts have run). A first visit starts with an empty cache and no
cookie; a later visit opens the same page again on the same phone, once the first has finished
what it does after loading (network idle: on a first visit it fetches its stylesheet and scripts
into the cache, then says so in a cookie; `companion.web.inline`).

Which encoding a phone gets is the browser's choice: Chromium offers brotli only to a secure
context, and http://127.0.0.1 is one, while a phone at the table opens the laptop's address over
plain HTTP, which is not. So the gzip case opens the app as `http://table.lan:PORT`, a name the
browser is told resolves to 127.0.0.1 (`--host-resolver-rules`): what a LAN phone gets, and no
packet leaves the machine; the brotli case opens http://127.0.0.1:PORT. The document's
Content-Encoding is checked in each case.

Beside them, the floor: a trivial route of the same app (a few bytes of text) over the same link,
measured in the same sample, just before the pages (interleaved). Each figure is the median of the
samples, with their spread (min-max). Goals (issue 33): a first visit ≤ 1.3 s on gzip, a later
visit ≤ 0.8 s.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM = "/usr/bin/chromium"
LINK = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8,
        "uploadThroughput": 400_000 / 8}
LAN_NAME = "table.lan"  # resolved to 127.0.0.1 by the browser alone
TIMEOUT_MS = 60_000
# files the page fetched over the link before DOMContentLoaded's end (not from the cache)
FETCHED = ("(() => { const end = performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd;"
           " return performance.getEntriesByType('resource').filter(e => e.transferSize > 0"
           " && e.startTime < end).length; })()")


@contextlib.contextmanager
def serve():
    """The app as `make run` serves it (gunicorn, gunicorn.conf.py: kept-alive connections,
    compression), plus its trivial route (bench/floor_app.py), on a throw-away SQLite database;
    yields its port."""
    from bench.load import free_port
    from bench.servers import gunicorn

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "COMPANION_INSTANCE": str(Path(tmp) / "instance")}
        env.pop("DATABASE_URL", None)
        subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"], cwd=ROOT,
                       env=env, check=True, capture_output=True, timeout=120)
        port = free_port()
        with gunicorn("bench.floor_app:app()", port, env, (), "/_floor"):
            yield port


def visit(page, url: str) -> tuple[float, str]:
    """Seconds from the navigation's start to the end of DOMContentLoaded, and the document's
    Content-Encoding."""
    response = page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
    encoding = (response.header_value("content-encoding") or "identity") if response else "?"
    seconds = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd") / 1000
    return seconds, encoding


def new_game(browser, base: str) -> str:
    """A 4-player Revive + Call of the Abyss game made through the new-game page; its edit path."""
    setup = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR").new_page()
    setup.set_default_timeout(TIMEOUT_MS)
    setup.goto(f"{base}/nouvelle?game=revive&variant=abyss")
    for i, name in enumerate(["Ana", "Bea", "Cem", "Dan"]):
        setup.fill(f"#players-{i}-name", name)
    setup.get_by_role("button", name="Commencer la saisie").click()
    setup.wait_for_url("**/g/*/")
    path = setup.url.split(base, 1)[1]
    setup.context.close()
    return path


def sample(browser, base: str, pages: list[tuple[str, str]]) -> dict:
    """One sample: for each page, a phone of its own (empty cache, no cookie) visits it twice."""
    out = {}
    for label, path in pages:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                      has_touch=True, locale="fr-FR")
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", LINK)
        first, encoding = visit(page, base + path)
        fetched_first = page.evaluate(FETCHED)
        page.wait_for_load_state("networkidle", timeout=TIMEOUT_MS)  # what a first visit does after load
        later, _ = visit(page, base + path)
        out[label] = (first, later, encoding, fetched_first, page.evaluate(FETCHED))
        context.close()
    return out


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=3)
    args = parser.parse_args(argv)
    if args.samples < 3:
        parser.error("at least 3 samples")
    from playwright.sync_api import sync_playwright

    with serve() as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, timeout=TIMEOUT_MS, args=[
            "--no-sandbox", f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"])
        cases = (("gzip (a LAN phone: plain HTTP at a network name)", f"http://{LAN_NAME}:{port}", "gzip"),
                 ("brotli (http://127.0.0.1, a secure context)", f"http://127.0.0.1:{port}", "br"))
        edit = new_game(browser, cases[1][1])
        pages = [("trivial route (floor)", "/_floor"), ("edit page", edit), ("home page", "/")]
        runs: dict[str, list[dict]] = {case: [] for case, _, _ in cases}
        for _ in range(args.samples):
            for case, base, _ in cases:  # the two encodings taken in turn, each sample
                runs[case].append(sample(browser, base, pages))
        browser.close()

    print(f"400 ms RTT, 400 kbit/s, 390x844; seconds to interactive, median of {args.samples} samples "
          "(min-max); ratio: median ÷ the floor's median first visit")
    verdict = []
    for case, _, wanted in cases:
        print(f"\n{case}")
        floor = statistics.median(s["trivial route (floor)"][0] for s in runs[case])
        for label, _ in pages:
            firsts = [s[label][0] for s in runs[case]]
            laters = [s[label][1] for s in runs[case]]
            encodings = sorted({s[label][2] for s in runs[case]})
            files = [f"{s[label][3]}/{s[label][4]}" for s in runs[case]]
            print(f"  {label}: first visit {spread(firsts)} ({statistics.median(firsts) / floor:.1f}x), "
                  f"later visit {spread(laters)} ({statistics.median(laters) / floor:.1f}x); "
                  f"document sent as {'/'.join(encodings)}; files fetched before interactive, first/later "
                  f"visit: {', '.join(files)}")
            if label != pages[0][0] and any(e not in (wanted, "identity") for e in encodings):
                print(f"    (expected {wanted}: the case does not measure what it says)")
        if wanted == "gzip":
            first = statistics.median(s["edit page"][0] for s in runs[case])
            later = statistics.median(s["edit page"][1] for s in runs[case])
            verdict.append("edit page over gzip: first visit <= 1.3 s: "
                           f"{'met' if first <= 1.3 else 'NOT met'}; "
                           f"later visit <= 0.8 s: {'met' if later <= 0.8 else 'NOT met'}")
    print("\n" + "\n".join(verdict))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
