"""Revive and Call of the Abyss: each ruling V1-V6 on a situation a table could lay out, the rules'
own example, the shared example, the tie-break chain and every contract bound."""

from __future__ import annotations

import copy

import pytest

from companion import games
from companion.games import revive
from companion.games.core import Checker
from document_helpers import load_example


def doc(*players: dict, variant: str = "abyss") -> dict:
    return {"game": "revive", "variant": variant, "players": list(players)}


def scored(*players: dict, variant: str = "abyss"):
    return games.score(doc(*players, variant=variant))


def lines(result, name: str) -> dict[str, int]:
    return {line.key: line.points for line in result.player(name).breakdown}


def details(result, name: str) -> dict[str, str]:
    return {line.key: line.detail for line in result.player(name).breakdown}


def problems(document: dict) -> dict[str, str]:
    return {p.path: p.message for p in games.validate(document)}


EMPTY3 = [{"count": 0, "points": 0}] * 3


# ------------------------------------------------------------------ the shared example


def test_shared_example_totals_and_breakdown():
    result = games.score(load_example("revive-abyss.json"))
    assert [(p.name, p.total) for p in result.players] == [("Maëlle", 94), ("Yanis", 83)]
    # Breakdown values in contract key order, as written in docs/contract.md (the examples).
    assert [line.points for line in result.player("Maëlle").breakdown] == [38, 6, 8, 5, 4, 1, 0, 23, 9]
    assert [line.points for line in result.player("Yanis").breakdown] == [55, 9, 4, 0, 2, 1, 0, 8, 4]
    assert [(p.place, p.players) for p in result.ranking] == [(1, ["Maëlle"]), (2, ["Yanis"])]
    assert result.winners == ["Maëlle"]
    assert result.explanation == []


def test_shared_example_details_show_the_readme_arithmetic():
    result = games.score(load_example("revive-abyss.json"))
    maelle, yanis = details(result, "Maëlle"), details(result, "Yanis")
    assert "3 × 5 × 1 + 1 × 0 × 2 + 2 × 2 × 2 = 23" in maelle["artifact_card"]
    assert "couleur 1 : 3 × 5 × 1 = 15" in maelle["artifact_card"]
    assert "couleur 3 : 2 × 2 × 2 = 8" in maelle["artifact_card"]
    assert "2 × 4 × 1 = 8" in yanis["artifact_card"]
    # 3 cards of colour 1 and 1 Scyphoz; the locked colour 2 is said to score nothing.
    assert maelle["card_bonus"].startswith("3 × 2 (couleur 1) + 1 × 2 (Scyphoz) = 8")
    assert "couleur 2 non débloquée" in maelle["card_bonus"]
    # 6 left over: 5 converted into 1 point, 1 unconverted.
    assert "= 6 ressources restantes" in maelle["resources"]
    assert "1 × 5 = 5 converties" in maelle["resources"]
    assert "reste 1 non convertie" in maelle["resources"]
    assert "reste 0 non convertie" in yanis["resources"]


def test_result_follows_the_contract_shape():
    out = games.score(load_example("revive-abyss.json")).to_dict()
    assert out["game"] == "revive" and out["variant"] == "abyss"
    for player in out["players"]:
        assert [b["key"] for b in player["breakdown"]] == [
            "track", "progress", "card_bonus", "great_locations", "tokens", "resources",
            "artifacts", "artifact_card", "devotion"]
        assert player["total"] == sum(b["points"] for b in player["breakdown"])
    assert out["winners"] == ["Maëlle"]


# ------------------------------------------------------------------ V1: the end-game categories


