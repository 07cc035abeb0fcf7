"""Export and restore a device's games (or a whole server's): JSON that restores, CSV for spreadsheets.

The JSON file holds the contract documents as stored, with what the app keeps beside them:

    {"format": "companion-export", "version": 1, "exported_at": "2026-11-24T18:40:00Z",
     "games": [{"id": "<32 hex>", "status": "scored", "created_at": "…Z", "updated_at": "…Z",
                "colours": ["#c8372d", "#2f6fb3"], "document": {…contract document…}}]}

A game played by another edition's rule than its game's default (Reterra's English edition) has
`"edition": "en"` beside its document too; a game at the default has no such key. A game scored since
the app records it has `"scored_at"` (when it was first scored: its duration for BG Stats), and a game
with a photo of its final board has `"photo": {"type": "image/jpeg", "data": "<base64>"}`: the file
stays one file. A game with a log of changes (companion/saving/gamelog.py) has `"log"`, oldest first: each
change `{"at", "phone" (a hash, never the device cookie), "changes": {field: [before, after]}}`, with
`"undoes"` (the index of the change it undid) and `"locked"` (written before the seats last moved)
when so; a file without it (written before issue 32) restores its games without a log. A restored
photo is checked as an upload is (companion/storage/photos.py: one the app made is kept byte for byte,
anything else is made again, its metadata left out).

`id` is the game's uid (models.GameRecord.uid), kept by an import: restoring a file twice, or on the
server the games came from, never duplicates a game. A game already present is left as it is (never
overwritten), and a uid opens nothing (docs/rulings.md): a file naming a game already on the server
is restored only by a device that already has that game in its list (or by the CLI without a device,
which grants nothing); for any other device it is refused with the game's path, whatever its document
(a CSV row holds the uid, and the whole document of a game just started). Every document is
validated the way the app stores one (`check_document`), and a file with any problem changes
nothing: every problem is reported with its path (`games[2].document.players[0].castles: …`).

CSV: one row per player and game; `check_csv_cell` neutralises cells a spreadsheet would run as a
formula (a name starting with = + - @).

The pages stream both files a batch of games at a time (`batches`, `json_chunks`: a game per line;
`csv_chunks`, read from the summaries stored with each game, companion.storage.summaries), pausing for the
tables' requests (`limits.pause`): 5,000 games are neither scored nor held in memory.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import sqlalchemy as sa

from .. import forms, games
from ..base import jsonio
from ..extensions import db
from ..games.core import InvalidDocument, Problem, join, join_names
from ..games.i18n import _
from ..storage import photos, summaries
from ..storage.models import DeviceGame, GamePhoto, GameRecord, new_token, now
from ..storage.store import colours_of, edition_for, padded_colours
from ..web import limits
from . import log_file

FORMAT = "companion-export"
VERSION = 1
STATUSES = ("draft", "scored")
MAX_GAMES = 10_000
UID = re.compile(r"[0-9a-f]{32}")
HEX = re.compile(r"#[0-9a-fA-F]{6}")
GAME_KEYS = ("id", "status", "created_at", "updated_at", "colours", "document", "edition", "scored_at",
             "photo", "log")
PHOTO_KEYS = ("type", "data")
FIXED_COLUMNS = ("game_id", "game", "variant", "date", "status", "player", "colour", "seat", "place",
                 "total", "winner")


# --------------------------------------------------------------------------- dates


def utc(moment: datetime) -> datetime:
    """Stored datetimes are UTC; SQLite hands them back without their zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def iso(moment: datetime) -> str:
    return utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------- export


def _of_device(query, device: str | None):
    """`query` narrowed to a device's games (None: every game of the database)."""
    if device is not None:
        query = query.join(DeviceGame, DeviceGame.game_id == GameRecord.id).where(DeviceGame.device == device)
    return query


def records(device: str | None) -> list[GameRecord]:
    """A device's games (all of them: the history page's limit does not apply), or every game of the
    database when `device` is None; oldest first. The command line's export reads them whole; the
    pages stream theirs (`batches`)."""
    query = sa.select(GameRecord).order_by(GameRecord.created_at, GameRecord.id)
    return list(db.session.scalars(_of_device(query, device)))


