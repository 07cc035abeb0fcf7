"""Issue 24: every page of every variant, forms filled, read in English finds no French word and no
French number format (a decimal comma, "21 h 05", "67 %", « »); read in French, no English word and
no English number format (a decimal point, "PM"). What is read: the text shown with every folded help
opened and every step of the edit page shown in turn, plus what screen readers hear (aria-label,
title, placeholder, alt) and the choices of every list. Players' and cards' names are left out."""

from __future__ import annotations

import re

import pytest
from i18n_words import french_words
from played import revive, store_games
from test_play_rebirth import IRELAND

from browser_helpers import each_step
from document_helpers import load_example

pytestmark = pytest.mark.browser

# English words a French page must not show (none of them is also a French word the app uses)
ENGLISH = ("the", "and", "of", "player", "players", "game", "games", "save", "saved", "results", "winner",
           "next", "new", "castle", "castles", "city", "cities", "tile", "tiles", "farm", "farms", "track",
           "edit", "delete", "share", "sheet", "with", "without", "none", "each", "your", "you",
           "statistics", "step", "shared", "victory", "tie", "holder", "holds", "inhabitants",
           "buildings", "card", "cards", "choose", "solo game", "starts", "neither", "nobody", "see")
ENGLISH_WORDS = re.compile(r"(?<![\w'’-])(" + "|".join(sorted(ENGLISH, key=len, reverse=True))
                           + r")(?![\w'’-])", re.IGNORECASE)
FRENCH_FORMATS = {
    "decimal comma": re.compile(r"\d,\d{1,2}(?!\d)"),
    "time with h": re.compile(r"\b\d{1,2} ?h ?\d{2}\b"),
    "space before %": re.compile(r"\d[\s\u00a0\u202f]%"),
    "French quotes": re.compile(r"[«»]"),
    "space before a colon": re.compile(r"\w[ \u00a0\u202f][:;?!](?=\s|$)"),
    "French ordinal": re.compile(r"\b\d+(?:re|er|e|ème)\b"),
}
ENGLISH_FORMATS = {
    "decimal point": re.compile(r"(?<![\d.])\d+\.\d{1,2}(?![\d.])"),
    "AM/PM time": re.compile(r"\b\d{1,2}(?::\d\d)? ?[AP]M\b"),
    "English ordinal": re.compile(r"\b\d+(?:st|nd|rd|th)\b"),
}
NAMES = ("Maëlle", "Yanis", "Inès", "Aoife", "Brian", "Ciara", "Bea", "Terrain de sport")
# Proper nouns the French page keeps in any language (games, variants, castles, places, cards)
PROPER = ("Call of the Abyss", "Rebirth", "Reterra", "Revive", "Life in Reterra", "Abyss", "BG Stats",
          "Stirling", "Blarney", "Tara", "Scyphoz", "Compagnon", "Companion")

TEXT = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const said = [...document.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')]
    .map(e => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder'),
               e.getAttribute('alt')].filter(Boolean).join(' \\n '));
  const options = [...document.querySelectorAll('option')].map(o => o.textContent);
  return [document.title, document.body.innerText, ...said, ...options].join('\\n');
}"""


def documents() -> list[dict]:
    return [load_example("rebirth-scotland.json"), IRELAND, load_example("reterra.json"),
            load_example("revive-abyss.json"),
            revive(("Maëlle", 41), ("Yanis", 38), ("Inès", 41), p0={"progress": 3}),
            revive(("Bea", 52))]


def findings(text: str, language: str) -> list[str]:
    for name in sorted(NAMES + PROPER, key=len, reverse=True):  # as written, or in capitals (CSS)
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    if language == "en":
        found = [f"French word: {w}" for w in french_words(text)]
        formats = FRENCH_FORMATS
    else:
        found = [f"English word: {m.group(1)}" for m in ENGLISH_WORDS.finditer(text)]
        formats = ENGLISH_FORMATS
    for what, pattern in formats.items():
        found += [f"{what}: …{text[max(0, m.start() - 30):m.end() + 5]}…".replace("\n", "⏎")
                  for m in pattern.finditer(text)]
    return sorted(set(found))


def crawl(page, live_server, language: str) -> dict[str, list[str]]:
    device = f"crawl-{language}"
    records = store_games(live_server.app, device, documents())
    page.context.add_cookies([{"name": "companion_device", "value": device, "url": live_server.url}])
    found: dict[str, list[str]] = {}

    def read(path: str, label: str | None = None) -> None:
        page.goto(page.base_url + path)
        page.wait_for_load_state("load")
        assert page.locator("html").get_attribute("lang") == language, path
        where = label or path
        found[where] = findings(page.evaluate(TEXT), language)

    read("/")
    read("/nouvelle")
    for game, variant in [("rebirth", "scotland"), ("rebirth", "ireland"), ("reterra", "base"),
                          ("revive", "base"), ("revive", "abyss")]:
        read(f"/nouvelle?game={game}&variant={variant}")
    for record in records:
        edit = f"/g/{record.edit_token}/"
        read(edit, f"{record.variant} edit")
        for step in each_step(page):
            found[f"{record.variant} {len(record.document['players'])} players, step {step}"] = \
                findings(page.evaluate(TEXT), language)
        if record.game == "rebirth":
            read(edit + "outils/ville")
            read(edit + "outils/chateau")
        read(edit + "resultats", f"{record.variant} {len(record.document['players'])} players, results")
        read(f"/r/{record.view_token}/", f"{record.variant} shared")
        read(f"/r/{record.view_token}/ecran", f"{record.variant} table screen")
        read(f"/parties/{record.view_token}/supprimer", "delete")
    read("/parties")
    read("/statistiques")
    read("/statistiques?joueur=Maëlle")
    read("/parties/importer")
    read("/egalite")
    for args in ("game=rebirth&variant=scotland", "game=rebirth&variant=ireland",
                 "game=reterra&variant=base", "game=reterra&variant=base&edition=en",
                 "game=revive&variant=base", "game=revive&variant=abyss"):
        read(f"/egalite?{args}", f"tie {args}")
        # its answer: two players tied on a total the criteria fit, the engine's sentences said
        page.fill('[name="name-0"]', "Maëlle")
        page.fill('[name="name-1"]', "Yanis")
        page.fill('[name="total"]', "60")
        page.locator("button[data-main]").click()
        page.wait_for_url("**#reponse")
        found[f"tie {args}, answer"] = findings(page.evaluate(TEXT), language)
    read("/g/no-such-game/", "404")
    return {where: problems for where, problems in found.items() if problems}


def report(found: dict[str, list[str]]) -> str:
    """One line per kind of problem, with the pages it was found on (a page address shortened)."""
    pages: dict[str, list[str]] = {}
    for where, problems in found.items():
        for problem in problems:
            page = re.sub(r"/g/[\w-]+/|/r/[\w-]+/|/parties/[\w-]+/", "…/", where)
            pages.setdefault(problem, []).append(page)
    return "\n".join(f"{problem}  [{', '.join(sorted(set(where)))}]"
                     for problem, where in sorted(pages.items()))


def test_every_page_in_english_has_nothing_french(english_phone, live_server):
    found = crawl(english_phone, live_server, "en")
    assert not found, "\n" + report(found)


def test_every_page_in_french_has_nothing_english(phone, live_server):
    found = crawl(phone, live_server, "fr")
    assert not found, "\n" + report(found)
