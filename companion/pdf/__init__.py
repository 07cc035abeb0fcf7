"""Printable score sheets (WeasyPrint): a scored game's filled sheet and blank score pads.

    render_sheet(document, colours=None, date=None) -> PDF bytes   (raises InvalidDocument)
    sheet_from_result(document, result, ...) -> PDF bytes         (the same, already scored)
    render_pad(game_id, variant) -> PDF bytes                      (raises UnknownPad)

Rows are the game's categories in contract order with their labels and reminders, read from
`games.GAMES[id]` (never a copy); a game's own drawings (a Reterra grid player's community, from
the engine's analysis) come from its board module (`boards.py`). Fonts, stylesheet and everything
else a page uses come from `static/` through `fetcher.StaticFetcher`, which refuses any other
URL. Every text goes through Jinja's autoescaping, and through `printable` (a character no shipped
font draws becomes U+FFFD, never an empty box). Each page is one A4 page: a sheet that overflows
is rendered again more compactly.
WeasyPrint is imported on first use only, so that `python -m companion score` stays quick.
"""

from __future__ import annotations

import atexit
import datetime as dt
import re
import threading
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache

from .. import games
from ..base import offload
from ..games import i18n, needed
from ..games.core import InvalidDocument, Result, headline_of, join_names, ordinal
from ..games.core import points_text as number
from ..games.i18n import _
from ..settings import ROOT, STATIC
from . import boards

TEMPLATES = ROOT / "templates"
BASE_URL = STATIC.as_uri() + "/"  # the stylesheet's and fonts' URLs are relative to static/
PAD_COLUMNS = 4

# A few French colour names a table may use for its players (pawns, score markers).
COLOUR_NAMES = {
    "rouge": "#c0392b", "bleu": "#2471a3", "vert": "#229954", "jaune": "#f1c40f",
    "orange": "#e67e22", "violet": "#7d3c98", "rose": "#e91e63", "noir": "#1c1c1c",
    "blanc": "#ffffff", "gris": "#808b96", "marron": "#7b4a2a", "turquoise": "#17a2a2",
    "beige": "#d9c7a0", "cyan": "#00acc1",
}
# The same in English (`--colours red,blue` with `--lang en`, or in any language): printed as given.
COLOUR_NAMES |= {
    "red": COLOUR_NAMES["rouge"], "blue": COLOUR_NAMES["bleu"], "green": COLOUR_NAMES["vert"],
    "yellow": COLOUR_NAMES["jaune"], "purple": COLOUR_NAMES["violet"], "pink": COLOUR_NAMES["rose"],
    "black": COLOUR_NAMES["noir"], "white": COLOUR_NAMES["blanc"], "grey": COLOUR_NAMES["gris"],
    "gray": COLOUR_NAMES["gris"], "brown": COLOUR_NAMES["marron"],
}

HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DroidSansFallback.ttf")  # those of sheet.css
REPLACEMENT = "\ufffd"


