"""Issue 29's target "an autosave of a count visits at most 8 modules of the app on its way in":
the modules of `companion` whose functions run between the save view (`views.edit.save`) and the
versioned write (`store.save`), as a newcomer placing a bug follows them. The engine (what
`games.score` calls) is not counted: it is the rules, read on their own."""

from __future__ import annotations

import sys

from app_helpers import autosave, create_game

# the engine: `games.score` and everything it calls (the rules, their parts store, their messages)
ENGINE = {"companion.games", "companion.games.core", "companion.games.parts", "companion.games.revive"}
MOST = 8


def _module(frame) -> str:
    return frame.f_globals.get("__name__", "")


def _in_engine(frame) -> bool:
    while frame is not None:
        if _module(frame) in ENGINE:
            return True
        frame = frame.f_back
    return False


def modules_on_the_way_in(call) -> list[str]:
    """The companion modules entered by `call()` from the save view's start until `store.save` is
    called (in the order first entered), the engine's calls left out."""
    from companion.storage import store
    from companion.views import edit

    start, stop = edit.save.__code__, store.save.__code__
    entered: list[str] = []
    state = {"on": False, "done": False}

    def tracer(frame, event, _arg):
        if event != "call" or state["done"]:
            return
        if frame.f_code is start:
            state["on"] = True
        if not state["on"]:
            return
        if frame.f_code is stop:
            state["done"] = True
        name = _module(frame)
        if name.startswith("companion") and name not in entered and not _in_engine(frame):
            entered.append(name)

    sys.setprofile(tracer)
    try:
        response = call()
    finally:
        sys.setprofile(None)
    assert state["done"], "the save never reached store.save"
    return entered, response


def test_an_autosave_of_a_count_visits_at_most_8_modules(client):
    token = create_game(client, "revive", "abyss", ["Ana", "Bob", "Cléo", "Dan"])
    first = autosave(client, token, 1, players__1__track=("", "20"))  # the game's caches warmed
    assert first.status_code == 200, first.json
    version = first.json["version"]
    entered, response = modules_on_the_way_in(
        lambda: autosave(client, token, version, players__0__track=("", "31")))
    assert response.status_code == 200 and response.json["stored"]["players-0-track"] == "31"
    assert response.json["totals"][0] == 31  # the engine ran (its modules are not counted)
    assert len(entered) <= MOST, f"{len(entered)} modules on the way in: {entered}"
