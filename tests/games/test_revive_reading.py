"""A Revive player read at once (`revive.plain_sheet`, issue 33) is read as field by field
(`revive.read_fields`, which says every problem with its contract path): the same sheet whenever the
player has nothing to say, and no plain sheet whenever there is something to say, whatever is wrong
and wherever; and a document is scored the same in both ways."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st
from test_revive_properties import documents, player

from companion import games
from companion.games import revive
from companion.games.core import Checker

# what a field may hold by mistake (JSON's types only: what a document can bring)
WRONG = st.sampled_from([-1, 0, 1, 3, 5, 6, 7, 21, 31, 61, 101, 501, 10_000, 2.0, 2.5, True, False, None,
                         "", "3", [], [0], [0, 0, 0], [0, 0, 0, 0], {}, {"x": 1}, {"count": 1},
                         {"unlocked": True}, {"cards": 2}]).map(copy.deepcopy)  # each its own
# each number's bounds in the contract (docs/contract.md): by its key, or by its list's
BOUNDS = {**{key: (0, hi) for key, hi in revive.NUMBERS.items()},
          **{key: (0, limit) for key, (limit, _one, _many) in revive.RESOURCES.items()},
          "cards": (0, revive.CARDS_MAX), "count": (0, revive.CARD_COUNT_MAX),
          "points": (0, revive.CARD_LINE_POINTS_MAX), "artifacts": (0, revive.ARTIFACTS_MAX),
          "great_locations": revive.GREAT_LOCATION_POINTS}
KEYS = st.sampled_from([*revive.PLAYER_KEYS, "unlocked", "cards", "count", "points", "gears", "crystals",
                        "junk", "Track"])


def spots(value: object, at: tuple = ()) -> list[tuple]:
    """Every place inside a player's sub-document: each key's and each entry's path."""
    out = [at]
    if isinstance(value, dict):
        for key, inner in value.items():
            out += spots(inner, (*at, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            out += spots(inner, (*at, i))
    return out


def _at(raw: dict, at: tuple) -> object:
    for step in at:
        raw = raw[step]
    return raw


@st.composite
def players(draw) -> tuple[dict, str]:
    """A player as the contract allows, or the same with one to three things changed anywhere: a
    value replaced, taken away, a key added, or a number moved to a bound (or past it)."""
    variant = draw(st.sampled_from(["base", "abyss"]))
    raw = {"name": "Ana", **draw(player(draw(st.sampled_from(["base", "abyss"]))))}
    if draw(st.booleans()):
        raw["four_token"] = draw(st.booleans())
    for _ in range(draw(st.integers(0, 3))):
        how = draw(st.sampled_from(["set", "drop", "add", "bound"]))
        numbers = [at for at in spots(raw) if at and type(_at(raw, at)) is int]
        at = draw(st.sampled_from(numbers if how == "bound" and numbers else spots(raw)))
        parent = raw
        for step in at[:-1]:
            parent = parent[step]
        if at and how == "bound" and type(parent[at[-1]]) is int:  # a number at a bound, or past it
            lo, hi = BOUNDS.get(at[-1] if isinstance(at[-1], str) else at[-2], (0, 1))
            parent[at[-1]] = draw(st.sampled_from([lo - 1, lo, hi, hi + 1]))
        elif not at or (how == "add" and isinstance(parent, dict)):
            target = raw if not at else parent
            target[draw(KEYS)] = draw(WRONG)
        elif how == "drop" and isinstance(parent, (dict, list)):
            del parent[at[-1]]
        else:
            parent[at[-1]] = draw(WRONG)
    return raw, variant


@settings(max_examples=600, deadline=None)
@given(players())
def test_a_player_read_at_once_is_read_as_field_by_field(case):
    raw, variant = case
    before = copy.deepcopy(raw)
    check = Checker()
    sheet = revive.read_fields(check, raw, "players[2]", variant)
    plain = revive.plain_sheet(raw, variant)
    if check.ok:
        assert plain == sheet
        assert vars(plain) == vars(sheet)  # the same fields, in the same order, of the same types
        assert [type(v) for v in vars(plain).values()] == [type(v) for v in vars(sheet).values()]
    else:
        assert plain is None  # something to say: read field by field, every problem with its path
    again = Checker()
    assert revive.read_player(again, raw, "players[2]", variant) == sheet
    assert again.problems == check.problems
    assert raw == before  # neither way changes the document


def same_reading(raw: dict, variant: str) -> None:
    check = Checker()
    sheet = revive.read_fields(check, raw, "players[0]", variant)
    assert revive.plain_sheet(raw, variant) == (sheet if check.ok else None)


@settings(max_examples=60, deadline=None)
@given(player("abyss"), st.sampled_from(["base", "abyss"]))
def test_every_number_at_and_past_its_bounds_and_every_list_one_longer(raw, variant):
    raw = {"name": "Ana", "four_token": True, **raw}
    for at in spots(raw):
        value = _at(raw, at)
        if at and type(value) is int:
            lo, hi = BOUNDS[at[-1] if isinstance(at[-1], str) else at[-2]]
            for moved in (lo - 1, lo, hi, hi + 1):
                changed = copy.deepcopy(raw)
                parent = _at(changed, at[:-1])
                parent[at[-1]] = moved
                same_reading(changed, variant)
        if isinstance(value, list):
            for more in (value[:1], [1], [{}]):
                changed = copy.deepcopy(raw)
                _at(changed, at).extend(copy.deepcopy(more) * (revive.GREAT_LOCATIONS_MAX + 1 - len(value)))
                same_reading(changed, variant)


@settings(max_examples=200, deadline=None)
@given(documents())
def test_every_line_of_a_valid_document_comes_from_a_plain_reading(document):
    for raw in document["players"]:
        check = Checker()
        assert revive.plain_sheet(raw, document["variant"]) == revive.read_fields(check, raw, "p",
                                                                               document["variant"])
        assert check.ok


def test_a_wrong_value_is_still_said_at_its_path():
    doc = {"game": "revive", "variant": "base", "players": [
        {"name": "Ana", "track": 3, "card_bonus": [{"unlocked": True, "cards": 2}, {"cards": 61}, {}]},
        {"name": "Ben", "resources": {"gears": 7}, "artifacts": [0, 1, 2]}]}
    assert [(p.path, p.message) for p in games.validate(doc)] == [
        ("players[0].card_bonus[1].cards", "doit être entre 0 et 60"),
        ("players[1].resources.gears", "doit être entre 0 et 6")]