def test_v1_every_category_adds_up():
    # A base game sheet with every category filled in, added up by hand:
    # 61 track + 7 progress + 2×4 + 2×2 cards (colours 1 and 3 unlocked; 5 cards of locked colour 2 score 0)
    # + 8 + 12 great locations + 4 + 2×2 tokens + 2 (11 resources: 10 converted, 1 left)
    # + 6 artifact points + artifact card (1+1)×3×2 + (0+1)×4×1 + (2+1)×0×3 = 12 + 4 + 0 = 16.
    player = {
        "name": "Inès", "track": 61, "progress": 7,
        "card_bonus": [{"unlocked": True, "cards": 4}, {"unlocked": False, "cards": 5},
                       {"unlocked": True, "cards": 2}],
        "great_locations": [8, 12], "four_token": True, "two_tokens": 2,
        "resources": {"gears": 4, "books": 3, "food": 2, "crystals": 2},
        "artifacts": [1, 0, 2], "artifact_points": 6,
        "artifact_card": [{"count": 3, "points": 2}, {"count": 4, "points": 1}, {"count": 0, "points": 3}],
        "machine_progress": 14,
    }
    result = scored(player, variant="base")
    assert lines(result, "Inès") == {
        "track": 61, "progress": 7, "card_bonus": 12, "great_locations": 20, "tokens": 8,
        "resources": 2, "artifacts": 6, "artifact_card": 16}
    assert result.player("Inès").total == 61 + 7 + 12 + 20 + 8 + 2 + 6 + 16
    d = details(result, "Inès")
    assert d["card_bonus"] == "4 × 2 (couleur 1) + 2 × 2 (couleur 3) = 12 ; " \
                              "couleur 2 non débloquée : 5 cartes sans points"
    assert d["great_locations"] == "8 + 12 = 20"
    assert d["tokens"] == "4 (jeton 4 points) + 2 × 2 (jetons 2 points) = 8"
    assert d["resources"] == ("4 engrenages + 3 livres + 2 nourritures + 2 cristaux = 11 ressources "
                              "restantes ; 2 × 5 = 10 converties, reste 1 non convertie")


def test_v1_locked_colour_scores_nothing_and_left_out_fields_are_zero():
    result = scored({"name": "Solo", "card_bonus": [{"unlocked": False, "cards": 9}, {}, {}]}, variant="base")
    assert lines(result, "Solo") == dict.fromkeys(revive.GAME.keys("base"), 0)
    assert result.player("Solo").total == 0


def test_v1_devotion_is_added_with_the_expansion_only():
    abyss = scored({"name": "A", "track": 10, "devotion": 17})
    assert lines(abyss, "A")["devotion"] == 17 and abyss.player("A").total == 27
    base = scored({"name": "A", "track": 10}, variant="base")
    assert "devotion" not in lines(base, "A")
    assert [line.key for line in base.player("A").breakdown] == revive.GAME.keys("base")


# ------------------------------------------------------------------ V2: remaining resources


@pytest.mark.parametrize(("resources", "points", "rest"), [
    ({}, 0, 0),
    ({"gears": 4}, 0, 4),
    ({"gears": 1, "books": 1, "food": 1, "crystals": 2}, 1, 0),  # crystals count with the others
    ({"gears": 6, "books": 6, "food": 6, "crystals": 3}, 4, 1),  # the most a player can keep: 21
    ({"books": 6, "food": 3}, 1, 4),
])
def test_v2_one_point_per_full_five_resources_of_all_kinds(resources, points, rest):
    result = scored({"name": "A", "resources": resources}, variant="base")
    assert lines(result, "A")["resources"] == points
    assert revive.read_player(Checker(), {"resources": resources}, "p", "base").leftover == rest


def test_v2_resource_detail_for_a_single_kind_and_no_full_five():
    result = scored({"name": "A", "resources": {"crystals": 3}}, variant="base")
    assert details(result, "A")["resources"] == \
        "3 ressources restantes (3 cristaux) ; aucune tranche de 5, reste 3 non converties"


@pytest.mark.parametrize(("key", "limit"), [("gears", 6), ("books", 6), ("food", 6), ("crystals", 3)])
def test_v2_resource_limits(key, limit):
    assert problems(doc({"name": "A", "resources": {key: limit}})) == {}
    path = f"players[0].resources.{key}"
    found = problems(doc({"name": "A", "resources": {key: limit + 1}}))
    assert path in found and f"entre 0 et {limit}" in found[path]
    assert path in problems(doc({"name": "A", "resources": {key: -1}}))


# ------------------------------------------------------------------ V3: the artifact card


