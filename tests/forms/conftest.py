"""The stand-in game "dice" with its screens: step 2 of "Adding a fourth game" (docs/architecture.md),
used by the forms' tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def dice_screens(dice, app, monkeypatch):
    """Step 2 for "dice": its screens, `tests/plugins/dice/forms.py`, found where the app looks for a
    game's (`companion.forms.dice`), and its page, `tests/plugins/dice/templates/play/dice.html`."""
    import sys

    import jinja2
    from plugins.dice import forms as dice_forms

    from companion import forms

    monkeypatch.setitem(sys.modules, "companion.forms.dice", dice_forms)
    templates = str(Path(__file__).resolve().parent.parent / "plugins" / "dice" / "templates")
    monkeypatch.setattr(app.jinja_env, "loader", jinja2.ChoiceLoader([app.jinja_env.loader,
                                                                      jinja2.FileSystemLoader(templates)]))
    forms.end_state_class.cache_clear()
    yield forms.screens("dice")
    forms.end_state_class.cache_clear()
