"""Game-independent half of scoring: validation, result types, ranking with tie-break chains.

Pure Python on purpose: the web views, the CLI and the PDF sheets all call this, and
the engines must be testable (and fuzzable) without an app or a database.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import Any

from .i18n import _, current, ngettext, tr

ROOT = "document"


# --------------------------------------------------------------------------- errors


FIELD = "field"
RULE = "rule"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a document: a contract path and a French message.

    `kind` tells a bad value (FIELD: out of bounds, not a number, wrong shape) from a rule between
    several fields that is not met (RULE: a castle holder with too few castles, two 4-point
    tokens): the screens never store the first, and store the second as a draft while the table
    is still typing (docs/architecture.md)."""

    path: str
    message: str
    kind: str = FIELD

    def to_dict(self) -> dict:
        return {"path": self.path, "message": self.message}


class InvalidDocument(Exception):
    """Raised with every problem found, never only the first."""

    def __init__(self, problems: Sequence[Problem]):
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems = list(problems)


def join(path: str, key: str | int) -> str:
    """Contract path of a child: `players[1].castles`."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if not path or path == ROOT:
        return key
    return f"{path}.{key}"


def is_int(value: Any) -> bool:
    # JSON true/false arrive as bool, a subclass of int: they are not numbers here.
    return isinstance(value, int) and not isinstance(value, bool)


class Checker:
    """Collects problems while reading a document, and returns safe defaults.

    Each reader returns a usable value even when the input is wrong, so that one
    pass finds every problem instead of stopping at the first.
    """

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, path: str, message: str) -> None:
        self.problems.append(Problem(path or ROOT, message))

    def rule(self, path: str, message: str) -> None:
        """A rule between fields not met (each value is fine on its own): see `Problem.kind`."""
        self.problems.append(Problem(path or ROOT, message, RULE))

    def raise_if_any(self) -> None:
        if self.problems:
            raise InvalidDocument(self.problems)

    # -- shapes

    def known(self, obj: dict, allowed: Iterable[str], path: str, where: str = "") -> None:
        """Unknown keys are errors, so that a typo is never silently ignored."""
        allowed = allowed if isinstance(allowed, frozenset) else set(allowed)
        if allowed.issuperset(obj):  # the common case: every key known, looked at in one call
            return
        for key in obj:
            if key not in allowed:
                if where:
                    self.add(join(path, str(key)), _("clé inconnue {where}", where=where))
                else:
                    self.add(join(path, str(key)), _("clé inconnue"))

    def obj(self, value: Any, path: str) -> dict | None:
        if isinstance(value, dict):
            return value
        self.add(path, _("doit être un objet"))
        return None

    def field_obj(self, obj: dict, key: str, path: str) -> dict:
        """An optional object field; missing means empty."""
        if key not in obj:
            return {}
        value = obj[key]
        if isinstance(value, dict):
            return value
        self.add(join(path, key), _("doit être un objet"))
        return {}

    def array(self, obj: dict, key: str, path: str, max_items: int | None = None,
              exact: int | None = None) -> list:
        """An optional list field; missing means empty."""
        if key not in obj:
            return []
        value = obj[key]
        p = join(path, key)
        if not isinstance(value, list):
            self.add(p, _("doit être une liste"))
            return []
        if exact is not None and len(value) != exact:
            self.add(p, ngettext("doit contenir exactement {n} élément (il y en a {given})",
                                 "doit contenir exactement {n} éléments (il y en a {given})",
                                 exact, given=len(value)))
        if max_items is not None and len(value) > max_items:
            self.add(p, ngettext("au plus {n} élément (il y en a {given})",
                                 "au plus {n} éléments (il y en a {given})", max_items, given=len(value)))
        return value

    # -- scalars

    def int_value(self, value: Any, path: str, lo: int, hi: int) -> int:
        """Validate a number already taken out of its container; 0 when invalid."""
        if type(value) is int and lo <= value <= hi:  # the common case, first (a bool is not an int here)
            return value
        if not is_int(value):
            self.add(path, _("doit être un nombre entier"))
            return 0
        if value < lo or value > hi:
            self.add(path, _("doit être entre {lo} et {hi}", lo=lo, hi=hi))
            return 0
        return value

    def integer(self, obj: dict, key: str, path: str, lo: int, hi: int, default: int = 0) -> int:
        """An optional whole number field; missing means `default` (0)."""
        if key not in obj:
            return default
        value = obj[key]
        if type(value) is int and lo <= value <= hi:  # its path is only made for a problem
            return value
        return self.int_value(value, join(path, key), lo, hi)

    def boolean(self, obj: dict, key: str, path: str, default: bool = False) -> bool:
        if key not in obj:
            return default
        value = obj[key]
        if not isinstance(value, bool):
            self.add(join(path, key), _("doit valoir true ou false"))
            return default
        return value

    def string(self, obj: dict, key: str, path: str, *, required: bool = False,
               max_len: int = 200, nullable: bool = False) -> str | None:
        if key not in obj:
            if required:
                self.add(join(path, key), _("champ obligatoire"))
            return None
        value = obj[key]
        if value is None and nullable:
            return None
        if not isinstance(value, str):
            self.add(join(path, key),
                     _("doit être un texte ou null") if nullable else _("doit être un texte"))
            return None
        if len(value) > max_len:
            self.add(join(path, key), _("au plus {n} caractères", n=max_len))
            return None
        return value

    def player_ref(self, obj: dict, key: str, path: str, names: Sequence[str],
                   *, nullable: bool = True) -> str | None:
        """A field naming one of the game's players (or null)."""
        value = self.string(obj, key, path, nullable=nullable, required=not nullable)
        if value is None:
            return None
        return self.resolve_name(value, join(path, key), names)

    def resolve_name(self, value: str, path: str, names: Sequence[str]) -> str | None:
        wanted = value.strip().casefold()
        for name in names:
            if name.casefold() == wanted:
                return name
        self.add(path, _("« {value} » n'est pas un joueur de la partie ({names})",
                         value=value, names=join_names(names, "ou")))
        return None


