"""The edit page's forms: one module per game (`<game>.py`, ending with its `ADAPTER`), the rest
generic, one role per module (docs/architecture.md, "Forms"): `adapter`, `fields`, `binding`, `shape`
(the field spec a save reads), `convert`, `problems`, `new_game`, `players`. The views and
tests read the package from here; a game's module imports the field types from `fields`."""

from __future__ import annotations

from wtforms.fields import FormField  # noqa: F401 (the dice stand-in's forms reach it here)

from .adapter import Adapter
from .binding import AppForm, EndState, GameForms, end_state_class, screens
from .convert import raw_values
from .fields import (
    Choice,
    Count,
    Fixed,
    Flag,
    Group,
    Name,
    Rows,
    Seats,
    Text,
    choice_labels,
    give_names,
    options,
    pad_rows,
    walk,
)
from .new_game import new_game_form
from .problems import field_for, labels, place, problems_of, stored_problems, summary, warned

__all__ = [
    "Adapter", "AppForm", "Choice", "Count", "EndState", "Fixed", "Flag", "FormField", "Group", "Name",
    "Rows", "GameForms", "Seats", "Text", "end_state_class", "choice_labels", "field_for",
    "give_names", "labels", "new_game_form", "options", "pad_rows", "place",
    "problems_of", "raw_values", "screens", "stored_problems", "summary", "walk", "warned",
]
