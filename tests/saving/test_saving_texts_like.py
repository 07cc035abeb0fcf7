"""An autosave's stored texts made from those of the document it was laid on (issue 33): the
segments the save left as they were taken as they are, the changed ones made again, and the
document a save wrote handed to the next save of the same stored text (with its texts). Whatever is
kept, the texts are those of the whole new document, and the answers those of a save that keeps
nothing."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app_helpers import autosave, create_game
from companion import forms
from companion.games import i18n
from companion.saving import spec
from companion.storage import store
from companion.views import edit

FIXTURES = Path(__file__).parent.parent / "fixtures"
DOCUMENTS = {path.stem: json.loads(path.read_text()) for path in sorted(FIXTURES.glob("*.json"))
             if path.stem in ("revive-abyss", "rebirth-scotland", "reterra")}
TYPED = st.one_of(st.sampled_from(["", "0", "1", "7", "12", "y", "abc", "-3", "03", " 5 "]),
                  st.text(alphabet="0123456789", min_size=1, max_size=3))


def _whole(fields, document: dict) -> spec.Texts:
    """The texts of `document` made from nothing kept (every segment read again)."""
    spec.PIECES.clear()
    spec.WHOLE.clear()
    return spec.texts(fields.spec(document["variant"], len(document["players"])), document, fields.hooks)


def _same(made: spec.Texts, whole: spec.Texts) -> None:
    assert list(made.values.items()) == list(whole.values.items())  # the same texts, in the page's order
    assert (made.leaves, made.limits, made.blanks, made.rows) == (
        whole.leaves, whole.limits, whole.blanks, whole.rows)
    assert {name: piece.values for name, piece in made.parts.items()} == {
        name: piece.values for name, piece in whole.parts.items()}


@pytest.mark.parametrize("name", list(DOCUMENTS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_texts_made_from_the_old_ones_are_the_new_documents_own(app, name, data):
    """Random changes (one to three fields of any segment, a row's field, a box, a number typed
    badly), each laid and read as a save reads them, then the next one laid on the result: the
    texts made from the old texts are, at every step, those of the whole new document."""
    document = DOCUMENTS[name]
    with app.test_request_context(), i18n.using(data.draw(st.sampled_from(["fr", "en"]))):
        fields = forms.screens(document["game"]).fields
        texts = fields.texts(document)
        for _step in range(data.draw(st.integers(1, 3))):
            names = data.draw(st.lists(st.sampled_from(sorted(texts.values)), min_size=1, max_size=3))
            values = texts.values | {field: data.draw(TYPED) for field in names}
            new, _reading = fields.read(texts.document, values, known=texts)
            made = fields.texts(new, like=texts)
            assert made.document is new
            _same(made, _whole(fields, new))
            texts = made


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_a_value_of_another_type_is_a_changed_segment(app, name):
    """1, 1.0 and true are three values to a page (a count shows "1", "" and ""): a segment holding
    one instead of another is made again, never taken from the old texts."""
    document = DOCUMENTS[name]
    with app.test_request_context():
        fields = forms.screens(document["game"]).fields
        texts = fields.texts(document)
        player = document["players"][0]
        for key, value in player.items():
            if type(value) is int:
                for other in (float(value), bool(value)):
                    changed = {**document, "players": [{**player, key: other}, *document["players"][1:]]}
                    _same(fields.texts(changed, like=texts), _whole(fields, changed))


SAVES = ({"players__0__track": ("", "3"), "players__1__card_bonus__0__cards": ("", "2")},
         {"players__0__track": ("3", "4")},
         {"players__1__card_bonus__0__cards": ("2", "5")},
         {"players__0__track": ("3", "7")},  # based on a value stored no more: a conflict
         {"players__0__track": ("4", "9"), "players__1__card_bonus__0__cards": ("5", "")})


def _answers(client, token: str, forget: bool, saves=SAVES) -> list[dict]:
    """The answers to `saves` of one game (`forget`: each with nothing kept between saves)."""
    answers, version = [], 1
    for changes in saves:
        if forget:
            store._DOCUMENTS.clear()  # noqa: SLF001 - what the save keeps, emptied
            edit._TextsRead.KNOWN.clear()  # noqa: SLF001
        response = autosave(client, token, version, **changes)
        answer = response.get_json()
        version = answer["version"]
        answers.append({"status": response.status_code, **answer})
    return answers


def test_a_save_handed_the_kept_document_answers_as_one_that_reads_it_again(app, client):
    """Five autosaves of a game, each laid on the document and texts the save before it kept, answer
    (stored values, totals, messages, conflicts) as the same saves of another game made with nothing
    kept; the stored documents are the same."""
    # two games (each its own players: the same new game asked twice is one game, `store.untouched_twin`)
    tokens = [create_game(client, "revive", "base", names) for names in (["Ana", "Bob"], ["Cléo", "Dan"])]
    kept = _answers(client, tokens[0], forget=False)
    forgot = _answers(client, tokens[1], forget=True)
    # the same answers, each naming its own game's players
    assert kept == json.loads(json.dumps(forgot).replace("Cl\\u00e9o", "Ana").replace("Dan", "Bob"))
    assert [answer["status"] for answer in kept] == [200, 200, 200, 409, 200]
    with app.app_context():
        documents = [store.by_edit_token(token).document for token in tokens]
    for document in documents:  # each its own players' names
        for player in document["players"]:
            player.pop("name")
    assert documents[0] == documents[1] and documents[0]["players"][0]["track"] == 9
    assert kept[-1]["totals"] == [9, 0]


def test_after_another_workers_save_only_the_segments_it_changed_are_made_again(app, client, monkeypatch):
    """Two workers each keep their own texts: a save reaching this one after the other worker saved
    the game finds a stored document it never read. Its texts are made from those this worker kept
    of the game's older version (its unchanged segments taken as they are, even when the stores of
    segments were emptied by a busy evening's other games), and it answers as a save keeping nothing."""
    names = ["Ana", "Bob", "Cléo"]
    tokens = [create_game(client, "revive", "base", seats) for seats in (names, names[::-1])]
    first = autosave(client, tokens[0], 1, players__0__track=("", "3")).get_json()
    kept = dict(edit._TextsRead.KNOWN)  # noqa: SLF001 - this worker's texts of the game, before the other's save
    # the other worker's save: written to the database; this worker's own copies are as they were
    other = autosave(client, tokens[0], first["version"], players__0__progress=("", "5")).get_json()
    store._DOCUMENTS.clear()  # noqa: SLF001 - this worker never read the other's document
    edit._TextsRead.KNOWN.clear()  # noqa: SLF001 - its texts of the game are those before the other's save
    edit._TextsRead.KNOWN.update(kept)  # noqa: SLF001 - (as above)
    spec.PIECES.clear()
    spec.WHOLE.clear()
    made = []
    remade = spec._remade  # noqa: SLF001 - counted: each segment made again (whole or from its older texts)

    def counted(of, name, raw, was):
        made.append(name)
        return remade(of, name, raw, was)

    monkeypatch.setattr(spec, "_remade", counted)
    mine = autosave(client, tokens[0], other["version"], players__1__track=("", "4"))
    assert mine.status_code == 200
    # the segment the other worker changed (read), and the one this save changed (written): no other
    assert sorted(made) == ["players-0", "players-1"]
    monkeypatch.setattr(spec, "_remade", remade)
    # the same three saves of another game, nothing kept between them, answer the same
    forgot = _answers(client, tokens[1], forget=True, saves=({"players__2__track": ("", "3")},
                                                             {"players__2__progress": ("", "5")},
                                                             {"players__1__track": ("", "4")}))
    assert mine.get_json()["totals"] == forgot[-1]["totals"][::-1]
    with app.app_context():
        documents = [store.by_edit_token(token).document for token in tokens]
    assert documents[0]["players"] == documents[1]["players"][::-1]
    assert documents[0]["players"][0]["track"] == 3 and documents[0]["players"][0]["progress"] == 5


