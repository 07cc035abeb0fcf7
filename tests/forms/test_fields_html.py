"""The fields' HTML (companion/views/field_html.py) on small forms of the generic field types: what a player
sees (labels, chips, messages, folded help) and what a screen reader and the play scripts read (ids,
aria-describedby, hidden, the add button), with hostile text everywhere a value is written."""

from __future__ import annotations

from html.parser import HTMLParser

from werkzeug.datastructures import MultiDict
from wtforms import Form

from companion import forms
from companion.views.field_html import FieldHtml

HOSTILE = "<script>\"'&</script>"
LONG = "les cartes posées devant vous à la fin de la partie"  # longer than FOLD (20 characters)


class Element:
    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.text, self.inside = tag, dict(attrs), "", []


class Tree(HTMLParser):
    """Every element, its attributes (unescaped) and its text, and the elements around it."""

    VOID = {"input", "br", "img", "meta", "link"}

    def __init__(self, html: str):
        super().__init__()
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs)
        element.inside = [e.tag for e in self.open]
        self.elements.append(element)
        if tag not in self.VOID:
            self.open.append(element)

    def handle_endtag(self, tag):
        while self.open and self.open.pop().tag != tag:
            pass

    def handle_data(self, data):
        for element in self.open:
            element.text += data

    def by_id(self, id_: str) -> Element:
        found = [e for e in self.elements if e.attrs.get("id") == id_]
        assert len(found) == 1, f"{len(found)} elements #{id_}"
        return found[0]


class Holding(Form):
    coins = forms.Count("Pièces", "vos pièces")
    gears = forms.Count("Engrenages", LONG)
    plain = forms.Count("Sans aide")


class Demo(Form):
    mode = forms.Choice("Mode", "", choices=[("each", "Chacun"), ("shared", "Commun")])
    only_shared = forms.Count("Carte commune", "si commune", show_if=("mode", "shared"))
    holder = forms.Name("Château", "qui le tient")
    flag = forms.Flag("Débloqué", "la case cochée")
    holding = forms.Group(Holding, "Réserve", "ce qui vous reste")
    cities = forms.Rows(forms.Count("Ville", "ses cases"), "Villes", "", max_entries=2,
                        add_label="Ajouter une ville", item_label="Ville")
    bonus = forms.Fixed(forms.Count("Cartes", "cartes de la couleur"), 2, "Bonus", "",
                        item_labels=["rouge", "bleu"])


def demo(data: dict | None = None, names=("Ana", HOSTILE)) -> Demo:
    form = Demo(MultiDict(data or {}))
    forms.give_names(form, list(names))
    return form


def render(form, field, **page) -> Tree:
    return Tree(str(FieldHtml(form, **page).render(field)))


def test_a_hostile_player_name_is_a_chip_like_any_other():
    form = demo({"holder": HOSTILE})
    html = str(FieldHtml(form).render(form.holder))
    assert "<script>" not in html
    tree = Tree(html)
    chips = [e for e in tree.elements if e.tag == "input" and e.attrs["type"] == "radio"]
    assert [c.attrs["value"] for c in chips] == ["", "Ana", HOSTILE]
    assert [c.attrs["id"] for c in chips] == ["holder-0", "holder-1", "holder-2"]
    labels = [e for e in tree.elements if e.tag == "label"]
    assert [label.text.strip() for label in labels] == ["personne", "Ana", HOSTILE]
    assert ["checked" in c.attrs for c in chips] == [False, False, True]
    assert all(c.attrs["aria-describedby"] == "h-holder" for c in chips)


def test_nobody_is_the_chip_checked_while_no_one_holds_it():
    form = demo()
    chips = [e for e in render(form, form.holder).elements if e.tag == "input"]
    assert ["checked" in c.attrs for c in chips] == [True, False, False]


def test_a_hostile_label_error_and_other_phone_value_stay_text():
    form = demo()
    f = form.holding.form.coins
    page = FieldHtml(form, errors={f.name: [HOSTILE, "doit être entre 0 et 999"]},
                     theirs={f.name: HOSTILE}, warned={f.name: ["<i>élevé</i>"]})
    html = str(page.render(f, label=HOSTILE))
    assert "<script>" not in html and "<i>" not in html
    tree = Tree(html)
    assert tree.by_id("f-holding-coins").attrs["class"] == "field has-error"
    label = next(e for e in tree.elements if e.tag == "label")
    assert label.text == HOSTILE and label.attrs["for"] == "holding-coins"
    assert tree.by_id("e-holding-coins").text == f"{HOSTILE} · doit être entre 0 et 999"
    assert tree.by_id("w-holding-coins").text == "<i>élevé</i>"
    assert tree.by_id("t-holding-coins").text == f"Enregistré sur l'autre appareil : {HOSTILE}"
    field = next(e for e in tree.elements if e.tag == "input")
    assert field.attrs["aria-invalid"] == "true"


