"""The contract's example documents (docs/contract.md's examples, kept in tests/fixtures), for every
folder's tests."""

from __future__ import annotations

import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def load_example(name: str) -> dict:
    """A hand-checked example document (docs/contract.md's examples, kept in tests/fixtures)."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))
