"""A phone's first visit runs the page's scripts given inside it, under the strict policy, then
fetches the files and says so in a cookie; its next visit runs the linked files (companion/web/inline.py).
The `phone` fixture fails the test on any script error or Content-Security-Policy violation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_helpers import new_game, saved, show_player

pytestmark = pytest.mark.browser


def test_first_visit_inline_then_cached_files_and_the_page_works_both_times(phone, live_server):
    url = new_game(phone, "revive", "base", ["Ana", "Bea"])
    # the pages so far wrote the cookie once loaded (their own first visits): once they are done,
    # it is taken away, and the phone is one that never held the files
    phone.wait_for_function("document.cookie.indexOf('assets=') >= 0")
    phone.wait_for_load_state("networkidle")
    phone.context.clear_cookies(name="assets")

    first = phone.goto(url)
    body = first.text()
    assert "<script src=" not in body and '<link rel="stylesheet"' not in body
    assert "'sha256-" in first.headers["content-security-policy"]
    expect(phone.locator(".stepper")).not_to_have_count(0)  # stepper.js ran: its − / + buttons
    show_player(phone, 0)
    phone.fill('[name="players-0-track"]', "12")
    saved(phone)  # the autosave ran, and its answer came back
    # once loaded, the page fetched its files and wrote the cookie that says the phone holds them
    phone.wait_for_function("document.cookie.indexOf('assets=') >= 0")

    later = phone.goto(url)
    body = later.text()
    assert re.search(r'<script src="/static/js/play/autosave\.js\?v=\w+" defer></script>', body)
    assert "<style" not in body and "'sha256-" not in later.headers["content-security-policy"]
    expect(phone.locator(".stepper")).not_to_have_count(0)
    show_player(phone, 0)
    expect(phone.locator('[name="players-0-track"]')).to_have_value("12")
    phone.fill('[name="players-0-track"]', "14")
    saved(phone)
