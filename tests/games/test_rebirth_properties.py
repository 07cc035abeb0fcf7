"""Rebirth properties over generated documents that the contract allows."""

from __future__ import annotations

import copy
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import games
from companion.games import rebirth

NAMES = ("Alice", "Bob", "Chloé", "Dan")
OTHER_NAMES = ("Zoé", "Yves", "Xavier", "Wendy")
PRIZE_TOTAL = {size: sum(prizes) for size, prizes in rebirth.PRIZES.items()}
EXAMPLES = settings(max_examples=150, deadline=None)


def cards(draw, flag, max_size, max_flagged=None):
    items = draw(st.lists(st.tuples(st.integers(1, 30), st.booleans()), max_size=max_size))
    out, flagged = [], 0
    for points, on in items:
        on = on and (max_flagged is None or flagged < max_flagged)
        flagged += on
        item = {"points": points}
        if on or draw(st.booleans()):
            item[flag] = on
        out.append(item)
    return out


@st.composite
def cities(draw, names, variant, full_orders=True):
    """Cities with up to `size` tiles; complete ones carry every order when `full_orders`."""
    out = []
    for _ in range(draw(st.integers(0, 12))):
        size = draw(st.integers(1, rebirth.MAX_CITY[variant]))
        count = draw(st.integers(0, size))
        orders = draw(st.permutations(range(1, size + 1)))[:count]
        tiles = []
        for order in orders:
            t = {"player": draw(st.sampled_from(names)), "influence": draw(st.integers(1, 4))}
            if (full_orders and count == size) or draw(st.booleans()):
                t["order"] = order
            tiles.append(t)
        out.append({"size": size, "tiles": tiles})
    return out


@st.composite
def documents(draw, variant=None, full_orders=True, close=False):
    """Valid documents; `close` ones keep totals within a few points, so that ties are common."""
    variant = variant or draw(st.sampled_from(("scotland", "ireland")))
    names = NAMES[:draw(st.integers(2, 4))]
    players = []
    for name in names:
        p = {"name": name}
        if close:
            p["track"] = draw(st.sampled_from((35, 40, 41, 45)))  # a castle holder gets 5 more
            if variant == "ireland":
                p["tara_adjacent"] = draw(st.integers(0, 2))
            players.append(p)
            continue
        optional = {
            "track": st.integers(0, 500),
            "farms": st.fixed_dictionaries({}, optional={
                "agricultural": st.lists(st.integers(1, 36), max_size=6),
                "energy": st.lists(st.integers(1, 36), max_size=6)}),
            "ports": st.integers(0, 36),
            "incomplete_icons": st.integers(0, 144),
            "castles": st.integers(0, 12),
        }
        if variant == "scotland":
            gifts = draw(st.integers(0, 8))
            p["missions"] = cards(draw, "achieved", 8 - gifts)
            optional["gifts"] = st.just(gifts)
        else:
            p["public_missions"] = cards(draw, "doubled", 8, max_flagged=1)
            p["towers"] = draw(st.lists(st.sampled_from((13, 3)), max_size=5)
                               .filter(lambda t: t.count(13) <= 3 and t.count(3) <= 2))
            p["privatized_missions"] = cards(draw, "achieved", 1)
            optional["tara_adjacent"] = st.integers(0, 8)
        for key, strategy in optional.items():
            if draw(st.booleans()):
                p[key] = draw(strategy)
        players.append(p)
    doc = {"game": "rebirth", "variant": variant, "players": players,
           "cities": [] if close else draw(cities(names, variant, full_orders))}
    for key in rebirth.VARIANT_TABLE_KEYS[variant]:
        doc[key] = draw(st.none() | st.sampled_from(names))
    for i, name in enumerate(names):  # a holder holds at least as many castles as named
        held = sum(doc[key] == name for key in rebirth.VARIANT_TABLE_KEYS[variant])
        players[i]["castles"] = max(players[i].get("castles", 0), held)
    return doc


def place_numbers_are_consistent(result):
    listed = [n for place in result.ranking for n in place.players]
    assert sorted(listed) == sorted(p.name for p in result.players)
    seen = 0
    for place in result.ranking:
        assert place.place == seen + 1
        seen += len(place.players)


@EXAMPLES
@given(documents() | documents(close=True))
def test_every_valid_document_scores_and_totals_add_up(doc):
    result = games.score(doc)
    out = result.to_dict()
    keys = games.GAMES["rebirth"].keys(doc["variant"])
    for player in out["players"]:
        assert [line["key"] for line in player["breakdown"]] == keys
        assert player["total"] == sum(line["points"] for line in player["breakdown"])
        assert all(line["points"] >= 0 for line in player["breakdown"])
    place_numbers_are_consistent(result)
    # Shared places only for equal totals.
    totals = {p.name: p.total for p in result.players}
    for place in result.ranking:
        assert len({totals[n] for n in place.players}) == 1


