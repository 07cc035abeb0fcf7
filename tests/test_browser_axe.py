"""Issue 24: axe-core (WCAG 2.2 AA rules) finds nothing on the main pages, in French and in English: the
home page, the new-game pages, the edit page of each variant (a player's step on screen, its scripts
run) and the results of a game of each game (and its table screen).

axe-core comes from the PyPI package axe-playwright-python (dev extras), which bundles axe.min.js: the
test reads it from the installed package, nothing is fetched while testing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from played import store_games
from test_play_rebirth import IRELAND

from conftest import load_example, screenshot
from helpers import show_player

pytestmark = pytest.mark.browser

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
VARIANTS = [("rebirth", "scotland"), ("rebirth", "ireland"), ("reterra", "base"), ("revive", "base"),
            ("revive", "abyss")]
START = {"fr": "Commencer la saisie", "en": "Start entering"}


def axe_script() -> str:
    try:
        import axe_playwright_python
    except ImportError:
        pytest.fail("axe-core is missing: `pip install -e '.[dev]'` installs axe-playwright-python")
    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def violations(page) -> list[str]:
    """axe-core's WCAG 2.2 A/AA violations of the page as shown: 'rule (impact): where'. Read with the
    whole page on one 390 px wide screen: on an 844 px one, whatever scrolled under the sticky bar
    counts as a target too small to tap, and which one that is depends on the scroll."""
    page.wait_for_load_state("load")
    page.set_viewport_size({"width": 390, "height": max(844, page.evaluate("document.body.scrollHeight"))})
    page.evaluate(axe_script())
    found = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
                          "resultTypes: ['violations']}).then(r => r.violations.map(v => "
                          "[v.id, v.impact, v.nodes.slice(0, 3).map(n => n.target.join(' '))]))", TAGS)
    page.set_viewport_size({"width": 390, "height": 844})
    return [f"{rule} ({impact}): {', '.join(nodes)}" for rule, impact, nodes in found]


@pytest.fixture(params=["fr", "en"])
def language_phone(request):
    return request.param, request.getfixturevalue("phone" if request.param == "fr" else "english_phone")


def test_home_and_new_game_pages_pass_axe(language_phone):
    language, page = language_phone
    found = {}
    for path in ["/", "/nouvelle", "/nouvelle?game=rebirth&variant=ireland",
                 "/nouvelle?game=revive&variant=base", "/parties", "/statistiques",
                 "/egalite", "/egalite?game=rebirth&variant=scotland", "/egalite?game=revive&variant=abyss"]:
        page.goto(page.base_url + path)
        found[path] = violations(page)
    assert found == {path: [] for path in found}, (language, found)


def test_every_variants_edit_page_passes_axe(language_phone):
    language, page = language_phone
    found = {}
    for game, variant in VARIANTS:
        page.goto(f"{page.base_url}/nouvelle?game={game}&variant={variant}")
        page.fill("#players-0-name", "Maëlle")
        page.fill("#players-1-name", "Yanis")
        page.get_by_role("button", name=START[language]).click()
        page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
        found[f"{variant} table"] = violations(page)
        show_player(page, 0)  # a player's step, its chip marked as the current step
        found[f"{variant} player"] = violations(page)
    assert found == {k: [] for k in found}, (language, found)


def test_results_pages_pass_axe(language_phone, live_server):
    language, page = language_phone
    device = f"axe-{language}"
    documents = [load_example("rebirth-scotland.json"), IRELAND, load_example("reterra.json"),
                 load_example("revive-abyss.json")]
    records = store_games(live_server.app, device, documents)
    page.context.add_cookies([{"name": "companion_device", "value": device, "url": live_server.url}])
    found = {}
    for record in records:
        page.goto(f"{page.base_url}/g/{record.edit_token}/resultats")
        found[f"{record.variant} results"] = violations(page)
        page.goto(f"{page.base_url}/r/{record.view_token}/")
        found[f"{record.variant} shared"] = violations(page)
        page.goto(f"{page.base_url}/r/{record.view_token}/ecran")
        found[f"{record.variant} table screen"] = violations(page)
    page.goto(page.base_url + "/parties")
    found["history"] = violations(page)
    page.goto(page.base_url + "/statistiques")
    found["statistics"] = violations(page)
    assert found == {k: [] for k in found}, (language, found)


LONGEST = {"fr": ["Maëlle-Capucine de la Tour-Dauvergne", "Yanis-Alexandre Montgolfier-Sainte"],
           "en": ["Christopher-Alexander Worthington", "Maximiliana Featherstonehaugh-Smythe"]}


def test_long_names_and_the_city_pad_pass_axe(language_phone):
    """Names as long as the new-game form takes them, on every variant's player step, and Rebirth's
    city pad open (a button per player and influence)."""
    language, page = language_phone
    limit = int(page.goto(f"{page.base_url}/nouvelle?game=rebirth&variant=ireland") and
                page.locator("#players-0-name").get_attribute("maxlength"))
    names = [(n * 2)[:limit].strip() for n in LONGEST[language]]
    found = {}
    for game, variant in VARIANTS:
        page.goto(f"{page.base_url}/nouvelle?game={game}&variant={variant}")
        for i, name in enumerate(names):
            page.fill(f"#players-{i}-name", name)
        page.get_by_role("button", name=START[language]).click()
        page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
        if game == "rebirth":
            page.locator(".pad-size").first.click()  # a new city: its pad of players and influences
            page.locator("[data-tile-pad]:not([hidden])").first.wait_for()
            found[f"{variant} city pad"] = violations(page)
            pad = page.locator("[data-tile-pad]:not([hidden])").first
            # every name whole on the pad: never cut ("Capuci…"), and nothing wider than the phone
            assert pad.locator(".pad-name > span").all_inner_texts() == names
            assert pad.evaluate("p => [...p.querySelectorAll('.pad-name > span')].every(s => "
                                "s.scrollWidth <= s.clientWidth && s.getBoundingClientRect().right <= 390)")
            screenshot(page, f"axe-{language}-{variant}-city-pad")
        show_player(page, 1)
        found[f"{variant} player"] = violations(page)
    assert found == {k: [] for k in found}, (language, found)
