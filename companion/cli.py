"""`python -m companion …`: score a document, print sheets, from the command line.

Errors go to standard error as `path: message`, one a line, and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

from . import games, jsonio
from .games.core import InvalidDocument

EXIT_INVALID = 2


class Failure(Exception):
    """A user error: its lines are printed to standard error and the exit status is 2."""

    def __init__(self, lines: Sequence[str]):
        super().__init__("\n".join(lines))
        self.lines = list(lines)


def read_document(source: str, stdin=None) -> object:
    label = "entrée standard" if source == "-" else source
    try:
        if source == "-":
            text = (stdin or sys.stdin).read()
        else:
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
    except FileNotFoundError:
        raise Failure([f"{label}: fichier introuvable"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise Failure([f"{label}: lecture impossible ({exc.__class__.__name__})"]) from None
    try:
        return jsonio.parse(text)
    except jsonio.NotJson as exc:
        where = f" (ligne {exc.line}, colonne {exc.column})" if exc.line else ""
        raise Failure([f"document: {label} : {exc}{where}"]) from None
    except InvalidDocument as exc:
        raise Failure([f"{p.path}: {p.message}" for p in exc.problems]) from None


def score_document(doc: object) -> games.Result:
    try:
        return games.score(doc)
    except InvalidDocument as exc:
        raise Failure([f"{p.path}: {p.message}" for p in exc.problems]) from None


def cmd_score(args, stdout, stdin) -> int:
    result = score_document(read_document(args.file, stdin))
    json.dump(result.to_dict(), stdout, ensure_ascii=False, indent=2)
    stdout.write("\n")
    return 0


COMMANDS = {"score": cmd_score}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m companion",
        description="Compagnon de score pour Rebirth, Reterra et Revive.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="commande")
    p = sub.add_parser("score", help="calcule le résultat d'une partie (document JSON du contrat)")
    p.add_argument("file", help="fichier JSON de la partie, ou - pour l'entrée standard")
    for module in EXTENSIONS:
        importlib.import_module(module).extend(sub, COMMANDS)
    return parser


# Modules adding sub-commands: each has `extend(subparsers, commands)`, which adds its parsers
# and their functions to `commands`. Imported only when the CLI runs.
EXTENSIONS = ("companion.pdf.cli", "companion.exchange_cli")


def main(argv: Sequence[str] | None = None, stdout=None, stderr=None, stdin=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args, stdout, stdin)
    except Failure as failure:
        for line in failure.lines:
            print(line, file=stderr)
        return EXIT_INVALID

