"""A date a plain statement sends to SQLite (companion/storage/sqlite.py's `bind_processor`): the very
text SQLAlchemy's own DATETIME writes, for any date, with or without an offset."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.dialects import postgresql, sqlite

from companion.storage.sqlite import bind_processor

DIALECT = sqlite.dialect()
OFFSETS = st.sampled_from([None, UTC, timezone(timedelta(hours=5, minutes=30)),
                           timezone(-timedelta(hours=11))])
MOMENTS = st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59, 999999))


def processors(column_type):
    impl = column_type.dialect_impl(DIALECT)
    return bind_processor(impl, DIALECT), impl.bind_processor(DIALECT)


@settings(max_examples=300, deadline=None)
@given(MOMENTS, OFFSETS)
def test_a_date_is_written_as_sqlalchemy_writes_it(moment, offset):
    ours, theirs = processors(sa.DateTime(timezone=True))
    value = moment.replace(tzinfo=offset)
    assert ours(value) == theirs(value)


def test_what_is_not_a_datetime_is_left_to_sqlalchemy():
    ours, theirs = processors(sa.DateTime())
    assert ours(None) is None
    assert ours(date(2026, 11, 27)) == theirs(date(2026, 11, 27)) == "2026-11-27 00:00:00.000000"
    with pytest.raises(TypeError):
        ours("2026-11-27")


def test_a_format_of_its_own_and_other_types_keep_their_processor():
    own = sqlite.DATETIME(truncate_microseconds=True)
    assert bind_processor(own, DIALECT)(datetime(2026, 11, 27, 18, 5, 1, 42)) == "2026-11-27 18:05:01"
    pg = postgresql.dialect()
    assert bind_processor(sa.DateTime().dialect_impl(pg), pg) is None  # the driver takes the datetime
