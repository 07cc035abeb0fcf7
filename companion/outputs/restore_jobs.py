"""A restore runs in the background, its progress in the instance folder (issue 30).

A club's file of 10,000 games takes seconds of work, minutes on a loaded machine: behind a proxy
(nginx answers 504 after 60 s) the phone would be told it failed while the import went on, and
would send it again. So the page's POST keeps the file under `instance/restores/<job>.upload`,
starts a thread that reads, checks and stores it (`exchange.parse` then `exchange.restore`, all
or nothing, as before), and waits for it at most `RESTORE_WAIT_SECONDS`: a small file is answered
as it always was; a large one is answered with a page that shows the progress and asks again
(`/parties/importer/<job>`), until it says what was added, or every problem with its path.

The progress is a small JSON file, `instance/restores/<job>.json`, replaced whole at each step
(`os.replace`): any gunicorn worker reads it, whichever one runs the job. Only the device that sent
the file may read it. A job whose file has not moved for `STALE_SECONDS` (its worker restarted
meanwhile) is said to have stopped: its transaction never committed, nothing was restored.

The job takes the process's heavy share of the working slots (`limits.heavy_slot`) and pauses for
the tables' requests every few games (`limits.pause`), as an export does; a request waiting for it
gives its own slot back when it starts waiting (`limits.idle`: its answer needs none).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
import threading
import time
from pathlib import Path

from flask import Flask, current_app

from ..games import i18n
from ..games.core import Problem
from ..games.i18n import _
from ..web import limits
from . import exchange

FOLDER = "restores"
JOB = re.compile(r"[0-9a-f]{32}")
STALE_SECONDS = 300  # no sign of life for this long: the worker that ran it is gone
KEEP_SECONDS = 24 * 3600  # finished jobs' files are removed after a day
SHOWN_PROBLEMS = 1000  # problems kept for the page (it lists 50, and says how many there are)
WRITE_EVERY = 0.5  # seconds between two progress files while checking
FINISHED = ("done", "refused", "failed")


def folder(app: Flask | None = None) -> Path:
    return Path((app or current_app).instance_path) / FOLDER


def _path(job: str, suffix: str, app: Flask | None = None) -> Path:
    return folder(app) / f"{job}{suffix}"


def _write(job: str, state: dict, app: Flask | None = None) -> None:
    """The job's progress file, replaced whole (a reader never sees half of it)."""
    state = {**state, "beat": time.time()}
    directory = folder(app)
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{job}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(state, out, ensure_ascii=False)
    os.replace(temporary, _path(job, ".json", app))


def read(job: str, device: str | None) -> dict | None:
    """The job's state for this device (None: no such job, or another device's)."""
    if not JOB.fullmatch(job or "") or device is None:
        return None
    try:
        state = json.loads(_path(job, ".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(state, dict) or state.get("device") != device:
        return None
    if state.get("state") not in FINISHED and time.time() - float(state.get("beat", 0)) > STALE_SECONDS:
        state["state"] = "stopped"
    return state


def start(data: bytes, device: str) -> str:
    """Keep the file and start its restore in a thread of this process; the job's id."""
    app = current_app._get_current_object()
    directory = folder(app)
    directory.mkdir(parents=True, exist_ok=True)
    _sweep(directory)
    job = secrets.token_hex(16)
    _path(job, ".upload", app).write_bytes(data)
    state = {"device": device, "state": "waiting", "checked": 0, "total": 0, "language": i18n.current()}
    _write(job, state, app)
    threading.Thread(target=_run, args=(app, job, state), name=f"restore-{job[:8]}", daemon=True).start()
    return job


def _run(app: Flask, job: str, state: dict) -> None:
    with app.app_context(), i18n.using(state["language"]), limits.heavy_slot(app):
        try:
            _work(app, job, state)
        except Exception as exc:  # logged; the page says nothing was restored
            app.logger.exception("restore %s failed", job, exc_info=exc)
            _write(job, {**state, "state": "failed"}, app)
        finally:
            _path(job, ".upload", app).unlink(missing_ok=True)


def _work(app: Flask, job: str, state: dict) -> None:
    upload = _path(job, ".upload", app)
    _write(job, {**state, "state": "reading"}, app)
    written = [0.0]

    def progress(checked: int, total: int) -> None:
        state.update(state="checking", checked=checked, total=total)
        if time.monotonic() - written[0] >= WRITE_EVERY:
            written[0] = time.monotonic()
            _write(job, state, app)

    try:
        incoming = exchange.parse(upload.read_bytes(), progress)
        state["state"] = "writing"
        _write(job, state, app)
        outcome = exchange.restore(incoming, state["device"])
    except exchange.Refused as refused:
        problems = refused.problems
        _write(job, {**state, "state": "refused", "count": len(problems),
                     "problems": [{"path": p.path, "message": p.message} for p in problems[:SHOWN_PROBLEMS]]},
               app)
        return
    _write(job, {**state, "state": "done", "added": len(outcome.added), "present": len(outcome.present)}, app)


def wait(job: str, device: str, seconds: float) -> dict | None:
    """The job's state once it is finished, or after `seconds` (this request's working slot is
    given back meanwhile: waiting costs the tables nothing)."""
    state = read(job, device)
    deadline = time.monotonic() + seconds
    step = 0.02
    with limits.idle():
        while state is not None and not finished(state) and time.monotonic() < deadline:
            time.sleep(min(step, max(deadline - time.monotonic(), 0)))
            step = min(step * 1.5, 0.25)
            state = read(job, device)
    return state


def finished(state: dict) -> bool:
    return state["state"] in (*FINISHED, "stopped")


def problems_of(state: dict) -> list[Problem]:
    """What a refused job found, as the restore page lists problems; a stopped or failed one says so."""
    if state["state"] == "refused":
        return [Problem(p["path"], p["message"]) for p in state.get("problems", [])]
    return [Problem("fichier", _("la restauration s'est arrêtée avant la fin (le serveur a redémarré ?) : "
                                 "rien n'a été importé ; choisissez le fichier à nouveau"))]


def _sweep(directory: Path) -> None:
    """Remove the files of jobs finished (or abandoned) more than a day ago."""
    limit = time.time() - KEEP_SECONDS
    for path in directory.iterdir():
        try:
            if path.stat().st_mtime < limit:
                path.unlink()
        except OSError:
            pass
