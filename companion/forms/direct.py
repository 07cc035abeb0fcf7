"""An autosave checked by the engine, without building a WTForms form (issue 21).

Most saves at the table change a few numbers or boxes of a player (a score track, a resource, a
ticked bonus): fields whose name is their contract path (``players-0-resources-gears`` is
``players[0].resources.gears``). For those, the save is laid on the stored document itself (the
`Stored` view's, as WTForms would have made it), each value read as its field reads it (same
messages), and checked by the engine (`games.score`), whose problems go beside the field of their
path, as `check` does. The stored values after the save are the stored ones with those fields
written again (no second form either). So is a player named outside any list (Rebirth's castle
holders, `Name`: a player of the game or null for nobody, "choisissez un joueur de la partie"
otherwise).

So are the lists of rows whose row is a number, a choice, or a group of numbers, boxes, choices,
players and lists of those (Revive's great locations; Rebirth's farms, missions, round towers, and
cities with their tiles): a save touching one rebuilds the list from its rows after the merge, as
the form does (`rebuild`: blank rows left out, the rest renumbered, a list inside a row the same
way), rows added on both phones kept (`merge.relocate`). What a field writes is said by the field
itself, read alike here and by the form (`convert._convert`): a `Choice(numeric=True)` holds its
value as a number (a round tower's 13), a `Name` whose class says ``nobody = False`` (a tile's
`Owner`) is left out of its row when blank, the row kept.
A game may lay its own table fields with ``direct_table`` (Revive's shared card, copied into every
player's card line, also when a phone chooses one shared card again), and the fields of a player
form that checks its fields together with ``direct_player``: Reterra's counts (a player who did not
draw their community: each is then read alone, as its field would be), a drawn player's rows and
squares (read as the form reads them, same messages), the building bonus, and the building counts
as the merge settled them by card (`keys`: a count goes with its card, or is left out with a
message when the card was removed meanwhile), written under the card's id. And a game may lay a
table list whose rows only its form reads with ``direct_rows``, after the merge: Reterra's building
cards changed, added or removed (read as `Card` and `Cards` read them, ids from names, every
player's counts by card as the merge settled them), the game saying the stored view after it
(`adapter.RowsLaid`). Fields whose value another field's display is read from (a game's
``not_direct``: Revive's own card lines) and table fields are laid only with the game's
``direct_view``, which says what the save changes of the stored view beyond its own fields, read
from the whole laid document as the form's `to_form` and `to_document` read it (Revive: one shared
card or one per player, the shared card's points and the lines' paths; a line typed, or the mode
"one card per player" a phone sends, is laid when the merged save reads a card per player; one
shared card again when every card became equal). A save that touches anything else (a row holding a
field of another kind, a player's own name, Reterra's mode, a drawing begun or wiped out, a field
``direct_view`` cannot say, such as a Revive line typed while the save reads one shared card, a
list of a game never saved yet) goes through the merged WTForms form, which stays the reference:
`tests/test_saving_engine.py` drives both with random change sets, every game and variant, and
finds the same documents, messages, answers and stored values.

Which fields qualify is read once per form class (`_spec`, `_rows`): numbers (`Count`), boxes
(`Flag`) and players (`Name`) of the table, a player, a group or a fixed list, outside any `Rows`,
any ui-only field, and any form with a `validate` of its own; and, at each save, only when the
stored document's paths give the field its own path. A game's `ADAPTER` may say more with
``not_direct`` (a compiled pattern of field names): fields its ``to_form`` reads to fill other
fields (Revive's card points decide whether the card is shared), laid only with its ``direct_view``
and kept in the skeleton of the stored views.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

from wtforms import Form
from wtforms.fields import BooleanField, FieldList, FormField

from ..games import i18n
from ..games.core import join
from ..games.i18n import _

OMIT = object()


@dataclass(frozen=True)
class Pick:
    """A choice's options as its form module wrote them ((value, label) pairs, labels French message
    ids) and whether the document holds the value as a number (`fields.Choice`'s `numeric`)."""

    offered: tuple
    numeric: bool

    @property
    def values(self) -> frozenset:
        return frozenset(v for v, _label in self.offered)

    def label(self, text: str) -> str:
        """The value as a person reads it (`convert.leaves`): its label, else the text itself."""
        from .fields import _t

        for value, label in self.offered:
            if value == text:
                return _t(label)
        return text


@dataclass(frozen=True)
class Leaf:
    """A field a save may lay directly on the document: what it is, where its value lives."""

    kind: str  # "count" | "flag" | "choice" (a `Choice`, in a row) | "name" (a `Name`: a player or nobody)
    lo: int
    hi: int
    path: str  # its contract path
    steps: tuple  # the keys and indexes from the document down to its value
    kinds: tuple  # each container on the way: "seat", "group", "fixed", "entry" (a fixed list's object)
    orders: tuple  # each dict container's keys in the form's order (None for lists)
    fixed: bool  # an entry of a fixed list of numbers: blank is 0
    pick: Pick | None = None  # a choice's options


def _own_validate(form) -> bool:
    return type(form).validate is not Form.validate


def _walk(game_id: str, variant: str, n_players: int, on_field, on_rows) -> None:
    """Every field of a blank game's form (the table's, then each seat's) as its contract place:
    `on_field(f, path, steps, kinds, orders, fixed)` for a field outside a list of rows (`fixed`: an
    entry of a fixed list), `on_rows(f, path, steps, kinds, orders)` for a list of rows (not entered).
    A form that checks its fields together (its own `validate`) is left out: WTForms reads it."""
    from .binding import screens
    from .fields import SKIPPED, Rows

    sc = screens(game_id)
    form = sc.form({"game": game_id, "variant": variant, "players": [{"name": ""}] * n_players})
    table = sc._table(variant)

    def order_of(f) -> tuple:
        return tuple(sub.short_name for sub in f if sub.short_name not in SKIPPED)

    def visit(form_obj, path, steps, kinds, orders, skip=()):
        """`orders`: each container above this form's own object; `kinds`: each step's container."""
        if _own_validate(form_obj):
            return
        own = (*orders, order_of(form_obj))
        for f in form_obj:
            if f.short_name in SKIPPED or f.short_name in skip:
                continue
            p, s = join(path, f.short_name), (*steps, f.short_name)
            if isinstance(f, Rows):
                on_rows(f, p, s, kinds, own)
            elif isinstance(f, FormField):
                visit(f.form, p, s, (*kinds, "group"), own, getattr(f.form, "ui_only", ()))
            elif isinstance(f, FieldList):
                for k, entry in enumerate(f.entries):
                    pk = join(p, k)
                    if isinstance(entry, FormField):
                        visit(entry.form, pk, (*s, k), (*kinds, "fixed", "entry"), (*own, None),
                              getattr(entry.form, "ui_only", ()))
                    else:
                        on_field(entry, pk, (*s, k), (*kinds, "fixed"), (*own, None), True)
            else:
                on_field(f, p, s, kinds, own, False)

    top = order_of(form)
    visit(form, "", (), (), (), {"players", *getattr(table or object, "ui_only", ())})
    for i, entry in enumerate(form.players.entries):
        visit(entry.form, join("players", i), ("players", i), ("list", "seat"), (top, None),
              getattr(entry.form, "ui_only", ()))


@cache
def _spec(game_id: str, variant: str, n_players: int) -> MappingProxyType:
    """Field name -> `Leaf`, for every field that can be laid on the document directly."""
    from .fields import Count, Name

    out: dict[str, Leaf] = {}

    def leaf(f, path, steps, kinds, orders, fixed):
        if isinstance(f, BooleanField) and not fixed:
            out[f.name] = Leaf("flag", 0, 0, path, steps, kinds, orders, False)
        elif isinstance(f, Count):
            out[f.name] = Leaf("count", f.lo, f.hi, path, steps, kinds, orders, fixed)
        elif isinstance(f, Name) and not fixed:  # a player named (Rebirth's castle holders)
            out[f.name] = Leaf("name", 0, 0, path, steps, kinds, orders, False)

    _walk(game_id, variant, n_players, leaf, lambda *_: None)
    return MappingProxyType(out)


def leaves_of(sc, view) -> MappingProxyType | None:
    """The direct fields of a stored document's form (None: a game without any)."""
    doc = view.document
    return _spec(sc.id, doc["variant"], len(doc.get("players", [])))


def eligible(sc, view, spec, changes) -> bool:
    """Whether every changed field can be laid on the stored document directly."""
    excluded = sc.adapter.not_direct
    for name in changes:
        f = spec.get(name)
        if f is None or view.paths.get(f.path) != name or name not in view.values:
            return False
        if excluded is not None and excluded.fullmatch(name):
            return False
    return True


def read(f: Leaf, text: str, names=()):
    """A posted text as the field reads it: (value or OMIT, message or None); `names`: the
    players', the choices of a `Name`."""
    if f.kind == "flag":
        return (OMIT if text in ("", "false") else True), None
    if f.kind == "choice":
        return read_choice(f.pick, text)
    if f.kind == "name":
        return read_name(text, names)
    from .fields import out_of_bounds, whole_number

    try:
        value = whole_number(text)
    except ValueError as exc:
        return OMIT, str(exc)
    if value is None:
        return OMIT, None
    return value, out_of_bounds(value, f.lo, f.hi)


def read_choice(pick: Pick, text: str):
    """A posted choice as `fields.Choice` reads it and `convert._convert` writes it: blank is left
    out; a value it does not offer says so (and is written as typed, for the engine's messages)."""
    from .fields import document_value

    raw = text.strip()
    if raw == "":
        return OMIT, None
    return document_value(raw, pick.numeric), (None if text in pick.values else _("choix inconnu"))


def read_name(text: str, names) -> tuple:
    """A posted player's name as `fields.Name` reads it and `convert._convert` writes it: blank is
    null (nobody); a name not among the players says so (and is written as typed, for the
    engine's messages)."""
    if text == "":
        return None, None
    return text, (None if text in names else _("choisissez un joueur de la partie"))


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
    rows: dict = field(default_factory=dict)  # list name -> `RowList`, for the lists rebuilt
    texts: dict = field(default_factory=dict)  # a game's table fields written (`direct_table`): their texts
    relaid: object = None  # a game's rows it laid itself (`direct_rows`, an `adapter.RowsLaid`)
    redraw: object = None  # what the game reads again from the laid document (`Adapter.direct_view`)

    def after(self, sc, document: dict):
        """The `Stored` view of the document just written, made from the one before (no form) and
        kept where `forms.stored` finds it; None when it cannot be made so."""
        from .steps import Stored, remember

        view = self.view
        if view is None:  # the document before was not as its form writes it (a game never saved)
            return None
        values, shown = dict(view.values), dict(view.shown)
        redraw = self.redraw
        paths = dict(view.paths) if self.rows or (redraw is not None and redraw.paths) else view.paths
        if redraw is not None and redraw.paths:
            paths.update(redraw.paths)
        limits = view.limits
        for name, value in self.written.items():
            if name in self.rows:  # a list rebuilt: its rows as the form of the new document shows them
                for key in [k for k in values if k.startswith(name + "-")]:
                    del values[key]
                    shown.pop(key, None)
                more, read_as = row_values(self.rows[name], name, value)
                values.update(more)
                shown.update(read_as)
                path = self.rows[name].leaf.path
                for key in [k for k in paths if k.startswith(path + "[")]:
                    del paths[key]
                row_paths(self.rows[name], name, path, value, paths)
                if self.rows[name].inner:  # the lists inside its rows (a city's tiles), as shown now
                    limits = {k: n for k, n in limits.items() if not k.startswith(name + "-")}
                    limits = MappingProxyType(limits | row_limits(self.rows[name], name, value))
                continue
            f = self.spec[name]
            if value is OMIT and f.fixed:
                value = 0
            if f.kind == "flag":
                values[name], shown[name] = ("y", _("oui")) if value is True else ("", _("non"))
            elif f.kind == "name":
                values[name], shown[name] = _texts(f, value)
            else:
                text = "" if value is OMIT else str(value)
                values[name] = shown[name] = text
        for name, text in self.texts.items():
            values[name] = shown[name] = text
        if self.relaid is not None:  # a game's own rows: as the form of the new document shows them
            paths = _after_rows(self.relaid, values, shown)
        for name, (text, read_as) in (redraw.texts.items() if redraw is not None else ()):
            values[name], shown[name] = text, read_as
        paths = paths if paths is view.paths else MappingProxyType(paths)
        made = Stored(MappingProxyType(values), MappingProxyType(shown), limits, document, paths,
                      view.blanks)
        remember(sc, document, made)
        return made


def check(sc, document: dict, messages: dict[str, str], paths) -> object:
    """`forms.check` for a document laid directly: the fields' own messages first, then the engine's,
    each beside the field of its path; blocking unless the engine's are all rules between fields."""
    from .problems import Checked, engine_verdict, fold, put

    errors: dict[str, list[str]] = {}
    general: list[str] = []
    for name, message in messages.items():
        put(errors, general, name, message)
    result, refused = engine_verdict(sc, document, paths, errors, general)
    blocking = bool(messages) or refused
    fold(errors, general, ["players"])  # the seat list has no message slot
    return Checked(None if blocking else document, errors, general, result)


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
    those a game's `not_direct` names (their value decides other fields': they stay in the
    skeleton)."""
    from . import screens

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
    from . import Stored

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
    from . import Lazy
    from . import summary as of_form

    if not errors:
        return []
    named = labels_of(sc, document) if isinstance(form, Lazy) and form._form is None else None
    if named is None or any(name not in named for name in errors):  # a row this phone added: its form
        return of_form(form, errors)
    order = {name: k for k, name in enumerate(named)}
    return [(name, named.get(name, name), " · ".join(errors[name]))
            for name in sorted(errors, key=lambda n: order.get(n, len(order)))]


# --------------------------------------------------------------------------- rows
#
# A list of rows whose row is one number (Revive's great locations, Rebirth's farms) or a group of
# numbers and boxes (Rebirth's missions): a save touching it rebuilds the list from every row's
# values after the merge, as the form does (`forms._convert`): a wholly blank row is left out, a row
# holding only a typing error too (its message stays beside it), the others in index order; each
# row's contract path is its place among those kept.


@dataclass(frozen=True)
class RowList:
    """A list of rows a save may rebuild without the form."""

    leaf: Leaf  # the list itself, as `lay_on` writes it (kind "rows")
    max_entries: int
    item: tuple  # the row's fields: ((short name or "", Leaf-like kind, lo, hi), ...)
    # short name or "" -> `Pick`, for its choices
    picks: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    # short name -> `RowList`, for a list inside the row (a city's tiles; its `leaf` unused)
    inner: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    # the row's `Name`s whose blank is a player not chosen yet (`Name.nobody` False): left out
    unset: frozenset = frozenset()
    leaves: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))  # made once: `sub_leaf`

    def sub_leaf(self, sub: str, kind: str, lo: int, hi: int) -> Leaf:
        """A row's field as `read` and `_texts` take it."""
        found = self.leaves.get(sub)
        return found if found is not None else Leaf(kind, lo, hi, "", (), (), (), False, self.picks.get(sub))


