"""Rebirth's screens: one player's end state, and the table's cities and tie-breaking castles.

Field names are the contract keys (shared/CONTRACT.md, Rebirth); bounds come from the engine
(`companion/games/rebirth.py`) so the form and the engine never disagree. The hints quote the rules
(shared/rules/rebirth.fr.md) and say what to count in a few words.

Two things do not map one to one, and the hooks translate them:

- **Round towers** (Irlande): the contract's `towers` is a list of 13s and 3s; each row of the form
  is a "13 points / 3 points" choice, so the values arrive as text and are turned into numbers.
- **The privatised mission** (Irlande): the contract allows at most one, so the form shows one row
  (a `Rows` of one entry) and no way to add a second.

R1 (in-game points add up: the score track, or the items, or both) is said at the top of the form
and in the track's hint, so a table never counts the same points twice.
"""

from __future__ import annotations

from wtforms import Form

from ..games import rebirth as engine
from . import Choice, Count, Flag, Group, Name, Rows, choice_labels, options

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
    agricultural = Rows(Count("Taille", "nombre de tuiles du groupe en fin de partie", lo=1,
                              hi=engine.FARM_MAX),
                        "Fermes agricoles", "Taille finale de chaque groupe de fermes agricoles",
                        max_entries=engine.FARM_MAX, item_label="Groupe agricole",
                        add_label="Ajouter un groupe agricole")
    energy = Rows(Count("Taille", "nombre de tuiles du groupe en fin de partie", lo=1, hi=engine.FARM_MAX),
                  "Fermes énergétiques", "Taille finale de chaque groupe de fermes énergétiques",
                  max_entries=engine.FARM_MAX, item_label="Groupe énergétique",
                  add_label="Ajouter un groupe énergétique")


class PublicMission(Form):
    points = Count("Points", "la valeur que vous avez marquée sur la carte", lo=MISSION_LO, hi=MISSION_HI)
    doubled = Flag("Doublée", "votre multiplicateur était sur cette carte")


class Mission(Form):
    points = Count("Points", "les points indiqués sur la carte", lo=MISSION_LO, hi=MISSION_HI)
    achieved = Flag("Réussie", "objectif atteint (une égalité compte comme atteint)")


class Privatized(Form):
    points = Count("Points", "le grand nombre de points de la carte", lo=MISSION_LO, hi=MISSION_HI)
    achieved = Flag("Réussie", "objectif atteint en fin de partie")


def player_form(variant: str) -> type[Form]:
    ireland = variant == "ireland"

    class Player(Form):
        track = Count("Piste de score",
                      "les points atteints par votre marqueur (tuiles de score +100 comprises) ; "
                      "laissez la piste à 0 si vous détaillez", hi=engine.TRACK_MAX)
        farms = Group(Farms, "Fermes",
                      "pendant la partie, un groupe de n tuiles a rapporté 1+2+…+n : "
                      "à ne pas détailler s'il est déjà sur la piste")
        if ireland:
            ports = Count("Exploitations en mer",
                          "tuiles posées à côté d'une exploitation en mer : 1 point chacune",
                          hi=engine.PORTS_MAX)
            public_missions = Rows(Group(PublicMission), "Missions publiques",
                                   "chaque mission accomplie : le grand nombre si vous étiez premier, "
                                   "sinon le petit ; doublée par votre multiplicateur (une seule)",
                                   max_entries=engine.PUBLIC_MAX, item_label="Mission publique",
                                   add_label="Ajouter une mission publique")
            towers = Rows(Choice("Tour ronde", choices=TOWERS), "Tours rondes à points",
                          "chaque tour « Marquer 13 points » ou « Marquer 3 points » activée",
                          max_entries=TOWERS_MAX, item_label="Tour ronde", add_label="Ajouter une tour")
        else:
            ports = Count("Ports", "tuiles posées sur une case à icône de port : 1 point chacune",
                          hi=engine.PORTS_MAX)
        incomplete_icons = Count("Icônes en villes incomplètes",
                                 "Icônes de vos communautés restées dans une ville incomplète : 1 point "
                                 "par icône (sauf les villes détaillées dans « Villes »)",
                                 hi=engine.ICONS_MAX)
        castles = Count("Châteaux", "Châteaux contrôlés en fin de partie : 5 points chacun",
                        hi=engine.CASTLES_MAX)
        if ireland:
            privatized_missions = Rows(Group(Privatized), "Mission privatisée",
                                       "la carte piochée grâce à la tour ronde : son grand nombre de "
                                       "points si l'objectif est atteint", max_entries=1,
                                       item_label="Mission privatisée", add_label="")
            tara_adjacent = Count("Cases adjacentes à Tara",
                                  "vos tuiles autour de la tour ronde de Tara (départage une égalité)",
                                  hi=engine.TARA_MAX)
        else:
            missions = Rows(Group(Mission), "Missions privées",
                            "chaque carte Mission privée révélée : ses points si l'objectif est atteint",
                            max_entries=engine.CARDS_MAX, item_label="Mission privée",
                            add_label="Ajouter une mission")
            gifts = Count("Dons de la cathédrale", "cartes « Don de la cathédrale » : 3 points chacune",
                          hi=engine.CARDS_MAX)

    return Player


