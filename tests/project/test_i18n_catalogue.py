"""Every string of the templates and of the code has its English translation (issue 13).

The strings are extracted again from the sources (babel.cfg, as `make messages` does) into a
temporary catalogue and compared with companion/translations/en: a string added without its English
fails here, as does a fuzzy or empty translation or one that lost a placeholder."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent.parent
PO = ROOT / "companion" / "translations" / "en" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*[^{}]*\}")


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
                    "-k", "lazy_gettext", "-k", "N_", "--no-location", "-o", str(pot), "."],
                   cwd=ROOT, check=True, capture_output=True)
    with pot.open("rb") as fh:
        return [m for m in read_po(fh) if m.id]


@pytest.fixture(scope="module")
def english():
    with PO.open("rb") as fh:
        return read_po(fh, locale="en")


def _key(message):
    return message.id[0] if isinstance(message.id, tuple | list) else message.id


def test_extraction_finds_the_app_strings(extracted):
    ids = {_key(m) for m in extracted}
    # one from each source: a template, a form module, an engine, the scripts' strings, the CLI
    for wanted in ("Nouvelle partie", "Fermes agricoles", "victoire partagée", "Joueur suivant : {name}",
                   "langue des messages et des feuilles (fr par défaut, en)"):
        assert wanted in ids
    assert len(ids) > 700


def test_every_string_has_an_english_translation(extracted, english):
    missing, fuzzy, empty = [], [], []
    for message in extracted:
        translated = english.get(message.id if isinstance(message.id, str) else message.id[0])
        if translated is None:
            missing.append(_key(message))
        elif translated.fuzzy:
            fuzzy.append(_key(message))
        elif not all(translated.string if isinstance(translated.string, tuple | list) else
                     [translated.string]):
            empty.append(_key(message))
    assert not missing, f"not in companion/translations/en (run `make messages`, translate): {missing}"
    assert not fuzzy, f"fuzzy English translations: {fuzzy}"
    assert not empty, f"empty English translations: {empty}"


def test_translations_keep_their_placeholders(english):
    wrong = []
    for message in english:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) - {"{n}"}
        for text in strings:
            if set(PLACEHOLDER.findall(text)) - {"{n}"} != wanted:
                wrong.append((ids[0], text))
    assert not wrong, wrong


def test_the_scripts_hold_no_french_of_their_own():
    """static/js reads its texts from the page (companion/web/jsstrings.py): no French in the code."""
    accented = re.compile(r"[àâçéèêëîïôûùüœ]|\\u00e[0-9a-f]", re.IGNORECASE)
    found = []
    for path in sorted((ROOT / "static" / "js").glob("*.js")):
        text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),  # comments may say French
                      path.read_text(encoding="utf-8"), flags=re.S)
        for n, line in enumerate(text.splitlines(), 1):
            code = line.split("//")[0].strip()
            for literal in re.findall(r'"((?:[^"\\]|\\.)*)"', code):

                if accented.search(literal):
                    found.append(f"{path.name}:{n}: {literal}")
    assert not found, found


def test_a_catalogue_never_compiled_is_still_read(tmp_path):
    """A server installed without `make translations` (only the .po) still answers in English."""
    from companion.games import i18n

    source = Path(i18n.LOCALEDIR) / "en" / "LC_MESSAGES" / "messages.po"
    copy = tmp_path / "en" / "LC_MESSAGES"
    copy.mkdir(parents=True)
    (copy / "messages.po").write_bytes(source.read_bytes())
    english = i18n.catalogue("en", tmp_path)
    assert english.gettext("Mes parties") == "My games"
    assert english.ngettext("{n} partie restaurée", "{n} parties restaurées", 2) == "{n} games restored"


RULING_CODE = re.compile(r"\b(?:règle |rule )?R\d+\b")


def test_no_string_shows_a_ruling_code(extracted, english):
    """The codes of docs/rulings.md (« R4 ») are the developers' shorthand: a player reading an
    explanation, a hint or a message has the rule booklet, not that file, so no shown string names one
    (in French or in English)."""
    shown = [_key(m) for m in extracted if RULING_CODE.search(_key(m))]
    shown += [m.string for m in english
              if m.id and isinstance(m.string, str) and RULING_CODE.search(m.string)]
    assert shown == []
