"""Problems placed beside their fields: a save's own messages and the engine's, each put on the field
of its contract path (or the nearest enclosing one, else at the top of the page) by ONE function,
`place`, and the verdict a save stores by (`Checked`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from .. import games
from .spec import Fixed, Group, Reading, Rows


def field_for(path: str, paths: Mapping[str, str]) -> str | None:
    """The field showing a contract path's problem: its own, else the nearest enclosing one."""
    while path:
        if path in paths:
            return paths[path]
        cut = max(path.rfind("."), path.rfind("["))
        if cut <= 0:
            return None
        path = path[:cut]
    return None


@dataclass
class Checked:
    """What a save gives: the document, messages by field, and whether it scores.

    `document` is None when a value is bad on its own (not a number, out of bounds): such a value is
    never stored. A rule between fields that is not met yet (a castle holder before the castles are
    typed) leaves the document storable, as a draft: `ok` (it scores) is then False and the messages
    say what to complete before the results."""

    document: dict | None
    errors: dict[str, list[str]]
    general: list[str]
    result: games.Result | None = None
    # the fields holding a value wrong on its own (a typing error, the engine's `check.add`), each
    # with its message beside it: a save leaves out those it changed and keeps the rest
    refused: frozenset[str] = frozenset()

    @property
    def ok(self) -> bool:
        return self.document is not None and self.result is not None and not self.errors and not self.general

    @property
    def storable(self) -> bool:
        return self.document is not None


def put(errors: dict[str, list[str]], general: list[str], name: str | None, message: str) -> None:
    """One message beside the field `name` (None: at the top of the page), once."""
    bucket = general if name is None else errors.setdefault(name, [])
    if message not in bucket:
        bucket.append(message)


def place(problems: Iterable[games.Problem], paths: Mapping[str, str], errors: dict[str, list[str]],
          general: list[str], *, say: Callable[[str], str] | None = None, keep: Iterable[str] = (),
          loose: Iterable[str] = ()) -> None:
    """THE way a problem goes beside its field: each on the field of its contract path (the nearest
    enclosing one, `field_for`), those with no field, or on a field named in `loose` (the seat list
    has no message slot), at the top of the page (`general`); every message once per place. `say`:
    how the page words an engine message; a field named in `keep` (one with a typing error already)
    keeps only its own message."""
    keep, loose = set(keep), set(loose)
    for problem in problems:
        name = field_for(problem.path, paths)
        if name in keep:
            continue
        message = say(problem.message) if say else problem.message
        put(errors, general, None if name in loose else name, message)


def fold(errors: dict[str, list[str]], general: list[str], names: Iterable[str]) -> None:
    """The messages of fields the page has no slot for (`names`) moved to the top of the page."""
    for name in [n for n in names if n in errors]:
        for message in errors.pop(name):
            put(errors, general, None, message)


def engine_verdict(document: dict, paths: Mapping[str, str], errors: dict[str, list[str]],
                   general: list[str], own: set[str] | None = None,
                   say: Callable[[str], str] | None = None) -> tuple[games.Result | None, bool]:
    """The engine's result of `document`, or its problems `place`d beside their fields (as the page
    words them, `say`); True when one of them is more than a rule between fields (a draft). `own`,
    when given, gets the fields of the problems that are values wrong on their own."""
    try:
        return games.score(document), False
    except games.InvalidDocument as exc:
        place(exc.problems, paths, errors, general, say=say)
        wrong = [problem for problem in exc.problems if problem.kind != games.RULE]
        if own is not None:
            own.update(name for name in (field_for(p.path, paths) for p in wrong) if name is not None)
        return None, bool(wrong)


def check(document: dict, reading: Reading, say: Callable[[str], str] | None = None) -> Checked:
    """A document read from its fields (`reading`), checked: the fields' own messages, then the
    engine's, each beside the field of its path; messages of fields the page has no slot for
    (`shows` False: the seat list) at the top. Blocking unless the engine's are all rules between
    fields."""
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    for name, said in reading.messages.items():
        for message in said:
            put(errors, general, name, message)
    own = {name for name, said in reading.messages.items() if said}
    result, refused = engine_verdict(document, reading.paths, errors, general, own, say)
    blocking = bool(own) or refused
    fold(errors, general, [n for n in errors if not shows(reading, n)])
    return Checked(None if blocking else document, errors, general, result, frozenset(own & errors.keys()))


def shows(reading: Reading, name: str) -> bool:
    """Whether the page read by `reading` has a field (or a group, a list, a row) of that name: a
    place for its messages (the seat list has none)."""
    if name == "players" or reading.spec is None:
        return False
    parts = name.split("-")
    seat = parts[0] == "players"
    if seat and (len(parts) < 2 or not parts[1].isdigit() or int(parts[1]) >= len(reading.players)):
        return False
    node, parts = (reading.spec.player, parts[2:]) if seat else (reading.spec.table, parts)
    for part in parts:
        if type(node) is Group:
            node = next((sub for key, sub in node.fields if key == part), None)
            if node is None:
                return False
        elif type(node) in (Rows, Fixed):
            limit = node.max_entries if type(node) is Rows else node.n
            if not (part.isdigit() and int(part) < limit):
                return False
            node = node.item
        else:
            return False
    return True
