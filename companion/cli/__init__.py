"""`python -m companion …`: score a document, print sheets, from the command line.

Errors go to standard error as `path: message`, one a line, and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

from .. import games
from ..base import jsonio
from ..games import i18n, needed
from ..games.core import InvalidDocument
from ..games.i18n import _

EXIT_INVALID = 2


class Failure(Exception):
    """A user error: its lines are printed to standard error and the exit status is 2."""

    def __init__(self, lines: Sequence[str]):
        super().__init__("\n".join(lines))
        self.lines = list(lines)


def read_document(source: str, stdin=None) -> object:
    label = _("entrée standard") if source == "-" else source
    try:
        if source == "-":
            text = (stdin or sys.stdin).read()
        else:
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
    except FileNotFoundError:
        raise Failure([_("{label}: fichier introuvable", label=label)]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise Failure([_("{label}: lecture impossible ({reason})", label=label,
                         reason=exc.__class__.__name__)]) from None
    try:
        return jsonio.parse(text)
    except jsonio.NotJson as exc:
        where = _(" (ligne {line}, colonne {column})", line=exc.line, column=exc.column) if exc.line else ""
        raise Failure([_("document: {label} : {exc}{where}", label=label, exc=exc, where=where)]) from None
    except InvalidDocument as exc:
        raise Failure([f"{p.path}: {p.message}" for p in exc.problems]) from None


def score_document(doc: object, edition: str | None = None) -> games.Result:
    try:
        return games.score(doc, edition=edition)
    except InvalidDocument as exc:
        raise Failure([f"{p.path}: {p.message}" for p in exc.problems]) from None


def cmd_score(args, stdout, stdin) -> int:
    doc = read_document(args.file, stdin)
    edition = getattr(args, "edition", None)
    result = score_document(doc, edition)
    body = result.to_dict()
    if getattr(args, "needed", False):  # what each player who did not win would have needed
        body["needed"] = needed.to_json(games.needs(doc, result, edition=edition))
    json.dump(body, stdout, ensure_ascii=False, indent=2)
    stdout.write("\n")
    return 0


COMMANDS = {"score": cmd_score}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m companion",
        description=_("Compagnon de score pour Rebirth, Reterra et Revive."))
    parser.add_argument("--lang", choices=i18n.LANGUAGES, default=i18n.DEFAULT,
                        help=_("langue des messages et des feuilles (fr par défaut, en)"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="commande")
    p = sub.add_parser("score", help=_("calcule le résultat d'une partie (document JSON du contrat)"))
    p.add_argument("file", help=_("fichier JSON de la partie, ou - pour l'entrée standard"))
    p.add_argument("--edition", default=None,
                   help=_("règle de l'édition jouée, pour un jeu qui en a plusieurs (Reterra : fr par "
                          "défaut, en : égalité aux bâtiments)"))
    p.add_argument("--needed", action="store_true",
                   help=_("ajoute « needed » : pour chaque joueur qui n'a pas gagné, le plus petit "
                          "changement de son propre jeu qui l'aurait fait gagner"))
    for module in EXTENSIONS:
        importlib.import_module(module).extend(sub, COMMANDS)
    return parser


# Modules adding sub-commands: each has `extend(subparsers, commands)`, which adds its parsers
# and their functions to `commands`. Imported only when the CLI runs.
EXTENSIONS = ("companion.cli.pdf", "companion.cli.exchange")


def split_lang(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """`--lang en` (or `--lang=en`) anywhere on the line, so that it works after the command too
    (`score game.json --lang en`) and the help itself is in that language."""
    rest, lang, args = [], None, list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--lang" and i + 1 < len(args):
            lang, i = args[i + 1], i + 2
            continue
        if arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    return lang, rest


def main(argv: Sequence[str] | None = None, stdout=None, stderr=None, stdin=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    lang, argv = split_lang(sys.argv[1:] if argv is None else argv)
    with i18n.using(lang):
        if lang is not None and i18n.normalise(lang) is None:
            print(_("--lang : langue inconnue « {lang} » (attendu : {expected})", lang=lang,
                    expected=", ".join(i18n.LANGUAGES)), file=stderr)
            return EXIT_INVALID
        args = build_parser().parse_args(argv)
        try:
            return COMMANDS[args.command](args, stdout, stdin)
        except Failure as failure:
            for line in failure.lines:
                print(line, file=stderr)
            return EXIT_INVALID

