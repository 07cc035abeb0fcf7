"""This device: a random id in an HttpOnly cookie, issued on the first response that needs one.

Every list a phone keeps on the server ("Mes parties", its statistics, its export) is keyed by it.
"""

from __future__ import annotations

import secrets

from flask import current_app, g, request

DEVICE_COOKIE = "companion_device"
DEVICE_MAX_AGE = 2 * 365 * 24 * 3600  # a table's phone keeps its history for two years


def device_id(create: bool = True) -> str | None:
    """This device's random id (HttpOnly cookie); a new one is issued on the response when absent."""
    here = g._get_current_object()  # one lookup through Werkzeug's proxy, not one per attribute
    found = here.get("device")
    if found is not None:
        return found
    token = request._get_current_object().cookies.get(DEVICE_COOKIE, "")  # not through the proxy's getattr
    if not (20 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum()):
        if not create:
            return None
        token = secrets.token_urlsafe(24)
        here.new_device = True
    here.device = token
    return token


def set_device_cookie(response):
    """after_request hook: hand a new device its cookie."""
    if g.get("new_device"):
        response.set_cookie(DEVICE_COOKIE, g.device, max_age=DEVICE_MAX_AGE, httponly=True,
                            samesite="Lax", secure=current_app.config.get("SESSION_COOKIE_SECURE", False))
    return response
