"""The category mix printed on the sheet (issue 14): the results page's chart, under the score
table, and a 4-player sheet still one A4 page with it."""

from __future__ import annotations

import pytest
from played import HOSTILE
from test_pdf import (
    DAY,
    _ireland_four_long_names,
    _reterra_four_grids,
    read,
    squash,
    warnings_of,
)

from companion import games, pdf
from document_helpers import load_example


def _revive_four() -> dict:
    """Call of the Abyss, four hostile names, points in several categories."""
    return {"game": "revive", "variant": "abyss", "players": [
        {"name": n, "track": 40 + i, "devotion": 5 * i, "scyphoz": i, "great_locations": [5, 3],
         "two_tokens": i, "progress": 4} for i, n in enumerate(HOSTILE[:4])]}


@pytest.mark.parametrize("make", [_ireland_four_long_names, _reterra_four_grids, _revive_four],
                         ids=["rebirth", "reterra", "revive"])
def test_four_player_sheet_prints_the_category_mix_on_one_page(make, weasy_log):
    doc = make()
    result = games.score(doc)
    data = pdf.render_sheet(doc, colours=["rouge", "bleu", "vert", "#abcdef"], date=DAY)
    pages, text = read(data)
    assert pages == 1
    assert squash("D'où viennent les points") in text and squash("Répartition :") in text
    for row in games.score_pad(result):
        assert squash(row.label) in text
    assert warnings_of(weasy_log) == []


def test_the_mix_bars_are_the_pad_numbers():
    """Each bar's accessible label says the points of each category, as the table does."""
    result = games.score(load_example("rebirth-scotland.json"))
    mix = pdf._mix([], result)
    for bar, p in zip(mix["bars"], result.players, strict=True):
        assert bar.name == p.name
        for line in p.breakdown:
            if line.points:
                label = games.GAMES["rebirth"].category(line.key).label_for("scotland")
                assert f"{label} {pdf.number(line.points)}" in str(bar.svg)
