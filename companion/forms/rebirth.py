"""Rebirth's screens: one player's end state, and the table's cities and tie-breaking castles.

Field names are the contract keys (docs/contract.md, Rebirth); bounds come from the engine
(`companion/games/rebirth.py`) so the form and the engine never disagree. The hints quote the rules
(docs/rules/rebirth.fr.md) and say what to count in a few words.

Three things do not map one to one, and the fields say so themselves (read alike by the form and
the save's field spec, `companion/forms/shape.py`; no hook of this module translates them):

- **Round towers** (Irlande): the contract's `towers` is a list of 13s and 3s; each row of the form
  is a "13 points / 3 points" choice whose value arrives as text: a `numeric` choice, which the
  document holds as its number (`base.typed.document_value`).
- **A tile's player** (`Owner`): blank is not "nobody" but a player not chosen yet, left out of the
  tile (`nobody = False`), so the engine says it is required.
- **The privatised mission** (Irlande): the contract allows at most one, so the form shows one row
  (a `Rows` of one entry) and no way to add a second.

R1 (in-game points add up: the score track, or the items, or both) is said at the top of the form
and in the track's hint, so a table never counts the same points twice.
"""

from __future__ import annotations

from wtforms import Form

from ..games import rebirth as engine
from ..games.i18n import N_, _, tr
from .fields import Choice, Count, Flag, Group, Name, Rows, choice_labels, options

# The box's player colours (four clans).
PALETTE = [
    ("#c8372d", "rouge"),
    ("#2f6fb3", "bleu"),
    ("#e0b422", "jaune"),
    ("#3d8b4f", "vert"),
]

MISSION_LO, MISSION_HI = engine.MISSION_POINTS
TOWERS = [(str(v), f"{v} points") for v in sorted(engine.TOWER_LIMITS, reverse=True)]
TOWERS_MAX = sum(engine.TOWER_LIMITS.values())


class Farms(Form):
    agricultural = Rows(Count(N_("Taille"), N_("nombre de tuiles du groupe en fin de partie"), lo=1,
                              hi=engine.FARM_MAX),
                        N_("Fermes agricoles"), N_("Taille finale de chaque groupe de fermes agricoles"),
                        max_entries=engine.FARM_MAX, item_label=N_("Groupe agricole"),
                        add_label=N_("Ajouter un groupe agricole"))
    energy = Rows(Count(N_("Taille"), N_("nombre de tuiles du groupe en fin de partie"), lo=1,
                        hi=engine.FARM_MAX),
                  N_("Fermes énergétiques"), N_("Taille finale de chaque groupe de fermes énergétiques"),
                  max_entries=engine.FARM_MAX, item_label=N_("Groupe énergétique"),
                  add_label=N_("Ajouter un groupe énergétique"))


class PublicMission(Form):
    points = Count(N_("Points"), N_("la valeur que vous avez marquée sur la carte"), lo=MISSION_LO,
                   hi=MISSION_HI)
    doubled = Flag(N_("Doublée"), N_("votre multiplicateur était sur cette carte"))


class Mission(Form):
    points = Count(N_("Points"), N_("les points indiqués sur la carte"), lo=MISSION_LO, hi=MISSION_HI)
    achieved = Flag(N_("Réussie"), N_("objectif atteint (une égalité compte comme atteint)"))


class Privatized(Form):
    points = Count(N_("Points"), N_("le grand nombre de points de la carte"), lo=MISSION_LO, hi=MISSION_HI)
    achieved = Flag(N_("Réussie"), N_("objectif atteint en fin de partie"))


