"""An autosave checked by the engine, without building a WTForms form (issue 21).

Most saves at the table change a few numbers or boxes of a player (a score track, a resource, a
ticked bonus): fields whose name is their contract path (``players-0-resources-gears`` is
``players[0].resources.gears``). For those, the save is laid on the stored document itself (the
`Stored` view's, as WTForms would have made it), each value read as its field reads it (same
messages), and checked by the engine (`games.score`), whose problems go beside the field of their
path, as `check` does. The stored values after the save are the stored ones with those fields
written again (no second form either).

A save that touches anything else (rows, a player's name, a drawn board, a field whose value another
field's display is read from, a game's own validation) goes through the merged WTForms form, which
stays the reference: `tests/test_saving_engine.py` drives both with random change sets, every game
and variant, and finds the same documents, messages, answers and stored values.

Which fields qualify is read once per form class (`_spec`): numbers (`Count`) and boxes (`Flag`) of
the table, a player, a group or a fixed list, outside any `Rows`, any ui-only field, and any form
with a `validate` of its own; and, at each save, only when the stored document's paths give the
field its own path. A game module may say more with ``NOT_DIRECT`` (a compiled pattern of field
names): fields its ``to_form`` reads to fill other fields (Revive's card points decide whether the
card is shared).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from wtforms import Form
from wtforms.fields import BooleanField, FieldList, FormField

from ..games import i18n
from ..games.core import join
from ..games.i18n import _

OMIT = object()


@dataclass(frozen=True)
class Leaf:
    """A field a save may lay directly on the document: what it is, where its value lives."""

    kind: str  # "count" | "flag"
    lo: int
    hi: int
    path: str  # its contract path
    steps: tuple  # the keys and indexes from the document down to its value
    kinds: tuple  # each container on the way: "seat", "group", "fixed", "entry" (a fixed list's object)
    orders: tuple  # each dict container's keys in the form's order (None for lists)
    fixed: bool  # an entry of a fixed list of numbers: blank is 0


def _own_validate(form) -> bool:
    return type(form).validate is not Form.validate


@cache
def _spec(game_id: str, variant: str, n_players: int) -> MappingProxyType:
    """Field name -> `Leaf`, for every field that can be laid on the document directly."""
    from . import SKIPPED, Count, Rows, screens

    sc = screens(game_id)
    form = sc.form({"game": game_id, "variant": variant, "players": [{"name": ""}] * n_players})
    out: dict[str, Leaf] = {}
    table = sc._table(variant)

    def order_of(f) -> tuple:
        return tuple(sub.short_name for sub in f if sub.short_name not in SKIPPED)

    def leaf(f, path, steps, kinds, orders, fixed=False):
        if isinstance(f, BooleanField) and not fixed:
            out[f.name] = Leaf("flag", 0, 0, path, steps, kinds, orders, False)
        elif isinstance(f, Count):
            out[f.name] = Leaf("count", f.lo, f.hi, path, steps, kinds, orders, fixed)

    def visit(form_obj, path, steps, kinds, orders, skip=()):
        """`orders`: each container above this form's own object; `kinds`: each step's container."""
        if _own_validate(form_obj):
            return  # the form checks its fields together: WTForms does
        own = (*orders, order_of(form_obj))
        for f in form_obj:
            if f.short_name in SKIPPED or f.short_name in skip:
                continue
            p, s = join(path, f.short_name), (*steps, f.short_name)
            if isinstance(f, Rows):
                continue
            if isinstance(f, FormField):
                visit(f.form, p, s, (*kinds, "group"), own, getattr(f.form, "ui_only", ()))
            elif isinstance(f, FieldList):
                for k, entry in enumerate(f.entries):
                    pk = join(p, k)
                    if isinstance(entry, FormField):
                        visit(entry.form, pk, (*s, k), (*kinds, "fixed", "entry"), (*own, None),
                              getattr(entry.form, "ui_only", ()))
                    elif isinstance(entry, Count):
                        leaf(entry, pk, (*s, k), (*kinds, "fixed"), (*own, None), fixed=True)
            else:
                leaf(f, p, s, kinds, own)

    top = order_of(form)
    visit(form, "", (), (), (), {"players", *getattr(table or object, "ui_only", ())})
    for i, entry in enumerate(form.players.entries):
        visit(entry.form, join("players", i), ("players", i), ("list", "seat"), (top, None),
              getattr(entry.form, "ui_only", ()))
    return MappingProxyType(out)


def leaves_of(sc, view) -> MappingProxyType | None:
    """The direct fields of a stored document's form (None: a game without any)."""
    doc = view.document
    return _spec(sc.id, doc["variant"], len(doc.get("players", [])))


