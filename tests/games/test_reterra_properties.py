"""Reterra properties over generated communities: the two modes agree, the board's
symmetries change no score, segments are exactly the 7+ edge-connected areas, totals add up."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import score, validate
from companion.games.reterra import analyse_grid

SQUARES = [(r, c) for r in range(8) for c in range(8)]
COUNT_KEYS = ("segments", "energy_sources", "relics", "junk", "inhabitants")
CARDS = [{"id": "observatoire", "name": "Observatoire", "points": 4},
         {"id": "puits", "name": "Puits", "points": 2},
         {"id": "cinema", "name": "Cinéma", "points": 7}]


@st.composite
def grids(draw) -> dict:
    """A community the contract allows. A small palette makes large areas (and segments) likely."""
    palette = draw(st.lists(st.sampled_from("FEDPR"), min_size=1, max_size=5, unique=True))
    cells = draw(st.lists(st.sampled_from(palette), min_size=64, max_size=64))
    terrain = [cells[8 * r:8 * r + 8] for r in range(8)]
    sources = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), unique=True, max_size=6))
    for tr, tc in sources:
        for r in (2 * tr, 2 * tr + 1):
            for c in (2 * tc, 2 * tc + 1):
                terrain[r][c] = "E"
    relics = draw(st.sets(st.sampled_from(SQUARES), max_size=12))
    tokens = draw(st.sets(st.sampled_from([s for s in SQUARES if s not in relics]), max_size=8))
    covered = sorted(relics | tokens)
    junk = draw(st.sets(st.sampled_from(covered), max_size=len(covered))) if covered else set()
    free = [s for s in SQUARES if s not in tokens and s not in junk]
    inhabitants = draw(st.sets(st.sampled_from(free), max_size=12))

    def listed(squares) -> list[list[int]]:
        return draw(st.permutations([list(s) for s in sorted(squares)]))

    return {"terrain": ["".join(row) for row in terrain], "sources": [list(t) for t in sources],
            "relics": listed(relics), "relic_tokens": listed(tokens), "junk": listed(junk),
            "inhabitants": listed(inhabitants)}


@st.composite
def grid_documents(draw) -> dict:
    n = draw(st.integers(2, 4))
    players = []
    for i in range(n):
        player = {"name": f"Joueur {i + 1}", "grid": draw(grids())}
        built = draw(st.dictionaries(st.sampled_from([c["id"] for c in CARDS]), st.integers(0, 16)))
        if built:
            player["buildings"] = built
        if draw(st.booleans()):
            player["building_bonus"] = draw(st.integers(0, 200))
        players.append(player)
    return {"game": "reterra", "variant": "base", "buildings": CARDS, "players": players}


@st.composite
def count_documents(draw) -> dict:
    n = draw(st.integers(2, 4))
    players = []
    for i in range(n):
        junk = draw(st.integers(0, 64))
        player = {"name": f"J{i}", "segments": draw(st.integers(0, 9)),
                  "energy_sources": draw(st.integers(0, 4)), "relics": draw(st.integers(0, 64 - junk)),
                  "junk": junk, "inhabitants": draw(st.integers(0, 64 - junk)),
                  "building_bonus": draw(st.integers(0, 200)),
                  "buildings": draw(st.dictionaries(st.sampled_from([c["id"] for c in CARDS]),
                                                    st.integers(0, 16)))}
        players.append({k: v for k, v in player.items() if draw(st.booleans()) or k == "name"})
    return {"game": "reterra", "variant": "base", "buildings": CARDS, "players": players}


# --------------------------------------------------------------------------- the board's symmetries


def rotate(r: int, c: int, n: int) -> tuple[int, int]:
    """A quarter turn clockwise on an n×n board."""
    return c, n - 1 - r


def mirror(r: int, c: int, n: int) -> tuple[int, int]:
    return r, n - 1 - c


def transform(grid: dict, move) -> dict:
    """The same community turned or flipped: terrain, tiles and every square list move together."""
    cells = [[""] * 8 for _ in range(8)]
    for r, row in enumerate(grid["terrain"]):
        for c, letter in enumerate(row):
            rr, cc = move(r, c, 8)
            cells[rr][cc] = letter
    out = {"terrain": ["".join(row) for row in cells],
           "sources": [list(move(r, c, 4)) for r, c in grid["sources"]]}
    for key in ("relics", "relic_tokens", "junk", "inhabitants"):
        out[key] = [list(move(r, c, 8)) for r, c in grid[key]]
    return out


SYMMETRIES = [
    lambda r, c, n: rotate(r, c, n),
    lambda r, c, n: rotate(*rotate(r, c, n), n),
    lambda r, c, n: rotate(*rotate(*rotate(r, c, n), n), n),
    mirror,
    lambda r, c, n: mirror(*rotate(r, c, n), n),
    lambda r, c, n: (c, r),  # the main diagonal
]


@settings(max_examples=100, deadline=None)
@given(grids(), st.sampled_from(range(len(SYMMETRIES))))
def test_turning_or_flipping_a_community_changes_no_score(grid, which):
    moved = transform(grid, SYMMETRIES[which])

    def scored(g: dict) -> list[int]:
        doc = {"game": "reterra", "variant": "base", "players": [{"name": "A", "grid": g}, {"name": "B"}]}
        return [line["points"] for line in score(doc).to_dict()["players"][0]["breakdown"]]

    assert scored(moved) == scored(grid)
    before, after = analyse_grid(grid), analyse_grid(moved)
    assert after["counts"] == before["counts"]
    assert after["points"] == before["points"]
    assert Counter((s["terrain"], s["size"]) for s in after["segments"]) == \
        Counter((s["terrain"], s["size"]) for s in before["segments"])


def test_the_symmetries_really_move_squares():
    # Guard for the property above: each symmetry is a permutation of the board, not the identity.
    for move in SYMMETRIES:
        for n in (4, 8):
            image = {move(r, c, n) for r in range(n) for c in range(n)}
            assert image == {(r, c) for r in range(n) for c in range(n)}
            assert any(move(r, c, n) != (r, c) for r in range(n) for c in range(n))


# --------------------------------------------------------------------------- segments, independently


def areas(terrain: list[str]) -> list[set[tuple[int, int]]]:
    """Edge-connected areas by repeated merging (a different method from the engine's flood fill)."""
    label = {s: i for i, s in enumerate(SQUARES)}
    changed = True
    while changed:
        changed = False
        for r, c in SQUARES:
            for rr, cc in ((r + 1, c), (r, c + 1)):
                if rr < 8 and cc < 8 and terrain[r][c] == terrain[rr][cc]:
                    low = min(label[(r, c)], label[(rr, cc)])
                    if label[(r, c)] != low or label[(rr, cc)] != low:
                        label[(r, c)] = label[(rr, cc)] = low
                        changed = True
    groups: dict[int, set] = {}
    for s, g in label.items():
        groups.setdefault(g, set()).add(s)
    return list(groups.values())


@settings(max_examples=150, deadline=None)
@given(grids())
def test_segments_are_exactly_the_areas_of_seven_or_more(grid):
    found = analyse_grid(grid)
    expected = sorted(sorted(a) for a in areas(grid["terrain"]) if len(a) >= 7)
    got = sorted(sorted(tuple(s) for s in seg["squares"]) for seg in found["segments"])
    assert got == expected
    for seg in found["segments"]:
        assert {grid["terrain"][r][c] for r, c in seg["squares"]} == {seg["terrain"]}
        assert seg["size"] == len(seg["squares"])
    assert found["points"]["segments"] == 3 * len(expected)


@settings(max_examples=100, deadline=None)
@given(grids())
def test_grid_counts_follow_the_rules_square_by_square(grid):
    found = analyse_grid(grid)
    central = {(1, 1), (1, 2), (2, 1), (2, 2)}
    visible = {tuple(s) for s in grid["relics"] + grid["relic_tokens"]} - {tuple(s) for s in grid["junk"]}
    assert found["counts"]["energy_sources"] == sum(1 for t in grid["sources"] if tuple(t) in central)
    assert found["counts"]["relics"] == len(visible)
    assert found["counts"]["junk"] == len(grid["junk"])
    assert found["counts"]["inhabitants"] == len(grid["inhabitants"])
    assert found["total"] == sum(found["points"].values())


# --------------------------------------------------------------------------- the two modes agree


@settings(max_examples=100, deadline=None)
@given(grid_documents())
def test_counts_mode_fed_the_grids_own_counts_scores_the_same(doc):
    by_grid = score(doc).to_dict()
    as_counts = {**doc, "players": []}
    for player, result in zip(doc["players"], by_grid["players"], strict=True):
        counted = {k: v for k, v in player.items() if k != "grid"}
        counted.update(result["grid"]["counts"])
        as_counts["players"].append(counted)
    by_counts = score(as_counts).to_dict()
    for g, c in zip(by_grid["players"], by_counts["players"], strict=True):
        assert [line["points"] for line in g["breakdown"]] == [line["points"] for line in c["breakdown"]]
        assert g["total"] == c["total"]
        assert "grid" not in c
    assert by_grid["ranking"] == by_counts["ranking"]
    assert by_grid["explanation"] == by_counts["explanation"]


# --------------------------------------------------------------------------- totals and places


def check_result(doc: dict) -> None:
    result = score(doc).to_dict()
    for player in result["players"]:
        assert [line["key"] for line in player["breakdown"]] == [
            "segments", "energy_sources", "relics", "junk", "inhabitants", "buildings", "building_bonus"]
        assert player["total"] == sum(line["points"] for line in player["breakdown"])
    totals = {p["name"]: p["total"] for p in result["players"]}
    best = max(totals.values())
    assert all(totals[n] == best for n in result["winners"])
    placed = [n for place in result["ranking"] for n in place["players"]]
    assert sorted(placed) == sorted(totals)
    assert [totals[n] for n in placed] == sorted(totals.values(), reverse=True)


@settings(max_examples=100, deadline=None)
@given(count_documents())
def test_counts_documents_total_is_the_sum_of_the_breakdown(doc):
    check_result(doc)
    for player, result in zip(doc["players"], score(doc).to_dict()["players"], strict=True):
        expected = (3 * player.get("segments", 0) + 8 * player.get("energy_sources", 0)
                    + player.get("relics", 0) - player.get("junk", 0) + player.get("inhabitants", 0)
                    + player.get("building_bonus", 0)
                    + sum(n * {c["id"]: c["points"] for c in CARDS}[k]
                          for k, n in player.get("buildings", {}).items()))
        assert result["total"] == expected


@settings(max_examples=60, deadline=None)
@given(grid_documents())
def test_grid_documents_total_is_the_sum_of_the_breakdown(doc):
    check_result(doc)


@settings(max_examples=100, deadline=None)
@given(count_documents())
def test_tied_leaders_are_split_by_inhabitants(doc):
    result = score(doc).to_dict()
    totals = {p["name"]: p["total"] for p in result["players"]}
    inhabitants = {p["name"]: p.get("inhabitants", 0) for p in doc["players"]}
    best = max(totals.values())
    leaders = [n for n in totals if totals[n] == best]
    most = max(inhabitants[n] for n in leaders)
    assert sorted(result["winners"]) == sorted(n for n in leaders if inhabitants[n] == most)
    assert bool(result["explanation"]) == (len(set(totals.values())) < len(totals))


# --------------------------------------------------------------------------- bounds


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([("segments", 9), ("energy_sources", 4), ("relics", 64), ("junk", 64),
                        ("inhabitants", 64), ("building_bonus", 200)]),
       st.integers(-1000, 1000))
def test_a_count_is_accepted_exactly_within_its_bounds(field, value):
    key, hi = field
    doc = {"game": "reterra", "variant": "base", "players": [{"name": "A", key: value}, {"name": "B"}]}
    problems = validate(doc)
    if 0 <= value <= hi:
        assert problems == []
    else:
        assert [p.path for p in problems] == [f"players[0].{key}"]
        assert f"entre 0 et {hi}" in problems[0].message
