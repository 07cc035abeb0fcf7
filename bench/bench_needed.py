"""What would I have needed? (issue 31): the search for every player who did not win, in CPU time, for
4-player games of each variant (and Reterra's two editions), against two floors measured in the same
run: json.loads of the same document, and one `games.score` of it (the search scores candidates with
it: the ratio says how many scorings the search costs).

Run: `.venv/bin/python -m bench.bench_needed`. The target: at most 0.3 s of CPU for a 4-player game of
any variant. Each variant has a close game (a few points apart: small changes, pairs searched), a
spread one (one player far behind: levers up to their bounds) and, where it happens, a tie.
"""

from __future__ import annotations

import json
import time

from bench.common import interleaved, report_both
from companion import games

TARGET_CPU = 0.3
NAMES = ("Ana", "Ben", "Cléo", "Dan")


def rebirth(variant: str, tracks: tuple[int, ...]) -> dict:
    players = []
    for i, (name, track) in enumerate(zip(NAMES, tracks, strict=True)):
        p = {"name": name, "track": track, "castles": 1 + i % 2, "ports": 2,
             "farms": {"agricultural": [3, 2], "energy": [2]}, "incomplete_icons": 1}
        if variant == "scotland":
            p["missions"] = [{"points": 5, "achieved": True}, {"points": 7, "achieved": False}]
            p["gifts"] = i % 2
        else:
            p["public_missions"] = [{"points": 7, "doubled": i == 0}]
            p["towers"] = [3] if i % 2 else []
            p["tara_adjacent"] = i
        players.append(p)
    doc = {"game": "rebirth", "variant": variant, "players": players,
           "cities": [{"size": 2, "tiles": [{"player": "Ana", "influence": 3, "order": 1},
                                            {"player": "Ben", "influence": 2, "order": 2}]},
                      {"size": 3, "tiles": [{"player": "Cléo", "influence": 2}]}]}
    if variant == "scotland":
        doc |= {"edinburgh": "Ben", "stirling": None}
    else:
        doc["blarney"] = None
    return doc


CARDS = [{"id": f"carte-{k}", "name": f"Carte {k}", "points": k % 4} for k in range(1, 7)]


def reterra(bonus: tuple[int, ...]) -> dict:
    players = [{"name": name, "segments": 3, "energy_sources": 1, "relics": 4, "junk": 1,
                "inhabitants": 3 + i, "buildings": {"carte-1": 1, "carte-2": i % 2}, "building_bonus": b}
               for i, (name, b) in enumerate(zip(NAMES, bonus, strict=True))]
    return {"game": "reterra", "variant": "base", "buildings": CARDS, "players": players}


def reterra_many_cards() -> dict:
    """The most levers a player can have: 15 cards in play (each worth 1), energy sources and segments
    at their bounds, a leader 20 points ahead: every single lever needs 20 units, no pair of 12 does."""
    cards = [{"id": f"carte-{k}", "name": f"Carte {k}", "points": 1} for k in range(15)]
    players = [{"name": name, "segments": 9, "energy_sources": 4, "relics": 4, "junk": 2, "inhabitants": 3,
                "buildings": {"carte-0": 1}, "building_bonus": 40 if i == 0 else 20 - i}
               for i, name in enumerate(NAMES)]
    return {"game": "reterra", "variant": "base", "buildings": cards, "players": players}


def reterra_distinct_cards() -> dict:
    """15 cards of 15 values (0 to 14: each its own lever by the English rule), a leader 180 points
    ahead: a pair of 12 units may come close (12 × 14), so each pair is looked at."""
    cards = [{"id": f"carte-{k}", "name": f"Carte {k}", "points": k} for k in range(15)]
    players = [{"name": name, "segments": 2, "energy_sources": 1, "relics": 4, "junk": 2, "inhabitants": 3,
                "building_bonus": 190 if i == 0 else 10 - i} for i, name in enumerate(NAMES)]
    return {"game": "reterra", "variant": "base", "buildings": cards, "players": players}


def reterra_cards_none_beats() -> dict:
    """The most card levers: card k worth k, each player built card k k times (so no card beats
    another: more points, fewer left to build), a leader 180 points ahead."""
    cards = [{"id": f"carte-{k}", "name": f"Carte {k}", "points": k} for k in range(1, 16)]
    built = {f"carte-{k}": k for k in range(1, 16)}
    players = [{"name": name, "relics": 4, "buildings": built, "building_bonus": 190 if i == 0 else 10 - i}
               for i, name in enumerate(NAMES)]
    return {"game": "reterra", "variant": "base", "buildings": cards, "players": players}


