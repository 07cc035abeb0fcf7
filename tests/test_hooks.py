"""What a game adds to the shared code goes through one typed class (companion/games/hooks.py):
a misspelt hook fails when its module is imported, never silently ignored at play time."""

from __future__ import annotations

import pytest

from companion import games
from companion.games.hooks import Hooks
from companion.pdf import boards


def test_a_misspelt_hook_fails_at_import_naming_it():
    with pytest.raises(TypeError, match=r"unknown hook\(s\) warning \(known: .*warnings"):
        class Misspelt(Hooks):  # "warning" for "warnings": would never be called
            def warning(self, doc, result):
                return []


def test_every_shipped_game_states_its_hooks_and_the_stand_in_uses_the_defaults(dice):
    assert set(games.HOOKS) == set(games.GAMES)
    assert all(isinstance(hooks, Hooks) for hooks in games.HOOKS.values())
    doc = {"game": "dice", "variant": "base", "players": [{"name": "Ana", "points": 3}, {"name": "Bo"}]}
    # the defaults a game without hooks gets: a blank player said, nothing offered from the past
    assert [p.path for p in games.warnings(doc)] == ["players[1]"]
    assert games.from_past("dice", lambda: pytest.fail("a game offering nothing reads no history")) == {}


def test_a_board_module_missing_a_function_is_refused():
    class Half:  # drawings without legend
        @staticmethod
        def drawings(doc, result):
            return []

    assert not isinstance(Half(), boards.Board)
    assert all(isinstance(board, boards.Board) for board in boards.BOARDS.values())
