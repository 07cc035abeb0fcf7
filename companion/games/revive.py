"""Revive, with its expansion Call of the Abyss: end-game scoring and tie-breaks.

Rules: docs/rules/revive.fr.md, read with rulings V1-V6 (docs/rulings.md).
The document gives what each player reads off the table at the end; this module
checks it against the contract and adds up the categories of V1.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

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
from .hooks import blank as nothing
from .i18n import N_, _, current, ngettext
from .parts import CLEARS, PARTS

ABYSS = ("abyss",)
COLOURS = 3  # card colours, artifact colours and artifact-card lines all come in three (V3, V5)
CARD_POINTS = 2  # per card gained of an unlocked colour (V1)
FOUR_TOKEN = 4
TWO_TOKEN = 2
RESOURCES_PER_POINT = 5

# Whole-number fields of a player: key -> upper bound (the lower bound is 0).
NUMBERS: dict[str, int] = {
    "track": 500, "progress": 100, "scyphoz": 20, "two_tokens": 4, "artifact_points": 100,
    "devotion": 200, "machine_progress": 60,
}
ABYSS_ONLY = ("scyphoz", "devotion")
LISTS = ("card_bonus", "great_locations", "artifacts", "artifact_card")
PLAYER_KEYS = ("name", *NUMBERS, *LISTS, "four_token", "resources")

# Remaining resources (V2): key -> (limit, singular, plural), in the order the detail lists them.
RESOURCES: dict[str, tuple[int, str, str]] = {
    "gears": (6, N_("{n} engrenage"), N_("{n} engrenages")),
    "books": (6, N_("{n} livre"), N_("{n} livres")),
    "food": (6, N_("{n} nourriture"), N_("{n} nourritures")),
    "crystals": (3, N_("{n} cristal"), N_("{n} cristaux")),
}
GREAT_LOCATIONS_MAX = 5
GREAT_LOCATION_POINTS = (1, 30)
CARDS_MAX = 60
ARTIFACTS_MAX = 20
CARD_COUNT_MAX = 100
CARD_LINE_POINTS_MAX = 10


def colour(i: int) -> str:
    """Neutral colour label (V5): the rules name only yellow, and tables name the others as they like."""
    return _("couleur {n}", n=i + 1)


@dataclass(frozen=True)
class Sheet:
    """One player's end-of-game entries, validated (a field left out is 0 / empty)."""

    track: int = 0
    progress: int = 0
    card_bonus: tuple[tuple[bool, int], ...] = ((False, 0),) * COLOURS  # (unlocked, cards) per colour
    scyphoz: int = 0
    great_locations: tuple[int, ...] = ()
    four_token: bool = False
    two_tokens: int = 0
    resources: tuple[int, ...] = (0,) * len(RESOURCES)  # in RESOURCES order
    artifacts: tuple[int, ...] = (0,) * COLOURS
    artifact_points: int = 0
    artifact_card: tuple[tuple[int, int], ...] = ((0, 0),) * COLOURS  # (count, points) per line
    devotion: int = 0
    machine_progress: int = 0

    @property
    def leftover(self) -> int:
        """Resources not converted into points (V6's first tie-break): the total modulo 5."""
        return sum(self.resources) % RESOURCES_PER_POINT


# --------------------------------------------------------------------------- reading


def _three(check: Checker, player: dict, key: str, path: str) -> list:
    """A per-colour list: exactly three entries when given (contract), empty when left out."""
    return check.array(player, key, path, exact=COLOURS)


def _pad(values: list, empty: object) -> tuple:
    """Three entries whatever was read, so scoring never indexes out of range."""
    return tuple((values + [empty] * COLOURS)[:COLOURS])


def _card_bonus(check: Checker, player: dict, path: str) -> tuple[tuple[bool, int], ...]:
    entries = []
    for i, entry in enumerate(_three(check, player, "card_bonus", path)):
        p = join(join(path, "card_bonus"), i)
        entry = check.obj(entry, p)
        if entry is None:
            entries.append((False, 0))
            continue
        check.known(entry, ("unlocked", "cards"), p)
        entries.append((check.boolean(entry, "unlocked", p), check.integer(entry, "cards", p, 0, CARDS_MAX)))
    return _pad(entries, (False, 0))


