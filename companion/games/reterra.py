"""Reterra: scoring of each player's 4×4 community, from counts or from the whole grid.

Rules: docs/rules/reterra.fr.md, read with rulings T1-T6 (docs/rulings.md).

Two ways to enter a player, because tables differ: counts mode (the table counted on the board:
`segments`, `energy_sources`, `relics`, `junk`, `inhabitants`) or grid mode (`grid`: the 8×8 squares,
and the app finds the segments itself). `buildings` and `building_bonus` go with either.

A grid player's result carries what the app found, so that a screen or a sheet can draw the
community with its segments highlighted. `PlayerScore.extra["grid"]`, also returned as is by
`analyse_grid(grid)` for a live board editor:

    {
      "segments": [                       # scoring segments only (7+ squares), by first square
        {"terrain": "F", "label": "forêt", "size": 8, "squares": [[0, 0], [0, 1], ...]}
      ],
      "sources": [                        # every energy-source tile, in document order
        {"tile": [1, 2], "squares": [[2, 4], [2, 5], [3, 4], [3, 5]], "central": true, "scored": true}
      ],
      "relics": [                         # every relic, printed or token, in reading order
        {"square": [0, 0], "token": false, "covered": false}
      ],
      "junk": [[7, 7]],                   # squares holding a junk token, reading order
      "inhabitants": [[4, 4], [5, 5]],    # reading order
      "counts": {"segments": 5, "energy_sources": 1, "relics": 1, "junk": 1, "inhabitants": 2},
      "points": {"segments": 15, "energy_sources": 8, "relics": 1, "junk": -1, "inhabitants": 2},
      "total": 25                         # the grid's part of the score (buildings not included)
    }

`counts` holds exactly what counts mode would take for the same community, so a table can switch
modes without changing a score.
"""

from __future__ import annotations

import marshal
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .core import (
    Category,
    Checker,
    Criterion,
    Game,
    Lever,
    Line,
    PlayerScore,
    Problem,
    Result,
    TieField,
    TieQuestion,
    by_value,
    finish,
    join,
)
from .hooks import Hooks
from .i18n import N_, _, ngettext, tr
from .parts import PARTS

SIZE = 8  # squares per side (T1: 4×4 tiles of 2×2 squares)
TILES = SIZE // 2
TERRAINS = {"F": N_("forêt"), "E": N_("eau"), "D": N_("désert"), "P": N_("plaine"), "R": N_("rocaille")}
WATER = "E"
SEGMENT_MIN = 7  # T2
SEGMENT_POINTS = 3
SOURCE_POINTS = 8  # T3
CENTRAL_TILES = frozenset({(1, 1), (1, 2), (2, 1), (2, 2)})
MAX_CARDS = 15  # building cards in the box
_ROW = re.compile(f"[{''.join(TERRAINS)}]{{{SIZE}}}")
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
SLUG_MAX = 60
NAME_MAX = 80

TABLE_KEYS = ("game", "variant", "players", "buildings")
COUNT_BOUNDS = {  # counts-mode fields and their contract bounds
    "segments": 9,
    "energy_sources": 4,
    "relics": 64,
    "junk": 64,
    "inhabitants": 64,
}
PLAYER_KEYS = ("name", *COUNT_BOUNDS, "buildings", "building_bonus", "grid")
GRID_KEYS = ("terrain", "sources", "relics", "relic_tokens", "junk", "inhabitants")
BUILDING_MAX = 16
BONUS_MAX = 200
CARD_POINTS_MAX = 20

# Edge neighbours of each square (index row * 8 + col), never corners (T2).
_NEIGHBOURS = tuple(
    tuple(rr * SIZE + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
          if 0 <= rr < SIZE and 0 <= cc < SIZE)
    for r in range(SIZE) for c in range(SIZE)
)


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Card:
    """A building card in play, with the value of the side the table chose."""

    id: str
    name: str
    points: int


