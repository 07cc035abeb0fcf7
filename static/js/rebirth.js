/* Rebirth's cities (templates/play/rebirth.html). Optional: without it every city and every tile's
   fields are shown; the fields are the same either way, and so is what a save sends.

   1. Entered by taps (issue 24). "Nouvelle ville : 1 / 2 / 3 cases" adds a city with its size (one
      tap); the city's pad adds a tile with its player and influence (one tap: a button per player and
      influence). The tiles are the generic rows of play/fields.js (added by its "Ajouter une tuile", so the
      autosave's new rows and their merge are the usual ones); each shows as one line, in the order
      they were entered, a tap on it showing its fields. The placement order is asked for only when
      R4 needs it: a complete city where players tie on influence. Then it is filled in from the order
      of entry (1 = entered first), shown beside each tile and changeable; once the tie is gone, the
      orders this script filled are taken away again (the document says no order it does not need).
   2. One city open at a time: a city the table has moved on from (another one added or opened) folds
      into one line saying what it holds ("Ville 1 · 2 cases · Aoife 3, Brian 2"), a tap opens it
      again. Keeps the table's step within a few screens however many cities there are. */
(function () {
  "use strict";

  var list = document.querySelector('[data-rows="cities"]');
  if (!list) return;
  var form = list.closest("form");

  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function ownerOf(el) { return el.parentNode ? el.parentNode.closest("[data-rows]") : null; }
  function rowsOf(box) { return $all("[data-row]", box).filter(function (r) { return ownerOf(r) === box; }); }
  function addButtonOf(box) {
    return $all('button[name="add_row"]', box).filter(function (b) { return ownerOf(b) === box; })[0] || null;
  }
  function rows() { return rowsOf(list); }
  function fire(el) { el.dispatchEvent(new Event("input", { bubbles: true })); }

  /* ---------------------------------------------------------------- a city's tiles */

  function tilesOf(city) { return city.querySelector('[data-rows$="-tiles"]'); }
  function sizeOf(city) { return city.querySelector('input[name$="-size"]'); }
  function part(row, key) { return row.querySelector('[name$="-' + key + '"]'); }
  function isBlank(row) {
    return ["player", "influence", "order"].every(function (k) { var el = part(row, k); return !el || !el.value; });
  }
  function colourOf(city, player) {
    var chip = $all("[data-tile-pad] [data-player]", city).filter(function (b) { return b.dataset.player === player; })[0];
    return chip ? chip.dataset.colour : "";
  }

  /* The line a tile shows: its rank (its order when given, else its place in the list), its player's
     colour and name, its influence. A button: a tap shows the tile's fields. */
  function tag(row, rank, city) {
    var b = row.querySelector(":scope > .tile-tag");
    if (!b) {
      b = document.createElement("button");
      b.type = "button";
      b.className = "ghost tile-tag";
      b.setAttribute("aria-expanded", "false");
      row.insertBefore(b, row.firstChild);
    }
    var player = part(row, "player").value, influence = part(row, "influence").value;
    var order = part(row, "order");
    var shown = (order && order.value) || String(rank);
    var text = shown + " · " + (player || "?") + " " + (influence || "?");
    if (b.dataset.text !== text) {
      b.dataset.text = text;
      b.textContent = "";
      var n = document.createElement("span");
      n.className = "tile-rank";
      n.textContent = shown;
      b.appendChild(n);
      var colour = colourOf(city, player);
      if (colour) {
        var dot = document.createElement("span");
        dot.className = "tile-dot";
        dot.style.backgroundColor = colour;  // CSSOM, not an inline style attribute: the CSP allows it
        b.appendChild(dot);
      }
      var who = document.createElement("span");
      who.className = "tile-who";
      who.textContent = player || "?";
      b.appendChild(who);
      var inf = document.createElement("span");
      inf.className = "tile-influence";
      inf.textContent = influence || "?";
      b.appendChild(inf);
    }
    return b;
  }

  /* R4 needs the order only in a complete city (as many tiles as spaces) where two players have the
     same influence. */
  function needsOrder(city, filled) {
    var size = parseInt((sizeOf(city) || {}).value, 10);
    if (!(size >= 2) || filled.length !== size) return false;
    var sums = {};
    filled.forEach(function (row) {
      var who = part(row, "player").value, n = parseInt(part(row, "influence").value, 10);
      if (who && n > 0) sums[who] = (sums[who] || 0) + n;
    });
    var seen = {};
    return Object.keys(sums).some(function (who) {
      if (seen[sums[who]]) return true;
      seen[sums[who]] = 1;
      return false;
    });
  }

  var busy = false;

  /* The pad is written once, in the first city (templates/play/rebirth.html): every other city gets
     its copy, after its tiles (a city added later copies its neighbour's, pad and all). */
  var firstPad = list.querySelector("[data-tile-pad]");
  function padFor(city) {
    var tiles = tilesOf(city);
    if (!firstPad || !tiles || city.querySelector("[data-tile-pad]")) return;
    tiles.parentNode.insertBefore(firstPad.cloneNode(true), tiles.nextSibling);
  }

  /* Draw a city's tiles again from its fields; `user`: after this phone's own change, when orders may
     be filled in or taken away (never on load or when another phone's values arrive). */
  function refresh(city, user) {
    padFor(city);
    var box = tilesOf(city), pad = city.querySelector("[data-tile-pad]");
    if (!box || !pad) return;
    busy = true;
    box.classList.add("pad-on");
    pad.hidden = false;
    var add = addButtonOf(box);
    if (add) add.classList.add("by-pad");
    var all = rowsOf(box);
    var filled = all.filter(function (row) { return !isBlank(row); });
    var need = needsOrder(city, filled);
    if (user) {
      var orders = filled.map(function (row) { return part(row, "order"); });
      var auto = orders.every(function (o) { return !o.value || o.dataset.auto === o.value; });
      orders.forEach(function (o, k) {
        var want = need && auto ? String(k + 1) : (!need && o.value && o.dataset.auto === o.value ? "" : o.value);
        if (o.value !== want) {
          o.value = want;
          fire(o);
        }
        if (need && auto) o.dataset.auto = want; else if (!o.value) delete o.dataset.auto;
      });
    }
    all.forEach(function (row) {
      var blank = isBlank(row);
      row.classList.add("tile-line");
      row.classList.toggle("tile-blank", blank);
      if (blank) row.classList.remove("open");
      if (row.querySelector(".has-error, .field-error:not(:empty)")) row.classList.add("open");
      var b = tag(row, filled.indexOf(row) + 1, city);
      b.hidden = blank;
      b.setAttribute("aria-expanded", row.classList.contains("open") ? "true" : "false");
    });
    box.classList.toggle("needs-order", need);
    var note = pad.querySelector("[data-order-note]");
    if (note) note.hidden = !need;
    var size = parseInt((sizeOf(city) || {}).value, 10);
    var full = size > 0 && filled.length >= size;
    $all("[data-player]", pad).forEach(function (b) { b.disabled = full; });
    busy = false;
  }

  function refreshAll() { rows().forEach(function (city) { refresh(city, false); }); }

  /* One tap: the city's first blank tile (a new row, through play/fields.js's own "Ajouter une tuile", when
     there is none) gets the player and the influence. */
  function addTile(city, player, influence) {
    var box = tilesOf(city);
    var row = rowsOf(box).filter(isBlank)[0];
    if (!row) {
      var add = addButtonOf(box);
      if (!add || add.hidden) return;
      add.click();  // play/fields.js adds the row (and numbers it)
      var all = rowsOf(box);
      row = all[all.length - 1];
      if (!isBlank(row)) return;
    }
    var select = part(row, "player"), inf = part(row, "influence");
    select.value = player;
    inf.value = String(influence);
    fire(select);
    fire(inf);
    if (document.activeElement && row.contains(document.activeElement)) document.activeElement.blur();
    refresh(city, true);
  }

  /* One tap: a city with its size (the blank city offered last, else a new one). */
  function addCity(size) {
    var all = rows(), city = all[all.length - 1];
    var blank = city && !$all("input, select", city).some(function (el) {
      return el.type !== "checkbox" && el.type !== "radio" && el.value;
    });
    if (!blank) {
      var add = addButtonOf(list);
      if (!add || add.hidden) return;
      add.click();
      all = rows();
      city = all[all.length - 1];
    }
    var input = sizeOf(city);
    input.value = String(size);
    fire(input);
    if (document.activeElement && city.contains(document.activeElement)) document.activeElement.blur();
    refresh(city, true);
    open(city);
  }

  /* ---------------------------------------------------------------- one city open at a time */

  function summary(row) {
    var legend = row.querySelector("legend");
    var size = sizeOf(row);
    var parts = [legend ? legend.textContent.trim() : T("city")];
    if (size && size.value) {  // "1 case", "2 cases": the words of the size buttons, in the page's language
      var named = list.querySelector('[data-new-city-size="' + parseInt(size.value, 10) + '"]');
      parts.push(named ? named.textContent.trim() : T("spaces", {n: size.value}));
    }
    var tiles = [];
    Array.prototype.forEach.call(row.querySelectorAll('select[name$="-player"]'), function (select) {
      var influence = document.getElementsByName(select.name.replace(/-player$/, "-influence"))[0];
      if (select.value) tiles.push(select.value + (influence && influence.value ? " " + influence.value : ""));
    });
    if (tiles.length) parts.push(tiles.join(", "));
    return parts.join(" · ");
  }

  function button(row) {
    var b = row.querySelector(":scope > .city-summary");
    if (!b) {
      b = document.createElement("button");
      b.type = "button";
      b.className = "ghost city-summary";
      row.insertBefore(b, row.firstChild);
    }
    b.textContent = summary(row);
    b.setAttribute("aria-label", T("open_to_edit", {summary: summary(row)}));
    return b;
  }

  function open(target) {
    rows().forEach(function (row) {
      var keep = row === target || !!row.querySelector(".has-error, .field-error:not(:empty)");
      row.classList.toggle("folded", !keep);
      button(row).hidden = keep;
      // the spare blank city the page offers after the last one ("Nouvelle ville" fills it): folded,
      // it would read as a city nobody entered ("Ville 5")
      row.hidden = !keep && !filled(row);
    });
  }

  /* ---------------------------------------------------------------- events */

  list.addEventListener("click", function (e) {
    var chip = e.target.closest("[data-tile-pad] [data-player]");
    if (chip) {
      addTile(chip.closest(".city-row"), chip.dataset.player, chip.dataset.influence);
      return;
    }
    var size = e.target.closest("[data-new-city-size]");
    if (size) {
      addCity(parseInt(size.dataset.newCitySize, 10));
      return;
    }
    var t = e.target.closest(".tile-tag");
    if (t) {
      var line = t.closest("[data-row]");
      line.classList.toggle("open");
      t.setAttribute("aria-expanded", line.classList.contains("open") ? "true" : "false");
      return;
    }
    var b = e.target.closest(".city-summary");
    if (b) {
      var row = b.closest(".city-row");
      open(row);
      return;
    }
    if (e.target.closest('button[name="add_row"][value="cities"]')) {
      setTimeout(function () { var all = rows(); open(all[all.length - 1]); refreshAll(); }, 0);  // after play/fields.js adds it
    }
    if (e.target.closest("[data-remove-row]")) {  // after play/fields.js removes the tile (or the city)
      var city = e.target.closest(".city-row");
      setTimeout(function () { if (city.isConnected) refresh(city, true); else refreshAll(); }, 0);
    }
  });
  /* a field reached another way (the error summary, the keyboard): its city opens */
  list.addEventListener("focusin", function (e) {
    var row = e.target.closest(".city-row");
    if (row && row.classList.contains("folded") && !e.target.closest(".city-summary")) open(row);
  });
  /* a field changed by hand (the size, a tile's fields, an order): the city is drawn again */
  list.addEventListener("input", function (e) {
    if (busy) return;
    var city = e.target.closest(".city-row");
    if (!city) return;
    if (e.target.name && /-order$/.test(e.target.name)) delete e.target.dataset.auto;  // the table's own
    refresh(city, true);
  });
  list.addEventListener("change", function (e) {
    if (busy) return;
    var city = e.target.closest(".city-row");
    if (city) refresh(city, true);
  });
  /* another phone's values (or a draft put back): drawn as they are */
  if (form) form.addEventListener("adopted", refreshAll);
  document.addEventListener("click", function (e) {
    var link = e.target.closest('a[href^="#"]');
    var target = link && document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
    var row = target && target.closest(".city-row");
    if (row && list.contains(row)) open(row);
  });

  /* ---------------------------------------------------------------- on load */

  var fresh = list.querySelector("[data-new-city]");
  if (fresh) fresh.hidden = false;
  var addCities = addButtonOf(list);
  if (addCities) addCities.classList.add("by-pad");
  list.classList.add("pad-on");
  /* orders stored as 1, 2, 3… in the order of the tiles are the ones filled in from the entry: they
     go when the tie goes, as if this page had filled them */
  rows().forEach(function (city) {
    var box = tilesOf(city);
    if (!box) return;
    var orders = rowsOf(box).filter(function (row) { return !isBlank(row); }).map(function (row) {
      return part(row, "order");
    });
    if (orders.length && orders.every(function (o, k) { return o.value === String(k + 1); })) {
      orders.forEach(function (o) { o.dataset.auto = o.value; });
    }
  });
  refreshAll();

  /* the last city with something in it is open (the table goes on with it); the blank one offered
     after it is a tap away, like "Nouvelle ville" */
  function filled(row) {
    return Array.prototype.some.call(row.querySelectorAll("input, select"), function (el) {
      return el.type !== "checkbox" && el.type !== "radio" && el.type !== "button" && el.value;
    });
  }
  var all = rows();
  var used = all.filter(filled);
  if (all.length) open(used.length ? used[used.length - 1] : all[all.length - 1]);
})();
