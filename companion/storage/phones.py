"""Where each phone of a table is: the step its edit page shows (the table's fields, or a player's),
as the table's screen says it (companion/views/screen.py).

A phone's edit page tells it (static/js/play/where.js, `POST /g/<token>/etape`) when it shows a
step, when it comes back to the front, now and then while the player types, and "" when it leaves
the page. Each report carries the phone's own clock (`at`, milliseconds): a report older than the
one kept is ignored, so "left" sent by a page unloading never wipes out the step the next page of
the same phone said just after it.

Kept in one small file per phone under `<instance>/steps/<game uid>/` (the uid, never reused, unlike
a database id after a deletion), named by a hash of the
device's id (never shown, never a name the phone chose): every gunicorn worker sees it, nothing is
written in the database (no column, no migration), and two phones never write the same file. A
phone not heard of for FORGET seconds is forgotten (its file removed when the folder is read).
Flask-free: the callers give the folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import threading
import time
import zlib
from collections import Counter
from pathlib import Path

FORGET = 15 * 60  # seconds without news before a phone is no longer shown (the page says so every minute)
MAX_PHONES = 24  # files kept per game: a link passed around a room, not a way to fill the disk
STEP = re.compile(r"table|joueur-[1-9][0-9]?")
AT = re.compile(r"[0-9]{1,16}")


def root(instance_path: str) -> Path:
    """Where the steps are kept: the instance folder, seen by every worker."""
    return Path(instance_path) / "steps"


def folder(root: Path, game: str) -> Path:
    """The folder of the game whose uid is `game` (hex: a safe name)."""
    if not re.fullmatch(r"[0-9a-f]{1,64}", game):
        raise ValueError("a game's uid is hex")
    return root / game


def forget_game(root: Path, game: str) -> None:
    """A deleted game: its phones' files go with it."""
    shutil.rmtree(folder(root, game), ignore_errors=True)


def _name(device: str) -> str:
    return hashlib.sha256(device.encode()).hexdigest()[:24]


def _kept(path: Path) -> tuple[str, int] | None:
    """(step, at) of a phone's file, None when there is none (or it cannot be read)."""
    try:
        step, _, at = path.read_text(encoding="ascii").partition("\n")
        return step, int(at or 0)
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def tell(root: Path, game: str, device: str, step: str, at: int) -> None:
    """This phone (`device`) shows `step` ("" : it left the page) at its own time `at`. A step not
    matching STEP must be refused by the caller."""
    where = folder(root, game)
    path = where / _name(device)
    kept = _kept(path)
    if kept is not None and kept[1] > at:
        return  # an older report arriving late (a page's "left" after the next page's step)
    if not step:
        path.unlink(missing_ok=True)
        return
    if kept is None:
        try:
            if sum(1 for _ in os.scandir(where)) >= MAX_PHONES:
                return
        except FileNotFoundError:
            where.mkdir(parents=True, exist_ok=True)
    # written whole then renamed: a reader never sees half a file
    spare = where / f".{path.name}.{os.getpid()}.{threading.get_ident()}"
    spare.write_text(f"{step}\n{at}", encoding="ascii")
    os.replace(spare, path)


def steps(root: Path, game: str, now: float | None = None) -> Counter:
    """How many phones are on each step now ({"table": 1, "joueur-2": 1}); phones not heard of for
    FORGET seconds are forgotten on the way."""
    now = time.time() if now is None else now
    found: Counter = Counter()
    try:
        entries = list(os.scandir(folder(root, game)))
    except FileNotFoundError:
        return found
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            old = now - entry.stat().st_mtime > FORGET
        except FileNotFoundError:  # the phone left meanwhile
            continue
        if old:
            Path(entry.path).unlink(missing_ok=True)
            continue
        kept = _kept(Path(entry.path))
        if kept is not None and STEP.fullmatch(kept[0]):
            found[kept[0]] += 1
    return found


def stamp(found: Counter) -> str:
    """A short text that changes whenever `found` does (the screen's version beside the game's)."""
    text = ",".join(f"{step}:{n}" for step, n in sorted(found.items()))
    return f"{zlib.crc32(text.encode()):08x}"
