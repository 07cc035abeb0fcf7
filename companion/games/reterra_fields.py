"""Reterra's fields and its document (pure: no form, no Flask): what does not map one to one.

- **Counts or drawing** (`mode`, one per player): "compter sur le plateau" gives the five counts;
  "dessiner la communauté" gives `grid`, and the counts are then left out (the contract forbids both).
- **The drawing** (`grid`): 8 text rows of letters F E D P R for the terrain, and the marked squares
  written like a spreadsheet: columns A-H from left to right, rows 1-8 from top to bottom ("A1 C4").
  Sources are tiles: any square of the tile names it. `static/js/board.js` turns these inputs into the
  8×8 board and writes them back on every tap, so a page posts the same fields with or without
  JavaScript.
- **Buildings**: the table lists the cards in play (name + points; the id is derived from the name);
  each player gives how many of each card they built in `built`, one stepper per card row, by the
  row's index. The contract's `buildings` {id: count} is built from both (`to_document`), and a count
  follows its card when two phones edit the cards at once (the merge's rules: `keyed`, `settle`...).

Coordinates in the engine's messages ("la case [5, 5]") are turned into this notation by
`readable(message)`, which the templates and board.js both apply.
"""

from __future__ import annotations

import re
import unicodedata

from . import reterra as engine
from .i18n import N_, _

COUNTS, GRID = "counts", "grid"
SIZE = engine.SIZE
COLUMNS = "ABCDEFGH"[:SIZE]
COUNT_KEYS = tuple(engine.COUNT_BOUNDS)
SQUARE_KEYS = ("sources", "relics", "relic_tokens", "junk", "inhabitants")
CARDS_MAX = engine.MAX_CARDS
UNPAINTED = "."  # what board.js writes for a square not painted yet


# --------------------------------------------------------------------------- notation


def square_name(r: int, c: int) -> str:
    """[2, 3] -> "D3": column letter, then row number from the top."""
    return f"{COLUMNS[c]}{r + 1}"


def tile_name(tr: int, tc: int) -> str:
    """Tile [1, 2] -> "E3-F4": its top-left and bottom-right squares."""
    return f"{square_name(2 * tr, 2 * tc)}-{square_name(2 * tr + 1, 2 * tc + 1)}"


