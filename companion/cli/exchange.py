"""`python -m companion export` and `python -m companion import FILE`: the "Mes parties" export and
restore, for a whole server (or one device) from the command line.

Listed in companion.cli's EXTENSIONS; errors are `path: message` lines on standard error with exit
status 2, and an import with any error changes nothing. The database is the app's (DATABASE_URL, or
instance/companion.sqlite3).
"""

from __future__ import annotations

import sys

from .. import cli
from ..games.i18n import N_, _, ngettext, tr

DEVICE_HELP = N_("identifiant d'appareil (cookie companion_device) : ses parties seulement / les "
                 "ajouter à sa liste")


def _app():
    from .. import create_app

    return create_app()


def cmd_export(args, stdout, stdin) -> int:  # noqa: ARG001 - the commands' shared signature
    from ..outputs import exchange

    with _app().app_context():
        records = exchange.records(args.device)
        text = exchange.csv_text(records) if args.format == "csv" else exchange.json_text(records)
    if args.output == "-":
        stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as exc:
            reason = exc.strerror or exc.__class__.__name__
            raise cli.Failure([_("{file}: écriture impossible ({reason})", file=args.output,
                                 reason=reason)]) from None
        print(ngettext("{n} partie exportée dans {file}", "{n} parties exportées dans {file}", len(records),
                       file=args.output), file=stdout)
    return 0


def cmd_import(args, stdout, stdin) -> int:
    from ..outputs import exchange
    from ..views.exchange import said

    label = _("entrée standard") if args.file == "-" else args.file
    try:
        if args.file == "-":
            data = (stdin or sys.stdin).read()
        else:
            with open(args.file, "rb") as fh:
                data = fh.read()
    except FileNotFoundError:
        raise cli.Failure([_("{label}: fichier introuvable", label=label)]) from None
    except OSError as exc:
        raise cli.Failure([_("{label}: lecture impossible ({reason})", label=label,
                             reason=exc.__class__.__name__)]) from None
    try:
        incoming = exchange.parse(data)
    except exchange.Refused as refused:
        raise cli.Failure([f"{p.path}: {p.message}" for p in refused.problems]) from None
    with _app().app_context():
        try:
            outcome = exchange.restore(incoming, args.device)
        except exchange.Refused as refused:
            raise cli.Failure([f"{p.path}: {p.message}" for p in refused.problems]) from None
        print(said(outcome), file=stdout)
        for record in outcome.added:
            names = ", ".join(p["name"] for p in record.document["players"])
            print(f"/g/{record.edit_token}/  {record.game} {record.variant} · {names}", file=stdout)
    return 0


def extend(sub, commands: dict) -> None:
    p = sub.add_parser("export", help=_("exporte les parties (JSON à restaurer, ou CSV pour un tableur)"))
    p.add_argument("--format", choices=("json", "csv"), default="json", help=_("json (par défaut) ou csv"))
    p.add_argument("--device", metavar=_("APPAREIL"),
                   help=tr(DEVICE_HELP) + _(" (par défaut : toutes les parties)"))
    p.add_argument("-o", "--output", default="-", help=_("fichier à écrire, ou - pour la sortie standard"))
    commands["export"] = cmd_export
    p = sub.add_parser("import",
                       help=_("restaure un fichier JSON exporté (rien n'est modifié s'il a une erreur)"))
    p.add_argument("file", help=_("fichier JSON exporté, ou - pour l'entrée standard"))
    p.add_argument("--device", metavar=_("APPAREIL"), help=tr(DEVICE_HELP))

    commands["import"] = cmd_import
