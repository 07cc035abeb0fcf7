"""`make run`: serve the table's phones from one laptop (or a Raspberry Pi) on the room's Wi-Fi.

`python -m companion.server.serve [--host H] [--port P] [--dev] [--lang en]`

The tested production server (gunicorn with gunicorn.conf.py, never debug) behind nginx when the
machine has it (companion.server.front: nginx reads whole requests, so slow clients hold nothing of gunicorn),
on every interface unless `--host` (HOST in the Makefile) keeps it to one. Once a worker is ready to
answer, the terminal says which address the phones open (this machine's network address, every one
labelled when there are several) and draws it as a QR code. A port still held by this clone's
previous run, whose master died, is waited for (its nginx stopped, its workers let go within a
second); a port another program holds is said in one line and the next free one taken.
The address found is handed to the app (COMPANION_LAN_ADDRESS), so that a page opened on this
machine at 127.0.0.1 still gives links and QR codes the phones can open (companion.web.links).

`--dev` runs Flask's development server with its reloader instead (`make dev`), same banner, printed
once the app answers its own address (asked until it does, each probe bounded).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import http.client
import ipaddress
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..games import i18n
from ..games.i18n import _
from ..web import qr
from . import front, lan

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_HOST = "0.0.0.0"  # noqa: S104 - serving the room is the point; HOST=127.0.0.1 keeps it local
DEFAULT_PORT = 5000
PORTS_TRIED = 20
# A master killed outright leaves workers behind; they let go of the port within a second
# (companion.server.workers), this is the bound `make run` waits for them before it takes another port.
LETTING_GO_WITHIN = 45.0
# `make dev`: how long the banner waits for the development server to answer its home page (a ceiling:
# it comes as soon as the app answers), and how long one probe may wait for an answer.
DEV_READY_WITHIN = 300.0
PROBE_TIMEOUT = 5.0


class Refused(Exception):
    """A one-line reason the server cannot start (printed without a traceback, exit status 2)."""


def bindable(host: str, port: int) -> bool:
    """Whether `port` can be bound on `host` now; Refused for anything but a busy port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # As gunicorn and nginx bind: a port left in TIME_WAIT by a server just stopped is free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
            return True
        except OSError as exc:
            if exc.errno == errno.EADDRNOTAVAIL:
                raise Refused(_("L'adresse {host} n'est pas une adresse de cette machine.",
                                host=host)) from None
            if exc.errno == errno.EACCES:
                raise Refused(_("Le port {port} est réservé (ports sous 1024) : choisissez-en un "
                                "autre, par exemple PORT=5000.", port=port)) from None
            if exc.errno != errno.EADDRINUSE:
                raise Refused(f"{host}:{port} : {exc.strerror}") from None
            return False


def free_port(host: str, port: int, tries: int = PORTS_TRIED) -> int:
    """`port` if it can be bound on `host`, else the next free one; Refused when none is."""
    for candidate in range(port, min(port + tries, 65536)):
        if bindable(host, candidate):
            return candidate
    raise Refused(_("Les ports {first} à {last} sont tous pris : choisissez-en un autre avec PORT=…",
                    first=port, last=port + tries - 1))


def instance_folder() -> Path:
    return Path(os.environ.get("COMPANION_INSTANCE") or ROOT / "instance")


def record_of(port: int) -> Path:
    """Where a running `make run` on `port` writes its master's (and its nginx's) process id."""
    return instance_folder() / f"serve-{port}.json"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _ours(pid: int, mark: str) -> bool:
    """Whether process `pid` still is what we started (its command line names `mark`), where the
    system tells (Linux); elsewhere the record is trusted."""
    try:
        return mark in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except FileNotFoundError:
        return not Path("/proc/self").exists() and _alive(pid)
    except OSError:
        return False


