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
from . import Choice, Count, Fixed, Flag, Group, Rows

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
SHARED, EACH = "shared", "each"
CARD_MODES = [(SHARED, N_("Une carte commune à tous")), (EACH, N_("Une carte par joueur"))]
# A player's card points decide, once stored, whether the page shows one shared card (`to_form`):
# never laid on the document alone, only with the view they make (`direct_view`), and kept in the
# skeleton of the stored views (companion/forms/direct/).
NOT_DIRECT = re.compile(r"players-\d+-artifact_card-\d+-points")


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
                               add_label=N_("Ajouter un grand emplacement"))
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


def _points(player: dict) -> tuple[int, ...]:
    lines = player.get("artifact_card") or []
    return tuple(line.get("points", 0) if isinstance(line, dict) else 0 for line in lines) or (0,) * 3


def to_form(document: dict, data: dict) -> None:
    """Shared when every player's card has the same points (always true of a new game)."""
    players = document.get("players", [])
    cards = {_points(p) for p in players}
    shared = len(cards) <= 1
    data["card_mode"] = SHARED if shared else EACH
    first = _points(players[0]) if players else (0,) * 3
    data["card"] = [{"points": v or None} for v in (first + (0,) * 3)[:3]]  # 0 shows as blank


def to_document(document: dict, form, paths: dict[str, str]) -> None:
    """A shared card: its points go into every player's `artifact_card`, and a problem with them is
    shown beside the shared card's field."""
    if form.card_mode.data != SHARED:
        return
    shared = [entry.form.points.data or 0 for entry in form.card.entries]
    for i, player in enumerate(document["players"]):
        lines = player.setdefault("artifact_card", [{} for _ in shared])
        for j, points in enumerate(shared):
            if j < len(lines):
                if points:
                    lines[j]["points"] = points
                else:
                    lines[j].pop("points", None)
                paths[f"players[{i}].artifact_card[{j}].points"] = form.card.entries[j].form.points.name


_CARD = re.compile(r"card-(\d)-points")
_SEAT = re.compile(r"players-(\d+)-")


def direct_table(changes: dict[str, tuple[str, str]], values, read):
    """The shared card typed, or chosen again on a phone that showed a card per player, laid on the
    document without the form (`forms.direct.lay_save`): each point of the card goes into every
    player's line, left out when 0 or blank, as `to_document` writes it; `read(field, text)` reads a
    text as a player's line field (same bounds, same messages). Returns (player field -> value,
    messages by field, the card's texts after it), or None when a change is not the card's or its
    mode's, or the card is typed while the save reads a card per player (the form reads it). A
    card per player chosen lays nothing here: `direct_view` reads it after the merge."""
    from .direct import OMIT

    mode = changes["card_mode"][1] if "card_mode" in changes else values.get("card_mode")
    if mode != SHARED:
        return ({}, {}, {}) if set(changes) == {"card_mode"} else None
    switched = values.get("card_mode") != SHARED  # the card copied into every line, all of it
    seats = {int(m.group(1)) for name in values if (m := _SEAT.match(name))}
    written, messages, texts = {}, {}, {}
    for name in changes:
        match = _CARD.fullmatch(name)
        if name != "card_mode" and (not match or name not in values):
            return None
    for j in range(engine.COLOURS):
        name = f"card-{j}-points"
        if name not in changes and not switched:
            continue
        if name not in values:
            return None
        value, message = read(f"players-0-artifact_card-{j}-points",
                              changes[name][1] if name in changes else values[name])
        if message:
            messages[name] = message
        kept = OMIT if value is OMIT or value == 0 else value
        for i in sorted(seats):
            written[f"players-{i}-artifact_card-{j}-points"] = kept
        texts[name] = "" if kept is OMIT else str(kept)
    return written, messages, texts


def _line_paths(n_players: int, shared: bool) -> dict[str, str]:
    """The fields a player's card lines are read from (`to_document`): the shared card's, or their own."""
    return {f"players[{i}].artifact_card[{j}].points":
            f"card-{j}-points" if shared else f"players-{i}-artifact_card-{j}-points"
            for i in range(n_players) for j in range(engine.COLOURS)}


def direct_view(view, changed, data, document: dict):
    """A save laid without the form that changes a player's own card line, the shared card or the
    card mode: laid as the form lays it (one card per player: the lines as typed, their problems
    beside them; one shared card: its points in every line, `direct_table`); the card mode and the
    shared card after it are `to_form`'s, from the laid document. None (the form's way) when the
    merged save reads one shared card while lines are typed (the card copied over them), a mode it
    does not offer, a shared card typed while the lines are each player's, a card's points that
    are not whole numbers, or lines at 0 that one shared card leaves out (`to_document`) and one
    card per player keeps."""
    from .adapter import Redraw
    from .fields import _t

    stored, mode = view.values.get("card_mode"), data.get("card_mode")
    lines = any(NOT_DIRECT.fullmatch(name) for name in changed)
    if mode == SHARED:
        if lines:
            return None
        if stored == SHARED:  # the shared card typed (`direct_table`): every line equal to it, one card
            return Redraw()
    elif mode != EACH or any(_CARD.fullmatch(name) for name in changed):
        return None
    elif stored == SHARED and any(view.values.get(name) == "0" for name in view.values
                                  if NOT_DIRECT.fullmatch(name) and name not in changed):
        return None  # a line stored as 0 that one shared card left out: the form writes it again
    players = document.get("players", [])
    cards = [_points(p) for p in players]
    if any(len(card) != engine.COLOURS or any(type(v) is not int for v in card) for card in cards):
        return None
    after: dict = {}
    to_form(document, after)
    shared = after["card_mode"] == SHARED
    if shared and any(isinstance(line, dict) and line.get("points") == 0
                      for p in players for line in p.get("artifact_card") or ()):
        return None  # a line typed 0, read back as one shared card: the form's document leaves it out
    labels = dict(CARD_MODES)
    texts = {"card_mode": (after["card_mode"], _t(labels[after["card_mode"]]))}
    for j, line in enumerate(after["card"]):
        text = "" if line["points"] is None else str(line["points"])
        texts[f"card-{j}-points"] = (text, text)
    checked = _line_paths(len(players), mode == SHARED) if mode != stored else {}
    return Redraw(checked=checked, paths=_line_paths(len(players), shared), texts=texts)


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
                  label_form=label_form, relabel=relabel, not_direct=NOT_DIRECT,
                  direct_table=direct_table, direct_view=direct_view)