def test_v3_rules_example_six_energies_three_yellow_artifacts():
    # "si les artefacts jaunes rapportent 1 point pour chaque énergie et que vous avez 6 énergies
    # et 3 artefacts jaunes, vous marquez 6 x 4 x 1 = 24 points."
    result = scored({"name": "A", "artifacts": [3, 0, 0],
                     "artifact_card": [{"count": 6, "points": 1}, {}, {}]}, variant="base")
    assert lines(result, "A")["artifact_card"] == 24
    assert details(result, "A")["artifact_card"] == "couleur 1 : 4 × 6 × 1 = 24"


def test_v3_each_colour_counts_its_own_artifacts_plus_one():
    # No artifact of a colour still multiplies its line by 1; artifacts of another colour don't help.
    result = scored({"name": "A", "artifacts": [0, 5, 0],
                     "artifact_card": [{"count": 3, "points": 2}, {"count": 0, "points": 4},
                                       {"count": 2, "points": 1}]}, variant="base")
    assert lines(result, "A")["artifact_card"] == 1 * 3 * 2 + 6 * 0 * 4 + 1 * 2 * 1
    assert details(result, "A")["artifact_card"] == (
        "couleur 1 : 1 × 3 × 2 = 6 ; couleur 2 : 6 × 0 × 4 = 0 ; couleur 3 : 1 × 2 × 1 = 2 ; "
        "en tout 1 × 3 × 2 + 6 × 0 × 4 + 1 × 2 × 1 = 8")


def test_v3_artifacts_without_a_card_line_and_printed_points_are_separate():
    result = scored({"name": "A", "artifacts": [2, 2, 2], "artifact_points": 9,
                     "artifact_card": EMPTY3}, variant="base")
    assert lines(result, "A")["artifact_card"] == 0
    assert lines(result, "A")["artifacts"] == 9
    assert details(result, "A")["artifact_card"] == ""


# ------------------------------------------------------------------ V4: Scyphoz cards


def test_v4_scyphoz_count_two_each_with_an_unlocked_colour():
    result = scored({"name": "A", "scyphoz": 3,
                     "card_bonus": [{"unlocked": False, "cards": 4}, {"unlocked": True, "cards": 0}, {}]})
    assert lines(result, "A")["card_bonus"] == 6
    assert details(result, "A")["card_bonus"].startswith("0 × 2 (couleur 2) + 3 × 2 (Scyphoz) = 6")


def test_v4_scyphoz_score_nothing_without_an_unlocked_colour():
    result = scored({"name": "A", "scyphoz": 3, "card_bonus": [{"unlocked": False, "cards": 4}, {}, {}]})
    assert lines(result, "A")["card_bonus"] == 0
    assert "3 cartes Scyphoz sans couleur débloquée : 0" in details(result, "A")["card_bonus"]


def test_v4_scyphoz_and_devotion_are_unknown_in_a_base_game():
    found = problems(doc({"name": "A", "scyphoz": 1, "devotion": 3}, variant="base"))
    assert set(found) == {"players[0].scyphoz", "players[0].devotion"}
    assert all("clé inconnue" in m and "abyss" in m for m in found.values())


# ------------------------------------------------------------------ V5: tokens and colours


def test_v5_four_point_token_and_two_point_tokens():
    result = scored({"name": "A", "four_token": True}, {"name": "B", "two_tokens": 1},
                    {"name": "C", "two_tokens": 3}, variant="base")
    assert [lines(result, n)["tokens"] for n in "ABC"] == [4, 2, 6]
    assert details(result, "B")["tokens"] == "1 × 2 (jeton 2 points)"


def test_v5_one_player_at_most_holds_the_four_point_token():
    found = problems(doc({"name": "A", "four_token": True}, {"name": "B", "four_token": True},
                         {"name": "C", "four_token": False}, {"name": "D", "four_token": True}))
    assert set(found) == {"players[1].four_token", "players[3].four_token"}
    assert "un seul joueur" in found["players[1].four_token"] and "A" in found["players[1].four_token"]


def test_v5_colours_are_labelled_neutrally():
    result = scored({"name": "A", "card_bonus": [{}, {}, {"unlocked": True, "cards": 1}],
                     "artifact_card": [{}, {}, {"count": 1, "points": 1}]}, variant="base")
    d = details(result, "A")
    assert "couleur 3" in d["card_bonus"] and "couleur 3" in d["artifact_card"]
    assert "jaune" not in d["card_bonus"] + d["artifact_card"]


