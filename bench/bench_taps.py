"""Taps and page heights: the five scenarios of issue 11, played on a 390×844 phone (headless Chromium)
from the new-game page to the results, with the end states of the issue's table.

Run: `.venv/bin/python -m bench.bench_taps` (part of `make bench`). Prints, per scenario, the taps it
took beside the issue's "before" figure and its goal (half), the keyboard presses, and the tallest
page of any step (goal: 3 screens, 3 × 844 px); then checks that the results page shows the totals the
engine gives for the same end state (so the count is of a flow that works).

What counts as a tap: every click or tap on the screen (a button, a chip, a box, a board square, a
field to put the cursor in it). Typing into the field that has the cursor is not a tap, nor is the
phone keyboard's "suivant" key (Enter), which moves to the next field of the step: those are counted
apart, as keyboard presses. The driver plays as a quick player would: it types the numbers of a step
in page order, moving with "suivant" when the field to fill is the very next one and tapping it when it
is further on (issue 32: two "suivant" cost more than one tap); after a number that cannot grow the page
has already moved the cursor on (static/js/play/fields.js), and a "suivant" pressed there is taken as
the habitual one (no move), so the driver taps any other field; a box that goes with a number (Revive's
"Débloquée" before its cards) is ticked in page order, which puts the cursor in that number; the other
boxes and chips of the step are tapped after. BENCH_TRACE=1 prints each tap and key.
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
import tempfile
import threading
from pathlib import Path

from companion import games

CHROMIUM = "/usr/bin/chromium"
EXAMPLES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"  # the contract's examples, copied in
SCREEN = 844
BEFORE = {"scotland": (41, 11_000), "ireland": (92, 17_000), "reterra": (97, 9_100), "revive": (94, 13_400),
          "abyss": (78, 11_100),
          # issue 24's cities, measured by this bench on the page before the tile pad (select, steppers)
          "scotland_cities": (68, 2_272), "ireland_cities": (64, 2_568)}
GOAL = {"scotland_cities": 40, "ireland_cities": 40}  # issue 24: the whole end state, cities included
ENTER_REACH = 1  # "suivant" to the very next field to fill; one further on, a tap (issue 32)

# --------------------------------------------------------------------------- the end states


def scotland() -> dict:
    """Rebirth Écosse, 4 players: track, icons, castles, 7 private missions (5 achieved), 2 gifts,
    2 castle holders."""
    return {"game": "rebirth", "variant": "scotland", "players": [
        {"name": "Maëlle", "track": 48, "incomplete_icons": 2, "castles": 2,
         "missions": [{"points": 5, "achieved": True}, {"points": 7}]},
        {"name": "Yanis", "track": 52, "incomplete_icons": 1, "castles": 1,
         "missions": [{"points": 4, "achieved": True}, {"points": 6, "achieved": True}], "gifts": 1},
        {"name": "Inès", "track": 40, "incomplete_icons": 3, "castles": 1,
         "missions": [{"points": 8}, {"points": 5, "achieved": True}], "gifts": 1},
        {"name": "Jules", "track": 45, "incomplete_icons": 2, "castles": 2,
         "missions": [{"points": 6, "achieved": True}]},
    ], "edinburgh": "Yanis", "stirling": "Jules"}


def ireland() -> dict:
    """Rebirth Irlande, 3 players, in-game points itemised (no track), 3 cities."""
    return {"game": "rebirth", "variant": "ireland", "players": [
        {"name": "Aoife", "farms": {"agricultural": [4, 2], "energy": [3]}, "ports": 3,
         "public_missions": [{"points": 6, "doubled": True}, {"points": 3}], "towers": [13],
         "incomplete_icons": 2, "castles": 2, "privatized_missions": [{"points": 9, "achieved": True}],
         "tara_adjacent": 2},
        {"name": "Brian", "farms": {"agricultural": [5], "energy": [2, 2]}, "ports": 4,
         "public_missions": [{"points": 4}], "towers": [3, 3], "incomplete_icons": 1, "castles": 1,
         "tara_adjacent": 1},
        {"name": "Cliona", "farms": {"agricultural": [3], "energy": [4]}, "ports": 2,
         "public_missions": [{"points": 5, "doubled": True}], "incomplete_icons": 3, "castles": 2,
         "privatized_missions": [{"points": 8}], "tara_adjacent": 3},
    ], "cities": [
        {"size": 2, "tiles": [{"player": "Aoife", "influence": 3}, {"player": "Brian", "influence": 2}]},
        {"size": 3, "tiles": [{"player": "Brian", "influence": 2}, {"player": "Cliona", "influence": 4}]},
        {"size": 4, "tiles": [{"player": "Cliona", "influence": 1}, {"player": "Aoife", "influence": 2},
                              {"player": "Brian", "influence": 3}]},
    ], "blarney": "Aoife"}


def scotland_cities() -> dict:
    """Issue 24: Rebirth Écosse, 4 players, 6 cities, 13 tiles (one of them a tie in a complete city
    that the placement order breaks, R4), plus issue 11's end state of each player."""
    doc = scotland()
    doc["cities"] = [
        {"size": 1, "tiles": [{"player": "Maëlle", "influence": 2}]},
        {"size": 2, "tiles": [{"player": "Yanis", "influence": 3}, {"player": "Inès", "influence": 2}]},
        # Jules 2 and Yanis 2: Yanis placed the last tile, so Jules (next clockwise) wins the tie
        {"size": 3, "tiles": [{"player": "Jules", "influence": 2, "order": 1},
                              {"player": "Maëlle", "influence": 1, "order": 2},
                              {"player": "Yanis", "influence": 2, "order": 3}]},
        {"size": 3, "tiles": [{"player": "Inès", "influence": 3}, {"player": "Jules", "influence": 1},
                              {"player": "Maëlle", "influence": 2}]},
        {"size": 2, "tiles": [{"player": "Maëlle", "influence": 1}, {"player": "Jules", "influence": 4}]},
        {"size": 3, "tiles": [{"player": "Yanis", "influence": 2}, {"player": "Inès", "influence": 1}]},
    ]
    return doc


