/* The page's half of the save protocol (docs/architecture.md): each change sent with its base,
   retries, a conflict's notice and choices, the entry kept in a local draft. Last of the play
   scripts (after fields.js and steps.js). Optional: without it, "Enregistrer" posts the whole form. */
(function () {
  "use strict";

  var Play = window.Play || {};
  var $all = Play.$all, rowsOf = Play.rowsOf, addRow = Play.addRow, showIf = Play.showIf;
  var copyTo = Play.copyTo, flagSteps = Play.flagSteps, showTotals = Play.showTotals;
  var staleTotals = Play.staleTotals;
  var form = document.getElementById("end-state");
  var notice = document.getElementById("play-notice");
  var state = document.getElementById("save-state");
  var DELAY = 700;

  if (!form || !form.dataset.autosave || !window.fetch || !window.URLSearchParams) return;

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
    try { localStorage.setItem(key, JSON.stringify({ base: base, values: current(), version: version.value })); }
    catch (err) { /* private mode or full storage: the server copy still holds the last save */ }
  }
  function dropDraft() { try { localStorage.removeItem(key); } catch (err) { /* nothing kept */ } }

  /* What the autosave is doing, on the form (data-save-queue) for whoever waits on it (the browser
     tests: "nothing left to send" is a state, not a wall-clock wait): sending, asking (catching up),
     waiting (a save due after the delay, or a retry) or idle. */
  function settle() {
    form.dataset.saveQueue = inFlight ? "sending" : asking ? "asking" : timer ? "waiting" : "idle";
    if (!inFlight && !timer && waiters.length) {  // Play.whenSaved: the saves it waited for are done
      var ready = waiters;
      waiters = [];
      ready.forEach(function (cb) { cb(!paused && !refused && !unsent()); });
    }
  }
  var waiters = [];
  /* name -> the value the server last took for it (an answer "ok"): a choice only this page keeps
     (Revive's "Une carte par joueur" while every player's card is the same) stays unlike the stored
     value after its save, yet nothing of it waits to be sent */
  var acked = {};
  function unsent() {
    var now = changes(true);
    return Object.keys(now).some(function (n) { return acked[n] !== now[n][1]; });
  }

  function say(text, kind) {
    if (!state) return;
    state.textContent = text;
    state.className = "save-state" + (kind ? " " + kind : "");
    showWhy(false);
  }

  /* "Enregistré ✓ (incomplet)" is a button: a tap opens, just above the bar, what it means (saved,
     but a rule of the game still waits for a value; its message is beside the field), and closes it. */
  var why = null;
  function showWhy(open) {
    if (!why && !open) return;
    if (!why) {
      why = document.createElement("div");
      why.id = "draft-note";
      why.className = "draft-note";
      var p = document.createElement("p");
      p.textContent = T("draft_note");
      var close = document.createElement("button");
      close.type = "button";
      close.className = "ghost";
      close.textContent = T("close_note");
      close.addEventListener("click", function () {
        showWhy(false);
        var opener = state.querySelector(".state-why");
        if (opener) opener.focus();
      });
      why.appendChild(p);
      why.appendChild(close);
      state.parentNode.appendChild(why);
    }
    why.hidden = !open;
    var opener = state.querySelector(".state-why");
    if (opener) opener.setAttribute("aria-expanded", open ? "true" : "false");
  }
  function sayDraft() {
    say("", "ok");
    var opener = document.createElement("button");
    opener.type = "button";
    opener.className = "state-why";
    opener.textContent = T("saved_draft");
    opener.setAttribute("aria-expanded", "false");
    opener.setAttribute("aria-controls", "draft-note");
    opener.addEventListener("click", function () { showWhy(!why || why.hidden); });
    state.appendChild(opener);
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
      li.appendChild(document.createTextNode(" " + item[2]));  // below the link (its own line)
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
      var p = Play.slot("e", name);
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
      var p = Play.slot("w", name);
      if (p) p.textContent = warnings[name].join(" \u00b7 ");
    });
  }

  function markTheirs(theirs) {
    $all(".theirs", form).forEach(function (p) { p.remove(); });
    Object.keys(theirs || {}).forEach(function (name) {
      var anchor = Play.slot("e", name);
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
    if (!mine) undoing = null;  // an undo given up for the other phone's values: nothing of it is sent
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

  /* The seats changed on another phone: one button, reloading the page (its draft is dropped). */
  function reloadAction() {
    var box = document.createElement("div");
    box.className = "button-row";
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = T("reload");
    button.addEventListener("click", function () { window.location.reload(); });
    box.appendChild(button);
    return box;
  }

  /* the totals of what the server holds (steps.js shows them): the page's, then each answer's */
  var storedTotals = [];
  $all(".steps-list [data-seat-total]").forEach(function (el) {
    var text = el.textContent.trim();
    storedTotals[+el.getAttribute("data-seat-total")] = text === "\u2013" ? undefined : text;
  });

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

  /* What the server holds after a save: every non-blank value (`stored`), or, when the save was
     laid on the version this page holds, what changed since (`changed`, "" for a value gone) laid
     over what this page last heard (`stored`). */
  function heldNow(data) {
    if (!data.changed) return data.stored || {};
    var out = {};
    Object.keys(stored).forEach(function (n) { if (stored[n]) out[n] = stored[n]; });
    Object.keys(data.changed).forEach(function (n) {
      if (data.changed[n]) out[n] = data.changed[n]; else delete out[n];
    });
    return out;
  }

  /* An answer saying what the server holds now (a save's, or `catchUp`'s): the fields, the totals,
     the rules not met yet (flagged beside their fields, saved anyway) and the warnings. */
  /* The fields this phone changed that a save did not carry (typed while it was on its way, a board
     kept here): the save's answer leaves them their base, as `catchUp` does. Based on what the
     other phone stored meanwhile instead, they would go over it unseen at the next save. */
  function meanwhile(sent, also) {
    var out = {}, now = changes(false);
    Object.keys(now).forEach(function (n) { if (!(n in sent)) out[n] = 1; });
    Object.keys(also || {}).forEach(function (n) { out[n] = 1; });
    return out;
  }

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
  var asking = false, refused = false, draftNow = false;  // draftNow: the last answer's game is a draft  // refused: the last save was refused, its messages stand
  // the values wrong on their own the server last refused, as sent (JSON), and the state it said
  var lastRefused = null;
  function quiet() { return !inFlight && !paused && !timer && !refused; }
  function catchUp() {
    if (asking || !form.dataset.state || document.visibilityState === "hidden" || !quiet()) return;
    asking = true;
    settle();
    var asked = version.value;
    fetch(form.dataset.state + "?version=" + encodeURIComponent(asked), {
      credentials: "same-origin", headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (response.status >= 400) {  // the server says what happened (a game deleted): shown as it is
        return response.json().then(function (data) {
          if (data && data.reload) {  // seats moved: reload (see save)
            paused = true;
            dropDraft();
            showNotice([data.message], reloadAction());
          } else if (data && data.message) showNotice([data.message]);
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
    }).then(function () { asking = false; settle(); });
  }

  function save(keepalive) {
    clearTimeout(timer);
    timer = null;
    if (paused) return;
    if (inFlight) { again = true; return; }
    var sent = changes(true);
    /* only the values just refused, as they were refused (a field left after typing fires its change
       event): the answer would be the same, and would say nothing was stored when the rest is */
    if (lastRefused !== null && submitAfter === null && JSON.stringify(sent) === lastRefused[0]) {
      if (storedTotals) showTotals(storedTotals);
      say(lastRefused[1], "bad");
      return;
    }
    if (!Object.keys(sent).length) {
      if (!pending()) dropDraft();
      if (!pending() && storedTotals) showTotals(storedTotals);  // the page is what the server holds
      /* nothing new (a box's change event after its input event, a field left after typing): the
         state of the last answer stands, "(incomplet)" included */
      if (!pending() && draftNow) sayDraft();
      else say(pending() ? T("kept_here") : T("saved"), pending() ? "" : "ok");
      settle();
      return;
    }
    inFlight = true;
    settle();
    staleTotals(Object.keys(sent));  // a restored draft's fields too: their totals are the answer's
    /* url-encoded, not multipart: a third of the bytes, and read by the server in one pass */
    var data = new URLSearchParams();
    if (csrf) data.append("csrf_token", csrf.value);
    data.append("version", version.value);
    /* Scripts that know what a field follows say it (board.js: the card a count was typed for), and
       may put a change in the terms the server keeps (a count by card rather than by row). */
    var payload = JSON.parse(JSON.stringify(sent)), keys = {};
    form.dispatchEvent(new CustomEvent("sending", { detail: { changes: payload, keys: keys, base: base } }));
    data.append("changes", JSON.stringify(payload));
    data.append("row_keys", JSON.stringify(keys));
    data.append("new_rows", JSON.stringify(added(sent)));
    data.append("delta", "1");  // the answer may say only what changed since this page's version
    if (undoing) data.append("undo", undoing);  // the change this save undoes (Play.undo), for the log
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
        var undid = !!undoing;
        undoing = null;
        refused = false;
        lastRefused = null;
        data.stored = heldNow(data);
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
        Object.keys(sent).forEach(function (n) { acked[n] = sent[n][1]; });
        take(data, sent, meanwhile(sent));
        if (pending()) writeDraft(); else dropDraft();
        if (data.refused && data.refused.length) {
          /* stored without the values wrong on their own: each keeps what was typed (its base is what
             is stored, so it is sent again with the next save) and its message; the page does not
             catch up meanwhile, or the messages would go */
          refused = true;
          var kept = {};
          Object.keys(sent).forEach(function (n) { if (data.refused.indexOf(n) >= 0) kept[n] = sent[n]; });
          lastRefused = [JSON.stringify(kept), data.state];
          showSummary(data.summary);
          say(data.state, "bad");
        } else if (timer) say(T("pending"), "busy");  // typed meanwhile: that waits, not saved yet
        else if (undid) say(T("undone"), "ok");
        else if (data.draft) sayDraft();
        else say(T("saved"), "ok");
        draftNow = !!data.draft;
      });
      else if (status === 409 && data && data.reload) {
        /* The players' seats changed on another phone (the "Joueurs" page): this page's fields are
           keyed by seats that are now someone else's. Nothing was stored; the entry stops and the
           draft goes (put back after a reload it would land on the wrong seats): reload. */
        submitAfter = null;
        refused = false;
        paused = true;
        dropDraft();
        showNotice([data.message], reloadAction());
        notice.scrollIntoView({block: "nearest"});
        say(T("not_saved"), "bad");
      } else if (status === 409 && data) {
        submitAfter = null;  // the tap that waited for this save: the player chooses first, then taps again
        refused = false;
        version.value = data.version;
        stored = data.stored || {};
        conflicts = data.theirs || {};
        paused = true;
        adopt(stored, meanwhile(sent, conflicts));  // the other phone's other changes are taken in
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
        lastRefused = [JSON.stringify(sent), T("not_saved_fix")];
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
      settle();
    });
  }

  function changed(e) {
    if (e && e.target && e.target.name) copyTo(e.target);
    writeDraft();
    if (paused) return;
    staleTotals(Object.keys(changes(true)));  // "–" until the answer says the new totals
    if (tapped(e)) {
      if (!inFlight) { save(); return; }  // at once: its totals come back with the answer
      again = true;  // one save at a time: the answer sends this tap, on the base it brings
      say(T("pending"), "busy");
      settle();
      return;
    }
    say(T("pending"), "busy");
    clearTimeout(timer);
    timer = setTimeout(save, DELAY);  // typed: sent once the typing pauses, so a number goes whole
    settle();
  }

  /* A tap (issue 33): a stepper's − / +, a chip, a box, a tile or a city on Rebirth's pad is sent at
     once, so its totals come back within a moment; typing keeps the short delay. Told by what was
     tapped, never by whether the event is the browser's own (the scripts fire theirs). A field
     inside [data-save-after-pause] keeps the delay even when tapped (Reterra's counts by card: a
     burst of taps goes in the terms the player saw, see board.js's "sending"), and so does a switch
     that only arranges the page (data-keep-local) or a board being painted. */
  var TAPS = "button[data-step], [data-tile-pad] button, [data-new-city-size]";
  var tapping = false;
  document.addEventListener("click", function (e) {
    if (!e.target || !e.target.closest || !e.target.closest(TAPS) || !form.contains(e.target)) return;
    tapping = true;  // the events the scripts fire for this click (fields.js, rebirth.js), and no others
    setTimeout(function () { tapping = false; }, 0);
  }, true);
  document.addEventListener("click", function () { tapping = false; });  // after fields.js's (loaded first)
  function tapped(e) {
    var el = e && e.target;
    if (!el || !el.closest || el === form || el.closest("[data-save-after-pause]")) return false;
    if (el.hasAttribute("data-keep-local")) return false;
    if (tapping) return true;
    return el.type === "checkbox" || (el.type === "radio" && !!el.closest(".chip"));
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
    settle();
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

  /* Undo (the "↶" button below). An undo is a save like any other: each field of the change is
     laid back to what it was before, with what the change stored as its base, so the server
     merges it as any save and a field another phone changed since is a conflict, shown and chosen
     as any other (nothing overwritten). `undo` names the change, so the log says it is undone. */
  var undoing = null;
  Play.undo = function (changes, id) {
    if (paused) return false;
    Object.keys(changes).forEach(function (n) {
      setValue(n, changes[n][1]);
      if (changes[n][0]) base[n] = changes[n][0]; else delete base[n];
    });
    syncBase();
    showIf();
    form.dispatchEvent(new CustomEvent("adopted", { bubbles: true }));
    undoing = String(id);
    writeDraft();
    save();
    return true;
  };
  /* `cb(ready)` once nothing is left to send (a save due is sent now): ready is false when a save
     stopped on a conflict or a refusal, or a change waits to be sent (the undo waits for the player
     then); what only this phone keeps (a board being painted, a choice the server cannot hold) is
     no such change. */
  Play.whenSaved = function (cb) {
    if (paused) { cb(false); return; }
    waiters.push(cb);
    if (timer || (!inFlight && pending())) save(); else settle();
  };

  /* "↶" (the edit page's header): this phone's last change undone, then the one before, and so on
     (companion/saving/gamelog.py). What is still to send goes first; then the server says which change is
     this phone's last and what undoing it sends (`data-undo`, JSON), sent as any save (Play.undo).
     Without JavaScript the button posts its own form. */
  var undoButton = document.querySelector("[data-undo]"), undoBusy = false;
  if (undoButton) undoButton.addEventListener("click", function (e) {
    e.preventDefault();
    if (undoBusy) return;
    undoBusy = true;
    undoButton.setAttribute("aria-busy", "true");
    var was = state ? [state.textContent, state.className.replace(/^save-state ?/, "")] : null;
    function done() { undoBusy = false; undoButton.removeAttribute("aria-busy"); }
    say(T("undoing"), "busy");
    Play.whenSaved(function (ready) {
      if (!ready) {  // a conflict or a refusal first: its own notice says what to do
        if (was && state.textContent === T("undoing")) say(was[0], was[1]);
        done();
        return;
      }
      fetch(undoButton.dataset.undo, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (!data) say(T("not_saved"), "bad");
          else if (!data.ok) say(T("nothing_to_undo"), "");
          else Play.undo(data.changes, data.id);
        })
        .catch(function () { say(T("offline"), "bad"); })
        .then(done);
    });
  });

  /* A change only this phone can keep for now (a half-painted board): into the draft, not sent. */
  form.addEventListener("draft", function () {
    writeDraft();
    if (!timer && !inFlight && !paused) say(T("kept_here"), "");
  });
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  form.addEventListener("row-removed", function () { changed(); });  // fields.js: a row gone
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
  /* a draft typed before the players' seats changed (the "Joueurs" page) is keyed by seats that are
     someone else's now: never put back */
  if (draft && draft.version && parseInt(draft.version, 10) < parseInt(form.dataset.seats || "0", 10)) {
    dropDraft();
    draft = null;
  }
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
  settle();
})();
