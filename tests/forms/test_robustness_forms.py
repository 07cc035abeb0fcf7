"""Whatever a phone posts to a game's forms, the app answers (saved, refused with messages, or a
conflict) and the stored game stays a valid document: never a 500, never a broken game."""

from __future__ import annotations

import re
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app_helpers import make_app
from companion import games
from companion.extensions import db
from companion.storage.models import GameRecord

VARIANTS = [(g, v) for g in games.GAMES for v in games.GAMES[g].variants]
values = st.one_of(
    st.sampled_from(["", "0", "1", "7", "-3", "999999", "13", "3", "4", "oui", "on", "true", "A1 C4",
                     "FFEEDDPP", "Yanis", "Maëlle", "personne", "x" * 300, "1.5", "<b>"]),
    st.text(max_size=12),
)


class Names(HTMLParser):
    def __init__(self):
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("input", "select", "textarea") and a.get("name"):
            self.names.add(a["name"])


@pytest.fixture(scope="module")
def app():
    folder = Path(tempfile.mkdtemp(prefix="companion-fuzz-"))
    return make_app(folder)


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_posting_anything_to_a_game_never_breaks_it(app, game, variant):
    client = app.test_client()
    res = client.post("/nouvelle", data={"game": game, "variant": variant,
                                         "players-0-name": "Maëlle", "players-1-name": "Yanis"})
    assert res.status_code == 302
    token = re.fullmatch(r"/g/([\w-]+)/", res.headers["Location"]).group(1)
    parser = Names()
    parser.feed(client.get(f"/g/{token}/").get_data(as_text=True))
    fields = sorted(parser.names - {"csrf_token", "version"})
    assert fields

    @settings(max_examples=60)
    @given(st.dictionaries(st.sampled_from(fields), values, max_size=8))
    def post(data):
        with app.app_context():
            version = db.session.scalar(db.select(GameRecord.version).filter_by(edit_token=token))
        res = client.post(f"/g/{token}/save", data={**data, "version": str(version)})
        assert res.status_code in (200, 409, 422), res.status_code
        with app.app_context():
            record = db.session.scalar(db.select(GameRecord).filter_by(edit_token=token))
            # A stored draft may still break a rule between fields (a castle holder before the
            # castles), never hold a bad value; a scored game always scores.
            assert [p for p in games.validate(record.document) if p.kind != games.RULE] == []
            if record.status == "scored":
                assert games.validate(record.document) == []
        page = client.post(f"/g/{token}/", data={**data, "version": str(version)})
        assert page.status_code in (200, 302, 409, 422)

    post()
