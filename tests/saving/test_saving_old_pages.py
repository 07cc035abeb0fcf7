"""Pages open before the one save path (issue 29) keep saving, for one release: a page rendered by
the previous release posts the same field names, base values and version, with or without its
script, and a draft its script kept on the phone is sent again as an autosave. Each page of
`fixtures/pages-before-one-path.json` was rendered by the previous release (the WTForms save) for a
stored game of each kind: its form's fields as the browser posts them (an unticked box: not posted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app_helpers import create_game, stored
from companion.storage import store

FIXTURES = Path(__file__).parent.parent / "fixtures"
PAGES = json.loads((FIXTURES / "pages-before-one-path.json").read_text())
# the count each test changes: a player's own number on every game
CHANGED = {"revive-abyss": "players-0-track", "rebirth-scotland": "players-0-track",
           "reterra": "players-0-segments"}
OTHER = {"revive-abyss": "players-1-devotion", "rebirth-scotland": "players-1-castles",
         "reterra": "players-0-inhabitants"}


def _game(client, app, name: str) -> tuple[str, dict]:
    """A stored game as the page was rendered from: its token, and the page's posted fields."""
    page = PAGES[name]
    doc = page["document"]
    token = create_game(client, doc["game"], doc["variant"], [p["name"] for p in doc["players"]])
    with app.app_context():
        record = store.by_edit_token(token)
        store.save(record, doc, record.version)
    fields = {n: v for n, v, _kind in page["fields"] if v is not None}
    assert int(fields["version"]) == stored(app, token).version  # the page's version: nothing saved since
    return token, fields


def _path(doc: dict, name: str):
    """The value at a field name that is its contract path (players-0-track)."""
    _players, seat, key = name.split("-", 2)
    return doc["players"][int(seat)].get(key)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_page_of_the_previous_release_saves_without_javascript(client, app, name):
    token, fields = _game(client, app, name)
    field = CHANGED[name]
    before = stored(app, token).document
    fields[field] = str(int(fields[field]) + 1)
    response = client.post(f"/g/{token}/", data=fields | {"action": "save"})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    after = stored(app, token).document
    assert _path(after, field) == _path(before, field) + 1
    # nothing else changed: the page shows again what it showed, but the one field
    again = {"version": stored(app, token).version, "changes": "{}"}
    shown = client.post(f"/g/{token}/save", data=again).json
    assert shown["stored"] == {n: v for n, v in json.loads(fields["base_values"]).items() if v} | {
        field: fields[field]}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_page_of_the_previous_release_autosaves(client, app, name):
    token, fields = _game(client, app, name)
    field = CHANGED[name]
    was = fields[field]
    answer = client.post(f"/g/{token}/save", data={
        "version": fields["version"], "changes": json.dumps({field: [was, str(int(was) + 2)]}),
        "new_rows": "[]", "delta": "1"})
    assert answer.status_code == 200, answer.json
    assert answer.json["changed"] == {field: str(int(was) + 2)}
    assert _path(stored(app, token).document, field) == int(was) + 2


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_draft_kept_on_the_phone_before_the_upgrade_is_sent_again(client, app, name):
    """The script keeps every change with its base in localStorage ({base, values, version}); after
    a reload it sends what differs from the base, based on the version it had. Another phone saved
    another field meanwhile: both are kept."""
    token, fields = _game(client, app, name)
    base = json.loads(fields["base_values"])
    draft = {"base": base, "values": dict(base), "version": int(fields["version"])}
    field, other = CHANGED[name], OTHER[name]
    draft["values"][field] = str(int(base[field]) + 3)
    meanwhile = client.post(f"/g/{token}/save", data={
        "version": fields["version"], "changes": json.dumps({other: [base.get(other, ""), "2"]})})
    assert meanwhile.status_code == 200, meanwhile.json
    changes = {n: [draft["base"].get(n, ""), v] for n, v in draft["values"].items()
               if v != draft["base"].get(n, "")}
    answer = client.post(f"/g/{token}/save", data={"version": str(draft["version"]),
                                                   "changes": json.dumps(changes)})
    assert answer.status_code == 200, answer.json
    doc = stored(app, token).document
    assert _path(doc, field) == int(base[field]) + 3 and _path(doc, other) == 2
