"""The entry flow on a phone (headless Chromium, 390×844): one step at a time, the sticky bar and
"Joueur suivant", the steps without JavaScript, warnings, Revive's colour names, Reterra's cards used
before and "Rejouer", the error summary reaching a field in another step, long names never cut."""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from playwright.sync_api import expect

from browser_helpers import check_layout, new_game, saved, screenshot, settled, stored_document

pytestmark = pytest.mark.browser


def on_step(page, stage: str) -> None:
    """The step on screen is `stage`, alone: waited for (a tap's step change is the page's work,
    which a busy machine may do late), not read at once."""
    expect(page.locator("[data-stage]:not([hidden])")).to_have_count(1)
    expect(page.locator("[data-stage]:not([hidden])")).to_have_id(stage)


def test_a_game_played_player_by_player(phone, live_server):
    url = new_game(phone, "revive", "base", ["Inès", "Léo", "Zoé"])
    # The table's step first (the shared artifact card), alone on screen.
    on_step(phone, "table")
    expect(phone.locator("#joueur-1")).to_be_hidden()
    expect(phone.locator("[data-turn-name]")).to_have_text("Toute la table")
    phone.fill('[name="card-0-points"]', "2")
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    on_step(phone, "joueur-1")
    expect(phone.locator("[data-turn-name]")).to_have_text("Inès")
    # "Joueur suivant" put the cursor in the player's first field: typing goes there.
    assert phone.evaluate("document.activeElement.name") == "players-0-track"
    phone.keyboard.type("41")
    phone.keyboard.press("Enter")  # the keyboard's "suivant": the next field of this step
    assert phone.evaluate("document.activeElement.name") == "players-0-progress"
    phone.keyboard.type("5")
    saved(phone)
    # The sticky bar shows this player's running total, from the autosave.
    expect(phone.locator("[data-turn-total]")).to_have_text("46")
    check_layout(phone)
    screenshot(phone, "flow-player-step")
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    on_step(phone, "joueur-2")
    expect(phone.locator("[data-turn-name]")).to_have_text("Léo")
    expect(phone.locator("[data-turn-total]")).to_have_text("0")
    phone.keyboard.type("52")
    phone.locator('#f-players-1-four_token label').tap()
    saved(phone)
    expect(phone.locator("[data-turn-total]")).to_have_text("56")
    # Back one step through the step's own link, then to Zoé through the list of steps.
    phone.locator("#joueur-2 .step-nav a", has_text="Inès").tap()
    on_step(phone, "joueur-1")
    expect(phone.locator("[data-turn-total]")).to_have_text("46")
    phone.locator(".steps-list a", has_text="Zoé").tap()
    on_step(phone, "joueur-3")
    expect(phone.get_by_role("button", name=re.compile("^Joueur suivant"))).to_be_hidden()  # the last step
    phone.locator('[name="players-2-track"]').tap()
    phone.keyboard.type("60")
    saved(phone)
    # The list of steps carries every total.
    assert phone.locator(".steps-list .seat-total").all_inner_texts() == ["46", "56", "60"]
    doc = stored_document(live_server, url)
    assert [p.get("track") for p in doc["players"]] == [41, 52, 60]
    phone.get_by_role("button", name="Voir les résultats").tap()
    phone.wait_for_url(re.compile(r"/resultats$"))
    assert phone.locator("tr.totals td").all_inner_texts() == ["46", "56", "60"]


