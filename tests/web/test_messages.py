"""Messages are written for a player: never a contract key ("ses châteaux (castles)") nor developer
text ("(reçu 9)"). Every field of every game's screens gets bad values, and random pairs of fields
random values (breaking the rules between fields), through the autosave; every message is read."""

from __future__ import annotations

import json
import random
import re

import pytest

from app_helpers import create_game
from companion import games

VARIANTS = [(g.id, v) for g in games.GAMES.values() for v in g.variants]
BAD = ("-3", "999999", "abc", "4", "31", "2")
# Contract keys that are also plain French words, fine in a sentence.
FRENCH = {"points", "influence", "ports", "base", "abyss", "variant", "name", "mode", "order", "size",
          "terrain"}


def field_names(html: str) -> list[str]:
    return sorted(set(re.findall(r'name="([a-z][\w-]*)"', html)) - {"csrf_token", "version", "base_values",
                                                                     "action", "add_row", "once"})


def contract_keys(names) -> set[str]:
    keys = set()
    for name in names:
        keys.update(part for part in name.split("-") if not part.isdigit())
    return keys


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_no_message_shows_a_contract_key_or_developer_text(client, game, variant):
    names = ["Éloïse", "Jules", "Inès"]
    token = create_game(client, game, variant, names)
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    fields = field_names(html)
    keys = contract_keys(fields) - FRENCH
    messages: set[str] = set()

    def send(changes: dict) -> None:
        answer = client.post(f"/g/{token}/save", data={"version": "1", "changes": json.dumps(
            {name: ["", value] for name, value in changes.items()})}).get_json()
        for bucket in answer.get("errors", {}).values():
            messages.update(bucket)
        messages.update(answer.get("general", []))

    for name in fields:
        send({name: BAD[len(name) % 3]})
    for value in BAD[:3]:  # every field at once, each bad value
        send(dict.fromkeys(fields, value))
    rng = random.Random(5)
    for _ in range(80):
        send({name: rng.choice(BAD[3:] + tuple(names) + ("y", "1", "3")) for name in rng.sample(fields, 4)})
    assert messages
    for message in messages:
        assert "reçu" not in message, message
        words = set(re.findall(r"[A-Za-z_]+", message))
        assert not words & keys, (message, words & keys)


@pytest.mark.parametrize("game", list(games.GAMES))
def test_new_game_page_messages_are_for_a_player(client, game):
    from html import unescape

    spec = games.GAMES[game]
    variant = next(iter(spec.variants))
    tries = [{}, {"players-0-name": "Éloïse"}, {"players-0-name": "Éloïse", "players-1-name": "éloïse "},
             {"players-0-name": "x" * 41, "players-1-name": "Jules"},
             {"players-0-name": "Éloïse", "players-1-name": "Jules", "players-0-colour": "#000000",
              "players-1-colour": "#000000"}]
    seen = []
    for data in tries:
        html = unescape(client.post("/nouvelle", data={"game": game, "variant": variant, **data})
                        .get_data(as_text=True))
        seen += re.findall(r'<p class="field-error"[^>]*>([^<]+)</p>', html)
        seen += re.findall(r'<p class="flash flash-error"[^>]*>([^<]+)</p>', html)
    assert seen
    for message in seen:
        assert "reçu" not in message and "players" not in message and "name" not in message, message