def _pick_of(f) -> Pick | None:
    """A `Choice`'s options, when its form module wrote them (not made per reader)."""
    from .fields import Choice

    if isinstance(f, Choice) and f.offered is not None:
        return Pick(f.offered, f.numeric)
    return None


def _item_of(rows_field) -> tuple | None:
    """A row's fields when every one is a number, a box or a choice (else None: the form reads it)."""
    from . import Count

    probe = rows_field.entries[0] if rows_field.entries else None
    if probe is None:
        return None
    if isinstance(probe, Count):
        return (("", "count", probe.lo, probe.hi),)
    if _pick_of(probe) is not None:
        return (("", "choice", 0, 0),)
    if isinstance(probe, FormField) and not _own_validate(probe.form) \
            and not getattr(probe.form, "ui_only", ()):
        from .fields import Name, Rows

        out = []
        for sub in probe.form:
            if isinstance(sub, Count):
                out.append((sub.short_name, "count", sub.lo, sub.hi))
            elif isinstance(sub, BooleanField):
                out.append((sub.short_name, "flag", 0, 0))
            elif _pick_of(sub) is not None:
                out.append((sub.short_name, "choice", 0, 0))
            elif isinstance(sub, Name):  # a player (a city's tile's)
                out.append((sub.short_name, "name", 0, 0))
            elif isinstance(sub, Rows) and _row_list(sub, None) is not None:  # a list inside the row
                out.append((sub.short_name, "rows", 0, 0))
            else:
                return None
        return tuple(out)
    return None


