"""English beside French (issue 13): the language a page, the API, the CLI and the PDF sheets speak.

French stays exactly as it was (the other tests check it, unchanged); here: what picks the language,
and the examples read in English with no French word left (tests/i18n_words.py)."""

from __future__ import annotations

import io
import json
import re

import pytest
from i18n_words import french_words
from played import device_of, store_games
from pypdf import PdfReader

from companion import games, pdf
from companion.cli import main
from companion.games import i18n
from document_helpers import load_example

EXAMPLES = ("rebirth-scotland.json", "reterra.json", "revive-abyss.json")
PADS = [("rebirth", "scotland"), ("rebirth", "ireland"), ("reterra", "base"), ("revive", "base"),
        ("revive", "abyss")]
NAMED = ("Maëlle", "Yanis", "Inès", "Terrain de sport", "terrain-de-sport")  # typed by the players


def visible(html: str) -> str:
    """The text a reader sees (tags, scripts' data and entities left out)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'data-strings="[^"]*"', " ", html)
    text = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"&[#\w]+;", " ", text)


def pdf_text(data: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


# ------------------------------------------------------------------ choosing the language


def test_the_browser_language_is_followed_and_french_stays_the_default(client):
    french = client.get("/")
    assert '<html lang="fr">' in french.get_data(as_text=True)
    assert "Qui a gagné, et pourquoi" in french.get_data(as_text=True)
    english = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9,fr;q=0.5"})
    html = english.get_data(as_text=True)
    assert '<html lang="en">' in html and "Who won, and why?" in html
    assert english.headers["Content-Language"] == "en"
    assert {"Accept-Language", "Cookie"} <= set(english.headers["Vary"].replace(" ", "").split(","))
    # a language the app does not speak: French
    assert '<html lang="fr">' in client.get("/", headers={"Accept-Language": "de-DE"}).get_data(as_text=True)


@pytest.mark.parametrize(("accept", "lang"), [
    ("en-GB,en;q=0.9,fr;q=0.5", "en"),
    ("fr;q=0.4, en;q=0.8", "en"),
    ("en;q=0.2, fr;q=0.9", "fr"),
    ("de-DE, en;q=0.1", "en"),
    ("de-DE", "fr"),
    ("*", "fr"),
    ("", "fr"),
    (";;;q=zz,,", "fr"),  # unreadable: the default
])
def test_each_accept_language_gives_the_same_language_every_time(client, accept, lang):
    for _ in range(2):  # the second is read from what the first found (once per process and text)
        page = client.get("/", headers={"Accept-Language": accept} if accept else {})
        assert f'<html lang="{lang}">' in page.get_data(as_text=True)
        assert page.headers["Content-Language"] == lang


def test_every_answer_says_what_it_varies_with(client):
    """A compressed page (its Vary set by compression first), a small one, a JSON answer."""
    def vary(response) -> set[str]:
        return set(response.headers["Vary"].replace(" ", "").split(","))

    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert {"Accept-Encoding", "Accept-Language", "Cookie"} <= vary(page)
    assert {"Accept-Language", "Cookie"} <= vary(client.get("/langue/en?next=/"))
    assert {"Accept-Language", "Cookie"} <= vary(client.get("/api/games"))


def test_the_switch_is_a_plain_link_remembered_in_a_cookie(client):
    html = client.get("/parties", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    links = dict(re.findall(r'<a href="(/langue/(?:fr|en)[^"]*)" hreflang="(\w+)"', html))
    assert len(links) == 2
    to_english = next(url for url, code in links.items() if code == "en").replace("&amp;", "&")
    answer = client.get(to_english)
    assert answer.status_code == 303 and answer.headers["Location"] == "/parties"
    assert "lang=en" in answer.headers["Set-Cookie"] and "HttpOnly" in answer.headers["Set-Cookie"]
    # the cookie wins over the browser's French
    page = client.get("/parties", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="en">' in page and "My games" in page
    assert 'aria-current="true">EN</a>' in page.replace("\n", "")
    client.get("/langue/fr?next=/")
    assert '<html lang="fr">' in client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example", ""])
def test_the_switch_only_goes_back_to_this_site(client, target):
    answer = client.get("/langue/en", query_string={"next": target})
    assert answer.headers["Location"] == "/"


def test_error_pages_and_flash_messages_in_english(client):
    page = client.get("/g/nope/", headers={"Accept-Language": "en"})
    assert page.status_code == 404
    assert "Page not found" in page.get_data(as_text=True)
    assert not french_words(visible(page.get_data(as_text=True)))


# ------------------------------------------------------------------ API


def test_api_answers_in_the_language_asked(client):
    doc = load_example("rebirth-scotland.json")
    doc["players"][0]["castles"] = 99
    french = client.post("/api/v1/score", json=doc).get_json()["errors"]
    assert french == [{"path": "players[0].castles", "message": "doit être entre 0 et 12"}]
    by_query = client.post("/api/v1/score?lang=en", json=doc).get_json()["errors"]
    by_header = client.post("/api/v1/score", json=doc,
                            headers={"Accept-Language": "en-US"}).get_json()["errors"]
    assert by_query == by_header == [{"path": "players[0].castles", "message": "must be between 0 and 12"}]
    not_json = client.post("/api/v1/score?lang=en", data="{", content_type="application/json")
    assert not_json.status_code == 400
    # said once, with where reading stopped (it read "not valid JSON: not valid JSON" before)
    assert not_json.get_json()["errors"] == [
        {"path": "document", "message": "the request body is not valid JSON (line 1, column 2)"}]


@pytest.mark.parametrize("name", EXAMPLES)
def test_api_scores_each_example_in_both_languages(client, name):
    doc = load_example(name)
    french = client.post("/api/v1/score", json=doc).get_json()
    english = client.post("/api/v1/score?lang=en", json=doc).get_json()
    assert french == games.score(doc).to_dict()  # unchanged: the engines' French by default
    # same numbers, same ranking; only the words differ
    assert [(p["name"], p["total"]) for p in english["players"]] == [(p["name"],
                                                                      p["total"]) for p in french["players"]]
    assert english["ranking"] == french["ranking"]
    words = " ".join([*english["explanation"],
                      *(line["detail"] for p in english["players"] for line in p["breakdown"])])
    assert not french_words(words, NAMED), words


def test_api_games_listing_in_english(client):
    listing = client.get("/api/v1/games", headers={"Accept-Language": "en"}).get_json()
    rebirth = next(g for g in listing if g["id"] == "rebirth")
    scotland = next(v for v in rebirth["variants"] if v["id"] == "scotland")
    assert scotland["label"] == "Scotland"
    labels = {b["key"]: b["label"] for b in scotland["breakdown"]}
    assert labels["castles"] == "Castles" and labels["farms"] == "Farms"
    assert scotland["tiebreaks"][0] == "Tie: the tied player holding Edinburgh Castle wins."


def test_engine_tie_sentences_in_english():
    doc = {"game": "revive", "variant": "base",
           "players": [{"name": "Ann", "track": 10, "resources": {"gears": 3}},
                       {"name": "Bob", "track": 10, "resources": {"gears": 1}},
                       {"name": "Cid", "track": 10, "resources": {"gears": 1}}]}
    with i18n.using("en"):
        result = games.score(doc)
    assert result.explanation == [
        "Ann, Bob and Cid tied (10 points); unconverted resources left: Ann 3, Bob 1, Cid 1; "
        "Ann wins, then Bob and Cid.",
        "Bob and Cid tied (10 points) for 2nd place; unconverted resources left: 1 each; "
        "total progress on the machine tracks: 0 each; they share 2nd place."]
    assert games.score(doc).explanation[0].startswith("Ann, Bob et Cid à égalité (10 points)")


def test_reterra_tie_on_inhabitants_in_english():
    """QA: the English tie sentence read "habitants: 0 each"."""
    doc = {"game": "reterra", "variant": "base",
           "players": [{"name": "Ann", "segments": 1}, {"name": "Bob", "segments": 1},
                       {"name": "Cid", "segments": 1, "inhabitants": 2}]}
    with i18n.using("en"):
        explanation = " ".join(games.score(doc).explanation)
    assert "Ann and Bob tied (3 points) for 2nd place; inhabitants: 0 each;" in explanation
    assert "habitants" not in explanation.replace("inhabitants", "")
    assert "habitants : 0 chacun" in " ".join(games.score(doc).explanation)


def _edinburgh_tie(players: int, stirling: str | None = None) -> dict:
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    doc = {"game": "rebirth", "variant": "scotland", "edinburgh": None, "stirling": stirling,
           "players": [{"name": n, "track": 20} for n in names]}
    doc["players"].append({"name": "Eve", "track": 30, "castles": 1 if stirling == "Eve" else 0})
    return doc


@pytest.mark.parametrize(("players", "english", "french"), [
    (2, "neither of them holds Edinburgh Castle", "aucun des deux ne tient le château d'Édimbourg"),
    (3, "none of them holds Edinburgh Castle", "aucun d'eux ne tient le château d'Édimbourg")])
def test_nobody_of_the_tie_holds_the_castle_says_neither_of_two(players, english, french):
    """QA (issue 24): two tied players read "none of them holds …"; English says "neither"."""
    doc = _edinburgh_tie(players)
    with i18n.using("en"):
        explanation = " ".join(games.score(doc).explanation)
    assert english in explanation
    assert french in " ".join(games.score(doc).explanation)


def test_stirling_held_outside_the_tie_reads_plainly_in_english():
    doc = _edinburgh_tie(2, stirling="Eve")
    with i18n.using("en"):
        explanation = " ".join(games.score(doc).explanation)
    assert ("neither of them holds Stirling Castle (Eve holds it, but a holder outside the tie only "
            "matters for 1st place)") in explanation


# ------------------------------------------------------------------ pages of the example games


@pytest.mark.parametrize("name", EXAMPLES)
def test_results_and_edit_pages_of_each_example_in_both_languages(app, client, name):
    doc = load_example(name)
    device = device_of(client)
    record = store_games(app, device, [doc])[0]
    pages = [f"/g/{record.edit_token}/", f"/g/{record.edit_token}/resultats", f"/r/{record.view_token}/",
             "/parties", "/statistiques"]
    result = games.score(doc)
    for url in pages:
        french = client.get(url, headers={"Accept-Language": "fr"})
        english = client.get(url, headers={"Accept-Language": "en"})
        assert french.status_code == english.status_code == 200, url
        assert '<html lang="fr">' in french.get_data(as_text=True)
        text = visible(english.get_data(as_text=True))
        assert not french_words(text, NAMED), (url, french_words(text, NAMED))
    results = visible(client.get(f"/g/{record.edit_token}/resultats", headers={"Accept-Language": "en"})
                      .get_data(as_text=True))
    assert "Score sheet" in results and "Total" in results
    for sentence in games.score(doc).explanation:  # the French page shows the engine's sentences
        assert sentence in client.get(f"/r/{record.view_token}/").get_data(as_text=True).replace("&#39;", "'")
    assert result.winners[0] in results


@pytest.mark.parametrize("name", EXAMPLES)
def test_sheet_of_each_example_in_both_languages(name):
    doc = load_example(name)
    french = pdf_text(pdf.render_sheet(doc))
    assert "Feuille de score" in french
    with i18n.using("en"):
        english = pdf_text(pdf.render_sheet(doc))
    assert "Score sheet" in english and "Feuille de score" not in english
    assert not french_words(english, NAMED), french_words(english, NAMED)


@pytest.mark.parametrize(("game", "variant"), PADS)
def test_blank_pads_in_english(game, variant):
    with i18n.using("en"):
        text = pdf_text(pdf.render_pad(game, variant))
    assert "Score sheet" in text and "In case of a tie" in text
    assert not french_words(text), french_words(text)
    assert "Feuille de score" in pdf_text(pdf.render_pad(game, variant))  # French pads unchanged


def test_pad_and_sheet_urls_follow_the_reader(app, client):
    english = client.get("/sheets/revive/abyss.pdf", headers={"Accept-Language": "en"})
    french = client.get("/sheets/revive/abyss.pdf", headers={"Accept-Language": "fr"})
    assert "Score sheet" in pdf_text(english.data) and "Feuille de score" in pdf_text(french.data)
    record = store_games(app, None, [load_example("revive-abyss.json")])[0]
    url = f"/r/{record.view_token}/sheet.pdf"
    en, fr = client.get(url, headers={"Accept-Language": "en"}), client.get(url)
    assert en.headers["ETag"] != fr.headers["ETag"]  # one cached sheet per language
    assert "Score sheet" in pdf_text(en.data) and "Feuille de score" in pdf_text(fr.data)


# ------------------------------------------------------------------ CLI


def run(argv, stdin_text=None):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(stdin_text or ""))
    return code, out.getvalue(), err.getvalue()


def test_cli_lang_en_anywhere_on_the_line(tmp_path):
    doc = load_example("rebirth-scotland.json")
    doc["players"][1]["castles"] = -1
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert run(["score", str(path)])[2] == "players[1].castles: doit être entre 0 et 12\n"
    assert run(["--lang", "en", "score", str(path)])[2] == "players[1].castles: must be between 0 and 12\n"
    assert run(["score", str(path), "--lang=en"])[2] == "players[1].castles: must be between 0 and 12\n"
    code, _, err = run(["--lang", "de", "score", str(path)])
    assert code == 2 and "--lang" in err
    code, out, _ = run(["score", "-", "--lang", "en"], json.dumps(load_example("reterra.json")))
    assert code == 0
    details = " ".join(line["detail"] for p in json.loads(out)["players"] for line in p["breakdown"])
    assert not french_words(details, NAMED), details


def test_cli_sheet_and_pad_in_english(tmp_path):
    source = tmp_path / "game.json"
    source.write_text(json.dumps(load_example("revive-abyss.json")), encoding="utf-8")
    sheet, pad = tmp_path / "sheet.pdf", tmp_path / "pad.pdf"
    assert run(["--lang", "en", "sheet", str(source), "-o", str(sheet), "--date", "2026-03-01",
                "--colours", "red,blue"])[0] == 0
    assert run(["pad", "rebirth", "ireland", "-o", str(pad), "--lang", "en"])[0] == 0
    text = pdf_text(sheet.read_bytes())
    assert "1 March 2026" in text and "red" in text and "blue" in text and not french_words(text, NAMED)

    assert not french_words(pdf_text(pad.read_bytes()))
    assert "jeu inconnu" not in run(["--lang", "en", "pad", "chess", "base", "-o", str(pad)])[2]


@pytest.mark.parametrize(("game", "variant"), PADS)
def test_forms_built_once_still_follow_each_reader(client, game, variant):
    """Form classes are cached: a page first built for a French reader is English for the next one."""
    from app_helpers import create_game

    token = create_game(client, game, variant, ["Maëlle", "Yanis"])
    urls = [f"/g/{token}/", f"/nouvelle?game={game}&variant={variant}"]
    if game == "rebirth":
        urls += [f"/g/{token}/outils/ville", f"/g/{token}/outils/chateau"]
    for url in urls:
        assert client.get(url).status_code == 200  # French first
        text = visible(client.get(url, headers={"Accept-Language": "en"}).get_data(as_text=True))
        assert not french_words(text, NAMED), (url, french_words(text, NAMED))
        again = visible(client.get(url).get_data(as_text=True))
        assert french_words(again, NAMED), url  # and French again after English


def test_saving_without_javascript_in_english(client):
    """The no-JS path: flash messages, a refused value beside its field, the error summary."""
    from app_helpers import create_game, error_beside, posted

    token = create_game(client, "rebirth", "scotland", ["Maëlle", "Yanis"])
    en = {"Accept-Language": "en"}
    page = posted(client.get(f"/g/{token}/", headers=en).get_data(as_text=True))
    answer = client.post(f"/g/{token}/", data=page | {"players-0-castles": "2", "action": "save"},
                         headers=en, follow_redirects=True)
    assert "Saved." in answer.get_data(as_text=True)
    page = posted(client.get(f"/g/{token}/", headers=en).get_data(as_text=True))
    refused = client.post(f"/g/{token}/", data=page | {"players-1-castles": "99", "action": "save"},
                          headers=en)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert "must be between 0 and 12" in error_beside(html, "players-1-castles")
    assert "Nothing was saved: correct the fields marked" in html and "To correct" in html
    assert not french_words(visible(html), NAMED)


@pytest.mark.parametrize("variant", ["scotland", "ireland"])
def test_castle_holder_and_tile_owner_blanks_are_in_english(client, variant):
    """QA (issue 24): the castle-holder chip "personne" and the tile owner's "choisir…" stayed French."""
    from app_helpers import create_game

    token = create_game(client, "rebirth", variant, ["Ana", "Bea"])
    english = client.get(f"/g/{token}/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert ">nobody<" in english and ">personne<" not in english
    assert ">choose…<" in english and ">choisir…<" not in english
    french = client.get(f"/g/{token}/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert ">personne<" in french and ">choisir…<" in french


def test_reterra_speaks_the_english_editions_words():
    """QA (issue 24): the English edition says spaces (not squares) and names its terrains Forest,
    Water, Desert, Grass and Asphalt (not plains, rocks)."""
    from companion.web.jsstrings import STRINGS

    doc = load_example("reterra.json")
    with i18n.using("en"):
        result = games.score(doc)
        details = " ".join(line.detail for p in result.players for line in p.breakdown)
        terrains = [i18n.tr(STRINGS[f"terrain_{k}"]) for k in "FEDPR"]
        bad_letter = games.validate({"game": "reterra", "variant": "base", "players": [
            {"name": "A", "grid": {"terrain": ["X" * 8] * 8}}, {"name": "B"}]})
    assert "spaces" in details and "square" not in details
    assert terrains == ["forest", "water", "desert", "grass", "asphalt"]
    messages = " ".join(p.message for p in bad_letter)
    assert "P (grass) or R (asphalt)" in messages and "plains" not in messages
