"""nginx in front of `make run`'s gunicorn: the part that waits for slow phones.

gunicorn alone reads the headers and the body at the client's pace: its event loop holds a trickling
socket for a greenlet (up to 5 s for the headers, 10 s between two reads of a body), and a room's
worth of them is still parsed in Python, byte by byte, beside the saves. nginx reads a whole request
(headers within 10 s, a body without a 10-s pause) in its event loop before gunicorn sees it, for a
few kilobytes a connection.
`make run` starts Debian's nginx (installed by the Makefile) with the club's own site,
deploy/nginx/companion.conf (tests/server/test_proxy.py), on the table's address and port, in front of
gunicorn on a Unix socket of a private folder, and stops it with the server. Without nginx, gunicorn
alone serves the room and the terminal says so (companion.server.serve).

nginx is started as a child of the server's master: a Ctrl+C reaches both (the same process group),
the master stops it on its way out (`stop`), and on Linux the kernel stops it when the master dies
outright (`kill -9`), so a restart finds the port free.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import socket
import subprocess  # noqa: S404 - starts Debian's nginx, never a shell
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SITE = ROOT / "deploy" / "nginx" / "companion.conf"
PLACES = ("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx")
READY_WITHIN = 10.0
HEADER = "proxy_set_header"  # seconds for nginx to listen


class Failed(Exception):
    """nginx could not be started; the message says why (its own words)."""


def binary() -> str | None:
    """The nginx to start: COMPANION_NGINX when set (empty: none), else the system's."""
    if "COMPANION_NGINX" in os.environ:
        chosen = os.environ["COMPANION_NGINX"].strip()
        return chosen if chosen and os.access(chosen, os.X_OK) else None
    found = shutil.which("nginx")
    if found:
        return found
    return next((place for place in PLACES if os.access(place, os.X_OK)), None)


def site(host: str, port: int, upstream: str, logs: Path) -> str:
    """The club's site on `host:port` in front of `upstream` (`unix:/path`), its errors logged into
    `logs`, no access log (a line per autosave, all day on a Pi's SD card). A table's address carries
    its port: the app is handed the Host the phone asked for, port included."""
    text = SITE.read_text(encoding="utf-8")
    for old, new in (("listen 80;", f"listen {host}:{port};"), ("listen [::]:80;", ""),
                     ("server 127.0.0.1:8000;", f"server {upstream};"),
                     ("access_log /var/log/nginx/companion.access.log companion;", "access_log off;"),
                     ("/var/log/nginx/", f"{logs}/"),
                     (f"{HEADER} Host $host;", f"{HEADER} Host $http_host;"),
                     (f"{HEADER} X-Forwarded-Host $host;", f"{HEADER} X-Forwarded-Host $http_host;")):
        if old not in text:
            raise Failed(f"{SITE} no longer says {old!r}: companion/server/front.py must follow it")
        text = text.replace(old, new)
    return text


def main_conf(folder: Path, site_text: str) -> str:
    """nginx.conf of one run: one worker (a table's load), its files in `folder`."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    files = min(8192, hard if hard != resource.RLIM_INFINITY else 8192)
    if os.geteuid() != 0:  # only root may raise its limit past the soft one
        files = min(files, soft)
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"worker_processes 1;\nworker_rlimit_nofile {files};\npid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'} error;\n"
            f"events {{ worker_connections {max(256, files // 2 - 16)}; }}\n"
            f"http {{\n{temp}\n{site_text}\n}}\n")


def _die_with_parent() -> None:
    """In the child, before nginx starts: the kernel sends it SIGTERM when the master dies (Linux)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


@dataclass
class Front:
    """A running nginx; `stop()` ends it and removes its folder."""

    proc: subprocess.Popen
    folder: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # nginx's fast shutdown
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.folder, ignore_errors=True)


def _accepts(host: str, port: int) -> bool:
    target = "127.0.0.1" if host == "0.0.0.0" else host  # noqa: S104 - the address nginx listens on
    try:
        with socket.create_connection((target, port), timeout=0.5):
            return True
    except OSError:
        return False


def start(nginx: str, host: str, port: int) -> tuple[Front, str]:
    """nginx on `host:port`, listening; returns it and the address gunicorn must bind (`unix:…`)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-serve-"))
    folder.chmod(0o755)  # nginx's workers (nobody, when started as root) reach the socket and temp files
    upstream = f"unix:{folder / 'app.sock'}"
    try:
        (folder / "nginx.conf").write_text(main_conf(folder, site(host, port, upstream, folder)),
                                           encoding="utf-8")
    except Failed:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    said = folder / "stderr.log"
    with said.open("wb") as stderr:
        proc = subprocess.Popen(  # noqa: S603 - the nginx found above, our own configuration
            [nginx, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(folder / "nginx.conf"),
             "-g", "daemon off;"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
            preexec_fn=_die_with_parent)  # noqa: PLW1509 - prctl only, before exec
    front = Front(proc, folder)
    deadline = time.monotonic() + READY_WITHIN
    while not _accepts(host, port):
        if proc.poll() is not None or time.monotonic() > deadline:
            lines = [line for line in said.read_text(errors="replace").splitlines() if line.strip()]
            front.stop()
            raise Failed(lines[-1] if lines else f"nginx did not listen on {host}:{port}")
        time.sleep(0.05)
    return front, upstream
