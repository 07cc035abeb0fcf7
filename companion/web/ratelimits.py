"""How often one client may restore, create games, settle ties and call the API (issue 30).

Flask-Limiter counts the requests of each client (its address: behind a proxy, the one
`TRUSTED_PROXIES` lets through) per kind of request, each kind with its limit as a setting
(companion.settings, the README's table), in Flask-Limiter's notation ("10 per hour",
"60 per minute; 1000 per day"):

    RATE_LIMIT_RESTORE   POST /parties/importer              a restore is seconds of work
    RATE_LIMIT_NEW_GAME  POST /nouvelle                      a game made per post
    RATE_LIMIT_TIE       POST /egalite, /egalite/partie      the tie page
    RATE_LIMIT_API       /api/v1/*                           the JSON API (Reterra's board: at each tap)

The table's autosaves, pages and exports are not counted here (the request gate, companion.web.limits,
bounds what they cost). Past a limit the answer is 429 with a message in the page's language (JSON
with a message under /api/), and a Retry-After header (errors.py).

Where the counts live: `RATELIMIT_STORAGE_URI`, "memory://" by default, which is per process:
with several gunicorn workers each one counts for itself, so a client may get up to the limit
times the workers. A club server that wants one count for all its workers points it at a Redis or
Memcached server (redis://localhost:6379). `RATELIMIT_ENABLED=0` turns the limits off.

One Limiter per app (never a module-level one): its storage is made by `init_app`, and apps of the
same process (the tests) must not count each other's requests.
"""

from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# endpoint -> (setting, the methods counted)
LIMITED = {
    "exchange.restore": ("RATE_LIMIT_RESTORE", ["POST"]),
    "play.new": ("RATE_LIMIT_NEW_GAME", ["POST"]),
    "play.tie": ("RATE_LIMIT_TIE", ["POST"]),
    "play.tie_start": ("RATE_LIMIT_TIE", ["POST"]),
    "api.score": ("RATE_LIMIT_API", None),
    "api.tool": ("RATE_LIMIT_API", None),
    "api.list_games": ("RATE_LIMIT_API", None),
}
EXTENSION = "companion.limiter"


def init_app(app: Flask) -> None:
    """After the blueprints: each limited view is wrapped by its limit (one count per setting)."""
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)  # Retry-After on a 429
    limiter = Limiter(key_func=get_remote_address, app=app, key_prefix="companion")
    app.extensions[EXTENSION] = limiter
    for endpoint, (setting, methods) in LIMITED.items():
        value = app.config.get(setting)
        view = app.view_functions.get(endpoint)
        if value and view is not None:
            app.view_functions[endpoint] = limiter.shared_limit(value, scope=setting, methods=methods)(view)