def ireland_cities() -> dict:
    """Issue 24: Rebirth Irlande, 3 players, 5 cities, 12 tiles (a tie in a complete 4-space city
    broken by the placement order, R4), plus issue 11's end state of each player."""
    doc = ireland()
    doc["cities"] = [
        {"size": 2, "tiles": [{"player": "Aoife", "influence": 3}, {"player": "Brian", "influence": 2}]},
        {"size": 3, "tiles": [{"player": "Brian", "influence": 2}, {"player": "Cliona", "influence": 4},
                              {"player": "Aoife", "influence": 1}]},
        # Brian 3 and Cliona 3: Cliona placed the last tile, so Brian (nearer clockwise) wins the tie
        {"size": 4, "tiles": [{"player": "Cliona", "influence": 1, "order": 1},
                              {"player": "Aoife", "influence": 2, "order": 2},
                              {"player": "Brian", "influence": 3, "order": 3},
                              {"player": "Cliona", "influence": 2, "order": 4}]},
        {"size": 1, "tiles": [{"player": "Aoife", "influence": 4}]},
        {"size": 3, "tiles": [{"player": "Brian", "influence": 1}, {"player": "Cliona", "influence": 2}]},
    ]
    return doc


def reterra() -> dict:
    """Reterra, 4 players: three count their community, one paints it (tests/fixtures/reterra.json's
    board), 2 building cards."""
    example = json.loads((EXAMPLES / "reterra.json").read_text(encoding="utf-8"))
    grid = example["players"][1]["grid"]
    cards = [{"id": "terrain-de-sport", "name": "Terrain de sport", "points": 3},
             {"id": "observatoire", "name": "Observatoire", "points": 2}]
    return {"game": "reterra", "variant": "base", "buildings": cards, "players": [
        {"name": "Maëlle", "segments": 1, "energy_sources": 1, "relics": 4, "junk": 1, "inhabitants": 3,
         "buildings": {"terrain-de-sport": 1}},
        {"name": "Yanis", "grid": grid, "buildings": {"observatoire": 2}},
        {"name": "Inès", "segments": 2, "relics": 2, "inhabitants": 4, "buildings": {"terrain-de-sport": 2}},
        {"name": "Jules", "segments": 3, "energy_sources": 1, "relics": 1, "junk": 2, "inhabitants": 2,
         "buildings": {"observatoire": 1, "terrain-de-sport": 1}},
    ]}