def test_without_javascript_every_step_is_shown_in_order(phone, phone_without_js):
    url = new_game(phone, "rebirth", "scotland", ["Maëlle", "Yanis"])
    page = phone_without_js
    page.goto(url)
    ids = page.locator("[data-stage]").evaluate_all("els => els.map(e => e.id)")
    assert ids == ["table", "joueur-1", "joueur-2"]
    for stage in ids:
        expect(page.locator(f"#{stage}")).to_be_visible()
    tops = page.locator("[data-stage]").evaluate_all("els => els.map(e => e.getBoundingClientRect().top)")
    assert tops == sorted(tops)  # one column, in order
    expect(page.locator("[data-turn]")).to_be_hidden()  # the bar's "Joueur suivant" needs JS
    # The steps' links still lead somewhere: anchors in the page.
    assert page.locator(".steps-list a").first.get_attribute("href") == "#table"
    # One post carries every step's fields.
    page.fill('[name="players-1-track"]', "40")
    page.fill('[name="players-0-castles"]', "1")
    page.locator('label:has(> input[name="edinburgh"][value="Maëlle"])').click()
    page.get_by_role("button", name="Voir les résultats").click()
    page.wait_for_url(re.compile(r"/resultats$"))
    assert page.locator("tr.totals td").all_inner_texts() == ["5", "40"]
    check_layout(page)


def test_warnings_beside_the_field_and_on_the_results(phone):
    new_game(phone, "rebirth", "scotland", ["Maëlle", "Yanis"])
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    phone.keyboard.type("30")  # Maëlle's track
    phone.locator('[name="players-0-ports"]').tap()
    phone.keyboard.type("4")
    settled(phone)  # the warnings come with the save's answer: wait for it, however long it takes
    warning = phone.locator("#w-players-0-track")
    expect(warning).to_contain_text("piste de score (30) et points détaillés (ports 4) sont additionnés, "
                                     "soit 34")
    # Yanis has nothing yet: said beside his name, never blocking.
    expect(phone.locator("#w-players-1")).to_have_text("Yanis : rien n'est saisi (total 0). Un oubli ?")
    check_layout(phone)
    screenshot(phone, "flow-warnings")
    phone.get_by_role("button", name="Voir les résultats").tap()
    phone.wait_for_url(re.compile(r"/resultats$"))
    box = phone.locator(".warnings")
    expect(box).to_contain_text("soit 34")
    expect(box).to_contain_text("Yanis : rien n'est saisi")


def test_revive_colour_names_on_every_line(phone):
    phone.goto(f"{phone.base_url}/nouvelle?game=revive&variant=base")
    for i, name in enumerate(["Inès", "Léo"]):
        phone.fill(f"#players-{i}-name", name)
    for i, colour in enumerate(["jaune", "bleu", "rose"]):
        phone.fill(f'[name="colour_names-{i}"]', colour)
    check_layout(phone)
    phone.get_by_role("button", name="Commencer la saisie").click()
    phone.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    assert phone.locator("#f-card .items legend").all_inner_texts() == ["jaune", "bleu", "rose"]
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    for key in ("card_bonus", "artifact_card"):
        assert phone.locator(f"#f-players-0-{key} .items > fieldset > legend").all_inner_texts() == [
            "jaune", "bleu", "rose"], key
    assert phone.locator("#f-players-0-artifacts .items label").all_inner_texts() == ["jaune", "bleu", "rose"]
    phone.locator('#f-players-0-card_bonus-1 label:has(> input[type=checkbox])').tap()
    phone.fill('[name="players-0-card_bonus-1-cards"]', "2")
    saved(phone)
    phone.get_by_role("button", name="Voir les résultats").tap()
    phone.wait_for_url(re.compile(r"/resultats$"))
    phone.locator("tr[data-key=card_bonus] summary").tap()
    detail = phone.locator("tr[data-key=card_bonus] + tr.detail-row")
    expect(detail).to_contain_text("(bleu)")
    assert "couleur 2" not in detail.inner_text()


