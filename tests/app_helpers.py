"""What tests driving the app through Flask's test client share: an app on a temporary database,
creating a game, an autosave as the page sends it, the stored record, and a page read as a browser
without JavaScript would post it back."""

from __future__ import annotations

import json
import os
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from companion import create_app
from companion.extensions import db
from companion.storage.models import GameRecord


def make_app(tmp_path: Path, **overrides):
    os.environ["COMPANION_INSTANCE"] = str(tmp_path / "instance")
    config = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        "WTF_CSRF_ENABLED": False,
        # The suite sends hundreds of requests from one address: tests/web/test_rate_limits.py turns
        # the limits on for itself.
        "RATELIMIT_ENABLED": False,
    }
    config.update(overrides)
    app = create_app(config)
    with app.app_context():
        db.create_all()
    return app


def create_game(client, game: str, variant: str, names, colours=None) -> str:
    """A new game through the new-game form; its edit token."""
    data = {"game": game, "variant": variant}
    for i, name in enumerate(names):
        data[f"players-{i}-name"] = name
        if colours:
            data[f"players-{i}-colour"] = colours[i]
    response = client.post("/nouvelle", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return re.fullmatch(r"/g/([\w-]+)/", response.headers["Location"]).group(1)


def autosave(client, token: str, version, rows=None, **changes):
    """A save as static/js/play/autosave.js sends it: {field: (base, mine)} (`players__0__track` for
    `players-0-track`), and the rows this phone added (`new_rows`) when given."""
    data = {"version": str(version), "changes": json.dumps(
        {name.replace("__", "-"): list(pair) for name, pair in changes.items()})}
    if rows is not None:
        data["new_rows"] = json.dumps(rows)
    return client.post(f"/g/{token}/save", data=data)


def stored(app, token: str) -> GameRecord:
    """The stored game, detached from the session so a test can read it after the request."""
    with app.app_context():
        rec = db.session.scalar(db.select(GameRecord).where(GameRecord.edit_token == token))
        db.session.expunge(rec)
        return rec


_INLINE = re.compile(r"<(script|style)\b([^>]*)>(.*?)</\1>", re.S)


def foreign_inline(response) -> list[str]:
    """The inline scripts and styles of a page that are not the app's own files allowed by this
    response's CSP: each inline `<script>` or `<style>` (a first visit's, companion/web/inline.py) must
    hold exactly a file of static/ as served (companion/web/lean.py), its SHA-256 named in the policy's
    script-src or style-src, and no 'unsafe-inline'. Empty when the page is safe."""
    import base64
    import hashlib
    from pathlib import Path

    from companion.web.lean import lean

    static = Path(__file__).resolve().parent.parent / "static"
    own = {lean(f.read_bytes(), "text/css" if f.suffix == ".css" else "text/javascript")
           for f in static.rglob("*") if f.suffix in (".css", ".js")}
    csp = response.headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    found = []
    if "unsafe-inline" in csp:
        found.append("'unsafe-inline' in the policy")
    html = response.get_data(as_text=True)
    for kind, attributes, text in _INLINE.findall(html):
        if kind == "script" and re.search(r"\bsrc=", attributes):
            continue
        data = text.encode()
        digest = "'sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode() + "'"
        if data not in own or digest not in directives[f"{kind}-src"].split():
            found.append(f"<{kind}{attributes}>{text[:60]}")
    return found


def markup(html: str) -> str:
    """A page without the content of its inline scripts and styles (a first visit's own files,
    companion/web/inline.py): what its markup says, not what its stylesheet or scripts mention."""
    return _INLINE.sub(lambda m: f"<{m[1]}{m[2]}></{m[1]}>", html)


def holding_files(client, url: str = "/") -> str:
    """The client made a phone that holds the app's stylesheets and scripts (a later visit): the
    cookie a first visit of `url` tells its page to write once it has fetched them. Its value."""
    html = client.get(url).get_data(as_text=True)
    value = re.search(r'data-cookie="([0-9a-f.]*)"', html).group(1)
    client.set_cookie("assets", value)
    return value


def error_beside(html: str, field: str) -> str:
    """The message the page shows beside a field (its `e-<field>` element)."""
    match = re.search(rf'<p class="field-error" id="e-{re.escape(field)}"[^>]*>(.*?)</p>', html, re.S)
    assert match, f"no message slot for {field}"
    return unescape(match.group(1)).strip()


class Fields(HTMLParser):
    """What a browser without JavaScript posts back from the end-state or tool form, as rendered."""

    def __init__(self):
        super().__init__()
        self.values: dict[str, str] = {}
        self.inside = False
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") in ("end-state", "tool-form"):
            self.inside = True
        if not self.inside:
            return
        if tag == "select":
            self.select = a["name"]
            self.values.setdefault(self.select, "")
        elif tag == "option" and self.select and "selected" in a:
            self.values[self.select] = a.get("value") or ""
        elif tag == "input" and a.get("name") and a.get("type") != "submit":
            if a.get("type") in ("radio", "checkbox") and "checked" not in a:
                return
            self.values[a["name"]] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def posted(html: str) -> dict[str, str]:
    parser = Fields()
    parser.feed(html)
    return parser.values
