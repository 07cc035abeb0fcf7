/* Reterra: the community board editor, and each player's building steppers kept in line with the
   cards in play. Progressive enhancement of templates/play/reterra.html: without this file the same
   fields are plain text inputs (companion/forms/reterra.py reads them either way).

   The board never counts anything itself: the engine does, through POST /api/v1/reterra/grid
   (debounced); this file only paints squares, writes the inputs and shows what the engine found. */
(function () {
  "use strict";

  var SIZE = 8;
  var COLS = "ABCDEFGH";
  var TERRAINS = ["F", "E", "D", "P", "R"].map(function (k) { return [k, T("terrain_" + k)]; });
  var NAMES = {};
  TERRAINS.forEach(function (t) { NAMES[t[0]] = t[1]; });
  var MARKS = [
    "sources", "relics", "relic_tokens", "junk", "inhabitants"
  ].map(function (k) { return [k, T("mark_" + k), T("mark_" + k + "_long")]; });
  var UNPAINTED = ".";
  var DELAY = 300;

  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fire(input) { input.dispatchEvent(new Event("input", { bubbles: true })); }
  function name(r, c) { return COLS[c] + (r + 1); }
  function key(r, c) { return r + "," + c; }

  /* The "A1 C4" notation of companion/forms/reterra.py (lenient: the server reports bad tokens). */
  function parse(text, tiles) {
    var out = [], seen = {};
    (text || "").split(/[\s,;]+/).forEach(function (token) {
      var m = /^([A-Ha-h])\s*([1-8])$/.exec(token);
      if (!m) return;
      var r = parseInt(m[2], 10) - 1, c = COLS.indexOf(m[1].toUpperCase());
      if (tiles) { r = r >> 1; c = c >> 1; }
      if (!seen[key(r, c)]) { seen[key(r, c)] = true; out.push([r, c]); }
    });
    return out;
  }
  function write(pairs, tiles) {
    return pairs.map(function (p) { return tiles ? name(2 * p[0], 2 * p[1]) : name(p[0], p[1]); }).join(" ");
  }

  /* Engine messages name squares [row, col]: say them the way the board is labelled. */
  function readable(message) {
    return message
      .replace(/\b(case|tuile|square|tile) \[(\d+), (\d+)\]/g, function (m, kind, r, c) {
        r = parseInt(r, 10); c = parseInt(c, 10);
        if (kind === "tuile" || kind === "tile") {
          return r < 4 && c < 4 ? kind + " " + name(2 * r, 2 * c) + "-" + name(2 * r + 1, 2 * c + 1) : m;
        }
        return r < SIZE && c < SIZE ? kind + " " + name(r, c) : m;
      })
      .replace(/ \((?:relics|relic_tokens|junk|inhabitants|sources)\[\d+\]\)/g, "")
      .replace(/(en colonne|in column) (\d)\b/g, function (m, w, c) { return c < SIZE ? w + " " + COLS[c] : m; });
  }

  /* ---------------------------------------------------------------- one board */

  function Board(root) {
    this.root = root;
    this.prefix = root.dataset.board;            // players-0-grid
    this.api = root.dataset.api;
    this.rows = $all("input[data-terrain-row]", root);
    this.marks = {};
    var self = this;
    $all("input[data-mark]", root).forEach(function (input) { self.marks[input.dataset.mark] = input; });
    this.readout = root.querySelector("[data-readout]");
    this.calc = root.querySelector("[data-calc]");
    this.tool = "F";
    this.wholeTile = false;
    this.seq = 0;
    this.timer = null;
    this.good = null;    // last analysis the engine accepted
    this.read();
    this.flag();
    this.build();
    this.render();
    this.analyse(true);
  }

  Board.prototype.read = function () {
    var terrain = [];
    this.rows.forEach(function (input) {
      var text = (input.value || "").replace(/\s+/g, "").toUpperCase();
      for (var c = 0; c < SIZE; c++) {
        var ch = text.charAt(c);
        terrain.push(NAMES[ch] ? ch : UNPAINTED);
      }
    });
    this.terrain = terrain;
    this.sets = {};
    var self = this;
    MARKS.forEach(function (m) {
      var set = {};
      parse(self.marks[m[0]] ? self.marks[m[0]].value : "", m[0] === "sources").forEach(function (p) { set[key(p[0], p[1])] = p; });
      self.sets[m[0]] = set;
    });
  };

  Board.prototype.list = function (mark) {
    var set = this.sets[mark];
    return Object.keys(set).map(function (k) { return set[k]; });
  };

  Board.prototype.painted = function () {
    return this.terrain.filter(function (t) { return t !== UNPAINTED; }).length;
  };

  Board.prototype.marked = function () {
    var sets = this.sets;
    return MARKS.some(function (m) { return Object.keys(sets[m[0]]).length > 0; });
  };

  /* A board begun but not finished is no community yet (the server refuses it): its inputs are kept
     out of the autosave (data-local, read by play/autosave.js) and only written to the phone's draft, so
     nothing painted is lost; a full "Enregistrer" / "Voir les résultats" still posts them. */
  Board.prototype.flag = function () {
    var local = this.painted() !== SIZE * SIZE && (this.painted() > 0 || this.marked());
    this.inputs().forEach(function (input) {
      if (local) input.setAttribute("data-local", "");
      else input.removeAttribute("data-local");
    });
    return local;
  };

  Board.prototype.inputs = function () {
    var self = this;
    return this.rows.concat(MARKS.map(function (m) { return self.marks[m[0]]; }).filter(Boolean));
  };

  Board.prototype.write = function () {
    var empty = this.painted() === 0, terrain = this.terrain, self = this, changed = null;
    this.rows.forEach(function (input, r) {
      var value = empty ? "" : terrain.slice(r * SIZE, r * SIZE + SIZE).join("");
      if (input.value !== value) { input.value = value; changed = changed || input; }
    });
    MARKS.forEach(function (m) {
      var input = self.marks[m[0]];
      if (!input) return;
      var value = write(self.list(m[0]), m[0] === "sources");
      if (input.value !== value) { input.value = value; changed = changed || input; }
    });
    /* A half-painted board is not a community yet: it goes to the draft on this phone at each tap,
       and to the server once its 64 squares are painted. */
    var local = this.flag();
    if (changed) {
      if (local) changed.dispatchEvent(new CustomEvent("draft", { bubbles: true }));
      else fire(changed);
    }
  };

  Board.prototype.build = function () {
    var self = this;
    var tools = el("div", "board-tools");
    tools.setAttribute("role", "toolbar");
    tools.setAttribute("aria-label", T("board_tools"));
    var terrainRow = el("div", "tool-row terrains");
    TERRAINS.forEach(function (t) {
      var b = el("button", "tool t-" + t[0]);
      b.type = "button";
      b.dataset.tool = t[0];
      b.appendChild(el("span", "tl", t[0]));
      b.appendChild(el("span", "tn", t[1]));
      b.setAttribute("aria-label", T("paint", {terrain: t[1]}));
      terrainRow.appendChild(b);
    });
    var markRow = el("div", "tool-row marks");
    MARKS.forEach(function (m) {
      var b = el("button", "tool mk-" + m[0]);
      b.type = "button";
      b.dataset.tool = m[0];
      b.appendChild(el("span", "glyph"));
      b.appendChild(el("span", "tn", m[1]));
      b.setAttribute("aria-label", T("toggle_mark", {mark: m[2]}));
      markRow.appendChild(b);
    });
    var tile = el("button", "tool whole", T("whole_tile"));
    tile.type = "button";
    tile.dataset.whole = "";
    tile.setAttribute("aria-pressed", "false");
    tile.title = T("whole_tile_title");
    var help = el("p", "hint board-help", T("board_help"));
    tools.appendChild(terrainRow);
    tools.appendChild(markRow);
    var opts = el("div", "tool-row options");
    opts.appendChild(tile);
    tools.appendChild(opts);

    var board = el("div", "board");
    board.setAttribute("role", "group");
    board.setAttribute("aria-label", T("board_label"));
    this.squares = [];
    this.tiles = [];
    for (var tr = 0; tr < 4; tr++) {
      for (var tc = 0; tc < 4; tc++) {
        var t = el("div", "tile");
        t.dataset.tile = key(tr, tc);
        this.tiles.push(t);
        for (var dr = 0; dr < 2; dr++) {
          for (var dc = 0; dc < 2; dc++) {
            var r = 2 * tr + dr, c = 2 * tc + dc;
            var sq = el("button", "sq");
            sq.type = "button";
            sq.dataset.square = name(r, c);
            sq.dataset.r = r;
            sq.dataset.c = c;
            sq.appendChild(el("span", "lt"));
            sq.appendChild(el("span", "mk relic"));
            sq.appendChild(el("span", "mk junk"));
            sq.appendChild(el("span", "mk inhab"));
            t.appendChild(sq);
            this.squares[r * SIZE + c] = sq;
          }
        }
        board.appendChild(t);
      }
    }
    this.status = el("p", "board-status");
    this.status.setAttribute("aria-live", "polite");
    this.problems = el("div", "board-problems");
    this.problems.setAttribute("role", "alert");

    var first = this.root.firstChild;
    this.root.insertBefore(tools, first);
    this.root.insertBefore(help, first);
    this.root.insertBefore(board, first);
    this.root.insertBefore(this.status, first);
    this.root.insertBefore(this.problems, first);
    this.root.classList.add("board-js");
    var legend = this.root.querySelector("[data-board-legend]");
    if (legend) {  // what the two tones mean, right under the board that shows them
      board.parentNode.insertBefore(legend, this.status);
      legend.hidden = false;
    }
    if (this.readout) {
      this.readout.hidden = false;
      board.parentNode.insertBefore(this.readout, this.status);
    }

    tools.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b) return;
      if (b.hasAttribute("data-whole")) {
        self.wholeTile = !self.wholeTile;
        b.setAttribute("aria-pressed", String(self.wholeTile));
      } else if (b.dataset.tool) {
        self.tool = b.dataset.tool;
      }
      self.renderTools();
    });
    board.addEventListener("click", function (e) {
      var sq = e.target.closest("button.sq");
      if (sq) self.tap(parseInt(sq.dataset.r, 10), parseInt(sq.dataset.c, 10));
    });
    this.toolButtons = $all("button[data-tool]", tools);
    this.renderTools();

    /* Autosave writes the server's messages into the text fields' error slots: say them in A1 notation. */
    if (window.MutationObserver) {
      var observer = new MutationObserver(function () {
        $all(".field-error", self.root).forEach(function (p) {
          var text = readable(p.textContent);
          if (text !== p.textContent) p.textContent = text;
        });
      });
      $all(".field-error", this.root).forEach(function (p) {
        observer.observe(p, { childList: true, characterData: true, subtree: true });
      });
    }
  };

  Board.prototype.renderTools = function () {
    var tool = this.tool;
    this.toolButtons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.tool === tool)); });
  };

  Board.prototype.tap = function (r, c) {
    var tool = this.tool, k = key(r, c), s = this.sets, self = this;
    function paint(rr, cc, letter) { self.terrain[rr * SIZE + cc] = letter; }
    if (NAMES[tool]) {
      if (this.wholeTile) {
        var tr = r >> 1, tc = c >> 1;
        for (var d = 0; d < 4; d++) paint(2 * tr + (d >> 1), 2 * tc + (d & 1), tool);
      } else {
        paint(r, c, tool);
      }
    } else if (tool === "sources") {
      var tk = key(r >> 1, c >> 1);
      if (s.sources[tk]) delete s.sources[tk];
      else {
        s.sources[tk] = [r >> 1, c >> 1];
        for (var e = 0; e < 4; e++) paint(2 * (r >> 1) + (e >> 1), 2 * (c >> 1) + (e & 1), "E");
      }
    } else {
      if (s[tool][k]) delete s[tool][k];
      else {
        s[tool][k] = [r, c];
        /* one relic per square: a token replaces a printed relic and the other way round */
        if (tool === "relics") delete s.relic_tokens[k];
        if (tool === "relic_tokens") delete s.relics[k];
      }
    }
    this.write();
    this.render();
    this.analyse(false);
  };

  Board.prototype.render = function () {
    var s = this.sets;
    for (var r = 0; r < SIZE; r++) {
      for (var c = 0; c < SIZE; c++) {
        var sq = this.squares[r * SIZE + c], t = this.terrain[r * SIZE + c], k = key(r, c);
        sq.classList.remove("t-F", "t-E", "t-D", "t-P", "t-R", "t-none", "relic", "token", "junked", "inhab");
        sq.classList.add(NAMES[t] ? "t-" + t : "t-none");
        sq.querySelector(".lt").textContent = NAMES[t] ? t : "?";
        var words = [T("square_is", {square: name(r, c), what: NAMES[t] || T("to_paint")})];
        if (s.relics[k]) { sq.classList.add("relic"); words.push(T("relic")); }
        if (s.relic_tokens[k]) { sq.classList.add("relic", "token"); words.push(T("relic_token")); }
        if (s.junk[k]) { sq.classList.add("junked"); words.push(T("junk")); }
        if (s.inhabitants[k]) { sq.classList.add("inhab"); words.push(T("inhabitant")); }
        if (s.sources[key(r >> 1, c >> 1)]) words.push(T("source"));
        sq.setAttribute("aria-label", words.join(", "));
      }
    }
    this.tiles.forEach(function (tile) { tile.classList.toggle("source", !!s.sources[tile.dataset.tile]); });
  };

  Board.prototype.analyse = function (now) {
    var self = this;
    clearTimeout(this.timer);
    var left = SIZE * SIZE - this.painted();
    if (left) {
      this.seq++;  // an answer still on its way is now out of date
      this.busy(false);
      this.clearFound();
      this.showProblems([]);
      this.status.textContent = left === SIZE * SIZE ? T("board_empty") :
        T(left > 1 ? "board_left" : "board_left_one", {n: left});
      this.figures(null);
      return;
    }
    this.status.textContent = "";
    this.busy(true);
    this.timer = setTimeout(function () { self.send(); }, now ? 0 : DELAY);
  };

  Board.prototype.payload = function () {
    var grid = { terrain: [] }, self = this;
    for (var r = 0; r < SIZE; r++) grid.terrain.push(this.terrain.slice(r * SIZE, r * SIZE + SIZE).join(""));
    MARKS.forEach(function (m) { var l = self.list(m[0]); if (l.length) grid[m[0]] = l; });
    return { grid: grid };
  };

  Board.prototype.send = function () {
    var self = this, seq = ++this.seq;
    if (!window.fetch) { this.busy(false); return; }
    fetch(this.api, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(this.payload())
    }).then(function (response) {
      return response.json().then(function (data) { return [response.status, data]; },
                                   function () { return [response.status, null]; });
    }).then(function (res) {
      if (seq !== self.seq) return;
      self.busy(false);
      if (res[0] === 200 && res[1]) {
        self.good = res[1];
        self.showProblems([]);
        self.figures(res[1]);
        self.showFound(res[1]);
      } else if (res[0] === 422 && res[1] && res[1].errors) {
        self.showProblems(res[1].errors.map(function (p) { return readable(p.message); }));
        self.readout.classList.add("stale");
      } else {
        self.showProblems([T("calc_failed", {status: res[0]})]);
      }
    }).catch(function () {
      if (seq !== self.seq) return;
      self.busy(false);
      self.showProblems([T("calc_offline")]);
    });
  };

  Board.prototype.busy = function (on) {
    if (this.calc) this.calc.hidden = !on;
    if (this.readout) this.readout.classList.toggle("busy", on);
  };

  Board.prototype.figures = function (found) {
    if (!this.readout) return;
    this.readout.classList.remove("stale");
    $all("li[data-key]", this.readout).forEach(function (li) {
      var k = li.dataset.key;
      li.querySelector("[data-count]").textContent = found ? found.counts[k] : "–";
      var pts = found ? found.points[k] : null;
      li.querySelector("[data-points]").textContent = pts === null ? "–" : (pts > 0 ? "+" : "") + String(pts).replace("-", "\u2212") + " pts";
    });
    this.readout.querySelector("[data-total]").textContent = found ? found.total + " pts" : "–";
  };

  Board.prototype.clearFound = function () {
    this.squares.forEach(function (sq) { sq.classList.remove("seg", "e-t", "e-b", "e-l", "e-r"); });
    this.tiles.forEach(function (t) { t.classList.remove("scored", "edge"); });
  };

  Board.prototype.showFound = function (found) {
    var self = this;
    this.clearFound();
    found.segments.forEach(function (seg) {
      var inSeg = {};
      seg.squares.forEach(function (p) { inSeg[key(p[0], p[1])] = true; });
      seg.squares.forEach(function (p) {
        var sq = self.squares[p[0] * SIZE + p[1]];
        sq.classList.add("seg");
        if (!inSeg[key(p[0] - 1, p[1])]) sq.classList.add("e-t");
        if (!inSeg[key(p[0] + 1, p[1])]) sq.classList.add("e-b");
        if (!inSeg[key(p[0], p[1] - 1)]) sq.classList.add("e-l");
        if (!inSeg[key(p[0], p[1] + 1)]) sq.classList.add("e-r");
      });
    });
    found.sources.forEach(function (src) {
      var tile = self.tiles[src.tile[0] * 4 + src.tile[1]];
      tile.classList.add(src.scored ? "scored" : "edge");
    });
  };

  Board.prototype.showProblems = function (lines) {
    this.problems.textContent = "";
    var self = this;
    lines.forEach(function (line) { self.problems.appendChild(el("p", "board-problem", line)); });
  };

  /* Switching a drawn community to "compter sur le plateau": its counts, when nothing was typed yet. */
  Board.prototype.fillCounts = function () {
    if (!this.good) return;
    var base = this.prefix.replace(/-grid$/, "-"), counts = this.good.counts, inputs = [];
    Object.keys(counts).forEach(function (k) {
      var input = document.querySelector('input[name="' + base + k + '"]');
      if (input) inputs.push([input, counts[k]]);
    });
    if (inputs.some(function (p) { return p[0].value.trim() !== ""; })) return;
    inputs.forEach(function (p) { p[0].value = String(p[1]); });
    if (inputs.length) fire(inputs[0][0]);
  };

  var boards = $all("[data-board]").map(function (root) { return new Board(root); });
  /* Back in range after a dead zone: recount what was painted meanwhile. */
  window.addEventListener("online", function () { boards.forEach(function (b) { b.analyse(true); }); });

  /* Another phone's board, taken in by the autosave (play/autosave.js): drawn again from the fields, and
     counted again when it changed (its figures under the board were the old board's). */
  document.addEventListener("adopted", function () {
    boards.forEach(function (b) {
      var before = JSON.stringify(b.payload());
      b.read(); b.flag(); b.render();
      if (JSON.stringify(b.payload()) !== before) b.analyse(true);
    });
  });

  document.addEventListener("change", function (e) {
    var t = e.target;
    if (!t.name || t.type !== "radio" || !/-mode$/.test(t.name) || t.value !== "counts") return;
    boards.forEach(function (b) { if (b.prefix === t.name.replace(/-mode$/, "-grid")) b.fillCounts(); });
  });

  /* ---------------------------------------------------------------- buildings */

  var cardsBox = document.querySelector('[data-rows="buildings"]');
  var builtBoxes = $all("[data-built]");
  if (!cardsBox || !builtBoxes.length) return;

  function cardRows() { return $all("[data-row]", cardsBox); }
  function cardName(row) {
    var input = row && row.querySelector('input[name$="-name"]');
    return input ? input.value.trim() : "";
  }
  var known = cardRows();

  /* Each player's steppers follow the card rows by position: a removed row takes its counts with it. */
  function sync() {
    var rows = cardRows(), moved = false;
    builtBoxes.forEach(function (box) {
      var items = $all("[data-card]", box);
      var before = new Map();
      known.forEach(function (row, k) { if (items[k]) before.set(row, items[k].querySelector("input").value); });
      var any = false;
      items.forEach(function (item, k) {
        var row = rows[k], input = item.querySelector("input"), label = item.querySelector("label");
        var value = row && before.has(row) ? before.get(row) : "";
        if (input.value !== value) { input.value = value; moved = true; }
        var title = cardName(row);
        item.hidden = !title;
        any = any || !!title;
        if (label) label.textContent = title || "Carte " + (k + 1);
      });
      var none = box.querySelector("[data-no-cards]");
      if (none) none.hidden = any;
    });
    known = rows;
    if (moved) fire(builtBoxes[0].querySelector("input"));
  }

  cardsBox.addEventListener("input", function (e) {
    var t = e.target;
    if (!t.name || !/^buildings-\d+-name$/.test(t.name)) return;
    var id = t.closest("[data-row]").querySelector('input[name$="-id"]');
    if (id) id.value = "";  // the card's id follows its (new) name
    sync();
  });
  if (window.MutationObserver) {
    new MutationObserver(sync).observe(cardsBox, { childList: true, subtree: true });
  }
  /* Cards and counts taken in from another phone (play/autosave.js): both are what the server holds, rows
     it added included, so every count stays where it is and only the labels follow. Without this,
     a card row added for another phone's card moved the counts as if this phone had added it, and
     blanked the other phone's count for it. */
  document.addEventListener("adopted", function () { known = cardRows(); sync(); follow(); });

  /* A count a save left out because it only moved with its card (below) is not this phone's: once
     the page hears what the server holds, it shows the server's count for that card (another phone
     may have changed it meanwhile), unless the player changed it since. Without this the page kept
     its own, said "Enregistré" while the server held the other phone's, and its next save (from a
     base that is the server's) wrote it over the other phone's without a word. */
  function follow() {
    var input = owner && owner.querySelector("input[name=base_values]"), base = {}, rows = {};
    try { base = JSON.parse(input ? input.value : "{}") || {}; } catch (err) { base = {}; }
    Object.keys(base).forEach(function (n) {
      var m = /^buildings-(\d+)-name$/.exec(n);
      if (m && base[n]) rows[base[n].trim().toLowerCase()] = m[1];
    });
    var list = cardRows();
    Object.keys(followed).forEach(function (n) {
      var m = /^players-(\d+)-built-(\d+)$/.exec(n), field = document.getElementsByName(n)[0];
      var row = rows[cardName(list[+m[2]]).toLowerCase()];
      if (!field || field.value !== followed[n] || row === undefined) return;
      field.value = base["players-" + m[1] + "-built-" + row] || "";
    });
    followed = {};
  }

  /* A save says which card each count was typed for (its name on this page): the server puts it on
     that card wherever the card is stored now (another phone may have removed a card above it since,
     and the rows moved up), and says so when the card is gone. A count is sent card by card: it is a
     change only when it differs from what the base held for that card, so a card removed here moves
     no count (the server keeps each card's counts with it). */
  var owner = cardsBox.closest("form");
  var followed = {};  // count field -> its value when a save left it out as only moved with its card
  if (owner) owner.addEventListener("sending", function (e) {
    var changes = e.detail.changes, keys = e.detail.keys, base = e.detail.base || {};
    var rows = cardRows(), was = {};
    followed = {};
    Object.keys(base).forEach(function (n) {
      var m = /^buildings-(\d+)-name$/.exec(n);
      if (m && base[n]) was[base[n].trim().toLowerCase()] = m[1];
    });
    Object.keys(changes).forEach(function (n) {
      var m = /^players-(\d+)-built-(\d+)$/.exec(n);
      if (!m) return;
      var card = cardName(rows[+m[2]]);
      if (!card) { delete changes[n]; return; }  // no card on this row: no count to keep
      var row = was[card.toLowerCase()];
      var before = row === undefined ? "" : (base["players-" + m[1] + "-built-" + row] || "");
      if (before === changes[n][1]) { followed[n] = changes[n][1]; delete changes[n]; return; }
      changes[n] = [before, changes[n][1]];
      keys[n] = card;
    });
  });
})();

/* Reterra's building cards: a card this device used before goes into the next blank card row in
   one tap (its name and points), the list growing through play/fields.js's "Ajouter une carte". */
(function () {
  "use strict";
  var picker = document.querySelector("[data-card-picker]");
  var list = document.querySelector('[data-rows="buildings"]');
  if (!picker || !list) return;
  picker.hidden = false;
  function blankRow() {
    var names = Array.prototype.slice.call(list.querySelectorAll('input[name$="-name"]'));
    return names.filter(function (i) { return !i.value.trim(); })[0] || null;
  }
  picker.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-card-name]");
    if (!b) return;
    var input = blankRow();
    if (!input) {
      var add = list.querySelector('button[name="add_row"][value="buildings"]');
      if (!add || add.hidden) return;
      add.click();
      input = blankRow();
    }
    if (!input) return;
    var points = document.getElementsByName(input.name.replace(/-name$/, "-points"))[0];
    input.value = b.dataset.cardName;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    if (points) { points.value = b.dataset.cardPoints; points.dispatchEvent(new Event("input", { bubbles: true })); }
    b.hidden = true;
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
  });
})();
