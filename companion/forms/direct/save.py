"""`lay_save`: an autosave laid on the stored document and checked by the engine, or None (the
merged form's way); the one entry point of this package for `forms.Steps.direct`."""

from __future__ import annotations

from ...games.i18n import _
from .hooks import _SEAT_FIELD, _lay_players, _lay_rows, _own_rows, _with_players
from .laid import Laid, check
from .leaves import eligible, lay_on, leaves_of, read
from .rows import _row_added, _row_of, _rows, rebuild


def lay_save(steps, document: dict, save, view):
    """`forms.Steps.direct`: an autosave laid on the stored document and checked by the engine, no
    form built, or None when it touches a field only the form can read (a player's own name, a
    choice outside a row, a field its game does not lay itself or whose view after the save its
    `direct_view` cannot say). Only the autosave goes this way: the no-JS post stays with
    WTForms, the reference."""
    from ...saving.merge import lay
    from .. import CHANGES, Lazy

    sc = steps.screens
    if steps.formdata is None or CHANGES not in steps.formdata:
        return None
    if save.keys and sc.adapter.keyed is not None and sc.adapter.direct_player is None:
        return None
    spec = leaves_of(sc, view)
    doc = view.document
    rows = _rows(sc.id, doc["variant"], len(doc.get("players", [])))
    excluded, redrawn = sc.adapter.not_direct, sc.adapter.direct_view
    leaves, touched, others = [], set(), {}
    for name in save.changes:
        if name in spec:
            leaves.append(name)
            continue
        found = _row_of(name, rows)
        if found is None:
            others[name] = save.changes[name]  # a game's table field, if its `direct_table` reads it
        elif excluded is not None and excluded.fullmatch(name):
            return None
        else:
            touched.add(found[0])
    table = None
    players = {n: pair for n, pair in others.items() if _SEAT_FIELD.match(n)}  # a game's `direct_player`
    others = {n: pair for n, pair in others.items() if n not in players}
    if players and sc.adapter.direct_player is None:
        return None
    listed, own_added = _own_rows(sc, others, save.added, rows)
    if listed is not None:  # a game's list whose rows it lays itself (`direct_rows`), after the merge
        others = {}
    if others:
        hook = sc.adapter.direct_table
        table = hook(others, view.values, lambda field, text: read(spec[field], text)) if hook else None
        if table is None:
            return None
    for prefix in save.added:
        if prefix in own_added:
            continue
        found = _row_of(prefix, rows)
        if found is None or (found[2] and not _row_added(rows[found[0]], found[2])):
            return None  # a row added inside a list the form reads
        touched.add(found[0])
    # fields whose value decides others' (`not_direct`): laid only when the game says the view after
    # them (`direct_view`), their paths as it checks them
    guarded = {n for n in leaves if excluded is not None and excluded.fullmatch(n)}
    if guarded and (redrawn is None or any(n not in view.values for n in guarded)):
        return None
    if not eligible(sc, view, spec, [n for n in leaves if n not in guarded]):
        return None
    if touched and (view.document != document
                    or any(view.paths.get(rows[t].leaf.path) != t for t in touched)):
        return None  # a game never saved yet, or a list the stored form does not show there
    names = [p.get("name", "") for p in document.get("players", [])]
    laid = lay(view, save.changes, added=save.added or None, keys=save.keys or None, names=names,
               rules=sc.adapter, blank=_("vide"))
    written, messages = {}, {}
    for name in spec:  # the page's order: the messages come out as the form gives them
        if name in save.changes:
            value, message = read(spec[name], save.changes[name][1], names)
            written[name] = value
            if message:
                messages[name] = message
    texts = {}
    seats = {}
    if players:  # a player's fields the game lays itself (its player form checks them together)
        got = _lay_players(sc, view, players, laid.data)
        if got is None:
            return None
        seats, said, texts = got
        messages.update(said)
    if table is not None:  # what the game's fields write (the shared card into every player's line)
        more, said, table_texts = table
        texts.update(table_texts)
        written.update(more)
        messages.update(said)
    paths, full = view.paths, spec
    if touched:
        paths, full = dict(view.paths), dict(spec)
        for list_name in sorted(touched):
            row_list = rows[list_name]
            inside = row_list.leaf.path + "["
            for key in [k for k in paths if k.startswith(inside)]:
                del paths[key]
            written[list_name] = rebuild(row_list, list_name, laid.data, paths, messages, names)
            full[list_name] = row_list.leaf
    laid_doc = _with_players(lay_on(view.document, written, full), seats)
    relaid = None
    if listed is not None:
        relaid = _lay_rows(sc, document, view, listed, own_added, laid.data, laid_doc, paths)
        if relaid is None:
            return None
        laid_doc, paths = relaid.document, relaid.paths
        messages.update(relaid.messages)
    redraw = None
    if redrawn is not None and (guarded or others):
        redraw = redrawn(view, tuple(save.changes), laid.data, laid_doc)
        if redraw is None:
            return None
        if redraw.checked:
            paths = {**paths, **redraw.checked}
    checked = check(sc, laid_doc, messages, paths)
    form = Lazy(lambda: steps.merge(document, save.changes, view, save.added, save.keys).form)
    # the stored values after it are made from these only when the stored document is the one its
    # form writes (not so before a game's first save: fixed lists not written yet)
    base = view if view.document == document else None
    return Laid(checked, laid.conflicts, dict(view.values), form, base, written, full, laid.moved,
                laid.dropped, {t: rows[t] for t in touched}, texts, relaid, redraw)
