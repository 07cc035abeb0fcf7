"""The game's log of changes (issue 32): each stored save, as the page shows its fields, so that a
phone can undo its own last changes, and anyone any change, from the log.

A save that changed the stored game is logged once, in its transaction (`record`): which phone (a
hash of its device cookie: the cookie itself opens that phone's list of games, it is never stored
here nor exported), when, the version it wrote, and every field it changed, `{name: [before,
after]}`, read from the stored values before and after it (`stored`, the one place that reads
them). A removed row is one entry of many fields (a Rebirth city, its tiles, the cities below it
moved up): undone in one tap.

An undo is a save like any other (`undo_save`): `{name: [after, before]}` laid over what is stored
NOW by the saving service, so a field another phone changed since is a conflict, never overwritten
silently. The autosave sends it from the edit page (static/js/play/autosave.js asks
`changelog.last` for the changes, lays them in the fields and saves with `undo` = the change
undone); the log page posts it without JavaScript. It is logged with `undo_of`; a change is
undone while an undo of it is itself not undone (undoing an undo redoes the change). A change
written before the players' seats last moved cannot be undone: its fields are keyed by seats
that are someone else's now.

Game-independent, no Flask request: the views hand it the device and the saving service's Outcome.
Each game keeps its last `changelog.KEPT` changes (trimmed every `trim_every()` versions); they are read by
companion/storage/changelog.py."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import sqlalchemy as sa

from ..base import diskfull
from ..extensions import db
from ..storage import changelog, store
from ..storage.models import GameChange, now
from . import service, spec, wire

_TABLE = GameChange.__table__
LOG = logging.getLogger(__name__)


def differences(before: Mapping[str, str], after: Mapping[str, str], same=None,
                found: dict[str, tuple[str, str]] | None = None) -> dict[str, list[str]]:
    """Each field whose text differs (`wire.differing`, or `found`), `[before, after]` ("" for blank or
    gone), in name order; `same(name, a, b)`: whether two texts are one stored value."""
    out = {}
    for name, (was, now_) in sorted((wire.differing(before, after) if found is None else found).items()):
        was, now_ = was or "", now_ or ""
        if was != now_ and not (same is not None and same(name, was, now_)):
            out[name] = [was, now_]
    return out


# --------------------------------------------------------------------------- writing


def record(out, *, document: dict, version: int, device: str | None, undo_of: int | None = None) -> None:
    """Log the save `out` (a `saving.service.Outcome`) when it stored a change, and commit it: the
    saving service wrote it within `store.one_commit()`, so the game and its log entry are
    one transaction, one commit. The stored values before it are those it was laid on (`out.before`),
    else of `document` (the game as the save was handed it, at `version`) when it was laid on that
    version; after it, `out.after` (read once, the answer reads the same). Never fails the save: a
    log that cannot be written is logged and left out (the save written again alone)."""
    changes = _changes(out, document, version, device)
    if changes is None:
        store.commit(out.record)
        return
    connection = getattr(out.record, "connection", None)  # a `store.Held` record's own
    try:
        _write(connection if connection is not None else db.session.connection(), out.record.id, device,
               out.record.version, changes, undo_of)
        store.commit(out.record)
    except sa.exc.SQLAlchemyError as exc:
        store.rollback(out.record)
        if diskfull.is_disk_full(exc):  # the save has no room either: said as such (errors.py, 507)
            raise
        LOG.exception("the log of game %s could not be written", out.record.id)
        # the save again, without its log (StaleVersion: another phone got in meanwhile, the phone
        # saves again: the service's Busy)
        try:
            store.save(out.record, out.checked.document, out.laid_on, status=out.record.status,
                       result=out.checked.result)
            store.commit(out.record)
        except store.StaleVersion:
            raise service.Busy from None


def _changes(out, document: dict, version: int, device: str | None) -> dict | None:
    """What the save `out` changed, `{name: [before, after]}`; None when there is nothing to log."""
    if out.kind != "saved" or out.laid_on is None or out.record.version == out.laid_on or device is None:
        return None
    if out.before is not None:
        before = out.before
    elif out.laid_on == version:
        before = out.fields.texts(document)
    else:
        return None
    after = out.after  # the stored texts of the record now (read once, kept for the answer)
    if not (isinstance(after, spec.Texts) and isinstance(before, spec.Texts)):
        return differences(before.values, after.values, getattr(after, "same", None)) or None
    return differences(before.values, after.values, after.same, out.changes_since(before)) or None


# Statements built once, the INSERT and the trim run as plain SQL (`store.Plain`): building one at each
# save cost more than running it (the trim through SQLAlchemy: some 50,000 instructions a save, spread)
_INSERT = store.Plain(_TABLE.insert().inline().values(
    {name: sa.bindparam(name, type_=_TABLE.c[name].type)
     for name in ("game_id", "phone", "at", "version", "changes", "undo_of")}))
_OF_GAME = sa.select(_TABLE.c.id).where(_TABLE.c.id == sa.bindparam("change"),
                                        _TABLE.c.game_id == sa.bindparam("game"))
_OLDEST_KEPT = (sa.select(_TABLE.c.id).where(_TABLE.c.game_id == sa.bindparam("game"))
                .order_by(_TABLE.c.id.desc()).offset(sa.bindparam("skip")).limit(sa.bindparam("one", 1)))
_BOUND = store.Plain(_TABLE.delete().where(_TABLE.c.game_id == sa.bindparam("game"),
                                           _TABLE.c.id < _OLDEST_KEPT.scalar_subquery()))


def _write(connection, game_id: int, device: str, version: int, changes: dict, undo_of: int | None) -> None:
    if undo_of is not None:  # a change of this game only
        undo_of = connection.execute(_OF_GAME, {"change": undo_of, "game": game_id}).scalar_one_or_none()
    _INSERT.execute(connection, {
        "game_id": game_id, "phone": changelog.phone_of(device), "at": now(), "version": version,
        "changes": store.json_text(changes), "undo_of": undo_of})  # compact, UTF-8 (orjson)
    # only the last KEPT changes of the game (the index on game and id: one short step), trimmed every
    # `trim_every()` versions: a game holds at most that many more meanwhile, which no reader shows
    # (`changelog.changes_of`, `exported`: the last KEPT), and most saves make one statement less
    if version % trim_every() == 0:
        _BOUND.execute(connection, {"game": game_id, "skip": changelog.KEPT - 1})


def trim_every() -> int:
    """How many versions apart a game's log is trimmed to its last KEPT changes."""
    return max(1, changelog.KEPT // 20)


def undo_changes(change: changelog.Change) -> wire.Changes:
    """What undoing `change` sends: each field from what it stored back to what it was."""
    return {name: (after, before) for name, (before, after) in change.changes.items()}


def undo_save(change: changelog.Change, version: int) -> wire.Save:
    """The undo of `change` as a save laid on `version` (the no-JS path: the page's version)."""
    return wire.Save(undo_changes(change), version=version)