def previous_run(port: int) -> dict | None:
    """The record of an earlier `make run` of this clone on `port` whose master has died, or None
    (no record, or its master still runs: another server, which keeps its port)."""
    try:
        record = json.loads(record_of(port).read_text(encoding="utf-8"))
        master = int(record["master"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return None if _alive(master) else record


def reclaim(host: str, port: int, record: dict, within: float = LETTING_GO_WITHIN) -> bool:
    """Have an earlier run's leftovers let go of `port`: its nginx is stopped at once (when the
    kernel has not already), its workers are waited for; True once the port can be bound."""
    nginx, folder = record.get("nginx"), str(record.get("folder") or "")
    if isinstance(nginx, int) and folder and _ours(nginx, folder):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(nginx, signal.SIGTERM)
    if folder.startswith(tempfile.gettempdir()) and "companion-serve-" in folder:
        shutil.rmtree(folder, ignore_errors=True)  # its configuration and Unix socket, left behind
    deadline = time.monotonic() + within
    while not bindable(host, port):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def choose_port(host: str, port: int) -> int:
    """`port`, once an earlier `make run` of this clone that died there has let go of it (said in a
    line); the next free one only when another program holds it (said in a line)."""
    if not bindable(host, port):
        record = previous_run(port)
        if record is not None:
            print(_("Le port {port} est encore tenu par le compagnon lancé avant (arrêté brutalement) : "
                    "le compagnon attend qu'il le libère.", port=port), flush=True)
            reclaim(host, port, record)
    chosen = free_port(host, port)
    if chosen != port:
        print(_("Le port {busy} est déjà pris (un autre programme l'utilise) : le compagnon prend le "
                "port {port}.", busy=port, port=chosen), flush=True)
    return chosen


def addresses_for(host: str, found: Callable[[], list[lan.Interface]] = lan.interfaces,
                  ) -> list[lan.Interface]:
    """What the phones can open for a server bound to `host`: every network address of this machine
    for 0.0.0.0, the address itself for a specific one, nothing for loopback."""
    ip = ipaddress.ip_address(host)
    if ip.is_unspecified:
        return lan.phone_addresses(found())
    if ip.is_loopback:
        return []
    return [lan.Interface("", host)]


def banner(host: str, port: int, phones: Sequence[lan.Interface]) -> str:
    """What the terminal shows once the server listens."""
    local = lan.url("127.0.0.1" if ipaddress.ip_address(host).is_unspecified else host, port)
    lines = ["", _("Le compagnon est prêt.")]
    if phones:
        lines.append(_("Sur les téléphones de la table (même Wi-Fi que cette machine), ouvrez :"))
        width = max(len(lan.url(p.address, port)) for p in phones)
        for phone in phones:
            label = f"  ({phone.name})" if phone.name and len(phones) > 1 else ""
            lines.append(f"  {lan.url(phone.address, port).ljust(width)}{label}")
        lines.append(_("ou scannez ce code :"))
        lines.append(qr.terminal(lan.url(phones[0].address, port)).rstrip("\n"))
    elif ipaddress.ip_address(host).is_loopback:
        lines.append(_("Réservé à cette machine (HOST={host}) : les téléphones ne peuvent pas l'ouvrir. "
                       "`make run` sans HOST sert toute la table.", host=host))
    else:
        lines.append(_("Aucune adresse réseau trouvée : branchez cette machine au Wi-Fi de la table, "
                       "puis relancez."))
    lines.append(_("Sur cette machine : {url}", url=local))
    lines.append(_("Ctrl+C pour arrêter."))
    return "\n".join(lines) + "\n"


def proxied(host: str, port: int) -> tuple[front.Front | None, str]:
    """nginx on `host:port` when there is one, and what gunicorn binds: nginx's Unix socket, else
    `host:port` itself (said in a line when that leaves the room's slow clients to gunicorn)."""
    nginx = front.binary()
    if nginx:
        try:
            proxy, bind = front.start(nginx, host, port)
        except (front.Failed, OSError) as exc:
            print(_("nginx n'a pas démarré ({reason}) : gunicorn sert seul, sans protection contre "
                    "les connexions lentes.", reason=str(exc).strip()), flush=True)
        else:
            os.environ.setdefault("TRUSTED_PROXIES", "1")  # nginx's X-Forwarded-For: the phone's address
            return proxy, bind
    elif not ipaddress.ip_address(host).is_loopback:
        print(_("nginx est absent : gunicorn sert seul, et des connexions lentes du Wi-Fi peuvent le "
                "bloquer. Installez nginx (sous Debian, `make run` le fait avec apt-get)."), flush=True)
    return None, f"{host}:{port}"


def _gunicorn(port: int, text: str, proxy: front.Front | None, bind: str) -> None:
    """gunicorn with gunicorn.conf.py (the tested setup) on `bind`, quiet but for the banner and
    errors; the run is recorded for the next one (choose_port), nginx stopped with it."""
    from gunicorn.app.wsgiapp import WSGIApplication

    record = record_of(port)
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps({"master": os.getpid(), "nginx": proxy.pid if proxy else None,
                                  "folder": str(proxy.folder) if proxy else ""}), encoding="utf-8")
    master = os.getpid()

    def on_exit(_arbiter) -> None:
        if os.getpid() != master:
            return
        if proxy is not None:
            proxy.stop()
        record.unlink(missing_ok=True)
        flag.unlink(missing_ok=True)

    flag = record.with_suffix(".announced")  # made by the first worker ready: the banner once
    flag.unlink(missing_ok=True)

    class TableServer(WSGIApplication):
        def load_config(self) -> None:
            super().load_config()
            earlier = self.cfg.post_worker_init

            def post_worker_init(worker) -> None:
                """Ready means a worker that has loaded the app (and warmed WeasyPrint) is about to
                take requests: the first one to get here prints the banner, once."""
                earlier(worker)
                if os.getppid() != worker.ppid:  # its master died meanwhile: nothing is served
                    return
                try:
                    os.close(os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                except FileExistsError:
                    return
                sys.stdout.write(text)
                sys.stdout.flush()

            self.cfg.set("post_worker_init", post_worker_init)
            self.cfg.set("on_exit", on_exit)
            if "GUNICORN_ACCESS_LOG" not in os.environ:  # a line per autosave would scroll the code away
                self.cfg.set("accesslog", None)
            if "GUNICORN_LOG_LEVEL" not in os.environ:
                self.cfg.set("loglevel", "warning")
            else:
                self.cfg.set("loglevel", os.environ["GUNICORN_LOG_LEVEL"])

    sys.argv = ["gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "--bind", bind,
                "--chdir", str(ROOT), "companion:create_app()"]
    TableServer("%(prog)s [OPTIONS] [APP_MODULE]").run()


def answers(host: str, port: int, timeout: float) -> bool:
    """True once the app at host:port gives an HTTP answer to its home page (whatever its status: a
    500 is the app answering, its traceback in the terminal). Straight to the socket, never through
    a proxy the environment names."""
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request("GET", "/")
        connection.getresponse().read()
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()
    return True


def wait_until_answering(host: str, port: int, server: subprocess.Popen, within: float,
                         every: float = 0.25) -> bool:
    """Asks the app until it answers (True), the server exits or `within` seconds pass (False). A
    probe waits at most PROBE_TIMEOUT (a server that accepted but is still loading the app); between
    two probes, the server's exit is what is waited for."""
    deadline = time.monotonic() + within
    while server.poll() is None and (left := deadline - time.monotonic()) > 0:
        if answers(host, port, min(PROBE_TIMEOUT, left)):
            return True
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=max(0.0, min(every, deadline - time.monotonic())))
    return False


def _flask_dev(host: str, port: int, text: str, within: float = DEV_READY_WITHIN) -> int:
    """Flask's development server (reloader, debugger) in a child process; the banner once the app
    answers on its own address, not when the server starts (importing the app and its first page take
    long on a busy machine: a phone opening the address earlier would find nothing)."""
    server = subprocess.Popen([sys.executable, "-m", "flask", "--app", "companion", "--debug", "run",  # noqa: S603
                               "--host", host, "--port", str(port)], cwd=ROOT)
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())
    local = "127.0.0.1" if ipaddress.ip_address(host).is_unspecified else host
    try:
        if wait_until_answering(local, port, server, within):
            sys.stdout.write(text)
        elif server.poll() is None:
            sys.stdout.write(_("Le serveur de développement ne répond pas encore après {seconds} s "
                               "({url}) : il démarre toujours, ou une erreur est affichée plus haut.",
                               seconds=round(within), url=lan.url(local, port)) + "\n")
        sys.stdout.flush()
        return server.wait()
    except KeyboardInterrupt:  # Ctrl+C reached the server too (the terminal's whole process group)
        try:
            return server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            return server.wait()


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m companion.server.serve",
                                     description=_("Sert le compagnon aux téléphones de la table."))
    parser.add_argument("--host", default=os.environ.get("HOST") or DEFAULT_HOST,
                        help=_("adresse d'écoute (toutes par défaut ; 127.0.0.1 : cette machine seule)"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or DEFAULT_PORT))
    parser.add_argument("--dev", action="store_true",
                        help=_("serveur de développement de Flask, avec rechargement"))
    parser.add_argument("--lang", choices=i18n.LANGUAGES, default=None)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    terminal = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG")
    with i18n.using(args.lang or i18n.normalise(terminal)):
        try:  # a name (some shells export HOST=the machine's name) stands for its address
            args.host = socket.gethostbyname(args.host)
        except (OSError, UnicodeError):
            print(_("HOST={host} : une adresse IPv4 est attendue (0.0.0.0 pour toute la table, "
                    "127.0.0.1 pour cette machine seule).", host=args.host), file=sys.stderr)
            return 2
        try:
            port = choose_port(args.host, args.port)
        except Refused as exc:
            print(exc, file=sys.stderr)
            return 2
        phones = addresses_for(args.host)
        os.environ["COMPANION_LAN_ADDRESS"] = phones[0].address if phones else ""
        text = banner(args.host, port, phones)
        if args.dev:
            return _flask_dev(args.host, port, text)
        proxy, bind = proxied(args.host, port)
    _gunicorn(port, text, proxy, bind)
    return 0


if __name__ == "__main__":
    sys.exit(main())
