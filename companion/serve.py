"""`make run`: serve the table's phones from one laptop (or a Raspberry Pi) on the room's Wi-Fi.

`python -m companion.serve [--host H] [--port P] [--dev] [--lang en]`

The tested production server (gunicorn with gunicorn.conf.py, never debug), on every interface
unless `--host` (HOST in the Makefile) keeps it to one. Once a worker is ready to answer, the
terminal says which address the phones open (this machine's network address, every one labelled
when there are several) and draws it as a QR code. A busy port is said in one line and the next
free one taken.
The address found is handed to the app (COMPANION_LAN_ADDRESS), so that a page opened on this
machine at 127.0.0.1 still gives links and QR codes the phones can open (companion.links).

`--dev` runs Flask's development server with its reloader instead (`make dev`), same banner.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from . import lan, qr
from .games import i18n
from .games.i18n import _

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_HOST = "0.0.0.0"  # noqa: S104 - serving the room is the point; HOST=127.0.0.1 keeps it local
DEFAULT_PORT = 5000
PORTS_TRIED = 20


class Refused(Exception):
    """A one-line reason the server cannot start (printed without a traceback, exit status 2)."""


def free_port(host: str, port: int, tries: int = PORTS_TRIED) -> int:
    """`port` if it can be bound on `host`, else the next free one; Refused when none is."""
    for candidate in range(port, min(port + tries, 65536)):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            # As gunicorn binds: a port left in TIME_WAIT by a server just stopped is free.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((host, candidate))
                return candidate
            except OSError as exc:
                if exc.errno == errno.EADDRNOTAVAIL:
                    raise Refused(_("L'adresse {host} n'est pas une adresse de cette machine.",
                                    host=host)) from None
                if exc.errno == errno.EACCES:
                    raise Refused(_("Le port {port} est réservé (ports sous 1024) : choisissez-en un "
                                    "autre, par exemple PORT=5000.", port=candidate)) from None
                if exc.errno != errno.EADDRINUSE:
                    raise Refused(f"{host}:{candidate} : {exc.strerror}") from None
    raise Refused(_("Les ports {first} à {last} sont tous pris : choisissez-en un autre avec PORT=…",
                    first=port, last=port + tries - 1))


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


def _gunicorn(host: str, port: int, text: str) -> None:
    """gunicorn with gunicorn.conf.py (the tested setup), quiet but for the banner and errors."""
    from gunicorn.app.wsgiapp import WSGIApplication

    flag = Path(tempfile.mkdtemp(prefix="companion-serve-")) / "announced"

    class TableServer(WSGIApplication):
        def load_config(self) -> None:
            super().load_config()
            earlier = self.cfg.post_worker_init

            def post_worker_init(worker) -> None:
                """Ready means a worker that has loaded the app (and warmed WeasyPrint) is about to
                take requests: the first one to get here prints the banner, once."""
                earlier(worker)
                try:
                    os.close(os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                except FileExistsError:
                    return
                sys.stdout.write(text)
                sys.stdout.flush()

            self.cfg.set("post_worker_init", post_worker_init)
            if "GUNICORN_ACCESS_LOG" not in os.environ:  # a line per autosave would scroll the code away
                self.cfg.set("accesslog", None)
            if "GUNICORN_LOG_LEVEL" not in os.environ:
                self.cfg.set("loglevel", "warning")
            else:
                self.cfg.set("loglevel", os.environ["GUNICORN_LOG_LEVEL"])

    sys.argv = ["gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "--bind", f"{host}:{port}",
                "--chdir", str(ROOT), "companion:create_app()"]
    TableServer("%(prog)s [OPTIONS] [APP_MODULE]").run()


def _flask_dev(host: str, port: int, text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
    os.chdir(ROOT)
    os.execv(sys.executable, [sys.executable, "-m", "flask", "--app", "companion", "--debug", "run",  # noqa: S606
                              "--host", host, "--port", str(port)])


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m companion.serve",
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
            port = free_port(args.host, args.port)
        except Refused as exc:
            print(exc, file=sys.stderr)
            return 2
        if port != args.port:
            print(_("Le port {busy} est déjà pris (un autre programme l'utilise) : le compagnon prend le "
                    "port {port}.", busy=args.port, port=port), flush=True)
        phones = addresses_for(args.host)
        os.environ["COMPANION_LAN_ADDRESS"] = phones[0].address if phones else ""
        text = banner(args.host, port, phones)
    (_flask_dev if args.dev else _gunicorn)(args.host, port, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
