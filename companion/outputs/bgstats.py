"""Send a scored play to BG Stats: its documented "create play" link, built from a Result.

Pure (no Flask, no database): the results pages call `link(...)`; the user taps it, so the page itself
never contacts BG Stats. The payload holds exactly the fields BG Stats documents for a pushed play:

    sourceName, sourcePlayId, playDate (UTC, "YYYY-MM-DD HH:MM:SS"), durationMin (when known),
    game {name, sourceGameId, highestWins, noPoints, bggId (when known)},
    players [{name, sourcePlayerId, score, rank, winner, startPlayer}], comments (the tie sentences)

Ids are stable so that sending one play twice, or from a restored copy, updates the same play in
BG Stats: the play's id is derived from the game's uid (kept by export and import), a game's id from
its game and variant, a player's id from the name (how the app recognises a player across games).
They are hashes, so the uid (which an import file carries) never leaves the app. `bggId` is sent for
the games of `BGG_IDS` only, which is empty: no source at hand confirms the BoardGameGeek ids of these
games (see docs/rulings.md), and a wrong one would file the play under another game.

`durationMin` is the time from the game's creation (the table starting it on the new-game page) to
the save that first made it scored ("Voir les résultats"), in whole minutes; left out when unknown
(a game scored before this was recorded, or restored without it) or not a sitting's length
(`duration_min`: under a minute, entered after the game; over `LONGEST` minutes, scored another day).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from urllib.parse import quote

from ..games import GAMES
from ..games.core import Result

ENDPOINT = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Compagnon de score"
# BoardGameGeek ids by game id (the variants are one BoardGameGeek game): only ids a source confirms.
BGG_IDS: dict[str, int] = {}
LONGEST = 12 * 60  # minutes: a longer span is a game left open and scored later, not its duration


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


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def duration_min(started: datetime | None, scored: datetime | None) -> int | None:
    """Whole minutes from `started` to `scored` (rounded), None when either is unknown or the span
    is not a game's length (under a minute, or over LONGEST)."""
    if started is None or scored is None:
        return None
    minutes = round((_utc(scored) - _utc(started)).total_seconds() / 60)
    return minutes if 1 <= minutes <= LONGEST else None


def game_name(game: str, variant: str) -> str:
    spec = GAMES[game]
    if len(spec.variants) == 1:
        return spec.label
    return f"{spec.label} ({spec.variant_label(variant)})"


def payload(result: Result, *, uid: str, played_at: datetime, duration: int | None = None) -> dict:
    """The play as BG Stats reads it: players in seat order, the first seat starting; `duration` in
    minutes (`duration_min`), left out when None."""
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
    }
    if duration is not None:
        data["durationMin"] = duration
    data["game"] = {
        "name": game_name(result.game, result.variant),
        "sourceGameId": game_id(result.game, result.variant),
        "highestWins": True,
        "noPoints": False,
    }
    if result.game in BGG_IDS:
        data["game"]["bggId"] = BGG_IDS[result.game]
    data["players"] = players
    if result.explanation:
        data["comments"] = "\n".join(result.explanation)
    return data


def link(result: Result, *, uid: str, played_at: datetime, duration: int | None = None) -> str:
    """The createPlay URL: compact JSON (no spaces, accents kept as UTF-8), percent-encoded."""
    text = json.dumps(payload(result, uid=uid, played_at=played_at, duration=duration), ensure_ascii=False,
                      separators=(",", ":"))
    return f"{ENDPOINT}?data={quote(text, safe='')}"
