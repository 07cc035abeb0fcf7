"""An autosave checked by the engine alone (companion/forms/direct.py) against the merged WTForms form,
the reference, on the same random change sets (seeded), every game and variant: two tables play the
same saves, one through the service as the autosave runs it, one with WTForms for every save (a
player's numbers and boxes, rows of numbers and boxes changed, blanked and added, now and then a
field only the form reads); after
each save both hold the same document, status and version, and answered alike (saved, draft,
conflict on the same fields with the same values, refused with the same messages beside the same
fields, the same stored values and totals), in French and in English."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion import forms
from companion.forms import direct
from companion.forms import steps as forms_steps
from companion.games import i18n
from companion.saving import service, wire

FIXTURES = Path(__file__).parent / "fixtures"
NAMES = ["Éloïse", "Jules", "Inès", "Yanis"]
TRIALS = 250  # per variant: 1,250 change sets in all


def _write(record, document, version, *, status=None, result=None):
    return SimpleNamespace(document=document, version=version + 1, status=status or record.status)


class Reference(forms.Steps):
    """The save as it was: the merged form, WTForms' checks and the engine's, every time."""

    def direct(self, document, save, view):
        return None


def _start(game: str, variant: str) -> dict:
    fixture = FIXTURES / f"{game}-{variant}.json"
    if fixture.exists():
        return json.loads(fixture.read_text())
    return {"game": game, "variant": variant, "players": [{"name": n} for n in NAMES]}


def _value(rng: random.Random, now: str) -> str:
    roll = rng.random()
    if roll < 0.5:
        return str(rng.randint(0, 12))
    if roll < 0.62:
        return ""
    if roll < 0.7:
        return "y"
    if roll < 0.77:
        return str(rng.choice([999, 61, -1, 1000000000]))  # out of bounds, too long: refused
    if roll < 0.82:
        return rng.choice(["x", "1.5", "+3", "\u22122", " 7 ", "false"])
    return now  # the value already stored


def _choice(rng: random.Random, pick, now: str) -> str:
    """A choice's posted text: mostly one it offers, sometimes blank, one it does not offer, or the
    value stored."""
    roll = rng.random()
    if roll < 0.6:
        return rng.choice(sorted(pick.values))
    if roll < 0.72:
        return ""
    if roll < 0.85:
        return rng.choice(["12", "x", "¹3", "13 points", "−3"])  # not offered: refused
    return now


def _holder(rng: random.Random, now: str) -> str:
    """A `Name`'s posted text (Rebirth's castle holders): a player, nobody, one who is not
    playing (refused), or the value stored."""
    roll = rng.random()
    if roll < 0.55:
        return rng.choice(NAMES)
    if roll < 0.75:
        return ""
    if roll < 0.88:
        return rng.choice(["Zoé", "éloïse", "3"])  # not a player of this game: refused
    return now


def _row_field(name: str, lists):
    """(kind, `direct.Pick` or None) of a field of a row the engine path rebuilds, else None."""
    found = direct._row_of(name, lists)
    if found is None:
        return None
    row_list, rest = lists[found[0]], found[2]
    while True:
        sub, _sep, tail = rest.partition("-")
        if sub not in row_list.inner:
            break
        row_list, rest = row_list.inner[sub], tail.partition("-")[2]
    return next(((kind, row_list.picks.get(sub)) for sub, kind, *_rest in row_list.item if sub == rest), None)


def _posted(rng: random.Random, name: str, lists, holders, now: str) -> str:
    """What a phone posts for a field, as its kind allows."""
    kind, pick = _row_field(name, lists) or ("", None)
    if kind == "choice":
        return _choice(rng, pick, now)
    if kind == "name" or name in holders:
        return _holder(rng, now)
    return _value(rng, now)


def _answer(out) -> dict:
    checked = out.checked
    return {"kind": out.kind, "document": checked.document, "errors": checked.errors,
            "general": checked.general, "ok": checked.ok, "theirs": out.theirs,
            "totals": [p.total for p in checked.result.players] if checked.result else None,
            "stored": dict(out.stored), "moved": out.moved, "dropped": out.dropped,
            "record": (out.record.document, out.record.version, out.record.status)}


def _rows_touched(rng: random.Random, sc, view, picked: list[str], based: dict) -> list[str]:
    """Fields of a row of a list the engine path rebuilds (one this phone sees in `based`, or a new
    one past them, which it then added; a city's tiles the same way) put in `picked`; the rows
    added, as the phone says them (a new city and a new tile in it: both). A phone behind may add a
    row where the other phone added one meanwhile: both are kept."""
    doc = view.document
    rows = direct._rows(sc.id, doc["variant"], len(doc.get("players", [])))
    if not rows:
        return []
    nested = sorted(n for n in rows if rows[n].inner)  # a list whose rows hold lists (cities)
    list_name = rng.choice(nested if nested and rng.random() < 0.4 else sorted(rows))
    return _touch(rng, rows[list_name], list_name, based, picked)


def _touch(rng: random.Random, row_list, list_name: str, based: dict, picked: list[str]) -> list[str]:
    present = {int(n[len(list_name) + 1:].split("-")[0]) for n, v in based.items()
               if n.startswith(list_name + "-") and v}
    k = rng.randrange(min(row_list.max_entries, max(present, default=-1) + 3))
    entry = f"{list_name}-{k}"
    added = [] if k in present else [entry]
    subs = [sub for sub, *_rest in row_list.item]
    for sub in rng.sample(subs, rng.randint(1, len(subs))):
        name = f"{entry}-{sub}" if sub else entry
        if sub in row_list.inner:  # a list inside the row (a city's tiles)
            added += _touch(rng, row_list.inner[sub], name, based, picked)
        else:
            picked.append(name)
    return added


@pytest.mark.parametrize(("game", "variant", "seed"), [
    ("rebirth", "scotland", 1), ("rebirth", "ireland", 2), ("revive", "base", 3), ("revive", "abyss", 4),
    ("reterra", "base", 5)])
def test_the_engine_path_answers_and_stores_as_the_form_does(app, game, variant, seed):
    rng = random.Random(seed)
    sc = forms.screens(game)
    direct_saves, derived, named, row_saves, card_saves, seen = 0, 0, 0, 0, 0, set()
    choice_saves = holder_saves = city_saves = tile_players = 0
    with app.test_request_context():
        start = _start(game, variant)
        ours = theirs = SimpleNamespace(document=start, version=1, status="draft")
        history = [forms.stored(sc, start).values]
        for trial in range(TRIALS):
            lang = "en" if trial % 5 == 4 else "fr"
            with i18n.using(lang):
                view = forms.stored(sc, ours.document)
                fields = sorted(view.values)
                spec = direct.leaves_of(sc, view)
                direct_ones = [n for n in fields if n in spec]
                # what this phone was based on: what is stored, or (a phone behind) an older value
                based = history[-1] if rng.random() < 0.75 else rng.choice(history)
                picked = rng.sample(direct_ones or fields, min(len(direct_ones or fields), rng.randint(0, 4)))
                if rng.random() < 0.15:  # now and then a field only the form can read
                    picked.append(rng.choice(fields))
                holders = [n for n in direct_ones if spec[n].kind == "name"]  # Rebirth's castles
                if holders and rng.random() < 0.3:
                    picked.append(rng.choice(holders))
                added = _rows_touched(rng, sc, view, picked, based) if rng.random() < 0.35 else []
                card = [n for n in fields if n.startswith("card-")]  # Revive's shared card
                if card and rng.random() < 0.15:
                    picked.append(rng.choice(card))
                lists = direct._rows(sc.id, variant, len(start["players"]))
                changes = {n: (based.get(n, ""), _posted(rng, n, lists, holders, view.values.get(n, "")))
                           for n in picked}
                changes = {n: pair for n, pair in changes.items() if pair[0] != pair[1]}
                save = wire.Save({n: (a.strip(), b.strip()) for n, (a, b) in changes.items()}, added, {},
                                 ours.version)
                posted = wire.encode(save)
                finishing = rng.random() < 0.1
                a = service.submit(ours, save, forms.Steps(sc, posted, {}), write=_write, finishing=finishing)
                b = service.submit(theirs, save, Reference(sc, posted, {}), write=_write, finishing=finishing)
                direct_saves += isinstance(a.form, forms.Lazy)
                row_saves += isinstance(a.form, forms.Lazy) and any(direct._row_of(n, lists)
                                                                    for n in save.changes)
                card_saves += isinstance(a.form, forms.Lazy) and any(n.startswith("card-")
                                                                     for n in save.changes)
                if isinstance(a.form, forms.Lazy):  # the engine path
                    kinds = {(_row_field(n, lists) or ("",))[0] for n in save.changes}
                    choice_saves += "choice" in kinds
                    tile_players += "name" in kinds
                    holder_saves += any(n in holders for n in save.changes)
                    city_saves += any(n.startswith("cities-") for n in save.changes)
                seen.add((a.kind, a.checked.ok))
                first, second = _answer(a), _answer(b)
                assert first == second, (trial, changes)
                # the fields named for a player in the answer: as the form names them, without a form
                # when the save built none
                if a.kind == "conflict":
                    assert direct.summary(sc, a.record.document, a.form,
                                          {n: [v] for n, v in a.theirs.items()}) == \
                        forms.summary(b.form, {n: [v] for n, v in b.theirs.items()})
                if a.checked.errors:
                    assert direct.summary(sc, a.record.document, a.form, a.checked.errors) == \
                        forms.summary(b.form, b.checked.errors), trial
                if isinstance(a.form, forms.Lazy) and a.kind != "saved":
                    named += a.form._form is None
                # the stored values kept after a save made without a form are the form's
                after = forms.stored(sc, a.record.document)
                built = forms._stored(sc.id, json.dumps(a.record.document, sort_keys=True,
                                                         ensure_ascii=False), lang)
                for part in ("values", "shown", "paths", "blanks", "limits"):
                    x, y = dict(getattr(after, part)), dict(getattr(built, part))
                    assert x == y, (trial, part, {k: (x.get(k), y.get(k)) for k in x.keys() | y.keys()
                                                  if x.get(k) != y.get(k)})
                assert (dict(after.values), dict(after.shown), after.document, dict(after.paths),
                        dict(after.blanks), dict(after.limits)) == \
                       (dict(built.values), dict(built.shown), built.document, dict(built.paths),
                        dict(built.blanks), dict(built.limits)), trial
                # another worker, which never saw this document: its view made without a form from
                # one of the same skeleton when it has one, and the same as the form's
                forms_steps._STORED.clear()
                made = forms.stored(sc, a.record.document)
                derived += direct.labels_of(sc, a.record.document) is not None
                assert (dict(made.values), dict(made.shown), made.document, dict(made.paths),
                        dict(made.blanks), dict(made.limits)) == \
                       (dict(built.values), dict(built.shown), built.document, dict(built.paths),
                        dict(built.blanks), dict(built.limits)), trial
                ours, theirs = a.record, b.record
                if history[-1] != dict(after.values):
                    history.append(dict(after.values))
    # saved, refused, in conflict: each answer was compared
    assert {kind for kind, _ok in seen} == {"saved", "invalid", "conflict"}, seen
    if game != "reterra":  # Reterra's players check their mode's fields together: always the form
        assert direct_saves > TRIALS // 2, direct_saves
        assert derived > TRIALS // 2, derived  # most documents had a skeleton seen before
        assert named > 0, named  # refusals and conflicts of direct saves named without a form
        assert row_saves > 10, row_saves  # rows of numbers and boxes, added, changed, blanked: no form
    if game == "rebirth":
        assert holder_saves > 20, holder_saves  # castle holders named, blanked, refused: no form
        assert city_saves > 20, city_saves  # cities and their tiles, added, changed, blanked: no form
        assert tile_players > 5, tile_players  # a tile's player chosen, blanked, refused: no form
    if (game, variant) == ("rebirth", "ireland"):
        assert choice_saves > 5, choice_saves  # round towers (rows of choices), refused ones too: no form
    if (game, variant) == ("revive", "base"):  # (the abyss fixture's players have cards of their own)
        assert card_saves > 5, card_saves  # the shared card typed: no form either


def test_towers_and_castle_holders_are_saved_and_refused_without_a_form(app):
    """Rebirth's round towers (rows of "13 points / 3 points") and its castle holders (a player of
    the game, or nobody) are laid on the document by the engine path: stored as the contract
    wants them (numbers; a name or null), refused with the form's own words beside the field."""
    sc = forms.screens("rebirth")
    record = SimpleNamespace(document=_start("rebirth", "ireland"), version=1, status="draft")

    def save(changes, added=()):
        nonlocal record
        posted = wire.Save(changes, list(added), {}, record.version)
        out = service.submit(record, posted, forms.Steps(sc, wire.encode(posted), {}), write=_write)
        record = out.record
        return out

    with app.test_request_context():
        save({"players-0-track": ("", "10")})  # the game's first save
        out = save({"blarney": ("", "Inès"), "players-0-towers-0": ("", "13"),
                    "players-0-towers-1": ("", "3")}, ["players-0-towers-1"])
        assert out.kind == "saved" and isinstance(out.form, forms.Lazy) and out.form._form is None
        assert record.document["blarney"] == "Inès"
        assert record.document["players"][0]["towers"] == [13, 3]
        assert forms.stored(sc, record.document).shown["players-0-towers-0"] == "13 points"
        out = save({"blarney": ("Inès", "Zoé"), "players-0-towers-1": ("3", "12")})
        assert out.kind == "invalid" and out.form._form is None
        assert "choisissez un joueur de la partie" in out.checked.errors["blarney"]
        assert "choix inconnu" in out.checked.errors["players-0-towers-1"]
        assert record.document["blarney"] == "Inès" and record.version == 3  # nothing stored
        out = save({"blarney": ("Inès", ""), "players-0-towers-0": ("13", "")})
        assert out.kind == "saved" and out.form._form is None
        assert record.document["blarney"] is None  # nobody holds it
        assert record.document["players"][0]["towers"] == [3]


