"""Rebirth scoring: one test (at least) per ruling R1-R11, the rulebook's own examples, the
shared example, and the two table tools. Every expected figure is worked out by hand in
the comment beside it, from rules/rebirth.fr.md and RULINGS.md."""

from __future__ import annotations

import pytest

from companion import games
from companion.games import rebirth
from companion.games.core import InvalidDocument
from document_helpers import load_example


def doc(variant="scotland", players=("Alice", "Bob"), **table):
    """A document; `players` items are names or dicts of fields."""
    listed = [{"name": p} if isinstance(p, str) else p for p in players]
    return {"game": "rebirth", "variant": variant, "players": listed, **table}


def tile(player, influence, order=None):
    t = {"player": player, "influence": influence}
    if order is not None:
        t["order"] = order
    return t


def city_points(result, name):
    return result.player(name).points("cities")


def places(result):
    return [(p.place, p.players) for p in result.ranking]


def problems(document):
    return {p.path: p.message for p in games.validate(document)}


# ------------------------------------------------------------------ shared examples


def test_shared_scotland_example():
    result = games.score(load_example("rebirth-scotland.json"))
    totals = {p.name: p.total for p in result.players}
    assert totals == {"Maëlle": 66, "Yanis": 63, "Inès": 56}
    assert places(result) == [(1, ["Maëlle"]), (2, ["Yanis"]), (3, ["Inès"])]
    # README: Maëlle incomplete 3 = 2 icons + her tile; Yanis 3 in the tied 2-space city (Inès first).
    maelle, yanis, ines = result.players
    assert [line.points for line in maelle.breakdown] == [48, 0, 0, 0, 3, 10, 5]
    assert [line.points for line in yanis.breakdown] == [52, 0, 3, 0, 0, 5, 3]
    assert [line.points for line in ines.breakdown] == [40, 9, 5, 0, 2, 0, 0]
    assert result.explanation == []


IRELAND_GAME = doc(
    "ireland",
    players=[
        # 30 + farms (1+2+3+4 = 10, 1+2 = 3) 13 + city 8 + ports 2 + missions 7×2 + 4 = 18
        # + towers 13 + 3 = 16 + incomplete 1 + castles 10 + privatized 9 = 107
        {"name": "Aoife", "track": 30, "farms": {"agricultural": [4], "energy": [2]}, "ports": 2,
         "public_missions": [{"points": 7, "doubled": True}, {"points": 4}], "towers": [13, 3],
         "incomplete_icons": 1, "castles": 2, "privatized_missions": [{"points": 9, "achieved": True}],
         "tara_adjacent": 3},
        # 60 + city 5 + incomplete 2 + castle 5 + privatized missed 0 = 72
        {"name": "Brian", "track": 60, "castles": 1,
         "privatized_missions": [{"points": 10, "achieved": False}], "tara_adjacent": 1},
        # 69 + city 3 = 72
        {"name": "Ciara", "track": 69, "tara_adjacent": 2},
        # 60 + city 4 + ports 3 + tower 13 + incomplete 1 + castle 5 = 86
        {"name": "Dara", "track": 60, "ports": 3, "towers": [13], "castles": 1},
    ],
    cities=[
        # Aoife 2+1 = 3, Brian 3, Ciara 1. Ciara placed last: clockwise from her, Dara, then
        # Aoife, then Brian: Aoife before Brian. 3 players, 3 prizes: 8, 5, 3.
        {"size": 4, "tiles": [tile("Aoife", 2, 1), tile("Brian", 3, 2), tile("Aoife", 1, 3),
                              tile("Ciara", 1, 4)]},
        {"size": 1, "tiles": [tile("Dara", 4)]},
        {"size": 3, "tiles": [tile("Brian", 2), tile("Dara", 1)]},  # incomplete
    ],
    blarney="Dara",
)


def test_ireland_game_by_hand():
    result = games.score(IRELAND_GAME)
    totals = {p.name: p.total for p in result.players}
    assert totals == {"Aoife": 107, "Brian": 72, "Ciara": 72, "Dara": 86}
    aoife = result.player("Aoife")
    assert [(line.key, line.points) for line in aoife.breakdown] == [
        ("track", 30), ("farms", 13), ("cities", 8), ("ports", 2), ("public_missions", 18),
        ("towers", 16), ("incomplete", 1), ("castles", 10), ("privatized_missions", 9)]
    assert city_points(result, "Brian") == 5 and city_points(result, "Ciara") == 3
    assert city_points(result, "Dara") == 4  # 1-space city: its tile's influence
    assert result.player("Brian").points("incomplete") == 2
    assert result.player("Dara").points("incomplete") == 1
    # Brian and Ciara tie for 3rd: Blarney is Dara's, so Tara decides (Ciara 2 > Brian 1).
    assert places(result) == [(1, ["Aoife"]), (2, ["Dara"]), (3, ["Ciara"]), (4, ["Brian"])]
    assert len(result.explanation) == 1
    sentence = result.explanation[0]
    assert "Brian et Ciara" in sentence and "3e place" in sentence
    assert "Blarney" in sentence and "Tara" in sentence


