"""Reterra played through the UI on a phone (headless Chromium, 390×844): one player counted on the
table, the other's community painted square by square on the board editor, whose live figures are
the engine's own (POST /api/v1/reterra/grid)."""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from browser_helpers import (
    check_layout,
    saved,
    screenshot,
    second_phone,
    settled,
    show_player,
    stored_document,
)
from browser_helpers import new_game as start_game
from companion.games.reterra import analyse_grid
from document_helpers import load_example

pytestmark = pytest.mark.browser

COLS = "ABCDEFGH"
def new_game(page, names: list[str]) -> str:
    return start_game(page, "reterra", "base", names)


def totals(page) -> list[str]:
    return page.locator("tr.totals td").all_inner_texts()


def step(page, name: str, times: int) -> None:
    for _ in range(times):
        page.locator(f'#f-{name} button[data-step="1"]').tap()


def paint(page, i: int, grid: dict) -> None:
    """Paint a community the way a player does: whole tiles in their main terrain, then the odd squares,
    then the marks, each a tap."""
    board = page.locator(f"#f-players-{i}-grid")
    rows = grid["terrain"]

    def tool(name: str) -> None:
        board.locator(f'button[data-tool="{name}"]').tap()

    def square(r: int, c: int) -> None:
        board.locator(f'.sq[data-square="{COLS[c]}{r + 1}"]').tap()

    whole = board.get_by_role("button", name="Tuile entière")
    whole.tap()
    main = {}
    for tr in range(4):
        for tc in range(4):
            letters = [rows[2 * tr + dr][2 * tc + dc] for dr in (0, 1) for dc in (0, 1)]
            main[tr, tc] = Counter(letters).most_common(1)[0][0]
    for letter in sorted(set(main.values())):
        tool(letter)
        for (tr, tc), m in main.items():
            if m == letter:
                square(2 * tr, 2 * tc)
    whole.tap()
    for letter in "FEDPR":
        odd = [(r, c) for r in range(8) for c in range(8)
               if rows[r][c] == letter and main[r // 2, c // 2] != letter]
        if odd:
            tool(letter)
            for r, c in odd:
                square(r, c)
    for key in ("sources", "relics", "relic_tokens", "junk", "inhabitants"):
        if grid.get(key):
            tool(key)
            for r, c in grid[key]:
                square(2 * r, 2 * c) if key == "sources" else square(r, c)


def readout(page, i: int) -> dict:
    board = page.locator(f"#f-players-{i}-grid")
    expect(board.locator("[data-calc]")).to_be_hidden()
    expect(board.locator("[data-total]")).to_contain_text("pts")
    shown = {"counts": {}, "points": {}}
    for li in board.locator("[data-readout] li[data-key]").all():
        key = li.get_attribute("data-key")
        shown["counts"][key] = int(li.locator("[data-count]").inner_text())
        shown["points"][key] = int(li.locator("[data-points]").inner_text().replace("\u2212", "-").split()[0])
    shown["total"] = int(board.locator("[data-total]").inner_text().split()[0])
    return shown


def test_reterra_example_played_through(phone, live_server):
    example = load_example("reterra.json")
    url = new_game(phone, ["Maëlle", "Yanis"])
    check_layout(phone)
    # The building card in play, given by its name: each player then gets a stepper for it.
    phone.fill('[name="buildings-0-name"]', "Terrain de sport")
    step(phone, "buildings-0-points", 3)
    expect(phone.locator("#f-players-0-built-0 label")).to_have_text("Terrain de sport")

    # Maëlle counted on the table: steppers and the numeric keypad.
    show_player(phone, 0)
    maelle = example["players"][0]
    step(phone, "players-0-segments", maelle["segments"])
    step(phone, "players-0-energy_sources", maelle["energy_sources"])
    phone.fill('[name="players-0-relics"]', str(maelle["relics"]))
    step(phone, "players-0-junk", maelle["junk"])
    phone.fill('[name="players-0-inhabitants"]', str(maelle["inhabitants"]))
    step(phone, "players-0-built-0", 1)

    # Yanis draws his community.
    show_player(phone, 1)
    phone.get_by_role("radio", name="Dessiner la communauté").first.check()
    expect(phone.locator('[name="players-1-segments"]')).to_be_hidden()
    grid = example["players"][1]["grid"]
    paint(phone, 1, grid)
    found = analyse_grid(grid)
    shown = readout(phone, 1)
    assert shown == {"counts": found["counts"], "points": found["points"], "total": 25}
    saved(phone)
    check_layout(phone)
    phone.locator("#f-players-1-grid").scroll_into_view_if_needed()
    screenshot(phone, "play-reterra-board")
    assert stored_document(live_server, url) == example

    phone.get_by_role("button", name="Voir les résultats").click()
    phone.wait_for_url(re.compile(r"/resultats$"))
    assert phone.locator("h1.winner").inner_text() == "Yanis gagne"
    assert totals(phone) == ["20", "25"]
    drawn = phone.locator("figure.community")
    expect(drawn).to_have_count(1)  # Yanis's community, drawn with its 5 scoring segments outlined
    assert drawn.get_attribute("data-player") == "Yanis"
    assert drawn.locator("path.seg-line").count() == 5
    check_layout(phone)
    screenshot(phone, "play-reterra-results")

    # Same table, a second and shorter game: a tie on points, settled by the inhabitants.
    phone.get_by_role("button", name="Rejouer avec les mêmes joueurs").click()
    phone.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    # The card in play stays on the table, and the next player starts: Yanis, then Maëlle.
    assert phone.locator('[name="buildings-0-name"]').input_value() == "Terrain de sport"
    assert [t.split("\n")[0].strip() for t in phone.locator(".steps-list a").all_inner_texts()] == [
        "Table", "Yanis", "Maëlle"]
    # Two cards, then the first taken away: each player's count follows its card.
    phone.fill('[name="buildings-0-name"]', "Gare")
    phone.get_by_role("button", name="Ajouter une carte").tap()
    phone.fill('[name="buildings-1-name"]', "Observatoire")
    phone.fill('[name="buildings-1-points"]', "4")
    show_player(phone, 0)
    step(phone, "players-0-built-1", 1)
    phone.locator(".steps-list a", has_text="Table").click()
    phone.locator('[data-rows="buildings"] [data-row]').first.locator("[data-remove-row]").tap()
    expect(phone.locator("#f-players-0-built-0 label")).to_have_text("Observatoire")
    assert phone.locator('[name="players-0-built-0"]').input_value() == "1"
    assert phone.locator('[data-card="1"]').first.is_hidden()
    show_player(phone, 0)
    step(phone, "players-0-segments", 1)
    step(phone, "players-0-inhabitants", 3)  # 3 + 3 + 4
    show_player(phone, 1)
    step(phone, "players-1-segments", 2)
    phone.fill('[name="players-1-building_bonus"]', "4")  # 6 + 4
    saved(phone)
    doc = stored_document(live_server, phone.url)
    assert doc["buildings"] == [{"id": "observatoire", "name": "Observatoire", "points": 4}]
    assert doc["players"][0]["buildings"] == {"observatoire": 1}
    phone.get_by_role("button", name="Voir les résultats").click()
    phone.wait_for_url(re.compile(r"/resultats$"))
    assert phone.locator("h1.winner").inner_text() == "Yanis gagne"  # seat 1 now: 3 inhabitants
    assert totals(phone) == ["10", "10"]
    assert "habitants" in phone.locator(".ties").inner_text()
    screenshot(phone, "play-reterra-tie-results")


# A community with segments across tiles, two areas touching only at a corner (D at F7/E8), a
# central source (scores 8) and two edge ones (0), a relic token under junk.
COMMUNITY = {
    "terrain": ["FFFFEEDD", "FDFFEEDD", "RRFPEEPP", "RRPPEEPP",
                "DDDDEERR", "DFDDEERR", "EEPPPDRR", "EEPPDPRR"],
    "sources": [[1, 2], [0, 2], [3, 0]],
    "relics": [[0, 0], [2, 2]],
    "relic_tokens": [[0, 7]],
    "junk": [[0, 7]],
    "inhabitants": [[5, 1], [4, 6]],
}


def test_board_painted_by_taps_matches_the_engine(phone, live_server):
    url = new_game(phone, ["Inès", "Léo"])
    show_player(phone, 0)
    phone.get_by_role("radio", name="Dessiner la communauté").first.check()
    board = phone.locator("#f-players-0-grid")
    expect(board.locator(".board-status")).to_have_text("Plateau vide : peignez les 64 cases.")
    paint(phone, 0, COMMUNITY)
    found = analyse_grid(COMMUNITY)
    assert found["total"] == 4 * 3 + 8 + 2 - 1 + 2  # the hand count of this community
    expected = {"counts": found["counts"], "points": found["points"], "total": found["total"]}
    assert readout(phone, 0) == expected

    # The squares shown as scoring are the engine's segments; the sources scored are its own.
    highlighted = set(board.locator(".sq.seg").evaluate_all("els => els.map(e => e.dataset.square)"))
    assert highlighted == {f"{COLS[c]}{r + 1}" for s in found["segments"] for r, c in s["squares"]}
    assert board.locator(".tile.source.scored").count() == 1
    assert board.locator(".tile.source.edge").count() == 2

    # A junk token off any relic: the engine's French message beside the board, last good figures kept.
    board.locator('button[data-tool="junk"]').tap()
    board.locator('.sq[data-square="C5"]').tap()
    expect(board.locator(".board-problems")).to_have_text(
        "la case C5 n'a pas de relique : le bric-à-brac se pose sur une relique (imprimée ou jeton)")
    expect(board.locator("[data-total]")).to_have_text(f"{found['total']} pts")
    board.locator('.sq[data-square="C5"]').tap()  # tapping again removes it
    expect(board.locator(".board-problems")).to_have_text("")
    saved(phone)
    screenshot(phone, "play-reterra-board-painted")

    doc = stored_document(live_server, url)
    painted = doc["players"][0]["grid"]
    assert painted["terrain"] == COMMUNITY["terrain"]
    for key in ("sources", "relics", "relic_tokens", "junk", "inhabitants"):
        assert sorted(painted.get(key, [])) == sorted(COMMUNITY[key]), key

    # Back on the page later: the board is drawn again from the saved fields, with its figures.
    phone.goto(url)
    show_player(phone, 0)
    assert phone.get_by_role("radio", name="Dessiner la communauté").first.is_checked()
    assert readout(phone, 0) == expected
    assert board.locator('.sq[data-square="H1"]').get_attribute("aria-label") == \
        "H1 : désert, jeton Relique, bric-à-brac"

    # Switching to "compter sur le plateau" keeps the same figures, now as counts.
    phone.get_by_role("radio", name="Compter sur le plateau").first.check()
    for key, n in found["counts"].items():
        assert phone.locator(f'[name="players-0-{key}"]').input_value() == str(n)


def test_without_javascript_the_community_is_typed_as_letters(phone_without_js):
    """No JS: both ways of entering a community are on the page; rows of letters and "A1" squares."""
    page = phone_without_js
    example = load_example("reterra.json")
    grid = example["players"][1]["grid"]
    new_game(page, ["Maëlle", "Yanis"])
    assert page.locator("#players-1-grid-terrain-0").is_visible()  # no radio needed to see it
    assert page.locator('[name="players-1-segments"]').is_visible()
    page.check("#players-1-mode-1")
    for r, row in enumerate(grid["terrain"]):
        page.fill(f"#players-1-grid-terrain-{r}", row)
    page.fill("#players-1-grid-sources", "F4")  # any square of the tile names it
    page.fill("#players-1-grid-relics", "A1 H8")
    page.fill("#players-1-grid-junk", "H8 A2")
    page.fill("#players-1-grid-inhabitants", "E5 F6")
    page.get_by_role("button", name="Enregistrer").click()
    expect(page.locator("#e-players-1-grid-junk")).to_have_text(  # the page the post answers
        "la case A2 n'a pas de relique : le bric-à-brac se pose sur une relique (imprimée ou jeton)")
    page.fill("#players-1-grid-junk", "H8")
    page.get_by_role("button", name="Voir les résultats").click()
    page.wait_for_url(re.compile(r"/resultats$"))
    assert totals(page) == ["0", "25"]
    check_layout(page)


def drafts(page) -> list[str]:
    return page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('companion-draft:'))")


def test_half_painted_board_survives_reload_and_refused_submit(phone, live_server):
    """QA: a community half painted is never lost: not on a reload (the phone's draft keeps it), not
    when "Voir les résultats" is refused (the page comes back with it, and so does the next reload)."""
    url = new_game(phone, ["Inès", "Léo"])
    show_player(phone, 0)
    phone.get_by_role("radio", name="Dessiner la communauté").first.check()
    saved(phone)
    board = phone.locator("#f-players-0-grid")
    row1, relics = phone.locator("#players-0-grid-terrain-0"), phone.locator("#players-0-grid-relics")

    def painted_is_back() -> None:
        a1, b2 = board.locator('.sq[data-square="A1"]'), board.locator('.sq[data-square="B2"]')
        expect(a1).to_have_attribute("aria-label", "A1 : forêt")
        expect(a1).to_have_class(re.compile(r"\bt-F\b"))
        expect(b2).to_have_attribute("aria-label", "B2 : à peindre, relique")
        expect(b2).to_have_class(re.compile(r"\brelic\b"))
        expect(board.locator(".board-status")).to_have_text("Encore 63 cases à peindre.")
        assert row1.input_value() == "F......."
        assert relics.input_value() == "B2"

    board.locator('button[data-tool="F"]').tap()
    board.locator('.sq[data-square="A1"]').tap()
    board.locator('button[data-tool="relics"]').tap()
    board.locator('.sq[data-square="B2"]').tap()
    settled(phone)  # nothing sent, nothing due: the board is kept here
    assert row1.input_value() == "F......." and relics.input_value() == "B2"
    expect(phone.locator("#save-state")).to_have_text("Gardé sur ce téléphone")
    assert "grid" not in stored_document(live_server, url)["players"][0]  # not a community yet
    assert len(drafts(phone)) == 1

    # The tab closed and opened again: the board comes back from the draft. The other fields are sent
    # (they save), the unfinished board stays on the phone only, and a second reload still has it.
    phone.reload()
    show_player(phone, 0)
    painted_is_back()
    saved(phone)
    assert "grid" not in stored_document(live_server, url)["players"][0]
    phone.reload()
    show_player(phone, 0)
    painted_is_back()
    saved(phone)

    # "Voir les résultats" with the board unfinished: refused, the board is back with the message...
    phone.get_by_role("button", name="Voir les résultats").click()
    phone.wait_for_load_state()
    assert urlparse(phone.url).path == urlparse(url).path
    expect(phone.locator("#e-players-0-grid-terrain-0")).to_have_text(
        "ligne 1 : la case B1 n'est pas encore peinte")
    painted_is_back()
    board.scroll_into_view_if_needed()
    screenshot(phone, "play-reterra-board-refused")
    # ... and a reload after the refusal still has it (the refused page became the draft).
    phone.goto(url)
    show_player(phone, 0)
    painted_is_back()
    assert "grid" not in stored_document(live_server, url)["players"][0]

    # Painted to the end: saved with the squares painted earlier, and the draft is done with.
    board.get_by_role("button", name="Tuile entière").tap()
    board.locator('button[data-tool="P"]').tap()
    for tr in range(4):
        for tc in range(4):
            if (tr, tc) != (0, 0):
                board.locator(f'.sq[data-square="{COLS[2 * tc]}{2 * tr + 1}"]').tap()
    board.get_by_role("button", name="Tuile entière").tap()
    board.locator('button[data-tool="D"]').tap()
    for sq in ("B1", "A2", "B2"):
        board.locator(f'.sq[data-square="{sq}"]').tap()
    saved(phone)
    grid = stored_document(live_server, url)["players"][0]["grid"]
    assert grid["terrain"] == ["FDPPPPPP", "DDPPPPPP"] + ["PPPPPPPP"] * 6
    assert grid["relics"] == [[1, 1]]
    assert drafts(phone) == []


def test_board_stays_under_the_finger_when_a_save_adds_a_warning_above(phone, live_server):
    """Choosing "Dessiner" saves; its answer warns that Yanis has nothing entered yet, above the board.
    The player is already tapping squares: the square tapped stays where it was on the screen (the
    page scrolls by what the warning added), so the next tap does not land one square lower."""
    new_game(phone, ["Maëlle", "Yanis"])
    show_player(phone, 0)
    step(phone, "players-0-segments", 2)  # not saved yet: the warning comes with the next answer
    show_player(phone, 1)
    phone.get_by_role("radio", name="Dessiner la communauté").first.check()
    board = phone.locator("#f-players-1-grid")
    square = board.locator('.sq[data-square="A1"]')
    square.tap()
    before = square.bounding_box()["y"]
    warning = phone.locator(".field-warning").filter(has_text="Yanis")
    expect(warning.first).to_contain_text("rien n'est saisi")
    expect(phone.locator("#save-state")).to_have_text(re.compile("Enregistré"))
    assert abs(square.bounding_box()["y"] - before) < 1
    board.locator('.sq[data-square="B1"]').tap()
    assert board.locator(".sq.t-none").count() == 62  # A1 and B1 painted, nothing else


# --------------------------------------------------------------------------- two phones


def back_to_front(page) -> int:
    """The phone's screen back on: the page asks what the server holds; the answer's status."""
    with page.expect_response(re.compile(r"/state\?version=")) as asked:
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    return asked.value.status


def test_cards_added_on_one_phone_keep_their_counts_on_the_other(phone, browser, live_server):
    """QA: A adds two building cards and Inès's counts; B, back to the front, shows both cards under
    Inès and Léo with A's counts, and never sends a thing of its own: before, the card row B added
    for A's second card moved the counts as if B had added it, and B's save blanked Inès's count."""
    url = new_game(phone, ["Inès", "Léo"])
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        sent = []
        other.on("request", lambda r: sent.append(r.url) if r.url.endswith("/save") else None)
        phone.fill('[name="buildings-0-name"]', "Serre")
        step(phone, "buildings-0-points", 3)
        phone.get_by_role("button", name="Ajouter une carte").tap()
        phone.fill('[name="buildings-1-name"]', "Atelier")
        step(phone, "buildings-1-points", 2)
        show_player(phone, 0)
        step(phone, "players-0-built-0", 2)
        step(phone, "players-0-built-1", 3)
        saved(phone)
        inès = phone.locator('[data-seat-total="0"]').first.inner_text()
        assert back_to_front(other) == 200
        expect(other.locator("#save-state")).to_have_text("Mis à jour avec les saisies d'un autre appareil")
        show_player(other, 0)
        expect(other.locator("#f-players-0-built-1 label")).to_have_text("Atelier")
        expect(other.locator('[name="players-0-built-0"]')).to_have_value("2")
        expect(other.locator('[name="players-0-built-1"]')).to_have_value("3")
        expect(other.locator('[data-seat-total="0"]').first).to_have_text(inès)
        show_player(other, 1)
        expect(other.locator("#f-players-1-built-0 label")).to_have_text("Serre")
        expect(other.locator("#f-players-1 [data-no-cards]")).to_be_hidden()
        settled(other)  # B has nothing to send
        assert sent == []
        step(other, "players-1-built-1", 1)
        saved(other)
        built = [p.get("buildings") for p in stored_document(live_server, url)["players"]]
        assert [sorted(b.values()) for b in built] == [[2, 3], [1]]
        assert list(built[1]) == [next(k for k, v in built[0].items() if v == 3)]  # Léo's is the Atelier
    finally:
        context.close()


def test_a_board_painted_on_one_phone_is_counted_on_the_other(phone, browser, live_server):
    """A paints Inès's community; B, which had begun painting Léo's (kept on B, not sent), comes back
    to the front: Inès's board is drawn with the engine's figures under it, Léo's half-painted board
    is still there, still B's own, and the card A added to the table shows."""
    url = new_game(phone, ["Inès", "Léo"])
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(other, 1)
        other.get_by_role("radio", name="Dessiner la communauté").nth(0).check()
        saved(other)
        board = other.locator("#f-players-1-grid")
        board.locator('button[data-tool="F"]').tap()
        board.locator('.sq[data-square="A1"]').tap()
        expect(other.locator("#save-state")).to_have_text("Gardé sur ce téléphone")
        phone.reload()
        show_player(phone, 0)
        phone.get_by_role("radio", name="Dessiner la communauté").first.check()
        paint(phone, 0, COMMUNITY)
        expected = readout(phone, 0)
        phone.locator(".steps-list a", has_text="Table").click()
        phone.fill('[name="buildings-0-name"]', "Serre")
        step(phone, "buildings-0-points", 3)
        saved(phone)
        assert back_to_front(other) == 200
        show_player(other, 0)
        assert readout(other, 0) == expected
        segments = "#f-players-0-grid .sq.seg"
        assert other.locator(segments).count() == phone.locator(segments).count() > 0
        expect(other.locator('[name="buildings-0-name"]')).to_have_value("Serre")
        show_player(other, 1)
        expect(board.locator('.sq[data-square="A1"]')).to_have_attribute("aria-label", "A1 : forêt")
        expect(board.locator(".board-status")).to_have_text("Encore 63 cases à peindre.")
        assert "grid" not in stored_document(live_server, url)["players"][1]
    finally:
        context.close()


def test_taking_the_other_phones_board_draws_it(phone, browser, live_server):
    """QA: both phones painted Inès's community, one square apart; B, told of the conflict, takes
    A's board. B's screen must show A's board (and count it): before, it kept B's drawing while
    its fields held A's, and B's next tap sent B's whole board over A's without a word."""
    variant = {**COMMUNITY, "terrain": list(COMMUNITY["terrain"])}
    variant["terrain"][2] = "RRFREEPP"  # D3: rocaille instead of plaine
    url = new_game(phone, ["Inès", "Léo"])
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        show_player(other, 0)  # B begins Inès's board: kept on B until it is complete
        other.get_by_role("radio", name="Dessiner la communauté").first.check()
        saved(other)
        other.locator('#f-players-0-grid button[data-tool="F"]').tap()
        other.locator('#f-players-0-grid .sq[data-square="A1"]').tap()
        show_player(phone, 0)
        phone.get_by_role("radio", name="Dessiner la communauté").first.check()
        paint(phone, 0, COMMUNITY)
        expected = readout(phone, 0)
        saved(phone)
        paint(other, 0, variant)  # B completes its own: sent, it meets A's
        notice = other.locator("#play-notice")
        expect(notice.get_by_role("button", name="Reprendre ses valeurs")).to_be_visible()
        board = other.locator("#f-players-0-grid")
        assert board.locator('.sq[data-square="D3"]').get_attribute("aria-label").startswith("D3 : rocaille")
        notice.get_by_role("button", name="Reprendre ses valeurs").click()
        d3 = board.locator('.sq[data-square="D3"]')
        expect(d3).to_have_attribute("aria-label", re.compile(r"^D3 : plaine"))
        assert readout(other, 0) == expected
        saved(other)
        board.locator('button[data-tool="inhabitants"]').tap()
        board.locator('.sq[data-square="A8"]').tap()  # one more inhabitant, on A's board
        saved(other)
        grid = stored_document(live_server, url)["players"][0]["grid"]
        assert grid["terrain"] == COMMUNITY["terrain"] and [7, 0] in grid["inhabitants"]
    finally:
        context.close()


def test_a_count_follows_its_card_when_the_other_phone_removed_one_above(phone, browser, live_server):
    """Three cards in play on both phones; A removes the Puits (the Forge moves up a row); B, not caught
    up, gives Léo 2 Forge and 1 Puits: the 2 go to the Forge (not to nowhere: B's third row no longer
    exists on the server), the Puits's 1 is not written onto the Forge, and B says so."""
    url = new_game(phone, ["Inès", "Léo"])
    for k, (name, points) in enumerate([("Ferme", 3), ("Puits", 2), ("Forge", 4)]):
        if k:
            phone.get_by_role("button", name="Ajouter une carte").tap()
        phone.fill(f'[name="buildings-{k}-name"]', name)
        phone.fill(f'[name="buildings-{k}-points"]', str(points))
    show_player(phone, 0)
    step(phone, "players-0-built-2", 3)  # Inès: 3 Forge
    saved(phone)
    context, other = second_phone(browser, live_server)
    try:
        other.goto(url)
        phone.locator(".steps-list a", has_text="Table").click()
        phone.locator('[data-rows="buildings"] [data-row]').nth(1).locator("[data-remove-row]").tap()
        saved(phone)
        doc = stored_document(live_server, url)
        assert [c["id"] for c in doc["buildings"]] == ["ferme", "forge"]
        assert doc["players"][0]["buildings"] == {"forge": 3}  # Inès's Forge went up with its card
        show_player(other, 1)
        expect(other.locator("#f-players-1-built-2 label")).to_have_text("Forge")  # B has not caught up
        step(other, "players-1-built-2", 2)
        step(other, "players-1-built-1", 1)  # the Puits, gone on the server
        notice = other.locator("#play-notice")
        expect(notice).to_contain_text("la carte « Puits » a été retirée sur un autre appareil")
        doc = stored_document(live_server, url)
        assert doc["players"][1]["buildings"] == {"forge": 2}
        assert doc["players"][0]["buildings"] == {"forge": 3}
        # B now shows the cards as stored, Léo's 2 beside the Forge
        expect(other.locator("#f-players-1-built-1 label")).to_have_text("Forge")
        expect(other.locator('[name="players-1-built-1"]')).to_have_value("2")
        settled(other)  # nothing left to send: the save state settles
        expect(other.locator("#save-state")).to_have_text("Enregistré \u2713")
    finally:
        context.close()


def test_undoing_a_removed_card_brings_back_the_card_and_each_players_count(phone, live_server):
    """QA: two cards, Bob 2 Serre and 1 Marché; the Serre taken away (the Marché moves up a row, Bob's
    1 with it), then "↶ Annuler": both cards are back and Bob's counts with them. Before, the undo
    was refused as a conflict with "another device" (the Serre's count laid on the row the Marché held
    on the server), nothing could save it, and Bob's 2 Serre were lost."""
    url = new_game(phone, ["Bob", "Ana"])
    phone.fill('[name="buildings-0-name"]', "Serre")
    phone.fill('[name="buildings-0-points"]', "4")
    phone.get_by_role("button", name="Ajouter une carte").tap()
    phone.fill('[name="buildings-1-name"]', "Marché")
    phone.fill('[name="buildings-1-points"]', "2")
    show_player(phone, 0)
    step(phone, "players-0-built-0", 2)
    step(phone, "players-0-built-1", 1)
    saved(phone)
    assert stored_document(live_server, url)["players"][0]["buildings"] == {"serre": 2, "marche": 1}
    phone.locator(".steps-list a", has_text="Table").click()
    phone.locator('[data-rows="buildings"] [data-row]').first.locator("[data-remove-row]").tap()
    saved(phone)
    doc = stored_document(live_server, url)
    assert [c["id"] for c in doc["buildings"]] == ["marche"]
    assert doc["players"][0]["buildings"] == {"marche": 1}  # Bob's Marché moved up with its card

    phone.get_by_role("button", name="Annuler ma dernière modification").tap()
    expect(phone.locator("#save-state")).to_have_text("Annulé ✓")
    settled(phone)
    doc = stored_document(live_server, url)
    assert [c["id"] for c in doc["buildings"]] == ["serre", "marche"]
    assert doc["players"][0]["buildings"] == {"serre": 2, "marche": 1}
    show_player(phone, 0)
    expect(phone.locator("#f-players-0-built-0 label")).to_have_text("Serre")
    expect(phone.locator('[name="players-0-built-0"]')).to_have_value("2")
    expect(phone.locator("#f-players-0-built-1 label")).to_have_text("Marché")
    expect(phone.locator('[name="players-0-built-1"]')).to_have_value("1")


def test_undo_beside_a_half_painted_board_undoes_the_last_change_and_keeps_the_board(phone, live_server):
    """QA: Inès's inhabitants saved, then her community begun (a board half painted is kept on this
    phone, not sent): "↶" did nothing, without a word (it waited for the board to be saved). It now
    undoes the inhabitants, and the squares painted stay."""
    url = new_game(phone, ["Inès", "Léo"])
    show_player(phone, 0)
    inhabitants = phone.locator('[name="players-0-inhabitants"]')
    inhabitants.fill("3")
    saved(phone)
    assert stored_document(live_server, url)["players"][0]["inhabitants"] == 3
    phone.get_by_role("radio", name="Dessiner la communauté").first.check()
    saved(phone)
    board = phone.locator("#f-players-0-grid")
    board.locator('button[data-tool="F"]').tap()
    for square in ("A1", "B1", "C1"):
        board.locator(f'.sq[data-square="{square}"]').tap()
    settled(phone)
    expect(phone.locator("#save-state")).to_have_text("Gardé sur ce téléphone")

    phone.get_by_role("button", name="Annuler ma dernière modification").tap()
    expect(phone.locator("#save-state")).to_have_text("Annulé ✓")
    settled(phone)
    assert "inhabitants" not in stored_document(live_server, url)["players"][0]
    assert phone.locator("#players-0-grid-terrain-0").input_value() == "FFF....."  # the board is kept
    expect(board.locator('.sq[data-square="C1"]')).to_have_class(re.compile(r"\bt-F\b"))
