"""Settling a tie alone (issue 24): each game builds a consistent document from what a table tells
(`games.settle_tie`), the engine answers; every criterion the rules name changes the answer as they
say, the contract's bounds hold, bad input gets a French message beside its field and nothing is
stored. And Reterra's edition rule: inhabitants (French rules) or buildings (English edition's FAQ)."""

from __future__ import annotations

import re
from html import unescape

import pytest
import sqlalchemy as sa

from companion import games
from companion.extensions import db
from companion.games import InvalidDocument, TieQuestion
from companion.storage.models import GameRecord


def settle(game, variant, names, total, values, *, tied=None, edition=None):
    question = TieQuestion(variant, edition, tuple(names), tied or len(names), total, values)
    document, problems = games.hooks_of(game).tie_document(question)
    if document is not None:
        assert games.validate(document) == [], "the construction keeps the contract"
    result, problems = games.settle_tie(game, question)
    return result, problems


def winners(*args, **kwargs):
    result, problems = settle(*args, **kwargs)
    assert result is not None, problems
    return result.winners


# ------------------------------------------------------------------ Rebirth


def test_scotland_edinburgh_then_stirling_even_from_outside_the_tie():
    ana_bob = ["Ana", "Bob"]
    assert winners("rebirth", "scotland", ana_bob, 87, {"edinburgh": 0, "stirling": None}) == ["Ana"]
    assert winners("rebirth", "scotland", ana_bob, 87, {"edinburgh": 1, "stirling": 0}) == ["Bob"]
    # nobody tied holds Edinburgh: Stirling's holder among them wins
    assert winners("rebirth", "scotland", ana_bob, 87, {"edinburgh": None, "stirling": 1}) == ["Bob"]
    # R9: Stirling held by a player outside the tie: that player wins, the tied share the next place
    result, _ = settle("rebirth", "scotland", ["Ana", "Bob", "Cy"], 87, {"edinburgh": None, "stirling": 2},
                       tied=2)
    assert result.winners == ["Cy"]
    assert [p.players for p in result.ranking] == [["Cy"], ["Ana", "Bob"]]
    assert "Cy tient le château de Stirling et l'emporte même sans être à égalité" in result.explanation[0]
    # the tied players keep the told total, whoever holds the castles
    assert result.player("Ana").total == result.player("Bob").total == 87
    assert winners("rebirth", "scotland", ana_bob, 87, {"edinburgh": None, "stirling": None}) == ana_bob


def test_each_tie_has_its_short_answer_first():
    """The pages open each tie with one line (who, and what decided), the reasoning folded below."""
    result, _ = settle("rebirth", "scotland", ["Ana", "Bob", "Cy"], 87, {"edinburgh": None, "stirling": 2},
                       tied=2)
    assert result.answers == ["Cy gagne, puis Ana et Bob : Cy tient le château de Stirling",
                              "Ana et Bob : ils partagent la 2e place"]
    result, _ = settle("rebirth", "scotland", ["Ana", "Bob"], 87, {"edinburgh": 1, "stirling": None})
    assert result.answers == ["Bob gagne, puis Ana : Bob tient le château d'Édimbourg"]
    result, _ = settle("revive", "base", ["Ana", "Bob"], 40, {"leftover": [2, 4], "machine_progress": [0, 0]})
    assert result.answers == ["Bob gagne, puis Ana : ressources restantes non converties (Ana 2, Bob 4)"]
    # a tie no criterion splits: shared, and said so
    result, _ = settle("revive", "base", ["Ana", "Bob"], 40, {"leftover": [1, 1], "machine_progress": [3, 3]})
    assert result.answers == ["Ana et Bob : victoire partagée"]
    # one short answer per sentence, whatever the ties (a tie below first place too)
    for variant, values in (("scotland", {"edinburgh": 0, "stirling": None}),
                            ("ireland", {"blarney": None, "tara_adjacent": [1, 3, 3]})):
        result, _ = settle("rebirth", variant, ["Ana", "Bob", "Cy"], 60, values)
        assert len(result.answers) == len(result.explanation) >= 1
        assert all(len(a) < len(e) for a, e in zip(result.answers, result.explanation, strict=True))


