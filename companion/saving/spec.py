"""A game's fields as the save reads them (their tree: companion/saving/tree.py), in the two readings
every save, page and answer uses: `texts` (a document as its page shows it: field name -> the text
a browser posts) and `read` (texts as a document, each value read by its leaf with its message when
wrong on its own, every field's contract path recorded). Field names mirror contract paths
(``players-0-resources-gears`` is ``players[0].resources.gears``); what does not map one to one is
the game's `Hooks`. No form here."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial

from ..base.typed import document_value, out_of_bounds, whole_number
from ..games.core import Checker
from ..games.i18n import _, ngettext, tr
from ..games.parts import Parts
from ..storage.store import frozen, same_json
from ..web import formkeys
from .tree import NO_HOOKS, OMIT, Fixed, Group, Hooks, Leaf, Rows, Spec

# --------------------------------------------------------------------------- document -> texts


@dataclass
class Texts:
    """A document as its page shows it: every field's posted text (`values`), each leaf's spec
    (`leaves`), each list of rows' limit (`limits`), and the text a field nobody typed shows once
    stored, where it is not blank (a number of a fixed list is stored as 0: "" and "0" are one).
    Made of its segments' texts (`parts`: the table's "", each player's "players-<i>"), each kept
    by what it shows (`PIECES`) with its readings (`readings`: players -> how it reads)."""

    values: dict = field(default_factory=dict)
    leaves: dict = field(default_factory=dict)
    limits: dict = field(default_factory=dict)
    blanks: dict = field(default_factory=dict)
    rows: dict = field(default_factory=dict)  # list name -> how many rows it shows
    document: dict = field(default_factory=dict)  # the document they show
    fields: Fields | None = None  # its game's, to read `paths` when asked for
    _paths: dict | None = None
    spec: Spec | None = None
    parts: dict = field(default_factory=dict)
    readings: dict = field(default_factory=dict)
    marks: dict = field(default_factory=dict)  # segment name -> the values its texts show (`frozen`)
    laid: tuple | None = None  # a segment's: the last save read on it (`_laid`): (typed, players, reading)
    # a segment remade from another's texts by the fields that read on their own (`_remade`: a save
    # another process wrote): (that segment's readings, the fields changed), its readings made from them
    source: tuple | None = None

    @property
    def paths(self) -> dict[str, str]:
        """The document's contract paths -> the field showing each (where a draft's messages go)."""
        if self._paths is None:
            self._paths = self.fields.read(self.document, self.values, known=self)[1].paths
        return self._paths

    def since(self, before: Texts) -> list[tuple[Mapping[str, str], Mapping[str, str]]]:
        """(`before`'s values, these), segment by segment, of only the segments whose texts are not
        the very ones `before` holds (kept, `PIECES`: an autosave changes one player's); the whole
        values when the two are not made of the same segments."""
        if not self.parts or self.parts.keys() != before.parts.keys():
            return [(before.values, self.values)]
        return [(before.parts[name].values, piece.values) for name, piece in self.parts.items()
                if before.parts[name] is not piece]

    def same(self, name: str, a: str, b: str) -> bool:
        """Whether two texts of a field mean one stored value."""
        if a == b:
            return True
        blank = self.blanks.get(name)
        return blank is not None and {a, b} <= {"", blank}

    def shown(self, name: str, text: str | None = None) -> str:
        """A field's value as a person reads it (a box: oui/non, a choice: its label)."""
        text = self.values.get(name, "") if text is None else text
        leaf = self.leaves.get(name)
        if leaf is None:
            return text
        if leaf.kind == "flag":
            return _("oui") if text not in ("", "false") else _("non")
        if leaf.kind == "choice":
            for value, label in leaf.offered:
                if value == text:
                    return tr(label) if isinstance(label, str) and label else label
        return text


class Fields:
    """A game's fields as a save reads them: its spec per variant and seat count (`make`, once each),
    its hooks, the merge's rules (`merge.Rules`, None: by names only) and how its pages word an
    engine message (`say`)."""

    def __init__(self, make: Callable[[str, int], Spec], hooks: Hooks = NO_HOOKS, rules=None,
                 say: Callable[[str], str] | None = None):
        self._make, self.hooks, self.rules, self._say = make, hooks, rules, say
        self._specs: dict[tuple[str, int], Spec] = {}

    def say(self, message: str) -> str:
        return self._say(message) if self._say else message

    def spec(self, variant: str, seats: int) -> Spec:
        found = self._specs.get((variant, seats))
        if found is None:
            found = self._specs[(variant, seats)] = self._make(variant, seats)
        return found

    def texts(self, document: dict, like: Texts | None = None) -> Texts:
        """The stored document as its page shows it (kept whole by what it holds, `WHOLE`: an
        autosave's stored texts are those the save before it wrote); `like`: the texts of the
        document it was made from (a save's), its segments taken where unchanged, not kept whole
        (the caller keeps them). Its dicts are shared: read them, never change them."""
        spec = self.spec(document["variant"], len(document.get("players") or []))
        kept = WHOLE.part(self._whole, _NO_CHECK, document, "", spec) if like is None else \
            texts(spec, document, self.hooks, like)
        return Texts(kept.values, kept.leaves, kept.limits, kept.blanks, kept.rows, document, self, None,
                     spec, kept.parts, marks=kept.marks)

    def _whole(self, _check, document: dict, _name: str, spec: Spec) -> Texts:
        return texts(spec, document, self.hooks)

    def read(self, document: dict, values: Mapping[str, str], of: Spec | None = None,
             known: Texts | None = None, touched: set[str] | None = None) -> tuple[dict, Reading]:
        """The document the texts `values` describe, for the game and players of `document` (`of`:
        the spec, when not the game's own; `known`: texts `values` were made from, whose rows
        need not be counted again; `touched`: the only fields where `values` may differ from
        them, when the caller knows)."""
        names = [p.get("name", "") for p in document.get("players", [])]
        return read(of or self.spec(document["variant"], len(names)), values, names, self.hooks,
                    {"game": document["game"], "variant": document["variant"]}, known, touched)


# the texts of a table's or a player's segment, kept by what it holds: of a save's merge only the
# segments it changed are read again; and a document's whole texts (`Fields.texts`)
PIECES, WHOLE, _NO_CHECK = Parts(512), Parts(64), Checker()


def texts(spec: Spec, document: dict, hooks: Hooks = NO_HOOKS, like: Texts | None = None) -> Texts:
    """The page's texts of a stored document; `like`: those of a document it was made from (this
    language's), whose segments of the same marshal bytes are taken as they are, and its merged dicts
    with the changed segments laid over them when these show the same fields (an autosave's)."""
    data = {k: v for k, v in document.items() if k not in ("game", "variant")}
    if hooks.to_texts is not None:
        hooks.to_texts(document, data)
    players = data.pop("players", None)
    players = players if isinstance(players, list) else []
    like = like if like is not None and like.spec is spec else None
    out, changed = Texts(spec=spec), []
    for name, raw in (("", data), *((f"players-{i}", players[i] if i < len(players) else None)
                                    for i in range(spec.seats))):
        try:
            mark = out.marks[name] = frozen(raw)  # JSON bytes: 1, 1.0 and true are three
        except ValueError:  # not a value marshal writes either: made each time
            mark = out.marks[name] = None
        if like is None:
            out.parts[name] = PIECES.part(_piece, _NO_CHECK, raw, name, spec)
        elif mark is not None and like.marks.get(name) == mark:
            out.parts[name] = like.parts[name]
        else:  # made here, not kept in PIECES: the caller keeps these texts (`like` of the next save)
            out.parts[name] = _remade(spec, name, raw, like.parts.get(name))
            changed.append(name)
    if like is not None and like.parts.keys() == out.parts.keys() and all(
            out.parts[name].values.keys() == like.parts[name].values.keys() for name in changed):
        out.values = like.values | {k: v for name in changed for k, v in out.parts[name].values.items()}
        out.leaves, out.limits, out.blanks, out.rows = like.leaves, like.limits, like.blanks, like.rows
        return out  # the same fields: the same leaves, lists and blanks
    for piece in out.parts.values():
        for mine, its in ((out.values, piece.values), (out.leaves, piece.leaves), (out.limits, piece.limits),
                          (out.blanks, piece.blanks), (out.rows, piece.rows)):
            mine.update(its)
    return out


def _piece(_check, value, name: str, spec: Spec) -> Texts:
    out = Texts(document=value)
    _texts(spec.player if name else spec.table, value, name, out)
    return out


def _remade(spec: Spec, name: str, raw, was: Texts | None) -> Texts:
    """A segment's texts made from those of the values `was` shows: when they differ only in fields
    that show on their own (`Group.solo`), those fields' texts made again; else made whole. The reading
    of the save laid on `was` (`_laid`) is theirs when they show what it read."""
    group, changed = spec.player if name else spec.table, []
    if was is None or not _differing(raw, was.document, group, "", changed):
        out = _piece(_NO_CHECK, raw, name, spec)
    else:
        out = Texts(was.values | {(f"{name}-{sub}" if name else sub): _text_at(raw, *group.solo[sub])
                                  for sub in changed}, was.leaves, was.limits, was.blanks, was.rows, raw)
        if was.readings:  # read again field by field when asked (`_segment`), not whole
            out.source = (dict(was.readings), [f"{name}-{sub}" if name else sub for sub in changed])
    laid = None if was is None else was.laid  # read once: another thread's save may lay its own meanwhile
    if laid is not None and out.values == was.values | laid[0]:
        out.readings[laid[1]] = laid[2]
    return out


def _differing(raw, old, group: Group, at: str, out: list) -> bool:
    """Whether two values of `group` differ only in fields of its `solo` (listed in `out`)."""
    raw, old = raw if type(raw) is dict else {}, old if type(old) is dict else {}
    for key, _node in group.fields:
        a, b = raw.get(key, OMIT), old.get(key, OMIT)
        if a is b or type(a) is type(b) and a == b and (type(a) not in (list, dict) or same_json(a, b)):
            continue  # the same JSON (1, 1.0 and true are three)
        sub, node = f"{at}-{key}" if at else key, group.solo.get(key, (0, None))[1]
        if type(node) is Leaf:
            out.append(sub)
        elif type(node) is not Group or not _differing(a, b, node, sub, out):
            return False
    return True


def _text_at(raw, keys: tuple, leaf: Leaf) -> str:
    """A field's text in a segment's values, as `_texts` makes it (a leaf under groups alone, no default)."""
    for key in keys[:-1]:
        raw = raw.get(key) if type(raw) is dict else None
    return _text(leaf, raw.get(keys[-1]) if type(raw) is dict else None)


def _texts(node, value, name: str, out: Texts) -> None:
    kind = type(node)
    if kind is Leaf:
        out.values[name] = _text(node, value)
        out.leaves[name] = node
    elif kind is Group:
        if type(value) is not dict:
            value = {}
        values, leaves = out.values, out.leaves
        for key, sub in node.fields:
            full = f"{name}-{key}" if name else key
            if type(sub) is Leaf:  # most fields: written here, no call
                if sub.default is not None and key not in value:  # a choice the document does not say
                    values[full] = sub.default
                else:
                    values[full] = _text(sub, value.get(key))
                leaves[full] = sub
            else:
                _texts(sub, value.get(key), full, out)
    else:
        items = list(value) if isinstance(value, list) else []
        if isinstance(node, Rows):
            out.limits[name] = node.max_entries
            items = items[:node.max_entries] or [None]
            out.rows[name] = len(items)
        else:
            items = (items + [None] * node.n)[:node.n]
            if isinstance(node.item, Leaf) and node.item.kind == "count":
                out.blanks.update((f"{name}-{i}", "0") for i in range(node.n))
        for i, item in enumerate(items):
            _texts(node.item, item, f"{name}-{i}", out)


def _text(leaf: Leaf, value) -> str:
    kind = leaf.kind
    if kind == "count":
        return str(value) if type(value) is int else ""
    if kind == "flag":
        return "y" if value else ""
    if kind == "name":
        return value.strip() if isinstance(value, str) else ""
    if value is None:
        return ""
    return str(value).strip()


# --------------------------------------------------------------------------- texts -> document


@dataclass
class Reading:
    """Field texts read as a document: `messages` (field name -> its own messages, in the page's
    order), `paths` (contract path -> the field showing it), `data` (field name -> its value as
    read: a number or None, a box's bool, a choice or a text, for the game's hooks), `names` (every
    field the page shows, lists and groups included: a message's possible places) and `rows`
    (list name -> the row indices read; `blank`: the blank rows among them)."""

    values: Mapping[str, str]
    players: list[str]
    messages: dict = field(default_factory=dict)
    paths: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    spec: Spec | None = None
    rows: dict = field(default_factory=dict)
    blank: set = field(default_factory=set)
    _indices: dict | None = None

    def say(self, name: str, message: str) -> None:
        said = self.messages.setdefault(name, [])
        if message not in said:
            said.append(message)

    known: Texts | None = None  # the texts `values` were made from (their rows counted already)

    def indices(self, prefix: str) -> list[int]:
        """The row indices the texts hold for a list (every key's numbered parts, read once; only
        the keys the known texts do not have, when there are such texts)."""
        if self._indices is None:
            found: dict[str, set[int]] = {}
            known = self.known
            if known is not None:
                for name, count in known.rows.items():
                    found[name] = set(range(count))
            for key in self.values if known is None else self.values.keys() - known.values.keys():
                for match in _NUMBERED.finditer(key):
                    found.setdefault(key[:match.start()], set()).add(int(match.group(1)))
            self._indices = {k: sorted(v) for k, v in found.items()}
        return self._indices.get(prefix, [])


# a row's index: ASCII digits, as many as one can have (`formkeys`: "²" or 5,000 digits are no index)
_NUMBERED = re.compile(rf"-([0-9]{{1,{formkeys.MAX_INDEX_DIGITS}}})(?=-|$)")


def read(spec: Spec, values: Mapping[str, str], players: list[str], hooks: Hooks = NO_HOOKS,
         game: dict | None = None, known: Texts | None = None,
         touched: set[str] | None = None) -> tuple[dict, Reading]:
    """The document `values` describe (`game`: its "game" and "variant"; the players keep their
    names; `known`: the texts `values` were made from, if any; `touched`: the only fields where
    they may differ, if known), and how it was read."""
    r = Reading(values, list(players), known=known, spec=spec)
    same, changed = _unchanged(spec, values, known, touched)
    doc = dict(game or {})
    doc.update(_segment(spec.table, "", "", r, same, changed))
    out_players = []
    for i, who in enumerate(players):
        path, name = f"players[{i}]", f"players-{i}"
        r.paths[path] = name
        player = {"name": who}
        if i < spec.seats:
            player.update(_segment(spec.player, name, path, r, same, changed))
        out_players.append(player)
    r.paths["players"] = "players"
    doc["players"] = out_players
    if hooks.to_document is not None:
        hooks.to_document(doc, r)
    return doc, r


def _unchanged(spec: Spec, values: Mapping[str, str], known: Texts | None,
               touched: set[str] | None = None) -> tuple[dict[str, Texts], dict[str, list[str]]]:
    """The segments of `known` whose texts `values` holds unchanged (name -> its texts), and the
    fields `values` changed in each other one (name -> their names)."""
    if known is None or known.spec is not spec or not known.parts:
        return {}, {}
    if values is known.values:
        touched = set()
    elif touched is None:
        touched = {name for name, _text in values.items() - known.values.items()}  # changed or new
        touched |= known.values.keys() - values.keys()  # gone
    changed: dict[str, list[str]] = {}
    for n in touched:  # by segment: the table's "", a player's "players-<i>"
        changed.setdefault(f"players-{n[8:].split('-', 1)[0]}" if n[:8] == "players-" else "", []).append(n)
    return {name: piece for name, piece in known.parts.items() if name not in changed}, changed


def _segment(group: Group, prefix: str, path: str, r: Reading, same: dict[str, Texts],
             changed: dict[str, list[str]]) -> dict:
    """A segment's part of the document, its reading laid on `r`: read once per texts it holds."""
    piece = same.get(prefix)
    if piece is None:
        was = r.known.parts.get(prefix) if prefix in changed else None
        return _collect(group, prefix, path, r) if was is None else _laid(group, prefix, path, r, was,
                                                                            changed[prefix])
    key = tuple(r.players)  # and the language: `PIECES` keeps a segment's texts per language
    found = piece.readings.get(key)
    if found is None:
        if len(piece.readings) > 8:  # a blank seat's texts are every new game's, each with its players
            piece.readings.clear()
        found, kept = None, piece.source[0].get(key) if piece.source is not None else None
        if kept is not None:  # remade from texts whose reading is kept: theirs, those fields read again
            own = Reading(piece.values, r.players, spec=r.spec)
            made = _reread(group, len(prefix) + 1 if prefix else 0, piece.source[1], kept, own)
            found = None if made is None else (*frozen(made), own)
        if found is None:
            own = Reading(piece.values, r.players, known=piece, spec=r.spec)
            found = (*frozen(_collect(group, prefix, path, own)), own)
            own.known = None  # read: no cycle back to the texts that keep it
        piece.readings[key] = found
    thaw, made, own = found
    _merge(r, own)
    return thaw(made)  # a copy of what it read


def _merge(r: Reading, own: Reading) -> None:
    r.paths.update(own.paths)
    r.data.update(own.data)
    r.rows.update(own.rows)
    r.blank.update(own.blank)
    if own.messages:
        r.messages.update((name, list(said)) for name, said in own.messages.items())


def _laid(group: Group, prefix: str, path: str, r: Reading, was: Texts, names: list[str]) -> dict:
    """A segment a save changed, laid on the texts `was` it was stored with: `was`'s reading with these
    fields read again (`_reread`), else read whole; kept on `was` for the texts made of it (`_remade`)."""
    key = tuple(r.players)
    fresh = partial(Reading, r.values, r.players, known=r.known, spec=r.spec)  # this segment's own reading
    found, own = was.readings.get(key), fresh()
    made = None if found is None else _reread(group, len(prefix) + 1 if prefix else 0, names, found, own)
    if made is None:  # read whole
        made = _collect(group, prefix, path, own := fresh())
    own.known = None
    was.laid = ({n: r.values.get(n) for n in names}, key, (*frozen(made), own))
    _merge(r, own)
    return made


def _reread(group: Group, cut: int, names: list[str], found: tuple, own: Reading) -> dict | None:
    """A kept reading `found` (thaw, bytes, Reading) with the fields `names` read again on `own`, which
    takes the rest of it; None unless each reads on its own (`Group.solo`), with no message then or now."""
    solo = [group.solo.get(n[cut:], (0, None)) for n in names]
    if not all(type(leaf) is Leaf and n not in found[2].messages for n, (_k, leaf) in
               zip(names, solo, strict=True)):
        return None
    made = found[0](found[1])
    for n, (keys, leaf) in zip(names, solo, strict=True):
        _put(made, group, keys, _leaf(leaf, n, own))
    if own.messages:
        return None
    before = found[2]
    own.paths, own.rows, own.blank = before.paths, before.rows, before.blank
    own.messages, own.data = before.messages, before.data | own.data
    return made


def _put(out: dict, group: Group, keys: tuple, value) -> None:
    """`value` (OMIT: none) at `keys` of a segment read from `group`, where `_collect` puts it."""
    key = keys[0]
    if len(keys) > 1:
        inner = dict(out[key]) if type(out.get(key)) is dict else {}
        _put(inner, dict(group.fields)[key], keys[1:], value)
        value = inner or OMIT  # an empty object is none (contract)
    if value is OMIT:
        out.pop(key, None)
    elif key in out:
        out[key] = value
    else:  # in the group's order, as `_collect` writes it
        out[key] = value
        items = [(k, out[k]) for k, _node in group.fields if k in out]
        out.clear()
        out.update(items)


def _collect(group: Group, prefix: str, path: str, r: Reading) -> dict:
    out = {}
    ui = group.ui_only
    for key, sub in group.fields:
        name = f"{prefix}-{key}" if prefix else key
        if key in ui:
            _read(sub, name, None, r)
            continue
        at = f"{path}.{key}" if path else key
        if type(sub) is Leaf:  # most fields: read here, one call less
            r.paths[at] = name
            value = _leaf(sub, name, r)
        else:
            value = _read(sub, name, at, r)
        if value is not OMIT:
            out[key] = value
    return out


def _read(node, name: str, path: str | None, r: Reading):
    """A field's value in the document (OMIT: left out); `path` None: read, not written."""
    if path is not None:
        r.paths[path] = name
    kind = type(node)
    if kind is Leaf:
        return _leaf(node, name, r)
    if kind is Group:
        value = {}
        ui = node.ui_only
        for key, sub in node.fields:
            sub_name = f"{name}-{key}"
            if key in ui:
                _read(sub, sub_name, None, r)
                continue
            if type(sub) is Leaf:
                if path is not None:
                    r.paths[f"{path}.{key}"] = sub_name
                got = _leaf(sub, sub_name, r)
            else:
                got = _read(sub, sub_name, None if path is None else f"{path}.{key}", r)
            if got is not OMIT:
                value[key] = got
        if not value:
            return OMIT  # an empty object is the same as none (contract)
        if None not in value.values():  # nobody to leave out (most groups)
            return value
        # a player not chosen yet (a `Name` whose blank is not "nobody") is left out, the group kept
        return {k: v for k, v in value.items()
                if not (v is None and _leaf_of(node, k) is not None and not _leaf_of(node, k).nobody)}
    if isinstance(node, Rows):
        indices = r.indices(name)
        if len(indices) > node.max_entries:  # never a silent cut: blank rows go, more is refused
            indices = [k for k in indices if not _blank(node.item, f"{name}-{k}", r)]
            if len(indices) > node.max_entries:
                r.say(name, ngettext("au plus {n} élément (il y en a {given})", "au plus {n} éléments "
                                     "(il y en a {given})", node.max_entries, given=len(indices)))
        if not indices:
            indices = [0]
        r.rows[name] = indices
        items = []
        for k in indices:
            entry = f"{name}-{k}"
            if _blank(node.item, entry, r):
                r.blank.add(entry)
                _read(node.item, entry, None, r)  # its names only: a blank row says nothing
                continue
            value = _read(node.item, entry, None if path is None else f"{path}[{len(items)}]", r)
            if value is not OMIT:  # a row holding only a typing error: its message is beside it
                items.append(value)
        return items if items else OMIT
    values = []
    for i in range(node.n):
        value = _read(node.item, f"{name}-{i}", None if path is None else f"{path}[{i}]", r)
        if value is OMIT:  # a fixed list keeps every entry: a blank one is its empty value
            item = node.item
            value = (0 if isinstance(item, Leaf) and item.kind == "count" else
                     False if isinstance(item, Leaf) and item.kind == "flag" else
                     {} if isinstance(item, Group) else None)
        values.append(value)
    return values


def _leaf_of(group: Group, key: str) -> Leaf | None:
    for k, sub in group.fields:
        if k == key:
            return sub if isinstance(sub, Leaf) else None
    return None


def _blank(node, name: str, r: Reading) -> bool:
    if isinstance(node, Group):
        return all(_blank(sub, f"{name}-{key}" if name else str(key), r) for key, sub in node.fields)
    if isinstance(node, Rows):
        return all(_blank(node.item, f"{name}-{k}", r) for k in (r.indices(name) or [0]))
    if isinstance(node, Fixed):
        return all(_blank(node.item, f"{name}-{i}", r) for i in range(node.n))
    text = r.values.get(name)
    if node.kind == "flag":
        return text is None or text in ("", "false")
    if text is None:
        return node.default is None
    return text.strip() == ""


def _leaf(leaf: Leaf, name: str, r: Reading):
    text = r.values.get(name)
    kind = leaf.kind
    if kind == "count":
        if text is None or text == "":
            r.data[name] = None
            return OMIT
        if text.isdigit() and text.isascii() and len(text) <= 7:  # the common case: plain digits
            value = int(text)
            r.data[name] = value
            if not leaf.lo <= value <= leaf.hi:
                r.say(name, out_of_bounds(value, leaf.lo, leaf.hi))
            return value
        try:
            value = whole_number(text)
        except ValueError as exc:
            r.data[name] = None
            r.say(name, str(exc))
            return OMIT
        r.data[name] = value
        if value is None:
            return OMIT
        problem = out_of_bounds(value, leaf.lo, leaf.hi)
        if problem:
            r.say(name, problem)
        return value
    if kind == "flag":
        on = not (text is None or text in ("", "false"))
        r.data[name] = on
        return True if on else OMIT
    if kind == "choice":
        data = leaf.default if text is None else text
        if data == "":
            data = None
        r.data[name] = data
        if data is not None and data not in leaf.values:
            r.say(name, _("choix inconnu"))
        if data is None or data.strip() == "":
            return OMIT
        return document_value(data.strip(), leaf.numeric)
    if kind == "name":
        data = text or ""
        r.data[name] = data
        if data and data not in r.players:
            r.say(name, _("choisissez un joueur de la partie"))
        return data or None
    r.data[name] = text
    if text is None or text.strip() == "":
        return OMIT
    return text.strip()
