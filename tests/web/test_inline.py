"""A first visit gets the page's stylesheets and scripts inside the page, a later visit the cached
files (companion/web/inline.py, issue 33); the Content-Security-Policy stays strict either way."""

from __future__ import annotations

import re
from pathlib import Path

from app_helpers import create_game, foreign_inline, holding_files
from companion.web import security
from companion.web.lean import lean

ROOT = Path(__file__).resolve().parent.parent.parent
LINKED = re.compile(r'<(?:link rel="stylesheet"(?: media="print")? href|script src)'
                    r'="/static/([^"?]+)\?v=([0-9a-f]{12})"')


def served(name: str) -> str:
    path = ROOT / "static" / name
    return lean(path.read_bytes(), "text/css" if path.suffix == ".css" else "text/javascript").decode()


def scripts_in_order(html: str) -> list[str]:
    """Each script of the page, in the order it runs: its file's name, inline or linked."""
    by_text = {served(f"js/{p.relative_to(ROOT / 'static' / 'js').as_posix()}"): p.name
               for p in (ROOT / "static" / "js").rglob("*.js")}
    out = []
    scripts = re.findall(r'<script(?: src="/static/js/([^"?]+)\?v=\w+")?[^>]*>(.*?)</script>', html, re.S)
    for src, text in scripts:
        out.append(src.rsplit("/", 1)[-1] if src else by_text[text])
    return out


def test_a_first_visit_has_every_file_inside_the_page_allowed_by_its_hash(client):
    token = create_game(client, "revive", "abyss", ["Ana", "Bea", "Cem", "Dan"])
    response = client.get(f"/g/{token}/")
    html = response.get_data(as_text=True)
    assert LINKED.findall(html) == []  # nothing left to fetch before the page works
    assert f"<style>{served('css/app.css')}</style>" in html
    assert f'<style media="print">{served("css/print.css")}</style>' in html
    # the scripts run in the order the templates give them, after the whole form, then warm.js
    assert scripts_in_order(html) == ["strings.js", "zone.js", "stepper.js", "fields.js", "steps.js",
                                      "autosave.js", "where.js", "share.js", "warm.js"]
    assert html.index("</form>") < html.index("<script")
    assert not foreign_inline(response)
    csp = response.headers["Content-Security-Policy"]
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "'nonce-" not in csp
    assert len(re.findall(r"'sha256-", csp)) == 9 + 2  # 9 scripts (8 + warm.js), 2 stylesheets
    assert "Cookie" in response.headers["Vary"]


def test_the_cookie_written_after_a_first_visit_brings_the_links_back(client):
    token = create_game(client, "revive", "abyss", ["Ana", "Bea"])
    first = client.get(f"/g/{token}/").get_data(as_text=True)
    warm = re.search(r'<script data-warm="([^"]+)" data-cookie="([0-9a-f.]+)" data-path="/">', first)
    urls, cookie = warm.group(1).split(), warm.group(2)
    # warm.js fetches what the page held, by the URLs a later page links (cached a year)
    assert {u.split("?")[0].split("/static/")[1] for u in urls} == {
        "css/app.css", "css/print.css", "js/strings.js", "js/zone.js", "js/stepper.js", "js/play/fields.js",
        "js/play/steps.js", "js/play/autosave.js", "js/play/where.js", "js/share.js"}
    for url in urls:
        assert "immutable" in client.get(url).headers["Cache-Control"]
    client.set_cookie("assets", cookie)
    later = client.get(f"/g/{token}/")
    html = later.get_data(as_text=True)
    # as the templates write it
    assert "<style" not in html and not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert len(LINKED.findall(html)) == 10 and html.count(" defer></script>") == 8
    assert later.headers["Content-Security-Policy"] == security.CSP
    assert "Cookie" in later.headers["Vary"]


def test_a_phone_holding_some_files_gets_the_others_inside_in_the_same_order(client):
    token = create_game(client, "revive", "base", ["Ana", "Bea"])
    home = holding_files(client, "/")  # the home page's files: app.css, print.css, strings, zone, share
    html = client.get(f"/g/{token}/").get_data(as_text=True)
    linked = {name for name, _ in LINKED.findall(html)}
    assert linked == {"css/app.css", "css/print.css", "js/strings.js", "js/zone.js", "js/share.js"}
    assert " defer></script>" not in html  # linked ones run in turn with the inline ones, at the end
    assert scripts_in_order(html) == ["strings.js", "zone.js", "stepper.js", "fields.js", "steps.js",
                                      "autosave.js", "where.js", "share.js", "warm.js"]
    # the cookie the page writes next keeps what the phone held and adds what it was given
    cookie = re.search(r'data-cookie="([0-9a-f.]+)"', html).group(1)
    assert set(home.split(".")) < set(cookie.split(".")) and len(cookie.split(".")) == 10


def test_a_cookie_of_files_since_changed_is_a_first_visit_and_is_forgotten(client):
    client.set_cookie("assets", "00000000.11111111.not-hex")
    html = client.get("/").get_data(as_text=True)
    assert LINKED.findall(html) == []
    cookie = re.search(r'data-cookie="([0-9a-f.]+)"', html).group(1)
    assert "00000000" not in cookie and "11111111" not in cookie and len(cookie.split(".")) == 5


def test_no_other_page_or_answer_is_touched(client):
    token = create_game(client, "revive", "base", ["Ana", "Bea"])
    missing = client.get("/nulle-part")  # an error page keeps its links (and the default policy)
    assert missing.status_code == 404 and "<style" not in missing.get_data(as_text=True)
    assert missing.headers["Content-Security-Policy"] == security.CSP
    sheet = client.get(f"/g/{token}/resultats")  # not scored yet: a page of its own, still a page
    assert sheet.status_code in (200, 302)
    css = client.get(re.search(r'data-warm="([^" ]+)', client.get("/").get_data(as_text=True)).group(1))
    assert css.mimetype == "text/css" and "<script" not in css.get_data(as_text=True)
    api = client.get("/api/v1/games")
    assert api.mimetype == "application/json" and api.headers["Content-Security-Policy"] == security.CSP


def test_every_stylesheet_and_script_can_go_inside_a_page():
    """A file holding a closing tag or a comment opener would keep its link on a first visit (and
    its round trip): none does."""
    from companion.web.inline import inlinable

    files = [p for p in (ROOT / "static").rglob("*") if p.suffix in (".css", ".js")]
    kept = [p.name for p in files if not inlinable(served(p.relative_to(ROOT / "static").as_posix()))]
    assert files and kept == []
