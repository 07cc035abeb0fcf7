"""The photo of a game's final board, kept beside it (table game_photos; companion/storage/photos.py makes
it from an upload): read, set or replaced, removed. No save: a game's version and document never move."""

from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from .models import GamePhoto, GameRecord
from .store import Missing


def photo_of(game_id: int) -> GamePhoto | None:
    """A game's photo (companion.storage.photos made it: a JPEG without metadata), None when it has none."""
    return db.session.get(GamePhoto, game_id)


def set_photo(record, photo) -> None:
    """Keep `photo` (a `photos.Photo`) as the game's, replacing the one it had, and its digest on the
    game's row (`photo_key`: the pages know there is one without a query). The game's version and
    document are untouched: a photo is no save, so no phone's entry is ever in conflict with it."""
    for attempt in (1, 2):
        try:
            db.session.execute(sa.delete(GamePhoto).where(GamePhoto.game_id == record.id))
            db.session.add(GamePhoto(game_id=record.id, data=photo.data, width=photo.width,
                                     height=photo.height, digest=photo.digest))
            done = db.session.execute(sa.update(GameRecord).where(GameRecord.id == record.id)
                                      .values(photo_key=photo.digest).execution_options(synchronize_session=False))
            if done.rowcount != 1:  # the game was deleted meanwhile
                db.session.rollback()
                raise Missing
            db.session.commit()
            return
        except sa.exc.IntegrityError:  # another phone's photo of the same game, at the same instant
            db.session.rollback()
            if attempt == 2:
                raise


def remove_photo(record) -> None:
    db.session.execute(sa.delete(GamePhoto).where(GamePhoto.game_id == record.id))
    db.session.execute(sa.update(GameRecord).where(GameRecord.id == record.id).values(photo_key=None)
                       .execution_options(synchronize_session=False))
    db.session.commit()