def test_a_hostile_value_typed_back_stays_in_its_field():
    form = demo({"holding-coins": HOSTILE})  # not a number: the page gives it back as typed
    field = next(e for e in render(form, form.holding.form.coins).elements if e.tag == "input")
    assert field.attrs["value"] == HOSTILE


def test_a_field_shown_only_for_one_choice_is_hidden_for_the_other():
    each = render(demo({"mode": "each"}), demo({"mode": "each"}).only_shared)
    wrapper = each.by_id("f-only_shared")
    assert wrapper.attrs["data-show-if"] == "mode=shared" and "hidden" in wrapper.attrs
    shared = demo({"mode": "shared"})
    wrapper = render(shared, shared.only_shared).by_id("f-only_shared")
    assert wrapper.attrs["data-show-if"] == "mode=shared" and "hidden" not in wrapper.attrs


def test_every_field_is_described_by_its_hint_and_by_its_messages_when_it_has_some():
    form = demo()
    tree = render(form, form.holding)
    described = {e.attrs["name"]: e.attrs.get("aria-describedby") for e in tree.elements if e.tag == "input"}
    assert described == {
        "holding-coins": "h-holding-coins",
        "holding-gears": "h-holding-gears",
        "holding-plain": None,  # no hint, no id that does not exist
    }
    for ids in filter(None, described.values()):
        for id_ in ids.split():
            tree.by_id(id_)
    # no empty message slot: static/js/play/fields.js adds one where an answer needs it
    assert not [e for e in tree.elements if e.tag == "p"]
    assert not [e for e in tree.elements if "aria-invalid" in e.attrs]
    box = next(e for e in render(form, form.flag).elements if e.tag == "input")
    assert box.attrs["type"] == "checkbox" and box.attrs["aria-describedby"] == "h-flag"

    coins = form.holding.form.coins
    bad = render(form, coins, errors={coins.name: ["doit être entre 0 et 999"]},
                 warned={coins.name: ["élevé"]})
    field = next(e for e in bad.elements if e.tag == "input")
    assert field.attrs["aria-describedby"] == "e-holding-coins h-holding-coins"
    assert field.attrs["aria-invalid"] == "true"
    assert bad.by_id("e-holding-coins").text == "doit être entre 0 et 999"
    assert bad.by_id("w-holding-coins").text == "élevé"


def test_a_long_hint_folds_behind_a_tap_a_short_one_does_not():
    form = demo()
    tree = render(form, form.holding)
    folded = tree.by_id("h-holding-gears")
    assert folded.inside[-1] == "details" and folded.text == LONG
    summary = next(e for e in tree.elements if e.tag == "summary")
    assert summary.text == "?Aide : Engrenages"
    short = tree.by_id("h-holding-coins")
    assert "details" not in short.inside and short.text == "vos pièces" and "hidden" not in short.attrs


def test_list_items_refer_to_their_hint_that_the_list_says_once():
    form = demo()
    tree = render(form, form.bonus)
    items = [e for e in tree.elements if e.tag == "input"]
    assert [e.attrs["aria-describedby"] for e in items] == ["h-bonus-n", "h-bonus-n"]
    said = tree.by_id("h-bonus-n")
    assert said.text == "cartes de la couleur" and said.inside[-1] == "li" and "hidden" not in said.attrs
    assert len([e for e in tree.elements if e.attrs.get("class") == "hint"]) == 0  # none in the rows
    said = [e for e in tree.elements if e.tag == "li"]
    assert [e.text for e in said] == ["Cartes : cartes de la couleur"]
    labels = [e.text for e in tree.elements if e.tag == "label"]
    assert labels == ["rouge", "bleu"]


class Seat(Form):
    gears = forms.Count("Engrenages", LONG)
    coins = forms.Count("Pièces", "vos pièces")


class Seated(Form):
    players = forms.Fixed(forms.Group(Seat, "Joueur", ""), 2, "Joueurs", "")


