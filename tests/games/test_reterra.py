"""Reterra: rulings T1-T6 on communities drawn as 8 rows, the shared example, and every
contract bound and cross-field rule (path and message)."""

from __future__ import annotations

import copy
import json

import pytest

from companion.games import InvalidDocument, score, validate
from companion.games.reterra import analyse_grid
from document_helpers import load_example

# A background with no segment at all: desert and plain alternate square by square.
CHECKER = ["DPDPDPDP", "PDPDPDPD"] * 4
KEYS = ["segments", "energy_sources", "relics", "junk", "inhabitants", "buildings", "building_bonus"]


def doc(*players, buildings=None) -> dict:
    d = {"game": "reterra", "variant": "base", "players": list(players)}
    if buildings is not None:
        d["buildings"] = buildings
    return d


def gridded(name: str, terrain: list[str], **lists) -> dict:
    return {"name": name, "grid": {"terrain": terrain, **lists}}


def lone(grid_player: dict) -> dict:
    """A grid player against an opponent with nothing, scored; returns the grid player's dict."""
    result = score(doc(grid_player, {"name": "Zoé"})).to_dict()
    return result["players"][0]


def points(player: dict) -> dict[str, int]:
    return {line["key"]: line["points"] for line in player["breakdown"]}


def details(player: dict) -> dict[str, str]:
    return {line["key"]: line["detail"] for line in player["breakdown"]}


def errors(d: dict) -> dict[str, str]:
    problems = validate(d)
    assert problems, "the document should have been rejected"
    return {p.path: p.message for p in problems}


def two(**fields) -> dict:
    """Counts player Alice with `fields` against an empty Bob."""
    return doc({"name": "Alice", **fields}, {"name": "Bob"})


# --------------------------------------------------------------------------- shared example


def test_shared_example_scores_as_hand_checked():
    result = score(load_example("reterra.json")).to_dict()
    maelle, yanis = result["players"]
    assert (maelle["name"], maelle["total"]) == ("Maëlle", 20)
    assert [line["points"] for line in maelle["breakdown"]] == [3, 8, 4, -1, 3, 3, 0]
    assert (yanis["name"], yanis["total"]) == ("Yanis", 25)
    assert [line["points"] for line in yanis["breakdown"]] == [15, 8, 1, -1, 2, 0, 0]
    assert result["ranking"] == [{"place": 1, "players": ["Yanis"]}, {"place": 2, "players": ["Maëlle"]}]
    assert result["winners"] == ["Yanis"]
    assert result["explanation"] == []


def test_shared_example_grid_report():
    yanis = score(load_example("reterra.json")).to_dict()["players"][1]
    found = yanis["grid"]
    # forest, water, two desert areas that do not touch, plain of 8 + 4 joined by the edge (5,7)-(6,7)
    assert [(s["terrain"], s["size"]) for s in found["segments"]] == [
        ("F", 8), ("E", 8), ("D", 8), ("D", 8), ("P", 12)]
    assert found["sources"] == [{"tile": [1, 2], "squares": [[2, 4], [2, 5], [3, 4], [3, 5]],
                                 "central": True, "scored": True}]
    assert found["relics"] == [{"square": [0, 0], "token": False, "covered": False},
                               {"square": [7, 7], "token": False, "covered": True}]
    assert found["counts"] == {"segments": 5, "energy_sources": 1, "relics": 1, "junk": 1, "inhabitants": 2}
    assert found["total"] == 25
    assert details(yanis)["segments"] == "5 × 3 (forêt 8, eau 8, désert 8, désert 8, plaine 12 cases)"
    assert details(yanis)["relics"] == "1 × 1 (2 reliques, 1 sous bric-à-brac)"
    assert "grid" not in score(load_example("reterra.json")).to_dict()["players"][0]
    assert json.loads(json.dumps(found)) == found  # plain JSON, ready for a screen or a sheet


def test_breakdown_keys_in_contract_order_and_total_is_their_sum():
    for player in score(load_example("reterra.json")).to_dict()["players"]:
        assert [line["key"] for line in player["breakdown"]] == KEYS
        assert player["total"] == sum(line["points"] for line in player["breakdown"])


# --------------------------------------------------------------------------- T1: the 8×8 community


def test_t1_every_terrain_letter_is_read():
    terrain = ["FFFFFFFF", "EEEEEEEE", "DDDDDDDD", "PPPPPPPP", "RRRRRRRR",
               "FEFEFEFE", "DPDPDPDP", "PRPRPRPR"]
    found = analyse_grid({"terrain": terrain})
    assert [(s["terrain"], s["label"]) for s in found["segments"]] == [
        ("F", "forêt"), ("E", "eau"), ("D", "désert"), ("P", "plaine"), ("R", "rocaille")]


