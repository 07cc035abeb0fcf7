"""Reterra's screens: the building cards in play, and each player's community, counted or drawn.

Field names are the contract keys (docs/contract.md, Reterra) where the contract has a flat value;
bounds come from the engine (`companion/games/reterra.py`), so the form and the engine never disagree.
Three things do not map one to one, and the hooks below translate them:

- **Counts or drawing** (`mode`, one per player): "compter sur le plateau" gives the five counts;
  "dessiner la communauté" gives `grid`, and the counts are then left out (the contract forbids both).
- **The drawing without JavaScript** (`grid`): 8 text rows of letters F E D P R for the terrain, and
  the marked squares written like a spreadsheet: columns A-H from left to right, rows 1-8 from top to
  bottom ("A1 C4"). Sources are tiles: any square of the tile names it. `static/js/board.js` turns
  these inputs into the 8×8 board and writes them back on every tap, so the form posts the same
  fields with or without JavaScript.
- **Buildings**: the table lists the cards in play (name + points; the id is derived from the name);
  each player gives how many of each card they built in `built`, one stepper per card row, by the
  row's index. The contract's `buildings` {id: count} is built from both.

Coordinates in the engine's messages ("la case [5, 5]") are turned into this notation by
`readable(message)`, which the templates and board.js both apply.
"""

from __future__ import annotations

import re
import unicodedata

from wtforms import Form
from wtforms.fields import FieldList, HiddenField, StringField
from wtforms.validators import StopValidation

from ..games import reterra as engine
from ..games.i18n import N_, _
from . import Choice, Count, Group, Rows, Text, _Cloned, _t, is_blank

PALETTE = [  # Reterra has no player colours: these only tell the players apart on screen
    ("#2f7d4f", "vert"),
    ("#2f6fb3", "bleu"),
    ("#c8372d", "rouge"),
    ("#d39a12", "jaune"),
    ("#7b4ea3", "violet"),
    ("#3b3b3b", "noir"),
]

COUNTS, GRID = "counts", "grid"
MODES = [(COUNTS, N_("Compter sur le plateau")), (GRID, N_("Dessiner la communauté"))]
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


# --------------------------------------------------------------------------- fields


class Squares(_Cloned, StringField):
    """Marked squares (or tiles) in the "A1 C4" notation. `data` is the notation as a person reads it
    (normalised when it parses, as typed when it does not); `pairs()` the contract's [row, col] list."""

    def __init__(self, label=None, hint="", tiles: bool = False, **kwargs):
        self.hint = _t(hint)
        self.tiles = tiles
        self.show_if = self.copy_to = None
        self.squares: list[tuple[int, int]] = []
        render_kw = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false",
                     "class": "squares", "placeholder": _("ex. A1 C4")}
        render_kw.update(kwargs.pop("render_kw", None) or {})
        super().__init__(_t(label), description=_t(hint), render_kw=render_kw, **kwargs)


    def process_data(self, value):
        self.data = write_squares(value, self.tiles) if isinstance(value, list) else ""
        self.squares = parse_squares(self.data, self.tiles)

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        self.data = valuelist[0].strip()
        self.squares = []
        self.squares = parse_squares(self.data, self.tiles)  # ValueError -> message beside the field
        self.data = write_squares(self.squares, self.tiles)

    def _value(self):
        return self.raw_data[0] if self.raw_data else (self.data or "")

    def pre_validate(self, form):
        if self.process_errors:
            raise StopValidation()

    def pairs(self) -> list[list[int]]:
        return [[r, c] for r, c in self.squares]


class TerrainRow(_Cloned, StringField):
    """One row of the community: 8 letters F E D P R (spaces ignored, any case)."""

    def __init__(self, label=None, **kwargs):
        self.hint = ""
        self.show_if = self.copy_to = None
        render_kw = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false",
                     "maxlength": 24, "class": "terrain-row"}
        super().__init__(label, render_kw=render_kw, **kwargs)

    def process_data(self, value):
        self.data = value if isinstance(value, str) else ""

    def process_formdata(self, valuelist):
        if valuelist:
            self.data = terrain_row(valuelist[0])

    def _value(self):
        return self.data or ""

    def problem(self, row: int) -> str | None:
        """What is wrong with this row, in French (None: 8 good letters; "" rows are checked by the form)."""
        return terrain_problem(self.data or "", row)


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


