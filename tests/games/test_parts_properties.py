"""Each player's part of a score, kept (companion/games/parts.py, issue 33): a document scored with
the other players' parts taken from the store gives exactly what a full rescoring gives (the same
result, the same problems in the same order), for every game, variant, edition and language; and
the store keeps at most its size."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rebirth_properties import documents as rebirth_documents
from test_reterra_properties import count_documents, grid_documents
from test_revive_properties import documents as revive_documents

from companion import games
from companion.games import i18n
from companion.games.core import Checker, Line, Problem
from companion.games.parts import PARTS, Parts
from document_helpers import load_example

# values a player's field may be given by mistake: each game must say the same about them, cached or not
WRONG = st.sampled_from([-1, 10_000, "7", 2.5, True, None, [], {}, {"x": 1}])


def outcome(doc: dict, edition: str | None) -> tuple:
    """What the engine answers, all of it: the result (its dict, its short answers, the objects'
    equality) or every problem with its path, message and kind, in order."""
    try:
        result = games.score(doc, edition=edition) if edition else games.score(doc)
    except games.InvalidDocument as exc:
        return ("invalid", [(p.path, p.message, p.kind) for p in exc.problems])
    return ("scored", result.to_dict(), list(result.answers), result)


@st.composite
def changes(draw) -> tuple[dict, dict, str | None]:
    """A document, then the same with one player's own sub-document changed as an autosave would
    (a field set, removed or given a wrong value; sometimes another player's whole sub-document
    put in its place), and the edition it is scored by."""
    doc = draw(st.one_of(rebirth_documents(), grid_documents(), count_documents(), revive_documents()))
    edition = draw(st.sampled_from([None, "fr", "en"])) if doc["game"] == "reterra" else None
    after = copy.deepcopy(doc)
    seat = draw(st.integers(0, len(doc["players"]) - 1))
    player = after["players"][seat]
    how = draw(st.sampled_from(["set", "drop", "wrong", "swap"] +
                               (["city", "rename"] if doc["game"] == "rebirth" else [])))
    keys = sorted(k for k in player if k != "name")
    if how == "city" and after["cities"]:  # a table's city: a tile taken away, or its size changed
        city = after["cities"][draw(st.integers(0, len(after["cities"]) - 1))]
        if city["tiles"] and draw(st.booleans()):
            city["tiles"].pop(draw(st.integers(0, len(city["tiles"]) - 1)))
        else:
            city["size"] = draw(st.sampled_from([1, 2, 3, 4, 0, "3"]))
    elif how == "rename":  # the seats a city is settled by: the same name elsewhere, or a new one
        player["name"] = draw(st.sampled_from(["Zoé", doc["players"][-1]["name"], player["name"].upper()]))
    elif how == "swap" and len(doc["players"]) > 1:
        other = draw(st.integers(0, len(doc["players"]) - 1).filter(lambda i: i != seat))
        after["players"][seat] = {**copy.deepcopy(doc["players"][other]), "name": player["name"]}
    elif how == "drop" and keys:
        del player[draw(st.sampled_from(keys))]
    elif how == "wrong" or not keys:
        key = draw(st.sampled_from(keys + ["track", "castles", "junk"]))
        player[key] = draw(WRONG)
    else:
        key = draw(st.sampled_from(keys))
        value = player[key]
        player[key] = value + 1 if isinstance(value, int) and not isinstance(value, bool) else draw(WRONG)
    return doc, after, edition


@settings(max_examples=300, deadline=None)
@given(changes(), st.sampled_from(["fr", "en"]), st.sampled_from(["fr", "en"]))
def test_a_save_that_changed_one_player_scores_as_a_full_rescoring(change, first_lang, lang):
    doc, after, edition = change
    PARTS.clear()
    with i18n.using(first_lang):
        outcome(doc, edition)  # the parts of the document before the change are kept
    with i18n.using(lang):
        kept = outcome(after, edition)
    hits = PARTS.hits
    PARTS.clear()  # nothing kept: every player read, checked and scored again
    with i18n.using(lang):
        full = outcome(after, edition)
    assert kept == full
    if first_lang == lang and len(doc["players"]) > 1:
        assert hits >= 1  # the players the change left alone were taken from the store


@settings(max_examples=100, deadline=None)
@given(st.one_of(rebirth_documents(), grid_documents(), count_documents(), revive_documents()))
def test_a_document_scored_twice_gives_equal_results_that_share_nothing(doc):
    """A kept part is shared by the results built from it: each result's breakdown list and drawings
    are its own and its lines cannot change, so a caller changing what it can never changes the next."""
    PARTS.clear()
    first = games.score(doc)
    before = copy.deepcopy(first.to_dict())  # to_dict hands out the drawings as they are
    for player in first.players:
        for line in player.breakdown:
            with pytest.raises(dataclasses.FrozenInstanceError):
                line.points += 1000
        player.breakdown.append(Line("changé", 1000))
        player.breakdown.reverse()
        for value in player.extra.values():
            value.clear()
    assert games.score(doc).to_dict() == before


def test_the_store_keeps_at_most_its_size_the_least_recently_used_dropped_first():
    parts = Parts(size=3)
    calls = []

    def compute(check, raw, path, variant):
        calls.append(raw["n"])
        if raw["n"] % 2:
            check.add(f"{path}.n", "impair")
        return raw["n"] * 10

    check = Checker()
    for n in range(5):
        assert parts.part(compute, check, {"n": n}, "players[0]", "v") == n * 10
    assert len(parts) == 3 and calls == [0, 1, 2, 3, 4]
    assert parts.part(compute, check, {"n": 2}, "players[0]", "v") == 20  # kept: not computed again
    assert calls == [0, 1, 2, 3, 4] and parts.hits == 1
    parts.part(compute, check, {"n": 5}, "players[0]", "v")  # 3 is now the least recently used: dropped
    parts.part(compute, check, {"n": 3}, "players[0]", "v")
    assert calls == [0, 1, 2, 3, 4, 5, 3] and len(parts) == 3
    # a kept part's problems are said again, with the seat's path, each time it is taken
    assert [p.path for p in check.problems] == ["players[0].n"] * 4  # 1, 3, then 5 and 3 again
    assert check.problems[-1] == Problem("players[0].n", "impair")


def test_what_tells_two_parts_apart():
    parts = Parts(size=16)
    calls = []

    def compute(check, raw, path, variant, *context):
        calls.append((raw, path, variant, i18n.current(), context))
        return len(calls)

    check = Checker()
    parts.part(compute, check, {"n": 1}, "players[0]", "v")
    parts.part(compute, check, {"n": 1}, "players[0]", "v")  # the same: kept
    parts.part(compute, check, {"n": True}, "players[0]", "v")  # true is not 1
    parts.part(compute, check, {"n": 1.0}, "players[0]", "v")  # nor is 1.0
    parts.part(compute, check, {"n": 1}, "players[1]", "v")  # another seat: its problems' paths differ
    parts.part(compute, check, {"n": 1}, "players[0]", "w")  # another variant
    parts.part(compute, check, {"n": 1}, "players[0]", "v", ("card",))  # another context (Reterra's cards)
    with i18n.using("en"):
        parts.part(compute, check, {"n": 1}, "players[0]", "v")  # another language: other messages
    assert len(calls) == 7 and parts.misses == 7 and parts.hits == 1


def test_a_value_marshal_cannot_write_is_computed_each_time_and_not_kept():
    parts = Parts(size=4)
    calls = []

    def compute(check, raw, path, variant):
        calls.append(path)
        return 1

    odd = {"n": object()}
    parts.part(compute, Checker(), odd, "players[0]", "v")
    parts.part(compute, Checker(), odd, "players[0]", "v")
    assert len(calls) == 2 and len(parts) == 0


def test_size_zero_keeps_nothing():
    parts = Parts(size=0)
    calls = []
    for _ in range(2):
        parts.part(lambda check, raw, path, variant: calls.append(1), Checker(), {}, "players[0]", "v")
    assert len(calls) == 2 and len(parts) == 0


@pytest.mark.parametrize("example", ["rebirth-scotland.json", "reterra.json", "revive-abyss.json"])
def test_an_autosave_of_one_player_reads_that_player_alone(example):
    """The point of the store: a change to one player's field reads and scores that player, the
    others (and Rebirth's cities) come from the store."""
    doc = load_example(example)
    PARTS.clear()
    games.score(doc)
    hits, misses = PARTS.hits, PARTS.misses
    doc["players"][0]["track" if "track" in doc["players"][0] else "building_bonus"] = 7  # one field
    games.score(doc)
    assert PARTS.misses - misses == 1  # that player's part
    assert PARTS.hits - hits == misses - 1  # every other part (Rebirth's cities too) taken as it was
