"""Revive property tests: any document the contract allows scores, adds up as V1 says, never loses
points for one more resource, and does not depend on the seating order except in output order."""

from __future__ import annotations

import copy

from hypothesis import given
from hypothesis import strategies as st

from companion import games

LIMITS = {"gears": 6, "books": 6, "food": 6, "crystals": 3}


def maybe(key: str, strategy) -> st.SearchStrategy[dict]:
    """A field that may be left out (the contract reads a missing field as 0 / empty)."""
    return st.one_of(st.just({}), strategy.map(lambda v: {key: v}))


def ints(hi: int, lo: int = 0):
    return st.integers(min_value=lo, max_value=hi)


card_bonus = st.lists(st.fixed_dictionaries({}, optional={"unlocked": st.booleans(), "cards": ints(60)}),
                      min_size=3, max_size=3)
artifact_card = st.lists(st.fixed_dictionaries({}, optional={"count": ints(100), "points": ints(10)}),
                         min_size=3, max_size=3)
resources = st.fixed_dictionaries({}, optional={k: ints(v) for k, v in LIMITS.items()})


@st.composite
def player(draw, variant: str) -> dict:
    fields = {}
    for part in (
        maybe("track", ints(500)), maybe("progress", ints(100)), maybe("card_bonus", card_bonus),
        maybe("great_locations", st.lists(ints(30, 1), max_size=5)), maybe("two_tokens", ints(4)),
        maybe("resources", resources), maybe("artifacts", st.lists(ints(20), min_size=3, max_size=3)),
        maybe("artifact_points", ints(100)), maybe("artifact_card", artifact_card),
        maybe("machine_progress", ints(60)),
    ):
        fields.update(draw(part))
    if variant == "abyss":
        fields.update(draw(maybe("scyphoz", ints(20))))
        fields.update(draw(maybe("devotion", ints(200))))
    return fields


@st.composite
def documents(draw) -> dict:
    variant = draw(st.sampled_from(["base", "abyss"]))
    count = draw(st.integers(1, 4))
    names = draw(st.lists(st.sampled_from(["Ana", "Ben", "Cléo", "Dan", "Élise", "Farid"]),
                          min_size=count, max_size=count, unique=True))
    players = [{"name": name, **draw(player(variant))} for name in names]
    holder = draw(st.one_of(st.none(), st.integers(0, count - 1)))
    for i, p in enumerate(players):
        if holder is not None and i == holder:
            p["four_token"] = True
        elif draw(st.booleans()):
            p["four_token"] = False
    return {"game": "revive", "variant": variant, "players": players}


@st.composite
def tied_documents(draw) -> dict:
    """Players who differ only in a few resources and machine steps: ties at every level of V6."""
    count = draw(st.integers(2, 4))
    names = ["Ana", "Ben", "Cléo", "Dan"][:count]
    players = [{"name": n, "track": 20, "resources": {"gears": draw(ints(6)), "books": draw(ints(1))},
                "machine_progress": draw(ints(2))} for n in names]
    return {"game": "revive", "variant": "base", "players": players}


def expected_total(p: dict, variant: str) -> int:
    """V1 read straight from the document: the oracle the engine's breakdown must match."""
    bonus = p.get("card_bonus", [{}] * 3)
    unlocked = [c.get("unlocked", False) for c in bonus]
    cards = sum(2 * c.get("cards", 0) for c in bonus if c.get("unlocked", False))
    if variant == "abyss" and any(unlocked):
        cards += 2 * p.get("scyphoz", 0)
    artifacts = p.get("artifacts", [0, 0, 0])
    card = sum((a + 1) * line.get("count", 0) * line.get("points", 0)
               for a, line in zip(artifacts, p.get("artifact_card", [{}] * 3), strict=True))
    return (p.get("track", 0) + p.get("progress", 0) + cards + sum(p.get("great_locations", []))
            + 4 * p.get("four_token", False) + 2 * p.get("two_tokens", 0)
            + sum(p.get("resources", {}).values()) // 5 + p.get("artifact_points", 0) + card
            + (p.get("devotion", 0) if variant == "abyss" else 0))


@given(documents())
def test_total_is_the_sum_of_the_breakdown_and_matches_v1(document):
    out = games.score(document).to_dict()
    for p, scored in zip(document["players"], out["players"], strict=True):
        assert scored["total"] == sum(line["points"] for line in scored["breakdown"])
        assert scored["total"] == expected_total(p, document["variant"])
        keys = games.GAMES["revive"].keys(document["variant"])
        assert [line["key"] for line in scored["breakdown"]] == keys
    ranked = [name for place in out["ranking"] for name in place["players"]]
    assert sorted(ranked) == sorted(p["name"] for p in document["players"])


@given(documents(), st.data())
def test_one_more_resource_never_lowers_a_score(document, data):
    before = games.score(document)
    i = data.draw(st.integers(0, len(document["players"]) - 1))
    held = document["players"][i].get("resources", {})
    room = [k for k, limit in LIMITS.items() if held.get(k, 0) < limit]
    if not room:
        return  # every resource at its limit: one more is not a legal document
    kind = data.draw(st.sampled_from(room))
    richer = copy.deepcopy(document)
    richer["players"][i]["resources"] = {**held, kind: held.get(kind, 0) + 1}
    after = games.score(richer)
    name = document["players"][i]["name"]
    assert after.player(name).total >= before.player(name).total
    for other in before.players:
        if other.name != name:
            assert after.player(other.name).total == other.total


@given(st.one_of(documents(), tied_documents()), st.randoms(use_true_random=False))
def test_seating_order_changes_only_the_order_of_the_output(document, rng):
    shuffled = copy.deepcopy(document)
    rng.shuffle(shuffled["players"])
    a, b = games.score(document), games.score(shuffled)
    assert [p.name for p in b.players] == [p["name"] for p in shuffled["players"]]
    for p in a.players:
        assert b.player(p.name).to_dict() == p.to_dict()
        assert b.place_of(p.name) == a.place_of(p.name)
    assert sorted(a.winners) == sorted(b.winners)
    assert len(a.explanation) == len(b.explanation)
