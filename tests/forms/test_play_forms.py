"""The form machinery on its own: a game's screens are one module, and nothing else is needed."""

from __future__ import annotations

import importlib.machinery
import json
import re
import sys
import types
from html import unescape

import pytest
from werkzeug.datastructures import MultiDict
from wtforms import Form

from companion import forms
from companion.games import i18n
from document_helpers import load_example


def test_a_new_game_module_is_all_it_takes(client, dice_screens):
    page = client.post("/nouvelle", data={"game": "dice", "variant": "base", "players-0-name": "Ana",
                                          "players-1-name": "Bob"})
    token = page.headers["Location"].split("/")[2]
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    assert 'name="players-1-sixes"' in html and "la somme des dés" in html
    assert '<p class="dice-reminder">Dés</p>' in html  # its own template
    # The engine's own message (bound 0-100) comes back beside the field of its path.
    bad = client.post(f"/g/{token}/", data={"version": "1", "players-0-points": "101"})
    assert bad.status_code == 422
    message = re.search(r'id="e-players-0-points"[^>]*>(.*?)</p>', bad.get_data(as_text=True)).group(1)
    assert unescape(message) == "doit être entre 0 et 100"
    ok = client.post(f"/g/{token}/", data={"version": "1", "players-0-points": "20", "players-0-sixes": "2",
                                           "players-1-points": "20", "action": "finish"})
    assert ok.status_code == 302
    results = unescape(client.get(f"/g/{token}/resultats").get_data(as_text=True))
    assert "Ana gagne" in results and "six obtenus : Ana 2, Bob 0" in results


class Mission(Form):
    points = forms.Count("Points", hi=30)
    achieved = forms.Flag("Réussie")


class Player(Form):
    track = forms.Count("Piste", hi=500)
    missions = forms.Rows(forms.Group(Mission), "Missions", max_entries=8)
    colours = forms.Fixed(forms.Count("n", hi=9), 3, "Couleurs")
    holder = forms.Name("Château")


def test_form_to_document_conversion_and_paths(app):
    module = types.SimpleNamespace(ADAPTER=forms.Adapter(palette=[], player_form=lambda v: Player))
    cls = type("T", (forms.EndState,), {"players": forms.Seats(forms.FormField(Player), 1),
                                         "Meta": type("Meta", (), {"csrf": False})})
    with app.test_request_context():
        form = cls(formdata=MultiDict({
            "players-0-track": "12",
            "players-0-missions-0-points": "4", "players-0-missions-0-achieved": "y",
            "players-0-missions-1-points": "",  # a blank row in the middle is dropped
            "players-0-missions-2-points": "7",
            "players-0-colours-1": "3",
            "players-0-holder": "",
        }))
        sc = forms.GameForms("t", module, game=None)
        doc, paths = sc.to_document({"game": "t", "variant": "base", "players": [{"name": "Ana"}]}, form)
        assert doc == {"game": "t", "variant": "base", "players": [{
            "name": "Ana", "track": 12, "missions": [{"points": 4, "achieved": True}, {"points": 7}],
            "colours": [0, 3, 0], "holder": None}]}
        # A problem on the second mission of the document is shown on the third row of the form.
        assert forms.field_for("players[0].missions[1].points", paths) == "players-0-missions-2-points"
        assert forms.field_for("players[0].missions[1].extra", paths) == "players-0-missions-2"
        assert forms.field_for("players[0]", paths) == "players-0"
        assert forms.field_for("game", paths) is None


def test_count_reads_whole_numbers_only():
    class F(Form):
        n = forms.Count("n", lo=0, hi=6)

    for raw, data, errors in (("4", 4, []), (" 5 ", 5, []), ("", None, []),
                              ("7", 7, ["doit être entre 0 et 6"]),
                              ("2,5", None, ["doit être un nombre entier"]),
                              ("abc", None, ["doit être un nombre entier"])):
        form = F(MultiDict({"n": raw}))
        form.validate()
        assert (form.n.data, form.n.errors) == (data, errors), raw
    html = F().n()
    assert 'inputmode="numeric"' in html and "data-stepper" in html and 'max="6"' in html


class Seat(Form):
    who = forms.Name("Qui")
    points = forms.Count("Points", hi=9)