def player_form(variant: str) -> type[Form]:
    ireland = variant == "ireland"

    class Player(Form):
        track = Count(N_("Piste de score"),
                      N_("les points atteints par votre marqueur (tuiles de score +100 comprises) ; "
                        "laissez la piste à 0 si vous détaillez"), hi=engine.TRACK_MAX)
        farms = Group(Farms, N_("Fermes"),
                      N_("pendant la partie, un groupe de n tuiles a rapporté 1+2+…+n : à ne pas "
                        "détailler s'il est déjà sur la piste"))
        if ireland:
            ports = Count(N_("Exploitations en mer"),
                          N_("tuiles posées à côté d'une exploitation en mer : 1 point chacune"),
                          hi=engine.PORTS_MAX)
            public_missions = Rows(Group(PublicMission), N_("Missions publiques"),
                                   N_("chaque mission accomplie : le grand nombre si vous étiez premier, "
                                     "sinon le petit ; doublée par votre multiplicateur (une seule)"),
                                   max_entries=engine.PUBLIC_MAX, item_label=N_("Mission publique"),
                                   add_label=N_("Ajouter une mission publique"))
            towers = Rows(Choice(N_("Tour ronde"), choices=TOWERS, numeric=True), N_("Tours rondes à points"),
                          N_("chaque tour « Marquer 13 points » ou « Marquer 3 points » activée"),
                          max_entries=TOWERS_MAX, item_label=N_("Tour ronde"),
                          add_label=N_("Ajouter une tour"))
        else:
            ports = Count(N_("Ports"), N_("tuiles posées sur une case à icône de port : 1 point chacune"),
                          hi=engine.PORTS_MAX)
        incomplete_icons = Count(N_("Icônes en villes incomplètes"),
                                 N_("Icônes de vos communautés restées dans une ville incomplète : 1 "
                                   "point par icône (sauf les villes détaillées dans « Villes »)"),
                                 hi=engine.ICONS_MAX)
        castles = Count(N_("Châteaux"), N_("Châteaux contrôlés en fin de partie : 5 points chacun"),
                        hi=engine.CASTLES_MAX)
        if ireland:
            privatized_missions = Rows(Group(Privatized), N_("Mission privatisée"),
                                       N_("la carte piochée grâce à la tour ronde : son grand nombre de "
                                         "points si l'objectif est atteint"), max_entries=1,
                                       item_label=N_("Mission privatisée"), add_label="")
            tara_adjacent = Count(N_("Cases adjacentes à Tara"),
                                  N_("vos tuiles autour de la tour ronde de Tara (départage une égalité)"),
                                  hi=engine.TARA_MAX)
        else:
            missions = Rows(Group(Mission), N_("Missions privées"),
                            N_("chaque carte Mission privée révélée : ses points si l'objectif est atteint"),
                            max_entries=engine.CARDS_MAX, item_label=N_("Mission privée"),
                            add_label=N_("Ajouter une mission"))
            gifts = Count(N_("Dons de la cathédrale"),
                          N_("cartes « Don de la cathédrale » : 3 points chacune"),
                          hi=engine.CARDS_MAX)

    return Player


class Owner(Name):
    """A tile's player: "nobody" is not an answer here, the blank option only asks to choose (a tile
    whose player was not chosen leaves `player` out: the engine then says it is required)."""

    nobody = False

    @property
    def choices(self):
        return self._choices

    @choices.setter
    def choices(self, value):
        labels = choice_labels(value)
        if "" in labels:
            labels[""] = _("choisir…")
        self._choices = options(labels.items())


class Tile(Form):
    player = Owner(N_("Joueur"), N_("le joueur dont la communauté occupe la tuile"))
    influence = Count(N_("Influence"), N_("nombre d'icônes sur la tuile (1 à 4)"), lo=1,
                      hi=engine.INFLUENCE_MAX)
    order = Count(N_("Ordre de pose"), N_("facultatif : 1 = posée en premier ; utile en cas d'égalité"),
                  lo=1, hi=max(engine.MAX_CITY.values()))


def city_form(variant: str) -> type[Form]:
    top = engine.MAX_CITY[variant]

    class City(Form):
        size = Count(N_("Cases"), lambda: _("nombre de cases de la ville (1 à {top})", top=top), lo=1, hi=top)
        tiles = Rows(Group(Tile), N_("Tuiles"), N_("chaque communauté posée dans la ville"),
                     max_entries=top, item_label=N_("Tuile"), add_label=N_("Ajouter une tuile"),
                     remove_label=N_("Retirer la tuile"))

    return City


def table_form(variant: str) -> type[Form]:
    top = engine.MAX_CITY[variant]
    sizes = N_("1, 2, 3 ou 4 cases") if top == 4 else N_("1, 2 ou 3 cases")  # read in the page's language

    class Table(Form):
        cities = Rows(Group(city_form(variant)), N_("Villes"),
                      lambda: _("chaque ville ({sizes}) où une communauté a été posée, avec ses tuiles ; "
                                "complète : prix du classement d'influence ; incomplète : 1 point par icône",
                                sizes=tr(sizes)),
                      max_entries=40, item_label=N_("Ville"), add_label=N_("Ajouter une ville"),
                      remove_label=N_("Retirer la ville"))
        if variant == "ireland":
            blarney = Name(N_("Château de Blarney"), N_("qui le contrôle en fin de partie : départage une "
                                                   "égalité"))
        else:
            edinburgh = Name(N_("Château d'Édimbourg"),
                             N_("qui le contrôle en fin de partie : départage une égalité"))
            stirling = Name(N_("Château de Stirling"),
                            N_("qui le contrôle : gagne une égalité en tête, même sans en être"))

    return Table


# What this game gives the shared form machinery (companion/forms/adapter.py: a misspelt hook fails here).
from .adapter import Adapter  # noqa: E402 - kept beside the declaration, at the end of the file

ADAPTER = Adapter(palette=PALETTE, player_form=player_form, table_form=table_form)