@pytest.mark.parametrize("terrain, path, fragment", [
    (CHECKER[:7], "players[0].grid.terrain", "exactement 8 lignes (il y en a 7)"),
    (CHECKER + ["DPDPDPDP"], "players[0].grid.terrain", "exactement 8 lignes (il y en a 9)"),
    (CHECKER[:3] + ["DPDPDPD"] + CHECKER[4:], "players[0].grid.terrain[3]", "8 lettres"),
    (CHECKER[:3] + ["DPDPDPDPD"] + CHECKER[4:], "players[0].grid.terrain[3]", "8 lettres"),
    (CHECKER[:5] + ["DPDPXPDP"] + CHECKER[6:], "players[0].grid.terrain[5]", "« X » en colonne 4"),
    (CHECKER[:1] + ["dpdpdpdp"] + CHECKER[2:], "players[0].grid.terrain[1]", "« d » en colonne 0"),
    (CHECKER[:1] + [12345678] + CHECKER[2:], "players[0].grid.terrain[1]", "doit être un texte"),
    ("DPDPDPDP" * 8, "players[0].grid.terrain", "doit être une liste"),
])
def test_t1_terrain_must_be_8_rows_of_8_letters(terrain, path, fragment):
    errs = errors(doc(gridded("Alice", terrain), {"name": "Bob"}))
    assert fragment in errs[path]


def test_t1_terrain_is_required_in_a_grid():
    errs = errors(doc({"name": "Alice", "grid": {"sources": []}}, {"name": "Bob"}))
    assert "champ obligatoire" in errs["players[0].grid.terrain"]


def test_t1_every_bad_row_is_reported():
    terrain = ["FFFFFFFF", "FFF", "FFFFFFFF", "FFFFFFFZ"] + ["FFFFFFFF"] * 4
    errs = errors(doc(gridded("Alice", terrain), {"name": "Bob"}))
    assert set(errs) == {"players[0].grid.terrain[1]", "players[0].grid.terrain[3]"}


def test_t1_grid_must_be_an_object():
    errs = errors(doc({"name": "Alice", "grid": ["FFFFFFFF"] * 8}, {"name": "Bob"}))
    assert errs["players[0].grid"] == "doit être un objet"
    errs = errors(doc({"name": "Alice", "grid": None}, {"name": "Bob"}))
    assert errs["players[0].grid"] == "doit être un objet"


# --------------------------------------------------------------------------- T2: segments


def test_t2_checkerboard_has_no_segment():
    player = lone(gridded("Alice", ["FEFEFEFE", "EFEFEFEF"] * 4))
    assert points(player)["segments"] == 0
    assert player["grid"]["segments"] == []
    assert player["total"] == 0


def test_t2_exactly_seven_squares_score_3():
    terrain = ["FFFFFFFP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD"]
    player = lone(gridded("Alice", terrain))
    assert points(player)["segments"] == 3
    assert details(player)["segments"] == "1 × 3 (forêt 7 cases)"
    assert player["grid"]["segments"][0]["squares"] == [[0, c] for c in range(7)]


def test_t2_six_squares_score_nothing():
    terrain = ["FFFFFFDP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD"]
    player = lone(gridded("Alice", terrain))
    assert points(player)["segments"] == 0
    assert details(player)["segments"] == ""


def test_t2_rulebook_fourteen_squares_still_score_3():
    # « même s'il en fait 14, ça ne vaut pas plus »
    terrain = ["FFFFFFFP",
               "FFFFFFFD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD"]
    player = lone(gridded("Alice", terrain))
    assert points(player)["segments"] == 3
    assert [s["size"] for s in player["grid"]["segments"]] == [14]


