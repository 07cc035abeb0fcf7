"""Rebirth (Reiner Knizia): scoring and tie-breaks for the Écosse and Irlande maps.

Rules: docs/rules/rebirth.fr.md, read with rulings R1-R11 (docs/rulings.md).

The document gives each player's in-game points either as the board's track, or itemised
(farm groups, ports, public missions, towers), or both (R1: they add up), plus the end-game
items. Cities are entered once for the table, tile by tile: a complete city pays its prizes
(R3, R4), an incomplete one pays each tile's influence (R5). The same city code serves the
table's live tool (`TOOLS["city"]`), so the app never scores one city two ways.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
    Split,
    Tie,
    TieField,
    TieQuestion,
    by_value,
    finish,
    holder_wins,
    join,
    join_names,
    ordinal,
    outcome,
    player_name,
)
from .hooks import Hooks
from .i18n import N_, _, current, ngettext, tr
from .parts import PARTS

SCOTLAND = ("scotland",)
IRELAND = ("ireland",)
VARIANT_NAMES = {"scotland": N_("l'Écosse"), "ireland": N_("l'Irlande")}

PRIZES = {2: (5, 3), 3: (6, 4, 2), 4: (8, 5, 3)}  # R3
MAX_CITY = {"scotland": 3, "ireland": 4}  # 4-space cities exist only in Ireland (R3)
INFLUENCE_MAX = 4  # icons on a community tile

TRACK_MAX = 500
FARM_MAX = 36  # a player has 36 tiles: no group, and no list of groups, can be longer
PORTS_MAX = 36
ICONS_MAX = 144
CASTLES_MAX = 12
MISSION_POINTS = (1, 30)
CARDS_MAX = 8  # 8 cathedral floor pawns: at most 8 mission cards, gifts included (R7)
PUBLIC_MAX = 8  # 8 public missions face up
GIFT_POINTS = 3
CASTLE_POINTS = 5
TOWER_LIMITS = {13: 3, 3: 2}  # R8: three towers give 13, two give 3
TARA_MAX = 8
ADJACENT_MAX = 8  # spaces around a castle, as for Tara

COMMON_PLAYER_KEYS = ("name", "track", "farms", "ports", "incomplete_icons", "castles")
VARIANT_PLAYER_KEYS = {
    "scotland": ("missions", "gifts"),
    "ireland": ("public_missions", "towers", "privatized_missions", "tara_adjacent"),
}
COMMON_TABLE_KEYS = ("game", "variant", "players", "cities")
VARIANT_TABLE_KEYS = {"scotland": ("edinburgh", "stirling"), "ireland": ("blarney",)}
CASTLE_NAMES = {"edinburgh": N_("château d'Édimbourg"), "stirling": N_("château de Stirling"),
                "blarney": N_("château de Blarney")}
FARM_KINDS = {"agricultural": N_("agricoles"), "energy": N_("énergétiques")}


# --------------------------------------------------------------------------- small helpers


def _other(variant: str) -> str:
    return "ireland" if variant == "scotland" else "scotland"


def _known(check: Checker, obj: dict, keys: dict[str, tuple[str, ...]], common: tuple[str, ...],
           variant: str, path: str) -> None:
    """Unknown keys are errors; a key of the other map says so, since it is the likely slip."""
    other = keys[_other(variant)]
    allowed = set(common) | set(keys[variant])
    for key in obj:
        if key in allowed:
            continue
        if key in other:
            message = (_("clé inconnue pour {v1} (elle ne sert qu'à {v2})",
                         v1=tr(VARIANT_NAMES[variant]), v2=tr(VARIANT_NAMES[_other(variant)])))
        else:
            message = _("clé inconnue (attendu : {v1})",
                        v1=', '.join(sorted(allowed - {'game', 'variant'})))
        check.add(join(path, str(key)), message)


def _sum(values: Sequence[int]) -> str:
    """"6" or "6 + 3 = 9": the addition a player checks by hand."""
    if len(values) == 1:
        return str(values[0])
    return f"{' + '.join(str(v) for v in values)} = {sum(values)}"


def _triangle(n: int) -> str:
    """What a group of n scored if it grew one tile at a time (R2)."""
    if n == 1:
        return "1"
    terms = "+".join(str(i) for i in range(1, n + 1)) if n <= 5 else f"1+2+…+{n}"
    return f"{terms} = {n * (n + 1) // 2}"


def _of(name: str) -> str:
    """French "de" with its elision: "de Yanis", "d'Inès"; other languages: the name alone (their
    sentences place it: "Inès's tile")."""
    if current() != "fr":
        return name
    return f"d'{name}" if name[:1].lower() in "aeiouàâéèêëîïôöûü" else f"de {name}"


def size_label(size: int) -> str:
    return ngettext("ville {n} case", "ville {n} cases", size)


def city_label(index: int, size: int) -> str:
    """"ville 3 cases n°2": the city's size and its position in the document's list."""
    return _("{city} n°{n}", city=size_label(size), n=index + 1)


def _name_list(check: Checker, payload: dict, path: str) -> list[str]:
    """The tools' `players`: names in seat order, trimmed and distinct as in a game document."""
    raw = check.array(payload, "players", path)
    if "players" not in payload:
        check.add(join(path, "players"), _("champ obligatoire : les noms des joueurs dans l'ordre du tour"))
    elif isinstance(payload["players"], list) and not GAME.min_players <= len(raw) <= GAME.max_players:
        check.add(join(path, "players"), _("Rebirth se joue de {v1} à {v2} joueurs (il y en a {v3})",
                                           v1=GAME.min_players, v2=GAME.max_players, v3=len(raw)))
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, value in enumerate(raw):
        name = player_name(check, value, join(join(path, "players"), i), seen, i)
        if name is not None:
            names.append(name)
    return names


# --------------------------------------------------------------------------- cities (R3, R4, R5)


