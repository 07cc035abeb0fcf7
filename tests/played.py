"""Stored games for the after-the-game tests (issue 14): scored Revive games put straight into the
database and a device's history, so that 500 of them take a second, not 500 form posts."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from companion.extensions import db
from companion.storage.models import DeviceGame, GameRecord

HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "=HYPERLINK(\"http://x\")",
           "@SUM(1)", "+1", "-2 & </svg>"]
START = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)


def revive(*players: tuple[str, int], **extra) -> dict:
    """A Revive (base) document: (name, track) per player, plus keys per player index."""
    doc = {"game": "revive", "variant": "base",
           "players": [{"name": n, "track": t} for n, t in players]}
    for i, keys in extra.items():
        doc["players"][int(i[1:])].update(keys)
    return doc


def device_of(client) -> str:
    """Give the test client a device id (its cookie, as the app would issue it) and return it."""
    token = secrets.token_urlsafe(24)
    client.set_cookie("companion_device", token)
    return token


def store_games(app, device: str | None, documents, *, status="scored", start=START,
                colours=None) -> list[GameRecord]:
    """Store `documents` as games one day apart, in `device`'s history (edit access)."""
    made = []
    with app.app_context():
        for i, doc in enumerate(documents):
            when = start + timedelta(days=i)
            n = len(doc["players"])
            record = GameRecord(game=doc["game"], variant=doc["variant"], document=doc, status=status,
                                colours=(colours or ["#c8372d", "#2f6fb3", "#e0b422", "#3d8b4f"])[:n],
                                created_at=when, updated_at=when)
            db.session.add(record)
            db.session.flush()
            if device is not None:
                db.session.add(DeviceGame(device=device, game_id=record.id, can_edit=True))
            made.append(record)
        db.session.commit()
        for record in made:
            db.session.refresh(record)
            db.session.expunge(record)
    return made