def test_t2_areas_touching_only_at_a_corner_are_two_segments():
    # (1, 2) and (2, 3) touch by a corner only: two forests of 7, not one of 14.
    terrain = ["FFFFDPDP",
               "FFFDPDPD",
               "PDPFFFFP",
               "DPDFFFPD",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP"]
    player = lone(gridded("Alice", terrain))
    assert [(s["terrain"], s["size"]) for s in player["grid"]["segments"]] == [("F", 7), ("F", 7)]
    assert points(player)["segments"] == 6


def test_t2_the_same_areas_joined_by_an_edge_are_one_segment():
    terrain = ["FFFFDPDP",
               "FFFFPDPD",  # (1, 3) is now forest: it joins (0, 3) and (2, 3) by edges
               "PDPFFFFP",
               "DPDFFFPD",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP"]
    player = lone(gridded("Alice", terrain))
    assert [(s["terrain"], s["size"]) for s in player["grid"]["segments"]] == [("F", 15)]
    assert points(player)["segments"] == 3


def test_t2_a_segment_runs_across_several_tiles():
    # A river of rocaille winding through 4 tiles: [0,0] [0,1] [1,1] [1,2], 9 squares.
    terrain = ["RPDPDPDP",
               "RRRPPDPD",
               "DPRDPDPD",
               "PDRRRRPD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD"]
    found = analyse_grid({"terrain": terrain})
    assert [(s["terrain"], s["size"]) for s in found["segments"]] == [("R", 9)]
    tiles = {(r // 2, c // 2) for r, c in found["segments"][0]["squares"]}
    assert tiles == {(0, 0), (0, 1), (1, 1), (1, 2)}
    assert found["points"]["segments"] == 3


def test_t2_a_whole_community_of_one_terrain_is_one_segment():
    found = analyse_grid({"terrain": ["PPPPPPPP"] * 8})
    assert found["counts"]["segments"] == 1
    assert found["segments"][0]["size"] == 64


def test_t2_nine_segments_is_the_most_a_grid_can_hold():
    # 8 columns of 7 squares, alternately forest and water, and a desert row of 8: 9 segments.
    terrain = ["FEFEFEFE",
               "FEFEFEFE",
               "FEFEFEFE",
               "FEFEFEFE",
               "FEFEFEFE",
               "FEFEFEFE",
               "FEFEFEFE",
               "DDDDDDDD"]
    found = analyse_grid({"terrain": terrain})
    assert found["counts"]["segments"] == 9
    assert found["points"]["segments"] == 27


# --------------------------------------------------------------------------- T3: energy sources


SOURCE_CENTRE = ["DPDPDPDP",
                 "PDPDPDPD",
                 "DPEEEEEP",  # the source tile [1, 1] plus three more water squares
                 "PDEEPDPD",
                 "DPDPDPDP",
                 "PDPDPDPD",
                 "DPDPDPDP",
                 "PDPDPDPD"]


def test_t3_source_on_a_central_tile_scores_8_and_its_water_joins_a_segment():
    player = lone(gridded("Alice", SOURCE_CENTRE, sources=[[1, 1]]))
    assert points(player)["energy_sources"] == 8
    # 4 water squares of the source + 3 beside it = 7: a segment.
    assert [(s["terrain"], s["size"]) for s in player["grid"]["segments"]] == [("E", 7)]
    assert player["total"] == 11
    assert details(player)["energy_sources"] == "1 × 8"


@pytest.mark.parametrize("tile", [[0, 0], [0, 1], [0, 3], [1, 0], [2, 3], [3, 2], [3, 3]])
def test_t3_source_on_an_edge_or_corner_tile_scores_0(tile):
    terrain = [list(row) for row in CHECKER]
    for dr in (0, 1):
        for dc in (0, 1):
            terrain[2 * tile[0] + dr][2 * tile[1] + dc] = "E"
    player = lone(gridded("Alice", ["".join(r) for r in terrain], sources=[tile]))
    assert points(player)["energy_sources"] == 0
    assert player["grid"]["sources"] == [{"tile": tile, "squares": player["grid"]["sources"][0]["squares"],
                                          "central": False, "scored": False}]
    assert details(player)["energy_sources"] == "1 source en bordure : 0"


def test_t3_four_central_sources_surround_each_other():
    # « d'autres sources d'énergie comptent aussi »: the 4 central sources all score.
    terrain = ["DPDPDPDP",
               "PDPDPDPD",
               "DPEEEEDP",
               "PDEEEEPD",
               "DPEEEEDP",
               "PDEEEEPD",
               "DPDPDPDP",
               "PDPDPDPD"]
    player = lone(gridded("Alice", terrain, sources=[[1, 1], [1, 2], [2, 1], [2, 2]]))
    assert points(player)["energy_sources"] == 32
    assert points(player)["segments"] == 3  # one water segment of 16
    assert player["total"] == 35


def test_t3_central_and_edge_sources_together():
    terrain = ["EEDPDPDP",
               "EEPDPDPD",
               "DPEEDPDP",
               "PDEEPDPD",
               "DPDPDPDP",
               "PDPDPDPD",
               "DPDPDPDP",
               "PDPDPDPD"]
    player = lone(gridded("Alice", terrain, sources=[[0, 0], [1, 1]]))
    assert points(player)["energy_sources"] == 8
    assert details(player)["energy_sources"] == "1 × 8 ; 1 source en bordure : 0"
    assert [s["scored"] for s in player["grid"]["sources"]] == [False, True]


def test_t3_source_tile_must_be_all_water():
    terrain = list(SOURCE_CENTRE)
    errs = errors(doc(gridded("Alice", terrain, sources=[[1, 1], [1, 2]]), {"name": "Bob"}))
    assert "players[0].grid.sources[0]" not in errs
    message = errs["players[0].grid.sources[1]"]
    assert "ses 4 cases doivent être de l'eau" in message and "[3, 4] est plaine" in message


@pytest.mark.parametrize("value, fragment", [
    ([4, 0], "tuile hors de la grille"),
    ([0, -1], "tuile hors de la grille"),
    ([1], "paire [ligne, colonne]"),
    ("1,1", "paire [ligne, colonne]"),
])
def test_t3_source_coordinates_are_tiles_0_to_3(value, fragment):
    errs = errors(doc(gridded("Alice", SOURCE_CENTRE, sources=[[1, 1], value]), {"name": "Bob"}))
    assert fragment in errs["players[0].grid.sources[1]"]


def test_t3_a_source_tile_listed_twice_is_an_error():
    errs = errors(doc(gridded("Alice", SOURCE_CENTRE, sources=[[1, 1], [1, 1]]), {"name": "Bob"}))
    assert "déjà listée en sources[0]" in errs["players[0].grid.sources[1]"]


# --------------------------------------------------------------------------- T4: relics and junk


def test_t4_visible_relics_score_1_each_printed_or_token():
    player = lone(gridded("Alice", CHECKER, relics=[[0, 0], [3, 3]], relic_tokens=[[7, 7]]))
    assert points(player)["relics"] == 3
    assert points(player)["junk"] == 0
    assert details(player)["relics"] == "3 × 1"


def test_t4_junk_covers_its_relic_and_costs_1():
    # Two printed relics, one covered; one token, covered too.
    player = lone(gridded("Alice", CHECKER, relics=[[0, 0], [3, 3]], relic_tokens=[[7, 7]],
                          junk=[[3, 3], [7, 7]]))
    assert points(player)["relics"] == 1
    assert points(player)["junk"] == -2
    assert player["total"] == -1
    assert details(player)["junk"] == "2 × (−1)"
    assert details(player)["relics"] == "1 × 1 (3 reliques, 2 sous bric-à-brac)"
    assert player["grid"]["relics"] == [
        {"square": [0, 0], "token": False, "covered": False},
        {"square": [3, 3], "token": False, "covered": True},
        {"square": [7, 7], "token": True, "covered": True},
    ]


def test_t4_every_relic_covered_gives_zero_relics_and_minus_junk():
    player = lone(gridded("Alice", CHECKER, relics=[[2, 2]], junk=[[2, 2]]))
    assert points(player)["relics"] == 0
    assert points(player)["junk"] == -1
    assert details(player)["relics"] == "0 × 1 (1 relique, 1 sous bric-à-brac)"


def test_t4_junk_must_sit_on_a_relic():
    errs = errors(doc(gridded("Alice", CHECKER, relics=[[0, 0]], junk=[[0, 0], [4, 4]]), {"name": "Bob"}))
    assert "players[0].grid.junk[0]" not in errs
    assert "n'a pas de relique" in errs["players[0].grid.junk[1]"]


def test_t4_relic_token_never_on_a_printed_relic():
    errs = errors(doc(gridded("Alice", CHECKER, relics=[[0, 0], [1, 1]], relic_tokens=[[2, 2], [1, 1]]),
                      {"name": "Bob"}))
    assert "relique imprimée (relics[1])" in errs["players[0].grid.relic_tokens[1]"]
    assert "players[0].grid.relic_tokens[0]" not in errs


@pytest.mark.parametrize("key", ["relics", "relic_tokens", "junk", "inhabitants"])
def test_t4_a_square_listed_twice_is_an_error(key):
    lists = {key: [[5, 6], [0, 1], [5, 6]]}
    if key == "junk":
        lists["relics"] = [[5, 6], [0, 1]]
    errs = errors(doc(gridded("Alice", CHECKER, **lists), {"name": "Bob"}))
    assert errs[f"players[0].grid.{key}[2]"] == f"[5, 6] est déjà listée en {key}[0]"


@pytest.mark.parametrize("key", ["relics", "relic_tokens", "junk", "inhabitants"])
@pytest.mark.parametrize("value, fragment", [
    ([8, 0], "case hors de la grille : ligne et colonne entre 0 et 7 (ici [8, 0])"),
    ([0, -1], "case hors de la grille"),
    ([0, 0, 0], "paire [ligne, colonne]"),
    ([True, 0], "paire [ligne, colonne]"),
    ([1.0, 2], "paire [ligne, colonne]"),
    ({"row": 1, "col": 2}, "paire [ligne, colonne]"),
])
def test_t4_squares_are_pairs_of_whole_numbers_0_to_7(key, value, fragment):
    errs = errors(doc(gridded("Alice", CHECKER, **{key: [value]}), {"name": "Bob"}))
    assert fragment in errs[f"players[0].grid.{key}[0]"]


@pytest.mark.parametrize("key", ["sources", "relics", "relic_tokens", "junk", "inhabitants"])
def test_grid_lists_must_be_lists(key):
    errs = errors(doc(gridded("Alice", CHECKER, **{key: {"0": [1, 1]}}), {"name": "Bob"}))
    assert errs[f"players[0].grid.{key}"] == "doit être une liste"


# --------------------------------------------------------------------------- T5: inhabitants, buildings


def test_t5_inhabitants_score_1_each_in_a_grid():
    player = lone(gridded("Alice", CHECKER, inhabitants=[[0, 0], [3, 4], [7, 7]]))
    assert points(player)["inhabitants"] == 3
    assert details(player)["inhabitants"] == "3 × 1"


def test_t5_inhabitant_may_stand_on_a_printed_relic_and_both_score():
    player = lone(gridded("Alice", CHECKER, relics=[[3, 3]], inhabitants=[[3, 3]]))
    assert points(player)["relics"] == 1 and points(player)["inhabitants"] == 1


def test_t5_inhabitant_never_shares_a_square_with_a_relic_token_or_junk():
    grid = gridded("Alice", CHECKER, relics=[[1, 1]], relic_tokens=[[2, 2]], junk=[[1, 1]],
                   inhabitants=[[0, 0], [2, 2], [1, 1]])
    errs = errors(doc(grid, {"name": "Bob"}))
    assert "jeton Relique (relic_tokens[0])" in errs["players[0].grid.inhabitants[1]"]
    assert "bric-à-brac (junk[0])" in errs["players[0].grid.inhabitants[2]"]
    assert "players[0].grid.inhabitants[0]" not in errs


CARDS = [{"id": "observatoire", "name": "Observatoire", "points": 4},
         {"id": "terrain-de-sport", "name": "Terrain de sport", "points": 3},
         {"id": "puits", "name": "Puits", "points": 0}]


def test_t5_buildings_score_each_copy_at_the_value_of_its_card():
    d = doc({"name": "Alice", "buildings": {"observatoire": 2, "terrain-de-sport": 1, "puits": 3}},
            {"name": "Bob", "buildings": {"observatoire": 0}}, buildings=CARDS)
    alice, bob = score(d).to_dict()["players"]
    assert points(alice)["buildings"] == 11
    assert details(alice)["buildings"] == ("2 × 4 (Observatoire) + 1 × 3 (Terrain de sport) "
                                          "+ 3 × 0 (Puits) = 11")
    assert points(bob)["buildings"] == 0
    assert details(bob)["buildings"] == ""


def test_t5_one_kind_of_building_detail_has_no_sum():
    d = doc({"name": "Alice", "buildings": {"terrain-de-sport": 2}}, {"name": "Bob"}, buildings=CARDS)
    assert details(score(d).to_dict()["players"][0])["buildings"] == "2 × 3 (Terrain de sport)"


def test_t5_card_name_is_optional_and_defaults_to_its_id():
    d = doc({"name": "Alice", "buildings": {"atelier": 1}}, {"name": "Bob"},
            buildings=[{"id": "atelier", "points": 5}])
    alice = score(d).to_dict()["players"][0]
    assert details(alice)["buildings"] == "1 × 5 (atelier)"


def test_t5_building_powers_are_entered_as_points():
    # The observatory's purple side: points for buildings on the community's edge, counted by the table.
    d = doc({"name": "Alice", "buildings": {"observatoire": 1}, "building_bonus": 6}, {"name": "Bob"},
            buildings=CARDS)
    alice = score(d).to_dict()["players"][0]
    assert points(alice)["building_bonus"] == 6
    assert details(alice)["building_bonus"] == "6"
    assert alice["total"] == 10


def test_t5_buildings_and_bonus_go_with_a_grid():
    player = {"name": "Alice", "grid": {"terrain": CHECKER, "inhabitants": [[1, 1]]},
              "buildings": {"observatoire": 1}, "building_bonus": 2}
    alice = score(doc(player, {"name": "Bob"}, buildings=CARDS)).to_dict()["players"][0]
    assert [line["points"] for line in alice["breakdown"]] == [0, 0, 0, 0, 1, 4, 2]


def test_t5_a_building_not_in_play_is_an_error():
    d = doc({"name": "Alice", "buildings": {"observatoire": 1, "cinema": 2}}, {"name": "Bob"},
            buildings=CARDS)
    errs = errors(d)
    assert set(errs) == {"players[0].buildings.cinema"}
    assert "n'est pas une carte de bâtiment en jeu" in errs["players[0].buildings.cinema"]


def test_t5_no_card_in_play_means_no_building():
    errs = errors(doc({"name": "Alice", "buildings": {"observatoire": 1}}, {"name": "Bob"}))
    assert "aucune carte" in errs["players[0].buildings.observatoire"]


@pytest.mark.parametrize("value, fragment", [
    (17, "entre 0 et 16"), (-1, "entre 0 et 16"),
    (True, "nombre entier"), ("2", "nombre entier"), (1.5, "nombre entier"),
])
def test_t5_building_counts_are_0_to_16(value, fragment):
    errs = errors(doc({"name": "Alice", "buildings": {"observatoire": value}}, {"name": "Bob"},
                      buildings=CARDS))
    assert fragment in errs["players[0].buildings.observatoire"]


def test_t5_sixteen_of_one_building_is_allowed():
    d = doc({"name": "Alice", "buildings": {"observatoire": 16}}, {"name": "Bob"}, buildings=CARDS)
    assert points(score(d).to_dict()["players"][0])["buildings"] == 64


def test_player_buildings_must_be_an_object():
    errs = errors(doc({"name": "Alice", "buildings": [["observatoire", 1]]}, {"name": "Bob"},
                      buildings=CARDS))
    assert errs["players[0].buildings"] == "doit être un objet"


# --------------------------------------------------------------------------- table-level building cards


@pytest.mark.parametrize("cards, path, fragment", [
    ([CARDS[0], dict(CARDS[0], name="Autre")], "buildings[1].id", "déjà utilisé par buildings[0]"),
    ([{"id": "Observatoire", "points": 4}], "buildings[0].id", "identifiant en minuscules"),
    ([{"id": "terrain de sport", "points": 4}], "buildings[0].id", "identifiant en minuscules"),
    ([{"id": "café", "points": 4}], "buildings[0].id", "identifiant en minuscules"),
    ([{"id": "-puits", "points": 4}], "buildings[0].id", "identifiant en minuscules"),
    ([{"id": "", "points": 4}], "buildings[0].id", "identifiant en minuscules"),
    ([{"id": 3, "points": 4}], "buildings[0].id", "doit être un texte"),
    ([{"name": "Puits", "points": 4}], "buildings[0].id", "champ obligatoire"),
    ([{"id": "puits", "points": 21}], "buildings[0].points", "entre 0 et 20"),
    ([{"id": "puits", "points": -1}], "buildings[0].points", "entre 0 et 20"),
    ([{"id": "puits", "points": True}], "buildings[0].points", "nombre entier"),
    ([{"id": "puits"}], "buildings[0].points", "champ obligatoire"),
    ([{"id": "puits", "points": 2, "name": ""}], "buildings[0].name", "ne doit pas être vide"),
    ([{"id": "puits", "points": 2, "name": 7}], "buildings[0].name", "doit être un texte"),
    ([{"id": "puits", "points": 2, "side": "orange"}], "buildings[0].side", "clé inconnue"),
    (["puits"], "buildings[0]", "doit être un objet"),
    ({"puits": 2}, "buildings", "doit être une liste"),
    ([{"id": f"carte-{k}", "points": 1} for k in range(16)], "buildings", "au plus 15"),
])
def test_table_building_cards_are_validated(cards, path, fragment):
    errs = errors(doc({"name": "Alice"}, {"name": "Bob"}, buildings=cards))
    assert fragment in errs[path]


def test_card_values_0_and_20_and_fifteen_cards_are_allowed():
    cards = [{"id": f"carte-{k}", "points": 20 if k else 0} for k in range(15)]
    d = doc({"name": "Alice", "buildings": {"carte-0": 1, "carte-14": 1}}, {"name": "Bob"}, buildings=cards)
    assert points(score(d).to_dict()["players"][0])["buildings"] == 20


def test_a_bad_card_is_not_reported_again_on_each_player():
    cards = [{"id": "puits", "points": 99}]
    errs = errors(doc({"name": "Alice", "buildings": {"puits": 1}}, {"name": "Bob"}, buildings=cards))
    assert set(errs) == {"buildings[0].points"}


# --------------------------------------------------------------------------- counts mode


def test_counts_mode_scores_each_line():
    d = two(segments=2, energy_sources=3, relics=5, junk=2, inhabitants=4, building_bonus=7)
    alice = score(d).to_dict()["players"][0]
    assert [line["points"] for line in alice["breakdown"]] == [6, 24, 5, -2, 4, 0, 7]
    assert alice["total"] == 44
    assert details(alice) == {"segments": "2 × 3", "energy_sources": "3 × 8", "relics": "5 × 1",
                              "junk": "2 × (−1)", "inhabitants": "4 × 1", "buildings": "",
                              "building_bonus": "7"}
    assert "grid" not in alice


def test_counts_left_out_mean_zero():
    bob = score(two()).to_dict()["players"][1]
    assert bob["total"] == 0
    assert [line["points"] for line in bob["breakdown"]] == [0] * 7


@pytest.mark.parametrize("key, hi", [
    ("segments", 9), ("energy_sources", 4), ("relics", 64), ("junk", 64), ("inhabitants", 64),
    ("building_bonus", 200),
])
def test_counts_bounds(key, hi):
    assert score(two(**{key: hi})).to_dict()["players"][0]["total"] != 0
    assert score(two(**{key: 0})).to_dict()["players"][0]["total"] == 0
    assert errors(two(**{key: hi + 1}))[f"players[0].{key}"] == f"doit être entre 0 et {hi}"
    assert errors(two(**{key: -1}))[f"players[0].{key}"] == f"doit être entre 0 et {hi}"
    for bad in (True, False, "3", 2.0, None, [1]):
        assert errors(two(**{key: bad}))[f"players[0].{key}"] == "doit être un nombre entier"


def test_counts_relics_plus_junk_fit_in_64_squares():
    assert score(two(relics=60, junk=4)).to_dict()["players"][0]["total"] == 56
    errs = errors(two(relics=60, junk=5))
    assert "au plus 64" in errs["players[0].junk"] and "60 + 5" in errs["players[0].junk"]


def test_counts_inhabitants_plus_junk_fit_in_64_squares():
    assert score(two(inhabitants=63, junk=1)).to_dict()["players"][0]["total"] == 62
    errs = errors(two(inhabitants=63, junk=2))
    assert "au plus 64" in errs["players[0].inhabitants"]


@pytest.mark.parametrize("key", ["segments", "energy_sources", "relics", "junk", "inhabitants"])
def test_grid_and_counts_together_is_an_error_for_each_key(key):
    d = doc({"name": "Alice", "grid": {"terrain": CHECKER}, key: 0}, {"name": "Bob"})
    assert "ne se donne pas avec grid" in errors(d)[f"players[0].{key}"]


def test_grid_and_all_counts_together_reports_every_key():
    player = {"name": "Alice", "grid": {"terrain": CHECKER}, "segments": 1, "energy_sources": 1,
              "relics": 1, "junk": 1, "inhabitants": 1}
    errs = errors(doc(player, {"name": "Bob"}))
    assert {f"players[0].{k}" for k in KEYS[:5]} <= set(errs)


def test_counts_mode_matches_grid_mode_on_the_shared_example():
    d = load_example("reterra.json")
    counts = score(d).to_dict()["players"][1]["grid"]["counts"]
    as_counts = copy.deepcopy(d)
    as_counts["players"][1] = {"name": "Yanis", **counts}
    assert score(as_counts).to_dict()["players"][1]["total"] == 25


# --------------------------------------------------------------------------- unknown keys


def test_unknown_keys_at_every_level():
    d = doc({"name": "Alice", "castles": 2, "grid": {"terrain": CHECKER, "buildings": []}},
            {"name": "Bob"}, buildings=[])
    d["cities"] = []
    errs = errors(d)
    assert "clé inconnue" in errs["cities"]
    assert "clé inconnue" in errs["players[0].castles"]
    assert "clé inconnue" in errs["players[0].grid.buildings"]


def test_every_problem_is_reported_at_once():
    d = doc({"name": "Alice", "segments": 10, "junk": "x"},
            gridded("Bob", CHECKER[:7], junk=[[0, 0]]), buildings=[{"id": "A", "points": 1}])
    assert set(errors(d)) == {"players[0].segments", "players[0].junk", "players[1].grid.terrain",
                              "players[1].grid.junk[0]", "buildings[0].id"}


def test_player_count_and_variant_come_from_the_registry():
    assert "de 2 à 4 joueurs" in errors(doc({"name": "Alice"}))["players"]
    five = doc(*({"name": n} for n in "ABCDE"))
    assert "(il y en a 5)" in errors(five)["players"]
    d = two()
    d["variant"] = "abyss"
    assert "variante inconnue" in errors(d)["variant"]


def test_invalid_document_raises_with_every_problem():
    with pytest.raises(InvalidDocument) as exc:
        score(two(segments=10, relics=-1))
    assert {p.path for p in exc.value.problems} == {"players[0].segments", "players[0].relics"}


# --------------------------------------------------------------------------- T6: winner and places


def test_t6_tie_on_total_goes_to_most_inhabitants():
    d = doc({"name": "Alice", "segments": 2, "inhabitants": 1},   # 6 + 1 = 7
            {"name": "Bob", "relics": 4, "inhabitants": 3})       # 4 + 3 = 7
    result = score(d).to_dict()
    assert result["winners"] == ["Bob"]
    assert result["ranking"] == [{"place": 1, "players": ["Bob"]}, {"place": 2, "players": ["Alice"]}]
    [sentence] = result["explanation"]
    assert sentence.startswith("Alice et Bob à égalité (7 points) ; habitants : Alice 1, Bob 3 ; Bob gagne")


def test_t6_not_most_buildings():
    # The English FAQ's "most buildings" is not used: Bob's buildings do not break the tie.
    d = doc({"name": "Alice", "inhabitants": 4, "relics": 2},
            {"name": "Bob", "inhabitants": 2, "buildings": {"puits": 2}},
            buildings=[{"id": "puits", "points": 2}])
    result = score(d).to_dict()
    assert [p["total"] for p in result["players"]] == [6, 6]
    assert result["winners"] == ["Alice"]


def test_t6_still_tied_shares_the_victory():
    d = doc({"name": "Alice", "inhabitants": 2, "relics": 3},
            {"name": "Bob", "inhabitants": 2, "segments": 1},
            {"name": "Chloé", "relics": 1})
    result = score(d).to_dict()
    assert result["winners"] == ["Alice", "Bob"]
    assert result["ranking"] == [{"place": 1, "players": ["Alice", "Bob"]},
                                 {"place": 3, "players": ["Chloé"]}]
    assert result["explanation"] == [
        "Alice et Bob à égalité (5 points) ; habitants : 2 chacun ; victoire partagée."]


def test_t6_ties_below_first_place_use_inhabitants_too():
    d = doc({"name": "Alice", "segments": 5},
            {"name": "Bob", "relics": 4},
            {"name": "Chloé", "inhabitants": 4},
            {"name": "Dan", "relics": 4})
    result = score(d).to_dict()
    assert result["ranking"] == [{"place": 1, "players": ["Alice"]}, {"place": 2, "players": ["Chloé"]},
                                 {"place": 3, "players": ["Bob", "Dan"]}]
    first, second = result["explanation"]
    assert first == ("Bob, Chloé et Dan à égalité (4 points) pour la 2e place ; habitants : Bob 0, Chloé 4, "
                     "Dan 0 ; Chloé prend la 2e place, puis Bob et Dan.")
    assert second.startswith("Bob et Dan à égalité (4 points) pour la 3e place ; ")
    assert second.endswith("ils partagent la 3e place.")


def test_t6_grid_inhabitants_break_ties():
    grid = gridded("Alice", CHECKER, inhabitants=[[0, 0], [0, 1]])           # 2
    d = doc(grid, {"name": "Bob", "relics": 1, "inhabitants": 1})              # 2
    result = score(d).to_dict()
    assert result["winners"] == ["Alice"]
    assert "habitants : Alice 2, Bob 1" in result["explanation"][0]


# --------------------------------------------------------------------------- analyse_grid


def test_analyse_grid_is_pure_and_reports_counts_and_points():
    grid = {"terrain": list(SOURCE_CENTRE), "sources": [[1, 1]], "relics": [[0, 0]]}
    before = copy.deepcopy(grid)
    found = analyse_grid(grid)
    assert grid == before
    assert found["counts"] == {"segments": 1, "energy_sources": 1, "relics": 1, "junk": 0, "inhabitants": 0}
    assert found["points"] == {"segments": 3, "energy_sources": 8, "relics": 1, "junk": 0, "inhabitants": 0}
    assert found["total"] == 12
    assert analyse_grid(grid) == found


def test_analyse_grid_rejects_a_bad_grid_with_paths_under_grid():
    with pytest.raises(InvalidDocument) as exc:
        analyse_grid({"terrain": CHECKER, "junk": [[0, 0]], "colour": "x"})
    assert {p.path for p in exc.value.problems} == {"grid.junk[0]", "grid.colour"}
    with pytest.raises(InvalidDocument):
        analyse_grid("FFFFFFFF")