def test_cities_added_on_two_phones_are_both_kept_without_a_form(app):
    """Two phones each add a city (with a tile) in the same place: both cities are kept, the second
    renumbered after the first, by the engine path; a tile whose player is not chosen keeps its
    influence and leaves `player` out (the engine says it is required), as the form does."""
    sc = forms.screens("rebirth")
    start = {"game": "rebirth", "variant": "scotland", "players": [{"name": n} for n in NAMES]}
    record = SimpleNamespace(document=start, version=1, status="draft")

    def save(changes, added=(), version=None):
        nonlocal record
        posted = wire.Save(changes, list(added), {}, version or record.version)
        out = service.submit(record, posted, forms.Steps(sc, wire.encode(posted), {}), write=_write)
        record = out.record
        return out

    with app.test_request_context():
        save({"players-0-track": ("", "10")})  # the game's first save
        stored_before = record.version
        first = save({"cities-0-size": ("", "3"), "cities-0-tiles-0-player": ("", "Jules"),
                      "cities-0-tiles-0-influence": ("", "2")}, ["cities-0", "cities-0-tiles-0"])
        assert first.kind == "saved" and first.form._form is None
        # the other phone had not seen it: its new city is at the same place
        second = save({"cities-0-size": ("", "2"), "cities-0-tiles-0-player": ("", "Inès"),
                       "cities-0-tiles-0-influence": ("", "1"), "cities-0-tiles-1-influence": ("", "3")},
                      ["cities-0", "cities-0-tiles-0", "cities-0-tiles-1"], version=stored_before)
        assert second.kind == "saved" and second.form._form is None
        assert second.moved == {"cities-0": "cities-1"}
        cities = record.document["cities"]
        assert cities[0] == {"size": 3, "tiles": [{"player": "Jules", "influence": 2}]}
        assert cities[1] == {"size": 2, "tiles": [{"player": "Inès", "influence": 1}, {"influence": 3}]}
        assert "cities-1-tiles-1-player" in second.checked.errors  # beside the tile, as a draft
        # the stored values the page reads back: as the form shows them
        view = forms.stored(sc, record.document)
        assert view.values["cities-1-tiles-0-player"] == "Inès"
        assert view.values["cities-1-tiles-1-player"] == ""
        assert view.limits["cities-1-tiles"] == 3