def test_reterra_cards_used_before_and_play_again(phone, live_server):
    new_game(phone, "reterra", "base", ["Maëlle", "Yanis", "Inès"])
    phone.fill('[name="buildings-0-name"]', "Terrain de sport")
    phone.fill('[name="buildings-0-points"]', "3")
    saved(phone)
    phone.goto(f"{phone.base_url}/nouvelle?game=reterra&variant=base")
    url = new_game(phone, "reterra", "base", ["Léa", "Noé"])
    picker = phone.locator("[data-card-picker]")
    expect(picker).to_be_visible()
    phone.get_by_role("button", name="Terrain de sport · 3").tap()  # one tap: name and points
    assert phone.locator('[name="buildings-0-name"]').input_value() == "Terrain de sport"
    assert phone.locator('[name="buildings-0-points"]').input_value() == "3"
    expect(phone.get_by_role("button", name="Terrain de sport · 3")).to_be_hidden()  # in play now
    phone.get_by_role("button", name="Ajouter une carte").tap()
    phone.locator('[name="buildings-1-name"]').fill("Observatoire")  # a new card, typed as before
    phone.locator('[name="buildings-1-points"]').fill("2")
    saved(phone)
    check_layout(phone)
    doc = stored_document(live_server, url)
    assert [c["name"] for c in doc["buildings"]] == ["Terrain de sport", "Observatoire"]
    # Each player's building steppers follow the cards.
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    expect(phone.locator("#joueur-1 .built-card:not([hidden]) label")).to_have_text(
        ["Terrain de sport", "Observatoire"])
    phone.locator('[name="players-0-segments"]').fill("2")
    saved(phone)
    phone.get_by_role("button", name="Voir les résultats").tap()
    phone.wait_for_url(re.compile(r"/resultats$"))
    phone.get_by_role("button", name="Rejouer avec les mêmes joueurs").tap()
    phone.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    again = stored_document(live_server, phone.url)
    assert [p["name"] for p in again["players"]] == ["Noé", "Léa"]  # the next player starts
    assert [c["name"] for c in again["buildings"]] == ["Terrain de sport", "Observatoire"]
    assert phone.locator(".steps-list a").all_inner_texts()[1].startswith("Noé")


def test_the_error_summary_leads_to_a_field_in_another_step(phone):
    new_game(phone, "revive", "base", ["Alice", "Bob"])
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    phone.locator('[name="players-1-resources-gears"]').fill("9")  # at most 6
    expect(phone.locator("#e-players-1-resources-gears")).not_to_be_empty()
    phone.locator(".steps-list a", has_text="Table").tap()
    on_step(phone, "table")
    # the step holding the problem is marked in the list of steps
    expect(phone.locator(".steps-list a.has-error")).to_contain_text("Bob")
    phone.get_by_role("button", name="Voir les résultats").tap()
    summary = phone.locator("#error-summary")
    expect(summary).to_be_visible()
    link = summary.locator('a[href="#f-players-1-resources-gears"]')
    link.tap()
    on_step(phone, "joueur-2")
    expect(phone.locator('[name="players-1-resources-gears"]')).to_be_in_viewport()


LONG = ["Marie-Bérénice de la Tour d'Auvergne", "Jean-Christophe Dupont-Aignan", "Zoé"]


def test_long_names_are_never_cut(phone, live_server):
    url = new_game(phone, "revive", "base", LONG)
    for i, points in enumerate((30, 30, 12)):
        phone.locator(".steps-list a").nth(i + 1).tap()
        phone.locator(f'[name="players-{i}-track"]').fill(str(points))
    phone.locator(".steps-list a").nth(1).tap()
    phone.locator('[name="players-0-resources-gears"]').fill("4")  # settles the tie: a detail's number
    saved(phone)
    phone.get_by_role("button", name="Voir les résultats").tap()
    phone.wait_for_url(re.compile(r"/resultats$"))
    check_layout(phone)
    cut = phone.evaluate("""() => [...document.querySelectorAll('.pname, .name, .seat span, .winner')]
      .filter(e => e.scrollWidth > e.clientWidth + 1 || getComputedStyle(e).textOverflow === 'ellipsis')
      .map(e => e.textContent)""")
    assert cut == []
    heads = phone.locator(".pad thead .pname").all_inner_texts()
    assert [h.replace("\n", "").replace("\u00ad", "") for h in heads] == LONG
    screenshot(phone, "flow-long-names-results")
    # The sheet: every name whole, and the tie-break number of the resources line.
    from pypdf import PdfReader

    pdf = phone.request.get(url + "sheet.pdf").body()
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(BytesIO(pdf)).pages))
    for name in LONG:
        assert all(part in text for part in name.split()), name
    assert "…" not in text