# --------------------------------------------------------------------------- forms


class Grid(Form):
    terrain = FieldList(TerrainRow(), min_entries=SIZE, max_entries=SIZE)
    sources = Squares(N_("Sources d'énergie"), N_("une case de chaque tuile portant une source (ses 4 cases "
                                              "sont de l'eau) ; seules les 4 tuiles du centre rapportent "
                                              "8"), tiles=True)
    relics = Squares(N_("Reliques imprimées"), N_("les symboles Relique des tuiles, couverts ou non"))
    relic_tokens = Squares(N_("Jetons Relique"), N_("posés par un pouvoir de bâtiment"))
    junk = Squares(N_("Bric-à-brac"), N_("chaque jeton Bric-à-brac, sur la case de la relique qu'il couvre"))
    inhabitants = Squares(N_("Habitants"), N_("chaque pion Habitant"))

    def rows(self) -> list[str]:
        return [entry.data or "" for entry in self.terrain.entries]

    @staticmethod
    def readable(message: str) -> str:
        return readable(message)

    def is_empty(self) -> bool:
        return not any(self.rows()) and not any(getattr(self, key).squares for key in SQUARE_KEYS)


def player_form(variant: str) -> type[Form]:
    bounds = engine.COUNT_BOUNDS

    class Player(Form):
        ui_only = ("mode", "grid", "built")
        mode = Choice(N_("Communauté"), N_("comptée sur la table, ou dessinée ici (l'appli compte)"),
                      choices=MODES, default=COUNTS, local=True)
        segments = Count(N_("Segments de 7 cases ou plus"),
                         N_("étendues ininterrompues de cases du même type"),
                         hi=bounds["segments"])
        energy_sources = Count(N_("Sources d'énergie entourées"),
                               N_("entièrement entourées de tuiles (pas en bordure)"),
                               hi=bounds["energy_sources"])
        relics = Count(N_("Reliques visibles"),
                       N_("symboles et jetons Relique non couverts par du bric-à-brac"),
                       hi=bounds["relics"])
        junk = Count(N_("Jetons Bric-à-brac"), N_("posés sur vos reliques par vos adversaires : −1 chacun"),
                     hi=bounds["junk"])
        inhabitants = Count(N_("Habitants"), N_("pions Habitant dans votre communauté"),
                            hi=bounds["inhabitants"])
        grid = Group(Grid, N_("Communauté dessinée"), N_("8 lignes de 8 cases, de haut en bas"))
        built = FieldList(Count(N_("Construits"), N_("tuiles de ce bâtiment dans votre communauté"),
                                hi=engine.BUILDING_MAX), min_entries=CARDS_MAX, max_entries=CARDS_MAX)
        building_bonus = Count(N_("Pouvoirs de bâtiment"), N_("points de fin de partie donnés par les "
                                                         "pouvoirs (ex. observatoire, face violette)"),
                               hi=engine.BONUS_MAX)

        def validate(self, extra_validators=None):
            """Only the chosen mode's fields are checked: the other's may hold anything."""
            grid = self.mode.data == GRID
            skip = set(COUNT_KEYS) if grid else {"grid"}
            ok = True
            for name, f in self._fields.items():
                if name in skip:
                    continue
                if not f.validate(self, (extra_validators or {}).get(name, ())):
                    ok = False
            if grid and not self.grid.form.is_empty():
                for r, entry in enumerate(self.grid.form.terrain.entries):
                    problem = entry.problem(r)
                    if problem:
                        entry.errors = [*entry.errors, _("ligne {v1} : {problem}",
                                                         v1=r + 1, problem=problem)]
                        ok = False
            return ok

    return Player