class Table(Form):
    owner = forms.Name("Propriétaire")
    seats = forms.Rows(forms.Group(Seat), "Places", max_entries=3)


class Area(Form):
    """A row holding a list of rows holding a player select (Rebirth's cities and tiles)."""
    size = forms.Count("Taille", hi=4)
    tables = forms.Rows(forms.Group(Table), "Tables", max_entries=4)


@pytest.fixture
def nested_screens(dice, monkeypatch):
    """A stand-in game whose table-level list rows hold lists of rows with player selects."""
    module = types.ModuleType("companion.forms.dice")
    module.__spec__ = importlib.machinery.ModuleSpec("companion.forms.dice", None)

    class Player(Form):
        points = forms.Count("Points", hi=100)

    class Top(Form):
        areas = forms.Rows(forms.Group(Area), "Zones", max_entries=5)

    module.ADAPTER = forms.Adapter(palette=[("#111111", "noir")], player_form=lambda variant: Player,
                                   table_form=lambda variant: Top)
    monkeypatch.setitem(sys.modules, "companion.forms.dice", module)
    forms.end_state_class.cache_clear()
    yield forms.screens("dice")
    forms.end_state_class.cache_clear()


def name_choices(form) -> dict[str, list[str]]:
    return {f.name: list(forms.choice_labels(f.choices))
            for f in forms.walk(form) if isinstance(f, forms.Name)}


def test_padded_nested_rows_offer_the_players(app, nested_screens):
    document = {"game": "dice", "variant": "base", "players": [{"name": "Ana"}, {"name": "Bob"}],
                "areas": [{"size": 2, "tables": [{"owner": "Bob", "seats": [{"who": "Ana", "points": 3}]}]}]}
    everyone = ["", "Ana", "Bob"]
    with app.test_request_context():
        # The stored document, padded as the edit page is: a blank area, a blank table, blank seats.
        form = nested_screens.form(document)
        forms.pad_rows(form)
        choices = name_choices(form)
        for name in ("areas-0-tables-0-owner", "areas-0-tables-0-seats-0-who",
                     "areas-0-tables-0-seats-1-who",  # padded seat of a stored table
                     "areas-0-tables-1-owner", "areas-0-tables-1-seats-0-who",  # padded table
                     "areas-1-tables-0-owner", "areas-1-tables-0-seats-0-who"):  # padded area
            assert choices.get(name) == everyone, name
        assert all(v == everyone for v in choices.values()), choices
        assert form.areas.entries[0].form.tables.entries[0].form.seats.entries[0].form.who.data == "Ana"

        # A submission with the no-JS "ajouter" of a seat list inside a table inside an area.
        form = nested_screens.form(document, formdata=MultiDict({
            "areas-0-size": "2", "areas-0-tables-0-seats-0-who": "Bob",
            "areas-0-tables-0-seats-0-points": "4",
            "add_row": "areas-0-tables-0-seats"}))
        forms.pad_rows(form, "areas-0-tables-0-seats")
        seats = form.areas.entries[0].form.tables.entries[0].form.seats
        assert len(seats.entries) == 3  # the typed one, the asked-for one and the blank one
        choices = name_choices(form)
        assert [choices[f"areas-0-tables-0-seats-{j}-who"] for j in range(3)] == [everyone] * 3
        assert all(v == everyone for v in choices.values()), choices
        # An added seat is a real choice: picking a player there validates.
        seats.entries[2].form.who.data = "Ana"
        seats.entries[2].form.who.validate(form)
        assert seats.entries[2].form.who.errors == []


def test_rows_appended_later_get_the_players_without_padding(app, nested_screens):
    """Rows appended by a game's own hook (not pad_rows) offer the players too."""
    document = {"game": "dice", "variant": "base", "players": [{"name": "Ana"}, {"name": "Bob"}]}
    with app.test_request_context():
        form = nested_screens.form(document)
        area = form.areas.append_entry()
        table = area.form.tables.append_entry()
        table.form.seats.append_entry()
        assert all(v == ["", "Ana", "Bob"] for v in name_choices(form).values())
        assert len(name_choices(form)) == 2 + 2 + 3  # 2 areas: 1+2 tables, 1+1+2 seats


