"""The README a new user reads first stays short (what the app does, the two commands, the table,
the settings, deploying, languages: the rest lives in docs/), and every file it names is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
README = ROOT / "README.md"
# The README and the user documents it sends the reader to.
DOCUMENTS = [README, ROOT / "docs" / "features.md", ROOT / "docs" / "deploying.md"]
# A relative path with at least one folder (`docs/rulings.md`, `tests/fixtures/`), or a file of the
# repository's root (`gunicorn.conf.py`); not a piece of a URL, a route or an absolute system path.
PATH = re.compile(r"(?<![\w/.:<>-])((?:\.?[\w-]+/)+[\w.-]*|[\w-]+(?:\.[\w-]+)*\.(?:py|md|toml|conf|cfg))"
                  r"(?![\w/<])")
MEDIA_TYPE = re.compile(r"(?:application|image|text)/")  # `application/json`: a type, not a path
# Made by `make` or by the app on the user's machine, never in a fresh clone: the virtual environment
# and what the app writes into its instance folder.
MADE = (".venv/", "instance/")


def named_paths(text: str) -> set[str]:
    return {p for p in PATH.findall(text)
            if (not p.startswith(MADE) or p == "instance/") and not MEDIA_TYPE.match(p)}


def test_the_readme_stays_within_15_kb():
    assert len(README.read_bytes()) <= 15 * 1024


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_file_it_names_exists(document):
    text = document.read_text(encoding="utf-8")
    paths = named_paths(text)
    assert paths, "the check finds the paths it names"
    assert sorted(p for p in paths if not (ROOT / p).exists()) == []


def test_the_game_documents_it_names_are_the_fixtures():
    text = README.read_text(encoding="utf-8")
    names = re.findall(r"`([\w-]+\.json)`", text)
    assert len(names) == 3 and all((ROOT / "tests" / "fixtures" / name).is_file() for name in names)


def test_the_check_sees_a_missing_path_and_leaves_urls_routes_and_system_paths_alone():
    text = ("see `docs/nowhere.md` and [the rules](docs/rulings.md), `gunicorn.conf.py`, `tests/fixtures/`; "
            "not http://127.0.0.1:5000/api/v1/score, `/g/<token>/sheet.pdf`, /etc/nginx/sites-available/x, "
            "postgresql://u:p@db.example/companion, `.venv/bin/python`, `instance/secret_key`, "
            "application/json; -d @tests/fixtures/reterra.json")
    assert named_paths(text) == {"docs/nowhere.md", "docs/rulings.md", "gunicorn.conf.py", "tests/fixtures/",
                                 "tests/fixtures/reterra.json"}


def test_commands_run_the_projects_python_never_a_bare_one():
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        bare = re.findall(r"(?<![\w/.-])python3?(?= -[mc] )", text)
        assert bare == [], document.name