class Owner(Name):
    """A tile's player: "nobody" is not an answer here, the blank option only asks to choose."""

    @property
    def choices(self):
        return self._choices

    @choices.setter
    def choices(self, value):
        labels = choice_labels(value)
        if "" in labels:
            labels[""] = "choisir…"
        self._choices = options(labels.items())


class Tile(Form):
    player = Owner("Joueur", "le joueur dont la communauté occupe la tuile")
    influence = Count("Influence", "nombre d'icônes sur la tuile (1 à 4)", lo=1, hi=engine.INFLUENCE_MAX)
    order = Count("Ordre de pose", "facultatif : 1 = posée en premier ; utile en cas d'égalité",
                  lo=1, hi=max(engine.MAX_CITY.values()))


def city_form(variant: str) -> type[Form]:
    top = engine.MAX_CITY[variant]

    class City(Form):
        size = Count("Cases", f"nombre de cases de la ville (1 à {top})", lo=1, hi=top)
        tiles = Rows(Group(Tile), "Tuiles", "chaque communauté posée dans la ville",
                     max_entries=top, item_label="Tuile", add_label="Ajouter une tuile",
                     remove_label="Retirer la tuile")

    return City


def table_form(variant: str) -> type[Form]:
    top = engine.MAX_CITY[variant]
    sizes = "1, 2, 3 ou 4 cases" if top == 4 else "1, 2 ou 3 cases"

    class Table(Form):
        cities = Rows(Group(city_form(variant)), "Villes",
                      f"chaque ville ({sizes}) où une communauté a été posée, avec ses tuiles ; "
                      "complète : prix du classement d'influence ; incomplète : 1 point par icône",
                      max_entries=40, item_label="Ville", add_label="Ajouter une ville",
                      remove_label="Retirer la ville")
        if variant == "ireland":
            blarney = Name("Château de Blarney", "qui le contrôle en fin de partie : départage une égalité")
        else:
            edinburgh = Name("Château d'Édimbourg",
                             "qui le contrôle en fin de partie : départage une égalité")
            stirling = Name("Château de Stirling",
                            "qui le contrôle : gagne une égalité en tête, même sans en être")

    return Table


def to_document(document: dict, form, paths: dict[str, str]) -> None:
    """Round towers arrive as the text of the choice: the contract wants numbers. A tile whose
    player was not chosen leaves `player` out (the engine then says it is required)."""
    for city in document.get("cities", []):
        for tile in city.get("tiles", []) if isinstance(city, dict) else ():
            if isinstance(tile, dict) and tile.get("player", "") is None:
                del tile["player"]
    for player in document.get("players", []):
        towers = player.get("towers")
        if isinstance(towers, list):
            # "¹" is a digit to isdigit() and not to int(): ASCII digits only, the rest the engine refuses
            player["towers"] = [int(v) if isinstance(v, str) and v.isascii() and v.isdigit() else v
                                for v in towers]