def test_a_lists_item_hints_are_collected_once_from_its_first_item():
    """What a list says above its rows: each item field with a hint (a plain field's description too),
    through groups, in order, but not the hints of a list inside an item (it says its own)."""
    from wtforms.fields import StringField

    class Inner(Form):
        colour = forms.Count("Couleur", "le numéro de la couleur", hi=3)

    class Item(Form):
        name = StringField("Nom", description="tel qu'imprimé")
        points = forms.Count("Points", "imprimés sur la tuile", hi=9)
        bare = forms.Count("Sans aide", hi=9)
        extra = forms.Group(Inner, "Détail", "facultatif")
        parts = forms.Rows(forms.Count("Part", "une part", hi=9), "Parts", "chaque part")

    class Top(Form):
        items = forms.Rows(forms.Group(Item), "Tuiles", "chaque tuile", max_entries=5)
        sizes = forms.Fixed(forms.Count("Taille", "tuiles du groupe", hi=9), 3, "Tailles")
        plain = forms.Fixed(forms.Count("Nombre", hi=9), 2, "Nombres")

    form = Top(MultiDict({"items-0-points": "1", "items-1-points": "2", "items-2-points": "3"}))
    assert len(form.items.entries) == 3
    said = [(label, hint) for label, hint, _ in form.items.item_hints()]
    assert said == [("Nom", "tel qu'imprimé"), ("Points", "imprimés sur la tuile"), ("Détail", "facultatif"),
                    ("Couleur", "le numéro de la couleur")]
    assert [(label, hint) for label, hint, _ in form.sizes.item_hints()] == [("Taille", "tuiles du groupe")]
    assert form.plain.item_hints() == []


# --------------------------------------------------------------------------- binding by copy


def test_a_form_built_again_makes_no_field_anew_and_shares_nothing_a_request_writes(app, monkeypatch):
    """Fields bind by copying one made per name and language: the second form of a shape runs no
    field constructor, and what one form is given (values, errors, names) never shows in another."""
    sc = forms.screens("revive")
    example = load_example("revive-abyss.json")
    with app.test_request_context("/"):
        sc.form(example)  # the shape's fields are made once
        made = []
        original = forms.Count.__init__
        monkeypatch.setattr(forms.Count, "__init__",
                            lambda self, *a, **k: (made.append(1), original(self, *a, **k)))
        first = sc.form(example)
        assert made == []
        other = json.loads(json.dumps(example))
        other["players"][0]["track"] = 7
        other["players"][1]["name"] = "Quelqu'un"
        bad = MultiDict({"players-0-track": "beaucoup", "version": "1"})
        second = sc.form(other)
        refused = sc.form(example, formdata=bad)
        refused.validate()
    assert first.players.entries[0].form.track.data == example["players"][0]["track"] != 7
    assert second.players.entries[0].form.track.data == 7
    assert refused.players.entries[0].form.track.errors
    assert not first.players.entries[0].form.track.errors and not second.players.entries[0].form.track.errors
    assert first.players.entries[0].form.track is not second.players.entries[0].form.track
    assert first.players.entries[0].form.track._form is first.players.entries[0].form


def _track_label(form) -> str:
    return form.players.entries[0].form.track.label.text


def test_fields_copied_in_one_language_are_not_served_in_another(app):
    sc = forms.screens("revive")
    example = load_example("revive-abyss.json")
    with app.test_request_context("/"):
        with i18n.using("fr"):
            french = sc.form(example)
        with i18n.using("en"):
            english = sc.form(example)
        with i18n.using("fr"):
            again = sc.form(example)
    assert _track_label(french) == _track_label(again) != _track_label(english)
    assert forms.raw_values(french) == forms.raw_values(english)


def test_a_misspelt_form_hook_fails_where_it_is_declared():
    """A game's forms module says its hooks in one `Adapter`: a hook it misspells is an error when the
    module is imported, not a hook silently never called."""
    with pytest.raises(TypeError, match="to_documents"):
        forms.Adapter(palette=[], player_form=lambda v: Player, to_documents=lambda *a: None)
    with pytest.raises(TypeError, match="go together"):  # half of the rules for rows followed by key
        forms.Adapter(palette=[], player_form=lambda v: Player, keyed=lambda *a: None)