JSON_COLUMNS = (GameRecord.id, GameRecord.uid, GameRecord.status, GameRecord.created_at,
                GameRecord.updated_at, GameRecord.colours, GameRecord.document, GameRecord.edition,
                GameRecord.first_scored_at, GameRecord.photo_key, GameRecord.seats_version)
CSV_COLUMNS = (GameRecord.id, GameRecord.uid, GameRecord.game, GameRecord.variant, GameRecord.status,
               GameRecord.created_at, GameRecord.colours, GameRecord.version, GameRecord.summary,
               GameRecord.edition)
BATCH = 250  # games read at a time: an export of 5,000 games never holds them all in memory


def batches(device: str | None, columns: Sequence, size: int = BATCH) -> Iterator[list]:
    """A device's games (every game when `device` is None), oldest first, `size` rows at a time,
    only the `columns` asked for (rows, not ORM objects: a tenth of the cost). The order is read
    first (ids only); a game deleted meanwhile is left out."""
    order = sa.select(GameRecord.id).order_by(GameRecord.created_at, GameRecord.id)
    ids = list(db.session.scalars(_of_device(order, device)))
    for start in range(0, len(ids), size):
        chunk = ids[start:start + size]
        found = db.session.execute(sa.select(*columns).where(GameRecord.id.in_(chunk)))
        rows = {row.id: row for row in found}
        yield [rows[i] for i in chunk if i in rows]


def variants_of(device: str | None) -> set[tuple[str, str]]:
    """The (game, variant) pairs among a device's games: the CSV's columns, known before its rows."""
    query = sa.select(GameRecord.game, GameRecord.variant).distinct()
    return {(row.game, row.variant) for row in db.session.execute(_of_device(query, device))}


def _game_entry(r) -> dict:
    entry = {"id": r.uid, "status": r.status, "created_at": iso(r.created_at),
             "updated_at": iso(r.updated_at), "colours": colours_of(r), "document": r.document}
    if getattr(r, "edition", None):  # only a table's choice: a file of default games is as it was
        entry["edition"] = r.edition
    if getattr(r, "first_scored_at", None) is not None:
        entry["scored_at"] = iso(r.first_scored_at)
    return entry


def _with_photo(entry: dict, r) -> dict:
    """`entry` with the game's photo when it has one."""
    photo = _photo_entry(r.id) if getattr(r, "photo_key", None) else None
    if photo is not None:
        entry["photo"] = photo
    return entry


def _photo_entry(game_id: int) -> dict | None:
    """A game's photo as the file holds it (read one game at a time: a batch of photos is never
    held whole)."""
    data = db.session.scalar(sa.select(GamePhoto.data).where(GamePhoto.game_id == game_id))
    if data is None:  # removed meanwhile
        return None
    return {"type": photos.CONTENT_TYPE, "data": base64.b64encode(data).decode("ascii")}


def _with_log(entry: dict, r, logs: dict[int, list[dict]]) -> dict:
    """`entry` with the game's log of changes when it has one (companion/outputs/log_file.py; its dates in
    ISO 8601 as the file's others)."""
    items = logs.get(r.id)
    if items:
        entry["log"] = [{**item, "at": iso(item["at"])} for item in items]
    return entry


def _logs(group: Sequence) -> dict[int, list[dict]]:
    """The logs of a batch of games, read in one query."""
    return log_file.exported([r.id for r in group],
                            {r.id: getattr(r, "seats_version", 0) or 0 for r in group})


def to_json(items: Iterable[GameRecord], now: datetime | None = None) -> dict:
    items = list(items)
    logs = _logs(items)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(now or datetime.now(UTC)),
        "games": [_with_log(_with_photo(_game_entry(r), r), r, logs) for r in items],
    }