# --------------------------------------------------------------------------- player names

NAME_MAX = 40
# Bidi embeddings, overrides and isolates (LRE..RLO, LRI..PDI): they reorder the text after them,
# so a name could show another name or turn the rest of a shared line around.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Format characters a name may hold: joiners (emoji sequences, Persian and Indic scripts), direction
# marks (Arabic, Hebrew) and tag characters (the Scotland flag emoji).
FORMAT_ALLOWED = frozenset("\u200c\u200d\u200e\u200f\u061c") | frozenset(map(chr, range(0xE0020, 0xE0080)))
# Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern).
BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def visible(ch: str) -> bool:
    """A character that puts ink on the page: a letter, digit, punctuation or symbol (Unicode
    categories L, N, P, S) other than the few that draw nothing. Spaces, controls, format and
    private-use characters, and combining marks on their own, are not."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_GLYPHS


def name_problem(name: str) -> str | None:
    """Why a (trimmed) player name cannot be shown as it is on shared pages and sheets, or None.
    Each name is looked at once per language (every autosave checks the table's names again)."""
    return _name_problem(name, current())


@lru_cache(maxsize=1024)
def _name_problem(name: str, language: str) -> str | None:
    """`name_problem`, in `language` (the current one: the key of what is kept)."""
    for ch in name:
        category = unicodedata.category(ch)
        code = f"U+{ord(ch):04X}"
        if category in ("Cc", "Cs"):
            return _("le nom contient un caractère de contrôle ({code}) : retirez-le", code=code)
        if ch in BIDI_CONTROLS:
            return _("le nom contient un caractère qui inverse le sens de l'écriture ({code}) : retirez-le",
                     code=code)
        if category == "Cf" and ch not in FORMAT_ALLOWED:
            return _("le nom contient un caractère invisible ({code}) : retirez-le", code=code)
    if not any(visible(ch) for ch in name):
        return _("le nom ne contient aucun caractère visible")
    return None


def player_name(check: Checker, value: Any, path: str, seen: dict[str, int], index: int) -> str | None:
    """One player's name: text, 1-40 characters once trimmed, something visible and nothing that
    hides or reorders text (`name_problem`), distinct without regard to case from the names in
    `seen` (casefolded name -> seat index), which it extends."""
    if not isinstance(value, str):
        check.add(path,
                  _("champ obligatoire : le nom du joueur") if value is None else _("doit être un texte"))
        return None
    name = value.strip()
    if not 1 <= len(name) <= NAME_MAX:
        check.add(path, _("le nom doit faire de 1 à {n} caractères", n=NAME_MAX))
        return None
    problem = name_problem(name)
    if problem:
        check.add(path, problem)
        return None
    key = name.casefold()
    if key in seen:
        check.add(path, _("nom déjà pris par le joueur {n} (les noms doivent être distincts)",
                          n=seen[key] + 1))
        return None
    seen[key] = index
    return name


# --------------------------------------------------------------------------- games


@dataclass(frozen=True)
class Category:
    """One breakdown key: its French label, a one-line reminder of how it scores,
    and the variants it applies to (None: all)."""

    key: str
    label: str
    hint: str = ""
    variants: tuple[str, ...] | None = None
    variant_labels: dict[str, str] = field(default_factory=dict)  # a label a variant renames
    variant_hints: dict[str, str] = field(default_factory=dict)  # a reminder a variant rewords

    def applies(self, variant: str) -> bool:
        return self.variants is None or variant in self.variants

    @property
    def text(self) -> str:
        """The label in the current language (`label` is the French message id)."""
        return tr(self.label)

    def label_for(self, variant: str) -> str:
        return tr(self.variant_labels.get(variant, self.label))

    def hint_for(self, variant: str) -> str:
        return tr(self.variant_hints.get(variant, self.hint))


@dataclass(frozen=True)
class Game:
    """What the rest of the app needs to know about one game."""

    id: str
    label: str
    variants: dict[str, str]  # variant id -> French label, in display order
    min_players: int
    max_players: int
    categories: tuple[Category, ...]
    # score(doc, names, checker) -> Result or None when the checker holds problems.
    score: Callable[[dict, list[str], Checker], Result | None] | None = None
    tiebreaks: dict[str, tuple[str, ...]] = field(default_factory=dict)  # variant -> French lines
    # The rule sets a table may choose outside the document (Reterra's English edition breaks a tie on
    # buildings): edition id -> French name, the default first; empty when the game has one rule set.
    # The engine reads the choice as a parameter of scoring (`games.score(doc, edition=)`), so the
    # contract document stays as it is.
    editions: dict[str, str] = field(default_factory=dict)
    edition_tiebreaks: dict[str, tuple[str, ...]] = field(default_factory=dict)  # edition -> French lines

    def keys(self, variant: str) -> list[str]:
        return [c.key for c in self.categories if c.applies(variant)]

    def categories_for(self, variant: str) -> list[Category]:
        return [c for c in self.categories if c.applies(variant)]

    def category(self, key: str) -> Category:
        for c in self.categories:
            if c.key == key:
                return c
        raise KeyError(key)

    def variant_label(self, variant: str) -> str:
        return tr(self.variants[variant]) if variant in self.variants else variant

    @property
    def title(self) -> str:
        """The game's name in the current language (`label` is the French message id)."""
        return tr(self.label)

    def variant_items(self) -> list[tuple[str, str]]:
        """(variant id, its name in the current language), in display order."""
        return [(v, tr(label)) for v, label in self.variants.items()]

    def tiebreak_lines(self, variant: str, edition: str | None = None) -> tuple[str, ...]:
        """The tie box's lines: an edition's own when one is given (they say whose rule: a game's
        results and sheet pass the edition it is scored by), else the variant's (a blank pad)."""
        lines = self.edition_tiebreaks.get(edition) if edition else None
        return tuple(tr(line) for line in (lines or self.tiebreaks.get(variant, ())))

    @property
    def default_edition(self) -> str | None:
        return next(iter(self.editions), None)

    def edition(self, edition: str | None) -> str | None:
        """The edition a game is scored by: the one chosen when the game knows it, else its default."""
        return edition if edition in self.editions else self.default_edition

    def edition_items(self) -> list[tuple[str, str]]:
        """(edition id, its name in the current language), the default first."""
        return [(e, tr(label)) for e, label in self.editions.items()]


# --------------------------------------------------------------------------- settling a tie alone


@dataclass(frozen=True)
class TieField:
    """One thing a game's tie-break reads, asked on the "settle a tie" page (hook `tie_fields`).

    `kind` "holder": one player holds it (a castle), or nobody; `among` "tied" offers the tied
    players only, "all" every player (Stirling's holder may be outside the tie). `kind` "count": a
    number per tied player, `lo`-`hi`. `label` and `hint` are French message ids."""

    key: str
    label: str
    kind: str = "count"
    lo: int = 0
    hi: int = 0
    among: str = "tied"
    hint: str = ""

    @property
    def text(self) -> str:
        return tr(self.label)

    @property
    def hint_text(self) -> str:
        return tr(self.hint) if self.hint else ""


@dataclass(frozen=True)
class TieQuestion:
    """What a table tells the "settle a tie" page: the players (the tied ones first: `tied` of them;
    the others, when the game's rule looks beyond the tie, scored below), the tied total, and one
    value per `TieField` (a holder's seat index or None; a list of numbers, one per tied player)."""

    variant: str
    edition: str | None
    names: tuple[str, ...]
    tied: int
    total: int
    values: dict


# --------------------------------------------------------------------------- what a player would have needed


@dataclass(frozen=True)
class Lever:
    """One field of a player's own end state that "what would I have needed?" may change (hook
    `levers`, docs/rulings.md "What would I have needed?"), in the one direction that can help.

    `path`: the keys from the document down to the field (`("players", 2, "castles")`). `kind`
    "count": a whole number moved `direction` (+1 more, -1 fewer) one unit a step, within `lo`-`hi`
    (the contract's bounds); "switch": set to `to` (true, or the player's name for a holder), one
    unit. Each path of `carries` (a count) goes up by 1 with each unit (a castle taken is one castle
    more; a junk token fewer uncovers its relic). `words`: how it is said in French (message ids): a
    count's two forms ("{n} château de plus", "{n} châteaux de plus"), a switch's one ("le château de
    Stirling"). `monotone`: moving it further never makes the player worse off (the search may then
    halve the range); False: every step is tried. `tie_note`: said after the change when it wins by a
    tie-break ("règle de l'édition anglaise")."""

    path: tuple
    words: tuple[str, ...]
    kind: str = "count"
    lo: int = 0
    hi: int = 0
    direction: int = 1
    to: object = True
    carries: tuple[tuple, ...] = ()
    monotone: bool = True
    tie_note: str = ""
    name: str = ""  # a name the words hold as {name} (a Reterra building card's), as given


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Line:
    """One breakdown line. Frozen: a player's kept part (parts.py) hands the same lines to every
    result built from it, so none may change them (a result's breakdown list is its own)."""

    key: str
    points: int
    detail: str = ""

    def to_dict(self) -> dict:
        return {"key": self.key, "points": self.points, "detail": self.detail}


_POINTS = attrgetter("points")


@dataclass
class PlayerScore:
    name: str
    breakdown: list[Line]
    extra: dict = field(default_factory=dict)  # game-specific additions (e.g. Reterra's grid)

    @property
    def total(self) -> int:
        return sum(map(_POINTS, self.breakdown))  # in C: every save reads each total a few times

    def points(self, key: str) -> int:
        for line in self.breakdown:
            if line.key == key:
                return line.points
        raise KeyError(key)

    def to_dict(self) -> dict:
        d = {"name": self.name, "total": self.total,
             "breakdown": [line.to_dict() for line in self.breakdown]}
        for k, v in self.extra.items():
            d.setdefault(k, v)
        return d


@dataclass
class Place:
    place: int
    players: list[str]

    def to_dict(self) -> dict:
        return {"place": self.place, "players": list(self.players)}


@dataclass
class Result:
    game: str
    variant: str
    players: list[PlayerScore]
    ranking: list[Place]
    explanation: list[str]
    # each explanation's short answer, first on the pages ("Cy gagne : Cy tient le château de Stirling")
    answers: list[str] = field(default_factory=list)

    @property
    def winners(self) -> list[str]:
        return list(self.ranking[0].players) if self.ranking else []

    def player(self, name: str) -> PlayerScore:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def place_of(self, name: str) -> int:
        for place in self.ranking:
            if name in place.players:
                return place.place
        raise KeyError(name)

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "variant": self.variant,
            "players": [p.to_dict() for p in self.players],
            "ranking": [p.to_dict() for p in self.ranking],
            "winners": self.winners,
            "explanation": list(self.explanation),
        }


