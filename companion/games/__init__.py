"""The games the app knows, and the one entry point that scores a document.

Adding a game: write `companion/games/<game>.py` exposing `GAME` (a `core.Game`) and `HOOKS` (a
`hooks.Hooks`, the defaults when it needs none), and list it in `_MODULES`. Nothing here imports
Flask or the database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from . import needed as _needed
from . import rebirth, reterra, revive
from .core import (
    RULE,
    Checker,
    Game,
    InvalidDocument,
    Lever,
    Line,
    Problem,
    Result,
    TieField,
    TieQuestion,
    join,
    join_names,
    player_name,
)
from .hooks import Hooks, blank
from .i18n import _, current
from .parts import CLEARS

_MODULES = (rebirth, reterra, revive)
GAMES: dict[str, Game] = {m.GAME.id: m.GAME for m in _MODULES}
HOOKS: dict[str, Hooks] = {m.GAME.id: m.HOOKS for m in _MODULES}
_DEFAULT = Hooks()
# Tools a table uses during play (Rebirth's city resolver...): (game, name) -> fn(payload) -> dict.
TOOLS = {(game_id, name): fn for game_id, hooks in HOOKS.items() for name, fn in hooks.tools.items()}

COMMON_KEYS = ("game", "variant", "players")


def get_game(game_id: str) -> Game | None:
    return GAMES.get(game_id)


def hooks_of(game_id: str) -> Hooks:
    """What the game adds to the shared code (companion/games/hooks.py); the defaults for a game
    registered without a module (the tests' stand-in "dice")."""
    return HOOKS.get(game_id, _DEFAULT)


def _common(doc: object, games: Mapping[str, Game], check: Checker):
    """Check what every game shares; return (game, variant, names, players) or None. What it says
    of the common case (a game the mapping knows and a variant given as text, each player an object
    with a name in text) is kept per game, variant, names and language (`_COMMON`)."""
    if type(doc) is dict:
        game_id, variant, players = doc.get("game"), doc.get("variant"), doc.get("players")
        game = games.get(game_id) if type(game_id) is str else None
        if game is not None and type(variant) is str and type(players) is list:
            names = tuple(p.get("name") if type(p) is dict else None for p in players)
            if all(type(name) is str for name in names):  # text alone: equal keys, equal names
                key = (game_id, variant, names, current())
                kept = _COMMON.get(key)
                if kept is None or kept[0] is not game:  # a game registered again (the tests' own)
                    if len(_COMMON) >= COMMON_KEPT:
                        _COMMON.clear()
                    _COMMON[key] = kept = _common_of_names(game, variant, names)
                check.problems.extend(kept[1])
                return None if kept[2] is None else (game, variant, list(kept[2]), players)
    return _common_of(doc, games, check)


COMMON_KEPT = 512  # tables seated differently: a club's evening, each worker seeing every table
# (game id, variant, names, language) -> (the game, the problems, the names or None): what `_common`
# says of a document holding them, in that language
_COMMON: dict[tuple, tuple[Game, tuple[Problem, ...], tuple[str, ...] | None]] = {}
CLEARS.append(_COMMON.clear)


def _common_of_names(game: Game, variant: str, names: tuple[str, ...]
                     ) -> tuple[Game, tuple[Problem, ...], tuple[str, ...] | None]:
    """`_common` of a document of `game` holding `variant` and players named `names`, in the current
    language: its problems and names (None: nothing to score)."""
    check = Checker()
    common = _common_of({"game": game.id, "variant": variant, "players": [{"name": n} for n in names]},
                        {game.id: game}, check)
    return game, tuple(check.problems), None if common is None else tuple(common[2])


def _common_of(doc: object, games: Mapping[str, Game], check: Checker):
    """`_common` read from the document itself."""
    if not isinstance(doc, dict):
        check.add("document", _("le document doit être un objet JSON"))
        return None
    game_id = doc.get("game")
    if "game" not in doc:
        check.add("game", _("champ obligatoire ({expected})", expected=join_names(list(games), "ou")))
        return None
    if not isinstance(game_id, str) or game_id not in games:
        check.add("game", _("jeu inconnu : {value} (attendu : {expected})", value=repr(game_id),
                            expected=join_names(list(games), "ou")))
        return None
    game = games[game_id]
    variant = doc.get("variant")
    if "variant" not in doc:
        check.add("variant", _("champ obligatoire ({expected})",
                               expected=join_names(list(game.variants), "ou")))
    elif not isinstance(variant, str) or variant not in game.variants:
        check.add("variant", _("variante inconnue pour {game} : {value} (attendu : {expected})",
                               game=game.title, value=repr(variant),
                               expected=join_names(list(game.variants), "ou")))
    players = doc.get("players")
    if not isinstance(players, list):
        check.add("players", _("champ obligatoire : la liste des joueurs") if players is None
                  else _("doit être une liste de joueurs"))
        return None
    if not game.min_players <= len(players) <= game.max_players:
        check.add("players", _("{game} se joue de {lo} à {hi} joueurs (il y en a {n})", game=game.title,
                               lo=game.min_players, hi=game.max_players, n=len(players)))
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, player in enumerate(players):
        path = join("players", i)
        fallback = _("Joueur {n}", n=i + 1)
        if not isinstance(player, dict):
            check.add(path, _("doit être un objet"))
            names.append(fallback)
            continue
        name = player_name(check, player.get("name"), join(path, "name"), seen, i)
        names.append(name if name is not None else fallback)
    if not check.ok and any(not isinstance(p, dict) for p in players):
        return None
    if not isinstance(variant, str) or variant not in game.variants:
        return None
    return game, variant, names, players


def score(doc: object, games: Mapping[str, Game] | None = None, *, edition: str | None = None) -> Result:
    """Validate and score a contract document; raise InvalidDocument with every problem.

    `edition`: the rule set the table plays by, for a game that has several (`Game.editions`;
    None: its default). It is not part of the document (the contract stays as it is): the stored
    game keeps it beside the document, the API and the CLI take it as an option."""
    games = GAMES if games is None else games
    check = Checker()
    common = _common(doc, games, check)
    if common is None:
        check.raise_if_any()
        raise AssertionError("unreachable")  # pragma: no cover - _common adds a problem before None
    game, variant, names, _players = common
    if game.score is None:
        check.add("game", _("le calcul des scores de {game} n'est pas encore disponible", game=game.title))

        check.raise_if_any()
    if edition is not None and edition not in game.editions:
        check.add("edition", _("édition inconnue pour {game} : {value} (attendu : {expected})",
                               game=game.title, value=repr(edition),
                               expected=join_names(list(game.editions), "ou") or _("aucune")))
        check.raise_if_any()
    if game.editions:
        result = game.score(doc, names, check, edition=game.edition(edition))
    else:
        result = game.score(doc, names, check)
    check.raise_if_any()
    assert result is not None
    return result


@dataclass(frozen=True)
class PadRow:
    """One row of a score pad: a category and each player's line, in seat order."""

    key: str
    label: str
    hint: str
    lines: tuple[Line, ...]


def score_pad(result: Result) -> list[PadRow]:
    """A result as the score pad players know: categories as rows (contract order), players as
    columns. The web results page and the printed sheet both read it."""
    game = GAMES[result.game]
    rows = []
    for category in game.categories_for(result.variant):
        lines = tuple(next((ln for ln in p.breakdown if ln.key == category.key), Line(category.key, 0))
                      for p in result.players)
        rows.append(PadRow(category.key, category.label_for(result.variant),
                           category.hint_for(result.variant), lines))
    return rows


def tiebreak_keys(game_id: str) -> tuple[str, ...]:
    """Breakdown keys whose detail carries a number a tie-break reads (Revive's leftover resources)."""
    return tuple(hooks_of(game_id).tiebreak_keys)


def from_past(game_id: str, documents: Callable[[], Iterable[dict]]) -> dict:
    """What a game's end-state page offers from this device's past games of it (`documents`, read
    only when the game offers something from them): its hook `from_past`."""
    hooks = hooks_of(game_id)
    if type(hooks).from_past is Hooks.from_past:
        return {}  # the game offers nothing: its history is not read
    return hooks.from_past(documents())


def warnings(doc: dict, result: Result | None = None, *, finished: bool = False) -> list[Problem]:
    """Likely mistakes in a document that scores, each with its contract path: never blocking, the
    document is valid. Every game: a player whose own fields are all blank; then the game's own
    (its hook `warnings(doc, result)`, e.g. Rebirth's track and itemised points both given).
    A blank player is said once another player has something: before that, nobody has started.
    `finished`: the game is read as over (its results): every player blank is then said too, once,
    rather than a shared victory at 0 shown as if it were the game's."""
    try:
        result = result or score(doc)
    except InvalidDocument:
        return []
    out = []
    players = doc.get("players", [])
    hooks = hooks_of(result.game)
    is_blank = hooks.blank
    blank_ = [isinstance(p, dict) and is_blank(_own(p)) for p in players]
    # "everyone at 0" only when the totals are: the table's own parts (Rebirth's cities) may score
    # with every player's own fields blank
    if finished and players and all(blank_) and all(p.total == 0 for p in result.players):
        out.append(Problem("players", _("Rien n'est saisi pour aucun joueur : tout le monde est à 0. "
                                        "Un oubli ?")))
    for i, player in enumerate(players):
        if blank_[i] and not all(blank_):  # all blank: nobody has started yet
            name = player.get("name") or _("Joueur {n}", n=i + 1)
            out.append(Problem(join("players", i), _("{name} : rien n'est saisi (total {total}). Un oubli ?",
                                                     name=name, total=result.players[i].total)))
    out.extend(hooks.warnings(doc, result))
    return out


def _own(player: dict) -> dict:
    """A player's own fields: their sub-document without their name (a copy)."""
    own = dict.copy(player)
    own.pop("name", None)
    return own


def tie_offered(game_id: str, variant: str, edition: str | None = None) -> tuple[TieField, ...] | None:
    """The fields the "settle a tie" page asks for this game and variant; None: not offered."""
    game = GAMES.get(game_id)
    if game is None or game.score is None or variant not in game.variants:
        return None
    return hooks_of(game_id).tie_fields(variant, game.edition(edition))


def settle_tie(game_id: str, question: TieQuestion) -> tuple[Result | None, list[Problem]]:
    """The engine's own answer to a tie told alone: the game builds a consistent document from the
    question (its hook `tie_document`) and it is scored as any game, with the question's edition.
    Nothing is stored. (None, problems) when the question cannot stand for a game."""
    document, problems = hooks_of(game_id).tie_document(question)
    if document is None:
        return None, problems
    try:
        return score(document, edition=question.edition), []
    except InvalidDocument as exc:  # the construction keeps the contract's bounds: a bug if reached
        return None, exc.problems


def needs(doc: dict, result: Result | None = None, *, edition: str | None = None) -> list[_needed.Need]:
    """What each player who did not win would have needed (docs/rulings.md, "What would I have
    needed?"): the game's levers (hook `levers`) moved within the contract's bounds, each candidate
    checked and scored by `score` with the same edition. `doc` must score (InvalidDocument if not);
    `result` is its result when the caller has it."""
    result = result or (score(doc, edition=edition) if edition else score(doc))
    game = GAMES[result.game]
    hooks = hooks_of(result.game)
    chosen = game.edition(edition)

    def again(candidate: dict) -> Result:
        return score(candidate, edition=edition) if edition else score(candidate)

    return _needed.search(doc, result, lambda seat: hooks.levers(doc, seat, chosen), again)


def validate(doc: object, games: Mapping[str, Game] | None = None) -> list[Problem]:
    """Every problem of a document, or an empty list when it scores."""
    try:
        score(doc, games)
    except InvalidDocument as exc:
        return exc.problems
    return []


__all__ = ["GAMES", "RULE", "Game", "Hooks", "InvalidDocument", "PadRow", "Problem", "Result", "TieField",
           "TieQuestion", "Lever", "get_game", "needs", "score", "score_pad", "settle_tie", "tie_offered",
           "blank", "hooks_of",
           "validate", "warnings"]
