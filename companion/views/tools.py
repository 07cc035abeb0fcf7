"""During play (Rebirth): the city resolver and castle control, as small screens of a game.

The game (its map and its players in seat order) is the one of the edit link, so the table only
describes the city's tiles or the castle's situation. The answer comes from the engine's table tools
(`games.TOOLS[("rebirth", "city" | "castle")]`, the same code as the API and the final count); this
module only turns the form into the tool's payload and the tool's problems back into messages beside
the fields. Nothing is stored. Plain POST, same page: works without JavaScript.

URLs: /g/<edit_token>/outils/ville and /g/<edit_token>/outils/chateau.
"""

from __future__ import annotations

from functools import cache

from flask import Blueprint, abort, render_template, request
from wtforms import Form
from wtforms.fields import FieldList, FormField
from wtforms.validators import InputRequired

from .. import forms, games
from ..forms.fields import Choice, Count, Fixed, Group, Name
from ..forms.problems import place
from ..games import rebirth as engine
from ..games.core import join, join_names, ordinal
from ..games.i18n import N_, _, ngettext, tr
from ..storage import store

bp = Blueprint("tools", __name__)

GAME = "rebirth"
EXPIRED = N_("Le formulaire a expiré : rechargez la page et recommencez.")
INVALID = N_("Rien n'a été calculé : corrigez les champs signalés.")


# --------------------------------------------------------------------------- forms


class CityTile(Form):
    player = Name(N_("Joueur"), N_("à qui est la tuile"))
    influence = Count(N_("Influence"), N_("icônes de la tuile (1 à 4)"), lo=1, hi=engine.INFLUENCE_MAX)
    order = Count(N_("Ordre de pose"), N_("1 = posée en premier ; utile en cas d'égalité"),
                  lo=1, hi=max(engine.MAX_CITY.values()))


@cache
def city_form(variant: str) -> type[forms.AppForm]:
    top = engine.MAX_CITY[variant]

    def sizes():
        return [(str(n), engine.size_label(n).capitalize()) for n in range(1, top + 1)]

    return type(f"City{variant.title()}", (forms.AppForm,), {
        "size": Choice(N_("Taille de la ville"), N_("son nombre de cases"), choices=sizes),
        "tiles": Fixed(Group(CityTile), top, N_("Tuiles posées"),
                       N_("une ligne par communauté dans la ville ; laissez vides les cases libres"),
                       item_labels=lambda: [_("Tuile {i}", i=i) for i in range(1, top + 1)]),
    })


class Adjacent(Form):
    tiles = Count(N_("Tuiles adjacentes"), N_("ses tuiles qui touchent le château"), hi=engine.ADJACENT_MAX)
    farms = Count(N_("Dont fermes"), N_("agricoles et énergétiques (départagent une égalité)"),
                  hi=engine.ADJACENT_MAX)


@cache
def castle_form(n_players: int) -> type[forms.AppForm]:
    return type(f"Castle{n_players}", (forms.AppForm,), {
        "holder": Name(N_("Qui contrôle le château ?"), N_("avant la tuile qui vient d'être posée")),
        "active": Name(N_("Qui vient de poser une tuile à côté ?"), N_("le joueur actif"),
                       validators=[InputRequired(N_("choisissez le joueur qui vient de poser sa tuile"))]),
        "adjacent": Fixed(Group(Adjacent), n_players, N_("Tuiles autour du château"),
                          N_("pour chaque joueur, après la pose ; laissez vide qui n'en a pas")),
    })


# --------------------------------------------------------------------------- helpers


def _game(token: str):
    record = store.by_edit_token(token)  # 404 for an unknown link
    if record.game != GAME or record.variant not in engine.MAX_CITY:
        abort(404)
    return record


def _players(form, names: list[str], nobody: str | None) -> None:
    pairs = ([("", nobody)] if nobody else [("", _("choisir…"))]) + [(n, n) for n in names]
    for f in forms.walk(form):
        if isinstance(f, Name):
            f.choices = forms.options(pairs)


def _checked(form) -> tuple[dict[str, list[str]], list[str]]:
    """WTForms' messages by field name, and the page-level ones (an expired form)."""
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    if not form.validate():
        for f in forms.walk(form):
            if f.short_name == "csrf_token":
                if f.errors:
                    general.append(tr(EXPIRED))
            elif not isinstance(f, FormField | FieldList) and f.errors:
                # a validator's own message (InputRequired's) is a message id: read it now
                errors.setdefault(f.name, []).extend(tr(e) for e in f.errors)
    return errors, general


def _problems(exc: games.InvalidDocument, paths: dict[str, str], errors: dict, general: list) -> None:
    """The tool's problems beside their fields; a field that already has a typing error keeps only
    that one (the tool read it as blank)."""
    place(exc.problems, paths, errors, general, keep=set(errors))


def _page(template: str, record, form, *, errors=None, general=None, answer=None, status=200):
    names = store.names_of(record)
    game = games.GAMES[GAME]
    return render_template(
        template, record=record, game=game, form=form, names=names,
        colours=dict(zip(names, store.colours_of(record), strict=True)),
        variant_label=game.variant_label(record.variant), answer=answer,
        errors=errors or {}, general=([tr(INVALID)] if errors and not general else []) + (general or []),
        theirs={},
    ), status


