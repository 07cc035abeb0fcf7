"""The merge of companion.saving, as pure functions: one phone's changes over the values stored now,
without Flask, WTForms or a database."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.forms import reterra
from companion.saving import wire
from companion.saving.merge import lay, relocate


@dataclass
class View:
    """A stored document's values as the merge reads them."""

    values: dict[str, str]
    limits: dict[str, int] = field(default_factory=dict)
    blanks: dict[str, str] = field(default_factory=dict)

    def shown(self, name: str) -> str:
        return self.values.get(name, "")

    def same(self, name: str, a: str, b: str) -> bool:
        return a == b or (name in self.blanks and {a, b} <= {"", self.blanks[name]})


STORED = {"players-0-track": "30", "players-1-track": "12", "players-1-ports": "2"}


def test_different_fields_on_two_phones_both_land():
    laid = lay(View(dict(STORED)), {"players-1-ports": ("2", "4")})
    assert laid.conflicts == {}
    assert laid.data == STORED | {"players-1-ports": "4"}


def test_the_same_field_changed_differently_on_both_sides_is_a_conflict_naming_theirs():
    # this phone saw 1, the other phone stored 2 meanwhile, this phone typed 5
    laid = lay(View(dict(STORED)), {"players-1-ports": ("1", "5"), "players-0-castles": ("", "3")})
    assert laid.conflicts == {"players-1-ports": "2"}


def test_the_same_value_on_both_sides_is_no_conflict():
    laid = lay(View(dict(STORED)), {"players-1-ports": ("1", "2")})
    assert laid.conflicts == {} and laid.data == STORED


def test_an_unchanged_save_lays_what_is_stored():
    laid = lay(View(dict(STORED)), {})
    assert (laid.data, laid.conflicts, laid.moved, laid.dropped) == (STORED, {}, {}, {})


def test_a_zero_the_server_filled_in_is_the_blank_the_page_was_based_on():
    """Revive's artifact counts: stored as 0 after any save, blank on a page opened before."""
    view = View({"players-1-artifacts-1": "0"}, blanks={"players-1-artifacts-1": "0"})
    laid = lay(view, {"players-1-artifacts-1": ("", "1")})
    assert laid.conflicts == {} and laid.data["players-1-artifacts-1"] == "1"
    # a 0 someone typed in a field that is not a fixed list's stays a value of its own
    assert lay(View({"players-1-track": "0"}), {"players-1-track": ("", "1")}).conflicts == {
        "players-1-track": "0"}


def test_rows_added_on_both_phones_are_both_kept():
    """Both phones add a city at the same index: this phone's goes to the next free row."""
    view = View({"cities-0-size": "3", "cities-1-size": "2"}, limits={"cities": 6})
    changes = {"cities-1-size": ("", "4"), "cities-1-tiles-0-player": ("", "Jules")}
    laid = lay(view, changes, added=["cities-1"])
    assert laid.conflicts == {}
    assert laid.moved == {"cities-1": "cities-2"}
    assert laid.data["cities-1-size"] == "2" and laid.data["cities-2-size"] == "4"
    assert laid.data["cities-2-tiles-0-player"] == "Jules"


def test_a_full_list_leaves_the_clash_to_the_player():
    out, moved = relocate({"cities-0-size": ("", "4")}, ["cities-0"], {"cities-0-size": "3"}, {"cities": 1})
    assert moved == {} and out == {"cities-0-size": ("", "4")}


CARDS = {"buildings-0-id": "ferme", "buildings-0-name": "Ferme", "buildings-0-points": "3",
         "buildings-1-id": "forge", "buildings-1-name": "Forge", "buildings-1-points": "4",
         "players-0-built-0": "1", "players-0-built-1": "3"}  # after the other phone removed the Puits


def test_a_count_goes_with_its_card_whatever_row_it_was_typed_in():
    laid = lay(View(dict(CARDS)), {"players-1-built-2": ("", "2")}, keys={"players-1-built-2": "Forge"},
               names=["Maëlle", "Yanis"], rules=reterra.ADAPTER)
    assert laid.conflicts == {} and laid.dropped == {}
    assert laid.data["players-1-built-1"] == "2" and laid.data.get("players-1-built-2", "") == ""
    assert laid.moved == {"players-1-built-2": "players-1-built-1"}


def test_a_count_for_a_card_removed_on_the_other_phone_is_left_out_with_a_message():
    laid = lay(View(dict(CARDS)), {"players-1-built-1": ("", "1")}, keys={"players-1-built-1": "Puits"},
               names=["Maëlle", "Yanis"], rules=reterra.ADAPTER)
    assert laid.data.get("players-1-built-1", "") == ""  # not written onto the Forge
    assert laid.moved == {"players-1-built-1": ""}
    assert "« Puits »" in laid.dropped["players-1-built-1"]


