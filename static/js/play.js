/* The play pages, enhanced: steppers, list rows, autosave with a local draft, conflicts.
   Everything here is optional: without JS the forms are plain inputs and submit buttons.
   Markup contract (written by templates/play/_fields.html): see companion/forms/__init__.py. */
(function () {
  "use strict";

  var form = document.getElementById("end-state");
  var notice = document.getElementById("play-notice");
  var state = document.getElementById("save-state");
  var DELAY = 700;

  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function fire(el) { el.dispatchEvent(new Event("input", { bubbles: true })); }

  /* ---------------------------------------------------------------- steppers */

  function stepper(input) {
    if (input.dataset.enhanced) return;
    input.dataset.enhanced = "1";
    var wrap = document.createElement("span");
    wrap.className = "stepper";
    input.parentNode.insertBefore(wrap, input);
    [["-1", "\u2212", T("minus")], null, ["1", "+", T("plus")]].forEach(function (b) {
      if (!b) { wrap.appendChild(input); return; }
      var btn = document.createElement("button");
      btn.type = "button";
      btn.className = "step";
      btn.dataset.step = b[0];
      btn.textContent = b[1];
      btn.setAttribute("aria-label", b[2]);
      wrap.appendChild(btn);
    });
  }

  document.addEventListener("click", function (e) {
    var btn = e.target.closest("button[data-step]");
    if (!btn) return;
    var input = btn.parentNode.querySelector("input");
    var min = input.hasAttribute("min") ? parseInt(input.getAttribute("min"), 10) : 0;
    var max = input.hasAttribute("max") ? parseInt(input.getAttribute("max"), 10) : Infinity;
    var value = parseInt(input.value, 10);
    var step = parseInt(btn.dataset.step, 10);
    value = isNaN(value) ? (step > 0 ? Math.max(min, 0 + step) : min) : value + step;
    input.value = String(Math.min(max, Math.max(min, value)));
    fire(input);
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

  /* A blank copy of a row: every list inside keeps one blank row. */
  function blank(row) {
    listsIn(row).forEach(function (inner) {
      rowsOf(inner).forEach(function (r, i) { if (i) r.remove(); });
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
      if (rowsOf(rowsBox).length > 1) row2.remove(); else blank(row2);
      renumber(rowsBox);
      changed();
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
     is the main action too (the new-game page: the last players' seats are optional). */
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
    var blankDone = owner.hasAttribute("data-enter-done") && typable(el) && !el.value.trim();
    if (next && !blankDone) { next.focus(); return; }
    var main = owner.querySelector("[data-main]");
    if (!main) return;
    if (owner.requestSubmit) owner.requestSubmit(main); else main.click();
  });

  $all("input[data-stepper]").forEach(stepper);

  /* ---------------------------------------------------------------- one step at a time

     Each [data-stage] of the form is a step (the table, then each player). Without JS they are all
     shown in order; here one is shown at a time, reached from the list of steps, the previous / next
     links at its foot, "Joueur suivant" in the sticky bar, or any link to a field inside it (the error
     summary). Hidden steps keep their fields in the form: a save always carries everything. */
  var steps = form ? $all("[data-stage]", form) : [];
  var onStage = -1;
  var turn = document.querySelector("[data-turn]");

  function stepIndex(id) {
    for (var k = 0; k < steps.length; k++) if (steps[k].id === id) return k;
    return -1;
  }
  function stepOf(el) { var s = el && el.closest ? el.closest("[data-stage]") : null; return s ? steps.indexOf(s) : -1; }
  function stepTypable(el) {
    return el.matches("input[type=text], input:not([type]), input[type=number], select, textarea") &&
      !el.disabled && !el.readOnly && el.offsetParent !== null;
  }
  function fieldsOf(k) { return k < 0 ? [] : $all("input, select, textarea", steps[k]).filter(stepTypable); }

  function flagSteps() {
    steps.forEach(function (s) {
      var bad = !!s.querySelector(".has-error, .field-error:not(:empty)");
      $all('[data-goto="' + s.id + '"]').forEach(function (a) {
        if (a.classList.contains("seat")) a.classList.toggle("has-error", bad);
      });
    });
  }

  function showStep(k, focus) {
    if (k < 0 || k >= steps.length) return;
    onStage = k;
    steps.forEach(function (s, j) { s.hidden = j !== k; });
    $all("[data-goto]").forEach(function (a) {
      if (a.classList.contains("seat")) {
        if (a.dataset.goto === steps[k].id) a.setAttribute("aria-onStage", "step");
        else a.removeAttribute("aria-onStage");
      }
    });
    var step = steps[k];
    if (turn) {
      turn.hidden = false;
      var seat = step.dataset.seat;
      turn.querySelector("[data-turn-name]").textContent = step.dataset.stageLabel;
      var dot = turn.querySelector("[data-turn-dot]");
      var h = step.querySelector("h2 .dot");
      dot.innerHTML = "";
      if (h) dot.appendChild(h.cloneNode(true));
      var total = turn.querySelector("[data-turn-total]");
      if (seat !== undefined) {
        total.hidden = false;
        total.setAttribute("data-seat-total", seat);
        var chip = document.querySelector('.steps-list [data-seat-total="' + seat + '"]');
        total.textContent = chip ? chip.textContent : "";
      } else {
        total.hidden = true;
        total.removeAttribute("data-seat-total");
      }
      var next = turn.querySelector("[data-next]");
      next.hidden = k + 1 >= steps.length;
      var following = steps[k + 1];
      next.textContent = following && following.dataset.seat !== undefined ? T("next_player") : T("next_step");
      if (following) next.setAttribute("aria-label", next.textContent + " : " + following.dataset.stageLabel);
    }
    if (focus !== false) {
      var list = document.querySelector(".steps-list");
      window.scrollTo(0, list ? Math.max(0, list.getBoundingClientRect().top + window.pageYOffset - 70) : 0);
    }
    if (focus === true) {
      var first = fieldsOf(k)[0];
      if (first) first.focus({ preventScroll: true });
    }
  }

  if (steps.length > 1) {
    form.classList.add("stepped");
    var start = stepIndex(location.hash.slice(1));
    if (start < 0 && location.hash.length > 1) start = stepOf(document.getElementById(location.hash.slice(1)));
    if (start < 0) {  // a refused post: the first step with a message
      var firstBad = form.querySelector(".has-error, .field-error:not(:empty)");
      start = firstBad ? stepOf(firstBad) : 0;
    }
    showStep(Math.max(0, start), false);
    flagSteps();

    document.addEventListener("click", function (e) {
      var go = e.target.closest("[data-goto]");
      if (go) {
        e.preventDefault();
        showStep(stepIndex(go.dataset.goto), true);
        return;
      }
      if (e.target.closest("[data-next]")) { showStep(onStage + 1, true); return; }
      /* a link to a field inside a hidden step (the error summary): show the step, then follow it */
      var link = e.target.closest('a[href^="#"]');
      if (link && link.getAttribute("href").length > 1) {
        var target = document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
        var k = stepOf(target);
        if (k >= 0 && k !== onStage) showStep(k, false);
      }
    });
    window.addEventListener("hashchange", function () {
      var target = document.getElementById(location.hash.slice(1));
      var k = stepOf(target);
      if (k >= 0 && k !== onStage) { showStep(k, false); target.scrollIntoView(); }
    });
    /* Enter moves to the next field of the step on screen (the phone keyboard's "suivant"), never into
       a hidden one; on the step's last field it goes on to the next step. */
    form.addEventListener("keydown", function (e) {
      if (e.key !== "Enter" || e.isComposing || !e.target.matches("input")) return;
      if (/^(submit|button|checkbox|radio)$/.test(e.target.type)) return;
      var list = fieldsOf(onStage);
      var at = list.indexOf(e.target);
      if (at >= 0 && at + 1 < list.length) { e.preventDefault(); list[at + 1].focus(); return; }
      if (onStage + 1 < steps.length) { e.preventDefault(); showStep(onStage + 1, true); }
      /* the last step's last field: the page's main action (the Enter key handler above) */
    });
  }

  if (!form || !form.dataset.autosave || !window.fetch || !window.FormData) return;

  /* ---------------------------------------------------------------- autosave and draft

     Field by field: `base` holds, for each field, the value the server held when this phone last
     heard from it (the page's `base_values`, then each answer's `stored`). A save sends only the
     fields whose value differs from their base, each with its base ({name: [base, mine]}), so a
     field this phone did not touch is never written back; the server reports a conflict only for a
     field the other side changed too. Every change is also written to localStorage with its base,
     so a closed tab or a dead phone loses nothing. */

  var version = form.querySelector("input[name=version]");
  var baseInput = form.querySelector("input[name=base_values]");
  var csrf = form.querySelector("input[name=csrf_token]");
  var summaryBox = document.getElementById("error-summary");
  var key = "companion-draft:" + form.dataset.draft;
  var SKIP = { csrf_token: 1, version: 1, base_values: 1, action: 1, add_row: 1, just_saved: 1 };
  var base = {};
  try { base = JSON.parse(baseInput.value || "{}") || {}; } catch (err) { base = {}; }
  var timer = null, inFlight = false, again = false, paused = false, conflicts = {};
  var stored = JSON.parse(JSON.stringify(base));  // what the server held when it wrote the page

  function fields() {
    return $all("input, select, textarea", form).filter(function (el) {
      return el.name && !SKIP[el.name] && el.type !== "submit" && el.type !== "button";
    });
  }
  /* name -> the text a browser would post ("" when blank or unticked) */
  function current() {
    var out = {};
    fields().forEach(function (el) {
      if (el.type === "checkbox" || el.type === "radio") {
        if (!(el.name in out)) out[el.name] = "";
        if (el.checked) out[el.name] = el.value;
      } else out[el.name] = el.value.trim();
    });
    return out;
  }
  function baseOf(name) { return base[name] || ""; }
  function syncBase() { baseInput.value = JSON.stringify(base); }

  /* What this phone changed: {name: [base, mine]}; `sendable` leaves out the fields marked
     data-local, those the server cannot take yet (a board begun but not finished, see board.js). */
  function changes(sendable) {
    var now = current(), out = {}, local = {};
    if (sendable) $all("[data-local]", form).forEach(function (el) { if (el.name) local[el.name] = 1; });
    Object.keys(now).forEach(function (n) {
      if (now[n] !== baseOf(n) && !local[n]) out[n] = [baseOf(n), now[n]];
    });
    Object.keys(base).forEach(function (n) {  // a row removed on this phone: its fields are blank now
      if (!(n in now) && baseOf(n) !== "" && !local[n]) out[n] = [baseOf(n), ""];
    });
    return out;
  }
  function pending() { return Object.keys(changes(false)).length > 0; }
  function under(name, prefix) { return name === prefix || name.indexOf(prefix + "-") === 0; }

  /* The rows this phone added (nothing of theirs in the base) that the changes fill: should the
     other phone have added a row at the same place, the server puts this one after it. */
  function added(sent) {
    var out = [];
    $all("[data-rows]", form).forEach(function (box) {
      rowsOf(box).forEach(function (row, i) {
        var prefix = box.dataset.rows + "-" + i;
        var mine = Object.keys(sent).some(function (n) { return under(n, prefix); });
        var was = Object.keys(base).some(function (n) { return under(n, prefix) && base[n]; });
        if (mine && !was) out.push(prefix);
      });
    });
    return out;
  }

  function byName(name) {
    return $all("input, select, textarea", form).filter(function (el) { return el.name === name; });
  }
  function valueOf(name) { var v = current()[name]; return v === undefined ? "" : v; }
  function setValue(name, value) {
    if (!byName(name).length) { if (value === "") return; grow(name); }
    byName(name).forEach(function (el) {
      if (el.type === "checkbox") el.checked = value !== "" && value === el.value;
      else if (el.type === "radio") el.checked = el.value === value;
      else el.value = value;
    });
  }

  /* Take in what the server holds (`stored`: every non-blank stored value): a field this phone has
     not changed since shows it; the base of every field becomes it, except the fields in conflict,
     which keep theirs until the player chooses. */
  function adopt(values, keep, sent) {
    var names = {};
    Object.keys(values || {}).forEach(function (n) { names[n] = 1; });
    Object.keys(base).forEach(function (n) { names[n] = 1; });
    Object.keys(sent || {}).forEach(function (n) { names[n] = 1; });
    Object.keys(names).forEach(function (n) {
      if (keep && keep[n]) return;
      var theirs = values[n] || "";
      /* A field this phone just sent keeps what the player sees, even when the server holds it
         otherwise (a radio that only arranges the page, like Reterra's "Dessiner" with nothing
         painted yet): its base says what is stored, so it stays a change until it can be kept. */
      if (!(sent && n in sent) && theirs !== baseOf(n) && valueOf(n) === baseOf(n)) setValue(n, theirs);
      if (theirs) base[n] = theirs; else delete base[n];
    });
    syncBase();
    showIf();
    /* fields written here fire no input event (they are not this phone's changes): scripts that
       draw from fields (board.js) redraw on this */
    form.dispatchEvent(new CustomEvent("adopted", { bubbles: true }));
  }

  function readDraft() {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (err) { return null; }
  }
  function writeDraft() {
    try { localStorage.setItem(key, JSON.stringify({ base: base, values: current() })); }
    catch (err) { /* private mode or full storage: the server copy still holds the last save */ }
  }
  function dropDraft() { try { localStorage.removeItem(key); } catch (err) { /* nothing kept */ } }

  function say(text, kind) {
    if (!state) return;
    state.textContent = text;
    state.className = "save-state" + (kind ? " " + kind : "");
  }

  function showNotice(lines, actions) {
    notice.textContent = "";
    lines.forEach(function (line) { var p = document.createElement("p"); p.textContent = line; notice.appendChild(p); });
    if (actions) notice.appendChild(actions);
    notice.hidden = !lines.length;
  }

  /* The error summary at the top: each field to fix, a link to it, and its message. */
  function showSummary(items) {
    if (!summaryBox) return;
    var list = summaryBox.querySelector("ul");
    list.textContent = "";
    (items || []).forEach(function (item) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = "#f-" + item[0];
      a.textContent = item[1];
      li.appendChild(a);
      li.appendChild(document.createTextNode(" : " + item[2]));
      list.appendChild(li);
    });
    summaryBox.hidden = !(items && items.length);
  }

  function clearMarks() {
    $all(".field-error", form).forEach(function (p) { p.textContent = ""; });
    $all(".has-error", form).forEach(function (el) { el.classList.remove("has-error"); });
    $all("[aria-invalid=true]", form).forEach(function (el) { el.setAttribute("aria-invalid", "false"); });
  }

  function mark(errors, general) {
    var elsewhere = (general || []).slice();
    Object.keys(errors || {}).forEach(function (name) {
      var p = document.getElementById("e-" + name);
      var wrap = document.getElementById("f-" + name);
      if (!p) { elsewhere.push(errors[name].join(" \u00b7 ")); return; }
      p.textContent = errors[name].join(" \u00b7 ");
      if (wrap) wrap.classList.add("has-error");
      var input = form.querySelector('[name="' + name + '"]');
      if (input) input.setAttribute("aria-invalid", "true");
    });
    return elsewhere;
  }

  /* Warnings (a likely mistake, never blocking), field name -> messages, in their w-NAME slots. */
  function markWarnings(warnings) {
    if (!warnings) return;
    $all(".field-warning", form).forEach(function (p) { p.textContent = ""; });
    Object.keys(warnings).forEach(function (name) {
      var p = document.getElementById("w-" + name);
      if (p) p.textContent = warnings[name].join(" \u00b7 ");
    });
  }

  function markTheirs(theirs) {
    $all(".theirs", form).forEach(function (p) { p.remove(); });
    Object.keys(theirs || {}).forEach(function (name) {
      var anchor = document.getElementById("e-" + name);
      if (!anchor) return;
      var p = document.createElement("p");
      p.className = "theirs";
      p.id = "t-" + name;
      p.appendChild(document.createTextNode(T("theirs")));
      var b = document.createElement("b");
      b.textContent = theirs[name];
      p.appendChild(b);
      anchor.parentNode.insertBefore(p, anchor.nextSibling);
    });
  }

  /* A conflict: the fields both phones changed keep this phone's entries, marked with the other
     phone's value; the player applies theirs or mine, field by field written as chosen. */
  function resolve(mine) {
    Object.keys(conflicts).forEach(function (n) {
      var theirs = stored[n] || "";
      if (!mine) setValue(n, theirs);
      if (theirs) base[n] = theirs; else delete base[n];
    });
    syncBase();
    conflicts = {};
    paused = false;
    markTheirs({});
    showNotice([]);
    showIf();
    /* the fields now hold the values chosen: what draws from them (a Reterra board) draws again, or
       the player would go on from a drawing that is no longer what the page sends */
    form.dispatchEvent(new CustomEvent("adopted", { bubbles: true }));
    save();
  }

  /* The fields in conflict ([name, label, their value]), each a link to its field (on its step),
     then the two choices. */
  function conflictActions(fields) {
    var wrap = document.createElement("div");
    var list = document.createElement("ul");
    list.className = "conflict-fields";
    (fields || []).forEach(function (item) {
      var wrap_ = document.getElementById("f-" + item[0]);
      var hidden = wrap_ && wrap_.closest("[hidden]");
      if (!wrap_ || (hidden && !hidden.matches("[data-stage]"))) return;  // a copy the page fills itself
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = "#f-" + item[0];
      a.textContent = item[1];
      li.appendChild(a);
      li.appendChild(document.createTextNode(" — " + T("theirs")));
      var b = document.createElement("b");
      b.textContent = item[2];
      li.appendChild(b);
      list.appendChild(li);
    });
    if (list.children.length) wrap.appendChild(list);
    var box = document.createElement("div");
    box.className = "button-row";
    wrap.appendChild(box);
    var mine = document.createElement("button");
    mine.type = "button";
    mine.textContent = T("apply_mine");
    mine.addEventListener("click", function () { resolve(true); });
    var theirs = document.createElement("button");
    theirs.type = "button";
    theirs.className = "ghost";
    theirs.textContent = T("take_theirs");
    theirs.addEventListener("click", function () { resolve(false); });
    box.appendChild(mine);
    box.appendChild(theirs);
    return wrap;
  }

  /* Running totals from a save; none (a draft the rules cannot score yet, a conflict): a dash, never
     an old number. */
  var storedTotals = null;  // the totals of what the server holds, from the last answer
  function showTotals(totals) {
    $all("[data-seat-total]").forEach(function (el) {
      var total = (totals || [])[+el.getAttribute("data-seat-total")];
      el.textContent = total === undefined ? "\u2013" : total;
    });
  }

  /* What the player last touched stays where it is on the screen while a save's answer fills
     messages above it (a warning for a player still being entered): the page scrolls by what they
     added, so the next tap lands where the finger aims, not on the square below. Only for a save
     that went through: a conflict or a refusal stops the entry, and its notice at the top must show. */
  var touched = null;
  document.addEventListener("pointerdown", function (e) { touched = e.target; }, true);
  document.addEventListener("focusin", function (e) { touched = e.target; }, true);
  function steady(apply) {
    var anchor = touched && document.contains(touched) ? touched : null;
    var before = anchor && anchor.getClientRects().length ? anchor.getBoundingClientRect().top : null;
    apply();
    if (before === null || !anchor.getClientRects().length) return;
    var moved = anchor.getBoundingClientRect().top - before;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
  }

  /* An answer saying what the server holds now (a save's, or `catchUp`'s): the fields, the totals,
     the rules not met yet (flagged beside their fields, saved anyway) and the warnings. */
  function take(data, sent, keep) {
    version.value = data.version;
    stored = data.stored || {};
    adopt(stored, keep || null, sent);
    storedTotals = data.totals;
    showTotals(data.totals);
    clearMarks();
    markTheirs({});
    showSummary([]);
    markWarnings(data.warnings);
    showNotice(mark(data.errors, data.general));
  }

  /* Back to the front (the phone woken up, the tab shown again, the network back): another phone
     may have saved meanwhile, and this one would show old values and old totals until its own next
     save. Ask what the server holds (nothing comes back while it is still this page's version) and
     take it in when no save is on its way. A field this phone changed and has not sent (a board
     half painted, kept here) keeps its value AND its base: its save, later, is merged against what
     it was based on, so a field both phones changed is still a conflict, never a silent overwrite. */
  var asking = false, refused = false;  // refused: the last save was refused, its messages stand
  function quiet() { return !inFlight && !paused && !timer && !refused; }
  function catchUp() {
    if (asking || !form.dataset.state || document.visibilityState === "hidden" || !quiet()) return;
    asking = true;
    var asked = version.value;
    fetch(form.dataset.state + "?version=" + encodeURIComponent(asked), {
      credentials: "same-origin", headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (response.status >= 400) {  // the server says what happened (a game deleted): shown as it is
        return response.json().then(function (data) {
          if (data && data.message) showNotice([data.message]);
          return null;
        }, function () { return null; });
      }
      return response.status === 200 ? response.json() : null;
    }).then(function (data) {
      /* typed meanwhile, or a save answered first: the save brings the news, with the merge */
      if (!data || !data.ok || version.value !== asked || !quiet()) return;
      var mine = changes(false);
      steady(function () { take(data, null, mine); });
      if (pending()) writeDraft(); else dropDraft();
      say(T("caught_up"), "ok");
    }).catch(function () {
      /* no network: the next save, or the next return to the front, asks again */
    }).then(function () { asking = false; });
  }

  function save(keepalive) {
    clearTimeout(timer);
    timer = null;
    if (paused) return;
    if (inFlight) { again = true; return; }
    var sent = changes(true);
    if (!Object.keys(sent).length) {
      if (!pending()) dropDraft();
      if (!pending() && storedTotals) showTotals(storedTotals);  // the page is what the server holds
      say(pending() ? T("kept_here") : T("saved"), pending() ? "" : "ok");
      return;
    }
    inFlight = true;
    var data = new FormData();
    if (csrf) data.append("csrf_token", csrf.value);
    data.append("version", version.value);
    /* Scripts that know what a field follows say it (board.js: the card a count was typed for), and
       may put a change in the terms the server keeps (a count by card rather than by row). */
    var payload = JSON.parse(JSON.stringify(sent)), keys = {};
    form.dispatchEvent(new CustomEvent("sending", { detail: { changes: payload, keys: keys, base: base } }));
    data.append("changes", JSON.stringify(payload));
    data.append("row_keys", JSON.stringify(keys));
    data.append("new_rows", JSON.stringify(added(sent)));
    say(T("saving"), "busy");
    fetch(form.dataset.autosave, {
      method: "POST", body: data, credentials: "same-origin", keepalive: !!keepalive,
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      return response.json().then(function (data) { return [response.status, data]; },
                                   function () { return [response.status, null]; });
    }).then(function (res) {
      var status = res[0], data = res[1];
      if (status === 200 && data && data.ok) steady(function () {
        refused = false;
        /* A row of ours put after the other phone's (both added one at the same place): its old place
           shows theirs, and ours shows at its new place (adopt fills it, as another phone's row). */
        Object.keys(data.moved || {}).forEach(function (old) {
          Object.keys(sent).forEach(function (n) {
            if (!under(n, old)) return;
            delete sent[n];
            setValue(n, (data.stored || {})[n] || "");
            if ((data.stored || {})[n]) base[n] = data.stored[n]; else delete base[n];
          });
        });
        take(data, sent);
        if (pending()) writeDraft(); else dropDraft();
        say(data.draft ? T("saved_draft") : T("saved"), "ok");
      });
      else if (status === 409 && data) {
        submitAfter = null;  // the tap that waited for this save: the player chooses first, then taps again
        refused = false;
        version.value = data.version;
        stored = data.stored || {};
        conflicts = data.theirs || {};
        paused = true;
        adopt(stored, conflicts);  // the other phone's other changes are taken in
        clearMarks();
        markTheirs(conflicts);
        storedTotals = data.totals;
        showTotals(null);  // theirs or mine: no total is the game's until this phone chooses
        showNotice([data.message].concat(mark(data.errors, data.general)), conflictActions(data.fields));
        notice.scrollIntoView({block: "nearest"});  // its two buttons are how the entry goes on
        writeDraft();
        say(T("not_saved_conflict"), "bad");
      } else if (status === 422 && data) {
        refused = true;
        clearMarks();
        showNotice(mark(data.errors, data.general));
        showSummary(data.summary);
        say(T("not_saved_fix"), "bad");
      } else {
        /* Any other answer (an expired page, a game deleted, too large, a busy or full server): the
           server's own words when it gave them, and the entry stays here, in its fields and in the
           draft, for a later save or a reload. */
        submitAfter = null;  // a tap that waited for this save waits for the player to tap again
        showNotice([data && data.message ? data.message : T("save_failed", {status: status})]);
        writeDraft();
        say(T("not_saved"), "bad");
        /* tried again 10 s later when the server said the trouble may pass (its own JSON answer) */
        if (data && data.message && [408, 500, 503, 507].indexOf(status) >= 0) timer = setTimeout(save, 10000);
      }
    }).catch(function () {
      submitAfter = null;  // a tap that waited for this save: offline, it waits for the player to tap again
      say(T("offline"), "bad");
      timer = setTimeout(save, 10000);
    }).then(function () {
      inFlight = false;
      flagSteps();
      if (submitAfter !== null && !paused) {
        var button = submitAfter;
        submitAfter = null;
        again = false;
        if (button === true) form.submit();
        else if (form.requestSubmit) form.requestSubmit(button);
        else button.click();
        return;
      }
      if (again) { again = false; save(); }
    });
  }

  function changed(e) {
    if (e && e.target && e.target.name) copyTo(e.target);
    writeDraft();
    if (paused) return;
    say(T("pending"), "busy");
    clearTimeout(timer);
    timer = setTimeout(save, DELAY);
  }

  /* A full submit ("Enregistrer", "Voir les résultats") carries every field and their base values:
     the server takes the difference. Drop the pending autosave, and let one already on its way
     finish first so the base sent is the latest. The draft stays until the next page shows the
     server holds it. */
  var submitAfter = null;
  form.addEventListener("submit", function (e) {
    if (paused) {  // a conflict waits for the player's choice: no save may settle it for them
      e.preventDefault();
      notice.scrollIntoView({block: "nearest"});
      var first = notice.querySelector("button");
      if (first) first.focus();
      say(T("choose_first"), "bad");
      return;
    }
    var waiting = !!timer;  // changes typed within the autosave's delay, not sent yet
    clearTimeout(timer);
    timer = null;
    try {  // once the server holds a newer version, this draft was sent: it is not put back
      var d = readDraft();
      if (d) { d.submitted = version.value; localStorage.setItem(key, JSON.stringify(d)); }
    } catch (err) { /* ignore */ }
    if (inFlight) {
      e.preventDefault();
      submitAfter = e.submitter || true;
      say(T("saving"), "busy");
    } else if (waiting && Object.keys(changes(true)).length) {
      /* changes still waiting for the autosave: they go first, field by field (a conflict then shows
         its notice and its choices, as any autosave's), and the submit follows if they are saved.
         Only these: a switch the server reads back otherwise stays a change for good (see adopt),
         and the submit that follows the save must not wait for it again. */
      e.preventDefault();
      submitAfter = e.submitter || true;
      carry(Object.keys(changes(true)));
      save();
    }
  });

  /* The fields a save just took before a submit: the page saved comes back at them (without this, the
     submit itself carries no change, and the page would come back at its first step). */
  function carry(names) {
    var input = form.querySelector("input[name=just_saved]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = "just_saved";
      form.appendChild(input);
    }
    input.value = JSON.stringify(names);
  }

  /* A change only this phone can keep for now (a half-painted board): into the draft, not sent. */
  form.addEventListener("draft", function () {
    writeDraft();
    if (!timer && !inFlight && !paused) say(T("kept_here"), "");
  });
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  window.addEventListener("online", function () { if (pending()) save(); else catchUp(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden" && timer) save(true);
    else catchUp();
  });
  window.addEventListener("focus", catchUp);
  window.addEventListener("pageshow", function (e) { if (e.persisted) catchUp(); });

  /* Add the rows a draft's field needs, outer lists first: cities-2-tiles-3-player adds cities up to
     the third (each with one blank tile), then tiles in it up to the fourth. */
  function grow(name) {
    for (var guard = 0; guard < 200; guard++) {
      if (form.querySelector('[name="' + name.replace(/["\\]/g, "\\$&") + '"]')) return;
      var box = null, index = NaN;
      $all("[data-rows]", form).forEach(function (b) {
        var prefix = b.dataset.rows + "-";
        var m = name.indexOf(prefix) === 0 && /^(\d+)(?=-|$)/.exec(name.slice(prefix.length));
        if (m && (!box || b.dataset.rows.length > box.dataset.rows.length)) { box = b; index = parseInt(m[1], 10); }
      });
      if (!box || rowsOf(box).length > index || !addRow(box)) return;  // no list for it, or no room
    }
  }

  /* A draft left by a closed tab, a reload within the autosave's delay or a dead phone: each field
     it changed comes back with the base it was changed from, unless the page already shows it (the
     save got through). Sent at once: the server merges it like any save. */
  function restore(draft) {
    var back = false;
    Object.keys(draft.values).forEach(function (n) {
      var mine = draft.values[n], was = (draft.base || {})[n] || "";
      /* a switch the server reads back otherwise (data-keep-local) comes back as this phone left it */
      var kept = !!form.querySelector('[name="' + n + '"][data-keep-local]');
      if ((mine === was && !kept) || valueOf(n) === mine) return;
      setValue(n, mine);
      if (was) base[n] = was; else delete base[n];
      back = true;
    });
    syncBase();
    return back;
  }

  var draft = readDraft();
  var theirsShown = !!form.querySelector(".theirs");  // a conflict page (no-JS submit): taken as shown
  if (theirsShown) {
    /* A full submit met a conflict (another phone saved between this page's last autosave and the
       tap): the same choices as an autosave's conflict, rather than the no-JS advice to reload. */
    $all(".theirs", form).forEach(function (p) { if (p.id) conflicts[p.id.slice(2)] = 1; });
    paused = true;
    var listed = $all("[data-conflict] li").map(function (li) {
      return [li.dataset.name, li.dataset.label, li.dataset.theirs];
    });
    showNotice([T("conflict_live")], conflictActions(listed));
    say(T("not_saved_conflict"), "bad");
  }
  var sent = !!(draft && draft.submitted && parseInt(version.value, 10) > parseInt(draft.submitted, 10));
  if (draft && draft.values && !theirsShown && !sent && restore(draft)) {
    showIf();
    showNotice([T("restored")]);
    /* sent once every script has read the restored fields (board.js marks what cannot be sent yet) */
    if (document.readyState === "complete") save();
    else document.addEventListener("DOMContentLoaded", function () { save(); });
  } else if (pending()) {
    writeDraft();  // a page the server refused shows entries it does not hold: a reload keeps them
  } else {
    dropDraft();
  }
  showIf();
})();
