"""Dates as the reader reads them: in their time zone (a cookie their phone set) and language.

Template filters `short_date` (« 22 nov. 2026 », "22 Nov 2026") and `date_and_time` (with the time),
in the reader's language.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import has_request_context, request

from ..games import i18n

ZONE_COOKIE = "companion_tz"  # the phone's time zone (IANA name), written by static/js/zone.js


def zone() -> ZoneInfo | None:
    """The player's time zone, from the cookie their browser set; None when unknown (no JS yet)."""
    name = request.cookies.get(ZONE_COOKIE, "") if has_request_context() else ""
    if not name or len(name) > 64 or not re.fullmatch(r"[A-Za-z0-9_+\-/]+", name):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def local(value: datetime) -> datetime:
    """A stored time (UTC; SQLite gives it back without its zone) in the player's time zone."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(zone() or UTC)

def short_date(value: datetime | date | None) -> str:
    """A short date in the reader's language and time zone: « 22 nov. 2026 », "22 Nov 2026"."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = local(value)
    return i18n.short_date(value)


def date_and_time(value: datetime) -> str:
    """« 22 nov. 2026 à 21 h 05 » in the player's zone; « … UTC » while the zone is unknown."""
    t = local(value)
    if i18n.current() == "en":
        return f"{short_date(t)}, {t.hour}:{t.minute:02d}" + ("" if zone() else " UTC")
    return f"{short_date(t)} à {t.hour} h {t.minute:02d}" + ("" if zone() else " UTC")


def register(bp) -> None:
    """The filters, for every template of the app (`bp`: the blueprint that brings them)."""
    bp.add_app_template_filter(short_date)
    bp.add_app_template_filter(date_and_time)
