"""The new-game page (/nouvelle): pick a game, then its variant, players and colours; one game per
form, however many times it is posted (a one-time key, and an untouched twin is reused)."""

from __future__ import annotations

import re
import secrets

from flask import redirect, render_template, request, url_for

from .. import forms, games
from ..extensions import db
from ..games.i18n import _
from ..storage import history, store

ONCE = re.compile(r"[\w-]{40,64}")


def new():
    game_id = request.values.get("game", "")
    game = games.GAMES.get(game_id)
    if game is None:
        return render_template("play/pick.html", games=list(games.GAMES.values()),
                               available={g: forms.screens(g) is not None for g in games.GAMES})
    sc = forms.screens(game_id)
    if sc is None or game.score is None:
        return render_template("play/pick.html", games=list(games.GAMES.values()), unavailable=game,
                               available={g: forms.screens(g) is not None for g in games.GAMES}), 404
    form = forms.new_game_form(game.max_players)(formdata=request.form if request.method == "POST" else None)
    form.game.data = game.id
    form.variant.choices = forms.options(game.variants.items())
    if request.method == "GET" or not ONCE.fullmatch(form.once.data or ""):
        form.once.data = secrets.token_urlsafe(32)
    if request.method == "GET":
        variant = request.args.get("variant")
        form.variant.data = variant if variant in game.variants else next(iter(game.variants))
        _prefill_players(form, sc)
    palette = sc.palette
    for entry in form.players.entries:
        entry.form.colour.choices = forms.options(palette)
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    if request.method == "POST":
        record = _create(form, game, sc, errors, general)
        if record is not None:
            history.remember(record, can_edit=True)
            return redirect(url_for("play.edit", token=record.edit_token))
    status = 422 if errors or general else 200
    return render_template("play/new.html", form=form, game=game, screens=sc, errors=errors,
                           general=general, known_names=history.known_names(),
                           edition=_edition(game)), status


def _edition(game: games.Game) -> str | None:
    """The rule set asked for (the new-game page's "Règle d'égalité", `?edition=` from the tie
    page), else the game's default; a game with one rule set has none."""
    chosen = request.values.get("edition")
    return chosen if chosen in game.editions else game.default_edition


def _prefill_players(form, sc: forms.GameForms) -> None:
    """Seat i's colour defaults to the box's colour i."""
    defaults = sc.default_colours(len(form.players.entries))
    for i, entry in enumerate(form.players.entries):
        entry.form.name.data = ""
        entry.form.colour.data = defaults[i]


def _create(form, game: games.Game, sc: forms.GameForms, errors: dict, general: list):
    """A new game from the form, or None with messages beside the fields."""
    variant = form.variant.data
    done = store.by_creation_key(form.once.data) if form.once.data else None
    if done is not None:  # this very form was already posted (double tap, Back then submit)
        return done
    if variant not in game.variants:
        errors.setdefault(form.variant.name, []).append(_("choisissez une variante"))
        return None
    palette = [hex_ for hex_, _ in sc.palette]
    seats, names, colours = [], [], []
    for i, entry in enumerate(form.players.entries):
        name = (entry.form.name.data or "").strip()
        if not name:
            continue
        seats.append(i)
        names.append(name)
        colour = entry.form.colour.data
        colour = colour if colour in palette else sc.default_colours(i + 1)[i]
        if colour in colours and len(palette) >= len(form.players.entries):
            # Two pawns of one colour cannot sit at one table (the box has one set per colour).
            other = names[colours.index(colour)]
            errors.setdefault(entry.form.name.name, []).append(
                _("couleur déjà prise par {other} : choisissez-en une autre", other=other))
        colours.append(colour)
    document = {"game": game.id, "variant": variant, "players": [{"name": n} for n in names]}
    for problem in games.validate(document):
        path = problem.path
        if path.startswith("players[") and path.endswith("].name"):
            seat = seats[int(path[len("players["):path.index("]")])]
            errors.setdefault(form.players.entries[seat].form.name.name, []).append(problem.message)
        elif path == "players":  # too few: the form has no more seats than the game allows
            general.append(problem.message if names else
                           _("Ajoutez les joueurs : {game} se joue de {lo} à {hi} joueurs.",
                             game=game.title, lo=game.min_players, hi=game.max_players))
        else:
            general.append(problem.message)
    if errors or general:
        return None
    twin = store.untouched_twin(game.id, variant, names, colours)
    if twin is not None and twin.edition == store.edition_for(game.id, _edition(game)):
        return twin
    given = [(entry.data or "").strip()[:20] for entry in form.colour_names.entries][:sc.colour_names]
    labels = {"colours": given} if any(given) else None
    record = store.create(game.id, variant, names, colours, creation_key=form.once.data, labels=labels,
                          edition=_edition(game))
    db.session.commit()
    return record