def test_breakdown_keys_per_variant():
    scot = games.score(doc("scotland")).players[0]
    irl = games.score(doc("ireland")).players[0]
    assert [line.key for line in scot.breakdown] == [
        "track", "farms", "cities", "ports", "incomplete", "castles", "missions"]
    assert [line.key for line in irl.breakdown] == [
        "track", "farms", "cities", "ports", "public_missions", "towers", "incomplete", "castles",
        "privatized_missions"]
    assert all(line.points == 0 for line in scot.breakdown + irl.breakdown)


# ------------------------------------------------------------------ R1: in-game points add up


def test_r1_track_and_itemised_items_add_up():
    # Same game, two tables: one kept the track (3 + 3 + 1 + 8 + 13 = 28), one itemised it.
    itemised = {"name": "Alice", "farms": {"agricultural": [2], "energy": [2]}, "ports": 1,
                "public_missions": [{"points": 8}], "towers": [13]}
    cities = [{"size": 2, "tiles": [tile("Alice", 2, 1), tile("Bob", 1, 2)]}]  # Alice 5, Bob 3
    a = games.score(doc("ireland", [itemised, "Bob"], cities=cities))
    b = games.score(doc("ireland", [{"name": "Alice", "track": 33}, {"name": "Bob", "track": 3}]))
    assert a.player("Alice").total == b.player("Alice").total == 33
    # Both at once: the sum (R1 says the total is the sum, whatever the table entered).
    both = dict(itemised, track=33)
    c = games.score(doc("ireland", [both, "Bob"], cities=cities))
    assert c.player("Alice").total == 66


# ------------------------------------------------------------------ R2: farm groups


def test_r2_farm_groups_score_triangular_numbers():
    # agricultural 1 and 4: 1 + 10; energy 3: 6 -> 17
    alice = {"name": "Alice", "farms": {"agricultural": [1, 4], "energy": [3]}}
    result = games.score(doc(players=[alice, "Bob"]))
    line = result.player("Alice").breakdown[1]
    assert line.key == "farms" and line.points == 17
    assert "1+2+3+4 = 10" in line.detail and "1+2+3 = 6" in line.detail
    assert "1 + 10 + 6 = 17" in line.detail
    # says plainly it assumes one-tile growth, once for the table (the score pad's reminder of the
    # category, shown on the results page and the sheet), not in every player's detail
    farms = next(row for row in games.score_pad(result) if row.key == "farms")
    assert "une tuile à la fois" in farms.hint and "une tuile à la fois" not in line.detail


def test_r2_largest_group():
    result = games.score(doc(players=[{"name": "Alice", "farms": {"energy": [36]}}, "Bob"]))
    assert result.player("Alice").points("farms") == 36 * 37 // 2 == 666


# ------------------------------------------------------------------ R3: completed cities (rulebook examples)


def test_r3_rulebook_two_space_city_one_owner_takes_8():
    result = games.score(doc(cities=[{"size": 2, "tiles": [tile("Alice", 1), tile("Alice", 3)]}]))
    assert city_points(result, "Alice") == 8  # 5 + 3
    assert city_points(result, "Bob") == 0


def test_r3_two_space_city_two_players():
    result = games.score(doc(cities=[{"size": 2, "tiles": [tile("Alice", 1), tile("Bob", 3)]}]))
    assert (city_points(result, "Bob"), city_points(result, "Alice")) == (5, 3)


def test_r3_rulebook_four_space_city_two_players_13_and_3():
    cities = [{"size": 4, "tiles": [tile("Alice", 2), tile("Alice", 2), tile("Bob", 3), tile("Alice", 1)]}]
    result = games.score(doc("ireland", cities=cities))
    assert (city_points(result, "Alice"), city_points(result, "Bob")) == (13, 3)


def test_r3_rulebook_four_space_city_single_player_16():
    cities = [{"size": 4, "tiles": [tile("Bob", 1)] * 4}]
    assert city_points(games.score(doc("ireland", cities=cities)), "Bob") == 16


def test_r3_rulebook_three_space_city_6_4_2():
    cities = [{"size": 3, "tiles": [tile("Alice", 1), tile("Bob", 4), tile("Chloé", 2)]}]
    result = games.score(doc(players=("Alice", "Bob", "Chloé"), cities=cities))
    assert [city_points(result, n) for n in ("Bob", "Chloé", "Alice")] == [6, 4, 2]
    assert result.player("Bob").breakdown[2].detail == "ville 3 cases n°1 : 6"


