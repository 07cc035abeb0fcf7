"""The one save path (issue 29): a save is read by the game's field spec, never through a form.

Before the WTForms path was deleted, its answers to the random change sets of the old equivalence
test (1,250 per run: every game and variant, French and English, the partial rule and the rule
before it; two tables playing the same saves) were recorded: `fixtures/saves-before-one-path.json.gz`
keeps 431 of them, up to six of every kind (game, variant, saved / draft / invalid / conflict, with
values refused, rows moved, counts dropped, language, rule). The one path must answer each exactly
as the form path did: the same document, status and version, the same messages beside the same
fields, the same conflicts, the same stored texts and totals. (Of the 2,521 recorded in the run,
one answer differed, by design: the totals of an unstored save naming a card twice; a total the
page never shows, see docs/rulings.md.) The recorded messages follow the texts changed since: the ruling
code « (R8) » left Rebirth's doubled-mission message on 28 November 2026 (no player-facing string names
one, tests/project/test_i18n_catalogue.py)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion import forms, games
from companion.games import i18n
from companion.saving import service, wire

FIXTURES = Path(__file__).parent.parent / "fixtures"
RECORDED = json.loads(gzip.decompress((FIXTURES / "saves-before-one-path.json.gz").read_bytes()))


def _write(record, document, version, *, status=None, result=None):
    return SimpleNamespace(document=document, version=version + 1, status=status or record.status)


def _answer(out) -> dict:
    checked = out.checked
    return {"kind": out.kind, "document": checked.document, "errors": checked.errors,
            "general": checked.general, "ok": checked.ok, "theirs": out.theirs,
            "totals": [p.total for p in checked.result.players] if checked.result else None,
            "stored": dict(out.stored), "moved": out.moved, "dropped": out.dropped, "refused": out.refused,
            "record": [out.record.document, out.record.version, out.record.status]}


def test_the_recorded_saves_cover_every_kind():
    kinds = {(r["game"], r["out"]["kind"]) for r in RECORDED}
    games_ = ("rebirth", "revive", "reterra")
    assert {(g, k) for g in games_ for k in ("saved", "invalid", "conflict")} <= kinds
    assert any(r["out"]["refused"] for r in RECORDED) and any(r["out"]["moved"] for r in RECORDED)
    assert any(r["out"]["dropped"] for r in RECORDED) and {r["lang"] for r in RECORDED} == {"fr", "en"}


@pytest.mark.parametrize("game", ["rebirth", "revive", "reterra"])
def test_the_one_path_answers_as_the_form_path_did(app, game):
    cases = [r for r in RECORDED if r["game"] == game]
    with app.test_request_context():
        sc = forms.screens(game)
        for n, r in enumerate(cases):
            record = SimpleNamespace(document=r["document"], version=r["version"], status=r["status"],
                                     seats_version=r["seats_version"])
            s = r["save"]
            changes = {k: tuple(v) for k, v in s["changes"].items()}
            save = wire.Save(changes, s["added"], s["keys"], s["version"])
            with i18n.using(r["lang"]):
                out = service.submit(record, save, sc.fields, write=_write, finishing=r["finishing"],
                                     partial=r["partial"])
                got = json.loads(json.dumps(_answer(out), ensure_ascii=False, default=repr))
            assert got == r["out"], (n, s)


def _documents() -> list[Path]:
    """The fixtures that are a game's document (the others are API answers, restores...)."""
    out = []
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text())
        if isinstance(data, dict) and data.get("game") in games.GAMES and games.validate(data) == []:
            out.append(path)
    return out


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.stem)
def test_a_stored_document_reads_back_as_itself(app, path):
    """A document's texts read back give the same document, and the same texts again: what a page
    shows is what a save stores."""
    document = json.loads(path.read_text())
    with app.test_request_context():
        sc = forms.screens(document["game"])
        texts = sc.texts(document)
        read, reading = sc.read(document, texts.values)
        assert not reading.messages
        assert sc.texts(read).values == texts.values
        again, _reading = sc.read(read, sc.texts(read).values)
        assert again == read
        totals = [p.total for p in games.score(document).players]
        assert [p.total for p in games.score(read).players] == totals


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.stem)
def test_a_save_read_with_its_stored_texts_reads_as_one_read_whole(app, path):
    """An autosave reads again only the segments (the table, a player) its merge changed and takes
    the others' readings from the stored texts: the same document, messages, contract paths, values
    and rows as a reading of every field, for a value changed, refused or wrong, in each segment,
    in French and in English, read twice (the second from the kept readings)."""
    document = json.loads(path.read_text())
    with app.test_request_context():
        fields = forms.screens(document["game"]).fields
        stored = fields.texts(document)
        for segment in stored.parts.values():
            name = next(iter(segment.values), None)
            for typed in ("7", "abc", "-5", ""):
                for lang in ("fr", "en"):
                    with i18n.using(lang):
                        values = stored.values | ({name: typed} if name else {})
                        whole = fields.read(document, values)
                        for _twice in range(2):
                            doc, reading = fields.read(document, values, known=fields.texts(document))
                            assert doc == whole[0] and reading.messages == whole[1].messages, (name, typed)
                            assert (reading.paths, reading.data, reading.rows, reading.blank) == (
                                whole[1].paths, whole[1].data, whole[1].rows, whole[1].blank)
                            assert list(reading.paths) == list(whole[1].paths)  # in the page's order


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.stem)
def test_a_save_compared_segment_by_segment_says_what_a_whole_comparison_says(app, path):
    """The merge's touched fields read as a comparison of every field; a document's texts kept whole
    are its own (its document the caller's); the answer's `changed` and the log's differences taken
    from the changed segments only are those of every field, for a change in each segment."""
    from companion.saving import gamelog

    document = json.loads(path.read_text())
    with app.test_request_context():
        fields = forms.screens(document["game"]).fields
        stored = fields.texts(document)
        copy = json.loads(path.read_text())
        again = fields.texts(copy)
        assert again.document is copy and again.values == stored.values
        for segment in stored.parts.values():
            name = next(iter(segment.values), None)
            if name is None:
                continue
            for typed in ("7", "abc", ""):
                values = stored.values | {name: typed}
                whole = fields.read(document, values)
                doc, reading = fields.read(document, values, known=stored, touched={name})
                assert doc == whole[0] and reading.messages == whole[1].messages, (name, typed)
                assert (reading.paths, reading.data, reading.rows) == (
                    whole[1].paths, whole[1].data, whole[1].rows)
                after = fields.texts(doc)
                changed = wire.stored_changes(stored.values, after.values)
                assert wire.stored_changes(stored, after) == changed
                by_segments = {}
                for was, now in after.since(stored):
                    by_segments |= gamelog.differences(was, now, after.same)
                assert sorted(by_segments.items()) == list(
                    gamelog.differences(stored.values, after.values, after.same).items())