def _row_list(rows_field, leaf: Leaf | None) -> RowList | None:
    """A list of rows as a save rebuilds it without the form (the lists inside its rows too), or
    None when a row holds a field only the form reads."""
    from .fields import Name

    if not rows_field.entries:
        rows_field.append_entry()
    item = _item_of(rows_field)
    if item is None:
        return None
    probe = rows_field.entries[0]
    subs = {"": probe} if not isinstance(probe, FormField) else {s.short_name: s for s in probe.form}
    picks = {sub: _pick_of(subs[sub]) for sub, kind, *_rest in item if kind == "choice"}
    inner = {sub: _row_list(subs[sub], None) for sub, kind, *_rest in item if kind == "rows"}
    unset = frozenset(sub for sub, kind, *_rest in item
                      if kind == "name" and isinstance(subs[sub], Name) and not subs[sub].nobody)
    leaves = {sub: Leaf(kind, lo, hi, "", (), (), (), False, picks.get(sub))
              for sub, kind, lo, hi in item if kind != "rows"}
    return RowList(leaf or Leaf("rows", 0, 0, "", (), (), (), False), rows_field.max_entries, item,
                   MappingProxyType(picks), MappingProxyType(inner), unset, MappingProxyType(leaves))


@cache
def _rows(game_id: str, variant: str, n_players: int) -> MappingProxyType:
    """List name -> `RowList`, for the lists of the players' forms and the table's whose rows are
    numbers, boxes, choices, players and lists of those (a city and its tiles); else the form
    reads it."""
    out: dict[str, RowList] = {}

    def rows(f, path, steps, kinds, orders):
        found = _row_list(f, Leaf("rows", 0, 0, path, steps, kinds, orders, False))
        if found is not None:
            out[f.name] = found

    _walk(game_id, variant, n_players, lambda *_: None, rows)
    return MappingProxyType(out)


