"""A stored document's problems beside its fields (`companion.saving.problems.place` puts each one),
and the error summary's names for the fields (read from a form: its labels)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wtforms.fields import FieldList, FormField

from .. import games
from ..games.i18n import _
from ..saving.problems import field_for, fold, place  # noqa: F401 (field_for: re-exported)
from .fields import SKIPPED, Rows

if TYPE_CHECKING:
    from ..saving.spec import Texts
    from .binding import GameForms

def problems_of(screens_: GameForms, view: Texts) -> dict[str, list[str]]:
    """The engine's messages about a stored document (a draft's rules not met yet, shown again when
    the page is reopened), beside their fields."""
    problems = games.validate(view.document)
    if not problems:
        return {}
    errors: dict[str, list[str]] = {}
    place(problems, view.paths, errors, [], say=screens_.say)
    return errors


def stored_problems(screens_: GameForms, view: Texts) -> tuple[dict[str, list[str]], list[str]]:
    """The engine's messages about a stored document (a draft's rules not met yet), read from its
    texts (no form built): each beside its field, and those with no field of their own (the seat
    list has no message slot), as a save's answer gives them."""
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


def warned(screens_: GameForms, view: Texts, result: games.Result | None = None
           ) -> tuple[dict[str, list[str]], list[str]]:
    """The warnings of a stored document (likely mistakes, never blocking), each beside its field
    (field name -> messages), and those with no field of their own; `result`: the document's."""
    by_field: dict[str, list[str]] = {}
    rest: list[str] = []
    place(games.warnings(view.document, result), view.paths, by_field, rest, loose=("players",))
    return by_field, rest
