"""What would I have needed? For each player who did not win, the smallest change to their own end
state that would have made them win or share the win (docs/rulings.md, "What would I have needed?").

Game-independent: each game declares its levers (hook `levers`: a player's own fields, their bounds,
their words); nothing here knows a rule. A candidate is the document with some levers moved, checked
and scored by the engine itself (`score`, which raises InvalidDocument for a document the contract
refuses), never by a second copy of a rule.

The searched space: one lever moved anywhere within its bounds; or two levers moved together for at
most `PAIR_UNITS` units in all. A unit is one step of a count, or one switch (a flag set, a free
castle taken). The smallest change has the fewest units, then the fewest levers; every smallest change
is kept (at most `ALTERNATIVES`, those that win alone first). The search halves a lever's range when
the game declares it monotone (moving it further never makes the player worse off), and steps through
every value otherwise. Two monotone levers are first looked at from two corners (within the budget
one of them moves at most half of it: every pair lies below one corner, so when neither wins none
does), then walked as a staircase (the fewest units of the second for each value of the first only
fall as the first grows). Pairs are searched only below the best single lever's units.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from .core import InvalidDocument, Lever, Result, join, join_names
from .i18n import _, ngettext, tr

PAIR_UNITS = 12
ALTERNATIVES = 3
WINS, SHARES = "wins", "shares"
NO_LEVER, OUT_OF_REACH = "no_lever", "out_of_reach"
_INVALID = "invalid"


@dataclass(frozen=True)
class Change:
    """One field changed: its contract path, its value in the document and in the change."""

    path: str
    before: object
    after: object

    def to_dict(self) -> dict:
        return {"path": self.path, "from": self.before, "to": self.after}


@dataclass(frozen=True)
class Option:
    """One smallest change: the levers moved (each with its units) and what it gives."""

    moves: tuple[tuple[Lever, int], ...]
    changes: tuple[Change, ...]
    outcome: str  # WINS or SHARES
    by_tiebreak: bool  # the player's total is not above every other's: a tie-break gives it

    @property
    def units(self) -> int:
        return sum(units for _lever, units in self.moves)


@dataclass(frozen=True)
class Need:
    """What one player who did not win would have needed: options, or none and why (a code)."""

    player: str
    seat: int
    options: tuple[Option, ...]
    reason: str = ""  # NO_LEVER or OUT_OF_REACH when there is no option

    def to_dicts(self) -> list[dict]:
        """The API's entries: one per option, or one with no change and the reason in words."""
        if not self.options:
            return [{"player": self.player, "outcome": None, "changes": [], "reason": reason_text(self)}]
        return [{"player": self.player, "outcome": o.outcome, "changes": [c.to_dict() for c in o.changes]}
                for o in self.options]


# --------------------------------------------------------------------------- the document, changed


def path_text(path: Sequence) -> str:
    """("players", 2, "castles") -> "players[2].castles", the contract's notation."""
    text = ""
    for key in path:
        text = join(text, key)
    return text


def _get(doc: object, path: Sequence) -> object:
    node = doc
    for key in path:
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            return None
    return node


def _set(doc: dict, path: Sequence, value: object) -> None:
    """Set `path` in `doc`, copying every container on the way (the document given is never touched;
    a container left out is created empty, as the contract reads it)."""
    node = doc
    for key, child_key in zip(path[:-1], path[1:], strict=True):
        child = node[key] if isinstance(node, list) else node.get(key)
        if isinstance(child, dict):
            child = dict(child)
        elif isinstance(child, list):
            child = list(child)
        else:
            child = [] if isinstance(child_key, int) else {}
        node[key] = child
        node = child
    node[path[-1]] = value


def _count(doc: dict, path: Sequence) -> int:
    value = _get(doc, path)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def room(doc: dict, lever: Lever) -> int:
    """How many units the lever may move from the document's value (0: none)."""
    if lever.kind == "switch":
        return 0 if _get(doc, lever.path) == lever.to else 1
    value = _count(doc, lever.path)
    return max(0, lever.hi - value if lever.direction > 0 else value - lever.lo)


def apply(doc: dict, moves: Sequence[tuple[Lever, int]]) -> tuple[dict, tuple[Change, ...]]:
    """The document with each lever moved by its units, and the changes, in the levers' order."""
    order: list[tuple] = []
    after: dict[tuple, object] = {}
    before: dict[tuple, object] = {}
    for lever, units in moves:
        if lever.kind == "switch":
            order.append(lever.path)
            before[lever.path] = _get(doc, lever.path)
            after[lever.path] = lever.to
            bumps = [(path, 1) for path in lever.carries]
        else:
            bumps = [(lever.path, lever.direction * units)] + [(path, units) for path in lever.carries]
        for path, step in bumps:
            if path not in after:
                order.append(path)
                before[path] = after[path] = _count(doc, path)  # a count left out is 0
            after[path] += step
    changed = dict(doc)
    changes = []
    for path in order:
        _set(changed, path, after[path])
        changes.append(Change(path_text(path), before[path], after[path]))
    return changed, tuple(changes)