# --------------------------------------------------------------------------- city


def city_answer(outcome: dict, names: list[str]) -> dict:
    """The tool's result as the page says it: one sentence per player present, best first."""
    points = outcome["points"]
    if outcome["complete"]:
        lines = [_("{name} ({v2}) marque {v3}.",
                   name=name, v2=ordinal(i + 1), v3=ngettext("{n} point", "{n} points", points.get(name, 0)))
                 for i, name in enumerate(outcome["ranking"])]
    else:
        lines = [_("{name} : {v2} en fin de partie si la ville reste incomplète (1 point par icône).",
                   name=name, v2=ngettext("{n} point", "{n} points", points[name]))
                 for name in names if name in points]
    absent = [n for n in names if n not in points]
    if absent:
        lines.append(_("{v1} : aucune tuile dans cette ville.", v1=join_names(absent)))
    return {"complete": outcome["complete"], "lines": lines, "explanation": outcome["explanation"],
            "points": points}


@bp.route("/g/<token:token>/outils/ville", methods=["GET", "POST"])
def city(token: str):
    record = _game(token)
    names = store.names_of(record)
    cls = city_form(record.variant)
    form = cls(formdata=request.form if request.method == "POST" else None)
    _players(form, names, nobody=None)
    if request.method == "GET":
        return _page("tools/city.html", record, form)
    errors, general = _checked(form)
    if general:
        return _page("tools/city.html", record, form, general=general, status=400)
    # A tie needing the placement order is reported on the city itself: its tiles hold the answer.
    paths = {"city": form.tiles.name, "city.size": form.size.name, "city.tiles": form.tiles.name}
    tiles = []
    for entry in form.tiles.entries:
        tile = entry.form
        if not tile.player.data and tile.influence.data is None and tile.order.data is None:
            continue
        path = join("city.tiles", len(tiles))
        paths[path] = entry.name
        for key in ("player", "influence", "order"):
            paths[join(path, key)] = tile[key].name
        item = {}
        if tile.player.data:
            item["player"] = tile.player.data
        elif tile.player.name not in errors:
            errors[tile.player.name] = [_("choisissez à qui est la tuile")]
        if tile.influence.data is not None:
            item["influence"] = tile.influence.data
        if tile.order.data is not None:
            item["order"] = tile.order.data
        tiles.append(item)
    payload = {"variant": record.variant, "players": names, "city": {"tiles": tiles}}
    if form.size.data and form.size.name not in errors:  # a size that is no choice is said beside it
        payload["city"]["size"] = int(form.size.data)
    try:
        outcome = games.TOOLS[(GAME, "city")](payload)
    except games.InvalidDocument as exc:
        _problems(exc, paths, errors, general)
    if errors or general:
        return _page("tools/city.html", record, form, errors=errors, general=general, status=422)
    return _page("tools/city.html", record, form, answer=city_answer(outcome, names))


# --------------------------------------------------------------------------- castle


@bp.route("/g/<token:token>/outils/chateau", methods=["GET", "POST"])
def castle(token: str):
    record = _game(token)
    names = store.names_of(record)
    form = castle_form(len(names))(formdata=request.form if request.method == "POST" else None)
    _players(form, names, nobody=_("personne (château libre)"))
    form.active.choices = forms.options([("", _("choisir…"))] + [(n, n) for n in names])
    if request.method == "GET":
        return _page("tools/castle.html", record, form)
    errors, general = _checked(form)
    if general:
        return _page("tools/castle.html", record, form, general=general, status=400)
    paths = {"holder": form.holder.name, "active": form.active.name, "adjacent": form.adjacent.name}
    adjacent = {}
    for name, entry in zip(names, form.adjacent.entries, strict=True):
        counts = {key: entry.form[key].data for key in ("tiles", "farms") if entry.form[key].data is not None}
        path = join("adjacent", name)
        paths[path] = entry.name
        paths[join(path, "tiles")] = entry.form.tiles.name
        paths[join(path, "farms")] = entry.form.farms.name
        if counts:
            adjacent[name] = counts
    payload = {"players": names, "holder": form.holder.data or None, "active": form.active.data or None,
               "adjacent": adjacent}
    try:
        outcome = games.TOOLS[(GAME, "castle")](payload)
    except games.InvalidDocument as exc:
        _problems(exc, paths, errors, general)
    if errors or general:
        return _page("tools/castle.html", record, form, errors=errors, general=general, status=422)
    holder = outcome["holder"]
    if holder is None:
        lines = [_("Le château reste libre : personne n'y marque de points pour l'instant.")]
    else:
        lines = [_("{holder} contrôle le château : {v2} points pour {holder} en fin de partie si le "
                   "château lui reste jusqu'au bout.",
                   holder=holder, v2=engine.CASTLE_POINTS)]
        lines += [_("{n} : 0 point pour ce château.", n=n) for n in names if n != holder]
    return _page("tools/castle.html", record, form,
                 answer={"holder": holder, "lines": lines, "explanation": [outcome["explanation"]]})
