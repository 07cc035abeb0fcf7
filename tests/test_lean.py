"""The stylesheet and scripts as phones download them (companion/lean.py): comments, blank lines and
indentation gone, nothing else; served that way whatever the encoding, and a third lighter."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli
import pytest

from companion.lean import lean
from helpers import holding_files

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "static" / "js").rglob("*.js"))
SHEETS = sorted((ROOT / "static" / "css").glob("*.css"))


def js(text: str) -> str:
    return lean(text.encode(), "text/javascript").decode()


def test_a_script_loses_its_comment_lines_and_keeps_every_line_of_code():
    source = """/* What this file does,
   on two lines. */
(function () {
  "use strict";
  // a comment alone on its line

  var url = "http://example.org/"; // a comment after code stays
  var re = /\\/\\//;
  /* a comment */ var after = 1;
  /* a block that ends on a line
     where code follows */ var next = 2;
  var s = "// not a comment";
})();
"""
    assert js(source) == """(function () {
"use strict";
var url = "http://example.org/"; // a comment after code stays
var re = /\\/\\//;
/* a comment */ var after = 1;
/* a block that ends on a line
where code follows */ var next = 2;
var s = "// not a comment";
})();
"""


def test_a_stylesheet_loses_its_comments():
    source = ("/* the bar */\n.bar {\n  color: red; /* why */\n}\n\n/* a\n   block */\n"
              'a[href^="http"] { x: 1 }\n')
    assert lean(source.encode(), "text/css").decode() == '.bar {\ncolor: red;\n}\na[href^="http"] { x: 1 }\n'


def test_other_files_are_left_as_they_are():
    svg = b"<svg><!-- kept --></svg>\n  /* kept */\n"
    assert lean(svg, "image/svg+xml") == svg


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_the_scripts_hold_nothing_that_could_start_a_line_inside_a_string(path):
    """What makes leaning safe: no template literal (a string over several lines) outside comments,
    and no string continued on the next line with a backslash."""
    code = re.sub(r"/\*(?:(?!\*/).)*\*/", "", path.read_text(), flags=re.S)
    code = re.sub(r"^\s*//.*$", "", code, flags=re.M)
    assert "`" not in code
    assert not re.search(r"\\$", code, flags=re.M)


@pytest.mark.parametrize("path", SHEETS, ids=lambda p: p.name)
def test_no_stylesheet_string_holds_a_comment_mark(path):
    assert not re.search(r"[\"'][^\"'\n]*/\*", path.read_text())


@pytest.mark.parametrize("path", SCRIPTS + SHEETS, ids=lambda p: p.name)
def test_leaning_keeps_every_token_of_code(path):
    """Every non-comment line of the file is still there, in order, only its indentation gone."""
    text = path.read_text()
    kind = "text/css" if path.suffix == ".css" else "text/javascript"
    leaned = lean(text.encode(), kind).decode().splitlines()
    if kind == "text/css":
        text = re.sub(r"/\*(?:(?!\*/).)*\*/", "", text, flags=re.S)
    else:
        text = re.sub(r"^[ \t]*/\*(?:(?!\*/).)*\*/[ \t]*\n", "", text, flags=re.S | re.M)
        text = re.sub(r"^[ \t]*//[^\n]*\n", "", text, flags=re.M)
    assert leaned == [line.strip(" \t") for line in text.splitlines() if line.strip()]


def test_phones_get_the_lean_files_a_third_lighter(client):
    holding_files(client, "/nouvelle?game=revive&variant=abyss")  # their links (a later visit)
    page = client.get("/nouvelle?game=revive&variant=abyss").get_data(as_text=True)
    links = re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css)\?v=\w+)"', page)
    assert any("autosave.js" in link for link in links) and any("app.css" in link for link in links)
    before = after = 0
    for link in links:
        path = ROOT / link.split("?")[0].lstrip("/")
        kind = "text/css" if path.suffix == ".css" else "text/javascript"
        expected = lean(path.read_bytes(), kind)
        plain = client.get(link, headers={"Accept-Encoding": "identity"})
        assert plain.data == expected and "Content-Encoding" not in plain.headers
        gz = client.get(link, headers={"Accept-Encoding": "gzip, deflate"})
        br = client.get(link, headers={"Accept-Encoding": "gzip, deflate, br"})
        if "Content-Encoding" not in gz.headers:  # under a kilobyte: not worth compressing
            assert gz.data == br.data == expected
            continue
        assert gzip.decompress(gz.data) == expected and brotli.decompress(br.data) == expected
        before += len(gzip.compress(path.read_bytes(), 9))
        after += len(gz.data)
    assert after * 3 < before * 2.5, (before, after)  # at least a sixth less, compressed
