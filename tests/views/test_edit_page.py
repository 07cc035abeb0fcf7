"""The edit page from its skeleton (companion/views/edit_page.py) is the page rendered with its form:
400 random stored states (seeded; all five variants, French and English), each rendered both ways
in one request, give the same bytes; and the page a phone gets shows what was saved."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion import forms
from companion.games import i18n
from companion.storage import history, store
from companion.views import edit, edit_page

FIXTURES = Path(__file__).parent.parent / "fixtures"
NAMES = ["Éloïse", "Jules & <b>", "Inès", "Yanis"]
VARIANTS = [("rebirth", "scotland", 1), ("rebirth", "ireland", 2), ("revive", "base", 3),
            ("revive", "abyss", 4), ("reterra", "base", 5)]
STATES = 80  # per variant: 400 in all


def _new(client, game: str, variant: str, names=NAMES) -> str:
    data = {"game": game, "variant": variant}
    for i, name in enumerate(names):
        data[f"players-{i}-name"] = name
    response = client.post("/nouvelle", data=data)
    return re.search(r"/g/([\w-]+)/", response.headers["Location"]).group(1)


def _value(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.6:
        return str(rng.randint(0, 12))
    if roll < 0.75:
        return ""
    if roll < 0.85:
        return "y"
    return rng.choice(["x", "999", "-1", "1", "2"])


def _both(app, token: str, lang: str) -> tuple[str, str | None]:
    """The page rendered with its form, and from its skeleton (None: it would be rendered with its
    form), in one request (one CSRF token)."""
    with app.test_request_context(f"/g/{token}/", headers={"Accept-Language": lang}):
        app.preprocess_request()
        record = store.by_edit_token(token)
        sc = forms.screens(record.game)
        form = sc.form(record.document)
        form.version.data = str(record.version)
        view = sc.texts(record.document)
        errors = {} if store.result_of(record) is not None else forms.problems_of(sc, view)
        full = edit._edit_page(record, sc, form, errors=errors, stored=forms.raw_values(form))[0]
        row = history.open_by_edit_token(token)  # as the view reads it: one query, no ORM
        fast = edit_page.page(row, sc)
        again = edit_page.page(row, sc)  # from the kept skeleton this time
        assert fast == again
        return full, fast


@pytest.mark.parametrize(("game", "variant", "seed"), VARIANTS)
def test_the_skeleton_page_is_the_form_page_byte_for_byte(app, client, game, variant, seed):
    rng = random.Random(seed)
    fixture = FIXTURES / f"{game}-{variant}.json"
    document = json.loads(fixture.read_text()) if fixture.exists() else None
    token = _new(client, game, variant, [p["name"] for p in document["players"]] if document else NAMES)
    if document:  # a whole end state first, then random changes over it
        with app.app_context():
            record = store.by_edit_token(token)
            store.save(record, document, record.version)
    skeletal = 0
    for trial in range(STATES):
        lang = "en" if trial % 3 == 2 else "fr"
        with app.test_request_context(), i18n.using(lang):
            record = store.by_edit_token(token)
            sc = forms.screens(game)
            view = sc.texts(record.document)
            fields = sorted(view.values)
            # a player's numbers and boxes, outside the rows and the table's own fields (as a table
            # mostly types them: the game keeps scoring)
            pool = [n for n in fields if view.leaves[n].kind in ("count", "flag") and n.startswith("players-")
                    and not any(n.startswith(rows + "-") for rows in view.limits)] or fields
            picked = rng.sample(pool, min(len(pool), rng.randint(1, 6)))
            changes = {n: [view.values.get(n, ""), _value(rng)] for n in picked}
        client.post(f"/g/{token}/save", data={"version": record.version, "changes": json.dumps(changes),
                                              "new_rows": "[]"})
        full, fast = _both(app, token, lang)
        if fast is not None:
            skeletal += 1
            assert fast == full, (trial, changes, _diff(full, fast))
    if game != "reterra":  # its page reads values itself: always rendered with its form
        assert skeletal > STATES // 4, skeletal
    else:
        assert skeletal == 0


def _diff(a: str, b: str) -> str:
    k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"at {k}: {a[k - 80:k + 80]!r} != {b[k - 80:k + 80]!r}"


def test_a_phone_gets_the_saved_values_from_the_skeleton(app, client):
    token = _new(client, "revive", "abyss")
    doc = json.loads((FIXTURES / "revive-abyss.json").read_text())
    with app.app_context():
        record = store.by_edit_token(token)
        store.save(record, doc, record.version)
    edit_page.SKELETONS.clear()
    first = client.get(f"/g/{token}/").get_data(as_text=True)
    assert len(edit_page.SKELETONS) == 1
    version = int(re.search(r'name="version" type="hidden" value="(\d+)"', first).group(1))
    changes = {"players-0-track": [str(doc["players"][0].get("track", "")), "37"]}
    saved = client.post(f"/g/{token}/save", data={"version": version, "changes": json.dumps(changes),
                                                 "new_rows": "[]"})
    assert saved.status_code == 200, saved.get_data(as_text=True)
    page = client.get(f"/g/{token}/").get_data(as_text=True)
    assert len(edit_page.SKELETONS) == 1  # the same shape: the same skeleton, new values
    assert re.search(r'id="players-0-track" name="players-0-track" value="37"', page)
    assert f'value="{version + 1}"' in page
    assert "\ue000" not in page
    english = client.get(f"/g/{token}/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert len(edit_page.SKELETONS) == 2 and "End of the game" in english