def _artifact_card(check: Checker, player: dict, path: str) -> tuple[tuple[int, int], ...]:
    entries = []
    for i, entry in enumerate(_three(check, player, "artifact_card", path)):
        p = join(join(path, "artifact_card"), i)
        entry = check.obj(entry, p)
        if entry is None:
            entries.append((0, 0))
            continue
        check.known(entry, ("count", "points"), p)
        entries.append((check.integer(entry, "count", p, 0, CARD_COUNT_MAX),
                        check.integer(entry, "points", p, 0, CARD_LINE_POINTS_MAX)))
    return _pad(entries, (0, 0))


def _resources(check: Checker, player: dict, path: str) -> tuple[int, ...]:
    p = join(path, "resources")
    given = check.field_obj(player, "resources", path)
    check.known(given, RESOURCES, p)
    return tuple(check.integer(given, key, p, 0, limit) for key, (limit, _, _) in RESOURCES.items())


def _plain_card_bonus(value: object) -> tuple[tuple[bool, int], ...] | None:
    """`card_bonus` as the contract wants it (three {unlocked, cards}), read; None otherwise."""
    if type(value) is not list or len(value) != COLOURS:
        return None
    out = []
    for entry in value:
        if type(entry) is not dict or not _CARD_BONUS_KEYS.issuperset(entry):
            return None
        unlocked, cards = entry.get("unlocked", False), entry.get("cards", 0)
        if type(unlocked) is not bool or type(cards) is not int or not 0 <= cards <= CARDS_MAX:
            return None
        out.append((unlocked, cards))
    return tuple(out)


def _plain_artifact_card(value: object) -> tuple[tuple[int, int], ...] | None:
    """`artifact_card` as the contract wants it (three {count, points}), read; None otherwise."""
    if type(value) is not list or len(value) != COLOURS:
        return None
    out = []
    for entry in value:
        if type(entry) is not dict or not _ARTIFACT_CARD_KEYS.issuperset(entry):
            return None
        count, points = entry.get("count", 0), entry.get("points", 0)
        if type(count) is not int or not 0 <= count <= CARD_COUNT_MAX \
                or type(points) is not int or not 0 <= points <= CARD_LINE_POINTS_MAX:
            return None
        out.append((count, points))
    return tuple(out)


_CARD_BONUS_KEYS = frozenset(("unlocked", "cards"))
_ARTIFACT_CARD_KEYS = frozenset(("count", "points"))
_ALL_KEYS = frozenset(PLAYER_KEYS)
_BASE_NUMBERS = tuple((key, hi) for key, hi in NUMBERS.items() if key not in ABYSS_ONLY)
_ABYSS_NUMBERS = tuple(NUMBERS.items())
_BLANK = dict(vars(Sheet()))  # every field of a sheet, in order, as a player who typed nothing
_RESOURCE_KEYS = frozenset(RESOURCES)
_RESOURCE_LIMITS = tuple((key, limit) for key, (limit, _one, _many) in RESOURCES.items())


def plain_sheet(player: dict, variant: str) -> Sheet | None:
    """The sheet of a player whose every field is as the contract wants it (nothing to say), read
    in one pass without a contract path; None for anything else, which `read_player` reads field
    by field, saying each problem (`read_fields`). The same sheet as it gives whenever it says nothing
    (tests/games/test_revive_reading.py)."""
    if not _ALL_KEYS.issuperset(player):
        return None
    expansion = variant in ABYSS
    if not expansion and ("scyphoz" in player or "devotion" in player):
        return None
    values = _BLANK.copy()
    for key, hi in _ABYSS_NUMBERS if expansion else _BASE_NUMBERS:
        if key in player:
            value = player[key]
            if type(value) is not int or not 0 <= value <= hi:
                return None
            values[key] = value
    if "great_locations" in player:
        value = player["great_locations"]
        if type(value) is not list or len(value) > GREAT_LOCATIONS_MAX:
            return None
        lo, hi = GREAT_LOCATION_POINTS
        for v in value:
            if type(v) is not int or not lo <= v <= hi:
                return None
        values["great_locations"] = tuple(value)
    if "artifacts" in player:
        value = player["artifacts"]
        if type(value) is not list or len(value) != COLOURS:
            return None
        for v in value:
            if type(v) is not int or not 0 <= v <= ARTIFACTS_MAX:
                return None
        values["artifacts"] = tuple(value)
    if "four_token" in player:
        value = player["four_token"]
        if type(value) is not bool:
            return None
        values["four_token"] = value
    if "resources" in player:
        value = player["resources"]
        if type(value) is not dict or not _RESOURCE_KEYS.issuperset(value):
            return None
        got = []
        for key, limit in _RESOURCE_LIMITS:
            v = value.get(key, 0)
            if type(v) is not int or not 0 <= v <= limit:
                return None
            got.append(v)
        values["resources"] = tuple(got)
    if "card_bonus" in player:
        value = _plain_card_bonus(player["card_bonus"])
        if value is None:
            return None
        values["card_bonus"] = value
    if "artifact_card" in player:
        value = _plain_artifact_card(player["artifact_card"])
        if value is None:
            return None
        values["artifact_card"] = value
    sheet = object.__new__(Sheet)  # its fields laid at once (a frozen class sets them one by one)
    sheet.__dict__.update(values)
    return sheet



