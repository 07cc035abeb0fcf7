"""`python -m companion sheet FILE -o OUT.pdf` and `python -m companion pad GAME VARIANT -o OUT.pdf`.

Listed in companion.cli's EXTENSIONS; errors are `path: message` lines on standard
error with exit status 2, exactly like `score` (same helpers). WeasyPrint is imported only when one
of these commands runs.
"""

from __future__ import annotations

import datetime as dt
import sys

from .. import cli, games
from ..games.core import join_names
from ..games.i18n import _


def _write(pdf: bytes, target: str, stdout) -> None:
    if target == "-":
        out = getattr(stdout, "buffer", None) or getattr(sys.stdout, "buffer", None)
        if out is None:  # pragma: no cover - a text-only stream with no bytes underneath
            raise cli.Failure([_("sortie: la sortie standard n'accepte pas de PDF ; donner -o "
                                 "FICHIER.pdf")])
        out.write(pdf)
        out.flush()
        return
    try:
        with open(target, "wb") as fh:
            fh.write(pdf)
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise cli.Failure([_("{file}: écriture impossible ({reason})", file=target,
                             reason=reason)]) from None


def _date(text: str | None) -> dt.date | None:
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise cli.Failure([_("date: « {text} » n'est pas une date AAAA-MM-JJ", text=text)]) from None


def cmd_sheet(args, stdout, stdin) -> int:
    from ..pdf import sheet_from_result

    day = _date(args.date)
    doc = cli.read_document(args.file, stdin)
    result = cli.score_document(doc, args.edition)
    colours = [c.strip() for c in args.colours.split(",")] if args.colours else None
    sheet = sheet_from_result(doc, result, colours=colours, date=day, edition=args.edition)
    _write(sheet, args.output, stdout)
    return 0


def cmd_pad(args, stdout, stdin) -> int:  # noqa: ARG001 - the commands' shared signature
    from ..pdf import UnknownPad, render_pad

    try:
        pdf = render_pad(args.game, args.variant)
    except UnknownPad as exc:
        raise cli.Failure([f"{exc.path}: {exc.message}"]) from None
    _write(pdf, args.output, stdout)
    return 0


def extend(sub, commands: dict) -> None:
    p = sub.add_parser("sheet", help=_("imprime la feuille de score d'une partie (PDF, A4)"))
    p.add_argument("file", help=_("fichier JSON de la partie, ou - pour l'entrée standard"))
    p.add_argument("-o", "--output", required=True, help=_("fichier PDF à écrire, ou - pour la sortie "
                                                           "standard"))
    p.add_argument("--colours", metavar=_("COULEURS"),
                   help=_("couleurs des joueurs dans l'ordre, séparées par des virgules (« rouge,bleu » "
                          "ou « #c0392b,#2471a3 »)"))
    p.add_argument("--date", metavar=_("AAAA-MM-JJ"), help=_("date imprimée (par défaut : aujourd'hui)"))
    p.add_argument("--edition", default=None,
                   help=_("règle de l'édition jouée, pour un jeu qui en a plusieurs (Reterra : fr par "
                          "défaut, en : égalité aux bâtiments)"))
    commands["sheet"] = cmd_sheet
    p = sub.add_parser("pad", help=_("imprime une feuille de score vierge (PDF, A4)"))
    # the games and variants this build knows (companion.games), never a list written by hand
    p.add_argument("game", help=_("jeu : {games}", games=join_names(list(games.GAMES), "ou")))
    variants = dict.fromkeys(v for game in games.GAMES.values() for v in game.variants)
    p.add_argument("variant", help=_("variante : {variants}", variants=join_names(list(variants), "ou")))
    p.add_argument("-o", "--output", required=True, help=_("fichier PDF à écrire, ou - pour la sortie "
                                                           "standard"))
    commands["pad"] = cmd_pad

