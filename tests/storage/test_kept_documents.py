"""The documents a save reads, kept per game by companion/storage/store.py: the same stored text
gives the very document handed out before, a new text a new one, and when more games are saved
than are kept, the game saved least recently goes first (a busy table's never does)."""

from __future__ import annotations

import json

import pytest

from companion.storage import store


@pytest.fixture
def kept(monkeypatch):
    kept: dict = {}  # what the saves keep, by game
    monkeypatch.setattr(store, "_DOCUMENTS", kept)
    monkeypatch.setattr(store, "DOCUMENTS_KEPT", 3)
    return kept


def text_of(game: int, version: int) -> str:
    player = {"name": f"g{game}", "track": version}
    return json.dumps({"game": "revive", "variant": "base", "players": [player]})


def test_the_same_text_gives_the_same_document_and_a_new_one_another(kept):
    first = store.kept_document(1, text_of(1, 0))
    assert store.kept_document(1, text_of(1, 0)) is first
    newer = store.kept_document(1, text_of(1, 1))
    assert newer is not first and newer["players"][0]["track"] == 1


def test_the_game_saved_least_recently_goes_first(kept):
    for game in (1, 2, 3):
        store.kept_document(game, text_of(game, 0))
    busy = store.kept_document(2, text_of(2, 1))  # table 2 saves again
    assert sorted(kept) == [1, 2, 3]  # a game saved again drops no other
    store.kept_document(4, text_of(4, 0))  # a fourth table: one of the others goes
    assert sorted(kept) == [2, 3, 4]  # game 1, saved least recently, went
    store.kept_document(3, text_of(3, 1))
    store.kept_document(5, text_of(5, 0))
    assert sorted(kept) == [3, 4, 5]  # then game 2; the busy table 3 stayed
    assert busy["players"][0]["track"] == 1