# --------------------------------------------------------------------------- words of each language


def join_names(names: Sequence[str], last: str = "et") -> str:
    """["A", "B", "C"] -> "A, B et C" ("A, B and C" in English; `last` "ou": "or")."""
    names = list(names)
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    word = {"et": _("et"), "ou": _("ou"), "puis": _("puis")}.get(last, last)
    return f"{', '.join(names[:-1])} {word} {names[-1]}"


def ordinal(n: int) -> str:
    if current() == "en":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return "1re" if n == 1 else f"{n}e"


def elide(word: str, name: str) -> str:
    """French elision before a vowel sound ("de" + "Inès" -> "d'Inès"); other languages keep `word`
    as it is, with a space."""
    if current() == "fr" and word.endswith(("de", "que")) and name[:1].lower() in "aeiouyhâàéèêëîïôöûüœ":
        return f"{word[:-1]}'{name}"
    return f"{word} {name}"


def points_text(n: int) -> str:
    """A score as players write it, with a true minus sign (Reterra's junk: "−1")."""
    return f"\u2212{-n}" if n < 0 else str(n)


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """French-only helper kept for callers that build French words; translated text uses ngettext."""
    word = singular if abs(n) <= 1 else (plural_form or singular + "s")
    return f"{n} {word}"


# --------------------------------------------------------------------------- ranking


