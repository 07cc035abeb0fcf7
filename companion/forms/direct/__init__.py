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

The package, one module per role: `leaves` (the fields laid directly, read as their field reads
them), `rows` (lists of rows rebuilt as the form does), `skeleton` (stored views made without a
form), `hooks` (what a game lays itself: `direct_player`, `direct_rows`), `laid` (a laid save,
checked, and the stored view after it), `save` (`lay_save`, the entry point).
"""

from .laid import Laid, check
from .leaves import OMIT, Leaf, Pick, eligible, lay_on, leaves_of, read, read_choice, read_name
from .rows import RowList, _row_of, _rows, rebuild, row_limits, row_paths, row_values
from .save import lay_save
from .skeleton import Template, labels_of, summary, view_of

__all__ = ["OMIT", "Laid", "Leaf", "Pick", "RowList", "Template", "_row_of", "_rows", "check", "eligible",
           "labels_of", "lay_on", "lay_save", "leaves_of", "read", "read_choice", "read_name", "rebuild",
           "row_limits", "row_paths", "row_values", "summary", "view_of"]
