"""The result of a stored document, kept per document text and language.

The edit page, the results pages, the history and the summary written with each version all ask for
it, again and again between two saves: results are kept per document text (the text is the key, so a
document changed by any means is scored anew) and per language (the explanations are sentences in
the reader's). None when the document no longer scores (an engine got stricter, or a draft).
"""

from __future__ import annotations

import json
from functools import lru_cache

from .. import games
from ..games import i18n


def result_of(record):
    """The result of a stored game's document (`record.document`) by its edition's rules, or None
    if it does not score."""
    return result_of_text(json.dumps(record.document, sort_keys=True, ensure_ascii=False), i18n.current(),
                          getattr(record, "edition", None))


@lru_cache(maxsize=512)
def result_of_text(text: str, lang: str, edition: str | None = None):
    """The result of a document given as its JSON text (sorted keys), in the language `lang`, by
    the rules of `edition` (None: the game's default)."""
    try:
        document = json.loads(text)
        # the default edition is asked as every caller asks (no keyword): one way to score a game
        return games.score(document, edition=edition) if edition else games.score(document)
    except games.InvalidDocument:
        return None


def needed_of(record) -> list:
    """What each player who did not win would have needed (`games.needs`), searched once per stored
    version: kept per document text and edition, in no language (the lines are worded when shown).
    Empty when the document does not score."""
    return needed_of_text(json.dumps(record.document, sort_keys=True, ensure_ascii=False),
                          getattr(record, "edition", None))


@lru_cache(maxsize=256)
def needed_of_text(text: str, edition: str | None = None) -> tuple:
    try:
        document = json.loads(text)
        return tuple(games.needs(document, edition=edition))
    except games.InvalidDocument:
        return ()
