"""companion: score-keeping and end-game calculator for Rebirth, Reterra and Revive."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path

from flask import Flask

from .settings import ROOT  # the checkout (read by the app and its tests)


def create_app(config: Mapping | None = None) -> Flask:
    """App factory; `config` overrides settings (tests pass TESTING, a temporary database...)."""
    app = Flask(
        __name__,
        instance_path=os.environ.get("COMPANION_INSTANCE", str(ROOT / "instance")),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    from . import settings
    # Results read in contract order (game, variant, players…), accents as they are.
    app.json.sort_keys = False
    app.json.ensure_ascii = False

    app.config.from_mapping(settings.from_env(app.instance_path))
    if config:
        app.config.from_mapping(config)
    # for the database finally chosen (a test's or a club's given in `config`)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    options = app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", settings.engine_options(url))
    from .storage import store

    options.setdefault("json_serializer", store.json_text)  # a game's JSON columns, written and read
    options.setdefault("json_deserializer", store.json_value)

    from .extensions import db, migrate
    from .storage import sqlite
    from .views import api
    from .web import (
        compress,
        csrf,
        errors,
        formkeys,
        i18n_web,
        inline,
        limits,
        links,
        logmask,
        ratelimits,
        security,
        sessions,
        static_cache,
        tokens,
        urlencoded,
    )

    app.request_class = urlencoded.Request  # an autosave's small form read in one step
    logmask.install(app.logger, logging.getLogger("werkzeug"))
    sessions.init_app(app)  # the session cookie's signature checked once per process
    limits.init_app(app)  # first: its hook must run before CSRF reads a form
    i18n_web.init_app(app)  # its hook is put before every other: messages of refusals are translated too

    db.init_app(app)
    sqlite.init_app(app, db)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)  # Flask-WTF's, each token's signature checked once per process
    formkeys.init_app(app)  # after CSRF: a forged post is refused as such
    security.init_app(app)
    static_cache.init_app(app)
    compress.init_app(app)
    inline.init_app(app)  # after compress: Flask runs it first, on the page as rendered
    errors.init_app(app)
    links.init_app(app)

    from .storage import models  # noqa: F401 - registers the tables with SQLAlchemy
    tokens.init_app(app)  # before the blueprints: their rules use the `token` converter
    from .views import exchange, home, play, sheets, stats, template_helpers, tools

    template_helpers.init_app(app)

    for blueprint in (home.bp, play.bp, sheets.bp, tools.bp, stats.bp, exchange.bp):
        app.register_blueprint(blueprint)
    api.init_app(app)
    ratelimits.init_app(app)  # after the views: it wraps the ones it limits

    proxies = int(os.environ.get("TRUSTED_PROXIES", "0") or 0)
    if proxies:
        # Behind a reverse proxy: trust its X-Forwarded-* so share links say https://.
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
    return app
