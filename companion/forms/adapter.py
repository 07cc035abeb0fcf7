"""What a game's forms module (`companion/forms/<game>.py`) gives the shared form machinery, said once
at its end: ``ADAPTER = Adapter(palette=PALETTE, player_form=player_form, ...)``.

Every hook is named here with its type and its default (what a game without it gets); a keyword this
class does not know (a misspelt hook) is a TypeError when the game's module is imported, and a module
without ``ADAPTER`` is refused when its screens are first asked for. The shell reads a game's hooks
only through `Screens.adapter`, never ``getattr`` on the module. The merge's rules (`row_companion`,
`keyed`, `stored_count`, `settle`) are `companion.saving.merge.Rules`: an adapter is one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType

from wtforms import Form

from ..games.i18n import N_

# The palettes' colour names (each game's PALETTE is French, like every message id): for extraction.
COLOUR_WORDS = (N_("rouge"), N_("bleu"), N_("jaune"), N_("vert"), N_("violet"), N_("noir"))

Changes = dict[str, tuple[str, str]]
# (the stored document's `forms.Stored`, the player fields changed, every value after the merge, read)
PlayerHook = Callable[[object, Collection[str], Mapping[str, str], Callable], tuple | None]


@dataclass(frozen=True)
class RowsLaid:
    """What a game's `direct_rows` lays: the document with its rows (and what follows them, every
    player's counts by card), the messages by field, the contract paths the save's messages are
    placed by (its rows at their posted index), and the stored view after it as the form of the
    new document shows it: texts by field (posted and read alike), fields no longer shown, paths."""

    document: dict
    messages: Mapping[str, str]
    paths: Mapping[str, str]
    texts: Mapping[str, str]
    gone: Collection[str]
    after_paths: Mapping[str, str]


# (the stored view, the table fields changed, the rows added, every value after the merge, the
# document laid so far, its contract paths, read(lo, hi, text) as a `Count` reads it)
RowsHook = Callable[[object, Changes, Sequence[str], Mapping[str, str], dict, Mapping[str, str], Callable],
                    RowsLaid | None]


@dataclass(frozen=True)
class Redraw:
    """What a save laid directly changes of the stored view beyond its own fields, as a game's
    `to_form` and `to_document` would: the contract paths the merged form checks the save with
    (path -> field name, where they differ from the stored view's), the paths after the save, and
    the texts of the fields `to_form` fills, after it (field name -> (posted text, as a person
    reads it))."""

    checked: Mapping[str, str] = field(default_factory=dict)
    paths: Mapping[str, str] = field(default_factory=dict)
    texts: Mapping[str, tuple[str, str]] = field(default_factory=dict)


# (the stored document's `forms.Stored`, the fields changed, every value after the merge, the laid document)
ViewHook = Callable[[object, Collection[str], Mapping[str, str], dict], Redraw | None]


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
    # Adjust the document made from the form, recording contract path -> field name in `paths`.
    to_document: Callable[[dict, Form, dict[str, str]], None] | None = None
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
    # Field names an autosave may not lay on the document directly (`companion.forms.direct`) unless
    # `direct_view` says what they change (their value decides other fields', they stay in the skeleton).
    not_direct: re.Pattern | None = None
    # A save laid directly that changes `not_direct` fields or table fields `direct_table` takes, read
    # again from the whole laid document (Revive: one shared card or one per player, from every
    # player's card points): fn(stored view, fields changed, values after the merge, laid document)
    # -> `Redraw`, or None (the form's way).
    direct_view: ViewHook | None = None
    # Table fields an autosave lays on the document itself (Revive's shared card, copied into every
    # player's line): fn(changes, stored values, read) -> (written, messages, texts) or None.
    direct_table: Callable[[Changes, Mapping[str, str], Callable], tuple | None] | None = None
    # A player's fields an autosave lays on the document itself when the player form checks its
    # fields together (Reterra's counts, drawing, bonus, buildings by card): fn(stored view, changed
    # fields, values after the merge, read) -> (seat -> player object, messages, texts) or None (the
    # form's way).
    direct_player: PlayerHook | None = None
    # A table list whose rows the game lays itself, after the merge (Reterra's building cards: a
    # card's id comes from its name, and every player's counts are keyed by it): a `RowsHook`, the
    # rows changed and added and what follows them as the form writes them, or None (the form's way).
    direct_rows: RowsHook | None = None
    # A posted form's fields -> the key of the row they were typed for (Reterra's counts by card).
    row_keys: Callable[[Form], dict[str, str]] | None = None
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
