"""Whatever arrives, the engines answer with problems or a result, never a crash (API 422, CLI exit 2)."""

from __future__ import annotations

import copy
import json

from hypothesis import given
from hypothesis import strategies as st

from companion import games
from document_helpers import load_example

EXAMPLES = [load_example(n) for n in ("rebirth-scotland.json", "reterra.json", "revive-abyss.json")]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def places(value, path=()):
    """Every (container, key) inside a document, to mutate one of them."""
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            found.append((path, k))
            found.extend(places(v, (*path, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found.append((path, i))
            found.extend(places(v, (*path, i)))
    return found


def get(doc, path):
    for key in path:
        doc = doc[key]
    return doc


@given(st.sampled_from(EXAMPLES), st.data())
def test_a_mutated_example_never_crashes(example, data):
    doc = copy.deepcopy(example)
    for _ in range(data.draw(st.integers(1, 3))):
        spots = places(doc)
        if not spots:
            break
        path, key = data.draw(st.sampled_from(spots))
        container = get(doc, path)
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            container[key] = data.draw(json_values)
        elif action == "delete":
            del container[key]
        elif isinstance(container, dict):
            container[data.draw(st.text(max_size=6))] = data.draw(json_values)
        else:
            container.append(data.draw(json_values))
    before = json.dumps(doc, sort_keys=True)
    problems = games.validate(doc)
    assert json.dumps(doc, sort_keys=True) == before  # scoring never changes the document
    for problem in problems:
        assert problem.path and problem.message


@given(json_values)
def test_any_json_value_is_refused_or_scored(value):
    assert isinstance(games.validate(value), list)


TOOL_PAYLOADS = {
    ("rebirth", "city"): {"variant": "ireland", "players": ["A", "B", "C"],
                          "city": {"size": 3, "tiles": [{"player": "A", "influence": 2, "order": 1},
                                                        {"player": "B", "influence": 2, "order": 2},
                                                        {"player": "C", "influence": 1, "order": 3}]}},
    ("rebirth", "castle"): {"players": ["A", "B"], "holder": "A", "active": "B",
                            "adjacent": {"A": {"tiles": 2, "farms": 1}, "B": {"tiles": 2, "farms": 2}}},
    ("reterra", "grid"): {"grid": EXAMPLES[1]["players"][1]["grid"]},
}


@given(st.sampled_from(sorted(TOOL_PAYLOADS)), st.data())
def test_table_tools_never_crash(tool, data):
    payload = copy.deepcopy(TOOL_PAYLOADS[tool])
    spots = places(payload)
    path, key = data.draw(st.sampled_from(spots))
    container = get(payload, path)
    if data.draw(st.booleans()):
        container[key] = data.draw(json_values)
    else:
        del container[key]
    try:
        answer = games.TOOLS[tool](payload)
    except games.InvalidDocument as exc:
        assert all(p.path and p.message for p in exc.problems)
    else:
        assert isinstance(answer, dict)


def test_tool_examples_answer():
    assert games.TOOLS[("rebirth", "city")](TOOL_PAYLOADS[("rebirth", "city")])["points"] == {"C": 2, "A": 6,
                                                                                                "B": 4}
    assert games.TOOLS[("rebirth", "castle")](TOOL_PAYLOADS[("rebirth", "castle")])["holder"] == "B"
