"""Rebirth validation: every contract bound and cross-field rule is rejected at its path,
with a French message that says what is expected; and nothing valid is rejected."""

from __future__ import annotations

import pytest

from companion import games


def doc(variant="scotland", alice=None, **table):
    alice = {"name": "Alice", **(alice or {})}
    return {"game": "rebirth", "variant": variant, "players": [alice, {"name": "Bob"}], **table}


def problems(document):
    found = games.validate(document)
    return {p.path: p.message for p in found}


def city(size, *tiles):
    return {"size": size, "tiles": list(tiles)}


def tile(player="Alice", influence=1, order=None):
    t = {"player": player, "influence": influence}
    if order is not None:
        t["order"] = order
    return t


M0 = "players[0].missions[0]"
PM0 = "players[0].public_missions[0]"
PLAYER_CASES = [
    # (variant, fields of Alice, path, words in the message)
    ("scotland", {"track": 501}, "players[0].track", "entre 0 et 500"),
    ("scotland", {"track": -1}, "players[0].track", "entre 0 et 500"),
    ("scotland", {"track": "12"}, "players[0].track", "entier"),
    ("scotland", {"track": 12.0}, "players[0].track", "entier"),
    ("scotland", {"track": True}, "players[0].track", "entier"),
    ("scotland", {"farms": [3]}, "players[0].farms", "objet"),
    ("scotland", {"farms": {"wheat": [1]}}, "players[0].farms.wheat", "inconnue"),
    ("scotland", {"farms": {"agricultural": 3}}, "players[0].farms.agricultural", "liste"),
    ("scotland", {"farms": {"agricultural": [0]}}, "players[0].farms.agricultural[0]", "entre 1 et 36"),
    ("ireland", {"farms": {"energy": [2, 37]}}, "players[0].farms.energy[1]", "entre 1 et 36"),
    ("scotland", {"farms": {"energy": [1] * 37}}, "players[0].farms.energy", "au plus 36"),
    ("scotland", {"ports": 37}, "players[0].ports", "entre 0 et 36"),
    ("ireland", {"ports": -1}, "players[0].ports", "entre 0 et 36"),
    ("scotland", {"incomplete_icons": 145}, "players[0].incomplete_icons", "entre 0 et 144"),
    ("scotland", {"castles": 13}, "players[0].castles", "entre 0 et 12"),
    ("ireland", {"castles": None}, "players[0].castles", "entier"),
    ("scotland", {"missions": {"points": 3}}, "players[0].missions", "liste"),
    ("scotland", {"missions": [5]}, M0, "objet"),
    ("scotland", {"missions": [{"points": 0}]}, M0 + ".points", "entre 1 et 30"),
    ("scotland", {"missions": [{"points": 31}]}, M0 + ".points", "entre 1 et 30"),
    ("scotland", {"missions": [{"achieved": True}]}, M0 + ".points", "indiquez les points"),
    ("scotland", {"missions": [{"points": 3, "achieved": 1}]}, M0 + ".achieved", "true ou false"),
    ("scotland", {"missions": [{"points": 3, "done": True}]}, M0 + ".done", "inconnue"),
    ("scotland", {"gifts": 9}, "players[0].gifts", "entre 0 et 8"),
    ("ireland", {"public_missions": [{"points": 31}]}, PM0 + ".points", "entre 1 et 30"),
    ("ireland", {"public_missions": [{"points": 4, "doubled": "yes"}]}, PM0 + ".doubled", "true ou false"),
    ("ireland", {"public_missions": [{"points": 4, "achieved": True}]}, PM0 + ".achieved", "inconnue"),
    ("ireland", {"towers": 13}, "players[0].towers", "liste"),
    ("ireland", {"towers": ["13"]}, "players[0].towers[0]", "13 ou 3"),
    ("ireland", {"privatized_missions": [{"points": 0, "achieved": True}]},
     "players[0].privatized_missions[0].points", "entre 1 et 30"),
    ("ireland", {"privatized_missions": [{"points": 9, "doubled": True}]},
     "players[0].privatized_missions[0].doubled", "inconnue"),
    ("ireland", {"tara_adjacent": 9}, "players[0].tara_adjacent", "entre 0 et 8"),
    ("scotland", {"score": 3}, "players[0].score", "inconnue"),
    # Keys of the other map are unknown keys, and the message says which map they belong to.
    ("scotland", {"public_missions": []}, "players[0].public_missions", "Irlande"),
    ("scotland", {"towers": [13]}, "players[0].towers", "Irlande"),
    ("scotland", {"privatized_missions": []}, "players[0].privatized_missions", "Irlande"),
    ("scotland", {"tara_adjacent": 1}, "players[0].tara_adjacent", "Irlande"),
    ("ireland", {"missions": []}, "players[0].missions", "Écosse"),
    ("ireland", {"gifts": 1}, "players[0].gifts", "Écosse"),
]


