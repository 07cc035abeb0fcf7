"""Problems placed beside their fields: the engine's and WTForms' messages about a form or a stored
document, each put on the field of its contract path (or the nearest enclosing one, else at the top
of the page) by ONE function, `place`; and the error summary's names for the fields."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wtforms.fields import FieldList, FormField

from .. import games
from ..games.i18n import _
from .fields import SKIPPED, Rows, walk

if TYPE_CHECKING:
    from .binding import EndState, Screens
    from .steps import Stored

def field_for(path: str, paths: dict[str, str]) -> str | None:
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
    """What a submission gives: the document, messages by field, and whether it scores.

    `document` is None when a value is bad on its own (not a number, out of bounds, an expired
    form): such a value is never stored. A rule between fields that is not met yet (a castle
    holder before the castles are typed) leaves the document storable, as a draft: `ok` (it
    scores) is then False and the messages say what to complete before the results."""

    document: dict | None
    errors: dict[str, list[str]]
    general: list[str]
    result: games.Result | None = None
    # the fields holding a value wrong on its own (a typing error, the engine's `check.add`), each
    # with its message beside it: a save leaves out those it changed and keeps the rest
    # (`companion.saving.service`)
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
    how the page words an engine message (`Screens.say`); a field named in `keep` (one with a typing
    error already) keeps only its own message."""
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


def check(screens_: Screens, record_document: dict, form: EndState) -> Checked:
    """WTForms validation and the engine's, together: every message, each beside its field."""
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    blocking = False
    own: set[str] = set()
    form.validate()
    for f in walk(form):
        if not isinstance(f, FormField | FieldList) and f.errors and f.short_name != "csrf_token":
            blocking = True
            own.add(f.name)
            for message in f.errors:
                put(errors, general, f.name, message)
    if "csrf_token" in form and form.csrf_token.errors:
        blocking = True
        general.append(_("Le formulaire a expiré : rechargez la page (vos saisies restent sur ce "
                         "téléphone)."))
    doc, paths = screens_.to_document(record_document, form)
    result, refused = engine_verdict(screens_, doc, paths, errors, general, own)
    blocking = blocking or refused
    shown = {f.name for f in walk(form)} - {"players"}  # the seat list itself has no message slot
    fold(errors, general, [n for n in errors if n not in shown])
    return Checked(None if blocking else doc, errors, general, result, frozenset(own & errors.keys()))


def engine_verdict(screens_: Screens, document: dict, paths: Mapping[str, str], errors: dict[str, list[str]],
                   general: list[str], own: set[str] | None = None) -> tuple[games.Result | None, bool]:
    """The engine's result of `document`, or its problems `place`d beside their fields (as the page
    words them); True when one of them is more than a rule between fields (a draft). `own`, when
    given, gets the fields of the problems that are values wrong on their own."""
    try:
        return games.score(document), False
    except games.InvalidDocument as exc:
        place(exc.problems, paths, errors, general, say=screens_.say)
        wrong = [problem for problem in exc.problems if problem.kind != games.RULE]
        if own is not None:
            own.update(name for name in (field_for(p.path, paths) for p in wrong) if name is not None)
        return None, bool(wrong)


def problems_of(screens_: Screens, document: dict, form: EndState) -> dict[str, list[str]]:
    """The engine's messages about a stored document, beside their fields (a draft's rules not
    met yet, shown again when the page is reopened)."""
    problems = games.validate(document)
    if not problems:
        return {}
    _, paths = screens_.to_document(document, form)
    errors: dict[str, list[str]] = {}
    place(problems, paths, errors, [], say=screens_.say)
    return errors


def stored_problems(screens_: Screens, view: Stored) -> tuple[dict[str, list[str]], list[str]]:
    """The engine's messages about a stored document (a draft's rules not met yet), read from its
    `Stored` view (no form built): each beside its field, and those with no field of their own
    (the seat list has no message slot), as a save's answer gives them."""
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    place(games.validate(view.document), view.paths, errors, general, say=screens_.say)
    fold(errors, general, ["players"])
    return errors, general


def labels(form) -> dict[str, str]:
    """Field name -> how a player names it ("Éloïse · Châteaux", "Ville 2 · Taille"): the error
    summary's links."""
    out: dict[str, str] = {}
    names = getattr(form, "names", None) or []

    def visit(f, prefix: str, label: str | None = None) -> None:
        text = label or (f.label.text if getattr(f, "label", None) else f.short_name)
        here = f"{prefix} · {text}" if prefix else text
        if f.short_name in SKIPPED:
            return
        out[f.name] = here
        if isinstance(f, FormField):
            for sub in f.form:
                visit(sub, here)
        elif isinstance(f, FieldList):
            item = getattr(f, "item_label", "") or text
            item_labels = getattr(f, "item_labels", None) or []
            # a row says its own name ("Ville 2 · Tuile 1"); a fixed entry keeps its list's
            # ("Cartes gagnées · couleur 1")
            within = prefix if isinstance(f, Rows) and getattr(f, "item_label", "") else here
            for k, entry in enumerate(f.entries):
                name = item_labels[k] if k < len(item_labels) else f"{item} {k + 1}"
                visit(entry, within, name)

    for f in form:
        if f.short_name == "players" and isinstance(f, FieldList):
            for i, entry in enumerate(f.entries):
                who = names[i] if i < len(names) else _("Joueur {n}", n=i + 1)
                out[entry.name] = who
                for sub in entry.form:
                    visit(sub, who)
        else:
            visit(f, "")
    hook = getattr(form, "label_hook", None)
    if hook:  # names a game gives its fields itself (Reterra's counts: by their card's name)
        hook(form, out)
    return out


def summary(form, errors: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """The error summary at the top of the page: (field name, its name for a player, messages),
    in the page's order."""
    if not errors:
        return []  # the common case: no need to name every field
    named = labels(form)
    order = {name: k for k, name in enumerate(named)}
    return [(name, named.get(name, name), " · ".join(errors[name]))
            for name in sorted(errors, key=lambda n: order.get(n, len(order)))]


def warned(screens_: Screens, record_document: dict, form: EndState | Stored,
           result: games.Result | None = None) -> tuple[dict[str, list[str]], list[str]]:
    """The warnings of the document the form describes (likely mistakes, never blocking), each
    beside its field (field name -> messages), and those with no field of their own. `form` may
    be the stored document's `Stored` view (no form built); `result`: the stored document's, used
    only when the form holds that very document."""
    from .steps import Stored

    if isinstance(form, Stored):
        doc, paths = form.document, form.paths
    else:
        doc, paths = screens_.to_document(record_document, form)
    if result is not None and doc != record_document:
        result = None  # the result given is the stored document's; this form says something else
    by_field: dict[str, list[str]] = {}
    rest: list[str] = []
    place(games.warnings(doc, result), paths, by_field, rest, loose=("players",))
    return by_field, rest
