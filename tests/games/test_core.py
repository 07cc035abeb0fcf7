"""The game-independent core: common validation, checker readers, ranking with tie-break chains."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import games
from companion.games import core
from companion.games.core import Checker, Criterion, Line, PlayerScore, Split


def paths(doc):
    return {p.path: p.message for p in games.validate(doc)}


def ps(name, total):
    return PlayerScore(name, [Line("points", total)])


# ------------------------------------------------------------------ common validation


def test_document_must_be_an_object():
    assert set(paths([])) == {"document"}
    assert set(paths("rebirth")) == {"document"}


def test_unknown_game_and_variant_are_named():
    assert "inconnu" in paths({"game": "chess", "variant": "base", "players": []})["game"]
    problems = paths({"game": "rebirth", "variant": "wales", "players": [{"name": "A"}, {"name": "B"}]})
    assert "variant" in problems and "scotland" in problems["variant"]


def test_missing_fields_are_reported(dice):
    problems = paths({"game": "dice"})
    assert "variant" in problems and "players" in problems


def test_player_counts_per_game(dice):
    too_few = paths({"game": "dice", "variant": "base", "players": [{"name": "A"}]})
    assert "2 à 4" in too_few["players"]
    five = [{"name": n} for n in "ABCDE"]
    assert "il y en a 5" in paths({"game": "dice", "variant": "base", "players": five})["players"]
    for game, lo, hi in (("rebirth", 2, 4), ("reterra", 2, 4), ("revive", 1, 4)):
        g = games.GAMES[game]
        assert (g.min_players, g.max_players) == (lo, hi)


def test_names_trimmed_unique_case_insensitive_and_bounded(dice):
    doc = {"game": "dice", "variant": "base", "players": [
        {"name": "  Alice "}, {"name": "alice"}, {"name": "   "}, {"name": "x" * 41}]}
    problems = paths(doc)
    assert "déjà pris" in problems["players[1].name"]
    assert "1 à 40" in problems["players[2].name"]
    assert "1 à 40" in problems["players[3].name"]
    assert "players[0].name" not in problems
    ok = {"game": "dice", "variant": "base", "players": [{"name": "  Zoë  "}, {"name": "x" * 40}]}
    assert games.score(ok).players[0].name == "Zoë"


def test_name_must_be_text_and_player_an_object(dice):
    problems = paths({"game": "dice", "variant": "base", "players": [{"name": 3}, "Bob"]})
    assert "texte" in problems["players[0].name"]
    assert "objet" in problems["players[1]"]


def test_every_error_is_collected_not_only_the_first(dice):
    doc = {"game": "dice", "variant": "base", "colour": "red", "players": [
        {"name": "A", "points": True}, {"name": "B", "points": 101, "typo": 1}]}
    problems = paths(doc)
    assert set(problems) == {"colour", "players[0].points", "players[1].points", "players[1].typo"}
    assert "nombre entier" in problems["players[0].points"]  # a boolean is not a number
    assert "0 et 100" in problems["players[1].points"]
    assert "clé inconnue" in problems["players[1].typo"]


def test_game_without_engine_is_refused_clearly(monkeypatch, dice):
    monkeypatch.setitem(games.GAMES, "dice", core.Game(
        id="dice", label="Dés", variants={"base": "Base"}, min_players=2, max_players=4, categories=()))
    problems = paths({"game": "dice", "variant": "base", "players": [{"name": "A"}, {"name": "B"}]})
    assert "pas encore disponible" in problems["game"]


def test_checker_readers():
    c = Checker()
    obj = {"n": 3.0, "b": 1, "s": 5, "l": "x", "ok": 4}
    assert c.integer(obj, "n", "p", 0, 9) == 0
    assert c.boolean(obj, "b", "p") is False
    assert c.string(obj, "s", "p") is None
    assert c.array(obj, "l", "p") == []
    assert c.integer(obj, "ok", "p", 0, 9) == 4
    assert c.integer(obj, "missing", "p", 0, 9) == 0
    assert [p.path for p in c.problems] == ["p.n", "p.b", "p.s", "p.l"]


def test_player_reference_is_trimmed_and_case_insensitive():
    c = Checker()
    assert c.player_ref({"holder": " bob "}, "holder", "", ["Alice", "Bob"]) == "Bob"
    assert c.player_ref({"holder": None}, "holder", "", ["Alice", "Bob"]) is None
    assert c.player_ref({"holder": "Carol"}, "holder", "", ["Alice", "Bob"]) is None
    assert c.problems[0].path == "holder" and "Alice ou Bob" in c.problems[0].message


# ------------------------------------------------------------------ ranking


def test_shared_places_skip_the_next_number():
    players = [ps("A", 10), ps("B", 7), ps("C", 7), ps("D", 3)]
    ranking, explanation = core.rank(players, [])
    assert [(p.place, p.players) for p in ranking] == [(1, ["A"]), (2, ["B", "C"]), (4, ["D"])]
    assert explanation == ["B et C à égalité (7 points) pour la 2e place ; ils partagent la 2e place."]


def test_tie_break_chain_goes_on_and_says_why_a_tie_remains():
    leftovers = {"A": 3, "B": 3, "C": 1, "D": 3}
    machine = {"A": 5, "B": 9, "C": 9, "D": 5}
    criteria = [core.by_value(leftovers.get, "ressources"), core.by_value(machine.get, "machines")]
    ranking, explanation = core.rank([ps(n, 50) for n in "ABCD"], criteria)
    assert [(p.place, p.players) for p in ranking] == [(1, ["B"]), (2, ["A", "D"]), (4, ["C"])]
    assert explanation[0].startswith("A, B, C et D à égalité (50 points) ; ressources : A 3, B 3, C 1, D 3")
    assert "B gagne" in explanation[1] and "machines : A 5, B 9, D 5" in explanation[1]
    assert explanation[2] == ("A et D à égalité (50 points) pour la 2e place ; machines : 5 chacun ; "
                              "ils partagent la 2e place.")


def test_shared_victory_is_explained():
    crit = core.holder_wins(None, "{name} tient le château", "aucun ne tient le château")
    ranking, explanation = core.rank([ps("A", 5), ps("B", 5)], [crit])
    assert ranking[0].players == ["A", "B"]
    assert explanation == ["A et B à égalité (5 points) ; aucun ne tient le château ; victoire partagée."]


def test_criterion_may_bring_an_outsider_to_first_place():
    def jump(tie):
        if tie.first and "C" not in tie.names:
            groups = (("C",), tie.names)
            return Split(groups, f"C tient Stirling ; {core.outcome(groups, tie.place)}")
        return None

    ranking, explanation = core.rank([ps("A", 9), ps("B", 9), ps("C", 4), ps("D", 2)],
                                     [Criterion(jump, lambda t: "")])
    assert [(p.place, p.players) for p in ranking] == [(1, ["C"]), (2, ["A", "B"]), (4, ["D"])]
    assert "C gagne, puis A et B" in explanation[0]


def test_french_words():
    assert core.join_names(["A"]) == "A"
    assert core.join_names(["A", "B", "C"]) == "A, B et C"
    assert core.ordinal(1) == "1re" and core.ordinal(3) == "3e"


@given(st.lists(st.integers(0, 30), min_size=1, max_size=6))
def test_ranking_invariants(totals):
    players = [ps(f"P{i}", t) for i, t in enumerate(totals)]
    ranking, _ = core.rank(players, [])
    listed = [n for p in ranking for n in p.players]
    assert sorted(listed) == sorted(p.name for p in players)  # everyone placed once
    for place in ranking:  # place = 1 + number of players ahead
        ahead = sum(1 for t in totals if t > totals[int(place.players[0][1:])])
        assert place.place == ahead + 1
        assert len({totals[int(n[1:])] for n in place.players}) == 1


def test_score_pad_rows_follow_contract_order_and_variant():
    from document_helpers import load_example

    doc = load_example("revive-abyss.json")
    pad = games.score_pad(games.score(doc))
    assert [r.key for r in pad] == ["track", "progress", "card_bonus", "great_locations", "tokens",
                                   "resources", "artifacts", "artifact_card", "devotion"]
    assert [line.points for line in pad[0].lines] == [38, 55]  # one line per player, seat order
    doc["variant"] = "base"
    for player in doc["players"]:
        player.pop("scyphoz", None)
        player.pop("devotion", None)
    assert "devotion" not in [r.key for r in games.score_pad(games.score(doc))]


def test_negative_points_are_written_with_a_true_minus_sign():
    assert core.points_text(-1) == "\u22121" and core.points_text(0) == "0" and core.points_text(7) == "7"


@pytest.mark.parametrize(("game", "variant"), [("rebirth", "scotland"), ("rebirth", "ireland"),
                                               ("reterra", "base"), ("revive", "base"), ("revive", "abyss")])
def test_a_game_with_nothing_entered_is_said_only_once_it_is_read_as_over(game, variant):
    """While entering, everyone blank is nobody started yet (no warning); read as finished (the
    results), a shared victory at 0 comes with one warning, not one per player."""
    from companion.games import warnings

    doc = {"game": game, "variant": variant, "players": [{"name": "Ana"}, {"name": "Ben"}, {"name": "Chloé"}]}
    assert warnings(doc) == []
    over = warnings(doc, finished=True)
    assert [(w.path, w.message) for w in over] == [
        ("players", "Rien n'est saisi pour aucun joueur : tout le monde est à 0. Un oubli ?")]
    doc["players"][0]["track" if game != "reterra" else "segments"] = 3  # one player started
    assert [w.path for w in warnings(doc, finished=True)] == ["players[1]", "players[2]"]


def test_cities_alone_are_not_said_to_be_nothing_entered():
    """Rebirth's cities are the table's: a game whose only entry is a complete city scores its prizes
    (R3) with every player's own fields blank, and is not "everyone at 0"."""
    from companion.games import score, warnings

    tiles = [{"player": "Ana", "influence": 3}, {"player": "Ben", "influence": 1}]
    doc = {"game": "rebirth", "variant": "scotland", "players": [{"name": "Ana"}, {"name": "Ben"}],
           "cities": [{"size": 2, "tiles": tiles}]}
    assert [p.total for p in score(doc).players] == [5, 3]
    assert all(w.path != "players" for w in warnings(doc, finished=True))
