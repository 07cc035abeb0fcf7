"""The "Joueurs" page's form (/g/<token>/joueurs): one row per player as the game stands (name,
colour, seat, remove), then one row to add a player. The page is rendered from the names it was
read with (`roster`): posted after the players changed elsewhere, it changes nothing."""

from __future__ import annotations

from functools import cache

from wtforms import Form
from wtforms.fields import BooleanField, FormField, HiddenField, SelectField

from ..games.i18n import N_
from .binding import AppForm
from .fields import Seats, Text

_NAME = {"autocomplete": "off", "list": "noms-connus", "maxlength": 40, "autocapitalize": "words",
         "enterkeyhint": "next"}


class PlayerSeat(Form):
    name = Text(N_("Nom"), render_kw=_NAME)
    colour = SelectField(N_("Couleur"), choices=[], validate_choice=False)
    place = SelectField(N_("Place"), choices=[], validate_choice=False)
    remove = BooleanField(N_("Retirer ce joueur"))


@cache
def players_form(n: int) -> type[AppForm]:
    """The form of a game with `n` players."""
    return type(f"Players{n}", (AppForm,), {
        "roster": HiddenField(),  # the names, in seat order, the page was rendered with (JSON)
        "players": Seats(FormField(PlayerSeat), n),
        "new_name": Text(N_("Nom du joueur ajouté"), render_kw=_NAME),
        "new_colour": SelectField(N_("Sa couleur"), choices=[], validate_choice=False),
    })
