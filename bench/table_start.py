"""From `git clone` to the first page on a phone: how long a table waits (issue 20).

`.venv/bin/python -m bench.table_start` clones this repository (its committed HEAD) into a
temporary folder, runs `make run` there as a new user would, waits for the banner, then opens the app
in headless Chromium at 390×844 at 127.0.0.2 (a loopback address other than 127.0.0.1, standing for
the network address the banner prints: this workplace's tests never contact the machine's other
addresses). It prints the seconds to the banner and to the first page, and the size of the QR codes'
SVG as pages carry them. A few minutes: the clone installs its own .venv, as a new user's does.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def started(clone: Path, port: int, browser) -> tuple[float, float, list[str], str]:
    """`make run` in `clone` until its banner, then the first page at 390×844: seconds to each, the
    addresses it printed and the home page's QR code (outer SVG)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "HOST")}
    env.update(PORT=str(port), LANG="fr_FR.UTF-8")
    start = time.perf_counter()
    proc = subprocess.Popen(["make", "-s", "run"], cwd=clone, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        lines: list[str] = []
        while time.perf_counter() < start + 900:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("Ctrl+C"):
                break
        banner = time.perf_counter() - start
        if not lines or not lines[-1].startswith("Ctrl+C"):
            raise SystemExit("".join(lines[-40:]))
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True).new_page()
        page.goto(f"http://127.0.0.2:{port}/", wait_until="load", timeout=120_000)
        first_page = time.perf_counter() - start
        svg = page.locator(".qr-box svg").first.evaluate("e => e.outerHTML")
        page.context.close()
        return banner, first_page, re.findall(rf"(http://[\d.]+:{port})", "".join(lines)), svg
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def main(argv=None) -> int:
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    from playwright.sync_api import sync_playwright

    from companion.web import qr

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        clone = Path(tmp) / "companion"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        port = free_port()
        banner, first_page, printed, svg = started(clone, port, browser)
        again, again_page, _, _ = started(clone, port, browser)
        browser.close()
    print(f"printed address: {printed[0] if printed else '(none)'}; opened as http://127.0.0.2:{port}/")
    print(f"make run on a fresh clone (its .venv installed from the package registry): banner after "
          f"{banner:.1f} s, first page at 390x844 after {first_page:.1f} s")
    print(f"make run again: banner after {again:.1f} s, first page after {again_page:.1f} s")
    print(f"QR code of the app's address: {len(svg.encode())} bytes of SVG "
          f"({len(gzip.compress(svg.encode()))} gzipped)")
    entry = qr.svg("http://192.168.1.20:5000/g/" + "x" * 43 + "/")  # an entry link's length
    print(f"QR code of an entry link (71 characters): {len(entry.encode())} bytes of SVG "
          f"({len(gzip.compress(entry.encode()))} gzipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
