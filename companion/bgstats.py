"""Send a scored play to BG Stats: its documented "create play" link, built from a Result.

Pure (no Flask, no database): the results pages call `link(...)`; the user taps it, so the page itself
never contacts BG Stats. The payload holds exactly the fields BG Stats documents for a pushed play:

    sourceName, sourcePlayId, playDate (UTC, "YYYY-MM-DD HH:MM:SS"),
    game {name, sourceGameId, highestWins, noPoints},
    players [{name, sourcePlayerId, score, rank, winner, startPlayer}], comments (the tie sentences)

Ids are stable so that sending one play twice, or from a restored copy, updates the same play in
BG Stats: the play's id is derived from the game's uid (kept by export and import), a game's id from
its game and variant, a player's id from the name (how the app recognises a player across games).
They are hashes, so the uid (which an import file carries) never leaves the app. `bggId` is left out:
no source at hand confirms the BoardGameGeek ids of these games (see docs/rulings.md).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from urllib.parse import quote

from .games import GAMES
from .games.core import Result

ENDPOINT = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Compagnon de score"


def _digest(*parts: str, size: int = 16) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:size]


def play_id(uid: str) -> str:
    return f"companion-{_digest('play', uid, size=24)}"


def game_id(game: str, variant: str) -> str:
    return f"companion-{game}-{variant}"


def player_id(name: str) -> str:
    """Same name (whatever its case or surrounding spaces) in any game: same player."""
    return f"companion-{_digest('player', name.strip().casefold())}"


def utc_text(moment: datetime) -> str:
    """BG Stats' date format, in UTC; a naive datetime (SQLite gives those back) is already UTC."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def game_name(game: str, variant: str) -> str:
    spec = GAMES[game]
    if len(spec.variants) == 1:
        return spec.label
    return f"{spec.label} ({spec.variant_label(variant)})"


def payload(result: Result, *, uid: str, played_at: datetime) -> dict:
    """The play as BG Stats reads it: players in seat order, the first seat starting."""
    players = []
    for seat, p in enumerate(result.players):
        players.append({
            "name": p.name,
            "sourcePlayerId": player_id(p.name),
            "score": p.total,
            "rank": result.place_of(p.name),
            "winner": p.name in result.winners,
            "startPlayer": seat == 0,
        })
    data = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(uid),
        "playDate": utc_text(played_at),
        "game": {
            "name": game_name(result.game, result.variant),
            "sourceGameId": game_id(result.game, result.variant),
            "highestWins": True,
            "noPoints": False,
        },
        "players": players,
    }
    if result.explanation:
        data["comments"] = "\n".join(result.explanation)
    return data


def link(result: Result, *, uid: str, played_at: datetime) -> str:
    """The createPlay URL: compact JSON (no spaces, accents kept as UTF-8), percent-encoded."""
    text = json.dumps(payload(result, uid=uid, played_at=played_at), ensure_ascii=False,
                      separators=(",", ":"))
    return f"{ENDPOINT}?data={quote(text, safe='')}"
