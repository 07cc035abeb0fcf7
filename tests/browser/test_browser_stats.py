"""After the game on a phone (headless Chromium, 390×844): the statistics pages and their charts,
the results page's category mix and BG Stats link, export and restore through "Mes parties"."""

from __future__ import annotations

import re
import secrets

import pytest
from played import HOSTILE, revive, store_games
from playwright.sync_api import expect

from browser_helpers import check_layout, screenshot
from document_helpers import load_example

pytestmark = pytest.mark.browser

LONG = ["Wolfeschlegelsteinhausenbergerdorffwelch", "Anne-Charlotte de La Tour d'Auvergne Ø.",
        "Zoë Ødegård-Łukasiewicz von Świętokrzysk", HOSTILE[0]]


def as_device(page, live_server) -> str:
    """This phone's device cookie, chosen here so that games can be stored for it directly."""
    device = secrets.token_urlsafe(24)
    page.context.add_cookies([{"name": "companion_device", "value": device, "url": live_server.url}])
    return device


def fill_device(live_server, device: str) -> list:
    docs = [load_example("rebirth-scotland.json"), load_example("reterra.json"),
            load_example("revive-abyss.json")]
    docs += [revive(*[(LONG[(i + k) % 4], (i * 11 + k * 7) % 80) for k in range(4)]) for i in range(40)]
    return store_games(live_server.app, device, docs)


def charts_fit(page) -> None:
    boxes = page.locator("svg.chart").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.height]; })")
    assert boxes, "no chart drawn"
    for left, right, height in boxes:
        assert left >= 0 and right <= 390 and height > 120  # readable: full width, not squashed


def test_statistics_page_on_a_phone(phone, live_server):
    device = as_device(phone, live_server)
    fill_device(live_server, device)
    phone.goto(f"{phone.base_url}/parties")
    phone.locator("#main").get_by_role("link", name="Statistiques", exact=True).tap()
    phone.wait_for_url(re.compile(r"/statistiques$"))
    phone.wait_for_load_state("load")
    expect(phone.locator("h1")).to_have_text("Statistiques")
    expect(phone.get_by_text("43 parties terminées sur cet appareil")).to_be_visible()
    expect(phone.locator("h2", has_text="Revive · Base")).to_be_visible()
    check_layout(phone)
    charts_fit(phone)
    assert phone.locator("svg.chart > title").count() == 4
    screenshot(phone, "stats-device")
    # one player's page, reached by tapping the name (a hostile one)
    phone.locator(".player-links a", has_text=HOSTILE[0]).tap()
    phone.wait_for_url(re.compile(r"joueur="))
    phone.wait_for_load_state("load")
    expect(phone.locator("h1")).to_have_text(f"Statistiques de {HOSTILE[0]}")
    expect(phone.get_by_text("40 parties terminées sur cet appareil")).to_be_visible()
    check_layout(phone)
    charts_fit(phone)
    screenshot(phone, "stats-player")


def test_statistics_page_without_games(phone, live_server):
    as_device(phone, live_server)
    phone.goto(f"{phone.base_url}/statistiques")
    expect(phone.get_by_text("Aucune partie terminée pour l'instant")).to_be_visible()
    check_layout(phone)


def test_results_page_mix_chart_and_bg_stats_link(phone, live_server):
    device = as_device(phone, live_server)
    doc = revive(*[(n, 20 + 5 * i) for i, n in enumerate(LONG)], p0={"progress": 6}, p2={"two_tokens": 2})
    [record] = store_games(live_server.app, device, [doc])
    phone.goto(f"{phone.base_url}/g/{record.edit_token}/resultats")
    bars = phone.locator("figure.mix svg.mix-bar")
    expect(bars).to_have_count(4)
    for box in bars.evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())"):
        assert box["left"] >= 0 and box["right"] <= 390 and box["height"] >= 14
    expect(phone.locator("figure.mix .legend li")).to_have_count(8)  # Revive base: no devotion
    link = phone.get_by_role("link", name="Envoyer à BG Stats")
    expect(link).to_be_visible()
    assert link.get_attribute("href").startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
    assert link.get_attribute("rel") == "noopener noreferrer"
    check_layout(phone)
    screenshot(phone, "results-mix")
    # the share link shows the same chart and link
    phone.goto(f"{phone.base_url}/r/{record.view_token}/")
    expect(phone.locator("figure.mix svg.mix-bar")).to_have_count(4)
    expect(phone.get_by_role("link", name="Envoyer à BG Stats")).to_be_visible()
    check_layout(phone)


def test_export_then_restore_through_the_pages(phone, live_server, tmp_path):
    device = as_device(phone, live_server)
    store_games(live_server.app, device, [revive(("Alice", 12), ("Bob", 9)), load_example("reterra.json")])
    phone.goto(f"{phone.base_url}/parties")
    check_layout(phone)
    with phone.expect_download() as json_file:
        phone.get_by_role("link", name="Exporter (JSON)").tap()
    saved = tmp_path / "export.json"
    json_file.value.save_as(saved)
    with phone.expect_download() as csv_file:
        phone.get_by_role("link", name="Exporter (CSV)").tap()
    assert csv_file.value.suggested_filename.endswith(".csv")
    # restoring on this phone: nothing is duplicated, and the form (CSRF on) says so
    phone.get_by_role("link", name="Restaurer un export").tap()
    phone.wait_for_url(re.compile(r"/importer$"))
    phone.wait_for_load_state("load")
    check_layout(phone)
    phone.set_input_files("#file", str(saved))
    phone.get_by_role("button", name="Restaurer").tap()
    phone.wait_for_url(re.compile(r"/parties$"))
    expect(phone.locator(".flash-success")).to_have_text(
        "Aucune nouvelle partie ; 2 déjà présentes sur ce serveur, laissées telles quelles.")
    # a tampered file: refused with its paths, on the page
    text = saved.read_text(encoding="utf-8")
    saved.write_text(text.replace('"track": 12', '"track": -12'), encoding="utf-8")
    phone.goto(f"{phone.base_url}/parties/importer")
    phone.set_input_files("#file", str(saved))
    phone.get_by_role("button", name="Restaurer").tap()
    expect(phone.locator(".import-errors li").first).to_contain_text("games[0].document.players[0].track")
    phone.wait_for_load_state("load")
    check_layout(phone)