def eligible(sc, view, spec, changes) -> bool:
    """Whether every changed field can be laid on the stored document directly."""
    excluded = getattr(sc.module, "NOT_DIRECT", None)
    for name in changes:
        f = spec.get(name)
        if f is None or view.paths.get(f.path) != name or name not in view.values:
            return False
        if excluded is not None and excluded.fullmatch(name):
            return False
    return True


def read(f: Leaf, text: str):
    """A posted text as the field reads it: (value or OMIT, message or None)."""
    if f.kind == "flag":
        return (OMIT if text in ("", "false") else True), None
    raw = text.strip().replace("\u2212", "-")
    if raw == "":
        return OMIT, None
    from . import _INT

    if not _INT.fullmatch(raw):
        return OMIT, _("doit être un nombre entier")
    value = int(raw)
    if not f.lo <= value <= f.hi:
        return value, _("doit être entre {lo} et {hi}", lo=f.lo, hi=f.hi)
    return value, None


def lay_on(document: dict, values: dict, spec) -> dict:
    """The document with `values` (field name -> value or OMIT) written at their paths; containers on
    the way are copied, never changed in place (the stored document is shared by the cache). A group
    left empty is left out; an entry of a fixed list stays ({}, or 0 for a number); a key written
    anew takes its place in the form's order, as the form would have written it."""
    root = dict(document)
    copied = {id(root)}
    inserted: list[tuple[list, Leaf]] = []
    for name, value in values.items():
        f = spec[name]
        nodes = [root]
        node = root
        for step in f.steps[:-1]:
            child = node[step] if isinstance(node, list) else node.get(step)
            if child is None:
                child = {}
            elif id(child) not in copied:
                child = dict(child) if isinstance(child, dict) else list(child)
            node[step] = child
            copied.add(id(child))
            nodes.append(child)
            node = child
        key = f.steps[-1]
        if value is OMIT and f.fixed:
            value = 0
        if value is OMIT:
            node.pop(key, None)
        else:
            node[key] = value
        inserted.append((nodes, f))
        for i in range(len(nodes) - 1, 0, -1):  # a group left empty is left out
            if f.kinds[i - 1] == "group" and not nodes[i]:
                del nodes[i - 1][f.steps[i - 1]]
            else:
                break
    for nodes, f in inserted:  # in place: every container on a path is this save's own copy
        for node, order in zip(nodes, f.orders, strict=True):
            if order is not None and isinstance(node, dict):
                items = list(node.items())
                rest = [(k, v) for k, v in items if k not in order]
                pos = {k: n for n, k in enumerate(order)}
                ranked = sorted(((k, v) for k, v in items if k in pos), key=lambda kv: pos[kv[0]])
                node.clear()
                node.update(rest + ranked)
    return root


@dataclass
class Laid:
    """A direct save: its document and messages (`forms.Checked`), the conflicts (as the merge
    says them), the stored values before it, and how to make the stored values after it."""

    checked: object
    conflicts: dict
    stored: dict
    form: object
    view: object  # the stored view the save was laid on; None when it cannot be the base of the next
    written: dict  # field name -> value or OMIT
    spec: object
    moved: dict
    dropped: dict

    def after(self, sc, document: dict) -> None:
        """The `Stored` view of the document just written, made from the one before (no form) and
        kept where `forms.stored` finds it."""
        from . import Stored, remember

        view = self.view
        if view is None:  # the document before was not as its form writes it (a game never saved)
            return
        values, shown = dict(view.values), dict(view.shown)
        for name, value in self.written.items():
            f = self.spec[name]
            if value is OMIT and f.fixed:
                value = 0
            if f.kind == "flag":
                values[name], shown[name] = ("y", _("oui")) if value is True else ("", _("non"))
            else:
                text = "" if value is OMIT else str(value)
                values[name] = shown[name] = text
        remember(sc, document, Stored(MappingProxyType(values), MappingProxyType(shown), view.limits,
                                      document, view.paths, view.blanks))


