"""Dice's rules, as `companion/games/<game>.py` holds a game's (pure Python: no Flask, no database):
each player's points (0 to 100), the most wins; a tie goes to the player with more sixes."""

from __future__ import annotations

from companion.games import core
from companion.games.hooks import Hooks

POINTS_MAX, SIXES_MAX = 100, 10


def score(doc, names, check):
    """The players' lines, or None with every problem in `check` (path + French message)."""
    check.known(doc, {"game", "variant", "players"}, "")
    scores = []
    sixes = {}
    for i, (name, player) in enumerate(zip(names, doc["players"], strict=False)):
        path = core.join("players", i)
        check.known(player, {"name", "points", "sixes"}, path)
        points = check.integer(player, "points", path, 0, POINTS_MAX)
        sixes[name] = check.integer(player, "sixes", path, 0, SIXES_MAX)
        scores.append(core.PlayerScore(name, [core.Line("points", points, str(points))]))
    if not check.ok:
        return None
    return core.finish("dice", doc["variant"], scores, [core.by_value(lambda n: sixes[n], "six obtenus")])


GAME = core.Game(id="dice", label="Dés", variants={"base": "Base"}, min_players=2, max_players=4,
                 categories=(core.Category("points", "Points", "somme des dés"),), score=score)


class DiceHooks(Hooks):
    """Dice needs none of the hooks: every default (companion/games/hooks.py)."""


HOOKS = DiceHooks()
