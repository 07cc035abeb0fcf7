"""The new-game form: the variant, one row per seat (name, colour), and the table's own colour
names where a game asks for them (`Adapter.colour_names`)."""

from __future__ import annotations

from functools import cache

from flask_wtf import FlaskForm
from wtforms import Form
from wtforms.fields import FormField, HiddenField, RadioField, SelectField, StringField

from ..games.i18n import N_
from .binding import AppForm
from .fields import Names, Seats, Text


class PlayerRow(Form):
    name = Text(N_("Nom"), render_kw={"autocomplete": "off", "list": "noms-connus", "maxlength": 40,
                                         "autocapitalize": "words", "enterkeyhint": "next"})
    colour = SelectField(N_("Couleur"), choices=[], validate_choice=False)


COLOUR_NAMES_MAX = 3


@cache
def new_game_form(max_players: int) -> type[FlaskForm]:
    return type(f"NewGame{max_players}", (AppForm,), {
        "game": HiddenField(),
        "once": HiddenField(),  # the form's one-time key: posted twice, it still makes one game
        "variant": RadioField(N_("Variante"), choices=[], validate_choice=False),
        "players": Seats(FormField(PlayerRow), max_players),
        # the table's own names for a game's colours (Revive), asked once; unused by other games
        "colour_names": Names(StringField(render_kw={"autocomplete": "off", "maxlength": 20,
                                                     "enterkeyhint": "next"}),
                              min_entries=COLOUR_NAMES_MAX, max_entries=COLOUR_NAMES_MAX),
    })