def test_ireland_blarney_then_tara():
    names = ["Ana", "Bob", "Cy"]
    assert winners("rebirth", "ireland", names, 60, {"blarney": 2, "tara_adjacent": [5, 0, 0]}) == ["Cy"]
    result, _ = settle("rebirth", "ireland", names, 60, {"blarney": None, "tara_adjacent": [1, 3, 3]})
    assert result.winners == ["Bob", "Cy"]
    assert "cases adjacentes à la tour ronde de Tara : Ana 1, Bob 3, Cy 3" in result.explanation[0]
    assert [p.total for p in result.players] == [60, 60, 60]


def test_rebirth_a_total_too_small_for_the_castles_is_said_at_the_total():
    result, problems = settle("rebirth", "scotland", ["Ana", "Bob"], 7, {"edinburgh": 0, "stirling": 0})
    assert result is None
    assert [(p.path, p.message) for p in problems] == [
        ("total", "au moins 10 : Ana tient 2 châteaux (5 points chacun)")]


# ------------------------------------------------------------------ Reterra


def test_reterra_inhabitants_under_the_french_rules_buildings_under_the_english_edition():
    assert winners("reterra", "base", ["Ana", "Bob"], 40, {"inhabitants": [3, 5]}) == ["Bob"]
    assert winners("reterra", "base", ["Ana", "Bob"], 40, {"buildings": [3, 1]}, edition="en") == ["Ana"]
    both = ["Ana", "Bob"]
    assert winners("reterra", "base", both, 40, {"buildings": [2, 2]}, edition="en") == both
    # the fields asked follow the edition
    assert [f.key for f in games.tie_offered("reterra", "base")] == ["inhabitants"]
    assert [f.key for f in games.tie_offered("reterra", "base", "en")] == ["buildings"]


@pytest.mark.parametrize("total", [0, 3, 200, 264])
def test_reterra_every_total_within_bounds_is_a_valid_game(total):
    result, problems = settle("reterra", "base", ["Ana", "Bob"], total, {"inhabitants": [0, 0]})
    assert result is not None, problems
    assert [p.total for p in result.players] == [total, total]


def test_reterra_more_inhabitants_than_points_is_said_beside_that_player():
    result, problems = settle("reterra", "base", ["Ana", "Bob"], 4, {"inhabitants": [3, 5]})
    assert result is None and problems[0].path == "inhabitants[1]"
    assert problems[0].message.startswith("au plus 4")


# ------------------------------------------------------------------ Revive


@pytest.mark.parametrize("variant", ["base", "abyss"])
def test_revive_leftover_resources_then_machine_progress(variant):
    names = ["Ana", "Bob"]
    def won(leftover, machine):
        return winners("revive", variant, names, 80, {"leftover": leftover, "machine_progress": machine})

    assert won([4, 2], [0, 60]) == ["Ana"]  # leftover resources first, whatever the machines
    assert won([2, 2], [10, 12]) == ["Bob"]
    assert won([2, 2], [7, 7]) == names
    result, problems = settle("revive", variant, names, 501, {"leftover": [0, 0], "machine_progress": [0, 0]})
    assert result is None and problems[0].path == "total"


# ------------------------------------------------------------------ the engine's edition


def reterra_tie(inhabitants, buildings) -> dict:
    """Two players at 20: Ana and Bob, their inhabitants and buildings (a card worth 1)."""
    players = []
    for name, inh, bld in zip(("Ana", "Bob"), inhabitants, buildings, strict=True):
        players.append({"name": name, "inhabitants": inh, "buildings": {"maison": bld},
                        "building_bonus": 20 - inh - bld})
    return {"game": "reterra", "variant": "base", "players": players,
            "buildings": [{"id": "maison", "points": 1}]}


