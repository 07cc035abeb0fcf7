/* Rebirth's end-state page, enhanced (optional: the page works without it). Loaded by
   templates/play/rebirth.html after play.js.

   A city's tiles are rows inside a city row. play.js handles one level of rows (the cities: adding,
   removing, renumbering every name inside a city row); the tile rows are marked
   `data-tile-rows` / `data-tile-row` so play.js leaves them alone, and this file adds and removes
   them. Their "Ajouter une tuile" button is the generic no-JS submit (name=add_row): this listener
   runs first (capture phase) and keeps play.js from treating it as "add a city". Each city's remove
   button (play.js's "\u00d7") is renamed "Retirer la ville", so it is not read as the last tile's.
   (The tool pages themselves, companion/views/tools.py, need only play.js's steppers.) */
(function () {
  "use strict";

  var form = document.getElementById("end-state");
  if (!form) return;

  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  /* The list's own name is its wrapper's id (f-NAME), which play.js keeps up to date when the
     cities are renumbered; data-tile-rows and the add button's value follow it. */
  function base(box) {
    var name = box.id.slice(2);
    box.dataset.tileRows = name;
    var add = box.querySelector("button[name=add_row]");
    if (add) add.value = name;
    return name;
  }

  function rows(box) {
    return $all("[data-tile-row]", box);
  }

  function renumber(box) {
    var name = base(box);
    var re = new RegExp(escapeRe(name) + "-\\d+", "g");
    rows(box).forEach(function (row, i) {
      $all("[name], [id], [for], [aria-describedby]", row).forEach(function (el) {
        ["name", "id", "for", "aria-describedby"].forEach(function (attr) {
          var v = el.getAttribute(attr);
          if (v) el.setAttribute(attr, v.replace(re, name + "-" + i));
        });
      });
      var label = row.querySelector("legend, label");
      if (label) label.textContent = box.dataset.itemLabel + " " + (i + 1);
    });
    var add = box.querySelector("button[name=add_row]");
    if (add) add.hidden = rows(box).length >= parseInt(box.dataset.max, 10);
  }

  function clear(row) {
    $all("input, select", row).forEach(function (i) {
      if (i.type === "checkbox" || i.type === "radio") i.checked = false; else i.value = "";
    });
    $all(".field-error", row).forEach(function (p) { p.textContent = ""; });
    $all(".theirs", row).forEach(function (p) { p.remove(); });
    $all(".has-error", row).forEach(function (p) { p.classList.remove("has-error"); });
  }

  function decorate(row) {
    if (row.querySelector("[data-remove-tile]")) return;
    var btn = document.createElement("button");
    btn.type = "button";
    btn.className = "ghost";
    btn.dataset.removeTile = "";
    btn.textContent = "Retirer la tuile";
    row.appendChild(btn);
  }

  /* play.js gives each city row a "\u00d7" button; below a tile's own button it would read as the
     same thing, so it says what it removes (copies of a city keep the text). */
  function nameCityButtons() {
    $all("#f-cities > .items > [data-row] > [data-remove-row]").forEach(function (btn) {
      btn.className = "ghost";
      btn.textContent = "Retirer la ville";
      btn.removeAttribute("aria-label");
    });
  }

  function changed(el) {  // play.js saves on input events from the form
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }

  document.addEventListener("click", function (e) {
    var target = e.target.closest ? e.target : e.target.parentNode;
    var add = target.closest("[data-tile-rows] > button[name=add_row]");
    var remove = target.closest("[data-remove-tile]");
    if (!add && !remove) return;
    e.preventDefault();
    e.stopPropagation();
    var box = (add || remove).closest("[data-tile-rows]");
    base(box);
    if (add) {
      var all = rows(box);
      if (all.length >= parseInt(box.dataset.max, 10)) return;
      var last = all[all.length - 1];
      var row = last.cloneNode(true);
      clear(row);
      last.parentNode.insertBefore(row, last.nextSibling);
      decorate(row);
      renumber(box);
      var first = row.querySelector("select, input");
      if (first) first.focus();
      return;
    }
    var gone = remove.closest("[data-tile-row]");
    if (rows(box).length > 1) gone.remove(); else clear(gone);
    renumber(box);
    changed(box);
  }, true);

  $all("[data-tile-rows]").forEach(function (box) {
    rows(box).forEach(decorate);
    renumber(box);
  });
  nameCityButtons();
})();