@pytest.mark.parametrize(("variant", "fields", "path", "words"), PLAYER_CASES)
def test_player_fields_are_bounded(variant, fields, path, words):
    found = problems(doc(variant, fields))
    assert path in found, found
    assert words in found[path]


def test_other_map_keys_are_named_unknown():
    message = problems(doc("scotland", {"towers": [13]}))["players[0].towers"]
    assert message.startswith("clé inconnue")


CITY_CASES = [
    ("scotland", [5], "cities[0]", "objet"),
    ("scotland", [{"tiles": []}], "cities[0].size", "indiquez le nombre de cases"),
    ("ireland", [city(0)], "cities[0].size", "entre 1 et 4"),
    ("ireland", [city(5)], "cities[0].size", "entre 1 et 4"),
    ("scotland", [city(4)], "cities[0].size", "Irlande"),
    ("scotland", [city("3")], "cities[0].size", "entier"),
    ("scotland", [{"size": 2, "tiles": {"player": "Alice"}}], "cities[0].tiles", "liste"),
    ("scotland", [city(2, tile(), tile(), tile("Bob"))], "cities[0].tiles", "au plus 2 tuiles"),
    ("ireland", [city(1, tile(), tile("Bob"))], "cities[0].tiles", "au plus 1 tuile"),
    ("scotland", [city(2, tile("Zoé"))], "cities[0].tiles[0].player", "Zoé"),
    ("scotland", [city(2, {"influence": 2})], "cities[0].tiles[0].player", "choisissez le joueur"),
    ("scotland", [city(2, tile("Alice", 0))], "cities[0].tiles[0].influence", "entre 1 et 4"),
    ("scotland", [city(2, tile("Alice", 5))], "cities[0].tiles[0].influence", "entre 1 et 4"),
    ("scotland", [city(2, {"player": "Alice"})], "cities[0].tiles[0].influence", "indiquez les icônes"),
    ("scotland", [city(3, tile(order=1), tile("Bob", order=1))], "cities[0].tiles[1].order", "déjà"),
    ("scotland", [city(3, tile(order=0))], "cities[0].tiles[0].order", "entre 1 et 3"),
    ("scotland", [city(2, tile(order=3))], "cities[0].tiles[0].order", "entre 1 et 2"),
    ("scotland", [city(2, tile(order="1"))], "cities[0].tiles[0].order", "entier"),
    ("scotland", [city(2, {"player": "Alice", "influence": 1, "colour": "red"})],
     "cities[0].tiles[0].colour", "inconnue"),
    ("scotland", [city(2, "Alice")], "cities[0].tiles[0]", "objet"),
    ("scotland", [{"size": 2, "tiles": [], "name": "Perth"}], "cities[0].name", "inconnue"),
]


@pytest.mark.parametrize(("variant", "cities", "path", "words"), CITY_CASES)
def test_cities_are_checked(variant, cities, path, words):
    found = problems(doc(variant, cities=cities))
    assert path in found, found
    assert words in found[path]


def test_city_cases_are_valid_once_fixed():
    # The baseline of the city cases scores: a valid city of each kind, names compared loosely.
    cities = [city(2, tile(" alice ", 2, 2), tile("BOB", 2, 1)), city(3, tile(order=3)), city(1),
              city(1, tile())]
    result = games.score(doc("scotland", cities=cities))
    assert result.player("Bob").points("cities") == 5
    assert result.player("Alice").points("cities") == 4  # 3 + the 1-space city's 1
    assert result.player("Alice").points("incomplete") == 1


