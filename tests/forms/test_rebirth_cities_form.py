"""Rebirth's cities by taps (issue 24) with the Flask client: the page carries, for every city, a pad
(a button per player and influence) and "Nouvelle ville" with each size, hidden until
static/js/rebirth.js shows them, names escaped; what the pad's taps save (a tile row with its player
and influence, the placement order only where a tie needs it) is the contract's document, and back."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from test_play_rebirth import form_data, without_false

from app_helpers import autosave, create_game, error_beside, posted, stored
from bench.bench_taps import ireland_cities, scotland_cities


class Pads(HTMLParser):
    """The pads' buttons (city index -> [(player, influence, aria-label)]), the new-city sizes, and
    whether each was hidden in the page as served."""

    def __init__(self):
        super().__init__()
        self.city = -1
        self.pads: dict[int, list[tuple[str, str, str]]] = {}
        self.pad_hidden: list[bool] = []
        self.sizes: list[str] = []
        self.new_city_hidden = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if re.fullmatch(r"f-cities-\d+", a.get("id", "")):
            self.city = int(a["id"].split("-")[-1])
        if "data-tile-pad" in a:
            self.pad_hidden.append("hidden" in a)
        if "data-player" in a:
            button = (a["data-player"], a["data-influence"], a["aria-label"])
            self.pads.setdefault(self.city, []).append(button)
        if "data-new-city" in a:
            self.new_city_hidden = "hidden" in a
        if "data-new-city-size" in a:
            self.sizes.append(a["data-new-city-size"])


def pads(html: str) -> Pads:
    parser = Pads()
    parser.feed(html)
    return parser


def test_each_city_has_a_button_per_player_and_influence_hidden_without_javascript(client):
    names = ["Ana <b>", 'Zoé "Z"', "Léo & co"]
    token = create_game(client, "rebirth", "scotland", names)
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    assert "Ana <b>" not in html and 'data-player="Ana &lt;b&gt;"' in html  # escaped, never markup
    assert 'data-player="Zoé &#34;Z&#34;"' in html and "Léo &amp; co, influence 1" in html
    found = pads(html)
    assert found.pad_hidden == [True] and found.new_city_hidden is True  # JS shows them
    assert found.pads[0] == [(n, str(k), f"{n}, influence {k}") for n in names for k in range(1, 5)]
    assert found.sizes == ["1", "2", "3"]  # Écosse: no 4-space city
    ireland = create_game(client, "rebirth", "ireland", ["Aoife", "Brian"])
    assert pads(client.get(f"/g/{ireland}/").get_data(as_text=True)).sizes == ["1", "2", "3", "4"]


def test_english_pad_says_space_and_spaces(client):
    token = create_game(client, "rebirth", "ireland", ["Aoife", "Brian"])
    html = client.get(f"/g/{token}/?lang=en").get_data(as_text=True)
    assert "New city:" in html and "Add a tile: its player and its influence" in html
    assert re.findall(r'data-new-city-size="\d">([^<]*)<', html) == ["1 space", "2 spaces", "3 spaces",
                                                                      "4 spaces"]


def test_the_pads_taps_save_the_contracts_cities_and_come_back_as_fields(client, app):
    """The saves rebirth.js makes through play/fields.js: a city's size, then a tile row per tap (player and
    influence, the row added by this phone), the orders only once a tie needs them."""
    token = create_game(client, "rebirth", "scotland", ["Maëlle", "Yanis", "Inès", "Jules"])
    answer = autosave(client, token, 1, ["cities-0-tiles-1"],
                      cities__0__size=("", "3"),
                      cities__0__tiles__0__player=("", "Jules"), cities__0__tiles__0__influence=("", "2"),
                      cities__0__tiles__1__player=("", "Maëlle"), cities__0__tiles__1__influence=("", "1"))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    record = stored(app, token)
    assert record.document["cities"] == [{"size": 3, "tiles": [{"player": "Jules", "influence": 2},
                                                               {"player": "Maëlle", "influence": 1}]}]
    # The third tile completes the city with a tie (Jules 2, Yanis 2): the orders of entry come with it.
    answer = autosave(client, token, record.version, ["cities-0-tiles-2"],
                      cities__0__tiles__2__player=("", "Yanis"), cities__0__tiles__2__influence=("", "2"),
                      cities__0__tiles__0__order=("", "1"), cities__0__tiles__1__order=("", "2"),
                      cities__0__tiles__2__order=("", "3"))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    record = stored(app, token)
    assert record.status == "draft"  # the players' own fields are still blank, nothing else missing
    assert record.document["cities"] == [{"size": 3, "tiles": [
        {"player": "Jules", "influence": 2, "order": 1}, {"player": "Maëlle", "influence": 1, "order": 2},
        {"player": "Yanis", "influence": 2, "order": 3}]}]
    values = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    assert [values[f"cities-0-tiles-{t}-order"] for t in range(3)] == ["1", "2", "3"]
    assert values["cities-0-tiles-2-player"] == "Yanis" and values["cities-0-size"] == "3"

    # Orders taken away while the tie stands: stored as a draft, the tie said on the city.
    answer = autosave(client, token, record.version,
                      cities__0__tiles__0__order=("1", ""), cities__0__tiles__1__order=("2", ""),
                      cities__0__tiles__2__order=("3", ""))
    assert answer.status_code == 200
    record = stored(app, token)
    assert all("order" not in t for t in record.document["cities"][0]["tiles"])
    message = error_beside(client.get(f"/g/{token}/").get_data(as_text=True), "cities-0")
    assert "égalité d'influence entre Yanis et Jules (2)" in message


def test_a_tile_added_on_two_phones_at_the_same_row_is_two_tiles(client, app):
    """Both phones tap a tile into the city's second row: the second save's row goes after the first's."""
    token = create_game(client, "rebirth", "ireland", ["Aoife", "Brian", "Cliona"])
    assert autosave(client, token, 1, cities__0__size=("", "4"), cities__0__tiles__0__player=("", "Aoife"),
                    cities__0__tiles__0__influence=("", "3")).status_code == 200
    version = stored(app, token).version
    for player in ("Brian", "Cliona"):  # both from the same version, both into row 1
        answer = autosave(client, token, version, ["cities-0-tiles-1"],
                          cities__0__tiles__1__player=("", player), cities__0__tiles__1__influence=("", "2"))
        assert answer.status_code == 200, answer.get_data(as_text=True)
    assert [t["player"] for t in stored(app, token).document["cities"][0]["tiles"]] == ["Aoife", "Brian",
                                                                                       "Cliona"]


