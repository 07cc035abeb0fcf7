"""What a game link's token can be, said once for every route that takes one (`/g/<token:token>/`,
`/r/<token:token>/`, `/parties/<token:token>/supprimer`).

Tokens are `models.new_token()`'s 43 URL-safe characters, in a column of 64. A path segment that no
token can be (a `%00`, a space, 300 characters) is a 404 from the router itself, before anything
reads the database: PostgreSQL refuses a NUL in a query's text (an error, then a 500), where SQLite
merely found nothing.
"""

from __future__ import annotations

import re

from flask import Flask
from werkzeug.routing import BaseConverter

PATTERN = r"[A-Za-z0-9_-]{1,64}"
TOKEN = re.compile(PATTERN)


class TokenConverter(BaseConverter):
    regex = PATTERN


def init_app(app: Flask) -> None:
    """Before the blueprints: their rules are compiled with the converter when registered."""
    app.url_map.converters["token"] = TokenConverter
