"""Lists of rows a save rebuilds without the form.

A list whose row is a number, a choice, or a group of numbers, boxes, choices, players and lists of
those (Revive's great locations; Rebirth's farms, missions, round towers, cities and their tiles): a
save touching it rebuilds the list from every row's values after the merge, as the form does
(`forms._convert`): a wholly blank row is left out, a row holding only a typing error too (its
message stays beside it), the others in index order, a list inside a row the same way; each row's
contract path is its place among those kept."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

from wtforms.fields import BooleanField, FormField

from ...games.core import join
from .leaves import OMIT, Leaf, Pick, _own_validate, _walk, read
from .skeleton import _texts


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
    from ..fields import Choice

    if isinstance(f, Choice) and f.offered is not None:
        return Pick(f.offered, f.numeric)
    return None


def _item_of(rows_field) -> tuple | None:
    """A row's fields when every one is a number, a box or a choice (else None: the form reads it)."""
    from .. import Count

    probe = rows_field.entries[0] if rows_field.entries else None
    if probe is None:
        return None
    if isinstance(probe, Count):
        return (("", "count", probe.lo, probe.hi),)
    if _pick_of(probe) is not None:
        return (("", "choice", 0, 0),)
    if isinstance(probe, FormField) and not _own_validate(probe.form) \
            and not getattr(probe.form, "ui_only", ()):
        from ..fields import Name, Rows

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
    from ..fields import Name

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
