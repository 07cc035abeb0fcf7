"""Revive: 4-player Call of the Abyss documents scored per second, against json.loads of the same
document in the same run.

Run: `.venv/bin/python -m bench.bench_revive`. Two documents: every field filled with distinct
totals, and a four-way tie that goes down the whole V6 chain (ranking's slowest path).
"""

from __future__ import annotations

import json

from bench.common import interleaved, report_both
from companion import games


def player(name: str, track: int, resources: dict, machine: int, four_token: bool = False) -> dict:
    return {
        "name": name, "track": track, "progress": 6,
        "card_bonus": [{"unlocked": True, "cards": 4}, {"unlocked": False, "cards": 3},
                       {"unlocked": True, "cards": 2}],
        "scyphoz": 2, "great_locations": [5, 8], "four_token": four_token, "two_tokens": 1,
        "resources": resources, "artifacts": [2, 1, 0], "artifact_points": 7,
        "artifact_card": [{"count": 6, "points": 1}, {"count": 3, "points": 2}, {"count": 4, "points": 1}],
        "devotion": 12, "machine_progress": machine,
    }


def documents() -> dict[str, dict]:
    distinct = [player(n, t, {"gears": 3, "books": 2, "food": 1, "crystals": 1}, 10, n == "Ana")
                for n, t in (("Ana", 60), ("Ben", 72), ("Cléo", 55), ("Dan", 48))]
    # Equal totals (Ben's 6 gears make up his 1 point less on the track); Ana wins on leftover
    # resources, Ben takes 2nd on machine progress, Cléo and Dan share 3rd.
    tied = [player("Ana", 67, {"books": 4}, 3), player("Ben", 66, {"gears": 6}, 12),
            player("Cléo", 67, {"crystals": 1}, 10), player("Dan", 67, {"food": 1}, 10)]
    return {
        "4 joueurs, totaux distincts": {"game": "revive", "variant": "abyss", "players": distinct},
        "4 joueurs à égalité (départage complet)": {"game": "revive", "variant": "abyss", "players": tied},
    }


def main() -> list[dict]:
    results = []
    for label, doc in documents().items():
        text = json.dumps(doc, ensure_ascii=False)
        result = games.score(doc)
        totals = ", ".join(f"{p.name} {p.total}" for p in result.players)
        print(f"{label} : {totals} ; {len(result.explanation)} phrase(s) de départage")
        rates = interleaved(lambda doc=doc: games.score(doc), lambda text=text: json.loads(text),
                            seconds=2.0, rounds=5)
        results.append(report_both(f"revive score ({label})", rates, "json.loads"))
    return results


if __name__ == "__main__":
    main()