def test_r3_three_space_city_two_players_top_takes_two_prizes():
    # k = 2 < m = 3: the top player takes m - k + 1 = 2 prizes (6 + 4), the other the last (2).
    cities = [{"size": 3, "tiles": [tile("Alice", 1), tile("Bob", 2), tile("Alice", 2)]}]
    result = games.score(doc(cities=cities))
    assert (city_points(result, "Alice"), city_points(result, "Bob")) == (10, 2)
    cities = [{"size": 3, "tiles": [tile("Bob", 1)] * 3}]
    assert city_points(games.score(doc(cities=cities)), "Bob") == 12  # 6 + 4 + 2


def test_r3_four_space_city_three_and_four_players():
    names = ("Alice", "Bob", "Chloé", "Dan")
    three = [{"size": 4, "tiles": [tile("Alice", 4), tile("Bob", 3), tile("Chloé", 1), tile("Alice", 1)]}]
    result = games.score(doc("ireland", names, cities=three))
    assert [city_points(result, n) for n in names] == [8, 5, 3, 0]
    four = [{"size": 4, "tiles": [tile("Alice", 1), tile("Bob", 2), tile("Chloé", 3), tile("Dan", 4)]}]
    result = games.score(doc("ireland", names, cities=four))
    assert [city_points(result, n) for n in names] == [0, 3, 5, 8]  # 4th present takes nothing
    assert "ville 4 cases n°1 : 0" in result.player("Alice").breakdown[2].detail


def test_r3_one_space_city_pays_influence_and_details_add_up():
    cities = [{"size": 1, "tiles": [tile("Alice", 3)]},
              {"size": 2, "tiles": [tile("Alice", 2), tile("Bob", 1)]}]
    line = games.score(doc(cities=cities)).player("Alice").breakdown[2]
    assert line.points == 8
    assert line.detail == "ville 1 case n°1 : 3 ; ville 2 cases n°2 : 5 ; 3 + 5 = 8"


# ------------------------------------------------------------------ R4: influence ties inside a city


def test_r4_two_space_tie_first_tile_wins():
    cities = [{"size": 2, "tiles": [tile("Alice", 2, 2), tile("Bob", 2, 1)]}]
    result = games.score(doc(cities=cities))
    assert (city_points(result, "Bob"), city_points(result, "Alice")) == (5, 3)
    assert "ordre de pose" in result.player("Alice").breakdown[2].detail


def test_r4_two_space_tie_one_order_is_enough():
    # Only Alice's tile is ordered, 2nd: Bob's was first.
    cities = [{"size": 2, "tiles": [tile("Alice", 2, 2), tile("Bob", 2)]}]
    assert city_points(games.score(doc(cities=cities)), "Bob") == 5


def test_r4_three_space_tie_nearest_clockwise_from_completer():
    # Seats Alice, Bob, Chloé, Dan. Bob and Dan tie on 2; Alice completed the city (order 3).
    # Clockwise from Alice: Bob (next), Chloé, Dan: Bob is nearer. Bob 6, Dan 4, Alice 2.
    names = ("Alice", "Bob", "Chloé", "Dan")
    cities = [{"size": 3, "tiles": [tile("Bob", 2, 1), tile("Dan", 2, 2), tile("Alice", 1, 3)]}]
    result = games.score(doc(players=names, cities=cities))
    assert [city_points(result, n) for n in ("Bob", "Dan", "Alice")] == [6, 4, 2]


def test_r4_completer_comes_last_among_the_tied():
    # Alice completed the city and ties with Bob on 2: she comes last, Bob takes 6.
    names = ("Alice", "Bob", "Chloé")
    cities = [{"size": 3, "tiles": [tile("Bob", 2, 1), tile("Chloé", 1, 2), tile("Alice", 2, 3)]}]
    result = games.score(doc(players=names, cities=cities))
    assert [city_points(result, n) for n in ("Bob", "Alice", "Chloé")] == [6, 4, 2]


def test_r4_clockwise_wraps_around_the_table():
    # Chloé (3rd seat) completed; Alice and Bob tie. From Chloé: Dan, Alice, Bob: Alice first.
    names = ("Alice", "Bob", "Chloé", "Dan")
    cities = [{"size": 3, "tiles": [tile("Bob", 2, 1), tile("Alice", 2, 2), tile("Chloé", 1, 3)]}]
    result = games.score(doc(players=names, cities=cities))
    assert [city_points(result, n) for n in ("Alice", "Bob", "Chloé")] == [6, 4, 2]