# ------------------------------------------------------------------ V6: winner and places


def test_v6_unconverted_resources_beat_more_resources():
    # Equal totals; Ana kept 9 resources (1 point, 4 unconverted), Ben 10 (2 points, 0 unconverted).
    result = scored({"name": "Ana", "track": 41, "resources": {"gears": 6, "books": 3}},
                    {"name": "Ben", "track": 40, "resources": {"gears": 6, "books": 4},
                     "machine_progress": 30},
                    variant="base")
    assert result.player("Ana").total == result.player("Ben").total == 42
    assert result.winners == ["Ana"]
    (sentence,) = result.explanation
    assert sentence.startswith(
        "Ana et Ben à égalité (42 points) ; ressources restantes non converties : Ana 4, Ben 0 ; Ana gagne")
    assert "machine" not in sentence  # settled before the second criterion


def test_v6_machine_progress_breaks_an_equal_remainder():
    result = scored({"name": "Ana", "track": 30, "resources": {"food": 2}, "machine_progress": 9},
                    {"name": "Ben", "track": 30, "resources": {"books": 2}, "machine_progress": 12})
    assert result.winners == ["Ben"]
    assert [(p.place, p.players) for p in result.ranking] == [(1, ["Ben"]), (2, ["Ana"])]
    (sentence,) = result.explanation
    assert sentence.startswith("Ana et Ben à égalité (30 points) ; ressources restantes non converties : "
                               "2 chacun ; avancement total sur les pistes de machine : Ana 9, Ben 12")
    assert sentence.endswith("Ben gagne, puis Ana.")


def test_v6_fully_tied_players_share_the_victory():
    result = scored({"name": "Ana", "track": 30, "machine_progress": 5},
                    {"name": "Ben", "track": 30, "machine_progress": 5})
    assert result.winners == ["Ana", "Ben"]
    assert [(p.place, p.players) for p in result.ranking] == [(1, ["Ana", "Ben"])]
    (sentence,) = result.explanation
    assert "ressources restantes non converties : 0 chacun" in sentence
    assert "avancement total sur les pistes de machine : 5 chacun" in sentence
    assert "victoire partagée" in sentence


def test_v6_applies_to_places_below_first():
    # Cléo wins outright; Ana and Ben tie at 30 for 2nd: Ben kept 3 unconverted resources, Ana 1.
    result = scored({"name": "Ana", "track": 29, "resources": {"gears": 6}, "machine_progress": 20},
                    {"name": "Ben", "track": 30, "resources": {"books": 3}},
                    {"name": "Cléo", "track": 45}, variant="base")
    assert [(p.place, p.players) for p in result.ranking] == [(1, ["Cléo"]), (2, ["Ben"]), (3, ["Ana"])]
    (sentence,) = result.explanation
    assert sentence.startswith("Ana et Ben à égalité (30 points) pour la 2e place ; "
                               "ressources restantes non converties : Ana 1, Ben 3 ; Ben prend la 2e place")


def test_four_players_ranked_by_total_alone():
    result = scored(*({"name": n, "track": t, "machine_progress": 60 - t}
                      for n, t in (("Ana", 10), ("Ben", 40), ("Cléo", 30), ("Dan", 20))))
    assert [(p.place, p.players) for p in result.ranking] == [
        (1, ["Ben"]), (2, ["Cléo"]), (3, ["Dan"]), (4, ["Ana"])]
    assert result.explanation == []


