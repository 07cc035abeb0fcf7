"""Settling a tie alone (/egalite): a table that finished tied says who, at what total, and only what
its game's tie-break reads; the answer is the engine's own ranking and sentences, from a document the
game builds (hook `tie_document`, companion/games/hooks.py). Nothing is stored until the table asks
for the full game (POST /egalite/partie: a new game with those players, variant and edition).

Game-independent: the fields come from the game's hook `tie_fields` (`core.TieField`), the number of
players outside the tie it may look at from `tie_others`.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field

from flask import abort, redirect, render_template, request, url_for

from .. import forms, games
from ..extensions import db
from ..games.core import Checker, TieField, TieQuestion, headline, player_name
from ..games.i18n import _
from ..storage import history, store

SEATS = 4  # name fields for the tied players (no game here takes more than 4)
TOTAL_MAX = 999  # what the page reads; each game says its own bound (its contract's)
ONCE = re.compile(r"[\w-]{40,64}")


@dataclass(frozen=True)
class Choice:
    """One game as the page offers it: game, variant and, for a game with editions, the edition."""

    game: games.Game
    variant: str
    edition: str | None

    @property
    def label(self) -> str:
        label = self.game.title
        if len(self.game.variants) > 1:
            label += f" · {self.game.variant_label(self.variant)}"
        if self.game.editions:
            label += f" · {dict(self.game.edition_items())[self.edition]}"
        return label

    @property
    def args(self) -> dict:
        args = {"game": self.game.id, "variant": self.variant}
        if self.edition and self.edition != self.game.default_edition:
            args["edition"] = self.edition
        return args


def choices() -> list[Choice]:
    """Every game, variant and edition whose tie-break the page can ask about (the games' hooks)."""
    out = []
    for game in games.GAMES.values():
        for variant in game.variants:
            for edition in (game.editions or [None]):
                if forms.screens(game.id) is not None and games.tie_offered(game.id, variant, edition):
                    out.append(Choice(game, variant, edition))
    return out


@dataclass
class Asked:
    """What the form holds, as typed (shown again) and as read."""

    names: list[str] = field(default_factory=lambda: [""] * SEATS)
    others: list[str] = field(default_factory=list)
    total: str = ""
    values: dict = field(default_factory=dict)  # key -> "t0"/"o1"/"" (holder) or [str per seat] (count)
    question: TieQuestion | None = None  # what was read, once every field is right
    table: list[str] = field(default_factory=list)  # the full game's other players, as typed
    seats: dict = field(default_factory=dict)  # "p3" (row of the full game's list) -> its seat, as typed


def _choice() -> Choice | None:
    game = games.GAMES.get(request.values.get("game", ""))
    variant = request.values.get("variant", "")
    if game is None or variant not in game.variants or forms.screens(game.id) is None:
        return None
    edition = game.edition(request.values.get("edition"))
    if not games.tie_offered(game.id, variant, edition):
        return None
    return Choice(game, variant, edition)


def tie():
    choice = _choice()
    if choice is None:
        if request.method == "POST" or request.args.get("game"):
            abort(404)
        return render_template("play/tie.html", choice=None, choices=choices())
    fields = games.tie_offered(choice.game.id, choice.variant, choice.edition)
    asked = Asked(others=[""] * games.hooks_of(choice.game.id).tie_others(choice.variant))
    errors: dict[str, str] = {}
    answer = None
    if request.method == "POST":
        answer = _answer(choice, fields, asked, errors)
    return _page(choice, fields, asked, errors, answer)


def _page(choice: Choice, fields, asked: Asked, errors: dict, answer: dict | None,
          start_errors: dict | None = None):
    status = 422 if errors or start_errors else 200
    return render_template("play/tie.html", choice=choice, choices=choices(), fields=fields, asked=asked,
                           errors=errors, answer=answer, seats=SEATS, start_errors=start_errors or {},
                           seats_read=games.hooks_of(choice.game.id).seats_read,
                           once=request.form.get("once") or secrets.token_urlsafe(32)), status


def _count(text: str, lo: int, hi: int) -> tuple[int | None, str | None]:
    text = text.strip()
    if not text:
        return lo, None
    if not text.isascii() or not text.isdigit() or len(text) > 4:
        return None, _("doit être un nombre entier")
    value = int(text)
    if not lo <= value <= hi:
        return None, _("doit être entre {lo} et {hi}", lo=lo, hi=hi)
    return value, None


def _answer(choice: Choice, fields: tuple[TieField, ...], asked: Asked, errors: dict) -> dict | None:
    """Read the form, ask the game for its document and the engine for its answer; None with the
    messages beside the fields when something is wrong."""
    form = request.form
    check = Checker()
    seen: dict[str, int] = {}
    tied: list[tuple[str, str]] = []  # (slot "t0", name)
    outside: list[tuple[str, str]] = []
    asked.names = [form.get(f"name-{i}", "")[:200] for i in range(SEATS)]
    asked.others = [form.get(f"other-{i}", "")[:200] for i in range(len(asked.others))]
    for slot, text, into in ([(f"t{i}", t, tied) for i, t in enumerate(asked.names)]
                             + [(f"o{i}", t, outside) for i, t in enumerate(asked.others)]):
        if not text.strip():
            continue
        before = len(check.problems)
        name = player_name(check, text, slot, seen, len(seen))
        if name is None:
            errors[_slot_field(slot)] = check.problems[before].message
        else:
            into.append((slot, name))
    if len(tied) < 2 and not any(_slot_field(f"t{i}") in errors for i in range(SEATS)):
        errors["name-0"] = _("Au moins deux joueurs à égalité.")
    if len(tied) + len(outside) > choice.game.max_players:
        errors["other-0"] = _("{game} se joue de {lo} à {hi} joueurs (il y en a {n})", game=choice.game.title,
                              lo=choice.game.min_players, hi=choice.game.max_players,
                              n=len(tied) + len(outside))
    asked.total = form.get("total", "")[:20]
    total, problem = _count(asked.total, 0, TOTAL_MAX)
    if problem or not asked.total.strip():
        errors["total"] = problem or _("champ obligatoire")
    slots = [slot for slot, _name in tied] + [slot for slot, _name in outside]
    values: dict = {}
    for f in fields:
        if f.kind == "holder":
            chosen = form.get(f.key, "")[:4]
            asked.values[f.key] = chosen
            allowed = [s for s in slots if f.among == "all" or s.startswith("t")]
            if chosen and chosen not in allowed:
                errors[f.key] = _("choisissez un des joueurs, ou personne")
            values[f.key] = slots.index(chosen) if chosen in allowed else None
        else:
            typed = [form.get(f"{f.key}-{i}", "")[:20] for i in range(SEATS)]
            asked.values[f.key] = typed
            numbers = []
            for slot, _name in tied:
                i = int(slot[1:])
                n, problem = _count(typed[i], f.lo, f.hi)
                if problem:
                    errors[f"{f.key}-{i}"] = problem
                numbers.append(n or 0)
            values[f.key] = numbers
    if errors:
        return None
    names = tuple(name for _slot, name in tied + outside)
    question = TieQuestion(choice.variant, choice.edition, names, len(tied), total, values)
    asked.question = question
    result, problems = games.settle_tie(choice.game.id, question)
    if result is None:
        for p in problems:
            errors[_problem_field(p.path, tied)] = p.message
        return None
    tied_names = {name for _slot, name in tied}
    first_tied = min(result.place_of(n) for n in tied_names)
    ranking = [(place.place, [n for n in place.players if n in tied_names or place.place < first_tied])
               for place in result.ranking]
    return {"headline": headline(result.winners), "explanation": result.explanation,
            "answers": result.answers, "names": names,
            "ranking": [(place, shown) for place, shown in ranking if shown]}


def _slot_field(slot: str) -> str:
    return f"name-{slot[1:]}" if slot.startswith("t") else f"other-{slot[1:]}"


def _problem_field(path: str, tied: list[tuple[str, str]]) -> str:
    """A game's problem ("total", "key", "key[i]": the i-th tied player) as the page's field name."""
    m = re.fullmatch(r"(\w+)\[(\d+)\]", path)
    if m and int(m.group(2)) < len(tied):
        return f"{m.group(1)}-{tied[int(m.group(2))][0][1:]}"
    return path


def start():
    """The full game from a tie settled here (docs/rulings.md, "A tie carried into its game"): the
    tie form comes back with the answer's own part (the table's other players, the seats where the
    game reads them); a new game with every player in their seat, what the game keeps of the tie
    (hook `tie_handover`), the variant, the edition and the box's colours, opened on the first
    player. The form's one-time key makes one game however many times it is posted."""
    choice = _choice()
    if choice is None:
        abort(404)
    once = request.form.get("once", "")
    if not ONCE.fullmatch(once):
        abort(400)
    existing = store.by_creation_key(once)
    if existing is not None:  # posted twice: the game the first post made
        return _opened(existing)
    fields = games.tie_offered(choice.game.id, choice.variant, choice.edition)
    hooks = games.hooks_of(choice.game.id)
    asked = Asked(others=[""] * hooks.tie_others(choice.variant))
    errors: dict[str, str] = {}
    answer = _answer(choice, fields, asked, errors)
    if answer is None:
        return _page(choice, fields, asked, errors, None)
    question = asked.question
    start_errors: dict[str, str] = {}
    rows = _table(choice, question.names, asked, start_errors)
    if start_errors:
        return _page(choice, fields, asked, errors, answer, start_errors)
    handed = hooks.tie_handover(question)
    parts = dict(zip(question.names, handed.pop("players"), strict=True))
    names = [name for name, _seat in rows]
    document = {"game": choice.game.id, "variant": choice.variant, **handed,
                "players": [{"name": n, **parts.get(n, {})} for n in names]}
    sc = forms.screens(choice.game.id)
    record = store.create(choice.game.id, choice.variant, names, sc.default_colours(len(names)),
                          creation_key=once, edition=choice.edition, document=document)
    db.session.commit()
    history.remember(record, can_edit=True)
    return _opened(record)


def _opened(record):
    """The new game's page on its first player (the table's step holds nothing the tie told)."""
    return redirect(url_for("play.edit", token=record.edit_token, _anchor="joueur-1"))


def _table(choice: Choice, named: tuple[str, ...], asked: Asked, errors: dict) -> list[tuple[str, int]]:
    """The full game's players in seat order: the players the tie named, then the others typed
    (`player-k`), each with the seat chosen for it (`seat-pK`, where the game reads seats; else in
    the order given). Problems go beside their field in `errors`."""
    form = request.form
    check = Checker()
    seen = {name.casefold(): i for i, name in enumerate(named)}
    rows = [(f"p{i}", name) for i, name in enumerate(named)]
    asked.table = [form.get(f"player-{k}", "")[:200] for k in range(choice.game.max_players - len(named))]
    for k, text in enumerate(asked.table):
        if text.strip():
            before = len(check.problems)
            name = player_name(check, text, f"player-{k}", seen, len(seen))
            if name is None:
                errors[f"player-{k}"] = check.problems[before].message
            else:
                rows.append((f"p{len(named) + k}", name))
    if len(rows) > choice.game.max_players:
        errors["player-0"] = _("{game} se joue de {lo} à {hi} joueurs (il y en a {n})",
                               game=choice.game.title, lo=choice.game.min_players,
                               hi=choice.game.max_players, n=len(rows))
    if not games.hooks_of(choice.game.id).seats_read:
        return [(name, k) for k, (_row, name) in enumerate(rows)]
    seated: dict[int, str] = {}
    out = []
    for k, (row, name) in enumerate(rows):
        asked.seats[row] = form.get(f"seat-{row}", "")[:4]
        seat, problem = _count(asked.seats[row] or str(k + 1), 1, len(rows))
        if problem is None and seat in seated:
            problem = _("place déjà prise par {name}", name=seated[seat])
        if problem:
            errors[f"seat-{row}"] = problem
            continue
        seated[seat] = name
        out.append((name, seat))
    return sorted(out, key=lambda item: item[1])
