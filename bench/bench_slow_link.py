"""A phone on a bad signal: the edit page of a 4-player Revive + Call of the Abyss game over an
emulated slow link (400 ms round trip, 400 kbit/s each way; Chromium's network emulation), at 390×844.

Run: `.venv/bin/python -m bench.bench_slow_link`. "Interactive" is the end of DOMContentLoaded (the
page's deferred scripts have run). A first visit starts with an empty cache; a later visit opens the
same page again on the same phone (stylesheet and scripts cached: their URLs carry their content
hash). Beside them, the floor: a trivial route of the same app (a few bytes of text) over the same
link. Goals (issue 23): later visit ≤ 0.8 s, first visit ≤ 1.6 s.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM = "/usr/bin/chromium"
LINK = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8,
        "uploadThroughput": 400_000 / 8}


@contextlib.contextmanager
def serve():
    """The app as `make run` serves it (gunicorn, gunicorn.conf.py: kept-alive connections, gzip), plus
    its trivial route (bench/floor_app.py), on a throw-away SQLite database; yields its URL."""
    from bench.load import free_port
    from bench.servers import gunicorn

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "COMPANION_INSTANCE": str(Path(tmp) / "instance"), "DATABASE_URL": ""}
        env.pop("DATABASE_URL")
        subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"], cwd=ROOT,
                       env=env, check=True, capture_output=True, timeout=120)
        with gunicorn("bench.floor_app:app()", free_port(), env, (), "/_floor") as host:
            yield host


def interactive(page, url: str) -> float:
    """Seconds from the navigation's start to the end of DOMContentLoaded."""
    page.goto(url, wait_until="load", timeout=120_000)
    return page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd") / 1000


def main() -> int:
    from playwright.sync_api import sync_playwright

    with serve() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        setup = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR").new_page()
        setup.goto(f"{base}/nouvelle?game=revive&variant=abyss")
        for i, name in enumerate(["Ana", "Bea", "Cem", "Dan"]):
            setup.fill(f"#players-{i}-name", name)
        setup.get_by_role("button", name="Commencer la saisie").click()
        setup.wait_for_url("**/g/*/")
        edit = setup.url
        setup.context.close()

        rows = []
        pages = (("trivial route (floor)", f"{base}/_floor"), ("edit page", edit), ("home page", base + "/"))
        for label, url in pages:
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                          has_touch=True, locale="fr-FR")
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", LINK)
            first = interactive(page, url)
            later = interactive(page, url)
            rows.append((label, first, later))
            context.close()
        browser.close()
    floor = rows[0][2]
    print("400 ms RTT, 400 kbit/s, 390x844; seconds to interactive (ratio to the floor's later visit)")
    for label, first, later in rows:
        print(f"{label}: first visit {first:.2f} s ({first / floor:.1f}x), later visit {later:.2f} s "
              f"({later / floor:.1f}x)")
    edit_first, edit_later = rows[1][1], rows[1][2]
    print(f"goals: later visit <= 0.8 s: {'met' if edit_later <= 0.8 else 'NOT met'}; "
          f"first visit <= 1.6 s: {'met' if edit_first <= 1.6 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