def _revive_player(name: str, seed: int, abyss: bool) -> dict:
    p = {"name": name, "track": 30 + 7 * seed, "progress": 4 + seed,
         "card_bonus": [{"unlocked": seed % 2 == 0, "cards": 2 + seed}, {"unlocked": seed != 1, "cards": 1},
                        {"cards": seed % 2}],
         "great_locations": [5, 3][: 1 + seed % 2], "two_tokens": seed % 2,
         "resources": {"gears": 2 + seed % 3, "books": 1, "food": seed % 2, "crystals": 3},
         "artifacts": [1, seed % 2, 1], "artifact_points": 2 + seed,
         "artifact_card": [{"count": 2 + seed, "points": 1}, {"count": 1, "points": 2},
                           {"count": seed, "points": 1}],
         "machine_progress": 8 + seed}
    if seed == 0:
        p["four_token"] = True
    if abyss:
        p["scyphoz"] = seed % 2
        p["devotion"] = 3 + 2 * seed
    return p


def revive() -> dict:
    names = ["Maëlle", "Yanis", "Inès", "Jules"]
    return {"game": "revive", "variant": "base", "players": [_revive_player(n, k, False)
                                                             for k, n in enumerate(names)]}


def abyss() -> dict:
    names = ["Maëlle", "Yanis", "Inès"]
    return {"game": "revive", "variant": "abyss", "players": [_revive_player(n, k, True)
                                                              for k, n in enumerate(names)]}


SCENARIOS = [
    ("scotland", "Rebirth Écosse, 4 joueurs (piste, icônes, châteaux, 7 missions, 2 dons, 2 châteaux tenus)",
     scotland),
    ("ireland", "Rebirth Irlande, 3 joueurs, détaillé, 3 villes", ireland),
    ("reterra", "Reterra, 4 joueurs (3 comptés, 1 plateau peint)", reterra),
    ("revive", "Revive, 4 joueurs", revive),
    ("abyss", "Revive + Call of the Abyss, 3 joueurs", abyss),
    ("scotland_cities", "Rebirth Écosse, 4 joueurs, 6 villes, 13 tuiles (issue 24)", scotland_cities),
    ("ireland_cities", "Rebirth Irlande, 3 joueurs, 5 villes, 12 tuiles (issue 24)", ireland_cities),
]

# --------------------------------------------------------------------------- document -> entries


def _flatten(value, name: str, out: list) -> None:
    """Field name -> value for every entry of a contract value (lists and objects at any depth)."""
    if isinstance(value, dict):
        for key, sub in value.items():
            _flatten(sub, f"{name}-{key}" if name else key, out)
    elif isinstance(value, list):
        for j, sub in enumerate(value):
            _flatten(sub, f"{name}-{j}", out)
    elif value not in (None, 0, False, ""):
        out.append((name, value))


def entries(doc: dict) -> list[list[tuple[str, object]]]:
    """The entries of each step: the table's, then each player's (field name, value)."""
    doc = copy.deepcopy(doc)
    table: list = []
    players = doc.pop("players")
    if doc["game"] == "revive":  # one shared artifact card: its points typed once, at table level
        for j, line in enumerate(players[0]["artifact_card"]):
            table.append((f"card-{j}-points", line["points"]))
        for p in players:
            for line in p["artifact_card"]:
                line.pop("points")
    if doc["game"] == "reterra":
        ids = [c["id"] for c in doc["buildings"]]
        for j, card in enumerate(doc.pop("buildings")):
            table += [(f"buildings-{j}-name", card["name"]), (f"buildings-{j}-points", card["points"])]
        for p in players:
            built = p.pop("buildings", {})
            p["built"] = [built.get(i, 0) for i in ids]
            if "grid" in p:
                p["mode"] = "grid"
    for key in ("game", "variant"):
        doc.pop(key)
    _flatten(doc, "", table)
    steps = [table]
    for i, p in enumerate(players):
        p.pop("name")
        out: list = []
        _flatten(p, f"players-{i}", out)
        steps.append(out)
    return steps


