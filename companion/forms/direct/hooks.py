"""What a game lays itself, through its adapter's hooks.

A player form that checks its fields together (its own `validate`: Reterra's counts are read only in
the mode that shows them) has no field in `_spec`; its game may still lay some of them itself
(`Adapter.direct_player`), each read as its field would read it, when the stored player says how the
form reads them (Reterra: the counts of a player with no drawing, the drawing of one with a
drawing). The game gives each such player's whole object, put in its seat after `lay_on`.

A list whose rows only the form reads (Reterra's building cards: a hidden id, a free name, the id
made from the name, every player's counts keyed by it) may still be laid by its game, after the
merge (`Adapter.direct_rows`): the game reads the rows as the form reads them, writes them and what
follows them as its `to_document` does, and says the stored view after it."""

from __future__ import annotations

import re

from .leaves import Leaf, read
from .rows import _row_of

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
