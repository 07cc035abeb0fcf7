"""A game's fields as the save reads them: a tree of plain nodes (`Leaf`, `Group`, `Fixed`, `Rows`)
for one variant and seat count, and the two readings every save, page and answer uses:

- `texts`: a document as its page shows it (field name -> the text a browser posts), with the rows'
  limits and the blanks a fixed list fills in;
- `read`: field texts as a document, each value read by its leaf (the message when it is wrong on its
  own), with the contract path of every field (where the engine's messages go).

Field names mirror contract paths (``players-0-resources-gears`` is ``players[0].resources.gears``).
What does not map one to one (a game's fields only its page shows, a document key made from others)
is said by the game's own hooks: `Hooks.to_texts` (the document's ui-only values) and
`Hooks.to_document` (the document finished from the reading). No form library here: the forms render
the page and read nothing of a save."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .. import formkeys
from ..games.core import join
from ..games.i18n import _, tr
from .values import OMIT, document_value, out_of_bounds, whole_number


@dataclass(frozen=True)
class Leaf:
    """A field a player fills: "count" (a whole number in [lo, hi]), "flag" (a box), "choice" (one of
    `values`, labelled by `offered`: (value, French message id)), "name" (a player of the game, or
    nobody: null when `nobody`, else left out of its group) or "text"."""

    kind: str
    lo: int = 0
    hi: int = 0
    values: frozenset = frozenset()
    offered: tuple = ()
    numeric: bool = False  # a choice the document holds as its number (Rebirth's round towers)
    nobody: bool = True
    default: str | None = None  # a choice's value when its page did not post it at all


@dataclass(frozen=True)
class Group:
    """Named fields; `ui_only` are read (their messages, their values for the game's hooks) but not
    written in the document as they are."""

    fields: tuple  # ((key, node), ...) in the page's order
    ui_only: frozenset = frozenset()


@dataclass(frozen=True)
class Fixed:
    """Exactly `n` entries, entry i always entry i (a blank entry is its empty value)."""

    item: object
    n: int


@dataclass(frozen=True)
class Rows:
    """Rows the table adds and removes: blank rows are left out and the rest numbered again."""

    item: object
    max_entries: int


@dataclass(frozen=True)
class Spec:
    """One game's fields for one variant and seat count: the table's, and each player's."""

    table: Group
    player: Group
    seats: int


class Hooks:
    """What a game says of its fields beyond the tree (its forms adapter gives them)."""

    def to_texts(self, document: dict, data: dict) -> None:
        """Fill `data` (the document without game and variant) with what only the page shows."""

    def to_document(self, document: dict, reading: Reading) -> None:
        """Finish the document read from the fields (a key made from others, a mode's fields)."""


NO_HOOKS = Hooks()


def name_of(prefix: str, key) -> str:
    return f"{prefix}-{key}" if prefix else str(key)


# --------------------------------------------------------------------------- document -> texts


@dataclass
class Texts:
    """A document as its page shows it: every field's posted text (`values`), each leaf's spec
    (`leaves`), each list of rows' limit (`limits`), and the text a field nobody typed shows once
    stored, where it is not blank (a number of a fixed list is stored as 0: "" and "0" are one)."""

    values: dict = field(default_factory=dict)
    leaves: dict = field(default_factory=dict)
    limits: dict = field(default_factory=dict)
    blanks: dict = field(default_factory=dict)

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


def texts(spec: Spec, document: dict, hooks: Hooks = NO_HOOKS) -> Texts:
    """The page's texts of a stored document."""
    data = {k: v for k, v in document.items() if k not in ("game", "variant")}
    hooks.to_texts(document, data)
    out = Texts()
    _texts(spec.table, data, "", out)
    players = data.get("players") if isinstance(data.get("players"), list) else []
    for i in range(spec.seats):
        player = players[i] if i < len(players) else None
        _texts(spec.player, player, f"players-{i}", out)
    return out


def _texts(node, value, name: str, out: Texts) -> None:
    if isinstance(node, Leaf):
        out.values[name] = _text(node, value)
        out.leaves[name] = node
    elif isinstance(node, Group):
        value = value if isinstance(value, dict) else {}
        for key, sub in node.fields:
            if key in value or not (isinstance(sub, Leaf) and sub.default is not None):
                _texts(sub, value.get(key), name_of(name, key), out)
            else:  # a choice the document does not say: its default
                out.values[name_of(name, key)] = sub.default
                out.leaves[name_of(name, key)] = sub
    else:
        items = list(value) if isinstance(value, list) else []
        if isinstance(node, Rows):
            out.limits[name] = node.max_entries
            items = items[:node.max_entries] or [None]
        else:
            items = (items + [None] * node.n)[:node.n]
            if isinstance(node.item, Leaf) and node.item.kind == "count":
                out.blanks.update((f"{name}-{i}", "0") for i in range(node.n))
        for i, item in enumerate(items):
            _texts(node.item, item, f"{name}-{i}", out)


def _text(leaf: Leaf, value) -> str:
    kind = leaf.kind
    if kind == "count":
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else ""
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
    names: set = field(default_factory=set)
    rows: dict = field(default_factory=dict)
    blank: set = field(default_factory=set)
    _indices: dict | None = None

    def say(self, name: str, message: str) -> None:
        said = self.messages.setdefault(name, [])
        if message not in said:
            said.append(message)

    def indices(self, prefix: str) -> list[int]:
        """The row indices the texts hold for a list (every key's numbered parts, read once)."""
        if self._indices is None:
            found: dict[str, set[int]] = {}
            for key in self.values:
                for match in _NUMBERED.finditer(key):
                    part = match.group(1)
                    if not formkeys.bad_name(part):
                        found.setdefault(key[:match.start()], set()).add(int(part))
            self._indices = {k: sorted(v) for k, v in found.items()}
        return self._indices.get(prefix, [])


_NUMBERED = re.compile(r"-(\d+)(?=-|$)")


def read(spec: Spec, values: Mapping[str, str], players: list[str], hooks: Hooks = NO_HOOKS,
         game: dict | None = None) -> tuple[dict, Reading]:
    """The document `values` describe (`game`: its "game" and "variant"; the players keep their
    names), and how it was read."""
    r = Reading(values, list(players))
    doc = dict(game or {})
    doc.update(_collect(spec.table, "", "", r))
    out_players = []
    for i, who in enumerate(players):
        path, name = join("players", i), f"players-{i}"
        r.paths[path] = name
        r.names.add(name)
        player = {"name": who}
        if i < spec.seats:
            player.update(_collect(spec.player, name, path, r))
        out_players.append(player)
    r.paths["players"] = "players"
    doc["players"] = out_players
    hooks.to_document(doc, r)
    return doc, r


def _collect(group: Group, prefix: str, path: str, r: Reading) -> dict:
    out = {}
    for key, sub in group.fields:
        name = name_of(prefix, key)
        if key in group.ui_only:
            _read(sub, name, None, r)
            continue
        value = _read(sub, name, join(path, key), r)
        if value is not OMIT:
            out[key] = value
    return out


def _read(node, name: str, path: str | None, r: Reading):
    """A field's value in the document (OMIT: left out); `path` None: read, not written."""
    r.names.add(name)
    if path is not None:
        r.paths[path] = name
    if isinstance(node, Leaf):
        return _leaf(node, name, r)
    if isinstance(node, Group):
        value = {}
        for key, sub in node.fields:
            sub_name = name_of(name, key)
            got = _read(sub, sub_name, None if path is None or key in node.ui_only else join(path, key), r)
            if got is not OMIT and key not in node.ui_only:
                value[key] = got
        if not value:
            return OMIT  # an empty object is the same as none (contract)
        # a player not chosen yet (a `Name` whose blank is not "nobody") is left out, the group kept
        return {k: v for k, v in value.items()
                if not (v is None and _leaf_of(node, k) is not None and not _leaf_of(node, k).nobody)}
    if isinstance(node, Rows):
        indices = r.indices(name)[:node.max_entries]
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
            value = _read(node.item, entry, None if path is None else join(path, len(items)), r)
            if value is not OMIT:  # a row holding only a typing error: its message is beside it
                items.append(value)
        return items if items else OMIT
    values = []
    for i in range(node.n):
        value = _read(node.item, f"{name}-{i}", None if path is None else join(path, i), r)
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
        return all(_blank(sub, name_of(name, key), r) for key, sub in node.fields)
    if isinstance(node, Rows):
        return all(_blank(node.item, f"{name}-{k}", r) for k in (r.indices(name)[:node.max_entries] or [0]))
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
        if text is None:
            r.data[name] = None
            return OMIT
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


def added_rows(spec: Spec, values: Mapping[str, str], base: Mapping[str, str]) -> list[str]:
    """The rows of posted `values` that were blank in `base` (the page's values): rows this phone
    added (a no-JS post)."""
    _doc, r = read(spec, values, [""] * spec.seats)
    out = []
    for name, indices in r.rows.items():
        for k in indices:
            entry = f"{name}-{k}"
            if not any(v and (n == entry or n.startswith(entry + "-")) for n, v in base.items()):
                out.append(entry)
    return out


Reader = Callable[[str, str], tuple]  # (field name, text) -> (value or OMIT, message or None)
