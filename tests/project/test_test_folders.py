"""The tests are in folders by layer (docs/architecture.md, "Layers"): each file's basename is unique
across folders (pytest imports a test file by its basename, and a test may reuse another's), none
lies at tests/'s top, and shared code is in helper modules, never imported from a conftest."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent


def test_test_files_are_in_folders_with_unique_names():
    files = sorted(TESTS.glob("*/test_*.py"))
    twice = [name for name, n in Counter(p.name for p in files).items() if n > 1]
    assert twice == []
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []


def test_nothing_is_imported_from_a_conftest():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "conftest":
                found.append(f"{path.relative_to(TESTS)}:{node.lineno}")
    assert found == []