@dataclass(frozen=True)
class Tie:
    """A group of players tied on total, to be split by one tie-break criterion."""

    names: tuple[str, ...]  # seat order
    total: int
    place: int  # the place the group is competing for
    everyone: tuple[str, ...]  # all players, seat order

    @property
    def first(self) -> bool:
        return self.place == 1


@dataclass(frozen=True)
class Split:
    """How a criterion orders a tied group: groups best first, and why.

    A group may name a player outside the tie (Rebirth's Stirling castle at first
    place): that player is moved there and removed from further places.
    """

    groups: tuple[tuple[str, ...], ...]
    reason: str
    fact: str = ""  # what decided, in a few words ("Ana tient le château d'Édimbourg"): the short answer


@dataclass(frozen=True)
class Criterion:
    """One tie-break step: `split` returns None when it does not separate the group;
    `same` says in French why it did not (used when the tie remains shared)."""

    split: Callable[[Tie], Split | None]
    same: Callable[[Tie], str]


def headline(winners: Sequence[str]) -> str:
    """The results' title: "Ana gagne" / "Victoire partagée : Ana et Léo" (the web page and the
    sheet; not "Victoire de Ana": French would elide before a vowel)."""
    if len(winners) == 1:
        return _("{names} gagne", names=winners[0])
    return _("Victoire partagée : {names}", names=join_names(list(winners)))


