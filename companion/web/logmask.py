"""Edit links are passwords: no log line carries a game's token in full.

`mask` keeps the first four characters of a token in a game URL (enough to follow one game through
a log) and drops the rest. `MaskTokens` applies it to every record of a logger (the app's, the
Werkzeug development server's, gunicorn's access and error logs); `GunicornLogger` is the
`logger_class` of gunicorn.conf.py; it also builds only the atoms its access log's format names
(gunicorn builds one for every request header, response header and environ key of every request).
"""

from __future__ import annotations

import logging
import os
import re
import time

# /g/<edit token>/…, /r/<view token>/…, /parties/<view token>/supprimer; tokens are URL-safe base64.
TOKEN_IN_URL = re.compile(r"(/(?:g|r|parties)/)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]{12,}")


# an atom of gunicorn's access log format: %(h)s, %({user-agent}i)s, %({companion.service_us}e)s
ATOM = re.compile(r"%\(([^)]*)\)")


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

        _named: tuple[str, ...] | None = None  # the atoms the access log's format names
        _second: tuple[int, str] = (-1, "")  # the last second written as `t`, and its text

        def setup(self, cfg):
            super().setup(cfg)
            install(self.access_log, self.error_log)
            named = ATOM.findall(cfg.access_log_format or "")
            self._named = tuple(dict.fromkeys(named)) if named else None

        def atoms(self, resp, req, environ, request_time):
            """What gunicorn's `atoms` gives for the keys the format names (its wrapper, SafeAtoms,
            escapes them and answers "-" for the others), without the ones it does not."""
            if self._named is None:
                return super().atoms(resp, req, environ, request_time)
            atoms = {}
            for key in self._named:
                if key[:1] != "{":
                    made = _PLAIN.get(key)
                    if made is not None:
                        atoms[key] = made(self, resp, environ, request_time)
                    continue
                name, kind = key[1:-2].lower(), key[-1:]
                pairs = (getattr(req, "headers", req) if kind == "i" else resp.headers if kind == "o"
                         else environ if kind == "e" else ())
                # the last of a name wins, as in gunicorn's dict
                for header, value in (pairs.items() if hasattr(pairs, "items") else pairs):
                    if header.lower() == name:
                        atoms[key.lower()] = value
            return atoms

        def now(self):
            second = int(time.time())
            if self._second[0] != second:
                self._second = (second, super().now())
            return self._second[1]

    def _status(resp) -> str:
        status = resp.status
        return status.split(None, 1)[0] if isinstance(status, str) else status

    def _sent(resp):
        return getattr(resp, "sent", None)

    # gunicorn's atoms (glogging.Logger.atoms), each made alone
    _PLAIN = {
        "h": lambda log, resp, environ, took: environ.get("REMOTE_ADDR", "-"),
        "l": lambda log, resp, environ, took: "-",
        "u": lambda log, resp, environ, took: log._get_user(environ) or "-",
        "t": lambda log, resp, environ, took: log.now(),
        "r": lambda log, resp, environ, took: (
            f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}"),
        "s": lambda log, resp, environ, took: _status(resp),
        "m": lambda log, resp, environ, took: environ.get("REQUEST_METHOD"),
        "U": lambda log, resp, environ, took: environ.get("PATH_INFO"),
        "q": lambda log, resp, environ, took: environ.get("QUERY_STRING"),
        "H": lambda log, resp, environ, took: environ.get("SERVER_PROTOCOL"),
        "b": lambda log, resp, environ, took: _sent(resp) is not None and str(resp.sent) or "-",
        "B": lambda log, resp, environ, took: _sent(resp),
        "f": lambda log, resp, environ, took: environ.get("HTTP_REFERER", "-"),
        "a": lambda log, resp, environ, took: environ.get("HTTP_USER_AGENT", "-"),
        "T": lambda log, resp, environ, took: took.seconds,
        "D": lambda log, resp, environ, took: took.seconds * 1000000 + took.microseconds,
        "M": lambda log, resp, environ, took: took.seconds * 1000 + int(took.microseconds / 1000),
        "L": lambda log, resp, environ, took: f"{took.seconds:d}.{took.microseconds:06d}",
        "p": lambda log, resp, environ, took: f"<{os.getpid()}>",
    }