def _row_of(name: str, rows) -> tuple[str, int, str] | None:
    """(list name, row index, the field's name inside the row or "") of a row's field, else None."""
    for list_name in rows:
        if name.startswith(list_name + "-"):
            rest = name[len(list_name) + 1:]
            index, _sep, sub = rest.partition("-")
            if index.isascii() and index.isdigit() and str(int(index)) == index \
                    and int(index) < rows[list_name].max_entries:
                return list_name, int(index), sub
            return None
    return None


def _indices(list_name: str, data) -> dict[str, list[int]]:
    """The row indices of a list among posted names, in order (`fields.Rows._extract_indices`), and
    of every list inside its rows (a city's tiles), by list name: one pass over the names."""
    found: dict[str, set[int]] = {}
    for name in data:
        if not name.startswith(list_name + "-"):
            continue
        parts = name[len(list_name) + 1:].split("-")
        prefix = list_name
        for i in range(0, len(parts), 2):  # index, field, index, field... (names hold no "-")
            part = parts[i]
            if not (part.isascii() and part.isdigit() and len(part) <= 3):
                break
            found.setdefault(prefix, set()).add(int(part))
            if i + 1 < len(parts):
                prefix = f"{prefix}-{part}-{parts[i + 1]}"
    return {k: sorted(v) for k, v in found.items()}