def test_a_count_another_worker_saved_is_read_on_this_workers_reading(app, client, monkeypatch):
    """A player's count saved by the other worker (written to the database: none of this worker's
    copies touched): this worker's next save reads that player on the reading it kept, the count read
    again, nothing read whole, and stores and answers what the same saves keeping nothing do."""
    names = ["Ana", "Bob", "Cléo"]
    tokens = [create_game(client, "revive", "base", seats) for seats in (names, names[::-1])]
    first = autosave(client, tokens[0], 1, players__0__track=("", "3")).get_json()
    autosave(client, tokens[0], first["version"], players__1__track=("", "2"))  # every player read here
    with app.app_context():  # the other worker's save of Ana's progress
        record = store.by_edit_token(tokens[0])
        document = orjson.loads(orjson.dumps(record.document))
        document["players"][0]["progress"] = 5
        version = store.save(record, document, record.version).version
    read_whole, whole = [], "_collect"  # counted: each segment read whole (its prefix)
    monkeypatch.setattr(spec, whole, lambda *args, _real=getattr(spec, whole): (
        read_whole.append(args[1]), _real(*args))[1])
    mine = autosave(client, tokens[0], version, players__1__track=("2", "4"))
    monkeypatch.undo()
    assert mine.status_code == 200 and read_whole == []
    forgot = _answers(client, tokens[1], forget=True, saves=({"players__2__track": ("", "3")},
                                                             {"players__1__track": ("", "2")},
                                                             {"players__2__progress": ("", "5")},
                                                             {"players__1__track": ("2", "4")}))
    assert mine.get_json()["totals"] == forgot[-1]["totals"][::-1]
    assert mine.get_json()["stored"]["players-0-progress"] == "5"
    with app.app_context():
        documents = [store.by_edit_token(token).document for token in tokens]
    assert documents[0]["players"] == documents[1]["players"][::-1]
    assert documents[0]["players"][0]["progress"] == 5 and documents[0]["players"][1]["track"] == 4