# --------------------------------------------------------------------------- the driver


class Phone:
    """A page and its counters: taps (pointer) and keys ("suivant" presses)."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.keys = 0
        self.tallest = 0
        self.tallest_where = ""
        self.moved = None  # the field the cursor moved to by itself after the last number, if any

    def tap(self, locator) -> None:
        locator.tap()
        self.taps += 1
        if os.environ.get("BENCH_TRACE"):
            print("TAP", locator, file=sys.stderr)
        self.moved = None  # a tap: "suivant" is a move again (static/js/play/fields.js)

    def measure(self, where: str) -> None:
        height = self.page.evaluate("document.documentElement.scrollHeight")
        if height > self.tallest:
            self.tallest, self.tallest_where = height, where

    def order(self) -> list[str]:
        """The names of the typable fields of the step on screen, in the order "suivant" visits them."""
        return self.page.evaluate("""() => {
          const step = document.querySelector('[data-stage]:not([hidden])') || document.querySelector('form');
          return [...step.querySelectorAll('input, select, textarea')].filter(e =>
            e.matches('input[type=text], input:not([type]), input[type=number], select, textarea') &&
            !e.disabled && !e.readOnly && e.offsetParent !== null).map(e => e.name);
        }""")

    def type_into(self, name: str, value) -> None:
        page = self.page
        active = page.evaluate("document.activeElement && document.activeElement.name || ''")
        if active != name:
            order = self.order()
            ahead = order.index(name) - order.index(active) if active in order and name in order else -1
            # the cursor moved there by itself: its first "suivant" is taken as the habitual one (no
            # move), so the field after it costs two presses; a tap is one
            reach = ENTER_REACH - (1 if active == self.moved else 0)
            if 0 < ahead <= reach:
                for _ in range(ahead + (1 if active == self.moved else 0)):
                    page.keyboard.press("Enter")
                    self.keys += 1
                    if os.environ.get("BENCH_TRACE"):
                        print("KEY ->", name, file=sys.stderr)
                got = page.evaluate("document.activeElement && document.activeElement.name || ''")
                assert got == name, f"'suivant' went to {got!r}, not {name!r}"
            else:
                # a player scrolls the field into sight first (a scroll is not a tap); a tap on a
                # field the page has to scroll from under the sticky bar can leave it without a caret
                # counted as a tap; played as a click: headless Chromium's synthetic touch tap can
                # focus a text field without putting the caret in it (the keys typed then are lost)
                page.locator(f'[name="{name}"]').click()
                self.taps += 1
                self.moved = None
                if os.environ.get("BENCH_TRACE"):
                    print("TAP field", name, file=sys.stderr)
        if os.environ.get("BENCH_TRACE"):
            print("TYPE", name, value, file=sys.stderr)
        page.keyboard.type(str(value))
        after = page.evaluate("document.activeElement && document.activeElement.name || ''")
        self.moved = after if after != name else None  # a complete number: the cursor moved on
        got = page.locator(f'[name="{name}"]').input_value()
        # a fixed list's blank entry shows 0 and the typing lands after it: "01" reads as 1
        assert got.lstrip("0") == str(value).lstrip("0") or got == str(value), \
            f"{name}: typed {value}, the field shows {got!r}"

    def ensure_row(self, name: str) -> None:
        """A field of a row not shown yet: tap its list's "ajouter" (which puts the cursor in the
        new row's first number)."""
        page = self.page
        if page.locator(f'[name="{name}"], [name^="{name}-"]').count():
            return
        parts = name.split("-")
        for cut in range(len(parts) - 1, 0, -1):
            if parts[cut].isdigit():
                add = page.locator(f'button[name="add_row"][value="{"-".join(parts[:cut])}"]')
                if add.count():
                    self.ensure_row("-".join(parts[:cut]) + "-0")  # the list's own row first
                    self.tap(add.first)
                    if page.locator(f'[name="{name}"], [name^="{name}-"]').count():
                        return
        raise AssertionError(f"no field {name}")

    def page_order(self, items: list[tuple[str, object]]) -> list[tuple[str, object]]:
        """The entries in the order of the page (a row not added yet: where its list is)."""
        names = self.page.evaluate("""() => {
          const step = document.querySelector('[data-stage]:not([hidden])') || document.querySelector('form');
          return [...step.querySelectorAll('[name]')].map(e => e.name);
        }""")

        def where(name: str) -> float:
            if name in names:
                return names.index(name)
            prefix = name  # a row not added yet: after the rows its list has
            while prefix:
                cut = re.search(r"-\d+(?:-[^-]*)?$", prefix)
                prefix = prefix[:cut.start()] if cut else ""
                inside = [k for k, n in enumerate(names) if n.startswith(prefix + "-")] if prefix else []
                if inside:
                    return inside[-1] + 0.5
            return len(names)

        return [item for _, _, item in sorted((where(n), k, (n, v)) for k, (n, v) in enumerate(items))]

    def cities(self, items: list[tuple[str, object]]) -> list[tuple[str, object]]:
        """Rebirth's cities by taps (static/js/rebirth.js): "Nouvelle ville" with its size, then a tap
        on the pad per tile (its player and influence); a placement order is typed only where the one
        filled in from the order of entry is not the document's. Returns the other entries."""
        page = self.page
        if not page.locator("[data-new-city]:visible").count():
            return items
        cities: dict[int, dict] = {}
        rest = []
        for name, value in items:
            m = re.fullmatch(r"cities-(\d+)-(size|tiles-(\d+)-(player|influence|order))", name)
            if not m:
                rest.append((name, value))
                continue
            city = cities.setdefault(int(m[1]), {"tiles": {}})
            if m[2] == "size":
                city["size"] = value
            else:
                city["tiles"].setdefault(int(m[3]), {})[m[4]] = value
        for c in sorted(cities):
            city = cities[c]
            self.tap(page.locator(f'[data-new-city-size="{city["size"]}"]'))
            pad = page.locator(f'#f-cities-{c} [data-tile-pad]')
            for t in sorted(city["tiles"]):
                tile = city["tiles"][t]
                self.tap(pad.locator(f'button[data-player="{tile["player"]}"]'
                                     f'[data-influence="{tile["influence"]}"]'))
            for t in sorted(city["tiles"]):
                want = city["tiles"][t].get("order")
                order = page.locator(f'[name="cities-{c}-tiles-{t}-order"]')
                if want is not None and order.input_value() != str(want):
                    self.tap(order)
                    order.fill(str(want))
        return rest

    def fill_step(self, items: list[tuple[str, object]]) -> None:
        page = self.page
        later = []
        items = self.cities(items)
        for name, value in self.page_order(items):
            if name.startswith(("mode",)) or re.search(r"-mode$", name):
                later.append((name, value))
                continue
            if not page.locator(f'[name="{name}"]').count():
                first_row = re.sub(r"-\d+$", "-0", name)
                sibling = page.locator(f'[name="{first_row}"]')
                if sibling.count() and sibling.first.get_attribute("type") in ("checkbox", "radio"):
                    later.append((name, value))  # a row of boxes (towers): added with the taps
                    continue
            self.ensure_row(name)
            box = page.locator(f'[name="{name}"]').first
            kind = box.get_attribute("type") or box.evaluate("e => e.tagName.toLowerCase()")
            if kind in ("checkbox", "radio"):
                later.append((name, value))
            elif kind == "select":  # a native list: a tap opens it, a tap picks; the keyboard is gone
                self.tap(box)
                box.select_option(str(value))
                self.taps += 1
                box.evaluate("e => e.blur()")
            else:
                # a box of the same group just before (Revive's "Débloquée" before its cards): ticked
                # in page order, it puts the cursor in this number (static/js/play/fields.js)
                group = name.rsplit("-", 1)[0] + "-"
                boxes = [(n, v) for n, v in later
                         if (re.search(r"[a-z_]+-\d+-$", group) and group.count("-") > 2
                             and n.startswith(group) and n.count("-") == name.count("-"))
                         and page.locator(f'[name="{n}"]').first.get_attribute("type") == "checkbox"]
                for box_name, _ in boxes:
                    later.remove((box_name, _))
                    self.tap(page.locator(f'label:has(> input[name="{box_name}"])'))
                self.type_into(name, value)
        for name, value in later:
            self.ensure_row(name)
            box = page.locator(f'[name="{name}"]')
            if box.first.get_attribute("type") == "radio":
                self.tap(page.locator(f'label:has(> input[name="{name}"][value="{value}"])'))
            else:
                self.tap(page.locator(f'label:has(> input[name="{name}"])'))


