"""The game's log in an export file (issue 32): written with its game, checked and restored with
it. The log itself (a save's entry, undo) is `companion/saving/gamelog.py`'s, read by
`companion/storage/changelog.py`; this is its file form."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping

import sqlalchemy as sa

from ..extensions import db
from ..games.core import Problem, join
from ..games.i18n import _
from ..storage import changelog
from ..storage.models import GameChange

MAX_TEXT = 2000  # a value's length in a restored file (a field's text is far shorter)
FIELD = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)*")  # a field's name as the pages write it (players-0-track)
_TABLE = GameChange.__table__


def exported(game_ids: Iterable[int], seats: Mapping[int, int]) -> dict[int, list[dict]]:
    """The logs of these games as an export file holds them, oldest first: {"at", "phone",
    "changes", "undoes" (the index of the change undone in the same list), "locked" (written before
    the seats last moved: cannot be undone)}."""
    ids = list(game_ids)
    out: dict[int, list[dict]] = {}
    if not ids:
        return out
    rows = db.session.execute(sa.select(_TABLE).where(_TABLE.c.game_id.in_(ids))
                              .order_by(_TABLE.c.game_id, _TABLE.c.id))
    index: dict[int, int] = {}
    per_game: dict[int, list] = {}
    for row in rows:
        per_game.setdefault(row.game_id, []).append(row)
    # the last KEPT of each game (companion/saving/gamelog.py trims them every few versions only)
    for row in (row for kept in per_game.values() for row in kept[-changelog.KEPT:]):
        items = out.setdefault(row.game_id, [])
        try:
            changes = json.loads(row.changes)
        except ValueError:
            continue
        entry = {"at": row.at, "phone": row.phone, "changes": changes}
        if row.undo_of is not None and row.undo_of in index:
            entry["undoes"] = index[row.undo_of]
        if row.version <= seats.get(row.game_id, 0):
            entry["locked"] = True
        index[row.id] = len(items)
        items.append(entry)
    return out


LOG_KEYS = ("at", "phone", "changes", "undoes", "locked")


def checked(value: object, path: str, add, when) -> list[dict] | None:
    """The log of an export file's game, checked (every problem given to `add` with its path);
    `when(value, path, add, required=)` reads a date as the file's other dates are read."""
    if not isinstance(value, list):
        add(Problem(path, _("attendu : une liste de modifications")))
        return None
    if len(value) > changelog.KEPT:
        add(Problem(path, _("au plus {n} modifications par partie", n=changelog.KEPT)))
        return None
    out, wrong = [], False
    for i, item in enumerate(value):
        at = join(path, i)
        if not isinstance(item, dict) or set(item) - set(LOG_KEYS):
            add(Problem(at, _("attendu : un objet avec « at », « phone » et « changes »")))
            wrong = True
            continue
        moment = when(item.get("at"), join(at, "at"), add, required=True)
        phone = item.get("phone")
        if not (isinstance(phone, str) and 1 <= len(phone) <= 32 and phone.isalnum()):
            add(Problem(join(at, "phone"), _("attendu : l'empreinte du téléphone (lettres et chiffres)")))
            wrong = True
        changes = item.get("changes")
        if not (isinstance(changes, dict) and changes and all(
                isinstance(k, str) and len(k) <= 200 and FIELD.fullmatch(k) and isinstance(v, list)
                and len(v) == 2 and all(isinstance(t, str) and len(t) <= MAX_TEXT for t in v)
                for k, v in changes.items())):
            add(Problem(join(at, "changes"), _("attendu : champ -> [avant, après], deux textes")))
            wrong = True
        undoes = item.get("undoes")
        if undoes is not None and not (isinstance(undoes, int) and not isinstance(undoes, bool)
                                       and 0 <= undoes < i):
            add(Problem(join(at, "undoes"), _("attendu : le rang d'une modification plus ancienne")))
            wrong = True
        if not isinstance(item.get("locked", False), bool):
            add(Problem(join(at, "locked"), _("attendu : true ou false")))
            wrong = True
        if moment is None:
            wrong = True
        out.append({"at": moment, "phone": phone, "changes": changes, "undoes": undoes,
                    "locked": item.get("locked", False)})
    return None if wrong else out


def restore(connection, game_id: int, items: list[dict]) -> None:
    """A restored game's log (`checked`), in order: the game starts again at version 1 with its
    seats never moved, so a change the file says is locked is written at version 0 (never undoable)
    and any other at 1."""
    ids: list[int] = []
    for item in items:
        undo_of = ids[item["undoes"]] if item.get("undoes") is not None else None
        new = connection.execute(_TABLE.insert().values(
            game_id=game_id, phone=item["phone"], at=item["at"], version=0 if item.get("locked") else 1,
            changes=json.dumps(item["changes"], ensure_ascii=False, separators=(",", ":")),
            undo_of=undo_of).returning(_TABLE.c.id)).scalar_one()
        ids.append(new)