def _solo_names(fields, texts: spec.Texts) -> list[str]:
    """The fields that read and show on their own (`Group.solo`: a count, a box, a choice under groups
    alone), of every segment: those a save reads again on the reading kept."""
    of = texts.spec
    return sorted(f"{prefix}-{sub}" if prefix else sub for prefix in texts.parts
                  for sub, (_keys, node) in (of.player if prefix else of.table).solo.items()
                  if isinstance(node, spec.Leaf))


# new games: every group and list still absent (a group typed, then blanked again, goes), one a game
NEW = {f"{game}-{variant}-new": {"game": game, "variant": variant,
                                 "players": [{"name": n} for n in ("Ana", "Bob")]}
       for game, variant in (("revive", "abyss"), ("rebirth", "ireland"), ("reterra", "base"))}


@pytest.mark.parametrize("name", [*DOCUMENTS, *NEW])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_document_read_on_the_readings_kept_is_the_one_read_whole(app, name, data):
    """Saves one after the other, each read on the texts the one before made (its changed fields of
    groups read again on the reading kept, the rest taken): at every step the document (its JSON,
    key order included) and the reading (messages in the page's order, paths, data, rows) are those
    of the same texts read with nothing kept."""
    document = DOCUMENTS.get(name) or NEW[name]
    with app.test_request_context(), i18n.using(data.draw(st.sampled_from(["fr", "en"]))):
        fields = forms.screens(document["game"]).fields
        texts = fields.texts(document)
        solo = _solo_names(fields, texts)
        for _step in range(data.draw(st.integers(1, 4))):
            pool = st.sampled_from(solo if solo and data.draw(st.booleans()) else sorted(texts.values))
            names = data.draw(st.lists(pool, min_size=1, max_size=3))
            values = texts.values | {field: data.draw(TYPED) for field in names}
            new, reading = fields.read(texts.document, values, known=texts, touched=set(names))
            whole, fresh = fields.read(texts.document, dict(values))
            assert orjson.dumps(new) == orjson.dumps(whole)
            assert list(reading.messages.items()) == list(fresh.messages.items())
            assert (reading.paths, reading.data, reading.rows, reading.blank) == (
                fresh.paths, fresh.data, fresh.rows, fresh.blank)
            texts = fields.texts(new, like=texts)
            _same(texts, _whole(fields, new))


