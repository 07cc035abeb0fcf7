"""Export and restore a device's games (or a whole server's): JSON that restores, CSV for spreadsheets.

The JSON file holds the contract documents as stored, with what the app keeps beside them:

    {"format": "companion-export", "version": 1, "exported_at": "2026-11-24T18:40:00Z",
     "games": [{"id": "<32 hex>", "status": "scored", "created_at": "…Z", "updated_at": "…Z",
                "colours": ["#c8372d", "#2f6fb3"], "document": {…contract document…}}]}

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
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import sqlalchemy as sa

from . import forms, games, jsonio
from .extensions import db
from .games.core import InvalidDocument, Problem, join
from .games.i18n import _
from .models import DeviceGame, GameRecord

FORMAT = "companion-export"
VERSION = 1
STATUSES = ("draft", "scored")
MAX_GAMES = 10_000
UID = re.compile(r"[0-9a-f]{32}")
HEX = re.compile(r"#[0-9a-fA-F]{6}")
GAME_KEYS = ("id", "status", "created_at", "updated_at", "colours", "document")
FIXED_COLUMNS = ("game_id", "game", "variant", "date", "status", "player", "colour", "seat", "place",
                 "total", "winner")


# --------------------------------------------------------------------------- dates


def utc(moment: datetime) -> datetime:
    """Stored datetimes are UTC; SQLite hands them back without their zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def iso(moment: datetime) -> str:
    return utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------- export


def records(device: str | None) -> list[GameRecord]:
    """A device's games (all of them: the history page's limit does not apply), or every game of the
    database when `device` is None; oldest first."""
    query = sa.select(GameRecord).order_by(GameRecord.created_at, GameRecord.id)
    if device is not None:
        query = query.join(DeviceGame, DeviceGame.game_id == GameRecord.id).where(DeviceGame.device == device)
    return list(db.session.scalars(query))


def colours_of(record: GameRecord) -> list[str]:
    n = len(record.document.get("players", [])) if isinstance(record.document, dict) else 0
    return (list(record.colours or []) + [""] * n)[:n]


def to_json(items: Iterable[GameRecord], now: datetime | None = None) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(now or datetime.now(UTC)),
        "games": [{"id": r.uid, "status": r.status, "created_at": iso(r.created_at),
                   "updated_at": iso(r.updated_at), "colours": colours_of(r), "document": r.document}
                  for r in items],
    }


def json_text(items: Iterable[GameRecord]) -> str:
    return json.dumps(to_json(items), ensure_ascii=False, indent=1) + "\n"


def check_csv_cell(value: object) -> object:
    """A text cell a spreadsheet would read as a formula gets a leading apostrophe (CSV injection)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def csv_text(items: Sequence[GameRecord]) -> str:
    """One row per player and game: the fixed columns, then one column per breakdown key of the
    exported games (contract keys, in the games' category order). A game that does not score (a
    draft) leaves place, total, winner and the breakdown empty. `winner` is 1 or 0 (a column sum
    counts wins); dates are UTC."""
    scored = [(r, _result(r)) for r in items]
    keys: list[str] = []
    for game in games.GAMES.values():
        for variant in game.variants:
            if any(r.game == game.id and r.variant == variant for r, _ in scored):
                keys += [k for k in game.keys(variant) if k not in keys]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*FIXED_COLUMNS, *keys])
    for record, result in scored:
        colours = colours_of(record)
        screens = forms.screens(record.game)
        names = [p.get("name", "") if isinstance(p, dict) else "" for p in record.document.get("players", [])]
        for seat, name in enumerate(names):
            colour = colours[seat]
            colour_text = (screens.colour_name(colour) if screens else "") or colour
            row: list[object] = [record.uid, record.game, record.variant,
                                 utc(record.created_at).strftime("%Y-%m-%d %H:%M:%S"), record.status,
                                 name.strip(), colour_text, seat + 1]
            if result is None:
                row += ["", "", ""] + [""] * len(keys)
            else:
                score = result.players[seat]
                points = {line.key: line.points for line in score.breakdown}
                row += [result.place_of(score.name), score.total, int(score.name in result.winners)]
                row += [points.get(k, "") for k in keys]
            writer.writerow([check_csv_cell(v) for v in row])
    return "\ufeff" + out.getvalue()  # the BOM: spreadsheets then read accents as UTF-8


def _result(record: GameRecord):
    if record.status != "scored":
        return None
    try:
        return games.score(record.document)
    except games.InvalidDocument:
        return None


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


@dataclass
class Outcome:
    added: list[GameRecord] = field(default_factory=list)
    present: list[GameRecord] = field(default_factory=list)  # already on this server: left as they are


class Refused(Exception):
    """The file cannot be imported: every problem, with its path; nothing was changed."""

    def __init__(self, problems: Sequence[Problem]):
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems = list(problems)


def parse(text: str | bytes) -> list[Incoming]:
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
    return validate(data)


def validate(data: object) -> list[Incoming]:
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
        found = _game(item, join("games", i), problems.append)
        uid = item.get("id") if isinstance(item, dict) else None
        if isinstance(uid, str) and uid in seen:
            add(Problem(join(join("games", i), "id"), _("même identifiant que games[{v1}]", v1=seen[uid])))
            continue
        if isinstance(uid, str):
            seen[uid] = i
        if found is not None:
            incoming.append(found)
    if problems:
        raise Refused(problems)
    return incoming


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
    for problem in check_document(document, status):
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
    if before.count:
        return None
    return Incoming(uid, status, created, updated, [c.lower() for c in colours], document, path)


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
    try:
        for g in incoming:
            record = existing.get(g.uid)
            if record is not None:
                outcome.present.append(record)
                continue
            record = GameRecord(uid=g.uid, game=g.document["game"], variant=g.document["variant"],
                                document=g.document, colours=g.colours, status=g.status, version=1,
                                created_at=g.created_at, updated_at=g.updated_at)
            db.session.add(record)
            db.session.flush()
            if device is not None:
                db.session.add(DeviceGame(device=device, game_id=record.id, can_edit=True))
            outcome.added.append(record)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return outcome