def test_a_count_changed_for_a_card_on_both_phones_is_a_conflict():
    laid = lay(View(dict(CARDS)), {"players-0-built-2": ("2", "5")}, keys={"players-0-built-2": "Forge"},
               names=["Maëlle", "Yanis"], rules=reterra.ADAPTER)
    assert laid.conflicts == {"players-0-built-2": "3"}


def test_a_card_removed_here_keeps_every_count_with_its_card():
    """This phone removes the Ferme: the rows move up, and each count follows its card."""
    changes = {"buildings-0-id": ("ferme", "forge"), "buildings-0-name": ("Ferme", "Forge"),
               "buildings-0-points": ("3", "4"), "buildings-1-id": ("forge", ""),
               "buildings-1-name": ("Forge", ""), "buildings-1-points": ("4", "")}
    laid = lay(View(dict(CARDS)), changes, rules=reterra.ADAPTER)
    assert laid.data["players-0-built-0"] == "3" and laid.data["players-0-built-1"] == ""


def test_a_card_put_back_here_takes_its_count_whatever_card_its_row_holds_on_the_server():
    """The undo of a removal (the Ferme put back at row 0, the Forge back at row 1): the count typed for
    the Ferme (blank before: the card was not in play) is no conflict with the Forge's count stored on
    that row; each count goes with its card."""
    stored = {"buildings-0-id": "forge", "buildings-0-name": "Forge", "buildings-0-points": "4",
              "players-0-built-0": "3"}
    changes = {"buildings-0-id": ("forge", "ferme"), "buildings-0-name": ("Forge", "Ferme"),
               "buildings-0-points": ("4", "3"), "buildings-1-id": ("", "forge"),
               "buildings-1-name": ("", "Forge"), "buildings-1-points": ("", "4"),
               "players-0-built-0": ("", "2")}
    laid = lay(View(stored), changes, keys={"players-0-built-0": "Ferme"}, added=["buildings-1"],
               names=["Maëlle", "Yanis"], rules=reterra.ADAPTER)
    assert laid.conflicts == {} and laid.dropped == {}
    assert laid.data["players-0-built-0"] == "2" and laid.data["players-0-built-1"] == "3"
    # the count of a card put back is still checked against a count the other phone stored meanwhile
    stored |= {"buildings-1-id": "ferme", "buildings-1-name": "Ferme", "buildings-1-points": "3",
               "players-0-built-1": "5"}
    laid = lay(View(stored), {"players-0-built-0": ("", "2")}, keys={"players-0-built-0": "Ferme"},
               names=["Maëlle", "Yanis"], rules=reterra.ADAPTER)
    assert laid.conflicts == {"players-0-built-0": "5"}


def test_a_half_painted_board_stays_on_the_phone_and_the_stored_one_is_kept():
    """A board begun but not finished is not sent (data-local): a save of this phone's counts leaves
    the other phone's drawing as stored, and is no conflict."""
    view = View({"players-1-mode": "grid", "players-1-grid-terrain-0": "FFFFEEDD",
                 "players-0-segments": "1"})
    laid = lay(view, {"players-0-segments": ("1", "2")}, rules=reterra.ADAPTER)
    assert laid.conflicts == {}
    assert laid.data["players-1-grid-terrain-0"] == "FFFFEEDD" and laid.data["players-0-segments"] == "2"


def test_the_wire_format_reads_what_the_page_sends_and_refuses_the_rest():
    save = wire.autosave({"version": "3", "changes": '{"players-0-track": [" ", "9 "]}',
                          "new_rows": '["cities-1"]', "row_keys": '{"players-0-built-0": "Forge"}'})
    assert save == wire.Save({"players-0-track": ("", "9")}, ["cities-1"], {"players-0-built-0": "Forge"}, 3)
    assert wire.autosave(wire.encode(save)) == save
    for bad in ('{"a": "b"}', '{"a": ["b"]}', "[", '["a"]', '{"a": [1, 2]}'):
        try:
            wire.autosave({"changes": bad})
        except wire.BadSave:
            continue
        raise AssertionError(bad)


def test_the_stored_changes_laid_over_the_values_before_are_the_values_after():
    """`changed`, the autosave's short answer: a new value, "" for one blanked or gone; the values
    the page held (its non-blank ones) with it laid over are the values after."""
    before = {"a": "1", "b": "2", "c": "", "gone": "7"}
    after = {"a": "1", "b": "3", "c": "4", "d": ""}
    changed = wire.stored_changes(before, after)
    assert changed == {"b": "3", "c": "4", "gone": ""}
    held = {n: v for n, v in before.items() if v}
    held.update(changed)
    assert {n: v for n, v in held.items() if v} == {n: v for n, v in after.items() if v}