class Card(Form):
    id = HiddenField()
    name = Text(N_("Nom de la carte"), description=N_("tel qu'imprimé sur la carte de bâtiment"),
                       render_kw={"autocomplete": "off", "maxlength": engine.NAME_MAX,
                                  "autocapitalize": "sentences", "list": "cartes-connues"})
    points = Count(N_("Points"), N_("la valeur de la face en jeu (violette ou orange)"),
                   hi=engine.CARD_POINTS_MAX)

    def card_id(self) -> str:
        return (self.id.data or "").strip() or slug(self.name.data or "")

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        if self.id.data or self.name.data or self.points.data is not None:
            name = (self.name.data or "").strip()
            if not name and not (self.id.data or "").strip():
                self.name.errors = [*self.name.errors, N_("donnez le nom de la carte")]
                return False
            if not self.card_id():
                self.name.errors = [*self.name.errors,
                                    N_("le nom doit contenir au moins une lettre ou un chiffre")]
                return False
        return ok


class Cards(Rows):
    """The building cards in play; two rows naming the same card are refused beside the second."""

    def validate(self, form, extra_validators=()):
        ok = super().validate(form, extra_validators)
        seen: dict[str, int] = {}
        for k, entry in enumerate(self.entries):
            if is_blank(entry):
                continue
            card_id = entry.form.card_id()
            if card_id and card_id in seen:
                entry.form.name.errors = [*entry.form.name.errors,
                                          _("cette carte est déjà la ligne {v1}", v1=seen[card_id] + 1)]
                ok = False
            elif card_id:
                seen[card_id] = k
        return ok


def table_form(variant: str) -> type[Form]:
    class Table(Form):
        buildings = Cards(Group(Card), N_("Cartes de bâtiment en jeu"),
                          N_("chaque carte posée au bas du plateau, avec la valeur de sa face visible"),
                          max_entries=CARDS_MAX, item_label=N_("Carte"), add_label=N_("Ajouter une carte"))

    return Table


# --------------------------------------------------------------------------- document <-> form


def field_labels(form, out: dict[str, str]) -> None:
    """A player's building counts named by their card ("Maëlle · Forge"), as the page shows them,
    rather than by position: the error summary and a conflict's list link to them."""
    cards = [(entry.form.name.data or "").strip() for entry in form.buildings.entries]
    for entry in form.players.entries:
        who = out.get(entry.name, "")
        out[entry.form.built.name] = f"{who} · {_('Bâtiments construits')}"
        for k, f in enumerate(entry.form.built.entries):
            card = (cards[k] if k < len(cards) else "") or f"{_('Carte')} {k + 1}"
            out[f.name] = f"{who} · {card}"


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


def row_keys(form) -> dict[str, str]:
    """Each player's count -> the name of its row's card on a posted form (no JS: its rows never
    move), as the page showed it."""
    cards = [(entry.form.name.data or "").strip() or (entry.form.id.data or "").strip()
             for entry in form.buildings.entries]
    return {f.name: cards[k] for entry in form.players.entries for k, f in enumerate(entry.form.built.entries)
            if k < len(cards) and cards[k]}


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
    this save adds itself keeps its row (`row_companion` moves it with the row).
    Returns the row-by-row changes, {(seat, card id): (base, mine, field)} and the fields left out
    (name -> message)."""
    stored = _cards(values)
    by_id = {card: k for k, card in stored.items()}
    by_name = {values.get(f"buildings-{k}-name", "").strip().casefold(): card for k, card in stored.items()}
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


def to_form(document: dict, data: dict) -> None:
    """Each player's mode (a drawn grid means "dessiner"), and their building counts by card row."""
    ids = [card.get("id") for card in document.get("buildings") or [] if isinstance(card, dict)]
    players = []
    for player in data.get("players") or []:
        player = dict(player)
        player["mode"] = GRID if "grid" in player else COUNTS
        built = player.get("buildings") if isinstance(player.get("buildings"), dict) else {}
        player["built"] = [built.get(card_id) for card_id in ids] + [None] * (CARDS_MAX - len(ids))
        players.append(player)
    data["players"] = players


