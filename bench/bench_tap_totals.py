"""From a tap to its totals (issue 33): on a phone (headless Chromium, 390×844) at a 4-player Revive +
Call of the Abyss game, a stepper's + on player 1's track (a stepper's tap is saved at once), timed in
the page from the click to the moment the seat's running total shows the answer's number. The app is
served on loopback as bench/bench_taps.py serves it (werkzeug, threads, SQLite), the nearest this
machine has to a LAN; a LAN adds its round trip (a few ms on a table's Wi-Fi).

Run: `.venv/bin/python -m bench.bench_tap_totals [taps]` (20 by default). Prints each tap's time,
then the median and the slowest, beside the same tap on a field typed in (the autosave's 700 ms).
"""

from __future__ import annotations

import logging
import re
import statistics
import sys

from bench.bench_taps import CHROMIUM, SCREEN, serve

NAMES = ["Ana", "Ben", "Cléo", "Dan"]

# In the page: the click, then the first moment the seat's total is a number again (the answer's),
# timed with the page's own clock.
TIMED = """async ([selector, seat]) => {
  const total = document.querySelector(`.steps-list [data-seat-total="${seat}"]`);
  const before = total.textContent.trim();
  const start = performance.now();
  const done = new Promise(resolve => {
    const seen = new MutationObserver(() => {
      const now = total.textContent.trim();
      if (/^-?\\d+$/.test(now) && now !== before) { seen.disconnect(); resolve(performance.now() - start); }
    });
    seen.observe(total, {childList: true, characterData: true, subtree: true});
  });
  document.querySelector(selector).click();
  return await done;
}"""


def main() -> int:
    from playwright.sync_api import sync_playwright

    taps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line a request otherwise
    server, base = serve()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 390, "height": SCREEN}, is_mobile=True,
                                      has_touch=True, locale="fr-FR")
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{base}/nouvelle?game=revive&variant=abyss")
        for i, name in enumerate(NAMES):
            page.fill(f"#players-{i}-name", name)
        page.get_by_role("button", name="Commencer la saisie").click()
        page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
        page.locator(".steps-list a", has_text="Ana").click()
        page.locator('#f-players-0-track button[data-step="1"]').wait_for()
        idle = "() => document.querySelector('form[data-save-queue]').dataset.saveQueue === 'idle'"
        tapped = []
        for _ in range(taps):
            page.wait_for_function(idle)
            tapped.append(page.evaluate(TIMED, ['#f-players-0-track button[data-step="1"]', 0]))
        page.wait_for_function(idle)
        # the same + on a field typed in keeps the autosave's delay: its totals wait for it
        typed = []
        field = page.locator('[name="players-0-progress"]')
        for k in range(3):
            page.wait_for_function(idle)
            field.evaluate("(el, v) => { el.value = v; }", str(k + 1))
            typed.append(page.evaluate("""async () => {
              const el = document.querySelector('[name="players-0-progress"]');
              const total = document.querySelector('.steps-list [data-seat-total="0"]');
              const start = performance.now();
              const done = new Promise(resolve => new MutationObserver((m, o) => {
                if (!/^-?\\d+$/.test(total.textContent.trim())) return;
                o.disconnect();
                resolve(performance.now() - start);
              }).observe(total, {childList: true, characterData: true, subtree: true}));
              el.dispatchEvent(new Event("input", {bubbles: true}));
              return await done;
            }"""))
        context.close()
        browser.close()
    server.shutdown()
    print("tape → total affiché (ms) :", ", ".join(f"{t:.0f}" for t in tapped))
    print(f"tape sur un − / + : médiane {statistics.median(tapped):.0f} ms, la plus lente "
          f"{max(tapped):.0f} ms ({taps} tapes) ; chiffre tapé (délai de 700 ms) : médiane "
          f"{statistics.median(typed):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
