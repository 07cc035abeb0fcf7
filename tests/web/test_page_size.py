"""The edit page's weight (issue 33). Its HTML is deterministic for a given game (names, values and
token lengths fixed), so its size is held here: a 4-player Revive + Call of the Abyss game (the game
of bench/bench_pages.py) within 70 KB (139 KB before: every player's hints said again, an empty
error and warning slot per field), and each Rebirth Ireland city within half of what it added before
(14.3 KB: its tile pad's 16 buttons, its tiles' hints and slots). The figures: docs/benchmarks.md,
`bench/bench_page_size.py`."""

from __future__ import annotations

from app_helpers import holding_files
from bench.bench_page_size import ireland_token, revive_page

REVIVE_MAX = 70_000  # bytes of HTML, the 4-player Revive + Abyss game
CITY_BEFORE = 14_300  # bytes one more Ireland city added to the page before issue 33


def test_a_four_player_revive_abyss_page_is_within_70_kb(app):
    page = revive_page(app)
    assert len(page) <= REVIVE_MAX, f"{len(page)} bytes"
    html = page.decode()
    for name in ("players-3-track", "players-3-artifact_card-2-count", "players-3-devotion"):
        assert f'name="{name}"' in html  # the whole game, its field names unchanged
    # each hint once: the first player's, the others refer to it
    assert html.count("les points atteints sur la piste de score") == 1
    assert html.count('aria-describedby="h-track"') == 4


def test_each_ireland_city_adds_at_most_half_what_it_did(app, client):
    holding_files(client, f"/g/{ireland_token(app, 1)}/")  # a later visit: the page alone
    sizes = {n: len(client.get(f"/g/{ireland_token(app, n)}/").get_data()) for n in (0, 1, 6, 12)}
    per_city = (sizes[12] - sizes[0]) / 12
    assert per_city <= CITY_BEFORE / 2, sizes
    assert sizes[1] - sizes[0] <= CITY_BEFORE / 2 and (sizes[12] - sizes[6]) / 6 <= CITY_BEFORE / 2, sizes
    page = client.get(f"/g/{ireland_token(app, 12)}/").get_data(as_text=True)
    assert page.count("data-tile-pad") == 1  # written once: static/js/rebirth.js copies it into each city
    assert 'name="cities-11-tiles-0-player"' in page
