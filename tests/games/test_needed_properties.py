"""What would I have needed? (issue 31), over generated documents of all five variants and both Reterra
editions: every suggestion, applied to its document by its paths, makes that player win (or share) as
claimed, and no smaller change of the searched space (docs/rulings.md: one lever within its bounds, or
two for at most `PAIR_UNITS` units) does it, found by trying every one of them."""

from __future__ import annotations

import copy
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from test_needed import parse
from test_rebirth_properties import cities
from test_reterra_properties import grids

from companion import games
from companion.games import needed

NAMES = ("Ana", "Ben", "Cléo", "Dan")
EXAMPLES = settings(max_examples=25, deadline=None)
CARDS = [{"id": "observatoire", "name": "Observatoire", "points": 4},
         {"id": "puits", "name": "Puits", "points": 0},
         {"id": "cinema", "name": "Cinéma", "points": 7}]


def some(draw, player: dict, optional: dict) -> dict:
    for key, strategy in optional.items():
        if draw(st.booleans()):
            player[key] = draw(strategy)
    return player


@st.composite
def rebirth(draw, variant: str) -> dict:
    names = NAMES[:draw(st.integers(2, 4))]
    players = []
    for name in names:
        optional = {"track": st.integers(0, 90), "castles": st.integers(0, 5), "ports": st.integers(0, 6),
                    "incomplete_icons": st.integers(0, 4)}
        if variant == "scotland":
            optional["gifts"] = st.integers(0, 3)
            optional["missions"] = st.lists(st.fixed_dictionaries({"points": st.integers(1, 9),
                                                                   "achieved": st.booleans()}), max_size=5)
        else:
            optional["tara_adjacent"] = st.integers(0, 8)
            optional["towers"] = st.lists(st.just(13), max_size=2)
        players.append(some(draw, {"name": name}, optional))
    doc = {"game": "rebirth", "variant": variant, "players": players,
           "cities": draw(cities(names, variant)) if draw(st.booleans()) else []}
    for key in ("edinburgh", "stirling") if variant == "scotland" else ("blarney",):
        doc[key] = draw(st.none() | st.sampled_from(names))
    for i, name in enumerate(names):  # a holder holds at least as many castles as named
        held = sum(doc.get(key) == name for key in ("edinburgh", "stirling", "blarney"))
        if held:
            players[i]["castles"] = max(players[i].get("castles", 0), held)
    return doc


@st.composite
def reterra(draw) -> dict:
    players = []
    cards = draw(st.lists(st.sampled_from(CARDS), unique_by=lambda c: c["id"], max_size=3))
    for name in NAMES[:draw(st.integers(2, 4))]:
        player = {"name": name}
        if draw(st.integers(0, 3)) == 0:
            player["grid"] = draw(grids())
        else:
            some(draw, player, {"segments": st.integers(0, 4), "energy_sources": st.integers(0, 2),
                                "relics": st.integers(0, 12), "junk": st.integers(0, 4),
                                "inhabitants": st.integers(0, 8)})
        built = draw(st.dictionaries(st.sampled_from([c["id"] for c in cards]), st.integers(0, 3))) \
            if cards else {}
        if built:
            player["buildings"] = built
        some(draw, player, {"building_bonus": st.integers(0, 20)})
        players.append(player)
    return {"game": "reterra", "variant": "base", "buildings": cards, "players": players}


@st.composite
def revive(draw, variant: str) -> dict:
    players = []
    names = NAMES[:draw(st.integers(1, 4))]
    token = draw(st.none() | st.sampled_from(names))
    for name in names:
        optional = {"track": st.integers(0, 90), "two_tokens": st.integers(0, 4),
                    "machine_progress": st.integers(0, 12),
                    "resources": st.fixed_dictionaries({}, optional={"gears": st.integers(0, 6),
                                                                     "books": st.integers(0, 6)}),
                    "card_bonus": st.lists(st.fixed_dictionaries({"unlocked": st.booleans(),
                                                                  "cards": st.integers(0, 4)}),
                                           min_size=3, max_size=3)}
        if variant == "abyss":
            optional |= {"scyphoz": st.integers(0, 3), "devotion": st.integers(0, 9)}
        player = some(draw, {"name": name}, optional)
        if name == token:
            player["four_token"] = True
        players.append(player)
    return {"game": "revive", "variant": variant, "players": players}


def outcome(doc: dict, seat: int, edition: str | None) -> str | None:
    """"wins", "shares", or None (not a winner, or a document the contract refuses)."""
    try:
        result = games.score(doc, edition=edition)
    except games.InvalidDocument:
        return None
    if result.players[seat].name not in result.winners:
        return None
    return "wins" if len(result.winners) == 1 else "shares"


def check(doc: dict, edition: str | None = None) -> None:
    before = copy.deepcopy(doc)
    result = games.score(doc, edition=edition)
    needs = games.needs(doc, result, edition=edition)
    assert doc == before  # the document given is never changed
    alone = len(result.players) == 1  # a game played alone has no winner: nobody is searched
    losers = [] if alone else [p.name for p in result.players if p.name not in result.winners]
    assert [n.player for n in needs] == losers
    game = games.GAMES[doc["game"]]
    for need in needs:
        seat = need.seat
        assert result.players[seat].name == need.player
        # every suggestion, applied by its paths, gives what it claims
        for entry in need.to_dicts():
            if not entry["changes"]:
                assert entry["reason"] and not need.options
                continue
            changed = copy.deepcopy(doc)
            for change in entry["changes"]:
                needed._set(changed, parse(change["path"]), change["to"])
            assert outcome(changed, seat, edition) == entry["outcome"], entry
            assert needed.line(need).startswith(f"{need.player} : ")
        # nothing smaller in the searched space wins: tried one by one
        smallest = (need.options[0].units, len(need.options[0].moves)) if need.options else None
        levers = [lever for lever in games.hooks_of(doc["game"]).levers(doc, seat, game.edition(edition))
                  if needed.room(doc, lever) > 0]
        assert (need.reason == needed.NO_LEVER) == (not levers)

        def smaller(units: int, fields: int, smallest=smallest) -> bool:
            return smallest is None or (units, fields) < smallest

        for lever in levers:
            for units in range(1, needed.room(doc, lever) + 1):
                if not smaller(units, 1):
                    break
                candidate, _changes = needed.apply(doc, [(lever, units)])
                assert outcome(candidate, seat, edition) is None, (lever.path, units)
        for a, b in itertools.combinations(levers, 2):
            for ua in range(1, needed.room(doc, a) + 1):
                for ub in range(1, needed.room(doc, b) + 1):
                    if ua + ub > needed.PAIR_UNITS or not smaller(ua + ub, 2):
                        break
                    candidate, _changes = needed.apply(doc, [(a, ua), (b, ub)])
                    assert outcome(candidate, seat, edition) is None, (a.path, ua, b.path, ub)


@EXAMPLES
@given(rebirth("scotland"))
def test_rebirth_scotland(doc):
    check(doc)


@EXAMPLES
@given(rebirth("ireland"))
def test_rebirth_ireland(doc):
    check(doc)


@EXAMPLES
@given(reterra())
def test_reterra_french_rules(doc):
    check(doc)


@EXAMPLES
@given(reterra())
def test_reterra_english_edition(doc):
    check(doc, "en")


@EXAMPLES
@given(revive("base"))
def test_revive_base(doc):
    check(doc)


@EXAMPLES
@given(revive("abyss"))
def test_revive_abyss(doc):
    check(doc)