def _blank(row_list: RowList, entry: str, data, indices: dict) -> bool:
    """Whether a posted row is wholly blank (`fields.is_blank`), the rows of its lists too."""
    for sub, kind, *_rest in row_list.item:
        name = f"{entry}-{sub}" if sub else entry
        if kind == "rows":
            inner = row_list.inner[sub]
            if not all(_blank(inner, f"{name}-{i}", data, indices)
                       for i in indices.get(name, ())[:inner.max_entries]):
                return False
            continue
        text = data.get(name, "")
        if not (text in ("", "false") if kind == "flag" else text.strip() == ""):
            return False
    return True


def rebuild(row_list: RowList, list_name: str, data: dict[str, str], paths: dict, messages: dict,
            names=(), path: str | None = None, indices: dict | None = None):
    """The list's value in the document (or OMIT) from every value after the merge (`data`); its
    rows' contract paths into `paths` and their typing errors into `messages`, as the form does
    (`names`: the players, for a row's `Name`; `path` and `indices`: a list inside a row, its
    contract path and the rows posted, `_indices`)."""
    path = row_list.leaf.path if path is None else path
    indices = _indices(list_name, data) if indices is None else indices
    items: list = []
    for index in indices.get(list_name, ())[:row_list.max_entries]:
        entry = f"{list_name}-{index}"
        if _blank(row_list, entry, data, indices):
            continue  # a wholly blank row (`fields.is_blank`)
        at = join(path, len(items))
        paths[at] = entry
        value: dict | object = {}
        for sub, kind, lo, hi in row_list.item:
            name = f"{entry}-{sub}" if sub else entry
            if sub:
                paths[join(at, sub)] = name
            if kind == "rows":  # a list inside the row (a city's tiles): rebuilt alike
                got = rebuild(row_list.inner[sub], name, data, paths, messages, names, join(at, sub), indices)
                if got is not OMIT:
                    value[sub] = got
                continue
            got, message = read(row_list.sub_leaf(sub, kind, lo, hi), data.get(name, ""), names)
            if message:
                messages[name] = message
            if not sub:
                value = got if got is not OMIT else OMIT
            elif got is not OMIT:
                value[sub] = got
        if value is OMIT or value == {}:
            continue  # a row holding only a typing error: its message is beside it
        if row_list.unset:  # a player not chosen yet: left out, the row kept (`convert._convert`)
            value = {k: v for k, v in value.items() if not (v is None and k in row_list.unset)}
        items.append(value)
    return items if items else OMIT


