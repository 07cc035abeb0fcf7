"""Reterra: grid-mode documents for 4 players scored per second, against json.loads of the
same document in the same run (5 slices taken in turn, wall and CPU time).

Run: `.venv/bin/python -m bench.bench_reterra` from the repository's folder. Scoring includes parsing
(json.loads), validation of every square and the segment search, as the API does it.
"""

from __future__ import annotations

import json

from bench.common import interleaved, report_both
from companion.games import score

# Four full communities with sources, relics, tokens, junk and inhabitants: every check runs.
GRIDS = [
    ["FFFFEEDD", "FFFFEEDD", "PPRREEDD", "PPRREEDD", "DDDDPPPP", "DDDDPPPP", "RRFFEEPP", "RRFFEEPP"],
    ["EEFFDDPP", "EEFFDDPP", "RREEEEPF", "RREEEEFF", "DDEEEEPP", "DPEEEERR", "FFPPDDRR", "FPPPDDRR"],
    ["FEFEFEFE", "EFEFEFEF", "DPDPDPDP", "PDPDPDPD", "RRRRRRRR", "RRRRRRRR", "FFFFDDDD", "FFFFDDDD"],
    ["PPPPPPPP", "PEEPDDRP", "PEEPDDRP", "PPPPPPPP", "FFRRFFRR", "FFRRFFRR", "EEDDEEDD", "EEDDEEDD"],
]
SOURCES = [[[1, 2]], [[1, 2], [2, 1], [2, 2]], [], [[3, 0], [3, 2]]]


def document() -> dict:
    players = []
    for i, (terrain, sources) in enumerate(zip(GRIDS, SOURCES, strict=True)):
        players.append({
            "name": f"Joueur {i + 1}",
            "grid": {
                "terrain": terrain,
                "sources": sources,
                "relics": [[0, 0], [3, 3], [6, 1], [7, 7]],
                "relic_tokens": [[1, 6], [5, 2]],
                "junk": [[7, 7], [5, 2]],
                "inhabitants": [[4, 4], [5, 5], [2, 0], [0, 7]],
            },
            "buildings": {"observatoire": i % 3, "terrain-de-sport": 1},
            "building_bonus": 2 * i,
        })
    return {"game": "reterra", "variant": "base",
            "buildings": [{"id": "observatoire", "name": "Observatoire", "points": 4},
                          {"id": "terrain-de-sport", "name": "Terrain de sport", "points": 3}],
            "players": players}


def main() -> dict:
    text = json.dumps(document())
    score(json.loads(text))  # fail loudly if the document does not score
    rates = interleaved(lambda: score(json.loads(text)), lambda: json.loads(text), seconds=2.0, rounds=5)
    return report_both("reterra grid mode, 4 players (scored documents)", rates, "json.loads")


if __name__ == "__main__":
    main()
