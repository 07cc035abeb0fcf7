"""The players of a game under way changed (issue 32, the "Joueurs" page): renamed, reseated,
recoloured, one added, some removed. Pure planning (`plan`) then one versioned write (`apply`).

Every place the document names a player follows through the game's hooks (`Hooks.renamed`,
`Hooks.without`: Rebirth's castle holders and city tiles); the seat order is the document's
`players` order, so every rule reading seats follows a reorder. The colours stay beside the document
in seat order (`GameRecord.colours`). A change that moves a seat (a reorder, a player added or
removed) sets `seats_version`: the autosaves of pages rendered before are refused
(companion/saving/service.py, `seats_moved_since`), since their fields are keyed by seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sqlalchemy as sa

from .. import games
from ..extensions import db
from ..games.core import RULE, Checker, player_name
from ..games.i18n import _
from . import store
from .models import GameRecord, now


@dataclass(frozen=True)
class Seat:
    """One row of the page: the player named `was` when the page was rendered, as the table wants
    them now (`place`: 1 for the first player)."""

    was: str
    name: str
    colour: str
    place: int
    remove: bool = False


@dataclass(frozen=True)
class Change:
    roster: list[str]  # the names, in seat order, the page was rendered with
    seats: list[Seat]
    added: tuple[str, str] | None = None  # (name, colour) of a player added last, or None


@dataclass
class Plan:
    """What a change makes of a document: the new document and colours, whether a seat moved, or
    the messages, each at a form field's name (`players-<i>-name`, `new_name`...) or general."""

    document: dict | None = None
    colours: list[str] = field(default_factory=list)
    seats_moved: bool = False
    errors: dict[str, list[str]] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.document is not None and not self.errors and not self.general


def elsewhere() -> str:
    return _("Les joueurs ont changé sur un autre téléphone pendant que vous modifiiez cette page : rien "
             "n'a été changé. Voici la liste à jour : refaites vos changements.")


def plan(document: dict, colours: list[str], change: Change, palette: list[str]) -> Plan:
    """The change laid on `document` (its colours `colours`, one per seat), checked as the new-game
    page checks names and colours, within the game's bounds. Pure."""
    out = Plan()
    names = [p.get("name", "") for p in document.get("players", [])]
    if list(change.roster) != names or len(change.seats) != len(names) \
            or [s.was for s in change.seats] != names:
        out.general.append(elsewhere())
        return out
    game = games.GAMES[document["game"]]
    hooks = games.hooks_of(document["game"])
    kept = [(i, s) for i, s in enumerate(change.seats) if not s.remove]
    total = len(kept) + (1 if change.added else 0)
    if len(kept) < game.min_players:
        for i, s in enumerate(change.seats):
            if s.remove:
                out.errors.setdefault(f"players-{i}-remove", []).append(
                    _("{game} se joue à {n} joueurs au moins : retirez-en moins", game=game.title,
                      n=game.min_players))
    if change.added and total > game.max_players:
        out.errors.setdefault("new_name", []).append(
            _("{game} se joue à {n} joueurs au plus : retirez-en un d'abord", game=game.title,
              n=game.max_players))
    check, seen = Checker(), {}
    for i, s in kept:
        player_name(check, s.name, f"players-{i}-name", seen, i)
    if change.added:
        player_name(check, change.added[0], "new_name", seen, len(change.seats))
    for problem in check.problems:
        out.errors.setdefault(problem.path, []).append(problem.message)
    places: dict[int, str] = {}
    for i, s in kept:
        if not 1 <= s.place <= len(change.seats):
            out.errors.setdefault(f"players-{i}-place", []).append(_("choisissez une place"))
        elif s.place in places:
            out.errors.setdefault(f"players-{i}-place", []).append(
                _("place {n} déjà donnée à {other} : une place par joueur", n=s.place, other=places[s.place]))
        else:
            places[s.place] = s.name.strip()
    ordered = sorted(kept, key=lambda pair: pair[1].place)
    chosen = [(f"players-{i}-colour", s.colour if s.colour in palette else colours[i], s.name.strip())
              for i, s in ordered]
    if change.added:
        taken = {c for _k, c, _n in chosen}
        colour = change.added[1] if change.added[1] in palette else next(
            (c for c in palette if c not in taken), palette[0] if palette else "")
        chosen.append(("new_colour", colour, change.added[0].strip()))
    if len(palette) >= total:  # two pawns of one colour cannot sit at one table
        owner: dict[str, str] = {}
        for key, colour, name in chosen:
            if not colour:  # a game stored before colours: none to share
                continue
            if colour in owner:
                out.errors.setdefault(key, []).append(
                    _("couleur déjà prise par {other} : choisissez-en une autre", other=owner[colour]))
            else:
                owner[colour] = name
    if out.errors:
        return out
    doc = document
    for s in change.seats:
        if s.remove:
            doc = hooks.without(doc, s.was)
    doc = hooks.renamed(doc, {s.was: s.name.strip() for _i, s in kept if s.name.strip() != s.was})
    by_name = {p["name"]: p for p in doc["players"]}
    players = [by_name[s.name.strip()] for _i, s in ordered]
    if change.added:
        players.append({"name": change.added[0].strip()})
    out.document = {**doc, "players": players}
    out.colours = [c for _k, c, _n in chosen]
    out.seats_moved = [i for i, _s in ordered] != list(range(len(names))) or bool(change.added)
    bad = [p for p in games.validate(out.document) if p.kind != RULE]
    if bad:  # cannot be: every value stays as it was, names checked above
        out.general.extend(p.message for p in bad)
        out.document = None
    return out


def apply(record, change: Change, palette: list[str]) -> Plan:
    """Plan the change on the stored game and write it with the version it was read at (`store`'s
    versioned write): another save in between (StaleVersion) changes nothing and says so."""
    out = plan(record.document, store.colours_of(record), change, palette)
    if not out.ok:
        return out
    status = record.status if not games.validate(out.document) else "draft"  # a scored game scores
    try:
        _save(record, out.document, out.colours, record.version, status=status, seats_moved=out.seats_moved)
    except store.StaleVersion:
        return Plan(general=[elsewhere()])
    return out


def _save(record, document: dict, colours: list[str], version: int, *, status: str, seats_moved: bool):
    """Store a game whose players changed: its document, its colours and, when a seat moved,
    `seats_version` set to the new version (the autosaves of pages rendered before are refused from
    then on), if `version` is still the stored one; StaleVersion otherwise. One UPDATE ... WHERE
    version, as `store.save`."""
    values = {"document": document, "colours": list(colours), "version": version + 1, "updated_at": now(),
              "summary": store.summary_for(document, version + 1, store.edition_of(record)), "status": status}
    if seats_moved:
        values["seats_version"] = version + 1
    done = db.session.execute(sa.update(GameRecord)
                              .where(GameRecord.id == record.id, GameRecord.version == version)
                              .values(values).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        db.session.rollback()
        fresh = db.session.get(GameRecord, record.id, populate_existing=True)
        if fresh is None:
            raise store.Missing
        raise store.StaleVersion(fresh)
    db.session.commit()
