"""The stylesheet and scripts as phones download them (companion/web/lean.py, rjsmin and rcssmin): comments
and the whitespace between tokens gone, nothing else; served that way whatever the encoding, and a
third lighter."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli
import pytest

from app_helpers import holding_files
from companion.web.lean import lean

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPTS = sorted((ROOT / "static" / "js").rglob("*.js"))
SHEETS = sorted((ROOT / "static" / "css").glob("*.css"))


def js(text: str) -> str:
    return lean(text.encode(), "text/javascript").decode()


# Where a "/" starts a regular expression rather than a division: after one of these characters or
# words (the cases the project's scripts have; a reader of what the tests compare, not the minifier).
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
REGEX_KEYWORDS = ("return", "typeof", "case", "in", "of")


def parts(text: str, kind: str) -> tuple[str, list[str]]:
    """The file without its comments, and its literals (strings; for a script also template literals
    and regular expressions) as they are written: an independent reading to compare the served file
    with."""
    code, literals, i, last = [], [], 0, ""
    while i < len(text):
        if kind == "js" and text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else len(text)
            continue
        if text.startswith("/*", i):
            i = text.index("*/", i + 2) + 2
            code.append(" ")
            continue
        c = text[i]
        words = "".join(code).rstrip().split()
        regex = kind == "js" and c == "/" and (last in REGEX_AFTER or last == ""
                                               or (words and words[-1].endswith(REGEX_KEYWORDS)))
        if c in "'\"" or (kind == "js" and c == "`") or regex:
            j, in_class = i + 1, False
            while True:
                d = text[j]
                if d == "\\":
                    j += 2
                    continue
                if regex and d in "[]":
                    in_class = d == "["
                elif d == c and not in_class:
                    break
                j += 1
            literals.append(text[i:j + 1])
            code.append(text[i:j + 1])
            i, last = j + 1, c
            continue
        code.append(c)
        last = c if not c.isspace() else last
        i += 1
    return "".join(code), literals


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_a_script_loses_its_comments_and_keeps_its_code_strings_and_template_literals():
    source = """/* What this file does,
   on two lines. */
(function () {
  "use strict";
  // a comment alone on its line

  var url = "http://example.org/"; // a comment after code
  var re = /\\/\\//;
  /* a comment */ var after = 1;
  var s = "// not a comment";
  var t = `two lines:
    // not a comment either, ${url}`;
  var n = 1
  ++after
  return s
})();
"""
    out = js(source)
    assert "comment alone" not in out and "a comment after code" not in out and "What this" not in out
    template = "`two lines:\n    // not a comment either, ${url}`"
    for kept in ('"http://example.org/"', "/\\/\\//", '"// not a comment"', template):
        assert kept in out
    # A line break stays where JavaScript's automatic semicolon needs it.
    assert "var n=1\n++after\nreturn s" in out
    assert squeezed(out) == squeezed(parts(source, "js")[0])


def test_a_stylesheet_loses_its_comments():
    source = ("/* the bar */\n.bar {\n  color: red; /* why */\n}\n\n/* a\n   block */\n"
              'a[href^="http"] { x: 1 }\na[title="/* kept */"] { content: "/* kept */" }\n')
    assert lean(source.encode(), "text/css").decode() == (
        '.bar{color:red}a[href^="http"]{x:1}a[title="/* kept */"]{content:"/* kept */"}')


def test_other_files_are_left_as_they_are():
    svg = b"<svg><!-- kept --></svg>\n  /* kept */\n"
    assert lean(svg, "image/svg+xml") == svg


@pytest.mark.parametrize("path", SCRIPTS + SHEETS, ids=lambda p: p.name)
def test_leaning_keeps_every_token_of_code_and_every_literal(path):
    """The served file is the source without its comments and the whitespace between tokens: every
    other character is there, in order, and every string (template literal, regular expression) as
    it is written, spaces and line breaks included."""
    text = path.read_text()
    kind = "css" if path.suffix == ".css" else "js"
    leaned = lean(text.encode(), "text/css" if kind == "css" else "text/javascript").decode()
    code, literals = parts(text, kind)
    if kind == "css":  # the minifier also drops a rule's last semicolon, which nothing needs
        code = re.sub(r";(\s*)}", r"\1}", code)
    assert squeezed(leaned) == squeezed(code)
    assert [lit for lit in literals if lit not in leaned] == []
    assert len(leaned) < len(text) * 0.85


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
