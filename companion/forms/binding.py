"""A game's screens: its forms module, read through its declared `Adapter`, wrapped with the generic
behaviour (the end-state form class per variant and seat count, the form of a stored document, the
document of a form), and the base form every form of the app derives from."""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from types import ModuleType

from flask_wtf import FlaskForm
from wtforms.fields import FormField, HiddenField

from .. import games
from ..games import i18n
from ..games.i18n import tr
from ..saving import spec
from .adapter import Adapter, adapter_of
from .fields import Seats, give_names
from .shape import spec_of


class _WTFormsMessages:
    """WTForms' own messages (a CSRF token missing...) in the reader's language. Flask-WTF reads
    their catalogue from disk again on every request that builds a form: read once per language."""

    def gettext(self, string):
        return _wtforms_catalogue(i18n.current()).ugettext(string)

    def ngettext(self, singular, plural, n):
        return _wtforms_catalogue(i18n.current()).ungettext(singular, plural, n)


@cache
def _wtforms_catalogue(lang: str):
    from babel import support
    from wtforms.i18n import messages_path

    return support.Translations.load(messages_path(), [lang], domain="wtforms")


class AppForm(FlaskForm):
    """Every form of the app: Flask-WTF's (CSRF), with WTForms' messages read once per language."""

    class Meta:
        def get_translations(self, form):
            return _WTFORMS_MESSAGES


_WTFORMS_MESSAGES = _WTFormsMessages()


class EndState(AppForm):
    """Base of every end-state form: the stored version it was read from, then the game's fields."""

    version = HiddenField()


@dataclass
class GameForms:
    """One game's screens: its forms module, read through the `Adapter` it declares, wrapped with
    the generic behaviour."""

    id: str
    module: ModuleType
    game: games.Game = field(repr=False)

    @cached_property
    def adapter(self) -> Adapter:
        return adapter_of(self.module)

    @property
    def palette(self) -> list[tuple[str, str]]:
        """(hex, colour name in the current language) of the box's colours."""
        return [(hex_, tr(name)) for hex_, name in self.adapter.palette]

    def default_colours(self, n: int) -> list[str]:
        pal = [hex_ for hex_, _ in self.palette]
        return [pal[i % len(pal)] for i in range(n)] if pal else [""] * n

    def colour_name(self, hex_: str) -> str:
        return dict(self.palette).get(hex_, "")

    @property
    def colour_names(self) -> int:
        """How many colours of its own the table names when the game starts (Revive: 3), else 0."""
        return int(self.adapter.colour_names)

    @property
    def colour_hint(self) -> str:
        """What the new-game page says under those names (a French message id)."""
        return self.adapter.colour_hint

    def label(self, form, labels: dict) -> None:
        """Give the form the names the table chose (Revive's colours), where the game has any."""
        if self.adapter.label_form:
            self.adapter.label_form(form, labels or {})

    def say(self, message: str) -> str:
        """An engine message as the page words it (Reterra: board squares as "A1", not [0, 0])."""
        return self.adapter.readable(message) if self.adapter.readable else message

    def relabel(self, text: str, labels: dict) -> str:
        """A sentence of the engine (a line's detail) with the table's names in it."""
        return self.adapter.relabel(text, labels or {}) if self.adapter.relabel and text else text

    def row_keys(self, texts) -> dict[str, str]:
        """What a posted page's texts say of the rows its fields were typed for (`Adapter.row_keys`)."""
        return self.adapter.row_keys(texts) if self.adapter.row_keys else {}

    @property
    def templates(self) -> list[str]:
        return [f"play/{self.id}.html", "play/edit.html"]

    def form_class(self, variant: str, n_players: int) -> type[EndState]:
        return end_state_class(self.id, variant, n_players)

    def form(self, document: dict, formdata=None) -> EndState:
        """The end-state form for a stored document, or for a submission when `formdata` is given."""
        variant = document["variant"]
        names = [p.get("name", "") for p in document.get("players", [])]
        cls = self.form_class(variant, len(names))
        data = {k: v for k, v in document.items() if k not in ("game", "variant")}
        if self.adapter.to_form:
            self.adapter.to_form(document, data)
        if formdata is None:
            form = cls(formdata=None, data=data)
        else:
            form = cls(formdata=formdata)
        form.names = names
        give_names(form, names)
        return form

    # -- what a save reads (`companion.saving.spec.Fields`): the game's field spec, no form built

    @cached_property
    def fields(self) -> spec.Fields:
        return _fields(self.id, self.module)

    def spec(self, variant: str, seats: int) -> spec.Spec:
        return self.fields.spec(variant, seats)

    def texts(self, document: dict) -> spec.Texts:
        """The stored document as its page shows it (`spec.Texts`, its `document` and `paths` too)."""
        return self.fields.texts(document)

    def read(self, document: dict, values) -> tuple[dict, spec.Reading]:
        return self.fields.read(document, values)

    def to_document(self, record_document: dict, form: EndState) -> tuple[dict, dict[str, str]]:
        """The contract document a form's fields describe (their texts read as a save reads them),
        and contract path -> field name."""
        from .convert import raw_values
        from .shape import spec_from

        seats = len(record_document.get("players") or [])
        doc, reading = self.fields.read(record_document, raw_values(form), spec_from(form, seats))
        return doc, reading.paths


_FIELDS: dict[tuple[str, int], tuple[object, spec.Fields]] = {}


def _fields(game_id: str, module) -> spec.Fields:
    """A game's fields for saves, one per forms module (a test's stand-in game gets its own)."""
    found = _FIELDS.get((game_id, id(module)))
    if found is None or found[0] is not module:
        adapter = adapter_of(module)
        made = spec.Fields(lambda variant, seats: spec_of(end_state_class(game_id, variant, seats), seats),
                           spec.Hooks(adapter.to_form, adapter.to_document), adapter, adapter.readable)
        found = _FIELDS[(game_id, id(module))] = (module, made)
    return found[1]


@cache
def end_state_class(game_id: str, variant: str, n_players: int) -> type[EndState]:
    adapter = adapter_of(_module(game_id))
    player = adapter.player_form(variant)
    namespace: dict = {}
    table = adapter.table_form(variant)
    if table is not None:
        for name in dir(table):
            value = getattr(table, name)
            if hasattr(value, "field_class"):  # an UnboundField
                namespace[name] = value
        namespace["ui_only"] = tuple(getattr(table, "ui_only", ()))
    namespace["players"] = Seats(FormField(player), n_players)
    hook = adapter.field_labels
    namespace["label_hook"] = staticmethod(hook) if hook else None
    return type(f"{game_id.title()}{variant.title()}EndState", (EndState,), namespace)


def _module(game_id: str) -> ModuleType:
    return importlib.import_module(f"{__package__}.{game_id}")


def screens(game_id: str) -> GameForms | None:
    """The screens of a game, or None when nobody has written `companion/forms/<game>.py` yet."""
    game = games.GAMES.get(game_id)
    if game is None or not re.fullmatch(r"[a-z_]+", game_id):
        return None
    if importlib.util.find_spec(f"{__package__}.{game_id}") is None:
        return None
    return GameForms(game_id, _module(game_id), game)
