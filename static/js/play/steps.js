/* The play page, one step at a time: the list of steps, the previous / next links, "Joueur suivant"
   in the sticky bar, the running totals. Second of the play scripts (after fields.js). */
(function () {
  "use strict";

  var Play = window.Play = window.Play || {};
  var $all = Play.$all;
  var form = document.getElementById("end-state");

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

  /* Back where you were: the step on screen is kept on this phone, per game, so that a refresh or
     a game reopened later comes back to it (a link to a step or a field still wins). */
  var KEPT = "companion-step:" + location.pathname;
  function keptStep() {
    try { return stepIndex(window.localStorage.getItem(KEPT) || ""); } catch (e) { return -1; }
  }
  function keepStep(k) {
    try { window.localStorage.setItem(KEPT, steps[k].id); } catch (e) { /* private mode: not kept */ }
    /* a link's #step or #field (in another step) is where the page opened, not where the phone is now */
    var linked = location.hash ? stepOf(document.getElementById(location.hash.slice(1))) : -1;
    if (linked >= 0 && linked !== k && window.history.replaceState)
      window.history.replaceState(window.history.state, "", location.pathname + location.search);
  }

  function showStep(k, focus) {
    if (k < 0 || k >= steps.length) return;
    onStage = k;
    keepStep(k);
    steps.forEach(function (s, j) { s.hidden = j !== k; });
    /* the step on screen, for where.js (the table's screen says which step each phone is on) */
    Play.stepOn = steps[k].id;
    document.dispatchEvent(new CustomEvent("play:step", { detail: steps[k].id }));
    $all("[data-goto]").forEach(function (a) {
      if (a.classList.contains("seat")) {
        if (a.dataset.goto === steps[k].id) a.setAttribute("aria-current", "step");
        else a.removeAttribute("aria-current");
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
      /* "Suivant" on screen (the bar is one row at 390 px), said in full: "Joueur suivant : Inès" */
      next.textContent = T("next");
      var spoken = following && following.dataset.seat !== undefined ? "next_player_named" : "next_step_named";
      if (following) next.setAttribute("aria-label", T(spoken, {name: following.dataset.stageLabel}));
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
    var firstBad = form.querySelector(".has-error, .field-error:not(:empty)");
    var summary = document.getElementById("error-summary");
    if (start < 0 && firstBad && summary && !summary.hidden) start = stepOf(firstBad);  // a refused post
    if (start < 0) start = keptStep();  // a refresh, a game reopened
    var fresh = start < 0 && !firstBad;  // opened here for the first time: no link, no step kept
    if (start < 0) start = firstBad ? stepOf(firstBad) : 0;
    showStep(Math.max(0, start), false);
    flagSteps();
    /* A game nobody has typed in, opened on this phone for the first time (the new-game page leads
       here): the cursor waits in the first field to type, as after "Suivant" (issue 32; a game
       started, a refresh, a link to a step keep the page as it opens). */
    if (fresh && !$all("input", form).some(function (el) {
      return /^(text|number|search|tel)$/.test(el.type) && el.value.trim();
    })) {
      var firstField = fieldsOf(onStage).filter(function (el) { return el.matches("input"); })[0];
      if (firstField) firstField.focus();
    }

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
    /* the field after `el` in the step on screen, none after its last (fields.js's number that
       cannot grow moves the cursor there, never on to the next step: the player does that) */
    Play.nextField = function (el) {
      var list = fieldsOf(onStage), at = list.indexOf(el);
      return at >= 0 && at + 1 < list.length ? list[at + 1] : null;
    };
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

  /* The last field of the last step: its "suivant" shows the results (fields.js: the page's main
     action), so the phone keyboard's key says "go" there, "next" everywhere else. */
  if (form && steps.length > 1) {
    form.addEventListener("focusin", function (e) {
      var el = e.target;
      if (!el.matches("input") || /^(submit|button|checkbox|radio|hidden)$/.test(el.type)) return;
      var list = fieldsOf(onStage);
      if (onStage + 1 >= steps.length && list[list.length - 1] === el) el.setAttribute("enterkeyhint", "go");
      else if (el.getAttribute("enterkeyhint") === "go") el.setAttribute("enterkeyhint", "next");
    });
  }

  /* Running totals from a save; none (a draft the rules cannot score yet, a conflict): a dash, never
     an old number. */
  function showTotals(totals) {
    $all("[data-seat-total]").forEach(function (el) {
      var total = (totals || [])[+el.getAttribute("data-seat-total")];
      el.textContent = total === undefined ? "\u2013" : total;
    });
  }

  /* A change on its way to the server: the totals it changes show a dash until the answer brings
     theirs (an old number would read as this change's result). A player's own field changes their
     total; any other (a city, a building card) may change everyone's. */
  function staleTotals(names) {
    var seats = {}, all = false;
    names.forEach(function (n) {
      var m = /^players-(\d+)-/.exec(n);
      if (m) seats[m[1]] = 1; else all = true;
    });
    $all("[data-seat-total]").forEach(function (el) {
      if (all || seats[el.getAttribute("data-seat-total")]) el.textContent = "\u2013";
    });
  }

  Play.flagSteps = flagSteps;
  Play.staleTotals = staleTotals;
  Play.showTotals = showTotals;
})();
