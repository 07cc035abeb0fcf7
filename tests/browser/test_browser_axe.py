"""Issue 24: axe-core (WCAG 2.2 AA rules) finds nothing on the main pages, in French and in English: the
home page, the new-game pages, the edit page of each variant (a player's step on screen, its scripts
run) and the results of a game of each game (and its table screen).

Issue 32: no violation of any impact on every page, with names as long as the new-game form takes:
each variant's results, shared results and table screen (scored, and during the game), a photo on
them and a refused one, the players' page (and refused), removing a game, Rebirth's tools (blank,
refused, answered), Reterra's drawn board, "Mes parties", the statistics, the restore (blank, refused,
in progress), a missing page, a refused new game, "(incomplet)" opened, "Voir les résultats" refused,
and the tie page (every variant, refused, each game's answer). One browser, pages in sequence.

axe-core comes from the PyPI package axe-playwright-python (dev extras), which bundles axe.min.js: the
test reads it from the installed package, nothing is fetched while testing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from played import store_games
from playwright.sync_api import expect
from test_play_rebirth import IRELAND

from browser_helpers import check_layout, choose, screenshot, show_player
from document_helpers import load_example

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
                 "/egalite", "/egalite?game=rebirth&variant=scotland", "/egalite?game=revive&variant=abyss",
                 "/nouvelle?game=rebirth&variant=scotland", "/nouvelle?game=reterra&variant=base",
                 "/nouvelle?game=revive&variant=abyss", "/egalite?game=rebirth&variant=ireland",
                 "/egalite?game=reterra&variant=base", "/egalite?game=reterra&variant=base&edition=en",
                 "/egalite?game=revive&variant=base"]:
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
    device = f"axe-results-device-{language}"  # a device id as the app issues them (20+ characters)
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
        if game != "rebirth":  # the table's step, the names in the list of steps
            found[f"{variant} table"] = violations(page)
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


# ------------------------------------------------------------------ every other page (issue 32)

MORE = {"fr": ["Marie-Bérénice de la Tour d'Auvergne", "Jean-Christophe Dupont-Aignan"],
        "en": ["Bartholomew Fitzgerald-Montgomery", "Evangeline Wolfeschlegelsteinhausen"]}


TONES = {"fr": ("Couleur vive, contour : segment compté (7 cases ou plus d'un même terrain, 3 points)",
                "Couleur pâle : case d'aucun segment compté ; elle ne rapporte pas de points de segment"),
         "en": ("Bright colour, outlined: a scoring segment (7 or more squares of one terrain, 3 points)",
                "Pale colour: a square in no scoring segment; it earns no segment points")}


def longest_names(page, language: str) -> list[str]:
    """Four names as long as the new-game form takes them (its `maxlength`), all different."""
    page.goto(f"{page.base_url}/nouvelle?game=revive&variant=base")
    limit = int(page.locator("#players-0-name").get_attribute("maxlength"))
    return [(n * 2)[:limit].strip() for n in LONGEST[language] + MORE[language]]


def renamed(doc: dict, names: list[str]) -> dict:
    """`doc` with its players called `names` (in seat order), wherever the document names them."""
    from companion import games

    mapping = {p["name"]: names[i] for i, p in enumerate(doc["players"])}
    return games.HOOKS[doc["game"]].renamed(doc, mapping)


def revive_base(names: list[str]) -> dict:
    """A Revive (base) game ending in a tie settled by leftover resources: a tie sentence to read."""
    return {"game": "revive", "variant": "base", "players": [
        {"name": names[0], "track": 30, "resources": {"gears": 4}},
        {"name": names[1], "track": 30, "resources": {"books": 2}},
        {"name": names[2], "track": 12}, {"name": names[3], "track": 9}]}


def png() -> bytes:
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (64, 48), (40, 120, 60)).save(out, "PNG")
    return out.getvalue()


def test_every_page_after_the_game_passes_axe(language_phone, live_server):
    """With the longest names: each variant's results, shared results and table screen, a photo on
    them, the players' page, removing a game, Rebirth's city and castle tools (blank, refused,
    answered), Reterra's drawn board on its edit page, "Mes parties", the statistics, the restore
    (blank, refused, in progress) and a page that does not exist."""
    from companion.outputs import restore_jobs

    language, page = language_phone
    names = longest_names(page, language)
    device = f"axe-every-page-device-{language}"  # a device id as the app issues them (20+ characters)
    documents = [renamed(load_example("rebirth-scotland.json"), names), renamed(IRELAND, names),
                 renamed(load_example("reterra.json"), names), revive_base(names),
                 renamed(load_example("revive-abyss.json"), names)]
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
        page.goto(f"{page.base_url}/g/{record.edit_token}/joueurs")
        found[f"{record.variant} players"] = violations(page)
    scotland, ireland, reterra, revive, abyss = records
    # the photo of the final board, on the results and the shared page
    page.goto(f"{page.base_url}/g/{revive.edit_token}/resultats")
    board = {"name": "board.png", "mimeType": "image/png", "buffer": png()}
    page.set_input_files("#photo-file", files=[board])
    page.locator("#photo form button[type=submit]").first.click()
    page.locator("img.board-photo-img").wait_for(state="attached")
    found["results with a photo"] = violations(page)
    page.goto(f"{page.base_url}/r/{revive.view_token}/")
    page.locator("img.board-photo-img").wait_for(state="attached")
    found["shared with a photo"] = violations(page)
    page.goto(f"{page.base_url}/g/{revive.edit_token}/resultats")
    page.set_input_files("#photo-file", files=[{"name": "board.png", "mimeType": "image/png",
                                                "buffer": b"not a picture at all"}])
    page.locator("#photo form button[type=submit]").first.click()
    page.locator("#e-photo:not(:empty)").wait_for()
    found["photo refused"] = violations(page)
    # Reterra's board drawn on the edit page (its second player paints his community)
    page.goto(f"{page.base_url}/g/{reterra.edit_token}/")
    show_player(page, 1)
    page.locator("#joueur-2 .board").wait_for()
    # what the two tones mean, right under the board that shows them (issue 32)
    legend = page.locator("#joueur-2 .board-legend")
    expect(legend).to_be_visible()
    expect(legend.locator("li")).to_have_text([TONES[language][0], TONES[language][1]])
    assert page.locator("#joueur-2 .board").bounding_box()["y"] < legend.bounding_box()["y"]
    assert legend.evaluate("l => l.previousElementSibling.classList.contains('board')")
    found["reterra drawn board"] = violations(page)
    page.goto(f"{page.base_url}/r/{reterra.view_token}/")
    expect(page.locator(".communities-section .tone-legend li")).to_have_text(list(TONES[language]))
    # Rebirth's tools: blank, refused (nothing chosen), answered
    for tool in ("ville", "chateau"):
        page.goto(f"{page.base_url}/g/{ireland.edit_token}/outils/{tool}")
        found[f"{tool} tool"] = violations(page)
        page.locator("#tool-form button[type=submit]").click()
        page.locator("#tool-form .field-error:not(:empty)").first.wait_for()
        found[f"{tool} tool refused"] = violations(page)
    page.goto(f"{page.base_url}/g/{ireland.edit_token}/outils/chateau")
    choose(page, "active", names[0])
    page.fill('[name="adjacent-0-tiles"]', "2")
    page.locator("#tool-form button[type=submit]").click()
    page.locator("#answer").wait_for()
    found["chateau tool answered"] = violations(page)
    # the players' page refusing a blank name
    page.goto(f"{page.base_url}/g/{abyss.edit_token}/joueurs")
    page.fill("#players-0-name", "")
    page.locator(".players-form button[data-main]").click()
    page.locator(".players-form .field-error:not(:empty)").first.wait_for()
    found["players refused"] = violations(page)
    page.goto(f"{page.base_url}/parties/{abyss.view_token}/supprimer")
    found["remove a game"] = violations(page)
    page.goto(page.base_url + "/parties")
    found["history"] = violations(page)
    page.goto(page.base_url + "/statistiques")
    found["statistics"] = violations(page)
    page.goto(page.base_url + "/parties/importer")
    found["restore"] = violations(page)
    page.set_input_files("#file", files=[{"name": "export.json", "mimeType": "application/json",
                                          "buffer": b'{"format": "nothing we know"}'}])
    page.locator(".import-form button[type=submit]").click()
    page.locator(".import-errors").wait_for()
    found["restore refused"] = violations(page)
    # a restore still at work: its page, as a phone sees it while the server checks the file
    job = "0" * 31 + ("1" if language == "fr" else "2")
    restore_jobs.folder(live_server.app).mkdir(parents=True, exist_ok=True)
    restore_jobs._write(job, {"device": device, "state": "checking", "checked": 3, "total": 12,
                              "language": language}, live_server.app)
    waited = live_server.app.config["RESTORE_WAIT_SECONDS"]
    live_server.app.config["RESTORE_WAIT_SECONDS"] = 0
    try:
        page.goto(f"{page.base_url}/parties/importer/{job}")
        page.locator(".import-progress progress").wait_for()
        found["restore in progress"] = violations(page)
    finally:
        live_server.app.config["RESTORE_WAIT_SECONDS"] = waited
    page.goto(page.base_url + "/g/nothing-here-at-all/")
    found["not found"] = violations(page)
    assert found == {k: [] for k in found}, (language, found)


SAVED_DRAFT = {"fr": "Enregistré \u2713 (incomplet)", "en": "Saved \u2713 (incomplete)"}
DRAFT_NOTE = {"fr": "une règle du jeu attend encore une valeur",
              "en": "a rule of the game still waits for a value"}


def test_a_waiting_game_and_the_tie_answers_pass_axe(language_phone):
    """With the longest names: "(incomplet)" opened on a tap (issue 32), "Voir les résultats" refused
    (the summary of what to fix), a refused tie page and each game's tie answer."""
    language, page = language_phone
    names = longest_names(page, language)
    found = {}
    page.goto(f"{page.base_url}/nouvelle?game=rebirth&variant=scotland")
    page.get_by_role("button", name=START[language]).click()  # nobody named: refused
    page.locator("main .flash").first.wait_for()
    found["new game refused"] = violations(page)
    page.goto(f"{page.base_url}/nouvelle?game=rebirth&variant=scotland")
    for i, name in enumerate(names[:2]):
        page.fill(f"#players-{i}-name", name)
    page.get_by_role("button", name=START[language]).click()
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    choose(page, "edinburgh", names[1])  # Édimbourg's holder before his castles: saved, incomplete
    why = page.locator("#save-state button.state-why")
    expect(why).to_have_text(SAVED_DRAFT[language])
    expect(page.locator("#draft-note")).to_have_count(0)
    why.tap()
    note = page.locator("#draft-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text(DRAFT_NOTE[language])
    expect(why).to_have_attribute("aria-expanded", "true")
    # the note stands above the bar, within the phone's width, the bar's buttons still free
    box, bar = note.bounding_box(), page.locator("#actions").bounding_box()
    assert box["y"] + box["height"] <= bar["y"] and box["x"] >= 0 and box["x"] + box["width"] <= 390
    check_layout(page)
    screenshot(page, f"axe-{language}-draft-note")
    found["draft note"] = violations(page)
    note.get_by_role("button").tap()
    expect(note).to_be_hidden()
    expect(why).to_have_attribute("aria-expanded", "false")
    expect(why).to_be_focused()
    page.locator('#actions button[value="finish"]').click()
    page.wait_for_url(re.compile(r"attente=1#error-summary$"))
    expect(page.locator("#error-summary")).to_be_visible()
    # each field's link (a long name in it) is one box whose lines follow at the text's own spacing,
    # and its message starts on the line right below it: no line stretched to the tap target's height
    layout = page.locator("#error-summary li").evaluate_all("""items => items.map(li => {
      const a = li.querySelector('a'), box = a.getBoundingClientRect();
      const line = parseFloat(getComputedStyle(a).lineHeight), lines = Math.round(box.height / line);
      const text = document.createRange();
      text.setStart(a.nextSibling, 1);
      text.setEnd(a.nextSibling, 2);
      return {boxes: a.getClientRects().length, lines: lines,
              tall: box.height > Math.max(44, lines * line) + 1,
              gap: Math.round(text.getBoundingClientRect().top - box.bottom), inside: box.right <= 390};
    })""")
    assert len(layout) == 2 and any(item["lines"] >= 2 for item in layout), layout
    assert all(item["boxes"] == 1 and not item["tall"] and 0 <= item["gap"] <= 4 and item["inside"]
               for item in layout), layout
    check_layout(page)
    screenshot(page, f"axe-{language}-results-refused")
    found["results refused"] = violations(page)
    # the game still being entered, as the table's screen and the shared link show it
    screen = page.locator('a[href$="/ecran"]').first.get_attribute("href")
    page.goto(page.base_url + screen)
    expect(page.locator("body")).to_contain_text(names[0])
    found["table screen during the game"] = violations(page)
    page.goto(page.base_url + screen.removesuffix("ecran"))
    found["shared during the game"] = violations(page)
    # the tie page: refused (nothing typed), then each game's answer
    page.goto(f"{page.base_url}/egalite?game=rebirth&variant=scotland")
    page.locator("#tie button[data-main]").click()
    page.locator("#tie .field-error:not(:empty)").first.wait_for()
    found["tie refused"] = violations(page)
    for game, variant, numbers, chips in [("rebirth", "scotland", {}, {"stirling": names[2]}),
                                          ("reterra", "base", {"inhabitants": [3, 5]}, {}),
                                          ("revive", "abyss",
                                           {"leftover": [4, 1], "machine_progress": [0, 30]}, {})]:
        page.goto(f"{page.base_url}/egalite?game={game}&variant={variant}")
        page.fill('[name="name-0"]', names[0])
        page.fill('[name="name-1"]', names[1])
        if chips:
            page.fill('[name="other-0"]', names[2])
        page.fill('[name="total"]', "60")
        for key, values in numbers.items():
            for i, value in enumerate(values):
                page.fill(f'[name="{key}-{i}"]', str(value))
        for key, name in chips.items():
            page.locator(f"#f-{key} label.chip", has_text=name).tap()
        # "Départager" stands clear of the last field's chips, long names wrapped in them
        gap = page.evaluate("() => { const b = document.querySelector('#tie button[data-main]'); "
                            "return b.getBoundingClientRect().top - "
                            "b.previousElementSibling.getBoundingClientRect().bottom; }")
        assert gap >= 12, f"{variant}: the button is {gap} px from the field above"
        page.locator("#tie button[data-main]").tap()
        page.wait_for_url("**#reponse")
        expect(page.locator("#winner")).to_be_visible()
        # each tie: its short answer, the reasoning folded below it (one tap opens it)
        ties = page.locator(".tie-answer .ties > *")
        kinds = ties.evaluate_all("els => els.map(e => e.className + (e.open ? ' open' : ''))")
        assert kinds and kinds == ["tie-short", "tie-detail"] * (len(kinds) // 2), kinds
        found[f"{variant} tie answer"] = violations(page)
    assert found == {k: [] for k in found}, (language, found)
