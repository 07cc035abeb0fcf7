"""The app's request: a small url-encoded body (an autosave's few hundred bytes, static/js/play/autosave.js)
read as its form in one step.

Werkzeug reads every form through a stream, a parser and `urllib.parse.parse_qsl`, whose unquoting
is Python for each escape: an autosave's JSON fields are mostly escapes, and that reading cost more
than the save's own SQL. A body in memory (`limits.RequestGate` reads every one first) made only
of the characters a form encodes plainly and well-formed escapes is read here with C-level calls
to the very pairs `parse_qsl` gives (tests/web/test_urlencoded.py compares the two); any other
body (a raw "=" in a value, an escape that is not one, bytes that are not UTF-8, a body past the
request's limit or `SMALL`) is left to Werkzeug, which answers as it always did."""

from __future__ import annotations

import binascii
import io
import re

from flask import Request as FlaskRequest

SMALL = 64 * 1024  # bytes: an autosave's body is a few hundred; a larger one is read as Werkzeug does
URLENCODED = "application/x-www-form-urlencoded"
# what a form encodes as itself ("+" is a space), and escapes of two hex digits, nothing else
_PLAIN = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~*+&=-%"
_NOT_AN_ESCAPE = re.compile(rb"%(?![0-9A-Fa-f]{2})")


def pairs(body: bytes) -> list[tuple[str, str]] | None:
    """The (name, value) pairs `parse_qsl(body.decode(), keep_blank_values=True)` gives, or None
    when the body is not one read here."""
    if body.translate(None, _PLAIN) or _NOT_AN_ESCAPE.search(body):  # one C pass each
        return None
    out = []
    try:
        for pair in body.split(b"&"):
            if not pair:
                continue
            name, _eq, value = pair.partition(b"=")
            if b"=" in value:  # a raw "=" would read as an escape below
                return None
            out.append((_unquoted(name), _unquoted(value)))
    except UnicodeDecodeError:
        return None
    return out


def _unquoted(text: bytes) -> str:
    if b"%" not in text:
        return text.replace(b"+", b" ").decode("ascii")
    # "%XX" as quoted-printable's "=XX": one C call decodes every escape (the body holds no raw "="
    # nor line end, so nothing else in it means anything to that decoder; it keeps the spaces of "+")
    return binascii.a2b_qp(text.replace(b"+", b" ").replace(b"%", b"=")).decode("utf-8")


class Request(FlaskRequest):
    """Flask's request, reading a small url-encoded body with `pairs`."""

    def _load_form_data(self) -> None:
        if "form" not in self.__dict__ and self.mimetype == URLENCODED:
            stream = self.environ.get("wsgi.input")
            if type(stream) is io.BytesIO and stream.tell() == 0:
                body = stream.getvalue()
                limit = self.max_content_length
                found = pairs(body) if len(body) <= SMALL and (limit is None or len(body) <= limit) \
                    and self.environ.get("CONTENT_LENGTH") == str(len(body)) else None
                if found is not None:
                    stream.seek(len(body))  # read, as Werkzeug leaves it
                    self.__dict__.update(stream=stream, form=self.parameter_storage_class(found),
                                         files=self.parameter_storage_class())
                    return
        super()._load_form_data()