def to_document(document: dict, form, paths: dict[str, str]) -> None:
    """Card ids from names, each player's buildings by card, and the drawn grid instead of counts."""
    rows = [(k, entry.form) for k, entry in enumerate(form.buildings.entries) if not is_blank(entry)]
    cards = document.get("buildings") or []
    ids: list[tuple[int, str]] = []  # (row index in the form, card id)
    seen: set[str] = set()
    for n, (k, card_form) in enumerate(rows):
        if n >= len(cards):
            break
        card = cards[n]
        card_id = card_form.card_id()
        if not card_id or card_id in seen:  # refused beside the row already: keep the engine from
            card_id = f"{card_id or 'carte'}-{k + 1}"  # saying it again, in its own words
        seen.add(card_id)
        ids.append((k, card_id))
        rest = {key: (value.strip() if key == "name" else value)
                for key, value in card.items() if key != "id"}
        cards[n] = {"id": card_id, **rest}  # the contract's key order
        paths[f"buildings[{n}].id"] = card_form.name.name

    for i, player in enumerate(document["players"]):
        if i >= len(form.players.entries):
            break
        pform = form.players.entries[i].form
        base = f"players[{i}]"
        built = {}
        for k, card_id in ids:
            if k < len(pform.built.entries):
                field = pform.built.entries[k]
                if field.data:
                    built[card_id] = field.data
                paths[f"{base}.buildings.{card_id}"] = field.name
        if built:
            player["buildings"] = built
        paths[f"{base}.buildings"] = pform.built.name

        if pform.mode.data != GRID:
            continue
        grid_form = pform.grid.form
        paths[f"{base}.grid"] = pform.grid.name
        paths[f"{base}.grid.terrain"] = grid_form.terrain.name
        for r, entry in enumerate(grid_form.terrain.entries):
            paths[f"{base}.grid.terrain[{r}]"] = entry.name
        for key in SQUARE_KEYS:
            paths[f"{base}.grid.{key}"] = getattr(grid_form, key).name
        if grid_form.is_empty():
            # nothing drawn yet: the counts typed, if any, still stand (a tap on "Dessiner" and back
            # loses nothing); with none, the community scores nothing
            continue
        for key in COUNT_KEYS:
            player.pop(key, None)
        rows_ = grid_form.rows()
        if any(grid_form.terrain.entries[r].problem(r) for r in range(SIZE)):
            continue  # refused beside the row; the engine would only repeat it
        grid = {"terrain": rows_}
        for key in SQUARE_KEYS:
            pairs = getattr(grid_form, key).pairs()
            if pairs:
                grid[key] = pairs
        player["grid"] = grid


# --------------------------------------------------------------------------- an autosave without the form

# A player's keys in the order `to_document` writes them (the form's fields, then the cards' counts
# and the drawing, which it adds itself).
_LAID = (*COUNT_KEYS, "building_bonus")
_PLAYER_KEYS = frozenset(("name", *_LAID, "buildings", "grid"))
_DIRECT = re.compile(r"players-(\d+)-(segments|energy_sources|relics|junk|inhabitants|building_bonus"
                     r"|built-\d+|grid-terrain-\d+|grid-(?:sources|relics|relic_tokens|junk|inhabitants))")
_BOUNDS = {**engine.COUNT_BOUNDS, "building_bonus": engine.BONUS_MAX}