def draft(page) -> None:
    expect(page.locator("#save-state")).to_have_text("Enregistré \u2713 (incomplet)")


def test_a_total_the_rules_cannot_compute_yet_is_never_shown_as_a_number(phone):
    """Choosing Édimbourg's holder before his castles (the table's step comes first) keeps a draft the
    engine cannot score: the running totals must not stay at an old value nor fall to 0."""
    url = new_game(phone, "rebirth", "scotland", ["Maëlle", "Yanis"])
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    phone.keyboard.type("48")
    saved(phone)
    expect(phone.locator("[data-turn-total]")).to_have_text("48")
    phone.locator(".steps-list a", has_text="Table").tap()
    phone.locator('label:has(> input[name="edinburgh"][value="Yanis"])').tap()
    draft(phone)
    phone.locator(".steps-list a", has_text="Maëlle").tap()
    phone.fill('[name="players-0-track"]', "50")
    draft(phone)
    # Maëlle's total is no longer 48, and nobody's is 0: the totals wait for the rule.
    expect(phone.locator("[data-turn-total]")).to_have_text("–")
    assert phone.locator(".steps-list .seat-total").all_inner_texts() == ["–", "–"]
    phone.goto(url)
    assert phone.locator(".steps-list .seat-total").all_inner_texts() == ["–", "–"]
    # Yanis's castle: the game scores again and every total is a number.
    phone.locator(".steps-list a", has_text="Yanis").tap()
    phone.locator('#f-players-1-castles button[data-step="1"]').tap()
    saved(phone)
    assert phone.locator(".steps-list .seat-total").all_inner_texts() == ["50", "5"]


def test_four_ordinary_names_head_the_score_table_whole(phone):
    """Long names wrap (above), but four first names of six or seven letters fit their column at 390 px:
    "Maëll/e" broken mid-word is not a name a table reads."""
    names = ["Maëlle", "Camille", "Mathéo", "Jeanne"]
    new_game(phone, "rebirth", "scotland", names)
    for i in range(4):
        phone.locator(".steps-list a").nth(i + 1).tap()
        phone.locator(f'[name="players-{i}-track"]').fill(str(40 + i))
    saved(phone)
    phone.get_by_role("button", name="Voir les résultats").tap()
    phone.wait_for_url(re.compile(r"/resultats$"))
    check_layout(phone)
    lines = phone.evaluate("""() => [...document.querySelectorAll('.pad thead .pname')].map(e =>
      [e.textContent,
       Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))])""")
    assert lines == [[name, 1] for name in names]


def test_enter_never_puts_the_cursor_under_the_sticky_bar(phone):
    """The keyboard's "suivant" through a long step: each field it reaches is on screen, above the
    sticky bar (player, total, buttons) and below the top bar, where the player sees what they type."""
    new_game(phone, "revive", "abyss", ["Maëlle", "Yanis"])
    phone.get_by_role("button", name=re.compile("^Joueur suivant")).tap()
    hidden = []
    for _ in range(25):
        where = phone.evaluate("""() => {
          const r = document.activeElement.getBoundingClientRect();
          const bar = document.querySelector('#actions').getBoundingClientRect();
          const top = document.querySelector('.topbar').getBoundingClientRect();
          return [document.activeElement.name, r.top >= top.bottom && r.bottom <= bar.top]; }""")
        if not where[1]:
            hidden.append(where[0])
        phone.keyboard.type("1")
        phone.keyboard.press("Enter")
    assert hidden == []