class UnknownPad(LookupError):
    """No blank pad for this game or variant: `path` ("game" or "variant") and a French message."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def __getattr__(name: str):
    # The fetcher imports WeasyPrint: load it only when someone asks for it.
    if name in ("StaticFetcher", "FetchRefused", "static_path"):
        from . import fetcher

        return getattr(fetcher, name)
    raise AttributeError(name)


# --------------------------------------------------------------------------- small helpers


def colour(value: object) -> tuple[str, str] | None:
    """(CSS hex colour, French name or "") for a colour a table gave — a hex colour, a French
    name, or a (hex, name) pair as the app stores them —; None for anything else."""
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, str) for v in value):
        found = colour(value[0])
        return (found[0], value[1].strip()[:20]) if found else None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if HEX.fullmatch(text):
        return text.lower(), ""
    key = text.casefold()
    if key in COLOUR_NAMES:
        return COLOUR_NAMES[key], key
    return None


@lru_cache(maxsize=1)
def _coverage() -> frozenset[int]:
    """Every character the shipped fonts draw (read once per process, about 0.2 s)."""
    from fontTools.ttLib import TTFont

    covered: set[int] = set()
    for name in FONTS:
        covered.update(TTFont(str(STATIC / "fonts" / name), lazy=True).getBestCmap())
    return frozenset(covered)


def printable(text: str) -> str:
    """`text` with what no shipped font can draw (emoji, Thai...) replaced by "\ufffd", and invisible
    format characters without a glyph (emoji joiners and variation selectors) left out, so that a
    page never shows an empty .notdef box (WeasyPrint warns about those)."""
    covered = _coverage()
    if all(ord(ch) in covered or ch in "\n\t" for ch in text):
        return text
    out = []
    for ch in text:
        if ord(ch) in covered or ch in "\n\t":
            out.append(ch)
        elif unicodedata.category(ch) not in ("Mn", "Me", "Cf", "Cc"):
            out.append(REPLACEMENT)
    return "".join(out)


def _finalize(value: object) -> object:
    # Every {{ expression }} of the sheets passes here before autoescaping; a macro's output is
    # already markup whose own expressions went through here.
    from markupsafe import Markup

    if isinstance(value, str) and not isinstance(value, Markup):
        return printable(value)
    return value


def place_label(place: int, shared: bool) -> str:
    return ordinal(place) + (_(" ex æquo") if shared else "")


# --------------------------------------------------------------------------- rendering


@lru_cache(maxsize=1)
def _environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    # Autoescape everything: a player's name is text, whatever it holds.
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, finalize=_finalize,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      extensions=["jinja2.ext.i18n"])
    # The same catalogue and language as the engines (`_("… %(name)s", name=…)` in the templates,
    # as in the web pages); the language is read at each call, so one environment serves both.
    env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)
    env.globals["current_language"] = i18n.current
    return env


def _html(template: str, **context) -> str:
    return _environment().get_template(template).render(**context)


def render_html(html: str) -> tuple[bytes, int]:
    """PDF bytes and page count of an HTML page as it is (the sheets' stylesheet only if it links
    it), its resources served by StaticFetcher only: WeasyPrint's own cost (bench/bench_pdf.py's floor)."""
    from weasyprint import HTML

    from .fetcher import StaticFetcher

    document = HTML(string=html, base_url=BASE_URL, url_fetcher=StaticFetcher()).render()
    return document.write_pdf(), len(document.pages)


# One render at a time per process, with the collector held off (companion.base.gcpause: a sheet makes
# some 300,000 short-lived objects, and a tenth of its CPU went to collections that found nothing).
# Renders share one font configuration (`_stylesheet`), which Pango does not promise to be safe
# from two threads; they are CPU work under one interpreter lock anyway, so none is slower for it.
_render_lock = threading.Lock()


@contextmanager
def _rendering() -> Iterator[None]:
    from ..base import gcpause

    with _render_lock, gcpause.paused():
        yield


@lru_cache(maxsize=1)
def _stylesheet():
    """static/css/sheet.css parsed once per process, with the one font configuration every render
    uses: its three @font-face fonts are read and registered once, not at every sheet (parsing the
    stylesheet and loading its fonts was a sixth of a sheet's CPU). Every page of templates/pdf/
    uses it (they link no stylesheet of their own)."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    from .fetcher import StaticFetcher

    fonts = FontConfiguration()
    css = CSS(filename=str(STATIC / "css" / "sheet.css"), url_fetcher=StaticFetcher(), font_config=fonts)
    return css, fonts


atexit.register(_stylesheet.cache_clear)  # its fonts let go of before the interpreter's teardown


def _document(html: str, resources: dict[str, tuple[bytes, str]] | None = None):
    """A page of templates/pdf/ laid out with the sheets' stylesheet (`_stylesheet`); `resources`:
    the exact app-owned URLs (the photo of the final board) the fetcher serves beside static files."""
    from weasyprint import HTML

    from .fetcher import StaticFetcher

    css, fonts = _stylesheet()
    return HTML(string=html, base_url=BASE_URL, url_fetcher=StaticFetcher(resources=resources)).render(
        stylesheets=[css], font_config=fonts)


def _laid_out(work: Callable[[], bytes]) -> bytes:
    """`work()` inside `_rendering`, off the server's event loop (companion.base.offload): a second of
    layout that never yields."""
    with _rendering():
        _stylesheet()  # WeasyPrint's libraries found and loaded here (a subprocess: the loop's thread only)
        return offload.in_thread(work)


def _one_page(template: str, context: dict) -> bytes:
    return _laid_out(lambda: _one_page_document(template, context).write_pdf())


def _one_page_document(template: str, context: dict):
    """Render (inside `_rendering`); when the page overflows (long details, long tie sentences), again
    more compactly: 1 writes the details smaller, 2 leaves them out (except those carrying a tie-break
    number) and draws communities smaller. Nothing is ever cut with "…": names and details wrap."""
    document = None
    for compact in (0, 1, 2):
        document = _document(_html(template, compact=compact, **context))
        if len(document.pages) == 1:
            break
    assert document is not None
    return document


# --------------------------------------------------------------------------- filled sheet


def _sheet_context(doc: dict, result: Result, colours: Sequence[object] | None, day: dt.date,
                   edition: str | None = None, needs: Sequence | None = None) -> dict:
    game = games.GAMES[result.game]
    variant = result.variant
    colours = list(colours or [])
    shared = {name for place in result.ranking if len(place.players) > 1 for name in place.players}
    players = []
    for i, p in enumerate(result.players):
        place = result.place_of(p.name)
        players.append({
            "seat": i + 1,
            "name": p.name,
            "colour": colour(colours[i]) if i < len(colours) else None,
            "total": p.total,
            "total_text": number(p.total),
            "place": place_label(place, p.name in shared),
            "winner": p.name in result.winners,
        })
    rows = []
    for row in games.score_pad(result):
        cells = []
        for line in row.lines:
            # A detail that only repeats the points ("38") says nothing more: left out.
            detail = "" if line.detail.strip() in (str(line.points), number(line.points)) else line.detail
            # Never cut ("…"): a long detail wraps; a compact page writes it smaller (level 1), then
            # leaves it out (level 2) unless it carries a tie-break number.
            cells.append({"points": number(line.points), "details": [detail, detail]})
        rows.append({"label": row.label, "hint": row.hint, "cells": cells,
                     "keep": row.key in games.tiebreak_keys(result.game)})
    ranking = [{"place": place_label(place.place, len(place.players) > 1),
                "names": join_names(place.players),
                "total": number(result.player(place.players[0]).total)}
               for place in result.ranking]

    drawings, legend = boards.drawings_of(doc, result)
    return {
        "mix": _mix(rows, result),
        "game": game.title,
        "variant": game.variant_label(variant),
        "date": i18n.long_date(day),
        "players": players,
        "rows": rows,
        "ranking": ranking,
        "headline": headline_of(result),
        "explanation": list(result.explanation),
        # what each player who did not win would have needed, by the same edition's rules
        # (`needs`: the caller's, searched once per stored version; else searched here)
        "needed": [needed.line(need) for need in (games.needs(doc, result, edition=edition)
                                                  if needs is None else needs)],
        "tiebreaks": list(game.tiebreak_lines(variant, game.edition(edition))),
        # A game with editions says its rule even on a crowded sheet: the table chose it.
        "tiebreaks_keep": bool(game.editions),
        "drawings": drawings,
        "legend": legend,
    }


def _mix(rows: list[dict], result: Result) -> dict:
    """The category-mix chart of the results page (companion.outputs.charts), drawn on the sheet too."""
    from ..outputs import charts

    pad = games.score_pad(result)
    labels = [row.label for row in pad]
    players = [(p.name, [row.lines[i].points for row in pad]) for i, p in enumerate(result.players)]
    return {"bars": charts.category_mix(labels, players, text=printable),
            "legend": [(charts.category_colour(i), label) for i, label in enumerate(labels)]}


def render_sheet(document: dict, *, colours: list[str] | None = None,
                 date: dt.date | None = None, edition: str | None = None) -> bytes:
    """The filled sheet of a scored game, one A4 page; InvalidDocument when it does not score.

    `colours`: one per player in seat order (CSS hex `#c0392b` or a French name such as
    "rouge"); anything else, or a missing one, is simply not drawn. `edition`: the rule set the
    table plays by (`Game.editions`; None: the default), said in the tie box.
    """
    result = games.score(document, edition=edition)
    return sheet_from_result(document, result, colours=colours, date=date, edition=edition)


def sheet_from_result(document: dict, result: Result, *, colours: Sequence[object] | None = None,
                      date: dt.date | None = None, edition: str | None = None,
                      photo: bytes | None = None, needs: Sequence | None = None) -> bytes:
    """Like render_sheet, for a caller that already scored the document (by `edition`). `photo`: the
    game's photo of the final board (a JPEG companion/storage/photos.py made), on a second page. `needs`:
    what each player who did not win would have needed (`games.needs` of the same document and
    edition), when the caller has it: the search was up to a sixth of a fresh sheet's CPU (36 ms of
    a 4-player Revive sheet's 247, issue 33), and the results page has already made it."""
    context = _sheet_context(document, result, colours, date or dt.date.today(), edition, needs)
    if photo is None:
        return _one_page("pdf/sheet.html", context)
    from .fetcher import PHOTO_URL

    def with_photo() -> bytes:
        sheet = _one_page_document("pdf/sheet.html", context)
        page = _document(_html("pdf/photo.html", compact=0, game=context["game"], variant=context["variant"],
                               date=context["date"], photo_url=PHOTO_URL),
                         resources={PHOTO_URL: (photo, "image/jpeg")})
        return sheet.copy([*sheet.pages, *page.pages]).write_pdf()

    return _laid_out(with_photo)


# --------------------------------------------------------------------------- blank pads

_pad_lock = threading.Lock()


def pad_spec(game_id: object, variant: object) -> tuple[games.Game, str]:
    """The game and variant of a blank pad, or UnknownPad with a French message."""
    game = games.GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        expected = join_names(list(games.GAMES), "ou")
        raise UnknownPad("game", _("jeu inconnu : {value} (attendu : {expected})", value=repr(game_id),
                                   expected=expected))
    if not isinstance(variant, str) or variant not in game.variants:
        raise UnknownPad("variant", _("variante inconnue pour {game} : {value} (attendu : {expected})",
                                      game=game.title, value=repr(variant),
                                      expected=join_names(list(game.variants), "ou")))
    return game, variant


def render_pad(game_id: str, variant: str) -> bytes:
    """A blank score pad for one game and variant: one A4 page, four player columns."""
    game, variant = pad_spec(game_id, variant)
    with _pad_lock:
        return _pad(game.id, variant, i18n.current())


@lru_cache(maxsize=32)
def _pad(game_id: str, variant: str, lang: str) -> bytes:
    # Pads only change with the code and the language: each is rendered once per process.
    game = games.GAMES[game_id]
    context = {
        "game": game.title,
        "variant": game.variant_label(variant),
        "rows": [{"label": c.label_for(variant), "hint": c.hint_for(variant)}
                 for c in game.categories_for(variant)],
        "columns": range(PAD_COLUMNS),
        "tiebreaks": list(game.tiebreak_lines(variant)),

    }
    return _one_page("pdf/pad.html", context)


def warm() -> None:
    """Pay WeasyPrint's first-use costs (imports, fonts, Pango, templates: 1 to 1.5 s) now: a server
    calls this when a worker starts, so that no player waits for it."""
    _coverage()
    for game in games.GAMES.values():
        if game.score is None:
            continue
        variant = next(iter(game.variants))
        render_sheet({"game": game.id, "variant": variant, "players": [{"name": "A"}, {"name": "B"}]},
                     colours=["#c0392b", "#2471a3"])


__all__ = ["InvalidDocument", "UnknownPad", "colour", "pad_spec", "render_pad", "render_sheet",
           "sheet_from_result", "warm"]