def direct_player(view, changed, data, read):
    """A player's counts, bonus, buildings and drawing, laid on the stored document without the form
    (`forms.direct.lay_save`). The player form checks its fields together (the mode decides which
    are read), but the stored player says the mode: with no drawing, the counts are read, each
    alone as its `Count` would (`read(lo, hi, text)`: same bounds, same messages); with one, the
    drawing is read as the form reads it (`terrain_row`, `terrain_problem`, `parse_squares`: same
    messages) and the counts are left out. The building counts are taken from `data` as the merge
    settled them by card (`keyed`, `settle`: a count goes to its card's row, or is left out when
    the card was removed meanwhile), each written under its card's id (the stored form's paths say
    which card each row is: a save changing a card is the form's). Everything is written where
    `to_document` writes it. `view`: the stored document's `forms.Stored`; `changed`: the player
    fields this save changed; `data`: every value after the merge. Returns (seat -> the player's new
    object, messages by field, the fields' texts after it), or None when a change is one only the
    form reads (the mode; a drawn player's counts, which the form leaves out; a counted player's
    drawing, or a drawing wiped out: the mode changes with it)."""
    from .direct import OMIT

    players = view.document.get("players") or []
    seats: set[int] = set()
    for name in changed:
        match = _DIRECT.fullmatch(name)
        if match is None or name not in view.values:
            return None
        seat, key = int(match.group(1)), match.group(2)
        if seat >= len(players) or not _PLAYER_KEYS.issuperset(players[seat]):
            return None
        drawn = "grid" in players[seat]
        if key in COUNT_KEYS and drawn or key.startswith("grid-") and not drawn:
            return None  # a drawn player's counts, a counted player's drawing: the form's
        seats.add(seat)
    out, messages, texts = {}, {}, {}
    for seat in sorted(seats):
        player = players[seat]
        new = {"name": player["name"]} if "name" in player else {}
        for key in _LAID:
            name = f"players-{seat}-{key}"
            value = player.get(key, OMIT)
            if data.get(name, "") != view.values.get(name, ""):
                value, message = read(0, _BOUNDS[key], data.get(name, ""))
                if message:
                    messages[name] = message
            if value is not OMIT:
                new[key] = value
            if key in COUNT_KEYS and "grid" in player:
                continue
            texts[name] = "" if value is OMIT else str(value)
        built = _built(view, seat, player, data, read, messages, texts)
        if built:
            new["buildings"] = built
        if "grid" in player:
            grid = _grid(view, seat, player["grid"], data, messages, texts)
            if grid is None:
                return None
            if grid:
                new["grid"] = grid
        out[seat] = new
    return out, messages, texts


def _grid(view, seat: int, stored: dict, data, messages: dict, texts: dict) -> dict | None:
    """A drawn player's drawing after the save, as `to_document` writes it: {} when a row is wrong
    (refused beside it: no drawing, as the form leaves it), None when nothing is left drawn (the
    player is then counted again: the form's way)."""
    prefix = f"players-{seat}-grid-"
    terrain = stored.get("terrain") if isinstance(stored.get("terrain"), list) else []
    rows = []
    for r in range(SIZE):
        name = f"{prefix}terrain-{r}"
        if data.get(name, "") != view.values.get(name, ""):
            rows.append(terrain_row(data.get(name, "")))
        else:
            rows.append(terrain[r] if r < len(terrain) and isinstance(terrain[r], str) else "")
        texts[name] = rows[-1]
    squares = {}
    for key in SQUARE_KEYS:
        name, tiles = prefix + key, key == "sources"
        pairs = stored.get(key) or []
        if data.get(name, "") != view.values.get(name, ""):
            try:
                pairs = [[r, c] for r, c in parse_squares(data.get(name, "").strip(), tiles)]
            except ValueError as exc:
                messages[name] = exc.args[0]
                pairs = []
        squares[key] = pairs
        texts[name] = write_squares(pairs, tiles)
    if not any(rows) and not any(squares.values()):
        return None
    wrong = False
    for r, row in enumerate(rows):
        problem = terrain_problem(row, r)
        if problem:
            messages[f"{prefix}terrain-{r}"] = _("ligne {v1} : {problem}", v1=r + 1, problem=problem)
            wrong = True
    if wrong:
        return {}
    return {"terrain": rows, **{key: pairs for key, pairs in squares.items() if pairs}}


def _built(view, seat: int, player: dict, data, read, messages: dict, texts: dict) -> dict:
    """A player's buildings {card id: count} from their counts after the merge, as `to_document`
    writes them (the cards' order, a blank or 0 left out); a count typed on a row with no card is
    read (its message) and written nowhere, as the form does."""
    from .direct import OMIT

    prefix = f"players[{seat}].buildings."
    cards = {name: path[len(prefix):] for path, name in view.paths.items() if path.startswith(prefix)}
    stored = player.get("buildings") if isinstance(player.get("buildings"), dict) else {}
    built = {}
    for name, card in cards.items():
        value = stored.get(card, OMIT)
        if data.get(name, "") != view.values.get(name, ""):
            value, message = read(0, engine.BUILDING_MAX, data.get(name, ""))
            if message:
                messages[name] = message
        if value is not OMIT and value:
            built[card] = value
    for k in range(CARDS_MAX):
        name = f"players-{seat}-built-{k}"
        if name not in cards and data.get(name, "") != view.values.get(name, ""):
            _value, message = read(0, engine.BUILDING_MAX, data.get(name, ""))
            if message:
                messages[name] = message
        card = cards.get(name)
        texts[name] = str(built[card]) if card in built else ""
    return built


