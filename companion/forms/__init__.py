"""Form machinery for scoring a game at the table: one module per game (`<game>.py`, ending with its
`ADAPTER`), everything else generic and split by role. docs/architecture.md, "Forms", is the manual.

- `adapter`: what a game's module declares (`Adapter`: its palette, forms and hooks, typed);
- `fields`: the field types a game builds its screens with, bound by copy, and walking a form;
- `binding`: a game's `Screens` (its form class, the form of a document, the document of a form);
- `shape`: the game's field spec (`companion.saving.spec.Spec`) read from its form classes;
- `convert`: a form's values as posted and as read;
- `problems`: a stored document's messages beside its fields, the error summary;
- `html`: the fields' HTML;
- `new_game`: the new-game form.

Every name other modules imported from here before the split is still importable from here.
"""

from __future__ import annotations

from wtforms.fields import FormField  # reached through here by tests written before the split

from .adapter import COLOUR_WORDS, Adapter, adapter_of
from .binding import AppForm, EndState, Screens, Stored, _form_class, _module, screens
from .convert import leaf_fields, leaves, raw_values
from .fields import (
    _INT,
    SKIPPED,
    Choice,
    Count,
    Fixed,
    Flag,
    Group,
    Name,
    Names,
    Rows,
    Seats,
    Text,
    _Cloned,
    _Extras,
    _t,
    choice_labels,
    give_names,
    is_blank,
    item_hints,
    kind,
    options,
    pad_rows,
    walk,
)
from .new_game import COLOUR_NAMES_MAX, PlayerRow, new_game_form
from .problems import (
    Checked,
    engine_verdict,
    field_for,
    fold,
    labels,
    place,
    problems_of,
    stored_problems,
    summary,
    warned,
)


def stored(screens_: Screens, document: dict) -> Stored:
    """The stored document's texts as its page shows them (`Screens.texts`)."""
    return screens_.texts(document)


__all__ = [
    "COLOUR_NAMES_MAX", "COLOUR_WORDS", "SKIPPED",
    "Adapter", "AppForm", "Checked", "Choice", "Count", "EndState", "Fixed", "Flag", "FormField", "Group",
    "Name", "Names", "PlayerRow", "Rows", "Screens", "Seats", "Stored", "Text",
    "_INT", "_Cloned", "_Extras", "_form_class", "_module", "_t", "adapter_of",
    "choice_labels", "engine_verdict", "field_for", "fold",
    "give_names", "is_blank", "item_hints", "kind", "labels", "leaf_fields", "leaves",
    "new_game_form", "options", "pad_rows", "place",
    "problems_of", "raw_values", "screens", "stored", "stored_problems", "summary",
    "walk", "warned",
]
