"""The names inside the edit page's JSON fields are read as JSON only when one could be refused
(`formkeys._surely_good`): a text it passes never holds a refused name nor nests too deep, whatever
it holds, and an autosave's usual `changes` is passed without being read."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.base import jsonio
from companion.web import formkeys

KNOWN = ["players", "track", "0", "12", "999", "1000", "²", "٣", "cities", "01234"]
PARTS = st.one_of(st.sampled_from(KNOWN), st.text(alphabet="abc-0123456789²٣é", max_size=8))
NAMES = st.lists(PARTS, min_size=1, max_size=4).map("-".join)
VALUES = st.recursive(st.one_of(st.text(max_size=6), st.integers(-10_000, 10_000), NAMES),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
                      max_leaves=12)
FIELDS = st.one_of(st.dictionaries(NAMES, st.tuples(VALUES, VALUES).map(list), max_size=4),
                   st.lists(NAMES, max_size=4))


@settings(max_examples=400, deadline=None)
@given(FIELDS, st.booleans())
def test_a_text_passed_unread_holds_no_name_that_would_be_refused(value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    if formkeys._surely_good(text):
        assert not any(formkeys.bad_name(name) for name in formkeys._names_in("changes", text))


def test_deep_or_escaped_or_long_numbers_are_read():
    assert not formkeys._surely_good("[" * (jsonio.MAX_DEPTH + 1) + "]" * (jsonio.MAX_DEPTH + 1))
    assert not formkeys._surely_good('{"players-\\u00b2-track": ["", "4"]}')  # "²", escaped
    assert not formkeys._surely_good('{"players-²-track": ["", "4"]}')
    assert not formkeys._surely_good('{"players-0000-track": ["", "4"]}')


def test_an_autosaves_changes_are_passed_unread():
    changes = {"players-0-track": ["12", "13"], "players-3-cities-2-size": ["", "4"]}
    assert formkeys._surely_good(json.dumps(changes))
    assert formkeys._surely_good("[]")
