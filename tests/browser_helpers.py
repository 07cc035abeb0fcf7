"""What the browser tests share (headless Chromium at 390x844): how long a check may wait, a
screenshot, the phone layout check, starting a game, a second phone, waiting on the save state, and
typing a player's end state as a player does."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from companion.extensions import db
from companion.storage.models import GameRecord

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
# How long a browser action or check may wait at most: a ceiling, not a budget. Tests wait on the
# page's own signals (the save state, `data-save-queue`, a navigation), which come as soon as the work
# is done; on a machine busy with other work (CI's shared runners, two cores and seven sessions)
# that may take far longer than on an idle one, and a check that waits longer still fails when the
# page is wrong.
CEILING = 60_000


def screenshot(page, name: str) -> Path:
    """Save a screenshot under test-artifacts/ (git-ignored) for a reviewer to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


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


def each_step(page):
    """Each step of the edit page shown in turn from the list of steps, as a player goes through
    them: yields the step's id once it is on screen."""
    steps = page.locator(".steps-list a[data-goto]").evaluate_all("as => as.map(a => a.dataset.goto)")
    for step in steps:
        page.locator(f'.steps-list a[data-goto="{step}"]').click()
        yield step


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
        if not page.locator(f'[name="{pre}great_locations-{j}"]').count():  # two rows from the start
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
