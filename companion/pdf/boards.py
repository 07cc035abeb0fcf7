"""Drawings a game adds to its filled sheet (Reterra's communities), one module per game that has
any, registered here by the game's module (never its id written out): a game without one draws none.

A board module implements `Board`; one that misses a function fails at import, not on a sheet.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..games import reterra
from ..games.core import Result
from . import reterra_board


@runtime_checkable
class Board(Protocol):
    def drawings(self, doc: dict, result: Result) -> list:
        """One drawing per player who has one (the sheet's macro `community` draws each)."""

    def legend(self) -> list[tuple[str, str, str]]:
        """The key printed under the drawings."""


BOARDS: dict[str, Board] = {reterra.GAME.id: reterra_board}

for _game_id, _board in BOARDS.items():
    if not isinstance(_board, Board):  # a module without `drawings` or `legend`
        raise TypeError(f"{_board.__name__} is not a Board (drawings, legend) for {_game_id}")


def drawings_of(doc: dict, result: Result) -> tuple[list, list]:
    """(drawings, legend) of a scored game's sheet: ([], []) for a game without a board."""
    board = BOARDS.get(result.game)
    found = board.drawings(doc, result) if board is not None else []
    return found, (board.legend() if found else [])
