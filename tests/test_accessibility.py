"""Every page a player fills is readable by a screen reader: each field has a label, and every
description it points to exists."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from companion import games
from helpers import create_game

VARIANTS = [(g, v) for g in games.GAMES for v in games.GAMES[g].variants]


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.described: list[tuple[str, str]] = []
        self.labelled: set[str] = set()
        self.fields: list[str] = []
        self.label_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if a.get("aria-describedby"):
            name = a.get("name") or a.get("id", tag)
            self.described += [(name, ref) for ref in a["aria-describedby"].split()]
        if tag == "label":
            self.label_depth += 1
            if a.get("for"):
                self.labelled.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type") not in ("hidden", "submit", "button"):
            if self.label_depth or a.get("aria-label") or a.get("aria-labelledby"):
                self.labelled.add(a.get("id", ""))
            self.fields.append(a.get("id", a.get("name", "?")))

    def handle_endtag(self, tag):
        if tag == "label":
            self.label_depth -= 1


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_every_field_is_labelled_and_every_description_exists(client, game, variant):
    token = create_game(client, game, variant, ["Maëlle", "Yanis", "Inès"])
    urls = [f"/g/{token}/", "/nouvelle?game=" + game]
    if game == "rebirth":
        urls += [f"/g/{token}/outils/ville", f"/g/{token}/outils/chateau"]
    for url in urls:
        page = Page()
        page.feed(client.get(url).get_data(as_text=True))
        assert page.fields
        missing = [(field, ref) for field, ref in page.described if ref not in page.ids]
        assert missing == [], f"{url}: aria-describedby points nowhere: {missing[:5]}"
        unlabelled = [f for f in page.fields if f not in page.labelled]
        assert unlabelled == [], f"{url}: fields without a label: {unlabelled[:5]}"