@EXAMPLES
@given(documents() | documents(close=True))
def test_renaming_players_changes_nothing_but_names(doc):
    mapping = dict(zip(NAMES, OTHER_NAMES, strict=True))
    renamed = copy.deepcopy(doc)
    for p in renamed["players"]:
        p["name"] = mapping[p["name"]]
    for c in renamed["cities"]:
        for t in c["tiles"]:
            t["player"] = mapping[t["player"]]
    for key in rebirth.VARIANT_TABLE_KEYS[doc["variant"]]:
        renamed[key] = mapping.get(renamed[key])
    before, after = games.score(doc), games.score(renamed)
    for a, b in zip(before.players, after.players, strict=True):
        assert [line.points for line in a.breakdown] == [line.points for line in b.breakdown]
    assert [(p.place, [mapping[n] for n in p.players]) for p in before.ranking] == \
        [(p.place, p.players) for p in after.ranking]
    assert len(before.explanation) == len(after.explanation)


@EXAMPLES
@given(documents() | documents(close=True), st.integers(0, 3))
def test_one_more_track_point_never_lowers_a_place(doc, index):
    index %= len(doc["players"])
    player = doc["players"][index]
    if player.get("track", 0) == 500:
        player["track"] = 499
    name = player["name"]
    before = games.score(doc).place_of(name)
    player["track"] = player.get("track", 0) + 1
    after = games.score(doc).place_of(name)
    assert after <= before


@EXAMPLES
@given(documents(full_orders=False))
def test_missing_orders_only_ever_fail_on_the_city_tie(doc):
    found = games.validate(doc)
    for problem in found:
        assert problem.path.startswith("cities[") and "ordre de pose" in problem.message
        city = doc["cities"][int(problem.path[len("cities["):-1])]
        assert len(city["tiles"]) == city["size"] >= 2  # only complete cities need an order


@st.composite
def complete_city(draw):
    variant = draw(st.sampled_from(("scotland", "ireland")))
    names = list(NAMES[:draw(st.integers(2, 4))])
    size = draw(st.integers(2, rebirth.MAX_CITY[variant]))
    orders = draw(st.permutations(range(1, size + 1)))
    tiles = [{"player": draw(st.sampled_from(names)), "influence": draw(st.integers(1, 4)), "order": o}
             for o in orders]
    return {"variant": variant, "players": names, "city": {"size": size, "tiles": tiles}}


@EXAMPLES
@given(complete_city())
def test_a_complete_city_pays_all_its_prizes_and_more_influence_never_pays_less(payload):
    result = rebirth.resolve_city(payload)
    size = payload["city"]["size"]
    assert sum(result["points"].values()) == PRIZE_TOTAL[size]  # R3, whatever k is
    influence = {}
    for t in payload["city"]["tiles"]:
        influence[t["player"]] = influence.get(t["player"], 0) + t["influence"]
    assert sorted(result["ranking"]) == sorted(influence)
    for a in influence:
        for b in influence:
            if influence[a] > influence[b]:
                assert result["points"][a] > result["points"][b]
    # Ranking order follows influence (ties broken, never reversed).
    values = [influence[n] for n in result["ranking"]]
    assert values == sorted(values, reverse=True)


@EXAMPLES
@given(complete_city())
def test_the_city_tool_and_the_engine_agree(payload):
    doc = {"game": "rebirth", "variant": payload["variant"],
           "players": [{"name": n} for n in payload["players"]], "cities": [payload["city"]]}
    result = games.score(doc)
    points = rebirth.resolve_city(payload)["points"]
    for p in result.players:
        assert p.points("cities") == points.get(p.name, 0)


def test_one_more_track_point_never_lowers_a_place_exhaustively_on_small_tables():
    """Every 3-player Scotland table with tracks 0-2 and every castle holding: covers each
    Stirling jump (a tie at the top that the holder's extra point would join or break)."""
    names = NAMES[:3]
    holders = (None, *names)
    checked = 0
    for tracks in itertools.product(range(3), repeat=3):
        for edinburgh, stirling in itertools.product(holders, holders):
            players = [{"name": n, "track": t, "castles": 2} for n, t in zip(names, tracks, strict=True)]
            doc = {"game": "rebirth", "variant": "scotland", "players": players,
                   "edinburgh": edinburgh, "stirling": stirling}
            before = games.score(doc)
            for i, name in enumerate(names):
                bumped = copy.deepcopy(doc)
                bumped["players"][i]["track"] += 1
                assert games.score(bumped).place_of(name) <= before.place_of(name)
                checked += 1
    assert checked == 27 * 16 * 3
