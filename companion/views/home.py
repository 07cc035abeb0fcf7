"""The home page: the three games and their variants."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, url_for

from .. import games

bp = Blueprint("home", __name__)


def _link(endpoint: str):
    """A URL builder for an endpoint another blueprint may provide, else None:
    the home page links only to what this build actually serves."""
    if endpoint not in current_app.view_functions:
        return None
    return lambda game, variant: url_for(endpoint, game=game, variant=variant)


@bp.get("/")
def index():
    history = "play.history" in current_app.view_functions
    return render_template(
        "home.html",
        games=list(games.GAMES.values()),
        new_game_url=_link("play.new"),
        pad_url=_link("sheets.pad"),
        history_url=url_for("play.history") if history else None,
        tie_url=url_for("play.tie") if "play.tie" in current_app.view_functions else None,
    )
