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
