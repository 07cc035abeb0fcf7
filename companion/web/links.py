"""Links a player opens on another phone: the entry link, the read-only share link, the app itself.

A link built from the request's own address is useless on a phone when the page was opened on the
serving laptop itself (http://127.0.0.1:5000). So, in this order:

1. `PUBLIC_URL` (a club server behind a proxy sets it): always wins.
2. A page requested at a loopback name (127.x, localhost, ::1) by a server that found the
   machine's network address when it started (`LAN_ADDRESS`, set by `make run`): that address,
   with the port the page was opened on.
3. Otherwise the address the phone itself used (through `TRUSTED_PROXIES`' headers behind a proxy).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import Flask, current_app, request, url_for
from markupsafe import Markup

from ..games.i18n import _
from . import qr


def _is_loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost.localdomain") or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def base() -> str:
    """`scheme://host[:port]` that another phone at the table can open, for this request."""
    public = (current_app.config.get("PUBLIC_URL") or "").strip().rstrip("/")
    if public:
        return public
    here = urlsplit(request.host_url)
    lan = current_app.config.get("LAN_ADDRESS") or ""
    if lan and here.hostname and _is_loopback(here.hostname):
        port = f":{here.port}" if here.port else ""
        return f"{here.scheme}://{lan}{port}"
    return request.host_url.rstrip("/")


def phone_url(endpoint: str, **values) -> str:
    """The absolute URL of `endpoint` for another phone (see the module's order)."""
    return base() + url_for(endpoint, **values)


def qr_svg(link: str) -> Markup:
    """The link's QR code, inline SVG (escaping is segno's: the link is XML-escaped in <title>)."""
    return Markup(qr.svg(link, _("Code QR de {link}", link=link)))  # noqa: S704 - segno writes the markup


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(phone_url=phone_url, qr_svg=qr_svg)