def solo_score(result: Result) -> str | None:
    """A game played alone has no winner: "Partie en solo : Bea, 87 points" says its score instead
    (the results page, the sheet, "Mes parties"); None when more than one played."""
    if len(result.players) != 1:
        return None
    player = result.players[0]
    return ngettext("Partie en solo : {name}, {n} point", "Partie en solo : {name}, {n} points",
                    player.total, name=player.name)


def headline_of(result: Result) -> str:
    """The results' title for a scored game: its winners' headline, or a solo game's score."""
    return solo_score(result) or headline(result.winners)


def outcome(groups: Sequence[Sequence[str]], place: int) -> str:
    """Outcome of an ordering: "Alice gagne, puis Bob" / "Bob prend la 2e place"."""
    head = list(groups[0])
    names = join_names(head)
    if place == 1:
        text = _("{names} gagne", names=names) if len(head) == 1 else \
            _("{names} restent à égalité en tête", names=names)
    elif len(head) == 1:
        text = _("{names} prend la {place} place", names=names, place=ordinal(place))
    else:
        text = _("{names} se partagent la {place} place", names=names, place=ordinal(place))
    for g in groups[1:]:
        text += _(", puis {names}", names=join_names(list(g)))
    return text


def by_value(value: Callable[[str], int], noun: str, unit: str = "") -> Criterion:
    """A criterion where more is better: "ressources restantes : Alice 4, Bob 2"."""

    def fmt(n: int) -> str:
        return f"{n} {unit}".strip()

    def split(tie: Tie) -> Split | None:
        values = {n: value(n) for n in tie.names}
        distinct = sorted(set(values.values()), reverse=True)
        if len(distinct) == 1:
            return None
        groups = tuple(tuple(n for n in tie.names if values[n] == v) for v in distinct)
        listed = ", ".join(f"{n} {fmt(values[n])}" for n in tie.names)
        return Split(groups, _("{noun} : {listed} ; {outcome}", noun=noun, listed=listed,
                               outcome=outcome(groups, tie.place)),
                     _("{noun} ({listed})", noun=noun, listed=listed))

    def same(tie: Tie) -> str:
        v = value(tie.names[0])
        return _("{noun} : {value} chacun", noun=noun, value=fmt(v))

    return Criterion(split, same)