def test_r4_four_space_city_two_tied_players():
    # Alice 1 + 2, Bob 2 + 1: tie on 3. Alice placed the last tile: Bob wins, 8 + 5 = 13; Alice 3.
    cities = [{"size": 4, "tiles": [tile("Alice", 1, 1), tile("Bob", 2, 2), tile("Bob", 1, 3),
                                    tile("Alice", 2, 4)]}]
    result = games.score(doc("ireland", cities=cities))
    assert (city_points(result, "Bob"), city_points(result, "Alice")) == (13, 3)


def test_r4_only_the_last_tile_needs_an_order():
    names = ("Alice", "Bob", "Chloé")
    cities = [{"size": 3, "tiles": [tile("Bob", 1), tile("Chloé", 1), tile("Alice", 2, 3)]}]
    result = games.score(doc(players=names, cities=cities))
    assert [city_points(result, n) for n in ("Alice", "Bob", "Chloé")] == [6, 4, 2]


def test_r4_last_tile_inferred_when_unordered_tiles_share_an_owner():
    # Bob 1st, Chloé 2nd; both unordered tiles are Alice's, so she placed the last one.
    # Bob and Chloé tie on 3: from Alice, Bob is nearer. Bob 8, Chloé 5, Alice 3.
    names = ("Alice", "Bob", "Chloé", "Dan")
    cities = [{"size": 4, "tiles": [tile("Bob", 3, 1), tile("Chloé", 3, 2), tile("Alice", 1),
                                    tile("Alice", 1)]}]
    result = games.score(doc("ireland", names, cities=cities))
    assert [city_points(result, n) for n in ("Bob", "Chloé", "Alice")] == [8, 5, 3]


def test_r4_order_not_needed_when_every_possible_completer_gives_the_same_order():
    # Bob and Chloé tie on 1; Alice or Dan placed last. From Alice: Bob, Chloé. From Dan:
    # Alice, Bob, Chloé: Bob first either way. Dan 8, Alice 5, Bob 3, Chloé 0.
    names = ("Alice", "Bob", "Chloé", "Dan")
    cities = [{"size": 4, "tiles": [tile("Bob", 1, 1), tile("Chloé", 1, 2), tile("Alice", 3),
                                    tile("Dan", 4)]}]
    result = games.score(doc("ireland", names, cities=cities))
    assert [city_points(result, n) for n in names] == [5, 3, 0, 8]
    said = city_tool(4, cities[0]["tiles"], players=names)["explanation"]
    assert any("complétée par Alice ou Dan" in s and "Bob puis Chloé" in s for s in said)


def test_r4_missing_order_is_rejected_naming_the_city_and_the_tied_players():
    cities = [{"size": 3, "tiles": [tile("Alice", 1), tile("Bob", 1), tile("Alice", 1)]},
              {"size": 2, "tiles": [tile("Alice", 2), tile("Bob", 2)]}]
    found = problems(doc(cities=cities))
    message = found["cities[1]"]
    assert "ville 2 cases n°2" in message and "Alice et Bob" in message and "ordre de pose" in message
    assert "cities[0]" not in found  # Alice 2 vs Bob 1: no tie, no order needed
    three = [{"size": 3, "tiles": [tile("Alice", 1), tile("Bob", 1), tile("Chloé", 1)]}]
    message = problems(doc(players=("Alice", "Bob", "Chloé"), cities=three))["cities[0]"]
    assert "ville 3 cases n°1" in message and "Alice, Bob et Chloé" in message


def test_r4_ties_below_the_prizes_still_need_the_order_only_when_it_matters():
    # 4-space city, 4 players, Chloé and Dan tie on 1 for 3rd/4th: prizes 3 and 0 differ.
    names = ("Alice", "Bob", "Chloé", "Dan")
    cities = [{"size": 4, "tiles": [tile("Alice", 3), tile("Bob", 2), tile("Chloé", 1), tile("Dan", 1)]}]
    assert "Chloé et Dan" in problems(doc("ireland", names, cities=cities))["cities[0]"]


# ------------------------------------------------------------------ R5: incomplete cities


def test_r5_incomplete_city_tiles_score_their_influence():
    cities = [{"size": 3, "tiles": [tile("Alice", 3), tile("Bob", 2)]},
              {"size": 2, "tiles": [tile("Alice", 1)]},
              {"size": 2, "tiles": []}]
    players = [{"name": "Alice", "incomplete_icons": 2}, "Bob"]
    result = games.score(doc(players=players, cities=cities))
    alice = result.player("Alice")
    assert alice.points("incomplete") == 6 and alice.points("cities") == 0  # 2 + 3 + 1
    assert alice.breakdown[4].detail == "2 icônes + 3 (ville 3 cases n°1) + 1 (ville 2 cases n°2) = 6"
    assert result.player("Bob").points("incomplete") == 2


# ------------------------------------------------------------------ R6: castle control (tool)