# --------------------------------------------------------------------------- the search


class _Search:
    """The search for one player (`seat`) of one scored document."""

    def __init__(self, doc: dict, seat: int, levers: Sequence[Lever], score: Callable[[dict], Result]):
        self.doc = doc
        self.seat = seat
        self.levers = [lever for lever in levers if room(doc, lever) > 0]
        self.rooms = [room(doc, lever) for lever in self.levers]
        self.score = score
        self.seen: dict[tuple, object] = {}
        self.found: dict[tuple, Option] = {}  # ((lever index, units), ...) -> the change it makes

    def state(self, moves: tuple[tuple[int, int], ...]) -> object:
        """_INVALID, None (the player does not win) or (outcome, by_tiebreak), scored once."""
        if moves in self.seen:
            return self.seen[moves]
        changed, _changes = apply(self.doc, [(self.levers[k], units) for k, units in moves])
        try:
            result = self.score(changed)
        except InvalidDocument:
            answer: object = _INVALID
        else:
            me = result.players[self.seat]
            if me.name not in result.winners:
                answer = None
            else:
                beaten = all(p.total < me.total for i, p in enumerate(result.players) if i != self.seat)
                answer = (WINS if len(result.winners) == 1 else SHARES, not beaten)
        self.seen[moves] = answer
        return answer

    def wins(self, moves: tuple[tuple[int, int], ...]) -> bool:
        return isinstance(self.state(moves), tuple)

    def record(self, moves: tuple[tuple[int, int], ...]) -> None:
        outcome, by_tiebreak = self.state(moves)  # type: ignore[misc]
        levers = tuple((self.levers[k], units) for k, units in moves)
        _changed, changes = apply(self.doc, levers)
        self.found[moves] = Option(levers, changes, outcome, by_tiebreak)

    # -- one lever

    def single(self, k: int) -> int | None:
        """The fewest units of lever k alone that win, recorded; None when none does."""
        lever, top = self.levers[k], self.rooms[k]
        if not lever.monotone or lever.kind == "switch":
            for units in range(1, top + 1):
                if self.wins(((k, units),)):
                    self.record(((k, units),))
                    return units
            return None
        if self.state(((k, top),)) == _INVALID:  # a bound between fields: the largest valid value
            valid, invalid = 0, top
            while invalid - valid > 1:
                mid = (valid + invalid) // 2
                if self.state(((k, mid),)) == _INVALID:
                    invalid = mid
                else:
                    valid = mid
            top = valid
        if top == 0 or not self.wins(((k, top),)):
            return None
        losing, winning = 0, top
        while winning - losing > 1:
            mid = (losing + winning) // 2
            if self.wins(((k, mid),)):
                winning = mid
            else:
                losing = mid
        self.record(((k, winning),))
        return winning

    # -- two levers

    def some_pair_may_win(self, budget: int) -> bool:
        """False when every lever moved at once, each as far as a pair within `budget` may move it,
        does not win: with monotone levers, no pair (which moves less) can. True when that cannot be
        told (a lever not monotone, or that document refused)."""
        if not all(lever.monotone or lever.kind == "switch" for lever in self.levers):
            return True
        every = tuple((k, min(top, budget - 1)) for k, top in enumerate(self.rooms))
        return self.state(every) is not None

    def pair(self, a: int, b: int, budget: int) -> int:
        """Every way of moving levers a and b together (at least one unit each) that wins with at most
        `budget` units, recorded; returns the new budget (the fewest units found, or `budget`)."""
        if self.rooms[a] > self.rooms[b]:
            a, b = b, a  # the shorter range outside: fewer values to walk
        la, lb = self.levers[a], self.levers[b]
        top_a, top_b = min(self.rooms[a], budget - 1), min(self.rooms[b], budget - 1)
        if top_a < 1 or top_b < 1:
            return budget

        def moves(ua: int, ub: int) -> tuple[tuple[int, int], ...]:
            return tuple(sorted(((a, ua), (b, ub))))

        monotone_a = la.monotone or la.kind == "switch"
        monotone_b = lb.monotone or lb.kind == "switch"
        if monotone_a and monotone_b:
            # Within the budget one of the two moves at most half of it: every pair is below one of
            # these two corners. Neither wins: nothing below them does.
            half = budget // 2
            corners = [self.state(moves(top_a, min(top_b, half))), self.state(moves(min(top_a, half), top_b))]
            if corners == [None, None]:
                return budget
            if _INVALID not in corners:
                return self._staircase(a, b, top_a, top_b, budget, moves)
        return self._every(a, b, top_a, top_b, budget, moves, monotone_b)

    def _staircase(self, a: int, b: int, top_a: int, top_b: int, budget: int, moves) -> int:
        """Both monotone: the fewest units of b that win only fall as a grows."""
        best_b = None
        for ua in range(1, top_a + 1):
            cap = min(top_b, budget - ua)
            if cap < 1:
                break
            ub = cap if best_b is None else min(best_b, cap)
            state = self.state(moves(ua, ub))
            if state == _INVALID:  # a bound between the two fields: every value, one by one
                return self._every(a, b, top_a, top_b, budget, moves, False)
            if state is None:
                continue
            while ub > 1:
                below = self.state(moves(ua, ub - 1))
                if below == _INVALID:
                    return self._every(a, b, top_a, top_b, budget, moves, False)
                if below is None:
                    break
                ub -= 1
            best_b = ub
            if ua + ub <= budget:
                budget = ua + ub
                self.record(moves(ua, ub))
        return budget

    def _every(self, a: int, b: int, top_a: int, top_b: int, budget: int, moves, monotone_b: bool) -> int:
        """Each value of a (not monotone, or a bound between the two fields), and of b: the fewest
        units of b halved when b is monotone, else stepped."""
        for ua in range(1, top_a + 1):
            cap = min(top_b, budget - ua)
            if cap < 1:
                break
            ub = None
            if monotone_b and self.state(moves(ua, cap)) is not _INVALID:
                if self.wins(moves(ua, cap)):
                    losing, winning = 0, cap
                    while winning - losing > 1:
                        mid = (losing + winning) // 2
                        if self.wins(moves(ua, mid)):
                            winning = mid
                        else:
                            losing = mid
                    ub = winning
            else:
                ub = next((u for u in range(1, cap + 1) if self.wins(moves(ua, u))), None)
            if ub is not None and ua + ub <= budget:
                budget = ua + ub
                self.record(moves(ua, ub))
        return budget

    def run(self) -> Need:
        name = _get(self.doc, ("players", self.seat, "name"))
        if not self.levers:
            return Need(str(name).strip(), self.seat, (), NO_LEVER)
        singles = [self.single(k) for k in range(len(self.levers))]
        best = min((u for u in singles if u is not None), default=None)
        budget = PAIR_UNITS if best is None else min(PAIR_UNITS, best - 1)
        if budget >= 2 and self.some_pair_may_win(budget):
            for a, b in combinations(range(len(self.levers)), 2):
                budget = self.pair(a, b, budget)
        options = sorted(self.found.items(), key=lambda item: (item[1].units, len(item[0]),
                                                                item[1].outcome != WINS, item[0]))
        if not options:
            return Need(str(name).strip(), self.seat, (), OUT_OF_REACH)
        smallest = (options[0][1].units, len(options[0][0]))
        kept = tuple(o for moves, o in options if (o.units, len(moves)) == smallest)[:ALTERNATIVES]
        return Need(str(name).strip(), self.seat, kept)