def holder_wins(holder: str | None, phrase: str, nobody: str | Callable[[Tie], str]) -> Criterion:
    """A criterion where the tied player holding something (a castle) wins.

    `phrase` reads "{name} tient le château d'Édimbourg"; `nobody` is said when no
    tied player holds it (a function of the tie when the sentence depends on it: "neither" of two)."""

    def split(tie: Tie) -> Split | None:
        if holder is None or holder not in tie.names:
            return None
        rest = tuple(n for n in tie.names if n != holder)
        groups = ((holder,), rest)
        return Split(groups, _("{phrase} ; {outcome}", phrase=phrase.format(name=holder),
                               outcome=outcome(groups, tie.place)), phrase.format(name=holder))

    return Criterion(split, nobody if callable(nobody) else lambda tie: nobody)


Criteria = Sequence[Criterion] | Callable[[], Sequence[Criterion]]


def rank(players: Sequence[PlayerScore], criteria: Criteria,
         answers: list[str] | None = None) -> tuple[list[Place], list[str]]:
    """Places with shared ranks (1, 2, 2, 4) and one French sentence per tie settled; with
    `answers`, each sentence's short answer is added to it (who wins, and what decided).

    Players are grouped by total; each tied group is split by the criteria in order;
    a sub-group still tied starts again at the criterion that split it (never earlier ones).
    `criteria` may be a function giving them: it is called only when two players are tied (most
    games have no tie, and their criteria's words are then never worded).
    """
    totals = {p.name: p.total for p in players}
    everyone = tuple(totals) if len(totals) == len(players) else tuple(p.name for p in players)
    if len(set(totals.values())) == len(everyone):  # no tie: each alone in their place
        return [Place(i, [name]) for i, name in enumerate(sorted(everyone, key=totals.__getitem__,
                                                                 reverse=True), 1)], []
    # sorted() is stable: equal totals keep seat order.
    by_total = sorted(everyone, key=lambda n: -totals[n])
    if callable(criteria):
        criteria = criteria()
    placed: set[str] = set()
    ranking: list[Place] = []
    explanation: list[str] = []
    short = answers if answers is not None else []

    def emit(group: Sequence[str]) -> None:
        place = 1 + sum(len(p.players) for p in ranking)
        ranking.append(Place(place, list(group)))
        placed.update(group)

    def resolve(group: Sequence[str], chain: Sequence[Criterion], total: int) -> None:
        group = [n for n in group if n not in placed]
        if not group:
            return
        if len(group) == 1:
            emit(group)
            return
        place = 1 + sum(len(p.players) for p in ranking)
        tie = Tie(tuple(group), total, place, everyone)
        if place > 1:
            intro = _("{names} à égalité ({total} points) pour la {place} place",
                      names=join_names(group), total=total, place=ordinal(place))
        else:
            intro = _("{names} à égalité ({total} points)", names=join_names(group), total=total)
        reasons = []
        for i, criterion in enumerate(chain):
            split = criterion.split(tie)
            if split is None:
                reasons.append(criterion.same(tie))
                continue
            sep = _(" ; ")  # French typography spaces it; English does not
            explanation.append(f"{intro}{sep}{sep.join(reasons + [split.reason])}.")
            said = outcome(split.groups, place)
            short.append(_("{outcome} : {fact}", outcome=said, fact=split.fact) if split.fact else said)
            # A sub-group still tied starts again at this criterion: it will not split
            # them (they are equal on it) but says why, then the chain goes on.
            for sub in split.groups:
                resolve(sub, chain[i:], total)
            return
        shared = _("victoire partagée") if place == 1 else \
            _("ils partagent la {place} place", place=ordinal(place))

        sep = _(" ; ")
        explanation.append(f"{intro}{sep}{sep.join(reasons + [shared])}.")
        short.append(_("{names} : {shared}", names=join_names(group), shared=shared))
        emit(group)

    i = 0
    while i < len(by_total):
        j = i
        while j < len(by_total) and totals[by_total[j]] == totals[by_total[i]]:
            j += 1
        resolve(by_total[i:j], criteria, totals[by_total[i]])
        i = j
    return ranking, explanation


def finish(game: str, variant: str, players: list[PlayerScore], criteria: Criteria) -> Result:
    """Build the result once every player is scored: the one place ranking happens (`criteria`: the
    tie-break chain, or a function giving it, called only for a tie: see `rank`)."""
    answers: list[str] = []
    ranking, explanation = rank(players, criteria, answers)
    return Result(game, variant, players, ranking, explanation, answers)