def castle(holder, active, **adjacent):
    counts = {k: {"tiles": t, "farms": f} for k, (t, f) in adjacent.items()}
    return rebirth.castle_control({"players": ["Alice", "Bob", "Chloé"], "holder": holder, "active": active,
                                   "adjacent": counts})


def test_r6_free_castle_goes_to_the_active_player_with_an_adjacent_tile():
    taken = castle(None, "Bob", Bob=(1, 0))
    assert taken["holder"] == "Bob" and "libre" in taken["explanation"]


def test_r6_the_active_player_and_the_holder_have_adjacent_tiles():
    """The active player has just placed a tile beside the castle; the holder took it with one."""
    with pytest.raises(InvalidDocument) as exc:
        castle(None, "Bob", Alice=(2, 1))
    assert [p.path for p in exc.value.problems] == ["active"]
    with pytest.raises(InvalidDocument) as exc:
        castle("Alice", "Bob", Bob=(2, 1))
    assert [p.path for p in exc.value.problems] == ["holder"]


def test_r6_more_adjacent_tiles_take_the_castle():
    result = castle("Alice", "Bob", Alice=(1, 1), Bob=(2, 0))
    assert result["holder"] == "Bob"
    assert "Bob 2, Alice 1" in result["explanation"] and "prend" in result["explanation"]
    assert castle("Alice", "Bob", Alice=(2, 0), Bob=(1, 1))["holder"] == "Alice"


def test_r6_equal_tiles_more_farms_take_the_castle():
    result = castle("Alice", "Bob", Alice=(2, 0), Bob=(2, 1))
    assert result["holder"] == "Bob" and "fermes adjacentes" in result["explanation"]
    assert castle("Alice", "Bob", Alice=(2, 2), Bob=(2, 1))["holder"] == "Alice"


def test_r6_still_equal_the_holder_keeps_it():
    result = castle("Alice", "Bob", Alice=(2, 1), Bob=(2, 1))
    assert result["holder"] == "Alice" and "actif perd" in result["explanation"]
    assert castle("Alice", "Alice", Alice=(1, 0), Bob=(3, 3))["holder"] == "Alice"  # only the active acts


def test_r6_names_are_trimmed_and_case_insensitive():
    result = rebirth.castle_control({"players": ["Alice", "Bob"], "holder": " alice", "active": "BOB",
                                     "adjacent": {"bob": {"tiles": 3, "farms": 0},
                                                  "ALICE ": {"tiles": 1, "farms": 1}}})
    assert result["holder"] == "Bob"


def bob_active(**fields):
    return {"players": ["Alice", "Bob"], "active": "Bob", **fields}


@pytest.mark.parametrize(("payload", "path", "words"), [
    ({"players": ["Alice", "Bob"], "active": "Zoé"}, "active", "Zoé"),
    (bob_active(holder="Zoé"), "holder", "Zoé"),
    ({"players": ["Alice", "Bob"]}, "active", "obligatoire"),
    (bob_active(adjacent={"Zoé": {"tiles": 1}}), "adjacent.Zoé", "Zoé"),
    (bob_active(adjacent={"Bob": {"tiles": 1, "farms": 2}}), "adjacent.Bob.farms", "au plus 1"),
    (bob_active(adjacent={"Bob": {"tiles": 9}}), "adjacent.Bob.tiles", "entre 0 et 8"),
    (bob_active(adjacent={"Bob": {"tiles": -1}}), "adjacent.Bob.tiles", "entre 0 et 8"),
    (bob_active(adjacent={"Bob": {"tiles": 1.5}}), "adjacent.Bob.tiles", "entier"),
    (bob_active(adjacent={"Bob": {"tiles": True}}), "adjacent.Bob.tiles", "entier"),
    (bob_active(adjacent={"Bob": {"walls": 1}}), "adjacent.Bob.walls", "inconnue"),
    (bob_active(adjacent={"Bob": 3}), "adjacent.Bob", "objet"),
    (bob_active(adjacent={"Bob": {"tiles": 1}, "bob": {"tiles": 2}}), "adjacent.bob", "déjà"),
    ({"players": ["Alice", "Alice"], "active": "Alice"}, "players[1]", "déjà"),
    ({"players": ["Alice"], "active": "Alice"}, "players", "2 à 4"),
    ({"active": "Alice"}, "players", "obligatoire"),
    (bob_active(colour="red"), "colour", "inconnue"),
])
def test_r6_castle_tool_validation(payload, path, words):
    with pytest.raises(InvalidDocument) as exc:
        rebirth.castle_control(payload)
    found = {p.path: p.message for p in exc.value.problems}
    assert path in found and words in found[path]


def test_r6_castles_score_5_each():
    result = games.score(doc(players=[{"name": "Alice", "castles": 3}, "Bob"]))
    line = result.player("Alice").breakdown[5]
    assert (line.key, line.points, line.detail) == ("castles", 15, "3 × 5")