TABLE_CASES = [
    ("scotland", {"cities": {"size": 2}}, "cities", "liste"),
    ("scotland", {"edinburgh": "Zoé"}, "edinburgh", "Zoé"),
    ("scotland", {"stirling": 3}, "stirling", "texte ou null"),
    ("ireland", {"blarney": "Zoé"}, "blarney", "Zoé"),
    ("scotland", {"blarney": None}, "blarney", "Irlande"),
    ("ireland", {"edinburgh": None}, "edinburgh", "Écosse"),
    ("ireland", {"stirling": "Alice"}, "stirling", "Écosse"),
    ("scotland", {"round": 3}, "round", "inconnue"),
]


@pytest.mark.parametrize(("variant", "table", "path", "words"), TABLE_CASES)
def test_table_fields_are_checked(variant, table, path, words):
    found = problems(doc(variant, {"castles": 2}, **table))
    assert path in found, found
    assert words in found[path]


def test_castle_holder_must_hold_a_castle():
    found = problems(doc("scotland", edinburgh="Alice"))
    assert "Alice" in found["edinburgh"] and "au moins 1" in found["edinburgh"]
    assert "au moins 1" in found["players[0].castles"]
    found = problems(doc("ireland", blarney="Bob"))
    assert "Bob" in found["blarney"] and "players[1].castles" in found
    assert games.validate(doc("ireland", {"castles": 1}, blarney="alice")) == []


def test_both_castles_held_by_one_player_need_two():
    found = problems(doc("scotland", {"castles": 1}, edinburgh="Alice", stirling="Alice"))
    assert "au moins 2" in found["edinburgh"] and "au moins 2" in found["stirling"]
    assert "au moins 2" in found["players[0].castles"]
    assert games.validate(doc("scotland", {"castles": 2}, edinburgh="Alice", stirling="Alice")) == []
    # One castle each is fine with one castle each.
    both = doc("scotland", {"castles": 1}, edinburgh="Alice", stirling="Bob")
    both["players"][1]["castles"] = 1
    assert games.validate(both) == []


def test_every_problem_is_reported_at_once():
    document = doc("scotland", {"track": 900, "gifts": -1, "towers": [13]},
                   cities=[city(4), city(2, tile("Zoé"))], edinburgh="Bob")
    found = problems(document)
    assert {"players[0].track", "players[0].gifts", "players[0].towers", "cities[0].size",
            "cities[1].tiles[0].player", "edinburgh", "players[1].castles"} <= set(found)


def test_bounds_themselves_are_accepted():
    scot = doc("scotland", {"track": 500, "ports": 36, "incomplete_icons": 144, "castles": 12,
                            "farms": {"agricultural": [36], "energy": [1] * 36},
                            "missions": [{"points": 30, "achieved": True}] * 4, "gifts": 4},
               cities=[city(3, tile("Alice", 4, 1), tile("Bob", 4, 2), tile("Alice", 1, 3))])
    result = games.score(scot)
    alice = result.player("Alice")
    assert alice.points("missions") == 132 and alice.points("castles") == 60
    irl = doc("ireland", {"tara_adjacent": 8, "towers": [13, 13, 13, 3, 3],
                          "public_missions": [{"points": 30, "doubled": i == 0} for i in range(8)],
                          "privatized_missions": [{"points": 30, "achieved": True}]})
    assert games.score(irl).player("Alice").points("public_missions") == 270  # 30 × 2 + 7 × 30


def test_left_out_fields_mean_zero_and_empty():
    result = games.score(doc("ireland", {"public_missions": [{"points": 4}]}))
    assert result.player("Alice").points("public_missions") == 4  # `doubled` left out: not doubled
    scot = games.score(doc("scotland", {"missions": [{"points": 4}]}))
    assert scot.player("Alice").points("missions") == 0  # `achieved` left out: not achieved


def test_an_invalid_castle_count_is_reported_once():
    found = problems(doc("scotland", {"castles": 13}, edinburgh="Alice"))
    assert "entre 0 et 12" in found["players[0].castles"]
    assert "edinburgh" not in found
