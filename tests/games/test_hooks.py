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


def test_a_rename_and_a_removal_follow_every_name_a_document_holds():
    """Players after the start (issue 32): the shared default touches `players` only; Rebirth's
    castle holders and city tiles follow too, matched as the engine matches a name (trimmed, any
    case); a removed player's references are blanked, never guessed."""
    plain = {"game": "revive", "variant": "base", "players": [{"name": "Ana", "track": 3}, {"name": "Bo"}]}
    revive = games.hooks_of("revive")
    assert revive.renamed(plain, {"Ana": "Bo", "Bo": "Ana"})["players"] == [{"name": "Bo", "track": 3},
                                                                            {"name": "Ana"}]
    assert revive.without(plain, "Ana")["players"] == [{"name": "Bo"}]
    assert plain["players"][0] == {"name": "Ana", "track": 3}  # the document given is left as it is
    doc = {"game": "rebirth", "variant": "scotland", "players": [{"name": "Ana"}, {"name": "Bo"}],
           "edinburgh": "ana", "stirling": "Bo",
           "cities": [{"size": 2, "tiles": [{"player": " ANA ", "influence": 1},
                                            {"player": "Bo", "influence": 2}, {"influence": 1}]}]}
    rebirth = games.hooks_of("rebirth")
    done = rebirth.renamed(doc, {"Ana": "Anna"})
    assert [p["name"] for p in done["players"]] == ["Anna", "Bo"]
    assert (done["edinburgh"], done["stirling"]) == ("Anna", "Bo")
    assert done["cities"][0]["tiles"] == [{"player": "Anna", "influence": 1},
                                          {"player": "Bo", "influence": 2}, {"influence": 1}]
    assert games.validate(done) == games.validate(rebirth.renamed(done, {}))
    gone = rebirth.without(doc, "Ana")
    assert [p["name"] for p in gone["players"]] == ["Bo"]
    assert (gone["edinburgh"], gone["stirling"]) == (None, "Bo")
    assert [t.get("player") for t in gone["cities"][0]["tiles"]] == [None, "Bo", None]
    assert doc["edinburgh"] == "ana" and doc["cities"][0]["tiles"][0]["player"] == " ANA "
