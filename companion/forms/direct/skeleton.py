"""Stored views made without a form.

Every save reads the stored document's `Stored` view. A process keeps the views it made, but with
several workers a table's saves land on each in turn, and a view missing there meant a WTForms form
of the whole game (~180 fields) built again, for a document that differs from one seen moments ago
only in a few numbers. So views are also kept by the document's *skeleton*, the document without the
values of its direct fields (`leaves._spec`): a document with a skeleton seen before gets the view
made for it, its direct fields read from the document itself. A new skeleton (a row added, a name
changed, a board painted) builds the form once."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from ...games import i18n
from ...games.i18n import _
from .leaves import Leaf, _spec

_TEMPLATES: OrderedDict = OrderedDict()  # (game, variant, players, skeleton text, language) -> Template
_TEMPLATES_LOCK = threading.Lock()
TEMPLATES_MAX = 256
_CUT = "\x00"  # a fixed list's number, in a skeleton: its place kept


@dataclass(frozen=True)
class Template:
    """A view made with a form, for the documents of one skeleton, and its fields' names for a
    player (the error summary)."""

    view: object  # forms.Stored
    labels: MappingProxyType


@cache
def _tree(game_id: str, variant: str, n_players: int) -> tuple[dict, tuple[str, ...]]:
    """The direct fields as a tree of their steps (leaves: their names), and their names, without
    those a game's `not_direct` names (their value decides other fields': they stay in the
    skeleton)."""
    from .. import screens

    excluded = screens(game_id).adapter.not_direct
    tree: dict = {}
    names = []
    for name, f in _spec(game_id, variant, n_players).items():
        if excluded is not None and excluded.fullmatch(name):
            continue
        node = tree
        for step in f.steps[:-1]:
            node = node.setdefault(step, {})
        node[f.steps[-1]] = name
        names.append(name)
    return tree, tuple(names)


def _normal(f: Leaf, value) -> bool:
    """Whether a direct field's stored value is as its form writes it (else: the form decides)."""
    if f.kind == "flag":
        return value is True
    if f.kind == "name":  # a player's name, or null (nobody): never "" nor a number
        return value is None or (type(value) is str and value != "")
    return type(value) is int


def _written_always(tree, spec) -> tuple:
    """The keys of a tree's node whose field the form writes even when blank (a `Name`: null)."""
    return tuple(k for k, sub in tree.items() if isinstance(sub, str) and spec[sub].kind == "name")


def _skeleton(value, tree, spec, found: dict):
    """`value` without its direct fields' values, or None when one of them is not as the form
    writes it (a number stored as text, a box stored as false: the form's view is the one). A group
    left with none of its fields is left out, as the form leaves an empty group out. The values
    taken out go into `found` (field name -> value), read in the same walk."""
    if isinstance(value, dict):
        if any(k not in value for k in _written_always(tree, spec)):
            return None  # a field the form writes (a Name's null) missing: the form's view is the one
        out = {}
        for k, v in value.items():
            sub = tree.get(k)
            if sub is None:
                out[k] = v
            elif isinstance(sub, str):
                if not _normal(spec[sub], v):
                    return None
                found[sub] = v
            else:
                if v == {}:
                    return None  # an empty group: the form leaves it out
                v = _skeleton(v, sub, spec, found)
                if v is None:
                    return None
                if v != {}:
                    out[k] = v
        return out
    if isinstance(value, list):
        out = []
        for i, v in enumerate(value):
            sub = tree.get(i)
            if sub is None:
                out.append(v)
            elif isinstance(sub, str):
                if not _normal(spec[sub], v):
                    return None
                found[sub] = v
                out.append(_CUT)
            else:
                v = _skeleton(v, sub, spec, found)
                if v is None:
                    return None
                out.append(v)
        return out
    return value


def _texts(f: Leaf, value) -> tuple[str, str]:
    """A direct field's (posted text, value as a person reads it) for its stored value."""
    if f.kind == "flag":
        return ("y", _("oui")) if value is True else ("", _("non"))
    if f.kind == "name":  # `Name.process_data`, then `convert.raw_values` and `leaves`
        text = value if isinstance(value, str) else ""
        return text.strip(), text
    if f.kind == "choice":  # `RadioField.process_data`, then `convert.raw_values` and `leaves`
        if value is None:
            return "", ""
        return str(value).strip(), f.pick.label(str(value))
    text = "" if value is None else str(value)
    return text, text


def _skeleton_key(sc, document: dict, lang: str, found: dict | None = None):
    """The key of a document's skeleton, or None when it has none (no direct field, or a value the
    form would write otherwise); its direct fields' values go into `found` when given."""
    try:
        variant, n = document["variant"], len(document.get("players", []))
        tree, names = _tree(sc.id, variant, n)
    except (KeyError, TypeError):
        return None
    if not names:
        return None
    skeleton = _skeleton(document, tree, _spec(sc.id, variant, n), {} if found is None else found)
    if skeleton is None:
        return None
    return (sc.id, variant, n, json.dumps(skeleton, sort_keys=True, ensure_ascii=False), lang), names


def _template(key) -> Template | None:
    with _TEMPLATES_LOCK:
        found = _TEMPLATES.get(key)
        if found is not None:
            _TEMPLATES.move_to_end(key)
        return found


def view_of(sc, document: dict, lang: str, build):
    """The `Stored` view of `document`: from the view made for its skeleton when there is one, else
    `build()` (the form's), kept for its skeleton."""
    from .. import Stored

    values_of: dict = {}  # each direct field's value, read while its skeleton is made
    found = _skeleton_key(sc, document, lang, values_of)
    if found is None:
        return build()
    key, names = found
    template = _template(key)
    if template is None:
        view, named = build(labelled=True)
        if _skeleton_key(sc, view.document, lang) == found:  # the form writes it as it is stored
            with _TEMPLATES_LOCK:
                _TEMPLATES[key] = Template(view, MappingProxyType(named))
                while len(_TEMPLATES) > TEMPLATES_MAX:
                    _TEMPLATES.popitem(last=False)
        return view
    base = template.view
    values, shown = dict(base.values), dict(base.shown)
    spec = _spec(*key[:3])
    for name in names:  # a field whose key the document leaves out: blank
        values[name], shown[name] = _texts(spec[name], values_of.get(name))
    return Stored(MappingProxyType(values), MappingProxyType(shown), base.limits, document, base.paths,
                  base.blanks)


def labels_of(sc, document: dict) -> MappingProxyType | None:
    """Field name -> its name for a player, for the stored document's fields (the error summary of
    an answer), from its skeleton's view; None when none is kept (the caller builds the form)."""
    found = _skeleton_key(sc, document, i18n.current())
    if found is None:
        return None
    template = _template(found[0])
    return template.labels if template is not None else None


def summary(sc, document: dict, form, errors: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """`forms.summary` of an answer: the fields named from the stored document's skeleton when the
    save built no form (`form` a `forms.Lazy` not made yet) and it names them all, else from the
    form (a row this phone added, refused: the form of its values is built then)."""
    from .. import Lazy
    from .. import summary as of_form

    if not errors:
        return []
    named = labels_of(sc, document) if isinstance(form, Lazy) and form._form is None else None
    if named is None or any(name not in named for name in errors):  # a row this phone added: its form
        return of_form(form, errors)
    order = {name: k for k, name in enumerate(named)}
    return [(name, named.get(name, name), " · ".join(errors[name]))
            for name in sorted(errors, key=lambda n: order.get(n, len(order)))]