def json_chunks(groups: Iterable[Iterable], now: datetime | None = None) -> Iterator[str]:
    """The JSON export, a batch of games at a time (5,000 games are 10 MB: never held whole): the
    file's keys one per line, then each game on a line of its own (written by the C encoder; an
    indented document costs five times as much to write), the same data as `to_json`."""
    head = json.dumps({"format": FORMAT, "version": VERSION, "exported_at": iso(now or datetime.now(UTC)),
                       "games": []}, ensure_ascii=False, indent=1)
    head = head[:head.rindex("[")] + "["  # ... "games": [
    empty = True
    for group in groups:
        parts = []
        group = list(group)
        logs = _logs(group)
        for n, r in enumerate(group, 1):
            entry = _with_log(_with_photo(_game_entry(r), r), r, logs)
            parts.append("  " + json.dumps(entry, ensure_ascii=False))
            photo = "photo" in entry
            if n % limits.PAUSE_EVERY == 0 or photo:
                limits.pause()
            if photo:  # a photo is a few hundred kilobytes: sent at once, not held
                yield (head + "\n" if empty else ",\n") + ",\n".join(parts)
                empty, parts = False, []
        if parts:
            yield (head + "\n" if empty else ",\n") + ",\n".join(parts)
            empty = False
    yield (head + "]\n}\n") if empty else "\n ]\n}\n"


def json_text(items: Iterable[GameRecord]) -> str:
    return "".join(json_chunks([items]))


FORMULA = ("=", "+", "-", "@", "\t", "\r")


def check_csv_cell(value: object) -> object:
    """A text cell a spreadsheet would read as a formula gets a leading apostrophe (CSV injection)."""
    if isinstance(value, str) and value[:1] in FORMULA:
        return "'" + value
    return value


def csv_keys(pairs: set[tuple[str, str]]) -> list[str]:
    """The breakdown columns of the exported games: contract keys, in the games' category order."""
    keys: list[str] = []
    for game in games.GAMES.values():
        for variant in game.variants:
            if (game.id, variant) in pairs:
                keys += [k for k in game.keys(variant) if k not in keys]
    return keys


