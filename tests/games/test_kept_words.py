"""What the engine keeps between two scorings besides the players' parts (issue 33): the table's
common checks per game, variant, names and language, Revive's worded lines per what they read, and a
ranking that words its tie-break criteria only for a tie. A score with all of it kept is exactly a
fresh one (`parts.forget`: nothing kept), in every language, for every game."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_parts_properties import changes, outcome

from companion import games
from companion.games import i18n, revive
from companion.games.core import Line, Place, PlayerScore, by_value, rank
from companion.games.parts import forget

LANGS = st.sampled_from(["fr", "en"])


def everything(doc: dict, edition: str | None) -> tuple:
    """The outcome (result or problems) and the warnings, as a page or the answer to a save reads them."""
    said = outcome(doc, edition)
    if said[0] != "scored":
        return said, None
    result = said[3]
    warned = [games.warnings(doc, result), games.warnings(doc, result, finished=True)]
    return said, [[(w.path, w.message, w.kind) for w in ws] for ws in warned]


@settings(max_examples=300, deadline=None)
@given(changes(), LANGS, LANGS)
def test_a_score_with_everything_kept_is_a_fresh_one(change, first_lang, lang):
    doc, after, edition = change
    with i18n.using(first_lang):
        everything(doc, edition)  # kept: the parts, the words, the table's checks, in that language
    with i18n.using(lang):
        kept = everything(after, edition)
        everything(doc, edition)
        again = everything(after, edition)  # what the document before left kept, in this language
    forget()
    with i18n.using(lang):
        fresh = everything(after, edition)
    assert kept == fresh
    assert again == fresh


def test_forget_leaves_nothing_kept():
    doc = {"game": "revive", "variant": "abyss", "players": [
        {"name": "Ana", "track": 4, "resources": {"gears": 6}}, {"name": "Ben", "track": 4}]}
    games.score(doc)
    forget()
    assert revive._card_bonus_words.cache_info().currsize == 0
    assert revive._resources_words.cache_info().currsize == 0
    assert games._COMMON == {}


def test_names_are_checked_again_in_each_language():
    doc = {"game": "revive", "variant": "base",
           "players": [{"name": "Ana"}, {"name": "ana "}, {"name": "\u202e"}]}
    with i18n.using("fr"):
        french = [(p.path, p.message) for p in games.validate(doc)]
    with i18n.using("en"):
        english = [(p.path, p.message) for p in games.validate(doc)]
    with i18n.using("fr"):
        assert [(p.path, p.message) for p in games.validate(doc)] == french
    assert [path for path, _message in french] == ["players[1].name", "players[2].name"]
    assert french[0][1] == "nom déjà pris par le joueur 1 (les noms doivent être distincts)"
    assert english != french and [path for path, _m in english] == ["players[1].name", "players[2].name"]


def test_a_game_registered_again_is_checked_by_its_own_rules(monkeypatch):
    doc = {"game": "revive", "variant": "base", "players": [{"name": n} for n in ("Ana", "Ben", "Cy")]}
    assert games.validate(doc) == []  # kept: Revive's table checks for these names
    monkeypatch.setitem(games.GAMES, "revive", dataclasses.replace(revive.GAME, max_players=2))
    assert [(p.path, p.message) for p in games.validate(doc)] == [
        ("players", "Revive se joue de 1 à 2 joueurs (il y en a 3)")]
    monkeypatch.undo()
    assert games.validate(doc) == []


def scores(totals: list[int]) -> list[PlayerScore]:
    return [PlayerScore(f"P{i}", [Line("track", t)]) for i, t in enumerate(totals)]


@given(st.lists(st.integers(-5, 60), min_size=1, max_size=6, unique=True))
def test_a_ranking_without_a_tie_never_words_its_criteria(totals):
    def criteria():
        raise AssertionError("worded without a tie")

    answers: list[str] = []
    ranking, explanation = rank(scores(totals), criteria, answers)
    by_total = sorted(range(len(totals)), key=lambda i: -totals[i])
    assert ranking == [Place(place, [f"P{i}"]) for place, i in enumerate(by_total, 1)]
    assert explanation == [] and answers == []


@given(st.lists(st.integers(0, 4), min_size=2, max_size=6),
       st.lists(st.integers(0, 3), min_size=6, max_size=6))
def test_criteria_given_as_a_function_rank_as_the_criteria_themselves(totals, values):
    chain = [by_value(lambda name: values[int(name[1:])], "jetons")]
    called = []

    def later():
        called.append(1)
        return chain

    given_answers: list[str] = []
    later_answers: list[str] = []
    assert rank(scores(totals), later, later_answers) == rank(scores(totals), chain, given_answers)
    assert later_answers == given_answers
    assert called == ([1] if len(set(totals)) < len(totals) else [])  # worded once, for a tie alone


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_revive_lines_worded_from_kept_words_are_those_worded_afresh(lang):
    """A part's lines, their words kept per what each reads, are those worded afresh."""
    sheet = revive.Sheet(track=3, card_bonus=((True, 2), (False, 1), (True, 0)), scyphoz=2,
                         great_locations=(5, 8), four_token=True, two_tokens=2, resources=(3, 1, 0, 2),
                         artifacts=(1, 0, 2), artifact_card=((2, 1), (0, 0), (1, 3)), devotion=4)
    with i18n.using(lang):
        for variant in ("base", "abyss"):
            revive.score_sheet(sheet, variant)
            kept = revive.score_sheet(sheet, variant)  # its words found kept
            forget()
            assert kept == revive.score_sheet(sheet, variant)
