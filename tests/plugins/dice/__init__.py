"""The stand-in game "dice", in the files a fourth game writes (docs/architecture.md, "Adding a fourth
game"): `rules.py` is what `companion/games/<game>.py` holds, `forms.py` what `companion/forms/<game>.py`
holds, `templates/play/dice.html` what `templates/play/<game>.html` holds. The tests' fixtures
`dice` (tests/conftest.py) and `dice_screens` (tests/forms/conftest.py) put them where the app finds
a game's files. Copy them to start a game."""