def test_four_way_tie_settled_at_each_level_of_the_chain():
    # All four at 50. Leftover resources put Ana first (4); Ben, Cléo and Dan keep 1 each; machine
    # progress then puts Ben (12) before Cléo and Dan (10 each), who share the 3rd place.
    result = scored(
        {"name": "Ana", "track": 50, "resources": {"books": 4}, "machine_progress": 3},
        {"name": "Ben", "track": 49, "resources": {"gears": 6}, "machine_progress": 12},
        {"name": "Cléo", "track": 50, "resources": {"crystals": 1}, "machine_progress": 10},
        {"name": "Dan", "track": 50, "resources": {"food": 1}, "machine_progress": 10},
        variant="base")
    assert {p.total for p in result.players} == {50}
    assert [(p.place, p.players) for p in result.ranking] == [
        (1, ["Ana"]), (2, ["Ben"]), (3, ["Cléo", "Dan"])]
    assert result.winners == ["Ana"]
    first, second, third = result.explanation
    assert first == ("Ana, Ben, Cléo et Dan à égalité (50 points) ; ressources restantes non converties : "
                     "Ana 4, Ben 1, Cléo 1, Dan 1 ; Ana gagne, puis Ben, Cléo et Dan.")
    assert "Ben, Cléo et Dan" in second and "2e place" in second
    assert "avancement total sur les pistes de machine : Ben 12, Cléo 10, Dan 10" in second
    assert "Cléo et Dan" in third and "partagent la 3e place" in third


def test_four_way_tie_shared_by_all():
    result = scored(*({"name": n, "track": 25, "resources": {"gears": 2}, "machine_progress": 7}
                      for n in ("Ana", "Ben", "Cléo", "Dan")))
    assert [(p.place, p.players) for p in result.ranking] == [(1, ["Ana", "Ben", "Cléo", "Dan"])]
    (sentence,) = result.explanation
    assert sentence == ("Ana, Ben, Cléo et Dan à égalité (25 points) ; "
                        "ressources restantes non converties : 2 chacun ; "
                        "avancement total sur les pistes de machine : 7 chacun ; victoire partagée.")


def test_one_player_game():
    result = scored({"name": "Solo", "track": 72, "progress": 5, "four_token": True,
                     "resources": {"gears": 5}}, variant="base")
    assert result.player("Solo").total == 72 + 5 + 4 + 1
    assert result.winners == ["Solo"] and result.explanation == []


def test_player_count_is_one_to_four():
    assert "players" in problems(doc())
    five = doc(*({"name": f"J{i}"} for i in range(5)))
    assert "players" in problems(five) and "1 à 4" in problems(five)["players"]


# ------------------------------------------------------------------ validation: every bound


NUMBER_BOUNDS = [("track", 500), ("progress", 100), ("two_tokens", 4), ("artifact_points", 100),
                 ("machine_progress", 60), ("scyphoz", 20), ("devotion", 200)]


@pytest.mark.parametrize(("key", "hi"), NUMBER_BOUNDS)
def test_number_bounds(key, hi):
    assert problems(doc({"name": "A", key: 0}, {"name": "B", key: hi})) == {}
    for bad in (-1, hi + 1):
        found = problems(doc({"name": "A", key: bad}))
        assert f"players[0].{key}" in found
        assert f"doit être entre 0 et {hi}" in found[f"players[0].{key}"]


@pytest.mark.parametrize("key", [k for k, _ in NUMBER_BOUNDS])
@pytest.mark.parametrize("bad", [True, False, 1.5, "3", None, [1]])
def test_numbers_must_be_whole_numbers_not_booleans(key, bad):
    found = problems(doc({"name": "A", key: bad}))
    assert "nombre entier" in found[f"players[0].{key}"]


@pytest.mark.parametrize("bad", [1, 0, "true", None])
def test_four_token_must_be_a_boolean(bad):
    assert "true ou false" in problems(doc({"name": "A", "four_token": bad}))["players[0].four_token"]


def test_card_bonus_entries():
    ok = [{"unlocked": True, "cards": 60}, {"unlocked": False, "cards": 0}, {}]
    assert problems(doc({"name": "A", "card_bonus": ok})) == {}
    found = problems(doc({"name": "A", "card_bonus": [
        {"unlocked": 1, "cards": 61}, {"cards": True, "colour": "jaune"}, "x"]}))
    assert "true ou false" in found["players[0].card_bonus[0].unlocked"]
    assert "entre 0 et 60" in found["players[0].card_bonus[0].cards"]
    assert "nombre entier" in found["players[0].card_bonus[1].cards"]
    assert "clé inconnue" in found["players[0].card_bonus[1].colour"]
    assert "objet" in found["players[0].card_bonus[2]"]
    assert "entre 0 et 60" in problems(doc({"name": "A", "card_bonus": [{"cards": -1}, {}, {}]}))[
        "players[0].card_bonus[0].cards"]