def paint(phone: Phone, seat: int, grid: dict) -> None:
    """Paint a community on the board (board.js): whole tiles where a tile is one terrain, then the
    marks, each tool chosen once."""
    page = phone.page
    root = page.locator(f'[data-board="players-{seat}-grid"]')
    terrain = grid["terrain"]
    by_tool: dict[str, list[tuple[int, int]]] = {}
    singles: dict[str, list[tuple[int, int]]] = {}
    source_tiles = {tuple(t) for t in grid.get("sources", [])}
    for tr in range(4):
        for tc in range(4):
            if (tr, tc) in source_tiles:
                continue  # the source tool paints its tile in water
            letters = {terrain[2 * tr + dr][2 * tc + dc] for dr in (0, 1) for dc in (0, 1)}
            if len(letters) == 1:
                by_tool.setdefault(letters.pop(), []).append((2 * tr, 2 * tc))
            else:
                for dr in (0, 1):
                    for dc in (0, 1):
                        r, c = 2 * tr + dr, 2 * tc + dc
                        singles.setdefault(terrain[r][c], []).append((r, c))
    cols = "ABCDEFGH"

    def square(r, c):
        return root.locator(f'button.sq[data-square="{cols[c]}{r + 1}"]')

    for groups in (by_tool, singles):  # "Tuile entière" on for whole tiles, then off for squares
        if groups:
            phone.tap(root.locator("button[data-whole]"))
        for letter, squares in groups.items():
            phone.tap(root.locator(f'button[data-tool="{letter}"]'))
            for r, c in squares:
                phone.tap(square(r, c))
    for mark in ("sources", "relics", "relic_tokens", "junk", "inhabitants"):
        spots = grid.get(mark, [])
        if spots:
            phone.tap(root.locator(f'button[data-tool="{mark}"]'))
            for r, c in spots:
                phone.tap(square(2 * r, 2 * c) if mark == "sources" else square(r, c))