@dataclass(frozen=True)
class Grid:
    """A validated community: terrain as one 64-letter string, squares as (row, col)."""

    terrain: str
    sources: tuple[tuple[int, int], ...]
    relics: frozenset[tuple[int, int]]
    relic_tokens: frozenset[tuple[int, int]]
    junk: frozenset[tuple[int, int]]
    inhabitants: frozenset[tuple[int, int]]


def _cards(doc: dict, check: Checker) -> tuple[list[Card], set[str]]:
    """Building cards in play; also every id written, so that a bad card does not
    make each player's count of it a second error."""
    cards: list[Card] = []
    written: set[str] = set()
    seen: dict[str, int] = {}
    for k, item in enumerate(check.array(doc, "buildings", "", max_items=MAX_CARDS)):
        path = join("buildings", k)
        if check.obj(item, path) is None:
            continue
        check.known(item, ("id", "name", "points"), path, _("(attendu : id, name, points)"))
        card_id = check.string(item, "id", path, required=True, max_len=SLUG_MAX)
        good_id = card_id is not None
        if card_id is not None:
            written.add(card_id)
            if not SLUG.fullmatch(card_id):
                check.add(join(path, "id"), _("doit être un identifiant en minuscules sans accents, "
                                              "chiffres et tirets (ex. « terrain-de-sport »)"))
                good_id = False
            elif card_id in seen:
                check.add(join(path, "id"), _("identifiant déjà utilisé par buildings[{v1}] (chaque "
                                              "carte une seule fois)",
                                              v1=seen[card_id]))
                good_id = False
            else:
                seen[card_id] = k
        name = check.string(item, "name", path, max_len=NAME_MAX)
        if name is not None and not name.strip():
            check.add(join(path, "name"), _("ne doit pas être vide"))
            name = None
        if "points" not in item:
            check.add(join(path, "points"),
                      _("champ obligatoire : la valeur de la carte (0 à {CARD_POINTS_MAX})",
                        CARD_POINTS_MAX=CARD_POINTS_MAX))
        points = check.integer(item, "points", path, 0, CARD_POINTS_MAX)
        if good_id:
            cards.append(Card(card_id, (name or card_id).strip(), points))
    return cards, written


def _square(value: Any, top: int) -> tuple[int, int] | str:
    """A coordinate pair [row, col], each 0..top; or what is wrong with it, in French."""
    if type(value) is list and len(value) == 2:
        r, c = value
        if type(r) is int and type(c) is int:  # exact type: JSON true/false are not numbers
            if 0 <= r <= top and 0 <= c <= top:
                return r, c
            if top == TILES - 1:
                return _("tuile hors de la grille : ligne et colonne entre 0 et {top} (ici [{r}, {c}])",
                         top=top, r=r, c=c)
            return _("case hors de la grille : ligne et colonne entre 0 et {top} (ici [{r}, {c}])",
                     top=top, r=r, c=c)

    return _("doit être une paire [ligne, colonne] de nombres entiers")


def _squares(grid: dict, key: str, path: str, check: Checker,
             top: int = SIZE - 1) -> dict[tuple[int, int], int]:
    """A list of coordinates, each at most once: {(row, col): index in the list}."""
    found: dict[tuple[int, int], int] = {}
    for k, value in enumerate(check.array(grid, key, path)):
        square = _square(value, top)
        if type(square) is str:
            check.add(f"{join(path, key)}[{k}]", square)
        elif square in found:
            check.add(f"{join(path, key)}[{k}]",
                      _("[{v1}, {v2}] est déjà listée en {key}[{v4}]",
                        v1=square[0], v2=square[1], key=key, v4=found[square]))
        else:
            found[square] = k
    return found