@pytest.mark.parametrize("make", [scotland_cities, ireland_cities], ids=["scotland", "ireland"])
def test_the_issues_games_round_trip_without_javascript(client, app, make):
    """Issue 24's two end states posted by the no-JS form (every field, as the fields stand) are
    stored as they are, scored; the page shows them back, the order only on the tied city's tiles,
    and posting it unchanged writes nothing."""
    document = make()
    token = create_game(client, "rebirth", document["variant"], [p["name"] for p in document["players"]])
    response = client.post(f"/g/{token}/", data=form_data(document, 1, "finish"))
    assert response.status_code == 302 and response.headers["Location"] == f"/g/{token}/resultats"
    record = stored(app, token)
    assert record.status == "scored" and record.document == without_false(document)
    values = posted(client.get(f"/g/{token}/").get_data(as_text=True))
    orders = {(c, t): values[f"cities-{c}-tiles-{t}-order"]
              for c, city in enumerate(document["cities"]) for t in range(len(city["tiles"]))}
    assert {k: v for k, v in orders.items() if v} == {(2, t): str(t + 1) for t in range(len(
        document["cities"][2]["tiles"]))}
    values["action"] = "save"
    assert client.post(f"/g/{token}/", data=values).status_code == 302
    assert stored(app, token).version == record.version
