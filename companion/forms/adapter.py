"""What a game's forms module (`companion/forms/<game>.py`) gives the shared form machinery, said once
at its end: ``ADAPTER = Adapter(palette=PALETTE, player_form=player_form, ...)``.

Every hook is named here with its type and its default (what a game without it gets); a keyword this
class does not know (a misspelt hook) is a TypeError when the game's module is imported, and a module
without ``ADAPTER`` is refused when its screens are first asked for. The shell reads a game's hooks
only through `GameForms.adapter`, never ``getattr`` on the module. The merge's rules (`row_companion`,
`keyed`, `stored_count`, `settle`) are `companion.saving.merge.Rules`: an adapter is one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType

from wtforms import Form

from ..games.i18n import N_

# The palettes' colour names (each game's PALETTE is French, like every message id): for extraction.
COLOUR_WORDS = (N_("rouge"), N_("bleu"), N_("jaune"), N_("vert"), N_("violet"), N_("noir"))

Changes = dict[str, tuple[str, str]]


def _no_table(variant: str) -> None:
    return None


@dataclass(frozen=True, kw_only=True)
class Adapter:
    """One game's form hooks; only `palette` and `player_form` are required."""

    # The box's player colours in the box's order, (css hex, French name): the new-game page offers
    # them and gives seat i palette[i] by default.
    palette: Sequence[tuple[str, str]]
    # The fields of ONE player's end state for a variant, each named by its contract key.
    player_form: Callable[[str], type[Form]]
    # Table-level fields (Rebirth's cities...), rendered above the players; None: none.
    table_form: Callable[[str], type[Form] | None] = _no_table
    # Adjust the form data made from the stored document (fill ui-only fields from it).
    to_form: Callable[[dict, dict], None] | None = None
    # Finish the document read from the fields (`companion.saving.spec.Reading`: every field's value,
    # its messages and the contract paths, which it may add to): a key made from others, a mode's fields.
    to_document: Callable[[dict, object], None] | None = None
    # Names a game gives its fields itself in the error summary (Reterra's counts, by card name).
    field_labels: Callable[[Form, dict[str, str]], None] | None = None
    # How many colours of its own the table names on the new-game page (Revive: 3), and the hint.
    colour_names: int = 0
    colour_hint: str = ""
    # Give the form the names the table chose (`GameRecord.labels`); put them in an engine sentence.
    label_form: Callable[[Form, dict], None] | None = None
    relabel: Callable[[str, dict], str] | None = None
    # An engine message as the page words it (Reterra: squares as "A1", not [0, 0]).
    readable: Callable[[str], str] | None = None
    # A posted page's texts -> the key of the row each field was typed for (Reterra's counts by card).
    row_keys: Callable[[Mapping[str, str]], dict[str, str]] | None = None
    # The merge's rules (`companion.saving.merge.Rules`): a field outside a row that follows it by
    # index, and fields that follow a row by its key (all three together, or none).
    row_companion: Callable[[str, int, int, str], str | None] | None = None
    keyed: Callable[[Changes, Mapping[str, str], Mapping[str, str], list[str]], tuple] | None = None
    stored_count: Callable[[Mapping[str, str], int, str], str] | None = None
    settle: Callable[[dict[str, str], Mapping[str, str], dict, Changes], dict[str, str]] | None = None

    # The edit page may be drawn from a kept skeleton (companion/views/edit_page.py); False for a
    # game whose template reads values itself.
    page_skeleton: bool = True

    def __post_init__(self):
        together = (self.keyed, self.stored_count, self.settle)
        if any(together) and not all(together):
            raise TypeError("keyed, stored_count and settle go together (fields following a row by its key)")


def adapter_of(module: ModuleType) -> Adapter:
    """The `Adapter` a game's forms module declares (TypeError when it declares none)."""
    found = getattr(module, "ADAPTER", None)
    if not isinstance(found, Adapter):
        raise TypeError(f"{module.__name__} must end with ADAPTER = Adapter(palette=..., player_form=...)")
    return found