def _terrain(grid: dict, path: str, check: Checker) -> str | None:
    """The 8 rows as one 64-letter string, or None when any row is wrong."""
    p = join(path, "terrain")
    if "terrain" not in grid:
        check.add(p, _("champ obligatoire : {SIZE} lignes de {SIZE} lettres parmi F, E, D, P, R",
                       SIZE=SIZE))
        return None
    rows = grid["terrain"]
    if not isinstance(rows, list):
        check.add(p, _("doit être une liste de {SIZE} lignes de {SIZE} lettres parmi F, E, D, P, R",
                       SIZE=SIZE))
        return None
    ok = True
    if len(rows) != SIZE:
        check.add(p, _("doit contenir exactement {SIZE} lignes (il y en a {v2})", SIZE=SIZE, v2=len(rows)))
        ok = False
    for r, row in enumerate(rows):
        if type(row) is str and _ROW.fullmatch(row):
            continue
        ok = False
        rp = f"{p}[{r}]"
        if not isinstance(row, str):
            check.add(rp, _("doit être un texte de {SIZE} lettres parmi F, E, D, P, R", SIZE=SIZE))
        elif len(row) != SIZE:
            check.add(rp, _("doit faire {SIZE} lettres parmi F, E, D, P, R (il y en a {v2} : « {v3} »)",
                            SIZE=SIZE, v2=len(row), v3=row[:20]))
        else:
            c, ch = next((c, ch) for c, ch in enumerate(row) if ch not in TERRAINS)
            check.add(rp, _("lettre « {ch} » en colonne {c} : attendu F (forêt), E (eau), D (désert), P "
                            "(plaine) ou R (rocaille), en majuscules",
                            ch=ch, c=c))
    return "".join(rows) if ok else None


def _tile_squares(tile: tuple[int, int]) -> list[tuple[int, int]]:
    tr, tc = tile
    return [(2 * tr + dr, 2 * tc + dc) for dr in (0, 1) for dc in (0, 1)]


def _grid(value: Any, path: str, check: Checker) -> Grid | None:
    """Validate a grid against every rule of the contract; None when anything is wrong."""
    if check.obj(value, path) is None:
        return None
    before = len(check.problems)
    check.known(value, GRID_KEYS, path, _("(attendu : {v1})", v1=', '.join(GRID_KEYS)))
    terrain = _terrain(value, path, check)
    sources = _squares(value, "sources", path, check, top=TILES - 1)
    relics = _squares(value, "relics", path, check)
    tokens = _squares(value, "relic_tokens", path, check)
    junk = _squares(value, "junk", path, check)
    inhabitants = _squares(value, "inhabitants", path, check)

    if terrain is not None:
        for tile, k in sources.items():
            dry = [(r, c) for r, c in _tile_squares(tile) if terrain[r * SIZE + c] != WATER]
            if dry:
                r, c = dry[0]
                check.add(join(join(path, "sources"), k),
                          _("la tuile [{v1}, {v2}] porte une source d'énergie : ses 4 cases doivent être "
                            "de l'eau (E), or la case [{r}, {c}] est {v5}",
                            v1=tile[0], v2=tile[1], r=r, c=c, v5=tr(TERRAINS[terrain[r * SIZE + c]])))
    for square, k in tokens.items():
        if square in relics:
            check.add(join(join(path, "relic_tokens"), k),
                      _("la case [{v1}, {v2}] a déjà une relique imprimée (relics[{v3}]) : un jeton "
                        "Relique ne se pose jamais dessus",
                        v1=square[0], v2=square[1], v3=relics[square]))
    for square, k in junk.items():
        if square not in relics and square not in tokens:
            check.add(join(join(path, "junk"), k),
                      _("la case [{v1}, {v2}] n'a pas de relique : le bric-à-brac se pose sur une "
                        "relique (imprimée ou jeton)",
                        v1=square[0], v2=square[1]))
    for square, k in inhabitants.items():
        if square in tokens:
            check.add(join(join(path, "inhabitants"), k),
                      _("la case [{v1}, {v2}] porte un jeton Relique (relic_tokens[{v3}]) : un habitant "
                        "ne partage pas sa case avec un jeton",
                        v1=square[0], v2=square[1], v3=tokens[square]))
        if square in junk:
            check.add(join(join(path, "inhabitants"), k),
                      _("la case [{v1}, {v2}] porte du bric-à-brac (junk[{v3}]) : un habitant ne partage "
                        "pas sa case avec un jeton",
                        v1=square[0], v2=square[1], v3=junk[square]))
    if len(check.problems) != before or terrain is None:
        return None
    return Grid(terrain, tuple(sources), frozenset(relics), frozenset(tokens), frozenset(junk),
                frozenset(inhabitants))


