"""Revive's screens: one player's end state, and the artifact card shared by the table or not.

Field names are the contract keys (docs/contract.md, Revive); bounds come from the engine so the
form and the engine never disagree. The hints quote the rules (docs/rules/revive.fr.md).

The contract keeps an `artifact_card` per player: three lines of {count, points}. At most tables
one card is shared, so by default the card's points per line are typed once (`card`, table level)
and copied to every player (`to_document`); each player types only what the line counts for them.
"Une carte par joueur" shows the points fields in each player's section instead.
"""

from __future__ import annotations

import re

from wtforms import Form

from ..games import revive as engine
from ..games.i18n import N_
from ..games.revive_fields import EACH, SHARED, to_document, to_form
from .fields import Choice, Count, Fixed, Flag, Group, Rows

PALETTE = [
    ("#c8372d", "rouge"),
    ("#2f6fb3", "bleu"),
    ("#e0b422", "jaune"),
    ("#3d8b4f", "vert"),
    ("#7b4ea3", "violet"),
    ("#3b3b3b", "noir"),
]



def COLOURS() -> list[str]:  # noqa: N802 - read like the constant it was; in the reader's language
    """« couleur 1 »… (ruling V5), in the current language."""
    return [engine.colour(i) for i in range(engine.COLOURS)]


COLOUR_NAMES = engine.COLOURS  # the table names them once, on the new-game page
COLOUR_HINT = N_("comme votre table les appelle (les règles ne nomment que le jaune) ; vide : « couleur "
                 "1 »…")
CARD_MODES = [(SHARED, N_("Une carte commune à tous")), (EACH, N_("Une carte par joueur"))]


class CardBonus(Form):
    unlocked = Flag(N_("Débloquée"), N_("la case hexagonale de cette couleur est débloquée sur vos pistes de "
                                    "machine"))
    cards = Count(N_("Cartes gagnées"), N_("cartes de cette couleur gagnées pendant la partie, sans compter "
                                       "vos cartes de départ"), hi=engine.CARDS_MAX)


class Resources(Form):
    gears = Count(N_("Engrenages"), hi=engine.RESOURCES["gears"][0])
    books = Count(N_("Livres"), hi=engine.RESOURCES["books"][0])
    food = Count(N_("Nourriture"), hi=engine.RESOURCES["food"][0])
    crystals = Count(N_("Cristaux"), hi=engine.RESOURCES["crystals"][0])


class CardLine(Form):
    count = Count(N_("Quantité comptée"), N_("ce que compte cette ligne de la carte, chez vous (ex. vos "
                                         "énergies)"),
                  hi=engine.CARD_COUNT_MAX)
    points = Count(N_("Points indiqués"), N_("imprimés sur cette ligne de votre carte"),
                   hi=engine.CARD_LINE_POINTS_MAX, show_if=("card_mode", EACH))


class CardPoints(Form):
    points = Count(N_("Points indiqués"), hi=engine.CARD_LINE_POINTS_MAX)


