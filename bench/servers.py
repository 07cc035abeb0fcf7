"""Throw-away servers for the load benchmark and the tests: PostgreSQL on a private Unix socket
(Debian's binaries) and gunicorn with the repository's gunicorn.conf.py on loopback. Both are
stopped on the way out, whatever happened."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
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
        cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
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
