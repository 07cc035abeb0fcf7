"""A Reterra community drawn as SVG shapes, from what the engine found (`PlayerScore.extra["grid"]`).

The engine says which squares form scoring segments, which sources score, where relics, junk and
inhabitants are; this module only turns that into rectangles, paths and circles for the sheet's
template (one `<svg>` per player, coordinates in tenths of a square). The terrain letters come
from the player's `grid` in the document, the terrain names from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..games import reterra
from ..games.i18n import _, ngettext, tr

UNIT = 10  # one square
SIZE = reterra.SIZE

# (scoring segment, other squares): a strong colour where a segment scores, a pale one elsewhere,
# so that the segments stand out even on a black-and-white printer (with their outline).
PALETTE = {
    "F": ("#5e9c4f", "#cfe3c8"),
    "E": ("#4f8fc9", "#cadff0"),
    "D": ("#d9b25c", "#f3e6c4"),
    "P": ("#a9c957", "#e6efcb"),
    "R": ("#958b80", "#dedad5"),
}


@dataclass(frozen=True)
class Drawing:
    name: str
    runs: list[tuple[int, int, int, str]]  # x, y, width, fill: squares merged along each row
    letters: list[tuple[str, float, str]]  # one text per row: x of each letter, y, the 8 letters
    segments: list[str]  # one path per scoring segment: its outline
    sources: list[tuple[int, int, bool]]  # centre x, y, scored
    relics: list[tuple[str, bool]]  # diamond path, token (outlined) or printed (filled)
    junk: list[str]  # cross paths
    inhabitants: list[tuple[float, float]]
    caption: str


def _outline(squares: set[tuple[int, int]]) -> str:
    """The boundary of a set of squares as one SVG path (one move-line per outer edge)."""
    parts = []
    for r, c in sorted(squares):
        x, y = c * UNIT, r * UNIT
        if (r - 1, c) not in squares:
            parts.append(f"M{x} {y}h{UNIT}")
        if (r + 1, c) not in squares:
            parts.append(f"M{x} {y + UNIT}h{UNIT}")
        if (r, c - 1) not in squares:
            parts.append(f"M{x} {y}v{UNIT}")
        if (r, c + 1) not in squares:
            parts.append(f"M{x + UNIT} {y}v{UNIT}")
    return "".join(parts)


def draw(name: str, grid: dict, found: dict) -> Drawing:
    """`grid`: the player's contract grid; `found`: the engine's analysis of it."""
    terrain = "".join(grid["terrain"])
    scoring = {(r, c) for seg in found["segments"] for r, c in seg["squares"]}

    runs = []
    for r in range(SIZE):
        c = 0
        while c < SIZE:
            strong, pale = PALETTE[terrain[r * SIZE + c]]
            fill = strong if (r, c) in scoring else pale
            start = c
            while c < SIZE:
                s, p = PALETTE[terrain[r * SIZE + c]]
                if (s if (r, c) in scoring else p) != fill:
                    break
                c += 1
            runs.append((start * UNIT, r * UNIT, (c - start) * UNIT, fill))

    xs = " ".join(str(c * UNIT + 1) for c in range(SIZE))
    letters = [(xs, r * UNIT + 3.6, terrain[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]
    segments = [_outline({(r, c) for r, c in seg["squares"]}) for seg in found["segments"]]
    sources = [(s["tile"][1] * 2 * UNIT + UNIT, s["tile"][0] * 2 * UNIT + UNIT, bool(s["scored"]))
               for s in found["sources"]]

    relics = []
    for relic in found["relics"]:
        r, c = relic["square"]
        x, y = c * UNIT + 4.5, r * UNIT + 5.5
        relics.append((f"M{x} {y - 3}L{x + 3} {y}L{x} {y + 3}L{x - 3} {y}Z", bool(relic["token"])))
    junk = []
    for r, c in found["junk"]:
        x, y = c * UNIT + 4.5, r * UNIT + 5.5
        junk.append(f"M{x - 3} {y - 3}L{x + 3} {y + 3}M{x + 3} {y - 3}L{x - 3} {y + 3}")
    inhabitants = [(c * UNIT + 7.6, r * UNIT + 7.6) for r, c in found["inhabitants"]]

    counts = found["counts"]
    words = [ngettext("{n} segment", "{n} segments", counts["segments"]),
             ngettext("{n} source", "{n} sources", counts["energy_sources"])]
    caption = " · ".join(words) + " · " + _("{n} points", n=found["total"])
    return Drawing(name, runs, letters, segments, sources, relics, junk, inhabitants, caption)


def legend() -> list[tuple[str, str, str]]:
    """(letter, name in the current language, colour) of each terrain, in the engine's order."""
    return [(letter, tr(label), PALETTE[letter][0]) for letter, label in reterra.TERRAINS.items()]



def drawings(doc: dict, result) -> list[Drawing]:
    """One drawing per player scored from a painted grid (those counted by hand have none)."""
    out = []
    for player, p in zip(doc.get("players", []), result.players, strict=False):
        found = p.extra.get("grid")
        if isinstance(player, dict) and isinstance(player.get("grid"), dict) and found:
            out.append(draw(p.name, player["grid"], found))
    return out