def test_a_reterra_tie_on_inhabitants_or_buildings_by_the_edition():
    doc = reterra_tie(inhabitants=(5, 2), buildings=(1, 4))
    assert games.score(doc).winners == ["Ana"]  # French rules by default
    assert games.score(doc, edition="fr").winners == ["Ana"]
    english = games.score(doc, edition="en")
    assert english.winners == ["Bob"]
    assert "bâtiments (règle de l'édition anglaise) : Ana 1, Bob 4" in english.explanation[0]
    # the totals do not depend on the edition
    assert [p.total for p in english.players] == [p.total for p in games.score(doc).players] == [20, 20]


def test_an_unknown_edition_is_an_error_with_its_path():
    doc = reterra_tie(inhabitants=(5, 2), buildings=(1, 4))
    with pytest.raises(InvalidDocument) as caught:
        games.score(doc, edition="de")
    assert caught.value.problems[0].path == "edition"
    with pytest.raises(InvalidDocument):  # a game with one rule set has no edition to choose
        games.score({"game": "revive", "variant": "base", "players": [{"name": "A"}]}, edition="en")


def test_the_api_and_the_cli_keep_the_french_rule_unless_asked(client, capsys, tmp_path):
    import json

    from companion import cli

    doc = reterra_tie(inhabitants=(5, 2), buildings=(1, 4))
    assert client.post("/api/v1/score", json=doc).get_json()["winners"] == ["Ana"]
    assert client.post("/api/v1/score?edition=en", json=doc).get_json()["winners"] == ["Bob"]
    bad = client.post("/api/v1/score?edition=xx", json=doc)
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["path"] == "edition"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert cli.main(["score", "--edition", "en", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == ["Bob"]


# ------------------------------------------------------------------ the page


def count_games(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(GameRecord))


def errors_of(html: str) -> dict[str, str]:
    return dict(re.findall(r'<p class="field-error" id="e-([^"]+)" role="alert">([^<]+)</p>', html))


def test_home_links_to_the_tie_page_which_offers_every_variant_and_edition(client):
    assert 'href="/egalite"' in client.get("/").get_data(as_text=True)
    page = client.get("/egalite").get_data(as_text=True)
    for args in ("game=rebirth&amp;variant=scotland", "game=rebirth&amp;variant=ireland",
                 "game=reterra&amp;variant=base\"", "game=reterra&amp;variant=base&amp;edition=en",
                 "game=revive&amp;variant=base", "game=revive&amp;variant=abyss"):
        assert args in page, args
    assert client.get("/egalite?game=chess&variant=base").status_code == 404


def test_the_page_asks_only_what_the_tie_break_reads(client):
    scotland = client.get("/egalite?game=rebirth&variant=scotland").get_data(as_text=True)
    assert "Château d&#39;Édimbourg" in scotland and "Château de Stirling" in scotland
    assert 'name="other-0"' in scotland  # Stirling's holder may be outside the tie
    assert "Tara" not in scotland and "Habitants" not in scotland
    ireland = client.get("/egalite?game=rebirth&variant=ireland").get_data(as_text=True)
    assert "Blarney" in ireland and 'name="tara_adjacent-0"' in ireland and 'name="other-0"' not in ireland
    reterra = client.get("/egalite?game=reterra&variant=base").get_data(as_text=True)
    assert 'name="inhabitants-0"' in reterra and "Château" not in reterra
    english = client.get("/egalite?game=reterra&variant=base&edition=en").get_data(as_text=True)
    assert 'name="buildings-0"' in english and 'name="inhabitants-0"' not in english
    revive = client.get("/egalite?game=revive&variant=abyss").get_data(as_text=True)
    assert 'name="leftover-0"' in revive and 'name="machine_progress-0"' in revive


def test_the_answer_is_the_engines_and_nothing_is_stored(app, client):
    before = count_games(app)
    answer = client.post("/egalite?game=rebirth&variant=scotland",
                         data={"name-0": "Ana", "name-1": "Bob", "total": "87", "edinburgh": "t0"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert '<h2 id="winner" class="winner">Ana gagne</h2>' in html
    assert ("Ana et Bob à égalité (87 points) ; Ana tient le château d&#39;Édimbourg ; Ana gagne, puis Bob."
            in html)
    assert count_games(app) == before


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"name-0": "Ana", "total": "87"}, "name-0", "Au moins deux joueurs à égalité."),
    ({"name-0": "Ana", "name-1": "ana", "total": "87"}, "name-1", "nom déjà pris"),
    ({"name-0": "Ana", "name-1": "Bob", "total": "huit"}, "total", "doit être un nombre entier"),
    ({"name-0": "Ana", "name-1": "Bob"}, "total", "champ obligatoire"),
    ({"name-0": "Ana", "name-1": "Bob", "total": "3", "edinburgh": "t0"}, "total", "au moins 5"),
    ({"name-0": "Ana", "name-1": "Bob", "total": "30", "edinburgh": "o0"}, "edinburgh",
     "choisissez un des joueurs"),
])
def test_bad_input_is_said_beside_its_field_and_nothing_is_stored(app, client, data, field, message):
    before = count_games(app)
    answer = client.post("/egalite?game=rebirth&variant=scotland", data=data)
    assert answer.status_code == 422
    said = errors_of(answer.get_data(as_text=True))
    assert message in said.get(field, ""), said
    assert count_games(app) == before


