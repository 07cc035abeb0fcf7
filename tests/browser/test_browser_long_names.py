"""Long names with spaces (up to the form's 40 characters) wrap between their words on a 390 px phone,
never in the middle of one: on every page that shows players' names, with every step of the edit page
shown in turn. A word wider than its line may still be cut (a score pad's column at four players is
some 60 px): that is the only way it fits, since a name is never shortened with "…"."""

from __future__ import annotations

import json

import pytest
from played import store_games
from test_play_rebirth import IRELAND

from browser_helpers import each_step
from document_helpers import load_example

pytestmark = pytest.mark.browser

LONG = ("Marie-Christine de la Tour d'Auvergne", "Jean-Baptiste Alexandre Delacroix",
        "Anne-Sophie Montgomery-Fitzgerald", "Guillaume Maximilien Beauregard")

# Each piece of a name between spaces and hyphens (where a line may break) sits on one line: a Range
# over it in the page's text has its boxes on a single line.
BROKEN = """(pieces) => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.data;
    for (const piece of pieces) {
      for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + 1)) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + piece.length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                                                      .map(r => Math.round(r.top)));
        if (tops.size < 2) continue;
        // cut: fair only in a table's fixed column (a score pad's or the statistics' names) when the
        // piece alone is wider than the column's line
        const box = node.parentElement, style = getComputedStyle(box);
        const fixed = box.closest('.pad thead, .stats-table .pcol');
        const probe = document.createElement('span');
        probe.style.whiteSpace = 'nowrap';
        probe.textContent = piece;
        box.appendChild(probe);
        const wide = probe.getBoundingClientRect().width;
        probe.remove();
        const line = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        if (!fixed || wide <= line) {
          found.push(`${piece} (${Math.round(wide)} px) in a ${Math.round(line)}-px ` +
                     `<${box.tagName.toLowerCase()} class="${box.className}">`);
        }
      }
    }
  }
  return found;
}"""


def renamed(doc: dict) -> dict:
    """The document with its players' names (wherever the document says them) made long."""
    text = json.dumps(doc, ensure_ascii=False)
    for player, long_name in zip(doc["players"], LONG, strict=False):
        text = text.replace(json.dumps(player["name"], ensure_ascii=False), json.dumps(long_name))
    return json.loads(text)


def pieces() -> list[str]:
    return sorted({p for name in LONG for word in name.split() for p in word.split("-") if len(p) > 3})


def test_long_names_wrap_between_words(phone, live_server):
    docs = [renamed(d) for d in (load_example("rebirth-scotland.json"), IRELAND,
                                 load_example("reterra.json"), load_example("revive-abyss.json"))]
    records = store_games(live_server.app, "long-names", docs)
    phone.context.add_cookies([{"name": "companion_device", "value": "long-names", "url": live_server.url}])
    found: dict[str, list[str]] = {}

    def read(path: str, label: str | None = None) -> None:
        phone.goto(phone.base_url + path)
        phone.wait_for_load_state("load")
        found[label or path] = phone.evaluate(BROKEN, pieces())

    for record in records:
        edit = f"/g/{record.edit_token}/"
        read(edit, f"{record.variant} edit")
        for step in each_step(phone):
            found[f"{record.variant} step {step}"] = phone.evaluate(BROKEN, pieces())
        if record.game == "rebirth":
            read(edit + "outils/ville", f"{record.variant} city tool")
            read(edit + "outils/chateau", f"{record.variant} castle tool")
        read(edit + "joueurs", f"{record.variant} players")
        read(edit + "resultats", f"{record.variant} results")
        read(f"/r/{record.view_token}/", f"{record.variant} shared")
        read(f"/r/{record.view_token}/ecran", f"{record.variant} table screen")
        read(edit + "historique", f"{record.variant} log")
    read("/parties")
    read("/statistiques")
    assert {where: cut for where, cut in found.items() if cut} == {}
