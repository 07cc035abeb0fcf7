"""Throw-away servers for the load benchmark and the tests: PostgreSQL on a private Unix socket
(Debian's binaries), gunicorn with the repository's gunicorn.conf.py on loopback, and nginx (Debian's
package) with the repository's deploy/nginx/companion.conf in front of it. All are stopped on the way
out, whatever happened."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def initdb() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]) if found else None


@contextlib.contextmanager
def postgresql(port: int, options: str = ""):
    """A PostgreSQL server of its own on a Unix socket; yields its SQLAlchemy URL."""
    found = initdb()
    if found is None:
        raise FileNotFoundError("PostgreSQL server binaries are missing: `make postgresql` installs them")
    bindir = found.parent
    # pytest's temporary folders are private to root; the server runs as the postgres user.
    base = Path(tempfile.mkdtemp(prefix="companion-pg-"))
    data, sock = base / "data", base / "sock"
    sock.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(base, "postgres")
        shutil.chown(sock, "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]

    def run(*cmd):
        proc = subprocess.run([*prefix, *cmd], capture_output=True, text=True, timeout=120)
        if proc.returncode:
            raise RuntimeError(f"{cmd[0]} failed: {proc.stderr or proc.stdout}")

    run(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync",
        "-E", "UTF8", "--locale=C.UTF-8")
    run(str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l", str(base / "log"), "-o",
        f"-k {sock} -c listen_addresses='' -p {port} {options}", "start")
    try:
        run(str(bindir / "createdb"), "-h", str(sock), "-p", str(port), "-U", "postgres", "companion")
        yield f"postgresql+psycopg://postgres@/companion?host={sock}&port={port}"
    finally:
        run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(base, ignore_errors=True)


def listening(error_log: Path | None, port: int) -> bool:
    """Whether the gunicorn logging to `error_log` has bound `port` (True when there is no log to read)."""
    if error_log is None:
        return True
    try:
        return f"Listening at: http://127.0.0.1:{port}" in error_log.read_text(errors="replace")
    except FileNotFoundError:
        return False


class Gunicorn(str):
    """The server's URL; `.kill()` ends it at once, workers included (kill -9)."""

    proc: subprocess.Popen

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


@contextlib.contextmanager
def gunicorn(app: str, port: int, env: dict, args: tuple[str, ...] = (), ready: str = "/",
             error_log: Path | None = None):
    """gunicorn -c gunicorn.conf.py on 127.0.0.1:`port`, once `ready` answers 200 (and, given its
    `error_log`, once that log says this master listens: an older server's orphans may still answer);
    yields its URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"),
         "--bind", f"127.0.0.1:{port}", *args, app],
        # Rate limits off unless asked (`env`): a load run is hundreds of clients from one address.
        cwd=ROOT, env={**os.environ, "RATELIMIT_ENABLED": "0", **env}, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True)
    host = Gunicorn(f"http://127.0.0.1:{port}")
    host.proc = proc
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if listening(error_log, port):
                    with urllib.request.urlopen(host + ready, timeout=2) as res:  # noqa: S310 - loopback
                        if res.status == 200:
                            break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log = error_log.read_text(errors="replace") if error_log and error_log.exists() else ""
                raise RuntimeError("gunicorn did not start: " + log)
            time.sleep(0.2)
        yield host
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                host.kill()


NGINX = Path("/usr/sbin/nginx")
NGINX_SITE = ROOT / "deploy" / "nginx" / "companion.conf"


def nginx_site(port: int, upstream: int, logs: Path) -> str:
    """The shipped site, on 127.0.0.1:`port` in front of gunicorn on `upstream`, logging into `logs`."""
    text = NGINX_SITE.read_text(encoding="utf-8")
    for old, new in (("listen 80;", f"listen 127.0.0.1:{port};"), ("listen [::]:80;", ""),
                     ("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};"),
                     ("/var/log/nginx/", f"{logs}/")):
        if old not in text:
            raise ValueError(f"{NGINX_SITE} no longer says {old!r}: update bench/servers.py")
        text = text.replace(old, new)
    return text


@contextlib.contextmanager
def nginx(port: int, upstream: int):
    """Debian's nginx with the shipped site on 127.0.0.1:`port`, in front of 127.0.0.1:`upstream`;
    yields the folder holding its logs (companion.access.log...)."""
    if not NGINX.exists():
        raise FileNotFoundError("nginx is missing: `make nginx` installs Debian's package")
    base = Path(tempfile.mkdtemp(prefix="companion-nginx-"))
    base.chmod(0o755)  # nginx's workers (nobody when run as root) write its temporary files here
    (base / "site.conf").write_text(nginx_site(port, upstream, base), encoding="utf-8")
    temp = " ".join(f"{kind}_temp_path {base / kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                     "uwsgi", "scgi"))
    (base / "nginx.conf").write_text(
        f"worker_processes 1;\nworker_rlimit_nofile 4096;\npid {base / 'nginx.pid'};\n"
        f"error_log {base / 'error.log'} warn;\nevents {{ worker_connections 768; }}\n"  # Debian's
        f"http {{ {temp} include {base / 'site.conf'}; }}\n", encoding="utf-8")
    proc = subprocess.Popen([str(NGINX), "-p", str(base), "-c", str(base / "nginx.conf"),
                             "-e", str(base / "error.log"), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                log = base / "error.log"
                raise RuntimeError("nginx did not start: " + (log.read_text() if log.exists() else ""))
            time.sleep(0.1)
        yield base
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGQUIT)  # graceful: finish what is under way
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        shutil.rmtree(base, ignore_errors=True)