@dataclass(frozen=True)
class Tile:
    player: str
    influence: int
    order: int | None = None  # 1 = placed first in this city


@dataclass
class CityOutcome:
    """One city settled. Complete: prizes (R3) in `points`, everyone present in `ranking`
    best first. Incomplete: each player's influence (R5) in `points`, `ranking` empty."""

    size: int
    complete: bool
    points: dict[str, int]
    ranking: list[str]
    explanation: list[str]
    notes: dict[str, str]  # a player's tie, in a few words, for the breakdown detail


def _possible_completers(size: int, tiles: Sequence[Tile]) -> list[str]:
    """Who may have placed the last tile, from the orders given (1..size, unique).

    A tile ordered `size` was last; without one, the last tile is among those with no order."""
    last = [t for t in tiles if t.order == size] or [t for t in tiles if t.order is None]
    found: list[str] = []
    for t in last:
        if t.player not in found:
            found.append(t.player)
    return found


def _clockwise(group: Sequence[str], completer: str, seats: Sequence[str]) -> list[str]:
    """R4: clockwise from the completer, nearest first; the completer comes last."""
    start = seats.index(completer)

    def distance(name: str) -> int:
        return (seats.index(name) - start) % len(seats) or len(seats)

    return sorted(group, key=distance)


def _prizes(size: int, count: int) -> list[tuple[int, ...]]:
    """R3: what each ranked player takes, with k players present and m prizes."""
    prizes = PRIZES[size]
    m = len(prizes)
    if count >= m:
        return [(p,) for p in prizes] + [()] * (count - m)
    head = m - count + 1
    return [prizes[:head]] + [(p,) for p in prizes[head:]]


def settle_city(size: int, tiles: Sequence[Tile], seats: Sequence[str], check: Checker,
                path: str, label: str) -> CityOutcome | None:
    """Score one city from its tiles; None (and a problem at `path`) when an influence tie
    needs the placement order and the document does not give it (R4)."""
    influence: dict[str, int] = {}
    for t in tiles:
        influence[t.player] = influence.get(t.player, 0) + t.influence
    present = [n for n in seats if n in influence]
    listed = ", ".join(f"{n} {influence[n]}" for n in present)
    if len(tiles) < size:
        missing = ngettext("{n} case vide", "{n} cases vides", size - len(tiles))
        text = (_("{v1} incomplète ({missing}) : en fin de partie, chaque tuile rapporte son influence",
                  v1=label.capitalize(), missing=missing))
        return CityOutcome(size, False, dict(influence), [],
                           [text + (f" ({listed})." if present else _(" ; aucune tuile posée."))], {})
    if size == 1:
        owner = tiles[0].player
        return CityOutcome(size, True, {owner: tiles[0].influence}, [owner],
                           [_("{v1} : {owner} marque l'influence de sa tuile ({v3}).",
                              v1=label.capitalize(), owner=owner, v3=tiles[0].influence)], {})

    levels = sorted(set(influence.values()), reverse=True)
    groups = [[n for n in present if influence[n] == v] for v in levels]
    tied = [g for g in groups if len(g) > 1]
    completers = _possible_completers(size, tiles) if tied else []
    if tied:
        orders = {tuple(tuple(_clockwise(g, c, seats)) for g in tied) for c in completers}
        if len(orders) > 1:
            who = _(" ; ").join(f"{join_names(g)} ({influence[g[0]]})" for g in tied)
            need = (_("quelle tuile a été posée en premier (ordre 1)") if size == 2
                    else _("quelle tuile a été posée en dernier (ordre {size})", size=size))
            check.rule(path, _("{label} : égalité d'influence entre {who} ; pour la départager, "
                               "indiquez l'ordre de pose des tuiles : {need}",
                               label=label, who=who, need=need))
            return None
        settled = iter(next(iter(orders)))  # one ordering per tied group, in `groups` order
        groups = [list(next(settled)) if len(g) > 1 else g for g in groups]

    ranking = [n for g in groups for n in g]
    explanation = [_("{v1} complète ; influence : {listed}.", v1=label.capitalize(), listed=listed)]
    notes: dict[str, str] = {}
    for g in groups:
        if len(g) == 1:
            continue
        v = influence[g[0]]
        if size == 2:
            first = g[0]
            explanation.append(_("{v1} à égalité d'influence ({v}) : la tuile {v3} a été posée en "
                                 "premier, {first} passe devant.",
                                 v1=join_names(sorted(g, key=seats.index)), v=v, v3=_of(first),
                                 first=first))
            rule = _("départagée par l'ordre de pose")
        elif len(completers) == 1:
            c = completers[0]
            order = join_names(g, "puis")
            if c in g:
                why = _("{c} a complété la ville et passe en dernier", c=c)
            else:
                why = (_("{c} a complété la ville ; dans le sens horaire à partir {v2}, {v3} est le plus "
                         "proche",
                         c=c, v2=_of(c), v3=g[0]))
            explanation.append(_("{v1} à égalité d'influence ({v}) : {why} ; ordre retenu : {order}.",
                                 v1=join_names(sorted(g, key=seats.index)), v=v, why=why, order=order))
            rule = _("départagée dans le sens horaire depuis {c}", c=c)
        else:
            who = join_names(completers, "ou")
            explanation.append(_("{v1} à égalité d'influence ({v}) : que la ville ait été complétée par "
                                 "{who}, le sens horaire donne le même ordre : {v4}.",
                                 v1=join_names(sorted(g, key=seats.index)), v=v, who=who,
                                 v4=join_names(g, 'puis')))
            rule = _("départagée dans le sens horaire")
        for n in g:
            others = join_names([o for o in g if o != n])
            notes[n] = _("égalité d'influence avec {others}, {rule}", others=others, rule=rule)

    points: dict[str, int] = {}
    said = []
    for rank_index, (name, won) in enumerate(zip(ranking, _prizes(size, len(ranking)), strict=True)):
        points[name] = sum(won)
        if won:
            said.append(f"{name} {_sum(list(won))}")
        else:
            said.append(_("{name} rien ({v2}, {v3} prix seulement)",
                          name=name, v2=ordinal(rank_index + 1), v3=len(PRIZES[size])))
    explanation.append(_("Prix ({v1}) : {v2}.",
                         v1='/'.join(str(p) for p in PRIZES[size]), v2=', '.join(said)))
    return CityOutcome(size, True, points, ranking, explanation, notes)


