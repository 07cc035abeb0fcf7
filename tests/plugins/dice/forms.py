"""Dice's screens, as `companion/forms/<game>.py` holds a game's: one player's fields, named by their
contract keys, and the `ADAPTER` the shared machinery reads (companion/forms/adapter.py). The save
reads these fields' spec (companion/forms/shape.py); the bounds are the engine's."""

from __future__ import annotations

from wtforms import Form

from companion.forms.adapter import Adapter
from companion.forms.fields import Count

from .rules import SIXES_MAX

PALETTE = [("#111111", "noir"), ("#eeeeee", "blanc")]


def player_form(variant: str) -> type[Form]:
    class Player(Form):
        # the page lets more through than the engine (0-100): the engine's message comes back beside it
        points = Count("Points", "la somme des dés", hi=1000)
        sixes = Count("Six", "les six obtenus", hi=SIXES_MAX)

    return Player


ADAPTER = Adapter(palette=PALETTE, player_form=player_form)