def play(page, base: str, key: str, doc: dict) -> dict:
    phone = Phone(page)
    names = [p["name"] for p in doc["players"]]
    page.goto(f"{base}/nouvelle?game={doc['game']}&variant={doc['variant']}")
    phone.measure("nouvelle partie")
    # the first name has the cursor when the page opens (else tapped), the others reached with
    # "suivant"; "suivant" on the blank seat after the last name, or on the last seat, starts the game
    if page.evaluate("document.activeElement && document.activeElement.name") != "players-0-name":
        phone.tap(page.locator('[name="players-0-name"]'))
    for i, name in enumerate(names):
        if i:
            page.keyboard.press("Enter")
            phone.keys += 1
            assert page.evaluate("document.activeElement.name") == f"players-{i}-name"
        page.keyboard.type(name)
    for _ in range(2):
        page.keyboard.press("Enter")
        phone.keys += 1
        try:
            page.wait_for_url(re.compile(r"/g/[\w-]+/$"), timeout=3000)
            break
        except Exception:  # noqa: BLE001 - still on the new-game page: one more "suivant"
            continue
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    steps = entries(doc)
    has_table = page.locator("[data-stage=table]").count() > 0
    if not has_table:
        steps = steps[1:]
    for k, items in enumerate(steps):
        if k:
            phone.tap(page.locator("[data-next]"))
        seat = k - 1 if has_table else k
        phone.fill_step([(n, v) for n, v in items if not re.search(r"-grid-", n)])
        if seat >= 0 and "grid" in doc["players"][seat]:
            paint(phone, seat, doc["players"][seat]["grid"])
        phone.measure(f"étape {k + 1}")
        if os.environ.get("BENCH_SHOTS"):  # a picture of each step, to look at
            page.screenshot(path=f"{os.environ['BENCH_SHOTS']}/{key}-{k + 1}.png", full_page=True)
    try:
        page.wait_for_function("() => !document.querySelector('#save-state.busy')")
    except Exception as exc:
        raise AssertionError("still saving: " + page.locator("#save-state").inner_text()
                             + " / " + page.locator("#play-notice").inner_text()) from exc
    phone.tap(page.get_by_role("button", name="Voir les résultats"))
    page.wait_for_url(re.compile(r"/resultats$"))
    results_height = page.evaluate("document.documentElement.scrollHeight")
    shown = [int(t.replace("\u2212", "-")) for t in page.locator("tr.totals td").all_inner_texts()]
    expected = [p.total for p in games.score(doc).players]
    assert shown == expected, f"{key}: the results page shows {shown}, the engine gives {expected}"
    return {"taps": phone.taps, "keys": phone.keys, "tallest": phone.tallest, "where": phone.tallest_where,
            "totals": shown, "results": results_height}


