"""What a game adds to the shared code, beyond its `GAME` description: one class every game's
module subclasses (`HOOKS = Hooks()` at its end), each method with the default a game without it
gets. A subclass that defines a name the base does not know (a misspelt hook) fails at import.

The shell asks `games.hooks_of(game_id)`, never the game's module: no game id in a shared module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import ClassVar

from .core import Lever, Problem, Result, TieField, TieQuestion
from .i18n import _


def blank(value: object) -> bool:
    """Nothing entered: zeros, false, null, empty lists and objects, at any depth."""
    if isinstance(value, dict):
        return all(blank(v) for v in value.values())
    if isinstance(value, list):
        return all(blank(v) for v in value)
    return value in (None, 0, False, "")


class Hooks:
    """The default of every hook; a game overrides the ones it needs."""

    # Tools a table uses during play (Rebirth's city resolver): name -> fn(payload) -> dict.
    tools: ClassVar[Mapping[str, Callable[[object], dict]]] = {}
    # Breakdown keys whose detail carries a number a tie-break reads (Revive's leftover resources).
    tiebreak_keys: ClassVar[tuple[str, ...]] = ()
    # Table-level parts a new game with the same table keeps ("rejouer": Reterra's buildings).
    kept_on_again: ClassVar[tuple[str, ...]] = ()
    # A rule reads the players' seats (Rebirth: placement order, clockwise city ties): a game started
    # from the tie page asks where each player sits.
    seats_read: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        unknown = sorted(name for name in vars(cls) if not name.startswith("_") and not hasattr(Hooks, name))
        if unknown:
            raise TypeError(f"{cls.__module__}.{cls.__name__}: unknown hook(s) {', '.join(unknown)} "
                            f"(known: {', '.join(n for n in vars(Hooks) if not n.startswith('_'))})")

    def blank(self, player: dict) -> bool:
        """A player's own fields (their name left out) hold nothing entered."""
        return blank(player)

    # -- the players changed after the start (the "Joueurs" page): every place a document names a
    # player follows. Both return a new document (`doc` is left as it is).

    def renamed(self, doc: dict, mapping: Mapping[str, str]) -> dict:
        """`doc` with each player named in `mapping` (old name -> new name, applied all at once, so
        two names may swap) renamed wherever the document names them; the default: `players` only."""
        out = dict(doc)
        out["players"] = [{**p, "name": mapping.get(p.get("name"), p.get("name"))}
                          if isinstance(p, dict) else p for p in doc.get("players", [])]
        return out

    def without(self, doc: dict, name: str) -> dict:
        """`doc` without the player `name` (their own fields go with them), and whatever named them
        blanked (docs/rulings.md, "Players changed after the start"); the default: `players` only."""
        out = dict(doc)
        out["players"] = [p for p in doc.get("players", [])
                          if not (isinstance(p, dict) and p.get("name") == name)]
        return out

    def warnings(self, doc: dict, result: Result) -> list[Problem]:
        """The game's own likely mistakes in a document that scores (never blocking)."""
        return []

    def from_past(self, documents: Iterable[dict]) -> dict:
        """What the end-state page offers from this device's past games of it (latest first)."""
        return {}

    # -- the "settle a tie" page (docs/rulings.md, "Settling a tie alone")

    def tie_fields(self, variant: str, edition: str | None) -> tuple[TieField, ...] | None:
        """What the game's tie-break reads, asked on the page; None: the game is not offered there."""
        return None

    def tie_others(self, variant: str) -> int:
        """How many players outside the tie the rule may look at (Stirling's holder); 0: the tied alone."""
        return 0

    def tie_document(self, question: TieQuestion) -> tuple[dict | None, list[Problem]]:
        """A consistent contract document where the tied players have `question.total` and the
        tie-break reads the question's values (the players outside the tie below them), scored by
        the engine as any game; or None and the problems, each at "total", a field's key or
        "key[i]" (the i-th tied player's number), with a French message."""
        return None, [Problem("game", _("ce jeu ne se départage pas sur cette page"))]

    def tie_handover(self, question: TieQuestion) -> dict:
        """What the full game keeps of a tie settled on the page: the table's own keys and, under
        "players", one dict per name of `question.names` (in that order) with that player's own
        fields, only what the table typed there and only where the contract has a field that holds
        it as typed (docs/rulings.md, "A tie carried into its game")."""
        return {"players": [{} for _name in question.names]}

    # -- "what would I have needed?" (docs/rulings.md, companion/games/needed.py)

    def levers(self, doc: dict, seat: int, edition: str | None) -> tuple[Lever, ...]:
        """The fields of the player at `seat` (a valid, scored document) that the search may change,
        each with its bounds and its words; () for a game that offers none."""
        return ()