_TOKEN = re.compile(r"([A-Za-z])\s*(\d+)")
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_squares(text: str, tiles: bool = False) -> list[tuple[int, int]]:
    """"A1 c4, H8" -> [(0, 0), (3, 2), (7, 7)]; with tiles, the tile of each square.

    Raises ValueError with a French message naming the first bad token.
    """
    found: list[tuple[int, int]] = []
    first: dict[tuple[int, int], str] = {}
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        m = _TOKEN.fullmatch(token)
        col = COLUMNS.find(m.group(1).upper()) if m else -1
        row = int(m.group(2)) - 1 if m else -1
        if col < 0 or not 0 <= row < SIZE:
            raise ValueError(_("« {token} » n'est pas une case : une lettre de A à {v2} (colonne) puis "
                               "un chiffre de 1 à {SIZE} (ligne), par exemple C4",
                               token=token, v2=COLUMNS[-1], SIZE=SIZE))
        name = square_name(row, col)
        where = (row // 2, col // 2) if tiles else (row, col)
        if where in first:
            if tiles:
                raise ValueError(_("{v1} et {name} sont sur la même tuile : une seule fois par tuile",
                                   v1=first[where], name=name))
            raise ValueError(_("{name} est écrite deux fois", name=name))
        first[where] = name
        found.append(where)
    return found


def write_squares(squares, tiles: bool = False) -> str:
    """The notation of a contract list of [row, col] (tiles: their top-left square)."""
    names = []
    for pair in squares or ():
        if not (isinstance(pair, list | tuple) and len(pair) == 2 and all(type(v) is int for v in pair)):
            continue
        r, c = pair
        if tiles:
            r, c = 2 * r, 2 * c
        if 0 <= r < SIZE and 0 <= c < SIZE:
            names.append(square_name(r, c))
    return " ".join(names)


_REF = re.compile(r"\b(case|tuile|square|tile) \[(\d+), (\d+)\]")  # the engine's, either language
_INDEX = re.compile(r" \((?:relics|relic_tokens|junk|inhabitants|sources)\[\d+\]\)")  # "(junk[0])"
_COLUMN = re.compile(r"(en colonne|in column) (\d)\b")


def readable(message: str) -> str:
    """An engine message with its [row, col] coordinates in the board's notation."""

    def ref(m: re.Match) -> str:
        r, c = int(m.group(2)), int(m.group(3))
        word = m.group(1)
        if word in ("tuile", "tile"):
            return f"{word} {tile_name(r, c)}" if 0 <= r < SIZE // 2 and 0 <= c < SIZE // 2 else m.group(0)
        return f"{word} {square_name(r, c)}" if 0 <= r < SIZE and 0 <= c < SIZE else m.group(0)

    message = _INDEX.sub("", _REF.sub(ref, message))
    return _COLUMN.sub(lambda m: f"{m.group(1)} {COLUMNS[int(m.group(2))]}" if int(m.group(2)) < SIZE
                       else m.group(0), message)


def slug(name: str) -> str:
    """"Terrain de sport" -> "terrain-de-sport" (the contract's card id)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:engine.SLUG_MAX].strip("-")


# --------------------------------------------------------------------------- the drawing's rows


def terrain_row(text: str) -> str:
    """A posted row of the community as its field reads it (spaces dropped, capitals)."""
    return re.sub(r"\s+", "", text).upper()


def terrain_problem(text: str, row: int) -> str | None:
    """What is wrong with a row of the community (`TerrainRow.problem`), None when nothing."""
    for c, ch in enumerate(text[:SIZE]):
        if ch not in engine.TERRAINS:
            where = square_name(row, c)
            if ch in (UNPAINTED, "?"):
                return _("la case {where} n'est pas encore peinte", where=where)
            return (_("« {ch} » en {where} : attendu F (forêt), E (eau), D (désert), P (plaine) ou R "
                      "(rocaille)",
                      ch=ch, where=where))
    if len(text) != SIZE:
        return _("{SIZE} lettres attendues, une par case de A à {v2}", SIZE=SIZE, v2=COLUMNS[-1])
    return None


# --------------------------------------------------------------------------- the merge's rules


def row_companion(list_name: str, old: int, new: int, name: str) -> str | None:
    """A player's count of a building card follows its card row by index (`built-k` is the card
    of `buildings-k`): when two phones add a card at once and this phone's goes to another row, its
    counts go with it (`saving.merge.relocate`)."""
    match = re.fullmatch(r"(players-\d+-built)-(\d+)", name)
    if list_name != "buildings" or not match or int(match.group(2)) != old:
        return None
    return f"{match.group(1)}-{new}"


_BUILT = re.compile(r"players-(\d+)-built-(\d+)")
_CARD = re.compile(r"buildings-(\d+)-(id|name)")


def row_keys(values) -> dict[str, str]:
    """Each player's count -> the name of its row's card on a posted page (no JS: its rows never
    move), as the page showed it (`values`: field name -> posted text)."""
    cards = {}
    for name, text in values.items():
        m = _CARD.fullmatch(name)
        if m:
            k = int(m.group(1))
            cards.setdefault(k, {})[m.group(2)] = (text or "").strip()
    named = {k: c.get("name") or c.get("id") or "" for k, c in cards.items()}
    return {name: named[int(m.group(2))] for name in values
            if (m := _BUILT.fullmatch(name)) and named.get(int(m.group(2)))}


def _cards(values) -> dict[int, str]:
    """Row -> the card id of each named card row of a set of field values."""
    out = {}
    for name, value in values.items():
        m = _CARD.fullmatch(name)
        if m and value and m.group(2) == "name":
            k = int(m.group(1))
            out[k] = (values.get(f"buildings-{k}-id") or "").strip() or slug(value)
    return out


def keyed(changes: dict[str, tuple[str, str]], keys, values, names: list[str]):
    """Each player's count changed for a card (`keys`: count field -> the card's name, or id, as
    the phone showed it) is taken out of the row-by-row changes: it goes with its card, whatever
    row the card is stored at now (another phone may have removed a card above it since this page
    was based, and the rows moved up). A count for a card no longer in play is never written onto
    the card that took its row, nor dropped without a word: it is left out, with a message. A card
    this save puts in play itself (a card typed here, an undo putting a removed card back) is followed
    too, its stored count blank: the row it takes may hold another card on the server (the undo of a
    removal puts the card back where the cards below it had moved up). A count keyed to a card name
    found nowhere but in this save's own card fields stays row by row (`row_companion` moves it).
    Returns the row-by-row changes, {(seat, card id): (base, mine, field)} and the fields left out
    (name -> message)."""
    stored = _cards(values)
    by_id = {card: k for k, card in stored.items()}
    by_name = {values.get(f"buildings-{k}-name", "").strip().casefold(): card for k, card in stored.items()}
    # the cards this save puts in play (an undo of a removal, a card typed on this phone): a count typed
    # for one goes with it too, whatever card the stored row holds now, its stored count blank
    laid = dict(values) | {name: mine for name, (_was, mine) in changes.items() if _CARD.fullmatch(name)}
    for k, card in _cards(laid).items():
        if card not in by_id:
            by_name.setdefault(laid.get(f"buildings-{k}-name", "").strip().casefold(), card)
    own = set()
    for name, (_was, mine) in changes.items():
        m = _CARD.fullmatch(name)
        if m and mine:
            own |= {mine, slug(mine)}
    out: dict[str, tuple[str, str]] = {}
    cards: dict[tuple[int, str], tuple[str, str, str]] = {}
    lost: dict[str, str] = {}
    for name, pair in changes.items():
        m, key = _BUILT.fullmatch(name), keys.get(name, "")
        card = by_name.get(key.casefold()) or next((c for c in (key, slug(key)) if c in by_id), None)
        if not (m and key) or card is None and (key in own or slug(key) in own):
            out[name] = pair
        elif card is not None:
            cards[(int(m.group(1)), card)] = (*pair, name)
        elif pair[1]:  # a card no longer in play: its count goes with it (a blank one without a word)
            seat = int(m.group(1))
            lost[name] = _("{who} : la carte « {card} » a été retirée sur un autre appareil ; le nombre "
                           "saisi pour elle ({n}) n'est pas enregistré.",
                           who=names[seat] if seat < len(names) else seat + 1, card=key, n=pair[1])
    return out, cards, lost


def stored_count(values, seat: int, card: str) -> str:
    """A player's stored count of a card (by id), "" when none."""
    for k, card_id in _cards(values).items():
        if card_id == card:
            return values.get(f"players-{seat}-built-{k}", "")
    return ""