def test_a_hint_is_said_once_per_kind_of_field_and_the_others_refer_to_it():
    """Every player's field of one kind says its hint once, at the first; the others are described
    by it, and a long one's "?" is written there by static/js/play/fields.js (`data-fold`)."""
    form = Seated(MultiDict())
    page = FieldHtml(form)
    first, second = (form.players.entries[i].form for i in (0, 1))
    one = Tree(str(page.render(first.gears)) + str(page.render(first.coins)))
    two = Tree(str(page.render(second.gears)) + str(page.render(second.coins)))
    folded = one.by_id("h-gears")
    assert folded.inside[-1] == "details" and folded.text == LONG
    assert one.by_id("h-coins").text == "vos pièces"
    assert not [e for e in two.elements if e.tag == "details" or e.attrs.get("id", "").startswith("h-")]
    assert two.by_id("f-players-1-gears").attrs["data-fold"] == "h-gears"
    described = {e.attrs["name"]: e.attrs["aria-describedby"] for e in two.elements if e.tag == "input"}
    assert described == {"players-1-gears": "h-gears", "players-1-coins": "h-coins"}
    assert [e.text for e in two.elements if e.attrs.get("class") == "hint"] == ["vos pièces"]  # short: shown


def test_the_add_button_goes_once_a_list_is_full():
    form = demo({"cities-0": "3"})
    forms.pad_rows(form, None)
    tree = render(form, form.cities)
    rows = tree.by_id("f-cities")
    assert rows.attrs["data-rows"] == "cities" and rows.attrs["data-max"] == "2"
    assert [e.text for e in tree.elements if e.tag == "label"] == ["Ville 1", "Ville 2"]
    button = next(e for e in tree.elements if e.tag == "button")
    assert button.attrs["value"] == "cities" and button.text == "Ajouter une ville"
    assert "hidden" in button.attrs  # two rows of two

    one = demo()
    button = next(e for e in render(one, one.cities).elements if e.tag == "button")
    assert len(one.cities.entries) == 1 and "hidden" not in button.attrs


def test_inputs_written_directly_are_those_wtforms_would_write():
    """The plain <input>s are written without WTForms' widget (a tenth of the page): the same
    attributes, values and `checked` as WTForms gives, hostile values included."""
    from wtforms.fields import HiddenField, SelectField

    from companion.views.field_html import _widget

    class Plain(Form):
        secret = HiddenField()
        note = forms.Text("Note", render_kw={"autocomplete": "off", "maxlength": 40, "data_x": True,
                                             "spellcheck": False})
        pick = SelectField("Joueur", choices=[("", "choisir…"), ("a", HOSTILE), (HOSTILE, "b")])

    for data in ({}, {"flag": "y", "mode": "shared", "secret": HOSTILE, "note": HOSTILE, "pick": HOSTILE},
                 {"pick": "a"}):
        form, plain = demo(data), Plain(MultiDict(data))
        cases = [(form.flag, {"aria-describedby": "e-flag w-flag h-flag"}), (plain.secret, {}),
                 (plain.note, {"aria-invalid": "false", "class_": HOSTILE}),
                 (plain.pick, {"aria-describedby": "h-pick"})]
        cases += [(option, {"data-keep-local": ""}) for option in form.mode]
        for field, extra in cases:
            assert _widget(field, extra) == str(field(**extra))
    ticked = demo({"flag": "y", "mode": "shared"})
    assert " checked " in _widget(ticked.flag, {}) and " checked " in _widget(list(ticked.mode)[1], {})


def test_values_are_escaped_as_jinja_escapes_them():
    from markupsafe import Markup, escape

    from companion.views.field_html import esc

    for value in (HOSTILE, "l'été & « ça »", "", Markup("<b>déjà sûr</b>"), 12, None):
        assert esc(value) == escape(value)


def test_the_forms_package_writes_no_html():
    """The fields' HTML is the web layer's (companion/views/field_html.py, which reads the form):
    companion/forms/ holds the WTForms fields and forms and turns a post into the patch, and
    writes no markup of its own nor imports the renderer."""
    from pathlib import Path

    import companion.forms

    package = Path(companion.forms.__file__).parent
    for module in sorted(package.glob("*.py")):
        text = module.read_text(encoding="utf-8")
        assert "markupsafe" not in text and "Markup(" not in text, module.name
        assert "field_html" not in text and "wtforms.widgets" not in text, module.name