def revive(variant: str, tracks: tuple[int, ...]) -> dict:
    players = []
    for i, (name, track) in enumerate(zip(NAMES, tracks, strict=True)):
        p = {"name": name, "track": track, "progress": 6, "two_tokens": 1, "four_token": False,
             "card_bonus": [{"unlocked": True, "cards": 4}, {"unlocked": False, "cards": 3},
                            {"unlocked": True, "cards": 2}],
             "resources": {"gears": 2 + i % 3, "books": 1}, "machine_progress": 10 + i,
             "great_locations": [5], "artifacts": [2, 1, 0], "artifact_points": 7,
             "artifact_card": [{"count": 6, "points": 1}, {"count": 3, "points": 2},
                               {"count": 4, "points": 1}]}
        if variant == "abyss":
            p |= {"scyphoz": 1, "devotion": 9}
        players.append(p)
    return {"game": "revive", "variant": variant, "players": players}


def cases() -> list[tuple[str, dict, str | None]]:
    return [
        ("rebirth scotland, proches", rebirth("scotland", (50, 47, 44, 41)), None),
        ("rebirth scotland, un joueur loin", rebirth("scotland", (150, 47, 44, 10)), None),
        ("rebirth ireland, proches", rebirth("ireland", (50, 47, 44, 41)), None),
        ("rebirth ireland, un joueur loin", rebirth("ireland", (150, 47, 44, 10)), None),
        ("reterra (fr), proches", reterra((10, 8, 6, 3)), None),
        ("reterra (en), proches", reterra((10, 8, 6, 3)), "en"),
        ("reterra (fr), un joueur loin", reterra((150, 8, 6, 0)), None),
        ("reterra (en), un joueur loin", reterra((150, 8, 6, 0)), "en"),
        ("reterra (en), 15 cartes, aucune paire", reterra_many_cards(), "en"),
        ("reterra (fr), 15 cartes, aucune paire", reterra_many_cards(), None),
        ("reterra (en), 15 cartes de 15 valeurs, meneur loin", reterra_distinct_cards(), "en"),
        ("reterra (en), 15 cartes qu'aucune ne bat, meneur loin", reterra_cards_none_beats(), "en"),
        ("reterra (fr), 15 cartes qu'aucune ne bat, meneur loin", reterra_cards_none_beats(), None),
        ("revive base, proches", revive("base", (60, 57, 53, 50)), None),
        ("revive base, un joueur loin", revive("base", (200, 57, 53, 10)), None),
        ("revive abyss, proches", revive("abyss", (60, 57, 53, 50)), None),
        ("revive abyss, à égalité", revive("abyss", (60, 60, 60, 60)), None),
    ]


def cpu_of(fn, runs: int = 5) -> float:
    """The least CPU time of `runs` calls (the machine is shared: the least is the code's own)."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def main() -> list[dict]:
    results = []
    worst = 0.0
    for label, doc, edition in cases():
        text = json.dumps(doc, ensure_ascii=False)
        result = games.score(doc, edition=edition) if edition else games.score(doc)
        needs = games.needs(doc, result, edition=edition)
        print(f"{label} : {', '.join(f'{p.name} {p.total}' for p in result.players)} ; "
              f"{len(needs)} joueur(s) cherché(s)")

        def search(doc=doc, result=result, edition=edition):
            return games.needs(doc, result, edition=edition)

        cpu = cpu_of(search)
        worst = max(worst, cpu)
        print(f"  CPU par recherche : {cpu * 1000:.1f} ms (cible ≤ {TARGET_CPU * 1000:.0f} ms)")
        results.append(report_both(f"needed ({label})", interleaved(
            search, lambda text=text: json.loads(text), seconds=0.5), "json.loads"))
        results.append(report_both(f"needed ({label})", interleaved(
            search, lambda doc=doc, edition=edition: games.score(doc, edition=edition), seconds=0.5),
            "un games.score"))
    verdict = "tenu" if worst <= TARGET_CPU else "DÉPASSÉ"
    print(f"pire cas : {worst * 1000:.1f} ms de CPU ; cible {TARGET_CPU * 1000:.0f} ms : {verdict}")
    results.append({"name": "needed, worst CPU seconds", "cpu_seconds": worst, "target": TARGET_CPU})
    return results


if __name__ == "__main__":
    main()
