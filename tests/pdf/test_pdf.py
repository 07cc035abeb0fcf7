"""Printed sheets (issue 7): what a player reads on the page, one A4 page whatever the names,
the shipped fonts (CJK included), and nothing fetched from outside static/.

Text is read back with pypdf; comparisons ignore whitespace, since a table cell wraps its text.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import socket

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from companion import games, pdf
from companion.pdf import reterra_board
from companion.pdf.fetcher import FetchRefused, StaticFetcher, static_path
from document_helpers import load_example

DAY = dt.date(2026, 11, 22)
LONG_NAMES = ["Wolfeschlegelsteinhausenbergerdorffwelch", "Anne-Charlotte de La Tour d'Auvergne Ø.",
              "Zoë Ødegård-Łukasiewicz von Świętokrzysk", "李小龍 Nguyễn Thị Minh Khai Ōkubo Ærøskø"]
PADS = [("rebirth", "scotland"), ("rebirth", "ireland"), ("reterra", "base"), ("revive", "base"),
        ("revive", "abyss")]


# ------------------------------------------------------------------ helpers


def squash(text: str) -> str:
    return "".join(text.split())


def read(data: bytes) -> tuple[int, str]:
    """(pages, text of every page without whitespace)."""
    assert data.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), squash("".join(page.extract_text() for page in reader.pages))


def embedded_fonts(data: bytes) -> dict[str, object]:
    """Embedded font programs by name (subset prefix removed): {"Compagnon-Sans": font dict}."""
    fonts = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            for desc in font.get("/DescendantFonts") or [font]:
                desc = desc.get_object()
                name = str(desc["/BaseFont"]).lstrip("/").split("+", 1)[-1]
                fonts[name] = desc
    return fonts


def warnings_of(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name.startswith("weasyprint") and r.levelno >= logging.WARNING]


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a socket fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture
def fetched(monkeypatch):
    """Every URL WeasyPrint asks the fetcher for, served or refused (the sheets' stylesheet and
    fonts too: read once per process, they are read again from here on)."""
    pdf._stylesheet.cache_clear()
    urls: list[str] = []
    original = StaticFetcher.fetch

    def spy(self, url, headers=None):
        urls.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(StaticFetcher, "fetch", spy)
    return urls


def renamed(doc: dict, names: list[str]) -> dict:
    """The same game with other player names (table-level references to names follow)."""
    text = json.dumps(doc, ensure_ascii=False)
    for player, new in zip(doc["players"], names, strict=False):
        old = json.dumps(player["name"], ensure_ascii=False)
        text = text.replace(old, json.dumps(new, ensure_ascii=False))
    return json.loads(text)


# ------------------------------------------------------------------ filled sheets


def test_rebirth_sheet_shows_names_totals_places_and_categories(weasy_log, no_network):
    doc = load_example("rebirth-scotland.json")
    result = games.score(doc)
    data = pdf.render_sheet(doc, colours=["rouge", "#2471A3", "bleu"], date=DAY)
    pages, text = read(data)
    assert pages == 1
    for words in ("Rebirth", "Écosse", "22 novembre 2026", "Maëlle gagne", "rouge"):
        assert squash(words) in text
    game = games.GAMES["rebirth"]
    for category in game.categories_for("scotland"):
        assert squash(category.label_for("scotland")) in text
        assert squash(category.hint_for(result.variant)) in text
    for player in result.players:
        assert squash(player.name) in text
    assert squash("Total 66 63 56") in text
    assert squash("Place 1re ★ 2e 3e") in text
    assert squash("Aucune égalité à départager.") in text
    assert warnings_of(weasy_log) == []


def test_the_farm_caveat_is_said_once_and_a_solo_game_has_no_winner(weasy_log):
    """QA (issue 24): the sheet repeated "each group grew one tile at a time" in every player's farm
    cell, and a solo Revive game read "Bea gagne"."""
    doc = load_example("rebirth-scotland.json")
    for player, farms in zip(doc["players"], ([3, 2], [4], [1, 1]), strict=True):  # every farm cell filled
        player["farms"] = {"agricultural": farms}
    _, text = read(pdf.render_sheet(doc, date=DAY))
    assert text.count(squash("une tuile à la fois")) == 1
    solo = {"game": "revive", "variant": "base", "players": [{"name": "Bea", "track": 52}]}
    _, text = read(pdf.render_sheet(solo, date=DAY))
    assert squash("Partie en solo : Bea, 52 points") in text and "gagne" not in text
    assert squash("Bea · 52 points") in text and squash("1re Bea") not in text  # no place when alone
    assert warnings_of(weasy_log) == []


def test_tie_sentences_are_printed(weasy_log):
    from bench.bench_revive import documents

    doc = documents()["4 joueurs à égalité (départage complet)"]
    result = games.score(doc)
    assert len(result.explanation) >= 2  # the fixture really goes down the tie-break chain
    pages, text = read(pdf.render_sheet(doc, date=DAY))
    assert pages == 1
    for sentence in result.explanation:
        assert squash(sentence) in text
    assert squash("3e ex æquo") in text
    assert squash("Ana gagne") in text and "Victoire de Ana" not in text
    assert warnings_of(weasy_log) == []


def _ireland_four_long_names() -> dict:
    players = [{"name": n, "track": 20 + i, "farms": {"agricultural": [5, 3, 2], "energy": [4, 2]},
                "ports": 3,
                "public_missions": [{"points": 7, "doubled": i == 0}, {"points": 5, "doubled": False}],
                "towers": [13], "incomplete_icons": 4, "castles": 2,
                "privatized_missions": [{"points": 9, "achieved": i % 2 == 0}], "tara_adjacent": 2}
               for i, n in enumerate(LONG_NAMES)]
    cities = [{"size": 4, "tiles": [{"player": LONG_NAMES[j], "influence": 1 + j, "order": j + 1}
                                    for j in range(4)]},
              {"size": 3, "tiles": [{"player": LONG_NAMES[j], "influence": 2, "order": j + 1}
                                    for j in range(3)]},
              {"size": 2, "tiles": [{"player": LONG_NAMES[3], "influence": 3}]}]
    return {"game": "rebirth", "variant": "ireland", "players": players, "cities": cities, "blarney": None}


def _reterra_four_grids() -> dict:
    terrain = ["FFFFEEDD", "FFFFEEDD", "PPRREEDD", "PPRREEDD", "DDDDPPPP", "DDDDPPPP", "RRFFEEPP", "RRFFEEPP"]
    players = []
    for i, name in enumerate(LONG_NAMES):
        grid = {"terrain": terrain, "sources": [[1, 2]], "relics": [[0, 0], [7, 7], [3, 3]],
                "relic_tokens": [[6, 0]], "junk": [[7, 7], [6, 0]], "inhabitants": [[4, 4], [5, 5], [i, 1]]}
        players.append({"name": name, "grid": grid, "buildings": {"terrain-de-sport": 1, "observatoire": i},
                        "building_bonus": 3 * i})
    return {"game": "reterra", "variant": "base", "players": players,
            "buildings": [{"id": "terrain-de-sport", "name": "Terrain de sport", "points": 3},
                          {"id": "observatoire", "name": "Observatoire astronomique", "points": 4}]}


@pytest.mark.parametrize("make", [_ireland_four_long_names, _reterra_four_grids], ids=["rebirth", "reterra"])
def test_four_players_with_long_names_fit_one_page(make, weasy_log):
    doc = make()
    result = games.score(doc)
    pages, text = read(pdf.render_sheet(doc, colours=["rouge", "bleu", "vert", "#abcdef"], date=DAY))
    assert pages == 1
    for player in result.players:
        assert squash(player.name) in text
        assert squash(str(player.total)) in text
    assert squash("Total " + " ".join(pdf.number(p.total) for p in result.players)) in text
    if doc["game"] == "reterra":
        assert text.count(squash("5 segments · 1 source")) == 4  # one drawing per community
    assert warnings_of(weasy_log) == []


def test_reterra_grid_player_gets_a_drawing_from_the_engine_analysis(weasy_log):
    doc = load_example("reterra.json")
    result = games.score(doc)
    found = result.player("Yanis").extra["grid"]
    pages, text = read(pdf.render_sheet(doc, date=DAY))
    assert pages == 1
    assert squash("Communautés") in text
    # Only Yanis was scored from a grid: one drawing, captioned with what the engine counted.
    assert text.count(squash("segments ·")) == 1
    caption = f"Yanis {found['counts']['segments']} segments · 1 source · {found['total']} points"
    assert squash(caption) in text
    assert warnings_of(weasy_log) == []

    # what the pale squares are, beside the strong ones (issue 32)
    assert squash("Couleur vive, trait noir : segment compté (7 cases ou +) ; pâle : hors segment") in text

    drawing = reterra_board.draw("Yanis", doc["players"][1]["grid"], found)
    assert len(drawing.segments) == len(found["segments"]) == 5
    assert [scored for _, _, scored in drawing.sources] == [s["scored"] for s in found["sources"]]
    assert len(drawing.junk) == len(found["junk"]) and len(drawing.inhabitants) == len(found["inhabitants"])
    # The plain of 12 squares is outlined along its boundary: 16 unit edges.
    plain = next(i for i, s in enumerate(found["segments"]) if s["size"] == 12)
    assert drawing.segments[plain].count("M") == 16


def test_hostile_names_and_colours_print_as_text(weasy_log, no_network, fetched):
    names = ["<img src=http://x/a.png>", "<style>*{display:none}</style>", '"); } body { display:none } /*',
             "Zoë"]
    doc = renamed(load_example("rebirth-scotland.json"), names)
    doc["players"].append({"name": names[3], "track": 1})
    colours = ['red"/><script>alert(1)</script>', "url(http://x/a.png)", "#12345", "rouge"]
    pages, text = read(pdf.render_sheet(doc, colours=colours, date=DAY))
    assert pages == 1
    for name in names:
        assert squash(name) in text
    assert not [u for u in fetched if "x/a.png" in u or not u.startswith("file:")]
    assert warnings_of(weasy_log) == []


def test_invalid_document_is_refused_before_rendering():
    doc = load_example("rebirth-scotland.json")
    doc["players"][0]["castles"] = -1
    with pytest.raises(games.InvalidDocument) as caught:
        pdf.render_sheet(doc)
    assert caught.value.problems[0].path == "players[0].castles"


def test_colours_accept_hex_and_french_names_only():
    assert pdf.colour("rouge") == ("#c0392b", "rouge")
    assert pdf.colour(" Bleu ") == (pdf.COLOUR_NAMES["bleu"], "bleu")
    assert pdf.colour("#C0392B") == ("#c0392b", "")
    assert pdf.colour("#abc") == ("#abc", "")
    for bad in ("red;}", "#12345", "#abcdefg", "url(x)", "", None, 5, "javascript:1", "#ab c"):
        assert pdf.colour(bad) is None


# ------------------------------------------------------------------ fonts


def test_fonts_are_the_shipped_ones_and_cjk_is_drawn(weasy_log, fetched):
    doc = renamed(load_example("revive-abyss.json"), ["李", "Zoë Ødegård"])
    data = pdf.render_sheet(doc, date=DAY)
    pages, text = read(data)
    assert pages == 1 and "李" in text and "ZoëØdegård" in text
    fonts = embedded_fonts(data)
    # Only the @font-face families of sheet.css: no system font slipped in.
    assert fonts and all(name.startswith("Compagnon-") for name in fonts), sorted(fonts)
    assert any(u.endswith("/static/fonts/DroidSansFallback.ttf") for u in fetched)
    # The fallback font really carries a glyph for 李 (not only .notdef, which has index 0).
    cjk = next(font for name, font in fonts.items() if name.startswith("Compagnon-CJK"))
    program = TTFont(io.BytesIO(cjk["/FontDescriptor"]["/FontFile2"].get_object().get_data()))
    glyf = program["glyf"]
    drawn = [g for g in program.getGlyphOrder()[1:] if glyf[g].numberOfContours]
    assert drawn, "the CJK fallback font embeds no outline besides .notdef"
    assert warnings_of(weasy_log) == []


def test_characters_no_shipped_font_draws_are_replaced_not_boxed(weasy_log):
    names = ["Zoë 🎲 ♞", "ไทย Ødegård"]  # an emoji and Thai: in none of the shipped fonts
    doc = renamed(load_example("revive-abyss.json"), names)
    pages, text = read(pdf.render_sheet(doc, date=DAY))
    assert pages == 1
    assert squash("Zoë \ufffd ♞") in text and squash("\ufffd\ufffd\ufffd Ødegård") in text
    # WeasyPrint warns for each .notdef glyph it draws: none here.
    assert warnings_of(weasy_log) == []
    assert pdf.printable("Zoë ❤\ufe0f 李") == "Zoë ❤\ufe0f 李"


def test_font_files_and_licences_ship_with_the_app():
    fonts = pdf.STATIC / "fonts"
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DroidSansFallback.ttf"):
        assert (fonts / name).stat().st_size > 100_000
    assert "Bitstream" in (fonts / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Apache License" in (fonts / "LICENSE-DroidSansFallback.txt").read_text(encoding="utf-8")
    css = (pdf.STATIC / "css" / "sheet.css").read_text(encoding="utf-8")
    assert "url(../fonts/DroidSansFallback.ttf)" in css and "local(" not in css


# ------------------------------------------------------------------ the fetcher


def test_fetcher_serves_static_files_only(tmp_path):
    css = (pdf.STATIC / "css" / "sheet.css").resolve()
    assert static_path(css.as_uri()) == css
    response = StaticFetcher().fetch(css.as_uri())
    assert response.read().startswith(b"/*")
    assert response.content_type == "text/css"

    outside = tmp_path / "secret.txt"
    outside.write_text("secret", encoding="utf-8")
    root = tmp_path / "static"
    root.mkdir()
    (root / "ok.css").write_text("p{}", encoding="utf-8")
    (root / "link.css").symlink_to(outside)
    assert static_path((root / "ok.css").as_uri(), root) == (root / "ok.css").resolve()
    refused = [
        "http://example.com/x.png", "https://example.com/x.css", "ftp://example.com/x",
        "data:text/css,p{color:red}", "file:///etc/passwd", "file://example.com/etc/passwd",
        pdf.STATIC.as_uri() + "/../../../../etc/passwd",
        pdf.STATIC.as_uri() + "/css/%2e%2e/%2e%2e/pyproject.toml",
        pdf.STATIC.as_uri() + "/css/absent.css", pdf.STATIC.as_uri() + "/css", "css/sheet.css",
        "file:///etc/passwd\x00.css",
    ]
    for url in refused:
        with pytest.raises(FetchRefused):
            static_path(url)
        with pytest.raises(FetchRefused):
            StaticFetcher().fetch(url)
    with pytest.raises(FetchRefused):  # a symbolic link leading out of the static folder
        static_path((root / "link.css").as_uri(), root)


def test_page_referencing_outside_resources_renders_without_them(weasy_log, no_network, fetched):
    html = ('<!doctype html><html lang="fr"><head><link rel="stylesheet" href="css/sheet.css">'
            '<link rel="stylesheet" href="http://example.com/evil.css">'
            '<link rel="stylesheet" href="file:///etc/passwd"></head><body>'
            '<p>Bonjour</p><img src="http://example.com/x.png" alt=""><img src="file:///etc/passwd" alt="">'
            '<img src="../../../../etc/passwd" alt=""></body></html>')
    data, pages = pdf.render_html(html)
    assert pages == 1
    _, text = read(data)
    assert "Bonjour" in text and "root:" not in text
    assert "http://example.com/x.png" in fetched and "file:///etc/passwd" in fetched
    # Each refusal is logged by WeasyPrint; nothing was read (no_network, and no text of passwd).
    assert any("example.com/x.png" in m for m in warnings_of(weasy_log))


# ------------------------------------------------------------------ blank pads


@pytest.mark.parametrize(("game_id", "variant"), PADS)
def test_blank_pad_has_every_row_with_its_reminder_and_the_tie_break_order(game_id, variant, weasy_log):
    pages, text = read(pdf.render_pad(game_id, variant))
    assert pages == 1
    game = games.GAMES[game_id]
    assert squash(f"{game.label} {game.variant_label(variant)}") in text
    for category in game.categories_for(variant):
        assert category.hint_for(variant), f"{game_id}.{category.key} has no reminder"
        assert squash(f"{category.label_for(variant)}{category.hint_for(variant)}") in text
    assert squash("Total") in text and squash("Place") in text
    assert text.count("nom") >= pdf.PAD_COLUMNS
    assert squash("En cas d'égalité") in text
    for line in game.tiebreaks[variant]:
        assert squash(line) in text
    assert warnings_of(weasy_log) == []


def test_unknown_pad_is_refused():
    with pytest.raises(pdf.UnknownPad) as caught:
        pdf.render_pad("chess", "base")
    assert caught.value.path == "game" and "jeu inconnu" in caught.value.message
    with pytest.raises(pdf.UnknownPad) as caught:
        pdf.render_pad("rebirth", "wales")
    assert caught.value.path == "variant" and "scotland ou ireland" in caught.value.message


def test_pad_route_serves_a_pdf_and_404s_unknown_pads(client):
    home = client.get("/").get_data(as_text=True)
    assert "/sheets/rebirth/scotland.pdf" in home and "/sheets/revive/abyss.pdf" in home
    response = client.get("/sheets/revive/abyss.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert 'filename="feuille-revive-abyss.pdf"' in response.headers["Content-Disposition"]
    pages, text = read(response.data)
    assert pages == 1 and squash("Revive Call of the Abyss") in text
    for url in ("/sheets/chess/base.pdf", "/sheets/rebirth/wales.pdf", "/sheets/revive/abyss.png"):
        missing = client.get(url)
        assert missing.status_code == 404
        assert "Page introuvable" in missing.get_data(as_text=True)