@pytest.mark.parametrize("key", ["card_bonus", "artifacts", "artifact_card"])
@pytest.mark.parametrize("size", [0, 2, 4])
def test_per_colour_lists_have_exactly_three_entries(key, size):
    entry = 0 if key == "artifacts" else {}
    found = problems(doc({"name": "A", key: [entry] * size}))
    assert f"players[0].{key}" in found
    assert f"exactement 3 éléments (il y en a {size})" in found[f"players[0].{key}"]


@pytest.mark.parametrize("key", ["card_bonus", "artifacts", "artifact_card", "great_locations"])
def test_lists_must_be_lists(key):
    assert "liste" in problems(doc({"name": "A", key: {"0": 1}}))[f"players[0].{key}"]


def test_artifacts_bounds():
    assert problems(doc({"name": "A", "artifacts": [0, 20, 7]})) == {}
    found = problems(doc({"name": "A", "artifacts": [21, -1, True]}))
    assert "entre 0 et 20" in found["players[0].artifacts[0]"]
    assert "entre 0 et 20" in found["players[0].artifacts[1]"]
    assert "nombre entier" in found["players[0].artifacts[2]"]


def test_artifact_card_bounds():
    ok = [{"count": 100, "points": 10}, {"count": 0, "points": 0}, {}]
    assert problems(doc({"name": "A", "artifact_card": ok})) == {}
    found = problems(doc({"name": "A", "artifact_card": [
        {"count": 101, "points": 11}, {"count": -1, "points": -1}, {"count": 1, "qty": 2}]}))
    assert "entre 0 et 100" in found["players[0].artifact_card[0].count"]
    assert "entre 0 et 10" in found["players[0].artifact_card[0].points"]
    assert "players[0].artifact_card[1].count" in found
    assert "players[0].artifact_card[1].points" in found
    assert "clé inconnue" in found["players[0].artifact_card[2].qty"]
    found = problems(doc({"name": "A", "artifact_card": [3, {}, {}]}))
    assert "objet" in found["players[0].artifact_card[0]"]


def test_great_locations_at_most_five_each_one_to_thirty():
    assert problems(doc({"name": "A", "great_locations": [1, 30, 5, 5, 5]})) == {}
    found = problems(doc({"name": "A", "great_locations": [1, 2, 3, 4, 5, 6]}))
    assert "au plus 5 éléments (il y en a 6)" in found["players[0].great_locations"]
    found = problems(doc({"name": "A", "great_locations": [0, 31, False]}))
    assert "entre 1 et 30" in found["players[0].great_locations[0]"]
    assert "entre 1 et 30" in found["players[0].great_locations[1]"]
    assert "nombre entier" in found["players[0].great_locations[2]"]


def test_resources_shape():
    found = problems(doc({"name": "A", "resources": {"gears": 1, "energy": 2, "food": True}}))
    assert "clé inconnue" in found["players[0].resources.energy"]
    assert "nombre entier" in found["players[0].resources.food"]
    assert "objet" in problems(doc({"name": "A", "resources": [1, 2]}))["players[0].resources"]


def test_unknown_keys_in_player_and_document():
    found = problems({**doc({"name": "A", "tracks": 3}), "table": {}})
    assert "clé inconnue" in found["players[0].tracks"]
    assert "clé inconnue" in found["table"]


def test_every_problem_is_reported_at_once():
    found = problems(doc({"name": "A", "track": 501, "resources": {"crystals": 4}, "four_token": True},
                         {"name": "B", "artifacts": [1], "four_token": True, "scyphoz": 2},
                         variant="base"))
    assert set(found) == {"players[0].track", "players[0].resources.crystals", "players[1].artifacts",
                          "players[1].four_token", "players[1].scyphoz"}


def test_scoring_never_changes_the_document():
    original = load_example("revive-abyss.json")
    document = copy.deepcopy(original)
    games.score(document)
    assert document == original
