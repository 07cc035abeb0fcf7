"""Security headers on every response."""

from __future__ import annotations

from functools import lru_cache

from flask import Flask, Response, request

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


@lru_cache(maxsize=256)
def policy(scripts: tuple[str, ...] = (), styles: tuple[str, ...] = ()) -> str:
    """CSP with the inline scripts and styles of a first visit allowed by their SHA-256 alone
    ('sha256-…', `companion.web.inline`): nothing else inline runs, no 'unsafe-inline'."""
    text = CSP
    if scripts:
        text = text.replace("script-src 'self'", "script-src 'self' " + " ".join(f"'{h}'" for h in scripts))
    if styles:
        text = text.replace("style-src 'self'", "style-src 'self' " + " ".join(f"'{h}'" for h in styles))
    return text


# Game URLs carry their access token: never leak them to another site. Same-origin (not
# no-referrer) because Flask-WTF's CSRF check over HTTPS requires a same-origin Referer.
HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
)


def add_headers(response: Response) -> Response:
    """HEADERS, each unless the view set its own (a first visit's CSP with its inline hashes): the
    response's header names read once, not once per header."""
    headers = response.headers
    present = {name.lower() for name, _ in headers.items()}
    headers.extend([pair for pair in HEADERS if pair[0].lower() not in present])
    return response


# Pages that hold an edit token (in their links or forms) or a device's list of games: never kept
# by a browser cache or a proxy, so that a shared or lost phone's back button does not reopen them.
NO_STORE = ("/g/", "/parties", "/nouvelle")


def cache_policy(response: Response) -> Response:
    """`no-store` under NO_STORE unless a view chose better (a sheet's ETag); read-only share
    pages are revalidated each time (a save may change them)."""
    if "Cache-Control" not in response.headers:
        if request.path.startswith(NO_STORE):
            response.headers["Cache-Control"] = "no-store"
        elif request.path.startswith("/r/"):
            response.headers["Cache-Control"] = "private, no-cache"
    return response


def init_app(app: Flask) -> None:
    app.after_request(add_headers)
    app.after_request(cache_policy)