def csv_chunks(groups: Iterable[Iterable], keys: Sequence[str]) -> Iterator[str]:
    """The CSV export, a batch of games at a time (rows with `summary` and `version`, see
    CSV_COLUMNS): one row per player and game, the fixed columns then one per breakdown key. Read
    from each game's stored summary (companion.storage.summaries); a game whose summary is stale or damaged
    is scored here. A game that does not score (a draft) leaves place, total, winner and the
    breakdown empty. `winner` is 1 or 0 (a column sum counts wins); dates are UTC."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*FIXED_COLUMNS, *keys])
    yield "\ufeff" + out.getvalue()  # the BOM: spreadsheets then read accents as UTF-8
    colour_names: dict[str, dict] = {}
    for group in groups:
        out.seek(0)
        out.truncate()
        rows, stale = [], []
        for record in group:
            try:
                if not summaries.current(record.summary, record.version):
                    raise ValueError("stale")
                rows.append((record, record.summary["names"], summaries.result_of(record.summary)))
            except ValueError:
                rows.append((record, None, None))
                stale.append(record.id)
        if stale:  # read and scored here (an upgrade of the rules, a hand-edited database)
            documents = dict(db.session.execute(
                sa.select(GameRecord.id, GameRecord.document).where(GameRecord.id.in_(stale))).all())
            for i, (record, names, _) in enumerate(rows):
                if names is None:
                    made = summaries.make(documents.get(record.id), record.version,
                                          edition=getattr(record, "edition", None))
                    rows[i] = (record, made["names"], made["result"])
        for n, (record, names, result) in enumerate(rows, 1):
            if n % limits.PAUSE_EVERY == 0:
                limits.pause()
            if record.game not in colour_names:
                screens = forms.screens(record.game)
                colour_names[record.game] = dict(screens.palette) if screens else {}
            _csv_rows(writer, record, names, result if record.status == "scored" else None, keys,
                      colour_names[record.game])
        yield out.getvalue()


def _csv_rows(writer, record, names: list, result: dict | None, keys: Sequence[str],
              colour_names: dict) -> None:
    colours = padded_colours(record.colours, len(names))
    date = utc(record.created_at).strftime("%Y-%m-%d %H:%M:%S")
    fixed = [check_csv_cell(record.uid), check_csv_cell(record.game), check_csv_cell(record.variant), date,
             check_csv_cell(record.status)]
    blank = ["", "", ""] + [""] * len(keys)
    for seat, name in enumerate(names):
        colour = colours[seat]
        row = [*fixed, check_csv_cell(name.strip()), check_csv_cell(colour_names.get(colour, "") or colour),
               seat + 1]
        if result is None:
            row += blank
        else:
            player, points = result["players"][seat]
            by_key = dict(zip(result["keys"], points, strict=True))
            row += [result["places"][seat], sum(points), int(player in result["winners"])]
            row += [by_key.get(k, "") for k in keys]
        writer.writerow(row)


def csv_text(items: Sequence[GameRecord]) -> str:
    """The CSV export of records read whole (the command line), through the same rows as the page."""
    return "".join(csv_chunks([items], csv_keys({(r.game, r.variant) for r in items})))


# --------------------------------------------------------------------------- import


def check_document(document: object, status: str) -> list[Problem]:
    """The problems that would stop the app from storing this document with this status.

    As the screens store them (docs/rulings.md, "Entering a game on the screens"): a scored game
    scores; a draft never holds a bad value but may still break a rule between fields."""
    problems = games.validate(document)
    if status == "draft":
        problems = [p for p in problems if p.kind != games.RULE]
    return problems


@dataclass
class Incoming:
    uid: str
    status: str
    created_at: datetime
    updated_at: datetime
    colours: list[str]
    document: dict
    path: str = "games"  # where it is in the file (games[3]), for a refusal
    edition: str | None = None  # the rule set the table played by (None: the game's default)
    summary: dict | None = None  # made while the file was checked (None: `restore` makes it)
    scored_at: datetime | None = None  # when it was first scored (None: unknown)
    photo: photos.Photo | None = None  # the photo of its final board, checked
    log: list[dict] | None = None  # its log of changes, checked (companion/outputs/log_file.py); None: none


@dataclass(frozen=True)
class Added:
    """A game a restore stored: what the command line lists of it."""

    id: int
    uid: str
    edit_token: str
    game: str
    variant: str
    document: dict


@dataclass
class Outcome:
    added: list[Added] = field(default_factory=list)
    present: list[GameRecord] = field(default_factory=list)  # already on this server: left as they are


Progress = Callable[[int, int], None]  # (games checked, games in the file)


class Refused(Exception):
    """The file cannot be imported: every problem, with its path; nothing was changed."""

    def __init__(self, problems: Sequence[Problem]):
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems = list(problems)


def parse(text: str | bytes, progress: Progress | None = None) -> list[Incoming]:
    """The games of an export file, or Refused with every problem found.

    Read as strictly as a document sent to the API (`jsonio`): a key given twice or a lone surrogate
    in a restored file is refused with its path, never kept half-read."""
    try:
        data = jsonio.parse(text)
    except jsonio.NotJson as exc:
        message = (_("ce n'est pas du JSON valide (ligne {v1}, colonne {v2})", v1=exc.line, v2=exc.column)
                   if exc.line else str(exc))
        raise Refused([Problem("fichier", message)]) from None
    except InvalidDocument as exc:
        raise Refused(exc.problems) from None
    return validate(data, progress)


CHECK_STEP = 100  # games checked between two progress reports


def validate(data: object, progress: Progress | None = None) -> list[Incoming]:
    """The games of an export file read as JSON (Refused with every problem); `progress` is told
    every CHECK_STEP games how many are checked, and heavy work pauses every PAUSE_EVERY games
    for the requests of the tables (`limits.pause`)."""
    problems: list[Problem] = []
    add = problems.append
    if not isinstance(data, dict):
        raise Refused([Problem("fichier", _("attendu : un objet JSON exporté par « Mes parties »"))])
    if data.get("format") != FORMAT:
        add(Problem("format", _("attendu « {FORMAT} » : ce fichier n'est pas un export du Compagnon",
                                FORMAT=FORMAT)))
    if data.get("version") != VERSION:
        add(Problem("version", _("version de fichier non prise en charge : {v1!r} (attendu : {VERSION})",
                                 v1=data.get('version'), VERSION=VERSION)))
    for key in data:
        if key not in ("format", "version", "exported_at", "games"):
            add(Problem(str(key), _("clé inconnue")))
    items = data.get("games")
    if not isinstance(items, list):
        add(Problem("games", _("champ obligatoire : la liste des parties")))
        raise Refused(problems)
    if len(items) > MAX_GAMES:
        add(Problem("games", _("au plus {MAX_GAMES} parties par fichier (il y en a {v2})",
                               MAX_GAMES=MAX_GAMES, v2=len(items))))
        raise Refused(problems)
    seen: dict[str, int] = {}
    incoming = []
    for i, item in enumerate(items):
        if i % limits.PAUSE_EVERY == 0 and i:
            limits.pause()
            if progress is not None and i % CHECK_STEP == 0:
                progress(i, len(items))
        found = _game(item, join("games", i), problems.append)
        uid = item.get("id") if isinstance(item, dict) else None
        if isinstance(uid, str) and uid in seen:
            add(Problem(join(join("games", i), "id"), _("même identifiant que games[{v1}]", v1=seen[uid])))
            continue
        if isinstance(uid, str):
            seen[uid] = i
        if found is not None:
            incoming.append(found)
    if progress is not None:
        progress(len(items), len(items))
    if problems:
        raise Refused(problems)
    return incoming


def _checked(document: object, status: object, edition: str | None) -> tuple[list[Problem], dict | None]:
    """`check_document`'s problems and, when there are none, the summary stored with the game: the
    document is scored once (by the table's edition), not once to check and again to summarise."""
    try:
        result = games.score(document, edition=edition)
    except InvalidDocument as exc:
        problems = [p for p in exc.problems if status != "draft" or p.kind != games.RULE]
        return problems, (None if problems else summaries.make(document, 1, result=None))
    return [], summaries.make(document, 1, result=result)


def _game(item: object, path: str, add) -> Incoming | None:
    if not isinstance(item, dict):
        add(Problem(path, _("doit être un objet")))
        return None
    before = _Count(add)
    for key in item:
        if key not in GAME_KEYS:
            before(Problem(join(path, str(key)), _("clé inconnue")))
    uid = item.get("id")
    if not isinstance(uid, str) or not UID.fullmatch(uid):
        before(Problem(join(path, "id"), _("identifiant attendu : 32 caractères hexadécimaux")))
    status = item.get("status")
    if status not in STATUSES:
        before(Problem(join(path, "status"), _("statut inconnu : {status!r} (attendu : draft ou scored)",
                                               status=status)))
    created = _when(item.get("created_at"), join(path, "created_at"), before, required=True)
    updated = _when(item.get("updated_at"), join(path, "updated_at"), before, required=False) or created
    document = item.get("document")
    edition = item.get("edition")
    game_id = document.get("game") if isinstance(document, dict) else None
    game = games.GAMES.get(game_id) if isinstance(game_id, str) else None  # a list is no key (a 500 once)
    known_edition = edition is None or (game is not None and isinstance(edition, str)
                                        and edition in game.editions)
    problems, summary = _checked(document, status, edition if known_edition and edition else None)
    for problem in problems:
        inner = join(path, "document") if problem.path == "document" else \
            f"{join(path, 'document')}.{problem.path}"
        before(Problem(inner, problem.message))
    players = document.get("players") if isinstance(document, dict) else None
    n = len(players) if isinstance(players, list) else 0
    colours = item.get("colours")
    if colours is None:
        colours = [""] * n
    elif not isinstance(colours, list) or len(colours) != n:
        before(Problem(join(path, "colours"), _("attendu : une couleur par joueur ({n})", n=n)))
    else:
        for j, c in enumerate(colours):
            if not (c == "" or (isinstance(c, str) and HEX.fullmatch(c))):
                before(Problem(join(join(path, "colours"), j), _("couleur attendue au format #rrggbb")))
    if not known_edition:
        expected = join_names(list(game.editions), "ou") if game and game.editions else _("aucune")
        message = _("édition inconnue pour {game} : {value} (attendu : {expected})",
                    game=game.title if game else "?", value=repr(edition), expected=expected)
        before(Problem(join(path, "edition"), message))
    scored_at = _when(item.get("scored_at"), join(path, "scored_at"), before, required=False)
    photo = _photo(item.get("photo"), join(path, "photo"), before) if "photo" in item else None
    # the log of changes: absent from the files written before it (issue 32)
    log = log_file.checked(item["log"], join(path, "log"), before, _when) if "log" in item else None
    if before.count:
        return None
    return Incoming(uid, status, created, updated, [c.lower() for c in colours], document, path,
                    edition_for(document["game"], edition), summary, scored_at, photo, log)


def _photo(value: object, path: str, add) -> photos.Photo | None:
    """The photo of an export file's game ({"type": "image/jpeg", "data": base64}), checked as an
    upload is; None (and a problem with its path) when it is not one."""
    if (not isinstance(value, dict) or set(value) - set(PHOTO_KEYS)
            or value.get("type") != photos.CONTENT_TYPE or not isinstance(value.get("data"), str)):
        add(Problem(path, _("attendu : un objet avec « type » (image/jpeg) et « data » (la photo en "
                            "base64)")))
        return None
    try:
        data = base64.b64decode(value["data"], validate=True)
    except ValueError:
        add(Problem(join(path, "data"), _("base64 attendu")))
        return None
    try:
        return photos.checked(data)
    except photos.Refused as refused:
        add(Problem(join(path, "data"), _(refused.message, **refused.values)))
        return None


class _Count:
    def __init__(self, add):
        self.add = add
        self.count = 0

    def __call__(self, problem: Problem) -> None:
        self.count += 1
        self.add(problem)


def _when(value: object, path: str, add, *, required: bool) -> datetime | None:
    if value is None and not required:
        return None
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            return utc(moment)
    add(Problem(path, _("date attendue au format ISO 8601 (2026-11-24T18:40:00Z)")))
    return None


def restore(incoming: Sequence[Incoming], device: str | None) -> Outcome:
    """Store the games not already present, in one transaction, the new ones in `device`'s history
    with edit access. Refused (nothing written) when the file names a game already on this server
    that `device` does not have: a uid grants nothing."""
    outcome = Outcome()
    uids = [g.uid for g in incoming]
    existing = {}
    for start in range(0, len(uids), 500):
        chunk = uids[start:start + 500]
        found = db.session.scalars(sa.select(GameRecord).where(GameRecord.uid.in_(chunk)))
        existing.update({r.uid: r for r in found})
    if device is not None and existing:
        ids = [r.id for r in existing.values()]
        mine = set()
        for start in range(0, len(ids), 500):
            mine.update(db.session.scalars(sa.select(DeviceGame.game_id).where(
                DeviceGame.device == device, DeviceGame.game_id.in_(ids[start:start + 500]))))
        strangers = [g for g in incoming if g.uid in existing and existing[g.uid].id not in mine]
        if strangers:
            raise Refused([Problem(join(g.path, "id"), _(
                "cette partie est déjà sur ce serveur, et pas dans la liste de cet appareil : un fichier "
                "ne donne pas accès à une partie existante ; ouvrez-la par son lien")) for g in strangers])
    new = []
    for g in incoming:
        if g.uid in existing:
            outcome.present.append(existing[g.uid])
        else:  # a uid twice in one file is refused by `validate`
            new.append(g)
    rows = [{"uid": g.uid, "game": g.document["game"], "variant": g.document["variant"],
             "document": g.document, "colours": g.colours, "status": g.status, "version": 1,
             "created_at": g.created_at, "updated_at": g.updated_at, "edition": g.edition,
             "edit_token": new_token(), "view_token": new_token(),
             "summary": g.summary or summaries.make(g.document, 1, edition=g.edition),
             "first_scored_at": g.scored_at, "photo_key": g.photo.digest if g.photo else None} for g in new]
    # Written in one transaction (all or nothing), by two statements each run over every row (the
    # ORM's unit of work, a flush per game, took five times as long): the games, then this device's
    # history. The ids come back in the rows' order (RETURNING, on SQLite and PostgreSQL alike).
    insert = sa.insert(GameRecord.__table__).returning(GameRecord.__table__.c.id,
                                                       sort_by_parameter_order=True)
    try:
        ids = list(db.session.connection().execute(insert, rows).scalars()) if rows else []
        if device is not None and ids:
            db.session.connection().execute(sa.insert(DeviceGame.__table__), [
                {"device": device, "game_id": i, "can_edit": True, "opened_at": now()} for i in ids])
        kept = [{"game_id": i, "data": g.photo.data, "width": g.photo.width, "height": g.photo.height,
                 "digest": g.photo.digest} for i, g in zip(ids, new, strict=True) if g.photo is not None]
        if kept:  # the photos of the final boards, beside their games
            db.session.connection().execute(sa.insert(GamePhoto.__table__), kept)
        for i, g in zip(ids, new, strict=True):  # their logs of changes
            if g.log:
                log_file.restore(db.session.connection(), i, g.log)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    outcome.added = [Added(i, row["uid"], row["edit_token"], row["game"], row["variant"], row["document"])
                     for i, row in zip(ids, rows, strict=True)]
    return outcome
