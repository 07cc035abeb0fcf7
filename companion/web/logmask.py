"""Edit links are passwords: no log line carries a game's token in full.

`mask` keeps the first four characters of a token in a game URL (enough to follow one game through
a log) and drops the rest. `MaskTokens` applies it to every record of a logger (the app's, the
Werkzeug development server's, gunicorn's access and error logs); `GunicornLogger` is the
`logger_class` of gunicorn.conf.py.
"""

from __future__ import annotations

import logging
import re

# /g/<edit token>/…, /r/<view token>/…, /parties/<view token>/supprimer; tokens are URL-safe base64.
TOKEN_IN_URL = re.compile(r"(/(?:g|r|parties)/)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]{12,}")


def mask(text: str) -> str:
    return TOKEN_IN_URL.sub(r"\1\2…", text)


class MaskTokens(logging.Filter):
    """A logging filter that rewrites the record's message with the tokens masked."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken record is left to the handler to report
            return True
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = mask(logging.Formatter().formatException(record.exc_info))
        return True


def install(*loggers: logging.Logger) -> None:
    for logger in loggers:
        if not any(isinstance(f, MaskTokens) for f in logger.filters):
            logger.addFilter(MaskTokens())


try:
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # gunicorn is the deploy extra; the app runs without it
    _GunicornLogger = None

if _GunicornLogger is not None:

    class GunicornLogger(_GunicornLogger):
        """gunicorn's logger with tokens masked in the access log and the error log."""

        def setup(self, cfg):
            super().setup(cfg)
            install(self.access_log, self.error_log)