def _read_city(check: Checker, value: Any, path: str, variant: str | None,
               names: Sequence[str]) -> tuple[int, list[Tile]] | None:
    """One city object, validated: (size, tiles), or None when unusable."""
    if check.obj(value, path) is None:
        return None
    before = len(check.problems)
    check.known(value, ("size", "tiles"), path, _("(attendu : size, tiles)"))
    top = MAX_CITY.get(variant or "", 4)
    size = 0
    if "size" not in value:
        check.rule(join(path, "size"), _("indiquez le nombre de cases de la ville (1 à {top})", top=top))
    elif variant == "scotland" and value["size"] == 4 and not isinstance(value["size"], bool):
        check.add(join(path, "size"), _("les villes de 4 cases n'existent qu'en Irlande (Écosse : 1 à 3)"))
    else:
        size = check.int_value(value["size"], join(path, "size"), 1, top)
    raw_tiles = check.array(value, "tiles", path)
    if size and len(raw_tiles) > size:
        check.rule(join(path, "tiles"), _("au plus {v1} dans une ville de {v2} (il y en a {v3})",
                                          v1=ngettext("{n} tuile", "{n} tuiles", size),
                                          v2=ngettext("{n} case", "{n} cases", size),
                                          v3=len(raw_tiles)))
    tiles: list[Tile] = []
    seen_orders: dict[int, int] = {}
    for j, raw in enumerate(raw_tiles):
        p = join(join(path, "tiles"), j)
        if check.obj(raw, p) is None:
            continue
        check.known(raw, ("player", "influence", "order"), p, _("(attendu : player, influence, order)"))
        if raw.get("player") is None:  # typed icons before choosing whose tile: a rule, not a bad value
            check.rule(join(p, "player"), _("choisissez le joueur qui a posé la tuile"))
            player = None
        else:
            player = check.player_ref(raw, "player", p, names, nullable=False)
        if "influence" not in raw:
            check.rule(join(p, "influence"), _("indiquez les icônes de la tuile (1 à {INFLUENCE_MAX})",
                                               INFLUENCE_MAX=INFLUENCE_MAX))
            influence = 0
        else:
            influence = check.int_value(raw["influence"], join(p, "influence"), 1, INFLUENCE_MAX)
        order = None
        if "order" in raw and raw["order"] is not None:
            order = check.int_value(raw["order"], join(p, "order"), 1, size or top) or None
            if order is not None and order in seen_orders:
                check.rule(join(p, "order"), _("l'ordre {order} est déjà donné à la tuile {v2} de cette "
                                               "ville (un rang par tuile)",
                                               order=order, v2=seen_orders[order] + 1))
                order = None
            elif order is not None:
                seen_orders[order] = j
        if player is not None and influence:
            tiles.append(Tile(player, influence, order))
    if len(check.problems) != before or not size:
        return None
    return size, tiles


# --------------------------------------------------------------------------- the document


@dataclass
class _Player:
    """One player's fields, read and bounded (invalid fields read as 0 / empty)."""

    track: int = 0
    farms: dict[str, list[int]] = field(default_factory=dict)
    ports: int = 0
    public_missions: list[tuple[int, bool]] = field(default_factory=list)
    towers: list[int] = field(default_factory=list)
    incomplete_icons: int = 0
    castles: int = 0
    castles_ok: bool = True  # an invalid count is reported once, not again against a holder
    missions: list[tuple[int, bool]] = field(default_factory=list)
    gifts: int = 0
    privatized: list[tuple[int, bool]] = field(default_factory=list)
    tara: int = 0


def _cards(check: Checker, obj: dict, key: str, path: str, flag: str,
           max_items: int | None = None) -> list[tuple[int, bool]]:
    """Mission-like lists: `[{"points": 7, flag: true}]` -> [(7, True)]."""
    cards = []
    for k, item in enumerate(check.array(obj, key, path, max_items=max_items)):
        p = join(join(path, key), k)
        if check.obj(item, p) is None:
            continue
        check.known(item, ("points", flag), p, _("(attendu : points, {flag})", flag=flag))
        if "points" not in item:
            check.rule(join(p, "points"), _("indiquez les points de la carte (1 à 30)"))
            points = 0
        else:
            points = check.int_value(item["points"], join(p, "points"), *MISSION_POINTS)
        cards.append((points, check.boolean(item, flag, p)))
    return cards


