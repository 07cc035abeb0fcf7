"""Stored games: the contract document plus what the pages need.

The document is the single source of truth; scores are always recomputed from it.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db


def new_token() -> str:
    """256 bits, URL-safe: a game URL cannot be guessed or enumerated."""
    return secrets.token_urlsafe(32)


def new_uid() -> str:
    """A game's stable identity across servers (export, import, BG Stats): 128 random bits, hex."""
    return secrets.token_hex(16)


def now() -> datetime:
    return datetime.now(UTC)


class GameRecord(db.Model):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    edit_token: Mapped[str] = mapped_column(sa.String(64), unique=True, index=True, default=new_token)
    view_token: Mapped[str] = mapped_column(sa.String(64), unique=True, index=True, default=new_token)
    # Stable identity that travels in export files: an import never duplicates a game it already has.
    # Not an access token: it never appears in a URL, and it grants at most read access (see exchange).
    uid: Mapped[str] = mapped_column(sa.String(32), unique=True, index=True, default=new_uid)
    game: Mapped[str] = mapped_column(sa.String(20))
    variant: Mapped[str] = mapped_column(sa.String(20))
    document: Mapped[dict] = mapped_column(sa.JSON)
    # Bumped on every save; a save carrying an older version is refused (no lost update).
    version: Mapped[int] = mapped_column(default=1)
    # The version at which the players' seats last changed (the "Joueurs" page: a reorder, a player
    # added or removed); 0 when never. An autosave is keyed by seat (`players-0-track`): one based on
    # an older version was typed on a page whose seats are gone, and is refused (saving.service).
    seats_version: Mapped[int] = mapped_column(default=0, server_default="0")
    status: Mapped[str] = mapped_column(sa.String(10), default="draft")  # draft | scored
    # Player colours (CSS hex, same order as document["players"]): not part of the contract
    # document, whose unknown keys are errors, so they are kept beside it.
    colours: Mapped[list | None] = mapped_column(sa.JSON, nullable=True)
    # What the statistics and the CSV export need of this version (names, points, places, winners;
    # companion/storage/summaries.py), written with the document (store.save) for the version and engine it
    # was made with: 5,000 games are never scored on a visit. Never read as the truth: remade when stale.
    summary: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    # Names the table gives once, beside the document for the same reason: {"colours": [...]} for
    # Revive's three card colours (the rules name only yellow).
    labels: Mapped[dict | None] = mapped_column(sa.JSON, nullable=True)
    # The rule set the table plays by, for a game with several (`Game.editions`: Reterra's English
    # edition breaks a tie on buildings); None: the game's default. Beside the document, which has
    # no key for it (the contract stays as it is), and passed to the engine (`games.score(edition=)`).
    edition: Mapped[str | None] = mapped_column(sa.String(20), nullable=True)
    # The one-time key of the new-game form that created it: the same form posted again (a double
    # tap on "Commencer la saisie", Back then submit) goes to this game instead of making another.
    creation_key: Mapped[str | None] = mapped_column(sa.String(64), unique=True, index=True, nullable=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now, onupdate=now)
    # When the game was first stored as scored ("Voir les résultats"), set once by the save that did
    # it (`store.save`) and never moved again: with `created_at` (the table starting the game), the
    # game's duration sent to BG Stats. None: not scored yet, or scored before this was recorded.
    first_scored_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    # The digest of the photo of the final board kept with the game (`GamePhoto`), None when none:
    # on the row the results pages read anyway, so knowing there is one (and keying their caches
    # by it) costs no query.
    photo_key: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)


class DeviceGame(db.Model):
    """Which games a device created or opened: its history, never shown to another device."""

    __tablename__ = "device_games"

    device: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    opened_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    # True when the device holds the edit link (it created the game or opened /g/...); False for
    # a game only seen through its read-only link.
    can_edit: Mapped[bool] = mapped_column(default=True, server_default=sa.true())


class GamePhoto(db.Model):
    """The photo of a game's final board (companion/storage/photos.py): a JPEG, long side at most 2048 px,
    without any metadata. In the database, beside the game it belongs to: one backup holds both,
    every worker and server reads it, and it goes with the game (ON DELETE CASCADE, and
    `store.delete` removes it in the same transaction)."""

    __tablename__ = "game_photos"

    game_id: Mapped[int] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[bytes] = mapped_column(sa.LargeBinary)
    width: Mapped[int]
    height: Mapped[int]
    digest: Mapped[str] = mapped_column(sa.String(32))  # its bytes' SHA-256, cut: ETag and cache keys
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)


class GameChange(db.Model):
    """One stored save of a game, as the page shows its fields (companion/saving/gamelog.py): which phone
    (a hash of its device cookie, never the cookie), when, the version it wrote, and each field it
    changed `{name: [before, after]}` (JSON text). `undo_of`: the change this one undid (an undo is a
    save like any other, logged as one). The last `changelog.KEPT` of a game are kept; they go with it
    (ON DELETE CASCADE, and `store.delete` removes them for SQLite)."""

    __tablename__ = "game_changes"
    __table_args__ = (sa.Index("ix_game_changes_game_id_id", "game_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"))
    phone: Mapped[str] = mapped_column(sa.String(32))
    at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    # the game's version this save wrote: a change written before the seats last moved
    # (`GameRecord.seats_version`) is keyed by seats that are someone else's now, and cannot be undone
    version: Mapped[int]
    changes: Mapped[str] = mapped_column(sa.Text)
    undo_of: Mapped[int | None] = mapped_column(nullable=True)