def read_player(check: Checker, player: dict, path: str, variant: str) -> Sheet:
    """Every field of one player, each problem added to `check` with its contract path (a player
    with nothing to say is read at once: `plain_sheet`)."""
    sheet = plain_sheet(player, variant)
    return sheet if sheet is not None else read_fields(check, player, path, variant)


def read_fields(check: Checker, player: dict, path: str, variant: str) -> Sheet:
    """`read_player` field by field: each problem added to `check` with its contract path."""
    check.known(player, _ALL_KEYS, path)
    expansion = variant in ABYSS
    if not expansion:
        for key in ABYSS_ONLY:
            if key in player:
                check.add(join(path, key), _("clé inconnue en variante de base : réservée à l'extension "
                                             "Call of the Abyss (variante « abyss »)"))
    numbers = {key: check.integer(player, key, path, 0, hi) for key, hi in NUMBERS.items()
               if expansion or key not in ABYSS_ONLY}
    great = check.array(player, "great_locations", path, max_items=GREAT_LOCATIONS_MAX)
    artifacts = _three(check, player, "artifacts", path)
    lo, hi = GREAT_LOCATION_POINTS
    return Sheet(
        **numbers,
        card_bonus=_card_bonus(check, player, path),
        great_locations=tuple(check.int_value(v, join(join(path, "great_locations"), i), lo, hi)
                              for i, v in enumerate(great)),
        four_token=check.boolean(player, "four_token", path),
        resources=_resources(check, player, path),
        artifacts=_pad([check.int_value(v, join(join(path, "artifacts"), i), 0, ARTIFACTS_MAX)
                        for i, v in enumerate(artifacts)], 0),
        artifact_card=_artifact_card(check, player, path),
    )


def check_four_token(check: Checker, sheets: list[Sheet], names: list[str]) -> None:
    """V5: exactly one player can hold the 4-point token; every holder after the first is flagged."""
    holders = [i for i, s in enumerate(sheets) if s.four_token]
    for i in holders[1:]:
        check.rule(join(join("players", i), "four_token"),
                  _("un seul joueur peut tenir le jeton 4 points (déjà tenu par {v1})",
                    v1=names[holders[0]]))


# --------------------------------------------------------------------------- scoring


def _number(key: str, value: int) -> Line:
    return Line(key, value, "")


def _sum(terms: list[str], points: int) -> str:
    """The sum as a player writes it by hand ("a + b = n"); a single term stands alone."""
    return " + ".join(terms) + (f" = {points}" if len(terms) > 1 else "")


# Each line's words are kept per what it reads and the language (`lru_cache`): an autosave changes one
# field of a player, and the other lines of their sheet are worded as before.
KEPT_WORDS = 1024


def card_bonus_line(sheet: Sheet, variant: str) -> Line:
    """V1 and V4: 2 per card of each unlocked colour; Scyphoz cards join an unlocked colour if any."""
    abyss = variant in ABYSS
    return Line("card_bonus", *_card_bonus_words(sheet.card_bonus, sheet.scyphoz if abyss else 0, abyss,
                                                 current()))


