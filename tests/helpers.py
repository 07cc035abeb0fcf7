"""What the play-flow tests share: creating a game, reading what is stored, reading a page as a
browser without JavaScript would post it back, and the phone layout check."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser

from playwright.sync_api import expect

from companion.extensions import db
from companion.storage.models import GameRecord
from conftest import CEILING

# ------------------------------------------------------------------ Flask client


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


# ------------------------------------------------------------------ browser

LAYOUT = """() => {
  const small = [...document.querySelectorAll('a, button, input, select, summary')]
    .filter(e => e.offsetParent !== null && !e.classList.contains('skip'))
    // a checkbox or radio is tapped through its label, which is the target that counts
    .map(e => [e, /^(checkbox|radio)$/.test(e.type) && e.closest('label') ? e.closest('label') : e])
    .map(([e, t]) => [e, t.getBoundingClientRect()])
    // the board's squares and tools are square targets: their width counts as well
    .filter(([e, r]) => r.height < 44 || r.left < 0 || r.right > 390 ||
                        (e.matches('.sq, .tool') && r.width < 44))
    .map(([e, r]) => [e.name || e.dataset.square || e.textContent.trim(), Math.round(r.width),
                      Math.round(r.height)]);
  return {width: document.documentElement.scrollWidth, small};
}"""


def check_layout(page) -> None:
    """One column at 390 px: no sideways scrolling, every tap target at least 44 px. Measured once
    the page has loaded its stylesheet (a loaded machine may show a page's text before)."""
    page.wait_for_load_state("load")
    layout = page.evaluate(LAYOUT)
    assert layout["width"] <= 390, "horizontal scrolling at 390 px"
    assert layout["small"] == [], f"tap targets under 44 px or off screen: {layout['small']}"


def new_game(page, game: str, variant: str, names) -> str:
    """A new game as a player starts it; the edit page's URL."""
    page.goto(f"{page.base_url}/nouvelle?game={game}&variant={variant}")
    for i, name in enumerate(names):
        page.fill(f"#players-{i}-name", name)
    page.get_by_role("button", name="Commencer la saisie").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    return page.url


def second_phone(browser, live_server):
    """Another phone on the same app (its own cookies and storage): (context, page); close the context."""
    from urllib.parse import urlparse

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  locale="fr-FR")
    origin = urlparse(live_server.url).netloc
    context.route("**/*", lambda route: route.continue_() if urlparse(route.request.url).netloc == origin
                  else route.abort())
    page = context.new_page()
    page.set_default_timeout(CEILING)
    return context, page


def saved(page) -> None:
    expect(page.locator("#save-state")).to_have_text("Enregistré \u2713")


def settled(page) -> None:
    """Nothing left to send: no save on its way, none due after the autosave's delay, no catching
    up (static/js/play/autosave.js says so on the form, `data-save-queue`). What a test waits for
    before checking that something did NOT happen, instead of a wall-clock wait."""
    expect(page.locator("form[data-save-queue]")).to_have_attribute("data-save-queue", "idle")


def stored_document(live_server, url: str) -> dict:
    token = re.search(r"/g/([\w-]+)/", url).group(1)
    with live_server.app.app_context():
        return db.session.scalar(db.select(GameRecord.document).where(GameRecord.edit_token == token))


def show_step(page, stage: str) -> None:
    """Bring a step on screen as a player does, from the list of steps (with JavaScript the page
    shows one step at a time: the table's, then each player's)."""
    target = page.locator(f"#{stage}")
    if not target.is_visible():
        page.locator(f'.steps-list a[data-goto="{stage}"]').click()
        expect(target).to_be_visible()


def show_player(page, i: int) -> None:
    show_step(page, f"joueur-{i + 1}")


def choose(page, name: str, value: str) -> None:
    """Tap the chip of one player (a castle's holder...)."""
    page.locator(f'label:has(> input[name="{name}"][value="{value}"])').click()


def fill_revive_player(page, i: int, p: dict, *, card_each: bool) -> None:
    """Type one player's end state the way a player does: fields, boxes, rows, a few − / + taps."""
    show_player(page, i)
    pre = f"players-{i}-"
    for key in ("track", "progress", "scyphoz", "artifact_points", "devotion", "machine_progress"):
        if p.get(key):
            page.fill(f'[name="{pre}{key}"]', str(p[key]))
    for _ in range(p.get("two_tokens", 0)):  # the stepper's + button
        page.locator(f'#f-{pre}two_tokens button[data-step="1"]').tap()
    for j, cb in enumerate(p.get("card_bonus", [])):
        if cb.get("unlocked"):
            page.check(f'[name="{pre}card_bonus-{j}-unlocked"]')
        if cb.get("cards"):
            page.fill(f'[name="{pre}card_bonus-{j}-cards"]', str(cb["cards"]))
    for j, points in enumerate(p.get("great_locations", [])):
        if j:
            page.locator(f'#f-{pre}great_locations button[name="add_row"]').tap()
        page.fill(f'[name="{pre}great_locations-{j}"]', str(points))
    if p.get("four_token"):
        page.check(f'[name="{pre}four_token"]')
    for key, n in p.get("resources", {}).items():
        if n:
            page.fill(f'[name="{pre}resources-{key}"]', str(n))
    for j, n in enumerate(p.get("artifacts", [])):
        if n:
            page.fill(f'[name="{pre}artifacts-{j}"]', str(n))
    for j, line in enumerate(p.get("artifact_card", [])):
        page.fill(f'[name="{pre}artifact_card-{j}-count"]', str(line.get("count", 0)))
        if card_each:
            page.fill(f'[name="{pre}artifact_card-{j}-points"]', str(line.get("points", 0)))