def search(doc: dict, result: Result, levers: Callable[[int], Sequence[Lever]],
           score: Callable[[dict], Result]) -> list[Need]:
    """What each player who did not win would have needed, in seat order (nobody in a game played
    alone: it has no winner). `doc` scores as `result`; `levers(seat)` are the game's; `score` scores
    a candidate by the same rules (the same edition), raising InvalidDocument."""
    if len(result.players) < 2:
        return []
    winners = set(result.winners)
    return [_Search(doc, seat, levers(seat), score).run()
            for seat, player in enumerate(result.players) if player.name not in winners]


def to_json(needs: Sequence[Need]) -> list[dict]:
    """The result's `needed` (API, CLI): every player's entries, in seat order."""
    return [entry for need in needs for entry in need.to_dicts()]


# --------------------------------------------------------------------------- in words


def lever_text(lever: Lever, units: int) -> str:
    if lever.kind == "switch":
        return tr(lever.words[0]).format(name=lever.name)
    return ngettext(lever.words[0], lever.words[1], units, name=lever.name)


def option_text(option: Option) -> str:
    """"2 châteaux de plus", "1 bâtiment de plus (règle de l'édition anglaise)"."""
    text = join_names([lever_text(lever, units) for lever, units in option.moves])
    notes = [tr(lever.tie_note) for lever, _units in option.moves if lever.tie_note and option.by_tiebreak]
    if option.outcome == SHARES:
        notes.append(_("victoire partagée"))
    return f"{text} ({_(' ; ').join(notes)})" if notes else text


def reason_text(need: Need) -> str:
    if need.reason == NO_LEVER:
        return _("aucun de ses propres champs ne peut encore changer dans les bornes du contrat")
    return _("ne peut pas gagner en changeant seulement son propre jeu : ni un de ses champs jusqu'à "
             "sa borne, ni deux ensemble en {n} unités au plus", n=PAIR_UNITS)


def line(need: Need) -> str:
    """The player's line: "Basile : 2 châteaux de plus, ou le château de Stirling"."""
    if not need.options:
        return _("{name} : {what}", name=need.player, what=reason_text(need))
    return _("{name} : {what}", name=need.player,
             what=_(", ou ").join(option_text(o) for o in need.options))
