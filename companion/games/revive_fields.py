"""Revive's fields and its document (pure: no form, no Flask): the artifact card shared or not.

The contract keeps an `artifact_card` per player: three lines of {count, points}. At most tables one
card is shared, so by default the card's points per line are typed once (`card`, table level) and
copied to every player (`to_document`); each player types only what the line counts for them. "Une
carte par joueur" shows the points fields in each player's section instead: the page shows one
shared card when every player's card has the same points (`to_form`).
"""

from __future__ import annotations

from . import revive as engine

SHARED, EACH = "shared", "each"


def _points(player: dict) -> tuple[int, ...]:
    lines = player.get("artifact_card") or []
    if type(lines) is list and len(lines) == 3 and type(a := lines[0]) is dict \
            and type(b := lines[1]) is dict and type(c := lines[2]) is dict:  # the contract's three lines
        return a.get("points", 0), b.get("points", 0), c.get("points", 0)
    return tuple([line.get("points", 0) if isinstance(line, dict) else 0 for line in lines]) or (0,) * 3


def to_form(document: dict, data: dict) -> None:
    """Shared when every player's card has the same points (always true of a new game)."""
    cards = [_points(p) for p in document.get("players", [])]
    data["card_mode"] = SHARED if len(set(cards)) <= 1 else EACH
    first = cards[0] if cards else (0,) * 3
    data["card"] = [{"points": v or None} for v in (first + (0,) * 3)[:3]]  # 0 shows as blank


def to_document(document: dict, reading) -> None:
    """A shared card: its points go into every player's `artifact_card`, and a problem with them is
    shown beside the shared card's field (`reading`: `companion.saving.spec.Reading`)."""
    if reading.data.get("card_mode") != SHARED:
        return
    shared = [reading.data.get(field) or 0 for field in _CARD]
    laid = reading.paths
    for i, player in enumerate(document["players"]):
        lines = player["artifact_card"] if "artifact_card" in player else \
            player.setdefault("artifact_card", [{} for _ in shared])
        paths = _POINTS[i] if i < len(_POINTS) else _points_paths(i)
        given = len(lines)
        for j, points in enumerate(shared):
            if j < given and isinstance(line := lines[j], dict):
                if points:
                    line["points"] = points
                else:
                    line.pop("points", None)
                laid[paths[j]] = _CARD[j]


def _points_paths(i: int) -> tuple[str, ...]:
    return tuple(f"players[{i}].artifact_card[{j}].points" for j in range(engine.COLOURS))


_CARD = tuple(f"card-{j}-points" for j in range(engine.COLOURS))  # the shared card's fields
_POINTS = tuple(_points_paths(i) for i in range(engine.GAME.max_players))  # each player's, written once
