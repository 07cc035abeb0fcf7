"""Per-version summaries of stored games: what the statistics and the CSV export need of a result.

`GameRecord.summary` holds, for the version it was made for and the engine that made it (a hash of
the rules' code), the players' names in seat order and, when the document scores, the breakdown
keys, each player's points per key, their places and the winners:

    {"version": 7, "engine": "3f…", "names": ["Maëlle", "Yanis"],
     "result": {"keys": ["track", …], "players": [["Maëlle", [12, …]], …], "places": [1, 2],
                "winners": ["Maëlle"]}}          # "result": null when the document does not score

It is written with the document, in the same statement (`store.save`, `store.create`, the restore):
a visit to the statistics or an export of 5,000 games reads them and scores nothing. Migration
`i22a0summary2` made them for the games stored before. A summary is never the truth: one that is
missing, damaged, for another version or by another engine is made again from the document
(`of`) by whoever reads it, so an upgrade of the rules is still right, only slower the first time.
Flask-free.
"""

from __future__ import annotations

import hashlib
from operator import attrgetter
from pathlib import Path

from .. import games
from ..games.core import Result

FORMAT = 2  # what a summary holds; part of the engine's hash, so older summaries are made again


def _engine_fingerprint() -> str:
    """Changes whenever the scoring code does (or what a summary holds)."""
    digest = hashlib.sha256(f"summary-{FORMAT}".encode())
    for path in sorted(Path(games.__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


ENGINE = _engine_fingerprint()


def of_result(result: Result) -> dict:
    """What is kept of a result: keys once, each player's name and points in seat order, places, winners."""
    keys = list(map(_KEY, result.players[0].breakdown)) if result.players else []
    once = len(set(keys)) == len(keys)  # each key on one line (every game's)
    # each name's first place, as `Result.place_of` finds it, read once
    places = {name: place.place for place in reversed(result.ranking) for name in place.players}
    return {"keys": keys,
            "players": [[p.name, _points(p.breakdown, keys, once)] for p in result.players],
            "places": [places[p.name] for p in result.players],
            "winners": list(result.winners)}


_KEY, _POINTS = attrgetter("key"), attrgetter("points")


def _points(breakdown: list, keys: list[str], once: bool) -> list[int]:
    """A player's points for each of `keys`, as `PlayerScore.points` finds them (the first line of a
    key): their lines' own when these have these keys in this order, each once (read in C)."""
    if once and list(map(_KEY, breakdown)) == keys:
        return list(map(_POINTS, breakdown))
    own = {line.key: line.points for line in reversed(breakdown)}
    return [own[k] for k in keys]


def names_of(document: object) -> list[str]:
    players = document.get("players") if isinstance(document, dict) else None
    if not isinstance(players, list):
        return []
    return [p.get("name", "") if isinstance(p, dict) and isinstance(p.get("name", ""), str) else ""
            for p in players]


def make(document: object, version: int, result: Result | None | bool = False,
         edition: str | None = None) -> dict:
    """The summary of `document` stored at `version`; `result` when the caller already scored it
    (None: it does not score), else it is scored here (by the game's `edition`, its places)."""
    if result is False:
        result = score(document, edition)
    return {"version": version, "engine": ENGINE, "names": names_of(document),
            "result": of_result(result) if result is not None else None}


def score(document: object, edition: str | None = None) -> Result | None:
    try:
        return games.score(document, edition=edition) if edition else games.score(document)
    except games.InvalidDocument:
        return None


def current(summary: object, version: int) -> bool:
    """Whether a stored summary stands for this version, as the present engine scores it. Its
    shape is checked by whoever reads it (`result_of`, stats.from_summary): a hand-edited database
    gets a summary made again, never a broken page."""
    return (isinstance(summary, dict) and summary.get("version") == version
            and summary.get("engine") == ENGINE and isinstance(summary.get("names"), list))


def result_of(summary: dict) -> dict | None:
    """The summary's result when it is well formed (None: the document does not score); raises
    ValueError when it is not."""
    result = summary.get("result")
    if result is None:
        return None
    try:
        keys, players = result["keys"], result["players"]
        places, winners, seats = result["places"], result["winners"], len(summary["names"])
        if (isinstance(keys, list) and all(isinstance(k, str) for k in keys)
                and isinstance(players, list) and len(players) == seats == len(places)
                and all(isinstance(name, str) and isinstance(points, list) and len(points) == len(keys)
                        and all(type(x) is int for x in points) for name, points in players)
                and all(type(p) is int for p in places)
                and isinstance(winners, list) and all(isinstance(w, str) for w in winners)):
            return result
    except (KeyError, TypeError, ValueError):
        pass
    raise ValueError("damaged summary")


def of(summary: object, version: int, document: object) -> dict:
    """The stored summary when it is current, else one made now from the document."""
    return summary if current(summary, version) else make(document, version)
