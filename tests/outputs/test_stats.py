"""Statistics (issue 14): per device and per player, every scored game of the device (not only the
history's latest 100), figures a player can check by hand, charts drawn on the server."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from pathlib import Path

import pytest
from played import HOSTILE, START, device_of, revive, store_games

from app_helpers import foreign_inline, holding_files
from companion import games
from companion.extensions import db
from companion.outputs import charts
from companion.outputs import stats as statistics
from companion.storage import store
from companion.storage.history import HISTORY_LIMIT
from companion.storage.models import GameRecord
from companion.web.lean import lean
from document_helpers import load_example


def page(client, player=None):
    """Status and HTML, its whitespace collapsed (sentences wrap in the template)."""
    response = client.get("/statistiques", query_string={"joueur": player} if player else None)
    return response.status_code, " ".join(response.get_data(as_text=True).split())


def table_rows(html: str, caption: str) -> list[list[str]]:
    """The body rows of the table captioned `caption`, as text cells."""
    table = re.search(r"<caption[^>]*>" + re.escape(caption) + r".*?</caption>(.*?)</table>", html, re.S)
    assert table, caption
    body = re.search(r"<tbody>(.*?)</tbody>", table.group(1), re.S).group(1)
    return [[" ".join(unescape(re.sub(r"<[^>]+>", " ", c)).split()) for c in
             re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


THREE = [revive(("Alice", 40), ("Bob", 30)),          # Alice wins
         revive(("Bob", 50), ("alice ", 20), ("Chloé", 50)),  # Bob and Chloé share (same everything)
         revive(("Alice", 35), ("Bob", 35), p0={"machine_progress": 2})]  # tie: Alice on machines


def test_no_game_yet(client):
    status, html = page(client)
    assert status == 200
    assert "Aucune partie terminée pour l'instant" in html and "<svg class=\"chart\"" not in html


def test_figures_per_game_player_and_category(app, client):
    device = device_of(client)
    store_games(app, device, THREE)
    store_games(app, device, [revive(("Alice", 90), ("Bob", 0))], status="draft")  # not counted
    store_games(app, "someone-else-000000000000", [revive(("Alice", 99), ("Bob", 0))])  # not this device
    status, html = page(client)
    assert status == 200 and "3 parties terminées sur cet appareil" in html
    assert table_rows(html, "Revive · Base : résultats par joueur") == [
        # name (latest spelling), plays, wins + rate, average, best
        ["Alice", "3", "2 67 %", "31,7", "40"],
        ["Bob", "3", "1 33 %", "38,3", "50"],
        ["Chloé", "1", "1 100 %", "50", "50"],
    ]
    track = games.GAMES["revive"].category("track").label
    cats = re.search(r'<table class="stats-table categories">(.*?)</table>', html, re.S).group(1)
    assert re.search(re.escape(track) + r"</th><td>37,1</td><td>50</td>", cats)  # 260 points / 7 players


def test_player_page_keeps_their_games_and_their_line(app, client):
    device = device_of(client)
    store_games(app, device, THREE)
    store_games(app, device, [revive(("Dan", 10), ("Eve", 12))])
    status, html = page(client, "CHLOÉ")
    assert status == 200
    assert "<h1>Statistiques de Chloé</h1>" in html
    assert "1 partie terminée sur cet appareil, 1 victoire (100 %)" in html
    assert table_rows(html, "Revive · Base : résultats par joueur") == [["Chloé", "1", "1 100 %", "50", "50"]]
    status, html = page(client, "Alice")
    assert "3 parties terminées sur cet appareil, 2 victoires (67 %)" in html
    status, html = page(client, "Personne")
    assert status == 404 and "Aucune partie terminée de « Personne » sur cet appareil." in html


def test_statistics_cover_more_than_the_history_page(app, client):
    device = device_of(client)
    many = HISTORY_LIMIT + 20
    store_games(app, device, [revive(("Alice", i), ("Bob", 200 - i)) for i in range(many)])
    history = client.get("/parties").get_data(as_text=True)
    assert history.count('class="history-item"') == HISTORY_LIMIT
    _, html = page(client)
    assert f"{HISTORY_LIMIT + 20} parties terminées" in html


def test_five_hundred_games_and_more_players_than_the_chart_shows(app, client):
    device = device_of(client)
    names = [f"Joueur {i}" for i in range(9)]
    docs = [revive(*[(names[(i + k) % 9], (i * 7 + k * 13) % 90) for k in range(4)]) for i in range(500)]
    store_games(app, device, docs)
    status, html = page(client)
    assert status == 200 and "500 parties terminées" in html
    assert len(table_rows(html, "Revive · Base : résultats par joueur")) == 9
    legend = re.search(r'<figcaption>\s*<ul class="legend"[^>]*>(.*?)</ul>', html, re.S).group(1)
    assert legend.count("<li>") == statistics.SERIES_MAX
    assert "Le graphique montre les 6 joueurs les plus présents ; le tableau les donne tous." in html
    svg = re.search(r'<svg class="chart".*?</svg>', html, re.S).group(0)
    assert svg.count("<polyline") == 6 and "<circle" not in svg  # 500 points: lines, no dots
    assert "500 parties terminées" in page(client)[1]  # second request: the memo, same answer


def test_a_saved_change_shows_at_once(app, client):
    """Scores are remembered per game *version*: saving a game changes its statistics."""
    device = device_of(client)
    [record] = store_games(app, device, [revive(("Alice", 10), ("Bob", 20))])
    assert table_rows(page(client)[1], "Revive · Base : résultats par joueur")[0] == \
        ["Bob", "1", "1 100 %", "20", "20"]
    with app.app_context():
        fresh = db.session.get(GameRecord, record.id)
        store.save(fresh, revive(("Alice", 60), ("Bob", 20)), fresh.version)
    assert table_rows(page(client)[1], "Revive · Base : résultats par joueur")[0] == \
        ["Alice", "1", "1 100 %", "60", "60"]


def test_games_are_grouped_by_game_and_variant(app, client):
    device = device_of(client)
    store_games(app, device, [load_example("rebirth-scotland.json"), load_example("reterra.json"),
                              load_example("revive-abyss.json"), revive(("Alice", 3), ("Bob", 4))])
    _, html = page(client)
    titles = re.findall(r'<h2 id="g-\d+">(.*?)</h2>', html)
    assert titles == ["Rebirth · Écosse", "Reterra", "Revive · Base", "Revive · Call of the Abyss"]
    assert html.count('<svg class="chart"') == 4


def test_one_game_chart_has_title_description_and_a_dot(app, client):
    device = device_of(client)
    store_games(app, device, [revive(("Alice", 12), ("Bob", 8))])
    _, html = page(client)
    svg = re.search(r'<svg class="chart".*?</svg>', html, re.S).group(0)
    assert 'role="img" aria-labelledby="chart-0-t chart-0-d"' in svg
    assert '<title id="chart-0-t">Revive · Base : totaux de chaque joueur au fil des parties</title>' in svg
    assert "Alice : 12; Bob : 8" in svg
    assert svg.count("<circle") == 2 and "1 janv. 2026" in svg


def test_hostile_names_are_escaped_in_tables_charts_and_links(app, client):
    device = device_of(client)
    store_games(app, device, [revive(*[(n, 10 * i) for i, n in enumerate(HOSTILE[:4])]),
                              revive(*[(n, 5) for n in HOSTILE[2:]])])
    for player, shown in ((None, "&lt;script&gt;alert(1)&lt;/script&gt;"),
                          (HOSTILE[1], "Statistiques de &#34;&gt;&lt;img src=x onerror=alert(1)&gt;")):
        status, html = page(client, player)
        assert status == 200
        assert "<script>alert" not in html and "<img src=x" not in html and "</svg>\" " not in html
        assert shown in html
    # the player links carry the name as a query value
    assert 'href="/statistiques?joueur=%3Cscript%3Ealert(1)%3C/script%3E"' in page(client)[1]


# ------------------------------------------------------------------ results page chart


def test_results_page_draws_the_category_mix_from_the_pad(app, client):
    device = device_of(client)
    doc = load_example("reterra.json")
    doc["players"][0]["name"] = HOSTILE[0]
    [record] = store_games(app, device, [doc])
    html = client.get(f"/g/{record.edit_token}/resultats").get_data(as_text=True)
    figure = re.search(r'<figure class="mix".*?</figure>', html, re.S).group(0)
    result = games.score(doc)
    labels = re.findall(r'aria-label="([^"]*)"', figure)
    assert len(labels) == len(result.players)
    for label, p in zip(labels, result.players, strict=True):
        said = unescape(label)
        assert said.startswith(f"{p.name} : ")
        for line in p.breakdown:
            if line.points:
                name = games.GAMES["reterra"].category(line.key).label
                assert f"{name} {games.core.points_text(line.points)}" in said
    assert "<script>alert" not in figure
    # its stylesheet: inside the page on a first visit, linked once the phone holds it
    url = f"/g/{record.edit_token}/resultats"
    sheet = Path(__file__).resolve().parent.parent.parent / "static" / "css" / "charts.css"
    assert f"<style>{lean(sheet.read_bytes(), 'text/css').decode()}</style>" in html
    holding_files(client, url)
    assert 'href="/static/css/charts.css?v=' in client.get(url).get_data(as_text=True)


# ------------------------------------------------------------------ pure parts


def test_summarise_counts_shared_wins_and_matches_names_without_case():
    plays = [statistics.play(str(i), "revive", "base", START + timedelta(days=i), d)
             for i, d in enumerate(THREE)]
    summary = statistics.summarise(plays)
    [group] = summary.groups
    alice = group.players[0]
    assert (alice.name, alice.plays, alice.wins, alice.best) == ("Alice", 3, 2, 40)
    assert alice.totals == [40, 20, 35]
    assert group.series["Alice"] == [(0, START, 40), (1, START + timedelta(days=1), 20),
                                     (2, START + timedelta(days=2), 35)]
    assert summary.names == ["Alice", "Bob", "Chloé"]
    assert statistics.summarise(plays, "nobody").groups == []
    assert statistics.play("x", "revive", "base", START, {"game": "revive"}) is None


def test_mix_bars_share_one_scale_and_put_negative_points_left_of_zero():
    bars = charts.category_mix(["A", "B", "Junk"], [("P1", [30, 10, -4]), ("P2", [20, 0, 0])])
    first, second = (str(b.svg) for b in bars)

    def widths(svg):
        return [float(w) for w in re.findall(r' width="([\d.]+)"', svg)]

    # span = 40 positive + 4 negative = 44 units over 360: 30 -> 245.5, 10 -> 81.8, 4 -> 32.7
    assert widths(first) == pytest.approx([245.5, 81.8, 32.7], abs=0.1)
    assert widths(second) == pytest.approx([163.6], abs=0.1)
    assert 'x="32.7"' in second  # zero sits after the largest negative, for every player
    assert 'aria-label="P1 : A 30, B 10, Junk \u22124"' in first


def test_chart_colours_never_carry_markup():
    assert charts.safe_colour('"><script>') == "#888888"
    assert charts.safe_colour("#abcdef") == "#abcdef"


def test_new_pages_keep_the_csp(app, client):
    """Charts use presentation attributes, never inline styles (the CSP forbids them), and no script."""
    device = device_of(client)
    [record] = store_games(app, device, [revive(*[(n, 10 + i) for i, n in enumerate(HOSTILE[:4])])])
    for url in ("/statistiques", "/statistiques?joueur=%3Cscript%3Ealert(1)%3C/script%3E",
                f"/g/{record.edit_token}/resultats", "/parties/importer", "/parties"):
        response = client.get(url)
        html = response.get_data(as_text=True)
        assert response.status_code == 200, url
        assert " style=" not in html and "onclick" not in html, url
        # no inline style or script but a first visit's own files, each allowed by its hash
        assert not foreign_inline(response), url
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]


# ------------------------------------------------------------------ remembered summaries


def test_each_game_is_scored_once_then_read_from_its_summary(app, client, monkeypatch):
    from companion.storage import summaries as view

    device = device_of(client)
    made = store_games(app, device, THREE)
    first = page(client)[1]
    with app.app_context():
        kept = {r.id: (r.summary, r.updated_at) for r in db.session.scalars(db.select(GameRecord))}
    for record in made:
        summary, updated = kept[record.id]
        assert summary["version"] == record.version and summary["engine"] == view.ENGINE
        assert updated.replace(tzinfo=None) == record.updated_at.replace(tzinfo=None)  # history order kept
    calls = []
    real = games.score
    monkeypatch.setattr(games, "score", lambda doc, *a: calls.append(doc) or real(doc, *a))
    assert page(client)[1] == first and calls == []  # nothing scored again
    monkeypatch.setattr(view, "ENGINE", "another-engine")  # the rules' code changed: all again
    assert page(client)[1] == first and len(calls) == 3


def test_a_damaged_summary_is_made_again(app, client):
    device = device_of(client)
    [record] = store_games(app, device, [revive(("Alice", 10), ("Bob", 20))])
    page(client)
    with app.app_context():
        fresh = db.session.get(GameRecord, record.id)
        fresh.summary = {**fresh.summary, "result": {"keys": ["track"], "players": [["Bob", ["x"]]]}}
        db.session.commit()
    assert table_rows(page(client)[1], "Revive · Base : résultats par joueur")[0] == \
        ["Bob", "1", "1 100 %", "20", "20"]


def test_halves_round_up_as_a_player_rounds_by_hand(app, client):
    """40.25 reads "40,3" and a 62.5 % win rate "63 %" (Python's round-half-even gave "40,2" and "62 %")."""
    device = device_of(client)
    won, lost = revive(("Alice", 41), ("Bob", 0)), revive(("Alice", 39), ("Bob", 50))
    store_games(app, device, [won] * 5 + [lost] * 3)
    status, html = page(client)
    assert status == 200
    assert table_rows(html, "Revive · Base : résultats par joueur") == [
        ["Alice", "8", "5 63 %", "40,3", "41"],  # 322 points / 8 plays
        ["Bob", "8", "3 38 %", "18,8", "50"],
    ]


def test_negative_points_are_drawn_in_their_category_colour_and_named():
    """Reterra's junk left of zero: the colour the legend gives it and its name on hover, not an
    unnamed grey (the legend's pink swatch matched nothing, the grey looked like a terrain)."""
    bars = charts.category_mix(["A", "B", "Junk", "Other"], [("P1", [30, 10, -4, -2])])
    svg = str(bars[0].svg)
    left = re.findall(r'<rect x="([\d.]+)" y="0" width="([\d.]+)" height="14" fill="([^"]+)"[^>]*>'
                      r'<title>([^<]*)</title>', svg)
    negative = [(float(x), float(w), fill, title) for x, w, fill, title in left if "\u2212" in title]
    assert [(fill, title) for _, _, fill, title in negative] == [
        (charts.category_colour(2), "Junk : \u22124"), (charts.category_colour(3), "Other : \u22122")]
    # Junk next to zero, Other beyond it: together they fill 0 .. zero.
    (x1, w1, _, _), (x2, w2, _, _) = negative
    assert x2 == pytest.approx(0, abs=0.1) and x2 + w2 == pytest.approx(x1, abs=0.1)
    assert w1 == pytest.approx(2 * w2, abs=0.1)


def test_english_statistics_use_a_decimal_point_and_no_space_before_percent(app, client):
    """QA (issue 24): English statistics read "26,5" and "67 %", French number formats."""
    device = device_of(client)
    store_games(app, device, THREE)
    english = client.get("/statistiques", headers={"Accept-Language": "en"})
    html = " ".join(english.get_data(as_text=True).split())
    rows = table_rows(html, "Revive · Base game: results by player")
    assert rows[0] == ["Alice", "3", "2 67%", "31.7", "40"]
    assert "," not in "".join(cell for row in rows for cell in row)


def test_the_history_says_winner_with_english_punctuation(app, client):
    device = device_of(client)
    store_games(app, device, THREE)
    history = client.get("/parties", headers={"Accept-Language": "en"})
    english = " ".join(history.get_data(as_text=True).split())
    assert re.search(r"Winner: <b>Alice</b>", english) and "Winner :" not in english
    french = " ".join(client.get("/parties").get_data(as_text=True).split())
    assert re.search(r"Gagnant : <b>Alice</b>", french)


def test_the_page_grows_with_its_games_and_nothing_else(app, client, monkeypatch):
    """Issue 33: the CPU per game of a 5,000-game page was half again that of a 2,000-game one (the
    garbage collector walking the page's pile again and again). Counted, not timed: as many queries
    for 90 games as for 30, each game's summary read once, each spelling of a name folded once per
    page, and the collector held off while the page is built, back on after."""
    import gc

    import sqlalchemy as sa


    names = ["Alice", "Bob", "Chloé", "alice "]
    small, large = device_of(client), "device-of-ninety-games-0000"
    store_games(app, small, [revive((names[i % 4], i), (names[(i + 2) % 4], 3)) for i in range(30)])
    store_games(app, large, [revive((names[i % 4], i), (names[(i + 2) % 4], 3)) for i in range(90)])
    other = app.test_client()
    other.set_cookie("companion_device", large)
    assert "30 parties terminées" in page(client)[1] and "90 parties terminées" in page(other)[1]

    counts = {"queries": 0, "summaries": 0, "folds": 0}
    collector_on = []
    with app.app_context():
        engine = db.engine

    def query(*_):
        counts["queries"] += 1

    sa.event.listen(engine, "before_cursor_execute", query)
    real_from, real_key, real_summarise = statistics.from_summary, statistics.key_of, statistics.summarise
    monkeypatch.setattr(statistics, "from_summary",
                        lambda *a: counts.__setitem__("summaries", counts["summaries"] + 1) or real_from(*a))
    monkeypatch.setattr(statistics, "key_of",
                        lambda name: counts.__setitem__("folds", counts["folds"] + 1) or real_key(name))
    monkeypatch.setattr(statistics, "summarise",
                        lambda *a: collector_on.append(gc.isenabled()) or real_summarise(*a))
    seen = {}
    try:
        for label, who in (("small", client), ("large", other)):
            counts.update(queries=0, summaries=0, folds=0)
            _, html = page(who)
            seen[label] = dict(counts)
    finally:
        sa.event.remove(engine, "before_cursor_execute", query)
    assert "90 parties terminées" in html
    assert seen["small"]["queries"] == seen["large"]["queries"]
    assert (seen["small"]["summaries"], seen["large"]["summaries"]) == (30, 90)
    assert seen["small"]["folds"] == seen["large"]["folds"] <= len(names)  # per spelling, not per line
    assert collector_on == [False, False] and gc.isenabled()