# ------------------------------------------------------------------ R7: private missions (Scotland)


def test_r7_missions_score_if_achieved_and_gifts_3_each():
    alice = {"name": "Alice", "missions": [{"points": 6, "achieved": True}, {"points": 9, "achieved": False},
                                           {"points": 4, "achieved": True}], "gifts": 2}
    line = games.score(doc(players=[alice, "Bob"])).player("Alice").breakdown[6]
    assert line.key == "missions" and line.points == 16  # 6 + 0 + 4 + 2 × 3
    assert line.detail == ("6 (réussie) + 0 (mission à 9 manquée) + 4 (réussie) "
                           "+ 2 × 3 (don de la cathédrale) = 16")


def test_r7_eight_cards_at_most_gifts_included():
    eight = {"name": "Alice", "missions": [{"points": 1, "achieved": True}] * 6, "gifts": 2}
    assert games.score(doc(players=[eight, "Bob"])).player("Alice").points("missions") == 12
    nine = dict(eight, gifts=3)
    found = problems(doc(players=[nine, "Bob"]))
    assert "8" in found["players[0].gifts"] and "8" in found["players[0].missions"]
    only_missions = {"name": "Alice", "missions": [{"points": 1}] * 9}
    assert "players[0].missions" in problems(doc(players=[only_missions, "Bob"]))


@pytest.mark.parametrize(("missions", "gifts", "lang", "counted"), [
    (1, 8, "fr", "ici 1 mission + 8 dons = 9"),
    (8, 1, "fr", "ici 8 missions + 1 don = 9"),
    (1, 8, "en", "here 1 mission + 8 gifts = 9"),
    (8, 1, "en", "here 8 missions + 1 gift = 9"),
])
def test_r7_the_count_over_eight_is_worded_for_its_numbers(missions, gifts, lang, counted):
    """The message counts each kind in its own number: « 1 mission », never « 1 missions »."""
    from companion.games import i18n

    player = {"name": "Alice", "missions": [{"points": 1, "achieved": True}] * missions, "gifts": gifts}
    with i18n.using(lang):
        found = problems(doc(players=[player, "Bob"]))
    assert counted in found["players[0].gifts"]


# ------------------------------------------------------------------ R8: Ireland


def test_r8_public_missions_multiplier_towers_and_privatised_mission():
    alice = {"name": "Alice", "public_missions": [{"points": 5}, {"points": 3, "doubled": True}],
             "towers": [13, 13, 13, 3, 3], "privatized_missions": [{"points": 11, "achieved": True}]}
    result = games.score(doc("ireland", [alice, "Bob"]))
    lines = {line.key: line for line in result.player("Alice").breakdown}
    assert lines["public_missions"].points == 11  # 5 + 3 × 2
    assert lines["public_missions"].detail.startswith("5 + 3 × 2 = 11")
    assert lines["towers"].points == 45 and lines["towers"].detail == "13 + 13 + 13 + 3 + 3 = 45"
    assert lines["privatized_missions"].points == 11
    missed = dict(alice, privatized_missions=[{"points": 11, "achieved": False}])
    assert games.score(doc("ireland", [missed, "Bob"])).player("Alice").points("privatized_missions") == 0


def test_r8_limits():
    two_doubled = {"name": "Alice", "public_missions": [{"points": 5, "doubled": True},
                                                        {"points": 3, "doubled": True}]}
    assert "multiplicateur" in problems(doc("ireland", [two_doubled, "Bob"]))["players[0].public_missions"]
    towers = {"name": "Alice", "towers": [13, 13, 13, 13, 3, 3, 3]}
    found = problems(doc("ireland", [towers, "Bob"]))
    assert "ici 4 à 13 et 3 à 3" in found["players[0].towers"]
    only_threes = problems(doc("ireland", [{"name": "Alice", "towers": [3, 3, 3]}, "Bob"]))
    assert "2 tours à 3 points" in only_threes["players[0].towers"]
    four_13 = problems(doc("ireland", [{"name": "Alice", "towers": [13] * 4}, "Bob"]))
    assert "3 tours à 13 points" in four_13["players[0].towers"]
    odd = problems(doc("ireland", [{"name": "Alice", "towers": [13, 5, True]}, "Bob"]))
    assert "13 ou 3" in odd["players[0].towers[1]"] and "13 ou 3" in odd["players[0].towers[2]"]
    two_private = {"name": "Alice", "privatized_missions": [{"points": 5}, {"points": 6}]}
    assert "au plus 1" in problems(doc("ireland", [two_private, "Bob"]))["players[0].privatized_missions"]
    nine = {"name": "Alice", "public_missions": [{"points": 1}] * 9}
    assert "au plus 8" in problems(doc("ireland", [nine, "Bob"]))["players[0].public_missions"]