@lru_cache(maxsize=KEPT_WORDS)
def _card_bonus_words(card_bonus: tuple[tuple[bool, int], ...], scyphoz: int, abyss: bool,
                      language: str) -> tuple[int, str]:
    """`card_bonus_line`'s points and detail, in `language` (the current one: part of the key)."""
    terms, notes = [], []
    points = 0
    for i, (unlocked, cards) in enumerate(card_bonus):
        if unlocked:
            points += CARD_POINTS * cards
            terms.append(f"{cards} × {CARD_POINTS} ({colour(i)})")
        elif cards:
            notes.append(_("{v1} non débloquée : {v2} sans points",
                           v1=colour(i), v2=ngettext("{n} carte", "{n} cartes", cards)))
    if abyss and scyphoz:
        if any(unlocked for unlocked, _ in card_bonus):
            points += CARD_POINTS * scyphoz
            terms.append(_("{v1} × {CARD_POINTS} (Scyphoz)", v1=scyphoz, CARD_POINTS=CARD_POINTS))
        else:
            notes.append(ngettext("{n} carte Scyphoz sans couleur débloquée : 0",
                                  "{n} cartes Scyphoz sans couleur débloquée : 0", scyphoz))
    return points, _(" ; ").join(([_sum(terms, points)] if terms else []) + notes)


def great_locations_line(sheet: Sheet) -> Line:
    points = sum(sheet.great_locations)
    return Line("great_locations", points, _sum([str(p) for p in sheet.great_locations], points))


def tokens_line(sheet: Sheet) -> Line:
    return Line("tokens", *_tokens_words(sheet.four_token, sheet.two_tokens, current()))


@lru_cache(maxsize=KEPT_WORDS)
def _tokens_words(four_token: bool, two_tokens: int, language: str) -> tuple[int, str]:
    """`tokens_line`'s points and detail, in `language` (the current one: part of the key)."""
    terms = []
    if four_token:
        terms.append(_("{FOUR_TOKEN} (jeton 4 points)", FOUR_TOKEN=FOUR_TOKEN))
    if two_tokens:
        terms.append(ngettext("{n} × {points} (jeton 2 points)", "{n} × {points} (jetons 2 points)",
                              two_tokens, points=TWO_TOKEN))
    points = FOUR_TOKEN * four_token + TWO_TOKEN * two_tokens
    return points, _sum(terms, points)


def resources_line(sheet: Sheet) -> Line:
    """V1, V2: 1 point per full 5 of gears, books, food and crystals together; the rest is shown
    because it breaks ties (V6)."""
    return Line("resources", *_resources_words(sheet.resources, current()))


@lru_cache(maxsize=KEPT_WORDS)
def _resources_words(resources: tuple[int, ...], language: str) -> tuple[int, str]:
    """`resources_line`'s points and detail, in `language` (the current one: part of the key)."""
    total = sum(resources)
    points, rest = divmod(total, RESOURCES_PER_POINT)
    if not total:
        return 0, ""
    kinds = [ngettext(singular, many, n)
             for n, (_limit, singular, many) in zip(resources, RESOURCES.values(), strict=True) if n]
    left = ngettext("{n} ressource restante", "{n} ressources restantes", total)
    left = f"{' + '.join(kinds)} = {left}" if len(kinds) > 1 else f"{left} ({kinds[0]})"
    converted = (_("{points} × {RESOURCES_PER_POINT} = {v3} converties",
                   points=points, RESOURCES_PER_POINT=RESOURCES_PER_POINT,
                   v3=points * RESOURCES_PER_POINT)
                 if points else _("aucune tranche de 5"))
    unconverted = ngettext("{n} non convertie", "{n} non converties", rest)

    detail = _("{left} ; {converted}, reste {unconverted}",
               left=left, converted=converted, unconverted=unconverted)
    return points, detail


def artifact_card_line(sheet: Sheet) -> Line:
    """V3: for each colour, (artifacts of the colour + 1) × the quantity its line counts × its points.

    A line left empty (count and points 0) is not shown; the others are shown per colour, then summed
    in the form the players write on the score pad.
    """
    return Line("artifact_card", *_artifact_card_words(sheet.artifacts, sheet.artifact_card, current()))


@lru_cache(maxsize=KEPT_WORDS)
def _artifact_card_words(artifacts_of: tuple[int, ...], artifact_card: tuple[tuple[int, int], ...],
                         language: str) -> tuple[int, str]:
    """`artifact_card_line`'s points and detail, in `language` (the current one: part of the key)."""
    terms, labelled = [], []
    points = 0
    for i, (artifacts, (count, line_points)) in enumerate(zip(artifacts_of, artifact_card, strict=True)):
        value = (artifacts + 1) * count * line_points
        points += value
        if count or line_points:
            term = f"{artifacts + 1} × {count} × {line_points}"
            terms.append(term)
            labelled.append(_("{what} : {values}", what=colour(i), values=f"{term} = {value}"))
    detail = _(" ; ").join(labelled)
    if len(terms) > 1:
        detail += _(" ; en tout {v1}", v1=_sum(terms, points))
    return points, detail