def test_a_count_typed_again_is_read_on_the_reading_kept(app, client, monkeypatch):
    """A player's counts saved again: once a save has read the player's fields as their stored texts
    show them (the first save of a new game stores its fixed lists' blanks as 0), the next one reads
    the changed counts alone on the reading it kept (no field of that player read again, no text of
    theirs made again), and stores and answers what a save keeping nothing does."""
    saves = ({"players__0__track": ("", "3"), "players__0__resources__gears": ("", "4")},
             {"players__0__track": ("3", "5")},
             {"players__0__track": ("5", "12"), "players__0__resources__gears": ("4", "6")})
    token = create_game(client, "revive", "abyss", ["Ana", "Bob"])
    version = _answers(client, token, forget=False, saves=saves[:2])[-1]["version"]
    read_whole, made_whole, put = [], [], []
    for name, kept in (("_collect", read_whole), ("_piece", made_whole), ("_put", put)):
        monkeypatch.setattr(spec, name, lambda *args, _real=getattr(spec, name), _kept=kept: (
            _kept.append(args), _real(*args))[1])
    answer = autosave(client, token, version, **saves[2]).get_json()
    assert (read_whole, made_whole) == ([], [])  # each count put in place on the reading kept:
    assert {keys for _made, _group, keys, _value in put} >= {("track",), ("resources", "gears")}
    monkeypatch.undo()
    other = create_game(client, "revive", "abyss", ["Cléo", "Dan"])  # another game: nothing of it kept
    forgot = _answers(client, other, forget=True, saves=saves)
    theirs = {k: v for k, v in forgot[-1].items() if k != "status"}  # named for their own players
    assert answer == json.loads(json.dumps(theirs).replace("Cl\\u00e9o", "Ana").replace("Dan", "Bob"))
    with app.app_context():
        stored = [store.by_edit_token(t).document for t in (token, other)]
    for document in stored:  # each its own players' names
        for player in document["players"]:
            player.pop("name")
    assert orjson.dumps(stored[0]) == orjson.dumps(stored[1])
    assert stored[0]["players"][0]["track"] == 12 and stored[0]["players"][0]["resources"]["gears"] == 6


@pytest.mark.parametrize("name", [*DOCUMENTS, *NEW])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_segment_another_process_changed_is_read_as_a_whole_reading_reads_it(app, name, data):
    """Another process's saves (read there with nothing of this one's), this process's texts of their
    documents made from its own (`like`), then a save here on each: the segments only the other
    process changed are read on this process's readings kept, those fields read again. At every step
    the document (its JSON, key order included) and the reading (messages in the page's order, paths,
    data, rows) are those of the same texts read with nothing kept."""
    document = DOCUMENTS.get(name) or NEW[name]
    with app.test_request_context(), i18n.using(data.draw(st.sampled_from(["fr", "en"]))):
        fields = forms.screens(document["game"]).fields
        texts = fields.texts(document)
        fields.read(document, texts.values, known=texts)  # every segment read here once: its reading kept
        solo = _solo_names(fields, texts)
        for _step in range(data.draw(st.integers(1, 3))):
            pool = st.sampled_from(solo if solo and data.draw(st.booleans()) else sorted(texts.values))
            theirs_typed = data.draw(st.lists(pool, max_size=3))
            values = texts.values | {field: data.draw(TYPED) for field in theirs_typed}
            theirs, _their_reading = fields.read(texts.document, dict(values))  # the other process's
            seen = fields.texts(theirs, like=texts)  # made here from this process's own texts
            _same(seen, _whole(fields, theirs))
            mine = data.draw(st.lists(st.sampled_from(sorted(seen.values)), max_size=2))
            values = seen.values | {field: data.draw(TYPED) for field in mine}
            new, reading = fields.read(theirs, values, known=seen, touched=set(mine))
            whole, fresh = fields.read(theirs, dict(values))
            assert orjson.dumps(new) == orjson.dumps(whole)
            assert list(reading.messages.items()) == list(fresh.messages.items())
            assert (reading.paths, reading.data, reading.rows, reading.blank) == (
                fresh.paths, fresh.data, fresh.rows, fresh.blank)
            texts = fields.texts(new, like=seen)
