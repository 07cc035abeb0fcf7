"""What a game's results look like: the results page (/g/<token>/resultats), the read-only page a
shared link opens (/r/<token>/), the filled sheet as PDF, and the rendered results kept per version."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from .. import forms, games
from ..base.lru import LRU
from ..games import i18n, needed
from ..games.core import headline_of
from ..games.i18n import _
from ..outputs import bgstats
from ..storage import history, photo_store, score_cache, store
from ..web import limits, links
from .dates import local, zone
from .edit import screens_or_404


def _results_context(record, *, editable: bool) -> dict:
    result = score_cache.result_of(record)
    game = games.GAMES[record.game]
    names = store.names_of(record)
    colours = dict(zip(names, store.colours_of(record), strict=True))
    context = {"record": record, "game": game, "result": result, "colours": colours, "editable": editable,
               "variant_label": game.variant_label(record.variant)}
    if result is None:
        return context
    totals = {p.name: p.total for p in result.players}
    sc = forms.screens(record.game)
    labels = store.labels_of(record)

    def say(text: str) -> str:  # the table's names (Revive's colours) in the engine's sentences
        return sc.relabel(text, labels) if sc else text

    rows = []
    for row in games.score_pad(result):
        cells = [{"points": line.points, "detail": say(line.detail), "name": p.name}
                 for line, p in zip(row.lines, result.players, strict=True)]
        rows.append({"key": row.key, "label": row.label, "hint": row.hint, "cells": cells,
                     "details": [c for c in cells if c["detail"]]})
    context.update(
        rows=rows, totals=totals,
        warnings=[w.message for w in games.warnings(record.document, result, finished=True)],
        headline=headline_of(result),
        tiebreaks=game.tiebreak_lines(record.variant, game.edition(store.edition_of(record))),
        # what each player who did not win would have needed: searched once per stored version
        needed=[say(needed.line(need)) for need in score_cache.needed_of(record)],
    )
    return context


@dataclass(frozen=True)
class Shown:
    """What a results page shows of one stored version: the podium, ties, score pad and chart
    (play/_results.html, `html`; None when the version does not score) and the BG Stats link."""

    html: Markup | None
    bgstats: str = ""
    # whole pages around it, per (status, page URL), cut at the CSRF token (`_whole`): at most
    # PAGES_PER_VERSION, counted in its weight
    pages: dict = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:  # its weight in SHOWN
        return (len(self.html or "") + len(self.bgstats)) * (1 + 2 * PAGES_PER_VERSION)


PAGES_PER_VERSION = 2  # the edit link's and the share link's page, or two addresses of the server


# Rendered results per process: a results page is read again and again between two saves (the
# table, each phone the link was shared with). Bounded in characters and in count.
SHOWN = LRU(max_size=16 * 1024 * 1024, max_items=512)


def _key(record, *, editable: bool) -> tuple:
    here = zone()
    return (record.view_token, record.version, repr(record.colours), repr(record.labels), i18n.current(),
            here.key if here else "", editable, request.script_root, record.photo_key)


def _shown(record, *, editable: bool) -> Shown:
    """The results of `record`'s stored version, rendered once per everything they are drawn from:
    the version (the document; every save bumps it), the players' colours and the table's names,
    the reader's language and time zone (the date), edit or read-only, the site's root (static
    links). Nothing of the request or the reader's session goes in: the CSRF token, flashed
    messages, header and menu are rendered around it on each request."""
    key = _key(record, editable=editable)
    shown = SHOWN.get(key)
    if shown is None:
        context = _results_context(record, editable=editable)
        if context["result"] is None:
            shown = Shown(None)
        else:
            shown = Shown(Markup(render_template("play/_results.html", **context)),  # noqa: S704 - rendered escaped
                          bgstats.link(context["result"], uid=record.uid, played_at=record.created_at,
                                       duration=bgstats.duration_min(record.created_at,
                                                                     record.first_scored_at)))
        if not current_app.jinja_env.auto_reload:  # development: templates change under it
            SHOWN.put(key, shown)
    return shown


def results(token: str, photo_problem: str | None = None):
    """The results page; `photo_problem`: a refused photo's message, beside its field (the page is
    then drawn for this request alone)."""
    record = history.open_by_edit_token(token)
    shown = _shown(record, editable=True)
    if shown.html is None:
        flash(_("Pas encore de résultats : complétez les champs signalés."), "error")
        return redirect(url_for("play.edit", token=token))
    share = links.phone_url("play.view", token=record.view_token)
    names = store.names_of(record)
    # "rejouer" passes the first seat to the left (views/history.again): the button says who starts
    starts = names[1] if len(names) > 1 else None
    def page():
        return render_template("play/results.html", record=record, game=games.GAMES[record.game], shown=shown,
                               share_url=share, again_starts=starts, photo_problem=photo_problem,
                               photo_limit=current_app.config["PHOTO_MAX_BYTES"])

    return page() if photo_problem else _whole(record, shown, page)


def view(token: str):
    record = history.open_by_view_token(token)
    shown = _shown(record, editable=False)
    return _whole(record, shown, lambda: render_template(
        "play/view.html", record=record, game=games.GAMES[record.game], shown=shown))


def _whole(record, shown: Shown, render) -> str:
    """The page `render` draws, kept with its `shown` per page URL (its links, the language switch,
    the share link's QR code) and status: header, menu and phone link are the same for every
    reader of one version at one address; only the CSRF token is this request's. Rendered each
    time while a flashed message waits (it is shown once)."""
    if session.get("_flashes") or current_app.jinja_env.auto_reload:
        return render()
    token = generate_csrf() if current_app.config.get("WTF_CSRF_ENABLED", True) else ""
    key = (record.status, request.url)
    parts = shown.pages.get(key)
    if parts is None:
        html = render()
        parts = tuple(html.split(token)) if token else (html,)
        if len(shown.pages) >= PAGES_PER_VERSION:
            shown.pages.clear()
        shown.pages[key] = parts
    return token.join(parts)


def _sheet(record, back: str):
    """The filled sheet; a draft that does not score yet (a rule between fields not met) has none:
    back to its page, which says so (`back`). A sheet already drawn for this version (or a 304)
    costs one query: the game is scored only when its sheet is drawn. `?photo=1`: with the photo of
    the final board on a second page, when the game has one."""
    from ..pdf.cache import sheet_response

    sc = screens_or_404(record.game)
    labels = store.labels_of(record)
    # Hex and the palette's French name, so a black-and-white print still tells players apart.
    colours = [(c, sc.colour_name(c)) for c in store.colours_of(record)]
    day = local(record.created_at).date()  # the date where the table played
    photo_key = record.photo_key if request.args.get("photo") == "1" else None

    def render() -> bytes | None:
        from ..pdf import sheet_from_result  # WeasyPrint loads only when a sheet is rendered

        result = score_cache.result_of(record)
        if result is None:
            return None
        if labels:  # the table's names (Revive's colours) in each line's detail, as on the results page
            result = replace(result, players=[
                replace(p, breakdown=[replace(line, detail=sc.relabel(line.detail, labels))
                                      for line in p.breakdown])
                for p in result.players])
        photo = photo_store.photo_of(record.id) if photo_key else None
        return sheet_from_result(record.document, result, colours=colours, date=day,
                                 edition=store.edition_of(record), photo=photo.data if photo else None,
                                 needs=score_cache.needed_of(record))  # kept per stored version

    # Rendered once per stored version (ETag, 304); the key holds all the sheet draws from.
    response = sheet_response(record, colours, day, (labels, photo_key) if photo_key else labels, render)
    return redirect(back) if response is None else response


@limits.heavy  # a fresh sheet is a second of WeasyPrint: never in the share the tables' saves wait for
def sheet(token: str):
    return _sheet(store.read_by_edit_token(token), url_for("play.results", token=token))


@limits.heavy
def view_sheet(token: str):
    return _sheet(store.read_by_view_token(token), url_for("play.view", token=token))
