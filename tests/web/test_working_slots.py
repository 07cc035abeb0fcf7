"""The working slots (companion/web/limits.py): one table request works at a time per process, and a
PDF sheet, seconds of WeasyPrint, works in the heavy share beside it, so a table's autosave never
waits for someone's print."""

from __future__ import annotations

import json
import re
import threading
from collections import deque

import companion.pdf
from companion.web.limits import HeavyPaths, Slots
from tests.views.test_photo import scored_game

# only a bound for a broken gate (a save stuck behind the sheet), never a budget: each step waits on
# the app's own signal (the sheet started drawing, the save answered)
STUCK = 60


def test_one_table_request_works_at_a_time_per_process(app):
    assert app.config["ACTIVE_REQUESTS"] == 1
    assert app.extensions["companion.gate"].slots.free == 1  # the gate made from it


def test_sheets_are_heavy_and_the_tables_requests_light(app):
    heavy = HeavyPaths(app)
    for path in ("/g/abc/sheet.pdf", "/r/abc/sheet.pdf", "/sheets/revive/base.pdf"):
        assert (path, "GET") in heavy, path
    for light in (("/g/abc/save", "POST"), ("/g/abc/", "GET"), ("/g/abc/resultats", "GET"), ("/", "GET")):
        assert light not in heavy, light


def test_a_save_is_answered_while_a_sheet_is_being_drawn(app, client, monkeypatch):
    record = scored_game(app, client)
    drawing, release = threading.Event(), threading.Event()
    draw = companion.pdf.sheet_from_result

    def slow_sheet(*args, **kwargs):  # the sheet holds its slot until the save has been answered
        drawing.set()
        release.wait(STUCK)
        return draw(*args, **kwargs)

    monkeypatch.setattr(companion.pdf, "sheet_from_result", slow_sheet)
    printer = app.test_client()
    sheet: dict = {}
    thread = threading.Thread(target=lambda: sheet.update(
        response=printer.get(f"/g/{record.edit_token}/sheet.pdf")))
    thread.start()
    try:
        assert drawing.wait(STUCK), "the sheet never started drawing"
        page = client.get(f"/g/{record.edit_token}/").get_data(as_text=True)
        version = re.search(r'name="version"[^>]*value="(\d+)"', page).group(1)
        saved: dict = {}
        saver = threading.Thread(target=lambda: saved.update(response=client.post(
            f"/g/{record.edit_token}/save",
            data={"version": version, "changes": json.dumps({"players-0-devotion": ["", "3"]})})))
        saver.start()
        saver.join(STUCK)
        assert "response" in saved, "the save waited for the sheet"
        assert saved["response"].status_code == 200
        assert not sheet, "the sheet was still being drawn while the save was answered"
    finally:
        release.set()
        thread.join(STUCK)
    assert sheet["response"].status_code == 200
    assert sheet["response"].data.startswith(b"%PDF")


def test_a_slot_given_back_goes_to_the_request_that_waited_longest():
    """Not to one that just arrived (a semaphore let the exports asking again at once keep the heavy
    share for up to 16 s under gunicorn's event loop)."""
    slots, order, queued = Slots(1), [], threading.Event()

    class Queue(deque):  # says when the waiter has joined the queue
        def append(self, turn):
            super().append(turn)
            queued.set()

    slots._waiting = Queue()
    slots.acquire()

    def waiter():
        slots.acquire()
        order.append("waited")
        slots.release()

    first = threading.Thread(target=waiter)
    first.start()
    assert queued.wait(STUCK)  # the waiter is queued
    slots.release()
    slots.acquire()  # a newcomer, at once: it waits for the one before it
    order.append("newcomer")
    slots.release()
    first.join(STUCK)
    assert order == ["waited", "newcomer"] and slots.free == 1