def score_sheet(sheet: Sheet, variant: str) -> list[Line]:
    """Every breakdown line of V1, in contract order; devotion only with the expansion."""
    lines = [
        _number("track", sheet.track),
        _number("progress", sheet.progress),
        card_bonus_line(sheet, variant),
        great_locations_line(sheet),
        tokens_line(sheet),
        resources_line(sheet),
        _number("artifacts", sheet.artifact_points),
        artifact_card_line(sheet),
    ]
    if variant in ABYSS:
        lines.append(_number("devotion", sheet.devotion))
    return lines


def criteria(sheets: dict[str, Sheet]) -> list[Criterion]:
    """V6: more unconverted resources, then more machine-track advancement; else shared."""
    return [
        by_value(lambda n: sheets[n].leftover, _("ressources restantes non converties")),
        by_value(lambda n: sheets[n].machine_progress, _("avancement total sur les pistes de machine")),
    ]


# Breakdown keys whose detail carries a number a tie-break reads: never cut nor left out on a sheet.
TIEBREAK_KEYS: tuple[str, ...] = ("resources",)


def player_part(check: Checker, player: dict, path: str, variant: str) -> tuple[Sheet, tuple[Line, ...]]:
    """One player's sheet and lines: nothing in them depends on the other players (V1-V4), so they
    are kept per sub-document (parts.py) and only the 4-point token and the ranking are shared."""
    sheet = read_player(check, player, path, variant)
    return sheet, tuple(score_sheet(sheet, variant))


TABLE_KEYS = frozenset(("game", "variant", "players"))
_PATHS = tuple(join("players", i) for i in range(4))  # each seat's path, written once


CLEARS.extend(kept.cache_clear for kept in (_card_bonus_words, _tokens_words, _resources_words,
                                            _artifact_card_words))


def score(doc: dict, names: list[str], check: Checker) -> Result | None:
    check.known(doc, TABLE_KEYS, "")
    variant = doc["variant"]
    parts = [PARTS.part(player_part, check, player, _PATHS[i] if i < len(_PATHS) else join("players", i),
                        variant) if isinstance(player, dict)
             else (Sheet(), ()) for i, player in enumerate(doc["players"])]
    sheets = [sheet for sheet, _lines in parts]
    check_four_token(check, sheets, names)
    if not check.ok:
        return None
    by_name = dict(zip(names, sheets, strict=True))
    lines = dict(zip(names, (kept for _sheet, kept in parts), strict=True))
    players = [PlayerScore(name, list(lines[name])) for name in by_name]  # its own list, the lines frozen
    return finish(GAME.id, variant, players, lambda: criteria(by_name))  # worded for a tie alone


GAME = Game(
    id="revive",
    label=N_("Revive"),
    variants={"base": N_("Base"), "abyss": N_("Call of the Abyss")},
    min_players=1,
    max_players=4,
    categories=(
        Category("track", N_("Piste de score"), N_("points lus sur la piste")),
        Category("progress", N_("Piste de progression"), N_("plus petits points visibles")),
        Category("card_bonus", N_("Cartes gagnées"), N_("2 par carte gagnée (hors départ) d'une couleur "
                                                    "débloquée"),
                 variant_labels={"abyss": N_("Cartes gagnées et Scyphoz")},
                 variant_hints={"abyss": N_("2 par carte gagnée (hors départ) d'une couleur débloquée ; "
                                            "Scyphoz : 2 chacune si une couleur est débloquée")}),
        Category("great_locations", N_("Grands emplacements"), N_("points imprimés")),
        Category("tokens", N_("Jetons"), N_("jeton 4 points, 2 par jeton 2 points")),
        Category("resources", N_("Ressources restantes"), N_("1 par tranche de 5")),
        Category("artifacts", N_("Artefacts"), N_("points imprimés")),
        Category("artifact_card", N_("Carte Artefact"), N_("(artefacts + 1) × quantité × points")),
        Category("devotion", N_("Dévotion"), N_("points de dévotion"), ABYSS),
    ),
    score=score,
    tiebreaks={v: (N_("Égalité : le plus de ressources restantes non converties (total modulo 5)."),
                   N_("Sinon le plus d'avancement total sur les trois pistes de machine."),
                   N_("Sinon, victoire partagée.")) for v in ("base", "abyss")},
)