# --------------------------------------------------------------------------- the cards without the form

_ROW_FIELD = re.compile(r"buildings-(0|[1-9]\d?)-(id|name|points)")
_ROW = re.compile(r"buildings-(0|[1-9]\d?)")


def direct_rows(view, changes, added, data, document, paths, read):
    """The building cards changed (points, name: a new name makes a new id), added (after the last
    one, or moved on where another phone added one meanwhile, with its counts) or removed (its row
    blanked, or the rows below moved up into it), laid on the document without the form
    (`forms.direct.lay_save`): each row read as the form reads it from every value after the merge
    (`data`: `Card` and `Cards`, same messages: bounds, a card with no name, a card twice), the
    cards written as `to_document` writes them (ids from names), and every player's counts by card
    as the merge settled them (`settle`: a count goes with its card, a card's counts go when it
    goes or takes a new id). `document`: the document laid so far (a player `direct_player` laid
    included), `paths` its contract paths; `read(lo, hi, text)` reads a number as a `Count` does.
    Returns an `adapter.RowsLaid`, or None when a change is not a card's, or the cards are ones the
    form reads otherwise (a row holding only a typing error, which `to_document` pairs with the
    next card; rows posted out of order)."""
    from .adapter import RowsLaid
    from .direct import OMIT

    for name in changes:
        match = _ROW_FIELD.fullmatch(name)
        if match is None or int(match.group(1)) >= CARDS_MAX:
            return None
    for prefix in added:
        match = _ROW.fullmatch(prefix)
        if match is None or int(match.group(1)) >= CARDS_MAX:
            return None
    indices = set()
    for name in data:
        if name.startswith("buildings"):
            match = _ROW_FIELD.fullmatch(name)
            if match is None:
                return None
            indices.add(int(match.group(1)))
    if indices != set(range(len(indices))) or not indices:
        return None  # rows the form would number otherwise
    stored = view.document.get("buildings") or []
    if not all(isinstance(card, dict) and isinstance(card.get("id"), str) for card in stored):
        return None
    players = document.get("players") or []
    if any(not _PLAYER_KEYS.issuperset(player) for player in players):
        return None
    messages: dict[str, str] = {}
    rows = []  # (row index, card id as `Card.card_id` says it, the card as `collect` writes it)
    seen: dict[str, int] = {}
    for k in range(len(indices)):
        at = f"buildings-{k}-"
        card_id_text, name_text = data.get(at + "id"), data.get(at + "name")
        points_text = data.get(at + "points") or ""
        points, message = read(0, engine.CARD_POINTS_MAX, points_text)
        if message:
            messages[at + "points"] = message
        blank = not (card_id_text or "").strip() and not (name_text or "").strip() and not points_text.strip()
        card_id = (card_id_text or "").strip() or slug(name_text or "")
        if card_id_text or name_text or points is not OMIT:  # `Card.validate`
            if not (name_text or "").strip() and not (card_id_text or "").strip():
                messages[at + "name"] = N_("donnez le nom de la carte")
            elif not card_id:
                messages[at + "name"] = N_("le nom doit contenir au moins une lettre ou un chiffre")
        if blank:
            continue
        if card_id and card_id in seen:  # `Cards.validate`
            messages[at + "name"] = _("cette carte est déjà la ligne {v1}", v1=seen[card_id] + 1)
        elif card_id:
            seen[card_id] = k
        card = {}
        if (card_id_text or "").strip():
            card["id"] = card_id_text.strip()
        if (name_text or "").strip():
            card["name"] = name_text.strip()
        if points is not OMIT:
            card["points"] = points
        if not card:
            return None  # a row holding only a typing error: `to_document` pairs its rows otherwise
        rows.append((k, card_id, card))
    cards, ids, written = [], [], set()
    check_paths = {p: n for p, n in paths.items() if not _CARD_PATH.match(p)}
    for n, (k, card_id, card) in enumerate(rows):  # `to_document`
        if not card_id or card_id in written:
            card_id = f"{card_id or 'carte'}-{k + 1}"
        written.add(card_id)
        ids.append((k, card_id))
        cards.append({"id": card_id, **{key: value for key, value in card.items() if key != "id"}})
        at = f"buildings-{k}"
        check_paths.update({f"buildings[{n}]": at, f"buildings[{n}].id": f"{at}-name",
                            f"buildings[{n}].name": f"{at}-name", f"buildings[{n}].points": f"{at}-points"})
    laid_players = []
    for i, player in enumerate(players):
        built = {}
        for k, card_id in ids:
            name = f"players-{i}-built-{k}"
            value, _message = read(0, engine.BUILDING_MAX, data.get(name, ""))
            if value is not OMIT and value:
                built[card_id] = value
            check_paths[f"players[{i}].buildings.{card_id}"] = name
        laid_players.append(_with_built(player, built))
    laid = {key: value for key, value in document.items() if key not in ("players", "buildings")}
    if cards:
        laid["buildings"] = cards
    laid["players"] = laid_players
    laid = _in_order(laid)
    texts, gone, after_paths = _after(view, laid)
    return RowsLaid(laid, messages, check_paths, texts, gone, after_paths)


