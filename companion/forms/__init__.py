"""Form machinery for scoring a game at the table: one module per game (`<game>.py`, ending with its
`ADAPTER`), everything else generic and split by role. docs/architecture.md, "Forms", is the manual.

- `adapter`: what a game's module declares (`Adapter`: its palette, forms and hooks, typed);
- `fields`: the field types a game builds its screens with, bound by copy, and walking a form;
- `binding`: a game's `Screens` (its form class, the form of a document, the document of a form);
- `convert`: form <-> document and a form's values as posted and as read;
- `problems`: every message beside its field (`place`), the checks, the error summary;
- `steps`: the form side of a save (the stored view, the merge, `Steps` for `companion.saving`);
- `direct`: an autosave checked by the engine without a form; `html`: the fields' HTML;
- `new_game`: the new-game form.

Every name other modules imported from here before the split is still importable from here.
"""

from __future__ import annotations

from wtforms.fields import FormField  # reached through here by tests written before the split

from .adapter import COLOUR_WORDS, Adapter, adapter_of
from .binding import AppForm, EndState, Screens, _form_class, _module, screens
from .convert import OMIT, blank_texts, collect, differences, leaf_fields, leaves, raw_values
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
    check,
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
from .steps import (
    ADDED,
    BASE,
    CHANGES,
    KEYS,
    STORED_MAX,
    Lazy,
    Merged,
    Steps,
    Stored,
    _stored,
    changes_of,
    merge,
    new_rows,
    parse_changes,
    parse_keys,
    parse_list,
    parse_values,
    remember,
    row_keys,
    stored,
)

__all__ = [
    "ADDED", "BASE", "CHANGES", "COLOUR_NAMES_MAX", "COLOUR_WORDS", "KEYS", "OMIT", "SKIPPED", "STORED_MAX",
    "Adapter", "AppForm", "Checked", "Choice", "Count", "EndState", "Fixed", "Flag", "FormField", "Group",
    "Lazy", "Merged", "Name", "Names", "PlayerRow", "Rows", "Screens", "Seats", "Steps", "Stored", "Text",
    "_INT", "_Cloned", "_Extras", "_form_class", "_module", "_stored", "_t", "adapter_of", "blank_texts",
    "changes_of", "check", "choice_labels", "collect", "differences", "engine_verdict", "field_for", "fold",
    "give_names", "is_blank", "item_hints", "kind", "labels", "leaf_fields", "leaves", "merge",
    "new_game_form", "new_rows", "options", "pad_rows", "parse_changes", "parse_keys", "parse_list",
    "parse_values", "place",
    "problems_of", "raw_values", "remember", "row_keys", "screens", "stored", "stored_problems", "summary",
    "walk", "warned",
]