def player_form(variant: str) -> type[Form]:
    abyss = variant in engine.ABYSS
    lo, hi = engine.GREAT_LOCATION_POINTS

    class Player(Form):
        track = Count(N_("Piste de score"), N_("les points atteints sur la piste de score"),
                      hi=engine.NUMBERS["track"])
        progress = Count(N_("Piste de progression"), N_("les points visibles les plus bas sur votre piste"),
                         hi=engine.NUMBERS["progress"])
        card_bonus = Fixed(Group(CardBonus), engine.COLOURS, N_("Cartes gagnées"),
                           N_("2 points par carte gagnée pendant la partie (sans compter vos cartes de "
                             "départ) dans chaque couleur dont la case hexagonale est débloquée"),
                           item_labels=COLOURS)
        if abyss:
            scyphoz = Count(N_("Cartes Scyphoz"),
                            N_("elles prennent une couleur débloquée : 2 points chacune"),
                            hi=engine.NUMBERS["scyphoz"])
        great_locations = Rows(Count(N_("Points"), N_("les points imprimés sur ce grand emplacement"),
                                     lo=lo, hi=hi),
                               N_("Grands emplacements peuplés"), N_("les points de chaque grand emplacement "
                                                                "peuplé"),
                               max_entries=engine.GREAT_LOCATIONS_MAX, item_label=N_("Grand emplacement"),
                               add_label=N_("Ajouter un grand emplacement"), shown=2)
        four_token = Flag(N_("Jeton 4 points"), N_("pris avec le dernier artefact"))
        two_tokens = Count(N_("Jetons 2 points"), N_("pris après le dernier artefact"),
                           hi=engine.NUMBERS["two_tokens"])
        resources = Group(Resources, N_("Ressources restantes"),
                          N_("1 point par tranche de 5 ; le reste départage les égalités"))
        artifacts = Fixed(Count(N_("Artefacts"), lo=0, hi=engine.ARTIFACTS_MAX), engine.COLOURS,
                          N_("Artefacts par couleur"), N_("le nombre de vos artefacts de chaque couleur"),
                          item_labels=COLOURS)
        artifact_points = Count(N_("Points des artefacts"), N_("les points imprimés sur vos artefacts"),
                                hi=engine.NUMBERS["artifact_points"])
        artifact_card = Fixed(Group(CardLine), engine.COLOURS, N_("Carte Artefact"),
                              N_("(artefacts de la couleur + 1) × quantité × points"), item_labels=COLOURS)
        if abyss:
            devotion = Count(N_("Points de dévotion"), N_("lus sur la piste de dévotion"),
                             hi=engine.NUMBERS["devotion"])
        machine_progress = Count(N_("Avancement des machines"), N_("total des trois pistes de machine "
                                                              "(égalités)"),
                                 hi=engine.NUMBERS["machine_progress"])

    return Player


def table_form(variant: str) -> type[Form]:
    class Table(Form):
        ui_only = ("card_mode", "card")
        card_mode = Choice(N_("Carte Artefact"),
                           N_("selon la variante : une carte commune ou une par joueur"),
                           choices=CARD_MODES,
                           default=SHARED, local=True)
        card = Fixed(Group(CardPoints), engine.COLOURS, N_("Carte Artefact commune"),
                     N_("les points indiqués sur chaque ligne de la carte"), item_labels=COLOURS,
                     show_if=("card_mode", SHARED), copy_to="artifact_card")

    return Table


def colour_names(labels: dict) -> list[str]:
    """The table's name of each colour, « couleur n » where it gave none."""
    given = list(labels.get("colours") or [])
    default = COLOURS()
    return [(given[i] if i < len(given) and given[i] else default[i]) for i in range(engine.COLOURS)]


def label_form(form, labels: dict) -> None:
    """Every list by colour says the table's names (jaune, …) instead of « couleur n »."""
    names = colour_names(labels)
    form.card.item_labels = names
    for entry in form.players.entries:
        for key in ("card_bonus", "artifacts", "artifact_card"):
            entry.form[key].item_labels = names


_COLOUR = re.compile(r"\b(?:couleur|colour) ([1-9])\b")  # the engine's « couleur n », any language


def relabel(text: str, labels: dict) -> str:
    """« couleur 2 » in a line's detail becomes the table's name for it."""
    names = colour_names(labels)
    return _COLOUR.sub(lambda m: names[int(m.group(1)) - 1] if int(m.group(1)) <= len(names) else m.group(0),
                       text)


# What this game gives the shared form machinery (companion/forms/adapter.py: a misspelt hook fails here).
from .adapter import Adapter  # noqa: E402 - kept beside the declaration, at the end of the file

ADAPTER = Adapter(palette=PALETTE, player_form=player_form, table_form=table_form, to_form=to_form,
                  to_document=to_document, colour_names=COLOUR_NAMES, colour_hint=COLOUR_HINT,
                  label_form=label_form, relabel=relabel)