def row_values(row_list: RowList, list_name: str, items) -> tuple[dict, dict]:
    """The stored values (posted text, value as read) of a list's rows as the form shows them."""
    values, shown = {}, {}
    blank = None if row_list.item[0][0] == "" else {}
    for k, item in enumerate(items if items is not OMIT else (blank,)):  # an empty list shows one row
        for sub, kind, lo, hi in row_list.item:
            name = f"{list_name}-{k}-{sub}" if sub else f"{list_name}-{k}"
            value = item.get(sub) if sub and item is not None else item
            if kind == "rows":
                more, read_as = row_values(row_list.inner[sub], name, value if value else OMIT)
                values.update(more)
                shown.update(read_as)
                continue
            values[name], shown[name] = _texts(row_list.sub_leaf(sub, kind, lo, hi), value)
    return values, shown


def row_paths(row_list: RowList, list_name: str, path: str, items, paths: dict) -> None:
    """The contract paths of a list's stored rows (their fields', their lists' rows') as the form
    of the stored document records them."""
    for k, item in enumerate(items if items is not OMIT else ()):  # renumbered from 0
        at, entry = join(path, k), f"{list_name}-{k}"
        paths[at] = entry
        for sub, kind, *_rest in row_list.item:
            if sub:
                paths[join(at, sub)] = f"{entry}-{sub}"
            if kind == "rows":
                inner = item.get(sub) if isinstance(item, dict) else None
                row_paths(row_list.inner[sub], f"{entry}-{sub}", join(at, sub), inner or OMIT, paths)


def row_limits(row_list: RowList, list_name: str, items) -> dict[str, int]:
    """The most rows of each list inside a list's rows as the form shows them (`Stored.limits`)."""
    out: dict[str, int] = {}
    if not row_list.inner:
        return out
    for k, item in enumerate(items if items is not OMIT else ({},)):
        for sub, inner in row_list.inner.items():
            name = f"{list_name}-{k}-{sub}"
            out[name] = inner.max_entries
            value = item.get(sub) if isinstance(item, dict) else None
            out.update(row_limits(inner, name, value if value else OMIT))
    return out


