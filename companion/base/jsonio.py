"""Reading a JSON document strictly, for the API and the CLI alike.

Python's `json.loads` is lenient where the contract is not: it keeps the last of two equal keys
(`"track": 999, "track": 48` would score 48, silently), accepts `NaN`/`Infinity`, and turns a lone
UTF-16 surrogate escape (`"A\\ud800"`) into a string that cannot be encoded again (the answer then
fails with a 500). `parse` refuses all three: syntax errors raise `NotJson`, the others
`InvalidDocument` with the path of each offending key or value, as the engines do.

Nesting is bounded (`MAX_DEPTH`): JSON nested 50,000 deep stops `json.loads` with a RecursionError,
and a value nested just under the interpreter's limit would stop whatever walks it next (a copy, a
`json.dumps`). `parse` and `loads` (the web forms' small JSON fields) refuse both with `NotJson`.
"""

from __future__ import annotations

import json
import re

from ..games.core import ROOT, InvalidDocument, Problem, join
from ..games.i18n import _

# A surrogate can only come from a \\uD800-\\uDFFF escape (strict UTF-8 decoding refuses raw ones),
# so documents without one skip the walk for surrogates.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# Deeper than any document (an export file: games[i].document.players[j].cities[k].tiles[l]... is 9).
MAX_DEPTH = 64


class NotJson(ValueError):
    """The text is not JSON at all; `line` and `column` say where reading stopped (1-based)."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.line = line
        self.column = column


class TooDeep(NotJson):
    """The text nests lists and objects deeper than MAX_DEPTH."""


class _Object(dict):
    """A JSON object that remembers the keys it was given more than once."""

    __slots__ = ("duplicates",)


def _pairs(pairs: list[tuple[str, object]], found: list | None = None) -> dict:
    """An object as read: a plain dict, or an `_Object` naming its duplicate keys (then noted in
    `found`, so that `parse` walks the value for their paths only when there are some)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        obj = _Object(pairs)
        seen: set[str] = set()
        dups = []
        for key, _ in pairs:
            if key in seen and key not in dups:
                dups.append(key)
            seen.add(key)
        obj.duplicates = dups
        if found is not None:
            found.append(obj)
    return obj


def _no_constant(name: str):
    raise NotJson(_("{name} n'est pas une valeur JSON", name=name))


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def shown(key: str) -> str:
    """A key as a path can print it: lone surrogates written as \\udXXX escapes."""
    return key.encode("utf-8", "backslashreplace").decode("utf-8") if _has_surrogate(key) else key


def _problems(value: object, surrogates: bool) -> list[Problem]:
    """Every duplicate key and (when `surrogates`) every lone surrogate, with its path; NotJson when
    the value nests deeper than MAX_DEPTH."""
    problems: list[Problem] = []
    bad_text = _("contient un caractère invalide (moitié isolée d'une paire UTF-16, écrite \\ud800 à "
                 "\\udfff) : ce n'est pas du texte Unicode")
    bad_key = _("le nom de cette clé contient un caractère invalide (moitié isolée d'une paire UTF-16, "
                "écrite \\ud800 à \\udfff) : ce n'est pas du texte Unicode")
    stack: list[tuple[str, object, int]] = [(ROOT, value, 1)]
    while stack:
        path, item, depth = stack.pop()
        if isinstance(item, dict | list) and depth > MAX_DEPTH:
            raise _too_deep()
        if isinstance(item, dict):
            for key in getattr(item, "duplicates", ()):
                problems.append(Problem(join(path, shown(key)),
                                        _("clé présente plusieurs fois dans le même objet : une seule "
                                          "valeur par clé")))
            for key, child in item.items():
                child_path = join(path, shown(key))
                if surrogates and _has_surrogate(key):
                    problems.append(Problem(child_path, bad_key))
                stack.append((child_path, child, depth + 1))
        elif isinstance(item, list):
            stack.extend((join(path, i), child, depth + 1) for i, child in enumerate(item))
        elif surrogates and isinstance(item, str) and _has_surrogate(item):
            problems.append(Problem(path, bad_text))
    problems.sort(key=lambda p: p.path)
    return problems


def _too_deep() -> TooDeep:
    return TooDeep(_("le JSON est imbriqué trop profondément (au plus {n} niveaux)", n=MAX_DEPTH))


def depth_over(value: object, limit: int = MAX_DEPTH) -> bool:
    """True when `value` nests lists and objects more than `limit` deep (walked without recursion,
    a level at a time, looking only at lists and objects: a 10,000-game file in a fifth of a second)."""
    level = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list = []
        for item in level:
            below.extend(child for child in (item.values() if isinstance(item, dict) else item)
                         if isinstance(child, dict | list))
        level = below
    return False


def loads(text: str | bytes) -> object:
    """Plain `json.loads` for the small JSON fields a page posts (the autosave's `changes`): any
    text that is not JSON, or nests too deep, raises `NotJson` (a ValueError), never RecursionError."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise _too_deep() from None
    if depth_over(value):
        raise _too_deep()
    return value


def parse(data: str | bytes) -> object:
    """The document in `data` (UTF-8 bytes or text); NotJson or InvalidDocument otherwise."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise NotJson(_("le texte n'est pas de l'UTF-8 valide (octet {n})", n=exc.start + 1)) from None

    duplicated: list = []
    try:
        value = json.loads(data, object_pairs_hook=lambda pairs: _pairs(pairs, duplicated),
                           parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise NotJson(_("ce n'est pas du JSON valide"), exc.lineno, exc.colno) from None
    except RecursionError:
        raise _too_deep() from None
    except ValueError as exc:  # a number too long to read, NaN...
        raise NotJson(str(exc) if isinstance(exc, NotJson) else _("nombre illisible")) from None
    surrogates = bool(SURROGATE_ESCAPE.search(data))
    if not (duplicated or surrogates):  # nothing to report by path: only the depth to check
        if depth_over(value):
            raise _too_deep()
        return value
    problems = _problems(value, surrogates=surrogates)
    if problems:
        raise InvalidDocument(problems)
    return value