_CARD_PATH = re.compile(r"buildings\[|players\[\d+\]\.buildings\.")


def _with_built(player: dict, built: dict) -> dict:
    """A player with their buildings by card, where `to_document` writes them (before the drawing)."""
    out = {key: value for key, value in player.items() if key not in ("buildings", "grid")}
    if built:
        out["buildings"] = built
    if "grid" in player:
        out["grid"] = player["grid"]
    return out


def _in_order(laid: dict) -> dict:
    """The document's keys in the order the form writes them (the table's fields, then players)."""
    order = ("game", "variant", "buildings", "players")
    return {key: laid[key] for key in sorted(laid, key=lambda k: order.index(k) if k in order else 9)}


def _after(view, document: dict) -> tuple[dict, set, dict]:
    """The stored view of the new document as its form shows it: the card rows' and every player's
    counts' texts, the card rows no longer shown, its paths (`to_form`, `to_document`)."""
    cards = document.get("buildings") or []
    texts = {}
    for n, card in enumerate(cards or [{}]):  # an empty list shows one blank row
        points = card.get("points")
        texts |= {f"buildings-{n}-id": card.get("id", ""), f"buildings-{n}-name": card.get("name", ""),
                  f"buildings-{n}-points": str(points) if type(points) is int else ""}
    gone = {name for name in view.values if _ROW_FIELD.fullmatch(name) and name not in texts}
    paths = {p: n for p, n in view.paths.items() if not _CARD_PATH.match(p)}
    for n in range(len(cards)):
        at = f"buildings-{n}"
        paths.update({f"buildings[{n}]": at, f"buildings[{n}].id": f"{at}-name",
                      f"buildings[{n}].name": f"{at}-name", f"buildings[{n}].points": f"{at}-points"})
    for i, player in enumerate(document["players"]):
        built = player.get("buildings") or {}
        for k in range(CARDS_MAX):
            card_id = cards[k]["id"] if k < len(cards) else None
            value = built.get(card_id) if card_id is not None else None
            texts[f"players-{i}-built-{k}"] = str(value) if type(value) is int else ""
            if card_id is not None:
                paths[f"players[{i}].buildings.{card_id}"] = f"players-{i}-built-{k}"
    return texts, gone, paths


# What this game gives the shared form machinery (companion/forms/adapter.py: a misspelt hook fails here).
from .adapter import Adapter  # noqa: E402 - kept beside the declaration, at the end of the file

ADAPTER = Adapter(palette=PALETTE, player_form=player_form, table_form=table_form, to_form=to_form,
                  to_document=to_document, readable=readable, field_labels=field_labels, row_keys=row_keys,
                  row_companion=row_companion, keyed=keyed, stored_count=stored_count, settle=settle,
                  direct_player=direct_player, direct_rows=direct_rows,
                  # its page reads values itself (a card's name labels its counts): never from a skeleton
                  page_skeleton=False)
