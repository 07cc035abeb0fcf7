"""A name starting with an underscore is its module's own: no other module of companion/ imports it
(`from .x import _name`). A module that needs it gets it public (renamed) or moved where it is used."""

from __future__ import annotations

import ast
from pathlib import Path

COMPANION = Path(__file__).resolve().parent.parent.parent / "companion"

# gettext's conventional name (companion/games/i18n.py), public by convention though it starts with "_".
CONVENTIONAL = {"_"}

def private_imports(path: Path) -> list[str]:
    """Each `from <module> import _name` of the file, as "line: from module import _name"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            found += [f"{node.lineno}: from {module} import {alias.name}" for alias in node.names
                      if alias.name.startswith("_") and not alias.name.startswith("__")
                      and alias.name not in CONVENTIONAL]
    return found


def test_no_module_imports_another_modules_private_name():
    offending = {}
    for path in sorted(COMPANION.rglob("*.py")):
        name = path.relative_to(COMPANION).as_posix()
        if found := private_imports(path):
            offending[name] = found
    assert offending == {}, "private names imported across modules (make them public, or move them)"


def test_the_check_sees_a_private_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from .html import Bare, _e\nfrom ..games.i18n import _\nfrom . import __version__\n"
                      "from .rows import (\n    rebuild,\n    _rows,\n)\n", encoding="utf-8")
    assert private_imports(sample) == ["1: from .html import _e", "4: from .rows import _rows"]