def test_a_forms_module_without_its_adapter_is_refused(dice, monkeypatch):
    module = types.ModuleType("companion.forms.dice")
    module.__spec__ = importlib.machinery.ModuleSpec("companion.forms.dice", None)
    module.PALETTE = [("#111111", "noir")]  # the names of before: no longer read one by one
    module.player_form = lambda variant: Player
    monkeypatch.setitem(sys.modules, "companion.forms.dice", module)
    with pytest.raises(TypeError, match="ADAPTER"):
        forms.screens("dice").default_colours(2)


def test_every_shipped_game_declares_its_form_hooks():
    from companion import games

    adapters = {game_id: forms.screens(game_id).adapter for game_id in games.GAMES}
    assert all(isinstance(a, forms.Adapter) for a in adapters.values())
    # what each game gives beyond its fields, read from its declaration
    assert adapters["reterra"].keyed and adapters["reterra"].readable and adapters["reterra"].row_keys
    assert adapters["revive"].colour_names == 3 and adapters["revive"].to_document is not None
    assert adapters["rebirth"].readable is None and adapters["rebirth"].keyed is None


def test_a_problem_goes_beside_the_field_of_its_path_in_one_place():
    """`forms.place`, which every check uses: the field of the path or the nearest enclosing one, else
    the top of the page; a message once per place; the seat list (no slot) to the top when asked; a
    field with a typing error keeping only its own when asked."""
    from companion.games.core import Problem

    paths = {"players": "players", "players[0]": "players-0", "players[0].track": "players-0-track"}
    problems = [Problem("players[0].track", "trop"), Problem("players[0].track", "trop"),
                Problem("players[0].missions[2]", "mission"), Problem("players", "seuls"),
                Problem("variant", "variante")]
    errors, general = {}, []
    forms.place(problems, paths, errors, general, say=str.upper, loose=("players",))
    assert errors == {"players-0-track": ["TROP"], "players-0": ["MISSION"]}
    assert general == ["SEULS", "VARIANTE"]
    errors, general = {"players-0-track": ["doit être un nombre entier"]}, []
    forms.place(problems, paths, errors, general, keep=set(errors))
    assert errors["players-0-track"] == ["doit être un nombre entier"]
    assert errors["players"] == ["seuls"] and general == ["variante"]


def test_the_new_game_page_says_the_hint_a_game_declares_for_its_colour_names(client):
    """Revive's `colour_names` and `colour_hint`, read from its `ADAPTER`: the table names three
    colours under the game's own hint."""
    page = unescape(client.get("/nouvelle?game=revive").get_data(as_text=True))
    hint = re.search(r'id="h-colour_names">(.*?)</span>', page).group(1)
    assert hint.startswith("comme votre table les appelle")
    assert page.count('name="colour_names-') == 3


def test_a_list_shows_at_least_its_shown_rows_plus_one_blank_also_inside_an_added_row():
    """`Rows(shown=2)`: a blank list offers two rows, a list with rows its rows and one blank, and a
    list inside a row added by the padding gets its two as well; `shown` left out keeps one."""

    class Item(Form):
        points = forms.Count("Points", hi=9)
        parts = forms.Rows(forms.Count("Part", hi=9), "Parts", shown=2)

    class Top(Form):
        items = forms.Rows(forms.Group(Item), "Tuiles", max_entries=5)
        pairs = forms.Rows(forms.Count("Paire", hi=9), "Paires", max_entries=3, shown=2)

    def count(formdata):
        form = Top(MultiDict(formdata))
        forms.pad_rows(form)
        return (len(form.items.entries), [len(e.form.parts.entries) for e in form.items.entries],
                len(form.pairs.entries))

    assert count({}) == (1, [2], 2)
    assert count({"pairs-0": "4", "items-0-points": "1"}) == (2, [2, 2], 2)
    two_parts = {"items-0-parts-0": "1", "items-0-parts-1": "2"}
    assert count({"pairs-0": "4", "pairs-1": "5"} | two_parts) == (2, [3, 2], 3)
    assert count({"pairs-0": "4", "pairs-1": "5", "pairs-2": "6"}) == (1, [2], 3)  # never past the bound
