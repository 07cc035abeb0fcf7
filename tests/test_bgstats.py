"""Send to BG Stats (issue 14): the results pages link to BG Stats' documented createPlay URL; the
link, decoded, carries exactly the play: ids stable, date in UTC, ranks, winners, ties in comments."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone
from html import unescape
from urllib.parse import parse_qs, urlsplit

from played import HOSTILE, device_of, revive, store_games

from companion import bgstats, games

WHEN = datetime(2026, 11, 24, 21, 5, 9, tzinfo=timezone(timedelta(hours=1)))  # 20:05:09 UTC


def decode(url: str) -> dict:
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://app.bgstatsapp.com/createPlay.html"
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"]
    return json.loads(query["data"][0])


def link_of(doc, uid="0" * 32, when=WHEN) -> str:
    return bgstats.link(games.score(doc), uid=uid, played_at=when)


def test_every_field_of_a_play_with_ties():
    """Four players: A beats B on the machine tie-break, C and D share the 3rd place."""
    doc = revive(("Alice", 30), ("Bob", 30), ("Chloé", 20), ("Dan", 20),
                 p0={"machine_progress": 3}, p1={"machine_progress": 1})
    data = decode(link_of(doc, uid="ab" * 16))
    assert list(data) == ["sourceName", "sourcePlayId", "playDate", "game", "players", "comments"]
    assert data["sourceName"] == "Compagnon de score"
    assert data["sourcePlayId"] == bgstats.play_id("ab" * 16) and "ab" * 16 not in data["sourcePlayId"]
    assert data["playDate"] == "2026-11-24 20:05:09"
    assert data["game"] == {"name": "Revive (Base)", "sourceGameId": "companion-revive-base",
                            "highestWins": True, "noPoints": False}
    assert "bggId" not in data["game"]  # no source at hand confirms one
    assert data["players"] == [
        {"name": "Alice", "sourcePlayerId": bgstats.player_id("Alice"), "score": 30, "rank": 1,
         "winner": True, "startPlayer": True},
        {"name": "Bob", "sourcePlayerId": bgstats.player_id("Bob"), "score": 30, "rank": 2,
         "winner": False, "startPlayer": False},
        {"name": "Chloé", "sourcePlayerId": bgstats.player_id("Chloé"), "score": 20, "rank": 3,
         "winner": False, "startPlayer": False},
        {"name": "Dan", "sourcePlayerId": bgstats.player_id("Dan"), "score": 20, "rank": 3,
         "winner": False, "startPlayer": False},
    ]
    assert data["comments"].split("\n") == games.score(doc).explanation
    assert "A" in data["comments"] and "ils partagent la 3e place" in data["comments"]


def test_shared_win_marks_every_winner():
    data = decode(link_of(revive(("Alice", 25), ("Bob", 25), ("Chloé", 10))))
    assert [(p["rank"], p["winner"]) for p in data["players"]] == [(1, True), (1, True), (3, False)]
    assert "victoire partagée" in data["comments"]


def test_one_player_revive_and_no_tie_means_no_comments():
    data = decode(link_of(revive(("Solo", 42))))
    assert data["players"] == [{"name": "Solo", "sourcePlayerId": bgstats.player_id("Solo"), "score": 42,
                                "rank": 1, "winner": True, "startPlayer": True}]
    assert "comments" not in data


def test_ids_are_stable_and_distinct():
    assert bgstats.play_id("1" * 32) == bgstats.play_id("1" * 32) != bgstats.play_id("2" * 32)
    assert bgstats.player_id("Alice") == bgstats.player_id("  alice ") != bgstats.player_id("Alicia")
    assert bgstats.game_id("rebirth", "scotland") != bgstats.game_id("rebirth", "ireland")
    naive = datetime(2026, 11, 24, 20, 5, 9)  # SQLite gives stored UTC datetimes back without a zone
    assert bgstats.utc_text(naive) == bgstats.utc_text(WHEN.astimezone(UTC)) == "2026-11-24 20:05:09"


def test_link_is_compact_and_keeps_hostile_names_as_data():
    doc = revive(*[(name, 10 + i) for i, name in enumerate(HOSTILE[:4])])
    url = link_of(doc)
    assert "%20%22" not in url and "%2C%20" not in url  # no pretty-printing spaces
    assert not re.search(r"[\s\"<>'&]", url)  # everything special is percent-encoded
    assert [p["name"] for p in decode(url)["players"]] == HOSTILE[:4]


def test_results_and_share_pages_link_to_bg_stats(app, client):
    device = device_of(client)
    [record] = store_games(app, device, [revive(*[(n, 10 + i) for i, n in enumerate(HOSTILE[:4])])])
    for path in (f"/g/{record.edit_token}/resultats", f"/r/{record.view_token}/"):
        html = client.get(path).get_data(as_text=True)
        links = re.findall(r'<a class="button ghost" href="([^"]+)" rel="noopener noreferrer" '
                           r'target="_blank">Envoyer à BG Stats</a>', html)
        assert len(links) == 1, path
        data = decode(unescape(links[0]))
        assert data["sourcePlayId"] == bgstats.play_id(record.uid)
        assert data["playDate"] == "2026-01-01 20:00:00"
        assert [p["name"] for p in data["players"]] == HOSTILE[:4]
        assert "<script>alert" not in html and "<img src=x" not in html


def test_a_game_still_being_scored_has_no_link(app, client):
    device = device_of(client)
    [record] = store_games(app, device, [revive(("Alice", 3), ("Bob", 4))], status="draft")
    html = client.get(f"/r/{record.view_token}/").get_data(as_text=True)
    assert "Partie en cours de saisie" in html and "bgstatsapp" not in html