def settle(data: dict[str, str], values, cards: dict, changed) -> dict[str, str]:
    """The counts laid on the merged card rows by card: each stored card's counts go with it to the
    row it ends at, a count this phone changed for a card (`cards`, see `keyed`) to its card's row,
    a count changed row by row (`changed`: a card this phone added, an old page) stays where it was
    typed. Returns the fields whose count moved with their card (this phone's name -> new)."""
    merged = _cards(data)
    old = {card: k for k, card in _cards(values).items()}
    seats = {int(m.group(1)) for n in data if (m := _BUILT.fullmatch(n))} | {seat for seat, _card in cards}
    moved = {}
    for seat in seats:
        for k in range(CARDS_MAX):
            name = f"players-{seat}-built-{k}"
            card = merged.get(k)
            if card is not None and (seat, card) in cards:
                base, mine, typed = cards[(seat, card)]
                data[name] = mine
                if typed != name:
                    moved[typed] = name
            elif name in changed:
                continue
            elif card in old:
                data[name] = values.get(f"players-{seat}-built-{old[card]}", "")
            elif name in data:
                data[name] = ""  # no card on this row any more (or a new one): no count of an old card
    return moved


# --------------------------------------------------------------------------- document <-> fields


def to_form(document: dict, data: dict) -> None:
    """Each player's mode (a drawn grid means "dessiner"), and their building counts by card row."""
    ids = [card.get("id") for card in document.get("buildings") or [] if isinstance(card, dict)]
    players = []
    for player in data.get("players") or []:
        player = dict(player)
        player["mode"] = GRID if "grid" in player else COUNTS
        if isinstance(player.get("grid"), dict):  # the marked squares in their notation, as shown
            grid = dict(player["grid"])
            for key in SQUARE_KEYS:
                squares = grid.get(key)
                grid[key] = write_squares(squares, key == "sources") if isinstance(squares, list) else ""
            terrain = grid.get("terrain")
            grid["terrain"] = [row if isinstance(row, str) else "" for row in terrain] \
                if isinstance(terrain, list) else []
            player["grid"] = grid
        built = player.get("buildings") if isinstance(player.get("buildings"), dict) else {}
        player["built"] = [built.get(card_id) for card_id in ids] + [None] * (CARDS_MAX - len(ids))
        players.append(player)
    data["players"] = players


