"""From `git clone` to the first page on a phone: how long a table waits (issue 20).

`python -m bench.table_start` clones this repository (its committed HEAD) into a
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


def main(argv=None) -> int:
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "companion"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "HOST")}
        env.update(PORT=str(port), LANG="fr_FR.UTF-8")
        start = time.perf_counter()
        proc = subprocess.Popen(["make", "-s", "run"], cwd=clone, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            lines = []
            deadline = start + 900
            while time.perf_counter() < deadline:
                line = proc.stdout.readline()
                if not line:
                    break
                lines.append(line)
                if line.startswith("Ctrl+C"):
                    break
            banner = time.perf_counter() - start
            if not lines or not lines[-1].startswith("Ctrl+C"):
                print("".join(lines[-40:]))
                return 1
            printed = re.findall(rf"(http://[\d.]+:{port})", "".join(lines))
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                           has_touch=True).new_page()
                page.goto(f"http://127.0.0.2:{port}/", wait_until="load", timeout=120_000)
                first_page = time.perf_counter() - start
                svg = page.locator(".qr-box svg").first.evaluate("e => e.outerHTML")
                browser.close()
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    raw = len(svg.encode())
    print(f"printed address: {printed[0] if printed else '(none)'}; opened as http://127.0.0.2:{port}/")
    print(f"make run on a fresh clone: banner after {banner:.1f} s, first page at 390x844 after "
          f"{first_page:.1f} s (its .venv installed from the package registry)")
    print(f"QR code of the app's address: {raw} bytes of SVG ({len(gzip.compress(svg.encode()))} gzipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
