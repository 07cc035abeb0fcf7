"""Reterra's screens: the building cards in play, and each player's community, counted or drawn.

Field names are the contract keys (docs/contract.md, Reterra) where the contract has a flat value;
bounds come from the engine (`companion/games/reterra.py`), so the form and the engine never disagree.
Three things do not map one to one; `companion/games/reterra_fields.py` translates them (pure):

- **Counts or drawing** (`mode`, one per player): "compter sur le plateau" gives the five counts;
  "dessiner la communauté" gives `grid`, and the counts are then left out (the contract forbids both).
- **The drawing without JavaScript** (`grid`): 8 text rows of letters F E D P R for the terrain, and
  the marked squares written like a spreadsheet: columns A-H from left to right, rows 1-8 from top to
  bottom ("A1 C4"). Sources are tiles: any square of the tile names it. `static/js/board.js` turns
  these inputs into the 8×8 board and writes them back on every tap, so the form posts the same
  fields with or without JavaScript.
- **Buildings**: the table lists the cards in play (name + points; the id is derived from the name);
  each player gives how many of each card they built in `built`, one stepper per card row, by the
  row's index. The contract's `buildings` {id: count} is built from both.

Coordinates in the engine's messages ("la case [5, 5]") are turned into this notation by
`readable(message)`, which the templates and board.js both apply.
"""

from __future__ import annotations

from wtforms import Form
from wtforms.fields import FieldList, HiddenField, StringField
from wtforms.validators import StopValidation

from ..games import reterra as engine
from ..games.i18n import N_, _
from ..games.reterra_fields import (  # noqa: F401 (the notation, read here by the tests and templates)
    CARDS_MAX,
    COUNTS,
    GRID,
    SIZE,
    keyed,
    parse_squares,
    readable,
    row_companion,
    row_keys,
    settle,
    slug,
    stored_count,
    terrain_row,
    to_document,
    to_form,
    write_squares,
)
from .fields import Choice, Cloned, Count, Group, Rows, Text, translated

PALETTE = [  # Reterra has no player colours: these only tell the players apart on screen
    ("#2f7d4f", "vert"),
    ("#2f6fb3", "bleu"),
    ("#c8372d", "rouge"),
    ("#d39a12", "jaune"),
    ("#7b4ea3", "violet"),
    ("#3b3b3b", "noir"),
]

MODES = [(COUNTS, N_("Compter sur le plateau")), (GRID, N_("Dessiner la communauté"))]


# --------------------------------------------------------------------------- fields


class Squares(Cloned, StringField):
    """Marked squares (or tiles) in the "A1 C4" notation. `data` is the notation as a person reads it
    (normalised when it parses, as typed when it does not); `pairs()` the contract's [row, col] list."""

    def __init__(self, label=None, hint="", tiles: bool = False, **kwargs):
        self.hint = translated(hint)
        self.tiles = tiles
        self.show_if = self.copy_to = None
        self.squares: list[tuple[int, int]] = []
        render_kw = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false",
                     "class": "squares", "placeholder": _("ex. A1 C4")}
        render_kw.update(kwargs.pop("render_kw", None) or {})
        super().__init__(translated(label), description=translated(hint), render_kw=render_kw, **kwargs)


    def process_data(self, value):
        # a contract list, or its notation already written (`to_form`)
        self.data = write_squares(value, self.tiles) if isinstance(value, list) else \
            value if isinstance(value, str) else ""
        self.squares = parse_squares(self.data, self.tiles)

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        self.data = valuelist[0].strip()
        self.squares = []
        self.squares = parse_squares(self.data, self.tiles)  # ValueError -> message beside the field
        self.data = write_squares(self.squares, self.tiles)

    def _value(self):
        return self.raw_data[0] if self.raw_data else (self.data or "")

    def pre_validate(self, form):
        if self.process_errors:
            raise StopValidation()

    def pairs(self) -> list[list[int]]:
        return [[r, c] for r, c in self.squares]


class TerrainRow(Cloned, StringField):
    """One row of the community: 8 letters F E D P R (spaces ignored, any case)."""

    def __init__(self, label=None, **kwargs):
        self.hint = ""
        self.show_if = self.copy_to = None
        render_kw = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false",
                     "maxlength": 24, "class": "terrain-row"}
        super().__init__(label, render_kw=render_kw, **kwargs)

    def process_data(self, value):
        self.data = value if isinstance(value, str) else ""

    def process_formdata(self, valuelist):
        if valuelist:
            self.data = terrain_row(valuelist[0])

    def _value(self):
        return self.data or ""


# --------------------------------------------------------------------------- forms


