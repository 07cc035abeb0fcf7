"""Pages kept whole between two saves (issue 23): the results and read-only pages are drawn once
per version, language and address (companion/views/results.py), the edit page once per record,
shape and language (companion/views/edit_page.py); a new version, another language or another
game is never served a page kept for something else."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import template_rendered

from app_helpers import create_game
from companion.views import edit_page
from companion.views import results as play

FINISHED = {"version": "1", "card_mode": "shared", "players-0-track": "40", "players-1-track": "12"}


@pytest.fixture(autouse=True)
def empty_caches():
    play.SHOWN.clear()
    edit_page.SKELETONS.clear()
    yield
    play.SHOWN.clear()
    edit_page.SKELETONS.clear()


@pytest.fixture
def drawn(app):
    """The templates rendered, by name, while the test runs."""
    names: list[str] = []

    def record(sender, template, context, **extra):
        names.append(template.name)

    template_rendered.connect(record, app)
    yield names
    template_rendered.disconnect(record, app)


def scored(client, names=("Maëlle", "Yanis")) -> str:
    token = create_game(client, "revive", "base", list(names), ["#3d8b4f", "#7b4ea3"])
    assert client.post(f"/g/{token}/save", data=FINISHED).status_code == 200
    return token


def text(client, url: str, **headers) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.status_code
    return unescape(response.get_data(as_text=True))


def test_results_are_drawn_once_per_version_and_language(client, drawn):
    token = scored(client)
    first = text(client, f"/g/{token}/resultats")
    assert drawn.count("play/results.html") == 1
    assert text(client, f"/g/{token}/resultats") == first
    assert drawn.count("play/results.html") == 1  # the second reading: nothing drawn
    english = text(client, f"/g/{token}/resultats", **{"Accept-Language": "en"})
    assert "Maëlle wins" in english and "gagne" not in english
    assert drawn.count("play/results.html") == 2
    saved = client.post(f"/g/{token}/save", data=FINISHED | {"version": "2", "players-1-track": "70"})
    assert saved.status_code == 200
    after = text(client, f"/g/{token}/resultats")
    assert "Yanis gagne" in after and "Maëlle gagne" not in after
    assert drawn.count("play/results.html") == 3


def test_a_kept_page_is_never_another_games(client):
    one = scored(client, ("Maëlle", "Yanis"))
    two = scored(client, ("Zoé", "Léo"))
    for _ in range(2):  # drawn, then kept
        a, b = text(client, f"/g/{one}/resultats"), text(client, f"/g/{two}/resultats")
        assert "Maëlle" in a and one in a and two not in a and "Zoé" not in a
        assert "Zoé" in b and two in b and one not in b and "Maëlle" not in b
        a, b = text(client, f"/g/{one}/"), text(client, f"/g/{two}/")
        assert "Maëlle" in a and one in a and two not in a and "Zoé" not in a
        assert "Zoé" in b and two in b and one not in b and "Maëlle" not in b


def test_a_flashed_message_is_shown_once_on_a_kept_page(client):
    token = scored(client)
    text(client, f"/g/{token}/")  # kept
    assert client.post(f"/g/{token}/", data=FINISHED | {"version": "2", "action": "save"}).status_code == 302
    assert "Enregistré." in text(client, f"/g/{token}/")
    assert "Enregistré." not in text(client, f"/g/{token}/")


def test_the_edit_page_keeps_its_skeleton_across_saves(client, drawn):
    token = scored(client)
    text(client, f"/g/{token}/")
    assert drawn.count("play/edit.html") == 1 and len(edit_page.SKELETONS) == 1
    for version, track in ((2, "41"), (3, "44")):
        data = FINISHED | {"version": str(version), "players-0-track": track}
        assert client.post(f"/g/{token}/save", data=data).status_code == 200
        page = text(client, f"/g/{token}/")
        assert re.search(rf'name="players-0-track" value="{track}"', page)
        assert re.search(rf'name="version" type="hidden" value="{version + 1}"', page)
    assert drawn.count("play/edit.html") == 1  # the same shape: filled in, not drawn again