def _read_player(check: Checker, raw: dict, path: str, variant: str) -> _Player:
    _known(check, raw, VARIANT_PLAYER_KEYS, COMMON_PLAYER_KEYS, variant, path)
    p = _Player()
    p.track = check.integer(raw, "track", path, 0, TRACK_MAX)
    farms_obj = check.field_obj(raw, "farms", path)
    farms_path = join(path, "farms")
    check.known(farms_obj, FARM_KINDS, farms_path, _("(attendu : agricultural, energy)"))
    p.farms = {}
    for kind in FARM_KINDS:
        sizes = check.array(farms_obj, kind, farms_path, max_items=FARM_MAX)
        p.farms[kind] = [check.int_value(v, join(join(farms_path, kind), k), 1, FARM_MAX)
                         for k, v in enumerate(sizes)]
    p.ports = check.integer(raw, "ports", path, 0, PORTS_MAX)
    p.incomplete_icons = check.integer(raw, "incomplete_icons", path, 0, ICONS_MAX)
    before = len(check.problems)
    p.castles = check.integer(raw, "castles", path, 0, CASTLES_MAX)
    p.castles_ok = len(check.problems) == before
    if variant == "scotland":
        p.missions = _cards(check, raw, "missions", path, "achieved")
        p.gifts = check.integer(raw, "gifts", path, 0, CARDS_MAX)
        count = len(p.missions) + p.gifts
        if count > CARDS_MAX:
            message = (_("au plus {CARDS_MAX} cartes Mission privée par joueur, dons compris "
                         "(ici {v2} + {v3} = {count})",
                         CARDS_MAX=CARDS_MAX, count=count,
                         v2=ngettext("{n} mission", "{n} missions", len(p.missions)),
                         v3=ngettext("{n} don", "{n} dons", p.gifts)))
            for key in ("missions", "gifts"):
                if raw.get(key):
                    check.rule(join(path, key), message)
    else:
        p.public_missions = _cards(check, raw, "public_missions", path, "doubled", max_items=PUBLIC_MAX)
        if sum(doubled for _, doubled in p.public_missions) > 1:
            check.rule(join(path, "public_missions"),
                       _("une seule mission peut être doublée : un joueur n'a qu'un multiplicateur"))
        p.towers = []
        for k, v in enumerate(check.array(raw, "towers", path)):
            if type(v) is int and v in TOWER_LIMITS:  # an object or a list is a bad value, not a crash
                p.towers.append(v)
            else:
                check.add(join(join(path, "towers"), k), _("doit valoir 13 ou 3"))
        if any(p.towers.count(value) > limit for value, limit in TOWER_LIMITS.items()):
            check.rule(join(path, "towers"), _("au plus 3 tours à 13 points et 2 tours à 3 points (ici "
                                               "{v1} à 13 et {v2} à 3)",
                                               v1=p.towers.count(13), v2=p.towers.count(3)))
        p.privatized = _cards(check, raw, "privatized_missions", path, "achieved", max_items=1)
        p.tara = check.integer(raw, "tara_adjacent", path, 0, TARA_MAX)
    return p


def _holders(check: Checker, doc: dict, variant: str, names: Sequence[str],
             players: dict[str, _Player]) -> dict[str, str | None]:
    """Castle holders named at table level; each must hold enough castles."""
    holders = {key: check.player_ref(doc, key, "", names) for key in VARIANT_TABLE_KEYS[variant]}
    for name in names:
        held = [key for key, holder in holders.items() if holder == name]
        if not held or name not in players or not players[name].castles_ok:
            continue
        castles = players[name].castles
        if castles >= len(held):
            continue
        which = join_names([_("le {castle}", castle=tr(CASTLE_NAMES[k])) for k in held])
        for key in held:
            check.rule(key, _("{name} tient {which} : ses châteaux doivent être au moins {v3} (indiqué : "
                              "{castles})",
                              name=name, which=which, v3=len(held), castles=castles))
        check.rule(join(join("players", names.index(name)), "castles"),
                   _("au moins {v1} : {name} tient {which}", v1=len(held), name=name, which=which))
    return holders


