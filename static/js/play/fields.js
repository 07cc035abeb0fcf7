/* The play pages' fields, enhanced: steppers, list rows (add, remove, renumber), show-if and
   copy-to, the Enter key. Everything here is optional: without JS the forms are plain inputs and
   submit buttons. First of the three play scripts (then steps.js, autosave.js; they run in document
   order and share `window.Play`). Markup contract (written by templates/play/_fields.html): see
   companion/forms/__init__.py. */
(function () {
  "use strict";

  var Play = window.Play = window.Play || {};

  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function fire(el) { el.dispatchEvent(new Event("input", { bubbles: true })); }

  /* ---------------------------------------------------------------- hints said once

     A long hint is said once per field kind (companion/views/field_html.py): the first field of a kind
     folds it behind "?", each other one says data-fold="ID" (ID: an id inside the first fold) and
     gets a copy of that fold here, after its label or legend (or in place of a [data-fold-here]),
     its "?" named after its own label. */
  function folds() {
    $all("[data-fold]").forEach(function (el) {
      var source = document.getElementById(el.dataset.fold);
      var first = source && source.closest("details.fold");
      if (!first) return;
      var fold = first.cloneNode(true);
      fold.removeAttribute("open");
      $all("[id]", fold).forEach(function (x) { x.removeAttribute("id"); });
      var here = el.hasAttribute("data-fold-here") ? null : el.firstElementChild;
      var named = fold.querySelector("summary .visually-hidden");
      if (here && named) named.textContent = T("help") + " " + here.textContent.trim();
      if (here) here.parentNode.insertBefore(fold, here.nextSibling); else el.parentNode.replaceChild(fold, el);
      el.removeAttribute("data-fold");
    });
  }
  folds();

  /* ---------------------------------------------------------------- message slots

     A field's error (e-NAME) and warning (w-NAME) are written by the server only when they say
     something; an answer that needs one gets it here, in the field's wrapper (f-NAME: at its end,
     or before a list's items), named in the aria-describedby of the field's inputs. */
  function describe(p) {
    var name = p.id.slice(2);
    $all("[name]", p.parentNode).forEach(function (input) {
      if (input.name !== name) return;
      var ids = (input.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
      if (ids.indexOf(p.id) < 0) input.setAttribute("aria-describedby", [p.id].concat(ids).join(" "));
    });
  }

  function slot(kind, name) {
    var id = kind + "-" + name, p = document.getElementById(id);
    if (p) return p;
    var wrap = document.getElementById("f-" + name);
    if (!wrap) return null;
    p = document.createElement("p");
    p.id = id;
    p.className = kind === "e" ? "field-error" : "field-warning";
    if (kind === "e") p.setAttribute("role", "alert");
    var error = document.getElementById("e-" + name);
    var inner = Array.prototype.filter.call(wrap.children, function (c) {
      return c.matches(".items, .group-fields");
    })[0] || null;
    if (kind === "w" && error) error.parentNode.insertBefore(p, error.nextSibling);
    else wrap.insertBefore(p, inner);
    describe(p);
    return p;
  }
  $all(".field-error[id], .field-warning[id]").forEach(describe);

  /* ---------------------------------------------------------------- steppers */

  function stepper(input) {
    if (input.dataset.enhanced) return;
    input.dataset.enhanced = "1";
    Stepper.wrap(input, T("minus"), T("plus"));  // static/js/stepper.js
  }

  document.addEventListener("click", function (e) {
    var input = Stepper.stepped(e);
    if (input) fire(input);
  });

  /* ---------------------------------------------------------------- rows

     A list is [data-rows=NAME] holding rows [data-row]; a row may hold lists of its own (a city's
     tiles), so a list only ever counts its DIRECT rows: those whose nearest enclosing list it is. */

  var RENAMED = ["name", "id", "for", "aria-describedby", "data-rows", "data-copy-from"];

  function ownerOf(el) { return el.parentNode ? el.parentNode.closest("[data-rows]") : null; }
  function rowsOf(box) { return $all("[data-row]", box).filter(function (r) { return ownerOf(r) === box; }); }
  function addButtonOf(box) {
    return $all("button[name=add_row]", box).filter(function (b) { return ownerOf(b) === box; })[0] || null;
  }
  function listsIn(row) {  // the lists a row holds directly (not those of its inner rows)
    return $all("[data-rows]", row).filter(function (b) { return b.parentNode.closest("[data-row]") === row; });
  }

  /* Each token of a name / id / describedby list that starts with (x-)BASE-<n> gets BASE-<i>: the
     first occurrence only, so a list named like one of its own fields cannot be renamed twice. */
  function renamer(base, i) {
    var re = new RegExp("^([a-z]-)?" + escapeRe(base) + "-\\d+(?=-|$)");
    return function (value) {
      return value.split(/(\s+)/).map(function (token) {
        return token.replace(re, function (m, prefix) { return (prefix || "") + base + "-" + i; });
      }).join("");
    };
  }

  function renumber(box) {
    var base = box.dataset.rows;
    var rows = rowsOf(box);
    rows.forEach(function (row, i) {
      var rename = renamer(base, i);
      $all("*", row).forEach(function (el) {
        RENAMED.forEach(function (attr) {
          var v = el.getAttribute(attr);
          if (v) el.setAttribute(attr, rename(v));
        });
        if (el.matches("button[name=add_row]")) el.value = rename(el.value);
      });
      var label = row.querySelector("legend, label");
      if (label) label.textContent = box.dataset.itemLabel + " " + (i + 1);
      listsIn(row).forEach(renumber);  // their own rows, under their new name
    });
    var add = addButtonOf(box);
    if (add) add.hidden = rows.length >= parseInt(box.dataset.max, 10);
  }

  function clear(el) {
    $all("input, select", el).forEach(function (i) {
      if (i.type === "checkbox" || i.type === "radio") i.checked = false; else i.value = "";
    });
    $all(".field-error", el).forEach(function (p) { p.textContent = ""; });
    $all(".theirs", el).forEach(function (p) { p.remove(); });
    $all(".has-error", el).forEach(function (p) { p.classList.remove("has-error"); });
    $all("[aria-invalid=true]", el).forEach(function (p) { p.setAttribute("aria-invalid", "false"); });
  }

  /* The rows a list offers at least (data-shown, the form's `Rows(shown=)`; 1 unless it says). */
  function shownOf(box) { return parseInt(box.dataset.shown, 10) || 1; }

  /* A blank copy of a row: every list inside keeps its first blank rows (as many as it shows). */
  function blank(row) {
    listsIn(row).forEach(function (inner) {
      var keep = shownOf(inner);
      rowsOf(inner).forEach(function (r, i) { if (i >= keep) r.remove(); });
    });
    clear(row);
  }

  /* Each row's remove button, its own (a direct child): "×" named by data-remove-label, or, for a row
     holding a list, the label written out below the row so it is not read as its last inner row's. */
  function decorate(row) {
    var box = ownerOf(row);
    var mine = Array.prototype.filter.call(row.children, function (c) { return c.matches("[data-remove-row]"); });
    if (mine.length || !box) return;
    var label = box.dataset.removeLabel || T("remove_row");
    var btn = document.createElement("button");
    btn.type = "button";
    btn.dataset.removeRow = "";
    if (listsIn(row).length) {
      row.classList.add("holds-list");
      btn.className = "ghost remove-row worded";
      btn.textContent = label;
    } else {
      btn.className = "ghost remove-row";
      btn.setAttribute("aria-label", label);
      btn.textContent = "\u00d7";
    }
    row.appendChild(btn);
  }

  function addRow(box) {
    var rows = rowsOf(box);
    if (rows.length >= parseInt(box.dataset.max, 10)) return null;
    var last = rows[rows.length - 1];
    var row = last.cloneNode(true);
    /* a hint said once per kind (h-KIND, no row number in it) stays the first row's: the copy
       says the same words without the id (every row's field refers to the first) */
    $all("[id^='h-']", row).forEach(function (el) { if (!/-\d+(-|$)/.test(el.id)) el.removeAttribute("id"); });
    blank(row);
    last.parentNode.insertBefore(row, last.nextSibling);
    renumber(box);
    return row;
  }

  $all("[data-row]").forEach(decorate);
  $all("[data-rows]").filter(function (box) { return !ownerOf(box); }).forEach(renumber);

  document.addEventListener("click", function (e) {
    var add = e.target.closest("button[name=add_row]");
    if (add && ownerOf(add)) {
      e.preventDefault();
      var row = addRow(ownerOf(add));
      /* the cursor goes to the new row's first field to type in (a chip or a box takes a tap anyway) */
      if (row) {
        var first = row.querySelector("input[type=text], input:not([type]), input[type=number], select") ||
          row.querySelector("input, select");
        if (first) first.focus();
      }
      return;
    }
    var remove = e.target.closest("[data-remove-row]");
    if (remove) {
      var row2 = remove.closest("[data-row]");
      var rowsBox = ownerOf(row2);
      if (rowsOf(rowsBox).length > 1) {
        row2.remove();
        if (rowsOf(rowsBox).length < shownOf(rowsBox)) addRow(rowsBox);  // a blank one at the end
      } else blank(row2);
      renumber(rowsBox);
      /* a change of the form's (autosave.js saves it): its fields are gone, no input event says so */
      var owner = rowsBox.closest("form");
      if (owner) owner.dispatchEvent(new CustomEvent("row-removed"));
    }
  });

  /* ---------------------------------------------------------------- show-if, copy-to */

  function showIf() {
    $all("[data-show-if]").forEach(function (el) {
      var parts = el.dataset.showIf.split("=");
      var chosen = document.querySelector('input[name="' + parts[0] + '"]:checked');
      el.hidden = !chosen || chosen.value !== parts[1];
    });
  }

  function copyTo(input) {
    var box = input.closest("[data-copy-to]");
    if (!box || !input.name) return;
    var suffix = input.name.slice(box.dataset.copyFrom.length);
    var target = "-" + box.dataset.copyTo + suffix;
    $all("input").forEach(function (other) {
      if (other !== input && other.name && other.name.slice(-target.length) === target) other.value = input.value;
    });
  }

  document.addEventListener("change", showIf);

  /* ---------------------------------------------------------------- other pages */

  $all("select[data-swatch]").forEach(function (select) {
    select.addEventListener("change", function () {
      var circle = select.parentNode.querySelector("circle");
      if (circle) circle.setAttribute("fill", select.value);
    });
  });

  /* ---------------------------------------------------------------- Enter key

     Enter moves to the next field to type in (a phone keyboard's "suivant"), never submits halfway
     (the first submit button of the score form is a list's "Ajouter ..."); on the last field it does
     the page's main action ([data-main]). On a form marked data-enter-done, Enter on a blank field
     is the main action too (the new-game page: the last players' seats are optional), and so is Enter
     on a field marked data-enter-main (the new-game page's last seat, its keyboard key saying "go"). */
  function typable(el) {
    return el.matches("input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=checkbox])" +
                      ":not([type=radio]), textarea") && !el.disabled && !el.readOnly && el.offsetParent !== null;
  }
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || e.isComposing || e.defaultPrevented) return;
    var el = e.target, owner = el.form;
    if (!owner || !el.matches("input, select") || el.matches("[type=submit], [type=button]")) return;
    e.preventDefault();
    var all = $all("input, select, textarea", owner);
    var next = all.slice(all.indexOf(el) + 1).filter(typable)[0];
    var blankDone = (owner.hasAttribute("data-enter-done") && typable(el) && !el.value.trim()) ||
      el.hasAttribute("data-enter-main");
    if (next && !blankDone) { next.focus(); return; }
    var main = owner.querySelector("[data-main]");
    if (!main) return;
    if (owner.requestSubmit) owner.requestSubmit(main); else main.click();
  });

  /* ---------------------------------------------------------------- a number that cannot grow

     On a form marked data-auto-next (the edit page), a number typed that no further digit can keep
     within the field's max (2 in a field of 0 to 3, 9 in one of 0 to 30, 51 in one of 0 to 500) moves
     the cursor to the next field, as "suivant" would (Play.nextField: within the step on screen, never
     into the next step). Said beforehand by the line #auto-next-note (at the top of every step, and
     in the description of each step's first field), whose switch turns it off on this phone. A value
     past the max stays (its message comes beside it). The habit of pressing "suivant" after each
     number: a "suivant" on the field the cursor just moved to, before anything is typed or tapped
     there, is taken as done, not as a second move (a field skipped would get the next number). */
  var AUTO = "companion-auto-next", movedTo = null, autoChosen = null;
  function autoNext(owner) {
    if (!owner || !owner.hasAttribute("data-auto-next")) return false;
    if (autoChosen !== null) return autoChosen;
    try { return window.localStorage.getItem(AUTO) !== "off"; } catch (err) { return true; }
  }
  Play.nextField = function (el) {  // steps.js gives the step's own
    var all = $all("input, select, textarea", el.form);
    return all.slice(all.indexOf(el) + 1).filter(typable)[0] || null;
  };
  function moveOn(el) {
    if (!el.matches("input[data-stepper][max]") || !autoNext(el.form) || !/^\d+$/.test(el.value) ||
        el.selectionEnd !== el.value.length) return;
    var value = parseInt(el.value, 10), max = parseInt(el.getAttribute("max"), 10);
    if (value > max || value * 10 <= max) return;
    var next = Play.nextField(el);
    if (!next) return;
    next.focus();
    movedTo = next;
  }
  /* A count shows the number it stores: a digit typed after a 0 the field held (a blank entry of a
     fixed list is stored as 0, Revive's artifacts by colour) reads "3", not "03", on this phone as on
     the others. Before the autosave reads the field (this script's listener comes first). */
  function dropLeadingZeros(el) {
    if (!el.matches || !el.matches("input[data-stepper]") || !/^0+\d/.test(el.value)) return;
    el.value = el.value.replace(/^0+(?=\d)/, "");
    el.setSelectionRange(el.value.length, el.value.length);
  }
  document.addEventListener("input", function (e) {
    if (e.target === movedTo) movedTo = null;
    /* typed (not a stepper's −/+ nor a value the page writes); a keyboard that composes its digits
       is read once the composition ends */
    var typed = e.inputType === "insertText" || (e.inputType === "insertCompositionText" && !e.isComposing);
    if (typed) {
      dropLeadingZeros(e.target);
      moveOn(e.target);
    }
  });
  document.addEventListener("compositionend", function (e) { if (e.target.matches) moveOn(e.target); });
  /* A box ticked whose group goes on with a blank number (Revive's "Débloquée", then that colour's
     cards gained): the cursor goes to that number, the next thing to type (said by the same line). */
  document.addEventListener("change", function (e) {
    var box = e.target;
    if (box.type !== "checkbox" || !box.checked || !autoNext(box.form)) return;
    var group = box.closest(".group-fields");
    var number = group && $all("input[data-stepper]", group).filter(function (el) {
      return box.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING;
    })[0];
    if (number && !number.value && typable(number)) number.focus();
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || e.isComposing || !movedTo || e.target !== movedTo) return;
    movedTo = null;
    e.preventDefault();
    e.stopPropagation();
  }, true);
  document.addEventListener("focusout", function (e) { if (e.target === movedTo) movedTo = null; });
  document.addEventListener("pointerdown", function () { movedTo = null; }, true);

  var autoNote = document.getElementById("auto-next-note");
  function showAutoNext() {
    var on = autoNext(autoNote.closest("form") || document.getElementById("end-state"));
    $all("[data-when]", autoNote).forEach(function (s) {
      s.hidden = s.dataset.when !== (on ? "on" : "off");
    });
    autoNote.querySelector("[data-auto-next-switch]").setAttribute("aria-pressed", on ? "true" : "false");
  }
  if (autoNote) {
    showAutoNext();
    autoNote.querySelector("[data-auto-next-switch]").addEventListener("click", function () {
      var on = !!autoNote.querySelector("[aria-pressed=true]");
      autoChosen = !on;
      try { window.localStorage.setItem(AUTO, on ? "off" : "on"); } catch (err) { /* this page only */ }
      showAutoNext();
    });
    /* said to a screen reader where a step starts (its first field), before the first number */
    $all("form[data-auto-next]").forEach(function (owner) {
      var stages = $all("[data-stage]", owner);
      (stages.length ? stages : [owner]).forEach(function (stage) {
        var first = $all("input[data-stepper]", stage)[0];
        if (!first) return;
        var ids = (first.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
        if (ids.indexOf(autoNote.id) < 0) {
          first.setAttribute("aria-describedby", ids.concat([autoNote.id]).join(" "));
        }
      });
    });
  }

  $all("input[data-stepper]").forEach(function (input) {
    if (!input.hasAttribute("enterkeyhint")) input.setAttribute("enterkeyhint", "next");  // Enter: next field
    stepper(input);
  });

  Play.$all = $all;
  Play.slot = slot;
  Play.rowsOf = rowsOf;
  Play.addRow = addRow;
  Play.showIf = showIf;
  Play.copyTo = copyTo;
})();
