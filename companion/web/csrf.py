"""CSRF tokens, each token's signature checked once per process (issue 33).

Every autosave posts the page's CSRF token, and Flask-WTF checks it in full each time: a signing
serializer built, a key derived, an HMAC computed, base64 decoded (about 6 % of a worker's CPU at the
table server's knee, docs/benchmarks.md). Here a token whose signature was found good is
remembered (the token's text with the secret it was checked with is the key: a token changed by one
byte is another key, checked in full by Flask-WTF) with what it decodes to and when it was signed.
A remembered token is still compared with the session's own, still refused past
`WTF_CSRF_TIME_LIMIT`, and still needs a same-origin referrer over HTTPS: what Flask-WTF's check
refuses, this one refuses, with the same reasons (tests/web/test_csrf.py)."""

from __future__ import annotations

import hmac
import time

from flask import current_app, g, request, session
from flask_wtf.csrf import CSRFProtect, same_origin
from itsdangerous import BadData, URLSafeTimedSerializer

from ..base.lru import LRU

KEPT = 4096  # tokens remembered per process: a club's phones, a few times over
SALT = "wtf-csrf-token"  # Flask-WTF's own (flask_wtf.csrf.generate_csrf signs with it)


class RememberedCSRF(CSRFProtect):
    """Flask-WTF's CSRF protection, each token's signature checked once per process."""

    def __init__(self, app=None, kept: int = KEPT):
        # (secret, token) -> "signed at|the session's token it was made from"
        self._checked = LRU(max_size=kept * 128, max_items=kept)
        super().__init__(app)

    def protect(self, apply_exemptions: bool = False):
        if apply_exemptions and (not request.endpoint or self._is_exempt()):
            return None  # as Flask-WTF's protect: an exempt view (the API) is not checked
        config = current_app.config
        if request.method not in config["WTF_CSRF_METHODS"]:
            return None
        text = self._get_csrf_token()
        secret = config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key
        field = config.get("WTF_CSRF_FIELD_NAME") or "csrf_token"
        known = self._checked.get((secret, text)) if text and secret else None
        if known is None:
            super().protect()  # the full check: refused as Flask-WTF refuses (CSRFError)
            if text and secret:
                self._remember(secret, text)
            return None
        signed, _, token = known.partition("|")
        limit = config.get("WTF_CSRF_TIME_LIMIT")
        if limit is not None and not 0 <= int(time.time()) - int(signed) <= limit:
            self._error_response("The CSRF token has expired.")
        if field not in session:
            self._error_response("The CSRF session token is missing.")
        if not hmac.compare_digest(session[field], token):
            self._error_response("The CSRF tokens do not match.")
        if request.is_secure and config["WTF_CSRF_SSL_STRICT"]:  # as Flask-WTF's protect checks it
            if not request.referrer:
                self._error_response("The referrer header is missing.")
            if not same_origin(request.referrer, f"https://{request.host}/"):
                self._error_response("The referrer does not match the host.")
        g.csrf_valid = True
        return None

    def _remember(self, secret, text: str) -> None:
        """After Flask-WTF found `text` good: what it decodes to and when it was signed."""
        try:
            token, signed_at = URLSafeTimedSerializer(secret, salt=SALT).loads(text, return_timestamp=True)
        except BadData:  # pragma: no cover - Flask-WTF has just read it with the same secret and salt
            return
        if isinstance(token, str) and "|" not in token:
            self._checked.put((secret, text), f"{int(signed_at.timestamp())}|{token}")


csrf = RememberedCSRF()  # the app's (views exempt the API's blueprint from it)


def init_app(app) -> None:
    csrf.init_app(app)
