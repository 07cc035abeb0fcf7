"""Every page a player fills is readable by a screen reader: each field has a label, and every
description it points to exists."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from app_helpers import create_game
from companion import games

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


DANGLING = """() => [...document.querySelectorAll('[aria-describedby]')].flatMap(el =>
    el.getAttribute('aria-describedby').split(/\\s+/).filter(id => !document.getElementById(id))
      .map(id => el.name + ' -> ' + id))"""


@pytest.mark.browser
def test_on_a_phone_item_hints_show_once_and_the_save_sentence_is_true(phone, phone_without_js):
    """With JavaScript: the autosave sentence, each tile field's hint once above the tiles, and rows
    added by JS still point at descriptions that exist. Without: the sentence saying nothing is
    saved before « Enregistrer »."""
    from playwright.sync_api import expect

    from browser_helpers import new_game, screenshot

    url = new_game(phone, "rebirth", "ireland", ["Aoife", "Brian"])
    expect(phone.locator(".js-only").first).to_be_visible()
    expect(phone.locator(".nojs-only")).to_be_hidden()
    order = phone.locator("#f-cities li", has_text="Ordre de pose")
    expect(order).to_have_count(1)
    expect(order).to_be_hidden()  # a long hint is folded behind "?": one tap shows it
    phone.locator("#f-cities .fold-items > summary").first.tap()
    expect(order).to_be_visible()
    expect(order).to_have_text("Ordre de pose : facultatif : 1 = posée en premier ; utile en cas d'égalité")
    pad = phone.locator("#f-cities-0 [data-tile-pad]")  # tiles by taps on the pad (static/js/rebirth.js)
    pad.locator('button[data-player="Aoife"][data-influence="1"]').tap()
    pad.locator('button[data-player="Brian"][data-influence="2"]').tap()  # a second tile row
    phone.locator('[data-new-city-size="2"]').tap()  # a second city
    expect(phone.locator('[name="cities-1-tiles-0-influence"]')).to_have_count(1)
    expect(phone.locator("#f-cities li", has_text="Ordre de pose")).to_have_count(2)  # once per city
    # every tile's influence, in every city, is described by the one hint said above the first tiles
    for name in ("cities-0-tiles-0-influence", "cities-0-tiles-1-influence", "cities-1-tiles-0-influence"):
        described = phone.locator(f'[name="{name}"]').get_attribute("aria-describedby")
        assert described == "h-cities-tiles-influence"
    expect(phone.locator("#f-cities-0 .fold-items #h-cities-tiles-influence")).to_have_count(1)
    assert phone.evaluate(DANGLING) == []
    screenshot(phone, "item-hints-rebirth")

    page = phone_without_js
    page.goto(url)
    expect(page.locator(".nojs-only")).to_be_visible()
    expect(page.locator(".nojs-only")).to_contain_text("Rien n'est enregistré avant « Enregistrer »")
    expect(page.locator(".js-only").first).to_be_hidden()
    screenshot(page, "edit-without-js")