def blank(player: dict) -> bool:
    """A player with nothing entered: the artifact card's printed points alone (the table's shared
    card, copied to every player) are not an entry, its counts are."""
    for key, value in player.items():  # the first field entered answers (most players have one)
        if key == "artifact_card" and isinstance(value, list):
            value = [line.get("count") if isinstance(line, dict) else line for line in value]
        if not nothing(value):
            return False
    return True


TIE_FIELDS = (
    TieField("leftover", N_("Ressources restantes non converties"), "count", 0, 4,
             hint=N_("Le reste des ressources une fois converties par 5 (0 à 4).")),
    TieField("machine_progress", N_("Avancement total sur les pistes de machine"), "count", 0, 60),
)
TRACK_MAX = 500


def tie_document(q: TieQuestion) -> tuple[dict | None, list[Problem]]:
    """A Revive game where the tied players have `q.total` on the score track, their leftover
    resources as gears (fewer than 5: no point) and their machine progress."""
    if not 0 <= q.total <= TRACK_MAX:
        return None, [Problem("total", _("doit être entre {lo} et {hi}", lo=0, hi=TRACK_MAX))]
    leftover = q.values.get("leftover") or [0] * q.tied
    machine = q.values.get("machine_progress") or [0] * q.tied
    players = [{"name": name, "track": q.total, "resources": {"gears": leftover[i]},
                "machine_progress": machine[i]} for i, name in enumerate(q.names[:q.tied])]
    return {"game": GAME.id, "variant": q.variant, "players": players}, []


def levers(doc: dict, seat: int) -> tuple[Lever, ...]:
    """What "what would I have needed?" may change of a player's own end state (docs/rulings.md): the
    4-point token when nobody holds it (another player's is theirs), 2-point tokens, Scyphoz cards
    (the expansion), one more leftover resource of the first kind with room (monotone: a fifth makes a
    point, which beats any leftover in V6's tie-break), machine progress (the tie-break) and the score
    track."""
    variant = doc["variant"]
    player = doc["players"][seat]
    me = ("players", seat)
    out = []
    if not any(p.get("four_token") for p in doc["players"]):
        out.append(Lever((*me, "four_token"), (N_("le jeton 4 points"),), kind="switch"))
    out.append(Lever((*me, "two_tokens"),
                     (N_("{n} jeton 2 points de plus"), N_("{n} jetons 2 points de plus")),
                     hi=NUMBERS["two_tokens"]))
    if variant in ABYSS:
        out.append(Lever((*me, "scyphoz"),
                         (N_("{n} carte Scyphoz de plus"), N_("{n} cartes Scyphoz de plus")),
                         hi=NUMBERS["scyphoz"]))
    held = player.get("resources") or {}
    for key, (limit, _one, _many) in RESOURCES.items():
        if held.get(key, 0) < limit:
            out.append(Lever((*me, "resources", key), (N_("{n} ressource restante de plus"),
                                                       N_("{n} ressources restantes de plus")),
                             hi=limit))
            break
    out.append(Lever((*me, "machine_progress"), (N_("{n} case de plus sur les pistes de machine"),
                                                 N_("{n} cases de plus sur les pistes de machine")),
                     hi=NUMBERS["machine_progress"]))
    out.append(Lever((*me, "track"), (N_("{n} point de plus sur la piste de score"),
                                      N_("{n} points de plus sur la piste de score")), hi=NUMBERS["track"]))
    return tuple(out)


class _Hooks(Hooks):
    tiebreak_keys = TIEBREAK_KEYS

    def blank(self, player: dict) -> bool:
        return blank(player)

    def tie_fields(self, variant: str, edition: str | None) -> tuple[TieField, ...] | None:
        return TIE_FIELDS

    def tie_document(self, question: TieQuestion) -> tuple[dict | None, list[Problem]]:
        return tie_document(question)

    def tie_handover(self, question: TieQuestion) -> dict:
        """The machine progress; the leftover resources (a total modulo 5) name no resource and the
        total is a sum of categories: neither is a field of the contract (docs/rulings.md)."""
        progress = question.values.get("machine_progress")
        return {"players": [{"machine_progress": progress[i]}
                            if progress and i < question.tied and progress[i] else {}
                            for i in range(len(question.names))]}

    def levers(self, doc: dict, seat: int, edition: str | None) -> tuple[Lever, ...]:
        return levers(doc, seat)


HOOKS = _Hooks()