def _row_added(row_list: RowList, rest: str) -> bool:
    """Whether `rest` (what follows a row's name) names a row of a list inside it ("tiles-2")."""
    sub, _sep, tail = rest.partition("-")
    inner = row_list.inner.get(sub)
    if inner is None:
        return False
    index, _sep, more = tail.partition("-")
    if not (index.isascii() and index.isdigit() and str(int(index)) == index):
        return False
    if int(index) >= inner.max_entries:
        return False
    return not more or _row_added(inner, more)


def lay_save(steps, document: dict, save, view):
    """`forms.Steps.direct`: an autosave laid on the stored document and checked by the engine, no
    form built, or None when it touches a field only the form can read (a player's own name, a
    choice outside a row, a field its game does not lay itself or whose view after the save its
    `direct_view` cannot say). Only the autosave goes this way: the no-JS post stays with
    WTForms, the reference."""
    from ..saving.merge import lay
    from . import CHANGES, Lazy

    sc = steps.screens
    if steps.formdata is None or CHANGES not in steps.formdata:
        return None
    if save.keys and sc.adapter.keyed is not None and sc.adapter.direct_player is None:
        return None
    spec = leaves_of(sc, view)
    doc = view.document
    rows = _rows(sc.id, doc["variant"], len(doc.get("players", [])))
    excluded, redrawn = sc.adapter.not_direct, sc.adapter.direct_view
    leaves, touched, others = [], set(), {}
    for name in save.changes:
        if name in spec:
            leaves.append(name)
            continue
        found = _row_of(name, rows)
        if found is None:
            others[name] = save.changes[name]  # a game's table field, if its `direct_table` reads it
        elif excluded is not None and excluded.fullmatch(name):
            return None
        else:
            touched.add(found[0])
    table = None
    players = {n: pair for n, pair in others.items() if _SEAT_FIELD.match(n)}  # a game's `direct_player`
    others = {n: pair for n, pair in others.items() if n not in players}
    if players and sc.adapter.direct_player is None:
        return None
    listed, own_added = _own_rows(sc, others, save.added, rows)
    if listed is not None:  # a game's list whose rows it lays itself (`direct_rows`), after the merge
        others = {}
    if others:
        hook = sc.adapter.direct_table
        table = hook(others, view.values, lambda field, text: read(spec[field], text)) if hook else None
        if table is None:
            return None
    for prefix in save.added:
        if prefix in own_added:
            continue
        found = _row_of(prefix, rows)
        if found is None or (found[2] and not _row_added(rows[found[0]], found[2])):
            return None  # a row added inside a list the form reads
        touched.add(found[0])
    # fields whose value decides others' (`not_direct`): laid only when the game says the view after
    # them (`direct_view`), their paths as it checks them
    guarded = {n for n in leaves if excluded is not None and excluded.fullmatch(n)}
    if guarded and (redrawn is None or any(n not in view.values for n in guarded)):
        return None
    if not eligible(sc, view, spec, [n for n in leaves if n not in guarded]):
        return None
    if touched and (view.document != document
                    or any(view.paths.get(rows[t].leaf.path) != t for t in touched)):
        return None  # a game never saved yet, or a list the stored form does not show there
    names = [p.get("name", "") for p in document.get("players", [])]
    laid = lay(view, save.changes, added=save.added or None, keys=save.keys or None, names=names,
               rules=sc.adapter, blank=_("vide"))
    written, messages = {}, {}
    for name in spec:  # the page's order: the messages come out as the form gives them
        if name in save.changes:
            value, message = read(spec[name], save.changes[name][1], names)
            written[name] = value
            if message:
                messages[name] = message
    texts = {}
    seats = {}
    if players:  # a player's fields the game lays itself (its player form checks them together)
        got = _lay_players(sc, view, players, laid.data)
        if got is None:
            return None
        seats, said, texts = got
        messages.update(said)
    if table is not None:  # what the game's fields write (the shared card into every player's line)
        more, said, table_texts = table
        texts.update(table_texts)
        written.update(more)
        messages.update(said)
    paths, full = view.paths, spec
    if touched:
        paths, full = dict(view.paths), dict(spec)
        for list_name in sorted(touched):
            row_list = rows[list_name]
            inside = row_list.leaf.path + "["
            for key in [k for k in paths if k.startswith(inside)]:
                del paths[key]
            written[list_name] = rebuild(row_list, list_name, laid.data, paths, messages, names)
            full[list_name] = row_list.leaf
    laid_doc = _with_players(lay_on(view.document, written, full), seats)
    relaid = None
    if listed is not None:
        relaid = _lay_rows(sc, document, view, listed, own_added, laid.data, laid_doc, paths)
        if relaid is None:
            return None
        laid_doc, paths = relaid.document, relaid.paths
        messages.update(relaid.messages)
    redraw = None
    if redrawn is not None and (guarded or others):
        redraw = redrawn(view, tuple(save.changes), laid.data, laid_doc)
        if redraw is None:
            return None
        if redraw.checked:
            paths = {**paths, **redraw.checked}
    checked = check(sc, laid_doc, messages, paths)
    form = Lazy(lambda: steps.merge(document, save.changes, view, save.added, save.keys).form)
    # the stored values after it are made from these only when the stored document is the one its
    # form writes (not so before a game's first save: fixed lists not written yet)
    base = view if view.document == document else None
    return Laid(checked, laid.conflicts, dict(view.values), form, base, written, full, laid.moved,
                laid.dropped, {t: rows[t] for t in touched}, texts, relaid, redraw)


