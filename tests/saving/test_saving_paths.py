"""The two ways a save arrives, driven with the same random change sets (seeded): the autosave (its
JSON changes, read by companion.saving.wire) and the form posted without JavaScript (every field,
read by WTForms, the reference). Two identical games, one per path: after every change set both hold
the same stored document and version, and both answered alike (saved, conflict on the same fields,
refused beside the same fields, or saved without the values wrong on their own, beside the same
fields)."""

from __future__ import annotations

import json
import random
import re
from html import unescape

import pytest

from app_helpers import autosave, create_game, posted, stored

NAMES = ["Éloïse", "Jules", "Inès", "Yanis"]
TRIALS = 150  # per game: 300 change sets in all


def _numbers(page: dict[str, str]) -> list[str]:
    """The players' number fields of a page (not rows: the no-JS page pads its own)."""
    return sorted(n for n, v in page.items() if re.fullmatch(r"players-\d-[a-z_]+(-\d-?[a-z_]*)?", n)
                  and (v == "" or v.isdigit()) and not n.endswith("-name"))


def _added(mine: dict[str, str], base: dict[str, str], lists) -> list[str]:
    """The rows B fills that held nothing in its base, as static/js/play/autosave.js lists them (new_rows)."""
    out = []
    for name in mine:
        for m in re.finditer(r"-(\d+)(?=-|$)", name):
            prefix = name[:m.end()]
            if prefix[:m.start()] in lists and not any(
                    (n == prefix or n.startswith(prefix + "-")) and v for n, v in base.items()):
                out.append(prefix)
    return sorted(set(out))


def _value(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.65:
        return str(rng.randint(0, 12))
    if roll < 0.8:
        return ""
    if roll < 0.9:
        return "999"  # out of bounds: refused beside the field
    return "x"


def _answer(response) -> tuple[str, frozenset]:
    """(what happened, the fields it names) whichever path answered."""
    status = response.status_code
    if response.is_json:
        data = response.json
        if status == 409:
            return "conflict", frozenset(data["theirs"])
        if status == 422:
            return "refused", frozenset(data["errors"])
        assert status == 200, (status, data)
        if data.get("refused"):  # stored without its values wrong on their own, each with its message
            assert data["state"].startswith("Enregistré, sauf "), data["state"]
            return "partly", frozenset(data["errors"])
        return "saved", frozenset()
    html = unescape(response.get_data(as_text=True))
    if status == 409:
        return "conflict", frozenset(re.findall(r'class="theirs" id="t-([^"]+)"', html))
    if status == 422:
        marked = re.findall(r'<p class="field-error" id="e-([^"]+)"[^>]*>([^<]+)</p>', html)
        kind = "partly" if "Enregistré, sauf " in html else "refused"
        return kind, frozenset(name for name, text in marked if text.strip())
    assert status == 302, status
    return "saved", frozenset()


@pytest.mark.parametrize(("game", "variant", "seed"), [("rebirth", "scotland", 21), ("revive", "base", 2121)])
def test_autosave_and_the_no_js_form_store_and_answer_the_same(client, app, game, variant, seed):
    rng = random.Random(seed)
    one = create_game(client, game, variant, NAMES)
    assert autosave(client, one, 1, players__0__track=("", "1")).status_code == 200  # touched: not a twin
    two = create_game(client, game, variant, NAMES)
    assert autosave(client, two, 1, players__0__track=("", "1")).status_code == 200
    assert one != two
    fields = _numbers(posted(client.get(f"/g/{one}/").get_data(as_text=True)))
    with app.test_request_context():
        from companion import forms

        lists = set(forms.screens(game).texts(stored(app, one).document).limits)
    assert len(fields) >= 20
    seen = set()
    for trial in range(TRIALS):
        # phone B opens both games (identical) ...
        page_b = posted(client.get(f"/g/{two}/").get_data(as_text=True))
        version = int(page_b["version"])
        base = json.loads(page_b["base_values"])
        # ... phone A saves a few fields on both, the same way ...
        picked = rng.sample(fields, rng.randint(0, 3))
        theirs = {n: (base.get(n, ""), str(rng.randint(0, 12))) for n in picked}
        a_saves = [autosave(client, token, version, **{n.replace("-", "__"): p for n, p in theirs.items()})
                   for token in (one, two)]
        assert a_saves[0].status_code == a_saves[1].status_code  # a value out of bounds: refused on both
        kept_out = a_saves[0].json.get("refused") or [] if a_saves[0].status_code == 200 else theirs
        assert kept_out == (a_saves[1].json.get("refused") or [] if a_saves[1].status_code == 200 else theirs)
        theirs = {n: pair for n, pair in theirs.items() if n not in kept_out}  # what A stored
        # ... then B's changes (sometimes on A's fields, sometimes A's very value) by each path
        mine = {}
        for name in rng.sample(fields, rng.randint(1, 4)):
            value = theirs[name][1] if name in theirs and rng.random() < 0.3 else _value(rng)
            if value != base.get(name, ""):
                mine[name] = value
        by_json = autosave(client, one, version, _added(mine, base, lists),
                           **{n.replace("-", "__"): (base.get(n, ""), v) for n, v in mine.items()})
        by_form = client.post(f"/g/{two}/", data=page_b | mine | {"action": "save"})
        answers = _answer(by_json), _answer(by_form)
        assert answers[0] == answers[1], (trial, mine, theirs, answers)
        seen.add(answers[0][0])
        first, second = stored(app, one), stored(app, two)
        assert first.document == second.document, (trial, mine, theirs)
        assert first.version == second.version, trial
        if answers[0][0] == "conflict":  # "Appliquer mes saisies" on both: the other side's values as base
            now = json.loads(posted(client.get(f"/g/{two}/").get_data(as_text=True))["base_values"])
            again = {n: (now.get(n, ""), v) for n, v in mine.items()}
            for token in (one, two):
                autosave(client, token, first.version, **{n.replace("-", "__"): p for n, p in again.items()})
            assert stored(app, one).document == stored(app, two).document
    # "partly": stored without the values wrong on their own (docs/rulings.md), alike on both paths
    assert seen == {"saved", "conflict", "refused", "partly"}