class Grid(Form):
    terrain = FieldList(TerrainRow(), min_entries=SIZE, max_entries=SIZE)
    sources = Squares(N_("Sources d'énergie"), N_("une case de chaque tuile portant une source (ses 4 cases "
                                              "sont de l'eau) ; seules les 4 tuiles du centre rapportent "
                                              "8"), tiles=True)
    relics = Squares(N_("Reliques imprimées"), N_("les symboles Relique des tuiles, couverts ou non"))
    relic_tokens = Squares(N_("Jetons Relique"), N_("posés par un pouvoir de bâtiment"))
    junk = Squares(N_("Bric-à-brac"), N_("chaque jeton Bric-à-brac, sur la case de la relique qu'il couvre"))
    inhabitants = Squares(N_("Habitants"), N_("chaque pion Habitant"))

    @staticmethod
    def readable(message: str) -> str:
        return readable(message)


def player_form(variant: str) -> type[Form]:
    bounds = engine.COUNT_BOUNDS

    class Player(Form):
        ui_only = ("mode", "grid", "built")
        mode = Choice(N_("Communauté"), N_("comptée sur la table, ou dessinée ici (l'appli compte)"),
                      choices=MODES, default=COUNTS, local=True)
        segments = Count(N_("Segments de 7 cases ou plus"),
                         N_("étendues ininterrompues de cases du même type"),
                         hi=bounds["segments"])
        energy_sources = Count(N_("Sources d'énergie entourées"),
                               N_("entièrement entourées de tuiles (pas en bordure)"),
                               hi=bounds["energy_sources"])
        relics = Count(N_("Reliques visibles"),
                       N_("symboles et jetons Relique non couverts par du bric-à-brac"),
                       hi=bounds["relics"])
        junk = Count(N_("Jetons Bric-à-brac"), N_("posés sur vos reliques par vos adversaires : −1 chacun"),
                     hi=bounds["junk"])
        inhabitants = Count(N_("Habitants"), N_("pions Habitant dans votre communauté"),
                            hi=bounds["inhabitants"])
        grid = Group(Grid, N_("Communauté dessinée"), N_("8 lignes de 8 cases, de haut en bas"))
        built = FieldList(Count(N_("Construits"), N_("tuiles de ce bâtiment dans votre communauté"),
                                hi=engine.BUILDING_MAX), min_entries=CARDS_MAX, max_entries=CARDS_MAX)
        building_bonus = Count(N_("Pouvoirs de bâtiment"), N_("points de fin de partie donnés par les "
                                                         "pouvoirs (ex. observatoire, face violette)"),
                               hi=engine.BONUS_MAX)

    return Player


class Card(Form):
    id = HiddenField()
    name = Text(N_("Nom de la carte"), description=N_("tel qu'imprimé sur la carte de bâtiment"),
                       render_kw={"autocomplete": "off", "maxlength": engine.NAME_MAX,
                                  "autocapitalize": "sentences", "list": "cartes-connues"})
    points = Count(N_("Points"), N_("la valeur de la face en jeu (violette ou orange)"),
                   hi=engine.CARD_POINTS_MAX)



def table_form(variant: str) -> type[Form]:
    class Table(Form):
        buildings = Rows(Group(Card), N_("Cartes de bâtiment en jeu"),
                          N_("chaque carte posée au bas du plateau, avec la valeur de sa face visible"),
                          max_entries=CARDS_MAX, item_label=N_("Carte"), add_label=N_("Ajouter une carte"))

    return Table


# --------------------------------------------------------------------------- document <-> form


def field_labels(form, out: dict[str, str]) -> None:
    """A player's building counts named by their card ("Maëlle · Forge"), as the page shows them,
    rather than by position: the error summary and a conflict's list link to them."""
    cards = [(entry.form.name.data or "").strip() for entry in form.buildings.entries]
    for entry in form.players.entries:
        who = out.get(entry.name, "")
        out[entry.form.built.name] = f"{who} · {_('Bâtiments construits')}"
        for k, f in enumerate(entry.form.built.entries):
            card = (cards[k] if k < len(cards) else "") or f"{_('Carte')} {k + 1}"
            out[f.name] = f"{who} · {card}"


# What this game gives the shared form machinery (companion/forms/adapter.py: a misspelt hook fails here).
from .adapter import Adapter  # noqa: E402 - kept beside the declaration, at the end of the file

ADAPTER = Adapter(palette=PALETTE, player_form=player_form, table_form=table_form, to_form=to_form,
                  to_document=to_document, readable=readable, field_labels=field_labels, row_keys=row_keys,
                  row_companion=row_companion, keyed=keyed, stored_count=stored_count, settle=settle,
                  # its page reads values itself (a card's name labels its counts): never from a skeleton
                  page_skeleton=False)