# --------------------------------------------------------------------------- a game's player fields
#
# A player form that checks its fields together (its own `validate`: Reterra's counts are read only
# in the mode that shows them) has no field in `_spec`; its game may still lay some of them itself
# (`Adapter.direct_player`), each read as its field would read it, when the stored player says how
# the form reads them (Reterra: the counts of a player with no drawing, the drawing of one with a
# drawing). The game gives each such player's whole object, put in its seat after `lay_on`.

_SEAT_FIELD = re.compile(r"players-\d+-")


def _read_count(lo: int, hi: int, text: str):
    """A posted text as a `Count` between lo and hi reads it: (value or OMIT, message or None)."""
    return read(Leaf("count", lo, hi, "", (), (), (), False), text)


def _lay_players(sc, view, changes, data):
    """The game's `direct_player` for the player fields of a save: (seat -> player object, messages,
    texts after it), or None (the form's way)."""
    return sc.adapter.direct_player(view, tuple(changes), data, _read_count)


def _with_players(document: dict, seats: dict) -> dict:
    """The laid document with the players a game laid itself put in their seats (a copy)."""
    if not seats:
        return document
    players = list(document["players"])
    for seat, player in seats.items():
        players[seat] = player
    return {**document, "players": players}


# --------------------------------------------------------------------------- a game's own rows
#
# A list whose rows only the form reads (Reterra's building cards: a hidden id, a free name, the id
# made from the name, every player's counts keyed by it) may still be laid by its game, after the
# merge (`Adapter.direct_rows`): the game reads the rows as the form reads them, writes them and
# what follows them as its `to_document` does, and says the stored view after it.


def _own_rows(sc, others: dict, added, rows) -> tuple[dict | None, list[str]]:
    """The table fields and the rows added a game lays itself (`direct_rows`), (None, []) when it
    lays none: every field that is not a direct one, every row added outside the lists of rows."""
    if sc.adapter.direct_rows is None:
        return None, []
    own_added = [prefix for prefix in added if _row_of(prefix, rows) is None]
    if not others and not own_added:
        return None, []
    return dict(others), own_added


def _lay_rows(sc, document: dict, view, changes: dict, added: list[str], data: dict, laid_doc: dict,
              paths):
    """The game's `direct_rows` on the document laid so far, or None (the form's way): a game never
    saved yet (the stored document is not as its form writes it) is the form's."""
    if view.document != document:
        return None
    return sc.adapter.direct_rows(view, changes, tuple(added), data, laid_doc, paths, _read_count)


def _after_rows(relaid, values: dict, shown: dict):
    """The stored values after a game laid its rows (`RowsLaid`), in place; its paths."""
    for name in relaid.gone:
        values.pop(name, None)
        shown.pop(name, None)
    for name, text in relaid.texts.items():
        values[name] = shown[name] = text
    return dict(relaid.after_paths)
