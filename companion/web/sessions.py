"""The session cookie, its signature checked once per process (issue 33).

A phone sends the same signed cookie (its CSRF token, a flash message at times) with every request:
every tap's autosave. Flask's cookie sessions check it each time, which builds a signing serializer,
derives a key, computes an HMAC and decodes base64 and JSON: about 80 µs, a tenth of the trivial
route's whole cost on this machine. Here a cookie whose signature was found good is remembered
(the text itself, with the secret it was checked with, is the key: a cookie changed by one byte is
another key, checked in full) with its contents and when it was signed. A remembered cookie is
still refused past `PERMANENT_SESSION_LIFETIME`, as Flask refuses it, and each request gets its own
copy of the contents (a view may change them in place: `flash` appends to a list)."""

from __future__ import annotations

import time

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

from ..base.lru import LRU

KEPT = 4096  # cookies remembered per process: a club's phones, a few times over


class RememberedCookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, each cookie's signature checked once per process."""

    def __init__(self, kept: int = KEPT):
        # (secret, cookie) -> "signed at|contents as the session serializer wrote them"
        self._checked = LRU(max_size=kept * 4096, max_items=kept)

    def open_session(self, app: Flask, request):
        if not app.secret_key:
            return super().open_session(app, request)  # Flask's answer: no session at all
        text = request.cookies.get(self.get_cookie_name(app))
        if not text:  # a new session, without building a signer to read nothing (Flask's does)
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (app.secret_key, text)
        known = self._checked.get(key)
        if known is not None:
            signed, _, contents = known.partition("|")
            if 0 <= int(time.time()) - int(signed) <= max_age:
                return self.session_class(self.serializer.loads(contents))
        signer = self.get_signing_serializer(app)
        try:
            data, signed_at = signer.loads(text, max_age=max_age, return_timestamp=True)
        except BadSignature:  # forged, or expired (SignatureExpired is one): a new, empty session
            return self.session_class()
        self._checked.put(key, f"{int(signed_at.timestamp())}|{self.serializer.dumps(data)}")
        return self.session_class(data)


def init_app(app: Flask) -> None:
    app.session_interface = RememberedCookieSessions()
