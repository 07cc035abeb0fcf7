"""Send to BG Stats (issue 14): the results pages link to BG Stats' documented createPlay URL; the
link, decoded, carries exactly the play: ids stable, date in UTC, ranks, winners, ties in comments."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone
from html import unescape
from urllib.parse import parse_qs, urlsplit

from played import HOSTILE, device_of, revive, store_games

from companion import games
from companion.outputs import bgstats

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


# --------------------------------------------------------------------------- duration (issue 31)


def test_duration_in_whole_minutes_only_when_it_is_a_sittings_length():
    start = datetime(2026, 11, 24, 20, 0, 0)  # naive: SQLite's stored UTC
    assert bgstats.duration_min(start, start + timedelta(minutes=47, seconds=29)) == 47
    assert bgstats.duration_min(start, start + timedelta(minutes=47, seconds=31)) == 48
    assert bgstats.duration_min(start.replace(tzinfo=UTC), WHEN) == 5  # zones read, 20:05:09 UTC
    assert bgstats.duration_min(start, start + timedelta(hours=12)) == 720
    for unknown in (None, start + timedelta(seconds=20), start + timedelta(hours=12, minutes=1),
                    start - timedelta(minutes=5)):
        assert bgstats.duration_min(start, unknown) is None, unknown  # entered afterwards, another day
    assert bgstats.duration_min(None, start) is None


def test_the_link_carries_the_duration_and_a_confirmed_boardgamegeek_id(monkeypatch):
    doc = revive(("Alice", 30), ("Bob", 20))
    data = decode(bgstats.link(games.score(doc), uid="0" * 32, played_at=WHEN, duration=95))
    assert list(data) == ["sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players"]
    assert data["durationMin"] == 95
    assert bgstats.BGG_IDS == {}  # no source at hand confirms one (docs/rulings.md): never invented
    assert "bggId" not in data["game"]
    monkeypatch.setitem(bgstats.BGG_IDS, "revive", 123456)  # where one is known, it is sent
    data = decode(bgstats.link(games.score(doc), uid="0" * 32, played_at=WHEN))
    assert data["game"]["bggId"] == 123456 and "durationMin" not in data


def test_the_game_records_when_it_was_first_scored_and_its_page_sends_the_duration(app, client):
    """Started on the new-game page, first scored by "Voir les résultats" 47 minutes later: the BG
    Stats link says 47; later saves, scored or back to a draft, never move that moment."""
    import sqlalchemy as sa
    from test_play import revive_form

    from app_helpers import autosave, create_game
    from companion.extensions import db
    from companion.storage.models import GameRecord, now

    token = create_game(client, "revive", "base", ["Alice", "Bob"])

    def row():
        with app.app_context():
            return db.session.execute(sa.select(GameRecord.created_at, GameRecord.first_scored_at,
                                                GameRecord.version, GameRecord.status)
                                      .where(GameRecord.edit_token == token)).one()

    with app.app_context():
        db.session.execute(sa.update(GameRecord).where(GameRecord.edit_token == token)
                           .values(created_at=now() - timedelta(minutes=47, seconds=10)))
        db.session.commit()
    assert autosave(client, token, 1, players__0__track=("", "12")).status_code == 200
    assert row().first_scored_at is None and row().status == "draft"  # entered, not scored yet

    doc = {"players": [{"name": "Alice", "track": 30}, {"name": "Bob", "track": 20}]}
    finish = revive_form(doc, row().version) | {"action": "finish"}
    assert client.post(f"/g/{token}/", data=finish).status_code == 302
    created, scored, version, status = row()
    assert status == "scored" and scored is not None
    assert bgstats.duration_min(created, scored) == 47
    html = client.get(f"/g/{token}/resultats").get_data(as_text=True)
    [url] = re.findall(r'href="([^"]+)" rel="noopener noreferrer" target="_blank">Envoyer à BG Stats', html)
    assert decode(unescape(url))["durationMin"] == 47

    doc["players"][1]["track"] = 25
    finish = revive_form(doc, version) | {"action": "finish"}
    assert client.post(f"/g/{token}/", data=finish).status_code == 302
    assert row().version == version + 1 and row().first_scored_at == scored  # set once
    from companion.storage import store

    with app.test_request_context("/"):  # back to a draft, then scored again: still the first moment
        held = store.held_by_edit_token(token)
        held = store.save(held, held.document, held.version, status="draft")
        store.save(held, held.document, held.version, status="scored")
    assert row().status == "scored" and row().version == version + 3 and row().first_scored_at == scored
