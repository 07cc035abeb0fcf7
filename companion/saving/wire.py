"""The autosave's wire format: what one phone changed, read from a posted mapping of strings.

A save carries what THIS phone changed, field by field, each with the value it was based on
(``{name: (base, mine)}``), never the whole form: a field the phone did not touch is never written
back. Field names mirror contract paths (``players-0-resources-gears`` is
``players[0].resources.gears``).

The answer gives the phone every non-blank stored value (`stored`), so it takes in what another
phone saved meanwhile. A page that says it can (`delta`) gets, when its save was laid on the very
version it held, only the stored values that changed (`changed`: "" for one gone): the rest it
holds already. An autosave's answer is then a few hundred bytes instead of a few kilobytes, for a
phone on a bad signal, and the server writes and compresses that much less at every save."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..storage.store import json_value
from .spec import Spec, read

BASE = "base_values"  # the no-JS form: the stored values its page was rendered from
CHANGES = "changes"  # the autosave: {name: [base, mine]}
ADDED = "new_rows"  # the autosave: the rows this phone added (blank in its base)
KEYS = "row_keys"  # the autosave: field name -> the row it was typed for, by the row's own key
VERSION = "version"
DELTA = "delta"  # the autosave: "1" when the page takes `changed` for `stored` (see above)

Changes = dict[str, tuple[str, str]]


class BadSave(ValueError):
    """A save that cannot be read (malformed JSON, a pair that is not two strings)."""


@dataclass(frozen=True)
class Save:
    """One phone's save: its changes, the rows it added, the key of the row each field was typed
    for, and the version its page was based on (None when it did not say)."""

    changes: Changes
    added: list[str] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)
    version: int | None = None


def _json(text: str | None, default):
    if not text:
        return default
    try:  # nested too deep: a RecursionError; a value nested deep but read is refused by its shape
        return json_value(text)  # orjson, json.loads for what it refuses: what json.loads reads
    except (ValueError, RecursionError):
        raise BadSave(text[:40]) from None


def parse_changes(text: str | None) -> Changes:
    data = _json(text, None)
    if not isinstance(data, dict):
        raise BadSave("changes")
    out = {}
    for name, pair in data.items():
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, str) for v in pair)):
            raise BadSave(name)
        out[str(name)] = (pair[0].strip(), pair[1].strip())
    return out


def parse_list(text: str | None) -> list[str]:
    data = _json(text, [])
    if not (isinstance(data, list) and all(isinstance(v, str) for v in data)):
        raise BadSave("list")
    return data


def parse_keys(text: str | None) -> dict[str, str]:
    data = _json(text, {})
    if not (isinstance(data, dict) and all(isinstance(v, str) for v in data.values())):
        raise BadSave("keys")
    return {str(k): v.strip() for k, v in data.items()}


def parse_values(text: str | None) -> dict[str, str] | None:
    """`BASE` as posted: field name -> text, or None when absent or malformed."""
    try:
        data = _json(text, None)
    except BadSave:
        return None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        return None
    return {str(k): v for k, v in data.items()}


def version_of(posted: Mapping[str, str]) -> int | None:
    try:
        return int(posted.get(VERSION, ""))
    except (TypeError, ValueError):
        return None


def is_autosave(posted: Mapping[str, str]) -> bool:
    return CHANGES in posted


def autosave(posted: Mapping[str, str]) -> Save:
    """The autosave's own lists (static/js/play/autosave.js); BadSave when one cannot be read."""
    return Save(parse_changes(posted.get(CHANGES)), parse_list(posted.get(ADDED)),
                parse_keys(posted.get(KEYS)), version_of(posted))


def changes_of(posted: Mapping[str, str], base: Mapping[str, str]) -> Changes:
    """The fields whose posted value differs from the one the page was rendered with (the no-JS
    form posts every field)."""
    out = {}
    for name in sorted(posted.keys() | base.keys()):
        mine, was = posted.get(name, "").strip(), base.get(name, "").strip()
        if mine != was:
            out[name] = (was, mine)
    return out


def encode(save: Save) -> dict[str, str]:
    """A save as the autosave posts it (the tests and benchmarks speak the protocol with this)."""
    out = {VERSION: "" if save.version is None else str(save.version),
           CHANGES: json.dumps({n: list(pair) for n, pair in save.changes.items()})}
    if save.added:
        out[ADDED] = json.dumps(save.added)
    if save.keys:
        out[KEYS] = json.dumps(save.keys)
    return out


def wants_delta(posted: Mapping[str, str]) -> bool:
    return posted.get(DELTA) == "1"


def differing(before, after) -> dict[str, tuple[str, str]]:
    """Each stored value that differs between two sets of stored values, name -> (its text before,
    after), "" for one not there; of two `spec.Texts`, only the segments that changed (`Texts.since`)."""
    out, texts = {}, hasattr(after, "since") and hasattr(before, "parts")
    for was, now in after.since(before) if texts else [(before, after)]:
        get = was.get
        out.update((name, (get(name, ""), value)) for name, value in now.items() if get(name, "") != value)
        out.update((name, (value, "")) for name, value in was.items() if value and name not in now)
    return out


def stored_changes(before, after, found: dict[str, tuple[str, str]] | None = None) -> dict[str, str]:
    """The answer's `changed`: each stored value that differs (`differing`, or `found`), its text now,
    "" for one blank or gone. Laid over the non-blank values of `before`, the non-blank of `after`."""
    return {name: now for name, (_was, now) in (differing(before, after) if found is None else found).items()}


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
