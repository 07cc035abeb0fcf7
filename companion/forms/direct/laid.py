"""A save laid without a form (`Laid`): its document checked by the engine, its messages beside
their fields (`check`), and the stored view after it made from the one before (`Laid.after`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from ...games.i18n import _
from .hooks import _after_rows
from .leaves import OMIT
from .rows import row_limits, row_paths, row_values
from .skeleton import _texts


@dataclass
class Laid:
    """A direct save: its document and messages (`forms.Checked`), the conflicts (as the merge
    says them), the stored values before it, and how to make the stored values after it."""

    checked: object
    conflicts: dict
    stored: dict
    form: object
    view: object  # the stored view the save was laid on; None when it cannot be the base of the next
    written: dict  # field name -> value or OMIT
    spec: object
    moved: dict
    dropped: dict
    rows: dict = field(default_factory=dict)  # list name -> `RowList`, for the lists rebuilt
    texts: dict = field(default_factory=dict)  # a game's table fields written (`direct_table`): their texts
    relaid: object = None  # a game's rows it laid itself (`direct_rows`, an `adapter.RowsLaid`)
    redraw: object = None  # what the game reads again from the laid document (`Adapter.direct_view`)

    def after(self, sc, document: dict):
        """The `Stored` view of the document just written, made from the one before (no form) and
        kept where `forms.stored` finds it; None when it cannot be made so."""
        from ..steps import Stored, remember

        view = self.view
        if view is None:  # the document before was not as its form writes it (a game never saved)
            return None
        values, shown = dict(view.values), dict(view.shown)
        redraw = self.redraw
        paths = dict(view.paths) if self.rows or (redraw is not None and redraw.paths) else view.paths
        if redraw is not None and redraw.paths:
            paths.update(redraw.paths)
        limits = view.limits
        for name, value in self.written.items():
            if name in self.rows:  # a list rebuilt: its rows as the form of the new document shows them
                for key in [k for k in values if k.startswith(name + "-")]:
                    del values[key]
                    shown.pop(key, None)
                more, read_as = row_values(self.rows[name], name, value)
                values.update(more)
                shown.update(read_as)
                path = self.rows[name].leaf.path
                for key in [k for k in paths if k.startswith(path + "[")]:
                    del paths[key]
                row_paths(self.rows[name], name, path, value, paths)
                if self.rows[name].inner:  # the lists inside its rows (a city's tiles), as shown now
                    limits = {k: n for k, n in limits.items() if not k.startswith(name + "-")}
                    limits = MappingProxyType(limits | row_limits(self.rows[name], name, value))
                continue
            f = self.spec[name]
            if value is OMIT and f.fixed:
                value = 0
            if f.kind == "flag":
                values[name], shown[name] = ("y", _("oui")) if value is True else ("", _("non"))
            elif f.kind == "name":
                values[name], shown[name] = _texts(f, value)
            else:
                text = "" if value is OMIT else str(value)
                values[name] = shown[name] = text
        for name, text in self.texts.items():
            values[name] = shown[name] = text
        if self.relaid is not None:  # a game's own rows: as the form of the new document shows them
            paths = _after_rows(self.relaid, values, shown)
        for name, (text, read_as) in (redraw.texts.items() if redraw is not None else ()):
            values[name], shown[name] = text, read_as
        paths = paths if paths is view.paths else MappingProxyType(paths)
        made = Stored(MappingProxyType(values), MappingProxyType(shown), limits, document, paths,
                      view.blanks)
        remember(sc, document, made)
        return made


def check(sc, document: dict, messages: dict[str, str], paths) -> object:
    """`forms.check` for a document laid directly: the fields' own messages first, then the engine's,
    each beside the field of its path; blocking unless the engine's are all rules between fields."""
    from ..problems import Checked, engine_verdict, fold, put

    errors: dict[str, list[str]] = {}
    general: list[str] = []
    for name, message in messages.items():
        put(errors, general, name, message)
    own = set(messages)
    result, refused = engine_verdict(sc, document, paths, errors, general, own)
    blocking = bool(messages) or refused
    fold(errors, general, ["players"])  # the seat list has no message slot
    return Checked(None if blocking else document, errors, general, result, frozenset(own & errors.keys()))
