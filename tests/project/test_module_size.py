"""No module of the app outside the rules (`companion/games/`) grows past 600 lines (issue 29): a
module that long holds more than one role, and a newcomer reads it whole to place a bug."""

from __future__ import annotations

from pathlib import Path

import companion

LIMIT = 600


def test_no_module_outside_the_rules_is_over_600_lines():
    root = Path(companion.__file__).resolve().parent
    long = {str(path.relative_to(root)): n for path in root.rglob("*.py")
            if "games" not in path.relative_to(root).parts[:1]
            and (n := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT}
    assert long == {}


def test_the_forms_and_the_save_path_stay_within_3000_lines():
    """Issue 29: `forms/` + `saving/` (what turns a page's fields into a document) at most 3,000 lines,
    the size of the rules themselves: a save path a newcomer can read in a sitting."""
    root = Path(companion.__file__).resolve().parent
    lines = sum(len(path.read_text(encoding="utf-8").splitlines())
                for folder in ("forms", "saving") for path in (root / folder).rglob("*.py"))
    assert lines <= 3000