def _lines(variant: str, p: _Player, cities: list[tuple[str, int, str]],
           incomplete: list[tuple[str, int]]) -> list[Line]:
    """One line per breakdown key of the variant, zeros included, with its arithmetic."""
    lines: dict[str, Line] = {}
    lines["track"] = Line("track", p.track, _("{v1} sur la piste de score", v1=p.track) if p.track else "")

    farm_parts, farm_values = [], []
    for kind, word in FARM_KINDS.items():
        sizes = p.farms.get(kind, [])
        if sizes:
            farm_parts.append(_("{what} : {values}", what=tr(word),
                                values=", ".join(f"{n} → {_triangle(n)}" for n in sizes)))
            farm_values.extend(n * (n + 1) // 2 for n in sizes)
    farm_detail = ""
    if farm_values:
        total = _(" ; total {v1}", v1=_sum(farm_values)) if len(farm_values) > 1 else ""
        # the caveat (each group grown one tile at a time) is the category's reminder, said once
        farm_detail = _(" ; ").join(farm_parts) + total
    lines["farms"] = Line("farms", sum(farm_values), farm_detail)

    city_detail = _(" ; ").join(_("{what} : {values}", what=label,
                                  values=pts) + (f" ({note})" if note else "")
                             for label, pts, note in cities)
    if len(cities) > 1:
        city_detail += f" ; {_sum([pts for _, pts, _ in cities])}"
    lines["cities"] = Line("cities", sum(pts for _, pts, _ in cities), city_detail)
    lines["ports"] = Line("ports", p.ports, f"{p.ports} × 1" if p.ports else "")

    if variant == "ireland":
        values = [pts * 2 if doubled else pts for pts, doubled in p.public_missions]
        terms = [f"{pts} × 2" if doubled else str(pts) for pts, doubled in p.public_missions]
        detail = " + ".join(terms)
        if len(terms) > 1 or any(doubled for _, doubled in p.public_missions):
            detail += f" = {sum(values)}"
        lines["public_missions"] = Line("public_missions", sum(values), detail)
        lines["towers"] = Line("towers", sum(p.towers), _sum(p.towers) if p.towers else "")

    icons = ngettext("{n} icône", "{n} icônes", p.incomplete_icons)
    inc_parts = ([icons] if p.incomplete_icons else []) + \
        [f"{pts} ({label})" for label, pts in incomplete]
    inc_values = ([p.incomplete_icons] if p.incomplete_icons else []) + [pts for _, pts in incomplete]
    inc_detail = " + ".join(inc_parts)
    if len(inc_values) > 1:
        inc_detail += f" = {sum(inc_values)}"
    lines["incomplete"] = Line("incomplete", sum(inc_values), inc_detail)
    lines["castles"] = Line("castles", p.castles * CASTLE_POINTS,
                            f"{p.castles} × {CASTLE_POINTS}" if p.castles else "")

    if variant == "scotland":
        parts, values = [], []
        for pts, achieved in p.missions:
            parts.append(_("{pts} (réussie)", pts=pts) if achieved
                         else _("0 (mission à {pts} manquée)", pts=pts))
            values.append(pts if achieved else 0)
        if p.gifts:
            parts.append(_("{v1} × {GIFT_POINTS} (don de la cathédrale)",
                           v1=p.gifts, GIFT_POINTS=GIFT_POINTS))
            values.append(p.gifts * GIFT_POINTS)
        detail = " + ".join(parts) + (f" = {sum(values)}" if len(parts) > 1 else "")
        lines["missions"] = Line("missions", sum(values), detail)
    else:
        detail = ""
        value = 0
        for pts, achieved in p.privatized:
            value = pts if achieved else 0
            detail = _("{pts} (réussie)", pts=pts) if achieved else _("0 (mission à {pts} manquée)", pts=pts)
        lines["privatized_missions"] = Line("privatized_missions", value, detail)
    return [lines[key] for key in GAME.keys(variant)]


def _stirling(holder: str | None) -> Criterion:
    """R9: Stirling's holder wins a tie for first even when not among the tied; below first
    place (R11) it only settles a tie among the players holding it."""
    name = tr(CASTLE_NAMES["stirling"])

    def split(tie: Tie) -> Split | None:
        if holder is None:
            return None
        if holder in tie.names:
            groups = ((holder,), tuple(n for n in tie.names if n != holder))
            return Split(groups, _("{holder} tient le {name} ; {v3}",
                                   holder=holder, name=name, v3=outcome(groups, tie.place)),
                         _("{holder} tient le {name}", holder=holder, name=name))
        if not tie.first:
            return None
        groups = ((holder,), tie.names)
        return Split(groups, _("{holder} tient le {name} et l'emporte même sans être à égalité en tête "
                               "(règle du château de Stirling) ; {v3}",
                               holder=holder, name=name, v3=outcome(groups, tie.place)),
                     _("{holder} tient le {name}", holder=holder, name=name))

    def same(tie: Tie) -> str:
        if holder is None:
            return _("personne ne tient le {name}", name=name)
        return _("{nobody} ({holder} le tient, mais hors de l'égalité il ne compte que pour la 1re place)",
                 nobody=none_of(tie, name), holder=holder)

    return Criterion(split, same)


def none_of(tie: Tie, castle: str) -> str:
    """"Neither" of two tied players, "none" of three or more, holds the castle."""
    if len(tie.names) == 2:
        return _("aucun des deux ne tient le {castle}", castle=castle)
    return _("aucun d'eux ne tient le {castle}", castle=castle)


def criteria(variant: str, holders: dict[str, str | None], tara: dict[str, int]) -> list[Criterion]:
    """The tie-break chain of a map (R9, R10), also applied below first place (R11)."""
    if variant == "scotland":
        castle = tr(CASTLE_NAMES["edinburgh"])
        return [holder_wins(holders.get("edinburgh"), _("{{name}} tient le {castle}", castle=castle),
                            lambda tie: none_of(tie, castle)),
                _stirling(holders.get("stirling"))]
    castle = tr(CASTLE_NAMES["blarney"])
    return [holder_wins(holders.get("blarney"), _("{{name}} tient le {castle}", castle=castle),
                        lambda tie: none_of(tie, castle)),
            by_value(lambda n: tara.get(n, 0), _("cases adjacentes à la tour ronde de Tara"))]


# Breakdown keys whose detail carries a number a tie-break reads: never cut nor left out on a sheet.
TIEBREAK_KEYS: tuple[str, ...] = ()


def _city_part(check: Checker, raw: Any, path: str, variant: str, seats: tuple[str, ...],
               index: int) -> tuple[str, CityOutcome | None, tuple[Problem, ...]] | None:
    """One city read (its problems on `check`) and settled (R3-R5; the problems of its settling
    returned, said after the castles' as the document is read): kept per city and seats (parts.py).
    None when the city cannot be read."""
    city = _read_city(check, raw, path, variant, seats)
    if city is None:
        return None
    size, tiles = city
    label = city_label(index, size)
    settling = Checker()
    return label, settle_city(size, tiles, seats, settling, path, label), tuple(settling.problems)


@dataclass
class _Read:
    """A player's part (parts.py): their fields read, and their lines as worked out for the cities
    they won and the tiles they left (the last few kept: the cities change less often than a field)."""

    player: _Player
    lines: dict[tuple, tuple[Line, ...]] = field(default_factory=dict)

    def lines_for(self, variant: str, won: tuple, left: tuple) -> tuple[Line, ...]:
        key = (won, left)
        found = self.lines.get(key)
        if found is None:
            found = tuple(_lines(variant, self.player, list(won), list(left)))
            if len(self.lines) >= 4:
                self.lines.clear()
            self.lines[key] = found
        return found


def _read_part(check: Checker, raw: dict, path: str, variant: str) -> _Read:
    return _Read(_read_player(check, raw, path, variant))


def score(doc: dict, names: list[str], check: Checker) -> Result | None:
    """Validate the Rebirth part of a document and score it; None when `check` has problems. Each
    player's reading and lines and each city's outcome are kept per sub-document (parts.py): an
    autosave that changed one player reads that player alone."""
    variant = doc["variant"]
    _known(check, doc, VARIANT_TABLE_KEYS, COMMON_TABLE_KEYS, variant, "")
    read: dict[str, _Read] = {}
    for i, (name, raw) in enumerate(zip(names, doc["players"], strict=True)):
        if isinstance(raw, dict):
            read[name] = PARTS.part(_read_part, check, raw, join("players", i), variant)
    players = {name: part.player for name, part in read.items()}

    seats = tuple(names)
    cities = []
    for i, raw in enumerate(check.array(doc, "cities", "")):
        city = PARTS.part(_city_part, check, raw, join("cities", i), variant, seats, i)
        if city is not None:
            cities.append(city)
    holders = _holders(check, doc, variant, names, players)

    won: dict[str, list[tuple[str, int, str]]] = {n: [] for n in names}
    left: dict[str, list[tuple[str, int]]] = {n: [] for n in names}
    for label, settled, problems in cities:
        check.problems.extend(problems)
        if settled is None:
            continue
        for name, pts in settled.points.items():
            if settled.complete:
                won[name].append((label, pts, settled.notes.get(name, "")))
            else:
                left[name].append((label, pts))
    if not check.ok:
        return None

    scores = [PlayerScore(n, list(read[n].lines_for(variant, tuple(won[n]), tuple(left[n]))))  # its own list
              for n in names]
    tara = {n: players[n].tara for n in names}
    return finish(GAME.id, variant, scores, lambda: criteria(variant, holders, tara))  # a tie's alone


ITEMISED = ("farms", "cities", "ports", "public_missions", "towers")  # in-game points besides the track


def warnings(doc: dict, result: Result) -> list[Problem]:
    """Likely mistakes in a document that scores (never blocking): a player whose track AND itemised
    in-game points are both given. R1 adds them up, which is right only if the track left those
    points out; say so, with the sum."""
    out = []
    for i, p in enumerate(result.players):
        track = p.points("track")
        items = [(line.key, line.points) for line in p.breakdown if line.key in ITEMISED and line.points]
        if track and items:
            labels = {c.key: c.label_for(result.variant).lower() for c in GAME.categories_for(result.variant)}
            parts = ", ".join(f"{labels.get(k, k)} {v}" for k, v in items)
            total = track + sum(v for _, v in items)
            out.append(Problem(join(join("players", i), "track"),
                               _("{v1} : piste de score ({track}) et points détaillés ({parts}) sont "
                                 "additionnés, soit {total}. Si la piste les compte déjà, "
                                 "laissez-la à 0.",
                                 v1=p.name, track=track, parts=parts, total=total)))
    return out


# --------------------------------------------------------------------------- tools for the table


def resolve_city(payload: Any) -> dict:
    """Settle one city at the table.

    Payload: `{"variant", "players": [names in seat order], "city": {"size", "tiles"}}`.

    Returns `{"complete", "points": {name: n}, "ranking": [names], "explanation": [sentences]}`.
    `ranking` lists the players present best first (a city tie is always broken, R4, so a plain
    list of names says it all); it is empty for an incomplete city, whose `points` are then each
    player's influence as the final count would score it (R5)."""
    check = Checker()
    if check.obj(payload, "") is None:
        check.raise_if_any()
    check.known(payload, ("variant", "players", "city"), "", _("(attendu : variant, players, city)"))
    variant = payload.get("variant")
    if not isinstance(variant, str) or variant not in MAX_CITY:
        check.add("variant", _("champ obligatoire : {v1}", v1=join_names(list(MAX_CITY), "ou"))
                  if variant is None
                  else _("variante inconnue : {variant!r} (attendu : scotland ou ireland)",
                         variant=variant))
        variant = None
    names = _name_list(check, payload, "")
    city = None
    if "city" not in payload:
        check.add("city", _('champ obligatoire : {"size", "tiles"}'))
    else:
        city = _read_city(check, payload["city"], "city", variant, names)
    check.raise_if_any()
    assert city is not None
    size, tiles = city
    settled = settle_city(size, tiles, names, check, "city", size_label(size))
    check.raise_if_any()
    assert settled is not None
    return {"complete": settled.complete, "points": settled.points, "ranking": settled.ranking,
            "explanation": settled.explanation}


def castle_control(payload: Any) -> dict:
    """Who holds a castle after the active player's tile (R6).

    Payload: `{"players", "holder": name or null, "active": name, "adjacent": {name: {"tiles", "farms"}}}`;
    a player left out of `adjacent` has no adjacent tile. Returns `{"holder", "explanation"}`."""
    check = Checker()
    if check.obj(payload, "") is None:
        check.raise_if_any()
    check.known(payload, ("players", "holder", "active", "adjacent"), "",
                _("(attendu : players, holder, active, adjacent)"))
    names = _name_list(check, payload, "")
    holder = check.player_ref(payload, "holder", "", names) if names else None
    active = check.player_ref(payload, "active", "", names, nullable=False) if names else None
    counts: dict[str, tuple[int, int]] = {}
    adjacent = check.field_obj(payload, "adjacent", "")
    for key, value in adjacent.items():
        p = join("adjacent", str(key))
        name = check.resolve_name(key, p, names) if isinstance(key, str) else None
        if check.obj(value, p) is None or name is None:
            continue
        if name in counts:
            check.add(p, _("{name} est déjà donné", name=name))
            continue
        check.known(value, ("tiles", "farms"), p, _("(attendu : tiles, farms)"))
        tiles = check.integer(value, "tiles", p, 0, ADJACENT_MAX)
        farms = check.integer(value, "farms", p, 0, ADJACENT_MAX)
        if farms > tiles:
            check.add(join(p, "farms"), _("les fermes font partie des tuiles adjacentes : au plus {tiles}",
                                          tiles=tiles))
        counts[name] = (tiles, farms)
    # Tiles are never removed: the active player has just placed one beside the castle, and
    # the holder took it with at least one (Décision du projet, docs/rulings.md).
    if active is not None and not counts.get(active, (0, 0))[0]:
        check.add("active", _("{active} vient de poser une tuile à côté du château : au moins 1 tuile "
                              "adjacente attendue",
                              active=active))
    if holder is not None and holder != active and not counts.get(holder, (0, 0))[0]:
        check.add("holder", _("{holder} contrôle le château, donc y a au moins 1 tuile adjacente",
                              holder=holder))
    check.raise_if_any()
    assert active is not None
    a_tiles, a_farms = counts.get(active, (0, 0))
    if holder is None:
        return {"holder": active, "explanation": _("Le château est libre : {active} y a {v2} et en prend "
                                                   "le contrôle.",
                                                   active=active,
                                                   v2=ngettext("{n} tuile adjacente", "{n} tuiles adjacentes",
                                                               a_tiles))}
    if holder == active:
        return {"holder": holder, "explanation": _("{holder} contrôle déjà le château et le garde.",
                                                   holder=holder)}
    h_tiles, h_farms = counts.get(holder, (0, 0))
    said = _("tuiles adjacentes : {active} {a_tiles}, {holder} {h_tiles}",
             active=active, a_tiles=a_tiles, holder=holder, h_tiles=h_tiles)
    if a_tiles == h_tiles:
        said = _("égalité de {said} ; fermes adjacentes : {active} {a_farms}, {holder} {h_farms}",
                 said=said, active=active, a_farms=a_farms, holder=holder, h_farms=h_farms)
        if a_farms == h_farms:
            said += _(" ; égalité persistante : le joueur actif perd")
    takes = (a_tiles, a_farms) > (h_tiles, h_farms)  # more tiles, then more farms (R6)
    winner = active if takes else holder
    verdict = (_("{winner} prend le contrôle du château.", winner=winner) if takes
               else _("{winner} garde le contrôle du château.", winner=winner))
    return {"holder": winner, "explanation": f"{said[0].upper()}{said[1:]} ; {verdict}"}



TOOLS = {"city": resolve_city, "castle": castle_control}


GAME = Game(
    id="rebirth",
    label=N_("Rebirth"),
    variants={"scotland": N_("Écosse"), "ireland": N_("Irlande")},
    min_players=2,
    max_players=4,
    categories=(
        Category("track", N_("Piste de score"), N_("points lus sur la piste de score")),
        Category("farms", N_("Fermes"), N_("taille du groupe à chaque pose : 1+2+…+n, si chaque groupe a "
                                           "grandi d'une tuile à la fois (né d'une fusion : moins)")),
        Category("cities", N_("Villes complètes"), N_("1 case : influence · 2 cases 5/3 · 3 cases 6/4/2"),
                 variant_hints={"ireland": N_("1 case : influence · 2 cases 5/3 · 3 cases 6/4/2 · 4 "
                                              "cases 8/5/3")}),
        Category("ports", N_("Ports"), N_("1 par port"),
                 variant_labels={"ireland": N_("Exploitations en mer")},
                 variant_hints={"ireland": N_("1 par exploitation en mer")}),
        Category("public_missions", N_("Missions publiques"), N_("valeur de la carte, doublée par le "
                                                             "multiplicateur"),
                 IRELAND),
        Category("towers", N_("Tours rondes"), N_("13 ou 3 points"), IRELAND),
        Category("incomplete", N_("Villes incomplètes"), N_("1 par icône")),
        Category("castles", N_("Châteaux"), N_("5 par château")),
        Category("missions", N_("Missions privées"), N_("points de la carte si réussie ; don : 3"), SCOTLAND),
        Category("privatized_missions", N_("Mission privatisée"), N_("grande valeur de la carte si réussie"),
                 IRELAND),
    ),
    score=score,
    tiebreaks={
        "scotland": (N_("Égalité : le joueur ex aequo qui tient le château d'Édimbourg gagne."),
                     N_("Sinon le détenteur du château de Stirling gagne, même s'il n'était pas en tête."),
                     N_("Sinon, victoire partagée.")),
        "ireland": (N_("Égalité : le joueur ex aequo qui tient le château de Blarney gagne."),
                    N_("Sinon celui qui a le plus de cases adjacentes à la tour ronde de Tara."),
                    N_("Sinon, victoire partagée.")),
    },
)


TIE_FIELDS = {
    "scotland": (TieField("edinburgh", N_("Château d'Édimbourg"), "holder"),
                 TieField("stirling", N_("Château de Stirling"), "holder", among="all",
                          hint=N_("Si aucun ex æquo ne tient Édimbourg, son détenteur gagne, même s'il "
                                  "n'était pas en tête."))),
    "ireland": (TieField("blarney", N_("Château de Blarney"), "holder"),
                TieField("tara_adjacent", N_("Cases adjacentes à la tour ronde de Tara"), "count", 0, 8)),
}


def tie_document(q: TieQuestion) -> tuple[dict | None, list[Problem]]:
    """A Rebirth game where the tied players have `q.total`: each castle named is held (castles ≥ 1,
    5 points each) and the track is lowered by as much, so the totals stay equal; the players
    outside the tie (Scotland: Stirling may be held by one of them) get 1, 2 points less."""
    holders = {key: q.values.get(key) for key in VARIANT_TABLE_KEYS[q.variant]}
    castles = [sum(1 for seat in holders.values() if seat == i) for i in range(len(q.names))]
    problems = []
    players = []
    for i, name in enumerate(q.names):
        total = q.total if i < q.tied else q.total - (i - q.tied + 1)
        track = total - 5 * castles[i]
        if track < 0:
            if i < q.tied:
                problems.append(Problem("total", _("au moins {n} : {name} tient {v2} (5 points chacun)",
                                                   n=5 * castles[i], name=name,
                                                   v2=ngettext("{n} château", "{n} châteaux", castles[i]))))
            else:
                problems.append(Problem("total", _("au moins {n} pour que {name}, hors de l'égalité, ait "
                                                   "moins de points et tienne son château",
                                                   n=5 * castles[i] + i - q.tied + 1, name=name)))
            continue
        player = {"name": name, "track": min(track, 500), "castles": castles[i]}
        if q.variant == "ireland" and i < q.tied:
            player["tara_adjacent"] = q.values.get("tara_adjacent", [0] * q.tied)[i]
        players.append(player)
    if q.total > 500:
        problems.append(Problem("total", _("doit être entre {lo} et {hi}", lo=0, hi=500)))
    if problems:
        return None, problems[:1]
    doc = {"game": GAME.id, "variant": q.variant, "players": players}
    for key, seat in holders.items():
        doc[key] = q.names[seat] if seat is not None else None
    return doc, []


def tie_handover(q: TieQuestion) -> dict:
    """The castles' holders by name and each tied player's spaces next to Tara: the castles' count
    is not told there (a holder holds at least one, how many is the table's to type)."""
    doc: dict = {key: q.names[q.values[key]] for key in VARIANT_TABLE_KEYS[q.variant]
                 if q.values.get(key) is not None}
    tara = q.values.get("tara_adjacent") if q.variant == "ireland" else None
    doc["players"] = [{"tara_adjacent": tara[i]} if tara and i < q.tied and tara[i] else {}
                      for i in range(len(q.names))]
    return doc


HOLDER_WORDS = {"edinburgh": N_("le château d'Édimbourg"), "stirling": N_("le château de Stirling"),
                "blarney": N_("le château de Blarney")}


def levers(doc: dict, seat: int) -> tuple[Lever, ...]:
    """What "what would I have needed?" may change of a player's own end state (docs/rulings.md):
    castles, the score track, Scotland's cathedral gifts (missions + gifts ≤ 8), Ireland's spaces next
    to Tara, and each castle nobody holds, taken (one castle more). A castle another player holds is
    theirs: never taken from them."""
    variant = doc["variant"]
    player = doc["players"][seat]
    me = ("players", seat)
    out = [Lever((*me, "castles"), (N_("{n} château de plus"), N_("{n} châteaux de plus")), hi=CASTLES_MAX)]
    name = player["name"].strip()
    for key in VARIANT_TABLE_KEYS[variant]:
        if doc.get(key) is None:
            out.append(Lever((key,), (HOLDER_WORDS[key],), kind="switch", to=name,
                             carries=((*me, "castles"),)))
    if variant == "scotland":
        missions = player.get("missions") or []
        out.append(Lever((*me, "gifts"), (N_("{n} don de la cathédrale de plus"),
                                          N_("{n} dons de la cathédrale de plus")),
                         hi=max(0, CARDS_MAX - len(missions))))
    else:
        out.append(Lever((*me, "tara_adjacent"), (N_("{n} case de plus à côté de la tour de Tara"),
                                                  N_("{n} cases de plus à côté de la tour de Tara")),
                         hi=TARA_MAX))
    out.append(Lever((*me, "track"), (N_("{n} point de plus sur la piste de score"),
                                      N_("{n} points de plus sur la piste de score")), hi=TRACK_MAX))
    return tuple(out)


HOLDER_KEYS = ("edinburgh", "stirling", "blarney")  # the table's keys naming a castle's holder


def _tiles_named(doc: dict, change) -> dict:
    """`doc` with each city tile's `player` passed through `change` (the rest as it is)."""
    cities = doc.get("cities")
    if not isinstance(cities, list):
        return doc
    out = []
    for city in cities:
        if isinstance(city, dict) and isinstance(city.get("tiles"), list):
            city = {**city, "tiles": [{**t, "player": change(t.get("player"))}
                                      if isinstance(t, dict) and "player" in t else t for t in city["tiles"]]}
        out.append(city)
    return {**doc, "cities": out}


def renamed(doc: dict, mapping: Mapping[str, str]) -> dict:
    """The castles' holders and the cities' tiles follow a renamed player (the names in `players`
    are the shared hook's)."""
    folded = {_key(old): new for old, new in mapping.items()}

    def change(value):  # a reference matches its player trimmed and without regard to case
        return folded.get(_key(value), value) if isinstance(value, str) else value

    out = dict(doc)
    for key in HOLDER_KEYS:
        if key in out:
            out[key] = change(out[key])
    return _tiles_named(out, change)


def without_player(doc: dict, name: str) -> dict:
    """A player gone from the table: a castle they held has no holder, and each of their city tiles
    stays in its city without an owner (its size and the other tiles' prizes unchanged) for the
    table to give or remove (docs/rulings.md, "Players changed after the start")."""
    gone = _key(name)

    def change(value):
        return None if isinstance(value, str) and _key(value) == gone else value

    out = dict(doc)
    for key in HOLDER_KEYS:
        if key in out:
            out[key] = change(out[key])
    return _tiles_named(out, change)


def _key(name: str) -> str:
    return name.strip().casefold()


class _Hooks(Hooks):
    tools = TOOLS
    tiebreak_keys = TIEBREAK_KEYS
    seats_read = True  # R4's placement order, clockwise city ties

    def warnings(self, doc: dict, result: Result) -> list[Problem]:
        return warnings(doc, result)

    def renamed(self, doc: dict, mapping: Mapping[str, str]) -> dict:
        return renamed(super().renamed(doc, mapping), mapping)

    def without(self, doc: dict, name: str) -> dict:
        return without_player(super().without(doc, name), name)

    def tie_fields(self, variant: str, edition: str | None) -> tuple[TieField, ...] | None:
        return TIE_FIELDS.get(variant)

    def tie_others(self, variant: str) -> int:
        return 2 if variant == "scotland" else 0  # R9: Stirling's holder wins from outside the tie

    def tie_document(self, question: TieQuestion) -> tuple[dict | None, list[Problem]]:
        return tie_document(question)

    def tie_handover(self, question: TieQuestion) -> dict:
        return tie_handover(question)

    def levers(self, doc: dict, seat: int, edition: str | None) -> tuple[Lever, ...]:
        return levers(doc, seat)


HOOKS = _Hooks()