def px(n: int) -> str:
    return f"{n:,} px".replace(",", "\u202f")


def serve():
    from werkzeug.serving import make_server

    from companion import create_app
    from companion.extensions import db

    tmp = Path(tempfile.mkdtemp(prefix="bench-taps-"))
    os.environ["COMPANION_INSTANCE"] = str(tmp / "instance")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'bench.sqlite3'}",
                      "RATELIMIT_ENABLED": False})
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    server.app = app
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def main() -> int:
    from playwright.sync_api import sync_playwright

    server, base = serve()
    rows = []
    failures = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        chosen = sys.argv[1:]  # scenario keys to run (all by default)
        for key, label, make in SCENARIOS:
            if chosen and key not in chosen:
                continue
            context = browser.new_context(viewport={"width": 390, "height": SCREEN}, is_mobile=True,
                                          has_touch=True, locale="fr-FR")
            if os.environ.get("BENCH_NOAUTO"):  # the page's "Auto" switch off: no move by itself
                context.add_init_script("localStorage.setItem('companion-auto-next', 'off')")
            page = context.new_page()
            page.set_default_timeout(15_000)
            try:
                rows.append((key, label, play(page, base, key, make())))
            except Exception as exc:  # noqa: BLE001 - reported, and the run fails
                failures.append(f"{key}: {exc!r}")
                rows.append((key, label, None))
            finally:
                context.close()
        browser.close()
    server.shutdown()
    print("| partie | tapes avant (hauteur) | objectif | tapes | touches « suivant » | "
          "page la plus haute (étape) | page des résultats |")
    print("|---|---|---|---|---|---|---|")
    for key, label, r in rows:
        taps, height = BEFORE[key]
        goal = GOAL.get(key, taps // 2)
        if r is None:
            print(f"| {label} | {taps} | ≤ {goal} | échec | | | |")
            continue
        ok = "✓" if r["taps"] <= goal else "✗"
        tall = "✓" if r["tallest"] <= 3 * SCREEN else "✗"
        print(f"| {label} | {taps} (~{px(height)}) | ≤ {goal} | {r['taps']} {ok} | {r['keys']} | "
              f"{px(r['tallest'])} {tall} ({r['where']}) | {px(r['results'])} |")
    for f in failures:
        print("ÉCHEC", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