def to_document(document: dict, reading) -> None:
    """Card ids from names, each player's buildings by card, and the drawn grid instead of counts
    (`reading`: `companion.saving.spec.Reading`). A player's fields are checked by their mode (the
    other mode's may hold anything): a drawing's squares and rows are read here, with their
    messages; the cards in play are checked together (a card with no name, a card twice)."""
    data, paths, values = reading.data, reading.paths, reading.values
    rows = [k for k in reading.rows.get("buildings", ()) if f"buildings-{k}" not in reading.blank]
    seen: dict[str, int] = {}
    for k in reading.rows.get("buildings", ()):  # `Card.validate`, then `Cards.validate`
        at = f"buildings-{k}-"
        card_id, name = (data.get(at + "id") or "").strip(), data.get(at + "name")
        if data.get(at + "id") or name or data.get(at + "points") is not None:
            if not (name or "").strip() and not card_id:
                reading.say(at + "name", N_("donnez le nom de la carte"))
                continue
            if not _card_id(data, k):
                reading.say(at + "name", N_("le nom doit contenir au moins une lettre ou un chiffre"))
                continue
        if f"buildings-{k}" in reading.blank:
            continue
        found = _card_id(data, k)
        if found and found in seen:
            reading.say(at + "name", _("cette carte est déjà la ligne {v1}", v1=seen[found] + 1))
        elif found:
            seen[found] = k
    cards = document.get("buildings") or []
    ids: list[tuple[int, str]] = []  # (row index on the page, card id)
    written: set[str] = set()
    for n, k in enumerate(rows):
        if n >= len(cards):
            break
        card = cards[n]
        card_id = _card_id(data, k)
        if not card_id or card_id in written:  # refused beside the row already: keep the engine from
            card_id = f"{card_id or 'carte'}-{k + 1}"  # saying it again, in its own words
        written.add(card_id)
        ids.append((k, card_id))
        rest = {key: (value.strip() if key == "name" else value)
                for key, value in card.items() if key != "id"}
        cards[n] = {"id": card_id, **rest}  # the contract's key order
        paths[f"buildings[{n}].id"] = f"buildings-{k}-name"

    for i, player in enumerate(document["players"]):
        at = f"players-{i}-"
        if at + "mode" not in data:
            break
        base = f"players[{i}]"
        built = {}
        for k, card_id in ids:
            if k < CARDS_MAX:
                if data.get(f"{at}built-{k}"):
                    built[card_id] = data[f"{at}built-{k}"]
                paths[f"{base}.buildings.{card_id}"] = f"{at}built-{k}"
        if built:
            player["buildings"] = built
        paths[f"{base}.buildings"] = f"{at}built"
        grid = data[at + "mode"] == GRID
        for name in [n for n in reading.messages if n.startswith(at)]:  # `Player.validate`
            key = name[len(at):]
            if (key in COUNT_KEYS) if grid else key.startswith("grid"):
                del reading.messages[name]
        if not grid:
            continue
        paths[f"{base}.grid"] = f"{at}grid"
        paths[f"{base}.grid.terrain"] = f"{at}grid-terrain"
        for r in range(SIZE):
            paths[f"{base}.grid.terrain[{r}]"] = f"{at}grid-terrain-{r}"
        squares = {}
        for key in SQUARE_KEYS:
            name = f"{at}grid-{key}"
            paths[f"{base}.grid.{key}"] = name
            try:
                marked = parse_squares((values.get(name) or "").strip(), key == "sources")
                squares[key] = [[r, c] for r, c in marked]
            except ValueError as exc:
                reading.say(name, exc.args[0])
                squares[key] = []
        terrain = [terrain_row(values.get(f"{at}grid-terrain-{r}") or "") for r in range(SIZE)]
        if not any(terrain) and not any(squares.values()):
            # nothing drawn yet: the counts typed, if any, still stand (a tap on "Dessiner" and back
            # loses nothing); with none, the community scores nothing
            continue
        wrong = False
        for r, row in enumerate(terrain):
            problem = terrain_problem(row, r)
            if problem:
                reading.say(f"{at}grid-terrain-{r}", _("ligne {v1} : {problem}", v1=r + 1, problem=problem))
                wrong = True
        for key in COUNT_KEYS:
            player.pop(key, None)
        if wrong:
            continue  # refused beside the row; the engine would only repeat it
        grid_doc = {"terrain": terrain}
        for key in SQUARE_KEYS:
            if squares[key]:
                grid_doc[key] = squares[key]
        player["grid"] = grid_doc


def _card_id(data, k: int) -> str:
    """A card row's id as `Card.card_id` says it: its hidden id, else made from its name."""
    return (data.get(f"buildings-{k}-id") or "").strip() or slug(data.get(f"buildings-{k}-name") or "")