# ------------------------------------------------------------------ R9: winner, Scotland


def tied_scotland(edinburgh=None, stirling=None, tracks=(50, 50, 40), castles=(1, 1, 1)):
    names = ("Alice", "Bob", "Chloé")
    players = [{"name": n, "track": t - 5 * c, "castles": c}
               for n, t, c in zip(names, tracks, castles, strict=True)]
    return games.score(doc(players=players, edinburgh=edinburgh, stirling=stirling))


def test_r9_edinburgh_holder_among_the_tied_wins():
    result = tied_scotland(edinburgh="Bob", stirling="Chloé")
    assert places(result) == [(1, ["Bob"]), (2, ["Alice"]), (3, ["Chloé"])]
    assert "Édimbourg" in result.explanation[0] and "Bob gagne" in result.explanation[0]


def test_r9_stirling_holder_among_the_tied_wins():
    result = tied_scotland(edinburgh="Chloé", stirling="Alice")
    assert places(result) == [(1, ["Alice"]), (2, ["Bob"]), (3, ["Chloé"])]
    assert "Stirling" in result.explanation[0]


def test_r9_stirling_holder_wins_even_when_not_among_the_tied():
    result = tied_scotland(stirling="Chloé")
    assert places(result) == [(1, ["Chloé"]), (2, ["Alice", "Bob"])]
    assert result.winners == ["Chloé"]
    first = result.explanation[0]
    assert "Alice et Bob à égalité (50 points)" in first and "Chloé" in first and "Stirling" in first
    assert "Chloé gagne, puis Alice et Bob" in first


def test_r9_nobody_holds_stirling_shared_victory():
    result = tied_scotland(edinburgh="Chloé")
    assert places(result) == [(1, ["Alice", "Bob"]), (3, ["Chloé"])]
    assert "victoire partagée" in result.explanation[0]


# ------------------------------------------------------------------ R10: winner, Ireland


def tied_ireland(blarney=None, tara=(0, 0, 0), tracks=(50, 50, 40)):
    names = ("Alice", "Bob", "Chloé")
    players = [{"name": n, "track": t - 5, "castles": 1, "tara_adjacent": a}
               for n, t, a in zip(names, tracks, tara, strict=True)]
    return games.score(doc("ireland", players, blarney=blarney))


def test_r10_blarney_holder_among_the_tied_wins():
    result = tied_ireland(blarney="Bob", tara=(5, 0, 0))
    assert places(result) == [(1, ["Bob"]), (2, ["Alice"]), (3, ["Chloé"])]
    assert "Blarney" in result.explanation[0]


def test_r10_no_jump_for_blarney_then_tara_decides():
    result = tied_ireland(blarney="Chloé", tara=(1, 4, 8))  # Chloé not tied: no jump in Ireland
    assert places(result) == [(1, ["Bob"]), (2, ["Alice"]), (3, ["Chloé"])]
    assert "Tara : Alice 1, Bob 4" in result.explanation[0]


def test_r10_still_tied_shared_victory():
    result = tied_ireland(tara=(2, 2, 0))
    assert places(result) == [(1, ["Alice", "Bob"]), (3, ["Chloé"])]
    assert "victoire partagée" in result.explanation[0]


# ------------------------------------------------------------------ R11: places below first


def test_r11_edinburgh_settles_a_tie_below_first():
    result = tied_scotland(edinburgh="Chloé", tracks=(60, 45, 45), castles=(1, 1, 1))
    assert places(result) == [(1, ["Alice"]), (2, ["Chloé"]), (3, ["Bob"])]
    assert "2e place" in result.explanation[0] and "Édimbourg" in result.explanation[0]


def test_r11_no_stirling_jump_below_first():
    # Bob and Chloé tie for 2nd; Alice (1st) holds Stirling: the tie is shared, nobody jumps.
    result = tied_scotland(stirling="Alice", tracks=(60, 45, 45))
    assert places(result) == [(1, ["Alice"]), (2, ["Bob", "Chloé"])]
    assert "partagent la 2e place" in result.explanation[0]
    # Four players: the 4th holds Stirling; 2nd and 3rd tie: still no jump.
    names = ("Alice", "Bob", "Chloé", "Dan")
    players = [{"name": n, "track": t} for n, t in zip(names, (60, 45, 45, 30), strict=True)]
    players[3]["castles"] = 1
    result = games.score(doc(players=players, stirling="Dan"))
    assert places(result) == [(1, ["Alice"]), (2, ["Bob", "Chloé"]), (4, ["Dan"])]


def test_r11_stirling_holder_among_a_tie_below_first():
    result = tied_scotland(stirling="Chloé", tracks=(60, 45, 45))
    assert places(result) == [(1, ["Alice"]), (2, ["Chloé"]), (3, ["Bob"])]