def test_a_refresh_or_a_reopened_game_comes_back_to_the_step(phone, live_server):
    url = new_game(phone, "revive", "base", ["Inès", "Léo", "Zoé"])
    on_step(phone, "table")
    phone.locator(".steps-list a", has_text="Léo").tap()
    on_step(phone, "joueur-2")
    phone.locator('[name="players-1-track"]').tap()
    phone.keyboard.type("30")
    saved(phone)
    phone.reload()
    expect(phone.locator("#joueur-2")).to_be_visible()
    on_step(phone, "joueur-2")
    expect(phone.locator('[name="players-1-track"]')).to_have_value("30")
    # reopened from "Mes parties", later
    phone.goto(live_server.url + "/parties")
    phone.locator(f'a[href="{url.removeprefix(live_server.url)}"]').first.tap()
    phone.wait_for_url(url)
    expect(phone.locator("#joueur-2")).to_be_visible()
    on_step(phone, "joueur-2")
    # a link to a step still wins, and the phone then keeps where it goes
    phone.goto(url + "#joueur-3")
    expect(phone.locator("#joueur-3")).to_be_visible()
    phone.locator(".steps-list a", has_text="Inès").tap()
    phone.reload()
    expect(phone.locator("#joueur-1")).to_be_visible()
    on_step(phone, "joueur-1")


def test_a_tie_carried_into_its_game_opens_on_the_first_player(phone, live_server):
    phone.goto(live_server.url + "/egalite?game=rebirth&variant=scotland")
    phone.fill('[name="name-0"]', "Ana")
    phone.fill('[name="name-1"]', "Bob")
    phone.fill('[name="total"]', "60")
    phone.locator('#f-edinburgh label.chip', has_text="Bob").tap()
    phone.get_by_role("button", name="Départager", exact=True).tap()
    expect(phone.locator("#winner")).to_have_text("Bob gagne")
    phone.fill('[name="player-0"]', "Cy")
    phone.select_option('[name="seat-p0"]', "2")
    phone.select_option('[name="seat-p1"]', "3")
    phone.select_option('[name="seat-p2"]', "1")
    check_layout(phone)
    screenshot(phone, "flow-tie-handed-over")
    phone.get_by_role("button", name="Saisir la partie complète avec ces joueurs").tap()
    phone.wait_for_url(re.compile(r"/g/[\w-]+/#joueur-1$"))
    expect(phone.locator("#joueur-1")).to_be_visible()
    on_step(phone, "joueur-1")
    expect(phone.locator("#joueur-1 .player-name > span").first).to_have_text("Cy")
    doc = stored_document(live_server, phone.url)
    assert [p["name"] for p in doc["players"]] == ["Cy", "Ana", "Bob"] and doc["edinburgh"] == "Bob"
    expect(phone.locator('input[name="edinburgh"][value="Bob"]')).to_be_checked()


def test_a_refused_results_page_is_one_the_back_button_leaves(phone, live_server):
    """"Voir les résultats" while a rule between fields waits: the page that says so is reached by a
    redirect (post/redirect/get), so Back to it, or a refresh, never asks to send the form again."""
    url = new_game(phone, "rebirth", "scotland", ["Ana", "Bob"])
    phone.locator('#f-edinburgh label.chip', has_text="Bob").tap()  # Bob's castles not typed yet
    saved_draft = phone.locator("#save-state")
    expect(saved_draft).to_contain_text("Enregistré")
    phone.get_by_role("button", name="Voir les résultats").tap()
    phone.wait_for_url(re.compile(r"\?attente=1#error-summary$"))
    expect(phone.locator("#error-summary")).to_be_visible()
    expect(phone.locator("#error-summary")).to_contain_text("Bob")
    # each link to a field reads as text, a long name wrapping at the line's own height
    spacing = phone.locator("#error-summary a").first.evaluate(
        "a => parseFloat(getComputedStyle(a).lineHeight) / parseFloat(getComputedStyle(a).fontSize)")
    assert spacing <= 1.5
    check_layout(phone)
    expect(phone.locator("#play-notice")).to_contain_text("les résultats attendent encore")
    phone.goto(live_server.url + "/parties")
    phone.go_back()
    phone.wait_for_url(re.compile(r"\?attente=1#error-summary$"))
    expect(phone.locator("#error-summary")).to_be_visible()  # the page itself, not "resubmit the form?"
    phone.reload()
    expect(phone.locator("#error-summary")).to_be_visible()
    assert stored_document(live_server, url)["edinburgh"] == "Bob"
