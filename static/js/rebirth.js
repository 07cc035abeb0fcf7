/* Rebirth's cities, one open at a time: a city the table has moved on from (another one added or
   opened) folds into one line saying what it holds ("Ville 1 · 2 cases · Aoife 3, Brian 2"), a tap
   opens it again. Keeps the table's step within a few screens however many cities there are.
   Optional: without it every city is shown; the fields are the same either way. */
(function () {
  "use strict";

  var list = document.querySelector('[data-rows="cities"]');
  if (!list) return;

  function rows() {
    return Array.prototype.filter.call(list.querySelectorAll(".city-row"), function (r) {
      return r.parentNode.closest("[data-rows]") === list;
    });
  }

  function summary(row) {
    var legend = row.querySelector("legend");
    var size = row.querySelector('input[name$="-size"]');
    var parts = [legend ? legend.textContent.trim() : T("city")];
    if (size && size.value) parts.push(T("spaces", {n: size.value}));
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
    });
  }

  list.addEventListener("click", function (e) {
    var b = e.target.closest(".city-summary");
    if (b) {
      var row = b.closest(".city-row");
      open(row);
      var first = row.querySelector('input[name$="-size"]');
      if (first) first.focus();
      return;
    }
    if (e.target.closest('button[name="add_row"][value="cities"]')) {
      setTimeout(function () { var all = rows(); open(all[all.length - 1]); }, 0);  // after play.js adds it
    }
  });
  /* a field reached another way (the error summary, the keyboard): its city opens */
  list.addEventListener("focusin", function (e) {
    var row = e.target.closest(".city-row");
    if (row && row.classList.contains("folded") && !e.target.closest(".city-summary")) open(row);
  });
  document.addEventListener("click", function (e) {
    var link = e.target.closest('a[href^="#"]');
    var target = link && document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
    var row = target && target.closest(".city-row");
    if (row && list.contains(row)) open(row);
  });

  /* on load: the last city with something in it is open (the table goes on with it); the blank
     one offered after it is a tap away, like "Ajouter une ville" */
  function filled(row) {
    return Array.prototype.some.call(row.querySelectorAll("input, select"), function (el) {
      return el.type !== "checkbox" && el.type !== "radio" && el.type !== "button" && el.value;
    });
  }
  var all = rows();
  var used = all.filter(filled);
  if (all.length) open(used.length ? used[used.length - 1] : all[all.length - 1]);
})();