# --------------------------------------------------------------------------- grid analysis


def _segments(terrain: str) -> list[list[int]]:
    """The areas of SEGMENT_MIN squares or more (squares joined by edges), each sorted,
    in order of their first square. A plain flood fill: measured faster here than
    64-bit masks, which leave Python's small-integer fast path."""
    seen = [False] * (SIZE * SIZE)
    neighbours = _NEIGHBOURS
    found = []
    for start in range(SIZE * SIZE):
        if seen[start]:
            continue
        letter = terrain[start]
        seen[start] = True
        area = [start]
        for i in area:  # the list grows while it is read: a breadth-first search
            for j in neighbours[i]:
                if not seen[j] and terrain[j] == letter:
                    seen[j] = True
                    area.append(j)
        if len(area) >= SEGMENT_MIN:
            area.sort()
            found.append(area)
    return found


def _pair(square: tuple[int, int]) -> list[int]:
    return [square[0], square[1]]


def _analyse(grid: Grid) -> dict:
    """What a grid scores, and where: the shape documented at the top of this module."""
    segments = [
        {"terrain": grid.terrain[a[0]], "label": tr(TERRAINS[grid.terrain[a[0]]]), "size": len(a),
         "squares": [[i // SIZE, i % SIZE] for i in a]}
        for a in _segments(grid.terrain)
    ]
    sources = [
        {"tile": _pair(t), "squares": [_pair(s) for s in _tile_squares(t)],
         "central": t in CENTRAL_TILES, "scored": t in CENTRAL_TILES}
        for t in grid.sources
    ]
    relics = [
        {"square": _pair(s), "token": s in grid.relic_tokens, "covered": s in grid.junk}
        for s in sorted(grid.relics | grid.relic_tokens)
    ]
    counts = {
        "segments": len(segments),
        "energy_sources": sum(1 for s in sources if s["scored"]),
        "relics": sum(1 for r in relics if not r["covered"]),
        "junk": len(grid.junk),
        "inhabitants": len(grid.inhabitants),
    }
    points = _count_points(counts)
    return {
        "segments": segments,
        "sources": sources,
        "relics": relics,
        "junk": [_pair(s) for s in sorted(grid.junk)],
        "inhabitants": [_pair(s) for s in sorted(grid.inhabitants)],
        "counts": counts,
        "points": points,
        "total": sum(points.values()),
    }


def _count_points(counts: dict[str, int]) -> dict[str, int]:
    return {
        "segments": SEGMENT_POINTS * counts["segments"],
        "energy_sources": SOURCE_POINTS * counts["energy_sources"],
        "relics": counts["relics"],
        "junk": -counts["junk"],
        "inhabitants": counts["inhabitants"],
    }


def analyse_grid(grid: Any) -> dict:
    """Counts and points of one community, for a live board editor while painting.

    Pure: takes the contract's `grid` object, returns the dict documented at the top of
    this module; raises InvalidDocument (paths under `grid`) when the grid breaks the contract.
    """
    check = Checker()
    parsed = _grid(grid, "grid", check)
    check.raise_if_any()
    assert parsed is not None
    return _analyse(parsed)


# --------------------------------------------------------------------------- scoring


def _counts(player: dict, path: str, check: Checker) -> dict[str, int]:
    counts = {key: check.integer(player, key, path, 0, hi) for key, hi in COUNT_BOUNDS.items()}
    # Each junk token covers its own relic, and shares its square with no inhabitant:
    # the 64 squares bound the sums, as they bound a drawn grid.
    if counts["relics"] + counts["junk"] > SIZE * SIZE:
        check.rule(join(path, "junk"), _("reliques visibles + reliques sous bric-à-brac : au plus {v1} "
                                         "(une relique par case ; ici {v2} + {v3})",
                                         v1=SIZE * SIZE, v2=counts['relics'], v3=counts['junk']))
    if counts["inhabitants"] + counts["junk"] > SIZE * SIZE:
        check.rule(join(path, "inhabitants"), _("habitants + bric-à-brac : au plus {v1} (un habitant ne "
                                                "partage pas sa case avec un jeton ; ici {v2} + {v3})",
                                                v1=SIZE * SIZE, v2=counts['inhabitants'],
                                                v3=counts['junk']))
    return counts


def _built(player: dict, path: str, check: Checker, cards: list[Card], written: set[str]) -> dict[str, int]:
    """How many of each card in play the player built: {id: count}."""
    built = check.field_obj(player, "buildings", path)
    p = join(path, "buildings")
    in_play = {card.id for card in cards}
    result: dict[str, int] = {}
    for key, value in built.items():
        if key not in written:
            listed = ", ".join(card.id for card in cards) or _("aucune carte dans buildings")
            check.add(join(p, str(key)), _("« {key} » n'est pas une carte de bâtiment en jeu ({listed})",
                                           key=key, listed=listed))
            continue
        n = check.int_value(value, join(p, key), 0, BUILDING_MAX)
        if key in in_play:
            result[key] = n
    return result


def _lines(counts: dict[str, int], found: dict | None, cards: list[Card], built: dict[str, int],
           bonus: int) -> list[Line]:
    """The breakdown in contract order, each detail the arithmetic a player can redo."""
    pts = _count_points(counts)
    n_seg, n_src, n_rel, n_junk, n_inh = (counts[k] for k in COUNT_BOUNDS)

    seg = f"{n_seg} × {SEGMENT_POINTS}" if n_seg else ""
    src = f"{n_src} × {SOURCE_POINTS}" if n_src else ""
    rel = f"{n_rel} × 1" if n_rel else ""
    if found is not None:
        if n_seg:
            sizes = ", ".join(f"{s['label']} {s['size']}" for s in found["segments"])
            seg += _(" ({sizes} cases)", sizes=sizes)
        edge = len(found["sources"]) - n_src
        if edge:
            src = (src + _(" ; ") if src else "") + ngettext("{n} source en bordure : 0",
                                                          "{n} sources en bordure : 0", edge)
        covered = sum(1 for r in found["relics"] if r["covered"])
        if covered:
            rel = _("{n_rel} × 1 ({v2}, {covered} sous bric-à-brac)",
                    n_rel=n_rel, v2=ngettext("{n} relique", "{n} reliques", n_rel + covered),
                    covered=covered)
    junk = f"{n_junk} × (−1)" if n_junk else ""
    inh = f"{n_inh} × 1" if n_inh else ""

    terms = [(built[c.id], c) for c in cards if built.get(c.id)]
    bld_points = sum(n * c.points for n, c in terms)
    bld = " + ".join(f"{n} × {c.points} ({c.name})" for n, c in terms)
    if len(terms) > 1:
        bld += f" = {bld_points}"

    return [
        Line("segments", pts["segments"], seg),
        Line("energy_sources", pts["energy_sources"], src),
        Line("relics", pts["relics"], rel),
        Line("junk", pts["junk"], junk),
        Line("inhabitants", pts["inhabitants"], inh),
        Line("buildings", bld_points, bld),
        Line("building_bonus", bonus, str(bonus) if bonus else ""),
    ]


# Breakdown keys whose detail carries a number a tie-break reads: never cut nor left out on a sheet.
TIEBREAK_KEYS: tuple[str, ...] = ("inhabitants",)


def player_part(check: Checker, player: dict, path: str, variant: str, cards: tuple[Card, ...],
                written: frozenset[str]) -> tuple[bytes | None, tuple[Line, ...], int, int]:
    """One player's part (T1-T5), nothing of it depending on the other players: their community
    found (as marshal bytes, so that each result gets a copy of its own), their lines, their
    inhabitants and their buildings (T6's tie-breaks)."""
    check.known(player, PLAYER_KEYS, path, _("pour un joueur de Reterra"))
    found = None
    if "grid" in player:
        for key in COUNT_BOUNDS:
            if key in player:
                check.add(join(path, key), _("ne se donne pas avec grid : la grille compte déjà cela "
                                             "(choisir la grille ou les comptes)"))
        grid = _grid(player["grid"], join(path, "grid"), check)
        if grid is not None:
            found = _analyse(grid)
        counts = found["counts"] if found else dict.fromkeys(COUNT_BOUNDS, 0)
    else:
        counts = _counts(player, path, check)
    built = _built(player, path, check, list(cards), set(written))
    bonus = check.integer(player, "building_bonus", path, 0, BONUS_MAX)
    lines = tuple(_lines(counts, found, list(cards), built, bonus))
    drawn = marshal.dumps(found) if found is not None else None
    return drawn, lines, counts["inhabitants"], sum(built.values())


FRENCH, ENGLISH = "fr", "en"  # the editions' tie rules (T6; docs/rulings.md)


def score(doc: dict, names: list[str], check: Checker, edition: str = FRENCH) -> Result | None:
    """Validate the Reterra part of a document and score it (T1-T6); `edition` says whose rule breaks
    a tie (the French rules: inhabitants; the English edition's FAQ: buildings)."""
    check.known(doc, TABLE_KEYS, "", _("pour Reterra"))
    cards, written = _cards(doc, check)
    scores: list[PlayerScore] = []
    inhabitants: dict[str, int] = {}
    buildings: dict[str, int] = {}
    in_play, ids = tuple(cards), frozenset(written)
    for i, (player, name) in enumerate(zip(doc["players"], names, strict=True)):
        # read once per sub-document and cards in play (parts.py): an autosave changes one player
        grid, lines, inhabited, built = PARTS.part(player_part, check, player, join("players", i),
                                                   doc["variant"], in_play, ids)
        # each result its own copy of the drawing (bytes this function's part wrote: not a stranger's)
        extra = {"grid": marshal.loads(grid)} if grid is not None else {}  # noqa: S302
        scores.append(PlayerScore(name, list(lines), extra))  # its own list, the lines frozen
        inhabitants[name] = inhabited
        buildings[name] = built
    if not check.ok:
        return None
    # T6: highest total, then most inhabitants (the English edition: most buildings), then shared.
    def criteria() -> list[Criterion]:  # worded only for a tie (core.rank)
        if edition == ENGLISH:
            return [by_value(lambda n: buildings[n], _("bâtiments (règle de l'édition anglaise)"))]
        return [by_value(lambda n: inhabitants[n], _("habitants"))]

    return finish(GAME.id, doc["variant"], scores, criteria)


GAME = Game(
    id="reterra",
    label=N_("Reterra"),
    variants={"base": N_("Base")},
    min_players=2,
    max_players=4,
    categories=(
        Category("segments", N_("Segments de terrain"), N_("3 par segment de 7 cases ou plus")),
        Category("energy_sources", N_("Sources d'énergie"), N_("8 par source entourée")),
        Category("relics", N_("Reliques"), N_("1 par relique visible")),
        Category("junk", N_("Bric-à-brac"), N_("−1 par jeton")),
        Category("inhabitants", N_("Habitants"), N_("1 par habitant")),
        Category("buildings", N_("Bâtiments"), N_("valeur de la carte")),
        Category("building_bonus", N_("Pouvoirs de bâtiment"), N_("points de fin de partie")),
    ),
    score=score,
    tiebreaks={"base": (N_("Égalité : le joueur qui a le plus d'habitants gagne."),
                        N_("Sinon, victoire partagée."))},
    editions={FRENCH: N_("Règles françaises : égalité départagée aux habitants"),
              ENGLISH: N_("Édition anglaise : égalité départagée aux bâtiments")},
    edition_tiebreaks={
        FRENCH: (N_("Égalité : le joueur qui a le plus d'habitants gagne (règles françaises)."),
                 N_("Sinon, victoire partagée.")),
        ENGLISH: (N_("Égalité : le joueur qui a le plus de bâtiments gagne (FAQ de l'édition anglaise)."),
                  N_("Sinon, victoire partagée.")),
    },
)


TIE_CARD = "batiment"  # the one card of a tie told alone: worth 0, so the buildings leave the totals as told
TIE_TOTAL_MAX = BONUS_MAX + COUNT_BOUNDS["relics"]  # points a tie document holds besides inhabitants


def tie_fields(edition: str | None) -> tuple[TieField, ...]:
    if edition == ENGLISH:
        return (TieField("buildings", N_("Bâtiments construits"), "count", 0, BUILDING_MAX,
                         hint=N_("Tous les bâtiments de la communauté (règle de l'édition anglaise).")),)
    return (TieField("inhabitants", N_("Habitants"), "count", 0, COUNT_BOUNDS["inhabitants"]),)


def tie_document(q: TieQuestion) -> tuple[dict | None, list[Problem]]:
    """A Reterra game where the tied players have `q.total`: their inhabitants (1 point each) or, by
    the English edition's rule, their buildings (a card worth 0); the rest of the total as building
    powers' points, then visible relics (the contract's bounds)."""
    english = q.edition == ENGLISH
    counts = q.values.get("buildings" if english else "inhabitants") or [0] * q.tied
    players, problems = [], []
    for i, name in enumerate(q.names[:q.tied]):
        inhabitants = 0 if english else counts[i]
        rest = q.total - inhabitants
        if rest < 0:
            problems.append(Problem(f"inhabitants[{i}]", _("au plus {n} : chaque habitant vaut 1 point "
                                                            "(total {n})", n=q.total)))
            continue
        if rest > TIE_TOTAL_MAX:
            problems.append(Problem("total", _("doit être entre {lo} et {hi}", lo=0,
                                               hi=TIE_TOTAL_MAX + inhabitants)))
            break
        bonus = min(rest, BONUS_MAX)
        player = {"name": name, "inhabitants": inhabitants, "relics": rest - bonus, "building_bonus": bonus}
        if english:
            player["buildings"] = {TIE_CARD: counts[i]}
        players.append(player)
    if problems:
        return None, problems[:1]
    doc = {"game": GAME.id, "variant": q.variant, "players": players}
    if english:
        doc["buildings"] = [{"id": TIE_CARD, "name": _("Bâtiment"), "points": 0}]
    return doc, []



def grid_tool(payload: Any) -> dict:
    """`POST /api/v1/reterra/grid` with `{"grid": {...}}`: the board editor's live counts and points."""
    check = Checker()
    body = check.obj(payload, "document")
    if body is not None:
        check.known(body, ("grid",), "")
        if "grid" not in body:
            check.add("grid", _("champ obligatoire"))
    check.raise_if_any()
    return analyse_grid(body["grid"])


TOOLS = {"grid": grid_tool}

__all__ = ["GAME", "TOOLS", "analyse_grid", "score"]


def from_past(documents: Iterable[dict]) -> dict:
    """What the end-state page offers from this device's past games (latest first): the building
    cards (name, points) used before, each once, to pick the new game's cards from."""
    seen, cards = set(), []
    for document in documents:
        for card in document.get("buildings") or []:
            if not isinstance(card, dict) or not isinstance(card.get("name"), str):
                continue
            key = (card["name"].strip().lower(), card.get("points"))
            if key not in seen:
                seen.add(key)
                cards.append({"name": card["name"].strip(), "points": card.get("points")})
    return {"known_cards": cards}


def levers(doc: dict, seat: int, edition: str | None) -> tuple[Lever, ...]:
    """What "what would I have needed?" may change of a player's own end state (docs/rulings.md): in
    counts mode, energy sources, segments, inhabitants, visible relics (the 64 squares shared with the
    junk) and one junk token fewer (its relic then visible); with a grid, its squares stay as drawn.
    Then the building cards in play built once more that no other card beats (by the French rules a
    card worth 0 changes nothing: left out) and the building powers' points."""
    player = doc["players"][seat]
    me = ("players", seat)
    out = []
    if "grid" not in player:
        junk = player.get("junk", 0)
        room = SIZE * SIZE - junk
        out += [
            Lever((*me, "energy_sources"),
                  (N_("{n} source d'énergie de plus"), N_("{n} sources d'énergie de plus")),
                  hi=COUNT_BOUNDS["energy_sources"]),
            Lever((*me, "segments"),
                  (N_("{n} segment de terrain de plus"), N_("{n} segments de terrain de plus")),
                  hi=COUNT_BOUNDS["segments"]),
            Lever((*me, "inhabitants"), (N_("{n} habitant de plus"), N_("{n} habitants de plus")),
                  hi=min(COUNT_BOUNDS["inhabitants"], room)),
            Lever((*me, "relics"), (N_("{n} relique visible de plus"), N_("{n} reliques visibles de plus")),
                  hi=min(COUNT_BOUNDS["relics"], room)),
            Lever((*me, "junk"),  # the relic under it shows again: one visible relic more
                  (N_("{n} jeton bric-à-brac de moins"), N_("{n} jetons bric-à-brac de moins")),
                  direction=-1, carries=((*me, "relics"),)),
        ]
    english = edition == ENGLISH
    built = player.get("buildings") or {}

    def room(card: dict) -> int:
        return BUILDING_MAX - built.get(card["id"], 0)

    # A card worth no more than another that the player may build at least as many more times is never
    # a smaller change (the other gives as many points or more, and as many buildings): only the cards
    # no other card beats are levers, the first listed among equals.
    cards = [c for c in doc.get("buildings") or [] if c["points"] or english]  # French rules: 0 is nothing

    def beaten(i: int, card: dict) -> bool:
        mine = (card["points"], room(card))
        for j, other in enumerate(cards):
            theirs = (other["points"], room(other))
            if j != i and theirs[0] >= mine[0] and theirs[1] >= mine[1] and (theirs != mine or j < i):
                return True
        return False

    for i, card in enumerate(cards):
        if beaten(i, card):
            continue
        out.append(Lever((*me, "buildings", card["id"]), (N_("{n} {name} de plus"), N_("{n} {name} de plus")),
                         hi=BUILDING_MAX, name=(card.get("name") or card["id"]).strip(),
                         tie_note=N_("règle de l'édition anglaise") if english else ""))
    out.append(Lever((*me, "building_bonus"), (N_("{n} point de pouvoir de bâtiment de plus"),
                                               N_("{n} points de pouvoir de bâtiment de plus")),
                     hi=BONUS_MAX))
    return tuple(out)


class _Hooks(Hooks):
    tools = TOOLS
    tiebreak_keys = TIEBREAK_KEYS
    kept_on_again = ("buildings",)  # the cards in play stay on the table (docs/rulings.md)

    def from_past(self, documents: Iterable[dict]) -> dict:
        return from_past(documents)

    def tie_fields(self, variant: str, edition: str | None) -> tuple[TieField, ...] | None:
        return tie_fields(edition)

    def tie_document(self, question: TieQuestion) -> tuple[dict | None, list[Problem]]:
        return tie_document(question)

    def tie_handover(self, question: TieQuestion) -> dict:
        """The inhabitants (French rule); the English edition's buildings are counted per card in
        play, which the tie page does not ask: not carried (docs/rulings.md)."""
        counts = question.values.get("inhabitants") if question.edition != ENGLISH else None
        return {"players": [{"inhabitants": counts[i]} if counts and i < question.tied and counts[i] else {}
                            for i in range(len(question.names))]}

    def levers(self, doc: dict, seat: int, edition: str | None) -> tuple[Lever, ...]:
        return levers(doc, seat, edition)


HOOKS = _Hooks()