def check(sc, document: dict, messages: dict[str, str], paths) -> object:
    """`forms.check` for a document laid directly: the fields' own messages first, then the engine's,
    each beside the field of its path; blocking unless the engine's are all rules between fields."""
    from . import Checked, engine_verdict

    errors: dict[str, list[str]] = {}
    general: list[str] = []

    def add(name, message):
        bucket = general if name is None else errors.setdefault(name, [])
        if message not in bucket:
            bucket.append(message)

    for name, message in messages.items():
        add(name, message)
    result, refused = engine_verdict(sc, document, paths, add)
    blocking = bool(messages) or refused
    for message in errors.pop("players", []):  # the seat list has no message slot
        add(None, message)
    return Checked(None if blocking else document, errors, general, result)


def key_of(document: dict) -> str:
    return json.dumps(document, sort_keys=True, ensure_ascii=False)


# --------------------------------------------------------------------------- stored views without a form
#
# Every save reads the stored document's `Stored` view. A process keeps the views it made, but with
# several workers a table's saves land on each in turn, and a view missing there meant a WTForms form
# of the whole game (~180 fields) built again, for a document that differs from one seen moments ago
# only in a few numbers. So views are also kept by the document's *skeleton*, the document without the
# values of its direct fields (`_spec`): a document with a skeleton seen before gets the view made
# for it, its direct fields read from the document itself. A new skeleton (a row added, a name
# changed, a board painted) builds the form once.

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
    those a game's `NOT_DIRECT` names (their value decides other fields': they stay in the
    skeleton)."""
    from . import screens

    excluded = getattr(screens(game_id).module, "NOT_DIRECT", None)
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
    return type(value) is int


def _skeleton(value, tree, spec):
    """`value` without its direct fields' values, or None when one of them is not as the form
    writes it (a number stored as text, a box stored as false: the form's view is the one). A group
    left with none of its fields is left out, as the form leaves an empty group out."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            sub = tree.get(k)
            if sub is None:
                out[k] = v
            elif isinstance(sub, str):
                if not _normal(spec[sub], v):
                    return None
            else:
                if v == {}:
                    return None  # an empty group: the form leaves it out
                v = _skeleton(v, sub, spec)
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
                out.append(_CUT)
            else:
                v = _skeleton(v, sub, spec)
                if v is None:
                    return None
                out.append(v)
        return out
    return value


def _texts(f: Leaf, value) -> tuple[str, str]:
    """A direct field's (posted text, value as a person reads it) for its stored value."""
    if f.kind == "flag":
        return ("y", _("oui")) if value is True else ("", _("non"))
    text = "" if value is None else str(value)
    return text, text


def _at(document, steps):
    node = document
    for step in steps:
        if isinstance(node, dict):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            return None
        if node is None:
            return None
    return node


def _skeleton_key(sc, document: dict, lang: str):
    """The key of a document's skeleton, or None when it has none (no direct field, or a value the
    form would write otherwise)."""
    try:
        variant, n = document["variant"], len(document.get("players", []))
        tree, names = _tree(sc.id, variant, n)
    except (KeyError, TypeError):
        return None
    if not names:
        return None
    skeleton = _skeleton(document, tree, _spec(sc.id, variant, n))
    if skeleton is None:
        return None
    return (sc.id, variant, n, json.dumps(skeleton, sort_keys=True, ensure_ascii=False), lang), names


def _template(key) -> Template | None:
    with _TEMPLATES_LOCK:
        found = _TEMPLATES.get(key)
        if found is not None:
            _TEMPLATES.move_to_end(key)
        return found


def view_of(sc, document: dict, text: str, lang: str, build):
    """The `Stored` view of `document` (`text`: its JSON, sorted): from the view made for its
    skeleton when there is one, else `build()` (the form's), kept for its skeleton."""
    from . import Stored

    found = _skeleton_key(sc, document, lang)
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
    for name in names:
        values[name], shown[name] = _texts(spec[name], _at(document, spec[name].steps))
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
    save built no form (`form` a `forms.Lazy` not made yet), else from the form."""
    from . import Lazy
    from . import summary as of_form

    if not errors:
        return []
    named = labels_of(sc, document) if isinstance(form, Lazy) and form._form is None else None
    if named is None:
        return of_form(form, errors)
    order = {name: k for k, name in enumerate(named)}
    return [(name, named.get(name, name), " · ".join(errors[name]))
            for name in sorted(errors, key=lambda n: order.get(n, len(order)))]