def test_r11_tara_settles_a_tie_below_first():
    result = tied_ireland(tara=(0, 1, 3), tracks=(60, 45, 45))
    assert places(result) == [(1, ["Alice"]), (2, ["Chloé"]), (3, ["Bob"])]


def test_r11_after_a_stirling_jump_the_tied_share_second_place():
    names = ("Alice", "Bob", "Chloé", "Dan")
    players = [{"name": n, "track": t} for n, t in zip(names, (60, 60, 50, 40), strict=True)]
    players[3]["castles"] = 1
    result = games.score(doc(players=players, stirling="Dan"))
    assert places(result) == [(1, ["Dan"]), (2, ["Alice", "Bob"]), (4, ["Chloé"])]
    assert len(result.explanation) == 2 and "partagent la 2e place" in result.explanation[1]


# ------------------------------------------------------------------ the city tool


def city_tool(size, tiles, players=("Alice", "Bob", "Chloé"), variant="ireland"):
    return rebirth.resolve_city({"variant": variant, "players": list(players),
                                 "city": {"size": size, "tiles": tiles}})


def test_city_tool_rulebook_examples():
    assert city_tool(2, [tile("Alice", 1), tile("Alice", 2)])["points"] == {"Alice": 8}
    assert city_tool(4, [tile("Bob", 2)] * 4)["points"] == {"Bob": 16}
    result = city_tool(4, [tile("Alice", 3), tile("Bob", 1), tile("Alice", 1), tile("Bob", 1)])
    assert result["points"] == {"Alice": 13, "Bob": 3} and result["ranking"] == ["Alice", "Bob"]
    result = city_tool(3, [tile("Alice", 1), tile("Bob", 2), tile("Chloé", 3)])
    assert result["points"] == {"Chloé": 6, "Bob": 4, "Alice": 2}
    assert result["ranking"] == ["Chloé", "Bob", "Alice"] and result["complete"] is True


def test_city_tool_explains_the_tie():
    result = city_tool(2, [tile("Inès", 3, 1), tile("Yanis", 3, 2)], players=("Maëlle", "Yanis", "Inès"))
    assert result["points"] == {"Inès": 5, "Yanis": 3}
    assert any("tuile d'Inès a été posée en premier" in s for s in result["explanation"])
    result = city_tool(3, [tile("Bob", 2, 1), tile("Chloé", 1, 2), tile("Alice", 2, 3)])
    assert result["ranking"] == ["Bob", "Alice", "Chloé"]
    assert any("Alice a complété la ville et passe en dernier" in s for s in result["explanation"])


def test_city_tool_incomplete_city_gives_the_final_count():
    result = city_tool(3, [tile("Alice", 3), tile("Bob", 1)])
    assert result == {"complete": False, "points": {"Alice": 3, "Bob": 1}, "ranking": [],
                      "explanation": [result["explanation"][0]]}
    assert "incomplète" in result["explanation"][0]


def ab_city(size, tiles, variant="ireland"):
    return {"variant": variant, "players": ["A", "B"], "city": {"size": size, "tiles": tiles}}


@pytest.mark.parametrize(("payload", "path", "words"), [
    (ab_city(4, [], "scotland"), "city.size", "Irlande"),
    (ab_city(2, [tile("A", 2), tile("B", 2)]), "city", "A et B"),
    (ab_city(2, [tile("Z", 2)]), "city.tiles[0].player", "Z"),
    (ab_city(1, [tile("A", 2), tile("B", 1)]), "city.tiles", "au plus 1 tuile"),
    (ab_city(2, [tile("A", 2, 1), tile("B", 1, 1)]), "city.tiles[1].order", "déjà"),
    ({"variant": "ireland", "players": "A, B", "city": {"size": 1}}, "players", "liste"),
    ({"variant": "wales", "players": ["A", "B"], "city": {"size": 1, "tiles": []}}, "variant", "wales"),
    ({"players": ["A", "B"], "city": {"size": 1, "tiles": []}}, "variant", "obligatoire"),
    ({"variant": "ireland", "players": ["A", "B"]}, "city", "obligatoire"),
    ({"variant": "ireland", "players": ["A", "B"], "city": {"size": 1}, "extra": 1}, "extra", "inconnue"),
])
def test_city_tool_validation(payload, path, words):
    with pytest.raises(InvalidDocument) as exc:
        rebirth.resolve_city(payload)
    found = {p.path: p.message for p in exc.value.problems}
    assert path in found and words in found[path]


@pytest.mark.parametrize("tool", sorted(rebirth.TOOLS))
def test_tools_reject_a_payload_that_is_not_an_object(tool):
    with pytest.raises(InvalidDocument):
        rebirth.TOOLS[tool](["not", "an", "object"])
