"""Statistics over a device's scored games: who plays, who wins, with what, and how totals evolve.

Pure (no Flask, no database): `summarise(plays, player=None)` reads `Play`s, each scored once by
whoever built them (`play(...)`), and groups them by game and variant, since a Rebirth total and a
Revive total do not compare. Players are recognised across games by name, without regard to case or
surrounding spaces (the way the new-game form suggests names already used on the device).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from .. import games
from ..games.core import Result
from ..storage import summaries

SERIES_MAX = 6  # lines a phone-width chart can show legibly: the players who played most


@dataclass(frozen=True)
class Play:
    """One scored game: what the statistics need of it (light on purpose: 500 are read per page)."""

    uid: str
    game: str
    variant: str
    when: datetime
    keys: tuple[str, ...]  # breakdown keys, in the result's order
    players: tuple[tuple[str, int, tuple[int, ...]], ...]  # (name, total, points per key), seat order
    winners: frozenset[str]


def play(uid: str, game: str, variant: str, when: datetime, document: object) -> Play | None:
    """A Play from a stored document, or None when it no longer scores (an engine got stricter)."""
    try:
        result = games.score(document)
    except games.InvalidDocument:
        return None
    if result.game != game or result.variant != variant:  # pragma: no cover - stored columns mirror it
        return None
    return from_summary(uid, game, variant, when, summary_of(result))


def summary_of(result: Result) -> dict:
    """What the statistics keep of a result (companion.storage.summaries, stored with each version)."""
    return summaries.of_result(result)


def from_summary(uid: str, game: str, variant: str, when: datetime, summary: dict) -> Play | None:
    """The Play a summary_of() stands for, or None when it is not one (a hand-edited database)."""
    try:
        keys = tuple(summary["keys"])
        width = len(keys)
        players = []
        for name, points in summary["players"]:
            points = tuple(points)
            # One look per game at the types of its points (5,000 games are read per page).
            if type(name) is not str or len(points) != width or not _INTS.issuperset(map(type, points)):
                return None
            players.append((name, sum(points), points))
        winners = frozenset(summary["winners"])
    except (KeyError, TypeError, ValueError):
        return None
    return Play(uid, game, variant, when, keys, tuple(players), winners)


_INTS = frozenset({int})


def key_of(name: str) -> str:
    return name.strip().casefold()


@dataclass
class PlayerStats:
    name: str
    plays: int = 0
    wins: int = 0
    totals: list[int] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def average(self) -> float:
        return sum(self.totals) / len(self.totals) if self.totals else 0.0

    @property
    def best(self) -> int:
        return max(self.totals) if self.totals else 0


@dataclass
class CategoryStats:
    key: str
    label: str
    average: float
    best: int


@dataclass
class Group:
    """One game and variant: its plays, its players and their categories."""

    game: str
    variant: str
    label: str
    plays: list[Play]
    players: list[PlayerStats]
    categories: list[CategoryStats]
    series: dict[str, list[tuple[int, datetime, int]]]  # player -> (play index, when, total)

    @property
    def first(self) -> datetime:
        return self.plays[0].when

    @property
    def last(self) -> datetime:
        return self.plays[-1].when

    def charted(self) -> list[PlayerStats]:
        """The players drawn on the chart: those who played most (ties: more wins, then name)."""
        return self.players[:SERIES_MAX]


@dataclass
class Summary:
    groups: list[Group]
    player: str | None  # the name asked for (as last written), or None for the whole device
    plays: int
    wins: int  # the player's wins (or, for the device, plays with a winner: every play)
    names: list[str]  # every player seen, most plays first


def summarise(plays: Iterable[Play], player: str | None = None) -> Summary:
    """Group by game and variant, in the order of `games.GAMES`; plays oldest first.

    With `player`, only the games they took part in, their own line and their own categories.
    One pass over the plays, each name folded once per page (`_Keys`): the work grows with the
    number of games and nothing else (issue 33; tests/outputs/test_stats.py counts it)."""
    keyed = _Keys()
    wanted = key_of(player) if player else None
    ordered = sorted(plays, key=lambda p: (p.when, p.uid))
    buckets: dict[tuple[str, str], list[Play]] = defaultdict(list)
    spelled: dict[str, str] = {}  # key -> the name as most recently written
    counts: dict[str, int] = defaultdict(int)
    for p in ordered:
        found = wanted is None
        for name, _, _ in p.players:
            k = keyed[name]
            spelled[k] = name
            counts[k] += 1
            found = found or k == wanted
        if found:
            buckets[(p.game, p.variant)].append(p)
    order = {(g, v): (i, j) for i, g in enumerate(games.GAMES) for j, v in enumerate(games.GAMES[g].variants)}
    groups = [_group(g, v, buckets[(g, v)], wanted, keyed)
              for g, v in sorted(buckets, key=lambda k: order.get(k, (99, 99)))]
    all_names = sorted(spelled, key=lambda k: (-counts[k], spelled[k].casefold()))
    total_plays = sum(len(g.plays) for g in groups)
    wins = sum(pl.wins for g in groups for pl in g.players) if wanted else total_plays
    return Summary(groups, spelled.get(wanted) if wanted else None, total_plays, wins,
                   [spelled[k] for k in all_names])


class _Keys(dict):
    """name -> key_of(name), each spelling folded once (a club's few names recur in every game)."""

    def __missing__(self, name: str) -> str:
        self[name] = k = key_of(name)
        return k


def _group(game_id: str, variant: str, plays: Sequence[Play], wanted: str | None,
           keyed: _Keys | None = None) -> Group:
    keyed = keyed if keyed is not None else _Keys()
    game = games.GAMES[game_id]
    label = game.title if len(game.variants) == 1 else f"{game.title} · {game.variant_label(variant)}"
    categories = game.categories_for(variant)
    players: dict[str, PlayerStats] = {}
    counted = {c.key: i for i, c in enumerate(categories)}
    sums = [0] * len(categories)
    bests: list[int | None] = [None] * len(categories)
    # For each breakdown order met (one or two per game): (position in the points, category index)
    # of the keys that are categories.
    layouts: dict[tuple[str, ...], tuple[tuple[int, int], ...]] = {}
    lines = 0
    series: dict[str, list[tuple[int, datetime, int]]] = defaultdict(list)
    for index, p in enumerate(plays):
        winners = {keyed[n] for n in p.winners}
        layout = layouts.get(p.keys)
        if layout is None:
            layout = layouts[p.keys] = tuple((at, counted[key]) for at, key in enumerate(p.keys)
                                             if key in counted)
        for name, total, points in p.players:
            k = keyed[name]
            if wanted is not None and k != wanted:
                continue
            stats = players.get(k)
            if stats is None:
                stats = players[k] = PlayerStats(name)
            stats.name = name  # the latest spelling
            stats.plays += 1
            stats.wins += k in winners
            stats.totals.append(total)
            series[k].append((index, p.when, total))
            lines += 1
            for at, c in layout:
                value = points[at]
                sums[c] += value
                best = bests[c]
                if best is None or value > best:
                    bests[c] = value
    ranked = sorted(players.items(), key=lambda kv: (-kv[1].plays, -kv[1].wins, kv[1].name.casefold()))
    cats = [CategoryStats(c.key, c.label_for(variant), sums[i] / lines if lines else 0.0,
                          bests[i] or 0) for i, c in enumerate(categories)]
    return Group(game_id, variant, label, list(plays), [s for _, s in ranked], cats,
                 {players[k].name: series[k] for k, _ in ranked})
