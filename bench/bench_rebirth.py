"""Rebirth: documents scored per second for a full 4-player Ireland game with 12 cities,
against json.loads of the same document in the same run (5 slices taken in turn, wall and CPU time).

Run: `.venv/bin/python -m bench.bench_rebirth`
"""

from __future__ import annotations

import json

from bench.common import interleaved, report_both
from companion import games

NAMES = ("Aoife", "Brian", "Ciara", "Dara")


def ireland_game() -> dict:
    """A late-game table: every field filled, 12 cities of every size, ties to break, some incomplete."""
    players = []
    for i, name in enumerate(NAMES):
        players.append({
            "name": name, "track": 40 + 3 * i,
            "farms": {"agricultural": [4, 2, 1], "energy": [3, 1]},
            "ports": 2 + i, "incomplete_icons": i,
            "public_missions": [{"points": 7, "doubled": True}, {"points": 4}, {"points": 5}],
            "towers": [13, 3], "castles": 1 + i % 2,
            "privatized_missions": [{"points": 9, "achieved": i % 2 == 0}],
            "tara_adjacent": i,
        })
    cities = []
    for c in range(12):
        size = 1 + c % 4
        complete = c % 5 != 4
        count = size if complete else size - 1
        tiles = [{"player": NAMES[(c + k) % 4], "influence": 1 + (c * k) % 3 if k else 2, "order": k + 1}
                 for k in range(count)]
        cities.append({"size": size, "tiles": tiles})
    return {"game": "rebirth", "variant": "ireland", "players": players, "cities": cities, "blarney": "Brian"}


def main() -> dict:
    doc = ireland_game()
    text = json.dumps(doc, ensure_ascii=False)
    games.score(doc)  # fail loudly here, not inside the timing loop
    rates = interleaved(lambda: games.score(doc), lambda: json.loads(text), seconds=2.0, rounds=5)
    return report_both("rebirth (ireland, 4 players, 12 cities) scored", rates, "json.loads")


if __name__ == "__main__":
    main()