def test_a_number_out_of_its_bounds_is_said_beside_that_player(client):
    answer = client.post("/egalite?game=rebirth&variant=ireland",
                         data={"name-0": "Ana", "name-1": "Bob", "total": "50", "tara_adjacent-1": "9"})
    assert errors_of(answer.get_data(as_text=True)) == {"tara_adjacent-1": "doit être entre 0 et 8"}
    answer = client.post("/egalite?game=reterra&variant=base",
                         data={"name-0": "Ana", "name-1": "Bob", "total": "4", "inhabitants-1": "5"})
    assert list(errors_of(answer.get_data(as_text=True))) == ["inhabitants-1"]


def test_the_page_speaks_english(client):
    client.get("/langue/en?next=/")
    page = client.get("/egalite?game=revive&variant=base").get_data(as_text=True)
    assert "Settle a tie" in page and "Leftover resources not converted" in page and "Tied total" in page
    answer = client.post("/egalite?game=revive&variant=base", data={
        "name-0": "Ana", "name-1": "Bob", "total": "80", "leftover-0": "1", "leftover-1": "3"})
    answer = answer.get_data(as_text=True)
    assert "Bob wins" in answer


def start_form(html: str) -> dict:
    """The answer's "Saisir la partie complète" form as the page holds it: its inputs' values and
    each select's chosen option."""
    form = html[html.index('id="partie"'):]
    form = form[:form.index("</form>")]
    data: dict = {}
    for tag in re.findall(r"<input [^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        data[name.group(1)] = unescape(value.group(1)) if value else ""
    for name, options in re.findall(r'<select [^>]*name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        data[name] = re.search(r'value="(\d+)" selected', options).group(1)
    return data


def settled(client, query: str, data: dict) -> dict:
    answer = client.post(f"/egalite?{query}", data=data)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    html = answer.get_data(as_text=True)
    assert f'action="/egalite/partie?{query.replace("&", "&amp;")}"' in html
    return start_form(html)


def started_game(app, client, query: str, data: dict) -> GameRecord:
    response = client.post(f"/egalite/partie?{query}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    token = re.fullmatch(r"/g/([\w-]+)/#joueur-1", response.headers["Location"]).group(1)
    with app.app_context():
        return db.session.scalars(sa.select(GameRecord).where(GameRecord.edit_token == token)).one()


def test_the_full_game_starts_from_there_with_the_players_and_the_edition(app, client):
    query = "game=reterra&variant=base&edition=en"
    data = settled(client, query, {"name-0": "Ana", "name-1": "Bob", "total": "40", "buildings-0": "3"})
    started = client.post(f"/egalite/partie?{query}", data=data)
    again = client.post(f"/egalite/partie?{query}", data=data)
    assert started.status_code == again.status_code == 302
    assert started.headers["Location"] == again.headers["Location"]  # posted twice: one game
    with app.app_context():
        record = db.session.scalars(sa.select(GameRecord)).one()
        assert [p["name"] for p in record.document["players"]] == ["Ana", "Bob"]
        assert record.edition == "en" and record.game == "reterra"
        # the English edition's buildings are counted per card in play: not carried (docs/rulings.md)
        assert record.document["players"] == [{"name": "Ana"}, {"name": "Bob"}]
        assert record.status == "draft"


def test_a_scottish_tie_hands_over_its_castles_and_every_player_in_their_seat(app, client):
    query = "game=rebirth&variant=scotland"
    data = settled(client, query, {"name-0": "Ana", "name-1": "Bob", "other-0": "Cy", "total": "60",
                                   "edinburgh": "t1", "stirling": "o0"})
    # the rule reads seats: each player the tie named is asked theirs, the others may be added
    assert {k: v for k, v in data.items() if k.startswith("seat-")} == {
        "seat-p0": "1", "seat-p1": "2", "seat-p2": "3", "seat-p3": "4"}
    data.update({"player-0": "Dan", "seat-p0": "2", "seat-p1": "3", "seat-p2": "1", "seat-p3": "4"})
    record = started_game(app, client, query, data)
    doc = record.document
    assert [p["name"] for p in doc["players"]] == ["Cy", "Ana", "Bob", "Dan"]
    assert doc["edinburgh"] == "Bob" and doc["stirling"] == "Cy"
    assert record.status == "draft"  # the castles themselves are the table's to type
    assert len(record.colours) == 4
    page = client.get(f"/g/{record.edit_token}/").get_data(as_text=True)
    assert re.search(r'name="edinburgh" value="Bob" checked', page)  # Édimbourg's holder on the edit page


def test_an_irish_tie_hands_over_blarney_and_tara(app, client):
    query = "game=rebirth&variant=ireland"
    data = settled(client, query, {"name-0": "Ana", "name-1": "Bob", "total": "50", "blarney": "t0",
                                   "tara_adjacent-0": "2", "tara_adjacent-1": "5"})
    doc = started_game(app, client, query, data).document
    assert doc["blarney"] == "Ana"
    assert [(p["name"], p.get("tara_adjacent")) for p in doc["players"]] == [("Ana", 2), ("Bob", 5)]


def test_reterra_hands_over_the_inhabitants_and_revive_the_machine_progress(app, client):
    query = "game=reterra&variant=base"
    data = settled(client, query, {"name-0": "Ana", "name-1": "Bob", "total": "40", "inhabitants-0": "4",
                                   "inhabitants-1": "6"})
    assert not any(k.startswith("seat-") for k in data)  # Reterra reads no seat
    data["player-1"] = "Cy"
    doc = started_game(app, client, query, data).document
    assert doc["players"] == [{"name": "Ana", "inhabitants": 4}, {"name": "Bob", "inhabitants": 6},
                              {"name": "Cy"}]
    query = "game=revive&variant=abyss"
    data = settled(client, query, {"name-0": "Ana", "name-1": "Bob", "total": "70", "leftover-0": "3",
                                   "leftover-1": "1", "machine_progress-0": "12", "machine_progress-1": "9"})
    doc = started_game(app, client, query, data).document
    # the tied total and the leftover resources are no field of the contract (docs/rulings.md)
    assert doc["players"] == [{"name": "Ana", "machine_progress": 12}, {"name": "Bob", "machine_progress": 9}]
    assert doc["variant"] == "abyss"


@pytest.mark.parametrize("change, field, message", [
    ({"seat-p1": "1"}, "seat-p1", "place déjà prise par Ana"),
    ({"player-0": "ana"}, "player-0", "nom déjà pris par le joueur 1"),
    ({"player-0": "Dan", "seat-p3": "9"}, "seat-p3", "doit être entre 1 et 4"),
])
def test_a_wrong_seat_or_name_is_said_beside_it_and_nothing_is_stored(app, client, change, field, message):
    query = "game=rebirth&variant=scotland"
    data = settled(client, query, {"name-0": "Ana", "name-1": "Bob", "other-0": "Cy", "total": "60",
                                   "edinburgh": "t0"})
    data.update(change)
    response = client.post(f"/egalite/partie?{query}", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    error = re.search(rf'<p class="field-error" id="e-{field}" role="alert">([^<]*)</p>', html).group(1)
    assert message in unescape(error)
    assert 'id="winner"' in html  # the answer stays on the page, with what was typed
    with app.app_context():
        assert db.session.scalars(sa.select(GameRecord)).all() == []


# ------------------------------------------------------------------ a stored game's edition


def english_reterra(client, names=("Ana", "Bob")) -> str:
    data = {"game": "reterra", "variant": "base", "edition": "en"}
    for i, name in enumerate(names):
        data[f"players-{i}-name"] = name
    response = client.post("/nouvelle", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return re.fullmatch(r"/g/([\w-]+)/", response.headers["Location"]).group(1)


def store_tie(app, token: str) -> None:
    """The tie of `reterra_tie` written as the game's document (inhabitants to Ana, buildings to Bob)."""
    from companion.storage import store

    doc = reterra_tie(inhabitants=(5, 2), buildings=(1, 4))
    with app.test_request_context():
        record = store.by_edit_token(token)
        store.save(record, doc, record.version, status="scored")


def test_the_new_game_page_offers_the_edition_for_reterra_only(client):
    page = unescape(client.get("/nouvelle?game=reterra&variant=base").get_data(as_text=True))
    assert "Règle d'égalité" in page
    assert re.search(r'id="edition-fr" name="edition" value="fr" checked', page)
    assert 'name="edition"' not in client.get("/nouvelle?game=revive&variant=base").get_data(as_text=True)


def test_the_stored_edition_scores_and_is_said_on_results_and_survives_rejouer(app, client):
    token = english_reterra(client)
    store_tie(app, token)
    page = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    assert "Bob gagne" in page
    assert "le plus de bâtiments gagne (FAQ de l&#39;édition anglaise)" in page
    again = re.fullmatch(r"/g/([\w-]+)/", client.post(f"/g/{token}/rejouer").headers["Location"]).group(1)
    with app.app_context():
        records = {r.edit_token: r for r in db.session.scalars(sa.select(GameRecord))}
    assert records[token].edition == records[again].edition == "en"
    # the summary the statistics and the CSV read was made by the same rule
    assert records[token].summary["result"]["winners"] == ["Bob"]
    # a game left at the default stores nothing and says the French rule
    french = re.fullmatch(r"/g/([\w-]+)/", client.post("/nouvelle", data={
        "game": "reterra", "variant": "base", "players-0-name": "Ana", "players-1-name": "Bob"}
    ).headers["Location"]).group(1)
    store_tie(app, french)
    page = client.get(f"/g/{french}/resultats").get_data(as_text=True)
    assert "Ana gagne" in page and "le plus d&#39;habitants gagne (règles françaises)" in page
    client.get("/langue/en?next=/")
    english = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    assert "Tie: the player with the most buildings wins (English edition FAQ)." in english


def test_the_sheet_prints_the_editions_rule_in_its_tie_box(app, client):
    from test_pdf import read, squash

    token = english_reterra(client)
    store_tie(app, token)
    _pages, text = read(client.get(f"/g/{token}/sheet.pdf").data)
    assert squash("le plus de bâtiments gagne (FAQ de l'édition anglaise)") in text
    assert squash("Bob gagne") in text
    client.get("/langue/en?next=/")
    _pages, text = read(client.get(f"/g/{token}/sheet.pdf").data)
    assert squash("Tie: the player with the most buildings wins (English edition FAQ).") in text


def test_a_new_game_asked_again_with_another_edition_is_another_game(client):
    data = {"game": "reterra", "variant": "base", "players-0-name": "Ana", "players-1-name": "Bob"}
    french = client.post("/nouvelle", data=data).headers["Location"]
    assert client.post("/nouvelle", data=data).headers["Location"] == french  # the untouched twin
    assert client.post("/nouvelle", data={**data, "edition": "en"}).headers["Location"] != french


def test_every_field_of_the_tie_page_is_labelled_and_its_descriptions_exist(client):
    from test_accessibility import Page

    links = re.findall(r'href="(/egalite\?[^"]+)"', client.get("/egalite").get_data(as_text=True))
    assert len(links) == 6
    for url in links:
        page = Page()
        page.feed(client.get(unescape(url)).get_data(as_text=True))
        assert [ref for _field, ref in page.described if ref not in page.ids] == [], url
        assert [f for f in page.fields if f not in page.labelled] == [], url


def test_no_french_word_on_the_english_tie_pages(client):
    from i18n_words import french_words
    from test_i18n import visible

    client.get("/langue/en?next=/")
    links = re.findall(r'href="(/egalite\?[^"]+)"', client.get("/egalite").get_data(as_text=True))
    for url in links:
        url = unescape(url)
        form = {"name-0": "Ana", "name-1": "Bob", "total": "40"}
        for page in (client.get(url), client.post(url, data=form)):
            text = visible(page.get_data(as_text=True))
            assert french_words(text, ("Ana", "Bob", "FR")) == [], url


def test_the_cli_sheet_prints_the_english_editions_rule(tmp_path):
    import json

    from test_pdf import read, squash

    from companion import cli

    path, out = tmp_path / "game.json", tmp_path / "sheet.pdf"
    path.write_text(json.dumps(reterra_tie(inhabitants=(5, 2), buildings=(1, 4))), encoding="utf-8")
    assert cli.main(["sheet", "--edition", "en", "-o", str(out), str(path)]) == 0
    _pages, text = read(out.read_bytes())
    assert squash("Bob gagne") in text and squash("(FAQ de l'édition anglaise)") in text


def test_an_export_carries_the_edition_and_a_restore_keeps_it(app, client, tmp_path):
    import io
    import json

    from app_helpers import make_app

    token = english_reterra(client)
    store_tie(app, token)
    exported = json.loads(client.get("/parties/export.json").get_data(as_text=True))
    assert [g.get("edition") for g in exported["games"]] == ["en"]
    other = make_app(tmp_path / "other")
    phone = other.test_client()
    phone.get("/")
    text = json.dumps(exported).encode()
    answer = phone.post("/parties/importer", data={"file": (io.BytesIO(text), "mes-parties.json")},
                        content_type="multipart/form-data")
    assert answer.status_code == 302
    with other.app_context():
        record = db.session.scalars(sa.select(GameRecord)).one()
        assert record.edition == "en" and record.summary["result"]["winners"] == ["Bob"]
    # an edition the game does not have is refused with its path, and nothing is restored
    exported["games"][0]["edition"] = "de"
    exported["games"][0]["id"] = "0" * 32
    refused = phone.post("/parties/importer", content_type="multipart/form-data",
                         data={"file": (io.BytesIO(json.dumps(exported).encode()), "mes-parties.json")})
    assert "games[0].edition" in refused.get_data(as_text=True)
    with other.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(GameRecord)) == 1


def test_a_save_handing_over_the_default_rules_result_still_stores_the_editions_summary(app, client):
    """The saving service gives the write the engine's result (scored as the API does, by the default
    rule) so that a save scores once: for a game played by the English edition's rule, the summary
    the statistics read must still be that rule's (Bob, most buildings), not the French one's (Ana)."""
    from companion.storage import store

    token = english_reterra(client)
    doc = reterra_tie(inhabitants=(5, 2), buildings=(1, 4))
    assert games.score(doc).winners == ["Ana"]  # the French rule, as the service scores it
    with app.test_request_context():
        held = store.held_by_edit_token(token)  # the game as a save reads it (one Core query)
        assert held.edition == "en"
        store.save(held, doc, held.version, status="scored", result=games.score(doc))
    with app.app_context():
        record = db.session.scalars(sa.select(GameRecord).where(GameRecord.edit_token == token)).one()
    assert record.summary["result"]["winners"] == ["Bob"]
